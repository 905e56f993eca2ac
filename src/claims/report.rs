//! Reports of a verification run: JSON (the shape of issue 7), text, Markdown (the
//! claims catalogue, docs/claims.md).

use super::claim::{ClaimResult, Verdict};
use serde_json::{json, Value};

const ORDER: [Verdict; 5] = [
    Verdict::Proved,
    Verdict::ProvedOnSubdomain,
    Verdict::Refuted,
    Verdict::ConfirmedOnSamples,
    Verdict::Inconclusive,
];

/// `{"proved": n, "refuted": n, "confirmed-on-samples": n, "inconclusive": n}`.
/// The inconclusive claims cut by the time limit are counted apart, as
/// `"inconclusive (time)"` (`"inconclusive"` counts the others).
pub fn summary(results: &[ClaimResult]) -> Value {
    let mut m = serde_json::Map::new();
    for v in ORDER {
        m.insert(
            v.name().into(),
            results
                .iter()
                .filter(|r| r.verdict == v && !r.timed_out())
                .count()
                .into(),
        );
    }
    m.insert(
        "inconclusive (time)".into(),
        results.iter().filter(|r| r.timed_out()).count().into(),
    );
    Value::Object(m)
}

/// `{"claims": [...], "summary": {...}}`.
pub fn json(results: &[ClaimResult]) -> Value {
    json!({
        "schema": crate::report::SCHEMA,
        "version": crate::report::VERSION,
        "command": "verify",
        "claims": results,
        "summary": summary(results),
    })
}

pub(crate) fn summary_line(results: &[ClaimResult]) -> String {
    let mut parts: Vec<String> = ORDER
        .iter()
        .map(|v| {
            format!(
                "{} {}",
                results
                    .iter()
                    .filter(|r| r.verdict == *v && !r.timed_out())
                    .count(),
                v.name()
            )
        })
        .collect();
    let timed = results.iter().filter(|r| r.timed_out()).count();
    if timed > 0 {
        parts.push(format!("{timed} inconclusive (time)"));
    }
    parts.join(", ")
}

/// The short name of a paper (its authors), from its key.
pub fn paper_name(file: &str) -> &str {
    super::claim::papers::short_name(file)
}

/// At most `n` characters of `s` (an ellipsis marks a cut).
pub(crate) fn cut(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

/// One line per claim, then the counterexamples, then the summary.
pub fn text(results: &[ClaimResult]) -> String {
    let w = id_width(results.iter().map(|r| r.id.as_str()));
    let mut out: String = results.iter().map(|r| text_line(r, w)).collect();
    out += &text_summary(results);
    out
}

/// The width of the id column: the longest id, at most 60 (a user's long id widens the
/// column no further; a width past 65535 would not format).
pub fn id_width<'a>(ids: impl Iterator<Item = &'a str>) -> usize {
    ids.map(|id| id.len().min(60)).max().unwrap_or(0)
}

/// One claim's lines of the text report (its verdict and detail, and its correction).
pub fn text_line(r: &ClaimResult, w: usize) -> String {
    let mut out = format!(
        "{:w$}  {:20}  {}\n",
        r.id,
        r.verdict.name(),
        r.detail,
        w = w
    );
    if let Some(c) = &r.corrected {
        out += &format!("{:w$}  {:20}  corrected: {c}\n", "", "", w = w);
    }
    out
}

/// The last lines of the text report: the count of each verdict.
pub fn text_summary(results: &[ClaimResult]) -> String {
    format!("\n{} claims: {}\n", results.len(), summary_line(results))
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The claims catalogue (docs/claims.md): one row per claim (claim, paper, where, kind, verdict), the
/// summary, then the refuted claims with their exact counterexamples (long values cut;
/// `--format json` has them whole). docs/claims.md holds exactly this text (a test keeps it so).
pub fn markdown(results: &[ClaimResult]) -> String {
    let mut out =
        String::from("| claim | paper | where | kind | verdict |\n|---|---|---|---|---|\n");
    for r in results {
        out += &format!(
            "| `{}` | {} | {} | {} | **{}** |\n",
            r.id,
            paper_name(&r.paper),
            cell(&r.location),
            r.kind,
            r.verdict.name(),
        );
    }
    out += &format!(
        "\n{} claims: {} (`--format json` gives each verdict's detail and certificate).\n",
        results.len(),
        summary_line(results)
    );
    let refuted: Vec<&ClaimResult> = results
        .iter()
        .filter(|r| r.verdict == Verdict::Refuted)
        .collect();
    if !refuted.is_empty() {
        out += "\n**Refuted claims, with the exact counterexample:**\n\n";
        for r in refuted {
            out += &format!("- `{}`: {}", r.id, cell(&cut(&r.detail, 240)));
            if let Some(c) = &r.corrected {
                out += &format!(" Corrected: {}", cell(&cut(c, 200)));
            }
            out += "\n";
        }
    }
    out
}
