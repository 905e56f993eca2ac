//! The exact rational backend, on GMP (`rug::Rational`).
//!
//! Decimal input is exact (`0.9` = 9/10). Nothing is ever rounded: a square root that is
//! not rational, π and the trigonometric functions are `NotRepresentable` (except where
//! the input language can prove a value rational, see [`crate::lang`]).
//!
//! The operators follow nalgebra's owned/borrowed pattern (`src/base/ops.rs`): an owned
//! left operand is updated in place (`a + &b` reuses `a`'s limbs), a borrowed pair
//! allocates exactly one result (`a.add_r(&b)`), and nothing is cloned to be consumed.

use super::{convert, not_representable, ArithError, Kind, Rendered, Scalar, Sign};
use num_rational::BigRational;
use rug::float::Round;
use rug::Integer;
use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};

/// An exact rational number (GMP `mpq_t`, always in lowest terms).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
///
/// # Example
///
/// ```
/// use impactkit::arith::{Rational, Scalar};
/// let a = Rational::new(1, 3);
/// let b = Rational::new(1, 6);
/// assert_eq!((a + &b).to_string(), "1/2");
/// assert!(Rational::new(1, 1).checked_div(&Rational::new(0, 1)).is_err());
/// ```
pub struct Rational(rug::Rational);

impl Rational {
    /// `n / d`; `d` must be nonzero (callers with user input use `checked_div`).
    pub fn new(n: i64, d: i64) -> Self {
        Rational(rug::Rational::from((n, d)))
    }
    /// The exact value of a `BigRational`.
    pub fn from_big(q: &BigRational) -> Self {
        Rational(convert::rat_to_rug(q))
    }
    /// The value as a `BigRational` (for the API boundary; not for inner loops).
    pub fn to_big(&self) -> BigRational {
        convert::rug_to_rat(&self.0)
    }
    /// The underlying GMP rational.
    pub fn as_rug(&self) -> &rug::Rational {
        &self.0
    }
    /// Wraps a GMP rational.
    pub fn from_rug(q: rug::Rational) -> Self {
        Rational(q)
    }
    /// The integer `n`.
    pub fn from_integer(n: Integer) -> Self {
        Rational(rug::Rational::from(n))
    }
    /// Numerator (in lowest terms; carries the sign).
    pub fn numer(&self) -> &Integer {
        self.0.numer()
    }
    /// Denominator (in lowest terms; positive).
    pub fn denom(&self) -> &Integer {
        self.0.denom()
    }
}

impl fmt::Display for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl From<BigRational> for Rational {
    fn from(q: BigRational) -> Self {
        Rational::from_big(&q)
    }
}

/// Exact square root of a non-negative integer, if it is a perfect square (`None` for a
/// negative `n`).
pub(crate) fn exact_isqrt(n: &Integer) -> Option<Integer> {
    n.is_perfect_square().then(|| Integer::from(n.sqrt_ref()))
}

/// Rigorous outward `f64` bounds of an exact rational (through MPFR's directed rounding).
pub(crate) fn rational_f64_bounds(q: &BigRational) -> (f64, f64) {
    rug_f64_bounds(&convert::rat_to_rug(q))
}

/// Rigorous outward `f64` bounds of a GMP rational.
pub(crate) fn rug_f64_bounds(r: &rug::Rational) -> (f64, f64) {
    let lo = rug::Float::with_val_round(53, r, Round::Down).0;
    let hi = rug::Float::with_val_round(53, r, Round::Up).0;
    (lo.to_f64_round(Round::Down), hi.to_f64_round(Round::Up))
}

/// [`Scalar::split_scale`] for GMP rationals: `v = (g/l)·w` with `l` the lcm of the
/// denominators and `g` the content of the numerators (its power of two unless `full`).
fn split_scale(v: &mut [Rational], full: bool) -> Option<Rational> {
    let mut l = Integer::from(1);
    for x in v.iter() {
        if *x.0.denom() != 1 {
            l.lcm_mut(x.0.denom());
        }
    }
    let mut nums: Vec<Integer> = v
        .iter_mut()
        .map(|x| {
            let (n, d) = std::mem::take(&mut x.0).into_numer_denom();
            if l == 1 {
                n
            } else if d == 1 {
                n * &l
            } else {
                n * Integer::from(l.div_exact_ref(&d))
            }
        })
        .collect();
    let g = if full {
        nums.iter().fold(Integer::new(), |g, n| g.gcd(n))
    } else {
        let twos = nums.iter().filter_map(|n| n.find_one(0)).min();
        twos.map_or_else(Integer::new, |t| Integer::from(1) << t)
    };
    let g = if g == 0 { Integer::from(1) } else { g };
    if g != 1 {
        for n in nums.iter_mut() {
            n.div_exact_mut(&g);
        }
    }
    for (x, n) in v.iter_mut().zip(nums) {
        x.0 = rug::Rational::from(n);
    }
    (g != 1 || l != 1).then(|| Rational(rug::Rational::from((g, l))))
}

// Operators: owned left operands are updated in place; borrowed pairs make one result.
impl Add for Rational {
    type Output = Rational;
    fn add(mut self, rhs: Rational) -> Rational {
        self.0 += rhs.0;
        self
    }
}
impl<'a> Add<&'a Rational> for Rational {
    type Output = Rational;
    fn add(mut self, rhs: &'a Rational) -> Rational {
        self.0 += &rhs.0;
        self
    }
}
impl Sub for Rational {
    type Output = Rational;
    fn sub(mut self, rhs: Rational) -> Rational {
        self.0 -= rhs.0;
        self
    }
}
impl<'a> Sub<&'a Rational> for Rational {
    type Output = Rational;
    fn sub(mut self, rhs: &'a Rational) -> Rational {
        self.0 -= &rhs.0;
        self
    }
}
impl Mul for Rational {
    type Output = Rational;
    fn mul(mut self, rhs: Rational) -> Rational {
        self.0 *= rhs.0;
        self
    }
}
impl<'a> Mul<&'a Rational> for Rational {
    type Output = Rational;
    fn mul(mut self, rhs: &'a Rational) -> Rational {
        self.0 *= &rhs.0;
        self
    }
}
impl Neg for Rational {
    type Output = Rational;
    fn neg(mut self) -> Rational {
        self.0 = -self.0;
        self
    }
}

impl Scalar for Rational {
    type Ctx = ();
    const NAME: &'static str = "exact";

    fn kind() -> Kind {
        Kind::Exact
    }
    fn from_rational(q: &BigRational, _ctx: &()) -> Self {
        Rational::from_big(q)
    }
    fn from_f64_exact(x: f64, _ctx: &()) -> Option<Self> {
        Some(Rational(rug::Rational::from_f64(x)?))
    }
    fn from_i64(n: i64, _ctx: &()) -> Self {
        Rational(rug::Rational::from(n))
    }
    fn ctx(&self) {}
    fn lift_i64(&self, n: i64) -> Self {
        Rational(rug::Rational::from(n))
    }
    fn checked_div(&self, rhs: &Self) -> Result<Self, ArithError> {
        if rhs.0.cmp0().is_eq() {
            return Err(ArithError::DivisionByZero);
        }
        Ok(Rational(rug::Rational::from(&self.0 / &rhs.0)))
    }
    fn sign(&self) -> Sign {
        match self.0.cmp0() {
            std::cmp::Ordering::Greater => Sign::Positive,
            std::cmp::Ordering::Less => Sign::Negative,
            std::cmp::Ordering::Equal => Sign::Zero,
        }
    }
    fn sqrt(&self) -> Result<Self, ArithError> {
        if self.0.cmp0().is_lt() {
            return Err(ArithError::Domain(format!(
                "square root of a negative number: {}",
                self.0
            )));
        }
        let (n, d) = (self.0.numer(), self.0.denom());
        if n.is_perfect_square() && d.is_perfect_square() {
            let (n, d) = (Integer::from(n.sqrt_ref()), Integer::from(d.sqrt_ref()));
            return Ok(Rational(rug::Rational::from((n, d))));
        }
        Err(ArithError::NotRepresentable {
            what: format!("sqrt({}), which is irrational,", self.0),
            backend: Self::NAME,
            hint: "use --arith quadratic for one square root, or an enclosure backend: --arith interval or --arith mpi:BITS".into(),
        })
    }
    /// Exact where the root is rational (`root(27/8, 3)` = 3/2), else `NotRepresentable`.
    fn root(&self, k: u32) -> Result<Self, ArithError> {
        if k == 0 || (k.is_multiple_of(2) && self.0.cmp0().is_lt()) {
            return super::root_by_square_roots(self, k);
        }
        super::rational_root(&self.0, k)
            .map(Rational)
            .ok_or_else(|| ArithError::NotRepresentable {
                what: format!("root({}, {k}), which is irrational,", self.0),
                backend: Self::NAME,
                hint: "use --arith algebraic, or an enclosure backend: --arith interval or --arith mpi:BITS".into(),
            })
    }
    fn to_f64(&self) -> f64 {
        rug::Float::with_val(53, &self.0).to_f64()
    }
    fn enclosure(&self) -> Option<(f64, f64)> {
        Some(rug_f64_bounds(&self.0))
    }
    fn rational_bounds(&self) -> Option<(BigRational, BigRational)> {
        let q = self.to_big();
        Some((q.clone(), q))
    }
    fn render(&self) -> Rendered {
        let v = self.0.to_string();
        Rendered {
            value: v.clone(),
            bounds: Some((v.clone(), v)),
        }
    }
    fn num(&self) -> super::Num {
        super::Num::Exact {
            expr: self.0.to_string(),
            value: super::ExactValue::Rational(self.0.clone()),
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
    fn add_r(&self, rhs: &Self) -> Self {
        Rational(rug::Rational::from(&self.0 + &rhs.0))
    }
    fn sub_r(&self, rhs: &Self) -> Self {
        Rational(rug::Rational::from(&self.0 - &rhs.0))
    }
    fn mul_r(&self, rhs: &Self) -> Self {
        Rational(rug::Rational::from(&self.0 * &rhs.0))
    }
    fn square(&self) -> Self {
        Rational(rug::Rational::from(self.0.square_ref()))
    }
    fn exact_digits(&self) -> u64 {
        let bits = u64::from(self.0.numer().significant_bits() + self.0.denom().significant_bits());
        (bits as f64 * std::f64::consts::LOG10_2).ceil() as u64
    }
    fn split_scale(v: &mut [Self], full: bool) -> Option<Self> {
        split_scale(v, full)
    }
    fn recip(&self) -> Result<Self, ArithError> {
        if self.0.cmp0().is_eq() {
            return Err(ArithError::DivisionByZero);
        }
        Ok(Rational(rug::Rational::from(self.0.recip_ref())))
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

#[cfg(test)]
mod split_tests {
    use super::*;

    #[test]
    fn split_scale_clears_denominators_and_content() {
        let mut v = [Rational::new(-23, 48), Rational::new(-1, 6)];
        let t = Rational::split_scale(&mut v, false).unwrap();
        assert_eq!(v, [Rational::new(-23, 1), Rational::new(-8, 1)]);
        assert_eq!(t, Rational::new(1, 48));
        let mut v = [Rational::new(12, 5), Rational::new(-18, 5)];
        let t = Rational::split_scale(&mut v, false).unwrap();
        assert_eq!(v, [Rational::new(6, 1), Rational::new(-9, 1)]);
        assert_eq!(t, Rational::new(2, 5));
        let mut v = [Rational::new(12, 5), Rational::new(-18, 5)];
        let t = Rational::split_scale(&mut v, true).unwrap();
        assert_eq!(v, [Rational::new(2, 1), Rational::new(-3, 1)]);
        assert_eq!(t, Rational::new(6, 5));
        let mut v = [Rational::new(-95, 4), Rational::new(-5, 1)];
        let t = Rational::split_scale(&mut v, false).unwrap();
        assert_eq!(v, [Rational::new(-95, 1), Rational::new(-20, 1)]);
        assert_eq!(t, Rational::new(1, 4));
        let mut v = [Rational::new(3, 1), Rational::new(0, 1)];
        assert_eq!(
            Rational::split_scale(&mut v, true),
            Some(Rational::new(3, 1))
        );
        let mut v = [Rational::new(0, 1), Rational::new(0, 1)];
        assert_eq!(Rational::split_scale(&mut v, true), None);
    }
}

/// `x` as the exact rational it is (`None` for ±∞ and NaN), built in lowest terms
/// without a gcd: an odd mantissa over a power of two. The same value as
/// `BigRational::from_float`, which reduces by Euclid's algorithm on big integers (the
/// certified LZB limit reads interval ends this way at every step).
pub fn f64_exact(x: f64) -> Option<BigRational> {
    use num_bigint::BigInt;
    if !x.is_finite() {
        return None;
    }
    if x == 0.0 {
        return Some(BigRational::from_integer(BigInt::from(0)));
    }
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    let (mut m, mut e) = match biased {
        0 => (frac, -1074),
        _ => (frac | (1u64 << 52), biased - 1075),
    };
    let tz = m.trailing_zeros();
    m >>= tz;
    e += i64::from(tz);
    let n = match bits >> 63 {
        1 => -BigInt::from(m),
        _ => BigInt::from(m),
    };
    Some(match e {
        e if e >= 0 => BigRational::from_integer(n << (e as usize)),
        e => BigRational::new_raw(n, BigInt::from(1) << ((-e) as usize)),
    })
}

#[cfg(test)]
mod f64_exact_tests {
    use super::*;

    #[test]
    fn f64_exact_equals_from_float() {
        for x in [
            0.0,
            -0.0,
            1.0,
            -3.5,
            0.1,
            1e300,
            -1e-300,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            123456.789,
            -2.0f64.powi(60),
        ] {
            assert_eq!(f64_exact(x), BigRational::from_float(x), "{x}");
        }
        assert_eq!(f64_exact(f64::NAN), None);
        assert_eq!(f64_exact(f64::INFINITY), None);
    }
}
