//! The continuous limit ΔP → 0 of the LZB law ([`super::lzb`]), certified: a validated
//! integration whose result encloses the exact LZB outcome, on enclosure backends.
//!
//! The limit is integrated in the impact's own time t, where it is smooth, instead of
//! in the primary contact's impulse (whose distributing law is singular where a contact
//! starts with E_i = 0). With s_i = ((1+η_i)E_i/K_i)^{1/(1+η_i)} (the compression δ_i
//! while contact i compresses), LZB 2008 eqs. (2.3)–(2.6) with the bi-stiffness model are
//!
//! * Ṗ_i = F_i = K_i max(0, s_i)^{η_i} (the impulse of contact i; γ = γ⁻ + G P, G = WᵀM⁻¹W),
//! * ṡ_i = −γ_i in compression (γ_i ≤ 0) and −γ_i/e_i² in expansion (γ_i > 0), projected
//!   onto s_i ≥ 0: at s_i = 0 a contact starts when it approaches and stays open
//!   otherwise.
//!
//! (Dividing by Ṗ_p gives back the distributing law Λ_i = dP_i/dP_p = F_i/F_p of the ΔP
//! scheme.) The right-hand side is Lipschitz in (P, s) away from the contacts' switches
//! s_i = 0, and −γ c(γ) is continuous and decreasing in γ. Each step of length h:
//!
//! 1. an a priori enclosure Y of the states over [t, t + h]: Y ⊇ y + [0, h]·F(Y),
//!    checked by inclusion (then every solution stays in Y over the step), with s_i
//!    through max(0, ·): the projection onto s_i ≥ 0 of a one-dimensional flow keeps
//!    s_i(τ) between max(0, s_i + τ inf ṡ_i) and max(0, s_i + τ sup ṡ_i);
//! 2. Taylor's formula with the integral remainder: P(t+h) ∈ P + h F(y) + h²/2 P̈(Y), and
//!    the same for s_i while s_i > 0 over Y (its s̈_i = −c_i (G F)_i, with c_i the hull
//!    of 1 and 1/e_i² where γ_i may change sign); where s_i may reach 0 in the step,
//!    s_i(t+h) ∈ max(0, s_i + h ṡ_i(Y)) by the same bounds;
//! 3. the impact has ended once every s_i is exactly 0 and every γ_i ≥ 0 is decided.
//!
//! Every enclosure is rigorous on an enclosure backend, so the outcome's enclosure
//! contains the exact continuous LZB outcome; where a sign cannot be decided the
//! run says so. Needs η_i ≥ 1 (P̈ bounded), e_i > 0 and the bi-stiffness model.

use super::characterization::Constraints;
use super::lzb::{Compliance, Exponent, Lzb};
use super::{decide, LawError};
use crate::arith::{Scalar, Sign};
use crate::linalg::{dot, Vector};
use num_rational::BigRational;

/// The outcome of the certified limit.
#[derive(Clone, Debug)]
pub struct LimitOutcome<S> {
    /// q̇⁺ = q̇⁻ + M⁻¹WP.
    pub velocity: Vector<S>,
    /// γ⁺.
    pub gamma: Vector<S>,
    /// The total impulse per contact.
    pub impulse: Vector<S>,
    /// Time steps taken.
    pub steps: usize,
    /// The step h (a point).
    pub h: S,
}

/// Endpoints of an enclosure as point values.
fn ends<S: Scalar>(x: &S) -> Result<(S, S), LawError> {
    let (lo, hi) = bounds(x)?;
    let ctx = x.ctx();
    Ok((S::from_rational(&lo, &ctx), S::from_rational(&hi, &ctx)))
}

/// The rational ends of an enclosure; `Err` names why there are none: an unbounded
/// enclosure (a step too long for it), or a backend without enclosures.
fn bounds<S: Scalar>(x: &S) -> Result<(BigRational, BigRational), LawError> {
    x.rational_bounds().ok_or_else(|| {
        LawError::Domain(match x.hull_with(x) {
            Some(_) => {
                "an enclosure became unbounded (the step is too long: raise limit_steps)".into()
            }
            None => "the certified limit needs an enclosure backend".into(),
        })
    })
}

fn hull<S: Scalar>(a: &S, b: &S) -> Result<S, LawError> {
    a.hull_with(b).ok_or_else(|| {
        LawError::Domain(
            "the certified limit needs an enclosure backend (interval or mpi:BITS)".into(),
        )
    })
}

/// max(0, x).
fn nonneg<S: Scalar>(x: &S) -> Result<S, LawError> {
    match x.sign() {
        Sign::Positive => Ok(x.clone()),
        Sign::Zero | Sign::Negative => Ok(x.zero_like()),
        Sign::Unknown => hull(&x.zero_like(), &ends(x)?.1),
    }
}

/// Whether `a` ⊆ `b`.
fn within<S: Scalar>(a: &S, b: &S) -> bool {
    match (a.rational_bounds(), b.rational_bounds()) {
        (Some((al, ah)), Some((bl, bh))) => bl <= al && ah <= bh,
        _ => false,
    }
}

/// The constants of [`inflate`]: ½ and a tiny width (2⁻²⁰⁰), made once per run.
struct Widen<S> {
    half: S,
    tiny: S,
}

/// `x` widened by (about) half its width and `tiny` on each side, in the backend's own
/// arithmetic (a candidate for the a priori enclosure: any candidate is sound, the
/// inclusion test decides).
fn inflate<S: Scalar>(x: &S, w: &Widen<S>) -> Result<S, LawError> {
    let (lo, hi) = ends(x)?;
    let d = hi.sub_r(&lo).mul_r(&w.half).add_r(&w.tiny);
    hull(&lo.sub_r(&d), &hi.add_r(&d))
}

/// The contacts' constants.
struct Consts<S> {
    k: Vec<S>,
    eta: Vec<Exponent>,
    /// 1/e_i².
    inv_e2: Vec<S>,
    g: Vec<Vector<S>>,
    gamma0: Vector<S>,
}

/// A state (P, s).
#[derive(Clone)]
struct State<S> {
    p: Vector<S>,
    s: Vector<S>,
}

impl<S: Scalar> Consts<S> {
    fn gamma(&self, p: &[S]) -> Vector<S> {
        self.g
            .iter()
            .zip(&self.gamma0)
            .map(|(row, g0)| dot(row.iter(), p.iter()).add_r(g0))
            .collect()
    }

    /// K_i max(0, s_i)^{η_i}.
    fn force(&self, i: usize, s: &S) -> Result<S, LawError> {
        let x = nonneg(s)?;
        let e = self.eta[i];
        let pow = if x.sign() == Sign::Zero {
            x.zero_like()
        } else {
            x.root(e.q)?.powi(i64::from(e.p))?
        };
        Ok(self.k[i].mul_r(&pow))
    }

    /// −γ c(γ): −γ for γ ≤ 0, −γ/e² for γ > 0 (continuous, decreasing).
    fn rate(&self, i: usize, gamma: &S) -> Result<S, LawError> {
        let f = |y: &S| -> S {
            if y.sign() == Sign::Positive {
                -y.mul_r(&self.inv_e2[i])
            } else {
                -y.clone()
            }
        };
        match gamma.sign() {
            Sign::Unknown => {
                let (lo, hi) = ends(gamma)?;
                hull(&f(&lo), &f(&hi))
            }
            _ => Ok(f(gamma)),
        }
    }

    /// c_i(γ) over an enclosure: 1, 1/e², or their hull.
    fn c(&self, i: usize, gamma: &S) -> Result<S, LawError> {
        let one = gamma.one_like();
        match gamma.sign() {
            Sign::Positive => Ok(self.inv_e2[i].clone()),
            Sign::Unknown => hull(&one, &self.inv_e2[i]),
            _ => Ok(one),
        }
    }

    /// (Ṗ, ṡ) over the states `y`.
    fn field(&self, y: &State<S>) -> Result<State<S>, LawError> {
        let gamma = self.gamma(&y.p);
        let mut p = Vec::with_capacity(y.s.len());
        let mut s = Vec::with_capacity(y.s.len());
        for (i, (si, gi)) in y.s.iter().zip(&gamma).enumerate() {
            p.push(self.force(i, si)?);
            s.push(self.rate(i, gi)?);
        }
        Ok(State { p, s })
    }

    /// d/dt max(0, s)^η over the enclosure `s` per unit ṡ: η max(0, s)^{η−1}, with the
    /// hull [0, 1] at s = 0 for η = 1.
    fn force_slope(&self, i: usize, s: &S) -> Result<S, LawError> {
        let e = self.eta[i];
        let eta = s.lift(&BigRational::new(e.p.into(), e.q.into()));
        let x = nonneg(s)?;
        let factor = if e.p == e.q {
            match s.sign() {
                Sign::Positive => x.one_like(),
                Sign::Unknown => hull(&x.zero_like(), &x.one_like())?,
                _ => x.zero_like(),
            }
        } else if x.sign() == Sign::Zero {
            x.zero_like()
        } else {
            x.root(e.q)?.powi(i64::from(e.p - e.q))?
        };
        Ok(eta.mul_r(&factor).mul_r(&self.k[i]))
    }
}

impl<S: Scalar> Lzb<S> {
    fn check_limit(&self) -> Result<(), LawError> {
        if self.compliance != Compliance::BiStiffness {
            return Err(LawError::Domain(
                "the certified limit is the bi-stiffness model's".into(),
            ));
        }
        for (i, e) in self.exponent.iter().enumerate() {
            if e.p < e.q {
                return Err(LawError::Domain(format!(
                    "the certified limit needs η ≥ 1 (contact {} has η = {})",
                    i + 1,
                    e.text()
                )));
            }
        }
        for (i, e) in self.restitution.iter().enumerate() {
            if decide(e, "an energetic coefficient")? != Sign::Positive {
                return Err(LawError::Domain(format!(
                    "the certified limit needs e > 0 (contact {})",
                    i + 1
                )));
            }
        }
        Ok(())
    }

    /// The continuous limit of the law from the pre-impact velocity `v`, enclosed, with
    /// `steps` time steps per δ_max/|γ_p| (the time the most approaching contact p
    /// would take, alone, to reach its largest compression at its initial speed), at
    /// most `max_steps` in all.
    pub fn limit(
        &self,
        c: &Constraints<S>,
        v: &[S],
        steps: usize,
        max_steps: usize,
    ) -> Result<LimitOutcome<S>, LawError> {
        let r = c.count();
        self.check_limit()?;
        let gamma0: Vector<S> = (0..r).map(|i| -c.rate(i, v)).collect();
        let zero = v[0].zero_like();
        let mut inv_e2 = Vec::with_capacity(r);
        for e in &self.restitution {
            inv_e2.push(e.square().recip()?);
        }
        let k = Consts {
            k: self.stiffness.clone(),
            eta: self.exponent.clone(),
            inv_e2,
            g: c.gram().to_vec(),
            gamma0: gamma0.clone(),
        };
        let h = time_step(&k, &gamma0, steps)?;
        let half_h2 = h.square().checked_div(&h.lift_i64(2))?;
        let tiny = Widen {
            half: zero.lift(&BigRational::new(1.into(), 2.into())),
            tiny: zero.lift(&BigRational::new(
                1.into(),
                num_bigint::BigInt::from(2).pow(200),
            )),
        };
        let mut y = State {
            p: vec![zero.clone(); r],
            s: vec![zero.clone(); r],
        };
        let mut n = 0;
        loop {
            if ended(&k, &y)? {
                break;
            }
            if n >= max_steps {
                return Err(LawError::Domain(format!(
                    "stopped: the certified limit did not end after {n} steps (raise limit_max_steps)"
                )));
            }
            let big = a_priori(&k, &y, &h, &tiny)?;
            let f0 = k.field(&y)?;
            let fy = k.field(&big)?;
            let gamma_y = k.gamma(&big.p);
            let accel: Vector<S> = k.g.iter().map(|row| dot(row.iter(), fy.p.iter())).collect();
            let mut next = y.clone();
            for i in 0..r {
                let pdd = k.force_slope(i, &big.s[i])?.mul_r(&fy.s[i]);
                next.p[i] = y.p[i].add_r(&h.mul_r(&f0.p[i])).add_r(&half_h2.mul_r(&pdd));
                next.s[i] = if big.s[i].sign() == Sign::Positive {
                    let sdd = -k.c(i, &gamma_y[i])?.mul_r(&accel[i]);
                    y.s[i].add_r(&h.mul_r(&f0.s[i])).add_r(&half_h2.mul_r(&sdd))
                } else {
                    nonneg(&y.s[i].add_r(&h.mul_r(&fy.s[i])))?
                };
            }
            y = next;
            n += 1;
        }
        let gamma = k.gamma(&y.p);
        Ok(LimitOutcome {
            velocity: super::lzb::post_impact(c, v, &y.p),
            gamma,
            impulse: y.p,
            steps: n,
            h,
        })
    }
}

/// h = δ_max/(|γ_p| steps), δ_max = ((1+η_p) γ_p²/(2 G_pp K_p))^{1/(1+η_p)}, rounded to a
/// point (any h > 0 gives a rigorous run; this one sets its length). The most
/// approaching contact p is chosen by the f64 values: only h depends on the choice, so a
/// tie that enclosures cannot decide (symmetric contacts) needs no decision.
fn time_step<S: Scalar>(k: &Consts<S>, gamma0: &[S], steps: usize) -> Result<S, LawError> {
    let p = (0..gamma0.len())
        .min_by(|&a, &b| gamma0[a].to_f64().total_cmp(&gamma0[b].to_f64()))
        .unwrap_or(0);
    let speed = -gamma0[p].clone();
    if decide(&speed, "the most approaching contact's speed")? != Sign::Positive {
        return Ok(gamma0[p].one_like());
    }
    let e = k.eta[p];
    let one_plus = speed.lift(&BigRational::new((e.p + e.q).into(), e.q.into()));
    let energy = one_plus
        .mul_r(&speed.square())
        .checked_div(&k.g[p][p].mul_r(&k.k[p]).mul_r(&speed.lift_i64(2)))?;
    let delta = energy.root(e.p + e.q)?.powi(i64::from(e.q))?;
    let h = delta.checked_div(&speed.mul_r(&speed.lift_i64(steps as i64)))?;
    let f = h.to_f64();
    if !(f.is_finite() && f > 0.0) {
        return Err(LawError::Domain(
            "the time step is not a positive number".into(),
        ));
    }
    S::from_f64_exact(f, &h.ctx())
        .ok_or_else(|| LawError::Domain("the time step is not representable".into()))
}

/// The impact has ended: every s_i is exactly 0 and every γ_i ≥ 0 (decided).
fn ended<S: Scalar>(k: &Consts<S>, y: &State<S>) -> Result<bool, LawError> {
    if y.s.iter().any(|s| s.sign() != Sign::Zero) {
        return Ok(false);
    }
    for (i, g) in k.gamma(&y.p).iter().enumerate() {
        if decide(g, &format!("γ_{} at the end of the impact", i + 1))? == Sign::Negative {
            return Ok(false);
        }
    }
    Ok(true)
}

/// An enclosure of every state over the next step: Y with y + [0, h]·F(Y) ⊆ Y.
fn a_priori<S: Scalar>(
    k: &Consts<S>,
    y: &State<S>,
    h: &S,
    tiny: &Widen<S>,
) -> Result<State<S>, LawError> {
    let span = hull(&h.zero_like(), h)?;
    // s ≥ 0 is the projection of ṡ = −γ c(γ) onto s ≥ 0 (a Skorokhod problem in one
    // dimension): s(τ) ∈ max(0, s + [0, h]·ṡ) for every τ of the step
    let step = |base: &State<S>, f: &State<S>| -> Result<State<S>, LawError> {
        let add = |a: &[S], b: &[S]| -> Vector<S> {
            a.iter()
                .zip(b)
                .map(|(x, d)| x.add_r(&span.mul_r(d)))
                .collect()
        };
        Ok(State {
            p: add(&base.p, &f.p),
            s: add(&base.s, &f.s)
                .iter()
                .map(nonneg)
                .collect::<Result<_, _>>()?,
        })
    };
    let first = step(y, &k.field(y)?)?;
    let mut guess = State {
        p: first
            .p
            .iter()
            .map(|v| inflate(v, tiny))
            .collect::<Result<_, _>>()?,
        s: first
            .s
            .iter()
            .map(|v| inflate(v, tiny))
            .collect::<Result<_, _>>()?,
    };
    for _ in 0..8 {
        let image = step(y, &k.field(&guess)?)?;
        let inside = image.p.iter().zip(&guess.p).all(|(a, b)| within(a, b))
            && image.s.iter().zip(&guess.s).all(|(a, b)| within(a, b));
        if inside {
            return Ok(image);
        }
        // widen only what left the guess
        let grow = |a: &S, b: &S| -> Result<S, LawError> {
            if within(a, b) {
                Ok(b.clone())
            } else {
                inflate(&hull(a, b)?, tiny)
            }
        };
        guess = State {
            p: image
                .p
                .iter()
                .zip(&guess.p)
                .map(|(a, b)| grow(a, b))
                .collect::<Result<_, _>>()?,
            s: image
                .s
                .iter()
                .zip(&guess.s)
                .map(|(a, b)| grow(a, b))
                .collect::<Result<_, _>>()?,
        };
    }
    Err(LawError::Domain(
        "the certified limit found no enclosure of a step (the step is too long)".into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::MpInterval;
    use crate::system::cradle::cradle_constraints;

    fn params(one: &MpInterval, r: usize, eta: Exponent, e: &MpInterval) -> Lzb<MpInterval> {
        Lzb {
            stiffness: vec![one.clone(); r],
            exponent: vec![eta; r],
            restitution: vec![e.clone(); r],
            compliance: Compliance::BiStiffness,
            delta_p: None,
            steps: 1000,
            tol_velocity: one.zero_like(),
            tol_energy: one.zero_like(),
            max_steps: 1_000_000,
            limit_steps: 100,
            limit_max_steps: 100_000,
        }
    }

    fn width(x: &MpInterval) -> f64 {
        let (lo, hi) = x.enclosure().unwrap();
        hi - lo
    }

    /// One contact: the limit is Newton's law with e, and the enclosure contains it.
    #[test]
    fn one_contact_encloses_newton() {
        let one = MpInterval::from_i64(1, &128);
        let c = Constraints::new(
            crate::linalg::SymMatrix::diagonal(std::slice::from_ref(&one)),
            vec![vec![-one.clone()]],
        )
        .unwrap();
        for (e, eta) in [(1, Exponent::HERTZ), (2, Exponent::LINEAR)] {
            let e = MpInterval::from_rational(&BigRational::new(1.into(), e.into()), &128);
            let o = params(&one, 1, eta, &e)
                .limit(&c, &[-one.clone()], 200, 1_000_000)
                .unwrap();
            let (lo, hi) = o.velocity[0].enclosure().unwrap();
            let want = e.to_f64();
            assert!(lo <= want && want <= hi, "{eta:?}: [{lo}, {hi}] ∌ {want}");
            assert!(hi - lo < 1e-2, "{eta:?}: [{lo}, {hi}]");
        }
    }

    /// The Hertz cradle: the enclosure contains the RK4 time integration's outcome
    /// (−0.0709524, 0.0764030, 0.9945493) to its 10⁻⁷, momentum 1 and energy 1/2.
    #[test]
    fn hertz_cradle_is_enclosed() {
        let one = MpInterval::from_i64(1, &128);
        let zero = one.zero_like();
        let c = cradle_constraints(&[one.clone(), one.clone(), one.clone()]).unwrap();
        let v = [one.clone(), zero.clone(), zero];
        let o = params(&one, 2, Exponent::HERTZ, &one)
            .limit(&c, &v, 400, 1_000_000)
            .unwrap();
        for (x, w) in o.velocity.iter().zip([-0.0709524, 0.0764030, 0.9945493]) {
            let (lo, hi) = x.enclosure().unwrap();
            assert!(lo - 1e-7 <= w && w <= hi + 1e-7, "[{lo}, {hi}] ∌ {w}");
            assert!(width(x) < 1e-3, "[{lo}, {hi}]");
        }
    }
}
