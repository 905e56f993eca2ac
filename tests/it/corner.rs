//! The disk in a corner: the forms of the rules agree exactly, the paper's example of
//! Sect. 6 is reproduced on every kind of arithmetic, and the enclosures are sound.

use crate::common::{json, run, tempdir};
use impactkit::arith::{Interval, Quadratic, Rational, Scalar, Sign};
use impactkit::lang::eval_str;
use impactkit::law::corner::*;
use impactkit::law::V2;
use impactkit::system::corner::{Form, Termination};
use impactkit::system::corner_spec::{Algorithm, CornerSpec, RestitutionSpec};
use num_rational::BigRational;
use proptest::prelude::*;

fn r(n: i64, d: i64) -> Rational {
    Rational::from_big(&BigRational::new(n.into(), d.into()))
}

fn spec(alpha: &str, v0: &str, eps: &str, algorithm: Algorithm) -> CornerSpec {
    CornerSpec {
        alpha: alpha.into(),
        v0: v0.into(),
        restitution: RestitutionSpec::Symmetric(eps.into()),
        algorithm,
        threshold: None,
        rest_threshold: None,
        max_steps: 10_000,
        form: Form::Xy,
        max_digits: None,
        record_velocities: true,
    }
}

/// Sect. 6, EXAMPLE: α = π/4, v0 = (1/√2, 1/√2), ε = 1.
#[test]
fn paper_example_section_6() {
    let ex = spec("pi/4", "1/sqrt(2),1/sqrt(2)", "1", Algorithm::Ta);
    // exact (Q(√2)): one step, Z2 then Z0, v1 = −(1/√2, 1/√2)
    let t = ex.run::<Quadratic>(&()).unwrap();
    assert_eq!(t.steps, 1);
    assert_eq!(t.zones, vec![Zone::Z2, Zone::Z0]);
    assert_eq!(t.termination, Termination::Exit);
    let f = t.final_velocity();
    assert_eq!(
        (f.x.to_string(), f.y.to_string()),
        ("-1/2*sqrt(2)".into(), "-1/2*sqrt(2)".into())
    );
    // f64 TA: the spurious extra step through Z1 that the paper describes
    let t = ex.run::<f64>(&()).unwrap();
    assert_eq!(t.zones, vec![Zone::Z2, Zone::Z1, Zone::Z0]);
    assert_eq!(t.steps, 2);
    // η̇1 computed in f64 is a small positive number (the paper reports 4.44e-16)
    let k: f64 = eval_str("tan(pi/4)", &()).unwrap();
    let v1 = &t.velocities[1];
    let eta1 = k * v1.x - v1.y;
    assert!(eta1 > 0.0 && eta1 < 4.5e-16, "{eta1}");
    // f64 SA with S = 4.5e-16: one step, as in theory
    let sa = spec("pi/4", "1/sqrt(2),1/sqrt(2)", "1", Algorithm::Sa);
    let t = sa.run::<f64>(&()).unwrap();
    assert_eq!((t.steps, t.zones.clone()), (1, vec![Zone::Z2, Zone::Z0]));
    // 53-bit intervals cannot decide η̇0 = 0; the certified run finishes exactly in Q(√2)
    let t = ex.run::<Interval>(&()).unwrap();
    assert!(
        matches!(t.termination, Termination::Undecided { step: 0, .. }),
        "{:?}",
        t.termination
    );
    let c = ex.certified(512).unwrap();
    assert_eq!(c.certified_by, Some(Some("quadratic".to_string())));
    assert_eq!(c.zones, ["Z2", "Z0"]);
    assert_eq!(
        serde_json::to_value(&c.final_velocity).unwrap(),
        serde_json::json!([{"exact": "-1/2*sqrt(2)"}, {"exact": "-1/2*sqrt(2)"}])
    );
}

#[test]
fn bisector_velocity_is_reversed() {
    // Result 4: v along the bisector (ẏ = 0) in Z12 gives −v, in Z0.
    let k = r(1, 3);
    let v = V2::new(r(2, 1), r(0, 1));
    let w = tr_nid_xy(&k, &r(1, 1), Zone::Z12, &v).unwrap();
    assert_eq!(w, V2::new(r(-2, 1), r(0, 1)));
    let w = tr_nid_xy(&k, &r(1, 2), Zone::Z12, &v).unwrap();
    assert_eq!(w, V2::new(r(-1, 1), r(0, 1)));
}

#[test]
fn beta_closed_form_of_section_4_2() {
    // β = (1 + k²)/2 · (k²ẋ² + ẏ²)/(k⁴ẋ² + ẏ²)
    let (k, v) = (r(2, 3), V2::new(r(5, 1), r(1, 2)));
    let b = beta(&k, &v).unwrap();
    let k2 = k.square();
    let want = (r(1, 1) + &k2).checked_div(&r(2, 1)).unwrap()
        * (k2.clone() * &v.x.square() + v.y.square())
            .checked_div(&(k2.square() * &v.x.square() + v.y.square()))
            .unwrap();
    assert_eq!(b, want);
    let zero = V2::new(r(0, 1), r(0, 1));
    assert!(beta(&k, &zero)
        .unwrap_err()
        .to_string()
        .contains("denominator of beta is zero"));
}

#[test]
fn spectral_radius_exact_values() {
    // k = 1/2, ε = 1/4: complex eigenvalues, ρ = ε
    let (h1, h2) = h_matrices(&r(1, 2), &r(1, 4)).unwrap();
    assert_eq!(spectral_radius(&h1).unwrap(), r(1, 4));
    assert_eq!(spectral_radius(&h2).unwrap(), r(1, 4));
    // k = 1/10, ε = 1/100: β(1+ε) = 99/100, ρ = (9601 + √92139201)/20000 in Q(√92139201)
    let k: Quadratic = eval_str("1/10", &()).unwrap();
    let e: Quadratic = eval_str("1/100", &()).unwrap();
    let (h1, _) = h_matrices(&k, &e).unwrap();
    let rho = spectral_radius(&h1).unwrap();
    let want: Quadratic = eval_str("(9601 + sqrt(92139201))/20000", &()).unwrap();
    assert_eq!(rho, want);
    assert_eq!((rho.one_like() - rho).sign(), Sign::Positive);
    assert!(steps_estimate(0.5, 52).unwrap() > 103.9);
}

fn rat() -> impl Strategy<Value = Rational> {
    (-40i64..=40, 1i64..=12).prop_map(|(n, d)| r(n, d))
}
fn pos() -> impl Strategy<Value = Rational> {
    (1i64..=40, 1i64..=12).prop_map(|(n, d)| r(n, d))
}
fn unit() -> impl Strategy<Value = Rational> {
    (0i64..=12).prop_map(|n| r(n, 12))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    /// (13a–13d) and (14a–14d) through the change of coordinates (7) are the same map;
    /// Pasquero's (10) with ε₁ = ε₂ = ε is (13); at ε = 1, (3), (6), (8) are (13).
    #[test]
    fn all_forms_agree_exactly(k in pos(), eps in unit(), x in rat(), y in rat()) {
        let v = V2::new(x, y);
        let zone = zone_xy(&k, &v, &k.zero_like()).unwrap();
        let a = tr_nid_xy(&k, &eps, zone, &v).unwrap();
        let b = xy_from_xi_eta(&k, &tr_nid_xi_eta(&k, &eps, zone, &xi_eta(&k, &v)).unwrap()).unwrap();
        prop_assert_eq!(&a, &b, "(13) vs (14) in {}", zone);
        let c = asymmetric_xy(&k, &eps, &eps, zone, &v).unwrap();
        prop_assert_eq!(&a, &c, "(13) vs Pasquero (10) in {}", zone);
        let one = k.one_like();
        let i13 = tr_nid_xy(&k, &one, zone, &v).unwrap();
        prop_assert_eq!(&tr_id_xy(&k, zone, &v).unwrap(), &i13, "(3) in {}", zone);
        prop_assert_eq!(&tr_id_phi(&k, zone, &v).unwrap(), &i13, "(6) in {}", zone);
        let i8 = xy_from_xi_eta(&k, &tr_id_xi_eta(&k, zone, &xi_eta(&k, &v)).unwrap()).unwrap();
        prop_assert_eq!(&i8, &i13, "(8) in {}", zone);
    }

    /// Theorem 3.1 / 5.1: after a multiple impact the velocity is not in Z12; Remark 7:
    /// ‖v1‖² − ‖v0‖² = (ε² − 1)(k²ẋ0² + ẏ0²)²/(k⁴ẋ0² + ẏ0²); eq. (4) at ε = 1.
    #[test]
    fn multiple_impact_facts(k in pos(), eps in unit(), x in pos(), y in rat()) {
        let v = V2::new(x, y);
        prop_assume!(zone_xy(&k, &v, &k.zero_like()).unwrap() == Zone::Z12);
        let w = tr_nid_xy(&k, &eps, Zone::Z12, &v).unwrap();
        prop_assert_ne!(zone_xy(&k, &w, &k.zero_like()).unwrap(), Zone::Z12);
        let k2 = k.square();
        let x2 = v.x.square();
        let y2 = v.y.square();
        let rhs = (eps.square() - &eps.one_like())
            * ((k2.clone() * &x2 + y2.clone()).square())
                .checked_div(&(k2.square() * &x2 + y2))
                .unwrap();
        prop_assert_eq!(w.norm2() - v.norm2(), rhs);
        let ideal = tr_nid_xy(&k, &k.one_like(), Zone::Z12, &v).unwrap();
        prop_assert_eq!(energy_ratio(&v, &ideal).unwrap(), k.one_like());
    }

    /// Interval runs that decide every zone agree with the exact run and enclose it.
    #[test]
    fn interval_runs_enclose_exact_runs(k in pos(), eps in unit(), x in rat(), y in rat()) {
        let s = CornerSpec {
            alpha: format!("atan({k})"),
            v0: format!("{x},{y}"),
            restitution: RestitutionSpec::Symmetric(eps.to_string()),
            algorithm: Algorithm::Ta,
            threshold: None,
            rest_threshold: None,
            max_steps: 40,
            form: Form::Xy,
            max_digits: None,
            record_velocities: true,
        };
        // The interval run reads α = atan(k) and recomputes k = tan(α) as an enclosure;
        // the exact run takes k itself.
        let exact = impactkit::system::corner::CornerRun {
            k: k.clone(),
            restitution: impactkit::system::corner::Restitution::Symmetric(eps.clone()),
            threshold: k.zero_like(),
            rest_threshold: k.zero_like(),
            max_steps: 40,
            form: Form::Xy,
            max_digits: None,
            record_velocities: true,
        }
        .run(V2::new(x.clone(), y.clone()))
        .unwrap();
        let iv = s.run::<Interval>(&()).unwrap();
        if !matches!(iv.termination, Termination::Undecided { .. }) {
            prop_assert_eq!(&iv.zones, &exact.zones);
            for (a, b) in iv.velocities.iter().zip(&exact.velocities) {
                let (lo, hi) = a.x.rational_bounds().unwrap();
                prop_assert!(lo <= b.x.to_big() && b.x.to_big() <= hi);
                let (lo, hi) = a.y.rational_bounds().unwrap();
                prop_assert!(lo <= b.y.to_big() && b.y.to_big() <= hi);
            }
        }
    }
}

/// (6a–6d) and (1) disagree on two boundary rays (a finding about the paper's (6)).
#[test]
fn phi_zones_differ_from_eq_1_on_boundary_rays() {
    let k = r(1, 2);
    let z0 = k.zero_like();
    // cot φ = −cot α, sin φ < 0: k cos φ + sin φ = 0 → (1): Z1; (6): no zone
    let v = V2::new(r(2, 1), r(-1, 1));
    assert_eq!(zone_xy(&k, &v, &z0).unwrap(), Zone::Z1);
    assert_eq!(zones_phi(&k, &v).unwrap(), vec![]);
    // cot φ = cot α, sin φ < 0: k cos φ − sin φ = 0 → (1): Z0; (6a) and (6b) both hold
    let v = V2::new(r(-2, 1), r(-1, 1));
    assert_eq!(zone_xy(&k, &v, &z0).unwrap(), Zone::Z0);
    assert_eq!(zones_phi(&k, &v).unwrap(), vec![Zone::Z0, Zone::Z1]);
    // there the pieces of (6) agree (Z0 and Z1 both give v back): (6) has that value
    let out = tr_id_phi_in(&k, &zones_phi(&k, &v).unwrap(), &v).unwrap();
    assert_eq!(out, tr_id_xy(&k, Zone::Z0, &v).unwrap());
    // with (6b) corrected each of the four rays has exactly the zone of (1)
    for (x, y) in [(2, -1), (-2, -1), (2, 1), (-2, 1)] {
        let v = V2::new(r(x, 1), r(y, 1));
        assert_eq!(
            zones_phi_with(&k, &v, true).unwrap(),
            vec![zone_xy(&k, &v, &z0).unwrap()],
            "({x},{y})"
        );
    }
    // no zone: (6) has no value
    let v = V2::new(r(2, 1), r(-1, 1));
    assert!(tr_id_phi_in(&k, &zones_phi(&k, &v).unwrap(), &v).is_err());
    // elsewhere they agree
    for (x, y) in [
        (1, 0),
        (-1, 0),
        (1, 3),
        (1, -3),
        (-3, 1),
        (-3, -1),
        (2, 1),
        (-2, 1),
        (1, 1),
        (-1, 2),
    ] {
        let v = V2::new(r(x, 1), r(y, 1));
        assert_eq!(
            zones_phi(&k, &v).unwrap(),
            vec![zone_xy(&k, &v, &z0).unwrap()],
            "({x},{y})"
        );
    }
    // so the paper's example, run in the phi form, stops ambiguously at v1 = −(1/√2, 1/√2)
    let mut ex = spec("pi/4", "1/sqrt(2),1/sqrt(2)", "1", Algorithm::Ta);
    ex.form = Form::Phi;
    let t = ex.run::<Quadratic>(&()).unwrap();
    assert_eq!(t.steps, 1);
    assert_eq!(
        t.termination,
        Termination::Ambiguous {
            step: 1,
            zones: vec![Zone::Z0, Zone::Z1]
        }
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// Result 6: condition (9) predicts the number of iterations of TA in the ideal case.
    /// The prediction runs in MPFR intervals (it needs angles), the run in exact rationals.
    #[test]
    fn result_6_predicts_the_ideal_iteration_count(k in (1i64..=30, 1i64..=12), x in rat(), y in rat()) {
        let kq = r(k.0, k.1);
        let v = V2::new(x.clone(), y.clone());
        prop_assume!(v.norm2().sign() == Sign::Positive);
        let exact = impactkit::system::corner::CornerRun {
            k: kq.clone(),
            restitution: impactkit::system::corner::Restitution::Symmetric(kq.one_like()),
            threshold: kq.zero_like(),
            rest_threshold: kq.zero_like(),
            max_steps: 100_000,
            form: Form::Xy,
            max_digits: None,
            record_velocities: true,
        }
        .run(v)
        .unwrap();
        prop_assert_eq!(&exact.termination, &Termination::Exit);
        let p = 200;
        let alpha: impactkit::arith::MpInterval = eval_str(&format!("atan({kq})"), &p).unwrap();
        let vi = V2::new(
            impactkit::arith::MpInterval::from_rational(&x.to_big(), &p),
            impactkit::arith::MpInterval::from_rational(&y.to_big(), &p),
        );
        match predicted_iterations_ideal(&alpha, &vi) {
            Ok(n) => prop_assert_eq!(n, exact.steps, "k = {}, v = ({}, {})", kq, x, y),
            Err(impactkit::law::LawError::Undecided { .. }) => {} // on a boundary ray
            Err(e) => prop_assert!(false, "{e}"),
        }
    }
}

#[test]
fn result_6_on_a_narrow_corner() {
    // k = 1/5, v0 = (1, −1) ∈ Z1: many single impacts
    let (k, v) = (r(1, 5), V2::new(r(1, 1), r(-1, 1)));
    let exact = impactkit::system::corner::CornerRun {
        k: k.clone(),
        restitution: impactkit::system::corner::Restitution::Symmetric(k.one_like()),
        threshold: k.zero_like(),
        rest_threshold: k.zero_like(),
        max_steps: 1000,
        form: Form::Xy,
        max_digits: None,
        record_velocities: true,
    }
    .run(v)
    .unwrap();
    assert_eq!(exact.zones[0], Zone::Z1);
    let alpha: impactkit::arith::MpInterval = eval_str("atan(1/5)", &128).unwrap();
    let vi = V2::new(alpha.lift_i64(1), alpha.lift_i64(-1));
    assert_eq!(
        predicted_iterations_ideal(&alpha, &vi).unwrap(),
        exact.steps
    );
    assert_eq!(exact.steps, 6);
    // a Z12 start: one multiple impact more
    let v = V2::new(r(3, 1), r(1, 5));
    let alpha_f: f64 = eval_str("atan(1/5)", &()).unwrap();
    let ex = impactkit::system::corner::CornerRun {
        k: k.clone(),
        restitution: impactkit::system::corner::Restitution::Symmetric(k.one_like()),
        threshold: k.zero_like(),
        rest_threshold: k.zero_like(),
        max_steps: 1000,
        form: Form::Xy,
        max_digits: None,
        record_velocities: true,
    }
    .run(v)
    .unwrap();
    assert_eq!(ex.zones[0], Zone::Z12);
    let vf = V2::new(3.0, 0.2);
    assert_eq!(predicted_iterations_ideal(&alpha_f, &vf).unwrap(), ex.steps);
}

/// The plain iteration of the rules of one form, with no scaling (the reference for the
/// homogeneous driver of `CornerRun::run`).
fn plain_run(k: &Rational, eps: &Rational, form: Form, v0: V2<Rational>, n: usize) -> V2<Rational> {
    let zero = k.zero_like();
    let mut v = v0;
    for _ in 0..n {
        let zone = zone_xy(k, &v, &zero).unwrap();
        if zone == Zone::Z0 {
            break;
        }
        v = match form {
            Form::Xy => tr_nid_xy(k, eps, zone, &v).unwrap(),
            Form::Phi => tr_id_phi(k, zone, &v).unwrap(),
            Form::XiEta => {
                xy_from_xi_eta(k, &tr_nid_xi_eta(k, eps, zone, &xi_eta(k, &v)).unwrap()).unwrap()
            }
        };
    }
    v
}

fn run_of(
    k: &Rational,
    eps: &Rational,
    form: Form,
    n: usize,
) -> impactkit::system::corner::CornerRun<Rational> {
    impactkit::system::corner::CornerRun {
        k: k.clone(),
        restitution: impactkit::system::corner::Restitution::Symmetric(eps.clone()),
        threshold: k.zero_like(),
        rest_threshold: k.zero_like(),
        max_steps: n,
        form,
        max_digits: None,
        record_velocities: false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// TA iterates on a direction and a scale (v = t·w, `Scalar::split_scale`); the exact
    /// result is the plain iteration's, in every form, whatever the content and the
    /// denominators of the inputs.
    #[test]
    fn homogeneous_runs_equal_plain_runs(k in pos(), eps in unit(), x in rat(), y in rat(), n in 1usize..40) {
        for form in [Form::Xy, Form::XiEta, Form::Phi] {
            let e = if form == Form::Phi { k.one_like() } else { eps.clone() };
            let t = run_of(&k, &e, form, n).run(V2::new(x.clone(), y.clone())).unwrap();
            // the zone conditions (6) of the φ form are ambiguous on two boundary rays
            // (claim fp-6-zone-boundaries): there the run stops, the plain loop (zones by
            // eq. (1)) goes on
            if t.termination.name() == "ambiguous" {
                continue;
            }
            let want = plain_run(&k, &e, form, V2::new(x.clone(), y.clone()), n);
            prop_assert_eq!(t.final_velocity(), &want, "form {:?}", form);
        }
    }
}

/// Workload W1 of the benchmarks (Fassino–Pasquero (14), k² = 10⁻⁶, ε = 99/100,
/// (ξ̇, η̇) = (3/2, 1/2), 1000 rule applications): the numerator of the final ξ̇ has
/// 26,581 bits, as PARI/GP computes it with canonical rationals.
#[test]
fn w1_numerator_has_26581_bits() {
    let k = r(1, 1000);
    let t = run_of(&k, &r(99, 100), Form::XiEta, 1000)
        .run(V2::new(r(1000, 1), r(1, 2)))
        .unwrap();
    assert_eq!(t.steps, 1000);
    assert_eq!(t.termination, Termination::MaxSteps);
    let w = xi_eta(&k, t.final_velocity());
    assert_eq!(w.x.numer().significant_bits(), 26_581);
    assert_eq!(w.y.numer().significant_bits(), 26_561);
    assert_eq!(w.x.denom().significant_bits(), 26_574);
    // Z12 once, then the single-wall impacts alternate
    assert_eq!(t.zones[0], Zone::Z12);
    assert!(t.zones[1..].windows(2).all(|p| p[0] != p[1]));
}

/// Issue 37: ordinary inputs whose f64 run decays below the smallest double (ε = 0, the
/// velocity halving in Z12 Z1) end as a result, `arith-failure` at the step where a
/// denominator of (13d) rounded to 0, not as bad input; `--svg` with its default CORs
/// (which include 0) draws; a long zone list is elided in text and full in JSON.
#[test]
fn f64_underflow_ends_the_run_as_a_result() {
    for v0 in ["1,tan(pi/12)", "cos(pi/16),sin(pi/16)"] {
        let alpha = if v0.starts_with('1') { "pi/6" } else { "pi/8" };
        let args = [
            "corner", "--alpha", alpha, "--v0", v0, "--eps", "0", "--arith", "f64",
        ];
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{v0}: {err}");
        assert!(out.contains("termination: arith-failure"), "{out}");
        assert!(
            out.contains("division by zero: a denominator rounded to 0"),
            "{out}"
        );
        assert!(out.contains(" more) … "), "the zone list is elided: {out}");
        let mut json_args = args.to_vec();
        json_args.extend(["--format", "json"]);
        let v = json(&json_args);
        assert_eq!(v["termination"], "arith-failure");
        let steps = v["steps"].as_u64().unwrap() as usize;
        assert_eq!(
            v["zones"].as_array().unwrap().len(),
            steps + 1,
            "JSON keeps every zone"
        );
        assert!(v["arith_failure"]
            .as_str()
            .unwrap()
            .starts_with(&format!("stopped at step {steps}:")));
    }
    // issue 38: the asymmetric run's β denominator |V1 + V2|^2 underflows to 0 in f64
    // (zero only at v = 0; the quadratic run goes on for 1,515 steps): a result too
    let (code, out, err) = run(&[
        "corner",
        "--alpha",
        "pi/6",
        "--v0",
        "1,tan(pi/12)",
        "--eps1",
        "0",
        "--eps2",
        "0.001",
        "--arith",
        "f64",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("termination: arith-failure"), "{out}");
    assert!(
        out.contains("a denominator rounded to 0 (beta is undefined"),
        "{out}"
    );
    let d = tempdir("corner-svg-defaults");
    std::fs::create_dir_all(&d).unwrap();
    let svg = d.join("corner.svg");
    let (code, _, err) = run(&[
        "corner",
        "--alpha",
        "pi/6",
        "--v0",
        "1,tan(pi/12)",
        "--eps",
        "1/2",
        "--arith",
        "f64",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
}
