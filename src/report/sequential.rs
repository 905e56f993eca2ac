//! `impactkit sequential map|check`: the Sequential Impact Law of Winandy–Leine (2017) for
//! the 3-ball cradle — one evaluation, or the construction of the law and its properties.

use super::{nums, tuple_text, Num, Report, TextOptions};
use crate::arith::Scalar;
use crate::law::sequential::checks::{ConeCheck, FactorCheck, PairViolation, RayCheck};
use crate::law::sequential::classic::ClassicOutcome;
use crate::law::sequential::cycles::Cycle;
use crate::law::sequential::{Cone, Vec2};
use serde::Serialize;

/// A vector of the contact plane, `[x, y]`.
pub fn v2<S: Scalar>(v: &Vec2<S>) -> Vec<Num> {
    nums(&v[..])
}

/// A 2×2 matrix by rows.
pub fn m2<S: Scalar>(m: &[[S; 2]; 2]) -> Vec<Vec<Num>> {
    vec![v2(&m[0]), v2(&m[1])]
}

fn vs<S: Scalar>(v: &[Vec2<S>]) -> Vec<Vec<Num>> {
    v.iter().map(v2).collect()
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// Newton's or Poisson's law on the gap velocities, beside the sequential law.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClassicReport {
    /// γ⁺.
    pub gamma_plus: Vec<Num>,
    /// The impulse Λ.
    pub impulse: Vec<Num>,
}

impl ClassicReport {
    pub fn of<S: Scalar>(o: &ClassicOutcome<S>) -> Self {
        ClassicReport {
            gamma_plus: v2(&o.gamma_plus),
            impulse: v2(&o.impulse),
        }
    }
}

/// A cone γ⁻ may lie in, with the γ⁺ it would give.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    pub cone: String,
    pub gamma_plus: Vec<Num>,
}

/// `sequential map`: γ⁺ = S(γ⁻) and its cone (Winandy–Leine (2017), eq. (19)), the
/// impulse, and Newton's and Poisson's outcomes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MapReport {
    /// The backend, as given to `--arith`.
    pub arith: String,
    /// γ⁻ = (u2 − u1, u3 − u2), the pre-impact gap velocities.
    pub gamma_minus: Vec<Num>,
    /// γ⁺ = Q_i γ⁻ (eq. (19)); `null` when the cone is undecided.
    pub gamma_plus: Option<Vec<Num>>,
    /// The cone C_i of γ⁻; `null` when undecided.
    pub cone: Option<String>,
    /// Λ = G⁻¹(γ⁺ − γ⁻) (eq. (6)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impulse: Option<Vec<Num>>,
    /// Newton's law with restitution `--restitution`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub newton: Option<ClassicReport>,
    /// Poisson's law with restitution `--restitution`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub poisson: Option<ClassicReport>,
    /// An enclosure on a cone boundary: the undecided sign...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undecided: Option<crate::arith::Undecided>,
    /// ...and the cones it may lie in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<Candidate>>,
}

impl Report for MapReport {
    fn text(&self, o: &TextOptions) -> String {
        let mut out = String::new();
        match (&self.gamma_plus, &self.cone) {
            (Some(g), Some(c)) => out += &format!("gamma_plus: {} (cone {c})", tuple_text(g, o)),
            _ => out += "gamma_plus: undecided",
        }
        if let Some(l) = &self.impulse {
            out += &format!("\nimpulse: {}", tuple_text(l, o));
        }
        for (name, c) in [("newton", &self.newton), ("poisson", &self.poisson)] {
            if let Some(c) = c {
                out += &format!(
                    "\n{name}: {} (impulse {})",
                    tuple_text(&c.gamma_plus, o),
                    tuple_text(&c.impulse, o)
                );
            }
        }
        if let Some(u) = &self.undecided {
            out += &format!(
                "\nundecided: sign of {} in [{}, {}]",
                u.quantity, u.lo, u.hi
            );
        }
        for c in self.candidates.iter().flatten() {
            out += &format!(
                "\n  cone {}: gamma_plus {}",
                c.cone,
                tuple_text(&c.gamma_plus, o)
            );
        }
        out
    }
}

/// One cone C_i = cone(`from`, `to`) with its matrix Q_i and the per-cone checks.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConeReport {
    pub name: String,
    pub from: Vec<Num>,
    pub to: Vec<Num>,
    /// Q_i by rows.
    pub q: Vec<Vec<Num>>,
    /// P2: Q_iᵀ G⁻¹ Q_i = G⁻¹ exactly.
    pub energy: bool,
    /// Q_i `from`, Q_i `to`.
    pub images: Vec<Vec<Num>>,
    /// Both images in the closed first quadrant, so Q_i C_i ⊂ R²₊ (eq. (9)).
    pub kinematic: bool,
    /// P3: the images lie on the two positive axes.
    pub onto_first_quadrant: bool,
    /// Λ = G⁻¹(Q_i − I)g at the generators (eq. (6)).
    pub impulses: Vec<Vec<Num>>,
    /// Λ ≥ 0 at both generators, hence on the cone (eq. (10)).
    pub kinetic: bool,
}

impl ConeReport {
    pub fn of<S: Scalar>(c: &Cone<S>, k: &ConeCheck<S>) -> Self {
        ConeReport {
            name: c.name.clone(),
            from: v2(&c.from),
            to: v2(&c.to),
            q: m2(&c.q),
            energy: k.energy,
            images: vs(&k.images),
            kinematic: k.kinematic,
            onto_first_quadrant: k.onto_first_quadrant,
            impulses: vs(&k.impulses),
            kinetic: k.kinetic,
        }
    }
}

/// A cycle of pre-impact gap velocities and the sum of (18).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CycleReport {
    /// γ⁻ of each point (eq. (45)).
    pub cycle: Vec<Vec<Num>>,
    /// The cones used.
    pub cones: Vec<String>,
    /// γ⁺ (eq. (46)).
    pub gamma_plus: Vec<Vec<Num>>,
    /// γ̄ = (γ⁺ + γ⁻)/2 (eq. (47)).
    pub gamma_bar: Vec<Vec<Num>>,
    /// Λ = G⁻¹(γ⁺ − γ⁻) (eq. (48)).
    pub lambda: Vec<Vec<Num>>,
    /// Σ Λ_iᵀ(γ̄_{i+1} − γ̄_i), the left side of (49).
    pub lambda_sum: Num,
    /// The sum of (18) for −Λ ∈ H(γ̄): positive means not cyclically monotone.
    pub sum: Num,
}

impl CycleReport {
    pub fn of<S: Scalar>(c: &Cycle<S>) -> Self {
        CycleReport {
            cycle: vs(&c.gamma_minus),
            cones: c.cones.clone(),
            gamma_plus: vs(&c.gamma_plus),
            gamma_bar: vs(&c.gamma_bar),
            lambda: vs(&c.lambda),
            lambda_sum: c.lambda_sum.num(),
            sum: c.sum.num(),
        }
    }

    fn text(&self, o: &TextOptions) -> String {
        let pts: Vec<String> = self.cycle.iter().map(|p| tuple_text(p, o)).collect();
        format!(
            "{} (cones {}), sum of (18) {}",
            pts.join(" -> "),
            self.cones.join(" "),
            self.sum.text(o)
        )
    }
}

/// A pair violating non-expansivity (16) or monotonicity (15).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairReport {
    pub a: Vec<Num>,
    pub b: Vec<Num>,
    /// (16): ‖S(a) − S(b)‖²; (15): −(Λa − Λb)ᵀ(γ̄a − γ̄b).
    pub lhs: Num,
    /// (16): ‖a − b‖²; (15): 0.
    pub rhs: Num,
}

impl PairReport {
    pub fn of<S: Scalar>(p: &PairViolation<S>) -> Self {
        PairReport {
            a: v2(&p.a),
            b: v2(&p.b),
            lhs: p.lhs.num(),
            rhs: p.rhs.num(),
        }
    }

    fn text(&self, o: &TextOptions) -> String {
        format!(
            "a = {}, b = {}: {} > {}",
            tuple_text(&self.a, o),
            tuple_text(&self.b, o),
            self.lhs.text(o),
            self.rhs.text(o)
        )
    }
}

/// P1 at one shared ray v: Q_i v = Q_{i+1} v.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RayReport {
    pub ray: Vec<Num>,
    /// The two cones that share the ray.
    pub between: [String; 2],
    pub images: Vec<Vec<Num>>,
    pub ok: bool,
}

impl RayReport {
    pub fn of<S: Scalar>(r: &RayCheck<S>) -> Self {
        RayReport {
            ray: v2(&r.ray),
            between: [r.before.clone(), r.after.clone()],
            images: vs(&r.images),
            ok: r.ok,
        }
    }
}

/// A cone's matrix as a word in the two-ball impacts (the identities (24)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FactorReport {
    pub cone: String,
    pub word: String,
    pub ok: bool,
}

impl FactorReport {
    pub fn of(f: &FactorCheck) -> Self {
        FactorReport {
            cone: f.cone.clone(),
            word: f.word.clone(),
            ok: f.ok,
        }
    }
}

/// Theorem 1 (eq. (37)): proved from its hypotheses, and tested on random exact pairs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NonExpansivityReport {
    /// Continuity, Q_iᵀ G⁻¹ Q_i = G⁻¹ and convex cones covering the plane: (38)–(44)
    /// then prove (37).
    pub proved_from_continuity_and_isometry: bool,
    /// Random exact pairs tested (`--samples`).
    pub samples: usize,
    /// Pairs whose segment crossed a cone boundary.
    pub samples_crossing_boundaries: usize,
    pub counterexample: Option<PairReport>,
}

/// The thin rods of Sect. 4 (identical, unit) against the law.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ThinRodsReport {
    pub grid: &'static str,
    pub agree: usize,
    pub differ: usize,
    pub unsupported: usize,
}

/// The properties defined only when the law is a continuous map of the whole plane.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GlobalChecks {
    /// P1 at every shared ray.
    pub rays: Vec<RayReport>,
    pub factorisation: Vec<FactorReport>,
    /// Every cone's matrix is its word in the two-ball impacts ((24), generalised).
    pub factorises: bool,
    pub non_expansivity: NonExpansivityReport,
    /// A pair violating monotonicity (15), if one was found.
    pub monotone_counterexample: Option<PairReport>,
    /// The ABC cycle (45)–(49).
    pub abc_cycle: CycleReport,
    /// For equal masses: the thin rods on the integer grid; `null` otherwise.
    pub thin_rods: Option<ThinRodsReport>,
}

/// `sequential check`: the law constructed from P1–P3 for the masses, and every property
/// decided exactly.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckReport {
    /// The backend, as given to `--arith`.
    pub arith: String,
    pub masses: Vec<Num>,
    /// The Delassus matrix G of the gap velocities.
    pub delassus: Vec<Vec<Num>>,
    /// cos²θ = (G⁻¹₁₂)²/(G⁻¹₁₁G⁻¹₂₂), θ the G⁻¹-angle of every cone.
    pub cos2_theta: Num,
    /// The construction comes back to C_I.
    pub closes: bool,
    pub number_of_cones: usize,
    /// The image of e1 under the last cone's matrix (e1 itself when the law closes up
    /// continuously).
    pub last_image_of_e1: Vec<Num>,
    pub cones: Vec<ConeReport>,
    /// P1.
    pub continuous: bool,
    /// P2 on every cone.
    pub energy_conserving: bool,
    /// (9) on every cone.
    pub kinematically_consistent: bool,
    /// (10) on every cone.
    pub kinetically_consistent: bool,
    /// Theorem 1, (37); `null` when the law is not a map of the whole plane.
    pub non_expansive: Option<bool>,
    /// Monotonicity (15); `null` when the law is not a map of the whole plane.
    pub monotone: Option<bool>,
    /// Cyclic monotonicity (18): `false` with a counterexample, `null` when none was
    /// found or the law is not a map of the whole plane.
    pub cyclically_monotone: Option<bool>,
    /// A cycle violating (18).
    pub counterexample: Option<CycleReport>,
    #[serde(flatten)]
    pub global: Option<GlobalChecks>,
}

impl Report for CheckReport {
    fn text(&self, o: &TextOptions) -> String {
        let undefined = "undefined (not a continuous map of the whole plane)";
        let opt = |b: Option<bool>| b.map_or(undefined, yes);
        let mut out = format!(
            "masses: {}\ncos^2 theta: {}\ncones: {} (closes: {}; last image of e1: {})",
            tuple_text(&self.masses, o),
            self.cos2_theta.text(o),
            self.number_of_cones,
            yes(self.closes),
            tuple_text(&self.last_image_of_e1, o)
        );
        for c in &self.cones {
            out += &format!(
                "\n  {}: from {} to {}; energy {}, kinematic {}, onto first quadrant {}, kinetic {}",
                c.name,
                tuple_text(&c.from, o),
                tuple_text(&c.to, o),
                yes(c.energy),
                yes(c.kinematic),
                yes(c.onto_first_quadrant),
                yes(c.kinetic)
            );
        }
        out += &format!(
            "\ncontinuous (P1): {}\nenergy conserving (P2): {}\nkinematically consistent (9): {}\nkinetically consistent (10): {}",
            yes(self.continuous),
            yes(self.energy_conserving),
            yes(self.kinematically_consistent),
            yes(self.kinetically_consistent)
        );
        if let Some(g) = &self.global {
            out += &format!("\nfactorises (24): {}", yes(g.factorises));
        }
        out += &format!("\nnon-expansive (37): {}", opt(self.non_expansive));
        if let Some(g) = &self.global {
            let n = &g.non_expansivity;
            out += &format!(
                " ({}; {} samples, {} crossing cone boundaries)",
                if n.proved_from_continuity_and_isometry {
                    "proved from continuity and isometry"
                } else {
                    "not proved"
                },
                n.samples,
                n.samples_crossing_boundaries
            );
            if let Some(c) = &n.counterexample {
                out += &format!("\n  counterexample: {}", c.text(o));
            }
        }
        out += &format!("\nmonotone (15): {}", opt(self.monotone));
        if let Some(c) = self
            .global
            .as_ref()
            .and_then(|g| g.monotone_counterexample.as_ref())
        {
            out += &format!("\n  counterexample: {}", c.text(o));
        }
        out += &format!(
            "\ncyclically monotone (18): {}",
            match (self.cyclically_monotone, &self.global) {
                (Some(b), _) => yes(b),
                (None, Some(_)) => "no counterexample found",
                (None, None) => undefined,
            }
        );
        if let Some(c) = &self.counterexample {
            out += &format!("\n  counterexample: {}", c.text(o));
        }
        if let Some(g) = &self.global {
            out += &format!(
                "\nABC cycle (45)-(49): {}, left side of (49) {}",
                g.abc_cycle.text(o),
                g.abc_cycle.lambda_sum.text(o)
            );
            if let Some(t) = &g.thin_rods {
                out += &format!(
                    "\nthin rods on the {}: {} agree, {} differ, {} unsupported",
                    t.grid, t.agree, t.differ, t.unsupported
                );
            }
        }
        out
    }
}
