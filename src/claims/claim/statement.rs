//! What a claim states, read from its file: the ranges of `proof.domain`, the parameters
//! and the cone, the derived quantities, the zones of FP eq. (1), and a conclusion's
//! obligation on a chart (its guards and body as rational functions of the chart
//! variables). Shared by the prover (`prove`) and the checker (`check`), which must
//! derive the same statement from the same file; nothing here searches for a proof.

use super::body::Proof;
use crate::arith::symbolic::Symbolic;
use crate::arith::Scalar;
use crate::lang::{self, Env};
use serde_json::{json, Value};

/// A parameter range of the `domain` table; ends are rational functions of the other
/// parameters (e.g. `(S, inf)`), handled after them.
#[derive(Clone, Debug)]
pub(crate) enum Range {
    Point(Symbolic),
    /// Ends: `None` is infinite; the flag says closed.
    Interval(Option<(Symbolic, bool)>, Option<(Symbolic, bool)>),
    /// `(0, 1/2) u [1/2, 1)`: ranges charted each on its own (e.g. where a coefficient
    /// of the law changes its sign at 1/2).
    Union(Vec<Range>),
}

impl Range {
    /// The range written back in the syntax of `proof.domain` (what a certificate records
    /// and `impactkit check` reads with [`parse_range`]).
    pub(crate) fn text(&self) -> String {
        let end = |e: &Option<(Symbolic, bool)>, inf: &str| match e {
            Some((v, _)) => v.render_string(),
            None => inf.to_string(),
        };
        match self {
            Range::Point(v) => v.render_string(),
            Range::Interval(None, None) => "R".into(),
            Range::Interval(lo, hi) => format!(
                "{}{}, {}{}",
                if matches!(lo, Some((_, true))) {
                    '['
                } else {
                    '('
                },
                end(lo, "-inf"),
                end(hi, "inf"),
                if matches!(hi, Some((_, true))) {
                    ']'
                } else {
                    ')'
                },
            ),
            Range::Union(parts) => parts
                .iter()
                .map(Range::text)
                .collect::<Vec<_>>()
                .join(" u "),
        }
    }

    /// The parameters the ends depend on.
    pub(crate) fn depends(&self) -> Vec<String> {
        match self {
            Range::Point(v) => v.variables(),
            Range::Interval(lo, hi) => [lo, hi]
                .into_iter()
                .flatten()
                .flat_map(|(v, _)| v.variables())
                .collect(),
            Range::Union(parts) => parts.iter().flat_map(Range::depends).collect(),
        }
    }
}

fn parse_end(s: &str, x: &str) -> Result<Symbolic, String> {
    lang::parse_symbolic(x.trim()).map_err(|e| format!("range {s}: {e}"))
}

pub(crate) fn parse_range(s: &str) -> Result<Range, String> {
    let s = s.trim();
    if s.contains(" u ") {
        return s
            .split(" u ")
            .map(parse_range)
            .collect::<Result<_, _>>()
            .map(Range::Union);
    }
    if s == "R" {
        return Ok(Range::Interval(None, None));
    }
    let (Some(open), Some(close)) = (s.chars().next(), s.chars().last()) else {
        return Err("empty range".into());
    };
    if !matches!(open, '(' | '[') {
        return parse_end(s, s).map(Range::Point);
    }
    if !matches!(close, ')' | ']') || s.len() < 2 {
        return Err(format!("range {s}: expected (a, b), [a, b], R or a value"));
    }
    let inner = &s[1..s.len() - 1];
    let (a, b) = inner
        .split_once(',')
        .ok_or_else(|| format!("range {s}: expected two ends"))?;
    let end = |x: &str, closed: bool| -> Result<Option<(Symbolic, bool)>, String> {
        match x.trim() {
            "inf" | "+inf" | "-inf" => Ok(None),
            v => Ok(Some((parse_end(s, v)?, closed))),
        }
    };
    let (lo, hi) = (end(a, open == '[')?, end(b, close == ']')?);
    if let (Some((a, ca)), Some((b, cb))) = (&lo, &hi) {
        if let (Some(x), Some(y)) = (a.is_constant(), b.is_constant()) {
            if x == y && *ca && *cb {
                return Ok(Range::Point(a.clone()));
            }
            if x >= y {
                return Err(format!("range {s}: empty"));
            }
        }
    }
    Ok(Range::Interval(lo, hi))
}

/// A value's text with its radicals named `rad_…` (SMT-LIB and the checker read them so).
pub(crate) fn radical_names(s: &str) -> String {
    s.replace('√', "rad_")
}

/// The obligation of a conclusion decided true on a cell, for a certificate and the SMT
/// cross-check: its guards (relation and `lhs - rhs` as rational functions of the chart
/// variables, where they evaluate) and its body (where it evaluates).
pub(crate) fn obligation(r: &lang::Relation, scope: &Env<Symbolic>) -> Value {
    let part = |x: &lang::Relation| -> Option<Value> {
        let l = x.lhs.eval_in(scope, &()).ok()?;
        let rr = x.rhs.eval_in(scope, &()).ok()?;
        Some(json!([
            x.rel.symbol(),
            radical_names(&l.sub_r(&rr).render_string())
        ]))
    };
    let mut guards = Vec::new();
    let mut g = r.guard.as_deref();
    while let Some(x) = g {
        guards.extend(part(x));
        g = x.guard.as_deref();
    }
    let body = part(&lang::Relation {
        guard: None,
        ..r.clone()
    });
    json!({"guards": guards, "body": body})
}

/// The conditions `p > 0` (`true`) or `p >= 0` (`false`) of a zone of FP eq. (1) for
/// (ξ̇, η̇): Z0 ξ̇ ≤ 0, η̇ ≤ 0; Z1 ξ̇ ≤ 0, η̇ > 0; Z2 ξ̇ > 0, η̇ ≤ 0; Z12 ξ̇ > 0, η̇ > 0.
pub(crate) fn zone_conditions(
    code: i64,
    xi: &Symbolic,
    eta: &Symbolic,
) -> Option<[(Symbolic, bool); 2]> {
    let (mx, me) = (-xi.clone(), -eta.clone());
    Some(match code {
        0 => [(mx, false), (me, false)],
        1 => [(mx, false), (eta.clone(), true)],
        2 => [(xi.clone(), true), (me, false)],
        12 => [(xi.clone(), true), (eta.clone(), true)],
        _ => return None,
    })
}

/// Parameters with their ranges, in the order of `proof.domain`.
pub(crate) type Params = Vec<(String, Range)>;

/// The parameters (with their ranges) and the cone variables of a `proof` table: a cone
/// variable with its own range in `domain` (other than R) is a parameter, its range being
/// part of the paper's domain, which the cone's completing forms would exceed.
pub(crate) fn domain_and_cone(spec: &Proof) -> Result<(Params, Vec<String>), String> {
    let params: Vec<(String, Range)> = match &spec.domain {
        Some(m) => m
            .iter()
            .map(|(k, s)| parse_range(s).map(|r| (k.clone(), r)))
            .collect::<Result<_, String>>()?,
        None => return Err("`proof.domain` must be a table".into()),
    };
    let cone: Vec<String> = spec
        .cone
        .iter()
        .filter(|c| {
            !params
                .iter()
                .any(|(n, r)| n == *c && !matches!(r, Range::Interval(None, None)))
        })
        .cloned()
        .collect();
    let params: Vec<(String, Range)> = params
        .into_iter()
        .filter(|(n, _)| !cone.contains(n))
        .collect();
    Ok((params, cone))
}

/// Replaces the variable `var` (whole identifiers only) by `(repl)` in `src`.
pub fn substitute_text(src: &str, var: &str, repl: &str) -> String {
    let mut out = String::new();
    let cs: Vec<char> = src.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        if cs[i].is_ascii_alphabetic() || cs[i] == '_' {
            let st = i;
            while i < cs.len() && (cs[i].is_ascii_alphanumeric() || cs[i] == '_' || cs[i] == '.') {
                i += 1;
            }
            let id: String = cs[st..i].iter().collect();
            if id == var {
                out.push('(');
                out.push_str(repl);
                out.push(')');
            } else {
                out.push_str(&id);
            }
        } else if cs[i].is_ascii_digit() {
            // a number, including an exponent like 1e-3 (its 'e' is not a variable)
            while i < cs.len()
                && (cs[i].is_ascii_digit()
                    || cs[i] == '.'
                    || ((cs[i] == 'e' || cs[i] == 'E')
                        && i + 1 < cs.len()
                        && (cs[i + 1].is_ascii_digit() || cs[i + 1] == '-')))
            {
                if cs[i] == 'e' || cs[i] == 'E' {
                    out.push(cs[i]);
                    i += 1;
                }
                out.push(cs[i]);
                i += 1;
            }
        } else {
            out.push(cs[i]);
            i += 1;
        }
    }
    out
}
