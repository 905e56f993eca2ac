//! A proved case's Coq proof from the certificate's cells (issue 59: "the cover, as case
//! analysis on the cell forms' signs and the parameter pieces; per cell, the chart as a
//! substitution with its positive variables").
//!
//! The certificate's roots are the cells before any split: per parameter its piece of the
//! range (open, through a chart variable `t_p`, or an end point) and per cone form its sign
//! (through `c_i`). The proof destructs the sign of every piece's and form's expression
//! (`ik_cover`); in each combination either the premises are contradictory (`lra`) or one
//! root's guards hold. There the chart variables are introduced as positive quantities of
//! the claim's variables, the claim's variables are replaced by the chart's rational
//! functions of them, and the law's branches and the conclusions are decided by signs of
//! rational functions of positive variables (`ik_cell_solve`, `coq/Tactics.v`). Nothing
//! here is trusted: a wrong chart, a missing cell or an undecided sign is a proof Coq
//! rejects.

use super::statement::Prop;
use super::term;
use crate::lang;
use serde_json::Value;

/// The proof script of one case (what follows `intros`), or `None` where the certificate
/// has cells this builder does not read (radicals, a split before the cone, a point piece
/// at a non-constant end, a form over derived quantities). The cells are those of the
/// case `p` states (`p.case`) and those of no case.
pub(super) fn proof(p: &Prop, cert: &Value) -> Option<String> {
    let case = p.case.as_str();
    if cert.get("method")?.as_str()? != "symbolic cells"
        || p.vars
            .iter()
            .any(|v| v.starts_with("t_") || v.starts_with("c_"))
    {
        return None;
    }
    let cells = cert.get("cells")?.as_array()?;
    if cells.iter().any(|c| {
        c.get("radicals")
            .and_then(Value::as_array)
            .is_some_and(|r| !r.is_empty())
    }) {
        return None;
    }
    let roots: Vec<&Value> = cert
        .get("roots")?
        .as_array()?
        .iter()
        .filter(|r| {
            r.get("case")
                .and_then(Value::as_str)
                .is_some_and(|c| c == case || c.is_empty())
        })
        .collect();
    if roots.is_empty() {
        return None;
    }
    let splits = cert.get("splits")?.as_array()?;
    if splits.iter().any(|s| s.get("before the cone").is_some()) {
        return None;
    }
    let mut cover: Vec<String> = Vec::new();
    let mut tactics = Vec::new();
    for r in roots {
        let cell = root(p, r)?;
        for (e, _) in &cell.guards {
            if !cover.contains(e) {
                cover.push(e.clone());
            }
        }
        let text = r.get("cell")?.as_str()?;
        tactics.push(cell.tactic(&node(case, text, splits, 0)?));
    }
    let split = cover
        .iter()
        .map(|e| format!("ik_cover ({e}); try solve [exfalso; lra];"))
        .collect::<Vec<_>>()
        .join("\n  ");
    Some(format!(
        "{split}\n  first [ solve [exfalso; lra]\n        | {} ]",
        tactics.join("\n        | ")
    ))
}

/// One root cell: its guards (an expression of the claim's variables and its sign), its
/// chart variables (name and definition), and the chart of each variable.
struct Root {
    guards: Vec<(String, Sign)>,
    defs: Vec<(String, String)>,
    chart: Vec<(String, String)>,
}

#[derive(Clone, Copy)]
enum Sign {
    Neg,
    Zero,
    Pos,
}

impl Root {
    /// The root's tactic, `inner` after the substitution (its splits, then the cell's
    /// signs).
    fn tactic(&self, inner: &str) -> String {
        let mut t = Vec::new();
        for (e, s) in &self.guards {
            t.push(match s {
                Sign::Neg => format!("assert ({e} < 0) by lra"),
                Sign::Zero => format!("assert ({e} = 0) by lra"),
                Sign::Pos => format!("assert (0 < {e}) by lra"),
            });
        }
        let names: Vec<&str> = self.defs.iter().map(|(n, _)| n.as_str()).collect();
        for (n, d) in &self.defs {
            t.push(format!(
                "assert (ikP_{n} : 0 < {d}) by first [lra | ik_cpos]; remember ({d}) as {n} eqn:ikD_{n} in ikP_{n}"
            ));
        }
        let subst = match names.is_empty() {
            true => String::new(),
            false => format!("subst {}; ", names.join(" ")),
        };
        for (v, c) in &self.chart {
            t.push(format!(
                "assert (ikQ_{v} : {v} = {c}) by ({subst}ik_chart_eq)"
            ));
        }
        if !names.is_empty() {
            t.push(format!(
                "clear {}",
                names
                    .iter()
                    .map(|n| format!("ikD_{n}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
        if !self.chart.is_empty() {
            t.push(format!(
                "subst {}",
                self.chart
                    .iter()
                    .map(|(v, _)| v.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
        t.push(inner.into());
        format!("solve [ {} ]", t.join(";\n                "))
    }
}

/// The tactic of a cell after its chart's substitution: where the certificate splits it
/// (by the sign of a free variable, or of a polynomial linear in one chart variable), a
/// case per piece with the piece's fresh positive variable and the chart variable
/// replaced, then each piece's own node; else the cell's signs (`ik_cell_solve`).
fn node(case: &str, text: &str, splits: &[Value], depth: usize) -> Option<String> {
    let Some(split) = splits.iter().find(|s| {
        s.get("parent").and_then(Value::as_str) == Some(text)
            && s.get("case")
                .and_then(Value::as_str)
                .is_some_and(|c| c == case || c.is_empty())
    }) else {
        return Some("ik_cell_solve".into());
    };
    if depth > 8 {
        return None;
    }
    let mut cover = None;
    let mut pieces = Vec::new();
    for piece in split.get("pieces")?.as_array()? {
        let var = piece.get("var")?.as_str().filter(|v| plain(v))?;
        let by = piece.get("by")?.as_str()?;
        let fresh = piece.get("fresh").and_then(Value::as_str);
        if fresh.is_some_and(|f| !plain(f)) {
            return None;
        }
        let child = piece.get("cell")?.as_str()?;
        let (e, sign) = match piece.get("kind")?.as_str()? {
            "free" => {
                let sign = match (by, fresh) {
                    ("0", _) => Sign::Zero,
                    (b, Some(f)) if b == f => Sign::Pos,
                    (b, Some(f)) if b.strip_prefix('-') == Some(f) => Sign::Neg,
                    _ => return None,
                };
                (term::name(var), sign)
            }
            "linear" if piece.get("bounded").and_then(Value::as_bool) == Some(false) => {
                let sign = match child {
                    c if c.ends_with(" > 0]") => Sign::Pos,
                    c if c.ends_with(" < 0]") => Sign::Neg,
                    c if c.ends_with(" = 0]") => Sign::Zero,
                    _ => return None,
                };
                (term::source(piece.get("n")?.as_str()?).ok()?, sign)
            }
            _ => return None,
        };
        if cover.get_or_insert_with(|| e.clone()) != &e {
            return None;
        }
        let mut t = vec![match sign {
            Sign::Neg => format!("assert ({e} < 0) by lra"),
            Sign::Zero => format!("assert ({e} = 0) by lra"),
            Sign::Pos => format!("assert (0 < {e}) by lra"),
        }];
        let v = term::name(var);
        let by = term::source(by).ok()?;
        match (fresh, sign) {
            (Some(f), Sign::Pos | Sign::Neg) => {
                let d = match sign {
                    Sign::Pos => e.clone(),
                    _ => format!("-({e})"),
                };
                t.push(format!(
                    "assert (ikP_{f} : 0 < {d}) by lra; remember ({d}) as {f} eqn:ikD_{f} in ikP_{f}"
                ));
                t.push(format!(
                    "assert (ikQ_{f} : {v} = {by}) by (subst {f}; ik_chart_eq)"
                ));
                t.push(format!("clear ikD_{f}"));
            }
            (_, Sign::Zero) => t.push(format!("assert (ikQ_{v} : {v} = {by}) by ik_chart_eq")),
            _ => return None,
        }
        t.push(format!("subst {v}"));
        t.push(node(case, child, splits, depth + 1)?);
        pieces.push(format!("solve [ {} ]", t.join(";\n                ")));
    }
    Some(format!(
        "ik_cover ({}); first [ solve [exfalso; lra]\n        | {}\n        | solve [exfalso; ik_rcontra] ]",
        cover?,
        pieces.join("\n        | ")
    ))
}

/// A root's guards, chart variables and chart, in Coq.
fn root(p: &Prop, r: &Value) -> Option<Root> {
    let chart = r.get("chart")?.as_object()?;
    let mut out = Root {
        guards: Vec::new(),
        defs: Vec::new(),
        chart: Vec::new(),
    };
    let var = |v: &str| p.vars.iter().any(|x| x == v);
    for param in r.get("params")?.as_array()? {
        let [name, range, value] = param.as_array()?.as_slice() else {
            return None;
        };
        let (name, range, value) = (name.as_str()?, range.as_str()?, value.as_str()?);
        if !var(name) || range == "R" {
            continue;
        }
        let v = term::name(name);
        let t = format!("t_{name}");
        if vars_of(value)?.contains(&t) {
            let (lo, hi) = interval(range)?;
            let mut def = Vec::new();
            if let Some(lo) = &lo {
                let e = format!("{v} - {lo}");
                out.guards.push((e.clone(), Sign::Pos));
                def.push(e);
            }
            if let Some(hi) = &hi {
                let e = format!("{hi} - {v}");
                out.guards.push((e.clone(), Sign::Pos));
                def.push(e);
            }
            let d = match def.as_slice() {
                [a] => a.clone(),
                [a, b] => format!("({a}) / ({b})"),
                _ => return None,
            };
            out.defs.push((term::name(&t), d));
        } else if vars_of(value)?.is_empty() {
            // the end it is, in the open piece's own expression (fewer signs to cover)
            let (lo, hi) = interval(range).unwrap_or((None, None));
            let at = term::source(value).ok()?;
            let e = match (lo, hi) {
                (Some(lo), _) if same(&lo, value) => format!("{v} - {lo}"),
                (_, Some(hi)) if same(&hi, value) => format!("{hi} - {v}"),
                _ => format!("{v} - {at}"),
            };
            out.guards.push((e, Sign::Zero));
        } else {
            return None;
        }
    }
    if let Some(cone) = r.get("cone").filter(|c| !c.is_null()) {
        let forms = cone.get("forms")?.as_array()?;
        let signs = cone.get("signs")?.as_array()?;
        for (i, (f, s)) in forms.iter().zip(signs).enumerate() {
            let e = form(f.get("form")?.as_str()?, &var)?;
            let c = format!("c_{}", i + 1);
            match s.as_str()? {
                "+" => {
                    out.guards.push((e.clone(), Sign::Pos));
                    out.defs.push((c, e));
                }
                "-" => {
                    out.guards.push((e.clone(), Sign::Neg));
                    out.defs.push((c, format!("-({e})")));
                }
                "0" => out.guards.push((e, Sign::Zero)),
                _ => return None,
            }
        }
    }
    for v in &p.vars {
        let c = chart.get(v)?.as_str()?;
        if c != v {
            out.chart.push((term::name(v), term::source(c).ok()?));
        }
    }
    Some(out)
}

/// Whether a name from the certificate is a plain identifier (it is written into the
/// proof script as it is).
fn plain(v: &str) -> bool {
    let mut c = v.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

/// Whether the Coq term `coq` (an interval's end) is the value `value` (a number's
/// text), both written by the same printer.
fn same(coq: &str, value: &str) -> bool {
    term::source(value).is_ok_and(|v| v == coq)
}

/// The variables of an expression's text.
fn vars_of(s: &str) -> Option<Vec<String>> {
    let e = lang::parse_with_variables(s).ok()?;
    let mut v = Vec::new();
    e.vars(&mut v);
    Some(v)
}

/// The ends of an interval's text, `(a, b]`, `[a, inf)`, … in Coq (`None` for ±inf).
fn interval(s: &str) -> Option<(Option<String>, Option<String>)> {
    let inner = s.strip_prefix(['(', '['])?.strip_suffix([')', ']'])?;
    let (lo, hi) = inner.split_once(", ")?;
    let end = |x: &str, inf: &str| -> Option<Option<String>> {
        match x.trim() == inf {
            true => Some(None),
            false => term::source(x.trim()).ok().map(Some),
        }
    };
    Some((end(lo, "-inf")?, end(hi, "inf")?))
}

/// A cone form's expression in Coq: `lhs - rhs` of a hypothesis over the case's own
/// variables, or the coordinate of `x free`.
fn form(text: &str, var: &dyn Fn(&str) -> bool) -> Option<String> {
    if let Some(x) = text.strip_suffix(" free") {
        return var(x).then(|| term::name(x));
    }
    let r = lang::parse_relation(text).ok()?;
    let mut vs = Vec::new();
    r.vars(&mut vs);
    if r.guard.is_some() || !vs.iter().all(|v| var(v)) {
        return None;
    }
    Some(format!(
        "({}) - ({})",
        term::expr(&r.lhs).ok()?,
        term::expr(&r.rhs).ok()?
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_ends_of_a_range_and_the_names_written_as_they_are() {
        assert_eq!(interval("[1, inf)"), Some((Some("1".into()), None)));
        assert_eq!(
            interval("(-1, 1/2]"),
            Some((Some("(- 1)".into()), Some("(1 / 2)".into())))
        );
        assert_eq!(interval("(-inf, 0]"), Some((None, Some("0".into()))));
        assert_eq!(interval("R"), None);
        assert!(same("(1 / 2)", "1/2") && same("1", "1") && !same("1", "1/2"));
        assert!(plain("t_S") && plain("c_s5_0"));
        assert!(!plain("x. Qed") && !plain("") && !plain("1x"));
    }

    /// fp-result2's first root (k ∈ [1, ∞), Z1): the guards, the chart variables as
    /// positive quantities, the chart's equations, the substitution.
    #[test]
    fn a_root_cell_as_a_coq_script() {
        let p = Prop {
            label: "case Z1".into(),
            case: "Z1".into(),
            chain: false,
            opaque: None,
            vars: vec!["k".into(), "x".into(), "y".into()],
            text: String::new(),
        };
        let cert = json!({
            "method": "symbolic cells", "splits": [], "cells": [],
            "roots": [{
                "case": "Z1", "cell": "k = t_k + 1 (open, t_k > 0); [k*x + y <= 0] -",
                "chart": {"k": "t_k + 1", "x": "c_1/(t_k + 1)", "y": "-c_1"},
                "cone": {"forms": [{"form": "k*x + y <= 0"}], "signs": ["-"], "vars": ["x", "y"]},
                "params": [["k", "[1, inf)", "t_k + 1"]]
            }, {
                "case": "Z2", "cell": "other", "chart": {}, "params": [["k", "[1, inf)", "1"]]
            }]
        });
        let s = proof(&p, &cert).unwrap();
        for part in [
            "ik_cover (k - 1); try solve [exfalso; lra];",
            "ik_cover ((((k * x) + y)) - (0)); try solve [exfalso; lra];",
            "assert (0 < k - 1) by lra",
            "remember (k - 1) as t_k eqn:ikD_t_k in ikP_t_k",
            "remember (-((((k * x) + y)) - (0))) as c_1 eqn:ikD_c_1 in ikP_c_1",
            "assert (ikQ_x : x = (c_1 / (t_k + 1))) by (subst t_k c_1; ik_chart_eq)",
            "clear ikD_t_k ikD_c_1",
            "subst k x y",
            "ik_cell_solve ]",
        ] {
            assert!(s.contains(part), "{part}\n{s}");
        }
        // the other case's root is not used; a radical is not read
        assert!(!s.contains("other"));
        let mut r = cert.clone();
        r["cells"] = json!([{"radicals": ["sqrt(2)"]}]);
        assert_eq!(proof(&p, &r), None);
    }
}
