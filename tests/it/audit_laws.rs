//! `impactkit audit cradle|propagate|sequential`: each finds a point where `f64` takes
//! another branch than the certified computation (hand-derivable), its record reproduces
//! with one command bit for bit, shards merge into the single run, and bad input exits 2.

use crate::common::{bad, json, records, split_command, tempdir};

/// Runs an audit with `--out` and returns the printed report and the records.
fn audit(name: &str, args: &[&str]) -> (serde_json::Value, Vec<serde_json::Value>) {
    let dir = tempdir(name);
    let mut a = vec!["audit"];
    a.extend(args);
    a.extend(["--out", dir.to_str().unwrap(), "--format", "json"]);
    let out = json(&a);
    (out, records(&dir))
}

/// The record's command prints the audited final state, bit for bit; `key` is the
/// command's JSON pointer of the final state.
fn reproduces(r: &serde_json::Value, pointer: &str) -> serde_json::Value {
    let cmd = split_command(r["reproduce"].as_str().unwrap());
    assert_eq!(cmd[0], "impactkit");
    let mut args: Vec<&str> = cmd[1..].iter().map(String::as_str).collect();
    args.extend(["--format", "json"]);
    let out = json(&args);
    let audited = r["audited"]["final"].as_array().unwrap();
    let printed = out.pointer(pointer).unwrap().as_array().unwrap();
    assert_eq!(printed.len(), audited.len(), "{}", r["reproduce"]);
    for (p, a) in printed.iter().zip(audited) {
        let p: f64 = p["approx"].as_str().unwrap().parse().unwrap();
        let a: f64 = a["approx"].as_str().unwrap().parse().unwrap();
        assert_eq!(p.to_bits(), a.to_bits(), "{}", r["reproduce"]);
    }
    out
}

/// Three equal balls, e = 0, v0 = 100: the true procedure never ends (the relative
/// velocities halve at every impulse and never vanish: N_max = 200 stops it), while
/// `f64` reaches three exactly equal velocities after 54 impulses and exits. The exact
/// reference (dyadic numbers) certifies it; the cradle command reproduces the f64 run.
#[test]
fn cradle_f64_exits_where_the_exact_procedure_runs_on() {
    let (out, recs) = audit(
        "cradle",
        &[
            "cradle",
            "--eps",
            "0..1",
            "--v0",
            "100",
            "--max-steps",
            "200",
            "--grid",
            "3",
        ],
    );
    let s = &out["summary"];
    assert_eq!(s["samples"], 3);
    assert_eq!(s["certified"], 3);
    assert_eq!(s["different_zones"], 1);
    assert_eq!(s["different_termination"], 1);
    let r = &recs[0];
    assert_eq!(r["inputs"]["eps"], "0");
    assert_eq!(r["audited"]["steps"], 54);
    assert_eq!(r["audited"]["termination"], "exit");
    assert_eq!(r["reference"]["termination"], "max-iterations");
    assert_eq!(r["reference"]["steps"], 200);
    let d = &r["comparison"]["divergence"];
    assert_eq!(
        (d["step"].as_u64(), d["audited"].as_str()),
        (Some(54), Some("end"))
    );
    // every velocity is 100/3 up to the audited rounding: the distance is tiny
    assert!(
        r["comparison"]["distance"]["hi"]
            .as_str()
            .unwrap()
            .parse::<f64>()
            .unwrap()
            < 1e-13
    );
    // e = 1: exactly (0, 0, 100) after impacts {1}, {2}, in both arithmetics
    let r = &recs[2];
    assert_eq!(r["comparison"]["same_zones"], true);
    assert_eq!(r["audited"]["steps"], 2);
    for r in &recs {
        let printed = reproduces(r, "/final");
        assert_eq!(printed["iterations"], r["audited"]["steps"]);
        assert_eq!(printed["termination"], r["audited"]["termination"]);
    }
}

/// Three unit masses hit from both ends, p = (1, p2, −1): by symmetry the minimal
/// sequences 1-2-1 and 2-1-2 end in the same outcome exactly, so the outcome is unique.
/// In `f64` the two outcomes differ by rounding for some p2 (11 of 101 grid points);
/// `propagate` decides the equality of outcomes on the certified ladder whatever
/// `--arith` is, so `f64` reports one outcome there too. The record reproduces with
/// `propagate`.
#[test]
fn propagate_f64_no_longer_splits_one_outcome_in_two() {
    let base = [
        "propagate",
        "--masses",
        "1,1,1",
        "--normals",
        "-1,1,0;0,-1,1",
        "--momentum",
        "1,-1..1,-1",
        "--grid",
        "101",
    ];
    let (out, recs) = audit("propagate", &base);
    let s = &out["summary"];
    assert_eq!(s["samples"], 101);
    assert_eq!(s["certified"], 101);
    assert_eq!(s["different_zones"], 0);
    assert_eq!(s["audited_terminations"]["unique"], 101);
    let r = &recs[4];
    assert_eq!(r["inputs"]["p2"], "-23/25");
    assert_eq!(r["audited"]["termination"], "unique");
    assert_eq!(r["reference"]["termination"], "unique");
    let printed = reproduces(r, "/outcomes/0");
    assert_eq!(printed["unique"], true);
    assert_eq!(printed["uniqueness"]["certified_by"], "exact");
    // the exact run of the same command: one outcome
    let cmd = split_command(r["reproduce"].as_str().unwrap());
    let mut args: Vec<&str> = cmd[1..cmd.len() - 1].iter().map(String::as_str).collect();
    args.extend(["exact", "--format", "json"]);
    assert_eq!(json(&args)["unique"], true);
    // a point where both agree reproduces too
    reproduces(&recs[50], "/outcomes/0");

    // three shards merged are the single run
    // the single run's directory (`audit` wrote it; tempdir would empty it)
    let single =
        std::env::temp_dir().join(format!("impactkit-test-propagate-{}", std::process::id()));
    let mut shards = Vec::new();
    for i in 0..3 {
        let d = tempdir(&format!("propagate-shard{i}"));
        let shard = format!("{i}/3");
        let mut a = vec!["audit"];
        a.extend(base);
        a.extend([
            "--shard",
            &shard,
            "--out",
            d.to_str().unwrap(),
            "--format",
            "json",
        ]);
        json(&a);
        shards.push(d);
    }
    let merged = tempdir("propagate-merged");
    let mut a = vec![
        "audit",
        "merge",
        "--out",
        merged.to_str().unwrap(),
        "--format",
        "json",
    ];
    for d in shards.iter().rev() {
        a.push(d.to_str().unwrap());
    }
    let m = json(&a);
    assert_eq!(m["summary"], out["summary"]);
    assert_eq!(
        std::fs::read(single.join("samples.jsonl")).unwrap(),
        std::fs::read(merged.join("samples.jsonl")).unwrap()
    );
}

/// γ⁻ on the anti-diagonal γ1 + γ2 = 0 lies exactly on the boundary of the cones IIa and
/// IIb (masses 1, 1, 1): the exact reference takes IIa. Grid points between rational ends
/// are written exactly (`-1/5,1/5`), so `f64` reads γ1 + γ2 = 0 exactly and takes every
/// cone the reference takes; between the ends ±√2 the rounded γ1 + γ2 of some grid points
/// is not 0, `f64` takes IIb, and γ⁺ differs by rounding only.
#[test]
fn sequential_f64_takes_the_neighbouring_cone_on_a_boundary() {
    let (exact_points, _) = audit(
        "sequential-rational",
        &["sequential", "--gamma", "-1..1,-1..1", "--grid", "21x21"],
    );
    assert_eq!(exact_points["summary"]["different_zones"], 0);
    let (out, recs) = audit(
        "sequential",
        &[
            "sequential",
            "--gamma",
            "-sqrt(2)..sqrt(2),-sqrt(2)..sqrt(2)",
            "--grid",
            "21x21",
        ],
    );
    let s = &out["summary"];
    assert_eq!(s["samples"], 441);
    assert_eq!(s["certified"], 441);
    assert_eq!(s["undecided"], 0);
    assert_eq!(s["different_zones"], 6);
    assert_eq!(s["different_termination"], 0);
    let diverging: Vec<&serde_json::Value> = recs
        .iter()
        .filter(|r| r["comparison"]["same_zones"] == false)
        .collect();
    assert_eq!(diverging.len(), 6);
    for r in &diverging {
        let g: Vec<f64> = r["coords"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert!((g[0] + g[1]).abs() < 1e-15, "{g:?}");
        assert_eq!(r["comparison"]["divergence"]["step"], 0);
        assert!(
            r["comparison"]["distance"]["hi"]
                .as_str()
                .unwrap()
                .parse::<f64>()
                .unwrap()
                < 1e-15
        );
        let printed = reproduces(r, "/gamma_plus");
        assert_eq!(
            printed["cone"], r["comparison"]["divergence"]["audited"],
            "{}",
            r["reproduce"]
        );
    }
    let a = diverging[0]["comparison"]["divergence"].clone();
    assert!(
        (a["audited"] == "IIb" && a["reference"] == "IIa")
            || (a["audited"] == "IVa" && a["reference"] == "IVb"),
        "{a}"
    );
}

/// A domain where the law is undefined exits 2 with one line naming the option.
#[test]
fn bad_domains_name_the_option() {
    let e = bad(&[
        "audit", "cradle", "--eps", "0", "--masses", "1,0..1,1", "--grid", "3",
    ]);
    assert!(e.contains("--masses") && e.contains("positive"), "{e}");
    let e = bad(&["audit", "cradle", "--eps", "0..2", "--grid", "3"]);
    assert!(e.contains("--eps"), "{e}");
    let e = bad(&[
        "audit",
        "propagate",
        "--masses",
        "1,1",
        "--normals",
        "-1,1",
        "--momentum",
        "1,0",
        "--eps",
        "0..2",
        "--grid",
        "3",
    ]);
    assert!(e.contains("--eps"), "{e}");
    let e = bad(&[
        "audit",
        "sequential",
        "--gamma",
        "-1,1",
        "--masses",
        "1,1..2,1",
        "--grid",
        "3",
    ]);
    assert!(e.contains("--masses") && e.contains("close"), "{e}");
    let e = bad(&["audit", "sequential", "--gamma", "-1,1,0", "--samples", "3"]);
    assert!(e.contains("--gamma"), "{e}");
}
