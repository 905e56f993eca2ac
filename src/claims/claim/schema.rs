//! The claim file's checks beyond its kind's table's types ([`super::body`], which
//! checks every key and shape there): the keys outside that table, the probe names and an
//! identity's variables, so that a misspelt key, an unknown probe or a table of another
//! kind is an error naming the file, the key and the nearest valid name, before any
//! verdict is computed (a misspelt `varz` used to be ignored, a misspelt probe read as "no
//! admissible sample point").

use super::body::{Body, Identity};
use super::kind::Kind;

/// The keys of a claim file outside its kind's table.
const TOP: [&str; 6] = ["id", "paper", "where", "statement", "kind", "method"];

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
    Ok(())
}

/// Checks the names a claim uses (after [`Body::parse`] has checked its keys and shapes):
/// every probe is a known one, and an identity's expressions use only its variables and
/// the names it substitutes or derives.
pub fn check_names(t: &toml::Table, kind: Kind, body: &Body) -> Result<(), String> {
    let table = kind.table();
    if let Some(toml::Value::Table(c)) = t.get(table) {
        check_probes(c, table)?;
    }
    match body {
        Body::Identity(id) => check_identity_names(id),
        _ => Ok(()),
    }
}

/// An identity's expressions use only its variables (`vars`) and the names it
/// substitutes or derives: a misspelt variable would otherwise be a new free variable,
/// and a true identity would be reported refuted.
fn check_identity_names(t: &Identity) -> Result<(), String> {
    let (subs, derive) = (t.substitute.pairs(), t.derive.pairs());
    let mut known: Vec<&str> = t.vars.keys().map(String::as_str).collect();
    known.extend(subs.iter().chain(derive).map(|(n, _)| n.as_str()));
    let mut used: Vec<(String, String)> =
        vec![("lhs".into(), t.lhs.clone()), ("rhs".into(), t.rhs.clone())];
    for (key, list) in [("substitute", subs), ("derive", derive)] {
        used.extend(list.iter().map(|(n, e)| (format!("{key}.{n}"), e.clone())));
    }
    for a in &t.assume {
        used.push(("assume".into(), a.clone()));
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

/// Every `probe` and `probe2` of a table and of the tables in it names a known probe.
fn check_probes(t: &toml::Table, path: &str) -> Result<(), String> {
    for (key, value) in t {
        let here = format!("{path}.{key}");
        match value {
            toml::Value::Table(inner) => check_probes(inner, &here)?,
            toml::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if let toml::Value::Table(inner) = item {
                        check_probes(inner, &format!("{here}[{i}]"))?;
                    }
                }
            }
            _ if matches!(key.as_str(), "probe" | "probe2") => check_probe(value, &here)?,
            _ => {}
        }
    }
    Ok(())
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
