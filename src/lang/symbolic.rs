//! The language on the symbolic backend: every variable is a [`Symbolic`] variable, so an
//! expression evaluates to its rational function (`(1-e)*k/(1+k^2)`).

use super::error::{EvalError, ParseError};
use super::eval::Env;
use crate::arith::symbolic::{identical_under, IdentityOutcome, Symbolic};

/// Parses `src` with variables and evaluates it on [`Symbolic`], each variable standing
/// for itself. `pi` is refused: it is never a rational function.
pub fn parse_symbolic(src: &str) -> Result<Symbolic, EvalError> {
    let e = super::parse_with_variables(src)?;
    if let Some((at, _)) = e.find_pi() {
        return Err(ParseError::new("pi is not a rational function", at, src).into());
    }
    let mut names = Vec::new();
    e.vars(&mut names);
    let env: Env<Symbolic> = names
        .into_iter()
        .map(|v| {
            let x = Symbolic::var(&v);
            (v, x)
        })
        .collect();
    e.eval_in(&env, &())
}

/// A side of an identity that did not parse or evaluate.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{side}: {error}")]
pub struct IdentityError {
    /// `left side`, `right side` or `substitution x = …`.
    pub side: String,
    pub error: EvalError,
}

/// `lhs` and `rhs` agree as rational functions after the substitutions, applied in order
/// (`("c", "(1-t^2)/(1+t^2)")`, `("s", "2*t/(1+t^2)")` for c²+s²=1); see
/// [`identical_under`].
pub fn identical(
    lhs: &str,
    rhs: &str,
    substitutions: &[(String, String)],
) -> Result<IdentityOutcome, IdentityError> {
    let side = |name: String| move |error| IdentityError { side: name, error };
    let a = parse_symbolic(lhs).map_err(side("left side".into()))?;
    let b = parse_symbolic(rhs).map_err(side("right side".into()))?;
    let mut subs = Vec::new();
    for (var, by) in substitutions {
        let what = format!(
            "substitution {} = {}",
            super::error::clip(var),
            super::error::clip(by)
        );
        let e = parse_symbolic(by).map_err(side(what))?;
        subs.push((var.clone(), by.clone(), e));
    }
    Ok(identical_under(a, b, &subs))
}
