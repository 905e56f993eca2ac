//! Deciding an inequality with `abs` of undecided sign by the two bounds `|x| >= x` and
//! `|x| >= -x`: the triangle inequality `|a + b| <= |a| + |b|` holds though no sign of
//! `a`, `b`, `a + b` is known.
//!
//! Write the relation as `E >= 0` (`E = rhs - lhs` for `<=`, `<`; `lhs - rhs` for `>=`,
//! `>`). Where `E` is increasing in an occurrence of `|x|` (its *polarity* is +1: the
//! factors around it have decided signs), replacing `|x|` by `x` or by `-x` gives a lower
//! bound of `E`, and one choice suffices. Where `E` is decreasing in it (polarity −1),
//! `E(|x|) = min(E(x), E(-x))`, and both choices must hold. So the relation holds if for
//! every choice at the occurrences of polarity −1 there is a choice at those of polarity
//! +1 for which the relation without those `abs` is decided true. Occurrences whose
//! polarity is not known (inside a power, a square root, a denominator, another `abs`, or
//! beside a factor of undecided sign) leave the relation to the ordinary evaluation.

use super::ast::{BinOp, Expr, Func, Node, NodeKind};
use super::error::EvalError;
use super::eval::Env;
use super::relation::{Rel, Relation};
use crate::arith::{Scalar, Sign};

/// At most this many occurrences of `abs` of undecided sign (2^n relations to decide).
pub const MAX_ABS: usize = 5;

/// Where an `abs(x)` node is: its side (0 left, 1 right) and its span there.
pub type At = (u8, (usize, usize));
/// One occurrence of `abs(x)` and its polarity.
pub type Occurrence = (At, i8);

fn has_abs(n: &Node) -> bool {
    match &n.kind {
        NodeKind::Call(Func::Abs, _) => true,
        NodeKind::Num(_) | NodeKind::Pi | NodeKind::Var(_) => false,
        NodeKind::Neg(a) | NodeKind::Call(_, a) => has_abs(a),
        NodeKind::Pow(a, b) => has_abs(a) || has_abs(b),
        NodeKind::Chain(a, rest) => has_abs(a) || rest.iter().any(|(_, x)| has_abs(x)),
    }
}

/// The sign of a sub-expression on the backend (`None` when undecided or not evaluable).
fn sign_of<S: Scalar>(source: &str, n: &Node, env: &Env<S>, ctx: &S::Ctx) -> Option<Sign> {
    let e = Expr {
        source: source.to_string(),
        root: n.clone(),
    };
    let s = e.eval_in(env, ctx).ok()?.sign();
    (s != Sign::Unknown).then_some(s)
}

/// The polarities of the `abs` occurrences of undecided sign under `n` (`pol` is that of
/// `n` itself); `None` where one is not known.
fn walk<S: Scalar>(
    side: u8,
    source: &str,
    n: &Node,
    pol: i8,
    env: &Env<S>,
    ctx: &S::Ctx,
    out: &mut Vec<Occurrence>,
) -> Option<()> {
    if !has_abs(n) {
        return Some(());
    }
    match &n.kind {
        NodeKind::Num(_) | NodeKind::Pi | NodeKind::Var(_) => Some(()),
        NodeKind::Neg(a) => walk(side, source, a, -pol, env, ctx, out),
        NodeKind::Call(Func::Abs, a) => {
            if has_abs(a) {
                return None;
            }
            if sign_of(source, a, env, ctx).is_none() {
                out.push(((side, n.span), pol));
            }
            Some(())
        }
        NodeKind::Call(..) | NodeKind::Pow(..) => None,
        NodeKind::Chain(first, rest) => {
            let ops: Vec<(BinOp, &Node)> = std::iter::once((BinOp::Add, &**first))
                .chain(rest.iter().map(|(op, x)| (*op, x)))
                .collect();
            let additive = rest
                .iter()
                .all(|(op, _)| matches!(op, BinOp::Add | BinOp::Sub));
            if additive {
                for (op, x) in ops {
                    let p = if op == BinOp::Sub { -pol } else { pol };
                    walk(side, source, x, p, env, ctx, out)?;
                }
                return Some(());
            }
            // a product or quotient: one factor with abs, in a numerator, the others of
            // decided sign
            let with: Vec<usize> = (0..ops.len()).filter(|&i| has_abs(ops[i].1)).collect();
            let [i] = with[..] else { return None };
            if ops[i].0 == BinOp::Div {
                return None;
            }
            let mut p = pol;
            for (j, (_, x)) in ops.iter().enumerate() {
                if j != i {
                    match sign_of(source, x, env, ctx)? {
                        Sign::Positive => {}
                        Sign::Negative => p = -p,
                        _ => return None,
                    }
                }
            }
            walk(side, source, ops[i].1, p, env, ctx, out)
        }
    }
}

/// What an occurrence of `abs(x)` becomes.
#[derive(Clone, Debug)]
pub enum AbsBy {
    /// `x` (`true`) or `-x` (`false`).
    Sign(bool),
    /// A variable of that name.
    Var(String),
}

/// `n` with each listed occurrence of `abs(x)` replaced.
fn replace(n: &Node, side: u8, choice: &[(At, AbsBy)]) -> Node {
    let kind = match &n.kind {
        NodeKind::Call(Func::Abs, a) => match choice.iter().find(|(at, _)| *at == (side, n.span)) {
            Some((_, AbsBy::Sign(true))) => return (**a).clone(),
            Some((_, AbsBy::Sign(false))) => NodeKind::Neg(a.clone()),
            Some((_, AbsBy::Var(v))) => NodeKind::Var(v.clone()),
            None => n.kind.clone(),
        },
        NodeKind::Num(_) | NodeKind::Pi | NodeKind::Var(_) => n.kind.clone(),
        NodeKind::Neg(a) => NodeKind::Neg(Box::new(replace(a, side, choice))),
        NodeKind::Call(f, a) => NodeKind::Call(*f, Box::new(replace(a, side, choice))),
        NodeKind::Pow(a, b) => NodeKind::Pow(Box::new(replace(a, side, choice)), b.clone()),
        NodeKind::Chain(a, rest) => NodeKind::Chain(
            Box::new(replace(a, side, choice)),
            rest.iter()
                .map(|(op, x)| (*op, replace(x, side, choice)))
                .collect(),
        ),
    };
    Node { kind, span: n.span }
}

/// The relation with the given occurrences of `abs` replaced (the text keeps the
/// original's).
pub fn chosen(r: &Relation, choice: &[(At, AbsBy)]) -> Relation {
    let side = |e: &Expr, at: u8| Expr {
        source: e.source.clone(),
        root: replace(&e.root, at, choice),
    };
    Relation {
        lhs: side(&r.lhs, 0),
        rhs: side(&r.rhs, 1),
        ..r.clone()
    }
}

/// The choices `abs(x) -> ±x` of the occurrences, all combinations.
pub fn combinations(occ: &[Occurrence]) -> Vec<Vec<(At, AbsBy)>> {
    (0..1usize << occ.len())
        .map(|bits| {
            occ.iter()
                .enumerate()
                .map(|(i, (at, _))| (*at, AbsBy::Sign(bits >> i & 1 == 1)))
                .collect()
        })
        .collect()
}

/// The occurrences of `abs` of undecided sign of an inequality, (polarity +1, −1) in
/// `E >= 0` (see the module); `None` for an equation, where a polarity is not known, or
/// with none or more than [`MAX_ABS`] of them.
pub fn occurrences<S: Scalar>(
    r: &Relation,
    env: &Env<S>,
    ctx: &S::Ctx,
) -> Option<(Vec<Occurrence>, Vec<Occurrence>)> {
    let left: i8 = match r.rel {
        Rel::Le | Rel::Lt => -1,
        Rel::Ge | Rel::Gt => 1,
        Rel::Eq | Rel::Ne => return None,
    };
    let mut occ = Vec::new();
    walk(0, &r.lhs.source, &r.lhs.root, left, env, ctx, &mut occ)?;
    walk(1, &r.rhs.source, &r.rhs.root, -left, env, ctx, &mut occ)?;
    if occ.is_empty() || occ.len() > MAX_ABS {
        return None;
    }
    Some(occ.into_iter().partition(|o| o.1 > 0))
}

/// The argument `x` of the occurrence `abs(x)` at `at`, as an expression.
pub fn argument(r: &Relation, at: At) -> Option<Expr> {
    let e = if at.0 == 0 { &r.lhs } else { &r.rhs };
    fn find(n: &Node, span: (usize, usize)) -> Option<&Node> {
        match &n.kind {
            NodeKind::Call(Func::Abs, a) if n.span == span => Some(a),
            NodeKind::Num(_) | NodeKind::Pi | NodeKind::Var(_) => None,
            NodeKind::Neg(a) | NodeKind::Call(_, a) => find(a, span),
            NodeKind::Pow(a, b) => find(a, span).or_else(|| find(b, span)),
            NodeKind::Chain(a, rest) => {
                find(a, span).or_else(|| rest.iter().find_map(|(_, x)| find(x, span)))
            }
        }
    }
    find(&e.root, at.1).map(|n| Expr {
        source: e.source.clone(),
        root: n.clone(),
    })
}

/// `Some(true)` when the relation is decided true by the bounds `|x| >= ±x` (see the
/// module), `None` when they do not decide it (or the relation has no such `abs`, or too
/// many). Never `Some(false)`: a bound that fails says nothing about the relation.
pub fn decide_by_abs_bounds<S: Scalar>(
    r: &Relation,
    env: &Env<S>,
    ctx: &S::Ctx,
) -> Result<Option<bool>, EvalError> {
    if matches!(r.rel, Rel::Eq | Rel::Ne) {
        return Ok(None);
    }
    if let Some(g) = &r.guard {
        match g.decide_as_guard(env, ctx)? {
            Some(true) => {}
            Some(false) => return Ok(Some(true)),
            None => return Ok(None),
        }
    }
    let Some((up, down)) = occurrences(r, env, ctx) else {
        return Ok(None);
    };
    let unguarded = Relation {
        guard: None,
        ..r.clone()
    };
    for every in combinations(&down) {
        let mut some = false;
        for one in combinations(&up) {
            let mut choice = every.clone();
            choice.extend(one);
            if chosen(&unguarded, &choice).decide(env, ctx)? == Some(true) {
                some = true;
                break;
            }
        }
        if !some {
            return Ok(None);
        }
    }
    Ok(Some(true))
}
