//! The symbolic backend: rational functions over Q in named variables.
//!
//! A [`Symbolic`] value is `num / Π fᵢ^eᵢ`: an expanded numerator over a denominator kept
//! as a product of factors ([`Poly`]s that are not constants, pairwise different, each
//! with leading coefficient 1 in the lexicographic order [`poly::lex_cmp`]; a variable
//! is a factor of its own). No polynomial GCD is computed; instead the factors are kept:
//! - a sum puts its terms over the least common multiple of the two factor lists (so
//!   (1 + k²)² and (1 + k²)³ give (1 + k²)³, not their product);
//! - a numerator divisible by a factor of its denominator is divided by it (exact sparse
//!   division, [`Poly::div_exact`]), so a factor that cancels never stays;
//! - a new factor divisible by a known one (or dividing it) is split into them.
//!
//! Two values are identical when their numerators over the common denominator agree as
//! expanded polynomials. The sign of a value is decided factor by factor.
//!
//! Laws run on this backend unchanged when their zone is fixed by hypothesis: `sign()` is
//! exact for constants and [`Sign::Unknown`] otherwise, so a law that branches on a
//! non-constant value answers `Undecided` instead of guessing. The result of a zone
//! formula is then its closed form, e.g. (13b) of Fassino–Pasquero (2020).

mod identity;
pub mod linear;
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

/// The factors of a denominator with their multiplicities, sorted.
type Factors = Vec<(Poly, u32)>;

/// A rational function `num / Π fᵢ^eᵢ` over Q (see the module documentation).
#[derive(Clone, Debug)]
pub struct Symbolic {
    num: Poly,
    den: Factors,
}

/// `p = c · Π factors` for a nonzero polynomial: the constant `c`, one factor per
/// variable of the monomial content, and the rest scaled to leading coefficient 1.
fn split_factor(p: &Poly) -> (BigRational, Factors) {
    let content = p.monomial_content();
    let rest = p.div_monomial(&content);
    let mut out: Factors = content.iter().map(|(x, e)| (Poly::var(x), *e)).collect();
    let c = match rest.as_constant() {
        Some(c) => c,
        None => {
            let lc = rest
                .lex_leading()
                .map(|(_, c)| c.clone())
                .unwrap_or_else(BigRational::one);
            out.push((rest.scale(&lc.recip()), 1));
            lc
        }
    };
    (c, out)
}

/// Π fᵢ^eᵢ, expanded.
fn product(fs: &[(Poly, u32)]) -> Poly {
    fs.iter()
        .fold(Poly::constant(&BigRational::one()), |acc, (f, e)| {
            acc.mul(&f.pow(*e))
        })
}

fn is_variable(f: &Poly) -> bool {
    f.is_monomial() && matches!(f.monomial_content().as_slice(), [(_, 1)])
}

/// Adds `f^e` to a factor list (`f` non-constant, leading coefficient 1): merged with an
/// equal factor; divided by a known factor that divides it; a known factor that it divides
/// is split into `f` and the cofactor.
fn insert_factor(den: &mut Factors, f: Poly, e: u32) {
    let mut f = f;
    let mut e = e;
    let mut i = 0;
    while i < den.len() {
        if den[i].0 == f {
            den[i].1 += e;
            return;
        }
        if !is_variable(&den[i].0) && !is_variable(&f) {
            if let Some(q) = f.div_exact(&den[i].0) {
                den[i].1 += e;
                if q.as_constant().is_some() {
                    return;
                }
                f = q;
                continue;
            }
            if let Some(q) = den[i].0.div_exact(&f) {
                // den[i] = f·q: both of q's multiplicity, f gains it
                let (_, m) = den.remove(i);
                // lex leading coefficients multiply: q has leading coefficient 1 too
                let (_, qs) = split_factor(&q);
                e += m;
                for (h, k) in qs {
                    insert_factor(den, h, k * m);
                }
                i = 0;
                continue;
            }
        }
        i += 1;
    }
    den.push((f, e));
    den.sort();
}

/// Inserts every factor of `other` into `den` ([`insert_factor`]).
fn merge(den: &mut Factors, other: &[(Poly, u32)]) {
    for (f, e) in other {
        insert_factor(den, f.clone(), *e);
    }
}

impl Symbolic {
    /// `num/den` in normal form; `DivisionByZero` if `den` is the zero polynomial.
    pub fn from_parts(num: Poly, den: Poly) -> Result<Symbolic, ArithError> {
        if den.is_zero() {
            return Err(ArithError::DivisionByZero);
        }
        let (c, fs) = split_factor(&den);
        let mut d = Factors::new();
        merge(&mut d, &fs);
        Ok(Self::normalize(num.scale(&c.recip()), d))
    }
    /// Divides the numerator by every factor of the denominator that divides it (as often
    /// as it does) and drops the factors used up.
    fn normalize(mut num: Poly, mut den: Factors) -> Symbolic {
        if num.is_zero() {
            return Symbolic::constant(&BigRational::zero());
        }
        for (f, e) in den.iter_mut() {
            if is_variable(f) {
                let (x, _) = &f.monomial_content()[0];
                let have = num
                    .monomial_content()
                    .iter()
                    .find(|(y, _)| y == x)
                    .map_or(0, |(_, k)| *k);
                let k = have.min(*e);
                if k > 0 {
                    num = num.div_monomial(&vec![(x.clone(), k)]);
                    *e -= k;
                }
                continue;
            }
            while *e > 0 {
                match num.div_exact(f) {
                    Some(q) => {
                        num = q;
                        *e -= 1;
                    }
                    None => break,
                }
            }
        }
        den.retain(|(_, e)| *e > 0);
        Symbolic { num, den }
    }
    /// The variable `name`.
    pub fn var(name: &str) -> Symbolic {
        Symbolic {
            num: Poly::var(name),
            den: Factors::new(),
        }
    }
    /// The constant `q`.
    pub fn constant(q: &BigRational) -> Symbolic {
        Symbolic {
            num: Poly::constant(q),
            den: Factors::new(),
        }
    }
    /// The polynomial `p` as a rational function.
    pub fn from_poly(p: Poly) -> Symbolic {
        Symbolic {
            num: p,
            den: Factors::new(),
        }
    }
    /// The numerator over [`Symbolic::denominator`].
    pub fn numerator(&self) -> &Poly {
        &self.num
    }
    /// The denominator, expanded (1, or a product of factors with leading coefficient 1).
    pub fn denominator(&self) -> Poly {
        product(&self.den)
    }
    /// The factors of the denominator with their multiplicities.
    pub fn denominator_factors(&self) -> impl Iterator<Item = (&Poly, u32)> {
        self.den.iter().map(|(f, e)| (f, *e))
    }
    /// The value if it does not depend on any variable (a factor left in the
    /// denominator does not divide the numerator, so the value is then not constant).
    pub fn is_constant(&self) -> Option<BigRational> {
        if self.den.is_empty() {
            self.num.as_constant()
        } else {
            None
        }
    }
    /// The variables that occur (in the numerator or the denominator), sorted.
    pub fn variables(&self) -> Vec<String> {
        let mut v = self.num.variables();
        for (f, _) in &self.den {
            v.extend(f.variables());
        }
        v.sort();
        v.dedup();
        v
    }
    /// `self` and `other` agree as rational functions: equal numerators over the least
    /// common multiple of the two denominators.
    pub fn is_identical(&self, other: &Symbolic) -> bool {
        let (a, b, _) = over_common(self, other);
        a == b
    }
    /// Replaces the variable `var` by `by` (a rational function): for `by = p/q` and
    /// `self = N/Π fᵢ^eᵢ`, `N(p/q) = N'/q^n`, `fᵢ(p/q) = Fᵢ'/q^dᵢ`, and the result is
    /// `N'·q^D / (q^n Π Fᵢ'^eᵢ)` with `D = Σ dᵢeᵢ`. `DivisionByZero` if the denominator
    /// becomes 0.
    pub fn substitute(&self, var: &str, by: &Symbolic) -> Result<Symbolic, ArithError> {
        let q = by.denominator();
        let (n, dn) = self.num.substitute(var, &by.num, &q);
        let mut scale = BigRational::one();
        let mut den = Factors::new();
        let mut dd = 0u32;
        for (f, e) in &self.den {
            let (g, d) = f.substitute(var, &by.num, &q);
            if g.is_zero() {
                return Err(ArithError::DivisionByZero);
            }
            dd += d * e;
            let (c, fs) = split_factor(&g);
            scale *= num_traits::pow(c, *e as usize);
            for (h, k) in fs {
                insert_factor(&mut den, h, k * e);
            }
        }
        let n = if dd >= dn {
            n.mul(&q.pow(dd - dn))
        } else {
            for (h, k) in &by.den {
                insert_factor(&mut den, h.clone(), k * (dn - dd));
            }
            n
        };
        Ok(Self::normalize(n.scale(&scale.recip()), den))
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
        let mut d = BigRational::one();
        for (f, e) in &self.den {
            d *= num_traits::pow(f.eval(&value).map_err(missing)?, *e as usize);
        }
        if d.is_zero() {
            return Err(ArithError::DivisionByZero);
        }
        Ok(n / d)
    }
    /// The square root as a rational function, where it is one (a constant rational
    /// square; a rational square of monomials).
    fn exact_sqrt(&self) -> Result<Symbolic, ArithError> {
        match self.is_constant() {
            Some(q) => super::Rational::from_big(&q)
                .sqrt()
                .map(|r| Symbolic::constant(&r.to_big()))
                .map_err(|e| match e {
                    ArithError::NotRepresentable { what, .. } => ArithError::NotRepresentable {
                        what,
                        backend: <Self as Scalar>::NAME,
                        hint: String::new(),
                    },
                    e => e,
                }),
            None => match (monomial_sqrt(&self.num), monomial_sqrt(&self.denominator())) {
                (Some(n), Some(d)) => Symbolic::from_parts(n, d),
                _ => Err(ArithError::NotRepresentable {
                    what: format!("sqrt({})", self.render_string()),
                    backend: <Self as Scalar>::NAME,
                    hint: "only square roots of rational squares of monomials are symbolic".into(),
                }),
            },
        }
    }
    /// Input-language rendering that re-parses to the same value: `num` when the
    /// denominator is 1, else `num/den` with the denominator as its product of factors
    /// (`1/2*x/y`, `(x + y)/(x*y)`, `-x/(k^2 + 1)^2`, `x/(k*(k^2 + 1))`).
    pub fn render_string(&self) -> String {
        let num = self.num.render();
        if self.den.is_empty() {
            return num;
        }
        let parts: Vec<String> = self
            .den
            .iter()
            .map(|(f, e)| {
                let base = if f.is_monomial() {
                    f.render()
                } else {
                    format!("({})", f.render())
                };
                if *e == 1 {
                    base
                } else {
                    format!("{base}^{e}")
                }
            })
            .collect();
        let den = parts.join("*");
        let num = if self.num.is_monomial() {
            num
        } else {
            format!("({num})")
        };
        // one factor renders as a single power or a parenthesised sum already
        if self.den.len() == 1 && (!self.den[0].0.is_monomial() || !den.contains('*')) {
            format!("{num}/{den}")
        } else {
            format!("{num}/({den})")
        }
    }
}

/// The least common multiple `L` of the two denominators and the numerators over it:
/// `(a.num · L/a.den, b.num · L/b.den, L)`.
fn over_common(a: &Symbolic, b: &Symbolic) -> (Poly, Poly, Factors) {
    if a.den == b.den {
        return (a.num.clone(), b.num.clone(), a.den.clone());
    }
    let (xa, xb) = common_basis(&a.den, &b.den);
    // the larger multiplicity of each factor of the common basis
    let l: Factors = xa
        .iter()
        .zip(&xb)
        .map(|((f, p), (_, q))| (f.clone(), (*p).max(*q)))
        .collect();
    let rest = |own: &Factors| -> Poly {
        let fs: Factors = own
            .iter()
            .zip(&l)
            .map(|((f, p), (_, m))| (f.clone(), m - p))
            .collect();
        product(&fs)
    };
    let (x, y) = (a.num.mul(&rest(&xa)), b.num.mul(&rest(&xb)));
    (x, y, l.into_iter().filter(|(_, e)| *e > 0).collect())
}

/// Both factor lists written over one list of factors (the same factors in the same
/// order, multiplicities possibly 0): a factor of one that is a product of factors of the
/// other (or divides one) is split first ([`insert_factor`]), so that equal factors are
/// recognised.
fn common_basis(a: &Factors, b: &Factors) -> (Factors, Factors) {
    let mut basis = a.clone();
    merge(&mut basis, b);
    let express = |fs: &Factors| -> Factors {
        let mut out: Factors = basis.iter().map(|(f, _)| (f.clone(), 0)).collect();
        for (f, e) in fs {
            let mut g = f.clone();
            for (h, k) in out.iter_mut() {
                while g.as_constant().is_none() {
                    match g.div_exact(h) {
                        Some(q) => {
                            g = q;
                            *k += e;
                        }
                        None => break,
                    }
                }
            }
            debug_assert!(g.as_constant().is_some(), "a factor outside the basis");
        }
        out
    };
    (express(a), express(b))
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

/// a/A + b/B = (a·L/A + b·L/B)/L with L = lcm(A, B) as factor lists.
fn add(a: &Symbolic, b: &Symbolic) -> Symbolic {
    let (x, y, l) = over_common(a, b);
    Symbolic::normalize(x.add(&y), l)
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
/// Divides `num` by the factors of `den` it is divisible by, using them up.
fn cancel(num: &Poly, den: &mut Factors) -> Poly {
    let s = Symbolic::normalize(num.clone(), std::mem::take(den));
    *den = s.den;
    s.num
}
/// (a/A)(b/B) = ab/(AB), each numerator first divided by the other's factors.
fn mul(a: &Symbolic, b: &Symbolic) -> Symbolic {
    if a.num.is_zero() || b.num.is_zero() {
        return Symbolic::constant(&BigRational::zero());
    }
    let (mut ad, mut bd) = (a.den.clone(), b.den.clone());
    let an = cancel(&a.num, &mut bd);
    let bn = cancel(&b.num, &mut ad);
    merge(&mut ad, &bd);
    Symbolic::normalize(an.mul(&bn), ad)
}
/// (a/A)/(b/B) = (a·B)/(A·b), with the factors A and B have in common cancelled first.
fn div(a: &Symbolic, b: &Symbolic) -> Symbolic {
    let mut ad = a.den.clone();
    let mut bd = Factors::new();
    for (f, e) in &b.den {
        match ad.iter_mut().find(|(g, _)| g == f) {
            Some((_, k)) => {
                let m = (*k).min(*e);
                *k -= m;
                if e > &m {
                    bd.push((f.clone(), e - m));
                }
            }
            None => bd.push((f.clone(), *e)),
        }
    }
    ad.retain(|(_, e)| *e > 0);
    let (c, fs) = split_factor(&b.num);
    merge(&mut ad, &fs);
    Symbolic::normalize(a.num.mul(&product(&bd)).scale(&c.recip()), ad)
}
impl_ops_via_ref!(Symbolic, add, sub, mul, neg);

thread_local! {
    /// The last values whose sign `sign()` left undecided inside
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

/// A radical of [`with_radicals`]: the variable `name` stands for √`radicand` (≥ 0), and
/// for |x| = √(x²) `abs_of` is x.
#[derive(Clone, Debug)]
pub struct Radical {
    pub name: String,
    pub radicand: Symbolic,
    pub abs_of: Option<Symbolic>,
}

thread_local! {
    /// The radicals introduced inside [`with_radicals`].
    static RADICALS: std::cell::RefCell<Option<Vec<Radical>>> =
        const { std::cell::RefCell::new(None) };
}

/// At most this many distinct radicals in one computation.
const MAX_RADICALS: usize = 8;

/// Runs `f` with square roots that are not rational functions kept as **radicals**: a
/// new variable r = √D (named `√1`, `√2`, …; `abs(x)` of undecided sign is √(x²)) that
/// `sign()` eliminates through r² = D. A value N(r)/Q(r) is reduced to (a + b·r)/(c + d·r)
/// with a, b, c, d free of r, and the sign of a + b·√D is decided from the signs of a
/// and b, and where they differ from the sign of a² − b²·D (for |x|: of (a − b·x)(a + b·x)),
/// since (a + b√D)(a − b√D) = a² − b²D and a − b√D has the sign of a there. Every such
/// decision holds at the points where D ≥ 0, the only points where √D is defined: a caller
/// must establish D ≥ 0 on its domain (see `claims::prove`). Returns `f`'s value.
pub fn with_radicals<T>(f: impl FnOnce() -> T) -> T {
    struct Reset(Option<Vec<Radical>>);
    impl Drop for Reset {
        fn drop(&mut self) {
            RADICALS.with(|r| *r.borrow_mut() = self.0.take());
        }
    }
    let _reset = Reset(RADICALS.with(|r| r.replace(Some(Vec::new()))));
    f()
}

/// The radicals introduced so far inside [`with_radicals`] (empty outside).
pub fn radicals() -> Vec<Radical> {
    RADICALS.with(|r| r.borrow().clone().unwrap_or_default())
}

/// The radical √`radicand` (the same variable for an identical radicand), inside
/// [`with_radicals`] and below [`MAX_RADICALS`].
fn radical(radicand: &Symbolic, abs_of: Option<&Symbolic>) -> Option<Symbolic> {
    RADICALS.with(|r| {
        let mut r = r.borrow_mut();
        let list = r.as_mut()?;
        if let Some(x) = list.iter_mut().find(|x| x.radicand.is_identical(radicand)) {
            if x.abs_of.is_none() {
                x.abs_of = abs_of.cloned();
            }
            return Some(Symbolic::var(&x.name));
        }
        if list.len() >= MAX_RADICALS {
            return None;
        }
        let name = format!("√{}", list.len() + 1);
        list.push(Radical {
            name: name.clone(),
            radicand: radicand.clone(),
            abs_of: abs_of.cloned(),
        });
        Some(Symbolic::var(&name))
    })
}

/// The last radical that occurs in `x`, if any.
fn radical_in(x: &Symbolic) -> Option<Radical> {
    RADICALS.with(|r| {
        let r = r.borrow();
        let list = r.as_ref().filter(|l| !l.is_empty())?;
        let vars = x.variables();
        list.iter()
            .rev()
            .find(|rad| vars.contains(&rad.name))
            .cloned()
    })
}

/// `p = a + b·r` with r² = D: the pair (a, b), free of r.
fn reduce_radical(p: &Poly, rad: &Radical) -> (Symbolic, Symbolic) {
    let (mut a, mut b) = (
        Symbolic::from_poly(Poly::zero()),
        Symbolic::from_poly(Poly::zero()),
    );
    for (e, c) in p.by_power_of(&rad.name) {
        let mut term = Symbolic::from_poly(c);
        for _ in 0..e / 2 {
            term = mul(&term, &rad.radicand);
        }
        if e % 2 == 0 {
            a = add(&a, &term);
        } else {
            b = add(&b, &term);
        }
    }
    (a, b)
}

fn sign_product(a: Sign, b: Sign) -> Sign {
    match (a, b) {
        (Sign::Unknown, _) | (_, Sign::Unknown) => Sign::Unknown,
        (Sign::Zero, _) | (_, Sign::Zero) => Sign::Zero,
        (x, y) if x == y => Sign::Positive,
        _ => Sign::Negative,
    }
}

/// The sign of a + b·√D (see [`with_radicals`]).
fn radical_pair_sign(a: &Symbolic, b: &Symbolic, rad: &Radical) -> Sign {
    let (sa, sb) = (a.sign(), b.sign());
    match (sa, sb) {
        (Sign::Unknown, _) | (_, Sign::Unknown) => Sign::Unknown,
        (s, Sign::Zero) => s,
        (Sign::Zero, s) => match rad.radicand.sign() {
            Sign::Positive => s,
            _ => Sign::Unknown,
        },
        (x, y) if x == y => x,
        _ => {
            // a² − b²D, for |x| as (a − b·x)(a + b·x)
            let t = match &rad.abs_of {
                Some(x) => {
                    let bx = mul(b, x);
                    sign_product(sub(a, &bx).sign(), add(a, &bx).sign())
                }
                None => sub(&mul(a, a), &mul(&mul(b, b), &rad.radicand)).sign(),
            };
            sign_product(sa, t)
        }
    }
}

/// The sign of α + β·√D for rationals α, β and D ≥ 0 (always decided).
fn constant_pair_sign(alpha: &BigRational, beta: &BigRational, d: &BigRational) -> Sign {
    let s = |q: &BigRational| match q.signum() {
        x if x.is_positive() => Sign::Positive,
        x if x.is_negative() => Sign::Negative,
        _ => Sign::Zero,
    };
    let (sa, sb) = (s(alpha), if d.is_zero() { Sign::Zero } else { s(beta) });
    match (sa, sb) {
        (x, Sign::Zero) => x,
        (Sign::Zero, y) => y,
        (x, y) if x == y => x,
        // α² − β²D has the sign of |α| − |β|√D
        (x, _) => sign_product(x, s(&(alpha * alpha - beta * beta * d))),
    }
}

/// The sign of a polynomial in a radical √D of a **constant** radicand D ≥ 0 and in
/// positive variables (inside [`with_positive_variables`]): written as Σ (αₘ + βₘ√D)·m
/// over the monomials m of the other variables, it is positive when every coefficient
/// αₘ + βₘ√D (an element of Q(√D), its sign decided exactly) is ≥ 0 and one is > 0, and
/// negative in the mirrored case. Where the elimination of [`radical_pair_sign`] needs the
/// sign of a polynomial part of undecided sign (e.g. 1 − 2c + 2√2·c), this decides it.
fn constant_radical_orthant_sign(p: &Poly, rad: &Radical) -> Sign {
    let Some(d) = rad.radicand.is_constant().filter(|d| !d.is_negative()) else {
        return Sign::Unknown;
    };
    let positive = POSITIVE_VARIABLES
        .with(|x| x.borrow().clone())
        .unwrap_or_default();
    if p.variables()
        .iter()
        .any(|v| *v != rad.name && !positive.contains(v))
    {
        return Sign::Unknown;
    }
    // Σ_e c_e r^e = A + B·r with r^e = D^(e/2)·r^(e mod 2)
    let (mut a, mut b) = (Poly::zero(), Poly::zero());
    for (e, c) in p.by_power_of(&rad.name) {
        let c = c.scale(&num_traits::pow(d.clone(), (e / 2) as usize));
        if e % 2 == 0 {
            a = a.add(&c);
        } else {
            b = b.add(&c);
        }
    }
    let mut monomials: Vec<poly::Monomial> =
        a.terms().chain(b.terms()).map(|(m, _)| m.clone()).collect();
    monomials.sort();
    monomials.dedup();
    let coefficient = |q: &Poly, m: &poly::Monomial| {
        q.terms()
            .find(|(x, _)| *x == m)
            .map_or_else(BigRational::zero, |(_, c)| c.clone())
    };
    let (mut pos, mut neg) = (false, false);
    for m in &monomials {
        match constant_pair_sign(&coefficient(&a, m), &coefficient(&b, m), &d) {
            Sign::Positive => pos = true,
            Sign::Negative => neg = true,
            _ => {}
        }
    }
    match (pos, neg) {
        (true, false) => Sign::Positive,
        (false, true) => Sign::Negative,
        (false, false) => Sign::Zero,
        _ => Sign::Unknown,
    }
}

/// The sign of a value with a radical (`None` without one), by elimination.
fn radical_sign(x: &Symbolic) -> Option<Sign> {
    let rad = radical_in(x)?;
    let (a, b) = reduce_radical(&x.num, &rad);
    let (c, d) = reduce_radical(&x.denominator(), &rad);
    let or_coefficients = |s: Sign, p: &Poly| match s {
        Sign::Unknown => constant_radical_orthant_sign(p, &rad),
        s => s,
    };
    let (n, q) = (
        or_coefficients(radical_pair_sign(&a, &b, &rad), &x.num),
        or_coefficients(radical_pair_sign(&c, &d, &rad), &x.denominator()),
    );
    Some(match (n, q) {
        (_, Sign::Zero) => Sign::Unknown,
        (Sign::Zero, _) => Sign::Zero,
        (n, q) => sign_product(n, q),
    })
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
        if e % 2 != 0 || ((e / 2) % 2 == 1 && !positive.iter().any(|p| **p == **v)) {
            return None;
        }
        out = out.mul(&Poly::var(v).pow(e / 2));
    }
    Some(out)
}

/// The last (up to 64) values whose sign was left undecided inside
/// [`with_positive_variables`] since the last call (a prover splits a cell on them).
pub fn take_undecided() -> Vec<Symbolic> {
    UNDECIDED.with(|u| std::mem::take(&mut *u.borrow_mut()))
}

/// Puts back a list taken by [`take_undecided`] (after a computation whose undecided signs
/// must not steer the splitting, e.g. an attempt that was not needed).
pub fn restore_undecided(list: Vec<Symbolic>) {
    UNDECIDED.with(|u| *u.borrow_mut() = list);
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
    let square = |m: &poly::Monomial| -> std::collections::BTreeMap<poly::Name, u32> {
        m.iter().map(|(v, e)| (v.clone(), 2 * e)).collect()
    };
    let prod = |a: &poly::Monomial, b: &poly::Monomial| {
        let mut out: std::collections::BTreeMap<poly::Name, u32> =
            std::collections::BTreeMap::new();
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

/// Whether [`Symbolic::sign`] logs its decisions (a `verify --certificates` or
/// `--smtlib` run): off by default, so that a plain run keeps no values.
static RECORDING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Turns the logging of decided signs on (for the rest of the process).
pub fn enable_decision_log() {
    RECORDING.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether decided signs are logged ([`enable_decision_log`]).
pub fn decision_log_enabled() -> bool {
    RECORDING.load(std::sync::atomic::Ordering::Relaxed)
}

/// A sign decided for a non-constant value, with the rule that decided it.
#[derive(Clone, Debug)]
pub struct Decision {
    pub value: Symbolic,
    pub sign: Sign,
    /// `coefficients`, `AM-GM`, `quadratic` (the orthant rules, the strongest used) or
    /// `radical` (elimination of a square root).
    pub rule: &'static str,
}

thread_local! {
    /// The decisions of `sign()` since the last [`take_decisions`] (with logging on).
    static DECISIONS: std::cell::RefCell<Vec<Decision>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The signs decided since the last call (empty unless [`enable_decision_log`]).
pub fn take_decisions() -> Vec<Decision> {
    DECISIONS.with(|d| std::mem::take(&mut *d.borrow_mut()))
}

fn log_decision(value: &Symbolic, sign: Sign, rule: &'static str) {
    if sign != Sign::Unknown && RECORDING.load(std::sync::atomic::Ordering::Relaxed) {
        DECISIONS.with(|d| {
            let mut d = d.borrow_mut();
            // a bound on what one computation may log (a cell holds far fewer)
            if d.len() < 100_000 {
                d.push(Decision {
                    value: value.clone(),
                    sign,
                    rule,
                });
            }
        });
    }
}

/// The orthant rule that decides the sign of `p`: the first of coefficients, AM-GM and
/// quadratic that does (as [`one_sign`] tries them).
fn orthant_rule(p: &Poly) -> u8 {
    match poly_orthant_sign(p) {
        Sign::Unknown if amgm_positive(p) || amgm_positive(&p.neg()) => 1,
        Sign::Unknown => 2,
        _ => 0,
    }
}

/// The sign of a polynomial at every point of the open positive orthant, when decided by
/// the signs of its coefficients ([`poly_orthant_sign`], then [`amgm_positive`]), or as a
/// quadratic in one of its variables ([`quadratic_positive`]).
fn one_sign(p: &Poly) -> Sign {
    sign_with_quadratics(p, 2)
}

fn sign_with_quadratics(p: &Poly, depth: u32) -> Sign {
    match poly_orthant_sign(p) {
        Sign::Unknown if amgm_positive(p) => Sign::Positive,
        Sign::Unknown if amgm_positive(&p.neg()) => Sign::Negative,
        Sign::Unknown if depth > 0 && quadratic_positive(p, depth) => Sign::Positive,
        Sign::Unknown if depth > 0 && quadratic_positive(&p.neg(), depth) => Sign::Negative,
        s => s,
    }
}

/// Polynomials larger than this are not tried as quadratics (the discriminant's product
/// grows with the square of the terms).
const QUADRATIC_MAX_TERMS: usize = 120;

/// A polynomial p = A·v² + B·v + C of degree 2 in one of its variables v is positive on the
/// open positive orthant when A > 0 and C > 0 there and either B ≥ 0 (every term is then
/// ≥ 0, one > 0) or 4AC − B² > 0 (no real root in v, so p has the sign of A for every v).
/// The signs of A, B, C and 4AC − B² are decided by the same rules (nested at most twice).
fn quadratic_positive(p: &Poly, depth: u32) -> bool {
    if p.term_count() > QUADRATIC_MAX_TERMS {
        return false;
    }
    p.variables().iter().any(|v| {
        if p.degree_in(v) != 2 {
            return false;
        }
        let c = p.by_power_of(v);
        let get = |e: u32| c.get(&e).cloned().unwrap_or_else(Poly::zero);
        let (a, b, c0) = (get(2), get(1), get(0));
        let sign = |q: &Poly| sign_with_quadratics(q, depth - 1);
        if sign(&a) != Sign::Positive || sign(&c0) != Sign::Positive {
            return false;
        }
        matches!(sign(&b), Sign::Positive | Sign::Zero) || {
            let disc = a
                .mul(&c0)
                .scale(&BigRational::from_integer(4.into()))
                .sub(&b.mul(&b));
            sign(&disc) == Sign::Positive
        }
    })
}

/// The sign of a denominator Π fᵢ^eᵢ on the open positive orthant: every factor's sign
/// decided (an even power of a factor of unknown sign may vanish, so it is not decided).
fn factors_sign(den: &[(Poly, u32)]) -> Sign {
    let mut negative = false;
    for (f, e) in den {
        match one_sign(f) {
            Sign::Positive => {}
            Sign::Negative => negative ^= e % 2 == 1,
            _ => return Sign::Unknown,
        }
    }
    if negative {
        Sign::Negative
    } else {
        Sign::Positive
    }
}

/// The sign of `num/den` at every point of the open positive orthant, when decided by
/// the signs of the coefficients of the numerator and of each factor of the denominator.
pub fn orthant_sign(x: &Symbolic) -> Sign {
    match (one_sign(&x.num), factors_sign(&x.den)) {
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
        Ok(div(self, rhs))
    }
    /// Exact for constants; for anything depending on a variable `Unknown`, except inside
    /// [`with_positive_variables`], where a numerator and a denominator whose coefficients
    /// all have one sign decide it (see [`orthant_sign`]).
    fn sign(&self) -> Sign {
        match self.is_constant() {
            Some(q) if q.is_positive() => Sign::Positive,
            Some(q) if q.is_negative() => Sign::Negative,
            Some(_) => Sign::Zero,
            None if self.num.is_zero() => Sign::Zero,
            None => {
                if let Some(s) = radical_sign(self) {
                    log_decision(self, s, "radical");
                    return s;
                }
                POSITIVE_VARIABLES.with(|p| match &*p.borrow() {
                    Some(names) => {
                        let decided = if self.variables().iter().all(|v| names.contains(v)) {
                            orthant_sign(self)
                        } else {
                            Sign::Unknown
                        };
                        if decided != Sign::Unknown
                            && RECORDING.load(std::sync::atomic::Ordering::Relaxed)
                        {
                            let rule = std::iter::once(&self.num)
                                .chain(self.den.iter().map(|(f, _)| f))
                                .map(orthant_rule)
                                .max()
                                .unwrap_or(0);
                            log_decision(
                                self,
                                decided,
                                ["coefficients", "AM-GM", "quadratic"][usize::from(rule)],
                            );
                        }
                        if decided == Sign::Unknown {
                            UNDECIDED.with(|u| {
                                let mut u = u.borrow_mut();
                                // the most recent ones: the last is the sign that stopped a
                                // computation (earlier ones may come from optional outputs)
                                if u.len() == 64 {
                                    u.remove(0);
                                }
                                u.push(self.clone());
                            });
                        }
                        decided
                    }
                    None => Sign::Unknown,
                })
            }
        }
    }
    /// A numerator that is not the zero polynomial (whatever its sign on a cell); with a
    /// radical (which a polynomial relation r² = D ties to the other variables) only a
    /// decided sign.
    fn nonzero_in_field(&self) -> bool {
        if radical_in(self).is_some() {
            return matches!(self.sign(), Sign::Positive | Sign::Negative);
        }
        !self.num.is_zero()
    }
    /// |x| as a radical √(x²) inside [`with_radicals`].
    fn abs_undecided(&self) -> Option<Self> {
        radical(&self.square(), Some(self))
    }
    /// The exact root of a constant rational square or of a rational square of monomials;
    /// inside [`with_radicals`] any other root is a radical; `NotRepresentable` otherwise.
    fn sqrt(&self) -> Result<Self, ArithError> {
        match self.exact_sqrt() {
            Err(e @ ArithError::NotRepresentable { .. }) => radical(self, None).ok_or(e),
            exact => exact,
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
        let many = self.num.term_count() > 1 || self.den.iter().any(|(f, _)| !f.is_monomial());
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
