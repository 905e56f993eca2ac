//! Winandy–Leine (2017), Sect. 1 and the remark after eq. (36): the generalised Newton and
//! Poisson impact laws (Glocker [6, 7]) for the same 3-ball cradle, so that "Newton's and
//! Poisson's law give a different outcome" is computed, not quoted.

use super::{add2, inverse, mat_vec, scale2, sub2, Cradle, Mat2, Vec2};
use crate::arith::{Scalar, Sign};
use crate::law::{decide, LawError};

/// The unique solution Λ ≥ 0 of the LCP 0 ≤ q + GΛ ⊥ Λ ≥ 0 for the 2×2 positive definite
/// G (a P-matrix), found exactly by trying the four active sets.
pub fn lcp2<S: Scalar>(g: &Mat2<S>, q: &Vec2<S>) -> Result<Vec2<S>, LawError> {
    let z = q[0].zero_like();
    let nonneg = |x: &S| -> Result<bool, LawError> { Ok(decide(x, "LCP")? != Sign::Negative) };
    // ∅
    if nonneg(&q[0])? && nonneg(&q[1])? {
        return Ok([z.clone(), z]);
    }
    // {1}, {2}
    for k in 0..2 {
        let o = 1 - k;
        let lk = (-q[k].clone()).checked_div(&g[k][k])?;
        let w = q[o].add_r(&g[o][k].mul_r(&lk));
        if nonneg(&lk)? && nonneg(&w)? {
            let mut l = [z.clone(), z.clone()];
            l[k] = lk;
            return Ok(l);
        }
    }
    // {1, 2}
    let l = mat_vec(&inverse(g)?, &[-q[0].clone(), -q[1].clone()]);
    if nonneg(&l[0])? && nonneg(&l[1])? {
        return Ok(l);
    }
    Err(LawError::Domain(
        "the LCP has no solution (G is not a P-matrix?)".into(),
    ))
}

/// An outcome of Newton's or Poisson's law: γ⁺ and the total impulse Λ.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassicOutcome<S> {
    pub gamma_plus: Vec2<S>,
    pub impulse: Vec2<S>,
}

/// Generalised Newton law (Glocker [6]): ξ = γ⁺ + eγ⁻, 0 ≤ ξ ⊥ Λ ≥ 0, with γ⁺ = γ⁻ + GΛ
/// (eq. (6)), both contacts closed.
pub fn newton<S: Scalar>(
    cradle: &Cradle<S>,
    gamma_minus: &Vec2<S>,
    e: &S,
) -> Result<ClassicOutcome<S>, LawError> {
    let q = scale2(&(e.one_like() + e), gamma_minus);
    let l = lcp2(&cradle.g, &q)?;
    Ok(ClassicOutcome {
        gamma_plus: add2(gamma_minus, &mat_vec(&cradle.g, &l)),
        impulse: l,
    })
}

/// Generalised Poisson law (Glocker [7]): compression 0 ≤ γ⁻ + GΛ_C ⊥ Λ_C ≥ 0, then
/// expansion 0 ≤ γ⁺ ⊥ Λ_E − eΛ_C ≥ 0 with γ⁺ = γ⁻ + G(Λ_C + Λ_E).
pub fn poisson<S: Scalar>(
    cradle: &Cradle<S>,
    gamma_minus: &Vec2<S>,
    e: &S,
) -> Result<ClassicOutcome<S>, LawError> {
    let lc = lcp2(&cradle.g, gamma_minus)?;
    let gc = add2(gamma_minus, &mat_vec(&cradle.g, &lc));
    let q = add2(&gc, &mat_vec(&cradle.g, &scale2(e, &lc)));
    let mu = lcp2(&cradle.g, &q)?;
    let le = add2(&mu, &scale2(e, &lc));
    let total = add2(&lc, &le);
    Ok(ClassicOutcome {
        gamma_plus: add2(gamma_minus, &mat_vec(&cradle.g, &total)),
        impulse: total,
    })
}

/// Ball velocities after an impulse: u⁺ = u⁻ + M⁻¹WΛ (eq. (1)), W of eq. (3).
pub fn ball_velocities<S: Scalar>(
    cradle: &Cradle<S>,
    u_minus: &[S; 3],
    impulse: &Vec2<S>,
) -> Result<[S; 3], LawError> {
    let w_l = [
        -impulse[0].clone(),
        impulse[0].sub_r(&impulse[1]),
        impulse[1].clone(),
    ];
    let mut out = u_minus.clone();
    for i in 0..3 {
        out[i] = out[i].add_r(&w_l[i].checked_div(&cradle.masses[i])?);
    }
    Ok(out)
}

/// γ = Wᵀu = (u₂ − u₁, u₃ − u₂), eq. (2).
pub fn contact_velocities<S: Scalar>(u: &[S; 3]) -> Vec2<S> {
    sub2(&[u[1].clone(), u[2].clone()], &[u[0].clone(), u[1].clone()])
}
