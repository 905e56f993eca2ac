//! Reports of a verification run: JSON (the shape of issue 7), text, Markdown (the
//! README's claims table).

use super::{ClaimResult, Verdict};
use serde_json::{json, Value};

const ORDER: [Verdict; 5] = [
    Verdict::Proved,
    Verdict::ProvedOnSubdomain,
    Verdict::Refuted,
    Verdict::ConfirmedOnSamples,
    Verdict::Inconclusive,
];

/// `{"proved": n, "refuted": n, "confirmed-on-samples": n, "inconclusive": n}`.
pub fn summary(results: &[ClaimResult]) -> Value {
    let mut m = serde_json::Map::new();
    for v in ORDER {
        m.insert(
            v.name().into(),
            results.iter().filter(|r| r.verdict == v).count().into(),
        );
    }
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

fn summary_line(results: &[ClaimResult]) -> String {
    ORDER
        .iter()
        .map(|v| {
            format!(
                "{} {}",
                results.iter().filter(|r| r.verdict == *v).count(),
                v.name()
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One line per claim, then the counterexamples, then the summary.
pub fn text(results: &[ClaimResult]) -> String {
    let w = results.iter().map(|r| r.id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for r in results {
        out += &format!(
            "{:w$}  {:20}  {}\n",
            r.id,
            r.verdict.name(),
            r.detail,
            w = w
        );
        if let Some(c) = &r.corrected {
            out += &format!("{:w$}  {:20}  corrected: {c}\n", "", "", w = w);
        }
    }
    out += &format!("\n{} claims: {}\n", results.len(), summary_line(results));
    out
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// A Markdown table (id, paper, where, kind, verdict, detail), then the refuted claims
/// with their counterexamples. `times`: include the seconds column.
pub fn markdown(results: &[ClaimResult], times: bool) -> String {
    let mut out = String::from("| id | where | kind | verdict | detail |");
    out += if times { " time |\n" } else { "\n" };
    out += "|---|---|---|---|---|";
    out += if times { "---|\n" } else { "\n" };
    for r in results {
        out += &format!(
            "| `{}` | {} | {} | **{}** | {} |",
            r.id,
            cell(&r.location),
            r.kind,
            r.verdict.name(),
            cell(&r.detail)
        );
        out += &if times {
            format!(" {:.2} s |\n", r.seconds)
        } else {
            "\n".into()
        };
    }
    out += &format!("\n{} claims: {}.\n", results.len(), summary_line(results));
    let refuted: Vec<&ClaimResult> = results
        .iter()
        .filter(|r| r.verdict == Verdict::Refuted)
        .collect();
    if !refuted.is_empty() {
        out += "\n### Refuted claims\n";
        for r in refuted {
            out += &format!(
                "\n- `{}` ({}, {}): \"{}\" — {}",
                r.id,
                r.paper,
                r.location,
                cell(&r.statement),
                cell(&r.detail)
            );
            if let Some(c) = &r.counterexample {
                out += &format!("; counterexample `{c}`");
            }
            if let Some(c) = &r.corrected {
                out += &format!("; corrected: {}", cell(c));
            }
            out += "\n";
        }
    }
    out
}
