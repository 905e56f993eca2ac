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
//! - **An induction or a termination**: the statements of its lemmas (the step lemma and
//!   the conclusions at the run's start; the ranking, entry and domain lemmas) are derived
//!   from the claim file by the same functions the prover uses
//!   ([`crate::claims::claim::induction`], [`crate::claims::claim::termination`]), never
//!   read from the certificate; its recorded conclusions, runs, run facts and ranking must
//!   be the derived ones, and every lemma holds at every state (no cell left undefined or
//!   refused). A symbolic proof of any other statement is rejected.
//!
//! Not re-checked here: an agreement's outputs found identical on both sides (the
//! engine's values, counted).
//!
//! A rejection is a [`Rejection`] (`error.rs`): its class (the part of the proof that did
//! not re-check: format, claim, verdict, statement, cover, sign, conclusion, vacuous,
//! witness, recomputed) and one line naming what failed; bad input to the command is a
//! [`CheckError`] (exit 2).

mod cells;
mod cover;
mod error;
mod rules;

use error::reject;
pub use error::{CheckError, Rejection};

use super::certificate::strs;
use super::certificate::CERT_SCHEMA;
use super::claim::{induction, termination, Claim, Kind, Verdict};
use crate::arith::symbolic::Symbolic;
use num_rational::BigRational;

use serde_json::Value;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// What checking one certificate found.
#[derive(Debug, Default)]
pub struct Checked {
    pub claim: String,
    pub verdict: String,
    /// `None` when accepted, else the first reason for rejecting it.
    pub rejected: Option<Rejection>,
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
    pub cover: cover::Cover,
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
fn at_witness(claim: &Claim, cx: &Value) -> Result<Claim, Rejection> {
    let kind = claim.kind;
    claim
        .edited(|t| {
            for k in ["proof", "induction", "termination", "corrected_conclude"] {
                t.remove(k);
            }
            // the claim's boxes and its cases' own (a case's box of a variable replaces
            // the claim's)
            let pin = |t: &mut toml::Table| {
                if let Some(toml::Value::Table(vars)) = t.get_mut("vars") {
                    for (name, range) in vars.iter_mut() {
                        if let Some(v) = cx.get(name).and_then(|x| x.as_str()) {
                            *range = toml::Value::Array(vec![v.into(), v.into()]);
                        }
                    }
                }
            };
            pin(t);
            if let Some(toml::Value::Array(cases)) = t.get_mut("case") {
                cases
                    .iter_mut()
                    .filter_map(|c| c.as_table_mut())
                    .for_each(pin);
            }
            // one sample: the witness (an inequality is decided on its box, not sampled)
            if kind != Kind::Inequality {
                t.insert("samples".into(), 1.into());
            }
        })
        .map_err(Rejection::Claim)
}

/// A refutation's witness lies in the claim's domain: each parameter of `proof.domain`
/// in its range (ends evaluated at the witness), exactly; without a proof table, each
/// variable in its closed box of `vars`.
fn witness_in_domain(claim: &Claim, cx: &Value) -> Result<(), Rejection> {
    use super::claim::statement::{domain_and_cone, Range};
    let value = |name: &str| -> Result<BigRational, Rejection> {
        let t = cx
            .get(name)
            .and_then(|x| x.as_str())
            .ok_or_else(|| reject!(Witness, "the witness gives no value of {name}"))?;
        crate::lang::rational(t).map_err(|e| reject!(Witness, "the witness's {name} = {t}: {e}"))
    };
    let Some(spec) = claim.body().proof() else {
        let space = claim.body().sampled().map_err(Rejection::Claim)?.space;
        let boxes =
            super::exact::sample_points::read_box(space.vars()).map_err(Rejection::Claim)?;
        for (name, lo, hi) in boxes {
            let v = value(&name)?;
            if v < lo || v > hi {
                return Err(reject!(
                    Witness,
                    "the witness's {name} = {v} is outside [{lo}, {hi}]"
                ));
            }
        }
        return Ok(());
    };
    let (params, _) = domain_and_cone(spec).map_err(Rejection::Claim)?;
    let mut env: crate::lang::Env<Symbolic> = crate::lang::Env::new();
    for (name, _) in &params {
        env.insert(name.clone(), Symbolic::constant(&value(name)?));
    }
    let at = |e: &Symbolic| -> Result<BigRational, Rejection> {
        env.iter()
            .try_fold(e.clone(), |acc, (n, x)| acc.substitute(n, x))
            .map_err(|e| reject!(Witness, "{e}"))?
            .is_constant()
            .ok_or_else(|| reject!(Witness, "a range end that is not a number at the witness"))
    };
    fn inside(
        r: &Range,
        v: &BigRational,
        at: &dyn Fn(&Symbolic) -> Result<BigRational, Rejection>,
    ) -> Result<bool, Rejection> {
        Ok(match r {
            Range::Point(p) => at(p)? == *v,
            Range::Interval(lo, hi) => {
                let lo_ok = match lo {
                    None => true,
                    Some((e, closed)) => {
                        let e = at(e)?;
                        *v > e || (*closed && *v == e)
                    }
                };
                let hi_ok = match hi {
                    None => true,
                    Some((e, closed)) => {
                        let e = at(e)?;
                        *v < e || (*closed && *v == e)
                    }
                };
                lo_ok && hi_ok
            }
            Range::Union(parts) => {
                for p in parts {
                    if inside(p, v, at)? {
                        return Ok(true);
                    }
                }
                false
            }
        })
    }
    for (name, r) in &params {
        let v = value(name)?;
        if !inside(r, &v, &at)? {
            return Err(reject!(
                Witness,
                "the witness's {name} = {v} is outside the proof's domain {}",
                r.text()
            ));
        }
    }
    Ok(())
}

/// Re-checks one certificate (JSON text) against the claim files `claims`: the claim is
/// the one whose id the certificate names, read from its file (the claim's text inside
/// the certificate is never read).
pub fn check_text(text: &str, claims: &[Claim]) -> Result<Checked, Rejection> {
    let cert: Value = serde_json::from_str(text).map_err(|e| reject!(Format, "not JSON: {e}"))?;
    if cert.get("schema").and_then(|s| s.as_str()) != Some(CERT_SCHEMA) {
        return Err(reject!(Format, "not a certificate ({CERT_SCHEMA})"));
    }
    let id = cert.get("claim").and_then(|x| x.as_str()).unwrap_or("");
    let Some(claim) = claims.iter().find(|c| c.id == id) else {
        return Ok(Checked {
            claim: id.to_string(),
            verdict: text_field(&cert, "verdict"),
            rejected: Some(reject!(
                Claim,
                "no claim file with the id `{id}` among the claims given (--claims)"
            )),
            ..Checked::default()
        });
    };
    Ok(check_value(&cert, claim))
}

fn text_field(cert: &Value, k: &str) -> String {
    cert.get(k)
        .and_then(|x| x.as_str())
        .unwrap_or("")
        .to_string()
}

/// Re-checks a certificate (parsed) of `claim`, the statement read from the claim file.
pub fn check_value(cert: &Value, claim: &Claim) -> Checked {
    let mut out = Checked {
        claim: claim.id.clone(),
        verdict: text_field(cert, "verdict"),
        ..Checked::default()
    };
    out.rejected = if text_field(cert, "claim") != claim.id {
        Some(reject!(Claim, "the certificate names another claim"))
    } else {
        let verdict = out.verdict.clone();
        verdict_ok(claim, cert, &verdict, &mut out).err()
    };
    out
}

fn recomputed(o: super::claim::Outcome, want: Verdict) -> Result<(), Rejection> {
    match o.verdict == want {
        true => Ok(()),
        false => Err(reject!(
            Recomputed,
            "recomputed: {} ({})",
            o.verdict.name(),
            o.detail
        )),
    }
}

fn verdict_ok(
    claim: &Claim,
    cert: &Value,
    verdict: &str,
    out: &mut Checked,
) -> Result<(), Rejection> {
    let deadline = Instant::now() + Duration::from_secs(600);
    let want = match verdict {
        "proved" => Verdict::Proved,
        "proved-on-subdomain" => Verdict::ProvedOnSubdomain,
        "refuted" => Verdict::Refuted,
        v => return Err(reject!(Verdict, "no certificate for the verdict {v}")),
    };
    match claim.kind {
        Kind::ExactExample => {
            return recomputed(
                super::exact::example::check(claim).map_err(Rejection::Recomputed)?,
                want,
            )
        }
        Kind::FpAudit => {
            return recomputed(
                super::exact::fp_audit::check(claim).map_err(Rejection::Recomputed)?,
                want,
            )
        }
        Kind::Identity => {
            return recomputed(
                super::exact::identity::check(claim).map_err(Rejection::Recomputed)?,
                want,
            )
        }
        _ => {}
    }
    if want == Verdict::Refuted {
        let cx = cert
            .get("counterexample")
            .filter(|c| c.is_object())
            .ok_or_else(|| reject!(Verdict, "a refutation without a witness"))?;
        if cx.get("cell").is_some() {
            return Err(reject!(
                Verdict,
                "a refutation on a cell without a rational point: not re-checked"
            ));
        }
        witness_in_domain(claim, cx)?;
        let c = at_witness(claim, cx)?;
        // the witness lies in one case: each case on its own (the others have no point)
        let n = c
            .body()
            .sampled()
            .ok()
            .and_then(|s| s.case)
            .map_or(0, <[_]>::len);
        let mut last = None;
        for i in 0..n.max(1) {
            let one = c
                .edited(|t| {
                    if let Some(toml::Value::Array(cases)) = t.get_mut("case") {
                        let keep = cases[i].clone();
                        *cases = vec![keep];
                    }
                })
                .map_err(Rejection::Claim)?;
            let o = match claim.kind {
                Kind::Implication => super::exact::sampled::check_implication(&one, deadline)
                    .map_err(Rejection::Recomputed)?,
                Kind::Agreement => super::exact::sampled::check_agreement(&one, deadline)
                    .map_err(Rejection::Recomputed)?,
                Kind::CounterexampleSearch => super::exact::sampled::check_search(&one, deadline)
                    .map_err(Rejection::Recomputed)?,
                Kind::Inequality => super::exact::inequality::check(&one, deadline)
                    .map_err(Rejection::Recomputed)?,
                k => return Err(reject!(Verdict, "no witness check for kind {k}")),
            };
            if o.verdict == Verdict::Refuted {
                return Ok(());
            }
            last = Some(o);
        }
        return recomputed(
            last.ok_or_else(|| reject!(Recomputed, "no case"))?,
            Verdict::Refuted,
        );
    }
    let body = cert.get("certificate").filter(|c| !c.is_null());
    let Some(body) = body else {
        // interval branch-and-bound on an inequality: rigorous, recomputed
        if claim.kind == Kind::Inequality {
            return recomputed(
                super::exact::inequality::check(claim, deadline).map_err(Rejection::Recomputed)?,
                want,
            );
        }
        return Err(reject!(Verdict, "a proof without a certificate"));
    };
    let mut list = Vec::new();
    proofs(body, &mut list);
    if list.is_empty() {
        return Err(reject!(
            Verdict,
            "no symbolic proof in the certificate (method {})",
            body.get("method").and_then(|m| m.as_str()).unwrap_or("?")
        ));
    }
    // the claim's own proof is of the claim (an inequality: as the implication "holds",
    // the documented rewrite of `verify`)
    let stated = match claim.kind {
        Kind::Inequality => super::claim::as_implication(claim)
            .ok_or_else(|| reject!(Claim, "an inequality without a proof table"))?,
        _ => claim.clone(),
    };
    // a Gram reduction: its checks recomputed from the claim file, as the engine ran them
    let again = super::reduction::reduction_of(&stated).map_err(Rejection::Claim)?;
    match (body.get("reduction"), again) {
        (None, None) => {}
        (Some(r), Some(a)) if *r == a => out.reductions += 1,
        (Some(_), Some(_)) => {
            return Err(reject!(
                Statement,
                "the Gram reduction's checks, recomputed, differ from the certificate's"
            ))
        }
        (Some(_), None) => {
            return Err(reject!(
                Statement,
                "a Gram reduction the claim does not ask for"
            ))
        }
        (None, Some(_)) => {
            return Err(reject!(
                Statement,
                "the claim's Gram reduction is missing from the certificate"
            ))
        }
    }
    // the statements of an induction's or a termination's lemmas, derived from the claim file
    let derived = match body.get("method").and_then(|m| m.as_str()) {
        Some(induction::METHOD) => induction_lemmas(&stated, body)?,
        Some(termination::RANKING | termination::SHRINKING) => termination_lemmas(&stated, body)?,
        _ => Vec::new(),
    };
    for p in list {
        // the statement: the claim's, or a lemma's as derived from the claim file; a
        // proof of any other statement is not the claim's (the certificate's own text of
        // a statement is never read)
        let own = match std::ptr::eq(p, body) {
            true => &stated,
            false => {
                let lemma = derived.iter().find(|(q, _)| std::ptr::eq(*q, p));
                out.cover.derived_lemmas += 1;
                &lemma
                    .ok_or_else(|| {
                        reject!(
                            Statement,
                            "a proof of a statement the claim file does not give"
                        )
                    })?
                    .1
            }
        };
        cover::check_cover(p, own, &mut out.cover)?;
        let source = own.body();
        let cases = super::exact::sampled::cases(source).map_err(Rejection::Claim)?;
        let sides = match source.agreement() {
            Some(_) => {
                Some(super::exact::sampled::agreement_sides(source).map_err(Rejection::Claim)?)
            }
            None => None,
        };
        let mut found = cells::Found::default();
        for cell in p
            .get("cells")
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
        {
            cells::check_cell(source, &cases, sides.as_ref(), cell, &mut found)?;
            out.cells += 1;
        }
        for leaf in p
            .get("other cells")
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
            .filter(|c| c.get("status").and_then(|s| s.as_str()) != Some("outside"))
        {
            cells::check_unproved(source, &cases, sides.as_ref(), leaf)?;
        }
        // no vacuous proof: every conclusion defined and decided on some cell
        // (a case whose every cell is outside its hypotheses has no point: it excludes
        // configurations, and says nothing)
        let with_points: BTreeSet<&str> = p
            .get("cells")
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
            .chain(
                p.get("other cells")
                    .and_then(|c| c.as_array())
                    .into_iter()
                    .flatten()
                    .filter(|c| c.get("status").and_then(|s| s.as_str()) != Some("outside")),
            )
            .filter_map(|c| c.get("case").and_then(|x| x.as_str()))
            .collect();
        let mut wanted: BTreeSet<String> = cases
            .iter()
            .filter(|c| with_points.contains(c.name.as_str()))
            .flat_map(|c| c.conclude.iter().map(|r| r.text.clone()))
            .collect();
        if with_points.is_empty() {
            return Err(reject!(
                Vacuous,
                "no cell of the domain is proved: a vacuous proof"
            ));
        }
        if sides.is_some() {
            wanted.insert("(the compared outputs)".into());
        }
        if let Some(missing) = wanted.iter().find(|c| !found.decided.contains(*c)) {
            return Err(reject!(Vacuous,
                "`{missing}` is decided on no cell (undefined or left out everywhere): a vacuous proof"
            ));
        }
        out.facts += found.facts;
        out.radical_facts += found.radical_facts;
        out.conclusions += found.conclusions;
        out.zone_conclusions += found.zone_conclusions;
        out.outputs += found.outputs;
    }
    Ok(())
}

/// The proofs inside an induction's certificate, each with its statement as derived from
/// the claim file ([`induction::derive`]): the step lemma (in the form whose conclusions
/// the certificate records, which must be one the claim gives) and, for one run, the
/// conclusions at the run's start; for runs in lockstep, every conclusion of the claim
/// must be a run fact. The step lemma holds at every state: no cell of it may be left
/// undefined or refused.
fn induction_lemmas<'a>(
    claim: &Claim,
    body: &'a Value,
) -> Result<Vec<(&'a Value, Claim)>, Rejection> {
    let recorded = strs(body.get("step lemma conclusions"));
    let mut forms = Vec::new();
    for form in [
        induction::OneRun::FromAny,
        induction::OneRun::WithoutMultiple,
    ] {
        let d = induction::derive(claim, form)
            .map_err(|e| reject!(Claim, "the claim's induction: {e}"))?;
        let one_run = d.one_run;
        forms.push(d);
        if !one_run {
            break;
        }
    }
    let d = forms
        .into_iter()
        .find(|d| d.lemma_conclusions == recorded)
        .ok_or_else(|| {
            reject!(
                Statement,
                "the step lemma's conclusions are not those the claim's induction gives"
            )
        })?;
    if strs(body.get("runs")) != d.runs {
        return Err(reject!(
            Statement,
            "the induction's runs are not the claim's"
        ));
    }
    let lemma = at_every_state(body, "step lemma")?;
    let mut out = vec![(lemma, d.lemma)];
    match d.instance {
        Some((inst, rewritten)) => {
            if strs(body.get("instance conclusions")) != rewritten {
                return Err(reject!(
                    Statement,
                    "the conclusions at the run's start are not those the claim's induction gives"
                ));
            }
            let proof = body
                .get("instance")
                .filter(|p| p.get("method").and_then(|m| m.as_str()) == Some("symbolic cells"))
                .ok_or_else(|| {
                    reject!(
                        Statement,
                        "an induction without the proof of its conclusions at the run's start"
                    )
                })?;
            out.push((proof, inst));
        }
        None => {
            let missing = induction::not_facts(claim, &d.facts);
            if !missing.is_empty() {
                return Err(reject!(
                    Statement,
                    "the conclusion(s) {} are not among the run facts the step lemma gives",
                    missing.join(", ")
                ));
            }
            let facts: Vec<String> = d.facts.iter().map(induction::fact_text).collect();
            if strs(body.get("run facts")) != facts {
                return Err(reject!(
                    Statement,
                    "the run facts are not those the claim's induction gives"
                ));
            }
        }
    }
    Ok(out)
}

/// A lemma's proof in a certificate, which must hold at every state of its domain: a
/// symbolic proof with no cell left undefined or refused.
fn at_every_state<'a>(body: &'a Value, key: &str) -> Result<&'a Value, Rejection> {
    let proof = body
        .get(key)
        .filter(|p| p.get("method").and_then(|m| m.as_str()) == Some("symbolic cells"))
        .ok_or_else(|| reject!(Format, "no proof of the {key}"))?;
    let unproved = proof
        .get("other cells")
        .and_then(|c| c.as_array())
        .into_iter()
        .flatten()
        .filter(|c| c.get("status").and_then(|s| s.as_str()) != Some("outside"))
        .count();
    if unproved > 0 {
        return Err(reject!(Conclusion,
            "the {key} is left undefined or refused on {unproved} cell(s): it must hold at every state"
        ));
    }
    Ok(proof)
}

/// The proofs inside a termination's certificate, each with its statement as derived
/// from the claim file ([`termination::derive`]): the ranking (or shrinking) lemma and,
/// for a ranking with a domain of its own, the entry and domain lemmas, each holding at
/// every state; the certificate's record of the ranking, its bounds, the run and the
/// lemmas' conclusions must be the derived ones.
fn termination_lemmas<'a>(
    claim: &Claim,
    body: &'a Value,
) -> Result<Vec<(&'a Value, Claim)>, Rejection> {
    let spec = claim
        .body()
        .implication()
        .and_then(|t| t.termination.as_ref())
        .ok_or_else(|| {
            reject!(
                Claim,
                "a termination certificate for a claim without a termination table"
            )
        })?;
    let t = termination::derive(claim, spec).map_err(|e| reject!(Claim, "the claim's {e}"))?;
    for (k, v) in t.record().as_object().into_iter().flatten() {
        if body.get(k) != Some(v) {
            return Err(reject!(
                Statement,
                "the termination's `{k}` is not the one the claim file gives"
            ));
        }
    }
    let mut out = Vec::new();
    for l in t.lemmas {
        out.push((at_every_state(body, l.key)?, l.claim));
    }
    Ok(out)
}

/// `impactkit check CERT…`: one line per certificate and a summary; `Ok((text, all
/// accepted))`; a file that cannot be read is bad input.
pub fn check_cli(
    paths: &[std::path::PathBuf],
    claims: &[std::path::PathBuf],
    json: bool,
) -> Result<(String, bool), CheckError> {
    if paths.is_empty() {
        return Err(CheckError::NoFiles);
    }
    let mut texts = Vec::new();
    for p in paths {
        let text = crate::input::files::read_text(p, crate::input::files::CERTIFICATE)
            .map_err(CheckError::Read)?;
        // a file that is not a certificate at all is bad input (exit 2); a certificate
        // that does not check is rejected (exit 1)
        let schema = serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| v.get("schema").and_then(|s| s.as_str()).map(String::from));
        if schema.as_deref() != Some(CERT_SCHEMA) {
            return Err(CheckError::NotCertificate {
                file: p.display().to_string(),
                schema: CERT_SCHEMA,
            });
        }
        texts.push((p, text));
    }
    let claims = super::claim::load_paths(claims)?;
    // the certificates are independent: checked on every core
    use rayon::prelude::*;
    let rows: Vec<Checked> = texts
        .par_iter()
        .map(|(p, text)| {
            check_text(text, &claims).unwrap_or_else(|e| Checked {
                claim: p.display().to_string(),
                rejected: Some(e),
                ..Checked::default()
            })
        })
        .collect();
    let ok = rows.iter().all(|r| r.rejected.is_none());
    let accepted = rows.iter().filter(|r| r.rejected.is_none()).count();
    let text = if json {
        serde_json::json!({
            "schema": crate::report::SCHEMA,
            "version": crate::report::VERSION,
            "command": "check",
            "certificates": rows.iter().map(|r| serde_json::json!({
                "claim": r.claim, "verdict": r.verdict, "accepted": r.rejected.is_none(),
                "reason": r.rejected.as_ref().map(|e| e.to_string()),
                "class": r.rejected.as_ref().map(Rejection::class), "cells": r.cells, "signs": r.facts,
                "signs by the radical rule (among the signs)": r.radical_facts, "conclusions": r.conclusions,
                "zone conclusions (re-derived, among the conclusions)": r.zone_conclusions,
                "agreement outputs (re-computed on both sides)": r.outputs,
                "Gram reductions (checks recomputed)": r.reductions,
                "cover": {
                    "root cells": r.cover.roots, "splits": r.cover.splits,
                    "outside cells": r.cover.outside,
                    "outside cells on a law output (engine's value)": r.cover.outside_engine,
                    "undefined or refused cells (counted)": r.cover.unproved_leaves,
                    "lemma statements (derived from the claim file)": r.cover.derived_lemmas,
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
                    "{:<40} accepted  {} ({} cells, {} signs re-derived ({} by the radical rule), {} conclusions ({} on zones); cover: {} root cells, {} splits, {} outside)\n",
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
    use super::rules::value_sign;

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
