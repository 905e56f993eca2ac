//! Winandy–Leine (2017): the Sequential Impact Law constructed from P1–P3, its checks,
//! Newton/Poisson, and the thin-rod model. Expected values computed by hand (see the
//! comments) and with an independent Python/fractions script.

use crate::common::{exact, run};

use impactkit::arith::Rational;
use impactkit::law::sequential::checks::check_all;
use impactkit::law::sequential::classic::{newton, poisson};
use impactkit::law::sequential::cycles::{abc_cycle, cycle_through};
use impactkit::law::sequential::{construct, construct_law, Cradle, Vec2};

fn q(n: i64, d: i64) -> Rational {
    Rational::new(n, d)
}
fn r(n: i64) -> Rational {
    q(n, 1)
}
fn v(a: i64, b: i64) -> Vec2<Rational> {
    [r(a), r(b)]
}
fn m(a: [[i64; 2]; 2]) -> [[Rational; 2]; 2] {
    [[r(a[0][0]), r(a[0][1])], [r(a[1][0]), r(a[1][1])]]
}
fn ones() -> [Rational; 3] {
    [r(1), r(1), r(1)]
}

#[test]
fn equal_masses_give_eq_23() {
    let law = construct_law(&ones()).unwrap();
    let names: Vec<&str> = law.cones.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["I", "IIa", "IIb", "III", "IVb", "IVa"]);
    let expect = [
        ("I", [[1, 0], [0, 1]]),
        ("IIa", [[-1, 0], [1, 1]]),
        ("IIb", [[0, 1], [-1, -1]]),
        ("III", [[0, -1], [-1, 0]]),
        ("IVa", [[1, 1], [0, -1]]),
        ("IVb", [[-1, -1], [1, 0]]),
    ];
    for (name, mat) in expect {
        assert_eq!(law.cone(name).unwrap().q, m(mat), "{name}");
    }
    // eq. (22): the boundary after II_a is (-1, 1); III is the third quadrant
    assert_eq!(law.cone("IIa").unwrap().to, v(-1, 1));
    assert_eq!(law.cone("III").unwrap().from, v(-1, 0));
    assert_eq!(law.cone("III").unwrap().to, v(0, -1));
}

#[test]
fn map_of_eq_36() {
    let law = construct_law(&ones()).unwrap();
    let cradle = Cradle::new(&ones()).unwrap();
    let e = law.apply(&v(-2, -1)).unwrap();
    assert_eq!(e.name, "III");
    assert_eq!(e.gamma_plus, v(1, 2));
    // Λ = G⁻¹(γ⁺ − γ⁻) = 1/3 [[2,1],[1,2]] (3,3) = (3,3)
    assert_eq!(cradle.impulse(&v(-2, -1), &e.gamma_plus), v(3, 3));
    // eq. (26): in II_a, Λ = (−m γ₁⁻, 0)
    let e = law.apply(&v(-1, 3)).unwrap();
    assert_eq!(e.name, "IIa");
    assert_eq!(cradle.impulse(&v(-1, 3), &e.gamma_plus), v(1, 0));
}

#[test]
fn abc_cycle_of_45_to_49() {
    let law = construct_law(&ones()).unwrap();
    let cradle = Cradle::new(&ones()).unwrap();
    let c = abc_cycle(&law, &cradle, &r(1)).unwrap();
    assert_eq!(c.gamma_plus, vec![v(1, 1), v(0, 1), v(0, 0)]); // (46)
    assert_eq!(
        c.gamma_bar,
        vec![[q(-1, 2), r(1)], [q(-1, 2), q(1, 2)], v(0, 0)]
    ); // (47)
    assert_eq!(c.lambda, vec![v(2, 1), v(1, 1), v(0, 0)]); // (48)
    assert_eq!(c.lambda_sum, q(-1, 2)); // (49): −m v²/2
    assert_eq!(c.sum, q(1, 2));
    assert!(c.violates().unwrap());
    // v = 3: the sum scales with v²
    assert_eq!(
        abc_cycle(&law, &cradle, &r(3)).unwrap().lambda_sum,
        q(-9, 2)
    );
}

#[test]
fn all_checks_equal_masses() {
    let law = construct_law(&ones()).unwrap();
    let cradle = Cradle::new(&ones()).unwrap();
    let rep = check_all(&law, &cradle, 300, 7).unwrap();
    assert!(rep.continuous && rep.energy_conserving && rep.factorises);
    assert!(rep.kinematically_consistent && rep.kinetically_consistent);
    assert!(rep.cones.iter().all(|c| c.onto_first_quadrant));
    assert_eq!(rep.rays.len(), 6);
    assert!(rep.non_expansive.proved);
    assert!(rep.non_expansive.counterexample.is_none());
    assert!(rep.non_expansive.monotone_counterexample.is_none());
    assert!(rep.non_expansive.split_samples > 100);
    // the paper's (24) among the words
    let f = |cone: &str, word: &str| {
        rep.factorisation
            .iter()
            .any(|x| x.cone == cone && x.word == word && x.ok)
    };
    assert!(f("IIb", "IVa·IIa") && f("IVb", "IIa·IVa"));
    assert!(f("III", "IVa·IIa·IVa") && f("III", "IIa·IVa·IIa"));
    // a violation of (18), re-evaluated independently
    let cyc = rep.cyclic.unwrap();
    assert!(cyc.violates().unwrap());
    let again = cycle_through(&law, &cradle, &cyc.gamma_minus).unwrap();
    assert_eq!(again.sum, cyc.sum);
    assert_eq!(cyc.gamma_minus, vec![v(-2, 0), v(0, 0), v(-2, 2)]);
    assert_eq!(cyc.sum, r(2));
}

#[test]
fn unequal_masses() {
    // (1,2,1): cos²θ = 1/9, six cones reach e1 but the sixth overlaps C_I
    let c = construct(&[r(1), r(2), r(1)], 64).unwrap();
    assert_eq!(c.cradle.cos2_theta().unwrap(), q(1, 9));
    assert!(!c.closes);
    assert_eq!(c.cones.len(), 6);
    assert_eq!(c.last_image_of_e1, [q(11, 81), q(230, 243)]);
    assert!(construct_law(&[r(1), r(2), r(1)]).is_err());
    // (1,1,2) and (2,1,1): cos²θ = 1/3, seven cones, no closure
    for (ms, img) in [
        ([r(1), r(1), r(2)], [q(13, 27), q(5, 9)]),
        ([r(2), r(1), r(1)], [q(13, 27), q(20, 27)]),
    ] {
        let c = construct(&ms, 64).unwrap();
        assert_eq!(c.cradle.cos2_theta().unwrap(), q(1, 3));
        assert!(!c.closes);
        assert_eq!(c.cones.len(), 7);
        assert_eq!(c.last_image_of_e1, img);
    }
    // (3/5,1,2): cos²θ = 1/4, closes with six cones; III = [[0,−4/3],[−3/4,0]]
    let law = construct_law(&[q(3, 5), r(1), r(2)]).unwrap();
    assert_eq!(law.cones.len(), 6);
    assert_eq!(
        law.cone("III").unwrap().q,
        [[r(0), q(-4, 3)], [q(-3, 4), r(0)]]
    );
    // (2,1,3): cos²θ = 1/2, eight cones, Q_III = −I
    let law = construct_law(&[r(2), r(1), r(3)]).unwrap();
    assert_eq!(law.cones.len(), 8);
    assert_eq!(law.cone("III").unwrap().q, m([[-1, 0], [0, -1]]));
    let cradle = Cradle::new(&[r(2), r(1), r(3)]).unwrap();
    let rep = check_all(&law, &cradle, 100, 3).unwrap();
    assert!(rep.continuous && rep.energy_conserving && rep.kinetically_consistent);
    assert!(rep.cyclic.is_some());
}

#[test]
fn newton_and_poisson() {
    let cradle = Cradle::new(&ones()).unwrap();
    // (36): both classical laws give γ⁺ = −γ⁻ = (2, 1), not (1, 2)
    let n = newton(&cradle, &v(-2, -1), &r(1)).unwrap();
    assert_eq!(n.gamma_plus, v(2, 1));
    assert_eq!(n.impulse, [q(10, 3), q(8, 3)]);
    assert_eq!(
        poisson(&cradle, &v(-2, -1), &r(1)).unwrap().gamma_plus,
        v(2, 1)
    );
    // Fig. 1(b): ball 1 at 1, others at rest: γ⁻ = (−1, 0); Newton gives γ⁺ = (1, 0),
    // u⁺ = (−1/3, 2/3, 2/3); the sequential law gives (0, 1), u⁺ = (0, 0, 1)
    let n = newton(&cradle, &v(-1, 0), &r(1)).unwrap();
    assert_eq!(n.gamma_plus, v(1, 0));
    assert_eq!(n.impulse, [q(4, 3), q(2, 3)]);
    let u = impactkit::law::sequential::classic::ball_velocities(
        &cradle,
        &[r(1), r(0), r(0)],
        &n.impulse,
    )
    .unwrap();
    assert_eq!(u, [q(-1, 3), q(2, 3), q(2, 3)]);
    let law = construct_law(&ones()).unwrap();
    assert_eq!(law.apply(&v(-1, 0)).unwrap().gamma_plus, v(0, 1));
    // e = 1/2
    let n = newton(&cradle, &v(-1, 0), &q(1, 2)).unwrap();
    assert_eq!(n.gamma_plus, [q(1, 2), r(0)]);
    assert_eq!(n.impulse, [r(1), q(1, 2)]);
    // e = 0: plastic
    assert_eq!(
        poisson(&cradle, &v(-2, -1), &r(0)).unwrap().gamma_plus,
        v(0, 0)
    );
}

// ---- command line ----

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn bad(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?} should exit 2; stdout {out} stderr {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn cli_done_when() {
    let j = json(&[
        "sequential",
        "map",
        "--gamma",
        "-2,-1",
        "--arith",
        "exact",
        "--format",
        "json",
    ]);
    assert_eq!(j["schema"], "impactkit/1");
    assert_eq!(j["command"], "sequential map");
    assert_eq!(j["gamma_plus"], exact(&["1", "2"]));
    assert_eq!(j["cone"], "III");
    assert_eq!(j["impulse"], exact(&["3", "3"]));
    assert_eq!(j["newton"]["gamma_plus"], exact(&["2", "1"]));
    let (code, text, _) = run(&["sequential", "map", "--gamma", "-2,-1"]);
    assert_eq!(code, 0);
    assert!(text.starts_with("gamma_plus: (1, 2) (cone III)"), "{text}");
    let (_, text, _) = run(&["sequential", "map", "--gamma", "-2,-1", "--exact-values"]);
    assert!(
        text.contains("newton: (2, 1) (impulse (10/3, 8/3))"),
        "{text}"
    );
    let (_, text, _) = run(&["sequential", "map", "--gamma", "-2,-1", "--digits", "3"]);
    assert!(
        text.contains("newton: (2, 1) (impulse (3.33, 2.67))"),
        "{text}"
    );

    // check: text by default, like every command
    let (code, text, _) = run(&["sequential", "check", "--samples", "20"]);
    assert_eq!(code, 0);
    assert!(text.contains("cones: 6 (closes: yes"), "{text}");
    assert!(text.contains("cyclically monotone (18): no\n"), "{text}");
    assert!(text.contains("81 agree, 0 differ, 0 unsupported"), "{text}");
    let (code, svg, _) = run(&["sequential", "check", "--samples", "0", "--svg", "-"]);
    assert_eq!(code, 0);
    assert!(svg.starts_with("<svg"), "{svg}");

    let j = json(&["sequential", "check", "--format", "json"]);
    for k in [
        "continuous",
        "energy_conserving",
        "kinematically_consistent",
        "kinetically_consistent",
        "non_expansive",
        "monotone",
        "factorises",
    ] {
        assert_eq!(j[k], true, "{k}");
    }
    assert_eq!(j["cyclically_monotone"], false);
    assert_eq!(j["counterexample"]["sum"]["exact"], "2");
    assert_eq!(j["abc_cycle"]["lambda_sum"]["exact"], "-1/2");
    assert_eq!(j["cones"].as_array().unwrap().len(), 6);
    assert_eq!(j["thin_rods"]["agree"], 81);

    // θ = 2π/5 (masses 1/√5, 1, 1/√5, cos²θ = (3 − √5)/8): five cones reach e1, but the
    // last maps e1 to e2: closed, discontinuous, kinetically inconsistent
    let j = json(&[
        "sequential",
        "check",
        "--masses",
        "sqrt(5)/5,1,sqrt(5)/5",
        "--arith",
        "quadratic",
        "--format",
        "json",
    ]);
    assert_eq!(j["cos2_theta"]["exact"], "3/8-1/8*sqrt(5)");
    assert_eq!(j["closes"], true);
    assert_eq!(j["number_of_cones"], 5);
    assert_eq!(j["last_image_of_e1"], exact(&["0", "1"]));
    assert_eq!(j["continuous"], false);
    assert_eq!(j["kinetically_consistent"], false);

    let j = json(&[
        "sequential",
        "check",
        "--masses",
        "1,2,1",
        "--format",
        "json",
    ]);
    assert_eq!(j["closes"], false);
    assert_eq!(j["continuous"], false);
    assert_eq!(j["number_of_cones"], 6);
    assert_eq!(j["cos2_theta"]["exact"], "1/9");
    assert!(j.get("abc_cycle").is_none() && j.get("rays").is_none());
    assert!(j["non_expansive"].is_null());

    let j = json(&[
        "rods",
        "--velocities",
        "2,0,-1",
        "--arith",
        "exact",
        "--format",
        "json",
    ]);
    assert_eq!(j["command"], "rods");
    assert_eq!(j["outgoing"], exact(&["-1", "0", "2"]));
    assert_eq!(j["gamma_plus"], exact(&["1", "2"]));
    assert_eq!(j["events"].as_array().unwrap().len(), 4);
    assert_eq!(j["end_time"]["exact"], "3");
    // unequal impedances: a light rod (z = 1/2) hits a heavy one at rest
    let j = json(&[
        "rods",
        "--velocities",
        "1,0",
        "--impedances",
        "1,3",
        "--format",
        "json",
    ]);
    assert_eq!(j["outgoing"], exact(&["-1/2", "1/2"]));
    // text: exact times, velocities through --digits
    let (code, text, _) = run(&["rods", "--velocities", "0,-4,-3", "--digits", "3"]);
    assert_eq!(code, 0);
    assert!(
        text.starts_with("outgoing: -4, -3, 0\nend time: 10/3\n"),
        "{text}"
    );
    assert!(text.contains("  t = 4/3: contact 2 closes"), "{text}");
    let (_, text, _) = run(&[
        "rods",
        "--velocities",
        "1,0",
        "--impedances",
        "1,3",
        "--digits",
        "3",
    ]);
    assert!(text.starts_with("outgoing: -0.5, 0.5\n"), "{text}");
    let (code, svg, _) = run(&["rods", "--velocities", "2,0,-1", "--svg", "-"]);
    assert_eq!(code, 0);
    assert!(svg.starts_with("<svg"), "{svg}");
}

#[test]
fn cli_bad_input() {
    assert!(bad(&["sequential", "map", "--gamma", "1"]).contains("--gamma"));
    assert!(bad(&["sequential", "map", "--gamma", "1,x"]).contains("--gamma"));
    assert!(
        bad(&["sequential", "map", "--gamma", "-1,-1", "--masses", "1,2,1"])
            .contains("does not close")
    );
    assert!(bad(&["sequential", "check", "--masses", "1,-1,1"]).contains("--masses"));
    assert!(bad(&["sequential", "map", "--gamma", "-1,-1", "--eps", "2"]).contains("--eps"));
    // exact rationals cannot hold sqrt(2) (the default, certified, moves on to Q(sqrt 2))
    let e = bad(&[
        "sequential",
        "map",
        "--gamma",
        "sqrt(2),-1",
        "--arith",
        "exact",
    ]);
    assert!(e.contains("--gamma"), "{e}");
    assert!(bad(&["rods", "--velocities", "1,0", "--lengths", "1"]).contains("--lengths"));
    assert!(bad(&["rods", "--velocities", "1,0", "--impedances", "1,0"]).contains("--impedances"));
}

// ---- snapshots ----

#[test]
fn snapshots() {
    use impactkit::arith::backend::Backend;
    use impactkit::commands::rods::RodsSpec;
    use impactkit::system::sequential::CheckSpec;
    let check = |m: &str| {
        CheckSpec {
            masses: Some(m.into()),
            samples: 50,
            seed: 1,
        }
        .report(Backend::Exact)
        .map(|r| serde_json::to_value(r).unwrap())
        .unwrap()
    };
    let eq = check("1,1,1");
    let summary: Vec<serde_json::Value> = ["1,2,1", "1,1,2", "2,1,1", "3/5,1,2", "2,1,3", "5,1,9"]
        .iter()
        .map(|m| {
            let r = check(m);
            serde_json::json!({
                "masses": m,
                "cos2_theta": r["cos2_theta"],
                "closes": r["closes"],
                "number_of_cones": r["number_of_cones"],
                "last_image_of_e1": r["last_image_of_e1"],
                "kinetically_consistent": r["kinetically_consistent"],
                "cones": r["cones"].as_array().unwrap().iter().map(|c| serde_json::json!({
                    "name": c["name"], "from": c["from"], "to": c["to"], "q": c["q"], "kinetic": c["kinetic"]
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let rods = RodsSpec {
        velocities: "2,0,-1".into(),
        lengths: None,
        impedances: None,
        max_steps: 100,
    }
    .report(Backend::Exact)
    .map(|r| serde_json::to_value(r).unwrap())
    .unwrap();
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_json_snapshot!("sequential_equal_masses_cones", eq["cones"]);
        insta::assert_json_snapshot!("sequential_abc_cycle", eq["abc_cycle"]);
        insta::assert_json_snapshot!("sequential_counterexample", eq["counterexample"]);
        insta::assert_json_snapshot!("sequential_unequal_masses", summary);
        insta::assert_json_snapshot!("rods_eq34", rods);
    });
}

// ---- properties ----

mod props {
    use super::*;
    use impactkit::law::sequential::checks::nonexpansive_pair;
    use proptest::prelude::*;

    fn rat() -> impl Strategy<Value = Rational> {
        (-60i64..=60, 1i64..=7).prop_map(|(n, d)| q(n, d))
    }
    fn pt() -> impl Strategy<Value = Vec2<Rational>> {
        (rat(), rat()).prop_map(|(a, b)| [a, b])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn energy_first_quadrant_and_nonexpansive(a in pt(), b in pt()) {
            for ms in [ones(), [q(3, 5), r(1), r(2)], [r(2), r(1), r(3)]] {
                let law = construct_law(&ms).unwrap();
                let cradle = Cradle::new(&ms).unwrap();
                let sa = law.apply(&a).unwrap().gamma_plus;
                // (14) with equality (P2), and (9)
                prop_assert_eq!(cradle.norm2(&sa), cradle.norm2(&a));
                prop_assert!(sa[0] >= r(0) && sa[1] >= r(0));
                // (37), through the proof's split of the segment
                let (lhs, rhs, _) = nonexpansive_pair(&law, &cradle, &a, &b).unwrap();
                prop_assert!(lhs <= rhs, "{:?} {:?}: {} > {}", a, b, lhs, rhs);
            }
        }
    }
}

#[test]
fn cli_other_backends() {
    // interval: built exactly over Q, evaluated in enclosures
    let j = json(&[
        "sequential",
        "map",
        "--gamma",
        "-2,-1",
        "--arith",
        "interval",
        "--format",
        "json",
    ]);
    assert_eq!(j["cone"], "III");
    assert_eq!(j["gamma_plus"][0]["lo"], "1");
    assert_eq!(j["gamma_plus"][0]["hi"], "1");
    assert_eq!(j["gamma_plus"][1]["hi"], "2");
    // −1/3 is not a binary float: on the ray (−1, 1) the cone is undecided, not guessed
    let j = json(&[
        "sequential",
        "map",
        "--gamma",
        "-1/3,1/3",
        "--arith",
        "interval",
        "--format",
        "json",
    ]);
    assert!(j["cone"].is_null());
    assert_eq!(j["undecided"]["quantity"], "det(γ⁻, to)");
    let c: Vec<&str> = j["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cone"].as_str().unwrap())
        .collect();
    assert_eq!(c, ["IIa", "IIb"]);
    // exact in Q(√2): Q_IIa (−1, √2) = (1, √2 − 1), Λ = (1, 0) (eq. (26))
    let j = json(&[
        "sequential",
        "map",
        "--gamma",
        "-1,sqrt(2)",
        "--arith",
        "quadratic",
        "--format",
        "json",
    ]);
    assert_eq!(j["gamma_plus"], exact(&["1", "-1+sqrt(2)"]));
    assert_eq!(j["impulse"], exact(&["1", "0"]));
    assert!(bad(&["sequential", "check", "--arith", "interval"]).contains("--arith"));
    assert!(bad(&[
        "sequential",
        "map",
        "--gamma",
        "-1,-1",
        "--masses",
        "1,sqrt(2),1",
        "--arith",
        "f64"
    ])
    .contains("--masses"));
}

#[test]
fn figures() {
    use impactkit::commands::rods::RodsSpec;
    use impactkit::system::sequential::CheckSpec;
    let spec = |m: &str| CheckSpec {
        masses: Some(m.into()),
        samples: 0,
        seed: 1,
    };
    let f = spec("1,1,1").figure().unwrap();
    assert_eq!(f.matches("<path").count(), 6);
    assert!(f.contains("6 cones</text>") && !f.contains("#f4b6b6"));
    let f = spec("1,2,1").figure().unwrap();
    assert!(f.contains("does not close") && f.contains("#f4b6b6"));
    let rods = |v: &str| {
        RodsSpec {
            velocities: v.into(),
            lengths: None,
            impedances: None,
            max_steps: 100,
        }
        .figure()
        .unwrap()
    };
    // Fig. 6(b): 4 characteristic segments per step, both contacts closed until t = 3
    let f = rods("2,0,-1");
    assert_eq!(f.matches(r#"stroke="black""#).count(), 12);
    assert_eq!(f.matches("stroke-dasharray").count(), 0);
    // refined lattice (thirds): contact 2 open for t < 4/3, contact 1 open for t ≥ 2
    let f = rods("0,-4,-3");
    assert_eq!(f.matches("stroke-dasharray").count(), 8);
    let (code, _, err) = run(&[
        "rods",
        "--velocities",
        "2,0,-1",
        "--svg",
        "/nonexistent-dir/x.svg",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--svg"));
}

#[path = "sequential/rods.rs"]
mod rods;
