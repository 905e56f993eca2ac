//! `impactkit check`: re-checks the certificates of `verify --certificates` without the
//! prover (no charting, no splitting, no witness search), on the same `lang` and
//! arithmetic base.
//!
//! - **Symbolic cells** (every `"method": "symbolic cells"` object of a certificate, the
//!   lemmas of an induction or a termination included): the cells cover the domain as
//!   charted (every root cell of every case is a leaf or split, every split's pieces are
//!   leaves or split, every leaf is reached once); every sign decided in a cell holds by
//!   its rule, re-derived here (`orthant_sign`: coefficients of one sign on the open
//!   orthant of the cell's positive chart variables, AM–GM dominance, a quadratic with a
//!   negative discriminant; the zero polynomial); every conclusion follows from its
//!   obligation (its body's sign, or a guard decided false), the signs again re-derived;
//!   a conclusion on an outcome's zone (FP eq. (1)) by each excluded zone's conditions
//!   shown infeasible (`zone_conclusion`). Signs decided by radical elimination are
//!   re-derived by the Z3 cross-check only (counted).
//! - **Refutations**: the witness is re-evaluated exactly by the claim's own evaluation
//!   (the law code on exact rationals, at the single point: a degenerate box) and must
//!   violate the claim; an identity's witness must lie in the declared domain.
//! - **Exact computations** (`exact-example`, `fp-audit`, `identity`, interval
//!   branch-and-bound on `inequality`): recomputed; they are their own certificate.
//!
//! - **The cover** (`check_charts.rs`): the root cells chart each parameter's range
//!   and the cone exactly, every split's pieces chart its parent (a piece left out has no
//!   point), every cell outside the hypotheses has a hypothesis shown false there, and
//!   the proof is of the claim's own statement.
//!
//! - **A Gram reduction**: its checks (the law natural, M = I in the domain, the objects,
//!   the echelon coverage) recomputed from the claim file by the engine's own function
//!   and compared with the certificate's.
//!
//! Not re-checked here: that the obligations are what the law's code gives on each cell's
//! chart (the claim's expressions run by the engine; the SMT cross-check reads the same
//! obligations), and an agreement's outputs found identical on both sides.

use super::{Claim, Verdict};
use crate::arith::symbolic::{Poly, Symbolic};
use crate::arith::Scalar;
use num_rational::BigRational;
use num_traits::Signed;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

/// What checking one certificate found.
#[derive(Debug, Default)]
pub struct Checked {
    pub claim: String,
    pub verdict: String,
    /// `None` when accepted, else the first reason for rejecting it.
    pub rejected: Option<String>,
    pub cells: usize,
    pub facts: usize,
    pub radical_facts: usize,
    pub conclusions: usize,
    /// Conclusions on an outcome's zone (each excluded zone shown empty; re-derived and
    /// counted among `conclusions` too).
    pub zone_conclusions: usize,
    /// Gram reductions whose checks were recomputed from the claim file.
    pub reductions: usize,
    /// Outputs of an agreement found identical on both sides (the engine's values).
    pub outputs: usize,
    /// The cover of the domain by the cells (`check_charts.rs`).
    pub cover: super::check_charts::Cover,
}

/// The sign of a polynomial at every point of the open positive orthant of `positive`,
/// where one of the rules decides it: `Some(1)`, `Some(-1)`, `Some(0)` (the zero
/// polynomial), `None`.
fn orthant_sign(p: &Poly, positive: &[String], depth: u32) -> Option<i8> {
    if p.is_zero() {
        return Some(0);
    }
    if p.variables().iter().any(|v| !positive.contains(v)) {
        return None;
    }
    let signs: BTreeSet<bool> = p.terms().map(|(_, c)| c.is_positive()).collect();
    if signs.len() == 1 {
        return Some(if signs.contains(&true) { 1 } else { -1 });
    }
    for (q, s) in [(p.clone(), 1), (p.neg(), -1)] {
        if dominated(&q) || (depth > 0 && quadratic(&q, positive, depth)) {
            return Some(s);
        }
    }
    None
}

/// AM–GM: each negative term −a·m has two positive terms b₁m₁, b₂m₂ with m₁m₂ = m² and
/// 4b₁b₂ ≥ a², a positive term's coefficient shared equally among the negative terms
/// that use it; positive when a positive term is unused or one inequality is strict.
fn dominated(p: &Poly) -> bool {
    type Mono = BTreeMap<String, u32>;
    let mono = |m: &[(crate::arith::symbolic::poly::Name, u32)]| -> Mono {
        m.iter().map(|(v, e)| (v.to_string(), *e)).collect()
    };
    let terms: Vec<(Mono, BigRational)> = p.terms().map(|(m, c)| (mono(m), c.clone())).collect();
    let (neg, pos): (Vec<_>, Vec<_>) = terms.into_iter().partition(|(_, c)| c.is_negative());
    if pos.is_empty() || neg.len() > 64 || pos.len() > 256 {
        return false;
    }
    let product = |a: &Mono, b: &Mono| {
        let mut out = a.clone();
        for (v, e) in b {
            *out.entry(v.clone()).or_default() += e;
        }
        out
    };
    let mut pairs = Vec::new();
    for (m, _) in &neg {
        let square: Mono = m.iter().map(|(v, e)| (v.clone(), 2 * e)).collect();
        let found = (0..pos.len()).find_map(|i| {
            (i + 1..pos.len())
                .find(|&j| product(&pos[i].0, &pos[j].0) == square)
                .map(|j| (i, j))
        });
        match found {
            Some(x) => pairs.push(x),
            None => return false,
        }
    }
    let mut uses = vec![0u32; pos.len()];
    for (i, j) in &pairs {
        uses[*i] += 1;
        uses[*j] += 1;
    }
    let mut strict = uses.contains(&0);
    for ((i, j), (_, a)) in pairs.iter().zip(&neg) {
        let share = |k: usize| &pos[k].1 / BigRational::from_integer(uses[k].into());
        let lhs = BigRational::from_integer(4.into()) * share(*i) * share(*j);
        let rhs = a * a;
        if lhs < rhs {
            return false;
        }
        strict |= lhs > rhs;
    }
    strict
}

/// A·v² + B·v + C in one variable v: A > 0, C > 0 and B ≥ 0 or 4AC − B² > 0.
fn quadratic(p: &Poly, positive: &[String], depth: u32) -> bool {
    p.term_count() <= 120
        && p.variables().iter().any(|v| {
            if p.degree_in(v) != 2 {
                return false;
            }
            let c = p.by_power_of(v);
            let get = |e: u32| c.get(&e).cloned().unwrap_or_else(Poly::zero);
            let (a, b, c0) = (get(2), get(1), get(0));
            let s = |q: &Poly| orthant_sign(q, positive, depth - 1);
            s(&a) == Some(1)
                && s(&c0) == Some(1)
                && (matches!(s(&b), Some(0 | 1)) || {
                    let disc = a
                        .mul(&c0)
                        .scale(&BigRational::from_integer(4.into()))
                        .sub(&b.mul(&b));
                    s(&disc) == Some(1)
                })
        })
}

/// The sign of a rational function (text) on the cell, by the rules: `None` undecided.
pub(super) fn value_sign(text: &str, positive: &[String]) -> Result<Option<i8>, String> {
    let x: Symbolic = crate::lang::parse_symbolic(text).map_err(|e| format!("{text}: {e}"))?;
    let n = orthant_sign(x.numerator(), positive, 2);
    if n == Some(0) {
        return Ok(Some(0));
    }
    let d = orthant_sign(&x.denominator(), positive, 2);
    Ok(match (n, d) {
        (Some(a), Some(b)) if b != 0 => Some(a * b),
        _ => None,
    })
}

pub(super) fn holds(rel: &str, sign: i8) -> Result<bool, String> {
    Ok(match rel {
        ">" => sign > 0,
        ">=" => sign >= 0,
        "<" => sign < 0,
        "<=" => sign <= 0,
        "==" => sign == 0,
        "!=" => sign != 0,
        r => return Err(format!("unknown relation {r}")),
    })
}

/// A list of strings of a certificate (missing: empty).
pub(super) fn strs(v: Option<&Value>) -> Vec<String> {
    v.and_then(|x| x.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// A `[relation, value]` pair of an obligation.
pub(super) fn pair(v: &Value) -> Option<(&str, &str)> {
    Some((v.get(0)?.as_str()?, v.get(1)?.as_str()?))
}

/// A conclusion `zoneN != c` (or `== c`) re-derived: every zone it excludes has two
/// conditions with no common point in the cell — one false by the rules, or a
/// combination λp₁ + μp₂ (λ, μ each 1 or ±ξ̇, ±η̇ of the input, decided ≥ 0) decided
/// < 0, or = 0 with a positive multiplier on a strict condition.
fn zone_conclusion(d: &Value, positive: &[String]) -> Result<(), String> {
    let text = d
        .get("relation")
        .and_then(|r| r.as_str())
        .ok_or("a zone conclusion without its relation")?;
    let r = crate::lang::parse_relation(text).map_err(|e| e.to_string())?;
    let c = r
        .rhs
        .as_rational()
        .filter(|c| c.is_integer())
        .and_then(|c| i64::try_from(c.to_integer()).ok())
        .ok_or("a zone conclusion on a value that is not a zone code")?;
    let want: BTreeSet<i64> = match r.rel {
        crate::lang::Rel::Ne => [c].into(),
        crate::lang::Rel::Eq => [0, 1, 2, 12].into_iter().filter(|z| *z != c).collect(),
        _ => return Err(format!("`{text}` is not a zone conclusion")),
    };
    let parse = |k: &str, v: &Value| -> Result<Symbolic, String> {
        let t = v
            .get(k)
            .and_then(|x| x.as_str())
            .ok_or_else(|| format!("`{text}`: no {k}"))?;
        crate::lang::parse_symbolic(t).map_err(|e| format!("{t}: {e}"))
    };
    let (xi, eta) = (parse("xi", d)?, parse("eta", d)?);
    let one = Symbolic::constant(&BigRational::from_integer(1.into()));
    let input = d.get("input").cloned().unwrap_or(Value::Null);
    let sign = |x: &Symbolic| value_sign(&x.render_string(), positive);
    let mut shown = BTreeSet::new();
    for z in d
        .get("zones excluded")
        .and_then(|z| z.as_array())
        .into_iter()
        .flatten()
    {
        let code = z
            .get("zone")
            .and_then(|c| c.as_i64())
            .ok_or("a malformed excluded zone")?;
        let conds = super::prove::zone_conditions(code, &xi, &eta).ok_or("an unknown zone")?;
        let by = z
            .get("by")
            .ok_or_else(|| format!("`{text}`: zone {code} excluded without a reason"))?;
        let empty = if let Some(i) = by.get("condition").and_then(|i| i.as_u64()) {
            let (p, strict) = conds.get(i as usize).ok_or("a malformed condition")?;
            matches!(sign(p)?, Some(-1)) || (*strict && sign(p)? == Some(0))
        } else {
            let ms = strs(by.get("multipliers"));
            let [l, m] = ms.as_slice() else {
                return Err(format!("`{text}`: zone {code}: a malformed certificate"));
            };
            let mut signs = Vec::new();
            let mut vals = Vec::new();
            for t in [l, m] {
                let v = crate::lang::parse_symbolic(t).map_err(|e| format!("{t}: {e}"))?;
                let allowed = v.is_identical(&one)
                    || ["xi", "eta"].iter().any(|k| {
                        parse(k, &input).is_ok_and(|x| v.is_identical(&x) || v.is_identical(&-x))
                    });
                let s = sign(&v)?;
                if !allowed || !matches!(s, Some(0 | 1)) {
                    return Err(format!(
                        "`{text}`: the multiplier {t} is not 1 or ±ξ̇, ±η̇ decided ≥ 0"
                    ));
                }
                signs.push(s == Some(1));
                vals.push(v);
            }
            let sum = vals[0]
                .mul_r(&conds[0].0)
                .add_r(&vals[1].mul_r(&conds[1].0));
            let strict = (conds[0].1 && signs[0]) || (conds[1].1 && signs[1]);
            match sign(&sum)? {
                Some(-1) => true,
                Some(0) => strict,
                _ => false,
            }
        };
        if !empty {
            return Err(format!("`{text}`: zone {code} is not shown empty"));
        }
        shown.insert(code);
    }
    if shown != want {
        return Err(format!(
            "`{text}`: the zones shown empty are not those it excludes"
        ));
    }
    Ok(())
}

/// One proved cell: its facts and its conclusions.
fn check_cell(cell: &Value, out: &mut Checked) -> Result<(), String> {
    let at = cell.get("cell").and_then(|c| c.as_str()).unwrap_or("?");
    let positive = strs(cell.get("positive"));
    let facts = cell
        .get("facts")
        .and_then(|f| f.as_array())
        .ok_or_else(|| format!("cell {at}: no decided signs (written without the decision log)"))?;
    for f in facts {
        let (Some(v), Some(s), Some(rule)) = (
            f.get("value").and_then(|x| x.as_str()),
            f.get("sign").and_then(|x| x.as_str()),
            f.get("rule").and_then(|x| x.as_str()),
        ) else {
            return Err(format!("cell {at}: a malformed fact"));
        };
        if rule == "radical" {
            out.radical_facts += 1;
            continue;
        }
        let want = match s {
            ">" => 1,
            "<" => -1,
            "==" => 0,
            x => return Err(format!("cell {at}: unknown sign {x}")),
        };
        if value_sign(v, &positive)? != Some(want) {
            return Err(format!(
                "cell {at}: the sign {s} 0 of {v} does not follow by the rule {rule}"
            ));
        }
        out.facts += 1;
    }
    for d in cell
        .get("decided")
        .and_then(|d| d.as_array())
        .into_iter()
        .flatten()
    {
        if d.get("zones excluded").is_some() {
            // a conclusion on the zone of an outcome: each zone it excludes shown empty
            zone_conclusion(d, &positive).map_err(|e| format!("cell {at}: {e}"))?;
            out.zone_conclusions += 1;
            out.conclusions += 1;
            continue;
        }
        let Some(ob) = d.get("obligation") else {
            // not a conclusion: a note (a hypothesis not needed, a radical's radicand), or
            // an agreement's output, the same value on both sides as the engine computed
            out.outputs += usize::from(d.get("output").is_some());
            continue;
        };
        let what = d.get("relation").and_then(|r| r.as_str()).unwrap_or("?");
        let by_body = match ob.get("body").and_then(pair) {
            Some((rel, v)) => match value_sign(v, &positive)? {
                Some(s) => holds(rel, s)?,
                None => false,
            },
            None => false,
        };
        let mut by_guard = false;
        for g in ob
            .get("guards")
            .and_then(|g| g.as_array())
            .into_iter()
            .flatten()
        {
            if let Some((rel, v)) = pair(g) {
                if let Some(s) = value_sign(v, &positive)? {
                    by_guard |= !holds(rel, s)?;
                }
            }
        }
        if by_body || by_guard {
            out.conclusions += 1;
        } else if ob.to_string().contains("rad_") {
            // a conclusion with a radical: re-derived by the SMT cross-check only
            out.radical_facts += 1;
        } else {
            return Err(format!(
                "cell {at}: the conclusion `{what}` does not follow from its obligation"
            ));
        }
    }
    out.cells += 1;
    Ok(())
}

/// Every symbolic proof inside a certificate (lemmas included).
fn proofs<'a>(v: &'a Value, out: &mut Vec<&'a Value>) {
    match v {
        Value::Object(m) => {
            if m.get("method").and_then(|x| x.as_str()) == Some("symbolic cells") {
                out.push(v);
            }
            for (k, x) in m {
                if k != "cells" {
                    proofs(x, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| proofs(x, out)),
        _ => {}
    }
}

/// The claim at the witness only (every variable of the witness fixed), without its proof
/// methods: the claim's own exact evaluation there.
fn at_witness(claim: &Claim, cx: &Value) -> Result<Claim, String> {
    let mut c = claim.clone();
    for k in ["proof", "induction", "termination", "corrected_conclude"] {
        c.content.remove(k);
    }
    if let Some(toml::Value::Table(vars)) = c.content.get_mut("vars") {
        for (name, range) in vars.iter_mut() {
            if let Some(v) = cx.get(name).and_then(|x| x.as_str()) {
                *range = toml::Value::Array(vec![v.into(), v.into()]);
            }
        }
    }
    c.content.insert("samples".into(), 1.into());
    Ok(c)
}

/// Re-checks one certificate (JSON text).
pub fn check_text(text: &str) -> Result<Checked, String> {
    let cert: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if cert.get("schema").and_then(|s| s.as_str()) != Some(super::export::CERT_SCHEMA) {
        return Err(format!(
            "not a certificate ({})",
            super::export::CERT_SCHEMA
        ));
    }
    let field = |k: &str| {
        cert.get(k)
            .and_then(|x| x.as_str())
            .unwrap_or("")
            .to_string()
    };
    let claim = Claim::parse(
        &field("source"),
        Path::new(&format!("{}.toml", field("claim"))),
    )?;
    let mut out = Checked {
        claim: field("claim"),
        verdict: field("verdict"),
        ..Checked::default()
    };
    if claim.id != out.claim {
        out.rejected = Some("the claim's source is another claim".into());
        return Ok(out);
    }
    out.rejected = verdict_ok(&claim, &cert, &out.verdict.clone(), &mut out).err();
    Ok(out)
}

fn recomputed(o: super::Outcome, want: Verdict) -> Result<(), String> {
    match o.verdict == want {
        true => Ok(()),
        false => Err(format!("recomputed: {} ({})", o.verdict.name(), o.detail)),
    }
}

fn verdict_ok(claim: &Claim, cert: &Value, verdict: &str, out: &mut Checked) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(600);
    let want = match verdict {
        "proved" => Verdict::Proved,
        "proved-on-subdomain" => Verdict::ProvedOnSubdomain,
        "refuted" => Verdict::Refuted,
        v => return Err(format!("no certificate for the verdict {v}")),
    };
    match claim.kind.as_str() {
        "exact-example" => return recomputed(super::example::check(claim)?, want),
        "fp-audit" => return recomputed(super::fp_audit::check(claim)?, want),
        "identity" => return recomputed(super::identity::check(claim)?, want),
        _ => {}
    }
    if want == Verdict::Refuted {
        let cx = cert
            .get("counterexample")
            .filter(|c| c.is_object())
            .ok_or("a refutation without a witness")?;
        if cx.get("cell").is_some() {
            return Err("a refutation on a cell without a rational point: not re-checked".into());
        }
        let c = at_witness(claim, cx)?;
        // the witness lies in one case: each case on its own (the others have no point)
        let n = c
            .content
            .get("case")
            .and_then(|x| x.as_array())
            .map_or(0, Vec::len);
        let mut last = None;
        for i in 0..n.max(1) {
            let mut one = c.clone();
            if let Some(toml::Value::Array(cases)) = one.content.get_mut("case") {
                let keep = cases[i].clone();
                *cases = vec![keep];
            }
            let o = match claim.kind.as_str() {
                "implication" => super::sampled::check_implication(&one, deadline)?,
                "agreement" => super::sampled::check_agreement(&one, deadline)?,
                "counterexample-search" => super::sampled::check_search(&one, deadline)?,
                "inequality" => super::inequality::check(&one, deadline)?,
                k => return Err(format!("no witness check for kind {k}")),
            };
            if o.verdict == Verdict::Refuted {
                return Ok(());
            }
            last = Some(o);
        }
        return recomputed(last.ok_or("no case")?, Verdict::Refuted);
    }
    let body = cert.get("certificate").filter(|c| !c.is_null());
    let Some(body) = body else {
        // interval branch-and-bound on an inequality: rigorous, recomputed
        if claim.kind == "inequality" {
            return recomputed(super::inequality::check(claim, deadline)?, want);
        }
        return Err("a proof without a certificate".into());
    };
    let mut list = Vec::new();
    proofs(body, &mut list);
    if list.is_empty() {
        return Err(format!(
            "no symbolic proof in the certificate (method {})",
            body.get("method").and_then(|m| m.as_str()).unwrap_or("?")
        ));
    }
    // the claim's own proof is of the claim (an inequality: as the implication "holds",
    // the documented rewrite of `verify`)
    let stated = match claim.kind.as_str() {
        "inequality" => {
            super::as_implication(claim).ok_or("an inequality without a proof table")?
        }
        _ => claim.clone(),
    };
    // a Gram reduction: its checks recomputed from the claim file, as the engine ran them
    let again = super::prove::reduction_of(&stated)?;
    match (body.get("reduction"), again) {
        (None, None) => {}
        (Some(r), Some(a)) if *r == a => out.reductions += 1,
        (Some(_), Some(_)) => {
            return Err(
                "the Gram reduction's checks, recomputed, differ from the certificate's".into(),
            )
        }
        (Some(_), None) => return Err("a Gram reduction the claim does not ask for".into()),
        (None, Some(_)) => {
            return Err("the claim's Gram reduction is missing from the certificate".into())
        }
    }
    for p in list {
        let top = std::ptr::eq(p, body).then_some(&stated.content);
        super::check_charts::check_cover(p, top, &mut out.cover)?;
        for cell in p
            .get("cells")
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
        {
            check_cell(cell, out)?;
        }
    }
    Ok(())
}

/// `impactkit check CERT…`: one line per certificate and a summary; `Ok((text, all
/// accepted))`; a file that cannot be read is bad input.
pub fn check_cli(paths: &[std::path::PathBuf], json: bool) -> Result<(String, bool), String> {
    if paths.is_empty() {
        return Err("check: give certificate files (verify --certificates DIR writes them)".into());
    }
    let mut rows = Vec::new();
    for p in paths {
        let text = crate::input::files::read_text(p, crate::input::files::CERTIFICATE)?;
        // a file that is not a certificate at all is bad input (exit 2); a certificate
        // that does not check is rejected (exit 1)
        let schema = serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| v.get("schema").and_then(|s| s.as_str()).map(String::from));
        if schema.as_deref() != Some(super::export::CERT_SCHEMA) {
            return Err(format!(
                "{}: not a certificate (JSON with \"schema\": \"{}\")",
                p.display(),
                super::export::CERT_SCHEMA
            ));
        }
        let c = check_text(&text).unwrap_or_else(|e| Checked {
            claim: p.display().to_string(),
            rejected: Some(e),
            ..Checked::default()
        });
        rows.push(c);
    }
    let ok = rows.iter().all(|r| r.rejected.is_none());
    let accepted = rows.iter().filter(|r| r.rejected.is_none()).count();
    let text = if json {
        serde_json::json!({
            "schema": crate::report::SCHEMA,
            "version": crate::report::VERSION,
            "command": "check",
            "certificates": rows.iter().map(|r| serde_json::json!({
                "claim": r.claim, "verdict": r.verdict, "accepted": r.rejected.is_none(),
                "reason": r.rejected, "cells": r.cells, "signs": r.facts,
                "radical signs (SMT only)": r.radical_facts, "conclusions": r.conclusions,
                "zone conclusions (re-derived, among the conclusions)": r.zone_conclusions,
                "agreement outputs (engine's values)": r.outputs,
                "Gram reductions (checks recomputed)": r.reductions,
                "cover": {
                    "root cells": r.cover.roots, "splits": r.cover.splits,
                    "outside cells": r.cover.outside,
                    "outside cells on a law output (engine's value)": r.cover.outside_engine,
                    "undefined or refused cells (counted)": r.cover.unproved_leaves,
                    "lemma statements (engine's)": r.cover.lemmas,
                },
            })).collect::<Vec<_>>(),
            "accepted": accepted,
            "rejected": rows.len() - accepted,
        })
        .to_string()
    } else {
        let mut s = String::new();
        for r in &rows {
            s += &match &r.rejected {
                None => format!(
                    "{:<40} accepted  {} ({} cells, {} signs re-derived, {} by radicals left to SMT, {} conclusions ({} on zones); cover: {} root cells, {} splits, {} outside)\n",
                    r.claim, r.verdict, r.cells, r.facts, r.radical_facts, r.conclusions, r.zone_conclusions,
                    r.cover.roots, r.cover.splits, r.cover.outside + r.cover.outside_engine
                ),
                Some(why) => format!("{:<40} REJECTED  {}: {why}\n", r.claim, r.verdict),
            };
        }
        s += &format!(
            "\n{} certificates: {accepted} accepted, {} rejected",
            rows.len(),
            rows.len() - accepted
        );
        s
    };
    Ok((text, ok))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_decide_only_what_holds() {
        let pos = vec!["a".to_string(), "b".to_string()];
        let s = |t: &str| value_sign(t, &pos).unwrap();
        assert_eq!(s("a^2 + a*b + 1"), Some(1));
        assert_eq!(s("-(a + b)/(1 + a)"), Some(-1));
        assert_eq!(s("a^2 - 2*a*b + b^2"), None); // (a - b)^2 vanishes at a = b
        assert_eq!(s("a^2 - a*b + b^2"), Some(1)); // AM-GM, strict
        assert_eq!(s("a - b"), None);
        assert_eq!(s("a*x"), None); // x is not positive
        assert_eq!(s("(a - a)*x"), Some(0));
        assert_eq!(s("a^2 - a + 1"), Some(1)); // quadratic, 4*1*1 - 1 > 0
    }
}
