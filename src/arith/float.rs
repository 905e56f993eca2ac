//! The `f64` backend: what simulators do. IEEE 754 binary64, round to nearest.
//!
//! Operations that would produce NaN or an infinity from finite input (0/0, x/0,
//! sqrt of a negative number) are errors instead.

use super::{ArithError, Kind, Rendered, Scalar, Sign};
use num_rational::BigRational;
use num_traits::ToPrimitive;

/// Nearest `f64` to an exact rational (correctly rounded through MPFR).
pub(crate) fn rational_to_f64(q: &BigRational) -> f64 {
    // n/d with |n|, d ≤ 2⁵³: both exact in f64, so the one rounding of the division is
    // the correctly rounded quotient (never subnormal: |n/d| ≥ 2⁻⁵³ or 0)
    use num_traits::ToPrimitive;
    const EXACT: u64 = 1 << 53;
    if let (Some(n), Some(d)) = (q.numer().to_i64(), q.denom().to_i64()) {
        if n.unsigned_abs() <= EXACT && d.unsigned_abs() <= EXACT {
            return n as f64 / d as f64;
        }
    }
    let r = super::rat_to_rug(q);
    rug::Float::with_val(53, &r).to_f64()
}

fn finite(x: f64, op: &str) -> Result<f64, ArithError> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(ArithError::Unbounded { op: op.to_string() })
    }
}

impl Scalar for f64 {
    type Ctx = ();
    const NAME: &'static str = "f64";

    fn kind() -> Kind {
        Kind::Float
    }
    fn from_rational(q: &BigRational, _ctx: &()) -> Self {
        rational_to_f64(q)
    }
    fn from_i64(n: i64, _ctx: &()) -> Self {
        n as f64 // correctly rounded
    }
    fn ctx(&self) {}
    fn halve(&self) -> Self {
        // ½ lifts to 0.5 exactly (`rational_to_f64`)
        self * 0.5
    }
    fn checked_div(&self, rhs: &Self) -> Result<Self, ArithError> {
        if *rhs == 0.0 {
            return Err(ArithError::DivisionByZero);
        }
        finite(self / rhs, "division")
    }
    fn sign(&self) -> Sign {
        if *self > 0.0 {
            Sign::Positive
        } else if *self < 0.0 {
            Sign::Negative
        } else if *self == 0.0 {
            Sign::Zero
        } else {
            Sign::Unknown
        }
    }
    fn sqrt(&self) -> Result<Self, ArithError> {
        if *self < 0.0 {
            return Err(ArithError::Domain(format!(
                "square root of a negative number: {self}"
            )));
        }
        Ok(f64::sqrt(*self))
    }
    /// As a floating-point program computes it: `sqrt`, `cbrt`, else `|x|^(1/k)` with
    /// the sign of `x` (odd `k`).
    fn root(&self, k: u32) -> Result<Self, ArithError> {
        if k == 0 || (k.is_multiple_of(2) && *self < 0.0) {
            return super::root_by_square_roots(self, k);
        }
        let r = match k {
            1 => *self,
            2 => f64::sqrt(*self),
            3 => self.cbrt(),
            _ => self.abs().powf(1.0 / f64::from(k)).copysign(*self),
        };
        Ok(r)
    }
    fn to_f64(&self) -> f64 {
        *self
    }
    fn enclosure(&self) -> Option<(f64, f64)> {
        None
    }
    fn rational_bounds(&self) -> Option<(BigRational, BigRational)> {
        None
    }
    fn render(&self) -> Rendered {
        Rendered {
            value: format_f64(*self),
            bounds: None,
        }
    }
    fn num(&self) -> super::Num {
        super::Num::Approx(rug::Float::with_val(53, *self))
    }
    fn pi(_ctx: &()) -> Result<Self, ArithError> {
        Ok(std::f64::consts::PI)
    }
    fn sin(&self) -> Result<Self, ArithError> {
        Ok(f64::sin(*self))
    }
    fn cos(&self) -> Result<Self, ArithError> {
        Ok(f64::cos(*self))
    }
    fn tan(&self) -> Result<Self, ArithError> {
        finite(f64::tan(*self), "tan")
    }
    fn atan(&self) -> Result<Self, ArithError> {
        Ok(f64::atan(*self))
    }
}

/// Shortest round-trip decimal of an `f64`, in the input language (`1e-16`, not `1e-16f64`).
pub fn format_f64(x: f64) -> String {
    let s = format!("{x:?}");
    // Rust's Debug gives e.g. "0.1", "1e-16", "1.5e300"; all parse in the input language.
    if x.fract() == 0.0 && x.abs() < 1e16 {
        // "3.0" → "3"
        return x.to_i64().map(|i| i.to_string()).unwrap_or(s);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn decimal_input_is_rounded_once() {
        assert_eq!(f64::from_rational(&q(9, 10), &()), 0.9);
        assert_eq!(f64::from_rational(&q(1, 3), &()), 1.0 / 3.0);
    }

    #[test]
    fn errors_not_nan() {
        assert_eq!(1.0f64.checked_div(&0.0), Err(ArithError::DivisionByZero));
        assert!(matches!(Scalar::sqrt(&-1.0f64), Err(ArithError::Domain(_))));
        assert!(matches!(
            1e300f64.checked_div(&1e-300),
            Err(ArithError::Unbounded { .. })
        ));
    }

    #[test]
    fn sign_and_render() {
        assert_eq!((-0.0f64).sign(), Sign::Zero);
        assert_eq!(2.5f64.sign(), Sign::Positive);
        assert_eq!(format_f64(3.0), "3");
        assert_eq!(format_f64(0.1), "0.1");
        assert_eq!(format_f64(4.5e-16), "4.5e-16");
        assert_eq!(0.5f64.enclosure(), None);
    }
}
