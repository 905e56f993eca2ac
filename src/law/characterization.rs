//! Pasquero's characterizations of (non-)ideal multiple impacts for r codimension-1
//! constraints (`pasquero-nonideal-multiple-constraints.txt`, Sect. 2–3), for any
//! symmetric positive-definite mass matrix M.
//!
//! Each constraint S_i is given by its gradient n_i (a covector) at the contact
//! configuration, oriented so that admissible motions have n_i·q̇ ≤ 0: the velocity
//! q̇ is *incoming* for S_i (an impact with S_i) when n_i·q̇ > 0. The orthogonal component
//! of q̇ with respect to S_i, in the metric M, is
//! V⊥_i(q̇) = (n_i·q̇)/(n_i M⁻¹ n_iᵀ) · M⁻¹n_iᵀ, and V⊥_{j1…jh}(q̇) is the M-orthogonal
//! projection of q̇ onto span{M⁻¹n_j1ᵀ, …, M⁻¹n_jhᵀ}.

use super::{decide, LawError};
use crate::arith::{Scalar, Sign};
use crate::linalg::LinalgError;
use crate::linalg::{add, dot, scale, solve, SymMatrix, Vector};
use serde::Serialize;

/// The constraints at the contact configuration, with the metric.
#[derive(Clone, Debug)]
pub struct Constraints<S> {
    /// The mass matrix M (symmetric by construction, checked positive definite).
    pub mass: SymMatrix<S>,
    /// The normals n_i (gradients), one per constraint.
    pub normals: Vec<Vector<S>>,
    /// M⁻¹n_iᵀ, one per constraint.
    dual: Vec<Vector<S>>,
    /// n_i M⁻¹ n_iᵀ > 0, one per constraint.
    norms: Vec<S>,
    /// The Gram matrix G_ab = n_a M⁻¹ n_bᵀ of all constraints, computed once: every
    /// impact set's Gram system is a submatrix of it.
    gram: Vec<Vector<S>>,
}

impl<S: Scalar> Constraints<S> {
    /// Checks M (positive definite) and the normals (right length, nonzero), and
    /// precomputes M⁻¹nᵀ.
    pub fn new(mass: SymMatrix<S>, normals: Vec<Vector<S>>) -> Result<Self, LawError> {
        let n = mass.dim();
        if n == 0 {
            return Err(LawError::Domain(
                "the system needs at least one degree of freedom".into(),
            ));
        }
        if normals.is_empty() {
            return Err(LawError::Domain("at least one constraint is needed".into()));
        }
        mass.check_positive_definite()?;
        let mut dual = Vec::new();
        let mut norms = Vec::new();
        for (i, nrm) in normals.iter().enumerate() {
            if nrm.len() != n {
                return Err(LawError::Domain(format!(
                    "normal {} has {} components, the system has {n} degrees of freedom",
                    i + 1,
                    nrm.len()
                )));
            }
            let d = mass.solve(nrm)?;
            let q = dot(nrm.iter(), d.iter());
            if decide(&q, "n M^-1 n")? != Sign::Positive {
                return Err(LawError::Domain(format!(
                    "normal {} is the zero covector",
                    i + 1
                )));
            }
            dual.push(d);
            norms.push(q);
        }
        let gram = normals
            .iter()
            .map(|a| dual.iter().map(|d| dot(a.iter(), d.iter())).collect())
            .collect();
        Ok(Constraints {
            mass,
            normals,
            dual,
            norms,
            gram,
        })
    }

    /// The Gram matrix G_ab = n_a M⁻¹ n_bᵀ of every constraint.
    pub fn gram(&self) -> &[Vector<S>] {
        &self.gram
    }

    /// M⁻¹n_iᵀ.
    pub fn dual(&self, i: usize) -> &[S] {
        &self.dual[i]
    }

    /// The number of constraints r.
    pub fn count(&self) -> usize {
        self.normals.len()
    }

    /// n_i · q̇ (the sign tells incoming (> 0) from outgoing).
    pub fn rate(&self, i: usize, v: &[S]) -> S {
        dot(self.normals[i].iter(), v.iter())
    }

    /// The constraints for which `v` is incoming (the impact set of Sect. 3.5 b)).
    pub fn impacting(&self, v: &[S]) -> Result<Vec<usize>, LawError> {
        let mut out = Vec::new();
        for i in 0..self.count() {
            if decide(&self.rate(i, v), &format!("n_{}·v", i + 1))? == Sign::Positive {
                out.push(i);
            }
        }
        Ok(out)
    }

    /// V⊥_i(q̇) = (n_i·q̇)/(n_i M⁻¹ n_iᵀ) · M⁻¹n_iᵀ.
    pub fn orthogonal(&self, i: usize, v: &[S]) -> Result<Vector<S>, LawError> {
        let c = self.rate(i, v).checked_div(&self.norms[i])?;
        Ok(scale(&c, &self.dual[i]))
    }

    /// V⊥_J(q̇): the M-orthogonal projection onto span{M⁻¹n_jᵀ : j ∈ J}, through the Gram
    /// system G λ = (n_j·q̇), G_ab = n_a M⁻¹ n_bᵀ. Dependent normals are an error.
    pub fn joint_orthogonal(&self, set: &[usize], v: &[S]) -> Result<Vector<S>, LawError> {
        let g = set
            .iter()
            .map(|&a| set.iter().map(|&b| self.gram[a][b].clone()).collect())
            .collect();
        let rhs = set.iter().map(|&a| self.rate(a, v)).collect();
        let lambda = solve(g, rhs).map_err(|e| match e {
            LinalgError::Domain(_) => LawError::Domain(format!(
                "the normals of constraints {:?} are linearly dependent",
                set.iter().map(|i| i + 1).collect::<Vec<_>>()
            )),
            other => other.into(),
        })?;
        let mut out = scale(&lambda[0], &self.dual[set[0]]);
        for (l, &j) in lambda.iter().zip(set).skip(1) {
            out = add(&out, &scale(l, &self.dual[j]));
        }
        Ok(out)
    }

    /// β = ⟨V⊥_J, Σ V⊥_j⟩_M / ‖Σ V⊥_j‖²_M (Sect. 3.2, 3.5 c)).
    pub fn beta(&self, set: &[usize], v: &[S]) -> Result<S, LawError> {
        let joint = self.joint_orthogonal(set, v)?;
        let sum = self.sum_orthogonal(set, v, None)?;
        let den = self.mass.inner(&sum, &sum);
        super::divide_nonzero(
            &self.mass.inner(&joint, &sum),
            &den,
            "|sum V_j|^2 (the denominator of beta)",
            "beta is undefined: its denominator is zero",
        )
    }

    /// Σ_j c_j V⊥_j with c_j = 1 + ε_j (or 1 when `cors` is `None`).
    fn sum_orthogonal(
        &self,
        set: &[usize],
        v: &[S],
        cors: Option<&[S]>,
    ) -> Result<Vector<S>, LawError> {
        let mut out: Option<Vector<S>> = None;
        for &j in set {
            let mut w = self.orthogonal(j, v)?;
            if let Some(e) = cors {
                w = scale(&e[j].one_like().add_r(&e[j]), &w);
            }
            out = Some(match out {
                None => w,
                Some(acc) => add(&acc, &w),
            });
        }
        out.ok_or_else(|| LawError::Domain("empty impact set".into()))
    }
}

/// The ideal rule (5): I = −2β(V⊥₁ + … + V⊥_h) for a multiple impact (h ≥ 2),
/// −2V⊥_j for a single impact, 0 without impact.
///
/// # Example
///
/// ```
/// use impactkit::arith::Rational;
/// use impactkit::law::characterization::{impulse_ideal, Constraints};
/// use impactkit::linalg::SymMatrix;
/// let r = |n| Rational::new(n, 1);
/// // 3-ball cradle, ball 1 at speed 1: only contact 1 (between balls 1 and 2) is hit
/// let mass = SymMatrix::diagonal(&[r(1), r(1), r(1)]);
/// let c = Constraints::new(mass, vec![vec![r(1), r(-1), r(0)], vec![r(0), r(1), r(-1)]]).unwrap();
/// let v = [r(1), r(0), r(0)];
/// assert_eq!(c.impacting(&v).unwrap(), vec![0]);
/// let i = impulse_ideal(&c, &[0], &v).unwrap();
/// assert_eq!(i.iter().map(|x| x.to_string()).collect::<Vec<_>>(), ["-1", "1", "0"]);
/// ```
pub fn impulse_ideal<S: Scalar>(
    c: &Constraints<S>,
    set: &[usize],
    v: &[S],
) -> Result<Vector<S>, LawError> {
    let two = v[0].lift_i64(2);
    match set.len() {
        0 => Ok(scale(&v[0].zero_like(), v)),
        1 => Ok(scale(&-two, &c.orthogonal(set[0], v)?)),
        _ => {
            let b = c.beta(set, v)?;
            Ok(scale(&-(two * &b), &c.sum_orthogonal(set, v, None)?))
        }
    }
}

/// The symmetric non-ideal rule (6) with one COR ε: I = −(1 + ε)β ΣV⊥_j (h ≥ 2),
/// −(1 + ε)V⊥_j (h = 1), 0 (h = 0).
pub fn impulse_symmetric<S: Scalar>(
    c: &Constraints<S>,
    eps: &S,
    set: &[usize],
    v: &[S],
) -> Result<Vector<S>, LawError> {
    let a = eps.one_like().add_r(eps);
    match set.len() {
        0 => Ok(scale(&v[0].zero_like(), v)),
        1 => Ok(scale(&-a, &c.orthogonal(set[0], v)?)),
        _ => {
            let b = c.beta(set, v)?;
            Ok(scale(&-(a * &b), &c.sum_orthogonal(set, v, None)?))
        }
    }
}

/// The asymmetric rule (7)/(8) with one COR per constraint:
/// I = −β Σ(1 + ε_j)V⊥_j (h ≥ 2), −(1 + ε_j)V⊥_j (h = 1), 0 (h = 0).
pub fn impulse_asymmetric<S: Scalar>(
    c: &Constraints<S>,
    cors: &[S],
    set: &[usize],
    v: &[S],
) -> Result<Vector<S>, LawError> {
    match set.len() {
        0 => Ok(scale(&v[0].zero_like(), v)),
        1 => {
            let j = set[0];
            Ok(scale(
                &-(cors[j].one_like().add_r(&cors[j])),
                &c.orthogonal(j, v)?,
            ))
        }
        _ => {
            let b = c.beta(set, v)?;
            Ok(scale(&-b, &c.sum_orthogonal(set, v, Some(cors))?))
        }
    }
}

/// One step of the trace of Sect. 3.5.
#[derive(Clone, Debug)]
pub struct Step<S> {
    /// The impacting constraints (0-based).
    pub impacting: Vec<usize>,
    /// The velocity after the impulse (empty unless the run recorded velocities).
    pub velocity: Vector<S>,
}

impl<S> Step<S> {
    /// `single` or `multiple`.
    pub fn kind(&self) -> &'static str {
        if self.impacting.len() >= 2 {
            "multiple"
        } else {
            "single"
        }
    }
}

/// Why the procedure stopped.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stop {
    /// No constraint is impacted: an exit velocity (Sect. 3.5 e), f)).
    Exit,
    /// "Almost equal exit velocities": every |n_i·q̇| ≤ σ (Table 1).
    Aeev,
    /// The largest number of iterations was reached.
    MaxIterations,
    /// The exact numbers outgrew the work limit (decimal digits of a velocity).
    WorkLimit { step: usize, digits: u64 },
    /// A sign could not be decided.
    Undecided {
        quantity: String,
        lo: String,
        hi: String,
    },
}

impl Stop {
    /// The name used in reports.
    pub fn name(&self) -> &'static str {
        match self {
            Stop::Exit => "exit",
            Stop::Aeev => "aeev",
            Stop::MaxIterations => "max-iterations",
            Stop::WorkLimit { .. } => "work-limit",
            Stop::Undecided { .. } => "undecided",
        }
    }
}

/// The outcome of the procedure.
#[derive(Clone, Debug)]
pub struct Outcome<S> {
    pub initial: Vector<S>,
    pub steps: Vec<Step<S>>,
    pub stop: Stop,
    /// The velocity at the end.
    pub last: Vector<S>,
}

impl<S: Scalar> Outcome<S> {
    /// The last velocity.
    pub fn final_velocity(&self) -> &Vector<S> {
        &self.last
    }
}

/// Every |n_i·q̇| ≤ σ.
pub fn almost_equal<S: Scalar>(c: &Constraints<S>, v: &[S], sigma: &S) -> Result<bool, LawError> {
    for i in 0..c.count() {
        let r = c.rate(i, v);
        let abs = if decide(&r, "n·v")? == Sign::Negative {
            -r
        } else {
            r
        };
        if decide(&abs.sub_r(sigma), "|n·v| - sigma")? == Sign::Positive {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Kinetic energy ½ q̇ᵀMq̇.
pub fn kinetic_energy<S: Scalar>(c: &Constraints<S>, v: &[S]) -> Result<S, LawError> {
    Ok(c.mass.inner(v, v).checked_div(&v[0].lift_i64(2))?)
}
