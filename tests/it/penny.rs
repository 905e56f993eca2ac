//! `impactkit penny`: the bouncing penny of Clark & Bloch (Sect. V–VI) — one impact
//! through the three maps exactly, runs on the table with certified impact times, the
//! figures, and bad input.

use crate::common::{bad, exact, json, run};

/// The head-on impact, worked by hand (Table I: m = 1/400, R = 1/100,
/// I = 1/8000000, J = 1/16000000; φ = 0, θ̇ = 10, so ẋ = Rθ̇ = 1/10, on the wall
/// x = 1/5): P reverses ẋ and keeps θ̇ (C = −2mẋ = −1/2000); the elastic map reverses the
/// rolling (α = −2θ̇(I + mR²)/R = −3/4000); the plastic map π_Δ∘P gives θ̇ = (mRẋ⁺ +
/// Iθ̇)/(I + mR²) = −10/3, not 0, and keeps 1/9 of the energy 3/160000.
#[test]
fn head_on_three_maps_exactly() {
    let v = json(&[
        "penny", "impact", "--wall", "x=1/5", "--phi", "0", "--rates", "10,0", "--law", "all",
        "--arith", "exact", "--format", "json",
    ]);
    assert_eq!(v["command"], "penny impact");
    assert_eq!(v["qdot"], exact(&["1/10", "0", "10", "0"]));
    assert_eq!(v["energy"]["exact"], "3/160000");
    assert_eq!(v["position"], exact(&["19/100", "0"]));
    let laws = v["laws"].as_array().unwrap();
    let (p, e, pl) = (&laws[0], &laws[1], &laws[2]);
    assert_eq!(p["law"], "p");
    assert_eq!(p["qdot"], exact(&["-1/10", "0", "10", "0"]));
    assert_eq!(p["C"]["exact"], "-1/2000");
    assert_eq!(p["in_distribution"], false);
    assert_eq!(p["theta_dot_unchanged"], true);
    assert_eq!(e["law"], "elastic");
    assert_eq!(e["qdot"], exact(&["-1/10", "0", "-10", "0"]));
    assert_eq!(e["alpha"]["exact"], "-3/4000");
    assert_eq!(e["lambda"], exact(&["1/4000", "0"]));
    assert_eq!(e["energy_conserved"], true);
    assert_eq!(pl["law"], "plastic");
    assert_eq!(pl["qdot"], exact(&["-1/30", "0", "-10/3", "0"]));
    assert_eq!(pl["energy"]["exact"], "1/480000");
    assert_eq!(pl["energy_conserved"], false);
    for l in laws {
        assert_eq!(l["admissible"], true);
        assert_eq!(l["invariant_conserved"], true);
    }
    // p_θ = Iθ̇ along the symmetry θ: kept by P only; p_y (the wall x = 1/5) by all
    let conserved = |l: &serde_json::Value, c: &str| {
        l["momentum"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["coordinate"] == c)
            .unwrap()["conserved"]
            .clone()
    };
    assert_eq!(conserved(p, "theta"), true);
    assert_eq!(conserved(e, "theta"), false);
    assert_eq!(conserved(pl, "theta"), false);
    assert!(laws.iter().all(|l| conserved(l, "y") == true));
}

/// An oblique impact on the ellipse (35) at a rational heading: energy exactly conserved
/// by P and the elastic map, the tangential invariant g(q̇, t) kept by all three, and
/// the same numbers enclosed by MPFR intervals.
#[test]
fn oblique_on_the_ellipse_exact_and_enclosed() {
    let args = |arith: &'static str| {
        vec![
            "penny",
            "impact",
            "--ellipse",
            "3/20,1/5",
            "--point",
            "3/20,0",
            "--heading",
            "3/5,4/5",
            "--rates",
            "10,1/5",
            "--arith",
            arith,
            "--format",
            "json",
        ]
    };
    let v = json(&args("exact"));
    for l in v["laws"].as_array().unwrap() {
        assert_eq!(l["invariant_conserved"], true, "{}", l["law"]);
        assert_eq!(l["admissible"], true);
    }
    assert_eq!(v["laws"][0]["energy_conserved"], true);
    assert_eq!(v["laws"][1]["energy_conserved"], true);
    assert_eq!(v["laws"][1]["in_distribution"], true);
    let m = json(&args("mpi:128"));
    for (le, lm) in v["laws"]
        .as_array()
        .unwrap()
        .iter()
        .zip(m["laws"].as_array().unwrap())
    {
        for (x, enc) in le["qdot"]
            .as_array()
            .unwrap()
            .iter()
            .zip(lm["qdot"].as_array().unwrap())
        {
            let q: Vec<f64> = x["exact"]
                .as_str()
                .unwrap()
                .split('/')
                .map(|s| s.parse().unwrap())
                .collect();
            let val = if q.len() == 2 { q[0] / q[1] } else { q[0] };
            let lo: f64 = enc["lo"].as_str().unwrap().parse().unwrap();
            let hi: f64 = enc["hi"].as_str().unwrap().parse().unwrap();
            assert!(lo <= val * (1.0 + 1e-15) + 1e-300 && val * (1.0 - 1e-15) - 1e-300 <= hi);
        }
    }
}

/// Sect. VI-A on the circular table, elastic, 20 impacts at 128 bits: every enclosure
/// below 1e-20, the first impact agrees with its exact algebraic value (Q(√3840799)).
#[test]
fn circle_elastic_run_certified() {
    let v = json(&[
        "penny",
        "run",
        "--table",
        "circle",
        "--law",
        "elastic",
        "--impacts",
        "20",
        "--arith",
        "mpi:128",
        "--format",
        "json",
    ]);
    assert_eq!(v["events"], "certified");
    assert_eq!(v["impacts"].as_array().unwrap().len(), 20);
    assert_eq!(v["stop"]["kind"], "done");
    assert!(v["max_width"].as_f64().unwrap() < 1e-20);
    let e = &v["exact_first_impact"];
    assert_eq!(e["contained"], true);
    assert_eq!(e["end"], "front");
    assert_eq!(e["point"][0]["exact"], "-399/10000");
    let t: f64 = v["impacts"][0]["time"]["lo"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((t - 1.913_388_210_255_473).abs() < 1e-12);
}

/// The four runs of Sect. VI-A: their first two impacts (text), as a snapshot.
#[test]
fn four_runs_first_impacts() {
    let mut all = String::new();
    for table in ["circle", "ellipse"] {
        for law in ["elastic", "plastic"] {
            let (code, out, err) = run(&[
                "penny",
                "run",
                "--table",
                table,
                "--law",
                law,
                "--impacts",
                "2",
                "--digits",
                "12",
            ]);
            assert_eq!(code, 0, "{err}");
            all += &format!("$ penny run --table {table} --law {law} --impacts 2\n{out}\n");
        }
    }
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("penny_four_runs", all);
    });
}

/// f64 (sampled events) and exact (the algebraic first impact) runs; the figure.
#[test]
fn other_backends_and_figure() {
    let v = json(&[
        "penny",
        "run",
        "--table",
        "circle",
        "--law",
        "plastic",
        "--impacts",
        "5",
        "--arith",
        "f64",
        "--format",
        "json",
    ]);
    assert_eq!(v["events"], "sampled");
    assert_eq!(v["impacts"].as_array().unwrap().len(), 5);
    let v = json(&[
        "penny",
        "run",
        "--table",
        "circle",
        "--law",
        "elastic",
        "--impacts",
        "3",
        "--arith",
        "quadratic",
        "--format",
        "json",
    ]);
    // on the circle every later impact point stays in Q(sqrt D)
    assert_eq!(v["events"], "algebraic");
    assert_eq!(v["impacts"].as_array().unwrap().len(), 3);
    assert_eq!(v["stop"]["kind"], "done");
    assert_eq!(v["impacts"][0]["point"][0]["exact"], "-399/10000");
    let dir = std::env::temp_dir().join(format!("impactkit-penny-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for ext in ["svg", "png"] {
        let path = dir.join(format!("fig.{ext}"));
        let (code, _, err) = run(&[
            "penny",
            "run",
            "--table",
            "ellipse",
            "--law",
            "elastic",
            "--impacts",
            "4",
            "--svg",
            path.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(std::fs::metadata(&path).unwrap().len() > 1000);
    }
    let (code, out, _) = run(&[
        "penny",
        "run",
        "--table",
        "circle",
        "--law",
        "elastic",
        "--impacts",
        "2",
        "--svg",
        "-",
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with("<svg") && out.contains("front end hits the edge"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input() {
    for (args, option) in [
        (
            "penny impact --wall x=1/5 --phi 0 --rates 10,0 --mass 0",
            "--mass",
        ),
        (
            "penny impact --wall x=1/5 --phi 0 --rates 10,0 --inertia -1",
            "--inertia",
        ),
        ("penny impact --wall x=1/5 --phi 0 --rates -10,0", "--rates"),
        (
            "penny impact --wall x=1/5 --phi 0 --qdot 1,1,10,0",
            "--qdot",
        ),
        ("penny impact --wall x=1/5 --phi 0 --rates 10", "--rates"),
        (
            "penny impact --wall x=1/5 --phi 0 --rates 1e400,0 --arith f64",
            "--rates",
        ),
        (
            "penny impact --wall x=1/5 --heading 1,1 --rates 10,0",
            "--heading",
        ),
        (
            "penny impact --ellipse 1,1 --point 1,1 --phi 0 --rates 10,0",
            "--point",
        ),
        ("penny impact --ellipse 1,1 --phi 0 --rates 10,0", "--point"),
        ("penny impact --wall x*y=1 --phi 0 --rates 10,0", "--wall"),
        ("penny impact --wall 0*x=1 --phi 0 --rates 10,0", "--wall"),
        ("penny run --law elastic --impacts 0", "--impacts"),
        ("penny run --law elastic --a -1", "--a"),
        ("penny run --law elastic --x0 1", "--x0"),
        ("penny run --table circle --law elastic --b 1/10", "--b"),
        ("penny run --law elastic --phi0 zzz", "--phi0"),
        ("penny run --law elastic --spin-inertia 0", "--spin-inertia"),
    ] {
        let args: Vec<&str> = args.split_whitespace().collect();
        let err = bad(&args);
        assert!(err.contains(option), "{option}: {err}");
    }
}

/// Fig. 5 made deterministic: a 2×2 grid of offsets; runs that differ only in θ₀ end at
/// the same place (θ enters neither the flow (26) of (x, y, φ) nor any impact map).
#[test]
fn spread_theta0_does_not_matter() {
    let v = json(&[
        "penny", "spread", "--law", "elastic", "--runs", "4", "--times", "5,20", "--format", "json",
    ]);
    assert_eq!(v["command"], "penny spread");
    let pos = v["positions"].as_array().unwrap();
    assert_eq!(pos.len(), 2);
    for cloud in pos {
        let c = cloud.as_array().unwrap();
        assert_eq!(c.len(), 4);
        // runs i and i + 2 share φ̇₀ and differ in θ₀
        assert_eq!(c[0], c[2]);
        assert_eq!(c[1], c[3]);
        assert_ne!(c[0], c[1]);
    }
    let err = bad(&["penny", "spread", "--law", "elastic", "--runs", "5"]);
    assert!(err.contains("--runs"), "{err}");
    let err = bad(&["penny", "spread", "--law", "elastic", "--times", "1e9"]);
    assert!(err.contains("--times"), "{err}");
}

/// The claims on Figs. 1–4 (certified runs of Sect. VI-A): proved; a figure read with
/// the wrong energy behaviour is refuted.
#[test]
fn figure_claims() {
    use crate::common::claims::{load, mutant_refuted};
    use impactkit::claims::{check, Verdict};
    for n in 1..=4 {
        let (_, c) = load(&format!("proofs/cb/cb-fig{n}.toml"));
        let o = check(&c, std::time::Duration::from_secs(120));
        assert_eq!(o.verdict, Verdict::Proved, "cb-fig{n}: {}", o.detail);
    }
    // the plastic penny does not keep its energy, the elastic one does not lose it
    mutant_refuted(
        "proofs/cb/cb-fig2.toml",
        "\"energy_drops == 1\"",
        "\"energy_kept == 1\"",
    );
    mutant_refuted(
        "proofs/cb/cb-fig3.toml",
        "\"energy_kept == 1\"",
        "\"energy_drops == 1\"",
    );
}

/// Fixed inputs are reported as given, exactly, on every backend (issue 37): a = 0.15 is
/// 3/20, not an enclosure of it; cos(π/16) is the algebraic number, not its rounding.
#[test]
fn inputs_are_reported_exactly_on_every_backend() {
    for arith in ["mpi:64", "interval", "f64"] {
        let r = json(&[
            "penny",
            "run",
            "--table",
            "ellipse",
            "--law",
            "elastic",
            "--impacts",
            "1",
            "--arith",
            arith,
            "--format",
            "json",
        ]);
        assert_eq!(r["a"]["exact"], "3/20", "{arith}");
        assert_eq!(r["inertia"]["exact"], "1/8000000", "{arith}");
        assert_eq!(r["initial"][6]["exact"], "1/5", "{arith}");
    }
    let r = json(&[
        "penny", "impact", "--wall", "x=1/5", "--phi", "pi/16", "--rates", "10,0", "--arith",
        "interval", "--format", "json",
    ]);
    assert_eq!(r["mass"]["exact"], "1/400");
    assert!(
        r["heading"][0]["exact"]
            .as_str()
            .unwrap()
            .contains("cos(pi/16)"),
        "{r}"
    );
}
