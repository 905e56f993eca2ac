//! `impactkit._core`: the library called from Python directly (no subprocess, no JSON
//! text): each function builds the same report as the command of the same name and hands
//! it to Python as dicts, lists and strings (`pythonize`), numbers in the documented
//! shapes (`{"exact": …}`, `{"approx": …}`, `{"lo": …, "hi": …}`, docs/conventions.md),
//! which `impactkit/__init__.py` turns into `Fraction`, `float`, `Exact` and `Interval`.
//! Bad input raises `ValueError` with the command line's one-line message; the GIL is
//! released while a law computes.

use impactkit::arith::backend::Backend;
use impactkit::certify::{Arith, DEFAULT_MAX_BITS};
use impactkit::commands::laws::LawsSpec;
use impactkit::input::caps::{DEFAULT_DIGITS, DEFAULT_LAWS_REFLECTIONS};
use impactkit::system::file::{Number, SystemFile};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Bad input: the command line's message, on one line of at most 200 characters (a huge
/// or multi-line value is elided and escaped, as the command line prints it).
fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(impactkit::input::one_line(&e.to_string()))
}

/// A whole-number argument as Python gives it, any `int` (issue 63, D10): a negative or
/// too large one becomes the command line's `ValueError` naming the option, where pyo3's
/// own conversion to an unsigned integer raises an `OverflowError` naming nothing. A
/// `bool` or a non-integer is a `TypeError` naming the argument.
#[derive(Clone, Copy, Debug)]
enum Whole {
    Fits(u64),
    Negative,
    Huge,
}

impl<'py> FromPyObject<'py> for Whole {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        use pyo3::types::{PyBool, PyInt};
        if ob.is_instance_of::<PyBool>() || !ob.is_instance_of::<PyInt>() {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "expected an int, not {}",
                ob.get_type().name()?
            )));
        }
        if let Ok(n) = ob.extract::<u64>() {
            return Ok(Whole::Fits(n));
        }
        Ok(if ob.lt(0)? {
            Whole::Negative
        } else {
            Whole::Huge
        })
    }
}

impl Whole {
    /// The value of `option`, for an option whose range the library checks next.
    fn of(self, option: &str) -> PyResult<u64> {
        match self {
            Whole::Fits(n) => Ok(n),
            Whole::Negative => Err(value_error(format!(
                "{option}: must not be negative (a whole number)"
            ))),
            Whole::Huge => Err(value_error(format!(
                "{option}: expected a whole number below 2^64"
            ))),
        }
    }

    /// As [`Whole::of`], for a `usize` option.
    fn size(self, option: &str) -> PyResult<usize> {
        usize::try_from(self.of(option)?)
            .map_err(|_| value_error(format!("{option}: expected a smaller whole number")))
    }

    /// `--max-bits`, whose range `Arith::parse` checks.
    fn bits(self) -> PyResult<u32> {
        u32::try_from(self.of("--max-bits")?).or(Ok(u32::MAX))
    }
}

/// A count within its cap (the command line's range), or the command line's message.
fn capped(cap: impactkit::input::caps::Cap, n: Whole) -> PyResult<u64> {
    let text = match n {
        Whole::Fits(n) => n.to_string(),
        Whole::Negative => "-1".to_string(),
        Whole::Huge => u128::MAX.to_string(),
    };
    cap.parse(&text)
        .map_err(|e| value_error(format!("{}: {e}", cap.option)))
}

/// One of `names`, or the command line's message for `option`.
fn choice<T: Copy>(option: &str, given: &str, names: &[(&str, T)]) -> PyResult<T> {
    names
        .iter()
        .find(|(n, _)| *n == given)
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            let all: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
            value_error(format!(
                "{option}: invalid value {given:?} (one of {})",
                all.join(", ")
            ))
        })
}

fn backend(arith: &str) -> PyResult<Backend> {
    arith
        .parse()
        .map_err(|e| value_error(format!("--arith: {e}")))
}

/// A law's run failing as the command line reports it: bad input, or a sign no
/// arithmetic decided (`ValueError` naming the quantity and its enclosure).
fn spec_error(e: impactkit::system::SpecError) -> PyErr {
    use impactkit::arith::ArithError;
    use impactkit::law::LawError;
    use impactkit::system::SpecError;
    match e {
        SpecError::Law(LawError::Arith(e @ ArithError::Unbounded { .. })) => value_error(format!(
            "--arith: the computation overflowed ({e}); exact, quadratic or mpfr:BITS arithmetic has the range"
        )),
        SpecError::Law(LawError::Arith(e)) => value_error(format!("--arith: {e}")),
        other => value_error(other),
    }
}

/// Runs `f` on its own thread with the GIL released, checking for Ctrl-C (and other
/// signals) every 50 ms; on `KeyboardInterrupt` the computation is asked to stop
/// ([`impactkit::budget::cancel`]), waited for, and the interrupt raised.
fn interruptible<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    impactkit::budget::clear_cancel();
    let out = py.allow_threads(|| {
        std::thread::scope(|scope| {
            let worker = std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn_scoped(scope, f)
                .map_err(|e| value_error(format!("cannot start a thread: {e}")))?;
            loop {
                if worker.is_finished() {
                    return Ok(worker.join());
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
                if let Err(e) = Python::with_gil(|py| py.check_signals()) {
                    impactkit::budget::cancel();
                    let _ = worker.join();
                    impactkit::budget::clear_cancel();
                    return Err(e);
                }
            }
        })
    })?;
    out.map_err(|panic| unwound(&*panic))
}

/// The exception of a computation that unwound: values in two number fields the
/// algebraic backend cannot join are bad input (`ValueError`, the command line's line);
/// any other panic is a bug of impactkit (`RuntimeError`), never a `PanicException`.
fn unwound(panic: &(dyn std::any::Any + Send)) -> PyErr {
    if let Some(m) = panic.downcast_ref::<impactkit::arith::FieldMismatch>() {
        return value_error(m.line());
    }
    let msg = panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    pyo3::exceptions::PyRuntimeError::new_err(format!("impactkit bug: {msg}"))
}

/// Runs `f` with the GIL released; a panic is turned into an exception by [`unwound`].
fn computing<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    py.allow_threads(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)))
        .map_err(|panic| unwound(&*panic))
}

fn to_py<'py, T: serde::Serialize>(py: Python<'py>, x: &T) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, x).map_err(|e| value_error(format!("impactkit bug: {e}")))
}

/// The value of an expression of the input language on one backend, or `certified`
/// (`impactkit eval`).
#[pyfunction]
#[pyo3(signature = (expr, arith = "exact"))]
fn eval<'py>(py: Python<'py>, expr: &str, arith: &str) -> PyResult<Bound<'py, PyAny>> {
    let arith = Arith::parse(arith, DEFAULT_MAX_BITS).map_err(value_error)?;
    let expr = expr.to_string();
    let report = computing(py, || impactkit::report::eval::eval_arith(&expr, arith))?
        .map_err(|e| value_error(format!("EXPR: {e}")))?;
    to_py(py, &report.value)
}

/// Every law on a system file's text (`impactkit laws FILE --format json`), with the
/// pre-impact velocity replaced by `velocity` (expressions of the input language) when
/// given.
#[pyfunction]
#[pyo3(signature = (toml, source = "<string>", arith = "certified", velocity = None, max_steps = Whole::Fits(1000), max_digits = Whole::Fits(DEFAULT_DIGITS), max_reflections = Whole::Fits(DEFAULT_LAWS_REFLECTIONS), max_bits = Whole::Fits(DEFAULT_MAX_BITS as u64)))]
#[allow(clippy::too_many_arguments)]
fn laws<'py>(
    py: Python<'py>,
    toml: &str,
    source: &str,
    arith: &str,
    velocity: Option<Vec<String>>,
    max_steps: Whole,
    max_digits: Whole,
    max_reflections: Whole,
    max_bits: Whole,
) -> PyResult<Bound<'py, PyAny>> {
    let mut file = SystemFile::from_toml(toml, source).map_err(value_error)?;
    replace_velocity(&mut file, velocity, "velocity")?;
    let arith = Arith::parse(arith, max_bits.bits()?).map_err(value_error)?;
    let spec = LawsSpec {
        file,
        source: source.to_string(),
        max_iter: max_steps.size("--max-steps")?,
        max_digits: max_digits.of("--max-digits")?,
        max_reflections: capped(impactkit::input::caps::LAWS_REFLECTIONS, max_reflections)?,
    };
    let report = computing(py, || spec.report(arith))?.map_err(value_error)?;
    to_py(py, &report)
}

/// The system file of an n-ball Newton's cradle (`impactkit system cradle`): masses,
/// pre-impact velocities and one coefficient of restitution, as expressions.
#[pyfunction]
fn cradle_toml(masses: Vec<String>, velocity: Vec<String>, restitution: &str) -> String {
    SystemFile::cradle(&masses, &velocity, restitution).to_toml()
}

/// One engine observation checked against one law, exactly (`impactkit::regress::check`,
/// the `regress` of one record): the whole record report — every law's distance, the
/// nearest laws, the energy change, and `expect.pass`. `velocity` replaces the file's
/// pre-impact velocity.
#[pyfunction]
#[pyo3(signature = (toml, observed, law, tolerance, source = "<string>", velocity = None))]
fn check<'py>(
    py: Python<'py>,
    toml: &str,
    observed: Vec<f64>,
    law: &str,
    tolerance: f64,
    source: &str,
    velocity: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut file = SystemFile::from_toml(toml, source).map_err(value_error)?;
    replace_velocity(&mut file, velocity, "pre")?;
    let law = impactkit::system::laws::Law::parse(law)
        .ok_or_else(|| value_error(format!("law: unknown law {law:?}")))?;
    if !(tolerance >= 0.0 && tolerance.is_finite()) {
        return Err(value_error("tolerance: must be a finite number >= 0"));
    }
    let report = computing(py, || {
        impactkit::regress::check_report(&file, &observed, law, tolerance)
    })?
    .map_err(value_error)?;
    to_py(py, &report)
}

/// The file's pre-impact velocity replaced by `velocity` (the Python argument `name`),
/// which must have one component per coordinate: a wrong length names the argument, not
/// the file's masses (issue 63).
fn replace_velocity(
    file: &mut SystemFile,
    velocity: Option<Vec<String>>,
    name: &str,
) -> PyResult<()> {
    let Some(v) = velocity else {
        return Ok(());
    };
    let n = match file.velocity.is_empty() {
        false => file.velocity.len(),
        true => file.p.as_ref().map_or(0, Vec::len),
    };
    if n > 0 && v.len() != n {
        return Err(value_error(format!(
            "{name}: {} components, the system has {n} coordinates",
            v.len()
        )));
    }
    file.velocity = v.into_iter().map(Number::Text).collect();
    Ok(())
}

/// Checks the number of balls of `System.cradle` before any list is built (issue 63, D8):
/// a system file holds at most `MAX_CONTACTS` contacts, so at most one more ball, the
/// limit of `impactkit system cradle`.
#[pyfunction]
fn check_cradle_balls(n: Whole) -> PyResult<()> {
    let most = impactkit::system::file::MAX_CONTACTS as u64 + 1;
    match n.of("--balls")? {
        n if (2..=most).contains(&n) => Ok(()),
        n => Err(value_error(format!(
            "--balls: {n} balls; a system file holds 2..={most} balls (at most {} contacts)",
            impactkit::system::file::MAX_CONTACTS
        ))),
    }
}

/// The text of the system (or step system) file at `path`, read as the command line reads
/// it (issue 63, D9): a regular file only (a FIFO, a device or a directory is refused
/// before anything is read, never waited on), at most 1 MiB, UTF-8; else `ValueError`
/// with the command line's message.
#[pyfunction]
fn read_system_file(path: std::path::PathBuf) -> PyResult<String> {
    impactkit::input::files::read_text(&path, impactkit::input::files::SYSTEM).map_err(value_error)
}

/// One message of a streamed `regress` run: a record's report as JSON, in file order,
/// then the end (the summary as JSON, or the run's error).
enum Streamed {
    Record(String),
    End(Result<String, String>),
}

/// `impactkit regress RECORDS` as an iterator (issue 63, D9): the run goes on a worker
/// thread, at most 64 reports ahead of the reader (a bounded channel), so a file of any
/// size is checked in the command line's memory; each `next` is one record's report, in
/// file order, and the summary (`engines`, `failed`, `errors`, `non_finite`, `records`)
/// is `summary` once the iterator is exhausted. Dropping the iterator stops the run.
#[pyclass]
struct RecordStream {
    rx: std::sync::Mutex<std::sync::mpsc::Receiver<Streamed>>,
    summary: std::sync::Mutex<Option<String>>,
}

#[pymethods]
impl RecordStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        use std::sync::mpsc::RecvTimeoutError;
        let loads = |text: &str| -> PyResult<Bound<'py, PyAny>> {
            py.import("json")?.call_method1("loads", (text,))
        };
        loop {
            let got = py.allow_threads(|| {
                self.rx
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .recv_timeout(std::time::Duration::from_millis(50))
            });
            match got {
                Ok(Streamed::Record(text)) => return loads(&text).map(Some),
                Ok(Streamed::End(Ok(summary))) => {
                    *self.summary.lock().unwrap_or_else(|e| e.into_inner()) = Some(summary);
                    return Ok(None);
                }
                Ok(Streamed::End(Err(e))) => return Err(value_error(e)),
                Err(RecvTimeoutError::Timeout) => py.check_signals()?,
                // the worker is gone: it ended (and its end was read) or it failed
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
            }
        }
    }

    /// The run's summary once every record was read; `None` before.
    #[getter]
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let s = self
            .summary
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        s.map(|t| py.import("json")?.call_method1("loads", (t,)))
            .transpose()
    }
}

/// Starts a streamed `regress` run of the records file `path` on `jobs` threads.
#[pyfunction]
#[pyo3(signature = (path, jobs = Whole::Fits(1)))]
fn regress_stream(path: std::path::PathBuf, jobs: Whole) -> PyResult<RecordStream> {
    use impactkit::regress::stream::{open_records, run, Render};
    let (file, format, dir) = open_records(&path).map_err(value_error)?;
    let jobs = capped(impactkit::input::caps::JOBS, jobs)? as usize;
    let (tx, rx) = std::sync::mpsc::sync_channel::<Streamed>(64);
    std::thread::Builder::new()
        .name("regress".into())
        .spawn(move || {
            let render = |r: &impactkit::report::regress::RecordReport| {
                serde_json::to_string(r).unwrap_or_default()
            };
            let render = Render {
                full: true,
                render: &render,
            };
            let sent = tx.clone();
            let mut sink = move |text: &str| {
                sent.send(Streamed::Record(text.to_string()))
                    .map_err(|_| std::io::Error::from(std::io::ErrorKind::BrokenPipe))
            };
            let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run(
                    std::io::BufReader::new(file),
                    format,
                    &dir,
                    jobs,
                    &render,
                    &mut sink,
                )
            }));
            let end = match ran {
                Ok(Ok(s)) => Ok(serde_json::json!({
                    "engines": s.engines,
                    "records": s.records,
                    "failed": s.failed,
                    "errors": s.errors,
                    "non_finite": s.non_finite,
                })
                .to_string()),
                Ok(Err(e)) => Err(e.to_string()),
                Err(_) => Err("impactkit bug: the regress worker panicked".to_string()),
            };
            let _ = tx.send(Streamed::End(end));
        })
        .map_err(|e| value_error(format!("--jobs: cannot start the worker thread: {e}")))?;
    Ok(RecordStream {
        rx: std::sync::Mutex::new(rx),
        summary: std::sync::Mutex::new(None),
    })
}

/// Reads a system file's text; `ValueError` with the command line's message if it is not
/// one.
#[pyfunction]
#[pyo3(signature = (toml, source = "<string>"))]
fn check_system(toml: &str, source: &str) -> PyResult<()> {
    SystemFile::from_toml(toml, source).map_err(value_error)?;
    Ok(())
}

/// The system file of the disk in a corner (`impactkit system corner`; Fassino–Pasquero
/// 2020, Sect. 2): half-angle `alpha`, velocity, the walls' two coefficients, the mass.
#[pyfunction]
fn corner_toml(alpha: &str, velocity: Vec<String>, eps1: &str, eps2: &str, mass: &str) -> String {
    SystemFile::corner(alpha, &velocity, [eps1, eps2], mass).to_toml()
}

/// The names of the laws `laws` computes, in its order (the compliant `lzb` and
/// `lzb-limit` last, where the system file has an `[lzb]` table).
#[pyfunction]
fn law_names() -> Vec<&'static str> {
    use impactkit::system::laws::Law;
    Law::every().map(Law::name).collect()
}

/// A run's report, or — when its result hangs on a sign no arithmetic of the run
/// decided — `{"complete": False, "undecided": {"quantity", "lo", "hi"}}` (what the
/// command prints then); other failures raise `ValueError`.
fn run_report<'py, R: serde::Serialize>(
    py: Python<'py>,
    r: Result<R, impactkit::system::SpecError>,
) -> PyResult<Bound<'py, PyAny>> {
    use impactkit::law::LawError;
    use impactkit::system::SpecError;
    match r {
        Ok(report) => to_py(py, &report),
        Err(SpecError::Law(LawError::Undecided { quantity, lo, hi })) => {
            let out = pyo3::types::PyDict::new(py);
            let sign = pyo3::types::PyDict::new(py);
            sign.set_item("quantity", quantity)?;
            sign.set_item("lo", lo)?;
            sign.set_item("hi", hi)?;
            out.set_item("complete", false)?;
            out.set_item("undecided", sign)?;
            Ok(out.into_any())
        }
        Err(e) => Err(spec_error(e)),
    }
}

fn algorithm(given: &str) -> PyResult<impactkit::system::corner_spec::Algorithm> {
    use impactkit::system::corner_spec::Algorithm;
    choice(
        "--algorithm",
        given,
        &[("ta", Algorithm::Ta), ("sa", Algorithm::Sa)],
    )
}

fn form(given: &str) -> PyResult<impactkit::system::corner::Form> {
    use impactkit::system::corner::Form;
    choice(
        "--form",
        given,
        &[("xy", Form::Xy), ("phi", Form::Phi), ("xieta", Form::XiEta)],
    )
}

/// `impactkit corner`: the disk in a corner (Fassino–Pasquero 2020): the run from `v0`
/// (two expressions) under algorithm TA or SA, one COR `eps` or two (`eps1`, `eps2`,
/// Pasquero's rule (10)).
#[pyfunction]
#[pyo3(signature = (alpha, v0, eps = None, eps1 = None, eps2 = None, algorithm = "ta", threshold = None, rest_threshold = None, max_steps = Whole::Fits(10_000), max_digits = Whole::Fits(DEFAULT_DIGITS), form = "xy", arith = "certified", max_bits = Whole::Fits(DEFAULT_MAX_BITS as u64), trace = false))]
#[allow(clippy::too_many_arguments)]
fn corner<'py>(
    py: Python<'py>,
    alpha: String,
    v0: Vec<String>,
    eps: Option<String>,
    eps1: Option<String>,
    eps2: Option<String>,
    algorithm: &str,
    threshold: Option<String>,
    rest_threshold: Option<String>,
    max_steps: Whole,
    max_digits: Whole,
    form: &str,
    arith: &str,
    max_bits: Whole,
    trace: bool,
) -> PyResult<Bound<'py, PyAny>> {
    use impactkit::input::caps::{DIGITS, STEPS};
    use impactkit::system::corner_spec::{CornerSpec, RestitutionSpec};
    let restitution = match (eps, eps1, eps2) {
        (Some(e), None, None) => RestitutionSpec::Symmetric(e),
        (None, Some(a), Some(b)) => RestitutionSpec::Asymmetric(a, b),
        _ => return Err(value_error("--eps: give eps, or both eps1 and eps2")),
    };
    if v0.len() != 2 {
        return Err(value_error(format!(
            "--v0: two components (x, y), got {}",
            v0.len()
        )));
    }
    let spec = CornerSpec {
        alpha,
        v0: v0.join(","),
        restitution,
        algorithm: self::algorithm(algorithm)?,
        threshold,
        rest_threshold,
        max_steps: capped(STEPS, max_steps)? as usize,
        form: self::form(form)?,
        record_velocities: trace,
        max_digits: Some(capped(DIGITS, max_digits)?),
    };
    let arith = Arith::parse(arith, max_bits.bits()?).map_err(value_error)?;
    let r = computing(py, || spec.report_arith(arith))?;
    run_report(py, r)
}

/// `impactkit cradle`: Newton's cradle through Pasquero's procedure (Sect. 3.5):
/// `balls` balls, one COR `eps` or one per contact (a list), masses and velocities as
/// expressions.
#[pyfunction]
#[pyo3(signature = (balls, eps, masses = None, v0 = None, sigma = None, max_steps = Whole::Fits(10_000), max_digits = Whole::Fits(DEFAULT_DIGITS), trace = false, arith = "certified", max_bits = Whole::Fits(DEFAULT_MAX_BITS as u64)))]
#[allow(clippy::too_many_arguments)]
fn cradle<'py>(
    py: Python<'py>,
    balls: Whole,
    eps: Vec<String>,
    masses: Option<Vec<String>>,
    v0: Option<Vec<String>>,
    sigma: Option<String>,
    max_steps: Whole,
    max_digits: Whole,
    trace: bool,
    arith: &str,
    max_bits: Whole,
) -> PyResult<Bound<'py, PyAny>> {
    use impactkit::input::caps::{BALLS, DIGITS, STEPS};
    use impactkit::system::cradle::CradleSpec;
    let spec = CradleSpec {
        balls: capped(BALLS, balls)? as usize,
        eps: eps.join(","),
        masses: masses.map(|m| m.join(",")),
        v0: v0.map_or_else(|| "1".to_string(), |v| v.join(",")),
        sigma,
        max_iter: capped(STEPS, max_steps)? as usize,
        record_velocities: trace,
        max_digits: Some(capped(DIGITS, max_digits)?),
    };
    let arith = Arith::parse(arith, max_bits.bits()?).map_err(value_error)?;
    let r = computing(py, || spec.report_arith(arith))?;
    run_report(py, r)
}

/// `impactkit propagate`: the propagative model of Seghete–Murphey (Definition 1): every
/// outcome of the minimal sequences of reset maps from the momentum `momentum`, masses
/// (a diagonal mass matrix) and contact normals (one row per contact).
#[pyfunction]
#[pyo3(signature = (masses, normals, momentum, eps = None, max_steps = Whole::Fits(12), arith = "certified"))]
fn propagate<'py>(
    py: Python<'py>,
    masses: Vec<String>,
    normals: Vec<Vec<String>>,
    momentum: Vec<String>,
    eps: Option<String>,
    max_steps: Whole,
    arith: &str,
) -> PyResult<Bound<'py, PyAny>> {
    use impactkit::system::propagate::PropagateSpec;
    let spec = PropagateSpec {
        masses: masses.join(","),
        normals: normals
            .iter()
            .map(|r| r.join(","))
            .collect::<Vec<_>>()
            .join(";"),
        momentum: momentum.join(","),
        restitution: eps,
        max_depth: capped(impactkit::input::caps::DEPTH, max_steps)? as usize,
    };
    let arith = Arith::parse(arith, DEFAULT_MAX_BITS).map_err(value_error)?;
    let r = computing(py, || {
        impactkit::commands::on_arith(arith, |b| spec.report(b), |_| false)
    })?;
    run_report(py, r)
}

/// `impactkit penny run`: the rolling penny on a table bounded by an ellipse or a circle
/// (Clark–Bloch, Sect. VI), `impacts` impacts under the elastic map (15) or the plastic
/// one (18). Omitted parameters take Table I's values and Sect. VI-A's initial data.
#[pyfunction]
#[pyo3(signature = (law, table = "ellipse", impacts = Whole::Fits(20), a = None, b = None, mass = None, radius = None, inertia = None, spin_inertia = None, x0 = None, y0 = None, theta0 = None, phi0 = None, rates = None, arith = "mpi:128"))]
#[allow(clippy::too_many_arguments)]
fn penny_run<'py>(
    py: Python<'py>,
    law: &str,
    table: &str,
    impacts: Whole,
    a: Option<String>,
    b: Option<String>,
    mass: Option<String>,
    radius: Option<String>,
    inertia: Option<String>,
    spin_inertia: Option<String>,
    x0: Option<String>,
    y0: Option<String>,
    theta0: Option<String>,
    phi0: Option<String>,
    rates: Option<Vec<String>>,
    arith: &str,
) -> PyResult<Bound<'py, PyAny>> {
    use impactkit::commands::penny::{RunSpec, TableKind};
    use impactkit::system::penny_run::RunLaw;
    let spec = RunSpec {
        table: choice(
            "--table",
            table,
            &[
                ("ellipse", TableKind::Ellipse),
                ("circle", TableKind::Circle),
            ],
        )?,
        a,
        b,
        params: [mass, radius, inertia, spin_inertia],
        law: choice(
            "--law",
            law,
            &[("elastic", RunLaw::Elastic), ("plastic", RunLaw::Plastic)],
        )?,
        impacts: impacts.size("--impacts")?,
        initial: [x0, y0, theta0, phi0],
        rates: rates.map(|r| r.join(",")),
    };
    let b = backend(arith)?;
    let r = computing(py, || spec.report(b, false).map(|(report, _)| report))?;
    run_report(py, r)
}

/// `impactkit step`: the Seghete–Murphey time stepper (Sect. VI–VII) on a step system
/// file's text (docs/step.md): `steps` steps of size `dt` with the elastic, plastic (11)
/// or inelastic (17, with `eps`) impact law.
#[pyfunction]
#[pyo3(signature = (toml, dt, steps, law, eps = None, order = "argmin", arith = "certified", source = "<string>", together = None, compare_orders = false))]
#[allow(clippy::too_many_arguments)]
fn step<'py>(
    py: Python<'py>,
    toml: &str,
    dt: String,
    steps: Whole,
    law: &str,
    eps: Option<String>,
    order: &str,
    arith: &str,
    source: &str,
    together: Option<String>,
    compare_orders: bool,
) -> PyResult<Bound<'py, PyAny>> {
    use impactkit::system::step_file::{LawArg, StepFile, StepSpec};
    use impactkit::system::stepper::Order;
    let spec = StepSpec {
        file: StepFile::from_toml(toml, source).map_err(value_error)?,
        source: source.to_string(),
        dt,
        steps: steps.size("--steps")?,
        law: choice(
            "--law",
            law,
            &[
                ("elastic", LawArg::Elastic),
                ("plastic", LawArg::Plastic),
                ("inelastic", LawArg::Inelastic),
            ],
        )?,
        eps,
        order: choice(
            "--order",
            order,
            &[("argmin", Order::Argmin), ("argmax", Order::Argmax)],
        )?,
        together,
        compare_orders,
    };
    let arith = Arith::parse(arith, DEFAULT_MAX_BITS).map_err(value_error)?;
    let r = computing(py, || {
        impactkit::commands::on_arith(arith, |b| spec.report(b), |r| spec.undecided(r))
    })?;
    run_report(py, r)
}

/// `impactkit verify PATHS`: every claim of the claim files (directories are searched)
/// with its computed verdict, detail, counterexample and certificate, in the files'
/// order. Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (paths, only = None, budget_seconds = 120.0, jobs = Whole::Fits(1)))]
fn verify<'py>(
    py: Python<'py>,
    paths: Vec<std::path::PathBuf>,
    only: Option<String>,
    budget_seconds: f64,
    jobs: Whole,
) -> PyResult<Bound<'py, PyAny>> {
    use impactkit::claims;
    let jobs = jobs.size("--jobs")?;
    claims::check_run_options(budget_seconds, jobs).map_err(value_error)?;
    let all = claims::load_chosen(&paths, only.as_deref()).map_err(value_error)?;
    let budget = std::time::Duration::from_secs_f64(budget_seconds);
    let results = interruptible(py, || {
        claims::run_parallel(&all, only.as_deref(), budget, jobs, &|_| {})
    })?;
    to_py(py, &results)
}

/// `impactkit audit corner`: where over a domain does the audited arithmetic (`f64`, or
/// `mpfr:BITS`) take another branch than the certified computation of the corner, and
/// how far apart do the final states end. Options as the command's (ranges `a..b`,
/// lists `a,b,c`); returns `(config, summary, records)`. Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (alpha, eps = None, direction = None, v0 = None, speed = None, eps1 = None, eps2 = None, algorithm = "ta", threshold = None, rest_threshold = None, reference_algorithm = None, form = "xy", max_steps = Whole::Fits(10_000), samples = None, grid = None, seed = Whole::Fits(0), arith = "f64", reference = true, max_bits = Whole::Fits(DEFAULT_MAX_BITS as u64), max_digits = Whole::Fits(DEFAULT_DIGITS), sample_seconds = 10.0, jobs = None))]
#[allow(clippy::too_many_arguments)]
fn audit_corner<'py>(
    py: Python<'py>,
    alpha: String,
    eps: Option<String>,
    direction: Option<String>,
    v0: Option<String>,
    speed: Option<String>,
    eps1: Option<String>,
    eps2: Option<String>,
    algorithm: &str,
    threshold: Option<String>,
    rest_threshold: Option<String>,
    reference_algorithm: Option<String>,
    form: &str,
    max_steps: Whole,
    samples: Option<Whole>,
    grid: Option<String>,
    seed: Whole,
    arith: &str,
    reference: bool,
    max_bits: Whole,
    max_digits: Whole,
    sample_seconds: f64,
    jobs: Option<Whole>,
) -> PyResult<Bound<'py, PyAny>> {
    use impactkit::audit::corner::{CornerOptions, Outcome};
    use impactkit::audit::domain::{parse_grid, Sampling, Shard};
    use impactkit::audit::summary::Summary;
    use impactkit::input::caps::{AUDIT_SAMPLES, DIGITS, JOBS, STEPS};
    if reference {
        Arith::parse("certified", max_bits.bits()?).map_err(value_error)?;
    }
    let (lo, hi) = impactkit::input::caps::BUDGET_SECONDS;
    if !(lo..=hi).contains(&sample_seconds) {
        return Err(value_error(format!(
            "--sample-seconds: expected a number of seconds in {lo}..={hi}"
        )));
    }
    let audit = CornerOptions {
        alpha,
        direction,
        v0,
        speed,
        eps,
        eps1,
        eps2,
        algorithm: self::algorithm(algorithm)?,
        threshold,
        rest_threshold,
        reference_algorithm: reference_algorithm
            .as_deref()
            .map(self::algorithm)
            .transpose()?,
        form: self::form(form)?,
        max_steps: capped(STEPS, max_steps)? as usize,
        max_digits: capped(DIGITS, max_digits)?,
        audited: backend(arith)?,
        reference: reference.then_some(max_bits.bits()?),
        sample_seconds,
    }
    .build()
    .map_err(value_error)?;
    let sampling = match (grid, samples) {
        (Some(_), Some(_)) => {
            return Err(value_error("--grid: give --grid or --samples, not both"))
        }
        (Some(g), None) => Sampling::Grid(parse_grid(&g).map_err(value_error)?),
        (None, Some(n)) => Sampling::Quasi {
            samples: capped(AUDIT_SAMPLES, n)?,
            seed: seed.of("--seed")?,
        },
        (None, None) => {
            return Err(value_error(
                "--samples: give samples=N (quasi-random) or grid=\"N1xN2...\"",
            ))
        }
    };
    let exec = impactkit::audit::Execution {
        jobs: jobs
            .map(|j| capped(JOBS, j).map(|j| j as usize))
            .transpose()?,
        shard: Shard::ALL,
        progress: false,
    };
    let ran = interruptible(py, || audit.run(sampling, &exec, true))?;
    let (config, outcome) = ran.map_err(value_error)?;
    let records = match outcome {
        Outcome::Records(r) => r,
        Outcome::Tally(_) => Vec::new(),
    };
    let out = pyo3::types::PyDict::new(py);
    out.set_item("config", to_py(py, &config)?)?;
    out.set_item("summary", to_py(py, &Summary::of(&records))?)?;
    out.set_item("records", to_py(py, &records)?)?;
    Ok(out.into_any())
}

/// A system file from its parts (what `System(...)` takes as keyword arguments): the
/// pre-impact velocity; masses (a diagonal mass matrix) or a mass matrix; one normal per
/// contact (∇φ at the contact configuration), with names, touching flags and
/// coefficients of restitution (one for all, or one per contact).
#[pyfunction]
#[pyo3(signature = (velocity, normals, masses = None, mass_matrix = None, restitution = None, contact_restitution = None, touching = None, names = None, coordinates = None, name = None, energetic = None))]
#[allow(clippy::too_many_arguments)]
fn system_toml(
    velocity: Vec<String>,
    normals: Vec<Vec<String>>,
    masses: Option<Vec<String>>,
    mass_matrix: Option<Vec<Vec<String>>>,
    restitution: Option<String>,
    contact_restitution: Option<Vec<String>>,
    touching: Option<Vec<bool>>,
    names: Option<Vec<String>>,
    coordinates: Option<Vec<String>>,
    name: Option<String>,
    energetic: Option<String>,
) -> PyResult<String> {
    use impactkit::system::file::ContactSpec;
    let n = normals.len();
    let per_contact = |what: &str, len: Option<usize>| match len {
        Some(k) if k != n => Err(value_error(format!(
            "{what}: {k} entries for {n} contacts (one per normal)"
        ))),
        _ => Ok(()),
    };
    per_contact("touching", touching.as_ref().map(Vec::len))?;
    per_contact("names", names.as_ref().map(Vec::len))?;
    per_contact(
        "contact_restitution",
        contact_restitution.as_ref().map(Vec::len),
    )?;
    let text = |v: Vec<String>| v.into_iter().map(Number::Text).collect::<Vec<_>>();
    let contact = normals
        .into_iter()
        .enumerate()
        .map(|(i, normal)| ContactSpec {
            name: names.as_ref().map(|v| v[i].clone()),
            normal: text(normal),
            touching: touching.as_ref().map(|v| v[i]),
            restitution: contact_restitution
                .as_ref()
                .map(|v| Number::Text(v[i].clone())),
            poisson: None,
            ..ContactSpec::default()
        })
        .collect();
    let file = SystemFile {
        name,
        kind: None,
        coordinates,
        masses: masses.map(text),
        mass_matrix: mass_matrix.map(|m| m.into_iter().map(text).collect()),
        velocity: text(velocity),
        restitution: restitution.map(Number::Text),
        energetic: energetic.map(Number::Text),
        contact,
        ..SystemFile::default()
    };
    let toml = file.to_toml();
    SystemFile::from_toml(&toml, "<System>").map_err(value_error)?;
    Ok(toml)
}

/// The system file of the billiard break (`impactkit system billiard`; Seghete–Murphey
/// Sect. VII-A): the cue ball c at the origin moving at (1, 0) into balls a and b at
/// angle `theta`, radii and masses (default: the radii cubed).
#[pyfunction]
#[pyo3(signature = (theta, radii, masses = None))]
fn billiard_toml(theta: &str, radii: Vec<String>, masses: Option<Vec<String>>) -> PyResult<String> {
    use impactkit::system::file::billiard_touching;
    let [ra, rb, rc] = <[String; 3]>::try_from(radii)
        .map_err(|_| value_error("--radii: three radii (r_a, r_b, r_c)"))?;
    let m = match masses {
        Some(m) => <[String; 3]>::try_from(m)
            .map_err(|_| value_error("--masses: three masses (m_a, m_b, m_c)"))?,
        None => [&ra, &rb, &rc].map(|r| format!("({r})^3")),
    };
    let radii = [ra.as_str(), rb.as_str(), rc.as_str()];
    let touching = billiard_touching(theta, radii).map_err(value_error)?;
    let toml = SystemFile::billiard(theta, radii, [&m[0], &m[1], &m[2]], touching).to_toml();
    SystemFile::from_toml(&toml, "<billiard>").map_err(value_error)?;
    Ok(toml)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // the unwinding of a number-field mismatch is reported as a ValueError ([`unwound`]),
    // not printed as a panic; every other panic keeps the hook it had
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !info.payload().is::<impactkit::arith::FieldMismatch>() {
            previous(info);
        }
    }));
    m.add_function(wrap_pyfunction!(eval, m)?)?;
    m.add_function(wrap_pyfunction!(laws, m)?)?;
    m.add_function(wrap_pyfunction!(cradle_toml, m)?)?;
    m.add_function(wrap_pyfunction!(corner_toml, m)?)?;
    m.add_function(wrap_pyfunction!(law_names, m)?)?;
    m.add_function(wrap_pyfunction!(check_system, m)?)?;
    m.add_function(wrap_pyfunction!(read_system_file, m)?)?;
    m.add_function(wrap_pyfunction!(regress_stream, m)?)?;
    m.add_class::<RecordStream>()?;
    m.add_function(wrap_pyfunction!(check_cradle_balls, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(corner, m)?)?;
    m.add_function(wrap_pyfunction!(cradle, m)?)?;
    m.add_function(wrap_pyfunction!(propagate, m)?)?;
    m.add_function(wrap_pyfunction!(penny_run, m)?)?;
    m.add_function(wrap_pyfunction!(step, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(audit_corner, m)?)?;
    m.add_function(wrap_pyfunction!(system_toml, m)?)?;
    m.add_function(wrap_pyfunction!(billiard_toml, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
