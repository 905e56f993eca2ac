//! The symbolic backend: exact unit values, a proptest against `Rational`, and the closed
//! forms of Fassino–Pasquero (2020) and Pasquero (cradle, Sect. 4.1) computed by running
//! the law code itself on rational functions, zone fixed by hypothesis.

use impactkit::arith::symbolic::{identical, parse_symbolic, IdentityOutcome, Symbolic};
use impactkit::arith::{ArithError, Rational, Scalar, Sign};
use impactkit::law::characterization::{impulse_asymmetric, impulse_symmetric, Stop};
use impactkit::law::corner::*;
use impactkit::law::V2;
use impactkit::linalg::add;
use impactkit::system::cradle::{cradle_constraints, run_cradle};
use num_rational::BigRational;
use proptest::prelude::*;

fn s(src: &str) -> Symbolic {
    parse_symbolic(src).unwrap_or_else(|e| panic!("{src}: {e}"))
}
fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}
fn at(pairs: &[(&str, BigRational)]) -> Vec<(String, BigRational)> {
    pairs
        .iter()
        .map(|(v, x)| (v.to_string(), x.clone()))
        .collect()
}
/// `law` (a value computed by the law code) equals the paper's displayed `formula`.
fn check(law: &Symbolic, formula: &str) -> IdentityOutcome {
    identical(&law.to_string(), formula, &[]).unwrap()
}
fn assert_same(law: &Symbolic, formula: &str) {
    assert_eq!(
        check(law, formula),
        IdentityOutcome::Identical,
        "law: {law}"
    );
}

// ---------------------------------------------------------------- unit values

#[test]
fn parse_render_round_trip() {
    let a = s("(1-e)*k/(1+k^2)");
    assert_eq!(a.to_string(), "(-e*k + k)/(k^2 + 1)");
    assert!(s(&a.to_string()).is_identical(&a));
    assert_eq!(s("x^2*y - 3/2*y + 1").to_string(), "x^2*y - 3/2*y + 1");
    assert_eq!(s("2*x/4").to_string(), "1/2*x");
    assert_eq!(s("x/(2*y)").to_string(), "1/2*x/y");
    assert_eq!(s("-x/(k^2+1)").to_string(), "-x/(k^2 + 1)");
    assert_eq!(s("1/(x*z)").to_string(), "1/(x*z)");
    assert_eq!(s("(x+1)/(3*y^2+3)").to_string(), "(1/3*x + 1/3)/(y^2 + 1)");
    assert_eq!(s("0.9").is_constant(), Some(q(9, 10)));
    assert_eq!(s("4.5e-2*x").to_string(), "9/200*x");
    assert_eq!(s("-2^2").is_constant(), Some(q(-4, 1)));
    assert_eq!(s("2^-1").is_constant(), Some(q(1, 2)));
    assert_eq!(s("x_1 + eps").variables(), vec!["eps", "x_1"]);
}

#[test]
fn parse_errors_are_one_line() {
    for (src, needle) in [
        ("x +", "unexpected end"),
        ("pi/4", "pi is not a rational function"),
        ("x^y", "not an integer"),
        ("2^(1/2)", "not an integer"),
        ("sqrt(x)", "sqrt(x)"),
        ("sqrt(2)", "sqrt(2)"),
        ("sin(x)", "sin(x)"),
        ("1/(x-x)", "division by zero"),
        ("(x", "expected ')'"),
        ("2 $ 3", "unexpected '$'"),
        ("", "empty"),
    ] {
        let e = parse_symbolic(src).unwrap_err();
        assert!(e.contains(needle), "{src}: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
}

#[test]
fn ring_and_field_operations() {
    let x = Symbolic::var("x");
    let one = x.one_like();
    let sq = (x.clone() + &one).square();
    assert_eq!(sq.to_string(), "x^2 + 2*x + 1");
    assert_eq!((sq - &s("x^2+2*x+1")).is_constant(), Some(q(0, 1)));
    assert_eq!(x.checked_div(&x).unwrap().is_constant(), Some(q(1, 1)));
    // (x² − 1)/(x − 1) is x + 1 as a rational function (no GCD: not cancelled)
    let r = s("x^2-1").checked_div(&s("x-1")).unwrap();
    assert_eq!(r.to_string(), "(x^2 - 1)/(x - 1)");
    assert!(r.is_identical(&s("x+1")));
    assert_eq!(r, s("x+1"));
    // common monomial factors cancel: x²y/(x y³) = x/y²
    assert_eq!(s("x^2*y/(x*y^3)").to_string(), "x/y^2");
    assert_eq!(
        x.checked_div(&(x.clone() - &x)),
        Err(ArithError::DivisionByZero)
    );
    assert_eq!(s("1/x + 1/x").to_string(), "2/x");
    assert_eq!(s("1/x + 1/y").to_string(), "(x + y)/(x*y)");
    assert_eq!(s("x").powi(-2).unwrap().to_string(), "1/x^2");
}

#[test]
fn sign_sqrt_and_transcendentals() {
    assert_eq!(s("3/2").sign(), Sign::Positive);
    assert_eq!(s("-x/x").sign(), Sign::Negative);
    assert_eq!(s("x - x").sign(), Sign::Zero);
    assert_eq!(s("x").sign(), Sign::Unknown);
    assert_eq!(s("x^2 + 1").sign(), Sign::Unknown);
    assert_eq!(s("9/4").sqrt().unwrap().is_constant(), Some(q(3, 2)));
    assert!(matches!(
        s("2").sqrt(),
        Err(ArithError::NotRepresentable {
            backend: "symbolic",
            ..
        })
    ));
    assert!(matches!(
        s("x^2").sqrt(),
        Err(ArithError::NotRepresentable { .. })
    ));
    assert!(matches!(s("-4").sqrt(), Err(ArithError::Domain(_))));
    assert_eq!(s("sin(0)").is_constant(), Some(q(0, 1)));
    assert_eq!(s("cos(x-x)").is_constant(), Some(q(1, 1)));
    assert_eq!(s("atan(0)+tan(0)").is_constant(), Some(q(0, 1)));
    assert!(Symbolic::pi(&()).is_err());
    assert!(parse_symbolic("cos(1)").unwrap_err().contains("cos(1)"));
    assert_eq!(Symbolic::NAME, "symbolic");
    assert!(Symbolic::is_exact());
    assert_eq!(s("1/4").to_f64(), 0.25);
    assert_eq!(s("1/4").enclosure(), Some((0.25, 0.25)));
    assert_eq!(s("1/3").rational_bounds(), Some((q(1, 3), q(1, 3))));
    assert!(s("x").to_f64().is_nan());
    assert_eq!(s("x").enclosure(), None);
    assert_eq!(s("x").rational_bounds(), None);
    let r = s("x/2").render();
    assert_eq!((r.value.as_str(), r.bounds), ("1/2*x", None));
}

#[test]
fn substitution_and_evaluation() {
    let a = s("(x^2 + y)/(x - 1)");
    let b = a.substitute("x", &s("1/t")).unwrap();
    assert_eq!(b.to_string(), "(-t^2*y - 1)/(t^2 - t)");
    let pt = at(&[("t", q(2, 1)), ("y", q(3, 1))]);
    assert_eq!(b.eval_rational(&pt), Ok(q(-13, 2)));
    assert_eq!(
        a.eval_rational(&at(&[("x", q(1, 2)), ("y", q(3, 1))])),
        Ok(q(-13, 2))
    );
    assert_eq!(
        a.eval_rational(&at(&[("x", q(1, 1)), ("y", q(3, 1))])),
        Err(ArithError::DivisionByZero)
    );
    assert!(matches!(
        a.eval_rational(&at(&[("x", q(2, 1))])),
        Err(ArithError::Domain(m)) if m.contains('y')
    ));
    assert_eq!(
        s("1/(x-y)").substitute("x", &s("y")),
        Err(ArithError::DivisionByZero)
    );
    assert_eq!(s("x*y + x").substitute("x", &s("2")).unwrap(), s("2*y+2"));
    assert_eq!(a.variables(), vec!["x", "y"]);
    assert_eq!(a.is_constant(), None);
}

#[test]
fn identity_outcomes() {
    let circle = [
        ("c".to_string(), "(1-t^2)/(1+t^2)".to_string()),
        ("s".to_string(), "2*t/(1+t^2)".to_string()),
    ];
    assert_eq!(
        identical("c^2 + s^2", "1", &circle),
        Ok(IdentityOutcome::Identical)
    );
    assert_eq!(
        identical("(x+1)^2", "x^2+1", &[]),
        Ok(IdentityOutcome::Different {
            witness: at(&[("x", q(1, 1))]),
            lhs: q(4, 1),
            rhs: q(2, 1)
        })
    );
    // the witness avoids poles of either side: x = 0, 1 are poles, −1 is the first point
    assert_eq!(
        identical("1/x", "1/(x-1)", &[]),
        Ok(IdentityOutcome::Different {
            witness: at(&[("x", q(-1, 1))]),
            lhs: q(-1, 1),
            rhs: q(-1, 2)
        })
    );
    assert!(matches!(
        identical("1/(x-y)", "0", &[("x".into(), "y".into())]),
        Ok(IdentityOutcome::Undefined(m)) if m.contains("left")
    ));
    assert!(identical("x +", "1", &[])
        .unwrap_err()
        .contains("left side"));
    assert!(identical("1", "1", &[("x".into(), "(".into())])
        .unwrap_err()
        .contains("substitution x"));
}

// ---------------------------------------------------------------- proptest vs Rational

/// A random polynomial in x, y, z with small coefficients, built with the ring operations.
fn poly() -> impl Strategy<Value = Vec<(i64, [u32; 3])>> {
    prop::collection::vec((-4i64..=4, [0u32..3, 0u32..3, 0u32..3]), 0..5)
}
fn build(terms: &[(i64, [u32; 3])]) -> Symbolic {
    let vars = ["x", "y", "z"].map(Symbolic::var);
    let mut acc = Symbolic::from_i64(0, &());
    for (c, e) in terms {
        let mut t = Symbolic::from_i64(*c, &());
        for (v, k) in vars.iter().zip(e) {
            t = t * v.powi(i64::from(*k)).unwrap();
        }
        acc = acc + t;
    }
    acc
}
fn eval(terms: &[(i64, [u32; 3])], p: &[BigRational; 3]) -> Rational {
    let mut acc = Rational::from_i64(0, &());
    for (c, e) in terms {
        let mut t = Rational::from_i64(*c, &());
        for (v, k) in p.iter().zip(e) {
            t = t * Rational(v.clone()).powi(i64::from(*k)).unwrap();
        }
        acc = acc + t;
    }
    acc
}
fn point() -> impl Strategy<Value = [BigRational; 3]> {
    [
        (-5i64..=5, 1i64..=4),
        (-5i64..=5, 1i64..=4),
        (-5i64..=5, 1i64..=4),
    ]
    .prop_map(|a| a.map(|(n, d)| q(n, d)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn operations_commute_with_evaluation(a in poly(), b in poly(), c in poly(), p in point()) {
        // rational functions a/c and b, so that denominators take part
        let (sa, sb, sc) = (build(&a), build(&b), build(&c));
        let (ra, rb, rc) = (eval(&a, &p), eval(&b, &p), eval(&c, &p));
        prop_assume!(rc.sign() != Sign::Zero);
        let fa = sa.checked_div(&sc).unwrap();
        let ra = ra.checked_div(&rc).unwrap();
        let pt = at(&[("x", p[0].clone()), ("y", p[1].clone()), ("z", p[2].clone())]);
        let ev = |v: &Symbolic| v.eval_rational(&pt).unwrap();
        prop_assert_eq!(ev(&(fa.clone() + &sb)), (ra.clone() + &rb).0);
        prop_assert_eq!(ev(&(fa.clone() - &sb)), (ra.clone() - &rb).0);
        prop_assert_eq!(ev(&(fa.clone() * &sb)), (ra.clone() * &rb).0);
        prop_assert_eq!(ev(&-fa.clone()), (-ra.clone()).0);
        match (fa.checked_div(&sb), rb.sign()) {
            (Err(e), _) => {
                prop_assert_eq!(e, ArithError::DivisionByZero);
                prop_assert!(sb.is_constant() == Some(q(0, 1)));
            }
            (Ok(_), Sign::Zero) => {}
            (Ok(d), _) => prop_assert_eq!(ev(&d), ra.checked_div(&rb).unwrap().0),
        }
        // substitution x := b, then evaluation = evaluation at x = b(p)
        let p2 = [rb.0.clone(), p[1].clone(), p[2].clone()];
        let (ra2, rc2) = (eval(&a, &p2), eval(&c, &p2));
        match fa.substitute("x", &sb) {
            Ok(sub) if rc2.sign() != Sign::Zero => {
                prop_assert_eq!(sub.eval_rational(&pt), Ok(ra2.checked_div(&rc2).unwrap().0));
            }
            Ok(_) => {}
            // the denominator c became identically 0
            Err(e) => {
                prop_assert_eq!(e, ArithError::DivisionByZero);
                prop_assert_eq!(rc2.sign(), Sign::Zero);
            }
        }
        // rendering re-parses to the same rational function
        prop_assert!(parse_symbolic(&fa.to_string()).unwrap().is_identical(&fa));
    }
}

// ---------------------------------------------------------------- Fassino–Pasquero (2020)

const ZONES: [Zone; 4] = [Zone::Z0, Zone::Z1, Zone::Z2, Zone::Z12];

fn v2(x: &str, y: &str) -> V2<Symbolic> {
    V2::new(s(x), s(y))
}
fn same_v2(a: &V2<Symbolic>, b: &V2<Symbolic>) -> bool {
    a.x.is_identical(&b.x) && a.y.is_identical(&b.y)
}

/// "(13) and (14) agree": for each zone, TR_nid in (ẋ, ẏ) form (13) followed by the change
/// of coordinates (7) equals (7) followed by TR_nid in (ξ̇, η̇) form (14), with symbolic
/// k, ε, ẋ, ẏ; and the other way round, starting from symbolic ξ̇, η̇.
#[test]
fn fp_forms_nonideal_13_and_14_agree() {
    let (k, eps) = (s("k"), s("eps"));
    for zone in ZONES {
        let v = v2("x", "y");
        let via13 = xi_eta(&k, &tr_nid_xy(&k, &eps, zone, &v).unwrap());
        let via14 = tr_nid_xi_eta(&k, &eps, zone, &xi_eta(&k, &v)).unwrap();
        assert!(same_v2(&via13, &via14), "{zone}: {via13} vs {via14}");
        let w = v2("xi", "eta");
        let v = xy_from_xi_eta(&k, &w).unwrap();
        let back = xy_from_xi_eta(&k, &tr_nid_xi_eta(&k, &eps, zone, &w).unwrap()).unwrap();
        assert!(
            same_v2(&tr_nid_xy(&k, &eps, zone, &v).unwrap(), &back),
            "{zone}"
        );
    }
}

/// "(3), (6), (8) agree" (ideal case): (3) and (8) through (7); (6) and (3) on
/// (cos φ, sin φ) = ((1 − t²)/(1 + t²), 2t/(1 + t²)), and also on any (ẋ, ẏ) since every
/// formula is homogeneous of degree 1; at ε = 1, (13) is (3) and (14) is (8).
#[test]
fn fp_forms_ideal_3_6_8_agree() {
    let k = s("k");
    let one = s("1");
    let circle = v2("(1-t^2)/(1+t^2)", "2*t/(1+t^2)");
    for zone in ZONES {
        let v = v2("x", "y");
        let via3 = xi_eta(&k, &tr_id_xy(&k, zone, &v).unwrap());
        let via8 = tr_id_xi_eta(&k, zone, &xi_eta(&k, &v)).unwrap();
        assert!(same_v2(&via3, &via8), "{zone}");
        for v in [v.clone(), circle.clone()] {
            let a = tr_id_phi(&k, zone, &v).unwrap();
            let b = tr_id_xy(&k, zone, &v).unwrap();
            assert!(same_v2(&a, &b), "{zone}: (6) {a} vs (3) {b}");
        }
        let nid = tr_nid_xy(&k, &one, zone, &v).unwrap();
        assert!(same_v2(&nid, &tr_id_xy(&k, zone, &v).unwrap()), "{zone}");
        // the unit circle is preserved by (6) (Remark 2, eq. (4))
        let out = tr_id_phi(&k, zone, &circle).unwrap();
        assert_eq!(out.norm2().is_constant(), Some(q(1, 1)), "{zone}");
    }
}

/// The displayed formulas of (3d), (13b) and (14d), transcribed from the paper, equal
/// the law code's output.
#[test]
fn fp_displayed_zone_formulas() {
    let (k, eps) = (s("k"), s("eps"));
    let v = v2("x", "y");
    let z12 = tr_id_xy(&k, Zone::Z12, &v).unwrap();
    assert_same(&z12.x, "(-k^4*x^2 + (1-2*k^2)*y^2)/(k^4*x^2+y^2)*x");
    assert_same(&z12.y, "(k^2*(k^2-2)*x^2 - y^2)/(k^4*x^2+y^2)*y");
    let z1 = tr_nid_xy(&k, &eps, Zone::Z1, &v).unwrap();
    assert_same(&z1.x, "(1-eps*k^2)/(1+k^2)*x + (1+eps)*k/(1+k^2)*y");
    assert_same(&z1.y, "(1+eps)*k/(1+k^2)*x - (eps-k^2)/(1+k^2)*y");
    let w = tr_nid_xi_eta(&k, &eps, Zone::Z12, &v2("xi", "eta")).unwrap();
    let (p, qq) = ("(1+k^2)*(xi^2+eta^2)", "2*(1-k^2)*xi*eta");
    assert_same(
        &w.x,
        &format!(
            "-(eps*{p} + {qq})/({p} - {qq})*xi + (1+eps)*(1-k^2)*(xi^2+eta^2)/({p} - {qq})*eta"
        ),
    );
}

/// Remark 2 (eq. (4)) and Remark 3 (eq. (5)) as identities in every zone (ideal case);
/// Remark 4 (‖v‖² in ξ̇, η̇); Result 4 (bisector: v' = −v, and v' = −εv for TR_nid).
#[test]
fn fp_remarks_2_3_4_and_result_4() {
    let (k, eps) = (s("k"), s("eps"));
    let v = v2("x", "y");
    let mirror = v2("x", "-y");
    for zone in ZONES {
        let out = tr_id_xy(&k, zone, &v).unwrap();
        assert!(out.norm2().is_identical(&v.norm2()), "(4) in {zone}");
        if zone != Zone::Z0 {
            // (5): the mirrored velocity's image is the mirror image, for the mirrored zone
            let mz = match zone {
                Zone::Z1 => Zone::Z2,
                Zone::Z2 => Zone::Z1,
                z => z,
            };
            let m = tr_nid_xy(&k, &eps, mz, &mirror).unwrap();
            let o = tr_nid_xy(&k, &eps, zone, &v).unwrap();
            assert!(
                same_v2(&m, &V2::new(o.x.clone(), -o.y.clone())),
                "(5) in {zone}"
            );
        }
    }
    let norm = xy_from_xi_eta(&k, &v2("xi", "eta")).unwrap().norm2();
    assert_same(
        &norm,
        "(1+k^2)/(4*k^2)*(xi^2+eta^2) + (1-k^2)/(2*k^2)*xi*eta",
    );
    let bis = v2("x", "0");
    let r = tr_id_xy(&k, Zone::Z12, &bis).unwrap();
    assert!(same_v2(&r, &v2("-x", "0")));
    let r = tr_nid_xy(&k, &eps, Zone::Z12, &bis).unwrap();
    assert!(same_v2(&r, &v2("-eps*x", "0")));
}

/// (10) in the proof of Theorem 3.1 and the rewriting of (14d) in the proof of
/// Theorem 5.1, with ρ = 2ξ̇η̇/(ξ̇² + η̇²), β = (1 − k²)/(1 + k²), z = η̇/ξ̇.
#[test]
fn fp_theorem_3_1_and_5_1_rewritings() {
    let (k, eps) = (s("k"), s("eps"));
    let w = v2("xi", "eta");
    let id = tr_id_xi_eta(&k, Zone::Z12, &w).unwrap();
    let rho = [("rho".to_string(), "2*xi*eta/(xi^2+eta^2)".to_string())];
    let ten_xi = "xi/((1+k^2) - rho*(1-k^2))*(-(1+k^2) - rho*(1-k^2) + 2*eta/xi*(1-k^2))";
    let ten_eta = "eta/((1+k^2) - rho*(1-k^2))*(-(1+k^2) - rho*(1-k^2) + 2*xi/eta*(1-k^2))";
    assert_eq!(
        identical(&id.x.to_string(), ten_xi, &rho),
        Ok(IdentityOutcome::Identical)
    );
    assert_eq!(
        identical(&id.y.to_string(), ten_eta, &rho),
        Ok(IdentityOutcome::Identical)
    );
    let nid = tr_nid_xi_eta(&k, &eps, Zone::Z12, &w).unwrap();
    let sub = [
        ("beta".to_string(), "(1-k^2)/(1+k^2)".to_string()),
        ("z".to_string(), "eta/xi".to_string()),
    ];
    let f = "(1 - beta*2*z/(1+z^2))";
    let xi1 = format!("xi/{f}*(-eps + beta*((1+eps)*z - 2*z/(1+z^2)))");
    let eta1 = format!("eta/{f}*(-eps + beta*((1+eps)/z - 2*z/(1+z^2)))");
    assert_eq!(
        identical(&nid.x.to_string(), &xi1, &sub),
        Ok(IdentityOutcome::Identical)
    );
    assert_eq!(
        identical(&nid.y.to_string(), &eta1, &sub),
        Ok(IdentityOutcome::Identical)
    );
}

/// Lemma 7.1 and Lemma 7.2 (displayed differences, from (13b)).
#[test]
fn fp_lemmas_7_1_and_7_2() {
    let (k, eps) = (s("k"), s("eps"));
    let v = v2("x", "y");
    let eta = s("k*x - y");
    let z1 = tr_nid_xy(&k, &eps, Zone::Z1, &v).unwrap();
    assert_same(
        &(z1.x.clone() - &v.x),
        &format!("-(1+eps)*k/(1+k^2)*({eta})"),
    );
    assert_same(&(z1.y.clone() - &v.y), &format!("(1+eps)/(1+k^2)*({eta})"));
    let vp = v2("x + dx", "y + dy");
    let zp = tr_nid_xy(&k, &eps, Zone::Z1, &vp).unwrap();
    let (dt, dz) = (zp.x.clone() - &z1.x, zp.y.clone() - &z1.y);
    assert_same(&dt, "(1-eps*k^2)/(1+k^2)*dx + (1+eps)*k/(1+k^2)*dy");
    assert_same(&dz, "(1+eps)*k/(1+k^2)*dx - (eps-k^2)/(1+k^2)*dy");
    let plus = k.mul_r(&dt) + &dz;
    let minus = k.mul_r(&dt) - &dz;
    assert_same(
        &plus,
        "dx*k*(2 - eps*k^2 + eps)/(1+k^2) + dy*(2*k^2 + eps*k^2 - eps)/(1+k^2)",
    );
    assert_same(&minus, "-k*eps*dx + eps*dy");
    assert_eq!(
        identical(
            "(2*k^2 + eps*k^2 - eps)/(1+k^2)",
            "1 - (1+eps)*(1-k^2)/(1+k^2)",
            &[]
        ),
        Ok(IdentityOutcome::Identical)
    );
}

/// The closed forms displayed in the proof of Proposition 7.1 (case 3: SA applies (13b) of
/// Z1, TA applies (13d) of Z12 to the same (ξ̇, η̇)), against the law code.
#[test]
fn fp_proposition_7_1_closed_forms() {
    let (k, eps) = (s("k"), s("eps"));
    let v = xy_from_xi_eta(&k, &v2("xi", "eta")).unwrap();
    let sa = tr_nid_xy(&k, &eps, Zone::Z1, &v).unwrap();
    let ta = tr_nid_xy(&k, &eps, Zone::Z12, &v).unwrap();
    let d = "((xi^2+eta^2)*(1+k^2) + 2*xi*eta*(k^2-1))";
    assert_same(&sa.x, "1/(2*k)*xi + (1-k^2-2*eps*k^2)/(2*k*(1+k^2))*eta");
    assert_same(&sa.y, "1/2*xi + (1-k^2+2*eps)/(2*(1+k^2))*eta");
    assert_same(
        &ta.x,
        &format!("(xi+eta)*((1-k^2-2*eps*k^2)*(xi^2+eta^2) - 2*(1-k^2)*xi*eta)/(2*k*{d})"),
    );
    assert_same(
        &ta.y,
        &format!("(eta-xi)*((1-k^2+2*eps)*(xi^2+eta^2) + 2*(1-k^2)*xi*eta)/(2*{d})"),
    );
    let dx = sa.x.clone() - &ta.x;
    let dy = sa.y.clone() - &ta.y;
    assert_same(
        &dx,
        &format!("xi*k*(1+eps)*(eta^2*(3-k^2) + xi^2*(1+k^2))/({d}*(1+k^2))"),
    );
    assert_same(
        &dy,
        &format!("xi*(1+eps)*(eta^2*(3*k^2-1) + xi^2*(1+k^2))/({d}*(1+k^2))"),
    );
    // the first Maclaurin coefficients in ξ̇: (dx/ξ̇) and (dy/ξ̇) at ξ̇ = 0
    let xi = s("xi");
    let zero = s("0");
    let cx = dx
        .checked_div(&xi)
        .unwrap()
        .substitute("xi", &zero)
        .unwrap();
    let cy = dy
        .checked_div(&xi)
        .unwrap()
        .substitute("xi", &zero)
        .unwrap();
    assert_same(&cx, "k*(1+eps)*(3-k^2)/(1+k^2)^2");
    assert_same(&cy, "(1+eps)*(3*k^2-1)/(1+k^2)^2");
}

/// The displayed η̇⁽¹²⁾ₙ₊₁ of Proposition 7.1 is wrong: its last term has (ξ̇² + η̇²)
/// where the law gives (η̇² − ξ̇²); the difference is 2ξ̇³(1 − k²)/D.
#[test]
fn fp_proposition_7_1_eta12_is_misprinted() {
    let (k, eps) = (s("k"), s("eps"));
    let v = xy_from_xi_eta(&k, &v2("xi", "eta")).unwrap();
    let ta = tr_nid_xy(&k, &eps, Zone::Z12, &v).unwrap();
    let eta12 = xi_eta(&k, &ta).y;
    let d = "((xi^2+eta^2)*(1+k^2) + 2*xi*eta*(k^2-1))";
    let printed =
        format!("(-eps*(xi^2+eta^2)*(eta*(1+k^2) - xi*(1-k^2)) - xi*(1-k^2)*(xi^2+eta^2))/{d}");
    assert_eq!(
        check(&eta12, &printed),
        IdentityOutcome::Different {
            witness: at(&[
                ("eps", q(0, 1)),
                ("eta", q(0, 1)),
                ("k", q(0, 1)),
                ("xi", q(1, 1))
            ]),
            lhs: q(1, 1),
            rhs: q(-1, 1),
        }
    );
    // inside the proof's own domain (0 < ξ̇ < η̇, k < 1) the printed value is wrong too
    let pt = at(&[
        ("eps", q(0, 1)),
        ("eta", q(2, 1)),
        ("k", q(1, 2)),
        ("xi", q(1, 1)),
    ]);
    assert_eq!(eta12.eval_rational(&pt), Ok(q(-9, 13)));
    assert_eq!(s(&printed).eval_rational(&pt), Ok(q(-15, 13)));
    let corrected =
        format!("(-eps*(xi^2+eta^2)*(eta*(1+k^2) - xi*(1-k^2)) - xi*(1-k^2)*(eta^2-xi^2))/{d}");
    assert_same(&eta12, &corrected);
    assert_same(&(s(&printed) - &eta12), &format!("-2*xi^3*(1-k^2)/{d}"));
}

// ---------------------------------------------------------------- Pasquero, Sect. 4.1

/// Three equal balls, v0 along x1, symbolic ε and v0: the law code with the impact sets
/// {1,2}, {2,3}, {1,2} of the paper fixed by hypothesis gives p1, p2, p3 as printed, and
/// the impact conditions p(S(i,j)) = 4R(ẋ_j − ẋ_i) as printed.
#[test]
fn pq_cradle_p1_p2_p3() {
    let one = s("1");
    let c = cradle_constraints(&[one.clone(), one.clone(), one]).unwrap();
    let eps = s("eps");
    let cors = [eps.clone(), eps.clone()];
    let p0 = vec![s("v0"), s("0"), s("0")];
    let step = |set: &[usize], v: &Vec<Symbolic>| {
        let imp = impulse_asymmetric(&c, &cors, set, v).unwrap();
        // rule (6) with one COR gives the same single impulse
        let sym = impulse_symmetric(&c, &eps, set, v).unwrap();
        assert!(imp.iter().zip(&sym).all(|(a, b)| a.is_identical(b)));
        add(v, &imp)
    };
    let ps = |v: &Vec<Symbolic>, i: usize| s("4*R") * (v[i + 1].clone() - &v[i]);
    let p1 = step(&[0], &p0);
    let printed1 = ["(1-eps)/2*v0", "(1+eps)/2*v0", "0"];
    let p2 = step(&[1], &p1);
    let printed2 = ["(1-eps)/2*v0", "(1-eps^2)/4*v0", "(1+eps)^2/4*v0"];
    let p3 = step(&[0], &p2);
    let printed3 = [
        "(1-eps)*(3+eps^2)/8*v0",
        "(1-eps^2)*(3-eps)/8*v0",
        "(1+eps)^2/4*v0",
    ];
    for (p, printed) in [(&p1, printed1), (&p2, printed2), (&p3, printed3)] {
        for (a, b) in p.iter().zip(printed) {
            assert_same(a, b);
        }
    }
    assert_same(&ps(&p0, 0), "-4*R*v0");
    assert_same(&ps(&p1, 0), "4*R*eps*v0");
    assert_same(&ps(&p1, 1), "-2*R*(1+eps)*v0");
    assert_same(&ps(&p2, 0), "-(1-eps)^2*R*v0");
    assert_same(&ps(&p2, 1), "2*eps*(1+eps)*R*v0");
    // p3: outgoing for S(1,2); for S(2,3) the sign of ε² − 6ε + 1 decides (threshold 3 − 2√2)
    assert_same(&ps(&p3, 0), "R*eps*(1-eps)^2*v0");
    assert_same(&ps(&p3, 1), "-R*(1+eps)*(eps^2-6*eps+1)/2*v0");
}

/// The procedure of Sect. 3.5 itself does not guess: with symbolic ε the second impact set
/// depends on the sign of −ε·v0 and the run stops `Undecided` after one step.
#[test]
fn pq_cradle_iteration_is_undecided_with_symbolic_eps() {
    let one = s("1");
    let eps = s("eps");
    let out = run_cradle(
        &[one.clone(), one.clone(), one],
        &[eps.clone(), eps],
        vec![s("100"), s("0"), s("0")],
        None,
        10,
    )
    .unwrap();
    assert_eq!(out.steps.len(), 1);
    assert!(
        matches!(&out.stop, Stop::Undecided { quantity, lo, .. }
        if quantity == "n_1·v" && lo == "-100*eps"),
        "{:?}",
        out.stop
    );
}
