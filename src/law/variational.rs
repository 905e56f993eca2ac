//! The variational integrator of Seghete & Murphey Sect. VI
//! (`seghete-murphey-propagative-impact.txt`), for L(q, q̇) = ½ q̇ᵀMq̇ − V(q) with a
//! constant mass matrix M and a potential V whose gradient is affine,
//! ∇V(q) = Kq + s − f: a constant generalized force f (gravity) and linear springs
//! V_j = ½ k_j (a_j·q + b_j)², so K = Σ k_j a_jᵀa_j and s = Σ k_j b_j a_jᵀ.
//!
//! - The discrete Lagrangian of the midpoint rule (Sect. VI, the display before (28)):
//!   L_d(q₀, t₀, q₁, t₁) = h L((q₀ + q₁)/2, (q₁ − q₀)/h), h = t₁ − t₀.
//! - Its partial derivatives D₁L_d = −M(q₁ − q₀)/h − (h/2)∇V(q̄) and
//!   D₂L_d = M(q₁ − q₀)/h − (h/2)∇V(q̄), q̄ = (q₀ + q₁)/2 — the paper's F⁻(t₀, t₁) and
//!   F⁺(t₀, t₁) of (29).
//! - The DEL equations (28) = (29): D₂L_d(q_{k−1}, q_k) + D₁L_d(q_k, q_{k+1}) = 0.
//!
//! **Sign convention.** The paper calls F⁻ = ∂L_d/∂q_a a "backward momentum" that (29)
//! makes *equal* to the forward one; with that definition (29), F⁺ + F⁻ = 0, makes them
//! opposite. The mechanics (the continuous limit, and (30) itself) needs the discrete
//! Legendre transforms p_a = −D₁L_d(q_a, q_b) and p_b = D₂L_d(q_a, q_b) (Marsden–West):
//! this module uses those, and the claim `sm-vi-legendre-29` checks the printed reading.
//!
//! Given the node momentum p₀ = p_k, the step solves p₀ = −D₁L_d(q₀, q₁) for q₁ (linear:
//! (M + h²K/4)(q₁ − q₀) = h(p₀ − (h/2)∇V(q₀))) and returns p₁ = D₂L_d(q₀, q₁). For an
//! affine ∇V this is the implicit midpoint rule, which keeps every quadratic first
//! integral exactly: the energy ½pM⁻¹pᵀ + V(q) is the same at every node.

use super::LawError;
use crate::arith::Scalar;
use crate::linalg::{add, dot, scale, solve, sub, Matrix, SymMatrix, Vector};

/// A linear spring V = ½ k (a·q + b)².
#[derive(Clone, Debug)]
pub struct Spring<S> {
    pub stiffness: S,
    pub a: Vector<S>,
    pub b: S,
}

/// L(q, q̇) = ½ q̇ᵀMq̇ − V(q) with V(q) = −f·q + Σ ½ k_j (a_j·q + b_j)².
#[derive(Clone, Debug)]
pub struct Lagrangian<S> {
    pub mass: SymMatrix<S>,
    /// The constant generalized force f = −∇(potential of gravity) (a covector).
    pub force: Vector<S>,
    pub springs: Vec<Spring<S>>,
}

impl<S: Scalar> Lagrangian<S> {
    /// The number of coordinates.
    pub fn dim(&self) -> usize {
        self.mass.dim()
    }

    /// Whether V has springs (∇V not constant).
    pub fn has_springs(&self) -> bool {
        !self.springs.is_empty()
    }

    /// V(q) = −f·q + Σ ½ k (a·q + b)².
    pub fn potential(&self, q: &[S]) -> S {
        let mut v = -dot(self.force.iter(), q.iter());
        for s in &self.springs {
            let e = dot(s.a.iter(), q.iter()) + &s.b;
            v = v + &s.stiffness.mul_r(&e.square()).halve();
        }
        v
    }

    /// ∇V(q) = Σ k (a·q + b) a − f.
    pub fn grad_potential(&self, q: &[S]) -> Vector<S> {
        let mut g: Vector<S> = self.force.iter().map(|x| -x.clone()).collect();
        for s in &self.springs {
            let e = s.stiffness.mul_r(&(dot(s.a.iter(), q.iter()) + &s.b));
            g = add(&g, &scale(&e, &s.a));
        }
        g
    }

    /// K = Σ k aᵀa (the Hessian of V).
    pub fn stiffness(&self) -> Matrix<S> {
        let n = self.dim();
        let zero = self.mass.get(0, 0).zero_like();
        let mut k = vec![vec![zero; n]; n];
        for s in &self.springs {
            for (i, row) in k.iter_mut().enumerate() {
                for (j, x) in row.iter_mut().enumerate() {
                    *x = x.add_r(&s.stiffness.mul_r(&s.a[i].mul_r(&s.a[j])));
                }
            }
        }
        k
    }

    /// L(q, q̇) = ½ q̇ᵀMq̇ − V(q).
    pub fn lagrangian(&self, q: &[S], qdot: &[S]) -> S {
        let t = self.mass.inner(qdot, qdot);
        t.halve() - &self.potential(q)
    }

    /// The energy of a node, H(q, p) = ½ pM⁻¹pᵀ + V(q).
    pub fn energy(&self, q: &[S], p: &[S]) -> Result<S, LawError> {
        Ok(self.mass.inverse_quadratic(p)?.halve() + &self.potential(q))
    }

    /// The midpoint discrete Lagrangian L_d(q₀, t₀, q₁, t₀ + h) = h L(q̄, (q₁ − q₀)/h)
    /// (Sect. VI, the display before (28)).
    pub fn discrete(&self, q0: &[S], q1: &[S], h: &S) -> Result<S, LawError> {
        let mid = midpoint(q0, q1);
        let v: Vector<S> = sub(q1, q0)
            .iter()
            .map(|x| x.checked_div(h))
            .collect::<Result<_, _>>()?;
        Ok(h.mul_r(&self.lagrangian(&mid, &v)))
    }

    /// D₁L_d(q₀, q₁) = −M(q₁ − q₀)/h − (h/2)∇V(q̄): the paper's F⁻ of (29) (minus the
    /// momentum at the start of the interval).
    pub fn d1(&self, q0: &[S], q1: &[S], h: &S) -> Result<Vector<S>, LawError> {
        let (m, g) = self.d_parts(q0, q1, h)?;
        Ok(sub(&m.iter().map(|x| -x.clone()).collect::<Vec<_>>(), &g))
    }

    /// D₂L_d(q₀, q₁) = M(q₁ − q₀)/h − (h/2)∇V(q̄): F⁺ of (29), the momentum at the end.
    pub fn d2(&self, q0: &[S], q1: &[S], h: &S) -> Result<Vector<S>, LawError> {
        let (m, g) = self.d_parts(q0, q1, h)?;
        Ok(sub(&m, &g))
    }

    /// (M(q₁ − q₀)/h, (h/2)∇V(q̄)).
    fn d_parts(&self, q0: &[S], q1: &[S], h: &S) -> Result<(Vector<S>, Vector<S>), LawError> {
        let m: Vector<S> = self
            .mass
            .apply(&sub(q1, q0))
            .iter()
            .map(|x| x.checked_div(h))
            .collect::<Result<_, _>>()?;
        let half_h = h.halve();
        let g = scale(&half_h, &self.grad_potential(&midpoint(q0, q1)));
        Ok((m, g))
    }

    /// The configuration q₁ of [`Lagrangian::step`] alone (no division by h, so `h` may
    /// be an enclosure containing 0).
    pub fn position(&self, q0: &[S], p0: &[S], h: &S) -> Result<Vector<S>, LawError> {
        Ok(add(q0, &self.displacement(q0, p0, h)?))
    }

    /// q₁ − q₀ from (M + h²K/4)(q₁ − q₀) = h(p₀ − (h/2)∇V(q₀)).
    fn displacement(&self, q0: &[S], p0: &[S], h: &S) -> Result<Vector<S>, LawError> {
        let half_h = h.halve();
        let rhs = scale(h, &sub(p0, &scale(&half_h, &self.grad_potential(q0))));
        if !self.has_springs() {
            return Ok(self.mass.solve(&rhs)?);
        }
        let k = self.stiffness();
        let quarter_hh = h.square().lift_quarter();
        let a: Matrix<S> = self
            .mass
            .full()
            .iter()
            .zip(&k)
            .map(|(mr, kr)| {
                mr.iter()
                    .zip(kr)
                    .map(|(m, k)| m.add_r(&quarter_hh.mul_r(k)))
                    .collect()
            })
            .collect();
        Ok(solve(a, rhs)?)
    }

    /// One step of length h from the node (q₀, p₀): solves p₀ = −D₁L_d(q₀, q₁) (the DEL
    /// (28) with p₀ = D₂L_d of the previous step, (29)) and returns (q₁, p₁ = D₂L_d).
    /// With held contacts, `force` replaces f (see `crate::system::stepper`).
    ///
    /// # Example
    ///
    /// ```
    /// use impactkit::arith::Rational;
    /// use impactkit::law::variational::Lagrangian;
    /// use impactkit::linalg::SymMatrix;
    /// let r = |n, d| Rational::new(n, d);
    /// // a unit mass under gravity g = 10 (force −10 on y), one step of h = 1/10
    /// let l = Lagrangian { mass: SymMatrix::diagonal(&[r(1, 1), r(1, 1)]), force: vec![r(0, 1), r(-10, 1)], springs: vec![] };
    /// let (q, p) = l.step(&[r(0, 1), r(1, 4)], &[r(1, 1), r(0, 1)], &r(1, 10)).unwrap();
    /// assert_eq!([q[0].to_string(), q[1].to_string()], ["1/10", "1/5"]);
    /// assert_eq!([p[0].to_string(), p[1].to_string()], ["1", "-1"]);
    /// ```
    pub fn step(&self, q0: &[S], p0: &[S], h: &S) -> Result<(Vector<S>, Vector<S>), LawError> {
        let (mut q, mut p) = (q0.to_vec(), p0.to_vec());
        self.step_in_place(&mut q, &mut p, h)?;
        Ok((q, p))
    }

    /// [`Lagrangian::step`] written over (q, p): the same values. Without springs ∇V = −f
    /// is constant, so the step is M(q₁ − q₀) = h(p₀ + (h/2)f), p₁ = p₀ + hf, computed in
    /// place (no allocation for a diagonal M).
    pub fn step_in_place(&self, q: &mut [S], p: &mut [S], h: &S) -> Result<(), LawError> {
        if self.has_springs() || !self.mass.is_diagonal() {
            let (q1, p1) = self.step_general(q, p, h)?;
            q.clone_from_slice(&q1);
            p.clone_from_slice(&p1);
            return Ok(());
        }
        let half_h = h.halve();
        for (i, (qi, pi)) in q.iter_mut().zip(p.iter_mut()).enumerate() {
            let g = -self.force[i].clone();
            // h(p₀ − (h/2)∇V)/m_ii, p₁ = p₀ − h∇V(q̄): as `displacement` and `step_general`
            let dq = h
                .mul_r(&pi.sub_r(&half_h.mul_r(&g)))
                .checked_div(self.mass.get(i, i))?;
            *pi = pi.sub_r(&h.mul_r(&g));
            *qi = qi.add_r(&dq);
        }
        Ok(())
    }

    fn step_general(&self, q0: &[S], p0: &[S], h: &S) -> Result<(Vector<S>, Vector<S>), LawError> {
        let dq = self.displacement(q0, p0, h)?;
        // p₁ = D₂L_d(q₀, q₁) = p₀ − h∇V(q̄) (the sum of the two DEL forms), written
        // without q₁ − q₀ so that an enclosure of q₀ does not widen p₁ by 2w(q₀)/h.
        let mid: Vector<S> = q0
            .iter()
            .zip(&dq)
            .map(|(x, d)| x.add_r(&d.halve()))
            .collect();
        let p1 = sub(p0, &scale(h, &self.grad_potential(&mid)));
        let q1 = add(q0, &dq);
        Ok((q1, p1))
    }
}

/// (q₀ + q₁)/2.
pub fn midpoint<S: Scalar>(q0: &[S], q1: &[S]) -> Vector<S> {
    add(q0, q1).iter().map(|x| x.halve()).collect()
}

/// 1/4, made once.
static QUARTER: std::sync::LazyLock<num_rational::BigRational> =
    std::sync::LazyLock::new(|| num_rational::BigRational::new(1.into(), 4.into()));

/// Quarters without a division that can fail (halves: [`Scalar::halve`]).
trait Fractions: Scalar {
    fn lift_quarter(&self) -> Self {
        self.mul_r(&self.lift(&QUARTER))
    }
}

impl<S: Scalar> Fractions for S {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Rational;

    fn r(n: i64, d: i64) -> Rational {
        Rational::from_big(&num_rational::BigRational::new(n.into(), d.into()))
    }

    /// The in-place step is the general step's arithmetic: with M = diag(2, 3), f = (1, −10),
    /// h = 1/10 from q = (1/3, 1/4), p = (1, 0), by hand q₁ − q₀ = h(p + hf/2)/m =
    /// (21/400, −1/60) and p₁ = p + hf = (11/10, −1); and pᵀM⁻¹p without a solve.
    #[test]
    fn in_place_step_equals_the_general_step() {
        let l = Lagrangian {
            mass: SymMatrix::diagonal(&[r(2, 1), r(3, 1)]),
            force: vec![r(1, 1), r(-10, 1)],
            springs: vec![],
        };
        let (q0, p0, h) = (vec![r(1, 3), r(1, 4)], vec![r(1, 1), r(0, 1)], r(1, 10));
        let (mut q, mut p) = (q0.clone(), p0.clone());
        l.step_in_place(&mut q, &mut p, &h).unwrap();
        assert_eq!(q, vec![r(463, 1200), r(7, 30)]);
        assert_eq!(p, vec![r(11, 10), r(-1, 1)]);
        assert_eq!((q, p.clone()), l.step_general(&q0, &p0, &h).unwrap());
        assert_eq!(l.mass.inverse_quadratic(&p).unwrap(), r(563, 600));
        assert_eq!(
            l.mass.inverse_quadratic(&[r(0, 1), r(3, 1)]).unwrap(),
            r(3, 1)
        );
    }

    /// A ball under gravity g = 10 (M = 1, f = −10): the midpoint step is exact for the
    /// parabola, y₁ = y₀ + h p₀ − 5h², p₁ = p₀ − 10h.
    #[test]
    fn gravity_step_is_the_parabola() {
        let l = Lagrangian {
            mass: SymMatrix::diagonal(&[r(1, 1)]),
            force: vec![r(-10, 1)],
            springs: vec![],
        };
        let (q1, p1) = l.step(&[r(1, 4)], &[r(0, 1)], &r(1, 10)).unwrap();
        assert_eq!(q1, vec![r(1, 5)]);
        assert_eq!(p1, vec![r(-1, 1)]);
        // DEL (29): D₂L_d(q₀, q₁) + D₁L_d(q₁, q₂) = 0 along two steps.
        let (q2, _) = l.step(&q1, &p1, &r(1, 10)).unwrap();
        let a = l.d2(&[r(1, 4)], &q1, &r(1, 10)).unwrap();
        let b = l.d1(&q1, &q2, &r(1, 10)).unwrap();
        assert_eq!(add(&a, &b), vec![r(0, 1)]);
    }

    /// A harmonic oscillator (k = 1, m = 1): the energy is the same at every node.
    #[test]
    fn spring_energy_is_kept_at_every_node() {
        let l = Lagrangian {
            mass: SymMatrix::diagonal(&[r(1, 1)]),
            force: vec![r(0, 1)],
            springs: vec![Spring {
                stiffness: r(1, 1),
                a: vec![r(1, 1)],
                b: r(0, 1),
            }],
        };
        let (mut q, mut p) = (vec![r(1, 1)], vec![r(0, 1)]);
        let e0 = l.energy(&q, &p).unwrap();
        for _ in 0..5 {
            (q, p) = l.step(&q, &p, &r(1, 3)).unwrap();
            assert_eq!(l.energy(&q, &p).unwrap(), e0);
        }
        assert_eq!(e0, r(1, 2));
    }
}
