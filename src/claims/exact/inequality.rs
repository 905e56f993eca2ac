//! Kind `inequality`: a sign condition holds on a parameter box, proved by rigorous
//! interval branch-and-bound (53-bit intervals, then MPFR intervals at 256 bits on boxes
//! the first cannot decide).
//!
//! ```toml
//! [inequality]
//! vars = { eps = ["0", "1"], beta = ["0", "999/1000"] }   # the closed box covered
//! derive = { d = "beta^2*(1+eps)^2 - 4*eps" }              # intermediate quantities
//! assume = ["d >= 0"]                # hypotheses: boxes where one certainly fails are
//!                                    # outside the claim's domain
//! holds = "rho < 1"                  # the claim
//! max_depth = 40
//! subdomain = "beta <= 999/1000 (rho = 1 on beta = 1)"   # the box is less than the
//!                                    # paper's domain: the verdict is proved-on-subdomain
//! ```
//!
//! Without `subdomain`, the box (with `assume`) must contain the paper's whole stated
//! domain (unbounded parameters through a compactifying `derive`, e.g. k = t/(1 - t)); an
//! optional `domain` describes how. `proved` names the box covered, the boxes examined, the maximum depth and the time;
//! `refuted` gives a rational point where the hypotheses hold and the claim fails,
//! certified by exact or 256-bit interval evaluation at that point; `inconclusive`
//! reports the boxes left undecided.

use crate::arith::{ArithError, Interval, MpInterval, Scalar};
use crate::claims::claim::body::Body;
use crate::claims::claim::{Claim, Outcome, Verdict};
use crate::claims::exact::sample_points::{read_box, Space};
use crate::lang::{self, show, Env, Relation};
use num_rational::BigRational;
use std::time::Instant;

/// Enclosure backends that can enclose a box side [lo, hi].
pub trait Hull: Scalar {
    fn hull(lo: &BigRational, hi: &BigRational, ctx: &Self::Ctx) -> Self;
    /// The part of the enclosure where the value is ≥ 0 (`None` if it is all negative).
    fn nonneg(&self) -> Option<Self>;
}

/// √x over the points of the enclosure `x` where x ≥ 0: where x < 0 the expression is
/// undefined, so those points are not points of the claim (its hypotheses must exclude
/// them; an enclosure that is entirely negative is an error).
fn sqrt_nonneg<S: Hull>(x: &S) -> Result<S, ArithError> {
    x.nonneg()
        .ok_or_else(|| ArithError::Domain("square root of a negative enclosure".into()))?
        .sqrt()
}

impl Hull for Interval {
    fn hull(lo: &BigRational, hi: &BigRational, ctx: &()) -> Self {
        let a = Interval::from_rational(lo, ctx);
        let b = Interval::from_rational(hi, ctx);
        Interval::new(a.lo(), b.hi()).unwrap_or(a)
    }
    fn nonneg(&self) -> Option<Self> {
        (self.hi() >= 0.0).then(|| Interval::new(self.lo().max(0.0), self.hi()).ok())?
    }
}

impl Hull for MpInterval {
    fn hull(lo: &BigRational, hi: &BigRational, prec: &u32) -> Self {
        let a = MpInterval::from_rational_prec(lo, *prec);
        let b = MpInterval::from_rational_prec(hi, *prec);
        MpInterval::new(a.lo().clone(), b.hi().clone()).unwrap_or(a)
    }
    fn nonneg(&self) -> Option<Self> {
        if self.hi().is_sign_negative() && !self.hi().is_zero() {
            return None;
        }
        let lo = if self.lo().is_sign_negative() {
            rug::Float::with_val(self.prec(), 0)
        } else {
            self.lo().clone()
        };
        MpInterval::new(lo, self.hi().clone()).ok()
    }
}

type Boxed = Vec<(String, BigRational, BigRational)>;

/// What the enclosures say on a box.
#[derive(Debug, PartialEq)]
enum Decision {
    /// Some hypothesis certainly fails: outside the domain.
    Excluded,
    /// The claim certainly holds (where the hypotheses hold).
    Holds,
    /// Hypotheses certainly hold and the claim certainly fails.
    Fails,
    Unknown,
}

fn decide<S: Hull>(b: &Boxed, space: &Space, holds: &Relation, ctx: &S::Ctx) -> Decision {
    let mut env: Env<S> = b
        .iter()
        .map(|(n, lo, hi)| (n.clone(), S::hull(lo, hi, ctx)))
        .collect();
    // derived quantities, in file order (each may use the previous ones)
    let mut derived_ok = true;
    for (n, e) in &space.derived {
        match e.eval_with(&env, ctx, &sqrt_nonneg::<S>) {
            Ok(v) => {
                env.insert(n.clone(), v);
            }
            Err(_) => {
                derived_ok = false;
                break;
            }
        }
    }
    let mut all_hyp = true;
    for a in &space.assume {
        match a.decide_with(&env, ctx, &sqrt_nonneg::<S>) {
            Ok(Some(false)) => return Decision::Excluded,
            Ok(Some(true)) => {}
            _ => all_hyp = false,
        }
    }
    if !derived_ok {
        return Decision::Unknown;
    }
    match holds.decide_with(&env, ctx, &sqrt_nonneg::<S>) {
        Ok(Some(true)) => Decision::Holds,
        Ok(Some(false)) if all_hyp => Decision::Fails,
        _ => Decision::Unknown,
    }
}

fn point(b: &Boxed) -> Boxed {
    b.iter()
        .map(|(n, lo, hi)| {
            let m = (lo + hi) / BigRational::from_integer(2.into());
            (n.clone(), m.clone(), m)
        })
        .collect()
}

fn split(b: &Boxed) -> (Boxed, Boxed) {
    let (i, _) = b
        .iter()
        .enumerate()
        .max_by(|x, y| (&x.1 .2 - &x.1 .1).cmp(&(&y.1 .2 - &y.1 .1)))
        .expect("a box has at least one side");
    let mid = (&b[i].1 + &b[i].2) / BigRational::from_integer(2.into());
    let (mut l, mut r) = (b.clone(), b.clone());
    l[i].2 = mid.clone();
    r[i].1 = mid;
    (l, r)
}

fn text(b: &Boxed) -> String {
    b.iter()
        .map(|(n, lo, hi)| {
            if lo == hi {
                format!("{n} = {}", show(lo))
            } else {
                format!("{n} ∈ [{}, {}]", show(lo), show(hi))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks an `inequality` claim.
pub fn check(claim: &Claim, deadline: Instant) -> Result<Outcome, String> {
    let Body::Inequality(t) = claim.body() else {
        return Err("not an inequality".into());
    };
    let space = Space::read(t)?;
    let holds = lang::parse_relation(&t.holds).map_err(|e| e.to_string())?;
    let root = read_box(&t.vars)?;
    if root.is_empty() {
        return Err("`vars` must give the box".into());
    }
    let max_depth = t.max_depth.unwrap_or(40).clamp(0, 200) as usize;
    let mut stack = vec![(root.clone(), 0usize)];
    let (mut boxes, mut deepest, mut undecided) = (0usize, 0usize, Vec::<Boxed>::new());
    while let Some((b, depth)) = stack.pop() {
        crate::budget::checkpoint();
        if crate::budget::passed(deadline) || boxes >= MAX_BOXES {
            undecided.push(b);
            undecided.extend(stack.drain(..).map(|x| x.0));
            break;
        }
        boxes += 1;
        deepest = deepest.max(depth);
        let mut d = decide::<Interval>(&b, &space, &holds, &());
        if d == Decision::Unknown && depth >= max_depth {
            d = decide::<MpInterval>(&b, &space, &holds, &256);
        }
        match d {
            Decision::Excluded | Decision::Holds => {}
            Decision::Unknown if depth < max_depth => {
                // a cheap certified counterexample at the midpoint, before splitting
                let p = point(&b);
                if decide::<MpInterval>(&p, &space, &holds, &256) == Decision::Fails {
                    return Ok(refuted(&p));
                }
                let (l, r) = split(&b);
                stack.push((l, depth + 1));
                stack.push((r, depth + 1));
            }
            Decision::Unknown => undecided.push(b),
            Decision::Fails => {
                let p = point(&b);
                return Ok(refuted(&p));
            }
        }
    }
    let sub = t.subdomain.as_deref();
    let note = sub
        .map(|d| format!(" (only a part of the paper's domain: {d})"))
        .or_else(|| t.domain.as_deref().map(|d| format!(" ({d})")))
        .unwrap_or_default();
    if undecided.is_empty() {
        Ok(Outcome::new(
            if sub.is_some() {
                Verdict::ProvedOnSubdomain
            } else {
                Verdict::Proved
            },
            format!(
                "interval branch-and-bound on {}{note}: {boxes} boxes, max depth {deepest}",
                text(&root)
            ),
        ))
    } else {
        Ok(Outcome::inconclusive(format!(
            "{} box(es) undecided at depth {max_depth} or the box limit (first: {}); {boxes} boxes",
            undecided.len(),
            text(&undecided[0])
        )))
    }
}

/// The boxes one branch-and-bound may examine: a work bound, the same on every machine.
const MAX_BOXES: usize = 200_000;

fn refuted(p: &Boxed) -> Outcome {
    let cx: serde_json::Map<String, serde_json::Value> = p
        .iter()
        .map(|(n, v, _)| (n.clone(), show(v).into()))
        .collect();
    Outcome::refuted(
        format!(
            "fails at {} (certified by 256-bit interval evaluation at that point)",
            text(p)
        ),
        cx.into(),
    )
}
