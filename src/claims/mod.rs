//! The verification engine: claims of the papers, read from `proofs/**.toml`, each given a
//! verdict computed here (a claim file never states its own verdict).
//!
//! A claim file has `id`, `paper` (the paper's key, listed in `docs/claims-format.md`), `where`
//! (section / equation), `statement` (the paper's words), `kind`, `method`, and a table
//! named after its kind with the formal content:
//!
//! | kind | table | checker |
//! |---|---|---|
//! | `identity` | `[identity]` | [`exact::identity`]: symbolic seam, else exact samples |
//! | `exact-example` | `[example]` | [`exact::example`]: a probe run exactly, outputs compared |
//! | `agreement` | `[agreement]` | [`exact::sampled`]: two sides equal on exact samples, per zone |
//! | `implication` | `[implication]` | [`exact::sampled`]: conclusions hold on exact samples of a zone |
//! | `counterexample-search` | `[search]` | [`exact::sampled`]: exact search for a violation |
//! | `inequality` | `[inequality]` | [`exact::inequality`]: interval branch-and-bound |
//! | `fp-audit` | `[fp-audit]` | [`exact::fp_audit`]: f64 behaviour versus the exact one |
//!
//! An `agreement` or `implication` may also carry proofs: `[kind.proof]` (the symbolic
//! method of [`prove`] over the paper's domain, with a Gram [`reduction`] to every
//! dimension), and an `implication` on runs `[implication.induction]` (a step lemma and a
//! base, see [`prove::induction`]); an `agreement` with `every_side_defined = true` counts a
//! right side without a value, where the left side has one, as a counterexample.
//!
//! Verdicts: `proved` (over the paper's whole stated domain), `proved-on-subdomain` (over a
//! part of it, written in the detail), `refuted` (exact counterexample),
//! `confirmed-on-samples` (N exact samples, not a proof), `inconclusive` (with the reason).
//!
//! ## The wings, and the trusted base
//!
//! | module | what it is | trusted by `check` |
//! |---|---|---|
//! | [`claim`] | the typed claim ([`Claim`], [`Kind`], [`ClaimError`]), its tables, its schema, what it states ([`claim::statement`]) | yes |
//! | [`probes`] | one table of named entry points into the laws, files by paper or system | yes (the law is the model) |
//! | [`exact`] | the claim's expressions and probes evaluated exactly; recomputed kinds | yes |
//! | [`reduction`] | a Gram reduction's checks, computed from the claim file | yes |
//! | [`certificate`] | the certificate format | read, never believed |
//! | [`check`](mod@check) | `impactkit check`: re-derives every obligation from the claim file | yes |
//! | [`prove`] | the prover's heuristics (charting, splitting, witness search, induction, ranking functions) | **no** |
//! | [`smtlib`], [`export`], [`coq`], [`report`] | outputs | no |
//! | this module | the engine that runs the prover, then `check` on its certificates | no |
//!
//! `check` imports nothing from [`prove`] or from this module, and no module here imports
//! in a circle (`tests/it/layout.rs` reads the sources and fails otherwise, and prints
//! the trusted base's size in lines).

pub mod certificate;
pub mod check;
pub mod claim;
pub mod coq;
pub mod exact;
pub mod export;
pub mod html;
pub mod probes;
pub mod prove;
pub mod reduction;
pub mod report;
pub mod smtlib;

pub use claim::{load_paths, Claim, ClaimError, ClaimResult, Kind, Outcome, Verdict};
use exact::{example, fp_audit, identity, inequality, sampled};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Checks one claim within `budget` (a deadline for the checkers that loop).
///
/// A verdict never depends on the clock: the checkers stop on deterministic work bounds
/// (cells, term products, samples, boxes, steps), and the time limit is only a safety
/// net. If any computation of the claim saw its deadline pass ([`crate::budget::passed`]),
/// whatever it computed is discarded and the claim is `inconclusive` with `(time)` in its
/// detail, counted apart in the summary.
///
/// # Example
///
/// ```
/// use impactkit::claims::{check, Claim, Verdict};
/// use std::path::Path;
/// let text = r#"
///     id = "sum-of-thirds"
///     paper = "none"
///     where = "example"
///     statement = "1/3 + 2/3 = 1"
///     kind = "identity"
///     method = "exact"
///     [identity]
///     lhs = "1/3 + 2/3"
///     rhs = "1"
/// "#;
/// let claim = Claim::parse(text, Path::new("example.toml")).unwrap();
/// let outcome = check(&claim, std::time::Duration::from_secs(10));
/// assert_eq!(outcome.verdict, Verdict::Proved, "{}", outcome.detail);
/// ```
pub fn check(claim: &Claim, budget: Duration) -> Outcome {
    crate::budget::take_timed();
    let deadline = Instant::now() + budget;
    let r = match claim.kind {
        Kind::Identity => identity::check(claim),
        Kind::ExactExample => example::check(claim),
        Kind::Agreement | Kind::Implication => proved_or_sampled(claim, deadline),
        Kind::CounterexampleSearch => sampled::check_search(claim, deadline),
        Kind::Inequality => inequality_proved(claim, deadline),
        Kind::FpAudit => fp_audit::check(claim),
    };
    if crate::budget::take_timed() {
        return time_ran_out(budget);
    }
    r.unwrap_or_else(|e| Outcome::inconclusive(format!("the claim cannot be checked: {e}")))
}

/// `agreement` and `implication`: the symbolic proof when the claim has a `proof` table,
/// else (or when it finds no proof) exact samples, with the reason no proof was obtained.
fn proved_or_sampled(claim: &Claim, deadline: Instant) -> Result<Outcome, String> {
    // a claim that every run stops: by a ranking function (a proof only); a claim on runs:
    // by induction over their steps, with the conclusions the engine derives (a proof
    // only; the conclusions are sampled as well, a cross-check that cannot make a proof)
    let by_ranking = match prove::termination::attempt(claim, deadline) {
        Some(prove::Attempt::Decided(o)) => return Ok(o),
        Some(prove::Attempt::NoProof(why)) => Some(why),
        None => None,
    };
    let by_induction = match prove::induction::attempt(claim, deadline) {
        Some(prove::Attempt::Decided(mut o)) => {
            let mut s = sampled::check_implication(claim, deadline)?;
            if s.verdict == Verdict::Refuted {
                s.detail = format!(
                    "{} (a conclusion the induction derived fails at an exact sample point: the derivation is wrong, an engine bug to report)",
                    s.detail
                );
                return Ok(s);
            }
            o.detail = format!(
                "{}; the conclusions on the runs, sampled as well: {}",
                o.detail,
                s.detail.trim_end_matches("; not a proof")
            );
            return Ok(o);
        }
        Some(prove::Attempt::NoProof(why)) => Some(why),
        None => None,
    };
    let why = match prove::attempt(claim, deadline) {
        Some(prove::Attempt::Decided(mut o)) => {
            if o.verdict == Verdict::Refuted {
                o.corrected = corrected_proved(claim, deadline).or_else(|| {
                    // the correction on exact samples, as the sampled kinds report it
                    let s = if claim.kind == Kind::Agreement {
                        sampled::check_agreement(claim, deadline)
                    } else {
                        sampled::check_implication(claim, deadline)
                    };
                    s.ok().and_then(|s| s.corrected)
                });
            }
            return Ok(o);
        }
        Some(prove::Attempt::NoProof(why)) => why,
        None => "no proof method in the claim file (no `proof` table)".into(),
    };
    let why = match by_induction.or(by_ranking) {
        Some(i) => format!("{i}; {why}"),
        None => why,
    };
    let mut o = if claim.kind == Kind::Agreement {
        sampled::check_agreement(claim, deadline)?
    } else {
        sampled::check_implication(claim, deadline)?
    };
    if matches!(
        o.verdict,
        Verdict::ConfirmedOnSamples | Verdict::Inconclusive
    ) {
        o.detail = format!("{}; no full proof: {why}", o.detail);
    }
    Ok(o)
}

/// `inequality`: when the claim has a `proof` table (the paper's domain, open or
/// unbounded ends included), first the symbolic method on its relation `holds`, as an
/// implication with no hypothesis beyond the claim's; else, or when that finds no proof,
/// interval branch-and-bound on the box `vars`.
fn inequality_proved(claim: &Claim, deadline: Instant) -> Result<Outcome, String> {
    let why = match claim::as_implication(claim) {
        None => None,
        Some(c) => match prove::attempt(&c, deadline) {
            Some(prove::Attempt::Decided(o)) => return Ok(o),
            Some(prove::Attempt::NoProof(why)) => Some(why),
            None => None,
        },
    };
    let mut o = inequality::check(claim, deadline)?;
    if let (Some(why), false) = (why, o.verdict == Verdict::Proved) {
        o.detail = format!(
            "{}; the symbolic method on the paper's domain found no proof: {why}",
            o.detail
        );
    }
    Ok(o)
}

/// The claim with its candidate correction in place of the statement (`corrected` side of
/// an agreement, `corrected_conclude` of an implication), if it has one.
fn corrected_claim(claim: &Claim) -> Option<Claim> {
    let mut t = claim.table().clone();
    if claim.kind == Kind::Agreement {
        let mut right = t.get("corrected")?.as_table()?.clone();
        right.remove("statement");
        t.insert("right".into(), toml::Value::Table(right));
        t.remove("also");
        return claim.with_table(claim.kind, t).ok();
    }
    let mut any = false;
    let mut swap = |t: &mut toml::Table| {
        if let Some(cc) = t.remove("corrected_conclude") {
            t.insert("conclude".into(), cc);
            any = true;
        }
    };
    swap(&mut t);
    if let Some(toml::Value::Array(cases)) = t.get_mut("case") {
        for case in cases.iter_mut().filter_map(|x| x.as_table_mut()) {
            swap(case);
        }
    }
    if !any {
        return None;
    }
    claim.with_table(claim.kind, t).ok()
}

/// The text of the correction when the symbolic method proves it.
fn corrected_proved(claim: &Claim, deadline: Instant) -> Option<String> {
    let c = corrected_claim(claim)?;
    let Some(prove::Attempt::Decided(o)) = prove::attempt(&c, deadline) else {
        return None;
    };
    if o.verdict != Verdict::Proved {
        return None;
    }
    let text = if claim.kind == Kind::Agreement {
        c.body()
            .agreement()?
            .corrected
            .as_ref()?
            .statement
            .clone()?
    } else {
        // the cases that have a correction, named as the samples name them
        sampled::cases(claim.body())
            .ok()?
            .iter()
            .filter_map(|k| {
                let rs = k.corrected.as_ref()?;
                let r: Vec<&str> = rs.iter().map(|r| r.text.as_str()).collect();
                Some(format!("{}{}", sampled::label(k), r.join(" and ")))
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    Some(format!(
        "{text} (proved by the symbolic method over the whole domain)"
    ))
}

/// Checks every claim (`only`: just the one with that id), `budget` seconds each at most,
/// one at a time.
pub fn run(claims: &[Claim], only: Option<&str>, budget: Duration) -> Vec<ClaimResult> {
    run_parallel(claims, only, budget, 1, &|_| {})
}

/// Checks one claim in its own thread and waits at most `budget` (plus a second for the
/// checkers that watch the deadline themselves to finish cleanly): a kind that does not
/// watch it (a huge symbolic expansion, a long exact loop) is reported `inconclusive`
/// on time, its thread abandoned (it ends with the process).
pub fn check_within(claim: &Claim, budget: Duration) -> Outcome {
    let (tx, rx) = std::sync::mpsc::channel();
    let c = claim.clone();
    let spawned = std::thread::Builder::new()
        .name(format!("claim {}", claim.id))
        .stack_size(64 << 20)
        .spawn(move || {
            // the checkers that watch `budget` end cleanly at it; half a second later the
            // checkpoints of any other computation unwind to here, and the thread ends
            let hard = Instant::now() + budget + Duration::from_millis(500);
            let outcome = crate::budget::with_deadline(hard, || check(&c, budget))
                .unwrap_or_else(|| time_ran_out(budget));
            let _ = tx.send(outcome);
        });
    if spawned.is_err() {
        return check(claim, budget);
    }
    rx.recv_timeout(budget + Duration::from_secs(1))
        .unwrap_or_else(|_| time_ran_out(budget))
}

/// The marker of an outcome cut by the time limit (counted apart in the summary).
pub const TIME_MARK: &str = "(time)";

/// The outcome of a claim whose checker ran past its time limit.
fn time_ran_out(budget: Duration) -> Outcome {
    Outcome::inconclusive(format!(
        "{TIME_MARK} the time limit of {:.1} s per claim ran out before the checker finished (raise --budget-seconds; the work bounds, not the clock, decide every other verdict)",
        budget.as_secs_f64()
    ))
}

impl ClaimResult {
    /// Whether the claim is `inconclusive` because its time limit ran out.
    pub fn timed_out(&self) -> bool {
        self.verdict == Verdict::Inconclusive && self.detail.starts_with(TIME_MARK)
    }
}

/// Checks the chosen claims on `jobs` threads (rayon), calling `done(id)` after each; the
/// results keep the order of `claims`.
pub fn run_parallel(
    claims: &[Claim],
    only: Option<&str>,
    budget: Duration,
    jobs: usize,
    done: &(dyn Fn(&str) + Sync),
) -> Vec<ClaimResult> {
    run_ordered(claims, only, budget, jobs, done, &|_| {})
}

/// A verdict whose certificate `check` rejects is not given: the engine checks its own
/// symbolic proofs and refutations (with the decision log on, as `--certificates` and
/// `--smtlib` turn it on) before it reports them, and a rejected one becomes
/// `inconclusive` with the checker's reason. Exact recomputations (`exact-example`,
/// `fp-audit`, `identity`, an inequality's interval branch-and-bound) are their own
/// certificate: `check` would run the same computation again.
fn self_checked(c: &Claim, o: Outcome) -> Outcome {
    let decided = matches!(
        o.verdict,
        Verdict::Proved | Verdict::ProvedOnSubdomain | Verdict::Refuted
    );
    let recomputed =
        c.kind.recomputed() || (o.verdict != Verdict::Refuted && o.certificate.is_none());
    if !decided || recomputed || !crate::arith::symbolic::decision_log_enabled() {
        return o;
    }
    let cert = serde_json::json!({
        "claim": c.id,
        "verdict": o.verdict.name(),
        "certificate": o.certificate,
        "counterexample": o.counterexample,
    });
    match check::check_value(&cert, c).rejected {
        None => o,
        Some(why) => Outcome::inconclusive(format!(
            "the engine found `{}`, but its certificate does not check ({why})",
            o.verdict.name()
        )),
    }
}

/// The claims `verify` checks: all, or the one with id `only`.
fn chosen<'a>(claims: &'a [Claim], only: Option<&'a str>) -> impl Iterator<Item = &'a Claim> {
    claims
        .iter()
        .filter(move |c| only.is_none_or(|o| o == c.id))
}

/// [`run_parallel`], handing every result to `emit` as soon as it and every claim before
/// it are decided, in the report's order (`verify` prints them as they come).
pub fn run_ordered(
    claims: &[Claim],
    only: Option<&str>,
    budget: Duration,
    jobs: usize,
    done: &(dyn Fn(&str) + Sync),
    emit: &(dyn Fn(&ClaimResult) + Sync),
) -> Vec<ClaimResult> {
    use rayon::prelude::*;
    let chosen: Vec<&Claim> = chosen(claims, only).collect();
    let order = std::sync::Mutex::new((0usize, std::collections::BTreeMap::new()));
    let one = |(i, c): (usize, &&Claim)| {
        let t = Instant::now();
        let o = match crate::budget::cancelled() {
            true => Outcome::inconclusive("interrupted before it was checked"),
            false => self_checked(c, check_within(c, budget)),
        };
        done(&c.id);
        let r = ClaimResult {
            id: c.id.clone(),
            paper: c.paper.clone(),
            location: c.location.clone(),
            kind: c.kind,
            verdict: o.verdict,
            method: c.method.clone(),
            detail: o.detail,
            counterexample: o.counterexample,
            corrected: o.corrected,
            certificate: o.certificate,
            statement: c.statement.clone(),
            seconds: t.elapsed().as_secs_f64(),
        };
        // a poisoned lock (a panicking emit) only stops the streaming
        if let Ok(mut g) = order.lock() {
            let (next, waiting) = &mut *g;
            waiting.insert(i, r.clone());
            while let Some(ready) = waiting.remove(next) {
                emit(&ready);
                *next += 1;
            }
        }
        r
    };
    match crate::input::caps::pool(jobs) {
        Ok(pool) if jobs > 1 => pool.install(|| {
            // one claim per task: a few long claims do not end up on one thread
            chosen
                .par_iter()
                .with_max_len(1)
                .enumerate()
                .map(one)
                .collect()
        }),
        _ => chosen.iter().enumerate().map(one).collect(),
    }
}

/// Where `verify` writes its certificates and SMT-LIB queries (none by default; see
/// [`export`]).
#[derive(Clone, Debug, Default)]
pub struct Exports {
    pub certificates: Option<PathBuf>,
    pub smtlib: Option<PathBuf>,
    /// `--coq DIR`: a Coq file per decided claim, checked by Coq ([`coq`]).
    pub coq: Option<PathBuf>,
    /// `--html DIR`: the verdicts as a static site ([`html`]).
    pub html: Option<PathBuf>,
}

/// The options of a `verify` run checked: the time limit per claim in (0, 86400]
/// seconds, the worker threads within their cap.
pub fn check_run_options(budget_seconds: f64, jobs: usize) -> Result<(), String> {
    if !(budget_seconds.is_finite() && budget_seconds > 0.0 && budget_seconds <= 86_400.0) {
        return Err(format!(
            "--budget-seconds: must be a number in (0, 86400], got {budget_seconds}"
        ));
    }
    let (lo, hi) = (crate::input::caps::JOBS.min, crate::input::caps::JOBS.max);
    if !(lo..=hi).contains(&(jobs as u64)) {
        return Err(format!(
            "--jobs: must be an integer in {lo}..={hi}, got {jobs}"
        ));
    }
    Ok(())
}

/// Each decided claim's Coq file written into `dir` and checked ([`coq::check_folder`]);
/// every chosen claim gets a status.
/// `--html DIR`: the site of [`html`], written file by file (each atomically).
fn write_site(
    dir: &Path,
    results: &[ClaimResult],
    claims: &[Claim],
    exports: &Exports,
    coq: Option<&[(String, coq::CoqStatus)]>,
) -> Result<(), String> {
    let files: Vec<(String, String)> = claims
        .iter()
        .map(|c| (c.id.clone(), crate::input::files::shown(&c.file)))
        .collect();
    let ctx = html::Context {
        files: &files,
        certificates: exports
            .certificates
            .as_ref()
            .map(|d| d.display().to_string()),
        coq,
    };
    let err = |e: std::io::Error| format!("--html: {}: {e}", dir.display());
    std::fs::create_dir_all(dir.join("claims")).map_err(err)?;
    for (name, text) in html::site(results, &ctx) {
        crate::output::write_atomic(&dir.join(name), text.as_bytes()).map_err(err)?;
    }
    Ok(())
}

fn coq_statuses(
    dir: &Path,
    results: &[ClaimResult],
    claims: &[Claim],
    jobs: usize,
) -> Result<Vec<(String, coq::CoqStatus)>, String> {
    let mut files = Vec::new();
    let mut out: Vec<(String, Option<coq::CoqStatus>)> = Vec::new();
    for r in results {
        let Some(c) = claims.iter().find(|c| c.id == r.id) else {
            continue;
        };
        match coq::file_of(c, r) {
            Ok(text) => {
                files.push((r.id.clone(), coq::file_name(&r.id), text));
                out.push((r.id.clone(), None));
            }
            Err(why) => out.push((r.id.clone(), Some(coq::CoqStatus::NotExported(why)))),
        }
    }
    let mut checked = coq::check_folder(dir, &files, jobs)?.into_iter();
    Ok(out
        .into_iter()
        .map(|(id, s)| match s {
            Some(s) => (id, s),
            None => checked.next().expect("a status per file"),
        })
        .collect())
}

/// The claims of `paths`, with `only` checked to name one of them.
pub fn load_chosen(paths: &[PathBuf], only: Option<&str>) -> Result<Vec<Claim>, String> {
    let claims = load_paths(paths)?;
    if let Some(id) = only {
        if !claims.iter().any(|c| c.id == id) {
            return Err(format!("--only: no claim with id \"{id}\""));
        }
    }
    Ok(claims)
}

/// The `impactkit verify` command: loads the claims, checks them on `jobs` threads (an
/// indicatif progress bar on a terminal), renders the report, and writes the certificates
/// and SMT-LIB queries of `exports`. Errors are user errors (malformed claim file, unknown
/// id, bad budget or jobs, an export path that is not a directory): exit code 2.
pub fn verify_cli(
    paths: &[PathBuf],
    only: Option<&str>,
    format: &str,
    budget_seconds: f64,
    jobs: usize,
    exports: &Exports,
) -> Result<String, String> {
    verify_verdicts(paths, only, format, budget_seconds, jobs, exports, None).map(|(out, _)| out)
}

/// [`verify_cli`] with the verdict of every claim checked, in the report's order (for
/// `verify --deny`). With `stream` and the text format, each claim's lines go to `stream`
/// as soon as they and every claim before them are decided, and the report returned is
/// the rest (the summary).
///
/// # Example
///
/// ```
/// use impactkit::claims::{verify_verdicts, Exports, Verdict};
/// let dir = std::env::temp_dir().join(format!("impactkit-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let claim = |id: &str, lhs: &str| format!(
///     "id = \"{id}\"\npaper = \"none\"\nwhere = \"example\"\nstatement = \"{lhs} = 1\"\n\
///      kind = \"identity\"\nmethod = \"exact\"\n[identity]\nlhs = \"{lhs}\"\nrhs = \"1\"\n");
/// std::fs::write(dir.join("a.toml"), claim("right", "1/3 + 2/3")).unwrap();
/// std::fs::write(dir.join("b.toml"), claim("wrong", "1/3 + 1/3")).unwrap();
/// let (json, verdicts) =
///     verify_verdicts(&[dir.clone()], None, "json", 60.0, 1, &Exports::default(), None).unwrap();
/// assert_eq!(verdicts, [Verdict::Proved, Verdict::Refuted]);
/// assert!(json.contains("\"verdict\":\"refuted\""), "{json}");
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn verify_verdicts(
    paths: &[PathBuf],
    only: Option<&str>,
    format: &str,
    budget_seconds: f64,
    jobs: usize,
    exports: &Exports,
    stream: Option<&(dyn Fn(&str) + Sync)>,
) -> Result<(String, Vec<Verdict>), String> {
    check_run_options(budget_seconds, jobs)?;
    for (opt, d) in [
        ("--certificates", &exports.certificates),
        ("--smtlib", &exports.smtlib),
        ("--coq", &exports.coq),
        ("--html", &exports.html),
    ] {
        if let Some(d) = d {
            if d.exists() && !d.is_dir() {
                return Err(format!("{opt}: {} is not a directory", d.display()));
            }
        }
    }
    // --coq builds a proved claim's proof from its certificate's cells
    if exports.certificates.is_some() || exports.smtlib.is_some() || exports.coq.is_some() {
        crate::arith::symbolic::enable_decision_log();
    }
    let claims = load_chosen(paths, only)?;
    // the output folders are created and probed before the work (issue 63, D7)
    for (opt, d) in [
        ("--certificates", &exports.certificates),
        ("--smtlib", &exports.smtlib),
        ("--coq", &exports.coq),
        ("--html", &exports.html),
    ] {
        if let Some(d) = d {
            crate::output::check_dir(d).map_err(|e| format!("{opt}: {e}"))?;
        }
    }
    use std::io::IsTerminal;
    let total = chosen(&claims, only).count();
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(total as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} claims {elapsed} {msg}")
    {
        bar.set_style(style);
    }
    let stream = stream.filter(|_| format == "text");
    let w = report::id_width(chosen(&claims, only).map(|c| c.id.as_str()));
    let results = run_ordered(
        &claims,
        only,
        Duration::from_secs_f64(budget_seconds),
        jobs,
        &|id| {
            bar.set_message(id.to_string());
            bar.inc(1);
        },
        &|r| {
            if let Some(out) = stream {
                bar.suspend(|| out(&report::text_line(r, w)));
            }
        },
    );
    bar.finish_and_clear();
    let written = match exports.certificates.is_some() || exports.smtlib.is_some() {
        true => Some(export::write(
            &results,
            &claims,
            exports.certificates.as_deref(),
            exports.smtlib.as_deref(),
        )?),
        false => None,
    };
    let coq = match &exports.coq {
        Some(dir) => Some(coq_statuses(dir, &results, &claims, jobs)?),
        None => None,
    };
    // a claim file naming what nothing defines is bad input (exit 2), named by its file
    if let Some(r) = results
        .iter()
        .find(|r| r.detail.contains(claim::UNDEFINED_NAME))
    {
        let file = claims
            .iter()
            .find(|c| c.id == r.id)
            .map(|c| c.file.as_path());
        let why = r.detail.trim_start_matches("the claim cannot be checked: ");
        return Err(format!(
            "{}: {why}",
            file.map_or(r.id.clone(), crate::input::files::shown)
        ));
    }
    if let Some(dir) = &exports.html {
        write_site(dir, &results, &claims, exports, coq.as_deref())?;
    }
    let verdicts = results.iter().map(|r| r.verdict).collect();
    let out = match format {
        "json" => {
            let mut j = report::json(&results);
            if let Some((c, s, q)) = written {
                j["exports"] =
                    serde_json::json!({"certificates": c, "smtlib files": s, "smtlib queries": q});
            }
            if let Some(st) = &coq {
                j["coq"] = serde_json::json!({
                    "summary": coq::summary(st),
                    "claims": st.iter().map(|(id, s)| serde_json::json!({"id": id, "coq": s})).collect::<Vec<_>>(),
                });
            }
            j.to_string()
        }
        "markdown" => report::markdown(&results),
        _ => {
            let mut t = match stream {
                Some(_) => report::text_summary(&results),
                None => report::text(&results),
            };
            if let Some((c, s, q)) = written {
                t += &format!("{c} certificates written; {s} SMT-LIB files with {q} queries\n");
            }
            if let Some(st) = &coq {
                t += &coq::text(st);
            }
            t
        }
    };
    Ok((out, verdicts))
}
