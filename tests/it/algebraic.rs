//! The algebraic backend (issue 34) from the command line: equalities at π/16 decided
//! exactly in `propagate`, `laws` and `regress`, the corner at π/16 run exactly inside the
//! `mpi:256` enclosure, and hostile inputs refused with one line.

use crate::common::{bad, json, run};
use impactkit::arith::{Algebraic, MpInterval, Scalar, Sign};
use impactkit::lang::eval_str;

const NORMALS_PI16: &str = "sin(pi/16),-cos(pi/16);sin(pi/16),cos(pi/16)";

/// The JSON of the issue's `propagate` command at π/16 in `arith`.
fn propagate_pi16(arith: &str) -> serde_json::Value {
    json(&[
        "propagate",
        "--masses",
        "1,1",
        "--normals",
        NORMALS_PI16,
        "--momentum",
        "-1,0",
        "--arith",
        arith,
        "--format",
        "json",
    ])
}

#[test]
fn propagate_uniqueness_at_pi_over_16_is_decided_exactly() {
    for arith in ["algebraic", "mpi:128"] {
        let v = propagate_pi16(arith);
        assert_eq!(v["unique"], true, "{arith}: {v}");
        assert_eq!(v["uniqueness"]["certified_by"], "algebraic", "{arith}");
        assert_eq!(v["sequences"].as_array().unwrap().len(), 2);
    }
    // exactly (1, 0): the two alternating sequences of 8 impulses give the same outcome
    let v = propagate_pi16("algebraic");
    assert_eq!(
        v["outcomes"],
        serde_json::json!([[{"exact": "1"}, {"exact": "0"}]])
    );
}

/// An exact value of a report, enclosed at 512 bits.
fn enclose(expr: &str) -> MpInterval {
    eval_str::<MpInterval>(expr, &512).unwrap()
}

#[test]
fn corner_at_pi_over_16_runs_exactly_inside_the_mpi256_enclosure() {
    for v0 in ["1,0", "1,1/3", "2,1", "1,-1/7"] {
        let args = |arith: &'static str| {
            [
                "corner", "--alpha", "pi/16", "--v0", v0, "--eps", "9/10", "--arith", arith,
                "--format", "json",
            ]
        };
        let exact = json(&args("algebraic"));
        let enc = json(&args("mpi:256"));
        assert_eq!(exact["termination"], "exit", "{v0}");
        assert_eq!(exact["steps"], enc["steps"], "{v0}");
        assert_eq!(exact["zones"], enc["zones"], "{v0}");
        for i in 0..2 {
            let x = enclose(exact["final"][i]["exact"].as_str().unwrap());
            let lo = eval_str::<MpInterval>(enc["final"][i]["lo"].as_str().unwrap(), &512).unwrap();
            let hi = eval_str::<MpInterval>(enc["final"][i]["hi"].as_str().unwrap(), &512).unwrap();
            assert!(
                (x.clone() - &lo).sign() != Sign::Negative && (hi - &x).sign() != Sign::Negative,
                "{v0}: {} outside {}",
                exact["final"][i],
                enc["final"][i]
            );
        }
    }
    // 7 impacts from (1, 1/3): the exact final velocity is a polynomial in a cosine
    let v = json(&[
        "corner",
        "--alpha",
        "pi/16",
        "--v0",
        "1,1/3",
        "--eps",
        "9/10",
        "--arith",
        "algebraic",
        "--format",
        "json",
    ]);
    assert_eq!(v["steps"], 7);
    assert!(v["final"][1]["exact"].as_str().unwrap().contains("cos(pi/"));
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

fn corner_pi16(velocity_y: &str) -> String {
    format!(
        "name = \"disk in a corner, alpha = pi/16\"\nkind = \"corner\"\ncoordinates = [\"x\", \"y\"]\nmasses = [\"1\", \"1\"]\nvelocity = [\"1\", \"{velocity_y}\"]\nrestitution = \"9/10\"\n\n[[contact]]\nname = \"S1\"\nnormal = [\"-tan(pi/16)\", \"1\"]\n\n[[contact]]\nname = \"S2\"\nnormal = [\"-tan(pi/16)\", \"-1\"]\n"
    )
}

#[test]
fn laws_at_pi_over_16_leave_no_agreement_undecided() {
    let d = crate::common::tempdir("algebraic-laws");
    let f = write(&d, "c16.toml", &corner_pi16("tan(pi/16)/2"));
    for arith in ["certified", "mpi:128"] {
        let v = json(&["laws", &f, "--arith", arith, "--format", "json"]);
        assert_eq!(v["agreement_decided_by"], "algebraic", "{arith}");
        for row in v["agreement"].as_array().unwrap() {
            assert!(row["agree"].is_boolean(), "{arith}: undecided row {row}");
        }
        // the four single-solve laws coincide exactly; Pasquero's 7 impulses differ
        assert_eq!(
            crate::common::agreement(&v, "newton-touching", "poisson")["agree"],
            true
        );
        assert_eq!(
            crate::common::agreement(&v, "seghete-murphey", "newton-touching")["agree"],
            true
        );
        assert_eq!(
            crate::common::agreement(&v, "pasquero", "poisson")["agree"],
            false
        );
    }
}

#[test]
fn regress_groups_exact_ties_at_pi_over_16_and_flags_the_bisector() {
    let d = crate::common::tempdir("algebraic-regress");
    let c = write(&d, "c16.toml", &corner_pi16("tan(pi/16)/2"));
    let b = write(&d, "c16b.toml", &corner_pi16("0"));
    let records = format!(
        "{{\"id\": \"near-newton\", \"scenario\": {{\"file\": \"{c}\"}}, \"engine\": {{\"name\": \"t\"}}, \"output\": {{\"v\": [-0.9, -0.08951056532084610311]}}}}\n{{\"id\": \"bisector\", \"scenario\": {{\"file\": \"{b}\"}}, \"engine\": {{\"name\": \"t\"}}, \"output\": {{\"v\": [-0.9, 0.0]}}}}\n"
    );
    let r = write(&d, "r.jsonl", &records);
    let (code, out, err) = run(&["regress", &r]);
    assert_eq!(code, 0, "{err}");
    // each record's second line: its nearest law
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[1].contains("nearest seghete-murphey=newton-touching=newton-approaching=poisson ("),
        "{out}"
    );
    assert!(!lines[1].contains("not discriminating"), "{out}");
    assert!(
        lines[3].contains(
            "nearest pasquero=seghete-murphey=newton-touching=newton-approaching=poisson ("
        ) && lines[3].ends_with("not discriminating"),
        "{out}"
    );
}

#[test]
fn hostile_algebraic_inputs_get_one_line() {
    let e = bad(&["eval", "cos(pi/1000)", "--arith", "algebraic"]);
    assert!(e.contains("degree above 64"), "{e}");
    // Q(cos(π/15)) (degree 4) may hold a square root of a rational: not decided
    let e = bad(&["eval", "sqrt(7)*cos(pi/15)", "--arith", "algebraic"]);
    assert!(
        e.contains("needing both Q(sqrt(7)) and Q(cos(pi/15))"),
        "{e}"
    );
    // roots: the index is an integer literal, the degree within the limit
    let e = bad(&["eval", "root(2, 0)", "--arith", "algebraic"]);
    assert!(e.contains("integer literal k from 1 to 1024"), "{e}");
    let e = bad(&["eval", "root(2, 65)", "--arith", "algebraic"]);
    assert!(e.contains("root(2, 65), of degree 65 over Q,"), "{e}");
    let e = bad(&["eval", "root(-16, 4)", "--arith", "algebraic"]);
    assert!(e.contains("even root (k = 4) of a negative number"), "{e}");
    let e = bad(&["eval", "root(sqrt(2), 3)", "--arith", "algebraic"]);
    assert!(e.contains("odd roots of rationals only"), "{e}");
    let e = bad(&["eval", "sqrt(cos(pi/7))", "--arith", "algebraic"]);
    assert!(
        e.contains("not representable in the algebraic backend"),
        "{e}"
    );
    let e = bad(&["eval", "pi", "--arith", "algebraic"]);
    assert!(e.contains("pi"), "{e}");
    let e = bad(&[
        "eval",
        "1/(cos(pi/16)^2 - (1+cos(pi/8))/2)",
        "--arith",
        "algebraic",
    ]);
    assert!(e.contains("division by zero"), "{e}");
}

#[test]
fn exact_values_of_the_issue() {
    // tan(π/16) = √(4 + 2√2) − √2 − 1, i.e. (tan(π/16) + √2 + 1)² = 4 + 2√2
    let t = eval_str::<Algebraic>("(tan(pi/16) + sqrt(2) + 1)^2 - (4 + 2*sqrt(2))", &()).unwrap();
    assert_eq!(t.sign(), Sign::Zero);
    // sin, cos and tan of kπ/n share Q(cos(π/2n)); π/5 with its tangent
    let x = eval_str::<Algebraic>("tan(pi/5)^2 - (5 - 2*sqrt(5))", &()).unwrap();
    assert_eq!(x.sign(), Sign::Zero);
    let y = eval_str::<Algebraic>("cos(pi/32)^2 - (1 + cos(pi/16))/2", &()).unwrap();
    assert_eq!(y.sign(), Sign::Zero);
    let t = eval_str::<Algebraic>("tan(pi/16)", &()).unwrap().to_f64();
    assert!(
        (t - (std::f64::consts::PI / 16.0).tan()).abs() < 1e-16,
        "{t}"
    );
}

/// Probes that ran in one quadratic field fall back to the algebraic backend: rule (10)
/// at α = π/16, v0 = (1, 0), ε = 9/10 is decided exactly (one step, then exit).
#[test]
fn exact_probes_reach_pi_over_16() {
    let d = std::env::temp_dir().join(format!("impactkit-probe16-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let claim = "id = \"tmp-corner-pi16\"\npaper = \"pasquero-nonideal-multiple-constraints.txt\"\nwhere = \"Sect. 4.2\"\nstatement = \"At alpha = pi/16, v0 = (1, 0), eps = 9/10 the disk exits after one step.\"\nkind = \"exact-example\"\nmethod = \"Rule (10) iterated exactly.\"\n\n[example]\nprobe = \"corner.quadratic_run\"\ninputs = { alpha = \"pi/16\", eps1 = \"9/10\", eps2 = \"9/10\", x = \"1\", y = \"0\" }\nholds = [\"exit == 1\", \"steps == 1\"]\n";
    let f = write(&d, "c16.toml", claim);
    let v = json(&["verify", &f, "--format", "json"]);
    assert_eq!(v["claims"][0]["verdict"], "proved", "{v}");
    assert!(v["claims"][0]["detail"]
        .as_str()
        .unwrap()
        .contains("exact computation"));
    std::fs::remove_dir_all(&d).ok();
}
