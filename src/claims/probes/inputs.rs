//! What a probe reads: its inputs as input-language strings ([`Inputs`], exact probes) or
//! in one arithmetic ([`ProbeIn`], the probes that run on any backend), and the readers
//! every probe shares.

use crate::arith::{Rational, Scalar};
use crate::lang::{self, Env};
use num_rational::BigRational;
use std::collections::BTreeMap;

/// Probe inputs: name → input-language string.
pub type Inputs = BTreeMap<String, String>;

pub(crate) type R = Rational;

pub(crate) fn get(inp: &Inputs, name: &str) -> Result<BigRational, String> {
    let s = inp
        .get(name)
        .ok_or_else(|| format!("probe input `{name}` missing"))?;
    lang::rational(s).map_err(|e| format!("probe input `{name}`: {e}"))
}

pub(crate) fn opt(inp: &Inputs, name: &str, default: &str) -> Result<BigRational, String> {
    match inp.get(name) {
        Some(_) => get(inp, name),
        None => lang::rational(default).map_err(|e| e.to_string()),
    }
}

pub(crate) fn r(q: BigRational) -> R {
    Rational::from_big(&q)
}

/// A word input of a probe (`table = "circle"`), or an error naming it.
pub(crate) fn word<'a>(inp: &'a Inputs, name: &str) -> Result<&'a str, String> {
    inp.get(name)
        .map(String::as_str)
        .ok_or_else(|| format!("probe input `{name}` missing"))
}

pub(crate) fn int(n: usize) -> R {
    Rational::new(n as i64, 1)
}

pub(crate) fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

pub(crate) fn usize_in(inp: &Inputs, name: &str, default: &str) -> Result<usize, String> {
    opt(inp, name, default)?
        .to_integer()
        .try_into()
        .map_err(|_| format!("{name} out of range"))
}

/// Runs an exact probe in one quadratic field Q(√d) (the fast path) and, where its
/// values leave every quadratic field (α = π/16), in the algebraic backend.
pub(crate) fn quadratic_or_algebraic(
    quadratic: impl FnOnce() -> Result<Env<R>, String>,
    algebraic: impl FnOnce() -> Result<Env<R>, String>,
) -> Result<Env<R>, String> {
    quadratic().or_else(|e| {
        if e.contains("not representable in the quadratic backend") {
            algebraic()
        } else {
            Err(e)
        }
    })
}

/// Probe inputs in one arithmetic: numbers, and words (e.g. `rule = "ideal"`).
#[derive(Clone, Debug)]
pub struct ProbeIn<S: Scalar> {
    pub nums: Env<S>,
    pub words: BTreeMap<String, String>,
    pub ctx: S::Ctx,
}

impl ProbeIn<Rational> {
    /// Input-language strings: a rational value is a number, anything else a word.
    pub fn from_strings(inp: &Inputs) -> ProbeIn<Rational> {
        let mut p = ProbeIn {
            nums: Env::new(),
            words: BTreeMap::new(),
            ctx: (),
        };
        for (k, v) in inp {
            // every input as written (a word, or digits such as `zones = "01"`), and the
            // rational ones as numbers
            p.words.insert(k.clone(), v.clone());
            if let Ok(q) = lang::rational(v) {
                p.nums.insert(k.clone(), Rational::from_big(&q));
            }
        }
        p
    }
}

impl<S: Scalar> ProbeIn<S> {
    pub fn num(&self, name: &str) -> Result<S, String> {
        self.nums
            .get(name)
            .cloned()
            .ok_or_else(|| format!("probe input `{name}` missing"))
    }
    pub fn opt(&self, name: &str, default: i64) -> S {
        self.nums
            .get(name)
            .cloned()
            .unwrap_or_else(|| S::from_i64(default, &self.ctx))
    }
    pub fn has(&self, name: &str) -> bool {
        self.nums.contains_key(name) || self.words.contains_key(name)
    }
    /// A word input (e.g. `rule = "ideal"`), or a number input shown as an integer (e.g.
    /// `force_zone = "12"`).
    pub fn word(&self, name: &str) -> Option<String> {
        self.nums
            .get(name)
            .and_then(|x| x.rational_bounds())
            .filter(|(lo, hi)| lo == hi && lo.is_integer())
            .map(|(q, _)| q.to_integer().to_string())
            .or_else(|| self.words.get(name).cloned())
    }
    /// An input as written (digits such as `zones = "01"` keep their leading zero).
    pub fn raw(&self, name: &str) -> Option<String> {
        self.words.get(name).cloned().or_else(|| self.word(name))
    }
    /// A nonnegative integer input (a count), `default` when absent.
    pub fn count(&self, name: &str, default: usize) -> Result<usize, String> {
        match self.nums.get(name) {
            None => Ok(default),
            Some(x) => x
                .rational_bounds()
                .filter(|(lo, hi)| lo == hi && lo.is_integer())
                .and_then(|(q, _)| q.to_integer().try_into().ok())
                .ok_or_else(|| format!("{name} must be a nonnegative integer")),
        }
    }
    pub(crate) fn int(&self, n: usize) -> S {
        S::from_i64(n as i64, &self.ctx)
    }
}

/// Masses `m1..mn` (a diagonal mass matrix), normals `u{a}_{i}` and, if given, the
/// momentum `p1..pn` of a propagative probe, in any arithmetic.
pub(crate) type PropagativeSystem<S> = (Vec<S>, Vec<Vec<S>>, Option<Vec<S>>);

/// The inputs of a propagative probe ([`PropagativeSystem`]).
pub(crate) fn propagative_system<S: Scalar>(
    inp: &ProbeIn<S>,
) -> Result<PropagativeSystem<S>, String> {
    let mut m = Vec::new();
    while inp.has(&format!("m{}", m.len() + 1)) {
        m.push(inp.num(&format!("m{}", m.len() + 1))?);
    }
    let n = m.len();
    let mut normals: Vec<Vec<S>> = Vec::new();
    while inp.has(&format!("u{}_1", normals.len() + 1)) {
        let a = normals.len() + 1;
        normals.push(
            (1..=n)
                .map(|i| inp.num(&format!("u{a}_{i}")))
                .collect::<Result<_, _>>()?,
        );
    }
    let p = if inp.has("p1") {
        Some(
            (1..=n)
                .map(|i| inp.num(&format!("p{i}")))
                .collect::<Result<_, _>>()?,
        )
    } else {
        None
    };
    Ok((m, normals, p))
}
