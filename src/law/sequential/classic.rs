//! Winandy–Leine (2017), Sect. 1 and the remark after eq. (36): the generalised Newton and
//! Poisson impact laws (Glocker [6, 7]) for the same 3-ball cradle, so that "Newton's and
//! Poisson's law give a different outcome" is computed, not quoted. Both follow from the
//! general laws of [`crate::law::newton`] on the cradle's Gram matrix G.

use super::{add2, mat_vec, sub2, Cradle, Vec2};
use crate::arith::Scalar;
use crate::law::newton::{newton_impulse, poisson_impulse, NewtonVariant};
use crate::law::LawError;
use crate::linalg::{Matrix, Vector};

/// An outcome of Newton's or Poisson's law: γ⁺ and the total impulse Λ.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassicOutcome<S> {
    pub gamma_plus: Vec2<S>,
    pub impulse: Vec2<S>,
}

/// The general gap-space law of [`crate::law::newton`] on the cradle's G (eq. (6)), with
/// one ε on both contacts.
fn on_cradle<S: Scalar>(
    cradle: &Cradle<S>,
    gamma_minus: &Vec2<S>,
    e: &S,
    law: impl Fn(&Matrix<S>, &[S], &[S]) -> Result<Vector<S>, LawError>,
) -> Result<ClassicOutcome<S>, LawError> {
    let g: Matrix<S> = cradle.g.iter().map(|row| row.to_vec()).collect();
    let l = law(&g, gamma_minus, &[e.clone(), e.clone()])?;
    let l: Vec2<S> = [l[0].clone(), l[1].clone()];
    Ok(ClassicOutcome {
        gamma_plus: add2(gamma_minus, &mat_vec(&cradle.g, &l)),
        impulse: l,
    })
}

/// Generalised Newton law (Glocker \[6\]): ξ = γ⁺ + eγ⁻, 0 ≤ ξ ⊥ Λ ≥ 0, with γ⁺ = γ⁻ + GΛ
/// (eq. (6)), both contacts closed: [`newton_impulse`] in its
/// [`NewtonVariant::Glocker`] reading.
pub fn newton<S: Scalar>(
    cradle: &Cradle<S>,
    gamma_minus: &Vec2<S>,
    e: &S,
) -> Result<ClassicOutcome<S>, LawError> {
    on_cradle(cradle, gamma_minus, e, |g, y, e| {
        newton_impulse(g, y, e, NewtonVariant::Glocker)
    })
}

/// Generalised Poisson law (Glocker \[7\]): compression 0 ≤ γ⁻ + GΛ_C ⊥ Λ_C ≥ 0, then
/// expansion 0 ≤ γ⁺ ⊥ Λ_E − eΛ_C ≥ 0 with γ⁺ = γ⁻ + G(Λ_C + Λ_E): [`poisson_impulse`].
pub fn poisson<S: Scalar>(
    cradle: &Cradle<S>,
    gamma_minus: &Vec2<S>,
    e: &S,
) -> Result<ClassicOutcome<S>, LawError> {
    on_cradle(cradle, gamma_minus, e, poisson_impulse)
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
