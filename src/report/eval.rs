//! `impactkit eval`: one expression of the input language on one backend.

use super::{Num, Report, TextOptions};
use crate::arith::backend::{Backend, RunScalar};
use crate::arith::Scalar;
use crate::lang::{self, EvalError};
use serde::Serialize;

/// The value of an expression.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EvalReport {
    /// The backend, as given to `--arith`.
    pub arith: String,
    /// The value: exact, rounded, or an enclosure.
    pub value: Num,
}

impl Report for EvalReport {
    fn text(&self, o: &TextOptions) -> String {
        self.value.text(o)
    }
}

/// [`eval`] under `--arith`: one backend, or `certified` — the first exact backend that
/// holds the value (rationals, Q(√d), Q(θ)), else a 53-bit enclosure.
///
/// # Example
///
/// ```
/// use impactkit::certify::Arith;
/// use impactkit::report::eval::eval_arith;
/// let certified = Arith::parse("certified", 3392).unwrap();
/// let exact = |e: &str| serde_json::to_value(eval_arith(e, certified).unwrap().value).unwrap();
/// assert_eq!(exact("1/3 + 1/6"), serde_json::json!({"exact": "1/2"}));
/// assert_eq!(exact("cos(pi/4)"), serde_json::json!({"exact": "1/2*sqrt(2)"}));
/// assert!(exact("pi")["lo"].is_string());
/// ```
pub fn eval_arith(src: &str, arith: crate::certify::Arith) -> Result<EvalReport, EvalError> {
    use crate::arith::ArithError;
    if let crate::certify::Arith::Backend(b) = arith {
        return eval(src, b);
    }
    let rungs = [
        Backend::Exact,
        Backend::Quadratic,
        Backend::Algebraic,
        Backend::Interval,
    ];
    let mut last = None;
    for b in rungs {
        match eval(src, b) {
            Err(e) if e.arith().is_some_and(ArithError::climbs) => last = Some(e),
            other => return other,
        }
    }
    Err(last.expect("four rungs were tried"))
}

/// Evaluates an input-language expression on a backend (`impactkit eval`).
///
/// # Example
///
/// ```
/// use impactkit::arith::backend::Backend;
/// use impactkit::report::eval::eval;
/// let r = eval("tan(pi/6)", Backend::Quadratic).unwrap();
/// assert_eq!(serde_json::to_value(&r.value).unwrap(), serde_json::json!({"exact": "1/3*sqrt(3)"}));
/// ```
pub fn eval(src: &str, backend: Backend) -> Result<EvalReport, EvalError> {
    struct Job<'a>(&'a str, Backend);
    impl RunScalar for Job<'_> {
        type Out = Result<EvalReport, EvalError>;
        fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
            let x: S = lang::eval_str(self.0, ctx)?;
            let value = x.num();
            if !value.is_finite() {
                return Err(EvalError::NotFinite {
                    value: value.text(&TextOptions::default()),
                    arith: self.1.to_string(),
                });
            }
            Ok(EvalReport {
                arith: self.1.to_string(),
                value,
            })
        }
    }
    backend.run(Job(src, backend))
}
