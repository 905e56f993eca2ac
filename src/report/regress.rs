//! `impactkit regress`: per record, every law's outcome and its distance to the engine's;
//! per engine, which law it is nearest to.

use super::{tuple_text, Num, Report, TextOptions};
use serde::Serialize;

/// Longest scenario name in the text summary (longer ones are elided in the middle).
const MAX_NAME: usize = 60;

/// A scenario's name (the system file's) for text: long ones elided in the middle.
fn name(s: &str) -> String {
    let c: Vec<char> = s.chars().collect();
    if c.len() <= MAX_NAME {
        return s.to_string();
    }
    let head: String = c[..MAX_NAME / 2].iter().collect();
    let tail: String = c[c.len() - (MAX_NAME / 2 - 1)..].iter().collect();
    format!("{head}…{tail}")
}

/// One law against one record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LawCheck {
    pub law: &'static str,
    pub applies: bool,
    /// The law's outcome nearest to the engine's (empty when the law does not apply).
    pub outcome: Vec<Num>,
    /// engine − law, per component: exact, or an enclosure.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub difference: Vec<Num>,
    /// max_i |engine_i − law_i|: exact, or an enclosure.
    pub distance: Option<Num>,
    /// An upper bound of `distance` in f64 (for sorting and scripts).
    pub distance_upper: Option<f64>,
    /// The law's contacts in impact order (simultaneous ones joined with `+`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sequence: Vec<String>,
    /// Whether the engine's contact order fits the law's (`null`: not reported).
    pub sequence_consistent: Option<bool>,
    pub note: String,
}

impl LawCheck {
    /// A law without an outcome, and why (`does not apply: …` or `undecided: …`).
    pub fn not_applying(law: &'static str, why: String) -> Self {
        LawCheck {
            law,
            applies: false,
            outcome: Vec::new(),
            difference: Vec::new(),
            distance: None,
            distance_upper: None,
            sequence: Vec::new(),
            sequence_consistent: None,
            note: why,
        }
    }
}

/// The `expect` clause of a record, checked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExpectReport {
    pub law: String,
    pub tolerance: f64,
    pub distance: Option<Num>,
    pub pass: bool,
    pub reason: String,
}

/// One record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RecordReport {
    /// 1-based line of the records file.
    pub line: usize,
    pub id: Option<String>,
    pub engine: String,
    pub version: Option<String>,
    /// The engine's parameter set (`engine.params.set`), if named.
    pub set: Option<String>,
    pub scenario: String,
    pub source: String,
    /// The arithmetic of the laws (exact, quadratic, or mpi:BITS enclosures).
    pub arith: String,
    pub laws: Vec<LawCheck>,
    /// Every law that applies gives the same outcome: the record cannot tell them apart.
    pub not_discriminating: bool,
    /// The laws of the nearest outcome (laws with equal outcomes together).
    pub nearest: Vec<&'static str>,
    pub second: Vec<&'static str>,
    /// The nearest is nearer than the second, decided (`null`: undecided or no second).
    pub nearest_certain: Option<bool>,
    pub energy_before: Num,
    pub energy_after: Num,
    /// (E_after − E_before)/E_before (f64).
    pub energy_change: Option<f64>,
    /// ‖Δp off span{∇φ}‖_g / ‖p⁻‖_g (f64): momentum no contact impulse can produce.
    pub momentum_defect: Option<f64>,
    pub expect: Option<ExpectReport>,
    /// Why the record could not be checked (bad input), with its line.
    pub error: Option<String>,
}

impl RecordReport {
    /// A record that could not be checked.
    pub fn error(line: usize, id: Option<String>, reason: String) -> Self {
        RecordReport {
            line,
            id,
            engine: String::new(),
            version: None,
            set: None,
            scenario: String::new(),
            source: String::new(),
            arith: String::new(),
            laws: Vec::new(),
            not_discriminating: false,
            nearest: Vec::new(),
            second: Vec::new(),
            nearest_certain: None,
            energy_before: Num::Approx(rug::Float::new(53)),
            energy_after: Num::Approx(rug::Float::new(53)),
            energy_change: None,
            momentum_defect: None,
            expect: None,
            error: Some(crate::input::one_line(&reason)),
        }
    }
}

/// One engine (name and version) over its records.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineRow {
    pub engine: String,
    pub version: Option<String>,
    pub records: usize,
    pub expectations: usize,
    pub failed: usize,
    /// Per scenario, which laws were the nearest.
    pub scenarios: Vec<ScenarioRow>,
}

/// One scenario of one engine: how often each group of laws (equal outcomes joined with
/// `=`) was the nearest, over the engine's parameter sets.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScenarioRow {
    pub scenario: String,
    /// Every law gives the same outcome here.
    pub not_discriminating: bool,
    pub nearest: Vec<(String, usize)>,
}

/// The whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegressReport {
    pub records: Vec<RecordReport>,
    pub engines: Vec<EngineRow>,
    /// Expectations that do not hold.
    pub failed: usize,
    /// Records that could not be checked (bad input).
    pub errors: usize,
}

impl RegressReport {
    /// The report of `records`, with the engine summary.
    pub fn of(records: Vec<RecordReport>) -> Self {
        let failed = records
            .iter()
            .filter(|r| r.expect.as_ref().is_some_and(|x| !x.pass))
            .count();
        let errors = records.iter().filter(|r| r.error.is_some()).count();
        RegressReport {
            engines: crate::regress::engines(&records),
            records,
            failed,
            errors,
        }
    }
}

fn short(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), |d| format!("{d:.2e}"))
}

impl Report for RegressReport {
    fn text(&self, o: &TextOptions) -> String {
        let mut out = String::new();
        for r in &self.records {
            if let Some(e) = &r.error {
                out += &format!("line {}: error: {e}\n", r.line);
                continue;
            }
            let near = |names: &[&str]| {
                let d = names
                    .first()
                    .and_then(|n| r.laws.iter().find(|l| l.law == *n))
                    .and_then(|l| l.distance_upper);
                format!("{} ({})", names.join("="), short(d))
            };
            let fits: Vec<&str> = r
                .laws
                .iter()
                .filter(|l| l.sequence_consistent == Some(true))
                .map(|l| l.law)
                .collect();
            let reported = r.laws.iter().any(|l| l.sequence_consistent.is_some());
            let order = match (reported, fits.is_empty()) {
                (false, _) => String::new(),
                (true, true) => "; contact order fits no law".to_string(),
                (true, false) => format!("; contact order fits {}", fits.join(", ")),
            };
            out += &format!(
                "line {} {} [{}{}] {}: nearest {}, then {}{}{}{}\n",
                r.line,
                r.id.as_deref().unwrap_or(""),
                r.engine,
                r.set.as_ref().map(|s| format!(" {s}")).unwrap_or_default(),
                name(&r.scenario),
                near(&r.nearest),
                if r.second.is_empty() {
                    "—".into()
                } else {
                    near(&r.second)
                },
                if r.not_discriminating {
                    "; not discriminating"
                } else {
                    ""
                },
                order,
                match &r.expect {
                    Some(x) if x.pass => format!("; expect {} ok", x.law),
                    Some(x) => format!("; expect {} FAILED ({})", x.law, x.reason),
                    None => String::new(),
                }
            );
            if o.exact_values {
                for l in r.laws.iter().filter(|l| l.applies) {
                    out += &format!("    {:<18} {}\n", l.law, tuple_text(&l.outcome, o));
                }
            }
        }
        out += "\nnearest law per engine and scenario (times, over the engine's records)\n";
        for e in &self.engines {
            out += &format!(
                "{} {}: {} records, {} expectations, {} failed\n",
                e.engine,
                e.version.as_deref().unwrap_or("—"),
                e.records,
                e.expectations,
                e.failed
            );
            let width = e
                .scenarios
                .iter()
                .map(|s| s.scenario.chars().count().min(MAX_NAME))
                .max();
            for sc in &e.scenarios {
                let nearest: Vec<String> = sc
                    .nearest
                    .iter()
                    .map(|(l, n)| format!("{l} ({n})"))
                    .collect();
                out += &format!(
                    "  {:<w$} {}{}\n",
                    name(&sc.scenario),
                    nearest.join(", "),
                    if sc.not_discriminating {
                        " — not discriminating"
                    } else {
                        ""
                    },
                    w = width.unwrap_or(0)
                );
            }
        }
        out += &format!(
            "{} records, {} expectations failed, {} records with errors",
            self.records.len(),
            self.failed,
            self.errors
        );
        out
    }
}
