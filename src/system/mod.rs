//! Concrete systems built from the laws, with their drivers.

pub mod billiard;
pub mod billiard_spec;
pub mod compare;
pub mod corner;
pub mod corner_spec;
pub mod cradle;
pub mod propagate;
pub mod rods;
pub mod sequential;

use crate::arith::Scalar;
use crate::law::LawError;

/// Errors of a command's run: bad input (exit code 2, naming the option) or a law error.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpecError {
    #[error("{option}: {reason}")]
    Input {
        option: &'static str,
        reason: String,
    },
    #[error(transparent)]
    Law(#[from] LawError),
}

/// Bad input for `option`.
pub fn input(option: &'static str, reason: impl Into<String>) -> SpecError {
    SpecError::Input {
        option,
        reason: reason.into(),
    }
}

/// A comma-separated list of input-language expressions (`--masses "1,2,3"`) in backend
/// `S`; a value the backend cannot represent is bad input for `option`.
pub fn list<S: Scalar>(src: &str, option: &'static str, ctx: &S::Ctx) -> Result<Vec<S>, SpecError> {
    crate::lang::split_list(src)
        .into_iter()
        .map(|p| crate::lang::eval_str::<S>(p, ctx).map_err(|e| input(option, e.to_string())))
        .collect()
}
