//! The errors of the language: one syntax error (position and a short reason) and one
//! evaluation error. Messages are one line and never echo more than [`ECHO`] characters
//! of the input.

use crate::arith::ArithError;

/// Most characters of the input echoed in an error message.
pub const ECHO: usize = 40;

/// `s` cut to at most [`ECHO`] characters (`…` marks a cut), newlines shown as spaces.
pub fn clip(s: &str) -> String {
    let s = s.trim();
    let flat = |t: &str| t.replace(['\n', '\r', '\t'], " ");
    if s.chars().count() <= ECHO {
        return flat(s);
    }
    let head: String = s.chars().take(ECHO - 1).collect();
    format!("{}…", flat(&head))
}

/// The fragment of `src` around byte `pos`, at most [`ECHO`] characters.
fn around(src: &str, pos: usize) -> String {
    let flat = |t: &str| t.replace(['\n', '\r', '\t'], " ");
    if src.chars().count() <= ECHO {
        return flat(src);
    }
    let pos = pos.min(src.len());
    let total = src.chars().count();
    let at = src[..pos].chars().count();
    // about half the window before `pos`, less near the end of the input
    let skip = at.saturating_sub(ECHO / 2).min(total - (ECHO - 2));
    let mut out: String = if skip > 0 {
        "…".into()
    } else {
        String::new()
    };
    let body: String = src.chars().skip(skip).take(ECHO - 2).collect();
    out.push_str(&body);
    if skip + ECHO - 2 < total {
        out.push('…');
    }
    flat(&out)
}

/// A syntax error (or an input over the [limits](super::Limits)), with the byte position
/// where it was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason} at position {pos} in \"{input}\"")]
pub struct ParseError {
    /// What is wrong, in a few words ("expected ')'", "unknown name 'foo' …").
    pub reason: String,
    /// Byte offset in the input.
    pub pos: usize,
    /// The input around `pos`, at most [`ECHO`] characters.
    pub input: String,
}

impl ParseError {
    pub(crate) fn new(reason: impl Into<String>, pos: usize, src: &str) -> ParseError {
        ParseError {
            reason: reason.into(),
            pos,
            input: around(src, pos),
        }
    }
}

/// An evaluation error: a syntax error, an arithmetic error with the sub-expression where
/// it occurred, or a variable without a value.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EvalError {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error("{}", render_arith(.error, .at))]
    Arith { error: ArithError, at: String },
    #[error("unknown variable {name}")]
    UnknownVariable { name: String },
    /// The value overflowed the backend's range (`inf`, `NaN`, or an enclosure with an
    /// infinite bound): no number to report.
    #[error("the value is not finite in {arith} ({value}); exact, quadratic or mpfr:BITS arithmetic has the range to compute it")]
    NotFinite { value: String, arith: String },
}

impl EvalError {
    /// The underlying arithmetic error, if any.
    pub fn arith(&self) -> Option<&ArithError> {
        match self {
            EvalError::Arith { error, .. } => Some(error),
            _ => None,
        }
    }
}

fn render_arith(e: &ArithError, at: &str) -> String {
    match e {
        ArithError::NotRepresentable { .. } => e.to_string(),
        _ => format!("{e} in `{at}`"),
    }
}
