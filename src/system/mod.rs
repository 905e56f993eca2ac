//! Concrete systems built from the laws, with their drivers.

pub mod billiard;
pub mod corner;
pub mod corner_kernel;
pub mod corner_longrun;
pub mod corner_spec;
pub mod cradle;
pub mod file;
pub mod general_stepper;
pub mod iterate;
pub mod lagrangian;
pub mod lagrangian_compile;
pub mod lagrangian_file;
pub mod laws;
pub mod penny;
pub mod penny_run;
pub mod propagate;
pub mod rods;
pub mod sequential;
pub mod step_file;
pub mod stepper;
pub mod trex;

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

/// A report computed on the certified ladder ([`crate::certify`]): `report` runs on each
/// rung; a rung decides when `undecided` finds nothing to report, and is skipped when the
/// backend cannot represent the inputs. Returns the result, the deciding backend (`None`:
/// none decided, the last partial result) and every earlier attempt.
pub fn certified_report<R>(
    max_bits: u32,
    mut report: impl FnMut(crate::arith::backend::Backend) -> Result<R, SpecError>,
    undecided: impl Fn(&R) -> Option<String>,
) -> Result<(R, Option<String>, Vec<crate::certify::Attempt>), SpecError> {
    use crate::certify::{certify, Rung};
    let c = certify(max_bits, |b| match report(b) {
        Ok(r) => Ok(match undecided(&r) {
            Some(why) => Rung::Undecided(r, why),
            None => Rung::Decided(r),
        }),
        Err(SpecError::Input(e)) if e.unrepresentable => Ok(Rung::Unrepresentable(e.reason)),
        Err(e) => Err(e),
    })?;
    let r = c.result.ok_or_else(|| {
        input(
            "--arith",
            "certified: no backend of the ladder can represent the inputs",
        )
    })?;
    Ok((r, c.certified_by, c.attempts))
}
