//! The disk in a corner: Fassino & Pasquero (2020), "An algorithmic approach to the
//! multiple impact of a disk in a corner" (`fassino-pasquero-2020-disk-in-corner.txt`),
//! and the asymmetric rule (10) of Pasquero, "Non-ideal multiple constraints"
//! (`pasquero-nonideal-multiple-constraints.txt`, Sect. 4.2).
//!
//! A disk touches two walls S1: kx − y = 0 and S2: kx + y = 0 forming the angle 2α,
//! k = tan α > 0. The linear velocity (ẋ, ẏ) is classified by
//! ξ̇ = kẋ + ẏ, η̇ = kẋ − ẏ (eq. (1), (7)) into the zones Z0 (exit), Z1 (impact with S1),
//! Z2 (impact with S2) and Z12 (multiple impact). Every form of the rules is a separate
//! function named after its equations; they are compared exactly in the tests.

use super::{decide, positive, LawError, V2};
use crate::arith::{Scalar, Sign};
use serde::Serialize;
use std::fmt;

/// The zones of eq. (1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Zone {
    Z0,
    Z1,
    Z2,
    Z12,
}

impl fmt::Display for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// (ξ̇, η̇) = (kẋ + ẏ, kẋ − ẏ), eq. (7).
#[inline]
pub fn xi_eta<S: Scalar>(k: &S, v: &V2<S>) -> V2<S> {
    let kx = k.mul_r(&v.x);
    V2::new(kx.add_r(&v.y), kx - &v.y)
}

/// (ẋ, ẏ) = ((ξ̇ + η̇)/(2k), (ξ̇ − η̇)/2), eq. (7).
#[inline]
pub fn xy_from_xi_eta<S: Scalar>(k: &S, w: &V2<S>) -> Result<V2<S>, LawError> {
    let two = k.lift_i64(2);
    let x = w.x.add_r(&w.y).checked_div(&two.mul_r(k))?;
    let y = w.x.sub_r(&w.y).checked_div(&two)?;
    Ok(V2::new(x, y))
}

/// The zone of (ξ̇, η̇) with threshold `s`: "> 0" of eq. (1) read as "> S" (Sect. 6;
/// `s = 0` is eq. (1) itself, eqs. (8a–8d), (14a–14d)).
#[inline(always)]
pub fn zone_xi_eta<S: Scalar>(w: &V2<S>, s: &S) -> Result<Zone, LawError> {
    let a = positive(&w.x.sub_r(s), "xi - S")?;
    let b = positive(&w.y.sub_r(s), "eta - S")?;
    Ok(match (a, b) {
        (false, false) => Zone::Z0,
        (false, true) => Zone::Z1,
        (true, false) => Zone::Z2,
        (true, true) => Zone::Z12,
    })
}

/// The zone of (ẋ, ẏ), eq. (1), with threshold `s` (Sect. 6).
pub fn zone_xy<S: Scalar>(k: &S, v: &V2<S>, s: &S) -> Result<Zone, LawError> {
    zone_xi_eta(&xi_eta(k, v), s)
}

/// The zones whose conditions, as written in (6a–6d), hold for v = |v|(cos φ, sin φ).
///
/// Eq. (1) puts every velocity in exactly one zone; the conditions of (6) do not: on the
/// ray cot φ = −cot α, sin φ < 0 (ξ̇ = 0, η̇ > 0) none holds (eq. (1): Z1), and on the ray
/// cot φ = cot α, sin φ < 0 (η̇ = 0, ξ̇ < 0) both (6a) and (6b) hold (eq. (1): Z0).
pub fn zones_phi<S: Scalar>(k: &S, v: &V2<S>) -> Result<Vec<Zone>, LawError> {
    zones_phi_with(k, v, false)
}

/// [`zones_phi`] with (6b) corrected (`corrected_6b`): sin φ < 0 and −cot α ≤ cot φ <
/// cot α, i.e. its two boundary inequalities exchanged, so that (6a)–(6d) name exactly the
/// zone of eq. (1) on every ray φ = ±α, ±(π − α) (claim `fp-6-zone-boundaries-corrected`).
pub fn zones_phi_with<S: Scalar>(
    k: &S,
    v: &V2<S>,
    corrected_6b: bool,
) -> Result<Vec<Zone>, LawError> {
    let (c, s) = (&v.x, &v.y);
    let kc = k.mul_r(c);
    let plus = decide(&kc.add_r(s), "k cos(phi) + sin(phi)")?;
    let minus = decide(&kc.sub_r(s), "k cos(phi) - sin(phi)")?;
    let sc = decide(c, "cos(phi)")?;
    let ss = decide(s, "sin(phi)")?;
    use Sign::*;
    let le0 = |x: Sign| x != Positive;
    let mut out = Vec::new();
    // (6a): cos φ < 0 and |tan φ| ≤ tan α  ⇔  cos φ < 0, k cos φ ± sin φ ≤ 0
    if sc == Negative && le0(plus) && le0(minus) {
        out.push(Zone::Z0);
    }
    // (6b): sin φ < 0 and −cot α < cot φ ≤ cot α  ⇔  sin φ < 0, k cos φ + sin φ < 0,
    // k cos φ − sin φ ≥ 0 (multiplying by k sin φ < 0)
    let z1 = match corrected_6b {
        false => plus == Negative && minus != Negative,
        // corrected: k cos φ + sin φ ≤ 0, k cos φ − sin φ > 0
        true => le0(plus) && minus == Positive,
    };
    if ss == Negative && z1 {
        out.push(Zone::Z1);
    }
    // (6c): sin φ > 0 and −cot α < cot φ ≤ cot α  ⇔  sin φ > 0, k cos φ + sin φ > 0,
    // k cos φ − sin φ ≤ 0
    if ss == Positive && plus == Positive && le0(minus) {
        out.push(Zone::Z2);
    }
    // (6d): cos φ > 0 and |tan φ| < tan α  ⇔  cos φ > 0, k cos φ ± sin φ > 0
    if sc == Positive && plus == Positive && minus == Positive {
        out.push(Zone::Z12);
    }
    Ok(out)
}

/// Coefficients (1 − k²)/(1 + k²) = cos 2α and 2k/(1 + k²) = sin 2α (Sect. 2.2).
fn cos_sin_2alpha<S: Scalar>(k: &S) -> Result<(S, S), LawError> {
    let one = k.one_like();
    let k2 = k.square();
    let den = one.add_r(&k2);
    Ok((
        (one - &k2).checked_div(&den)?,
        k.lift_i64(2).mul_r(k).checked_div(&den)?,
    ))
}

/// TR_id in (ẋ, ẏ) form, eqs. (3a–3d), for a given zone.
///
/// # Example
///
/// ```
/// use impactkit::arith::Rational;
/// use impactkit::law::corner::{tr_id_xy, zone_xy, Zone};
/// use impactkit::law::V2;
/// let r = |n, d| Rational::new(n, d);
/// // α = π/4 (k = 1); v = (1, 1/2) approaches both walls: zone Z12
/// let (k, v) = (r(1, 1), V2::new(r(1, 1), r(1, 2)));
/// let zone = zone_xy(&k, &v, &r(0, 1)).unwrap();
/// assert_eq!(zone, Zone::Z12);
/// let out = tr_id_xy(&k, zone, &v).unwrap();
/// assert_eq!((out.x.to_string(), out.y.to_string()), ("-1".into(), "-1/2".into()));
/// ```
pub fn tr_id_xy<S: Scalar>(k: &S, zone: Zone, v: &V2<S>) -> Result<V2<S>, LawError> {
    let (x, y) = (&v.x, &v.y);
    match zone {
        Zone::Z0 => Ok(v.clone()),
        Zone::Z1 | Zone::Z2 => {
            let (c, s) = cos_sin_2alpha(k)?;
            Ok(if zone == Zone::Z1 {
                // (3b)
                V2::new(c.mul_r(x) + s.mul_r(y), s.mul_r(x) - c.mul_r(y))
            } else {
                // (3c)
                V2::new(c.mul_r(x) - s.mul_r(y), -(s.mul_r(x)) - c.mul_r(y))
            })
        }
        Zone::Z12 => {
            // (3d)
            let one = k.one_like();
            let two = k.lift_i64(2);
            let k2 = k.square();
            let k4 = k2.square();
            let (x2, y2) = (x.square(), y.square());
            let d = k4.mul_r(&x2) + &y2;
            let nx = -(k4.mul_r(&x2)) + (one - two.mul_r(&k2)).mul_r(&y2);
            let ny = k2.mul_r(&(k2.clone() - &two)).mul_r(&x2) - &y2;
            Ok(V2::new(
                nx.checked_div(&d)?.mul_r(x),
                ny.checked_div(&d)?.mul_r(y),
            ))
        }
    }
}

/// TR_id in the φ form (6) where the conditions (6a)–(6d) name the zones `zs` (from
/// [`zones_phi`]): the one zone's formula, or, where several conditions hold, their common
/// value when every one gives the same velocity (a piecewise definition whose pieces
/// agree where they overlap). No zone, or pieces that differ, leave (6) without a value.
pub fn tr_id_phi_in<S: Scalar>(k: &S, zs: &[Zone], v: &V2<S>) -> Result<V2<S>, LawError> {
    let values = zs
        .iter()
        .map(|z| tr_id_phi(k, *z, v))
        .collect::<Result<Vec<_>, _>>()?;
    let Some(first) = values.first() else {
        return Err(LawError::Domain(
            "the conditions of (6) give no zone here".into(),
        ));
    };
    for w in &values[1..] {
        for (a, b) in [(&first.x, &w.x), (&first.y, &w.y)] {
            if decide(&a.sub_r(b), "the difference of two zones' values of (6)")? != Sign::Zero {
                return Err(LawError::Domain(format!(
                    "the conditions of (6) give {} zones here, with different values",
                    zs.len()
                )));
            }
        }
    }
    Ok(first.clone())
}

/// TR_id in (cos φ, sin φ) form, eqs. (6a–6d), for a given zone. The formulas are
/// homogeneous of degree 1, so `v` = v₀(cos φ, sin φ) need not be a unit vector.
/// (6b) φ' = −φ + 2α and (6c) φ' = −φ − 2α are applied through cos 2α, sin 2α.
pub fn tr_id_phi<S: Scalar>(k: &S, zone: Zone, v: &V2<S>) -> Result<V2<S>, LawError> {
    let (c, s) = (&v.x, &v.y);
    match zone {
        Zone::Z0 => Ok(v.clone()),
        Zone::Z1 => {
            // cos(2α − φ), sin(2α − φ)
            let (c2, s2) = cos_sin_2alpha(k)?;
            Ok(V2::new(
                c2.mul_r(c) + s2.mul_r(s),
                s2.mul_r(c) - c2.mul_r(s),
            ))
        }
        Zone::Z2 => {
            // cos(−φ − 2α), sin(−φ − 2α)
            let (c2, s2) = cos_sin_2alpha(k)?;
            Ok(V2::new(
                c2.mul_r(c) - s2.mul_r(s),
                -(s2.mul_r(c)) - c2.mul_r(s),
            ))
        }
        Zone::Z12 => {
            // (6d) with tan α = k
            let k2 = k.square();
            let k4 = k2.square();
            let (c2, s2) = (c.square(), s.square());
            let t = k4.mul_r(&c2);
            let d = t.add_r(&s2);
            let two_k2 = k.lift_i64(2).mul_r(&k2);
            let first = t.sub_r(&s2).checked_div(&d)?;
            let cs = -(first.add_r(&two_k2.mul_r(&s2).checked_div(&d)?));
            let sn = first - &two_k2.mul_r(&c2).checked_div(&d)?;
            Ok(V2::new(cs.mul_r(c), sn.mul_r(s)))
        }
    }
}

/// TR_id in (ξ̇, η̇) form, eqs. (8a–8d), for a given zone; `w` = (ξ̇, η̇).
pub fn tr_id_xi_eta<S: Scalar>(k: &S, zone: Zone, w: &V2<S>) -> Result<V2<S>, LawError> {
    tr_xi_eta(k, &k.one_like(), zone, w)
}

/// TR_nid in (ξ̇, η̇) form, eqs. (14a–14d), for a given zone; `w` = (ξ̇, η̇).
/// At ε = 1 these are eqs. (8a–8d).
pub fn tr_nid_xi_eta<S: Scalar>(k: &S, eps: &S, zone: Zone, w: &V2<S>) -> Result<V2<S>, LawError> {
    tr_xi_eta(k, eps, zone, w)
}

fn tr_xi_eta<S: Scalar>(k: &S, eps: &S, zone: Zone, w: &V2<S>) -> Result<V2<S>, LawError> {
    tr_nid_xi_eta_with(&XiEtaCoefficients::new(k, eps)?, zone, w)
}

/// The constants of eqs. (14a–14d) for one k and one ε, computed once for a run.
#[derive(Clone, Debug)]
pub struct XiEtaCoefficients<S> {
    /// ε.
    pub eps: S,
    /// 1 + k².
    pub one_plus_k2: S,
    /// 2(1 − k²).
    pub two_one_minus_k2: S,
    /// (1 + ε)(1 − k²).
    pub one_eps_one_minus_k2: S,
    /// (1 + ε)(1 − k²)/(1 + k²), the coefficient of (14b), (14c).
    pub b: S,
}

impl<S: Scalar> XiEtaCoefficients<S> {
    /// The constants for `k` = tan α and `eps` = ε.
    pub fn new(k: &S, eps: &S) -> Result<Self, LawError> {
        let one = k.one_like();
        let k2 = k.square();
        let one_plus_k2 = one.add_r(&k2);
        let one_minus_k2 = one.sub_r(&k2);
        let one_eps_one_minus_k2 = one.add_r(eps).mul_r(&one_minus_k2);
        Ok(XiEtaCoefficients {
            eps: eps.clone(),
            b: one_eps_one_minus_k2.checked_div(&one_plus_k2)?,
            two_one_minus_k2: k.lift_i64(2).mul_r(&one_minus_k2),
            one_plus_k2,
            one_eps_one_minus_k2,
        })
    }
}

/// TR_nid in (ξ̇, η̇) form, eqs. (14a–14d), with the constants computed once.
#[inline]
pub fn tr_nid_xi_eta_with<S: Scalar>(
    c: &XiEtaCoefficients<S>,
    zone: Zone,
    w: &V2<S>,
) -> Result<V2<S>, LawError> {
    let (xi, eta) = (&w.x, &w.y);
    match zone {
        Zone::Z0 => Ok(w.clone()),
        // (14b): ξ̇' = ξ̇ + (1 + ε)(1 − k²)/(1 + k²)·η̇, η̇' = −ε η̇; (14c) symmetrically
        Zone::Z1 => Ok(V2::new(xi.add_r(&c.b.mul_r(eta)), -(c.eps.mul_r(eta)))),
        Zone::Z2 => Ok(V2::new(-(c.eps.mul_r(xi)), eta.add_r(&c.b.mul_r(xi)))),
        Zone::Z12 => {
            // (14d): P = (1 + k²)(ξ̇² + η̇²), Q = 2(1 − k²)ξ̇η̇, D = P − Q
            let sq = xi.square() + &eta.square();
            let p = c.one_plus_k2.mul_r(&sq);
            let q = c.two_one_minus_k2.mul_r(xi).mul_r(eta);
            let d = p.sub_r(&q);
            let a = c.eps.mul_r(&p).add_r(&q).checked_div(&d)?;
            let cc = c.one_eps_one_minus_k2.mul_r(&sq).checked_div(&d)?;
            Ok(V2::new(
                cc.mul_r(eta) - &a.mul_r(xi),
                cc.mul_r(xi) - &a.mul_r(eta),
            ))
        }
    }
}

/// TR_nid in (ẋ, ẏ) form, eqs. (13a–13d), for a given zone (eqs. (18)–(20) of Sect. 6).
pub fn tr_nid_xy<S: Scalar>(k: &S, eps: &S, zone: Zone, v: &V2<S>) -> Result<V2<S>, LawError> {
    tr_nid_xy_with(&XyCoefficients::new(k, eps)?, zone, v)
}

/// The constants of eqs. (13a–13d) (= (18)–(20) of the algorithm of Sect. 6) for one k
/// and one ε, computed once for a run.
#[derive(Clone, Debug)]
pub struct XyCoefficients<S> {
    /// ε.
    pub eps: S,
    /// (1 − εk²)/(1 + k²).
    pub a: S,
    /// (1 + ε)k/(1 + k²).
    pub b: S,
    /// (ε − k²)/(1 + k²).
    pub c: S,
    /// k⁴.
    pub k4: S,
    /// εk⁴.
    pub eps_k4: S,
    /// 1 − (1 + ε)k².
    pub one_minus_one_eps_k2: S,
    /// k²(k² − (1 + ε)).
    pub k2_k2_minus_one_eps: S,
}

impl<S: Scalar> XyCoefficients<S> {
    /// The constants for `k` = tan α and `eps` = ε.
    pub fn new(k: &S, eps: &S) -> Result<Self, LawError> {
        let one = k.one_like();
        let one_eps = one.add_r(eps);
        let k2 = k.square();
        let den = one.add_r(&k2);
        let k4 = k2.square();
        Ok(XyCoefficients {
            a: one.sub_r(&eps.mul_r(&k2)).checked_div(&den)?,
            b: one_eps.mul_r(k).checked_div(&den)?,
            c: eps.sub_r(&k2).checked_div(&den)?,
            eps_k4: eps.mul_r(&k4),
            one_minus_one_eps_k2: one.sub_r(&one_eps.mul_r(&k2)),
            k2_k2_minus_one_eps: k2.mul_r(&k2.sub_r(&one_eps)),
            k4,
            eps: eps.clone(),
        })
    }
}

/// TR_nid in (ẋ, ẏ) form, eqs. (13a–13d), with the constants computed once.
#[inline(always)]
pub fn tr_nid_xy_with<S: Scalar>(
    c: &XyCoefficients<S>,
    zone: Zone,
    v: &V2<S>,
) -> Result<V2<S>, LawError> {
    let (x, y) = (&v.x, &v.y);
    match zone {
        Zone::Z0 => Ok(v.clone()),
        // (13b)
        Zone::Z1 => Ok(V2::new(
            c.a.mul_r(x) + &c.b.mul_r(y),
            c.b.mul_r(x) - &c.c.mul_r(y),
        )),
        // (13c)
        Zone::Z2 => Ok(V2::new(
            c.a.mul_r(x) - &c.b.mul_r(y),
            -(c.b.mul_r(x)) - &c.c.mul_r(y),
        )),
        Zone::Z12 => {
            // (13d)
            let (x2, y2) = (x.square(), y.square());
            let d = c.k4.mul_r(&x2) + &y2;
            let nx = -(c.eps_k4.mul_r(&x2)) + c.one_minus_one_eps_k2.mul_r(&y2);
            let ny = c.k2_k2_minus_one_eps.mul_r(&x2) - &c.eps.mul_r(&y2);
            Ok(V2::new(
                nx.checked_div(&d)?.mul_r(x),
                ny.checked_div(&d)?.mul_r(y),
            ))
        }
    }
}

/// The orthogonal components V⊥₁(v) = η̇/(1+k²)·(k, −1) and V⊥₂(v) = ξ̇/(1+k²)·(k, 1)
/// (Pasquero, Sect. 4.2).
pub fn orthogonal_components<S: Scalar>(k: &S, v: &V2<S>) -> Result<(V2<S>, V2<S>), LawError> {
    let w = xi_eta(k, v);
    let den = k.one_like().add_r(&k.square());
    let a = w.y.checked_div(&den)?;
    let b = w.x.checked_div(&den)?;
    Ok((V2::new(a.mul_r(k), -a), V2::new(b.mul_r(k), b)))
}

/// β = ⟨V⊥₁₂, V⊥₁ + V⊥₂⟩ / ‖V⊥₁ + V⊥₂‖² (Pasquero, Sect. 3.2 and 3.5 c)); for the corner
/// V⊥₁₂(v) = v and β = (1 + k²)/2 · (k²ẋ² + ẏ²)/(k⁴ẋ² + ẏ²) (Sect. 4.2).
pub fn beta<S: Scalar>(k: &S, v: &V2<S>) -> Result<S, LawError> {
    let (v1, v2) = orthogonal_components(k, v)?;
    let sx = v1.x.add_r(&v2.x);
    let sy = v1.y.add_r(&v2.y);
    let den = sx.square() + &sy.square();
    let num = v.x.mul_r(&sx) + &v.y.mul_r(&sy);
    super::divide_nonzero(
        &num,
        &den,
        "|V1 + V2|^2 (the denominator of beta)",
        "beta is undefined: V1 + V2 = 0 (the denominator of beta is zero)",
    )
}

/// The asymmetric rule with CORs ε₁ (wall S1) and ε₂ (wall S2), Pasquero eq. (10):
/// Z1: v − (1+ε₁)V⊥₁, Z2: v − (1+ε₂)V⊥₂, Z12: v − β((1+ε₁)V⊥₁ + (1+ε₂)V⊥₂).
pub fn asymmetric_xy<S: Scalar>(
    k: &S,
    eps1: &S,
    eps2: &S,
    zone: Zone,
    v: &V2<S>,
) -> Result<V2<S>, LawError> {
    let (v1, v2) = orthogonal_components(k, v)?;
    let one = k.one_like();
    let (a1, a2) = (one.add_r(eps1), one.add_r(eps2));
    let (dx, dy) = match zone {
        Zone::Z0 => return Ok(v.clone()),
        Zone::Z1 => (a1.mul_r(&v1.x), a1.mul_r(&v1.y)),
        Zone::Z2 => (a2.mul_r(&v2.x), a2.mul_r(&v2.y)),
        Zone::Z12 => {
            let b = beta(k, v)?;
            (
                b.mul_r(&(a1.mul_r(&v1.x) + &a2.mul_r(&v2.x))),
                b.mul_r(&(a1.mul_r(&v1.y) + &a2.mul_r(&v2.y))),
            )
        }
    };
    Ok(V2::new(v.x.sub_r(&dx), v.y.sub_r(&dy)))
}

/// The energy ratio ‖v_{n+1}‖²/‖v_n‖² of eq. (4) (equal to 1 in the ideal case).
pub fn energy_ratio<S: Scalar>(before: &V2<S>, after: &V2<S>) -> Result<S, LawError> {
    Ok(after.norm2().checked_div(&before.norm2())?)
}

/// A 2×2 matrix, row major.
pub type M2<S> = [[S; 2]; 2];

/// H₁ and H₂ of the proof of Theorem 5.3, with β = (1 − k²)/(1 + k²):
/// H₁ = [[−ε, −βε(1+ε)], [β(1+ε), β²(1+ε)² − ε]], H₂ = [[β²(1+ε)² − ε, β(1+ε)], [−βε(1+ε), −ε]].
pub fn h_matrices<S: Scalar>(k: &S, eps: &S) -> Result<(M2<S>, M2<S>), LawError> {
    let one = k.one_like();
    let k2 = k.square();
    let b = one.sub_r(&k2).checked_div(&one.add_r(&k2))?;
    let b1 = b.mul_r(&one.add_r(eps)); // β(1 + ε)
    let d = b1.square() - eps; // β²(1+ε)² − ε
    let h1 = [[-eps.clone(), -(b1.mul_r(eps))], [b1.clone(), d.clone()]];
    let h2 = [[d, b1.clone()], [-(b1.mul_r(eps)), -eps.clone()]];
    Ok((h1, h2))
}

/// The spectral radius ρ(H₁) = ρ(H₂) (Theorem 5.3): with t = trace and δ = det = ε²,
/// ρ = ε when t² < 4δ (complex or double eigenvalues), otherwise (|t| + √(t² − 4δ))/2,
/// which for β ≥ 0 is the paper's ½(β²(1+ε)² − 2ε + β(1+ε)√(β²(1+ε)² − 4ε)).
pub fn spectral_radius<S: Scalar>(h: &M2<S>) -> Result<S, LawError> {
    let t = h[0][0].add_r(&h[1][1]);
    let det = h[0][0].mul_r(&h[1][1]) - &h[0][1].mul_r(&h[1][0]);
    let disc = t.square() - &det.lift_i64(4).mul_r(&det);
    if decide(&disc, "trace^2 - 4 det")? == Sign::Negative {
        // |λ|² = det
        return Ok(det.sqrt()?);
    }
    let abs_t = if decide(&t, "trace")? == Sign::Negative {
        -t
    } else {
        t
    };
    Ok(abs_t.add_r(&disc.sqrt()?).checked_div(&det.lift_i64(2))?)
}

/// The paper's estimate N ≈ −2p / log₂ ρ(H₂) of the number of steps until ‖v‖ < 2^(−p)
/// (Sect. 6); a floating-point estimate (it involves a logarithm), `None` if ρ ∉ (0, 1).
pub fn steps_estimate(rho: f64, p: u32) -> Option<f64> {
    (rho > 0.0 && rho < 1.0).then(|| -2.0 * f64::from(p) / rho.log2())
}

/// The polar angle φ ∈ (−π, π] of v ≠ 0 (through `atan` and π, so enclosure and float
/// backends only).
pub fn polar_angle<S: Scalar>(v: &V2<S>) -> Result<S, LawError> {
    let pi = S::pi(&v.x.ctx())?;
    let half = pi.checked_div(&pi.lift_i64(2))?;
    match decide(&v.x, "x")? {
        Sign::Positive => Ok(v.y.checked_div(&v.x)?.atan()?),
        Sign::Zero => match decide(&v.y, "y")? {
            Sign::Positive => Ok(half),
            Sign::Negative => Ok(-half),
            _ => Err(LawError::Domain("the zero velocity has no angle".into())),
        },
        _ => {
            let a = v.y.checked_div(&v.x)?.atan()?;
            // x < 0: atan(y/x) + π for y ≥ 0, − π for y < 0
            Ok(if decide(&v.y, "y")? == Sign::Negative {
                a - &pi
            } else {
                a + &pi
            })
        }
    }
}

/// Result 6 (ideal case): the number of iterations of TR_id predicted by condition (9).
///
/// For v ∈ Z1 with angle φ, the iterates are φ − 2jα (j even) and −φ + 2jα (j odd)
/// (proof of Result 3); the count is the first j whose angle, reduced to (−π, π], lies in
/// (−π, −π + α] ∪ [π − α, π], i.e. in Z0. Z2 follows by the symmetry (5) (φ → −φ), and
/// v ∈ Z12 takes one multiple impact more (Result 6). `alpha` is α itself.
pub fn predicted_iterations_ideal<S: Scalar>(alpha: &S, v: &V2<S>) -> Result<usize, LawError> {
    let k = alpha.tan()?;
    match zone_xy(&k, v, &k.zero_like())? {
        Zone::Z0 => Ok(0),
        Zone::Z12 => {
            let v1 = tr_id_xy(&k, Zone::Z12, v)?;
            Ok(1 + predicted_iterations_ideal(alpha, &v1)?)
        }
        z => {
            let phi = polar_angle(v)?;
            let phi = if z == Zone::Z1 { phi } else { -phi };
            let pi = S::pi(&alpha.ctx())?;
            let two_pi = pi.lift_i64(2).mul_r(&pi);
            let exit_at = pi.sub_r(alpha); // |φ| ≥ π − α
            for j in 1..=1_000_000i64 {
                crate::budget::checkpoint();
                let step = alpha.lift_i64(2 * j).mul_r(alpha);
                let mut a = if j % 2 == 0 {
                    phi.sub_r(&step)
                } else {
                    step - &phi
                };
                while decide(&a.sub_r(&pi), "iterated angle - pi")? == Sign::Positive {
                    a = a - &two_pi;
                }
                while decide(&a.add_r(&pi), "iterated angle + pi")? != Sign::Positive {
                    a = a + &two_pi;
                }
                let abs = if decide(&a, "iterated angle")? == Sign::Negative {
                    -a
                } else {
                    a
                };
                if decide(&abs.sub_r(&exit_at), "|angle| - (pi - alpha)")? != Sign::Negative {
                    return Ok(j as usize);
                }
            }
            Err(LawError::Domain(
                "Result 6: more than 10^6 iterations predicted".into(),
            ))
        }
    }
}
