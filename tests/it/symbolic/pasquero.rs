//! Pasquero, "Non-ideal multiple constraints", Sect. 4.1: the simplified Newton cradle
//! run through `law::characterization` with symbolic ε, v0 and R.

use super::{assert_same, s};
use impactkit::arith::symbolic::Symbolic;
use impactkit::law::characterization::{impulse_asymmetric, impulse_symmetric, Stop};
use impactkit::linalg::add;
use impactkit::system::cradle::{cradle_constraints, run_cradle};

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
