//! The checker's own sign rules: the sign of a rational function of chart variables on
//! the open positive orthant of its positive variables, decided by rules simple enough to
//! read (coefficients of one sign, AM–GM dominance, a quadratic with a negative
//! discriminant, the zero polynomial), without the arithmetic's own `sign()`.

use super::error::{reject, Rejection};
use crate::arith::symbolic::{Poly, Symbolic};
use num_rational::BigRational;
use num_traits::Signed;
use std::collections::{BTreeMap, BTreeSet};

/// The sign of a polynomial at every point of the open positive orthant of `positive`,
/// where one of the rules decides it: `Some(1)`, `Some(-1)`, `Some(0)` (the zero
/// polynomial), `None`.
fn orthant_sign(p: &Poly, positive: &[String], depth: u32) -> Option<i8> {
    if p.is_zero() {
        return Some(0);
    }
    if p.variables().iter().any(|v| !positive.contains(v)) {
        return None;
    }
    let signs: BTreeSet<bool> = p.terms().map(|(_, c)| c.is_positive()).collect();
    if signs.len() == 1 {
        return Some(if signs.contains(&true) { 1 } else { -1 });
    }
    for (q, s) in [(p.clone(), 1), (p.neg(), -1)] {
        if dominated(&q) || (depth > 0 && quadratic(&q, positive, depth)) {
            return Some(s);
        }
    }
    None
}

/// AM–GM: each negative term −a·m has two positive terms b₁m₁, b₂m₂ with m₁m₂ = m² and
/// 4b₁b₂ ≥ a², a positive term's coefficient shared equally among the negative terms
/// that use it; positive when a positive term is unused or one inequality is strict.
fn dominated(p: &Poly) -> bool {
    type Mono = BTreeMap<String, u32>;
    let mono = |m: &[(crate::arith::symbolic::poly::Name, u32)]| -> Mono {
        m.iter().map(|(v, e)| (v.to_string(), *e)).collect()
    };
    let terms: Vec<(Mono, BigRational)> = p.terms().map(|(m, c)| (mono(m), c.clone())).collect();
    let (neg, pos): (Vec<_>, Vec<_>) = terms.into_iter().partition(|(_, c)| c.is_negative());
    if pos.is_empty() || neg.len() > 64 || pos.len() > 256 {
        return false;
    }
    let product = |a: &Mono, b: &Mono| {
        let mut out = a.clone();
        for (v, e) in b {
            *out.entry(v.clone()).or_default() += e;
        }
        out
    };
    let mut pairs = Vec::new();
    for (m, _) in &neg {
        let square: Mono = m.iter().map(|(v, e)| (v.clone(), 2 * e)).collect();
        let found = (0..pos.len()).find_map(|i| {
            (i + 1..pos.len())
                .find(|&j| product(&pos[i].0, &pos[j].0) == square)
                .map(|j| (i, j))
        });
        match found {
            Some(x) => pairs.push(x),
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
        let share = |k: usize| &pos[k].1 / BigRational::from_integer(uses[k].into());
        let lhs = BigRational::from_integer(4.into()) * share(*i) * share(*j);
        let rhs = a * a;
        if lhs < rhs {
            return false;
        }
        strict |= lhs > rhs;
    }
    strict
}

/// A·v² + B·v + C in one variable v: A > 0, C > 0 and B ≥ 0 or 4AC − B² > 0.
fn quadratic(p: &Poly, positive: &[String], depth: u32) -> bool {
    p.term_count() <= 120
        && p.variables().iter().any(|v| {
            if p.degree_in(v) != 2 {
                return false;
            }
            let c = p.by_power_of(v);
            let get = |e: u32| c.get(&e).cloned().unwrap_or_else(Poly::zero);
            let (a, b, c0) = (get(2), get(1), get(0));
            let s = |q: &Poly| orthant_sign(q, positive, depth - 1);
            s(&a) == Some(1)
                && s(&c0) == Some(1)
                && (matches!(s(&b), Some(0 | 1)) || {
                    let disc = a
                        .mul(&c0)
                        .scale(&BigRational::from_integer(4.into()))
                        .sub(&b.mul(&b));
                    s(&disc) == Some(1)
                })
        })
}

/// The sign of a rational function (text) on the cell, by the rules: `None` undecided.
pub(crate) fn value_sign(text: &str, positive: &[String]) -> Result<Option<i8>, Rejection> {
    let x: Symbolic =
        crate::lang::parse_symbolic(text).map_err(|e| reject!(Format, "{text}: {e}"))?;
    Ok(symbolic_sign(&x, positive))
}

/// The sign of a rational function of the chart variables on the cell, by the rules.
pub(crate) fn symbolic_sign(x: &Symbolic, positive: &[String]) -> Option<i8> {
    let n = orthant_sign(x.numerator(), positive, 2);
    if n == Some(0) {
        return Some(0);
    }
    let d = orthant_sign(&x.denominator(), positive, 2);
    match (n, d) {
        (Some(a), Some(b)) if b != 0 => Some(a * b),
        _ => None,
    }
}

/// A square root the law kept as a variable `name`: r = √D with r ≥ 0 and r² = D
/// (`abs_of = Some(x)`: r = |x|, D = x²).
#[derive(Clone, Debug)]
pub(crate) struct Root {
    pub name: String,
    pub radicand: Symbolic,
    pub abs_of: Option<Symbolic>,
}

/// The sign of a rational function of the chart variables and of roots (the checker's
/// radical rule): a value without a root by the orthant rules; else, for the last root
/// r = √D it holds, each of its numerator and denominator written a + b·r (r² = D) and
/// decided by the signs of a and b (recursively) — equal signs, or one of them zero (b·r
/// with D > 0), give the sign; opposite signs give sign(a)·sign(a² − b²D) (for r = |x|
/// also sign(a − b·x)·sign(a + b·x)); with a constant D ≥ 0 and every other variable
/// positive, each monomial's coefficient α + β·√D of one sign (α² against β²D).
pub(crate) fn root_sign(x: &Symbolic, positive: &[String], roots: &[Root]) -> Option<i8> {
    let vars = x.variables();
    let Some(root) = roots.iter().rev().find(|r| vars.contains(&r.name)) else {
        return symbolic_sign(x, positive);
    };
    let n = pair_sign(x.numerator(), root, positive, roots)?;
    if n == 0 {
        return Some(0);
    }
    let d = pair_sign(&x.denominator(), root, positive, roots)?;
    (d != 0).then_some(n * d)
}

/// At most this many roots |x| in a relation decided by [`abs_bounds`] (2ⁿ choices).
const MAX_ABS: usize = 5;

/// `v ▷ 0` (`rel` one of `>=`, `>`, `<=`, `<`) by the bounds |x| ≥ x and |x| ≥ −x, for a
/// value whose numerator is affine in its roots r = |x| and whose denominator has none:
/// with s·N = a + Σ bᵢ·rᵢ (s the sign that turns the relation into s·N ≥ 0 or > 0), a
/// root with bᵢ ≥ 0 may be replaced by either ±xᵢ (a lower bound), one with bᵢ ≤ 0 must
/// be replaced by both (bᵢ·rᵢ = min(bᵢxᵢ, −bᵢxᵢ)); the relation holds when for every
/// choice at the latter some choice at the former gives a value whose sign holds by the
/// rules (the triangle inequality |a + b| ≤ |a| + |b| is one).
pub(crate) fn abs_bounds(v: &Symbolic, rel: &str, positive: &[String], roots: &[Root]) -> bool {
    let vars = v.variables();
    let abs: Vec<&Root> = roots
        .iter()
        .filter(|r| r.abs_of.is_some() && vars.contains(&r.name))
        .collect();
    if abs.is_empty() || abs.len() > MAX_ABS {
        return false;
    }
    let names: Vec<&str> = abs.iter().map(|r| r.name.as_str()).collect();
    let den = Symbolic::from_poly(v.denominator());
    if den.variables().iter().any(|x| names.contains(&x.as_str())) {
        return false;
    }
    let Some(sd) = root_sign(&den, positive, roots).filter(|s| *s != 0) else {
        return false;
    };
    let (s, strict) = match rel {
        ">=" => (sd, false),
        ">" => (sd, true),
        "<=" => (-sd, false),
        "<" => (-sd, true),
        _ => return false,
    };
    let n = v.numerator();
    // the affine form: a (no root) and bᵢ per root
    let mut a = n.clone();
    let mut b = Vec::new();
    for r in &abs {
        let by = a.by_power_of(&r.name);
        if by.keys().any(|e| *e > 1) {
            return false;
        }
        let bi = by.get(&1).cloned().unwrap_or_else(Poly::zero);
        if bi.variables().iter().any(|x| names.contains(&x.as_str())) {
            return false;
        }
        a = by.get(&0).cloned().unwrap_or_else(Poly::zero);
        b.push(Symbolic::from_poly(bi));
    }
    let a = Symbolic::from_poly(a);
    let sign_s = |x: &Symbolic| root_sign(x, positive, roots).map(|g| g * s);
    let mut free = Vec::new();
    let mut forced = Vec::new();
    for (i, bi) in b.iter().enumerate() {
        match sign_s(bi) {
            Some(0 | 1) => free.push(i),
            Some(_) => forced.push(i),
            None => return false,
        }
    }
    let value = |choice: &[(usize, bool)]| -> Symbolic {
        choice.iter().fold(a.clone(), |acc, (i, plus)| {
            let x = abs[*i]
                .abs_of
                .clone()
                .unwrap_or_else(|| Symbolic::from_poly(Poly::zero()));
            let t = b[*i].clone() * &x;
            if *plus {
                acc + &t
            } else {
                acc - &t
            }
        })
    };
    let ok = |g: Option<i8>| matches!(g, Some(1)) || (!strict && g == Some(0));
    (0..1u32 << forced.len()).all(|fm| {
        let forced_choice: Vec<(usize, bool)> = forced
            .iter()
            .enumerate()
            .map(|(k, i)| (*i, fm >> k & 1 == 1))
            .collect();
        (0..1u32 << free.len()).any(|pm| {
            let mut choice = forced_choice.clone();
            for (k, i) in free.iter().enumerate() {
                choice.push((*i, pm >> k & 1 == 1));
            }
            ok(sign_s(&value(&choice)))
        }) || {
            // the Lipschitz-type bound: s·(a + forced terms) = Σ νᵢxᵢ + R₀ with R₀ free of
            // the cone chart (c_…), so s·N ≥ Σ (s·bᵢ − |νᵢ|)|xᵢ| + R₀
            let e0 = value(&forced_choice);
            let e0 = if s > 0 { e0 } else { -e0 };
            let xs: Vec<Symbolic> = free.iter().filter_map(|i| abs[*i].abs_of.clone()).collect();
            let w: Vec<Symbolic> = free
                .iter()
                .map(|i| if s > 0 { b[*i].clone() } else { -b[*i].clone() })
                .collect();
            lipschitz(&e0, &xs, &w, strict, &|x| root_sign(x, positive, roots))
        }
    })
}

/// E₀ + Σ wᵢ|xᵢ| ≥ 0 (> 0 when `strict`) with wᵢ ≥ 0: multipliers ν (found by solving,
/// then checked) with E₀ − Σ νᵢxᵢ = R₀ free of the chart variables `c_…`, R₀ ≥ 0 (> 0)
/// and wᵢ ± νᵢ ≥ 0, all by the rules.
fn lipschitz(
    e0: &Symbolic,
    xs: &[Symbolic],
    w: &[Symbolic],
    strict: bool,
    sign: &dyn Fn(&Symbolic) -> Option<i8>,
) -> bool {
    use crate::arith::symbolic::linear::{linear, solve};
    use crate::arith::Scalar;
    let is_chart = |v: &String| v.starts_with("c_");
    let mut chart: Vec<String> = xs
        .iter()
        .chain(std::iter::once(e0))
        .flat_map(|x| x.variables())
        .filter(is_chart)
        .collect();
    chart.sort();
    chart.dedup();
    if chart.is_empty() || xs.is_empty() {
        return false;
    }
    let Some((_, e0_coefs)) = linear(e0, &chart) else {
        return false;
    };
    let Some(cols) = xs
        .iter()
        .map(|x| linear(x, &chart).map(|(_, c)| c))
        .collect::<Option<Vec<_>>>()
    else {
        return false;
    };
    let Some(nu) = solve(&cols, &e0_coefs) else {
        return false;
    };
    let r0 = xs
        .iter()
        .zip(&nu)
        .fold(e0.clone(), |acc, (x, n)| acc.sub_r(&n.mul_r(x)));
    if r0.variables().iter().any(is_chart) {
        return false;
    }
    let nonneg = |x: &Symbolic| matches!(sign(x), Some(0 | 1));
    let r0_ok = if strict {
        sign(&r0) == Some(1)
    } else {
        nonneg(&r0)
    };
    r0_ok
        && w.iter()
            .zip(&nu)
            .all(|(w, n)| nonneg(&w.sub_r(n)) && nonneg(&w.add_r(n)))
}

/// `p = a + b·r` with r² = D: (a, b), free of r.
fn split_root(p: &Poly, root: &Root) -> (Symbolic, Symbolic) {
    let zero = || Symbolic::from_poly(Poly::zero());
    let (mut a, mut b) = (zero(), zero());
    for (e, c) in p.by_power_of(&root.name) {
        let mut term = Symbolic::from_poly(c);
        for _ in 0..e / 2 {
            term = term * &root.radicand;
        }
        if e % 2 == 0 {
            a = a + &term;
        } else {
            b = b + &term;
        }
    }
    (a, b)
}

fn pair_sign(p: &Poly, root: &Root, positive: &[String], roots: &[Root]) -> Option<i8> {
    let others: Vec<Root> = roots
        .iter()
        .filter(|r| r.name != root.name)
        .cloned()
        .collect();
    let s = |v: &Symbolic| root_sign(v, positive, &others);
    let (a, b) = split_root(p, root);
    let by_pair = match (s(&a), s(&b)) {
        (Some(x), Some(0)) => Some(x),
        (Some(0), Some(y)) => (s(&root.radicand) == Some(1)).then_some(y),
        (Some(x), Some(y)) if x == y => Some(x),
        (Some(x), Some(_)) => {
            let t = s(&(a.clone() * &a - &(b.clone() * &b * &root.radicand))).or_else(|| {
                let v = root.abs_of.as_ref()?;
                let bv = b.clone() * v;
                Some(s(&(a.clone() - &bv))? * s(&(a.clone() + &bv))?)
            });
            t.map(|t| x * t)
        }
        _ => None,
    };
    by_pair.or_else(|| constant_root_sign(p, root, positive))
}

/// The sign of α + β·√d for rationals, d ≥ 0.
fn constant_pair(alpha: &BigRational, beta: &BigRational, d: &BigRational) -> i8 {
    let sg = |q: &BigRational| -> i8 {
        if q.is_positive() {
            1
        } else if q.is_negative() {
            -1
        } else {
            0
        }
    };
    let (sa, sb) = (sg(alpha), if d.is_positive() { sg(beta) } else { 0 });
    if sb == 0 || sa == sb {
        return if sa == 0 { sb } else { sa };
    }
    if sa == 0 {
        return sb;
    }
    sa * sg(&(alpha * alpha - beta * beta * d))
}

/// A constant radicand d ≥ 0 and every other variable positive: the sign shared by every
/// monomial's coefficient α + β·√d, or `None`.
fn constant_root_sign(p: &Poly, root: &Root, positive: &[String]) -> Option<i8> {
    let d = root.radicand.is_constant().filter(|d| !d.is_negative())?;
    if p.variables()
        .iter()
        .any(|v| *v != root.name && !positive.contains(v))
    {
        return None;
    }
    type Mono = Vec<(String, u32)>;
    let mut coef: BTreeMap<Mono, (BigRational, BigRational)> = BTreeMap::new();
    for (e, c) in p.by_power_of(&root.name) {
        let c = c.scale(&num_traits::pow(d.clone(), (e / 2) as usize));
        for (m, q) in c.terms() {
            let key: Mono = m.iter().map(|(v, k)| (v.to_string(), *k)).collect();
            let entry = coef.entry(key).or_default();
            if e % 2 == 0 {
                entry.0 += q;
            } else {
                entry.1 += q;
            }
        }
    }
    let signs: BTreeSet<i8> = coef
        .values()
        .map(|(a, b)| constant_pair(a, b, &d))
        .filter(|s| *s != 0)
        .collect();
    match signs.len() {
        0 => Some(0),
        1 => signs.into_iter().next(),
        _ => None,
    }
}

pub(crate) fn holds(rel: &str, sign: i8) -> Result<bool, Rejection> {
    Ok(match rel {
        ">" => sign > 0,
        ">=" => sign >= 0,
        "<" => sign < 0,
        "<=" => sign <= 0,
        "==" => sign == 0,
        "!=" => sign != 0,
        r => return Err(reject!(Format, "unknown relation {r}")),
    })
}
