//! Further probes for the claims of issue 13 (one file per paper, so that they are added
//! independently). Same contract as [`crate::claims::probes`]: every probe calls existing law /
//! system code; none restates a formula of a paper.
//!
//! Seghete–Murphey (`seghete-murphey-propagative-impact.txt`): minimal sequences
//! (Definition 1, Example 1), the alternating reflections of r₀ (Lemma 6, eq. (40), and
//! the covering set R_N of (22)), and the overlap margin of the billiard break (Sect. VII-A).

use super::inputs::ProbeIn;
use super::inputs::{err, get, r, Inputs};
use crate::arith::{Rational, Scalar, Sign};
use crate::lang::Env;
use crate::law::propagative::{distinct_outcomes, minimal_sequences, theorem1_ratio, Contacts};
use crate::linalg::{add, SymMatrix, Vector};
use crate::system::billiard::Break;
use num_rational::BigRational;

type R = Rational;

/// The probes of this file, with their inputs and outputs (for error messages and docs).
pub const PROBES: &[(&str, &str)] = &[
    (
        "propagative.minimal",
        "m1..mn u1_i u2_i [u3_i ..] p1..pn -> feasible count min_len max_len distinct seq_k out{k}_i; SM Def. 1, Example 1",
    ),
    (
        "propagative.rotations",
        "m1..mn u1_i w = u2_i [n] [p1..pn] -> c rr0u_k rr0v_k N best minmax; SM Lemma 6 (40), eq. (22)",
    ),
    (
        "billiard.overlap",
        "[ra rb rc] (t | theta_over_pi) -> overlap = cos(theta_min) - cos(theta); SM Sect. VII-A",
    ),
];

/// Runs a probe of this file; `None` if the name is not one of [`PROBES`].
pub fn run(name: &str, inp: &Inputs) -> Option<Result<Env<R>, String>> {
    match name {
        "billiard.overlap" => Some(overlap(inp)),
        _ => None,
    }
}

/// Masses (the diagonal of M), normals, and the momentum if given.
pub(crate) type System = (Vec<R>, Vec<Vector<R>>, Option<Vector<R>>);

/// Masses `m1..mn` (a diagonal mass matrix), normals `u{a}_{i}` and, if given, `p1..pn`
/// ([`super::inputs::propagative_system`] on exact rationals).
pub(crate) fn system(inp: &Inputs) -> Result<System, String> {
    super::inputs::propagative_system(&ProbeIn::from_strings(inp))
}

/// Seghete–Murphey Definition 1 and Example 1: the minimal sequences of the law
/// (`law::propagative::minimal_sequences`, exact, up to length 32) for the momentum `p`,
/// with the number of distinct outcomes (`distinct_outcomes`). Outputs `feasible` (p
/// itself, eq. (6)), `count`, `min_len`, `max_len`, `distinct`, and `seq_k` (k = 1 ..
/// count, in the law's order): the k-th sequence written with the 1-based normal indices
/// as decimal digits (u v u → 121), and its outcome `out{k}_{i}`.
/// The minimal sequences of Definition 1 (the law's search) in any arithmetic: on
/// `Symbolic` an undecided sign of the search stops it, and the prover splits the cell.
pub(crate) fn minimal<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let (m, normals, p) = super::inputs::propagative_system(inp)?;
    let p = p.ok_or("probe input `p1` missing")?;
    let c = Contacts::new(SymMatrix::diagonal(&m), normals).map_err(err)?;
    let seqs = minimal_sequences(&c, &p, 32).map_err(err)?;
    let lens: Vec<usize> = seqs.iter().map(|s| s.0.len()).collect();
    let int = |k: usize| inp.int(k);
    let mut out = Env::from([
        (
            "feasible".into(),
            int(usize::from(c.feasible(&p).map_err(err)?)),
        ),
        ("count".into(), int(seqs.len())),
        (
            "min_len".into(),
            int(lens.iter().copied().min().unwrap_or(0)),
        ),
        (
            "max_len".into(),
            int(lens.iter().copied().max().unwrap_or(0)),
        ),
        (
            "distinct".into(),
            int(distinct_outcomes(&seqs).map_err(err)?.len()),
        ),
    ]);
    for (k, (seq, q)) in seqs.iter().enumerate() {
        let code = seq.iter().fold(0usize, |acc, i| acc * 10 + i + 1);
        out.insert(format!("seq_{}", k + 1), int(code));
        for (i, x) in q.iter().enumerate() {
            out.insert(format!("out{}_{}", k + 1, i + 1), x.clone());
        }
    }
    Ok(out)
}

/// ⟨a, b⟩ |⟨a, b⟩| / (‖a‖²‖b‖²): the signed square of the g-cosine of a and b.
fn signed_cos2<S: Scalar>(c: &Contacts<S>, a: &[S], b: &[S]) -> Result<S, String> {
    let ab = c.inner(a, b).map_err(err)?;
    let den = c.inner(a, a).map_err(err)? * &c.inner(b, b).map_err(err)?;
    let s = match ab.sign() {
        Sign::Negative => -(ab.square()),
        Sign::Unknown => return Err("the sign of <a, b>_g is undecided".into()),
        _ => ab.square(),
    };
    s.checked_div(&den).map_err(err)
}

/// The largest of `xs` (`None` if empty or if a comparison is undecided).
fn largest<S: Scalar>(xs: impl IntoIterator<Item = S>) -> Option<S> {
    let mut best: Option<S> = None;
    for s in xs {
        match &best {
            None => best = Some(s),
            Some(x) => match (s.clone() - x).sign() {
                Sign::Positive => best = Some(s),
                Sign::Unknown => return None,
                _ => {}
            },
        }
    }
    best
}

/// A value as a rational number, on an exact backend (its bounds coincide).
fn as_rational<S: Scalar>(x: &S) -> Option<BigRational> {
    x.rational_bounds()
        .filter(|(lo, hi)| lo == hi)
        .map(|(q, _)| q)
}

/// ⌈π/γ⌉ (the law's `theorem1_ratio` on 256-bit MPFR intervals) for rational masses and
/// normals u, v; `None` on a backend whose values are not rational numbers.
fn ceil_pi_over_gamma<S: Scalar>(m: &[S], u: &[S], v: &[S]) -> Option<Result<usize, String>> {
    use crate::arith::MpInterval;
    let mp = |xs: &[S]| -> Option<Vec<MpInterval>> {
        xs.iter()
            .map(|x| as_rational(x).map(|q| MpInterval::from_rational(&q, &256)))
            .collect()
    };
    let (m, u, v) = (mp(m)?, mp(u)?, mp(v)?);
    Some((|| {
        let enc = Contacts::new(SymMatrix::diagonal(&m), vec![u, v]).map_err(err)?;
        let ratio = theorem1_ratio(&enc, 0, 1).map_err(err)?;
        let (lo, hi) = ratio
            .rational_bounds()
            .ok_or("pi/gamma has no rational bounds")?;
        if lo.floor() != hi.floor() || lo.is_integer() {
            return Err("the enclosure of pi/gamma contains an integer".into());
        }
        let n: usize = (lo.floor() + BigRational::from_integer(1.into()))
            .to_integer()
            .try_into()
            .map_err(|_| "ceil(pi/gamma) too large")?;
        if n > 200 {
            return Err("ceil(pi/gamma) > 200".into());
        }
        Ok(n)
    })())
}

/// Seghete–Murphey Lemma 6 (eq. (40)) and the set R_N of (22). The two normals are `u`
/// (`u1_i`) and v = uΓ(w) (`w` = `u2_i`), computed by the law's reflection, so that
/// ‖v‖_g = ‖u‖_g (Lemma 5) and r₀ = (u + v)/‖u + v‖_g is the bisector of the unit normals
/// (every pair of equal-norm normals is of this form, and (9) makes equal norms no loss of
/// generality). ρ₀ = u + v; ρ_k = ρ₀Γ(w₁)⋯Γ(w_k) alternating, starting with u or with v
/// (law reflections). Outputs: `c` = ⟨u, v⟩_g/‖u‖²_g (so cos 2γ = −c, Lemma 4),
/// `rr0u_k`, `rr0v_k` = ⟨ρ_k, ρ₀⟩_g/‖ρ₀‖²_g = ⟨r_k, r₀⟩_g for k = 0..n (default 8);
/// `N` = ⌈π/γ⌉ (the law's `theorem1_ratio` on 256-bit MPFR intervals, an error when its
/// enclosure contains an integer; at most 200); `minmax` = min over r_i ∈ R_N of the max
/// over the other r_j ∈ R_N of the signed square ⟨r_i, r_j⟩|⟨r_i, r_j⟩|; and, with a
/// momentum `p`, `best` = the max over r_i ∈ R_N of the signed square of the g-cosine of
/// p_N = 𝒫_N(p) (p minus the law's plastic projection (11)) and r_i.
/// On `Symbolic` (non-rational values) `N`, `minmax` and `best` are left out.
pub(crate) fn rotations<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let (m, normals, p) = super::inputs::propagative_system(inp)?;
    if normals.len() != 2 {
        return Err("propagative.rotations needs u1_i and u2_i (w)".into());
    }
    let n_out = match inp.word("n") {
        Some(w) => w
            .parse::<usize>()
            .map_err(|_| "n must be a small integer")?,
        None => 8usize,
    };
    let mass = SymMatrix::diagonal(&m);
    let uw = Contacts::new(mass.clone(), normals.clone()).map_err(err)?;
    let u = normals[0].clone();
    let v = uw.reflect(&u, 1).map_err(err)?;
    let c = Contacts::new(mass, vec![u.clone(), v.clone()]).map_err(err)?;
    let rho0 = add(&u, &v);
    let n0 = c.inner(&rho0, &rho0).map_err(err)?;
    // symbolically ‖u + v‖² may have an open sign on a cell: a nonzero rational function
    let nonzero = match n0.sign() {
        Sign::Positive => true,
        Sign::Unknown => n0.nonzero_in_field(),
        _ => false,
    };
    if !nonzero {
        return Err("u + v = 0 (v = -u)".into());
    }
    let cos = c
        .inner(&u, &v)
        .map_err(err)?
        .checked_div(&c.inner(&u, &u).map_err(err)?)
        .map_err(err)?;
    let mut out = Env::from([("c".into(), cos)]);
    let big_n = ceil_pi_over_gamma(&m, &u, &v).transpose()?;
    if let Some(n) = big_n {
        out.insert("N".into(), inp.int(n));
    }
    // R_N: r_k for both starting normals, k <= N
    let mut set: Vec<Vector<S>> = vec![rho0.clone()];
    for (start, name) in [(0usize, "rr0u"), (1, "rr0v")] {
        let mut q = rho0.clone();
        out.insert(format!("{name}_0"), inp.int(1));
        for k in 1..=n_out.max(big_n.unwrap_or(0)) {
            let which = (start + k - 1) % 2;
            q = c.reflect(&q, which).map_err(err)?;
            if k <= n_out {
                out.insert(
                    format!("{name}_{k}"),
                    c.inner(&q, &rho0)
                        .map_err(err)?
                        .checked_div(&n0)
                        .map_err(err)?,
                );
            }
            if big_n.is_some_and(|n| k <= n) {
                set.push(q.clone());
            }
        }
    }
    if big_n.is_none() {
        return Ok(out);
    }
    let mut maxima = Vec::new();
    for (i, a) in set.iter().enumerate() {
        let others = set
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, b)| signed_cos2(&c, a, b))
            .collect::<Result<Vec<S>, String>>()?;
        maxima.extend(largest(others));
    }
    if let Some(mm) = largest(maxima.into_iter().map(|x| -x)) {
        out.insert("minmax".into(), -mm);
    }
    if let Some(p) = p {
        let pl = c.plastic(&p).map_err(err)?;
        let pn = crate::linalg::sub(&p, &pl);
        if c.inner(&pn, &pn).map_err(err)?.sign() == Sign::Positive {
            let cosines = set
                .iter()
                .map(|q| signed_cos2(&c, &pn, q))
                .collect::<Result<Vec<S>, String>>()?;
            if let Some(b) = largest(cosines) {
                out.insert("best".into(), b);
            }
        }
    }
    Ok(out)
}

/// `Break::overlap_margin` at θ/2 = `half` in the exact backend `S`.
fn overlap_at<S: Scalar<Ctx = ()>>(radii: &[BigRational; 3], half: &str) -> Result<S, String> {
    let cq = crate::lang::eval_str::<S>(&format!("cos({half})"), &()).map_err(err)?;
    let sq = crate::lang::eval_str::<S>(&format!("sin({half})"), &()).map_err(err)?;
    let like = cq.clone();
    let b = Break::with_volume_masses(radii.clone().map(|x| like.lift(&x)), cq, sq);
    b.overlap_margin().map_err(err)
}

/// The output `overlap` where the margin is rational.
fn rational_overlap(x: Option<&rug::Rational>) -> Env<R> {
    let mut out = Env::new();
    if let Some(x) = x {
        out.insert("overlap".into(), r(crate::arith::rug_to_rat(x)));
    }
    out
}

/// Seghete–Murphey Sect. VII-A: `overlap` = cos θ_min − cos θ from the law
/// (`Break::overlap_margin`; ≥ 0 iff balls a and b do not overlap), for radii `ra rb rc`
/// (default 1) and θ through a rational `t` = tan(θ/4) or a rational `theta_over_pi`
/// (evaluated in Q(√d), beyond it in the algebraic backend; the output only when
/// rational).
fn overlap(inp: &Inputs) -> Result<Env<R>, String> {
    use crate::arith::{Algebraic, Quadratic};
    let radius = |n: &str| -> Result<BigRational, String> {
        if inp.contains_key(n) {
            get(inp, n)
        } else {
            Ok(BigRational::from_integer(1.into()))
        }
    };
    let radii = [radius("ra")?, radius("rb")?, radius("rc")?];
    if inp.contains_key("theta_over_pi") {
        let q = get(inp, "theta_over_pi")? / BigRational::from_integer(2.into());
        let h = format!("({})*pi", crate::lang::show(&q));
        return super::inputs::quadratic_or_algebraic(
            || {
                let o = overlap_at::<Quadratic>(&radii, &h)?;
                Ok(rational_overlap(o.as_rational()))
            },
            || {
                let o = overlap_at::<Algebraic>(&radii, &h)?;
                Ok(rational_overlap(o.as_rational()))
            },
        );
    }
    let t = get(inp, "t")?;
    let one = BigRational::from_integer(1.into());
    let den = &one + &t * &t;
    let ch = r((&one - &t * &t) / &den);
    let sh = r(BigRational::from_integer(2.into()) * &t / &den);
    let b = Break::with_volume_masses(radii.map(r), ch, sh);
    Ok(Env::from([(
        "overlap".into(),
        b.overlap_margin().map_err(err)?,
    )]))
}
