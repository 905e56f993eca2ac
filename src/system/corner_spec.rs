//! A corner run described by input-language strings, built on any backend; the
//! certified run (interval → MPFR intervals at rising precision → exact).

use super::corner::{CornerRun, Form, Restitution, RunError, Termination, Trace};
use crate::arith::{Kind, Scalar};
use crate::backend::{Backend, RunScalar};
use crate::lang::{eval_str, split_list};
use crate::law::V2;
use serde_json::{json, Value};

/// TA (S = S_v = 0) or SA (thresholds S, S_v > 0), Sect. 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    Ta,
    Sa,
}

/// The restitution given as expressions.
#[derive(Clone, Debug)]
pub enum RestitutionSpec {
    Symmetric(String),
    Asymmetric(String, String),
}

/// A corner run as the command line states it.
#[derive(Clone, Debug)]
pub struct CornerSpec {
    /// α (the half-angle of the corner), an expression; k = tan α.
    pub alpha: String,
    /// The initial velocity, "EXPR,EXPR".
    pub v0: String,
    pub restitution: RestitutionSpec,
    pub algorithm: Algorithm,
    /// S (SA only; default 4.5e-16, the paper's value).
    pub threshold: Option<String>,
    /// S_v (SA only; default 0).
    pub rest_threshold: Option<String>,
    pub max_steps: usize,
    pub form: Form,
    /// Keep every velocity of the run (reported as `trace`).
    pub record_velocities: bool,
}

/// The paper's threshold S = 4.5·10⁻¹⁶ (Sect. 6, example).
pub const DEFAULT_SA_THRESHOLD: &str = "4.5e-16";

fn value<S: Scalar>(src: &str, option: &'static str, ctx: &S::Ctx) -> Result<S, RunError> {
    eval_str::<S>(src, ctx).map_err(|e| RunError::Input {
        option,
        reason: e.to_string(),
    })
}

impl CornerSpec {
    /// Builds the run and the initial velocity on backend `S`.
    pub fn build<S: Scalar>(&self, ctx: &S::Ctx) -> Result<(CornerRun<S>, V2<S>), RunError> {
        let k = value::<S>(&format!("tan({})", self.alpha), "--alpha", ctx)?;
        let parts = split_list(&self.v0);
        if parts.len() != 2 {
            return Err(RunError::Input {
                option: "--v0",
                reason: format!("expected two components \"EXPR,EXPR\", got {}", parts.len()),
            });
        }
        let v0 = V2::new(
            value::<S>(parts[0], "--v0", ctx)?,
            value::<S>(parts[1], "--v0", ctx)?,
        );
        let restitution = match &self.restitution {
            RestitutionSpec::Symmetric(e) => Restitution::Symmetric(value::<S>(e, "--eps", ctx)?),
            RestitutionSpec::Asymmetric(a, b) => Restitution::Asymmetric(
                value::<S>(a, "--eps1", ctx)?,
                value::<S>(b, "--eps2", ctx)?,
            ),
        };
        let (threshold, rest) = match self.algorithm {
            Algorithm::Ta => {
                if self.threshold.is_some() || self.rest_threshold.is_some() {
                    return Err(RunError::Input {
                        option: "--threshold",
                        reason: "TA has S = S_v = 0 (Sect. 6); thresholds need --algorithm sa"
                            .into(),
                    });
                }
                (k.zero_like(), k.zero_like())
            }
            Algorithm::Sa => (
                value::<S>(
                    self.threshold.as_deref().unwrap_or(DEFAULT_SA_THRESHOLD),
                    "--threshold",
                    ctx,
                )?,
                value::<S>(
                    self.rest_threshold.as_deref().unwrap_or("0"),
                    "--rest-threshold",
                    ctx,
                )?,
            ),
        };
        let mut all = vec![&k, &v0.x, &v0.y, &threshold, &rest];
        match &restitution {
            Restitution::Symmetric(e) => all.push(e),
            Restitution::Asymmetric(a, b) => all.extend([a, b]),
        }
        crate::arith::check_compatible(&all).map_err(|e| RunError::Input {
            option: "--alpha/--v0/--eps",
            reason: e.to_string(),
        })?;
        let run = CornerRun {
            k,
            restitution,
            threshold,
            rest_threshold: rest,
            max_steps: self.max_steps,
            form: self.form,
            record_velocities: self.record_velocities,
        };
        Ok((run, v0))
    }

    /// Builds and runs on backend `S`.
    pub fn run<S: Scalar>(&self, ctx: &S::Ctx) -> Result<Trace<S>, RunError> {
        let (run, v0) = self.build::<S>(ctx)?;
        run.run(v0)
    }

    /// Runs on a backend chosen at run time and reports as JSON.
    pub fn report(&self, backend: Backend) -> Result<Value, RunError> {
        struct Job<'a>(&'a CornerSpec, Backend);
        impl RunScalar for Job<'_> {
            type Out = Result<Value, RunError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                let trace = self.0.run::<S>(ctx)?;
                Ok(trace_json(&trace, &self.1.to_string()))
            }
        }
        backend.run(Job(self, backend))
    }

    /// The certified run: inari intervals; if a zone decision is undecided, MPFR
    /// intervals at doubled precision up to `max_bits`; if still undecided and the inputs
    /// are exactly representable (rationals, or one field Q(√d)), exact arithmetic.
    /// Reports which arithmetic decided every zone, and every attempt.
    pub fn certified(&self, max_bits: u32) -> Result<Value, RunError> {
        let mut attempts = Vec::new();
        let mut last: Option<Value> = None;
        let mut try_one = |name: String,
                           result: Result<Value, RunError>,
                           attempts: &mut Vec<Value>|
         -> Result<Option<Value>, RunError> {
            match result {
                Ok(v) if v["termination"] == "undecided" => {
                    attempts.push(json!({"arith": name, "undecided": v["undecided"].clone()}));
                    last = Some(v);
                    Ok(None)
                }
                Ok(v) => Ok(Some(v)),
                Err(RunError::Input { reason, .. }) if reason.contains("not representable") => {
                    attempts.push(json!({"arith": name, "skipped": reason}));
                    Ok(None)
                }
                Err(e) => Err(e),
            }
        };
        let mut ladder: Vec<(String, Backend)> = vec![("interval".into(), Backend::Interval)];
        let mut bits = 106;
        while bits <= max_bits {
            ladder.push((format!("mpi:{bits}"), Backend::MpInterval(bits)));
            bits *= 2;
        }
        ladder.push(("exact".into(), Backend::Exact));
        ladder.push(("quadratic".into(), Backend::Quadratic));
        for (name, backend) in ladder {
            if let Some(mut v) = try_one(name.clone(), self.report(backend), &mut attempts)? {
                v["certified_by"] = json!(name);
                v["attempts"] = json!(attempts);
                return Ok(v);
            }
        }
        let mut v = last.unwrap_or_else(|| json!({"termination": "undecided"}));
        v["certified_by"] = Value::Null;
        v["attempts"] = json!(attempts);
        Ok(v)
    }
}

/// How the runs of a figure are computed.
#[derive(Clone, Copy, Debug)]
pub enum FigureArith {
    Backend(Backend),
    Certified(u32),
}

impl CornerSpec {
    /// The SVG figure of Sect. 8 for this entrance velocity: one exit velocity per COR in
    /// `eps_list` (each run as this spec states, with that ε).
    pub fn figure(&self, eps_list: &[String], arith: FigureArith) -> Result<String, RunError> {
        let bad = |reason: String| RunError::Input {
            option: "--svg",
            reason,
        };
        if matches!(self.restitution, RestitutionSpec::Asymmetric(..)) {
            return Err(bad(
                "figures draw one COR per exit velocity; use --eps".into()
            ));
        }
        let f = |src: &str, option: &'static str| value::<f64>(src, option, &());
        let alpha = f(&self.alpha, "--alpha")?;
        let parts = split_list(&self.v0);
        if parts.len() != 2 {
            return Err(RunError::Input {
                option: "--v0",
                reason: "expected two components".into(),
            });
        }
        let v0 = (f(parts[0], "--v0")?, f(parts[1], "--v0")?);
        let mut exits = Vec::new();
        for e in eps_list {
            let mut one = self.clone();
            one.restitution = RestitutionSpec::Symmetric(e.clone());
            let report = match arith {
                FigureArith::Backend(b) => one.report(b)?,
                FigureArith::Certified(bits) => one.certified(bits)?,
            };
            let comp = |x: &Value| -> Result<f64, RunError> {
                match x {
                    Value::String(s) => f(s, "--svg"),
                    Value::Object(o) => {
                        let lo = f(o["lo"].as_str().unwrap_or("0"), "--svg")?;
                        let hi = f(o["hi"].as_str().unwrap_or("0"), "--svg")?;
                        Ok((lo + hi) / 2.0)
                    }
                    _ => Err(bad("no final velocity".into())),
                }
            };
            exits.push(crate::report::svg::ExitArrow {
                label: e.clone(),
                v: (comp(&report["final"][0])?, comp(&report["final"][1])?),
                termination: report["termination"].as_str().unwrap_or("?").to_string(),
            });
        }
        let title = format!(
            "alpha = {}, v0 = ({}), {:?}",
            self.alpha, self.v0, self.algorithm
        );
        Ok(crate::report::svg::corner_figure(&title, alpha, v0, &exits))
    }
}

/// A scalar in a report: exact values as input-language strings, enclosures as
/// `{"lo": .., "hi": ..}`, rounded floats as decimal strings.
pub fn scalar_json<S: Scalar>(x: &S) -> Value {
    let r = x.render();
    match (S::kind(), r.bounds) {
        (Kind::Enclosure, Some((lo, hi))) => json!({"lo": lo, "hi": hi}),
        _ => json!(r.value),
    }
}

/// A corner trace as JSON: `{"arith", "steps", "zones", "termination", "final", "trace"}`
/// (and `"undecided": {step, quantity, lo, hi}` when a sign could not be decided).
pub fn trace_json<S: Scalar>(t: &Trace<S>, arith: &str) -> Value {
    let v2 = |v: &V2<S>| json!([scalar_json(&v.x), scalar_json(&v.y)]);
    let mut out = json!({
        "arith": arith,
        "steps": t.steps,
        "zones": t.zones.iter().map(|z| z.to_string()).collect::<Vec<_>>(),
        "termination": t.termination.name(),
        "final": v2(t.final_velocity()),
    });
    if !t.velocities.is_empty() {
        out["trace"] = t.velocities.iter().map(v2).collect::<Vec<_>>().into();
    }
    match &t.termination {
        Termination::Undecided {
            step,
            quantity,
            lo,
            hi,
        } => {
            out["undecided"] = json!({"step": step, "quantity": quantity, "lo": lo, "hi": hi});
        }
        Termination::Ambiguous { step, zones } => {
            out["ambiguous"] = json!({
                "step": step,
                "zones": zones.iter().map(|z| z.to_string()).collect::<Vec<_>>(),
                "reason": "the conditions of (6a-6d) hold for no zone or for several",
            });
        }
        _ => {}
    }
    out
}
