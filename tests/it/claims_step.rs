//! Verdicts of the claims of Seghete–Murphey Sect. VI (the time stepper) and Sect. III
//! (Example 1, the impact set S): the expected verdicts live here, never in the claim
//! files; mutants show the checks can fail.

use crate::common::claims::{load, mutant_refuted};
use impactkit::claims::{check, Verdict};
use std::time::Duration;

const EXPECTED: [(&str, Verdict); 13] = [
    ("sm-vi-ld-midpoint", Verdict::ProvedOnSubdomain),
    ("sm-vi-del-28", Verdict::ProvedOnSubdomain),
    ("sm-vi-legendre-29", Verdict::Refuted),
    ("sm-vi-legendre-29-corrected", Verdict::ProvedOnSubdomain),
    ("sm-vi-energy-every-step", Verdict::ProvedOnSubdomain),
    ("sm-vi-impact-step-30", Verdict::Proved),
    ("sm-vi-rootfinding", Verdict::Proved),
    ("sm-vi-discrete-momentum", Verdict::Proved),
    ("sm-vi-energy-at-impact", Verdict::Proved),
    ("sm-vi-plastic-inelastic-step", Verdict::Proved),
    ("sm-vi-zeno-plastic", Verdict::Proved),
    ("sm-iii-ex1-minimal", Verdict::Refuted),
    ("sm-iii-S-active-set", Verdict::Refuted),
];

#[test]
fn step_claims_verdicts() {
    for (id, want) in EXPECTED {
        let (_, c) = load(&format!("proofs/sm/{id}.toml"));
        assert_eq!(c.id, id);
        let o = check(&c, Duration::from_secs(120));
        assert_eq!(o.verdict, want, "{id}: {}", o.detail);
    }
}

/// Every sm-vi-* and sm-iii-* claim file is listed above.
#[test]
fn every_step_claim_is_listed() {
    let mut ids: Vec<String> = std::fs::read_dir("proofs/sm")
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| {
            e.file_name()
                .to_string_lossy()
                .trim_end_matches(".toml")
                .to_string()
        })
        .filter(|n| n.starts_with("sm-vi-") || n.starts_with("sm-iii-"))
        .collect();
    ids.sort();
    let mut listed: Vec<String> = EXPECTED.iter().map(|e| e.0.to_string()).collect();
    listed.sort();
    assert_eq!(ids, listed);
}

/// Mutants: a wrong error term, a wrong impact time, a wrong final state are refuted.
#[test]
fn step_claims_mutants() {
    mutant_refuted(
        "proofs/sm/sm-vi-ld-midpoint.toml",
        "err == -f^2*h^3/(24*m)",
        "err == -f^2*h^3/(12*m)",
    );
    mutant_refuted(
        "proofs/sm/sm-vi-impact-step-30.toml",
        "t1_sq == 1/20",
        "t1_sq == 1/10",
    );
    mutant_refuted(
        "proofs/sm/sm-vi-rootfinding.toml",
        "final_q3 = \"4\"",
        "final_q3 = \"41/10\"",
    );
    mutant_refuted(
        "proofs/sm/sm-vi-zeno-plastic.toml",
        "final_energy = \"1/2\"",
        "final_energy = \"3\"",
    );
}
