//! `impactkit compare-cradle`: one cradle through several laws, compared exactly.

use crate::common::{agreement, bad, json, run};

/// The outcomes of `law`, each value as its exact string (`{"exact": "2/3"}` → `"2/3"`).
fn outcomes(v: &serde_json::Value, law: &str) -> serde_json::Value {
    let found = v["laws"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["law"] == law)
        .unwrap_or_else(|| panic!("{law} missing"))["outcomes"]
        .clone();
    let exact = |x: &serde_json::Value| {
        x.get("exact")
            .cloned()
            .unwrap_or_else(|| panic!("not exact: {x}"))
    };
    serde_json::Value::Array(
        found
            .as_array()
            .unwrap()
            .iter()
            .map(|o| serde_json::Value::Array(o.as_array().unwrap().iter().map(exact).collect()))
            .collect(),
    )
}

#[test]
fn laws_agree_on_a_single_ball_hitting_two_at_rest() {
    let v = json(&[
        "compare-cradle",
        "--eps",
        "1",
        "--v0",
        "1,0,0",
        "--arith",
        "exact",
        "--format",
        "json",
    ]);
    assert_eq!(
        outcomes(&v, "pasquero"),
        serde_json::json!([["0", "0", "1"]])
    );
    assert_eq!(
        outcomes(&v, "seghete-murphey"),
        serde_json::json!([["0", "0", "1"]])
    );
    assert_eq!(v["agreement"][0]["agree"], true);
}

#[test]
fn laws_differ_where_the_impact_is_truly_simultaneous() {
    // 2, 0, −1: Pasquero's ideal multiple impact (5) projects onto the joint normal space;
    // the propagative model reflects three times (uvu or vuv) and gives (−1, 0, 2)
    let v = json(&[
        "compare-cradle",
        "--eps",
        "1",
        "--v0",
        "2,0,-1",
        "--arith",
        "exact",
        "--format",
        "json",
    ]);
    assert_eq!(
        outcomes(&v, "pasquero"),
        serde_json::json!([["-4/3", "2/3", "5/3"]])
    );
    assert_eq!(
        outcomes(&v, "seghete-murphey"),
        serde_json::json!([["-1", "0", "2"]])
    );
    assert_eq!(v["agreement"][0]["agree"], false);
    // unequal masses: the propagative outcome is not unique
    let v = json(&[
        "compare-cradle",
        "--eps",
        "1",
        "--v0",
        "1,0,-1",
        "--masses",
        "1,3,1",
        "--arith",
        "exact",
        "--format",
        "json",
    ]);
    let sm = &v["laws"][1];
    assert_eq!(sm["unique"], false);
    assert_eq!(
        outcomes(&v, sm["law"].as_str().unwrap()),
        serde_json::json!([["-1/2", "-1/4", "5/4"], ["-5/4", "1/4", "1/2"]])
    );
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_json_snapshot!("compare_cradle_unequal_masses", v);
    });
}

#[test]
fn text_table_and_bad_input() {
    let (code, out, _) = run(&[
        "compare-cradle",
        "--eps",
        "9/10",
        "--v0",
        "100,0,0",
        "--arith",
        "exact",
        "--exact-values",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("(381/80, 399/80, 361/4)"), "{out}");
    assert!(out.contains("differ"), "{out}");
    assert!(
        out.contains("winandy-leine      —") && out.contains("elastic: e = 1 only"),
        "{out}"
    );
    assert!(bad(&[
        "compare-cradle",
        "--eps",
        "2",
        "--v0",
        "1,0,0",
        "--arith",
        "exact"
    ])
    .contains("--eps"));
    assert!(bad(&[
        "compare-cradle",
        "--eps",
        "1",
        "--v0",
        "1,0",
        "--arith",
        "exact"
    ])
    .contains("--v0"));
    assert!(bad(&[
        "compare-cradle",
        "--eps",
        "1",
        "--v0",
        "1,0,0",
        "--masses",
        "1,-1,1",
        "--arith",
        "exact"
    ])
    .contains("--masses"));
    assert!(bad(&[
        "compare-cradle",
        "--eps",
        "sqrt(2)/2",
        "--v0",
        "1,0,0",
        "--arith",
        "exact"
    ])
    .contains("--eps"));
}

/// Whether two laws agree is decided exactly, whatever the arithmetic of the rows: the
/// elastic equal-mass cradle in intervals, where Pasquero's, Newton's and Poisson's
/// outcomes (−4/3, 2/3, 5/3) are equal but their enclosures differ, agree (decided in
/// exact rationals); the rows themselves stay enclosures.
#[test]
fn agreement_is_decided_exactly_whatever_the_rows_arithmetic() {
    let v = json(&[
        "compare-cradle",
        "--eps",
        "1",
        "--v0",
        "2,0,-1",
        "--arith",
        "interval",
        "--format",
        "json",
    ]);
    for a in v["agreement"].as_array().unwrap() {
        assert!(a["agree"].is_boolean(), "{a}");
    }
    let row = |a: &str, b: &str| agreement(&v, a, b);
    assert_eq!(row("pasquero", "newton-touching")["agree"], true);
    assert_eq!(row("newton-touching", "poisson")["agree"], true);
    assert_eq!(row("pasquero", "seghete-murphey")["agree"], false);
    assert!(v["laws"][0]["outcomes"][0][0]["lo"].is_string(), "{v}");
}
