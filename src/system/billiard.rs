//! The billiard break of Seghete–Murphey, Sect. VII-A (Fig. 4, eq. (31), Fig. 5): balls
//! a and b at rest, the cue ball c touching both and moving along the bisector of the
//! angle θ = ∠acb.
//!
//! Coordinates q = [x_a, y_a, x_b, y_b, x_c, y_c]; c sits at the origin, the bisector is
//! the x axis, a = (r_a + r_c)(cos θ/2, sin θ/2), b = (r_b + r_c)(cos θ/2, −sin θ/2), and
//! q̇_c = (1, 0). The mass matrix is diagonal (moments of inertia ignored, as in the
//! paper); by default the masses are proportional to the volumes, m = r³.
//!
//! Normals are the gradients of the printed gap functions
//! φ_a = |a − c| − (r_a + r_c), φ_b = |b − c| − (r_b + r_c):
//! Dφ_a = [x_a − x_c, y_a − y_c, 0, 0, x_c − x_a, y_c − y_a]/(r_a + r_c). The paper prints
//! the opposite sign, −Dφ_a; the reset maps Γ(u) = Γ(−u) are the same, but feasibility
//! (6) ⟨p, Dφ⟩_g ≥ 0 only means "separating" with the true gradient.

use crate::arith::Scalar;
use crate::law::propagative::{ordered_outcome, Contacts};
use crate::law::LawError;
use crate::linalg::{sub, SymMatrix, Vector};

/// The error of a geometry where a and b overlap.
pub fn overlap() -> LawError {
    LawError::Domain("θ is below the angle where a and b touch: the balls would overlap".into())
}

/// Radii and masses of the three balls, and the half angle θ/2 through its cosine and
/// sine (any point on the unit circle: rational ones give exact geometries).
#[derive(Clone, Debug)]
pub struct Break<S> {
    /// Radii r_a, r_b, r_c.
    pub radii: [S; 3],
    /// Masses m_a, m_b, m_c.
    pub masses: [S; 3],
    /// cos(θ/2).
    pub cos_half: S,
    /// sin(θ/2).
    pub sin_half: S,
}

/// Everything Sect. VII-A computes for one geometry.
#[derive(Clone, Debug)]
pub struct BreakOutcome<S> {
    /// ⟨Dφ_a, Dφ_b⟩_g computed from the positions (the first display before (31)).
    pub inner_product: S,
    /// cos θ / m_c, the right-hand side of (31).
    pub cos_theta_over_mc: S,
    /// The middle expression of (31) as printed:
    /// ((x_a − x_b)² + (y_a − y_b)² − (r_a + r_c)² − (r_b + r_c)²) / (2 m_c (r_a + r_c)(r_b + r_c)).
    pub printed_31_middle: S,
    /// cos θ_min − cos θ: non-negative iff a and b do not overlap.
    pub overlap_margin: S,
    /// The momentum before impact, p0 = M q̇.
    pub p0: Vector<S>,
    /// a–c resolved first: sequence (0 = a, 1 = b) and outcome p_ab.
    pub ab: (Vec<usize>, Vector<S>),
    /// b–c resolved first: p_ba.
    pub ba: (Vec<usize>, Vector<S>),
    /// ξ² = ‖p_ab − p_ba‖²_g / ‖p0‖²_g (the square of the indeterminacy of Fig. 5).
    pub xi_squared: S,
}

impl<S: Scalar> Break<S> {
    /// Equal-density balls: masses r³.
    pub fn with_volume_masses(radii: [S; 3], cos_half: S, sin_half: S) -> Self {
        let masses = radii.clone().map(|r| r.square() * &r);
        Break {
            radii,
            masses,
            cos_half,
            sin_half,
        }
    }

    /// Positions of a, b, c (c at the origin).
    pub fn positions(&self) -> [(S, S); 3] {
        let [ra, rb, rc] = &self.radii;
        let (ch, sh) = (&self.cos_half, &self.sin_half);
        let da = ra.add_r(rc);
        let db = rb.add_r(rc);
        let zero = ch.zero_like();
        [
            (da.mul_r(ch), da.mul_r(sh)),
            (db.mul_r(ch), -db.mul_r(sh)),
            (zero.clone(), zero),
        ]
    }

    /// The two contact normals Dφ_a, Dφ_b at the contact configuration.
    pub fn normals(&self) -> Result<[Vector<S>; 2], LawError> {
        let [a, b, c] = self.positions();
        let [ra, rb, rc] = &self.radii;
        let da = ra.add_r(rc);
        let db = rb.add_r(rc);
        let zero = da.zero_like();
        let ax = a.0.sub_r(&c.0).checked_div(&da)?;
        let ay = a.1.sub_r(&c.1).checked_div(&da)?;
        let bx = b.0.sub_r(&c.0).checked_div(&db)?;
        let by = b.1.sub_r(&c.1).checked_div(&db)?;
        Ok([
            vec![ax.clone(), ay.clone(), zero.clone(), zero.clone(), -ax, -ay],
            vec![zero.clone(), zero, bx.clone(), by.clone(), -bx, -by],
        ])
    }

    /// The contacts (diagonal mass matrix, each mass on its two coordinates).
    pub fn contacts(&self) -> Result<Contacts<S>, LawError> {
        let d: Vec<S> = self
            .masses
            .iter()
            .flat_map(|m| [m.clone(), m.clone()])
            .collect();
        Contacts::new(SymMatrix::diagonal(&d), self.normals()?.to_vec())
    }

    /// Checks the data: positive radii and masses, θ ∈ [0, π] (cos(θ/2), sin(θ/2) ≥ 0;
    /// the grazing θ = π, where the cue ball misses both balls, is allowed) and no overlap
    /// of a and b. (cos(θ/2), sin(θ/2)) is taken to lie on the unit circle: the command
    /// line builds it from θ or from t = tan(θ/4).
    pub fn validate(&self) -> Result<(), LawError> {
        use crate::arith::Sign;
        self.validate_data()?;
        if crate::law::decide(&self.overlap_margin()?, "cos θ_min − cos θ")? == Sign::Negative {
            return Err(overlap());
        }
        Ok(())
    }

    /// [`Break::validate`] without the overlap check: positive radii and masses, θ in
    /// [0, π]. For a caller that decides the overlap elsewhere (with certainty, on the
    /// certified ladder: the touching geometry θ = θ_min is an exact 0 no enclosure
    /// decides).
    pub fn validate_data(&self) -> Result<(), LawError> {
        use crate::arith::Sign;
        use crate::law::decide;
        for (i, r) in self.radii.iter().chain(self.masses.iter()).enumerate() {
            let what = ["r_a", "r_b", "r_c", "m_a", "m_b", "m_c"][i];
            if decide(r, what)? != Sign::Positive {
                return Err(LawError::Domain(format!("{what} must be positive")));
            }
        }
        if decide(&self.cos_half, "cos(θ/2)")? == Sign::Negative
            || decide(&self.sin_half, "sin(θ/2)")? == Sign::Negative
        {
            return Err(LawError::Domain("θ must lie in [0, π]".into()));
        }
        Ok(())
    }

    /// cos θ = cos²(θ/2) − sin²(θ/2).
    pub fn cos_theta(&self) -> S {
        self.cos_half.square() - &self.sin_half.square()
    }

    /// cos θ_min − cos θ, where θ_min is the angle at which a and b touch (law of
    /// cosines with |ab| = r_a + r_b).
    pub fn overlap_margin(&self) -> Result<S, LawError> {
        let [ra, rb, rc] = &self.radii;
        let da = ra.add_r(rc);
        let db = rb.add_r(rc);
        let dab = ra.add_r(rb);
        let two = da.lift_i64(2);
        let cos_min =
            (da.square() + &db.square() - &dab.square()).checked_div(&(two * &da * &db))?;
        Ok(cos_min - &self.cos_theta())
    }

    /// The contacts and the three sides of (31): ⟨Dφa, Dφb⟩_g from the normals, cos θ/m_c,
    /// and the middle expression as printed, (|ab|² − |ac|² − |bc|²)/(2m_c²|ac||bc|)
    /// (after checking the data, without the overlap check and without a run: they involve
    /// no sign, so they are rational functions of the geometry on the symbolic backend).
    pub fn sides_31(&self) -> Result<(Contacts<S>, [S; 3]), LawError> {
        self.validate_data()?;
        let c = self.contacts()?;
        let [a, b, _] = self.positions();
        let [ra, rb, rc] = &self.radii;
        let mc = &self.masses[2];
        let inner_product = c.inner(&c.normals[0], &c.normals[1])?;
        let cos_theta_over_mc = self.cos_theta().checked_div(mc)?;
        let da = ra.add_r(rc);
        let db = rb.add_r(rc);
        let ab2 = (a.0.sub_r(&b.0)).square() + &(a.1.sub_r(&b.1)).square();
        let printed_31_middle =
            (ab2 - &da.square() - &db.square()).checked_div(&(mc.lift_i64(2) * mc * &da * &db))?;
        Ok((c, [inner_product, cos_theta_over_mc, printed_31_middle]))
    }

    /// p0, p_ab, p_ba, ξ² and the three sides of (31).
    pub fn outcome(&self, max_depth: usize) -> Result<BreakOutcome<S>, LawError> {
        self.validate()?;
        self.outcome_without_overlap_check(max_depth)
    }

    /// [`Break::outcome`] for a geometry whose overlap check (cos θ_min − cos θ ≥ 0) the
    /// caller has decided with certainty; checks the rest of the data.
    pub fn outcome_without_overlap_check(
        &self,
        max_depth: usize,
    ) -> Result<BreakOutcome<S>, LawError> {
        let (c, [inner_product, cos_theta_over_mc, printed_31_middle]) = self.sides_31()?;
        let mc = &self.masses[2];
        let zero = mc.zero_like();
        let p0 = vec![
            zero.clone(),
            zero.clone(),
            zero.clone(),
            zero.clone(),
            mc.clone(),
            zero,
        ];
        let ab = ordered_outcome(&c, &p0, 0, max_depth)?;
        let ba = ordered_outcome(&c, &p0, 1, max_depth)?;
        let d = sub(&ab.1, &ba.1);
        let xi_squared = c.inner(&d, &d)?.checked_div(&c.inner(&p0, &p0)?)?;
        Ok(BreakOutcome {
            inner_product,
            cos_theta_over_mc,
            printed_31_middle,
            overlap_margin: self.overlap_margin()?,
            p0,
            ab,
            ba,
            xi_squared,
        })
    }
}
