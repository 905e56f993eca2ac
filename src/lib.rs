//! # impactkit — verifying impact mechanics
//!
//! Impact laws of multibody mechanics (Fassino–Pasquero, Pasquero, Winandy–Leine,
//! Seghete–Murphey, Clark–Bloch), implemented once, generically over the arithmetic
//! ([`arith::Scalar`]): `f64`, exact rationals, exact quadratic fields Q(√d), MPFR floats,
//! and rigorous intervals (`f64` bounds rounded outward, and MPFR-backed at any precision).
//!
//! One law, written once, on four arithmetics: Pasquero's procedure (Sect. 3.5) on a
//! 3-ball Newton's cradle, ball 1 hitting the touching pair at speed 1.
//!
//! ```
//! use impactkit::arith::{Interval, Quadratic, Rational, Scalar};
//! use impactkit::lang::eval_str;
//! use impactkit::system::cradle::run_cradle;
//!
//! fn cradle<S: Scalar>(masses: [&str; 3], cor: &str, ctx: &S::Ctx) -> Vec<S> {
//!     let num = |s: &str| eval_str::<S>(s, ctx).unwrap();
//!     let m: Vec<S> = masses.iter().map(|s| num(s)).collect();
//!     let v0 = vec![num("1"), num("0"), num("0")];
//!     let out = run_cradle(&m, &[num(cor), num(cor)], v0, None, 1000).unwrap();
//!     out.final_velocity().clone()
//! }
//!
//! // equal masses, elastic: the last ball leaves with the speed, exactly
//! let exact = cradle::<Rational>(["1", "1", "1"], "1", &());
//! assert_eq!(exact, cradle::<Rational>(["1", "1", "1"], "1", &()));
//! assert_eq!(exact[2].to_string(), "1", "{exact:?}");
//! // rounded, and a rigorous enclosure of the same run
//! assert!((cradle::<f64>(["1", "1", "1"], "1", &())[2] - 1.0).abs() < 1e-15);
//! let enclosure = cradle::<Interval>(["1", "1", "1"], "1", &());
//! assert!(enclosure[2].lo() <= 1.0 && 1.0 <= enclosure[2].hi());
//! // a coefficient of restitution in Q(√2), exact in that field
//! let q = cradle::<Quadratic>(["1", "2", "3"], "sqrt(2) - 1", &());
//! assert!(q[0].to_string().contains("sqrt(2)"), "{}", q[0]);
//! ```
//!
//! The command-line tool (`src/bin/impactkit`) is a thin layer over this library; the
//! guides are in `docs/` (docs/library.md for the library), and the Python package in
//! `python/` calls it through PyO3.

/// The GMP/MPFR binding whose types appear in the public API (`Rational::as_rug`,
/// `Rational::from_rug`), re-exported so that callers use the same version.
pub use rug;

pub mod arith;
pub mod audit;
pub mod budget;
pub mod certify;
pub mod claims;
pub mod commands;
pub mod figure;
pub mod input;
pub mod lang;
pub mod law;
pub mod linalg;
pub mod output;
pub mod regress;
pub mod report;
pub mod system;

/// The README's Rust examples, run as doctests (so that they stay true).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
