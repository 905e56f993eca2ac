//! Expressions of the form a + b·π with rational a, b: read exactly and written back in
//! their shortest form, so that a point of an audit's domain, `lo + (hi − lo)·t`, prints
//! as `3*pi/8` or `2/5` and not as the unevaluated `(0)+((pi/2)-(0))*(3/4)`.

use super::ast::{BinOp, Expr, Node, NodeKind};
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// a + b·π.
pub type PiLinear = (BigRational, BigRational);

/// The value of `e` as a + b·π when it is one: numbers, `pi`, sums, products and
/// quotients in which at most one factor involves π, integer powers of rationals.
/// Functions and variables give `None`.
pub fn pi_linear(e: &Expr) -> Option<PiLinear> {
    node(&e.root)
}

fn rational(x: &PiLinear) -> Option<&BigRational> {
    x.1.is_zero().then_some(&x.0)
}

fn node(n: &Node) -> Option<PiLinear> {
    match &n.kind {
        NodeKind::Num(q) => Some((q.clone(), BigRational::zero())),
        NodeKind::Pi => Some((BigRational::zero(), BigRational::one())),
        NodeKind::Neg(a) => node(a).map(|(a, b)| (-a, -b)),
        NodeKind::Chain(first, rest) => {
            let mut acc = node(first)?;
            for (op, operand) in rest {
                acc = apply(*op, acc, node(operand)?)?;
            }
            Some(acc)
        }
        NodeKind::Pow(base, exp) => {
            let b = rational(&node(base)?)?.clone();
            let x = node(exp)?;
            let e = rational(&x)?;
            let k = e.is_integer().then(|| e.to_integer().to_i32())??;
            if k.unsigned_abs() > 64 || (b.is_zero() && k < 0) {
                return None;
            }
            let p = num_traits::pow(b.clone(), k.unsigned_abs() as usize);
            Some((if k < 0 { p.recip() } else { p }, BigRational::zero()))
        }
        NodeKind::Var(_) | NodeKind::Call(..) => None,
    }
}

fn apply(op: BinOp, x: PiLinear, y: PiLinear) -> Option<PiLinear> {
    Some(match op {
        BinOp::Add => (x.0 + y.0, x.1 + y.1),
        BinOp::Sub => (x.0 - y.0, x.1 - y.1),
        BinOp::Mul => match (rational(&x), rational(&y)) {
            (Some(s), _) => (s * &y.0, s * &y.1),
            (_, Some(s)) => (&x.0 * s, &x.1 * s),
            _ => return None,
        },
        BinOp::Div => {
            let s = rational(&y)?;
            if s.is_zero() {
                return None;
            }
            (&x.0 / s, &x.1 / s)
        }
        BinOp::Pow => return None,
    })
}

/// a + b·π in the input language, shortest first: `2/5`, `pi`, `-pi/4`, `3*pi/8`,
/// `1/2+pi/4`.
pub fn format_pi_linear(x: &PiLinear) -> String {
    let (a, b) = x;
    if b.is_zero() {
        return a.to_string();
    }
    let pi = pi_multiple(b);
    if a.is_zero() {
        return pi;
    }
    match pi.strip_prefix('-') {
        Some(rest) => format!("{a}-{rest}"),
        None => format!("{a}+{pi}"),
    }
}

/// b·π: `pi`, `-pi`, `pi/4`, `3*pi/8`, `-3*pi`.
fn pi_multiple(b: &BigRational) -> String {
    let sign = if b.is_negative() { "-" } else { "" };
    let (n, d) = (b.numer().abs(), b.denom().clone());
    let head = if n.is_one() {
        "pi".to_string()
    } else {
        format!("{n}*pi")
    };
    if d.is_one() {
        format!("{sign}{head}")
    } else {
        format!("{sign}{head}/{d}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parse;

    fn short(src: &str) -> Option<String> {
        pi_linear(&parse(src).unwrap()).map(|x| format_pi_linear(&x))
    }

    #[test]
    fn reads_and_writes_rationals_and_multiples_of_pi() {
        assert_eq!(short("(0)+((pi/2)-(0))*(3/4)").as_deref(), Some("3*pi/8"));
        assert_eq!(short("(0)+((pi/2)-(0))*(2/4)").as_deref(), Some("pi/4"));
        assert_eq!(short("(-1)+((1)-(-1))*(14/20)").as_deref(), Some("2/5"));
        assert_eq!(
            short("(-pi)+((pi)-(-pi))*(1/8)").as_deref(),
            Some("-3*pi/4")
        );
        assert_eq!(short("1/2 + pi/4").as_deref(), Some("1/2+pi/4"));
        assert_eq!(short("1/2 - 2*pi").as_deref(), Some("1/2-2*pi"));
        assert_eq!(short("2^-3*pi").as_deref(), Some("pi/8"));
        assert_eq!(short("0.25").as_deref(), Some("1/4"));
        assert_eq!(short("pi*pi"), None);
        assert_eq!(short("atan(1/2)"), None);
        assert_eq!(short("1/(pi-pi)"), None);
        for s in ["3*pi/8", "-3*pi/4", "1/2-2*pi", "pi", "-pi"] {
            assert_eq!(
                short(s).as_deref(),
                Some(s),
                "a short form reads back as itself"
            );
        }
    }
}
