//! Plain static HTML pages (`verify --html`, `audit --html`): escaping, the page head and
//! one style sheet. No script or font from the network.

/// Text as HTML, for element text and attribute values alike: the SVG escaping of
/// [`crate::figure::escape`] (`&`, `<`, `>`), and the quotes `"` and `'`.
pub fn escape(s: &str) -> String {
    crate::figure::escape(s)
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The start of a page: its title and the style sheet at `css` (a relative path).
pub fn head(title: &str, css: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<link rel=\"stylesheet\" href=\"{css}\">\n</head>\n<body>\n",
        escape(title)
    )
}

/// The style sheet of every page.
pub const STYLE: &str = "body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; color: #1b1b1b; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.15rem; margin-top: 1.6rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { text-align: left; vertical-align: top; padding: 0.3rem 0.5rem; border-bottom: 1px solid #eee; }
th { background: #f4f4f4; }
tr.hidden { display: none; }
a { color: #0b57d0; }
.summary { font-size: 1.05rem; }
.filter { margin: 0.6rem 0; }
.filter label { margin-right: 1rem; }
.verdict { display: inline-block; padding: 0.05rem 0.45rem; border-radius: 0.3rem; font-size: 0.85rem; white-space: nowrap; color: #fff; }
.verdict.proved { background: #1e7d32; }
.verdict.proved-on-subdomain { background: #5b8c2a; }
.verdict.refuted { background: #c62828; }
.verdict.confirmed-on-samples { background: #b26a00; }
.verdict.inconclusive { background: #616161; }
.statement { border-left: 4px solid #bbb; margin: 1rem 0; padding: 0.2rem 1rem; background: #fafafa; }
.detail { white-space: pre-wrap; font-family: ui-monospace, monospace; font-size: 0.85rem; }
.where { color: #444; }
.kind { color: #777; }
pre { background: #f6f6f6; padding: 0.6rem; overflow-x: auto; }
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(escape("a < b & \"c\""), "a &lt; b &amp; &quot;c&quot;");
    }
}
