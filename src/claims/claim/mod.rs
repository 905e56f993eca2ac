//! What a claim states, as read from its file: the typed claim ([`Claim`]), its verdicts and
//! outcomes, its kinds' tables as types ([`body`]), and what it states over which domain
//! ([`statement`]). Both the prover and the checker read a claim through this module only;
//! it runs nothing.

pub mod body;
mod error;
pub mod induction;
mod kind;
pub mod papers;
pub mod schema;
pub mod statement;
pub mod termination;

pub use error::ClaimError;
pub use kind::Kind;

use crate::input::files::shown;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The verdict of a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Over the paper's whole stated domain (open and unbounded parts, boundaries and
    /// degenerate rays included).
    Proved,
    /// Over a stated part of the domain only (the part is written in the detail).
    ProvedOnSubdomain,
    Refuted,
    ConfirmedOnSamples,
    Inconclusive,
}

impl Verdict {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Proved => "proved",
            Verdict::ProvedOnSubdomain => "proved-on-subdomain",
            Verdict::Refuted => "refuted",
            Verdict::ConfirmedOnSamples => "confirmed-on-samples",
            Verdict::Inconclusive => "inconclusive",
        }
    }
}

/// What a checker found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    pub verdict: Verdict,
    /// One line a referee can read (method details, samples, boxes, depth, time).
    pub detail: String,
    /// An exact counterexample (for `refuted`), as input-language strings.
    pub counterexample: Option<serde_json::Value>,
    /// The corrected statement, when one was found.
    pub corrected: Option<String>,
    /// What a reader can re-check of a proof (cells with their charts, boxes, identities).
    pub certificate: Option<serde_json::Value>,
}

impl Outcome {
    pub fn new(verdict: Verdict, detail: impl Into<String>) -> Self {
        Outcome {
            verdict,
            detail: detail.into(),
            counterexample: None,
            corrected: None,
            certificate: None,
        }
    }
    pub fn inconclusive(reason: impl Into<String>) -> Self {
        Outcome::new(Verdict::Inconclusive, reason)
    }
    pub fn refuted(detail: impl Into<String>, cx: serde_json::Value) -> Self {
        Outcome {
            counterexample: Some(cx),
            ..Outcome::new(Verdict::Refuted, detail)
        }
    }
}

/// What a claim file's name that nothing defines is reported as (`verify` then exits 2,
/// naming the file).
pub const UNDEFINED_NAME: &str =
    "names what nothing defines (not a variable, a derived quantity or an output of the law)";

/// A claim as read from its file: the paper's words and where they are, its [`Kind`], and
/// its formal content, typed ([`body::Body`]: what every checker reads).
#[derive(Clone, Debug)]
pub struct Claim {
    pub id: String,
    pub paper: String,
    pub location: String,
    pub statement: String,
    pub kind: Kind,
    pub method: String,
    /// The formal content, typed (read from [`Claim::table`]; private so that the two
    /// cannot differ).
    body: body::Body,
    /// The kind's table as written (what a certificate records as the proof's source and
    /// `check` compares with the claim file's); [`Claim::body`] is read from it.
    table: toml::Table,
    /// The file it came from.
    pub file: PathBuf,
}

fn req_str(t: &toml::Table, key: &'static str, file: &Path) -> Result<String, ClaimError> {
    match t.get(key) {
        Some(toml::Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(ClaimError::NotString {
            file: shown(file),
            key,
        }),
        None => Err(ClaimError::Missing {
            file: shown(file),
            key,
        }),
    }
}

impl Claim {
    /// Parses a claim from TOML text; errors name the file and the field.
    pub fn parse(text: &str, file: &Path) -> Result<Claim, ClaimError> {
        let t: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| ClaimError::Toml {
                file: shown(file),
                message: e.message().trim().to_string(),
            })?;
        if t.contains_key("verdict") {
            return Err(ClaimError::StatesVerdict { file: shown(file) });
        }
        let name = req_str(&t, "kind", file)?;
        let kind = Kind::named(&name).ok_or_else(|| ClaimError::UnknownKind {
            file: shown(file),
            kind: name.clone(),
            known: Kind::ALL.map(Kind::name).join(", "),
        })?;
        let content = match t.get(kind.table()) {
            Some(toml::Value::Table(c)) => c.clone(),
            _ => {
                return Err(ClaimError::NoTable {
                    file: shown(file),
                    kind: kind.name(),
                    table: kind.table(),
                })
            }
        };
        let schema = |message| ClaimError::Schema {
            file: shown(file),
            message,
        };
        schema::check(&t, kind).map_err(schema)?;
        let id = req_str(&t, "id", file)?;
        if let Some(c) = id.chars().find(|c| c.is_control()) {
            return Err(ClaimError::ControlInId {
                file: shown(file),
                code: c as u32,
            });
        }
        let paper = req_str(&t, "paper", file)?;
        if !papers::known(&paper) {
            let keys: Vec<&str> = papers::PAPERS.iter().map(|p| p.0).collect();
            let hint = schema::nearest(&paper, &keys);
            return Err(ClaimError::UnknownPaper {
                file: shown(file),
                paper,
                hint,
            });
        }
        let (location, statement) = (req_str(&t, "where", file)?, req_str(&t, "statement", file)?);
        let method = req_str(&t, "method", file)?;
        let body = body::Body::parse(kind, &content).map_err(schema)?;
        schema::check_names(&t, kind, &body).map_err(schema)?;
        Ok(Claim {
            id,
            paper,
            location,
            statement,
            kind,
            method,
            body,
            table: content,
            file: file.to_path_buf(),
        })
    }

    /// The formal content, typed: what every checker reads.
    pub fn body(&self) -> &body::Body {
        &self.body
    }

    /// The kind's table as written (a certificate's record of the statement).
    pub fn table(&self) -> &toml::Table {
        &self.table
    }

    /// The claim of kind `kind` with the table `table` (a lemma or a variant the engine
    /// derives from this claim), read through the same typed reader as a claim file.
    pub fn with_table(&self, kind: Kind, table: toml::Table) -> Result<Claim, String> {
        Ok(Claim {
            body: body::Body::parse(kind, &table)?,
            kind,
            table,
            ..self.clone()
        })
    }

    /// A lemma the engine derives from this claim: named `id (name)`, of kind `kind`, with
    /// the table `table`.
    pub fn lemma(&self, name: &str, kind: Kind, table: toml::Table) -> Result<Claim, String> {
        Ok(Claim {
            id: format!("{} ({name})", self.id),
            ..self.with_table(kind, table)?
        })
    }

    /// This claim with its table edited by `edit` (and read again).
    pub fn edited(&self, edit: impl FnOnce(&mut toml::Table)) -> Result<Claim, String> {
        let mut t = self.table.clone();
        edit(&mut t);
        self.with_table(self.kind, t)
    }

    /// Reads a claim file.
    pub fn load(file: &Path) -> Result<Claim, ClaimError> {
        let text = crate::input::files::read_text(file, crate::input::files::CLAIM)
            .map_err(ClaimError::Read)?;
        Claim::parse(&text, file)
    }
}

/// All claim files (`*.toml`) under the given files or directories (recursive, sorted).
pub fn load_paths(paths: &[PathBuf]) -> Result<Vec<Claim>, ClaimError> {
    let mut files = Vec::new();
    for p in paths {
        collect(p, &mut files).map_err(ClaimError::Walk)?;
    }
    // one file named twice (`proofs proofs/fp/x.toml`, `a/../a`) is read once
    let mut seen = std::collections::HashSet::new();
    files.sort();
    files.retain(|f| seen.insert(std::fs::canonicalize(f).unwrap_or_else(|_| f.clone())));
    let claims: Vec<Claim> = files
        .iter()
        .map(|f| Claim::load(f))
        .collect::<Result<_, _>>()?;
    let mut ids: Vec<(&str, &Path)> = claims
        .iter()
        .map(|c| (c.id.as_str(), c.file.as_path()))
        .collect();
    ids.sort();
    if let Some(w) = ids.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(ClaimError::DuplicateId {
            id: w[0].0.to_string(),
            first: shown(w[0].1),
            second: shown(w[1].1),
        });
    }
    Ok(claims)
}

/// The claim files a path names: a file itself, or a directory's `*.toml` files,
/// recursively. A path named on the command line is followed wherever it points; inside a
/// directory, a symbolic link to a directory is not followed (it can make a cycle:
/// `self -> .`, `/dev/fd -> /proc/self/fd`). A `*.toml` that is not a regular file is
/// refused when read.
fn collect(p: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let meta = std::fs::metadata(p).map_err(|e| format!("{}: {e}", shown(p)))?;
    match meta.is_dir() {
        true => walk(p, out, 0),
        false => {
            out.push(p.to_path_buf());
            Ok(())
        }
    }
}

/// Directories nested deeper than this under a named directory are refused.
const MAX_DEPTH: usize = 64;

fn walk(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!(
            "{}: directories nested deeper than {MAX_DEPTH} levels",
            shown(dir)
        ));
    }
    let err = |e: std::io::Error| format!("{}: {e}", shown(dir));
    for entry in std::fs::read_dir(dir).map_err(err)? {
        let entry = entry.map_err(err)?;
        // the entry's own type: a symbolic link is a link here, never its target
        let kind = entry.file_type().map_err(err)?;
        let path = entry.path();
        if kind.is_dir() {
            walk(&path, out, depth + 1)?;
        } else if kind.is_symlink() && path.is_dir() {
            // a link to a directory is not followed
        } else if path.extension().is_some_and(|x| x == "toml") {
            // a `.toml` that is not a regular file (a FIFO, a link to a device) is
            // refused by the reader, with one line naming it
            out.push(path);
        }
    }
    Ok(())
}

/// A claim with its computed verdict.
#[derive(Clone, Debug, Serialize)]
pub struct ClaimResult {
    pub id: String,
    pub paper: String,
    #[serde(rename = "where")]
    pub location: String,
    pub kind: Kind,
    pub verdict: Verdict,
    pub method: String,
    pub detail: String,
    pub counterexample: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corrected: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<serde_json::Value>,
    pub statement: String,
    /// Wall-clock seconds spent on the claim (text output only: the JSON report is the
    /// same on every run).
    #[serde(skip)]
    pub seconds: f64,
}

/// A derived table's `inputs` without `names` (in either form of a map: a table or a list
/// of `[name, expression]` pairs).
pub(crate) fn without_inputs(t: &mut toml::Table, names: &[&str]) {
    match t.get_mut("inputs") {
        Some(toml::Value::Table(m)) => m.retain(|k, _| !names.contains(&k)),
        Some(toml::Value::Array(pairs)) => pairs.retain(|p| {
            p.get(0)
                .and_then(|n| n.as_str())
                .is_none_or(|n| !names.contains(&n))
        }),
        _ => {}
    }
}

/// An `inequality` claim with a `proof` table as the implication "`holds`" over the same
/// variables, derived quantities and hypotheses.
pub(crate) fn as_implication(claim: &Claim) -> Option<Claim> {
    let mut t = claim.table().clone();
    t.get("proof")?;
    let holds = t.remove("holds")?;
    for k in ["max_depth", "subdomain", "domain"] {
        t.remove(k);
    }
    t.insert("conclude".into(), toml::Value::Array(vec![holds]));
    claim.with_table(Kind::Implication, t).ok()
}
