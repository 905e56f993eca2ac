//! The command line: outputs of `impactkit eval`, exit codes, one-line errors.

use crate::common::{bad, exact, json, run};

fn rat(s: &str) -> num_rational::BigRational {
    // lo/hi are decimals like "5.77350269189625764e-1": read them exactly.
    let e = impactkit::lang::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
    e.as_rational().unwrap()
}

#[test]
fn done_when_examples() {
    let v = json(&["eval", "3/7 + 0.1", "--arith", "exact", "--format", "json"]);
    assert_eq!(v["value"], serde_json::json!({"exact": "37/70"}));
    assert_eq!(v["arith"], "exact");
    assert_eq!(v["schema"], "impactkit/1");
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(v["command"], "eval");
    let (_, text, _) = run(&["eval", "3/7 + 0.1", "--arith", "exact"]);
    assert_eq!(text.trim(), "0.52857142857142857143");
    let (_, text, _) = run(&["eval", "3/7 + 0.1", "--arith", "exact", "--digits", "3"]);
    assert_eq!(text.trim(), "0.529");
    let v = json(&["eval", "0.1 + 0.2", "--arith", "f64", "--format", "json"]);
    assert_eq!(
        v["value"],
        serde_json::json!({"approx": "0.30000000000000004"})
    );

    let v = json(&[
        "eval",
        "(1+sqrt(2))^2",
        "--arith",
        "quadratic",
        "--format",
        "json",
    ]);
    assert_eq!(v["value"], serde_json::json!({"exact": "3+2*sqrt(2)"}));
    let (_, text, _) = run(&["eval", "(1+sqrt(2))^2", "--arith", "quadratic"]);
    assert_eq!(text.trim(), "5.8284271247461900976");
    let (_, text, _) = run(&[
        "eval",
        "(1+sqrt(2))^2",
        "--arith",
        "quadratic",
        "--exact-values",
    ]);
    assert_eq!(text.trim(), "3+2*sqrt(2)");

    let v = json(&[
        "eval",
        "tan(pi/6)",
        "--arith",
        "interval",
        "--format",
        "json",
    ]);
    let (lo, hi) = (
        rat(v["value"]["lo"].as_str().unwrap()),
        rat(v["value"]["hi"].as_str().unwrap()),
    );
    // lo <= sqrt(3)/3 <= hi  <=>  3 lo² <= 1 <= 3 hi² (both positive)
    let three = num_rational::BigRational::from_integer(3.into());
    let one = num_rational::BigRational::from_integer(1.into());
    assert!(&three * &lo * &lo <= one && one <= &three * &hi * &hi);
    assert!(&hi - &lo < rat("1e-15"));

    let v = json(&["eval", "sqrt(2)", "--arith", "mpi:256", "--format", "json"]);
    let (lo, hi) = (
        rat(v["value"]["lo"].as_str().unwrap()),
        rat(v["value"]["hi"].as_str().unwrap()),
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
    // no --arith: the default, certified (tests/it/arith_policy.rs)
    let e = bad(&["eval", "1", "--arith", ""]);
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
    assert_eq!(v["value"]["exact"], "-3/4");
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
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_json_snapshot!("eval_panel", rows);
    });
}

fn corner(extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["corner"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--format", "json"]);
    json(&args)
}

#[test]
fn corner_paper_example() {
    let base = [
        "--alpha",
        "pi/4",
        "--v0",
        "1/sqrt(2),1/sqrt(2)",
        "--eps",
        "1",
    ];
    let with = |more: &[&'static str]| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend_from_slice(more);
        corner(&a)
    };
    let f = with(&["--arith", "f64"]);
    assert_eq!(f["zones"], serde_json::json!(["Z2", "Z1", "Z0"]));
    assert_eq!(f["steps"], 2);
    let sa = with(&["--arith", "f64", "--algorithm", "sa"]);
    assert_eq!(sa["steps"], 1);
    let q = with(&["--arith", "quadratic", "--trace"]);
    assert_eq!(q["steps"], 1);
    assert_eq!(q["termination"], "exit");
    assert_eq!(
        q["final"],
        serde_json::json!([{"exact": "-1/2*sqrt(2)"}, {"exact": "-1/2*sqrt(2)"}])
    );
    assert_eq!(q["trace"].as_array().unwrap().len(), 2);
    assert!(with(&["--arith", "quadratic"]).get("trace").is_none());
    let c = with(&["--arith", "certified"]);
    assert_eq!(c["certified_by"], "quadratic");
    let i = with(&["--arith", "interval"]);
    assert_eq!(i["termination"], "undecided");
    assert_eq!(i["undecided"]["quantity"], "eta - S");
}

#[test]
fn corner_bad_input() {
    let e = bad(&[
        "corner", "--alpha", "pi/4", "--v0", "1,0", "--eps", "2", "--arith", "exact",
    ]);
    assert!(e.contains("--eps") && e.contains("[0, 1]"), "{e}");
    let e = bad(&[
        "corner", "--alpha", "-pi/4", "--v0", "1,0", "--eps", "1", "--arith", "f64",
    ]);
    assert!(e.contains("--alpha"), "{e}");
    let e = bad(&[
        "corner", "--alpha", "pi/4", "--v0", "1", "--eps", "1", "--arith", "f64",
    ]);
    assert!(e.contains("--v0") && e.contains("two components"), "{e}");
    let e = bad(&["corner", "--alpha", "pi/4", "--v0", "1,0", "--arith", "f64"]);
    assert!(e.contains("--eps"), "{e}");
    let e = bad(&[
        "corner", "--alpha", "pi/4", "--v0", "1,0", "--eps", "1", "--eps1", "1", "--eps2", "1",
        "--arith", "f64",
    ]);
    assert!(e.contains("--eps"), "{e}");
    let e = bad(&[
        "corner",
        "--alpha",
        "pi/16",
        "--v0",
        "1,0",
        "--eps",
        "1",
        "--arith",
        "quadratic",
    ]);
    assert!(e.contains("--alpha") && e.contains("tan(pi/16)"), "{e}");
    let e = bad(&[
        "corner",
        "--alpha",
        "pi/8",
        "--v0",
        "sqrt(3),1",
        "--eps",
        "1",
        "--arith",
        "quadratic",
    ]);
    assert!(e.contains("--v0") && e.contains("cannot mix"), "{e}");
    let e = bad(&[
        "corner",
        "--alpha",
        "pi/4",
        "--v0",
        "1,0",
        "--eps",
        "1",
        "--threshold",
        "1e-9",
        "--arith",
        "f64",
    ]);
    assert!(e.contains("--threshold") && e.contains("sa"), "{e}");
    let e = bad(&[
        "corner", "--alpha", "pi/4", "--v0", "1,0", "--eps", "1/2", "--form", "phi", "--arith",
        "f64",
    ]);
    assert!(e.contains("--form") && e.contains("ideal"), "{e}");
    let e = bad(&[
        "corner", "--alpha", "pi/4", "--v0", "1,0", "--eps1", "1/2", "--eps2", "1", "--form",
        "xieta", "--arith", "f64",
    ]);
    assert!(e.contains("--form"), "{e}");
    let e = bad(&[
        "corner",
        "--alpha",
        "pi/4",
        "--v0",
        "1,0",
        "--eps",
        "1",
        "--arith",
        "certified",
        "--max-bits",
        "5",
    ]);
    assert!(e.contains("--max-bits"), "{e}");
    let e = bad(&[
        "corner",
        "--alpha",
        "pi/4",
        "--v0",
        "1,0",
        "--eps",
        "1",
        "--max-steps",
        "many",
        "--arith",
        "f64",
    ]);
    assert!(e.contains("--max-steps"), "{e}");
}

/// Snapshot of corner runs: the paper's example on every backend, and runs of the
/// non-ideal and asymmetric rules (figures a1, b2 of Sect. 8 at ε = 1/2, exact).
#[test]
fn corner_snapshot() {
    let mut rows = Vec::new();
    let example = [
        "--alpha",
        "pi/4",
        "--v0",
        "1/sqrt(2),1/sqrt(2)",
        "--eps",
        "1",
    ];
    for arith in [
        "f64",
        "exact",
        "quadratic",
        "mpfr:64",
        "interval",
        "mpi:128",
        "certified",
    ] {
        for alg in ["ta", "sa"] {
            let mut a: Vec<&str> = example.to_vec();
            a.extend_from_slice(&["--arith", arith, "--algorithm", alg]);
            let (code, out, err) =
                run(&[&["corner"][..], &a, &["--format", "json", "--trace"]].concat());
            let cell = if code == 0 {
                serde_json::from_str::<serde_json::Value>(&out).unwrap()
            } else {
                serde_json::json!({"exit": code, "error": err.trim()})
            };
            rows.push(serde_json::json!({"case": "paper example", "arith": arith, "algorithm": alg, "out": cell}));
        }
    }
    let cases: [(&str, &[&str]); 4] = [
        (
            "a1: alpha=pi/6, tan(phi0)=k/2, eps=1/2",
            &["--alpha", "pi/6", "--v0", "1,tan(pi/6)/2", "--eps", "1/2"],
        ),
        (
            "a2: alpha=pi/6, tan(phi0)=k, eps=1/2",
            &["--alpha", "pi/6", "--v0", "1,tan(pi/6)", "--eps", "1/2"],
        ),
        (
            "asymmetric: alpha=pi/6, phi0=pi/12, eps1=0.999, eps2=0.001",
            &[
                "--alpha",
                "pi/6",
                "--v0",
                "1,tan(pi/12)",
                "--eps1",
                "0.999",
                "--eps2",
                "0.001",
            ],
        ),
        (
            "ideal, xieta form, k=1/5",
            &[
                "--alpha",
                "atan(1/5)",
                "--v0",
                "1,-1",
                "--eps",
                "1",
                "--form",
                "xieta",
            ],
        ),
    ];
    for (name, args) in cases {
        let mut a: Vec<&str> = vec!["corner"];
        a.extend_from_slice(args);
        a.extend_from_slice(&[
            "--arith",
            "quadratic",
            "--max-steps",
            "12",
            "--format",
            "json",
            "--trace",
        ]);
        let (code, out, err) = run(&a);
        assert_eq!(code, 0, "{name}: {err}");
        rows.push(serde_json::json!({"case": name, "arith": "quadratic", "out": serde_json::from_str::<serde_json::Value>(&out).unwrap()}));
    }
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_json_snapshot!("corner_runs", rows);
    });
}

/// Figures a1 and c2 of Sect. 8 as SVG text (exact runs in Q(√3), and MPFR intervals
/// for α = π/32, where tan α is not quadratic).
#[test]
fn corner_figures_snapshot() {
    let dir = std::env::temp_dir().join(format!("impactkit-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a1 = dir.join("a1.svg");
    let c2 = dir.join("c2.svg");
    let (code, _, err) = run(&[
        "corner",
        "--alpha",
        "pi/6",
        "--v0",
        "1,tan(pi/6)/2",
        "--eps",
        "1",
        "--algorithm",
        "sa",
        "--arith",
        "quadratic",
        "--svg",
        a1.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&[
        "corner",
        "--alpha",
        "pi/32",
        "--v0",
        "1,tan(pi/32)",
        "--eps",
        "1",
        "--algorithm",
        "sa",
        "--rest-threshold",
        "1e-9",
        "--arith",
        "mpi:128",
        "--svg",
        c2.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let a1 = std::fs::read_to_string(&a1).unwrap();
    let c2 = std::fs::read_to_string(&c2).unwrap();
    // 2 walls, v0 and 6 exit velocities, and in the legend v0 and the 6 exits
    assert_eq!(a1.matches("<line").count(), 2 + 1 + 6 + 1 + 6);
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("figure_a1_svg", a1);
        insta::assert_snapshot!("figure_c2_svg", c2);
    });
    let e = bad(&[
        "corner",
        "--alpha",
        "pi/6",
        "--v0",
        "1,0",
        "--eps",
        "1",
        "--arith",
        "f64",
        "--svg",
        "/nonexistent-dir/x.svg",
    ]);
    assert!(e.contains("--svg") && e.contains("cannot write"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cradle_cli() {
    let v = json(&[
        "cradle", "--balls", "3", "--eps", "0.9", "--v0", "100", "--arith", "exact", "--format",
        "json", "--trace",
    ]);
    assert_eq!(
        v["final"],
        serde_json::json!([{"exact": "381/80"}, {"exact": "399/80"}, {"exact": "361/4"}])
    );
    assert_eq!(v["iterations"], 3);
    assert_eq!(v["termination"], "exit");
    assert_eq!(v["trace"][0]["impacting"], serde_json::json!([1]));
    assert_eq!(v["trace"][0]["kind"], "single");
    let v = json(&[
        "cradle", "--balls", "3", "--eps", "0", "--v0", "100", "--sigma", "1e-7", "--arith",
        "exact", "--format", "json",
    ]);
    assert_eq!(v["termination"], "aeev");
    let v = json(&[
        "cradle",
        "--balls",
        "3",
        "--eps",
        "0",
        "--v0",
        "100",
        "--max-iter",
        "5",
        "--arith",
        "f64",
        "--format",
        "json",
    ]);
    assert_eq!(v["termination"], "max-iterations");
    assert_eq!(v["iterations"], 5);
    assert!(v.get("trace").is_none());
    // the work limit of exact runs: the velocities' digits, named in the report
    let v = json(&[
        "cradle",
        "--balls",
        "5",
        "--eps",
        "0",
        "--arith",
        "exact",
        "--max-digits",
        "100",
        "--format",
        "json",
    ]);
    assert_eq!(v["termination"], "work-limit");
    assert!(v["work_limit"].as_str().unwrap().contains("--max-digits"));
    let e = bad(&["cradle", "--balls", "1", "--eps", "1", "--arith", "exact"]);
    assert!(e.contains("--balls"), "{e}");
    let e = bad(&[
        "cradle", "--balls", "3", "--eps", "1,1,1", "--arith", "exact",
    ]);
    assert!(e.contains("--eps") && e.contains("one per contact"), "{e}");
    let e = bad(&["cradle", "--balls", "3", "--eps", "-1", "--arith", "exact"]);
    assert!(e.contains("--eps") && e.contains("[0, 1]"), "{e}");
    let e = bad(&[
        "cradle", "--balls", "3", "--eps", "1", "--masses", "1,0,1", "--arith", "exact",
    ]);
    assert!(e.contains("--masses") && e.contains("positive"), "{e}");
    let e = bad(&[
        "cradle", "--balls", "3", "--eps", "1", "--masses", "1,1", "--arith", "exact",
    ]);
    assert!(e.contains("--masses"), "{e}");
    let e = bad(&[
        "cradle", "--balls", "3", "--eps", "1", "--v0", "1,2", "--arith", "exact",
    ]);
    assert!(e.contains("--v0"), "{e}");
    let e = bad(&[
        "cradle",
        "--balls",
        "3",
        "--eps",
        "1",
        "--v0",
        "sqrt(2)",
        "--masses",
        "1,sqrt(3),1",
        "--arith",
        "quadratic",
    ]);
    assert!(e.contains("cannot mix"), "{e}");
    let e = bad(&["cradle", "--eps", "1", "--arith", "exact"]);
    assert!(e.contains("--balls"), "{e}");
}

/// Table 1 (exact and f64) and 4- and 5-ball cradles with mixed masses.
#[test]
fn cradle_snapshots() {
    let (code, exact, err) = run(&["cradle", "--table1", "--arith", "exact"]);
    assert_eq!(code, 0, "{err}");
    let (code, f64_table, err) = run(&["cradle", "--table1", "--arith", "f64"]);
    assert_eq!(code, 0, "{err}");
    let four = json(&[
        "cradle", "--balls", "4", "--eps", "1/2", "--masses", "1,2,3,1", "--v0", "3,1,0,-1",
        "--arith", "exact", "--format", "json", "--trace",
    ]);
    let five = json(&[
        "cradle",
        "--balls",
        "5",
        "--eps",
        "1,1/2,0,3/4",
        "--masses",
        "2,1,1,3,1/2",
        "--v0",
        "5",
        "--max-iter",
        "80",
        "--arith",
        "exact",
        "--format",
        "json",
        "--trace",
    ]);
    let five_f64 = json(&[
        "cradle",
        "--balls",
        "5",
        "--eps",
        "1,1/2,0,3/4",
        "--masses",
        "2,1,1,3,1/2",
        "--v0",
        "5",
        "--max-iter",
        "80",
        "--arith",
        "f64",
        "--format",
        "json",
        "--trace",
    ]);
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("cradle_table1_exact", exact);
        insta::assert_snapshot!("cradle_table1_f64", f64_table);
        insta::assert_json_snapshot!("cradle_4_balls_mixed_masses", four);
        insta::assert_json_snapshot!("cradle_5_balls_mixed_masses", serde_json::json!({"exact": five, "f64": five_f64}));
    });
}

#[test]
fn propagate_cli() {
    let base = [
        "propagate",
        "--masses",
        "1,1,1",
        "--normals",
        "-1,1,0;0,-1,1",
    ];
    let go = |more: &[&'static str]| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend_from_slice(more);
        a.extend_from_slice(&["--format", "json"]);
        json(&a)
    };
    let v = go(&["--momentum", "1,0,-1", "--arith", "exact"]);
    assert_eq!(v["outcomes"], serde_json::json!([exact(&["-1", "0", "1"])]));
    assert_eq!(v["sequences"], serde_json::json!([[1, 2, 1], [2, 1, 2]]));
    assert_eq!(v["unique"], true);
    assert_eq!(v["longest"], 3);
    let v = go(&["--momentum", "1,0,0", "--arith", "exact"]);
    assert_eq!(v["outcomes"], serde_json::json!([exact(&["0", "0", "1"])]));
    assert_eq!(v["sequences"], serde_json::json!([[1, 2]]));
    let v = go(&["--momentum", "1,0,0", "--arith", "interval"]);
    assert_eq!(v["sequences"], serde_json::json!([[1, 2]]));
    let e = bad(&[
        "propagate",
        "--masses",
        "1,1",
        "--normals",
        "-1,1,0",
        "--momentum",
        "1,0,0",
        "--arith",
        "exact",
    ]);
    assert!(e.contains("--momentum") || e.contains("--normals"), "{e}");
    let e = bad(&[
        "propagate",
        "--masses",
        "1,1,1",
        "--normals",
        "0,0,0",
        "--momentum",
        "1,0,0",
        "--arith",
        "exact",
    ]);
    assert!(e.contains("--normals") && e.contains("zero"), "{e}");
    let e = bad(&[
        "propagate",
        "--masses",
        "1,-1,1",
        "--normals",
        "-1,1,0",
        "--momentum",
        "1,0,0",
        "--arith",
        "exact",
    ]);
    assert!(e.contains("positive definite"), "{e}");
    let e = bad(&[
        "propagate",
        "--masses",
        "1,1,1",
        "--normals",
        "-1,1,0",
        "--momentum",
        "1,0,0",
        "--eps",
        "2",
        "--arith",
        "exact",
    ]);
    assert!(e.contains("--eps"), "{e}");
    let e = bad(&[
        "propagate",
        "--masses",
        "1,1,1",
        "--normals",
        "-1,1,0",
        "--momentum",
        "1,0,0",
        "--max-depth",
        "99",
        "--arith",
        "exact",
    ]);
    assert!(e.contains("--max-steps") && e.contains("1..=24"), "{e}");
    let unequal = json(&[
        "propagate",
        "--masses",
        "1,2,3",
        "--normals",
        "-1,1,0;0,-1,1",
        "--momentum",
        "1,0,-3",
        "--arith",
        "exact",
        "--format",
        "json",
    ]);
    assert_eq!(unequal["unique"], false);
    assert_eq!(unequal["schema"], "impactkit/1");
    assert_eq!(unequal["command"], "propagate");
    // text: the sequences, each outcome as a tuple, uniqueness and the bound
    let (code, text, _) = run(&[
        "propagate",
        "--masses",
        "1,3,1",
        "--normals",
        "-1,1,0;0,-1,1",
        "--momentum",
        "1,0,-1",
        "--arith",
        "exact",
        "--digits",
        "5",
    ]);
    assert_eq!(code, 0);
    assert!(text.contains("  u1 u2\n  u2 u1\n"), "{text}");
    assert!(text.contains("p+ = (-0.5, -0.75, 1.25)"), "{text}");
    assert!(text.contains("unique: no"), "{text}");
    assert!(
        text.contains("Theorem 1 bound pi/gamma: [4.7667, 4.7668]"),
        "{text}"
    );
    let (_, text, _) = run(&[
        "propagate",
        "--masses",
        "1,2,3",
        "--normals",
        "-1,1,0;0,-1,1",
        "--momentum",
        "1,0,-3",
        "--arith",
        "exact",
        "--exact-values",
    ]);
    assert!(text.contains("p+ = (-29/15, -44/75, 13/25)"), "{text}");
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_json_snapshot!("propagate_unequal_masses", unequal);
    });
}

/// The conventions of every command: help on a bare call, the schema in every JSON
/// document, text by default, a quiet closed pipe, `--svg -` on standard output.
#[test]
fn conventions_of_every_command() {
    let (code, out, _) = run(&[]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Usage") && out.contains("Conventions"),
        "{out}"
    );
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("--format text|json") && out.contains("--digits N"),
        "{out}"
    );
    let commands: [&[&str]; 10] = [
        &["eval", "1/3", "--arith", "exact"],
        &[
            "corner", "--alpha", "pi/4", "--v0", "1,0", "--eps", "1", "--arith", "exact",
        ],
        &["cradle", "--balls", "3", "--eps", "1", "--arith", "exact"],
        &["cradle", "--table1", "--arith", "f64"],
        &[
            "compare-cradle",
            "--eps",
            "1",
            "--v0",
            "2,0,-1",
            "--arith",
            "exact",
        ],
        &[
            "propagate",
            "--masses",
            "1,1,1",
            "--normals",
            "-1,1,0;0,-1,1",
            "--momentum",
            "1,0,0",
            "--arith",
            "exact",
        ],
        &["billiard-break", "--tan-quarter", "1/2", "--arith", "exact"],
        &["rods", "--velocities", "1,0,0"],
        &["sequential", "map", "--gamma", "-1,-1"],
        &["sequential", "check"],
    ];
    for args in commands {
        let (code, text, err) = run(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            !text.trim_start().starts_with('{'),
            "{args:?} prints text by default: {text}"
        );
        let mut a = args.to_vec();
        a.extend_from_slice(&["--format", "json"]);
        let v = json(&a);
        assert_eq!(v["schema"], "impactkit/1", "{args:?}");
        assert_eq!(v["version"], env!("CARGO_PKG_VERSION"), "{args:?}");
    }
    // a reader that goes away (`| head -c0`) ends the program quietly
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_impactkit"))
        .args([
            "cradle", "--balls", "40", "--eps", "1", "--arith", "exact", "--trace",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    // --svg - writes the figure to standard output
    let (code, svg, err) = run(&[
        "corner", "--alpha", "pi/4", "--v0", "1,1/2", "--eps", "1", "--arith", "f64", "--svg", "-",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        svg.trim_start().starts_with("<svg") || svg.trim_start().starts_with("<?xml"),
        "{svg}"
    );
    assert!(!std::path::Path::new("-").exists());
}

/// `corner --arith symbolic`: one step of (13b) in closed form, checked against the
/// paper's coefficients a = (1 − εk²)/(1 + k²), b = (1 + ε)k/(1 + k²), c = (ε − k²)/(1 + k²).
#[test]
fn corner_symbolic_step() {
    let v = json(&[
        "corner", "--alpha", "atan(k)", "--v0", "x,y", "--eps", "e", "--arith", "symbolic",
        "--format", "json",
    ]);
    assert_eq!(v["steps"][0]["zone"], "Z1");
    let got = |i: usize| {
        v["steps"][0]["velocity"][i]["exact"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let same = |a: &str, b: &str| {
        let subs: [(String, String); 0] = [];
        matches!(
            impactkit::lang::identical(a, b, &subs),
            Ok(impactkit::arith::symbolic::IdentityOutcome::Identical)
        )
    };
    assert!(
        same(&got(0), "((1-e*k^2)*x + (1+e)*k*y)/(1+k^2)"),
        "{}",
        got(0)
    );
    assert!(
        same(&got(1), "((1+e)*k*x - (e-k^2)*y)/(1+k^2)"),
        "{}",
        got(1)
    );
    let e = bad(&[
        "corner", "--alpha", "pi/4", "--v0", "x,y", "--eps", "1", "--arith", "symbolic",
    ]);
    assert!(e.contains("--alpha") && e.contains("atan"), "{e}");
}

/// `cradle --arith certified`: at ε = 3 − 2√2 (the boundary between three and four
/// impulses, Pasquero Sect. 4.1) every enclosure leaves a sign undecided and only Q(√2)
/// decides; at ε = 1/2 the intervals suffice.
#[test]
fn cradle_certified() {
    let v = json(&[
        "cradle",
        "--balls",
        "3",
        "--eps",
        "3-2*sqrt(2)",
        "--arith",
        "certified",
        "--format",
        "json",
    ]);
    assert_eq!(v["certified_by"], "quadratic");
    assert_eq!(v["iterations"], 3);
    let attempts = v["attempts"].as_array().unwrap();
    assert!(attempts[0]["outcome"]
        .as_str()
        .unwrap()
        .starts_with("undecided"));
    assert!(attempts.last().unwrap()["outcome"]
        .as_str()
        .unwrap()
        .starts_with("skipped"));
    let v = json(&[
        "cradle",
        "--balls",
        "3",
        "--eps",
        "1/2",
        "--arith",
        "certified",
        "--format",
        "json",
    ]);
    assert_eq!(v["certified_by"], "interval");
    let e = bad(&["cradle", "--table1", "--arith", "certified"]);
    assert!(e.contains("--arith"), "{e}");
}

/// `corner --v0 "x1,y1;x2,y2"` runs one TA run per entrance velocity (α = π/4, ε = 1: one
/// multiple impact (3d) gives (−x, −y) for these two), with a bound on the batch; and the
/// work limit of exact runs stops a run and names `--max-digits`.
#[test]
fn corner_batches_and_work_limit() {
    let v = json(&[
        "corner",
        "--alpha",
        "pi/4",
        "--v0",
        "1,0;1,1/2",
        "--eps",
        "1",
        "--arith",
        "exact",
        "--format",
        "json",
    ]);
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(
        runs[0]["final"],
        serde_json::json!([{"exact": "-1"}, {"exact": "0"}])
    );
    assert_eq!(
        runs[1]["final"],
        serde_json::json!([{"exact": "-1"}, {"exact": "-1/2"}])
    );
    let e = bad(&[
        "corner", "--alpha", "pi/4", "--v0", "1,0;", "--eps", "1", "--arith", "exact",
    ]);
    assert!(e.contains("--v0"), "{e}");
    let many = vec!["1,0"; 10_001].join(";");
    let e = bad(&[
        "corner", "--alpha", "pi/4", "--v0", &many, "--eps", "1", "--arith", "exact",
    ]);
    assert!(e.contains("--v0") && e.contains("at most 10000"), "{e}");
    // W1 with a work limit of 500 digits: stops at step 36 with 516 digits
    let v = json(&[
        "corner",
        "--alpha",
        "atan(1/1000)",
        "--v0",
        "1000,1/2",
        "--eps",
        "99/100",
        "--form",
        "xieta",
        "--arith",
        "exact",
        "--max-digits",
        "500",
        "--format",
        "json",
    ]);
    assert_eq!(v["termination"], "work-limit");
    assert_eq!(v["steps"], 36);
    assert!(v["work_limit"].as_str().unwrap().contains("516 digits"));
    assert!(bad(&["eval", "1", "--arith", "exact", "--digits", "0"]).contains("--digits"));
    let e = bad(&[
        "corner", "--alpha", "atan(k)", "--v0", "x,y", "--eps", "1", "--arith", "symbolic",
        "--trace",
    ]);
    assert!(e.contains("--arith"), "{e}");
}

/// One grammar (issue 37): a command that draws SVG only refuses another extension before
/// any work, a command drawn with plotters takes .svg or .png only, and only `verify`
/// offers `--format markdown`.
#[test]
fn svg_extensions_and_formats_are_each_commands_own() {
    let corner = [
        "corner", "--alpha", "pi/6", "--v0", "1,1", "--eps", "1", "--arith", "f64",
    ];
    let mut png = corner.to_vec();
    png.extend(["--svg", "figure.png"]);
    let e = bad(&png);
    assert!(e.contains("--svg") && e.contains("draws SVG only"), "{e}");
    // commands drawn with plotters write SVG or PNG, and refuse anything else
    let e = bad(&[
        "step", "--system", "x.toml", "--dt", "1/10", "--steps", "1", "--svg", "a.pdf",
    ]);
    assert!(
        e.contains("--svg") && e.contains("ending in .svg or .png"),
        "{e}"
    );
    let mut md = corner.to_vec();
    md.extend(["--format", "markdown"]);
    assert!(bad(&md).contains("markdown"));
    let (code, help, _) = run(&["corner", "--help"]);
    assert_eq!(code, 0);
    assert!(!help.contains("markdown"), "{help}");
    let (_, help, _) = run(&["verify", "--help"]);
    assert!(help.contains("markdown"));
}
