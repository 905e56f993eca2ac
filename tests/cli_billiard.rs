//! `impactkit billiard-break`: one geometry exactly, the Fig. 5 sweep and its minima, the
//! SVG, and bad input.

mod common;
use common::{bad, json};

#[test]
fn one_rational_geometry_exactly() {
    let v = json(&["billiard-break", "--tan-quarter", "1/3", "--arith", "exact"]);
    assert_eq!(v["cos_theta"], "7/25");
    assert_eq!(v["inner_product"], "7/675");
    assert_eq!(v["cos_theta_over_mc"], "7/675");
    assert_eq!(v["printed_31_middle"], "-7/675");
    assert_eq!(v["sequence_ab"], "ab");
    assert_eq!(v["xi_squared"], "198/2734375");
    // ξ is irrational here: a rigorous enclosure
    let lo: f64 = v["xi"]["lo"].as_str().unwrap().parse().unwrap();
    let hi: f64 = v["xi"]["hi"].as_str().unwrap().parse().unwrap();
    let x = (198.0f64 / 2734375.0).sqrt();
    assert!(lo <= x && x <= hi && hi - lo < 1e-30, "{lo} {hi}");
}

#[test]
fn right_angle_has_no_indeterminacy() {
    let v = json(&["billiard-break", "--theta", "pi/2", "--arith", "quadratic"]);
    assert_eq!(v["xi"], "0");
    assert_eq!(v["p_ab"], v["p_ba"]);
    assert_eq!(v["p_ab"][4], "351/14");
    let v = json(&[
        "billiard-break",
        "--theta",
        "2*pi/3",
        "--radii",
        "1,1,1",
        "--arith",
        "quadratic",
    ]);
    assert_eq!(v["xi"], "1/4*sqrt(5)");
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
        ]);
        assert_eq!(
            v["local_minima_theta_over_pi"],
            serde_json::json!(["1/2", "1"]),
            "{arith}"
        );
        // θ < θ_min ≈ 0.161π (radii 1, 1, 3) are skipped: θ = 0, π/24, π/12, π/8
        assert_eq!(v["skipped_overlapping"], 4);
        assert_eq!(v["points"][0]["theta_over_pi"], "1/6");
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("θ = 1/2π") && text.contains("θ = 1π"));
    let v = json(&["billiard-break", "--sweep", "24", "--arith", "interval"]);
    insta::with_settings!({ snapshot_path => "../snapshots", prepend_module_to_snapshot => false }, {
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
