//! The typed claim: each kind's table (`[implication]`, `[agreement]`, …) as a Rust type
//! read by serde from the same TOML, so that the file format is written down once, here,
//! and every shape is checked when the file is read (a misspelt key, a string where a list
//! is needed), each error naming the key's path and the nearest valid name.
//!
//! The format is documented in `docs/claims-format.md`; the fields below carry its words.

use super::kind::Kind;
use serde::de::{DeserializeOwned, Deserializer};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Named expressions: a table `{ k = "t/(1 - t)" }` (read in name order, as TOML tables
/// are) or a list of `[name, expression]` pairs (read in the file's order: a derived
/// quantity may use the ones before it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Named(pub Vec<(String, String)>);

impl Named {
    /// The pairs, in order.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.0
    }
    /// The expression given for `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, e)| e.as_str())
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'de> Deserialize<'de> for Named {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match toml::Value::deserialize(d)? {
            toml::Value::Table(m) => m
                .into_iter()
                .map(|(k, v)| match v {
                    toml::Value::String(s) => Ok((k, s)),
                    _ => Err(D::Error::custom(format!("`{k}` must be a string"))),
                })
                .collect::<Result<_, _>>()
                .map(Named),
            toml::Value::Array(a) => a
                .into_iter()
                .map(|p| match p {
                    toml::Value::Array(p) => match <[toml::Value; 2]>::try_from(p) {
                        Ok([toml::Value::String(n), toml::Value::String(e)]) => Ok((n, e)),
                        _ => Err(D::Error::custom("must hold [name, expression] pairs")),
                    },
                    _ => Err(D::Error::custom("must hold [name, expression] pairs")),
                })
                .collect::<Result<_, _>>()
                .map(Named),
            _ => Err(D::Error::custom("must be a table or a list of pairs")),
        }
    }
}

/// Sampling boxes: `vars = { t = ["0", "1"] }`, each variable with its exact bounds.
pub type Ranges = BTreeMap<String, (String, String)>;

/// What a sampled claim's points are: variables in their boxes, derived quantities and
/// hypotheses (the claim's table or one of its cases).
pub trait Space {
    fn vars(&self) -> &Ranges;
    fn derive(&self) -> &Named;
    fn assume(&self) -> &[String];
}

/// The quantities a side of a claim computes at a point: a probe's outputs (a law run
/// exactly), a second run (`probe2`, outputs `p_*`), further runs (`calls`, outputs
/// `{prefix}*`) and expressions (`exprs`).
pub trait Quantities {
    fn probe(&self) -> Option<&str> {
        None
    }
    fn inputs(&self) -> &Named;
    fn probe2(&self) -> Option<&str> {
        None
    }
    fn inputs2(&self) -> &Named;
    fn calls(&self) -> &[Call] {
        &[]
    }
    fn exprs(&self) -> &Named;
}

/// A probe run with a prefix for its outputs (`[[implication.calls]]`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Call {
    pub probe: String,
    pub prefix: String,
    #[serde(default)]
    pub inputs: Named,
}

/// `[….proof]`: the symbolic method over the paper's domain ([`crate::claims::prove`]).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Proof {
    /// The paper's domain: each parameter's range (`"(0, 1)"`, `"[0, 1)"`, `"R"`, a value,
    /// ranges joined by ` u `).
    pub domain: Option<BTreeMap<String, String>>,
    /// Variables in which every form is homogeneous (charted on the unit sphere).
    #[serde(default)]
    pub cone: Vec<String>,
    /// A part of the domain the proof is stated on (`proved-on-subdomain`).
    pub subdomain: Option<String>,
    /// The prover's work bound in term products, for proofs of many cells.
    pub work: Option<i64>,
    /// A Gram reduction ([`crate::claims::reduction`]).
    pub reduction: Option<Reduction>,
}

/// `[….proof.reduction]`: the objects' coordinates, the metric, and why the conclusions
/// are invariant.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reduction {
    pub objects: Option<Vec<Vec<String>>>,
    pub metric: Option<String>,
    pub why: Option<String>,
}

/// `[[….case]]`: a zone or case of the domain with its own hypotheses and conclusions.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub vars: Ranges,
    #[serde(default)]
    pub derive: Named,
    #[serde(default)]
    pub assume: Vec<String>,
    #[serde(default)]
    pub conclude: Vec<String>,
    #[serde(default)]
    pub corrected_conclude: Vec<String>,
}

/// One side of an agreement (`left`, `right`, `also`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    pub probe: Option<String>,
    #[serde(default)]
    pub inputs: Named,
    pub probe2: Option<String>,
    #[serde(default)]
    pub inputs2: Named,
    #[serde(default)]
    pub exprs: Named,
}

/// The candidate correction of a refuted agreement: its text and the right side's
/// expressions that it states.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Corrected {
    pub statement: Option<String>,
    #[serde(default)]
    pub exprs: Named,
}

/// `[identity]`: two expressions equal over their variables' domain.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Identity {
    pub lhs: String,
    pub rhs: String,
    #[serde(default)]
    pub vars: Ranges,
    /// Variables replaced by expressions before comparing (in order).
    #[serde(default)]
    pub substitute: Named,
    #[serde(default)]
    pub derive: Named,
    #[serde(default)]
    pub assume: Vec<String>,
    pub samples: Option<i64>,
}

/// `[example]`: a probe run exactly, its outputs compared with the paper's.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    pub probe: Option<String>,
    #[serde(default)]
    pub inputs: Named,
    /// Exact values the paper states.
    #[serde(default)]
    pub expect: Named,
    /// Relations on the outputs.
    #[serde(default)]
    pub holds: Vec<String>,
    /// Values the paper prints (rounded), compared at their precision.
    #[serde(default)]
    pub printed: Named,
    /// Quantities computed from the outputs.
    #[serde(default)]
    pub values: Named,
    /// The data the paper does not give (the claim stays `inconclusive`).
    pub missing: Option<String>,
}

/// `[agreement]`: two sides (laws or expressions) equal on a domain, per zone.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Agreement {
    #[serde(default)]
    pub vars: Ranges,
    #[serde(default)]
    pub derive: Named,
    #[serde(default)]
    pub assume: Vec<String>,
    pub case: Option<Vec<Case>>,
    pub left: Option<Side>,
    pub right: Option<Side>,
    pub also: Option<Side>,
    /// The outputs compared.
    #[serde(default)]
    pub compare: Vec<String>,
    /// Whether a right side undefined where the left is defined is a counterexample.
    #[serde(default)]
    pub every_side_defined: bool,
    pub corrected: Option<Corrected>,
    pub proof: Option<Proof>,
    pub samples: Option<i64>,
}

/// `[implication]` (and `[search]`): conclusions that hold wherever the hypotheses hold;
/// also the step lemma of an induction (`[implication.induction.step]`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Implication {
    #[serde(default)]
    pub vars: Ranges,
    #[serde(default)]
    pub derive: Named,
    #[serde(default)]
    pub assume: Vec<String>,
    pub case: Option<Vec<Case>>,
    pub probe: Option<String>,
    pub inputs: Option<Named>,
    pub probe2: Option<String>,
    #[serde(default)]
    pub inputs2: Named,
    #[serde(default)]
    pub calls: Vec<Call>,
    #[serde(default)]
    pub exprs: Named,
    #[serde(default)]
    pub conclude: Vec<String>,
    #[serde(default)]
    pub corrected_conclude: Vec<String>,
    pub proof: Option<Proof>,
    pub induction: Option<Induction>,
    pub termination: Option<Termination>,
    pub samples: Option<i64>,
}

/// `[implication.induction]`: the runs' conclusions from a lemma on one step
/// ([`crate::claims::prove::induction`]).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Induction {
    /// Read only to be refused with the reason (the runs start from the claim's inputs).
    pub base: Option<toml::Value>,
    /// State variables the lemma shows are kept by a step.
    #[serde(default)]
    pub conserved: Vec<String>,
    pub why: Option<String>,
    /// The step lemma: an implication without `case` or `conclude` (the engine builds
    /// them) and without the keys of the list [`STEP_KEYS`].
    pub step: Option<Box<Implication>>,
}

/// The keys a step lemma may have (the others of an implication are refused).
pub const STEP_KEYS: [&str; 10] = [
    "conclude", "case", "assume", "calls", "derive", "inputs", "probe", "proof", "samples", "vars",
];

/// `[implication.termination]`: a ranking function that proves every run stops
/// ([`crate::claims::prove::termination`]).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Termination {
    pub ranking: Option<String>,
    pub rises_by: Option<String>,
    pub shrinks_by: Option<String>,
    pub at_least: Option<String>,
    pub at_most: Option<String>,
    /// The ranking's own domain (relations on the state), when it is not the claim's.
    pub domain: Option<Vec<String>>,
    pub why: Option<String>,
}

/// `[inequality]`: an inequality over boxes (interval branch-and-bound).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inequality {
    #[serde(default)]
    pub vars: Ranges,
    #[serde(default)]
    pub derive: Named,
    #[serde(default)]
    pub assume: Vec<String>,
    pub holds: String,
    pub max_depth: Option<i64>,
    /// A part of the paper's domain (`proved-on-subdomain`).
    pub subdomain: Option<String>,
    /// The domain in words, for the report.
    pub domain: Option<String>,
    pub proof: Option<Proof>,
}

/// `[fp-audit]`: `f64` behaviour of the corner laws against the exact one.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FpAudit {
    pub alpha: String,
    pub eps: String,
    pub v0: String,
    pub sa_threshold: Option<String>,
    pub exact_steps: Option<i64>,
    pub f64_sa_steps: Option<i64>,
    pub f64_ta_zone1: Option<String>,
    #[serde(default)]
    pub printed: Named,
}

/// A claim's formal content, by kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    Identity(Identity),
    Example(Example),
    Agreement(Agreement),
    /// `implication` and `counterexample-search`.
    Implication(Implication),
    Inequality(Inequality),
    FpAudit(FpAudit),
}

impl Body {
    /// Reads the table of a claim of `kind` (`table` as found under `[implication]`, …);
    /// an error is `path: reason` with the path from the file's top (`implication.case[0].nmae`).
    pub fn parse(kind: Kind, table: &toml::Table) -> Result<Body, String> {
        let prefix = kind.table();
        let v = toml::Value::Table(table.clone());
        let body = match kind {
            Kind::Identity => Body::Identity(typed(v, prefix)?),
            Kind::ExactExample => Body::Example(typed(v, prefix)?),
            Kind::Agreement => Body::Agreement(typed(v, prefix)?),
            Kind::Implication | Kind::CounterexampleSearch => Body::Implication(typed(v, prefix)?),
            Kind::Inequality => Body::Inequality(typed(v, prefix)?),
            Kind::FpAudit => Body::FpAudit(typed(v, prefix)?),
        };
        if let Some(step) = table
            .get("induction")
            .and_then(|i| i.get("step"))
            .and_then(|s| s.as_table())
        {
            let names: Vec<&str> = STEP_KEYS.to_vec();
            if let Some(key) = step.keys().find(|k| !names.contains(&k.as_str())) {
                return Err(format!(
                    "`{prefix}.induction.step.{key}`: unknown key{}",
                    crate::input::suggest::nearest(key, &names)
                ));
            }
        }
        Ok(body)
    }

    /// The implication's table (`implication`, `counterexample-search`, a step lemma).
    pub fn implication(&self) -> Option<&Implication> {
        match self {
            Body::Implication(t) => Some(t),
            _ => None,
        }
    }

    /// The agreement's table.
    pub fn agreement(&self) -> Option<&Agreement> {
        match self {
            Body::Agreement(t) => Some(t),
            _ => None,
        }
    }

    /// What the claim's points and conclusions are read from, for the kinds that have
    /// them (an identity and an inequality have a space and no cases).
    pub fn sampled(&self) -> Result<Sampled<'_>, String> {
        Ok(match self {
            Body::Implication(t) => Sampled {
                space: t,
                case: t.case.as_deref(),
                conclude: &t.conclude,
                corrected_conclude: &t.corrected_conclude,
            },
            Body::Agreement(t) => Sampled {
                space: t,
                case: t.case.as_deref(),
                conclude: &[],
                corrected_conclude: &[],
            },
            Body::Identity(t) => Sampled::space(t),
            Body::Inequality(t) => Sampled::space(t),
            Body::Example(_) | Body::FpAudit(_) => {
                return Err("this kind of claim has no sample space".into())
            }
        })
    }

    /// The number of sample points the claim asks for (`samples`).
    pub fn samples(&self) -> Option<i64> {
        match self {
            Body::Implication(t) => t.samples,
            Body::Agreement(t) => t.samples,
            Body::Identity(t) => t.samples,
            _ => None,
        }
    }

    /// Every probe a claim runs (`probe`, `probe2`, the probes of `calls`, of an induction's
    /// step and of the sides).
    pub fn probes(&self) -> Vec<String> {
        fn of(q: &dyn Quantities, out: &mut Vec<String>) {
            out.extend(q.probe().into_iter().chain(q.probe2()).map(String::from));
            out.extend(q.calls().iter().map(|c| c.probe.clone()));
        }
        let mut out = Vec::new();
        match self {
            Body::Implication(t) => {
                of(t, &mut out);
                if let Some(step) = t.induction.as_ref().and_then(|i| i.step.as_deref()) {
                    of(step, &mut out);
                }
            }
            Body::Agreement(t) => {
                for side in [&t.left, &t.right, &t.also].into_iter().flatten() {
                    of(side, &mut out);
                }
            }
            Body::Example(t) => out.extend(t.probe.clone()),
            _ => {}
        }
        out.sort();
        out.dedup();
        out
    }

    /// The symbolic method's table (`proof`).
    pub fn proof(&self) -> Option<&Proof> {
        match self {
            Body::Implication(t) => t.proof.as_ref(),
            Body::Agreement(t) => t.proof.as_ref(),
            Body::Inequality(t) => t.proof.as_ref(),
            _ => None,
        }
    }
}

/// What a sampled claim's points and conclusions are read from: its space, its cases
/// (`None`: one case, the whole space) and its conclusions outside the cases.
pub struct Sampled<'a> {
    pub space: &'a dyn Space,
    pub case: Option<&'a [Case]>,
    pub conclude: &'a [String],
    pub corrected_conclude: &'a [String],
}

impl<'a> Sampled<'a> {
    fn space(space: &'a dyn Space) -> Self {
        Sampled {
            space,
            case: None,
            conclude: &[],
            corrected_conclude: &[],
        }
    }
}

/// Deserializes `v` into `T`, an error as `` `path`: reason `` (with the nearest valid
/// name for an unknown key).
fn typed<T: DeserializeOwned>(v: toml::Value, prefix: &str) -> Result<T, String> {
    serde_path_to_error::deserialize(v).map_err(|e| {
        let path = match e.path().to_string().as_str() {
            "." => prefix.to_string(),
            p => format!("{prefix}.{p}"),
        };
        let inner = e.inner().to_string();
        // (the TOML reader adds a line `in `key``: the path says it)
        let inner = inner.lines().next().unwrap_or_default().trim();
        if let Some((word, hint)) = crate::input::suggest::unknown_field(inner) {
            let path = match path.ends_with(word) {
                true => path.clone(),
                false => format!("{path}.{word}"),
            };
            return format!("`{path}`: unknown key{hint}");
        }
        format!("`{path}`: {}", plain(inner))
    })
}

/// serde's "invalid type: integer `5`, expected struct Induction" in the file's words:
/// "must be a table, not integer `5`".
fn plain(inner: &str) -> String {
    let Some((found, expected)) = inner
        .strip_prefix("invalid type: ")
        .and_then(|r| r.split_once(", expected "))
    else {
        return inner.to_string();
    };
    let want = match expected {
        e if e.starts_with("struct ") || e == "a map" => "a table",
        "a sequence" => "a list",
        "a tuple of size 2" => "[lo, hi]",
        "i64" => "an integer",
        "a boolean" => "true or false",
        e => e,
    };
    format!("must be {want}, not {found}")
}

/// The [`Space`] of a table with `vars`, `derive` and `assume`.
macro_rules! space {
    ($($t:ty),*) => {$(
        impl Space for $t {
            fn vars(&self) -> &Ranges {
                &self.vars
            }
            fn derive(&self) -> &Named {
                &self.derive
            }
            fn assume(&self) -> &[String] {
                &self.assume
            }
        }
    )*};
}

space!(Implication, Agreement, Identity, Inequality, Case);

static EMPTY: Named = Named(Vec::new());

impl Quantities for Implication {
    fn probe(&self) -> Option<&str> {
        self.probe.as_deref()
    }
    fn inputs(&self) -> &Named {
        self.inputs.as_ref().unwrap_or(&EMPTY)
    }
    fn probe2(&self) -> Option<&str> {
        self.probe2.as_deref()
    }
    fn inputs2(&self) -> &Named {
        &self.inputs2
    }
    fn calls(&self) -> &[Call] {
        &self.calls
    }
    fn exprs(&self) -> &Named {
        &self.exprs
    }
}

impl Quantities for Side {
    fn probe(&self) -> Option<&str> {
        self.probe.as_deref()
    }
    fn inputs(&self) -> &Named {
        &self.inputs
    }
    fn probe2(&self) -> Option<&str> {
        self.probe2.as_deref()
    }
    fn inputs2(&self) -> &Named {
        &self.inputs2
    }
    fn exprs(&self) -> &Named {
        &self.exprs
    }
}

impl Quantities for Corrected {
    fn inputs(&self) -> &Named {
        &EMPTY
    }
    fn inputs2(&self) -> &Named {
        &EMPTY
    }
    fn exprs(&self) -> &Named {
        &self.exprs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(kind: Kind, text: &str) -> Result<Body, String> {
        Body::parse(kind, &text.parse::<toml::Table>().unwrap())
    }

    #[test]
    fn keys_and_shapes_are_checked_on_reading() {
        let cases = [
            (
                Kind::Implication,
                "varz = {}",
                "`implication.varz`: unknown key (did you mean \"vars\"?)",
            ),
            (
                Kind::Implication,
                "[[case]]\nnmae = \"x\"",
                "`implication.case[0].nmae`: unknown key (did you mean \"name\"?)",
            ),
            (
                Kind::Implication,
                "[proof]\ncones = []",
                "`implication.proof.cones`: unknown key (did you mean \"cone\"?)",
            ),
            (
                Kind::Implication,
                "[induction.step]\nexprs = {}",
                "`implication.induction.step.exprs`: unknown key (did you mean \"vars\"?)",
            ),
            (
                Kind::Implication,
                "assume = \"x > 0\"",
                "`implication.assume`: must be a list, not string \"x > 0\"",
            ),
            (
                Kind::Implication,
                "induction = 5",
                "`implication.induction`: must be a table, not integer `5`",
            ),
            (
                Kind::Implication,
                "inputs = { k = 1 }",
                "`implication.inputs`: `k` must be a string",
            ),
            (
                Kind::Identity,
                "lhs = \"x\"",
                "`identity`: missing field `rhs`",
            ),
        ];
        for (kind, text, want) in cases {
            assert_eq!(parse(kind, text).unwrap_err(), want, "{text}");
        }
    }

    #[test]
    fn pairs_keep_the_file_order() {
        let Body::Implication(t) = parse(
            Kind::Implication,
            "derive = [[\"b\", \"a\"], [\"a\", \"1\"]]",
        )
        .unwrap() else {
            panic!("an implication");
        };
        assert_eq!(t.derive.pairs()[0], ("b".into(), "a".into()));
    }
}
