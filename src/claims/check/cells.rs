//! `impactkit check`, a proved cell re-derived from the statement: on the cell's chart
//! (checked by [`super::cover`] to be the one the cover gives), the checker evaluates
//! the claim's own expressions and runs the claim's laws on rational functions of the
//! chart variables (the law is the model reasoned about: running it is allowed, trusting
//! a recorded output is not). Then:
//!
//! - every sign the law's run decided (its branches) is re-derived by the checker's
//!   rules ([`super::rules`]: the orthant rules, and the radical rule for a value with a
//!   square root); every square root's radicand is ≥ 0 by the rules, a square (|x|), or a
//!   hypothesis `D >= 0` / `D > 0` of the case (outside it the claim says nothing);
//! - every conclusion of the cell's case, in order, has its recorded entry, and the
//!   recorded obligation (guards and body, operator included) equals the re-derived one;
//!   the conclusion then follows from the re-derived obligation by the rules (its body's
//!   sign, or a guard decided false); a conclusion on an outcome's zone (FP eq. (1)) by
//!   each excluded zone's conditions shown infeasible, its values (ξ̇, η̇ of the output
//!   and of the input) re-derived;
//! - an agreement's conditions hold by the rules, and every compared output is the same
//!   rational function on both sides, re-computed.

use super::error::{reject, Rejection};
use super::rules::{holds, root_sign, Root};
use crate::arith::symbolic::{self, Symbolic};
use crate::arith::Scalar;
use crate::claims::certificate::{pair, strs};
use crate::claims::claim::body::Body;
use crate::claims::claim::statement::{obligation, radical_names, zone_conditions};
use crate::claims::exact::sampled::{self, Case, Sides};
use crate::lang::{self, Env};
use num_rational::BigRational;
use serde_json::Value;
use std::collections::BTreeSet;

/// What re-deriving the cells of one proof found.
#[derive(Debug, Default)]
pub(super) struct Found {
    /// Signs the laws' runs decided, each re-derived by the rules.
    pub facts: usize,
    /// Of those, signs of values with a square root (the radical rule).
    pub radical_facts: usize,
    pub conclusions: usize,
    pub zone_conclusions: usize,
    pub outputs: usize,
    /// The conclusions (text) decided on at least one cell.
    pub decided: BTreeSet<String>,
}

fn chart_of(v: Option<&Value>) -> Result<Env<Symbolic>, Rejection> {
    let m = v
        .and_then(|c| c.as_object())
        .ok_or_else(|| reject!(Format, "a cell without its chart"))?;
    m.iter()
        .map(|(k, x)| {
            let t = x
                .as_str()
                .ok_or_else(|| reject!(Format, "a malformed chart"))?;
            Ok((
                k.clone(),
                lang::parse_symbolic(t).map_err(|e| reject!(Format, "{t}: {e}"))?,
            ))
        })
        .collect()
}

/// A recorded cell's name, its case and its chart (checked against the cover's).
fn cell_of<'a>(
    cell: &'a Value,
    cases: &'a [Case],
) -> Result<(&'a str, &'a Case, Env<Symbolic>), Rejection> {
    let at = cell.get("cell").and_then(|c| c.as_str()).unwrap_or("?");
    let case_name = cell.get("case").and_then(|c| c.as_str()).unwrap_or("");
    let case = cases
        .iter()
        .find(|c| c.name == case_name)
        .ok_or_else(|| reject!(Cover, "cell {at}: a cell of no case"))?;
    Ok((at, case, chart_of(cell.get("chart"))?))
}

/// The sign of a value on the cell by the checker's rules (roots included).
fn sign(x: &Symbolic, positive: &[String], roots: &[Root]) -> Option<i8> {
    root_sign(x, positive, roots)
}

/// Re-derives one proved cell of a proof of `t` (the claim, or a lemma's statement).
pub(super) fn check_cell(
    t: &Body,
    cases: &[Case],
    sides: Option<&Sides>,
    cell: &Value,
    found: &mut Found,
) -> Result<(), Rejection> {
    let (at, case, chart) = cell_of(cell, cases)?;
    let positive = strs(cell.get("positive"));
    if cell.get("facts").is_none() {
        return Err(reject!(
            Format,
            "cell {at}: no decided signs (written without the decision log)"
        ));
    }
    let recorded: Vec<&Value> = cell
        .get("decided")
        .and_then(|d| d.as_array())
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    symbolic::enable_decision_log();
    symbolic::take_decisions();
    // the claim run on the chart, and every conclusion's obligation, inside the chart's
    // positive variables and with square roots kept as radicals (as the prover ran them)
    let (run, rads) = symbolic::with_positive_variables(&positive, || {
        symbolic::with_radicals(|| {
            let run = rederive(t, case, &chart, sides).map(|(scope, outputs)| {
                let obs: Vec<Value> = case
                    .conclude
                    .iter()
                    .map(|r| obligation(r, &scope))
                    .collect();
                (scope, outputs, obs)
            });
            (run, symbolic::radicals())
        })
    });
    let decisions = symbolic::take_decisions();
    let (scope, sides_out, obligations) =
        run.map_err(|e| e.within(&format!("cell {at}: re-running the claim: ")))?;
    let roots: Vec<Root> = rads
        .iter()
        .map(|r| Root {
            name: r.name.clone(),
            radicand: r.radicand.clone(),
            abs_of: r.abs_of.clone(),
        })
        .collect();
    // the law's branches: every sign it decided, by the rules
    let mut derived: BTreeSet<(String, i8)> = BTreeSet::new();
    for d in &decisions {
        let want = match d.sign {
            crate::arith::Sign::Positive => 1,
            crate::arith::Sign::Negative => -1,
            crate::arith::Sign::Zero => 0,
            crate::arith::Sign::Unknown => continue,
        };
        if sign(&d.value, &positive, &roots) != Some(want) {
            return Err(reject!(Sign,
                "cell {at}: the law's run decided the sign of {} by the rule {}, which the checker's rules do not give",
                radical_names(&d.value.render_string()),
                d.rule
            ));
        }
        derived.insert((radical_names(&d.value.render_string()), want));
        found.facts += 1;
        if d.rule == "radical" {
            found.radical_facts += 1;
        }
    }
    // the recorded signs are hints: each must hold by the rules too
    let named_roots = named(&roots);
    for f in cell
        .get("facts")
        .and_then(|f| f.as_array())
        .into_iter()
        .flatten()
    {
        let (Some(v), Some(sg)) = (
            f.get("value").and_then(|x| x.as_str()),
            f.get("sign").and_then(|x| x.as_str()),
        ) else {
            return Err(reject!(Format, "cell {at}: a malformed fact"));
        };
        let want = match sg {
            ">" => 1,
            "<" => -1,
            "==" => 0,
            x => return Err(reject!(Format, "cell {at}: unknown sign {x}")),
        };
        if derived.contains(&(v.to_string(), want)) {
            continue; // one of the signs re-derived above
        }
        let x = lang::parse_symbolic(v).map_err(|e| reject!(Format, "{v}: {e}"))?;
        if sign(&x, &positive, &named_roots) != Some(want) {
            return Err(reject!(
                Sign,
                "cell {at}: the recorded sign {sg} 0 of {v} does not follow by the rules"
            ));
        }
    }
    // every square root is defined where the claim speaks
    for r in &roots {
        if r.abs_of.is_some() || matches!(sign(&r.radicand, &positive, &roots), Some(0 | 1)) {
            continue;
        }
        if !assumed_nonnegative(&r.radicand, case, &scope) {
            return Err(reject!(Sign,
                "cell {at}: the square root of {} is not shown defined (its sign is not decided, no hypothesis says it is >= 0)",
                radical_names(&r.radicand.render_string())
            ));
        }
    }
    match sides_out {
        None => conclusions(
            case,
            &obligations,
            &scope,
            &recorded,
            &positive,
            &roots,
            at,
            found,
        )?,
        Some(outputs) => {
            // an agreement: its conditions hold on the cell, its outputs agree
            for (r, ob) in case.conclude.iter().zip(&obligations) {
                if !follows(ob, &positive, &roots)? {
                    return Err(reject!(
                        Conclusion,
                        "cell {at}: the condition `{}` does not hold on the cell by the rules",
                        r.text
                    ));
                }
                found.decided.insert(r.text.clone());
            }
            found.outputs += outputs;
            found.decided.insert(String::from("(the compared outputs)"));
        }
    }
    Ok(())
}

/// A radicand that is `lhs - rhs` of a hypothesis `>=` or `>` of the case.
fn assumed_nonnegative(d: &Symbolic, case: &Case, env: &Env<Symbolic>) -> bool {
    case.space.assume.iter().any(|a| {
        a.guard.is_none()
            && matches!(a.rel, lang::Rel::Ge | lang::Rel::Gt)
            && a.lhs
                .eval_in(env, &())
                .and_then(|l| a.rhs.eval_in(env, &()).map(|r| l - &r))
                .is_ok_and(|x: Symbolic| x.is_identical(d))
    })
}

/// The claim run on the chart: the scope (variables, derived quantities, the laws'
/// outputs) and, for an agreement, the number of outputs found identical on both sides.
fn rederive(
    t: &Body,
    case: &Case,
    chart: &Env<Symbolic>,
    sides: Option<&Sides>,
) -> Result<(Env<Symbolic>, Option<usize>), Rejection> {
    let mut env = chart.clone();
    case.space.derive(&mut env).map_err(Rejection::Recomputed)?;
    // the hypotheses evaluated first, as the prover does: a square root they hold gets
    // the same name as in the prover's run (their values are not needed here)
    for a in &case.space.assume {
        let _ = a.decide(&env, &());
    }
    let mut scope = env.clone();
    match sides {
        None => {
            let q = sampled::quantities(t);
            scope.extend(sampled::side(q, &env).map_err(Rejection::Recomputed)?);
            Ok((scope, None))
        }
        Some((left, rights, compare, _)) => {
            let a =
                sampled::side(*left, &env).map_err(|e| reject!(Recomputed, "left side: {e}"))?;
            scope.extend(a.clone());
            let mut n = 0;
            for right in rights {
                let b = sampled::side(*right, &env)
                    .map_err(|e| reject!(Recomputed, "right side: {e}"))?;
                for name in compare {
                    let (Some(x), Some(y)) = (a.get(name), b.get(name)) else {
                        return Err(reject!(Recomputed, "output `{name}` missing on one side"));
                    };
                    if !x.is_identical(y) {
                        return Err(reject!(
                            Conclusion,
                            "the output {name} differs between the sides"
                        ));
                    }
                    n += 1;
                }
            }
            Ok((scope, Some(n)))
        }
    }
}

/// An obligation holds on the cell: its body's sign makes it true, or a guard is false.
fn follows(ob: &Value, positive: &[String], roots: &[Root]) -> Result<bool, Rejection> {
    // the obligation's text names the roots `rad_…`
    let roots = named(roots);
    let parse = |v: &str| lang::parse_symbolic(v).map_err(|e| reject!(Format, "{v}: {e}"));
    let value_sign =
        |v: &str| -> Result<Option<i8>, Rejection> { Ok(sign(&parse(v)?, positive, &roots)) };
    if let Some((rel, v)) = ob.get("body").and_then(pair) {
        let x = parse(v)?;
        if let Some(s) = sign(&x, positive, &roots) {
            if holds(rel, s)? {
                return Ok(true);
            }
        }
        if super::rules::abs_bounds(&x, rel, positive, &roots) {
            return Ok(true);
        }
    }
    for g in ob
        .get("guards")
        .and_then(|g| g.as_array())
        .into_iter()
        .flatten()
    {
        if let Some((rel, v)) = pair(g) {
            if let Some(s) = value_sign(v)? {
                if !holds(rel, s)? {
                    return Ok(true);
                }
            }
        }
    }
    Ok(false)
}

/// Two obligations are the same: the same relations, in the same order, on the same
/// rational functions (a text may differ where a denominator's factors were met in
/// another order).
fn same_obligation(mine: &Value, recorded: &Value) -> bool {
    if mine == recorded {
        return true;
    }
    let same_pair = |a: Option<&Value>, b: Option<&Value>| -> bool {
        match (a.and_then(pair), b.and_then(pair)) {
            (Some((ra, va)), Some((rb, vb))) => {
                ra == rb
                    && match (lang::parse_symbolic(va), lang::parse_symbolic(vb)) {
                        (Ok(x), Ok(y)) => (x - &y).numerator().is_zero(),
                        _ => false,
                    }
            }
            (None, None) => a.is_none_or(|v| v.is_null()) && b.is_none_or(|v| v.is_null()),
            _ => false,
        }
    };
    let guards = |v: &Value| v.get("guards").and_then(|g| g.as_array()).cloned();
    let (Some(ga), Some(gb)) = (guards(mine), guards(recorded)) else {
        return false;
    };
    ga.len() == gb.len()
        && ga.iter().zip(&gb).all(|(x, y)| same_pair(Some(x), Some(y)))
        && same_pair(mine.get("body"), recorded.get("body"))
}

/// The roots under the names an obligation's text gives them (`rad_…`).
fn named(roots: &[Root]) -> Vec<Root> {
    roots
        .iter()
        .map(|r| Root {
            name: radical_names(&r.name),
            radicand: rename(&r.radicand),
            abs_of: r.abs_of.as_ref().map(rename),
        })
        .collect()
}

fn rename(x: &Symbolic) -> Symbolic {
    let t = radical_names(&x.render_string());
    lang::parse_symbolic(&t).unwrap_or_else(|_| x.clone())
}

/// The conclusions of an implication's case on a cell, each against its recorded entry.
#[allow(clippy::too_many_arguments)]
fn conclusions(
    case: &Case,
    obligations: &[Value],
    scope: &Env<Symbolic>,
    recorded: &[&Value],
    positive: &[String],
    roots: &[Root],
    at: &str,
    found: &mut Found,
) -> Result<(), Rejection> {
    let entries: Vec<&&Value> = recorded
        .iter()
        .filter(|d| d.get("relation").is_some())
        .collect();
    if entries.len() != case.conclude.len() {
        return Err(reject!(
            Conclusion,
            "cell {at}: {} conclusions recorded, the case has {}",
            entries.len(),
            case.conclude.len()
        ));
    }
    for ((r, d), ob) in case.conclude.iter().zip(entries).zip(obligations) {
        let text = d.get("relation").and_then(|x| x.as_str()).unwrap_or("");
        if text != r.text {
            return Err(reject!(
                Conclusion,
                "cell {at}: the recorded conclusion `{text}` is not the claim's `{}`",
                r.text
            ));
        }
        if d.get("zones excluded").is_some() {
            zone_conclusion(r, d, scope, positive, roots)
                .map_err(|e| reject!(Conclusion, "cell {at}: {e}"))?;
            found.zone_conclusions += 1;
        } else {
            if !d
                .get("obligation")
                .is_some_and(|rec| same_obligation(ob, rec))
            {
                return Err(reject!(Conclusion,
                    "cell {at}: the recorded obligation of `{}` is not the one the claim gives on the cell ({ob} re-derived, {} recorded)",
                    r.text,
                    d.get("obligation").unwrap_or(&Value::Null)
                ));
            }
            if !follows(ob, positive, roots)? {
                return Err(reject!(
                    Conclusion,
                    "cell {at}: the conclusion `{}` does not follow from its obligation",
                    r.text
                ));
            }
        }
        found.conclusions += 1;
        found.decided.insert(r.text.clone());
    }
    Ok(())
}

/// A conclusion `zoneN != c` (or `== c`): every zone it excludes has two conditions with
/// no common point in the cell — one false by the rules, or a combination λp₁ + μp₂ (λ, μ
/// each 1 or ±ξ̇, ±η̇ of the input, decided ≥ 0) decided < 0, or = 0 with a positive
/// multiplier on a strict condition. ξ̇, η̇ are re-derived (the law's outputs `xiN`,
/// `etaN` and the input's `xi`, `eta`); only the multipliers are read from the record.
fn zone_conclusion(
    r: &lang::Relation,
    d: &Value,
    scope: &Env<Symbolic>,
    positive: &[String],
    roots: &[Root],
) -> Result<(), Rejection> {
    let text = &r.text;
    let suffix = r
        .lhs
        .as_var()
        .and_then(|n| n.strip_prefix("zone"))
        .ok_or_else(|| reject!(Format, "`{text}` is not a zone conclusion"))?;
    let get = |k: &str| {
        scope
            .get(k)
            .cloned()
            .ok_or_else(|| reject!(Format, "`{text}`: no {k} on the cell"))
    };
    let (xi, eta) = (get(&format!("xi{suffix}"))?, get(&format!("eta{suffix}"))?);
    for (k, v) in [("xi", &xi), ("eta", &eta)] {
        let rec = d.get(k).and_then(|x| x.as_str()).unwrap_or("");
        let same = lang::parse_symbolic(rec).is_ok_and(|r| (r - &rename(v)).numerator().is_zero());
        if !same {
            return Err(reject!(Conclusion,
                "`{text}`: the recorded {k} of the outcome is not the one the claim gives on the cell"
            ));
        }
    }
    let c = r
        .rhs
        .as_rational()
        .filter(|c| c.is_integer())
        .and_then(|c| i64::try_from(c.to_integer()).ok())
        .ok_or_else(|| {
            reject!(
                Format,
                "a zone conclusion on a value that is not a zone code"
            )
        })?;
    let want: BTreeSet<i64> = match r.rel {
        lang::Rel::Ne => [c].into(),
        lang::Rel::Eq => [0, 1, 2, 12].into_iter().filter(|z| *z != c).collect(),
        _ => return Err(reject!(Format, "`{text}` is not a zone conclusion")),
    };
    let one = Symbolic::constant(&BigRational::from_integer(1.into()));
    let sign = |x: &Symbolic| sign(x, positive, roots);
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
            .ok_or_else(|| reject!(Format, "a malformed excluded zone"))?;
        let conds =
            zone_conditions(code, &xi, &eta).ok_or_else(|| reject!(Format, "an unknown zone"))?;
        let by = z.get("by").ok_or_else(|| {
            reject!(
                Conclusion,
                "`{text}`: zone {code} excluded without a reason"
            )
        })?;
        let empty = if let Some(i) = by.get("condition").and_then(|i| i.as_u64()) {
            let (p, strict) = conds
                .get(i as usize)
                .ok_or_else(|| reject!(Format, "a malformed condition"))?;
            matches!(sign(p), Some(-1)) || (*strict && sign(p) == Some(0))
        } else {
            let ms = strs(by.get("multipliers"));
            let [l, m] = ms.as_slice() else {
                return Err(reject!(
                    Format,
                    "`{text}`: zone {code}: a malformed certificate"
                ));
            };
            let mut signs = Vec::new();
            let mut vals = Vec::new();
            for t in [l, m] {
                let v = lang::parse_symbolic(t).map_err(|e| reject!(Format, "{t}: {e}"))?;
                let allowed = v.is_identical(&one)
                    || ["xi", "eta"].iter().any(|k| {
                        scope
                            .get(*k)
                            .is_some_and(|x| v.is_identical(x) || v.is_identical(&-x.clone()))
                    });
                let s = sign(&v);
                if !allowed || !matches!(s, Some(0 | 1)) {
                    return Err(reject!(
                        Conclusion,
                        "`{text}`: the multiplier {t} is not 1 or ±ξ̇, ±η̇ of the input decided ≥ 0"
                    ));
                }
                signs.push(s == Some(1));
                vals.push(v);
            }
            let sum = vals[0]
                .mul_r(&conds[0].0)
                .add_r(&vals[1].mul_r(&conds[1].0));
            let strict = (conds[0].1 && signs[0]) || (conds[1].1 && signs[1]);
            match sign(&sum) {
                Some(-1) => true,
                Some(0) => strict,
                _ => false,
            }
        };
        if !empty {
            return Err(reject!(
                Conclusion,
                "`{text}`: zone {code} is not shown empty"
            ));
        }
        shown.insert(code);
    }
    if shown != want {
        return Err(reject!(
            Conclusion,
            "`{text}`: the zones shown empty are not those it excludes"
        ));
    }
    Ok(())
}

/// A leaf the certificate says the claim says nothing about: `undefined` (a quantity of
/// the claim divides by zero on the whole cell) or `refused` (the law gives no outcome
/// there, with an error of its own, not an undecided sign). Re-run on the cell's chart
/// (checked by the cover), it must be so.
pub(super) fn check_unproved(
    t: &Body,
    cases: &[Case],
    sides: Option<&Sides>,
    cell: &Value,
) -> Result<(), Rejection> {
    let (at, case, chart) = cell_of(cell, cases)?;
    let status = cell.get("status").and_then(|s| s.as_str()).unwrap_or("");
    let positive: Vec<String> = chart
        .values()
        .flat_map(|v| v.variables())
        .filter(|v| v.starts_with("t_") || v.starts_with("c_"))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    // (the law's error, the conclusions' errors)
    let (law, errors): (Option<String>, Vec<String>) =
        symbolic::with_positive_variables(&positive, || {
            symbolic::with_radicals(|| match rederive(t, case, &chart, sides) {
                Err(e) => (Some(e.to_string()), Vec::new()),
                Ok((scope, _)) => (
                    None,
                    case.conclude
                        .iter()
                        .filter_map(|r| {
                            let v = r
                                .lhs
                                .eval_in(&scope, &())
                                .and_then(|l| r.rhs.eval_in(&scope, &()).map(|x| l - &x));
                            v.err().map(|e| e.to_string())
                        })
                        .collect(),
                ),
            })
        });
    let ok = match status {
        "undefined" => law
            .iter()
            .chain(&errors)
            .any(|e| e.contains("division by zero")),
        "refused" => law.is_some_and(|e| !e.contains("undecided")),
        _ => return Err(reject!(Format, "cell {at}: unknown status `{status}`")),
    };
    if !ok {
        return Err(reject!(
            Recomputed,
            "cell {at}: recorded `{status}`, but the claim re-run on the cell does not say so"
        ));
    }
    Ok(())
}
