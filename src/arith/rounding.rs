//! `f64` operations rounded down (toward −∞) or up (toward +∞), for the `interval`
//! backend, without changing the processor's rounding mode and without any target
//! feature (so the library builds in any crate, for any x86-64 or other CPU).
//!
//! Each operation is computed rounded to nearest, and its exact error is recovered by an
//! error-free transformation: Knuth's TwoSum for sums, and a fused multiply-add for
//! products (a·b − p), quotients (a − q·b) and square roots (x − s·s) (Muller et al.,
//! *Handbook of Floating-Point Arithmetic*, 2nd ed., §4.3–4.4). The sign of the error says
//! on which side of the rounded result the true value lies; the directed result is that
//! result or its neighbour — exactly the correctly rounded directed result, as hardware
//! rounding modes give. Where the error of a product, quotient or root may itself fall
//! below the subnormal range (tiny results) the result is widened by one unit in the last
//! place on both sides, which is still rigorous; an overflow to ±∞ is bounded by ±MAX on
//! the side where the true value is finite. `f64::mul_add` is a fused multiply-add on
//! every target (in software where the CPU has none).

/// Below this magnitude the error of a product, quotient or root may not be exactly
/// representable (2⁻⁹⁶⁹: products of two normal floats keep their error above the
/// subnormal range when the result is at least 2⁻⁹⁶⁹·2⁵³ apart from it; we stay wide).
const TINY: f64 = 1.0020841800044864e-292; // 2^-969

/// The correctly rounded result `r` of an operation whose exact value is `r + e` (the sign
/// of `e` known), rounded down or up; `r` finite.
#[inline]
fn directed(r: f64, e: f64, up: bool) -> f64 {
    if up {
        if e > 0.0 {
            r.next_up()
        } else {
            r
        }
    } else if e < 0.0 {
        r.next_down()
    } else {
        r
    }
}

/// An overflowed or exact-infinite result `r`, rounded down or up: an overflow from finite
/// operands is finite, so ±∞ on the wrong side becomes ∓MAX.
#[inline]
fn infinite(r: f64, finite_operands: bool, up: bool) -> f64 {
    if !finite_operands {
        return r;
    }
    match (r > 0.0, up) {
        (true, false) => f64::MAX,
        (false, true) => f64::MIN,
        _ => r,
    }
}

/// One unit in the last place toward −∞ or +∞ (for results whose error is not recovered).
#[inline]
fn widened(r: f64, up: bool) -> f64 {
    if up {
        r.next_up()
    } else {
        r.next_down()
    }
}

/// a + b rounded down (`up = false`) or up.
#[inline]
pub fn add(a: f64, b: f64, up: bool) -> f64 {
    let s = a + b;
    if !s.is_finite() {
        return infinite(s, a.is_finite() && b.is_finite(), up);
    }
    // TwoSum: s + e = a + b exactly
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    directed(s, e, up)
}

/// a − b rounded down or up.
#[inline]
pub fn sub(a: f64, b: f64, up: bool) -> f64 {
    add(a, -b, up)
}

/// a · b rounded down or up (0 · ∞ = 0, as interval products of bounds need).
#[inline]
pub fn mul(a: f64, b: f64, up: bool) -> f64 {
    if a == 0.0 || b == 0.0 {
        return 0.0;
    }
    let p = a * b;
    if !p.is_finite() {
        return infinite(p, a.is_finite() && b.is_finite(), up);
    }
    if p.abs() < TINY {
        return widened(p, up);
    }
    directed(p, a.mul_add(b, -p), up)
}

/// a / b rounded down or up (b ≠ 0; a bound divided by an infinite bound is the IEEE
/// limit ±0, which bounds the true values).
#[inline]
pub fn div(a: f64, b: f64, up: bool) -> f64 {
    let q = a / b;
    if !a.is_finite() || !b.is_finite() {
        return q;
    }
    if !q.is_finite() {
        return infinite(q, true, up);
    }
    if q == 0.0 && a == 0.0 {
        return 0.0;
    }
    if q.abs() < TINY || a.abs() < TINY {
        return widened(q, up);
    }
    // a − q·b exactly; the true quotient exceeds q iff (a − q·b)/b > 0
    let r = (-q).mul_add(b, a);
    let e = if b > 0.0 { r } else { -r };
    directed(q, e, up)
}

/// √x rounded down or up (x ≥ 0).
#[inline]
pub fn sqrt(x: f64, up: bool) -> f64 {
    let s = x.sqrt();
    if x == 0.0 || x.is_infinite() {
        return s;
    }
    if x < TINY {
        return widened(s, up).max(0.0);
    }
    // x − s² exactly
    directed(s, (-s).mul_add(s, x), up)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rug::float::Round;
    use rug::Float;

    /// The correctly rounded directed result of an MPFR computation at 53 bits, as f64.
    fn reference(v: Float, up: bool) -> f64 {
        let r = if up { Round::Up } else { Round::Down };
        Float::with_val_round(53, &v, r).0.to_f64_round(r)
    }

    fn exact(x: f64) -> Float {
        Float::with_val(53, x)
    }

    /// A deterministic spread of floats: random significands over every exponent range,
    /// subnormals, powers of two, ±0, ±MAX.
    fn samples() -> Vec<f64> {
        let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut out = vec![0.0, -0.0, 1.0, -1.0, 2.0, 0.5, 3.0, 0.1, f64::MAX, f64::MIN];
        out.extend([
            f64::MIN_POSITIVE,
            5e-324,
            -5e-324,
            1e-300,
            1e300,
            2f64.powi(-1022),
        ]);
        for _ in 0..4000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let x = f64::from_bits(s);
            if x.is_finite() {
                out.push(x);
            }
            let small = (s >> 11) as f64 / (1u64 << 53) as f64 * 8.0 - 4.0;
            out.push(small);
        }
        out
    }

    #[test]
    fn every_operation_is_the_correctly_rounded_directed_result() {
        let xs = samples();
        let normal = |x: f64| x.is_finite() && x.abs() >= 1e-280;
        for (i, &a) in xs.iter().enumerate() {
            let b = xs[(i * 7919 + 13) % xs.len()];
            for up in [false, true] {
                let dir = if up { Round::Up } else { Round::Down };
                // never on the wrong side of the true value, exactly the hardware's directed
                // result where the result and the operands are not tiny, else one ulp wider
                let check = |got: f64, want: f64, tight: bool, what: &str| {
                    let wider = if up { want.next_up() } else { want.next_down() };
                    assert!(
                        got == want || (!tight && got == wider),
                        "{what}({a:e}, {b:e}) up={up}: {got:e}, want {want:e}"
                    );
                };
                let sum = Float::with_val(4200, &exact(a) + &exact(b));
                check(add(a, b, up), reference(sum, up), true, "add");
                let diff = Float::with_val(4200, &exact(a) - &exact(b));
                check(sub(a, b, up), reference(diff, up), true, "sub");
                let prod = Float::with_val(4200, &exact(a) * &exact(b));
                let want = reference(prod, up);
                check(
                    mul(a, b, up),
                    want,
                    normal(want) || want.is_infinite() || a == 0.0 || b == 0.0,
                    "mul",
                );
                if b != 0.0 {
                    let quot = Float::with_val_round(300, &exact(a) / &exact(b), dir).0;
                    let want = reference(quot, up);
                    check(div(a, b, up), want, normal(want) && normal(a), "div");
                }
                if a >= 0.0 {
                    let root = Float::with_val_round(300, exact(a).sqrt_ref(), dir).0;
                    check(
                        sqrt(a, up),
                        reference(root, up),
                        normal(a) || a == 0.0,
                        "sqrt",
                    );
                }
            }
        }
    }

    #[test]
    fn overflow_is_bounded_on_the_finite_side() {
        assert_eq!(add(f64::MAX, f64::MAX, false), f64::MAX);
        assert_eq!(add(f64::MAX, f64::MAX, true), f64::INFINITY);
        assert_eq!(mul(-1e200, 1e200, true), f64::MIN);
        assert_eq!(mul(-1e200, 1e200, false), f64::NEG_INFINITY);
        assert_eq!(mul(0.0, f64::INFINITY, false), 0.0);
        assert_eq!(add(f64::NEG_INFINITY, 1.0, true), f64::NEG_INFINITY);
        assert_eq!(div(1.0, f64::INFINITY, false), 0.0);
        assert_eq!(div(1e300, 1e-300, false), f64::MAX);
    }
}
