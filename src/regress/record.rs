//! Simulator records (JSON lines or CSV) and the systems they name.
//!
//! JSON lines, one record per line (schema: `examples/engines/record.schema.json`):
//! `{"id": .., "scenario": {"file": "cradle5.toml", ..overrides} | {..system..},
//!   "engine": {"name": .., "version": .., "params": {..}, "model": {..}},
//!   "output": {"v": [..], "contacts": [..], "impulses": [..], "pre": [..], "events": [[..]]},
//!   "scale": 2.5, "expect": {"law": "newton-touching", "tolerance": 1e-6}}`
//! (`model`: [`super::model`]; `scale`: the speed that relative distances divide by).
//!
//! CSV (simple cases), a header line then one record per line, no quoting:
//! `id,engine,version,file,v,expect_law,tolerance` with `v` the velocity components
//! separated by spaces; `id`, `version`, `expect_law` and `tolerance` may be empty.

use super::model::Model;
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
    pub params: Option<Params>,
    /// The engine's contact model ([`super::model`]), applied to the scenario.
    #[serde(default)]
    pub model: Option<Model>,
}

/// The engine's parameters: any keys (documentation for people); `regress` reads `set`,
/// the name of the parameter set, and skips the others unparsed.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct Params {
    #[serde(default)]
    pub set: Option<serde_json::Value>,
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
    /// The impulse per reported contact (in the order of `contacts`).
    #[serde(default)]
    pub impulses: Option<Vec<f64>>,
    /// The engine's own pre-impact velocity: checked against the scenario's (a
    /// converter's sign or axis mistake is then an error, not a good match).
    #[serde(default)]
    pub pre: Option<Vec<f64>>,
    /// The engine's contact events in order, each the contacts that fired together
    /// (compared with each law's sequence of simultaneously impacted sets).
    #[serde(default)]
    pub events: Option<Vec<Vec<String>>>,
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
    scenario: Box<serde_json::value::RawValue>,
    engine: Engine,
    output: Output,
    #[serde(default)]
    scale: Option<f64>,
    #[serde(default)]
    expect: Option<Expect>,
}

/// One record as read: its scenario named, not yet resolved (records of one scenario
/// share the resolved system and the laws' outcomes, see [`super::stream`]).
#[derive(Clone, Debug)]
pub struct Record {
    /// 1-based line in the records file.
    pub line: usize,
    pub id: Option<String>,
    pub scenario: ScenarioSpec,
    pub engine: Engine,
    pub output: Output,
    /// The speed scale of relative distances (default: ‖q̇⁻‖∞).
    pub scale: Option<f64>,
    pub expect: Option<Expect>,
}

/// How a record names its system.
#[derive(Clone, Debug)]
pub enum ScenarioSpec {
    /// The record's `scenario` value: `{"file": .., ..overrides}` or a whole system,
    /// with the engine's contact model (`engine.model`) when the record gives one.
    /// The value is kept as written (parsed only when its scenario is resolved).
    Value(Box<serde_json::value::RawValue>, Option<Box<Model>>),
    /// A system given by a library caller ([`super::check`]), with its source name.
    System(Box<SystemFile>, String),
}

impl ScenarioSpec {
    /// The key under which records share one resolved scenario: equal keys, equal
    /// systems (a scenario value as written: the same value written differently is
    /// resolved once more, to the same system).
    pub fn key(&self) -> std::borrow::Cow<'_, str> {
        match self {
            ScenarioSpec::Value(v, None) => v.get().into(),
            ScenarioSpec::Value(v, Some(m)) => format!(
                "{}\u{0}{}",
                v.get(),
                serde_json::to_string(m).unwrap_or_default()
            )
            .into(),
            ScenarioSpec::System(f, source) => format!(
                "{source}\u{0}{}",
                serde_json::to_string(f).unwrap_or_default()
            )
            .into(),
        }
    }

    /// The system and how it was named (file, or "inline"); `dir` resolves files.
    pub fn resolve(&self, dir: &Path, files: &mut Files) -> Result<(SystemFile, String), String> {
        match self {
            ScenarioSpec::Value(v, None) => scenario(&parse_value(v)?, dir, files),
            ScenarioSpec::Value(v, Some(m)) => {
                let (file, source) = scenario(&parse_value(v)?, dir, files)?;
                Ok((super::model::apply(&file, m, &source)?, source))
            }
            ScenarioSpec::System(f, source) => Ok(((**f).clone(), source.clone())),
        }
    }
}

/// A scenario value as written, parsed.
fn parse_value(v: &serde_json::value::RawValue) -> Result<serde_json::Value, String> {
    serde_json::from_str(v.get()).map_err(|e| {
        format!(
            "scenario: {}",
            crate::input::suggest::serde_message(&e.to_string())
        )
    })
}

/// A record that could not be read: its line and why.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordError {
    pub line: usize,
    pub reason: String,
}

/// Longest records file read, in bytes.
pub const MAX_BYTES: u64 = crate::input::files::RECORDS.max_bytes;
/// Longest record (one line), in bytes.
pub const MAX_LINE: usize = 1 << 20;
/// Most scenario files kept parsed at once (past it the cache is emptied and files are
/// read again when named again).
pub const MAX_FILES: usize = 256;

/// Scenario files read so far, by path (at most [`MAX_FILES`]).
#[derive(Default)]
pub struct Files(HashMap<PathBuf, Result<serde_json::Value, String>>);

impl Files {
    fn get(&mut self, path: &Path) -> Result<serde_json::Value, String> {
        if self.0.len() >= MAX_FILES && !self.0.contains_key(path) {
            self.0.clear();
        }
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
    let file: SystemFile = serde_json::from_value(base).map_err(|e| {
        format!(
            "scenario: {}",
            crate::input::suggest::serde_message(&e.to_string())
        )
    })?;
    Ok((file, source))
}

/// One line's error: its line and the reason on one line.
fn error(line: usize, reason: &str) -> RecordError {
    RecordError {
        line,
        reason: crate::input::one_line(reason),
    }
}

/// The record of one JSON line (line `line` of its file).
pub fn parse_jsonl_line(line: usize, text: &str) -> Result<Record, RecordError> {
    let raw: RawRecord = serde_json::from_str(text)
        .map_err(|e| error(line, &crate::input::suggest::serde_message(&e.to_string())))?;
    Ok(Record {
        line,
        id: raw.id,
        scenario: ScenarioSpec::Value(raw.scenario, raw.engine.model.clone().map(Box::new)),
        scale: raw.scale,
        engine: raw.engine,
        output: raw.output,
        expect: raw.expect,
    })
}

/// The columns of a CSV records file, from its header line.
#[derive(Clone, Debug)]
pub struct CsvColumns {
    id: Option<usize>,
    engine: Option<usize>,
    version: Option<usize>,
    file: Option<usize>,
    v: Option<usize>,
    law: Option<usize>,
    tolerance: Option<usize>,
}

/// A number of a CSV cell: a decimal as an engine prints it, or any expression of the
/// input language (`-1/3`, `sqrt(2)/2`), read as `f64` reads it (the nearest double of a
/// rational; a decimal is read exactly and rounded once).
fn csv_number(x: &str, column: &str) -> Result<f64, String> {
    if let Ok(v) = x.parse::<f64>() {
        return Ok(v);
    }
    crate::input::value::<f64>(x, column, &()).map_err(|e| {
        format!(
            "{column}: `{x}`: {}",
            e.to_string().trim_start_matches(&format!("{column}: "))
        )
    })
}

impl CsvColumns {
    /// The columns named by `header` (unknown names are ignored).
    pub fn new(header: &str) -> Self {
        let cols: Vec<&str> = header.split(',').map(str::trim).collect();
        let col = |name: &str| cols.iter().position(|c| *c == name);
        CsvColumns {
            id: col("id"),
            engine: col("engine"),
            version: col("version"),
            file: col("file"),
            v: col("v"),
            law: col("expect_law"),
            tolerance: col("tolerance"),
        }
    }

    /// The record of one CSV line (line `line` of its file).
    pub fn parse(&self, line: usize, text: &str) -> Result<Record, RecordError> {
        let err = |reason: String| error(line, &reason);
        let cells: Vec<&str> = text.split(',').map(str::trim).collect();
        let cell = |c: Option<usize>| c.and_then(|c| cells.get(c)).filter(|s| !s.is_empty());
        let (Some(engine), Some(file), Some(v)) =
            (cell(self.engine), cell(self.file), cell(self.v))
        else {
            return Err(err(
                "a CSV record needs the columns engine, file and v".into()
            ));
        };
        let v = v
            .split_whitespace()
            .map(|x| csv_number(x, "v").map_err(err))
            .collect::<Result<Vec<f64>, _>>()?;
        let expect = match (cell(self.law), cell(self.tolerance)) {
            (Some(law), Some(t)) => Some(Expect {
                law: law.to_string(),
                tolerance: csv_number(t, "tolerance").map_err(err)?,
            }),
            (None, None) => None,
            _ => return Err(err("give both expect_law and tolerance, or neither".into())),
        };
        Ok(Record {
            line,
            id: cell(self.id).map(|s| s.to_string()),
            scenario: ScenarioSpec::Value(
                serde_json::value::to_raw_value(&serde_json::json!({ "file": file }))
                    .map_err(|e| err(e.to_string()))?,
                None,
            ),
            scale: None,
            engine: Engine {
                name: engine.to_string(),
                version: cell(self.version).map(|s| s.to_string()),
                params: None,
                model: None,
            },
            output: Output {
                v,
                contacts: None,
                impulses: None,
                pre: None,
                events: None,
            },
            expect,
        })
    }
}
