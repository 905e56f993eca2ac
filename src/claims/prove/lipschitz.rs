//! A Lipschitz-type bound decided on a cell of the symbolic method: `|L(x)| <= Σ wᵢ|xᵢ|`
//! where `L` is linear in the cell's cone chart and so are the `xᵢ` (e.g. Fassino–Pasquero
//! Lemma 7.2: a rule linear on a zone moves the image by at most `|dx| + |dy|`).
//!
//! Write the relation as `E >= 0` ([`lang::occurrences`]: each `abs` of undecided sign has
//! a polarity). For every choice `|y| -> ±y` at the occurrences of polarity −1 (all must
//! hold), `E = Σ wᵢ|xᵢ| + E₀` with `wᵢ >= 0` free of the `|xᵢ|`. If `E₀ = Σ νᵢxᵢ + R₀` with
//! `R₀` free of the cone chart, then `E >= Σ (wᵢ − |νᵢ|)|xᵢ| + R₀`, which is `>= 0` where
//! `|νᵢ| <= wᵢ` and `R₀ >= 0` (`> 0` for a strict relation). The `νᵢ` are solved from the
//! coefficients of the chart variables (`c_…`); the residual `R₀` is checked free of them
//! exactly, so the solving is only a way to find the `νᵢ`.

use crate::arith::symbolic::linear::{linear, solve};
use crate::arith::symbolic::Symbolic;
use crate::arith::{Scalar, Sign};
use crate::lang::{self, AbsBy, Env, Rel, Relation};

/// The chart variables in which the quantities are linear: the cone's and its splits'.
fn is_chart(v: &str) -> bool {
    v.starts_with("c_")
}

fn nonnegative(x: &Symbolic) -> bool {
    matches!(x.sign(), Sign::Positive | Sign::Zero)
}

/// `Some(true)` when the bound of the module decides the relation; `None` otherwise
/// (never `Some(false)`).
/// `r` has no guard (the prover decides a guard first).
pub(crate) fn decide(r: &Relation, env: &Env<Symbolic>) -> Option<bool> {
    if r.guard.is_some() {
        return None;
    }
    let (up, down) = lang::occurrences(r, env, &())?;
    if up.is_empty() {
        return None;
    }
    let names: Vec<String> = (0..up.len()).map(|i| format!("abs__{i}")).collect();
    let xs: Vec<Symbolic> = up
        .iter()
        .map(|(at, _)| lang::argument(r, *at)?.eval_in(env, &()).ok())
        .collect::<Option<_>>()?;
    for every in lang::combinations(&down) {
        let mut choice = every;
        choice.extend(
            up.iter()
                .zip(&names)
                .map(|((at, _), n)| (*at, AbsBy::Var(n.clone()))),
        );
        let rel = lang::chosen(r, &choice);
        let mut env2 = env.clone();
        for n in &names {
            env2.insert(n.clone(), Symbolic::var(n));
        }
        let (l, rr) = (
            rel.lhs.eval_in(&env2, &()).ok()?,
            rel.rhs.eval_in(&env2, &()).ok()?,
        );
        let e = match r.rel {
            Rel::Le | Rel::Lt => rr.sub_r(&l),
            _ => l.sub_r(&rr),
        };
        // E = E₀ + Σ wᵢ|xᵢ|, wᵢ >= 0
        let (e0, w) = linear(&e, &names)?;
        if !w.iter().all(nonnegative) || e0.variables().iter().any(|v| names.contains(v)) {
            return None;
        }
        let mut chart: Vec<String> = xs
            .iter()
            .chain(std::iter::once(&e0))
            .flat_map(|x| x.variables())
            .filter(|v| is_chart(v))
            .collect();
        chart.sort();
        chart.dedup();
        if chart.is_empty() {
            return None;
        }
        let (_, e0_coefs) = linear(&e0, &chart)?;
        let cols: Vec<Vec<Symbolic>> = xs
            .iter()
            .map(|x| linear(x, &chart).map(|(_, c)| c))
            .collect::<Option<_>>()?;
        let nu = solve(&cols, &e0_coefs)?;
        let r0 = xs
            .iter()
            .zip(&nu)
            .fold(e0.clone(), |acc, (x, n)| acc.sub_r(&n.mul_r(x)));
        if r0.variables().iter().any(|v| is_chart(v)) {
            return None;
        }
        let r0_ok = match r.rel {
            Rel::Lt | Rel::Gt => r0.sign() == Sign::Positive,
            _ => nonnegative(&r0),
        };
        let bounded = w
            .iter()
            .zip(&nu)
            .all(|(w, n)| nonnegative(&w.sub_r(n)) && nonnegative(&w.add_r(n)));
        if !(r0_ok && bounded) {
            return None;
        }
    }
    Some(true)
}
