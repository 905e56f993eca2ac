//! One driver for the iterated piecewise laws of the papers: classify the velocity into a
//! zone (through `sign()`), stop or apply that zone's formula, repeat; with a trace, work
//! limits, and undecided signs reported in place.
//!
//! Used by the disk in a corner (Fassino–Pasquero (2020), Sect. 6: algorithms TA and SA)
//! and by Pasquero's step-by-step procedure for the cradle (Sect. 3.5).

use crate::arith::{ArithError, Scalar};
use crate::law::LawError;

/// The zone of a velocity.
pub enum Classified<Z> {
    /// An exit zone: the run ends here (the zone is recorded).
    Exit(Z),
    /// A zone whose formula applies.
    Apply(Z),
    /// The law's conditions place the velocity in none or several zones.
    Ambiguous(Vec<Z>),
}

/// A piecewise map: zones decided by signs, a formula per zone.
pub trait PiecewiseMap<S: Scalar> {
    type Zone: Clone;
    /// The zone of `v`.
    fn classify(&self, v: &[S]) -> Result<Classified<Self::Zone>, LawError>;
    /// A stop test made before each application (rest ‖v‖ ≤ S_v, "almost equal exit
    /// velocities", …): `true` stops the run with [`End::Rest`].
    fn at_rest(&self, v: &[S]) -> Result<bool, LawError>;
    /// The zone's formula.
    fn apply(&self, zone: &Self::Zone, v: &[S]) -> Result<Vec<S>, LawError>;
    /// The map is positively homogeneous of degree 1 and its zones and stop test are
    /// cones (f(t·v) = t·f(v) for t > 0): the driver may then iterate on a direction and
    /// an exact scale ([`Scalar::split_scale`]), which keeps exact numbers small.
    fn homogeneous(&self) -> bool {
        false
    }
}

/// The work limits of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest number of applications of the map.
    pub max_steps: usize,
    /// The largest number of decimal digits of the exact numbers of a velocity
    /// ([`Scalar::exact_digits`]); `None`: no limit.
    pub max_digits: Option<u64>,
    /// Keep every velocity (costly for long exact runs), not only the last.
    pub record: bool,
}

/// Why a run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum End<Z> {
    /// The velocity reached an exit zone.
    Exit,
    /// The stop test [`PiecewiseMap::at_rest`] held.
    Rest,
    /// `max_steps` applications were made.
    MaxSteps,
    /// The exact numbers outgrew `max_digits`.
    WorkLimit { step: usize, digits: u64 },
    /// A sign could not be decided (an enclosure straddles 0).
    Undecided {
        step: usize,
        quantity: String,
        lo: String,
        hi: String,
    },
    /// The conditions of the law hold for no zone or for several.
    Ambiguous { step: usize, zones: Vec<Z> },
}

/// A run: the zone of every classified velocity, every velocity (if recorded), the
/// number of applications, why it ended, and the last velocity.
#[derive(Clone, Debug)]
pub struct Run<S, Z> {
    pub zones: Vec<Z>,
    pub velocities: Vec<Vec<S>>,
    pub steps: usize,
    pub end: End<Z>,
    pub last: Vec<S>,
}

/// The state of a run: v = scale·w (scale `None` is 1).
struct State<S, Z> {
    run: Run<S, Z>,
    w: Vec<S>,
    scale: Option<S>,
}

impl<S: Scalar, Z> State<S, Z> {
    fn velocity(&self) -> Vec<S> {
        match &self.scale {
            None => self.w.clone(),
            Some(t) => self.w.iter().map(|x| t.mul_r(x)).collect(),
        }
    }

    fn finish(mut self, end: End<Z>) -> Run<S, Z> {
        self.run.last = self.velocity();
        self.run.end = end;
        self.run
    }

    /// A failed sign decision ends the run as `Undecided`; other errors propagate.
    fn undecided(self, e: LawError) -> Result<Run<S, Z>, LawError> {
        let step = self.run.steps;
        match e {
            LawError::Undecided { quantity, lo, hi } => Ok(self.finish(End::Undecided {
                step,
                quantity,
                lo,
                hi,
            })),
            LawError::Arith(ArithError::DivisionByStraddling { lo, hi }) => {
                Ok(self.finish(End::Undecided {
                    step,
                    quantity: "a denominator".into(),
                    lo,
                    hi,
                }))
            }
            other => Err(other),
        }
    }

    /// w ← the map's output, split into scale and direction in a homogeneous run
    /// (the whole content is removed every 16 steps, its power of two at every step).
    fn advance(&mut self, mut next: Vec<S>, homogeneous: bool) {
        self.run.steps += 1;
        if homogeneous {
            if let Some(t) = S::split_scale(&mut next, self.run.steps.is_multiple_of(16)) {
                self.scale = Some(match self.scale.take() {
                    Some(s) => s * &t,
                    None => t,
                });
            }
        }
        self.w = next;
    }
}

/// What one step of a piecewise map does to a velocity.
#[derive(Clone, Debug, PartialEq)]
pub enum Stepped<S, Z> {
    /// The velocity is in an exit zone: the run ends.
    Exit(Z),
    /// The stop test holds: the run ends (zone of the velocity).
    Rest(Z),
    /// The conditions place the velocity in none or several zones.
    Ambiguous(Vec<Z>),
    /// The zone and the map's value: the next velocity.
    Next(Z, Vec<S>),
}

/// One step of [`iterate`] from `v`, in the same order (classify, the stop test, the
/// zone's formula) and without limits or scaling: the runs of [`iterate`] are the
/// sequences v, step(v), … until a step that is not [`Stepped::Next`] (a limit aside).
/// A claim about every step of a run is proved from this step by induction
/// (`claims::induction`).
pub fn step<S: Scalar, M: PiecewiseMap<S>>(
    map: &M,
    v: &[S],
) -> Result<Stepped<S, M::Zone>, LawError> {
    let zone = match map.classify(v)? {
        Classified::Apply(z) => z,
        Classified::Exit(z) => return Ok(Stepped::Exit(z)),
        Classified::Ambiguous(zones) => return Ok(Stepped::Ambiguous(zones)),
    };
    if map.at_rest(v)? {
        return Ok(Stepped::Rest(zone));
    }
    let next = map.apply(&zone, v)?;
    Ok(Stepped::Next(zone, next))
}

/// Iterates `map` from `v0` until an exit zone, the stop test, or a limit.
pub fn iterate<S: Scalar, M: PiecewiseMap<S>>(
    map: &M,
    v0: Vec<S>,
    limits: &Limits,
) -> Result<Run<S, M::Zone>, LawError> {
    let homogeneous = map.homogeneous();
    let mut st = State {
        run: Run {
            zones: Vec::new(),
            velocities: Vec::new(),
            steps: 0,
            end: End::Exit,
            last: Vec::new(),
        },
        w: v0,
        scale: None,
    };
    if limits.record {
        st.run.velocities.push(st.w.clone());
    }
    loop {
        crate::budget::checkpoint();
        let step = st.run.steps;
        let zone = match map.classify(&st.w) {
            Ok(Classified::Apply(z)) => z,
            Ok(Classified::Exit(z)) => {
                st.run.zones.push(z);
                return Ok(st.finish(End::Exit));
            }
            Ok(Classified::Ambiguous(zones)) => {
                return Ok(st.finish(End::Ambiguous { step, zones }))
            }
            Err(e) => return st.undecided(e),
        };
        st.run.zones.push(zone.clone());
        match map.at_rest(&st.w) {
            Ok(false) => {}
            Ok(true) => return Ok(st.finish(End::Rest)),
            Err(e) => return st.undecided(e),
        }
        if step >= limits.max_steps {
            return Ok(st.finish(End::MaxSteps));
        }
        if let Some(limit) = limits.max_digits {
            let digits: u64 = st.w.iter().map(Scalar::exact_digits).sum();
            if digits > limit {
                return Ok(st.finish(End::WorkLimit { step, digits }));
            }
        }
        let next = match map.apply(&zone, &st.w) {
            Ok(next) => next,
            Err(e) => return st.undecided(e),
        };
        st.advance(next, homogeneous);
        if limits.record {
            let v = st.velocity();
            st.run.velocities.push(v);
        }
    }
}
