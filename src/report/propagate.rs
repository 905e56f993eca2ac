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
    /// Whether every minimal sequence gives the same outcome.
    pub unique: bool,
    /// The length of the longest minimal sequence.
    pub longest: usize,
    /// For two normals: a rigorous enclosure (MPFR intervals, 128 bits) of π/γ, the
    /// bound of Theorem 1 on the length of a minimal sequence (γ the angle between the
    /// normals in the kinetic metric); `null` otherwise.
    pub bound: Option<Num>,
    /// The plastic outcome p_p of Seghete–Murphey (11): the g-orthogonal projection of p
    /// onto the covectors orthogonal to every normal; (17) combines it with the elastic
    /// outcome for `--eps R`.
    pub plastic: Vec<Num>,
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
        out += &format!(
            "\nunique: {}\nlongest sequence: {}\nplastic: {}",
            if self.unique { "yes" } else { "no" },
            self.longest,
            tuple_text(&self.plastic, o)
        );
        out += &match &self.bound {
            Some(b) => format!("\nTheorem 1 bound pi/gamma: {}", b.text(o)),
            None => "\nTheorem 1 bound pi/gamma: (only for two normals)".into(),
        };
        out
    }
}
