//! The unified grammar: exact values, relations with variables, the limits, the error
//! messages, and the three users of the language (command-line evaluation, the symbolic
//! backend, claims) accepting the same inputs under the same limits.

use super::*;
use crate::arith::backend::Backend;
use crate::arith::symbolic::Symbolic;
use crate::arith::{Interval, Quadratic, Rational, Sign};
use crate::claims::{self, Claim, Verdict};
use std::time::Duration;

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn rat(src: &str) -> BigRational {
    eval_str::<Rational>(src, &())
        .unwrap_or_else(|e| panic!("{src}: {e}"))
        .to_big()
}

#[test]
fn precedence_and_exact_values() {
    assert_eq!(rat("-2^2"), q(-4, 1));
    assert_eq!(rat("2^-1"), q(1, 2));
    assert_eq!(rat("2^3^2"), q(512, 1)); // right associative
    assert_eq!(rat("(-2)^2"), q(4, 1));
    assert_eq!(rat("1 - 2 - 3"), q(-4, 1)); // left associative
    assert_eq!(rat("12 / 2 / 3"), q(2, 1));
    assert_eq!(rat("2*3^2/4 - -1"), q(11, 2));
    assert_eq!(rat("0.9"), q(9, 10));
    assert_eq!(rat("4.5e-2"), q(9, 200));
    assert_eq!(rat("abs(-3/4) + abs(1/4)"), q(1, 1));
    assert_eq!(rat("sqrt(9/4)"), q(3, 2));
    assert_eq!(rat("tan(pi/4) + cos(pi/3) + sin(-pi/6)"), q(1, 1));
    assert_eq!(rat("atan(0)"), q(0, 1));
    assert_eq!(rat("atan(1)/pi"), q(1, 4));
    // tan(π/12) = 2 − √3 exactly in Q(√3)
    let t: Quadratic = eval_str("tan(pi/12)", &()).unwrap();
    let want: Quadratic = eval_str("2-sqrt(3)", &()).unwrap();
    assert_eq!((t.clone() - &want).sign(), Sign::Zero);
    assert_eq!(t.to_string(), want.to_string());
    let c: Quadratic = eval_str("cos(pi/5)", &()).unwrap();
    let want: Quadratic = eval_str("(1+sqrt(5))/4", &()).unwrap();
    assert_eq!((c - &want).sign(), Sign::Zero);
}

#[test]
fn variables_evaluate_in_an_environment() {
    let e = parse_with_variables("(1-t^2)/(1+t^2) + 2*x^-1 - abs(-3/4) + 0.5e-1").unwrap();
    let mut env = Env::new();
    env.insert("t".into(), Rational::from_big(&q(1, 2)));
    env.insert("x".into(), Rational::from_big(&q(4, 1)));
    // 3/5 + 1/2 - 3/4 + 1/20 = 2/5
    assert_eq!(e.eval_in(&env, &()).unwrap().to_big(), q(2, 5));
    let mut vars = Vec::new();
    e.vars(&mut vars);
    assert_eq!(vars, ["t", "x"]);
    assert_eq!(
        e.eval_in(&Env::<Rational>::new(), &()).unwrap_err(),
        EvalError::UnknownVariable { name: "t".into() }
    );
    assert_eq!(parse_with_variables("x_1").unwrap().as_var(), Some("x_1"));
    // the command-line language has no variables
    let err = parse("2*x").unwrap_err();
    assert_eq!(
        (err.pos, err.reason.starts_with("unknown name 'x'")),
        (2, true)
    );
    let err = parse_with_variables("foo(2)").unwrap_err();
    assert!(err.reason.starts_with("unknown function 'foo'"), "{err}");
}

#[test]
fn a_guarded_relation_holds_where_its_guard_is_false_and_is_not_evaluated_there() {
    let r = parse_relation("z != 0 => 1/z >= x").unwrap();
    assert_eq!((r.rel, r.text.as_str()), (Rel::Ge, "z != 0 => 1/z >= x"));
    let mut vs = Vec::new();
    r.vars(&mut vs);
    assert_eq!(vs, ["z", "x"]);
    let at = |z: (i64, i64), x: (i64, i64)| {
        let mut env = Env::new();
        env.insert("z".into(), Rational::from_big(&q(z.0, z.1)));
        env.insert("x".into(), Rational::from_big(&q(x.0, x.1)));
        r.decide(&env, &()).unwrap()
    };
    // guard false: true, and 1/z (a division by zero) is not evaluated
    assert_eq!(at((0, 1), (5, 1)), Some(true));
    assert_eq!(at((1, 2), (2, 1)), Some(true));
    assert_eq!(at((1, 2), (3, 1)), Some(false));
    // an undecided guard leaves the relation undecided
    let mut env = Env::new();
    env.insert("z".into(), Interval::new(-1.0, 1.0).unwrap());
    env.insert("x".into(), Interval::new(0.0, 0.0).unwrap());
    assert_eq!(r.decide(&env, &()).unwrap(), None);
    assert!(parse_relation("z => 1 > 0").is_err());
}

#[test]
fn relations_are_decided_on_rationals_and_enclosures() {
    let r = parse_relation("x^2 - 2 < 0").unwrap();
    assert_eq!((r.rel, r.text.as_str()), (Rel::Lt, "x^2 - 2 < 0"));
    let mut env = Env::new();
    env.insert("x".into(), Rational::from_big(&q(7, 5)));
    assert_eq!(r.decide(&env, &()).unwrap(), Some(true));
    env.insert("x".into(), Rational::from_big(&q(3, 2)));
    assert_eq!(r.decide(&env, &()).unwrap(), Some(false));
    let eq = parse_relation("x1^2 + y1^2 == (x1+y1)^2 - 2*x1*y1").unwrap();
    let mut env = Env::new();
    env.insert("x1".into(), Rational::from_big(&q(-3, 7)));
    env.insert("y1".into(), Rational::from_big(&q(5, 2)));
    assert_eq!(eq.decide(&env, &()).unwrap(), Some(true));
    for (src, rel) in [
        ("a<=b", Rel::Le),
        ("a >= b", Rel::Ge),
        ("a != b", Rel::Ne),
        ("a > b", Rel::Gt),
    ] {
        assert_eq!(parse_relation(src).unwrap().rel, rel);
    }
    // an enclosure straddling the boundary leaves the relation undecided
    let mut env = Env::new();
    env.insert("x".into(), Interval::new(1.0, 2.0).unwrap());
    assert_eq!(r.decide(&env, &()).unwrap(), None);
    for (src, reason) in [
        ("a < b < c", "more than one comparison"),
        ("x + 1", "not a relation"),
        ("x <", "unexpected end"),
        ("< 1", "unexpected '<'"),
        ("x = 1", "unexpected '='"),
    ] {
        let e = parse_relation(src).unwrap_err();
        assert!(e.reason.contains(reason), "{src}: {e}");
    }
}

#[test]
fn limits_are_enforced() {
    // exponents: at the cap, and above it
    assert_eq!(rat("(-1)^100000"), q(1, 1));
    let e = eval_str::<Rational>("2^100001", &())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("exponent `100001`") && e.contains("100000"),
        "{e}"
    );
    let e = parse("1e100001").unwrap_err();
    assert!(e.reason.contains("exponent larger than 100000"), "{e}");
    assert!(parse("1e-100000").is_ok());
    // nesting: 99 parentheses are fine, 101 are not
    let nested = |n: usize| "(".repeat(n) + "1" + &")".repeat(n);
    assert_eq!(rat(&nested(99)), q(1, 1));
    let e = parse(&nested(101)).unwrap_err();
    assert!(e.reason.contains("nested too deeply"), "{e}");
    let e = parse(&"-".repeat(300)).unwrap_err();
    assert!(e.reason.contains("nested too deeply"), "{e}");
    // a long sum is flat: 40,000 terms evaluate without deep recursion
    let sum = vec!["1"; 40_000].join("+");
    assert_eq!(rat(&sum), q(40_000, 1));
    let e = parse(&vec!["1"; 60_000].join("+")).unwrap_err();
    assert!(e.reason.contains("more than 100000 tokens"), "{e}");
    let e = parse(&"1".repeat(LIMITS.max_len + 1)).unwrap_err();
    assert!(e.reason.contains("input longer than"), "{e}");
    // exact values are bounded in size; rounded backends compute on
    let e = eval_str::<Rational>("(9^100000)^100000", &())
        .unwrap_err()
        .to_string();
    assert!(e.contains("more than 10000000 bits"), "{e}");
    let x: f64 = eval_str("(9^100000)^100000", &()).unwrap();
    assert!(x.is_infinite());
}

#[test]
fn errors_are_one_short_line() {
    let long = format!("{} + $", vec!["x"; 5000].join("+"));
    let e = parse_with_variables(&long).unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("unexpected '$'") && !msg.contains('\n'),
        "{msg}"
    );
    assert!(msg.chars().count() < 120, "{msg}");
    assert!(e.input.chars().count() <= ECHO, "{}", e.input);
    let e = eval_str::<Rational>(&format!("1/({} - 1)", vec!["1"; 500].join("*")), &())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("division by zero") && e.chars().count() < 120,
        "{e}"
    );
    let e = parse("1 +\n$").unwrap_err().to_string();
    assert!(!e.contains('\n'), "{e}");
}

/// The CLI's `eval`, the symbolic backend and claims read the same language with the same
/// limits: the same inputs give the same exact values, and the same inputs are refused.
#[test]
fn the_three_users_accept_the_same_inputs() {
    fn cli(src: &str) -> Result<BigRational, String> {
        let r = crate::report::eval::eval(src, Backend::Exact).map_err(|e| e.to_string())?;
        match &r.value {
            crate::arith::Num::Exact { expr, .. } => Ok(lang_rational(expr)),
            other => Err(format!("not exact: {other:?}")),
        }
    }
    fn lang_rational(s: &str) -> BigRational {
        rational(s).unwrap()
    }
    fn symbolic(src: &str) -> Result<BigRational, String> {
        let s: Symbolic = parse_symbolic(src).map_err(|e| e.to_string())?;
        s.is_constant().ok_or_else(|| "not constant".to_string())
    }
    fn claim(src: &str) -> Result<BigRational, String> {
        let text = format!(
            "id = \"t\"\npaper = \"none\"\nwhere = \"w\"\nstatement = \"s\"\nkind = \"exact-example\"\n\
             method = \"m\"\n[example]\nvalues = {{ v = {src:?} }}\nholds = [\"v == v\"]\n"
        );
        let c = Claim::parse(&text, std::path::Path::new("t.toml"))?;
        let out = claims::check(&c, Duration::from_secs(10));
        match out.verdict {
            Verdict::Inconclusive => Err(out.detail),
            _ => Ok(claims::exact::example::outputs(match c.body() {
                claims::claim::body::Body::Example(t) => t,
                _ => return Err("not an example".into()),
            })?
            .get("v")
            .unwrap()
            .to_big()),
        }
    }
    let accepted = [
        "-2^2",
        "2^-1",
        "2^3^2",
        "(1/3 + 0.25)*12",
        "4.5e-16*1e16",
        "abs(-7/2)",
        "sqrt(49/16)",
        "2^100000/2^99999",
        "1e-100000*1e100000",
        &("(".repeat(99) + "1" + &")".repeat(99)),
        &vec!["1/2"; 2000].join("+"),
    ];
    for src in accepted {
        let want = cli(src).unwrap_or_else(|e| panic!("cli {src}: {e}"));
        assert_eq!(symbolic(src), Ok(want.clone()), "symbolic {src}");
        assert_eq!(claim(src), Ok(want.clone()), "claims {src}");
    }
    let refused = [
        "",
        "1 +",
        "2^100001",
        "1e100001",
        "2^(1/2)",
        "(1",
        "1 $ 2",
        "1/(1-1)",
        &("(".repeat(101) + "1" + &")".repeat(101)),
        &vec!["1"; 60_000].join("+"),
    ];
    for src in refused {
        let short = clip(src);
        assert!(cli(src).is_err(), "cli accepted {short}");
        assert!(symbolic(src).is_err(), "symbolic accepted {short}");
        assert!(claim(src).is_err(), "claims accepted {short}");
    }
}

/// A range `0..pi/2` written out as `(0)+((pi/2)-(0))*(t)` stays a rational multiple of π
/// in exact backends (q·π ± 0, 0 ± q·π, 0·π = 0), so the exact tables apply at its points.
#[test]
fn zero_plus_a_multiple_of_pi_stays_exact() {
    let c: Quadratic = eval_str("cos((0)+((pi/2)-(0))*(2/4))", &()).unwrap();
    let want: Quadratic = eval_str("1/sqrt(2)", &()).unwrap();
    assert_eq!(c.to_string(), want.to_string());
    let s: Rational = eval_str("sin(0-pi/6)", &()).unwrap();
    assert_eq!(s, Rational::new(-1, 2));
    let z: Rational = eval_str("0*pi+1", &()).unwrap();
    assert_eq!(z, Rational::new(1, 1));
    // a bare multiple of pi is still refused, and so is pi plus a nonzero rational
    assert!(eval_str::<Rational>("pi/2-0", &()).is_err());
    assert!(eval_str::<Rational>("cos(pi/2+1)", &()).is_err());
}

/// The bounds |x| >= ±x decide the triangle inequality with no sign known (symbolic
/// variables); an `abs` on the side where only both choices would do, or beside a factor
/// of unknown sign, is left undecided, and a bound that fails never refutes.
#[test]
fn abs_bounds_decide_the_triangle_inequality_and_nothing_false() {
    // abs of an undecided sign is a radical (as in the prover's cells)
    crate::arith::symbolic::with_radicals(abs_bounds_cases);
}

fn abs_bounds_cases() {
    let mut env = Env::new();
    for v in ["a", "b", "x"] {
        env.insert(v.into(), parse_symbolic(v).unwrap());
    }
    let by_bounds = |src: &str| {
        let r = parse_relation(src).unwrap();
        super::decide_by_abs_bounds(&r, &env, &()).unwrap()
    };
    let plain = parse_relation("abs(a + b) <= abs(a) + abs(b)").unwrap();
    assert_eq!(plain.decide(&env, &()).unwrap(), None);
    for holds in [
        "abs(a + b) <= abs(a) + abs(b)",
        "abs(a) + abs(b) >= abs(a + b)",
        "abs(a - b) <= abs(a) + abs(b)",
        "-abs(a) <= a",
        "(0 - 3)*abs(a) <= 3*a",
        "abs(a)/2 >= a/2",
        "2 > 1 => abs(a + b) <= abs(a) + abs(b)",
    ] {
        assert_eq!(by_bounds(holds), Some(true), "{holds}");
    }
    for open in [
        "abs(a + b) < abs(a) + abs(b)",
        "abs(a + b) <= abs(a)",
        "(0 - 3)*abs(a) >= 3*a",
        "x*abs(a) >= x*a",
        "abs(a)^2 >= a^2",
        "abs(a) <= -1",
        "abs(a) == abs(a)",
        "b == 0 => abs(a + b) <= abs(a) + abs(b)",
    ] {
        assert_eq!(by_bounds(open), None, "{open}");
    }
}

/// `root(x, k)` on every backend: rational where the root is, exact in the algebraic
/// backend, enclosed (containing 2^(1/3) = 1.259921049894873164767…) in enclosures.
#[test]
fn real_roots_on_every_backend() {
    use crate::arith::{Algebraic, MpInterval, Mpfr};
    assert_eq!(rat("root(27/8, 3)"), q(3, 2));
    assert_eq!(rat("root(-8, 3)"), q(-2, 1));
    assert_eq!(rat("root(81, 4) + root(5, 1)"), q(8, 1));
    let e = eval_str::<Rational>("root(2, 3)", &())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("root(2, 3), which is irrational,") && e.contains("--arith algebraic"),
        "{e}"
    );
    let e = eval_str::<Rational>("root(-16, 4)", &())
        .unwrap_err()
        .to_string();
    assert!(e.contains("even root (k = 4) of a negative number"), "{e}");
    let e = eval_str::<Quadratic>("root(2, 3)", &())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("root(2, 3) is not representable in the quadratic backend"),
        "{e}"
    );
    // k = 4 in Q(√d): 4^(1/4) = √2
    let r: Quadratic = eval_str("root(4, 4)", &()).unwrap();
    assert_eq!(r.to_string(), "sqrt(2)");
    let f: f64 = eval_str("root(2, 3)", &()).unwrap();
    assert_eq!(f, 2f64.cbrt());
    let f: f64 = eval_str("root(-2, 5)", &()).unwrap();
    assert!((f + 1.148698354997035).abs() < 1e-15);
    let exact = 1.259_921_049_894_873_2_f64; // nearest to 2^(1/3) = 1.2599210498948731647…
    let i: Interval = eval_str("root(2, 3)", &()).unwrap();
    let (lo, hi) = i.enclosure().unwrap();
    assert!(lo < hi && lo <= exact && exact <= hi && hi - lo < 1e-15);
    let i: Interval = eval_str("root(-2, 3)", &()).unwrap();
    let (lo, hi) = i.enclosure().unwrap();
    assert!(lo <= -exact && -exact <= hi);
    let m: MpInterval = eval_str("root(2, 3)^3 - 2", &200).unwrap();
    assert_eq!(m.sign(), Sign::Unknown);
    let (lo, hi) = m.enclosure().unwrap();
    assert!(lo <= 0.0 && 0.0 <= hi && hi - lo < 1e-55);
    let p: Mpfr = eval_str("root(2, 3)", &100).unwrap();
    assert_eq!(p.to_f64(), 2f64.cbrt());
    let a: Algebraic = eval_str("root(2, 3)^3", &()).unwrap();
    assert_eq!(a.to_string(), "2");
    // the index: an integer literal from 1 to 1024
    for bad in [
        "root(2)",
        "root(2, 0)",
        "root(2, x)",
        "root(2, 1025)",
        "root(2, 3/2)",
    ] {
        let e = eval_str::<Rational>(bad, &()).unwrap_err().to_string();
        assert!(e.contains("root(x, k)"), "{bad}: {e}");
    }
}
