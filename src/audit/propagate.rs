//! `impactkit audit propagate`: the propagative model of Seghete–Murphey over a domain of
//! masses, contact normals, momenta and the restitution R. Its "zones" are the outcome it
//! chooses: the canonical listing of the minimal sequences (sorted, `1-2-1` for the
//! sequence of normals 1, 2, 1; `none` for the empty one), then `unique` or `outcomes:k`;
//! a divergence is the first differing entry of that listing.

use super::domain::Axis;
use super::{quote, vector_params, Law, LawRun, Param};
use crate::arith::backend::Backend;
use crate::law::LawError;
use crate::system::propagate::PropagateSpec;
use crate::system::SpecError;
use std::collections::BTreeMap;

/// A propagate audit as the command line states it.
#[derive(Clone, Debug)]
pub struct PropagateAudit {
    /// The option texts as given (for the configuration).
    pub given: BTreeMap<String, String>,
    pub masses: usize,
    /// Components of every normal.
    pub normals: Vec<usize>,
    pub momentum: usize,
    pub restitution: bool,
    pub max_depth: usize,
    params: Vec<Param>,
}

impl PropagateAudit {
    /// The audit of masses (one axis per body coordinate), normals (one row of axes per
    /// contact), the momentum (one axis per coordinate) and R.
    pub fn new(
        masses: Vec<Axis>,
        normals: Vec<Vec<Axis>>,
        momentum: Vec<Axis>,
        restitution: Option<Axis>,
        max_depth: usize,
        given: BTreeMap<String, String>,
    ) -> PropagateAudit {
        let mut params = vector_params(&masses, "m", "--masses", "mass");
        for (i, row) in normals.iter().enumerate() {
            params.extend(vector_params(
                row,
                super::leak(format!("n{}_", i + 1)),
                "--normals",
                "normal component",
            ));
        }
        params.extend(vector_params(&momentum, "p", "--momentum", "momentum"));
        if let Some(r) = &restitution {
            params.push(Param {
                name: "eps",
                option: "--eps",
                label: "restitution R",
                axis: r.clone(),
            });
        }
        PropagateAudit {
            given,
            masses: masses.len(),
            normals: normals.iter().map(Vec::len).collect(),
            momentum: momentum.len(),
            restitution: restitution.is_some(),
            max_depth,
            params,
        }
    }
}

impl Law for PropagateAudit {
    type Spec = PropagateSpec;

    fn name(&self) -> &'static str {
        "propagate"
    }

    fn params(&self) -> &[Param] {
        &self.params
    }

    fn options(&self) -> BTreeMap<String, String> {
        let mut o = self.given.clone();
        o.insert("--max-steps".into(), self.max_depth.to_string());
        o
    }

    fn spec(&self, inputs: &[String]) -> PropagateSpec {
        let mut it = inputs.iter();
        let mut take = |n: usize| it.by_ref().take(n).cloned().collect::<Vec<_>>().join(",");
        let masses = take(self.masses);
        let normals = self
            .normals
            .iter()
            .map(|&n| take(n))
            .collect::<Vec<_>>()
            .join(";");
        let momentum = take(self.momentum);
        let restitution = self.restitution.then(|| take(1));
        PropagateSpec {
            masses,
            normals,
            momentum,
            restitution,
            max_depth: self.max_depth,
        }
    }

    fn run(&self, spec: &PropagateSpec, backend: Backend) -> Result<LawRun, SpecError> {
        let r = match spec.report(backend) {
            Ok(r) => r,
            Err(SpecError::Law(e @ LawError::Undecided { .. })) => {
                return Ok(LawRun {
                    termination: "undecided".into(),
                    undecided: Some(e.to_string()),
                    ..LawRun::default()
                })
            }
            Err(e) => return Err(e),
        };
        let Some(unique) = r.unique else {
            // no rung of the certified ladder decided whether the outcomes are equal
            return Ok(LawRun {
                termination: "undecided".into(),
                undecided: r.uniqueness.reason,
                ..LawRun::default()
            });
        };
        let mut zones: Vec<String> = r
            .sequences
            .iter()
            .map(|s| {
                if s.is_empty() {
                    "none".to_string()
                } else {
                    s.iter().map(usize::to_string).collect::<Vec<_>>().join("-")
                }
            })
            .collect();
        zones.sort();
        let termination = if unique {
            "unique".to_string()
        } else {
            format!("outcomes:{}", r.outcomes.len())
        };
        zones.push(termination.clone());
        Ok(LawRun {
            zones,
            steps: r.longest,
            termination: if unique { "unique" } else { "not unique" }.into(),
            // the outcome of the first minimal sequence (search order)
            final_state: r.outcomes.into_iter().next().unwrap_or_default(),
            undecided: None,
        })
    }

    fn reproduce(&self, spec: &PropagateSpec, backend: Backend) -> String {
        let mut c = format!(
            "impactkit propagate --masses {} --normals {} --momentum {}",
            quote(&spec.masses),
            quote(&spec.normals),
            quote(&spec.momentum)
        );
        if let Some(r) = &spec.restitution {
            c += &format!(" --eps {}", quote(r));
        }
        c + &format!(" --max-steps {} --arith {backend}", spec.max_depth)
    }
}
