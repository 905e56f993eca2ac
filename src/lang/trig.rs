//! Exact values of `sin`, `cos`, `tan` at rational multiples of π, where they are
//! rational or quadratic: the table behind the exact-π shadow of the evaluator.

use super::ast::Func;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// An exact value `a + b√d` from the trigonometric table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuadValue {
    pub a: BigRational,
    pub b: BigRational,
    pub d: u32,
}

/// Result of looking up a trigonometric function of a rational multiple of π.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrigExact {
    /// The exact value `a + b√d` (`d = 1`, `b = 0` for rational values).
    Value(QuadValue),
    /// `tan` at an odd multiple of π/2.
    Pole,
    /// The value is algebraic of degree > 2.
    NotQuadratic,
}

fn r(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn qv(a: BigRational, b: BigRational, d: u32) -> TrigExact {
    TrigExact::Value(QuadValue { a, b, d })
}

/// `x − floor(x / m)·m`, in `[0, m)`.
fn reduce_mod(x: &BigRational, m: &BigRational) -> BigRational {
    x - (x / m).floor() * m
}

/// Exact `cos(qπ)`, `sin(qπ)`, `tan(qπ)` where they are rational or quadratic.
///
/// `cos(2π/n)` has degree φ(n)/2 over Q, so it is rational or quadratic exactly for
/// n ∈ {1, 2, 3, 4, 5, 6, 8, 10, 12}; after the symmetries cos(−x) = cos x,
/// cos(π − x) = −cos x the table below is complete. `tan` is quadratic exactly at the
/// multiples of π/12 and π/8 that are not poles.
pub fn trig_of_pi_multiple(f: Func, q: &BigRational) -> TrigExact {
    match f {
        Func::Cos => cos_table(q),
        Func::Sin => cos_table(&(r(1, 2) - q)),
        Func::Tan => tan_table(q),
        _ => TrigExact::NotQuadratic,
    }
}

fn cos_table(q: &BigRational) -> TrigExact {
    let mut t = reduce_mod(q, &r(2, 1));
    if t > BigRational::one() {
        t = r(2, 1) - t;
    }
    let mut sign = BigRational::one();
    if t > r(1, 2) {
        t = BigRational::one() - t;
        sign = -sign;
    }
    let z = BigRational::zero;
    let v = if t.is_zero() {
        qv(BigRational::one(), z(), 1)
    } else if t == r(1, 6) {
        qv(z(), r(1, 2), 3)
    } else if t == r(1, 4) {
        qv(z(), r(1, 2), 2)
    } else if t == r(1, 3) {
        qv(r(1, 2), z(), 1)
    } else if t == r(1, 2) {
        qv(z(), z(), 1)
    } else if t == r(1, 5) {
        qv(r(1, 4), r(1, 4), 5)
    } else if t == r(2, 5) {
        qv(r(-1, 4), r(1, 4), 5)
    } else {
        return TrigExact::NotQuadratic;
    };
    scale(v, &sign)
}

pub(super) fn tan_table(q: &BigRational) -> TrigExact {
    let mut t = reduce_mod(q, &BigRational::one());
    if t == r(1, 2) {
        return TrigExact::Pole;
    }
    let mut sign = BigRational::one();
    if t > r(1, 2) {
        t = BigRational::one() - t;
        sign = -sign;
    }
    let z = BigRational::zero;
    let v = if t.is_zero() {
        qv(z(), z(), 1)
    } else if t == r(1, 12) {
        qv(r(2, 1), r(-1, 1), 3)
    } else if t == r(1, 8) {
        qv(r(-1, 1), r(1, 1), 2)
    } else if t == r(1, 6) {
        qv(z(), r(1, 3), 3)
    } else if t == r(1, 4) {
        qv(r(1, 1), z(), 1)
    } else if t == r(1, 3) {
        qv(z(), r(1, 1), 3)
    } else if t == r(3, 8) {
        qv(r(1, 1), r(1, 1), 2)
    } else if t == r(5, 12) {
        qv(r(2, 1), r(1, 1), 3)
    } else {
        return TrigExact::NotQuadratic;
    };
    scale(v, &sign)
}

fn scale(v: TrigExact, s: &BigRational) -> TrigExact {
    match v {
        TrigExact::Value(QuadValue { a, b, d }) => qv(a * s, b * s, d),
        other => other,
    }
}

/// Multiples `qπ` in (−π/2, π/2) whose tangent is in the table (for exact `atan`).
pub(super) fn atan_candidates() -> Vec<BigRational> {
    let base = [(1, 12), (1, 8), (1, 6), (1, 4), (1, 3), (3, 8), (5, 12)];
    let mut out = vec![BigRational::zero()];
    for (n, d) in base {
        out.push(r(n, d));
        out.push(r(-n, d));
    }
    out
}
