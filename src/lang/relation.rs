//! Relations `lhs REL rhs` between two expressions with variables, decided on any backend
//! through the sign of `lhs - rhs`.

use super::ast::Expr;
use super::error::{EvalError, ParseError};
use super::eval::{Env, Sqrt};
use crate::arith::{Scalar, Sign};

/// A comparison operator of a relation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Rel {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            Rel::Lt => "<",
            Rel::Le => "<=",
            Rel::Gt => ">",
            Rel::Ge => ">=",
            Rel::Eq => "==",
            Rel::Ne => "!=",
        }
    }
    /// Whether a difference `lhs - rhs` of the given (decided) sign satisfies the relation.
    pub fn holds(self, s: Sign) -> bool {
        match self {
            Rel::Lt => s == Sign::Negative,
            Rel::Le => s != Sign::Positive,
            Rel::Gt => s == Sign::Positive,
            Rel::Ge => s != Sign::Negative,
            Rel::Eq => s == Sign::Zero,
            Rel::Ne => s != Sign::Zero,
        }
    }
}

/// `lhs REL rhs`, e.g. `x1^2 + y1^2 == x^2 + y^2`, or a guarded relation
/// `guard => lhs REL rhs` (e.g. `zone1 != 0 => r1 >= r`): true where the guard is false,
/// and only there is `lhs REL rhs` not evaluated.
#[derive(Clone, Debug, PartialEq)]
pub struct Relation {
    /// The relation as written (trimmed), the guard included.
    pub text: String,
    pub lhs: Expr,
    pub rel: Rel,
    pub rhs: Expr,
    /// The guard of `guard => lhs REL rhs`.
    pub guard: Option<Box<Relation>>,
}

/// Parses a relation `lhs REL rhs`: exactly one comparison `< <= > >= == !=` between two
/// expressions with variables; or `guard => lhs REL rhs`, two such relations.
pub fn parse_relation(src: &str) -> Result<Relation, ParseError> {
    if let Some(at) = src.find("=>") {
        let mut body = parse_relation(&src[at + 2..])?;
        // `A => B => C` is `(A and B) => C`: the guard A, with the body's own guard B
        // chained to it (a guard holds where every relation of its chain holds)
        let mut guard = parse_relation(&src[..at])?;
        guard.guard = body.guard.take();
        body.guard = Some(Box::new(guard));
        body.text = src.trim().to_string();
        return Ok(body);
    }
    let (start, end, rel) = super::parse::relation_operator(src)?;
    Ok(Relation {
        text: src.trim().to_string(),
        lhs: super::parse_with_variables(&src[..start])?,
        rel,
        rhs: super::parse_with_variables(&src[end..])?,
        guard: None,
    })
}

impl Relation {
    /// The sign of `lhs - rhs` on a backend (of the guarded relation, without its guard).
    pub fn sign<S: Scalar>(&self, env: &Env<S>, ctx: &S::Ctx) -> Result<Sign, EvalError> {
        self.sign_with(env, ctx, &S::sqrt)
    }
    /// [`Relation::sign`] with a given square root (see [`Expr::eval_with`]).
    pub fn sign_with<S: Scalar>(
        &self,
        env: &Env<S>,
        ctx: &S::Ctx,
        sqrt: Sqrt<'_, S>,
    ) -> Result<Sign, EvalError> {
        let l = self.lhs.eval_with(env, ctx, sqrt)?;
        let r = self.rhs.eval_with(env, ctx, sqrt)?;
        Ok((l - &r).sign())
    }
    /// This relation as a guard: `Some(true)` where it and every relation of its guard
    /// chain hold (`A => B => C` has the guard A with B chained: A and B), `Some(false)`
    /// where one of them is false, else `None`.
    pub fn decide_as_guard<S: Scalar>(
        &self,
        env: &Env<S>,
        ctx: &S::Ctx,
    ) -> Result<Option<bool>, EvalError> {
        self.decide_as_guard_with(env, ctx, &S::sqrt)
    }
    /// [`Relation::decide_as_guard`] with a given square root.
    pub fn decide_as_guard_with<S: Scalar>(
        &self,
        env: &Env<S>,
        ctx: &S::Ctx,
        sqrt: Sqrt<'_, S>,
    ) -> Result<Option<bool>, EvalError> {
        let s = self.sign_with(env, ctx, sqrt)?;
        let here = (s != Sign::Unknown).then(|| self.rel.holds(s));
        if here == Some(false) {
            return Ok(Some(false));
        }
        let rest = match &self.guard {
            Some(g) => g.decide_as_guard_with(env, ctx, sqrt)?,
            None => Some(true),
        };
        Ok(match (here, rest) {
            (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        })
    }
    /// `Some(true/false)` when decided, `None` when the sign is unknown (enclosures).
    pub fn decide<S: Scalar>(&self, env: &Env<S>, ctx: &S::Ctx) -> Result<Option<bool>, EvalError> {
        self.decide_with(env, ctx, &S::sqrt)
    }
    /// [`Relation::decide`] with a given square root.
    pub fn decide_with<S: Scalar>(
        &self,
        env: &Env<S>,
        ctx: &S::Ctx,
        sqrt: Sqrt<'_, S>,
    ) -> Result<Option<bool>, EvalError> {
        if let Some(g) = &self.guard {
            match g.decide_as_guard_with(env, ctx, sqrt)? {
                Some(true) => {}
                Some(false) => return Ok(Some(true)),
                None => return Ok(None),
            }
        }
        let s = self.sign_with(env, ctx, sqrt)?;
        Ok((s != Sign::Unknown).then(|| self.rel.holds(s)))
    }
    /// The variables both sides (and the guard) use, appended to `out` in order of first
    /// use.
    pub fn vars(&self, out: &mut Vec<String>) {
        if let Some(g) = &self.guard {
            g.vars(out);
        }
        self.lhs.vars(out);
        self.rhs.vars(out);
    }
}
