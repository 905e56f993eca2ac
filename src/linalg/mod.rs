//! Small dense linear algebra over [`Scalar`]: vectors, symmetric matrices, the mass
//! metric ⟨a, b⟩_M = aᵀMb, and Gaussian elimination whose pivots are chosen through
//! `sign()` (exact in exact backends: no rounding ever happens there; an enclosure pivot
//! that cannot be told from 0 is reported, not guessed).

pub mod lcp;

use crate::arith::{decide, ArithError, Scalar, Sign, Undecided};

/// Why a linear-algebra operation failed: an undecided pivot sign, an arithmetic error, or
/// a singular / non-positive-definite matrix.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LinalgError {
    #[error(transparent)]
    Undecided(#[from] Undecided),
    #[error(transparent)]
    Arith(#[from] ArithError),
    #[error("{0}")]
    Domain(String),
}

/// A vector.
pub type Vector<S> = Vec<S>;

/// A square matrix, row major.
pub type Matrix<S> = Vec<Vec<S>>;

/// A symmetric matrix stored by its upper triangle (symmetric by construction).
#[derive(Clone, Debug, PartialEq)]
pub struct SymMatrix<S> {
    n: usize,
    /// Row i holds entries (i, i), (i, i+1), …, (i, n−1).
    upper: Vec<Vec<S>>,
}

impl<S: Scalar> SymMatrix<S> {
    /// The diagonal matrix diag(d).
    pub fn diagonal(d: &[S]) -> Self {
        let n = d.len();
        let upper = (0..n)
            .map(|i| {
                (i..n)
                    .map(|j| {
                        if i == j {
                            d[i].clone()
                        } else {
                            d[i].zero_like()
                        }
                    })
                    .collect()
            })
            .collect();
        SymMatrix { n, upper }
    }
    /// From the upper triangle, row by row (row i has n − i entries).
    pub fn from_upper(upper: Vec<Vec<S>>) -> Result<Self, LinalgError> {
        let n = upper.len();
        for (i, row) in upper.iter().enumerate() {
            if row.len() != n - i {
                return Err(LinalgError::Domain(format!(
                    "upper triangle row {i} has {} entries, expected {}",
                    row.len(),
                    n - i
                )));
            }
        }
        Ok(SymMatrix { n, upper })
    }
    /// The dimension.
    pub fn dim(&self) -> usize {
        self.n
    }
    /// Entry (i, j).
    pub fn get(&self, i: usize, j: usize) -> &S {
        let (a, b) = if i <= j { (i, j) } else { (j, i) };
        &self.upper[a][b - a]
    }
    /// The full matrix.
    pub fn full(&self) -> Matrix<S> {
        (0..self.n)
            .map(|i| (0..self.n).map(|j| self.get(i, j).clone()).collect())
            .collect()
    }
    /// `M a`.
    pub fn apply(&self, a: &[S]) -> Vector<S> {
        (0..self.n)
            .map(|i| dot((0..self.n).map(|j| self.get(i, j)), a.iter()))
            .collect()
    }
    /// ⟨a, b⟩_M = aᵀ M b.
    pub fn inner(&self, a: &[S], b: &[S]) -> S {
        dot(a.iter(), self.apply(b).iter())
    }
    /// Checks positive definiteness: every pivot of the symmetric elimination (LDLᵀ) is
    /// positive (equivalently, every leading principal minor is, by Sylvester's criterion).
    pub fn check_positive_definite(&self) -> Result<(), LinalgError> {
        let mut a = self.full();
        for k in 0..self.n {
            if decide(&a[k][k], "a pivot of the mass matrix")? != Sign::Positive {
                return Err(LinalgError::Domain(
                    "the mass matrix is not positive definite".into(),
                ));
            }
            let pivot_row = a[k].clone();
            for row in a.iter_mut().skip(k + 1) {
                eliminate(row, &pivot_row, k)?;
            }
        }
        Ok(())
    }
    /// Solves M x = b (M must be invertible).
    pub fn solve(&self, b: &[S]) -> Result<Vector<S>, LinalgError> {
        if let Some(x) = self.solve_diagonal(b) {
            return x;
        }
        solve(self.full(), b.to_vec())
    }

    /// pᵀM⁻¹p: `dot(p, M⁻¹p)` with the same values, without an allocation when M is diagonal.
    pub fn inverse_quadratic(&self, p: &[S]) -> Result<S, LinalgError> {
        if !self.is_diagonal() || p.is_empty() {
            let v = self.solve(p)?;
            return Ok(dot(p.iter(), v.iter()));
        }
        let v = |i: usize| p[i].checked_div(&self.upper[i][0]);
        let mut acc = p[0].mul_r(&v(0)?);
        for (i, pi) in p.iter().enumerate().skip(1) {
            // as `dot`: a term with an exactly-zero factor is skipped
            let vi = v(i)?;
            if pi.sign() == Sign::Zero || vi.sign() == Sign::Zero {
                continue;
            }
            acc = acc + &pi.mul_r(&vi);
        }
        Ok(acc)
    }

    /// Every off-diagonal entry exactly 0 and every diagonal entry decided nonzero.
    pub fn is_diagonal(&self) -> bool {
        self.upper.iter().all(|row| {
            matches!(row[0].sign(), Sign::Positive | Sign::Negative)
                && row[1..].iter().all(|x| x.sign() == Sign::Zero)
        })
    }

    /// x_i = b_i / m_ii when every off-diagonal entry is exactly 0 and every diagonal
    /// entry is decided nonzero: what [`solve`] computes then (no row is eliminated, each
    /// back substitution is the one division), without building the full matrix.
    fn solve_diagonal(&self, b: &[S]) -> Option<Result<Vector<S>, LinalgError>> {
        self.is_diagonal().then(|| {
            b.iter()
                .zip(&self.upper)
                .map(|(bi, row)| Ok(bi.checked_div(&row[0])?))
                .collect()
        })
    }
}

/// Σ aᵢbᵢ. Terms with an exactly-zero factor are skipped: the normals and mass matrices
/// of the systems (cradles, corners) are sparse, and in exact arithmetic a product costs
/// far more than a zero test.
pub fn dot<'a, S: Scalar>(
    mut a: impl Iterator<Item = &'a S>,
    mut b: impl Iterator<Item = &'a S>,
) -> S {
    let (Some(x), Some(y)) = (a.next(), b.next()) else {
        panic!("dot of empty vectors");
    };
    let mut acc = x.mul_r(y);
    for (x, y) in a.zip(b) {
        if x.sign() == Sign::Zero || y.sign() == Sign::Zero {
            continue;
        }
        acc = acc + &x.mul_r(y);
    }
    acc
}

/// a + b.
pub fn add<S: Scalar>(a: &[S], b: &[S]) -> Vector<S> {
    a.iter().zip(b).map(|(x, y)| x.add_r(y)).collect()
}

/// a − b.
pub fn sub<S: Scalar>(a: &[S], b: &[S]) -> Vector<S> {
    a.iter().zip(b).map(|(x, y)| x.sub_r(y)).collect()
}

/// c · a.
pub fn scale<S: Scalar>(c: &S, a: &[S]) -> Vector<S> {
    a.iter().map(|x| c.mul_r(x)).collect()
}

/// `row −= f · pivot_row` on columns k.., with f = row[k]/pivot_row[k]; returns f.
fn eliminate<S: Scalar>(row: &mut [S], pivot_row: &[S], k: usize) -> Result<S, LinalgError> {
    if row[k].sign() == Sign::Zero {
        return Ok(row[k].clone()); // nothing to eliminate (banded systems stay banded)
    }
    let f = row[k].checked_div(&pivot_row[k])?;
    if f.sign() != Sign::Zero {
        for (x, p) in row[k..].iter_mut().zip(&pivot_row[k..]) {
            if p.sign() != Sign::Zero {
                *x = x.sub_r(&f.mul_r(p));
            }
        }
    }
    Ok(f)
}

/// Solves A x = b by Gaussian elimination, choosing as pivot the first entry whose sign is
/// decided nonzero, else the first entry that is a nonzero element of its field
/// ([`Scalar::nonzero_in_field`]: a rational function that is not the zero function,
/// whose sign on a cell is not decided). The solution is then Cramer's adj(A)·b/det(A)
/// as a rational function, the same whichever pivots are used, and so the exact solution
/// at every point where A is regular. An error if A is singular (`Domain`), or if no
/// pivot can be decided (`Undecided`).
pub fn solve<S: Scalar>(mut a: Matrix<S>, mut b: Vector<S>) -> Result<Vector<S>, LinalgError> {
    let n = b.len();
    for k in 0..n {
        let mut pivot = None;
        let mut undecided = None;
        for (i, row) in a.iter().enumerate().skip(k) {
            match decide(&row[k], "a pivot") {
                Ok(Sign::Zero) => {}
                Ok(_) => {
                    pivot = Some(i);
                    break;
                }
                Err(e) => undecided = undecided.or(Some(e)),
            }
        }
        let pivot = pivot.or_else(|| {
            (k..n).find(|&i| a[i][k].sign() == Sign::Unknown && a[i][k].nonzero_in_field())
        });
        let p = match (pivot, undecided) {
            (Some(p), _) => p,
            (None, Some(e)) => return Err(e.into()),
            (None, None) => {
                return Err(LinalgError::Domain(
                    "the linear system is singular (dependent constraint normals?)".into(),
                ))
            }
        };
        a.swap(k, p);
        b.swap(k, p);
        let (top, below) = a.split_at_mut(k + 1);
        let (b_top, b_below) = b.split_at_mut(k + 1);
        let (pivot_row, pivot_b) = (&top[k], &b_top[k]);
        for (row, bi) in below.iter_mut().zip(b_below.iter_mut()) {
            let f = eliminate(row, pivot_row, k)?;
            if f.sign() != Sign::Zero {
                *bi = bi.sub_r(&f.mul_r(pivot_b));
            }
        }
    }
    // back substitution in place: b[k] becomes x[k], from the last row up
    for k in (0..n).rev() {
        let (head, solved) = b.split_at_mut(k + 1);
        let mut acc = head[k].clone();
        for (j, xj) in (k + 1..n).zip(solved.iter()) {
            if a[k][j].sign() != Sign::Zero {
                acc = acc - &a[k][j].mul_r(xj);
            }
        }
        head[k] = acc.checked_div(&a[k][k])?;
    }
    Ok(b)
}

/// A basis of the kernel {x : r·x = 0 for every row r} of `rows` (each of length `n`),
/// by exact reduction to row echelon form with pivots decided through `sign()`: one
/// basis vector per free column.
pub fn nullspace<S: Scalar>(
    rows: &[Vector<S>],
    n: usize,
    zero: &S,
) -> Result<Vec<Vector<S>>, LinalgError> {
    let mut a: Matrix<S> = rows.to_vec();
    let mut pivots: Vec<usize> = Vec::new();
    let mut r = 0;
    for c in 0..n {
        if r == a.len() {
            break;
        }
        let mut found = None;
        for (i, row) in a.iter().enumerate().skip(r) {
            if decide(&row[c], "a pivot of the kernel")? != Sign::Zero {
                found = Some(i);
                break;
            }
        }
        let Some(p) = found else { continue };
        a.swap(r, p);
        let pivot = a[r][c].clone();
        let row_r: Vector<S> = a[r]
            .iter()
            .map(|x| x.checked_div(&pivot))
            .collect::<Result<_, _>>()?;
        a[r] = row_r.clone();
        for (i, row) in a.iter_mut().enumerate() {
            if i != r && row[c].sign() != Sign::Zero {
                let f = row[c].clone();
                for (x, y) in row.iter_mut().zip(&row_r) {
                    *x = x.sub_r(&f.mul_r(y));
                }
            }
        }
        pivots.push(c);
        r += 1;
    }
    let one = zero.one_like();
    Ok((0..n)
        .filter(|c| !pivots.contains(c))
        .map(|free| {
            let mut x = vec![zero.clone(); n];
            x[free] = one.clone();
            for (k, &c) in pivots.iter().enumerate() {
                x[c] = -a[k][free].clone();
            }
            x
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Rational;

    fn r(n: i64) -> Rational {
        Rational::new(n, 1)
    }

    #[test]
    fn solves_exactly() {
        // [[0, 2], [3, 1]] x = [4, 5] → x = [1, 2] (needs a row swap)
        let a = vec![vec![r(0), r(2)], vec![r(3), r(1)]];
        assert_eq!(solve(a, vec![r(4), r(5)]).unwrap(), vec![r(1), r(2)]);
        let s = vec![vec![r(1), r(2)], vec![r(2), r(4)]];
        assert!(solve(s, vec![r(1), r(1)])
            .unwrap_err()
            .to_string()
            .contains("singular"));
    }

    #[test]
    fn positive_definite() {
        let m = SymMatrix::from_upper(vec![vec![r(2), r(1)], vec![r(2)]]).unwrap();
        assert!(m.check_positive_definite().is_ok());
        assert_eq!(m.inner(&[r(1), r(1)], &[r(1), r(0)]), r(3));
        let bad = SymMatrix::from_upper(vec![vec![r(1), r(2)], vec![r(1)]]).unwrap();
        assert!(bad.check_positive_definite().is_err());
        assert!(SymMatrix::<Rational>::from_upper(vec![vec![r(1)], vec![r(1)]]).is_err());
    }
}
