//! Seghete–Murphey propagative model: reset maps, minimal sequences, the cradle of
//! Example 1, Theorem 1's bound, Lemma 7, Theorem 3's condition, and the restitution
//! coefficient of (16)–(17).

use impactkit::arith::{MpInterval, Rational, Scalar};
use impactkit::law::propagative::*;
use impactkit::linalg::SymMatrix;
use num_rational::BigRational;
use proptest::prelude::*;

fn r(n: i64, d: i64) -> Rational {
    Rational::from_big(&BigRational::new(n.into(), d.into()))
}
fn v(xs: &[i64]) -> Vec<Rational> {
    xs.iter().map(|&x| r(x, 1)).collect()
}
fn cradle(m: &[Rational]) -> Contacts<Rational> {
    Contacts::new(SymMatrix::diagonal(m), vec![v(&[-1, 1, 0]), v(&[0, -1, 1])]).unwrap()
}

#[test]
fn example_1_newtons_cradle() {
    let c = cradle(&v(&[1, 1, 1]));
    // Γ(u), Γ(v) are the permutation matrices of Example 1
    assert_eq!(
        c.gamma_matrix(0).unwrap(),
        vec![v(&[0, 1, 0]), v(&[1, 0, 0]), v(&[0, 0, 1])]
    );
    assert_eq!(
        c.gamma_matrix(1).unwrap(),
        vec![v(&[1, 0, 0]), v(&[0, 0, 1]), v(&[0, 1, 0])]
    );
    let s = minimal_sequences(&c, &v(&[1, 0, -1]), 10).unwrap();
    assert_eq!(
        s.iter().map(|x| x.0.clone()).collect::<Vec<_>>(),
        vec![vec![0, 1, 0], vec![1, 0, 1]]
    );
    let o = distinct_outcomes(&s).unwrap();
    assert_eq!(o, vec![v(&[-1, 0, 1])]);
    let s = minimal_sequences(&c, &v(&[1, 0, 0]), 10).unwrap();
    assert_eq!(
        s.iter().map(|x| x.0.clone()).collect::<Vec<_>>(),
        vec![vec![0, 1]]
    );
    assert_eq!(s[0].1, v(&[0, 0, 1]));
    // (15): ΓuΓvΓu = ΓvΓuΓv = the reversal permutation, applied to a generic momentum
    let p = v(&[5, -2, 7]);
    assert_eq!(c.apply_sequence(&p, &[0, 1, 0]).unwrap(), v(&[7, -2, 5]));
    assert_eq!(c.apply_sequence(&p, &[1, 0, 1]).unwrap(), v(&[7, -2, 5]));
    // the bound of Theorem 1: γ = π/6, π/γ = 6
    let ci = Contacts::new(
        SymMatrix::diagonal(&[
            MpInterval::from_i64(1, &128),
            MpInterval::from_i64(1, &128),
            MpInterval::from_i64(1, &128),
        ]),
        [[-1, 1, 0], [0, -1, 1]]
            .iter()
            .map(|row| row.iter().map(|&x| MpInterval::from_i64(x, &128)).collect())
            .collect(),
    )
    .unwrap();
    let b = theorem1_ratio(&ci, 0, 1).unwrap();
    assert!(b.contains_rational(&BigRational::from_integer(6.into())) && b.width() < 1e-30);
    // Theorem 3's condition: unit normals at 120°: <u,v> = −½
    assert!(theorem3_condition(&c, 0, 1).unwrap());
    assert!(!theorem3_condition(&cradle(&v(&[1, 2, 1])), 0, 1).unwrap());
}

#[test]
fn lemma7_commute_iff_orthogonal() {
    let one = r(1, 1);
    let m = SymMatrix::diagonal(&[one.clone(), one.clone(), one.clone()]);
    let orth = Contacts::new(m.clone(), vec![v(&[1, 0, 0]), v(&[0, 1, 1])]).unwrap();
    assert_eq!(lemma7(&orth, 0, 1).unwrap(), (true, true));
    let not = Contacts::new(m, vec![v(&[1, 1, 0]), v(&[0, 1, 1])]).unwrap();
    assert_eq!(lemma7(&not, 0, 1).unwrap(), (false, false));
}

/// (16)–(17): with α = R the energy loss is ΔE = (1 − R²)E_p, i.e. (16) holds; the
/// paper's printed α = √(1 − R²) does not satisfy (16): at R = 3/5 it gives α = 4/5 and
/// √(1 − ΔE/E_p) = 4/5 ≠ 3/5.
#[test]
fn restitution_coefficient_of_16_17() {
    let c = cradle(&v(&[1, 2, 3]));
    let p = v(&[3, 0, -1]);
    let e = minimal_sequences(&c, &p, 12).unwrap()[0].1.clone();
    let pl = c.plastic(&p).unwrap();
    let energy = |x: &[Rational]| c.inner(x, x).unwrap();
    let ratio = |out: &[Rational]| {
        // ΔE / E_p = (|p|² − |p⁺|²)/(|p|² − |p_p|²)
        (energy(&p) - energy(out))
            .checked_div(&(energy(&p) - energy(&pl)))
            .unwrap()
    };
    let big_r = r(3, 5);
    let ours = inelastic(&e, &pl, &big_r);
    assert_eq!(ratio(&ours), r(1, 1) - big_r.square()); // (16): R² = 1 − ΔE/E_p
    let paper_alpha = r(4, 5); // √(1 − (3/5)²)
    let theirs = inelastic(&e, &pl, &paper_alpha);
    assert_eq!(r(1, 1) - ratio(&theirs), r(16, 25)); // R'² = 16/25: R' = 4/5 ≠ 3/5
                                                     // R = 1 is elastic, R = 0 plastic
    assert_eq!(inelastic(&e, &pl, &r(1, 1)), e);
    assert_eq!(inelastic(&e, &pl, &r(0, 1)), pl);
}

fn rat() -> impl Strategy<Value = Rational> {
    (-9i64..=9, 1i64..=4).prop_map(|(n, d)| r(n, d))
}
fn pos() -> impl Strategy<Value = Rational> {
    (1i64..=9, 1i64..=4).prop_map(|(n, d)| r(n, d))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Γ(u)² = I (8), Γ is an isometry of ⟨·,·⟩_g (Lemma 5), minimal outcomes are feasible
    /// and conserve energy, and no minimal sequence is longer than ⌈π/γ⌉ (Theorem 1).
    #[test]
    fn reset_map_properties(m in prop::collection::vec(pos(), 3), a in prop::collection::vec(rat(), 3), b in prop::collection::vec(rat(), 3)) {
        let c = cradle(&m);
        for i in 0..2 {
            prop_assert_eq!(c.reflect(&c.reflect(&a, i).unwrap(), i).unwrap(), a.clone());
            let (ra, rb) = (c.reflect(&a, i).unwrap(), c.reflect(&b, i).unwrap());
            prop_assert_eq!(c.inner(&ra, &rb).unwrap(), c.inner(&a, &b).unwrap());
        }
        let seqs = minimal_sequences(&c, &a, 16).unwrap();
        prop_assert!(!seqs.is_empty());
        for (_, out) in &seqs {
            prop_assert!(c.feasible(out).unwrap());
            prop_assert_eq!(c.inner(out, out).unwrap(), c.inner(&a, &a).unwrap());
        }
        let p = 64;
        let mi: Vec<MpInterval> = m.iter().map(|x| MpInterval::from_rational(&x.to_big(), &p)).collect();
        let ci = Contacts::new(
            SymMatrix::diagonal(&mi),
            [[-1, 1, 0], [0, -1, 1]].iter().map(|row| row.iter().map(|&x| MpInterval::from_i64(x, &p)).collect()).collect(),
        ).unwrap();
        let bound = theorem1_ratio(&ci, 0, 1).unwrap();
        let hi = bound.hi().to_f64().ceil() as usize;
        let longest = seqs.iter().map(|s| s.0.len()).max().unwrap();
        prop_assert!(longest <= hi, "longest {} > ceil(pi/gamma) <= {}", longest, hi);
    }
}

/// A 2-dof system with diagonal masses and two normals.
fn planar(m: [Rational; 2], u: [i64; 2], w: [i64; 2]) -> Contacts<Rational> {
    Contacts::new(SymMatrix::diagonal(&m), vec![v(&u), v(&w)]).unwrap()
}

/// Theorem 3: a three-stage impact (minimal sequences uvu and vuv) has an
/// order-independent outcome iff ⟨u, v⟩_g = −½ for unit normals, decided exactly as
/// ⟨u, v⟩_g < 0 and 4⟨u, v⟩²_g = ‖u‖²_g‖v‖²_g. An exhaustive grid of planar systems
/// (diagonal masses, small integer normals and momenta); both sides of the equivalence
/// must occur, so the test cannot pass vacuously.
#[test]
fn theorem_3_three_stage_uniqueness_on_a_grid() {
    let masses = [(1, 1), (1, 2), (2, 1), (1, 3), (3, 1), (3, 4)];
    let normals = [[1, 0], [0, 1], [-1, 1], [1, 1], [-1, 2], [-2, 1], [1, -2]];
    let (mut same, mut differ) = (0, 0);
    for (m1, m2) in masses {
        // M = diag(m1, m2) and diag(m1, m2/3): the latter contains the instance
        // u = (1, 0), v = (−1, 1) at m1 = m2 where the condition holds
        for m in [[r(m1, 1), r(m2, 1)], [r(m1, 1), r(m2, 3)]] {
            for (i, u) in normals.iter().enumerate() {
                for w in &normals[i + 1..] {
                    let c = planar(m.clone(), *u, *w);
                    let cond = theorem3_condition(&c, 0, 1).unwrap();
                    for p1 in -2..=2 {
                        for p2 in -2..=2 {
                            let seqs = minimal_sequences(&c, &v(&[p1, p2]), 6).unwrap();
                            let lens: Vec<usize> = seqs.iter().map(|s| s.0.len()).collect();
                            if lens != [3, 3] {
                                continue;
                            }
                            let unique = distinct_outcomes(&seqs).unwrap().len() == 1;
                            assert_eq!(unique, cond, "M {m:?}, u {u:?}, v {w:?}, p ({p1}, {p2})");
                            if unique {
                                same += 1;
                            } else {
                                differ += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(same > 0 && differ > 0, "same {same}, differ {differ}");
}

#[test]
fn theorem_3_instances() {
    // the condition holds: a three-stage impact with one outcome
    let c = planar([r(1, 1), r(1, 3)], [1, 0], [-1, 1]);
    assert!(theorem3_condition(&c, 0, 1).unwrap());
    let s = minimal_sequences(&c, &v(&[-1, -1]), 12).unwrap();
    assert_eq!(s.iter().map(|x| x.0.len()).collect::<Vec<_>>(), vec![3, 3]);
    assert_eq!(distinct_outcomes(&s).unwrap().len(), 1);
    // it fails (masses 1, 2, 1): uvu and vuv differ
    let c = cradle(&[r(1, 1), r(2, 1), r(1, 1)]);
    assert!(!theorem3_condition(&c, 0, 1).unwrap());
    let s = minimal_sequences(&c, &v(&[2, 0, -2]), 12).unwrap();
    assert_eq!(s.iter().map(|x| x.0.len()).collect::<Vec<_>>(), vec![3, 3]);
    assert_eq!(distinct_outcomes(&s).unwrap().len(), 2);
}
