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
    /// Per outcome, the contacts impacted at each step (names; simultaneous ones joined
    /// with `+`). Empty where the law does not say.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sequences: Vec<Vec<String>>,
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
    /// The laws that gave an outcome, grouped by equal outcomes ([`groups`]).
    pub groups: Vec<Vec<&'static str>>,
}

impl Report for CompareReport {
    fn text(&self, o: &TextOptions) -> String {
        let head = format!(
            "masses {}, v0 {}, eps {}, arith {}\n",
            tuple_text(&self.masses, o),
            tuple_text(&self.v0, o),
            self.eps.text(o),
            self.arith
        );
        head + &rows_text(&self.laws, &self.agreement, &self.groups, o)
    }
}

/// `impactkit laws FILE`: every law that applies to a system.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LawsReport {
    pub arith: String,
    pub system: SystemSummary,
    pub laws: Vec<LawRow>,
    pub agreement: Vec<AgreementRow>,
    /// The laws that gave an outcome, grouped by equal outcomes ([`groups`]).
    pub groups: Vec<Vec<&'static str>>,
    /// The arithmetic that decided the agreement table (exact where the inputs allow;
    /// `null`: no rung of the certified ladder decided every pair).
    pub agreement_decided_by: Option<String>,
}

/// What a system file describes, as the laws saw it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SystemSummary {
    pub name: String,
    pub coordinates: Vec<String>,
    /// The touching contacts.
    pub contacts: Vec<String>,
    /// Contacts listed as not touching.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<String>,
    /// The diagonal of the mass matrix.
    pub masses: Vec<Num>,
    /// The whole mass matrix, when it is not diagonal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mass_matrix: Option<Vec<Vec<Num>>>,
    pub velocity: Vec<Num>,
    pub restitution: Vec<Num>,
}

impl Report for LawsReport {
    fn text(&self, o: &TextOptions) -> String {
        let s = &self.system;
        let mut head = format!(
            "{}\ncoordinates ({}), touching contacts {}\nvelocity {}, restitution {}, arith {}",
            s.name,
            s.coordinates.join(", "),
            s.contacts.join(", "),
            tuple_text(&s.velocity, o),
            tuple_text(&s.restitution, o),
            self.arith
        );
        if !s.ignored.is_empty() {
            head += &format!(" (not touching: {})", s.ignored.join(", "));
        }
        head += &match &self.agreement_decided_by {
            Some(a) => format!("; agreement decided in {a}\n"),
            None => "; agreement not decided by any arithmetic\n".to_string(),
        };
        head + &rows_text(&self.laws, &self.agreement, &self.groups, o)
    }
}

/// The laws of `laws` that gave an outcome, grouped by equal outcomes: a law joins the
/// first group whose first law it agrees with (`agree` decided true; equality is
/// transitive), else starts a group. An undecided pair never joins two groups. Groups
/// and their laws keep the order of `laws`.
pub fn groups(laws: &[LawRow], agreement: &[AgreementRow]) -> Vec<Vec<&'static str>> {
    let mut out: Vec<Vec<&'static str>> = Vec::new();
    for law in laws.iter().filter(|l| !l.outcomes.is_empty()) {
        let home = out
            .iter_mut()
            .find(|g| row(agreement, g[0], law.law).is_some_and(|a| a.agree == Some(true)));
        match home {
            Some(g) => g.push(law.law),
            None => out.push(vec![law.law]),
        }
    }
    out
}

/// The agreement row of laws `a` and `b` (either order).
fn row<'r>(agreement: &'r [AgreementRow], a: &str, b: &str) -> Option<&'r AgreementRow> {
    agreement
        .iter()
        .find(|r| (r.laws[0] == a && r.laws[1] == b) || (r.laws[0] == b && r.laws[1] == a))
}

/// The row that compares two groups: a decided one if any pair of their laws is
/// decided (equal laws make every pair say the same), else their first laws' row.
fn between<'r>(
    agreement: &'r [AgreementRow],
    g: &[&'static str],
    h: &[&'static str],
) -> Option<&'r AgreementRow> {
    let pairs = || g.iter().flat_map(|a| h.iter().map(move |b| (*a, *b)));
    pairs()
        .filter_map(|(a, b)| row(agreement, a, b))
        .find(|r| r.agree.is_some())
        .or_else(|| row(agreement, g[0], h[0]))
}
/// The law rows, the groups of equal outcomes, and one line per pair of groups.
fn rows_text(
    laws: &[LawRow],
    agreement: &[AgreementRow],
    groups: &[Vec<&'static str>],
    o: &TextOptions,
) -> String {
    let mut out = String::new();
    let cells: Vec<String> = laws
        .iter()
        .map(|law| {
            let outs: Vec<String> = law.outcomes.iter().map(|v| tuple_text(v, o)).collect();
            match outs.is_empty() {
                true => "—".to_string(),
                false => outs.join(" or "),
            }
        })
        .collect();
    // the notes in one column: as wide as the widest outcome, at least 40
    let width = cells.iter().map(|c| c.chars().count()).fold(40, usize::max);
    for (law, cell) in laws.iter().zip(&cells) {
        out += &format!("{:<18} {cell:<width$} {}\n", law.law, law.note);
    }
    let equal: Vec<String> = groups
        .iter()
        .filter(|g| g.len() > 1)
        .map(|g| g.join(" = "))
        .collect();
    if !groups.is_empty() {
        out += &format!(
            "equal outcomes: {}\n",
            match equal.is_empty() {
                true => "none".to_string(),
                false => equal.join("; "),
            }
        );
    }
    for (i, g) in groups.iter().enumerate() {
        for h in &groups[i + 1..] {
            let Some(a) = between(agreement, g, h) else {
                continue;
            };
            out += &format!(
                "{} vs {}: {} (max |difference| {})\n",
                g.join("="),
                h.join("="),
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
    }
    out.trim_end().to_string()
}
