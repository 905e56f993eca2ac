//! What can be wrong with a claim file, as a type: every error names the file (as shown
//! to the user) and the key or value at fault.

/// An error reading a claim file or a set of them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClaimError {
    /// The file could not be read (its reader's one line, naming it).
    #[error("{0}")]
    Read(String),
    /// The text is not TOML.
    #[error("{file}: {message}")]
    Toml { file: String, message: String },
    /// The file states a verdict.
    #[error("{file}: a claim file must not contain a verdict (the engine computes it)")]
    StatesVerdict { file: String },
    /// A required top-level key is absent.
    #[error("{file}: missing `{key}`")]
    Missing { file: String, key: &'static str },
    /// A top-level key is not a string.
    #[error("{file}: `{key}` must be a string")]
    NotString { file: String, key: &'static str },
    /// `kind` names no kind.
    #[error("{file}: unknown kind \"{kind}\" (expected one of {known})")]
    UnknownKind {
        file: String,
        kind: String,
        known: String,
    },
    /// The kind's table is absent or not a table.
    #[error("{file}: kind \"{kind}\" needs a [{table}] table")]
    NoTable {
        file: String,
        kind: &'static str,
        table: &'static str,
    },
    /// A key or probe the schema does not know (with the nearest valid name).
    #[error("{file}: {message}")]
    Schema { file: String, message: String },
    /// `paper` names no known paper.
    #[error("{file}: paper: unknown \"{paper}\"{hint} (keys: docs/claims-format.md, or \"none\")")]
    UnknownPaper {
        file: String,
        paper: String,
        hint: String,
    },
    /// A control character in the id.
    #[error("{file}: id: the control character U+{code:04X} is not allowed in an id")]
    ControlInId { file: String, code: u32 },
    /// A directory could not be walked.
    #[error("{0}")]
    Walk(String),
    /// Two files state the same id.
    #[error("duplicate claim id \"{id}\" ({first} and {second})")]
    DuplicateId {
        id: String,
        first: String,
        second: String,
    },
}

impl From<ClaimError> for String {
    fn from(e: ClaimError) -> String {
        e.to_string()
    }
}
