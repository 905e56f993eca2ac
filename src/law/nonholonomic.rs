//! Impacts of nonholonomic systems: Clark & Bloch, "The bouncing penny and nonholonomic
//! impacts" (`clark-bloch-bouncing-penny.txt`), Sect. III–IV, for a natural Lagrangian
//! L = ½ g(q̇, q̇) − V(q) with g = M at the impact configuration.
//!
//! The constraint distribution is Δ = ∩ ker ω^k (7), the impact surface S = {h = 0}; all
//! are given at the impact configuration: the mass matrix M, the constraining one-forms
//! ω^k (rows) and dh (a row). Covectors are paired through the cometric,
//! ⟨a, b⟩ = a M⁻¹ bᵀ, and a♯ = M⁻¹aᵀ (1).
//!
//! * the holonomic maps: the elastic impact P of Theorem 3.1 (5) and the restitution
//!   form (6) (e = 0: the g-orthogonal projection onto ker dh, Remark 3.1);
//! * the **elastic nonholonomic map** (Proposition 4.1, Definition 4.3): the system (15)
//!   solved as the paper poses it — (16) linear in λ for a given α, then (17) quadratic
//!   in α with the root 0 — and, as a check, the closed form: the reflection of q̇ in Δ
//!   across w♯, w = dh + μ_kω^k the part of dh g-orthogonal to every ω^k;
//! * the **plastic nonholonomic map** π_Δ ∘ P of Definition 4.4, (18), with π_Δ of (21)
//!   and the explicit form (20) of Proposition 4.2.

use super::{decide, divide_nonzero, LawError};
use crate::arith::{Scalar, Sign};
use crate::linalg::{add, dot, nullspace, scale, solve, sub, SymMatrix, Vector};

/// A nonholonomic impact at one configuration: M, the ω^k and dh.
#[derive(Clone, Debug)]
///
/// # Example
///
/// ```
/// use impactkit::arith::Rational;
/// use impactkit::law::nonholonomic::NonholonomicImpact;
/// use impactkit::linalg::SymMatrix;
/// let r = |n| Rational::new(n, 1);
/// // a particle in the plane with the constraint ẏ = 0 hitting the wall x = 0
/// let imp = NonholonomicImpact::new(SymMatrix::diagonal(&[r(1), r(1)]), vec![vec![r(0), r(1)]], vec![r(1), r(0)]).unwrap();
/// let out = imp.elastic(&[r(2), r(0)]).unwrap();
/// assert_eq!(out.velocity.iter().map(|x| x.to_string()).collect::<Vec<_>>(), ["-2", "0"]);
/// ```
pub struct NonholonomicImpact<S> {
    pub mass: SymMatrix<S>,
    /// The constraining one-forms ω^k of (7), (8), as rows.
    pub omegas: Vec<Vector<S>>,
    /// dh, the differential of the impact surface's function.
    pub dh: Vector<S>,
    /// W^k = (ω^k)♯ = M⁻¹ω^kᵀ (Proposition 4.2).
    w: Vec<Vector<S>>,
    /// ∇h = dh♯.
    grad_h: Vector<S>,
}

/// What an impact map conserves, computed for one pre- and post-impact velocity.
#[derive(Clone, Debug, PartialEq)]
pub struct Conservation<S> {
    /// ½ q̇ᵀMq̇ before and after.
    pub energy: (S, S),
    /// g(q̇, t) before and after, for each t of a basis of Δ ∩ ker dh (the tangential
    /// quantities the elastic map (15) keeps: Δ FL vanishes on Δ ∩ ker dh).
    pub invariants: Vec<(S, S)>,
    /// The post-impact velocity satisfies the constraints (q̇⁺ ∈ Δ); `None` when an
    /// enclosure of some ω^k(q̇⁺) contains 0 without being 0 (undecided, not guessed).
    pub in_distribution: Option<bool>,
    /// The velocity leaves the surface: dh(q̇⁻)·dh(q̇⁺) < 0 (computed, not assumed).
    pub admissible: bool,
}

/// The solution of (15) for one pre-impact velocity.
#[derive(Clone, Debug, PartialEq)]
pub struct ElasticImpact<S> {
    /// q̇⁺.
    pub velocity: Vector<S>,
    /// The nonzero root α of (17).
    pub alpha: S,
    /// λ_k = λ_k(α) of (16).
    pub lambda: Vector<S>,
}

impl<S: Scalar> NonholonomicImpact<S> {
    /// Checks M (positive definite), the lengths, and that the ω^k are independent.
    pub fn new(
        mass: SymMatrix<S>,
        omegas: Vec<Vector<S>>,
        dh: Vector<S>,
    ) -> Result<Self, LawError> {
        let n = mass.dim();
        mass.check_positive_definite()?;
        if dh.len() != n || omegas.iter().any(|w| w.len() != n) {
            return Err(LawError::Domain(format!(
                "dh and every constraining one-form need {n} components"
            )));
        }
        let w = omegas
            .iter()
            .map(|o| mass.solve(o))
            .collect::<Result<Vec<_>, _>>()?;
        let grad_h = mass.solve(&dh)?;
        let out = NonholonomicImpact {
            mass,
            omegas,
            dh,
            w,
            grad_h,
        };
        if !out.omegas.is_empty() {
            // a singular Gram matrix is dependence; an undecided pivot is reported as such
            solve(out.gram(), vec![out.dh[0].zero_like(); out.omegas.len()]).map_err(
                |e| match e {
                    crate::linalg::LinalgError::Domain(_) => {
                        LawError::Domain("the constraining one-forms are linearly dependent".into())
                    }
                    other => other.into(),
                },
            )?;
        }
        Ok(out)
    }

    /// a^{ij} = ω^i(W^j) = ⟨ω^i, ω^j⟩, (19).
    pub fn gram(&self) -> Vec<Vector<S>> {
        self.omegas
            .iter()
            .map(|a| self.w.iter().map(|b| dot(a.iter(), b.iter())).collect())
            .collect()
    }

    /// ⟨a, b⟩ = a M⁻¹ bᵀ for covectors.
    fn co(&self, a: &[S], b: &[S]) -> Result<S, LawError> {
        Ok(dot(a.iter(), self.mass.solve(b)?.iter()))
    }

    /// dh(q̇): the normal rate (negative: approaching S from {h > 0}).
    pub fn normal_rate(&self, v: &[S]) -> S {
        dot(self.dh.iter(), v.iter())
    }

    /// ½ q̇ᵀMq̇.
    pub fn energy(&self, v: &[S]) -> Result<S, LawError> {
        Ok(self.mass.inner(v, v).checked_div(&v[0].lift_i64(2))?)
    }

    /// Whether q̇ satisfies the constraints, ω^k(q̇) = 0 for every k (decided).
    pub fn in_distribution(&self, v: &[S]) -> Result<bool, LawError> {
        for (k, o) in self.omegas.iter().enumerate() {
            let q = format!("omega^{}(qdot)", k + 1);
            if decide(&dot(o.iter(), v.iter()), &q)? != Sign::Zero {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether q̇ ∈ Δ, tri-state: `Some(false)` when some ω^k(q̇) is decided nonzero,
    /// `Some(true)` when every one is decided zero, `None` otherwise (an enclosure that
    /// contains 0). In rounded arithmetic (`f64`, `mpfr`) a residual within
    /// 2⁻⁴⁰ of the size of the terms counts as zero (rounding, not a decision).
    pub fn membership(&self, v: &[S]) -> Option<bool> {
        if S::kind() == crate::arith::Kind::Float {
            return Some(self.omegas.iter().all(|o| {
                let size: f64 = o
                    .iter()
                    .zip(v)
                    .map(|(a, b)| (a.to_f64() * b.to_f64()).abs())
                    .sum();
                dot(o.iter(), v.iter()).to_f64().abs() <= size * 2f64.powi(-40)
            }));
        }
        let mut all_zero = true;
        for o in &self.omegas {
            match dot(o.iter(), v.iter()).sign() {
                Sign::Zero => {}
                Sign::Unknown => all_zero = false,
                Sign::Positive | Sign::Negative => return Some(false),
            }
        }
        all_zero.then_some(true)
    }

    /// dh(q̇)/g(∇h, ∇h), the coefficient of ∇h in (5), (6) and (20).
    fn normal_share(&self, v: &[S]) -> Result<S, LawError> {
        let norm = dot(self.dh.iter(), self.grad_h.iter());
        divide_nonzero(
            &self.normal_rate(v),
            &norm,
            "g(grad h, grad h)",
            "dh is zero",
        )
    }

    /// The holonomic impact with restitution e, (6): q̇ − (1 + e) dh(q̇)/g(∇h, ∇h) ∇h;
    /// e = 1 is P of Theorem 3.1 (5).
    pub fn holonomic(&self, v: &[S], e: &S) -> Result<Vector<S>, LawError> {
        let c = self.normal_share(v)?;
        Ok(sub(v, &scale(&(e.one_like() + e).mul_r(&c), &self.grad_h)))
    }

    /// π_Δ(q̇) = q̇ − a_ij ω^i(q̇) W^j, (21).
    pub fn project(&self, v: &[S]) -> Result<Vector<S>, LawError> {
        if self.omegas.is_empty() {
            return Ok(v.to_vec());
        }
        let rhs: Vector<S> = self
            .omegas
            .iter()
            .map(|o| dot(o.iter(), v.iter()))
            .collect();
        let coef = solve(self.gram(), rhs)?;
        let mut out = v.to_vec();
        for (c, w) in coef.iter().zip(&self.w) {
            out = sub(&out, &scale(c, w));
        }
        Ok(out)
    }

    /// The plastic nonholonomic map π_Δ ∘ P, Definition 4.4 (18), P the elastic (5).
    pub fn plastic(&self, v: &[S]) -> Result<Vector<S>, LawError> {
        self.project(&self.holonomic(v, &v[0].one_like())?)
    }

    /// The explicit form (20) of Proposition 4.2:
    /// q̇ − 2 dh(q̇)/g(∇h, ∇h) (∇h − a_ij ω^i(∇h) W^j) (for q̇ ∈ Δ equal to (18)).
    pub fn plastic_20(&self, v: &[S]) -> Result<Vector<S>, LawError> {
        let c = self.normal_share(v)?;
        let projected = self.project(&self.grad_h)?;
        Ok(sub(v, &scale(&c.lift_i64(2).mul_r(&c), &projected)))
    }

    /// μ with λ = αμ solving (16): Σ_k μ_k⟨ω^k, ω^ℓ⟩ = −⟨dh, ω^ℓ⟩ for every ℓ.
    fn mu(&self) -> Result<Vector<S>, LawError> {
        if self.omegas.is_empty() {
            return Ok(Vec::new());
        }
        let rhs = self
            .omegas
            .iter()
            .map(|o| Ok(-self.co(&self.dh, o)?))
            .collect::<Result<Vec<S>, LawError>>()?;
        Ok(solve(self.gram(), rhs)?)
    }

    /// The elastic nonholonomic map, Proposition 4.1: (16) gives λ = αμ; (17) becomes
    /// α(c₁ + αc₂) = 0 with c₁ = 2(μ_k⟨p⁻, ω^k⟩ + ⟨p⁻, dh⟩) and
    /// c₂ = μ_iμ_j⟨ω^i, ω^j⟩ + 2μ_k⟨ω^k, dh⟩ + ⟨dh, dh⟩; the nontrivial root is
    /// α = −c₁/c₂, and p⁺ = p⁻ + λ_kω^k + α dh. An error where no nonzero root exists:
    /// c₂ = 0 (dh in the span of the ω^k) or c₁ = 0 (zero normal rate).
    pub fn elastic(&self, v: &[S]) -> Result<ElasticImpact<S>, LawError> {
        let p = self.mass.apply(v);
        let mu = self.mu()?;
        let gram = self.gram();
        let mut c1 = self.co(&p, &self.dh)?;
        let mut c2 = self.co(&self.dh, &self.dh)?;
        for (k, mk) in mu.iter().enumerate() {
            let b = self.co(&self.omegas[k], &self.dh)?;
            c1 = c1 + &mk.mul_r(&self.co(&p, &self.omegas[k])?);
            c2 = c2 + &mk.lift_i64(2).mul_r(&mk.mul_r(&b));
            for (l, ml) in mu.iter().enumerate() {
                c2 = c2 + &mk.mul_r(ml).mul_r(&gram[k][l]);
            }
        }
        let c1 = c1.lift_i64(2).mul_r(&c1);
        if decide(&c2, "the alpha^2 coefficient of (17)")? == Sign::Zero {
            return Err(LawError::Domain(
                "dh lies in the span of the constraining one-forms: (17) has no nonzero root"
                    .into(),
            ));
        }
        if decide(&c1, "the alpha coefficient of (17) (the normal rate)")? == Sign::Zero {
            return Err(LawError::Domain(
                "the normal rate is zero: (15) has only the trivial solution".into(),
            ));
        }
        let alpha = -c1.checked_div(&c2)?;
        let lambda: Vector<S> = mu.iter().map(|m| m.mul_r(&alpha)).collect();
        let mut dp = scale(&alpha, &self.dh);
        for (l, o) in lambda.iter().zip(&self.omegas) {
            dp = add(&dp, &scale(l, o));
        }
        let velocity = add(v, &self.mass.solve(&dp)?);
        Ok(ElasticImpact {
            velocity,
            alpha,
            lambda,
        })
    }

    /// A basis of Δ ∩ ker dh: the kernel of the ω^k and dh together.
    pub fn tangent_basis(&self) -> Result<Vec<Vector<S>>, LawError> {
        let mut rows = self.omegas.clone();
        rows.push(self.dh.clone());
        Ok(nullspace(&rows, self.mass.dim(), &self.dh[0].zero_like())?)
    }

    /// Energy, the tangential quantities g(q̇, t), t ∈ Δ ∩ ker dh, membership in Δ and
    /// admissibility, for `before` ↦ `after`.
    pub fn conservation(&self, before: &[S], after: &[S]) -> Result<Conservation<S>, LawError> {
        let invariants = self
            .tangent_basis()?
            .iter()
            .map(|t| (self.mass.inner(before, t), self.mass.inner(after, t)))
            .collect();
        let product = self.normal_rate(before).mul_r(&self.normal_rate(after));
        Ok(Conservation {
            energy: (self.energy(before)?, self.energy(after)?),
            invariants,
            in_distribution: self.membership(after),
            admissible: decide(&product, "dh(qdot-) dh(qdot+)")? == Sign::Negative,
        })
    }

    /// The elastic map in closed form: q̇ − 2 w(q̇)/⟨w, w⟩ w♯ with w = dh + μ_kω^k, the
    /// part of dh g-orthogonal to every ω^k (w♯ ∈ Δ): a reflection inside Δ.
    pub fn elastic_reflection(&self, v: &[S]) -> Result<Vector<S>, LawError> {
        let mut w = self.dh.clone();
        for (m, o) in self.mu()?.iter().zip(&self.omegas) {
            w = add(&w, &scale(m, o));
        }
        let ww = self.co(&w, &w)?;
        let c = divide_nonzero(
            &dot(w.iter(), v.iter()),
            &ww,
            "<w, w>",
            "dh lies in the span of the constraining one-forms",
        )?;
        Ok(sub(
            v,
            &scale(&c.lift_i64(2).mul_r(&c), &self.mass.solve(&w)?),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Rational;

    fn r(n: i64, d: i64) -> Rational {
        Rational::new(n, d)
    }

    /// The rolling disk of Sect. V heading along x (cos φ = 1, sin φ = 0), m = R = 1,
    /// I = 1/2, J = 1/4, hitting the wall x = const head-on: dh = dx.
    fn head_on() -> NonholonomicImpact<Rational> {
        let m = SymMatrix::diagonal(&[r(1, 1), r(1, 1), r(1, 2), r(1, 4)]);
        let omegas = vec![
            vec![r(1, 1), r(0, 1), r(-1, 1), r(0, 1)], // ω¹ = dx − R cos φ dθ (24)
            vec![r(0, 1), r(1, 1), r(0, 1), r(0, 1)],  // ω² = dy − R sin φ dθ
        ];
        NonholonomicImpact::new(m, omegas, vec![r(1, 1), r(0, 1), r(0, 1), r(0, 1)]).unwrap()
    }

    #[test]
    fn head_on_elastic_reverses_the_rolling() {
        // q̇ = (Rθ̇, 0, θ̇, φ̇) with θ̇ = 1, φ̇ = 3: the rolling reverses, the spin stays;
        // α = −2θ̇(I + mR²)/R = −3, λ = αμ with μ = (−I/(I + mR²), 0) = (−1/3, 0)
        let nh = head_on();
        let v = vec![r(1, 1), r(0, 1), r(1, 1), r(3, 1)];
        let e = nh.elastic(&v).unwrap();
        assert_eq!(e.velocity, vec![r(-1, 1), r(0, 1), r(-1, 1), r(3, 1)]);
        assert_eq!(e.alpha, r(-3, 1));
        assert_eq!(e.lambda, vec![r(1, 1), r(0, 1)]);
        assert_eq!(nh.elastic_reflection(&v).unwrap(), e.velocity);
        let c = nh.conservation(&v, &e.velocity).unwrap();
        assert_eq!(c.energy, (r(15, 8), r(15, 8))); // ½(mẋ² + Iθ̇² + Jφ̇²) = ½(1 + 1/2 + 9/4)
        assert_eq!(
            nh.tangent_basis().unwrap(),
            vec![vec![r(0, 1), r(0, 1), r(0, 1), r(1, 1)]]
        );
        assert_eq!(c.invariants, vec![(r(3, 4), r(3, 4))]); // J φ̇
        assert!(c.in_distribution == Some(true) && c.admissible);
    }

    #[test]
    fn head_on_plastic_loses_energy() {
        // π_Δ ∘ P: factor (I − mR²)/(I + mR²) = −1/3 on the rolling, (18) = (20)
        let nh = head_on();
        let v = vec![r(1, 1), r(0, 1), r(1, 1), r(3, 1)];
        let p = nh.plastic(&v).unwrap();
        assert_eq!(p, vec![r(-1, 3), r(0, 1), r(-1, 3), r(3, 1)]);
        assert_eq!(nh.plastic_20(&v).unwrap(), p);
        let c = nh.conservation(&v, &p).unwrap();
        assert_eq!(c.energy.1, r(1, 12) + r(9, 8)); // ½(1/9 + 1/18) + 9/8
        assert_eq!(c.invariants, vec![(r(3, 4), r(3, 4))]);
        assert!(c.in_distribution == Some(true) && c.admissible);
        // the holonomic P (5) leaves Δ: ẋ reverses, θ̇ does not
        assert_eq!(
            nh.holonomic(&v, &r(1, 1)).unwrap(),
            vec![r(-1, 1), r(0, 1), r(1, 1), r(3, 1)]
        );
    }

    /// The same head-on impact on any backend.
    fn head_on_in<S: Scalar>(ctx: &S::Ctx) -> (NonholonomicImpact<S>, Vec<S>) {
        let q = |n: i64, d: i64| {
            S::from_i64(n, ctx)
                .checked_div(&S::from_i64(d, ctx))
                .unwrap()
        };
        let m = SymMatrix::diagonal(&[q(1, 1), q(1, 1), q(1, 2), q(1, 4)]);
        let omegas = vec![
            vec![q(1, 1), q(0, 1), q(-1, 1), q(0, 1)],
            vec![q(0, 1), q(1, 1), q(0, 1), q(0, 1)],
        ];
        let nh = NonholonomicImpact::new(m, omegas, vec![q(1, 1), q(0, 1), q(0, 1), q(0, 1)]);
        (nh.unwrap(), vec![q(1, 1), q(0, 1), q(1, 1), q(3, 1)])
    }

    #[test]
    fn enclosures_contain_the_exact_maps() {
        use crate::arith::Interval;
        let (exact, v) = head_on_in::<Rational>(&());
        let (nh, w) = head_on_in::<Interval>(&());
        let pairs = [
            (
                exact.elastic(&v).unwrap().velocity,
                nh.elastic(&w).unwrap().velocity,
            ),
            (exact.plastic(&v).unwrap(), nh.plastic(&w).unwrap()),
        ];
        for (x, y) in pairs {
            for (a, b) in x.iter().zip(&y) {
                let (lo, hi) = b.enclosure().unwrap();
                assert!(lo <= a.to_f64() && a.to_f64() <= hi, "{a} in [{lo}, {hi}]");
            }
        }
    }

    #[test]
    fn no_nontrivial_solution_is_an_error() {
        let nh = head_on();
        // zero normal rate: rolling along the wall (heading x, moving in y is not in Δ;
        // take θ̇ = 0, spin only)
        let v = vec![r(0, 1), r(0, 1), r(0, 1), r(1, 1)];
        assert!(nh
            .elastic(&v)
            .unwrap_err()
            .to_string()
            .contains("normal rate"));
        // dh = ω² = dy lies in the span of the ω's
        let m = SymMatrix::diagonal(&[r(1, 1), r(1, 1), r(1, 2), r(1, 4)]);
        let nh = NonholonomicImpact::new(
            m,
            head_on().omegas.clone(),
            vec![r(0, 1), r(1, 1), r(0, 1), r(0, 1)],
        )
        .unwrap();
        let v = vec![r(1, 1), r(0, 1), r(1, 1), r(0, 1)];
        assert!(nh.elastic(&v).unwrap_err().to_string().contains("span"));
    }
}
