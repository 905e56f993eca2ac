//! Expressions and relations of the input language written as Coq terms over `R` (the
//! Reals of Coq's standard library): the statement a referee reads next to the claim file.

use crate::lang::{self, BinOp, Expr, Func, Node, NodeKind, Rel, Relation};
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive};

/// Names a claim may use that Coq or the law files already give a meaning (a bound
/// variable named `R` would hide the type of the reals): they get a prime, `R'`.
const TAKEN: [&str; 88] = [
    "R",
    "pq_rule10",
    "pq_rule10_in",
    "pq_ideal",
    "pq_symmetric",
    "pq_asymmetric",
    "pq_after",
    "pq_impulse",
    "pq_impacts",
    "fp_beta",
    "fp_h1",
    "fp_h2",
    "S",
    "O",
    "Z",
    "pi",
    "sqrt",
    "sin",
    "cos",
    "tan",
    "atan",
    "Rabs",
    "fst",
    "snd",
    "zone",
    "Z0",
    "Z1",
    "Z2",
    "Z12",
    "zone_of",
    "zone_code",
    "xi_of",
    "eta_of",
    "tr_id",
    "tr_nid",
    "tr_id_in",
    "tr_nid_in",
    "v1_perp",
    "v2_perp",
    "goes_on_code",
    "multi_code",
    "tr_nid_xe_in",
    "xy_of_xe",
    "tr_nid_xe_in_xy",
    "beta_of",
    "sm_c1",
    "sm_c2",
    "sm_c3",
    "sm_inner",
    "sm_reflect",
    "sm_feasible1",
    "sm_feasible2",
    "sm_feasible3",
    "sm_plastic1",
    "sm_plastic2",
    "sm_plastic_a",
    "sm_plastic_b",
    "sm_plastic_det",
    "wl_law",
    "wl_in",
    "wl_apply",
    "wl_cone_of",
    "wl_cone",
    "wl_newton",
    "wl_poisson",
    "wl_after",
    "wl_lcp",
    "wl_impulse",
    "wl_norm2",
    "wl_g11",
    "wl_g12",
    "wl_g22",
    "CI",
    "CIIa",
    "CIIb",
    "CIII",
    "CIVa",
    "CIVb",
    "let",
    "in",
    "fun",
    "forall",
    "exists",
    "match",
    "with",
    "end",
    "if",
    "then",
];

/// A variable's name in the Coq statement: itself, or with a prime where Coq's name is
/// taken.
pub(crate) fn name(v: &str) -> String {
    if TAKEN.contains(&v) || v == "else" || v == "Prop" || v == "Type" || v == "Set" {
        format!("{v}'")
    } else {
        v.to_string()
    }
}

/// A rational number as a Coq real: `3`, `(-3)`, `(1/2)`, `(-1/2)`.
pub(crate) fn number(q: &BigRational) -> String {
    let (n, d) = (q.numer(), q.denom());
    let body = if d == &1.into() {
        n.abs().to_string()
    } else {
        format!("{}/{}", n.abs(), d)
    };
    if q.is_negative() {
        format!("(-{body})")
    } else if d == &1.into() {
        body
    } else {
        format!("({body})")
    }
}

/// The Coq term of an expression.
pub(crate) fn expr(e: &Expr) -> Result<String, String> {
    node(&e.root).map_err(|why| format!("`{}`: {why}", e.source))
}

/// The Coq term of an expression's source text.
pub(crate) fn source(s: &str) -> Result<String, String> {
    expr(&lang::parse_with_variables(s).map_err(|e| format!("`{s}`: {e}"))?)
}

fn node(n: &Node) -> Result<String, String> {
    Ok(match &n.kind {
        NodeKind::Num(q) => number(q),
        NodeKind::Pi => "PI".into(),
        NodeKind::Var(v) => name(v),
        NodeKind::Neg(a) => format!("(- {})", node(a)?),
        NodeKind::Chain(a, rest) => {
            let mut s = node(a)?;
            for (op, b) in rest {
                let o = match op {
                    BinOp::Add => "+",
                    BinOp::Sub => "-",
                    BinOp::Mul => "*",
                    BinOp::Div => "/",
                    BinOp::Pow => "^",
                };
                s = format!("{s} {o} {}", node(b)?);
            }
            format!("({s})")
        }
        NodeKind::Pow(b, e) => {
            let k = match &e.kind {
                NodeKind::Num(q) if q.is_integer() => q.to_integer(),
                NodeKind::Neg(inner) => match &inner.kind {
                    NodeKind::Num(q) if q.is_integer() => -q.to_integer(),
                    _ => return Err("a power with an exponent that is not an integer".into()),
                },
                _ => return Err("a power with an exponent that is not an integer".into()),
            };
            let m = k
                .abs()
                .to_u32()
                .filter(|m| *m <= 64)
                .ok_or("a power with an exponent beyond 64")?;
            if k.is_negative() {
                format!("(/ {} ^ {m})", node(b)?)
            } else {
                format!("({} ^ {m})", node(b)?)
            }
        }
        NodeKind::Call(f, a) => {
            let f = match f {
                Func::Abs => "Rabs",
                Func::Sqrt => "sqrt",
                Func::Sin => "sin",
                Func::Cos => "cos",
                Func::Tan => "tan",
                Func::Atan => "atan",
                Func::Root(_) => return Err("root(x, k) has no Coq counterpart here".into()),
            };
            format!("({f} {})", node(a)?)
        }
    })
}

/// The divisors of an expression that are not constants (each a Coq term): where one is
/// zero the expression is undefined in the input language, while Coq's division is total.
pub(crate) fn divisors(e: &Expr, out: &mut Vec<String>) -> Result<(), String> {
    walk_divisors(&e.root, out)
}

fn walk_divisors(n: &Node, out: &mut Vec<String>) -> Result<(), String> {
    match &n.kind {
        NodeKind::Num(_) | NodeKind::Pi | NodeKind::Var(_) => {}
        NodeKind::Neg(a) | NodeKind::Call(_, a) => walk_divisors(a, out)?,
        NodeKind::Pow(b, e) => {
            walk_divisors(b, out)?;
            if matches!(e.kind, NodeKind::Neg(_)) && !is_constant(b) {
                push(out, node(b)?);
            }
        }
        NodeKind::Chain(a, rest) => {
            walk_divisors(a, out)?;
            for (op, b) in rest {
                walk_divisors(b, out)?;
                if *op == BinOp::Div && !is_constant(b) {
                    push(out, node(b)?);
                }
            }
        }
    }
    Ok(())
}

fn push(out: &mut Vec<String>, t: String) {
    if !out.contains(&t) {
        out.push(t);
    }
}

/// Whether a node is a number (no variable; π counts as a variable, being no rational).
fn is_constant(n: &Node) -> bool {
    match &n.kind {
        NodeKind::Num(_) => true,
        NodeKind::Pi | NodeKind::Var(_) => false,
        NodeKind::Neg(a) | NodeKind::Call(_, a) => is_constant(a),
        NodeKind::Pow(a, b) => is_constant(a) && is_constant(b),
        NodeKind::Chain(a, rest) => is_constant(a) && rest.iter().all(|(_, b)| is_constant(b)),
    }
}

/// The Coq proposition of a relation (`g => r` as an implication).
pub(crate) fn relation(r: &Relation) -> Result<String, String> {
    let op = match r.rel {
        Rel::Lt => "<",
        Rel::Le => "<=",
        Rel::Gt => ">",
        Rel::Ge => ">=",
        Rel::Eq => "=",
        Rel::Ne => "<>",
    };
    let body = format!("{} {op} {}", expr(&r.lhs)?, expr(&r.rhs)?);
    Ok(match &r.guard {
        Some(g) => format!("({} -> {body})", relation(g)?),
        None => body,
    })
}

/// The divisors of a relation (both sides and its guard).
pub(crate) fn relation_divisors(r: &Relation, out: &mut Vec<String>) -> Result<(), String> {
    divisors(&r.lhs, out)?;
    divisors(&r.rhs, out)?;
    if let Some(g) = &r.guard {
        relation_divisors(g, out)?;
    }
    Ok(())
}

/// A Coq identifier for a claim id: `fp-3bc-improper` → `fp_3bc_improper`.
pub(crate) fn ident(id: &str) -> String {
    let mut s: String = id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic()) {
        s.insert_str(0, "claim_");
    }
    s
}

/// `t` with each identifier `from` of `map` replaced by its `to` (whole identifiers only:
/// letters, digits, `_` and `'`).
pub(crate) fn rename(t: &str, map: &[(String, String)]) -> String {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '\'';
    let mut out = String::with_capacity(t.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match map.iter().find(|(from, _)| from == word) {
            Some((_, to)) => out.push_str(to),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in t.chars() {
        if is_ident(c) {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}
