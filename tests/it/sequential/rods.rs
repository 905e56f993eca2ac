//! The thin-rod model of Sect. 4 (included from `tests/sequential.rs`).

use super::*;
use impactkit::system::rods::{compare_with_law, rods_outgoing, Agreement, Rod};

#[test]
fn rods_of_eq_33_to_36() {
    // (32)-(33): two rods, v and 0 → 0 and v; region 3: u_t = v/2, c u_x = −v/2
    let run = rods_outgoing(&[r(1), r(0)], 100).unwrap();
    assert_eq!(run.outgoing, vec![r(0), r(1)]);
    assert_eq!(
        run.snapshots[1].velocity,
        vec![vec![q(1, 2)], vec![q(1, 2)]]
    );
    assert_eq!(
        run.snapshots[1].strain,
        vec![vec![q(-1, 2)], vec![q(-1, 2)]]
    );
    // (34)-(36): 2v, 0, −v → −v, 0, 2v (regions 12, 11, 13 of (35); the text's "v" for
    // the left rod contradicts (35) and momentum conservation), γ⁺ = (v, 2v)
    let run = rods_outgoing(&[r(2), r(0), r(-1)], 100).unwrap();
    assert_eq!(run.outgoing, vec![r(-1), r(0), r(2)]);
    assert_eq!(run.end_time, 3);
    // t = 1: regions 4, 6, 5 of (35)
    assert_eq!(
        run.snapshots[1].velocity,
        vec![vec![r(1)], vec![q(1, 2)], vec![q(-1, 2)]]
    );
    assert_eq!(
        run.snapshots[1].strain,
        vec![vec![r(-1)], vec![q(-3, 2)], vec![q(-1, 2)]]
    );
    // t = 2: regions 9, (6), 10
    assert_eq!(
        run.snapshots[2].velocity,
        vec![vec![q(-1, 2)], vec![q(1, 2)], vec![r(1)]]
    );
    let opened: Vec<(usize, usize, bool)> = run
        .events
        .iter()
        .map(|e| (e.t, e.contact, e.closes))
        .collect();
    assert_eq!(
        opened,
        vec![(0, 1, true), (0, 2, true), (3, 1, false), (3, 2, false)]
    );
}

#[test]
fn rods_against_the_law_on_a_grid() {
    // every integer γ⁻ in [−4, 4]²: the rods (refining the lattice where a gap closes
    // between lattice times) give exactly S(γ⁻)
    let pts: Vec<Vec2<Rational>> = (-4..=4)
        .flat_map(|a| (-4..=4).map(move |b| v(a, b)))
        .collect();
    let unit = Rod {
        cells: 1,
        impedance: r(1),
    };
    let cmp = compare_with_law(&[unit.clone(), unit.clone(), unit], &pts, 1000).unwrap();
    for (p, c) in pts.iter().zip(&cmp) {
        assert!(matches!(c, Agreement::Agree { .. }), "{p:?}: {c:?}");
    }
    // γ⁻ = (−2, −1) of (36)
    let i = pts.iter().position(|p| *p == v(-2, -1)).unwrap();
    assert!(
        matches!(&cmp[i], Agreement::Agree { gamma_plus, cone } if *gamma_plus == v(1, 2) && cone == "III")
    );
}

#[test]
fn rods_refine_the_lattice() {
    // u⁻ = (0, −4, −3): rods 2 and 3 meet again at t = 4/3, between lattice times
    let run = rods_outgoing(&[r(0), r(-4), r(-3)], 100).unwrap();
    assert_eq!(run.steps_per_unit, 3);
    assert_eq!(run.outgoing, vec![r(-4), r(-3), r(0)]);
    let ev: Vec<(usize, usize, bool)> = run
        .events
        .iter()
        .map(|e| (e.t, e.contact, e.closes))
        .collect();
    // in steps of 1/3: 0, 4/3, 2, 10/3
    assert_eq!(
        ev,
        vec![(0, 1, true), (4, 2, true), (6, 1, false), (10, 2, false)]
    );
    // f64 cannot refine exactly: it still runs where no refinement is needed
    let run = rods_outgoing(&[2.0f64, 0.0, -1.0], 100).unwrap();
    assert_eq!(run.outgoing, vec![-1.0, 0.0, 2.0]);
}

#[test]
fn rods_beyond_the_paper() {
    use impactkit::system::rods::solve_rods;
    let pts: Vec<Vec2<Rational>> = (-4..=4)
        .flat_map(|a| (-4..=4).map(move |b| v(a, b)))
        .collect();
    // rods of equal length with impedances 3/5, 1, 2 (masses 3/5, 1, 2): the rod model
    // agrees with the law constructed for those masses at every grid point
    let rods = [q(3, 5), r(1), r(2)].map(|z| Rod {
        cells: 1,
        impedance: z,
    });
    let cmp = compare_with_law(&rods, &pts, 1000).unwrap();
    assert!(cmp.iter().all(|a| matches!(a, Agreement::Agree { .. })));
    // (2, 0, −1) with those impedances: γ⁺ = (4/3, 3/2) = Q_III γ⁻ for masses (3/5, 1, 2)
    let run = solve_rods(&rods, &[r(2), r(0), r(-1)], 100).unwrap();
    assert_eq!(run.outgoing, vec![q(-13, 6), q(-5, 6), q(2, 3)]);
    assert!(!run.vibrating);
    // lengths 2, 1, 3 (masses 2, 1, 3), same impedance: the rods keep vibrating, the rigid
    // outgoing velocities lose energy, and the law (energy-conserving) cannot match
    let rods = [2, 1, 3].map(|c| Rod {
        cells: c,
        impedance: r(1),
    });
    let run = solve_rods(&rods, &[r(0), r(-4), r(-8)], 1000).unwrap();
    assert!(run.vibrating);
    assert_eq!(run.outgoing, vec![r(-8), r(-8), q(-4, 3)]);
    assert_eq!(run.end_time, 6);
    // momentum −28 before and after; rigid kinetic energy 104 before, 296/3 after
    let o = &run.outgoing;
    assert_eq!(
        r(2) * o[0].clone() + o[1].clone() + r(3) * o[2].clone(),
        r(-28)
    );
    let e = r(2) * o[0].clone() * o[0].clone()
        + o[1].clone() * o[1].clone()
        + r(3) * o[2].clone() * o[2].clone();
    assert_eq!(e * q(1, 2), q(296, 3));
}
