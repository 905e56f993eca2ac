//! Issue 63, item 2: `verify`'s walk. Inside a directory, links to directories are not
//! followed (a cycle cannot arise), a file named twice is read once,
//! a duplicate id names both files, long paths are elided in messages, and an id with a
//! control character (NUL, newline) is refused with exit 2 and one line. Then D2, D4, D7
//! (number fields, the work of an inversion, outputs), D6 (threads), D11, D12, D13, D15, D16
//! (what an exact backend decides, `certified` decides).

use crate::common::{bad, run, tempdir};
use std::path::{Path, PathBuf};

/// A fresh, existing temporary directory ([`tempdir`], created).
fn scratch(name: &str) -> PathBuf {
    let d = tempdir(&format!("h3-{name}"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// An identity of the catalogue (decided in milliseconds), with its id replaced.
fn claim_text(id: &str) -> String {
    let t = std::fs::read_to_string("proofs/pq/pq-corner-beta.toml").unwrap();
    t.replacen("id = \"pq-corner-beta\"", &format!("id = \"{id}\""), 1)
}

fn verified_ids(args: &[&str]) -> Vec<String> {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["claims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn links_to_directories_inside_a_directory_are_not_followed() {
    let d = scratch("links");
    std::fs::write(d.join("a.toml"), claim_text("h3-a")).unwrap();
    let outside = scratch("links-outside");
    std::fs::write(outside.join("b.toml"), claim_text("h3-b")).unwrap();
    std::fs::write(outside.join("c.toml"), claim_text("h3-c")).unwrap();
    // a cycle, a link to /proc/self (whose fd/ links lead anywhere) and a linked directory
    // are not followed; a linked claim file is read
    std::os::unix::fs::symlink(".", d.join("self")).unwrap();
    std::os::unix::fs::symlink("/proc/self", d.join("proc")).unwrap();
    std::os::unix::fs::symlink(&outside, d.join("out")).unwrap();
    std::os::unix::fs::symlink(outside.join("b.toml"), d.join("b.toml")).unwrap();
    let t = std::time::Instant::now();
    let ids = verified_ids(&["verify", s(&d), "--format", "json"]);
    assert_eq!(ids, ["h3-a", "h3-b"]);
    assert!(t.elapsed().as_secs() < 10);
    // a link named on the command line is followed: the user asked for it
    let ids = verified_ids(&["verify", s(&d.join("out")), "--format", "json"]);
    assert_eq!(ids, ["h3-b", "h3-c"]);
    // the same file named twice (or through a link) is read once
    let ids = verified_ids(&[
        "verify",
        s(&d),
        s(&d.join("a.toml")),
        s(&d.join("self/a.toml")),
        s(&outside.join("b.toml")),
        "--format",
        "json",
    ]);
    assert_eq!(ids, ["h3-a", "h3-b"]);
    let _ = std::fs::remove_dir_all(&d);
    let _ = std::fs::remove_dir_all(&outside);
}

#[test]
fn a_duplicate_id_names_both_files() {
    let d = scratch("dup");
    std::fs::write(d.join("a.toml"), claim_text("h3-same")).unwrap();
    std::fs::write(d.join("b.toml"), claim_text("h3-same")).unwrap();
    let err = bad(&["verify", s(&d)]);
    assert!(
        err.contains("duplicate claim id \"h3-same\"")
            && err.contains("a.toml and ")
            && err.contains("b.toml"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn control_characters_in_an_id_are_refused() {
    let d = scratch("nul");
    for (name, id) in [
        ("nul", "a\\u0000b"),
        ("newline", "a\\nb"),
        ("escape", "a\\u001b[31mb"),
    ] {
        let f = d.join(format!("{name}.toml"));
        std::fs::write(&f, claim_text(id)).unwrap();
        let err = bad(&["verify", s(&f)]);
        assert!(
            err.contains("id: the control character U+"),
            "{name}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn long_paths_are_elided_in_messages() {
    let d = scratch("long");
    let mut deep = d.clone();
    for i in 0..12 {
        deep = deep.join(format!("a-rather-long-directory-name-{i}"));
    }
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(deep.join("broken.toml"), "id = ").unwrap();
    let err = bad(&["verify", s(&d)]);
    assert!(err.contains('…') && err.contains("broken.toml"), "{err}");
    assert!(err.chars().count() < 400, "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Issue 63, D13: `system cradle` writes only files that `laws` accepts (a system has at
/// most 32 contacts).
#[test]
fn system_cradle_writes_only_files_laws_accepts() {
    let err = bad(&["system", "cradle", "--balls", "64"]);
    assert!(
        err.contains("--balls/--masses: 64 balls") && err.contains("at most 33 balls"),
        "{err}"
    );
    let (code, out, err) = run(&["system", "cradle", "--balls", "33"]);
    assert_eq!(code, 0, "{err}");
    let d = scratch("c33");
    let f = d.join("c33.toml");
    std::fs::write(&f, out).unwrap();
    let (code, _, err) = run(&["laws", s(&f), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Issue 63, D11: the rods' step bound names its option.
#[test]
fn the_rods_step_bound_names_its_option() {
    let err = bad(&[
        "rods",
        "--velocities",
        "2,0,-1",
        "--arith",
        "exact",
        "--max-steps",
        "2",
    ]);
    assert!(
        err.contains("--max-steps") && err.contains("still interact after 2"),
        "{err}"
    );
}

/// D2: values in two number fields the algebraic backend cannot join are bad input
/// naming `--arith` and both fields (they met inside the law, after every option was
/// read); D4: an inversion in a number field is charged to the work limit before it runs.
#[test]
fn algebraic_fields_and_inversions_are_bad_input_not_internal_errors() {
    let err = bad(&[
        "corner",
        "--alpha",
        "pi/7",
        "--v0",
        "cos(pi/9),sin(pi/9)",
        "--eps",
        "sqrt(2)/2",
        "--arith",
        "algebraic",
    ]);
    assert!(
        err.starts_with("error: --arith: ")
            && err.contains("Q(cos(pi/28)) and Q(cos(pi/9))")
            && !err.contains("internal"),
        "{err}"
    );
    // the extended Euclid in Q(cos(pi/64)) (degree 32) on a 100,000-bit coefficient
    // would run for minutes: refused at once
    let err = bad(&["eval", "1/(cos(pi/64)-2^100000)", "--arith", "algebraic"]);
    assert!(err.contains("work limit"), "{err}");
    let err = bad(&["eval", "(cos(pi/64)-2^100000)^-1", "--arith", "algebraic"]);
    assert!(err.contains("work limit"), "{err}");
    // a small one is computed: 1/(cos(pi/64) - 2^1000) = -2^-1000 (1 + O(2^-1000))
    let (code, out, err) = run(&["eval", "1/(cos(pi/64)-2^1000)", "--arith", "algebraic"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("-9.3326361850321887899e-302"), "{out}");
}

/// An audit of the corner (its samples and output folder added by each test).
const AUDIT: [&str; 8] = [
    "audit",
    "corner",
    "--alpha",
    "pi/6",
    "--direction",
    "1/10..7/5",
    "--eps",
    "1/2",
];

/// D7: an output folder that cannot be made is refused before the work; every file is
/// complete or absent (no temporary name left behind); an interrupted audit's folder is
/// marked INCOMPLETE and `audit merge` refuses it.
#[test]
fn outputs_are_checked_first_and_written_whole() {
    let d = scratch("outputs");
    let file = d.join("a-file");
    std::fs::write(&file, "").unwrap();
    let t = std::time::Instant::now();
    for opt in ["--certificates", "--smtlib", "--coq", "--html"] {
        let err = bad(&["verify", "proofs", opt, s(&file.join("sub"))]);
        assert!(
            err.contains(opt) && err.contains("Not a directory"),
            "{err}"
        );
    }
    // refused before the catalogue's minute of work
    assert!(t.elapsed().as_secs() < 20);
    let certs = d.join("certs");
    let (code, _, err) = run(&[
        "verify",
        "proofs/pq/pq-corner-beta.toml",
        "--certificates",
        s(&certs),
    ]);
    assert_eq!(code, 0, "{err}");
    let svg = d.join("fig.svg");
    let (code, _, err) = run(&[
        "corner",
        "--alpha",
        "pi/6",
        "--v0",
        "1,3/10",
        "--eps",
        "1/2",
        "--svg",
        s(&svg),
    ]);
    assert_eq!(code, 0, "{err}");
    let audit = d.join("audit");
    let (code, _, err) = run(&[&AUDIT[..], &["--samples", "50", "--out", s(&audit)]].concat());
    assert_eq!(code, 0, "{err}");
    let names = |dir: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(&certs), ["pq-corner-beta.json"]);
    assert_eq!(names(&d), ["a-file", "audit", "certs", "fig.svg"]);
    assert_eq!(
        names(&audit),
        ["audit.json", "map.png", "map.svg", "samples.jsonl"]
    );
    assert!(std::fs::read_to_string(&svg)
        .unwrap()
        .trim_end()
        .ends_with("</svg>"));
    // a run stopped before its shard was complete leaves the marker
    std::fs::write(audit.join("INCOMPLETE"), "").unwrap();
    let err = bad(&["audit", "merge", s(&audit)]);
    assert!(err.contains("incomplete"), "{err}");
}

/// D6: `--jobs 1024` (the documented maximum) under a 4 GB address-space cap starts at
/// most four threads per core and completes; it aborted while starting its threads.
#[test]
fn jobs_are_clamped_to_what_the_machine_can_start() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let bin = env!("CARGO_BIN_EXE_impactkit");
    let capped = |args: &str| {
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!("ulimit -v 4000000; exec {bin} {args}"))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        (
            out.status.code(),
            text,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, err) = capped(
        "audit corner --alpha pi/6 --direction 0..1 --eps 1/2 --samples 200 --jobs 1024 --timing",
    );
    assert_eq!(code, Some(0), "{err}");
    let threads: usize = out
        .split(" on ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(threads <= 4 * cores, "{out}");
    let (code, _, err) = capped("regress examples/engines/records/pymunk.jsonl --jobs 1024");
    assert_eq!(code, Some(0), "{err}");
}

/// D15, D16: what `exact`, `quadratic` or `algebraic` decides, the default `certified`
/// decides too: two square roots of different fields are a number of Q(cos(pi/12)), and a
/// COR 1 - 1e-300 lies in [0, 1] although f64 enclosures cannot tell.
#[test]
fn certified_climbs_past_field_mismatches_and_unsettled_checks() {
    let (code, out, err) = run(&["eval", "sqrt(2)+sqrt(3)", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["arith"], "algebraic", "{out}");
    // the same value as the enclosure: 3.14626436994197234232913506571557044551...
    let (_, text, _) = run(&["eval", "sqrt(2)+sqrt(3)"]);
    assert!(text.starts_with("3.14626436994197234"), "{text}");
    let (code, out, err) = run(&[
        "corner", "--alpha", "pi/4", "--v0", "1,1/2", "--eps", "1-1e-300",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("zones: Z12 Z0") && out.contains("certified by"),
        "{out}"
    );
    // on one backend that cannot decide it, the check stays bad input naming the option
    let err = bad(&[
        "corner", "--alpha", "pi/4", "--v0", "1,1/2", "--eps", "1-1e-300", "--arith", "interval",
    ]);
    assert!(err.contains("--eps") && err.contains("undecided"), "{err}");
}

/// D12: a penny whose Gram matrix is singular only in `f64`'s rounding names its
/// parameters; `mpi:128` (the default) runs it.
#[test]
fn a_badly_scaled_penny_names_its_parameters() {
    let args = [
        "penny",
        "run",
        "--law",
        "elastic",
        "--impacts",
        "3",
        "--inertia",
        "1e-300",
    ];
    let mut f64_args = args.to_vec();
    f64_args.extend(["--arith", "f64"]);
    let err = bad(&f64_args);
    assert!(
        err.contains("--inertia") && err.contains("linearly dependent"),
        "{err}"
    );
    let (code, _, err) = run(&args);
    assert_eq!(code, 0, "{err}");
}

/// Found by `fuzz_surfaces` (fields): two values of the quadratic backend's two fields
/// that first met inside the evaluator (sin(atan(√2)) = √2/√3) or inside a penny run (a
/// rate 1/√5 and the heading φ₀ = 2π/3, whose sine is √3/2) were an internal error; they
/// are bad input naming the options, and `algebraic` computes them.
#[test]
fn quadratic_fields_meeting_inside_a_computation_are_bad_input() {
    let err = bad(&["eval", "sin(atan(sqrt(2)))", "--arith", "quadratic"]);
    assert!(
        err.contains("sqrt(2)") && err.contains("sqrt(3)") && !err.contains("internal"),
        "{err}"
    );
    let (code, out, err) = run(&["eval", "sin(atan(sqrt(2)))", "--arith", "algebraic"]);
    assert_eq!(code, 0, "{err}");
    // √(2/3) = 0.81649658092772603273...
    assert!(out.starts_with("0.816496580927726032"), "{out}");
    let penny = [
        "penny",
        "run",
        "--table",
        "circle",
        "--law",
        "plastic",
        "--impacts",
        "1",
        "--rates",
        "1/sqrt(5),0",
        "--phi0",
        "2*pi/3",
        "--arith",
    ];
    let err = bad(&[&penny[..], &["quadratic"]].concat());
    assert!(
        err.starts_with("error: --x0/--y0/--theta0/--phi0/--rates: ") && err.contains("sqrt(5)"),
        "{err}"
    );
    let (code, _, err) = run(&[&penny[..], &["algebraic"]].concat());
    assert_eq!(code, 0, "{err}");
}

/// Found by `fuzz_surfaces` (faults): ^C leaves no temporary file behind. An audit stopped
/// while it computes exits 130 and keeps its folder marked INCOMPLETE, with nothing else
/// in it; the handler removes the temporary files being written.
#[test]
fn an_interrupted_run_leaves_its_marker_and_no_temporary_file() {
    let d = scratch("sigint");
    let out = d.join("audit");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_impactkit"))
        .args(AUDIT)
        .args(["--samples", "2000000", "--out", s(&out)])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // the folder is made and marked before the work
    let t = std::time::Instant::now();
    while !out.join("INCOMPLETE").exists() && t.elapsed().as_secs() < 20 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    // SAFETY: a signal to our own child, not yet reaped
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["INCOMPLETE"]);
    let err = bad(&["audit", "merge", s(&out)]);
    assert!(err.contains("incomplete"), "{err}");
}
