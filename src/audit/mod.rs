//! `impactkit audit`: where, over a whole input domain, does a floating-point arithmetic
//! take another branch than the certified computation, and how far apart do the results
//! end.
//!
//! An audit takes a domain ([`domain::Axis`] per parameter), a sampling (grid or
//! quasi-random, [`domain::Sampling`]), the arithmetic under audit, and for every point:
//! runs the law in that arithmetic, runs the certified reference (the precision ladder of
//! [`crate::certify`]), and compares them ([`record::Record`]). Points are independent:
//! they run on all cores (rayon), and `--shard i/n` takes the points with index ≡ i (mod
//! n), so shards run on separate machines and [`merge`] joins them into the result of a
//! single run. The summary ([`summary::Summary`]) and the figure are functions of the
//! records alone.

pub mod corner;
pub mod cradle;
pub mod domain;
pub mod figure;
pub mod propagate;
pub mod record;
pub mod sequential;
pub mod summary;

use crate::input::InputError;
use domain::{Axis, Frac, Points, Sampling, Shard};
use rayon::prelude::*;
use record::Record;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One parameter of a law's domain.
#[derive(Clone, Debug)]
pub struct Param {
    /// The name later parameters use for it (`alpha`).
    pub name: &'static str,
    /// The option it comes from (`--alpha`).
    pub option: &'static str,
    /// The axis label of figures, with its unit (`α (rad)`).
    pub label: &'static str,
    pub axis: Axis,
}

/// The expressions of every parameter at point `t` (one coordinate per varying axis);
/// a parameter's expressions may name earlier parameters, which are substituted.
pub fn inputs_at(params: &[Param], t: &[Frac]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(params.len());
    let mut ts = t.iter();
    for p in params {
        let coord = if p.axis.varies() {
            *ts.next().expect("one coordinate per varying axis")
        } else {
            Frac { num: 0, den: 1 }
        };
        let mut e = p.axis.at(&coord);
        for (q, v) in params.iter().zip(&out) {
            e = domain::substitute(&e, q.name, v);
        }
        out.push(e);
    }
    out
}

/// The varying axes' shapes, for [`Points::new`]: `None` for a range, `Some(len)` for a list.
pub fn shapes(params: &[Param]) -> Vec<Option<usize>> {
    params
        .iter()
        .filter(|p| p.axis.varies())
        .map(|p| match &p.axis {
            Axis::List(xs) => Some(xs.len()),
            _ => None,
        })
        .collect()
}

/// Checks every range of the domain is non-empty (hi > lo, decided with MPFR enclosures)
/// at every vertex of the earlier axes; `check(inputs)` checks the law's own conditions
/// there. Errors name the option.
pub fn check_domain(
    params: &[Param],
    check: impl Fn(&[String]) -> Result<(), InputError>,
) -> Result<(), InputError> {
    use crate::arith::{MpInterval, Scalar, Sign};
    let varying = shapes(params);
    // every vertex: each range at 0 and 1, each list at each entry
    let mut vertices: Vec<Vec<Frac>> = vec![Vec::new()];
    for s in &varying {
        let choices: Vec<Frac> = match s {
            None => vec![Frac { num: 0, den: 1 }, Frac { num: 1, den: 1 }],
            Some(n) => (0..*n as u64)
                .map(|j| Frac {
                    num: 2 * j + 1,
                    den: 2 * *n as u64,
                })
                .collect(),
        };
        vertices = vertices
            .into_iter()
            .flat_map(|v| {
                choices.iter().map(move |c| {
                    let mut w = v.clone();
                    w.push(*c);
                    w
                })
            })
            .take(4096)
            .collect();
    }
    for v in &vertices {
        let inputs = inputs_at(params, v);
        for (i, p) in params.iter().enumerate() {
            if let Axis::Range { lo, hi } = &p.axis {
                let sub = |s: &str| {
                    let mut e = s.to_string();
                    for (q, val) in params[..i].iter().zip(&inputs) {
                        e = domain::substitute(&e, q.name, val);
                    }
                    e
                };
                let (lo, hi) = (sub(lo), sub(hi));
                let gap = crate::lang::eval_str::<MpInterval>(&format!("({hi})-({lo})"), &256)
                    .map_err(|e| InputError::from_eval(p.option, &e))?;
                match gap.sign() {
                    Sign::Positive => {}
                    Sign::Unknown => {
                        return Err(InputError::new(
                            p.option,
                            format!("cannot decide that the range {lo}..{hi} is not empty"),
                        ))
                    }
                    _ => {
                        return Err(InputError::new(
                            p.option,
                            format!("empty range {lo}..{hi}: the upper end must exceed the lower"),
                        ))
                    }
                }
            }
        }
        check(&inputs)?;
    }
    Ok(())
}

/// What defines an audit: the law, its options as given, the sampling and the
/// arithmetics. Shards of one audit have equal configurations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub law: String,
    /// Every option that defines the domain, the law and the arithmetics, as given.
    pub options: BTreeMap<String, String>,
    /// Labels (with units) of the varying axes, in order (the coordinates of the records).
    pub axes: Vec<String>,
    /// The number of points of the whole domain.
    pub points: u64,
    /// Per varying axis, whether it was given in multiples of π (its figure axis is then
    /// labelled π/8, π/4, …); absent in audits written before (decimal labels).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pi_axes: Vec<bool>,
}

/// The labels of the varying axes of `params`, and whether each is in multiples of π.
pub fn axes_of(params: &[Param]) -> (Vec<String>, Vec<bool>) {
    params
        .iter()
        .filter(|p| p.axis.varies())
        .map(|p| (p.label.to_string(), p.axis.in_pi()))
        .unzip()
}

/// How to run: threads, shard, progress bar.
#[derive(Clone, Copy, Debug)]
pub struct Execution {
    /// Worker threads (`None`: all cores).
    pub jobs: Option<usize>,
    pub shard: Shard,
    /// Show a progress bar (on a terminal).
    pub progress: bool,
}

/// The most records one run keeps in memory (a record takes about a kilobyte).
pub const MAX_RECORDS: u64 = 2_000_000;

/// Refuses a run that would keep more than [`MAX_RECORDS`] records: it should be split
/// into shards (or run without references and output files, which keeps none).
pub fn check_records(
    points: &Points,
    exec: &Execution,
    records: bool,
    sampling: &domain::Sampling,
) -> Result<(), InputError> {
    let n = exec.shard.len(points.len());
    if records && n > MAX_RECORDS {
        let option = match sampling {
            domain::Sampling::Grid(_) => "--grid",
            domain::Sampling::Quasi { .. } => "--samples",
        };
        return Err(InputError::new(
            option,
            format!("{n} samples in one run keep {n} records in memory, more than {MAX_RECORDS}: split the run with --shard i/n (and merge), or use --reference none without --out"),
        ));
    }
    Ok(())
}

/// What the summary of a run without records needs: samples, rule applications, and
/// the count of each termination.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub samples: u64,
    pub steps: u64,
    pub terminations: Vec<(&'static str, u64)>,
}

impl Tally {
    /// Counts one sample.
    #[inline]
    pub fn add(&mut self, steps: u64, termination: &'static str) {
        self.samples += 1;
        self.steps += steps;
        // the names are static: the same pointer is the same name
        match self
            .terminations
            .iter_mut()
            .find(|(t, _)| std::ptr::eq(*t, termination) || *t == termination)
        {
            Some((_, n)) => *n += 1,
            None => self.terminations.push((termination, 1)),
        }
    }

    /// Joins two tallies.
    pub fn join(mut self, other: &Tally) -> Tally {
        self.samples += other.samples;
        self.steps += other.steps;
        for (t, n) in &other.terminations {
            match self.terminations.iter_mut().find(|(u, _)| u == t) {
                Some((_, m)) => *m += n,
                None => self.terminations.push((t, *n)),
            }
        }
        self
    }
}

/// Runs `sample` on every point of `shard` like [`drive`], keeping only a [`Tally`] of
/// each chunk of points.
pub fn drive_tally<T, I, F>(
    points: &Points,
    exec: &Execution,
    init: I,
    sample: F,
) -> Result<Tally, InputError>
where
    I: Fn() -> T + Sync + Send,
    F: Fn(&mut T, &[Frac]) -> Result<(u64, &'static str), InputError> + Sync + Send,
{
    let shard = exec.shard;
    let count = shard.len(points.len());
    let bar = progress_bar(exec.progress, count);
    let chunks = count.div_ceil(CHUNK);
    let work = || {
        (0..chunks)
            .into_par_iter()
            .map_init(
                || (init(), Vec::new()),
                |(scratch, t), c| {
                    let (lo, hi) = (c * CHUNK, count.min((c + 1) * CHUNK));
                    let mut tally = Tally::default();
                    for j in lo..hi {
                        interrupted()?;
                        points.point_into(shard.index + j * shard.count, t);
                        let (steps, end) = sample(scratch, t)?;
                        tally.add(steps, end);
                    }
                    bar.inc(hi - lo);
                    Ok(tally)
                },
            )
            .try_reduce(Tally::default, |a, b| Ok(a.join(&b)))
    };
    let out = in_pool(exec.jobs, work)?;
    bar.finish_and_clear();
    out
}

/// An error once the process was asked to stop ([`crate::budget::cancel`]).
fn interrupted() -> Result<(), InputError> {
    match crate::budget::cancelled() {
        true => Err(InputError::new("audit", "interrupted")),
        false => Ok(()),
    }
}

/// Points handed to a worker at a time (one progress-bar update each).
const CHUNK: u64 = 2048;

/// Runs `sample` on every point of `shard`, on `jobs` threads, each with its own scratch
/// state from `init`; the results come back in index order. The first error stops the run.
pub fn drive<T, R, I, F>(
    points: &Points,
    exec: &Execution,
    init: I,
    sample: F,
) -> Result<Vec<R>, InputError>
where
    R: Send,
    I: Fn() -> T + Sync + Send,
    F: Fn(&mut T, u64, &[Frac]) -> Result<R, InputError> + Sync + Send,
{
    let shard = exec.shard;
    let count = shard.len(points.len());
    let bar = progress_bar(exec.progress, count);
    let chunks = count.div_ceil(CHUNK);
    let work = || {
        (0..chunks)
            .into_par_iter()
            .map_init(
                || (init(), Vec::new()),
                |(scratch, t), c| {
                    let (lo, hi) = (c * CHUNK, count.min((c + 1) * CHUNK));
                    let mut out = Vec::with_capacity((hi - lo) as usize);
                    for j in lo..hi {
                        interrupted()?;
                        let i = shard.index + j * shard.count;
                        points.point_into(i, t);
                        out.push(sample(scratch, i, t)?);
                    }
                    bar.inc(hi - lo);
                    Ok(out)
                },
            )
            .collect::<Result<Vec<Vec<R>>, InputError>>()
            .map(|v| v.into_iter().flatten().collect())
    };
    let out = in_pool(exec.jobs, work)?;
    bar.finish_and_clear();
    out
}

/// Runs `work` on `jobs` threads (`None`: rayon's global pool, all cores).
fn in_pool<R: Send>(jobs: Option<usize>, work: impl FnOnce() -> R + Send) -> Result<R, InputError> {
    Ok(match jobs {
        None => work(),
        Some(n) => crate::input::caps::pool(n)?.install(work),
    })
}

/// An indicatif bar with ETA on standard error when it is a terminal; hidden otherwise.
fn progress_bar(show: bool, len: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !show || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} audit [{bar:40}] {pos}/{len} samples, {per_sec}, ETA {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// The file of the records in an output directory.
pub const SAMPLES_FILE: &str = "samples.jsonl";
/// The summary in an output directory.
pub const SUMMARY_FILE: &str = "audit.json";

/// What the output directory of one run (or shard, or merge) holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Stored {
    /// `impactkit/1`, as every JSON document of impactkit (absent from the files of
    /// versions before it: read as such).
    #[serde(default = "stored_schema")]
    pub schema: String,
    /// The version of impactkit that wrote the file.
    #[serde(default)]
    pub version: String,
    /// `audit`.
    #[serde(default = "stored_command")]
    pub command: String,
    pub config: Config,
    pub shard: Shard,
    pub summary: summary::Summary,
    /// The figures written (file names), or why none was.
    pub figures: figure::Figures,
}

fn stored_schema() -> String {
    "impactkit/1".into()
}

fn stored_command() -> String {
    "audit".into()
}

impl Stored {
    /// The stored result of a run, shard or merge, with the document's schema fields.
    pub fn new(
        config: Config,
        shard: Shard,
        summary: summary::Summary,
        figures: figure::Figures,
    ) -> Stored {
        Stored {
            schema: stored_schema(),
            version: env!("CARGO_PKG_VERSION").into(),
            command: stored_command(),
            config,
            shard,
            summary,
            figures,
        }
    }
}

/// Creates `dir` if needed and checks that a file can be written there, before any work
/// (a read-only or missing parent fails now, not after an audit of hours), and marks it
/// [`INCOMPLETE_FILE`] until [`write_out`] has written the whole shard: a run stopped
/// before then (a signal, a full disk) leaves a directory that `audit merge` refuses.
pub fn check_out(dir: &Path) -> Result<(), InputError> {
    crate::output::check_dir(dir).map_err(|e| InputError::new("--out", e))?;
    let marker = dir.join(INCOMPLETE_FILE);
    std::fs::write(&marker, INCOMPLETE_TEXT)
        .map_err(|e| InputError::new("--out", format!("{}: {e}", marker.display())))
}

/// The marker of an output directory whose run has not finished writing it
/// ([`check_out`], [`write_out`]).
pub const INCOMPLETE_FILE: &str = "INCOMPLETE";

const INCOMPLETE_TEXT: &str = "an impactkit audit writing here has not finished (or was stopped); `audit merge` refuses this directory\n";

/// Writes records, summary and figures to `dir` (created if needed), each file complete
/// or absent ([`crate::output::write_atomic`]); the summary `audit.json` last, then the
/// [`INCOMPLETE_FILE`] marker removed: a directory with `audit.json` and no marker holds
/// a complete shard.
pub fn write_out(dir: &Path, stored: &Stored, records: &[Record]) -> Result<(), InputError> {
    let bad = |e: std::io::Error| InputError::new("--out", format!("{}: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(bad)?;
    let mut lines = String::new();
    for r in records {
        lines += &serde_json::to_string(r).expect("records serialise");
        lines.push('\n');
    }
    use crate::output::write_atomic;
    write_atomic(&dir.join(SAMPLES_FILE), lines.as_bytes()).map_err(bad)?;
    let json = serde_json::to_string_pretty(stored).expect("summaries serialise");
    write_atomic(&dir.join(SUMMARY_FILE), (json + "\n").as_bytes()).map_err(bad)?;
    match std::fs::remove_file(dir.join(INCOMPLETE_FILE)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(bad(e)),
        _ => Ok(()),
    }
}

/// Reads the records and the stored summary of one output directory.
pub fn read_out(dir: &Path) -> Result<(Stored, Vec<Record>), InputError> {
    let opt = "audit merge";
    if dir.join(INCOMPLETE_FILE).exists() {
        return Err(InputError::new(
            opt,
            format!(
                "{}: incomplete (its run was stopped before it wrote everything: {INCOMPLETE_FILE})",
                crate::input::files::shown(dir)
            ),
        ));
    }
    use crate::input::files::{read_text, FileKind, SHARD_SAMPLES, SHARD_SUMMARY};
    let read = |f: &str, kind: FileKind| {
        read_text(&dir.join(f), kind).map_err(|e| InputError::new(opt, e))
    };
    let stored: Stored =
        serde_json::from_str(&read(SUMMARY_FILE, SHARD_SUMMARY)?).map_err(|e| {
            InputError::new(
                opt,
                format!(
                    "{}: not an audit summary ({e})",
                    dir.join(SUMMARY_FILE).display()
                ),
            )
        })?;
    let records = read(SAMPLES_FILE, SHARD_SAMPLES)?
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            serde_json::from_str::<Record>(l).map_err(|e| {
                InputError::new(
                    opt,
                    format!("{} line {}: {e}", dir.join(SAMPLES_FILE).display(), n + 1),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((stored, records))
}

/// Joins the outputs of the shards of one audit: same configuration, every shard
/// 0..n exactly once, every index once. The result is the single run's.
pub fn merge(dirs: &[PathBuf]) -> Result<(Config, Vec<Record>), InputError> {
    let opt = "audit merge";
    let mut parts = Vec::new();
    for d in dirs {
        parts.push(read_out(d)?);
    }
    let Some(((first, _), _)) = parts.split_first() else {
        return Err(InputError::new(
            opt,
            "give the output directories of the shards",
        ));
    };
    let config = first.config.clone();
    let n = first.shard.count;
    let mut seen = vec![false; n as usize];
    for (s, _) in &parts {
        if s.config != config {
            return Err(InputError::new(
                opt,
                "the shards come from different audits (their options differ)",
            ));
        }
        if s.shard.count != n {
            return Err(InputError::new(
                opt,
                format!(
                    "shards of {} and of {n} parts cannot be merged",
                    s.shard.count
                ),
            ));
        }
        let slot = &mut seen[s.shard.index as usize];
        if *slot {
            return Err(InputError::new(
                opt,
                format!("shard {} is given twice", s.shard),
            ));
        }
        *slot = true;
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(InputError::new(opt, format!("shard {i}/{n} is missing")));
    }
    let mut records: Vec<Record> = parts.into_iter().flat_map(|(_, r)| r).collect();
    records.sort_by_key(|r| r.index);
    let expected: Vec<u64> = (0..config.points).collect();
    if records.len() as u64 != config.points || records.iter().map(|r| r.index).ne(expected) {
        return Err(InputError::new(
            opt,
            "the shards' samples do not cover the domain exactly once (a shard was cut short?)",
        ));
    }
    Ok((config, records))
}

/// Reads a vector option (`--masses "1,1..3,1"`): one [`Axis`] per component. Components
/// are separated by commas, as in the law's own command; a component is a value, a range
/// `a..b`, or a list whose entries are separated by `|` (`"1|2|4"`).
pub fn vector_axes(src: &str, option: &str) -> Result<Vec<Axis>, InputError> {
    crate::lang::split_list(src)
        .into_iter()
        .map(|c| {
            let entries = split_top(c, '|');
            if entries.len() > 1 {
                if entries.iter().any(|e| e.is_empty()) {
                    return Err(InputError::new(
                        option,
                        format!("an empty entry in the list \"{c}\" (expected \"a|b|c\")"),
                    ));
                }
                if entries.iter().any(|e| domain_range(e)) {
                    return Err(InputError::new(
                        option,
                        format!("give a range \"a..b\" or a list \"a|b|c\", not both: \"{c}\""),
                    ));
                }
                Ok(Axis::List(entries.iter().map(|e| e.to_string()).collect()))
            } else {
                Axis::parse(c, option)
            }
        })
        .collect()
}

fn domain_range(s: &str) -> bool {
    matches!(Axis::parse(s, ""), Ok(Axis::Range { .. }))
}

/// `src` split at `sep` outside parentheses, each part trimmed.
pub(crate) fn split_top(src: &str, sep: char) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0usize);
    for (i, c) in src.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(src[start..i].trim());
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(src[start..].trim());
    out
}

/// The text of an axis as an option takes it (`a`, `a..b`, `a,b,c`).
pub fn axis_text(a: &Axis) -> String {
    match a {
        Axis::Value(v) => v.clone(),
        Axis::Range { lo, hi } => format!("{lo}..{hi}"),
        Axis::List(xs) => xs.join(","),
    }
}

/// A name, option or label built at run time (a handful per audit, kept for the process).
pub fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// One run of a law, as [`Law::run`] reports it.
#[derive(Clone, Debug, Default)]
pub struct LawRun {
    /// The zone (branch) of every step, by name.
    pub zones: Vec<String>,
    pub steps: usize,
    pub termination: String,
    pub final_state: Vec<crate::arith::Num>,
    /// Why this run decides nothing (an undecided sign, a work limit).
    pub undecided: Option<String>,
}

/// A law with zones, as `impactkit audit <law>` audits it: its domain, its command's own
/// spec at a point, and one run of that spec on a backend (the command's code: the same
/// numbers as the command prints).
pub trait Law: Sync {
    /// The command's input at a point (input-language strings).
    type Spec;
    /// The law's name (`cradle`).
    fn name(&self) -> &'static str;
    /// The parameters of the domain, in order.
    fn params(&self) -> &[Param];
    /// The law's options as given (for the configuration of the audit).
    fn options(&self) -> BTreeMap<String, String>;
    /// The spec at `inputs` (one expression per parameter).
    fn spec(&self, inputs: &[String]) -> Self::Spec;
    /// The run of `spec` on `backend`, as the command computes it.
    fn run(
        &self,
        spec: &Self::Spec,
        backend: crate::arith::backend::Backend,
    ) -> Result<LawRun, crate::system::SpecError>;
    /// The command that reproduces the run of `spec` on `backend`.
    fn reproduce(&self, spec: &Self::Spec, backend: crate::arith::backend::Backend) -> String;
}

/// The arithmetics of a law's audit.
#[derive(Clone, Copy, Debug)]
pub struct Arithmetics {
    /// The arithmetic under audit: `f64` or `mpfr:BITS`.
    pub audited: crate::arith::backend::Backend,
    /// The largest precision of the certified ladder; `None`: `--reference none`.
    pub reference: Option<u32>,
    /// The work limit of exact references (`--max-digits`).
    pub max_digits: u64,
    /// The time one sample's reference may take.
    pub sample_seconds: f64,
}

/// Precision of a law's first certified attempt (as for the corner): tight enough that
/// the distance to an `f64` result is measured, not the reference's own width.
const LAW_FIRST_BITS: u32 = 128;

/// The certified reference of `spec`: MPFR intervals at 128 bits, then the whole ladder
/// of [`crate::certify`] through [`crate::system::certified_report`]. `Err(why)`: undecided.
fn law_reference<L: Law>(
    law: &L,
    spec: &L::Spec,
    max_bits: u32,
) -> Result<Result<(String, LawRun), String>, InputError> {
    use crate::arith::backend::Backend;
    use crate::system::SpecError;
    // an undecided sign the law reports as an error (not in its report) is one rung's
    // undecided outcome: the ladder goes on
    let run = |b: Backend| match law.run(spec, b) {
        Err(SpecError::Law(e @ crate::law::LawError::Undecided { .. })) => Ok(LawRun {
            termination: "undecided".into(),
            undecided: Some(e.to_string()),
            ..LawRun::default()
        }),
        r => r,
    };
    let first = Backend::MpInterval(LAW_FIRST_BITS);
    if let Ok(r) = run(first) {
        if r.undecided.is_none() {
            return Ok(Ok((first.to_string(), r)));
        }
    }
    match crate::system::certified_report(max_bits, run, |r| r.undecided.clone()) {
        Ok((r, Some(by), _)) => Ok(Ok((by, r))),
        Ok((r, None, attempts)) => Ok(Err(r.undecided.clone().unwrap_or_else(|| {
            attempts
                .last()
                .map_or("no arithmetic of the ladder decided".into(), |a| {
                    format!("{}: {}", a.arith, a.outcome)
                })
        }))),
        Err(SpecError::Input(e)) if !e.unrepresentable => Err(e),
        Err(e) => Ok(Err(e.to_string())),
    }
}

/// Runs the audit of `law`: checks the domain (every range non-empty, the law's own
/// conditions at every vertex), then for every point of the shard runs the law in the
/// audited arithmetic and the certified reference, and compares them.
pub fn run_law<L: Law>(
    law: &L,
    ar: &Arithmetics,
    sampling: Sampling,
    exec: &Execution,
) -> Result<(Config, Vec<Record>), InputError> {
    use crate::arith::backend::Backend;
    use crate::system::SpecError;
    use std::time::{Duration, Instant};
    check_audited(ar.audited)?;
    let params = law.params();
    check_domain(params, |inputs| {
        let spec = law.spec(inputs);
        for b in [Backend::MpInterval(LAW_FIRST_BITS), ar.audited] {
            match law.run(&spec, b) {
                Err(SpecError::Input(e)) if !e.unrepresentable => return Err(e),
                _ => {}
            }
        }
        Ok(())
    })?;
    let points = Points::new(sampling.clone(), shapes(params))?;
    check_records(&points, exec, true, &sampling)?;
    let mut options = law.options();
    common_options(&mut options, ar, &sampling);
    let (axes, pi_axes) = axes_of(params);
    let config = Config {
        law: law.name().into(),
        options,
        axes,
        points: points.len(),
        pi_axes,
    };
    let records = drive(
        &points,
        exec,
        || (),
        |_, index, t| {
            let inputs = inputs_at(params, t);
            let spec = law.spec(&inputs);
            let audited = match law.run(&spec, ar.audited) {
                Ok(r) => r,
                Err(SpecError::Input(e)) => return Err(e),
                Err(SpecError::Law(e)) => LawRun {
                    termination: "error".into(),
                    undecided: Some(e.to_string()),
                    ..LawRun::default()
                },
            };
            let coords = params
                .iter()
                .zip(&inputs)
                .filter(|(p, _)| p.axis.varies())
                .map(|(_, e)| crate::lang::eval_str::<f64>(e, &()).unwrap_or(f64::NAN))
                .collect();
            let mut rec = Record {
                index,
                coords,
                inputs: params
                    .iter()
                    .map(|p| p.name.to_string())
                    .zip(inputs.iter().cloned())
                    .collect(),
                audited: record::Audited {
                    steps: audited.steps,
                    termination: audited.termination.clone(),
                    final_state: audited.final_state.iter().map(record::Value::of).collect(),
                },
                reference: None,
                undecided: None,
                comparison: None,
                reproduce: law.reproduce(&spec, ar.audited),
            };
            let Some(max_bits) = ar.reference else {
                return Ok(rec);
            };
            let deadline = Instant::now() + Duration::from_secs_f64(ar.sample_seconds);
            let (by, reference) = match crate::budget::with_deadline(deadline, || {
                law_reference(law, &spec, max_bits)
            }) {
                None => {
                    rec.undecided = Some(format!(
                        "the certified reference took more than {} s (--sample-seconds)",
                        ar.sample_seconds
                    ));
                    return Ok(rec);
                }
                Some(r) => match r? {
                    Ok(x) => x,
                    Err(why) => {
                        rec.undecided = Some(why);
                        return Ok(rec);
                    }
                },
            };
            let names: Vec<&str> = audited.zones.iter().map(String::as_str).collect();
            record::compare(
                &mut rec,
                &names,
                &audited.final_state,
                record::ReferenceRun {
                    certified_by: by,
                    zones: &reference.zones,
                    steps: reference.steps,
                    termination: &reference.termination,
                    final_state: &reference.final_state,
                },
            );
            Ok(rec)
        },
    )?;
    Ok((config, records))
}

/// The options every law's audit shares: arithmetics and sampling.
pub fn common_options(o: &mut BTreeMap<String, String>, ar: &Arithmetics, sampling: &Sampling) {
    o.insert("--arith".into(), ar.audited.to_string());
    match ar.reference {
        Some(bits) => {
            o.insert("--reference".into(), "certified".into());
            o.insert("--max-bits".into(), bits.to_string());
            o.insert("--max-digits".into(), ar.max_digits.to_string());
        }
        None => {
            o.insert("--reference".into(), "none".into());
        }
    }
    match sampling {
        Sampling::Grid(g) => {
            o.insert(
                "--grid".into(),
                g.iter().map(u64::to_string).collect::<Vec<_>>().join("x"),
            );
        }
        Sampling::Quasi { samples, seed } => {
            o.insert("--samples".into(), samples.to_string());
            o.insert("--seed".into(), seed.to_string());
        }
    }
}

/// Parameters `prefix1, prefix2, …` from one vector option (one per component).
pub fn vector_params(axes: &[Axis], prefix: &str, option: &'static str, what: &str) -> Vec<Param> {
    axes.iter()
        .enumerate()
        .map(|(i, a)| Param {
            name: leak(format!("{prefix}{}", i + 1)),
            option,
            label: leak(format!("{what} {prefix}{}", i + 1)),
            axis: a.clone(),
        })
        .collect()
}

/// Shell quoting of one argument of a reproduction command.
pub fn quote(s: &str) -> String {
    format!("'{s}'")
}

/// The arithmetic under audit must be a rounded one: f64 or mpfr:BITS.
pub fn check_audited(audited: crate::arith::backend::Backend) -> Result<(), InputError> {
    use crate::arith::backend::Backend;
    if matches!(audited, Backend::F64 | Backend::Mpfr(_)) {
        return Ok(());
    }
    Err(InputError::new(
        "--arith",
        format!("the audited arithmetic must be f64 or mpfr:BITS (a rounded one), got {audited}"),
    ))
}

/// `audit --html DIR`: the audit as a static page (issue 62, item 5): the summary, the map
/// figure (`figures`, written next to the page) and the worst cases with the commands that
/// reproduce them, from the text report `text` of the command `name`.
pub fn html_page(name: &str, text: &str, figures: &[String]) -> String {
    use crate::report::html::{escape, head};
    let (summary, worst) = match text.find("worst cases:") {
        Some(i) => (&text[..i], Some(&text[i + "worst cases:".len()..])),
        None => (text, None),
    };
    let mut o = head(&format!("impactkit {name}"), "style.css");
    o += &format!("<h1>impactkit {}</h1>\n", escape(name));
    if let Some(svg) = figures
        .iter()
        .find(|f| f.ends_with(".svg"))
        .or(figures.first())
    {
        o += &format!(
            "<h2>Map</h2>\n<p><img src=\"{0}\" alt=\"the audit's map: where f64 takes another branch than the certified computation\" style=\"max-width: 100%\"></p>\n",
            escape(svg)
        );
    }
    o += &format!(
        "<h2>Summary</h2>\n<pre>{}</pre>\n",
        escape(summary.trim_end())
    );
    if let Some(w) = worst {
        o += &format!(
            "<h2>Worst cases, with the command that reproduces each</h2>\n<pre>{}</pre>\n",
            escape(w.trim_matches('\n'))
        );
    }
    o + "</body>\n</html>\n"
}
