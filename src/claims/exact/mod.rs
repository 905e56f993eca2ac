//! The exact computations of a claim: its expressions and probes evaluated at exact points
//! ([`sampled`], [`sample_points`]), and the kinds whose verdict is a recomputation
//! ([`example`], [`fp_audit`], [`identity`], an [`inequality`]'s interval
//! branch-and-bound). The prover and the checker both run them; nothing here searches.

pub mod example;
pub mod fp_audit;
pub mod identity;
pub mod inequality;
pub mod sample_points;
pub mod sampled;
