//! Concrete systems built from the laws, with their drivers.

pub mod corner;
pub mod corner_spec;
pub mod cradle;
pub mod propagate;
pub mod rods;
pub mod sequential;
