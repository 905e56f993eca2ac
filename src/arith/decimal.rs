//! Decimal rendering of values, and [`Num`]: a value as reports carry it.
//!
//! A [`Num`] says what a number is — exact (with its input-language form), a rounded
//! floating-point value, or a rigorous enclosure — and keeps what is needed to print it
//! to any number of correctly rounded digits:
//!
//! | kind | JSON | text with `--digits N` |
//! |---|---|---|
//! | exact | `{"exact": "37/70"}` | correctly rounded to N significant digits |
//! | rounded | `{"approx": "0.30000000000000004"}` | the binary value, correctly rounded |
//! | enclosure | `{"lo": "…", "hi": "…"}` (outward) | `[lo, hi]`, lo rounded down, hi up |
//!
//! JSON strings are in the input language, so they parse back without loss: exact values
//! exactly, rounded values to the same binary value, enclosure bounds outward.

use rug::float::Round;
use rug::{Float, Integer};
use serde::ser::SerializeMap;

/// Decimal digits that show a precision of `prec` bits in full.
pub(crate) fn decimal_digits(prec: u32) -> usize {
    (f64::from(prec) * std::f64::consts::LOG10_2).ceil() as usize + 1
}

/// A decimal string for `x` with `digits` significant digits, rounded in direction `round`,
/// in the input language (`1.41421356`, `-2.5e-17`).
pub(crate) fn float_to_decimal(x: &Float, digits: usize, round: Round) -> String {
    if x.is_zero() {
        return "0".into();
    }
    if !x.is_finite() {
        return x.to_string();
    }
    let s = x.to_string_radix_round(10, Some(digits.max(2)), round);
    // rug writes `d.ddd` or `d.ddde±x`; make the exponent explicit and plain.
    let (mant, exp) = match s.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse::<i64>().unwrap_or(0)),
        None => (s.clone(), 0),
    };
    format_decimal(&mant, exp)
}

/// `mant × 10^exp` (`mant` = `[-]d.ddd`) in the input language: positional for moderate
/// exponents, `d.ddde±x` otherwise; trailing zeros dropped.
fn format_decimal(mant: &str, exp: i64) -> String {
    let mant = if mant.contains('.') {
        mant.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        mant.to_string()
    };
    if exp == 0 {
        mant
    } else if (-6..=0).contains(&exp) || (1..=20).contains(&exp) {
        positional(&mant, exp)
    } else {
        format!("{mant}e{exp}")
    }
}

/// `d.ddd` × 10^exp written without an exponent (`exp` small).
fn positional(mant: &str, exp: i64) -> String {
    let (sign, body) = match mant.strip_prefix('-') {
        Some(b) => ("-", b),
        None => ("", mant),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let digits = format!("{int}{frac}");
    let point = int.len() as i64 + exp; // position of the decimal point in `digits`
    let out = if point <= 0 {
        format!("0.{}{digits}", "0".repeat((-point) as usize))
    } else if point as usize >= digits.len() {
        format!("{digits}{}", "0".repeat(point as usize - digits.len()))
    } else {
        let (a, b) = digits.split_at(point as usize);
        format!("{a}.{b}")
    };
    format!("{sign}{out}")
}

/// The exact rational `q` correctly rounded (to nearest, ties to even) to `digits`
/// significant decimal digits. Pure integer arithmetic: no double rounding.
pub fn round_rational(q: &rug::Rational, digits: usize) -> String {
    let digits = digits.max(1);
    if q.cmp0().is_eq() {
        return "0".into();
    }
    let a = rug::Rational::from(q.abs_ref());
    let ten = |e: i64| -> rug::Rational {
        let p = Integer::from(Integer::u_pow_u(10, e.unsigned_abs() as u32));
        if e >= 0 {
            rug::Rational::from(p)
        } else {
            rug::Rational::from((Integer::from(1), p))
        }
    };
    // e = floor(log10 a), estimated from the bit lengths and corrected exactly
    let bits = a.numer().significant_bits() as i64 - a.denom().significant_bits() as i64;
    let mut e = (bits as f64 * std::f64::consts::LOG10_2).floor() as i64;
    while a >= ten(e + 1) {
        e += 1;
    }
    while a < ten(e) {
        e -= 1;
    }
    let n = digits as i64;
    let scaled = a * ten(n - 1 - e);
    let (rem, mut m) = scaled.fract_floor(Integer::new());
    let half = rug::Rational::from((1, 2));
    if rem > half || (rem == half && m.is_odd()) {
        m += 1;
    }
    if m == Integer::from(Integer::u_pow_u(10, digits as u32)) {
        m /= 10;
        e += 1;
    }
    let s = m.to_string();
    let mant = if s.len() > 1 {
        format!("{}.{}", &s[..1], &s[1..])
    } else {
        s
    };
    let sign = if q.cmp0().is_lt() { "-" } else { "" };
    format_decimal(&format!("{sign}{mant}"), e)
}

/// What an exact value is, for rounding it to any number of digits.
#[derive(Clone, Debug, PartialEq)]
pub enum ExactValue {
    /// A rational number.
    Rational(rug::Rational),
    /// `a + b√d` (d > 1 square-free).
    Quadratic {
        a: rug::Rational,
        b: rug::Rational,
        d: Integer,
    },
    /// A real algebraic number of higher degree, with a tight rigorous enclosure for
    /// its decimals (the exact form is the `expr` beside it).
    Enclosed { lo: Float, hi: Float },
    /// Not a number (a closed form with variables).
    Symbolic,
}

/// A value in a report: exact, rounded, or an enclosure (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub enum Num {
    /// The exact value: its input-language form and what it is.
    Exact { expr: String, value: ExactValue },
    /// A rounded floating-point value (its precision is the `Float`'s).
    Approx(Float),
    /// A rigorous enclosure `lo <= x <= hi`.
    Enclosure { lo: Float, hi: Float },
}

/// How values print in text reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextOptions {
    /// Significant digits of every decimal.
    pub digits: usize,
    /// Print exact values in full (input language) instead of rounded decimals.
    pub exact_values: bool,
}

impl Default for TextOptions {
    fn default() -> Self {
        TextOptions {
            digits: 20,
            exact_values: false,
        }
    }
}

/// Largest `--digits` accepted.
pub const MAX_DIGITS: usize = 10_000;

impl Num {
    /// `true` for exact values.
    pub fn is_exact(&self) -> bool {
        matches!(self, Num::Exact { .. })
    }

    /// An exact value's input-language form (`"-1/3"`, `"1/4*sqrt(3)"`); `None` for a
    /// rounded value or an enclosure.
    pub fn exact_expr(&self) -> Option<&str> {
        match self {
            Num::Exact { expr, .. } => Some(expr),
            _ => None,
        }
    }

    /// The JSON string(s): the exact form, the shortest decimal that reads back as the
    /// same binary value, or outward decimal bounds.
    pub(crate) fn json_fields(&self) -> Vec<(&'static str, String)> {
        match self {
            Num::Exact { expr, .. } => vec![("exact", expr.clone())],
            Num::Approx(x) => vec![("approx", approx_string(x))],
            Num::Enclosure { lo, hi } => {
                // 19 digits for 53-bit bounds, one more than the precision shows
                // otherwise (what the backends' `render` has always written)
                let p = lo.prec().max(hi.prec());
                let d = if p == 53 { 19 } else { decimal_digits(p) + 1 };
                vec![
                    ("lo", float_to_decimal(lo, d, Round::Down)),
                    ("hi", float_to_decimal(hi, d, Round::Up)),
                ]
            }
        }
    }

    /// Whether the value is a finite number: exact values are; a rounded value that
    /// overflowed (`inf`) or is `NaN`, and an enclosure with an infinite bound, are not.
    pub fn is_finite(&self) -> bool {
        match self {
            Num::Exact { .. } => true,
            Num::Approx(x) => x.is_finite(),
            Num::Enclosure { lo, hi } => lo.is_finite() && hi.is_finite(),
        }
    }

    /// The value for a person: `digits` correctly rounded significant digits; an
    /// enclosure as `[lo, hi]` rounded outward; exact values in full on request.
    pub fn text(&self, o: &TextOptions) -> String {
        match self {
            Num::Exact { expr, .. } if o.exact_values => expr.clone(),
            Num::Exact { value, expr } => match value {
                ExactValue::Rational(q) => round_rational(q, o.digits),
                ExactValue::Quadratic { a, b, d } => round_quadratic(a, b, d, o.digits),
                ExactValue::Enclosed { lo, hi } => {
                    super::algebraic::enclosed_text(lo, hi, o.digits)
                }
                ExactValue::Symbolic => expr.clone(),
            },
            Num::Approx(x) => float_to_decimal(x, o.digits, Round::Nearest),
            Num::Enclosure { lo, hi } => format!(
                "[{}, {}]",
                float_to_decimal(lo, o.digits, Round::Down),
                float_to_decimal(hi, o.digits, Round::Up)
            ),
        }
    }

    /// An `f64` near the value (the midpoint of an enclosure), for figures.
    pub fn to_f64(&self) -> f64 {
        match self {
            Num::Exact { value, .. } => match value {
                ExactValue::Rational(q) => q.to_f64(),
                ExactValue::Quadratic { a, b, d } => {
                    let (lo, hi) = quadratic_bounds(a, b, d, 64);
                    Float::with_val(64, &lo + &hi).to_f64() / 2.0
                }
                ExactValue::Enclosed { lo, hi } => (lo.to_f64() + hi.to_f64()) / 2.0,
                ExactValue::Symbolic => f64::NAN,
            },
            Num::Approx(x) => x.to_f64(),
            Num::Enclosure { lo, hi } => (lo.to_f64() + hi.to_f64()) / 2.0,
        }
    }
}

/// The shortest decimal that reads back as `x` at its precision (`f64`: Rust's shortest
/// round-trip form; MPFR: all the digits the precision holds).
fn approx_string(x: &Float) -> String {
    // a 53-bit value in f64's range prints as f64 does (shortest round trip); an MPFR
    // value beyond that range keeps its own exponent
    if x.prec() == 53 && (x.to_f64().is_finite() || !x.is_finite()) {
        let f = x.to_f64();
        if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e16 {
            return format!("{}", f as i64);
        }
        return format!("{f:?}");
    }
    float_to_decimal(x, decimal_digits(x.prec()), Round::Nearest)
}

/// Rigorous bounds of `a + b√d` at `prec` bits (every operation rounded outward).
fn quadratic_bounds(
    a: &rug::Rational,
    b: &rug::Rational,
    d: &Integer,
    prec: u32,
) -> (Float, Float) {
    let dd = Float::with_val(d.significant_bits().max(2), d); // exact
    let root = |r: Round| Float::with_val_round(prec, dd.sqrt_ref(), r).0;
    // b√d: with b ≥ 0 the lower bound uses √d rounded down; with b < 0, rounded up
    let (rl, ru) = if b.cmp0().is_ge() {
        (root(Round::Down), root(Round::Up))
    } else {
        (root(Round::Up), root(Round::Down))
    };
    let blo = Float::with_val_round(prec, &rl * b, Round::Down).0;
    let bhi = Float::with_val_round(prec, &ru * b, Round::Up).0;
    (
        Float::with_val_round(prec, &blo + a, Round::Down).0,
        Float::with_val_round(prec, &bhi + a, Round::Up).0,
    )
}

/// `a + b√d` correctly rounded to `digits` digits: enclosures at rising precision until
/// both bounds round to the same decimal (an irrational value is never a tie, so this
/// ends; past 2¹⁶ bits the enclosure is printed instead).
fn round_quadratic(a: &rug::Rational, b: &rug::Rational, d: &Integer, digits: usize) -> String {
    let mut prec = (digits as f64 / std::f64::consts::LOG10_2) as u32 + 64;
    loop {
        let (lo, hi) = quadratic_bounds(a, b, d, prec);
        let l = float_to_decimal(&lo, digits, Round::Nearest);
        let h = float_to_decimal(&hi, digits, Round::Nearest);
        if l == h {
            return l;
        }
        if prec > 1 << 16 {
            return format!(
                "[{}, {}]",
                float_to_decimal(&lo, digits, Round::Down),
                float_to_decimal(&hi, digits, Round::Up)
            );
        }
        prec *= 2;
    }
}

impl serde::Serialize for Num {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let fields = self.json_fields();
        let mut m = s.serialize_map(Some(fields.len()))?;
        for (k, v) in fields {
            m.serialize_entry(k, &v)?;
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> rug::Rational {
        rug::Rational::from((n, d))
    }

    #[test]
    fn rationals_round_correctly() {
        assert_eq!(round_rational(&q(37, 70), 20), "0.52857142857142857143");
        assert_eq!(round_rational(&q(1, 3), 5), "0.33333");
        assert_eq!(round_rational(&q(-2, 3), 3), "-0.667");
        assert_eq!(round_rational(&q(3, 20), 1), "0.2"); // tie 0.15 -> even 2
        assert_eq!(round_rational(&q(1, 4), 1), "0.2"); // tie 0.25 -> even 2
        assert_eq!(round_rational(&q(999, 1), 2), "1000"); // carry
        assert_eq!(round_rational(&q(1, 10_i64.pow(12)), 3), "1e-12");
        assert_eq!(round_rational(&q(7, 1), 20), "7");
        assert_eq!(round_rational(&q(0, 1), 20), "0");
    }

    #[test]
    fn quadratic_rounds_correctly() {
        // 1/2*sqrt(2) = 0.70710678118654752440084436...
        let s = round_quadratic(&q(0, 1), &q(1, 2), &Integer::from(2), 20);
        assert_eq!(s, "0.7071067811865475244");
        // 2 - sqrt(3) = 0.267949192431122706472553658...
        let s = round_quadratic(&q(2, 1), &q(-1, 1), &Integer::from(3), 12);
        assert_eq!(s, "0.267949192431");
    }

    #[test]
    fn json_is_self_describing() {
        let e = Num::Exact {
            expr: "37/70".into(),
            value: ExactValue::Rational(q(37, 70)),
        };
        assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"exact":"37/70"}"#);
        let a = Num::Approx(Float::with_val(53, 0.1f64 + 0.2f64));
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"{"approx":"0.30000000000000004"}"#
        );
        let i = Num::Enclosure {
            lo: Float::with_val(53, 0.25),
            hi: Float::with_val(53, 0.5),
        };
        assert_eq!(
            serde_json::to_string(&i).unwrap(),
            r#"{"lo":"0.25","hi":"0.5"}"#
        );
        let o = TextOptions::default();
        assert_eq!(a.text(&o), "0.30000000000000004441");
        assert_eq!(i.text(&o), "[0.25, 0.5]");
        assert_eq!(e.text(&o), "0.52857142857142857143");
        let full = TextOptions {
            exact_values: true,
            ..o
        };
        assert_eq!(e.text(&full), "37/70");
    }
}
