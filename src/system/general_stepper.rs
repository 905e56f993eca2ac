//! The time stepper of Seghete & Murphey Sect. VI for a general Lagrangian system
//! ([`super::lagrangian`]: M(q), V(q), forces F(q, q̇, t), curved gaps φ_i(q) ≥ 0): the
//! midpoint DEL step between impacts and, at an impact, the step (30),
//! F⁺(t_k, t*) ∏Γ(w_i) + F⁻(t*, t_{k+1}) = 0, with the propagative law acting in the
//! kinetic metric M(q*) on the normals u_i = ∇φ_i(q*) of every contact closed at t* —
//! the same laws, orders and Zeno rule as [`super::stepper`], which runs the constant-M,
//! affine-gap systems.
//!
//! **Impact times.** On rounded backends a step is taken whole; when a gap is not
//! positive at its end, the first instant a gap closes is found by bisection on the step
//! length (each trial a step from the node), to the backend's precision; the contacts
//! not positive at that instant take part. A gap that closes and reopens inside one step
//! is not seen (a smaller `--dt` resolves it). On enclosure backends the step over a box
//! of lengths [0, τ] is enclosed (the Krawczyk step of [`super::lagrangian`] with h a
//! box); boxes on which every gap is positive (decided) are dropped, the others
//! bisected, so that the first impact time is certified: no gap closes before it.
//!
//! **Simultaneous within a tolerance** (`--together TOL`): contacts that close together in
//! exact arithmetic (TREX's tail and right foot in Sect. VII-B's drop) close 10⁻¹⁶ s apart
//! after rounding and would be resolved one after the other. With a tolerance, every
//! approaching contact whose gap is at most TOL at the impact instant takes part in the
//! impact (decided on enclosures), so that the propagative law and its order apply.
//!
//! **Resting contacts** (rounded backends): a contact that a plastic impact leaves closed
//! is held, φ_j(q₁) = 0 with a multiplier λ_j in the step ([`super::lagrangian`]), and
//! released at the first step whose λ_j pulls (λ_j < 0). On enclosure backends a contact
//! that closes again at once after a plastic impact stops the run, saying so.

use super::lagrangian::{step, Levels, StepAt, Stepped};
use super::stepper::{
    resolve, Impact, Node, Order, Rest, Run, StepLaw, Stopped, MAX_IMPACTS_PER_STEP,
};
use crate::arith::{Kind, Scalar, Sign};
use crate::law::propagative::Contacts;
use crate::law::{decide, LawError};
use crate::linalg::Vector;

/// The depth of the bisection on enclosure backends.
const BOX_DEPTH: usize = 60;
/// The most boxes of step lengths one certified search examines (an impact found to
/// depth [`BOX_DEPTH`] takes about 2 per level); past it the run stops, undecided.
const MAX_BOXES: usize = 400;

/// A run's fixed data.
pub struct GeneralRun<'a, S: Scalar> {
    pub levels: Levels<'a, S>,
    pub h: S,
    pub law: StepLaw<S>,
    pub order: Order,
    /// `--together`: a contact whose gap is at most this at an impact instant, and
    /// approaching, takes part in that impact (one simultaneous impact); `None`: only
    /// the contacts closed there.
    pub together: Option<S>,
}

/// The state inside a step.
#[derive(Clone, Debug)]
struct State<S> {
    t: S,
    q: Vector<S>,
    p: Vector<S>,
    /// Resting contacts, held closed.
    held: Vec<usize>,
}

/// The next event from a state: the flow to the end of the step, or an impact.
enum Next<S> {
    Flow(Vector<S>, Vector<S>),
    /// τ, the gaps closing, the state there.
    Impact(S, Vec<usize>, Vector<S>, Vector<S>),
}

impl<S: Scalar> GeneralRun<'_, S> {
    fn gaps(&self) -> usize {
        self.levels.b0.model.gaps.len()
    }

    fn name(&self, i: usize) -> &str {
        &self.levels.b0.model.gaps[i].0
    }

    fn flow(&self, s: &State<S>, h: &S) -> Result<(Vector<S>, Vector<S>), LawError> {
        let (q, p, _) = self.constrained(s, h)?;
        Ok((q, p))
    }

    /// A step with the held contacts: (q₁, p₁, their multipliers λ).
    fn constrained(&self, s: &State<S>, h: &S) -> Result<Stepped<S>, LawError> {
        step(
            &self.levels,
            &StepAt {
                q0: &s.q,
                p0: &s.p,
                t0: &s.t,
                h,
                held: &s.held,
            },
        )
    }

    /// Releases the held contacts whose multiplier over a step of `rem` pulls (λ < 0).
    fn release(
        &self,
        s: &mut State<S>,
        rem: &S,
        k: usize,
        rests: &mut Vec<Rest<S>>,
    ) -> Result<(), LawError> {
        while !s.held.is_empty() {
            let (_, _, lam) = self.constrained(s, rem)?;
            let pulling: Vec<usize> = s
                .held
                .iter()
                .zip(&lam)
                .filter(|(_, l)| l.sign() == Sign::Negative)
                .map(|(&j, _)| j)
                .collect();
            if pulling.is_empty() {
                break;
            }
            for &j in &pulling {
                rests.push(Rest {
                    step: k,
                    time: s.t.clone(),
                    gap: j,
                    held: false,
                });
            }
            s.held.retain(|j| !pulling.contains(j));
        }
        Ok(())
    }

    /// ⟨u_i, p⟩_g = ∇φ_i(q)·M(q)⁻¹pᵀ, the normal rate of gap i.
    fn rate(&self, i: usize, q: &[S], p: &[S]) -> Result<S, LawError> {
        let u = self.levels.normal(i, q)?;
        let v = self.levels.velocity(q, p)?;
        Ok(crate::linalg::dot(u.iter(), v.iter()))
    }

    fn node(&self, step: usize, s: &State<S>) -> Result<Node<S>, LawError> {
        Ok(Node {
            step,
            t: s.t.clone(),
            q: s.q.clone(),
            p: s.p.clone(),
            energy: self.levels.energy(&s.q, &s.p)?,
        })
    }

    /// Runs `steps` steps from (q₀, p₀).
    pub fn run(&self, q0: &[S], p0: &[S], steps: usize) -> Run<S> {
        let mut run = Run {
            nodes: Vec::new(),
            impacts: Vec::new(),
            rests: Vec::new(),
            stopped: None,
        };
        if let Err(e) = self.run_into(&mut run, q0, p0, steps) {
            run.stopped = Some(match e {
                LawError::Domain(m) if m.contains("use --arith") => Stopped::Field(m),
                e => Stopped::Law(e),
            });
        }
        run
    }

    fn run_into(&self, run: &mut Run<S>, q0: &[S], p0: &[S], steps: usize) -> Result<(), LawError> {
        let mut s = State {
            t: self.h.zero_like(),
            q: q0.to_vec(),
            p: p0.to_vec(),
            held: Vec::new(),
        };
        let rounded = q0[0].enclosure().is_none();
        for i in 0..self.gaps() {
            if decide(&self.levels.gap(i, q0)?, &format!("gap {}", self.name(i)))? == Sign::Negative
            {
                return Err(LawError::Domain(format!(
                    "gap {} is negative at the initial configuration",
                    self.name(i)
                )));
            }
        }
        run.nodes.push(self.node(0, &s)?);
        let mut last: Vec<Option<S>> = vec![None; self.gaps()];
        // gaps closed by the last impact, skipped until the next node
        let mut just: Vec<usize> = Vec::new();
        // gaps a plastic impact left closed at the last impact (rest detection)
        let mut resting: Vec<usize> = Vec::new();
        for k in 0..steps {
            let end = s.t.add_r(&self.h);
            let mut rem = self.h.clone();
            let mut count = 0;
            loop {
                self.release(&mut s, &rem, k, &mut run.rests)?;
                let skip: Vec<usize> = just.iter().chain(&s.held).copied().collect();
                match self.next(&s, &rem, &skip)? {
                    Next::Flow(q, p) => {
                        (s.q, s.p) = (q, p);
                        break;
                    }
                    Next::Impact(tau, who, q, p) => {
                        let immediate = decide(&tau, "τ")? == Sign::Zero;
                        if immediate && !rounded {
                            if let Some(&i) = who.iter().find(|i| resting.contains(i)) {
                                return Err(LawError::Domain(format!(
                                    "contact {} comes to rest at t = {} (a plastic impact left it closed and it closes again at once); resting contacts of a [lagrangian] system are held on f64 and mpfr:BITS only",
                                    self.name(i),
                                    s.t.render().value
                                )));
                            }
                        }
                        s.t = s.t.add_r(&tau);
                        (s.q, s.p) = (q, p);
                        let impact = self.impact(k, &s, &who, &mut last)?;
                        resting = impact.tangent.clone();
                        just = impact.active.clone();
                        if rounded {
                            // a contact a plastic impact leaves closed is held; the next
                            // release check lets it go at once if its force pulls
                            for &j in &impact.tangent {
                                if !s.held.contains(&j) {
                                    s.held.push(j);
                                    run.rests.push(Rest {
                                        step: k,
                                        time: s.t.clone(),
                                        gap: j,
                                        held: true,
                                    });
                                }
                            }
                            just.retain(|j| !s.held.contains(j));
                        }
                        s.p = impact.after.clone();
                        run.impacts.push(impact);
                        count += 1;
                        if count > MAX_IMPACTS_PER_STEP {
                            return Err(LawError::Domain(format!(
                                "more than {MAX_IMPACTS_PER_STEP} impacts inside step {k}"
                            )));
                        }
                        rem = end.sub_r(&s.t);
                        if decide(&rem, "t_{k+1} − t*")? != Sign::Positive {
                            break;
                        }
                    }
                }
            }
            s.t = end;
            just.clear();
            if S::kind() == Kind::Float && !s.q.iter().chain(&s.p).all(|x| x.to_f64().is_finite()) {
                return Err(LawError::Domain(format!(
                    "a value of the run overflows {} (a smaller --dt may help)",
                    S::NAME
                )));
            }
            run.nodes.push(self.node(k + 1, &s)?);
        }
        Ok(())
    }

    /// Whether gap i counts as closed at (q, p): not positive (decided on enclosures),
    /// and, for a gap that was not positive at the start of the search, approaching.
    fn closed(&self, i: usize, q: &[S], p: &[S], started_open: bool) -> Result<bool, LawError> {
        let g = self.levels.gap(i, q)?;
        if S::kind() == Kind::Float && !g.to_f64().is_finite() {
            return Err(LawError::Domain(format!(
                "gap {} overflows (a smaller --dt may help)",
                self.name(i)
            )));
        }
        if g.sign() == Sign::Positive {
            return Ok(false);
        }
        if started_open {
            return Ok(true);
        }
        Ok(self.rate(i, q, p)?.sign() == Sign::Negative)
    }

    /// Whether open gap i joins an impact at (q, p) under `--together`: its gap is at
    /// most the tolerance and it approaches (both decided on enclosures).
    fn joins(&self, i: usize, q: &[S], p: &[S]) -> Result<bool, LawError> {
        let Some(tol) = &self.together else {
            return Ok(false);
        };
        let g = self.levels.gap(i, q)?;
        let what = format!("gap {} − the --together tolerance", self.name(i));
        if decide(&g.sub_r(tol), &what)? == Sign::Positive {
            return Ok(false);
        }
        Ok(decide(&self.rate(i, q, p)?, "⟨u, p⟩_g")? == Sign::Negative)
    }

    /// The next event from `s` within `rem`; `just`: gaps closed by the impact at `s`.
    fn next(&self, s: &State<S>, rem: &S, just: &[usize]) -> Result<Next<S>, LawError> {
        let watched: Vec<usize> = (0..self.gaps()).filter(|i| !just.contains(i)).collect();
        // contacts closed and approaching now: an impact at τ = 0
        let mut now = Vec::new();
        let mut open = Vec::new();
        for &i in &watched {
            let g = self.levels.gap(i, &s.q)?;
            let sg = if S::kind() == Kind::Float {
                g.sign()
            } else {
                decide(&g, &format!("gap {}", self.name(i)))?
            };
            if sg == Sign::Positive {
                open.push(true);
                continue;
            }
            open.push(false);
            if decide(&self.rate(i, &s.q, &s.p)?, "⟨u, p⟩_g")? == Sign::Negative {
                now.push(i);
            }
        }
        if !now.is_empty() {
            return Ok(Next::Impact(rem.zero_like(), now, s.q.clone(), s.p.clone()));
        }
        if s.q[0].enclosure().is_some() {
            return self.next_certified(s, rem, &watched);
        }
        let (q1, p1) = self.flow(s, rem)?;
        let mut any = false;
        for (j, &i) in watched.iter().enumerate() {
            any |= self.closed(i, &q1, &p1, open[j])?;
        }
        if !any {
            return Ok(Next::Flow(q1, p1));
        }
        // bisection on the step length: lo has every watched gap open, hi has one closed
        let bits = self.levels.bits;
        let (mut lo, mut hi) = (rem.zero_like(), rem.clone());
        let (mut qh, mut ph) = (q1, p1);
        for _ in 0..bits + 2 {
            let mid = lo.add_r(&hi).mul_r(&self.levels.half);
            if mid.sub_r(&lo).sign() != Sign::Positive || hi.sub_r(&mid).sign() != Sign::Positive {
                break;
            }
            let (qm, pm) = self.flow(s, &mid)?;
            let mut closed = false;
            for (j, &i) in watched.iter().enumerate() {
                closed |= self.closed(i, &qm, &pm, open[j])?;
            }
            if closed {
                (hi, qh, ph) = (mid, qm, pm);
            } else {
                lo = mid;
            }
        }
        let mut who = Vec::new();
        for (j, &i) in watched.iter().enumerate() {
            if self.closed(i, &qh, &ph, open[j])? || self.joins(i, &qh, &ph)? {
                who.push(i);
            }
        }
        Ok(Next::Impact(hi, who, qh, ph))
    }

    /// The certified next event: boxes of step lengths, left to right.
    fn next_certified(
        &self,
        s: &State<S>,
        rem: &S,
        watched: &[usize],
    ) -> Result<Next<S>, LawError> {
        if watched.is_empty() {
            let (q, p) = self.flow(s, rem)?;
            return Ok(Next::Flow(q, p));
        }
        let zero = rem.zero_like();
        // a box of lengths over which the step is not enclosed (the Krawczyk test fails
        // on a wide box) is not known positive: it is bisected
        let positive_on = |span: &S| -> Result<Option<Vector<S>>, LawError> {
            let q = match self.flow(s, span) {
                Ok((q, _)) => q,
                Err(LawError::Undecided { .. }) => return Ok(None),
                Err(e) => return Err(e),
            };
            for &i in watched {
                if self.levels.gap(i, &q)?.sign() != Sign::Positive {
                    return Ok(None);
                }
            }
            Ok(Some(q))
        };
        let whole = zero.hull_with(rem).unwrap_or_else(|| rem.clone());
        if positive_on(&whole)?.is_some() {
            let (q, p) = self.flow(s, rem)?;
            return Ok(Next::Flow(q, p));
        }
        // Every box left of the one popped has every gap positive (decided), so a gap
        // negative (decided) at a box's right end closes first inside that box.
        let closes_at = |hi: &S| -> Result<bool, LawError> {
            let (q, _) = self.flow(s, hi)?;
            for &i in watched {
                if self.levels.gap(i, &q)?.sign() == Sign::Negative {
                    return Ok(true);
                }
            }
            Ok(false)
        };
        let mut found: Option<(S, S)> = None;
        let mut deep = false;
        let mut stack = vec![(zero, rem.clone(), 0usize)];
        let mut boxes = 0usize;
        while let Some((lo, hi, depth)) = stack.pop() {
            boxes += 1;
            if boxes > MAX_BOXES {
                return Err(LawError::Undecided {
                    quantity: format!(
                        "whether a gap closes within the step (the search needed more than {MAX_BOXES} boxes of step lengths; a smaller --dt helps)"
                    ),
                    lo: format!("{:e}", lo.to_f64()),
                    hi: format!("{:e}", hi.to_f64()),
                });
            }
            let span = lo.hull_with(&hi).unwrap_or_else(|| hi.clone());
            if positive_on(&span)?.is_some() {
                continue;
            }
            if closes_at(&hi)? {
                found = Some((lo.clone(), hi.clone()));
            }
            let mid = lo.add_r(&hi).mul_r(&self.levels.half);
            let splits =
                mid.sub_r(&lo).sign() == Sign::Positive && hi.sub_r(&mid).sign() == Sign::Positive;
            if depth >= BOX_DEPTH || !splits {
                deep = true;
                break;
            }
            stack.push((mid.clone(), hi, depth + 1));
            stack.push((lo, mid, depth + 1));
        }
        let Some((lo, hi)) = found else {
            if stack.is_empty() && !deep {
                let (q, p) = self.flow(s, rem)?;
                return Ok(Next::Flow(q, p));
            }
            // the step itself may be what is not enclosed
            self.flow(s, rem)?;
            return Err(LawError::Undecided {
                quantity: "whether a gap closes within the step (grazing)".into(),
                lo: "0".into(),
                hi: format!("{:e}", rem.to_f64()),
            });
        };
        let span = lo.hull_with(&hi).unwrap_or_else(|| hi.clone());
        let (q, p) = self.flow(s, &span)?;
        let (qh, _) = self.flow(s, &hi)?;
        let mut who = Vec::new();
        for &i in watched {
            if self.levels.gap(i, &q)?.sign() == Sign::Positive {
                if self.joins(i, &q, &p)? {
                    who.push(i);
                }
                continue;
            }
            if self.levels.gap(i, &qh)?.sign() != Sign::Negative {
                return Err(LawError::Undecided {
                    quantity: format!(
                        "whether gap {} closes at the impact time (grazing, or closing within the enclosure of another gap's impact time)",
                        self.name(i)
                    ),
                    lo: format!("{:e}", lo.to_f64()),
                    hi: format!("{:e}", hi.to_f64()),
                });
            }
            who.push(i);
        }
        Ok(Next::Impact(span, who, q, p))
    }

    /// The impact at `s` (momentum p*⁻) of the contacts `who`.
    fn impact(
        &self,
        step: usize,
        s: &State<S>,
        who: &[usize],
        last: &mut [Option<S>],
    ) -> Result<Impact<S>, LawError> {
        let active = who.to_vec();
        let mut zeno = false;
        for &i in &active {
            if let Some(prev) = &last[i] {
                if decide(&s.t.sub_r(prev).sub_r(&self.h), "t* − t_prev − h")? == Sign::Negative
                {
                    zeno = true;
                }
            }
            last[i] = Some(s.t.clone());
        }
        let mass = self.levels.mass(&s.q)?;
        let normals = active
            .iter()
            .map(|&i| self.levels.normal(i, &s.q))
            .collect::<Result<Vec<_>, _>>()?;
        let c = Contacts::new(mass, normals)?;
        let p = &s.p;
        let (sequence, after, resolution, tangent) =
            resolve(&c, p, &self.law, zeno, self.order, &active)?;
        Ok(Impact {
            step,
            time: s.t.clone(),
            q: s.q.clone(),
            sequence: sequence.iter().map(|&j| active[j]).collect(),
            active,
            tangent,
            resolution,
            energy_before: self.levels.energy(&s.q, p)?,
            energy_after: self.levels.energy(&s.q, &after)?,
            before: p.to_vec(),
            after,
        })
    }
}
