//! The README's examples work as written: every `$ impactkit ...` line in a ```console
//! block is run, and its output must equal the lines that follow it.

use std::process::Command;

/// Splits a command line on spaces, honouring double quotes.
fn split_args(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[test]
fn readme_examples_work_as_written() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let mut in_console = false;
    let mut cases: Vec<(String, Vec<String>)> = Vec::new();
    for line in readme.lines() {
        if line.starts_with("```console") {
            in_console = true;
        } else if line.starts_with("```") {
            in_console = false;
        } else if in_console {
            if let Some(cmd) = line.strip_prefix("$ impactkit ") {
                cases.push((cmd.to_string(), Vec::new()));
            } else if let Some(last) = cases.last_mut() {
                last.1.push(line.to_string());
            }
        }
    }
    assert!(cases.len() >= 5, "README has its examples");
    for (cmd, expected) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_impactkit"))
            .args(split_args(&cmd))
            .output()
            .unwrap();
        let got = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            got.trim_end(),
            expected.join("\n"),
            "README example: impactkit {cmd}"
        );
    }
}

/// The README's claims block is exactly what `impactkit verify proofs --format markdown`
/// prints now (regenerate it when a verdict changes; every change is reviewed), and every
/// refuted claim has a plain-words paragraph after it.
#[test]
fn readme_claims_table_matches_the_engine() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme.find("<!-- claims-table -->\n").expect("table start")
        + "<!-- claims-table -->\n".len();
    let end = readme.find("<!-- /claims-table -->").expect("table end");
    let out = Command::new(env!("CARGO_BIN_EXE_impactkit"))
        .args([
            "verify",
            "proofs",
            "--format",
            "markdown",
            "--budget-seconds",
            "120",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let md = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        readme[start..end].trim_end(),
        md.trim_end(),
        "README claims block vs impactkit verify proofs --format markdown"
    );
    let plain = &readme[end..];
    for line in md.lines().filter(|l| l.ends_with("| **refuted** |")) {
        let id = line.split('`').nth(1).unwrap();
        assert!(
            plain.contains(&format!("- `{id}` —")),
            "no plain-words paragraph for the refuted claim {id}"
        );
    }
}
