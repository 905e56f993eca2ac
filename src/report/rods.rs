//! `impactkit rods`: colliding linear-elastic thin rods (Winandy–Leine, Sect. 4), solved
//! exactly on the characteristics lattice.

use super::{tuple_text, Num, Report, TextOptions};
use serde::Serialize;

/// A contact opening or closing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RodEventReport {
    /// The time, in units of the cell transit time ℓ/c (exact).
    pub t: Num,
    /// The contact between rods `contact` and `contact + 1` (1-based).
    pub contact: usize,
    /// `close` (the contact starts transmitting) or `open`.
    pub kind: &'static str,
}

/// Every cell at one lattice time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RodStateReport {
    /// The time (exact).
    pub t: Num,
    /// The velocity of each cell, per rod.
    pub velocity: Vec<Vec<Num>>,
    /// c·u_x, the strain times the wave speed, of each cell, per rod.
    pub strain_times_c: Vec<Vec<Num>>,
}

/// The collision: outgoing velocities, contact events, and the states on the lattice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RodsReport {
    /// The backend, as given to `--arith`.
    pub arith: String,
    /// The rods' masses, impedance × cells.
    pub masses: Vec<Num>,
    /// The final velocities (the mean velocities when a rod still vibrates).
    pub outgoing: Vec<Num>,
    pub events: Vec<RodEventReport>,
    /// The time from which every contact stays open.
    pub end_time: Num,
    /// Lattice steps per time unit (more than 1 when the lattice was refined so that a
    /// gap closes on a lattice time).
    pub steps_per_unit: usize,
    /// Whether some rod still vibrates when the contacts have opened for good (part of
    /// the energy then stays in the vibrations).
    pub vibrating: bool,
    pub states: Vec<RodStateReport>,
    /// For three rods: the pre-impact gap velocities γ⁻ = (u2 − u1, u3 − u2), the
    /// argument of the Sequential Impact Law (Winandy–Leine, (19)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gamma_minus: Option<Vec<Num>>,
    /// For three rods: the post-impact gap velocities γ⁺, to compare with the Sequential
    /// Impact Law (19).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gamma_plus: Option<Vec<Num>>,
}

/// A time in its exact form (`4/3`): times are rational multiples of ℓ/c.
fn time_text(t: &Num, o: &TextOptions) -> String {
    match t {
        Num::Exact { expr, .. } => expr.clone(),
        other => other.text(o),
    }
}

impl Report for RodsReport {
    fn text(&self, o: &TextOptions) -> String {
        let list = |xs: &[Num]| xs.iter().map(|x| x.text(o)).collect::<Vec<_>>().join(", ");
        let mut out = format!(
            "outgoing: {}{}\nend time: {}",
            list(&self.outgoing),
            if self.vibrating {
                " (mean velocities: some rod still vibrates)"
            } else {
                ""
            },
            time_text(&self.end_time, o)
        );
        if let (Some(m), Some(p)) = (&self.gamma_minus, &self.gamma_plus) {
            out += &format!(
                "\ngamma-: {}\ngamma+: {}",
                tuple_text(m, o),
                tuple_text(p, o)
            );
        }
        for e in &self.events {
            out += &format!(
                "\n  t = {}: contact {} {}s",
                time_text(&e.t, o),
                e.contact,
                e.kind
            );
        }
        out
    }
}
