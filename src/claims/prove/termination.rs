//! The prover's side of **termination by a ranking function**: it proves, each over its
//! whole domain with no cell left undefined, the lemmas on one step of the run that
//! [`crate::claims::claim::termination`] derives from the claim file (the argument is
//! documented there).

use crate::claims::claim::termination::{derive, Form, Termination};
use crate::claims::claim::{Claim, Outcome, Verdict};
use crate::claims::prove::Attempt;
use std::time::Instant;

/// The proof by a ranking function of an `implication` with a `termination` table;
/// `None` when it has none.
pub fn attempt(claim: &Claim, deadline: Instant) -> Option<Attempt> {
    let t = claim.body().implication()?.termination.as_ref()?;
    Some(attempt_with(claim, t, deadline).unwrap_or_else(Attempt::NoProof))
}

/// The lemma proved with no cell left undefined: its certificate.
fn proved_everywhere(
    sub: &Claim,
    what: &str,
    deadline: Instant,
) -> Result<(String, serde_json::Value), String> {
    let o = crate::claims::prove::induction::proved_lemma(sub, what, deadline)?;
    let cert = o.certificate.unwrap_or_default();
    if cert.get("undefined cells").and_then(|u| u.as_u64()) != Some(0) {
        return Err(format!(
            "{what} leaves cells where its quantities are undefined"
        ));
    }
    Ok((o.detail, cert))
}

fn attempt_with(
    claim: &Claim,
    spec: &crate::claims::claim::body::Termination,
    deadline: Instant,
) -> Result<Attempt, String> {
    let t = derive(claim, spec)?;
    let mut certificate = t.record();
    let mut details = Vec::new();
    for l in &t.lemmas {
        let (detail, cert) = proved_everywhere(&l.claim, l.what, deadline)?;
        certificate[l.key] = cert;
        details.push(detail);
    }
    let mut out = Outcome::new(Verdict::Proved, detail_text(&t, &details));
    out.certificate = Some(certificate);
    Ok(Attempt::Decided(out))
}

/// The verdict's detail: the argument, with the lemmas' details in their order.
fn detail_text(t: &Termination, details: &[String]) -> String {
    let (reg, why) = (t.reg, &t.why);
    let (gives, run, step) = (reg.gives, reg.run, reg.step);
    match &t.form {
        Form::Ranking {
            r,
            lo,
            hi,
            delta,
            domain: None,
        } => format!(
            "every run stops ({gives}) after at most floor((B - L)/delta) + 2 steps, by a ranking function: R = {r} has L = {lo} <= R <= B = {hi} and rises by delta = {delta} > 0 at every step of {run} ({step}) from a state of the domain that continues to one that continues, which stays in the domain (the lemma: {}); {why}",
            details[0]
        ),
        Form::Ranking {
            r,
            lo,
            hi,
            delta,
            domain: Some(d),
        } => {
            let (enter_next, enter_here) = reg.enters;
            format!(
                "every run stops ({gives}) after at most floor((B - L)/delta) + 3 steps: the first step from any state of the claim ends where {enter_next} holds (the entry lemma: {}); a state where {enter_here} (one that continues, so the state after the first step if the run goes on) is in the ranking's domain D = {} (the domain lemma, over the zones {}: {}); from D, by a ranking function: R = {r} has L = {lo} <= R <= B = {hi} and rises by delta = {delta} > 0 at every step of {run} ({step}) from a state of D that continues to one that continues, which stays in D (the ranking lemma, over every state of D: {}); {why}",
                details[1],
                d.join(", "),
                reg.zones.iter().map(|z| z.0).collect::<Vec<_>>().join(", "),
                details[2],
                details[0],
            )
        }
        Form::Shrinking { r, q, floor } => format!(
            "every run stops ({gives}): while it goes on, R = {r} > {floor} (its rest test), and at every step of {run} ({step}) from a state that goes on to one that goes on R shrinks by the factor q = {q} < 1 (the lemma, over every state: {}); so a run from v0 goes on for fewer than log(R(v0)/({floor}))/log(1/q) + 1 steps; {why}",
            details[0]
        ),
    }
}
