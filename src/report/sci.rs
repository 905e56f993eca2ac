//! Three significant digits in scientific notation, as `{:.2e}` and `{:+.2e}` print
//! them, without the general float formatter where the digits are certain (issue 36:
//! a `regress` text report prints about ten such numbers per record, and its `f64`
//! path compares twenty more).
//!
//! [`Sci::new`] gives the same string as `format!("{x:.2e}")` for every `f64`: the
//! digits come from one product with a power of ten (a relative error below 2⁻⁵¹),
//! and where that product lies within 10⁻⁹ of a rounding boundary (a tie such as
//! 1.125, which the standard formatter rounds to even, or a power of ten), where `x` is
//! 0, not finite or outside [10⁻²⁸⁰, 10²⁸⁰], the standard formatter writes it.

use std::fmt;
use std::sync::OnceLock;

/// `x` printed as `{:.2e}` (`signed`: `{:+.2e}`), kept on the stack.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Sci {
    buf: [u8; 32],
    len: u8,
}

impl Sci {
    /// `x` as `format!("{x:.2e}")`, or `format!("{x:+.2e}")` when `signed`.
    pub fn new(x: f64, signed: bool) -> Sci {
        let mut s = Sci {
            buf: [0; 32],
            len: 0,
        };
        match digits(x) {
            Some((m, e)) => s.put_digits(x.is_sign_negative(), signed, m, e),
            None => s.put_std(x, signed),
        }
        s
    }

    /// Whether `a` and `b` print alike (`Sci::new(a, signed) == Sci::new(b, signed)`),
    /// from their signs and digits where both are certain, without writing either.
    pub fn same(a: f64, b: f64, signed: bool) -> bool {
        match (digits(a), digits(b)) {
            (Some(x), Some(y)) => x == y && a.is_sign_negative() == b.is_sign_negative(),
            _ => Sci::new(a, signed) == Sci::new(b, signed),
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // only ASCII is ever written
        std::str::from_utf8(&self.buf[..self.len as usize]).unwrap_or("")
    }

    fn push(&mut self, b: u8) {
        self.buf[self.len as usize] = b;
        self.len += 1;
    }

    /// `d.dd e exp` for the three digits `m` (100 ≤ m ≤ 999, or 0) and the exponent.
    fn put_digits(&mut self, negative: bool, signed: bool, m: u32, e: i32) {
        if negative {
            self.push(b'-');
        } else if signed {
            self.push(b'+');
        }
        let d = |k: u32| b'0' + (k % 10) as u8;
        self.push(d(m / 100));
        self.push(b'.');
        self.push(d(m / 10));
        self.push(d(m));
        self.push(b'e');
        if e < 0 {
            self.push(b'-');
        }
        let e = e.unsigned_abs();
        for p in [100, 10] {
            if e >= p {
                self.push(d(e / p));
            }
        }
        self.push(d(e));
    }

    fn put_std(&mut self, x: f64, signed: bool) {
        use std::io::Write;
        let mut cur = std::io::Cursor::new(&mut self.buf[..]);
        // at most 11 bytes ("-1.23e-308", "+inf", "NaN"): the buffer holds them
        let _ = match signed {
            true => write!(cur, "{x:+.2e}"),
            false => write!(cur, "{x:.2e}"),
        };
        self.len = cur.position() as u8;
    }
}

impl fmt::Display for Sci {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Sci {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// 10ᵏ correctly rounded, for |k| ≤ 308 (index k + 308).
fn pow10(k: i32) -> f64 {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        (-308..=308)
            .map(|k| format!("1e{k}").parse().unwrap_or(f64::NAN))
            .collect()
    });
    t[(k + 308) as usize]
}

/// How far a scaled product may lie from a rounding boundary and still be decided.
const MARGIN: f64 = 1e-9;

/// The three digits m and the exponent e of |x| = m.dd·10ᵉ rounded to nearest, where
/// they are certain (0 gives (0, 0)); `None` sends `x` to the standard formatter.
fn digits(x: f64) -> Option<(u32, i32)> {
    let a = x.abs();
    if a == 0.0 {
        return Some((0, 0));
    }
    if !(1e-280..=1e280).contains(&a) {
        return None;
    }
    // ⌊e₂·log₁₀2⌋ for a = m·2^e₂, m ∈ [1, 2): the exponent, or one below it (log₁₀ m
    // < 0.302); that and the rounding up to 10³ are at most two corrections
    let e2 = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let mut e = (f64::from(e2) * std::f64::consts::LOG10_2).floor() as i32;
    for _ in 0..3 {
        // |q − a·10^(2−e)| ≤ 2·2⁻⁵³·q < 10⁻¹² for q < 1000
        let q = a * pow10(2 - e);
        if q < 99.5 - MARGIN {
            e -= 1;
            continue;
        }
        if q >= 999.5 + MARGIN {
            e += 1;
            continue;
        }
        let f = q.floor();
        let frac = q - f;
        if (frac - 0.5).abs() <= MARGIN {
            return None;
        }
        let m = if frac > 0.5 { f + 1.0 } else { f };
        return Some((m as u32, e));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(x: f64) {
        assert_eq!(Sci::new(x, false).as_str(), format!("{x:.2e}"), "{x:e}");
        assert_eq!(Sci::new(x, true).as_str(), format!("{x:+.2e}"), "{x:e}");
    }

    /// Ties, powers of ten, the edges of the fast range, zeros, non-finite values.
    #[test]
    fn edge_values_print_as_the_standard_formatter() {
        for x in [
            1.125,
            1.135,
            0.0,
            -0.0,
            9.995,
            9.9951,
            999.5,
            99.5,
            0.1,
            1.0,
            10.0,
            100.0,
            1e-280,
            1e280,
            1e-300,
            1e300,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -1.5e-7,
            2.5,
            1.25e-5,
            6.89e-5,
        ] {
            same(x);
            same(-x);
            same(x.next_up());
            same(x.next_down());
        }
    }

    /// Every power of ten and every boundary d.dd5·10ᵉ, with its neighbours.
    #[test]
    fn boundaries_print_as_the_standard_formatter() {
        for e in -300..=300 {
            for m in (1000..10000).step_by(37).chain([1005, 9995, 9999, 1000]) {
                let x: f64 = format!("{m}e{}", e - 3).parse().unwrap();
                let mut y = x;
                for _ in 0..3 {
                    same(y);
                    y = y.next_up();
                }
                same(x.next_down());
                same(-x);
            }
        }
    }

    /// `Sci::same` is the strings' equality: on each boundary d.dd5·10ᵉ and its
    /// neighbours (the pairs that print differently by one digit), on ±0, and on random
    /// pairs a few ulps apart.
    #[test]
    fn two_values_print_alike_exactly_when_their_strings_are_equal() {
        let check = |a: f64, b: f64| {
            for signed in [false, true] {
                let want = Sci::new(a, signed) == Sci::new(b, signed);
                assert_eq!(Sci::same(a, b, signed), want, "{a:e} {b:e} {signed}");
            }
        };
        check(0.0, -0.0);
        check(0.0, 0.0);
        check(-1e-300, 1e-300);
        for e in -300..=300 {
            for m in [1005, 1235, 9995, 9999, 1000] {
                let x: f64 = format!("{m}e{}", e - 3).parse().unwrap();
                check(x.next_down(), x);
                check(x, x.next_up());
                check(x.next_down(), x.next_up());
                check(-x, -x.next_up());
            }
        }
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..100_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let x = f64::from_bits(s);
            check(x, x.next_up().next_up());
        }
    }

    /// Random doubles over the whole range.
    #[test]
    fn random_doubles_print_as_the_standard_formatter() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..300_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            same(f64::from_bits(s));
        }
    }
}
