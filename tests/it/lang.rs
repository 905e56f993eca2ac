//! Known values of the input language on every backend, and its error messages.

use impactkit::arith::{
    rat_to_rug, ArithError, Interval, MpInterval, Mpfr, Quadratic, Rational, Scalar, Sign,
};
use impactkit::lang::{eval_str, parse, trig_of_pi_multiple, Func, TrigExact};
use num_rational::BigRational;

fn rat(src: &str) -> String {
    eval_str::<Rational>(src, &()).unwrap().to_string()
}
fn quad(src: &str) -> String {
    eval_str::<Quadratic>(src, &()).unwrap().to_string()
}
fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

#[test]
fn exact_rationals() {
    assert_eq!(rat("3/7 + 0.1"), "37/70");
    assert_eq!(rat("0.9"), "9/10");
    assert_eq!(rat("4.5e-16"), "9/20000000000000000");
    assert_eq!(rat("1E3"), "1000");
    assert_eq!(rat("-2^2"), "-4");
    assert_eq!(rat("2^-3"), "1/8");
    assert_eq!(rat("2^3^2"), "512");
    assert_eq!(rat("(1-3)*(2+1)/-4"), "3/2");
    assert_eq!(rat(".5 + +1"), "3/2");
    assert_eq!(rat("sqrt(9/4)"), "3/2");
    assert_eq!(rat("tan(pi/4)"), "1");
    assert_eq!(rat("cos(pi/3)"), "1/2");
    assert_eq!(rat("sin(-pi/6)"), "-1/2");
    assert_eq!(rat("cos(2*pi)"), "1");
    assert_eq!(rat("sin(0)"), "0");
    assert_eq!(rat("tan(3*pi/4)"), "-1");
    assert_eq!(rat("atan(1)/pi*4"), "1");
    assert_eq!(rat("tan(atan(-1) + pi)"), "-1");
}

#[test]
fn quadratic_trig_table() {
    assert_eq!(quad("tan(pi/6)"), "1/3*sqrt(3)");
    assert_eq!(quad("tan(pi/12)"), "2-sqrt(3)");
    assert_eq!(quad("tan(pi/8)"), "-1+sqrt(2)");
    assert_eq!(quad("cos(pi/4)"), "1/2*sqrt(2)");
    assert_eq!(quad("sin(pi/4)"), "1/2*sqrt(2)");
    assert_eq!(quad("cos(pi/5)"), "1/4+1/4*sqrt(5)");
    assert_eq!(quad("sin(3*pi/10)"), "1/4+1/4*sqrt(5)");
    assert_eq!(quad("tan(5*pi/12)"), "2+sqrt(3)");
    assert_eq!(quad("tan(-3*pi/8)"), "-1-sqrt(2)");
    assert_eq!(quad("cos(5*pi/6)"), "-1/2*sqrt(3)");
    assert_eq!(quad("(1+sqrt(2))^2"), "3+2*sqrt(2)");
    assert_eq!(quad("1/sqrt(2)"), "1/2*sqrt(2)");
    assert_eq!(quad("sqrt(3+2*sqrt(2))"), "1+sqrt(2)");
    assert_eq!(quad("3-2*sqrt(2)"), "3-2*sqrt(2)");
    assert_eq!(quad("sqrt(12)"), "2*sqrt(3)");
    assert_eq!(quad("atan(2-sqrt(3))*12/pi"), "1");
    assert_eq!(quad("tan(pi/6)^2"), "1/3");
    assert_eq!(quad("sin(pi/3)^2 + cos(pi/3)^2"), "1");
    assert_eq!(rat("tan(atan(1/5))"), "1/5");
    assert_eq!(quad("cos(atan(1/2))"), "2/5*sqrt(5)");
    assert_eq!(quad("sin(atan(3/4))"), "3/5");
}

#[test]
fn table_is_consistent_with_mpfr() {
    // Every table entry agrees with a 200-bit enclosure of the function.
    for n in -24..=24 {
        for den in [1, 2, 3, 4, 5, 6, 8, 10, 12, 16] {
            let angle = q(n, den);
            for f in [Func::Sin, Func::Cos, Func::Tan] {
                let TrigExact::Value(v) = trig_of_pi_multiple(f, &angle) else {
                    continue;
                };
                let exact =
                    Quadratic::new(rat_to_rug(&v.a), rat_to_rug(&v.b), &v.d.into()).unwrap();
                let name = match f {
                    Func::Sin => "sin",
                    Func::Cos => "cos",
                    _ => "tan",
                };
                // evaluate the function on an enclosure of the angle, no table involved:
                let prec = 200;
                let x = MpInterval::pi(&prec).unwrap() * MpInterval::from_rational(&angle, &prec);
                let y = match f {
                    Func::Sin => x.sin(),
                    Func::Cos => x.cos(),
                    _ => x.tan(),
                }
                .unwrap();
                let (lo, hi) = y.rational_bounds().unwrap();
                let below = exact.clone() - Quadratic::rational(rat_to_rug(&lo));
                let above = Quadratic::rational(rat_to_rug(&hi)) - exact.clone();
                assert_ne!(
                    below.sign(),
                    Sign::Negative,
                    "{name}({angle} pi) = {exact} below {lo}"
                );
                assert_ne!(
                    above.sign(),
                    Sign::Negative,
                    "{name}({angle} pi) = {exact} above {hi}"
                );
            }
        }
    }
}

fn err<S: Scalar>(src: &str, ctx: &S::Ctx) -> String {
    eval_str::<S>(src, ctx).unwrap_err().to_string()
}

#[test]
fn exact_backends_refuse_what_they_cannot_hold() {
    let e = err::<Rational>("sqrt(2)", &());
    assert!(
        e.contains("sqrt(2)") && e.contains("exact backend") && e.contains("quadratic"),
        "{e}"
    );
    let e = err::<Rational>("tan(pi/6)", &());
    assert!(
        e.contains("tan(pi/6) = 1/3*sqrt(3)") && e.contains("exact backend"),
        "{e}"
    );
    let e = err::<Quadratic>("tan(pi/16)", &());
    assert!(
        e.contains("tan(pi/16)") && e.contains("quadratic backend") && e.contains("interval"),
        "{e}"
    );
    let e = err::<Quadratic>("sin(pi/5)", &());
    assert!(e.contains("sin(pi/5)"), "{e}");
    let e = err::<Rational>("pi", &());
    assert!(e.contains("pi") && e.contains("exact backend"), "{e}");
    let e = err::<Rational>("sin(1)", &());
    assert!(e.contains("sin(1)"), "{e}");
    let e = err::<Quadratic>("sqrt(2)+sqrt(3)", &());
    assert!(e.contains("Q(sqrt(2))") && e.contains("Q(sqrt(3))"), "{e}");
    let e = err::<Rational>("1/(1-1)", &());
    assert!(e.contains("division by zero in `1/(1-1)`"), "{e}");
    let e = err::<Quadratic>("tan(pi/2)", &());
    assert!(e.contains("tan(pi/2)") && e.contains("pole"), "{e}");
    let e = err::<f64>("2^0.5", &());
    assert!(e.contains("exponent `0.5`"), "{e}");
    let e = err::<Quadratic>("sqrt(-2)", &());
    assert!(e.contains("negative"), "{e}");
}

#[test]
fn syntax_errors_name_the_position() {
    for (src, msg) in [
        ("", "empty expression"),
        ("1+", "unexpected end"),
        ("(1+2", "expected ')'"),
        ("2*foo(3)", "unknown name 'foo'"),
        ("1 2", "unexpected '2'"),
        ("sqrt 2", "expected '('"),
        ("1e", "malformed exponent"),
        ("1e999999", "exponent larger"),
        ("3 $ 4", "unexpected '$'"),
    ] {
        let e = parse(src).unwrap_err().to_string();
        assert!(e.contains(msg), "{src}: {e}");
    }
    let deep = "(".repeat(5000) + "1" + &")".repeat(5000);
    assert!(parse(&deep)
        .unwrap_err()
        .to_string()
        .contains("nested too deeply"));
}

#[test]
fn float_backends_compute_like_a_program() {
    let x: f64 = eval_str("tan(pi/6)", &()).unwrap();
    assert_eq!(x, (std::f64::consts::PI / 6.0).tan());
    let y: f64 = eval_str("0.1+0.2", &()).unwrap();
    assert_eq!(y, 0.1 + 0.2);
    let m: Mpfr = eval_str("sqrt(2)", &256).unwrap();
    assert_eq!(m.prec(), 256);
}

#[test]
fn enclosures_use_the_exact_table() {
    let t: Interval = eval_str("tan(pi/4)", &()).unwrap();
    assert_eq!((t.lo(), t.hi()), (1.0, 1.0));
    let t: Interval = eval_str("tan(pi/6)", &()).unwrap();
    let r3 = 3f64.sqrt() / 3.0;
    assert!(t.lo() <= r3 && r3 <= t.hi() && t.width() < 1e-15);
    // not in the table: rigorous enclosure of the transcendental function
    let t: MpInterval = eval_str("tan(pi/16)", &200).unwrap();
    let (lo, hi) = t.rational_bounds().unwrap();
    // tan(pi/16) = 0.198912367379658006911596622...
    assert!(lo <= q(198912367379658, 1_000_000_000_000_000) + q(7, 1_000_000_000_000_000_000));
    assert!(hi >= q(198912367379658, 1_000_000_000_000_000));
    let e = eval_str::<Interval>("1/(sqrt(2)^2-2)", &()).unwrap_err();
    assert!(
        matches!(e.arith(), Some(ArithError::DivisionByStraddling { .. })),
        "{e}"
    );
}
