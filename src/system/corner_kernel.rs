//! The algorithm of Fassino & Pasquero (2020), Sect. 6 (TA and SA), as a loop on a
//! two-component state that allocates nothing per step: the constants of the chosen form
//! are computed once, the zones go to a buffer the caller owns. It takes the same
//! decisions in the same order as the general driver ([`super::iterate::iterate`]) and
//! computes the same operations, so on a rounded backend it gives the same bits; it is
//! what `audit` runs millions of times, and what [`CornerRun::run`] uses on rounded and
//! enclosure backends.

use super::corner::{CornerRun, Form, Restitution, SpecError, Termination};
use crate::arith::{ArithError, Scalar, Sign};
use crate::law::corner::{
    asymmetric_xy, tr_id_phi, tr_nid_xi_eta_with, tr_nid_xy_with, xi_eta, xy_from_xi_eta,
    zone_xi_eta, zones_phi, XiEtaCoefficients, XyCoefficients, Zone,
};
use crate::law::{decide, LawError, V2};

/// The rule of the run, with its constants.
#[derive(Clone, Debug)]
enum Rule<S> {
    /// (13a–13d) = (18)–(20).
    Xy(XyCoefficients<S>),
    /// (14a–14d), iterated in (ξ̇, η̇).
    XiEta(XiEtaCoefficients<S>),
    /// (6a–6d).
    Phi,
    /// Pasquero (10), CORs ε₁, ε₂.
    Asymmetric(S, S),
}

/// A corner run's constants, ready to run many entrance velocities.
#[derive(Clone, Debug)]
pub struct Kernel<S> {
    k: S,
    rule: Rule<S>,
    threshold: S,
    /// S_v², and whether S_v = 0.
    rest2: S,
    rest_zero: bool,
    max_steps: usize,
}

/// How a kernel run ended: rule applications, termination, the last velocity (ẋ, ẏ).
#[derive(Clone, Debug)]
pub struct KernelEnd<S> {
    pub steps: usize,
    pub end: End,
    pub last: V2<S>,
}

/// A [`Termination`] in two words: the common ends inline, the rare ones (with their
/// strings) boxed, so that a run's result stays in registers.
#[derive(Clone, Debug, PartialEq)]
pub enum End {
    Exit,
    Rest,
    MaxSteps,
    Other(Box<Termination>),
}

impl End {
    /// The short name of the termination ([`Termination::name`]).
    pub fn name(&self) -> &'static str {
        match self {
            End::Exit => "exit",
            End::Rest => "rest",
            End::MaxSteps => "max-steps",
            End::Other(t) => t.name(),
        }
    }

    /// The termination.
    pub fn termination(self) -> Termination {
        match self {
            End::Exit => Termination::Exit,
            End::Rest => Termination::Rest,
            End::MaxSteps => Termination::MaxSteps,
            End::Other(t) => *t,
        }
    }
}

impl<S: Scalar> Kernel<S> {
    /// The constants of `run` (validated).
    pub fn new(run: &CornerRun<S>) -> Result<Self, SpecError> {
        run.validate()?;
        let rule = match (&run.restitution, run.form) {
            (Restitution::Asymmetric(a, b), _) => Rule::Asymmetric(a.clone(), b.clone()),
            (Restitution::Symmetric(e), Form::Xy) => Rule::Xy(XyCoefficients::new(&run.k, e)?),
            (Restitution::Symmetric(e), Form::XiEta) => {
                Rule::XiEta(XiEtaCoefficients::new(&run.k, e)?)
            }
            (Restitution::Symmetric(_), Form::Phi) => Rule::Phi,
        };
        Ok(Kernel {
            k: run.k.clone(),
            rule,
            threshold: run.threshold.clone(),
            rest2: run.rest_threshold.square(),
            rest_zero: run.rest_threshold.sign() == Sign::Zero,
            max_steps: run.max_steps,
        })
    }

    /// ‖v‖ ≤ S_v for the state `w`, with `norm2` its ‖v‖² (with S_v = 0, a component of
    /// decided nonzero sign answers at once).
    #[inline(always)]
    fn at_rest(
        &self,
        w: &V2<S>,
        norm2: impl Fn(&V2<S>) -> Result<S, LawError>,
    ) -> Result<bool, LawError> {
        if self.rest_zero {
            let nonzero = |x: &S| matches!(x.sign(), Sign::Positive | Sign::Negative);
            if nonzero(&w.x) || nonzero(&w.y) {
                return Ok(false);
            }
        }
        let rest = norm2(w)? - &self.rest2;
        Ok(decide(&rest, "|v|^2 - S_v^2")? != Sign::Positive)
    }

    /// Runs the algorithm from `v0` (in (ẋ, ẏ)), appending the zone of every classified
    /// velocity to `zones`. An undecided sign ends the run as
    /// [`Termination::Undecided`]; other law errors are returned.
    pub fn run(&self, v0: V2<S>, zones: &mut Vec<Zone>) -> Result<KernelEnd<S>, LawError> {
        self.run_with(v0, |z| zones.push(z))
    }

    /// [`Kernel::run`], handing the zone of every classified velocity to `record`
    /// (a no-op when only the end matters). The rule is matched once, and each rule has
    /// its own copy of the loop (`Kernel::iterate`); kept out of line, so that the loop
    /// has the registers to itself.
    #[inline(never)]
    pub fn run_with(&self, v0: V2<S>, record: impl FnMut(Zone)) -> Result<KernelEnd<S>, LawError> {
        let k = &self.k;
        let s = &self.threshold;
        let xy_zone = |w: &V2<S>| zone_xi_eta(&xi_eta(k, w), s).map(Ok);
        let xy_norm2 = |w: &V2<S>| Ok(w.norm2());
        match &self.rule {
            Rule::Xy(c) => self.iterate(
                v0,
                xy_zone,
                xy_norm2,
                |z, w| tr_nid_xy_with(c, z, w),
                record,
            ),
            Rule::XiEta(c) => {
                let end = self.iterate(
                    xi_eta(k, &v0),
                    |w| zone_xi_eta(w, s).map(Ok),
                    |w| Ok(xy_from_xi_eta(k, w)?.norm2()),
                    |z, w| tr_nid_xi_eta_with(c, z, w),
                    record,
                )?;
                Ok(KernelEnd {
                    last: xy_from_xi_eta(k, &end.last)?,
                    ..end
                })
            }
            Rule::Phi => self.iterate(
                v0,
                |w| {
                    let zs = zones_phi(k, w)?;
                    Ok(match zs.as_slice() {
                        [z] => Ok(*z),
                        _ => Err(zs),
                    })
                },
                xy_norm2,
                |z, w| tr_id_phi(k, z, w),
                record,
            ),
            Rule::Asymmetric(a, b) => self.iterate(
                v0,
                xy_zone,
                xy_norm2,
                |z, w| asymmetric_xy(k, a, b, z, w),
                record,
            ),
        }
    }

    /// The loop of Sect. 6 on the state `w` of one rule: `classify` gives the zone (or the
    /// zones when the conditions of (6a–6d) give none or several), `norm2` the ‖v‖² of a
    /// state, `apply` the rule. The returned `last` is the state, in the rule's own form.
    #[inline(always)]
    fn iterate(
        &self,
        mut w: V2<S>,
        classify: impl Fn(&V2<S>) -> Result<Result<Zone, Vec<Zone>>, LawError>,
        norm2: impl Fn(&V2<S>) -> Result<S, LawError>,
        apply: impl Fn(Zone, &V2<S>) -> Result<V2<S>, LawError>,
        mut record: impl FnMut(Zone),
    ) -> Result<KernelEnd<S>, LawError> {
        let mut steps = 0usize;
        let end = loop {
            let step = steps;
            if step % 1024 == 1023 {
                crate::budget::checkpoint();
            }
            let zone = match classify(&w) {
                Ok(Ok(z)) => z,
                Ok(Err(zs)) => {
                    break End::Other(Box::new(Termination::Ambiguous { step, zones: zs }))
                }
                Err(e) => break undecided(e, step)?,
            };
            record(zone);
            if zone == Zone::Z0 {
                break End::Exit;
            }
            match self.at_rest(&w, &norm2) {
                Ok(false) => {}
                Ok(true) => break End::Rest,
                Err(e) => break undecided(e, step)?,
            }
            if step >= self.max_steps {
                break End::MaxSteps;
            }
            w = match apply(zone, &w) {
                Ok(next) => next,
                Err(e) => break undecided(e, step)?,
            };
            steps += 1;
        };
        Ok(KernelEnd {
            steps,
            end,
            last: w,
        })
    }
}

/// An undecided sign (or a division by an enclosure of 0) as the run's termination; a
/// division by zero of the rounded loop (this kernel runs no exact backend) as an
/// arithmetic failure of the run.
#[cold]
fn undecided(e: LawError, step: usize) -> Result<End, LawError> {
    let t = match e {
        LawError::Undecided { quantity, lo, hi } => Termination::Undecided {
            step,
            quantity,
            lo,
            hi,
        },
        LawError::Arith(ArithError::DivisionByStraddling { lo, hi }) => Termination::Undecided {
            step,
            quantity: "a denominator".into(),
            lo,
            hi,
        },
        LawError::Arith(ArithError::DivisionByZero) => Termination::ArithFailure {
            step,
            reason: "division by zero: a denominator rounded to 0 (it is nonzero in exact arithmetic, the velocity being nonzero)".into(),
        },
        // a law's denominator decided 0 (e.g. |V1 + V2|^2 of β, zero only at v = 0, which
        // ends the run before): rounding, not a point where the law is undefined
        LawError::Domain(m) if m.contains("denominator") => Termination::ArithFailure {
            step,
            reason: format!(
                "a denominator rounded to 0 ({m}; it is nonzero in exact arithmetic, the velocity being nonzero)"
            ),
        },
        other => return Err(other),
    };
    Ok(End::Other(Box::new(t)))
}
