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

use super::{
    impl_ops_via_ref, not_representable, ArithError, Kind, MpInterval, Rendered, Scalar, Sign,
};
use crate::arith::rational::exact_isqrt;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::fmt;
use std::sync::Arc;

/// `a + b√d`, exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quadratic {
    a: BigRational,
    b: BigRational,
    d: Option<Arc<BigInt>>,
}

/// Precision used to bound elements for `to_f64` and `enclosure`.
const BOUND_PREC: u32 = 128;

impl Quadratic {
    /// The rational `q`.
    pub fn rational(q: BigRational) -> Self {
        Quadratic {
            a: q,
            b: BigRational::zero(),
            d: None,
        }
    }
    /// `a + b√d`; `d` is reduced to its square-free part (and the element to a rational
    /// when `d` is a square). An error if `d < 0`.
    pub fn new(a: BigRational, b: BigRational, d: &BigInt) -> Result<Self, ArithError> {
        if d.is_negative() {
            return Err(ArithError::Domain(format!(
                "square root of a negative number: {d}"
            )));
        }
        let (s, r) = squarefree_split(d);
        Ok(Self::normalized(a, b * BigRational::from_integer(s), r))
    }
    fn normalized(a: BigRational, b: BigRational, d: BigInt) -> Self {
        if b.is_zero() || d.is_zero() {
            Quadratic::rational(a)
        } else if d.is_one() {
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
    pub fn a(&self) -> &BigRational {
        &self.a
    }
    /// The coefficient `b` of √d.
    pub fn b(&self) -> &BigRational {
        &self.b
    }
    /// The field's `d`, or `None` for a rational element.
    pub fn d(&self) -> Option<&BigInt> {
        self.d.as_deref()
    }
    /// The value as a rational, if `b = 0`.
    pub fn as_rational(&self) -> Option<&BigRational> {
        self.d.is_none().then_some(&self.a)
    }
    /// The common field of two elements (the invariant: never two different fields).
    fn field(x: &Self, y: &Self) -> Option<Arc<BigInt>> {
        match (&x.d, &y.d) {
            (Some(p), Some(q)) => {
                assert!(
                    p == q,
                    "impactkit bug: Q(sqrt({p})) and Q(sqrt({q})) mixed; inputs must be checked with Scalar::compatible"
                );
                Some(p.clone())
            }
            (Some(p), None) | (None, Some(p)) => Some(p.clone()),
            (None, None) => None,
        }
    }
    fn from_parts(a: BigRational, b: BigRational, d: Option<Arc<BigInt>>) -> Self {
        match d {
            Some(d) if !b.is_zero() => Quadratic { a, b, d: Some(d) },
            _ => Quadratic::rational(a),
        }
    }
    fn d_rat(&self) -> BigRational {
        self.d
            .as_deref()
            .map(|d| BigRational::from_integer(d.clone()))
            .unwrap_or_else(BigRational::zero)
    }
    /// The field norm `a² − b²d`.
    pub fn norm(&self) -> BigRational {
        &self.a * &self.a - &self.b * &self.b * self.d_rat()
    }
    /// A rigorous MPFR enclosure of the value.
    pub fn to_mp_interval(&self, prec: u32) -> MpInterval {
        let a = MpInterval::from_rational(&self.a, &prec);
        match &self.d {
            None => a,
            Some(d) => {
                let root =
                    MpInterval::from_rational(&BigRational::from_integer((**d).clone()), &prec)
                        .sqrt()
                        .expect("d > 1 has a square root");
                a + MpInterval::from_rational(&self.b, &prec) * &root
            }
        }
    }
    /// Square root of a non-negative rational: rational, or `s√r` in the field Q(√r).
    fn sqrt_rational(q: &BigRational) -> Quadratic {
        let (s, r) = squarefree_split(&(q.numer() * q.denom()));
        let coef = BigRational::new(s, q.denom().clone());
        Self::normalized(BigRational::zero(), coef, r)
    }
}

/// `n = s²·r` with `r` square-free (up to primes above 10⁵, see the module docs); `n ≥ 0`.
pub(crate) fn squarefree_split(n: &BigInt) -> (BigInt, BigInt) {
    let mut s = BigInt::one();
    let mut r = BigInt::one();
    let mut m = n.clone();
    if m.is_zero() {
        return (BigInt::zero(), BigInt::one());
    }
    let mut p: u64 = 2;
    while p <= 100_000 {
        let pb = BigInt::from(p);
        if &pb * &pb > m {
            break;
        }
        let mut e = 0u32;
        while m.is_multiple_of(&pb) {
            m /= &pb;
            e += 1;
        }
        if e > 0 {
            s *= pb.pow(e / 2);
            if e % 2 == 1 {
                r *= &pb;
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

fn add(x: &Quadratic, y: &Quadratic) -> Quadratic {
    if let (Some(a), Some(b)) = (x.as_rational(), y.as_rational()) {
        return Quadratic::rational(a + b);
    }
    let d = Quadratic::field(x, y);
    Quadratic::from_parts(&x.a + &y.a, &x.b + &y.b, d)
}
fn sub(x: &Quadratic, y: &Quadratic) -> Quadratic {
    if let (Some(a), Some(b)) = (x.as_rational(), y.as_rational()) {
        return Quadratic::rational(a - b);
    }
    let d = Quadratic::field(x, y);
    Quadratic::from_parts(&x.a - &y.a, &x.b - &y.b, d)
}
fn mul(x: &Quadratic, y: &Quadratic) -> Quadratic {
    match (x.as_rational(), y.as_rational()) {
        (Some(a), Some(b)) => return Quadratic::rational(a * b),
        (Some(a), None) => return Quadratic::from_parts(a * &y.a, a * &y.b, y.d.clone()),
        (None, Some(b)) => return Quadratic::from_parts(&x.a * b, &x.b * b, x.d.clone()),
        (None, None) => {}
    }
    let d = Quadratic::field(x, y);
    let dr = d
        .as_deref()
        .map(|d| BigRational::from_integer(d.clone()))
        .unwrap_or_else(BigRational::zero);
    let a = &x.a * &y.a + &x.b * &y.b * dr;
    let b = &x.a * &y.b + &x.b * &y.a;
    Quadratic::from_parts(a, b, d)
}
fn neg(x: &Quadratic) -> Quadratic {
    Quadratic::from_parts(-&x.a, -&x.b, x.d.clone())
}
impl_ops_via_ref!(Quadratic, add, sub, mul, neg);

fn rat_sign(q: &BigRational) -> i8 {
    if q.is_positive() {
        1
    } else if q.is_negative() {
        -1
    } else {
        0
    }
}

/// `b√d` in the input language: `sqrt(3)`, `-sqrt(2)`, `5/84*sqrt(3)`.
fn root_term(b: &BigRational, d: &BigInt) -> String {
    if b.is_one() {
        format!("sqrt({d})")
    } else if (-b).is_one() {
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
                if self.a.is_zero() {
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

impl Scalar for Quadratic {
    type Ctx = ();
    const NAME: &'static str = "quadratic";

    fn kind() -> Kind {
        Kind::Exact
    }
    fn from_rational(q: &BigRational, _ctx: &()) -> Self {
        Quadratic::rational(q.clone())
    }
    fn from_i64(n: i64, _ctx: &()) -> Self {
        Quadratic::rational(BigRational::from_integer(n.into()))
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
        let n = rhs.norm();
        if n.is_zero() {
            // d is not a square, so the norm vanishes only at 0.
            return Err(ArithError::DivisionByZero);
        }
        let conj = Quadratic::from_parts(rhs.a.clone(), -&rhs.b, rhs.d.clone());
        let p = mul(self, &conj);
        Ok(Quadratic::from_parts(&p.a / &n, &p.b / &n, p.d))
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
        } else if self.norm().is_positive() {
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
        let two = BigRational::from_integer(2.into());
        for x2 in [(&self.a + &n) / &two, (&self.a - &n) / &two] {
            let Some(x) = rational_sqrt(&x2) else {
                continue;
            };
            if x.is_zero() {
                continue;
            }
            let y = &self.b / (&two * &x);
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
    fn to_f64(&self) -> f64 {
        match &self.d {
            None => super::float::rational_to_f64(&self.a),
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
        let bits = |q: &BigRational| q.numer().bits() + q.denom().bits();
        ((bits(&self.a) + bits(&self.b)) as f64 * std::f64::consts::LOG10_2).ceil() as u64
    }
    fn num(&self) -> super::Num {
        let value = match &self.d {
            None => super::ExactValue::Rational(super::rat_to_rug(&self.a)),
            Some(d) => super::ExactValue::Quadratic {
                a: super::rat_to_rug(&self.a),
                b: super::rat_to_rug(&self.b),
                d: super::big_to_rug(d),
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
}

/// Square root of a rational, if it is rational.
fn rational_sqrt(q: &BigRational) -> Option<BigRational> {
    if q.is_negative() {
        return None;
    }
    Some(BigRational::new(
        exact_isqrt(q.numer())?,
        exact_isqrt(q.denom())?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }
    fn el(a: (i64, i64), b: (i64, i64), d: i64) -> Quadratic {
        Quadratic::new(q(a.0, a.1), q(b.0, b.1), &d.into()).unwrap()
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
            squarefree_split(&BigInt::from(720)),
            (BigInt::from(12), BigInt::from(5))
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
    fn bounds_contain_value() {
        let x = el((1, 1), (1, 1), 2);
        let (lo, hi) = x.enclosure().unwrap();
        assert!(lo <= 1.0 + 2f64.sqrt() && 1.0 + 2f64.sqrt() <= hi);
        assert!(hi - lo < 1e-15);
    }
}
