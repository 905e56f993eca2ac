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

/// The row of law `law` in the `laws` rows of a `laws` / `compare-cradle` report.
pub fn law_row(v: &serde_json::Value, law: &str) -> serde_json::Value {
    v["laws"]
        .as_array()
        .expect("laws rows")
        .iter()
        .find(|l| l["law"] == law)
        .unwrap_or_else(|| panic!("no row {law}: {v}"))
        .clone()
}

/// The row of laws `a` and `b` in the agreement table of a `laws` / `compare-cradle` report.
pub fn agreement(v: &serde_json::Value, a: &str, b: &str) -> serde_json::Value {
    v["agreement"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["laws"] == serde_json::json!([a, b]))
        .unwrap_or_else(|| panic!("{a} vs {b} missing"))
        .clone()
}

/// Exact values as reports write them: `[{"exact": "1"}, …]`.
pub fn exact(xs: &[&str]) -> serde_json::Value {
    serde_json::Value::Array(
        xs.iter()
            .map(|x| serde_json::json!({ "exact": x }))
            .collect(),
    )
}

/// A reproduction command of an audit record, split as a shell would (single quotes only).
pub fn split_command(cmd: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut cur, mut quoted, mut any) = (String::new(), false, false);
    for c in cmd.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

/// The records of an audit's `--out` directory.
pub fn records(dir: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("samples.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A fresh temporary directory for test `name` of this process.
pub fn tempdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("impactkit-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}
