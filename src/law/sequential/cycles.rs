//! Winandy–Leine (2017), Sect. 5.2: cyclic monotonicity (18) of −Λ ∈ H(γ̄) (eq. (4)) and
//! the search for cycles that violate it, such as the ABC cycle (45)–(49).

use super::{add2, dot2, scale2, sub2, ConeMap, Cradle, Vec2};
use crate::arith::{Scalar, Sign};
use crate::law::{decide, LawError};
use num_rational::BigRational;

/// A cycle of pre-impact contact velocities with everything (18) needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Cycle<S> {
    /// γ⁻ of each point, eq. (45).
    pub gamma_minus: Vec<Vec2<S>>,
    /// Names of the cones used.
    pub cones: Vec<String>,
    /// γ⁺, eq. (46).
    pub gamma_plus: Vec<Vec2<S>>,
    /// γ̄ = (γ⁺ + γ⁻)/2, eq. (47).
    pub gamma_bar: Vec<Vec2<S>>,
    /// Λ = G⁻¹(γ⁺ − γ⁻), eq. (48).
    pub lambda: Vec<Vec2<S>>,
    /// Σ Λᵢᵀ(γ̄ᵢ₊₁ − γ̄ᵢ), the left side of (49).
    pub lambda_sum: S,
    /// The sum of (18) for y = −Λ ∈ H(γ̄): Σ (−Λᵢ)ᵀ(γ̄ᵢ₊₁ − γ̄ᵢ) = −`lambda_sum`.
    /// Cyclic monotonicity requires `sum` ≤ 0; a positive sum is a counterexample.
    pub sum: S,
}

impl<S: Scalar> Cycle<S> {
    /// `sum > 0`: the cycle violates (18).
    pub fn violates(&self) -> Result<bool, LawError> {
        Ok(decide(&self.sum, "the sum of (18)")? == Sign::Positive)
    }
}

/// The data of one point of a cycle.
#[derive(Clone, Debug)]
struct Point<S> {
    gm: Vec2<S>,
    cone: String,
    gp: Vec2<S>,
    bar: Vec2<S>,
    lambda: Vec2<S>,
}

fn point<S: Scalar>(
    map: &ConeMap<S>,
    cradle: &Cradle<S>,
    gm: &Vec2<S>,
) -> Result<Point<S>, LawError> {
    let e = map.apply(gm)?;
    let half = gm[0].lift(&BigRational::new(1.into(), 2.into()));
    Ok(Point {
        bar: scale2(&half, &add2(gm, &e.gamma_plus)),
        lambda: cradle.impulse(gm, &e.gamma_plus),
        gm: gm.clone(),
        cone: e.name,
        gp: e.gamma_plus,
    })
}

fn lambda_sum<S: Scalar>(pts: &[&Point<S>]) -> S {
    let n = pts.len();
    let mut acc = pts[0].gm[0].zero_like();
    for i in 0..n {
        let next = &pts[(i + 1) % n];
        acc = acc + &dot2(&pts[i].lambda, &sub2(&next.bar, &pts[i].bar));
    }
    acc
}

fn assemble<S: Scalar>(pts: &[&Point<S>]) -> Cycle<S> {
    let l = lambda_sum(pts);
    Cycle {
        gamma_minus: pts.iter().map(|p| p.gm.clone()).collect(),
        cones: pts.iter().map(|p| p.cone.clone()).collect(),
        gamma_plus: pts.iter().map(|p| p.gp.clone()).collect(),
        gamma_bar: pts.iter().map(|p| p.bar.clone()).collect(),
        lambda: pts.iter().map(|p| p.lambda.clone()).collect(),
        sum: -l.clone(),
        lambda_sum: l,
    }
}

/// The cycle through the given pre-impact contact velocities (e.g. (45) with v = 1).
pub fn cycle_through<S: Scalar>(
    map: &ConeMap<S>,
    cradle: &Cradle<S>,
    points: &[Vec2<S>],
) -> Result<Cycle<S>, LawError> {
    if points.len() < 2 {
        return Err(LawError::Domain("a cycle needs at least 2 points".into()));
    }
    let pts = points
        .iter()
        .map(|p| point(map, cradle, p))
        .collect::<Result<Vec<_>, _>>()?;
    let refs: Vec<&Point<S>> = pts.iter().collect();
    Ok(assemble(&refs))
}

/// The paper's ABC cycle (45) for v: γ_A⁻ = (−2v, v), γ_B⁻ = (−v, 0), γ_C⁻ = (0, 0).
pub fn abc_cycle<S: Scalar>(
    map: &ConeMap<S>,
    cradle: &Cradle<S>,
    v: &S,
) -> Result<Cycle<S>, LawError> {
    let z = v.zero_like();
    let two = v.lift_i64(2);
    cycle_through(
        map,
        cradle,
        &[
            [-(two * v), v.clone()],
            [-v.clone(), z.clone()],
            [z.clone(), z],
        ],
    )
}

/// Searches the integer points of [−`grid`, `grid`]² for a cycle violating (18): all
/// cycles of length 3 (the largest violation wins, the first in lexicographic order among
/// equals), then, if none violates, cycles of length 4 … `max_len` on [−1, 1]².
pub fn find_cyclic_violation<S: Scalar>(
    map: &ConeMap<S>,
    cradle: &Cradle<S>,
    grid: i64,
    max_len: usize,
) -> Result<Option<Cycle<S>>, LawError> {
    let z = &cradle.masses[0];
    let mk = |g: i64| -> Result<Vec<Point<S>>, LawError> {
        let mut pts = Vec::new();
        for x in -g..=g {
            for y in -g..=g {
                pts.push(point(map, cradle, &[z.lift_i64(x), z.lift_i64(y)])?);
            }
        }
        Ok(pts)
    };
    let pts = mk(grid)?;
    let n = pts.len();
    let mut best: Option<(S, [usize; 3])> = None;
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                if i == j || j == k || i == k {
                    continue;
                }
                let s = -lambda_sum(&[&pts[i], &pts[j], &pts[k]]);
                if decide(&s, "the sum of (18)")? != Sign::Positive {
                    continue;
                }
                let better = match &best {
                    None => true,
                    Some((b, _)) => decide(&s.sub_r(b), "sum − best")? == Sign::Positive,
                };
                if better {
                    best = Some((s, [i, j, k]));
                }
            }
        }
    }
    if let Some((_, [i, j, k])) = best {
        return Ok(Some(assemble(&[&pts[i], &pts[j], &pts[k]])));
    }
    let small = mk(1)?;
    for len in 4..=max_len {
        let m = small.len();
        let total = m.pow(len as u32);
        for code in 0..total {
            let mut idx = Vec::with_capacity(len);
            let mut c = code;
            for _ in 0..len {
                idx.push(c % m);
                c /= m;
            }
            let refs: Vec<&Point<S>> = idx.iter().map(|&i| &small[i]).collect();
            let s = -lambda_sum(&refs);
            if decide(&s, "the sum of (18)")? == Sign::Positive {
                return Ok(Some(assemble(&refs)));
            }
        }
    }
    Ok(None)
}
