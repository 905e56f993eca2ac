//! The claim-file schema: every key a checker of [`super`] reads, so that a misspelt key,
//! an unknown probe or a table of another kind is an error naming the file, the key and
//! the nearest valid name, before any verdict is computed (a misspelt `varz` used to be
//! ignored, a misspelt probe read as "no admissible sample point").
//!
//! Tables whose keys are the author's own names (variables, domains, probe inputs,
//! expected outputs, derived quantities) accept any key; their values are checked by the
//! checkers that read them.

use super::kind::Kind;
use super::tables::{pairs, str_list};

/// One key's content.
#[derive(Clone, Copy, Debug)]
enum Node {
    /// A value of any shape (a string, a list, or a table read as a whole).
    Value,
    /// A table of the author's names (`vars`, `domain`, `inputs`, `expect`, …), or a
    /// list of [name, value] pairs.
    Names,
    /// A table with exactly these keys.
    Table(&'static [(&'static str, Node)]),
    /// An array of tables (`[[case]]`, `[[calls]]`) with these keys.
    Tables(&'static [(&'static str, Node)]),
}

use Node::{Names, Table, Tables, Value};

/// The keys of a claim file outside its kind's table.
const TOP: [&str; 6] = ["id", "paper", "where", "statement", "kind", "method"];

/// A Gram reduction of a proof ([`crate::claims::reduction`]).
const REDUCTION: &[(&str, Node)] = &[("metric", Value), ("objects", Value), ("why", Value)];

/// `[….proof]`: the symbolic method over the paper's domain ([`crate::claims::prove`]).
const PROOF: &[(&str, Node)] = &[
    ("cone", Value),
    ("domain", Names),
    ("subdomain", Value),
    ("work", Value),
    ("reduction", Table(REDUCTION)),
];

/// A probe call with a prefix for its outputs (`[[implication.calls]]`).
const CALL: &[(&str, Node)] = &[("probe", Value), ("prefix", Value), ("inputs", Names)];

/// The probes and expressions that give a sampled claim its quantities.
const QUANTITIES: [(&str, Node); 6] = [
    ("probe", Value),
    ("probe2", Value),
    ("inputs", Names),
    ("inputs2", Names),
    ("calls", Tables(CALL)),
    ("exprs", Names),
];

/// One side of an agreement (`left`, `right`, `also`).
const SIDE: &[(&str, Node)] = &[
    QUANTITIES[0],
    QUANTITIES[1],
    QUANTITIES[2],
    QUANTITIES[3],
    QUANTITIES[5],
];

/// The candidate correction of a refuted agreement.
const CORRECTED: &[(&str, Node)] = &[("statement", Value), ("exprs", Names)];

/// `[[….case]]`: a zone or case of the domain with its own hypotheses and conclusions.
const CASE: &[(&str, Node)] = &[
    ("name", Value),
    ("assume", Value),
    ("conclude", Value),
    ("corrected_conclude", Value),
    ("derive", Names),
    ("vars", Names),
];

/// The step lemma of an induction ([`crate::claims::prove::induction`]).
const STEP: &[(&str, Node)] = &[
    // read only to be refused with the reason (the engine builds the lemma's conclusions)
    ("conclude", Value),
    ("case", Value),
    ("assume", Value),
    ("calls", Tables(CALL)),
    ("derive", Names),
    ("inputs", Names),
    ("probe", Value),
    ("proof", Table(PROOF)),
    ("samples", Value),
    ("vars", Names),
];

const INDUCTION: &[(&str, Node)] = &[
    // read only to be refused with the reason (the runs start from the claim's inputs)
    ("base", Value),
    ("conserved", Value),
    ("why", Value),
    ("step", Table(STEP)),
];

/// A ranking-function proof that every run stops ([`crate::claims::prove::termination`]).
const TERMINATION: &[(&str, Node)] = &[
    ("at_least", Value),
    ("at_most", Value),
    ("domain", Value),
    ("ranking", Value),
    ("rises_by", Value),
    ("shrinks_by", Value),
    ("why", Value),
];

const IDENTITY: &[(&str, Node)] = &[
    ("lhs", Value),
    ("rhs", Value),
    ("vars", Names),
    ("substitute", Value),
    ("derive", Value),
    ("assume", Value),
    ("samples", Value),
];

const EXAMPLE: &[(&str, Node)] = &[
    ("probe", Value),
    ("inputs", Names),
    ("expect", Names),
    ("holds", Value),
    ("missing", Value),
    ("printed", Names),
    ("values", Value),
];

const AGREEMENT: &[(&str, Node)] = &[
    ("vars", Names),
    ("assume", Value),
    ("derive", Value),
    ("case", Tables(CASE)),
    ("left", Table(SIDE)),
    ("right", Table(SIDE)),
    ("also", Table(SIDE)),
    ("compare", Value),
    ("every_side_defined", Value),
    ("corrected", Table(CORRECTED)),
    ("proof", Table(PROOF)),
    ("samples", Value),
];

const IMPLICATION: &[(&str, Node)] = &[
    ("vars", Names),
    ("assume", Value),
    ("derive", Value),
    ("case", Tables(CASE)),
    QUANTITIES[0],
    QUANTITIES[1],
    QUANTITIES[2],
    QUANTITIES[3],
    QUANTITIES[4],
    QUANTITIES[5],
    ("conclude", Value),
    ("corrected_conclude", Value),
    ("proof", Table(PROOF)),
    ("induction", Table(INDUCTION)),
    ("termination", Table(TERMINATION)),
    ("samples", Value),
];

const INEQUALITY: &[(&str, Node)] = &[
    ("vars", Names),
    ("assume", Value),
    ("derive", Value),
    ("holds", Value),
    ("max_depth", Value),
    ("subdomain", Value),
    ("domain", Value),
    ("proof", Table(PROOF)),
];

const FP_AUDIT: &[(&str, Node)] = &[
    ("alpha", Value),
    ("eps", Value),
    ("v0", Value),
    ("sa_threshold", Value),
    ("exact_steps", Value),
    ("f64_sa_steps", Value),
    ("f64_ta_zone1", Value),
    ("printed", Names),
];

/// The keys of the table of `kind`.
fn kind_table(kind: Kind) -> &'static [(&'static str, Node)] {
    match kind {
        Kind::Identity => IDENTITY,
        Kind::ExactExample => EXAMPLE,
        Kind::Agreement => AGREEMENT,
        Kind::Implication | Kind::CounterexampleSearch => IMPLICATION,
        Kind::Inequality => INEQUALITY,
        Kind::FpAudit => FP_AUDIT,
    }
}

/// Checks the keys of a parsed claim file of `kind` and the probe names it uses: the
/// first unknown key or probe as `key: reason (did you mean …?)`.
pub fn check(t: &toml::Table, kind: Kind) -> Result<(), String> {
    let table = kind.table();
    for key in t.keys() {
        if key != table && !TOP.contains(&key.as_str()) {
            let other_kind = Kind::ALL.iter().any(|k| k.table() == key);
            let reason = if other_kind {
                format!("a claim of kind \"{kind}\" reads the table [{table}], not [{key}]")
            } else {
                let mut names: Vec<&str> = TOP.to_vec();
                names.push(table);
                format!("unknown key{}", nearest(key, &names))
            };
            return Err(format!("`{key}`: {reason}"));
        }
    }
    let Some(toml::Value::Table(c)) = t.get(table) else {
        return Ok(());
    };
    check_table(c, kind_table(kind), table)?;
    if kind == Kind::Identity {
        check_identity_names(c)?;
    }
    Ok(())
}

/// An identity's expressions use only its variables (`vars`) and the names it
/// substitutes or derives: a misspelt variable would otherwise be a new free variable,
/// and a true identity would be reported refuted.
fn check_identity_names(t: &toml::Table) -> Result<(), String> {
    let names = |key: &str| pairs(t, key).unwrap_or_default();
    let (subs, derive) = (names("substitute"), names("derive"));
    let mut known: Vec<&str> = match t.get("vars") {
        Some(toml::Value::Table(v)) => v.keys().map(String::as_str).collect(),
        _ => Vec::new(),
    };
    known.extend(subs.iter().chain(&derive).map(|(n, _)| n.as_str()));
    let mut used: Vec<(String, String)> = Vec::new();
    for key in ["lhs", "rhs"] {
        if let Some(e) = t.get(key).and_then(toml::Value::as_str) {
            used.push((key.into(), e.into()));
        }
    }
    for (key, list) in [("substitute", &subs), ("derive", &derive)] {
        used.extend(list.iter().map(|(n, e)| (format!("{key}.{n}"), e.clone())));
    }
    for a in str_list(t, "assume").unwrap_or_default() {
        used.push(("assume".into(), a));
    }
    for (key, text) in used {
        let mut vars = Vec::new();
        match crate::lang::parse_relation(&text) {
            Ok(r) => r.vars(&mut vars),
            Err(_) => match crate::lang::parse_with_variables(&text) {
                Ok(e) => e.vars(&mut vars),
                Err(_) => continue, // the checker reports the syntax error
            },
        }
        if let Some(v) = vars.iter().find(|v| !known.contains(&v.as_str())) {
            return Err(format!(
                "`identity.{key}`: unknown variable `{v}`{} (declare it in `vars`, or substitute or derive it)",
                nearest(v, &known)
            ));
        }
    }
    Ok(())
}

fn check_table(t: &toml::Table, keys: &[(&str, Node)], path: &str) -> Result<(), String> {
    for (key, value) in t {
        let here = format!("{path}.{key}");
        let Some((_, node)) = keys.iter().find(|(k, _)| k == key) else {
            let names: Vec<&str> = keys.iter().map(|k| k.0).collect();
            return Err(format!("`{here}`: unknown key{}", nearest(key, &names)));
        };
        check_node(value, *node, &here)?;
        if matches!(key.as_str(), "probe" | "probe2") {
            check_probe(value, &here)?;
        }
    }
    Ok(())
}

fn check_node(v: &toml::Value, node: Node, path: &str) -> Result<(), String> {
    match (node, v) {
        (Value, _) => Ok(()),
        (Names, toml::Value::Table(_) | toml::Value::Array(_)) => Ok(()),
        (Table(keys), toml::Value::Table(t)) => check_table(t, keys, path),
        (Tables(keys), toml::Value::Array(items)) => {
            items
                .iter()
                .enumerate()
                .try_for_each(|(i, item)| match item {
                    toml::Value::Table(t) => check_table(t, keys, &format!("{path}[{i}]")),
                    _ => Err(format!("`{path}[{i}]`: must be a table")),
                })
        }
        (Tables(_), _) => Err(format!("`{path}`: must be an array of tables ([[…]])")),
        (Names, _) => Err(format!("`{path}`: must be a table or a list of pairs")),
        _ => Err(format!("`{path}`: must be a table")),
    }
}

fn check_probe(v: &toml::Value, path: &str) -> Result<(), String> {
    let Some(name) = v.as_str() else {
        return Err(format!("`{path}`: must be a string (a probe name)"));
    };
    let known = crate::claims::probes::all_probes();
    if known.contains(&name) {
        return Ok(());
    }
    Err(format!(
        "`{path}`: unknown probe \"{name}\"{} (impactkit verify --probes lists them)",
        nearest(name, &known)
    ))
}

/// ` (did you mean "x"?)`: shared with every reader of user files.
pub use crate::input::suggest::nearest;
