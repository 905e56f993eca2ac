//! Newton's and Poisson's impact laws for any system, applied *simultaneously* to the
//! touching contacts as a linear complementarity problem (Glocker's generalised laws,
//! as Winandy–Leine (2017), Sect. 1, state them for the cradle, eqs. (1)–(6)):
//!
//! q̇⁺ = q̇⁻ + M⁻¹WΛ, γ = Wᵀq̇, γ⁺ = γ⁻ + GΛ with G = WᵀM⁻¹W (Winandy–Leine (6)),
//!
//! where the columns of W are the gradients ∇φ_i of the gap functions (φ_i ≥ 0
//! admissible), so that γ_i < 0 means contact i is approaching and Λ_i ≥ 0 pushes the
//! bodies apart. The constraints are given as Pasquero's [`Constraints`], whose normals
//! are n_i = −∇φ_i (admissible n_i·q̇ ≤ 0): γ_i = −n_i·q̇, M⁻¹W = −(M⁻¹n_iᵀ)_i, and G is
//! their Gram matrix.
//!
//! * **Newton** (restitution e_i per contact): 0 ≤ ξ ⊥ Λ ≥ 0 with ξ_i = γ⁺_i + e_iγ⁻_i,
//!   i.e. LCP(q, G) with q_i = γ⁻_i + e_iγ⁻_i. Engines apply it in two ways, both here
//!   ([`NewtonVariant`]): every touching contact enters one solve, a receding one
//!   (γ⁻_i ≥ 0) with the no-bounce constraint γ⁺_i ≥ 0 (q_i = γ⁻_i); or only the
//!   approaching contacts enter, and the solve is repeated while a touching contact
//!   approaches (what an engine does on its next time steps). [`NewtonVariant::Glocker`]
//!   is the law as Winandy–Leine print it: ξ_i = γ⁺_i + e_iγ⁻_i on every closed contact,
//!   whatever the sign of γ⁻_i.
//! * **Poisson**: compression 0 ≤ γ⁻ + GΛ_C ⊥ Λ_C ≥ 0, then expansion
//!   0 ≤ γ⁺ ⊥ Λ_E − EΛ_C ≥ 0 with γ⁺ = γ⁻ + G(Λ_C + Λ_E), E = diag(e_i).
//!
//! G is positive definite when the normals are independent, a P-matrix: each LCP has
//! exactly one solution, found exactly by [`crate::linalg::lcp::solve_lcp`].

use super::characterization::Constraints;
use super::{decide, LawError};
use crate::arith::{Scalar, Sign};
use crate::linalg::lcp::solve_lcp;
use crate::linalg::{dot, Matrix, Vector};

/// Which contacts enter Newton's simultaneous solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewtonVariant {
    /// Every touching contact, receding ones with γ⁺_i ≥ 0 (impulse/LCP engines).
    Touching,
    /// Only the approaching contacts, solve repeated while one approaches.
    Approaching,
    /// ξ_i = γ⁺_i + e_iγ⁻_i on every contact (Winandy–Leine Sect. 1 as printed).
    Glocker,
}

/// An outcome of Newton's or Poisson's law.
#[derive(Clone, Debug, PartialEq)]
pub struct ImpactOutcome<S> {
    /// q̇⁺.
    pub velocity: Vector<S>,
    /// γ⁺ = Wᵀq̇⁺.
    pub gamma: Vector<S>,
    /// The total impulse Λ per contact (≥ 0).
    pub impulse: Vector<S>,
    /// The contacts that received an impulse, per solve (one solve except for
    /// [`NewtonVariant::Approaching`]).
    pub rounds: Vec<Vec<usize>>,
}

/// γ = Wᵀq̇ = (−n_i·q̇)_i.
pub fn gap_rates<S: Scalar>(c: &Constraints<S>, v: &[S]) -> Vector<S> {
    (0..c.count()).map(|i| -c.rate(i, v)).collect()
}

/// The Gram matrix restricted to `set`.
fn sub_gram<S: Scalar>(c: &Constraints<S>, set: &[usize]) -> Matrix<S> {
    set.iter()
        .map(|&a| set.iter().map(|&b| c.gram()[a][b].clone()).collect())
        .collect()
}

/// The multipliers of LCP(q, G).
fn lcp<S: Scalar>(g: &Matrix<S>, q: &[S]) -> Result<Vector<S>, LawError> {
    Ok(solve_lcp(g, q)?.z)
}

/// A singular solve names the contacts whose normals are dependent.
fn dependent(err: LawError, set: &[usize]) -> LawError {
    match err {
        LawError::Domain(m) => LawError::Domain(format!(
            "{m}: the normals of contacts {:?} are linearly dependent",
            set.iter().map(|i| i + 1).collect::<Vec<_>>()
        )),
        other => other,
    }
}

/// q̇ + M⁻¹W_set Λ = q̇ − Σ Λ_k M⁻¹n_kᵀ.
fn apply<S: Scalar>(c: &Constraints<S>, v: &[S], set: &[usize], lambda: &[S]) -> Vector<S> {
    let mut out = v.to_vec();
    for (&k, l) in set.iter().zip(lambda) {
        if l.sign() == Sign::Zero {
            continue;
        }
        for (x, d) in out.iter_mut().zip(c.dual(k)) {
            *x = x.sub_r(&l.mul_r(d));
        }
    }
    out
}

/// The contacts of `set` whose impulse is decided nonzero.
fn pushed<S: Scalar>(set: &[usize], lambda: &[S]) -> Vec<usize> {
    set.iter()
        .zip(lambda)
        .filter(|(_, l)| l.sign() != Sign::Zero)
        .map(|(&k, _)| k)
        .collect()
}

fn check_cors<S: Scalar>(c: &Constraints<S>, e: &[S]) -> Result<(), LawError> {
    if e.len() != c.count() {
        return Err(LawError::Domain(format!(
            "{} coefficients of restitution for {} contacts",
            e.len(),
            c.count()
        )));
    }
    Ok(())
}

/// Newton's impulse in gap space: Λ solving LCP(q, G) with q_k = γ_k + e_kγ_k where
/// contact k bounces (approaching, or every contact in [`NewtonVariant::Glocker`]) and
/// q_k = γ_k otherwise (the no-bounce constraint γ⁺_k ≥ 0). `g` is G = WᵀM⁻¹W of the
/// contacts in the solve, `gamma` their γ⁻ (Winandy–Leine (6)).
pub fn newton_impulse<S: Scalar>(
    g: &Matrix<S>,
    gamma: &[S],
    e: &[S],
    variant: NewtonVariant,
) -> Result<Vector<S>, LawError> {
    let mut q = Vec::with_capacity(gamma.len());
    for (k, (y, e)) in gamma.iter().zip(e).enumerate() {
        let bounce = variant == NewtonVariant::Glocker
            || decide(y, &format!("the normal rate of contact {}", k + 1))? == Sign::Negative;
        q.push(if bounce {
            y.add_r(&e.mul_r(y))
        } else {
            y.clone()
        });
    }
    lcp(g, &q)
}

/// Poisson's impulse in gap space: Λ_C = LCP(γ⁻, G) (compression), then
/// Λ_E = EΛ_C + μ with μ = LCP(γ⁻ + G(Λ_C + EΛ_C), G) (expansion); returns Λ_C + Λ_E.
pub fn poisson_impulse<S: Scalar>(
    g: &Matrix<S>,
    gamma: &[S],
    e: &[S],
) -> Result<Vector<S>, LawError> {
    let compression = lcp(g, gamma)?;
    let restored: Vector<S> = compression
        .iter()
        .zip(e)
        .map(|(l, e)| l.add_r(&e.mul_r(l)))
        .collect();
    let q: Vector<S> = gamma
        .iter()
        .zip(g)
        .map(|(y, row)| dot(row.iter(), restored.iter()).add_r(y))
        .collect();
    let mu = lcp(g, &q)?;
    Ok(restored.iter().zip(&mu).map(|(a, b)| a.add_r(b)).collect())
}

/// Newton's law with restitution `e` (one per contact) on every contact of `c` (all
/// touching), in `variant`; [`NewtonVariant::Approaching`] repeats its solve at most
/// `max_rounds` times.
///
/// # Example
///
/// ```
/// use impactkit::arith::Rational;
/// use impactkit::law::characterization::Constraints;
/// use impactkit::law::newton::{newton, NewtonVariant};
/// use impactkit::linalg::SymMatrix;
/// let r = |n| Rational::new(n, 1);
/// let mass = SymMatrix::diagonal(&[r(1), r(1), r(1)]);
/// let c = Constraints::new(mass, vec![vec![r(1), r(-1), r(0)], vec![r(0), r(1), r(-1)]]).unwrap();
/// let v = [r(1), r(0), r(0)];
/// let out = newton(&c, &v, &[r(1), r(1)], NewtonVariant::Touching, 10).unwrap();
/// let s: Vec<String> = out.velocity.iter().map(|x| x.to_string()).collect();
/// assert_eq!(s, ["-1/3", "2/3", "2/3"]);
/// ```
pub fn newton<S: Scalar>(
    c: &Constraints<S>,
    v: &[S],
    e: &[S],
    variant: NewtonVariant,
    max_rounds: usize,
) -> Result<ImpactOutcome<S>, LawError> {
    check_cors(c, e)?;
    let all: Vec<usize> = (0..c.count()).collect();
    let mut total = vec![v[0].zero_like(); c.count()];
    let mut velocity = v.to_vec();
    let mut rounds = Vec::new();
    loop {
        let gamma = gap_rates(c, &velocity);
        let set = match variant {
            NewtonVariant::Approaching => {
                let mut set = Vec::new();
                for (k, g) in gamma.iter().enumerate() {
                    let q = format!("the normal rate of contact {}", k + 1);
                    if decide(g, &q)? == Sign::Negative {
                        set.push(k);
                    }
                }
                set
            }
            _ if rounds.is_empty() => all.clone(),
            _ => Vec::new(),
        };
        if set.is_empty() {
            break;
        }
        if rounds.len() >= max_rounds {
            return Err(LawError::Domain(format!(
                "contacts still approach after {max_rounds} solves"
            )));
        }
        crate::budget::checkpoint();
        if let Some(cap) = crate::budget::digit_cap() {
            let digits: u64 = velocity.iter().map(Scalar::exact_digits).sum();
            if digits > cap {
                return Err(LawError::Domain(format!(
                    "work limit: the velocity has {digits} digits after {} solves (--max-digits {cap})",
                    rounds.len()
                )));
            }
        }
        let pick = |x: &[S]| set.iter().map(|&k| x[k].clone()).collect::<Vec<_>>();
        let lambda = newton_impulse(&sub_gram(c, &set), &pick(&gamma), &pick(e), variant)
            .map_err(|err| dependent(err, &set))?;
        velocity = apply(c, &velocity, &set, &lambda);
        for (&k, l) in set.iter().zip(&lambda) {
            total[k] = total[k].add_r(l);
        }
        rounds.push(pushed(&set, &lambda));
    }
    Ok(ImpactOutcome {
        gamma: gap_rates(c, &velocity),
        velocity,
        impulse: total,
        rounds,
    })
}

/// Poisson's law with restitution `e` (one per contact) on every contact of `c`:
/// compression, then expansion with Λ_E ≥ EΛ_C (Winandy–Leine Sect. 1, Glocker \[7\]).
pub fn poisson<S: Scalar>(
    c: &Constraints<S>,
    v: &[S],
    e: &[S],
) -> Result<ImpactOutcome<S>, LawError> {
    check_cors(c, e)?;
    let all: Vec<usize> = (0..c.count()).collect();
    let impulse = poisson_impulse(&sub_gram(c, &all), &gap_rates(c, v), e)
        .map_err(|err| dependent(err, &all))?;
    let velocity = apply(c, v, &all, &impulse);
    Ok(ImpactOutcome {
        gamma: gap_rates(c, &velocity),
        rounds: vec![pushed(&all, &impulse)],
        velocity,
        impulse,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Rational;
    use crate::linalg::SymMatrix;

    fn r(n: i64, d: i64) -> Rational {
        Rational::new(n, d)
    }

    /// Pasquero's normals n_i = −∇φ_i of the n-ball cradle: e_i − e_{i+1}.
    fn cradle(masses: &[Rational]) -> Constraints<Rational> {
        crate::system::cradle::cradle_constraints(masses).unwrap()
    }

    #[test]
    fn cradle_variants() {
        let c = cradle(&[r(1, 1), r(1, 1), r(1, 1)]);
        let v = [r(1, 1), r(0, 1), r(0, 1)];
        let e = [r(1, 1), r(1, 1)];
        let t = newton(&c, &v, &e, NewtonVariant::Touching, 1).unwrap();
        assert_eq!(t.velocity, vec![r(-1, 3), r(2, 3), r(2, 3)]);
        assert_eq!(t.impulse, vec![r(4, 3), r(2, 3)]);
        let a = newton(&c, &v, &e, NewtonVariant::Approaching, 10).unwrap();
        assert_eq!(a.velocity, vec![r(0, 1), r(0, 1), r(1, 1)]);
        assert_eq!(a.rounds, vec![vec![0], vec![1]]);
        let p = poisson(&c, &v, &e).unwrap();
        assert_eq!(p.velocity, vec![r(-1, 3), r(2, 3), r(2, 3)]);
    }

    #[test]
    fn corner_single_wall() {
        // disk in a corner, α = π/4: v0 = (1, 2) hits S2 only; e = 3/4 gives (−13/8, −5/8)
        let m = SymMatrix::diagonal(&[r(1, 1), r(1, 1)]);
        let c = Constraints::new(m, vec![vec![r(1, 1), r(-1, 1)], vec![r(1, 1), r(1, 1)]]).unwrap();
        let e = [r(3, 4), r(3, 4)];
        let v = [r(1, 1), r(2, 1)];
        for variant in [NewtonVariant::Touching, NewtonVariant::Approaching] {
            let o = newton(&c, &v, &e, variant, 10).unwrap();
            assert_eq!(o.velocity, vec![r(-13, 8), r(-5, 8)], "{variant:?}");
        }
        assert_eq!(
            poisson(&c, &v, &e).unwrap().velocity,
            vec![r(-13, 8), r(-5, 8)]
        );
    }
}
