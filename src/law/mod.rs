//! Impact laws: pure maps from a pre-impact state to a post-impact state, written once
//! against [`crate::arith::Scalar`].
//!
//! Every law is a piecewise map: a *zone* decided through `sign()`, then that zone's
//! update formula. When an enclosure cannot decide a sign the law answers
//! [`LawError::Undecided`] instead of guessing.

pub mod characterization;
pub mod corner;
pub mod lzb;
pub mod lzb_limit;
pub mod newton;
pub mod nonholonomic;
pub mod propagative;
pub mod sequential;
pub mod variational;

use crate::arith::{ArithError, Scalar, Sign, Undecided};
use crate::linalg::LinalgError;
use std::fmt;

/// Why a law step could not be carried out.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LawError {
    /// A branch depends on the sign of `quantity`, and its enclosure contains 0.
    #[error("the sign of {quantity} is undecided: it lies in [{lo}, {hi}]")]
    Undecided {
        quantity: String,
        lo: String,
        hi: String,
    },
    #[error(transparent)]
    Arith(#[from] ArithError),
    /// The input is outside the law's domain (e.g. a non-positive k = tan α).
    #[error("{0}")]
    Domain(String),
}

/// The decided sign of `x`, or `Undecided` naming the quantity ([`crate::arith::decide`]).
#[inline]
pub fn decide<S: Scalar>(x: &S, quantity: &str) -> Result<Sign, LawError> {
    Ok(crate::arith::decide(x, quantity)?)
}

impl From<Undecided> for LawError {
    fn from(u: Undecided) -> Self {
        LawError::Undecided {
            quantity: u.quantity,
            lo: u.lo,
            hi: u.hi,
        }
    }
}

impl From<LinalgError> for LawError {
    fn from(e: LinalgError) -> Self {
        match e {
            LinalgError::Undecided(u) => u.into(),
            LinalgError::Arith(a) => LawError::Arith(a),
            LinalgError::Domain(d) => LawError::Domain(d),
        }
    }
}

/// `num / den` for a denominator that must not vanish: a decided zero is a
/// [`LawError::Domain`] error with `zero_msg`; an enclosure that contains 0 is
/// [`LawError::Undecided`] (naming `quantity`). A value whose sign the backend cannot
/// decide but which it can divide by — a nonzero rational function of the symbolic
/// backend, whose zone is fixed by hypothesis — is divided as is.
pub fn divide_nonzero<S: Scalar>(
    num: &S,
    den: &S,
    quantity: &str,
    zero_msg: &str,
) -> Result<S, LawError> {
    match den.sign() {
        Sign::Zero => Err(LawError::Domain(zero_msg.to_string())),
        Sign::Unknown => match num.checked_div(den) {
            Ok(q) => Ok(q),
            Err(_) => decide(den, quantity).and(Err(LawError::Domain(zero_msg.to_string()))),
        },
        _ => Ok(num.checked_div(den)?),
    }
}

/// `x > 0`, decided.
#[inline]
pub fn positive<S: Scalar>(x: &S, quantity: &str) -> Result<bool, LawError> {
    Ok(decide(x, quantity)? == Sign::Positive)
}

/// A two-component velocity.
#[derive(Clone, Debug, PartialEq)]
pub struct V2<S> {
    pub x: S,
    pub y: S,
}

impl<S: Scalar> V2<S> {
    /// `(x, y)`.
    pub fn new(x: S, y: S) -> Self {
        V2 { x, y }
    }
    /// Squared Euclidean norm `x² + y²`.
    pub fn norm2(&self) -> S {
        self.x.square() + self.y.square()
    }
}

impl<S: fmt::Display> fmt::Display for V2<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}
