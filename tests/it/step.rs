//! `impactkit step`: the variational time stepper of Seghete–Murphey Sect. VI with
//! simultaneous impacts — exact node values worked by hand, conservation, the Zeno rule,
//! certified impact times with springs, and bad input.

use crate::common::{bad, exact, json, run};
use impactkit::arith::{Quadratic, Rational, Scalar};
use impactkit::law::variational::{Lagrangian, Spring};
use impactkit::linalg::SymMatrix;
use impactkit::system::stepper::{Gap, Order, Resolution, StepLaw, StepSystem};
use num_rational::BigRational;
use proptest::prelude::*;

fn q(n: i64, d: i64) -> Rational {
    Rational::from_big(&BigRational::new(n.into(), d.into()))
}

fn step(file: &str, extra: &[&str]) -> serde_json::Value {
    let path = format!("{}/examples/step/{file}", env!("CARGO_MANIFEST_DIR"));
    let mut args = vec!["step", "--system", &path, "--format", "json"];
    args.extend_from_slice(extra);
    json(&args)
}

fn kept(v: &serde_json::Value) -> Vec<(String, String)> {
    v["conservation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["quantity"].as_str().unwrap().to_string(),
                r["kept"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The run, worked by hand: ball 1 (speed 1) closes the gap 11/20 at t = 11/20,
/// ball 2 the gap 3/10 at t = 17/20; at t = 2, q = (11/20, 37/20, 4), p = (0, 0, 1).
#[test]
fn cradle_with_gaps_exactly() {
    let v = step(
        "cradle-gaps.toml",
        &[
            "--dt", "1/10", "--steps", "20", "--law", "elastic", "--arith", "exact",
        ],
    );
    let imp = v["impacts"].as_array().unwrap();
    assert_eq!(imp.len(), 2);
    assert_eq!(imp[0]["time"]["exact"], "11/20");
    assert_eq!(imp[0]["step"], 5);
    assert_eq!(imp[0]["active"], serde_json::json!(["12"]));
    assert_eq!(imp[0]["after"], exact(&["0", "1", "0"]));
    assert_eq!(imp[1]["time"]["exact"], "17/20");
    assert_eq!(imp[1]["after"], exact(&["0", "0", "1"]));
    let last = &v["nodes"][20];
    assert_eq!(last["t"]["exact"], "2");
    assert_eq!(last["q"], exact(&["11/20", "37/20", "4"]));
    assert_eq!(last["p"], exact(&["0", "0", "1"]));
    assert_eq!(v["nodes"][6]["q"], exact(&["11/20", "8/5", "57/20"]));
    for (what, k) in kept(&v) {
        assert_eq!(k, "exactly", "{what}");
    }
    assert!(v["stopped"].is_null());
}

/// The ball dropped from 1/4 under g = 10 (by hand): t* = √5/10, p_y = ∓√5 across the
/// impact; at t = 3/10, y = (3√5 − 6)/5 and p_y = 2√5 − 3; the next impact is at 3√5/10.
#[test]
fn ball_under_gravity_in_q_sqrt5() {
    let v = step(
        "ball-gravity.toml",
        &[
            "--dt",
            "1/10",
            "--steps",
            "8",
            "--law",
            "elastic",
            "--arith",
            "quadratic",
        ],
    );
    let imp = v["impacts"].as_array().unwrap();
    assert_eq!(imp.len(), 2);
    assert_eq!(imp[0]["time"]["exact"], "1/10*sqrt(5)");
    assert_eq!(imp[0]["before"], exact(&["1", "-sqrt(5)"]));
    assert_eq!(imp[0]["after"], exact(&["1", "sqrt(5)"]));
    assert_eq!(imp[1]["time"]["exact"], "3/10*sqrt(5)");
    assert_eq!(v["nodes"][2]["q"], exact(&["1/5", "1/20"]));
    assert_eq!(v["nodes"][3]["q"], exact(&["3/10", "-6/5+3/5*sqrt(5)"]));
    assert_eq!(v["nodes"][3]["p"], exact(&["1", "-3+2*sqrt(5)"]));
    for (what, k) in kept(&v) {
        assert_eq!(k, "exactly", "{what}");
    }
    // In Q the impact time does not exist: exit 2 naming --arith and the field.
    let path = format!(
        "{}/examples/step/ball-gravity.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let e = bad(&[
        "step", "--system", &path, "--dt", "1/10", "--steps", "8", "--law", "elastic", "--arith",
        "exact",
    ]);
    assert!(e.contains("--arith") && e.contains("quadratic"), "{e}");
}

/// Inelastic R = 1/2: each bounce keeps R of the speed ((17) with α = R), the energy lost
/// is (1 − R²)E_p (16), and once two impacts of the floor fall within one step the Zeno
/// rule makes the impact plastic and the ball rests.
#[test]
fn inelastic_ball_and_the_zeno_rule() {
    let v = step(
        "ball-gravity.toml",
        &[
            "--dt",
            "1/10",
            "--steps",
            "12",
            "--law",
            "inelastic",
            "--eps",
            "1/2",
            "--arith",
            "quadratic",
        ],
    );
    let imp = v["impacts"].as_array().unwrap();
    assert_eq!(imp[0]["after"], exact(&["1", "1/2*sqrt(5)"]));
    assert_eq!(imp[1]["time"]["exact"], "1/5*sqrt(5)");
    assert_eq!(imp.len(), 4);
    assert_eq!(imp[3]["resolution"], "plastic (Zeno rule)");
    assert_eq!(v["zeno_rule_fired"], 1);
    assert_eq!(v["rests"][0]["held"], true);
    let last = &v["nodes"][12];
    assert_eq!(last["q"][1]["exact"], "0");
    assert_eq!(last["p"], exact(&["1", "0"]));
    let k = kept(&v);
    assert!(k.contains(&(
        "energy along the flow between impacts".into(),
        "exactly".into()
    )));
    assert!(k.contains(&(
        "energy lost at inelastic impacts = (1 - R^2) E_p (16)".into(),
        "exactly".into()
    )));
    assert!(k.contains(&("energy at every node".into(), "no".into())));
}

/// The touching cradles: one simultaneous impact at t = 0, resolved by the reflections.
#[test]
fn touching_cradles() {
    let v = step(
        "cradle-touching.toml",
        &[
            "--dt", "1/10", "--steps", "2", "--law", "elastic", "--arith", "exact",
        ],
    );
    assert_eq!(v["impacts"][0]["time"]["exact"], "0");
    assert_eq!(v["impacts"][0]["active"], serde_json::json!(["12", "23"]));
    assert_eq!(v["impacts"][0]["after"], exact(&["0", "0", "1"]));
    let v = step(
        "cradle-masses123.toml",
        &[
            "--dt", "1/10", "--steps", "2", "--law", "elastic", "--arith", "exact",
        ],
    );
    assert_eq!(v["impacts"][0]["after"], exact(&["-1/3", "-4/15", "8/5"]));
    let v = step(
        "cradle-masses123.toml",
        &[
            "--dt", "1/10", "--steps", "2", "--law", "plastic", "--arith", "exact",
        ],
    );
    // Plastic: all three move together with the total momentum 1 over the mass 6.
    assert_eq!(v["impacts"][0]["after"], exact(&["1/6", "1/3", "1/2"]));
}

/// Intervals and MPFR intervals enclose the exact run.
#[test]
fn enclosures_contain_the_exact_run() {
    let e = step(
        "ball-gravity.toml",
        &[
            "--dt",
            "1/10",
            "--steps",
            "8",
            "--law",
            "elastic",
            "--arith",
            "quadratic",
        ],
    );
    let m = step(
        "ball-gravity.toml",
        &[
            "--dt", "1/10", "--steps", "8", "--law", "elastic", "--arith", "mpi:128",
        ],
    );
    let f = |x: &serde_json::Value| {
        let s = x["exact"]
            .as_str()
            .unwrap()
            .replace("sqrt(5)", "2.2360679774997896964");
        meval(&s)
    };
    for k in 0..=8 {
        for j in 0..2 {
            let x = f(&e["nodes"][k]["q"][j]);
            let lo: f64 = m["nodes"][k]["q"][j]["lo"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap();
            let hi: f64 = m["nodes"][k]["q"][j]["hi"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap();
            assert!(
                lo - 1e-15 <= x && x <= hi + 1e-15,
                "node {k}: {x} in [{lo}, {hi}]"
            );
            assert!(hi - lo < 1e-20, "node {k}: width {}", hi - lo);
        }
    }
}

/// A tiny evaluator for "a+b*c" forms of the reports (sums of products of rationals).
fn meval(s: &str) -> f64 {
    let s = s.replace('-', "+-");
    s.split('+')
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.split('*')
                .map(|f| match f.split_once('/') {
                    Some((a, b)) => a.parse::<f64>().unwrap() / b.parse::<f64>().unwrap(),
                    None => f.parse::<f64>().unwrap(),
                })
                .product::<f64>()
        })
        .sum()
}

/// With a spring the impact time is certified by bisection (MPFR intervals): the
/// enclosure is narrow and contains the f64 root; exact arithmetic refuses (exit 2).
#[test]
fn spring_impact_time_is_certified() {
    let dir = crate::common::tempdir("step-spring");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("spring.toml");
    std::fs::write(
        &path,
        "masses = [\"1\"]\nq = [\"0\"]\np = [\"1\"]\n[[spring]]\nstiffness = \"1\"\na = [\"1\"]\n[[gap]]\nname = \"wall\"\na = [\"-1\"]\nb = \"1/2\"\n",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let args = |a: &'static str| {
        vec![
            "step", "--system", p, "--dt", "1/10", "--steps", "10", "--law", "elastic", "--arith",
            a, "--format", "json",
        ]
    };
    let m = json(&args("mpi:128"));
    let t = &m["impacts"][0]["time"];
    let lo: f64 = t["lo"].as_str().unwrap().parse().unwrap();
    let hi: f64 = t["hi"].as_str().unwrap().parse().unwrap();
    let f = json(&args("f64"));
    let x = f["impacts"][0]["time"]["approx"]
        .as_str()
        .unwrap()
        .parse::<f64>()
        .unwrap();
    assert!(
        hi - lo < 1e-18 && (x - lo).abs() < 1e-12,
        "[{lo}, {hi}] vs {x}"
    );
    let e = bad(&args("exact"));
    assert!(e.contains("springs"), "{e}");
}

/// Bad input: exit 2, one line naming the option or the file's key.
#[test]
fn step_bad_input() {
    let s = format!(
        "{}/examples/step/cradle-gaps.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let dir = crate::common::tempdir("step-bad");
    std::fs::create_dir_all(&dir).unwrap();
    let singular = dir.join("singular.toml");
    std::fs::write(
        &singular,
        "mass_matrix = [[\"1\",\"1\"],[\"1\",\"1\"]]\nq = [\"0\",\"0\"]\np = [\"1\",\"0\"]\n[[gap]]\na = [\"1\",\"0\"]\nb = \"1\"\n",
    )
    .unwrap();
    let overlap = dir.join("overlap.toml");
    std::fs::write(
        &overlap,
        "masses = [\"1\",\"1\"]\nq = [\"0\",\"0\"]\np = [\"1\",\"0\"]\n[[gap]]\nname = \"wall\"\na = [\"1\",\"0\"]\nb = \"-1\"\n",
    )
    .unwrap();
    let (sg, ov) = (singular.to_str().unwrap(), overlap.to_str().unwrap());
    for (args, needle) in [
        (
            vec!["--system", &s, "--dt", "-1/10", "--steps", "3"],
            "--dt",
        ),
        (vec!["--system", &s, "--dt", "0", "--steps", "3"], "--dt"),
        (
            vec!["--system", &s, "--dt", "1/10", "--steps", "0"],
            "--steps",
        ),
        (
            vec!["--system", sg, "--dt", "1/10", "--steps", "3"],
            "mass_matrix",
        ),
        (
            vec!["--system", ov, "--dt", "1/10", "--steps", "3"],
            "gap wall",
        ),
        (
            vec!["--system", "/no/such.toml", "--dt", "1/10", "--steps", "3"],
            "such.toml",
        ),
    ] {
        let mut a = vec!["step"];
        a.extend(args);
        a.extend(["--law", "elastic", "--arith", "exact"]);
        let e = bad(&a);
        assert!(e.contains(needle), "{a:?}: {e}");
    }
    let e = bad(&[
        "step",
        "--system",
        &s,
        "--dt",
        "1/10",
        "--steps",
        "3",
        "--law",
        "inelastic",
        "--arith",
        "exact",
    ]);
    assert!(e.contains("--eps"), "{e}");
    let (code, _, _) = run(&[
        "step", "--system", &s, "--dt", "1/10", "--steps", "3", "--law", "elastic", "--arith",
        "exact",
    ]);
    assert_eq!(code, 0);
}

/// The text report of the run, reviewed as behaviour.
#[test]
fn cradle_text_snapshot() {
    let s = format!(
        "{}/examples/step/cradle-gaps.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let (code, out, err) = run(&[
        "step",
        "--system",
        &s,
        "--dt",
        "1/10",
        "--steps",
        "20",
        "--law",
        "elastic",
        "--arith",
        "exact",
        "--exact-values",
    ]);
    assert_eq!(code, 0, "{err}");
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("step_cradle_gaps", out);
    });
}

/// A touching cradle of n balls with masses m and momentum p (ball 1 moving in).
fn cradle(m: &[Rational], p: &[Rational]) -> StepSystem<Rational> {
    let n = m.len();
    let gaps = (0..n - 1)
        .map(|i| Gap {
            name: format!("{}{}", i + 1, i + 2),
            a: (0..n)
                .map(|j| {
                    if j == i {
                        q(-1, 1)
                    } else if j == i + 1 {
                        q(1, 1)
                    } else {
                        q(0, 1)
                    }
                })
                .collect(),
            b: q(-1, 1),
        })
        .collect();
    StepSystem::new(
        "cradle".into(),
        (1..=n).map(|i| format!("x{i}")).collect(),
        Lagrangian {
            mass: SymMatrix::diagonal(m),
            force: vec![q(0, 1); n],
            springs: vec![],
        },
        gaps,
        ((0..n as i64).map(|i| q(i, 1)).collect(), p.to_vec()),
    )
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Elastic impacts keep the energy exactly, every law keeps the total momentum, and
    /// an inelastic impact loses exactly (1 − R²)E_p (16).
    #[test]
    fn conservation_properties(
        m in proptest::collection::vec(1i64..6, 3),
        v in 1i64..5,
        r in 0i64..=8,
    ) {
        let masses: Vec<Rational> = m.iter().map(|&x| q(x, 1)).collect();
        let p0 = vec![q(v * m[0], 1), q(0, 1), q(0, 1)];
        let sys = cradle(&masses, &p0);
        let h = q(1, 10);
        let total = |p: &[Rational]| p.iter().fold(q(0, 1), |a, x| a + x);
        for law in [StepLaw::Elastic, StepLaw::Plastic, StepLaw::Inelastic(q(r, 8))] {
            let run = sys.run(&h, 3, &law, Order::Argmin);
            prop_assert!(run.stopped.is_none(), "{:?}", run.stopped);
            for n in &run.nodes {
                prop_assert_eq!(total(&n.p), total(&p0));
            }
            for i in &run.impacts {
                if i.resolution == Resolution::Elastic {
                    prop_assert_eq!(&i.energy_after, &i.energy_before);
                }
            }
            let rows = impactkit::system::step_file::conservation(&sys, &law, &run);
            for row in rows {
                prop_assert!(
                    row.kept != impactkit::report::step::Kept::ToEnclosureWidth
                        && (row.kept != impactkit::report::step::Kept::No
                            || row.quantity == "energy at every node"),
                    "{:?}", row
                );
            }
        }
    }
}

/// The implicit-midpoint step keeps a spring's energy exactly in Q(√d) as well.
#[test]
fn spring_energy_in_quadratic_field() {
    let two = Quadratic::from_i64(2, &());
    let s2 = two.sqrt().unwrap();
    let l = Lagrangian {
        mass: SymMatrix::diagonal(&[Quadratic::from_i64(1, &())]),
        force: vec![Quadratic::from_i64(0, &())],
        springs: vec![Spring {
            stiffness: two.clone(),
            a: vec![Quadratic::from_i64(1, &())],
            b: s2.clone(),
        }],
    };
    let (mut x, mut p) = (vec![s2.clone()], vec![Quadratic::from_i64(1, &())]);
    let e0 = l.energy(&x, &p).unwrap();
    for _ in 0..4 {
        (x, p) = l.step(&x, &p, &s2).unwrap();
        assert_eq!(l.energy(&x, &p).unwrap(), e0);
    }
}

/// After a plastic impact the contact's rate is exactly 0 by construction: enclosure runs
/// carry that forward, so the ball comes to rest and the run completes on every backend.
#[test]
fn plastic_rest_on_enclosures() {
    for arith in ["interval", "mpi:128", "f64"] {
        let v = step(
            "ball-gravity.toml",
            &[
                "--dt", "1/10", "--steps", "12", "--law", "plastic", "--arith", arith,
            ],
        );
        assert!(v["stopped"].is_null(), "{arith}: {}", v["stopped"]);
        assert_eq!(v["rests"][0]["held"], true, "{arith}");
        assert_eq!(v["nodes"].as_array().unwrap().len(), 13, "{arith}");
    }
}

/// A step so large that f64 overflows stops the run with one clear reason, and no
/// non-finite number reaches the report.
#[test]
fn f64_overflow_stops_cleanly() {
    for file in ["cradle-gaps.toml", "ball-gravity.toml"] {
        let v = step(
            file,
            &[
                "--dt", "1e300", "--steps", "3", "--law", "elastic", "--arith", "f64",
            ],
        );
        let text = v.to_string();
        assert!(
            !text.contains("NaN") && !text.contains("inf"),
            "{file}: {text}"
        );
        assert!(v["non_finite"].is_null(), "{file}");
    }
}
