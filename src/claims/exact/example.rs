//! Kind `exact-example`: run a law on exactly given inputs and compare with the paper's
//! stated outputs.
//!
//! ```toml
//! [example]
//! probe = "cradle.run"                      # or no probe: `values` computed from inputs
//! inputs = { eps = "1/2", v1 = "1", v2 = "0", v3 = "0" }
//! values = { gap = "vf2 - vf1" }            # optional: expressions of inputs and outputs
//! expect = { vf3 = "9/16", steps = "3" }    # compared exactly
//! printed = { vf1 = "4.7625" }              # compared to the printed digits (half a unit
//!                                           # of the last printed digit)
//! ```
//!
//! `proved` when every output equals (or, for `printed`, rounds to) the paper's value: the
//! computation is exact. `refuted` names the first output that differs, with both values.
//!
//! An optional `missing = "…"` (next to `probe`) names data the paper does not give and the
//! claim needs (a body shape, a time step): the probe still runs on a *declared* model and
//! its values are shown, but the verdict is `inconclusive` — "cannot be decided without
//! `<missing>`; with the declared model: …" followed by what the relations gave there.

use crate::arith::Rational;
use crate::claims::claim::body::{Body, Example};
use crate::claims::claim::{Claim, Outcome, Verdict};
use crate::claims::probes::{self, Inputs};
use crate::lang::{self, show, Env};
use num_bigint::BigInt;
use num_rational::BigRational;

/// Whether `x` rounds to the printed decimal `p` (|x − p| ≤ half a unit of its last digit).
pub fn rounds_to(x: &BigRational, printed: &str) -> Result<bool, String> {
    let (p, half) = printed_half_unit(printed)?;
    let diff = x - &p;
    Ok(diff <= half && -diff <= half)
}

/// A printed decimal's value and half a unit of its last digit (`4.5e-16`: 45/10¹⁷ and
/// 1/2·10⁻¹⁷).
pub fn printed_half_unit(printed: &str) -> Result<(BigRational, BigRational), String> {
    let p = lang::rational(printed).map_err(|e| e.to_string())?;
    let mant = printed.split(['e', 'E']).next().unwrap_or(printed);
    let decimals = mant.split_once('.').map_or(0, |(_, f)| f.len()) as i64;
    let exp: i64 = printed
        .split_once(['e', 'E'])
        .map_or(Ok(0), |(_, e)| e.parse::<i64>())
        .map_err(|_| format!("bad printed value {printed}"))?;
    let scale = decimals - exp;
    let ten = BigInt::from(10);
    let unit = if scale >= 0 {
        BigRational::new(1.into(), num_traits::pow(ten, scale as usize))
    } else {
        BigRational::from_integer(num_traits::pow(ten, (-scale) as usize))
    };
    Ok((p, unit / BigInt::from(2)))
}

/// Runs the probe (if any) and the `values` expressions: the environment of outputs.
pub fn outputs(t: &Example) -> Result<Env<Rational>, String> {
    let inputs: Inputs = t.inputs.pairs().iter().cloned().collect();
    let mut env: Env<Rational> = Env::new();
    for (k, v) in &inputs {
        if let Ok(q) = lang::rational(v) {
            env.insert(k.clone(), Rational::from_big(&q));
        }
    }
    if let Some(name) = t.probe.as_deref() {
        env.extend(probes::run(name, &inputs)?);
    }
    for (name, e) in t.values.pairs() {
        let v = lang::parse_with_variables(e)
            .map_err(|x| format!("values.{name}: {x}"))?
            .eval_in(&env, &())
            .map_err(|x| format!("values.{name}: {x}"))?;
        env.insert(name.clone(), v);
    }
    Ok(env)
}

/// Checks an `exact-example` claim (inconclusive when it names `missing` data).
pub fn check(claim: &Claim) -> Result<Outcome, String> {
    let Body::Example(t) = claim.body() else {
        return Err("not an exact-example".into());
    };
    let outcome = judge(t)?;
    let Some(missing) = t.missing.as_deref() else {
        return Ok(outcome);
    };
    Ok(Outcome::new(
        Verdict::Inconclusive,
        format!(
            "cannot be decided without {missing}; with the declared model: {}: {}",
            match outcome.verdict {
                Verdict::Proved => "the relations hold",
                Verdict::Refuted => "a relation fails",
                _ => "undecided",
            },
            outcome.detail.trim_end_matches(" (exact computation)")
        ),
    ))
}

/// The verdict from the probe's outputs alone.
fn judge(t: &Example) -> Result<Outcome, String> {
    let env = outputs(t)?;
    let (exact, printed, holds) = (t.expect.pairs(), t.printed.pairs(), &t.holds);
    if exact.is_empty() && printed.is_empty() && holds.is_empty() {
        return Err("an exact-example needs `expect`, `printed` or `holds`".into());
    }
    let mut shown = Vec::new();
    for h in holds {
        let r = lang::parse_relation(h).map_err(|e| e.to_string())?;
        let mut used = Vec::new();
        r.vars(&mut used);
        let vals: Vec<String> = used
            .iter()
            .filter_map(|v| env.get(v).map(|x| format!("{v} = {}", show(&x.to_big()))))
            .collect();
        shown.extend(vals.iter().cloned());
        if r.decide(&env, &()).map_err(|e| e.to_string())? != Some(true) {
            return Ok(Outcome::refuted(
                format!("`{h}` fails: {}", vals.join(", ")),
                serde_json::json!({"violated": h, "values": vals}),
            ));
        }
    }
    let got = |name: &str| -> Result<BigRational, String> {
        env.get(name)
            .map(|v| v.to_big())
            .ok_or_else(|| format!("no output named `{name}`"))
    };
    for (name, stated) in exact {
        let want = lang::rational(stated).map_err(|e| format!("expect.{name}: {e}"))?;
        let x = &got(name)?;
        if *x != want {
            let notes: Vec<String> = env
                .iter()
                .filter(|(k, _)| k.starts_with("mismatch"))
                .map(|(k, v)| format!("{k} = {}", show(&v.to_big())))
                .collect();
            let notes = if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join(", "))
            };
            return Ok(Outcome::refuted(
                format!("{name} = {} but the paper states {stated}{notes}", show(x)),
                serde_json::json!({"output": name, "computed": show(x), "stated": stated}),
            ));
        }
    }
    for (name, stated) in printed {
        let x = &got(name)?;
        if !rounds_to(x, stated)? {
            return Ok(Outcome::refuted(
                format!(
                    "{name} = {} (≈ {:.12}) does not round to the printed {stated}",
                    show(x),
                    num_traits::ToPrimitive::to_f64(x).unwrap_or(f64::NAN)
                ),
                serde_json::json!({"output": name, "computed": show(x), "stated": stated}),
            ));
        }
    }
    let mut detail = format!("{} output(s) equal exactly", exact.len());
    if !holds.is_empty() {
        detail += &format!(", {} relation(s) hold ({})", holds.len(), shown.join(", "));
    }
    if !printed.is_empty() {
        detail += &format!(", {} agree to the printed digits", printed.len());
    }
    Ok(Outcome::new(
        Verdict::Proved,
        detail + " (exact computation)",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_to_printed_digits() {
        let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        assert!(rounds_to(&q(1, 3), "0.3333").unwrap());
        assert!(!rounds_to(&q(1, 3), "0.3334").unwrap());
        assert!(rounds_to(&q(17157, 100000), "0.17157").unwrap());
        assert!(rounds_to(&q(44, 10_i64.pow(17)), "4.4e-16").unwrap());
    }
}
