//! The certificate format (`impactkit-certificate/1`): what `verify --certificates`
//! writes and `check` reads. The checker trusts none of its fields: each is a hint that
//! must equal what the checker re-derives from the claim file.

use serde_json::{json, Value};

/// The schema of a certificate file.
pub const CERT_SCHEMA: &str = "impactkit-certificate/1";

/// A list of strings of a certificate (missing: empty).
pub(crate) fn strs(v: Option<&Value>) -> Vec<String> {
    v.and_then(|x| x.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// A `[relation, value]` pair of an obligation.
pub(crate) fn pair(v: &Value) -> Option<(&str, &str)> {
    Some((v.get(0)?.as_str()?, v.get(1)?.as_str()?))
}

/// The certificate file of one claim's result, or `None` for a verdict that has none
/// (confirmed on samples, inconclusive).
pub fn certificate(r: &super::claim::ClaimResult, source: &str) -> Option<Value> {
    use super::claim::Verdict::*;
    if !matches!(r.verdict, Proved | ProvedOnSubdomain | Refuted) {
        return None;
    }
    Some(json!({
        "schema": CERT_SCHEMA,
        "version": crate::report::VERSION,
        "claim": r.id,
        "kind": r.kind,
        "source": source,
        "verdict": r.verdict.name(),
        "detail": r.detail,
        "certificate": r.certificate,
        "counterexample": r.counterexample,
    }))
}
