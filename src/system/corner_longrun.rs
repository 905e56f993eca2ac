//! Certified long runs of the algorithm TA (Fassino & Pasquero (2020), Sect. 6) with one
//! COR ε for both walls: the exact number of steps to the exit, or a proof that the run
//! never exits, without iterating every step.
//!
//! # The mathematics
//!
//! In the coordinates (ξ̇, η̇) of eq. (7), with thresholds S = S_v = 0 (TA), the rules
//! (14a–14d) are: Z0 exit; Z1 (ξ̇ ≤ 0 < η̇) the linear map A₁ = [[1, b], [0, −ε]] (14b);
//! Z2 (η̇ ≤ 0 < ξ̇) A₂ = [[−ε, 0], [b, 1]] (14c), b = (1 + ε)(1 − k²)/(1 + k²); Z12 the
//! nonlinear (14d), positively homogeneous of degree 1. The matrices are built here from
//! the law itself ([`tr_nid_xi_eta_with`] applied to the unit vectors), never retyped.
//!
//! * Theorem 5.1: after a Z12 step the velocity is not in Z12; so at most one Z12 step,
//!   and only at the start.
//! * From Z1 (η̇ > 0, ε > 0), (14b) gives η̇' = −εη̇ < 0: the next zone is Z2 or Z0; from Z2
//!   symmetrically Z1 or Z0 (the alternation of Result 5 used in the proof of Thm 5.3).
//!   So once the run is in Z1 or Z2 its zones are (Z1 Z2)(Z1 Z2)… (or (Z2 Z1)…) until Z0,
//!   and after m periods the state is Mᵐw with M = A₂A₁ = H₁ (or A₁A₂ = H₂) of the proof
//!   of Theorem 5.3.
//! * Let P = Z_first ∩ A_first⁻¹(Z_second) be the set of states that follow one more
//!   period of the pattern: an intersection of half-planes, a convex cone of angle < π.
//!   The run follows the pattern for exactly m* periods, m* the first m with Mᵐw ∉ P.
//!
//! **Never exits** (real eigenvalues, trace² > 4 det; det M = ε² > 0 and then
//! trace > 2ε > 0, so both eigenvalues are positive and M maps every ray to a ray, moving it
//! monotonically towards the dominant eigenray e). Take the cone K = cone(w, e′) with e′
//! a rational direction just beyond e (found in floating point — a guess that is then
//! checked, never trusted). Checked through [`Scalar::sign`] only: det(w, e′) ≠ 0 (K is
//! proper); both rays lie in P (so, P being convex, all of K does); M maps both rays into
//! K (2×2 determinants ≥ 0, so MK ⊂ K). By induction Mᵐw ∈ K ⊂ P for every m: every
//! period follows the pattern and the run never reaches Z0. M is diagonalisable with
//! 0 < λ₂ < λ₁ = ρ(M), so ‖v_{n₀+2m}‖ ≤ C·ρᵐ: the decay is ρ per period, √ρ per step (and
//! ‖v‖ → 0, Theorem 5.3; here also: the run never ends).
//!
//! **Exits** (any eigenvalues): find m* by repeated squaring (M^{2^j}) and binary lifting
//! on m, with the predicate Q(m) = "Mᵐw ∈ P and det(w, Mᵐw) has the sign σ of
//! det(w, Mw)". Q is monotone on [0, 2^j] as long as Q(2^{j−1}) holds:
//! - complex eigenvalues: M is conjugate (by an orientation-preserving or reversing linear
//!   map, which keeps or flips every det sign at once) to ε·R(θ), θ ∈ (0, π) measured in
//!   the direction σ; det(x, Mx) is definite, so σ ≠ 0. In the conjugate picture the
//!   angle of Mᵐw is φ₀ + mθ and P is an arc [a, b] of length < π containing φ₀. For
//!   mθ < 2π, det(w, Mᵐw) has sign σ iff mθ < π, and then Mᵐw ∈ P iff φ₀ + mθ ≤ b
//!   (φ₀ + mθ < b + π < a + 2π). As b − φ₀ < π, every m with mθ ≥ π has passed b. So Q(m)
//!   ⇔ φ₀ + mθ ≤ b for all m with mθ < 2π; the doubling stops at the first j with
//!   Q(2^j) false, and Q(2^{j−1}) true gives 2^{j−1}θ < π, so 2^jθ < 2π: the total
//!   rotation of the bisection range stays below 2π, and the first false m is m*.
//! - real or double eigenvalues: the rays Mᵐw move monotonically on an arc between two
//!   adjacent fixed rays (of length ≤ π) towards one of them, never crossing it; the arc
//!   meets the convex cone P in one interval containing w, so Mᵐw ∈ P is monotone in m,
//!   and det(w, Mᵐw) keeps the sign σ (σ = 0: w is an eigenray, fixed: never exits).
//!
//! From M^{m*}w the ordinary rules run step by step to Z0 (at most two steps: M^{m*}w has
//! ξ̇ < 0 when m* ≥ 1, so it is in Z0, or in Z1 with A₁M^{m*}w ∉ Z2, that is in Z0).
//!
//! Every decision goes through [`Scalar::sign`]: over Q (or Q(√d)) everything is exact;
//! over MPFR intervals a decided sign is rigorous and an unknown one makes the whole
//! attempt [`NoCertificate`] with `precision_may_help` (the caller raises the precision).

use crate::arith::{MpInterval, Scalar, Sign};
use crate::law::corner::{
    tr_nid_xi_eta_with, xi_eta, xy_from_xi_eta, zone_xi_eta, XiEtaCoefficients, Zone, M2,
};
use crate::law::{LawError, V2};
use num_rational::BigRational;

/// Bounds of one long-run attempt.
#[derive(Clone, Debug)]
pub struct LongRunLimits {
    /// Steps run one by one before the zone pattern must have started (Theorem 5.1: at
    /// most one Z12 step, so a handful suffices).
    pub entry_steps: usize,
    /// Largest j of the powers M^{2^j} (the exit search covers up to 2^j periods).
    pub max_doublings: u32,
    /// Exact backends: the largest number of decimal digits of a power M^{2^j} (past it,
    /// the attempt gives up with `precision_may_help`, so that intervals take over).
    pub max_digits: u64,
}

impl Default for LongRunLimits {
    fn default() -> Self {
        LongRunLimits {
            entry_steps: 64,
            max_doublings: 62,
            max_digits: 4_000_000,
        }
    }
}

/// Why no certificate was found (never a guess).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoCertificate {
    pub reason: String,
    /// A sign was undecided or the exact numbers grew too large: more precision (or
    /// intervals instead of exact numbers) may decide.
    pub precision_may_help: bool,
}

impl From<LawError> for NoCertificate {
    fn from(e: LawError) -> Self {
        NoCertificate {
            precision_may_help: matches!(e, LawError::Undecided { .. }),
            reason: e.to_string(),
        }
    }
}

fn give_up(reason: impl Into<String>) -> NoCertificate {
    NoCertificate {
        reason: reason.into(),
        precision_may_help: false,
    }
}

/// The periodic part of a run: from step `entry_steps` on, the zones repeat `zones`.
#[derive(Clone, Debug)]
pub struct Pattern<S> {
    /// (Z1, Z2) or (Z2, Z1).
    pub zones: [Zone; 2],
    /// The state (ξ̇, η̇) where the pattern starts (after the entry steps), and in (ẋ, ẏ).
    pub start: V2<S>,
    pub start_xy: V2<S>,
    /// M = A_second·A_first: H₁ = A₂A₁ for (Z1, Z2), H₂ = A₁A₂ for (Z2, Z1) (Thm 5.3).
    pub matrix: M2<S>,
    /// trace M, det M (= ε²) and trace² − 4 det.
    pub trace: S,
    pub det: S,
    pub discriminant: S,
}

/// What the certificate proves.
#[derive(Clone, Debug)]
pub enum Outcome<S> {
    /// Every future step follows the pattern: the run never reaches Z0.
    NeverExits {
        /// The invariant cone K = cone(`rays[0]`, `rays[1]`) ⊂ P, in (ξ̇, η̇), det > 0.
        cone: [V2<S>; 2],
        /// ρ(M) = λ₁ (enclosure): ‖v‖ decays like ρ per period.
        rho: MpInterval,
        /// √ρ: the decay per step.
        per_step: MpInterval,
    },
    /// The run reaches Z0 after exactly `steps` rule applications.
    Exits {
        /// Full periods of the pattern (0 without pattern).
        periods: u64,
        steps: u64,
        /// The zones after the last full period, ending with Z0.
        tail: Vec<Zone>,
        /// The exit velocity in (ξ̇, η̇) and in (ẋ, ẏ).
        exit: V2<S>,
        exit_xy: V2<S>,
    },
}

/// A certified long run.
#[derive(Clone, Debug)]
pub struct LongRun<S> {
    /// The zones of the velocities processed one by one before the pattern (the entry
    /// steps), e.g. `[Z12]`.
    pub entry_zones: Vec<Zone>,
    /// `None` when the run exits during the entry steps.
    pub pattern: Option<Pattern<S>>,
    pub outcome: Outcome<S>,
}

impl<S: Scalar> LongRun<S> {
    /// n₀, the number of rule applications before the pattern.
    pub fn entry_steps(&self) -> usize {
        self.entry_zones.len()
    }

    /// "Z12 then (Z1 Z2)^1234 then Z1 Z0" or "Z12 then (Z1 Z2) forever".
    pub fn summary(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if !self.entry_zones.is_empty() {
            parts.push(zones_text(&self.entry_zones));
        }
        if let Some(p) = &self.pattern {
            let z = zones_text(&p.zones);
            match &self.outcome {
                Outcome::NeverExits { .. } => parts.push(format!("({z}) forever")),
                Outcome::Exits { periods, .. } => parts.push(format!("({z})^{periods}")),
            }
        }
        if let Outcome::Exits { tail, .. } = &self.outcome {
            if !tail.is_empty() {
                parts.push(zones_text(tail));
            }
        }
        parts.join(" then ")
    }

    /// The zones of every processed velocity (v₀ … v_N, ending with Z0) of an exiting run,
    /// if there are at most `max` of them.
    pub fn all_zones(&self, max: u64) -> Option<Vec<Zone>> {
        match &self.outcome {
            Outcome::Exits {
                periods,
                steps,
                tail,
                ..
            } if *steps < max => {
                let mut out = self.entry_zones.clone();
                if let Some(p) = &self.pattern {
                    for _ in 0..*periods {
                        out.extend(p.zones);
                    }
                }
                out.extend(tail.iter().copied());
                Some(out)
            }
            _ => None,
        }
    }
}

fn zones_text(z: &[Zone]) -> String {
    z.iter()
        .map(|z| z.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn mat_vec<S: Scalar>(m: &M2<S>, v: &V2<S>) -> V2<S> {
    V2::new(
        m[0][0].mul_r(&v.x) + &m[0][1].mul_r(&v.y),
        m[1][0].mul_r(&v.x) + &m[1][1].mul_r(&v.y),
    )
}

fn mat_mul<S: Scalar>(a: &M2<S>, b: &M2<S>) -> M2<S> {
    let e = |i: usize, j: usize| a[i][0].mul_r(&b[0][j]) + &a[i][1].mul_r(&b[1][j]);
    [[e(0, 0), e(0, 1)], [e(1, 0), e(1, 1)]]
}

/// det(u, v) = u.x·v.y − u.y·v.x: positive iff v lies counterclockwise of u within π.
fn det2<S: Scalar>(u: &V2<S>, v: &V2<S>) -> S {
    u.x.mul_r(&v.y) - &u.y.mul_r(&v.x)
}

fn sign_of<S: Scalar>(x: &S, quantity: &str) -> Result<Sign, NoCertificate> {
    Ok(crate::law::decide(x, quantity)?)
}

/// The matrix of the linear rule of `zone` (Z1: (14b), Z2: (14c)), column by column from
/// the law: A·e₁ and A·e₂.
fn zone_matrix<S: Scalar>(c: &XiEtaCoefficients<S>, zone: Zone) -> Result<M2<S>, LawError> {
    let (o, z) = (c.eps.one_like(), c.eps.zero_like());
    let c1 = tr_nid_xi_eta_with(c, zone, &V2::new(o.clone(), z.clone()))?;
    let c2 = tr_nid_xi_eta_with(c, zone, &V2::new(z, o))?;
    Ok([[c1.x, c2.x], [c1.y, c2.y]])
}

/// The certified long run of TA from `v0` (in (ẋ, ẏ)), k = tan α, one COR ε ∈ (0, 1].
pub fn long_run<S: Scalar>(
    k: &S,
    eps: &S,
    v0: &V2<S>,
    limits: &LongRunLimits,
) -> Result<LongRun<S>, NoCertificate> {
    if sign_of(eps, "eps")? != Sign::Positive {
        return Err(give_up(
            "eps = 0: the period matrix is singular (det M = eps^2 = 0)",
        ));
    }
    let c = XiEtaCoefficients::new(k, eps)?;
    let zero = k.zero_like();
    let zone = |w: &V2<S>| -> Result<Zone, NoCertificate> { Ok(zone_xi_eta(w, &zero)?) };
    let to_xy = |w: &V2<S>| -> Result<V2<S>, NoCertificate> { Ok(xy_from_xi_eta(k, w)?) };
    let mut w = xi_eta(k, v0);
    let mut entry_zones = Vec::new();
    // the entry steps, one by one, until the state lies in P of a pattern
    let (first, second) = loop {
        crate::budget::checkpoint();
        let z = zone(&w)?;
        let other = match z {
            Zone::Z0 => {
                let n = entry_zones.len() as u64;
                return Ok(LongRun {
                    entry_zones,
                    pattern: None,
                    outcome: Outcome::Exits {
                        periods: 0,
                        steps: n,
                        tail: vec![Zone::Z0],
                        exit_xy: to_xy(&w)?,
                        exit: w,
                    },
                });
            }
            Zone::Z1 => Some(Zone::Z2),
            Zone::Z2 => Some(Zone::Z1),
            Zone::Z12 => None,
        };
        let next = tr_nid_xi_eta_with(&c, z, &w)?;
        if let Some(o) = other {
            if zone(&next)? == o {
                break (z, o);
            }
        }
        if entry_zones.len() >= limits.entry_steps {
            return Err(give_up(format!(
                "no (Z1 Z2) pattern within {} steps",
                limits.entry_steps
            )));
        }
        entry_zones.push(z);
        w = next;
    };
    let a_first = zone_matrix(&c, first)?;
    let m = mat_mul(&zone_matrix(&c, second)?, &a_first);
    let trace = m[0][0].add_r(&m[1][1]);
    let det = m[0][0].mul_r(&m[1][1]) - &m[0][1].mul_r(&m[1][0]);
    let disc = trace.square() - &det.lift_i64(4).mul_r(&det);
    let pattern = Pattern {
        zones: [first, second],
        start: w.clone(),
        start_xy: to_xy(&w)?,
        matrix: m.clone(),
        trace,
        det,
        discriminant: disc.clone(),
    };
    // P: the states that follow one more period
    let in_p = |u: &V2<S>| -> Result<bool, NoCertificate> {
        Ok(zone(u)? == first && zone(&mat_vec(&a_first, u))? == second)
    };
    let done = |outcome| LongRun {
        entry_zones: entry_zones.clone(),
        pattern: Some(pattern.clone()),
        outcome,
    };
    let mw = mat_vec(&m, &w);
    let sigma = sign_of(&det2(&w, &mw), "det(w, M w)")?;
    if sigma == Sign::Zero {
        // w is an eigenray of M: Mᵐw is a positive multiple of w ∈ P for every m
        let (rho, per_step) = rho_enclosure(&pattern)?;
        return Ok(done(Outcome::NeverExits {
            cone: [w.clone(), w.clone()],
            rho,
            per_step,
        }));
    }
    if sign_of(&disc, "trace(M)^2 - 4 det(M)")? == Sign::Positive {
        for e in cone_candidates(&m, &w) {
            let e = V2::new(w.x.lift(&e.0), w.x.lift(&e.1));
            if let Some(cone) = check_cone(&w, &e, &m, &in_p)? {
                let (rho, per_step) = rho_enclosure(&pattern)?;
                return Ok(done(Outcome::NeverExits {
                    cone,
                    rho,
                    per_step,
                }));
            }
        }
    }
    // the exit search: Q(m) = Mᵐw ∈ P and sign det(w, Mᵐw) = σ
    let q = |u: &V2<S>| -> Result<bool, NoCertificate> {
        Ok(sign_of(&det2(&w, u), "det(w, M^m w)")? == sigma && in_p(u)?)
    };
    // M^(2^i) = s_i·N_i with s_i > 0 and N_i integral on exact backends
    // ([`Scalar::split_scale`]): every test above is a sign of a form homogeneous in the
    // state, so the search runs on the integral N_i, and the scales are multiplied only
    // for the exit velocity (no canonicalisation of huge fractions at every product)
    let mut powers = vec![split_matrix(&m)];
    let mut j = 0usize;
    loop {
        crate::budget::checkpoint();
        let u = mat_vec(&powers[j].0, &w);
        if !q(&u)? {
            break;
        }
        if j as u32 >= limits.max_doublings {
            return Err(give_up(format!(
                "the pattern holds for 2^{j} periods and no invariant cone was found"
            )));
        }
        let (n, s) = &powers[j];
        let (next, t) = split_matrix(&mat_mul(n, n));
        let digits: u64 = next.iter().flatten().map(|x| x.exact_digits()).sum();
        if digits > limits.max_digits {
            return Err(NoCertificate {
                reason: format!(
                    "the exact powers of M reached {digits} digits at M^(2^{})",
                    j + 1
                ),
                precision_may_help: true,
            });
        }
        let s2 = times(s.as_ref().map(|s| s.square()), t);
        powers.push((next, s2));
        j += 1;
    }
    // Q(2^j) is false and Q(2^(j-1)) true (j ≥ 1): binary lifting on the lower bits;
    // M^periods w = scale·u
    let (mut periods, mut u, mut scale) = if j == 0 {
        (0u64, w.clone(), None)
    } else {
        let (n, s) = &powers[j - 1];
        (1u64 << (j - 1), mat_vec(n, &w), s.clone())
    };
    for i in (0..j.saturating_sub(1)).rev() {
        crate::budget::checkpoint();
        let cand = mat_vec(&powers[i].0, &u);
        if q(&cand)? {
            periods += 1 << i;
            u = cand;
            scale = times(scale, powers[i].1.clone());
        }
    }
    // u ∈ P: one more full period, then M^(periods+1) w ∉ P, so the ordinary rules reach
    // Z0 within two steps (the rules are homogeneous: they run on x, the scale waits)
    let periods = periods + 1;
    let base = entry_zones.len() as u64 + 2 * periods;
    let mut x = mat_vec(&powers[0].0, &u);
    let scale = times(scale, powers[0].1.clone());
    let mut tail = Vec::new();
    for steps in base..base + 3 {
        crate::budget::checkpoint();
        let z = zone(&x)?;
        tail.push(z);
        if z == Zone::Z0 {
            let exit = match &scale {
                Some(s) => V2::new(s.mul_r(&x.x), s.mul_r(&x.y)),
                None => x,
            };
            return Ok(done(Outcome::Exits {
                periods,
                steps,
                tail,
                exit_xy: to_xy(&exit)?,
                exit,
            }));
        }
        x = tr_nid_xi_eta_with(&c, z, &x)?;
    }
    Err(give_up(
        "internal: the pattern broke but the run did not reach Z0 within two steps",
    ))
}

/// `m = s·n` with `s > 0` and `n` integral, on exact backends (`s = None`: 1).
fn split_matrix<S: Scalar>(m: &M2<S>) -> (M2<S>, Option<S>) {
    let mut v = [
        m[0][0].clone(),
        m[0][1].clone(),
        m[1][0].clone(),
        m[1][1].clone(),
    ];
    let s = S::split_scale(&mut v, true);
    let [a, b, c, d] = v;
    ([[a, b], [c, d]], s)
}

/// The product of two optional positive scales (`None`: 1).
fn times<S: Scalar>(a: Option<S>, b: Option<S>) -> Option<S> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a * &b),
        (a, None) => a,
        (None, b) => b,
    }
}

/// Checks K = cone(w, e) (see the module documentation); returns its rays ordered so that
/// det(rays[0], rays[1]) > 0, or `None` if a check is decided false.
#[allow(clippy::type_complexity)]
fn check_cone<S: Scalar>(
    w: &V2<S>,
    e: &V2<S>,
    m: &M2<S>,
    in_p: &dyn Fn(&V2<S>) -> Result<bool, NoCertificate>,
) -> Result<Option<[V2<S>; 2]>, NoCertificate> {
    let (r1, r2) = match sign_of(&det2(w, e), "det(w, e')")? {
        Sign::Positive => (w.clone(), e.clone()),
        Sign::Negative => (e.clone(), w.clone()),
        _ => return Ok(None),
    };
    for r in [&r1, &r2] {
        if !in_p(r)? {
            return Ok(None);
        }
    }
    for r in [&r1, &r2] {
        let mr = mat_vec(m, r);
        if sign_of(&det2(&r1, &mr), "det(r1, M r)")? == Sign::Negative
            || sign_of(&det2(&mr, &r2), "det(M r, r2)")? == Sign::Negative
        {
            return Ok(None);
        }
    }
    Ok(Some([r1, r2]))
}

/// Rational directions just beyond the dominant eigenray of M, on the far side from w
/// (floating point: candidates only, each checked exactly by [`check_cone`]).
fn cone_candidates<S: Scalar>(m: &M2<S>, w: &V2<S>) -> Vec<(BigRational, BigRational)> {
    use std::f64::consts::PI;
    let f = |x: &S| x.to_f64();
    let (a, b, c, d) = (f(&m[0][0]), f(&m[0][1]), f(&m[1][0]), f(&m[1][1]));
    let (t, det) = (a + d, a * d - b * c);
    let disc = t * t - 4.0 * det;
    if disc.is_nan() || disc <= 0.0 || !t.is_finite() {
        return Vec::new();
    }
    let l1 = (t + disc.sqrt()) / 2.0;
    let l2 = det / l1;
    let eig = |l: f64| {
        let (u, v) = ((b, l - a), (l - d, c));
        if u.0.hypot(u.1) >= v.0.hypot(v.1) {
            u.1.atan2(u.0)
        } else {
            v.1.atan2(v.0)
        }
    };
    let norm = |x: f64| x.rem_euclid(2.0 * PI);
    let (e1, e2) = (norm(eig(l1)), norm(eig(l2)));
    let fixed = [
        (e1, true),
        (norm(e1 + PI), true),
        (e2, false),
        (norm(e2 + PI), false),
    ];
    let aw = norm(f(&w.y).atan2(f(&w.x)));
    // the fixed rays next to w, counterclockwise (+) and clockwise (−)
    let dist = |from: f64, to: f64, dir: f64| norm(dir * (to - from));
    let mut out = Vec::new();
    for dir in [1.0, -1.0] {
        let (target, dominant) = fixed
            .iter()
            .copied()
            .min_by(|x, y| dist(aw, x.0, dir).total_cmp(&dist(aw, y.0, dir)))
            .unwrap_or((0.0, false));
        if !dominant {
            continue;
        }
        // the next fixed ray beyond the target, in the same direction
        let gap = fixed
            .iter()
            .map(|x| dist(target, x.0, dir))
            .filter(|g| *g > 0.0)
            .fold(PI, f64::min);
        for s in [0.5, 0.125, 1.0 / 64.0, 1.0 / 1024.0, 1.0 / 65536.0] {
            let ang = target + dir * gap * s;
            if let (Some(x), Some(y)) = (
                BigRational::from_float(ang.cos()),
                BigRational::from_float(ang.sin()),
            ) {
                out.push((x, y));
            }
        }
    }
    out
}

/// ρ(M) = (trace + √(trace² − 4 det))/2 for real eigenvalues (else √det = ε, Thm 5.3),
/// and √ρ, as MPFR intervals (256 bits) from rigorous bounds of the entries.
fn rho_enclosure<S: Scalar>(p: &Pattern<S>) -> Result<(MpInterval, MpInterval), NoCertificate> {
    let prec = 256u32;
    let enc = |x: &S| -> Result<MpInterval, NoCertificate> {
        let (lo, hi) = x
            .rational_bounds()
            .ok_or_else(|| give_up("no rigorous bounds of the period matrix"))?;
        let (lo, hi) = (
            MpInterval::from_rational_prec(&lo, prec),
            MpInterval::from_rational_prec(&hi, prec),
        );
        MpInterval::new(lo.lo().clone(), hi.hi().clone()).map_err(|e| give_up(e.to_string()))
    };
    let (t, det) = (enc(&p.trace)?, enc(&p.det)?);
    let disc = t.square() - &det.lift_i64(4).mul_r(&det);
    let rho = match disc.sign() {
        Sign::Positive => {
            let r = disc.sqrt().map_err(|e| give_up(e.to_string()))?;
            (t + &r)
                .checked_div(&det.lift_i64(2))
                .map_err(|e| give_up(e.to_string()))?
        }
        Sign::Negative | Sign::Zero => det.sqrt().map_err(|e| give_up(e.to_string()))?,
        Sign::Unknown => return Err(give_up("trace^2 - 4 det is undecided")),
    };
    let per_step = rho.sqrt().map_err(|e| give_up(e.to_string()))?;
    Ok((rho, per_step))
}
