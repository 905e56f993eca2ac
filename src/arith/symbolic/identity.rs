//! Identity checks between two expressions with variables, under substitutions: the
//! `identity` claims of issue 7 (e.g. Fassino–Pasquero (2020), "(13) and (14) agree"
//! after the change of coordinates (7)).

use super::Symbolic;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

/// Outcome of an identity check.
#[derive(Clone, Debug, PartialEq)]
pub enum IdentityOutcome {
    /// The two sides agree as rational functions.
    Identical,
    /// They differ; `witness` is an exact rational point where both sides are defined and
    /// differ, `lhs` and `rhs` the values there.
    Different {
        witness: Vec<(String, BigRational)>,
        lhs: BigRational,
        rhs: BigRational,
    },
    /// A side is undefined after a substitution (a denominator became identically 0), or
    /// no rational witness was found within the search budget although the sides differ.
    Undefined(String),
}

/// Grid points tried per witness search before the pseudo-random phase.
const GRID_BUDGET: usize = 20_000;
/// Pseudo-random points tried after the grid (Schwartz–Zippel: a nonzero polynomial of
/// degree d vanishes at a random point of S^n with probability at most d/|S|).
const RANDOM_BUDGET: usize = 2_000;
/// Size of the candidate set the pseudo-random points are drawn from.
const RANDOM_POOL: usize = 2_000;

/// `a` and `b` agree as rational functions after applying the substitutions in order
/// (each replaces a variable by a value, e.g. `c` by (1-t²)/(1+t²) and `s` by 2t/(1+t²)
/// for c²+s²=1; the middle string is the substitution as written, for messages).
/// When they differ, `witness` is an exact rational point (small integers/fractions tried
/// in order) where both sides are defined and differ, with both values. The parsing
/// front end is `crate::lang::identical`.
pub fn identical_under(
    mut a: Symbolic,
    mut b: Symbolic,
    substitutions: &[(String, String, Symbolic)],
) -> IdentityOutcome {
    for (var, by, e) in substitutions {
        a = match a.substitute(var, e) {
            Ok(v) => v,
            Err(err) => return undefined("left", var, by, &err),
        };
        b = match b.substitute(var, e) {
            Ok(v) => v,
            Err(err) => return undefined("right", var, by, &err),
        };
    }
    compare(&a, &b)
}

fn undefined(side: &str, var: &str, by: &str, err: &crate::arith::ArithError) -> IdentityOutcome {
    IdentityOutcome::Undefined(format!(
        "the {side} side is undefined after substituting {var} = {by}: {err}"
    ))
}

/// [`IdentityOutcome`] of two rational functions.
pub fn compare(a: &Symbolic, b: &Symbolic) -> IdentityOutcome {
    if a.is_identical(b) {
        return IdentityOutcome::Identical;
    }
    let mut vars = a.variables();
    vars.extend(b.variables());
    vars.sort();
    vars.dedup();
    match find_witness(a, b, &vars).or_else(|| random_witness(a, b, &vars)) {
        Some((witness, lhs, rhs)) => IdentityOutcome::Different { witness, lhs, rhs },
        None => IdentityOutcome::Undefined(format!(
            "the two sides differ as rational functions, but none of the {} rational points tried separates them",
            GRID_BUDGET + RANDOM_BUDGET
        )),
    }
}

/// The small rationals tried in order: 0, 1, −1, 2, −2, 1/2, −1/2, 3, −3, 1/3, −1/3, 3/2, …
/// (by increasing height max(|p|, q)).
pub fn candidates(limit: usize) -> Vec<BigRational> {
    let r = |p: i64, q: i64| BigRational::new(BigInt::from(p), BigInt::from(q));
    let mut out = vec![BigRational::zero()];
    let mut h: i64 = 1;
    while out.len() < limit {
        out.extend([r(h, 1), r(-h, 1)]);
        for p in (1..h).filter(|&p| num_integer::gcd(p, h) == 1) {
            out.extend([r(p, h), r(-p, h)]);
        }
        for q in (2..h).filter(|&q| num_integer::gcd(h, q) == 1) {
            out.extend([r(h, q), r(-h, q)]);
        }
        h += 1;
    }
    out.truncate(limit);
    out
}

/// A point with the values of both sides there.
type Witness = (Vec<(String, BigRational)>, BigRational, BigRational);

/// A point where both sides are defined and differ: tuples of [`candidates`] by increasing
/// largest index, so that the smallest values come first.
fn find_witness(a: &Symbolic, b: &Symbolic, vars: &[String]) -> Option<Witness> {
    let n = vars.len().max(1);
    let per_axis = ((GRID_BUDGET as f64).powf(1.0 / n as f64) as usize).clamp(2, 400);
    let cands = candidates(per_axis);
    let mut tried = 0usize;
    for top in 0..cands.len() {
        let mut idx = vec![0usize; vars.len()];
        loop {
            if idx.contains(&top) || (vars.is_empty() && top == 0) {
                tried += 1;
                let point: Vec<(String, BigRational)> = vars
                    .iter()
                    .zip(&idx)
                    .map(|(v, &i)| (v.clone(), cands[i].clone()))
                    .collect();
                if let Some(w) = separates(a, b, point) {
                    return Some(w);
                }
                if tried >= GRID_BUDGET {
                    return None;
                }
            }
            if !next_index(&mut idx, top) {
                break;
            }
        }
    }
    None
}

/// The point with both values, if both sides are defined there and differ.
fn separates(a: &Symbolic, b: &Symbolic, point: Vec<(String, BigRational)>) -> Option<Witness> {
    match (a.eval_rational(&point), b.eval_rational(&point)) {
        (Ok(l), Ok(r)) if l != r => Some((point, l, r)),
        _ => None,
    }
}

/// Points drawn from the first [`RANDOM_POOL`] candidates by a fixed linear congruential
/// sequence (deterministic: the same inputs give the same witness).
fn random_witness(a: &Symbolic, b: &Symbolic, vars: &[String]) -> Option<Witness> {
    let pool = candidates(RANDOM_POOL);
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize % pool.len()
    };
    (0..RANDOM_BUDGET).find_map(|_| {
        let point = vars
            .iter()
            .map(|v| (v.clone(), pool[next()].clone()))
            .collect();
        separates(a, b, point)
    })
}

/// The next tuple in lexicographic order with entries ≤ `top`; `false` after the last.
fn next_index(idx: &mut [usize], top: usize) -> bool {
    for i in (0..idx.len()).rev() {
        if idx[i] < top {
            idx[i] += 1;
            return true;
        }
        idx[i] = 0;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_by_height() {
        let r = |p: i64, q: i64| BigRational::new(p.into(), q.into());
        let expected = [
            r(0, 1),
            r(1, 1),
            r(-1, 1),
            r(2, 1),
            r(-2, 1),
            r(1, 2),
            r(-1, 2),
            r(3, 1),
            r(-3, 1),
            r(1, 3),
            r(-1, 3),
            r(2, 3),
            r(-2, 3),
            r(3, 2),
            r(-3, 2),
            r(4, 1),
        ];
        assert_eq!(candidates(16), expected);
        let c = candidates(RANDOM_POOL);
        let mut sorted = c.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), RANDOM_POOL, "no duplicates");
    }

    #[test]
    fn random_phase_finds_a_witness_the_grid_misses() {
        // (x² − 1)·x vanishes on the whole grid {0, ±1}^n used for 10 variables
        let vars: Vec<String> = (0..10).map(|i| format!("v{i}")).collect();
        let v0 = Symbolic::var("v0");
        let one = Symbolic::constant(&BigRational::from_integer(1.into()));
        let a = vars.iter().fold((v0.clone() * &v0 - one) * &v0, |acc, v| {
            acc * &Symbolic::var(v)
        });
        let zero = Symbolic::constant(&BigRational::zero());
        assert_eq!(find_witness(&a, &zero, &vars), None);
        match compare(&a, &zero) {
            IdentityOutcome::Different { witness, lhs, rhs } => {
                assert_eq!(rhs, BigRational::zero());
                assert_eq!(a.eval_rational(&witness), Ok(lhs.clone()));
                assert!(!lhs.is_zero());
            }
            other => panic!("{other:?}"),
        }
    }
}
