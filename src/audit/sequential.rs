//! `impactkit audit sequential`: the Winandy–Leine Sequential Impact Law of a three-ball
//! cradle (`sequential map`) over a domain of pre-impact contact velocities γ⁻, masses and
//! the restitution of the classic laws reported beside. Its zone is the cone C_i of γ⁻
//! that eq. (19) selects; its final state γ⁺ = Q_i γ⁻.

use super::domain::Axis;
use super::{quote, vector_params, Law, LawRun, Param};
use crate::arith::backend::Backend;
use crate::system::sequential::MapSpec;
use crate::system::SpecError;
use std::collections::BTreeMap;

/// A sequential audit as the command line states it.
#[derive(Clone, Debug)]
pub struct SequentialAudit {
    /// The option texts as given (for the configuration).
    pub given: BTreeMap<String, String>,
    pub masses: bool,
    pub restitution: bool,
    params: Vec<Param>,
}

impl SequentialAudit {
    /// The audit of γ⁻ (two axes), the masses (three axes, or none: 1,1,1) and the
    /// restitution of Newton's and Poisson's laws.
    pub fn new(
        gamma: Vec<Axis>,
        masses: Option<Vec<Axis>>,
        restitution: Option<Axis>,
        given: BTreeMap<String, String>,
    ) -> SequentialAudit {
        let mut params = vector_params(&gamma, "g", "--gamma", "pre-impact contact velocity");
        if let Some(m) = &masses {
            params.extend(vector_params(m, "m", "--masses", "mass"));
        }
        if let Some(e) = &restitution {
            params.push(Param {
                name: "eps",
                option: "--eps",
                label: "COR eps (Newton, Poisson)",
                axis: e.clone(),
            });
        }
        SequentialAudit {
            given,
            masses: masses.is_some(),
            restitution: restitution.is_some(),
            params,
        }
    }
}

impl Law for SequentialAudit {
    type Spec = MapSpec;

    fn name(&self) -> &'static str {
        "sequential"
    }

    fn params(&self) -> &[Param] {
        &self.params
    }

    fn options(&self) -> BTreeMap<String, String> {
        self.given.clone()
    }

    fn spec(&self, inputs: &[String]) -> MapSpec {
        let mut it = inputs.iter();
        let mut take = |n: usize| it.by_ref().take(n).cloned().collect::<Vec<_>>().join(",");
        let gamma = take(2);
        let masses = self.masses.then(|| take(3));
        let restitution = self.restitution.then(|| take(1));
        MapSpec {
            gamma,
            masses,
            restitution,
        }
    }

    fn run(&self, spec: &MapSpec, backend: Backend) -> Result<LawRun, SpecError> {
        let r = spec.report(backend)?;
        Ok(LawRun {
            zones: vec![r.cone.clone().unwrap_or_else(|| "undecided".into())],
            steps: 1,
            termination: if r.cone.is_some() {
                "mapped"
            } else {
                "undecided"
            }
            .into(),
            final_state: r.gamma_plus.unwrap_or_default(),
            undecided: r.undecided.map(|u| u.to_string()),
        })
    }

    fn reproduce(&self, spec: &MapSpec, backend: Backend) -> String {
        let mut c = format!("impactkit sequential map --gamma {}", quote(&spec.gamma));
        if let Some(m) = &spec.masses {
            c += &format!(" --masses {}", quote(m));
        }
        if let Some(e) = &spec.restitution {
            c += &format!(" --eps {}", quote(e));
        }
        c + &format!(" --arith {backend}")
    }
}
