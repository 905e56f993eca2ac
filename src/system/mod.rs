//! Concrete systems built from the laws, with their drivers.

pub mod billiard;
pub mod billiard_spec;
pub mod compare;
pub mod corner;
pub mod corner_spec;
pub mod cradle;
pub mod iterate;
pub mod propagate;
pub mod rods;
pub mod sequential;

pub use crate::input::InputError;
use crate::law::LawError;

/// Errors of a command's run: bad input (exit code 2, naming the option) or a law error.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpecError {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Law(#[from] LawError),
}

/// Bad input for `option`.
pub fn input(option: &str, reason: impl std::fmt::Display) -> SpecError {
    SpecError::Input(InputError::new(option, reason))
}

/// A comma-separated list of input-language expressions (`--masses "1,2,3"`) in backend
/// `S`; a value the backend cannot represent is bad input for `option`.
pub fn list<S: crate::arith::Scalar>(
    src: &str,
    option: &str,
    ctx: &S::Ctx,
) -> Result<Vec<S>, SpecError> {
    Ok(crate::input::list(src, option, ctx)?)
}
