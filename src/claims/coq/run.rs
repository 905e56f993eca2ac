//! Writes the Coq files of a `verify` run into a folder and has Coq check them: `coqc`
//! compiles each file (its proofs run through the kernel), `coqchk` re-checks the compiled
//! files of the library and the claims (`-norec`: Coq's standard library is taken as
//! installed), and `Print Assumptions` of each claim's theorem may show only the standard axioms
//! of Coq's real numbers. A file with `Admitted`, `admit` or a declaration of ours
//! (`Axiom`, `Parameter`, …) is rejected before Coq sees it.

use rayon::prelude::*;
use serde::Serialize;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A claim's Coq status.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "status", content = "why", rename_all = "kebab-case")]
pub enum CoqStatus {
    /// Compiled by `coqc`, re-checked by `coqchk`, standard axioms only.
    Checked,
    /// Coq did not accept the generated proof (the first line of its error): for a true
    /// claim, a proof our tactics do not find yet; for a false one, what must happen.
    Rejected(String),
    /// No Coq file: the reason (a kind or a probe without a Coq law yet, an undecided
    /// verdict).
    NotExported(String),
    /// The file is written but Coq could not be run.
    NotRun(String),
}

impl CoqStatus {
    /// The words of the text report.
    pub fn text(&self) -> String {
        match self {
            CoqStatus::Checked => "checked by Coq".into(),
            CoqStatus::Rejected(why) => format!("proof not accepted by Coq: {why}"),
            CoqStatus::NotExported(why) => format!("not exported: {why}"),
            CoqStatus::NotRun(why) => format!("exported, not checked: {why}"),
        }
    }
}

/// The axioms a checked theorem may rest on: those of Coq's standard real numbers.
const STANDARD_AXIOMS: [&str; 3] = [
    "ClassicalDedekindReals.sig_forall_dec",
    "ClassicalDedekindReals.sig_not_dec",
    "FunctionalExtensionality.functional_extensionality_dep",
];

/// Words a checked file may not contain.
const FORBIDDEN: [&str; 8] = [
    "Admitted",
    "admit",
    "Axiom",
    "Parameter",
    "Hypothesis",
    "Variable",
    "Conjecture",
    "Abort",
];

/// A Coq command's success and output, or why it did not run.
type Outcome = Result<(bool, String), String>;

/// The default of [`coqc_limit`], in seconds.
const COQC_SECONDS: u64 = 90;

/// The time limit of one `coqc` run (twice that for `coqchk`): 90 s, or
/// `IMPACTKIT_COQ_SECONDS` (a whole number in 1..=3600) for a slower machine; a value
/// outside that range is ignored.
fn coqc_limit() -> Duration {
    let s = std::env::var("IMPACTKIT_COQ_SECONDS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|s| (1..=3600).contains(s))
        .unwrap_or(COQC_SECONDS);
    Duration::from_secs(s)
}

/// Writes `dir/lib/*.v` (the laws and tactics) and `dir/claims/<file>.v` for each `(claim id,
/// file name, text)`, compiles and checks them (`coqc -Q lib ImpactKit -Q claims Claims`) on `jobs` threads, and returns each claim's
/// status in order. An `Err` is a folder that cannot be written or a library that does
/// not compile.
pub fn check_folder(
    dir: &Path,
    files: &[(String, String, String)],
    jobs: usize,
) -> Result<Vec<(String, CoqStatus)>, String> {
    let lib = dir.join("lib");
    std::fs::create_dir_all(&lib).map_err(|e| format!("--coq: {}: {e}", lib.display()))?;
    for (name, text) in super::laws::LIBRARY {
        write_atomic(&lib.join(name), text)?;
    }
    let claims = dir.join("claims");
    std::fs::create_dir_all(&claims).map_err(|e| format!("--coq: {}: {e}", claims.display()))?;
    for (_, file, text) in files {
        write_atomic(&claims.join(format!("{file}.v")), text)?;
    }
    std::fs::write(
        dir.join("_CoqProject"),
        "-Q lib ImpactKit\n-Q claims Claims\n",
    )
    .map_err(|e| format!("--coq: {e}"))?;
    if Command::new("coqc").arg("--version").output().is_err() {
        let why = "coqc not found (install Coq 8.16: apt-get install coq)".to_string();
        return Ok(files
            .iter()
            .map(|(id, _, _)| (id.clone(), CoqStatus::NotRun(why.clone())))
            .collect());
    }
    compile_library(dir)?;
    let pool = crate::input::caps::pool(jobs).map_err(|e| e.to_string())?;
    let mut statuses: Vec<(String, CoqStatus)> = pool.install(|| {
        files
            .par_iter()
            .with_max_len(1)
            .map(|(id, file, text)| (id.clone(), compile(dir, file, text)))
            .collect()
    });
    // coqchk re-checks every compiled file with the kernel alone (no tactics)
    let compiled: Vec<&str> = files
        .iter()
        .zip(&statuses)
        .filter(|(_, (_, s))| *s == CoqStatus::Checked)
        .map(|((_, f, _), _)| f.as_str())
        .collect();
    if !compiled.is_empty() {
        let (ok, _) = coqchk(dir, &compiled, coqc_limit() * 2)?;
        if !ok {
            // a file it rejects, or past the time limit (coqchk has no virtual machine: the
            // reflexive arithmetic of a large `field` is slow there): one file at a time,
            // on the `jobs` threads
            let redo: Vec<usize> = (0..files.len())
                .filter(|&i| statuses[i].1 == CoqStatus::Checked)
                .collect();
            let results: Vec<(usize, Outcome)> = pool.install(|| {
                redo.par_iter()
                    .with_max_len(1)
                    .map(|&i| (i, coqchk(dir, &[files[i].1.as_str()], coqc_limit() * 2)))
                    .collect()
            });
            for (i, r) in results {
                let (ok1, out1) = r?;
                if !ok1 {
                    statuses[i].1 = CoqStatus::Rejected(format!("coqchk: {}", first_error(&out1)));
                }
            }
        }
    }
    Ok(statuses)
}

/// Compiles `dir/lib/*.v` with `coqc`, once per process: the compiled files (`.vo`) of the
/// first folder are kept and written into every later folder, which holds the same `.v`
/// text (the library is part of the binary). `coqchk` still re-checks them in every folder.
fn compile_library(dir: &Path) -> Result<(), String> {
    static COMPILED: Mutex<Vec<(String, Vec<u8>)>> = Mutex::new(Vec::new());
    let mut compiled = COMPILED.lock().unwrap_or_else(|e| e.into_inner());
    if !compiled.is_empty() {
        for (vo, bytes) in compiled.iter() {
            let path = dir.join("lib").join(vo);
            crate::output::write_atomic(&path, bytes)
                .map_err(|e| format!("--coq: cannot write {}: {e}", path.display()))?;
        }
        return Ok(());
    }
    let mut kept = Vec::new();
    for (name, _) in super::laws::LIBRARY {
        let (ok, out) = coqc(dir, &format!("lib/{name}"))?;
        if !ok {
            return Err(format!(
                "the Coq library lib/{name} does not compile: {out}"
            ));
        }
        let vo = format!("{}.vo", name.trim_end_matches(".v"));
        let path = dir.join("lib").join(&vo);
        let bytes = std::fs::read(&path).map_err(|e| format!("--coq: {}: {e}", path.display()))?;
        kept.push((vo, bytes));
    }
    *compiled = kept;
    Ok(())
}

fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    crate::output::write_atomic(path, text.as_bytes())
        .map_err(|e| format!("--coq: cannot write {}: {e}", path.display()))
}

/// Compiles one claim's file and reads its `Print Assumptions`.
fn compile(dir: &Path, file: &str, text: &str) -> CoqStatus {
    if let Some(w) = FORBIDDEN.iter().find(|w| contains_word(text, w)) {
        return CoqStatus::Rejected(format!("the file contains `{w}`"));
    }
    match coqc(dir, &format!("claims/{file}.v")) {
        Err(e) => CoqStatus::NotRun(e),
        Ok((false, out)) => CoqStatus::Rejected(first_error(&out)),
        Ok((true, out)) => match axioms(&out)
            .into_iter()
            .find(|a| !STANDARD_AXIOMS.contains(&a.as_str()))
        {
            Some(a) => CoqStatus::Rejected(format!("the theorem rests on the axiom {a}")),
            None if out.contains("Axioms:") || out.contains("Closed under the global context") => {
                CoqStatus::Checked
            }
            None => CoqStatus::Rejected("no Print Assumptions output".into()),
        },
    }
}

fn contains_word(text: &str, w: &str) -> bool {
    text.match_indices(w).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + w.len()..].chars().next();
        let ident =
            |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '\'');
        !ident(before) && !ident(after)
    })
}

/// The axiom names of `Print Assumptions` output: the lines at column 0 after `Axioms:`.
fn axioms(out: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut on = false;
    for line in out.lines() {
        if line.starts_with("Axioms:") {
            on = true;
        } else if on && !line.is_empty() && !line.starts_with(char::is_whitespace) {
            // `name : type` when the type fits on the line, else `name` alone
            names.extend(line.split_whitespace().next().map(str::to_string));
        }
    }
    names
}

/// The first line of Coq's error (with the line of the file it names).
fn first_error(out: &str) -> String {
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("Error"));
    match at {
        Some(i) => {
            let place = lines[..i]
                .iter()
                .rev()
                .find(|l| l.starts_with("File "))
                .map(|l| {
                    l.split(", characters")
                        .next()
                        .unwrap_or(l)
                        .replace("File ", "")
                        .replace('"', "")
                });
            let msg: String = lines[i..]
                .iter()
                .take(3)
                .map(|l| l.trim())
                .collect::<Vec<_>>()
                .join(" ");
            let msg = clip(&msg);
            match place {
                Some(p) => format!("{p}: {msg}"),
                None => msg,
            }
        }
        None => clip(out.lines().last().unwrap_or("failed")),
    }
}

/// The load path of every Coq command: the library as `ImpactKit`, the claims as `Claims`.
const LOAD_PATH: [&str; 6] = ["-Q", "lib", "ImpactKit", "-Q", "claims", "Claims"];

fn coqc(dir: &Path, file: &str) -> Result<(bool, String), String> {
    let mut c = Command::new("coqc");
    c.current_dir(dir).arg("-q").args(LOAD_PATH).arg(file);
    run_limited(c, coqc_limit()).map_err(|e| format!("coqc {file}: {e}"))
}

fn coqchk(dir: &Path, files: &[&str], limit: Duration) -> Result<(bool, String), String> {
    let mut c = Command::new("coqchk");
    c.current_dir(dir).arg("-silent").args(LOAD_PATH);
    // -norec: our modules (the library and the claims) re-checked by the kernel, Coq's own
    // standard library taken as installed
    for (name, _) in super::laws::LIBRARY {
        c.args([
            "-norec",
            &format!("ImpactKit.{}", name.trim_end_matches(".v")),
        ]);
    }
    for f in files {
        c.args(["-norec", &format!("Claims.{f}")]);
    }
    run_limited(c, limit).map_err(|e| format!("coqchk: {e}"))
}

/// Runs a command with a time limit: (success, stdout and stderr).
fn run_limited(mut c: Command, limit: Duration) -> Result<(bool, String), String> {
    let dir = std::env::temp_dir();
    let tag = format!(
        "impactkit-coq-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    )
    .replace(['(', ')'], "");
    let out_path = dir.join(format!("{tag}.out"));
    let out = std::fs::File::create(&out_path).map_err(|e| e.to_string())?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    let mut child = c
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(s);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = std::fs::read_to_string(&out_path).unwrap_or_default();
    let _ = std::fs::remove_file(&out_path);
    match status {
        None => Ok((
            false,
            format!("Error: past the time limit of {} s", limit.as_secs()),
        )),
        Some(s) => Ok((s.success(), text)),
    }
}

fn clip(s: &str) -> String {
    match s.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::axioms;

    /// `Print Assumptions` puts a short type on the axiom's line and a long one below it:
    /// either way the name alone is compared with the standard axioms.
    #[test]
    fn axiom_names_with_or_without_their_type_on_the_line() {
        let out = "Axioms:\nClassicalDedekindReals.sig_not_dec : forall P : Prop, {~ ~ P} + {~ P}\nClassicalDedekindReals.sig_forall_dec\n  : forall P : nat -> Prop,\n    (forall n : nat, {P n} + {~ P n}) -> {n : nat | ~ P n} + {forall n : nat, P n}\n";
        assert_eq!(
            axioms(out),
            [
                "ClassicalDedekindReals.sig_not_dec",
                "ClassicalDedekindReals.sig_forall_dec"
            ]
        );
    }
}
