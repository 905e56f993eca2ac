//! Certificates (`verify --certificates`), their checker (`impactkit check`) and the
//! determinism of verdicts (issue 33).

use impactkit::claims::{self, check};
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("impactkit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The certificates of the claims of `dir` (one claim with `only`).
fn certificates(paths: &[&str], name: &str) -> PathBuf {
    let out = temp(name);
    let exports = claims::Exports {
        certificates: Some(out.clone()),
        smtlib: Some(out.join("smt")),
        coq: None,
        html: None,
    };
    let paths: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
    claims::verify_cli(&paths, None, "json", 120.0, 2, &exports).unwrap();
    out
}

fn accepted(text: &str) -> Result<(), check::Rejection> {
    static CLAIMS: std::sync::OnceLock<Vec<claims::Claim>> = std::sync::OnceLock::new();
    let all = CLAIMS.get_or_init(|| claims::load_paths(&[PathBuf::from("proofs")]).unwrap());
    match check::check_text(text, all)?.rejected {
        None => Ok(()),
        Some(why) => Err(why),
    }
}

#[test]
fn certificates_are_rechecked_and_corrupted_ones_rejected() {
    let dir = certificates(
        &[
            "proofs/pq/pq-corner-symmetry.toml",
            "proofs/fp/fp-result1.toml",
            "proofs/fp/fp-cor3.1-termination.toml",
            "proofs/fp/fp-prop7.1-bounds-4S.toml",
            "proofs/sm/sm-lemma1.toml",
        ],
        "certs",
    );
    let read = |id: &str| std::fs::read_to_string(dir.join(format!("{id}.json"))).unwrap();
    for id in [
        "pq-corner-symmetry",
        "fp-result1",
        "fp-cor3.1-termination",
        "fp-prop7.1-bounds-4S",
        "sm-lemma1",
    ] {
        accepted(&read(id)).unwrap_or_else(|e| panic!("{id}: {e}"));
    }
    // the SMT-LIB queries of an induction: its lemmas' cells
    let smt = std::fs::read_to_string(dir.join("smt/pq-corner-symmetry.smt2")).unwrap();
    assert!(
        smt.contains("; query 1 expect unsat step lemma: "),
        "{}",
        &smt[..200]
    );
    assert!(smt.contains("(check-sat)"));

    let cert: serde_json::Value = serde_json::from_str(&read("pq-corner-symmetry")).unwrap();
    let lemma = "/certificate/step lemma/cells";
    // a dropped cell: the cells no longer cover the domain
    let mut dropped = cert.clone();
    let cells = dropped.pointer_mut(lemma).unwrap().as_array_mut().unwrap();
    let n = cells.len();
    cells.remove(n / 2);
    let why = accepted(&dropped.to_string()).unwrap_err();
    assert!(why.to_string().contains("neither proved"), "{why}");
    assert_eq!(why.class(), "cover");
    // a changed coefficient in a conclusion's obligation (m_x1 - x1 == 0 on the cell)
    let mut changed = cert.clone();
    let body = changed
        .pointer_mut(&format!("{lemma}/0/decided/2/obligation/body/1"))
        .unwrap();
    assert_eq!(body, "0", "{body}");
    *body = "1/1000".into();
    let why = accepted(&changed.to_string()).unwrap_err();
    assert!(why.to_string().contains("recorded obligation"), "{why}");
    assert_eq!(why.class(), "conclusion");
    // a sign the cell does not have
    let mut flipped = cert.clone();
    let fact = flipped
        .pointer_mut(&format!("{lemma}/0/facts"))
        .unwrap()
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|f| f["sign"] == ">" && f["rule"] == "coefficients")
        .unwrap();
    fact["sign"] = "<".into();
    let why = accepted(&flipped.to_string()).unwrap_err();
    assert!(
        why.to_string().contains("does not follow by the rules"),
        "{why}"
    );
    assert_eq!(why.class(), "sign");
    // a refutation whose witness is moved to where the claim holds (the 4S bound fails
    // only for small k)
    let mut moved: serde_json::Value = serde_json::from_str(&read("fp-prop7.1-bounds-4S")).unwrap();
    moved["counterexample"]["k"] = "1".into();
    let why = accepted(&moved.to_string()).unwrap_err();
    assert!(
        why.to_string().contains("recomputed: confirmed-on-samples"),
        "{why}"
    );
    assert_eq!(why.class(), "recomputed");
    // another claim's source: the certificate's copy of the claim is not read (the claim
    // file is), so it changes nothing
    let mut other = cert.clone();
    other["source"] =
        serde_json::from_str::<serde_json::Value>(&read("fp-result1")).unwrap()["source"].clone();
    accepted(&other.to_string()).unwrap();
    // another claim's certificate under this claim's id
    let mut renamed: serde_json::Value = serde_json::from_str(&read("fp-result1")).unwrap();
    renamed["claim"] = "pq-corner-symmetry".into();
    assert!(accepted(&renamed.to_string()).is_err());
    std::fs::remove_dir_all(&dir).ok();
}

/// Each edit of a proved certificate and the start of the reason `check` must give.
fn rejected_with(cert: &serde_json::Value, edit: impl Fn(&mut serde_json::Value), want: &str) {
    let mut c = cert.clone();
    edit(&mut c);
    let why = accepted(&c.to_string()).expect_err(want);
    assert!(
        why.to_string().contains(want),
        "wanted `{want}`, got: {why}"
    );
}

#[test]
fn the_cover_of_the_domain_is_rederived_by_the_checker() {
    let dir = certificates(
        &[
            "proofs/fp/fp-result1.toml",
            "proofs/fp/fp-6-zone-boundaries-corrected.toml",
            "proofs/sm/sm-involution.toml",
        ],
        "cover",
    );
    let read = |id: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{id}.json"))).unwrap())
            .unwrap()
    };
    let (fp1, zb) = (read("fp-result1"), read("fp-6-zone-boundaries-corrected"));
    for c in [&fp1, &zb] {
        accepted(&c.to_string()).unwrap();
    }
    let roots = |c: &mut serde_json::Value| -> Vec<serde_json::Value> {
        c["certificate"]["roots"].as_array().unwrap().clone()
    };
    // a root cell and its proved cell dropped: a sign vector of the cone is missing
    rejected_with(
        &fp1,
        |c| {
            let r = roots(c);
            let gone = r[0]["cell"].clone();
            c["certificate"]["roots"] = r[1..].to_vec().into();
            let cells = c["certificate"]["cells"].as_array_mut().unwrap();
            cells.retain(|x| x["cell"] != gone);
        },
        "cone cells where the forms allow",
    );
    // a root whose velocity does not solve its forms (x scaled by 2)
    rejected_with(
        &fp1,
        |c| {
            let x = c["certificate"]["roots"][0]["chart"]["x"]
                .as_str()
                .unwrap()
                .to_string();
            c["certificate"]["roots"][0]["chart"]["x"] = format!("2*({x})").into();
        },
        "form 1 is",
    );
    // a parameter charted over a part of its range only: k = 1 + t_k for k in (0, inf)
    rejected_with(
        &fp1,
        |c| {
            for r in c["certificate"]["roots"].as_array_mut().unwrap() {
                r["params"][0][2] = "1 + t_k".into();
            }
        },
        "is not a piece of its range",
    );
    // the proof of another statement: a smaller domain in the recorded source
    rejected_with(
        &fp1,
        |c| {
            let src = c["certificate"]["source"].as_str().unwrap();
            c["certificate"]["source"] = src.replace("(0, inf)", "(1, inf)").into();
        },
        "another statement",
    );
    // a proved cell that claims a free variable positive
    rejected_with(
        &fp1,
        |c| {
            c["certificate"]["cells"][0]["positive"]
                .as_array_mut()
                .unwrap()
                .push("x".into());
        },
        "positive variables are not the chart's",
    );
    // a zone conclusion whose excluded zone is not empty: η̇ of the outcome negated
    rejected_with(
        &fp1,
        |c| {
            let d = &mut c["certificate"]["cells"][0]["decided"][0];
            assert_eq!(d["relation"], "zone1 != 1");
            let eta = d["eta"].as_str().unwrap().to_string();
            d["eta"] = format!("-({eta})").into();
        },
        "recorded eta",
    );
    // a Gram reduction whose recorded checks are not what the claim file gives
    let inv = read("sm-involution");
    accepted(&inv.to_string()).unwrap();
    rejected_with(
        &inv,
        |c| c["certificate"]["reduction"]["dimension"] = 2.into(),
        "recomputed, differ",
    );
    // a split that leaves out a side (its piece and the piece's leaf dropped)
    rejected_with(
        &zb,
        |c| {
            let split = &mut c["certificate"]["splits"][0];
            let gone = split["pieces"][0]["cell"].clone();
            split["pieces"].as_array_mut().unwrap().remove(0);
            for k in ["cells", "other cells"] {
                let l = c["certificate"][k].as_array_mut().unwrap();
                l.retain(|x| x["cell"] != gone);
            }
        },
        "leaves out a side",
    );
    // a cell put outside the hypotheses by a hypothesis that holds there
    rejected_with(
        &zb,
        |c| {
            let others = c["certificate"]["other cells"].as_array_mut().unwrap();
            let o = others
                .iter_mut()
                .find(|o| o["status"] == "outside")
                .unwrap();
            // `y < 0` is a cone form of sign − in the cell: it holds there
            assert!(o["cell"].as_str().unwrap().contains("[y < 0] -"));
            o["evidence"]["relation"] = "y < 0".into();
        },
        "is not shown false there",
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn two_runs_give_the_same_json() {
    let run = || {
        claims::verify_cli(
            &[PathBuf::from("proofs/wl")],
            None,
            "json",
            120.0,
            2,
            &claims::Exports::default(),
        )
        .unwrap()
    };
    let (a, b) = (run(), run());
    assert_eq!(a, b);
    assert!(!a.contains("\"seconds\""));
}

/// A liveness claim ("every run exits") is refuted by a run certified never to exit (the
/// long-run certificate of TA, `corner --max-steps unlimited`), not skipped as a run cut
/// at its step limit.
#[test]
fn a_false_liveness_claim_is_refuted_by_a_run_that_never_exits() {
    let text = r#"id = "live-false"
paper = "fassino-pasquero-2020-disk-in-corner.txt"
where = "test"
statement = "Every run of TA with a small eps exits (false: some runs never exit)."
kind = "implication"
method = "TA run exactly."

[implication]
probe = "corner.ta"
inputs = { eps = "eps", x = "x", y = "y" }
vars = { k = ["1/20", "1/5"], eps = ["1/100", "1/20"], x = ["-2", "2"], y = ["-2", "2"] }
assume = ["eps > 0", "k > 0"]
conclude = ["exit == 1"]
samples = 200
"#;
    let (v, d) = crate::common::claims::verdict_of(text);
    assert_eq!(v, impactkit::claims::Verdict::Refuted, "{d}");
    assert!(d.contains("(exit = 0: 0 vs 1)"), "{d}");
    // the witness: k = 5/52, eps = 23/1100, v = (6/97, -2/5) never exits
    let c = impactkit::system::corner_longrun::long_run(
        &impactkit::arith::Rational::from_big(&"5/52".parse().unwrap()),
        &impactkit::arith::Rational::from_big(&"23/1100".parse().unwrap()),
        &impactkit::law::V2::new(
            impactkit::arith::Rational::from_big(&"6/97".parse().unwrap()),
            impactkit::arith::Rational::from_big(&"-2/5".parse().unwrap()),
        ),
        &Default::default(),
    )
    .unwrap();
    assert!(matches!(
        c.outcome,
        impactkit::system::corner_longrun::Outcome::NeverExits { .. }
    ));
}
