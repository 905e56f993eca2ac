//! `impactkit billiard-break`: one geometry (θ, or a rational point of the half angle)
//! or a sweep of θ over [θ_min, π] (Seghete–Murphey, Sect. VII-A, Fig. 5).

use super::billiard::{Break, BreakOutcome};
use super::corner_spec::scalar_json;
use super::input;
use super::propagate::SpecError;
use crate::arith::{Scalar, Sign};
use crate::backend::{Backend, RunScalar};
use crate::lang::eval_str;
use crate::law::{decide, LawError};
use serde_json::{json, Value};

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
    let v = super::list::<S>(src, option, ctx)?;
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
                    .map_err(|e| input("--theta", e.to_string()))?;
                let s = eval_str::<S>(&format!("sin(({src})/2)"), ctx)
                    .map_err(|e| input("--theta", e.to_string()))?;
                Ok((c, s))
            }
            Angle::TanQuarter(src) => {
                let t =
                    eval_str::<S>(src, ctx).map_err(|e| input("--tan-quarter", e.to_string()))?;
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

    /// The report on backend `backend`.
    pub fn report(&self, backend: Backend) -> Result<Value, SpecError> {
        struct Job<'a>(&'a BreakSpec, Backend);
        impl RunScalar for Job<'_> {
            type Out = Result<Value, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                let mut v = match self.0.angle {
                    Angle::Sweep(n) => self.0.sweep::<S>(ctx, n)?,
                    _ => self.0.single::<S>(ctx)?,
                };
                v["arith"] = json!(self.1.to_string());
                Ok(v)
            }
        }
        if self.max_depth == 0 || self.max_depth > 1000 {
            return Err(input("--max-depth", "must lie in 1..=1000"));
        }
        backend.run(Job(self, backend))
    }

    fn single<S: Scalar>(&self, ctx: &S::Ctx) -> Result<Value, SpecError> {
        let half = self.half_angle::<S>(ctx)?;
        let b = self.geometry::<S>(ctx, half)?;
        let o = b.outcome(self.max_depth).map_err(domain)?;
        Ok(outcome_json(&b, &o))
    }

    fn sweep<S: Scalar>(&self, ctx: &S::Ctx, n: usize) -> Result<Value, SpecError> {
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
            // skip the angles where a and b would overlap (decided; undecided is kept
            // out too, and counted)
            match decide(&b.overlap_margin().map_err(domain)?, "cos θ_min − cos θ") {
                Ok(Sign::Negative) | Err(_) => {
                    skipped += 1;
                    continue;
                }
                _ => {}
            }
            match b.outcome(self.max_depth) {
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
        let minima: Vec<String> = (0..decided.len())
            .filter(|&k| {
                let x = decided[k].1;
                let left = k == 0 || x <= decided[k - 1].1;
                let right = k + 1 == decided.len() || x <= decided[k + 1].1;
                left && right
            })
            .map(|k| ratio(decided[k].0, n))
            .collect();
        let rows: Vec<Value> = points
            .iter()
            .map(|(i, o)| match o {
                Ok(o) => {
                    let xi = xi_json(&o.xi_squared);
                    json!({
                        "theta_over_pi": ratio(*i, n),
                        "xi": xi,
                        "xi_squared": scalar_json(&o.xi_squared),
                        "sequence_ab": o.ab.0.len(),
                        "sequence_ba": o.ba.0.len(),
                    })
                }
                Err(msg) => json!({"theta_over_pi": ratio(*i, n), "undecided": msg}),
            })
            .collect();
        Ok(json!({
            "radii": self.radii,
            "points": rows,
            "skipped_overlapping": skipped,
            "local_minima_theta_over_pi": minima,
        }))
    }
}

/// `i/n` reduced.
fn ratio(i: usize, n: usize) -> String {
    let g = num_integer::gcd(i, n).max(1);
    if n / g == 1 {
        format!("{}", i / g)
    } else {
        format!("{}/{}", i / g, n / g)
    }
}

/// ξ = √(ξ²): exact where the backend can take the root; otherwise a rigorous 128-bit
/// MPFR-interval enclosure `{lo, hi}` of the root of the rational bounds of ξ² (an
/// enclosure of ξ² that reaches below 0 is cut at 0, since ξ² ≥ 0 by definition).
fn xi_json<S: Scalar>(x2: &S) -> Value {
    use crate::arith::MpInterval;
    use num_traits::Signed;
    if let Ok(x) = x2.sqrt() {
        return scalar_json(&x);
    }
    let Some((lo, hi)) = x2.rational_bounds() else {
        return Value::Null;
    };
    let root = |q: &num_rational::BigRational| MpInterval::from_rational(q, &128).sqrt().ok();
    let lo = if lo.is_negative() {
        Some("0".to_string())
    } else {
        root(&lo).and_then(|r| r.render().bounds).map(|b| b.0)
    };
    let hi = root(&hi).and_then(|r| r.render().bounds).map(|b| b.1);
    match (lo, hi) {
        (Some(lo), Some(hi)) => json!({"lo": lo, "hi": hi}),
        _ => Value::Null,
    }
}

/// One geometry as JSON.
pub fn outcome_json<S: Scalar>(b: &Break<S>, o: &BreakOutcome<S>) -> Value {
    let vj = |v: &[S]| Value::Array(v.iter().map(scalar_json).collect());
    let seq = |s: &[usize]| {
        s.iter()
            .map(|&i| if i == 0 { "a" } else { "b" })
            .collect::<String>()
    };
    let xi = xi_json(&o.xi_squared);
    json!({
        "radii": b.radii.iter().map(scalar_json).collect::<Vec<_>>(),
        "masses": b.masses.iter().map(scalar_json).collect::<Vec<_>>(),
        "cos_theta": scalar_json(&b.cos_theta()),
        "inner_product": scalar_json(&o.inner_product),
        "cos_theta_over_mc": scalar_json(&o.cos_theta_over_mc),
        "printed_31_middle": scalar_json(&o.printed_31_middle),
        "p0": vj(&o.p0),
        "p_ab": vj(&o.ab.1),
        "p_ba": vj(&o.ba.1),
        "sequence_ab": seq(&o.ab.0),
        "sequence_ba": seq(&o.ba.0),
        "xi_squared": scalar_json(&o.xi_squared),
        "xi": xi,
    })
}

/// A number of a report (input-language string, or `{lo, hi}` → midpoint) as `f64`.
fn report_f64(v: &Value) -> Option<f64> {
    let one = |s: &Value| -> Option<f64> {
        let e = crate::lang::parse(s.as_str()?).ok()?;
        e.eval::<f64>(&()).ok()
    };
    match v {
        Value::Object(o) => Some((one(o.get("lo")?)? + one(o.get("hi")?)?) / 2.0),
        other => one(other),
    }
}

/// Fig. 5: ξ against θ/π from a sweep report, the local minima marked.
pub fn sweep_svg(report: &Value) -> String {
    let mut pts = Vec::new();
    for p in report["points"].as_array().into_iter().flatten() {
        let x = report_f64(&p["theta_over_pi"]);
        let y = report_f64(&p["xi_squared"]).map(|y| y.max(0.0).sqrt());
        if let (Some(x), Some(y)) = (x, y) {
            pts.push((x, y));
        }
    }
    let marks: Vec<(f64, f64, String)> = report["local_minima_theta_over_pi"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| {
            let x = report_f64(m)?;
            let y = pts.iter().find(|p| (p.0 - x).abs() < 1e-12)?.1;
            Some((x, y, format!("θ = {}π", m.as_str().unwrap_or("?"))))
        })
        .collect();
    let x0 = pts.first().map(|p| p.0).unwrap_or(0.0);
    crate::report::plot::line_plot(
        &format!(
            "Billiard break (Seghete–Murphey Fig. 5): indeterminacy ξ, radii {}",
            report["radii"].as_str().unwrap_or("")
        ),
        "θ / π",
        "ξ = |p_ab − p_ba|_g / |p0|_g",
        (x0, 1.0),
        &pts,
        &marks,
    )
}
