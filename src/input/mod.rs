//! Named option strings → typed parameters, with one error type.
//!
//! Every value a user gives impactkit — on the command line, in a claim file's probe
//! inputs, in an audit's domain — is an expression of the input language, read by
//! [`value`] or [`list`] on the backend of the run. What goes wrong is an [`InputError`]
//! naming the option and the reason: the CLI prints it as one line and exits with
//! status 2.

pub mod caps;
pub mod files;
pub mod suggest;

use crate::arith::{ArithError, Kind, Scalar};
use crate::lang::{eval_str, split_list, EvalError};

/// Longest error line kept, in characters (the input itself may be huge): a message
/// longer than this keeps its beginning and its end, elided in the middle.
pub const MAX_LINE: usize = 200;

/// Bad input: which option, and why (one line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{option}: {reason}")]
pub struct InputError {
    /// The option as the user wrote it (`--eps`, `--v0`), or a claim input's name.
    pub option: String,
    /// Why the value is refused, on one line.
    pub reason: String,
    /// The value is well-formed but this backend cannot represent it exactly (`sqrt(2)`
    /// in `exact`): a ladder of backends ([`crate::certify`]) moves on instead of failing.
    pub unrepresentable: bool,
}

impl InputError {
    /// Bad input for `option`; the reason is cut to one short line.
    pub fn new(option: impl Into<String>, reason: impl std::fmt::Display) -> Self {
        InputError {
            option: option.into(),
            reason: one_line(&reason.to_string()),
            unrepresentable: false,
        }
    }

    /// The error of an input-language value of `option` that did not evaluate.
    pub fn from_eval(option: impl Into<String>, e: &EvalError) -> Self {
        let mut out = InputError::new(option, e);
        out.unrepresentable = e.arith().is_some_and(ArithError::climbs);
        out
    }

    /// The error of an arithmetic failure while checking `option`.
    pub fn from_arith(option: impl Into<String>, e: &ArithError) -> Self {
        let mut out = InputError::new(option, e);
        out.unrepresentable = e.climbs();
        out
    }
}

/// `s` on one line of at most [`MAX_LINE`] characters: control characters escaped
/// (`\n` as the two characters `\` `n`, others as `\u{..}`), a long text elided in the
/// middle (`…`) so that both the option named at the start and the reason at the end stay.
pub fn one_line(s: &str) -> String {
    let flat: Vec<char> = s.trim_end().chars().flat_map(escaped).collect();
    if flat.len() <= MAX_LINE {
        return flat.into_iter().collect();
    }
    let head = (MAX_LINE - 1) * 2 / 3;
    let tail = MAX_LINE - 1 - head;
    let mut out: String = flat[..head].iter().collect();
    out.push('…');
    out.extend(&flat[flat.len() - tail..]);
    out
}

/// One character of an error line: itself, or its escape if it is a control character.
fn escaped(c: char) -> Vec<char> {
    match c {
        '\n' => vec!['\\', 'n'],
        '\t' => vec!['\\', 't'],
        '\r' => vec!['\\', 'r'],
        c if c.is_control() => c.escape_unicode().collect(),
        c => vec![c],
    }
}

/// The value of the expression `src`, given for `option`, in backend `S`, within the
/// limits of an option value: finite in `f64`'s range (|x| < 1.8·10³⁰⁸; an enclosure with
/// an infinite bound, `inf` or `NaN` is refused) and, in exact backends, at most
/// [`caps::VALUE_DIGITS`] decimal digits.
pub fn value<S: Scalar>(src: &str, option: &str, ctx: &S::Ctx) -> Result<S, InputError> {
    let x = eval_str::<S>(src, ctx).map_err(|e| InputError::from_eval(option, &e))?;
    within_limits(&x, src).map_err(|reason| InputError::new(option, reason))?;
    Ok(x)
}

/// Why `x` (the value of `src`) is not a usable option value, if it is not.
fn within_limits<S: Scalar>(x: &S, src: &str) -> Result<(), String> {
    let digits = x.size_digits();
    if digits > caps::VALUE_DIGITS {
        return Err(format!(
            "`{src}` has {digits} digits, more than the {} an option value may have",
            caps::VALUE_DIGITS
        ));
    }
    let finite = match x.enclosure() {
        Some((lo, hi)) => lo.is_finite() && hi.is_finite(),
        // rounded backends; a symbolic value with variables has no number to bound
        None => S::kind() != Kind::Float || x.to_f64().is_finite(),
    };
    if finite {
        Ok(())
    } else {
        Err(format!(
            "`{src}` is not a finite number within ±1.8e308 (the range of option values)"
        ))
    }
}

/// Checks `lo < src < hi` for the expression `src` of `option` (an angle: `--alpha` in
/// (0, π/2)), decided on the value itself with rigorous MPFR enclosures of growing
/// precision, before any backend rounds it or takes its tangent. A value equal to an end,
/// or too close to one to decide at 4096 bits, is refused: the open range is the paper's.
pub fn check_open_range(src: &str, option: &str, lo: &str, hi: &str) -> Result<(), InputError> {
    use crate::arith::{MpInterval, Sign};
    let refuse =
        |why: &str| InputError::new(option, format!("`{src}` must lie in ({lo}, {hi}){why}"));
    for bits in [64u32, 256, 1024, 4096] {
        let gap = |e: String| -> Result<Sign, InputError> {
            let x =
                eval_str::<MpInterval>(&e, &bits).map_err(|e| InputError::from_eval(option, &e))?;
            Ok(x.sign())
        };
        let above = gap(format!("({src}) - ({lo})"))?;
        let below = gap(format!("({hi}) - ({src})"))?;
        if matches!(above, Sign::Negative | Sign::Zero)
            || matches!(below, Sign::Negative | Sign::Zero)
        {
            return Err(refuse(""));
        }
        if above == Sign::Positive && below == Sign::Positive {
            return Ok(());
        }
    }
    Err(refuse(": it equals an end, or lies within 2^-4000 of one"))
}

/// A comma-separated list of expressions (`--masses "1,2,3"`) in backend `S`, of at most
/// [`caps::LIST`] entries.
pub fn list<S: Scalar>(src: &str, option: &str, ctx: &S::Ctx) -> Result<Vec<S>, InputError> {
    let parts = split_list(src);
    if parts.len() > caps::LIST {
        return Err(InputError::new(
            option,
            format!(
                "{} entries, more than {} (the limit of a list)",
                parts.len(),
                caps::LIST
            ),
        ));
    }
    parts
        .into_iter()
        .map(|p| value::<S>(p, option, ctx))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Rational;

    #[test]
    fn errors_name_the_option_on_one_short_line() {
        let e = value::<Rational>("sqrt(2)", "--eps", &()).unwrap_err();
        assert_eq!(e.option, "--eps");
        assert!(e.unrepresentable, "{e}");
        let e = value::<Rational>("1/0", "--eps", &()).unwrap_err();
        assert!(!e.unrepresentable, "{e}");
        let e = InputError::new("--v0", format!("bad {}\nsecond line", "x".repeat(1000)));
        assert!(!e.to_string().contains('\n'));
        assert!(e.reason.chars().count() <= MAX_LINE);
        assert!(e.reason.starts_with("bad xxx") && e.reason.ends_with("\\nsecond line"));
        assert_eq!(one_line("1\n2\u{7}"), "1\\n2\\u{7}");
        assert_eq!(
            list::<Rational>("1, 1/2", "--masses", &()).unwrap(),
            vec![Rational::new(1, 1), Rational::new(1, 2)]
        );
    }
}
