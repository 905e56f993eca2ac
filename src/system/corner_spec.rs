//! A corner run described by input-language strings, built on any backend; the
//! certified run (interval → MPFR intervals at rising precision → exact).

use super::corner::Termination;
use super::corner::{CornerRun, Form, Restitution, SpecError, Trace};
use super::corner_longrun::{long_run, LongRun, LongRunLimits, NoCertificate, Outcome};
use crate::arith::backend::{Backend, RunScalar};
use crate::arith::Num;
use crate::arith::{Kind, Scalar};
use crate::lang::split_list;
use crate::law::V2;
use crate::report::corner::LongRunCertificate;
use crate::report::corner::{AmbiguousAt, UndecidedAt};
use crate::report::corner::{CornerRunReport, SymbolicStepReport, ZoneStep};
use crate::report::nums;
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
///
/// # Example
///
/// ```
/// use impactkit::certify::Arith;
/// use impactkit::system::corner::Form;
/// use impactkit::system::corner_spec::{Algorithm, CornerSpec, RestitutionSpec};
/// let spec = CornerSpec {
///     alpha: "pi/4".into(), v0: "1,1/2".into(), restitution: RestitutionSpec::Symmetric("1".into()),
///     algorithm: Algorithm::Ta, threshold: None, rest_threshold: None, max_steps: 10_000,
///     form: Form::Xy, record_velocities: false, max_digits: None,
/// };
/// let r = spec.report_arith(Arith::parse("exact", 0).unwrap()).unwrap();
/// assert_eq!(r.zones, ["Z12", "Z0"]);
/// assert_eq!(r.final_velocity.iter().map(|n| n.exact_expr().unwrap()).collect::<Vec<_>>(), ["-1", "-1/2"]);
/// ```
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
    /// The work limit of exact runs ([`CornerRun::max_digits`]).
    pub max_digits: Option<u64>,
}

/// `--max-steps unlimited`: no N_max; `--arith certified` decides with the long-run
/// certificate ([`super::corner_longrun`]).
pub const UNLIMITED: usize = usize::MAX;

/// The largest number of entrance velocities of one `--v0 "x1,y1;x2,y2;…"`.
pub const MAX_BATCH: usize = 10_000;

/// The paper's threshold S = 4.5·10⁻¹⁶ (Sect. 6, example).
pub const DEFAULT_SA_THRESHOLD: &str = "4.5e-16";

/// Polynomial term products one `--arith symbolic` run may spend.
pub const SYMBOLIC_WORK: u64 = 5_000_000;

pub(crate) fn value<S: Scalar>(
    src: &str,
    option: &'static str,
    ctx: &S::Ctx,
) -> Result<S, SpecError> {
    Ok(crate::input::value::<S>(src, option, ctx)?)
}

impl CornerSpec {
    /// Builds the run and the initial velocity on backend `S`.
    pub fn build<S: Scalar>(&self, ctx: &S::Ctx) -> Result<(CornerRun<S>, V2<S>), SpecError> {
        crate::input::check_open_range(&self.alpha, "--alpha", "0", "pi/2")?;
        let k = value::<S>(&format!("tan({})", self.alpha), "--alpha", ctx)?;
        let parts = split_list(&self.v0);
        if parts.len() != 2 {
            return Err(super::input(
                "--v0",
                format!("expected two components \"EXPR,EXPR\", got {}", parts.len()),
            ));
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
                    return Err(super::input(
                        "--threshold",
                        "TA has S = S_v = 0 (Sect. 6); thresholds need --algorithm sa",
                    ));
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
        crate::arith::check_compatible(&all)
            .map_err(|e| crate::input::InputError::from_arith("--alpha/--v0/--eps", &e))?;
        let run = CornerRun {
            k,
            restitution,
            threshold,
            rest_threshold: rest,
            max_steps: self.max_steps,
            form: self.form,
            record_velocities: self.record_velocities,
            max_digits: self.max_digits,
        };
        Ok((run, v0))
    }

    /// Builds and runs on backend `S`.
    pub fn run<S: Scalar>(&self, ctx: &S::Ctx) -> Result<Trace<S>, SpecError> {
        let (run, v0) = self.build::<S>(ctx)?;
        run.run(v0)
    }

    /// Runs on a backend chosen at run time.
    pub fn report(&self, backend: Backend) -> Result<CornerRunReport, SpecError> {
        struct Job<'a>(&'a CornerSpec, Backend);
        impl RunScalar for Job<'_> {
            type Out = Result<CornerRunReport, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                let trace = self.0.run::<S>(ctx)?;
                Ok(CornerRunReport::of(&trace, &self.1.to_string()))
            }
        }
        backend.run(Job(self, backend))
    }

    /// The certified run ([`crate::certify`]): 53-bit intervals; if a zone decision is
    /// undecided, MPFR intervals at doubled precision up to `max_bits`; then exact
    /// arithmetic where the inputs are exactly representable (rationals, or one field
    /// Q(√d)). Reports which arithmetic decided every zone, and every attempt.
    ///
    /// TA with one COR ([`CornerSpec::long_run_eligible`]) also has the long-run
    /// certificate ([`super::corner_longrun`]): with `--max-steps unlimited` it decides
    /// first (never exits, or the exact exit step), and when it finds none the ladder runs
    /// up to [`crate::input::caps::STEPS`]'s largest value; with a finite N_max the ladder
    /// runs as before, and only a run it leaves undecided (or at its work limit) asks the
    /// certificate, which replaces the report when it proves an exit within N_max steps,
    /// and is attached otherwise.
    pub fn certified(&self, max_bits: u32) -> Result<CornerRunReport, SpecError> {
        if self.max_steps == UNLIMITED {
            if !self.long_run_eligible() {
                return Err(super::input(
                    "--max-steps",
                    "unlimited needs --algorithm ta and one --eps (the long-run certificate of TA)",
                ));
            }
            return match self.long_run_report(max_bits)? {
                Ok(r) => Ok(r),
                Err((reason, _)) => {
                    let mut capped = self.clone();
                    capped.max_steps = crate::input::caps::STEPS.max as usize;
                    let mut r = capped.certified_ladder(max_bits)?;
                    r.certificate = Some(LongRunCertificate::none(reason));
                    Ok(r)
                }
            };
        }
        let r = self.certified_ladder(max_bits)?;
        let open = r.undecided.is_some() || r.work_limit.is_some();
        if !(open && self.long_run_eligible()) {
            return Ok(r);
        }
        Ok(match self.long_run_report(max_bits)? {
            Ok(mut lr) => {
                let within = lr.termination == "exit" && lr.steps <= self.max_steps;
                if within {
                    let mut attempts = r.attempts.clone().unwrap_or_default();
                    attempts.push(crate::certify::Attempt {
                        arith: r.arith.clone(),
                        outcome: format!(
                            "undecided: the step-by-step run stopped at step {} ({})",
                            r.steps, r.termination
                        ),
                    });
                    attempts.extend(lr.attempts.take().unwrap_or_default());
                    lr.attempts = Some(attempts);
                    lr
                } else {
                    CornerRunReport {
                        certificate: lr.certificate,
                        ..r
                    }
                }
            }
            Err(_) => r,
        })
    }

    /// TA with one COR ε: the runs the long-run certificate covers.
    pub fn long_run_eligible(&self) -> bool {
        self.algorithm == Algorithm::Ta
            && matches!(self.restitution, RestitutionSpec::Symmetric(_))
            && self.form != Form::Phi
    }

    /// The long-run certificate on exact numbers (rationals, then Q(√d)), then MPFR
    /// intervals from 106 bits doubling up to `max_bits`: the report of the first rung that
    /// certifies, or the reason none did and every attempt.
    #[allow(clippy::type_complexity)]
    pub fn long_run_report(
        &self,
        max_bits: u32,
    ) -> Result<Result<CornerRunReport, (String, Vec<crate::certify::Attempt>)>, SpecError> {
        struct Job<'a>(&'a CornerSpec, String);
        impl RunScalar for Job<'_> {
            type Out = Result<Result<CornerRunReport, NoCertificate>, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                let (run, v0) = self.0.build::<S>(ctx)?;
                run.validate()?;
                let Restitution::Symmetric(eps) = &run.restitution else {
                    return Err(super::input(
                        "--eps",
                        "the long-run certificate needs one --eps",
                    ));
                };
                Ok(long_run(&run.k, eps, &v0, &LongRunLimits::default())
                    .map(|lr| long_run_to_report(&lr, &self.1)))
            }
        }
        let mut backends = vec![Backend::Exact, Backend::Quadratic, Backend::Algebraic];
        let mut bits = crate::certify::MIN_MAX_BITS;
        while bits <= max_bits {
            backends.push(Backend::MpInterval(bits));
            bits *= 2;
        }
        let mut attempts = Vec::new();
        let mut reason = "no backend can represent the inputs".to_string();
        for b in backends {
            match b.run(Job(self, b.to_string())) {
                Ok(Ok(mut r)) => {
                    r.certified_by = Some(Some(b.to_string()));
                    r.attempts = Some(attempts);
                    return Ok(Ok(r));
                }
                Ok(Err(nc)) => {
                    attempts.push(crate::certify::Attempt {
                        arith: b.to_string(),
                        outcome: format!("no certificate: {}", nc.reason),
                    });
                    reason = format!("{}: {}", b, nc.reason);
                    if !nc.precision_may_help {
                        break;
                    }
                }
                Err(SpecError::Input(e)) if e.unrepresentable => {
                    attempts.push(crate::certify::Attempt {
                        arith: b.to_string(),
                        outcome: format!("skipped: {}", e.reason),
                    })
                }
                Err(e) => return Err(e),
            }
        }
        Ok(Err((reason, attempts)))
    }

    /// The ladder of [`crate::certify`], step by step.
    fn certified_ladder(&self, max_bits: u32) -> Result<CornerRunReport, SpecError> {
        let (mut r, by, attempts) = super::certified_report(
            max_bits,
            |b| self.report(b),
            |r| {
                r.undecided.as_ref().map(|u| {
                    format!(
                        "sign of {} in [{}, {}] at step {}",
                        u.quantity, u.lo, u.hi, u.step
                    )
                })
            },
        )?;
        r.certified_by = Some(by);
        r.attempts = Some(attempts);
        Ok(r)
    }
}

impl CornerSpec {
    /// `--arith symbolic`: one application of the rule of the chosen form in each zone
    /// Z1, Z2, Z12, as closed forms over Q in the inputs' variables. The zone is a
    /// hypothesis (eq. (1)), not a decision: a symbolic sign is unknown. `--alpha` is given
    /// as `atan(K)` with K any expression (a variable `k`, a number); `--v0`, `--eps`,
    /// `--eps1`, `--eps2` may use variables (`x,y`, `e`).
    ///
    /// The closed forms are bounded like the prover's: at most
    /// [`SYMBOLIC_WORK`] polynomial term products and 10 s (past either, exit 2 naming
    /// `--arith`), so that an option such as `(1-1e-30)^100000` cannot hang the command.
    pub fn symbolic_step(&self) -> Result<SymbolicStepReport, SpecError> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        crate::arith::symbolic::poly::with_deadline(deadline, SYMBOLIC_WORK, || {
            self.symbolic_step_unbounded()
        })
        .unwrap_or_else(|| {
            Err(super::input(
                "--arith",
                format!("the symbolic closed forms need more than {SYMBOLIC_WORK} term products or 10 s (their work limit); give smaller expressions"),
            ))
        })
    }

    fn symbolic_step_unbounded(&self) -> Result<SymbolicStepReport, SpecError> {
        use crate::arith::Symbolic;
        use crate::law::corner::Zone;
        let sym = |src: &str, option: &str| -> Result<Symbolic, SpecError> {
            let v = crate::lang::parse_symbolic(src).map_err(|e| super::input(option, e))?;
            // the limit of an option value, on the closed form's size
            let size = v.to_string().len() as u64;
            if size > crate::input::caps::VALUE_DIGITS {
                return Err(super::input(
                    option,
                    format!("the closed form of `{src}` has {size} characters, more than {} (the limit of an option value)", crate::input::caps::VALUE_DIGITS),
                ));
            }
            Ok(v)
        };
        let inner = self
            .alpha
            .trim()
            .strip_prefix("atan(")
            .and_then(|r| r.strip_suffix(')'))
            .ok_or_else(|| {
                super::input(
                    "--alpha",
                    "with --arith symbolic give alpha as atan(K), K an expression (k = tan(alpha) = K)",
                )
            })?;
        let k = sym(inner, "--alpha")?;
        let parts = split_list(&self.v0);
        if parts.len() != 2 {
            return Err(super::input(
                "--v0",
                "expected two components \"EXPR,EXPR\"",
            ));
        }
        let v0 = V2::new(sym(parts[0], "--v0")?, sym(parts[1], "--v0")?);
        let restitution = match &self.restitution {
            RestitutionSpec::Symmetric(e) => Restitution::Symmetric(sym(e, "--eps")?),
            RestitutionSpec::Asymmetric(a, b) => {
                Restitution::Asymmetric(sym(a, "--eps1")?, sym(b, "--eps2")?)
            }
        };
        let run = CornerRun {
            k: k.clone(),
            restitution,
            threshold: k.zero_like(),
            rest_threshold: k.zero_like(),
            max_steps: 1,
            form: self.form,
            record_velocities: false,
            max_digits: None,
        };
        if self.form == Form::Phi {
            if let Restitution::Symmetric(e) = &run.restitution {
                if e.is_constant() != Some(num_rational::BigRational::from_integer(1.into())) {
                    return Err(super::input(
                        "--form",
                        "the phi form (6a-6d) is the ideal rule: it needs --eps 1",
                    ));
                }
            }
        }
        if matches!(run.restitution, Restitution::Asymmetric(..)) && self.form != Form::Xy {
            return Err(super::input(
                "--form",
                "the asymmetric rule (10) with --eps1/--eps2 exists in the xy form only",
            ));
        }
        let hypotheses = [
            (Zone::Z1, "xi <= 0 < eta"),
            (Zone::Z2, "eta <= 0 < xi"),
            (Zone::Z12, "xi > 0, eta > 0"),
        ];
        let mut steps = Vec::new();
        for (zone, hypothesis) in hypotheses {
            let w = run.apply_in_zone(zone, &v0)?;
            steps.push(ZoneStep {
                zone: zone.to_string(),
                hypothesis,
                velocity: vec![w.x.num(), w.y.num()],
            });
        }
        Ok(SymbolicStepReport {
            arith: "symbolic",
            form: format!("{:?}", self.form).to_lowercase(),
            k: k.num(),
            v0: vec![v0.x.num(), v0.y.num()],
            steps,
        })
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

fn v2<S: Scalar>(v: &V2<S>) -> Vec<Num> {
    nums(&[v.x.clone(), v.y.clone()])
}

impl CornerRunReport {
    /// The report of a trace of backend `arith`.
    pub fn of<S: Scalar>(t: &Trace<S>, arith: &str) -> Self {
        let mut out = CornerRunReport {
            arith: arith.to_string(),
            steps: t.steps,
            zones: t.zones.iter().map(|z| z.to_string()).collect(),
            termination: t.termination.name().to_string(),
            final_velocity: v2(t.final_velocity()),
            trace: (!t.velocities.is_empty()).then(|| t.velocities.iter().map(v2).collect()),
            undecided: None,
            ambiguous: None,
            work_limit: None,
            arith_failure: None,
            certified_by: None,
            attempts: None,
            certificate: None,
        };
        match &t.termination {
            Termination::Undecided {
                step,
                quantity,
                lo,
                hi,
            } => {
                out.undecided = Some(UndecidedAt {
                    step: *step,
                    quantity: quantity.clone(),
                    lo: lo.clone(),
                    hi: hi.clone(),
                })
            }
            Termination::Ambiguous { step, zones } => {
                out.ambiguous = Some(AmbiguousAt {
                    step: *step,
                    zones: zones.iter().map(|z| z.to_string()).collect(),
                    reason: "the conditions of (6a-6d) hold for no zone or for several",
                })
            }
            Termination::WorkLimit { step, digits } => {
                out.work_limit = Some(format!(
                    "stopped at step {step}: the exact numbers reached {digits} digits (--max-digits); raise --max-digits, or use --arith certified"
                ))
            }
            Termination::ArithFailure { step, reason } => {
                out.arith_failure = Some(format!(
                    "stopped at step {step}: {reason}; use --arith certified, or an exact arithmetic"
                ))
            }
            _ => {}
        }
        out
    }
}

fn m2_nums<S: Scalar>(m: &crate::law::corner::M2<S>) -> Vec<Vec<Num>> {
    m.iter().map(|row| nums(row)).collect()
}

/// Zones listed one by one in a report up to this many steps; past it, the summary.
const MAX_LISTED_ZONES: u64 = 1_000_000;

/// The report of a certified long run on backend `arith`: `never-exits` (steps: the entry
/// steps, final: where the pattern starts) or `exit` (the exact step count and exit
/// velocity), with the certificate.
pub fn long_run_to_report<S: Scalar>(lr: &LongRun<S>, arith: &str) -> CornerRunReport {
    let pattern = lr.pattern.as_ref();
    let mut c = LongRunCertificate::none("");
    c.reason = None;
    c.summary = Some(lr.summary());
    c.steps_before_pattern = pattern.map(|_| lr.entry_steps());
    if let Some(p) = pattern {
        c.pattern = p.zones.iter().map(|z| z.to_string()).collect();
        c.pattern_start = Some(v2(&p.start));
        c.matrix = Some(m2_nums(&p.matrix));
        c.trace = Some(p.trace.num());
        c.det = Some(p.det.num());
        c.discriminant = Some(p.discriminant.num());
    }
    let names =
        |z: &[crate::law::corner::Zone]| z.iter().map(|z| z.to_string()).collect::<Vec<_>>();
    let (steps, zones, termination, last) = match &lr.outcome {
        Outcome::NeverExits {
            cone,
            rho,
            per_step,
        } => {
            let p = pattern.expect("never-exits has a pattern");
            c.kind = "never-exits".into();
            c.cone = Some(cone.iter().map(v2).collect());
            c.rho = Some(rho.num());
            c.decay_per_step = Some(per_step.num());
            c.argument = Some("M maps the cone K into itself, K and A_first K lie in the pattern's zones (signs of 2x2 determinants, decided exactly or rigorously): every period follows the pattern, |v| <= C rho^m".into());
            let mut zones = names(&lr.entry_zones);
            zones.push(p.zones[0].to_string());
            (lr.entry_steps(), zones, "never-exits", v2(&p.start_xy))
        }
        Outcome::Exits {
            periods,
            steps,
            tail,
            exit_xy,
            ..
        } => {
            c.kind = "exits".into();
            c.periods = Some(*periods);
            c.steps = Some(*steps);
            c.exit_velocity = Some(v2(exit_xy));
            c.argument = Some("the first period leaving the pattern, by repeated squaring of M and bisection on the number of periods (monotone while the rotation stays below pi), then the ordinary rules to Z0".into());
            let zones = match lr.all_zones(MAX_LISTED_ZONES) {
                Some(z) => names(&z),
                None => {
                    let mut z = names(&lr.entry_zones);
                    if let Some(p) = pattern {
                        z.push(format!("({} {})^{periods}", p.zones[0], p.zones[1]));
                    }
                    z.extend(names(tail));
                    z
                }
            };
            (*steps as usize, zones, "exit", v2(exit_xy))
        }
    };
    CornerRunReport {
        arith: arith.to_string(),
        steps,
        zones,
        termination: termination.to_string(),
        final_velocity: last,
        trace: None,
        undecided: None,
        ambiguous: None,
        work_limit: None,
        arith_failure: None,
        certified_by: None,
        attempts: None,
        certificate: Some(c),
    }
}
