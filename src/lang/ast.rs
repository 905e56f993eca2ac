//! The syntax tree of the language: one tree for numbers, operators, functions,
//! variables and (in [`Relation`](super::Relation)) comparisons.

use num_rational::BigRational;
use std::fmt;

/// Functions of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Func {
    Sqrt,
    Sin,
    Cos,
    Tan,
    Atan,
    /// `abs(x)`, evaluated as `sqrt(x^2)` where the sign of `x` is not decided.
    Abs,
    /// `root(x, k)`: the real k-th root ([`Scalar::root`](crate::arith::Scalar::root));
    /// the index k is an integer literal from 1 to [`MAX_ROOT_INDEX`].
    Root(u32),
}

/// The largest index k of `root(x, k)`.
pub const MAX_ROOT_INDEX: u32 = 1024;

impl Func {
    /// Every function, in the order of the error messages.
    pub const ALL: [Func; 7] = [
        Func::Sqrt,
        Func::Sin,
        Func::Cos,
        Func::Tan,
        Func::Atan,
        Func::Abs,
        Func::Root(0),
    ];

    /// The name in the input language.
    pub fn name(self) -> &'static str {
        match self {
            Func::Sqrt => "sqrt",
            Func::Sin => "sin",
            Func::Cos => "cos",
            Func::Tan => "tan",
            Func::Atan => "atan",
            Func::Abs => "abs",
            Func::Root(_) => "root",
        }
    }

    /// The function of that name (`Root(0)` for `root`, whose index the parser reads).
    pub fn from_name(name: &str) -> Option<Func> {
        Func::ALL.into_iter().find(|f| f.name() == name)
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

/// A node of the syntax tree, with its byte span in the source text.
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
    /// A variable (only in inputs parsed with variables).
    Var(String),
    Neg(Box<Node>),
    /// A left-associative chain `a op b op c …` of `+ -` or of `* /`, kept flat so that a
    /// long sum nests one level deep. Each operand carries its operator; the value of the
    /// prefix up to operand `i` spans from the chain's start to the end of operand `i`.
    Chain(Box<Node>, Vec<(BinOp, Node)>),
    /// `base ^ exponent`.
    Pow(Box<Node>, Box<Node>),
    Call(Func, Box<Node>),
}

/// A parsed expression together with its source text.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub source: String,
    pub root: Node,
}

impl Expr {
    /// The variables the expression uses, appended to `out` in order of first use.
    pub fn vars(&self, out: &mut Vec<String>) {
        self.root.vars(out);
    }

    /// The variable name, if the whole expression is one variable.
    pub fn as_var(&self) -> Option<&str> {
        match &self.root.kind {
            NodeKind::Var(v) => Some(v),
            _ => None,
        }
    }

    /// Whether `pi` occurs in the expression (its span, the first one).
    pub fn find_pi(&self) -> Option<(usize, usize)> {
        self.root.find(&|k| matches!(k, NodeKind::Pi))
    }
}

impl Node {
    fn children(&self) -> Vec<&Node> {
        match &self.kind {
            NodeKind::Num(_) | NodeKind::Pi | NodeKind::Var(_) => vec![],
            NodeKind::Neg(a) | NodeKind::Call(_, a) => vec![a],
            NodeKind::Pow(a, b) => vec![a, b],
            NodeKind::Chain(a, rest) => {
                let mut v: Vec<&Node> = vec![a];
                v.extend(rest.iter().map(|(_, n)| n));
                v
            }
        }
    }

    fn vars(&self, out: &mut Vec<String>) {
        if let NodeKind::Var(v) = &self.kind {
            if !out.contains(v) {
                out.push(v.clone());
            }
        }
        for c in self.children() {
            c.vars(out);
        }
    }

    fn find(&self, pred: &dyn Fn(&NodeKind) -> bool) -> Option<(usize, usize)> {
        if pred(&self.kind) {
            return Some(self.span);
        }
        self.children().into_iter().find_map(|c| c.find(pred))
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.source.trim())
    }
}
