//! Verdicts and mutants of the claims added for issue 13 (this paper's part): the expected
//! verdicts live here, never in the claim files.

use crate::common::claims::{load, mutant_refuted, outcome};
use impactkit::claims::{Outcome, Verdict};

fn run(path: &str) -> Outcome {
    outcome(&load(path).1.id)
}

fn expect(id: &str, verdict: Verdict) -> Outcome {
    let o = run(&format!("proofs/wl/{id}.toml"));
    assert_eq!(o.verdict, verdict, "{id}: {}", o.detail);
    o
}

#[test]
fn identities_of_sect2_and_theorem1() {
    expect("wl-eq12-13", Verdict::Proved);
    expect("wl-eq12-13-expansion", Verdict::Proved);
    mutant_refuted(
        "proofs/wl/wl-eq12-13.toml",
        "[\"h12\", \"m/3\"]",
        "[\"h12\", \"-m/3\"]",
    );
    for id in [
        "wl-thm1-eq43-first",
        "wl-thm1-eq43-second",
        "wl-thm1-eq43-corrected",
        "wl-thm1-eq44-corrected",
    ] {
        expect(id, Verdict::Proved);
    }
    mutant_refuted(
        "proofs/wl/wl-thm1-eq43-corrected.toml",
        "rhs = \"al^2*",
        "rhs = \"al*",
    );
    let o = expect("wl-thm1-eq43", Verdict::Refuted);
    assert!(o.detail.contains("lhs = 1/2, rhs = 1/8"), "{}", o.detail);
    let o = expect("wl-thm1-eq44", Verdict::Refuted);
    assert!(o.detail.contains("lhs_over_N = 3/4"), "{}", o.detail);
    expect("wl-symmetry", Verdict::Proved);
    mutant_refuted(
        "proofs/wl/wl-symmetry.toml",
        "d_b_12 = \"q_IVb_12 - q_IIb_21\"",
        "d_b_12 = \"q_IVb_12 - q_IIb_12\"",
    );
}

#[test]
fn cones_and_observations() {
    expect("wl-delassus", Verdict::Proved);
    mutant_refuted(
        "proofs/wl/wl-delassus.toml",
        "\"ginv_12 == m1/3\"",
        "\"ginv_12 == -m1/3\"",
    );
    expect("wl-cone-iva-impulse", Verdict::Proved);
    mutant_refuted(
        "proofs/wl/wl-cone-iva-impulse.toml",
        "\"lam2 == -m*g2\"",
        "\"lam2 == m*g2\"",
    );
    expect("wl-cones-iib-ivb", Verdict::Proved);
    expect("wl-fig4b-observations", Verdict::Proved);
    // sequential.balls: the outer balls do not keep their velocities
    mutant_refuted(
        "proofs/wl/wl-fig4b-observations.toml",
        "\"up1 == -v\"",
        "\"up1 == v\"",
    );
    expect("wl-rods-three-newton-differs", Verdict::Proved);
    expect("wl-h-monotone", Verdict::Proved);
    expect("wl-Z-nonexpansive-M", Verdict::Proved);
    // a contraction by 1/2 is not what Z does
    mutant_refuted(
        "proofs/wl/wl-Z-nonexpansive-M.toml",
        "<= m*((a1 - b1)^2",
        "<= m/2*((a1 - b1)^2",
    );
}

#[test]
fn rods_regions_and_transitions() {
    expect("wl-rods-two-regions-33", Verdict::Proved);
    expect("wl-rods-three-regions-35", Verdict::Proved);
    // rods.states: region 6 of (35) is (v/2, -3v/2)
    mutant_refuted(
        "proofs/wl/wl-rods-three-regions-35.toml",
        "\"s4_e == -3*v/2\"",
        "\"s4_e == 3*v/2\"",
    );
    expect("wl-rods-three-simultaneous", Verdict::Proved);
    mutant_refuted(
        "proofs/wl/wl-rods-three-simultaneous.toml",
        "\"open_1 == open_2\"",
        "\"open_1 == open_2 + 1\"",
    );
    expect("wl-table1-transitions", Verdict::Proved);
    mutant_refuted(
        "proofs/wl/wl-table1-transitions.toml",
        "\"t1_r1_c4_e == (u2 - u1)/2\"",
        "\"t1_r1_c4_e == (u1 - u2)/2\"",
    );
}
