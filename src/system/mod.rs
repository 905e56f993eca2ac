//! Concrete systems built from the laws, with their drivers.

pub mod billiard;
pub mod billiard_spec;
pub mod compare;
pub mod corner;
pub mod corner_kernel;
pub mod corner_longrun;
pub mod corner_spec;
pub mod cradle;
pub mod file;
pub mod iterate;
pub mod laws;
pub mod laws_spec;
pub mod penny;
pub mod penny_run;
pub mod penny_spec;
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

/// Whether a run failed only because its backend cannot hold an input or a value
/// (`sqrt(2)` in `exact`), or hangs on a sign its arithmetic did not decide: a ladder
/// moves on to the next backend.
fn climbs(e: &SpecError) -> bool {
    use crate::arith::ArithError;
    match e {
        SpecError::Input(e) => e.unrepresentable,
        SpecError::Law(LawError::Undecided { .. }) => true,
        SpecError::Law(LawError::Arith(ArithError::NotRepresentable { .. })) => true,
        SpecError::Law(_) => false,
    }
}

/// The backends of `--arith certified` for a command that runs on one backend, in order:
/// the exact ones (rationals, one Q(√d), one real number field Q(θ)), then the
/// enclosures of the certified ladder ([`crate::certify::ladder`]).
pub fn exact_first(max_bits: u32) -> Vec<crate::arith::backend::Backend> {
    use crate::arith::backend::Backend;
    let exact = [Backend::Exact, Backend::Quadratic, Backend::Algebraic];
    let enclosures = crate::certify::ladder(max_bits)
        .into_iter()
        .filter(|b| !exact.contains(b));
    exact.into_iter().chain(enclosures).collect()
}

/// `--arith`, the default policy of every command that runs on one backend: a backend
/// runs `report` once; `certified` runs it on [`exact_first`] — the first exact backend
/// that holds every input gives the exact answer, else enclosures of rising precision
/// until a run decides every sign (a rung whose report `undecided` finds wanting climbs
/// too). When no rung decides, the last rung's outcome is the result.
pub fn on_arith<R>(
    arith: crate::certify::Arith,
    mut report: impl FnMut(crate::arith::backend::Backend) -> Result<R, SpecError>,
    undecided: impl Fn(&R) -> bool,
) -> Result<R, SpecError> {
    use crate::certify::Arith;
    let max_bits = match arith {
        Arith::Backend(b) => return report(b),
        Arith::Certified { max_bits } => max_bits,
    };
    let mut last = None;
    for b in exact_first(max_bits) {
        match report(b) {
            Ok(r) if !undecided(&r) => return Ok(r),
            Ok(r) => last = Some(Ok(r)),
            Err(e) if climbs(&e) => {
                // a partial report of an earlier rung says more than a failure
                if !matches!(last, Some(Ok(_))) {
                    last = Some(Err(e));
                }
            }
            Err(e) => return Err(e),
        }
    }
    last.unwrap_or_else(|| {
        Err(input(
            "--arith",
            "certified: no backend of the ladder can represent the inputs",
        ))
    })
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
