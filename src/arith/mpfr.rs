//! MPFR floating point at a chosen precision (`rug::Float`, round to nearest).
//!
//! Not rigorous: each operation is correctly rounded to the precision, but errors
//! accumulate. For guaranteed bounds use [`super::MpInterval`] at the same precision; a
//! result of this backend always lies inside that enclosure (rounding is monotone), which
//! the property tests check.

use super::decimal::{decimal_digits, float_to_decimal};
use super::{impl_ops_via_ref, rat_to_rug, ArithError, Kind, Rendered, Scalar, Sign};
use num_rational::BigRational;
use rug::float::{Constant, Round};
use rug::Float;
use std::cmp::Ordering;
use std::fmt;

/// An MPFR float; its precision travels with the value.
#[derive(Clone, Debug, PartialEq)]
pub struct Mpfr(pub Float);

impl Mpfr {
    /// The precision in bits.
    pub fn prec(&self) -> u32 {
        self.0.prec()
    }
    /// Decimal digits that show the precision in full.
    pub fn digits(&self) -> usize {
        decimal_digits(self.prec())
    }
}

fn p2(a: &Mpfr, b: &Mpfr) -> u32 {
    a.prec().max(b.prec())
}
fn add(a: &Mpfr, b: &Mpfr) -> Mpfr {
    Mpfr(Float::with_val(p2(a, b), &a.0 + &b.0))
}
fn sub(a: &Mpfr, b: &Mpfr) -> Mpfr {
    Mpfr(Float::with_val(p2(a, b), &a.0 - &b.0))
}
fn mul(a: &Mpfr, b: &Mpfr) -> Mpfr {
    Mpfr(Float::with_val(p2(a, b), &a.0 * &b.0))
}
fn neg(a: &Mpfr) -> Mpfr {
    Mpfr(Float::with_val(a.prec(), -&a.0))
}
impl_ops_via_ref!(Mpfr, add, sub, mul, neg);

impl fmt::Display for Mpfr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.render().value)
    }
}

fn finite(x: Float, op: &str) -> Result<Mpfr, ArithError> {
    if x.is_finite() {
        Ok(Mpfr(x))
    } else {
        Err(ArithError::Unbounded { op: op.into() })
    }
}

impl Scalar for Mpfr {
    type Ctx = u32;
    const NAME: &'static str = "mpfr";

    fn kind() -> Kind {
        Kind::Float
    }
    fn from_rational(q: &BigRational, prec: &u32) -> Self {
        Mpfr(Float::with_val(*prec, &rat_to_rug(q)))
    }
    fn from_i64(n: i64, prec: &u32) -> Self {
        Mpfr(Float::with_val(*prec, n))
    }
    fn ctx(&self) -> u32 {
        self.prec()
    }
    fn work_digits(&self) -> u64 {
        (f64::from(self.prec()) * std::f64::consts::LOG10_2).ceil() as u64
    }
    fn checked_div(&self, rhs: &Self) -> Result<Self, ArithError> {
        if rhs.0.is_zero() {
            return Err(ArithError::DivisionByZero);
        }
        finite(Float::with_val(p2(self, rhs), &self.0 / &rhs.0), "division")
    }
    fn sign(&self) -> Sign {
        match self.0.cmp0() {
            Some(Ordering::Less) => Sign::Negative,
            Some(Ordering::Equal) => Sign::Zero,
            Some(Ordering::Greater) => Sign::Positive,
            None => Sign::Unknown,
        }
    }
    fn sqrt(&self) -> Result<Self, ArithError> {
        if self.0.is_sign_negative() && !self.0.is_zero() {
            return Err(ArithError::Domain(format!(
                "square root of a negative number: {self}"
            )));
        }
        Ok(Mpfr(Float::with_val(self.prec(), self.0.sqrt_ref())))
    }
    /// MPFR's `rootn_ui`, correctly rounded.
    fn root(&self, k: u32) -> Result<Self, ArithError> {
        if k == 0 || (k.is_multiple_of(2) && self.0.is_sign_negative() && !self.0.is_zero()) {
            return super::root_by_square_roots(self, k);
        }
        Ok(Mpfr(Float::with_val(self.prec(), self.0.root_ref(k))))
    }
    fn to_f64(&self) -> f64 {
        self.0.to_f64()
    }
    fn enclosure(&self) -> Option<(f64, f64)> {
        None
    }
    fn rational_bounds(&self) -> Option<(BigRational, BigRational)> {
        None
    }
    fn render(&self) -> Rendered {
        Rendered {
            value: float_to_decimal(&self.0, self.digits(), Round::Nearest),
            bounds: None,
        }
    }
    fn num(&self) -> super::Num {
        super::Num::Approx(self.0.clone())
    }
    fn pi(prec: &u32) -> Result<Self, ArithError> {
        Ok(Mpfr(Float::with_val(*prec, Constant::Pi)))
    }
    fn sin(&self) -> Result<Self, ArithError> {
        Ok(Mpfr(Float::with_val(self.prec(), self.0.sin_ref())))
    }
    fn cos(&self) -> Result<Self, ArithError> {
        Ok(Mpfr(Float::with_val(self.prec(), self.0.cos_ref())))
    }
    fn tan(&self) -> Result<Self, ArithError> {
        finite(Float::with_val(self.prec(), self.0.tan_ref()), "tan")
    }
    fn atan(&self) -> Result<Self, ArithError> {
        Ok(Mpfr(Float::with_val(self.prec(), self.0.atan_ref())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn correctly_rounded_at_precision() {
        let third = Mpfr::from_rational(&BigRational::new(1.into(), 3.into()), &200);
        assert_eq!(third.prec(), 200);
        let exact = rug::Rational::from((1, 3));
        let err = Float::with_val(400, &third.0 - &exact).abs();
        // |fl(1/3) - 1/3| <= 2^-201 (half an ulp; 1/3 has exponent -1)
        assert!(err <= Float::with_val(10, Float::i_exp(1, -202)));
        assert!(err > 0);
    }

    #[test]
    fn mixed_precision_uses_the_larger() {
        let a = Mpfr::from_rational(&BigRational::from_integer(1.into()), &64);
        let b = Mpfr::from_rational(&BigRational::from_integer(2.into()), &300);
        assert_eq!((a + &b).prec(), 300);
    }

    #[test]
    fn errors() {
        let z = Mpfr::from_rational(&BigRational::from_integer(0.into()), &64);
        let one = z.one_like();
        assert_eq!(one.checked_div(&z), Err(ArithError::DivisionByZero));
        assert!(matches!((-one).sqrt(), Err(ArithError::Domain(_))));
    }

    #[test]
    fn render_digits() {
        let two = Mpfr::from_rational(&BigRational::from_integer(2.into()), &256);
        let r = two.sqrt().unwrap().render();
        assert!(
            r.value
                .starts_with("1.41421356237309504880168872420969807856967187537694807317667"),
            "{}",
            r.value
        );
        assert!(r.bounds.is_none());
    }
}
