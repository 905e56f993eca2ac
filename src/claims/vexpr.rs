//! Expressions with variables, for claims: the input language of [`crate::expr`]
//! (numbers read exactly, `+ - * / ^`, `sqrt`) plus named variables (`k`, `xi`, `eps1`),
//! `abs(x)` (as `sqrt(x^2)`), and relations `a < b`, `a <= b`, `a > b`, `a >= b`,
//! `a == b`, `a != b`.
//!
//! The same tree is evaluated on every backend: exactly (`Rational`) at sample points,
//! and as a rigorous enclosure (`Interval`, `MpInterval`) over boxes by the
//! branch-and-bound of the `inequality` kind. Kept here (rather than in `expr.rs`, whose
//! language has no variables) so that the product's input language stays unchanged.

use crate::arith::{Scalar, Sign};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// A node of an expression with variables.
#[derive(Clone, Debug, PartialEq)]
pub enum VNode {
    Num(BigRational),
    Var(String),
    Neg(Box<VNode>),
    Add(Box<VNode>, Box<VNode>),
    Sub(Box<VNode>, Box<VNode>),
    Mul(Box<VNode>, Box<VNode>),
    Div(Box<VNode>, Box<VNode>),
    Pow(Box<VNode>, i64),
    Sqrt(Box<VNode>),
    Abs(Box<VNode>),
}

/// A comparison operator of a relation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Rel {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            Rel::Lt => "<",
            Rel::Le => "<=",
            Rel::Gt => ">",
            Rel::Ge => ">=",
            Rel::Eq => "==",
            Rel::Ne => "!=",
        }
    }
    /// Whether a difference `lhs - rhs` of the given (decided) sign satisfies the relation.
    pub fn holds(self, s: Sign) -> bool {
        match self {
            Rel::Lt => s == Sign::Negative,
            Rel::Le => s != Sign::Positive,
            Rel::Gt => s == Sign::Positive,
            Rel::Ge => s != Sign::Negative,
            Rel::Eq => s == Sign::Zero,
            Rel::Ne => s != Sign::Zero,
        }
    }
}

/// `lhs REL rhs`, e.g. `x1^2 + y1^2 == x^2 + y^2`.
#[derive(Clone, Debug, PartialEq)]
pub struct Relation {
    pub text: String,
    pub lhs: VNode,
    pub rel: Rel,
    pub rhs: VNode,
}

/// Variable values by name.
pub type Env<S> = BTreeMap<String, S>;

/// Parses an expression with variables.
pub fn parse(src: &str) -> Result<VNode, String> {
    let toks = lex(src)?;
    let mut p = Parser { toks, pos: 0 };
    let n = p.expr(0)?;
    if p.pos != p.toks.len() {
        return Err(format!("unexpected {:?} in \"{src}\"", p.toks[p.pos]));
    }
    Ok(n)
}

/// Parses a relation `lhs OP rhs` (exactly one comparison operator).
pub fn parse_relation(src: &str) -> Result<Relation, String> {
    let ops = [
        ("<=", Rel::Le),
        (">=", Rel::Ge),
        ("==", Rel::Eq),
        ("!=", Rel::Ne),
        ("<", Rel::Lt),
        (">", Rel::Gt),
    ];
    for (s, r) in ops {
        if let Some(i) = src.find(s) {
            let (l, rest) = src.split_at(i);
            let rhs = &rest[s.len()..];
            if rhs.contains(['<', '>', '=', '!']) {
                return Err(format!("more than one comparison in \"{src}\""));
            }
            return Ok(Relation {
                text: src.trim().to_string(),
                lhs: parse(l)?,
                rel: r,
                rhs: parse(rhs)?,
            });
        }
    }
    Err(format!(
        "\"{src}\" is not a relation (expected one of < <= > >= == !=)"
    ))
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(BigRational),
    Id(String),
    Op(char),
}

fn lex(src: &str) -> Result<Vec<Tok>, String> {
    let cs: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || c == '.' {
            let st = i;
            while i < cs.len() && (cs[i].is_ascii_digit() || cs[i] == '.') {
                i += 1;
            }
            if i < cs.len()
                && (cs[i] == 'e' || cs[i] == 'E')
                && i + 1 < cs.len()
                && (cs[i + 1].is_ascii_digit() || cs[i + 1] == '-' || cs[i + 1] == '+')
            {
                i += 2;
                while i < cs.len() && cs[i].is_ascii_digit() {
                    i += 1;
                }
            }
            let s: String = cs[st..i].iter().collect();
            out.push(Tok::Num(number(&s)?));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let st = i;
            while i < cs.len() && (cs[i].is_ascii_alphanumeric() || cs[i] == '_' || cs[i] == '.') {
                i += 1;
            }
            out.push(Tok::Id(cs[st..i].iter().collect()));
        } else if "+-*/^(),".contains(c) {
            out.push(Tok::Op(c));
            i += 1;
        } else {
            return Err(format!("unexpected character '{c}' in \"{src}\""));
        }
    }
    Ok(out)
}

/// A decimal literal read exactly (`0.9` = 9/10, `4.5e-16` = 45/10^17).
fn number(s: &str) -> Result<BigRational, String> {
    let (mant, exp) = match s.find(['e', 'E']) {
        Some(i) => (
            &s[..i],
            s[i + 1..]
                .parse::<i64>()
                .map_err(|_| format!("bad exponent in {s}"))?,
        ),
        None => (s, 0),
    };
    let (ip, fp) = mant.split_once('.').unwrap_or((mant, ""));
    if (ip.is_empty() && fp.is_empty()) || fp.contains('.') || exp.abs() > 1000 {
        return Err(format!("bad number {s}"));
    }
    let digits: BigInt = format!("{ip}{fp}")
        .parse()
        .map_err(|_| format!("bad number {s}"))?;
    let e = exp - fp.len() as i64;
    let ten = BigInt::from(10);
    let p = num_traits::pow(ten, e.unsigned_abs() as usize);
    Ok(if e >= 0 {
        BigRational::from_integer(digits * p)
    } else {
        BigRational::new(digits, p)
    })
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Op(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expr(&mut self, depth: usize) -> Result<VNode, String> {
        if depth > 100 {
            return Err("expression nested too deeply".into());
        }
        let mut l = self.term(depth)?;
        loop {
            if self.eat('+') {
                l = VNode::Add(Box::new(l), Box::new(self.term(depth)?));
            } else if self.eat('-') {
                l = VNode::Sub(Box::new(l), Box::new(self.term(depth)?));
            } else {
                return Ok(l);
            }
        }
    }
    fn term(&mut self, depth: usize) -> Result<VNode, String> {
        let mut l = self.unary(depth)?;
        loop {
            if self.eat('*') {
                l = VNode::Mul(Box::new(l), Box::new(self.unary(depth)?));
            } else if self.eat('/') {
                l = VNode::Div(Box::new(l), Box::new(self.unary(depth)?));
            } else {
                return Ok(l);
            }
        }
    }
    fn unary(&mut self, depth: usize) -> Result<VNode, String> {
        if self.eat('-') {
            return Ok(VNode::Neg(Box::new(self.unary(depth + 1)?)));
        }
        if self.eat('+') {
            return self.unary(depth + 1);
        }
        let base = self.atom(depth)?;
        if self.eat('^') {
            let neg = self.eat('-');
            let paren = self.eat('(');
            let neg = neg || (paren && self.eat('-'));
            let n = match self.toks.get(self.pos) {
                Some(Tok::Num(q)) if q.is_integer() => q.to_integer(),
                _ => return Err("the exponent of ^ must be an integer".into()),
            };
            self.pos += 1;
            if paren && !self.eat(')') {
                return Err("missing ) in exponent".into());
            }
            let n: i64 = n
                .try_into()
                .ok()
                .filter(|n: &i64| n.abs() <= 1000)
                .ok_or("exponent too large")?;
            return Ok(VNode::Pow(Box::new(base), if neg { -n } else { n }));
        }
        Ok(base)
    }
    fn atom(&mut self, depth: usize) -> Result<VNode, String> {
        match self.toks.get(self.pos).cloned() {
            Some(Tok::Num(q)) => {
                self.pos += 1;
                Ok(VNode::Num(q))
            }
            Some(Tok::Op('(')) => {
                self.pos += 1;
                let e = self.expr(depth + 1)?;
                if !self.eat(')') {
                    return Err("missing )".into());
                }
                Ok(e)
            }
            Some(Tok::Id(name)) => {
                self.pos += 1;
                if self.peek() == Some(&Tok::Op('(')) {
                    self.pos += 1;
                    let e = self.expr(depth + 1)?;
                    if !self.eat(')') {
                        return Err("missing )".into());
                    }
                    return match name.as_str() {
                        "sqrt" => Ok(VNode::Sqrt(Box::new(e))),
                        "abs" => Ok(VNode::Abs(Box::new(e))),
                        f => Err(format!("unknown function {f}")),
                    };
                }
                Ok(VNode::Var(name))
            }
            other => Err(format!("unexpected {other:?}")),
        }
    }
}

impl VNode {
    /// The variables the expression uses.
    pub fn vars(&self, out: &mut Vec<String>) {
        match self {
            VNode::Num(_) => {}
            VNode::Var(v) => {
                if !out.contains(v) {
                    out.push(v.clone())
                }
            }
            VNode::Neg(a) | VNode::Pow(a, _) | VNode::Sqrt(a) | VNode::Abs(a) => a.vars(out),
            VNode::Add(a, b) | VNode::Sub(a, b) | VNode::Mul(a, b) | VNode::Div(a, b) => {
                a.vars(out);
                b.vars(out)
            }
        }
    }

    /// Evaluates the expression on a backend, with the variables of `env`.
    pub fn eval<S: Scalar>(&self, env: &Env<S>, ctx: &S::Ctx) -> Result<S, String> {
        self.eval_with(env, ctx, &|x: &S| x.sqrt().map_err(|e| e.to_string()))
    }

    /// [`VNode::eval`] with a given square root (the branch-and-bound uses one that
    /// encloses √x over the points of an enclosure where x ≥ 0).
    pub fn eval_with<S: Scalar>(
        &self,
        env: &Env<S>,
        ctx: &S::Ctx,
        sqrt: &dyn Fn(&S) -> Result<S, String>,
    ) -> Result<S, String> {
        let ev = |n: &VNode| n.eval_with(env, ctx, sqrt);
        Ok(match self {
            VNode::Num(q) => S::from_rational(q, ctx),
            VNode::Var(v) => env
                .get(v)
                .cloned()
                .ok_or_else(|| format!("unknown variable {v}"))?,
            VNode::Neg(a) => -ev(a)?,
            VNode::Add(a, b) => ev(a)? + &ev(b)?,
            VNode::Sub(a, b) => ev(a)? - &ev(b)?,
            VNode::Mul(a, b) => ev(a)? * &ev(b)?,
            VNode::Div(a, b) => ev(a)?.checked_div(&ev(b)?).map_err(|e| e.to_string())?,
            VNode::Pow(a, n) => ev(a)?.powi(*n).map_err(|e| e.to_string())?,
            VNode::Sqrt(a) => sqrt(&ev(a)?)?,
            VNode::Abs(a) => sqrt(&ev(a)?.square())?,
        })
    }
}

impl Relation {
    /// The sign of `lhs - rhs` on a backend.
    pub fn sign<S: Scalar>(&self, env: &Env<S>, ctx: &S::Ctx) -> Result<Sign, String> {
        self.sign_with(env, ctx, &|x: &S| x.sqrt().map_err(|e| e.to_string()))
    }
    /// [`Relation::sign`] with a given square root.
    pub fn sign_with<S: Scalar>(
        &self,
        env: &Env<S>,
        ctx: &S::Ctx,
        sqrt: &dyn Fn(&S) -> Result<S, String>,
    ) -> Result<Sign, String> {
        Ok((self.lhs.eval_with(env, ctx, sqrt)? - &self.rhs.eval_with(env, ctx, sqrt)?).sign())
    }
    /// [`Relation::decide`] with a given square root.
    pub fn decide_with<S: Scalar>(
        &self,
        env: &Env<S>,
        ctx: &S::Ctx,
        sqrt: &dyn Fn(&S) -> Result<S, String>,
    ) -> Result<Option<bool>, String> {
        let s = self.sign_with(env, ctx, sqrt)?;
        Ok((s != Sign::Unknown).then(|| self.rel.holds(s)))
    }
    /// `Some(true/false)` when decided, `None` when the sign is unknown (enclosures).
    pub fn decide<S: Scalar>(&self, env: &Env<S>, ctx: &S::Ctx) -> Result<Option<bool>, String> {
        let s = self.sign(env, ctx)?;
        Ok((s != Sign::Unknown).then(|| self.rel.holds(s)))
    }
    /// The variables both sides use.
    pub fn vars(&self, out: &mut Vec<String>) {
        self.lhs.vars(out);
        self.rhs.vars(out);
    }
}

/// Parses an input-language rational ("1/3", "0.9", "-2") exactly.
pub fn rational(src: &str) -> Result<BigRational, String> {
    let n = parse(src)?;
    let r = n.eval::<crate::arith::Rational>(&Env::new(), &())?;
    Ok(r.to_big())
}

/// Renders an exact rational in the input language ("-29/28", "3").
pub fn show(q: &BigRational) -> String {
    if q.denom().is_one() {
        q.numer().to_string()
    } else {
        format!("{}/{}", q.numer(), q.denom())
    }
}

/// `true` if `q` is zero.
pub fn is_zero(q: &BigRational) -> bool {
    q.is_zero()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::{Interval, Rational};

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn parses_and_evaluates_exactly() {
        let e = parse("(1-t^2)/(1+t^2) + 2*x^-1 - abs(-3/4) + 0.5e-1").unwrap();
        let mut env = Env::new();
        env.insert("t".into(), Rational::from_big(&q(1, 2)));
        env.insert("x".into(), Rational::from_big(&q(4, 1)));
        // 3/5 + 1/2 - 3/4 + 1/20 = 2/5
        assert_eq!(e.eval(&env, &()).unwrap().to_big(), q(2, 5));
        assert_eq!(rational("-2^2").unwrap(), q(-4, 1));
    }

    #[test]
    fn relations_and_enclosures() {
        let r = parse_relation("x^2 - 2 < 0").unwrap();
        let mut env = Env::new();
        env.insert("x".into(), Interval::from_rational(&q(7, 5), &()));
        assert_eq!(r.decide(&env, &()).unwrap(), Some(true));
        env.insert("x".into(), Interval::from_rational(&q(3, 2), &()));
        assert_eq!(r.decide(&env, &()).unwrap(), Some(false));
        assert!(parse_relation("a < b < c").is_err());
        assert!(parse("x +").is_err());
        assert!(parse("foo(2)").is_err());
    }
}
