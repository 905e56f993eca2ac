//! Rigorous intervals at 53 bits: `f64` bounds rounded outward.
//!
//! Sums, products, quotients and square roots round their bounds outward with
//! [`super::rounding`] (the correctly rounded directed results, as IEEE 1788 interval
//! libraries get from the processor's rounding modes, but computed in round-to-nearest,
//! so the library needs no target feature and builds in any crate). π, sin, cos, tan and
//! atan are MPFR's correctly rounded bounds at 53 bits ([`MpInterval`]), with the
//! extrema of sin and cos inside the interval found as there.
//!
//! Every result contains the true value. Division by an interval containing 0 and the
//! square root of an interval that reaches below 0 are errors, so no result is ever empty
//! or silently truncated.

use super::decimal::float_to_decimal;
use super::rational::rational_f64_bounds;
use super::rounding;
use super::{impl_ops_via_ref, ArithError, Kind, MpInterval, Rendered, Scalar, Sign};
use num_rational::BigRational;
use rug::float::Round;
use std::fmt;

/// An interval `[lo, hi]` of `f64` bounds that contains the true value (`lo` may be −∞,
/// `hi` +∞; never empty).
#[derive(Clone, Copy, Debug, PartialEq)]
///
/// # Example
///
/// ```
/// use impactkit::arith::{Interval, Scalar};
/// use impactkit::lang::eval_str;
/// let x = eval_str::<Interval>("1/10", &()).unwrap();
/// assert!(x.lo() < x.hi() && x.lo() <= 0.1 && 0.1 <= x.hi());
/// let y = x.mul_r(&x.lift_i64(10));
/// assert!(y.lo() <= 1.0 && 1.0 <= y.hi());
/// ```
pub struct Interval {
    lo: f64,
    hi: f64,
}

/// [π rounded down, π rounded up].
const PI: Interval = Interval {
    lo: std::f64::consts::PI,
    hi: 3.141_592_653_589_793_6,
};

impl Interval {
    /// `[lo, hi]`; an error if `lo > hi`, either is NaN, `lo` is +∞ or `hi` is −∞.
    pub fn new(lo: f64, hi: f64) -> Result<Self, ArithError> {
        if lo <= hi && lo != f64::INFINITY && hi != f64::NEG_INFINITY {
            Ok(Interval { lo, hi })
        } else {
            Err(ArithError::Domain(format!("invalid interval [{lo}, {hi}]")))
        }
    }
    /// The whole real line.
    const ENTIRE: Interval = Interval {
        lo: f64::NEG_INFINITY,
        hi: f64::INFINITY,
    };
    /// Lower bound (a zero bound is −0, as IEEE 1788's `inf`).
    pub fn lo(&self) -> f64 {
        if self.lo == 0.0 {
            -0.0
        } else {
            self.lo
        }
    }
    /// Upper bound (a zero bound is +0).
    pub fn hi(&self) -> f64 {
        if self.hi == 0.0 {
            0.0
        } else {
            self.hi
        }
    }
    /// Width `hi - lo`, rounded up.
    pub fn width(&self) -> f64 {
        let w = rounding::sub(self.hi, self.lo, true);
        if w == 0.0 {
            0.0
        } else {
            w
        }
    }
    /// The midpoint (IEEE 1788 `mid`: finite, 0 for the whole line).
    fn mid(&self) -> f64 {
        let (a, b) = (self.lo, self.hi);
        match (a == f64::NEG_INFINITY, b == f64::INFINITY) {
            (false, false) => {
                let m = 0.5 * (a + b);
                if m.is_infinite() {
                    0.5 * a + 0.5 * b
                } else if m == 0.0 {
                    0.0
                } else {
                    m
                }
            }
            (false, true) => f64::MAX,
            (true, false) => f64::MIN,
            (true, true) => 0.0,
        }
    }
    fn is_bounded(&self) -> bool {
        self.lo.is_finite() && self.hi.is_finite()
    }
    /// This interval at 53 bits in MPFR (bounded intervals only).
    fn to_mp(self) -> Result<MpInterval, ArithError> {
        MpInterval::new(
            rug::Float::with_val(53, self.lo),
            rug::Float::with_val(53, self.hi),
        )
    }
    /// The `f64` bounds of an MPFR enclosure, rounded outward.
    fn from_mp(x: &MpInterval) -> Interval {
        Interval {
            lo: x.lo().to_f64_round(Round::Down),
            hi: x.hi().to_f64_round(Round::Up),
        }
    }
    /// An elementary function through MPFR at 53 bits.
    fn via_mp(
        &self,
        f: impl Fn(&MpInterval) -> Result<MpInterval, ArithError>,
    ) -> Result<Interval, ArithError> {
        Ok(Interval::from_mp(&f(&self.to_mp()?)?))
    }
}

fn add(a: &Interval, b: &Interval) -> Interval {
    Interval {
        lo: rounding::add(a.lo, b.lo, false),
        hi: rounding::add(a.hi, b.hi, true),
    }
}
fn sub(a: &Interval, b: &Interval) -> Interval {
    Interval {
        lo: rounding::sub(a.lo, b.hi, false),
        hi: rounding::sub(a.hi, b.lo, true),
    }
}
/// The product: the extreme products of the bounds, each rounded outward (0 · ∞ = 0).
fn mul(a: &Interval, b: &Interval) -> Interval {
    let pairs = [(a.lo, b.lo), (a.lo, b.hi), (a.hi, b.lo), (a.hi, b.hi)];
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for (x, y) in pairs {
        lo = lo.min(rounding::mul(x, y, false));
        hi = hi.max(rounding::mul(x, y, true));
    }
    Interval { lo, hi }
}
fn neg(a: &Interval) -> Interval {
    Interval {
        lo: -a.hi,
        hi: -a.lo,
    }
}
impl_ops_via_ref!(Interval, add, sub, mul, neg);

/// `a / b` for `b` of one strict sign: the quotients of the bounds that bound it.
fn div(a: &Interval, b: &Interval) -> Interval {
    let (lo, hi) = if b.lo > 0.0 {
        (
            if a.lo >= 0.0 {
                (a.lo, b.hi)
            } else {
                (a.lo, b.lo)
            },
            if a.hi >= 0.0 {
                (a.hi, b.lo)
            } else {
                (a.hi, b.hi)
            },
        )
    } else {
        (
            if a.hi >= 0.0 {
                (a.hi, b.hi)
            } else {
                (a.hi, b.lo)
            },
            if a.lo >= 0.0 {
                (a.lo, b.lo)
            } else {
                (a.lo, b.hi)
            },
        )
    };
    Interval {
        lo: rounding::div(lo.0, lo.1, false),
        hi: rounding::div(hi.0, hi.1, true),
    }
}

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

fn bounded(x: Interval, op: &str) -> Result<Interval, ArithError> {
    if x.is_bounded() {
        Ok(x)
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
        Some(Interval {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        })
    }
    fn from_rational(q: &BigRational, _ctx: &()) -> Self {
        let (lo, hi) = rational_f64_bounds(q);
        Interval::new(lo, hi).unwrap_or(Interval::ENTIRE)
    }
    fn from_i64(n: i64, _ctx: &()) -> Self {
        let x = n as f64;
        if x.abs() < 9.0e15 {
            Interval { lo: x, hi: x }
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
            _ => Ok(div(self, rhs)),
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
    /// |x| of an enclosure that contains 0: [0, max(−lo, hi)] (exact in f64).
    fn abs_undecided(&self) -> Option<Self> {
        Some(Interval {
            lo: 0.0,
            hi: (-self.lo).max(self.hi),
        })
    }
    fn sqrt(&self) -> Result<Self, ArithError> {
        match self.sign() {
            Sign::Negative => Err(ArithError::Domain(format!(
                "square root of a negative number: {self}"
            ))),
            Sign::Unknown if self.lo() < 0.0 => Err(ArithError::Domain(format!(
                "square root of an enclosure that straddles 0: {self}"
            ))),
            _ => Ok(Interval {
                lo: rounding::sqrt(self.lo.max(0.0), false),
                hi: rounding::sqrt(self.hi, true),
            }),
        }
    }
    /// The bounds' roots rounded outward by MPFR at 53 bits (x ↦ x^(1/k) is increasing);
    /// an even root needs `lo ≥ 0`, as [`Interval::sqrt`].
    fn root(&self, k: u32) -> Result<Self, ArithError> {
        if k == 0 || k.is_multiple_of(2) {
            return super::root_by_square_roots(self, k);
        }
        let bound = |x: f64, round: Round| {
            let mut f = rug::Float::with_val(53, x);
            f.root_round(k, round);
            f.to_f64_round(round)
        };
        Ok(Interval {
            lo: bound(self.lo, Round::Down),
            hi: bound(self.hi, Round::Up),
        })
    }
    fn to_f64(&self) -> f64 {
        self.mid()
    }
    fn enclosure(&self) -> Option<(f64, f64)> {
        Some((self.lo(), self.hi()))
    }
    fn rational_bounds(&self) -> Option<(BigRational, BigRational)> {
        Some((
            super::rational::f64_exact(self.lo())?,
            super::rational::f64_exact(self.hi())?,
        ))
    }
    fn render(&self) -> Rendered {
        Rendered {
            value: super::float::format_f64(self.mid()),
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
        Ok(PI)
    }
    fn sin(&self) -> Result<Self, ArithError> {
        if !self.is_bounded() {
            return Ok(Interval { lo: -1.0, hi: 1.0 });
        }
        self.via_mp(MpInterval::sin)
    }
    fn cos(&self) -> Result<Self, ArithError> {
        if !self.is_bounded() {
            return Ok(Interval { lo: -1.0, hi: 1.0 });
        }
        self.via_mp(MpInterval::cos)
    }
    fn tan(&self) -> Result<Self, ArithError> {
        if !self.is_bounded() {
            return Err(ArithError::Unbounded { op: "tan".into() });
        }
        bounded(self.via_mp(MpInterval::tan)?, "tan")
    }
    fn atan(&self) -> Result<Self, ArithError> {
        if !self.is_bounded() {
            // atan is increasing: the finite ends' atan, ±π/2 at the infinite ones
            let half_pi = Interval {
                lo: PI.lo / 2.0,
                hi: PI.hi / 2.0,
            };
            let end = |x: f64, up: bool| -> Result<f64, ArithError> {
                if x.is_infinite() {
                    Ok(if x > 0.0 { half_pi.hi } else { -half_pi.hi })
                } else {
                    let a = Interval { lo: x, hi: x }.via_mp(MpInterval::atan)?;
                    Ok(if up { a.hi } else { a.lo })
                }
            };
            return Ok(Interval {
                lo: end(self.lo, false)?,
                hi: end(self.hi, true)?,
            });
        }
        self.via_mp(MpInterval::atan)
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
