//! What `verify --certificates DIR` and `verify --smtlib DIR` write.
//!
//! **Certificates** (`DIR/<id>.json`, schema `impactkit-certificate/1`): one file per claim
//! that is `proved`, `proved-on-subdomain` or `refuted`, with the claim file's text, the
//! verdict, and what the engine established (the `certificate` of its outcome: for a
//! symbolic proof the cells with their charts, every sign decided in each cell with the
//! rule that decided it, and each conclusion's obligation as rational functions of the
//! chart variables; the lemmas of an induction or a termination, nested; the leaves of an
//! interval branch-and-bound with their decisions) and, for a refutation, the exact
//! witness. `impactkit check` re-checks them (`claims::check`).
//!
//! **SMT-LIB** (`DIR/<id>.smt2`, QF_NRA): for every cell of every symbolic proof (the
//! lemmas included) one query "a point of the cell where one of the signs the engine
//! decided there fails, or where the hypotheses hold and a conclusion fails", which must
//! be `unsat`; for every refutation decided on a cell, "a point of the cell where the
//! conclusion fails", which must be `sat`. The file is an SMT-LIB 2.6 script: each query
//! is self-contained (`(reset)` between queries, `(set-info :status unsat|sat)` in each)
//! and preceded by the line `; query <n> expect unsat|sat <where>`, so plain `z3 FILE`
//! and `cvc5 FILE` print one answer per query; `scripts/smt_crosscheck.py` runs both. The chart variables of a cell are reals, the
//! positive ones (`t_*`, `c_*`) asserted > 0; a radical `rad_i` = √D is a real ≥ 0 with
//! `rad_i^2 = D`, and D ≥ 0 is itself an obligation.

use crate::arith::symbolic::{Poly, Symbolic};
use serde_json::Value;
use std::fmt::Write;
use std::path::Path;

/// An SMT-LIB 2 real term for an exact rational.
fn rat(q: &num_rational::BigRational) -> String {
    use num_traits::Signed;
    let (n, d) = (q.numer().abs(), q.denom().clone());
    let body = if d == num_bigint::BigInt::from(1) {
        format!("{n}.0")
    } else {
        format!("(/ {n}.0 {d}.0)")
    };
    if q.is_negative() {
        format!("(- {body})")
    } else {
        body
    }
}

/// An SMT-LIB term for a polynomial.
fn poly(p: &Poly) -> String {
    let terms: Vec<String> = p
        .terms()
        .map(|(m, c)| {
            let mut factors = vec![rat(c)];
            for (v, e) in m {
                for _ in 0..*e {
                    factors.push(v.to_string());
                }
            }
            match factors.len() {
                1 => factors.remove(0),
                _ => format!("(* {})", factors.join(" ")),
            }
        })
        .collect();
    match terms.len() {
        0 => "0.0".into(),
        1 => terms[0].clone(),
        _ => format!("(+ {})", terms.join(" ")),
    }
}

/// A rational function N/D as the pair (N, D) of SMT-LIB terms.
fn fraction(src: &str) -> Result<(String, String), String> {
    let x: Symbolic = crate::lang::parse_symbolic(src).map_err(|e| e.to_string())?;
    Ok((poly(x.numerator()), poly(&x.denominator())))
}

/// "N/D REL 0" where D != 0, as an SMT-LIB formula.
fn relation(rel: &str, value: &str) -> Result<String, String> {
    let (n, d) = fraction(value)?;
    let nd = format!("(* {n} {d})");
    let body = match rel {
        ">" => format!("(> {nd} 0.0)"),
        ">=" => format!("(>= {nd} 0.0)"),
        "<" => format!("(< {nd} 0.0)"),
        "<=" => format!("(<= {nd} 0.0)"),
        "==" => format!("(= {n} 0.0)"),
        "!=" => format!("(not (= {n} 0.0))"),
        r => return Err(format!("unknown relation {r}")),
    };
    Ok(format!("(and (not (= {d} 0.0)) {body})"))
}

/// The variables of the texts of a cell.
fn variables(texts: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for t in texts {
        if let Ok(e) = crate::lang::parse_with_variables(t) {
            e.vars(&mut out);
        }
    }
    out.sort();
    out.dedup();
    out
}

/// One query on a cell: `None` when the cell carries no logged facts.
fn cell_query(cell: &Value) -> Result<Option<String>, String> {
    let Some(facts) = cell.get("facts").and_then(|f| f.as_array()) else {
        return Ok(None);
    };
    let positive = super::certificate::strs(cell.get("positive"));
    let rads: Vec<(String, String)> = cell
        .get("radicals")
        .and_then(|r| r.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|r| {
                    Some((
                        r.get("name")?.as_str()?.to_string(),
                        r.get("radicand")?.as_str()?.to_string(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut texts: Vec<String> = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    for f in facts {
        let (Some(v), Some(s)) = (
            f.get("value").and_then(|v| v.as_str()),
            f.get("sign").and_then(|v| v.as_str()),
        ) else {
            continue;
        };
        texts.push(v.to_string());
        failures.push(format!("(not {})", relation(s, v)?));
    }
    for (_, d) in &rads {
        texts.push(d.clone());
        failures.push(format!("(not {})", relation(">=", d)?));
    }
    // the conclusions: their guards hold and their body fails
    let mut conclusions = Vec::new();
    for d in cell
        .get("decided")
        .and_then(|d| d.as_array())
        .into_iter()
        .flatten()
    {
        let Some(ob) = d.get("obligation") else {
            continue;
        };
        let mut parts = Vec::new();
        for g in ob
            .get("guards")
            .and_then(|g| g.as_array())
            .into_iter()
            .flatten()
        {
            let Some((r, v)) = super::certificate::pair(g) else {
                continue;
            };
            texts.push(v.to_string());
            parts.push(relation(r, v)?);
        }
        if let Some(b) = ob.get("body").filter(|b| !b.is_null()) {
            let Some((r, v)) = super::certificate::pair(b) else {
                continue;
            };
            texts.push(v.to_string());
            parts.push(format!("(not {})", relation(r, v)?));
        }
        if !parts.is_empty() {
            conclusions.push(format!("(and {})", parts.join(" ")));
        }
    }
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let mut vars = variables(&refs);
    for (n, _) in &rads {
        if !vars.contains(n) {
            vars.push(n.clone());
        }
    }
    let mut q = String::new();
    for v in &vars {
        let _ = writeln!(q, "(declare-fun {v} () Real)");
    }
    for v in vars.iter().filter(|v| positive.contains(v)) {
        let _ = writeln!(q, "(assert (> {v} 0.0))");
    }
    for (n, d) in &rads {
        let (dn, dd) = fraction(d)?;
        let _ = writeln!(q, "(assert (>= {n} 0.0))");
        let _ = writeln!(q, "(assert (= (* {n} {n} {dd}) {dn}))");
    }
    let mut any = failures;
    any.extend(conclusions);
    if any.is_empty() {
        return Ok(None);
    }
    let _ = writeln!(q, "(assert (or {}))", any.join(" "));
    q.push_str("(check-sat)\n");
    Ok(Some(q))
}

/// The query of a refutation at an exact point: the witness's values (variables and
/// outputs) as constants, and the violated relation's negation, which must be `sat`.
fn witness_query(cx: Option<&Value>, identity: Option<&str>) -> Result<Option<String>, String> {
    let Some(cx) = cx.and_then(|c| c.as_object()) else {
        return Ok(None);
    };
    let Some(violated) = cx
        .get("violated")
        .and_then(|v| v.as_str())
        .map(str::to_string)
        .or_else(|| identity.map(|d| format!("{d} == 0")))
    else {
        return Ok(None);
    };
    let violated = violated.as_str();
    let Ok(r) = crate::lang::parse_relation(violated) else {
        return Ok(None);
    };
    if r.guard.is_some() {
        return Ok(None);
    }
    let mut names = Vec::new();
    r.vars(&mut names);
    let mut q = String::new();
    for v in &names {
        let Some(val) = cx.get(v).and_then(|x| x.as_str()) else {
            return Ok(None);
        };
        let Ok(x) = crate::lang::rational(val) else {
            return Ok(None);
        };
        let _ = writeln!(q, "(declare-fun {v} () Real)");
        let _ = writeln!(q, "(assert (= {v} {}))", rat(&x));
    }
    let (at, end) = crate::lang::relation_span(violated).ok_or("no relation")?;
    let d = format!("({}) - ({})", &violated[..at], &violated[end..]);
    let _ = writeln!(q, "(assert (not {}))", relation(r.rel.symbol(), &d)?);
    q.push_str("(check-sat)\n");
    Ok(Some(q))
}

/// `lhs - rhs` of a refuted identity, its substitutions applied (from the claim's text).
fn identity_difference(cert: &Value) -> Option<String> {
    let source = cert.get("source")?.as_str()?;
    let claim = super::claim::Claim::parse(source, Path::new("certificate.toml")).ok()?;
    let super::claim::body::Body::Identity(t) = claim.body() else {
        return None;
    };
    let (mut l, mut r) = (t.lhs.clone(), t.rhs.clone());
    for (v, e) in t.substitute.pairs() {
        l = super::exact::identity::substitute_text(&l, v, e);
        r = super::exact::identity::substitute_text(&r, v, e);
    }
    Some(format!("({l}) - ({r})"))
}

/// Every symbolic cell of a certificate, lemmas included: (where, cell).
fn cells<'a>(v: &'a Value, at: &str, out: &mut Vec<(String, &'a Value)>) {
    match v {
        Value::Object(m) => {
            if m.get("method").and_then(|x| x.as_str()) == Some("symbolic cells") {
                for (i, c) in m
                    .get("cells")
                    .and_then(|c| c.as_array())
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    out.push((format!("{at}cell {i}"), c));
                }
            }
            for (k, x) in m {
                if k != "cells" {
                    cells(x, &format!("{at}{k}: "), out);
                }
            }
        }
        Value::Array(a) => {
            for x in a {
                cells(x, at, out);
            }
        }
        _ => {}
    }
}

/// The SMT-LIB file of one claim's certificate (`None` when it has no polynomial
/// obligation), and the number of queries.
pub fn smtlib(cert: &Value) -> Result<Option<(String, usize)>, String> {
    let mut out = String::new();
    let mut n = 0;
    let mut list = Vec::new();
    if let Some(c) = cert.get("certificate") {
        cells(c, "", &mut list);
    }
    // a value that is not a rational function of the chart (a root the backend keeps
    // as a radical is one; `abs` or `sqrt` left in a relation's text is not) has no
    // polynomial obligation: that query is left out
    for (at, cell) in list {
        if let Ok(Some(q)) = cell_query(cell) {
            n += 1;
            script(&mut out, n, "unsat", &at, &q);
        }
    }
    // a refutation at an exact point: the violated relation at the witness's values
    let identity = (cert.get("kind").and_then(|k| k.as_str()) == Some("identity"))
        .then(|| identity_difference(cert))
        .flatten();
    if let Ok(Some(q)) = witness_query(cert.get("counterexample"), identity.as_deref()) {
        n += 1;
        script(&mut out, n, "sat", "the witness", &q);
    }
    if n > 0 {
        out.push_str("(exit)\n");
    }
    Ok((n > 0).then_some((out, n)))
}

/// Appends one query as a self-contained SMT-LIB 2.6 script: `(reset)` before every
/// query but the first clears the previous one's logic, declarations and assertions, so
/// that `z3 FILE` or `cvc5 FILE` answers each on its own; `:status` states the answer
/// the engine's verdict implies (`unsat`: a proved cell; `sat`: a refutation's witness).
fn script(out: &mut String, n: usize, expect: &str, at: &str, body: &str) {
    if n > 1 {
        out.push_str("(reset)\n");
    }
    let _ = writeln!(out, "; query {n} expect {expect} {at}");
    out.push_str("(set-info :smt-lib-version 2.6)\n(set-logic QF_NRA)\n");
    let _ = writeln!(out, "(set-info :status {expect})");
    out.push_str(body);
}
