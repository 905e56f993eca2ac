//! Soundness of the enclosure backends, and correct rounding of the float backends,
//! against exact arithmetic (rationals, Q(√d) and the number fields of the algebraic
//! backend), on random expression trees.
//!
//! Each property runs 10,000 cases (2,000 for those over Q(cos(π/16))).

use impactkit::arith::{
    float_to_rat, rat_to_rug, Algebraic, ArithError, Interval, MpInterval, Mpfr, Quadratic,
    Rational, Scalar, Sign,
};
use num_rational::BigRational;
use proptest::prelude::*;

/// A random expression over one quadratic field Q(√d).
#[derive(Clone, Debug)]
enum T {
    /// A rational leaf.
    Q(i64, i64),
    /// `(n/m)·√d`.
    Root(i64, i64),
    Add(Box<T>, Box<T>),
    Sub(Box<T>, Box<T>),
    Mul(Box<T>, Box<T>),
    Div(Box<T>, Box<T>),
    /// `sqrt(t·t)`, i.e. |t|: exercises the square root of field elements.
    SqrtSq(Box<T>),
}

fn tree(with_roots: bool) -> impl Strategy<Value = T> {
    let q = (-60i64..=60, 1i64..=25).prop_map(|(n, m)| T::Q(n, m));
    let leaf = if with_roots {
        prop_oneof![3 => q, 1 => (-20i64..=20, 1i64..=9).prop_map(|(n, m)| T::Root(n, m))].boxed()
    } else {
        q.boxed()
    };
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| T::Add(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| T::Sub(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| T::Mul(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| T::Div(Box::new(a), Box::new(b))),
            inner.prop_map(|a| T::SqrtSq(Box::new(a))),
        ]
    })
}

fn q(n: i64, m: i64) -> BigRational {
    BigRational::new(n.into(), m.into())
}

/// Evaluates a tree in any backend, through the `Scalar` operations only.
fn ev<S: Scalar>(t: &T, d: i64, ctx: &S::Ctx) -> Result<S, ArithError> {
    Ok(match t {
        T::Q(n, m) => S::from_rational(&q(*n, *m), ctx),
        T::Root(n, m) => {
            S::from_rational(&q(*n, *m), ctx) * S::from_rational(&q(d, 1), ctx).sqrt()?
        }
        T::Add(a, b) => ev::<S>(a, d, ctx)? + &ev::<S>(b, d, ctx)?,
        T::Sub(a, b) => ev::<S>(a, d, ctx)? - &ev::<S>(b, d, ctx)?,
        T::Mul(a, b) => ev::<S>(a, d, ctx)? * &ev::<S>(b, d, ctx)?,
        T::Div(a, b) => ev::<S>(a, d, ctx)?.checked_div(&ev::<S>(b, d, ctx)?)?,
        T::SqrtSq(a) => ev::<S>(a, d, ctx)?.square().sqrt()?,
    })
}

/// `lo <= x <= hi`, decided exactly in Q(√d).
fn contains(lo: &BigRational, hi: &BigRational, x: &Quadratic) -> bool {
    let below = x.clone() - Quadratic::rational(rat_to_rug(lo));
    let above = Quadratic::rational(rat_to_rug(hi)) - x.clone();
    below.sign() != Sign::Negative && above.sign() != Sign::Negative
}

/// An enclosure backend may fail where exact arithmetic does not only by being unable to
/// decide a sign (a divisor or a square-root argument whose enclosure straddles 0).
fn undecided(e: &ArithError) -> bool {
    matches!(e, ArithError::DivisionByStraddling { .. })
        || matches!(e, ArithError::Domain(m) if m.contains("straddles"))
}

fn check_enclosure<S: Scalar>(t: &T, d: i64, ctx: &S::Ctx) -> Result<(), TestCaseError> {
    let exact = ev::<Quadratic>(t, d, &());
    let enc = ev::<S>(t, d, ctx);
    match (&exact, &enc) {
        (Ok(x), Ok(y)) => {
            let (lo, hi) = y
                .rational_bounds()
                .expect("enclosures have rational bounds");
            prop_assert!(contains(&lo, &hi, x), "{} = {x} not in {y}", S::NAME);
            // The sign is never wrong, and Unknown only when 0 is inside.
            match y.sign() {
                Sign::Unknown => prop_assert!(lo <= q(0, 1) && q(0, 1) <= hi),
                s => prop_assert_eq!(s, x.sign()),
            }
        }
        (Ok(x), Err(e)) => prop_assert!(undecided(e), "{}: {e} but exact gave {x}", S::NAME),
        (Err(_), Ok(y)) => prop_assert!(false, "exact failed but {} gave {y}", S::NAME),
        (Err(_), Err(_)) => {}
    }
    Ok(())
}

/// A random expression over Q(cos(π/16)), of degree 8: leaves are rationals and
/// cos(kπ/16), evaluated through the input language on every backend.
#[derive(Clone, Debug)]
enum C {
    Q(i64, i64),
    /// cos(kπ/16)
    Cos(i64),
    /// root(n, 3)
    Cbrt(i64),
    Add(Box<C>, Box<C>),
    Sub(Box<C>, Box<C>),
    Mul(Box<C>, Box<C>),
    Div(Box<C>, Box<C>),
}

/// Sums, differences, products and quotients over the leaves `special` and rationals.
fn field_tree(special: BoxedStrategy<C>) -> impl Strategy<Value = C> {
    let leaf = prop_oneof![
        (-30i64..=30, 1i64..=9).prop_map(|(n, m)| C::Q(n, m)),
        special,
    ];
    leaf.prop_recursive(4, 20, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| C::Add(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| C::Sub(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| C::Mul(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| C::Div(Box::new(a), Box::new(b))),
        ]
    })
}

fn cos_tree() -> impl Strategy<Value = C> {
    field_tree((0i64..32).prop_map(C::Cos).boxed())
}

/// A random expression over Q(2^(1/3)), of degree 3: leaves are rationals and cube roots
/// of ±2, ±4, ±16, ±32 (all in that one field) and of ±8.
fn cbrt_tree() -> impl Strategy<Value = C> {
    field_tree(
        prop::sample::select(vec![2i64, -2, 4, -4, 8, -8, 16, -16, 32, -32])
            .prop_map(C::Cbrt)
            .boxed(),
    )
}

fn ev_cos<S: Scalar>(t: &C, ctx: &S::Ctx) -> Result<S, ArithError> {
    Ok(match t {
        C::Q(n, m) => S::from_rational(&q(*n, *m), ctx),
        C::Cos(k) => impactkit::lang::eval_str::<S>(&format!("cos({k}*pi/16)"), ctx)
            .map_err(|e| ArithError::Domain(e.to_string()))?,
        C::Cbrt(n) => impactkit::lang::eval_str::<S>(&format!("root({n}, 3)"), ctx)
            .map_err(|e| ArithError::Domain(e.to_string()))?,
        C::Add(a, b) => ev_cos::<S>(a, ctx)? + &ev_cos::<S>(b, ctx)?,
        C::Sub(a, b) => ev_cos::<S>(a, ctx)? - &ev_cos::<S>(b, ctx)?,
        C::Mul(a, b) => ev_cos::<S>(a, ctx)? * &ev_cos::<S>(b, ctx)?,
        C::Div(a, b) => ev_cos::<S>(a, ctx)?.checked_div(&ev_cos::<S>(b, ctx)?)?,
    })
}

/// The enclosure of `S` contains the exact value in Q(cos(π/16)) (or Q(2^(1/3))), and
/// its sign is never wrong.
fn check_cos_enclosure<S: Scalar>(t: &C, ctx: &S::Ctx) -> Result<(), TestCaseError> {
    let exact = ev_cos::<Algebraic>(t, &());
    let enc = ev_cos::<S>(t, ctx);
    match (&exact, &enc) {
        (Ok(x), Ok(y)) => {
            let (lo, hi) = y
                .rational_bounds()
                .expect("enclosures have rational bounds");
            let below = x.clone() - Algebraic::from_rational(&lo, &());
            let above = Algebraic::from_rational(&hi, &()) - x.clone();
            prop_assert!(
                below.sign() != Sign::Negative && above.sign() != Sign::Negative,
                "{} = {x} not in {y}",
                S::NAME
            );
            match y.sign() {
                Sign::Unknown => prop_assert!(lo <= q(0, 1) && q(0, 1) <= hi),
                s => prop_assert_eq!(s, x.sign()),
            }
        }
        (Ok(x), Err(e)) => prop_assert!(undecided(e), "{}: {e} but exact gave {x}", S::NAME),
        (Err(e), Ok(y)) => prop_assert!(false, "algebraic failed ({e}) but {} gave {y}", S::NAME),
        (Err(_), Err(_)) => {}
    }
    Ok(())
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 10_000,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn f64_intervals_enclose_exact(t in tree(true), d in prop::sample::select(vec![2i64, 3, 5, 7])) {
        check_enclosure::<Interval>(&t, d, &())?;
    }

    #[test]
    fn mpfr_intervals_enclose_exact(
        t in tree(true),
        d in prop::sample::select(vec![2i64, 3, 5, 7]),
        prec in 24u32..400,
    ) {
        check_enclosure::<MpInterval>(&t, d, &prec)?;
    }

    /// The algebraic backend agrees with Q(√d) on degree 2 (√2, √3, √5 live in fields of
    /// cosines there, √7 in its own field).
    #[test]
    fn algebraic_agrees_with_quadratic(t in tree(true), d in prop::sample::select(vec![2i64, 3, 5, 7])) {
        let a = ev::<Algebraic>(&t, d, &());
        let b = ev::<Quadratic>(&t, d, &());
        match (a, b) {
            (Ok(a), Ok(b)) => {
                prop_assert_eq!(a.to_quadratic(), Some(b.clone()));
                prop_assert_eq!(a.to_string(), b.to_string());
                prop_assert_eq!(a.sign(), b.sign());
            }
            (Err(e1), Err(e2)) => prop_assert_eq!(e1, e2),
            (a, b) => prop_assert!(false, "{a:?} vs {b:?}"),
        }
    }

    /// Rationals and Q(√d) agree on rational trees (no `Root` leaves).
    #[test]
    fn rationals_agree_with_quadratic(t in tree(false)) {
        let a = ev::<Rational>(&t, 2, &());
        let b = ev::<Quadratic>(&t, 2, &());
        match (a, b) {
            (Ok(a), Ok(b)) => prop_assert_eq!(Some(a.as_rug()), b.as_rational()),
            (Err(e1), Err(e2)) => prop_assert_eq!(e1, e2),
            (a, b) => prop_assert!(false, "{a:?} vs {b:?}"),
        }
    }

    /// An MPFR float at precision p lies inside the MPFR interval at precision p (rounding
    /// to nearest is monotone), which contains the exact value: the float is exact to the
    /// width of that enclosure.
    #[test]
    fn mpfr_floats_lie_in_the_same_precision_enclosure(
        t in tree(true),
        d in prop::sample::select(vec![2i64, 3, 5, 7]),
        prec in 24u32..400,
    ) {
        let f = ev::<Mpfr>(&t, d, &prec);
        let i = ev::<MpInterval>(&t, d, &prec);
        if let (Ok(f), Ok(i)) = (f, i) {
            prop_assert_eq!(f.prec(), prec);
            let (lo, hi) = i.rational_bounds().unwrap();
            let v = float_to_rat(&f.0).unwrap();
            prop_assert!(lo <= v && v <= hi, "mpfr {} outside {}", f, i);
        }
    }

    /// Every single MPFR operation is correctly rounded to nearest.
    #[test]
    fn mpfr_operations_are_correctly_rounded(
        a in (-10_000i64..10_000, 1i64..1_000),
        b in (-10_000i64..10_000, 1i64..1_000),
        prec in 10u32..300,
        op in 0usize..5,
    ) {
        let (x, y) = (Mpfr::from_rational(&q(a.0, a.1), &prec), Mpfr::from_rational(&q(b.0, b.1), &prec));
        let (xr, yr) = (float_to_rat(&x.0).unwrap(), float_to_rat(&y.0).unwrap());
        let (got, exact) = match op {
            0 => (x.clone() + &y, &xr + &yr),
            1 => (x.clone() - &y, &xr - &yr),
            2 => (x.clone() * &y, &xr * &yr),
            3 if b.0 != 0 => (x.checked_div(&y).unwrap(), &xr / &yr),
            _ => (x.clone(), xr.clone()),
        };
        let want = rug::Float::with_val(prec, &impactkit::arith::rat_to_rug(&exact));
        prop_assert_eq!(got.0, want);
    }

    /// The integer shortcut `from_i64` agrees with `from_rational` on every backend.
    #[test]
    fn from_i64_agrees_with_from_rational(n in any::<i64>(), prec in 2u32..200) {
        let r = q(n, 1);
        prop_assert_eq!(f64::from_i64(n, &()), f64::from_rational(&r, &()));
        prop_assert_eq!(Rational::from_i64(n, &()), Rational::from_rational(&r, &()));
        prop_assert_eq!(Quadratic::from_i64(n, &()), Quadratic::from_rational(&r, &()));
        prop_assert_eq!(Mpfr::from_i64(n, &prec), Mpfr::from_rational(&r, &prec));
        prop_assert_eq!(Interval::from_i64(n, &()), Interval::from_rational(&r, &()));
        prop_assert_eq!(MpInterval::from_i64(n, &prec), MpInterval::from_rational(&r, &prec));
    }

    /// Every single `f64` operation is correctly rounded (IEEE 754), as the backend claims.
    #[test]
    fn f64_conversion_is_correctly_rounded(a in (-1_000_000i64..1_000_000, 1i64..100_000)) {
        let x = f64::from_rational(&q(a.0, a.1), &());
        prop_assert_eq!(x, a.0 as f64 / a.1 as f64);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn f64_intervals_enclose_algebraic(t in cos_tree()) {
        check_cos_enclosure::<Interval>(&t, &())?;
    }

    #[test]
    fn mpfr_intervals_enclose_algebraic(t in cos_tree(), prec in 24u32..400) {
        check_cos_enclosure::<MpInterval>(&t, &prec)?;
    }

    /// Cube roots (`root(x, 3)`): the enclosures contain the exact value in Q(2^(1/3)).
    #[test]
    fn intervals_enclose_cube_roots(t in cbrt_tree(), prec in 24u32..400) {
        check_cos_enclosure::<Interval>(&t, &())?;
        check_cos_enclosure::<MpInterval>(&t, &prec)?;
    }
}
