//! Fixes to the propagative model (Seghete–Murphey): the plastic impact of (17) never
//! pulls, the equality of outcomes is certified, the touching billiard rack is decided,
//! and the minimal-sequence search prunes soundly (same sequences as an exhaustive one).

use crate::common::{bad, exact, json, run};
use impactkit::arith::{Rational, Scalar};
use impactkit::law::propagative::{minimal_sequences, Contacts};
use impactkit::law::LawError;
use impactkit::linalg::SymMatrix;
use impactkit::system::billiard::Break;
use num_rational::BigRational;
use std::collections::HashSet;

fn r(n: i64, d: i64) -> Rational {
    Rational::from_big(&BigRational::new(n.into(), d.into()))
}
fn v(xs: &[i64]) -> Vec<Rational> {
    xs.iter().map(|&x| r(x, 1)).collect()
}

// ---------------------------------------------------------------- 1. plastic of (17)

fn corner() -> Contacts<Rational> {
    Contacts::new(
        SymMatrix::diagonal(&v(&[1, 1])),
        vec![v(&[-1, 1]), v(&[-1, -1])],
    )
    .unwrap()
}

#[test]
fn plastic_of_17_never_pulls_in_a_corner() {
    let c = corner();
    let p = v(&[1, 2]);
    // elastic: one reflection across u2
    let seqs = minimal_sequences(&c, &p, 12).unwrap();
    assert_eq!(seqs, vec![(vec![1], v(&[-2, -1]))]);
    // (11) as printed holds both walls: multiplier −1/2 on u1, which pulls
    assert_eq!(c.plastic(&p).unwrap(), v(&[0, 0]));
    // the complementary plastic impact releases u1
    let pl = c.plastic_complementary(&p).unwrap();
    assert_eq!(pl.momentum, vec![r(-1, 2), r(1, 2)]);
    assert_eq!(pl.impulses, vec![r(0, 1), r(3, 2)]);
    assert_eq!(pl.released, vec![0]);
    // where every multiplier of (11) pushes, the two agree
    let q = v(&[3, 0]);
    let both = c.plastic_complementary(&q).unwrap();
    assert_eq!(both.momentum, c.plastic(&q).unwrap());
    assert!(both.released.is_empty());
}

#[test]
fn propagate_eps_uses_the_plastic_impact_that_never_pulls() {
    let args = [
        "propagate",
        "--masses",
        "1,1",
        "--normals",
        "-1,1;-1,-1",
        "--momentum",
        "1,2",
        "--eps",
        "3/4",
        "--arith",
        "exact",
    ];
    let mut j = args.to_vec();
    j.extend(["--format", "json"]);
    let v = json(&j);
    assert_eq!(v["outcomes"][0], exact(&["-13/8", "-5/8"]));
    assert_eq!(v["plastic"], exact(&["-1/2", "1/2"]));
    assert_eq!(v["plastic_released"], serde_json::json!([1]));
    assert_eq!(v["unique"], true);
    let (code, text, _) = run(&args);
    assert_eq!(code, 0);
    assert!(text.contains("p+ = (-1.625, -0.625)"), "{text}");
    assert!(
        text.contains("plastic: (-0.5, 0.5) (releases u1)"),
        "{text}"
    );
}

// ---------------------------------------------------- 2. certified equality of outcomes

fn propagate_json(masses: &str, normals: &str, p: &str, arith: &str) -> serde_json::Value {
    json(&[
        "propagate",
        "--masses",
        masses,
        "--normals",
        normals,
        "--momentum",
        p,
        "--arith",
        arith,
        "--format",
        "json",
    ])
}

#[test]
fn equal_outcomes_are_decided_exactly_whatever_the_arithmetic() {
    // masses 2, 1, 3, p = (1, 0, −1): u1u2u1u2 and u2u1u2u1 give exactly (−1, 0, 1) —
    // f64 rounds them to two different vectors (1.1e-16 apart in p₂)
    for arith in ["f64", "mpfr:200", "interval", "mpi:128", "exact"] {
        let v = propagate_json("2,1,3", "-1,1,0;0,-1,1", "1,0,-1", arith);
        assert_eq!(
            v["sequences"],
            serde_json::json!([[1, 2, 1, 2], [2, 1, 2, 1]])
        );
        assert_eq!(v["unique"], true, "{arith}");
        assert_eq!(v["uniqueness"]["certified_by"], "exact", "{arith}");
        assert_eq!(v["uniqueness"]["reason"], serde_json::Value::Null);
        assert_eq!(v["outcomes"].as_array().unwrap().len(), 1, "{arith}");
    }
    // α = π/8: tan(π/8) = √2 − 1 lies in Q(√2); the two mirrored sequences agree
    for arith in ["f64", "interval", "mpfr:200", "quadratic"] {
        let v = propagate_json("1,1", "-(sqrt(2)-1),1;-(sqrt(2)-1),-1", "1,0", arith);
        assert_eq!(
            v["sequences"],
            serde_json::json!([[1, 2, 1, 2], [2, 1, 2, 1]])
        );
        assert_eq!(v["unique"], true, "{arith}");
        assert_eq!(v["uniqueness"]["certified_by"], "quadratic", "{arith}");
    }
}

#[test]
fn different_outcomes_are_decided_by_an_enclosure() {
    // masses 1, 2, 1, p = (2, 0, −2): uvu and vuv differ (Theorem 3's condition fails)
    for arith in ["f64", "interval", "exact"] {
        let v = propagate_json("1,2,1", "-1,1,0;0,-1,1", "2,0,-2", arith);
        assert_eq!(v["unique"], false, "{arith}");
        assert_eq!(v["uniqueness"]["certified_by"], "interval", "{arith}");
        assert_eq!(v["outcomes"].as_array().unwrap().len(), 2);
    }
    let v = propagate_json("1,2,1", "-1,1,0;0,-1,1", "2,0,-2", "exact");
    assert_eq!(v["outcomes"][0], exact(&["-26/27", "-40/27", "22/9"]));
    assert_eq!(v["outcomes"][1], exact(&["-22/9", "40/27", "26/27"]));
}

#[test]
fn equality_outside_q_and_q_sqrt_d_is_undecided_not_no() {
    // at π/16 the algebraic backend decides the equality exactly (issue 34) …
    for arith in ["f64", "mpfr:200", "interval", "mpi:256"] {
        let v = propagate_json("1,1", "-tan(pi/16),1;-tan(pi/16),-1", "1,0", arith);
        assert_eq!(v["unique"], true, "{arith}");
        assert_eq!(v["uniqueness"]["certified_by"], "algebraic");
    }
    // … and with √7 beside it, in the tower Q(cos(π/16))(√7) (this round); but not with
    // √7 beside cos(π/18): no tower of quadratic fields leads from Q up to
    // Q(cos(π/18)) (it rests on Q(cos(π/9)), of degree 3)
    let v = propagate_json(
        "1,1",
        "-sqrt(7)*tan(pi/16),sqrt(7);-tan(pi/16),-1",
        "1,0",
        "f64",
    );
    assert_eq!(v["unique"], true);
    assert_eq!(v["uniqueness"]["certified_by"], "algebraic");
    let normals = "-sqrt(7)*tan(pi/18),sqrt(7);-tan(pi/18),-1";
    for arith in ["f64", "mpfr:200", "interval", "mpi:256"] {
        let v = propagate_json("1,1", normals, "1,0", arith);
        assert_eq!(v["unique"], serde_json::Value::Null, "{arith}");
        assert_eq!(v["uniqueness"]["certified_by"], serde_json::Value::Null);
        let why = v["uniqueness"]["reason"].as_str().unwrap();
        assert!(
            why.starts_with("outcomes 1 and 2 agree to within 1e-10")
                && why.contains("at 3392 bits; equality needs exact arithmetic")
                && why.contains("tan(pi/18)")
                && why.contains("algebraic: a value needing both Q(sqrt(7)) and Q(cos(pi/18))"),
            "{why}"
        );
        let (code, text, _) = run(&[
            "propagate",
            "--masses",
            "1,1",
            "--normals",
            normals,
            "--momentum",
            "1,0",
            "--arith",
            arith,
        ]);
        assert_eq!(code, 0, "{arith}");
        assert!(
            text.contains("\nunique: undecided (outcomes 1 and 2 agree to within 1e-"),
            "{text}"
        );
    }
}

// ------------------------------------------------------ 3. the touching billiard rack

#[test]
fn touching_rack_is_decided_in_every_arithmetic() {
    let args = |arith: &'static str| {
        [
            "billiard-break",
            "--theta",
            "pi/3",
            "--radii",
            "1,1,1",
            "--arith",
            arith,
            "--format",
            "json",
        ]
    };
    let q = json(&args("quadratic"));
    assert_eq!(q["cos_theta"]["exact"], "1/2");
    assert_eq!(q["xi_squared"]["exact"], "9/16");
    assert_eq!(q["p_ab"][0]["exact"], "3/4");
    assert_eq!(q["sequence_ab"], "ab");
    let f = |x: &serde_json::Value| x.as_str().unwrap().parse::<f64>().unwrap();
    for arith in ["interval", "mpi:128"] {
        let v = json(&args(arith));
        for (key, val) in [("cos_theta", 0.5), ("xi_squared", 0.5625)] {
            assert!(
                f(&v[key]["lo"]) <= val && val <= f(&v[key]["hi"]),
                "{arith} {key}"
            );
        }
        assert!(f(&v["p_ab"][0]["lo"]) <= 0.75 && 0.75 <= f(&v["p_ab"][0]["hi"]));
        assert_eq!(v["sequence_ab"], "ab");
    }
    let v = json(&args("f64"));
    assert!((f(&v["xi_squared"]["approx"]) - 0.5625).abs() < 1e-14);
    assert!((f(&v["cos_theta"]["approx"]) - 0.5).abs() < 1e-15);
    assert_eq!(v["sequence_ba"], "ba");
    // the same at θ = θ_min for other radii: r = 1, 1, √2 − 1 touch at θ = π/2
    for arith in ["interval", "mpi:128", "f64"] {
        let v = json(&[
            "billiard-break",
            "--theta",
            "pi/2",
            "--radii",
            "1,1,sqrt(2)-1",
            "--arith",
            arith,
            "--format",
            "json",
        ]);
        assert_eq!(v["sequence_ab"], "ab", "{arith}");
    }
    let v = json(&[
        "billiard-break",
        "--theta",
        "pi/2",
        "--radii",
        "1,1,sqrt(2)-1",
        "--arith",
        "quadratic",
        "--format",
        "json",
    ]);
    assert_eq!(v["cos_theta"]["exact"], "0");
    // a clearly overlapping θ: exit 2, one line naming --theta
    let err = bad(&[
        "billiard-break",
        "--tan-quarter",
        "1/10",
        "--radii",
        "1,1,1",
        "--arith",
        "exact",
    ]);
    assert!(err.contains("overlap"), "{err}");
    for arith in ["interval", "f64", "mpi:128"] {
        let err = bad(&[
            "billiard-break",
            "--theta",
            "pi/4",
            "--radii",
            "1,1,1",
            "--arith",
            arith,
        ]);
        assert!(err.contains("--theta") && err.contains("overlap"), "{err}");
    }
}

// ------------------------------------------------ 4. the minimal-sequence search

/// The search as it was before the prunings (depth first, stop at a feasible prefix,
/// check every proper subsequence from scratch): the reference.
fn reference<S: Scalar>(c: &Contacts<S>, p: &[S], max_depth: usize) -> Vec<Vec<usize>> {
    if c.feasible(p).unwrap() {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    let mut stack: Vec<(Vec<usize>, Vec<S>)> = vec![(Vec::new(), p.to_vec())];
    while let Some((seq, q)) = stack.pop() {
        if seq.len() >= max_depth {
            continue;
        }
        for i in 0..c.normals.len() {
            if seq.last() == Some(&i) {
                continue;
            }
            let mut next = seq.clone();
            next.push(i);
            let r = c.reflect(&q, i).unwrap();
            if c.feasible(&r).unwrap() {
                let n = next.len();
                let minimal = (0..(1u64 << n) - 1).all(|mask| {
                    let sub: Vec<usize> = (0..n)
                        .filter(|k| mask & (1 << k) != 0)
                        .map(|k| next[k])
                        .collect();
                    !c.feasible(&c.apply_sequence(p, &sub).unwrap()).unwrap()
                });
                if minimal {
                    out.push(next);
                }
            } else {
                stack.push((next, r));
            }
        }
    }
    out.sort();
    out
}

/// Definition 1 by brute force, without Lemma 1: every sequence of at most `max_depth`
/// normals; minimal = feasible with no feasible proper subsequence.
fn brute_force<S: Scalar>(c: &Contacts<S>, p: &[S], max_depth: usize) -> Vec<Vec<usize>> {
    let m = c.normals.len();
    let mut feasible: HashSet<Vec<usize>> = HashSet::new();
    let mut stack = vec![(Vec::new(), p.to_vec())];
    while let Some((seq, q)) = stack.pop() {
        if c.feasible(&q).unwrap() {
            feasible.insert(seq.clone());
        }
        if seq.len() < max_depth {
            for i in 0..m {
                let mut next = seq.clone();
                next.push(i);
                stack.push((next, c.reflect(&q, i).unwrap()));
            }
        }
    }
    let mut out: Vec<Vec<usize>> = feasible
        .iter()
        .filter(|s| {
            let n = s.len();
            (0..(1u64 << n) - 1).all(|mask| {
                let sub: Vec<usize> = (0..n)
                    .filter(|k| mask & (1 << k) != 0)
                    .map(|k| s[k])
                    .collect();
                !feasible.contains(&sub)
            })
        })
        .cloned()
        .collect();
    out.sort();
    out
}

fn cradle(masses: &[i64]) -> Contacts<Rational> {
    let n = masses.len();
    let normals = (0..n - 1)
        .map(|i| {
            (0..n)
                .map(|j| match j {
                    _ if j == i => r(-1, 1),
                    _ if j == i + 1 => r(1, 1),
                    _ => r(0, 1),
                })
                .collect()
        })
        .collect();
    Contacts::new(SymMatrix::diagonal(&v(masses)), normals).unwrap()
}

fn new_search(c: &Contacts<Rational>, p: &[Rational], depth: usize) -> Vec<Vec<usize>> {
    let s = minimal_sequences(c, p, depth).unwrap();
    for (seq, q) in &s {
        assert_eq!(&c.apply_sequence(p, seq).unwrap(), q);
    }
    s.into_iter().map(|x| x.0).collect()
}

#[test]
fn search_equals_the_exhaustive_one_on_cradles_and_the_billiard() {
    let mut nonempty = 0;
    // 3 balls: depth 10, every momentum in a box, three mass ratios
    for masses in [[1, 1, 1], [1, 2, 1], [2, 1, 3]] {
        let c = cradle(&masses);
        for p1 in -2..=2 {
            for p2 in -2..=2 {
                for p3 in -2..=2 {
                    let p = v(&[p1, p2, p3]);
                    let new = new_search(&c, &p, 10);
                    assert_eq!(new, reference(&c, &p, 10), "{masses:?} {p1} {p2} {p3}");
                    assert_eq!(new, brute_force(&c, &p, 10), "{masses:?} {p1} {p2} {p3}");
                    nonempty += usize::from(!new.is_empty() && !new[0].is_empty());
                }
            }
        }
    }
    // 4 balls: depth 7
    for masses in [[1, 1, 1, 1], [1, 2, 1, 3]] {
        let c = cradle(&masses);
        for p in [
            [1, 0, 0, 0],
            [1, 0, 0, -1],
            [2, 1, 0, -1],
            [1, -1, 1, -1],
            [3, 0, -1, -2],
            [1, 1, 0, 0],
        ] {
            let p = v(&p);
            let new = new_search(&c, &p, 7);
            assert_eq!(new, reference(&c, &p, 7), "{masses:?} {p:?}");
            assert_eq!(new, brute_force(&c, &p, 7), "{masses:?} {p:?}");
        }
    }
    assert!(nonempty > 50, "{nonempty}");
    // the billiard break at rational half angles (t = tan(θ/4)), radii 1, 1, 1 and 1, 2, 3
    for (t, radii) in [
        ((1, 3), [1, 1, 1]),
        ((1, 5), [1, 2, 3]),
        ((2, 5), [1, 1, 1]),
    ] {
        let t = r(t.0, t.1);
        let d = r(1, 1) + &t.square();
        let ch = (r(1, 1) - &t.square()).checked_div(&d).unwrap();
        let sh = (r(2, 1) * &t).checked_div(&d).unwrap();
        let b = Break::with_volume_masses(radii.map(|x| r(x, 1)), ch, sh);
        let c = b.contacts().unwrap();
        let p = vec![
            r(0, 1),
            r(0, 1),
            r(0, 1),
            r(0, 1),
            b.masses[2].clone(),
            r(0, 1),
        ];
        let new = new_search(&c, &p, 10);
        assert_eq!(new, reference(&c, &p, 10));
        assert_eq!(new, brute_force(&c, &p, 10));
        assert!(!new.is_empty());
    }
}

#[test]
fn five_and_six_ball_cradles_are_searched_exactly() {
    // the momentum of the first ball reaches the last one: u1 u2 u3 u4 only (every other
    // reflection is the identity where it would apply, or leaves a feasible subsequence)
    let c = cradle(&[1, 1, 1, 1, 1]);
    let s = minimal_sequences(&c, &v(&[1, 0, 0, 0, 0]), 12).unwrap();
    assert_eq!(s, vec![(vec![0, 1, 2, 3], v(&[0, 0, 0, 0, 1]))]);
    let c = cradle(&[1, 1, 1, 1, 1, 1]);
    let s = minimal_sequences(&c, &v(&[1, 0, 0, 0, 0, 0]), 24).unwrap();
    assert_eq!(s, vec![(vec![0, 1, 2, 3, 4], v(&[0, 0, 0, 0, 0, 1]))]);
    // in f64 too
    let cf: Contacts<f64> = Contacts::new(
        SymMatrix::diagonal(&[1.0; 5]),
        (0..4)
            .map(|i| {
                (0..5)
                    .map(|j| match j {
                        _ if j == i => -1.0,
                        _ if j == i + 1 => 1.0,
                        _ => 0.0,
                    })
                    .collect()
            })
            .collect(),
    )
    .unwrap();
    let s = minimal_sequences(&cf, &[1.0, 0.0, 0.0, 0.0, 0.0], 12).unwrap();
    assert_eq!(s, vec![(vec![0, 1, 2, 3], vec![0.0, 0.0, 0.0, 0.0, 1.0])]);
    // the search still reports its work limit rather than running on
    let c = cradle(&[1, 2, 3, 4, 5, 6]);
    match minimal_sequences(&c, &v(&[5, 3, 1, -1, -3, -5]), 24) {
        Ok(_) | Err(LawError::Domain(_)) => {}
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn compare_cradle_applies_the_propagative_model_to_five_balls() {
    let v = json(&[
        "compare-cradle",
        "--eps",
        "1",
        "--v0",
        "1,0,0,0,0",
        "--masses",
        "1,1,1,1,1",
        "--arith",
        "f64",
        "--format",
        "json",
    ]);
    let text = v.to_string();
    assert!(!text.contains("reflections (its work limit"), "{text}");
    let laws = v["laws"].as_array().unwrap();
    let sm = laws.iter().find(|l| l["law"] == "seghete-murphey").unwrap();
    assert!(
        !sm["note"].as_str().unwrap().contains("does not apply"),
        "{sm}"
    );
}
