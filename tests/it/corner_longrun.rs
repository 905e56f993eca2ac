//! Certified long runs of TA (Fassino & Pasquero (2020), Sect. 5–6): a proof that the run
//! never exits, or the exact number of steps to the exit, without iterating every step.

use impactkit::arith::{MpInterval, Rational, Scalar, Sign};
use impactkit::law::corner::{h_matrices, Zone};
use impactkit::law::V2;
use impactkit::system::corner::{Form, Termination};
use impactkit::system::corner_longrun::{long_run, LongRunLimits, Outcome};
use impactkit::system::corner_spec::{Algorithm, CornerSpec, RestitutionSpec};
use num_rational::BigRational;

fn r(n: i64, d: i64) -> Rational {
    Rational::from_big(&BigRational::new(n.into(), d.into()))
}

fn q(s: &str) -> Rational {
    let (n, d) = s.split_once('/').unwrap_or((s, "1"));
    Rational::from_big(&BigRational::new(n.parse().unwrap(), d.parse().unwrap()))
}

fn spec(alpha: &str, v0: &str, eps: &str, max_steps: usize) -> CornerSpec {
    CornerSpec {
        alpha: alpha.into(),
        v0: v0.into(),
        restitution: RestitutionSpec::Symmetric(eps.into()),
        algorithm: Algorithm::Ta,
        threshold: None,
        rest_threshold: None,
        max_steps,
        form: Form::Xy,
        max_digits: None,
        record_velocities: false,
    }
}

fn det(u: &V2<Rational>, v: &V2<Rational>) -> Sign {
    (u.x.clone() * &v.y - u.y.clone() * &v.x).sign()
}

/// The target example: α = atan(1/1000), v0 = (1000, 1/2), ε = 99/100. One Z12 step, then
/// (Z1 Z2) forever: M = H₁ has real eigenvalues and an invariant cone inside P.
#[test]
fn target_example_never_exits_exactly() {
    let (k, eps) = (r(1, 1000), r(99, 100));
    let v0 = V2::new(r(1000, 1), r(1, 2));
    let lr = long_run(&k, &eps, &v0, &LongRunLimits::default()).unwrap();
    assert_eq!(lr.entry_zones, vec![Zone::Z12]);
    let p = lr.pattern.as_ref().unwrap();
    assert_eq!(p.zones, [Zone::Z1, Zone::Z2]);
    // worked out by hand (exact rationals, scratch script): (ξ̇1, η̇1) after (14d)
    assert_eq!(
        (p.start.x.clone(), p.start.y.clone()),
        (q("-69500079/20000080"), q("109499841/20000080"))
    );
    // M = H₁ of Theorem 5.3
    let (h1, _) = h_matrices(&k, &eps).unwrap();
    assert_eq!(p.matrix, h1);
    assert_eq!(p.matrix[0][1], q("-19700980299/10000010000"));
    assert_eq!(p.matrix[1][1], q("29700900998029701/10000020000010000"));
    assert_eq!(p.det, q("9801/10000"));
    assert_eq!(p.trace, q("19800881198019801/10000020000010000"));
    assert_eq!(
        p.discriminant,
        q("33328055741828133043196039601/100000400000600000400000100000000")
    );
    let Outcome::NeverExits {
        cone,
        rho,
        per_step,
    } = &lr.outcome
    else {
        panic!("expected never-exits, got {:?}", lr.outcome)
    };
    // the cone: one ray is the state itself, det(r1, r2) > 0, both rays and their images
    // re-checked here independently
    assert!(cone.contains(&p.start));
    assert_eq!(det(&cone[0], &cone[1]), Sign::Positive);
    let mv = |v: &V2<Rational>| {
        let m = &p.matrix;
        V2::new(
            m[0][0].clone() * &v.x + m[0][1].clone() * &v.y,
            m[1][0].clone() * &v.x + m[1][1].clone() * &v.y,
        )
    };
    for ray in cone {
        let image = mv(ray);
        assert_ne!(det(&cone[0], &image), Sign::Negative);
        assert_ne!(det(&image, &cone[1]), Sign::Negative);
        // Z1: ξ̇ ≤ 0 < η̇; A₁ ray = (ξ̇ + bη̇, −εη̇) ∈ Z2: ξ̇ + bη̇ > 0
        assert_ne!(ray.x.sign(), Sign::Positive);
        assert_eq!(ray.y.sign(), Sign::Positive);
    }
    // ρ(H₁) = 0.99917004815906…, per step √ρ = 0.99958493794127…
    let (lo, hi) = (rho.lo().to_f64(), rho.hi().to_f64());
    assert!(lo <= 0.999_170_048_159_061_5 && 0.999_170_048_159_061 <= hi);
    assert!(hi - lo < 1e-30);
    assert!((per_step.lo().to_f64() - 0.999_584_937_941_274_5).abs() < 1e-15);
    assert_eq!(lr.summary(), "Z12 then (Z1 Z2) forever");
}

/// The same through the command's certified run with --max-steps unlimited.
#[test]
fn target_example_certified_report() {
    let s = spec("atan(1/1000)", "1000,1/2", "99/100", usize::MAX);
    let rep = s.certified(impactkit::certify::DEFAULT_MAX_BITS).unwrap();
    assert_eq!(rep.termination, "never-exits");
    assert_eq!(rep.steps, 1);
    assert_eq!(rep.certified_by, Some(Some("exact".to_string())));
    let c = rep.certificate.as_ref().unwrap();
    assert_eq!(c.kind, "never-exits");
    assert_eq!(c.pattern, vec!["Z1", "Z2"]);
    assert_eq!(c.steps_before_pattern, Some(1));
    let json = serde_json::to_value(&rep).unwrap();
    assert_eq!(json["certificate"]["kind"], "never-exits");
    assert!(json["certificate"]["rho"]["lo"].is_string());
}

/// A run that exits after thousands of steps (complex eigenvalues): the certificate's step
/// count and exit velocity equal the plain exact step-by-step run's.
#[test]
fn exits_after_thousands_of_steps_matches_exact_run() {
    let s = spec("atan(1/390)", "1000,1/2", "99/100", 10_000);
    let plain = s.run::<Rational>(&()).unwrap();
    assert_eq!(plain.termination, Termination::Exit);
    let (k, eps) = (r(1, 390), r(99, 100));
    let lr = long_run(
        &k,
        &eps,
        &V2::new(r(1000, 1), r(1, 2)),
        &LongRunLimits::default(),
    )
    .unwrap();
    let p = lr.pattern.as_ref().unwrap();
    assert_eq!(p.discriminant.sign(), Sign::Negative);
    let Outcome::Exits {
        periods,
        steps,
        tail,
        exit_xy,
        ..
    } = &lr.outcome
    else {
        panic!("expected an exit")
    };
    assert_eq!(*steps as usize, plain.steps);
    assert!(plain.steps > 2000, "{}", plain.steps);
    assert_eq!(1 + 2 * *periods as usize + tail.len() - 1, plain.steps);
    assert_eq!(exit_xy, plain.final_velocity());
    assert_eq!(lr.all_zones(u64::MAX).unwrap(), plain.zones);
    // and through the command's certified run (finite --max-steps: unchanged ladder)
    let rep = spec("atan(1/390)", "1000,1/2", "99/100", usize::MAX)
        .certified(impactkit::certify::DEFAULT_MAX_BITS)
        .unwrap();
    assert_eq!((rep.termination.as_str(), rep.steps), ("exit", plain.steps));
    assert_eq!(rep.certificate.as_ref().unwrap().kind, "exits");
}

/// k = tan(π/16) is irrational (not in one Q(√d)): the certificate is made with MPFR
/// intervals, every sign decided rigorously.
#[test]
fn irrational_k_through_intervals() {
    let ctx = 256u32;
    let k = MpInterval::from_rational_prec(&BigRational::from_integer(0.into()), ctx)
        .lift_i64(1)
        .clone();
    let pi16 = MpInterval::pi(&ctx)
        .unwrap()
        .checked_div(&k.lift_i64(16))
        .unwrap();
    let k = pi16.tan().unwrap();
    let quarter = k.lift(&BigRational::new(1.into(), 4.into()));
    let v0 = V2::new(
        k.lift_i64(1),
        k.lift(&BigRational::new(1.into(), 10.into())),
    );
    // ε = 1/4: b² > 4ε, real eigenvalues, never exits
    let lr = long_run(&k, &quarter, &v0, &LongRunLimits::default()).unwrap();
    assert!(matches!(lr.outcome, Outcome::NeverExits { .. }), "{lr:?}");
    assert_eq!(lr.entry_zones, vec![Zone::Z12]);
    // ε = 45/100: complex eigenvalues, exits; the same count as the interval run
    let e = k.lift(&BigRational::new(45.into(), 100.into()));
    let lr = long_run(&k, &e, &v0, &LongRunLimits::default()).unwrap();
    let Outcome::Exits { steps, .. } = lr.outcome else {
        panic!("expected an exit")
    };
    let plain = spec("pi/16", "1,1/10", "45/100", 10_000)
        .run::<MpInterval>(&256)
        .unwrap();
    assert_eq!(plain.termination, Termination::Exit);
    assert_eq!(steps as usize, plain.steps);
    // the command: the certified ladder skips exact/quadratic; the long-run certificate
    // is decided exactly in Q(cos(π/16)) (issue 34)
    let rep = spec("pi/16", "1,1/10", "1/4", usize::MAX)
        .certified(impactkit::certify::DEFAULT_MAX_BITS)
        .unwrap();
    assert_eq!(rep.termination, "never-exits");
    assert_eq!(
        rep.certified_by.clone().unwrap().as_deref(),
        Some("algebraic")
    );
}

/// The target command finishes, with `--max-steps unlimited` (timing: see the report of
/// the change; the test does not assert it).
#[test]
fn cli_target_command_never_exits() {
    let (code, out, err) = crate::common::run(&[
        "corner",
        "--alpha",
        "atan(1/1000)",
        "--v0",
        "1000,1/2",
        "--eps",
        "99/100",
        "--arith",
        "certified",
        "--max-steps",
        "unlimited",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["termination"], "never-exits");
    assert_eq!(v["certificate"]["kind"], "never-exits");
    let (code, out, _) = crate::common::run(&[
        "corner",
        "--alpha",
        "atan(1/1000)",
        "--v0",
        "1000,1/2",
        "--eps",
        "99/100",
        "--arith",
        "certified",
        "--max-steps",
        "unlimited",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("never exits"), "{out}");
    // other commands keep their whole-number --max-steps
    let (code, _, err) = crate::common::run(&[
        "corner",
        "--alpha",
        "pi/4",
        "--v0",
        "1,0",
        "--eps",
        "1",
        "--arith",
        "exact",
        "--max-steps",
        "unlimited",
    ]);
    assert_eq!(code, 2, "{err}");
}

/// A finite N_max: the ladder runs as before; a run it leaves at its work limit gets the
/// certificate attached (here: never exits), its termination unchanged.
#[test]
fn finite_max_steps_attaches_the_certificate_to_an_open_run() {
    let mut s = spec("atan(1/3)", "1,1/10", "1/10", 10_000);
    s.max_digits = Some(impactkit::input::caps::DEFAULT_DIGITS);
    let rep = s.certified(impactkit::certify::DEFAULT_MAX_BITS).unwrap();
    assert_eq!(rep.termination, "work-limit");
    let c = rep.certificate.as_ref().unwrap();
    assert_eq!(
        (c.kind.as_str(), c.steps_before_pattern),
        ("never-exits", Some(1))
    );
    // a run the ladder decides keeps its report, without certificate
    let rep = spec("atan(1/390)", "1000,1/2", "99/100", 10_000)
        .certified(impactkit::certify::DEFAULT_MAX_BITS)
        .unwrap();
    assert_eq!((rep.termination.as_str(), rep.steps), ("exit", 3067));
    assert_eq!(rep.certified_by, Some(Some("interval".to_string())));
    assert!(rep.certificate.is_none());
}
