//! The penny on the table: Clark & Bloch, Sect. VI — the flow (26) between impacts, the
//! first time an end of the penny reaches the boundary (front (27) or back (34)), and the
//! impact map (elastic (15) or plastic (18)) there, repeated.
//!
//! **Event location.** An impact time is a root of g(t) = h(end(flow(t))), a
//! trigonometric function of t. How it is found depends on the arithmetic:
//!
//! * enclosures (`interval`, `mpi:BITS`): **certified root isolation**. The horizon is
//!   one period 2π/|ω| of (x, y, φ) (no root there: no root ever), or, for ω = 0, the time
//!   to cross the table's bounding box. Pieces [a, b] of it are evaluated rigorously
//!   (the flow at the time interval [a, b] itself) and discarded when g < 0 on the whole
//!   piece, or when g is monotone on it (g′ < 0, or g′ > 0 with g(b) < 0) and g ≤ 0 at
//!   its left end — g(0) = 0 holds by construction for the end that just hit; otherwise
//!   they are bisected, earliest first. The first root is bracketed by g(a) < 0 < g(b)
//!   with g′ > 0 on [a, b] (so it is unique there) and then bisected until the enclosure
//!   cannot be narrowed. A piece that stays undecided (a grazing end) is reported, never
//!   guessed.
//! * rounded (`f64`, `mpfr:BITS`): what a plain simulator does — g sampled at 4096 points
//!   of the horizon, the first sign change bisected; no guarantee.
//! * exact (`exact`, `quadratic`): where the impact is algebraic. On a circular table the
//!   end moves so that |end|² is affine in (cos ωt, sin ωt) (the two rotating parts are
//!   g-orthogonal and of equal length), so the first impact is a point of the unit circle
//!   in Q(√D); for ω = 0 the impact time solves a quadratic. The run then stops: the next
//!   impact would need a second square root over Q(√D).

use super::penny::{Boundary, End, Heading, Penny, PennyState};
use crate::arith::dual::Dual;
use crate::arith::{ArithError, Kind, MpInterval, Num, Scalar, Sign};
use crate::law::{decide, LawError};
use num_rational::BigRational;
use num_traits::Zero;

/// The impact map applied at each impact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RunLaw {
    /// The elastic nonholonomic map (15).
    Elastic,
    /// The plastic nonholonomic map π_Δ ∘ P (18).
    Plastic,
}

/// One impact of a run.
#[derive(Clone, Debug)]
pub struct Impact<S> {
    /// The time since the start (an enclosure on exact backends when it is not algebraic).
    pub time: Num,
    /// The same, as a double (for figures).
    pub time_f64: f64,
    pub end: End,
    /// The end's point on the boundary.
    pub point: (S, S),
    /// The state at the impact, with the rates before it. On exact backends θ is not
    /// representable when the time is not: `theta` then holds θ₀ and `theta_num` the
    /// enclosure.
    pub before: PennyState<S>,
    pub theta_num: Num,
    /// The state just after (rates after).
    pub after: PennyState<S>,
    /// q̇⁻ and q̇⁺.
    pub qdot: (Vec<S>, Vec<S>),
    /// Energy before and after.
    pub energy: (S, S),
    /// dH(q̇⁻) > 0 and dH(q̇⁺).
    pub normal_rate: (S, S),
    /// Enclosure runs (Lohner's method): ‖A‖∞ of the product of the impact-to-impact
    /// Jacobians since the first impact, w = (β, φ, θ̇, φ̇) — how much a perturbation of
    /// the state after the first impact has grown (Sect. VI-B's question, measured).
    pub sensitivity: Option<f64>,
}

/// Why a run ended.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Stop {
    /// The requested number of impacts.
    Done,
    /// No end reaches the boundary again (decided over a whole period of the motion).
    NoFurtherImpact { reason: String },
    /// The post-impact velocity does not leave the boundary (dH(q̇⁺) ≥ 0).
    Inadmissible { reason: String },
    /// A sign or an ordering the arithmetic could not decide.
    Undecided { reason: String },
    /// Exact backends: the next impact is not representable.
    NotAlgebraic { reason: String },
}

/// A run on the table.
#[derive(Clone, Debug)]
pub struct Run<S> {
    pub start: PennyState<S>,
    pub impacts: Vec<Impact<S>>,
    pub stop: Stop,
}

/// The run's data.
#[derive(Clone, Debug)]
pub struct Table<S> {
    pub penny: Penny<S>,
    pub boundary: Boundary<S>,
    pub law: RunLaw,
}

/// The next event of a flight.
enum Event<S> {
    /// An end reaches the boundary after `t` (relative), `t_num` as reported.
    At {
        t: Option<S>,
        t_num: Num,
        t_f64: f64,
        end: End,
        exact: Option<ExactPoint<S>>,
    },
    Never(String),
}

/// An algebraic impact: the point (cos u, sin u), u = ωt, or the time t itself (ω = 0).
struct ExactPoint<S> {
    cos_u: S,
    sin_u: S,
}

/// An ordering or a root the arithmetic cannot decide (reported as a stop).
fn not_decided(what: impl std::fmt::Display) -> LawError {
    LawError::Domain(format!("undecided: {what}"))
}

/// The event of `end` after the time `t`.
/// A square root behind an impact point that the backend cannot represent, named as
/// such (its radicand, a long expression, is left out; the hint says what to do).
fn impact_root(e: ArithError, end: End) -> LawError {
    LawError::Arith(match e {
        ArithError::NotRepresentable { backend, hint, .. } => ArithError::NotRepresentable {
            what: format!(
                "the {} end's next impact point (a square root of its discriminant)",
                end.name()
            ),
            backend,
            hint,
        },
        other => other,
    })
}

fn event_at<S: Scalar>(t: S, end: End) -> Event<S> {
    Event::At {
        t_num: t.num(),
        t_f64: t.to_f64(),
        t: Some(t),
        end,
        exact: None,
    }
}

fn undecided(e: LawError) -> Result<Stop, LawError> {
    match e {
        LawError::Undecided { .. } => Ok(Stop::Undecided {
            reason: e.to_string(),
        }),
        LawError::Domain(m) if m.starts_with("undecided: ") => Ok(Stop::Undecided {
            reason: m["undecided: ".len()..].to_string(),
        }),
        LawError::Arith(crate::arith::ArithError::NotRepresentable { .. }) => {
            Ok(Stop::NotAlgebraic {
                reason: e.to_string(),
            })
        }
        other => Err(other),
    }
}

const ENDS: [End; 2] = [End::Front, End::Back];

/// Deepest bisection of the horizon (2⁻⁹⁶ of it).
const MAX_DEPTH: u32 = 96;

impl<S: Scalar> Table<S> {
    /// g(t) = h(end(flow(s, t))) and g′(t) (t may be an enclosure of a whole interval).
    fn gap(&self, s: &PennyState<S>, end: End, t: &S) -> Result<(S, S), LawError> {
        let st = self.penny.flow(s, t)?;
        self.gap_at(&st, end)
    }

    /// g and g′ at a state: g′ = ∇h · d/dt end, d/dt end = (RΩ cos φ − σRω sin φ,
    /// RΩ sin φ + σRω cos φ).
    fn gap_at(&self, st: &PennyState<S>, end: End) -> Result<(S, S), LawError> {
        let (ex, ey) = self.penny.end_point(&st.x, &st.y, &st.heading, end);
        let g = self.boundary.h(&ex, &ey)?;
        let (hx, hy) = self.boundary.gradient(&ex, &ey)?;
        let r = &self.penny.radius;
        let (c, sn) = (&st.heading.cos, &st.heading.sin);
        let roll = r.mul_r(&st.thetadot);
        let spin = r.lift_i64(end.sigma()).mul_r(r).mul_r(&st.phidot);
        let vx = roll.mul_r(c) - &spin.mul_r(sn);
        let vy = roll.mul_r(sn) + &spin.mul_r(c);
        Ok((g, hx.mul_r(&vx) + &hy.mul_r(&vy)))
    }

    /// A rational upper bound of the horizon: one period 2π/|ω|, or for ω = 0 the time
    /// to cross the bounding box of the table (4·max(a, b) + 4R)/|RΩ|. `None`: at rest.
    fn horizon(&self, s: &PennyState<S>) -> Result<Option<BigRational>, LawError> {
        // rounded backends: the value itself, widened by a thousandth
        let upper = |x: &S| -> Result<BigRational, LawError> {
            x.rational_bounds()
                .map(|b| b.1)
                .or_else(|| {
                    BigRational::from_float(x.to_f64() * 1.001).map(|q| q.max(BigRational::zero()))
                })
                .ok_or_else(|| LawError::Domain("no rational bound of the horizon".into()))
        };
        if decide(&s.phidot, "phidot")? != Sign::Zero {
            let two_pi = S::pi(&s.phidot.ctx())?.mul_r(&s.phidot.lift_i64(2));
            let w = s.phidot.mul_r(&s.phidot).sqrt()?;
            return Ok(Some(upper(&two_pi.checked_div(&w)?)?));
        }
        if decide(&s.thetadot, "thetadot")? == Sign::Zero {
            return Ok(None);
        }
        let size = match &self.boundary {
            Boundary::Ellipse { a, b } => {
                let m = if (a.clone() - b).sign() == Sign::Negative {
                    b
                } else {
                    a
                };
                m.lift_i64(4).mul_r(m)
            }
            Boundary::Line { .. } => {
                return Err(LawError::Domain("a run needs a closed table".into()))
            }
        };
        let r = &self.penny.radius;
        let speed = r.mul_r(&s.thetadot).square().sqrt()?;
        Ok(Some(upper(
            &(size + &r.lift_i64(4).mul_r(r)).checked_div(&speed)?,
        )?))
    }

    fn at(&self, like: &S, t: &BigRational) -> S {
        like.lift(t)
    }

    /// Certified first root of g for `end` in (0, horizon]: `Some([a, b])` with the root
    /// inside, `None` if there is none.
    fn first_root_certified(
        &self,
        s: &PennyState<S>,
        end: End,
        horizon: &BigRational,
        on_boundary: bool,
    ) -> Result<Option<(BigRational, BigRational)>, LawError> {
        let zero = BigRational::zero();
        let mut stack = vec![(horizon.clone(), zero.clone(), 0u32)];
        // pieces are pushed right half first, so the earliest is examined first
        let mut work = 0usize;
        while let Some((hi, lo, depth)) = stack.pop() {
            work += 1;
            if work > 200_000 {
                return Err(self.grazing(end, &lo, &hi));
            }
            let like = &s.phidot;
            let t = self
                .at(like, &lo)
                .hull_with(&self.at(like, &hi))
                .ok_or_else(|| LawError::Domain("not an enclosure backend".into()))?;
            let (g, gd) = self.gap(s, end, &t)?;
            if g.sign() == Sign::Negative {
                continue;
            }
            let start_ok = |lo: &BigRational| -> Result<bool, LawError> {
                if on_boundary && lo.is_zero() {
                    return Ok(true);
                }
                Ok(self.gap(s, end, &self.at(like, lo))?.0.sign() == Sign::Negative)
            };
            match gd.sign() {
                Sign::Negative if start_ok(&lo)? => continue,
                Sign::Positive => {
                    let g_hi = self.gap(s, end, &self.at(like, &hi))?.0.sign();
                    if g_hi == Sign::Negative {
                        continue;
                    }
                    if g_hi == Sign::Positive && start_ok(&lo)? {
                        if on_boundary && lo.is_zero() {
                            return Err(LawError::Domain(format!(
                                "the {} end re-enters the boundary right after the impact",
                                end.name()
                            )));
                        }
                        return Ok(Some(self.refine(s, end, lo, hi)?));
                    }
                }
                _ => {}
            }
            if depth >= MAX_DEPTH {
                return Err(self.grazing(end, &lo, &hi));
            }
            // split a little off the middle, so that a root at a simple fraction of the
            // horizon does not sit on the split point forever
            let mid = &lo + (&hi - &lo) * BigRational::new(33.into(), 64.into());
            stack.push((hi, mid.clone(), depth + 1));
            stack.push((mid, lo, depth + 1));
        }
        Ok(None)
    }

    fn grazing(&self, end: End, lo: &BigRational, hi: &BigRational) -> LawError {
        let f = |q: &BigRational| num_traits::ToPrimitive::to_f64(q).unwrap_or(f64::NAN);
        not_decided(format!(
            "the gap of the {} end within t in [{:.17e}, {:.17e}] after the last impact (a grazing contact?); a finer mpi:BITS may decide it",
            end.name(),
            f(lo),
            f(hi)
        ))
    }

    /// Bisects a bracket g(a) < 0 < g(b), g′ > 0, until g's sign at the midpoint is
    /// undecided or 400 halvings.
    fn refine(
        &self,
        s: &PennyState<S>,
        end: End,
        mut lo: BigRational,
        mut hi: BigRational,
    ) -> Result<(BigRational, BigRational), LawError> {
        let two = BigRational::from_integer(2.into());
        for _ in 0..400 {
            let mid = (&lo + &hi) / &two;
            match self.gap(s, end, &self.at(&s.phidot, &mid))?.0.sign() {
                Sign::Negative => lo = mid,
                Sign::Positive => hi = mid,
                Sign::Zero => return Ok((mid.clone(), mid)),
                Sign::Unknown => break,
            }
        }
        Ok((lo, hi))
    }

    /// Rounded arithmetic: the first sign change of g among 4096 samples of the horizon
    /// (from the one sample past 0, so that the end that just hit is not found again),
    /// bisected in the backend's own arithmetic; no guarantee.
    fn first_root_sampled(
        &self,
        s: &PennyState<S>,
        end: End,
        horizon: &S,
    ) -> Result<Option<S>, LawError> {
        let n = 4096i64;
        let step = horizon.checked_div(&horizon.lift_i64(n))?;
        let two = horizon.lift_i64(2);
        let mut prev = horizon.zero_like();
        for k in 1..=n {
            let t = step.mul_r(&horizon.lift_i64(k));
            let g = self.gap(s, end, &t)?.0;
            if g.to_f64() >= 0.0 {
                let (mut lo, mut hi) = (prev, t);
                for _ in 0..400 {
                    let mid = (lo.clone() + &hi).checked_div(&two)?;
                    if mid.to_f64() == lo.to_f64() && S::NAME == "f64" {
                        break;
                    }
                    if self.gap(s, end, &mid)?.0.to_f64() >= 0.0 {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                return Ok(Some((lo + &hi).checked_div(&two)?));
            }
            prev = t;
        }
        Ok(None)
    }

    /// Rounded arithmetic: the earlier of the two ends' sampled impacts.
    fn next_event_sampled(
        &self,
        s: &PennyState<S>,
        horizon: &BigRational,
    ) -> Result<Event<S>, LawError> {
        let mut h = s.phidot.lift(horizon);
        let mut best: Option<(S, End)> = None;
        for end in ENDS {
            if let Some(t) = self.first_root_sampled(s, end, &h)? {
                h = t.clone();
                best = Some((t, end));
            }
        }
        Ok(match best {
            None => Event::Never(
                "no end reaches the boundary within a whole period of the motion (sampled)".into(),
            ),
            Some((t, end)) => event_at(t, end),
        })
    }

    /// The next impact of a flight from `s` (`on_boundary`: the end that just hit).
    fn next_event(
        &self,
        s: &PennyState<S>,
        on_boundary: Option<End>,
    ) -> Result<Event<S>, LawError> {
        if S::kind() == Kind::Exact {
            return self.next_event_exact(s, on_boundary);
        }
        let Some(horizon) = self.horizon(s)? else {
            return Ok(Event::Never("the penny is at rest".into()));
        };
        if S::kind() == Kind::Float {
            return self.next_event_sampled(s, &horizon);
        }
        let mut found: Vec<(BigRational, BigRational, End)> = Vec::new();
        let mut horizon = horizon;
        for end in ENDS {
            let r = self.first_root_certified(s, end, &horizon, on_boundary == Some(end))?;
            if let Some((a, b)) = r {
                // the other end matters only up to this impact
                horizon = b.clone();
                found.push((a, b, end));
            }
        }
        found.sort_by(|x, y| x.0.cmp(&y.0));
        let Some((a, b, end)) = found.first().cloned() else {
            return Ok(Event::Never(
                "no end reaches the boundary within a whole period of the motion".into(),
            ));
        };
        if let Some((a2, _, _)) = found.get(1) {
            if *a2 <= b {
                return Err(not_decided("which end reaches the boundary first"));
            }
        }
        let like = &s.phidot;
        let t = self
            .at(like, &a)
            .hull_with(&self.at(like, &b))
            .expect("an enclosure backend");
        Ok(event_at(t, end))
    }

    /// Exact backends: the first impact where it is algebraic (a circular table, or a
    /// straight flight).
    fn next_event_exact(
        &self,
        s: &PennyState<S>,
        _on_boundary: Option<End>,
    ) -> Result<Event<S>, LawError> {
        let Boundary::Ellipse { a, b } = &self.boundary else {
            return Err(LawError::Domain("a run needs a closed table".into()));
        };
        if decide(&(a.clone() - b), "a - b")? != Sign::Zero {
            return Err(LawError::Arith(
                crate::arith::ArithError::NotRepresentable {
                    what: "the impact on an elliptical table (a root of a quartic)".into(),
                    backend: S::NAME,
                    hint: "use --arith mpi:BITS".into(),
                },
            ));
        }
        let r2 = a.square();
        if decide(&s.phidot, "phidot")? == Sign::Zero {
            return self.straight_exact(s, &r2);
        }
        let mut best: Option<(MpInterval, End, S, S)> = None;
        for end in ENDS {
            let Some((cu, su)) = self.circle_point(s, end, &r2)? else {
                continue;
            };
            let t = angle_time(&cu, &su, &s.phidot)?;
            match &best {
                Some((t0, ..)) if t.hi() >= t0.lo() => {
                    if t0.hi() >= t.lo() {
                        return Err(not_decided("which end reaches the boundary first"));
                    }
                }
                _ => best = Some((t, end, cu, su)),
            }
        }
        Ok(match best {
            None => Event::Never("the path of the ends does not reach the circle".into()),
            Some((t, end, cos_u, sin_u)) => Event::At {
                t_num: t.num(),
                t_f64: t.to_f64(),
                t: None,
                end,
                exact: Some(ExactPoint { cos_u, sin_u }),
            },
        })
    }

    /// The end's point is P + A cos u + B sin u with B = A turned by a right angle, so
    /// |end|² = r² is p cos u + q sin u = w; of its two points on the unit circle the
    /// first reached is the one where the end moves outward (ω(q cos u − p sin u) > 0).
    fn circle_point(
        &self,
        s: &PennyState<S>,
        end: End,
        r2: &S,
    ) -> Result<Option<(S, S)>, LawError> {
        let pn = &self.penny;
        let (c0, s0) = (&s.heading.cos, &s.heading.sin);
        let k = pn.radius.mul_r(&s.thetadot).checked_div(&s.phidot)?;
        let sr = pn.radius.lift_i64(end.sigma()).mul_r(&pn.radius);
        let px = s.x.clone() - &k.mul_r(s0);
        let py = s.y.clone() + &k.mul_r(c0);
        let ax = k.mul_r(s0) + &sr.mul_r(c0);
        let ay = sr.mul_r(s0) - &k.mul_r(c0);
        let (bx, by) = (-ay.clone(), ax.clone());
        let two = k.lift_i64(2);
        let p = two.mul_r(&(px.mul_r(&ax) + &py.mul_r(&ay)));
        let q = two.mul_r(&(px.mul_r(&bx) + &py.mul_r(&by)));
        let w = r2.clone() - &px.square() - &py.square() - &ax.square() - &ay.square();
        let n = p.square() + &q.square();
        let d = n.clone() - &w.square();
        match decide(&d, "the discriminant of the impact point")? {
            Sign::Negative => return Ok(None),
            Sign::Zero => {
                return Err(not_decided(format!(
                    "a grazing {} end (zero discriminant)",
                    end.name()
                )))
            }
            _ => {}
        }
        let root = d.sqrt().map_err(|e| impact_root(e, end))?;
        for sign in [1i64, -1] {
            let sq = root.lift_i64(sign).mul_r(&root);
            let cu = (p.mul_r(&w) - &q.mul_r(&sq)).checked_div(&n)?;
            let su = (q.mul_r(&w) + &p.mul_r(&sq)).checked_div(&n)?;
            let outward = (q.mul_r(&cu) - &p.mul_r(&su)).mul_r(&s.phidot);
            if decide(&outward, "the direction of the end at the impact point")? == Sign::Positive {
                return Ok(Some((cu, su)));
            }
        }
        Ok(None)
    }

    /// φ̇ = 0: the ends move on straight lines E + tV, |E + tV|² = r² has one positive
    /// root t = (−E·V + √((E·V)² − |V|²(|E|² − r²)))/|V|² for an end inside.
    fn straight_exact(&self, s: &PennyState<S>, r2: &S) -> Result<Event<S>, LawError> {
        let pn = &self.penny;
        let v = pn.rolling(&s.heading, &s.thetadot, &s.phidot);
        let vv = v[0].square() + &v[1].square();
        if decide(&vv, "the speed")? == Sign::Zero {
            return Ok(Event::Never("the penny is at rest".into()));
        }
        let mut best: Option<(S, End)> = None;
        for end in ENDS {
            let (ex, ey) = pn.end_point(&s.x, &s.y, &s.heading, end);
            let ev = ex.mul_r(&v[0]) + &ey.mul_r(&v[1]);
            let c = ex.square() + &ey.square() - r2;
            let disc = ev.square() - &vv.mul_r(&c);
            let t = (disc.sqrt().map_err(|e| impact_root(e, end))? - &ev).checked_div(&vv)?;
            if decide(&t, "the impact time")? != Sign::Positive {
                continue;
            }
            best = match best {
                Some((t0, e0)) => match decide(&(t.clone() - &t0), "t_back - t_front")? {
                    Sign::Negative => Some((t, end)),
                    Sign::Zero => {
                        return Err(LawError::Domain(
                            "both ends reach the boundary at once".into(),
                        ))
                    }
                    _ => Some((t0, e0)),
                },
                None => Some((t, end)),
            };
        }
        Ok(match best {
            None => Event::Never("no end reaches the boundary".into()),
            Some((t, end)) => event_at(t, end),
        })
    }

    /// The state at an event.
    fn state_at(&self, s: &PennyState<S>, ev: &Event<S>) -> Result<PennyState<S>, LawError> {
        match ev {
            Event::At { exact: Some(p), .. } => {
                // θ is not representable (the time is not); it is reported apart
                let mut st = self.penny.flow_by(
                    s,
                    &s.phidot.zero_like(),
                    &p.cos_u,
                    &p.sin_u,
                    &(p.cos_u.one_like() - &p.cos_u),
                )?;
                st.theta = s.theta.clone();
                Ok(st)
            }
            Event::At { t: Some(t), .. } => {
                if S::kind() == Kind::Exact {
                    // straight flight: cos u = 1, sin u = 0
                    let one = t.one_like();
                    self.penny
                        .flow_by(s, t, &one, &t.zero_like(), &t.zero_like())
                } else {
                    self.penny.flow(s, t)
                }
            }
            _ => Err(LawError::Domain("no event".into())),
        }
    }

    /// The impact after the flight from `s` to the event `ev` of `end`; `clock` is the
    /// time since the start (`None` when not representable), `t_num` the flight's time.
    fn impact_at(
        &self,
        s: &PennyState<S>,
        ev: &Event<S>,
        end: End,
        clock: &Option<S>,
        clock_f64: f64,
        t_num: &Num,
    ) -> Result<Impact<S>, LawError> {
        let st = self.state_at(s, ev)?;
        let point = self.penny.end_point(&st.x, &st.y, &st.heading, end);
        let grad = self.boundary.gradient(&point.0, &point.1)?;
        let v = self.penny.rolling(&st.heading, &st.thetadot, &st.phidot);
        let maps = self.penny.impact_maps(&st.heading, end, &grad, &v)?;
        let (after_v, k) = match self.law {
            RunLaw::Elastic => (maps.elastic.velocity.clone(), 1),
            RunLaw::Plastic => (maps.plastic.clone(), 2),
        };
        let c = &maps.conservation[k];
        let nh = self.penny.impact(&st.heading, end, &grad)?;
        let after_rate = nh.normal_rate(&after_v);
        if !c.admissible {
            return Err(LawError::Domain(format!(
                "the {} end does not leave the boundary after the impact (dH(qdot+) >= 0)",
                end.name()
            )));
        }
        let theta_num = match ev {
            // the time is an enclosure only: θ = θ₀ + Ωt enclosed apart
            Event::At { exact: Some(_), .. } => theta_enclosure(&s.theta, &s.thetadot, t_num),
            _ => st.theta.num(),
        };
        let after = PennyState {
            thetadot: after_v[2].clone(),
            phidot: after_v[3].clone(),
            ..st.clone()
        };
        Ok(Impact {
            time: match clock {
                Some(c) => c.num(),
                None => t_num.clone(),
            },
            time_f64: clock_f64,
            end,
            point,
            before: st,
            theta_num,
            after,
            qdot: (v, after_v),
            energy: c.energy.clone(),
            normal_rate: (maps.normal_rate.clone(), after_rate),
            sensitivity: None,
        })
    }

    /// Runs from `start` until `impacts` impacts or a stop.
    pub fn run(&self, start: &PennyState<S>, impacts: usize) -> Result<Run<S>, LawError> {
        self.run_until(start, impacts, f64::INFINITY)
    }

    /// [`Table::run`], stopping also after the first impact past the time `until`.
    pub fn run_until(
        &self,
        start: &PennyState<S>,
        impacts: usize,
        until: f64,
    ) -> Result<Run<S>, LawError> {
        if S::kind() == Kind::Enclosure {
            return self.run_lohner(start, impacts, until);
        }
        self.run_plain(start, impacts, until)
    }

    /// [`Table::run`] with the state carried as it is (every backend; on enclosures the
    /// widths then grow by the wrapping effect).
    pub fn run_plain(
        &self,
        start: &PennyState<S>,
        impacts: usize,
        until: f64,
    ) -> Result<Run<S>, LawError> {
        let mut out = Run {
            start: start.clone(),
            impacts: Vec::new(),
            stop: Stop::Done,
        };
        let mut s = start.clone();
        let mut clock: Option<S> = Some(s.phidot.zero_like());
        let mut clock_f64 = 0.0;
        // the time since the start, enclosed, where it is not exact (impact times at
        // exact points are enclosures)
        let mut elapsed = Some(MpInterval::from_i64(0, &256));
        let mut last: Option<End> = None;
        while out.impacts.len() < impacts {
            let ev = match self.next_event(&s, last) {
                Ok(ev) => ev,
                Err(e) => {
                    out.stop = undecided(e)?;
                    break;
                }
            };
            let (t_num, _, end) = match &ev {
                Event::Never(reason) => {
                    out.stop = Stop::NoFurtherImpact {
                        reason: reason.clone(),
                    };
                    break;
                }
                Event::At {
                    t,
                    t_num,
                    t_f64,
                    end,
                    ..
                } => {
                    let flight = match t {
                        Some(t) => t.rational_bounds(),
                        None => num_bounds(t_num),
                    };
                    elapsed = elapsed.zip(flight).and_then(|(e, (lo, hi))| {
                        let lo = MpInterval::from_rational_prec(&lo, 256);
                        let hi = MpInterval::from_rational_prec(&hi, 256);
                        Some(e + &lo.hull_with(&hi)?)
                    });
                    clock = match (clock, t) {
                        (Some(c), Some(t)) => Some(c + t),
                        _ => None,
                    };
                    clock_f64 += t_f64;
                    (t_num.clone(), *t_f64, *end)
                }
            };
            let step = self.impact_at(&s, &ev, end, &clock, clock_f64, &t_num);
            match step {
                Ok(mut imp) => {
                    if let (None, Some(e)) = (&clock, &elapsed) {
                        imp.time = e.num();
                    }
                    s = imp.after.clone();
                    let past = imp.time_f64 > until;
                    out.impacts.push(imp);
                    last = Some(end);
                    if past {
                        break;
                    }
                }
                Err(LawError::Domain(m)) if m.contains("does not leave") => {
                    out.stop = Stop::Inadmissible { reason: m };
                    break;
                }
                Err(e) => {
                    out.stop = undecided(e)?;
                    break;
                }
            }
        }
        Ok(out)
    }
}

/// A post-impact state as the vector w = (β, φ, θ̇, φ̇) of Lohner's method: the end that
/// hit is at the boundary point (a cos β, b sin β) of the ellipse (35), so the contact
/// point is that point − σR(cos φ, sin φ). (Five coordinates (x, y, φ, θ̇, φ̇) would make
/// the Jacobian singular: post-impact states lie on a 4-dimensional manifold.)
const W: usize = 4;

fn semi_axes<S: Scalar>(b: &Boundary<S>) -> Result<(&S, &S), LawError> {
    match b {
        Boundary::Ellipse { a, b } => Ok((a, b)),
        Boundary::Line { .. } => Err(LawError::Domain("a run needs a closed table".into())),
    }
}

impl<S: Scalar> Table<S> {
    /// The state of w after an impact of `end`.
    fn state_of_w(&self, w: &[S], end: End, theta: &S) -> Result<PennyState<S>, LawError> {
        let (a, b) = semi_axes(&self.boundary)?;
        let heading = Heading {
            cos: w[1].cos()?,
            sin: w[1].sin()?,
        };
        let point = (a.mul_r(&w[0].cos()?), b.mul_r(&w[0].sin()?));
        let (x, y) = self.penny.contact_point(&point, &heading, end);
        Ok(PennyState {
            x,
            y,
            theta: theta.clone(),
            heading,
            thetadot: w[2].clone(),
            phidot: w[3].clone(),
        })
    }

    /// β of a boundary point.
    fn beta(&self, p: &(S, S)) -> Result<S, LawError> {
        let (a, b) = semi_axes(&self.boundary)?;
        angle(&Heading {
            cos: p.0.checked_div(a)?,
            sin: p.1.checked_div(b)?,
        })
    }
}

/// The lower bound of an enclosure as a point (exactly representable: a thin value).
fn corner<S: Scalar>(x: &S) -> Result<S, LawError> {
    let (lo, _) = x
        .rational_bounds()
        .ok_or_else(|| LawError::Domain("an enclosure without bounds".into()))?;
    Ok(x.lift(&lo))
}

fn mat_vec<S: Scalar>(a: &[Vec<S>], v: &[S]) -> Vec<S> {
    a.iter()
        .map(|row| crate::linalg::dot(row.iter(), v.iter()))
        .collect()
}

fn mat_mat<S: Scalar>(a: &[Vec<S>], b: &[Vec<S>]) -> Vec<Vec<S>> {
    a.iter()
        .map(|row| {
            (0..b[0].len())
                .map(|j| {
                    row.iter()
                        .zip(b)
                        .fold(row[0].zero_like(), |acc, (x, brow)| {
                            acc + &x.mul_r(&brow[j])
                        })
                })
                .collect()
        })
        .collect()
}

/// An enclosure of the inverse of a point matrix (column by column).
fn inverse<S: Scalar>(a: &[Vec<S>]) -> Result<Vec<Vec<S>>, LawError> {
    let n = a.len();
    let mut cols = Vec::with_capacity(n);
    for j in 0..n {
        let e: Vec<S> = (0..n)
            .map(|i| a[0][0].lift_i64(i64::from(i == j)))
            .collect();
        cols.push(crate::linalg::solve(a.to_vec(), e)?);
    }
    Ok((0..n)
        .map(|i| (0..n).map(|j| cols[j][i].clone()).collect())
        .collect())
}

/// φ of a heading enclosure (c, s): atan(s/c) or π/2 − atan(c/s) or −π/2 − atan(c/s).
fn angle<S: Scalar>(h: &Heading<S>) -> Result<S, LawError> {
    let half_pi = S::pi(&h.cos.ctx())?.checked_div(&h.cos.lift_i64(2))?;
    Ok(match (h.cos.sign(), h.sin.sign()) {
        (Sign::Positive, _) => h.sin.checked_div(&h.cos)?.atan()?,
        (_, Sign::Positive) => half_pi - &h.cos.checked_div(&h.sin)?.atan()?,
        (_, Sign::Negative) => -half_pi - &h.cos.checked_div(&h.sin)?.atan()?,
        _ => S::pi(&h.cos.ctx())?,
    })
}

impl<S: Scalar> Table<S> {
    /// The table over `Dual<S>` (constants).
    fn dual(&self) -> Table<Dual<S>> {
        let c = |x: &S| Dual::constant(x.clone());
        Table {
            penny: self.penny.map(c),
            boundary: match &self.boundary {
                Boundary::Ellipse { a, b } => Boundary::Ellipse { a: c(a), b: c(b) },
                Boundary::Line { a, b, c: k } => Boundary::Line {
                    a: c(a),
                    b: c(b),
                    c: c(k),
                },
            },
            law: self.law,
        }
    }

    /// The impact-to-impact map w ↦ w′ from an impact of `from` to the impact of `end`
    /// after the time `t`, on any backend: w′ = (β′, φ + ωt, θ̇⁺, φ̇⁺).
    fn step_w(&self, w: &[S], from: End, t: &S, end: End) -> Result<Vec<S>, LawError> {
        let s = self.state_of_w(w, from, &w[0].zero_like())?;
        let st = self.penny.flow(&s, t)?;
        let point = self.penny.end_point(&st.x, &st.y, &st.heading, end);
        let grad = self.boundary.gradient(&point.0, &point.1)?;
        let v = self.penny.rolling(&st.heading, &st.thetadot, &st.phidot);
        let nh = self.penny.impact(&st.heading, end, &grad)?;
        let after = match self.law {
            RunLaw::Elastic => nh.elastic(&v)?.velocity,
            RunLaw::Plastic => nh.plastic(&v)?,
        };
        Ok(vec![
            self.beta(&point)?,
            w[1].clone() + &w[3].mul_r(t),
            after[2].clone(),
            after[3].clone(),
        ])
    }

    /// An enclosure of the Jacobian of w ↦ w′ over the box `w`, the impact time of every
    /// state of the box lying in `t` (certified): the time's derivative is −g_w/g_t
    /// (implicit function theorem), all evaluated over the box.
    fn jacobian(&self, w: &[S], from: End, t: &S, end: End) -> Result<Vec<Vec<S>>, LawError> {
        let d = self.dual();
        let wd: Vec<Dual<S>> = w
            .iter()
            .enumerate()
            .map(|(i, x)| Dual::var(x.clone(), i, W))
            .collect();
        let sd = d.state_of_w(&wd, from, &wd[0].zero_like())?;
        let (g, gt) = d.gap(&sd, end, &Dual::constant(t.clone()))?;
        let grad = g
            .gradient(W)
            .iter()
            .map(|gi| Ok(-gi.checked_div(&gt.value)?))
            .collect::<Result<Vec<S>, LawError>>()?;
        let td = Dual {
            value: t.clone(),
            grad,
        };
        let out = d.step_w(&wd, from, &td, end)?;
        Ok(out.iter().map(|x| x.gradient(W)).collect())
    }

    /// Lohner's method on enclosures: the set of post-impact states is carried as
    /// m + A·r (m a point, A a point matrix, r a box); each impact maps it by the mean-value
    /// form F(m) + J(X)·A·r with J(X) the Jacobian enclosed over the box X, and re-centres
    /// (m′ = a point of F(m), A′ = a point of J·A, r′ = A′⁻¹(F(m) − m′) + (A′⁻¹J A) r). The
    /// widths then grow like the true sensitivity of the motion, not like the product of
    /// the absolute values of the Jacobians (the wrapping effect of plain intervals, which
    /// loses about 3·10³ per impact on the tables of Sect. VI).
    fn run_lohner(
        &self,
        start: &PennyState<S>,
        impacts: usize,
        until: f64,
    ) -> Result<Run<S>, LawError> {
        // the first flight starts from a point: plain enclosures are tight there
        let first = self.run_plain(start, 1, until)?;
        let mut out = first.clone();
        let Some(imp1) = first.impacts.first() else {
            return Ok(out);
        };
        let phi1 = angle(&start.heading)? + &start.phidot.mul_r(&clock_of(imp1)?);
        let w1 = [
            self.beta(&imp1.point)?,
            phi1,
            imp1.after.thetadot.clone(),
            imp1.after.phidot.clone(),
        ];
        let mut m: Vec<S> = w1.iter().map(corner).collect::<Result<_, _>>()?;
        let mut a: Vec<Vec<S>> = (0..W)
            .map(|i| (0..W).map(|j| w1[0].lift_i64(i64::from(i == j))).collect())
            .collect();
        let mut r: Vec<S> = w1.iter().zip(&m).map(|(x, c)| x.clone() - c).collect();
        let mut theta = imp1.after.theta.clone();
        let mut clock = clock_of(imp1)?;
        let mut last = imp1.end;
        while out.impacts.len() < impacts && clock.to_f64() <= until {
            let wbox: Vec<S> = m
                .iter()
                .zip(mat_vec(&a, &r))
                .map(|(c, d)| c.clone() + &d)
                .collect();
            type Step<S> = (Impact<S>, Vec<S>, Vec<Vec<S>>, S);
            let step = (|| -> Result<Step<S>, LawError> {
                let sbox = self.state_of_w(&wbox, last, &theta)?;
                let ev = self.next_event(&sbox, Some(last))?;
                let Event::At {
                    t: Some(t), end, ..
                } = &ev
                else {
                    if let Event::Never(reason) = ev {
                        return Err(LawError::Domain(format!("never: {reason}")));
                    }
                    return Err(LawError::Domain("no event time".into()));
                };
                let (t, end) = (t.clone(), *end);
                let c = clock.clone() + &t;
                let cf = c.to_f64();
                let imp = self.impact_at(&sbox, &ev, end, &Some(c), cf, &t.num())?;
                // the centre's own flight and impact, F(m)
                let spt = self.state_of_w(&m, last, &theta)?;
                let (tm, end_m) = match self.next_event(&spt, Some(last))? {
                    Event::At {
                        t: Some(t), end, ..
                    } => (t, end),
                    _ => return Err(not_decided("the impact of the centre of the set")),
                };
                if end_m != end {
                    return Err(not_decided("which end hits (the set of states straddles)"));
                }
                let fm = self.step_w(&m, last, &tm, end)?;
                let j = self.jacobian(&wbox, last, &t, end)?;
                Ok((imp, fm, j, t))
            })();
            let (mut imp, fm, j, t) = match step {
                Ok(x) => x,
                Err(LawError::Domain(msg)) if msg.starts_with("never: ") => {
                    out.stop = Stop::NoFurtherImpact {
                        reason: msg["never: ".len()..].to_string(),
                    };
                    break;
                }
                Err(LawError::Domain(msg)) if msg.contains("does not leave") => {
                    out.stop = Stop::Inadmissible { reason: msg };
                    break;
                }
                Err(e) => {
                    out.stop = undecided(e)?;
                    break;
                }
            };
            // re-centre: m′ a point of F(m), A′ a point of J·A
            let b = mat_mat(&j, &a);
            let a2: Vec<Vec<S>> = b
                .iter()
                .map(|row| row.iter().map(corner).collect::<Result<_, _>>())
                .collect::<Result<_, _>>()?;
            let m2: Vec<S> = fm.iter().map(corner).collect::<Result<_, _>>()?;
            let inv = match inverse(&a2) {
                Ok(inv) => inv,
                Err(e) => {
                    out.stop = undecided(e)?;
                    break;
                }
            };
            let shift: Vec<S> = fm.iter().zip(&m2).map(|(x, c)| x.clone() - c).collect();
            let r2: Vec<S> = mat_vec(&inv, &shift)
                .into_iter()
                .zip(mat_vec(&mat_mat(&inv, &b), &r))
                .map(|(x, y)| x + &y)
                .collect();
            let wnew: Vec<S> = m2
                .iter()
                .zip(mat_vec(&a2, &r2))
                .map(|(c, d)| c.clone() + &d)
                .collect();
            theta = theta + &imp.before.thetadot.mul_r(&t);
            clock = clock + &t;
            // the tighter post-impact state of the set
            let after = self.state_of_w(&wnew, imp.end, &theta)?;
            let v = self
                .penny
                .rolling(&after.heading, &after.thetadot, &after.phidot);
            imp.energy.1 = self
                .penny
                .mass_matrix()
                .inner(&v, &v)
                .checked_div(&v[0].lift_i64(2))?;
            imp.qdot.1 = v;
            imp.point = self
                .penny
                .end_point(&after.x, &after.y, &after.heading, imp.end);
            imp.after = after;
            imp.sensitivity = Some(
                a2.iter()
                    .map(|row| row.iter().map(|x| x.to_f64().abs()).sum::<f64>())
                    .fold(0.0, f64::max),
            );
            last = imp.end;
            out.impacts.push(imp);
            m = m2;
            a = a2;
            r = r2;
        }
        Ok(out)
    }
}

/// The time since the start of an impact of an enclosure run.
fn clock_of<S: Scalar>(imp: &Impact<S>) -> Result<S, LawError> {
    match &imp.time {
        Num::Enclosure { lo, hi } => {
            let (Some(l), Some(h)) = (
                crate::arith::float_to_rat(lo),
                crate::arith::float_to_rat(hi),
            ) else {
                return Err(LawError::Domain("an impact time without bounds".into()));
            };
            let like = &imp.before.x;
            like.lift(&l)
                .hull_with(&like.lift(&h))
                .ok_or_else(|| LawError::Domain("not an enclosure backend".into()))
        }
        _ => Err(LawError::Domain(
            "an impact time that is not an enclosure".into(),
        )),
    }
}

/// θ₀ + Ω·t with t given as a reported enclosure (exact backends: the time is not
/// representable); the value's own rendering when the enclosure cannot be rebuilt.
fn theta_enclosure<S: Scalar>(theta0: &S, omega: &S, t: &Num) -> Num {
    let (Some((a, b)), Some((w0, w1)), Some((t0, t1))) = (
        theta0.rational_bounds(),
        omega.rational_bounds(),
        num_bounds(t),
    ) else {
        return theta0.num();
    };
    let prec = 256;
    let hull = |x: &BigRational, y: &BigRational| {
        MpInterval::from_rational_prec(x, prec)
            .hull_with(&MpInterval::from_rational_prec(y, prec))
            .expect("an enclosure")
    };
    (hull(&a, &b) + &hull(&w0, &w1).mul_r(&hull(&t0, &t1))).num()
}

fn num_bounds(t: &Num) -> Option<(BigRational, BigRational)> {
    match t {
        Num::Enclosure { lo, hi } => Some((
            crate::arith::float_to_rat(lo)?,
            crate::arith::float_to_rat(hi)?,
        )),
        _ => None,
    }
}

/// t = u/ω for the point (cos u, sin u) of an exact impact, u the first angle reached
/// from 0 in the direction of ω (in (0, 2π) for ω > 0, (−2π, 0) for ω < 0), enclosed
/// with MPFR intervals at 256 bits from rational bounds of cos u and sin u.
fn angle_time<S: Scalar>(cu: &S, su: &S, omega: &S) -> Result<MpInterval, LawError> {
    let prec = 256;
    let enc = |x: &S| -> Result<MpInterval, LawError> {
        let (a, b) = x
            .rational_bounds()
            .ok_or_else(|| LawError::Domain("no rational bounds".into()))?;
        Ok(MpInterval::from_rational_prec(&a, prec)
            .hull_with(&MpInterval::from_rational_prec(&b, prec))
            .expect("an enclosure"))
    };
    let (c, s, w) = (enc(cu)?, enc(su)?, enc(omega)?);
    let pi = MpInterval::pi(&prec)?;
    let half_pi = pi.checked_div(&MpInterval::from_i64(2, &prec))?;
    // u0 ∈ (−π, π]
    let u0 = if c.sign() == Sign::Positive {
        s.checked_div(&c)?.atan()?
    } else if s.sign() == Sign::Positive {
        half_pi - &c.checked_div(&s)?.atan()?
    } else if s.sign() == Sign::Negative {
        -half_pi - &c.checked_div(&s)?.atan()?
    } else {
        // cos u < 0 and sin u = 0: u = π
        pi.clone()
    };
    let two_pi = pi.mul_r(&MpInterval::from_i64(2, &prec));
    let u = match (omega.sign(), u0.sign()) {
        (Sign::Positive, Sign::Positive) | (Sign::Negative, Sign::Negative) => u0,
        (Sign::Positive, _) => u0 + &two_pi,
        (Sign::Negative, _) => u0 - &two_pi,
        _ => return Err(LawError::Domain("phidot is zero".into())),
    };
    Ok(u.checked_div(&w)?)
}

/// Sect. VI-A: x₀ = y₀ = θ₀ = 0, φ₀ = π/2, θ̇₀ = 10, φ̇₀ = 0.2.
pub fn section_vi_a<S: Scalar>(like: &S) -> PennyState<S> {
    let z = like.zero_like();
    PennyState {
        x: z.clone(),
        y: z.clone(),
        theta: z.clone(),
        heading: Heading {
            cos: z,
            sin: like.one_like(),
        },
        thetadot: like.lift_i64(10),
        phidot: like.lift(&BigRational::new(1.into(), 5.into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::{MpInterval, Quadratic};

    fn circle<S: Scalar>(like: &S, law: RunLaw) -> Table<S> {
        let a = like.lift(&BigRational::new(1.into(), 5.into()));
        Table {
            penny: Penny::table_i(like),
            boundary: Boundary::Ellipse { a: a.clone(), b: a },
            law,
        }
    }

    fn width(x: &MpInterval) -> f64 {
        x.width().to_f64()
    }

    /// Sect. VI-A on the circle, elastic: 20 certified impacts at 128 bits, every
    /// enclosure below 1e-20 (Lohner's method), the energy enclosures containing the
    /// initial energy ½(mR² + I)θ̇₀² + ½Jφ̇₀² = 0.00001875125.
    #[test]
    fn circle_elastic_twenty_impacts_at_128_bits() {
        let like = MpInterval::from_i64(1, &128);
        let run = circle(&like, RunLaw::Elastic)
            .run(&section_vi_a(&like), 20)
            .unwrap();
        assert_eq!(run.stop, Stop::Done);
        assert_eq!(run.impacts.len(), 20);
        let e0 = BigRational::new(1500100.into(), 80_000_000_000i64.into());
        for imp in &run.impacts {
            for x in imp.qdot.1.iter().chain([&imp.point.0, &imp.point.1]) {
                assert!(width(x) < 1e-20, "{}", width(x));
            }
            assert!(imp.energy.1.contains_rational(&e0));
        }
        // the ends alternate: front, back, front, …
        assert!(run
            .impacts
            .iter()
            .enumerate()
            .all(|(i, m)| m.end == if i % 2 == 0 { End::Front } else { End::Back }));
    }

    /// Runs on the circle are algebraic: in Q(√D) every end's point is on the circle
    /// exactly and the elastic map conserves the energy exactly (the discriminant of
    /// every later impact point is a square in Q(√D), so 20 impacts stay there); the
    /// certified run encloses every exact value and time.
    #[test]
    fn runs_on_the_circle_are_exact_and_enclosed() {
        let q = Quadratic::from_i64(1, &());
        let t = circle(&q, RunLaw::Elastic);
        let exact = t.run(&section_vi_a(&q), 20).unwrap();
        assert_eq!(exact.impacts.len(), 20);
        assert!(matches!(exact.stop, Stop::Done));
        let r2 = q.lift(&BigRational::new(1.into(), 25.into()));
        for e in &exact.impacts {
            let on = e.point.0.square() + &e.point.1.square() - &r2;
            assert_eq!(on.sign(), Sign::Zero);
            assert_eq!((e.energy.0.clone() - &e.energy.1).sign(), Sign::Zero);
        }
        assert_eq!(exact.impacts[0].end, End::Front);
        let like = MpInterval::from_i64(1, &128);
        let run = circle(&like, RunLaw::Elastic)
            .run(&section_vi_a(&like), 20)
            .unwrap();
        assert_within(&run, &exact);
    }

    /// Every exact value and time of `exact` lies in the enclosures of `run`.
    fn assert_within<S: Scalar>(run: &Run<MpInterval>, exact: &Run<S>) {
        assert_eq!(run.impacts.len(), exact.impacts.len());
        for (m, e) in run.impacts.iter().zip(&exact.impacts) {
            assert_eq!(m.end, e.end);
            for (x, v) in m.qdot.1.iter().zip(&e.qdot.1) {
                let (lo, hi) = v.rational_bounds().unwrap();
                let (xl, xh) = x.rational_bounds().unwrap();
                assert!(xl <= lo && hi <= xh);
            }
            let (tl, th) = num_bounds(&e.time).unwrap();
            let (ml, mh) = num_bounds(&m.time).unwrap();
            assert!(
                ml <= th && tl <= mh,
                "the exact run's time meets the enclosure"
            );
        }
    }

    /// At the heading φ₀ = π/16 the impact points need √D beside cos(π/16): the
    /// algebraic backend runs in the tower Q(cos(π/16))(√D) of degree 16, and the
    /// certified run encloses it.
    #[test]
    fn plastic_run_at_pi_over_16_in_a_tower() {
        fn start<S: Scalar>(like: &S) -> PennyState<S> {
            let value = |t: &str| crate::lang::eval_str::<S>(t, &like.ctx()).unwrap();
            PennyState {
                heading: Heading {
                    cos: value("cos(pi/16)"),
                    sin: value("sin(pi/16)"),
                },
                ..section_vi_a(like)
            }
        }
        let a = crate::arith::Algebraic::from_i64(1, &());
        let exact = circle(&a, RunLaw::Plastic).run(&start(&a), 3).unwrap();
        assert_eq!(exact.impacts.len(), 3);
        let (_, field) = exact.impacts[2].after.thetadot.parts();
        assert_eq!(field.unwrap().degree(), 16);
        let like = MpInterval::from_i64(1, &128);
        let run = circle(&like, RunLaw::Plastic)
            .run(&start(&like), 3)
            .unwrap();
        assert_within(&run, &exact);
    }

    /// A straight flight (φ̇ = 0) is algebraic too: from the centre heading along x with
    /// θ̇ = 10, the front end reaches x = 1/5 when x + R = 1/5, t = (1/5 − 1/100)/(Rθ̇) =
    /// 19/10; the elastic map reverses the rolling.
    #[test]
    fn straight_flight_exact_time() {
        let q = crate::arith::Rational::from_i64(1, &());
        let t = circle(&q, RunLaw::Elastic);
        let mut s = section_vi_a(&q);
        s.heading = Heading {
            cos: q.one_like(),
            sin: q.zero_like(),
        };
        s.phidot = q.zero_like();
        let run = t.run(&s, 1).unwrap();
        let m = &run.impacts[0];
        assert_eq!(m.time, crate::arith::Rational::new(19, 10).num());
        assert_eq!(m.qdot.1[2], q.lift_i64(-10));
    }

    /// The rounded simulator (sampled events) agrees with the certified run.
    #[test]
    fn f64_agrees_with_the_certified_run() {
        let like = MpInterval::from_i64(1, &128);
        let cert = circle(&like, RunLaw::Plastic)
            .run(&section_vi_a(&like), 8)
            .unwrap();
        let f = Table {
            penny: Penny::table_i(&1.0f64),
            boundary: Boundary::Ellipse { a: 0.2, b: 0.2 },
            law: RunLaw::Plastic,
        };
        let run = f.run(&section_vi_a(&1.0), 8).unwrap();
        for (a, b) in run.impacts.iter().zip(&cert.impacts) {
            assert_eq!(a.end, b.end);
            assert!((a.time_f64 - b.time_f64).abs() < 1e-9);
            assert!((a.qdot.1[3] - b.qdot.1[3].to_f64()).abs() < 1e-6);
        }
    }
}
