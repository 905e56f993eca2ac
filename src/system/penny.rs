//! The bouncing penny: the vertical rolling disk of Clark & Bloch, "The bouncing penny and
//! nonholonomic impacts" (`clark-bloch-bouncing-penny.txt`), Sect. V–VI, on a table whose
//! boundary is h(x, y) = 0.
//!
//! q = (x, y, θ, φ): the contact point, the rolling angle and the heading; the Lagrangian
//! (22) is ½m(ẋ² + ẏ²) + ½Iθ̇² + ½Jφ̇², so M = diag(m, m, I, J); the constraints (23)/(24)
//! are ω¹ = dx − R cos φ dθ, ω² = dy − R sin φ dθ. The heading enters only through
//! (cos φ, sin φ), so a rational or Q(√d) point of the unit circle keeps exact backends
//! exact. The penny's front end (27) is (x + R cos φ, y + R sin φ), its back end (34)
//! (x − R cos φ, y − R sin φ); the impact surface in Q is H(q) = h(end(q)), with
//! dH = h_x dx + h_y dy + σR(h_y cos φ − h_x sin φ) dφ (σ = +1 front, −1 back).
//!
//! The table is the side h < 0 (the ellipse (35) is h = x²/a² + y²/b² − 1), so an end
//! reaching the boundary has normal rate dH(q̇) > 0.
//!
//! The impact maps are the general ones of [`crate::law::nonholonomic`]; the printed
//! formulas (28)–(33) are here too, as the paper writes them, to be checked against them.

use crate::arith::{Scalar, Sign};
use crate::law::nonholonomic::{Conservation, ElasticImpact, NonholonomicImpact};
use crate::law::{decide, divide_nonzero, LawError};
use crate::linalg::{SymMatrix, Vector};
use num_rational::BigRational;

/// The disk's parameters (Sect. V-A): mass m, radius R, I about the axis perpendicular to
/// the disk, J about an axis in its plane.
#[derive(Clone, Debug, PartialEq)]
pub struct Penny<S> {
    pub mass: S,
    pub radius: S,
    pub inertia: S,
    pub spin_inertia: S,
}

/// The heading φ through (cos φ, sin φ).
#[derive(Clone, Debug, PartialEq)]
pub struct Heading<S> {
    pub cos: S,
    pub sin: S,
}

/// Which end of the penny meets the boundary: (27) or (34).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum End {
    Front,
    Back,
}

impl End {
    /// σ: the end is at (x, y) + σR(cos φ, sin φ).
    pub fn sigma(self) -> i64 {
        match self {
            End::Front => 1,
            End::Back => -1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            End::Front => "front",
            End::Back => "back",
        }
    }
}

/// The table's boundary h(x, y) = 0; the table is {h < 0}.
#[derive(Clone, Debug, PartialEq)]
pub enum Boundary<S> {
    /// A straight wall a·x + b·y = c: h = a·x + b·y − c.
    Line { a: S, b: S, c: S },
    /// The ellipse (35): h = x²/a² + y²/b² − 1 (a circle when a = b).
    Ellipse { a: S, b: S },
}

impl<S: Scalar> Boundary<S> {
    /// h(x, y).
    pub fn h(&self, x: &S, y: &S) -> Result<S, LawError> {
        Ok(match self {
            Boundary::Line { a, b, c } => a.mul_r(x) + &b.mul_r(y) - c,
            Boundary::Ellipse { a, b } => {
                x.square().checked_div(&a.square())? + &y.square().checked_div(&b.square())?
                    - &x.one_like()
            }
        })
    }

    /// (h_x, h_y) at (x, y).
    pub fn gradient(&self, x: &S, y: &S) -> Result<(S, S), LawError> {
        Ok(match self {
            Boundary::Line { a, b, .. } => (a.clone(), b.clone()),
            Boundary::Ellipse { a, b } => (
                x.lift_i64(2).mul_r(x).checked_div(&a.square())?,
                y.lift_i64(2).mul_r(y).checked_div(&b.square())?,
            ),
        })
    }
}

/// The table's values, Table I (SI units): R = 0.01 m, m = 0.0025 kg, I = 1.25·10⁻⁷ kg m²,
/// J = 6.25·10⁻⁸ kg m² (I = mR²/2 and J = mR²/4, the thin homogeneous disk of Sect. VI).
pub const TABLE_I: [(&str, &str); 4] = [
    ("mass", "1/400"),
    ("radius", "1/100"),
    ("inertia", "1/8000000"),
    ("spin_inertia", "1/16000000"),
];

fn q(s: &str) -> BigRational {
    crate::lang::rational(s).expect("a rational literal")
}

impl<S> Penny<S> {
    /// The same penny in another arithmetic (`f` applied to every parameter).
    pub fn map<T>(&self, f: impl Fn(&S) -> T) -> Penny<T> {
        Penny {
            mass: f(&self.mass),
            radius: f(&self.radius),
            inertia: f(&self.inertia),
            spin_inertia: f(&self.spin_inertia),
        }
    }
}

impl<S: Scalar> Penny<S> {
    /// Table I, exactly.
    pub fn table_i(like: &S) -> Self {
        let v = |i: usize| like.lift(&q(TABLE_I[i].1));
        Penny {
            mass: v(0),
            radius: v(1),
            inertia: v(2),
            spin_inertia: v(3),
        }
    }

    /// Every parameter positive (decided); the name of the first one that is not.
    pub fn check(&self) -> Result<(), (&'static str, LawError)> {
        for (name, v) in [
            ("mass", &self.mass),
            ("radius", &self.radius),
            ("inertia", &self.inertia),
            ("spin-inertia", &self.spin_inertia),
        ] {
            match decide(v, name) {
                Ok(Sign::Positive) => {}
                Ok(_) => return Err((name, LawError::Domain("must be positive".into()))),
                Err(e) => return Err((name, e)),
            }
        }
        Ok(())
    }

    /// M = diag(m, m, I, J), (22).
    pub fn mass_matrix(&self) -> SymMatrix<S> {
        SymMatrix::diagonal(&[
            self.mass.clone(),
            self.mass.clone(),
            self.inertia.clone(),
            self.spin_inertia.clone(),
        ])
    }

    /// ω¹ = dx − R cos φ dθ, ω² = dy − R sin φ dθ, (24), as rows in (x, y, θ, φ).
    pub fn omegas(&self, h: &Heading<S>) -> Vec<Vector<S>> {
        let (z, o) = (self.mass.zero_like(), self.mass.one_like());
        vec![
            vec![o.clone(), z.clone(), -self.radius.mul_r(&h.cos), z.clone()],
            vec![z.clone(), o, -self.radius.mul_r(&h.sin), z],
        ]
    }

    /// The rolling velocity (Rθ̇ cos φ, Rθ̇ sin φ, θ̇, φ̇) ∈ Δ, (23).
    pub fn rolling(&self, h: &Heading<S>, thetadot: &S, phidot: &S) -> Vector<S> {
        let rt = self.radius.mul_r(thetadot);
        vec![
            rt.mul_r(&h.cos),
            rt.mul_r(&h.sin),
            thetadot.clone(),
            phidot.clone(),
        ]
    }

    /// The end's point on the table: (x, y) + σR(cos φ, sin φ), (27) / (34).
    pub fn end_point(&self, x: &S, y: &S, h: &Heading<S>, end: End) -> (S, S) {
        let sr = self.radius.lift_i64(end.sigma()).mul_r(&self.radius);
        (x.clone() + &sr.mul_r(&h.cos), y.clone() + &sr.mul_r(&h.sin))
    }

    /// The contact point (x, y) whose `end` is at `point`.
    pub fn contact_point(&self, point: &(S, S), h: &Heading<S>, end: End) -> (S, S) {
        let sr = self.radius.lift_i64(end.sigma()).mul_r(&self.radius);
        (
            point.0.clone() - &sr.mul_r(&h.cos),
            point.1.clone() - &sr.mul_r(&h.sin),
        )
    }

    /// dH = h_x dx + h_y dy + σR(h_y cos φ − h_x sin φ) dφ, H = h ∘ end, with (h_x, h_y)
    /// at the end's point: the differential (27)/(34) gives, whose components (29) uses.
    pub fn surface_differential(&self, h: &Heading<S>, end: End, grad: &(S, S)) -> Vector<S> {
        let sr = self.radius.lift_i64(end.sigma()).mul_r(&self.radius);
        let tilt = grad.1.mul_r(&h.cos) - &grad.0.mul_r(&h.sin);
        vec![
            grad.0.clone(),
            grad.1.clone(),
            self.mass.zero_like(),
            sr.mul_r(&tilt),
        ]
    }

    /// The nonholonomic impact at this heading, end and boundary gradient.
    pub fn impact(
        &self,
        h: &Heading<S>,
        end: End,
        grad: &(S, S),
    ) -> Result<NonholonomicImpact<S>, LawError> {
        NonholonomicImpact::new(
            self.mass_matrix(),
            self.omegas(h),
            self.surface_differential(h, end, grad),
        )
    }

    /// C of (29) as printed (front end): −2[h_x ẋ + h_y ẏ + R(h_y cos φ − h_x sin φ)φ̇]
    /// / ([h_x² + h_y²]/m + R²(h_y cos φ − h_x sin φ)²/J); for the back end R → −R.
    pub fn c_29(&self, h: &Heading<S>, end: End, grad: &(S, S), v: &[S]) -> Result<S, LawError> {
        let r = self.radius.lift_i64(end.sigma()).mul_r(&self.radius);
        let (hx, hy) = grad;
        let tilt = hy.mul_r(&h.cos) - &hx.mul_r(&h.sin);
        let num = -(hx.mul_r(&v[0]) + &hy.mul_r(&v[1]) + &r.mul_r(&tilt).mul_r(&v[3]))
            .mul_r(&r.lift_i64(2));
        let den = (hx.square() + &hy.square()).checked_div(&self.mass)?
            + &r.square()
                .mul_r(&tilt.square())
                .checked_div(&self.spin_inertia)?;
        divide_nonzero(
            &num,
            &den,
            "the denominator of (29)",
            "the gradient of h is zero",
        )
    }

    /// The map (28) as printed, with C of (29): ẋ += C h_x/m, ẏ += C h_y/m, θ̇ unchanged,
    /// φ̇ += C R(h_y cos φ − h_x sin φ)/J.
    pub fn p_28(
        &self,
        h: &Heading<S>,
        end: End,
        grad: &(S, S),
        v: &[S],
    ) -> Result<Vector<S>, LawError> {
        let c = self.c_29(h, end, grad, v)?;
        let r = self.radius.lift_i64(end.sigma()).mul_r(&self.radius);
        let (hx, hy) = grad;
        let tilt = hy.mul_r(&h.cos) - &hx.mul_r(&h.sin);
        Ok(vec![
            v[0].clone() + &c.mul_r(hx).checked_div(&self.mass)?,
            v[1].clone() + &c.mul_r(hy).checked_div(&self.mass)?,
            v[2].clone(),
            v[3].clone() + &c.mul_r(&r).mul_r(&tilt).checked_div(&self.spin_inertia)?,
        ])
    }

    /// W¹, W² of (30) as printed: W^k = (1/m)∂_{x,y} − (R/I)(cos φ, sin φ)∂_θ.
    pub fn w_30(&self, h: &Heading<S>) -> Result<[Vector<S>; 2], LawError> {
        let z = self.mass.zero_like();
        let im = self.mass.recip()?;
        let ri = self.radius.checked_div(&self.inertia)?;
        Ok([
            vec![im.clone(), z.clone(), -ri.mul_r(&h.cos), z.clone()],
            vec![z.clone(), im, -ri.mul_r(&h.sin), z],
        ])
    }

    /// K = m²R²/(I + mR²) and (a_ij) of (31) as printed.
    pub fn a_31(&self, h: &Heading<S>) -> Result<[[S; 2]; 2], LawError> {
        let mr2 = self.mass.mul_r(&self.radius.square());
        let k = self
            .mass
            .mul_r(&mr2)
            .checked_div(&(self.inertia.clone() + &mr2))?;
        let cs = k.mul_r(&h.cos).mul_r(&h.sin);
        Ok([
            [self.mass.clone() - &k.mul_r(&h.cos.square()), -cs.clone()],
            [-cs, self.mass.clone() - &k.mul_r(&h.sin.square())],
        ])
    }

    /// (I + mR²)·π_Δ of (32) with the blocks (33) as printed, rows and columns in
    /// (ẋ, ẏ, θ̇, φ̇).
    pub fn projection_32(&self, h: &Heading<S>) -> Vec<Vector<S>> {
        let (c, s) = (&h.cos, &h.sin);
        let (m, r, i) = (&self.mass, &self.radius, &self.inertia);
        let mr2 = m.mul_r(&r.square());
        let ir = i.mul_r(r);
        let mr = m.mul_r(r);
        let z = m.zero_like();
        vec![
            vec![
                mr2.mul_r(&c.square()),
                mr2.mul_r(c).mul_r(s),
                ir.mul_r(c),
                z.clone(),
            ],
            vec![
                mr2.mul_r(c).mul_r(s),
                mr2.mul_r(&s.square()),
                ir.mul_r(s),
                z.clone(),
            ],
            vec![mr.mul_r(c), mr.mul_r(s), i.clone(), z.clone()],
            vec![z.clone(), z.clone(), z, i.clone() + &mr2],
        ]
    }
}

/// The three maps of the penny at one impact, and what each conserves.
#[derive(Clone, Debug)]
pub struct PennyImpact<S> {
    /// q̇⁻.
    pub before: Vector<S>,
    /// dH(q̇⁻) > 0.
    pub normal_rate: S,
    /// P of Theorem 3.1 (5) = (28): q̇⁺ and C of (29) (the multiplier α of (4)).
    pub p: (Vector<S>, S),
    /// The elastic nonholonomic map (15), Proposition 4.1.
    pub elastic: ElasticImpact<S>,
    /// The plastic nonholonomic map π_Δ ∘ P, Definition 4.4 (18).
    pub plastic: Vector<S>,
    /// For P, elastic, plastic.
    pub conservation: [Conservation<S>; 3],
}

impl<S: Scalar> Penny<S> {
    /// The three maps at an impact of `end` with boundary gradient `grad`, for q̇⁻ = `v`
    /// (checked: q̇⁻ ∈ Δ and dH(q̇⁻) > 0).
    pub fn impact_maps(
        &self,
        h: &Heading<S>,
        end: End,
        grad: &(S, S),
        v: &[S],
    ) -> Result<PennyImpact<S>, LawError> {
        let nh = self.impact(h, end, grad)?;
        if nh.membership(v) == Some(false) {
            return Err(LawError::Domain(
                "the velocity is not in the constraint distribution (23)".into(),
            ));
        }
        let normal_rate = nh.normal_rate(v);
        if decide(&normal_rate, "the normal rate dH(qdot)")? != Sign::Positive {
            return Err(LawError::Domain(
                "the end does not approach the boundary (dH(qdot) <= 0)".into(),
            ));
        }
        let p = nh.holonomic(v, &v[0].one_like())?;
        let c = self.c_29(h, end, grad, v)?;
        let elastic = nh.elastic(v)?;
        let plastic = nh.plastic(v)?;
        let conservation = [
            nh.conservation(v, &p)?,
            nh.conservation(v, &elastic.velocity)?,
            nh.conservation(v, &plastic)?,
        ];
        Ok(PennyImpact {
            before: v.to_vec(),
            normal_rate,
            p: (p, c),
            elastic,
            plastic,
            conservation,
        })
    }
}

/// A state of the rolling penny: position, rolling angle, heading and the two rates
/// (Ω = θ̇, ω = φ̇ of (26); ẋ, ẏ follow from (23)).
#[derive(Clone, Debug, PartialEq)]
pub struct PennyState<S> {
    pub x: S,
    pub y: S,
    pub theta: S,
    pub heading: Heading<S>,
    pub thetadot: S,
    pub phidot: S,
}

impl<S> PennyState<S> {
    /// The same state in another arithmetic (`f` applied to every component).
    pub fn map<T>(&self, f: impl Fn(&S) -> T) -> PennyState<T> {
        PennyState {
            x: f(&self.x),
            y: f(&self.y),
            theta: f(&self.theta),
            heading: Heading {
                cos: f(&self.heading.cos),
                sin: f(&self.heading.sin),
            },
            thetadot: f(&self.thetadot),
            phidot: f(&self.phidot),
        }
    }
}

impl<S: Scalar> Penny<S> {
    /// The flow (26) for a time t: φ = ωt + φ₀, θ = Ωt + θ₀,
    /// x = x₀ + (Ω/ω)R(sin φ − sin φ₀), y = y₀ − (Ω/ω)R(cos φ − cos φ₀); for ω = 0 the
    /// straight line x = x₀ + RΩt cos φ₀, y = y₀ + RΩt sin φ₀. With u = ωt the
    /// differences are written as sin φ − sin φ₀ = cos φ₀ sin u − sin φ₀·2sin²(u/2) (and
    /// likewise for cos), which loses nothing when ω is small.
    pub fn flow(&self, s: &PennyState<S>, t: &S) -> Result<PennyState<S>, LawError> {
        let u = s.phidot.mul_r(t);
        let half = u.checked_div(&u.lift_i64(2))?;
        let versine = half.sin()?.square().mul_r(&u.lift_i64(2));
        self.flow_by(s, t, &u.cos()?, &u.sin()?, &versine)
    }

    /// The flow (26) with cos u, sin u and 1 − cos u (u = ωt) given: exact backends
    /// pass a point of the unit circle (algebraic impact times).
    pub fn flow_by(
        &self,
        s: &PennyState<S>,
        t: &S,
        cos_u: &S,
        sin_u: &S,
        one_minus_cos_u: &S,
    ) -> Result<PennyState<S>, LawError> {
        let (c, sn) = (&s.heading.cos, &s.heading.sin);
        let heading = Heading {
            cos: c.mul_r(cos_u) - &sn.mul_r(sin_u),
            sin: sn.mul_r(cos_u) + &c.mul_r(sin_u),
        };
        let rr = self.radius.mul_r(&s.thetadot);
        let (dx, dy) = if decide(&s.phidot, "phidot")? == Sign::Zero {
            (rr.mul_r(t).mul_r(c), rr.mul_r(t).mul_r(sn))
        } else {
            let k = rr.checked_div(&s.phidot)?;
            // sin φ − sin φ₀ and −(cos φ − cos φ₀)
            let ds = c.mul_r(sin_u) - &sn.mul_r(one_minus_cos_u);
            let dc = sn.mul_r(sin_u) + &c.mul_r(one_minus_cos_u);
            (k.mul_r(&ds), k.mul_r(&dc))
        };
        Ok(PennyState {
            x: s.x.clone() + &dx,
            y: s.y.clone() + &dy,
            theta: s.theta.clone() + &s.thetadot.mul_r(t),
            heading,
            thetadot: s.thetadot.clone(),
            phidot: s.phidot.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Rational;

    fn r(n: i64, d: i64) -> Rational {
        Rational::new(n, d)
    }

    fn east() -> Heading<Rational> {
        Heading {
            cos: r(1, 1),
            sin: r(0, 1),
        }
    }

    /// Table I, heading along x, front end on the wall x = 1/5, θ̇ = 10, φ̇ = 0: ẋ = Rθ̇ =
    /// 1/10. P reverses ẋ only: (−1/10, 0, 10, 0). The elastic map reverses the rolling:
    /// (−1/10, 0, −10, 0). Plastic: π_Δ(−1/10, 0, 10, 0) has θ̇ = (mR ẋ + Iθ̇)/(I + mR²)
    /// = (−1/40000·1/10 + 10/8000000)/(3/8000000) = −10/3, ẋ = Rθ̇ = −1/30.
    #[test]
    fn head_on_table_i() {
        let p = Penny::table_i(&r(1, 1));
        let v = p.rolling(&east(), &r(10, 1), &r(0, 1));
        assert_eq!(v, vec![r(1, 10), r(0, 1), r(10, 1), r(0, 1)]);
        let grad = (r(1, 1), r(0, 1));
        let out = p.impact_maps(&east(), End::Front, &grad, &v).unwrap();
        assert_eq!(out.p.0, vec![r(-1, 10), r(0, 1), r(10, 1), r(0, 1)]);
        assert_eq!(out.p.1, r(-1, 2000)); // C = −2mẋ = −2·(1/400)(1/10)
        assert_eq!(
            out.elastic.velocity,
            vec![r(-1, 10), r(0, 1), r(-10, 1), r(0, 1)]
        );
        assert_eq!(out.plastic, vec![r(-1, 30), r(0, 1), r(-10, 3), r(0, 1)]);
        let e0 = r(3, 160000); // ½(mẋ² + Iθ̇²) = ½(1/40000 + 1/80000)
        assert_eq!(out.conservation[0].energy, (e0.clone(), e0.clone()));
        assert_eq!(out.conservation[1].energy, (e0.clone(), e0.clone()));
        assert_eq!(
            out.conservation[2].energy.1,
            e0.checked_div(&r(9, 1)).unwrap()
        );
        assert!(out.conservation.iter().all(|c| c.admissible));
        assert_eq!(out.conservation[0].in_distribution, Some(false));
        assert_eq!(out.conservation[1].in_distribution, Some(true));
        assert_eq!(out.conservation[2].in_distribution, Some(true));
    }

    /// The flow agrees with (26) as printed (f64, Sect. VI-A's initial data, t = 3/2).
    #[test]
    fn flow_is_26() {
        let p = Penny::table_i(&1.0f64);
        let (phi0, om, big) = (std::f64::consts::FRAC_PI_2, 0.2, 10.0);
        let s = PennyState {
            x: 0.0,
            y: 0.0,
            theta: 0.0,
            heading: Heading {
                cos: phi0.cos(),
                sin: phi0.sin(),
            },
            thetadot: big,
            phidot: om,
        };
        let t = 1.5;
        let f = p.flow(&s, &t).unwrap();
        let k = big / om * 0.01;
        let x = k * (om * t + phi0).sin() - k * phi0.sin();
        let y = -k * (om * t + phi0).cos() + k * phi0.cos();
        assert!((f.x - x).abs() < 1e-15 && (f.y - y).abs() < 1e-15);
        assert!((f.heading.cos - (om * t + phi0).cos()).abs() < 1e-15);
        assert_eq!(f.theta, big * t);
    }

    /// (28)–(29) and (30)–(33) as printed agree with the general maps at a rational
    /// heading (3/5, 4/5), both ends, an oblique gradient.
    #[test]
    fn printed_formulas_agree_with_the_general_maps() {
        let p = Penny {
            mass: r(2, 1),
            radius: r(1, 3),
            inertia: r(1, 5),
            spin_inertia: r(1, 7),
        };
        let h = Heading {
            cos: r(3, 5),
            sin: r(4, 5),
        };
        let grad = (r(2, 1), r(1, 1));
        let v = p.rolling(&h, &r(3, 1), &r(-1, 2));
        for end in [End::Front, End::Back] {
            let nh = p.impact(&h, end, &grad).unwrap();
            let general = nh.holonomic(&v, &r(1, 1)).unwrap();
            assert_eq!(p.p_28(&h, end, &grad, &v).unwrap(), general);
            let w = p.w_30(&h).unwrap();
            let a = p.a_31(&h).unwrap();
            let gram = nh.gram();
            // (a_ij) is the inverse of (a^ij) = ω^i(W^j), (19)
            for (i, row) in a.iter().enumerate() {
                for (j, (g0, g1)) in gram[0].iter().zip(&gram[1]).enumerate() {
                    let e = row[0].clone() * g0 + &(row[1].clone() * g1);
                    assert_eq!(e, r(i64::from(i == j), 1));
                }
            }
            let m_inv_omega = p
                .omegas(&h)
                .iter()
                .map(|o| nh.mass.solve(o).unwrap())
                .collect::<Vec<_>>();
            assert_eq!(w.to_vec(), m_inv_omega);
            let scale = p.inertia.clone() + &(p.mass.clone() * &p.radius.square());
            let pi = p.projection_32(&h);
            let x = vec![r(1, 1), r(-2, 1), r(5, 1), r(7, 3)];
            let by_32: Vec<Rational> = pi
                .iter()
                .map(|row| {
                    crate::linalg::dot(row.iter(), x.iter())
                        .checked_div(&scale)
                        .unwrap()
                })
                .collect();
            assert_eq!(by_32, nh.project(&x).unwrap());
        }
    }
}
