//! The exact rational backend (num-rational `BigRational`).
//!
//! Decimal input is exact (`0.9` = 9/10). Nothing is ever rounded: a square root that is
//! not rational, π and the trigonometric functions are `NotRepresentable` (except where
//! the input language can prove a value rational, see [`crate::expr`]).

use super::{
    impl_ops_via_ref, not_representable, rat_to_rug, ArithError, Kind, Rendered, Scalar, Sign,
};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use rug::float::Round;
use std::fmt;

/// An exact rational number.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rational(pub BigRational);

impl Rational {
    /// The underlying `BigRational`.
    pub fn value(&self) -> &BigRational {
        &self.0
    }
    /// `n / d`; `d` must be nonzero (callers with user input use `checked_div`).
    pub fn new(n: i64, d: i64) -> Self {
        Rational(BigRational::new(n.into(), d.into()))
    }
}

impl fmt::Display for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Exact square root of a non-negative integer, if it is a perfect square.
pub(crate) fn exact_isqrt(n: &BigInt) -> Option<BigInt> {
    if n.is_negative() {
        return None;
    }
    let r = n.sqrt();
    (&r * &r == *n).then_some(r)
}

/// Rigorous outward `f64` bounds of an exact rational (through MPFR's directed rounding).
pub(crate) fn rational_f64_bounds(q: &BigRational) -> (f64, f64) {
    let r = rat_to_rug(q);
    let lo = rug::Float::with_val_round(53, &r, Round::Down).0;
    let hi = rug::Float::with_val_round(53, &r, Round::Up).0;
    (lo.to_f64_round(Round::Down), hi.to_f64_round(Round::Up))
}

fn add(a: &Rational, b: &Rational) -> Rational {
    Rational(&a.0 + &b.0)
}
fn sub(a: &Rational, b: &Rational) -> Rational {
    Rational(&a.0 - &b.0)
}
fn mul(a: &Rational, b: &Rational) -> Rational {
    Rational(&a.0 * &b.0)
}
fn neg(a: &Rational) -> Rational {
    Rational(-&a.0)
}
impl_ops_via_ref!(Rational, add, sub, mul, neg);

impl Scalar for Rational {
    type Ctx = ();
    const NAME: &'static str = "exact";

    fn kind() -> Kind {
        Kind::Exact
    }
    fn from_rational(q: &BigRational, _ctx: &()) -> Self {
        Rational(q.clone())
    }
    fn from_i64(n: i64, _ctx: &()) -> Self {
        Rational(BigRational::from_integer(n.into()))
    }
    fn ctx(&self) {}
    fn checked_div(&self, rhs: &Self) -> Result<Self, ArithError> {
        if rhs.0.is_zero() {
            return Err(ArithError::DivisionByZero);
        }
        Ok(Rational(&self.0 / &rhs.0))
    }
    fn sign(&self) -> Sign {
        if self.0.is_positive() {
            Sign::Positive
        } else if self.0.is_negative() {
            Sign::Negative
        } else {
            Sign::Zero
        }
    }
    fn sqrt(&self) -> Result<Self, ArithError> {
        if self.0.is_negative() {
            return Err(ArithError::Domain(format!(
                "square root of a negative number: {}",
                self.0
            )));
        }
        match (exact_isqrt(self.0.numer()), exact_isqrt(self.0.denom())) {
            (Some(n), Some(d)) => Ok(Rational(BigRational::new(n, d))),
            _ => Err(ArithError::NotRepresentable {
                what: format!("sqrt({}), which is irrational,", self.0),
                backend: Self::NAME,
                hint: "use --arith quadratic for one square root, or an enclosure backend: --arith interval or --arith mpi:BITS".into(),
            }),
        }
    }
    fn to_f64(&self) -> f64 {
        super::float::rational_to_f64(&self.0)
    }
    fn enclosure(&self) -> Option<(f64, f64)> {
        Some(rational_f64_bounds(&self.0))
    }
    fn rational_bounds(&self) -> Option<(BigRational, BigRational)> {
        Some((self.0.clone(), self.0.clone()))
    }
    fn render(&self) -> Rendered {
        let v = self.0.to_string();
        Rendered {
            value: v.clone(),
            bounds: Some((v.clone(), v)),
        }
    }
    fn pi(_ctx: &()) -> Result<Self, ArithError> {
        Err(not_representable("pi", Self::NAME))
    }
    fn sin(&self) -> Result<Self, ArithError> {
        Err(not_representable(&format!("sin({})", self.0), Self::NAME))
    }
    fn cos(&self) -> Result<Self, ArithError> {
        Err(not_representable(&format!("cos({})", self.0), Self::NAME))
    }
    fn tan(&self) -> Result<Self, ArithError> {
        Err(not_representable(&format!("tan({})", self.0), Self::NAME))
    }
    fn atan(&self) -> Result<Self, ArithError> {
        Err(not_representable(&format!("atan({})", self.0), Self::NAME))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_arithmetic() {
        let a = Rational::new(3, 7) + Rational::new(1, 10);
        assert_eq!(a, Rational::new(37, 70));
        assert_eq!(a.to_string(), "37/70");
        assert_eq!(
            Rational::new(1, 3).checked_div(&Rational::new(0, 1)),
            Err(ArithError::DivisionByZero)
        );
        assert_eq!(Rational::new(-2, 4).sign(), Sign::Negative);
        assert_eq!(Rational::new(0, 4).sign(), Sign::Zero);
    }

    #[test]
    fn sqrt_only_when_rational() {
        assert_eq!(Rational::new(9, 4).sqrt(), Ok(Rational::new(3, 2)));
        let e = Rational::new(2, 1).sqrt().unwrap_err();
        assert!(e.to_string().contains("sqrt(2)"), "{e}");
        assert!(e.to_string().contains("exact backend"), "{e}");
        assert!(matches!(
            Rational::new(-4, 1).sqrt(),
            Err(ArithError::Domain(_))
        ));
    }

    #[test]
    fn enclosure_is_outward() {
        let (lo, hi) = Rational::new(1, 10).enclosure().unwrap();
        assert!(lo < hi);
        assert_eq!(hi, 0.1); // 0.1f64 is above 1/10
        let (lo, hi) = Rational::new(1, 4).enclosure().unwrap();
        assert_eq!((lo, hi), (0.25, 0.25));
    }

    #[test]
    fn powi() {
        assert_eq!(Rational::new(2, 3).powi(3), Ok(Rational::new(8, 27)));
        assert_eq!(Rational::new(2, 3).powi(-2), Ok(Rational::new(9, 4)));
        assert_eq!(
            Rational::new(0, 1).powi(-1),
            Err(ArithError::DivisionByZero)
        );
    }
}
