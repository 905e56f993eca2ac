//! The Gram reduction's last premise, checked by computation: every conclusion of the
//! claim is invariant under the changes of coordinates the reduction uses.
//!
//! The reduction (see [`crate::claims::reduction`]) proves the claim in dimension d with M = I
//! for objects in a normal form, and extends it to every configuration by a change of
//! coordinates. That is sound only when each conclusion means the same in every
//! coordinate system: a g-inner product, a rate, a whole (co)vector equality. A
//! conclusion such as `next_v3 == v3` (one coordinate) is not, and must not be extended.
//!
//! The check: at M = I (the metric's parameters at the identity) the claim's quantities
//! are computed exactly, on exact rationals, at `POINTS` configurations of the objects
//! with every coordinate set (the normal form's derived coordinates overridden), and at
//! their images under a rational rotation Q (the Cayley transform of a skew matrix), which
//! keeps M = I and moves vectors and covectors alike. Each conclusion is split into its
//! parts (its guards, then its body), each part a relation `lhs − rhs ▷ 0`. Then, in
//! order, every part is either an invariant scalar (the same value at X and at QX, at
//! every point), or, for `==`, one of a group of consecutive equations (the guards of one
//! conclusion, or the bodies of consecutive unguarded conclusions) whose values w satisfy
//! w(QX) = A·w(X) at every point for one invertible matrix A (a vector's coordinates,
//! the 2×2 minors of two vectors): the set where they all vanish is then invariant. A
//! conclusion that is neither is reported, and the reduction refused.
//!
//! This is a computation at exact sample points (a polynomial identity that fails
//! generally fails at random points), not a symbolic proof of invariance.

use crate::arith::{Rational, Scalar};
use crate::claims::claim::body::Body;
use crate::claims::claim::Claim;
use crate::claims::exact::sampled::{self, Case};
use crate::lang::{self, Env};
use num_rational::BigRational;
use num_traits::{One, Zero};

/// Configurations of the objects the check evaluates at.
const POINTS: usize = 14;
/// The largest group of equations that may transform together.
const MAX_GROUP: usize = 9;

type Q = BigRational;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

/// A deterministic sequence of small rationals in [−2, 2] (no zero).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> Q {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let n = ((self.0 >> 33) % 39) as i64 - 19; // −19..=19
        let n = if n == 0 { 7 } else { n };
        let d = [3, 5, 7, 11][((self.0 >> 20) % 4) as usize];
        q(n, d)
    }
}

/// The inverse of a square matrix (Gauss–Jordan), `None` when singular.
fn inverse(m: &[Vec<Q>]) -> Option<Vec<Vec<Q>>> {
    let n = m.len();
    let mut a: Vec<Vec<Q>> = m
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row = r.clone();
            row.extend((0..n).map(|j| if i == j { Q::one() } else { Q::zero() }));
            row
        })
        .collect();
    for c in 0..n {
        let p = (c..n).find(|&r| !a[r][c].is_zero())?;
        a.swap(c, p);
        let piv = a[c][c].clone();
        for x in a[c].iter_mut() {
            *x = &*x / &piv;
        }
        let prow = a[c].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != c && !row[c].is_zero() {
                let f = row[c].clone();
                for (x, y) in row.iter_mut().zip(&prow) {
                    *x = &*x - &(&f * y);
                }
            }
        }
    }
    Some(a.into_iter().map(|r| r[n..].to_vec()).collect())
}

fn mul(a: &[Vec<Q>], b: &[Vec<Q>]) -> Vec<Vec<Q>> {
    (0..a.len())
        .map(|i| {
            (0..b[0].len())
                .map(|j| (0..b.len()).fold(Q::zero(), |s, k| s + &a[i][k] * &b[k][j]))
                .collect()
        })
        .collect()
}

/// The rotation (I − S)(I + S)⁻¹ of a skew matrix S with entries 1, 2, 3, … above the
/// diagonal: orthogonal with rational entries.
fn rotation(d: usize) -> Option<Vec<Vec<Q>>> {
    // entries 1/2, 2/2, 3/2, … above the diagonal, numbered row by row
    let above = |i: usize, j: usize| -> i64 { (i * d - i * (i + 1) / 2 + (j - i)) as i64 };
    let s: Vec<Vec<Q>> = (0..d)
        .map(|i| {
            (0..d)
                .map(|j| match i.cmp(&j) {
                    std::cmp::Ordering::Less => q(above(i, j), 2),
                    std::cmp::Ordering::Greater => q(-above(j, i), 2),
                    std::cmp::Ordering::Equal => Q::zero(),
                })
                .collect()
        })
        .collect();
    let id = |sign: i64| -> Vec<Vec<Q>> {
        (0..d)
            .map(|i| {
                (0..d)
                    .map(|j| {
                        let e = if i == j { Q::one() } else { Q::zero() };
                        e + &s[i][j] * Q::from_integer(sign.into())
                    })
                    .collect()
            })
            .collect()
    };
    Some(mul(&id(-1), &inverse(&id(1))?))
}

/// One part of a conclusion: its relation, whether it is a guard, and the conclusion's
/// index.
struct Part {
    conclusion: usize,
    guard: bool,
    rel: lang::Rel,
    text: String,
}

fn parts(conclude: &[lang::Relation]) -> Vec<(Part, lang::Relation)> {
    let mut out = Vec::new();
    for (i, r) in conclude.iter().enumerate() {
        let mut chain = Vec::new();
        let mut g = r.guard.as_deref();
        while let Some(x) = g {
            chain.push(x.clone());
            g = x.guard.as_deref();
        }
        for x in chain {
            out.push((
                Part {
                    conclusion: i,
                    guard: true,
                    rel: x.rel,
                    text: r.text.clone(),
                },
                lang::Relation { guard: None, ..x },
            ));
        }
        out.push((
            Part {
                conclusion: i,
                guard: false,
                rel: r.rel,
                text: r.text.clone(),
            },
            lang::Relation {
                guard: None,
                ..r.clone()
            },
        ));
    }
    out
}

/// `lhs − rhs` of every part at one configuration, or `None` where the claim has no
/// value there.
fn values(t: &Body, env: &Env<Rational>, rels: &[lang::Relation]) -> Option<Vec<Q>> {
    let mut scope = env.clone();
    scope.extend(sampled::side(sampled::quantities(t), env).ok()?);
    rels.iter()
        .map(|r| {
            let l = r.lhs.eval_in(&scope, &()).ok()?;
            let rr = r.rhs.eval_in(&scope, &()).ok()?;
            Some(l.sub_r(&rr).to_big())
        })
        .collect()
}

/// Checks every case's conclusions (see the module's documentation).
pub(crate) fn check(claim: &Claim, objects: &[Vec<String>], metric: &str) -> Result<(), String> {
    let t = claim.body();
    let d = objects.first().map_or(0, Vec::len);
    let rot = rotation(d).ok_or("no rotation")?;
    let coords: Vec<&String> = objects.iter().flatten().collect();
    let identity: Vec<(String, Q)> = match metric {
        "diagonal" => (1..=d).map(|i| (format!("m{i}"), Q::one())).collect(),
        _ => (1..=d)
            .flat_map(|i| (1..=i).map(move |j| (i, j)))
            .map(|(i, j)| {
                (
                    format!("l{i}{j}"),
                    if i == j { Q::one() } else { Q::zero() },
                )
            })
            .collect(),
    };
    for case in sampled::cases(t)? {
        check_case(t, &case, objects, &coords, &identity, &rot)?;
    }
    Ok(())
}

fn check_case(
    t: &Body,
    case: &Case,
    objects: &[Vec<String>],
    coords: &[&String],
    identity: &[(String, Q)],
    rot: &[Vec<Q>],
) -> Result<(), String> {
    let label = sampled::label(case);
    let mut space = case.space.clone();
    space
        .derived
        .retain(|(n, _)| !coords.contains(&n) && !identity.iter().any(|(m, _)| m == n));
    let list = parts(&case.conclude);
    let rels: Vec<lang::Relation> = list.iter().map(|(_, r)| r.clone()).collect();
    let mut rng = Lcg(0x1234_5678);
    let mut at_x: Vec<Vec<Q>> = Vec::new();
    let mut at_qx: Vec<Vec<Q>> = Vec::new();
    for _ in 0..POINTS * 3 {
        if at_x.len() == POINTS {
            break;
        }
        let mut env: Env<Rational> = Env::new();
        for (name, lo, hi) in &space.vars {
            // a point of the sampling box (its middle, moved a little)
            let mid = (lo + hi) / Q::from_integer(2.into());
            env.insert(
                name.clone(),
                Rational::from_big(&(mid + rng.next() / q(50, 1))),
            );
        }
        for (n, v) in identity {
            env.insert(n.clone(), Rational::from_big(v));
        }
        let xs: Vec<Vec<Q>> = objects
            .iter()
            .map(|o| o.iter().map(|_| rng.next()).collect())
            .collect();
        let rotated: Vec<Vec<Q>> = xs
            .iter()
            .map(|x| {
                (0..x.len())
                    .map(|i| (0..x.len()).fold(Q::zero(), |s, k| s + &rot[i][k] * &x[k]))
                    .collect()
            })
            .collect();
        let at = |xs: &[Vec<Q>]| -> Option<Vec<Q>> {
            let mut e = env.clone();
            for (o, x) in objects.iter().zip(xs) {
                for (n, v) in o.iter().zip(x) {
                    e.insert(n.clone(), Rational::from_big(v));
                }
            }
            space.derive(&mut e).ok()?;
            values(t, &e, &rels)
        };
        if let (Some(a), Some(b)) = (at(&xs), at(&rotated)) {
            at_x.push(a);
            at_qx.push(b);
        }
    }
    if at_x.len() < POINTS {
        return Err(format!(
            "{label}the conclusions could not be evaluated at {POINTS} configurations of the objects (M = I) to check their invariance"
        ));
    }
    let mut i = 0;
    while i < list.len() {
        let scalar = at_x.iter().zip(&at_qx).all(|(a, b)| a[i] == b[i]);
        if scalar {
            i += 1;
            continue;
        }
        let (p, _) = &list[i];
        let group = (p.rel == lang::Rel::Eq)
            .then(|| {
                (1..=MAX_GROUP.min(list.len() - i)).find(|&s| {
                    let members = &list[i..i + s];
                    let fits = members.iter().all(|(m, _)| {
                        m.rel == lang::Rel::Eq
                            && if p.guard {
                                m.guard && m.conclusion == p.conclusion
                            } else {
                                !m.guard
                                    && !list
                                        .iter()
                                        .any(|(g, _)| g.guard && g.conclusion == m.conclusion)
                            }
                    });
                    fits && transforms_linearly(&at_x, &at_qx, i, s)
                })
            })
            .flatten();
        match group {
            Some(s) => i += s,
            None => {
                return Err(format!(
                    "{label}the conclusion `{}` is not invariant under a rotation of the objects at M = I (computed at {POINTS} exact configurations): the Gram reduction cannot extend it to every coordinate system",
                    p.text
                ))
            }
        }
    }
    Ok(())
}

/// w(QX) = A·w(X) at every point for one invertible A (w: the parts i..i+s).
fn transforms_linearly(at_x: &[Vec<Q>], at_qx: &[Vec<Q>], i: usize, s: usize) -> bool {
    let w = |m: &[Vec<Q>], k: usize| -> Vec<Q> { m[k][i..i + s].to_vec() };
    // s points whose values are independent determine A
    let mut chosen: Vec<usize> = Vec::new();
    for k in 0..at_x.len() {
        if chosen.len() == s {
            break;
        }
        let mut trial = chosen.clone();
        trial.push(k);
        let m: Vec<Vec<Q>> = trial.iter().map(|&j| w(at_x, j)).collect();
        // independent rows: their Gram matrix is invertible
        let gram: Vec<Vec<Q>> = m
            .iter()
            .map(|a| {
                m.iter()
                    .map(|b| a.iter().zip(b).fold(Q::zero(), |t, (x, y)| t + x * y))
                    .collect()
            })
            .collect();
        if inverse(&gram).is_some() {
            chosen = trial;
        }
    }
    if chosen.len() < s {
        return false;
    }
    // columns: W = [w(X_k)], W' = [w(QX_k)]; A = W' W⁻¹
    let col = |m: &[Vec<Q>]| -> Vec<Vec<Q>> {
        (0..s)
            .map(|r| chosen.iter().map(|&k| m[k][i + r].clone()).collect())
            .collect()
    };
    let Some(inv) = inverse(&col(at_x)) else {
        return false;
    };
    let a = mul(&col(at_qx), &inv);
    if inverse(&a).is_none() {
        return false;
    }
    (0..at_x.len()).all(|k| {
        (0..s).all(|r| {
            let image = (0..s).fold(Q::zero(), |t, c| t + &a[r][c] * &at_x[k][i + c]);
            image == at_qx[k][i + r]
        })
    })
}
