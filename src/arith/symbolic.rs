//! The symbolic backend: rational functions over Q in named variables.
//!
//! A [`Symbolic`] value is `num/den` with `num`, `den` multivariate polynomials over Q
//! ([`Poly`]). No polynomial GCD is computed: two values are identical when their
//! cross-multiplied numerators agree as expanded polynomials (`a/b = c/d ⇔ ad = cb`).
//! Trivial cancellations keep expressions small: constant denominators are folded into the
//! numerator, common monomial factors are removed, equal denominators are added directly,
//! and a numerator proportional to its denominator collapses to a constant.
//!
//! Laws run on this backend unchanged when their zone is fixed by hypothesis: `sign()` is
//! exact for constants and [`Sign::Unknown`] otherwise, so a law that branches on a
//! non-constant value answers `Undecided` instead of guessing. The result of a zone
//! formula is then its closed form, e.g. (13b) of Fassino–Pasquero (2020).

mod identity;
pub mod poly;

pub use identity::{compare, identical_under, IdentityOutcome};
pub use poly::Poly;

use super::{impl_ops_via_ref, not_representable, ArithError, Kind, Rendered, Scalar, Sign};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::fmt;

/// Largest |n| in `p^n` when `p` has more than one term: `(a+b)^1000` has 1001 terms of
/// up to 1000 bits; much more would exhaust time and memory.
pub const MAX_EXPANSION_EXPONENT: u64 = 1000;

/// A rational function `num/den` over Q; `den` is never the zero polynomial.
#[derive(Clone, Debug)]
pub struct Symbolic {
    num: Poly,
    den: Poly,
}

/// `Some(c)` with `p = c·q` (q ≠ 0), when the two polynomials are proportional.
fn ratio(p: &Poly, q: &Poly) -> Option<BigRational> {
    if p.term_count() != q.term_count() || q.is_zero() {
        return None;
    }
    let c = p.leading_coefficient() / q.leading_coefficient();
    (q.scale(&c) == *p).then_some(c)
}

impl Symbolic {
    /// `num/den` in normal form; `DivisionByZero` if `den` is the zero polynomial.
    pub fn from_parts(num: Poly, den: Poly) -> Result<Symbolic, ArithError> {
        if den.is_zero() {
            return Err(ArithError::DivisionByZero);
        }
        Ok(Self::normalize(num, den))
    }
    /// The trivial cancellations described in the module documentation.
    fn normalize(num: Poly, den: Poly) -> Symbolic {
        if num.is_zero() {
            return Symbolic::constant(&BigRational::zero());
        }
        if let Some(c) = ratio(&num, &den) {
            return Symbolic::constant(&c);
        }
        let (cn, cd) = (num.monomial_content(), den.monomial_content());
        let common: poly::Monomial = cn
            .iter()
            .filter_map(|(x, e)| {
                cd.iter()
                    .find(|(y, _)| y == x)
                    .map(|(_, f)| (x.clone(), (*e).min(*f)))
            })
            .collect();
        let (num, den) = if common.is_empty() {
            (num, den)
        } else {
            (num.div_monomial(&common), den.div_monomial(&common))
        };
        if let Some(c) = den.as_constant() {
            return Symbolic {
                num: num.scale(&c.recip()),
                den: Poly::constant(&BigRational::one()),
            };
        }
        let inv = den.leading_coefficient().recip();
        Symbolic {
            num: num.scale(&inv),
            den: den.scale(&inv),
        }
    }
    /// The variable `name`.
    pub fn var(name: &str) -> Symbolic {
        Symbolic {
            num: Poly::var(name),
            den: Poly::constant(&BigRational::one()),
        }
    }
    /// The constant `q`.
    pub fn constant(q: &BigRational) -> Symbolic {
        Symbolic {
            num: Poly::constant(q),
            den: Poly::constant(&BigRational::one()),
        }
    }
    /// The numerator (denominators are normalised: constant 1, or leading coefficient 1).
    pub fn numerator(&self) -> &Poly {
        &self.num
    }
    /// The denominator.
    pub fn denominator(&self) -> &Poly {
        &self.den
    }
    /// The value if it does not depend on any variable.
    pub fn is_constant(&self) -> Option<BigRational> {
        let n = self.num.as_constant()?;
        let d = self.den.as_constant()?;
        Some(n / d)
    }
    /// The variables that occur (in the numerator or the denominator), sorted.
    pub fn variables(&self) -> Vec<String> {
        let mut v = self.num.variables();
        v.extend(self.den.variables());
        v.sort();
        v.dedup();
        v
    }
    /// `self` and `other` agree as rational functions: num·other.den = other.num·den.
    pub fn is_identical(&self, other: &Symbolic) -> bool {
        self.num.mul(&other.den) == other.num.mul(&self.den)
    }
    /// Replaces the variable `var` by `by` (a rational function): for `by = p/q` and
    /// `self = N/D`, `N(p/q) = N'/q^n`, `D(p/q) = D'/q^d`, and the result is
    /// `N'·q^d / (D'·q^n)`. `DivisionByZero` if the denominator becomes 0.
    pub fn substitute(&self, var: &str, by: &Symbolic) -> Result<Symbolic, ArithError> {
        let (n, dn) = self.num.substitute(var, &by.num, &by.den);
        let (d, dd) = self.den.substitute(var, &by.num, &by.den);
        if d.is_zero() {
            return Err(ArithError::DivisionByZero);
        }
        let (n, d) = if dn >= dd {
            (n, d.mul(&by.den.pow(dn - dd)))
        } else {
            (n.mul(&by.den.pow(dd - dn)), d)
        };
        Symbolic::from_parts(n, d)
    }
    /// The exact value at a rational point. A variable without a value is a `Domain`
    /// error; a denominator that vanishes there is `DivisionByZero`.
    pub fn eval_rational(
        &self,
        assignment: &[(String, BigRational)],
    ) -> Result<BigRational, ArithError> {
        let value = |x: &str| {
            assignment
                .iter()
                .find(|(y, _)| y == x)
                .map(|(_, q)| q.clone())
        };
        let missing = |x: String| ArithError::Domain(format!("the variable {x} has no value"));
        let n = self.num.eval(&value).map_err(missing)?;
        let d = self.den.eval(&value).map_err(missing)?;
        if d.is_zero() {
            return Err(ArithError::DivisionByZero);
        }
        Ok(n / d)
    }
    /// Input-language rendering that re-parses to the same value: `num` when the
    /// denominator is 1, else `num/den` with parentheses around a sum above and around
    /// anything but a single power below (`1/2*x/y`, `(x + y)/(x*y)`, `-x/(k^2 + 1)`).
    pub fn render_string(&self) -> String {
        let num = self.num.render();
        if self.den.as_constant().is_some() {
            return num;
        }
        let den = self.den.render();
        let num = if self.num.is_monomial() {
            num
        } else {
            format!("({num})")
        };
        if den.contains(['*', '/', ' ']) {
            format!("{num}/({den})")
        } else {
            format!("{num}/{den}")
        }
    }
    fn unit_one(&self) -> bool {
        self.den.as_constant().is_some_and(|c| c.is_one())
    }
}

impl PartialEq for Symbolic {
    /// Equality of rational functions (not of representations).
    fn eq(&self, other: &Self) -> bool {
        self.is_identical(other)
    }
}

impl fmt::Display for Symbolic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.render_string())
    }
}

/// a/b + c/d: `(a + c)/b` when b = d, `(ad + cb)/(bd)` otherwise.
fn add(a: &Symbolic, b: &Symbolic) -> Symbolic {
    if a.den == b.den {
        return Symbolic::normalize(a.num.add(&b.num), a.den.clone());
    }
    if a.unit_one() {
        return Symbolic::normalize(a.num.mul(&b.den).add(&b.num), b.den.clone());
    }
    if b.unit_one() {
        return Symbolic::normalize(a.num.add(&b.num.mul(&a.den)), a.den.clone());
    }
    Symbolic::normalize(a.num.mul(&b.den).add(&b.num.mul(&a.den)), a.den.mul(&b.den))
}
fn neg(a: &Symbolic) -> Symbolic {
    Symbolic {
        num: a.num.neg(),
        den: a.den.clone(),
    }
}
fn sub(a: &Symbolic, b: &Symbolic) -> Symbolic {
    add(a, &neg(b))
}
/// (a/b)(c/d) = ac/(bd), cancelling a factor that appears above and below.
fn mul(a: &Symbolic, b: &Symbolic) -> Symbolic {
    mul_parts(&a.num, &a.den, &b.num, &b.den)
}
fn mul_parts(an: &Poly, ad: &Poly, bn: &Poly, bd: &Poly) -> Symbolic {
    if let Some(c) = ratio(an, bd) {
        return Symbolic::normalize(bn.scale(&c), ad.clone());
    }
    if let Some(c) = ratio(bn, ad) {
        return Symbolic::normalize(an.scale(&c), bd.clone());
    }
    Symbolic::normalize(an.mul(bn), ad.mul(bd))
}
impl_ops_via_ref!(Symbolic, add, sub, mul, neg);

thread_local! {
    /// The first values whose sign `sign()` left undecided inside
    /// [`with_positive_variables`] (see [`take_undecided`]).
    static UNDECIDED: std::cell::RefCell<Vec<Symbolic>> =
        const { std::cell::RefCell::new(Vec::new()) };
    /// The variables known positive, inside [`with_positive_variables`].
    static POSITIVE_VARIABLES: std::cell::RefCell<Option<Vec<String>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` under the hypothesis that the variables `names` are positive (the open orthant
/// of a chart, see `claims::prove`): `sign()` then decides the sign of a rational function
/// of those variables only whose numerator and denominator each have coefficients of one
/// sign (a polynomial with positive coefficients is positive at every positive point).
/// Other signs stay `Unknown` (a value with another variable, mixed coefficients): the
/// oracle is sound, not complete.
pub fn with_positive_variables<T>(names: &[String], f: impl FnOnce() -> T) -> T {
    struct Reset(Option<Vec<String>>);
    impl Drop for Reset {
        fn drop(&mut self) {
            POSITIVE_VARIABLES.with(|p| *p.borrow_mut() = self.0.take());
        }
    }
    let _reset = Reset(POSITIVE_VARIABLES.with(|p| p.replace(Some(names.to_vec()))));
    f()
}

/// √(c·Π vᵉ) for a monomial with a nonnegative rational square c and even exponents,
/// where each variable whose root keeps an odd exponent is known positive (inside
/// [`with_positive_variables`]): √(v²) = v only for v > 0.
fn monomial_sqrt(p: &Poly) -> Option<Poly> {
    let mut terms = p.terms();
    let (m, c) = terms.next()?;
    if terms.next().is_some() || c.is_negative() {
        return None;
    }
    let root = super::Rational::from_big(c).sqrt().ok()?.to_big();
    let positive = POSITIVE_VARIABLES
        .with(|x| x.borrow().clone())
        .unwrap_or_default();
    let mut out = Poly::constant(&root);
    for (v, e) in m {
        if e % 2 != 0 || ((e / 2) % 2 == 1 && !positive.contains(v)) {
            return None;
        }
        out = out.mul(&Poly::var(v).pow(e / 2));
    }
    Some(out)
}

/// The first (up to 64) values whose sign was left undecided inside
/// [`with_positive_variables`] since the last call (a prover splits a cell on them).
pub fn take_undecided() -> Vec<Symbolic> {
    UNDECIDED.with(|u| std::mem::take(&mut *u.borrow_mut()))
}

/// The sign of a non-constant polynomial on the open positive orthant when all its
/// coefficients have one sign; `Unknown` otherwise.
fn poly_orthant_sign(p: &Poly) -> Sign {
    let mut signs = p.terms().map(|(_, c)| c.is_positive());
    match signs.next() {
        None => Sign::Zero,
        Some(first) if signs.all(|s| s == first) => {
            if first {
                Sign::Positive
            } else {
                Sign::Negative
            }
        }
        Some(_) => Sign::Unknown,
    }
}

/// A polynomial with mixed coefficients that is still positive on the open orthant, by
/// the arithmetic–geometric mean inequality: each negative term −a·m is dominated by two
/// positive terms b₁·m₁ + b₂·m₂ with m₁·m₂ = m² and 4·b₁'·b₂' ≥ a², where b' is the share of
/// a positive coefficient given to that negative term (shared equally among the negative
/// terms that use it). Positive when some positive share is left over or one inequality is
/// strict; `false` (no conclusion) otherwise.
fn amgm_positive(p: &Poly) -> bool {
    let terms: Vec<(&poly::Monomial, &BigRational)> = p.terms().collect();
    let (neg, pos): (Vec<_>, Vec<_>) = terms.iter().partition(|(_, c)| c.is_negative());
    if pos.is_empty() || neg.len() > 64 || pos.len() > 256 {
        return false;
    }
    let square = |m: &poly::Monomial| -> std::collections::BTreeMap<String, u32> {
        m.iter().map(|(v, e)| (v.clone(), 2 * e)).collect()
    };
    let prod = |a: &poly::Monomial, b: &poly::Monomial| {
        let mut out: std::collections::BTreeMap<String, u32> = std::collections::BTreeMap::new();
        for (v, e) in a.iter().chain(b.iter()) {
            *out.entry(v.clone()).or_default() += e;
        }
        out
    };
    // for each negative term, the first pair of positive terms whose product is its square
    let mut pairs = Vec::new();
    for (m, _) in &neg {
        let target = square(m);
        let found = (0..pos.len()).find_map(|i| {
            (i + 1..pos.len()).find_map(|j| (prod(pos[i].0, pos[j].0) == target).then_some((i, j)))
        });
        match found {
            Some(pair) => pairs.push(pair),
            None => return false,
        }
    }
    let mut uses = vec![0u32; pos.len()];
    for (i, j) in &pairs {
        uses[*i] += 1;
        uses[*j] += 1;
    }
    let mut strict = uses.contains(&0);
    for ((i, j), (_, a)) in pairs.iter().zip(&neg) {
        let b1 = pos[*i].1 / BigRational::from_integer(uses[*i].into());
        let b2 = pos[*j].1 / BigRational::from_integer(uses[*j].into());
        let lhs = BigRational::from_integer(4.into()) * b1 * b2;
        let rhs = (*a) * (*a);
        if lhs < rhs {
            return false;
        }
        strict |= lhs > rhs;
    }
    strict
}

/// The sign of `num/den` at every point of the open positive orthant, when decided by
/// the signs of the coefficients ([`poly_orthant_sign`] of both, then [`amgm_positive`]).
pub fn orthant_sign(x: &Symbolic) -> Sign {
    let one_sign = |p: &Poly| match poly_orthant_sign(p) {
        Sign::Unknown if amgm_positive(p) => Sign::Positive,
        Sign::Unknown if amgm_positive(&p.neg()) => Sign::Negative,
        s => s,
    };
    match (one_sign(&x.num), one_sign(&x.den)) {
        (Sign::Zero, _) => Sign::Zero,
        (Sign::Unknown, _) | (_, Sign::Unknown) | (_, Sign::Zero) => Sign::Unknown,
        (a, b) if a == b => Sign::Positive,
        _ => Sign::Negative,
    }
}

impl Scalar for Symbolic {
    type Ctx = ();
    const NAME: &'static str = "symbolic";

    /// Exact: nothing is rounded; what cannot be represented is refused.
    fn kind() -> Kind {
        Kind::Exact
    }
    fn from_rational(q: &BigRational, _ctx: &()) -> Self {
        Symbolic::constant(q)
    }
    fn ctx(&self) {}
    /// `DivisionByZero` only if `rhs` is the zero polynomial.
    fn checked_div(&self, rhs: &Self) -> Result<Self, ArithError> {
        if rhs.num.is_zero() {
            return Err(ArithError::DivisionByZero);
        }
        Ok(mul_parts(&self.num, &self.den, &rhs.den, &rhs.num))
    }
    /// Exact for constants; for anything depending on a variable `Unknown`, except inside
    /// [`with_positive_variables`], where a numerator and a denominator whose coefficients
    /// all have one sign decide it (see [`orthant_sign`]).
    fn sign(&self) -> Sign {
        match self.is_constant() {
            Some(q) if q.is_positive() => Sign::Positive,
            Some(q) if q.is_negative() => Sign::Negative,
            Some(_) => Sign::Zero,
            None => POSITIVE_VARIABLES.with(|p| match &*p.borrow() {
                Some(names) => {
                    let decided = if self.variables().iter().all(|v| names.contains(v)) {
                        orthant_sign(self)
                    } else {
                        Sign::Unknown
                    };
                    if decided == Sign::Unknown {
                        UNDECIDED.with(|u| {
                            let mut u = u.borrow_mut();
                            if u.len() < 64 {
                                u.push(self.clone());
                            }
                        });
                    }
                    decided
                }
                None => Sign::Unknown,
            }),
        }
    }
    /// The exact root of a constant rational square; `NotRepresentable` otherwise.
    fn sqrt(&self) -> Result<Self, ArithError> {
        match self.is_constant() {
            Some(q) => super::Rational::from_big(&q)
                .sqrt()
                .map(|r| Symbolic::constant(&r.to_big()))
                .map_err(|e| match e {
                    ArithError::NotRepresentable { what, .. } => ArithError::NotRepresentable {
                        what,
                        backend: Self::NAME,
                        hint: String::new(),
                    },
                    e => e,
                }),
            None => match (monomial_sqrt(&self.num), monomial_sqrt(&self.den)) {
                (Some(n), Some(d)) => Symbolic::from_parts(n, d),
                _ => Err(ArithError::NotRepresentable {
                    what: format!("sqrt({})", self.render_string()),
                    backend: Self::NAME,
                    hint: "only square roots of rational squares of monomials are symbolic".into(),
                }),
            },
        }
    }
    /// The digits of a constant (a closed form with variables counts 0: its size is
    /// bounded by the polynomial work limit instead).
    fn exact_digits(&self) -> u64 {
        self.is_constant().map_or(0, |q| {
            let bits = q.numer().bits() + q.denom().bits();
            (bits as f64 * std::f64::consts::LOG10_2).ceil() as u64
        })
    }
    fn to_f64(&self) -> f64 {
        self.is_constant()
            .map_or(f64::NAN, |q| super::float::rational_to_f64(&q))
    }
    fn enclosure(&self) -> Option<(f64, f64)> {
        self.is_constant()
            .map(|q| super::rational::rational_f64_bounds(&q))
    }
    fn rational_bounds(&self) -> Option<(BigRational, BigRational)> {
        self.is_constant().map(|q| (q.clone(), q))
    }
    fn render(&self) -> Rendered {
        let value = self.render_string();
        let bounds = self.is_constant().map(|_| (value.clone(), value.clone()));
        Rendered { value, bounds }
    }
    /// Integer power by squaring. The expansion of a base with more than one term (in its
    /// numerator or denominator) grows like a binomial: such a base is raised to at most
    /// [`MAX_EXPANSION_EXPONENT`] (a monomial, or a constant, to any power the input
    /// language accepts).
    fn powi(&self, n: i64) -> Result<Self, ArithError> {
        let many = self.num.term_count() > 1 || self.den.term_count() > 1;
        if many && n.unsigned_abs() > MAX_EXPANSION_EXPONENT {
            return Err(ArithError::Domain(format!(
                "the symbolic backend expands a sum to a power of magnitude at most {MAX_EXPANSION_EXPONENT}, not {n}"
            )));
        }
        super::powi_by_squaring(self, n)
    }
    fn pi(_ctx: &()) -> Result<Self, ArithError> {
        Err(not_representable("pi", Self::NAME))
    }
    /// sin 0 = 0; anything else is not representable.
    fn sin(&self) -> Result<Self, ArithError> {
        self.at_zero("sin", 0)
    }
    /// cos 0 = 1; anything else is not representable.
    fn cos(&self) -> Result<Self, ArithError> {
        self.at_zero("cos", 1)
    }
    /// tan 0 = 0; anything else is not representable.
    fn tan(&self) -> Result<Self, ArithError> {
        self.at_zero("tan", 0)
    }
    /// atan 0 = 0; anything else is not representable.
    fn atan(&self) -> Result<Self, ArithError> {
        self.at_zero("atan", 0)
    }
}

impl Symbolic {
    /// `f(0) = value` for a function whose only rational value at a rational point used
    /// here is at 0.
    fn at_zero(&self, f: &str, value: i64) -> Result<Symbolic, ArithError> {
        if self.num.is_zero() {
            Ok(Symbolic::constant(&poly::int(value)))
        } else {
            Err(not_representable(
                &format!("{f}({})", self.render_string()),
                Self::NAME,
            ))
        }
    }
}
