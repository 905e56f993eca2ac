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
type At = (u8, (usize, usize));
/// One occurrence of `abs(x)` and its polarity.
type Occurrence = (At, i8);

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
            let additive = rest.iter().all(|(op, _)| matches!(op, BinOp::Add | BinOp::Sub));
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

/// `n` with each listed occurrence of `abs(x)` replaced by `x` (`true`) or `-x` (`false`).
fn replace(n: &Node, side: u8, choice: &[(At, bool)]) -> Node {
    let kind = match &n.kind {
        NodeKind::Call(Func::Abs, a) => match choice.iter().find(|(at, _)| *at == (side, n.span)) {
            Some((_, true)) => return (**a).clone(),
            Some((_, false)) => NodeKind::Neg(a.clone()),
            None => n.kind.clone(),
        },
        NodeKind::Num(_) | NodeKind::Pi | NodeKind::Var(_) => n.kind.clone(),
        NodeKind::Neg(a) => NodeKind::Neg(Box::new(replace(a, side, choice))),
        NodeKind::Call(f, a) => NodeKind::Call(*f, Box::new(replace(a, side, choice))),
        NodeKind::Pow(a, b) => NodeKind::Pow(Box::new(replace(a, side, choice)), b.clone()),
        NodeKind::Chain(a, rest) => NodeKind::Chain(
            Box::new(replace(a, side, choice)),
            rest.iter().map(|(op, x)| (*op, replace(x, side, choice))).collect(),
        ),
    };
    Node { kind, span: n.span }
}

/// The relation with the given choices (the text keeps the original's).
fn chosen(r: &Relation, choice: &[(At, bool)]) -> Relation {
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
fn combinations(occ: &[Occurrence]) -> Vec<Vec<(At, bool)>> {
    (0..1usize << occ.len())
        .map(|bits| {
            occ.iter()
                .enumerate()
                .map(|(i, (at, _))| (*at, bits >> i & 1 == 1))
                .collect()
        })
        .collect()
}

/// `Some(true)` when the relation is decided true by the bounds `|x| >= ±x` (see the
/// module), `None` when they do not decide it (or the relation has no such `abs`, or too
/// many). Never `Some(false)`: a bound that fails says nothing about the relation.
pub fn decide_by_abs_bounds<S: Scalar>(
    r: &Relation,
    env: &Env<S>,
    ctx: &S::Ctx,
) -> Result<Option<bool>, EvalError> {
    // the polarity of the left side in E
    let left: i8 = match r.rel {
        Rel::Le | Rel::Lt => -1,
        Rel::Ge | Rel::Gt => 1,
        Rel::Eq | Rel::Ne => return Ok(None),
    };
    if let Some(g) = &r.guard {
        match g.decide(env, ctx)? {
            Some(true) => {}
            Some(false) => return Ok(Some(true)),
            None => return Ok(None),
        }
    }
    let mut occ = Vec::new();
    let walked = walk(0, &r.lhs.source, &r.lhs.root, left, env, ctx, &mut occ)
        .and_then(|_| walk(1, &r.rhs.source, &r.rhs.root, -left, env, ctx, &mut occ));
    if walked.is_none() || occ.is_empty() || occ.len() > MAX_ABS {
        return Ok(None);
    }
    let (up, down): (Vec<Occurrence>, Vec<Occurrence>) = occ.into_iter().partition(|o| o.1 > 0);
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
