//! The one parser of the language (recursive descent over bytes; see the grammar in the
//! [module documentation](super)).

use super::ast::{BinOp, Expr, Func, Node, NodeKind, MAX_ROOT_INDEX};
use super::error::ParseError;
use super::limits::{Limits, LIMITS};
use super::relation::Rel;
use num_bigint::BigInt;
use num_rational::BigRational;

/// Parses an expression of the input language without variables (every number a user
/// gives on the command line): a name other than `pi` and the functions is an error.
pub fn parse(src: &str) -> Result<Expr, ParseError> {
    parse_expr(src, false)
}

/// Parses an expression in which every name other than `pi` and the functions is a
/// variable (`(1-e)*k/(1+k^2)`, `x1^2 + y1^2`).
pub fn parse_with_variables(src: &str) -> Result<Expr, ParseError> {
    parse_expr(src, true)
}

fn parse_expr(src: &str, vars: bool) -> Result<Expr, ParseError> {
    let mut p = Parser::new(src, vars, LIMITS)?;
    let root = p.whole()?;
    p.end()?;
    Ok(Expr {
        source: src.to_string(),
        root,
    })
}

/// Finds the comparison of a relation `lhs REL rhs` (both sides parsed with variables):
/// the byte range of the operator and the operator.
pub(super) fn relation_operator(src: &str) -> Result<(usize, usize, Rel), ParseError> {
    let mut p = Parser::new(src, true, LIMITS)?;
    p.whole()?;
    let start = p.pos;
    let rel = p.rel().ok_or_else(|| {
        if p.pos == p.bytes.len() {
            p.err("not a relation: expected one of < <= > >= == !=")
        } else {
            p.unexpected()
        }
    })?;
    let end = p.pos;
    p.whole()?;
    p.skip_ws();
    let second = p.pos;
    if p.rel().is_some() {
        p.pos = second;
        return Err(p.err("more than one comparison"));
    }
    p.end()?;
    Ok((start, end, rel))
}

/// Comma-separated expressions (`"1/sqrt(2), 1/sqrt(2)"`); commas inside parentheses do
/// not split. Each part is trimmed.
pub fn split_list(src: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in src.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(src[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(src[start..].trim());
    out
}

struct Parser<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth: usize,
    tokens: usize,
    vars: bool,
    limits: Limits,
}

impl<'a> Parser<'a> {
    fn new(src: &'a str, vars: bool, limits: Limits) -> Result<Parser<'a>, ParseError> {
        let p = Parser {
            src,
            bytes: src.as_bytes(),
            pos: 0,
            depth: 0,
            tokens: 0,
            vars,
            limits,
        };
        if src.len() > limits.max_len {
            return Err(ParseError::new(
                format!("input longer than {} bytes", limits.max_len),
                limits.max_len,
                &src[..src.floor_char_boundary_compat(limits.max_len)],
            ));
        }
        Ok(p)
    }
    fn err(&self, msg: &str) -> ParseError {
        ParseError::new(msg, self.pos, self.src)
    }
    fn unexpected(&self) -> ParseError {
        self.err(&format!("unexpected '{}'", self.rest_char()))
    }
    fn rest_char(&self) -> char {
        self.src[self.pos..].chars().next().unwrap_or(' ')
    }
    fn skip_ws(&mut self) {
        while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.bytes.get(self.pos).copied()
    }
    /// Consumes one token of `len` bytes, counting it against the limit.
    fn take(&mut self, len: usize) -> Result<(), ParseError> {
        self.tokens += 1;
        if self.tokens > self.limits.max_tokens {
            return Err(self.err(&format!("more than {} tokens", self.limits.max_tokens)));
        }
        self.pos += len;
        Ok(())
    }
    fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > self.limits.max_depth {
            return Err(self.err(&format!(
                "expression nested too deeply (more than {} levels)",
                self.limits.max_depth
            )));
        }
        Ok(())
    }
    fn node(kind: NodeKind, start: usize, end: usize) -> Node {
        Node {
            kind,
            span: (start, end),
        }
    }
    /// A whole expression (not empty).
    fn whole(&mut self) -> Result<Node, ParseError> {
        let first = self.tokens == 0;
        if self.peek().is_none() {
            return Err(self.err(if first {
                "empty expression"
            } else {
                "unexpected end of expression"
            }));
        }
        self.expr()
    }
    /// Nothing but blanks left.
    fn end(&mut self) -> Result<(), ParseError> {
        if self.peek().is_some() {
            return Err(self.unexpected());
        }
        Ok(())
    }
    /// A comparison operator, consumed.
    fn rel(&mut self) -> Option<Rel> {
        self.peek()?;
        let rest = &self.bytes[self.pos..];
        let (rel, len) = match rest {
            [b'<', b'=', ..] => (Rel::Le, 2),
            [b'>', b'=', ..] => (Rel::Ge, 2),
            [b'=', b'=', ..] => (Rel::Eq, 2),
            [b'!', b'=', ..] => (Rel::Ne, 2),
            [b'<', ..] => (Rel::Lt, 1),
            [b'>', ..] => (Rel::Gt, 1),
            _ => return None,
        };
        self.take(len).ok()?;
        Some(rel)
    }
    /// A left-associative chain of `ops` over `operand`.
    fn chain(
        &mut self,
        ops: [(u8, BinOp); 2],
        operand: fn(&mut Self) -> Result<Node, ParseError>,
    ) -> Result<Node, ParseError> {
        self.skip_ws();
        let start = self.pos;
        let first = operand(self)?;
        let mut rest = Vec::new();
        while let Some(c) = self.peek() {
            let Some(&(_, op)) = ops.iter().find(|(b, _)| *b == c) else {
                break;
            };
            self.take(1)?;
            rest.push((op, operand(self)?));
        }
        if rest.is_empty() {
            return Ok(first);
        }
        Ok(Self::node(
            NodeKind::Chain(Box::new(first), rest),
            start,
            self.pos,
        ))
    }
    /// expr := term (('+' | '-') term)*
    fn expr(&mut self) -> Result<Node, ParseError> {
        self.enter()?;
        let out = self.chain([(b'+', BinOp::Add), (b'-', BinOp::Sub)], Self::term)?;
        self.depth -= 1;
        Ok(out)
    }
    /// term := unary (('*' | '/') unary)*
    fn term(&mut self) -> Result<Node, ParseError> {
        self.chain([(b'*', BinOp::Mul), (b'/', BinOp::Div)], Self::unary)
    }
    /// unary := ('-' | '+') unary | power
    fn unary(&mut self) -> Result<Node, ParseError> {
        self.enter()?;
        self.skip_ws();
        let start = self.pos;
        let out = match self.peek() {
            Some(b'-') => {
                self.take(1)?;
                let inner = self.unary()?;
                Self::node(NodeKind::Neg(Box::new(inner)), start, self.pos)
            }
            Some(b'+') => {
                self.take(1)?;
                self.unary()?
            }
            _ => self.power()?,
        };
        self.depth -= 1;
        Ok(out)
    }
    /// power := atom ('^' unary)?
    fn power(&mut self) -> Result<Node, ParseError> {
        self.skip_ws();
        let start = self.pos;
        let base = self.atom()?;
        if self.peek() == Some(b'^') {
            self.take(1)?;
            let exp = self.unary()?;
            return Ok(Self::node(
                NodeKind::Pow(Box::new(base), Box::new(exp)),
                start,
                self.pos,
            ));
        }
        Ok(base)
    }
    /// atom := number | 'pi' | name | func '(' expr ')' | '(' expr ')'
    fn atom(&mut self) -> Result<Node, ParseError> {
        let start = self.pos;
        match self.peek() {
            None => Err(self.err("unexpected end of expression")),
            Some(b'(') => {
                self.take(1)?;
                let inner = self.expr()?;
                self.expect_close()?;
                Ok(Node {
                    kind: inner.kind,
                    span: (start, self.pos),
                })
            }
            Some(c) if c.is_ascii_digit() || c == b'.' => self.number(),
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => self.name(),
            Some(_) => Err(self.unexpected()),
        }
    }
    /// `pi`, a function call, or a variable.
    fn name(&mut self) -> Result<Node, ParseError> {
        let start = self.pos;
        let mut end = start;
        while end < self.bytes.len()
            && (self.bytes[end].is_ascii_alphanumeric() || self.bytes[end] == b'_')
        {
            end += 1;
        }
        let name = &self.src[start..end];
        let known = || {
            let fs: Vec<&str> = Func::ALL.iter().map(|f| f.name()).collect();
            format!("pi, {}", fs.join(", "))
        };
        if name == "pi" {
            self.take(end - start)?;
            return Ok(Self::node(NodeKind::Pi, start, self.pos));
        }
        let Some(func) = Func::from_name(name) else {
            if !self.vars {
                return Err(self.err(&format!(
                    "unknown name '{}' (known: {})",
                    super::error::clip(name),
                    known()
                )));
            }
            self.take(end - start)?;
            if self.peek() == Some(b'(') {
                self.pos = start;
                return Err(self.err(&format!(
                    "unknown function '{}' (known: {})",
                    super::error::clip(name),
                    known()
                )));
            }
            return Ok(Self::node(NodeKind::Var(name.to_string()), start, end));
        };
        self.take(end - start)?;
        if self.peek() != Some(b'(') {
            return Err(self.err(&format!("expected '(' after {name}")));
        }
        self.take(1)?;
        let arg = self.expr()?;
        let func = match func {
            Func::Root(_) => Func::Root(self.root_index()?),
            f => f,
        };
        self.expect_close()?;
        Ok(Self::node(
            NodeKind::Call(func, Box::new(arg)),
            start,
            self.pos,
        ))
    }
    /// `, k` in `root(x, k)`: an integer literal from 1 to [`MAX_ROOT_INDEX`].
    fn root_index(&mut self) -> Result<u32, ParseError> {
        if self.peek() != Some(b',') {
            return Err(self.err("expected ', k' in root(x, k)"));
        }
        self.take(1)?;
        self.skip_ws();
        let at = self.pos;
        let digits = self.digits();
        let literal = self.peek() == Some(b')');
        match digits.parse::<u32>() {
            Ok(k) if literal && (1..=MAX_ROOT_INDEX).contains(&k) => {
                self.tokens += 1;
                Ok(k)
            }
            _ => {
                self.pos = at;
                Err(self.err(&format!(
                    "root(x, k) needs an integer literal k from 1 to {MAX_ROOT_INDEX}"
                )))
            }
        }
    }
    fn expect_close(&mut self) -> Result<(), ParseError> {
        if self.peek() == Some(b')') {
            self.take(1)
        } else {
            Err(self.err("expected ')'"))
        }
    }
    fn digits(&mut self) -> &'a str {
        let s = self.pos;
        while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        &self.src[s..self.pos]
    }
    /// A decimal literal, read exactly (`0.9` = 9/10, `4.5e-16` = 45/10¹⁷).
    fn number(&mut self) -> Result<Node, ParseError> {
        let start = self.pos;
        self.take(0)?;
        let int = self.digits();
        let mut frac = "";
        if self.bytes.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            frac = self.digits();
        }
        if int.is_empty() && frac.is_empty() {
            self.pos = start;
            return Err(self.err("malformed number"));
        }
        let max = self.limits.max_exponent;
        let mut exp: i64 = 0;
        if matches!(self.bytes.get(self.pos), Some(b'e' | b'E')) {
            let save = self.pos;
            self.pos += 1;
            let neg = match self.bytes.get(self.pos) {
                Some(b'-') => {
                    self.pos += 1;
                    true
                }
                Some(b'+') => {
                    self.pos += 1;
                    false
                }
                _ => false,
            };
            let ds = self.digits();
            if ds.is_empty() {
                self.pos = save;
                return Err(self.err("malformed exponent"));
            }
            exp = match ds.parse::<i64>() {
                Ok(v) if v <= max => v,
                _ => return Err(self.err(&format!("exponent larger than {max}"))),
            };
            if neg {
                exp = -exp;
            }
        }
        let mantissa: BigInt = format!("{int}{frac}")
            .parse()
            .map_err(|_| self.err("malformed number"))?;
        let scale = exp - frac.len() as i64;
        let p = num_traits::pow(BigInt::from(10), scale.unsigned_abs() as usize);
        let value = if scale >= 0 {
            BigRational::from_integer(mantissa * p)
        } else {
            BigRational::new(mantissa, p)
        };
        Ok(Self::node(NodeKind::Num(value), start, self.pos))
    }
}

/// `str::floor_char_boundary` (unstable) for the cut of an over-long input.
trait FloorBoundary {
    fn floor_char_boundary_compat(&self, i: usize) -> usize;
}

impl FloorBoundary for str {
    fn floor_char_boundary_compat(&self, mut i: usize) -> usize {
        i = i.min(self.len());
        while !self.is_char_boundary(i) {
            i -= 1;
        }
        i
    }
}
