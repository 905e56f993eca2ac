//! `verify --html DIR`: the verdicts as a static site to look at (issue 62, item 5; Herbie's
//! report is the model). `index.html` is the catalogue: the summary, the errata (refuted
//! claims) first, then every claim, with a filter by paper and verdict. `claims/<id>.html`
//! is a page per claim: the statement, the paper's reference, the verdict in a sentence,
//! the detail (the cells of a proof, or the counterexample), how to re-run it, and the
//! certificate and Coq status. Plain HTML and CSS; the filter is a few lines of script
//! without which the page still shows every claim. Nothing is loaded from the network.

use super::claim::{ClaimResult, Verdict};
use super::coq::CoqStatus;
use super::report;
use crate::report::html::{escape, head, STYLE};

/// What else the run wrote, for the claim pages.
pub struct Context<'a> {
    /// The claim file of each id (shown as the command that re-runs it).
    pub files: &'a [(String, String)],
    /// `--certificates DIR`, as given.
    pub certificates: Option<String>,
    /// `--coq DIR`: each claim's Coq status.
    pub coq: Option<&'a [(String, CoqStatus)]>,
}

/// The site's files: `(path relative to DIR, contents)`.
pub fn site(results: &[ClaimResult], ctx: &Context) -> Vec<(String, String)> {
    let mut out = vec![
        ("style.css".to_string(), STYLE.to_string()),
        ("index.html".to_string(), index(results)),
    ];
    for r in results {
        out.push((
            format!("claims/{}.html", page_name(&r.id)),
            claim_page(r, ctx),
        ));
    }
    out
}

/// A claim's page name: its id with anything but letters, digits, `.`, `-` and `_` as `_`.
pub fn page_name(id: &str) -> String {
    id.chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                true => c,
                false => '_',
            },
        )
        .collect()
}

/// The verdict in a sentence (docs/conventions.md has the definitions).
pub fn sentence(v: Verdict) -> &'static str {
    match v {
        Verdict::Proved => "Proved over the whole domain the claim states, by exact computation.",
        Verdict::ProvedOnSubdomain => {
            "Proved on a subdomain only (named in the detail), not on the whole domain the paper states."
        }
        Verdict::Refuted => {
            "Refuted: the statement fails at an exact point (the counterexample in the detail)."
        }
        Verdict::ConfirmedOnSamples => {
            "Confirmed at exact sample points only: there is no proof over the whole domain."
        }
        Verdict::Inconclusive => "Inconclusive: impactkit could not decide it (the detail says why).",
    }
}

fn badge(v: Verdict) -> String {
    format!("<span class=\"verdict {0}\">{0}</span>", v.name())
}

/// The catalogue: errata first, then every claim in the run's order.
fn index(results: &[ClaimResult]) -> String {
    let mut papers: Vec<&str> = Vec::new();
    for r in results {
        let p = report::paper_name(&r.paper);
        if !papers.contains(&p) {
            papers.push(p);
        }
    }
    let mut verdicts: Vec<Verdict> = Vec::new();
    for r in results {
        if !verdicts.contains(&r.verdict) {
            verdicts.push(r.verdict);
        }
    }
    let mut o = head("impactkit verify: the claims", "style.css");
    o += "<h1>impactkit verify</h1>\n";
    o += &format!(
        "<p class=\"summary\">{} claims: {}</p>\n",
        results.len(),
        escape(&report::summary_line(results))
    );
    let refuted: Vec<&ClaimResult> = results
        .iter()
        .filter(|r| r.verdict == Verdict::Refuted)
        .collect();
    if !refuted.is_empty() {
        o += &format!(
            "<h2>Errata: {} refuted statements</h2>\n<p>Each fails at an exact point of its stated domain; the claim's page has the counterexample.</p>\n",
            refuted.len()
        );
        o += &table(&refuted, "errata");
    }
    o += "<h2>Every claim</h2>\n<form class=\"filter\">\n<label>Paper <select id=\"paper\">\n<option value=\"\">all</option>\n";
    for p in &papers {
        o += &format!("<option>{}</option>\n", escape(p));
    }
    o += "</select></label>\n<label>Verdict <select id=\"verdict\">\n<option value=\"\">all</option>\n";
    for v in &verdicts {
        o += &format!("<option>{}</option>\n", v.name());
    }
    o += "</select></label>\n<span id=\"shown\"></span>\n</form>\n";
    let all: Vec<&ClaimResult> = results.iter().collect();
    o += &table(&all, "all");
    o += FILTER;
    o += "</body>\n</html>\n";
    o
}

fn table(rows: &[&ClaimResult], id: &str) -> String {
    let mut o = format!(
        "<table id=\"{id}\">\n<thead><tr><th>claim</th><th>paper</th><th>where</th><th>verdict</th><th>statement</th></tr></thead>\n<tbody>\n"
    );
    for r in rows {
        let paper = report::paper_name(&r.paper);
        o += &format!(
            "<tr data-paper=\"{}\" data-verdict=\"{}\"><td><a href=\"claims/{}.html\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            escape(paper),
            r.verdict.name(),
            escape(&page_name(&r.id)),
            escape(&r.id),
            escape(paper),
            escape(&r.location),
            badge(r.verdict),
            escape(&report::cut(&r.statement, 160)),
        );
    }
    o + "</tbody>\n</table>\n"
}

/// A claim's page.
fn claim_page(r: &ClaimResult, ctx: &Context) -> String {
    let mut o = head(&format!("{}: {}", r.id, r.verdict.name()), "../style.css");
    o += "<p><a href=\"../index.html\">← every claim</a></p>\n";
    o += &format!("<h1>{}</h1>\n", escape(&r.id));
    o += &format!(
        "<p class=\"where\">{}, {} <span class=\"kind\">({})</span></p>\n",
        escape(report::paper_name(&r.paper)),
        escape(&r.location),
        r.kind
    );
    o += &format!(
        "<blockquote class=\"statement\">{}</blockquote>\n",
        escape(&r.statement)
    );
    o += &format!(
        "<h2>Verdict</h2>\n<p>{} {}</p>\n<p class=\"detail\">{}</p>\n",
        badge(r.verdict),
        sentence(r.verdict),
        escape(&r.detail)
    );
    if let Some(c) = &r.corrected {
        o += &format!(
            "<h2>Corrected statement</h2>\n<p class=\"detail\">{}</p>\n",
            escape(c)
        );
    }
    if let Some(cx) = &r.counterexample {
        let text = serde_json::to_string_pretty(cx).unwrap_or_default();
        o += &format!(
            "<h2>Counterexample (exact)</h2>\n<pre>{}</pre>\n",
            escape(&text)
        );
    }
    o += &format!("<h2>Method</h2>\n<p>{}</p>\n", escape(&r.method));
    o += "<h2>Re-check it</h2>\n<ul>\n";
    if let Some((_, file)) = ctx.files.iter().find(|(id, _)| *id == r.id) {
        o += &format!("<li><code>impactkit verify {}</code></li>\n", escape(file));
    }
    // a certificate exists for these verdicts (certificate::certificate)
    let has = matches!(
        r.verdict,
        Verdict::Proved | Verdict::ProvedOnSubdomain | Verdict::Refuted
    );
    let certificate = match (&ctx.certificates, has) {
        (Some(d), true) => format!(
            "written: <code>impactkit check {}/{}.json</code> re-checks it",
            escape(d.trim_end_matches('/')),
            escape(&r.id)
        ),
        (None, true) => "there is one: <code>verify --certificates DIR</code> writes it, <code>impactkit check</code> re-checks it".into(),
        (_, false) => "none (only proved and refuted verdicts have one)".into(),
    };
    o += &format!("<li>Certificate: {certificate}</li>\n");
    let coq = match ctx.coq {
        None => {
            "not run (<code>verify --coq DIR</code> has Coq's kernel check the verdict)".to_string()
        }
        Some(st) => st
            .iter()
            .find(|(id, _)| *id == r.id)
            .map_or("not exported".to_string(), |(_, s)| escape(&s.text())),
    };
    o += &format!("<li>Coq: {coq}</li>\n</ul>\n</body>\n</html>\n");
    o
}

const FILTER: &str = "<script>
// the filter: rows of the table 'all' by paper and verdict (without script, every row shows)
(function () {
  var paper = document.getElementById('paper'), verdict = document.getElementById('verdict');
  function apply() {
    var n = 0, rows = document.querySelectorAll('#all tbody tr');
    rows.forEach(function (tr) {
      var ok = (!paper.value || tr.dataset.paper === paper.value) &&
               (!verdict.value || tr.dataset.verdict === verdict.value);
      tr.classList.toggle('hidden', !ok);
      if (ok) n++;
    });
    document.getElementById('shown').textContent = n + ' of ' + rows.length + ' shown';
  }
  paper.addEventListener('change', apply);
  verdict.addEventListener('change', apply);
  apply();
})();
</script>
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_names() {
        assert_eq!(page_name("fp-prop7.1-eta12"), "fp-prop7.1-eta12");
        assert_eq!(page_name("a/b c"), "a_b_c");
    }
}
