//! The `f64` path of a text report (issue 36): what `regress` prints of a record,
//! decided with error-free `f64` arithmetic instead of exact arithmetic, or not at all.
//!
//! Every number a text report prints (distances, the impulse distance, ΔE/E, the
//! momentum defect; three significant digits) and every decision it shows (the nearest
//! and second-nearest groups, the tolerance of `expect`, the engine's `pre`) is a
//! function of the engine's `f64` values and of the scenario's exact numbers. Here each
//! exact number c is a double-double h + l with a rigorous bound on |c − h − l|
//! ([`Dd`]); each sum of products of engine values and such constants is computed
//! exactly where `f64` can (Shewchuk's expansion sum of TwoSum/TwoProduct terms,
//! [`Acc`]) with a rigorous bound on the rest, so the result is an enclosure a few ulps
//! wide even where the terms cancel (a momentum defect of 10⁻¹⁶ from terms of size 1).
//!
//! A record is answered here only when the enclosures **decide** everything the exact
//! path would: each printed number's enclosure prints as one string (the exact path's
//! value lies in it, so it prints the same), the ranked distances are apart, and the
//! tolerance is decided. Otherwise [`evaluate`] returns `None` and the record goes the
//! exact way ([`super::evaluate`]); so a text report is the same string either way.
//! JSON reports (every exact value) always go the exact way.

use super::{impulse_layout, names_fit, LawCheck, Laws, Record, RecordReport};
use crate::arith::rounding;
use crate::arith::{rug_f64_bounds, Scalar, Sign};
use crate::law::propagative::Contacts;
use crate::report::sci::Sci;
use crate::system::laws::Law;

/// An exact number c as h + l with |c − h − l| ≤ err (h, l, err finite).
#[derive(Clone, Copy, Debug)]
pub(super) struct Dd {
    h: f64,
    l: f64,
    err: f64,
}

impl Dd {
    /// `x` from its rigorous rational bounds; `None` where the backend has none or
    /// they do not fit in `f64`.
    pub(super) fn of<S: Scalar>(x: &S) -> Option<Dd> {
        let (lo, hi) = x.rational_bounds()?;
        let lo = crate::arith::rat_to_rug(&lo);
        let hi = crate::arith::rat_to_rug(&hi);
        let h = lo.to_f64();
        let rest = lo.clone() - rug::Rational::from_f64(h)?;
        let l = rest.to_f64();
        let tail = (rest.clone() - rug::Rational::from_f64(l)?).abs();
        let width = rug::Rational::from(&hi - &lo);
        let err = rounding::add(rug_f64_bounds(&tail).1, rug_f64_bounds(&width).1, true);
        (h.is_finite() && l.is_finite() && err.is_finite()).then_some(Dd { h, l, err })
    }

    /// Exactly 0 (no error either).
    fn is_zero(&self) -> bool {
        self.h == 0.0 && self.l == 0.0 && self.err == 0.0
    }

    /// The enclosure [h + l − err, h + l + err].
    fn bounds(&self) -> (f64, f64) {
        let mut a = Acc::new();
        a.dd(self, 1.0);
        a.finish().unwrap_or((f64::NEG_INFINITY, f64::INFINITY))
    }
}

/// The smallest positive subnormal: a bound on the error of one product that underflows.
const TINY_ERR: f64 = 5e-324;
/// Below this magnitude a product's TwoProduct error term may itself underflow.
const UNDERFLOW: f64 = 1e-290;

/// Exact numbers that share a denominator as integers: (D, D·x_i) when every x_i is an
/// exact rational and D (their denominators' lcm) and every D·x_i are integers below
/// 2⁵³, so that sums of their products with engine values are exact in [`Acc`] (a
/// momentum defect or an energy change that is exactly 0 is then found 0); else
/// (1, x_i).
fn scaled<S: Scalar>(xs: &[&S]) -> Option<(f64, Vec<Dd>)> {
    let exact: Option<Vec<rug::Rational>> = xs
        .iter()
        .map(|x| {
            let (lo, hi) = x.rational_bounds()?;
            (lo == hi).then(|| crate::arith::rat_to_rug(&lo))
        })
        .collect();
    let limit = rug::Integer::from(1u64 << 53);
    let ints = exact.and_then(|qs| {
        let mut d = rug::Integer::from(1);
        for q in &qs {
            d.lcm_mut(q.denom());
        }
        let ints: Vec<f64> = qs
            .iter()
            .map(|q| {
                let k = q.numer().clone() * rug::Integer::from(&d / q.denom());
                (k.clone().abs() < limit).then(|| k.to_f64())
            })
            .collect::<Option<_>>()?;
        (d < limit).then(|| (d.to_f64(), ints))
    });
    match ints {
        Some((d, ints)) => Some((
            d,
            ints.into_iter()
                .map(|h| Dd {
                    h,
                    l: 0.0,
                    err: 0.0,
                })
                .collect(),
        )),
        None => Some((1.0, xs.iter().map(|x| Dd::of(*x)).collect::<Option<_>>()?)),
    }
}

/// Partials an [`Acc`] keeps (past them the smallest goes into the error bound).
const PARTS: usize = 12;

/// A sum of `f64` terms kept exactly (non-overlapping partials in increasing magnitude,
/// Shewchuk 1997) plus a rigorous bound on what was not kept; no heap (a sum that needs
/// more than [`PARTS`] partials moves its smallest into the bound).
pub(super) struct Acc {
    parts: [f64; PARTS],
    len: usize,
    err: f64,
    ok: bool,
}

impl Acc {
    pub(super) fn new() -> Self {
        Acc {
            parts: [0.0; PARTS],
            len: 0,
            err: 0.0,
            ok: true,
        }
    }

    /// Adds `x` exactly.
    pub(super) fn add(&mut self, mut x: f64) {
        if !x.is_finite() {
            self.ok = false;
            return;
        }
        let mut i = 0;
        for j in 0..self.len {
            let mut y = self.parts[j];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                self.parts[i] = lo;
                i += 1;
            }
            x = hi;
        }
        if i == PARTS {
            // full: the smallest partial leaves the sum for the error bound
            self.slack(self.parts[0].abs());
            self.parts.copy_within(1.., 0);
            i -= 1;
        }
        self.parts[i] = x;
        self.len = i + 1;
        self.ok &= x.is_finite();
    }

    /// Adds a · b: exactly (TwoProduct), up to an underflow bound.
    pub(super) fn product(&mut self, a: f64, b: f64) {
        let p = a * b;
        let e = a.mul_add(b, -p);
        self.add(p);
        self.add(e);
        self.underflow(a, b, p);
    }

    /// The bound on a product's error below the normal range (none for an exact 0).
    fn underflow(&mut self, a: f64, b: f64, p: f64) {
        if a != 0.0 && b != 0.0 && p.abs() < UNDERFLOW {
            self.slack(TINY_ERR);
        }
    }

    /// Adds c · x.
    pub(super) fn dd(&mut self, c: &Dd, x: f64) {
        self.product(c.h, x);
        if c.l != 0.0 {
            let t = c.l * x;
            self.add(t);
            // |c.l·x − t| ≤ |c.l·x|·2⁻⁵³ ≤ |t|·2⁻⁵² (+ underflow)
            self.slack(rounding::mul(t.abs(), f64::EPSILON, true));
            self.underflow(c.l, x, t);
        }
        // |c − h − l|·|x| ≤ err·|x|
        if c.err != 0.0 {
            self.slack(rounding::mul(c.err, x.abs(), true));
        }
    }

    /// Adds −c · x.
    pub(super) fn dd_neg(&mut self, c: &Dd, x: f64) {
        self.dd(c, -x);
    }

    fn slack(&mut self, e: f64) {
        self.err = rounding::add(self.err, e, true);
    }

    /// Rigorous bounds of the sum; `None` past the range of `f64`.
    pub(super) fn finish(&self) -> Option<(f64, f64)> {
        if !self.ok {
            return None;
        }
        let (mut lo, mut hi) = (0.0, 0.0);
        for &p in &self.parts[..self.len] {
            lo = rounding::add(lo, p, false);
            hi = rounding::add(hi, p, true);
        }
        let (lo, hi) = (
            rounding::sub(lo, self.err, false),
            rounding::add(hi, self.err, true),
        );
        (lo.is_finite() && hi.is_finite()).then_some((lo, hi))
    }
}

/// |x| for x in [lo, hi].
fn abs_bounds((lo, hi): (f64, f64)) -> (f64, f64) {
    if lo >= 0.0 {
        (lo, hi)
    } else if hi <= 0.0 {
        (-hi, -lo)
    } else {
        (0.0, hi.max(-lo))
    }
}

/// Most components whose bounds a [`Distance`] keeps inline (more go to the heap).
const INLINE: usize = 8;

/// The bounds of every |a_i − c_i| of a [`Distance`]: inline for up to [`INLINE`]
/// components (no allocation per law and record).
#[derive(Clone)]
struct Each {
    inline: [(f64, f64); INLINE],
    len: usize,
    heap: Vec<(f64, f64)>,
}

impl Each {
    fn new() -> Self {
        Each {
            inline: [(0.0, 0.0); INLINE],
            len: 0,
            heap: Vec::new(),
        }
    }

    fn push(&mut self, d: (f64, f64)) {
        if self.len < INLINE {
            self.inline[self.len] = d;
        } else {
            if self.len == INLINE {
                self.heap.extend_from_slice(&self.inline);
            }
            self.heap.push(d);
        }
        self.len += 1;
    }

    fn as_slice(&self) -> &[(f64, f64)] {
        match self.len <= INLINE {
            true => &self.inline[..self.len],
            false => &self.heap,
        }
    }
}

/// max_i |a_i − c_i| for engine values `a` and exact `c`: its bounds and the bounds of
/// every |a_i − c_i|.
struct Distance {
    lo: f64,
    hi: f64,
    each: Each,
}

impl Distance {
    /// The component that attains the maximum, where the bounds say which (with a
    /// margin of an ulp either side, the rounding of the exact path's own bounds); only
    /// a tie needs it, so it is found only then.
    fn at(&self) -> Option<usize> {
        let all = self.each.as_slice();
        let top = (0..all.len()).max_by(|&i, &j| all[i].1.total_cmp(&all[j].1))?;
        let below = |j: usize| j == top || all[j].1.next_up() < all[top].0.next_down();
        (0..all.len()).all(below).then_some(top)
    }
}

/// x − c as bounds: x − h exactly (TwoSum: s + e), then (e − l) rounded once (its
/// error at most |e − l|·2⁻⁵³, a sum's error being always representable), and c's own
/// error bound; `None` past the range of `f64`.
fn difference(x: f64, c: &Dd) -> Option<(f64, f64)> {
    let s = x - c.h;
    if !s.is_finite() {
        return None;
    }
    let bb = s - x;
    let e = (x - (s - bb)) + (-c.h - bb);
    let r = e - c.l;
    let slack = match c.l == 0.0 {
        true => c.err,
        false => rounding::add(rounding::mul(r.abs(), f64::EPSILON, true), c.err, true),
    };
    let lo = rounding::sub(rounding::add(s, r, false), slack, false);
    let hi = rounding::add(rounding::add(s, r, true), slack, true);
    (lo.is_finite() && hi.is_finite()).then_some((lo, hi))
}

fn distance(a: &[f64], c: &[Dd]) -> Option<Distance> {
    let mut each = Each::new();
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for (x, c) in a.iter().zip(c) {
        let d = abs_bounds(difference(*x, c)?);
        lo = lo.max(d.0);
        hi = hi.max(d.1);
        each.push(d);
    }
    Some(Distance { lo, hi, each })
}

/// Whether every |a_i − c_i| ≤ `tol`, decided (`None`: the bounds come within an ulp
/// of it, where the exact path's own bounds might not decide).
fn within(each: &[(f64, f64)], tol: f64) -> Option<bool> {
    if each.iter().all(|d| d.1.next_up() < tol) {
        Some(true)
    } else if each.iter().any(|d| d.0.next_down() > tol) {
        Some(false)
    } else {
        None
    }
}

/// The value printed for a quantity in [lo, hi] (`exact`: the exact path's value of an
/// exact backend is the quantity itself rounded outward, else it lies within an ulp of
/// the bounds): `Some` when every value the exact path can print is the same string.
fn settled(lo: f64, hi: f64, exact: bool, signed: bool) -> Option<f64> {
    if exact && lo == hi {
        return Some(hi + 0.0);
    }
    Sci::same(lo.next_down(), hi.next_up(), signed).then_some(hi + 0.0)
}

/// The relative distance the exact path prints for a distance it bounds by a value in
/// [lo⁻, hi⁺] (as [`settled`]): its quotient by `scale` rounds into [RN(lo⁻/scale),
/// RN(hi⁺/scale)] (division rounds monotonically), which must print as one string;
/// `Some(None)` without a scale, `None` when undecided or not finite.
fn relative(lo: f64, hi: f64, exact: bool, scale: Option<f64>) -> Option<Option<f64>> {
    let Some(x) = scale else { return Some(None) };
    if exact && lo == hi {
        return Some(Some(hi / x)).filter(|r| r.is_some_and(f64::is_finite));
    }
    let (a, b) = (lo.next_down() / x, hi.next_up() / x);
    if !b.is_finite() {
        return None;
    }
    settled(a, b, false, false).map(Some)
}

/// The scenario's exact numbers as [`Dd`]s, once per scenario.
pub(super) struct Fast {
    /// q̇⁻.
    v0: Vec<Dd>,
    /// Per law, per outcome (empty for a law without one).
    outcomes: Vec<Vec<Vec<Dd>>>,
    /// Per law, per outcome: the law's impulses ([`super::law_impulses`]).
    impulses: Vec<Vec<Option<Vec<Dd>>>>,
    /// D(E⁺ − E⁻) = Σ_ij D·½M_ij q̇_i q̇_j − D·E⁻: D, the n² constants D·½M_ij row by
    /// row, then D·E⁻ ([`scaled`]); and E⁻.
    energy: (f64, Vec<Dd>),
    e0: Dd,
    /// Per row i of r = Π M (q̇ − q̇⁻) (Π the g-orthogonal projection off
    /// span{∇φ_i}): D_i, then D_i·(Π M)_ij for every j and D_i·(Π M q̇⁻)_i.
    defect: Vec<(f64, Vec<Dd>)>,
    /// The metric g = M⁻¹ as bounds, and ‖p⁻‖²_g as the exact path has it.
    metric: Vec<Vec<(f64, f64)>>,
    p0: f64,
    /// Per law, per outcome, per component: its value's number and its negation's
    /// ([`value_ids`]).
    ids: Vec<Vec<Vec<Ids>>>,
}

/// An exact value's number and its negation's ([`value_ids`]).
type Ids = (u32, u32);

/// Every outcome component of `s` numbered by its exact value, with the number of its
/// negation (per law, per outcome, per component): equal numbers are equal values,
/// checked exactly (values that cannot be shown equal get numbers of their own).
fn value_ids<S: Scalar>(s: &Laws<S>) -> Option<Vec<Vec<Vec<Ids>>>> {
    let mut reps: Vec<S> = Vec::new();
    let mut by_dd: std::collections::HashMap<[u64; 3], Vec<u32>> = Default::default();
    let mut id = |x: S| -> Option<u32> {
        let d = Dd::of(&x)?;
        let bucket = by_dd
            .entry([d.h.to_bits(), d.l.to_bits(), d.err.to_bits()])
            .or_default();
        let known = bucket
            .iter()
            .find(|&&k| reps[k as usize].sub_r(&x).sign() == Sign::Zero);
        if let Some(&k) = known {
            return Some(k);
        }
        let k = u32::try_from(reps.len()).ok()?;
        reps.push(x);
        bucket.push(k);
        Some(k)
    };
    s.results
        .iter()
        .map(|(_, r)| match r {
            Ok(o) => o
                .outcomes
                .iter()
                .map(|v| {
                    v.iter()
                        .map(|x| Some((id(x.clone())?, id(x.zero_like().sub_r(x))?)))
                        .collect()
                })
                .collect(),
            Err(_) => Some(Vec::new()),
        })
        .collect()
}

fn dds<S: Scalar>(xs: &[S]) -> Option<Vec<Dd>> {
    xs.iter().map(Dd::of).collect()
}

impl Fast {
    /// The constants of `s`; `None` where one has no rational bounds (every record of
    /// the scenario then goes the exact way).
    pub(super) fn new<S: Scalar>(s: &Laws<S>) -> Option<Fast> {
        let sys = &s.sys;
        let n = sys.velocity.len();
        let outcomes = s
            .results
            .iter()
            .map(|(_, r)| match r {
                Ok(o) => o.outcomes.iter().map(|v| dds(v)).collect(),
                Err(_) => Some(Vec::new()),
            })
            .collect::<Option<Vec<_>>>()?;
        let impulses = s
            .impulses
            .iter()
            .map(|per| {
                per.iter()
                    .map(|l| match l {
                        None => Some(None),
                        Some(l) => dds(l).map(Some),
                    })
                    .collect::<Option<Vec<_>>>()
            })
            .collect::<Option<Vec<_>>>()?;
        let two = sys.velocity[0].lift_i64(2);
        let half_mass = (0..n * n)
            .map(|k| sys.mass.get(k / n, k % n).checked_div(&two).ok())
            .collect::<Option<Vec<S>>>()?;
        let e0 = &s.e0.as_ref().ok()?.0;
        let energy = scaled(&half_mass.iter().chain([e0]).collect::<Vec<_>>())?;
        let c = Contacts::new(sys.mass.clone(), sys.normals.clone()).ok()?;
        let unit = |j: usize| -> Vec<S> {
            (0..n)
                .map(|i| sys.velocity[0].lift_i64(i64::from(i == j)))
                .collect()
        };
        let cols = (0..n)
            .map(|j| c.plastic(&sys.mass.apply(&unit(j))).ok())
            .collect::<Option<Vec<_>>>()?;
        let pm_v0 = c.plastic(&sys.mass.apply(&sys.velocity)).ok()?;
        let defect = (0..n)
            .map(|i| {
                scaled(
                    &cols
                        .iter()
                        .map(|col| &col[i])
                        .chain([&pm_v0[i]])
                        .collect::<Vec<_>>(),
                )
            })
            .collect::<Option<Vec<_>>>()?;
        let metric = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| Some(Dd::of(&c.inner(&unit(i), &unit(j)).ok()?)?.bounds()))
                    .collect()
            })
            .collect::<Option<Vec<_>>>()?;
        let p0 = s.defect.as_ref().ok()?.1;
        Some(Fast {
            ids: value_ids(s)?,
            v0: dds(&sys.velocity)?,
            outcomes,
            impulses,
            energy,
            e0: Dd::of(e0)?,
            defect,
            metric,
            p0,
        })
    }

    /// (E⁺ − E⁻)/E⁻ for the engine's `v`, as bounds.
    fn energy_change(&self, v: &[f64]) -> Option<(f64, f64)> {
        let n = v.len();
        let (scale, consts) = &self.energy;
        let mut acc = Acc::new();
        for (k, m) in consts[..n * n].iter().enumerate() {
            if m.is_zero() {
                continue;
            }
            let (x, y) = (v[k / n], v[k % n]);
            let p = x * y;
            let e = x.mul_add(y, -p);
            acc.dd(m, p);
            acc.dd(m, e);
            acc.underflow(x, y, p);
        }
        acc.dd_neg(&consts[n * n], 1.0);
        let (a, b) = unscale(acc.finish()?, *scale);
        let (c, d) = self.e0.bounds();
        if c <= 0.0 {
            return None;
        }
        let lo = if a >= 0.0 {
            rounding::div(a, d, false)
        } else {
            rounding::div(a, c, false)
        };
        let hi = if b >= 0.0 {
            rounding::div(b, c, true)
        } else {
            rounding::div(b, d, true)
        };
        Some((lo, hi))
    }

    /// Whether |v_i − x_i| = |v_j − y_j| for component `a.2` of outcome `a.1` of law
    /// `a.0` (x) and component `b.2` of `b` (y), decided without exact arithmetic where
    /// it can be ([`tie`], with what [`value_ids`] knows of x_i = ±y_j).
    fn tie_at(
        &self,
        v: &[f64],
        a: (usize, usize, usize),
        b: (usize, usize, usize),
    ) -> Option<bool> {
        let (x, y) = (&self.outcomes[a.0][a.1][a.2], &self.outcomes[b.0][b.1][b.2]);
        let (xid, yid) = (self.ids[a.0][a.1][a.2], self.ids[b.0][b.1][b.2]);
        tie((v[a.2], x), (v[b.2], y), [xid.0 == yid.0, xid.0 == yid.1])
    }

    /// ‖Π M (v − q̇⁻)‖_g / ‖p⁻‖_g for the engine's `v`, as bounds.
    fn momentum_defect(&self, v: &[f64]) -> Option<(f64, f64)> {
        let n = v.len();
        let mut rows = Each::new();
        for (scale, row) in &self.defect {
            let mut acc = Acc::new();
            for (c, x) in row.iter().zip(v) {
                // an exact 0 adds nothing (and would cost a pass over the partials)
                if !c.is_zero() {
                    acc.dd(c, *x);
                }
            }
            acc.dd_neg(&row[n], 1.0);
            rows.push(unscale(acc.finish()?, *scale));
        }
        let r = rows.as_slice();
        // q = rᵀ g r ≥ 0, in interval arithmetic (no cancellation left to fear)
        let (mut lo, mut hi) = (0.0, 0.0);
        for i in 0..n {
            for j in 0..n {
                if self.metric[i][j] == (0.0, 0.0) {
                    continue;
                }
                let g = self.metric[i][j];
                let (a, b) = match i == j && g.0 >= 0.0 {
                    // r_i g_ii r_i = g_ii·r_i² with g_ii ≥ 0: four roundings, not sixteen
                    true => {
                        let (s, t) = abs_bounds(r[i]);
                        (
                            rounding::mul(rounding::mul(s, s, false), g.0, false),
                            rounding::mul(rounding::mul(t, t, true), g.1, true),
                        )
                    }
                    false => mul(mul(r[i], g), r[j]),
                };
                lo = rounding::add(lo, a, false);
                hi = rounding::add(hi, b, true);
            }
        }
        let lo = lo.max(0.0);
        let (lo, hi) = (
            rounding::div(lo, self.p0, false),
            rounding::div(hi, self.p0, true),
        );
        (self.p0 > 0.0 && hi.is_finite())
            .then(|| (rounding::sqrt(lo, false), rounding::sqrt(hi, true)))
    }
}

/// [lo, hi] / d for an integer d ≥ 1.
fn unscale((lo, hi): (f64, f64), d: f64) -> (f64, f64) {
    if d == 1.0 {
        (lo, hi)
    } else {
        (rounding::div(lo, d, false), rounding::div(hi, d, true))
    }
}

/// The product of two enclosures.
fn mul((a, b): (f64, f64), (c, d): (f64, f64)) -> (f64, f64) {
    let lows = [
        rounding::mul(a, c, false),
        rounding::mul(a, d, false),
        rounding::mul(b, c, false),
        rounding::mul(b, d, false),
    ];
    let highs = [
        rounding::mul(a, c, true),
        rounding::mul(a, d, true),
        rounding::mul(b, c, true),
        rounding::mul(b, d, true),
    ];
    (
        lows.into_iter().fold(f64::INFINITY, f64::min),
        highs.into_iter().fold(f64::NEG_INFINITY, f64::max),
    )
}

/// Whether |v − x| = |w − y| for engine values v, w and exact x, y, that is whether
/// (v − x) − σ(w − y) = 0 for σ = 1 or σ = −1, decided without exact arithmetic: where
/// x = σy is known (`same[0]` for σ = 1, `same[1]` for σ = −1) it is v − σw, exactly;
/// else the exact `f64` sum of v, −σw and the double-doubles of −x and σy, whose error
/// bound decides it unless it straddles 0 (`None`: undecided).
fn tie((v, x): (f64, &Dd), (w, y): (f64, &Dd), same: [bool; 2]) -> Option<bool> {
    let mut decided = true;
    for (sigma, same) in [(1.0, same[0]), (-1.0, same[1])] {
        let zero = if same {
            Some(v == sigma * w)
        } else {
            let mut acc = Acc::new();
            acc.add(v);
            acc.add(-sigma * w);
            acc.dd_neg(x, 1.0);
            acc.dd(y, sigma);
            match acc.finish() {
                Some((lo, hi)) if lo > 0.0 || hi < 0.0 => Some(false),
                Some((lo, hi)) if lo == 0.0 && hi == 0.0 => Some(true),
                _ => None,
            }
        };
        match zero {
            Some(true) => return Some(true),
            Some(false) => {}
            None => decided = false,
        }
    }
    decided.then_some(false)
}

/// One law's outcome (law `li`, outcome `k`) at its distance from the engine's.
struct Candidate {
    li: usize,
    k: usize,
    d: Distance,
}

/// The order of two candidates' distances as the exact path finds it (its `f64` upper
/// bounds, apart by more than their rounding, or exactly equal: attained at the same
/// component by the same exact value); `None` where the bounds cannot tell.
fn order<S: Scalar>(
    s: &Laws<S>,
    v: &[f64],
    a: &Candidate,
    b: &Candidate,
) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering;
    if a.d.hi.next_up() < b.d.lo.next_down() {
        return Some(Ordering::Less);
    }
    if b.d.hi.next_up() < a.d.lo.next_down() {
        return Some(Ordering::Greater);
    }
    if !S::is_exact() {
        return None;
    }
    let value = |c: &Candidate| s.results[c.li].1.as_ref().ok().map(|o| &o.outcomes[c.k]);
    let (x, y) = (value(a)?, value(b)?);
    // attained at components i and j (decided): the distances are |w_i − x_i| and
    // |w_j − y_j| exactly, equal when w_i − x_i = ±(w_j − y_j) (the same value at the
    // same component, or a tie by symmetry)
    if let (Some(i), Some(j)) = (a.d.at(), b.d.at()) {
        let fast = s.fast.as_ref();
        if let Some(tie) = fast.and_then(|f| f.tie_at(v, (a.li, a.k, i), (b.li, b.k, j))) {
            return tie.then_some(Ordering::Equal);
        }
        let di = S::from_f64_exact(v[i], &s.ctx)?.sub_r(&x[i]);
        let dj = S::from_f64_exact(v[j], &s.ctx)?.sub_r(&y[j]);
        let tie = di.sub_r(&dj).sign() == Sign::Zero || di.add_r(&dj).sign() == Sign::Zero;
        return tie.then_some(Ordering::Equal);
    }
    // else the two distances exactly, every component
    let w = v
        .iter()
        .map(|t| S::from_f64_exact(*t, &s.ctx))
        .collect::<Option<Vec<S>>>()?;
    let (da, _, _) = super::distance(&w, x, None);
    let (db, _, _) = super::distance(&w, y, None);
    (da.sub_r(&db).sign() == Sign::Zero).then_some(Ordering::Equal)
}

/// The first of `items` whose distance is least (as the exact path's stable sort finds
/// it), when the bounds decide it.
fn least<'a, S: Scalar>(
    s: &Laws<S>,
    v: &[f64],
    items: &[&'a Candidate],
) -> Option<Option<&'a Candidate>> {
    let Some(mut best) = items.first().copied() else {
        return Some(None);
    };
    for c in &items[1..] {
        if order(s, v, best, c)? == std::cmp::Ordering::Greater {
            best = c;
        }
    }
    Some(Some(best))
}

/// Law `li`'s outcome nearest to `v` (the first of the nearest, as [`least`] finds
/// it), when it is decided.
fn nearest_outcome<S: Scalar>(
    s: &Laws<S>,
    li: usize,
    v: &[f64],
    outs: &[Vec<Dd>],
) -> Option<Option<Candidate>> {
    let mut best: Option<Candidate> = None;
    for (k, out) in outs.iter().enumerate() {
        let c = Candidate {
            li,
            k,
            d: distance(v, out)?,
        };
        best = match best {
            Some(b) if order(s, v, &b, &c)? != std::cmp::Ordering::Greater => Some(b),
            _ => Some(c),
        };
    }
    Some(best)
}

/// The text report of `rec` against `s`, when the `f64` enclosures decide all of it
/// (see the module); `None` sends the record the exact way.
pub(super) fn evaluate<S: Scalar>(rec: &Record, s: &Laws<S>, f: &Fast) -> Option<RecordReport> {
    let sys = &s.sys;
    let out = &rec.output;
    let v = &out.v;
    if v.len() != sys.velocity.len() || v.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let expect_law = match &rec.expect {
        Some(e) if !(e.tolerance.is_finite() && e.tolerance >= 0.0) => return None,
        Some(e) => Some((Law::parse(&e.law)?, e.tolerance)),
        None => None,
    };
    names_fit(rec, sys).ok()?;
    if let Some(pre) = &out.pre {
        let tol = super::pre_tolerance(expect_law.map(|(_, t)| t), s.speed);
        if pre.len() != f.v0.len() || !within(distance(pre, &f.v0)?.each.as_slice(), tol)? {
            return None;
        }
    }
    if out
        .impulses
        .as_ref()
        .is_some_and(|p| p.iter().any(|x| !x.is_finite()))
    {
        return None;
    }
    let exact = S::is_exact();
    let scale = super::record_scale(rec, s.speed).ok()?;
    let fired = super::EngineOrder::of(out);
    let mut laws = Vec::with_capacity(s.results.len());
    let mut dist: Vec<Option<Candidate>> = Vec::with_capacity(s.results.len());
    let mut pass = None;
    for (li, ((law, r), shown)) in s.results.iter().zip(&s.shown).enumerate() {
        let Ok(o) = r else {
            if expect_law.is_some_and(|(l, _)| l == *law) {
                return None;
            }
            laws.push(LawCheck::not_applying(law.name(), s.why[li].clone()));
            dist.push(None);
            continue;
        };
        let c = nearest_outcome(s, li, v, &f.outcomes[li])??;
        let k = c.k;
        if let Some((_, tol)) = expect_law.filter(|(l, _)| l == law) {
            pass = Some(within(c.d.each.as_slice(), tol)?);
        }
        let sequence_consistent = fired
            .fits(&shown[k].first)
            .filter(|_| !o.sequences.get(k).is_none_or(|s| s.is_empty()));
        laws.push(LawCheck {
            law: law.name(),
            impulse_distance: None,
            impulse_distance_upper: None,
            applies: true,
            outcome: shown[k].numbers.clone(),
            difference: Vec::new(),
            distance: None,
            distance_upper: Some(c.d.hi),
            relative_distance: scale.and_then(|x| Some(c.d.hi / x).filter(|r| r.is_finite())),
            sequence: shown[k].sequence.clone(),
            sequence_consistent,
            note: shown[k].note.clone(),
        });
        dist.push(Some(c));
    }
    if expect_law.is_some() && pass.is_none() {
        return None;
    }
    // the nearest and second-nearest groups (by their first laws), as decided
    let firsts: Vec<&Candidate> = s
        .grouped
        .iter()
        .filter_map(|g| dist[g[0]].as_ref())
        .collect();
    let first = least(s, v, &firsts)?;
    let rest: Vec<&Candidate> = firsts
        .iter()
        .copied()
        .filter(|c| first.is_some_and(|f| f.li != c.li))
        .collect();
    let second = least(s, v, &rest)?;
    let ranked: Vec<&Candidate> = first.into_iter().chain(second).collect();
    let group = |c: &Candidate| s.grouped.iter().find(|g| g[0] == c.li);
    let names = |c: &Candidate| {
        group(c)
            .map(|g| g.iter().map(|&i| s.results[i].0.name()).collect::<Vec<_>>())
            .unwrap_or_default()
    };
    for c in &ranked {
        let shown = settled(c.d.lo, c.d.hi, exact, false)?;
        let rel = relative(c.d.lo, c.d.hi, exact, scale)?;
        for &i in group(c)? {
            laws[i].distance_upper = Some(shown);
            laws[i].relative_distance = rel;
        }
    }
    let nearest_certain = match (first, second) {
        (Some(a), Some(b)) => Some(order(s, v, a, b)? == std::cmp::Ordering::Less),
        _ => None,
    };
    // the nearest law's impulses, as the text prints them
    if let Some(c) = first {
        let (i, k) = (c.li, c.k);
        if let (Some(law), Some(layout)) = (&f.impulses[i][k], impulse_layout(rec, sys)) {
            let given = out.impulses.as_ref()?;
            // an unnamed contact took no impulse; a non-touching one gets none from the law
            let zero = Dd {
                h: 0.0,
                l: 0.0,
                err: 0.0,
            };
            let engine: Vec<f64> = layout
                .iter()
                .map(|(e, _)| e.map_or(0.0, |e| given[e]))
                .collect();
            let theirs: Vec<Dd> = layout
                .iter()
                .map(|(_, l)| l.map_or(zero, |l| law[l]))
                .collect();
            let Distance { lo, hi, .. } = distance(&engine, &theirs)?;
            laws[i].impulse_distance_upper = Some(settled(lo, hi, exact, false)?);
        }
    }
    s.e0.as_ref().ok()?;
    let (a, b) = f.energy_change(v)?;
    let energy_change = settled(a, b, exact, true)?;
    let (a, b) = f.momentum_defect(v)?;
    let momentum_defect = settled(a, b, exact, false)?;
    let expect = rec.expect.as_ref().map(|e| super::ExpectReport {
        law: e.law.clone(),
        tolerance: e.tolerance,
        distance: None,
        pass: pass == Some(true),
        reason: if pass == Some(true) {
            "within tolerance".into()
        } else {
            "outside tolerance".into()
        },
    });
    Some(RecordReport {
        line: rec.line,
        id: rec.id.clone(),
        engine: rec.engine.name.clone(),
        version: rec.engine.version.clone(),
        set: super::set_name(rec),
        scenario: s.name.clone(),
        source: s.source.clone(),
        arith: s.arith.clone(),
        scale,
        laws,
        not_discriminating: s.grouped.len() == 1 && !s.unfinished,
        nearest: first.map(names).unwrap_or_default(),
        second: second.map(names).unwrap_or_default(),
        nearest_certain,
        // text prints no energy (and this report is only ever rendered as text)
        energy_before: None,
        energy_after: None,
        energy_change: Some(energy_change),
        momentum_defect: Some(momentum_defect),
        expect,
        error: None,
        shared_finite: s.shared_finite,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Rational;

    /// Terms that cancel leave the exact remainder: 10¹⁶ + 1 − 10¹⁶ is 1, and
    /// 0.1·3 − 0.3 (as the doubles they are) is 2⁻⁵⁶·…, not 0 and not a rounding error.
    #[test]
    fn sums_are_exact() {
        let mut a = Acc::new();
        a.add(1e16);
        a.add(1.0);
        a.add(-1e16);
        assert_eq!(a.finish(), Some((1.0, 1.0)));
        let mut b = Acc::new();
        b.product(0.1, 3.0);
        b.add(-0.3);
        let exact: rug::Rational =
            rug::Rational::from_f64(0.1).unwrap() * 3u32 - rug::Rational::from_f64(0.3).unwrap();
        let want = exact.to_f64();
        assert_eq!(b.finish(), Some((want, want)));
        assert_ne!(want, 0.0);
    }

    /// A sum that needs more partials than an `Acc` keeps still encloses the exact sum,
    /// a few ulps wide: 2⁰ + 2⁻⁶⁰ + … + 2⁻¹¹⁴⁰ has 20 non-overlapping partials.
    #[test]
    fn a_full_sum_moves_its_smallest_partials_into_the_bound() {
        let mut a = Acc::new();
        let mut exact = rug::Rational::new();
        for k in 0..20 {
            let t = 2f64.powi(-60 * k);
            a.add(t);
            exact += rug::Rational::from_f64(t).unwrap();
        }
        let (lo, hi) = a.finish().unwrap();
        let (lo, hi) = (
            rug::Rational::from_f64(lo).unwrap(),
            rug::Rational::from_f64(hi).unwrap(),
        );
        assert!(lo <= exact && exact <= hi);
        // the partials left are summed with outward rounding: a few ulps of the sum
        assert!(hi - lo <= rug::Rational::from_f64(4.0 * f64::EPSILON).unwrap());
    }

    /// 1/3 is not a double: its double-double carries a bound, and c·3 − 1 encloses 0
    /// within 10⁻³⁰.
    #[test]
    fn constants_carry_their_error() {
        let third = Dd::of(&Rational::new(1, 3)).unwrap();
        let (lo, hi) = third.bounds();
        assert!(lo < 1.0 / 3.0 + 1e-17 && hi > 1.0 / 3.0 - 1e-17 && lo < hi);
        let mut a = Acc::new();
        a.dd(&third, 3.0);
        a.add(-1.0);
        let (lo, hi) = a.finish().unwrap();
        assert!(lo <= 0.0 && 0.0 <= hi && hi - lo < 1e-30, "[{lo}, {hi}]");
        // over a common denominator, 1/3 and 2/3 are integers and sums exact
        let (d, ints) = scaled(&[&Rational::new(1, 3), &Rational::new(2, 3)]).unwrap();
        assert_eq!(d, 3.0);
        assert_eq!((ints[0].h, ints[1].h, ints[0].err), (1.0, 2.0, 0.0));
    }

    /// Ties between two distances' attaining components, decided in `f64` where the
    /// numbers allow: a known equal (or opposite) value leaves v ∓ w; exact dyadic
    /// constants sum exactly; an irrational constant decides "not equal" from its error
    /// bound, and leaves an equality it cannot see to exact arithmetic (`None`).
    #[test]
    fn ties_are_decided_in_f64_where_the_numbers_allow() {
        use crate::arith::Quadratic;
        let q = |a: i64, b: i64| Rational::new(a, b);
        let third = Dd::of(&q(1, 3)).unwrap();
        // x = y = 1/3 known equal: |v − 1/3| = |w − 1/3| exactly when v = w
        assert_eq!(tie((0.5, &third), (0.5, &third), [true, false]), Some(true));
        assert_eq!(
            tie((0.5, &third), (0.25, &third), [true, false]),
            Some(false)
        );
        // not known equal: v − w − (x − y) straddles 0 by x's and y's error bounds
        assert_eq!(tie((0.5, &third), (0.5, &third), [false, false]), None);
        // √3/2 and −√3/2 known opposite: v − √3/2 = −(w + √3/2) exactly when v = −w
        let r3 = Quadratic::new(
            rug::Rational::new(),
            rug::Rational::from((1, 2)),
            &rug::Integer::from(3),
        )
        .unwrap();
        let (x, y) = (
            Dd::of(&r3).unwrap(),
            Dd::of(&r3.zero_like().sub_r(&r3)).unwrap(),
        );
        assert_eq!(tie((0.1, &x), (-0.1, &y), [false, true]), Some(true));
        assert_eq!(tie((0.1, &x), (0.1, &y), [false, true]), Some(false));
        // dyadic constants: (1 − 1/2) − (3/4 − 1/4) = 0 exactly, 1 − 1/2 + 0.7 − 1/4 ≠ 0
        let (h, k) = (Dd::of(&q(1, 2)).unwrap(), Dd::of(&q(1, 4)).unwrap());
        assert_eq!(tie((1.0, &h), (0.75, &k), [false, false]), Some(true));
        assert_eq!(tie((1.0, &h), (0.7, &k), [false, false]), Some(false));
    }

    /// A quantity prints as one string only when its whole enclosure does.
    #[test]
    fn settled_values_print_as_the_exact_path_does() {
        assert_eq!(settled(0.0, 0.0, true, false), Some(0.0));
        assert_eq!(settled(0.0, 0.0, false, false), None);
        assert_eq!(settled(1.2341, 1.2342, true, false), Some(1.2342));
        assert_eq!(settled(1.2349, 1.2351, true, false), None);
        assert_eq!(settled(-2e-5, -2e-5, true, true), Some(-2e-5));
    }
}
