//! Issue 62, item 3: a name a user writes in a claim file that nothing defines is an
//! error (exit 2, one line naming the file), with the nearest valid name: the misspelt
//! output `y11` of a conclusion (it was `inconclusive` with exit 0 and "no admissible
//! exact sample point") and an unknown `paper` key (any was accepted).

use crate::common::{bad, run, tempdir};

/// A claim on FP's TR_id (3) (`corner.tr_id_xy`: outputs x1, y1) with `conclude` and
/// `paper` as given.
fn claim(conclude: &str, paper: &str) -> String {
    format!(
        r#"id = "my-claim"
paper = "{paper}"
where = "test"
statement = "the ideal reflection does not raise the speed"
kind = "implication"
method = "TR_id at exact points"

[implication]
probe = "corner.tr_id_xy"
inputs = {{ k = "k", x = "x", y = "y" }}
vars = {{ k = ["1/2", "2"], x = ["-1", "1"], y = ["-1", "1"] }}
assume = ["k > 0"]
conclude = ["{conclude}"]
samples = 10
"#
    )
}

fn write(name: &str, text: &str) -> String {
    let d = tempdir(&format!("fh-{name}"));
    std::fs::create_dir_all(&d).unwrap();
    let f = d.join("c.toml");
    std::fs::write(&f, text).unwrap();
    f.to_str().unwrap().to_string()
}

const FP: &str = "fassino-pasquero-2020-disk-in-corner.txt";

#[test]
fn a_misspelt_output_in_a_conclusion_is_named_with_a_suggestion() {
    let f = write("typo", &claim("x1^2 + y11^2 <= x^2 + y^2", FP));
    let err = bad(&["verify", &f]);
    assert!(
        err.contains("c.toml: conclude: `y11` names what nothing defines"),
        "{err}"
    );
    assert!(err.contains("did you mean \"y1\"?"), "{err}");
    // spelt right, the same claim is decided (exit 0): TR_id keeps the speed
    let ok = write("right", &claim("x1^2 + y1^2 <= x^2 + y^2", FP));
    let (code, out, err) = run(&["verify", &ok]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("confirmed-on-samples"), "{out}");
}

#[test]
fn an_unknown_paper_key_is_refused_with_the_known_keys() {
    let f = write("paper", &claim("x1^2 + y1^2 <= x^2 + y^2", "foo.txt"));
    let err = bad(&["verify", &f]);
    assert!(err.contains("c.toml: paper: unknown \"foo.txt\""), "{err}");
    assert!(
        err.contains("docs/claims-format.md") && err.contains("\"none\""),
        "{err}"
    );
    let near = write(
        "near",
        &claim("x1 == x1", "fassino-pasquero-2020-disk-in-corner"),
    );
    let err = bad(&["verify", &near]);
    assert!(err.contains(&format!("did you mean \"{FP}\"?")), "{err}");
    // `none`: a claim of no paper
    let own = write("none", &claim("x1^2 + y1^2 <= x^2 + y^2", "none"));
    assert_eq!(run(&["verify", &own]).0, 0);
}

/// Issue 62, item 5: `verify --html DIR` writes a static site: the catalogue (the summary,
/// the errata first, every claim linked to its page, a filter by paper and verdict) and a
/// page per claim (statement escaped, the verdict in a sentence, the exact counterexample,
/// the command that re-runs it, the certificate written); nothing from the network.
#[test]
fn verify_writes_a_static_site() {
    let d = tempdir("fh-html");
    let site = d.join("site");
    let certs = d.join("certs");
    let (code, out, err) = run(&[
        "verify",
        "proofs/fp/fp-prop7.1-eta12-negative.toml",
        "proofs/fp/fp-3bc-improper.toml",
        "--html",
        site.to_str().unwrap(),
        "--certificates",
        certs.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("1 proved, 0 proved-on-subdomain, 1 refuted"),
        "{out}"
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.contains("<p class=\"summary\">2 claims: 1 proved, 0 proved-on-subdomain, 1 refuted, 0 confirmed-on-samples, 0 inconclusive</p>"),
        "{index}"
    );
    // the errata come first: the refuted claim's row before the table of every claim
    let errata = index.find("Errata: 1 refuted statements").unwrap();
    let all = index.find("<table id=\"all\">").unwrap();
    let row = index
        .find("<a href=\"claims/fp-prop7.1-eta12-negative.html\">")
        .unwrap();
    assert!(errata < row && row < all, "{index}");
    assert!(
        index.contains("<option>Fassino–Pasquero</option>"),
        "{index}"
    );
    assert!(!index.contains("http://") && !index.contains("https://"));
    for page in ["fp-prop7.1-eta12-negative", "fp-3bc-improper"] {
        assert!(site.join(format!("claims/{page}.html")).is_file(), "{page}");
    }
    let p = std::fs::read_to_string(site.join("claims/fp-prop7.1-eta12-negative.html")).unwrap();
    // the statement "Since eta_n > xi_n (> 0), ..." with `>` escaped
    assert!(p.contains("Since eta_n &gt; xi_n (&gt; 0)"), "{p}");
    assert!(
        p.contains("Refuted: the statement fails at an exact point"),
        "{p}"
    );
    assert!(p.contains("&quot;eps&quot;: &quot;0&quot;"), "{p}");
    assert!(
        p.contains("<code>impactkit verify proofs/fp/fp-prop7.1-eta12-negative.toml</code>"),
        "{p}"
    );
    assert!(
        p.contains("fp-prop7.1-eta12-negative.json</code> re-checks it"),
        "{p}"
    );
    assert!(certs.join("fp-prop7.1-eta12-negative.json").is_file());
    let _ = std::fs::remove_dir_all(&d);
}

/// Issue 62, item 5: `audit --html DIR` writes the audit's page next to --out's files: the
/// map figure, the summary and the worst cases with the command that reproduces each;
/// `--html` and a different `--out` are refused (exit 2, one line).
#[test]
fn audit_writes_a_static_page() {
    let d = tempdir("fh-audit-html");
    let site = d.join("audit");
    let args = [
        "audit",
        "corner",
        "--alpha",
        "atan(1/2)",
        "--v0",
        "-1..1,-1..1",
        "--eps",
        "1/2",
        "--grid",
        "5x5",
        "--max-steps",
        "1000",
    ];
    let mut with: Vec<&str> = args.to_vec();
    with.extend(["--html", site.to_str().unwrap()]);
    let (code, out, err) = run(&with);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("audit corner over 25 points"), "{out}");
    let page = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(page.contains("<img src=\"map.svg\""), "{page}");
    assert!(site.join("map.svg").is_file() && site.join("style.css").is_file());
    assert!(page.contains("<pre>audit corner over 25 points"), "{page}");
    assert!(
        page.contains("Worst cases, with the command that reproduces each"),
        "{page}"
    );
    assert!(
        page.contains("impactkit corner --alpha &#39;atan(1/2)&#39; --v0"),
        "{page}"
    );
    let mut both: Vec<&str> = args.to_vec();
    let other = d.join("other");
    both.extend([
        "--html",
        site.to_str().unwrap(),
        "--out",
        other.to_str().unwrap(),
    ]);
    let err = bad(&both);
    assert!(err.contains("--html: must be the --out directory"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}
