//! Winandy–Leine (2017): the properties of a cone-wise linear impact law, each checked
//! exactly and returned as a proof object (what was verified, with the values) or an exact
//! counterexample.

use super::{
    add2, det, dot2, is_zero, mat_eq, mat_mul, mat_vec, scale2, sub2, transpose, vec_eq, Cone,
    ConeMap, Cradle, Mat2, Vec2,
};
use crate::arith::{Scalar, Sign};
use crate::law::{decide, LawError};
use num_rational::BigRational;

/// P1 at one shared ray v: Qᵢ v = Qᵢ₊₁ v.
#[derive(Clone, Debug, PartialEq)]
pub struct RayCheck<S> {
    pub ray: Vec2<S>,
    pub before: String,
    pub after: String,
    /// Qᵢ v and Qᵢ₊₁ v.
    pub images: [Vec2<S>; 2],
    /// The rays coincide (`to` of Cᵢ is a positive multiple of `from` of Cᵢ₊₁) and the images agree.
    pub ok: bool,
}

/// The per-cone facts: energy, kinematic and kinetic consistency, with their evidence.
#[derive(Clone, Debug, PartialEq)]
pub struct ConeCheck<S> {
    pub name: String,
    /// P2: Qᵀ G⁻¹ Q = G⁻¹ exactly.
    pub energy: bool,
    /// Q `from`, Q `to`: both in the closed first quadrant ⇔ Q Cᵢ ⊂ R²₊ (eq. (9)).
    pub images: [Vec2<S>; 2],
    pub kinematic: bool,
    /// P3: the images lie on the two positive axes, so Q Cᵢ is the whole first quadrant.
    pub onto_first_quadrant: bool,
    /// Λ = G⁻¹(Q − I)g at the generators g = `from`, `to` (eq. (6)); Λ is linear, so
    /// Λ ≥ 0 on the cone iff it is at both generators (eq. (10)).
    pub impulses: [Vec2<S>; 2],
    pub kinetic: bool,
}

/// One identity of (24), generalised: a cone's matrix as a word in the two-ball impacts
/// A = Q of the cone next to C_I counter-clockwise (Q_IIa), B = the one clockwise (Q_IVa).
#[derive(Clone, Debug, PartialEq)]
pub struct FactorCheck {
    pub cone: String,
    /// e.g. "IVa·IIa·IVa".
    pub word: String,
    pub ok: bool,
}

/// A pair that violates non-expansivity (16) or monotonicity (15), with the exact values.
#[derive(Clone, Debug, PartialEq)]
pub struct PairViolation<S> {
    pub a: Vec2<S>,
    pub b: Vec2<S>,
    /// For (16): ‖S(a) − S(b)‖² and ‖a − b‖²; for (15): −(Λa − Λb)ᵀ(γ̄a − γ̄b) and 0.
    pub lhs: S,
    pub rhs: S,
}

/// Theorem 1 (eq. (37)): the proof's hypotheses, and an exact falsification test.
#[derive(Clone, Debug, PartialEq)]
pub struct NonExpansivity<S> {
    /// Continuity at every ray, Qᵢᵀ G⁻¹ Qᵢ = G⁻¹ for every cone, convex cones covering
    /// the plane: then (38)–(44) prove (37).
    pub proved: bool,
    /// Random exact pairs tested, each split at the cone boundaries as in (38)–(42).
    pub samples: usize,
    /// Segments that crossed at least one boundary.
    pub split_samples: usize,
    pub counterexample: Option<PairViolation<S>>,
    /// Monotonicity of −Λ ∈ H(γ̄) (eq. (15)) on the same pairs.
    pub monotone_counterexample: Option<PairViolation<S>>,
}

/// Everything `sequential check` reports.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckReport<S> {
    pub rays: Vec<RayCheck<S>>,
    pub cones: Vec<ConeCheck<S>>,
    pub factorisation: Vec<FactorCheck>,
    pub continuous: bool,
    pub energy_conserving: bool,
    pub kinematically_consistent: bool,
    pub kinetically_consistent: bool,
    pub factorises: bool,
    pub non_expansive: NonExpansivity<S>,
    pub cyclic: Option<super::cycles::Cycle<S>>,
}

/// P1: continuity at every shared ray (cyclically, including C_last → C_I).
pub fn check_continuity<S: Scalar>(map: &ConeMap<S>) -> Result<Vec<RayCheck<S>>, LawError> {
    let n = map.cones.len();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let (c, d) = (&map.cones[i], &map.cones[(i + 1) % n]);
        let same_line = is_zero(&det(&c.to, &d.from), "det(to, from)")?;
        let same_dir = decide(&dot2(&c.to, &d.from), "to·from")? == Sign::Positive;
        let images = [mat_vec(&c.q, &c.to), mat_vec(&d.q, &c.to)];
        let ok = same_line && same_dir && vec_eq(&images[0], &images[1], "Qᵢv − Qᵢ₊₁v")?;
        out.push(RayCheck {
            ray: c.to.clone(),
            before: c.name.clone(),
            after: d.name.clone(),
            images,
            ok,
        });
    }
    Ok(out)
}

fn nonneg<S: Scalar>(v: &Vec2<S>, what: &str) -> Result<bool, LawError> {
    Ok(decide(&v[0], what)? != Sign::Negative && decide(&v[1], what)? != Sign::Negative)
}

/// P2, eq. (9), eq. (10) and P3 for one cone.
pub fn check_cone<S: Scalar>(cradle: &Cradle<S>, c: &Cone<S>) -> Result<ConeCheck<S>, LawError> {
    let qtgq = mat_mul(&transpose(&c.q), &mat_mul(&cradle.g_inv, &c.q));
    let energy = mat_eq(&qtgq, &cradle.g_inv, "QᵀG⁻¹Q − G⁻¹")?;
    let images = [mat_vec(&c.q, &c.from), mat_vec(&c.q, &c.to)];
    let kinematic = nonneg(&images[0], "γ⁺")? && nonneg(&images[1], "γ⁺")?;
    let on_axis = |v: &Vec2<S>, k: usize| -> Result<bool, LawError> {
        Ok(is_zero(&v[1 - k], "γ⁺ off-axis component")?
            && decide(&v[k], "γ⁺ axis component")? == Sign::Positive)
    };
    let onto_first_quadrant = (on_axis(&images[0], 0)? && on_axis(&images[1], 1)?)
        || (on_axis(&images[0], 1)? && on_axis(&images[1], 0)?);
    let impulses = [
        cradle.impulse(&c.from, &images[0]),
        cradle.impulse(&c.to, &images[1]),
    ];
    let kinetic = nonneg(&impulses[0], "Λ")? && nonneg(&impulses[1], "Λ")?;
    Ok(ConeCheck {
        name: c.name.clone(),
        energy,
        images,
        kinematic,
        onto_first_quadrant,
        impulses,
        kinetic,
    })
}

/// Eq. (24), generalised to any number of cones: counting counter-clockwise from C_I, cone
/// k is A, BA, ABA, … (k factors); counting clockwise, B, AB, BAB, … Both words are
/// checked for every cone (the paper's (24) are these identities for 6 cones).
pub fn check_factorisation<S: Scalar>(map: &ConeMap<S>) -> Result<Vec<FactorCheck>, LawError> {
    let n = map.cones.len();
    if n < 3 {
        return Ok(Vec::new());
    }
    let (a, b) = (&map.cones[1], &map.cones[n - 1]);
    let mut out = Vec::new();
    // counter-clockwise words
    let mut w: Mat2<S> = a.q.clone();
    let mut word = vec![a.name.clone()];
    for k in 1..n {
        if k > 1 {
            let left = if k % 2 == 0 { b } else { a };
            w = mat_mul(&left.q, &w);
            word.insert(0, left.name.clone());
        }
        if k >= 2 {
            let c = &map.cones[k];
            out.push(FactorCheck {
                cone: c.name.clone(),
                word: word.join("·"),
                ok: mat_eq(&c.q, &w, "Q − word")?,
            });
        }
    }
    // clockwise words
    let mut w: Mat2<S> = b.q.clone();
    let mut word = vec![b.name.clone()];
    for j in 1..n {
        if j > 1 {
            let left = if j % 2 == 0 { a } else { b };
            w = mat_mul(&left.q, &w);
            word.insert(0, left.name.clone());
        }
        if j >= 2 {
            let c = &map.cones[n - j];
            out.push(FactorCheck {
                cone: c.name.clone(),
                word: word.join("·"),
                ok: mat_eq(&c.q, &w, "Q − word")?,
            });
        }
    }
    Ok(out)
}

/// A small deterministic generator (xorshift64*) for the falsification samples.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.max(1))
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A rational p/q with |p| ≤ `num`, 1 ≤ q ≤ `den`.
    pub fn rational(&mut self, num: i64, den: i64) -> BigRational {
        let p = (self.next_u64() % (2 * num as u64 + 1)) as i64 - num;
        let q = (self.next_u64() % den as u64) as i64 + 1;
        BigRational::new(p.into(), q.into())
    }
}

/// The pieces of (38)–(42): the segment a → b split where it crosses a boundary ray
/// (or the origin), as the points a = p₀, γ*₁, …, γ*ₖ, pₖ₊₁ = b with their cones.
pub fn split_segment<S: Scalar>(
    map: &ConeMap<S>,
    a: &Vec2<S>,
    b: &Vec2<S>,
) -> Result<Vec<(Vec2<S>, usize)>, LawError> {
    let d = sub2(b, a);
    let mut ts: Vec<S> = Vec::new();
    let zero = a[0].zero_like();
    let one = a[0].one_like();
    // the origin, if the segment passes through it
    if is_zero(&det(a, b), "det(a, b)")? && decide(&dot2(a, b), "a·b")? == Sign::Negative {
        let t = dot2(a, a).checked_div(&-dot2(a, &d))?;
        ts.push(t);
    }
    for c in &map.cones {
        let v = &c.from;
        let den = det(v, &d);
        if is_zero(&den, "det(v, b − a)")? {
            continue;
        }
        let t = (-det(v, a)).checked_div(&den)?;
        let inside = decide(&t, "t")? == Sign::Positive
            && decide(&(one.sub_r(&t)), "1 − t")? == Sign::Positive;
        if !inside {
            continue;
        }
        let p = add2(a, &scale2(&t, &d));
        if decide(&dot2(v, &p), "v·γ*")? == Sign::Positive {
            ts.push(t);
        }
    }
    // sort the parameters (insertion sort through sign())
    let mut sorted: Vec<S> = Vec::with_capacity(ts.len());
    for t in ts {
        let mut pos = sorted.len();
        for (i, s) in sorted.iter().enumerate() {
            if decide(&t.sub_r(s), "t − s")? == Sign::Negative {
                pos = i;
                break;
            }
        }
        sorted.insert(pos, t);
    }
    let mut pts = vec![a.clone()];
    for t in sorted {
        let p = add2(a, &scale2(&t, &d));
        if !vec_eq(pts.last().expect("nonempty"), &p, "γ* − previous")? {
            pts.push(p);
        }
    }
    if !vec_eq(pts.last().expect("nonempty"), b, "b − last")? {
        pts.push(b.clone());
    }
    let half = zero.lift(&BigRational::new(1.into(), 2.into()));
    let mut out = Vec::with_capacity(pts.len());
    for w in pts.windows(2) {
        let mid = scale2(&half, &add2(&w[0], &w[1]));
        let i = map.locate(&mid)?;
        let c = &map.cones[i];
        if !c.contains(&w[0])? || !c.contains(&w[1])? {
            return Err(LawError::Domain(
                "a piece of the split segment leaves its cone".into(),
            ));
        }
        out.push((w[0].clone(), i));
    }
    out.push((pts.last().expect("nonempty").clone(), usize::MAX));
    Ok(out)
}

/// Theorem 1 (eq. (37)) on one pair, following the proof: split at the boundaries, check
/// the telescoping identity (39) and the per-piece isometry used in (41), then compare
/// ‖S(a) − S(b)‖² with ‖a − b‖² exactly. Returns the two squared norms and whether a
/// boundary was crossed.
pub fn nonexpansive_pair<S: Scalar>(
    map: &ConeMap<S>,
    cradle: &Cradle<S>,
    a: &Vec2<S>,
    b: &Vec2<S>,
) -> Result<(S, S, bool), LawError> {
    let pieces = split_segment(map, a, b)?;
    let sa = map.apply(a)?.gamma_plus;
    let sb = map.apply(b)?.gamma_plus;
    let mut sum = [a[0].zero_like(), a[0].zero_like()];
    for w in pieces.windows(2) {
        let q = &map.cones[w[0].1].q;
        let d = sub2(&w[0].0, &w[1].0);
        let qd = mat_vec(q, &d);
        if !is_zero(&(cradle.norm2(&qd) - &cradle.norm2(&d)), "‖Qd‖² − ‖d‖²")? {
            return Err(LawError::Domain(
                "a cone matrix is not a G⁻¹-isometry".into(),
            ));
        }
        sum = add2(&sum, &qd);
    }
    if !vec_eq(&sum, &sub2(&sa, &sb), "telescoping sum (39)")? {
        return Err(LawError::Domain(
            "the telescoping identity (39) fails (discontinuity)".into(),
        ));
    }
    Ok((
        cradle.norm2(&sub2(&sa, &sb)),
        cradle.norm2(&sub2(a, b)),
        pieces.len() > 2,
    ))
}

/// Theorem 1: the hypotheses of the proof, and `samples` random exact pairs (seeded) tested
/// for (37) and for the monotonicity (15) of −Λ ∈ H(γ̄).
pub fn check_nonexpansive<S: Scalar>(
    map: &ConeMap<S>,
    cradle: &Cradle<S>,
    rays: &[RayCheck<S>],
    cones: &[ConeCheck<S>],
    samples: usize,
    seed: u64,
) -> Result<NonExpansivity<S>, LawError> {
    let proved = rays.iter().all(|r| r.ok) && cones.iter().all(|c| c.energy);
    let mut rng = Rng::new(seed);
    let z = &cradle.masses[0];
    let mut out = NonExpansivity {
        proved,
        samples,
        split_samples: 0,
        counterexample: None,
        monotone_counterexample: None,
    };
    for _ in 0..samples {
        crate::budget::checkpoint();
        let mut p = || z.lift(&rng.rational(12, 5));
        let a = [p(), p()];
        let b = [p(), p()];
        let (lhs, rhs, split) = nonexpansive_pair(map, cradle, &a, &b)?;
        out.split_samples += usize::from(split);
        if out.counterexample.is_none()
            && decide(&(rhs.sub_r(&lhs)), "‖a−b‖² − ‖Sa−Sb‖²")? == Sign::Negative
        {
            out.counterexample = Some(PairViolation {
                a: a.clone(),
                b: b.clone(),
                lhs,
                rhs,
            });
        }
        let (sa, sb) = (map.apply(&a)?.gamma_plus, map.apply(&b)?.gamma_plus);
        let la = cradle.impulse(&a, &sa);
        let lb = cradle.impulse(&b, &sb);
        let half = z.lift(&BigRational::new(1.into(), 2.into()));
        let ga = scale2(&half, &add2(&a, &sa));
        let gb = scale2(&half, &add2(&b, &sb));
        let mono = -dot2(&sub2(&la, &lb), &sub2(&ga, &gb));
        if out.monotone_counterexample.is_none()
            && decide(&mono, "monotonicity (15)")? == Sign::Negative
        {
            out.monotone_counterexample = Some(PairViolation {
                a,
                b,
                lhs: mono,
                rhs: z.zero_like(),
            });
        }
    }
    Ok(out)
}

/// Every check of `sequential check`: continuity, energy, kinematic and kinetic
/// consistency, (24), Theorem 1 (proof + falsification on `samples` pairs), monotonicity,
/// and a search for a cycle violating cyclic monotonicity (18).
pub fn check_all<S: Scalar>(
    map: &ConeMap<S>,
    cradle: &Cradle<S>,
    samples: usize,
    seed: u64,
) -> Result<CheckReport<S>, LawError> {
    let rays = check_continuity(map)?;
    let cones = map
        .cones
        .iter()
        .map(|c| check_cone(cradle, c))
        .collect::<Result<Vec<_>, _>>()?;
    let factorisation = check_factorisation(map)?;
    let non_expansive = check_nonexpansive(map, cradle, &rays, &cones, samples, seed)?;
    let cyclic = super::cycles::find_cyclic_violation(map, cradle, 2, 4)?;
    Ok(CheckReport {
        continuous: rays.iter().all(|r| r.ok),
        energy_conserving: cones.iter().all(|c| c.energy),
        kinematically_consistent: cones.iter().all(|c| c.kinematic),
        kinetically_consistent: cones.iter().all(|c| c.kinetic),
        factorises: factorisation.iter().all(|f| f.ok),
        rays,
        cones,
        factorisation,
        non_expansive,
        cyclic,
    })
}
