//! The time stepper of Seghete & Murphey Sect. VI with simultaneous impacts: the
//! variational integrator of [`crate::law::variational`] between impacts, and at an
//! impact the step (30), F⁺(t_k, t*) ∏Γ(w_i) + F⁻(t*, t_{k+1}) = 0, resolved by the
//! propagative model of [`crate::law::propagative`] on every contact closed at t*.
//!
//! **Gaps** are affine, φ_i(q) = a_i·q + b_i ≥ 0, with the normal covector u_i = a_i.
//!
//! **Impact time.** Without springs the discrete motion from a node (q, p) over a time
//! τ ≤ h is q(τ) = q + τM⁻¹(p + (τ/2)f), exactly the continuous one (the midpoint step
//! of [`Lagrangian::step`] with h = τ gives it for every τ), so φ_i(q(τ)) =
//! φ_i + τ⟨u_i, p⟩_g + (τ²/2)⟨u_i, f⟩_g and its first root is τ = 2φ_i/(d − ⟨u_i, p⟩_g),
//! d = √(⟨u_i, p⟩²_g − 2φ_i⟨u_i, f⟩_g): rational without gravity, in Q(√d) with a
//! constant force. A root that is not in the backend's field is an error naming the
//! field that holds it. With springs φ_i(q(τ)) is a rational function of τ: its first
//! root is isolated by bisection on τ-boxes (enclosure backends: every discarded box has
//! φ_i > 0 decided, so the enclosure is certified), by sign changes in `f64`, and not
//! at all in exact arithmetic (an error).
//!
//! **Impact.** At t* every contact with φ_i(q*) = 0 (decided) takes part. The momentum
//! p*⁻ = F⁺(t_k, t*) = D₂L_d(q_k, q*) is mapped by the law:
//! - elastic: reflections p ↦ pΓ(u_i) (7) until p is feasible (6), each time about the
//!   violated contact with the smallest ⟨u_i, p⟩_g (`argmin`, the order of Sect. VII-B's
//!   first run) or the largest (`argmax`, its second run);
//! - plastic: the impact that never pulls ([`Contacts::plastic_complementary`], which is
//!   (11) whenever all of (11)'s impulses push);
//! - inelastic: (17), p⁺ = R p_e + (1 − R) p_p, with R of (16).
//!
//! The rest of the step solves F⁺ ∏Γ + F⁻(t*, t_{k+1}) = 0, i.e. a step of length
//! t_{k+1} − t* from (q*, p*⁺); further impacts inside the same step are resolved the
//! same way.
//!
//! **Zeno rule** (Sect. VII-B: "when the chattering becomes faster than the time step
//! frequency … consider that impact plastic"): an impact at t* in which a contact takes
//! part whose previous impact was less than one step h before (t* − t_prev < h) is
//! resolved plastically, and the impact is marked.
//!
//! **Resting contacts.** A contact with φ_i = 0, ⟨u_i, p⟩_g = 0 and the force pushing
//! into it (⟨u_i, f⟩_g < 0) is held: the integrator runs on the affine submanifold of the
//! held contacts (the force replaced by the one that never pulls,
//! [`Contacts::plastic_complementary`] applied to f), and a held contact is released
//! when that projection stops pushing on it. Supported without springs only.

use crate::arith::{Kind, Scalar, Sign};
use crate::law::propagative::{inelastic, Contacts};
use crate::law::variational::Lagrangian;
use crate::law::{decide, LawError};
use crate::linalg::{dot, Vector};

/// An affine gap function φ(q) = a·q + b ≥ 0.
#[derive(Clone, Debug)]
pub struct Gap<S> {
    pub name: String,
    pub a: Vector<S>,
    pub b: S,
}

impl<S: Scalar> Gap<S> {
    /// φ(q).
    pub fn value(&self, q: &[S]) -> S {
        dot(self.a.iter(), q.iter()) + &self.b
    }
}

/// A system of the time stepper: the Lagrangian, the gaps and the initial node.
#[derive(Clone, Debug)]
pub struct StepSystem<S> {
    pub name: String,
    pub coordinates: Vec<String>,
    pub lagrangian: Lagrangian<S>,
    pub gaps: Vec<Gap<S>>,
    pub q0: Vector<S>,
    pub p0: Vector<S>,
    /// M⁻¹a_iᵀ of every gap (⟨u_i, x⟩_g = x·M⁻¹a_iᵀ without a solve per rate).
    duals: Vec<Vector<S>>,
}

/// The impact law of the step (30).
#[derive(Clone, Debug, PartialEq)]
pub enum StepLaw<S> {
    Elastic,
    Plastic,
    /// (17) with R of (16).
    Inelastic(S),
}

/// The order of the reflections of an elastic impact (Sect. VII-B).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// The violated contact with the smallest ⟨u_i, p⟩_g first.
    Argmin,
    /// The violated contact with the largest ⟨u_i, p⟩_g first.
    Argmax,
}

/// How an impact was resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    Elastic,
    Plastic,
    Inelastic,
    /// Plastic by the Zeno rule (the law asked for another).
    ZenoPlastic,
}

impl Resolution {
    pub fn name(self) -> &'static str {
        match self {
            Resolution::Elastic => "elastic",
            Resolution::Plastic => "plastic",
            Resolution::Inelastic => "inelastic",
            Resolution::ZenoPlastic => "plastic (Zeno rule)",
        }
    }
}

/// A node t_k of the run.
#[derive(Clone, Debug)]
pub struct Node<S> {
    pub step: usize,
    pub t: S,
    pub q: Vector<S>,
    pub p: Vector<S>,
    pub energy: S,
}

/// An impact inside the step `step` (from t_step to t_step+1).
#[derive(Clone, Debug)]
pub struct Impact<S> {
    pub step: usize,
    pub time: S,
    pub q: Vector<S>,
    /// The contacts closed at t* (0-based gap indices).
    pub active: Vec<usize>,
    /// The reflections applied (gap indices), for an elastic or inelastic impact.
    pub sequence: Vec<usize>,
    /// The contacts whose normal rate is exactly 0 after the impact by construction (a
    /// plastic impact's contacts that it does not release).
    pub tangent: Vec<usize>,
    pub resolution: Resolution,
    pub before: Vector<S>,
    pub after: Vector<S>,
    pub energy_before: S,
    pub energy_after: S,
}

/// A contact starting or ending to rest.
#[derive(Clone, Debug)]
pub struct Rest<S> {
    pub step: usize,
    pub time: S,
    pub gap: usize,
    pub held: bool,
}

/// A run: the nodes, the impacts, and why it stopped early (if it did).
#[derive(Clone, Debug)]
pub struct Run<S> {
    pub nodes: Vec<Node<S>>,
    pub impacts: Vec<Impact<S>>,
    pub rests: Vec<Rest<S>>,
    pub stopped: Option<Stopped>,
}

/// Why a run stopped before its last step.
#[derive(Clone, Debug, PartialEq)]
pub enum Stopped {
    /// The impact time is not in the backend's field (exact arithmetic): the message
    /// names the square root and the backends that hold it.
    Field(String),
    /// An undecided sign, a limit, or a state outside the model (resting with springs).
    Law(LawError),
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stopped::Field(m) => write!(f, "{m}"),
            Stopped::Law(e) => write!(f, "{e}"),
        }
    }
}

/// What is known exactly about the state although an enclosure or a rounded value may not
/// show it: the gaps that are zero (the contacts of the impact just resolved, the held
/// ones) and the normal rates that are zero (after a plastic impact, the contacts it acted
/// on; the held contacts).
#[derive(Clone, Debug, Default)]
struct Known {
    gap: Vec<usize>,
    rate: Vec<usize>,
}

/// The most impacts resolved inside one step before the run stops.
pub const MAX_IMPACTS_PER_STEP: usize = 1_000;
/// The most reflections of one elastic impact.
pub const MAX_REFLECTIONS: usize = 10_000;
/// The most digits of an exact value of the state before the run stops (exact numbers
/// grow with the steps when springs couple the coordinates).
pub const MAX_DIGITS: u64 = crate::input::caps::DEFAULT_DIGITS;
/// The end of the message of an impact time outside the backend's field.
const FIELD_HINT: &str = "use --arith quadratic (one square root), interval or mpi:BITS";
/// The depth of the bisection that isolates an impact time with springs.
const BISECTION_DEPTH: usize = 60;

impl<S: Scalar> StepSystem<S> {
    /// The system; `Err` if M is singular.
    pub fn new(
        name: String,
        coordinates: Vec<String>,
        lagrangian: Lagrangian<S>,
        gaps: Vec<Gap<S>>,
        (q0, p0): (Vector<S>, Vector<S>),
    ) -> Result<Self, LawError> {
        let duals = gaps
            .iter()
            .map(|g| lagrangian.mass.solve(&g.a))
            .collect::<Result<_, _>>()?;
        Ok(StepSystem {
            name,
            coordinates,
            lagrangian,
            gaps,
            q0,
            p0,
            duals,
        })
    }

    /// The contact normals of `idx` as a [`Contacts`] (the kinetic metric M).
    fn contacts(&self, idx: &[usize]) -> Result<Contacts<S>, LawError> {
        Contacts::new(
            self.lagrangian.mass.clone(),
            idx.iter().map(|&i| self.gaps[i].a.clone()).collect(),
        )
    }

    /// ⟨u_i, x⟩_g = a_i M⁻¹ xᵀ.
    fn rate(&self, i: usize, x: &[S]) -> Result<S, LawError> {
        Ok(dot(x.iter(), self.duals[i].iter()))
    }

    /// The gaps that are negative at q (decided), as an error naming the first.
    pub fn check_admissible(&self, q: &[S]) -> Result<(), LawError> {
        for g in &self.gaps {
            if sign_of(&g.value(q), || format!("gap {}", g.name))? == Sign::Negative {
                return Err(LawError::Domain(format!(
                    "gap {} is negative at the initial configuration",
                    g.name
                )));
            }
        }
        Ok(())
    }

    /// One step of length `h` with the force `force` (the held contacts' projection of f;
    /// the system's own Lagrangian when nothing is held).
    fn flow(
        &self,
        held: &[usize],
        force: &[S],
        (q, p): (&mut [S], &mut [S]),
        h: &S,
    ) -> Result<(), LawError> {
        if held.is_empty() {
            return self.lagrangian.step_in_place(q, p, h);
        }
        let mut l = self.lagrangian.clone();
        l.force = force.to_vec();
        l.step_in_place(q, p, h)
    }

    /// Runs `steps` steps of length `h` under `law`.
    pub fn run(&self, h: &S, steps: usize, law: &StepLaw<S>, order: Order) -> Run<S> {
        let mut run = Run {
            nodes: Vec::with_capacity(steps.min(4096) + 1),
            impacts: Vec::new(),
            rests: Vec::new(),
            stopped: None,
        };
        if let Err(e) = self.run_into(&mut run, h, steps, law, order) {
            run.stopped = Some(match e {
                LawError::Domain(m) if m.contains("use --arith") => Stopped::Field(m),
                e => Stopped::Law(e),
            });
        }
        run
    }

    fn run_into(
        &self,
        run: &mut Run<S>,
        h: &S,
        steps: usize,
        law: &StepLaw<S>,
        order: Order,
    ) -> Result<(), LawError> {
        self.check_admissible(&self.q0)?;
        let (mut q, mut p) = (self.q0.clone(), self.p0.clone());
        let mut t = h.zero_like();
        let mut held: Vec<usize> = Vec::new();
        let mut last: Vec<Option<S>> = vec![None; self.gaps.len()];
        let mut known = Known::default();
        run.nodes.push(self.node(0, &t, &q, &p)?);
        for k in 0..steps {
            let end = t.add_r(h);
            let mut rem = h.clone();
            let mut count = 0;
            loop {
                let force = self.update_held(&mut held, &q, &p, &known, (k, &t), &mut run.rests)?;
                for list in [&mut known.gap, &mut known.rate] {
                    list.retain(|i| !held.contains(i));
                    list.extend(held.iter().copied());
                }
                let next = self.next_impact(&q, &p, &force, &held, &known, &rem)?;
                let Some((tau, who)) = next else {
                    self.flow(&held, &force, (&mut q, &mut p), &rem)?;
                    known = Known {
                        gap: held.clone(),
                        rate: held.clone(),
                    };
                    break;
                };
                if decide(&tau, "τ")? == Sign::Positive {
                    self.flow(&held, &force, (&mut q, &mut p), &tau)?;
                    known = Known {
                        gap: held.clone(),
                        rate: held.clone(),
                    };
                }
                let new: Vec<usize> = who.into_iter().filter(|i| !known.gap.contains(i)).collect();
                known.gap.extend(new);
                let t_star = t.add_r(&tau);
                let impact = self.impact(k, (&t_star, h), &q, &p, &known, &mut last, law, order)?;
                known = Known {
                    gap: impact.active.clone(),
                    rate: impact.tangent.clone(),
                };
                p = impact.after.clone();
                run.impacts.push(impact);
                count += 1;
                if count > MAX_IMPACTS_PER_STEP {
                    return Err(LawError::Domain(format!(
                        "more than {MAX_IMPACTS_PER_STEP} impacts inside step {k} (Zeno behaviour the rule did not stop)"
                    )));
                }
                t = t_star;
                rem = end.sub_r(&t);
                if decide(&rem, "t_{k+1} − t*")? == Sign::Zero {
                    break;
                }
            }
            t = end;
            if S::kind() == Kind::Float && !q.iter().chain(&p).all(|x| x.to_f64().is_finite()) {
                return Err(overflow::<S>());
            }
            run.nodes.push(self.node(k + 1, &t, &q, &p)?);
            let digits = q
                .iter()
                .chain(&p)
                .map(Scalar::exact_digits)
                .max()
                .unwrap_or(0);
            if digits > MAX_DIGITS {
                return Err(LawError::Domain(format!(
                    "exact values of {digits} digits at step {} (the limit of exact runs is {MAX_DIGITS}); mpfr:BITS or mpi:BITS keep a fixed size",
                    k + 1
                )));
            }
        }
        Ok(())
    }

    fn node(&self, step: usize, t: &S, q: &[S], p: &[S]) -> Result<Node<S>, LawError> {
        Ok(Node {
            step,
            t: t.clone(),
            q: q.to_vec(),
            p: p.to_vec(),
            energy: self.lagrangian.energy(q, p)?,
        })
    }

    /// φ_i(q), or exactly 0 for a gap known to be zero.
    fn gap(&self, i: usize, q: &[S], known: &Known) -> S {
        if known.gap.contains(&i) {
            q[0].zero_like()
        } else {
            self.gaps[i].value(q)
        }
    }

    /// ⟨u_i, p⟩_g, or exactly 0 for a rate known to be zero.
    fn rate_now(&self, i: usize, p: &[S], known: &Known) -> Result<S, LawError> {
        if known.rate.contains(&i) {
            Ok(p[0].zero_like())
        } else {
            self.rate(i, p)
        }
    }

    /// Updates the held contacts at (q, p) and returns the force the integrator uses.
    fn update_held(
        &self,
        held: &mut Vec<usize>,
        q: &[S],
        p: &[S],
        known: &Known,
        (step, t): (usize, &S),
        rests: &mut Vec<Rest<S>>,
    ) -> Result<std::borrow::Cow<'_, [S]>, LawError> {
        let f = &self.lagrangian.force;
        let mut candidates = Vec::new();
        for i in 0..self.gaps.len() {
            if decide(&self.gap(i, q, known), "gap")? != Sign::Zero
                || decide(&self.rate_now(i, p, known)?, "⟨u, p⟩_g")? != Sign::Zero
            {
                continue;
            }
            if held.contains(&i) || decide(&self.rate(i, f)?, "⟨u, f⟩_g")? == Sign::Negative {
                candidates.push(i);
            }
        }
        let mut now = Vec::new();
        let mut force = std::borrow::Cow::Borrowed(&f[..]);
        if !candidates.is_empty() {
            if self.lagrangian.has_springs() {
                return Err(LawError::Domain(
                    "a contact comes to rest; resting contacts are supported without springs only"
                        .into(),
                ));
            }
            let c = self.contacts(&candidates)?;
            let out = c.plastic_complementary(f)?;
            force = std::borrow::Cow::Owned(out.momentum);
            now = candidates
                .iter()
                .enumerate()
                .filter(|(j, _)| !out.released.contains(j))
                .map(|(_, &i)| i)
                .collect();
        }
        for &i in held.iter().filter(|i| !now.contains(i)) {
            rests.push(Rest {
                step,
                time: t.clone(),
                gap: i,
                held: false,
            });
        }
        for &i in now.iter().filter(|i| !held.contains(i)) {
            rests.push(Rest {
                step,
                time: t.clone(),
                gap: i,
                held: true,
            });
        }
        *held = now;
        Ok(force)
    }

    /// The first impact time τ ∈ [0, rem] and the gaps reaching zero then.
    fn next_impact(
        &self,
        q: &[S],
        p: &[S],
        force: &[S],
        held: &[usize],
        known: &Known,
        rem: &S,
    ) -> Result<Option<(S, Vec<usize>)>, LawError> {
        let mut best: Option<(S, Vec<usize>)> = None;
        for i in (0..self.gaps.len()).filter(|i| !held.contains(i)) {
            let root = if self.lagrangian.has_springs() {
                self.spring_root(i, q, p, known, rem)?
            } else {
                let c = self.gap(i, q, known);
                let b = self.rate_now(i, p, known)?;
                let a = self.rate(i, force)?;
                first_root(&c, &b, &a, rem, &self.gaps[i].name)?
            };
            let Some(tau) = root else { continue };
            best = match best {
                None => Some((tau, vec![i])),
                Some((t0, mut who)) => match decide(&tau.sub_r(&t0), "τ_i − τ_j")? {
                    Sign::Negative => Some((tau, vec![i])),
                    Sign::Zero => {
                        who.push(i);
                        Some((t0, who))
                    }
                    _ => Some((t0, who)),
                },
            };
        }
        Ok(best)
    }

    /// The first root of φ_i along the discrete motion with springs, in [0, rem].
    fn spring_root(
        &self,
        i: usize,
        q: &[S],
        p: &[S],
        known: &Known,
        rem: &S,
    ) -> Result<Option<S>, LawError> {
        let gap_at = |tau: &S| -> Result<S, LawError> {
            if tau.sign() == Sign::Zero {
                return Ok(self.gaps[i].value(q));
            }
            Ok(self.gaps[i].value(&self.lagrangian.position(q, p, tau)?))
        };
        let c = self.gap(i, q, known);
        if decide(&c, "gap")? == Sign::Zero {
            return Ok(match decide(&self.rate_now(i, p, known)?, "⟨u, p⟩_g")? {
                Sign::Negative => Some(q[0].zero_like()),
                _ => None,
            });
        }
        if S::is_exact() {
            return Err(LawError::Domain(
                "with springs the impact time is a root of a polynomial of degree above 2: use --arith interval, mpi:BITS or f64".into(),
            ));
        }
        let zero = rem.zero_like();
        if zero.hull_with(rem).is_none() {
            return float_root(&gap_at, rem);
        }
        // Certified: boxes [lo, hi] left to right; a box with φ > 0 decided is dropped.
        let mut stack = vec![(zero, rem.clone(), 0usize)];
        while let Some((lo, hi, depth)) = stack.pop() {
            let span = lo.hull_with(&hi).unwrap_or_else(|| hi.clone());
            if gap_at(&span)?.sign() == Sign::Positive {
                continue;
            }
            let end = gap_at(&hi)?;
            if depth >= BISECTION_DEPTH {
                if end.sign() == Sign::Negative {
                    return Ok(Some(span));
                }
                return Err(LawError::Undecided {
                    quantity: format!("the first root of gap {} (grazing?)", self.gaps[i].name),
                    lo: format!("{:e}", lo.to_f64()),
                    hi: format!("{:e}", hi.to_f64()),
                });
            }
            let mid = lo.add_r(&hi).halve();
            stack.push((mid.clone(), hi, depth + 1));
            stack.push((lo, mid, depth + 1));
        }
        Ok(None)
    }

    /// The impact at t* with momentum p*⁻ = `p` at q* = `q`.
    #[allow(clippy::too_many_arguments)]
    fn impact(
        &self,
        step: usize,
        (t_star, h): (&S, &S),
        q: &[S],
        p: &[S],
        known: &Known,
        last: &mut [Option<S>],
        law: &StepLaw<S>,
        order: Order,
    ) -> Result<Impact<S>, LawError> {
        let mut active = Vec::new();
        for (i, g) in self.gaps.iter().enumerate() {
            if sign_of(&self.gap(i, q, known), || format!("gap {} at t*", g.name))? == Sign::Zero {
                active.push(i);
            }
        }
        let mut zeno = false;
        for &i in &active {
            if decide(&self.rate_now(i, p, known)?, "⟨u, p⟩_g")? == Sign::Negative {
                if let Some(prev) = &last[i] {
                    if decide(&t_star.sub_r(prev).sub_r(h), "t* − t_prev − h")? == Sign::Negative
                    {
                        zeno = true;
                    }
                }
                last[i] = Some(t_star.clone());
            }
        }
        let c = self.contacts(&active)?;
        let (sequence, after, resolution, tangent) = resolve(&c, p, law, zeno, order, &active)?;
        Ok(Impact {
            step,
            time: t_star.clone(),
            q: q.to_vec(),
            sequence: sequence.iter().map(|&j| active[j]).collect(),
            active,
            tangent,
            resolution,
            energy_before: self.lagrangian.energy(q, p)?,
            energy_after: self.lagrangian.energy(q, &after)?,
            before: p.to_vec(),
            after,
        })
    }

    /// Directions ξ of q along which nothing breaks the symmetry: every gap normal, the
    /// force and every spring annihilate ξ, so p·ξ is a first integral (Noether).
    pub fn symmetries(&self) -> Result<Vec<Vector<S>>, LawError> {
        let mut rows: Vec<Vector<S>> = self.gaps.iter().map(|g| g.a.clone()).collect();
        rows.push(self.lagrangian.force.clone());
        rows.extend(self.lagrangian.springs.iter().map(|s| s.a.clone()));
        let zero = self.q0[0].zero_like();
        Ok(crate::linalg::nullspace(&rows, self.q0.len(), &zero)?)
    }
}

/// The sign of `x`; the name of the quantity is only formatted when the sign is undecided
/// (the stepper asks thousands of signs per run).
fn sign_of<S: Scalar>(x: &S, what: impl FnOnce() -> String) -> Result<Sign, LawError> {
    if S::kind() == Kind::Float && !x.to_f64().is_finite() {
        return Err(overflow::<S>());
    }
    match x.sign() {
        Sign::Unknown => decide(x, &what()),
        s => Ok(s),
    }
}

/// A rounded value overflowed (or became NaN): the run stops before it is reported.
fn overflow<S: Scalar>() -> LawError {
    LawError::Domain(format!(
        "a value of the run overflows {} (a smaller --dt, or exact or mpfr:BITS arithmetic, has the range)",
        S::NAME
    ))
}

/// The other order of the reflections.
impl Order {
    pub fn other(self) -> Order {
        match self {
            Order::Argmin => Order::Argmax,
            Order::Argmax => Order::Argmin,
        }
    }
}

/// ξ at one node of two runs: (step, t, ξ², ξ); ξ² is `None` where p_a = 0, ξ also
/// where its square root is not in the backend's field or an enclosure of ξ² reaches
/// below 0.
pub type XiAt<S> = (usize, S, Option<S>, Option<S>);

pub fn indeterminacy<S: Scalar>(
    a: &Run<S>,
    b: &Run<S>,
    mass: impl Fn(&[S]) -> Result<crate::linalg::SymMatrix<S>, LawError>,
) -> Result<Vec<XiAt<S>>, LawError> {
    a.nodes
        .iter()
        .zip(&b.nodes)
        .map(|(na, nb)| {
            let m = mass(&na.q)?;
            let d: Vector<S> = na.p.iter().zip(&nb.p).map(|(x, y)| x.sub_r(y)).collect();
            let norm2 = |x: &[S]| -> Result<S, LawError> { Ok(dot(x.iter(), m.solve(x)?.iter())) };
            let pa = norm2(&na.p)?;
            if decide(&pa, "‖p_a‖²_g")? != Sign::Positive {
                return Ok((na.step, na.t.clone(), None, None));
            }
            let xi2 = norm2(&d)?.checked_div(&pa)?;
            let xi = match xi2.sign() {
                Sign::Zero => Some(xi2.clone()),
                Sign::Positive => xi2.sqrt().ok(),
                _ => None,
            };
            Ok((na.step, na.t.clone(), Some(xi2), xi))
        })
        .collect()
}

/// (reflections, p*⁺, resolution, gaps with rate exactly 0): see [`resolve`].
pub type Resolved<S> = (Vec<usize>, Vector<S>, Resolution, Vec<usize>);

/// An impact's outcome on the closed contacts `c` (`active`: their gap indices) under
/// `law` (plastic by the Zeno rule when `zeno`): the reflections applied (indices into
/// `c`), p*⁺, the resolution, and the gaps whose rate ends exactly 0 (a plastic impact's
/// contacts that it does not release).
pub fn resolve<S: Scalar>(
    c: &Contacts<S>,
    p: &[S],
    law: &StepLaw<S>,
    zeno: bool,
    order: Order,
    active: &[usize],
) -> Result<Resolved<S>, LawError> {
    Ok(match (law, zeno) {
        (_, true) | (StepLaw::Plastic, _) => {
            let out = c.plastic_complementary(p)?;
            let tangent = (0..active.len())
                .filter(|j| !out.released.contains(j))
                .map(|j| active[j])
                .collect();
            let r = if zeno {
                Resolution::ZenoPlastic
            } else {
                Resolution::Plastic
            };
            (Vec::new(), out.momentum, r, tangent)
        }
        (StepLaw::Elastic, _) => {
            let (seq, out) = reflect_until_feasible(c, p, order)?;
            (seq, out, Resolution::Elastic, Vec::new())
        }
        (StepLaw::Inelastic(r), _) => {
            let (seq, pe) = reflect_until_feasible(c, p, order)?;
            let pp = c.plastic_complementary(p)?.momentum;
            (
                seq,
                inelastic(&pe, &pp, r),
                Resolution::Inelastic,
                Vec::new(),
            )
        }
    })
}

/// Reflections p ↦ pΓ(u_j) (7) about the violated contact chosen by `order` until p is
/// feasible (6). Returns the sequence (indices into `c`) and the outcome.
pub fn reflect_until_feasible<S: Scalar>(
    c: &Contacts<S>,
    p: &[S],
    order: Order,
) -> Result<(Vec<usize>, Vector<S>), LawError> {
    let mut p = p.to_vec();
    let mut seq = Vec::new();
    loop {
        let mut pick: Option<(usize, S)> = None;
        for j in 0..c.normals.len() {
            let r = c.rate(&p, j);
            if sign_of(&r, || format!("<p, u{}>_g", j + 1))? != Sign::Negative {
                continue;
            }
            let better = match &pick {
                None => true,
                Some((_, best)) => {
                    let d = decide(&r.sub_r(best), "⟨u_i, p⟩_g − ⟨u_j, p⟩_g")?;
                    match order {
                        Order::Argmin => d == Sign::Negative,
                        Order::Argmax => d == Sign::Positive,
                    }
                }
            };
            if better {
                pick = Some((j, r));
            }
        }
        let Some((j, _)) = pick else {
            return Ok((seq, p));
        };
        if seq.len() >= MAX_REFLECTIONS {
            return Err(LawError::Domain(format!(
                "{MAX_REFLECTIONS} reflections did not make the momentum feasible"
            )));
        }
        p = c.reflect(&p, j)?;
        seq.push(j);
    }
}

/// The first root in [0, rem] of φ(τ) = c + bτ + (a/2)τ², with c = φ(q), b = ⟨u, p⟩_g and
/// a = ⟨u, f⟩_g (the motion under a constant force): `None` if φ stays positive.
pub fn first_root<S: Scalar>(
    c: &S,
    b: &S,
    a: &S,
    rem: &S,
    name: &str,
) -> Result<Option<S>, LawError> {
    let two = c.lift_i64(2);
    let inside = |tau: S| -> Result<Option<S>, LawError> {
        Ok(match decide(&rem.sub_r(&tau), "t_{k+1} − t*")? {
            Sign::Negative => None,
            _ => Some(tau),
        })
    };
    let sb = sign_of(b, || format!("⟨u, p⟩_g of gap {name}"))?;
    let sa = sign_of(a, || format!("⟨u, f⟩_g of gap {name}"))?;
    match sign_of(c, || format!("gap {name}"))? {
        Sign::Negative => Err(LawError::Domain(format!("gap {name} is negative"))),
        Sign::Zero => match (sb, sa) {
            (Sign::Negative, _) => Ok(Some(c.zero_like())),
            (Sign::Positive, Sign::Negative) => inside(-(b.mul_r(&two)).checked_div(a)?),
            _ => Ok(None),
        },
        _ => {
            // φ(rem) > 0 with φ concave, or φ convex without its minimum inside: no root.
            let at = |tau: &S| {
                c.add_r(&b.mul_r(tau))
                    .add_r(&a.mul_r(&tau.square()).halve())
            };
            if sa == Sign::Zero {
                return if sb == Sign::Negative {
                    inside(-c.checked_div(b)?)
                } else {
                    Ok(None)
                };
            }
            let end = sign_of(&at(rem), || format!("gap {name} at the end of the step"))?;
            if sa == Sign::Positive && sb != Sign::Negative {
                return Ok(None);
            }
            if sa == Sign::Negative && end == Sign::Positive {
                return Ok(None);
            }
            if sa == Sign::Positive {
                // Minimum at τ_m = −b/a.
                let tm = -b.checked_div(a)?;
                if end == Sign::Positive && decide(&rem.sub_r(&tm), "τ_m")? != Sign::Positive {
                    return Ok(None);
                }
                if sign_of(&at(&tm), || format!("gap {name} at its minimum"))? == Sign::Positive {
                    return Ok(None);
                }
            }
            let disc = b.square().sub_r(&two.mul_r(a).mul_r(c));
            let d = disc.sqrt().map_err(|_| {
                LawError::Domain(format!(
                    "the impact time of gap {name} needs √({}), which {} cannot hold; {FIELD_HINT}",
                    disc.render().value,
                    S::NAME
                ))
            })?;
            // one field for the whole run: a root in another quadratic field than the
            // state's cannot be combined with it (quadratic holds one square root)
            for x in [a, b, c, rem] {
                d.compatible(x).map_err(|_| {
                    LawError::Domain(format!(
                        "the impact time of gap {name} needs √({}), outside the run's quadratic field; use --arith interval or mpi:BITS",
                        disc.render().value,
                    ))
                })?;
            }
            inside(two.mul_r(c).checked_div(&d.sub_r(b))?)
        }
    }
}

/// The first sign change of `gap` on [0, rem] in floating point (`f64` only: 64 samples,
/// then bisection); not certified.
fn float_root<S: Scalar>(
    gap: &dyn Fn(&S) -> Result<S, LawError>,
    rem: &S,
) -> Result<Option<S>, LawError> {
    let n = 64;
    let mut lo = rem.zero_like();
    for j in 1..=n {
        let hi = rem.mul_r(&rem.lift(&num_rational::BigRational::new(j.into(), n.into())));
        if gap(&hi)?.sign() != Sign::Positive {
            let mut hi = hi;
            for _ in 0..BISECTION_DEPTH {
                let mid = lo.add_r(&hi).halve();
                if gap(&mid)?.sign() == Sign::Positive {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            return Ok(Some(hi));
        }
        lo = hi;
    }
    Ok(None)
}
