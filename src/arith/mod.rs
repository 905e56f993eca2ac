//! The numeric world: the [`Scalar`] trait and its backends.
//!
//! Every impact law in this crate is written once, against [`Scalar`], and runs on
//! every backend:
//!
//! | backend | type | exactness |
//! |---|---|---|
//! | `f64` | `f64` | rounded (IEEE 754 binary64, round to nearest) |
//! | `exact` | [`Rational`] | exact (GMP `mpq_t` through rug) |
//! | `quadratic` | [`Quadratic`] | exact in one field Q(√d) (GMP) |
//! | `algebraic` | [`Algebraic`] | exact in one real number field Q(θ), θ = cos(π/N) or √r (GMP) |
//! | `mpfr:BITS` | [`Mpfr`] | rounded (MPFR, round to nearest, any precision) |
//! | `interval` | [`Interval`] | rigorous enclosure (`f64` bounds rounded outward, 53 bits) |
//! | `mpi:BITS` | [`MpInterval`] | rigorous enclosure (MPFR, directed rounding, any precision) |
//! | `symbolic` | [`Symbolic`] | exact rational functions over Q in named variables |
//!
//! Rules every backend follows:
//! * branches go through [`Scalar::sign`]; enclosures answer [`Sign::Unknown`] only when
//!   they contain 0 without being exactly 0;
//! * division by zero, or by an enclosure that contains 0, is an [`ArithError`], never a
//!   panic, never NaN;
//! * exact backends never round: a value they cannot represent is
//!   [`ArithError::NotRepresentable`].

mod algebraic;
pub mod backend;
mod convert;
pub mod decimal;
pub mod dual;
mod float;
mod interval;
mod mp_interval;
mod mpfr;
mod quadratic;
mod rational;
pub(crate) mod rounding;
pub mod symbolic;

pub use algebraic::{
    catch_field_mismatch, max_degree, set_max_degree, Algebraic, Field, FieldMismatch, Generator,
    MAX_DEGREE, MAX_TOWER_DEGREE,
};
pub use convert::{big_to_rug, float_to_rat, rat_to_rug, rug_to_big, rug_to_rat};
pub use decimal::{ExactValue, Num, TextOptions};
pub use interval::Interval;
pub use mp_interval::MpInterval;
pub use mpfr::Mpfr;
/// The big integers and rationals of the public API (`Scalar::from_rational`,
/// `Scalar::rational_bounds`, exact probes), re-exported so that a caller needs no
/// `num-bigint` or `num-rational` dependency of its own.
pub use num_bigint::BigInt;
pub use num_rational::BigRational;
pub use quadratic::Quadratic;
pub(crate) use rational::rug_f64_bounds;
pub use rational::Rational;
pub use symbolic::Symbolic;

use std::fmt::{Debug, Display};
use std::ops::{Add, Mul, Neg, Sub};

/// The outcome of a sign decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
///
/// # Example
///
/// ```
/// use impactkit::arith::{Interval, Quadratic, Scalar, Sign};
/// use impactkit::lang::eval_str;
/// let q = eval_str::<Quadratic>("sqrt(2) - 1414/1000", &Default::default()).unwrap();
/// assert_eq!(q.sign(), Sign::Positive);
/// // an enclosure that holds 0 has no decided sign
/// let i = eval_str::<Interval>("sqrt(2)^2 - 2", &()).unwrap();
/// assert_eq!(i.sign(), Sign::Unknown);
/// ```
pub enum Sign {
    Negative,
    Zero,
    Positive,
    /// The value is an enclosure that contains 0 but is not exactly 0: the sign cannot be
    /// decided at this precision.
    Unknown,
}

impl Sign {
    /// `true` only if the sign is known to be `Positive`.
    pub fn is_positive(self) -> bool {
        self == Sign::Positive
    }
    /// `true` only if the sign is known to be `Negative`.
    pub fn is_negative(self) -> bool {
        self == Sign::Negative
    }
    /// `true` only if the value is known to be exactly zero.
    pub fn is_zero(self) -> bool {
        self == Sign::Zero
    }
    /// The sign of `-x` given the sign of `x`.
    pub fn negate(self) -> Sign {
        match self {
            Sign::Negative => Sign::Positive,
            Sign::Positive => Sign::Negative,
            s => s,
        }
    }
}

/// A sign that could not be decided: the quantity and the enclosure that contains 0.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[error("the sign of {quantity} is undecided: it lies in [{lo}, {hi}]")]
pub struct Undecided {
    pub quantity: String,
    pub lo: String,
    pub hi: String,
}

/// The decided sign of `x`, or [`Undecided`] naming the quantity (never a guess).
#[inline]
pub fn decide<S: Scalar>(x: &S, quantity: &str) -> Result<Sign, Undecided> {
    match x.sign() {
        Sign::Unknown => Err(undecided(x, quantity)),
        s => Ok(s),
    }
}

/// The [`Undecided`] of `x` (kept out of the inner loops that call [`decide`]).
#[cold]
#[inline(never)]
fn undecided<S: Scalar>(x: &S, quantity: &str) -> Undecided {
    let r = x.render();
    let (lo, hi) = r.bounds.unwrap_or((r.value.clone(), r.value));
    Undecided {
        quantity: quantity.to_string(),
        lo,
        hi,
    }
}

/// The trigonometric functions a backend may hold exactly at rational multiples of π.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trig {
    Sin,
    Cos,
    Tan,
}

/// What kind of arithmetic a backend does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Rounded floating point (`f64`, `mpfr:BITS`): fast, no guarantee.
    Float,
    /// Exact (`exact`, `quadratic`): never rounds; refuses what it cannot represent.
    Exact,
    /// Rigorous enclosure (`interval`, `mpi:BITS`): the true value is always inside.
    Enclosure,
}

/// Errors of the arithmetic layer. They are values: no backend panics or produces NaN.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ArithError {
    #[error("division by zero")]
    DivisionByZero,
    #[error("division by an enclosure that contains 0: [{lo}, {hi}]")]
    DivisionByStraddling { lo: String, hi: String },
    #[error("{what} is not representable in the {backend} backend{}", hint_suffix(.hint))]
    NotRepresentable {
        what: String,
        backend: &'static str,
        hint: String,
    },
    #[error("cannot mix Q(sqrt({d1})) and Q(sqrt({d2})): the quadratic backend works in one field Q(sqrt(d)) per computation")]
    FieldMismatch { d1: String, d2: String },
    #[error("{0}")]
    Domain(String),
    #[error("{op}: the result is unbounded")]
    Unbounded { op: String },
}

impl ArithError {
    /// Whether another backend may represent what this one could not (a value outside
    /// its numbers, two fields it cannot hold at once): a ladder (`--arith certified`)
    /// moves on to its next rung instead of failing.
    pub fn climbs(&self) -> bool {
        matches!(
            self,
            ArithError::NotRepresentable { .. } | ArithError::FieldMismatch { .. }
        )
    }
}

fn hint_suffix(hint: &str) -> String {
    if hint.is_empty() {
        String::new()
    } else {
        format!(" ({hint})")
    }
}

/// A decimal or input-language rendering of a value, for reports and JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    /// Input-language string: exact for exact backends, a decimal approximation otherwise.
    pub value: String,
    /// Decimal strings that rigorously bound the value (`lo <= value <= hi`), when known.
    /// For exact values both equal `value`.
    pub bounds: Option<(String, String)>,
}

/// The arithmetic every law is written against.
///
/// Ring operations come from the operator traits (owned, and owned with a borrowed right
/// operand), so law code reads `a.clone() * &b`; the by-reference helpers [`Scalar::add_r`]
/// etc. spell the same thing without the clone at the call site.
///
/// Constants are made from an existing value with [`Scalar::lift`], so that they carry the
/// same context (MPFR precision) as the data they meet.
///
/// # Example
///
/// ```
/// use impactkit::arith::{Rational, Scalar};
/// use impactkit::lang::eval_str;
/// // the kinetic energy ½ m v², generic over the arithmetic
/// fn energy<S: Scalar>(m: &S, v: &S) -> S {
///     m.mul_r(v).mul_r(v).checked_div(&m.lift_i64(2)).unwrap()
/// }
/// let m = eval_str::<Rational>("3", &()).unwrap();
/// let v = eval_str::<Rational>("2/3", &()).unwrap();
/// assert_eq!(energy(&m, &v).to_string(), "2/3");
/// assert_eq!(energy(&3.0_f64, &0.5), 0.375);
/// ```
pub trait Scalar:
    Sized
    + Clone
    + Debug
    + Display
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
    + for<'a> Add<&'a Self, Output = Self>
    + for<'a> Sub<&'a Self, Output = Self>
    + for<'a> Mul<&'a Self, Output = Self>
{
    /// Per-computation context: the MPFR precision in bits, `()` elsewhere.
    type Ctx: Clone + Debug + Send + Sync;

    /// Backend name as used on the command line (`exact`, `mpi`, …).
    const NAME: &'static str;

    /// What kind of arithmetic this is.
    fn kind() -> Kind;

    /// `true` for exact backends.
    fn is_exact() -> bool {
        Self::kind() == Kind::Exact
    }

    /// The value `q`: exact, rounded to nearest, or enclosed, as the backend does.
    fn from_rational(q: &BigRational, ctx: &Self::Ctx) -> Self;

    /// The integer `n` (exact, rounded or enclosed); backends override this to avoid a
    /// detour through `BigRational` for the small constants laws use.
    fn from_i64(n: i64, ctx: &Self::Ctx) -> Self {
        Self::from_rational(&BigRational::from_integer(n.into()), ctx)
    }

    /// The binary number `x` is, exactly (rounded or enclosed where the backend is not
    /// exact); `None` for NaN and infinities. Exact backends override this to skip the
    /// detour through `BigRational` (`regress` converts every engine value).
    fn from_f64_exact(x: f64, ctx: &Self::Ctx) -> Option<Self> {
        rational::f64_exact(x).map(|q| Self::from_rational(&q, ctx))
    }

    /// The context this value lives in.
    fn ctx(&self) -> Self::Ctx;

    /// A constant `q` in the same context as `self`.
    fn lift(&self, q: &BigRational) -> Self {
        Self::from_rational(q, &self.ctx())
    }

    /// The integer constant `n` in the same context as `self`.
    fn lift_i64(&self, n: i64) -> Self {
        Self::from_i64(n, &self.ctx())
    }

    /// Zero in the same context as `self`.
    fn zero_like(&self) -> Self {
        self.lift_i64(0)
    }

    /// One in the same context as `self`.
    fn one_like(&self) -> Self {
        self.lift_i64(1)
    }

    /// `self / rhs`; an error if `rhs` is 0 or an enclosure containing 0.
    fn checked_div(&self, rhs: &Self) -> Result<Self, ArithError>;

    /// The sign, decided exactly where possible; `Unknown` only for enclosures that contain
    /// 0 without being exactly 0.
    fn sign(&self) -> Sign;

    /// `true` when the value is a nonzero element of the backend's field even where its
    /// sign is `Unknown`: a rational function that is not the zero function (Gaussian
    /// elimination over the field of rational functions may divide by it). The default,
    /// for numbers and enclosures, is a decided nonzero sign.
    fn nonzero_in_field(&self) -> bool {
        matches!(self.sign(), Sign::Positive | Sign::Negative)
    }

    /// `|self|` where the sign of `self` is not decided, as a value of the backend (the
    /// symbolic backend's radical |x| = √(x²), see `symbolic::with_radicals`); `None`
    /// (the default) lets the caller take √(x²) with its square root.
    fn abs_undecided(&self) -> Option<Self> {
        None
    }

    /// Square root; `NotRepresentable` for exact backends when the root is irrational (or
    /// outside the field), `Domain` for a negative argument.
    fn sqrt(&self) -> Result<Self, ArithError>;

    /// The real `k`-th root (`root(x, k)` of the input language): the non-negative root of
    /// `x ≥ 0`, and `−root(−x, k)` for `x < 0` and odd `k`; `Domain` for `x < 0` and even
    /// `k`, and for `k = 0`. The default, [`root_by_square_roots`], takes square roots
    /// (`k` a power of two) and is `NotRepresentable` for other `k` unless the backend
    /// overrides it.
    fn root(&self, k: u32) -> Result<Self, ArithError> {
        root_by_square_roots(self, k)
    }

    /// Nearest `f64` (the midpoint for enclosures).
    fn to_f64(&self) -> f64;

    /// Rigorous `f64` bounds `lo <= value <= hi`, where the backend knows them (exact
    /// backends and enclosures; `None` for rounded floating point).
    fn enclosure(&self) -> Option<(f64, f64)>;

    /// Rigorous rational bounds, where the backend knows them exactly.
    fn rational_bounds(&self) -> Option<(BigRational, BigRational)>;

    /// Input-language / decimal rendering for reports.
    fn render(&self) -> Rendered;

    /// The value as reports carry it ([`Num`]): exact with its form, rounded, or an
    /// enclosure. The default reads [`Scalar::render`]; backends with more to say (the
    /// numeric value behind the string) override it.
    fn num(&self) -> Num {
        let r = self.render();
        match (Self::kind(), r.bounds) {
            (Kind::Exact, _) => Num::Exact {
                value: match self.rational_bounds() {
                    Some((lo, hi)) if lo == hi => ExactValue::Rational(rat_to_rug(&lo)),
                    _ => ExactValue::Symbolic,
                },
                expr: r.value,
            },
            (Kind::Enclosure, Some((lo, hi))) => {
                let f = |s: &str| rug::Float::parse(s).map(|p| rug::Float::with_val(256, p));
                match (f(&lo), f(&hi)) {
                    (Ok(lo), Ok(hi)) => Num::Enclosure { lo, hi },
                    _ => Num::Approx(rug::Float::with_val(53, self.to_f64())),
                }
            }
            _ => Num::Approx(rug::Float::with_val(53, self.to_f64())),
        }
    }

    /// Checks that `self` and `other` can meet in one operation (the quadratic backend
    /// refuses to mix two fields). Every other backend answers `Ok`.
    fn compatible(&self, _other: &Self) -> Result<(), ArithError> {
        Ok(())
    }

    /// sin, cos or tan of the rational multiple qπ where the backend holds it exactly
    /// beyond the quadratic table of the input language (the algebraic backend: every
    /// such value of moderate degree); `None` (the default) where it does not.
    fn trig_pi(_f: Trig, _q: &BigRational, _ctx: &Self::Ctx) -> Option<Result<Self, ArithError>> {
        None
    }

    /// π, where the backend can represent it.
    fn pi(ctx: &Self::Ctx) -> Result<Self, ArithError>;
    /// sin, where the backend can represent the result.
    fn sin(&self) -> Result<Self, ArithError>;
    /// cos, where the backend can represent the result.
    fn cos(&self) -> Result<Self, ArithError>;
    /// tan, where the backend can represent the result.
    fn tan(&self) -> Result<Self, ArithError>;
    /// atan, where the backend can represent the result.
    fn atan(&self) -> Result<Self, ArithError>;

    /// `self + rhs` without consuming either.
    fn add_r(&self, rhs: &Self) -> Self {
        self.clone() + rhs
    }
    /// `self - rhs` without consuming either.
    fn sub_r(&self, rhs: &Self) -> Self {
        self.clone() - rhs
    }
    /// `self * rhs` without consuming either.
    fn mul_r(&self, rhs: &Self) -> Self {
        self.clone() * rhs
    }
    /// `self · ½`, the multiplication by the lifted rational ½ (a backend may override it
    /// with the same value computed without lifting ½).
    fn halve(&self) -> Self {
        static HALF: std::sync::LazyLock<BigRational> =
            std::sync::LazyLock::new(|| BigRational::new(1.into(), 2.into()));
        self.mul_r(&self.lift(&HALF))
    }
    /// `self²`.
    fn square(&self) -> Self {
        self.clone() * self
    }
    /// `1 / self`.
    fn recip(&self) -> Result<Self, ArithError> {
        self.one_like().checked_div(self)
    }
    /// Integer power `self^n` (negative `n` through [`Scalar::recip`]).
    fn powi(&self, n: i64) -> Result<Self, ArithError> {
        powi_by_squaring(self, n)
    }

    /// Splits a direction `v` as `t·w` with an exact scale `t > 0`, replacing `v` by `w`,
    /// and returns `t`; `None` means `t = 1` and `v` unchanged (the default, and what every
    /// rounded or enclosing backend answers).
    ///
    /// Drivers of positively homogeneous laws of degree 1 (`f(t·w) = t·f(w)` for `t > 0`:
    /// every corner rule of Fassino–Pasquero (2020), eqs. (3), (6), (8), (13), (14), and
    /// Pasquero's rule (10)) iterate on `w` and multiply the scales, which gives the same
    /// exact result with smaller numbers. Exact rationals clear the denominators and remove
    /// the common power of two of the numerators; with `full` they remove the whole
    /// content (a gcd of big numbers, which callers do now and then, not at every step).
    fn split_scale(_v: &mut [Self], _full: bool) -> Option<Self> {
        None
    }

    /// The smallest enclosure of both values (the convex hull) on enclosure backends;
    /// `None` elsewhere (a point value cannot stand for a range). Used to evaluate a
    /// function rigorously over a whole interval of its argument (root isolation).
    fn hull_with(&self, _other: &Self) -> Option<Self> {
        None
    }

    /// Decimal digits of the exact representation (numerators and denominators
    /// together), the measure of the work limits of exact runs; 0 for fixed-size
    /// backends (floats, intervals), whose work does not grow.
    fn exact_digits(&self) -> u64 {
        0
    }

    /// Bits an exact inversion of this value processes beyond its own size, charged to
    /// the input language's work limit (50,000,000 operand bits, docs/conventions.md)
    /// before a division: 0 where an inversion is one operation on the value (rationals,
    /// Q(√d), rounded and enclosure backends).
    fn inverse_work_bits(&self) -> u64 {
        0
    }

    /// Decimal digits of the exact representation itself (the size an input may have);
    /// [`Scalar::exact_digits`] except where that measure weighs the work of an
    /// operation (the algebraic backend multiplies it by the field's degree).
    fn size_digits(&self) -> u64 {
        self.exact_digits()
    }

    /// Decimal digits one operation on this value handles: [`Scalar::exact_digits`] for
    /// exact backends, the precision for MPFR ones (whose every operation costs it), 0 for
    /// hardware floats. The measure of the searches' work limits.
    fn work_digits(&self) -> u64 {
        self.exact_digits()
    }
}

/// `x^n` by repeated squaring (negative `n` through [`Scalar::recip`]).
pub fn powi_by_squaring<S: Scalar>(x: &S, n: i64) -> Result<S, ArithError> {
    let mut b = if n < 0 { x.recip()? } else { x.clone() };
    let mut e = n.unsigned_abs();
    let mut acc = x.one_like();
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * &b;
        }
        e >>= 1;
        if e > 0 {
            b = b.square();
        }
    }
    Ok(acc)
}

/// The real `k`-th root through square roots and the sign rule of [`Scalar::root`]:
/// `root(x, 2k) = √root(x, k)`, `root(x, 1) = x`; other odd `k > 1` are
/// `NotRepresentable` (an exact backend without k-th roots).
pub fn root_by_square_roots<S: Scalar>(x: &S, k: u32) -> Result<S, ArithError> {
    match k {
        0 => Err(ArithError::Domain("root(x, 0) is undefined".into())),
        1 => Ok(x.clone()),
        _ if k.is_multiple_of(2) => {
            if x.sign() == Sign::Negative {
                return Err(ArithError::Domain(format!(
                    "even root (k = {k}) of a negative number: {}",
                    x.render().value
                )));
            }
            root_by_square_roots(x, k / 2)?.sqrt()
        }
        _ if x.sign() == Sign::Zero => Ok(x.clone()),
        _ => Err(ArithError::NotRepresentable {
            what: format!("root({}, {k})", x.render().value),
            backend: S::NAME,
            hint: match S::NAME {
                "algebraic" => "this backend takes odd roots of rationals only; use an enclosure backend: --arith interval or --arith mpi:BITS",
                _ => "use --arith algebraic, or an enclosure backend: --arith interval or --arith mpi:BITS",
            }
            .into(),
        }),
    }
}

/// The real `k`-th root of a rational where it is rational (`None` otherwise, and for
/// `x < 0` with even `k`).
pub fn rational_root(x: &rug::Rational, k: u32) -> Option<rug::Rational> {
    if k == 0 || (x.cmp0().is_lt() && k.is_multiple_of(2)) {
        return None;
    }
    let exact = |n: &rug::Integer| {
        use rug::ops::Pow;
        let a = rug::Integer::from(n.abs_ref());
        let r = a.clone().root(k);
        (rug::Integer::from((&r).pow(k)) == a).then_some(r)
    };
    let (n, d) = (exact(x.numer())?, exact(x.denom())?);
    let r = rug::Rational::from((n, d));
    Some(if x.cmp0().is_lt() { -r } else { r })
}

/// Checks that all values can meet in one computation (every pair is
/// [`Scalar::compatible`]): the quadratic backend needs a single field Q(√d).
pub fn check_compatible<S: Scalar>(xs: &[&S]) -> Result<(), ArithError> {
    for (i, a) in xs.iter().enumerate() {
        for b in &xs[i + 1..] {
            a.compatible(b)?;
        }
    }
    Ok(())
}

/// `NotRepresentable` for a transcendental operation of an exact backend.
pub(crate) fn not_representable(what: &str, backend: &'static str) -> ArithError {
    ArithError::NotRepresentable {
        what: what.to_string(),
        backend,
        hint: "use an enclosure backend: --arith interval or --arith mpi:BITS".to_string(),
    }
}

/// Implements the owned operator traits of a backend from three by-reference functions.
macro_rules! impl_ops_via_ref {
    ($t:ty, $add:path, $sub:path, $mul:path, $neg:path) => {
        impl std::ops::Add for $t {
            type Output = $t;
            fn add(self, rhs: $t) -> $t {
                $add(&self, &rhs)
            }
        }
        impl<'a> std::ops::Add<&'a $t> for $t {
            type Output = $t;
            fn add(self, rhs: &'a $t) -> $t {
                $add(&self, rhs)
            }
        }
        impl std::ops::Sub for $t {
            type Output = $t;
            fn sub(self, rhs: $t) -> $t {
                $sub(&self, &rhs)
            }
        }
        impl<'a> std::ops::Sub<&'a $t> for $t {
            type Output = $t;
            fn sub(self, rhs: &'a $t) -> $t {
                $sub(&self, rhs)
            }
        }
        impl std::ops::Mul for $t {
            type Output = $t;
            fn mul(self, rhs: $t) -> $t {
                $mul(&self, &rhs)
            }
        }
        impl<'a> std::ops::Mul<&'a $t> for $t {
            type Output = $t;
            fn mul(self, rhs: &'a $t) -> $t {
                $mul(&self, rhs)
            }
        }
        impl std::ops::Neg for $t {
            type Output = $t;
            fn neg(self) -> $t {
                $neg(&self)
            }
        }
    };
}
pub(crate) use impl_ops_via_ref;
