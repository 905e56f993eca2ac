//! The linear complementarity problem LCP(q, A): find z ≥ 0 with w = q + Az ≥ 0 and
//! zᵀw = 0 — the form of Newton's and Poisson's simultaneous impact laws (Glocker;
//! Winandy–Leine (2017), Sect. 1) and of the plastic impact that never pulls.
//!
//! Solved *exactly* in exact backends by Murty's least-index principal pivoting method
//! (K. G. Murty, "Note on a Bard-type scheme for solving the complementarity problem",
//! Opsearch 11 (1974)): keep a set B of contacts whose multiplier is basic, solve
//! A_BB z_B = −q_B, and toggle the least index that violates z ≥ 0 or w ≥ 0. For a
//! P-matrix (every Gram matrix of independent normals is positive definite, hence one)
//! the method terminates at the unique solution. Every sign goes through `sign()`: an
//! enclosure that cannot decide one is reported as [`LinalgError::Undecided`], never
//! guessed. [`enumerate`] tries all 2^m complementary sets (a check for small m).

use super::{solve, LinalgError, Matrix, Vector};
use crate::arith::{decide, Scalar, Sign};

/// A solution of LCP(q, A).
#[derive(Clone, Debug, PartialEq)]
pub struct Lcp<S> {
    /// The multipliers z ≥ 0.
    pub z: Vector<S>,
    /// w = q + Az ≥ 0.
    pub w: Vector<S>,
    /// Which z are basic (the active set B).
    pub active: Vec<bool>,
    /// Principal pivots made.
    pub pivots: usize,
}

/// Largest number of principal pivots (Murty's method is finite on P-matrices, but can
/// take exponentially many pivots in the worst case).
pub const MAX_PIVOTS: usize = 1 << 16;

/// The point of the complementary set `active`: z_B = −A_BB⁻¹q_B, z_N = 0, w = q + Az.
pub fn complementary_point<S: Scalar>(
    a: &Matrix<S>,
    q: &[S],
    active: &[bool],
) -> Result<(Vector<S>, Vector<S>), LinalgError> {
    let b: Vec<usize> = (0..q.len()).filter(|&i| active[i]).collect();
    let zero = q[0].zero_like();
    let mut z = vec![zero; q.len()];
    if !b.is_empty() {
        let sub: Matrix<S> = b
            .iter()
            .map(|&i| b.iter().map(|&j| a[i][j].clone()).collect())
            .collect();
        let rhs: Vector<S> = b.iter().map(|&i| -q[i].clone()).collect();
        for (&i, x) in b.iter().zip(solve(sub, rhs)?) {
            z[i] = x;
        }
    }
    let w = (0..q.len())
        .map(|i| {
            if active[i] {
                // w_B = 0 by construction (exactly; an enclosure's width is not a sign)
                q[i].zero_like()
            } else {
                b.iter()
                    .fold(q[i].clone(), |acc, &j| acc + &a[i][j].mul_r(&z[j]))
            }
        })
        .collect();
    Ok((z, w))
}

/// Solves LCP(q, A) by Murty's least-index method; `A` should be a P-matrix (e.g.
/// symmetric positive definite). `Domain` if a principal submatrix is singular or the
/// pivot limit is reached; `Undecided` if an enclosure cannot decide a sign.
pub fn solve_lcp<S: Scalar>(a: &Matrix<S>, q: &[S]) -> Result<Lcp<S>, LinalgError> {
    let m = q.len();
    if m == 0 {
        return Ok(Lcp {
            z: Vec::new(),
            w: Vec::new(),
            active: Vec::new(),
            pivots: 0,
        });
    }
    let mut active = vec![false; m];
    for pivots in 0..MAX_PIVOTS {
        crate::budget::checkpoint();
        let (z, w) = complementary_point(a, q, &active)?;
        let mut violated = None;
        for i in 0..m {
            let x = if active[i] { &z[i] } else { &w[i] };
            if decide(x, "a complementarity multiplier")? == Sign::Negative {
                violated = Some(i);
                break;
            }
        }
        match violated {
            None => {
                return Ok(Lcp {
                    z,
                    w,
                    active,
                    pivots,
                })
            }
            Some(i) => active[i] = !active[i],
        }
    }
    Err(LinalgError::Domain(format!(
        "the complementarity problem needs more than {MAX_PIVOTS} pivots (not a P-matrix?)"
    )))
}

/// Every solution of LCP(q, A) among the 2^m complementary sets (m ≤ 16): for a P-matrix
/// exactly one. Sets whose principal submatrix is singular are skipped.
pub fn enumerate<S: Scalar>(a: &Matrix<S>, q: &[S]) -> Result<Vec<Lcp<S>>, LinalgError> {
    let m = q.len();
    if m > 16 {
        return Err(LinalgError::Domain(format!(
            "{m} contacts: enumeration is limited to 16"
        )));
    }
    let mut out = Vec::new();
    'sets: for mask in 0u32..(1 << m) {
        let active: Vec<bool> = (0..m).map(|i| mask & (1 << i) != 0).collect();
        let (z, w) = match complementary_point(a, q, &active) {
            Ok(p) => p,
            Err(LinalgError::Domain(_)) => continue,
            Err(e) => return Err(e),
        };
        for i in 0..m {
            let x = if active[i] { &z[i] } else { &w[i] };
            if decide(x, "a complementarity multiplier")? == Sign::Negative {
                continue 'sets;
            }
        }
        out.push(Lcp {
            z,
            w,
            active,
            pivots: 0,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Rational;

    fn r(n: i64, d: i64) -> Rational {
        Rational::new(n, d)
    }

    #[test]
    fn newton_cradle_lcp() {
        // G of the equal-mass 3-ball cradle, q = (1 + e)γ⁻ with e = 1, γ⁻ = (−1, 0):
        // Λ = (4/3, 2/3) (Winandy–Leine Sect. 1; velocities (−1/3, 2/3, 2/3))
        let g = vec![vec![r(2, 1), r(-1, 1)], vec![r(-1, 1), r(2, 1)]];
        let q = vec![r(-2, 1), r(0, 1)];
        let s = solve_lcp(&g, &q).unwrap();
        assert_eq!(s.z, vec![r(4, 3), r(2, 3)]);
        assert_eq!(s.w, vec![r(0, 1), r(0, 1)]);
        assert_eq!(enumerate(&g, &q).unwrap(), vec![Lcp { pivots: 0, ..s }]);
    }

    #[test]
    fn released_contact() {
        // q = (−1, 3): only the first contact is pushed, Λ = (1/2, 0), w₂ = 3 − 1/2
        let g = vec![vec![r(2, 1), r(-1, 1)], vec![r(-1, 1), r(2, 1)]];
        let s = solve_lcp(&g, &[r(-1, 1), r(3, 1)]).unwrap();
        assert_eq!(s.z, vec![r(1, 2), r(0, 1)]);
        assert_eq!(s.w, vec![r(0, 1), r(5, 2)]);
        assert_eq!(s.active, vec![true, false]);
    }

    #[test]
    fn murty_agrees_with_enumeration() {
        // a 4×4 positive definite (diagonally dominant) matrix, every sign pattern of q
        let a: Matrix<Rational> = (0..4)
            .map(|i| {
                (0..4)
                    .map(|j| match (i as i64 - j as i64).abs() {
                        0 => r(7, 2),
                        1 => r(-1, 1),
                        _ => r(1, 3),
                    })
                    .collect()
            })
            .collect();
        for mask in 0..81 {
            let q: Vec<Rational> = (0..4)
                .map(|k| r((mask / 3i64.pow(k)) % 3 - 1, 1 + k as i64))
                .collect();
            let s = solve_lcp(&a, &q).unwrap();
            // degenerate q (zeros) admit several active sets for the one solution
            let all = enumerate(&a, &q).unwrap();
            assert!(!all.is_empty());
            for e in &all {
                assert_eq!((&e.z, &e.w), (&s.z, &s.w), "q = {q:?}");
            }
        }
    }
}
