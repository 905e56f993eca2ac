//! Exact conversions between num-bigint / num-rational and GMP (rug).

use num_bigint::{BigInt, Sign as BigSign};
use num_rational::BigRational;
use rug::integer::Order;
use rug::{Integer, Rational as RugRational};

/// `BigInt` → `rug::Integer`, exactly.
pub fn big_to_rug(n: &BigInt) -> Integer {
    let (sign, digits) = n.to_u32_digits();
    let mut out = Integer::from_digits(&digits, Order::Lsf);
    if sign == BigSign::Minus {
        out = -out;
    }
    out
}

/// `rug::Integer` → `BigInt`, exactly.
pub fn rug_to_big(n: &Integer) -> BigInt {
    let digits: Vec<u32> = n.to_digits(Order::Lsf);
    let sign = match n.cmp0() {
        std::cmp::Ordering::Less => BigSign::Minus,
        std::cmp::Ordering::Equal => BigSign::NoSign,
        std::cmp::Ordering::Greater => BigSign::Plus,
    };
    BigInt::from_slice(sign, &digits)
}

/// `BigRational` → `rug::Rational`, exactly.
pub fn rat_to_rug(q: &BigRational) -> RugRational {
    RugRational::from((big_to_rug(q.numer()), big_to_rug(q.denom())))
}

/// `rug::Rational` → `BigRational`, exactly.
pub fn rug_to_rat(q: &RugRational) -> BigRational {
    BigRational::new(rug_to_big(q.numer()), rug_to_big(q.denom()))
}

/// The exact rational value of a finite MPFR float (`None` for NaN or infinities).
pub fn float_to_rat(x: &rug::Float) -> Option<BigRational> {
    x.to_rational().map(|q| rug_to_rat(&q))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for s in [
            "0",
            "1",
            "-1",
            "123456789012345678901234567890",
            "-98765432109876543210",
        ] {
            let b: BigInt = s.parse().unwrap();
            assert_eq!(rug_to_big(&big_to_rug(&b)), b);
            assert_eq!(big_to_rug(&b).to_string(), s);
        }
        let q = BigRational::new((-37).into(), 70.into());
        assert_eq!(rat_to_rug(&q).to_string(), "-37/70");
        assert_eq!(rug_to_rat(&rat_to_rug(&q)), q);
    }

    #[test]
    fn float_to_rat_is_exact() {
        let x = rug::Float::with_val(53, 0.1f64);
        let q = float_to_rat(&x).unwrap();
        assert_eq!(
            q,
            BigRational::new(3602879701896397u64.into(), (1u64 << 55).into())
        );
    }
}
