//! `impactkit cradle`: a run of Pasquero's procedure (Sect. 3.5) on Newton's cradle, and
//! the reproduction of Table 1 (Sect. 4.1).

use super::{nums, tuple_text, Num, Report, TextOptions};
use crate::arith::Scalar;
use crate::law::characterization::{Outcome, Stop};

use serde::Serialize;

/// One impulse of the procedure: the impacted contacts (1-based), single or multiple,
/// and the velocity after it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ImpulseReport {
    pub impacting: Vec<usize>,
    pub kind: &'static str,
    pub velocity: Vec<Num>,
}

/// A run: iterations, why it stopped, the final velocities, and (with `--trace`) every
/// impulse.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CradleReport {
    pub arith: String,
    pub iterations: usize,
    pub termination: String,
    #[serde(rename = "final")]
    pub final_velocity: Vec<Num>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<Vec<ImpulseReport>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undecided: Option<crate::arith::Undecided>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub work_limit: Option<String>,
    /// Only for `--arith certified`: the deciding arithmetic (`null`: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certified_by: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempts: Option<Vec<crate::certify::Attempt>>,
}

impl CradleReport {
    /// The report of an outcome of backend `arith` (the trace if velocities were kept).
    pub fn of<S: Scalar>(o: &Outcome<S>, arith: &str) -> Self {
        let recorded = o.steps.iter().all(|s| !s.velocity.is_empty());
        CradleReport {
            arith: arith.to_string(),
            iterations: o.steps.len(),
            termination: o.stop.name().to_string(),
            final_velocity: nums(o.final_velocity()),
            trace: recorded.then(|| {
                o.steps
                    .iter()
                    .map(|s| ImpulseReport {
                        impacting: s.impacting.iter().map(|i| i + 1).collect(),
                        kind: s.kind(),
                        velocity: nums(&s.velocity),
                    })
                    .collect()
            }),
            undecided: match &o.stop {
                Stop::Undecided { quantity, lo, hi } => Some(crate::arith::Undecided {
                    quantity: quantity.clone(),
                    lo: lo.clone(),
                    hi: hi.clone(),
                }),
                _ => None,
            },
            work_limit: match &o.stop {
                Stop::WorkLimit { step, digits } => Some(format!(
                    "stopped at iteration {step}: the exact velocities reached {digits} digits (--max-digits); raise --max-digits, or use --arith certified"
                )),
                _ => None,
            },
            certified_by: None,
            attempts: None,
        }
    }
}

impl Report for CradleReport {
    fn text(&self, o: &TextOptions) -> String {
        let mut out = format!(
            "iterations: {}\ntermination: {}\nfinal: {}",
            self.iterations,
            self.termination,
            tuple_text(&self.final_velocity, o)
        );
        for (i, s) in self.trace.iter().flatten().enumerate() {
            let contacts: Vec<String> = s.impacting.iter().map(|c| c.to_string()).collect();
            out += &format!(
                "\n  {}: {} impact at contacts [{}] -> {}",
                i + 1,
                s.kind,
                contacts.join(", "),
                tuple_text(&s.velocity, o)
            );
        }
        if let Some(u) = &self.undecided {
            out += &format!(
                "\nundecided: sign of {} in [{}, {}]",
                u.quantity, u.lo, u.hi
            );
        }
        if let Some(w) = &self.work_limit {
            out += &format!("\n{w}");
        }
        if let Some(c) = &self.certified_by {
            out += &super::corner::certified_text(c, self.attempts.as_deref().unwrap_or(&[]));
        }
        out
    }
}

/// The paper's row of Table 1, as printed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PaperRow {
    pub v: [&'static str; 3],
    pub iterations: usize,
    pub aeev: bool,
}

/// Our values for a row of Table 1 (or why there are none).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum OurRow {
    Run {
        #[serde(rename = "final")]
        final_velocity: Vec<Num>,
        iterations: usize,
        termination: String,
    },
    Error {
        error: String,
    },
}

/// One row of Table 1 beside ours.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table1RowReport {
    pub cor: &'static str,
    pub paper: PaperRow,
    pub ours: OurRow,
    pub agreement: Vec<Agreement>,
    #[serde(rename = "match")]
    pub matched: bool,
}

/// Table 1 of Pasquero (three equal balls, v0 = 100) beside this program's values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table1Report {
    pub arith: String,
    pub sigma: &'static str,
    pub rows: Vec<Table1RowReport>,
}

impl Report for Table1Report {
    fn text(&self, _o: &TextOptions) -> String {
        // twelve digits: two more than the paper prints, so a difference shows
        let ten = TextOptions {
            digits: 12,
            exact_values: false,
        };
        let mut s = format!(
            "Table 1 of Pasquero (three equal balls, v0 = 100, sigma = {}), arith = {}\n",
            self.sigma, self.arith
        );
        s += &format!(
            "{:>7} | {:>12} {:>12} {:>12} {:>9} | {:>14} {:>14} {:>14} {:>9} | match\n",
            "COR", "paper v1", "v2", "v3", "its", "ours v1", "v2", "v3", "its"
        );
        let its = |aeev: bool, n: usize| {
            if aeev {
                format!("AEEV/{n}")
            } else {
                n.to_string()
            }
        };
        for r in &self.rows {
            let (d, oits): (Vec<String>, String) = match &r.ours {
                OurRow::Run {
                    final_velocity,
                    iterations,
                    termination,
                } => (
                    final_velocity.iter().map(|x| x.text(&ten)).collect(),
                    its(termination == "aeev", *iterations),
                ),
                OurRow::Error { .. } => (vec!["-".into(); 3], "-".into()),
            };
            s += &format!(
                "{:>7} | {:>12} {:>12} {:>12} {:>9} | {:>14} {:>14} {:>14} {:>9} | {}\n",
                r.cor,
                r.paper.v[0],
                r.paper.v[1],
                r.paper.v[2],
                its(r.paper.aeev, r.paper.iterations),
                d[0],
                d[1],
                d[2],
                oits,
                if r.matched { "yes" } else { "NO" }
            );
        }
        s.trim_end().to_string()
    }
}

/// How one of our values compares with the printed one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Agreement {
    /// Equal to the printed decimal, exactly.
    Exact,
    /// Within half a unit of the printed decimal's last digit.
    Rounded,
    /// Further away.
    Differs,
}
