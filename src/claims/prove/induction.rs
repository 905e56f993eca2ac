//! The prover's side of an **induction over the steps of a run**: it proves the step
//! lemma and the conclusions at the run's start that [`crate::claims::claim::induction`]
//! derives from the claim file (the argument is documented there), taking the first
//! one-run form whose step lemma it proves.

use crate::claims::claim::induction::{derive, fact_text, not_facts, OneRun};
use crate::claims::claim::{Claim, Outcome, Verdict};
use crate::claims::prove::{self, Attempt};
use serde_json::json;
use std::time::Instant;

pub use crate::claims::claim::induction::METHOD;

/// A lemma proved by the symbolic method over its whole domain, or why not (`what` names
/// it in the reason): no proof table, not proved, refuted or proved on less.
pub(crate) fn proved_lemma(sub: &Claim, what: &str, deadline: Instant) -> Result<Outcome, String> {
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

/// The lemma proved over its whole domain with no cell where its quantities are
/// undefined (so it holds at every state): its detail and certificate.
fn proved_at_every_state(
    sub: &Claim,
    what: &str,
    deadline: Instant,
) -> Result<(String, serde_json::Value), String> {
    let o = proved_lemma(sub, what, deadline)?;
    let cert = o.certificate.unwrap_or_default();
    if cert.get("undefined cells").and_then(|u| u.as_u64()) != Some(0) {
        return Err(format!(
            "{what} leaves cells where its quantities are undefined"
        ));
    }
    Ok((o.detail, cert))
}

/// The proof by induction of an `implication` with an `induction` table; `None` when it
/// has none.
pub fn attempt(claim: &Claim, deadline: Instant) -> Option<Attempt> {
    claim.body().implication()?.induction.as_ref()?;
    Some(attempt_with(claim, deadline).unwrap_or_else(Attempt::NoProof))
}

fn attempt_with(claim: &Claim, deadline: Instant) -> Result<Attempt, String> {
    let mut d = derive(claim, OneRun::FromAny)?;
    // one run: the step lemma from every state that goes on, else from one that goes on
    // without a multiple impact (with none at the run's start)
    if d.one_run && proved_at_every_state(&d.lemma, "induction: the step lemma", deadline).is_err()
    {
        d = derive(claim, OneRun::WithoutMultiple)?;
    }
    let (detail, cert) = proved_at_every_state(&d.lemma, "induction: the step lemma", deadline)?;
    let mut certificate = json!({
        "method": METHOD,
        "runs": d.runs,
        "step lemma conclusions": d.lemma_conclusions,
        "step lemma": cert,
    });
    // every conclusion of the claim must be one the lemmas give
    let mut instance_detail = String::new();
    match d.instance {
        Some((inst, rewritten)) => {
            let o = proved_lemma(
                &inst,
                "induction: the conclusions at the run's start",
                deadline,
            )?;
            instance_detail = format!(
                "; the conclusions at the run's start ({}): {}",
                rewritten.join(", "),
                o.detail
            );
            certificate["instance conclusions"] = json!(rewritten);
            certificate["instance"] = o.certificate.unwrap_or_default();
        }
        None => {
            let missing = not_facts(claim, &d.facts);
            if !missing.is_empty() {
                return Err(format!(
                    "induction: the step lemma holds ({detail}), but the conclusion(s) {} are not among those it gives on the runs ({})",
                    missing.join(", "),
                    d.facts.iter().map(fact_text).collect::<Vec<_>>().join(", ")
                ));
            }
            certificate["run facts"] = json!(d.facts.iter().map(fact_text).collect::<Vec<_>>());
        }
    }
    let mut o = Outcome::new(
        Verdict::Proved,
        format!(
            "by induction over the steps of the run ({}), for runs of any length: the step lemma, built by the engine over every state ({}): {detail}{instance_detail}; {}",
            d.runs.join(", "),
            d.lemma_conclusions.join(", "),
            d.why,
        ),
    );
    o.certificate = Some(certificate);
    Ok(Attempt::Decided(o))
}
