//! `regress --fit lzb` (issue 61): the parameters of Liu–Zhao–Brogliato's compliant law
//! that explain an engine's records, per engine parameter set.
//!
//! LZB (Liu, Zhao & Brogliato, Proc. R. Soc. A 464 (2008) 3193–3211, Sect. 3;
//! [`crate::law::lzb`]) makes every touching contact a spring F_i = K_i δ_i^η with an
//! energetic coefficient e_i (the expansion returns e_i² of the compression's work). For
//! equal exponents only the stiffness *ratios* matter. The fit names, per engine and
//! parameter set (`engine.name`, `engine.params.set`):
//!
//! - **η**, one exponent for every contact, from [`EXPONENTS`] (1 linear … 3/2 Hertz … 2);
//! - **K**, one stiffness per contact *name* across the set's scenarios (contacts of the
//!   same name, such as the cradles' `12`, share it), the first name's K fixed at 1;
//! - **e**, one energetic coefficient per *class*: contacts whose coefficient by default
//!   (the contact's `energetic`, else the file's, else its `restitution`) is the same
//!   number share one (so a set's elastic and e = 9/10 scenarios get one each).
//!
//! **Search** (a heuristic, said so): per η, Nelder–Mead on ln K and e (e in [1/20, 1],
//! K/K₁ in [10⁻³, 10³]) from K = 1 and the default e, minimising the largest relative
//! distance over the set's records, each outcome the ΔP scheme in `f64` at
//! `steps` steps ([`crate::law::lzb::Lzb::run`]); the best η wins. The found values are
//! rounded to three significant digits.
//!
//! **The distance at the rounded values is certified**: per record the certified limit
//! ΔP → 0 ([`crate::law::lzb_limit`]) on intervals encloses the exact LZB outcome with
//! exactly those parameters, and the reported distance is an upper bound of
//! ‖v_engine − v_LZB‖∞ over the record's speed scale (as `regress`'s `rel`). So "within
//! 0.3 %" is a theorem about the engine's numbers and the named law, whatever the search
//! did; that no other parameters do better is not claimed.

use super::record::{Files, Record, RecordError};
use crate::arith::backend::{Backend, RunScalar};
use crate::arith::Scalar;
use crate::law::lzb::{Exponent, Lzb};
use crate::report::{Report, TextOptions};
use crate::system::file::{LzbSpec, System, SystemFile};
use crate::system::laws::{self, Law};
use rayon::prelude::*;
use serde::Serialize;
use std::path::Path;

/// The exponents η the fit tries (p/q): linear, between, Hertz, between, quadratic.
pub const EXPONENTS: [(u32, u32); 5] = [(1, 1), (5, 4), (3, 2), (7, 4), (2, 1)];
/// The energetic coefficients the search keeps to (the certified limit needs e > 0).
const E_RANGE: (f64, f64) = (0.05, 1.0);
/// ln of the largest stiffness ratio the search tries (10³).
const LN_K: f64 = 6.907_755_278_982_137;
/// A record's certified distance below this is narrowed by more steps of the limit.
const REFINE_BELOW: f64 = 0.02;
/// The most records `--fit` takes (each is run hundreds of times).
pub const MAX_RECORDS: usize = 4096;
/// The most distinct scenarios of one parameter set the fit takes.
pub const MAX_SCENARIOS: usize = 256;

/// How the fit searches and certifies.
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    /// Objective evaluations per exponent (each runs every record of the set).
    pub evaluations: usize,
    /// Steps of the ΔP scheme in the search ([`LzbSpec::steps`]).
    pub steps: u64,
    /// Time steps of the certified limit ([`LzbSpec::limit_steps`]) at the first try;
    /// a record whose step finds no enclosure is tried again at 2× and 4×.
    pub limit_steps: u64,
    /// One stiffness per contact name (`--fit-stiffness`); else every contact has the
    /// same K, as engines give every contact the same parameters, and only η and e
    /// are fitted.
    pub per_contact: bool,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            evaluations: 100,
            steps: 1000,
            limit_steps: 400,
            per_contact: false,
        }
    }
}

/// One record of a set, ready for the fit.
struct Item {
    line: usize,
    id: Option<String>,
    file: SystemFile,
    source: String,
    /// The engine's post-impact velocity.
    v: Vec<f64>,
    /// The relative distances' speed scale.
    scale: f64,
    /// Per touching contact: its name's index in the set's names, its class's index.
    names: Vec<usize>,
    classes: Vec<usize>,
    /// The system in f64 with the default `[lzb]` table (the search's runs).
    sys: System<f64>,
}

/// The fitted parameters: η, K per contact name, e per class.
#[derive(Clone, Debug)]
struct Params {
    eta: (u32, u32),
    k: Vec<f64>,
    e: Vec<f64>,
}

/// A value rounded to three significant digits, as a decimal the input language reads.
fn sig3(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return "0".into();
    }
    let d = x.abs().log10().floor() as i32;
    if d >= 2 {
        let unit = 10f64.powi(d - 2);
        format!("{}", ((x / unit).round() * unit) as i64)
    } else {
        let s = format!("{:.*}", (2 - d) as usize, x);
        let s = s.trim_end_matches('0').trim_end_matches('.');
        s.to_string()
    }
}

/// The `[lzb]` parameters of `sys` (every touching contact) set to `p`'s values,
/// each read by `num` (f64 directly, or the rounded decimals on enclosures).
fn set_params<S: Scalar>(
    lzb: &mut Lzb<S>,
    item_names: &[usize],
    item_classes: &[usize],
    eta: Exponent,
    k: &[S],
    e: &[S],
) {
    for (i, (&n, &c)) in item_names.iter().zip(item_classes).enumerate() {
        lzb.stiffness[i] = k[n].clone();
        lzb.exponent[i] = eta;
        lzb.restitution[i] = e[c].clone();
    }
}

/// max_k |a_k − b_k| (f64, for the search).
fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// The largest relative distance over `items` of LZB's ΔP scheme in f64 at `p`
/// (`+inf` where the scheme gives no outcome).
fn objective(items: &mut [Item], p: &Params) -> f64 {
    let Some(eta) = Exponent::new(p.eta.0, p.eta.1) else {
        return f64::INFINITY;
    };
    let mut worst: f64 = 0.0;
    for it in items.iter_mut() {
        let Some(lzb) = it.sys.lzb.as_mut() else {
            return f64::INFINITY;
        };
        set_params(lzb, &it.names, &it.classes, eta, &p.k, &p.e);
        match laws::run(Law::Lzb, &it.sys, super::MAX_ITER) {
            Ok(o) => {
                let d = max_diff(&it.v, &o.outcomes[0]) / it.scale;
                worst = worst.max(if d.is_finite() { d } else { f64::INFINITY });
            }
            Err(_) => return f64::INFINITY,
        }
    }
    worst
}

/// Nelder–Mead from `x0` (initial steps `step`), at most `budget` evaluations of `f`;
/// the best point and its value. Deterministic; `+inf` values are simply worst.
fn nelder_mead(
    f: &mut dyn FnMut(&[f64]) -> f64,
    x0: &[f64],
    step: &[f64],
    budget: usize,
) -> (Vec<f64>, f64) {
    let n = x0.len();
    let mut pts: Vec<(Vec<f64>, f64)> = Vec::with_capacity(n + 1);
    let mut used = 0;
    let mut eval = |x: &[f64], used: &mut usize| {
        *used += 1;
        f(x)
    };
    pts.push((x0.to_vec(), eval(x0, &mut used)));
    for i in 0..n {
        let mut x = x0.to_vec();
        x[i] += step[i];
        let v = eval(&x, &mut used);
        pts.push((x, v));
    }
    let order = |pts: &mut Vec<(Vec<f64>, f64)>| {
        pts.sort_by(|a, b| a.1.total_cmp(&b.1));
    };
    while used < budget {
        order(&mut pts);
        let worst = pts[n].clone();
        let centroid: Vec<f64> = (0..n)
            .map(|j| pts[..n].iter().map(|p| p.0[j]).sum::<f64>() / n as f64)
            .collect();
        let along = |t: f64| -> Vec<f64> {
            (0..n)
                .map(|j| centroid[j] + t * (worst.0[j] - centroid[j]))
                .collect()
        };
        let xr = along(-1.0);
        let fr = eval(&xr, &mut used);
        if fr < pts[0].1 {
            let xe = along(-2.0);
            let fe = eval(&xe, &mut used);
            pts[n] = if fe < fr { (xe, fe) } else { (xr, fr) };
        } else if fr < pts[n - 1].1 {
            pts[n] = (xr, fr);
        } else {
            let xc = along(if fr < worst.1 { -0.5 } else { 0.5 });
            let fc = eval(&xc, &mut used);
            if fc < worst.1.min(fr) {
                pts[n] = (xc, fc);
            } else {
                let best = pts[0].0.clone();
                for p in pts.iter_mut().skip(1) {
                    let x: Vec<f64> = (0..n).map(|j| best[j] + 0.5 * (p.0[j] - best[j])).collect();
                    p.1 = eval(&x, &mut used);
                    p.0 = x;
                }
            }
        }
    }
    order(&mut pts);
    pts.swap_remove(0)
}

/// The parameters of search point `x` (ln K of the names after the first, then e).
fn params_of(eta: (u32, u32), names: usize, x: &[f64]) -> Params {
    let mut k = vec![1.0];
    k.extend(x[..names - 1].iter().map(|l| l.clamp(-LN_K, LN_K).exp()));
    let e = x[names - 1..]
        .iter()
        .map(|e| e.clamp(E_RANGE.0, E_RANGE.1))
        .collect();
    Params { eta, k, e }
}

/// One parameter set's records.
struct Group {
    engine: String,
    set: Option<String>,
    items: Vec<Item>,
    /// Contact names, in order of first appearance.
    names: Vec<String>,
    /// The classes' default coefficients (f64) and how they print.
    classes: Vec<(f64, String)>,
}

impl Group {
    /// The search (module doc): the best rounded parameters and the search's value at
    /// them, with the defaults' value (η = 3/2, K = 1, the default e).
    fn search(&mut self, o: &FitOptions) -> (Params, f64, f64) {
        let defaults: Vec<f64> = self.classes.iter().map(|c| c.0).collect();
        let n = self.names.len();
        let equal = |eta, e: Vec<f64>| Params {
            eta,
            k: vec![1.0; n],
            e,
        };
        let baseline = objective(&mut self.items, &equal((3, 2), defaults.clone()));
        let e0: Vec<f64> = (defaults.iter())
            .map(|e| e.clamp(E_RANGE.0, E_RANGE.1))
            .collect();
        let e_step: Vec<f64> = (e0.iter())
            .map(|e| if *e > 0.5 { -0.15 } else { 0.15 })
            .collect();
        // first every contact with the same K: per η, the coefficients e
        let mut best = (equal((3, 2), defaults.clone()), baseline);
        for eta in EXPONENTS {
            let items = &mut self.items;
            let mut f = |e: &[f64]| {
                crate::budget::checkpoint();
                objective(items, &params_of(eta, 1, e).with_names(n))
            };
            let (e, _) = nelder_mead(&mut f, &e0, &e_step, o.evaluations);
            let p = params_of(eta, 1, &e).with_names(n).rounded();
            let v = objective(&mut self.items, &p);
            if v < best.1 {
                best = (p, v);
            }
        }
        // then, with --fit-stiffness, a K per name from there, at the best η
        if n > 1 {
            let eta = best.0.eta;
            let mut x0 = vec![0.0; n - 1];
            x0.extend(best.0.e.iter().copied());
            let mut step = vec![0.5; n - 1];
            step.extend(e_step.iter().copied());
            let items = &mut self.items;
            let mut f = |x: &[f64]| {
                crate::budget::checkpoint();
                objective(items, &params_of(eta, n, x))
            };
            let budget = o.evaluations.saturating_mul(EXPONENTS.len());
            let (x, _) = nelder_mead(&mut f, &x0, &step, budget);
            let p = params_of(eta, n, &x).rounded();
            let v = objective(&mut self.items, &p);
            if v < best.1 {
                best = (p, v);
            }
        }
        (best.0, best.1, baseline)
    }
}

impl Params {
    /// The same K for `n` names (the first one's, 1).
    fn with_names(mut self, n: usize) -> Params {
        self.k = vec![1.0; n];
        self
    }

    /// Every value rounded to three significant digits (what is reported and certified).
    fn rounded(mut self) -> Params {
        let round = |x: &f64| sig3(*x).parse().unwrap_or(*x);
        self.k = self.k.iter().map(round).collect();
        self.e = self.e.iter().map(round).collect();
        self
    }
}

/// The certified distance of one record at the rounded parameters (see the module doc).
struct Certify<'a> {
    item: &'a Item,
    p: &'a Params,
    limit_steps: u64,
}

impl RunScalar for Certify<'_> {
    type Out = Result<f64, String>;
    fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
        let mut file = self.item.file.clone();
        file.lzb = Some(LzbSpec {
            limit_steps: Some(self.limit_steps),
            ..LzbSpec::default()
        });
        let mut sys = file
            .build::<S>(&self.item.source, ctx)
            .map_err(|e| e.to_string())?;
        let read = |x: &f64, what: &str| crate::input::value::<S>(&sig3(*x), what, ctx);
        let k = (self.p.k.iter().map(|x| read(x, "fitted stiffness")))
            .collect::<Result<Vec<S>, _>>()
            .map_err(|e| e.to_string())?;
        let e = (self
            .p
            .e
            .iter()
            .map(|x| read(x, "fitted energetic coefficient")))
        .collect::<Result<Vec<S>, _>>()
        .map_err(|e| e.to_string())?;
        let eta = Exponent::new(self.p.eta.0, self.p.eta.1).ok_or("no such exponent")?;
        let lzb = sys.lzb.as_mut().ok_or("no [lzb] parameters")?;
        set_params(lzb, &self.item.names, &self.item.classes, eta, &k, &e);
        let o = laws::run(Law::LzbLimit, &sys, super::MAX_ITER).map_err(|e| e.to_string())?;
        let mut worst: f64 = 0.0;
        for (x, y) in self.item.v.iter().zip(&o.outcomes[0]) {
            let engine = S::from_f64_exact(*x, ctx).ok_or("a velocity is not finite")?;
            let (lo, hi) = engine
                .sub_r(y)
                .enclosure()
                .ok_or("no enclosure of the distance")?;
            worst = worst.max(lo.abs().max(hi.abs()));
        }
        // an upper bound: the quotient rounded up
        Ok((worst / self.item.scale).next_up())
    }
}

/// One record's distance at the fit.
#[derive(Clone, Debug, Serialize)]
pub struct RecordFit {
    pub line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Upper bound of the relative distance to the certified LZB outcome (`None`: not
    /// certified, see `error`).
    pub rel_upper: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A contact name's fitted stiffness.
#[derive(Clone, Debug, Serialize)]
pub struct StiffnessFit {
    pub contact: String,
    /// K (the first name's is 1), a decimal of three significant digits.
    pub stiffness: String,
}

/// A class's fitted energetic coefficient.
#[derive(Clone, Debug, Serialize)]
pub struct EnergeticFit {
    /// The class's coefficient by default (the scenarios' own).
    pub default: String,
    /// The fitted e, a decimal of three significant digits.
    pub energetic: String,
}

/// The fit of one engine parameter set.
#[derive(Clone, Debug, Serialize)]
pub struct GroupFit {
    pub engine: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set: Option<String>,
    /// η, as p/q.
    pub exponent: String,
    pub stiffness: Vec<StiffnessFit>,
    pub energetic: Vec<EnergeticFit>,
    /// The largest relative distance in the search (ΔP scheme, f64) at the fit.
    pub search_rel: Option<f64>,
    /// The same at the defaults (η = 3/2, K = 1, each scenario's own e).
    pub default_rel: Option<f64>,
    /// Upper bound of the largest relative distance to the certified LZB outcome at
    /// the fit (`None` when a record's could not be certified).
    pub certified_rel: Option<f64>,
    pub records: Vec<RecordFit>,
}

/// `regress --fit lzb`'s report.
#[derive(Clone, Debug, Serialize)]
pub struct FitReport {
    pub law: &'static str,
    pub evaluations: usize,
    pub steps: u64,
    pub limit_steps: u64,
    pub groups: Vec<GroupFit>,
    /// Records that could not take part.
    pub errors: Vec<FitError>,
}

/// A record that could not take part in the fit: its line and why.
#[derive(Clone, Debug, Serialize)]
pub struct FitError {
    pub line: usize,
    pub reason: String,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// A record made ready for the fit, or why not.
fn item(rec: &Record, dir: &Path, files: &mut Files, steps: u64) -> Result<Item, String> {
    let (mut file, source) = rec.scenario.resolve(dir, files)?;
    // a run that takes far more steps than asked is a poor point of the search: stopped
    file.lzb = Some(LzbSpec {
        steps: Some(steps),
        max_steps: Some(steps.saturating_mul(20)),
        ..LzbSpec::default()
    });
    let sys = file.build::<f64>(&source, &()).map_err(|e| e.to_string())?;
    if rec.output.v.len() != sys.velocity.len() {
        return Err(format!(
            "output.v: {} components, the system has {} coordinates",
            rec.output.v.len(),
            sys.velocity.len()
        ));
    }
    if let Some(x) = rec.output.v.iter().find(|x| !x.is_finite()) {
        return Err(format!("output.v: {x} is not finite"));
    }
    let speed = sys.velocity.iter().fold(0.0, |m: f64, x| m.max(x.abs()));
    let scale = super::record_scale(rec, speed)?
        .ok_or("the pre-impact velocity is 0: no relative distance (give a scale)")?;
    Ok(Item {
        line: rec.line,
        id: rec.id.clone(),
        file,
        source,
        v: rec.output.v.clone(),
        scale,
        names: Vec::new(),
        classes: Vec::new(),
        sys,
    })
}

/// The records grouped by engine and parameter set, in order of first appearance;
/// the records that cannot take part as errors.
fn groups(
    records: Vec<Result<Record, RecordError>>,
    dir: &Path,
    o: &FitOptions,
) -> (Vec<Group>, Vec<FitError>) {
    let mut files = Files::default();
    let mut groups: Vec<Group> = Vec::new();
    let mut errors = Vec::new();
    for r in records {
        let rec = match r {
            Ok(rec) => rec,
            Err(e) => {
                errors.push(FitError {
                    line: e.line,
                    reason: e.reason,
                });
                continue;
            }
        };
        let mut it = match item(&rec, dir, &mut files, o.steps) {
            Ok(it) => it,
            Err(reason) => {
                errors.push(FitError {
                    line: rec.line,
                    reason,
                });
                continue;
            }
        };
        let set = super::set_name(&rec);
        let at = groups
            .iter()
            .position(|g| g.engine == rec.engine.name && g.set == set)
            .unwrap_or_else(|| {
                groups.push(Group {
                    engine: rec.engine.name.clone(),
                    set,
                    items: Vec::new(),
                    names: Vec::new(),
                    classes: Vec::new(),
                });
                groups.len() - 1
            });
        let g = &mut groups[at];
        const EVERY: &str = "every contact";
        if g.items.len() >= MAX_SCENARIOS {
            errors.push(FitError {
                line: rec.line,
                reason: format!("--fit: at most {MAX_SCENARIOS} records per engine parameter set"),
            });
            continue;
        }
        let defaults = it.sys.lzb.as_ref().map(|l| l.restitution.clone());
        for (i, name) in it.sys.contacts.iter().enumerate() {
            let name: &str = if o.per_contact { name } else { EVERY };
            let n = g.names.iter().position(|x| x == name).unwrap_or_else(|| {
                g.names.push(name.to_string());
                g.names.len() - 1
            });
            let e = defaults.as_ref().map_or(1.0, |d| d[i]);
            let c = g.classes.iter().position(|x| x.0 == e).unwrap_or_else(|| {
                g.classes.push((e, sig3(e)));
                g.classes.len() - 1
            });
            it.names.push(n);
            it.classes.push(c);
        }
        g.items.push(it);
    }
    (groups, errors)
}

/// The fit of one group (search, then certification of every record).
fn fit_group(mut g: Group, o: &FitOptions) -> GroupFit {
    let (p, search, baseline) = g.search(o);
    let records: Vec<RecordFit> = g
        .items
        .iter()
        .map(|item| {
            let certify = |limit_steps| {
                Backend::Interval.run(Certify {
                    item,
                    p: &p,
                    limit_steps,
                })
            };
            let mut r = certify(o.limit_steps);
            for more in [2, 4] {
                match &r {
                    Err(e) if e.contains("too long") => r = certify(o.limit_steps * more),
                    _ => break,
                }
            }
            // a record near the law: its bound is the enclosure's width, narrowed by
            // more steps (order 2: 4× the steps, about 16× narrower); either run's bound
            // holds, so the smaller one is kept
            for more in [4] {
                if let Ok(x) = r.as_ref().map(|x| *x) {
                    if x < REFINE_BELOW {
                        if let Ok(y) = certify(o.limit_steps * more) {
                            r = Ok(x.min(y));
                        }
                    }
                }
            }
            RecordFit {
                line: item.line,
                id: item.id.clone(),
                rel_upper: r.as_ref().ok().copied(),
                error: r.err(),
            }
        })
        .collect();
    let certified_rel = records
        .iter()
        .try_fold(0.0f64, |m, r| r.rel_upper.map(|x| m.max(x)));
    GroupFit {
        engine: g.engine,
        set: g.set,
        exponent: Exponent::new(p.eta.0, p.eta.1).map_or_else(String::new, |e| e.text()),
        stiffness: g
            .names
            .iter()
            .zip(&p.k)
            .map(|(n, k)| StiffnessFit {
                contact: n.clone(),
                stiffness: sig3(*k),
            })
            .collect(),
        energetic: g
            .classes
            .iter()
            .zip(&p.e)
            .map(|(c, e)| EnergeticFit {
                default: c.1.clone(),
                energetic: sig3(*e),
            })
            .collect(),
        search_rel: finite(search),
        default_rel: finite(baseline),
        certified_rel,
        records,
    }
}

/// `regress --fit lzb`: every record of `records` (scenario files relative to `dir`),
/// grouped by engine and parameter set, each set fitted ([`FitOptions`]) on `jobs`
/// threads. `Err`: `--jobs` could not start its threads.
pub fn fit(
    records: Vec<Result<Record, RecordError>>,
    dir: &Path,
    o: &FitOptions,
    jobs: usize,
) -> Result<FitReport, String> {
    let (groups, errors) = groups(records, dir, o);
    let pool = crate::input::caps::pool(jobs).map_err(|e| e.to_string())?;
    let groups = pool.install(|| groups.into_par_iter().map(|g| fit_group(g, o)).collect());
    Ok(FitReport {
        law: "lzb",
        evaluations: o.evaluations,
        steps: o.steps,
        limit_steps: o.limit_steps,
        groups,
        errors,
    })
}

/// A relative distance as a percentage with two significant digits, rounded up.
fn percent(x: Option<f64>) -> String {
    match x {
        None => "—".into(),
        Some(x) => {
            let p = x * 100.0;
            if p == 0.0 {
                return "0 %".into();
            }
            let d = p.abs().log10().floor() as i32;
            let unit = 10f64.powi(d - 1);
            let up = (p / unit).ceil() * unit;
            let decimals = (1 - d).max(0) as usize;
            format!("{up:.decimals$} %")
        }
    }
}

impl Report for FitReport {
    fn text(&self, _o: &TextOptions) -> String {
        let mut out = vec![format!(
            "LZB (Liu–Zhao–Brogliato, bi-stiffness) fitted per engine parameter set: search by the ΔP scheme in f64 ({} steps, {} evaluations per η);",
            self.steps, self.evaluations
        )];
        out.push(format!(
            "distances certified by the limit ΔP → 0 on intervals ({} steps), as upper bounds relative to each record's speed",
            self.limit_steps
        ));
        for g in &self.groups {
            let set = g.set.as_deref().map_or(String::new(), |s| format!(" {s}"));
            let es: Vec<String> = g
                .energetic
                .iter()
                .map(|e| format!("{} where the scenario says {}", e.energetic, e.default))
                .collect();
            out.push(format!(
                "{}{set}: {} records; LZB with η = {}, e = {}",
                g.engine,
                g.records.len(),
                g.exponent,
                es.join(", "),
            ));
            if g.stiffness.len() > 1 {
                let ks: Vec<String> = g
                    .stiffness
                    .iter()
                    .map(|s| format!("{} {}", s.contact, s.stiffness))
                    .collect();
                out.push(format!("  and the stiffnesses K: {}", ks.join(", ")));
            }
            let certified = match g.certified_rel {
                Some(_) => format!("within {} (certified)", percent(g.certified_rel)),
                None => "not certified for every record".into(),
            };
            out.push(format!(
                "  {certified}; in the search {}; at the defaults (η = 3/2, equal K, the scenarios' e) {}",
                percent(g.search_rel),
                percent(g.default_rel)
            ));
            for r in g.records.iter().filter(|r| r.error.is_some()) {
                out.push(format!(
                    "  line {}: not certified: {}",
                    r.line,
                    r.error.as_deref().unwrap_or_default()
                ));
            }
        }
        for e in &self.errors {
            out.push(format!("line {}: {}", e.line, e.reason));
        }
        out.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_significant_digits() {
        assert_eq!(sig3(0.62345), "0.623");
        assert_eq!(sig3(1.0), "1");
        assert_eq!(sig3(12.349), "12.3");
        assert_eq!(sig3(123.6), "124");
        assert_eq!(sig3(12345.0), "12300");
        assert_eq!(sig3(0.001234), "0.00123");
    }

    #[test]
    fn percentages_round_up() {
        assert_eq!(percent(Some(0.002_31)), "0.24 %");
        assert_eq!(percent(Some(0.3)), "30 %");
        assert_eq!(percent(None), "—");
    }

    #[test]
    fn nelder_mead_finds_a_quadratic_minimum() {
        let mut f = |x: &[f64]| (x[0] - 1.0).powi(2) + 3.0 * (x[1] + 2.0).powi(2);
        let (x, v) = nelder_mead(&mut f, &[0.0, 0.0], &[0.5, 0.5], 400);
        assert!(v < 1e-10, "{v}");
        assert!(
            (x[0] - 1.0).abs() < 1e-4 && (x[1] + 2.0).abs() < 1e-4,
            "{x:?}"
        );
    }
}
