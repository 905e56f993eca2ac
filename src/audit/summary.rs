//! The summary of an audit: counts and fractions, where the audited arithmetic first
//! leaves the true branch, how far apart the results end, and the worst cases with the
//! command that reproduces each. A function of the records alone, so a merge of shards
//! gives a single run's summary.

use super::record::Record;
use super::Config;
use crate::arith::TextOptions;
use crate::report::Report;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Minimum, median and maximum of a set of numbers (in JSON each `{"approx": "…"}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    #[serde(with = "super::record::approx")]
    pub min: f64,
    #[serde(with = "super::record::approx")]
    pub median: f64,
    #[serde(with = "super::record::approx")]
    pub max: f64,
}

fn spread(mut xs: Vec<f64>) -> Option<Spread> {
    if xs.is_empty() {
        return None;
    }
    xs.sort_by(f64::total_cmp);
    Some(Spread {
        min: xs[0],
        median: xs[xs.len() / 2],
        max: xs[xs.len() - 1],
    })
}

/// One notable sample.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Case {
    pub index: u64,
    pub inputs: BTreeMap<String, String>,
    /// Why it is listed.
    pub note: String,
    pub reproduce: String,
}

fn case(r: &Record, note: String) -> Case {
    Case {
        index: r.index,
        inputs: r.inputs.clone(),
        note,
        reproduce: r.reproduce.clone(),
    }
}

/// The summary of a set of records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Samples in this output.
    pub samples: u64,
    /// Samples whose reference was certified.
    pub certified: u64,
    /// Samples whose reference no arithmetic of the ladder decided (not compared).
    pub undecided: u64,
    /// How many references each arithmetic certified.
    pub certified_by: BTreeMap<String, u64>,
    /// Certified samples with the same zone sequence in both arithmetics.
    pub same_zones: u64,
    /// Certified samples where the audited arithmetic took another branch.
    pub different_zones: u64,
    /// … of which the run ended another way (exit, rest, max-steps).
    pub different_termination: u64,
    /// different_zones / certified.
    pub fraction_different: Option<f64>,
    /// The step of the first divergence, over the samples that diverge.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub first_divergence: Option<Spread>,
    /// Upper bounds of ‖audited − true‖ over the certified samples.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub distance: Option<Spread>,
    /// Upper bounds of ‖audited − true‖/‖true‖ over the certified samples.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub relative_distance: Option<Spread>,
    /// Rule applications of the audited arithmetic, in all samples.
    pub audited_steps: u64,
    /// The audited run's terminations.
    pub audited_terminations: BTreeMap<String, u64>,
    /// The worst cases: the largest relative distances, the earliest divergences.
    pub worst: Vec<Case>,
    /// Up to 20 samples whose reference stayed undecided, with the reason.
    pub undecided_samples: Vec<Case>,
}

/// How many worst cases of each kind a summary lists.
const WORST: usize = 5;

impl Summary {
    /// The summary of a run that kept no records (`--reference none`, no `--out`).
    pub fn of_tally(tally: &super::Tally) -> Summary {
        let mut s = Summary::of(&[]);
        s.samples = tally.samples;
        s.audited_steps = tally.steps;
        for (t, n) in &tally.terminations {
            s.audited_terminations.insert(t.to_string(), *n);
        }
        s
    }

    /// The summary of `records`.
    pub fn of(records: &[Record]) -> Summary {
        let mut s = Summary {
            samples: records.len() as u64,
            certified: 0,
            undecided: 0,
            certified_by: BTreeMap::new(),
            same_zones: 0,
            different_zones: 0,
            different_termination: 0,
            fraction_different: None,
            first_divergence: None,
            distance: None,
            relative_distance: None,
            audited_steps: 0,
            audited_terminations: BTreeMap::new(),
            worst: Vec::new(),
            undecided_samples: Vec::new(),
        };
        let (mut div, mut dist, mut rel) = (Vec::new(), Vec::new(), Vec::new());
        for r in records {
            s.audited_steps += r.audited.steps as u64;
            *s.audited_terminations
                .entry(r.audited.termination.clone())
                .or_default() += 1;
            if let Some(why) = &r.undecided {
                s.undecided += 1;
                if s.undecided_samples.len() < 20 {
                    s.undecided_samples.push(case(r, why.clone()));
                }
            }
            let (Some(reference), Some(c)) = (&r.reference, &r.comparison) else {
                continue;
            };
            s.certified += 1;
            *s.certified_by
                .entry(reference.certified_by.clone())
                .or_default() += 1;
            if c.same_zones {
                s.same_zones += 1;
            } else {
                s.different_zones += 1;
                if !c.same_termination {
                    s.different_termination += 1;
                }
            }
            if let Some(d) = &c.divergence {
                div.push(d.step as f64);
            }
            dist.push(c.distance.hi);
            if let Some(x) = &c.relative_distance {
                rel.push(x.hi);
            }
        }
        s.fraction_different =
            (s.certified > 0).then(|| s.different_zones as f64 / s.certified as f64);
        s.first_divergence = spread(div);
        s.distance = spread(dist);
        s.relative_distance = spread(rel);
        s.worst = worst_cases(records);
        s
    }
}

/// The records with the largest relative distance (upper bound), then those that
/// diverge earliest, without repeats; ties go to the lower index.
fn worst_cases(records: &[Record]) -> Vec<Case> {
    let compared: Vec<&Record> = records.iter().filter(|r| r.comparison.is_some()).collect();
    let mut by_rel: Vec<(f64, &Record)> = compared
        .iter()
        .filter_map(|r| {
            let c = r.comparison.as_ref()?;
            let x = c.relative_distance.map_or(c.distance.hi, |b| b.hi);
            (x > 0.0).then_some((x, *r))
        })
        .collect();
    by_rel.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.index.cmp(&b.1.index)));
    let mut out: Vec<Case> = by_rel
        .iter()
        .take(WORST)
        .map(|(x, r)| {
            let c = r.comparison.as_ref().expect("filtered");
            let rel = c.relative_distance.is_some();
            let mut note = format!(
                "{} distance up to {x:.3e}",
                if rel { "relative" } else { "absolute" }
            );
            if let Some(d) = &c.divergence {
                note += &format!(
                    "; diverges at step {}: {} instead of {}",
                    d.step, d.audited, d.reference
                );
            }
            case(r, note)
        })
        .collect();
    let mut by_div: Vec<(usize, &Record)> = compared
        .iter()
        .filter_map(|r| Some((r.comparison.as_ref()?.divergence.as_ref()?.step, *r)))
        .collect();
    by_div.sort_by_key(|(s, r)| (*s, r.index));
    for (step, r) in by_div {
        if out.len() >= 2 * WORST {
            break;
        }
        if out.iter().any(|c| c.index == r.index) {
            continue;
        }
        let d = r
            .comparison
            .as_ref()
            .and_then(|c| c.divergence.as_ref())
            .expect("filtered");
        out.push(case(
            r,
            format!(
                "diverges at step {step}: {} instead of {}",
                d.audited, d.reference
            ),
        ));
    }
    out
}

/// What a run prints: configuration, summary, figures, and the time it took.
#[derive(Clone, Debug, Serialize)]
pub struct AuditReport {
    pub config: Config,
    pub shard: super::domain::Shard,
    pub summary: Summary,
    pub figures: super::figure::Figures,
    /// The output directory, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out: Option<String>,
    /// Wall time and audited rule applications per second (absent for a merge).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timing: Option<Timing>,
}

/// The time a run took.
#[derive(Clone, Debug, Serialize)]
pub struct Timing {
    pub seconds: f64,
    /// Audited rule applications per second of wall time (all work included).
    pub steps_per_second: f64,
    pub threads: usize,
}

fn pct(a: u64, b: u64) -> String {
    if b == 0 {
        "-".into()
    } else {
        format!("{:.2} %", 100.0 * a as f64 / b as f64)
    }
}

impl Report for AuditReport {
    fn text(&self, _o: &TextOptions) -> String {
        let s = &self.summary;
        let c = &self.config;
        let mut out = format!(
            "audit {} over {} point{}",
            c.law,
            c.points,
            if c.points == 1 { "" } else { "s" }
        );
        if self.shard.count > 1 {
            out += &format!(" (shard {}: {} samples)", self.shard, s.samples);
        }
        out += "\n";
        for (k, v) in &c.options {
            out += &format!("  {k} {v}\n");
        }
        out += &format!(
            "audited arithmetic: {} rule applications; terminations: {}\n",
            s.audited_steps,
            s.audited_terminations
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        if s.certified + s.undecided == 0 {
            out += "reference: none (--reference none)\n";
        } else {
            out += &format!(
                "certified references: {} of {} ({}), by {}\n",
                s.certified,
                s.samples,
                pct(s.certified, s.samples),
                s.certified_by
                    .iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            if s.undecided > 0 {
                out += &format!("undecided references (not compared): {}\n", s.undecided);
            }
            out += &format!(
                "same zone sequence: {} ({}); another branch: {} ({}), of which another termination: {}\n",
                s.same_zones,
                pct(s.same_zones, s.certified),
                s.different_zones,
                pct(s.different_zones, s.certified),
                s.different_termination
            );
            if let Some(d) = &s.first_divergence {
                out += &format!(
                    "first divergence at step: min {}, median {}, max {}\n",
                    d.min, d.median, d.max
                );
            }
            if let Some(d) = &s.distance {
                out += &format!(
                    "|audited - true| (upper bounds): median {:.3e}, max {:.3e}\n",
                    d.median, d.max
                );
            }
            if let Some(d) = &s.relative_distance {
                out += &format!(
                    "relative distance (upper bounds): median {:.3e}, max {:.3e}\n",
                    d.median, d.max
                );
            }
        }
        if !s.worst.is_empty() {
            out += "worst cases:\n";
            for w in &s.worst {
                out += &format!("  #{} {}\n    {}\n", w.index, w.note, w.reproduce);
            }
        }
        if !s.undecided_samples.is_empty() {
            out += "undecided references:\n";
            for w in &s.undecided_samples {
                out += &format!("  #{} {}\n    {}\n", w.index, w.note, w.reproduce);
            }
        }
        out += &self.figures.text(self.out.as_deref());
        if let Some(dir) = &self.out {
            out += &format!("records: {dir}/{}\n", super::SAMPLES_FILE);
        }
        if let Some(t) = &self.timing {
            out += &format!(
                "time: {:.3} s on {} threads, {:.3e} audited rule applications per second\n",
                t.seconds, t.threads, t.steps_per_second
            );
        }
        out.trim_end().to_string()
    }
}
