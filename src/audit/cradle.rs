//! `impactkit audit cradle`: Newton's cradle through Pasquero's step-by-step procedure
//! (Sect. 3.5) over a domain of masses, CORs, initial velocities and the AEEV threshold.
//! The zones are the procedure's impacted sets, step by step (`{1,2}`: contacts 1 and 2).

use super::domain::Axis;
use super::{leak, quote, vector_params, Law, LawRun, Param};
use crate::arith::backend::Backend;
use crate::system::cradle::CradleSpec;
use crate::system::SpecError;
use std::collections::BTreeMap;

/// A cradle audit as the command line states it.
#[derive(Clone, Debug)]
pub struct CradleAudit {
    pub balls: usize,
    /// The option texts as given (for the configuration).
    pub given: BTreeMap<String, String>,
    /// `m1..mn` (`None`: all 1, as the command takes).
    pub masses: Option<usize>,
    /// How many CORs: 1 (every contact) or n − 1.
    pub cors: usize,
    /// How many initial velocities: 1 (ball 1 moves) or n.
    pub velocities: usize,
    pub sigma: bool,
    pub max_steps: usize,
    /// The work limit of exact runs (`--max-digits`).
    pub max_digits: u64,
    params: Vec<Param>,
}

impl CradleAudit {
    /// The audit of `balls` balls with masses (one axis per ball, or none: all 1), CORs
    /// (one axis for every contact, or one per contact), initial velocities (one axis:
    /// ball 1 moves, or one per ball) and the AEEV threshold σ; `given` holds the options'
    /// texts.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        balls: usize,
        masses: Option<Vec<Axis>>,
        eps: Vec<Axis>,
        v0: Vec<Axis>,
        sigma: Option<Axis>,
        max_steps: usize,
        max_digits: u64,
        given: BTreeMap<String, String>,
    ) -> CradleAudit {
        let mut params = Vec::new();
        let m = masses.as_ref().map(Vec::len);
        if let Some(m) = &masses {
            params.extend(vector_params(m, "m", "--masses", "mass"));
        }
        let cors = eps.len();
        if cors == 1 {
            params.push(Param {
                name: "eps",
                option: "--eps",
                label: "COR eps",
                axis: eps[0].clone(),
            });
        } else {
            params.extend(vector_params(&eps, "e", "--eps", "COR"));
        }
        let velocities = v0.len();
        if velocities == 1 {
            params.push(Param {
                name: "v",
                option: "--v0",
                label: "velocity v of ball 1",
                axis: v0[0].clone(),
            });
        } else {
            params.extend(vector_params(&v0, "v", "--v0", "initial velocity"));
        }
        if let Some(s) = &sigma {
            params.push(Param {
                name: "sigma",
                option: "--sigma",
                label: leak("AEEV threshold sigma".into()),
                axis: s.clone(),
            });
        }
        CradleAudit {
            balls,
            given,
            masses: m,
            cors,
            velocities,
            sigma: sigma.is_some(),
            max_steps,
            max_digits,
            params,
        }
    }
}

impl Law for CradleAudit {
    type Spec = CradleSpec;

    fn name(&self) -> &'static str {
        "cradle"
    }

    fn params(&self) -> &[Param] {
        &self.params
    }

    fn options(&self) -> BTreeMap<String, String> {
        let mut o = self.given.clone();
        o.insert("--balls".into(), self.balls.to_string());
        o.insert("--max-steps".into(), self.max_steps.to_string());
        o
    }

    fn spec(&self, inputs: &[String]) -> CradleSpec {
        let mut it = inputs.iter();
        let mut take = |n: usize| it.by_ref().take(n).cloned().collect::<Vec<_>>().join(",");
        let masses = self.masses.map(&mut take);
        let eps = take(self.cors);
        let v0 = take(self.velocities);
        let sigma = self.sigma.then(|| take(1));
        CradleSpec {
            balls: self.balls,
            eps,
            masses,
            v0,
            sigma,
            max_iter: self.max_steps,
            // the trace holds the impacted sets (the zones); it changes no number
            record_velocities: true,
            max_digits: Some(self.max_digits),
        }
    }

    fn run(&self, spec: &CradleSpec, backend: Backend) -> Result<LawRun, SpecError> {
        let r = spec.report(backend)?;
        let zones = r
            .trace
            .iter()
            .flatten()
            .map(|s| {
                let set: Vec<String> = s.impacting.iter().map(|i| i.to_string()).collect();
                format!("{{{}}}", set.join(","))
            })
            .collect();
        Ok(LawRun {
            zones,
            steps: r.iterations,
            termination: r.termination,
            final_state: r.final_velocity,
            undecided: r.undecided.map(|u| u.to_string()).or(r.work_limit.clone()),
        })
    }

    fn reproduce(&self, spec: &CradleSpec, backend: Backend) -> String {
        let mut c = format!("impactkit cradle --balls {}", spec.balls);
        if let Some(m) = &spec.masses {
            c += &format!(" --masses {}", quote(m));
        }
        c += &format!(" --eps {} --v0 {}", quote(&spec.eps), quote(&spec.v0));
        if let Some(s) = &spec.sigma {
            c += &format!(" --sigma {}", quote(s));
        }
        c + &format!(" --max-steps {} --arith {backend}", spec.max_iter)
    }
}
