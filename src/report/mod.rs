//! Typed, serialisable results of the commands, their text rendering, and figures.
//!
//! Every command builds one report struct; the CLI prints it as text
//! ([`Report::text`], with [`TextOptions`]) or as JSON through [`Document`], which adds
//! `"schema": "impactkit/1"`, the impactkit version and the command. Numbers are
//! [`Num`]s: `{"exact": …}`, `{"approx": …}` or `{"lo": …, "hi": …}`, so a script can
//! tell an exact value from a rounded one without knowing the backend.

pub mod billiard;
pub mod compare;
pub mod corner;
pub mod corner_figure;
pub mod cradle;
pub mod eval;
pub mod html;
pub mod penny;
pub mod penny_figure;
pub mod propagate;
pub mod regress;
pub mod rods;
pub mod sci;
pub mod sequential;
pub mod step;

use crate::arith::Scalar;
pub use crate::arith::{Num, TextOptions};
use serde::Serialize;

/// The JSON schema every document declares.
pub const SCHEMA: &str = "impactkit/1";
/// The version of impactkit that wrote a document.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A command's result: serialisable, and printable for a person.
pub trait Report: Serialize {
    /// The text rendering (never JSON).
    fn text(&self, o: &TextOptions) -> String;
}

/// A JSON document: schema, version, command, then the report's own fields.
#[derive(Serialize)]
pub struct Document<'a, T: Serialize> {
    pub schema: &'static str,
    pub version: &'static str,
    pub command: &'a str,
    #[serde(flatten)]
    pub report: &'a T,
    /// `Some(true)` when the report holds a non-finite number ([`has_non_finite`]);
    /// absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub non_finite: Option<bool>,
}

impl<'a, T: Serialize> Document<'a, T> {
    /// The document of `report`, written by `command`.
    pub fn new(command: &'a str, report: &'a T) -> Self {
        Document {
            schema: SCHEMA,
            version: VERSION,
            command,
            report,
            non_finite: None,
        }
    }
}

/// Whether a report's JSON holds a non-finite number: a rounded value that overflowed
/// (`{"approx": "inf"}`, `"-inf"`, `"NaN"`) or an enclosure with an infinite bound. The
/// command line then adds `"non_finite": true` to the document (and a warning line to
/// text), so that no `inf` or `NaN` passes silently.
pub fn has_non_finite(v: &serde_json::Value) -> bool {
    use serde_json::Value;
    match v {
        Value::Object(m) => m.iter().any(|(k, x)| match (k.as_str(), x) {
            ("approx" | "lo" | "hi", Value::String(s)) => {
                s.contains("inf") || s.contains("NaN") || s.contains("nan")
            }
            _ => has_non_finite(x),
        }),
        Value::Array(xs) => xs.iter().any(has_non_finite),
        // a note or a detail quoting a rounded value (`lies in [NaN, NaN]`, `(inf)`)
        Value::String(s) => s
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| matches!(w, "inf" | "NaN" | "nan")),
        _ => false,
    }
}

/// The warning line of a text report holding a non-finite number ([`has_non_finite`]).
pub const NON_FINITE_WARNING: &str = "warning: non-finite values (inf or NaN): the rounded arithmetic overflowed or an enclosure is unbounded; exact, quadratic or mpfr:BITS arithmetic has the range";

/// The numbers of a vector.
pub fn nums<S: Scalar>(xs: &[S]) -> Vec<Num> {
    xs.iter().map(Scalar::num).collect()
}

/// Words joined by spaces, the middle of a long list elided for text reports: at most
/// [`LIST_HEAD`] first and [`LIST_TAIL`] last words around `… (N more) …` (JSON keeps
/// every word).
pub fn elided_words(words: &[String]) -> String {
    if words.len() <= LIST_HEAD + LIST_TAIL + 1 {
        return words.join(" ");
    }
    let hidden = words.len() - LIST_HEAD - LIST_TAIL;
    format!(
        "{} … ({} more) … {}",
        words[..LIST_HEAD].join(" "),
        thousands(hidden),
        words[words.len() - LIST_TAIL..].join(" ")
    )
}

/// Words shown before the elision of [`elided_words`].
pub const LIST_HEAD: usize = 24;
/// Words shown after the elision of [`elided_words`].
pub const LIST_TAIL: usize = 8;

/// `n` with thousands separators (`9,996`).
pub fn thousands(n: usize) -> String {
    let d = n.to_string();
    let mut out = String::new();
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `(a, b, …)` in text.
pub fn tuple_text(xs: &[Num], o: &TextOptions) -> String {
    let parts: Vec<String> = xs.iter().map(|x| x.text(o)).collect();
    format!("({})", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lists_are_elided_in_the_middle() {
        let words: Vec<String> = (0..10_000).map(|i| format!("Z{i}")).collect();
        let t = elided_words(&words);
        assert!(t.starts_with("Z0 Z1 "), "{t}");
        assert!(t.contains(" Z23 … (9,968 more) … Z9992 "), "{t}");
        assert!(t.ends_with(" Z9999"), "{t}");
        let short: Vec<String> = (0..33).map(|i| i.to_string()).collect();
        assert_eq!(elided_words(&short), short.join(" "));
        assert!(
            elided_words(&(0..34).map(|i| i.to_string()).collect::<Vec<_>>()).contains("(2 more)")
        );
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
