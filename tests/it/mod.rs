//! The integration tests, one module per subject.

mod billiard;
mod claims;
mod cli;
mod cli_billiard;
mod cli_compare;
mod corner;
mod cradle;
mod lang;
mod propagative;
mod readme;
mod sequential;
mod soundness;
mod symbolic;
mod verify_cli;
