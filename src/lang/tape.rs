//! Expressions of the language compiled to straight-line programs, with exact symbolic
//! derivatives: what the general time stepper (`system::lagrangian`) evaluates at every
//! Newton iteration. A [`Graph`] holds expressions as a DAG of shared nodes (one node per
//! distinct operation, so a subexpression is computed once); [`Graph::diff`] builds ∂e/∂x
//! in the same graph by the rules of calculus (the result is the exact derivative, not a
//! numerical one), [`Graph::subst`] substitutes expressions for inputs (the chain rule
//! then follows by `diff`), and a [`Program`] is the list of the nodes some outputs need,
//! in order, run on any backend over one reusable register file.
//!
//! Evaluating the derivative's expression on an enclosure backend encloses the derivative
//! over the box (its natural interval extension), as evaluating the function encloses the
//! function: the Krawczyk step's J(V) relies on exactly that.

use super::ast::{BinOp, Expr, Func, Node, NodeKind};
use crate::arith::{ArithError, Scalar};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::HashMap;

/// A node of a [`Graph`].
pub type Id = usize;

/// The operation of a node; its operands are earlier nodes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Op {
    /// The program's input of this slot.
    Input(usize),
    Rat(BigRational),
    /// A named constant (a parameter, `pi`), its value given when a program is bound.
    Named(usize),
    Add(Id, Id),
    Sub(Id, Id),
    Mul(Id, Id),
    Div(Id, Id),
    Neg(Id),
    Pow(Id, i64),
    Call(Func, Id),
}

/// Expressions as a DAG of shared nodes (hash-consed: an operation on the same operands is
/// one node), with the algebraic identities 0 + x = x, 1·x = x, 0·x = 0, x − x = 0,
/// −(−x) = x, rational constant folding, and negations moved outwards and absorbed
/// (a + (−b) = a − b, (−a)·b = −(a·b)), applied as nodes are made; each is exact on every
/// backend (negation is exact in interval arithmetic too).
#[derive(Clone, Debug, Default)]
pub struct Graph {
    ops: Vec<Op>,
    index: HashMap<Op, Id>,
}

/// What a variable of a compiled expression stands for.
pub type Names = HashMap<String, Id>;

impl Graph {
    pub fn new() -> Self {
        Self::default()
    }

    fn intern(&mut self, op: Op) -> Id {
        if let Some(&id) = self.index.get(&op) {
            return id;
        }
        self.ops.push(op.clone());
        self.index.insert(op, self.ops.len() - 1);
        self.ops.len() - 1
    }

    fn rat_of(&self, a: Id) -> Option<&BigRational> {
        match &self.ops[a] {
            Op::Rat(q) => Some(q),
            _ => None,
        }
    }

    fn is(&self, a: Id, v: i64) -> bool {
        self.rat_of(a) == Some(&BigRational::from_integer(v.into()))
    }

    /// The input of `slot`.
    pub fn input(&mut self, slot: usize) -> Id {
        self.intern(Op::Input(slot))
    }

    /// The named constant `k`.
    pub fn named(&mut self, k: usize) -> Id {
        self.intern(Op::Named(k))
    }

    pub fn rat(&mut self, q: BigRational) -> Id {
        self.intern(Op::Rat(q))
    }

    pub fn int(&mut self, v: i64) -> Id {
        self.rat(BigRational::from_integer(v.into()))
    }

    /// x if `a` is −x.
    fn negated(&self, a: Id) -> Option<Id> {
        match self.ops[a] {
            Op::Neg(x) => Some(x),
            _ => None,
        }
    }

    pub fn add(&mut self, a: Id, b: Id) -> Id {
        if let (Some(x), Some(y)) = (self.rat_of(a), self.rat_of(b)) {
            let s = x + y;
            return self.rat(s);
        }
        if let Some(y) = self.negated(b) {
            return self.sub(a, y);
        }
        if let Some(x) = self.negated(a) {
            return self.sub(b, x);
        }
        if self.is(a, 0) {
            return b;
        }
        if self.is(b, 0) {
            return a;
        }
        self.intern(Op::Add(a, b))
    }

    pub fn sub(&mut self, a: Id, b: Id) -> Id {
        if let (Some(x), Some(y)) = (self.rat_of(a), self.rat_of(b)) {
            let s = x - y;
            return self.rat(s);
        }
        if a == b {
            return self.int(0);
        }
        if let Some(y) = self.negated(b) {
            return self.add(a, y);
        }
        if let Some(x) = self.negated(a) {
            let s = self.add(x, b);
            return self.neg(s);
        }
        if self.is(b, 0) {
            return a;
        }
        if self.is(a, 0) {
            return self.neg(b);
        }
        self.intern(Op::Sub(a, b))
    }

    pub fn mul(&mut self, a: Id, b: Id) -> Id {
        if let (Some(x), Some(y)) = (self.rat_of(a), self.rat_of(b)) {
            let s = x * y;
            return self.rat(s);
        }
        if self.is(a, 0) || self.is(b, 0) {
            return self.int(0);
        }
        if self.is(a, 1) {
            return b;
        }
        if self.is(b, 1) {
            return a;
        }
        if self.is(a, -1) {
            return self.neg(b);
        }
        if self.is(b, -1) {
            return self.neg(a);
        }
        if let Some(x) = self.negated(a) {
            let s = self.mul(x, b);
            return self.neg(s);
        }
        if let Some(y) = self.negated(b) {
            let s = self.mul(a, y);
            return self.neg(s);
        }
        self.intern(Op::Mul(a, b))
    }

    /// a / b (a division by the constant 0 stays, to fail when evaluated).
    pub fn div(&mut self, a: Id, b: Id) -> Id {
        match (self.rat_of(a), self.rat_of(b)) {
            (Some(x), Some(y)) if !y.is_zero() => {
                let s = x / y;
                return self.rat(s);
            }
            (_, Some(y)) if y.is_one() => return a,
            _ => {}
        }
        if let Some(x) = self.negated(a) {
            let s = self.div(x, b);
            return self.neg(s);
        }
        if let Some(y) = self.negated(b) {
            let s = self.div(a, y);
            return self.neg(s);
        }
        self.intern(Op::Div(a, b))
    }

    pub fn neg(&mut self, a: Id) -> Id {
        if let Some(x) = self.rat_of(a) {
            let s = -x;
            return self.rat(s);
        }
        if let Op::Neg(x) = self.ops[a] {
            return x;
        }
        self.intern(Op::Neg(a))
    }

    pub fn pow(&mut self, a: Id, e: i64) -> Id {
        match e {
            0 => self.int(1),
            1 => a,
            _ => self.intern(Op::Pow(a, e)),
        }
    }

    pub fn call(&mut self, f: Func, a: Id) -> Id {
        self.intern(Op::Call(f, a))
    }

    /// The sum of `terms` (0 for none).
    pub fn sum(&mut self, terms: impl IntoIterator<Item = Id>) -> Id {
        let zero = self.int(0);
        terms.into_iter().fold(zero, |s, t| self.add(s, t))
    }

    /// The expression `e`, its variables and `pi` looked up in `names` (`pi` under the
    /// name "pi"). The error names what cannot be compiled.
    pub fn compile(&mut self, e: &Expr, names: &Names) -> Result<Id, String> {
        self.node(&e.root, &e.source, names)
    }

    fn node(&mut self, n: &Node, src: &str, names: &Names) -> Result<Id, String> {
        Ok(match &n.kind {
            NodeKind::Num(q) => self.rat(q.clone()),
            NodeKind::Pi => *names.get("pi").ok_or("pi is not available here")?,
            NodeKind::Var(v) => *names
                .get(v)
                .ok_or_else(|| format!("unknown variable `{v}`"))?,
            NodeKind::Neg(a) => {
                let x = self.node(a, src, names)?;
                self.neg(x)
            }
            NodeKind::Chain(first, rest) => {
                let mut acc = self.node(first, src, names)?;
                for (op, b) in rest {
                    let y = self.node(b, src, names)?;
                    acc = match op {
                        BinOp::Add => self.add(acc, y),
                        BinOp::Sub => self.sub(acc, y),
                        BinOp::Mul => self.mul(acc, y),
                        BinOp::Div => self.div(acc, y),
                        BinOp::Pow => unreachable!("`^` is not a chain operator"),
                    };
                }
                acc
            }
            NodeKind::Pow(a, b) => {
                let text = &src[b.span.0..b.span.1];
                let exp = Expr {
                    source: text.to_string(),
                    root: (**b).clone(),
                }
                .as_rational()
                .filter(|q| q.is_integer())
                .and_then(|q| q.to_integer().to_i64())
                .filter(|e| e.abs() <= super::limits::MAX_EXPONENT)
                .ok_or_else(|| format!("the exponent `{text}` is not an integer constant"))?;
                let x = self.node(a, src, names)?;
                self.pow(x, exp)
            }
            NodeKind::Call(f, a) => {
                let x = self.node(a, src, names)?;
                self.call(*f, x)
            }
        })
    }

    /// ∂e/∂(input `slot`), exact, as a node of this graph.
    pub fn diff(&mut self, e: Id, slot: usize) -> Id {
        let mut memo = HashMap::new();
        self.diff_memo(e, slot, &mut memo)
    }

    fn diff_memo(&mut self, e: Id, slot: usize, memo: &mut HashMap<Id, Id>) -> Id {
        if let Some(&d) = memo.get(&e) {
            return d;
        }
        let d = match self.ops[e].clone() {
            Op::Input(s) => self.int(i64::from(s == slot)),
            Op::Rat(_) | Op::Named(_) => self.int(0),
            Op::Add(a, b) => {
                let (da, db) = (self.diff_memo(a, slot, memo), self.diff_memo(b, slot, memo));
                self.add(da, db)
            }
            Op::Sub(a, b) => {
                let (da, db) = (self.diff_memo(a, slot, memo), self.diff_memo(b, slot, memo));
                self.sub(da, db)
            }
            Op::Mul(a, b) => {
                let (da, db) = (self.diff_memo(a, slot, memo), self.diff_memo(b, slot, memo));
                let (x, y) = (self.mul(da, b), self.mul(a, db));
                self.add(x, y)
            }
            Op::Div(a, b) => {
                // (a/b)' = a'/b − (a/b)·b'/b
                let (da, db) = (self.diff_memo(a, slot, memo), self.diff_memo(b, slot, memo));
                let x = self.div(da, b);
                let y = self.mul(e, db);
                let y = self.div(y, b);
                self.sub(x, y)
            }
            Op::Neg(a) => {
                let da = self.diff_memo(a, slot, memo);
                self.neg(da)
            }
            Op::Pow(a, k) => {
                let da = self.diff_memo(a, slot, memo);
                let c = self.int(k);
                let p = self.pow(a, k - 1);
                let x = self.mul(c, p);
                self.mul(x, da)
            }
            Op::Call(f, a) => {
                let da = self.diff_memo(a, slot, memo);
                if self.is(da, 0) {
                    da
                } else {
                    let outer = self.outer_derivative(f, a, e);
                    self.mul(outer, da)
                }
            }
        };
        memo.insert(e, d);
        d
    }

    /// f′(a), with `e` = f(a).
    fn outer_derivative(&mut self, f: Func, a: Id, e: Id) -> Id {
        match f {
            Func::Sin => self.call(Func::Cos, a),
            Func::Cos => {
                let s = self.call(Func::Sin, a);
                self.neg(s)
            }
            Func::Tan => {
                let (one, sq) = (self.int(1), self.pow(e, 2));
                self.add(one, sq)
            }
            Func::Atan => {
                let (one, sq) = (self.int(1), self.pow(a, 2));
                let d = self.add(one, sq);
                self.div(one, d)
            }
            Func::Sqrt => {
                let two = self.int(2);
                let d = self.mul(two, e);
                let one = self.int(1);
                self.div(one, d)
            }
            // |a|′ = a/|a| (undefined at 0, where the division fails)
            Func::Abs => self.div(a, e),
            // (a^(1/k))′ = a^(1/k) / (k a)
            Func::Root(k) => {
                let c = self.int(i64::from(k));
                let d = self.mul(c, a);
                self.div(e, d)
            }
        }
    }

    /// `e` with the inputs of `map`'s slots replaced by its nodes.
    pub fn subst(&mut self, e: Id, map: &HashMap<usize, Id>) -> Id {
        let mut memo = HashMap::new();
        self.subst_memo(e, map, &mut memo)
    }

    fn subst_memo(&mut self, e: Id, map: &HashMap<usize, Id>, memo: &mut HashMap<Id, Id>) -> Id {
        if let Some(&d) = memo.get(&e) {
            return d;
        }
        let mut go = |g: &mut Self, x: Id| g.subst_memo(x, map, memo);
        let r = match self.ops[e].clone() {
            Op::Input(s) => map.get(&s).copied().unwrap_or(e),
            Op::Rat(_) | Op::Named(_) => e,
            Op::Add(a, b) => {
                let (x, y) = (go(self, a), go(self, b));
                self.add(x, y)
            }
            Op::Sub(a, b) => {
                let (x, y) = (go(self, a), go(self, b));
                self.sub(x, y)
            }
            Op::Mul(a, b) => {
                let (x, y) = (go(self, a), go(self, b));
                self.mul(x, y)
            }
            Op::Div(a, b) => {
                let (x, y) = (go(self, a), go(self, b));
                self.div(x, y)
            }
            Op::Neg(a) => {
                let x = go(self, a);
                self.neg(x)
            }
            Op::Pow(a, k) => {
                let x = go(self, a);
                self.pow(x, k)
            }
            Op::Call(f, a) => {
                let x = go(self, a);
                self.call(f, x)
            }
        };
        memo.insert(e, r);
        r
    }
}

/// An instruction of a [`Program`]; operands are register numbers (earlier registers).
#[derive(Clone, Debug)]
enum Instr {
    Add(usize, usize),
    Sub(usize, usize),
    Mul(usize, usize),
    Div(usize, usize),
    Neg(usize),
    Pow(usize, i64),
    Call(Func, usize),
}

/// A constant of a program, lifted into the backend when the program is bound.
#[derive(Clone, Debug)]
enum Const {
    Rat(BigRational),
    Named(usize),
}

/// The nodes some outputs need, in order, one register each: first the constants, then
/// the operations on constants alone (computed once, when the program is bound: a
/// parameter's expression such as `(m1 + m2)*l1^2` costs nothing per run), then the
/// inputs, then the operations that depend on them.
#[derive(Clone, Debug)]
pub struct Program {
    consts: Vec<Const>,
    prelude: Vec<Instr>,
    /// The number of inputs (slots `base..base + inputs`).
    inputs: usize,
    body: Vec<Instr>,
    /// The register of each output.
    outputs: Vec<usize>,
}

impl Program {
    /// The program computing `outputs` of `g` from the `inputs` slots `base..base + inputs`.
    pub fn new(g: &Graph, outputs: &[Id], base: usize, inputs: usize) -> Program {
        let mut needed = vec![false; g.ops.len()];
        for &o in outputs {
            needed[o] = true;
        }
        for id in (0..g.ops.len()).rev() {
            if !needed[id] {
                continue;
            }
            match g.ops[id] {
                Op::Add(a, b) | Op::Sub(a, b) | Op::Mul(a, b) | Op::Div(a, b) => {
                    needed[a] = true;
                    needed[b] = true;
                }
                Op::Neg(a) | Op::Pow(a, _) | Op::Call(_, a) => needed[a] = true,
                Op::Input(_) | Op::Rat(_) | Op::Named(_) => {}
            }
        }
        // free: no input below
        let mut free = vec![true; g.ops.len()];
        for id in 0..g.ops.len() {
            free[id] = match g.ops[id] {
                Op::Input(_) => false,
                Op::Rat(_) | Op::Named(_) => true,
                Op::Add(a, b) | Op::Sub(a, b) | Op::Mul(a, b) | Op::Div(a, b) => free[a] && free[b],
                Op::Neg(a) | Op::Pow(a, _) | Op::Call(_, a) => free[a],
            };
        }
        let mut reg = vec![usize::MAX; g.ops.len()];
        let mut consts = Vec::new();
        for id in (0..g.ops.len()).filter(|&i| needed[i]) {
            let c = match &g.ops[id] {
                Op::Rat(q) => Const::Rat(q.clone()),
                Op::Named(k) => Const::Named(*k),
                _ => continue,
            };
            reg[id] = consts.len();
            consts.push(c);
        }
        let ops = |want_free: bool, next: &mut usize, reg: &mut Vec<usize>| {
            let mut code = Vec::new();
            for id in (0..g.ops.len()).filter(|&i| needed[i] && free[i] == want_free) {
                let r = |x: Id| reg[x];
                let instr = match &g.ops[id] {
                    Op::Input(_) | Op::Rat(_) | Op::Named(_) => continue,
                    Op::Add(a, b) => Instr::Add(r(*a), r(*b)),
                    Op::Sub(a, b) => Instr::Sub(r(*a), r(*b)),
                    Op::Mul(a, b) => Instr::Mul(r(*a), r(*b)),
                    Op::Div(a, b) => Instr::Div(r(*a), r(*b)),
                    Op::Neg(a) => Instr::Neg(r(*a)),
                    Op::Pow(a, k) => Instr::Pow(r(*a), *k),
                    Op::Call(f, a) => Instr::Call(*f, r(*a)),
                };
                reg[id] = *next;
                *next += 1;
                code.push(instr);
            }
            code
        };
        let mut next = consts.len();
        let prelude = ops(true, &mut next, &mut reg);
        for id in (0..g.ops.len()).filter(|&i| needed[i]) {
            if let Op::Input(s) = g.ops[id] {
                assert!(
                    s >= base && s < base + inputs,
                    "input slot {s} outside the program's"
                );
                reg[id] = next + (s - base);
            }
        }
        next += inputs;
        let body = ops(false, &mut next, &mut reg);
        Program {
            consts,
            prelude,
            inputs,
            body,
            outputs: outputs.iter().map(|&o| reg[o]).collect(),
        }
    }

    /// The number of operations a run computes.
    pub fn len(&self) -> usize {
        self.body.len()
    }

    pub fn is_empty(&self) -> bool {
        self.body.is_empty()
    }

    /// The program in backend `S`, the named constants taking the values `named` (a
    /// constant the program does not use may be `None`; a used one that is `None` is the
    /// error `missing`); the operations on constants alone are computed here.
    pub fn bind<S: Scalar>(
        &self,
        named: &[Option<S>],
        ctx: &S::Ctx,
        missing: impl Fn(usize) -> ArithError,
    ) -> Result<Code<S>, ArithError> {
        let mut pre: Vec<S> = self
            .consts
            .iter()
            .map(|c| match c {
                Const::Rat(q) => Ok(S::from_rational(q, ctx)),
                Const::Named(k) => named[*k].clone().ok_or_else(|| missing(*k)),
            })
            .collect::<Result<_, _>>()?;
        for instr in &self.prelude {
            let x = exec(instr, &pre)?;
            pre.push(x);
        }
        Ok(Code {
            program: self.clone(),
            pre,
        })
    }
}

/// A [`Program`] bound to a backend.
#[derive(Clone, Debug)]
pub struct Code<S> {
    program: Program,
    /// The registers before the inputs: the constants and the operations on them.
    pre: Vec<S>,
}

#[inline(always)]
fn exec<S: Scalar>(instr: &Instr, regs: &[S]) -> Result<S, ArithError> {
    Ok(match *instr {
        Instr::Add(a, b) => regs[a].add_r(&regs[b]),
        Instr::Sub(a, b) => regs[a].sub_r(&regs[b]),
        Instr::Mul(a, b) => regs[a].mul_r(&regs[b]),
        Instr::Div(a, b) => regs[a].checked_div(&regs[b])?,
        Instr::Neg(a) => -regs[a].clone(),
        Instr::Pow(a, k) => regs[a].powi(k)?,
        Instr::Call(f, a) => call(f, &regs[a])?,
    })
}

impl<S: Scalar> Code<S> {
    /// Runs the program on `inputs` (as many as the program has); the registers hold the
    /// results ([`Code::output`]).
    pub fn run(&self, inputs: &[S], regs: &mut Vec<S>) -> Result<(), ArithError> {
        assert_eq!(
            inputs.len(),
            self.program.inputs,
            "the program's number of inputs"
        );
        regs.clear();
        regs.reserve(self.pre.len() + inputs.len() + self.program.body.len());
        regs.extend_from_slice(&self.pre);
        regs.extend_from_slice(inputs);
        for instr in &self.program.body {
            let x = exec(instr, regs)?;
            regs.push(x);
        }
        Ok(())
    }

    /// Output `k` of the last [`Code::run`] on `regs`.
    pub fn output<'r>(&self, regs: &'r [S], k: usize) -> &'r S {
        &regs[self.program.outputs[k]]
    }
}

fn call<S: Scalar>(f: Func, x: &S) -> Result<S, ArithError> {
    match f {
        Func::Sqrt => x.sqrt(),
        Func::Sin => x.sin(),
        Func::Cos => x.cos(),
        Func::Tan => x.tan(),
        Func::Atan => x.atan(),
        Func::Abs => match x.sign() {
            crate::arith::Sign::Negative => Ok(-x.clone()),
            crate::arith::Sign::Zero | crate::arith::Sign::Positive => Ok(x.clone()),
            crate::arith::Sign::Unknown => match x.abs_undecided() {
                Some(a) => Ok(a),
                None => x.square().sqrt(),
            },
        },
        Func::Root(k) => x.root(k),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parse_with_variables;

    fn names(g: &mut Graph, vars: &[&str]) -> Names {
        vars.iter()
            .enumerate()
            .map(|(i, v)| (v.to_string(), g.input(i)))
            .collect()
    }

    fn eval(g: &Graph, e: Id, x: &[f64]) -> f64 {
        let code = Program::new(g, &[e], 0, x.len())
            .bind::<f64>(&[], &(), |_| ArithError::DivisionByZero)
            .unwrap();
        let mut regs = Vec::new();
        code.run(x, &mut regs).unwrap();
        *code.output(&regs, 0)
    }

    #[test]
    fn derivatives_are_the_calculus_ones() {
        let mut g = Graph::new();
        let n = names(&mut g, &["a", "b"]);
        let src = "0*a + 3*cos(a - b)*a^2/b + sqrt(b) - atan(a)";
        let e = g.compile(&parse_with_variables(src).unwrap(), &n).unwrap();
        let (a, b) = (0.7f64, 1.3f64);
        let f = 3.0 * (a - b).cos() * a * a / b + b.sqrt() - a.atan();
        assert!((eval(&g, e, &[a, b]) - f).abs() < 1e-15);
        let da = g.diff(e, 0);
        let want_a =
            -3.0 * (a - b).sin() * a * a / b + 6.0 * (a - b).cos() * a / b - 1.0 / (1.0 + a * a);
        assert!((eval(&g, da, &[a, b]) - want_a).abs() < 1e-14);
        let db = g.diff(e, 1);
        let want_b = 3.0 * (a - b).sin() * a * a / b - 3.0 * (a - b).cos() * a * a / (b * b)
            + 0.5 / b.sqrt();
        assert!((eval(&g, db, &[a, b]) - want_b).abs() < 1e-14);
    }

    #[test]
    fn substitution_composes() {
        // e(x) = x², x = 3t + 1: de/dt = 6(3t + 1)
        let mut g = Graph::new();
        let n = names(&mut g, &["x"]);
        let e = g
            .compile(&parse_with_variables("x^2").unwrap(), &n)
            .unwrap();
        let t = g.input(1);
        let (three, one) = (g.int(3), g.int(1));
        let m = g.mul(three, t);
        let x = g.add(m, one);
        let et = g.subst(e, &HashMap::from([(0, x)]));
        let d = g.diff(et, 1);
        assert_eq!(eval(&g, d, &[0.0, 2.0]), 42.0);
    }

    #[test]
    fn shared_subexpressions_are_one_instruction() {
        let mut g = Graph::new();
        let n = names(&mut g, &["a"]);
        let e = g
            .compile(&parse_with_variables("sin(a)*sin(a) + sin(a)").unwrap(), &n)
            .unwrap();
        // sin a, sin a · sin a, the sum
        assert_eq!(Program::new(&g, &[e], 0, 1).len(), 3);
    }
}
