//! **Induction over the steps of a run**: a claim about every step of an iterated law (a
//! corner rule or Pasquero's procedure run until it stops) from a lemma about **one step
//! from any state**, proved by the symbolic method.
//!
//! ```toml
//! [implication]                       # the claim as the paper states it, on the runs
//! probe = "corner.asym_run"
//! calls = [{ probe = "corner.asym_run", prefix = "m_", inputs = { y = "-y" } }]
//!
//! [implication.induction]
//! why = "…why the step lemma and the base give the claim's conclusions on the runs…"
//! [implication.induction.step]        # an implication on one step, from every state
//! probe = "corner.asymmetric"
//! calls = [{ probe = "corner.asymmetric", prefix = "m_", inputs = { y = "-y" } }]
//! conclude = ["m_x1 == x1", "m_y1 == -y1", …]
//! [implication.induction.step.proof]
//! domain = { … }                      # every state, every parameter
//! [implication.induction.base]        # optional: the invariant at the run's start
//! ```
//!
//! **The argument.** A run is the sequence v₀, v₁ = T(v₀), … of one step map T (classify
//! the state, stop at an exit or at rest, else apply the rule of its zone), and each of
//! its outputs (the number of steps, of multiple impacts, the last state) is a function of
//! that sequence. If a relation I between the states of the claim's runs holds at the
//! start (the base, or the claim's own input maps) and one step from any states related
//! by I keeps I and decides alike (the step lemma, over the whole state space), then it
//! holds at every step, for runs of any length: the per-step conclusions hold for every
//! step. The engine checks what it can: each probe of the lemmas is the registered one
//! step ([`STEPS`]) of the corresponding run probe of the claim, with the same prefix (the
//! tests `it::induction` check that iterating the step probe reproduces the run probe
//! exactly); without a base, the step lemma's calls map their inputs as the claim's do
//! (the relation is those maps, e.g. a mirror); a base maps every input as the claim does
//! and has the claim's `proof` table (it starts where the runs start, over the whole
//! domain); and both lemmas are proved by the symbolic method over their whole stated
//! domains (a lemma that is refuted or not proved gives no proof, never a refutation).
//! That the lemmas' conclusions (I at the next state, the same stop decision) give the
//! claim's conclusions on the runs is the claim file's `why`, which the detail names; the
//! claim's own conclusions are then sampled as well (`claims::check`), so a `why` that
//! does not hold at a sample point gives a refutation.

use super::prove::{self, Attempt};
use super::{Claim, Outcome, Verdict};
use serde_json::json;
use std::time::Instant;

/// The runs whose one step is a probe of its own: (run probe, step probe, the step, with
/// the paper's equations).
pub const STEPS: &[(&str, &str, &str)] = &[
    (
        "corner.asym_run",
        "corner.asymmetric",
        "Pasquero (10) on the corner of Sect. 4.2: the zone of eq. (1) (exit in Z0), then the rule of that zone (system::corner, asymmetric restitution, S = 0)",
    ),
    (
        "corner.ta",
        "corner.tr_nid_xy",
        "Fassino–Pasquero TA (Sect. 6) with S = 0: the zone of eq. (1) (exit in Z0), then TR_nid of that zone, (13) in (x, y) (system::corner, symmetric restitution eps)",
    ),
    (
        "cradle.run",
        "cradle.step",
        "Pasquero Sect. 3.5 on the 3-ball cradle: the impacted constraints (exit when none), the AEEV test |n_i·v| <= sigma, then rule (7)/(8) on the impacted set (system::iterate::step of the procedure's map)",
    ),
    (
        "char.procedure",
        "char.step",
        "Pasquero Sect. 3.5, any r and M: as cradle.step (system::iterate::step of the procedure's map)",
    ),
];

/// The step probe of a run probe.
pub(super) fn step_of(run: &str) -> Option<&'static str> {
    STEPS.iter().find(|(r, _, _)| *r == run).map(|(_, s, _)| *s)
}

/// Inputs with which a run is not the iteration of its registered step: (run, input,
/// the value it may have). TA with a threshold S > 0 is SA's zoning, not eq. (1)'s.
pub(super) const ONLY_WITH: &[(&str, &str, &str)] = &[("corner.ta", "S", "0")];

/// (prefix, probe, input map) of a table's probe (prefix "") and its calls.
fn probes(t: &toml::Table) -> Vec<(String, String, Option<toml::Value>)> {
    let mut out = Vec::new();
    if let Some(p) = t.get("probe").and_then(|p| p.as_str()) {
        out.push((String::new(), p.to_string(), t.get("inputs").cloned()));
    }
    for c in t
        .get("calls")
        .and_then(|c| c.as_array())
        .into_iter()
        .flatten()
    {
        let get = |k: &str| c.get(k).and_then(|v| v.as_str()).unwrap_or_default();
        out.push((
            get("prefix").to_string(),
            get("probe").to_string(),
            c.get("inputs").cloned(),
        ));
    }
    out
}

/// Checks that a lemma runs the one steps of the claim's runs, with the same prefixes,
/// and with the same input maps for the calls (`calls_alike`: a step lemma without a base,
/// whose relation between the runs is the claim's input maps) or for every probe
/// (`all_alike`: the base, which must start where the claim's runs start): `None` when it
/// does, else the reason.
fn mismatch(
    claim: &toml::Table,
    lemma: &toml::Table,
    calls_alike: bool,
    all_alike: bool,
) -> Option<String> {
    let (runs, steps) = (probes(claim), probes(lemma));
    if runs.len() != steps.len() {
        return Some(format!(
            "the lemma has {} probe(s), the claim {}",
            steps.len(),
            runs.len()
        ));
    }
    for ((rp, run, rin), (sp, st, sin)) in runs.iter().zip(&steps) {
        let Some(want) = step_of(run) else {
            return Some(format!("probe {run} has no registered one step"));
        };
        if st != want || rp != sp {
            return Some(format!(
                "the lemma's probe `{sp}{st}` is not the one step `{rp}{want}` of `{run}`"
            ));
        }
        for (r, name, value) in ONLY_WITH {
            let given = rin
                .as_ref()
                .and_then(|m| m.get(*name))
                .and_then(|v| v.as_str());
            if run == r && given.is_some_and(|g| g != *value) {
                return Some(format!(
                    "{run} with {name} other than {value} is not the iteration of {want}"
                ));
            }
        }
        let must = all_alike || (calls_alike && !rp.is_empty());
        if must && rin != sin {
            let which = if rp.is_empty() { "probe" } else { "call" };
            return Some(format!(
                "the {which} `{rp}` maps its inputs otherwise in the lemma than in the claim"
            ));
        }
    }
    None
}

/// A lemma proved by the symbolic method over its whole domain, or why not (`what` names
/// it in the reason): no proof table, not proved, refuted or proved on less.
pub(super) fn proved_lemma(sub: &Claim, what: &str, deadline: Instant) -> Result<Outcome, String> {
    let o = match prove::attempt(sub, deadline) {
        None => return Err(format!("{what} has no `proof` table")),
        Some(Attempt::NoProof(why)) => return Err(format!("{what} is not proved: {why}")),
        Some(Attempt::Decided(o)) => o,
    };
    if o.verdict != Verdict::Proved {
        return Err(format!("{what} is {}: {}", o.verdict.name(), o.detail));
    }
    Ok(o)
}

/// The sub-claim of a lemma table (an implication of its own).
fn lemma(claim: &Claim, t: &toml::Table, name: &str) -> Claim {
    Claim {
        id: format!("{} ({name})", claim.id),
        kind: "implication".into(),
        content: t.clone(),
        ..claim.clone()
    }
}

/// The proof by induction of an `implication` with an `induction` table; `None` when it
/// has none.
pub fn attempt(claim: &Claim, deadline: Instant) -> Option<Attempt> {
    let Some(ind) = claim.content.get("induction")?.as_table() else {
        return Some(Attempt::NoProof("induction: must be a table".into()));
    };
    Some(attempt_with(claim, ind, deadline).unwrap_or_else(Attempt::NoProof))
}

fn attempt_with(claim: &Claim, ind: &toml::Table, deadline: Instant) -> Result<Attempt, String> {
    if claim.kind != "implication" {
        return Err("induction: only for `implication` claims".into());
    }
    let why = ind
        .get("why")
        .and_then(|w| w.as_str())
        .ok_or("induction: `why` must say why the step lemma gives the claim")?;
    let step = ind
        .get("step")
        .and_then(|s| s.as_table())
        .ok_or("induction: a `step` table (the lemma on one step) is needed")?;
    let base = match ind.get("base") {
        None => None,
        Some(b) => Some(b.as_table().ok_or("induction: `base` must be a table")?),
    };
    if let Some(m) = mismatch(&claim.content, step, base.is_none(), false) {
        return Err(format!("induction: step: {m}"));
    }
    let mut parts = vec![("step", step)];
    if let Some(b) = base {
        if let Some(m) = mismatch(&claim.content, b, false, true) {
            return Err(format!("induction: base: {m}"));
        }
        // the base starts where the claim's runs do, over the claim's whole domain
        if b.get("proof") != claim.content.get("proof") {
            return Err(
                "induction: base: its `proof` table (domain, cone) is not the claim's".into(),
            );
        }
        parts.push(("base", b));
    }
    let mut details = Vec::new();
    let mut certificate = serde_json::Map::new();
    for (name, t) in parts {
        let o = proved_lemma(
            &lemma(claim, t, name),
            &format!("induction: the {name} lemma"),
            deadline,
        )?;
        details.push(format!("{name}: {}", o.detail));
        certificate.insert(name.into(), o.certificate.unwrap_or_default());
    }
    let mut runs: Vec<String> = probes(&claim.content)
        .into_iter()
        .map(|(_, run, _)| run)
        .collect();
    runs.dedup();
    let mut o = Outcome::new(
        Verdict::Proved,
        format!(
            "by induction over the steps of the run ({}), for runs of any length: {}; {why}",
            runs.join(", "),
            details.join("; ")
        ),
    );
    o.certificate = Some(
        json!({"method": "induction over the steps of the run", "runs": runs, "lemmas": certificate}),
    );
    Ok(Attempt::Decided(o))
}
