//! Multivariate polynomials over Q with named variables, in canonical form: monomials are
//! sorted lists of (variable, exponent > 0), terms with a zero coefficient are dropped, so
//! two polynomials are equal exactly when their term maps are equal.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeMap;

/// A variable name in a monomial (shared: cloning a monomial allocates no strings).
pub type Name = std::sync::Arc<str>;

/// A monomial: variables sorted by name, each with an exponent ≥ 1 (`[]` is 1).
pub type Monomial = Vec<(Name, u32)>;

/// A polynomial: monomial ↦ nonzero rational coefficient.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Poly {
    terms: BTreeMap<Monomial, BigRational>,
}

/// The product of two monomials (exponents of equal variables add).
fn mono_mul(a: &Monomial, b: &Monomial) -> Monomial {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => {
                out.push(a[i].clone());
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j].clone());
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push((a[i].0.clone(), a[i].1 + b[j].1));
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

thread_local! {
    /// Term products left inside [`with_deadline`] (a deterministic work bound).
    static WORK: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// The unwinding payload of a symbolic computation past its work bound.
#[derive(Debug)]
pub struct DeadlinePassed;

fn spend(n: u64) {
    if let Some(left) = WORK.with(|w| w.get()) {
        if left < n {
            std::panic::resume_unwind(Box::new(DeadlinePassed));
        }
        WORK.with(|w| w.set(Some(left - n)));
    }
}

/// Runs `f` with polynomial products bounded by `work` term products (the work bound
/// makes the outcome the same on every machine) and by `deadline` (a safety net, through
/// [`crate::budget`], whose checkpoints every product watches): `None` when either ran
/// out inside `f` (its symbolic work abandoned; other panics propagate).
pub fn with_deadline<T>(
    deadline: std::time::Instant,
    work: u64,
    f: impl FnOnce() -> T,
) -> Option<T> {
    struct Reset(Option<u64>);
    impl Drop for Reset {
        fn drop(&mut self) {
            WORK.with(|x| x.set(self.0));
        }
    }
    let _reset = Reset(WORK.with(|x| x.replace(Some(work))));
    let caught = crate::budget::with_deadline(deadline, || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
    })?;
    match caught {
        Ok(v) => Some(v),
        // the work bound, or this call's deadline (an enclosing deadline that passed
        // too unwinds again at the caller's next checkpoint)
        Err(e) if e.is::<DeadlinePassed>() || e.is::<crate::budget::Expired>() => None,
        Err(e) => std::panic::resume_unwind(e),
    }
}

/// The lexicographic monomial order (variables by name, an earlier name more
/// significant, a higher exponent larger): a monomial order, so the leading term of a
/// product is the product of the leading terms (the `BTreeMap` order of [`Monomial`]s is
/// not one: it puts a·b above a²).
pub fn lex_cmp(a: &Monomial, b: &Monomial) -> std::cmp::Ordering {
    use std::cmp::Ordering::*;
    let (mut i, mut j) = (0, 0);
    loop {
        match (a.get(i), b.get(j)) {
            (None, None) => return Equal,
            (Some(_), None) => return Greater,
            (None, Some(_)) => return Less,
            (Some((x, e)), Some((y, f))) => match x.cmp(y) {
                Equal if e == f => {
                    i += 1;
                    j += 1;
                }
                Equal => return e.cmp(f),
                // `a` has x, `b` has x^0
                Less => return Greater,
                Greater => return Less,
            },
        }
    }
}

/// The total degree of a monomial.
pub fn mono_degree(m: &Monomial) -> u32 {
    m.iter().map(|(_, e)| e).sum()
}

impl Poly {
    /// The zero polynomial.
    pub fn zero() -> Self {
        Poly::default()
    }
    /// The constant `q`.
    pub fn constant(q: &BigRational) -> Self {
        let mut p = Poly::zero();
        p.add_term(Vec::new(), q.clone());
        p
    }
    /// The variable `name`.
    pub fn var(name: &str) -> Self {
        let mut p = Poly::zero();
        p.add_term(vec![(Name::from(name), 1)], BigRational::one());
        p
    }
    /// The terms, in the canonical (monomial) order.
    pub fn terms(&self) -> impl Iterator<Item = (&Monomial, &BigRational)> {
        self.terms.iter()
    }
    /// The number of terms.
    pub fn term_count(&self) -> usize {
        self.terms.len()
    }
    /// `true` for the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }
    /// The value if the polynomial is a constant (0 included).
    pub fn as_constant(&self) -> Option<BigRational> {
        match self.terms.len() {
            0 => Some(BigRational::zero()),
            1 => self.terms.get(&Vec::new()).cloned(),
            _ => None,
        }
    }
    /// Adds `c · m`, dropping the term if it cancels.
    fn add_term(&mut self, m: Monomial, c: BigRational) {
        if c.is_zero() {
            return;
        }
        match self.terms.entry(m) {
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(c);
            }
            std::collections::btree_map::Entry::Occupied(mut o) => {
                *o.get_mut() += c;
                if o.get().is_zero() {
                    o.remove();
                }
            }
        }
    }
    /// `self + other`.
    pub fn add(&self, other: &Poly) -> Poly {
        let mut out = self.clone();
        for (m, c) in &other.terms {
            out.add_term(m.clone(), c.clone());
        }
        out
    }
    /// `−self`.
    pub fn neg(&self) -> Poly {
        Poly {
            terms: self.terms.iter().map(|(m, c)| (m.clone(), -c)).collect(),
        }
    }
    /// `self − other`.
    pub fn sub(&self, other: &Poly) -> Poly {
        let mut out = self.clone();
        for (m, c) in &other.terms {
            out.add_term(m.clone(), -c);
        }
        out
    }
    /// `self · other`, expanded. Inside [`with_deadline`], past the work bound, unwinds
    /// with [`DeadlinePassed`]; past a deadline ([`crate::budget`]), with its `Expired`
    /// (no panic message either way).
    pub fn mul(&self, other: &Poly) -> Poly {
        crate::budget::checkpoint();
        // a term product costs more as the coefficients grow (multiplying and reducing
        // them is quadratic in their size): (1 + bits/256)² units
        let size = 1 + (self.max_bits() + other.max_bits()) / 256;
        let weight = size.saturating_mul(size);
        spend(((self.terms.len() * other.terms.len()) as u64).saturating_mul(weight));
        let mut out = Poly::zero();
        // a checkpoint every ~4096 term products, however the work is shaped
        let every = (4096 / other.terms.len().max(1)).max(1);
        for (i, (ma, ca)) in self.terms.iter().enumerate() {
            if i % every == every - 1 {
                crate::budget::checkpoint();
            }
            for (mb, cb) in &other.terms {
                out.add_term(mono_mul(ma, mb), ca * cb);
            }
        }
        out
    }
    /// The largest coefficient size, in bits of numerator and denominator.
    fn max_bits(&self) -> u64 {
        self.terms
            .values()
            .map(|c| c.numer().bits() + c.denom().bits())
            .max()
            .unwrap_or(0)
    }
    /// `q · self`.
    pub fn scale(&self, q: &BigRational) -> Poly {
        if q.is_zero() {
            return Poly::zero();
        }
        Poly {
            terms: self.terms.iter().map(|(m, c)| (m.clone(), c * q)).collect(),
        }
    }
    /// `self^n`.
    pub fn pow(&self, n: u32) -> Poly {
        let mut acc = Poly::constant(&BigRational::one());
        for _ in 0..n {
            acc = acc.mul(self);
        }
        acc
    }
    /// The coefficient of the first term in the canonical order (0 for the zero
    /// polynomial); used to normalise denominators.
    pub fn leading_coefficient(&self) -> BigRational {
        self.terms
            .values()
            .next_back()
            .cloned()
            .unwrap_or_else(BigRational::zero)
    }
    /// The leading term in the lexicographic order [`lex_cmp`] (`None` for 0).
    pub fn lex_leading(&self) -> Option<(&Monomial, &BigRational)> {
        self.terms.iter().max_by(|a, b| lex_cmp(a.0, b.0))
    }
    /// `self / d` when `d` divides `self` exactly in Q\[variables\], `None` otherwise (or
    /// for `d = 0`). Sparse division in the lexicographic order: the quotient's degree in
    /// each variable is that of `self` minus that of `d`, so a step past those degrees
    /// ends the attempt. Its work counts towards [`with_deadline`]'s bound.
    pub fn div_exact(&self, d: &Poly) -> Option<Poly> {
        if d.is_zero() {
            return None;
        }
        if self.is_zero() {
            return Some(Poly::zero());
        }
        if let Some(c) = d.as_constant() {
            return Some(self.scale(&c.recip()));
        }
        // quick rejections: the highest and the lowest terms in the lexicographic order
        // of a product are the products of those of its factors
        let divides = |a: &Monomial, b: &Monomial| {
            b.iter()
                .all(|(x, e)| a.iter().any(|(y, f)| y == x && f >= e))
        };
        fn ends(p: &Poly) -> (&Monomial, &Monomial) {
            let mut it = p.terms.keys();
            let first = it.next().expect("a nonzero polynomial");
            let (mut lo, mut hi) = (first, first);
            for m in it {
                if lex_cmp(m, lo).is_lt() {
                    lo = m;
                } else if lex_cmp(m, hi).is_gt() {
                    hi = m;
                }
            }
            (lo, hi)
        }
        let ((slo, shi), (dlo, dhi)) = (ends(self), ends(d));
        if !divides(shi, dhi) || !divides(slo, dlo) {
            return None;
        }
        let vars = self.names();
        let dvars = d.names();
        if dvars.iter().any(|v| vars.binary_search(v).is_err()) {
            return None;
        }
        let dense = |m: &Monomial| -> Vec<u32> {
            let mut out = vec![0u32; vars.len()];
            for (x, e) in m {
                if let Ok(i) = vars.binary_search(x) {
                    out[i] = *e;
                }
            }
            out
        };
        let bound: Vec<u32> = vars
            .iter()
            .map(|v| self.degree_in(v).checked_sub(d.degree_in(v)))
            .collect::<Option<_>>()?;
        // dense exponent vectors compare lexicographically like [`lex_cmp`]
        let mut r: BTreeMap<Vec<u32>, BigRational> = self
            .terms
            .iter()
            .map(|(m, c)| (dense(m), c.clone()))
            .collect();
        let dt: Vec<(Vec<u32>, BigRational)> =
            d.terms.iter().map(|(m, c)| (dense(m), c.clone())).collect();
        let (dm, dc) = dt
            .iter()
            .max_by(|a, b| a.0.cmp(&b.0))
            .map(|(m, c)| (m.clone(), c.clone()))?;
        let mut q: Vec<(Vec<u32>, BigRational)> = Vec::new();
        while let Some((lm, lc)) = r.last_key_value().map(|(m, c)| (m.clone(), c.clone())) {
            crate::budget::checkpoint();
            spend(dt.len() as u64);
            let mut qm = Vec::with_capacity(lm.len());
            for ((a, b), top) in lm.iter().zip(&dm).zip(&bound) {
                let e = a.checked_sub(*b)?;
                if e > *top {
                    return None;
                }
                qm.push(e);
            }
            let qc = &lc / &dc;
            for (m, c) in &dt {
                let key: Vec<u32> = m.iter().zip(&qm).map(|(a, b)| a + b).collect();
                let t = &qc * c;
                match r.entry(key) {
                    std::collections::btree_map::Entry::Vacant(v) => {
                        v.insert(-t);
                    }
                    std::collections::btree_map::Entry::Occupied(mut o) => {
                        *o.get_mut() -= t;
                        if o.get().is_zero() {
                            o.remove();
                        }
                    }
                }
            }
            q.push((qm, qc));
        }
        let mut out = Poly::zero();
        for (m, c) in q {
            let mono: Monomial = vars
                .iter()
                .zip(&m)
                .filter(|(_, e)| **e > 0)
                .map(|(x, e)| (x.clone(), *e))
                .collect();
            out.add_term(mono, c);
        }
        Some(out)
    }
    /// The variables that occur, sorted.
    pub fn variables(&self) -> Vec<String> {
        self.names().iter().map(|x| x.to_string()).collect()
    }
    /// The variables that occur, sorted, as shared names.
    fn names(&self) -> Vec<Name> {
        let mut v: Vec<Name> = self
            .terms
            .keys()
            .flat_map(|m| m.iter().map(|(x, _)| x.clone()))
            .collect();
        v.sort();
        v.dedup();
        v
    }
    /// The highest exponent of `var`.
    pub fn degree_in(&self, var: &str) -> u32 {
        self.terms
            .keys()
            .filter_map(|m| m.iter().find(|(x, _)| &**x == var).map(|(_, e)| *e))
            .max()
            .unwrap_or(0)
    }
    /// The largest monomial dividing every term (the monomial content).
    pub fn monomial_content(&self) -> Monomial {
        let mut it = self.terms.keys();
        let Some(first) = it.next() else {
            return Vec::new();
        };
        let mut g = first.clone();
        for m in it {
            g.retain_mut(|(x, e)| match m.iter().find(|(y, _)| y == x) {
                Some((_, f)) => {
                    *e = (*e).min(*f);
                    true
                }
                None => false,
            });
        }
        g
    }
    /// `self / m` for a monomial `m` dividing every term.
    pub fn div_monomial(&self, m: &Monomial) -> Poly {
        let terms = self
            .terms
            .iter()
            .map(|(t, c)| {
                let q: Monomial = t
                    .iter()
                    .filter_map(|(x, e)| {
                        let d = m.iter().find(|(y, _)| y == x).map_or(0, |(_, f)| *f);
                        (*e > d).then(|| (x.clone(), e - d))
                    })
                    .collect();
                (q, c.clone())
            })
            .collect();
        Poly { terms }
    }
    /// The coefficients of the powers of `var`: `self = Σ c_e · var^e` (`e ↦ c_e`, the
    /// `c_e` free of `var`).
    pub fn by_power_of(&self, var: &str) -> BTreeMap<u32, Poly> {
        let mut by_power: BTreeMap<u32, Poly> = BTreeMap::new();
        for (m, c) in &self.terms {
            let e = m.iter().find(|(x, _)| &**x == var).map_or(0, |(_, e)| *e);
            let rest: Monomial = m.iter().filter(|(x, _)| &**x != var).cloned().collect();
            by_power.entry(e).or_default().add_term(rest, c.clone());
        }
        by_power
    }
    /// Homogenised substitution `var = p/q`: returns `(N, d)` with
    /// `self(var = p/q) = N / q^d`, `d` the degree of `self` in `var`.
    pub fn substitute(&self, var: &str, p: &Poly, q: &Poly) -> (Poly, u32) {
        let d = self.degree_in(var);
        let by_power = self.by_power_of(var);
        let mut out = Poly::zero();
        for (e, coeff) in by_power {
            out = out.add(&coeff.mul(&p.pow(e)).mul(&q.pow(d - e)));
        }
        (out, d)
    }
    /// The value at an assignment; `Err(var)` names a variable without a value.
    pub fn eval(&self, value: &dyn Fn(&str) -> Option<BigRational>) -> Result<BigRational, String> {
        let mut sum = BigRational::zero();
        for (m, c) in &self.terms {
            let mut t = c.clone();
            for (x, e) in m {
                let v = value(x).ok_or_else(|| x.to_string())?;
                t *= num_traits::pow(v, *e as usize);
            }
            sum += t;
        }
        Ok(sum)
    }
    /// Input-language rendering, terms by decreasing total degree (`2*k^2*x - 3/2*y + 1`).
    pub fn render(&self) -> String {
        if self.is_zero() {
            return "0".into();
        }
        let mut terms: Vec<_> = self.terms.iter().collect();
        terms.sort_by(|a, b| mono_degree(b.0).cmp(&mono_degree(a.0)).then(a.0.cmp(b.0)));
        let mut out = String::new();
        for (i, (m, c)) in terms.into_iter().enumerate() {
            let neg = c.is_negative();
            if i == 0 {
                if neg {
                    out.push('-');
                }
            } else {
                out.push_str(if neg { " - " } else { " + " });
            }
            out.push_str(&render_term(m, &c.abs()));
        }
        out
    }
    /// `true` if the polynomial has exactly one term.
    pub fn is_monomial(&self) -> bool {
        self.terms.len() == 1
    }
}

/// `c*m` for c > 0, omitting a coefficient 1.
fn render_term(m: &Monomial, c: &BigRational) -> String {
    let vars: Vec<String> = m
        .iter()
        .map(|(x, e)| {
            if *e == 1 {
                x.to_string()
            } else {
                format!("{x}^{e}")
            }
        })
        .collect();
    if vars.is_empty() {
        return c.to_string();
    }
    let v = vars.join("*");
    if c.is_one() {
        v
    } else {
        format!("{c}*{v}")
    }
}

/// `n` as a rational.
pub fn int(n: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(n))
}
