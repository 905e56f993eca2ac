//! The input language: every number a user gives impactkit (`--alpha "pi/4"`,
//! `--eps 0.9`, `--v0 "1/sqrt(2),1/sqrt(2)"`), every closed form handed to the symbolic
//! backend (`(1-e)*k/(1+k^2)`) and every expression or relation of a claim file
//! (`x1^2 + y1^2 == x^2 + y^2`) is read by the one parser of this module, into one syntax
//! tree, under one set of [limits](LIMITS), and evaluated on any backend.
//!
//! # Grammar
//!
//! Usual precedence; `^` binds tighter than unary minus and is right associative, so
//! `-2^2 = -4` and `2^-1 = 1/2`:
//!
//! ```text
//! relation := expr rel expr           exactly one comparison (claims: `holds`, `assume`)
//! rel      := '<' | '<=' | '>' | '>=' | '==' | '!='
//! expr     := term (('+' | '-') term)*
//! term     := unary (('*' | '/') unary)*
//! unary    := ('-' | '+') unary | power
//! power    := atom ('^' unary)?       exponent: an exact integer, |n| <= 100000
//! atom     := number | 'pi' | func '(' expr ')' | '(' expr ')' | variable
//! func     := sqrt | sin | cos | tan | atan | abs
//! variable := (letter | '_') (letter | digit | '_')*     not pi nor a function name
//! number   := digits ['.' digits] [('e'|'E') ['+'|'-'] digits]     e.g. 0.9, 4.5e-16
//! ```
//!
//! Variables exist only where the caller asks for them ([`parse_with_variables`],
//! [`parse_relation`], [`parse_symbolic`]); the command-line language ([`parse`],
//! [`eval_str`]) has none, and an unknown name is a syntax error there. A variable takes
//! its value from an environment ([`Env`], [`Expr::eval_in`]); on the symbolic backend
//! each variable is itself ([`parse_symbolic`]). A relation is decided through the sign
//! of `lhs - rhs` ([`Relation::decide`]): `Some(true)`/`Some(false)` when the backend
//! decides it, `None` when an enclosure straddles 0.
//!
//! # Evaluation
//!
//! Numbers are read exactly (`0.9` = 9/10, `4.5e-16` = 45/10¹⁷) and handed to the backend
//! once, through [`crate::arith::Scalar::from_rational`]; the
//! operations are then the backend's own. Each backend evaluates an expression as well as
//! it can:
//! * **rounded** backends (`f64`, `mpfr:BITS`) compute like a floating-point program:
//!   `pi` is the nearest float, `tan(pi/6)` is the backend's tan of that;
//! * **exact** backends track rational multiples of π, so `sin`, `cos`, `tan` of `q·pi`
//!   are exact where the value is rational or quadratic (the table of
//!   [`trig_of_pi_multiple`]; e.g. `tan(pi/12) = 2-sqrt(3)`, `cos(pi/5) = (1+sqrt(5))/4`),
//!   `atan` of a table value is the matching multiple of π, and anything else
//!   (`tan(pi/16)`, `sin(1)`, a bare `pi`) is an error that names the value;
//! * **enclosure** backends use the same exact table where it applies (so `tan(pi/4)` is
//!   the point interval [1, 1]) and otherwise rigorous enclosures of the transcendental
//!   functions.
//!
//! `abs(x)` is `-x` or `x` where the sign of `x` is decided (exact and rounded backends)
//! and `sqrt(x^2)` otherwise (always on enclosures).
//!
//! # Limits and errors
//!
//! [`LIMITS`]: at most 1,000,000 bytes, 100,000 tokens, nesting depth 200, exponents of
//! magnitude at most 100,000 (in `x^n` and in `1e-n`). A syntax error or an input over a
//! limit is a [`ParseError`] (position and reason); an evaluation error is an
//! [`EvalError`] naming the sub-expression. Messages are one line and echo at most 40
//! characters of the input.

mod abs_bounds;
mod ast;
mod error;
mod eval;
mod limits;
mod parse;
mod pi_linear;
mod relation;
mod symbolic;
pub mod tape;
mod trig;

pub use abs_bounds::{
    argument, chosen, combinations, decide_by_abs_bounds, occurrences, AbsBy, At, Occurrence,
    MAX_ABS,
};
pub use ast::{BinOp, Expr, Func, Node, NodeKind, MAX_ROOT_INDEX};
pub use error::{clip, EvalError, ParseError, ECHO};
pub use eval::{Env, Sqrt};
pub use limits::{Limits, LIMITS, MAX_DEPTH, MAX_EXPONENT};
pub use parse::{parse, parse_with_variables, split_list};
pub use pi_linear::{format_pi_linear, pi_linear, PiLinear};
pub use relation::{parse_relation, Rel, Relation};
pub use symbolic::{identical, parse_symbolic, IdentityError};
pub use trig::{trig_of_pi_multiple, QuadValue, TrigExact};

use crate::arith::Scalar;
use num_rational::BigRational;
use num_traits::One;

/// Parses and evaluates `src` (no variables) in the backend `S`.
///
/// # Example
///
/// ```
/// use impactkit::arith::Rational;
/// use impactkit::lang::eval_str;
/// assert_eq!(eval_str::<Rational>("(1 + 1/2)^2", &()).unwrap().to_string(), "9/4");
/// let e = eval_str::<Rational>("sqrt(2)", &()).unwrap_err();
/// assert!(e.to_string().contains("irrational"), "{e}");
/// assert!(eval_str::<Rational>("1/(1 - 1)", &()).is_err());
/// ```
pub fn eval_str<S: Scalar>(src: &str, ctx: &S::Ctx) -> Result<S, EvalError> {
    parse(src)?.eval(ctx)
}

/// The byte span of the comparison operator of a relation `lhs REL rhs` (no guard).
pub fn relation_span(src: &str) -> Option<(usize, usize)> {
    parse::relation_operator(src).ok().map(|(a, b, _)| (a, b))
}

/// The exact rational value of `src` ("1/3", "0.9", "-2^2", "tan(pi/4)"); a variable or
/// an irrational value is an error.
pub fn rational(src: &str) -> Result<BigRational, EvalError> {
    let e = parse_with_variables(src)?;
    let r = e.eval::<crate::arith::Rational>(&())?;
    Ok(r.to_big())
}

/// Renders an exact rational in the input language ("-29/28", "3").
pub fn show(q: &BigRational) -> String {
    if q.denom().is_one() {
        q.numer().to_string()
    } else {
        format!("{}/{}", q.numer(), q.denom())
    }
}

#[cfg(test)]
mod tests;
