//! The TREX design study (Seghete–Murphey Sect. VII-B) in the declared model of
//! `docs/trex-model.md`.

use impactkit::arith::{MpInterval, Quadratic, Rational, Scalar};
use impactkit::system::trex::{
    certify_orthogonal, l_tail, l_tail_homothetic, table_i, TailRule, TrexDesign, TrexPoint,
};
use num_bigint::BigInt;
use num_rational::BigRational;

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

/// L_tail(7, 4): r1⁴r2² + r1³r2³ = 60368, √2·√60368 = √120736 = 28√154, r1² − r2² = 33,
/// so L = (343 + 196 + 28√154)/33 − 11 = (539 + 28√154)/33 − 11 = (176 + 28√154)/33.
#[test]
fn l_tail_at_7_4_in_q_sqrt_154() {
    let hand = Quadratic::new(
        rug::Rational::from((176, 33)),
        rug::Rational::from((28, 33)),
        &rug::Integer::from(154),
    )
    .unwrap();
    // the factored form r1 r2 √(2 r1 (r1 + r2)) keeps one square root: exact in Q(√154)
    let r = |n: i64| Quadratic::from_i64(n, &());
    let (r1, r2) = (r(7), r(4));
    let root = (r(2) * &r1 * &(r1.clone() + &r2)).sqrt().unwrap();
    let factored = (r1.square() * &(r1.clone() + &r2) + &(r1.clone() * &r2 * &root))
        .checked_div(&(r1.square() - &r2.square()))
        .unwrap()
        - &(r1.clone() + &r2);
    assert_eq!(factored, hand);
    // the printed form (two square roots) in MPFR intervals encloses the hand value
    let printed = l_tail(
        &MpInterval::from_i64(7, &200),
        &MpInterval::from_i64(4, &200),
    )
    .unwrap();
    let exact = hand.to_mp_interval(200);
    assert!(printed.lo() <= exact.hi() && exact.lo() <= printed.hi());
    let (lo, hi) = printed.enclosure().unwrap();
    assert!(
        lo > 15.86275 && hi < 15.86276 && hi - lo < 1e-12,
        "{lo} {hi}"
    );
    // the homothetic length is rational: 11·4/3
    assert_eq!(
        l_tail_homothetic(&Rational::new(7, 1), &Rational::new(4, 1)).unwrap(),
        Rational::new(44, 3)
    );
}

#[test]
fn l_tail_is_homogeneous_not_a_function_of_the_ratio() {
    let l = |a: f64, b: f64| l_tail(&a, &b).unwrap();
    assert!((l(14.0, 8.0) - 2.0 * l(7.0, 4.0)).abs() < 1e-12);
    assert!((l(6.69, 4.22) - 19.8677).abs() < 1e-3);
}

fn initial(tail: TailRule) -> TrexPoint<f64> {
    table_i()[0].point::<f64>(&(), tail)
}

#[test]
fn table_columns_map_to_q_order() {
    // Table I prints x y θ φL φR γL γR φT; q is [x, y, θ, φL, γL, φR, γR, φT]
    let (q0, d) = table_i()[1].exact();
    assert_eq!(q0[5], q(285, 100)); // φR
    assert_eq!(q0[4], q(571, 100)); // γL
    assert_eq!(q0[6], q(567, 100)); // γR
    assert_eq!(q0[7], q(-19, 100)); // φT
    assert_eq!(d[0], q(669, 100));
}

#[test]
fn mass_matrix_is_symmetric_positive_definite() {
    for row in table_i() {
        let p = row.point::<f64>(&(), TailRule::Printed);
        let m = p.mass_matrix().unwrap();
        let full = m.full();
        for (i, row) in full.iter().enumerate() {
            for (j, mij) in row.iter().enumerate() {
                assert_eq!(*mij, full[j][i]);
            }
        }
        m.check_positive_definite().unwrap();
        // x, y are the total mass's coordinates: M_xx = M_yy = Σ m, M_xy = 0
        let l = p.layout().unwrap();
        let total: f64 = l.bodies.iter().map(|b| b.mass).sum();
        assert!((full[0][0] - total).abs() < 1e-9 * total);
        assert!((full[1][1] - total).abs() < 1e-9 * total);
        assert!(full[0][1].abs() < 1e-9);
    }
}

#[test]
fn normals_match_finite_differences() {
    let p = initial(TailRule::Printed);
    let ((gt, gf), [u, v]) = p.gaps_and_normals().unwrap();
    let h = 1e-6;
    for i in 0..8 {
        let mut pp = p.clone();
        pp.q[i] += h;
        let mut pm = p.clone();
        pm.q[i] -= h;
        let ((tp, fp), _) = pp.gaps_and_normals().unwrap();
        let ((tm, fm), _) = pm.gaps_and_normals().unwrap();
        assert!((u[i] - (tp - tm) / (2.0 * h)).abs() < 1e-6, "u[{i}]");
        assert!((v[i] - (fp - fm) / (2.0 * h)).abs() < 1e-6, "v[{i}]");
    }
    // the tail tip does not move with the legs, the foot not with the tail
    assert_eq!((u[3], u[4], u[5], u[6]), (0.0, 0.0, 0.0, 0.0));
    assert_eq!(v[7], 0.0);
    assert_eq!((u[1], v[1]), (1.0, 1.0));
    // the printed L_tail leaves the tail tip 0.57 cm below the floor at the Initial row
    assert!(
        (gt + 0.5737).abs() < 1e-3 && (gf - 0.1160).abs() < 1e-3,
        "{gt} {gf}"
    );
    let ((gh, _), _) = initial(TailRule::Homothetic).gaps_and_normals().unwrap();
    assert!(gh.abs() < 0.005, "{gh}");
}

#[test]
fn the_design_is_read_from_its_array() {
    let d = TrexDesign::from_array([1.0, 2.0, 3.0, 4.0]);
    assert_eq!(d.to_array(), [1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn certified_orthogonal_point() {
    let radius = BigRational::new(1.into(), BigInt::from(10).pow(40));
    let c = certify_orthogonal(TailRule::Printed, 256, &radius).unwrap();
    assert!(c.proved, "Krawczyk: K(X) inside X");
    assert!(c.width <= 2.0001e-40 && c.width > 1e-41, "{}", c.width);
    // the f64 Newton converged
    assert!(*c.newton.residuals.last().unwrap() < 1e-12);
    let r = &c.report;
    let zero = BigRational::default();
    for (what, x, w) in [
        ("ip", &r.inner, 1e-39),
        ("gap_tail", &r.gap_tail, 1e-38),
        ("gap_foot", &r.gap_foot, 1e-38),
        ("xi2", &r.xi_squared, 1e-70),
    ] {
        assert!(x.contains_rational(&zero), "{what} encloses 0: {x}");
        let (lo, hi) = x.enclosure().unwrap();
        assert!(hi - lo < w, "{what} narrow: {lo} {hi}");
    }
    // nearby: within 0.2 (cm or rad) of the Initial row
    let (q0, d0) = table_i()[0].exact();
    for (a, b) in c.fixed.iter().zip(q0[1..].iter().chain(d0.iter())) {
        let diff: f64 = num_traits::ToPrimitive::to_f64(&(a - b)).unwrap();
        assert!(diff.abs() < 0.2, "{diff}");
    }
}

#[test]
fn xi_is_positive_at_the_initial_row() {
    let p = table_i()[0].point::<MpInterval>(&128, TailRule::Printed);
    let r = p.report().unwrap();
    let (lo, hi) = r.xi_squared.enclosure().unwrap();
    assert!(lo > 3.1e-8 && hi < 3.11e-8, "{lo} {hi}");
    let (lo, hi) = r.inner.enclosure().unwrap();
    assert!(lo > -2.09e-5 && hi < -2.08e-5, "{lo} {hi}");
    // f64 agrees
    let f = initial(TailRule::Printed).report().unwrap();
    assert!((f.xi_squared - 3.1029e-8).abs() < 1e-11);
}
