//! An engine's contact model as a record states it (`engine.model`, issue 36), applied to
//! the record's scenario before the laws are computed: what the laws can take of it.
//!
//! ```json
//! "engine": {"name": "box2d", "model": {
//!     "threshold": 1,                      // every contact: plastic at approach speed ≤ 1
//!     "restitution_rule": "max",           // how a contact's two coefficients combine
//!     "contacts": {"wall": {"restitution": [0.5, 0.8], "threshold": 0.5}}}}
//! ```
//!
//! - **`threshold`** (Box2D's `b2_velocityThreshold`, PhysX's bounce threshold): a
//!   touching contact whose approach speed −γ_i = −∇φ_i·q̇⁻ (the system file's gap rate;
//!   with a unit ∇φ_i the relative normal speed) is at most the threshold takes no
//!   restitution: its coefficient (Newton's and Poisson's) becomes 0. Decided exactly in
//!   the scenario's arithmetic; an undecided comparison is an error, never a guess.
//! - **`restitution`** of a contact: one coefficient, or the two bodies' coefficients
//!   `[e_a, e_b]` combined by **`restitution_rule`**: `product` (Bullet), `max`
//!   (Box2D), `min`, `average` (PhysX's modes). It replaces the scenario's coefficient of
//!   that contact. Coefficients are read exactly (a decimal is the rational it prints as).
//!
//! The scenario's name then says what changed (`…, model: wall e = 2/5, floor plastic`),
//! so records of one scenario under different models are different scenarios.

use crate::arith::backend::{Backend, RunScalar};
use crate::arith::{decide, Rational, Scalar, Sign};
use crate::input::value;
use crate::system::file::{Number, SystemFile};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How a contact's two coefficients `[e_a, e_b]` combine into one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// e = e_a·e_b (Bullet).
    Product,
    /// e = max(e_a, e_b) (Box2D).
    Max,
    /// e = min(e_a, e_b).
    Min,
    /// e = (e_a + e_b)/2.
    Average,
}

/// A contact's coefficient: one number, or the two bodies' numbers.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Coefficient {
    One(Number),
    Pair([Number; 2]),
}

/// The model of one contact (overrides the model's defaults).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ContactModel {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restitution: Option<Coefficient>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restitution_rule: Option<Rule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<Number>,
}

/// An engine's contact model (`engine.model` of a record).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    /// Every contact's restitution threshold (approach speed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<Number>,
    /// Every contact's rule for a pair of coefficients.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restitution_rule: Option<Rule>,
    /// Per contact, by the system's contact names.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub contacts: BTreeMap<String, ContactModel>,
}

/// A non-negative rational of the model (`key` names it in errors).
fn rational(x: &Number, key: &str) -> Result<Rational, String> {
    let r = value::<Rational>(&x.expr(), key, &()).map_err(|e| e.to_string())?;
    if r.sign() == Sign::Negative {
        return Err(format!("{key}: must be ≥ 0, not {}", x.expr()));
    }
    Ok(r)
}

/// One coefficient from a contact's `restitution` and rule (Fassino–Pasquero's and
/// Newton's e lies in [0, 1]; the system file checks that of the result).
fn combine(c: &Coefficient, rule: Option<Rule>, key: &str) -> Result<Rational, String> {
    match c {
        Coefficient::One(x) => rational(x, key),
        Coefficient::Pair([a, b]) => {
            let (a, b) = (rational(a, key)?, rational(b, key)?);
            let greater = a.sub_r(&b).sign() == Sign::Positive;
            Ok(match rule {
                None => {
                    return Err(format!(
                    "{key}: two coefficients need a restitution_rule (product, max, min, average)"
                ))
                }
                Some(Rule::Product) => a.mul_r(&b),
                Some(Rule::Max) => {
                    if greater {
                        a
                    } else {
                        b
                    }
                }
                Some(Rule::Min) => {
                    if greater {
                        b
                    } else {
                        a
                    }
                }
                Some(Rule::Average) => (a + &b).mul_r(&Rational::new(1, 2)),
            })
        }
    }
}

/// The touching contacts of `file` whose approach speed −∇φ_i·q̇⁻ is at most their
/// threshold (`thresholds`: per contact name, `None` for none), decided exactly in the
/// file's arithmetic.
fn below_threshold(
    file: &SystemFile,
    source: &str,
    thresholds: &[(String, Option<Rational>)],
) -> Result<Vec<String>, String> {
    struct Job<'a>(&'a SystemFile, &'a str, &'a [(String, Option<Rational>)]);
    impl RunScalar for Job<'_> {
        type Out = Result<Vec<String>, String>;
        fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
            let Job(file, source, thresholds) = self;
            let sys = file.build::<S>(source, ctx).map_err(|e| e.to_string())?;
            let below = sys
                .normals
                .iter()
                .zip(&sys.contacts)
                .map(|(n, name)| {
                    let t = thresholds.iter().find(|(c, _)| c == name);
                    let Some((_, Some(t))) = t else {
                        return Ok(false);
                    };
                    // threshold + γ ≥ 0 ⇔ −γ ≤ threshold
                    let mut s = S::from_rational(&t.to_big(), ctx);
                    for (a, b) in n.iter().zip(&sys.velocity) {
                        s = s + &a.mul_r(b);
                    }
                    match decide(&s, "threshold + gap rate") {
                        Ok(sign) => Ok(sign != Sign::Negative),
                        Err(_) => Err(format!(
                            "engine.model: contact {name}: whether its approach speed is at most its threshold is undecided"
                        )),
                    }
                })
                .collect::<Result<Vec<bool>, String>>()?;
            Ok(sys
                .contacts
                .iter()
                .zip(below)
                .filter(|(_, b)| *b)
                .map(|(c, _)| c.clone())
                .collect())
        }
    }
    let backend = file
        .exact_backend(source)
        .unwrap_or(Backend::MpInterval(256));
    backend.run(Job(file, source, thresholds))
}

/// `file` with `model` applied (see the module): coefficients replaced, contacts at or
/// below their threshold plastic, and the name saying so.
pub fn apply(file: &SystemFile, model: &Model, source: &str) -> Result<SystemFile, String> {
    let mut out = file.with_gaps_as_contacts();
    let names: Vec<String> = out
        .contact
        .iter()
        .enumerate()
        .map(|(i, c)| c.name.clone().unwrap_or_else(|| (i + 1).to_string()))
        .collect();
    if let Some(c) = model.contacts.keys().find(|c| !names.contains(c)) {
        return Err(format!(
            "engine.model.contacts: `{c}` is not a contact of the system (its contacts: {})",
            names.join(", ")
        ));
    }
    let mut changed = Vec::new();
    let mut thresholds = Vec::new();
    let default_t = match &model.threshold {
        Some(t) => Some(rational(t, "engine.model.threshold")?),
        None => None,
    };
    for (c, name) in out.contact.iter_mut().zip(&names) {
        let cm = model.contacts.get(name).cloned().unwrap_or_default();
        let key = format!("engine.model.contacts.{name}");
        if let Some(r) = &cm.restitution {
            let rule = cm.restitution_rule.or(model.restitution_rule);
            let e = combine(r, rule, &format!("{key}.restitution"))?;
            changed.push(format!("{name} e = {e}"));
            c.restitution = Some(Number::Text(e.to_string()));
            c.poisson = None;
        }
        let t = match &cm.threshold {
            Some(t) => Some(rational(t, &format!("{key}.threshold"))?),
            None => default_t.clone(),
        };
        thresholds.push((name.clone(), t));
    }
    if thresholds.iter().any(|(_, t)| t.is_some()) {
        let below = below_threshold(&out, source, &thresholds)?;
        for (c, name) in out.contact.iter_mut().zip(&names) {
            if below.contains(name) {
                changed.retain(|s| !s.starts_with(&format!("{name} e = ")));
                changed.push(format!("{name} plastic"));
                c.restitution = Some(Number::Int(0));
                c.poisson = None;
            }
        }
    }
    if !changed.is_empty() {
        let name = out.name.clone().unwrap_or_else(|| source.to_string());
        out.name = Some(format!("{name} [model: {}]", changed.join(", ")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cradle() -> SystemFile {
        SystemFile::cradle(
            &["1".into(), "1".into(), "1".into()],
            &["1".into(), "0".into(), "0".into()],
            "1",
        )
    }

    fn model(json: &str) -> Model {
        serde_json::from_str(json).unwrap()
    }

    /// Contact 12 approaches at 1 (γ = −1), contact 23 at 0: a threshold of 1/2 leaves
    /// 12 elastic and makes 23 plastic; a threshold of 1 makes both plastic (Box2D
    /// restitutes only above the threshold).
    #[test]
    fn a_threshold_makes_slow_contacts_plastic() {
        let f = apply(&cradle(), &model(r#"{"threshold": 0.5}"#), "c").unwrap();
        let e: Vec<_> = f.contact.iter().map(|c| c.restitution.clone()).collect();
        assert_eq!(e, [None, Some(Number::Int(0))]);
        assert!(f.name.unwrap().ends_with("[model: 23 plastic]"));
        let f = apply(&cradle(), &model(r#"{"threshold": 1}"#), "c").unwrap();
        assert!(f
            .contact
            .iter()
            .all(|c| c.restitution == Some(Number::Int(0))));
    }

    /// The rules combine exactly: 0.5·0.8 = 2/5, max 4/5, min 1/2, average 13/20; a pair
    /// without a rule, a negative number and an unknown contact are errors.
    #[test]
    fn coefficients_combine_by_the_rule() {
        for (rule, want) in [
            ("product", "2/5"),
            ("max", "4/5"),
            ("min", "1/2"),
            ("average", "13/20"),
        ] {
            let m = model(&format!(
                r#"{{"restitution_rule": "{rule}", "contacts": {{"12": {{"restitution": [0.5, 0.8]}}}}}}"#
            ));
            let f = apply(&cradle(), &m, "c").unwrap();
            assert_eq!(f.contact[0].restitution, Some(Number::Text(want.into())));
        }
        let e = apply(
            &cradle(),
            &model(r#"{"contacts": {"12": {"restitution": [0.5, 0.8]}}}"#),
            "c",
        )
        .unwrap_err();
        assert!(e.contains("restitution_rule"), "{e}");
        let e = apply(&cradle(), &model(r#"{"threshold": -1}"#), "c").unwrap_err();
        assert!(e.contains("must be ≥ 0"), "{e}");
        let e = apply(&cradle(), &model(r#"{"contacts": {"99": {}}}"#), "c").unwrap_err();
        assert!(e.contains("`99` is not a contact"), "{e}");
        assert!(serde_json::from_str::<Model>(r#"{"restitution_rule": "mean"}"#).is_err());
    }
}
