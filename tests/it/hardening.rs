//! Issue 14's reproducers, one test per cause: every one either exits 2 with one short
//! line naming the option, or completes with the undecided or non-finite part flagged.

use crate::common::{bad, json, run};

fn flat(term: &str, op: &str, n: usize) -> String {
    vec![term; n].join(op)
}

/// Exit 2, one line of at most about 200 characters containing `needle`.
fn bad_naming(args: &[&str], needle: &str) {
    let err = bad(args);
    let line = err.trim_end();
    assert!(line.starts_with("error: "), "{line}");
    assert!(
        line.chars().count() <= 210,
        "{} chars: {line}",
        line.chars().count()
    );
    assert!(
        line.contains(needle),
        "{args:?}: {line} should name {needle}"
    );
}

#[test]
fn long_flat_sums_and_products_do_not_overflow_the_stack() {
    let sum = flat("1", "+", 10_000);
    for arith in ["f64", "exact", "interval", "mpfr:53", "mpi:64"] {
        let j = json(&["eval", &sum, "--arith", arith, "--format", "json"]);
        assert!(j["value"].to_string().contains("10000"), "{arith}: {j}");
    }
    let j = json(&[
        "eval",
        &flat("1", "+", 5_000),
        "--arith",
        "quadratic",
        "--format",
        "json",
    ]);
    assert_eq!(j["value"]["exact"], "5000");
    let (code, _, err) = run(&["eval", &flat("2", "*", 10_000), "--arith", "exact"]);
    assert!(code == 0 || code == 2, "{err}");
    // through an option: a long sum as --alpha is decided, not a stack overflow
    bad_naming(
        &[
            "corner", "--alpha", &sum, "--v0", "1,1", "--eps", "1", "--arith", "f64",
        ],
        "--alpha",
    );
}

#[test]
fn powers_are_bounded_before_the_work() {
    let j = json(&[
        "eval",
        "(1+2^-1000)^100000",
        "--arith",
        "f64",
        "--format",
        "json",
    ]);
    assert_eq!(j["value"]["approx"], "1");
    for arith in ["f64", "interval", "mpfr:100", "mpi:100"] {
        let (code, _, err) = run(&["eval", "(1-1e-30)^100000", "--arith", arith]);
        assert_eq!(code, 0, "{arith}: {err}");
    }
    for arith in ["exact", "quadratic"] {
        bad_naming(&["eval", "(1-1e-30)^100000", "--arith", arith], "bits");
    }
}

#[test]
fn non_finite_values_are_refused_or_flagged() {
    bad_naming(&["eval", "1e400", "--arith", "f64"], "not finite in f64");
    bad_naming(&["eval", "1e400-1e400", "--arith", "f64"], "NaN");
    bad_naming(&["eval", "1e400", "--arith", "interval"], "not finite");
    // MPFR has the exponent range: a finite value, in JSON too
    let j = json(&["eval", "1e400", "--arith", "mpfr:53", "--format", "json"]);
    assert_eq!(j["value"]["approx"], "9.9999999999999997e399");
    assert!(j.get("non_finite").is_none());
    bad_naming(
        &[
            "sequential",
            "map",
            "--gamma",
            "-2,-1e400",
            "--arith",
            "f64",
            "--format",
            "json",
        ],
        "--gamma",
    );
    // finite inputs whose f64 run overflows: the result is flagged, not silent
    let args = [
        "corner",
        "--alpha",
        "pi/4",
        "--v0",
        "1e300,1e300",
        "--eps",
        "1",
        "--arith",
        "f64",
    ];
    let (code, text, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    if text.contains("inf") || text.contains("NaN") {
        assert!(text.contains("warning: non-finite"), "{text}");
    }
}

#[test]
fn error_lines_are_short_and_escaped() {
    let err = bad(&["eval", "pi/1e100000", "--arith", "exact"]);
    assert!(err.trim_end().chars().count() <= 210, "{err}");
    assert!(err.contains("EXPR"), "{err}");
    // a long input is elided in the middle: the start names the option, the end the reason
    let long = format!("{}+)", flat("1", "+", 20_000));
    let err = bad(&["eval", &long, "--arith", "exact"]);
    assert!(err.trim_end().chars().count() <= 210, "{err}");
    assert!(err.starts_with("error: EXPR") && err.contains('…'), "{err}");
    let err = bad(&["eval", "1\n2", "--arith", "exact"]);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("\\n") || err.contains("1 2"), "{err}");
}

#[test]
fn problem_sizes_are_capped() {
    for n in ["4294967295", "18446744073709551615", "1", "65"] {
        bad_naming(
            &["cradle", "--balls", n, "--eps", "0.9", "--arith", "exact"],
            "--balls",
        );
    }
    // six balls: Pasquero's row, the Seghete–Murphey row stopped by its work limit
    let t = std::time::Instant::now();
    let j = json(&[
        "compare-cradle",
        "--eps",
        "0.9",
        "--v0",
        "1,0,0,0,0,-1",
        "--masses",
        "1,1,1,1,1,1",
        "--arith",
        "f64",
        "--format",
        "json",
    ]);
    assert!(t.elapsed().as_secs() < 20);
    let rows = j["laws"].as_array().expect("laws");
    let sm = rows
        .iter()
        .find(|r| r["law"] == "seghete-murphey")
        .expect("row");
    assert!(sm["note"].as_str().unwrap().contains("work limit"), "{sm}");
    bad_naming(
        &[
            "sequential",
            "map",
            "--gamma",
            "-1,1",
            "--masses",
            "1,1,1e100000",
            "--arith",
            "f64",
        ],
        "--masses",
    );
    let long = vec!["1"; 1001].join(",");
    bad_naming(
        &[
            "cradle", "--balls", "3", "--eps", "0.9", "--masses", &long, "--arith", "f64",
        ],
        "--masses",
    );
}

#[test]
fn dependent_normals_are_bad_input_before_the_search() {
    bad_naming(
        &[
            "propagate",
            "--normals",
            "-1,1,0;-2,2,0",
            "--masses",
            "1,1,1",
            "--momentum",
            "1,0,0",
            "--arith",
            "exact",
        ],
        "--normals",
    );
    let t = std::time::Instant::now();
    bad_naming(
        &[
            "propagate",
            "--normals",
            "-1,1,0,0;0,-1,1,0;0,0,-1,1;-1,0,0,1",
            "--masses",
            "1,1,1,1",
            "--momentum",
            "1,0,0,0",
            "--max-steps",
            "24",
            "--arith",
            "exact",
        ],
        "--normals",
    );
    assert!(t.elapsed().as_secs() < 10);
}

#[test]
fn an_undecided_sign_is_reported_in_place() {
    // compare-cradle: the Winandy–Leine row and three comparisons undecided, the rest done
    let j = json(&[
        "compare-cradle",
        "--eps",
        "1",
        "--v0",
        "2,0,-1",
        "--arith",
        "interval",
        "--format",
        "json",
    ]);
    let text = j.to_string();
    assert!(text.contains("undecided"), "{text}");
    assert!(text.contains("pasquero"), "{text}");
}

#[test]
fn negative_counts_and_out_of_range_values_name_the_option() {
    bad_naming(
        &[
            "corner",
            "--max-steps",
            "-1",
            "--alpha",
            "pi/4",
            "--v0",
            "1,1",
            "--eps",
            "1",
            "--arith",
            "exact",
        ],
        "--max-steps",
    );
    bad_naming(
        &[
            "sequential",
            "map",
            "--gamma",
            "-1,1",
            "--masses",
            "-1,1,1",
            "--arith",
            "f64",
        ],
        "--masses",
    );
    bad_naming(
        &[
            "cradle", "--balls", "3", "--eps", "0.9", "--sigma", "-1", "--arith", "exact",
        ],
        "--sigma",
    );
    bad_naming(
        &["cradle", "--balls", "3", "--eps", "1.5", "--arith", "exact"],
        "--eps",
    );
    bad_naming(&["sequential", "check", "--samples", "-5"], "--samples");
    bad_naming(&["verify", "--budget-seconds", "-1"], "--budget-seconds");
    bad_naming(&["verify", "--budget-seconds", "NaN"], "--budget-seconds");
    bad_naming(
        &["eval", "1", "--arith", "exact", "--digits", "-3"],
        "--digits",
    );
}

#[test]
fn alpha_is_decided_on_alpha_itself() {
    for (alpha, arith) in [
        ("5*pi/4", "exact"),
        ("-3", "f64"),
        ("pi/2", "f64"),
        ("0", "exact"),
        ("pi/2", "interval"),
    ] {
        bad_naming(
            &[
                "corner", "--alpha", alpha, "--v0", "1,1", "--eps", "1", "--arith", arith,
            ],
            "--alpha",
        );
    }
    let (code, _, err) = run(&[
        "corner",
        "--alpha",
        "pi/2-1e-30",
        "--v0",
        "1,1",
        "--eps",
        "1",
        "--arith",
        "mpfr:200",
    ]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn exact_runs_stop_at_the_default_work_limit() {
    let t = std::time::Instant::now();
    let j = json(&[
        "corner",
        "--alpha",
        "pi/6",
        "--v0",
        "1,1/3",
        "--eps",
        "1e-16",
        "--arith",
        "quadratic",
        "--format",
        "json",
    ]);
    assert_eq!(j["termination"], "work-limit");
    assert!(
        j["work_limit"].as_str().unwrap().contains("--max-digits"),
        "{j}"
    );
    let j = json(&[
        "cradle", "--balls", "3", "--eps", "0", "--arith", "exact", "--format", "json",
    ]);
    assert_eq!(j["termination"], "max-iterations", "{j}");
    assert!(t.elapsed().as_secs() < 20);
}

#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_impactkit"))
        .args([
            "sequential",
            "check",
            "--samples",
            "2000",
            "--format",
            "json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut one = [0u8; 1];
    child
        .stdout
        .take()
        .expect("stdout")
        .read_exact(&mut one)
        .expect("a byte");
    // stdout is now closed
    let out = child.wait_with_output().expect("wait");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn verify_honours_its_budget_for_every_kind() {
    let dir = std::env::temp_dir().join(format!("impactkit-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let head = |id: &str, kind: &str| {
        format!("id = \"{id}\"\npaper = \"none\"\nwhere = \"x\"\nstatement = \"x\"\nkind = \"{kind}\"\nmethod = \"x\"\n")
    };
    std::fs::write(
        dir.join("id200.toml"),
        head("h-id200", "identity")
            + "[identity]\nlhs = \"(x+y+z+1)^200\"\nrhs = \"(x+y+z+1)^199*(x+y+z+1)\"\nvars = { x = [\"0\",\"1\"], y = [\"0\",\"1\"], z = [\"0\",\"1\"] }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("printed.toml"),
        head("h-printed", "exact-example")
            + "[example]\nprobe = \"corner.quadratic_trace\"\ninputs = { alpha = \"pi/4\", eps = \"1\", x0 = \"1/sqrt(2)\", y0 = \"1/sqrt(2)\" }\nexpect = { d = \"17e-9223372036854775808\" }\n",
    )
    .unwrap();
    // a probe that does not exist is bad input before any work (issue 37)
    let probe = dir.with_extension("probe.toml");
    std::fs::write(
        &probe,
        head("h-probe", "exact-example")
            + "[example]\nprobe = \"no.such_probe\"\ninputs = { alpha = \"pi/6\" }\nexpect = { d = \"3\" }\n",
    )
    .unwrap();
    assert!(bad(&["verify", probe.to_str().unwrap()]).contains("unknown probe \"no.such_probe\""));
    std::fs::remove_file(&probe).ok();
    let t = std::time::Instant::now();
    let dir_s = dir.to_str().unwrap();
    let j = json(&[
        "verify",
        dir_s,
        "--budget-seconds",
        "2",
        "--jobs",
        "1",
        "--format",
        "json",
    ]);
    assert!(
        t.elapsed().as_secs_f64() < 2.0 * 3.0 + 3.0,
        "{:?}",
        t.elapsed()
    );
    let claims = j["claims"].as_array().unwrap();
    let of = |id: &str| claims.iter().find(|c| c["id"] == id).unwrap().clone();
    assert_eq!(of("h-id200")["verdict"], "inconclusive");
    assert!(of("h-id200")["detail"].as_str().unwrap().contains("(time)"));
    assert!(of("h-id200").get("seconds").is_none());
    assert_eq!(j["summary"]["inconclusive (time)"], 1);
    assert_eq!(of("h-printed")["verdict"], "inconclusive");
    std::fs::remove_dir_all(&dir).ok();
}
