//! **Termination of a run by a ranking function**: a claim that every run of an iterated
//! law from the claim's domain stops (Fassino–Pasquero Result 3: "there exists χ such that
//! v_{n+χ} is in Z0"), proved from one step of the law from any state of the domain.
//!
//! ```toml
//! [implication]                      # the claim on the runs: its conclusion is `exit == 1`
//! probe = "corner.ta"
//! assume = ["t > 0", "t < 1", "k*x + abs(y) > 0", "k*x - abs(y) <= 0"]   # the domain D
//! conclude = ["exit == 1"]
//! [[implication.case]] …             # the cases cover D (the claim's statement)
//!
//! [implication.termination]
//! why = "…what the ranking measures…"
//! ranking = "((y - k*x)/(k*x + abs(y)))*((y + k*x)/(k*x + abs(y)))"   # R(state)
//! at_least = "-1"                    # L, the parameters only
//! at_most = "2"                      # B
//! rises_by = "2*k^2/(1 + k^2)^2"     # δ
//! ```
//!
//! **The argument.** Let T be the run's one step ([`super::induction::STEPS`]), "v
//! continues" mean that the run applies a rule at v (it does not stop there), and D the
//! claim's domain (its hypotheses). If for every v in D that continues and whose T(v)
//! continues: L ≤ R(v) ≤ B, R(T(v)) ≥ R(v) + δ and T(v) is in D, with δ > 0, then along a
//! run from v₀ in D every state that continues is in D, and a stretch v₀, …, v_n of states
//! that continue has R(v_{n−1}) ≥ L + (n − 1)δ and R(v_{n−1}) ≤ B: n ≤ (B − L)/δ + 1. So
//! the run stops after at most ⌊(B − L)/δ⌋ + 2 steps, which is finite for every v₀ (the
//! bound depends on the parameters). The engine builds that lemma itself from the claim:
//! the same space (variables, hypotheses, cases, proof table), the registered step probe
//! in place of the run's, and the conditions above as guarded conclusions
//! (`zone*zone1 != 0 => …`, [`TERMINATING`]: the step's own outputs say whether v and T(v)
//! continue), R(T(v)) and "T(v) in D" by renaming the state in R and in each hypothesis.
//! L, B and δ must not depend on the state. The lemma is proved by the symbolic method
//! over the claim's whole domain with no cell left undefined; it is not sampled (a run's
//! step limit is not the paper's), and a lemma that is not proved gives no proof. That the
//! claim's cases cover its hypotheses is the claim file's statement, as for every claim.

use super::prove::{self, Attempt};
use super::{Claim, Outcome, Verdict};
use crate::lang;
use serde_json::json;
use std::time::Instant;

/// A step whose run stops exactly where its outputs say.
pub struct Terminating {
    /// The step probe.
    pub step: &'static str,
    /// Nonzero where the run applies a rule at the state (it does not stop there).
    pub continues: &'static str,
    /// Nonzero where it applies one at the state after the step.
    pub continues_next: &'static str,
    /// The state's inputs with their outputs after the step.
    pub state: &'static [(&'static str, &'static str)],
    /// The run's conclusion a termination gives.
    pub gives: &'static str,
    /// Inputs of the run the step does not take.
    pub run_only: &'static [&'static str],
}

/// The registered steps: TA's (S = 0, see [`super::induction::ONLY_WITH`]) stops only at
/// an exit (Z0; v = 0 is in Z0, so the rest test never stops it first).
pub const TERMINATING: &[Terminating] = &[Terminating {
    step: "corner.tr_nid_xy",
    continues: "zone",
    continues_next: "zone1",
    state: &[("x", "x1"), ("y", "y1")],
    gives: "exit == 1",
    run_only: &["max_steps", "S"],
}];

/// The proof by a ranking function of an `implication` with a `termination` table;
/// `None` when it has none.
pub fn attempt(claim: &Claim, deadline: Instant) -> Option<Attempt> {
    let t = claim.content.get("termination")?;
    let Some(t) = t.as_table() else {
        return Some(Attempt::NoProof("termination: must be a table".into()));
    };
    Some(attempt_with(claim, t, deadline).unwrap_or_else(Attempt::NoProof))
}

fn text<'a>(t: &'a toml::Table, key: &str) -> Result<&'a str, String> {
    t.get(key)
        .and_then(|v| v.as_str())
        .ok_or_else(|| format!("termination: `{key}` must be a string"))
}

/// The names that depend on the state: its inputs and every derived quantity that uses
/// one of them (the claim's and its cases' `derive`).
fn state_names(claim: &toml::Table, state: &[(&str, &str)]) -> Vec<String> {
    let mut names: Vec<String> = state.iter().map(|(s, _)| s.to_string()).collect();
    let mut pairs = prove::derive_pairs(claim);
    for c in claim
        .get("case")
        .and_then(|c| c.as_array())
        .into_iter()
        .flatten()
        .filter_map(|c| c.as_table())
    {
        pairs.extend(prove::derive_pairs(c));
    }
    loop {
        let before = names.len();
        for (n, e) in &pairs {
            if !names.contains(n) && uses(e, &names) {
                names.push(n.clone());
            }
        }
        if names.len() == before {
            return names;
        }
    }
}

/// Whether an expression (or relation) uses one of `names` (an unparsable text counts as
/// using them: it is refused later).
fn uses(src: &str, names: &[String]) -> bool {
    let mut vs = Vec::new();
    match lang::parse_relation(src) {
        Ok(r) => r.vars(&mut vs),
        Err(_) => match lang::parse_with_variables(src) {
            Ok(e) => e.vars(&mut vs),
            Err(_) => return true,
        },
    }
    vs.iter().any(|v| names.contains(v))
}

/// `src` with the state's inputs renamed to their values after the step.
fn after_step(src: &str, state: &[(&str, &str)]) -> String {
    state.iter().fold(src.to_string(), |s, (from, to)| {
        super::identity::substitute_text(&s, from, to)
    })
}

fn strings(v: Option<&toml::Value>) -> Vec<String> {
    v.and_then(|v| v.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

fn attempt_with(claim: &Claim, spec: &toml::Table, deadline: Instant) -> Result<Attempt, String> {
    let c = &claim.content;
    if claim.kind != "implication" {
        return Err("termination: only for `implication` claims".into());
    }
    if c.contains_key("calls") || c.contains_key("probe2") || c.contains_key("induction") {
        return Err("termination: the claim must run one probe (no calls, no induction)".into());
    }
    let run = c
        .get("probe")
        .and_then(|p| p.as_str())
        .ok_or("termination: the claim has no probe")?;
    let step = super::induction::step_of(run)
        .ok_or_else(|| format!("termination: probe {run} has no registered one step"))?;
    let reg = TERMINATING
        .iter()
        .find(|t| t.step == step)
        .ok_or_else(|| format!("termination: the step {step} of {run} is not registered"))?;
    let (now, next, state, gives) = (reg.continues, reg.continues_next, reg.state, reg.gives);
    let inputs = c.get("inputs").and_then(|i| i.as_table());
    for (r, name, value) in super::induction::ONLY_WITH {
        let given = inputs.and_then(|m| m.get(*name)).and_then(|v| v.as_str());
        if run == *r && given.is_some_and(|g| g != *value) {
            return Err(format!(
                "termination: {run} with {name} other than {value} is not the iteration of {step}"
            ));
        }
    }
    // the claim says the runs stop, nothing else
    let cases: Vec<&toml::Table> = c
        .get("case")
        .and_then(|v| v.as_array())
        .map(|a| a.iter().filter_map(|x| x.as_table()).collect())
        .unwrap_or_default();
    let concludes = std::iter::once(c)
        .chain(cases.iter().copied())
        .filter_map(|t| t.get("conclude"));
    for k in concludes {
        if strings(Some(k)) != [gives] {
            return Err(format!(
                "termination: the conclusions must be [\"{gives}\"] (what a proof of termination gives)"
            ));
        }
    }
    let why = text(spec, "why")?;
    let (r, lo, hi, delta) = (
        text(spec, "ranking")?,
        text(spec, "at_least")?,
        text(spec, "at_most")?,
        text(spec, "rises_by")?,
    );
    let moving = state_names(c, state);
    for (key, e) in [("at_least", lo), ("at_most", hi), ("rises_by", delta)] {
        if uses(e, &moving) {
            return Err(format!("termination: `{key}` must not depend on the state"));
        }
    }
    let assume = strings(c.get("assume"));
    for e in std::iter::once(r).chain(assume.iter().map(String::as_str)) {
        let mut vs = Vec::new();
        match lang::parse_relation(e) {
            Ok(x) => x.vars(&mut vs),
            Err(_) => lang::parse_with_variables(e)
                .map_err(|err| format!("termination: {e}: {err}"))?
                .vars(&mut vs),
        }
        let derived_from_state = vs
            .iter()
            .find(|v| moving.contains(v) && !state.iter().any(|(s, _)| s == *v));
        if let Some(v) = derived_from_state {
            return Err(format!(
                "termination: `{e}` uses {v}, which is derived from the state: write it with the state's inputs"
            ));
        }
    }
    // the lemma: the claim's space, one step, the conditions as guarded conclusions
    let guard = format!("({now})*({next}) != 0");
    let r_next = after_step(r, state);
    let mut conclude = vec![
        format!("{delta} > 0"),
        format!("{guard} => {r} >= {lo}"),
        format!("{guard} => {r} <= {hi}"),
        format!("{guard} => {r_next} >= {r} + ({delta})"),
    ];
    for a in assume.iter().filter(|a| uses(a, &moving)) {
        conclude.push(format!("{guard} => {}", after_step(a, state)));
    }
    let mut lemma = c.clone();
    lemma.remove("termination");
    lemma.insert("probe".into(), step.into());
    if let Some(m) = inputs {
        let mut m = m.clone();
        for k in reg.run_only {
            m.remove(*k);
        }
        lemma.insert("inputs".into(), toml::Value::Table(m));
    }
    lemma.insert(
        "conclude".into(),
        toml::Value::Array(conclude.iter().map(|s| s.clone().into()).collect()),
    );
    if let Some(toml::Value::Array(cs)) = lemma.get_mut("case") {
        for case in cs.iter_mut().filter_map(|x| x.as_table_mut()) {
            case.remove("conclude");
        }
    }
    let sub = Claim {
        id: format!("{} (ranking lemma)", claim.id),
        content: lemma,
        ..claim.clone()
    };
    let o = super::induction::proved_lemma(&sub, "termination: the ranking lemma", deadline)?;
    let cert = o.certificate.unwrap_or_default();
    if cert.get("undefined cells").and_then(|u| u.as_u64()) != Some(0) {
        return Err(
            "termination: the ranking lemma leaves cells where its quantities are undefined".into(),
        );
    }
    let mut out = Outcome::new(
        Verdict::Proved,
        format!(
            "every run stops ({gives}) after at most floor((B - L)/delta) + 2 steps, by a ranking function: R = {r} has L = {lo} <= R <= B = {hi} and rises by delta = {delta} > 0 at every step of {run} ({step}) from a state of the domain that continues to one that continues, which stays in the domain (the lemma: {}); {why}",
            o.detail
        ),
    );
    out.certificate = Some(json!({
        "method": "ranking function",
        "run": run,
        "step": step,
        "ranking": r,
        "at least": lo,
        "at most": hi,
        "rises by": delta,
        "lemma conclusions": conclude,
        "lemma": cert,
    }));
    Ok(Attempt::Decided(out))
}
