//! The symbolic backend: exact unit values, a proptest against `Rational`, and the closed
//! forms of Fassino–Pasquero (2020) and Pasquero (cradle, Sect. 4.1) computed by running
//! the law code itself on rational functions, zone fixed by hypothesis.

use impactkit::arith::symbolic::{IdentityOutcome, Symbolic};
use impactkit::arith::{ArithError, Rational, Scalar, Sign};
use impactkit::lang::{identical, parse_symbolic};
use num_rational::BigRational;
use proptest::prelude::*;

#[path = "symbolic/fassino_pasquero.rs"]
mod fassino_pasquero;
#[path = "symbolic/pasquero.rs"]
mod pasquero;

pub(crate) fn s(src: &str) -> Symbolic {
    parse_symbolic(src).unwrap_or_else(|e| panic!("{src}: {e}"))
}
pub(crate) fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}
pub(crate) fn at(pairs: &[(&str, BigRational)]) -> Vec<(String, BigRational)> {
    pairs
        .iter()
        .map(|(v, x)| (v.to_string(), x.clone()))
        .collect()
}
/// `law` (a value computed by the law code) equals the paper's displayed `formula`.
pub(crate) fn check(law: &Symbolic, formula: &str) -> IdentityOutcome {
    identical(&law.to_string(), formula, &[]).unwrap()
}
pub(crate) fn assert_same(law: &Symbolic, formula: &str) {
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
        let e = parse_symbolic(src).unwrap_err().to_string();
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
    // (x² − 1)/(x − 1) = x + 1: a factor of the denominator that divides the
    // numerator is divided out (no GCD: a factor shared with a numerator factor that is
    // not itself a denominator factor stays)
    let r = s("x^2-1").checked_div(&s("x-1")).unwrap();
    assert_eq!(r.to_string(), "x + 1");
    assert!(r.is_identical(&s("x+1")));
    assert_eq!(r, s("x+1"));
    // sums over the least common multiple of the factor lists: 1/(x+1)^2 + 1/(x+1)^3
    let r = s("1/(x+1)^2 + 1/(x+1)^3");
    assert_eq!(r.to_string(), "(x + 2)/(x + 1)^3");
    // successive divisions keep their factors; a product divided by at once is one
    // factor, which shares x − 1 with the numerator but does not divide it: no GCD
    assert_eq!(
        s("(x^2 - 1)/(x - 1)/(x + 2)").to_string(),
        "(x + 1)/(x + 2)"
    );
    let r = s("(x^2 - 1)/((x - 1)*(x + 2))");
    assert_eq!(r.to_string(), "(x^2 - 1)/(x^2 + x - 2)");
    assert_eq!(r, s("(x + 1)/(x + 2)"));
    assert_ne!(r, s("x+1"));
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
    assert!(parse_symbolic("cos(1)")
        .unwrap_err()
        .to_string()
        .contains("cos(1)"));
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
    assert_eq!(b.to_string(), "(-t^2*y - 1)/((t - 1)*t)");
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
        .to_string()
        .contains("left side"));
    assert!(identical("1", "1", &[("x".into(), "(".into())])
        .unwrap_err()
        .to_string()
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
            t = t * Rational::from_big(v).powi(i64::from(*k)).unwrap();
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
        prop_assert_eq!(ev(&(fa.clone() + &sb)), (ra.clone() + &rb).to_big());
        prop_assert_eq!(ev(&(fa.clone() - &sb)), (ra.clone() - &rb).to_big());
        prop_assert_eq!(ev(&(fa.clone() * &sb)), (ra.clone() * &rb).to_big());
        prop_assert_eq!(ev(&-fa.clone()), (-ra.clone()).to_big());
        match (fa.checked_div(&sb), rb.sign()) {
            (Err(e), _) => {
                prop_assert_eq!(e, ArithError::DivisionByZero);
                prop_assert!(sb.is_constant() == Some(q(0, 1)));
            }
            (Ok(_), Sign::Zero) => {}
            (Ok(d), _) => prop_assert_eq!(ev(&d), ra.checked_div(&rb).unwrap().to_big()),
        }
        // substitution x := b, then evaluation = evaluation at x = b(p)
        let p2 = [rb.to_big(), p[1].clone(), p[2].clone()];
        let (ra2, rc2) = (eval(&a, &p2), eval(&c, &p2));
        match fa.substitute("x", &sb) {
            Ok(sub) if rc2.sign() != Sign::Zero => {
                prop_assert_eq!(sub.eval_rational(&pt), Ok(ra2.checked_div(&rc2).unwrap().to_big()));
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

#[test]
fn elimination_divides_by_a_pivot_of_unknown_sign() {
    // [[a, 1], [1, 1]] x = (1, 2): the first pivot a has no decided sign, but it is a
    // nonzero rational function; the solution is Cramer's, x = (-1/(a - 1), (2a - 1)/(a - 1))
    let a = vec![vec![s("a"), s("1")], vec![s("1"), s("1")]];
    let x = impactkit::linalg::solve(a, vec![s("1"), s("2")]).unwrap();
    assert_eq!(x[0], s("-1/(a - 1)"));
    assert_eq!(x[1], s("(2*a - 1)/(a - 1)"));
    // a zero column is still singular
    let z = vec![vec![s("0"), s("1")], vec![s("0"), s("a")]];
    assert!(impactkit::linalg::solve(z, vec![s("1"), s("2")]).is_err());
}

/// The ranking lemma of `fp-result3-chi` in a Z2 cell (t = u/(2(1 + u)), the split
/// variable w > 0): its numerator has the factor Q, quadratic in w with its middle
/// coefficient of both signs and 4AC − B² > 0 (coefficients all positive). Decided by the
/// quadratic rule, where the coefficients' signs and the AM–GM pairs decide nothing.
#[test]
fn a_quadratic_with_a_negative_discriminant_is_decided() {
    use impactkit::arith::symbolic::with_positive_variables;
    let vars: Vec<String> = ["c", "w", "u"].iter().map(|v| v.to_string()).collect();
    let q = "(u^2 + 2*u + 2)";
    let a = "(u^6 + 4*u^5 + 8*u^4 + 16*u^3 + 28*u^2 + 24*u + 8)";
    let b = format!("2*c*{q}*(u^6 + 5*u^5 + 5*u^4 - 8*u^3 - 24*u^2 - 24*u - 8)");
    let c0 = format!("c^2*{q}^5");
    let quad = s(&format!("{a}*w^2 + {b}*w + {c0}"));
    with_positive_variables(&vars, || {
        // the quadratic alone: positive for every c, w, u > 0
        assert_eq!(quad.sign(), Sign::Positive);
        // B alone has both signs; -Q is negative
        assert_eq!(s(&b).sign(), Sign::Unknown);
        assert_eq!((s("0") - quad.clone()).sign(), Sign::Negative);
        // over a positive denominator as well
        let x = quad.clone().checked_div(&s(&format!("w*{q}^2"))).unwrap();
        assert_eq!(x.sign(), Sign::Positive);
        // a quadratic with a real positive root is not decided: w^2 - 3w + 2 = (w-1)(w-2)
        assert_eq!(s("w^2 - 3*w + 2").sign(), Sign::Unknown);
    });
}

#[test]
fn radicals_are_eliminated_in_signs() {
    use impactkit::arith::symbolic::{radicals, with_positive_variables, with_radicals};
    let t = vec!["t".to_string()];
    with_positive_variables(&t, || {
        with_radicals(|| {
            // sqrt(t^2 + 1) - t > 0 and sqrt(t^2 + 1) - t - 1 < 0 for t > 0
            let r = s("t^2 + 1").sqrt().unwrap();
            assert_eq!(r, Symbolic::var("√1"));
            assert_eq!((r.clone() - s("t")).sign(), Sign::Positive);
            assert_eq!((r.clone() - s("t + 1")).sign(), Sign::Negative);
            // the same radicand is the same radical; r^2 - (t^2 + 1) is zero
            assert_eq!(s("t^2 + 1").sqrt().unwrap(), r);
            let z = r.clone() * r.clone() - s("t^2 + 1");
            assert_eq!(z.sign(), Sign::Zero);
            assert!(!z.nonzero_in_field());
            // |t - 1| - (t + 1) < 0 for t > 0, by (a - b x)(a + b x) with x = t - 1
            let a = (s("t - 1")).abs_undecided().unwrap();
            assert_eq!((a.clone() - s("t + 1")).sign(), Sign::Negative);
            // |t - 1| - 1/2 changes sign: undecided, never guessed
            assert_eq!((a - s("1/2")).sign(), Sign::Unknown);
            assert_eq!(radicals().len(), 2);
        })
    });
    // a constant radicand: coefficients in Q(sqrt 2) on the positive orthant
    let c = vec!["c".to_string()];
    with_positive_variables(&c, || {
        with_radicals(|| {
            let r2 = s("2").sqrt().unwrap();
            // 1 + (2 sqrt 2 - 2) c > 0 (the parts 1 - 2c and 2c have no one sign)
            let x = s("1") + (s("2") * r2.clone() - s("2")) * s("c");
            assert_eq!(x.sign(), Sign::Positive);
            // (3 - 2 sqrt 2 - 1/5) c - 1 < 0: 3 - 2 sqrt 2 < 1/5, decided exactly
            let y = (s("3") - s("2") * r2.clone() - s("1/5")) * s("c") - s("1");
            assert_eq!(y.sign(), Sign::Negative);
            // (3 - 2 sqrt 2 - 1/6) c - 1: coefficients of both signs, undecided
            let z = (s("3") - s("2") * r2.clone() - s("1/6")) * s("c") - s("1");
            assert_eq!(z.sign(), Sign::Unknown);
            // eps = r c/(1 + c), r = 3 - 2 sqrt 2: eps^2 - 6 eps + 1 > 0 on (0, r)
            let e = ((s("3") - s("2") * r2) * s("c"))
                .checked_div(&(s("1") + s("c")))
                .unwrap();
            let q = e.clone() * e.clone() - s("6") * e + s("1");
            assert_eq!(q.sign(), Sign::Positive);
        })
    });
    // outside `with_radicals` an irrational root is refused, as before
    assert!(matches!(
        s("t^2 + 1").sqrt(),
        Err(ArithError::NotRepresentable { .. })
    ));
}
