//! The claims engine's layout (issue 58): the modules of `src/claims` form no import
//! circle, and the checker's trusted base (`check/` and everything it reaches) never
//! reaches the prover (`prove/`) or the engine that runs it (`claims/mod.rs`).
//!
//! A module's imports are read from its source (comments and `#[cfg(test)]` modules left
//! out): every path `crate::claims::…`, `super::…`, `self::…` or `child::…` (a module it
//! declares), resolved to the longest module it names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module path (`""` for `claims`, `check/cells`, …) → source file.
fn modules() -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/claims");
    let mut files = Vec::new();
    walk(&root, &mut files);
    files
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(&root).unwrap().with_extension("");
            let mut parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into()).collect();
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            (parts.join("/"), f)
        })
        .collect()
}

/// The source without comments and without its `#[cfg(test)]` part (tests come last).
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths written in `code`: each a list of `::`-separated segments (a `{a, b}` group
/// gives one path per member).
fn paths(code: &str) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !ident(chars[i]) || (i > 0 && (ident(chars[i - 1]) || chars[i - 1] == ':')) {
            i += 1;
            continue;
        }
        let mut segs = Vec::new();
        let mut j = i;
        loop {
            let s = j;
            while j < chars.len() && ident(chars[j]) {
                j += 1;
            }
            segs.push(chars[s..j].iter().collect::<String>());
            if chars.get(j) == Some(&':') && chars.get(j + 1) == Some(&':') {
                j += 2;
                if chars.get(j) == Some(&'{') {
                    let end = chars[j..]
                        .iter()
                        .position(|&c| c == '}')
                        .map_or(j, |e| j + e);
                    let inner: String = chars[j + 1..end].iter().collect();
                    for member in inner.split(',') {
                        let mut p = segs.clone();
                        p.extend(member.trim().split("::").map(|s| s.trim().to_string()));
                        out.push(p);
                    }
                    j = end;
                    break;
                }
                if j < chars.len() && ident(chars[j]) {
                    continue;
                }
            }
            if segs.len() > 1 {
                out.push(segs);
            }
            break;
        }
        i = j.max(i + 1);
    }
    out
}

/// The module graph: module → the other modules of `src/claims` it imports from.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules();
    let mut g = BTreeMap::new();
    for (m, file) in &mods {
        let me: Vec<&str> = m.split('/').filter(|s| !s.is_empty()).collect();
        let is_dir = file.ends_with("mod.rs");
        let text = code(&std::fs::read_to_string(file).unwrap());
        let mut to = BTreeSet::new();
        for p in paths(&text) {
            let (mut at, rest): (Vec<String>, &[String]) = match p[0].as_str() {
                "crate" if p.get(1).is_some_and(|s| s == "claims") => (vec![], &p[2..]),
                "super" => {
                    let ups = p.iter().take_while(|s| *s == "super").count();
                    let base = &me[..me.len().saturating_sub(ups)];
                    (base.iter().map(|s| s.to_string()).collect(), &p[ups..])
                }
                "self" => (me.iter().map(|s| s.to_string()).collect(), &p[1..]),
                first if is_dir => {
                    let mut child: Vec<String> = me.iter().map(|s| s.to_string()).collect();
                    child.push(first.to_string());
                    if !mods.contains_key(&child.join("/")) {
                        continue;
                    }
                    (child, &p[1..])
                }
                _ => continue,
            };
            for s in rest {
                let mut next = at.clone();
                next.push(s.clone());
                if !mods.contains_key(&next.join("/")) {
                    break;
                }
                at = next;
            }
            let target = at.join("/");
            if target != *m && mods.contains_key(&target) {
                to.insert(target);
            }
        }
        g.insert(m.clone(), to);
    }
    g
}

/// Every module reachable from `start` (itself included).
fn reach(g: &BTreeMap<String, BTreeSet<String>>, start: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::from([start.to_string()]);
    let mut todo = vec![start.to_string()];
    while let Some(m) = todo.pop() {
        for n in &g[&m] {
            if seen.insert(n.clone()) {
                todo.push(n.clone());
            }
        }
    }
    seen
}

fn shown(m: &str) -> &str {
    if m.is_empty() {
        "claims (the engine)"
    } else {
        m
    }
}

#[test]
fn the_claims_engine_has_no_import_circle() {
    let g = graph();
    // a module that reaches itself is on a circle
    let circles: Vec<String> = g
        .keys()
        .filter(|m| g[*m].iter().any(|n| reach(&g, n).contains(*m)))
        .map(|m| {
            let back: Vec<&str> = g[m]
                .iter()
                .filter(|n| reach(&g, n).contains(m))
                .map(|n| shown(n))
                .collect();
            format!("{} <-> {}", shown(m), back.join(", "))
        })
        .collect();
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_checker_reaches_neither_the_prover_nor_the_engine() {
    let g = graph();
    assert!(g.len() > 30, "the module graph was not read: {g:?}");
    // the graph sees the engine's own imports (a reader that saw nothing would pass)
    assert!(
        g[""].contains("prove") && g[""].contains("check"),
        "{:?}",
        g[""]
    );
    assert!(g["check"].contains("claim"), "{:?}", g["check"]);
    let base = reach(&g, "check");
    let bad: Vec<&String> = base
        .iter()
        .filter(|m| m.is_empty() || *m == "prove" || m.starts_with("prove/"))
        .collect();
    assert!(
        bad.is_empty(),
        "check reaches {bad:?} (trusted base: {base:?})"
    );
    for m in ["claim", "certificate", "probes", "exact", "reduction"] {
        assert!(
            !reach(&g, m)
                .iter()
                .any(|x| x == "prove" || x.starts_with("prove/")),
            "{m} reaches the prover"
        );
    }
}

/// The trusted base's size: the lines of `check/` and of every module of `src/claims` it
/// reaches (printed with `--nocapture`; stated in docs/verify.md).
#[test]
fn the_trusted_base_is_stated() {
    let g = graph();
    let mods = modules();
    let base = reach(&g, "check");
    let lines = |m: &String| std::fs::read_to_string(&mods[m]).unwrap().lines().count();
    let total: usize = base.iter().map(lines).sum();
    let all: usize = mods.keys().map(lines).sum();
    println!(
        "trusted base: {total} of {all} lines of src/claims in {} modules: {:?}",
        base.len(),
        base
    );
    assert!(total < all && base.contains("claim") && base.contains("certificate"));
}
