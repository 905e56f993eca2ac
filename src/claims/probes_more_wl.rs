//! Further probes for the claims of issue 13 (one file per paper, so that they are added
//! independently). Same contract as [`super::probes`]: every probe calls existing law /
//! system code; none restates a formula of a paper.

use super::probes::Inputs;
use crate::arith::Rational;
use crate::lang::Env;

/// The probes of this file, with their inputs and outputs (for error messages and docs).
pub const PROBES: &[(&str, &str)] = &[];

/// Runs a probe of this file; `None` if the name is not one of [`PROBES`].
pub fn run(name: &str, inp: &Inputs) -> Option<Result<Env<Rational>, String>> {
    let _ = (name, inp);
    None
}
