//! Serialisable results of the commands (printing is the CLI's job), and SVG drawings.

pub mod plot;
pub mod svg;

use crate::arith::{Kind, Scalar};
use crate::backend::{Backend, RunScalar};
use crate::lang::{self, EvalError};
use serde::Serialize;

/// A value as reported by `impactkit eval --format json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValueReport {
    /// The backend, as given to `--arith`.
    pub arith: String,
    /// `true` if `value` is the exact value.
    pub exact: bool,
    /// Input-language string: exact (`37/70`, `3+2*sqrt(2)`) or a decimal approximation.
    pub value: String,
    /// Rigorous lower bound (decimal), for exact values and enclosures; `null` otherwise.
    pub lo: Option<String>,
    /// Rigorous upper bound (decimal), for exact values and enclosures; `null` otherwise.
    pub hi: Option<String>,
}

impl ValueReport {
    /// The report of one value of backend `S`.
    pub fn of<S: Scalar>(arith: &Backend, x: &S) -> Self {
        let r = x.render();
        let (lo, hi) = match r.bounds {
            Some((lo, hi)) => (Some(lo), Some(hi)),
            None => (None, None),
        };
        ValueReport {
            arith: arith.to_string(),
            exact: S::kind() == Kind::Exact,
            value: r.value,
            lo,
            hi,
        }
    }

    /// One line of text: the exact value, the float, or `[lo, hi]` for an enclosure.
    pub fn text(&self) -> String {
        match (&self.lo, &self.hi, self.exact) {
            (Some(lo), Some(hi), false) => format!("[{lo}, {hi}]"),
            _ => self.value.clone(),
        }
    }
}

/// Evaluates an input-language expression on a backend (`impactkit eval`).
pub fn eval(src: &str, backend: Backend) -> Result<ValueReport, EvalError> {
    struct Job<'a>(&'a str, Backend);
    impl RunScalar for Job<'_> {
        type Out = Result<ValueReport, EvalError>;
        fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
            let x: S = lang::eval_str(self.0, ctx)?;
            Ok(ValueReport::of(&self.1, &x))
        }
    }
    backend.run(Job(src, backend))
}
