//! Exact arithmetic in one real quadratic field Q(√d).
//!
//! An element is `a + b√d` with `a, b` rational and `d > 1` a square-free integer (found
//! by trial division up to 10⁵ and a perfect-square test of the cofactor, so `d` is
//! square-free except for squares of primes above 10⁵, which never changes a result).
//! Rational elements carry no `d`; they meet any field. The field is fixed by the first
//! irrational square root; two different fields cannot meet ([`Scalar::compatible`]
//! reports [`ArithError::FieldMismatch`]; code that builds all inputs through
//! [`crate::lang`] never mixes them, and the ring operators treat a mix as a bug).
//!
//! Signs are exact: for `a + b√d` with `a`, `b` of opposite signs, compare `a²` with `b²d`.
//!
//! The coefficients are GMP rationals (`rug::Rational`) and `d` a GMP integer. The
//! operators follow nalgebra's owned/borrowed pattern (`src/base/ops.rs`), as
//! [`super::Rational`] does: an owned left operand is updated in place (`x + &y` adds into
//! `x`'s coefficients), the borrowed helpers (`add_r`, `sub_r`, `mul_r`, `square`) build
//! one result, and nothing is cloned to be consumed.

use super::{not_representable, ArithError, Kind, MpInterval, Rendered, Scalar, Sign};
use crate::arith::rational::exact_isqrt;
use num_rational::BigRational;
use rug::ops::NegAssign;
use rug::{Assign, Integer, Rational};
use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};
use std::sync::Arc;

/// `a + b√d`, exactly.
///
/// Invariant: `d` is `Some` exactly when `b ≠ 0` (a rational element has `b = 0`, no `d`).
#[derive(Clone, Debug, PartialEq, Eq)]
///
/// # Example
///
/// ```
/// use impactkit::arith::{Quadratic, Scalar};
/// use impactkit::lang::eval_str;
/// let x = eval_str::<Quadratic>("tan(pi/12)", &()).unwrap();
/// assert_eq!(x.to_string(), "2-sqrt(3)");
/// let one = x.mul_r(&eval_str::<Quadratic>("2 + sqrt(3)", &()).unwrap());
/// assert_eq!(one.to_string(), "1");
/// ```
pub struct Quadratic {
    a: Rational,
    b: Rational,
    d: Option<Arc<Integer>>,
}

/// Precision used to bound elements for `to_f64` and `enclosure`.
const BOUND_PREC: u32 = 128;

impl Quadratic {
    /// The rational `q`.
    pub fn rational(q: Rational) -> Self {
        Quadratic {
            a: q,
            b: Rational::new(),
            d: None,
        }
    }
    /// `a + b√d`; `d` is reduced to its square-free part (and the element to a rational
    /// when `d` is a square). An error if `d < 0`.
    pub fn new(a: Rational, b: Rational, d: &Integer) -> Result<Self, ArithError> {
        if d.cmp0().is_lt() {
            return Err(ArithError::Domain(format!(
                "square root of a negative number: {d}"
            )));
        }
        let (s, r) = squarefree_split(d);
        let mut b = b;
        b *= &s;
        Ok(Self::normalized(a, b, r))
    }
    fn normalized(a: Rational, b: Rational, d: Integer) -> Self {
        if b.cmp0().is_eq() || d.cmp0().is_eq() {
            Quadratic::rational(a)
        } else if d == 1 {
            Quadratic::rational(a + b)
        } else {
            Quadratic {
                a,
                b,
                d: Some(Arc::new(d)),
            }
        }
    }
    /// The rational part `a`.
    pub fn a(&self) -> &Rational {
        &self.a
    }
    /// The coefficient `b` of √d.
    pub fn b(&self) -> &Rational {
        &self.b
    }
    /// The field's `d`, or `None` for a rational element.
    pub fn d(&self) -> Option<&Integer> {
        self.d.as_deref()
    }
    /// The value as a rational, if `b = 0`.
    pub fn as_rational(&self) -> Option<&Rational> {
        self.d.is_none().then_some(&self.a)
    }
    /// `a + b√d` from parts already reduced (`d` square-free); rational when `b = 0`.
    fn from_parts(a: Rational, b: Rational, d: Option<Arc<Integer>>) -> Self {
        match d {
            Some(d) if b.cmp0().is_ne() => Quadratic { a, b, d: Some(d) },
            _ => Quadratic::rational(a),
        }
    }
    /// Restores the invariant after `b` changed in place.
    fn settle(&mut self) {
        if self.b.cmp0().is_eq() {
            self.d = None;
        }
    }
    /// The field norm `a² − b²d`.
    pub fn norm(&self) -> Rational {
        let mut n = Rational::from(self.a.square_ref());
        if let Some(d) = &self.d {
            let mut t = Rational::from(self.b.square_ref());
            t *= &**d;
            n -= t;
        }
        n
    }
    /// `a² > b²d`, i.e. `|a| > |b|√d` (the norm is positive), decided on integers: with
    /// `a = p/q`, `b = r/s`, compare `(ps)²` with `(rq)²·d`.
    fn a_dominates(&self) -> bool {
        let Some(d) = &self.d else {
            return self.a.cmp0().is_ne();
        };
        let mut lhs = Integer::from(self.a.numer() * self.b.denom());
        lhs.square_mut();
        let mut rhs = Integer::from(self.b.numer() * self.a.denom());
        rhs.square_mut();
        rhs *= &**d;
        lhs > rhs
    }
    /// A rigorous MPFR enclosure of the value.
    pub fn to_mp_interval(&self, prec: u32) -> MpInterval {
        let a = MpInterval::from_rug_prec(&self.a, prec);
        match &self.d {
            None => a,
            Some(d) => {
                let root = MpInterval::from_rug_prec(&Rational::from(&**d), prec)
                    .sqrt()
                    .expect("d > 1 has a square root");
                a + MpInterval::from_rug_prec(&self.b, prec) * &root
            }
        }
    }
    /// Square root of a non-negative rational: rational, or `s√r` in the field Q(√r).
    fn sqrt_rational(q: &Rational) -> Quadratic {
        let (s, r) = squarefree_split(&Integer::from(q.numer() * q.denom()));
        let coef = Rational::from((s, q.denom().clone()));
        Self::normalized(Rational::new(), coef, r)
    }

    // In-place ring operations: `self` is updated, `rhs` only read.
    fn add_assign_ref(&mut self, rhs: &Quadratic) {
        self.a += &rhs.a;
        if let Some(rd) = &rhs.d {
            match &self.d {
                Some(sd) => {
                    same_field(sd, rd);
                    self.b += &rhs.b;
                    self.settle();
                }
                None => {
                    self.b.assign(&rhs.b);
                    self.d = Some(rd.clone());
                }
            }
        }
    }
    fn sub_assign_ref(&mut self, rhs: &Quadratic) {
        self.a -= &rhs.a;
        if let Some(rd) = &rhs.d {
            match &self.d {
                Some(sd) => {
                    same_field(sd, rd);
                    self.b -= &rhs.b;
                    self.settle();
                }
                None => {
                    self.b.assign(-&rhs.b);
                    self.d = Some(rd.clone());
                }
            }
        }
    }
    /// `(a + b√d)(c + e√d) = (ac + bed) + (ae + bc)√d`.
    fn mul_assign_ref(&mut self, rhs: &Quadratic) {
        match (&self.d, &rhs.d) {
            (_, None) => {
                self.a *= &rhs.a;
                if self.d.is_some() {
                    self.b *= &rhs.a;
                    self.settle();
                }
            }
            (None, Some(rd)) => {
                if self.a.cmp0().is_ne() {
                    self.b.assign(&self.a * &rhs.b);
                    self.a *= &rhs.a;
                    self.d = Some(rd.clone());
                }
            }
            (Some(sd), Some(rd)) => {
                same_field(sd, rd);
                let mut bed = Rational::from(&self.b * &rhs.b);
                bed *= &**rd;
                let ae = Rational::from(&self.a * &rhs.b);
                self.a *= &rhs.a;
                self.a += bed;
                self.b *= &rhs.a;
                self.b += ae;
                self.settle();
            }
        }
    }
    fn neg_in_place(&mut self) {
        self.a.neg_assign();
        self.b.neg_assign();
    }
}

/// The invariant: never two different fields in one operation.
fn same_field(p: &Arc<Integer>, q: &Arc<Integer>) {
    assert!(
        Arc::ptr_eq(p, q) || p == q,
        "impactkit bug: Q(sqrt({p})) and Q(sqrt({q})) mixed; inputs must be checked with Scalar::compatible"
    );
}

/// The common field of two elements (see [`same_field`]).
fn field<'a>(x: &'a Quadratic, y: &'a Quadratic) -> Option<&'a Arc<Integer>> {
    match (&x.d, &y.d) {
        (Some(p), Some(q)) => {
            same_field(p, q);
            Some(p)
        }
        (Some(p), None) | (None, Some(p)) => Some(p),
        (None, None) => None,
    }
}

/// `n = s²·r` with `r` square-free (up to primes above 10⁵, see the module docs); `n ≥ 0`.
pub(crate) fn squarefree_split(n: &Integer) -> (Integer, Integer) {
    let mut s = Integer::from(1);
    let mut r = Integer::from(1);
    if n.cmp0().is_eq() {
        return (Integer::new(), r);
    }
    let mut m = n.clone();
    let mut p: u32 = 2;
    while p <= 100_000 {
        if m < u64::from(p) * u64::from(p) {
            break;
        }
        let mut e = 0u32;
        while m.is_divisible_u(p) {
            m.div_exact_u_mut(p);
            e += 1;
        }
        if e > 0 {
            s *= Integer::from(Integer::u_pow_u(p, e / 2));
            if e % 2 == 1 {
                r *= p;
            }
        }
        p += if p == 2 { 1 } else { 2 };
    }
    match exact_isqrt(&m) {
        Some(root) => s *= root,
        None => r *= m,
    }
    (s, r)
}

// Operators: owned left operands are updated in place; an owned right operand is reused
// instead when only it carries √d (the result then lives in its buffers).
impl<'a> Add<&'a Quadratic> for Quadratic {
    type Output = Quadratic;
    fn add(mut self, rhs: &'a Quadratic) -> Quadratic {
        self.add_assign_ref(rhs);
        self
    }
}
impl Add for Quadratic {
    type Output = Quadratic;
    fn add(self, rhs: Quadratic) -> Quadratic {
        if self.d.is_none() && rhs.d.is_some() {
            rhs + &self
        } else {
            self + &rhs
        }
    }
}
impl<'a> Sub<&'a Quadratic> for Quadratic {
    type Output = Quadratic;
    fn sub(mut self, rhs: &'a Quadratic) -> Quadratic {
        self.sub_assign_ref(rhs);
        self
    }
}
impl Sub for Quadratic {
    type Output = Quadratic;
    fn sub(self, rhs: Quadratic) -> Quadratic {
        if self.d.is_none() && rhs.d.is_some() {
            let mut r = rhs - &self;
            r.neg_in_place();
            r
        } else {
            self - &rhs
        }
    }
}
impl<'a> Mul<&'a Quadratic> for Quadratic {
    type Output = Quadratic;
    fn mul(mut self, rhs: &'a Quadratic) -> Quadratic {
        self.mul_assign_ref(rhs);
        self
    }
}
impl Mul for Quadratic {
    type Output = Quadratic;
    fn mul(self, rhs: Quadratic) -> Quadratic {
        if self.d.is_none() && rhs.d.is_some() {
            rhs * &self
        } else {
            self * &rhs
        }
    }
}
impl Neg for Quadratic {
    type Output = Quadratic;
    fn neg(mut self) -> Quadratic {
        self.neg_in_place();
        self
    }
}

/// `b√d` in the input language: `sqrt(3)`, `-sqrt(2)`, `5/84*sqrt(3)`.
fn root_term(b: &Rational, d: &Integer) -> String {
    if *b == 1 {
        format!("sqrt({d})")
    } else if *b == -1 {
        format!("-sqrt({d})")
    } else {
        format!("{b}*sqrt({d})")
    }
}

impl fmt::Display for Quadratic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.d {
            None => write!(f, "{}", self.a),
            Some(d) => {
                let t = root_term(&self.b, d);
                if self.a.cmp0().is_eq() {
                    write!(f, "{t}")
                } else if t.starts_with('-') {
                    write!(f, "{}{t}", self.a)
                } else {
                    write!(f, "{}+{t}", self.a)
                }
            }
        }
    }
}

fn rat_sign(q: &Rational) -> i8 {
    match q.cmp0() {
        std::cmp::Ordering::Greater => 1,
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
    }
}

impl Scalar for Quadratic {
    type Ctx = ();
    const NAME: &'static str = "quadratic";

    fn kind() -> Kind {
        Kind::Exact
    }
    fn from_rational(q: &BigRational, _ctx: &()) -> Self {
        Quadratic::rational(super::rat_to_rug(q))
    }
    fn from_f64_exact(x: f64, _ctx: &()) -> Option<Self> {
        Some(Quadratic::rational(rug::Rational::from_f64(x)?))
    }
    fn from_i64(n: i64, _ctx: &()) -> Self {
        Quadratic::rational(Rational::from(n))
    }
    fn ctx(&self) {}
    fn compatible(&self, other: &Self) -> Result<(), ArithError> {
        match (&self.d, &other.d) {
            (Some(p), Some(q)) if p != q => Err(ArithError::FieldMismatch {
                d1: p.to_string(),
                d2: q.to_string(),
            }),
            _ => Ok(()),
        }
    }
    /// `(a + b√d)/(c + e√d) = (a + b√d)(c − e√d)/(c² − e²d)`.
    fn checked_div(&self, rhs: &Self) -> Result<Self, ArithError> {
        let Some(d) = field(self, rhs) else {
            if rhs.a.cmp0().is_eq() {
                return Err(ArithError::DivisionByZero);
            }
            return Ok(Quadratic::rational(Rational::from(&self.a / &rhs.a)));
        };
        if rhs.d.is_none() {
            // A rational divisor: divide both coefficients (b/c ≠ 0, the field stays).
            if rhs.a.cmp0().is_eq() {
                return Err(ArithError::DivisionByZero);
            }
            return Ok(Quadratic {
                a: Rational::from(&self.a / &rhs.a),
                b: Rational::from(&self.b / &rhs.a),
                d: Some(d.clone()),
            });
        }
        let n = rhs.norm();
        if n.cmp0().is_eq() {
            // d is not a square, so the norm vanishes only at 0.
            return Err(ArithError::DivisionByZero);
        }
        // (a + b√d)(c − e√d) = (ac − bed) + (bc − ae)√d
        let mut a = Rational::from(&self.a * &rhs.a);
        let mut b = Rational::from(&self.a * &rhs.b);
        b.neg_assign();
        if self.d.is_some() {
            let mut bed = Rational::from(&self.b * &rhs.b);
            bed *= &**d;
            a -= bed;
            b += Rational::from(&self.b * &rhs.a);
        }
        a /= &n;
        b /= &n;
        Ok(Quadratic::from_parts(a, b, Some(d.clone())))
    }
    fn sign(&self) -> Sign {
        let (sa, sb) = (rat_sign(&self.a), rat_sign(&self.b));
        let s = if sb == 0 || sa == sb {
            if sa == 0 {
                sb
            } else {
                sa
            }
        } else if sa == 0 {
            sb
        } else if self.a_dominates() {
            // |a| > |b|√d
            sa
        } else {
            sb
        };
        match s {
            1 => Sign::Positive,
            -1 => Sign::Negative,
            _ => Sign::Zero,
        }
    }
    /// Exact square root when it lies in Q or in Q(√d): for `α = a + b√d` with `b ≠ 0`,
    /// `(x + y√d)² = α` needs the norm `a² − b²d = n²` and `x² = (a ± n)/2` rational squares.
    fn sqrt(&self) -> Result<Self, ArithError> {
        match self.sign() {
            Sign::Negative => {
                return Err(ArithError::Domain(format!(
                    "square root of a negative number: {self}"
                )))
            }
            Sign::Zero => return Ok(self.clone()),
            _ => {}
        }
        if self.d.is_none() {
            return Ok(Quadratic::sqrt_rational(&self.a));
        }
        let not_here = || {
            ArithError::NotRepresentable {
            what: format!("sqrt({self})"),
            backend: Self::NAME,
            hint: "it does not lie in this quadratic field; use an enclosure backend: --arith interval or --arith mpi:BITS".into(),
        }
        };
        let n = rational_sqrt(&self.norm()).ok_or_else(not_here)?;
        let halves = [
            Rational::from(&self.a + &n) >> 1u32,
            Rational::from(&self.a - &n) >> 1u32,
        ];
        for x2 in halves {
            let Some(x) = rational_sqrt(&x2) else {
                continue;
            };
            if x.cmp0().is_eq() {
                continue;
            }
            let y = Rational::from(&self.b / &x) >> 1u32;
            let cand = Quadratic::from_parts(x, y, self.d.clone());
            if &cand.square() == self {
                return Ok(if cand.sign() == Sign::Negative {
                    -cand
                } else {
                    cand
                });
            }
        }
        Err(not_here())
    }
    /// A rational root where it is rational; else through square roots
    /// ([`root_by_square_roots`](super::root_by_square_roots)).
    fn root(&self, k: u32) -> Result<Self, ArithError> {
        if self.d.is_none() && k % 2 == 1 {
            if let Some(r) = super::rational_root(&self.a, k) {
                return Ok(Quadratic::from_parts(r, Rational::new(), None));
            }
        }
        super::root_by_square_roots(self, k)
    }
    fn to_f64(&self) -> f64 {
        match &self.d {
            None => rug::Float::with_val(53, &self.a).to_f64(),
            Some(_) => self.to_mp_interval(BOUND_PREC).to_f64(),
        }
    }
    fn enclosure(&self) -> Option<(f64, f64)> {
        self.to_mp_interval(BOUND_PREC).enclosure()
    }
    fn rational_bounds(&self) -> Option<(BigRational, BigRational)> {
        self.to_mp_interval(BOUND_PREC).rational_bounds()
    }
    fn render(&self) -> Rendered {
        let v = self.to_string();
        Rendered {
            value: v.clone(),
            bounds: Some((v.clone(), v)),
        }
    }
    fn exact_digits(&self) -> u64 {
        let bits = |q: &Rational| {
            u64::from(q.numer().significant_bits()) + u64::from(q.denom().significant_bits())
        };
        ((bits(&self.a) + bits(&self.b)) as f64 * std::f64::consts::LOG10_2).ceil() as u64
    }
    fn num(&self) -> super::Num {
        let value = match &self.d {
            None => super::ExactValue::Rational(self.a.clone()),
            Some(d) => super::ExactValue::Quadratic {
                a: self.a.clone(),
                b: self.b.clone(),
                d: (**d).clone(),
            },
        };
        super::Num::Exact {
            expr: self.to_string(),
            value,
        }
    }
    fn pi(_ctx: &()) -> Result<Self, ArithError> {
        Err(not_representable("pi", Self::NAME))
    }
    fn sin(&self) -> Result<Self, ArithError> {
        Err(not_representable(&format!("sin({self})"), Self::NAME))
    }
    fn cos(&self) -> Result<Self, ArithError> {
        Err(not_representable(&format!("cos({self})"), Self::NAME))
    }
    fn tan(&self) -> Result<Self, ArithError> {
        Err(not_representable(&format!("tan({self})"), Self::NAME))
    }
    fn atan(&self) -> Result<Self, ArithError> {
        Err(not_representable(&format!("atan({self})"), Self::NAME))
    }
    fn add_r(&self, rhs: &Self) -> Self {
        let a = Rational::from(&self.a + &rhs.a);
        match (&self.d, &rhs.d) {
            (None, None) => Quadratic::rational(a),
            (Some(d), None) => Quadratic {
                a,
                b: self.b.clone(),
                d: Some(d.clone()),
            },
            (None, Some(d)) => Quadratic {
                a,
                b: rhs.b.clone(),
                d: Some(d.clone()),
            },
            (Some(p), Some(q)) => {
                same_field(p, q);
                Quadratic::from_parts(a, Rational::from(&self.b + &rhs.b), Some(p.clone()))
            }
        }
    }
    fn sub_r(&self, rhs: &Self) -> Self {
        let a = Rational::from(&self.a - &rhs.a);
        match (&self.d, &rhs.d) {
            (None, None) => Quadratic::rational(a),
            (Some(d), None) => Quadratic {
                a,
                b: self.b.clone(),
                d: Some(d.clone()),
            },
            (None, Some(d)) => Quadratic {
                a,
                b: Rational::from(-&rhs.b),
                d: Some(d.clone()),
            },
            (Some(p), Some(q)) => {
                same_field(p, q);
                Quadratic::from_parts(a, Rational::from(&self.b - &rhs.b), Some(p.clone()))
            }
        }
    }
    fn mul_r(&self, rhs: &Self) -> Self {
        let a = Rational::from(&self.a * &rhs.a);
        match (&self.d, &rhs.d) {
            (None, None) => Quadratic::rational(a),
            (Some(d), None) => {
                Quadratic::from_parts(a, Rational::from(&self.b * &rhs.a), Some(d.clone()))
            }
            (None, Some(d)) => {
                Quadratic::from_parts(a, Rational::from(&self.a * &rhs.b), Some(d.clone()))
            }
            (Some(p), Some(q)) => {
                same_field(p, q);
                let mut a = a;
                let mut t = Rational::from(&self.b * &rhs.b);
                t *= &**p;
                a += &t;
                t.assign(&self.a * &rhs.b);
                let mut b = Rational::from(&self.b * &rhs.a);
                b += &t;
                Quadratic::from_parts(a, b, Some(p.clone()))
            }
        }
    }
    /// `(a + b√d)² = (a² + b²d) + 2ab√d`.
    fn square(&self) -> Self {
        let mut a = Rational::from(self.a.square_ref());
        match &self.d {
            None => Quadratic::rational(a),
            Some(d) => {
                let mut t = Rational::from(self.b.square_ref());
                t *= &**d;
                a += t;
                let b = Rational::from(&self.a * &self.b) << 1u32;
                Quadratic::from_parts(a, b, Some(d.clone()))
            }
        }
    }
}

/// Square root of a rational, if it is rational.
fn rational_sqrt(q: &Rational) -> Option<Rational> {
    if q.cmp0().is_lt() {
        return None;
    }
    Some(Rational::from((
        exact_isqrt(q.numer())?,
        exact_isqrt(q.denom())?,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Rational {
        Rational::from((n, d))
    }
    fn el(a: (i64, i64), b: (i64, i64), d: i64) -> Quadratic {
        Quadratic::new(q(a.0, a.1), q(b.0, b.1), &Integer::from(d)).unwrap()
    }
    fn r(n: i64) -> Quadratic {
        Quadratic::rational(q(n, 1))
    }

    #[test]
    fn one_plus_root_two_squared() {
        let x = el((1, 1), (1, 1), 2);
        let y = x.square();
        assert_eq!(y, el((3, 1), (2, 1), 2));
        assert_eq!(y.to_string(), "3+2*sqrt(2)");
        assert_eq!(y.sqrt().unwrap(), x);
    }

    #[test]
    fn squarefree_normalisation() {
        assert_eq!(r(8).sqrt().unwrap(), el((0, 1), (2, 1), 2));
        assert_eq!(r(8).sqrt().unwrap().to_string(), "2*sqrt(2)");
        assert_eq!(
            Quadratic::rational(q(1, 2)).sqrt().unwrap().to_string(),
            "1/2*sqrt(2)"
        );
        assert_eq!(
            Quadratic::rational(q(9, 4)).sqrt().unwrap(),
            Quadratic::rational(q(3, 2))
        );
        assert_eq!(
            squarefree_split(&Integer::from(720)),
            (Integer::from(12), Integer::from(5))
        );
        assert_eq!(el((0, 1), (1, 1), 4), r(2));
    }

    #[test]
    fn exact_sign() {
        assert_eq!(el((3, 1), (-2, 1), 2).sign(), Sign::Positive); // 3 − 2√2 ≈ 0.17
        assert_eq!(el((-3, 1), (2, 1), 2).sign(), Sign::Negative);
        assert_eq!(el((1, 1), (-1, 1), 2).sign(), Sign::Negative); // 1 − √2
        assert_eq!(el((7, 5), (-1, 1), 2).sign(), Sign::Negative); // 1.4 − √2
        assert_eq!(el((0, 1), (1, 1), 3).sign(), Sign::Positive);
        assert_eq!(
            (el((1, 1), (1, 1), 3) - el((1, 1), (1, 1), 3)).sign(),
            Sign::Zero
        );
    }

    #[test]
    fn exact_division() {
        // 1/(1+√2) = √2 − 1
        let x = r(1).checked_div(&el((1, 1), (1, 1), 2)).unwrap();
        assert_eq!(x, el((-1, 1), (1, 1), 2));
        assert_eq!(x.to_string(), "-1+sqrt(2)");
        assert_eq!(x.checked_div(&r(0)), Err(ArithError::DivisionByZero));
        // √3/3 = 1/√3
        let s3 = r(3).sqrt().unwrap();
        assert_eq!(r(1).checked_div(&s3).unwrap().to_string(), "1/3*sqrt(3)");
    }

    #[test]
    fn fields_do_not_mix() {
        let a = r(2).sqrt().unwrap();
        let b = r(3).sqrt().unwrap();
        assert!(matches!(
            a.compatible(&b),
            Err(ArithError::FieldMismatch { .. })
        ));
        assert!(a.compatible(&r(5)).is_ok());
    }

    #[test]
    fn irrational_roots_refused() {
        let e = el((2, 1), (1, 1), 3).sqrt().unwrap_err(); // (√6+√2)/2 ∉ Q(√3)
        assert!(matches!(e, ArithError::NotRepresentable { .. }));
        let e = el((0, 1), (1, 1), 2).sqrt().unwrap_err(); // 2^(1/4)
        assert!(matches!(e, ArithError::NotRepresentable { .. }));
        assert!(matches!(r(-2).sqrt(), Err(ArithError::Domain(_))));
        // 7 − 4√3 = (2 − √3)²
        assert_eq!(
            el((7, 1), (-4, 1), 3).sqrt().unwrap(),
            el((2, 1), (-1, 1), 3)
        );
    }

    #[test]
    fn owned_and_borrowed_operators_agree() {
        let xs = [
            r(0),
            r(3),
            Quadratic::rational(q(-5, 7)),
            el((1, 1), (1, 1), 2),
            el((1, 1), (-1, 1), 2),
            el((0, 1), (3, 4), 2),
            el((-2, 3), (5, 1), 2),
        ];
        for x in &xs {
            for y in &xs {
                let sum = x.add_r(y);
                assert_eq!(x.clone() + y, sum);
                assert_eq!(x.clone() + y.clone(), sum);
                assert_eq!(y.add_r(x), sum);
                let diff = x.sub_r(y);
                assert_eq!(x.clone() - y, diff);
                assert_eq!(x.clone() - y.clone(), diff);
                assert_eq!(-y.sub_r(x), diff);
                assert_eq!(diff.add_r(y), *x);
                let prod = x.mul_r(y);
                assert_eq!(x.clone() * y, prod);
                assert_eq!(x.clone() * y.clone(), prod);
                assert_eq!(y.mul_r(x), prod);
                if x == y {
                    assert_eq!(x.square(), prod);
                }
                match prod.checked_div(y) {
                    Ok(back) => assert_eq!(back, *x),
                    Err(e) => assert_eq!((e, y.sign()), (ArithError::DivisionByZero, Sign::Zero)),
                }
                // Zero coefficients are normalised away: equality with a rational works.
                if prod.sign() == Sign::Zero {
                    assert_eq!(prod, r(0));
                }
            }
        }
        // (1 + √2)(1 − √2) = −1 leaves the field.
        assert_eq!(xs[3].mul_r(&xs[4]), r(-1));
        assert_eq!((xs[3].clone() * &xs[4]).d(), None);
        assert_eq!(xs[3].norm(), q(-1, 1));
    }

    #[test]
    fn bounds_contain_value() {
        let x = el((1, 1), (1, 1), 2);
        let (lo, hi) = x.enclosure().unwrap();
        assert!(lo <= 1.0 + 2f64.sqrt() && 1.0 + 2f64.sqrt() <= hi);
        assert!(hi - lo < 1e-15);
    }
}
