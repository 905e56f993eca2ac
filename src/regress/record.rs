//! Simulator records (JSON lines or CSV) and the systems they name.
//!
//! JSON lines, one record per line (schema: `examples/engines/record.schema.json`):
//! `{"id": .., "scenario": {"file": "cradle5.toml", ..overrides} | {..system..},
//!   "engine": {"name": .., "version": .., "params": {..}},
//!   "output": {"v": [..], "contacts": [..], "impulses": [..]},
//!   "expect": {"law": "newton-touching", "tolerance": 1e-6}}`.
//!
//! CSV (simple cases), a header line then one record per line, no quoting:
//! `id,engine,version,file,v,expect_law,tolerance` with `v` the velocity components
//! separated by spaces; `id`, `version`, `expect_law` and `tolerance` may be empty.

use crate::system::file::SystemFile;
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The engine that produced a record.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Engine {
    pub name: String,
    #[serde(default)]
    pub version: Option<String>,
    #[serde(default)]
    pub params: Option<serde_json::Value>,
}

/// What the engine computed.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Output {
    /// The post-impact generalized velocity, in the system's coordinates.
    pub v: Vec<f64>,
    /// Contact names in the order the engine reported impulses.
    #[serde(default)]
    pub contacts: Option<Vec<String>>,
    #[serde(default)]
    pub impulses: Option<Vec<f64>>,
}

/// An expectation: the output lies within `tolerance` (max norm) of `law`'s outcome.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    pub law: String,
    pub tolerance: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecord {
    #[serde(default)]
    id: Option<String>,
    scenario: serde_json::Value,
    engine: Engine,
    output: Output,
    #[serde(default)]
    expect: Option<Expect>,
}

/// One record, its system resolved.
#[derive(Clone, Debug)]
pub struct Record {
    /// 1-based line in the records file.
    pub line: usize,
    pub id: Option<String>,
    pub system: SystemFile,
    /// How the system was named (file, or "inline").
    pub source: String,
    pub engine: Engine,
    pub output: Output,
    pub expect: Option<Expect>,
}

/// A record that could not be read: its line and why.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordError {
    pub line: usize,
    pub reason: String,
}

/// Longest records file read, in bytes.
pub const MAX_BYTES: u64 = crate::input::files::RECORDS.max_bytes;
/// Most records in one file.
pub const MAX_RECORDS: usize = 100_000;

/// The error that takes the place of record `MAX_RECORDS + 1` (at `line`): the limit is
/// a reported stop, never a quiet skip (the run exits 2 with the report).
fn over_limit(line: usize) -> RecordError {
    RecordError {
        line,
        reason: format!(
            "more than {MAX_RECORDS} records in one file: this line and the rest are not read (split the file)"
        ),
    }
}

/// System files read so far, by path.
#[derive(Default)]
struct Files(HashMap<PathBuf, Result<serde_json::Value, String>>);

impl Files {
    fn get(&mut self, path: &Path) -> Result<serde_json::Value, String> {
        self.0
            .entry(path.to_path_buf())
            .or_insert_with(|| {
                let name = path.display().to_string();
                let text = crate::input::files::read_text(path, crate::input::files::SYSTEM)
                    .map_err(|e| format!("scenario file {e}"))?;
                let file = SystemFile::from_toml(&text, &name).map_err(|e| e.to_string())?;
                serde_json::to_value(file).map_err(|e| e.to_string())
            })
            .clone()
    }
}

/// The system of a `scenario` value: a file (relative to `dir`) with inline overrides,
/// or a whole system inline.
fn scenario(
    value: &serde_json::Value,
    dir: &Path,
    files: &mut Files,
) -> Result<(SystemFile, String), String> {
    let serde_json::Value::Object(map) = value else {
        return Err("scenario: must be an object".into());
    };
    let (mut base, source) = match map.get("file") {
        Some(serde_json::Value::String(f)) => (files.get(&dir.join(f))?, f.clone()),
        Some(_) => return Err("scenario.file: must be a string".into()),
        None => (
            serde_json::Value::Object(Default::default()),
            "inline".to_string(),
        ),
    };
    if let serde_json::Value::Object(b) = &mut base {
        // a file with overrides is another scenario: its name says which
        let changed: Vec<String> = map
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "file" | "name"))
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        if map.contains_key("file") && !changed.is_empty() && !map.contains_key("name") {
            if let Some(serde_json::Value::String(name)) = b.get_mut("name") {
                *name = format!("{name} ({})", changed.join(", "));
            }
        }
        for (k, v) in map.iter().filter(|(k, _)| k.as_str() != "file") {
            b.insert(k.clone(), v.clone());
        }
    }
    let file: SystemFile = serde_json::from_value(base).map_err(|e| format!("scenario: {e}"))?;
    Ok((file, source))
}

/// The records of a JSON-lines text; `dir` resolves scenario files.
pub fn parse_jsonl(text: &str, dir: &Path) -> Vec<Result<Record, RecordError>> {
    let mut files = Files::default();
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .take(MAX_RECORDS + 1)
        .enumerate()
        .map(|(k, (i, l))| {
            if k == MAX_RECORDS {
                return Err(over_limit(i + 1));
            }
            let err = |reason: String| RecordError {
                line: i + 1,
                reason: crate::input::one_line(&reason),
            };
            let raw: RawRecord = serde_json::from_str(l).map_err(|e| err(e.to_string()))?;
            let (system, source) = scenario(&raw.scenario, dir, &mut files).map_err(err)?;
            Ok(Record {
                line: i + 1,
                id: raw.id,
                system,
                source,
                engine: raw.engine,
                output: raw.output,
                expect: raw.expect,
            })
        })
        .collect()
}

/// The records of a CSV text (see the module documentation).
pub fn parse_csv(text: &str, dir: &Path) -> Vec<Result<Record, RecordError>> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        return Vec::new();
    };
    let cols: Vec<&str> = header.split(',').map(str::trim).collect();
    let col = |name: &str| cols.iter().position(|c| *c == name);
    let (id, engine, version, file, v, law, tol) = (
        col("id"),
        col("engine"),
        col("version"),
        col("file"),
        col("v"),
        col("expect_law"),
        col("tolerance"),
    );
    let mut files = Files::default();
    lines
        .take(MAX_RECORDS + 1)
        .enumerate()
        .map(|(k, (i, l))| {
            if k == MAX_RECORDS {
                return Err(over_limit(i + 1));
            }
            let err = |reason: String| RecordError {
                line: i + 1,
                reason: crate::input::one_line(&reason),
            };
            let cells: Vec<&str> = l.split(',').map(str::trim).collect();
            let cell = |c: Option<usize>| c.and_then(|c| cells.get(c)).filter(|s| !s.is_empty());
            let (Some(engine), Some(file), Some(v)) = (cell(engine), cell(file), cell(v)) else {
                return Err(err(
                    "a CSV record needs the columns engine, file and v".into()
                ));
            };
            let v = v
                .split_whitespace()
                .map(|x| x.parse::<f64>().map_err(|e| err(format!("v: `{x}`: {e}"))))
                .collect::<Result<Vec<f64>, _>>()?;
            let expect = match (cell(law), cell(tol)) {
                (Some(law), Some(t)) => Some(Expect {
                    law: law.to_string(),
                    tolerance: t.parse().map_err(|e| err(format!("tolerance: {e}")))?,
                }),
                (None, None) => None,
                _ => return Err(err("give both expect_law and tolerance, or neither".into())),
            };
            let value = serde_json::json!({ "file": file });
            let (system, source) = scenario(&value, dir, &mut files).map_err(err)?;
            Ok(Record {
                line: i + 1,
                id: cell(id).map(|s| s.to_string()),
                system,
                source,
                engine: Engine {
                    name: engine.to_string(),
                    version: cell(version).map(|s| s.to_string()),
                    params: None,
                },
                output: Output {
                    v,
                    contacts: None,
                    impulses: None,
                },
                expect,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Record 100,001 is an error naming the limit, in both formats (issue 36: no silent
    /// truncation). Unreadable lines keep the test cheap: each is its own error.
    #[test]
    fn the_record_limit_is_a_reported_stop() {
        let jsonl = "x\n".repeat(MAX_RECORDS + 5);
        let r = parse_jsonl(&jsonl, Path::new("."));
        assert_eq!(r.len(), MAX_RECORDS + 1);
        let last = r.last().unwrap().as_ref().unwrap_err();
        assert_eq!(last.line, MAX_RECORDS + 1);
        assert!(last.reason.starts_with("more than 100000 records"));
        let csv = format!("engine,file,v\n{}", "e,,\n".repeat(MAX_RECORDS + 5));
        let r = parse_csv(&csv, Path::new("."));
        assert_eq!(r.len(), MAX_RECORDS + 1);
        let last = r.last().unwrap().as_ref().unwrap_err();
        assert_eq!(last.line, MAX_RECORDS + 2);
        assert!(last.reason.starts_with("more than 100000 records"));
    }
}
