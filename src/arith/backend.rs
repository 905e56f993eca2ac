//! Choosing a backend at run time (`--arith`), and running generic code on it.

use super::{Algebraic, Interval, MpInterval, Mpfr, Quadratic, Rational, Scalar};
use std::fmt;
use std::str::FromStr;

/// Smallest precision accepted for `mpfr:BITS` and `mpi:BITS`.
pub const MIN_BITS: u32 = 2;
/// Largest precision accepted for `mpfr:BITS` and `mpi:BITS`.
pub const MAX_BITS: u32 = 1 << 16;

/// The backends of `--arith`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
///
/// # Example
///
/// ```
/// use impactkit::arith::backend::Backend;
/// let b: Backend = "mpi:200".parse().unwrap();
/// assert_eq!(b.to_string(), "mpi:200");
/// assert!("f65".parse::<Backend>().is_err());
/// ```
pub enum Backend {
    F64,
    Exact,
    Quadratic,
    Algebraic,
    Mpfr(u32),
    Interval,
    MpInterval(u32),
}

impl Backend {
    /// Runs generic code on this backend.
    pub fn run<R: RunScalar>(self, job: R) -> R::Out {
        match self {
            Backend::F64 => job.run::<f64>(&()),
            Backend::Exact => job.run::<Rational>(&()),
            Backend::Quadratic => job.run::<Quadratic>(&()),
            Backend::Algebraic => job.run::<Algebraic>(&()),
            Backend::Mpfr(p) => job.run::<Mpfr>(&p),
            Backend::Interval => job.run::<Interval>(&()),
            Backend::MpInterval(p) => job.run::<MpInterval>(&p),
        }
    }
}

/// Generic code that can run on any backend (see [`Backend::run`]).
pub trait RunScalar {
    type Out;
    fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out;
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Backend::F64 => write!(f, "f64"),
            Backend::Exact => write!(f, "exact"),
            Backend::Quadratic => write!(f, "quadratic"),
            Backend::Algebraic => write!(f, "algebraic"),
            Backend::Mpfr(p) => write!(f, "mpfr:{p}"),
            Backend::Interval => write!(f, "interval"),
            Backend::MpInterval(p) => write!(f, "mpi:{p}"),
        }
    }
}

const EXPECTED: &str = "expected f64, exact, quadratic, algebraic, mpfr:BITS, interval or mpi:BITS";

fn bits(s: &str, name: &str) -> Result<u32, String> {
    let b: u32 = s
        .parse()
        .map_err(|_| format!("'{name}:{s}': BITS must be a whole number of bits"))?;
    if !(MIN_BITS..=MAX_BITS).contains(&b) {
        return Err(format!(
            "'{name}:{s}': BITS must be between {MIN_BITS} and {MAX_BITS}"
        ));
    }
    Ok(b)
}

impl FromStr for Backend {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "f64" => Backend::F64,
            "exact" => Backend::Exact,
            "quadratic" => Backend::Quadratic,
            "algebraic" => Backend::Algebraic,
            "interval" => Backend::Interval,
            _ => match s.split_once(':') {
                Some(("mpfr", b)) => Backend::Mpfr(bits(b, "mpfr")?),
                Some(("mpi", b)) => Backend::MpInterval(bits(b, "mpi")?),
                _ => return Err(format!("unknown backend '{s}' ({EXPECTED})")),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_backends() {
        assert_eq!("mpi:256".parse::<Backend>(), Ok(Backend::MpInterval(256)));
        assert_eq!("mpfr:53".parse::<Backend>(), Ok(Backend::Mpfr(53)));
        assert_eq!("exact".parse::<Backend>(), Ok(Backend::Exact));
        assert!("mpfr:0".parse::<Backend>().unwrap_err().contains("between"));
        assert!("mpfr:x"
            .parse::<Backend>()
            .unwrap_err()
            .contains("whole number"));
        assert!("double"
            .parse::<Backend>()
            .unwrap_err()
            .contains("unknown backend"));
        for b in [
            "f64",
            "exact",
            "quadratic",
            "algebraic",
            "mpfr:128",
            "interval",
            "mpi:64",
        ] {
            assert_eq!(b.parse::<Backend>().unwrap().to_string(), b);
        }
    }
}
