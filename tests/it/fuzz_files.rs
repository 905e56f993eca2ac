//! Fuzzing the commands that read files against the contract (issue 38, item 6): `laws`,
//! `step --system`, `regress`, `verify`, `check` and `audit merge`, on generated hostile
//! files (system files, step files, records in JSON lines and CSV, shard directories) and
//! on FIFOs, devices, directories and symlinks to devices.
//!
//! The files are mutations of the repository's own examples, drawn from a fixed seed:
//! values replaced by hostile numbers or expressions (1e300, 1e-300, 1e400, sqrt(-1),
//! unicode, empty), lines dropped or duplicated, the contact table repeated up to 33
//! times, 64- and 65-coordinate systems, singular and non-symmetric mass matrices, deep
//! TOML nesting, a 200 KB name, truncated and non-UTF-8 files. Every case runs as a child
//! process under the contract of `tests/common/fuzz.rs` (exit 0 with valid output and
//! flagged non-finite values, or exit 2 with one line of at most 220 characters; never a
//! signal, a panic, exit 1, a hang over 20 s or more than 4 GB).
//!
//! `IMPACTKIT_FUZZ_FILES=N` scales the number of generated files (default 1: about 3,200
//! cases, about 2 minutes on 2 cores); `IMPACTKIT_FUZZ_FILES_SEED` changes the seed;
//! `IMPACTKIT_FUZZ_ONLY=i,j` runs only those cases (by index, as printed in a violation);
//! `IMPACTKIT_FUZZ_KEEP=1` keeps the generated files.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::common::fuzz::{env_num, failure_message, run_batch, summary, Case, Rng};

const HOSTILE: &[&str] = &[
    "1e300",
    "-1e300",
    "1e-300",
    "1e308",
    "1.8e308",
    "1e400",
    "-1e-400",
    "0",
    "-0",
    "-1",
    "1/3",
    "-1/3",
    "inf",
    "nan",
    "",
    " ",
    "sqrt(-1)",
    "1/0",
    "(((1",
    "é",
    "\u{202e}1",
    "1e-100000",
    "2^100000",
    "pi",
    "sqrt(2)",
    "tan(pi/16)",
    "sqrt(3)+sqrt(5)",
    "0.1",
    "1e-16",
    "999999999999999999999999999999",
    "x",
];

const ARITH: &[&str] = &[
    "certified",
    "f64",
    "exact",
    "quadratic",
    "interval",
    "mpi:64",
    "mpfr:53",
];

/// The quoted values of a TOML text: (start, end) byte ranges of their contents.
fn quoted(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut open = None;
    for (i, c) in text.char_indices() {
        if c == '"' {
            match open.take() {
                Some(s) => out.push((s, i)),
                None => open = Some(i + 1),
            }
        } else if c == '\n' {
            open = None;
        }
    }
    out
}

/// One mutation of a TOML file.
fn mutate(text: &str, rng: &mut Rng) -> Vec<u8> {
    let lines: Vec<&str> = text.lines().collect();
    match rng.below(12) {
        // a value replaced by a hostile one (the most frequent mutation)
        0..=4 => {
            let q = quoted(text);
            if q.is_empty() {
                return text.as_bytes().to_vec();
            }
            let mut t = text.to_string();
            for _ in 0..1 + rng.below(2) {
                let q = quoted(&t);
                let (a, b) = rng.pick(&q);
                t.replace_range(a..b, rng.pick(HOSTILE));
            }
            t.into_bytes()
        }
        // a line dropped
        5 => {
            let k = rng.below(lines.len());
            let mut l = lines.clone();
            l.remove(k);
            l.join("\n").into_bytes()
        }
        // the last table repeated (up to 33 contacts or gaps), with fresh names
        6 => {
            let Some(at) = text.rfind("[[") else {
                return text.as_bytes().to_vec();
            };
            let block = &text[at..];
            let mut t = text.to_string();
            for k in 0..1 + rng.below(32) {
                t.push('\n');
                t += &block.replace("name = \"", &format!("name = \"r{k}"));
            }
            t.into_bytes()
        }
        // truncated at a random byte
        7 => {
            let cut = rng.below(text.len());
            text.as_bytes()[..cut].to_vec()
        }
        // non-UTF-8 bytes or control characters inserted
        8 => {
            let mut b = text.as_bytes().to_vec();
            let at = rng.below(b.len());
            let junk: &[u8] = rng.pick(&[&[0xffu8, 0xfe][..], &[0u8][..], &[0x1bu8, b'['][..]]);
            b.splice(at..at, junk.iter().copied());
            b
        }
        // a huge name, or deep nesting
        9 => {
            let mut t = text.to_string();
            if rng.chance(0.5) {
                t = format!("name = \"{}\"\n", "n".repeat(200_000))
                    + &t.replace("name = ", "old_name = ");
            } else {
                t = format!("deep = {}{}\n", "[".repeat(600), "]".repeat(600)) + &t;
            }
            t.into_bytes()
        }
        // an unknown key, a duplicated key
        10 => {
            let k = rng.below(lines.len());
            let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            if rng.chance(0.5) {
                l.insert(k, "varz = 3".into());
            } else {
                l.insert(k, lines[k].to_string());
            }
            l.join("\n").into_bytes()
        }
        // a mass matrix: singular, non-symmetric, or of the wrong size
        _ => {
            let m = rng.pick(&[
                r#"mass_matrix = [["1", "2"], ["0", "1"]]"#,
                r#"mass_matrix = [["1", "1"], ["1", "1"]]"#,
                r#"mass_matrix = [["1e300", "0"], ["0", "1e-300"]]"#,
                r#"mass_matrix = [["1", "0", "0"], ["0", "1", "0"], ["0", "0", "1"]]"#,
                r#"mass_matrix = [["1"]]"#,
                r#"mass_matrix = [["-1", "0"], ["0", "1"]]"#,
            ]);
            let l: Vec<String> = lines
                .iter()
                .map(|s| {
                    if s.starts_with("masses") {
                        m.to_string()
                    } else {
                        s.to_string()
                    }
                })
                .collect();
            l.join("\n").into_bytes()
        }
    }
}

/// A general system of `n` coordinates and `m` contacts with small integer entries.
fn general(n: usize, m: usize, rng: &mut Rng) -> String {
    let list = |rng: &mut Rng, lo: i64, hi: i64| -> String {
        (0..n)
            .map(|_| format!("\"{}\"", lo + rng.below((hi - lo + 1) as usize) as i64))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut t = format!(
        "name = \"general {n}x{m}\"\nkind = \"general\"\ncoordinates = [{}]\nmasses = [{}]\nvelocity = [{}]\nrestitution = \"1/2\"\n",
        (0..n).map(|i| format!("\"q{i}\"")).collect::<Vec<_>>().join(", "),
        list(rng, 1, 9),
        list(rng, -9, 9),
    );
    for k in 0..m {
        t += &format!(
            "\n[[contact]]\nname = \"c{k}\"\nnormal = [{}]\n",
            list(rng, -3, 3)
        );
    }
    t
}

fn examples(dir: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out: Vec<(String, String)> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            (
                p.file_stem().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

fn case(args: Vec<OsString>) -> Case {
    Case::new(&args)
}

fn json(rng: &mut Rng, mut args: Vec<OsString>) -> Vec<OsString> {
    if rng.chance(0.5) {
        args.extend(os(&["--format", "json"]));
    }
    args
}

/// System files for `laws` (and as `regress` scenarios).
fn system_cases(dir: &Path, scale: usize, rng: &mut Rng) -> Vec<Case> {
    let bases = examples("examples/systems");
    let mut cases = Vec::new();
    for (i, (name, text)) in bases
        .iter()
        .cycle()
        .take(bases.len() * 90 * scale)
        .enumerate()
    {
        let file = dir.join(format!("sys-{i}-{name}.toml"));
        std::fs::write(&file, mutate(text, rng)).unwrap();
        for _ in 0..2 {
            let mut a = vec![OsString::from("laws"), file.clone().into()];
            a.extend(os(&["--arith", rng.pick(ARITH)]));
            cases.push(case(json(rng, a)));
        }
    }
    // large and degenerate general systems
    for (n, m) in [(64, 32), (65, 2), (64, 1), (2, 33), (8, 8), (1, 1), (3, 3)] {
        let file = dir.join(format!("general-{n}x{m}.toml"));
        std::fs::write(&file, general(n, m, rng)).unwrap();
        for arith in ["f64", "certified", "mpi:64"] {
            let mut a = vec![OsString::from("laws"), file.clone().into()];
            a.extend(os(&["--arith", arith]));
            cases.push(case(json(rng, a)));
        }
    }
    cases
}

/// Step files for `step --system`. The TREX files are left out: with 8 coordinates and
/// programs of about 1,800 operations, their certified runs at the fuzzed steps (dt up to
/// 1/3) take 15–30 s before stopping undecided, past the hang limit without hanging
/// (`tests/it/step_general.rs` runs them).
fn step_cases(dir: &Path, scale: usize, rng: &mut Rng) -> Vec<Case> {
    let bases: Vec<(String, String)> = examples("examples/step")
        .into_iter()
        .filter(|(name, _)| !name.starts_with("trex-"))
        .collect();
    let mut cases = Vec::new();
    for (i, (name, text)) in bases
        .iter()
        .cycle()
        .take(bases.len() * 150 * scale)
        .enumerate()
    {
        let file = dir.join(format!("step-{i}-{name}.toml"));
        std::fs::write(&file, mutate(text, rng)).unwrap();
        let mut a = vec![OsString::from("step"), "--system".into(), file.into()];
        a.extend(os(&[
            "--dt",
            rng.pick(&["1/10", "1/3", "1e-300", "1e300", "0.1"]),
            "--steps",
            rng.pick(&["1", "5", "20", "100"]),
            "--law",
            rng.pick(&["elastic", "plastic"]),
            "--arith",
            rng.pick(&["quadratic", "exact", "f64", "interval", "mpi:128"]),
        ]));
        cases.push(case(json(rng, a)));
    }
    cases
}

/// One record line of `regress`, mutated.
fn record(rng: &mut Rng, scenarios: &[String]) -> String {
    let v = |rng: &mut Rng, n: usize| -> String {
        (0..n)
            .map(|_| {
                rng.pick(&[
                    "1",
                    "0",
                    "-1",
                    "0.5",
                    "1e300",
                    "-1e300",
                    "1e-300",
                    "1.7e308",
                    "\"-1/3\"",
                    "\"x\"",
                    "null",
                    "true",
                    "[]",
                    "0.3333333333333333",
                ])
                .to_string()
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let scenario = rng.pick(scenarios);
    let n = rng.pick(&[2usize, 3, 3, 3, 5, 0, 64]);
    let mut fields = vec![
        format!("\"id\":\"r{}\"", rng.below(1000)),
        format!(
            "\"engine\":{{\"name\":\"{}\"}}",
            rng.pick(&["e", "", "é", "x\ty"])
        ),
        format!("\"scenario\":{scenario}"),
        format!("\"output\":{{\"v\":[{}]}}", v(rng, n)),
    ];
    match rng.below(8) {
        0 => {
            let k = rng.below(4);
            let (a, b) = (v(rng, n), v(rng, k));
            fields.push(format!("\"output\":{{\"v\":[{a}],\"impulses\":[{b}]}}"));
        }
        1 => fields.push(format!("\"input\":{{\"v\":[{}]}}", v(rng, n))),
        2 => {
            fields.remove(rng.below(fields.len()));
        }
        3 => fields.push("\"unknown\":{\"deep\":[[[[[[1]]]]]]}".into()),
        _ => {}
    }
    let line = format!("{{{}}}", fields.join(","));
    if rng.chance(0.05) {
        String::from_utf8_lossy(&line.as_bytes()[..rng.below(line.len())]).into_owned()
    } else {
        line
    }
}

/// Records files (JSON lines and CSV) for `regress`.
fn records_cases(dir: &Path, scale: usize, rng: &mut Rng) -> Vec<Case> {
    let sys = dir.join("systems");
    std::fs::create_dir_all(&sys).unwrap();
    let mut scenarios: Vec<String> = Vec::new();
    for (name, text) in examples("examples/systems") {
        std::fs::write(sys.join(format!("{name}.toml")), &text).unwrap();
        scenarios.push(format!("{{\"file\":\"systems/{name}.toml\"}}"));
        std::fs::write(sys.join(format!("{name}-hostile.toml")), mutate(&text, rng)).unwrap();
        scenarios.push(format!("{{\"file\":\"systems/{name}-hostile.toml\"}}"));
    }
    scenarios.extend(
        [
            r#"{"file":"/dev/zero"}"#,
            r#"{"file":"fifo"}"#,
            r#"{"file":"systems"}"#,
            r#"{"file":"missing.toml"}"#,
            r#"{"file":"systems/cradle3.toml","restitution":"1e-300"}"#,
            r#"{"file":"systems/cradle3.toml","masses":["1","1e-300","1"]}"#,
            r#"{"file":"systems/corner-pi4.toml","velocity":["1e300","1"]}"#,
            r#"{"name":"inline","coordinates":["x"],"masses":["1"],"velocity":["-1"],"contact":[{"name":"w","normal":["1"]}]}"#,
            r#""cradle3""#,
            r#"17"#,
        ]
        .map(String::from),
    );
    let mut cases = Vec::new();
    for i in 0..500 * scale {
        let csv = rng.chance(0.2);
        let file = dir.join(format!("rec-{i}.{}", if csv { "csv" } else { "jsonl" }));
        let long = rng.chance(0.05);
        let lines = 1 + rng.below(if long { 2000 } else { 6 });
        let text = if csv {
            let mut t = String::from(rng.pick(&[
                "id,engine,scenario,v1,v2,v3\n",
                "engine,scenario,v1,v2\n",
                "id,engine,scenario,v1,v2,v3,extra\n",
                "\n",
            ]))
            .to_string();
            for _ in 0..lines {
                t += &format!(
                    "r,e,{},{},{},{}\n",
                    rng.pick(&["systems/cradle3.toml", "/dev/zero", "missing.toml", ""]),
                    rng.pick(&["1", "-1/3", "1e300", "x", ""]),
                    rng.pick(&["0", "1e-300", "\"1,2\""]),
                    rng.pick(&["0", "1.8e308", ""]),
                );
            }
            t
        } else {
            (0..lines)
                .map(|_| record(rng, &scenarios))
                .collect::<Vec<_>>()
                .join("\n")
        };
        std::fs::write(&file, text).unwrap();
        let a = vec![OsString::from("regress"), file.into()];
        cases.push(case(json(rng, a)));
    }
    cases
}

/// FIFOs, devices, directories, symlinks to devices, missing, empty and binary files,
/// given to every command that reads a file.
fn special_cases(dir: &Path) -> Vec<Case> {
    let fifo = dir.join("fifo");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(status.success());
    let link = dir.join("zero-link.toml");
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    let empty = dir.join("empty.toml");
    std::fs::write(&empty, "").unwrap();
    let binary = dir.join("binary.toml");
    std::fs::write(
        &binary,
        (0..=255u8).cycle().take(100_000).collect::<Vec<_>>(),
    )
    .unwrap();
    let specials: Vec<PathBuf> = vec![
        fifo,
        link,
        empty,
        binary,
        dir.to_path_buf(),
        dir.join("missing.toml"),
        "/dev/zero".into(),
        "/dev/urandom".into(),
        "/dev/null".into(),
    ];
    let mut cases = Vec::new();
    for p in &specials {
        let p: OsString = p.clone().into();
        let forms: Vec<Vec<OsString>> = vec![
            vec!["laws".into(), p.clone()],
            vec!["laws".into(), p.clone(), "--arith".into(), "f64".into()],
            vec!["regress".into(), p.clone()],
            vec![
                "regress".into(),
                p.clone(),
                "--format".into(),
                "json".into(),
            ],
            os(&[
                "step", "--dt", "1/10", "--steps", "3", "--law", "elastic", "--arith", "exact",
                "--system",
            ])
            .into_iter()
            .chain([p.clone()])
            .collect(),
            vec!["verify".into(), p.clone()],
            vec!["check".into(), p.clone()],
            vec!["audit".into(), "merge".into(), p.clone()],
        ];
        cases.extend(forms.into_iter().map(case));
    }
    cases
}

/// Shard directories for `audit merge`: complete, truncated, mixed, symlinked to devices.
fn shard_cases(dir: &Path) -> Vec<Case> {
    let bin = env!("CARGO_BIN_EXE_impactkit");
    let run = |name: &str, shard: &str, alpha: &str| -> PathBuf {
        let out = dir.join(name);
        let st = std::process::Command::new(bin)
            .args([
                "audit",
                "corner",
                "--alpha",
                alpha,
                "--direction",
                "0..1",
                "--speed",
                "1",
                "--eps",
                "1",
                "--samples",
                "40",
                "--jobs",
                "1",
                "--shard",
                shard,
                "--out",
            ])
            .arg(&out)
            .output()
            .expect("audit runs");
        assert!(
            st.status.success(),
            "{}",
            String::from_utf8_lossy(&st.stderr)
        );
        out
    };
    let a0 = run("a0", "0/2", "pi/4");
    let a1 = run("a1", "1/2", "pi/4");
    let b1 = run("b1", "1/2", "pi/6");
    let copy = |from: &Path, name: &str| -> PathBuf {
        let to = dir.join(name);
        std::fs::create_dir_all(&to).unwrap();
        for f in ["audit.json", "samples.jsonl"] {
            std::fs::copy(from.join(f), to.join(f)).unwrap();
        }
        to
    };
    let cut = copy(&a1, "cut");
    let s = std::fs::read(cut.join("samples.jsonl")).unwrap();
    std::fs::write(cut.join("samples.jsonl"), &s[..s.len() / 2]).unwrap();
    let half = copy(&a1, "half");
    let s = std::fs::read_to_string(half.join("samples.jsonl")).unwrap();
    let keep: String = s.lines().take(3).map(|l| format!("{l}\n")).collect();
    std::fs::write(half.join("samples.jsonl"), keep).unwrap();
    let zero_summary = copy(&a1, "zero-summary");
    std::fs::remove_file(zero_summary.join("audit.json")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", zero_summary.join("audit.json")).unwrap();
    let zero_samples = copy(&a1, "zero-samples");
    std::fs::remove_file(zero_samples.join("samples.jsonl")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", zero_samples.join("samples.jsonl")).unwrap();
    let no_summary = copy(&a1, "no-summary");
    std::fs::remove_file(no_summary.join("audit.json")).unwrap();
    let garbage = copy(&a1, "garbage");
    std::fs::write(garbage.join("audit.json"), "{\"config\": 17}").unwrap();
    let merged = dir.join("merged");
    let mut cases = Vec::new();
    for second in [
        &a1,
        &b1,
        &cut,
        &half,
        &zero_summary,
        &zero_samples,
        &no_summary,
        &garbage,
        &a0,
    ] {
        cases.push(case(vec![
            "audit".into(),
            "merge".into(),
            a0.clone().into(),
            second.into(),
        ]));
        cases.push(case(vec![
            "audit".into(),
            "merge".into(),
            a0.clone().into(),
            second.into(),
            "--out".into(),
            merged.clone().into(),
            "--format".into(),
            "json".into(),
        ]));
    }
    cases.push(case(vec!["audit".into(), "merge".into(), a0.into()]));
    cases.push(case(os(&["audit", "merge"])));
    cases
}

#[test]
fn fuzz_files_contract() {
    let scale = env_num("IMPACTKIT_FUZZ_FILES").unwrap_or(1) as usize;
    let seed = env_num("IMPACTKIT_FUZZ_FILES_SEED").unwrap_or(0x1357_9bdf_2468_ace0) | 1;
    let workers = env_num("IMPACTKIT_FUZZ_WORKERS").unwrap_or(2) as usize;
    let verbose = std::env::var_os("IMPACTKIT_FUZZ_VERBOSE").is_some();
    let dir = std::env::temp_dir().join(format!("impactkit-fuzz-files-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(seed);
    let mut cases = special_cases(&dir);
    cases.extend(shard_cases(&dir));
    cases.extend(system_cases(&dir, scale, &mut rng));
    cases.extend(step_cases(&dir, scale, &mut rng));
    cases.extend(records_cases(&dir, scale, &mut rng));
    assert!(cases.len() >= 3000, "{} cases", cases.len());
    eprintln!("files: {} cases in {}", cases.len(), dir.display());
    if let Ok(only) = std::env::var("IMPACTKIT_FUZZ_ONLY") {
        let ix: Vec<usize> = only
            .split(',')
            .filter_map(|x| x.trim().parse().ok())
            .collect();
        cases = ix.iter().map(|&i| cases[i].clone()).collect();
    }
    let batch = run_batch("files", &cases, workers, verbose);
    summary("files", &cases, &batch);
    // IMPACTKIT_FUZZ_KEEP=1 keeps the generated files to reproduce a violation
    if std::env::var_os("IMPACTKIT_FUZZ_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    let all: Vec<_> = batch.violations.iter().collect();
    assert!(all.is_empty(), "{}", failure_message(&all));
}
