//! Pasquero's characterization and Newton's cradle: Table 1, the closed forms p1, p2, p3,
//! the threshold 3 − 2√2, agreement with the dedicated corner rules.

use impactkit::arith::{Quadratic, Rational, Scalar, Sign};
use impactkit::lang::eval_str;
use impactkit::law::characterization::*;
use impactkit::law::corner::{asymmetric_xy, tr_nid_xy, zone_xy, Zone};
use impactkit::law::V2;
use impactkit::linalg::SymMatrix;
use impactkit::report::cradle::Agreement;
use impactkit::system::cradle::*;
use num_rational::BigRational;
use proptest::prelude::*;

fn r(n: i64, d: i64) -> Rational {
    Rational::from_big(&BigRational::new(n.into(), d.into()))
}
fn q(s: &str) -> Rational {
    eval_str(s, &()).unwrap()
}

#[test]
fn table1_exact() {
    let rows = table1::<Rational>(&());
    // rows with ε ≥ 0.1 match exactly or to the printed digits, with the same count
    for res in rows
        .iter()
        .filter(|x| q(x.row.cor).to_big() >= BigRational::new(1.into(), 10.into()))
    {
        assert!(
            res.iterations_match && res.termination_match,
            "row {}",
            res.row.cor
        );
        assert!(
            res.agreement.iter().all(|a| *a != Agreement::Differs),
            "row {}: {:?}",
            res.row.cor,
            res.agreement
        );
    }
    // ε = 9/10: 381/80, 399/80, 361/4 in 3 iterations
    let nine = rows.iter().find(|x| x.row.cor == "0.9").unwrap();
    let o = nine.outcome.as_ref().unwrap();
    assert_eq!(o.final_velocity(), &vec![r(381, 80), r(399, 80), r(361, 4)]);
    assert_eq!(o.steps.len(), 3);
    // ε = 0.1715 needs 4 iterations
    let o = rows
        .iter()
        .find(|x| x.row.cor == "0.1715")
        .unwrap()
        .outcome
        .as_ref()
        .unwrap();
    assert_eq!(o.steps.len(), 4);
}

/// The AEEV rows (ε ≤ 0.0744) with the criterion as the paper states it (σ = 10⁻⁹‖v0‖ on
/// the relative velocities): what matches and what does not is locked here and reported
/// in the README; the criterion is not tuned to the table.
#[test]
fn table1_aeev_rows_as_stated() {
    let rows = table1::<Rational>(&());
    let summary: Vec<(&str, usize, &str, bool)> = rows
        .iter()
        .filter(|x| x.row.aeev || x.row.cor == "0.0744")
        .map(|x| {
            let o = x.outcome.as_ref().unwrap();
            (
                x.row.cor,
                o.steps.len(),
                o.stop.name(),
                x.iterations_match && x.termination_match,
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            ("0.0744", 16, "aeev", false),
            ("0.0743", 17, "aeev", true),
            ("0.01", 29, "aeev", false),
            ("0", 30, "aeev", false),
        ]
    );
}

/// The closed forms p1, p2, p3 of Sect. 4.1, exactly, for ε = 0, 1/20, …, 1 and v0 = 7/3.
#[test]
fn closed_forms_p1_p2_p3() {
    let v0 = r(7, 3);
    for k in 0..=20 {
        let e = r(k, 20);
        let one = r(1, 1);
        let o = run_cradle(
            &[one.clone(), one.clone(), one.clone()],
            &[e.clone(), e.clone()],
            vec![v0.clone(), r(0, 1), r(0, 1)],
            None,
            3,
        )
        .unwrap();
        let f = |x: Rational| x * &v0;
        let d = |n: i64| r(1, n);
        let p1 = vec![
            f((one.clone() - &e) * &d(2)),
            f((one.clone() + &e) * &d(2)),
            r(0, 1),
        ];
        let p2 = vec![
            f((one.clone() - &e) * &d(2)),
            f((one.clone() - &e.square()) * &d(4)),
            f((one.clone() + &e).square() * &d(4)),
        ];
        let p3 = vec![
            f((one.clone() - &e) * &(r(3, 1) + e.square()) * &d(8)),
            f((one.clone() - &e.square()) * &(r(3, 1) - e.clone()) * &d(8)),
            f((one.clone() + &e).square() * &d(4)),
        ];
        assert_eq!(o.steps[0].velocity, p1, "p1 at eps = {e}");
        assert_eq!(o.steps[0].impacting, vec![0]);
        assert_eq!(o.steps[1].velocity, p2, "p2 at eps = {e}");
        assert_eq!(o.steps[1].impacting, vec![1]);
        if k < 20 {
            assert_eq!(o.steps[2].velocity, p3, "p3 at eps = {e}");
            assert_eq!(o.steps[2].kind(), "single");
        }
    }
}

/// "p3 is an exit velocity iff ε ≥ 3 − 2√2", decided exactly in Q(√2) at the threshold
/// itself, and on both sides.
#[test]
fn exit_threshold_three_minus_two_sqrt_two() {
    let run = |eps: &str| {
        let e: Quadratic = eval_str(eps, &()).unwrap();
        let one = e.one_like();
        run_cradle(
            &[one.clone(), one.clone(), one.clone()],
            &[e.clone(), e],
            vec![one.lift_i64(100), one.zero_like(), one.zero_like()],
            None,
            100,
        )
        .unwrap()
    };
    let at = run("3-2*sqrt(2)");
    assert_eq!((at.steps.len(), at.stop.name()), (3, "exit"));
    let p3 = at.final_velocity();
    assert_eq!(
        (p3[1].clone() - &p3[2]).sign(),
        Sign::Zero,
        "v2 = v3 at the threshold"
    );
    assert_eq!(run("3-2*sqrt(2) + 1/10^12").steps.len(), 3);
    assert_eq!(run("3-2*sqrt(2) - 1/10^12").steps.len(), 4);
}

fn rat() -> impl Strategy<Value = Rational> {
    (-30i64..=30, 1i64..=9).prop_map(|(n, d)| r(n, d))
}
fn unit() -> impl Strategy<Value = Rational> {
    (0i64..=10).prop_map(|n| r(n, 10))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1_000, ..ProptestConfig::default() })]

    /// The disk in a corner through the general machinery (M = I, normals (k, −1) and
    /// (k, 1)) is exactly Fassino–Pasquero (13a–13d) and Pasquero's rule (10).
    #[test]
    fn corner_through_general_machinery(k in (1i64..=30, 1i64..=9), e1 in unit(), e2 in unit(), x in rat(), y in rat()) {
        let k = r(k.0, k.1);
        let one = k.one_like();
        let c = Constraints::new(
            SymMatrix::diagonal(&[one.clone(), one.clone()]),
            vec![vec![k.clone(), -one.clone()], vec![k.clone(), one.clone()]],
        ).unwrap();
        let v = vec![x.clone(), y.clone()];
        let set = c.impacting(&v).unwrap();
        let zone = zone_xy(&k, &V2::new(x.clone(), y.clone()), &k.zero_like()).unwrap();
        let expected_set = match zone { Zone::Z0 => vec![], Zone::Z1 => vec![0], Zone::Z2 => vec![1], Zone::Z12 => vec![0, 1] };
        prop_assert_eq!(&set, &expected_set);
        let general = |cors: &[Rational]| {
            let i = impulse_asymmetric(&c, cors, &set, &v).unwrap();
            V2::new(x.clone() + &i[0], y.clone() + &i[1])
        };
        let vx = V2::new(x.clone(), y.clone());
        prop_assert_eq!(general(&[e1.clone(), e2.clone()]), asymmetric_xy(&k, &e1, &e2, zone, &vx).unwrap());
        prop_assert_eq!(general(&[e1.clone(), e1.clone()]), tr_nid_xy(&k, &e1, zone, &vx).unwrap());
        // (5) and (6) are (7) with CORs 1 and ε
        let i5 = impulse_ideal(&c, &set, &v).unwrap();
        prop_assert_eq!(i5, impulse_asymmetric(&c, &[one.clone(), one.clone()], &set, &v).unwrap());
        let i6 = impulse_symmetric(&c, &e1, &set, &v).unwrap();
        prop_assert_eq!(i6, impulse_asymmetric(&c, &[e1.clone(), e1.clone()], &set, &v).unwrap());
    }

    /// Momentum is conserved by every cradle impulse (the normals are relative
    /// velocities), and the ideal rule conserves kinetic energy; any masses. At most 6
    /// impulses: in exact arithmetic a multiple impact with h constraints multiplies the
    /// number of digits by about 3 (the new velocity is v − β(v)·Σ(1+ε)V⊥, with β a ratio of
    /// quadratic forms in v), so 40 impulses could need millions of digits.
    #[test]
    fn cradle_conservation(m in prop::collection::vec((1i64..=9, 1i64..=5), 3..6), v in prop::collection::vec(rat(), 5), e in unit()) {
        let masses: Vec<Rational> = m.iter().map(|(a, b)| r(*a, *b)).collect();
        let n = masses.len();
        let v0: Vec<Rational> = v[..n].to_vec();
        let c = cradle_constraints(&masses).unwrap();
        let mom = |w: &[Rational]| w.iter().zip(&masses).fold(r(0, 1), |acc, (a, b)| acc + a.clone() * b);
        let cors = vec![e.clone(); n - 1];
        let o = procedure(&c, &cors, v0.clone(), None, &record_all(6)).unwrap();
        prop_assert_eq!(mom(o.final_velocity()), mom(&v0));
        let ones = vec![r(1, 1); n - 1];
        let o = procedure(&c, &ones, v0.clone(), None, &record_all(6)).unwrap();
        prop_assert_eq!(kinetic_energy(&c, o.final_velocity()).unwrap(), kinetic_energy(&c, &v0).unwrap());
        if o.stop == Stop::Exit {
            prop_assert!(c.impacting(o.final_velocity()).unwrap().is_empty());
        }
    }
}

#[test]
fn degenerate_inputs_are_errors() {
    let one = r(1, 1);
    let m = SymMatrix::diagonal(&[one.clone(), one.clone()]);
    let dependent = Constraints::new(
        m.clone(),
        vec![vec![one.clone(), one.clone()], vec![r(2, 1), r(2, 1)]],
    )
    .unwrap();
    let v = vec![one.clone(), one.clone()];
    let e = dependent.beta(&[0, 1], &v).unwrap_err().to_string();
    assert!(e.contains("linearly dependent"), "{e}");
    let e = Constraints::new(m.clone(), vec![vec![r(0, 1), r(0, 1)]])
        .unwrap_err()
        .to_string();
    assert!(e.contains("zero covector"), "{e}");
    let not_pd =
        SymMatrix::from_upper(vec![vec![one.clone(), r(2, 1)], vec![one.clone()]]).unwrap();
    let e = Constraints::new(not_pd, vec![vec![one.clone(), r(0, 1)]])
        .unwrap_err()
        .to_string();
    assert!(e.contains("not positive definite"), "{e}");
    assert!(cradle_constraints(std::slice::from_ref(&one)).is_err());
    let e = run_cradle(
        &[one.clone(), one.clone()],
        std::slice::from_ref(&one),
        vec![one.clone()],
        None,
        5,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("initial velocities"), "{e}");
}
