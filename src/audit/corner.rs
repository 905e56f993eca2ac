//! `impactkit audit corner`: the disk in a corner (Fassino & Pasquero (2020), Sect. 6,
//! algorithms TA and SA, every form of the rules, and Pasquero's asymmetric rule (10))
//! over a domain of α, the entrance direction φ (v₀ = s·(cos φ, sin φ)), the speed s and
//! the CORs.

use super::domain::{Axis, Frac, Points, Sampling};
use super::record::{self, Audited, Record};
use super::{Config, Execution, Param};
use crate::arith::backend::{Backend, RunScalar};
use crate::arith::{Num, Scalar};
use crate::input::InputError;
use crate::law::corner::Zone;
use crate::law::V2;
use crate::report::corner::CornerRunReport;
use crate::system::corner::Form;
use crate::system::corner_kernel::Kernel;
use crate::system::corner_spec::{Algorithm, CornerSpec, RestitutionSpec};
use crate::system::SpecError;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The CORs of the domain.
#[derive(Clone, Debug)]
pub enum Cors {
    /// `--eps`: one COR for both walls.
    Symmetric(Axis),
    /// `--eps1`, `--eps2`: Pasquero's rule (10).
    Asymmetric(Axis, Axis),
}

/// How the domain gives the entrance velocity v₀.
#[derive(Clone, Debug)]
pub enum Entrance {
    /// v₀ = s·(cos φ, sin φ): `--direction` φ (may name `alpha`) and `--speed` s.
    Polar { direction: Axis, speed: Axis },
    /// v₀ = (ẋ, ẏ): `--v0 "X,Y"`, each component a value or a range (with α = atan(q)
    /// and rational components, every reference is exact).
    Cartesian { x: Axis, y: Axis },
}

/// A corner audit as the command line states it.
#[derive(Clone, Debug)]
pub struct CornerAudit {
    /// α, k = tan α.
    pub alpha: Axis,
    /// The entrance velocity v₀.
    pub entrance: Entrance,
    pub cors: Cors,
    pub algorithm: Algorithm,
    /// S (SA): a value, range or list (`"0,4.5e-16,1e-12"`: for which S does SA agree?).
    pub threshold: Option<Axis>,
    /// S_v (SA).
    pub rest_threshold: Option<Axis>,
    /// The algorithm of the reference (default: the audited one). `ta` against an audited
    /// `sa` is the comparison of Fassino–Pasquero Sect. 6: where do SA in floating point
    /// with threshold S and the theoretical algorithm in exact arithmetic agree.
    pub reference_algorithm: Algorithm,
    pub form: Form,
    /// N_max.
    pub max_steps: usize,
    /// The work limit of exact references (`--max-digits`).
    pub max_digits: u64,
    /// The arithmetic under audit: `f64` or `mpfr:BITS`.
    pub audited: Backend,
    /// The largest precision of the certified ladder; `None`: `--reference none`.
    pub reference: Option<u32>,
    /// The time one sample's reference may take.
    pub sample_seconds: f64,
}

/// A corner audit's options as text, as the command line and the Python package take
/// them; [`CornerOptions::build`] checks and parses them into a [`CornerAudit`].
#[derive(Clone, Debug)]
///
/// # Example
///
/// ```
/// use impactkit::arith::backend::Backend;
/// use impactkit::audit::corner::{CornerOptions, Outcome};
/// use impactkit::audit::domain::{Sampling, Shard};
/// use impactkit::audit::summary::Summary;
/// use impactkit::audit::Execution;
/// use impactkit::system::corner::Form;
/// use impactkit::system::corner_spec::Algorithm;
/// let audit = CornerOptions {
///     alpha: "pi/6".into(), direction: Some("0..alpha".into()), v0: None, speed: None,
///     eps: Some("1".into()), eps1: None, eps2: None, algorithm: Algorithm::Ta,
///     threshold: None, rest_threshold: None, reference_algorithm: None, form: Form::Xy,
///     max_steps: 10_000, max_digits: 20_000, audited: Backend::F64, reference: Some(3392),
///     sample_seconds: 10.0,
/// }.build().unwrap();
/// let exec = Execution { jobs: Some(1), shard: Shard::ALL, progress: false };
/// let (_, outcome) = audit.run(Sampling::Grid(vec![5]), &exec, true).unwrap();
/// let Outcome::Records(records) = outcome else { unreachable!() };
/// let summary = Summary::of(&records);
/// // at φ = α the entrance velocity runs along wall S1, and f64 sees both walls hit
/// assert_eq!((summary.samples, summary.different_zones), (5, 1));
/// ```
pub struct CornerOptions {
    /// `--alpha`: a value, range `a..b` or list `a|b|c` (or `a,b,c`).
    pub alpha: String,
    /// `--direction` φ of v₀ (polar entrance, with `speed`).
    pub direction: Option<String>,
    /// `--v0 "X,Y"` (Cartesian entrance), instead of `direction`.
    pub v0: Option<String>,
    /// `--speed` (default 1).
    pub speed: Option<String>,
    /// `--eps`, or `eps1` and `eps2` (Pasquero's rule (10)).
    pub eps: Option<String>,
    pub eps1: Option<String>,
    pub eps2: Option<String>,
    pub algorithm: Algorithm,
    pub threshold: Option<String>,
    pub rest_threshold: Option<String>,
    /// Default: `algorithm`.
    pub reference_algorithm: Option<Algorithm>,
    pub form: Form,
    pub max_steps: usize,
    pub max_digits: u64,
    pub audited: Backend,
    /// `None`: `--reference none`.
    pub reference: Option<u32>,
    pub sample_seconds: f64,
}

impl CornerOptions {
    /// The audit these options state; errors name the option (`--alpha`, `--v0`, …).
    pub fn build(&self) -> Result<CornerAudit, InputError> {
        let axis = |s: &str, o: &str| Axis::parse(s, o);
        let opt_axis = |s: &Option<String>, o: &str| s.as_deref().map(|s| axis(s, o)).transpose();
        let cors = match (&self.eps, &self.eps1, &self.eps2) {
            (Some(e), _, _) => Cors::Symmetric(axis(e, "--eps")?),
            (None, Some(a), Some(b)) => Cors::Asymmetric(axis(a, "--eps1")?, axis(b, "--eps2")?),
            _ => {
                return Err(InputError::new(
                    "--eps",
                    "give --eps, or both --eps1 and --eps2",
                ))
            }
        };
        if self.algorithm == Algorithm::Ta
            && (self.threshold.is_some() || self.rest_threshold.is_some())
        {
            return Err(InputError::new(
                "--threshold",
                "TA has S = S_v = 0 (Sect. 6); thresholds need --algorithm sa",
            ));
        }
        let alpha = axis(&self.alpha, "--alpha")?;
        let entrance = match (&self.direction, &self.v0) {
            (Some(d), _) => Entrance::Polar {
                direction: axis(d, "--direction")?,
                speed: axis(self.speed.as_deref().unwrap_or("1"), "--speed")?,
            },
            (None, Some(v)) => {
                let parts = crate::lang::split_list(v);
                let [x, y] = parts.as_slice() else {
                    return Err(InputError::new(
                        "--v0",
                        format!(
                            "expected two components \"X,Y\" (each a value or a range a..b), got {}",
                            parts.len()
                        ),
                    ));
                };
                Entrance::Cartesian {
                    x: axis(x, "--v0")?,
                    y: axis(y, "--v0")?,
                }
            }
            (None, None) => return Err(InputError::new("--direction", "give --direction or --v0")),
        };
        Ok(CornerAudit {
            alpha,
            entrance,
            cors,
            algorithm: self.algorithm,
            threshold: match (self.algorithm, &self.threshold) {
                (Algorithm::Sa, None) => Some(Axis::Value(
                    crate::system::corner_spec::DEFAULT_SA_THRESHOLD.into(),
                )),
                (_, t) => opt_axis(t, "--threshold")?,
            },
            rest_threshold: opt_axis(&self.rest_threshold, "--rest-threshold")?,
            reference_algorithm: self.reference_algorithm.unwrap_or(self.algorithm),
            form: self.form,
            max_steps: self.max_steps,
            max_digits: self.max_digits,
            audited: self.audited,
            reference: self.reference,
            sample_seconds: self.sample_seconds,
        })
    }
}

fn form_name(f: Form) -> &'static str {
    match f {
        Form::Xy => "xy",
        Form::Phi => "phi",
        Form::XiEta => "xieta",
    }
}

fn axis_text(a: &Axis) -> String {
    match a {
        Axis::Value(v) => v.clone(),
        Axis::Range { lo, hi } => format!("{lo}..{hi}"),
        Axis::List(xs) => xs.join(","),
    }
}

impl CornerAudit {
    /// The parameters, in the order of the options: α, φ, s, then the CORs.
    pub fn params(&self) -> Vec<Param> {
        let mut p = vec![Param {
            name: "alpha",
            option: "--alpha",
            label: "alpha (rad)",
            axis: self.alpha.clone(),
        }];
        match &self.entrance {
            Entrance::Polar { direction, speed } => {
                p.push(Param {
                    name: "direction",
                    option: "--direction",
                    label: "direction phi of v0 (rad)",
                    axis: direction.clone(),
                });
                p.push(Param {
                    name: "speed",
                    option: "--speed",
                    label: "speed |v0|",
                    axis: speed.clone(),
                });
            }
            Entrance::Cartesian { x, y } => {
                p.push(Param {
                    name: "v0x",
                    option: "--v0",
                    label: "x' of v0",
                    axis: x.clone(),
                });
                p.push(Param {
                    name: "v0y",
                    option: "--v0",
                    label: "y' of v0",
                    axis: y.clone(),
                });
            }
        }
        match &self.cors {
            Cors::Symmetric(e) => p.push(Param {
                name: "eps",
                option: "--eps",
                label: "COR eps",
                axis: e.clone(),
            }),
            Cors::Asymmetric(a, b) => {
                p.push(Param {
                    name: "eps1",
                    option: "--eps1",
                    label: "COR eps1 (wall S1)",
                    axis: a.clone(),
                });
                p.push(Param {
                    name: "eps2",
                    option: "--eps2",
                    label: "COR eps2 (wall S2)",
                    axis: b.clone(),
                });
            }
        }
        if let Some(t) = &self.threshold {
            p.push(Param {
                name: "threshold",
                option: "--threshold",
                label: "threshold S",
                axis: t.clone(),
            });
        }
        if let Some(t) = &self.rest_threshold {
            p.push(Param {
                name: "rest_threshold",
                option: "--rest-threshold",
                label: "rest threshold S_v",
                axis: t.clone(),
            });
        }
        p
    }

    /// The input named `name` (`None`: not a parameter of this audit).
    fn input<'a>(&self, inputs: &'a [String], name: &str) -> Option<&'a String> {
        self.params()
            .iter()
            .position(|p| p.name == name)
            .map(|i| &inputs[i])
    }

    /// The reference's run at `inputs`: the audited run, with the reference's algorithm
    /// (TA drops the thresholds).
    fn reference_spec(&self, inputs: &[String]) -> CornerSpec {
        let mut spec = self.spec(inputs);
        if self.reference_algorithm == Algorithm::Ta {
            spec.algorithm = Algorithm::Ta;
            spec.threshold = None;
            spec.rest_threshold = None;
        }
        spec
    }

    /// The corner run at `inputs` (α, φ, s, CORs as expressions).
    fn spec(&self, inputs: &[String]) -> CornerSpec {
        let (phi, s) = (&inputs[1], &inputs[2]);
        let v0 = match self.entrance {
            Entrance::Cartesian { .. } => format!("{phi},{s}"),
            Entrance::Polar { .. } if s == "1" => format!("cos({phi}),sin({phi})"),
            Entrance::Polar { .. } => format!("({s})*cos({phi}),({s})*sin({phi})"),
        };
        CornerSpec {
            alpha: inputs[0].clone(),
            v0,
            restitution: match self.cors {
                Cors::Symmetric(_) => RestitutionSpec::Symmetric(inputs[3].clone()),
                Cors::Asymmetric(..) => {
                    RestitutionSpec::Asymmetric(inputs[3].clone(), inputs[4].clone())
                }
            },
            algorithm: self.algorithm,
            threshold: self.input(inputs, "threshold").cloned(),
            rest_threshold: self.input(inputs, "rest_threshold").cloned(),
            max_steps: self.max_steps,
            form: self.form,
            record_velocities: false,
            max_digits: Some(self.max_digits),
        }
    }

    /// The `impactkit corner` command of one sample in the audited arithmetic.
    fn reproduce(&self, spec: &CornerSpec) -> String {
        let q = |s: &str| format!("'{s}'");
        let mut c = format!(
            "impactkit corner --alpha {} --v0 {}",
            q(&spec.alpha),
            q(&spec.v0)
        );
        match &spec.restitution {
            RestitutionSpec::Symmetric(e) => c += &format!(" --eps {}", q(e)),
            RestitutionSpec::Asymmetric(a, b) => c += &format!(" --eps1 {} --eps2 {}", q(a), q(b)),
        }
        if self.algorithm == Algorithm::Sa {
            c += " --algorithm sa";
            if let Some(t) = &spec.threshold {
                c += &format!(" --threshold {}", q(t));
            }
            if let Some(t) = &spec.rest_threshold {
                c += &format!(" --rest-threshold {}", q(t));
            }
        }
        if self.form != Form::Xy {
            c += &format!(" --form {}", form_name(self.form));
        }
        c + &format!(" --max-steps {} --arith {}", self.max_steps, self.audited)
    }

    /// The options that define this audit (for the summary and for merging shards).
    pub fn config(&self, sampling: &Sampling, points: u64) -> Config {
        let mut o = BTreeMap::new();
        for p in self.params() {
            // `--v0` holds two parameters: "X,Y"
            o.entry(p.option.to_string())
                .and_modify(|v: &mut String| *v = format!("{v},{}", axis_text(&p.axis)))
                .or_insert_with(|| axis_text(&p.axis));
        }
        o.insert(
            "--algorithm".into(),
            format!("{:?}", self.algorithm).to_lowercase(),
        );
        o.insert(
            "--reference-algorithm".into(),
            format!("{:?}", self.reference_algorithm).to_lowercase(),
        );
        o.insert("--form".into(), form_name(self.form).into());
        o.insert("--max-steps".into(), self.max_steps.to_string());
        super::common_options(
            &mut o,
            &super::Arithmetics {
                audited: self.audited,
                reference: self.reference,
                max_digits: self.max_digits,
                sample_seconds: self.sample_seconds,
            },
            sampling,
        );
        let params = self.params();
        let (axes, pi_axes) = super::axes_of(&params);
        Config {
            law: "corner".into(),
            options: o,
            axes,
            points,
            pi_axes,
        }
    }

    /// Checks the options and the whole domain (every range non-empty; α in (0, π/2),
    /// CORs in [0, 1], thresholds ≥ 0 at every vertex), then runs every point of the shard.
    pub fn run(
        &self,
        sampling: Sampling,
        exec: &Execution,
        records: bool,
    ) -> Result<(Config, Outcome), InputError> {
        super::check_audited(self.audited)?;
        let params = self.params();
        super::check_domain(&params, |inputs| {
            self.spec(inputs)
                .build::<crate::arith::MpInterval>(&128)
                .map(|_| ())
                .map_err(|e| match e {
                    SpecError::Input(i) => i,
                    SpecError::Law(l) => InputError::new("--alpha/--eps", l),
                })
        })?;
        let points = Points::new(sampling.clone(), super::shapes(&params))?;
        let records = records || self.reference.is_some();
        super::check_records(&points, exec, records, &sampling)?;
        let config = self.config(&sampling, points.len());
        struct Job<'a>(
            &'a CornerAudit,
            &'a Points,
            &'a Execution,
            &'a [Param],
            bool,
        );
        impl RunScalar for Job<'_> {
            type Out = Result<Outcome, InputError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                let Job(audit, points, exec, params, records) = self;
                let fast = FastDirection::<S>::new(audit, params, ctx)?;
                let fast = fast.as_ref();
                if !records {
                    return super::drive_tally(
                        points,
                        exec,
                        Scratch::<S>::default,
                        |scratch, t| {
                            let end =
                                audit.audited_run::<S>(scratch, ctx, params, fast, t, false)?;
                            Ok((end.steps as u64, end.end.name()))
                        },
                    )
                    .map(Outcome::Tally);
                }
                super::drive(points, exec, Scratch::<S>::default, |scratch, i, t| {
                    audit.sample::<S>(scratch, ctx, params, fast, i, t)
                })
                .map(Outcome::Records)
            }
        }
        let out = self
            .audited
            .run(Job(self, &points, exec, &params, records))?;
        Ok((config, out))
    }

    /// The audited run of the point `t`: the kernel of its (α, CORs) is built once per
    /// worker when they are single values, and the entrance velocity is computed without
    /// the parser when it can be ([`FastDirection`]).
    #[inline(always)]
    fn audited_run<S: Scalar>(
        &self,
        scratch: &mut Scratch<S>,
        ctx: &S::Ctx,
        params: &[Param],
        fast: Option<&FastDirection<S>>,
        t: &[Frac],
        record_zones: bool,
    ) -> Result<crate::system::corner_kernel::KernelEnd<S>, InputError> {
        let constant = !self.alpha.varies()
            && !self.threshold.as_ref().is_some_and(Axis::varies)
            && !self.rest_threshold.as_ref().is_some_and(Axis::varies)
            && match &self.cors {
                Cors::Symmetric(e) => !e.varies(),
                Cors::Asymmetric(a, b) => !a.varies() && !b.varies(),
            };
        let spec = (!constant || fast.is_none() || scratch.kernel.is_none())
            .then(|| self.spec(&super::inputs_at(params, t)));
        if let Some(spec) = &spec {
            let key = format!(
                "{}|{:?}|{:?}|{:?}",
                spec.alpha, spec.restitution, spec.threshold, spec.rest_threshold
            );
            if scratch.key.as_deref() != Some(key.as_str()) {
                let (run, _) = spec.build::<S>(ctx).map_err(into_input)?;
                scratch.kernel = Some(Kernel::new(&run).map_err(into_input)?);
                scratch.key = Some(key);
            }
        }
        let v0 = match (fast, &spec) {
            (Some(f), _) => f
                .v0(t, ctx)
                .map_err(|e| InputError::new("--direction", e))?,
            (None, Some(spec)) => spec.build::<S>(ctx).map_err(into_input)?.1,
            (None, None) => unreachable!("a spec is built whenever there is no fast path"),
        };
        let kernel = scratch.kernel.as_ref().expect("built above");
        let end = if record_zones {
            scratch.zones.clear();
            kernel.run(v0, &mut scratch.zones)
        } else {
            kernel.run_with(v0, |_| ())
        };
        end.map_err(|e| InputError::new("--arith", e))
    }

    /// One sample: the audited run, the certified reference, the comparison.
    fn sample<S: Scalar>(
        &self,
        scratch: &mut Scratch<S>,
        ctx: &S::Ctx,
        params: &[Param],
        fast: Option<&FastDirection<S>>,
        index: u64,
        t: &[Frac],
    ) -> Result<Record, InputError> {
        let end = self.audited_run::<S>(scratch, ctx, params, fast, t, true)?;
        let inputs = super::inputs_at(params, t);
        let spec = self.spec(&inputs);
        let audited_nums = [end.last.x.num(), end.last.y.num()];
        let audited = Audited {
            steps: end.steps,
            termination: end.end.name().to_string(),
            final_state: audited_nums.iter().map(super::record::Value::of).collect(),
        };
        let coords = params
            .iter()
            .filter(|p| p.axis.varies())
            .zip(t)
            .map(|(p, _)| {
                let i = params
                    .iter()
                    .position(|q| q.name == p.name)
                    .expect("listed");
                crate::lang::eval_str::<f64>(&inputs[i], &()).unwrap_or(f64::NAN)
            })
            .collect();
        let mut rec = Record {
            index,
            coords,
            inputs: params
                .iter()
                .map(|p| p.name.to_string())
                .zip(inputs.iter().cloned())
                .collect(),
            audited,
            reference: None,
            undecided: None,
            comparison: None,
            reproduce: self.reproduce(&spec),
        };
        let Some(max_bits) = self.reference else {
            return Ok(rec);
        };
        let deadline = Instant::now() + Duration::from_secs_f64(self.sample_seconds);
        let reference_spec = self.reference_spec(&inputs);
        let report = match crate::budget::with_deadline(deadline, || {
            reference_report(&reference_spec, max_bits)
        }) {
            None => {
                rec.undecided = Some(format!(
                    "the certified reference took more than {} s (--sample-seconds)",
                    self.sample_seconds
                ));
                return Ok(rec);
            }
            Some(Err(SpecError::Input(e))) => return Err(e),
            Some(Err(SpecError::Law(e))) => {
                rec.undecided = Some(e.to_string());
                return Ok(rec);
            }
            Some(Ok(r)) => r,
        };
        let by = report.certified_by.clone().flatten();
        let by = match (by, &report.work_limit) {
            (Some(by), None) => by,
            (_, Some(w)) => {
                rec.undecided = Some(w.clone());
                return Ok(rec);
            }
            (None, None) => {
                let why = report
                    .attempts
                    .iter()
                    .flatten()
                    .last()
                    .map_or("no arithmetic of the ladder decided".to_string(), |a| {
                        format!("{}: {}", a.arith, a.outcome)
                    });
                rec.undecided = Some(why);
                return Ok(rec);
            }
        };
        let names: Vec<&str> = scratch.zones.iter().map(zone_name).collect();
        record::compare(
            &mut rec,
            &names,
            &audited_nums,
            record::ReferenceRun {
                certified_by: by,
                zones: &report.zones,
                steps: report.steps,
                termination: &report.termination,
                final_state: &report.final_velocity,
            },
        );
        Ok(rec)
    }
}

/// Precision of the first certified attempt: tight enough that the distance to an `f64`
/// result is measured, not the reference's own width.
const FIRST_BITS: u32 = 128;

/// The certified reference: MPFR intervals at [`FIRST_BITS`] bits; if a sign stays
/// undecided there, the whole ladder of [`crate::certify`] (53-bit intervals, MPFR
/// intervals up to `max_bits`, exact, Q(√d)).
fn reference_report(spec: &CornerSpec, max_bits: u32) -> Result<CornerRunReport, SpecError> {
    let first = spec.report(Backend::MpInterval(FIRST_BITS));
    match first {
        Ok(mut r) if r.undecided.is_none() && r.work_limit.is_none() => {
            r.certified_by = Some(Some(Backend::MpInterval(FIRST_BITS).to_string()));
            Ok(r)
        }
        _ => spec.certified(max_bits),
    }
}

fn zone_name(z: &Zone) -> &'static str {
    match z {
        Zone::Z0 => "Z0",
        Zone::Z1 => "Z1",
        Zone::Z2 => "Z2",
        Zone::Z12 => "Z12",
    }
}

fn into_input(e: SpecError) -> InputError {
    match e {
        SpecError::Input(i) => i,
        SpecError::Law(l) => InputError::new("--alpha/--eps", l),
    }
}

/// The samples of a run: full records, or (with `--reference none` and no output
/// files) only what the summary needs.
pub enum Outcome {
    Records(Vec<Record>),
    Tally(super::Tally),
}

/// A worker's state: the kernel of the last (α, CORs) and the zone buffer.
struct Scratch<S> {
    key: Option<String>,
    kernel: Option<Kernel<S>>,
    zones: Vec<Zone>,
}

impl<S> Default for Scratch<S> {
    fn default() -> Self {
        Scratch {
            key: None,
            kernel: None,
            zones: Vec::with_capacity(64),
        }
    }
}

/// The entrance velocity without the expression parser, when α and s are single values
/// and φ a range or list: the same operations as the input language performs on the
/// sample's expressions (`(lo)+((hi)-(lo))*(n/d)`, then `cos`, `sin`), hence the same
/// value in every backend.
struct FastDirection<S> {
    lo: S,
    hi: S,
    list: Vec<S>,
    /// `Some(axis)`: the direction axis.
    axis: Axis,
    /// The position of φ among the varying axes.
    slot: usize,
}

impl<S: Scalar> FastDirection<S> {
    fn new(
        audit: &CornerAudit,
        params: &[Param],
        ctx: &S::Ctx,
    ) -> Result<Option<Self>, InputError> {
        let Entrance::Polar { direction, speed } = &audit.entrance else {
            return Ok(None);
        };
        if audit.alpha.varies()
            || !matches!(speed, Axis::Value(s) if s == "1")
            || !direction.varies()
        {
            return Ok(None);
        }
        let alpha = match &audit.alpha {
            Axis::Value(a) => a.clone(),
            _ => return Ok(None),
        };
        let sub = |s: &str| super::domain::substitute(s, "alpha", &alpha);
        let val = |s: &str| crate::input::value::<S>(&sub(s), "--direction", ctx);
        let slot = params.iter().take(1).filter(|p| p.axis.varies()).count();
        Ok(Some(match direction {
            Axis::Range { lo, hi } => FastDirection {
                lo: val(lo)?,
                hi: val(hi)?,
                list: Vec::new(),
                axis: direction.clone(),
                slot,
            },
            Axis::List(xs) => {
                let list = xs.iter().map(|x| val(x)).collect::<Result<Vec<_>, _>>()?;
                FastDirection {
                    lo: list[0].clone(),
                    hi: list[0].clone(),
                    list,
                    axis: direction.clone(),
                    slot,
                }
            }
            Axis::Value(_) => return Ok(None),
        }))
    }

    fn v0(&self, t: &[Frac], ctx: &S::Ctx) -> Result<V2<S>, crate::arith::ArithError> {
        let t = &t[self.slot];
        let phi = match &self.axis {
            Axis::List(xs) => self.list[t.index(xs.len())].clone(),
            _ if t.num == 0 => self.lo.clone(),
            _ if t.num == t.den => self.hi.clone(),
            _ => {
                let tt =
                    S::from_i64(t.num as i64, ctx).checked_div(&S::from_i64(t.den as i64, ctx))?;
                self.lo.add_r(&self.hi.sub_r(&self.lo).mul_r(&tt))
            }
        };
        Ok(V2::new(phi.cos()?, phi.sin()?))
    }
}

/// `Num` of a velocity component (for tests).
pub fn num_of<S: Scalar>(x: &S) -> Num {
    x.num()
}
