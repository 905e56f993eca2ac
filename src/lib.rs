//! # impactkit — verifying impact mechanics
//!
//! Impact laws of multibody mechanics (Fassino–Pasquero, Pasquero, Winandy–Leine,
//! Seghete–Murphey, Clark–Bloch), implemented once, generically over the arithmetic
//! ([`arith::Scalar`]): `f64`, exact rationals, exact quadratic fields Q(√d), MPFR floats,
//! and rigorous intervals (`f64` bounds rounded outward, and MPFR-backed at any precision).

pub mod arith;
pub mod audit;
pub mod budget;
pub mod certify;
pub mod claims;
pub mod input;
pub mod lang;
pub mod law;
pub mod linalg;
pub mod regress;
pub mod report;
pub mod system;
