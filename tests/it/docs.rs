//! The README and the guides under `docs/` work as written: every `$ impactkit ...` line in
//! a ```console block is run, and its output must equal the lines that follow it; the
//! claims catalogue `docs/claims.md` is what the engine prints now; every relative link
//! points to a file of the repository.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root.
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The README's limit in lines: the rest belongs in `docs/`.
const README_MAX_LINES: usize = 250;

/// `README.md`, then every `docs/*.md` in sorted order.
fn doc_files() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/docs"))
        .expect("docs/ is readable")
        .map(|entry| entry.expect("an entry of docs/").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    let mut files = vec![Path::new(ROOT).join("README.md")];
    files.extend(docs);
    files
}

/// The text of a file, or a panic naming it.
fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A file's path relative to the repository, for messages.
fn name(path: &Path) -> String {
    path.strip_prefix(ROOT)
        .unwrap_or(path)
        .display()
        .to_string()
}

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

/// The examples of the ```console blocks of `text`: each line starting with
/// `$ impactkit ` is a command, and the lines after it up to the next command or the end
/// of the block are its expected output.
fn console_cases(text: &str) -> Vec<(String, Vec<String>)> {
    let mut in_console = false;
    let mut cases: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
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
    cases
}

/// Runs `impactkit` from the repository's root with the arguments of `cmd`: its standard
/// output followed by its standard error.
fn run_impactkit(cmd: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_impactkit"))
        .args(split_args(cmd))
        .current_dir(ROOT)
        .output()
        .unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs the console examples of one file; returns how many there were.
fn check_examples(file: &Path) -> usize {
    let cases = console_cases(&read(file));
    let count = cases.len();
    for (cmd, expected) in cases {
        let got = run_impactkit(&cmd);
        assert_eq!(
            got.trim_end(),
            expected.join("\n"),
            "{}: example impactkit {cmd}",
            name(file)
        );
    }
    count
}

#[test]
fn readme_examples_work_as_written() {
    let readme = read(&Path::new(ROOT).join("README.md"));
    let lines = readme.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, at most {README_MAX_LINES}: move the rest to docs/"
    );
    assert!(
        console_cases(&readme).len() >= 3,
        "README.md has its quick-start examples"
    );
    let mut total = 0;
    for file in doc_files() {
        total += check_examples(&file);
    }
    assert!(total >= 5, "the docs have their examples");
}

/// The targets of the Markdown links `](target)` of `text`.
fn link_targets(text: &str) -> Vec<&str> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.find(')').map(|end| &rest[..end]))
        .collect()
}

/// The file a link target names, relative to the linking file: `None` for a URL or a
/// pure `#anchor`; a `#fragment` is stripped.
fn relative_path(target: &str) -> Option<&str> {
    if target.is_empty() || target.starts_with("http") || target.starts_with('#') {
        return None;
    }
    target.split('#').next()
}

#[test]
fn docs_links_point_to_files_of_the_repository() {
    for file in doc_files() {
        let text = read(&file);
        assert!(
            !text.contains("../shared"),
            "{} mentions ../shared, which a clone does not have",
            name(&file)
        );
        let dir = file.parent().expect("a file has a directory");
        for target in link_targets(&text) {
            if let Some(path) = relative_path(target) {
                assert!(
                    dir.join(path).exists(),
                    "{}: the link ]({target}) points to no file",
                    name(&file)
                );
            }
        }
    }
}
