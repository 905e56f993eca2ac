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
