//! Named option strings → typed parameters, with one error type.
//!
//! Every value a user gives impactkit — on the command line, in a claim file's probe
//! inputs, in an audit's domain — is an expression of the input language, read by
//! [`value`] or [`list`] on the backend of the run. What goes wrong is an [`InputError`]
//! naming the option and the reason: the CLI prints it as one line and exits with
//! status 2.

use crate::arith::{ArithError, Scalar};
use crate::lang::{eval_str, split_list, EvalError};

/// Longest reason kept in an error line (the input itself may be huge).
const MAX_REASON: usize = 240;

/// Bad input: which option, and why (one line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{option}: {reason}")]
pub struct InputError {
    /// The option as the user wrote it (`--eps`, `--v0`), or a claim input's name.
    pub option: String,
    /// Why the value is refused, on one line.
    pub reason: String,
    /// The value is well-formed but this backend cannot represent it exactly (`sqrt(2)`
    /// in `exact`): a ladder of backends ([`crate::certify`]) moves on instead of failing.
    pub unrepresentable: bool,
}

impl InputError {
    /// Bad input for `option`; the reason is cut to one short line.
    pub fn new(option: impl Into<String>, reason: impl std::fmt::Display) -> Self {
        InputError {
            option: option.into(),
            reason: one_line(&reason.to_string()),
            unrepresentable: false,
        }
    }

    /// The error of an input-language value of `option` that did not evaluate.
    pub fn from_eval(option: impl Into<String>, e: &EvalError) -> Self {
        let mut out = InputError::new(option, e);
        out.unrepresentable = matches!(e.arith(), Some(ArithError::NotRepresentable { .. }));
        out
    }

    /// The error of an arithmetic failure while checking `option`.
    pub fn from_arith(option: impl Into<String>, e: &ArithError) -> Self {
        let mut out = InputError::new(option, e);
        out.unrepresentable = matches!(e, ArithError::NotRepresentable { .. });
        out
    }
}

/// `s` on one line of at most [`MAX_REASON`] characters.
pub fn one_line(s: &str) -> String {
    let flat: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if flat.chars().count() <= MAX_REASON {
        return flat;
    }
    let cut: String = flat.chars().take(MAX_REASON - 1).collect();
    format!("{cut}…")
}

/// The value of the expression `src`, given for `option`, in backend `S`.
pub fn value<S: Scalar>(src: &str, option: &str, ctx: &S::Ctx) -> Result<S, InputError> {
    eval_str::<S>(src, ctx).map_err(|e| InputError::from_eval(option, &e))
}

/// A comma-separated list of expressions (`--masses "1,2,3"`) in backend `S`.
pub fn list<S: Scalar>(src: &str, option: &str, ctx: &S::Ctx) -> Result<Vec<S>, InputError> {
    split_list(src)
        .into_iter()
        .map(|p| value::<S>(p, option, ctx))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Rational;

    #[test]
    fn errors_name_the_option_on_one_short_line() {
        let e = value::<Rational>("sqrt(2)", "--eps", &()).unwrap_err();
        assert_eq!(e.option, "--eps");
        assert!(e.unrepresentable, "{e}");
        let e = value::<Rational>("1/0", "--eps", &()).unwrap_err();
        assert!(!e.unrepresentable, "{e}");
        let e = InputError::new("--v0", format!("bad {}\nsecond line", "x".repeat(1000)));
        assert!(!e.to_string().contains('\n'));
        assert!(e.reason.chars().count() <= MAX_REASON);
        assert_eq!(
            list::<Rational>("1, 1/2", "--masses", &()).unwrap(),
            vec![Rational::new(1, 1), Rational::new(1, 2)]
        );
    }
}
