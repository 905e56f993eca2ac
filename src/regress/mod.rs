//! `impactkit regress`: a simulator's output records against every impact law that
//! applies, exactly.
//!
//! For each record: every law's outcome on the record's system ([`crate::system::laws`]),
//! computed exactly where the inputs allow (rationals, then one Q(√d)) and as MPFR
//! enclosures otherwise; the distance engine − law (max norm over the components, the
//! engine's `f64` values taken as the exact binary numbers they are); the nearest and
//! second-nearest *distinct* outcomes (laws whose outcomes coincide exactly form one
//! group); a **not discriminating** flag when every law that applies gives the same
//! outcome and none stopped at a limit before giving one; the
//! engine's energy and the momentum no contact impulse can produce; the engine's contact
//! order against each law's; and the `expect` clause.
//!
//! The library entry for a simulator's own test suite is [`check`].

mod fast;
pub mod fit;
pub mod model;
pub mod record;
pub mod stream;

use crate::arith::backend::{Backend, RunScalar};
use crate::arith::{decide, Num, Scalar, Sign};
use crate::law::propagative::Contacts;
use crate::report::regress::{ExpectReport, LawCheck, RecordReport, RegressReport};
use crate::system::file::{System, SystemFile};
use crate::system::laws::{agree, all, energy, why_not, Law, LawResult};
use record::{Record, RecordError, ScenarioSpec};
use std::path::Path;
use std::sync::Arc;

/// Largest number of Pasquero impulses / Newton solves per law.
pub const MAX_ITER: usize = 1000;

/// The engine's f64 as the exact number it is, in `S`.
fn exact<S: Scalar>(x: f64, ctx: &S::Ctx) -> Option<S> {
    S::from_f64_exact(x, ctx)
}

/// The engine's velocity `field` in `S`, checked against the system.
fn observed<S: Scalar>(
    field: &str,
    v: &[f64],
    sys: &System<S>,
    ctx: &S::Ctx,
) -> Result<Vec<S>, String> {
    if v.len() != sys.velocity.len() {
        return Err(format!(
            "{field}: {} components, the system has {} coordinates",
            v.len(),
            sys.velocity.len()
        ));
    }
    v.iter()
        .map(|&x| exact::<S>(x, ctx).ok_or_else(|| format!("{field}: {x} is not finite")))
        .collect()
}

/// `(a, b, …)` of f64 values (for error lines).
fn tuple(xs: impl Iterator<Item = f64>) -> String {
    let parts: Vec<String> = xs.map(|x| format!("{x}")).collect();
    format!("({})", parts.join(", "))
}

/// The record's own fields checked against its system: the engine's pre-impact
/// velocity `pre` against q̇⁻ within `tolerance` (the `expect` tolerance, else 10⁻⁹ of
/// max(1, ‖q̇⁻‖∞)), contact names, and the lengths and values of `impulses`.
fn check_fields<S: Scalar>(
    rec: &Record,
    sys: &System<S>,
    ctx: &S::Ctx,
    tolerance: Option<f64>,
    speed: f64,
) -> Result<(), String> {
    let out = &rec.output;
    if let Some(pre) = &out.pre {
        let p = observed("output.pre", pre, sys, ctx)?;
        let t = pre_tolerance(tolerance, speed);
        let tol = exact::<S>(t, ctx).ok_or("output.pre: the tolerance is not finite")?;
        let (_, hi, within) = distance(&p, &sys.velocity, Some(&tol));
        if within != Some(true) {
            return Err(format!(
                "output.pre: the engine's pre-impact velocity {} is not the scenario's {}: {hi:.3e} apart, more than the tolerance {t:e}",
                tuple(pre.iter().copied()),
                tuple(sys.velocity.iter().map(Scalar::to_f64))
            ));
        }
    }
    names_fit(rec, sys)
}

/// The tolerance of `output.pre`: the `expect` tolerance, else 10⁻⁹ of
/// max(1, ‖q̇⁻‖∞) (`speed` = ‖q̇⁻‖∞).
fn pre_tolerance(tolerance: Option<f64>, speed: f64) -> f64 {
    tolerance.unwrap_or(1e-9 * speed.max(1.0))
}

/// The record's contact names and the length of `output.impulses` against its system
/// (no arithmetic).
fn names_fit<S>(rec: &Record, sys: &System<S>) -> Result<(), String> {
    let out = &rec.output;
    let named = (out
        .contacts
        .iter()
        .flatten()
        .map(|c| ("output.contacts", c)))
    .chain(
        out.events
            .iter()
            .flatten()
            .flatten()
            .map(|c| ("output.events", c)),
    );
    for (field, c) in named {
        if !sys.contacts.contains(c) && !sys.ignored.contains(c) {
            let known: Vec<&str> = sys
                .contacts
                .iter()
                .chain(&sys.ignored)
                .map(|s| s.as_str())
                .collect();
            return Err(format!(
                "{field}: `{c}` is not a contact of the system (its contacts: {})",
                known.join(", ")
            ));
        }
    }
    if let Some(p) = &out.impulses {
        if let Some(x) = p.iter().find(|x| !x.is_finite()) {
            return Err(format!("output.impulses: {x} is not finite"));
        }
        let all = sys.contacts.len() + sys.ignored.len();
        match &out.contacts {
            Some(c) if c.len() != p.len() => {
                return Err(format!(
                    "output.impulses: {} values for {} contacts in output.contacts",
                    p.len(),
                    c.len()
                ))
            }
            None if p.len() != sys.contacts.len() && p.len() != all => {
                return Err(format!(
                    "output.impulses: {} values, the system has {} touching contacts ({all} in all); name them in output.contacts",
                    p.len(),
                    sys.contacts.len()
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// max_i |a_i − b_i|, the component chosen by its f64 value, and whether every
/// |a_i − b_i| ≤ tol is decided true (`None`: undecided).
fn distance<S: Scalar>(a: &[S], b: &[S], tol: Option<&S>) -> (S, f64, Option<bool>) {
    let mut best: Option<(S, f64)> = None;
    let mut within = Some(true);
    for (x, y) in a.iter().zip(b) {
        let d = x.sub_r(y);
        let hi = match d.enclosure() {
            Some((lo, hi)) => lo.abs().max(hi.abs()),
            None => d.to_f64().abs(),
        };
        if let Some(t) = tol {
            let above = decide(&d.sub_r(t), "engine − law − tolerance");
            let below = decide(&(-d.clone()).sub_r(t), "law − engine − tolerance");
            within = match (within, above, below) {
                (Some(false), _, _) => Some(false),
                (_, Ok(Sign::Positive), _) | (_, _, Ok(Sign::Positive)) => Some(false),
                (w, Ok(_), Ok(_)) => w,
                _ => None,
            };
        }
        if best.as_ref().is_none_or(|(_, b)| hi > *b) {
            let abs = if d.sign() == Sign::Negative { -d } else { d };
            best = Some((abs, hi));
        }
    }
    let (d, hi) = best.unwrap_or((a[0].zero_like(), 0.0));
    (d, hi, within)
}

/// Whether the engine's contact order fits a law's sequence of impacted sets: the same
/// contacts, and a contact first impacted in an earlier set reported earlier.
pub fn consistent(engine: &[String], law: &[Vec<String>]) -> bool {
    EngineOrder::Contacts(distinct(engine)).fits(&owned(first_steps(law.iter().map(Vec::as_slice))))
        == Some(true)
}

/// Each name of `names` once, in the order first given.
fn distinct(names: &[String]) -> Vec<&str> {
    let mut seen: Vec<&str> = Vec::new();
    for c in names {
        if !seen.contains(&c.as_str()) {
            seen.push(c);
        }
    }
    seen
}

/// The step of each contact's first impact: per contact name, the index of the first
/// set of `sets` holding it (a set's entries may join simultaneous contacts with `+`).
fn first_steps<'a>(sets: impl IntoIterator<Item = &'a [String]>) -> Vec<(&'a str, usize)> {
    let mut first: Vec<(&str, usize)> = Vec::new();
    for (k, set) in sets.into_iter().enumerate() {
        for c in set.iter().flat_map(|s| s.split('+')) {
            if !first.iter().any(|(n, _)| *n == c) {
                first.push((c, k));
            }
        }
    }
    first
}

/// [`first_steps`] with owned names (a law's, kept with its scenario).
fn owned(first: Vec<(&str, usize)>) -> Vec<(String, usize)> {
    first.into_iter().map(|(c, k)| (c.to_string(), k)).collect()
}

/// Whether the engine's events (in order, each the contacts that fired together) fit a
/// law's sequence of impacted sets: the same contacts, and any two first impacted
/// together by the engine exactly when together by the law, in the same order
/// otherwise (the two weak orders of first impacts are equal).
pub fn events_fit(events: &[Vec<String>], law: &[Vec<String>]) -> bool {
    EngineOrder::Events(first_steps(events.iter().map(Vec::as_slice)))
        .fits(&owned(first_steps(law.iter().map(Vec::as_slice))))
        == Some(true)
}

/// The engine's order of first impacts as a record reports it, read once per record
/// and compared with each law's ([`Shown::first`]).
#[derive(Debug, PartialEq)]
enum EngineOrder<'a> {
    /// `output.events`: each contact's first event ([`events_fit`]).
    Events(Vec<(&'a str, usize)>),
    /// `output.contacts`: each contact once, in the order first reported ([`consistent`]).
    Contacts(Vec<&'a str>),
    /// Neither.
    Unknown,
}

impl<'a> EngineOrder<'a> {
    /// The record's `events` when given, else the order of its `contacts`.
    fn of(out: &'a record::Output) -> Self {
        match (&out.events, &out.contacts) {
            (Some(e), _) => EngineOrder::Events(first_steps(e.iter().map(Vec::as_slice))),
            (None, Some(c)) => EngineOrder::Contacts(distinct(c)),
            (None, None) => EngineOrder::Unknown,
        }
    }

    /// Whether it fits a law whose contacts are first impacted at the steps `law`
    /// (`None`: the record reports no order).
    fn fits(&self, law: &[(String, usize)]) -> Option<bool> {
        let step = |c: &str| law.iter().find(|(n, _)| n == c).map(|(_, k)| *k);
        match self {
            EngineOrder::Events(engine) => Some(
                engine.len() == law.len()
                    && engine.iter().all(|(c, _)| step(c).is_some())
                    && engine.iter().all(|(a, ea)| {
                        engine
                            .iter()
                            .all(|(b, eb)| ea.cmp(eb) == step(a).cmp(&step(b)))
                    }),
            ),
            EngineOrder::Contacts(seen) => Some(
                seen.len() == law.len()
                    && seen.iter().all(|c| step(c).is_some())
                    && seen.windows(2).all(|w| step(w[0]) <= step(w[1])),
            ),
            EngineOrder::Unknown => None,
        }
    }
}

/// Groups of laws with exactly the same outcomes (decided; an undecided pair stays apart).
fn groups<S: Scalar>(results: &[(Law, LawResult<S>)]) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (i, (_, r)) in results.iter().enumerate() {
        let Ok(o) = r else { continue };
        let home = out.iter_mut().find(|g| {
            let Ok(first) = &results[g[0]].1 else {
                return false;
            };
            agree(&o.outcomes, &first.outcomes).0 == Some(true)
        });
        match home {
            Some(g) => g.push(i),
            None => out.push(vec![i]),
        }
    }
    out
}

/// The laws of one scenario, computed once for every record that names it
/// ([`prepare`]); object-safe so that scenarios of different backends share one cache.
pub trait Scenario: Send + Sync {
    /// One record against the scenario's laws; `full`: with the exact values of
    /// every difference and distance and the energy after (JSON), else only what the
    /// text report prints (the decisions are the same).
    fn evaluate(&self, rec: &Record, full: bool) -> RecordReport;

    /// The text report of a record the `f64` way (error-free `f64` sums
    /// with rigorous bounds), when those bounds decide everything the text shows;
    /// [`Scenario::evaluate`] tries it first for text reports.
    fn evaluate_f64(&self, _rec: &Record) -> Option<RecordReport> {
        None
    }

    /// A record the exact way only (what [`Scenario::evaluate_f64`] must agree with).
    fn evaluate_exact(&self, rec: &Record, full: bool) -> RecordReport {
        self.evaluate(rec, full)
    }
}

/// A scenario whose system could not be built: every record naming it is that error.
pub(crate) struct Failed(pub(crate) String);

impl Scenario for Failed {
    fn evaluate(&self, rec: &Record, _: bool) -> RecordReport {
        RecordReport::error(rec.line, rec.id.clone(), self.0.clone())
    }
}

/// A law's outcome as printed, per outcome of the law: its numbers and its contacts in
/// impact order (simultaneous ones joined with `+`).
struct Shown {
    numbers: Arc<[Num]>,
    /// Each contact's first impact step ([`first_steps`] of the sequence).
    first: Vec<(String, usize)>,
    sequence: Arc<[String]>,
    /// The law's note (shared by its outcomes).
    note: Arc<str>,
}

/// The laws of one system in `S`, and what every record of it reuses.
struct Laws<S: Scalar> {
    sys: System<S>,
    /// The system's name, where it came from, and the arithmetic (as reports give them).
    name: Arc<str>,
    source: Arc<str>,
    ctx: S::Ctx,
    arith: Arc<str>,
    results: Vec<(Law, LawResult<S>)>,
    grouped: Vec<Vec<usize>>,
    /// Per law, per outcome (empty for a law without one).
    shown: Vec<Vec<Shown>>,
    /// A law stopped at a limit: it might still have told the outcomes apart.
    unfinished: bool,
    /// The pre-impact energy, exact and as printed.
    e0: Result<(S, Num), String>,
    /// The momentum defect as a quadratic form: ‖Π M w‖²_g = wᵀ A w for w = q̇⁺ − q̇⁻
    /// (Π the g-orthogonal projection off span{∇φ_i}, linear), with ‖p⁻‖²_g.
    defect: Result<(Vec<Vec<S>>, f64), String>,
    /// Per law, per outcome: the impulses of the touching contacts that give it
    /// ([`law_impulses`]; `None` for dependent normals).
    impulses: Vec<Vec<Option<Vec<S>>>>,
    /// ‖q̇⁻‖∞ in f64: the default speed scale of relative distances.
    speed: f64,
    /// Per law, why it gives no outcome (empty for a law with one).
    why: Vec<Arc<str>>,
    /// No law's outcome, note or reason holds a non-finite number
    /// ([`RecordReport::shared_finite`]).
    shared_finite: bool,
    /// The scenario's numbers for the `f64` path of text reports ([`fast`]).
    fast: Option<fast::Fast>,
}

/// The impulses λ of the touching contacts that take q̇⁻ to `v`: M(v − q̇⁻) = Σ λ_i ∇φ_i,
/// so G λ = (⟨∇φ_i, M(v − q̇⁻)⟩_g)_i with G the Gram matrix of the normals in the kinetic
/// metric g = M⁻¹ (Seghete–Murphey eq. (7); Pasquero's impulse I = Σ λ_i ∇φ_i). Any
/// law's outcome has them when the normals are independent; `None` otherwise.
fn law_impulses<S: Scalar>(c: &Contacts<S>, sys: &System<S>, v: &[S]) -> Option<Vec<S>> {
    let dp = sys.mass.apply(&crate::linalg::sub(v, &sys.velocity));
    let rhs = sys
        .normals
        .iter()
        .map(|n| c.inner(n, &dp))
        .collect::<Result<Vec<S>, _>>()
        .ok()?;
    crate::linalg::solve(c.gram(), rhs).ok()
}

/// Which impulses are compared, pair by pair: the engine's (an index into
/// `output.impulses`; `None`: zero) and the law's (an index of a touching contact;
/// `None`: zero). The touching contacts in the system's order (an unnamed one took no
/// impulse), then the named contacts that do not touch (the law gives them none).
/// `None` when the engine reported impulses for every contact without naming them
/// (their order is then not known), or reported none.
fn impulse_layout<S>(rec: &Record, sys: &System<S>) -> Option<Vec<(Option<usize>, Option<usize>)>> {
    let given = rec.output.impulses.as_ref()?;
    match &rec.output.contacts {
        None if given.len() == sys.contacts.len() => {
            Some((0..given.len()).map(|i| (Some(i), Some(i))).collect())
        }
        None => None,
        Some(names) => {
            let at = |c: &String| names.iter().position(|n| n == c);
            let touching = sys
                .contacts
                .iter()
                .enumerate()
                .map(|(i, c)| (at(c), Some(i)));
            let others = sys
                .ignored
                .iter()
                .filter_map(|c| at(c).map(|k| (Some(k), None)));
            Some(touching.chain(others).collect())
        }
    }
}

/// The engine's impulses and the law's, side by side ([`impulse_layout`]).
fn impulse_pair<S: Scalar>(
    rec: &Record,
    sys: &System<S>,
    law: &[S],
    ctx: &S::Ctx,
) -> Option<(Vec<S>, Vec<S>)> {
    let given = rec.output.impulses.as_ref()?;
    let zero = sys.velocity[0].zero_like();
    let mut engine = Vec::new();
    let mut theirs = Vec::new();
    for (e, l) in impulse_layout(rec, sys)? {
        engine.push(match e {
            Some(k) => exact::<S>(given[k], ctx)?,
            None => zero.clone(),
        });
        theirs.push(l.map_or_else(|| zero.clone(), |i| law[i].clone()));
    }
    Some((engine, theirs))
}

/// The matrix A with ‖Π M w‖²_g = wᵀ A w ([`crate::system::laws::momentum_defect`]):
/// A_ij = ⟨Π M e_i, Π M e_j⟩_g, built once per scenario so that a record costs n²
/// products instead of a projection and a solve.
fn defect_form<S: Scalar>(sys: &System<S>) -> Result<(Vec<Vec<S>>, f64), crate::law::LawError> {
    let c = Contacts::new(sys.mass.clone(), sys.normals.clone())?;
    let n = sys.velocity.len();
    let zero = sys.velocity[0].zero_like();
    let cols = (0..n)
        .map(|j| {
            let e: Vec<S> = (0..n)
                .map(|i| {
                    if i == j {
                        zero.lift_i64(1)
                    } else {
                        zero.clone()
                    }
                })
                .collect();
            c.plastic(&sys.mass.apply(&e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let a = (0..n)
        .map(|i| (0..n).map(|j| c.inner(&cols[i], &cols[j])).collect())
        .collect::<Result<Vec<Vec<S>>, _>>()?;
    let p0 = sys.mass.apply(&sys.velocity);
    Ok((a, c.inner(&p0, &p0)?.to_f64()))
}

/// wᵀ A w.
fn quadratic_form<S: Scalar>(a: &[Vec<S>], w: &[S]) -> S {
    let zero = w[0].zero_like();
    let mut sum = zero.clone();
    for (i, row) in a.iter().enumerate() {
        if w[i].sign() == Sign::Zero {
            continue;
        }
        let mut r = zero.clone();
        for (j, x) in row.iter().enumerate() {
            if w[j].sign() != Sign::Zero {
                r = r + &x.mul_r(&w[j]);
            }
        }
        sum = sum + &r.mul_r(&w[i]);
    }
    sum
}

impl<S: Scalar> Laws<S> {
    fn new(
        sys: System<S>,
        source: String,
        ctx: S::Ctx,
        arith: String,
        lzb: Option<&Vec<LzbPoint>>,
    ) -> Self {
        use crate::input::caps::{DEFAULT_DIGITS, DEFAULT_LAWS_REFLECTIONS};
        let mut results =
            crate::budget::with_law_caps(DEFAULT_DIGITS, DEFAULT_LAWS_REFLECTIONS, || {
                all(&sys, MAX_ITER)
            });
        for point in lzb.into_iter().flatten() {
            results.push((point.law, point.on::<S>(&ctx)));
        }
        let grouped = groups(&results);
        let shown: Vec<Vec<Shown>> = results
            .iter()
            .map(|(_, r)| match r {
                Ok(o) => (0..o.outcomes.len())
                    .map(|k| {
                        let named = o.named_sequence(&sys, k);
                        Shown {
                            numbers: o.outcomes[k].iter().map(Scalar::num).collect(),
                            sequence: named.iter().map(|s| s.join("+")).collect(),
                            first: owned(first_steps(named.iter().map(Vec::as_slice))),
                            note: o.note.as_str().into(),
                        }
                    })
                    .collect(),
                Err(_) => Vec::new(),
            })
            .collect();
        let unfinished = results
            .iter()
            .any(|(_, r)| r.as_ref().is_err_and(crate::system::laws::unfinished));
        let e0 = energy(&sys, &sys.velocity)
            .map(|e| {
                let n = e.num();
                (e, n)
            })
            .map_err(|e| e.to_string());
        let defect = defect_form(&sys).map_err(|e| e.to_string());
        let why: Vec<Arc<str>> = results
            .iter()
            .map(|(_, r)| r.as_ref().err().map(why_not).unwrap_or_default().into())
            .collect();
        let speed = sys
            .velocity
            .iter()
            .map(|x| x.to_f64().abs())
            .fold(0.0, f64::max);
        let contacts = Contacts::new(sys.mass.clone(), sys.normals.clone()).ok();
        let impulses = results
            .iter()
            .map(|(_, r)| match (r, &contacts) {
                (Ok(o), Some(c)) => o
                    .outcomes
                    .iter()
                    .map(|v| law_impulses(c, &sys, v))
                    .collect(),
                (Ok(o), None) => vec![None; o.outcomes.len()],
                (Err(_), _) => Vec::new(),
            })
            .collect();
        use crate::report::regress::{finite_num, quotes_non_finite};
        let shared_finite = shown
            .iter()
            .flatten()
            .all(|s| s.numbers.iter().all(finite_num) && !quotes_non_finite(&s.note))
            && why.iter().all(|n| !quotes_non_finite(n));
        let mut laws = Laws {
            name: sys.name.as_str().into(),
            sys,
            source: source.into(),
            ctx,
            arith: arith.into(),
            results,
            grouped,
            shown,
            unfinished,
            e0,
            defect,
            impulses,
            speed,
            why,
            shared_finite,
            fast: None,
        };
        laws.fast = fast::Fast::new(&laws);
        laws
    }
}

impl<S: Scalar> Scenario for Laws<S> {
    fn evaluate(&self, rec: &Record, full: bool) -> RecordReport {
        match full {
            false => self.evaluate_f64(rec),
            true => None,
        }
        .unwrap_or_else(|| self.evaluate_exact(rec, full))
    }

    fn evaluate_f64(&self, rec: &Record) -> Option<RecordReport> {
        fast::evaluate(rec, self, self.fast.as_ref()?)
    }

    fn evaluate_exact(&self, rec: &Record, full: bool) -> RecordReport {
        evaluate(rec, self, full)
            .unwrap_or_else(|e| RecordReport::error(rec.line, rec.id.clone(), e))
    }
}

/// Significant digits of the LZB outcome that `regress` compares records with.
pub const LZB_DIGITS: usize = 30;

/// The LZB outcome of a file with an `[lzb]` table, as `regress` compares records with
/// it: the ΔP scheme run on 256-bit intervals, each component of the enclosure's midpoint
/// rounded to [`LZB_DIGITS`] significant digits (a decimal, so that the comparison stays
/// exact; the enclosure is far narrower than the scheme's own O(ΔP) error). `Err`: why
/// the law gives no outcome.
pub struct LzbPoint {
    law: Law,
    shown: Result<LzbShown, crate::law::LawError>,
}

/// LZB's rounded velocity, its primary contacts (one set per turn) and its note.
type LzbShown = (Vec<String>, Vec<Vec<usize>>, String);

impl LzbPoint {
    /// The ΔP scheme's and the certified limit's points.
    fn of(file: &SystemFile, source: &str) -> Vec<LzbPoint> {
        [Law::Lzb, Law::LzbLimit]
            .into_iter()
            .map(|law| LzbPoint {
                law,
                shown: Backend::MpInterval(crate::system::laws::LZB_BITS)
                    .run(LzbJob(file, source, law)),
            })
            .collect()
    }

    /// The outcome on backend `S`.
    fn on<S: Scalar>(&self, ctx: &S::Ctx) -> LawResult<S> {
        let (v, seq, note) = self.shown.as_ref().map_err(Clone::clone)?;
        let v = v
            .iter()
            .map(|x| crate::input::value::<S>(x, "lzb", ctx))
            .collect::<Result<Vec<S>, _>>()
            .map_err(|e| crate::law::LawError::Domain(e.to_string()))?;
        Ok(crate::system::laws::LawOutcome {
            law: self.law,
            outcomes: vec![v],
            sequences: vec![seq.clone()],
            note: note.clone(),
        })
    }
}

/// One LZB row's point ([`LzbPoint`]), run on enclosures.
struct LzbJob<'a>(&'a SystemFile, &'a str, Law);

impl RunScalar for LzbJob<'_> {
    type Out = Result<LzbShown, crate::law::LawError>;
    fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
        let sys = self
            .0
            .build::<S>(self.1, ctx)
            .map_err(|e| crate::law::LawError::Domain(e.to_string()))?;
        let o = crate::system::laws::run(self.2, &sys, MAX_ITER)?;
        let mid = |x: &S| -> Result<String, crate::law::LawError> {
            let (lo, hi) = x.rational_bounds().ok_or_else(|| {
                crate::law::LawError::Domain("no enclosure of the LZB outcome".into())
            })?;
            let m = crate::arith::rat_to_rug(&((lo + hi) / num_bigint::BigInt::from(2)));
            Ok(crate::arith::decimal::round_rational(&m, LZB_DIGITS))
        };
        let v = o.outcomes[0]
            .iter()
            .map(mid)
            .collect::<Result<Vec<_>, _>>()?;
        let note = format!("{}; midpoint to {LZB_DIGITS} digits", o.note);
        Ok((v, o.sequences[0].clone(), note))
    }
}

/// The scenario of `file` (named `source`, e.g. its path), its laws computed exactly
/// where the numbers allow (rationals, Q(√d), the real algebraic numbers) and as MPFR
/// enclosures (256 bits) otherwise; with an `[lzb]` table, LZB's outcome too
/// ([`LzbPoint`]).
pub fn prepare(file: &SystemFile, source: &str) -> Arc<dyn Scenario> {
    struct Job<'a>(&'a SystemFile, &'a str, String, Option<Vec<LzbPoint>>);
    impl RunScalar for Job<'_> {
        type Out = Arc<dyn Scenario>;
        fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
            match self.0.build::<S>(self.1, ctx) {
                Ok(sys) => Arc::new(Laws::new(
                    sys,
                    self.1.to_string(),
                    ctx.clone(),
                    self.2,
                    self.3.as_ref(),
                )),
                Err(e) => Arc::new(Failed(e.to_string())),
            }
        }
    }
    let backend = file
        .exact_backend(source)
        .unwrap_or(Backend::MpInterval(256));
    let lzb = file.lzb.is_some().then(|| LzbPoint::of(file, source));
    backend.run(Job(file, source, backend.to_string(), lzb))
}

/// One record against the laws of its scenario.
fn evaluate<S: Scalar>(rec: &Record, s: &Laws<S>, full: bool) -> Result<RecordReport, String> {
    let (sys, ctx, results) = (&s.sys, &s.ctx, &s.results);
    let num = |x: &S| full.then(|| x.num());
    let v = observed("output.v", &rec.output.v, sys, ctx)?;
    let expect_law = match &rec.expect {
        Some(e) => Some(Law::parse(&e.law).ok_or_else(|| {
            let names: Vec<&str> = Law::every().map(Law::name).collect();
            format!(
                "expect.law: `{}` is not a law impactkit knows{} (laws: {})",
                e.law,
                crate::input::suggest::nearest(&e.law, &names),
                names.join(", ")
            )
        })?),
        None => None,
    };
    let tol = match &rec.expect {
        Some(e) if !(e.tolerance.is_finite() && e.tolerance >= 0.0) => {
            return Err("expect.tolerance: must be a finite number ≥ 0".into())
        }
        Some(e) => exact::<S>(e.tolerance, ctx),
        None => None,
    };
    check_fields(
        rec,
        sys,
        ctx,
        rec.expect.as_ref().map(|e| e.tolerance),
        s.speed,
    )?;
    let scale = record_scale(rec, s.speed)?;
    let order = EngineOrder::of(&rec.output);
    let mut laws = Vec::new();
    let mut expect = rec.expect.as_ref().map(|e| ExpectReport {
        law: e.law.clone(),
        tolerance: e.tolerance,
        distance: None,
        pass: false,
        reason: String::new(),
    });
    let mut dist: Vec<Option<(S, f64)>> = Vec::new();
    for (li, ((law, r), shown)) in results.iter().zip(&s.shown).enumerate() {
        let Ok(o) = r else {
            let why = &s.why[li];
            if expect_law == Some(*law) {
                if let Some(x) = expect.as_mut() {
                    x.reason = format!("{} {why}", law.name());
                }
            }
            laws.push(LawCheck::not_applying(law.name(), why.clone()));
            dist.push(None);
            continue;
        };
        let this_tol = if expect_law == Some(*law) {
            tol.as_ref()
        } else {
            None
        };
        // the outcome nearest to the engine's (several where the law is not unique)
        let mut best: Option<(usize, S, f64, Option<bool>)> = None;
        for (k, out) in o.outcomes.iter().enumerate() {
            let (d, hi, within) = distance(&v, out, this_tol);
            if best.as_ref().is_none_or(|b| hi < b.2) {
                best = Some((k, d, hi, within));
            }
        }
        let Some((k, d, hi, within)) = best else {
            laws.push(LawCheck::not_applying(
                law.name(),
                "does not apply: no outcome",
            ));
            dist.push(None);
            continue;
        };
        if expect_law == Some(*law) {
            if let Some(x) = expect.as_mut() {
                x.distance = num(&d);
                x.pass = within == Some(true);
                x.reason = match within {
                    Some(true) => "within tolerance".into(),
                    Some(false) => "outside tolerance".into(),
                    None => "undecided: the enclosure straddles the tolerance".into(),
                };
            }
        }
        let sequence_consistent = order
            .fits(&shown[k].first)
            .filter(|_| !o.sequences.get(k).is_none_or(|s| s.is_empty()));
        let impulse = s.impulses[li][k]
            .as_ref()
            .and_then(|lambda| impulse_pair(rec, sys, lambda, ctx))
            .map(|(engine, theirs)| distance(&engine, &theirs, None));
        laws.push(LawCheck {
            law: law.name(),
            impulse_distance: impulse.as_ref().and_then(|(d, _, _)| num(d)),
            impulse_distance_upper: impulse.as_ref().map(|(_, hi, _)| *hi),
            applies: true,
            outcome: shown[k].numbers.clone(),
            difference: if full {
                v.iter()
                    .zip(&o.outcomes[k])
                    .map(|(a, b)| a.sub_r(b).num())
                    .collect()
            } else {
                Vec::new()
            },
            distance: num(&d),
            distance_upper: Some(hi),
            relative_distance: scale.and_then(|x| finite(hi / x)),
            sequence: shown[k].sequence.clone(),
            sequence_consistent,
            note: shown[k].note.clone(),
        });
        dist.push(Some((d, hi)));
    }
    // a law the scenario does not run (LZB without an `[lzb]` table)
    if let (Some(x), Some(l)) = (expect.as_mut(), expect_law) {
        if !results.iter().any(|(law, _)| *law == l) {
            x.reason = format!(
                "{} does not apply: the scenario's system file has no [lzb] table",
                l.name()
            );
        }
    }
    // nearest and second-nearest groups of equal outcomes
    let mut ranked: Vec<(&Vec<usize>, f64)> = s
        .grouped
        .iter()
        .filter_map(|g| dist[g[0]].as_ref().map(|(_, hi)| (g, *hi)))
        .collect();
    ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
    let names = |g: &Vec<usize>| g.iter().map(|&i| results[i].0.name()).collect::<Vec<_>>();
    let nearest = ranked.first().map(|(g, _)| names(g)).unwrap_or_default();
    let second = ranked.get(1).map(|(g, _)| names(g)).unwrap_or_default();
    let nearest_certain = match (ranked.first(), ranked.get(1)) {
        (Some((a, _)), Some((b, _))) => match (&dist[a[0]], &dist[b[0]]) {
            (Some((da, _)), Some((db, _))) => decide(&db.sub_r(da), "distance gap")
                .ok()
                .map(|s| s == Sign::Positive),
            _ => None,
        },
        _ => None,
    };
    let (e0, e0_num) = s.e0.as_ref().map_err(Clone::clone)?;
    let e1 = energy(sys, &v).map_err(|e| e.to_string())?;
    let change = e1.sub_r(e0).to_f64() / e0.to_f64();
    let (a, p0) = s.defect.as_ref().map_err(Clone::clone)?;
    let w: Vec<S> = v
        .iter()
        .zip(&sys.velocity)
        .map(|(x, y)| x.sub_r(y))
        .collect();
    let rel = (quadratic_form(a, &w).to_f64() / p0).sqrt();
    Ok(RecordReport {
        line: rec.line,
        id: rec.id.clone(),
        engine: rec.engine.name.clone(),
        version: rec.engine.version.clone(),
        set: set_name(rec),
        scenario: s.name.clone(),
        source: s.source.clone(),
        arith: s.arith.clone(),
        scale,
        laws,
        // a law stopped at a limit might still have told the outcomes apart
        not_discriminating: s.grouped.len() == 1 && !s.unfinished,
        nearest,
        second,
        nearest_certain,
        energy_before: Some(e0_num.clone()),
        energy_after: num(&e1),
        energy_change: finite(change),
        momentum_defect: finite(rel),
        expect,
        error: None,
        shared_finite: s.shared_finite,
    })
}

/// The engine's parameter set (`engine.params.set`), if named.
pub(crate) fn set_name(rec: &Record) -> Option<String> {
    rec.engine
        .params
        .as_ref()
        .and_then(|p| p.set.as_ref())
        .and_then(|s| s.as_str())
        .map(String::from)
}

/// The speed scale of a record's relative distances: its `scale` (finite, > 0), else
/// `speed` (‖q̇⁻‖∞) when that is positive.
pub(crate) fn record_scale(rec: &Record, speed: f64) -> Result<Option<f64>, String> {
    match rec.scale {
        Some(x) if !(x.is_finite() && x > 0.0) => {
            Err(format!("scale: must be a finite number > 0, not {x}"))
        }
        Some(x) => Ok(Some(x)),
        None => Ok((speed > 0.0 && speed.is_finite()).then_some(speed)),
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Every record (read by [`record::parse_jsonl_line`] / [`record::CsvColumns`]; scenario
/// files relative to `dir`) against the laws, in order, with the summary per engine. The
/// command line streams instead ([`stream::run`]); the reports are the same.
pub fn regress(records: Vec<Result<Record, RecordError>>, dir: &Path) -> RegressReport {
    let mut cache = stream::Cache::new(dir);
    let scenarios = cache.scenarios(&records);
    let reports = records
        .iter()
        .zip(scenarios)
        .map(|(r, s)| stream::report(r, s.as_deref(), true))
        .collect();
    RegressReport::of(reports)
}

/// Why [`check`] did not pass.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Mismatch {
    /// The system or the observation is not valid input.
    #[error("bad input: {0}")]
    BadInput(String),
    /// The law does not apply to the system.
    #[error("{law}: {reason}")]
    DoesNotApply { law: &'static str, reason: String },
    /// The observation lies farther than the tolerance from the law's outcome (or the
    /// enclosure of the distance straddles the tolerance).
    #[error("{law}: distance {distance:e} (upper bound) exceeds the tolerance {tolerance:e}")]
    Exceeds {
        law: &'static str,
        distance: f64,
        tolerance: f64,
    },
}

/// Checks a simulator's post-impact velocity `observed` against `law` on `system`, within
/// `tolerance` (max norm), exactly where the system's numbers allow.
///
/// ```
/// use impactkit::regress::check;
/// use impactkit::system::file::SystemFile;
/// use impactkit::system::laws::Law;
///
/// // the equal-mass 3-ball cradle, ball 1 moving at 1: Newton's law over both touching
/// // contacts gives (-1/3, 2/3, 2/3)
/// let cradle = SystemFile::cradle(
///     &["1".into(), "1".into(), "1".into()],
///     &["1".into(), "0".into(), "0".into()],
///     "1",
/// );
/// let engine = [-1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0];
/// let report = check(&cradle, &engine, Law::NewtonTouching, 1e-12).unwrap();
/// assert_eq!(report.nearest, ["newton-touching", "poisson"]);
/// // sequential pairwise collisions give (0, 0, 1): far from Newton's simultaneous law
/// assert!(check(&cradle, &[0.0, 0.0, 1.0], Law::NewtonTouching, 1e-6).is_err());
/// ```
///
/// # Example
///
/// ```
/// use impactkit::regress::{check, Mismatch};
/// use impactkit::system::file::SystemFile;
/// use impactkit::system::laws::Law;
/// let cradle = SystemFile::cradle(&["1".into(), "1".into(), "1".into()], &["1".into(), "0".into(), "0".into()], "1");
/// // an engine that resolves both touching contacts at once
/// let post = [-1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0];
/// let r = check(&cradle, &post, Law::NewtonTouching, 1e-15).unwrap();
/// assert_eq!(r.nearest[0], "newton-touching");
/// match check(&cradle, &post, Law::Pasquero, 1e-9) {
///     Err(Mismatch::Exceeds { distance, .. }) => assert!((distance - 2.0 / 3.0).abs() < 1e-12),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn check(
    system: &SystemFile,
    observed: &[f64],
    law: Law,
    tolerance: f64,
) -> Result<RecordReport, Mismatch> {
    let r = check_report(system, observed, law, tolerance).map_err(Mismatch::BadInput)?;
    let row = r.laws.iter().find(|c| c.law == law.name());
    match (row, &r.expect) {
        (Some(c), _) if !c.applies => Err(Mismatch::DoesNotApply {
            law: law.name(),
            reason: c.note.to_string(),
        }),
        (Some(c), Some(x)) if !x.pass => Err(Mismatch::Exceeds {
            law: law.name(),
            distance: c.distance_upper.unwrap_or(f64::INFINITY),
            tolerance,
        }),
        _ => Ok(r),
    }
}

/// The whole report of [`check`] — every law's distance, the nearest laws, the energy
/// change, and whether the expectation passed — pass or fail; `Err` only for bad input
/// (the reason). For callers that explain a failure (the Python test helper).
pub fn check_report(
    system: &SystemFile,
    observed: &[f64],
    law: Law,
    tolerance: f64,
) -> Result<RecordReport, String> {
    let rec = Record {
        line: 1,
        id: None,
        scenario: ScenarioSpec::System(Box::new(system.clone()), "system".into()),
        engine: record::Engine {
            name: "caller".into(),
            version: None,
            params: None,
            model: None,
        },
        output: record::Output {
            v: observed.to_vec(),
            contacts: None,
            impulses: None,
            pre: None,
            events: None,
        },
        scale: None,
        expect: Some(record::Expect {
            law: law.name().into(),
            tolerance,
        }),
    };
    let r = regress(vec![Ok(rec)], Path::new(".")).records.remove(0);
    match &r.error {
        Some(e) => Err(e.clone()),
        None => Ok(r),
    }
}

#[cfg(test)]
mod tests {
    use super::record::parse_jsonl_line;

    fn sets(x: &[&[&str]]) -> Vec<Vec<String>> {
        x.iter()
            .map(|s| s.iter().map(|c| c.to_string()).collect())
            .collect()
    }

    /// Events fit a law's sequence when first impacts are grouped and ordered alike: a
    /// later repeat of a contact does not matter, a `+`-joined set is one group, a
    /// missing or extra contact never fits.
    #[test]
    fn events_fit_when_first_impacts_group_alike() {
        let law = sets(&[&["a"], &["b+c"], &["a"]]);
        assert!(super::events_fit(&sets(&[&["a"], &["c", "b"]]), &law));
        assert!(super::events_fit(
            &sets(&[&["a"], &["b", "c"], &["b"]]),
            &law
        ));
        assert!(!super::events_fit(&sets(&[&["a"], &["b"], &["c"]]), &law));
        assert!(!super::events_fit(&sets(&[&["a", "b", "c"]]), &law));
        assert!(!super::events_fit(&sets(&[&["b", "c"], &["a"]]), &law));
        assert!(!super::events_fit(&sets(&[&["a"], &["b"]]), &law));
        assert!(!super::events_fit(&sets(&[&["a"], &["b", "c", "d"]]), &law));
    }
    use super::stream::Cache;
    use crate::arith::TextOptions;
    use std::path::Path;

    /// The engine fixture's records, each with its scenario's restitution replaced by
    /// 0, 1/4, 1/2 and 3/4, and each again with its velocity replaced by a law's outcome
    /// rounded to `f64` (distances of 10⁻¹⁷, exact ties between laws): every text report
    /// the `f64` path gives is the exact path's, and the `f64` path answers most.
    #[test]
    fn the_f64_path_prints_what_the_exact_path_prints() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/engines/records");
        let mut lines = Vec::new();
        for engine in ["mujoco", "pybullet", "pymunk"] {
            let text = std::fs::read_to_string(dir.join(format!("{engine}.jsonl"))).unwrap();
            for l in text.lines().filter(|l| !l.trim().is_empty()) {
                let mut r: serde_json::Value = serde_json::from_str(l).unwrap();
                for e in [None, Some("0"), Some("1/4"), Some("1/2"), Some("3/4")] {
                    if let Some(e) = e {
                        r["scenario"]["restitution"] = e.into();
                    }
                    lines.push(r.to_string());
                }
            }
        }
        let mut cache = Cache::new(&dir);
        let records: Vec<_> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| parse_jsonl_line(i + 1, l))
            .collect();
        let scenarios = cache.scenarios(&records);
        let mut hits = Vec::new();
        for (r, s) in records.iter().zip(&scenarios) {
            let (rec, s) = (r.as_ref().unwrap(), s.as_ref().unwrap());
            // the laws' outcomes rounded to f64, as engines that hit them would report
            let exact = s.evaluate_exact(rec, true);
            for l in exact.laws.iter().filter(|l| l.applies) {
                let mut hit = rec.clone();
                hit.output.v = l.outcome.iter().map(|x| x.to_f64()).collect();
                hits.push(hit);
            }
        }
        let (mut fast, mut all) = (0, 0);
        let opts = TextOptions::default();
        let hit_scenarios = cache.scenarios(&hits.iter().cloned().map(Ok).collect::<Vec<_>>());
        let pairs = records
            .iter()
            .map(|r| r.as_ref().unwrap())
            .zip(&scenarios)
            .chain(hits.iter().zip(&hit_scenarios));
        for (rec, s) in pairs {
            let s = s.as_ref().unwrap();
            let want = s.evaluate_exact(rec, false).text(&opts);
            all += 1;
            if let Some(got) = s.evaluate_f64(rec) {
                fast += 1;
                assert_eq!(got.text(&opts), want, "line {}", rec.line);
            }
        }
        assert!(all > 1500, "{all} records");
        assert!(fast * 10 > all * 8, "{fast} of {all} records the f64 way");
    }
}
