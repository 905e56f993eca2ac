//! Systems of `impactkit step` (Seghete–Murphey Sect. VI): the system files `laws` and
//! `regress` read ([`crate::system::file::SystemFile`]), of which `step` takes:
//!
//! ```toml
//! name = "3-ball cradle with gaps, masses 1, 1, 1"
//! coordinates = ["x1", "x2", "x3"]     # optional names
//! masses = ["1", "1", "1"]             # diagonal of M, or
//! # mass_matrix = [["2", "1"], ["1", "2"]]
//! q = ["0", "31/20", "57/20"]          # the configuration at t = 0
//! p = ["1", "0", "0"]                  # the momentum covector p = M q̇ at t = 0
//!                                      # (or velocity = [...], q̇, with p = M q̇)
//! force = ["0", "0", "0"]              # optional: a constant generalized force f
//!                                      # (gravity: V = −f·q)
//!
//! [[spring]]                           # optional: V_j = ½ k (a·q + b)²
//! stiffness = "1"
//! a = ["-1", "1", "0"]
//! b = "-1"
//!
//! [[contact]]                          # φ(q) = normal·q + offset ≥ 0
//! name = "12"
//! normal = ["-1", "1", "0"]
//! offset = "-1"
//!
//! [[gap]]                              # the same in the first step spelling:
//! name = "23"                          # φ(q) = a·q + b ≥ 0; the normal is a
//! a = ["0", "-1", "1"]
//! b = "-1"
//! ```
//!
//! Numbers are input-language expressions, integers or decimals, as in
//! [`crate::system::file`].

use super::file::{mass_matrix, Number, SystemFile};
use super::stepper::{Gap, Order, Run, StepLaw, StepSystem, Stopped};
use super::{input, SpecError};
use crate::arith::backend::{Backend, RunScalar};
use crate::arith::{Kind, Scalar, Sign};
use crate::input::{value, InputError};
use crate::law::variational::{Lagrangian, Spring};
use crate::law::{decide, LawError};
use crate::linalg::dot;
use crate::report::nums;
use crate::report::step::{
    ConservationRow, ImpactRow, IndeterminacyReport, Kept, NodeRow, RestRow, StepReport, XiRow,
    XI_MEASURE,
};

/// Largest number of coordinates of a step system.
pub const MAX_COORDINATES: usize = 64;
/// Largest number of gaps or springs.
pub const MAX_TERMS: usize = 64;
/// Largest `--steps`.
pub const MAX_STEPS: usize = 100_000;

pub use super::file::{GapSpec, SpringSpec};

/// A step system as `step` reads it from a system file ([`StepFile::from_system`]).
#[derive(Clone, Debug)]
pub struct StepFile {
    pub name: Option<String>,
    pub coordinates: Option<Vec<String>>,
    pub masses: Option<Vec<Number>>,
    pub mass_matrix: Option<Vec<Vec<Number>>>,
    pub q: Vec<Number>,
    /// p at t = 0, or (`velocity`) q̇ with p = M q̇.
    pub p: Option<Vec<Number>>,
    pub velocity: Option<Vec<Number>>,
    pub force: Option<Vec<Number>>,
    pub spring: Vec<SpringSpec>,
    pub gap: Vec<GapSpec>,
    /// A general Lagrangian system ([`super::lagrangian_file`]).
    pub lagrangian: Option<super::lagrangian::Model>,
}

impl StepFile {
    /// Reads a system file ([`SystemFile`], the schema `laws` and `regress` read too);
    /// `source` names the file in errors.
    pub fn from_toml(text: &str, source: &str) -> Result<Self, InputError> {
        Self::from_system(SystemFile::from_toml(text, source)?, source)
    }

    /// What `step` reads of a system file: `q` (required), `p` or `velocity`, the mass,
    /// `force`, the springs, and every contact as the gap φ(q) = normal·q + offset
    /// (`[[gap]]`s after the `[[contact]]`s). Restitution keys are the impact laws'
    /// (`step` takes its law from `--law`); `touching` is decided by the gaps at `q`.
    pub fn from_system(f: SystemFile, source: &str) -> Result<Self, InputError> {
        let q = f.q.ok_or_else(|| {
            InputError::new(
                format!("{source}: q"),
                "missing: `step` starts from the configuration q at t = 0",
            )
        })?;
        let lagrangian = match &f.lagrangian {
            None => None,
            Some(l) => {
                let flat = [
                    ("masses", f.masses.is_some()),
                    ("mass_matrix", f.mass_matrix.is_some()),
                    ("force", f.force.is_some()),
                    ("spring", !f.spring.is_empty()),
                    ("contact", !f.contact.is_empty()),
                    ("gap", !f.gap.is_empty()),
                ];
                if let Some((key, _)) = flat.iter().find(|(_, given)| *given) {
                    return Err(InputError::new(
                        format!("{source}: {key}"),
                        "a system with [lagrangian] gives its mass, forces and contacts inside that table",
                    ));
                }
                let names = f.coordinates.clone().ok_or_else(|| {
                    InputError::new(
                        format!("{source}: coordinates"),
                        "missing: a [lagrangian] system names its coordinates",
                    )
                })?;
                Some(super::lagrangian_file::model(l, &names, source)?)
            }
        };
        let gap = (f.contact.into_iter())
            .map(|c| GapSpec {
                name: c.name,
                a: c.normal,
                b: c.offset,
            })
            .chain(f.gap)
            .collect();
        Ok(StepFile {
            name: f.name,
            coordinates: f.coordinates,
            masses: f.masses,
            mass_matrix: f.mass_matrix,
            q,
            p: f.p,
            velocity: (!f.velocity.is_empty()).then_some(f.velocity),
            force: f.force,
            spring: f.spring,
            gap,
            lagrangian,
        })
    }

    /// The system in backend `S`, every value checked; errors name `source` and the key.
    pub fn build<S: Scalar>(&self, source: &str, ctx: &S::Ctx) -> Result<StepSystem<S>, SpecError> {
        let err = |key: &str, reason: String| {
            SpecError::Input(InputError::new(format!("{source}: {key}"), reason))
        };
        // an undecided sign is a result of the arithmetic (reported `"complete": false`),
        // not bad input
        let undecided_or = |key: &str, e: LawError| -> SpecError {
            match e {
                LawError::Undecided { quantity, lo, hi } => SpecError::Law(LawError::Undecided {
                    quantity: format!("{key}: {quantity}"),
                    lo,
                    hi,
                }),
                e => err(key, e.to_string()),
            }
        };
        let nums = |xs: &[Number], key: &str| -> Result<Vec<S>, InputError> {
            xs.iter()
                .map(|x| value::<S>(&x.expr(), &format!("{source}: {key}"), ctx))
                .collect()
        };
        let n = self.q.len();
        if n == 0 || n > MAX_COORDINATES {
            return Err(err(
                "q",
                format!("{n} components; a system has 1..={MAX_COORDINATES} coordinates"),
            ));
        }
        let sized = |xs: &[Number], key: &str| -> Result<Vec<S>, SpecError> {
            if xs.len() != n {
                return Err(err(
                    key,
                    format!("{} components for {n} coordinates", xs.len()),
                ));
            }
            Ok(nums(xs, key)?)
        };
        let q0 = nums(&self.q, "q")?;
        let (mass, mut all) = mass_matrix::<S>(
            self.masses.as_deref(),
            self.mass_matrix.as_deref(),
            n,
            source,
            ctx,
        )?;
        mass.check_positive_definite().map_err(|_| {
            err(
                "mass_matrix",
                "is singular or not positive definite (or undecided)".into(),
            )
        })?;
        let p0 = match (&self.p, &self.velocity) {
            (Some(p), None) => sized(p, "p")?,
            // p = M q̇, with M and q̇ in one field before they meet
            (None, Some(v)) => {
                let v = sized(v, "velocity")?;
                let refs: Vec<&S> = all.iter().chain(&v).collect();
                crate::arith::check_compatible(&refs)
                    .map_err(|e| err("velocity", e.to_string()))?;
                mass.apply(&v)
            }
            (Some(_), Some(_)) => return Err(err("p", "give `p` or `velocity`, not both".into())),
            (None, None) => {
                return Err(err(
                    "p",
                    "missing: give the momentum `p` (or the velocity `velocity`) at t = 0".into(),
                ))
            }
        };
        let force = match &self.force {
            Some(f) => sized(f, "force")?,
            None => vec![q0[0].zero_like(); n],
        };
        if self.spring.len() > MAX_TERMS || self.gap.len() > MAX_TERMS {
            return Err(err("gap", format!("at most {MAX_TERMS} gaps and springs")));
        }
        let zero = q0[0].zero_like();
        let offset = |b: &Option<Number>, key: &str| -> Result<S, InputError> {
            match b {
                Some(b) => nums(std::slice::from_ref(b), key).map(|mut v| v.remove(0)),
                None => Ok(zero.clone()),
            }
        };
        let mut springs = Vec::new();
        for (j, s) in self.spring.iter().enumerate() {
            let key = format!("spring {}", s.name.clone().unwrap_or((j + 1).to_string()));
            let k = nums(
                std::slice::from_ref(&s.stiffness),
                &format!("{key} stiffness"),
            )?
            .remove(0);
            if decide(&k, "k").map_err(|e| err(&key, e.to_string()))? == Sign::Negative {
                return Err(err(
                    &format!("{key} stiffness"),
                    "must not be negative".into(),
                ));
            }
            let spring = Spring {
                stiffness: k,
                a: sized(&s.a, &format!("{key} a"))?,
                b: offset(&s.b, &format!("{key} b"))?,
            };
            all.extend(spring.a.iter().cloned());
            all.extend([spring.stiffness.clone(), spring.b.clone()]);
            springs.push(spring);
        }
        let mut gaps: Vec<Gap<S>> = Vec::new();
        for (i, g) in self.gap.iter().enumerate() {
            let name = g.name.clone().unwrap_or((i + 1).to_string());
            let key = format!("gap {name}");
            if gaps.iter().any(|x| x.name == name) {
                return Err(err(&key, "two gaps have this name".into()));
            }
            let gap = Gap {
                name,
                a: sized(&g.a, &format!("{key} a"))?,
                b: offset(&g.b, &format!("{key} b"))?,
            };
            let zero_normal = gap
                .a
                .iter()
                .map(|x| decide(x, "a_i"))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| undecided_or(&key, e))?
                .iter()
                .all(|s| *s == Sign::Zero);
            if zero_normal {
                return Err(err(&format!("{key} a"), "the normal is zero".into()));
            }
            // a, b and q0 in one field before they meet
            let refs: Vec<&S> = gap.a.iter().chain([&gap.b]).chain(&q0).collect();
            crate::arith::check_compatible(&refs).map_err(|e| err(&key, e.to_string()))?;
            let sign = decide(&gap.value(&q0), "φ(q0)").map_err(|e| undecided_or(&key, e))?;
            if sign == Sign::Negative {
                return Err(err(
                    &key,
                    "is negative at the initial configuration q (the bodies overlap)".into(),
                ));
            }
            all.extend(gap.a.iter().cloned());
            all.push(gap.b.clone());
            gaps.push(gap);
        }
        all.extend(q0.iter().cloned());
        all.extend(p0.iter().cloned());
        all.extend(force.iter().cloned());
        let refs: Vec<&S> = all.iter().collect();
        crate::arith::check_compatible(&refs).map_err(|e| err("values", e.to_string()))?;
        let coordinates = match &self.coordinates {
            Some(c) if c.len() != n => {
                return Err(err(
                    "coordinates",
                    format!("{} names for {n} coordinates", c.len()),
                ))
            }
            Some(c) => c.clone(),
            None => (1..=n).map(|i| format!("q{i}")).collect(),
        };
        StepSystem::new(
            self.name.clone().unwrap_or_else(|| source.to_string()),
            coordinates,
            Lagrangian {
                mass,
                force,
                springs,
            },
            gaps,
            (q0, p0),
        )
        .map_err(|e| err("mass_matrix", e.to_string()))
    }
}

/// The law of `--law`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LawArg {
    Elastic,
    Plastic,
    Inelastic,
}

/// A `step` run as the command line states it.
#[derive(Clone, Debug)]
///
/// # Example
///
/// ```
/// use impactkit::arith::backend::Backend;
/// use impactkit::system::step_file::{LawArg, StepFile, StepSpec};
/// use impactkit::system::stepper::Order;
/// let text = r#"
///     masses = ["1", "1"]
///     q = ["0", "1/4"]
///     p = ["1", "0"]
///     force = ["0", "-10"]
///     [[gap]]
///     name = "floor"
///     a = ["0", "1"]
///     b = "0"
/// "#;
/// let spec = StepSpec {
///     file: StepFile::from_toml(text, "ball.toml").unwrap(), source: "ball.toml".into(),
///     dt: "1/10".into(), steps: 5, law: LawArg::Elastic, eps: None, order: Order::Argmin,
///     together: None, compare_orders: false,
/// };
/// let r = spec.report(Backend::Quadratic).unwrap();
/// assert_eq!(r.impacts.len(), 1);
/// let y: Vec<String> = r.nodes.iter().take(3).map(|n| n.q[1].exact_expr().unwrap().to_string()).collect();
/// assert_eq!(y, ["1/4", "1/5", "1/20"]);
/// ```
pub struct StepSpec {
    pub file: StepFile,
    /// The file's name (for errors).
    pub source: String,
    pub dt: String,
    pub steps: usize,
    pub law: LawArg,
    /// R of (16) for the inelastic law.
    pub eps: Option<String>,
    pub order: Order,
    /// `--together TOL` (`[lagrangian]` systems): an approaching contact whose gap is at
    /// most TOL at an impact instant takes part in that impact.
    pub together: Option<String>,
    /// `--compare-orders`: run again with the other order of the reflections and report
    /// the indeterminacy ξ between the two runs at every node.
    pub compare_orders: bool,
}

impl StepSpec {
    /// Whether a rung of `--arith certified` should climb past this report: a
    /// `[lagrangian]` run whose enclosures stopped deciding (more bits may finish it).
    pub fn undecided(&self, r: &StepReport) -> bool {
        self.file.lagrangian.is_some()
            && r.stopped
                .as_deref()
                .is_some_and(|s| s.contains("undecided"))
    }

    /// Runs on `backend`.
    pub fn report(&self, backend: Backend) -> Result<StepReport, SpecError> {
        struct Job<'a>(&'a StepSpec, Backend);
        impl RunScalar for Job<'_> {
            type Out = Result<StepReport, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                if let Some(model) = &self.0.file.lagrangian {
                    return super::lagrangian_file::general_report::<S>(
                        self.0,
                        model,
                        self.1.to_string(),
                        ctx,
                    );
                }
                if self.0.together.is_some() {
                    return Err(input(
                        "--together",
                        "applies to [lagrangian] systems (affine gaps close at exact times)",
                    ));
                }
                let (sys, h, law) = self.0.build::<S>(ctx)?;
                let run = sys.run(&h, self.0.steps, &law, self.0.order);
                if let Some(Stopped::Field(m)) = &run.stopped {
                    // not representable: `--arith certified` moves on to a backend that
                    // holds the impact time
                    let mut e = crate::input::InputError::new("--arith", m);
                    e.unrepresentable = true;
                    return Err(SpecError::Input(e));
                }
                let mut r = report(&sys, &h, &law, self.0, self.1.to_string(), &run);
                if self.0.compare_orders {
                    let other = sys.run(&h, self.0.steps, &law, self.0.order.other());
                    let mass = sys.lagrangian.mass.clone();
                    let rows = super::stepper::indeterminacy(&run, &other, |_| Ok(mass.clone()))
                        .map_err(SpecError::Law)?;
                    r.indeterminacy =
                        Some(indeterminacy_report(&rows, self.0.order.other(), &other));
                }
                Ok(r)
            }
        }
        backend.run(Job(self, backend))
    }

    /// `--together TOL` in backend `S`: a nonnegative length.
    pub fn together_tolerance<S: Scalar>(&self, ctx: &S::Ctx) -> Result<Option<S>, SpecError> {
        let Some(t) = &self.together else {
            return Ok(None);
        };
        let v = value::<S>(t, "--together", ctx)?;
        if decide(&v, "--together").map_err(|e| input("--together", e))? == Sign::Negative {
            return Err(input("--together", "the tolerance must not be negative"));
        }
        Ok(Some(v))
    }

    /// The system, the step and the law in backend `S`.
    pub fn build<S: Scalar>(
        &self,
        ctx: &S::Ctx,
    ) -> Result<(StepSystem<S>, S, StepLaw<S>), SpecError> {
        if self.steps == 0 || self.steps > MAX_STEPS {
            return Err(input("--steps", format!("must be in 1..={MAX_STEPS}")));
        }
        let sys = self.file.build::<S>(&self.source, ctx)?;
        let (h, law) = self.law_and_step::<S>(ctx)?;
        Ok((sys, h, law))
    }

    /// The step h and the law, checked.
    pub fn law_and_step<S: Scalar>(&self, ctx: &S::Ctx) -> Result<(S, StepLaw<S>), SpecError> {
        if self.steps == 0 || self.steps > MAX_STEPS {
            return Err(input("--steps", format!("must be in 1..={MAX_STEPS}")));
        }
        let h = value::<S>(&self.dt, "--dt", ctx)?;
        if decide(&h, "dt").map_err(|e| input("--dt", e))? != Sign::Positive {
            return Err(input("--dt", "the step must be positive"));
        }
        let law = match (self.law, &self.eps) {
            (LawArg::Inelastic, Some(e)) => {
                let r = value::<S>(e, "--eps", ctx)?;
                let lo = decide(&r, "R").map_err(|e| input("--eps", e))?;
                let hi = decide(&(r.one_like() - &r), "1 − R").map_err(|e| input("--eps", e))?;
                if lo == Sign::Negative || hi == Sign::Negative {
                    return Err(input("--eps", "R of (16) must lie in [0, 1]"));
                }
                StepLaw::Inelastic(r)
            }
            (LawArg::Inelastic, None) => {
                return Err(input("--eps", "the inelastic law needs R of (16)"))
            }
            (_, Some(_)) => return Err(input("--eps", "only with --law inelastic")),
            (LawArg::Elastic, None) => StepLaw::Elastic,
            (LawArg::Plastic, None) => StepLaw::Plastic,
        };
        Ok((h, law))
    }
}

/// How the differences `d` compare with zero (`scale`: the size of the values, for the
/// rounding tolerance of `f64`).
pub fn kept<S: Scalar>(d: &[S], scale: f64) -> (Kept, Option<f64>) {
    if d.is_empty() {
        return (Kept::NotApplicable, None);
    }
    let mut worst = Kept::Exactly;
    let mut largest: Option<f64> = None;
    for x in d {
        let bound = match x.enclosure() {
            Some((lo, hi)) => lo.abs().max(hi.abs()),
            None => x.to_f64().abs(),
        };
        let k = match x.sign() {
            Sign::Zero => Kept::Exactly,
            Sign::Unknown => Kept::ToEnclosureWidth,
            _ if S::kind() == Kind::Float && bound <= scale * 2f64.powi(-20) => Kept::ToRounding,
            _ => Kept::No,
        };
        if k != Kept::Exactly {
            largest = Some(largest.map_or(bound, |l: f64| l.max(bound)));
        }
        worst = worse(worst, k);
    }
    (worst, largest)
}

fn worse(a: Kept, b: Kept) -> Kept {
    let rank = |k: Kept| match k {
        Kept::NotApplicable | Kept::Exactly => 0,
        Kept::ToRounding => 1,
        Kept::ToEnclosureWidth => 2,
        Kept::No => 3,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// The conservation checks of a run.
pub fn conservation<S: Scalar>(
    sys: &StepSystem<S>,
    law: &StepLaw<S>,
    run: &Run<S>,
) -> Vec<ConservationRow> {
    let mut rows = Vec::new();
    let e0 = run.nodes.first().map(|n| n.energy.clone());
    let scale = e0.as_ref().map_or(1.0, |e| e.to_f64().abs().max(1e-300));
    let mut push = |quantity: String, reference: &'static str, d: Vec<S>, scale: f64| {
        let (k, largest) = kept(&d, scale);
        rows.push(ConservationRow {
            quantity,
            reference,
            kept: k,
            compared: d.len(),
            largest_deviation: largest,
        });
    };
    if let Some(e0) = &e0 {
        let d: Vec<S> = run.nodes[1..].iter().map(|n| n.energy.sub_r(e0)).collect();
        push(
            "energy at every node".into(),
            "SM Sect. VI; exact for the midpoint rule with an affine ∇V (implicit midpoint)",
            d,
            scale,
        );
    }
    push(
        "energy along the flow between impacts".into(),
        "SM Sect. VI (28)-(29); exact for an affine ∇V (implicit midpoint)",
        flow_defects(run),
        scale,
    );
    push(
        "energy across elastic impacts".into(),
        "SM Lemma 5 (Γ is a g-isometry), Sect. VI",
        elastic_changes(run),
        scale,
    );
    if let StepLaw::Inelastic(r) = law {
        let d: Vec<S> = run
            .impacts
            .iter()
            .filter(|i| i.resolution == super::stepper::Resolution::Inelastic)
            .filter_map(|i| inelastic_defect(sys, i, r).ok())
            .collect();
        push(
            "energy lost at inelastic impacts = (1 - R^2) E_p (16)".into(),
            "SM (16)-(17)",
            d,
            scale,
        );
    }
    if let Ok(dirs) = sys.symmetries() {
        for xi in dirs {
            let m = |p: &[S]| dot(p.iter(), xi.iter());
            let Some(first) = run.nodes.first() else {
                break;
            };
            let m0 = m(&first.p);
            let d: Vec<S> = run.nodes[1..].iter().map(|n| m(&n.p).sub_r(&m0)).collect();
            let s = m0.to_f64().abs().max(1e-300);
            let dir: Vec<String> = xi.iter().map(|x| x.render().value).collect();
            push(
                format!("momentum p·({})", dir.join(", ")),
                "a symmetry no gap, force or spring breaks (Noether; SM Sect. VI)",
                d,
                s,
            );
        }
    }
    rows
}

/// E⁺ − E⁻ of every elastic impact of a run.
pub fn elastic_changes<S: Scalar>(run: &Run<S>) -> Vec<S> {
    run.impacts
        .iter()
        .filter(|i| i.resolution == super::stepper::Resolution::Elastic)
        .map(|i| i.energy_after.sub_r(&i.energy_before))
        .collect()
}

/// The energy change of every piece of flow: node → first impact of the step → … →
/// last impact → next node.
fn flow_defects<S: Scalar>(run: &Run<S>) -> Vec<S> {
    let mut d = Vec::new();
    for w in run.nodes.windows(2) {
        let mut e = w[0].energy.clone();
        for i in run.impacts.iter().filter(|i| i.step == w[0].step) {
            d.push(i.energy_before.sub_r(&e));
            e = i.energy_after.clone();
        }
        d.push(w[1].energy.sub_r(&e));
    }
    d
}

/// ΔE − (1 − R²)E_p of an inelastic impact, with E_p the energy a plastic impact loses.
fn inelastic_defect<S: Scalar>(
    sys: &StepSystem<S>,
    i: &super::stepper::Impact<S>,
    r: &S,
) -> Result<S, crate::law::LawError> {
    let c = crate::law::propagative::Contacts::new(
        sys.lagrangian.mass.clone(),
        i.active.iter().map(|&j| sys.gaps[j].a.clone()).collect(),
    )?;
    let pp = c.plastic_complementary(&i.before)?.momentum;
    let ep = i.energy_before.sub_r(&sys.lagrangian.energy(&i.q, &pp)?);
    let de = i.energy_before.sub_r(&i.energy_after);
    Ok(de.sub_r(&(r.one_like() - &r.square()).mul_r(&ep)))
}

fn report<S: Scalar>(
    sys: &StepSystem<S>,
    h: &S,
    law: &StepLaw<S>,
    spec: &StepSpec,
    arith: String,
    run: &Run<S>,
) -> StepReport {
    let names: Vec<String> = sys.gaps.iter().map(|g| g.name.clone()).collect();
    run_report(
        (&sys.name, &sys.coordinates, &names),
        (h, law, spec.order, spec.steps),
        arith,
        run,
        conservation(sys, law, run),
    )
}

/// The report of a run: `(system, coordinates, gap names)`, `(h, law, order, steps)`.
pub fn run_report<S: Scalar>(
    (system, coordinates, names): (&str, &[String], &[String]),
    (h, law, order, steps): (&S, &StepLaw<S>, Order, usize),
    arith: String,
    run: &Run<S>,
    conservation: Vec<ConservationRow>,
) -> StepReport {
    let name = |i: usize| names[i].clone();
    StepReport {
        system: system.to_string(),
        coordinates: coordinates.to_vec(),
        law: match law {
            StepLaw::Elastic => "elastic".into(),
            StepLaw::Plastic => "plastic".into(),
            StepLaw::Inelastic(r) => format!("inelastic, R = {}", r.render().value),
        },
        order: order_name(order),
        arith,
        dt: h.num(),
        steps,
        nodes: run
            .nodes
            .iter()
            .map(|n| NodeRow {
                step: n.step,
                t: n.t.num(),
                q: nums(&n.q),
                p: nums(&n.p),
                energy: n.energy.num(),
            })
            .collect(),
        impacts: run
            .impacts
            .iter()
            .map(|i| ImpactRow {
                step: i.step,
                time: i.time.num(),
                active: i.active.iter().map(|&j| name(j)).collect(),
                sequence: i.sequence.iter().map(|&j| name(j)).collect(),
                resolution: i.resolution.name(),
                q: nums(&i.q),
                before: nums(&i.before),
                after: nums(&i.after),
                energy_before: i.energy_before.num(),
                energy_after: i.energy_after.num(),
            })
            .collect(),
        rests: run
            .rests
            .iter()
            .map(|r| RestRow {
                step: r.step,
                time: r.time.num(),
                contact: name(r.gap),
                held: r.held,
            })
            .collect(),
        zeno_rule_fired: run
            .impacts
            .iter()
            .filter(|i| i.resolution == super::stepper::Resolution::ZenoPlastic)
            .count(),
        conservation,
        stopped: run.stopped.as_ref().map(|s| s.to_string()),
        indeterminacy: None,
    }
}

/// The name of an order, as `--order` spells it.
pub fn order_name(order: Order) -> &'static str {
    match order {
        Order::Argmin => "argmin",
        Order::Argmax => "argmax",
    }
}

/// The report of [`super::stepper::indeterminacy`] against the run `other` (in the order
/// `against`).
pub fn indeterminacy_report<S: Scalar>(
    rows: &[super::stepper::XiAt<S>],
    against: Order,
    other: &Run<S>,
) -> IndeterminacyReport {
    let row = |(step, t, xi2, xi): &super::stepper::XiAt<S>| XiRow {
        step: *step,
        t: t.num(),
        xi_squared: xi2.as_ref().map(Scalar::num),
        xi: xi.as_ref().map(Scalar::num),
    };
    let upper = |x: &S| x.enclosure().map_or_else(|| x.to_f64(), |(_, hi)| hi);
    let largest = rows
        .iter()
        .filter_map(|r| r.2.as_ref().map(|x| (upper(x), r)))
        .filter(|(u, _)| *u > 0.0)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, r)| row(r));
    let first_nonzero = rows
        .iter()
        .find(|r| r.2.as_ref().is_some_and(|x| x.sign() == Sign::Positive))
        .map(row);
    IndeterminacyReport {
        against: order_name(against),
        measure: XI_MEASURE,
        nodes: rows.iter().map(row).collect(),
        largest,
        first_nonzero,
        other_impacts: other.impacts.len(),
        other_stopped: other.stopped.as_ref().map(|s| s.to_string()),
    }
}
