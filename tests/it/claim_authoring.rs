//! Writing a claim file (issue 37, part 2): misspelt keys, probes and variables are
//! errors naming the file, the key and the nearest valid name; `verify --probes` lists
//! every probe; `verify --deny` turns chosen verdicts into exit status 1 for CI.

use crate::common::{bad, run, tempdir};
use impactkit::claims::probes::all_probes;

const FIRST: &str = "docs/examples/my-first-claim.toml";
const IDENTITY: &str = "proofs/fp/fp-lemma7.2-bounds.toml";

/// `file` with `from` replaced by `to` (once, which must occur), written under a fresh
/// directory; returns its path.
fn mutant(dir: &str, file: &str, from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{file} has no {from:?}");
    let d = tempdir(dir);
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join("claim.toml");
    std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn misspellings_are_errors_naming_the_key_and_the_nearest_name() {
    let cases = [
        // (file, from, to, what the one error line must say)
        (
            FIRST,
            "vars = {",
            "varz = {",
            "`implication.varz`: unknown key (did you mean \"vars\"?)",
        ),
        (
            FIRST,
            "probe = \"corner.tr_nid_xy\"",
            "probe = \"corner.tr_nid_yx\"",
            "unknown probe \"corner.tr_nid_yx\" (did you mean \"corner.tr_nid_xy\"?)",
        ),
        (
            FIRST,
            "cone = ",
            "cones = ",
            "`implication.proof.cones`: unknown key (did you mean \"cone\"?)",
        ),
        (
            FIRST,
            "name = \"Z1\"",
            "nmae = \"Z1\"",
            "`implication.case[0].nmae`: unknown key",
        ),
        (
            FIRST,
            "[implication]",
            "[identity]\nlhs = \"1\"\nrhs = \"1\"\n[implication]",
            "a claim of kind \"implication\" reads the table [implication], not [identity]",
        ),
        (
            FIRST,
            "method = ",
            "methd = \"\"\nmethod = ",
            "`methd`: unknown key (did you mean \"method\"?)",
        ),
        (
            IDENTITY,
            "lhs = \"(3*k/",
            "lhs = \"(3*kk/",
            "`identity.lhs`: unknown variable `kk` (did you mean \"k\"?)",
        ),
    ];
    for (i, (file, from, to, says)) in cases.into_iter().enumerate() {
        let p = mutant(&format!("authoring-{i}"), file, from, to);
        let err = bad(&["verify", &p]);
        assert!(err.contains(&p), "the error names the file: {err}");
        assert!(err.contains(says), "{from} -> {to}: {err}");
    }
}

#[test]
fn the_example_claims_verify_and_deny_sets_the_exit_status() {
    let (code, out, err) = run(&["verify", FIRST, "--deny", "refuted,unproved"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("my-first-claim  proved"), "{out}");
    let wrong = "docs/examples/my-wrong-claim.toml";
    let (code, out, _) = run(&["verify", wrong]);
    assert_eq!(code, 0, "without --deny a refuted claim is a result: {out}");
    assert!(out.contains("refuted"), "{out}");
    let (code, out, err) = run(&["verify", wrong, "--deny", "refuted"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("refuted"),
        "the full report still comes: {out}"
    );
    assert!(err.contains("--deny"), "{err}");
    let (code, ..) = run(&["verify", wrong, "--deny", "inconclusive,sampled,subdomain"]);
    assert_eq!(code, 0);
    let err = bad(&["verify", wrong, "--deny", "refutd"]);
    assert!(err.contains("--deny"), "{err}");
}

#[test]
fn probes_lists_every_probe() {
    let (code, out, err) = run(&["verify", "--probes"]);
    assert_eq!(code, 0, "{err}");
    let names = all_probes();
    assert!(names.len() >= 50, "{}", names.len());
    assert!(out.starts_with(&format!("{} probes", names.len())), "{out}");
    for n in &names {
        assert!(out.lines().any(|l| l == *n), "{n} missing from the listing");
    }
    let (code, out, _) = run(&["verify", "--probes", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let listed = v["probes"].as_array().unwrap();
    assert_eq!(listed.len(), names.len());
    assert!(listed
        .iter()
        .all(|p| p["signature"].as_str().unwrap().contains("->")));
}

/// `verify` prints each claim's line as soon as it and the claims before it are decided:
/// the first line arrives while later claims are still being checked, and the streamed
/// report is the same text as the report of the library call.
#[test]
fn verify_streams_its_results_in_order() {
    use std::io::{BufRead, BufReader, Read};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_impactkit"))
        .args(["verify", "proofs/fp", "--jobs", "2"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert!(first.starts_with("fp-"), "{first}");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the first line came before the last claim was decided"
    );
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    assert!(child.wait().unwrap().success());
    let streamed = first + &rest;
    let library = impactkit::claims::verify_cli(
        &["proofs/fp".into()],
        None,
        "text",
        120.0,
        2,
        &Default::default(),
    )
    .unwrap();
    let lines = |s: &str| -> Vec<String> {
        s.trim_end()
            .lines()
            .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
            .collect()
    };
    assert_eq!(
        lines(&streamed),
        lines(&library),
        "same claims, verdicts and order"
    );
}
