//! System files, `impactkit laws`, `impactkit system` and `impactkit regress` on the
//! committed engine fixture (`examples/engines/records/`).

use crate::common::{agreement, bad, exact, json, law_row, run, tempdir};
use serde_json::Value;
use std::path::Path;

const SYSTEMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/systems");
const RECORDS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/engines/records");

fn system(name: &str) -> String {
    format!("{SYSTEMS}/{name}")
}

/// The outcomes of `law` in a `laws` report.
fn outcomes(v: &Value, law: &str) -> Value {
    v["laws"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["law"] == law)
        .unwrap_or_else(|| panic!("{law} missing"))["outcomes"]
        .clone()
}

fn laws(file: &str) -> Value {
    json(&["laws", file, "--format", "json"])
}

#[test]
fn five_ball_cradle_exactly() {
    let v = laws(&system("cradle5.toml"));
    assert_eq!(v["arith"], "certified (exact)");
    let ball5 = exact(&["0", "0", "0", "0", "1"]);
    let newton = exact(&["-3/5", "2/5", "2/5", "2/5", "2/5"]);
    assert_eq!(outcomes(&v, "pasquero"), Value::Array(vec![ball5.clone()]));
    assert_eq!(
        outcomes(&v, "newton-approaching"),
        Value::Array(vec![ball5])
    );
    assert_eq!(
        outcomes(&v, "newton-touching"),
        Value::Array(vec![newton.clone()])
    );
    assert_eq!(outcomes(&v, "poisson"), Value::Array(vec![newton]));
    let row = v["laws"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["law"] == "newton-approaching");
    assert_eq!(
        row.unwrap()["sequences"],
        serde_json::json!([["12", "23", "34", "45"]])
    );
    assert_eq!(v["agreement_decided_by"], "exact");
}

#[test]
fn laws_in_f64_decide_agreement_exactly() {
    let v = json(&[
        "laws",
        &system("cradle3.toml"),
        "--arith",
        "f64",
        "--format",
        "json",
    ]);
    assert_eq!(v["arith"], "f64");
    assert_eq!(v["agreement_decided_by"], "exact");
    assert_eq!(agreement(&v, "newton-touching", "poisson")["agree"], true);
}

#[test]
fn builtin_scenarios_as_files() {
    let dir = tempdir("system-files");
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, args: &[&str]| -> String {
        let (code, out, err) = run(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let path = dir.join(name);
        std::fs::write(&path, out).unwrap();
        path.display().to_string()
    };
    let c5 = write("c5.toml", &["system", "cradle", "--balls", "5"]);
    let mine = laws(&c5);
    let theirs = laws(&system("cradle5.toml"));
    for law in [
        "pasquero",
        "newton-touching",
        "newton-approaching",
        "poisson",
    ] {
        assert_eq!(outcomes(&mine, law), outcomes(&theirs, law), "{law}");
    }
    // the touching rack: θ = π/3, equal radii, so a and b touch too
    let rack = write("rack.toml", &["system", "billiard", "--theta", "pi/3"]);
    let v = laws(&rack);
    assert_eq!(
        v["system"]["contacts"],
        serde_json::json!(["ac", "bc", "ab"])
    );
    assert_eq!(v["arith"], "certified (quadratic)");
    assert_eq!(
        outcomes(&v, "newton-touching"),
        outcomes(&laws(&system("billiard-pi3.toml")), "newton-touching")
    );
    let open = write("open.toml", &["system", "billiard", "--theta", "pi/2"]);
    assert_eq!(
        laws(&open)["system"]["contacts"],
        serde_json::json!(["ac", "bc"])
    );
    let err = bad(&["system", "billiard", "--theta", "pi/4"]);
    assert!(err.contains("--theta") && err.contains("overlap"), "{err}");
    // the corner: Newton over both walls reverses the velocity (the normals span the plane)
    let corner = write(
        "corner.toml",
        &[
            "system",
            "corner",
            "--alpha",
            "atan(1/2)",
            "--v0",
            "1,1/4",
            "--eps",
            "9/10",
        ],
    );
    let v = laws(&corner);
    assert_eq!(
        outcomes(&v, "newton-touching"),
        serde_json::json!([exact(&["-9/10", "-9/40"])])
    );
    assert_eq!(
        outcomes(&v, "pasquero"),
        outcomes(&laws(&system("corner-atan-half-e09.toml")), "pasquero")
    );
}

#[test]
fn bad_system_files_exit_2() {
    let dir = tempdir("bad-systems");
    std::fs::create_dir_all(&dir).unwrap();
    let case = |name: &str, text: &str, needle: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let err = bad(&["laws", path.to_str().unwrap()]);
        assert!(err.contains(needle), "{name}: {err}");
    };
    let head = "masses = [\"1\", \"1\"]\nvelocity = [\"1\", \"0\"]\n";
    case(
        "dependent.toml",
        &format!(
            "{head}[[contact]]\nnormal = [\"1\", \"0\"]\n[[contact]]\nnormal = [\"2\", \"0\"]\n"
        ),
        "dependent",
    );
    case(
        "length.toml",
        "masses = [\"1\", \"1\"]\nvelocity = [\"1\"]\n[[contact]]\nnormal = [\"1\", \"0\"]\n",
        "masses",
    );
    case("unknown.toml", &format!("{head}colour = 3\n"), "colour");
    case(
        "negative-mass.toml",
        "masses = [\"-1\", \"1\"]\nvelocity = [\"1\", \"0\"]\n[[contact]]\nnormal = [\"1\", \"0\"]\n",
        "positive",
    );
    case(
        "restitution.toml",
        &format!("{head}[[contact]]\nnormal = [\"1\", \"0\"]\nrestitution = \"3/2\"\n"),
        "[0, 1]",
    );
    case(
        "asymmetric.toml",
        "mass_matrix = [[\"2\", \"1\"], [\"0\", \"2\"]]\nvelocity = [\"1\", \"0\"]\n[[contact]]\nnormal = [\"1\", \"0\"]\n",
        "symmetric",
    );
    let err = bad(&["laws", "/nonexistent/system.toml"]);
    assert!(err.contains("cannot read"), "{err}");
}

/// Each record's report of a regress run, by id.
fn by_id(v: &Value, id: &str) -> Value {
    v["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("{id} missing"))
        .clone()
}

#[test]
fn regress_fixture_names_the_nearest_law_per_engine() {
    for engine in ["pymunk", "pybullet", "mujoco", "drake"] {
        let v = json(&[
            "regress",
            &format!("{RECORDS}/{engine}.jsonl"),
            "--format",
            "json",
        ]);
        assert_eq!(v["failed"], 0, "{engine}");
        assert_eq!(v["errors"], 0, "{engine}");
        assert!(v["records"].as_array().unwrap().len() >= 36, "{engine}");
        assert_eq!(v["engines"][0]["engine"], engine);
        for r in v["records"].as_array().unwrap() {
            // α = π/4 and the billiard at θ = π/2: orthogonal normals, every law agrees
            let scenario = r["scenario"].as_str().unwrap();
            let orthogonal = scenario.contains("pi/4") || scenario.contains("pi/2");
            assert_eq!(r["not_discriminating"], orthogonal, "{}", r["id"]);
            assert!(r["energy_change"].as_f64().is_some(), "{}", r["id"]);
        }
    }
    // Bullet's exact LCP (Dantzig) is Newton's law over every touching contact
    let v = json(&[
        "regress",
        &format!("{RECORDS}/pybullet.jsonl"),
        "--format",
        "json",
    ]);
    let r = by_id(&v, "pybullet-cradle3-multibody-dantzig");
    assert_eq!(
        r["nearest"],
        serde_json::json!(["newton-touching", "poisson"])
    );
    assert_eq!(r["nearest_certain"], true);
    assert_eq!(r["expect"]["pass"], true);
    // one solver sweep on the touching rack creates energy: +9/32
    let r = by_id(&v, "pybullet-billiard-pi3-rigid-si-it1");
    assert!(
        (r["energy_change"].as_f64().unwrap() - 0.28125).abs() < 1e-9,
        "{r}"
    );
    assert!(r["momentum_defect"].as_f64().unwrap() < 1e-12, "{r}");
    // Chipmunk with exactly touching balls resolves pairwise: Pasquero's sequential outcome
    let v = json(&[
        "regress",
        &format!("{RECORDS}/pymunk.jsonl"),
        "--format",
        "json",
    ]);
    let r = by_id(&v, "pymunk-cradle3-touching-dt1e-3-it10");
    let nearest = r["nearest"].as_array().unwrap();
    assert!(
        nearest.contains(&Value::from("pasquero"))
            && nearest.contains(&Value::from("newton-approaching"))
    );
    assert!(!nearest.contains(&Value::from("newton-touching")));
    // the touching rack: Seghete–Murphey is the odd one out
    let r = by_id(&v, "pymunk-billiard-pi3-touching-dt1e-5-it100");
    assert_eq!(r["second"], serde_json::json!(["seghete-murphey"]));
    assert_eq!(r["arith"], "quadratic");
}

#[test]
fn regress_exits_1_when_an_expectation_fails() {
    let (code, out, err) = run(&["regress", &format!("{RECORDS}/wrong-expect.jsonl")]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("expect newton-touching FAILED (outside tolerance)"),
        "{out}"
    );
    assert!(out.contains("2 expectations failed"), "{out}");
}

#[test]
fn regress_reports_bad_records_with_their_line() {
    let dir = tempdir("bad-records");
    std::fs::create_dir_all(&dir).unwrap();
    let good = r#"{"scenario": {"file": "cradle3.toml"}, "engine": {"name": "e"}, "output": {"v": [0, 0, 1]}}"#;
    let lines = [
        good.to_string(),
        "not json".to_string(),
        good.replace("[0, 0, 1]", "[0, 1]"),
        good.replace(
            r#""output""#,
            r#""expect": {"law": "hooke", "tolerance": 1}, "output""#,
        ),
        good.replace("cradle3.toml", "missing.toml"),
    ];
    std::fs::copy(system("cradle3.toml"), dir.join("cradle3.toml")).unwrap();
    let path = dir.join("records.jsonl");
    std::fs::write(&path, lines.join("\n")).unwrap();
    let (code, out, _) = run(&["regress", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 2);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["errors"], 4);
    let recs = v["records"].as_array().unwrap();
    assert!(recs[0]["error"].is_null());
    for (r, needle) in recs[1..]
        .iter()
        .zip(["expected", "output.v", "hooke", "missing.toml"])
    {
        assert!(r["error"].as_str().unwrap().contains(needle), "{r}");
    }
    assert_eq!(
        recs.iter()
            .map(|r| r["line"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [1, 2, 3, 4, 5]
    );
}

#[test]
fn regress_reads_csv() {
    let dir = tempdir("csv-records");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(system("cradle3.toml"), dir.join("cradle3.toml")).unwrap();
    let path = dir.join("records.csv");
    std::fs::write(
        &path,
        "id,engine,version,file,v,expect_law,tolerance\n\
         a,mine,1.0,cradle3.toml,-0.3333333333333333 0.6666666666666666 0.6666666666666666,newton-touching,1e-15\n\
         b,mine,1.0,cradle3.toml,0 0 1,,\n         c,mine,1.0,cradle3.toml,-1/3 2/3 2/3,newton-touching,1e-15\n         d,mine,1.0,cradle3.toml,-1/0 0 1,,\n",
    )
    .unwrap();
    let (_, out, _) = run(&["regress", path.to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["records"][0]["expect"]["pass"], true);
    assert_eq!(v["records"][1]["nearest"][0], "pasquero");
    // every number is an expression (issue 37): -1/3 is read as f64 reads it
    assert_eq!(
        v["records"][2]["expect"]["pass"], true,
        "{}",
        v["records"][2]
    );
    let e = v["records"][3]["error"].as_str().unwrap();
    assert!(e.contains("v: `-1/0`: division by zero"), "{e}");
}

#[test]
fn library_check_for_a_simulators_tests() {
    use impactkit::regress::{check, Mismatch};
    use impactkit::system::file::SystemFile;
    use impactkit::system::laws::Law;
    let corner = SystemFile::corner("pi/6", &["1".into(), "tan(pi/6)/2".into()], ["1", "1"], "1");
    let k = (std::f64::consts::PI / 6.0).tan();
    let r = check(&corner, &[-1.0, -k / 2.0], Law::NewtonTouching, 1e-15).unwrap();
    assert_eq!(&*r.arith, "quadratic");
    match check(&corner, &[-1.0, -k / 2.0], Law::Pasquero, 1e-3) {
        Err(Mismatch::Exceeds { law, distance, .. }) => {
            assert_eq!(law, "pasquero");
            assert!(distance > 0.1);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        check(&corner, &[-1.0], Law::NewtonTouching, 1e-6),
        Err(Mismatch::BadInput(_))
    ));
    assert!(matches!(
        check(&corner, &[-1.0, 0.0], Law::WinandyLeine, 1e-6),
        Err(Mismatch::DoesNotApply { .. })
    ));
}

/// The JSON Schema of a record names exactly the keys the reader accepts.
#[test]
fn record_schema_matches_the_reader() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/engines/record.schema.json"
    ))
    .unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    let keys = |v: &Value| {
        let mut k: Vec<String> = v["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        k.sort();
        k
    };
    assert_eq!(
        keys(&schema),
        ["engine", "expect", "id", "output", "scale", "scenario"]
    );
    assert_eq!(
        keys(&schema["properties"]["output"]),
        ["contacts", "events", "impulses", "pre", "v"]
    );
    let laws: Vec<&str> = schema["properties"]["expect"]["properties"]["law"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    for law in &laws {
        assert!(impactkit::system::laws::Law::parse(law).is_some(), "{law}");
    }
    for law in impactkit::system::laws::Law::ALL {
        assert!(laws.contains(&law.name()), "{}", law.name());
    }
    let mut system: Vec<String> = schema["properties"]["scenario"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| *k != "file")
        .cloned()
        .collect();
    system.sort();
    let file = impactkit::system::file::SystemFile::cradle(
        &["1".into(), "1".into()],
        &["1".into(), "0".into()],
        "1",
    );
    let mut written: Vec<String> = serde_json::to_value(&file)
        .unwrap()
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    written.push("mass_matrix".into());
    written.push("energetic".into());
    written.sort();
    assert_eq!(system, written);
}

/// Where f64 splits one Seghete–Murphey outcome in two (masses 2, 1, 3, p = (1, 0, −1):
/// the sequences u12u23u12u23 and u23u12u23u12 give equal outcomes exactly), the row keeps
/// one: uniqueness is decided by the certified run, never a float comparison.
#[test]
fn laws_in_f64_never_split_one_outcome() {
    let dir = tempdir("split");
    std::fs::create_dir_all(&dir).unwrap();
    let (code, out, _) = run(&[
        "system",
        "cradle",
        "--masses",
        "2,1,3",
        "--v0",
        "1/2,0,-1/3",
    ]);
    assert_eq!(code, 0);
    let path = dir.join("split.toml");
    std::fs::write(&path, out).unwrap();
    for arith in ["f64", "mpfr:200", "interval", "exact"] {
        let v = json(&[
            "laws",
            path.to_str().unwrap(),
            "--arith",
            arith,
            "--format",
            "json",
        ]);
        let sm = law_row(&v, "seghete-murphey");
        assert_eq!(sm["unique"], true, "{arith}: {sm}");
        assert_eq!(sm["outcomes"].as_array().unwrap().len(), 1, "{arith}");
    }
}

/// Poisson's coefficient and the energetic R can differ from Newton's: plastic Poisson and
/// Seghete–Murphey (R = 0: the plastic impact that never pulls) move the three balls
/// together, while Newton's elastic law gives (−1/3, 2/3, 2/3).
#[test]
fn poisson_and_energetic_coefficients_per_file() {
    let dir = tempdir("coefficients");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("c.toml");
    std::fs::write(
        &path,
        "masses = [1, 1, 1]\nvelocity = [1, 0, 0]\nrestitution = 1\nenergetic = 0\n\
         [[contact]]\nnormal = [-1, 1, 0]\npoisson = 0\n\
         [[contact]]\nnormal = [0, -1, 1]\npoisson = \"0\"\n",
    )
    .unwrap();
    let v = laws(path.to_str().unwrap());
    let third = serde_json::json!([exact(&["1/3", "1/3", "1/3"])]);
    assert_eq!(outcomes(&v, "poisson"), third);
    assert_eq!(outcomes(&v, "seghete-murphey"), third);
    assert_eq!(
        outcomes(&v, "newton-touching"),
        serde_json::json!([exact(&["-1/3", "2/3", "2/3"])])
    );
}

/// `impactkit system` refuses bad scenarios with one line naming the option.
#[test]
fn system_bad_input_exits_2() {
    for (args, needle) in [
        (vec!["system", "cradle", "--balls", "1"], "--balls"),
        (
            vec!["system", "cradle", "--masses", "1,2", "--v0", "1"],
            "--v0",
        ),
        (vec!["system", "corner", "--alpha", "pi/2"], "--alpha"),
        (vec!["system", "corner", "--v0", "1"], "--v0"),
        (vec!["system", "billiard", "--radii", "1,1"], "--radii"),
        (vec!["system", "billiard", "--theta", "1/0"], "--theta"),
    ] {
        let err = bad(&args);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// Issue 36: a record is "not discriminating" only when no law stopped at a limit before
/// giving its outcome. On a 33-ball cradle with e = 1/2, Pasquero's procedure, the
/// Seghete–Murphey search and Newton's repeated solves stop at their limits; only
/// newton-touching and poisson answer (and agree): the record is not called
/// non-discriminating, and `laws` says "not computed" for the three.
#[test]
fn laws_stopped_at_a_limit_keep_a_record_discriminating() {
    let n = 33;
    let list = |f: &dyn Fn(usize) -> &'static str| {
        (0..n)
            .map(|i| format!("\"{}\"", f(i)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut toml = format!(
        "name = \"33-ball cradle\"\nkind = \"cradle\"\ncoordinates = [{}]\nmasses = [{}]\nvelocity = [{}]\nrestitution = \"1/2\"\n",
        (0..n).map(|i| format!("\"x{}\"", i + 1)).collect::<Vec<_>>().join(", "),
        list(&|_| "1"),
        list(&|i| if i == 0 { "1" } else { "0" }),
    );
    for i in 0..n - 1 {
        let normal = list(&|j| {
            if j == i {
                "-1"
            } else if j == i + 1 {
                "1"
            } else {
                "0"
            }
        });
        toml += &format!(
            "\n[[contact]]\nname = \"c{}\"\nnormal = [{normal}]\n",
            i + 1
        );
    }
    let d = crate::common::tempdir("regress-c33");
    std::fs::create_dir_all(&d).unwrap();
    let sys = d.join("c33.toml");
    std::fs::write(&sys, toml).unwrap();
    let v: Vec<String> = (0..n)
        .map(|i| {
            if i == 0 {
                "-0.45454545454545454545".into()
            } else {
                "0.045454545454545454545".to_string()
            }
        })
        .collect();
    let rec = format!(
        "{{\"id\": \"c33\", \"scenario\": {{\"file\": \"{}\"}}, \"engine\": {{\"name\": \"t\"}}, \"output\": {{\"v\": [{}]}}}}\n",
        sys.display(),
        v.join(", ")
    );
    let r = d.join("r.jsonl");
    std::fs::write(&r, rec).unwrap();
    let (code, out, err) = crate::common::run(&["regress", r.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("  nearest newton-touching=poisson (rel "),
        "{out}"
    );
    assert!(!out.contains("not discriminating"), "{out}");
    let (code, laws, _) = crate::common::run(&["laws", sys.to_str().unwrap()]);
    assert_eq!(code, 0);
    for law in ["pasquero", "seghete-murphey", "newton-approaching"] {
        let row = laws.lines().find(|l| l.starts_with(law)).unwrap();
        assert!(row.contains("not computed: "), "{row}");
    }
}

/// The fixture's records, all four engines, as one JSON-lines text (scenario files
/// relative to `examples/engines/records`).
fn fixture_records() -> String {
    ["mujoco", "pybullet", "pymunk", "drake"]
        .iter()
        .map(|e| std::fs::read_to_string(format!("{RECORDS}/{e}.jsonl")).unwrap())
        .collect()
}

/// The streamed command (one thread, two threads) prints the document the library's
/// per-record `regress` gives, record for record (issue 36: identical results), over
/// more records than one chunk holds.
#[test]
fn streamed_regress_equals_the_library_call() {
    use impactkit::regress::record::parse_jsonl_line;
    let text = fixture_records().repeat(8);
    let d = tempdir("regress-stream");
    let path = std::path::Path::new(RECORDS).join(format!(
        "all-{}.jsonl",
        d.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&path, &text).unwrap();
    let p = path.to_str().unwrap();
    let one = json(&["regress", p, "--format", "json", "--jobs", "1"]);
    let two = json(&["regress", p, "--format", "json", "--jobs", "2"]);
    let (_, text1, _) = run(&["regress", p, "--jobs", "1"]);
    let (_, text2, _) = run(&["regress", p, "--jobs", "2"]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(one, two);
    assert_eq!(text1, text2);
    let records = text
        .lines()
        .enumerate()
        .map(|(i, l)| parse_jsonl_line(i + 1, l))
        .collect();
    let lib = impactkit::regress::regress(records, std::path::Path::new(RECORDS));
    let doc = serde_json::to_value(impactkit::report::Document::new("regress", &lib)).unwrap();
    assert_eq!(one, doc);
    assert_eq!(one["records"].as_array().unwrap().len(), 8 * 192);
    const { assert!(8 * 192 > impactkit::regress::stream::CHUNK) };
}

/// Peak resident memory of a command, in KiB: its `VmHWM`, read while it runs (after
/// its `exec`; `wait4`'s `ru_maxrss` would count the test process copied by the fork).
fn peak_kib(args: &[&str]) -> (i32, i64) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_impactkit"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        let text = std::fs::read_to_string(&status).unwrap_or_default();
        let field = |name: &str| {
            text.lines()
                .find(|l| l.starts_with(name))
                .map(|l| l[name.len()..].trim().to_string())
        };
        if field("Name:").as_deref() == Some("impactkit") {
            let kib = field("VmHWM:").and_then(|v| v.trim_end_matches(" kB").parse().ok());
            peak = peak.max(kib.unwrap_or(0));
        }
        if let Some(s) = child.try_wait().unwrap() {
            assert!(peak > 0, "no reading of the child's memory");
            return (s.code().unwrap_or(-1), peak);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Records in bounded memory (issue 36): a generated file of `IMPACTKIT_REGRESS_RECORDS`
/// records (default 200,000; the benchmark runs 10⁶) over cradle scenarios is checked
/// in less than 200 MB, the last record's expectation included (no quiet stop).
#[test]
fn regress_streams_in_bounded_memory() {
    let n: usize = std::env::var("IMPACTKIT_REGRESS_RECORDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200_000);
    let d = tempdir("regress-many");
    std::fs::create_dir_all(&d).unwrap();
    for f in ["cradle3.toml", "cradle5.toml", "cradle3-masses123.toml"] {
        std::fs::copy(format!("{SYSTEMS}/{f}"), d.join(f)).unwrap();
    }
    let path = d.join("many.jsonl");
    let mut w = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    use std::io::Write;
    for i in 0..n {
        let (file, v) = match i % 3 {
            0 => (
                "cradle3.toml",
                format!(
                    "[{}, 0.6666666666666666, 0.6666666666666667]",
                    -1.0 / 3.0 + (i % 7) as f64 * 1e-9
                ),
            ),
            1 => ("cradle5.toml", "[0.0, 0.0, 0.0, 0.0, 1.0]".to_string()),
            _ => (
                "cradle3-masses123.toml",
                "[-0.33333333333333326, -0.1333333333333333, 0.5333333333333332]".to_string(),
            ),
        };
        writeln!(
            w,
            r#"{{"id": "r{i}", "scenario": {{"file": "{file}"}}, "engine": {{"name": "gen"}}, "output": {{"v": {v}}}}}"#
        )
        .unwrap();
    }
    // the last record fails its expectation: the run must reach it
    writeln!(
        w,
        r#"{{"id": "last", "scenario": {{"file": "cradle5.toml"}}, "engine": {{"name": "gen"}}, "output": {{"v": [0.0, 0.0, 0.0, 0.0, 1.0]}}, "expect": {{"law": "newton-touching", "tolerance": 1e-9}}}}"#
    )
    .unwrap();
    drop(w);
    let p = path.to_str().unwrap();
    let (code, kib) = peak_kib(&["regress", p, "--format", "json"]);
    assert_eq!(code, 1, "the last record's expectation fails");
    assert!(kib < 200 * 1024, "peak {kib} KiB");
    let (code, out, _) = run(&["regress", p]);
    assert_eq!(code, 1);
    assert!(
        out.ends_with(&format!(
            "{} records, 1 expectations failed, 0 records with errors\n",
            n + 1
        )),
        "{}",
        &out[out.len().saturating_sub(300)..]
    );
}

/// A device or a FIFO named as the records file or as a scenario file is one clear
/// error, never a read that does not end.
#[test]
fn regress_refuses_devices_as_records_and_scenarios() {
    let (code, _, err) = run(&["regress", "/dev/zero"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("a device is not read as a records file"),
        "{err}"
    );
    let d = tempdir("regress-dev");
    std::fs::create_dir_all(&d).unwrap();
    let path = d.join("dev.jsonl");
    std::fs::write(
        &path,
        r#"{"scenario": {"file": "/dev/zero"}, "engine": {"name": "e"}, "output": {"v": [1]}}"#,
    )
    .unwrap();
    let (code, out, _) = run(&["regress", path.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        out.contains(
            "line 1: error: scenario file /dev/zero: a device is not read as a system file"
        ),
        "{out}"
    );
}

/// Record v2 fields (issue 36): `pre`, the engine's own pre-impact velocity, catches a
/// converter that flipped v⁻'s y component (which made Siconos and Box2D on the π/6
/// corner look like exact Seghete–Murphey); contact names and impulse counts are checked.
/// `regress` (text, with `args`) on the records `lines` written to `path`: exit status
/// and standard output.
fn regress_lines(path: &Path, lines: &[String], args: &[&str]) -> (i32, String) {
    std::fs::write(path, lines.join("\n")).unwrap();
    let mut all = vec!["regress", path.to_str().unwrap()];
    all.extend_from_slice(args);
    let (code, out, _) = run(&all);
    (code, out)
}

/// Line `n`'s report in a text `regress` output (`line 3 …` and its indented lines, or
/// `line 3: error: …`), its lines joined by newlines.
fn report_line(out: &str, n: usize) -> String {
    let mut lines = out.lines().skip_while(|l| {
        !(l.starts_with(&format!("line {n} ")) || l.starts_with(&format!("line {n}:")))
    });
    let head = lines
        .next()
        .unwrap_or_else(|| panic!("no report of line {n}: {out}"));
    std::iter::once(head)
        .chain(lines.take_while(|l| l.starts_with("  ")))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn regress_checks_pre_contacts_and_impulses() {
    let d = tempdir("regress-v2");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::copy(format!("{SYSTEMS}/corner-pi6.toml"), d.join("c.toml")).unwrap();
    // q̇⁻ = (1, tan(π/6)/2); the engine's f64 of it, then the same with y flipped
    let y = (std::f64::consts::PI / 6.0).tan() / 2.0;
    let rec = |id: &str, output: &str| {
        format!(
            r#"{{"id": "{id}", "scenario": {{"file": "c.toml"}}, "engine": {{"name": "e"}}, "output": {output}}}"#
        )
    };
    let lines = [
        rec("good", &format!(r#"{{"v": [-1, 0], "pre": [1, {y}]}}"#)),
        rec(
            "flipped",
            &format!(r#"{{"v": [-1, 0], "pre": [1, {}]}}"#, -y),
        ),
        rec("short", r#"{"v": [-1, 0], "pre": [1]}"#),
        rec("name", r#"{"v": [-1, 0], "contacts": ["S1", "wall"]}"#),
        rec(
            "count",
            r#"{"v": [-1, 0], "contacts": ["S1"], "impulses": [1, 2]}"#,
        ),
        rec(
            "ok",
            r#"{"v": [-1, 0], "contacts": ["S1", "S2"], "impulses": [1, 2]}"#,
        ),
    ];
    let path = d.join("v2.jsonl");
    std::fs::write(&path, lines.join("\n")).unwrap();
    let (code, out, _) = run(&["regress", path.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    let line = |n: usize| report_line(&out, n);
    assert!(line(1).contains("nearest"), "{}", line(1));
    assert!(
        line(2).contains("output.pre: the engine's pre-impact velocity (1, -0.28867513459481287) is not the scenario's (1, 0.28867513459481287)"),
        "{}",
        line(2)
    );
    assert!(
        line(3).contains("output.pre: 1 components, the system has 2"),
        "{}",
        line(3)
    );
    assert!(
        line(4).contains(
            "output.contacts: `wall` is not a contact of the system (its contacts: S1, S2)"
        ),
        "{}",
        line(4)
    );
    assert!(
        line(5).contains("output.impulses: 2 values for 1 contacts"),
        "{}",
        line(5)
    );
    assert!(line(6).contains("nearest"), "{}", line(6));
    assert!(
        out.contains("6 records, 0 expectations failed, 4 records with errors"),
        "{out}"
    );
}

/// The exact backends' direct conversion of an engine's f64 is the value's exact
/// rational, as the generic path through `BigRational` gives it.
#[test]
fn engine_values_convert_exactly() {
    use impactkit::arith::{Algebraic, Quadratic, Rational, Scalar};
    use num_rational::BigRational;
    fn same<S: Scalar<Ctx = ()>>(x: f64) {
        let direct = S::from_f64_exact(x, &()).map(|v| v.num());
        let generic = BigRational::from_float(x).map(|q| S::from_rational(&q, &()).num());
        assert_eq!(direct, generic, "{x:e}");
    }
    for x in [
        0.0,
        -0.0,
        0.1,
        -1.0 / 3.0,
        1e308,
        f64::MIN_POSITIVE,
        5e-324,
        -2.5,
        f64::NAN,
        f64::INFINITY,
    ] {
        same::<Rational>(x);
        same::<Quadratic>(x);
        same::<Algebraic>(x);
    }
}

/// `output.impulses` compared with each law's impulses (issue 36): M(q̇⁺ − q̇⁻) =
/// Σ λ_i ∇φ_i. On the 3-ball cradle from (1, 0, 0), the sequential laws end at (0, 0, 1)
/// with λ = (1, 1) and Newton's law on both touching contacts at (−1/3, 2/3, 2/3) with
/// λ = (4/3, 2/3) (worked by hand: (−1, 0, 1) = λ₁₂(−1, 1, 0) + λ₂₃(0, −1, 1)).
#[test]
fn regress_compares_impulses_with_each_laws() {
    let d = tempdir("regress-impulses");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::copy(system("cradle3.toml"), d.join("c.toml")).unwrap();
    let rec = |id: &str, output: &str| {
        format!(
            r#"{{"id": "{id}", "scenario": {{"file": "c.toml"}}, "engine": {{"name": "e"}}, "output": {output}}}"#
        )
    };
    let lines = [
        rec(
            "named",
            r#"{"v": [0, 0, 1], "contacts": ["12", "23"], "impulses": [1, 1]}"#,
        ),
        rec("unnamed", r#"{"v": [0, 0, 1], "impulses": [1, 0.5]}"#),
        rec(
            "one-named",
            r#"{"v": [0, 0, 1], "contacts": ["23"], "impulses": [1]}"#,
        ),
    ];
    let path = d.join("i.jsonl");
    std::fs::write(&path, lines.join("\n")).unwrap();
    let v = json(&["regress", path.to_str().unwrap(), "--format", "json"]);
    let recs = v["records"].as_array().unwrap();
    let impulse = |r: &Value, law: &str| {
        let row = r["laws"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["law"] == law)
            .unwrap();
        row["impulse_distance"]["exact"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // Pasquero's impulses are (1, 1); Newton over both touching contacts (4/3, 2/3)
    assert_eq!(impulse(&recs[0], "pasquero"), "0");
    assert_eq!(impulse(&recs[0], "newton-touching"), "1/3");
    assert_eq!(impulse(&recs[1], "pasquero"), "1/2");
    // contact 12 not reported: it took no impulse, the law says 1
    assert_eq!(impulse(&recs[2], "pasquero"), "1");
    let (_, text, _) = run(&["regress", path.to_str().unwrap(), "--detail"]);
    assert!(
        report_line(&text, 1).contains("impulses 0.00e0 from the nearest"),
        "{text}"
    );
}

/// Record format v2 (issue 36) on the equal-mass 3-ball cradle, v⁻ = (1, 0, 0), e = 1:
/// `events` tell the sequential laws (12 then 23) from the simultaneous ones (12 with
/// 23); `scale` divides the distances (0.5 from (0, 0, 1) is 1.25e-1 of 4); a threshold
/// of 2 makes both contacts plastic (all balls at 1/3: Newton's LCP exactly), and a
/// product rule gives e = 0.5·0.8 = 2/5 (Newton's law then gives (1/15, 7/15, 7/15)); bad names, scales and rules are errors with
/// their line.
#[test]
fn regress_reads_events_scale_and_the_engines_model() {
    let d = tempdir("regress-v2-model");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::copy(format!("{SYSTEMS}/cradle3.toml"), d.join("c.toml")).unwrap();
    let rec = |id: &str, engine: &str, rest: &str| {
        format!(
            r#"{{"id": "{id}", "scenario": {{"file": "c.toml"}}, "engine": {{"name": "e"{engine}}}, {rest}}}"#
        )
    };
    let third = 1.0f64 / 3.0;
    let lines = [
        rec(
            "seq",
            "",
            r#""output": {"v": [0, 0, 1], "events": [["12"], ["23"]]}"#,
        ),
        rec(
            "sim",
            "",
            r#""output": {"v": [0, 0, 1], "events": [["12", "23"]]}"#,
        ),
        rec("scaled", "", r#""scale": 4, "output": {"v": [0, 0, 1.5]}"#),
        rec(
            "plastic",
            r#", "model": {"threshold": 2}"#,
            &format!(r#""output": {{"v": [{third}, {third}, {third}]}}"#),
        ),
        rec(
            "product",
            r#", "model": {"restitution_rule": "product", "contacts": {"12": {"restitution": [0.5, 0.8]}, "23": {"restitution": [0.5, 0.8]}}}"#,
            r#""output": {"v": [0, 0, 1]}"#,
        ),
        rec(
            "badev",
            "",
            r#""output": {"v": [0, 0, 1], "events": [["12"], ["99"]]}"#,
        ),
        rec("badscale", "", r#""scale": 0, "output": {"v": [0, 0, 1]}"#),
        rec(
            "norule",
            r#", "model": {"contacts": {"12": {"restitution": [0.5, 0.8]}}}"#,
            r#""output": {"v": [0, 0, 1]}"#,
        ),
    ];
    let path = d.join("v2.jsonl");
    let (code, out) = regress_lines(&path, &lines, &["--detail"]);
    assert_eq!(code, 2, "{out}");
    let line = |n: usize| report_line(&out, n);
    assert!(
        line(1).ends_with("contact order fits pasquero, seghete-murphey, newton-approaching"),
        "{}",
        line(1)
    );
    assert!(
        line(2).ends_with("contact order fits newton-touching, poisson"),
        "{}",
        line(2)
    );
    assert!(line(3).contains("(5.00e-1, rel 1.25e-1)"), "{}", line(3));
    assert!(
        line(4)
            .contains("nearest seghete-murphey=newton-touching=poisson (1.85e-17, rel 1.85e-17)"),
        "{}",
        line(4)
    );
    assert!(
        line(5).contains("nearest seghete-murphey (4.00e-1"),
        "{}",
        line(5)
    );
    assert!(
        line(6)
            .ends_with("output.events: `99` is not a contact of the system (its contacts: 12, 23)"),
        "{}",
        line(6)
    );
    assert!(
        line(7).ends_with("scale: must be a finite number > 0, not 0"),
        "{}",
        line(7)
    );
    assert!(line(8).contains("need a restitution_rule"), "{}", line(8));
    // the JSON: the scale used, relative distances, and the model in the scenario's name
    let (_, out, _) = run(&["regress", path.to_str().unwrap(), "--format", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let r = &v["records"];
    assert_eq!(r[0]["scale"], 1.0);
    assert_eq!(r[2]["scale"], 4.0);
    assert_eq!(r[2]["laws"][0]["relative_distance"], 0.125);
    assert_eq!(
        r[3]["scenario"],
        "3-ball cradle, masses 1, 1, 1 [model: 12 plastic, 23 plastic]"
    );
    assert_eq!(
        r[4]["scenario"],
        "3-ball cradle, masses 1, 1, 1 [model: 12 e = 2/5, 23 e = 2/5]"
    );
    // --summary: the failing records and the summary only, in text and JSON
    let (code, out, _) = run(&["regress", path.to_str().unwrap(), "--summary"]);
    assert_eq!(code, 2, "{out}");
    let printed: Vec<&str> = out.lines().filter(|l| l.starts_with("line ")).collect();
    assert_eq!(printed.len(), 3, "{out}");
    assert!(printed.iter().all(|l| l.contains(": error: ")), "{out}");
    assert!(out.contains("farthest rel 1.25e-1 (line 3)"), "{out}");
    let ok = d.join("ok.jsonl");
    std::fs::write(&ok, lines[..3].join("\n")).unwrap();
    let (code, out, _) = run(&[
        "regress",
        ok.to_str().unwrap(),
        "--summary",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["records"], serde_json::json!([]));
    assert_eq!(v["engines"][0]["scenarios"][0]["worst_line"], 3);
    // Newton with e = 2/5: γ₁⁺ = 2/5, γ₂⁺ = 0, so λ = (14/15, 7/15), v = (1/15, 7/15, 7/15)
    assert_eq!(
        law_row(&r[4], "newton-touching")["outcome"],
        serde_json::json!([{"exact": "1/15"}, {"exact": "7/15"}, {"exact": "7/15"}])
    );
}

/// The text per record is short by default (issue 62: lines were about 500 characters):
/// the record and its nearest law, every line at most 160 characters, on the whole
/// engine fixture; `--detail` adds the second law, the energy, the momentum and the
/// contact order, a line each, also at most 160 characters.
#[test]
fn regress_text_lines_are_short_and_detail_is_behind_a_flag() {
    for file in ["mujoco", "pybullet", "pymunk", "wrong-expect"] {
        let path = format!("{RECORDS}/{file}.jsonl");
        let (_, short, _) = run(&["regress", &path]);
        let (_, detail, _) = run(&["regress", &path, "--detail"]);
        for text in [&short, &detail] {
            let long = text.lines().find(|l| l.chars().count() > 160);
            assert!(long.is_none(), "{file}: {long:?}");
        }
        let heads = |t: &str| t.lines().filter(|l| l.starts_with("line ")).count();
        assert_eq!(heads(&short), heads(&detail), "{file}");
        assert!(!short.contains("momentum defect"), "{file}");
        assert!(detail.contains("momentum defect"), "{file}");
        assert!(detail.contains("\n  then "), "{file}");
    }
    let (_, out, _) = run(&["regress", &format!("{RECORDS}/wrong-expect.jsonl")]);
    let first = report_line(&out, 1);
    assert_eq!(
        first,
        "line 1 pymunk-cradle3-touching-dt1e-3-it10-wrong-expect [pymunk touching-dt1e-3-it10] 3-ball cradle, masses 1, 1, 1\n  nearest pasquero=seghete-murphey=newton-approaching=winandy-leine (rel 1.11e-16); expect newton-touching FAILED (outside tolerance)"
    );
}

/// Misspellings in records and system files get a suggestion (issue 62): a law name, a
/// record field, a scenario override, a missing tolerance, a system file's key.
#[test]
fn misspelt_records_and_system_keys_get_a_suggestion() {
    let d = tempdir("regress-didyoumean");
    std::fs::create_dir_all(&d).unwrap();
    let sys = format!(
        "{}/examples/systems/cradle3.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let rec = |rest: &str| {
        format!("{{\"scenario\": {{\"file\": \"{sys}\"{rest}, \"engine\": {{\"name\": \"e\"}}")
    };
    let lines = [
        rec("}") + ", \"output\": {\"v\": [0, 0, 1]}, \"expect\": {\"law\": \"pasqero\", \"tolerance\": 1e-9}}",
        rec("}") + ", \"outptu\": {\"v\": [0, 0, 1]}}",
        rec("}") + ", \"output\": {\"v\": [0, 0, 1]}, \"expect\": {\"law\": \"pasquero\"}}",
        rec(", \"restitutoin\": \"1\"}") + ", \"output\": {\"v\": [0, 0, 1]}}",
    ];
    let (code, out) = regress_lines(&d.join("typos.jsonl"), &lines, &[]);
    assert_eq!(code, 2, "{out}");
    let line = |n: usize| report_line(&out, n);
    for (n, want) in [
        (
            1,
            "`pasqero` is not a law impactkit knows (did you mean \"pasquero\"?)",
        ),
        (2, "(did you mean \"output\"?)"),
        (3, "missing field `tolerance` at line 1 column"),
        (3, "e.g. \"tolerance\": 1e-9)"),
        (4, "(did you mean \"restitution\"?)"),
    ] {
        assert!(line(n).contains(want), "line {n}: {}", line(n));
    }
    let toml = d.join("s.toml");
    std::fs::write(
        &toml,
        "name = \"x\"\nmasses = [\"1\", \"1\"]\nvelocity = [\"1\", \"0\"]\nrestitutoin = \"1\"\n[[contact]]\nnormal = [\"-1\", \"1\"]\n",
    )
    .unwrap();
    let (code, _, err) = run(&["laws", toml.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.trim_end().ends_with("(did you mean \"restitution\"?)"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}
