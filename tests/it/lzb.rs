//! Issue 61: the compliant law of Liu–Zhao–Brogliato (LZB). Its ΔP scheme against an
//! independent transcription of Siconos's kernel (`examples/lzb/fixture.json`, written by
//! `examples/lzb/siconos_transcription.py`), its certified limit against the rigid
//! single-contact law and the conservation laws, and the CLI rows of `laws` and `regress`.

use crate::common::{bad, json, law_row, run, tempdir};
use impactkit::arith::Scalar;
use impactkit::system::file::SystemFile;
use impactkit::system::laws::{run as run_law, Law};

/// The fixture case as a system file: a chain with contacts between neighbours.
fn chain_file(case: &serde_json::Value) -> String {
    let nums = |k: &str| -> Vec<String> {
        case[k]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| format!("\"{}\"", x.as_f64().unwrap()))
            .collect()
    };
    let masses = nums("masses");
    let n = masses.len();
    let mut text = format!(
        "masses = [{}]\nvelocity = [{}]\n",
        masses.join(", "),
        nums("velocity").join(", ")
    );
    for i in 0..n - 1 {
        let normal: Vec<&str> = (0..n)
            .map(|k| match k {
                _ if k == i => "\"-1\"",
                _ if k == i + 1 => "\"1\"",
                _ => "\"0\"",
            })
            .collect();
        let eta = case["exponent"][i].as_f64().unwrap();
        let eta = if eta == 1.5 {
            "3/2".to_string()
        } else {
            format!("{eta}")
        };
        text += &format!(
            "[[contact]]\nnormal = [{}]\nstiffness = \"{}\"\nexponent = \"{eta}\"\nenergetic = \"{}\"\n",
            normal.join(", "),
            case["stiffness"][i].as_f64().unwrap(),
            case["energetic"][i].as_f64().unwrap(),
        );
    }
    let compliance = match case["compliance"].as_str().unwrap() {
        "BiStiffness" => "bi-stiffness",
        _ => "mono-stiffness",
    };
    text += &format!(
        "[lzb]\ncompliance = \"{compliance}\"\ndelta_p = \"{}\"\n",
        case["delta_p"].as_f64().unwrap()
    );
    text
}

fn fixture() -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string("examples/lzb/fixture.json").unwrap();
    serde_json::from_str(&text).unwrap()
}

/// impactkit's `f64` ΔP scheme takes Siconos's steps: the same number of steps and the
/// same post-impact velocities to 10⁻⁹ on every case (a ball chain, a bead column of
/// decreasing masses and unequal stiffnesses, mono-stiffness, mixed exponents).
#[test]
fn delta_p_scheme_equals_the_siconos_transcription() {
    for case in fixture() {
        let name = case["name"].as_str().unwrap();
        let text = chain_file(&case);
        let file = SystemFile::from_toml(&text, name).unwrap();
        let sys = file.build::<f64>(name, &()).unwrap();
        let o = run_law(Law::Lzb, &sys, 1000).unwrap_or_else(|e| panic!("{name}: {e}"));
        let steps = case["steps"].as_u64().unwrap();
        assert!(
            o.note.contains(&format!(" {steps} steps")),
            "{name}: {}",
            o.note
        );
        let want = case["velocity_plus"].as_array().unwrap();
        for (x, w) in o.outcomes[0].iter().zip(want) {
            let w = w.as_f64().unwrap();
            assert!(
                (x - w).abs() < 1e-9,
                "{name}: {:?} vs {want:?}",
                o.outcomes[0]
            );
        }
        // 200-bit MPFR: the same scheme, rounding apart
        let sys = file.build::<impactkit::arith::Mpfr>(name, &200).unwrap();
        let m = run_law(Law::Lzb, &sys, 1000).unwrap();
        for (x, w) in m.outcomes[0].iter().zip(want) {
            assert!(
                (x.to_f64() - w.as_f64().unwrap()).abs() < 1e-9,
                "{name} mpfr"
            );
        }
    }
}

/// The chain of five touching balls struck at one end: LZB's dispersion, every ball
/// moving after the impact and the last one fastest, where the sequential rigid laws give
/// (0, 0, 0, 0, 1).
#[test]
fn a_struck_chain_disperses() {
    let case = fixture()
        .into_iter()
        .find(|c| c["name"] == "chain5-hertz")
        .unwrap();
    let v: Vec<f64> = case["velocity_plus"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!(v.iter().all(|x| x.abs() > 1e-3), "{v:?}");
    assert!(v[4] > 0.98 && v[0] < 0.0, "{v:?}");
    assert!((v.iter().sum::<f64>() - 1.0).abs() < 1e-12);
}

/// The certified limit on the command line: the Hertz cradle's enclosure contains the
/// Hertz chain's time integration, and the ΔP scheme at 1,000 steps lies outside it (its
/// O(ΔP) error); momentum is conserved within the enclosure and, with e = 1, energy.
#[test]
fn laws_shows_the_scheme_and_the_certified_limit() {
    let v = json(&[
        "laws",
        "examples/systems/cradle3-hertz.toml",
        "--format",
        "json",
    ]);
    let limit = law_row(&v, "lzb-limit");
    let bounds = |row: &serde_json::Value| -> Vec<(f64, f64)> {
        row["outcomes"][0]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                let f = |k: &str| -> f64 {
                    let s = x[k].as_str().unwrap_or_else(|| panic!("{x}"));
                    s.parse().unwrap()
                };
                (f("lo"), f("hi"))
            })
            .collect()
    };
    let lim = bounds(&limit);
    for ((lo, hi), w) in lim.iter().zip([-0.0709524, 0.0764030, 0.9945493]) {
        assert!(*lo - 1e-7 <= w && w <= *hi + 1e-7, "[{lo}, {hi}] ∌ {w}");
    }
    let (mlo, mhi) = lim.iter().fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    assert!(mlo <= 1.0 && 1.0 <= mhi);
    let (elo, ehi) = lim.iter().fold((0.0, 0.0), |a, (lo, hi)| {
        let sq = |x: f64| x * x;
        let min = if *lo <= 0.0 && 0.0 <= *hi {
            0.0
        } else {
            sq(*lo).min(sq(*hi))
        };
        (a.0 + min, a.1 + sq(*lo).max(sq(*hi)))
    });
    assert!(elo <= 1.0 && 1.0 <= ehi, "[{elo}, {ehi}]");
    let scheme = bounds(&law_row(&v, "lzb"));
    assert!(scheme[0].1 > lim[0].1, "{scheme:?} {lim:?}");
    // the rigid laws keep their agreement table: LZB is in none of its groups
    assert!(
        v["groups"].to_string().find("lzb").is_none(),
        "{}",
        v["groups"]
    );
    // f64: the scheme runs, the certified limit says where it runs
    let f = json(&[
        "laws",
        "examples/systems/cradle3-hertz.toml",
        "--arith",
        "f64",
        "--format",
        "json",
    ]);
    assert!(law_row(&f, "lzb-limit")["note"]
        .as_str()
        .unwrap()
        .contains("runs on enclosures"));
    assert_eq!(
        law_row(&f, "lzb")["outcomes"][0].as_array().unwrap().len(),
        3
    );
}

/// One contact: the certified limit encloses Newton's e·|γ⁻| for e = 1/2 and η = 1.
#[test]
fn one_contact_limit_is_newton() {
    let d = tempdir("lzb-one");
    std::fs::create_dir_all(&d).unwrap();
    let f = d.join("wall.toml");
    std::fs::write(
        &f,
        "masses = [\"2\"]\nvelocity = [\"-3\"]\n[[contact]]\nnormal = [\"1\"]\nrestitution = \"1/2\"\n[lzb]\nexponent = \"1\"\n",
    )
    .unwrap();
    let v = json(&["laws", f.to_str().unwrap(), "--format", "json"]);
    let x = &law_row(&v, "lzb-limit")["outcomes"][0][0];
    let lo: f64 = x["lo"].as_str().unwrap().parse().unwrap();
    let hi: f64 = x["hi"].as_str().unwrap().parse().unwrap();
    assert!(lo <= 1.5 && 1.5 <= hi && hi - lo < 1e-2, "[{lo}, {hi}]");
}

/// Records against LZB: `expect` names it, and a scenario without `[lzb]` says why.
#[test]
fn regress_compares_records_with_lzb() {
    let d = tempdir("lzb-regress");
    std::fs::create_dir_all(&d).unwrap();
    let hertz = std::fs::canonicalize("examples/systems/cradle3-hertz.toml").unwrap();
    let rigid = std::fs::canonicalize("examples/systems/cradle3.toml").unwrap();
    let rec = |id: &str, file: &std::path::Path, v: &str, law: &str| {
        format!(
            "{{\"id\": \"{id}\", \"engine\": {{\"name\": \"t\"}}, \"scenario\": {{\"file\": \"{}\"}}, \"output\": {{\"v\": [{v}]}}, \"expect\": {{\"law\": \"{law}\", \"tolerance\": 0.001}}}}\n",
            file.display()
        )
    };
    let text = rec("near", &hertz, "-0.07095, 0.07640, 0.99455", "lzb-limit")
        + &rec("rigid", &hertz, "0, 0, 1", "lzb")
        + &rec("none", &rigid, "0, 0, 1", "lzb");
    let f = d.join("r.jsonl");
    std::fs::write(&f, text).unwrap();
    let (code, out, err) = run(&["regress", f.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    // each record's second line: its nearest law and the expectation
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[1].contains("nearest lzb-limit") && !lines[1].contains("FAILED"),
        "{}",
        lines[1]
    );
    assert!(
        lines[3].contains("expect lzb FAILED (outside tolerance)"),
        "{}",
        lines[3]
    );
    assert!(lines[5].contains("no [lzb] table"), "{}", lines[5]);
}

/// Bad `[lzb]` values: exit 2, one line naming the key.
#[test]
fn bad_lzb_tables_are_one_line_errors() {
    let d = tempdir("lzb-bad");
    std::fs::create_dir_all(&d).unwrap();
    for (table, key) in [
        ("exponent = \"0\"", "lzb exponent"),
        ("exponent = \"1/100\"", "lzb exponent"),
        ("compliance = \"soft\"", "lzb compliance"),
        ("delta_p = \"-1\"", "lzb delta_p"),
        ("steps = 0", "lzb steps"),
        ("stiff = 1", "stiff"),
    ] {
        let f = d.join("bad.toml");
        std::fs::write(
            &f,
            format!("masses = [\"1\"]\nvelocity = [\"-1\"]\n[[contact]]\nnormal = [\"1\"]\n[lzb]\n{table}\n"),
        )
        .unwrap();
        let err = bad(&["laws", f.to_str().unwrap()]);
        assert!(err.contains(key), "{table}: {err}");
    }
}

/// `regress --fit lzb` recovers the parameters of records that LZB itself made: three
/// chains (3 equal balls, masses 1, 2, 3, 5 equal balls) with η = 1 and e = 4/5, each
/// record the midpoint of the certified limit's enclosure, while the scenario files say
/// restitution 1. The fit names η = 1 and e = 0.8 (to its three digits), with a
/// certified distance far below the defaults' (η = 3/2, e = 1).
#[test]
fn fit_recovers_the_parameters_of_lzb_records() {
    let d = tempdir("lzb-fit");
    std::fs::create_dir_all(&d).unwrap();
    let mut records = String::new();
    for name in ["cradle3", "cradle3-masses123", "cradle5"] {
        let path = std::fs::canonicalize(format!("examples/systems/{name}.toml")).unwrap();
        let text = std::fs::read_to_string(&path).unwrap().replace(
            "restitution = \"1\"",
            "restitution = \"1\"\nenergetic = \"4/5\"",
        );
        let made = d.join(format!("{name}-made.toml"));
        std::fs::write(
            &made,
            text + "\n[lzb]\nexponent = \"1\"\nlimit_steps = 3200\n",
        )
        .unwrap();
        let v = json(&["laws", made.to_str().unwrap(), "--format", "json"]);
        let mid: Vec<String> = law_row(&v, "lzb-limit")["outcomes"][0]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                let end = |k: &str| x[k].as_str().unwrap().parse::<f64>().unwrap();
                format!("{}", (end("lo") + end("hi")) / 2.0)
            })
            .collect();
        records += &format!(
            "{{\"id\": \"{name}\", \"engine\": {{\"name\": \"lzb-made\"}}, \"scenario\": {{\"file\": \"{}\"}}, \"output\": {{\"v\": [{}]}}}}\n",
            path.display(),
            mid.join(", ")
        );
    }
    let f = d.join("made.jsonl");
    std::fs::write(&f, records).unwrap();
    let g = fitted_group(&f);
    assert_eq!(g["exponent"], "1", "{g}");
    let e: f64 = g["energetic"][0]["energetic"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((e - 0.8).abs() <= 0.005, "{g}");
    assert_eq!(g["energetic"][0]["default"], "1", "{g}");
    let certified = g["certified_rel"].as_f64().unwrap();
    let defaults = g["default_rel"].as_f64().unwrap();
    assert!(certified < 2e-3 && defaults > 10.0 * certified, "{g}");
    assert_eq!(g["records"].as_array().unwrap().len(), 3);
}

/// `regress FILE --fit lzb --format json` on records of one engine and parameter set:
/// the fit's one group.
fn fitted_group(file: &std::path::Path) -> serde_json::Value {
    let r = json(&[
        "regress",
        file.to_str().unwrap(),
        "--fit",
        "lzb",
        "--format",
        "json",
    ]);
    assert_eq!(r["groups"].as_array().map(Vec::len), Some(1), "{r}");
    r["groups"][0].clone()
}

/// `regress --fit`: bad options are one-line errors naming the option; a record that
/// cannot take part is reported with its line, after the fit of the others (exit 2).
#[test]
fn fit_bad_input() {
    let d = tempdir("lzb-fit-bad");
    std::fs::create_dir_all(&d).unwrap();
    let cradle = std::fs::canonicalize("examples/systems/cradle3.toml").unwrap();
    let good = format!(
        "{{\"engine\": {{\"name\": \"e\"}}, \"scenario\": {{\"file\": \"{}\"}}, \"output\": {{\"v\": [0, 0, 1]}}}}\n",
        cradle.display()
    );
    let f = d.join("r.jsonl");
    std::fs::write(&f, good.clone() + "{\"engine\": {\"name\": \"e\"}}\n").unwrap();
    let p = f.to_str().unwrap();
    for (args, key) in [
        (vec!["--fit", "newton-touching"], "--fit"),
        (
            vec!["--fit", "lzb", "--fit-evaluations", "5"],
            "--fit-evaluations",
        ),
        (vec!["--fit-evaluations", "50"], "--fit"),
        (vec!["--fit", "lzb", "--summary"], "--summary"),
    ] {
        let mut all = vec!["regress", p];
        all.extend(args.iter().copied());
        let err = bad(&all);
        assert!(err.contains(key), "{args:?}: {err}");
    }
    let many = d.join("many.jsonl");
    std::fs::write(&many, good.repeat(4097)).unwrap();
    let err = bad(&["regress", many.to_str().unwrap(), "--fit", "lzb"]);
    assert!(err.contains("--fit: at most 4096 records"), "{err}");
    let (code, out, err) = run(&["regress", p, "--fit", "lzb", "--fit-evaluations", "10"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("e: 1 records; LZB with η = "), "{out}");
    assert!(out.lines().any(|l| l.starts_with("line 2: ")), "{out}");
}

/// Drake's point contact without dissipation is a linear spring: `--fit lzb` on the
/// fixture's `point-k1e6-hc0` records names η = 1, e = 1 (both classes) and a certified
/// distance below 0.1 %, where the defaults (η = 3/2) are 18 % off.
#[test]
fn fit_names_drake_point_contact_linear_and_elastic() {
    let d = tempdir("lzb-fit-drake");
    std::fs::create_dir_all(&d).unwrap();
    let systems = std::fs::canonicalize("examples/systems").unwrap();
    let text: String = std::fs::read_to_string("examples/engines/records/drake.jsonl")
        .unwrap()
        .lines()
        .filter(|l| l.contains("\"set\": \"point-k1e6-hc0\""))
        .map(|l| l.replace("../../systems", systems.to_str().unwrap()) + "\n")
        .collect();
    assert_eq!(text.lines().count(), 12);
    let f = d.join("drake.jsonl");
    std::fs::write(&f, text).unwrap();
    let g = fitted_group(&f);
    assert_eq!(
        (g["engine"].as_str(), g["exponent"].as_str()),
        (Some("drake"), Some("1"))
    );
    for e in g["energetic"].as_array().unwrap() {
        assert_eq!(e["energetic"], "1", "{g}");
    }
    assert!(g["certified_rel"].as_f64().unwrap() < 1e-3, "{g}");
    assert!(g["default_rel"].as_f64().unwrap() > 0.1, "{g}");
}
