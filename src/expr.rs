//! The input language: every number a user gives impactkit (`--alpha "pi/4"`,
//! `--eps 0.9`, `--v0 "1/sqrt(2),1/sqrt(2)"`) is an expression of this language.
//!
//! Grammar (usual precedence, `^` binds tighter than unary minus and is right
//! associative, so `-2^2 = -4` and `2^-1 = 1/2`):
//!
//! ```text
//! expr  := term (('+' | '-') term)*
//! term  := unary (('*' | '/') unary)*
//! unary := ('-' | '+') unary | power
//! power := atom ('^' unary)?          exponent: an exact integer
//! atom  := number | 'pi' | func '(' expr ')' | '(' expr ')'
//! func  := sqrt | sin | cos | tan | atan
//! number:= digits ['.' digits] [('e'|'E') ['+'|'-'] digits]     e.g. 0.9, 4.5e-16
//! ```
//!
//! Numbers are read exactly (`0.9` = 9/10, `4.5e-16` = 45/10¹⁷) and handed to the backend
//! once, through [`Scalar::from_rational`]; the operations are then the backend's own.
//!
//! Each backend evaluates an expression as well as it can:
//! * **rounded** backends (`f64`, `mpfr:BITS`) compute like a floating-point program:
//!   `pi` is the nearest float, `tan(pi/6)` is the backend's tan of that;
//! * **exact** backends track rational multiples of π, so `sin`, `cos`, `tan` of `q·pi`
//!   are exact where the value is rational or quadratic (the table of
//!   [`trig_of_pi_multiple`]; e.g. `tan(pi/12) = 2-sqrt(3)`, `cos(pi/5) = (1+sqrt(5))/4`),
//!   `atan` of a table value is the matching multiple of π, and anything else
//!   (`tan(pi/16)`, `sin(1)`, a bare `pi`) is an error that names the value;
//! * **enclosure** backends use the same exact table where it applies (so `tan(pi/4)` is
//!   the point interval [1, 1]) and otherwise rigorous enclosures of the transcendental
//!   functions.

use crate::arith::{ArithError, Kind, Scalar};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::fmt;

/// Largest exponent magnitude accepted in `x^n` and in `1e-n` literals.
pub const MAX_EXPONENT: i64 = 100_000;
/// Deepest nesting of parentheses and operators accepted.
const MAX_DEPTH: usize = 200;

/// Functions of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Sqrt,
    Sin,
    Cos,
    Tan,
    Atan,
}

impl Func {
    /// The name in the input language.
    pub fn name(self) -> &'static str {
        match self {
            Func::Sqrt => "sqrt",
            Func::Sin => "sin",
            Func::Cos => "cos",
            Func::Tan => "tan",
            Func::Atan => "atan",
        }
    }
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
}

/// A node of the syntax tree, with its span in the source text.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    pub span: (usize, usize),
}

/// The kinds of syntax-tree nodes.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    Num(BigRational),
    Pi,
    Neg(Box<Node>),
    Bin(BinOp, Box<Node>, Box<Node>),
    Call(Func, Box<Node>),
}

/// A parsed expression together with its source text.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub source: String,
    pub root: Node,
}

/// A syntax error, with the byte position where it was found.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{msg} at position {pos} in \"{input}\"")]
pub struct ParseError {
    pub msg: String,
    pub pos: usize,
    pub input: String,
}

/// An evaluation error: the arithmetic error and the sub-expression where it occurred.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EvalError {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error("{}", render_arith(.error, .at))]
    Arith { error: ArithError, at: String },
}

impl EvalError {
    /// The underlying arithmetic error, if any.
    pub fn arith(&self) -> Option<&ArithError> {
        match self {
            EvalError::Arith { error, .. } => Some(error),
            EvalError::Parse(_) => None,
        }
    }
}

fn render_arith(e: &ArithError, at: &str) -> String {
    match e {
        ArithError::NotRepresentable { .. } => e.to_string(),
        _ => format!("{e} in `{at}`"),
    }
}

/// Parses an expression of the input language.
pub fn parse(src: &str) -> Result<Expr, ParseError> {
    let mut p = Parser {
        src,
        bytes: src.as_bytes(),
        pos: 0,
        depth: 0,
    };
    p.skip_ws();
    if p.pos == p.bytes.len() {
        return Err(p.err("empty expression"));
    }
    let root = p.expr()?;
    p.skip_ws();
    if p.pos != p.bytes.len() {
        return Err(p.err(&format!("unexpected '{}'", p.rest_char())));
    }
    Ok(Expr {
        source: src.to_string(),
        root,
    })
}

/// Parses and evaluates `src` in the backend `S`.
pub fn eval_str<S: Scalar>(src: &str, ctx: &S::Ctx) -> Result<S, EvalError> {
    parse(src)?.eval(ctx)
}

/// Parses a comma-separated list of expressions (`"1/sqrt(2), 1/sqrt(2)"`); commas inside
/// parentheses do not split.
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
}

impl Parser<'_> {
    fn err(&self, msg: &str) -> ParseError {
        ParseError {
            msg: msg.to_string(),
            pos: self.pos,
            input: self.src.to_string(),
        }
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
    fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err("expression nested too deeply"));
        }
        Ok(())
    }
    fn node(kind: NodeKind, start: usize, end: usize) -> Node {
        Node {
            kind,
            span: (start, end),
        }
    }
    fn expr(&mut self) -> Result<Node, ParseError> {
        self.enter()?;
        self.skip_ws();
        let start = self.pos;
        let mut lhs = self.term()?;
        while let Some(c @ (b'+' | b'-')) = self.peek() {
            self.pos += 1;
            let rhs = self.term()?;
            let op = if c == b'+' { BinOp::Add } else { BinOp::Sub };
            lhs = Self::node(
                NodeKind::Bin(op, Box::new(lhs), Box::new(rhs)),
                start,
                self.pos,
            );
        }
        self.depth -= 1;
        Ok(lhs)
    }
    fn term(&mut self) -> Result<Node, ParseError> {
        self.skip_ws();
        let start = self.pos;
        let mut lhs = self.unary()?;
        while let Some(c @ (b'*' | b'/')) = self.peek() {
            self.pos += 1;
            let rhs = self.unary()?;
            let op = if c == b'*' { BinOp::Mul } else { BinOp::Div };
            lhs = Self::node(
                NodeKind::Bin(op, Box::new(lhs), Box::new(rhs)),
                start,
                self.pos,
            );
        }
        Ok(lhs)
    }
    fn unary(&mut self) -> Result<Node, ParseError> {
        self.enter()?;
        self.skip_ws();
        let start = self.pos;
        let out = match self.peek() {
            Some(b'-') => {
                self.pos += 1;
                let inner = self.unary()?;
                Self::node(NodeKind::Neg(Box::new(inner)), start, self.pos)
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
    fn power(&mut self) -> Result<Node, ParseError> {
        self.skip_ws();
        let start = self.pos;
        let base = self.atom()?;
        if self.peek() == Some(b'^') {
            self.pos += 1;
            let exp = self.unary()?;
            return Ok(Self::node(
                NodeKind::Bin(BinOp::Pow, Box::new(base), Box::new(exp)),
                start,
                self.pos,
            ));
        }
        Ok(base)
    }
    fn atom(&mut self) -> Result<Node, ParseError> {
        let start = self.pos;
        match self.peek() {
            None => Err(self.err("unexpected end of expression")),
            Some(b'(') => {
                self.pos += 1;
                let inner = self.expr()?;
                self.expect_close()?;
                Ok(Node {
                    kind: inner.kind,
                    span: (start, self.pos),
                })
            }
            Some(c) if c.is_ascii_digit() || c == b'.' => self.number(),
            Some(c) if c.is_ascii_alphabetic() => {
                while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_alphanumeric() {
                    self.pos += 1;
                }
                let name = &self.src[start..self.pos];
                let func = match name {
                    "pi" => return Ok(Self::node(NodeKind::Pi, start, self.pos)),
                    "sqrt" => Func::Sqrt,
                    "sin" => Func::Sin,
                    "cos" => Func::Cos,
                    "tan" => Func::Tan,
                    "atan" => Func::Atan,
                    _ => {
                        self.pos = start;
                        return Err(self.err(&format!(
                            "unknown name '{name}' (known: pi, sqrt, sin, cos, tan, atan)"
                        )));
                    }
                };
                if self.peek() != Some(b'(') {
                    return Err(self.err(&format!("expected '(' after {name}")));
                }
                self.pos += 1;
                let arg = self.expr()?;
                self.expect_close()?;
                Ok(Self::node(
                    NodeKind::Call(func, Box::new(arg)),
                    start,
                    self.pos,
                ))
            }
            Some(_) => Err(self.err(&format!("unexpected '{}'", self.rest_char()))),
        }
    }
    fn expect_close(&mut self) -> Result<(), ParseError> {
        if self.peek() == Some(b')') {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.err("expected ')'"))
        }
    }
    fn digits(&mut self) -> &str {
        let s = self.pos;
        while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        &self.src[s..self.pos]
    }
    /// A decimal literal, read exactly.
    fn number(&mut self) -> Result<Node, ParseError> {
        let start = self.pos;
        let int = self.digits().to_string();
        let mut frac = String::new();
        if self.bytes.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            frac = self.digits().to_string();
        }
        if int.is_empty() && frac.is_empty() {
            self.pos = start;
            return Err(self.err("malformed number"));
        }
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
                Ok(v) if v <= MAX_EXPONENT => v,
                _ => return Err(self.err(&format!("exponent larger than {MAX_EXPONENT}"))),
            };
            if neg {
                exp = -exp;
            }
        }
        let mantissa: BigInt = format!("{int}{frac}")
            .parse()
            .map_err(|_| self.err("malformed number"))?;
        let scale = exp - frac.len() as i64;
        let ten = BigInt::from(10);
        let value = if scale >= 0 {
            BigRational::from_integer(mantissa * num_traits::pow(ten, scale as usize))
        } else {
            BigRational::new(mantissa, num_traits::pow(ten, (-scale) as usize))
        };
        Ok(Self::node(NodeKind::Num(value), start, self.pos))
    }
}

/// An exact value `a + b√d` from the trigonometric table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuadValue {
    pub a: BigRational,
    pub b: BigRational,
    pub d: u32,
}

/// Result of looking up a trigonometric function of a rational multiple of π.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrigExact {
    /// The exact value `a + b√d` (`d = 1`, `b = 0` for rational values).
    Value(QuadValue),
    /// `tan` at an odd multiple of π/2.
    Pole,
    /// The value is algebraic of degree > 2.
    NotQuadratic,
}

fn r(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn qv(a: BigRational, b: BigRational, d: u32) -> TrigExact {
    TrigExact::Value(QuadValue { a, b, d })
}

/// `x − floor(x / m)·m`, in `[0, m)`.
fn reduce_mod(x: &BigRational, m: &BigRational) -> BigRational {
    x - (x / m).floor() * m
}

/// Exact `cos(qπ)`, `sin(qπ)`, `tan(qπ)` where they are rational or quadratic.
///
/// `cos(2π/n)` has degree φ(n)/2 over Q, so it is rational or quadratic exactly for
/// n ∈ {1, 2, 3, 4, 5, 6, 8, 10, 12}; after the symmetries cos(−x) = cos x,
/// cos(π − x) = −cos x the table below is complete. `tan` is quadratic exactly at the
/// multiples of π/12 and π/8 that are not poles.
pub fn trig_of_pi_multiple(f: Func, q: &BigRational) -> TrigExact {
    match f {
        Func::Cos => cos_table(q),
        Func::Sin => cos_table(&(r(1, 2) - q)),
        Func::Tan => tan_table(q),
        _ => TrigExact::NotQuadratic,
    }
}

fn cos_table(q: &BigRational) -> TrigExact {
    let mut t = reduce_mod(q, &r(2, 1));
    if t > BigRational::one() {
        t = r(2, 1) - t;
    }
    let mut sign = BigRational::one();
    if t > r(1, 2) {
        t = BigRational::one() - t;
        sign = -sign;
    }
    let z = BigRational::zero;
    let v = if t.is_zero() {
        qv(BigRational::one(), z(), 1)
    } else if t == r(1, 6) {
        qv(z(), r(1, 2), 3)
    } else if t == r(1, 4) {
        qv(z(), r(1, 2), 2)
    } else if t == r(1, 3) {
        qv(r(1, 2), z(), 1)
    } else if t == r(1, 2) {
        qv(z(), z(), 1)
    } else if t == r(1, 5) {
        qv(r(1, 4), r(1, 4), 5)
    } else if t == r(2, 5) {
        qv(r(-1, 4), r(1, 4), 5)
    } else {
        return TrigExact::NotQuadratic;
    };
    scale(v, &sign)
}

fn tan_table(q: &BigRational) -> TrigExact {
    let mut t = reduce_mod(q, &BigRational::one());
    if t == r(1, 2) {
        return TrigExact::Pole;
    }
    let mut sign = BigRational::one();
    if t > r(1, 2) {
        t = BigRational::one() - t;
        sign = -sign;
    }
    let z = BigRational::zero;
    let v = if t.is_zero() {
        qv(z(), z(), 1)
    } else if t == r(1, 12) {
        qv(r(2, 1), r(-1, 1), 3)
    } else if t == r(1, 8) {
        qv(r(-1, 1), r(1, 1), 2)
    } else if t == r(1, 6) {
        qv(z(), r(1, 3), 3)
    } else if t == r(1, 4) {
        qv(r(1, 1), z(), 1)
    } else if t == r(1, 3) {
        qv(z(), r(1, 1), 3)
    } else if t == r(3, 8) {
        qv(r(1, 1), r(1, 1), 2)
    } else if t == r(5, 12) {
        qv(r(2, 1), r(1, 1), 3)
    } else {
        return TrigExact::NotQuadratic;
    };
    scale(v, &sign)
}

fn scale(v: TrigExact, s: &BigRational) -> TrigExact {
    match v {
        TrigExact::Value(QuadValue { a, b, d }) => qv(a * s, b * s, d),
        other => other,
    }
}

/// Multiples `qπ` in (−π/2, π/2) whose tangent is in the table (for exact `atan`).
fn atan_candidates() -> Vec<BigRational> {
    let base = [(1, 12), (1, 8), (1, 6), (1, 4), (1, 3), (3, 8), (5, 12)];
    let mut out = vec![BigRational::zero()];
    for (n, d) in base {
        out.push(r(n, d));
        out.push(r(-n, d));
    }
    out
}

/// A value during evaluation: the backend's number, plus what is known exactly about it
/// (a rational, or a rational multiple of π).
#[derive(Clone, Debug)]
struct Val<S> {
    /// `None` only for a multiple of π in an exact backend (which cannot hold π).
    num: Option<S>,
    shadow: Shadow,
}

#[derive(Clone, Debug, PartialEq)]
enum Shadow {
    Rat(BigRational),
    Pi(BigRational),
    None,
}

impl Expr {
    /// Evaluates the expression in the backend `S`.
    pub fn eval<S: Scalar>(&self, ctx: &S::Ctx) -> Result<S, EvalError> {
        let v = Eval::<S> {
            src: &self.source,
            ctx,
            _s: std::marker::PhantomData,
        }
        .node(&self.root)?;
        let at = self.source.trim().to_string();
        match (v.num, v.shadow) {
            (Some(x), _) => Ok(x),
            (None, Shadow::Pi(q)) => Err(EvalError::Arith {
                error: ArithError::NotRepresentable {
                    what: format!("{at} = ({q})*pi, which is transcendental,"),
                    backend: S::NAME,
                    hint: "use an enclosure backend: --arith interval or --arith mpi:BITS".into(),
                },
                at,
            }),
            (None, _) => Err(EvalError::Arith {
                error: pi_alone::<S>(),
                at,
            }),
        }
    }

    /// The exact rational value, if the expression is a rational constant
    /// (`3/7 + 0.1`, `2^-3`); `None` if it involves π or functions.
    pub fn as_rational(&self) -> Option<BigRational> {
        match self.eval::<crate::arith::Rational>(&()) {
            Ok(q) => Some(q.to_big()),
            Err(_) => None,
        }
    }
}

fn pi_alone<S: Scalar>() -> ArithError {
    ArithError::NotRepresentable {
        what: "pi".into(),
        backend: S::NAME,
        hint: "exact backends accept pi only as a rational multiple inside sin, cos or tan; use an enclosure backend: --arith interval or --arith mpi:BITS".into(),
    }
}

struct Eval<'a, S: Scalar> {
    src: &'a str,
    ctx: &'a S::Ctx,
    _s: std::marker::PhantomData<S>,
}

impl<S: Scalar> Eval<'_, S> {
    fn text(&self, n: &Node) -> String {
        self.src[n.span.0..n.span.1].trim().to_string()
    }
    fn fail(&self, n: &Node, error: ArithError) -> EvalError {
        EvalError::Arith {
            error,
            at: self.text(n),
        }
    }
    fn need(&self, n: &Node, v: Val<S>) -> Result<S, EvalError> {
        v.num.ok_or_else(|| self.fail(n, pi_alone::<S>()))
    }
    fn rat(&self, q: BigRational) -> Val<S> {
        Val {
            num: Some(S::from_rational(&q, self.ctx)),
            shadow: Shadow::Rat(q),
        }
    }

    fn node(&self, n: &Node) -> Result<Val<S>, EvalError> {
        match &n.kind {
            NodeKind::Num(q) => Ok(self.rat(q.clone())),
            NodeKind::Pi => Ok(Val {
                num: S::pi(self.ctx).ok(),
                shadow: Shadow::Pi(BigRational::one()),
            }),
            NodeKind::Neg(a) => {
                let v = self.node(a)?;
                Ok(Val {
                    num: v.num.map(|x| -x),
                    shadow: match v.shadow {
                        Shadow::Rat(q) => Shadow::Rat(-q),
                        Shadow::Pi(q) => Shadow::Pi(-q),
                        Shadow::None => Shadow::None,
                    },
                })
            }
            NodeKind::Bin(op, a, b) => {
                let (va, vb) = (self.node(a)?, self.node(b)?);
                self.binary(n, *op, va, vb, b)
            }
            NodeKind::Call(f, a) => {
                if let (Func::Sin | Func::Cos | Func::Tan, NodeKind::Call(Func::Atan, inner)) =
                    (f, &a.kind)
                {
                    if S::kind() != Kind::Float {
                        return self.trig_of_atan(n, *f, inner);
                    }
                }
                let v = self.node(a)?;
                self.call(n, *f, v)
            }
        }
    }

    fn binary(
        &self,
        n: &Node,
        op: BinOp,
        a: Val<S>,
        b: Val<S>,
        bn: &Node,
    ) -> Result<Val<S>, EvalError> {
        if op == BinOp::Pow {
            return self.pow(n, a, b, bn);
        }
        use BinOp::*;
        use Shadow::{Pi, Rat};
        if let (Div, Rat(q) | Pi(q)) = (op, &b.shadow) {
            if q.is_zero() {
                return Err(self.fail(n, ArithError::DivisionByZero));
            }
        }
        let shadow = match (op, &a.shadow, &b.shadow) {
            (Add, Rat(x), Rat(y)) => Rat(x + y),
            (Sub, Rat(x), Rat(y)) => Rat(x - y),
            (Mul, Rat(x), Rat(y)) => Rat(x * y),
            (Div, Rat(x), Rat(y)) => Rat(x / y),
            (Add, Pi(x), Pi(y)) => Pi(x + y),
            (Sub, Pi(x), Pi(y)) => Pi(x - y),
            (Mul, Pi(x), Rat(y)) | (Mul, Rat(y), Pi(x)) => Pi(x * y),
            (Div, Pi(x), Rat(y)) => Pi(x / y),
            (Div, Pi(x), Pi(y)) => Rat(x / y),
            _ => Shadow::None,
        };
        let num = match (a.num, b.num) {
            (Some(x), Some(y)) => {
                x.compatible(&y).map_err(|e| self.fail(n, e))?;
                Some(match op {
                    Add => x + &y,
                    Sub => x - &y,
                    Mul => x * &y,
                    _ => x.checked_div(&y).map_err(|e| self.fail(n, e))?,
                })
            }
            _ => None,
        };
        let num = match (num, &shadow) {
            (Some(x), _) => Some(x),
            (None, Pi(_)) => None,
            (None, Rat(q)) => Some(S::from_rational(q, self.ctx)),
            (None, Shadow::None) => return Err(self.fail(n, pi_alone::<S>())),
        };
        Ok(Val { num, shadow })
    }

    fn pow(&self, n: &Node, a: Val<S>, b: Val<S>, bn: &Node) -> Result<Val<S>, EvalError> {
        let e = match &b.shadow {
            Shadow::Rat(q) if q.is_integer() => q.to_integer().to_i64(),
            _ => None,
        };
        let e = match e {
            Some(e) if e.abs() <= MAX_EXPONENT => e,
            _ => {
                return Err(self.fail(
                    n,
                    ArithError::Domain(format!(
                        "the exponent `{}` must be an integer of magnitude at most {MAX_EXPONENT}",
                        self.text(bn)
                    )),
                ))
            }
        };
        let shadow = match &a.shadow {
            Shadow::Rat(q) if !(q.is_zero() && e < 0) => Shadow::Rat(rat_pow(q, e)),
            Shadow::Pi(q) if e == 1 => Shadow::Pi(q.clone()),
            _ if e == 0 => Shadow::Rat(BigRational::one()),
            _ => Shadow::None,
        };
        if e == 1 {
            return Ok(Val { num: a.num, shadow });
        }
        let x = self.need(n, a)?;
        let num = x.powi(e).map_err(|err| self.fail(n, err))?;
        Ok(Val {
            num: Some(num),
            shadow,
        })
    }

    /// The exact table value `a + b√d` in the backend.
    fn quad(&self, v: &QuadValue) -> Result<S, ArithError> {
        let a = S::from_rational(&v.a, self.ctx);
        if v.b.is_zero() {
            return Ok(a);
        }
        let root = S::from_rational(&BigRational::from_integer(v.d.into()), self.ctx).sqrt()?;
        Ok(a + S::from_rational(&v.b, self.ctx) * &root)
    }

    fn call(&self, n: &Node, f: Func, v: Val<S>) -> Result<Val<S>, EvalError> {
        let text = self.text(n);
        if f == Func::Sqrt {
            let x = self.need(n, v.clone())?;
            let num = x.sqrt().map_err(|e| self.fail(n, rename_sqrt(e, &text)))?;
            let shadow = match &v.shadow {
                Shadow::Rat(q) => rational_sqrt(q).map_or(Shadow::None, Shadow::Rat),
                _ => Shadow::None,
            };
            return Ok(Val {
                num: Some(num),
                shadow,
            });
        }
        if f == Func::Atan {
            return self.atan(n, v, &text);
        }
        // sin, cos, tan: exact table for multiples of π (and for 0) in exact and enclosure
        // backends; rounded backends compute like a floating-point program.
        let multiple = match &v.shadow {
            Shadow::Pi(q) => Some(q.clone()),
            Shadow::Rat(q) if q.is_zero() => Some(BigRational::zero()),
            _ => None,
        };
        if S::kind() != Kind::Float {
            if let Some(q) = &multiple {
                match trig_of_pi_multiple(f, q) {
                    TrigExact::Value(qv) => {
                        let num = self
                            .quad(&qv)
                            .map_err(|e| self.fail(n, table_error::<S>(e, &text, &qv)))?;
                        let shadow = if qv.b.is_zero() {
                            Shadow::Rat(qv.a.clone())
                        } else {
                            Shadow::None
                        };
                        return Ok(Val {
                            num: Some(num),
                            shadow,
                        });
                    }
                    TrigExact::Pole => {
                        return Err(self.fail(
                            n,
                            ArithError::Domain(format!("{text} is undefined (a pole of tan)")),
                        ))
                    }
                    TrigExact::NotQuadratic => {}
                }
            }
        }
        if S::is_exact() {
            let what = match multiple {
                Some(_) => format!("{text} (not in any quadratic field Q(sqrt(d)))"),
                None => {
                    format!("{text} (sin, cos, tan are exact only at rational multiples of pi)")
                }
            };
            return Err(self.fail(
                n,
                ArithError::NotRepresentable {
                    what,
                    backend: S::NAME,
                    hint: "use an enclosure backend: --arith interval or --arith mpi:BITS".into(),
                },
            ));
        }
        let x = self.need(n, v)?;
        let num = match f {
            Func::Sin => x.sin(),
            Func::Cos => x.cos(),
            _ => x.tan(),
        }
        .map_err(|e| self.fail(n, e))?;
        Ok(Val {
            num: Some(num),
            shadow: Shadow::None,
        })
    }

    /// `tan(atan(x)) = x`, `sin(atan(x)) = x/√(1+x²)`, `cos(atan(x)) = 1/√(1+x²)`: exact
    /// identities, used by exact and enclosure backends (so `--alpha "atan(1/5)"` gives
    /// k = 1/5 exactly).
    fn trig_of_atan(&self, n: &Node, f: Func, inner: &Node) -> Result<Val<S>, EvalError> {
        let v = self.node(inner)?;
        if f == Func::Tan {
            return Ok(v);
        }
        let x = self.need(n, v)?;
        let r = (x.one_like() + x.square())
            .sqrt()
            .map_err(|e| self.fail(n, rename_sqrt(e, &self.text(n))))?;
        let top = if f == Func::Sin { x } else { r.one_like() };
        let num = top.checked_div(&r).map_err(|e| self.fail(n, e))?;
        Ok(Val {
            num: Some(num),
            shadow: Shadow::None,
        })
    }

    /// `atan`: in exact and enclosure backends, an argument equal to a table value of tan
    /// gives the exact multiple of π.
    fn atan(&self, n: &Node, v: Val<S>, text: &str) -> Result<Val<S>, EvalError> {
        let x = self.need(n, v)?;
        if S::kind() != Kind::Float {
            for q in atan_candidates() {
                let TrigExact::Value(qv) = tan_table(&q) else {
                    continue;
                };
                let Ok(t) = self.quad(&qv) else { continue };
                if x.compatible(&t).is_err() {
                    continue;
                }
                if (x.clone() - &t).sign() == crate::arith::Sign::Zero {
                    let pi = S::pi(self.ctx)
                        .ok()
                        .map(|p| p * S::from_rational(&q, self.ctx));
                    return Ok(Val {
                        num: pi,
                        shadow: Shadow::Pi(q),
                    });
                }
            }
        }
        if S::is_exact() {
            return Err(self.fail(
                n,
                ArithError::NotRepresentable {
                    what: format!(
                        "{text} (not a rational multiple of pi with a quadratic tangent)"
                    ),
                    backend: S::NAME,
                    hint: "use an enclosure backend: --arith interval or --arith mpi:BITS".into(),
                },
            ));
        }
        let num = x.atan().map_err(|e| self.fail(n, e))?;
        Ok(Val {
            num: Some(num),
            shadow: Shadow::None,
        })
    }
}

fn rat_pow(q: &BigRational, e: i64) -> BigRational {
    let p = num_traits::pow(q.clone(), e.unsigned_abs() as usize);
    if e < 0 {
        p.recip()
    } else {
        p
    }
}

fn rational_sqrt(q: &BigRational) -> Option<BigRational> {
    if q.is_negative() {
        return None;
    }
    let n = q.numer().sqrt();
    let d = q.denom().sqrt();
    (&n * &n == *q.numer() && &d * &d == *q.denom()).then(|| BigRational::new(n, d))
}

/// Names the whole `sqrt(...)` call in a not-representable error.
fn rename_sqrt(e: ArithError, text: &str) -> ArithError {
    match e {
        ArithError::NotRepresentable {
            what,
            backend,
            hint,
        } => {
            let what = if what.starts_with(text) || what.contains("irrational") {
                format!("{text}, which is irrational,")
            } else {
                format!("{text} = {what}")
            };
            ArithError::NotRepresentable {
                what,
                backend,
                hint,
            }
        }
        other => other,
    }
}

/// A table value the backend cannot hold (an irrational value in the rational backend).
fn table_error<S: Scalar>(e: ArithError, text: &str, v: &QuadValue) -> ArithError {
    match e {
        ArithError::NotRepresentable { .. } => {
            let exact = crate::arith::Quadratic::new(v.a.clone(), v.b.clone(), &BigInt::from(v.d))
                .map(|x| x.to_string())
                .unwrap_or_default();
            ArithError::NotRepresentable {
                what: format!("{text} = {exact}, which is irrational,"),
                backend: S::NAME,
                hint: "use --arith quadratic, or an enclosure backend: --arith interval or --arith mpi:BITS".into(),
            }
        }
        other => other,
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.source.trim())
    }
}
