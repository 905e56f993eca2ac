//! Forward-mode derivatives over any backend: a value and its gradient with respect to n
//! seed variables, both in the backend `S`. On an enclosure backend, evaluating a law on
//! `Dual<S>` whose values are boxes encloses the law's Jacobian over the whole box — what
//! the mean-value form and Lohner's method need to carry a set of states through many
//! steps without the wrapping effect (`system::penny_run`).
//!
//! Signs and branches are the value's: a law's `sign()` calls decide as they do on `S`,
//! except that an exact 0 with a nonzero gradient is an unknown sign (code that skips exact
//! zeros must not drop its derivative). An empty gradient stands for the zero gradient
//! (constants).

use super::{ArithError, Kind, Num, Rendered, Scalar, Sign};
use num_rational::BigRational;
use std::fmt;

/// A value with its gradient.
#[derive(Clone, Debug)]
pub struct Dual<S> {
    pub value: S,
    /// ∂value/∂z_i; empty: all zero.
    pub grad: Vec<S>,
}

impl<S: Scalar> Dual<S> {
    /// A constant (zero gradient).
    pub fn constant(value: S) -> Self {
        Dual {
            value,
            grad: Vec::new(),
        }
    }

    /// The seed variable z_i of n.
    pub fn var(value: S, i: usize, n: usize) -> Self {
        let grad = (0..n).map(|j| value.lift_i64(i64::from(i == j))).collect();
        Dual { value, grad }
    }

    /// The gradient with n components (zeros for a constant).
    pub fn gradient(&self, n: usize) -> Vec<S> {
        if self.grad.is_empty() {
            vec![self.value.zero_like(); n]
        } else {
            self.grad.clone()
        }
    }

    /// c·grad.
    fn scaled(&self, c: &S) -> Vec<S> {
        self.grad.iter().map(|g| g.mul_r(c)).collect()
    }

    fn with(value: S, grad: Vec<S>) -> Self {
        Dual { value, grad }
    }
}

/// a·da + b·db componentwise, an empty side counting as zero.
fn combine<S: Scalar>(a: &[S], ca: Option<&S>, b: &[S], cb: Option<&S>) -> Vec<S> {
    let term = |g: &S, c: Option<&S>| match c {
        Some(c) => g.mul_r(c),
        None => g.clone(),
    };
    match (a.is_empty(), b.is_empty()) {
        (true, true) => Vec::new(),
        (false, true) => a.iter().map(|g| term(g, ca)).collect(),
        (true, false) => b.iter().map(|g| term(g, cb)).collect(),
        (false, false) => a
            .iter()
            .zip(b)
            .map(|(x, y)| term(x, ca) + &term(y, cb))
            .collect(),
    }
}

fn add<S: Scalar>(a: &Dual<S>, b: &Dual<S>) -> Dual<S> {
    Dual::with(
        a.value.add_r(&b.value),
        combine(&a.grad, None, &b.grad, None),
    )
}

fn sub<S: Scalar>(a: &Dual<S>, b: &Dual<S>) -> Dual<S> {
    let minus = a.value.lift_i64(-1);
    Dual::with(
        a.value.sub_r(&b.value),
        combine(&a.grad, None, &b.grad, Some(&minus)),
    )
}

fn mul<S: Scalar>(a: &Dual<S>, b: &Dual<S>) -> Dual<S> {
    Dual::with(
        a.value.mul_r(&b.value),
        combine(&a.grad, Some(&b.value), &b.grad, Some(&a.value)),
    )
}

fn neg<S: Scalar>(a: &Dual<S>) -> Dual<S> {
    Dual::with(
        -a.value.clone(),
        a.grad.iter().map(|g| -g.clone()).collect(),
    )
}

macro_rules! dual_ops {
    ($($tr:ident $f:ident $imp:ident),*) => {$(
        impl<S: Scalar> std::ops::$tr for Dual<S> {
            type Output = Dual<S>;
            fn $f(self, rhs: Dual<S>) -> Dual<S> {
                $imp(&self, &rhs)
            }
        }
        impl<'a, S: Scalar> std::ops::$tr<&'a Dual<S>> for Dual<S> {
            type Output = Dual<S>;
            fn $f(self, rhs: &'a Dual<S>) -> Dual<S> {
                $imp(&self, rhs)
            }
        }
    )*};
}
dual_ops!(Add add add, Sub sub sub, Mul mul mul);

impl<S: Scalar> std::ops::Neg for Dual<S> {
    type Output = Dual<S>;
    fn neg(self) -> Dual<S> {
        neg(&self)
    }
}

impl<S: Scalar> fmt::Display for Dual<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value)
    }
}

impl<S: Scalar> Scalar for Dual<S> {
    type Ctx = S::Ctx;
    const NAME: &'static str = "dual";

    fn kind() -> Kind {
        S::kind()
    }
    fn from_rational(q: &BigRational, ctx: &S::Ctx) -> Self {
        Dual::constant(S::from_rational(q, ctx))
    }
    fn from_i64(n: i64, ctx: &S::Ctx) -> Self {
        Dual::constant(S::from_i64(n, ctx))
    }
    fn ctx(&self) -> S::Ctx {
        self.value.ctx()
    }
    fn checked_div(&self, rhs: &Self) -> Result<Self, ArithError> {
        let q = self.value.checked_div(&rhs.value)?;
        // (da − q·db)/b
        let minus_q = -q.clone();
        let num = combine(&self.grad, None, &rhs.grad, Some(&minus_q));
        let grad = num
            .iter()
            .map(|g| g.checked_div(&rhs.value))
            .collect::<Result<_, _>>()?;
        Ok(Dual::with(q, grad))
    }
    /// The value's sign; a value that is exactly 0 while its gradient is not counts as
    /// unknown, so that no code skips it as an exact zero (its derivative matters).
    fn sign(&self) -> Sign {
        match self.value.sign() {
            Sign::Zero if self.grad.iter().any(|g| g.sign() != Sign::Zero) => Sign::Unknown,
            s => s,
        }
    }
    fn sqrt(&self) -> Result<Self, ArithError> {
        let s = self.value.sqrt()?;
        if self.grad.is_empty() {
            return Ok(Dual::constant(s));
        }
        let two_s = s.lift_i64(2).mul_r(&s);
        let grad = self
            .grad
            .iter()
            .map(|g| g.checked_div(&two_s))
            .collect::<Result<_, _>>()?;
        Ok(Dual::with(s, grad))
    }
    /// r = x^(1/k), dr = r/(k·x) dx.
    fn root(&self, k: u32) -> Result<Self, ArithError> {
        let r = self.value.root(k)?;
        if self.grad.is_empty() {
            return Ok(Dual::constant(r));
        }
        let kx = self.value.lift_i64(i64::from(k)).mul_r(&self.value);
        let factor = r.checked_div(&kx)?;
        let grad = self.grad.iter().map(|g| g.mul_r(&factor)).collect();
        Ok(Dual::with(r, grad))
    }
    fn to_f64(&self) -> f64 {
        self.value.to_f64()
    }
    fn enclosure(&self) -> Option<(f64, f64)> {
        self.value.enclosure()
    }
    fn rational_bounds(&self) -> Option<(BigRational, BigRational)> {
        self.value.rational_bounds()
    }
    fn render(&self) -> Rendered {
        self.value.render()
    }
    fn num(&self) -> Num {
        self.value.num()
    }
    fn compatible(&self, other: &Self) -> Result<(), ArithError> {
        self.value.compatible(&other.value)
    }
    fn pi(ctx: &S::Ctx) -> Result<Self, ArithError> {
        Ok(Dual::constant(S::pi(ctx)?))
    }
    fn sin(&self) -> Result<Self, ArithError> {
        let c = self.value.cos()?;
        Ok(Dual::with(self.value.sin()?, self.scaled(&c)))
    }
    fn cos(&self) -> Result<Self, ArithError> {
        let s = -self.value.sin()?;
        Ok(Dual::with(self.value.cos()?, self.scaled(&s)))
    }
    fn tan(&self) -> Result<Self, ArithError> {
        let t = self.value.tan()?;
        let d = t.one_like() + &t.square();
        Ok(Dual::with(t, self.scaled(&d)))
    }
    fn atan(&self) -> Result<Self, ArithError> {
        let d = (self.value.one_like() + &self.value.square()).recip()?;
        Ok(Dual::with(self.value.atan()?, self.scaled(&d)))
    }
    fn hull_with(&self, other: &Self) -> Option<Self> {
        let value = self.value.hull_with(&other.value)?;
        let n = self.grad.len().max(other.grad.len());
        if n == 0 {
            return Some(Dual::constant(value));
        }
        let grad = self
            .gradient(n)
            .iter()
            .zip(other.gradient(n))
            .map(|(a, b)| a.hull_with(&b))
            .collect::<Option<_>>()?;
        Some(Dual::with(value, grad))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Rational;

    #[test]
    fn derivatives_of_a_rational_function() {
        // f(x, y) = x²y/(1 + y) at (2, 3): ∂x = 2xy/(1+y) = 3, ∂y = x²/(1+y)² = 1/4
        let x = Dual::var(Rational::new(2, 1), 0, 2);
        let y = Dual::var(Rational::new(3, 1), 1, 2);
        let f = (x.clone() * &x * &y)
            .checked_div(&(y.one_like() + &y))
            .unwrap();
        assert_eq!(f.value, Rational::new(3, 1));
        assert_eq!(f.grad, vec![Rational::new(3, 1), Rational::new(1, 4)]);
        let r = (x.clone() * &x).sqrt().unwrap(); // |x|: derivative 1
        assert_eq!(r.grad, vec![Rational::new(1, 1), Rational::new(0, 1)]);
    }

    #[test]
    fn trigonometric_derivatives_enclose() {
        use crate::arith::MpInterval;
        let x = Dual::var(MpInterval::from_i64(1, &128), 0, 1);
        let s = x.sin().unwrap();
        let c = 1f64.cos();
        let (lo, hi) = s.grad[0].enclosure().unwrap();
        assert!(lo <= c && c <= hi && hi - lo < 1e-15);
        let a = x.atan().unwrap(); // 1/(1 + 1) = 1/2
        let (lo, hi) = a.grad[0].enclosure().unwrap();
        assert!(lo <= 0.5 && 0.5 <= hi);
    }
}
