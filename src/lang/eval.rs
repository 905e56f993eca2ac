//! Evaluation of the syntax tree on any backend, with an optional environment of
//! variables, and the exact-π shadow: beside the backend's number, every value carries
//! what is known exactly about it (a rational, or a rational multiple of π), so that
//! exact and enclosure backends can use the table of [`trig_of_pi_multiple`].

use super::ast::{BinOp, Expr, Func, Node, NodeKind};
use super::error::{clip, EvalError};
use super::limits::{LIMITS, MAX_EXPONENT};
use super::trig::{atan_candidates, tan_table, trig_of_pi_multiple, QuadValue, TrigExact};
use crate::arith::{ArithError, Kind, Scalar, Sign, Trig};
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::BTreeMap;

/// Variable values by name.
pub type Env<S> = BTreeMap<String, S>;

/// A square root for `sqrt` and `abs` (by default the backend's [`Scalar::sqrt`]).
pub type Sqrt<'a, S> = &'a dyn Fn(&S) -> Result<S, ArithError>;

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
    /// Evaluates the expression (without variables) in the backend `S`.
    pub fn eval<S: Scalar>(&self, ctx: &S::Ctx) -> Result<S, EvalError> {
        self.eval_with(&Env::new(), ctx, &S::sqrt)
    }

    /// Evaluates the expression in the backend `S`, the variables taking their values in
    /// `env`.
    pub fn eval_in<S: Scalar>(&self, env: &Env<S>, ctx: &S::Ctx) -> Result<S, EvalError> {
        self.eval_with(env, ctx, &S::sqrt)
    }

    /// [`Expr::eval_in`] with a given square root for `sqrt` and `abs` (the
    /// branch-and-bound of claims uses one that encloses √x over the points of an
    /// enclosure where x ≥ 0).
    pub fn eval_with<S: Scalar>(
        &self,
        env: &Env<S>,
        ctx: &S::Ctx,
        sqrt: Sqrt<'_, S>,
    ) -> Result<S, EvalError> {
        let v = Eval::<S> {
            src: &self.source,
            ctx,
            env,
            sqrt,
            work: std::cell::Cell::new(0),
        }
        .node(&self.root)?;
        let at = clip(&self.source);
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
    /// (`3/7 + 0.1`, `2^-3`, `tan(pi/4)`); `None` if it is irrational or has variables.
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
    env: &'a Env<S>,
    sqrt: Sqrt<'a, S>,
    /// Operand bits spent so far by the exact operations ([`LIMITS`]`.max_work_bits`).
    work: std::cell::Cell<u64>,
}

/// Largest exact value the shadow keeps, in bits. The shadow serves the exact tables of
/// sin, cos, tan at rational multiples of π (small rationals); a larger value is carried
/// by the backend's own number alone, so that the shadow (plain `num` arithmetic) never
/// does big-number work.
const SHADOW_BITS: u64 = 4096;

/// Bits of a shadow (0 when there is none).
fn shadow_bits(s: &Shadow) -> u64 {
    match s {
        Shadow::Rat(q) | Shadow::Pi(q) => bits(q),
        Shadow::None => 0,
    }
}

/// Bits of an exact backend's value (from its decimal digits); 0 for other backends.
fn value_bits<S: Scalar>(x: &S) -> u64 {
    (x.exact_digits() as f64 / std::f64::consts::LOG10_2).ceil() as u64
}

impl<S: Scalar> Eval<'_, S> {
    fn text_of(&self, span: (usize, usize)) -> String {
        clip(&self.src[span.0..span.1])
    }
    fn text(&self, n: &Node) -> String {
        self.text_of(n.span)
    }
    fn fail_at(&self, span: (usize, usize), error: ArithError) -> EvalError {
        EvalError::Arith {
            error,
            at: self.text_of(span),
        }
    }
    fn fail(&self, n: &Node, error: ArithError) -> EvalError {
        self.fail_at(n.span, error)
    }
    fn need(&self, n: &Node, v: Val<S>) -> Result<S, EvalError> {
        v.num.ok_or_else(|| self.fail(n, pi_alone::<S>()))
    }
    fn rat(&self, q: BigRational) -> Val<S> {
        Val {
            num: Some(S::from_rational(&q, self.ctx)),
            shadow: if bits(&q) > SHADOW_BITS {
                Shadow::None
            } else {
                Shadow::Rat(q)
            },
        }
    }

    /// Checks, before an exact operation whose result has about `result_bits` bits on
    /// operands of `operand_bits` bits, that the result stays within [`LIMITS`]`.max_bits`
    /// and the evaluation's total work within `max_work_bits`; other backends compute
    /// on fixed-size numbers and are not charged.
    fn charge(
        &self,
        span: (usize, usize),
        operand_bits: u64,
        result_bits: u64,
    ) -> Result<(), EvalError> {
        if !S::is_exact() {
            return Ok(());
        }
        if result_bits > LIMITS.max_bits {
            self.oversized(span)?;
        }
        let work = self.work.get().saturating_add(operand_bits);
        if work > LIMITS.max_work_bits {
            return Err(self.fail_at(
                span,
                ArithError::Domain(format!(
                    "the exact evaluation would process more than {} bits (the work limit of an expression)",
                    LIMITS.max_work_bits
                )),
            ));
        }
        self.work.set(work);
        Ok(())
    }

    fn node(&self, n: &Node) -> Result<Val<S>, EvalError> {
        match &n.kind {
            NodeKind::Num(q) => Ok(self.rat(q.clone())),
            NodeKind::Pi => Ok(Val {
                num: S::pi(self.ctx).ok(),
                shadow: Shadow::Pi(BigRational::one()),
            }),
            NodeKind::Var(name) => match self.env.get(name) {
                Some(x) => Ok(Val {
                    num: Some(x.clone()),
                    shadow: Shadow::None,
                }),
                None => Err(EvalError::UnknownVariable { name: clip(name) }),
            },
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
            NodeKind::Chain(first, rest) => {
                let mut acc = self.node(first)?;
                for (op, b) in rest {
                    let vb = self.node(b)?;
                    // the prefix `first op … op b`, as a left-associated binary node
                    acc = self.binary((n.span.0, b.span.1), *op, acc, vb)?;
                }
                Ok(acc)
            }
            NodeKind::Pow(a, b) => {
                let (va, vb) = (self.node(a)?, self.node(b)?);
                self.pow(n, va, vb, b)
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
        span: (usize, usize),
        op: BinOp,
        a: Val<S>,
        b: Val<S>,
    ) -> Result<Val<S>, EvalError> {
        use BinOp::*;
        use Shadow::{Pi, Rat};
        if let (Div, Rat(q) | Pi(q)) = (op, &b.shadow) {
            if q.is_zero() {
                return Err(self.fail_at(span, ArithError::DivisionByZero));
            }
        }
        let shadow = match (op, &a.shadow, &b.shadow) {
            _ if shadow_bits(&a.shadow) + shadow_bits(&b.shadow) > SHADOW_BITS => Shadow::None,
            (Add, Rat(x), Rat(y)) => Rat(x + y),
            (Sub, Rat(x), Rat(y)) => Rat(x - y),
            (Mul, Rat(x), Rat(y)) => Rat(x * y),
            (Div, Rat(x), Rat(y)) => Rat(x / y),
            (Add, Pi(x), Pi(y)) => Pi(x + y),
            (Sub, Pi(x), Pi(y)) => Pi(x - y),
            (Mul, Pi(x), Rat(y)) | (Mul, Rat(y), Pi(x)) => Pi(x * y),
            (Div, Pi(x), Rat(y)) => Pi(x / y),
            (Div, Pi(x), Pi(y)) => Rat(x / y),
            // q·π ± 0 and 0 ± q·π (the ends of a range `0..pi/2` written out)
            (Add | Sub, Pi(x), Rat(y)) if y.is_zero() => Pi(x.clone()),
            (Add, Rat(x), Pi(y)) if x.is_zero() => Pi(y.clone()),
            (Sub, Rat(x), Pi(y)) if x.is_zero() => Pi(-y.clone()),
            _ => Shadow::None,
        };
        // 0·π is the rational 0
        let shadow = match shadow {
            Pi(q) if q.is_zero() => Rat(q),
            s => s,
        };
        let num = match (a.num, b.num) {
            (Some(x), Some(y)) => {
                x.compatible(&y).map_err(|e| self.fail_at(span, e))?;
                let operands = value_bits(&x) + value_bits(&y);
                let inverse = if matches!(op, Div) {
                    y.inverse_work_bits()
                } else {
                    0
                };
                self.charge(span, operands.saturating_add(inverse), operands)?;
                Some(match op {
                    Add => x + &y,
                    Sub => x - &y,
                    Mul => x * &y,
                    _ => x.checked_div(&y).map_err(|e| self.fail_at(span, e))?,
                })
            }
            _ => None,
        };
        let num = match (num, &shadow) {
            (Some(x), _) => Some(x),
            (None, Pi(_)) => None,
            (None, Rat(q)) => Some(S::from_rational(q, self.ctx)),
            (None, Shadow::None) => return Err(self.fail_at(span, pi_alone::<S>())),
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
                        "the exponent `{}` is not an integer of magnitude at most {MAX_EXPONENT}",
                        self.text(bn)
                    )),
                ))
            }
        };
        let shadow = match &a.shadow {
            Shadow::Rat(q) if bits(q).saturating_mul(e.unsigned_abs()) > SHADOW_BITS => {
                Shadow::None
            }
            Shadow::Rat(q) if !(q.is_zero() && e < 0) => Shadow::Rat(rat_pow(q, e)),
            Shadow::Pi(q) if e == 1 => Shadow::Pi(q.clone()),
            _ if e == 0 => Shadow::Rat(BigRational::one()),
            _ => Shadow::None,
        };
        if e == 1 {
            return Ok(Val { num: a.num, shadow });
        }
        let x = self.need(n, a)?;
        let size = value_bits(&x).saturating_mul(e.unsigned_abs());
        let inverse = if e < 0 { x.inverse_work_bits() } else { 0 };
        self.charge(n.span, size.saturating_add(inverse), size)?;
        let num = x.powi(e).map_err(|err| self.fail(n, err))?;
        Ok(Val {
            num: Some(num),
            shadow,
        })
    }

    /// An exact value over [`LIMITS`]`.max_bits`: an error in exact backends, which would
    /// have to compute it; other backends compute on without the exact shadow.
    fn oversized(&self, span: (usize, usize)) -> Result<Shadow, EvalError> {
        if S::is_exact() {
            return Err(self.fail_at(
                span,
                ArithError::Domain(format!(
                    "the exact value would have more than {} bits",
                    LIMITS.max_bits
                )),
            ));
        }
        Ok(Shadow::None)
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
        match f {
            Func::Sqrt => {
                let x = self.need(n, v.clone())?;
                let num = (self.sqrt)(&x).map_err(|e| self.fail(n, rename_sqrt(e, &text)))?;
                let shadow = match &v.shadow {
                    Shadow::Rat(q) => rational_sqrt(q).map_or(Shadow::None, Shadow::Rat),
                    _ => Shadow::None,
                };
                return Ok(Val {
                    num: Some(num),
                    shadow,
                });
            }
            Func::Root(k) => {
                let x = self.need(n, v.clone())?;
                let num = self
                    .root(&x, k)
                    .map_err(|e| self.fail(n, rename_sqrt(e, &text)))?;
                let shadow = match &v.shadow {
                    Shadow::Rat(q) => crate::arith::rational_root(&crate::arith::rat_to_rug(q), k)
                        .map_or(Shadow::None, |r| Shadow::Rat(crate::arith::rug_to_rat(&r))),
                    _ => Shadow::None,
                };
                return Ok(Val {
                    num: Some(num),
                    shadow,
                });
            }
            Func::Abs => return self.abs(n, v),
            Func::Atan => return self.atan(n, v, &text),
            Func::Sin | Func::Cos | Func::Tan => {}
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
        let own = |x: &S| match f {
            Func::Sin => x.sin(),
            Func::Cos => x.cos(),
            _ => x.tan(),
        };
        if S::is_exact() {
            // a backend that holds every sin, cos, tan of a rational multiple of π
            if let Some(q) = &multiple {
                let trig = match f {
                    Func::Sin => Trig::Sin,
                    Func::Cos => Trig::Cos,
                    _ => Trig::Tan,
                };
                if let Some(r) = S::trig_pi(trig, q, self.ctx) {
                    let num = r.map_err(|e| self.fail(n, e))?;
                    return Ok(Val {
                        num: Some(num),
                        shadow: Shadow::None,
                    });
                }
            }
            // the backend's own function where it is exact (symbolic: `cos(x-x)` = 1)
            if let Some(Ok(y)) = v.num.as_ref().map(own) {
                return Ok(Val {
                    num: Some(y),
                    shadow: Shadow::None,
                });
            }
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
        let num = own(&x).map_err(|e| self.fail(n, e))?;
        Ok(Val {
            num: Some(num),
            shadow: Shadow::None,
        })
    }

    /// `root(x, k)`: the backend's odd roots; an even root is the square root (the given
    /// one, as for `sqrt`) of the root of half the index.
    fn root(&self, x: &S, k: u32) -> Result<S, ArithError> {
        if k % 2 == 1 || (S::is_exact() && x.sign() != Sign::Negative) {
            return x.root(k);
        }
        if x.sign() == Sign::Negative {
            return crate::arith::root_by_square_roots(x, k);
        }
        (self.sqrt)(&self.root(x, k / 2)?)
    }

    /// `abs(x)`: exact and rounded backends use the sign of `x` where it is decided;
    /// otherwise (and always on enclosures) `sqrt(x^2)` with the given square root.
    fn abs(&self, n: &Node, v: Val<S>) -> Result<Val<S>, EvalError> {
        let shadow = match &v.shadow {
            Shadow::Rat(q) => Shadow::Rat(q.abs()),
            Shadow::Pi(q) => Shadow::Pi(q.abs()),
            Shadow::None => Shadow::None,
        };
        let Some(x) = v.num else {
            return Ok(Val { num: None, shadow });
        };
        let by_sign = S::is_exact() || S::kind() == Kind::Float;
        let num = match x.sign() {
            Sign::Negative if by_sign => -x,
            Sign::Zero | Sign::Positive if by_sign => x,
            _ => match x.abs_undecided() {
                Some(a) => a,
                None => (self.sqrt)(&x.square()).map_err(|e| self.fail(n, e))?,
            },
        };
        Ok(Val {
            num: Some(num),
            shadow,
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
        // x and √(1+x²) may lie in two fields (√2 and √3 for x = √2): checked as every
        // operator's operands are
        top.compatible(&r).map_err(|e| self.fail(n, e))?;
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
                if (x.clone() - &t).sign() == Sign::Zero {
                    if q.is_zero() {
                        return Ok(self.rat(q));
                    }
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
            if let Ok(y) = x.atan() {
                return Ok(Val {
                    num: Some(y),
                    shadow: Shadow::None,
                });
            }
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

/// Bits of numerator and denominator.
fn bits(q: &BigRational) -> u64 {
    q.numer().bits() + q.denom().bits()
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
            let what = if what.starts_with("root(") {
                // `root(q, k)` as typed, then what the backend says of it
                let rest = what.rfind(')').map_or("", |i| &what[i + 1..]);
                format!("{text}{rest}")
            } else if what.starts_with(text) || what.contains("irrational") {
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
            let exact = crate::arith::Quadratic::new(
                crate::arith::rat_to_rug(&v.a),
                crate::arith::rat_to_rug(&v.b),
                &rug::Integer::from(v.d),
            )
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
