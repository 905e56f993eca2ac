//! The integration tests, one module per subject.

mod audit;
mod audit_laws;
mod billiard;
mod claims;
mod claims_cb;
mod claims_more_fp;
mod claims_more_pq;
mod claims_more_sm;
mod claims_more_wl;
mod cli;
mod cli_billiard;
mod cli_compare;
mod corner;
mod corner_longrun;
mod cradle;
mod fixes16;
mod fuzz;
mod hardening;
mod lang;
mod propagative;
mod readme;
mod regress;
mod sequential;
mod soundness;
mod symbolic;
mod verify_cli;
