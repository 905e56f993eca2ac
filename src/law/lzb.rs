//! The compliant multiple-impact law of Liu, Zhao & Brogliato (LZB): Proc. R. Soc. A 464
//! (2008) 3193–3211 and 465 (2009) 1–23, as Siconos implements it (its kernel's
//! `OSNSMultipleImpact.cpp`, the ΔP scheme); written once against [`Scalar`].
//!
//! Every touching contact i carries a compliant normal force F_i = K_i δ_i^{η_i} (η = 1
//! linear, η = 3/2 Hertz) with potential energy E_i = K_i δ_i^{1+η_i}/(1+η_i), so that
//! F_i = (1+η_i)^{η_i/(1+η_i)} K_i^{1/(1+η_i)} E_i^{η_i/(1+η_i)} (LZB 2008, eq. (2.3)).
//! During the impact the positions do not move; the contact velocities
//! γ = Wᵀq̇ (γ_i < 0 approaching, as in [`crate::law::newton`]) and the energies evolve in
//! the impulse P_p of one *primary* contact, the time-like variable (LZB 2008, Sect. 3):
//!
//! * **primary contact**: the one with the largest E_i; while every E_i = 0, the one with
//!   the most negative γ_i;
//! * **distributing vector** Λ_i = dP_i/dP_p (LZB 2008, eq. (3.9); Siconos
//!   `Compute_distributionVector`): with r_i = (1+η_i)^{η_i/(1+η_i)} K_i^{1/(1+η_i)} and
//!   a_i = η_i/(1+η_i), Λ_i = (r_i E_i^{a_i}) / (r_p E_p^{a_p}) for a contact with energy;
//!   for an approaching contact without energy, its energy after one step, |γ_i|ΔP_i,
//!   stands for E_i: Λ_i = (r_i |γ_i ΔP|^{a_i} / (r_p E_p^{a_p}))^{1+η_i}; while no
//!   contact has energy, Λ_i = (r_i |γ_i|^{a_i} / (r_p |γ_p|^{a_p}))^{1+η_i}
//!   ΔP^{(η_i−η_p)/(1+η_p)} (= (K_i/K_p)(γ_i/γ_p)^η for equal exponents);
//! * **velocities**: γ ← γ + G ΔP, G = WᵀM⁻¹W (Winandy–Leine (6)), ΔP_i = Λ_i ΔP;
//! * **energies** (bi-stiffness): E_i ← E_i − ½(γ_i^old + γ_i) ΔP_i while ½(γ_i^old + γ_i)
//!   ≤ 0 (compression), and the same divided by e_i² in expansion, clamped at 0, where
//!   e_i is the energetic (Stronge's) coefficient: the expansion returns e_i² of the
//!   compression's work (LZB 2008, eq. (2.6)); mono-stiffness: one stiffness, and the
//!   energy left when E_i ≤ (1 − e_i²) W_c,i in expansion (W_c,i the compression's work)
//!   is dissipated (LZB 2009, Sect. 2);
//! * **end**: every E_i = 0 and every γ_i ≥ 0.
//!
//! Where the paper and Siconos differ, this follows Siconos (the reference a compliant
//! engine is run against): its start formula for a contact that approaches without
//! energy, and its tolerances, which are explicit parameters here ([`Lzb::tol_velocity`],
//! [`Lzb::tol_energy`]; 0 by default, the scheme's own branches; Siconos's default is
//! the machine epsilon). Every branch goes through `sign()`: on an enclosure backend the
//! run is an enclosure of the ΔP scheme's exact result, or [`LawError::Undecided`].
//!
//! This is the ΔP scheme: its outcome differs from the law's continuous limit ΔP → 0 by
//! O(ΔP). The single contact's limit is Newton's law with e = e_i; the scheme approaches
//! it as ΔP shrinks (the tests measure it).

use super::characterization::Constraints;
use super::{decide, LawError};
use crate::arith::{Scalar, Sign};
use crate::linalg::{dot, Vector};

/// A rational exponent η = p/q > 0 of a contact's force law F = K δ^η.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exponent {
    pub p: u32,
    pub q: u32,
}

impl Exponent {
    /// Hertz's contact of two spheres, η = 3/2.
    pub const HERTZ: Exponent = Exponent { p: 3, q: 2 };
    /// A linear spring, η = 1.
    pub const LINEAR: Exponent = Exponent { p: 1, q: 1 };

    /// η = p/q, reduced; `None` unless 0 < p, q ≤ 64.
    pub fn new(p: u32, q: u32) -> Option<Exponent> {
        if p == 0 || q == 0 || p > 64 || q > 64 {
            return None;
        }
        let g = gcd(p, q);
        Some(Exponent { p: p / g, q: q / g })
    }

    /// η as written, `3/2` or `1`.
    pub fn text(self) -> String {
        if self.q == 1 {
            self.p.to_string()
        } else {
            format!("{}/{}", self.p, self.q)
        }
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// How the energy of a contact is restored in expansion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compliance {
    /// A stiffer unloading curve: the expansion returns e² of the compression's work.
    BiStiffness,
    /// One stiffness; the energy left at (1 − e²) of the compression's work is dissipated.
    MonoStiffness,
}

impl Compliance {
    /// The name in system files (`bi-stiffness`, `mono-stiffness`).
    pub fn name(self) -> &'static str {
        match self {
            Compliance::BiStiffness => "bi-stiffness",
            Compliance::MonoStiffness => "mono-stiffness",
        }
    }

    /// The compliance model named `s`.
    pub fn parse(s: &str) -> Option<Compliance> {
        [Compliance::BiStiffness, Compliance::MonoStiffness]
            .into_iter()
            .find(|c| c.name() == s)
    }
}

/// The parameters of the LZB law on r contacts, and of its ΔP scheme.
#[derive(Clone, Debug)]
pub struct Lzb<S> {
    /// K_i > 0 (only the ratios matter when the exponents are equal).
    pub stiffness: Vec<S>,
    /// η_i.
    pub exponent: Vec<Exponent>,
    /// The energetic coefficient e_i ∈ [0, 1] (Stronge's).
    pub restitution: Vec<S>,
    pub compliance: Compliance,
    /// The step ΔP of the primary contact's impulse; `None`: the impulse that stops the
    /// most approaching contact alone, |γ_p|/G_pp, divided by [`Lzb::steps`].
    pub delta_p: Option<S>,
    /// See [`Lzb::delta_p`].
    pub steps: usize,
    /// γ_i < −tol_velocity approaches (Siconos `_Tol_Vel`).
    pub tol_velocity: S,
    /// E_i ≤ tol_energy is no energy (Siconos `_Tol_Ener`).
    pub tol_energy: S,
    /// The scheme stops with an error after this many steps (Siconos `_nStepMax`).
    pub max_steps: usize,
    /// The certified limit's time steps per δ_max/|γ_p| ([`Lzb::limit`]).
    pub limit_steps: usize,
    /// The certified limit stops with an error after this many steps.
    pub limit_max_steps: usize,
}

/// The outcome of the ΔP scheme.
#[derive(Clone, Debug)]
pub struct LzbOutcome<S> {
    /// q̇⁺ = q̇⁻ + M⁻¹WP.
    pub velocity: Vector<S>,
    /// γ⁺ = Wᵀq̇⁺.
    pub gamma: Vector<S>,
    /// The total impulse P_i per contact.
    pub impulse: Vector<S>,
    /// Steps taken.
    pub steps: usize,
    /// The ΔP the scheme stepped with (0 when no contact approached).
    pub delta_p: S,
    /// The primary contacts in order of their turns (0-based; one entry per change).
    pub primaries: Vec<usize>,
}

/// q̇⁺ = q̇⁻ + M⁻¹WP = q̇⁻ − Σ P_k M⁻¹n_kᵀ (Pasquero's normals n_k = −∇φ_k).
pub(crate) fn post_impact<S: Scalar>(c: &Constraints<S>, v: &[S], impulse: &[S]) -> Vector<S> {
    let mut velocity = v.to_vec();
    for (k, l) in impulse.iter().enumerate() {
        for (x, d) in velocity.iter_mut().zip(c.dual(k)) {
            *x = x.sub_r(&l.mul_r(d));
        }
    }
    velocity
}

/// x^(num/den) for x ≥ 0 (0 for x = 0 and num > 0), through the backend's real roots.
fn rpow<S: Scalar>(x: &S, num: i64, den: u32) -> Result<S, LawError> {
    if num == 0 {
        return Ok(x.one_like());
    }
    if x.sign() == Sign::Zero && num > 0 {
        return Ok(x.zero_like());
    }
    Ok(x.root(den)?.powi(num)?)
}

/// One contact's exponents: a = η/(1+η) = p/(p+q), 1/(1+η) = q/(p+q), 1+η = (p+q)/q.
struct Powers {
    p: i64,
    q: i64,
    s: u32,
}

impl Powers {
    fn of(e: Exponent) -> Powers {
        Powers {
            p: i64::from(e.p),
            q: i64::from(e.q),
            s: e.p + e.q,
        }
    }
    /// x^{η/(1+η)}.
    fn a<S: Scalar>(&self, x: &S) -> Result<S, LawError> {
        rpow(x, self.p, self.s)
    }
    /// x^{1+η}.
    fn one_plus<S: Scalar>(&self, x: &S) -> Result<S, LawError> {
        rpow(x, i64::from(self.s), self.q as u32)
    }
}

/// r_i = (1+η_i)^{η_i/(1+η_i)} K_i^{1/(1+η_i)}: F_i = r_i E_i^{η_i/(1+η_i)}.
fn force_factor<S: Scalar>(k: &S, e: Exponent) -> Result<S, LawError> {
    let w = Powers::of(e);
    let one_plus_eta = k.lift(&num_rational::BigRational::new(
        (i64::from(e.p + e.q)).into(),
        (i64::from(e.q)).into(),
    ));
    Ok(w.a(&one_plus_eta)?.mul_r(&rpow(k, w.q, w.s)?))
}

/// The contact's state in Siconos's `Check_stateContact`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// No energy, not approaching: no impulse.
    Free,
    /// No energy, approaching.
    Starting,
    /// Energy stored.
    Loaded,
}

impl<S: Scalar> Lzb<S> {
    fn check(&self, r: usize) -> Result<(), LawError> {
        let n = [
            self.stiffness.len(),
            self.exponent.len(),
            self.restitution.len(),
        ];
        if n.iter().any(|&k| k != r) {
            return Err(LawError::Domain(format!(
                "LZB needs one stiffness, exponent and coefficient per contact ({r} contacts)"
            )));
        }
        for (i, k) in self.stiffness.iter().enumerate() {
            if decide(k, &format!("the stiffness of contact {}", i + 1))? != Sign::Positive {
                return Err(LawError::Domain(format!(
                    "the stiffness of contact {} must be positive",
                    i + 1
                )));
            }
        }
        for (i, e) in self.restitution.iter().enumerate() {
            let q = format!("the energetic coefficient of contact {}", i + 1);
            let above = decide(&e.sub_r(&e.one_like()), &q)? == Sign::Positive;
            if decide(e, &q)? == Sign::Negative || above {
                return Err(LawError::Domain(format!(
                    "the energetic coefficient of contact {} must lie in [0, 1]",
                    i + 1
                )));
            }
        }
        if let Some(dp) = &self.delta_p {
            if decide(dp, "ΔP")? != Sign::Positive {
                return Err(LawError::Domain("ΔP must be positive".into()));
            }
        }
        Ok(())
    }

    /// ΔP: the given one, or |γ_p|/(G_pp · steps) for the most approaching contact p.
    pub fn step(&self, c: &Constraints<S>, gamma: &[S]) -> Result<S, LawError> {
        if let Some(dp) = &self.delta_p {
            return Ok(dp.clone());
        }
        let p = most_approaching(gamma)?;
        let n = gamma[p].lift_i64(self.steps as i64);
        Ok((-gamma[p].clone()).checked_div(&c.gram()[p][p].mul_r(&n))?)
    }

    /// Runs the ΔP scheme from the pre-impact velocity `v` on the touching contacts of
    /// `c` (normals n_i = −∇φ_i, Pasquero's orientation).
    pub fn run(&self, c: &Constraints<S>, v: &[S]) -> Result<LzbOutcome<S>, LawError> {
        let r = c.count();
        self.check(r)?;
        let g = c.gram();
        let mut gamma: Vector<S> = (0..r).map(|i| -c.rate(i, v)).collect();
        let zero = v[0].zero_like();
        let mut energy = vec![zero.clone(); r];
        let mut work = vec![zero.clone(); r];
        let mut impulse = vec![zero.clone(); r];
        let mut state = vec![State::Free; r];
        let factors = (0..r)
            .map(|i| force_factor(&self.stiffness[i], self.exponent[i]))
            .collect::<Result<Vec<S>, _>>()?;
        let mut primaries: Vec<usize> = Vec::new();
        let mut steps = 0;
        if !self.any_approaching(&gamma)? {
            return Ok(self.outcome(c, v, (gamma, impulse), (0, v[0].zero_like()), primaries));
        }
        let dp_step = self.step(c, &gamma)?;
        loop {
            for i in 0..r {
                state[i] = self.state(i, &energy[i], &gamma[i])?;
            }
            if self.ended(&energy, &gamma)? {
                break;
            }
            if steps >= self.max_steps {
                return Err(LawError::Domain(format!(
                    "stopped: the ΔP scheme did not end after {steps} steps (ΔP too small, or raise max_steps)"
                )));
            }
            let (primary, by_energy) = self.primary(&energy, &gamma)?;
            if primaries.last() != Some(&primary) {
                primaries.push(primary);
            }
            let lambda = self.distribution(
                &factors,
                (&state, &energy, &gamma),
                primary,
                by_energy,
                &dp_step,
            )?;
            let dp: Vector<S> = lambda.iter().map(|l| l.mul_r(&dp_step)).collect();
            let old = gamma.clone();
            for (i, gi) in gamma.iter_mut().enumerate() {
                *gi = gi.add_r(&dot(g[i].iter(), dp.iter()));
            }
            for i in 0..r {
                impulse[i] = impulse[i].add_r(&dp[i]);
                let (e, w) = self.energy(
                    i, state[i], &energy[i], &work[i], &old[i], &gamma[i], &dp[i],
                )?;
                energy[i] = e;
                work[i] = w;
            }
            steps += 1;
        }
        Ok(self.outcome(c, v, (gamma, impulse), (steps, dp_step), primaries))
    }

    fn outcome(
        &self,
        c: &Constraints<S>,
        v: &[S],
        (gamma, impulse): (Vector<S>, Vector<S>),
        (steps, delta_p): (usize, S),
        primaries: Vec<usize>,
    ) -> LzbOutcome<S> {
        LzbOutcome {
            velocity: post_impact(c, v, &impulse),
            gamma,
            impulse,
            steps,
            delta_p,
            primaries,
        }
    }

    /// γ_i < −tol_velocity.
    fn approaching(&self, i: usize, gamma: &S) -> Result<bool, LawError> {
        let x = gamma.add_r(&self.tol_velocity);
        Ok(sign_named(&x, || format!("γ_{} + tol_velocity", i + 1))? == Sign::Negative)
    }

    fn any_approaching(&self, gamma: &[S]) -> Result<bool, LawError> {
        for (i, y) in gamma.iter().enumerate() {
            if self.approaching(i, y)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// E_i ≤ tol_energy (energies are never negative).
    fn no_energy(&self, i: usize, e: &S) -> Result<bool, LawError> {
        let x = e.sub_r(&self.tol_energy);
        Ok(sign_named(&x, || format!("E_{} − tol_energy", i + 1))? != Sign::Positive)
    }

    fn state(&self, i: usize, e: &S, gamma: &S) -> Result<State, LawError> {
        Ok(if !self.no_energy(i, e)? {
            State::Loaded
        } else if self.approaching(i, gamma)? {
            State::Starting
        } else {
            State::Free
        })
    }

    /// Every E_i = 0 and every γ_i ≥ 0 (Siconos `IsMulImpactTerminate`).
    fn ended(&self, energy: &[S], gamma: &[S]) -> Result<bool, LawError> {
        for i in 0..energy.len() {
            if !self.no_energy(i, &energy[i])? || self.approaching(i, &gamma[i])? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The primary contact, and whether it was chosen by its energy: the first largest
    /// E_i, or, while no contact has energy, the first most negative γ_i.
    fn primary(&self, energy: &[S], gamma: &[S]) -> Result<(usize, bool), LawError> {
        let top = argbest(
            energy,
            |a, b| b.sub_r(a),
            "a difference of contact energies",
        )?;
        if !self.no_energy(top, &energy[top])? {
            return Ok((top, true));
        }
        let low = most_approaching(gamma)?;
        Ok((low, false))
    }

    /// Λ (Siconos `Compute_distributionVector`).
    fn distribution(
        &self,
        factors: &[S],
        (state, energy, gamma): (&[State], &[S], &[S]),
        p: usize,
        by_energy: bool,
        dp: &S,
    ) -> Result<Vector<S>, LawError> {
        let wp = Powers::of(self.exponent[p]);
        let zero = gamma[p].zero_like();
        let denominator = if by_energy {
            factors[p].mul_r(&wp.a(&energy[p])?)
        } else {
            factors[p].mul_r(&wp.a(&(-gamma[p].clone()))?)
        };
        let mut out = Vec::with_capacity(state.len());
        for i in 0..state.len() {
            if i == p {
                out.push(gamma[p].one_like());
                continue;
            }
            let w = Powers::of(self.exponent[i]);
            let lambda = match (state[i], by_energy) {
                (State::Free, _) => zero.clone(),
                (State::Loaded, _) => factors[i]
                    .mul_r(&w.a(&energy[i])?)
                    .checked_div(&denominator)?,
                (State::Starting, true) => {
                    let e = (-gamma[i].clone()).mul_r(dp);
                    w.one_plus(&factors[i].mul_r(&w.a(&e)?).checked_div(&denominator)?)?
                }
                (State::Starting, false) => {
                    let ratio = factors[i]
                        .mul_r(&w.a(&(-gamma[i].clone()))?)
                        .checked_div(&denominator)?;
                    let shift = step_power(dp, self.exponent[i], self.exponent[p])?;
                    w.one_plus(&ratio)?.mul_r(&shift)
                }
            };
            out.push(lambda);
        }
        Ok(out)
    }
}

/// ΔP^{(η_i − η_p)/(1 + η_p)}.
fn step_power<S: Scalar>(dp: &S, ei: Exponent, ep: Exponent) -> Result<S, LawError> {
    if ei == ep {
        return Ok(dp.one_like());
    }
    // (pi/qi − pp/qp) / ((pp + qp)/qp) = (pi qp − pp qi) / (qi (pp + qp))
    let num = i64::from(ei.p) * i64::from(ep.q) - i64::from(ep.p) * i64::from(ei.q);
    let den = ei.q * (ep.p + ep.q);
    rpow(dp, num, den)
}

impl<S: Scalar> Lzb<S> {
    /// The energy (and the compression's work) after one step (Siconos
    /// `Compute_energyContact`).
    #[allow(clippy::too_many_arguments)]
    fn energy(
        &self,
        i: usize,
        state: State,
        e: &S,
        work: &S,
        old: &S,
        new: &S,
        dp: &S,
    ) -> Result<(S, S), LawError> {
        let half = old.add_r(new).checked_div(&old.lift_i64(2))?;
        let change = half.mul_r(dp);
        let zero = e.zero_like();
        let coefficient = &self.restitution[i];
        match self.compliance {
            Compliance::BiStiffness => {
                let q = || format!("the mean velocity of contact {} over a step", i + 1);
                if sign_named(&half, q)? != Sign::Positive {
                    return Ok((e.sub_r(&change), work.clone()));
                }
                if sign_named(coefficient, || "an energetic coefficient".into())? == Sign::Zero {
                    return Ok((zero, work.clone()));
                }
                let next = e.sub_r(&change.checked_div(&coefficient.square())?);
                let q = || format!("the energy of contact {} in expansion", i + 1);
                Ok((
                    if sign_named(&next, q)? == Sign::Negative {
                        zero
                    } else {
                        next
                    },
                    work.clone(),
                ))
            }
            Compliance::MonoStiffness => {
                let q = || format!("the velocity of contact {}", i + 1);
                let turned =
                    sign_named(old, q)? == Sign::Negative && sign_named(new, q)? != Sign::Negative;
                let work = if turned { e.clone() } else { work.clone() };
                let next = e.sub_r(&change);
                let spent = next.sub_r(&e.one_like().sub_r(&coefficient.square()).mul_r(&work));
                let done = state == State::Loaded
                    && sign_named(new, q)? == Sign::Positive
                    && sign_named(&spent, || format!("the energy left at contact {}", i + 1))?
                        != Sign::Positive;
                Ok((if done { zero } else { next }, work))
            }
        }
    }
}

/// The decided sign of `x`; the quantity is named (and its name built) only when the
/// sign is undecided.
fn sign_named<S: Scalar>(x: &S, name: impl FnOnce() -> String) -> Result<Sign, LawError> {
    match x.sign() {
        Sign::Unknown => decide(x, &name()),
        s => Ok(s),
    }
}

/// The first contact with the most negative γ_i.
pub(crate) fn most_approaching<S: Scalar>(gamma: &[S]) -> Result<usize, LawError> {
    argbest(
        gamma,
        |a, b| a.sub_r(b),
        "a difference of contact velocities",
    )
}

/// The first index whose value is best: `better(a, b) > 0` when b beats a.
fn argbest<S: Scalar>(
    xs: &[S],
    better: impl Fn(&S, &S) -> S,
    quantity: &str,
) -> Result<usize, LawError> {
    let mut best = 0;
    for k in 1..xs.len() {
        if decide(&better(&xs[best], &xs[k]), quantity)? == Sign::Positive {
            best = k;
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::{MpInterval, Rational};
    use crate::linalg::SymMatrix;
    use crate::system::cradle::cradle_constraints;

    fn params<S: Scalar>(one: &S, r: usize, eta: Exponent, e: &S, steps: usize) -> Lzb<S> {
        Lzb {
            stiffness: vec![one.clone(); r],
            exponent: vec![eta; r],
            restitution: vec![e.clone(); r],
            compliance: Compliance::BiStiffness,
            delta_p: None,
            steps,
            tol_velocity: one.zero_like(),
            tol_energy: one.zero_like(),
            max_steps: 10_000_000,
            limit_steps: 100,
            limit_max_steps: 100_000,
        }
    }

    /// A unit mass against a wall, γ⁻ = −1: the compression is integrated exactly by
    /// the trapezoid (γ is linear in P), so the scheme's error is the phase switch's and
    /// the last step's, each at most G ΔP; the limit is Newton's γ⁺ = e.
    #[test]
    fn one_contact_is_newton_within_two_steps() {
        for compliance in [Compliance::BiStiffness, Compliance::MonoStiffness] {
            for eta in [Exponent::LINEAR, Exponent::HERTZ] {
                for e in [1.0, 0.5, 0.0] {
                    let c =
                        Constraints::new(SymMatrix::diagonal(&[1.0]), vec![vec![-1.0]]).unwrap();
                    let mut l = params(&1.0, 1, eta, &e, 1000);
                    l.compliance = compliance;
                    let o = l.run(&c, &[-1.0]).unwrap();
                    assert!(
                        (o.velocity[0] - e).abs() <= 2e-3,
                        "{compliance:?} {eta:?} {e}: {:?}",
                        o.velocity
                    );
                    assert_eq!(o.delta_p, 1e-3);
                    assert_eq!(o.primaries, vec![0]);
                }
            }
        }
    }

    /// The 3-ball cradle, equal masses and Hertz contacts, e = 1: the dispersed outcome
    /// of a time integration of the Hertz chain (RK4, dt = 5·10⁻⁴, converged to 10⁻⁹:
    /// (−0.0709524, 0.0764030, 0.9945493)), not Newton's (0, 0, 1).
    #[test]
    fn hertz_cradle_disperses() {
        let c = cradle_constraints(&[1.0, 1.0, 1.0]).unwrap();
        let o = params(&1.0, 2, Exponent::HERTZ, &1.0, 10_000)
            .run(&c, &[1.0, 0.0, 0.0])
            .unwrap();
        let want = [-0.0709524, 0.0764030, 0.9945493];
        for (x, w) in o.velocity.iter().zip(want) {
            assert!((x - w).abs() < 2e-3, "{:?}", o.velocity);
        }
        let momentum: f64 = o.velocity.iter().sum();
        assert!((momentum - 1.0).abs() < 1e-12);
        let energy: f64 = o.velocity.iter().map(|v| v * v).sum();
        assert!((energy - 1.0).abs() < 1e-2, "{energy}");
    }

    /// On 256-bit intervals the run encloses the scheme's exact result: the momentum's
    /// enclosure contains 1 (the impulses are internal), and the f64 run lies close.
    #[test]
    fn interval_run_encloses_momentum() {
        let one = MpInterval::from_i64(1, &256);
        let zero = one.zero_like();
        let c = cradle_constraints(&[one.clone(), one.clone(), one.clone()]).unwrap();
        let o = params(&one, 2, Exponent::HERTZ, &one, 200)
            .run(&c, &[one.clone(), zero.clone(), zero])
            .unwrap();
        let m = o.velocity.iter().fold(one.zero_like(), |a, x| a.add_r(x));
        let (lo, hi) = m.rational_bounds().unwrap();
        let one_q = num_rational::BigRational::from_integer(1.into());
        assert!(lo <= one_q && one_q <= hi, "[{lo}, {hi}]");
        let tiny = num_rational::BigRational::new(1.into(), num_bigint::BigInt::from(10).pow(40));
        assert!(&hi - &lo < tiny, "[{lo}, {hi}]");
        let f = params(&1.0, 2, Exponent::HERTZ, &1.0, 200)
            .run(
                &cradle_constraints(&[1.0, 1.0, 1.0]).unwrap(),
                &[1.0, 0.0, 0.0],
            )
            .unwrap();
        for (x, y) in o.velocity.iter().zip(&f.velocity) {
            assert!((x.to_f64() - y).abs() < 1e-9, "{x:?} {y}");
        }
    }

    /// Exact rationals cannot hold the scheme's roots: an error, never a guess.
    #[test]
    fn exact_backend_refuses() {
        let one = Rational::new(1, 1);
        let c = cradle_constraints(&[one.clone(), one.clone(), one.clone()]).unwrap();
        let v = [one.clone(), one.zero_like(), one.zero_like()];
        let err = params(&one, 2, Exponent::HERTZ, &one, 10)
            .run(&c, &v)
            .unwrap_err();
        assert!(matches!(err, LawError::Arith(_)), "{err}");
    }

    #[test]
    fn exponents_reduce() {
        assert_eq!(Exponent::new(6, 4), Some(Exponent::HERTZ));
        assert_eq!(Exponent::new(0, 1), None);
        assert_eq!(Exponent::HERTZ.text(), "3/2");
        assert_eq!(
            Compliance::parse("mono-stiffness"),
            Some(Compliance::MonoStiffness)
        );
    }
}
