//! The runner of the command-line fuzz suite (`tests/it/fuzz.rs`): runs `impactkit` as a
//! child process under a 4 GB address-space limit and a 20 s wall-clock limit, and checks
//! the command line's contract (DESIGN; issue 14):
//!
//! - exit 0: with `--format json` stdout is one JSON document; a non-finite value string
//!   ("inf", "-inf", "NaN") appears only if the top-level object has `"non_finite": true`;
//!   in text, a token inf/NaN only if the output also says `non-finite`;
//! - exit 2: exactly one line on stderr, `error: …`, at most 220 characters, no control
//!   characters, no "panicked", "RUST_BACKTRACE" or "internal error";
//! - never a signal, exit 101 (panic), exit 1 (internal error), another exit code, a hang,
//!   or more than 4 GB of address space (an allocation failure under the limit: SIGABRT).
//!
//! A case with `close_stdout` reads one byte of stdout and closes the pipe
//! (`impactkit … | head -c 1`): the run must then end quietly (exit 0, nothing on stderr),
//! or reject its input (exit 2, one line).

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The address-space limit of every child (RLIMIT_AS).
pub const MEMORY_LIMIT: u64 = 4 << 30;
/// The wall-clock limit of every child: a run longer than this is a hang.
pub const WALL_LIMIT: Duration = Duration::from_secs(20);
/// The longest error line allowed.
pub const MAX_ERROR_CHARS: usize = 220;
/// Output kept per stream (the rest is read and dropped).
const KEEP_BYTES: usize = 64 << 20;

/// One command line to run.
#[derive(Clone, Debug)]
pub struct Case {
    /// The arguments after `impactkit`.
    pub args: Vec<OsString>,
    /// Read one byte of stdout, then close it (`| head -c 1`).
    pub close_stdout: bool,
    /// Exit 0 required, within this many seconds (verify's hostile claims), if set.
    pub must_succeed_within: Option<Duration>,
}

impl Case {
    pub fn new<S: AsRef<OsStr>>(args: &[S]) -> Case {
        Case {
            args: args.iter().map(|a| a.as_ref().to_owned()).collect(),
            close_stdout: false,
            must_succeed_within: None,
        }
    }

    pub fn piped(mut self) -> Case {
        self.close_stdout = true;
        self
    }

    pub fn within(mut self, d: Duration) -> Case {
        self.must_succeed_within = Some(d);
        self
    }

    /// `impactkit ARGS` as a shell command line (bash; long repeats written with printf).
    pub fn shell(&self) -> String {
        let mut s = String::from("impactkit");
        for a in &self.args {
            s.push(' ');
            s += &shell_quote(a.as_bytes());
        }
        if self.close_stdout {
            s += " | head -c 1";
        }
        s
    }

    /// The value of the last `--format` (also `--format=json`).
    fn format(&self) -> Option<String> {
        let mut f = None;
        let mut it = self.args.iter().map(|a| a.to_string_lossy());
        while let Some(a) = it.next() {
            if a == "--format" {
                f = it.next().map(|v| v.into_owned());
            } else if let Some(v) = a.strip_prefix("--format=") {
                f = Some(v.to_owned());
            }
        }
        f
    }

    fn asks_for_help(&self) -> bool {
        self.args.iter().any(|a| {
            let a = a.to_string_lossy();
            a == "-h" || a == "--help" || a == "-V" || a == "--version" || a == "help"
        }) || self.args.is_empty()
    }

    /// The subcommand (and `sequential`'s sub-subcommand), for grouping.
    pub fn command(&self) -> String {
        let a: Vec<String> = self
            .args
            .iter()
            .take(2)
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        match a.first().map(String::as_str) {
            None => "(none)".into(),
            Some("sequential") => match a.get(1).map(String::as_str) {
                Some(w @ ("map" | "check")) => format!("sequential {w}"),
                _ => "sequential".into(),
            },
            Some(
                c @ ("eval" | "corner" | "propagate" | "billiard-break" | "compare-cradle" | "rods"
                | "cradle" | "verify" | "help"),
            ) => c.into(),
            Some(_) => "(other)".into(),
        }
    }

    /// The value of the last `--arith`.
    pub fn arith(&self) -> String {
        let mut f = String::from("-");
        let mut it = self.args.iter().map(|a| a.to_string_lossy());
        while let Some(a) = it.next() {
            if a == "--arith" {
                f = it
                    .next()
                    .map_or("-".into(), |v| v.chars().take(20).collect());
            }
        }
        f
    }
}

/// What happened to one run.
#[derive(Debug)]
pub struct Outcome {
    pub status: Option<ExitStatus>,
    pub timed_out: bool,
    pub spawn_error: Option<String>,
    pub stdout: Vec<u8>,
    /// stdout was longer than the 64 MiB kept (then it is not parsed as JSON).
    pub stdout_truncated: bool,
    pub stderr: Vec<u8>,
    pub elapsed: Duration,
}

/// `PROGRAM ARGS` under the address-space limit and without core files: `/bin/sh`
/// sets the limits with `ulimit` and execs the program in its own process (a failed
/// `ulimit` is exit 125, which the contract reports). Setting them in a `pre_exec` hook
/// instead made std fork the whole test process rather than spawn the child (no vfork),
/// and with the other tests' memory mapped each fork cost page-table copies: about
/// 200 s of system time in one run of the integration tests on two cores.
pub fn limited(program: &str, args: &[OsString]) -> Command {
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c")
        .arg(format!(
            "ulimit -v {} && ulimit -c 0 && exec \"$0\" \"$@\"; exit 125",
            MEMORY_LIMIT / 1024
        ))
        .arg(program)
        .args(args);
    cmd
}

/// Reads a stream to its end on a thread: (the first 64 MiB, whether there was more).
fn reader<R: Read + Send + 'static>(mut r: R) -> std::thread::JoinHandle<(Vec<u8>, bool)> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut more = false;
        let mut buf = [0u8; 65536];
        loop {
            match r.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = KEEP_BYTES.saturating_sub(kept.len());
                    more |= n > room;
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
            }
        }
        (kept, more)
    })
}

fn wait_with_limit(
    child: &mut Child,
    limit: Duration,
    start: Instant,
) -> (Option<ExitStatus>, bool) {
    let mut nap = Duration::from_micros(500);
    loop {
        match child.try_wait() {
            Ok(Some(st)) => return (Some(st), false),
            Ok(None) => {}
            Err(_) => return (None, false),
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            return (child.wait().ok(), true);
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(10));
    }
}

/// Runs one case: `impactkit ARGS`, stdin closed, 4 GB address space, 20 s wall clock.
pub fn execute(case: &Case) -> Outcome {
    let start = Instant::now();
    let mut cmd = limited(env!("CARGO_BIN_EXE_impactkit"), &case.args);
    cmd.env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Outcome {
                status: None,
                timed_out: false,
                spawn_error: Some(e.to_string()),
                stdout: vec![],
                stdout_truncated: false,
                stderr: vec![],
                elapsed: start.elapsed(),
            }
        }
    };
    let err = reader(child.stderr.take().unwrap());
    let mut stdout_pipe = child.stdout.take().unwrap();
    let out = if case.close_stdout {
        // one byte (or end of file), then close the pipe; on a thread, so that the wall
        // clock limit still holds while the child writes nothing
        std::thread::spawn(move || {
            let mut b = [0u8; 1];
            let n = stdout_pipe.read(&mut b).unwrap_or(0);
            drop(stdout_pipe);
            (b[..n].to_vec(), false)
        })
    } else {
        reader(stdout_pipe)
    };
    let limit = case
        .must_succeed_within
        .map_or(WALL_LIMIT, |d| d.max(WALL_LIMIT));
    let (status, timed_out) = wait_with_limit(&mut child, limit, start);
    let elapsed = start.elapsed();
    let (stdout, stdout_truncated) = out.join().unwrap_or_default();
    Outcome {
        status,
        timed_out,
        spawn_error: None,
        stdout,
        stdout_truncated,
        stderr: err.join().unwrap_or_default().0,
        elapsed,
    }
}

fn signal_name(s: i32) -> String {
    let n = match s {
        libc::SIGABRT => "SIGABRT (abort: allocation failure under the 4 GB limit, or abort())",
        libc::SIGSEGV => "SIGSEGV (stack overflow?)",
        libc::SIGBUS => "SIGBUS",
        libc::SIGKILL => "SIGKILL",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        _ => "",
    };
    format!("signal {s} {n}")
}

/// A short, printable excerpt of a stream (first line(s), control characters escaped).
pub fn excerpt(b: &[u8], max: usize) -> String {
    let s = String::from_utf8_lossy(b);
    let mut out = String::new();
    for c in s.chars() {
        if out.chars().count() >= max {
            out += "…";
            break;
        }
        if c == '\n' {
            out += "⏎";
        } else if c.is_control() {
            out += &format!("\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// A non-finite value written as a string: inf, -inf, +inf, infinity, NaN (any case).
pub fn is_non_finite_word(s: &str) -> bool {
    let t = s.trim();
    let t = t.strip_prefix(['-', '+']).unwrap_or(t);
    t.eq_ignore_ascii_case("inf")
        || t.eq_ignore_ascii_case("infinity")
        || t.eq_ignore_ascii_case("nan")
}

fn non_finite_strings(v: &serde_json::Value, path: &str, found: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) if is_non_finite_word(s) => {
            found.push(format!("{path} = {s:?}"));
        }
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                non_finite_strings(x, &format!("{path}[{i}]"), found);
            }
        }
        serde_json::Value::Object(o) => {
            for (k, x) in o {
                non_finite_strings(x, &format!("{path}.{k}"), found);
            }
        }
        _ => {}
    }
}

/// The tokens inf/NaN of a text (words of letters and digits).
fn non_finite_tokens(s: &str) -> Vec<&str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| is_non_finite_word(t))
        .collect()
}

fn check_error_line(stderr: &[u8]) -> Result<(), String> {
    let Ok(s) = std::str::from_utf8(stderr) else {
        return Err(format!("stderr is not UTF-8: {}", excerpt(stderr, 160)));
    };
    let line = s.strip_suffix('\n').unwrap_or(s);
    if line.is_empty() {
        return Err("exit 2 with nothing on stderr".into());
    }
    if line.contains('\n') {
        return Err(format!(
            "{} lines on stderr: {}",
            line.lines().count(),
            excerpt(s.as_bytes(), 200)
        ));
    }
    for bad in ["panicked", "RUST_BACKTRACE", "internal error"] {
        if line.contains(bad) {
            return Err(format!(
                "error line contains {bad:?}: {}",
                excerpt(stderr, 200)
            ));
        }
    }
    if !line.starts_with("error: ") {
        return Err(format!(
            "error line does not start with `error: `: {}",
            excerpt(stderr, 200)
        ));
    }
    if let Some(c) = line.chars().find(|c| c.is_control()) {
        return Err(format!(
            "control character U+{:04X} in the error line: {}",
            c as u32,
            excerpt(stderr, 200)
        ));
    }
    let n = line.chars().count();
    if n > MAX_ERROR_CHARS {
        return Err(format!(
            "error line of {n} characters: {}",
            excerpt(stderr, 160)
        ));
    }
    Ok(())
}

fn check_success(case: &Case, o: &Outcome) -> Result<(), String> {
    if case.close_stdout {
        if !o.stderr.is_empty() {
            return Err(format!(
                "closed pipe: exit 0 but stderr says: {}",
                excerpt(&o.stderr, 200)
            ));
        }
        return Ok(());
    }
    if String::from_utf8_lossy(&o.stderr).contains("panicked") {
        return Err(format!("exit 0 after a panic: {}", excerpt(&o.stderr, 200)));
    }
    let help = case.asks_for_help();
    if case.format().as_deref() == Some("json") && !help && !o.stdout_truncated {
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).map_err(|e| {
            format!(
                "--format json: stdout is not one JSON document ({e}): {}",
                excerpt(&o.stdout, 120)
            )
        })?;
        let mut found = Vec::new();
        non_finite_strings(&v, "$", &mut found);
        if !found.is_empty() && v.get("non_finite") != Some(&serde_json::Value::Bool(true)) {
            return Err(format!(
                "non-finite value without \"non_finite\": true: {}",
                found[..found.len().min(3)].join(", ")
            ));
        }
        return Ok(());
    }
    let mut text = String::from_utf8_lossy(&o.stdout).into_owned();
    if case.command() == "verify" {
        // a claim's unbounded range as its file states it, "k ∈ [1, inf)", is no value
        text = text.replace(", inf)", ")").replace("(-inf, ", "(");
    }
    let tokens = non_finite_tokens(&text);
    if !tokens.is_empty() && !text.contains("non-finite") {
        // a symbolic run may name its variables inf or nan
        let own = case.arith() == "symbolic"
            && case.args.iter().any(|a| {
                non_finite_tokens(&a.to_string_lossy())
                    .iter()
                    .any(|t| tokens.contains(t))
            });
        if !own {
            return Err(format!(
                "text shows {:?} without saying non-finite: {}",
                tokens[0],
                excerpt(&o.stdout, 160)
            ));
        }
    }
    Ok(())
}

/// Checks the contract; `Err` describes the violation.
pub fn check(case: &Case, o: &Outcome) -> Result<(), String> {
    if let Some(e) = &o.spawn_error {
        return Err(format!("could not start: {e}"));
    }
    if o.timed_out {
        return Err(format!(
            "hang: killed after {:.1} s; stderr so far: {}",
            o.elapsed.as_secs_f64(),
            excerpt(&o.stderr, 120)
        ));
    }
    let Some(st) = o.status else {
        return Err("no exit status".into());
    };
    if let Some(want) = case.must_succeed_within {
        if st.code() != Some(0) {
            return Err(format!(
                "must exit 0, got {st}: {}",
                excerpt(&o.stderr, 200)
            ));
        }
        if o.elapsed > want {
            return Err(format!(
                "took {:.1} s, more than {:.1} s",
                o.elapsed.as_secs_f64(),
                want.as_secs_f64()
            ));
        }
    }
    match st.code() {
        None => Err(format!(
            "killed by {}: {}",
            signal_name(st.signal().unwrap_or(0)),
            excerpt(&o.stderr, 160)
        )),
        Some(0) => check_success(case, o),
        // `regress`: records that cannot be checked are reported in place, with the
        // report on stdout and exit 2 (README); the report must be valid
        Some(2)
            if case.args.first().is_some_and(|a| a == "regress")
                && o.stderr.is_empty()
                && !o.stdout.is_empty() =>
        {
            check_success(case, o)
        }
        Some(2) => check_error_line(&o.stderr),
        Some(101) => Err(format!("exit 101 (panic): {}", excerpt(&o.stderr, 200))),
        Some(1) => Err(format!(
            "exit 1 (internal error): {}",
            excerpt(&o.stderr, 200)
        )),
        Some(c) => Err(format!("exit {c}: {}", excerpt(&o.stderr, 200))),
    }
}

/// The kind of a violation, for grouping: the start of its description with numbers and
/// quoted parts blanked.
pub fn violation_kind(what: &str) -> String {
    let head: String = what.chars().take(60).collect();
    let mut out = String::new();
    let mut last_digit = false;
    for c in head.chars() {
        if c.is_ascii_digit() {
            if !last_digit {
                out.push('#');
            }
            last_digit = true;
        } else {
            last_digit = false;
            out.push(c);
        }
    }
    out
}

/// One line of the report.
pub struct Violation {
    pub index: usize,
    pub case: Case,
    pub what: String,
    pub elapsed: Duration,
}

/// The result of a batch.
pub struct Batch {
    pub violations: Vec<Violation>,
    /// (time, index) of every case.
    pub times: Vec<(Duration, usize)>,
    pub wall: Duration,
}

/// Runs the cases on `workers` threads; prints each violation as it is found.
pub fn run_batch(label: &str, cases: &[Case], workers: usize, verbose: bool) -> Batch {
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let violations = Mutex::new(Vec::new());
    let times = Mutex::new(Vec::with_capacity(cases.len()));
    std::thread::scope(|s| {
        for _ in 0..workers.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= cases.len() {
                    break;
                }
                let case = &cases[i];
                let o = execute(case);
                if verbose {
                    eprintln!(
                        "{label} #{i}: {:.3} s, {}: {}",
                        o.elapsed.as_secs_f64(),
                        o.status.map_or("-".into(), |s| s.to_string()),
                        clip(&case.shell(), 300)
                    );
                }
                if let Err(what) = check(case, &o) {
                    eprintln!(
                        "VIOLATION {label} #{i} ({:.2} s): {}\n    {what}",
                        o.elapsed.as_secs_f64(),
                        clip(&case.shell(), 2000)
                    );
                    violations.lock().unwrap().push(Violation {
                        index: i,
                        case: case.clone(),
                        what,
                        elapsed: o.elapsed,
                    });
                }
                times.lock().unwrap().push((o.elapsed, i));
                let d = done.fetch_add(1, Ordering::SeqCst) + 1;
                if d.is_multiple_of(1000) {
                    eprintln!(
                        "{label}: {d}/{} cases, {:.0} s",
                        cases.len(),
                        start.elapsed().as_secs_f64()
                    );
                }
            });
        }
    });
    let mut violations = violations.into_inner().unwrap();
    violations.sort_by_key(|v| v.index);
    Batch {
        violations,
        times: times.into_inner().unwrap(),
        wall: start.elapsed(),
    }
}

/// `s` cut to `max` characters.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_owned()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t += &format!("…[{} chars]", s.chars().count());
        t
    }
}

/// Prints the wall time, the slowest cases, and the violations grouped by kind (count,
/// shortest reproducer).
pub fn summary(label: &str, cases: &[Case], b: &Batch) {
    eprintln!(
        "{label}: {} cases in {:.1} s wall, {} violations",
        cases.len(),
        b.wall.as_secs_f64(),
        b.violations.len()
    );
    let mut t = b.times.clone();
    t.sort_by_key(|x| std::cmp::Reverse(x.0));
    let total: f64 = t.iter().map(|x| x.0.as_secs_f64()).sum();
    let over = |s: f64| t.iter().filter(|x| x.0.as_secs_f64() > s).count();
    let hung: f64 = t
        .iter()
        .filter(|x| x.0 >= WALL_LIMIT)
        .map(|x| x.0.as_secs_f64())
        .sum();
    eprintln!(
        "{label}: run times: sum {total:.1} s (of which {hung:.1} s in {} runs killed at the \
         wall-clock limit); median {:.3} s; over 0.1 s: {}, over 1 s: {}, over 5 s: {}",
        over(WALL_LIMIT.as_secs_f64() - 0.001),
        t.get(t.len() / 2).map_or(0.0, |x| x.0.as_secs_f64()),
        over(0.1),
        over(1.0),
        over(5.0)
    );
    eprintln!("{label}: the 10 slowest:");
    for (d, i) in t.iter().take(10) {
        eprintln!(
            "  {:7.3} s  #{i}  {}",
            d.as_secs_f64(),
            clip(&cases[*i].shell(), 240)
        );
    }
    if b.violations.is_empty() {
        return;
    }
    // group: command, backend, kind
    let mut groups: std::collections::BTreeMap<(String, String), Vec<&Violation>> =
        Default::default();
    for v in &b.violations {
        groups
            .entry((violation_kind(&v.what), v.case.command()))
            .or_default()
            .push(v);
    }
    eprintln!("{label}: violations by kind and command (count, shortest reproducer):");
    for ((kind, cmd), vs) in &groups {
        let shortest = vs.iter().min_by_key(|v| v.case.shell().len()).unwrap();
        eprintln!(
            "  {:4} × [{cmd}] {kind}\n         {}\n         {}",
            vs.len(),
            clip(&shortest.case.shell(), 400),
            clip(&shortest.what, 300)
        );
    }
}

/// A message listing the first 50 violations, for the test's panic.
pub fn failure_message(all: &[&Violation]) -> String {
    let mut m = format!("{} contract violations:\n", all.len());
    for v in all.iter().take(50) {
        m += &format!(
            "  {}\n      {}\n",
            clip(&v.case.shell(), 600),
            clip(&v.what, 300)
        );
    }
    if all.len() > 50 {
        m += &format!("  … and {} more\n", all.len() - 50);
    }
    m
}

/// One argument quoted for bash: bare if safe, '…' if printable, $'…' otherwise; a long
/// repeat (e.g. a sum of 10,000 terms) is written `A"$(printf -- 'U%.0s' {1..N})"B`.
pub fn shell_quote(a: &[u8]) -> String {
    if a.is_empty() {
        return "''".into();
    }
    if a.len() > 200 {
        if let Some((pre, unit, n, post)) = longest_repeat(a) {
            // the parts quoted apart and concatenated: A"$(printf -- 'U%.0s' {1..N})"B
            return format!(
                "{}\"$(printf -- '{}%.0s' {{1..{n}}})\"{}",
                quote_part(pre),
                unit_printf(unit),
                quote_part(post)
            );
        }
    }
    quote_part(a)
}

fn quote_part(a: &[u8]) -> String {
    if a.is_empty() {
        return String::new();
    }
    let safe = |c: u8| c.is_ascii_alphanumeric() || b"_./:,=+-^@%".contains(&c);
    if a.iter().all(|&c| safe(c)) {
        return String::from_utf8_lossy(a).into_owned();
    }
    if let Ok(s) = std::str::from_utf8(a) {
        if !s.chars().any(char::is_control) {
            return format!("'{}'", s.replace('\'', r"'\''"));
        }
    }
    let mut q = String::from("$'");
    for &c in a {
        match c {
            b'\'' => q += r"\'",
            b'\\' => q += r"\\",
            b'\n' => q += r"\n",
            b'\t' => q += r"\t",
            0x20..=0x7e => q.push(c as char),
            _ => q += &format!("\\x{c:02x}"),
        }
    }
    q.push('\'');
    q
}

fn unit_printf(u: &[u8]) -> String {
    let mut q = String::new();
    for &c in u {
        match c {
            b'%' => q += "%%",
            b'\'' => q += r"'\''",
            b'\\' => q += r"\\",
            0x20..=0x7e => q.push(c as char),
            _ => q += &format!("\\{c:03o}"),
        }
    }
    q
}

/// A byte string cut around a repeated unit: (before, unit, count, after).
type Repeat<'a> = (&'a [u8], &'a [u8], usize, &'a [u8]);

/// The longest run of a repeated unit (1..=8 bytes, at least 20 times).
fn longest_repeat(a: &[u8]) -> Option<Repeat<'_>> {
    let mut best: Option<(usize, usize, usize)> = None; // start, unit len, count
    for u in 1..=8usize.min(a.len() / 2) {
        let mut i = 0;
        while i + u <= a.len() {
            let mut n = 1;
            while i + (n + 1) * u <= a.len() && a[i + n * u..i + (n + 1) * u] == a[i..i + u] {
                n += 1;
            }
            if n >= 20 && best.is_none_or(|(_, bu, bn)| n * u > bu * bn) {
                best = Some((i, u, n));
            }
            i += if n > 1 { (n - 1) * u + 1 } else { 1 };
        }
    }
    best.map(|(i, u, n)| (&a[..i], &a[i..i + u], n, &a[i + n * u..]))
}

/// A whole number from the environment variable `name` (the fuzz suites' knobs); a value
/// that is not one is a mistake of whoever set it, named in the panic.
pub fn env_num(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|s| {
        s.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={s}: not a whole number"))
    })
}

/// A small deterministic generator (xorshift64*): the files do not depend on proptest's
/// version.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() % 1_000_000) as f64 / 1e6 < p
    }
}
