//! `impactkit._core`: the library called from Python directly (no subprocess, no JSON
//! text): each function builds the same report as the command of the same name and hands
//! it to Python as dicts, lists and strings (`pythonize`), numbers in the documented
//! shapes (`{"exact": …}`, `{"approx": …}`, `{"lo": …, "hi": …}`, docs/conventions.md),
//! which `impactkit/__init__.py` turns into `Fraction`, `float`, `Exact` and `Interval`.
//! Bad input raises `ValueError` with the command line's one-line message; the GIL is
//! released while a law computes.

use impactkit::arith::backend::Backend;
use impactkit::certify::{Arith, DEFAULT_MAX_BITS};
use impactkit::input::caps::{DEFAULT_DIGITS, DEFAULT_LAWS_REFLECTIONS};
use impactkit::system::file::{Number, SystemFile};
use impactkit::system::laws_spec::LawsSpec;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn to_py<'py, T: serde::Serialize>(py: Python<'py>, x: &T) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, x).map_err(|e| value_error(format!("impactkit bug: {e}")))
}

/// The value of an expression of the input language on one backend (`impactkit eval`).
#[pyfunction]
#[pyo3(signature = (expr, arith = "exact"))]
fn eval<'py>(py: Python<'py>, expr: &str, arith: &str) -> PyResult<Bound<'py, PyAny>> {
    let backend: Backend = arith
        .parse()
        .map_err(|e| value_error(format!("--arith: {e}")))?;
    let expr = expr.to_string();
    let report = py
        .allow_threads(|| impactkit::report::eval::eval(&expr, backend))
        .map_err(|e| value_error(format!("EXPR: {e}")))?;
    to_py(py, &report.value)
}

/// Every law on a system file's text (`impactkit laws FILE --format json`), with the
/// pre-impact velocity replaced by `velocity` (expressions of the input language) when
/// given.
#[pyfunction]
#[pyo3(signature = (toml, source = "<string>", arith = "certified", velocity = None, max_steps = 1000, max_digits = DEFAULT_DIGITS, max_reflections = DEFAULT_LAWS_REFLECTIONS, max_bits = DEFAULT_MAX_BITS))]
#[allow(clippy::too_many_arguments)]
fn laws<'py>(
    py: Python<'py>,
    toml: &str,
    source: &str,
    arith: &str,
    velocity: Option<Vec<String>>,
    max_steps: usize,
    max_digits: u64,
    max_reflections: u64,
    max_bits: u32,
) -> PyResult<Bound<'py, PyAny>> {
    let mut file = SystemFile::from_toml(toml, source).map_err(value_error)?;
    if let Some(v) = velocity {
        file.velocity = v.into_iter().map(Number::Text).collect();
    }
    let arith = Arith::parse(arith, max_bits).map_err(value_error)?;
    let spec = LawsSpec {
        file,
        source: source.to_string(),
        max_iter: max_steps,
        max_digits,
        max_reflections,
    };
    let report = py
        .allow_threads(|| spec.report(arith))
        .map_err(value_error)?;
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
    if let Some(v) = velocity {
        file.velocity = v.into_iter().map(Number::Text).collect();
    }
    let law = impactkit::system::laws::Law::parse(law)
        .ok_or_else(|| value_error(format!("law: unknown law {law:?}")))?;
    if !(tolerance >= 0.0 && tolerance.is_finite()) {
        return Err(value_error("tolerance: must be a finite number >= 0"));
    }
    let report = py
        .allow_threads(|| impactkit::regress::check_report(&file, &observed, law, tolerance))
        .map_err(value_error)?;
    to_py(py, &report)
}

/// `impactkit regress RECORDS` (JSON lines, or CSV for a `.csv` file): every record's
/// report in file order, and the per-engine summary (`engines`, `failed`, `errors`).
#[pyfunction]
#[pyo3(signature = (path, jobs = 1))]
fn regress<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    jobs: usize,
) -> PyResult<Bound<'py, PyAny>> {
    use impactkit::regress::stream::{run, RecordFormat, Render};
    use impactkit::report::regress::RecordReport;
    use std::sync::Mutex;
    let (file, _) = impactkit::input::files::open(&path, impactkit::input::files::RECORDS)
        .map_err(value_error)?;
    let format = if path.extension().is_some_and(|e| e == "csv") {
        RecordFormat::Csv
    } else {
        RecordFormat::JsonLines
    };
    let dir = path
        .parent()
        .unwrap_or(std::path::Path::new("."))
        .to_path_buf();
    let kept: Mutex<Vec<RecordReport>> = Mutex::new(Vec::new());
    let keep = |r: &RecordReport| {
        kept.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(r.clone());
        String::new()
    };
    let summary = py
        .allow_threads(|| {
            let render = Render {
                full: true,
                render: &keep,
            };
            let mut sink = |_: &str| Ok(());
            run(
                std::io::BufReader::new(file),
                format,
                &dir,
                jobs.clamp(1, 1024),
                &render,
                &mut sink,
            )
        })
        .map_err(value_error)?;
    let mut records = kept.into_inner().unwrap_or_else(|e| e.into_inner());
    records.sort_by_key(|r| r.line);
    let out = pyo3::types::PyDict::new(py);
    out.set_item("records", to_py(py, &records)?)?;
    out.set_item("engines", to_py(py, &summary.engines)?)?;
    out.set_item("failed", summary.failed)?;
    out.set_item("errors", summary.errors)?;
    out.set_item("non_finite", summary.non_finite)?;
    Ok(out.into_any())
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

/// The names of the laws `laws` computes, in its order.
#[pyfunction]
fn law_names() -> Vec<&'static str> {
    impactkit::system::laws::Law::ALL
        .iter()
        .map(|l| l.name())
        .collect()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(eval, m)?)?;
    m.add_function(wrap_pyfunction!(laws, m)?)?;
    m.add_function(wrap_pyfunction!(cradle_toml, m)?)?;
    m.add_function(wrap_pyfunction!(corner_toml, m)?)?;
    m.add_function(wrap_pyfunction!(law_names, m)?)?;
    m.add_function(wrap_pyfunction!(check_system, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(regress, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
