//! `impactkit billiard-break`: one geometry (θ, or a rational point of the half angle)
//! or a sweep of θ over [θ_min, π] (Seghete–Murphey, Sect. VII-A, Fig. 5).

use crate::arith::backend::{Backend, RunScalar};
use crate::arith::{MpInterval, Num};
use crate::arith::{Scalar, Sign};
use crate::input::InputError;
use crate::lang::eval_str;
use crate::law::{decide, LawError};
use crate::report::billiard::DecidedPoint;
use crate::report::billiard::{ratio, BilliardReport, BreakReport, SweepPoint, SweepReport};
use crate::report::nums;
use crate::system::billiard::{Break, BreakOutcome};
use crate::system::input;
use crate::system::propagate::SpecError;

/// How the angle is given.
#[derive(Clone, Debug)]
pub enum Angle {
    /// θ as an expression (`pi/2`): cos(θ/2), sin(θ/2) through the backend.
    Theta(String),
    /// t = tan(θ/4): cos(θ/2) = (1 − t²)/(1 + t²), sin(θ/2) = 2t/(1 + t²) — a rational
    /// point on the unit circle for rational t, so exact backends stay exact.
    TanQuarter(String),
    /// θ = iπ/N for i = 0…N (the points where a and b would overlap are skipped).
    Sweep(usize),
}

/// A billiard-break run as the command line states it.
#[derive(Clone, Debug)]
pub struct BreakSpec {
    pub angle: Angle,
    /// "r_a,r_b,r_c".
    pub radii: String,
    /// "m_a,m_b,m_c"; `None`: proportional to the volumes, r³.
    pub masses: Option<String>,
    pub max_depth: usize,
}

fn three<S: Scalar>(src: &str, option: &'static str, ctx: &S::Ctx) -> Result<[S; 3], SpecError> {
    let v = crate::system::list::<S>(src, option, ctx)?;
    v.try_into()
        .map_err(|v: Vec<S>| input(option, format!("need 3 values, got {}", v.len())))
}

fn domain(e: LawError) -> SpecError {
    match e {
        LawError::Domain(m) => input("--theta/--radii/--masses", m),
        other => SpecError::Law(other),
    }
}

impl BreakSpec {
    fn geometry<S: Scalar>(&self, ctx: &S::Ctx, half: (S, S)) -> Result<Break<S>, SpecError> {
        let radii = three::<S>(&self.radii, "--radii", ctx)?;
        let b = match &self.masses {
            Some(m) => Break {
                radii,
                masses: three::<S>(m, "--masses", ctx)?,
                cos_half: half.0,
                sin_half: half.1,
            },
            None => Break::with_volume_masses(radii, half.0, half.1),
        };
        let all: Vec<&S> = b
            .radii
            .iter()
            .chain(&b.masses)
            .chain([&b.cos_half, &b.sin_half])
            .collect();
        crate::arith::check_compatible(&all)
            .map_err(|e| input("--theta/--radii/--masses", e.to_string()))?;
        Ok(b)
    }

    fn half_angle<S: Scalar>(&self, ctx: &S::Ctx) -> Result<(S, S), SpecError> {
        match &self.angle {
            Angle::Theta(src) => {
                // through the input language, so that exact values of the trigonometric
                // table (cos(pi/4) = sqrt(2)/2) reach the exact backends
                let c = eval_str::<S>(&format!("cos(({src})/2)"), ctx)
                    .map_err(|e| InputError::from_eval("--theta", &e))?;
                let s = eval_str::<S>(&format!("sin(({src})/2)"), ctx)
                    .map_err(|e| InputError::from_eval("--theta", &e))?;
                Ok((c, s))
            }
            Angle::TanQuarter(src) => {
                let t = eval_str::<S>(src, ctx)
                    .map_err(|e| InputError::from_eval("--tan-quarter", &e))?;
                let d = t.one_like() + &t.square();
                let c = (t.one_like() - &t.square())
                    .checked_div(&d)
                    .map_err(|e| input("--tan-quarter", e.to_string()))?;
                let s = (t.lift_i64(2) * &t)
                    .checked_div(&d)
                    .map_err(|e| input("--tan-quarter", e.to_string()))?;
                Ok((c, s))
            }
            Angle::Sweep(_) => Err(input("--sweep", "not a single geometry")),
        }
    }

    /// The report on backend `backend`: one geometry, or the sweep.
    pub fn report(&self, backend: Backend) -> Result<BilliardReport, SpecError> {
        struct Job<'a>(&'a BreakSpec, Backend);
        impl RunScalar for Job<'_> {
            type Out = Result<BilliardReport, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                let arith = self.1.to_string();
                Ok(match self.0.angle {
                    Angle::Sweep(n) => BilliardReport::Sweep(self.0.sweep::<S>(ctx, n, arith)?),
                    _ => BilliardReport::Geometry(Box::new(self.0.single::<S>(ctx, &arith)?)),
                })
            }
        }
        if self.max_depth == 0 || self.max_depth > 1000 {
            return Err(input("--max-depth", "must lie in 1..=1000"));
        }
        backend.run(Job(self, backend))
    }

    fn single<S: Scalar>(&self, ctx: &S::Ctx, arith: &str) -> Result<BreakReport, SpecError> {
        let half = self.half_angle::<S>(ctx)?;
        let b = self.geometry::<S>(ctx, half)?;
        b.validate_data().map_err(domain)?;
        match self.certified_overlap()? {
            Ok(false) => {}
            Ok(true) => return Err(domain(crate::system::billiard::overlap())),
            Err(undecided) => return Err(SpecError::Law(undecided)),
        }
        let o = b
            .outcome_without_overlap_check(self.max_depth)
            .map_err(domain)?;
        Ok(BreakReport::of(&b, &o, arith))
    }

    /// Whether a and b overlap (cos θ_min − cos θ < 0; touching is allowed), decided on
    /// the certified ladder ([`crate::certify::ladder`]) whatever `--arith` is: the
    /// touching geometry θ = θ_min gives an exact 0 that no enclosure and no rounded sign
    /// decides, while `exact` (rational cos(θ/2), sin(θ/2)) or `quadratic` (`--theta`
    /// expressions with one square root, e.g. π/3) do. `Err` carries an undecided sign
    /// when no rung decides (the 53-bit enclosure: a short line).
    fn certified_overlap(&self) -> Result<Result<bool, LawError>, SpecError> {
        struct Job<'a>(&'a BreakSpec);
        impl RunScalar for Job<'_> {
            type Out = Result<Result<Sign, LawError>, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                let half = self.0.half_angle::<S>(ctx)?;
                let b = self.0.geometry::<S>(ctx, half)?;
                Ok(b.overlap_margin()
                    .and_then(|m| decide(&m, "cos θ_min − cos θ")))
            }
        }
        let ladder = crate::certify::ladder(crate::certify::DEFAULT_MAX_BITS);
        let top = ladder
            .iter()
            .rfind(|b| matches!(b, Backend::MpInterval(_)))
            .map_or_else(|| "interval".to_string(), Backend::to_string);
        let mut first = None;
        for backend in &ladder {
            match backend.run(Job(self)) {
                Ok(Ok(sign)) => return Ok(Ok(sign == Sign::Negative)),
                Ok(Err(LawError::Undecided { lo, hi, .. })) => {
                    first.get_or_insert((lo, hi));
                }
                // a rung that cannot represent the inputs (or fails) is skipped: the
                // user's backend has already accepted them
                Ok(Err(_)) | Err(_) => {}
            }
        }
        let (lo, hi) = first.unwrap_or_else(|| ("-inf".into(), "inf".into()));
        Ok(Err(LawError::Undecided {
            quantity: format!(
                "cos θ_min − cos θ (a and b may touch: undecided up to {top}, and neither \
                 exact nor quadratic can represent the geometry)"
            ),
            lo,
            hi,
        }))
    }

    fn sweep<S: Scalar>(
        &self,
        ctx: &S::Ctx,
        n: usize,
        arith: String,
    ) -> Result<SweepReport, SpecError> {
        if !(2..=100_000).contains(&n) {
            return Err(input("--sweep", "N must lie in 2..=100000"));
        }
        let mut points: Vec<(usize, Result<BreakOutcome<S>, String>)> = Vec::new();
        let mut skipped = 0;
        for i in 0..=n {
            let theta = format!("{i}*pi/{n}");
            let spec = BreakSpec {
                angle: Angle::Theta(theta),
                ..self.clone()
            };
            let half = spec.half_angle::<S>(ctx)?;
            let b = spec.geometry::<S>(ctx, half)?;
            // skip the angles where a and b would overlap, decided on the certified
            // ladder (undecided is kept out too, and counted)
            b.validate_data().map_err(domain)?;
            if !matches!(spec.certified_overlap()?, Ok(false)) {
                skipped += 1;
                continue;
            }
            match b.outcome_without_overlap_check(self.max_depth) {
                Ok(o) => points.push((i, Ok(o))),
                // an enclosure too wide to decide a sign at this point (e.g. θ = π in
                // interval arithmetic, where cos(θ/2) encloses 0): reported, not guessed
                Err(e @ LawError::Undecided { .. }) => points.push((i, Err(e.to_string()))),
                Err(e) => return Err(domain(e)),
            }
        }
        let decided: Vec<(usize, f64)> = points
            .iter()
            .filter_map(|(i, o)| o.as_ref().ok().map(|o| (*i, o.xi_squared.to_f64())))
            .collect();
        let minima: Vec<_> = (0..decided.len())
            .filter(|&k| {
                let x = decided[k].1;
                let left = k == 0 || x <= decided[k - 1].1;
                let right = k + 1 == decided.len() || x <= decided[k + 1].1;
                left && right
            })
            .map(|k| ratio(decided[k].0, n))
            .collect();
        let points = points
            .iter()
            .map(|(i, o)| match o {
                Ok(o) => SweepPoint::decided(ratio(*i, n), o),
                Err(msg) => SweepPoint::Undecided {
                    theta_over_pi: ratio(*i, n),
                    undecided: msg.clone(),
                },
            })
            .collect();
        Ok(SweepReport {
            arith,
            radii: self.radii.clone(),
            points,
            skipped_overlapping: skipped,
            local_minima_theta_over_pi: minima,
        })
    }
}

/// `0`/`1` reflection indices as `ab`.
fn sequence(s: &[usize]) -> String {
    s.iter().map(|&i| if i == 0 { 'a' } else { 'b' }).collect()
}

/// ξ = √(ξ²): exact where the backend can take the root; otherwise a rigorous 128-bit
/// MPFR-interval enclosure of the root of the rational bounds of ξ² (an enclosure of ξ²
/// that reaches below 0 is cut at 0, since ξ² ≥ 0 by definition).
fn xi_of<S: Scalar>(x2: &S) -> Option<Num> {
    use num_traits::Signed;
    if let Ok(x) = x2.sqrt() {
        return Some(x.num());
    }
    let (lo, hi) = x2.rational_bounds()?;
    let root = |q: &num_rational::BigRational| MpInterval::from_rational(q, &128).sqrt().ok();
    let lo = if lo.is_negative() {
        rug::Float::with_val(128, 0)
    } else {
        match root(&lo)?.num() {
            Num::Enclosure { lo, .. } => lo,
            _ => return None,
        }
    };
    match root(&hi)?.num() {
        Num::Enclosure { hi, .. } => Some(Num::Enclosure { lo, hi }),
        _ => None,
    }
}

impl BreakReport {
    /// The report of geometry `b` and its outcome `o`, on backend `arith`.
    pub fn of<S: Scalar>(b: &Break<S>, o: &BreakOutcome<S>, arith: &str) -> Self {
        BreakReport {
            arith: arith.to_string(),
            radii: nums(&b.radii),
            masses: nums(&b.masses),
            cos_theta: b.cos_theta().num(),
            inner_product: o.inner_product.num(),
            cos_theta_over_mc: o.cos_theta_over_mc.num(),
            printed_31_middle: o.printed_31_middle.num(),
            p0: nums(&o.p0),
            p_ab: nums(&o.ab.1),
            p_ba: nums(&o.ba.1),
            sequence_ab: sequence(&o.ab.0),
            sequence_ba: sequence(&o.ba.0),
            xi_squared: o.xi_squared.num(),
            xi: xi_of(&o.xi_squared),
        }
    }
}

impl SweepPoint {
    /// The decided outcome at `theta_over_pi`.
    pub fn decided<S: Scalar>(theta_over_pi: Num, o: &BreakOutcome<S>) -> Self {
        SweepPoint::Decided(Box::new(DecidedPoint {
            theta_over_pi,
            xi: xi_of(&o.xi_squared),
            xi_squared: o.xi_squared.num(),
            sequence_ab: o.ab.0.len(),
            sequence_ba: o.ba.0.len(),
        }))
    }

    /// θ/π.
    pub fn theta_over_pi(&self) -> &Num {
        match self {
            SweepPoint::Decided(d) => &d.theta_over_pi,
            SweepPoint::Undecided { theta_over_pi, .. } => theta_over_pi,
        }
    }
}
