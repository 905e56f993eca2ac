//! impactkit's integration tests: one test binary (one link) with shared helpers in
//! `common`; the tests themselves are the modules of `it/`.

mod common;
mod it;
