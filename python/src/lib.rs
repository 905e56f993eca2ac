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

/// Reads a system file's text; `ValueError` with the command line's message if it is not
/// one.
#[pyfunction]
#[pyo3(signature = (toml, source = "<string>"))]
fn check_system(toml: &str, source: &str) -> PyResult<()> {
    SystemFile::from_toml(toml, source).map_err(value_error)?;
    Ok(())
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
    m.add_function(wrap_pyfunction!(law_names, m)?)?;
    m.add_function(wrap_pyfunction!(check_system, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
