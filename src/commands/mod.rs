//! The layer above the laws, one module per command: what a command takes (input-language
//! strings, as the CLI and the Python module pass them), the backend policy of `--arith`
//! ([`on_arith`]), and the report it returns. The house reads
//! bin → commands → systems / audit / regress / claims → laws → linalg → arith: nothing
//! below imports this module.
//!
//! The corner's, the propagative model's and the sequential law's run descriptions
//! (`system::corner_spec`, `system::propagate`, `system::sequential`) stay in `system/`:
//! `audit` and the claims' probes run them too. Their command-level parts (the corner's
//! `--arith` policy, batches of entrance velocities and figure) are here.

pub mod billiard;
pub mod compare;
pub mod corner;
pub mod laws;
pub mod penny;
pub mod rods;

use crate::law::LawError;
use crate::system::{input, SpecError};

/// Whether a run failed only because its backend cannot hold an input or a value
/// (`sqrt(2)` in `exact`), or hangs on a sign its arithmetic did not decide: a ladder
/// moves on to the next backend.
fn climbs(e: &SpecError) -> bool {
    match e {
        SpecError::Input(e) => e.unrepresentable,
        SpecError::Law(LawError::Undecided { .. }) => true,
        SpecError::Law(LawError::Arith(e)) => e.climbs(),
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
