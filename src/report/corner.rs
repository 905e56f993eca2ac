//! `impactkit corner`: the report of a disk-in-corner run (Fassino–Pasquero (2020),
//! Sect. 6), or of several entrance velocities.

use super::{tuple_text, Num, Report, TextOptions};
use crate::certify::Attempt;
use serde::Serialize;

/// Where a run stopped on a sign it could not decide.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UndecidedAt {
    pub step: usize,
    pub quantity: String,
    pub lo: String,
    pub hi: String,
}

/// Where the conditions of (6a–6d) held for no zone or for several.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AmbiguousAt {
    pub step: usize,
    pub zones: Vec<String>,
    pub reason: &'static str,
}

/// One run: zones, steps, termination, the last velocity (and every velocity with
/// `--trace`), and, for `--arith certified`, which arithmetic decided it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CornerRunReport {
    pub arith: String,
    pub steps: usize,
    pub zones: Vec<String>,
    pub termination: String,
    #[serde(rename = "final")]
    pub final_velocity: Vec<Num>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<Vec<Vec<Num>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undecided: Option<UndecidedAt>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ambiguous: Option<AmbiguousAt>,
    /// Why the run stopped at its work limit, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub work_limit: Option<String>,
    /// Why a rounded run stopped on an arithmetic failure (`termination: arith-failure`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arith_failure: Option<String>,
    /// Only for `--arith certified`: the deciding arithmetic (`null`: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certified_by: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempts: Option<Vec<Attempt>>,
    /// The long-run certificate of TA (`--arith certified`, one COR): never exits, or the
    /// exact step count of the exit ([`crate::system::corner_longrun`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<LongRunCertificate>,
}

/// The certificate of a long TA run (Fassino–Pasquero (2020), Sect. 5–6): after the entry
/// steps the zones repeat a pattern (Z1 Z2), the state after m periods is Mᵐw with M = H₁
/// or H₂ of Theorem 5.3; either an invariant cone K ⊂ P proves that the run never exits
/// (`never-exits`), or the first period that leaves the pattern is found by repeated
/// squaring and bisection (`exits`). `none`: no certificate, with the reason.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LongRunCertificate {
    /// `never-exits`, `exits` or `none`.
    pub kind: String,
    /// "Z12 then (Z1 Z2) forever", "Z12 then (Z1 Z2)^1533 then Z0".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// n₀: the rule applications made one by one before the pattern.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps_before_pattern: Option<usize>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pattern: Vec<String>,
    /// The state (ξ̇, η̇) where the pattern starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern_start: Option<Vec<Num>>,
    /// The period matrix M (rows), in (ξ̇, η̇).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matrix: Option<Vec<Vec<Num>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<Num>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub det: Option<Num>,
    /// trace² − 4 det: > 0 real eigenvalues, < 0 complex.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discriminant: Option<Num>,
    /// never-exits: the rays of the invariant cone K (in (ξ̇, η̇), det(ray₀, ray₁) > 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cone: Option<Vec<Vec<Num>>>,
    /// never-exits: ρ(M), the decay of ‖v‖ per period (an enclosure).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rho: Option<Num>,
    /// never-exits: √ρ, the decay per step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decay_per_step: Option<Num>,
    /// exits: full periods of the pattern.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub periods: Option<u64>,
    /// exits: the exact number of rule applications to Z0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// exits: the exit velocity (ẋ, ẏ).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_velocity: Option<Vec<Num>>,
    /// The argument, in one sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub argument: Option<String>,
    /// none: why no certificate was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl LongRunCertificate {
    /// No certificate, and why.
    pub fn none(reason: impl Into<String>) -> Self {
        LongRunCertificate {
            kind: "none".into(),
            summary: None,
            steps_before_pattern: None,
            pattern: Vec::new(),
            pattern_start: None,
            matrix: None,
            trace: None,
            det: None,
            discriminant: None,
            cone: None,
            rho: None,
            decay_per_step: None,
            periods: None,
            steps: None,
            exit_velocity: None,
            argument: None,
            reason: Some(reason.into()),
        }
    }

    /// The text line of the certificate.
    pub fn text(&self, o: &TextOptions) -> String {
        let summary = self.summary.as_deref().unwrap_or("");
        match self.kind.as_str() {
            "never-exits" => {
                let num = |x: &Option<Num>| x.as_ref().map(|n| n.text(o)).unwrap_or_default();
                format!(
                    "certificate: never exits: {summary} (invariant cone); |v| decays like rho^m, rho(M) = {} per period, {} per step",
                    num(&self.rho),
                    num(&self.decay_per_step)
                )
            }
            "exits" => format!(
                "certificate: exits after exactly {} steps: {summary}",
                self.steps.unwrap_or(0)
            ),
            _ => format!(
                "certificate: none ({})",
                self.reason.as_deref().unwrap_or("")
            ),
        }
    }
}

impl Report for CornerRunReport {
    fn text(&self, o: &TextOptions) -> String {
        let mut out = format!(
            "steps: {}\nzones: {}\ntermination: {}\nfinal: {}",
            self.steps,
            super::elided_words(&self.zones),
            self.termination,
            tuple_text(&self.final_velocity, o)
        );
        for (i, v) in self.trace.iter().flatten().enumerate() {
            out += &format!("\n  v{i} = {}", tuple_text(v, o));
        }
        if let Some(u) = &self.undecided {
            out += &format!(
                "\nundecided at step {}: sign of {} in [{}, {}]",
                u.step, u.quantity, u.lo, u.hi
            );
        }
        if let Some(a) = &self.ambiguous {
            out += &format!(
                "\nambiguous at step {}: zones {} ({})",
                a.step,
                a.zones.join(" "),
                a.reason
            );
        }
        if let Some(w) = &self.work_limit {
            out += &format!("\n{w}");
        }
        if let Some(w) = &self.arith_failure {
            out += &format!("\n{w}");
        }
        if let Some(c) = &self.certified_by {
            out += &certified_text(c, self.attempts.as_deref().unwrap_or(&[]));
        }
        if let Some(c) = &self.certificate {
            out += &format!("\n{}", c.text(o));
        }
        out
    }
}

/// Several entrance velocities (`--v0 "x1,y1;x2,y2;…"`), one run each.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CornerBatchReport {
    pub runs: Vec<CornerRunReport>,
}

impl Report for CornerBatchReport {
    fn text(&self, o: &TextOptions) -> String {
        let total: usize = self.runs.iter().map(|r| r.steps).sum();
        let mut out = format!("runs: {}\nsteps in all: {total}", self.runs.len());
        for (i, r) in self.runs.iter().enumerate() {
            out += &format!(
                "\n{}: {} step(s), {}, final {}",
                i + 1,
                r.steps,
                r.termination,
                tuple_text(&r.final_velocity, o)
            );
        }
        out
    }
}

/// One rule application in closed form, under the hypothesis that the velocity lies in
/// the zone (`--arith symbolic`): Fassino–Pasquero (2020) eqs. (13) / (14) / (6), or
/// Pasquero's (10), as rational functions of the inputs' variables.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ZoneStep {
    pub zone: String,
    /// The hypothesis under which the formula holds (eq. (1)).
    pub hypothesis: &'static str,
    /// The velocity after one application, (ẋ', ẏ').
    pub velocity: Vec<Num>,
}

/// The closed forms of one step of the corner rule in every zone.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SymbolicStepReport {
    pub arith: &'static str,
    pub form: String,
    pub k: Num,
    pub v0: Vec<Num>,
    pub steps: Vec<ZoneStep>,
}

impl Report for SymbolicStepReport {
    fn text(&self, o: &TextOptions) -> String {
        let mut out = format!(
            "one step of the {} form, k = tan(alpha) = {}, v = {}",
            self.form,
            self.k.text(o),
            tuple_text(&self.v0, o)
        );
        for s in &self.steps {
            out += &format!(
                "\n{} ({}): {}",
                s.zone,
                s.hypothesis,
                tuple_text(&s.velocity, o)
            );
        }
        out
    }
}

/// The certification lines of a text report: which arithmetic decided, and the attempts
/// before it, named briefly (their bounds are in the JSON).
pub fn certified_text(by: &Option<String>, attempts: &[Attempt]) -> String {
    let mut out = format!(
        "\ncertified by: {}",
        by.as_deref().unwrap_or("nothing (undecided)")
    );
    let tried: Vec<String> = attempts
        .iter()
        .map(|a| {
            let what = a.outcome.split(':').next().unwrap_or("");
            format!("{} ({what})", a.arith)
        })
        .collect();
    if !tried.is_empty() {
        out += &format!("\ntried before: {}", tried.join(", "));
    }
    out
}
