//! The disk in a corner as an iterated law: the algorithms TA and SA of
//! Fassino & Pasquero (2020), Sect. 6, on any form of the rules.

use super::iterate::{iterate, Classified, End, Limits, PiecewiseMap};
use crate::arith::{Scalar, Sign};
use crate::law::corner::{
    asymmetric_xy, tr_id_phi, tr_nid_xi_eta, tr_nid_xi_eta_with, tr_nid_xy, xi_eta, xy_from_xi_eta,
    zone_xi_eta, zone_xy, zones_phi, XiEtaCoefficients, Zone,
};
use crate::law::{decide, LawError, V2};
use serde::Serialize;

/// Which form of the rules drives the iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// (ẋ, ẏ): eqs. (13a–13d) (= (3a–3d) at ε = 1), and Pasquero (10) for two CORs.
    Xy,
    /// (cos φ, sin φ): eqs. (6a–6d), ideal case only.
    Phi,
    /// (ξ̇, η̇): eqs. (14a–14d) (= (8a–8d) at ε = 1).
    XiEta,
}

/// The restitution law.
#[derive(Clone, Debug, PartialEq)]
pub enum Restitution<S> {
    /// One COR ε for both walls (ε = 1: the ideal rule TR_id).
    Symmetric(S),
    /// ε₁ for S1, ε₂ for S2: Pasquero's asymmetric rule (10).
    Asymmetric(S, S),
}

/// The parameters of a run (Sect. 6: thresholds S, S_v and N_max).
#[derive(Clone, Debug)]
pub struct CornerRun<S> {
    /// k = tan α.
    pub k: S,
    pub restitution: Restitution<S>,
    /// S: "> 0" is read as "> S" in the zone tests. TA: S = 0.
    pub threshold: S,
    /// S_v: the run stops when ‖v‖ ≤ S_v. TA: S_v = 0.
    pub rest_threshold: S,
    /// N_max: the largest number of rule applications.
    pub max_steps: usize,
    pub form: Form,
    /// The work limit of exact runs: the largest number of decimal digits of the exact
    /// numbers of a velocity (numerators and denominators together, as
    /// [`Scalar::exact_digits`] counts them); `None`: no limit.
    pub max_digits: Option<u64>,
    /// Keep every velocity in [`Trace::velocities`] (costly for long exact runs: every
    /// intermediate value is a canonical rational); otherwise only the last one.
    pub record_velocities: bool,
}

/// Why a run stopped.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// The velocity reached Z0.
    Exit,
    /// ‖v‖ ≤ S_v.
    Rest,
    /// N_max rule applications were made.
    MaxSteps,
    /// A zone decision could not be made (an enclosure straddles 0).
    Undecided {
        step: usize,
        quantity: String,
        lo: String,
        hi: String,
    },
    /// The conditions of (6a–6d) place the velocity in no zone, or in several.
    Ambiguous { step: usize, zones: Vec<Zone> },
    /// The exact numbers outgrew [`CornerRun::max_digits`].
    WorkLimit { step: usize, digits: u64 },
    /// A rounded arithmetic (`f64`, `mpfr:BITS`) could not go on: a denominator that is
    /// nonzero in exact arithmetic rounded to 0 (e.g. k⁴ẋ² + ẏ² of (13d) underflowing
    /// as the velocity decays). A property of the rounded computation, not bad input.
    ArithFailure { step: usize, reason: String },
}

impl Termination {
    /// The short name used in reports (`exit`, `rest`, `max-steps`, `undecided`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Termination::Exit => "exit",
            Termination::Rest => "rest",
            Termination::MaxSteps => "max-steps",
            Termination::Undecided { .. } => "undecided",
            Termination::Ambiguous { .. } => "ambiguous",
            Termination::WorkLimit { .. } => "work-limit",
            Termination::ArithFailure { .. } => "arith-failure",
        }
    }
}

/// The record of a run: the zone of every processed velocity, the number of rule
/// applications, why the run stopped, the last velocity (in (ẋ, ẏ)) and, when the run
/// was asked to record them ([`CornerRun::record_velocities`]), every velocity.
#[derive(Clone, Debug)]
pub struct Trace<S> {
    pub zones: Vec<Zone>,
    /// v₀, v₁, …, the last one: empty unless the run recorded them.
    pub velocities: Vec<V2<S>>,
    pub steps: usize,
    pub termination: Termination,
    /// The velocity at the end of the run (after `steps` rule applications).
    pub last: V2<S>,
}

impl<S: Scalar> Trace<S> {
    /// The last velocity.
    pub fn final_velocity(&self) -> &V2<S> {
        &self.last
    }
}

pub use super::SpecError;

fn input(option: &'static str, reason: impl Into<String>) -> SpecError {
    super::input(option, reason.into())
}

/// A check of `option` whose sign this backend did not decide: bad input on this backend
/// alone, marked so that the certified ladder moves on to a finer rung, which may decide
/// it (`--eps 1-1e-300` is in [0, 1] in exact arithmetic; issue 63, D16).
fn unsettled(option: &'static str, e: LawError) -> SpecError {
    let undecided = matches!(e, LawError::Undecided { .. });
    let mut e = crate::input::InputError::new(option, e);
    e.unrepresentable = undecided;
    SpecError::Input(e)
}

/// `lo <= x <= hi` checks for inputs, decided or reported.
fn check_unit_interval<S: Scalar>(x: &S, option: &'static str) -> Result<(), SpecError> {
    let below = decide(x, option).map_err(|e| unsettled(option, e))?;
    let above = decide(&(x.one_like() - x), option).map_err(|e| unsettled(option, e))?;
    if below == Sign::Negative || above == Sign::Negative {
        return Err(input(option, format!("must lie in [0, 1], got {x}")));
    }
    Ok(())
}

impl<S: Scalar> CornerRun<S> {
    /// Checks the parameters: k > 0, CORs in [0, 1], thresholds ≥ 0, the form's scope.
    pub fn validate(&self) -> Result<(), SpecError> {
        if decide(&self.k, "tan(alpha)").map_err(|e| unsettled("--alpha", e))? != Sign::Positive {
            return Err(input(
                "--alpha",
                "alpha must lie in (0, pi/2), so that k = tan(alpha) > 0",
            ));
        }
        match &self.restitution {
            Restitution::Symmetric(e) => check_unit_interval(e, "--eps")?,
            Restitution::Asymmetric(e1, e2) => {
                check_unit_interval(e1, "--eps1")?;
                check_unit_interval(e2, "--eps2")?;
            }
        }
        for (t, name) in [
            (&self.threshold, "--threshold"),
            (&self.rest_threshold, "--rest-threshold"),
        ] {
            if decide(t, name).map_err(|e| unsettled(name, e))? == Sign::Negative {
                return Err(input(name, "must be >= 0"));
            }
        }
        match (&self.form, &self.restitution) {
            (Form::Xy, _) => Ok(()),
            (_, Restitution::Asymmetric(..)) => Err(input(
                "--form",
                "the asymmetric rule (10) with --eps1/--eps2 exists in the xy form only",
            )),
            (Form::Phi, Restitution::Symmetric(e)) => {
                if decide(&(e.one_like() - e), "--eps").map_err(|x| unsettled("--eps", x))?
                    != Sign::Zero
                {
                    return Err(input(
                        "--form",
                        "the phi form (6a-6d) is the ideal rule: it needs --eps 1",
                    ));
                }
                if decide(&self.threshold, "--threshold")
                    .map_err(|x| unsettled("--threshold", x))?
                    != Sign::Zero
                {
                    return Err(input(
                        "--form",
                        "the phi form (6a-6d) has no threshold S; use the xy or xieta form for SA",
                    ));
                }
                Ok(())
            }
            (Form::XiEta, _) => Ok(()),
        }
    }

    /// The zones of `v` as the chosen form classifies it (with the threshold S): exactly
    /// one for eq. (1); none or several can hold for the conditions of (6a–6d).
    fn zones(&self, v: &V2<S>) -> Result<Vec<Zone>, LawError> {
        match self.form {
            Form::Phi => zones_phi(&self.k, v),
            _ => zone_xy(&self.k, v, &self.threshold).map(|z| vec![z]),
        }
    }

    /// One rule application in the chosen form, in (ẋ, ẏ), for a velocity assumed to
    /// lie in `zone` (no zone decision is made: the symbolic backend's hypothesis).
    pub fn apply_in_zone(&self, zone: Zone, v: &V2<S>) -> Result<V2<S>, LawError> {
        self.apply(zone, v)
    }

    /// One rule application in the chosen form.
    fn apply(&self, zone: Zone, v: &V2<S>) -> Result<V2<S>, LawError> {
        let k = &self.k;
        match (&self.restitution, self.form) {
            (Restitution::Asymmetric(e1, e2), _) => asymmetric_xy(k, e1, e2, zone, v),
            (Restitution::Symmetric(e), Form::Xy) => tr_nid_xy(k, e, zone, v),
            (Restitution::Symmetric(_), Form::Phi) => tr_id_phi(k, zone, v),
            (Restitution::Symmetric(e), Form::XiEta) => {
                let w = tr_nid_xi_eta(k, e, zone, &xi_eta(k, v))?;
                xy_from_xi_eta(k, &w)
            }
        }
    }

    /// Runs the algorithm of Sect. 6 from `v0`: while the velocity is not in Z0 (with
    /// threshold S), ‖v‖ > S_v and fewer than N_max steps were made, apply the rule.
    ///
    /// With S = S_v = 0 (TA) the zones depend only on the direction of v and every rule
    /// is positively homogeneous of degree 1, so the run iterates on a direction w with
    /// v = t·w, t > 0 ([`Scalar::split_scale`]): exact backends keep w integral and
    /// small, the result is the same exact value.
    pub fn run(&self, v0: V2<S>) -> Result<Trace<S>, SpecError> {
        if !S::is_exact() && !self.record_velocities {
            // rounded and enclosure backends: the allocation-free loop (same decisions,
            // same operations)
            let kernel = super::corner_kernel::Kernel::new(self)?;
            let mut zones = Vec::new();
            let end = kernel.run(v0, &mut zones)?;
            return Ok(Trace {
                zones,
                velocities: Vec::new(),
                steps: end.steps,
                termination: end.end.termination(),
                last: end.last,
            });
        }
        self.validate()?;
        let limits = Limits {
            max_steps: self.max_steps,
            max_digits: self.max_digits,
            record: self.record_velocities,
        };
        // the (ξ̇, η̇) form iterates in (ξ̇, η̇), eq. (7); reports are in (ẋ, ẏ)
        let start = match self.form {
            Form::XiEta => xi_eta(&self.k, &v0),
            _ => v0,
        };
        let map = CornerMap {
            run: self,
            xi_eta: match (self.form, &self.restitution) {
                (Form::XiEta, Restitution::Symmetric(e)) => {
                    Some(XiEtaCoefficients::new(&self.k, e)?)
                }
                _ => None,
            },
        };
        let run = iterate(&map, vec![start.x, start.y], &limits)?;
        let v2 = |v: &[S]| -> Result<V2<S>, LawError> {
            let w = V2::new(v[0].clone(), v[1].clone());
            match self.form {
                Form::XiEta => xy_from_xi_eta(&self.k, &w),
                _ => Ok(w),
            }
        };
        Ok(Trace {
            velocities: run
                .velocities
                .iter()
                .map(|v| v2(v))
                .collect::<Result<_, _>>()?,
            last: v2(&run.last)?,
            zones: run.zones,
            steps: run.steps,
            termination: match run.end {
                End::Exit => Termination::Exit,
                End::Rest => Termination::Rest,
                End::MaxSteps => Termination::MaxSteps,
                End::WorkLimit { step, digits } => Termination::WorkLimit { step, digits },
                End::Undecided {
                    step,
                    quantity,
                    lo,
                    hi,
                } => Termination::Undecided {
                    step,
                    quantity,
                    lo,
                    hi,
                },
                End::Ambiguous { step, zones } => Termination::Ambiguous { step, zones },
            },
        })
    }
}

/// The corner rules as a piecewise map (Sect. 6): zones of eq. (1) (or (6a–6d)), the
/// rest test ‖v‖ ≤ S_v, and the rule of the chosen form, on (ẋ, ẏ) — or on (ξ̇, η̇) for
/// the (ξ̇, η̇) form, which then never leaves its coordinates (eqs. (8), (14)), with the
/// constants of (14) computed once.
struct CornerMap<'a, S> {
    run: &'a CornerRun<S>,
    xi_eta: Option<XiEtaCoefficients<S>>,
}

impl<S: Scalar> PiecewiseMap<S> for CornerMap<'_, S> {
    type Zone = Zone;
    fn classify(&self, v: &[S]) -> Result<Classified<Zone>, LawError> {
        let w = V2::new(v[0].clone(), v[1].clone());
        let zs = match self.xi_eta {
            Some(_) => vec![zone_xi_eta(&w, &self.run.threshold)?],
            None => self.run.zones(&w)?,
        };
        Ok(match zs.as_slice() {
            [Zone::Z0] => Classified::Exit(Zone::Z0),
            [z] => Classified::Apply(*z),
            _ => Classified::Ambiguous(zs),
        })
    }
    fn at_rest(&self, v: &[S]) -> Result<bool, LawError> {
        let r = self.run;
        // with S_v = 0 a component of decided nonzero sign answers without squaring
        // (and a homogeneous run knows only the direction, which is enough)
        if r.rest_threshold.sign() == Sign::Zero {
            let nonzero = |x: &S| matches!(x.sign(), Sign::Positive | Sign::Negative);
            if v.iter().any(nonzero) {
                return Ok(false);
            }
        }
        let w = V2::new(v[0].clone(), v[1].clone());
        let xy = match self.xi_eta {
            Some(_) => xy_from_xi_eta(&r.k, &w)?,
            None => w,
        };
        let rest = xy.norm2() - &r.rest_threshold.square();
        Ok(decide(&rest, "|v|^2 - S_v^2")? != Sign::Positive)
    }
    fn apply(&self, zone: &Zone, v: &[S]) -> Result<Vec<S>, LawError> {
        let v = V2::new(v[0].clone(), v[1].clone());
        let w = match &self.xi_eta {
            Some(c) => tr_nid_xi_eta_with(c, *zone, &v)?,
            None => self.run.apply(*zone, &v)?,
        };
        Ok(vec![w.x, w.y])
    }
    fn homogeneous(&self) -> bool {
        let r = self.run;
        r.threshold.sign() == Sign::Zero && r.rest_threshold.sign() == Sign::Zero
    }
}

/// Zone names of a trace, for reports.
pub fn zone_names(zones: &[Zone]) -> Vec<String> {
    zones.iter().map(|z| z.to_string()).collect()
}
