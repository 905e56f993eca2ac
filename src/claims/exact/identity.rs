//! Kind `identity`: two expressions agree as rational functions of their variables, after
//! stated substitutions (e.g. c = (1-t^2)/(1+t^2), s = 2t/(1+t^2) for c² + s² = 1).
//!
//! ```toml
//! [identity]
//! lhs = "..."                 # expressions with variables
//! rhs = "..."
//! substitute = [["c", "(1-t^2)/(1+t^2)"]]   # applied textually, in order
//! vars = { t = ["-2", "2"] }  # box for the sampling fallback
//! assume = ["t != 0"]         # side conditions (sampling fallback)
//! samples = 40
//! ```
//!
//! The checker is [`symbolic_identity`] (the seam to the symbolic backend): `proved` when
//! it says identical, `refuted` with its witness otherwise. While the seam answers `None`
//! (no symbolic backend), the kind falls back to exact evaluation at rational sample
//! points: `confirmed-on-samples` (not a proof) or `refuted` with the exact point.

use crate::claims::claim::body::{Body, Identity};
use crate::claims::claim::{Claim, Outcome, Verdict};
use crate::claims::exact::sample_points::{env_json, env_text, Space};
use crate::lang::{self, show};
use num_rational::BigRational;
use std::time::{Duration, Instant};

/// The answer of a symbolic identity check.
#[derive(Clone, Debug, PartialEq)]
pub enum SymbolicAnswer {
    Identical,
    Different {
        witness: Vec<(String, BigRational)>,
        lhs: BigRational,
        rhs: BigRational,
    },
    Undefined(String),
}

/// The seam to the symbolic backend: decides `lhs ≡ rhs` as rational functions under the
/// substitutions, through [`crate::lang::identical`] (cross-multiplication and
/// expansion over Q). `None` makes the kind fall back to exact samples.
pub fn symbolic_identity(
    lhs: &str,
    rhs: &str,
    subs: &[(String, String)],
) -> Option<Result<SymbolicAnswer, String>> {
    use crate::arith::symbolic::IdentityOutcome;
    Some(
        crate::lang::identical(lhs, rhs, subs)
            .map_err(|e| e.to_string())
            .map(|o| match o {
                IdentityOutcome::Identical => SymbolicAnswer::Identical,
                IdentityOutcome::Different { witness, lhs, rhs } => {
                    SymbolicAnswer::Different { witness, lhs, rhs }
                }
                IdentityOutcome::Undefined(why) => SymbolicAnswer::Undefined(why),
            }),
    )
}

pub use crate::claims::claim::statement::substitute_text;

/// Checks an `identity` claim.
pub fn check(claim: &Claim) -> Result<Outcome, String> {
    let Body::Identity(t) = claim.body() else {
        return Err("not an identity".into());
    };
    let subs = t.substitute.pairs().to_vec();
    let (lhs, rhs) = (t.lhs.as_str(), t.rhs.as_str());
    // the symbolic answer where it is decisive; an undefined one (a substitution that
    // makes a denominator vanish identically) falls back to exact samples
    let answer = symbolic_identity(lhs, rhs, &subs).and_then(|a| match a {
        Ok(SymbolicAnswer::Undefined(_)) => None,
        other => Some(other),
    });
    if let Some(answer) = answer {
        return Ok(match answer? {
            SymbolicAnswer::Identical => Outcome::new(
                Verdict::Proved,
                "identical as rational functions (symbolic expansion)",
            ),
            SymbolicAnswer::Different { witness, .. } if !in_domain(t, &witness)? => {
                // the witness lies outside the declared domain: a counterexample must be
                // a point of the claim, so look for one there (the substitutions as
                // derived quantities, the last first, so that the hypotheses may use them)
                // (the claim's own derived quantities first, in either form of the map)
                let pair = |(v, e): &(String, String)| {
                    toml::Value::Array(vec![v.clone().into(), e.clone().into()])
                };
                let derive: Vec<toml::Value> = t
                    .derive
                    .pairs()
                    .iter()
                    .chain(subs.iter().rev())
                    .map(pair)
                    .collect();
                let c = claim.edited(|table| {
                    table.insert("derive".into(), toml::Value::Array(derive));
                })?;
                let o = sample_check(&c, lhs, rhs)?;
                if o.verdict == Verdict::Refuted {
                    return Ok(o);
                }
                Outcome::inconclusive(format!(
                    "not identical as rational functions, but they differ at {}, outside the declared domain, and at no exact sample point of the domain ({})",
                    witness
                        .iter()
                        .map(|(k, v)| format!("{k} = {}", show(v)))
                        .collect::<Vec<_>>()
                        .join(", "),
                    o.detail
                ))
            }
            SymbolicAnswer::Different { witness, lhs, rhs } => {
                let mut cx: serde_json::Map<String, serde_json::Value> = witness
                    .iter()
                    .map(|(k, v)| (k.clone(), show(v).into()))
                    .collect();
                cx.insert("lhs".into(), show(&lhs).into());
                cx.insert("rhs".into(), show(&rhs).into());
                Outcome::refuted(
                    format!(
                        "not identical: lhs = {} but rhs = {}",
                        show(&lhs),
                        show(&rhs)
                    ),
                    cx.into(),
                )
            }
            SymbolicAnswer::Undefined(why) => Outcome::inconclusive(why),
        });
    }
    let (mut l, mut r) = (lhs.to_string(), rhs.to_string());
    for (v, e) in &subs {
        l = substitute_text(&l, v, e);
        r = substitute_text(&r, v, e);
    }
    sample_check(claim, &l, &r)
}

/// Whether a point (the witness of a symbolic identity check) lies in the claim's
/// declared domain: within the box `vars` for each of its variables, and, where every
/// variable of the box is given, the hypotheses `assume` hold there.
fn in_domain(t: &Identity, witness: &[(String, BigRational)]) -> Result<bool, String> {
    let space = Space::read(t)?;
    for (name, v) in witness {
        if let Some((_, lo, hi)) = space.vars.iter().find(|(n, ..)| n == name) {
            if v < lo || v > hi {
                return Ok(false);
            }
        }
    }
    if space.assume.is_empty() {
        return Ok(true);
    }
    let mut env = lang::Env::new();
    for (name, v) in witness {
        env.insert(name.clone(), crate::arith::Rational::from_big(v));
    }
    if space.vars.iter().any(|(n, ..)| !env.contains_key(n)) || space.derive(&mut env).is_err() {
        return Ok(false);
    }
    space.admits(&env)
}

/// The fallback: exact evaluation of both sides at rational sample points.
fn sample_check(claim: &Claim, lhs: &str, rhs: &str) -> Result<Outcome, String> {
    let Body::Identity(t) = claim.body() else {
        return Err("not an identity".into());
    };
    let l = lang::parse_with_variables(lhs).map_err(|e| format!("lhs: {e}"))?;
    let r = lang::parse_with_variables(rhs).map_err(|e| format!("rhs: {e}"))?;
    let space = Space::read(t)?;
    let mut needed = Vec::new();
    l.vars(&mut needed);
    r.vars(&mut needed);
    for v in &needed {
        if !space.vars.iter().any(|(n, ..)| n == v) && !space.derived.iter().any(|(n, _)| n == v) {
            return Err(format!("variable {v} has no sampling range in `vars`"));
        }
    }
    let n = t.samples.unwrap_or(40).clamp(1, 10_000) as usize;
    let deadline = Instant::now() + Duration::from_secs(30);
    let points = space.samples(n, &claim.id, deadline)?;
    let mut used = 0;
    for env in &points {
        crate::budget::checkpoint();
        let (Ok(a), Ok(b)) = (l.eval_in(env, &()), r.eval_in(env, &())) else {
            continue; // a pole of one side: not a point of the identity
        };
        used += 1;
        if a != b {
            let mut cx = env_json(env);
            cx["lhs"] = show(&a.to_big()).into();
            cx["rhs"] = show(&b.to_big()).into();
            return Ok(Outcome::refuted(
                format!(
                    "at {}: lhs = {} but rhs = {}",
                    env_text(env),
                    show(&a.to_big()),
                    show(&b.to_big())
                ),
                cx,
            ));
        }
    }
    if used == 0 {
        return Ok(Outcome::inconclusive(
            "no admissible sample point (hypotheses never hold, or both sides undefined)",
        ));
    }
    Ok(Outcome::new(
        Verdict::ConfirmedOnSamples,
        format!("equal at {used} exact rational points (no symbolic backend yet: not a proof)"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substitution_is_by_whole_identifier() {
        assert_eq!(
            substitute_text("k*kk + k^2", "k", "1-t"),
            "(1-t)*kk + (1-t)^2"
        );
        assert_eq!(substitute_text("1e-3*e + x", "e", "2"), "1e-3*(2) + x");
    }
}
