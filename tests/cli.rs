//! The command line: outputs of `impactkit eval`, exit codes, one-line errors.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
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

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn bad(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?} should exit 2; stdout {out} stderr {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );
    err
}

fn rat(s: &str) -> num_rational::BigRational {
    // lo/hi are decimals like "5.77350269189625764e-1": read them exactly.
    let e = impactkit::expr::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
    e.as_rational().unwrap()
}

#[test]
fn done_when_examples() {
    let v = json(&["eval", "3/7 + 0.1", "--arith", "exact", "--format", "json"]);
    assert_eq!(v["value"], "37/70");
    assert_eq!(v["exact"], true);
    assert_eq!(v["lo"], "37/70");
    assert_eq!(v["arith"], "exact");

    let v = json(&[
        "eval",
        "(1+sqrt(2))^2",
        "--arith",
        "quadratic",
        "--format",
        "json",
    ]);
    assert_eq!(v["value"], "3+2*sqrt(2)");
    let (_, text, _) = run(&["eval", "(1+sqrt(2))^2", "--arith", "quadratic"]);
    assert_eq!(text.trim(), "3+2*sqrt(2)");

    let v = json(&[
        "eval",
        "tan(pi/6)",
        "--arith",
        "interval",
        "--format",
        "json",
    ]);
    assert_eq!(v["exact"], false);
    let (lo, hi) = (
        rat(v["lo"].as_str().unwrap()),
        rat(v["hi"].as_str().unwrap()),
    );
    // lo <= sqrt(3)/3 <= hi  <=>  3 lo² <= 1 <= 3 hi² (both positive)
    let three = num_rational::BigRational::from_integer(3.into());
    let one = num_rational::BigRational::from_integer(1.into());
    assert!(&three * &lo * &lo <= one && one <= &three * &hi * &hi);
    assert!(&hi - &lo < rat("1e-15"));

    let v = json(&["eval", "sqrt(2)", "--arith", "mpi:256", "--format", "json"]);
    let (lo, hi) = (
        rat(v["lo"].as_str().unwrap()),
        rat(v["hi"].as_str().unwrap()),
    );
    let two = num_rational::BigRational::from_integer(2.into());
    assert!(&lo * &lo <= two && two <= &hi * &hi);
    assert!(&hi - &lo < rat("1e-70"));

    let e = bad(&["eval", "sqrt(2)", "--arith", "exact"]);
    assert!(e.contains("exact backend") && e.contains("sqrt(2)"), "{e}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let e = bad(&["eval", "1+", "--arith", "exact"]);
    assert!(e.contains("EXPR") && e.contains("unexpected end"), "{e}");
    let e = bad(&["eval", "1", "--arith", "double"]);
    assert!(
        e.contains("--arith") && e.contains("unknown backend"),
        "{e}"
    );
    let e = bad(&["eval", "1", "--arith", "mpi:1"]);
    assert!(e.contains("--arith") && e.contains("between"), "{e}");
    let e = bad(&["eval", "1", "--arith", "exact", "--format", "xml"]);
    assert!(e.contains("--format"), "{e}");
    let e = bad(&["eval", "1"]);
    assert!(e.contains("--arith"), "{e}");
    let e = bad(&["eval", "1/0", "--arith", "f64"]);
    assert!(e.contains("division by zero"), "{e}");
    let e = bad(&["eval", "1/(sqrt(2)^2-2)", "--arith", "interval"]);
    assert!(e.contains("contains 0"), "{e}");
    let e = bad(&["eval", "tan(pi/16)", "--arith", "quadratic"]);
    assert!(e.contains("tan(pi/16)") && e.contains("interval"), "{e}");
    let e = bad(&["eval", "sqrt(2)*sqrt(3)", "--arith", "quadratic"]);
    assert!(e.contains("cannot mix"), "{e}");
    let e = bad(&[
        "eval",
        "10^100000*10^100000/0.5^(-100000)",
        "--arith",
        "f64",
    ]);
    assert!(e.contains("unbounded") || e.contains("inf"), "{e}");
    bad(&["frobnicate"]);
}

#[test]
fn negative_expressions_are_not_options() {
    let v = json(&["eval", "-3/4", "--arith", "exact", "--format", "json"]);
    assert_eq!(v["value"], "-3/4");
}

/// Snapshot of `eval --format json` for a panel of expressions on every backend.
#[test]
fn eval_panel_snapshot() {
    let exprs = [
        "3/7 + 0.1",
        "tan(pi/6)",
        "tan(pi/12)",
        "cos(pi/4)",
        "(1+sqrt(2))^2",
        "1/3",
        "tan(pi/16)",
        "atan(1)",
    ];
    let backends = [
        "f64",
        "exact",
        "quadratic",
        "mpfr:100",
        "interval",
        "mpi:100",
    ];
    let mut rows = Vec::new();
    for e in exprs {
        for b in backends {
            let (code, out, err) = run(&["eval", e, "--arith", b, "--format", "json"]);
            let cell = if code == 0 {
                serde_json::from_str::<serde_json::Value>(&out).unwrap()
            } else {
                serde_json::json!({ "exit": code, "error": err.trim() })
            };
            rows.push(serde_json::json!({ "expr": e, "arith": b, "out": cell }));
        }
    }
    insta::with_settings!({ snapshot_path => "../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_json_snapshot!("eval_panel", rows);
    });
}
