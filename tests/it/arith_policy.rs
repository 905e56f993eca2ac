//! One `--arith` policy (issue 37): `certified` is the default of every command but
//! `audit` and `penny run`/`spread`; commands that run on one backend try the exact
//! backends first (rationals, Q(√d), Q(θ)), then enclosures until every sign is decided.

use crate::common::{bad, json};

fn ex(v: &serde_json::Value) -> &str {
    v["exact"]
        .as_str()
        .unwrap_or_else(|| panic!("not exact: {v}"))
}

#[test]
fn eval_is_exact_where_the_value_allows_and_an_enclosure_otherwise() {
    let v = json(&["eval", "1/3 + 1/6", "--format", "json"]);
    assert_eq!(ex(&v["value"]), "1/2");
    let v = json(&["eval", "cos(pi/4)", "--format", "json"]);
    assert_eq!(ex(&v["value"]), "1/2*sqrt(2)");
    let v = json(&["eval", "cos(pi/16)", "--format", "json"]);
    assert!(v["value"]["exact"].is_string(), "{v}");
    let v = json(&["eval", "pi", "--format", "json"]);
    let (lo, hi) = (
        v["value"]["lo"].as_str().unwrap(),
        v["value"]["hi"].as_str().unwrap(),
    );
    assert!(
        lo.starts_with("3.14159") && hi.starts_with("3.14159"),
        "{v}"
    );
}

#[test]
fn commands_that_run_on_one_backend_pick_the_smallest_exact_field() {
    // pi/16: exact in Q(cos(pi/32)) (Seghete-Murphey's example, equality decided)
    let v = json(&[
        "propagate",
        "--masses",
        "1,1",
        "--normals",
        "sin(pi/16),-cos(pi/16);sin(pi/16),cos(pi/16)",
        "--momentum",
        "-1,0",
        "--format",
        "json",
    ]);
    assert_eq!(v["arith"], "algebraic");
    assert_eq!(v["unique"], true);
    assert_eq!(ex(&v["outcomes"][0][0]), "1");
    // the ball's impact time is sqrt(5)/10: Q(sqrt 5)
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/step/ball-gravity.toml"
    );
    let v = json(&[
        "step", "--system", path, "--dt", "1/10", "--steps", "3", "--law", "elastic", "--format",
        "json",
    ]);
    assert_eq!(v["arith"], "quadratic");
    assert_eq!(ex(&v["impacts"][0]["time"]), "1/10*sqrt(5)");
    // rational inputs: exact
    let v = json(&[
        "compare-cradle",
        "--eps",
        "1/2",
        "--v0",
        "1,0,0",
        "--format",
        "json",
    ]);
    assert_eq!(v["arith"], "exact");
    let v = json(&["rods", "--velocities", "1,0", "--format", "json"]);
    assert_eq!(v["arith"], "exact");
    // an explicit backend is still that backend
    let v = json(&[
        "propagate",
        "--masses",
        "1,1",
        "--normals",
        "-1,1",
        "--momentum",
        "1,0",
        "--arith",
        "f64",
        "--format",
        "json",
    ]);
    assert_eq!(v["arith"], "f64");
}

#[test]
fn the_iterated_laws_default_to_the_certified_ladder() {
    let v = json(&[
        "corner", "--alpha", "pi/6", "--v0", "1,0", "--eps", "1", "--format", "json",
    ]);
    assert!(v["certified_by"].is_string(), "{v}");
    let v = json(&["cradle", "--balls", "3", "--eps", "1/2", "--format", "json"]);
    assert!(v["certified_by"].is_string(), "{v}");
    let err = bad(&["eval", "1", "--arith", "f65"]);
    assert!(
        err.contains("--arith") && err.contains("or certified"),
        "{err}"
    );
}
