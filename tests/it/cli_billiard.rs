//! `impactkit billiard-break`: one geometry exactly, the Fig. 5 sweep and its minima, the
//! SVG, and bad input.

use crate::common::{bad, exact, json, run};

#[test]
fn one_rational_geometry_exactly() {
    let v = json(&[
        "billiard-break",
        "--tan-quarter",
        "1/3",
        "--arith",
        "exact",
        "--format",
        "json",
    ]);
    assert_eq!(v["schema"], "impactkit/1");
    assert_eq!(v["command"], "billiard-break");
    assert_eq!(v["cos_theta"]["exact"], "7/25");
    assert_eq!(v["inner_product"]["exact"], "7/675");
    assert_eq!(v["cos_theta_over_mc"]["exact"], "7/675");
    assert_eq!(v["printed_31_middle"]["exact"], "-7/675");
    assert_eq!(v["sequence_ab"], "ab");
    assert_eq!(v["xi_squared"]["exact"], "198/2734375");
    // ξ is irrational here: a rigorous enclosure
    let lo: f64 = v["xi"]["lo"].as_str().unwrap().parse().unwrap();
    let hi: f64 = v["xi"]["hi"].as_str().unwrap().parse().unwrap();
    let x = (198.0f64 / 2734375.0).sqrt();
    assert!(lo <= x && x <= hi && hi - lo < 1e-30, "{lo} {hi}");
    // text: labelled lines, --digits honoured, the enclosure of ξ as [lo, hi]
    let (code, text, _) = run(&[
        "billiard-break",
        "--tan-quarter",
        "1/3",
        "--arith",
        "exact",
        "--digits",
        "4",
    ]);
    assert_eq!(code, 0);
    assert!(text.contains("cos theta: 0.28\n"), "{text}");
    assert!(
        text.contains("(31) middle, as printed: -0.01037\n"),
        "{text}"
    );
    assert!(text.contains("xi: [0.008509, 0.00851]"), "{text}");
}

#[test]
fn right_angle_has_no_indeterminacy() {
    let v = json(&[
        "billiard-break",
        "--theta",
        "pi/2",
        "--arith",
        "quadratic",
        "--format",
        "json",
    ]);
    assert_eq!(v["xi"]["exact"], "0");
    assert_eq!(v["p_ab"], v["p_ba"]);
    assert_eq!(v["p_ab"][4]["exact"], "351/14");
    let v = json(&[
        "billiard-break",
        "--theta",
        "2*pi/3",
        "--radii",
        "1,1,1",
        "--arith",
        "quadratic",
        "--format",
        "json",
    ]);
    assert_eq!(v["xi"]["exact"], "1/4*sqrt(5)");
}

#[test]
fn sweep_reproduces_the_two_minima_of_figure_5() {
    let dir = std::env::temp_dir().join(format!("impactkit-fig5-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("fig5.svg");
    for arith in ["interval", "f64", "mpi:128"] {
        let v = json(&[
            "billiard-break",
            "--sweep",
            "24",
            "--arith",
            arith,
            "--svg",
            svg.to_str().unwrap(),
            "--format",
            "json",
        ]);
        assert_eq!(
            v["local_minima_theta_over_pi"],
            exact(&["1/2", "1"]),
            "{arith}"
        );
        // θ < θ_min ≈ 0.161π (radii 1, 1, 3) are skipped: θ = 0, π/24, π/12, π/8
        assert_eq!(v["skipped_overlapping"], 4);
        assert_eq!(v["points"][0]["theta_over_pi"]["exact"], "1/6");
    }
    // text: one line per θ, and the minima
    let (code, text, _) = run(&["billiard-break", "--sweep", "24", "--arith", "f64"]);
    assert_eq!(code, 0);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("theta = ")).count(),
        21
    );
    assert!(
        text.contains("theta = 1/6*pi: xi = 0.0314405433841"),
        "{text}"
    );
    assert!(
        text.trim_end()
            .ends_with("local minima of xi: theta = 1/2*pi, 1*pi"),
        "{text}"
    );
    // --svg - writes the figure, not the report
    let (code, out, _) = run(&[
        "billiard-break",
        "--sweep",
        "24",
        "--arith",
        "f64",
        "--svg",
        "-",
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with("<svg") && out.contains("θ = π/2"), "{out}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("θ = π/2") && text.contains("θ = π"));
    let v = json(&[
        "billiard-break",
        "--sweep",
        "24",
        "--arith",
        "interval",
        "--format",
        "json",
    ]);
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_json_snapshot!("billiard_sweep_interval", v);
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_exits_2() {
    let e = bad(&["billiard-break", "--theta", "pi/8", "--arith", "f64"]);
    assert!(e.contains("overlap"), "{e}");
    let e = bad(&["billiard-break", "--theta", "pi/2", "--arith", "exact"]);
    assert!(e.contains("--theta") && e.contains("quadratic"), "{e}");
    let e = bad(&["billiard-break", "--arith", "exact"]);
    assert!(e.contains("--theta"), "{e}");
    let e = bad(&[
        "billiard-break",
        "--theta",
        "1",
        "--radii",
        "1,0,1",
        "--arith",
        "f64",
    ]);
    assert!(e.contains("r_b must be positive"), "{e}");
    let e = bad(&[
        "billiard-break",
        "--theta",
        "1",
        "--radii",
        "1,1",
        "--arith",
        "f64",
    ]);
    assert!(e.contains("--radii"), "{e}");
    let e = bad(&[
        "billiard-break",
        "--theta",
        "1",
        "--svg",
        "x.svg",
        "--arith",
        "f64",
    ]);
    assert!(e.contains("--svg"), "{e}");
    let e = bad(&["billiard-break", "--sweep", "1", "--arith", "f64"]);
    assert!(e.contains("--sweep"), "{e}");
    let e = bad(&[
        "billiard-break",
        "--theta",
        "pi/2",
        "--sweep",
        "4",
        "--arith",
        "f64",
    ]);
    assert!(e.contains("--sweep") || e.contains("--theta"), "{e}");
}
