//! The precision ladder of `--arith certified`, as data, and one function that climbs it.
//!
//! A certified run tries, in order, 53-bit intervals (`f64` bounds), MPFR intervals at 106 bits
//! and doubling precision up to `max_bits`, then exact rationals, then exact Q(√d), then
//! one exact real number field Q(θ) (the `algebraic` backend) — Ziv's
//! strategy, as Arb's documentation describes it: retry at higher precision until every
//! branch decision is certified. The first rung whose run decides every sign is the
//! result; a rung whose backend cannot represent the inputs (`sqrt(2)` in `exact`) is
//! skipped. Every attempt is reported.

use crate::arith::backend::Backend;
use serde::Serialize;

/// Smallest `--max-bits` of a certified run.
pub const MIN_MAX_BITS: u32 = 106;
/// Largest `--max-bits` of a certified run.
pub const MAX_MAX_BITS: u32 = 1 << 16;
/// Default `--max-bits`.
pub const DEFAULT_MAX_BITS: u32 = 3392;

/// What `--arith` asks for: one backend, or the certified ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    Backend(Backend),
    Certified { max_bits: u32 },
}

impl Arith {
    /// `--arith` with `--max-bits` (used by `certified` only).
    pub fn parse(s: &str, max_bits: u32) -> Result<Arith, String> {
        if s == "certified" {
            if !(MIN_MAX_BITS..=MAX_MAX_BITS).contains(&max_bits) {
                return Err(format!(
                    "--max-bits: must be between {MIN_MAX_BITS} and {MAX_MAX_BITS}"
                ));
            }
            return Ok(Arith::Certified { max_bits });
        }
        s.parse::<Backend>()
            .map(Arith::Backend)
            .map_err(|e| format!("--arith: {}", e.replace(')', ", or certified)")))
    }
}

impl std::fmt::Display for Arith {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Arith::Backend(b) => write!(f, "{b}"),
            Arith::Certified { .. } => write!(f, "certified"),
        }
    }
}

/// The backends a certified run tries, in order.
///
/// # Example
///
/// ```
/// use impactkit::arith::backend::Backend;
/// use impactkit::certify::ladder;
/// let rungs = ladder(256);
/// assert_eq!(rungs[0], Backend::Interval);
/// assert!(rungs.contains(&Backend::Exact) && rungs.contains(&Backend::Algebraic));
/// ```
pub fn ladder(max_bits: u32) -> Vec<Backend> {
    let mut out = vec![Backend::Interval];
    let mut bits = MIN_MAX_BITS;
    while bits <= max_bits {
        out.push(Backend::MpInterval(bits));
        bits *= 2;
    }
    out.push(Backend::Exact);
    out.push(Backend::Quadratic);
    out.push(Backend::Algebraic);
    out
}

/// What one rung gave.
pub enum Rung<T> {
    /// Every sign was decided: the certified result.
    Decided(T),
    /// Some sign could not be decided (the reason, and the partial result).
    Undecided(T, String),
    /// The backend cannot represent the inputs (the reason).
    Unrepresentable(String),
}

/// One attempt of a certified run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Attempt {
    /// The backend tried.
    pub arith: String,
    /// Why it did not certify: `undecided: …` or `skipped: …`.
    pub outcome: String,
}

/// The result of a certified run: the first decided result (or the last partial one),
/// which rung decided it (`None`: none did), and every attempt before it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Certified<T> {
    pub result: Option<T>,
    pub certified_by: Option<String>,
    pub attempts: Vec<Attempt>,
}

/// Climbs the ladder: `run(backend)` on every rung until one decides.
pub fn certify<T, E>(
    max_bits: u32,
    mut run: impl FnMut(Backend) -> Result<Rung<T>, E>,
) -> Result<Certified<T>, E> {
    let mut attempts = Vec::new();
    let mut last = None;
    for b in ladder(max_bits) {
        match run(b)? {
            Rung::Decided(t) => {
                return Ok(Certified {
                    result: Some(t),
                    certified_by: Some(b.to_string()),
                    attempts,
                })
            }
            Rung::Undecided(t, why) => {
                attempts.push(Attempt {
                    arith: b.to_string(),
                    outcome: format!("undecided: {why}"),
                });
                last = Some(t);
            }
            Rung::Unrepresentable(why) => attempts.push(Attempt {
                arith: b.to_string(),
                outcome: format!("skipped: {why}"),
            }),
        }
    }
    Ok(Certified {
        result: last,
        certified_by: None,
        attempts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ladder_doubles_then_goes_exact() {
        let names: Vec<String> = ladder(500).iter().map(|b| b.to_string()).collect();
        assert_eq!(
            names,
            [
                "interval",
                "mpi:106",
                "mpi:212",
                "mpi:424",
                "exact",
                "quadratic",
                "algebraic"
            ]
        );
    }

    #[test]
    fn first_decided_rung_wins_and_attempts_are_kept() {
        let c = certify(212, |b| -> Result<Rung<u32>, ()> {
            Ok(match b {
                Backend::Interval => Rung::Undecided(1, "sign of x".into()),
                Backend::MpInterval(106) => Rung::Unrepresentable("no".into()),
                Backend::MpInterval(_) => Rung::Decided(3),
                _ => Rung::Decided(4),
            })
        })
        .unwrap();
        assert_eq!(c.result, Some(3));
        assert_eq!(c.certified_by.as_deref(), Some("mpi:212"));
        assert_eq!(c.attempts.len(), 2);
        let none = certify(106, |_| -> Result<Rung<u32>, ()> {
            Ok(Rung::Undecided(7, "x".into()))
        })
        .unwrap();
        assert_eq!((none.result, none.certified_by), (Some(7), None));
    }
}
