//! Exact sample points for the sampled kinds: rational points of a box of variables, kept
//! when the stated hypotheses (`assume`) hold exactly, with derived variables computed
//! from them (`derive`, e.g. `c = (1-t^2)/(1+t^2)`).
//!
//! Deterministic: the generator is seeded from the claim id, so a report is reproducible.

use crate::arith::Rational;
use crate::claims::claim::body::{self, Ranges};
use crate::lang::{self, Env, Expr, Relation};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::time::Instant;

/// SplitMix64: a small deterministic generator.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded from a string (the claim id).
    pub fn from_str_seed(s: &str) -> Self {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in s.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Rng(h)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

const DENOMINATORS: [i64; 10] = [2, 3, 4, 5, 7, 8, 11, 13, 17, 97];

/// A random rational strictly inside (lo, hi) (or equal to lo if lo == hi).
pub fn rational_in(rng: &mut Rng, lo: &BigRational, hi: &BigRational) -> BigRational {
    let d = DENOMINATORS[rng.below(DENOMINATORS.len() as u64) as usize];
    let n = 1 + rng.below((d - 1) as u64) as i64;
    lo + (hi - lo) * BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// The sample space of a claim: a box, derived variables and hypotheses.
#[derive(Clone, Debug)]
pub struct Space {
    pub vars: Vec<(String, BigRational, BigRational)>,
    pub derived: Vec<(String, Expr)>,
    pub assume: Vec<Relation>,
}

/// Reads `vars = { name = ["lo", "hi"] }` (finite bounds, exact rationals).
pub fn read_box(vars: &Ranges) -> Result<Vec<(String, BigRational, BigRational)>, String> {
    vars.iter()
        .map(|(name, (lo, hi))| {
            let get = |s: &str| -> Result<BigRational, String> {
                lang::rational(s).map_err(|e| format!("`vars.{name}`: {e}"))
            };
            let (lo, hi) = (get(lo)?, get(hi)?);
            if lo > hi {
                return Err(format!("`vars.{name}`: lower bound above upper bound"));
            }
            Ok((name.clone(), lo, hi))
        })
        .collect()
}

impl Space {
    /// Reads `vars`, `derive` and `assume` of a claim's table or of one of its cases.
    pub fn read(t: &dyn body::Space) -> Result<Space, String> {
        let vars = read_box(t.vars())?;
        let derived = t
            .derive()
            .pairs()
            .iter()
            .map(|(n, e)| {
                Ok((
                    n.clone(),
                    lang::parse_with_variables(e).map_err(|x| format!("derive.{n}: {x}"))?,
                ))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let assume = t
            .assume()
            .iter()
            .map(|s| lang::parse_relation(s).map_err(|e| format!("assume: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Space {
            vars,
            derived,
            assume,
        })
    }

    /// Completes a point with the derived variables (in dependency order), in any
    /// arithmetic without a context (exact rationals; rational functions for the prover).
    pub fn derive<S: crate::arith::Scalar<Ctx = ()>>(
        &self,
        env: &mut Env<S>,
    ) -> Result<(), String> {
        let mut todo: Vec<&(String, Expr)> = self.derived.iter().collect();
        while !todo.is_empty() {
            let before = todo.len();
            let mut rest = Vec::new();
            for d in todo {
                let mut vs = Vec::new();
                d.1.vars(&mut vs);
                if vs.iter().all(|v| env.contains_key(v)) {
                    let x = d.1.eval_in(env, &()).map_err(|e| e.to_string())?;
                    env.insert(d.0.clone(), x);
                } else {
                    rest.push(d);
                }
            }
            if rest.len() == before {
                return Err(format!(
                    "derived variable {} uses an unknown variable",
                    rest[0].0
                ));
            }
            todo = rest;
        }
        Ok(())
    }

    /// Whether all hypotheses hold exactly at `env`.
    pub fn admits(&self, env: &Env<Rational>) -> Result<bool, String> {
        for a in &self.assume {
            if a.decide(env, &()).map_err(|e| e.to_string())? != Some(true) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Up to `n` admissible exact sample points (rejection sampling, at most 50·n tries,
    /// stopping at `deadline`). Points where a derived variable is undefined are skipped.
    pub fn samples(
        &self,
        n: usize,
        seed: &str,
        deadline: Instant,
    ) -> Result<Vec<Env<Rational>>, String> {
        let mut rng = Rng::from_str_seed(seed);
        let mut out = Vec::new();
        let mut tries = 0;
        while out.len() < n && tries < 50 * n.max(1) && !crate::budget::passed(deadline) {
            tries += 1;
            crate::budget::checkpoint();
            let mut env = Env::new();
            for (name, lo, hi) in &self.vars {
                env.insert(
                    name.clone(),
                    Rational::from_big(&rational_in(&mut rng, lo, hi)),
                );
            }
            if self.derive(&mut env).is_err() {
                continue;
            }
            if self.admits(&env)? {
                out.push(env);
            }
        }
        Ok(out)
    }
}

/// An exact point as JSON: `{ "name": "p/q", ... }`.
pub fn env_json(env: &Env<Rational>) -> serde_json::Value {
    serde_json::Value::Object(
        env.iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    serde_json::Value::String(lang::show(&v.to_big())),
                )
            })
            .collect(),
    )
}

/// An exact point as text: `k = 1/2, x = 3`.
pub fn env_text(env: &Env<Rational>) -> String {
    env.iter()
        .map(|(k, v)| format!("{k} = {}", lang::show(&v.to_big())))
        .collect::<Vec<_>>()
        .join(", ")
}
