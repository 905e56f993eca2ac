//! Rigorous intervals at 53 bits through `inari` (IEEE 1788 set-based interval arithmetic,
//! elementary functions correctly rounded outward).
//!
//! Every result contains the true value. Division by an interval containing 0 and the
//! square root of an interval that reaches below 0 are errors, so no result is ever empty
//! or silently truncated.

use super::decimal::float_to_decimal;
use super::rational::rational_f64_bounds;
use super::{impl_ops_via_ref, ArithError, Kind, Rendered, Scalar, Sign};
use num_rational::BigRational;
use rug::float::Round;
use std::fmt;

/// An `inari` interval `[lo, hi]` that contains the true value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval(pub inari::Interval);

impl Interval {
    /// `[lo, hi]`; an error if `lo > hi` or either is NaN.
    pub fn new(lo: f64, hi: f64) -> Result<Self, ArithError> {
        inari::Interval::try_from((lo, hi))
            .map(Interval)
            .map_err(|_| ArithError::Domain(format!("invalid interval [{lo}, {hi}]")))
    }
    /// Lower bound.
    pub fn lo(&self) -> f64 {
        self.0.inf()
    }
    /// Upper bound.
    pub fn hi(&self) -> f64 {
        self.0.sup()
    }
    /// Width `hi - lo`, rounded up.
    pub fn width(&self) -> f64 {
        self.0.wid()
    }
}

fn add(a: &Interval, b: &Interval) -> Interval {
    Interval(a.0 + b.0)
}
fn sub(a: &Interval, b: &Interval) -> Interval {
    Interval(a.0 - b.0)
}
fn mul(a: &Interval, b: &Interval) -> Interval {
    Interval(a.0 * b.0)
}
fn neg(a: &Interval) -> Interval {
    Interval(-a.0)
}
impl_ops_via_ref!(Interval, add, sub, mul, neg);

/// A decimal string that bounds `x` from below (`Round::Down`) or above (`Round::Up`).
fn bound_decimal(x: f64, round: Round) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    float_to_decimal(&rug::Float::with_val(53, x), 19, round)
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "[{}, {}]",
            bound_decimal(self.lo(), Round::Down),
            bound_decimal(self.hi(), Round::Up)
        )
    }
}

fn bounded(x: inari::Interval, op: &str) -> Result<Interval, ArithError> {
    if x.is_common_interval() {
        Ok(Interval(x))
    } else {
        Err(ArithError::Unbounded { op: op.into() })
    }
}

impl Scalar for Interval {
    type Ctx = ();
    const NAME: &'static str = "interval";

    fn kind() -> Kind {
        Kind::Enclosure
    }
    fn hull_with(&self, other: &Self) -> Option<Self> {
        Some(Interval(self.0.convex_hull(other.0)))
    }
    fn from_rational(q: &BigRational, _ctx: &()) -> Self {
        let (lo, hi) = rational_f64_bounds(q);
        Interval(inari::Interval::try_from((lo, hi)).unwrap_or(inari::Interval::ENTIRE))
    }
    fn from_i64(n: i64, _ctx: &()) -> Self {
        let x = n as f64;
        if x.abs() < 9.0e15 {
            Interval(inari::Interval::try_from((x, x)).expect("finite point"))
        } else {
            Self::from_rational(&BigRational::from_integer(n.into()), &())
        }
    }
    fn ctx(&self) {}
    fn checked_div(&self, rhs: &Self) -> Result<Self, ArithError> {
        match rhs.sign() {
            Sign::Zero => Err(ArithError::DivisionByZero),
            Sign::Unknown => Err(ArithError::DivisionByStraddling {
                lo: bound_decimal(rhs.lo(), Round::Down),
                hi: bound_decimal(rhs.hi(), Round::Up),
            }),
            _ => Ok(Interval(self.0 / rhs.0)),
        }
    }
    fn sign(&self) -> Sign {
        let (lo, hi) = (self.lo(), self.hi());
        if lo > 0.0 {
            Sign::Positive
        } else if hi < 0.0 {
            Sign::Negative
        } else if lo == 0.0 && hi == 0.0 {
            Sign::Zero
        } else {
            Sign::Unknown
        }
    }
    fn sqrt(&self) -> Result<Self, ArithError> {
        match self.sign() {
            Sign::Negative => Err(ArithError::Domain(format!(
                "square root of a negative number: {self}"
            ))),
            Sign::Unknown if self.lo() < 0.0 => Err(ArithError::Domain(format!(
                "square root of an enclosure that straddles 0: {self}"
            ))),
            _ => Ok(Interval(self.0.sqrt())),
        }
    }
    fn to_f64(&self) -> f64 {
        self.0.mid()
    }
    fn enclosure(&self) -> Option<(f64, f64)> {
        Some((self.lo(), self.hi()))
    }
    fn rational_bounds(&self) -> Option<(BigRational, BigRational)> {
        Some((
            BigRational::from_float(self.lo())?,
            BigRational::from_float(self.hi())?,
        ))
    }
    fn render(&self) -> Rendered {
        Rendered {
            value: super::float::format_f64(self.0.mid()),
            bounds: Some((
                bound_decimal(self.lo(), Round::Down),
                bound_decimal(self.hi(), Round::Up),
            )),
        }
    }
    fn num(&self) -> super::Num {
        super::Num::Enclosure {
            lo: rug::Float::with_val(53, self.lo()),
            hi: rug::Float::with_val(53, self.hi()),
        }
    }
    fn pi(_ctx: &()) -> Result<Self, ArithError> {
        Ok(Interval(inari::Interval::PI))
    }
    fn sin(&self) -> Result<Self, ArithError> {
        bounded(self.0.sin(), "sin")
    }
    fn cos(&self) -> Result<Self, ArithError> {
        bounded(self.0.cos(), "cos")
    }
    fn tan(&self) -> Result<Self, ArithError> {
        bounded(self.0.tan(), "tan")
    }
    fn atan(&self) -> Result<Self, ArithError> {
        bounded(self.0.atan(), "atan")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn encloses_rationals() {
        let x = Interval::from_rational(&q(1, 10), &());
        assert!(x.lo() < 0.1 || x.hi() > 0.1);
        let (lo, hi) = x.rational_bounds().unwrap();
        assert!(lo < q(1, 10) && q(1, 10) < hi);
        assert_eq!(Interval::from_rational(&q(3, 4), &()).width(), 0.0);
    }

    #[test]
    fn signs_and_division() {
        let a = Interval::new(-1.0, 2.0).unwrap();
        assert_eq!(a.sign(), Sign::Unknown);
        assert!(matches!(
            a.one_like().checked_div(&a),
            Err(ArithError::DivisionByStraddling { .. })
        ));
        let z = Interval::new(0.0, 0.0).unwrap();
        assert_eq!(z.sign(), Sign::Zero);
        assert_eq!(a.checked_div(&z), Err(ArithError::DivisionByZero));
        assert_eq!(Interval::new(0.0, 1.0).unwrap().sign(), Sign::Unknown);
        assert!(matches!(a.sqrt(), Err(ArithError::Domain(_))));
    }

    #[test]
    fn transcendental_enclosures() {
        let pi = Interval::pi(&()).unwrap();
        let six = pi.lift_i64(6);
        let t = pi.checked_div(&six).unwrap().tan().unwrap();
        let r3 = 3f64.sqrt() / 3.0;
        assert!(t.lo() <= r3 && r3 <= t.hi());
        assert!(t.width() < 1e-15);
        let half_pi = pi.checked_div(&pi.lift_i64(2)).unwrap();
        assert!(matches!(half_pi.tan(), Err(ArithError::Unbounded { .. })));
    }
}
