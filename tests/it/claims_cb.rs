//! Verdicts and mutants of the claims of Clark & Bloch, "The bouncing penny and
//! nonholonomic impacts" (`proofs/cb/`): the expected verdicts live here, never in the
//! claim files.

use crate::common::claims::{load, mutant_refuted, outcome};
use impactkit::claims::{Outcome, Verdict};
use std::path::Path;

fn run(id: &str) -> Outcome {
    let (_, c) = load(&format!("proofs/cb/{id}.toml"));
    assert_eq!(c.id, id);
    outcome(&c.id)
}

/// Decided over the paper's whole stated domain: the penny's printed formulas against the
/// general law (symbolic prover), the flow and (12)-(13) (jets through the law), and the
/// exact examples (witnesses, Table I, the initial data).
const PROVED: [&str; 18] = [
    "cb-eq12-13",
    "cb-eq25-26",
    "cb-eq27-29",
    "cb-eq30",
    "cb-eq31",
    "cb-eq32-33",
    "cb-eq34",
    "cb-iv-b-plastic",
    "cb-remark4.6-differ",
    "cb-table1",
    "cb-theta-dot-nonholonomic",
    "cb-theta-dot-unchanged",
    "cb-vi-a-initial-data",
    "cb-vi-b-theta0",
    "cb-vii-control-corrected",
    // the penny's own elastic map at a symbolic heading (432 cells)
    "cb-prop4.1-penny",
    // every dimension by the Gram reduction of the proof in dimension 3
    "cb-thm3.1",
    "cb-eq6-remark3.1",
];

/// The general law with a general mass matrix in one dimension (n = 3 or 4, the subdomain
/// written in the detail): the paper states them for any dimension and any number m of
/// constraining one-forms, which no Gram reduction of a fixed number of objects covers.
const ON_SUBDOMAIN: [&str; 6] = [
    "cb-prop4.1",
    "cb-prop4.1-n4",
    "cb-def4.4",
    "cb-prop4.2-19-21",
    "cb-prop4.2-off-delta",
    "cb-remark4.6",
];

/// The paper's text is wrong: an exact counterexample.
const REFUTED: [&str; 1] = ["cb-vii-control"];

/// What Figs. 1–4 show, by certified runs: checked (and mutated) in `it::penny`.
const FIGURES: [&str; 4] = ["cb-fig1", "cb-fig2", "cb-fig3", "cb-fig4"];

#[test]
fn cb_proved_claims() {
    for id in PROVED {
        let o = run(id);
        assert_eq!(o.verdict, Verdict::Proved, "{id}: {}", o.detail);
    }
}

#[test]
fn cb_claims_on_a_subdomain() {
    for id in ON_SUBDOMAIN {
        let o = run(id);
        assert_eq!(o.verdict, Verdict::ProvedOnSubdomain, "{id}: {}", o.detail);
        assert!(o.detail.contains("n = "), "{id}: {}", o.detail);
    }
}

#[test]
fn cb_refuted_claims() {
    for id in REFUTED {
        let o = run(id);
        assert_eq!(o.verdict, Verdict::Refuted, "{id}: {}", o.detail);
        assert!(o.counterexample.is_some(), "{id}");
    }
    // the printed controlled equation J phidot = u1 fails on the paper's own uncontrolled
    // motion (u = 0, phidot0 = 0.2)
    let o = run("cb-vii-control");
    assert!(
        o.detail.contains("J = 1/16000000") && o.detail.contains("phd = 1/5"),
        "{}",
        o.detail
    );
}

#[test]
fn cb_penny_mutant_is_refuted() {
    // (17) with the quadratic coefficient's sign flipped
    let d = mutant_refuted("proofs/cb/cb-prop4.1-penny.toml", "\"B > 0\"", "\"B < 0\"");
    assert!(d.contains("B < 0"), "{d}");
}

#[test]
fn cb_every_claim_is_listed() {
    let listed: Vec<&str> = PROVED
        .iter()
        .chain(&ON_SUBDOMAIN)
        .chain(&REFUTED)
        .chain(&FIGURES)
        .copied()
        .collect();
    let mut sorted = listed.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), listed.len(), "a claim is listed twice");
    let mut files: Vec<String> = std::fs::read_dir("proofs/cb")
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            p.file_stem().unwrap().to_string_lossy().into_owned()
        })
        .collect();
    files.sort();
    assert_eq!(sorted, files);
    assert!(Path::new("proofs/cb/cb-thm3.1.toml").exists());
}

#[test]
fn cb_symbolic_mutants_are_refuted() {
    // (12) with the sign of the constraint reaction flipped: (I - mR^2) thetaddot
    mutant_refuted(
        "proofs/cb/cb-eq12-13.toml",
        "\"res_theta == (I + m*R^2)*thdd\"",
        "\"res_theta == (I - m*R^2)*thdd\"",
    );
    // (26) with the sign of its y term flipped
    mutant_refuted(
        "proofs/cb/cb-eq25-26.toml",
        "\"y == -Om/om*R*(c0*cu - s0*su)",
        "\"y == Om/om*R*(c0*cu - s0*su)",
    );
    // P keeps thetadot but not phidot
    mutant_refuted(
        "proofs/cb/cb-theta-dot-unchanged.toml",
        "\"P_3 == vth\"",
        "\"P_4 == vph\"",
    );
    // (17) with its alpha^2 term doubled
    mutant_refuted(
        "proofs/cb/cb-prop4.1-n4.toml",
        "alpha^2*gdd == 0",
        "2*alpha^2*gdd == 0",
    );
    // the corrected control law with a wrong factor
    mutant_refuted(
        "proofs/cb/cb-vii-control-corrected.toml",
        "phdd = \"u1/J\"",
        "phdd = \"u1/(2*J)\"",
    );
    // (a_ij) of (31) times (a^ij) is the identity, not a matrix with a zero corner
    mutant_refuted(
        "proofs/cb/cb-eq31.toml",
        "\"a31_21*g12 + a31_22*g22 == 1\"",
        "\"a31_21*g12 + a31_22*g22 == 0\"",
    );
}

#[test]
fn cb_example_mutants_are_refuted() {
    // a thin homogeneous disk has J = mR^2/4, not mR^2/2
    mutant_refuted(
        "proofs/cb/cb-table1.toml",
        "\"J == m*R^2/4\"",
        "\"J == m*R^2/2\"",
    );
    // the head-on plastic impact keeps a third of the rolling, reversed
    mutant_refuted(
        "proofs/cb/cb-remark4.6-differ.toml",
        "pl_3 = \"-10/3\"",
        "pl_3 = \"-10\"",
    );
    // the back end of the initial state moves away from the boundary
    mutant_refuted(
        "proofs/cb/cb-vi-a-initial-data.toml",
        "\"rateb1 < 0\"",
        "\"rateb1 > 0\"",
    );
}
