//! `impactkit propagate`: the propagative model of Seghete–Murphey on one simultaneous
//! impact — the minimal sequences of reset maps, their outcomes, and the bound of Theorem 1.

use super::{tuple_text, Num, Report, TextOptions};
use serde::Serialize;

/// Every minimal sequence of reset maps and what it gives.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PropagateReport {
    /// The backend, as given to `--arith`.
    pub arith: String,
    /// Every minimal sequence of reset maps Γ(u_i) (Seghete–Murphey (2014), Definition 1),
    /// as 1-based indices of the rows of `--normals`, in the order they apply.
    pub sequences: Vec<Vec<usize>>,
    /// The distinct post-impact momenta p⁺ of those sequences (elastic: the reflections
    /// (7); with `--eps R`, the inelastic combination (17) with α = R).
    pub outcomes: Vec<Vec<Num>>,
    /// Whether every minimal sequence gives the same outcome, decided on the certified
    /// ladder whatever `--arith` is (never a floating-point comparison); `null` when no
    /// rung decides it (see `uniqueness`).
    pub unique: Option<bool>,
    /// How `unique` was decided.
    pub uniqueness: Uniqueness,
    /// The length of the longest minimal sequence.
    pub longest: usize,
    /// For two normals: a rigorous enclosure (MPFR intervals, 128 bits) of π/γ, the
    /// bound of Theorem 1 on the length of a minimal sequence (γ the angle between the
    /// normals in the kinetic metric); `null` otherwise.
    pub bound: Option<Num>,
    /// The plastic outcome p_p that (17) combines with the elastic outcome for `--eps R`:
    /// the plastic impact that never pulls (impulses ≥ 0, complementary to the rates;
    /// Seghete–Murphey's (11) where every multiplier of (11) pushes).
    pub plastic: Vec<Num>,
    /// The contacts (1-based) the plastic impact releases: no impulse, separating or
    /// grazing afterwards ((11) as printed holds every contact).
    pub plastic_released: Vec<usize>,
}

/// How the uniqueness of the outcomes was decided.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Uniqueness {
    /// The rung of the certified ladder (`interval`, `mpi:BITS`, `exact`, `quadratic`)
    /// that decided the last comparison of outcomes; `null` when there was nothing to
    /// compare (one minimal sequence) or nothing was decided.
    pub certified_by: Option<String>,
    /// Why `unique` is undecided (`null` when decided): the pair of outcomes whose
    /// difference no enclosure separates from 0, its size at the highest precision
    /// tried, and why no exact backend could decide it.
    pub reason: Option<String>,
}

/// A sequence of normal indices as `u1 u2 u1`.
fn sequence_text(s: &[usize]) -> String {
    if s.is_empty() {
        return "(empty: p is already feasible)".into();
    }
    s.iter()
        .map(|i| format!("u{i}"))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Report for PropagateReport {
    fn text(&self, o: &TextOptions) -> String {
        let mut out = format!("minimal sequences: {}", self.sequences.len());
        for s in &self.sequences {
            out += &format!("\n  {}", sequence_text(s));
        }
        out += &format!("\noutcomes: {}", self.outcomes.len());
        for p in &self.outcomes {
            out += &format!("\n  p+ = {}", tuple_text(p, o));
        }
        let unique = match (self.unique, &self.uniqueness.reason) {
            (Some(true), _) => "yes".to_string(),
            (Some(false), _) => "no".to_string(),
            (None, Some(why)) => format!("undecided ({why})"),
            (None, None) => "undecided".to_string(),
        };
        out += &format!(
            "\nunique: {unique}\nlongest sequence: {}\nplastic: {}",
            self.longest,
            tuple_text(&self.plastic, o)
        );
        if !self.plastic_released.is_empty() {
            out += &format!(" (releases {})", sequence_text(&self.plastic_released));
        }
        out += &match &self.bound {
            Some(b) => format!("\nTheorem 1 bound pi/gamma: {}", b.text(o)),
            None => "\nTheorem 1 bound pi/gamma: (only for two normals)".into(),
        };
        out
    }
}
