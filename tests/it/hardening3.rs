//! Issue 63, item 2: `verify`'s walk. Inside a directory, links to directories are not
//! followed (a cycle cannot arise), a file named twice is read once,
//! a duplicate id names both files, long paths are elided in messages, and an id with a
//! control character (NUL, newline) is refused with exit 2 and one line.

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
