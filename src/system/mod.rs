//! Concrete systems built from the laws, with their drivers.

pub mod billiard;
pub mod billiard_spec;
pub mod compare;
pub mod corner;
pub mod corner_spec;
pub mod cradle;
pub mod propagate;
pub mod rods;
pub mod sequential;
