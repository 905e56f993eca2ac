//! Helpers shared by the command-line tests: run the binary, read its JSON, check that bad
//! input exits 2 with one line.

#![allow(dead_code)]

pub mod claims;
pub mod fuzz;

use std::process::Command;

/// Exit code, stdout, stderr of `impactkit ARGS`.
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_impactkit"))
        .args(args)
        .output()
        .expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The JSON printed by a successful run.
pub fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

/// Asserts exit code 2 and one line on stderr, no panic; returns stderr.
pub fn bad(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?} should exit 2; stdout {out} stderr {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );
    err
}

/// Exact values as reports write them: `[{"exact": "1"}, …]`.
pub fn exact(xs: &[&str]) -> serde_json::Value {
    serde_json::Value::Array(
        xs.iter()
            .map(|x| serde_json::json!({ "exact": x }))
            .collect(),
    )
}
