//! The sampled kinds: `agreement`, `implication` and `counterexample-search`, checked at
//! exact rational sample points of a box (with hypotheses), one case (zone) at a time.
//!
//! ```toml
//! [implication]
//! vars = { k = ["0", "1"], x = ["0", "2"], y = ["-2", "2"] }
//! assume = ["k*x + y > 0", "k*x - y > 0"]       # common hypotheses
//! probe = "corner.tr_nid_xy"                     # optional; inputs default to all vars
//! inputs = { eps = "1/2" }                       # optional: name = expression of the vars
//! conclude = ["zone1 != 12"]                     # relations over vars and probe outputs
//! samples = 60
//! [[implication.case]]                           # optional: per-zone cases
//! name = "Z12"
//! assume = ["..."]
//! conclude = ["..."]
//! ```
//!
//! `agreement` has two sides `left` and `right` (each `{ probe, inputs }` or
//! `{ exprs = { name = "expr" } }`) and `compare = ["x1", "y1"]`.
//! Verdicts: `confirmed-on-samples` (N exact points, not a proof) or `refuted` with the
//! exact point; `corrected_conclude` (optional) is a candidate correction, checked on the
//! same points when the statement is refuted.

use crate::arith::{Rational, Scalar, Symbolic};
use crate::claims::claim::body::{Body, Implication, Named, Quantities, Side};
use crate::claims::claim::{Claim, Outcome, Verdict};
use crate::claims::exact::sample_points::{env_json, env_text, Space};
use crate::claims::probes::generic as probes_generic;
use crate::claims::probes::inputs::ProbeIn;
use crate::claims::probes::{self, Inputs};
use crate::lang::{self, show, Env, Relation};
use std::time::Instant;

/// One case (zone) of a sampled claim.
pub(crate) struct Case {
    pub(crate) name: String,
    pub(crate) space: Space,
    pub(crate) conclude: Vec<Relation>,
    /// A candidate corrected conclusion for this case (`corrected_conclude`).
    pub(crate) corrected: Option<Vec<Relation>>,
}

fn relations(list: &[String], key: &str) -> Result<Vec<Relation>, String> {
    list.iter()
        .map(|s| lang::parse_relation(s).map_err(|e| format!("{key}: {e}")))
        .collect()
}

/// The cases of a claim: each with the claim's space and conclusions and its own.
pub(crate) fn cases(b: &Body) -> Result<Vec<Case>, String> {
    let t = b.sampled()?;
    let base = Space::read(t.space)?;
    let conclude = relations(t.conclude, "conclude")?;
    let top = relations(t.corrected_conclude, "corrected_conclude")?;
    let top = (!top.is_empty()).then_some(top);
    let Some(list) = t.case else {
        return Ok(vec![Case {
            name: String::new(),
            space: base,
            conclude,
            corrected: top,
        }]);
    };
    list.iter()
        .map(|c| {
            let mut space = base.clone();
            let extra = Space::read(c)?;
            for v in extra.vars {
                match space.vars.iter_mut().find(|b| b.0 == v.0) {
                    Some(b) => *b = v,
                    None => space.vars.push(v),
                }
            }
            space.assume.extend(extra.assume);
            space.derived.extend(extra.derived);
            let mut concl = conclude.clone();
            concl.extend(relations(&c.conclude, "conclude")?);
            Ok(Case {
                name: c.name.clone(),
                space,
                conclude: concl,
                corrected: {
                    let c = relations(&c.corrected_conclude, "corrected_conclude")?;
                    if c.is_empty() {
                        top.clone()
                    } else {
                        Some(c)
                    }
                },
            })
        })
        .collect()
}

/// An arithmetic the sampled kinds and the prover evaluate claims in: exact rationals
/// (every probe) and symbolic rational functions (the probes of `probes_generic`).
pub(crate) trait Probing: Scalar<Ctx = ()> {
    /// Runs probe `name` with inputs: every variable of `env`, then the `mapping`
    /// (`name = expression of env`, or a bare word that is not a variable).
    fn probe(
        name: &str,
        env: &Env<Self>,
        mapping: &[(String, String)],
    ) -> Result<Env<Self>, String>;
}

impl Probing for Rational {
    fn probe(
        name: &str,
        env: &Env<Self>,
        mapping: &[(String, String)],
    ) -> Result<Env<Self>, String> {
        let all: Inputs = env
            .iter()
            .map(|(k, v)| (k.clone(), show(&v.to_big())))
            .collect();
        probes::run(name, &probes::inputs_from(env, mapping, &all)?)
    }
}

impl Probing for Symbolic {
    fn probe(
        name: &str,
        env: &Env<Self>,
        mapping: &[(String, String)],
    ) -> Result<Env<Self>, String> {
        let mut inp = ProbeIn {
            nums: env.clone(),
            words: Default::default(),
            ctx: (),
        };
        for (k, e) in mapping {
            // as written too (digits such as `zones = "01"` are read as text by some probes)
            inp.words.insert(k.clone(), e.clone());
            let node = lang::parse_with_variables(e).map_err(|x| format!("inputs.{k}: {x}"))?;
            match node.as_var() {
                Some(w) if !env.contains_key(w) => {
                    inp.nums.remove(k);
                }
                _ => {
                    let v = node.eval_in(env, &()).map_err(|x| x.to_string())?;
                    inp.nums.insert(k.clone(), v);
                }
            }
        }
        probes_generic::run(name, &inp)
            .unwrap_or_else(|| Err(format!("probe {name} has no symbolic form")))
    }
}

/// The quantities of a claim's table outside its sides: an implication's probe, calls and
/// expressions (none for the other kinds, whose quantities are in their sides).
pub(crate) fn quantities(b: &Body) -> &dyn Quantities {
    static NONE: Side = Side {
        probe: None,
        inputs: Named(Vec::new()),
        probe2: None,
        inputs2: Named(Vec::new()),
        exprs: Named(Vec::new()),
    };
    match b.implication() {
        Some(t) => t,
        None => &NONE,
    }
}

/// Evaluates one side at a point: a probe (inputs default to every variable) or
/// expressions.
pub(crate) fn side<S: Probing>(t: &dyn Quantities, env: &Env<S>) -> Result<Env<S>, String> {
    let mut out = Env::new();
    if let Some(name) = t.probe() {
        out.extend(S::probe(name, env, t.inputs().pairs())?);
    }
    // a second run of a law at another point (e.g. a perturbed velocity): outputs `p_*`
    if let Some(name) = t.probe2() {
        for (k, v) in S::probe(name, env, t.inputs2().pairs())? {
            out.insert(format!("p_{k}"), v);
        }
    }
    // further runs: `calls = [{ probe, inputs, prefix }]`, outputs `{prefix}{name}`
    for c in t.calls() {
        for (k, v) in S::probe(&c.probe, env, c.inputs.pairs())? {
            out.insert(format!("{}{k}", c.prefix), v);
        }
    }
    let mut scope = env.clone();
    scope.extend(out.clone());
    for (name, e) in t.exprs().pairs() {
        let v = lang::parse_with_variables(e)
            .map_err(|x| format!("exprs.{name}: {x}"))?
            .eval_in(&scope, &())
            .map_err(|e| e.to_string())?;
        scope.insert(name.clone(), v.clone());
        out.insert(name.clone(), v);
    }
    Ok(out)
}

pub(crate) fn label(case: &Case) -> String {
    if case.name.is_empty() {
        String::new()
    } else {
        format!("[{}] ", case.name)
    }
}

/// The common loop: every case, every sample; `test` returns `Err(detail, cx)` for a
/// violation, `Ok(false)` when the point is outside the domain of the law (skipped).
fn run_cases(
    claim: &Claim,
    default_n: i64,
    deadline: Instant,
    mut test: impl FnMut(
        &Case,
        &Env<Rational>,
    ) -> Result<Result<bool, (String, serde_json::Value)>, String>,
) -> Result<Outcome, String> {
    let n = claim
        .body()
        .samples()
        .unwrap_or(default_n)
        .clamp(1, 100_000) as usize;
    let mut parts = Vec::new();
    let mut total = 0;
    for case in cases(claim.body())? {
        let pts = case
            .space
            .samples(n, &format!("{}/{}", claim.id, case.name), deadline)?;
        let mut used = 0;
        for env in &pts {
            match test(&case, env)? {
                Ok(true) => used += 1,
                Ok(false) => {}
                Err((detail, cx)) => {
                    return Ok(Outcome::refuted(format!("{}{detail}", label(&case)), cx));
                }
            }
        }
        if used == 0 {
            return Ok(Outcome::inconclusive(format!(
                "{}no admissible exact sample point",
                label(&case)
            )));
        }
        total += used;
        if !case.name.is_empty() {
            parts.push(format!("{} {used}", case.name));
        }
    }
    let per = if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    };
    let timed_out = crate::budget::passed(deadline);
    Ok(Outcome::new(
        Verdict::ConfirmedOnSamples,
        format!(
            "holds at {total} exact sample points{per}{}; not a proof",
            if timed_out { ", budget reached" } else { "" }
        ),
    ))
}

fn violation(
    env: &Env<Rational>,
    scope: &Env<Rational>,
    r: &Relation,
) -> (String, serde_json::Value) {
    let mut cx = env_json(env);
    let mut used = Vec::new();
    r.vars(&mut used);
    let mut vals = Vec::new();
    for v in used {
        if let (Some(x), false) = (scope.get(&v), env.contains_key(&v)) {
            cx[v.as_str()] = show(&x.to_big()).into();
            vals.push(format!("{v} = {}", show(&x.to_big())));
        }
    }
    let l = r
        .lhs
        .eval_in(scope, &())
        .map(|x| show(&x.to_big()))
        .unwrap_or_default();
    let rr = r
        .rhs
        .eval_in(scope, &())
        .map(|x| show(&x.to_big()))
        .unwrap_or_default();
    cx["violated"] = r.text.clone().into();
    (
        format!(
            "`{}` fails at {} ({}: {l} vs {rr})",
            r.text,
            env_text(env),
            vals.join(", ")
        ),
        cx,
    )
}

/// Checks an `implication` (and `counterexample-search`) claim.
pub fn check_implication(claim: &Claim, deadline: Instant) -> Result<Outcome, String> {
    check_conclusions(claim, deadline, 60)
}

/// Checks a `counterexample-search` claim: like `implication`, with many more points.
pub fn check_search(claim: &Claim, deadline: Instant) -> Result<Outcome, String> {
    check_conclusions(claim, deadline, 2000)
}

/// One exact point of an implication: `Ok(true)` the conclusions hold, `Ok(false)` the
/// point is outside the law's domain, `Err` a violation (detail and counterexample).
pub(crate) fn implication_point(
    t: &dyn Quantities,
    case: &Case,
    env: &Env<Rational>,
) -> Result<bool, (String, serde_json::Value)> {
    let Ok(outs) = side(t, env) else {
        return Ok(false);
    };
    let mut scope = env.clone();
    scope.extend(outs);
    conclusions_at(case, env, &scope)
}

/// [`implication_point`] where the law ran: `scope` is the point with its outputs.
fn conclusions_at(
    case: &Case,
    env: &Env<Rational>,
    scope: &Env<Rational>,
) -> Result<bool, (String, serde_json::Value)> {
    for r in &case.conclude {
        match r.decide(scope, &()) {
            Ok(Some(true)) => {}
            Ok(_) => return Err(violation(env, scope, r)),
            Err(_) => return Ok(false),
        }
    }
    Ok(true)
}

/// The first name a case's conclusions use that is not defined at a point where the law
/// ran (`scope`: the variables, derived quantities and the law's outputs there), with the
/// nearest defined name.
fn undefined_name(case: &Case, scope: &Env<Rational>) -> Option<(String, String)> {
    let mut used = Vec::new();
    for r in &case.conclude {
        r.vars(&mut used);
    }
    let name = used.into_iter().find(|v| !scope.contains_key(v))?;
    let known: Vec<&str> = scope.keys().map(String::as_str).collect();
    let hint = crate::claims::claim::schema::nearest(&name, &known);
    Some((name, hint))
}

/// The implication's table of a claim (its quantities).
fn implication(claim: &Claim) -> Result<&Implication, String> {
    claim
        .body()
        .implication()
        .ok_or_else(|| format!("a claim of kind {} has no conclusions", claim.kind))
}

fn check_conclusions(claim: &Claim, deadline: Instant, n: i64) -> Result<Outcome, String> {
    let t = implication(claim)?;
    // a conclusion naming what is defined at no point where the law ran is a misspelling,
    // not a point outside the law's domain (issue 62)
    // (the case, the points where the law ran, the undefined name, defined at none of them)
    let (mut at, mut ran, mut undefined, mut everywhere) = (String::new(), 0usize, None, true);
    let mut out = run_cases(claim, n, deadline, |case, env| {
        if case.name != at {
            (at, ran, undefined, everywhere) = (case.name.clone(), 0, None, true);
        }
        let Ok(outs) = side(t, env) else {
            return Ok(Ok(false));
        };
        ran += 1;
        let mut scope = env.clone();
        scope.extend(outs);
        match &undefined {
            None if ran == 1 => undefined = undefined_name(case, &scope),
            Some((name, _)) if scope.contains_key(name) => everywhere = false,
            _ => {}
        }
        Ok(conclusions_at(case, env, &scope))
    })?;
    if let (Some((name, hint)), Verdict::Inconclusive) = (&undefined, out.verdict) {
        if everywhere && out.detail.contains("no admissible exact sample point") {
            return Err(format!(
                "conclude: `{name}` {}{hint}",
                crate::claims::claim::UNDEFINED_NAME
            ));
        }
    }
    if out.verdict == Verdict::Refuted && cases(claim.body())?.iter().any(|c| c.corrected.is_some())
    {
        out.corrected = corrected_holds(claim, deadline, n)?;
    }
    Ok(out)
}

/// Whether the candidate corrections (per case; the original conclusions where a case
/// has none) hold on the same sample points; their text if so.
fn corrected_holds(claim: &Claim, deadline: Instant, n: i64) -> Result<Option<String>, String> {
    let t = implication(claim)?;
    let o = run_cases(claim, n, deadline, |case, env| {
        let Ok(outs) = side(t, env) else {
            return Ok(Ok(false));
        };
        let mut scope = env.clone();
        scope.extend(outs);
        for r in case.corrected.as_ref().unwrap_or(&case.conclude) {
            if r.decide(&scope, &()).ok().flatten() != Some(true) {
                return Ok(Err((String::new(), serde_json::Value::Null)));
            }
        }
        Ok(Ok(true))
    })?;
    let text: Vec<String> = cases(claim.body())?
        .iter()
        .filter_map(|c| {
            c.corrected.as_ref().map(|rs| {
                let r: Vec<&str> = rs.iter().map(|r| r.text.as_str()).collect();
                format!("{}{}", label(c), r.join(" and "))
            })
        })
        .collect();
    Ok((o.verdict == Verdict::ConfirmedOnSamples).then(|| {
        format!(
            "{} (holds at the same exact sample points)",
            text.join("; ")
        )
    }))
}

/// The `left` side, the right sides (`right`, `also`), the outputs compared, and
/// `every_side_defined`: whether a right side that gives no outcome (the law refuses) where
/// the left side gives one is a counterexample (the claim says the forms are equivalent,
/// so each must be defined wherever the others are), rather than a point skipped.
pub(crate) type Sides<'a> = (
    &'a dyn Quantities,
    Vec<&'a dyn Quantities>,
    Vec<String>,
    bool,
);

/// Reads the sides of an `agreement` claim.
pub(crate) fn agreement_sides(b: &Body) -> Result<Sides<'_>, String> {
    let t = b.agreement().ok_or("not an agreement")?;
    let need = |s: &'static str| move || format!("agreement needs a `{s}` table");
    let left: &dyn Quantities = t.left.as_ref().ok_or_else(need("left"))?;
    let mut rights: Vec<&dyn Quantities> = vec![t.right.as_ref().ok_or_else(need("right"))?];
    if let Some(also) = &t.also {
        rights.push(also);
    }
    if t.compare.is_empty() {
        return Err("agreement needs `compare`".into());
    }
    Ok((left, rights, t.compare.clone(), t.every_side_defined))
}

/// Checks an `agreement` claim: `left` and `right` give equal `compare` outputs.
pub fn check_agreement(claim: &Claim, deadline: Instant) -> Result<Outcome, String> {
    let (left, rights, compare, every) = agreement_sides(claim.body())?;
    let mut out = agree(claim, deadline, (left, rights, compare.clone(), every))?;
    let corrected = claim.body().agreement().and_then(|t| t.corrected.as_ref());
    if let (Verdict::Refuted, Some(c)) = (out.verdict, corrected) {
        let text = c
            .statement
            .as_deref()
            .ok_or("`corrected.statement` must be a string")?;
        if agree(
            claim,
            deadline,
            (left, vec![c as &dyn Quantities], compare, every),
        )?
        .verdict
            == Verdict::ConfirmedOnSamples
        {
            out.corrected = Some(format!("{text} (holds at the same exact sample points)"));
        }
    }
    Ok(out)
}

fn agree(claim: &Claim, deadline: Instant, sides: Sides) -> Result<Outcome, String> {
    run_cases(claim, 60, deadline, |case, env| {
        agreement_point(&sides, case, env)
    })
}

/// One exact point of an agreement: `Ok(Ok(true))` the sides agree, `Ok(Ok(false))` the
/// point is outside the domain, `Ok(Err)` a disagreement (detail and counterexample).
pub(crate) fn agreement_point(
    (left, rights, compare, every): &Sides,
    case: &Case,
    env: &Env<Rational>,
) -> Result<Result<bool, (String, serde_json::Value)>, String> {
    let Ok(a) = side(*left, env) else {
        return Ok(Ok(false));
    };
    let mut bs = Vec::new();
    for right in rights {
        match side(*right, env) {
            Ok(b) => bs.push(b),
            Err(e) if *every && case.space.admits(env).unwrap_or(false) => {
                let mut cx = env_json(env);
                cx["right"] = e.clone().into();
                return Ok(Err((
                    format!("the right side gives no outcome at {}: {e}", env_text(env)),
                    cx,
                )));
            }
            Err(_) => return Ok(Ok(false)),
        }
    }
    let mut scope = env.clone();
    scope.extend(a.clone());
    for r in &case.conclude {
        if r.decide(&scope, &()).ok().flatten() != Some(true) {
            return Ok(Ok(false));
        }
    }
    for (name, b) in bs.iter().flat_map(|b| compare.iter().map(move |n| (n, b))) {
        let name = name.as_str();
        let (Some(x), Some(y)) = (a.get(name), b.get(name)) else {
            return Err(format!("output `{name}` missing on one side"));
        };
        if x != y {
            let mut cx = env_json(env);
            cx["output"] = name.into();
            cx["left"] = show(&x.to_big()).into();
            cx["right"] = show(&y.to_big()).into();
            return Ok(Err((
                format!(
                    "{name} differs at {}: left {} but right {}",
                    env_text(env),
                    show(&x.to_big()),
                    show(&y.to_big())
                ),
                cx,
            )));
        }
    }
    Ok(Ok(true))
}
