//! The input language with variables: every identifier other than `pi`, `sqrt`, `sin`,
//! `cos`, `tan`, `atan` is a variable. Same grammar and precedence as [`crate::expr`]
//! (`^` binds tighter than unary minus, integer exponents only), evaluated directly into
//! a [`Symbolic`] rational function.

use super::Symbolic;
use crate::arith::Scalar;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;

/// Largest |exponent| accepted in `x^n` (and in `1e-n` literals).
const MAX_EXPONENT: i64 = 1000;
/// Deepest nesting accepted.
const MAX_DEPTH: usize = 200;

/// Parses an input-language expression in which identifiers other than
/// pi/sqrt/sin/cos/tan/atan are variables.
pub fn parse_symbolic(src: &str) -> Result<Symbolic, String> {
    let mut p = Parser {
        src,
        b: src.as_bytes(),
        pos: 0,
        depth: 0,
    };
    if p.peek().is_none() {
        return Err(p.err("empty expression"));
    }
    let v = p.expr()?;
    if p.peek().is_some() {
        return Err(p.err(&format!("unexpected '{}'", p.rest_char())));
    }
    Ok(v)
}

struct Parser<'a> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn err(&self, msg: &str) -> String {
        format!("{msg} at position {} in \"{}\"", self.pos, self.src)
    }
    fn rest_char(&self) -> char {
        self.src[self.pos..].chars().next().unwrap_or(' ')
    }
    fn peek(&mut self) -> Option<u8> {
        while self.pos < self.b.len() && self.b[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        self.b.get(self.pos).copied()
    }
    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("expression nested too deeply"));
        }
        Ok(())
    }
    /// expr := term (('+' | '-') term)*
    fn expr(&mut self) -> Result<Symbolic, String> {
        self.enter()?;
        let mut acc = self.term()?;
        while let Some(c @ (b'+' | b'-')) = self.peek() {
            self.pos += 1;
            let rhs = self.term()?;
            acc = if c == b'+' { acc + rhs } else { acc - rhs };
        }
        self.depth -= 1;
        Ok(acc)
    }
    /// term := unary (('*' | '/') unary)*
    fn term(&mut self) -> Result<Symbolic, String> {
        let mut acc = self.unary()?;
        while let Some(c @ (b'*' | b'/')) = self.peek() {
            self.pos += 1;
            let at = self.pos;
            let rhs = self.unary()?;
            acc = if c == b'*' {
                acc * rhs
            } else {
                acc.checked_div(&rhs).map_err(|e| {
                    format!(
                        "{e}: the divisor `{}` is zero, at position {at} in \"{}\"",
                        rhs.render_string(),
                        self.src
                    )
                })?
            };
        }
        Ok(acc)
    }
    /// unary := ('-' | '+') unary | power
    fn unary(&mut self) -> Result<Symbolic, String> {
        self.enter()?;
        let out = match self.peek() {
            Some(b'-') => {
                self.pos += 1;
                -self.unary()?
            }
            Some(b'+') => {
                self.pos += 1;
                self.unary()?
            }
            _ => self.power()?,
        };
        self.depth -= 1;
        Ok(out)
    }
    /// power := atom ('^' unary)?, the exponent a constant integer
    fn power(&mut self) -> Result<Symbolic, String> {
        let base = self.atom()?;
        if self.peek() != Some(b'^') {
            return Ok(base);
        }
        self.pos += 1;
        let at = self.pos;
        let e = self.unary()?;
        let n = e
            .is_constant()
            .filter(|q| q.is_integer())
            .and_then(|q| q.to_integer().to_i64())
            .filter(|n| n.abs() <= MAX_EXPONENT)
            .ok_or_else(|| {
                format!(
                    "the exponent `{e}` is not an integer in [-{MAX_EXPONENT}, {MAX_EXPONENT}], at position {at} in \"{}\"",
                    self.src
                )
            })?;
        base.powi(n)
            .map_err(|err| self.err(&format!("{err}: 0^{n}")))
    }
    /// atom := number | name | func '(' expr ')' | '(' expr ')'
    fn atom(&mut self) -> Result<Symbolic, String> {
        match self.peek() {
            None => Err(self.err("unexpected end of expression")),
            Some(b'(') => {
                self.pos += 1;
                let inner = self.expr()?;
                self.expect_close()?;
                Ok(inner)
            }
            Some(c) if c.is_ascii_digit() || c == b'.' => self.number(),
            Some(c) if c.is_ascii_alphabetic() => self.name(),
            Some(_) => Err(self.err(&format!("unexpected '{}'", self.rest_char()))),
        }
    }
    /// A variable, `pi` (refused: not rational), or a function call.
    fn name(&mut self) -> Result<Symbolic, String> {
        let start = self.pos;
        while self.pos < self.b.len()
            && (self.b[self.pos].is_ascii_alphanumeric() || self.b[self.pos] == b'_')
        {
            self.pos += 1;
        }
        let name = &self.src[start..self.pos];
        let f: fn(&Symbolic) -> Result<Symbolic, crate::arith::ArithError> = match name {
            "pi" => {
                self.pos = start;
                return Err(self.err("pi is not a rational function"));
            }
            "sqrt" => Scalar::sqrt,
            "sin" => Scalar::sin,
            "cos" => Scalar::cos,
            "tan" => Scalar::tan,
            "atan" => Scalar::atan,
            _ => return Ok(Symbolic::var(name)),
        };
        if self.peek() != Some(b'(') {
            return Err(self.err(&format!("expected '(' after {name}")));
        }
        self.pos += 1;
        let arg = self.expr()?;
        self.expect_close()?;
        f(&arg).map_err(|e| format!("{e}, in \"{}\"", self.src))
    }
    fn expect_close(&mut self) -> Result<(), String> {
        if self.peek() == Some(b')') {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.err("expected ')'"))
        }
    }
    fn digits(&mut self) -> String {
        let s = self.pos;
        while self.pos < self.b.len() && self.b[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        self.src[s..self.pos].to_string()
    }
    /// A decimal literal, read exactly (`0.9` = 9/10, `4.5e-16` = 45/10¹⁷). An `e` not
    /// followed by digits ends the number.
    fn number(&mut self) -> Result<Symbolic, String> {
        let start = self.pos;
        let int = self.digits();
        let mut frac = String::new();
        if self.b.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            frac = self.digits();
        }
        if int.is_empty() && frac.is_empty() {
            self.pos = start;
            return Err(self.err("malformed number"));
        }
        let exp = self.exponent()?;
        let mantissa: BigInt = format!("{int}{frac}")
            .parse()
            .map_err(|_| self.err("malformed number"))?;
        let scale = exp - frac.len() as i64;
        let p = num_traits::pow(BigInt::from(10), scale.unsigned_abs() as usize);
        let q = if scale >= 0 {
            BigRational::from_integer(mantissa * p)
        } else {
            BigRational::new(mantissa, p)
        };
        Ok(Symbolic::constant(&q))
    }
    /// The optional `e[+-]digits` of a literal.
    fn exponent(&mut self) -> Result<i64, String> {
        if !matches!(self.b.get(self.pos), Some(b'e' | b'E')) {
            return Ok(0);
        }
        let save = self.pos;
        let mut i = self.pos + 1;
        let neg = match self.b.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        if !self.b.get(i).is_some_and(u8::is_ascii_digit) {
            self.pos = save;
            return Ok(0);
        }
        self.pos = i;
        let ds = self.digits();
        let v = ds
            .parse::<i64>()
            .ok()
            .filter(|v| *v <= MAX_EXPONENT)
            .ok_or_else(|| self.err(&format!("exponent larger than {MAX_EXPONENT}")))?;
        Ok(if neg { -v } else { v })
    }
}
