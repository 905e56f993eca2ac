//! Linear algebra over rational functions: the affine decomposition of a rational
//! function in some of its variables, and a solution of a linear system (used to find
//! the multipliers of a Lipschitz-type bound; whoever uses a solution checks it).

use super::Symbolic;
use crate::arith::Scalar;
use num_rational::BigRational;
use num_traits::Zero;

/// `f` with every variable of `vars` set to the given values (others 0).
fn at(f: &Symbolic, vars: &[String], one: Option<usize>) -> Option<Symbolic> {
    let mut g = f.clone();
    for (j, v) in vars.iter().enumerate() {
        let value = if Some(j) == one { 1 } else { 0 };
        g = g
            .substitute(
                v,
                &Symbolic::constant(&BigRational::from_integer(value.into())),
            )
            .ok()?;
    }
    Some(g)
}

/// `f = f₀ + Σ aⱼvⱼ` exactly (the constant part and the coefficients), or `None`.
pub fn linear(f: &Symbolic, vars: &[String]) -> Option<(Symbolic, Vec<Symbolic>)> {
    let f0 = at(f, vars, None)?;
    let coefs: Vec<Symbolic> = (0..vars.len())
        .map(|j| at(f, vars, Some(j)).map(|g| g.sub_r(&f0)))
        .collect::<Option<_>>()?;
    let back = vars.iter().zip(&coefs).fold(f0.clone(), |acc, (v, a)| {
        acc.add_r(&a.mul_r(&Symbolic::var(v)))
    });
    back.is_identical(f).then_some((f0, coefs))
}

fn is_zero(x: &Symbolic) -> bool {
    x.is_constant().is_some_and(|q| q.is_zero())
}

/// A solution ν of Σᵢ νᵢ·`cols[i]` = `rhs` (Gaussian elimination; unknowns without a pivot
/// are 0). Not checked here: the caller checks the residual.
pub fn solve(cols: &[Vec<Symbolic>], rhs: &[Symbolic]) -> Option<Vec<Symbolic>> {
    let (m, n) = (cols.len(), rhs.len());
    let mut rows: Vec<Vec<Symbolic>> = (0..n)
        .map(|j| {
            let mut row: Vec<Symbolic> = cols.iter().map(|c| c[j].clone()).collect();
            row.push(rhs[j].clone());
            row
        })
        .collect();
    let mut pivots = Vec::new();
    let mut rank = 0;
    for i in 0..m {
        let Some(p) = (rank..n).find(|&j| !is_zero(&rows[j][i])) else {
            continue;
        };
        rows.swap(rank, p);
        let piv = rows[rank][i].clone();
        for x in rows[rank].iter_mut() {
            *x = x.checked_div(&piv).ok()?;
        }
        let pivot_row = rows[rank].clone();
        for (_, row) in rows.iter_mut().enumerate().filter(|(j, _)| *j != rank) {
            let f = row[i].clone();
            if !is_zero(&f) {
                for (x, p) in row.iter_mut().zip(&pivot_row) {
                    *x = x.sub_r(&f.mul_r(p));
                }
            }
        }
        pivots.push((i, rank));
        rank += 1;
    }
    let zero = Symbolic::constant(&BigRational::zero());
    let mut nu = vec![zero; m];
    for (i, r) in pivots {
        nu[i] = rows[r][m].clone();
    }
    Some(nu)
}
