//! `impactkit verify`: the JSON shape of issue 7, exit codes, and the Markdown report of
//! the whole catalogue as a snapshot (any change of a verdict is a reviewed change).

use crate::common::{bad, run};

#[test]
fn json_has_the_shape_of_the_issue() {
    let (code, out, err) = run(&[
        "verify",
        "proofs/fp",
        "--only",
        "fp-result4",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schema"], "impactkit/1");
    assert_eq!(v["command"], "verify");
    let c = &v["claims"][0];
    for key in [
        "id",
        "paper",
        "where",
        "kind",
        "verdict",
        "method",
        "detail",
        "counterexample",
    ] {
        assert!(c.get(key).is_some(), "missing {key}: {c}");
    }
    assert_eq!(c["id"], "fp-result4");
    assert_eq!(c["paper"], "fassino-pasquero-2020-disk-in-corner.txt");
    assert_eq!(c["verdict"], "proved");
    assert_eq!(c["counterexample"], serde_json::Value::Null);
    // the certificate of the symbolic method: its cells with their charts
    assert!(
        c["certificate"]["cells"]
            .as_array()
            .is_some_and(|a| !a.is_empty()),
        "{c}"
    );
    assert_eq!(
        v["summary"],
        serde_json::json!({"proved": 1, "proved-on-subdomain": 0, "refuted": 0, "confirmed-on-samples": 0, "inconclusive": 0, "inconclusive (time)": 0})
    );
}

#[test]
fn refuted_claims_carry_an_exact_counterexample() {
    let (code, out, _) = run(&[
        "verify",
        "proofs/fp/fp-prop7.1-eta12.toml",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let c = &v["claims"][0];
    assert_eq!(c["verdict"], "refuted");
    assert_eq!(c["counterexample"]["k"], "1/3");
    assert_eq!(c["counterexample"]["xi"], "1");
    assert!(c["corrected"]
        .as_str()
        .unwrap()
        .contains("(eta_n^2 - xi_n^2)"));
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let e = bad(&["verify", "proofs", "--only", "no-such-claim"]);
    assert!(e.contains("--only") && e.contains("no-such-claim"), "{e}");
    let e = bad(&["verify", "no/such/dir"]);
    assert!(e.contains("no/such/dir"), "{e}");
    let e = bad(&["verify", "proofs", "--budget-seconds", "0"]);
    assert!(e.contains("--budget-seconds"), "{e}");
    let dir = std::env::temp_dir().join(format!("impactkit-bad-claim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("x.toml");
    std::fs::write(&f, "id = \"x\"\nkind = \"identity\"\n[identity]\n").unwrap();
    let e = bad(&["verify", f.to_str().unwrap()]);
    assert!(e.contains("x.toml") && e.contains("missing `paper`"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Replaces every "<digits>.<digits> s" (a time) by "<t> s".
fn strip_times(s: &str) -> String {
    let mut out = String::new();
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < b.len() {
        let st = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i > st && i + 1 < b.len() && b[i] == '.' && b[i + 1].is_ascii_digit() {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if b[j..].starts_with(&[' ', 's']) && (j + 2 == b.len() || !b[j + 2].is_alphanumeric())
            {
                out += "<t>";
                i = j;
                continue;
            }
        }
        out.extend(&b[st..i]);
        if i == st {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

#[test]
fn markdown_report_of_the_catalogue() {
    // the catalogue run the claims tests share
    let results = crate::common::claims::catalogue();
    // the text report: every claim with its detail
    let md = strip_times(&impactkit::claims::report::text(results));
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("verify_report", md);
    });
    // the same run's Markdown (what `verify proofs --format markdown` prints) is the
    // catalogue in docs/claims.md (one run of the catalogue serves both checks)
    docs_claims_table_matches(&impactkit::claims::report::markdown(results));
}

/// The claims block of `docs/claims.md` is exactly what `impactkit verify proofs --format
/// markdown` prints now (regenerate it when a verdict changes; every change is reviewed),
/// and every refuted claim has a plain-words paragraph after it.
fn docs_claims_table_matches(md: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/claims.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let start =
        doc.find("<!-- claims-table -->\n").expect("table start") + "<!-- claims-table -->\n".len();
    let end = doc.find("<!-- /claims-table -->").expect("table end");
    assert_eq!(
        doc[start..end].trim_end(),
        md.trim_end(),
        "docs/claims.md claims block vs impactkit verify proofs --format markdown"
    );
    let plain = &doc[end..];
    for line in md.lines().filter(|l| l.ends_with("| **refuted** |")) {
        let id = line.split('`').nth(1).unwrap();
        assert!(
            plain.contains(&format!("- `{id}` —")),
            "docs/claims.md: no plain-words paragraph for the refuted claim {id}"
        );
    }
}
