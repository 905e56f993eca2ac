//! `impactkit compare-cradle`: one cradle through several impact laws, compared exactly.

use super::{tuple_text, Num, Report, TextOptions};
use serde::Serialize;

/// What one law gives: its distinct outcomes (several where it is not unique).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LawRow {
    pub law: &'static str,
    /// Paper and equation.
    #[serde(rename = "where")]
    pub citation: &'static str,
    pub outcomes: Vec<Vec<Num>>,
    pub unique: bool,
    /// How it ended, or why it does not apply.
    pub note: String,
}

/// Whether two laws give the same outcomes, and the largest difference.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgreementRow {
    pub laws: [&'static str; 2],
    /// `null` when an enclosure could not decide the sign of a difference.
    pub agree: Option<bool>,
    /// The largest |difference| of a component to the nearest outcome of the other law.
    pub max_difference: Option<Num>,
    /// The sign that could not be decided, when `agree` is `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undecided: Option<crate::arith::Undecided>,
}

/// The comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompareReport {
    pub arith: String,
    pub masses: Vec<Num>,
    pub v0: Vec<Num>,
    pub eps: Num,
    pub laws: Vec<LawRow>,
    pub agreement: Vec<AgreementRow>,
}

impl Report for CompareReport {
    fn text(&self, o: &TextOptions) -> String {
        let mut out = format!(
            "masses {}, v0 {}, eps {}, arith {}\n",
            tuple_text(&self.masses, o),
            tuple_text(&self.v0, o),
            self.eps.text(o),
            self.arith
        );
        for law in &self.laws {
            let outs: Vec<String> = law.outcomes.iter().map(|v| tuple_text(v, o)).collect();
            out += &format!(
                "{:<16} {:<40} {}\n",
                law.law,
                if outs.is_empty() {
                    "—".to_string()
                } else {
                    outs.join(" or ")
                },
                law.note
            );
        }
        for a in &self.agreement {
            out += &format!(
                "{} vs {}: {} (max |difference| {})\n",
                a.laws[0],
                a.laws[1],
                match (a.agree, &a.undecided) {
                    (Some(true), _) => "agree".to_string(),
                    (Some(false), _) => "differ".to_string(),
                    (None, Some(u)) => format!("undecided ({u})"),
                    (None, None) => "undecided".to_string(),
                },
                a.max_difference
                    .as_ref()
                    .map_or_else(|| "—".to_string(), |d| d.text(o))
            );
        }
        out.trim_end().to_string()
    }
}
