//! `impactkit penny`: the bouncing penny of Clark & Bloch, Sect. V–VI — one impact through
//! the three maps, and runs on the table.

use super::{tuple_text, Num, Report, TextOptions};
use crate::system::penny::End;
use serde::Serialize;

/// The impact maps of the penny.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PennyLaw {
    /// P of Theorem 3.1 (5), for the penny (28)–(29): the constraints not imposed.
    P,
    /// The elastic nonholonomic map (15), Proposition 4.1, Definition 4.3.
    Elastic,
    /// The plastic nonholonomic map π_Δ ∘ P, Definition 4.4 (18).
    Plastic,
}

impl PennyLaw {
    pub fn name(self) -> &'static str {
        match self {
            PennyLaw::P => "p",
            PennyLaw::Elastic => "elastic",
            PennyLaw::Plastic => "plastic",
        }
    }

    pub fn citation(self) -> &'static str {
        match self {
            PennyLaw::P => "Clark-Bloch Thm 3.1 (5); (28)-(29)",
            PennyLaw::Elastic => "Clark-Bloch Prop 4.1 (15)-(17), Def 4.3",
            PennyLaw::Plastic => "Clark-Bloch Def 4.4 (18); Prop 4.2 (20)-(21), (32)-(33)",
        }
    }
}

/// One map's outcome.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LawRow {
    pub law: PennyLaw,
    pub citation: &'static str,
    /// q̇⁺ = (ẋ, ẏ, θ̇, φ̇).
    pub qdot: Vec<Num>,
    /// The multiplier of dh in Δp: C of (29) for P (4), α of (15) for the elastic map;
    /// `null` for the plastic map.
    pub alpha: Option<Num>,
    /// λ_k of (15)–(16) (elastic only).
    pub lambda: Option<Vec<Num>>,
    /// C of (29) (P only).
    #[serde(rename = "C")]
    pub c: Option<Num>,
    /// ½ q̇⁺ᵀMq̇⁺.
    pub energy: Num,
    /// Equal to the energy before (decided; `null`: undecided on this backend).
    pub energy_conserved: Option<bool>,
    /// dH(q̇⁺).
    pub normal_rate: Num,
    /// g(q̇⁺, t), t spanning Δ ∩ ker dH.
    pub invariant: Option<Num>,
    pub invariant_conserved: Option<bool>,
    /// q̇⁺ ∈ Δ (the constraints (23) hold after the impact); `null`: undecided on this
    /// backend (an enclosure of ω^k(q̇⁺) contains 0).
    pub in_distribution: Option<bool>,
    /// dH(q̇⁻)·dH(q̇⁺) < 0: the end leaves the boundary.
    pub admissible: bool,
    /// θ̇⁺ = θ̇⁻ (the paper's remark after (29), about P).
    pub theta_dot_unchanged: Option<bool>,
    /// The momentum p_i = (Mq̇)_i along each symmetry of the impact: each coordinate
    /// that neither the Lagrangian (22), the constraints (24) nor the surface H depend on
    /// (θ always; x or y for a wall parallel to that axis).
    pub momentum: Vec<MomentumRow>,
}

/// The momentum along one symmetry, before and after a map.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MomentumRow {
    pub coordinate: &'static str,
    pub before: Num,
    pub after: Num,
    pub conserved: Option<bool>,
}

/// `impactkit penny impact`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ImpactReport {
    pub arith: String,
    pub mass: Num,
    pub radius: Num,
    pub inertia: Num,
    pub spin_inertia: Num,
    /// (cos φ, sin φ).
    pub heading: Vec<Num>,
    pub end: End,
    /// The end's point on the boundary.
    pub point: Vec<Num>,
    /// The contact point (x, y) of the penny.
    pub position: Vec<Num>,
    /// (h_x, h_y) at the point.
    pub gradient: Vec<Num>,
    /// dH in (x, y, θ, φ), H = h ∘ end, (27)/(34).
    pub dh: Vec<Num>,
    /// q̇⁻.
    pub qdot: Vec<Num>,
    /// dH(q̇⁻) > 0.
    pub normal_rate: Num,
    /// ½ q̇⁻ᵀMq̇⁻.
    pub energy: Num,
    /// t spanning Δ ∩ ker dH.
    pub tangent: Option<Vec<Num>>,
    /// g(q̇⁻, t).
    pub invariant: Option<Num>,
    pub laws: Vec<LawRow>,
}

fn flag(b: Option<bool>) -> &'static str {
    match b {
        Some(true) => "yes",
        Some(false) => "no",
        None => "undecided",
    }
}

impl Report for ImpactReport {
    fn text(&self, o: &TextOptions) -> String {
        let mut s = format!(
            "penny: m = {}, R = {}, I = {}, J = {}\nheading (cos phi, sin phi): {}\n\
             {} end at {}, contact point {}, grad h = {}\ndH: {}\n\
             qdot-: {}\nnormal rate dH(qdot-): {}\nenergy: {}\n",
            self.mass.text(o),
            self.radius.text(o),
            self.inertia.text(o),
            self.spin_inertia.text(o),
            tuple_text(&self.heading, o),
            self.end.name(),
            tuple_text(&self.point, o),
            tuple_text(&self.position, o),
            tuple_text(&self.gradient, o),
            tuple_text(&self.dh, o),
            tuple_text(&self.qdot, o),
            self.normal_rate.text(o),
            self.energy.text(o),
        );
        if let (Some(t), Some(i)) = (&self.tangent, &self.invariant) {
            s += &format!("g(qdot-, t) = {} for t = {}\n", i.text(o), tuple_text(t, o));
        }
        for r in &self.laws {
            s += &format!(
                "\n{} ({})\n  qdot+: {}\n",
                r.law.name(),
                r.citation,
                tuple_text(&r.qdot, o)
            );
            if let Some(c) = &r.c {
                s += &format!("  C (29): {}\n", c.text(o));
            }
            if let (PennyLaw::Elastic, Some(a)) = (r.law, &r.alpha) {
                s += &format!("  alpha: {}\n", a.text(o));
            }
            if let Some(l) = &r.lambda {
                s += &format!("  lambda: {}\n", tuple_text(l, o));
            }
            s += &format!(
                "  energy: {} (conserved: {})\n  normal rate: {}\n",
                r.energy.text(o),
                flag(r.energy_conserved),
                r.normal_rate.text(o)
            );
            if let Some(i) = &r.invariant {
                s += &format!(
                    "  g(qdot+, t): {} (conserved: {})\n",
                    i.text(o),
                    flag(r.invariant_conserved)
                );
            }
            for m in &r.momentum {
                s += &format!(
                    "  momentum p_{}: {} -> {} (conserved: {})\n",
                    m.coordinate,
                    m.before.text(o),
                    m.after.text(o),
                    flag(m.conserved)
                );
            }
            s += &format!(
                "  in Delta: {}, leaves the boundary: {}, thetadot unchanged: {}\n",
                flag(r.in_distribution),
                if r.admissible { "yes" } else { "no" },
                flag(r.theta_dot_unchanged)
            );
        }
        s.trim_end().to_string()
    }
}

/// One impact of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ImpactRow {
    /// 1, 2, …
    pub index: usize,
    /// Time since the start.
    pub time: Num,
    pub end: End,
    /// The end's point on the boundary.
    pub point: Vec<Num>,
    /// (x, y, θ) of the contact point at the impact.
    pub position: Vec<Num>,
    /// (cos φ, sin φ) at the impact.
    pub heading: Vec<Num>,
    /// q̇⁻ = (ẋ, ẏ, θ̇, φ̇).
    pub qdot_before: Vec<Num>,
    /// q̇⁺.
    pub qdot_after: Vec<Num>,
    /// ½q̇ᵀMq̇ before and after.
    pub energy: Vec<Num>,
    /// dH(q̇⁻), dH(q̇⁺).
    pub normal_rate: Vec<Num>,
    /// ‖∂w_k/∂w_1‖∞, w = (β, φ, θ̇, φ̇) after the impact (enclosure runs from the second
    /// impact on): the growth of a perturbation of the state after the first impact.
    pub sensitivity: Option<f64>,
}

/// The first impact of a circular table computed exactly in Q(√D) (`quadratic`), and
/// whether the run's enclosures contain it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExactCheck {
    pub end: End,
    /// An enclosure of the time (MPFR, 256 bits, from the exact point of the circle).
    pub time: Num,
    pub point: Vec<Num>,
    pub qdot_after: Vec<Num>,
    /// Every component of the run's first impact (time, point, q̇⁺) encloses the exact
    /// value (`false` on rounded backends unless they agree to 1e-9 relative).
    pub contained: bool,
}

/// `impactkit penny run`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunReport {
    pub arith: String,
    /// `ellipse` or `circle`, semi-axes a, b of (35).
    pub table: String,
    pub a: Num,
    pub b: Num,
    pub law: crate::system::penny_run::RunLaw,
    /// How impact times were located: `certified` (enclosures), `sampled` (rounded
    /// arithmetic), `algebraic` (exact).
    pub events: &'static str,
    pub mass: Num,
    pub radius: Num,
    pub inertia: Num,
    pub spin_inertia: Num,
    /// x₀, y₀, θ₀, (cos φ₀, sin φ₀), θ̇₀, φ̇₀.
    pub initial: Vec<Num>,
    pub impacts: Vec<ImpactRow>,
    pub stop: crate::system::penny_run::Stop,
    /// The widest enclosure among the impacts' times, points and velocities (enclosure
    /// backends).
    pub max_width: Option<f64>,
    pub exact_first_impact: Option<ExactCheck>,
}

fn stop_text(s: &crate::system::penny_run::Stop) -> String {
    use crate::system::penny_run::Stop;
    match s {
        Stop::Done => "done".into(),
        Stop::NoFurtherImpact { reason } => format!("no further impact: {reason}"),
        Stop::Inadmissible { reason } => format!("inadmissible: {reason}"),
        Stop::Undecided { reason } => format!("undecided: {reason}"),
        Stop::NotAlgebraic { reason } => format!("not algebraic: {reason}"),
    }
}

impl Report for RunReport {
    fn text(&self, o: &TextOptions) -> String {
        let mut s = format!(
            "table: {} a = {}, b = {}; law: {}; arith: {} (impact times {})\n\
             penny: m = {}, R = {}, I = {}, J = {}\n\
             initial (x, y, theta, cos phi, sin phi, thetadot, phidot): {}\n",
            self.table,
            self.a.text(o),
            self.b.text(o),
            match self.law {
                crate::system::penny_run::RunLaw::Elastic => "elastic",
                crate::system::penny_run::RunLaw::Plastic => "plastic",
            },
            self.arith,
            self.events,
            self.mass.text(o),
            self.radius.text(o),
            self.inertia.text(o),
            self.spin_inertia.text(o),
            tuple_text(&self.initial, o),
        );
        for r in &self.impacts {
            s += &format!(
                "\nimpact {}: t = {}, {} end at {}\n  qdot-: {}\n  qdot+: {}\n  energy: {} -> {}\n{}",
                r.index,
                r.time.text(o),
                r.end.name(),
                tuple_text(&r.point, o),
                tuple_text(&r.qdot_before, o),
                tuple_text(&r.qdot_after, o),
                r.energy[0].text(o),
                r.energy[1].text(o),
                r.sensitivity
                    .map_or(String::new(), |x| format!("  sensitivity |dw/dw1|: {x:.3e}\n")),
            );
        }
        s += &format!("\nstop: {}\n", stop_text(&self.stop));
        if let Some(w) = self.max_width {
            s += &format!("widest enclosure: {w:.3e}\n");
        }
        if let Some(e) = &self.exact_first_impact {
            s += &format!(
                "exact first impact (Q(sqrt D)): t = {}, {} end at {}, qdot+ = {}; contained in the run's enclosures: {}\n",
                e.time.text(o),
                e.end.name(),
                tuple_text(&e.point, o),
                tuple_text(&e.qdot_after, o),
                if e.contained { "yes" } else { "no" }
            );
        }
        s.trim_end().to_string()
    }
}

/// `impactkit penny spread`: Fig. 5 made deterministic.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SpreadReport {
    pub runs: usize,
    pub times: Vec<f64>,
    /// The largest distance between two pennies at each time (m).
    pub diameters: Vec<f64>,
    /// Runs that stopped (undecided, no further impact) before the last time; their
    /// pennies are left out of the later clouds.
    pub stopped_early: usize,
    /// (x, y) of every penny at each time (drawing precision, f64).
    pub positions: Vec<Vec<(f64, f64)>>,
}

impl Report for SpreadReport {
    fn text(&self, _: &TextOptions) -> String {
        let mut s = format!(
            "{} runs: theta0 and phidot0 moved by a grid of offsets in (-0.005, 0.005) (Sect. VI-B, Fig. 5)\n",
            self.runs
        );
        for ((t, d), c) in self.times.iter().zip(&self.diameters).zip(&self.positions) {
            s += &format!(
                "t = {t} s: {} pennies, spread (largest distance) {d:.3e} m\n",
                c.len()
            );
        }
        if self.stopped_early > 0 {
            s += &format!("runs stopped early: {}\n", self.stopped_early);
        }
        s.trim_end().to_string()
    }
}
