//! Rigorous intervals on MPFR floats at any precision, with directed rounding.
//!
//! Every lower bound is rounded toward −∞ and every upper bound toward +∞, so the true
//! value is always inside; at 256 bits √2 is enclosed to a width below 1e-70, where a
//! 53-bit interval stops near 1e-16. `sin` and `cos` are not monotone: their extrema
//! inside an interval are found from rigorous enclosures of the critical points mπ/2.

use super::decimal::float_to_decimal;
use super::{float_to_rat, impl_ops_via_ref, rat_to_rug, ArithError, Kind, Rendered, Scalar, Sign};
use num_rational::BigRational;
use rug::float::{Constant, Round};
use rug::ops::NegAssign;
use rug::Float;
use std::cmp::Ordering;
use std::fmt;

/// An enclosure `[lo, hi]` with MPFR bounds of one precision.
#[derive(Clone, Debug, PartialEq)]
///
/// # Example
///
/// ```
/// use impactkit::arith::{MpInterval, Scalar};
/// use impactkit::lang::eval_str;
/// let pi = eval_str::<MpInterval>("pi", &256).unwrap();
/// let (lo, hi) = pi.enclosure().unwrap();
/// assert!(lo <= std::f64::consts::PI && std::f64::consts::PI <= hi);
/// let (a, b) = pi.rational_bounds().unwrap();
/// assert!(&b - &a < impactkit::arith::BigRational::new(1.into(), 10u32.pow(9).into()));
/// ```
pub struct MpInterval {
    lo: Float,
    hi: Float,
}

/// A value rounded down (`Round::Down`) or up (`Round::Up`) at `prec` bits.
fn rnd<T>(prec: u32, v: T, r: Round) -> Float
where
    Float: rug::Assign<T> + rug::ops::AssignRound<T, Round = Round, Ordering = Ordering>,
{
    Float::with_val_round(prec, v, r).0
}

impl MpInterval {
    /// `[lo, hi]`; an error unless `lo <= hi` and both are finite.
    pub fn new(lo: Float, hi: Float) -> Result<Self, ArithError> {
        if !lo.is_finite() || !hi.is_finite() || lo > hi {
            return Err(ArithError::Domain(format!("invalid interval [{lo}, {hi}]")));
        }
        let p = lo.prec().max(hi.prec());
        Ok(MpInterval {
            lo: rnd(p, &lo, Round::Down),
            hi: rnd(p, &hi, Round::Up),
        })
    }
    /// The tightest enclosure of `q` at `prec` bits (a point if `q` is representable).
    pub fn from_rational_prec(q: &BigRational, prec: u32) -> Self {
        Self::from_rug_prec(&rat_to_rug(q), prec)
    }
    /// The tightest enclosure of a GMP rational `q` at `prec` bits.
    pub fn from_rug_prec(q: &rug::Rational, prec: u32) -> Self {
        MpInterval {
            lo: rnd(prec, q, Round::Down),
            hi: rnd(prec, q, Round::Up),
        }
    }
    /// Lower bound.
    pub fn lo(&self) -> &Float {
        &self.lo
    }
    /// Upper bound.
    pub fn hi(&self) -> &Float {
        &self.hi
    }
    /// Precision in bits.
    pub fn prec(&self) -> u32 {
        self.lo.prec()
    }
    /// Width `hi − lo`, rounded up.
    pub fn width(&self) -> Float {
        rnd(self.prec(), &self.hi - &self.lo, Round::Up)
    }
    /// `lo <= q <= hi`, exactly.
    pub fn contains_rational(&self, q: &BigRational) -> bool {
        let r = rat_to_rug(q);
        self.lo <= r && r <= self.hi
    }
    fn point_zero(&self) -> bool {
        self.lo.is_zero() && self.hi.is_zero()
    }
    fn contains_zero(&self) -> bool {
        self.lo.cmp0() != Some(Ordering::Greater) && self.hi.cmp0() != Some(Ordering::Less)
    }
    fn bound_strings(&self) -> (String, String) {
        let digits = super::decimal::decimal_digits(self.prec()) + 1;
        (
            float_to_decimal(&self.lo, digits, Round::Down),
            float_to_decimal(&self.hi, digits, Round::Up),
        )
    }
    /// Enclosure of `m·π/2` at `prec` bits.
    fn half_pi_multiple(m: i64, prec: u32) -> (Float, Float) {
        let pl = rnd(prec, Constant::Pi, Round::Down);
        let ph = rnd(prec, Constant::Pi, Round::Up);
        let (a, b) = if m >= 0 { (pl, ph) } else { (ph, pl) };
        let lo = rnd(prec, &a * m, Round::Down) / 2u32;
        let hi = rnd(prec, &b * m, Round::Up) / 2u32;
        (lo, hi)
    }
    /// Does the enclosure of some `mπ/2` with `m ≡ residue (mod 4)` (or, with `modulus`
    /// 2, `m ≡ residue (mod 2)`) meet `[lo, hi]`?
    fn meets_critical(&self, residue: i64, modulus: i64) -> bool {
        let (a, b) = (self.lo.to_f64(), self.hi.to_f64());
        let scale = 2.0 / std::f64::consts::PI;
        let m_lo = (a * scale).floor() as i64 - 2;
        let m_hi = (b * scale).ceil() as i64 + 2;
        (m_lo..=m_hi)
            .filter(|m| m.rem_euclid(modulus) == residue)
            .any(|m| {
                let (cl, ch) = Self::half_pi_multiple(m, self.prec() + 16);
                cl <= self.hi && self.lo <= ch
            })
    }
    /// Rigorous enclosure of sin (`max_at = 1`) or cos (`max_at = 0`): maxima at
    /// `m ≡ max_at (mod 4)`, minima at `m ≡ max_at + 2 (mod 4)`.
    fn sin_cos(&self, max_at: i64, f: fn(&Float, u32, Round) -> Float) -> Self {
        let p = self.prec();
        let one = Float::with_val(p, 1);
        let whole =
            self.width() > 7 || self.lo.clone().abs() > 1e12 || self.hi.clone().abs() > 1e12;
        if whole {
            return MpInterval {
                lo: -one.clone(),
                hi: one,
            };
        }
        let hi = if self.meets_critical(max_at, 4) {
            one.clone()
        } else {
            f(&self.lo, p, Round::Up).max(&f(&self.hi, p, Round::Up))
        };
        let lo = if self.meets_critical((max_at + 2) % 4, 4) {
            -one.clone()
        } else {
            f(&self.lo, p, Round::Down).min(&f(&self.hi, p, Round::Down))
        };
        MpInterval {
            lo: lo.max(&-one.clone()),
            hi: hi.min(&one),
        }
    }
}

fn sin_r(x: &Float, p: u32, r: Round) -> Float {
    rnd(p, x.sin_ref(), r)
}
fn cos_r(x: &Float, p: u32, r: Round) -> Float {
    rnd(p, x.cos_ref(), r)
}

fn p2(a: &MpInterval, b: &MpInterval) -> u32 {
    a.prec().max(b.prec())
}
fn add(a: &MpInterval, b: &MpInterval) -> MpInterval {
    let p = p2(a, b);
    MpInterval {
        lo: rnd(p, &a.lo + &b.lo, Round::Down),
        hi: rnd(p, &a.hi + &b.hi, Round::Up),
    }
}
fn sub(a: &MpInterval, b: &MpInterval) -> MpInterval {
    let p = p2(a, b);
    MpInterval {
        lo: rnd(p, &a.lo - &b.hi, Round::Down),
        hi: rnd(p, &a.hi - &b.lo, Round::Up),
    }
}
/// All four endpoint combinations of `op`, rounded down for the minimum and up for the
/// maximum.
fn corners(
    a: &MpInterval,
    b: &MpInterval,
    op: fn(&Float, &Float, u32, Round) -> Float,
) -> MpInterval {
    let p = p2(a, b);
    let pairs = [
        (&a.lo, &b.lo),
        (&a.lo, &b.hi),
        (&a.hi, &b.lo),
        (&a.hi, &b.hi),
    ];
    let mut lo = op(pairs[0].0, pairs[0].1, p, Round::Down);
    let mut hi = op(pairs[0].0, pairs[0].1, p, Round::Up);
    for (x, y) in &pairs[1..] {
        lo = lo.min(&op(x, y, p, Round::Down));
        hi = hi.max(&op(x, y, p, Round::Up));
    }
    MpInterval { lo, hi }
}
fn mul_r(x: &Float, y: &Float, p: u32, r: Round) -> Float {
    rnd(p, x * y, r)
}
fn div_r(x: &Float, y: &Float, p: u32, r: Round) -> Float {
    rnd(p, x / y, r)
}
fn mul(a: &MpInterval, b: &MpInterval) -> MpInterval {
    corners(a, b, mul_r)
}
fn neg(a: &MpInterval) -> MpInterval {
    let (mut lo, mut hi) = (a.hi.clone(), a.lo.clone());
    lo.neg_assign();
    hi.neg_assign();
    MpInterval { lo, hi }
}
impl_ops_via_ref!(MpInterval, add, sub, mul, neg);

impl fmt::Display for MpInterval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (lo, hi) = self.bound_strings();
        write!(f, "[{lo}, {hi}]")
    }
}

impl Scalar for MpInterval {
    type Ctx = u32;
    const NAME: &'static str = "mpi";

    fn kind() -> Kind {
        Kind::Enclosure
    }
    fn hull_with(&self, other: &Self) -> Option<Self> {
        let p = self.prec().max(other.prec());
        let lo = if self.lo <= other.lo {
            &self.lo
        } else {
            &other.lo
        };
        let hi = if self.hi >= other.hi {
            &self.hi
        } else {
            &other.hi
        };
        Some(MpInterval {
            lo: rnd(p, lo, Round::Down),
            hi: rnd(p, hi, Round::Up),
        })
    }
    fn from_rational(q: &BigRational, prec: &u32) -> Self {
        Self::from_rational_prec(q, *prec)
    }
    fn from_i64(n: i64, prec: &u32) -> Self {
        MpInterval {
            lo: rnd(*prec, n, Round::Down),
            hi: rnd(*prec, n, Round::Up),
        }
    }
    fn ctx(&self) -> u32 {
        self.prec()
    }
    fn work_digits(&self) -> u64 {
        (f64::from(self.prec()) * std::f64::consts::LOG10_2).ceil() as u64
    }
    fn checked_div(&self, rhs: &Self) -> Result<Self, ArithError> {
        if rhs.point_zero() {
            return Err(ArithError::DivisionByZero);
        }
        if rhs.contains_zero() {
            let (lo, hi) = rhs.bound_strings();
            return Err(ArithError::DivisionByStraddling { lo, hi });
        }
        Ok(corners(self, rhs, div_r))
    }
    fn sign(&self) -> Sign {
        if self.lo.cmp0() == Some(Ordering::Greater) {
            Sign::Positive
        } else if self.hi.cmp0() == Some(Ordering::Less) {
            Sign::Negative
        } else if self.point_zero() {
            Sign::Zero
        } else {
            Sign::Unknown
        }
    }
    /// |x| of an enclosure that contains 0: [0, max(−lo, hi)] (negation and the
    /// comparison are exact).
    fn abs_undecided(&self) -> Option<Self> {
        let neg = Float::with_val(self.lo.prec(), -&self.lo);
        let hi = if neg >= self.hi { neg } else { self.hi.clone() };
        Some(MpInterval {
            lo: Float::with_val(hi.prec(), 0),
            hi,
        })
    }
    fn sqrt(&self) -> Result<Self, ArithError> {
        if self.hi.cmp0() == Some(Ordering::Less) {
            return Err(ArithError::Domain(format!(
                "square root of a negative number: {self}"
            )));
        }
        if self.lo.cmp0() == Some(Ordering::Less) {
            return Err(ArithError::Domain(format!(
                "square root of an enclosure that straddles 0: {self}"
            )));
        }
        let p = self.prec();
        Ok(MpInterval {
            lo: rnd(p, self.lo.sqrt_ref(), Round::Down),
            hi: rnd(p, self.hi.sqrt_ref(), Round::Up),
        })
    }
    /// The bounds' roots rounded outward (x ↦ x^(1/k) is increasing); an even root needs
    /// `lo ≥ 0`, as [`MpInterval::sqrt`].
    fn root(&self, k: u32) -> Result<Self, ArithError> {
        if k == 0 || k.is_multiple_of(2) {
            return super::root_by_square_roots(self, k);
        }
        let p = self.prec();
        Ok(MpInterval {
            lo: rnd(p, self.lo.root_ref(k), Round::Down),
            hi: rnd(p, self.hi.root_ref(k), Round::Up),
        })
    }
    fn to_f64(&self) -> f64 {
        let mut m = Float::with_val(self.prec() + 1, &self.lo + &self.hi);
        m /= 2u32;
        m.to_f64()
    }
    fn enclosure(&self) -> Option<(f64, f64)> {
        Some((
            self.lo.to_f64_round(Round::Down),
            self.hi.to_f64_round(Round::Up),
        ))
    }
    fn rational_bounds(&self) -> Option<(BigRational, BigRational)> {
        Some((float_to_rat(&self.lo)?, float_to_rat(&self.hi)?))
    }
    fn render(&self) -> Rendered {
        let mut mid = Float::with_val(self.prec() + 1, &self.lo + &self.hi);
        mid /= 2u32;
        Rendered {
            value: float_to_decimal(
                &mid,
                super::decimal::decimal_digits(self.prec()),
                Round::Nearest,
            ),
            bounds: Some(self.bound_strings()),
        }
    }
    fn num(&self) -> super::Num {
        super::Num::Enclosure {
            lo: self.lo.clone(),
            hi: self.hi.clone(),
        }
    }
    fn pi(prec: &u32) -> Result<Self, ArithError> {
        Ok(MpInterval {
            lo: rnd(*prec, Constant::Pi, Round::Down),
            hi: rnd(*prec, Constant::Pi, Round::Up),
        })
    }
    fn sin(&self) -> Result<Self, ArithError> {
        Ok(self.sin_cos(1, sin_r))
    }
    fn cos(&self) -> Result<Self, ArithError> {
        Ok(self.sin_cos(0, cos_r))
    }
    /// tan is increasing between its poles (odd multiples of π/2).
    fn tan(&self) -> Result<Self, ArithError> {
        if self.width() > 4 || self.meets_critical(1, 2) {
            return Err(ArithError::Unbounded { op: "tan".into() });
        }
        let p = self.prec();
        Ok(MpInterval {
            lo: rnd(p, self.lo.tan_ref(), Round::Down),
            hi: rnd(p, self.hi.tan_ref(), Round::Up),
        })
    }
    fn atan(&self) -> Result<Self, ArithError> {
        let p = self.prec();
        Ok(MpInterval {
            lo: rnd(p, self.lo.atan_ref(), Round::Down),
            hi: rnd(p, self.hi.atan_ref(), Round::Up),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }
    fn iv(lo: f64, hi: f64, p: u32) -> MpInterval {
        MpInterval::new(Float::with_val(p, lo), Float::with_val(p, hi)).unwrap()
    }

    #[test]
    fn sqrt_two_at_256_bits() {
        let x = MpInterval::from_rational(&q(2, 1), &256).sqrt().unwrap();
        assert!(x.width() < 1e-70);
        let (lo, hi) = x.rational_bounds().unwrap();
        assert!(&lo * &lo <= q(2, 1) && q(2, 1) <= &hi * &hi);
    }

    #[test]
    fn points_and_thirds() {
        let t = MpInterval::from_rational(&q(1, 3), &53);
        assert!(t.contains_rational(&q(1, 3)) && t.width() > 0);
        assert_eq!(MpInterval::from_rational(&q(1, 4), &53).width(), 0);
    }

    #[test]
    fn division_errors() {
        let one = MpInterval::from_rational(&q(1, 1), &64);
        assert_eq!(
            one.checked_div(&iv(0.0, 0.0, 64)),
            Err(ArithError::DivisionByZero)
        );
        assert!(matches!(
            one.checked_div(&iv(-1.0, 1.0, 64)),
            Err(ArithError::DivisionByStraddling { .. })
        ));
        assert_eq!(iv(0.0, 1.0, 64).sign(), Sign::Unknown);
    }

    #[test]
    fn pi_and_trigonometry() {
        let pi = MpInterval::pi(&128).unwrap();
        // L < π < L + 1e-50
        let l: BigRational = "314159265358979323846264338327950288419716939937510/100000000000000000000000000000000000000000000000000".parse().unwrap();
        let u = &l + q(1, 1) / BigRational::from_integer(num_traits::pow(10.into(), 50));
        let (lo, hi) = pi.rational_bounds().unwrap();
        assert!(lo <= u && l <= hi);
        assert!(pi.width() < 1e-37);
        let six = pi.lift_i64(6);
        let s = pi.checked_div(&six).unwrap().sin().unwrap();
        assert!(s.contains_rational(&q(1, 2)) && s.width() < 1e-35);
        let c = pi.checked_div(&pi.lift_i64(3)).unwrap().cos().unwrap();
        assert!(c.contains_rational(&q(1, 2)));
        assert_eq!(iv(1.0, 2.0, 64).sin().unwrap().hi().to_f64(), 1.0);
        assert_eq!(iv(-0.5, 0.5, 64).cos().unwrap().hi().to_f64(), 1.0);
        assert_eq!(iv(4.0, 5.0, 64).sin().unwrap().lo().to_f64(), -1.0);
        let s = iv(0.1, 0.2, 64).sin().unwrap();
        assert!(s.hi().to_f64() < 0.2 && s.lo().to_f64() > 0.09);
        let t = pi.checked_div(&pi.lift_i64(4)).unwrap().tan().unwrap();
        assert!(t.contains_rational(&q(1, 1)) && t.width() < 1e-30);
        assert!(matches!(
            iv(1.5, 1.6, 64).tan(),
            Err(ArithError::Unbounded { .. })
        ));
        let a = MpInterval::from_rational(&q(1, 1), &128).atan().unwrap() * pi.lift_i64(4);
        assert!(a.lo() <= pi.hi() && pi.lo() <= a.hi() && a.width() < 1e-35);
    }

    #[test]
    fn rendered_bounds_enclose() {
        let x = MpInterval::from_rational(&q(2, 1), &128).sqrt().unwrap();
        let (lo, hi) = x.render().bounds.unwrap();
        let lo = Float::with_val(256, Float::parse(&lo).unwrap());
        let hi = Float::with_val(256, Float::parse(&hi).unwrap());
        assert!(lo < hi);
        assert!(Float::with_val(512, &lo * &lo) <= 2 && Float::with_val(512, &hi * &hi) >= 2);
        let dec = |x: f64, d: usize| float_to_decimal(&Float::with_val(53, x), d, Round::Down);
        assert_eq!(dec(0.25, 5), "0.25");
        assert_eq!(dec(-0.0625, 5), "-0.0625");
        assert_eq!(dec(1e-9, 3), "1e-9");
        assert_eq!(
            float_to_decimal(&Float::with_val(53, 1e-9), 3, Round::Up),
            "1.01e-9"
        );
        assert_eq!(dec(1234.5, 10), "1234.5");
        assert_eq!(dec(1e6, 3), "1000000");
        assert_eq!(dec(1e30, 3), "1e30");
        assert_eq!(
            float_to_decimal(&Float::with_val(53, -3), 5, Round::Down),
            "-3"
        );
    }
}
