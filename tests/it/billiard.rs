//! Seghete–Murphey Sect. VII-A: the billiard break, eq. (31) on rational geometries, the
//! indeterminacy ξ of Fig. 5 and its minima; Theorem 2 (orthogonal normals) on random
//! exact momenta.

use impactkit::arith::{Quadratic, Rational, Scalar};
use impactkit::law::propagative::{one_pass, pairwise_orthogonal, Contacts};
use impactkit::linalg::SymMatrix;
use impactkit::system::billiard::Break;
use num_rational::BigRational;
use proptest::prelude::*;

fn r(n: i64, d: i64) -> Rational {
    Rational::from_big(&BigRational::new(n.into(), d.into()))
}

/// The geometry with t = tan(θ/4) = n/d: a rational point (cos θ/2, sin θ/2).
fn rational_break(radii: [i64; 3], masses: Option<[i64; 3]>, t: Rational) -> Break<Rational> {
    let one = r(1, 1);
    let d = one.clone() + &t.square();
    let c = (one - &t.square()).checked_div(&d).unwrap();
    let s = (r(2, 1) * &t).checked_div(&d).unwrap();
    let radii = radii.map(|x| r(x, 1));
    match masses {
        Some(m) => Break {
            radii,
            masses: m.map(|x| r(x, 1)),
            cos_half: c,
            sin_half: s,
        },
        None => Break::with_volume_masses(radii, c, s),
    }
}

#[test]
fn eq_31_holds_and_its_middle_expression_has_the_wrong_sign() {
    // Pythagorean half angles: t = 1/3 gives (cos, sin)(θ/2) = (4/5, 3/5), cos θ = 7/25
    let cases = [
        ([1, 1, 3], None, r(1, 3)),
        ([1, 2, 1], Some([2, 3, 5]), r(1, 2)),
        ([2, 3, 1], Some([1, 7, 4]), r(3, 5)),
        ([1, 1, 1], None, r(3, 8)),
    ];
    for (radii, masses, t) in cases {
        let b = rational_break(radii, masses, t);
        let o = b.outcome(64).unwrap();
        // (31): <Dφa, Dφb>_g = cos θ / m_c, independent of radii and of m_a, m_b
        assert_eq!(o.inner_product, o.cos_theta_over_mc, "{radii:?}");
        // the printed middle expression of (31) is the negative: the law of cosines gives
        // (a−c)·(b−c) = ((r_a+r_c)² + (r_b+r_c)² − |a−b|²)/2, the paper has the opposite
        assert_eq!(o.printed_31_middle, -o.inner_product.clone(), "{radii:?}");
        assert_ne!(o.inner_product, r(0, 1));
    }
    let b = rational_break([1, 1, 3], None, r(1, 3));
    assert_eq!(b.cos_theta(), r(7, 25));
    assert_eq!(b.outcome(64).unwrap().inner_product, r(7, 675));
}

#[test]
fn outcomes_conserve_momentum_and_energy() {
    let b = rational_break([1, 2, 1], Some([2, 3, 5]), r(1, 2));
    let c = b.contacts().unwrap();
    let o = b.outcome(64).unwrap();
    for (_, p) in [&o.ab, &o.ba] {
        // linear momentum of the three balls
        assert_eq!(p[0].clone() + &p[2] + &p[4], o.p0[4]);
        assert_eq!(p[1].clone() + &p[3] + &p[5], r(0, 1));
        assert_eq!(c.inner(p, p).unwrap(), c.inner(&o.p0, &o.p0).unwrap());
        assert!(c.feasible(p).unwrap());
    }
    assert_eq!(o.ab.0, vec![0, 1]);
    assert_eq!(o.ba.0, vec![1, 0]);
}

#[test]
fn exact_values_at_special_angles() {
    let q = |s: &str| impactkit::lang::eval_str::<Quadratic>(s, &()).unwrap();
    // θ = 2π/3, equal balls: p_ab ≠ p_ba, ξ² = 5/16 exactly
    let b = Break::with_volume_masses([q("1"), q("1"), q("1")], q("cos(pi/3)"), q("sin(pi/3)"));
    let o = b.outcome(64).unwrap();
    assert_eq!(o.xi_squared, q("5/16"));
    let want: Vec<Quadratic> = [
        "1/4",
        "sqrt(3)/4",
        "3/8",
        "-3*sqrt(3)/8",
        "3/8",
        "sqrt(3)/8",
    ]
    .iter()
    .map(|s| q(s))
    .collect();
    assert_eq!(o.ab.1, want);
    // θ = π/2: orthogonal normals (Lemma 7), no indeterminacy, ξ = 0 exactly
    let b = Break::with_volume_masses([q("1"), q("1"), q("3")], q("cos(pi/4)"), q("sin(pi/4)"));
    let o = b.outcome(64).unwrap();
    assert_eq!(o.inner_product, q("0"));
    assert_eq!(o.xi_squared, q("0"));
    // θ = π: grazing, no impact at all
    let b = Break::with_volume_masses([q("1"), q("1"), q("3")], q("0"), q("1"));
    let o = b.outcome(64).unwrap();
    assert!(o.ab.0.is_empty() && o.ba.0.is_empty());
    assert_eq!(o.xi_squared, q("0"));
    // just off π/2 the outcome is not unique
    let b = rational_break([1, 1, 3], None, r(2, 5));
    assert!(b.outcome(64).unwrap().xi_squared.sign().is_positive());
}

#[test]
fn overlapping_geometries_are_refused() {
    // t = 1/10: θ ≈ 0.4 rad; equal balls overlap below θ = π/3
    let b = rational_break([1, 1, 1], None, r(1, 10));
    let e = b.outcome(64).unwrap_err().to_string();
    assert!(e.contains("overlap"), "{e}");
}

fn rat() -> impl Strategy<Value = Rational> {
    (-20i64..=20, 1i64..=9).prop_map(|(n, d)| r(n, d))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]
    /// Theorem 2: pairwise g-orthogonal normals (three contacts of a 3-dof system with a
    /// diagonal mass matrix, each normal one coordinate axis scaled) give the same
    /// feasible outcome after one pass, in every order.
    #[test]
    fn theorem_2_order_independent(m in prop::collection::vec(1i64..=9, 3), s in prop::collection::vec(1i64..=5, 3), p in prop::collection::vec(rat(), 3)) {
        let masses: Vec<Rational> = m.iter().map(|&x| r(x, 1)).collect();
        let normals = (0..3).map(|i| (0..3).map(|j| if i == j { r(s[i], 1) } else { r(0, 1) }).collect()).collect();
        let c = Contacts::new(SymMatrix::diagonal(&masses), normals).unwrap();
        prop_assert!(pairwise_orthogonal(&c).unwrap());
        let first = one_pass(&c, &p, &[0, 1, 2]).unwrap().1;
        prop_assert!(c.feasible(&first).unwrap());
        for order in [[0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            prop_assert_eq!(&one_pass(&c, &p, &order).unwrap().1, &first);
        }
    }
}

#[test]
fn theorem_2_needs_orthogonality() {
    // the equal-mass cradle normals are not orthogonal: one pass u, v takes (1,0,−1) to
    // (0,−1,1), still infeasible for u (Example 1 needs uvu)
    let c = Contacts::new(
        SymMatrix::diagonal(&[r(1, 1), r(1, 1), r(1, 1)]),
        vec![
            vec![r(-1, 1), r(1, 1), r(0, 1)],
            vec![r(0, 1), r(-1, 1), r(1, 1)],
        ],
    )
    .unwrap();
    assert!(!pairwise_orthogonal(&c).unwrap());
    let p = vec![r(1, 1), r(0, 1), r(-1, 1)];
    let (seq, q) = one_pass(&c, &p, &[0, 1]).unwrap();
    assert_eq!(seq, vec![0, 1]);
    assert!(!c.feasible(&q).unwrap());
}
