//! Newton's cradle: n balls on a line, any masses, one COR per contact, through
//! Pasquero's characterization (`pasquero-nonideal-multiple-constraints.txt`, Sect. 4.1),
//! and the reproduction of its Table 1.
//!
//! Ball i has velocity ẋ_i; the contact of balls i, i+1 is the constraint
//! x_i − x_{i+1} + 2R ≤ 0 with normal n = e_i − e_{i+1}: it is impacted when
//! ẋ_i − ẋ_{i+1} > 0.

use super::iterate::{iterate, step, Classified, End, Limits, PiecewiseMap, Stepped};
use crate::arith::Scalar;
use crate::certify::Arith;
use crate::law::characterization::{
    almost_equal, impulse_asymmetric, Constraints, Outcome, Step, Stop,
};
use crate::law::LawError;
use crate::linalg::{add, SymMatrix, Vector};
use crate::report::cradle::{Agreement, OurRow, PaperRow, Table1RowReport};
use crate::report::cradle::{CradleReport, Table1Report};
use crate::report::nums;

/// The constraints of an n-ball cradle with the given masses (n ≥ 2).
pub fn cradle_constraints<S: Scalar>(masses: &[S]) -> Result<Constraints<S>, LawError> {
    let n = masses.len();
    if n < 2 {
        return Err(LawError::Domain("a cradle needs at least 2 balls".into()));
    }
    let zero = masses[0].zero_like();
    let one = masses[0].one_like();
    let normals = (0..n - 1)
        .map(|i| {
            (0..n)
                .map(|j| {
                    if j == i {
                        one.clone()
                    } else if j == i + 1 {
                        -one.clone()
                    } else {
                        zero.clone()
                    }
                })
                .collect()
        })
        .collect();
    Constraints::new(SymMatrix::diagonal(masses), normals)
}

/// Pasquero's step-by-step procedure (Sect. 3.5) as a piecewise map: the zone of q̇ is
/// the set of impacted constraints (n_i·q̇ < 0; empty: exit), its formula the impulse of
/// the asymmetric rule (7) (which is (6) for equal CORs and (5) for CORs 1), and the stop
/// test "almost equal exit velocities" |n_i·q̇| ≤ σ (Table 1).
struct Procedure<'a, S> {
    c: &'a Constraints<S>,
    cors: &'a [S],
    sigma: Option<&'a S>,
}

impl<S: Scalar> PiecewiseMap<S> for Procedure<'_, S> {
    type Zone = Vec<usize>;
    fn classify(&self, v: &[S]) -> Result<Classified<Vec<usize>>, LawError> {
        let set = self.c.impacting(v)?;
        Ok(if set.is_empty() {
            Classified::Exit(set)
        } else {
            Classified::Apply(set)
        })
    }
    fn at_rest(&self, v: &[S]) -> Result<bool, LawError> {
        match self.sigma {
            Some(s) => almost_equal(self.c, v, s),
            None => Ok(false),
        }
    }
    fn apply(&self, set: &Vec<usize>, v: &[S]) -> Result<Vec<S>, LawError> {
        Ok(add(v, &impulse_asymmetric(self.c, self.cors, set, v)?))
    }
    /// The impacted set is a cone and the impulse is linear in q̇ for a fixed set.
    fn homogeneous(&self) -> bool {
        self.sigma.is_none()
    }
}

/// One step of the procedure of Sect. 3.5 from `v` (see [`super::iterate::step`]): the
/// impacted set, exit when it is empty, AEEV with `sigma`, else the velocity after the
/// impulse of rule (7) on that set.
pub fn procedure_step<S: Scalar>(
    c: &Constraints<S>,
    cors: &[S],
    v: &[S],
    sigma: Option<&S>,
) -> Result<Stepped<S, Vec<usize>>, LawError> {
    if cors.len() != c.count() {
        return Err(LawError::Domain(format!(
            "{} CORs for {} constraints",
            cors.len(),
            c.count()
        )));
    }
    step(&Procedure { c, cors, sigma }, v)
}

/// The procedure of Sect. 3.5 from `v0`: apply impulses until no constraint is impacted
/// (exit), or, with `sigma`, until every relative velocity |n_i·q̇| is at most σ while
/// some constraint is still impacted (AEEV), or a limit of `limits`.
pub fn procedure<S: Scalar>(
    c: &Constraints<S>,
    cors: &[S],
    v0: Vector<S>,
    sigma: Option<&S>,
    limits: &Limits,
) -> Result<Outcome<S>, LawError> {
    if cors.len() != c.count() {
        return Err(LawError::Domain(format!(
            "{} CORs for {} constraints",
            cors.len(),
            c.count()
        )));
    }
    let map = Procedure { c, cors, sigma };
    let run = iterate(&map, v0.clone(), limits)?;
    let mut velocities = run.velocities.into_iter().skip(1);
    let steps = run.zones[..run.steps]
        .iter()
        .map(|set| Step {
            impacting: set.clone(),
            velocity: velocities.next().unwrap_or_default(),
        })
        .collect();
    let stop = match run.end {
        End::Exit => Stop::Exit,
        End::Rest => Stop::Aeev,
        End::MaxSteps => Stop::MaxIterations,
        End::WorkLimit { step, digits } => Stop::WorkLimit { step, digits },
        End::Undecided {
            quantity, lo, hi, ..
        } => Stop::Undecided { quantity, lo, hi },
        End::Ambiguous { .. } => unreachable!("the impacted set is always one zone"),
    };
    Ok(Outcome {
        initial: v0,
        steps,
        stop,
        last: run.last,
    })
}

/// Every velocity kept, no digit limit: the library's default for [`run_cradle`].
pub fn record_all(max_steps: usize) -> Limits {
    Limits {
        max_steps,
        max_digits: None,
        record: true,
    }
}

/// Runs the procedure of Sect. 3.5 on a cradle, keeping every velocity.
pub fn run_cradle<S: Scalar>(
    masses: &[S],
    cors: &[S],
    v0: Vector<S>,
    sigma: Option<&S>,
    max_iter: usize,
) -> Result<Outcome<S>, LawError> {
    run_cradle_with(masses, cors, v0, sigma, &record_all(max_iter))
}

/// Runs the procedure of Sect. 3.5 on a cradle within `limits`.
pub fn run_cradle_with<S: Scalar>(
    masses: &[S],
    cors: &[S],
    v0: Vector<S>,
    sigma: Option<&S>,
    limits: &Limits,
) -> Result<Outcome<S>, LawError> {
    let c = cradle_constraints(masses)?;
    if v0.len() != masses.len() {
        return Err(LawError::Domain(format!(
            "{} initial velocities for {} balls",
            v0.len(),
            masses.len()
        )));
    }
    procedure(&c, cors, v0, sigma, limits)
}

/// One row of Pasquero's Table 1 (three equal balls, v0 = 100), as printed.
#[derive(Clone, Copy, Debug)]
pub struct Table1Row {
    pub cor: &'static str,
    pub v: [&'static str; 3],
    /// The iteration count; `aeev` marks the rows "AEEV / n".
    pub iterations: usize,
    pub aeev: bool,
}

/// Table 1 of Pasquero (Sect. 4.1), transcribed.
pub const TABLE1: [Table1Row; 17] = [
    row("1", ["0", "0", "100"], 2, false),
    row("0.99", ["0.4975125", "0.4999875", "99.0025"], 3, false),
    row("0.9", ["4.7625", "4.9875", "90.25"], 3, false),
    row("0.8", ["9.1", "9.9", "81"], 3, false),
    row("0.7", ["13.0875", "14.6625", "72.25"], 3, false),
    row("0.6", ["16.8", "19.2", "64"], 3, false),
    row("0.5", ["20.3125", "23.4375", "56.25"], 3, false),
    row("0.4", ["23.7", "27.3", "49"], 3, false),
    row("0.3", ["27.0375", "30.7125", "42.25"], 3, false),
    row("0.2", ["30.4", "33.6", "36"], 3, false),
    row(
        "0.1716",
        ["31.36991913", "34.31391687", "34.316164"],
        3,
        false,
    ),
    row(
        "0.1715",
        ["31.37335061", "34.31280703", "34.31384236"],
        4,
        false,
    ),
    row(
        "0.1",
        ["33.27090625", "33.36315469", "33.36593906"],
        6,
        false,
    ),
    row(
        "0.0744",
        ["33.33333333", "33.33333334", "33.33333334"],
        17,
        false,
    ),
    row(
        "0.0743",
        ["33.33333333", "33.33333334", "33.33333333"],
        17,
        true,
    ),
    row(
        "0.01",
        ["33.33333336", "33.33333332", "33.33333332"],
        30,
        true,
    ),
    row("0", ["33.33333335", "33.33333335", "33.33333330"], 32, true),
];

const fn row(cor: &'static str, v: [&'static str; 3], iterations: usize, aeev: bool) -> Table1Row {
    Table1Row {
        cor,
        v,
        iterations,
        aeev,
    }
}

/// Our result for one row of Table 1, compared with the paper.
#[derive(Clone, Debug)]
pub struct Table1Result<S> {
    pub row: Table1Row,
    pub outcome: Result<Outcome<S>, LawError>,
    pub agreement: Vec<Agreement>,
    pub iterations_match: bool,
    pub termination_match: bool,
}

/// Compares a value with a printed decimal `p` having `d` decimals.
pub fn agreement<S: Scalar>(x: &S, printed: &str) -> Agreement {
    use num_rational::BigRational;
    let p = crate::lang::parse(printed)
        .ok()
        .and_then(|e| e.as_rational())
        .expect("Table 1 entries are decimals");
    let decimals = printed.split_once('.').map_or(0, |(_, f)| f.len());
    let half = BigRational::new(
        1.into(),
        (num_bigint::BigInt::from(10)).pow(decimals as u32) * 2,
    );
    let (lo, hi) = match x.rational_bounds() {
        Some(b) => b,
        None => match BigRational::from_float(x.to_f64()) {
            Some(q) => (q.clone(), q),
            None => return Agreement::Differs,
        },
    };
    if lo == p && hi == p {
        Agreement::Exact
    } else if &p - &half <= lo && hi <= &p + &half {
        Agreement::Rounded
    } else {
        Agreement::Differs
    }
}

/// The AEEV threshold of Table 1: σ = 10⁻⁹‖v0‖ with v0 = 100.
pub const TABLE1_SIGMA: &str = "1e-7";

/// Runs every row of Table 1 on backend `S`: three equal balls, v0 = (100, 0, 0), one
/// COR for both contacts, σ = 10⁻⁹‖v0‖, N = 10⁴ iterations.
pub fn table1<S: Scalar>(ctx: &S::Ctx) -> Vec<Table1Result<S>> {
    let lift = |s: &str| crate::lang::eval_str::<S>(s, ctx).expect("Table 1 inputs are decimals");
    let masses = vec![lift("1"), lift("1"), lift("1")];
    let sigma = lift(TABLE1_SIGMA);
    TABLE1
        .iter()
        .map(|row| {
            let e = lift(row.cor);
            let outcome = run_cradle(
                &masses,
                &[e.clone(), e],
                vec![lift("100"), lift("0"), lift("0")],
                Some(&sigma),
                10_000,
            );
            let (agreement, iterations_match, termination_match) = match &outcome {
                Ok(o) => (
                    o.final_velocity()
                        .iter()
                        .zip(row.v)
                        .map(|(x, p)| agreement(x, p))
                        .collect(),
                    o.steps.len() == row.iterations,
                    (o.stop == crate::law::characterization::Stop::Aeev) == row.aeev,
                ),
                Err(_) => (vec![Agreement::Differs; 3], false, false),
            };
            Table1Result {
                row: *row,
                outcome,
                agreement,
                iterations_match,
                termination_match,
            }
        })
        .collect()
}

/// A cradle run as the command line states it (input-language strings).
#[derive(Clone, Debug)]
///
/// # Example
///
/// ```
/// use impactkit::certify::Arith;
/// use impactkit::system::cradle::CradleSpec;
/// let spec = CradleSpec { balls: 3, eps: "1/2".into(), masses: None, v0: "1".into(), sigma: None, max_iter: 10_000, record_velocities: false, max_digits: None };
/// let r = spec.report_arith(Arith::parse("exact", 0).unwrap()).unwrap();
/// assert_eq!(r.termination, "exit");
/// assert_eq!(r.final_velocity.iter().map(|n| n.exact_expr().unwrap()).collect::<Vec<_>>(), ["13/64", "15/64", "9/16"]);
/// ```
pub struct CradleSpec {
    pub balls: usize,
    /// One COR for every contact, or one per contact ("e1,e2,…").
    pub eps: String,
    /// "m1,m2,…" (default: all 1).
    pub masses: Option<String>,
    /// "v1,v2,…", or one expression V: ball 1 moves at V, the others rest.
    pub v0: String,
    pub sigma: Option<String>,
    pub max_iter: usize,
    /// Keep every impulse's velocity (reported as `trace`).
    pub record_velocities: bool,
    /// Work limit of exact runs: decimal digits of a velocity's exact numbers.
    pub max_digits: Option<u64>,
}

pub use super::SpecError;

use super::{input, list};

impl CradleSpec {
    /// Builds the inputs on backend `S` and runs the procedure of Sect. 3.5.
    pub fn run<S: Scalar>(&self, ctx: &S::Ctx) -> Result<Outcome<S>, SpecError> {
        let n = self.balls;
        let cap = crate::input::caps::BALLS;
        if n < cap.min as usize || n > cap.max as usize {
            return Err(input(
                "--balls",
                format!("a cradle has {}..={} balls, got {n}", cap.min, cap.max),
            ));
        }
        let masses = match &self.masses {
            Some(m) => list::<S>(m, "--masses", ctx)?,
            None => vec![S::from_i64(1, ctx); n],
        };
        if masses.len() != n {
            return Err(input(
                "--masses",
                format!("{} masses for {n} balls", masses.len()),
            ));
        }
        for m in &masses {
            if crate::law::decide(m, "--masses").map_err(|e| input("--masses", e.to_string()))?
                != crate::arith::Sign::Positive
            {
                return Err(input(
                    "--masses",
                    format!("masses must be positive, got {m}"),
                ));
            }
        }
        let mut cors = list::<S>(&self.eps, "--eps", ctx)?;
        if cors.len() == 1 {
            cors = vec![cors[0].clone(); n - 1];
        }
        if cors.len() != n - 1 {
            return Err(input(
                "--eps",
                format!(
                    "give one COR or {} (one per contact), got {}",
                    n - 1,
                    cors.len()
                ),
            ));
        }
        for e in &cors {
            let lo = crate::law::decide(e, "--eps").map_err(|x| input("--eps", x.to_string()))?;
            let hi = crate::law::decide(&(e.one_like() - e), "--eps")
                .map_err(|x| input("--eps", x.to_string()))?;
            if lo == crate::arith::Sign::Negative || hi == crate::arith::Sign::Negative {
                return Err(input("--eps", format!("CORs must lie in [0, 1], got {e}")));
            }
        }
        let given = list::<S>(&self.v0, "--v0", ctx)?;
        let v0 = match given.len() {
            1 => {
                let mut v = vec![given[0].zero_like(); n];
                v[0] = given[0].clone();
                v
            }
            len if len == n => given,
            len => {
                return Err(input(
                    "--v0",
                    format!("give one velocity or {n}, got {len}"),
                ))
            }
        };
        let all: Vec<&S> = masses.iter().chain(&cors).chain(&v0).collect();
        crate::arith::check_compatible(&all)
            .map_err(|e| input("--masses/--eps/--v0", e.to_string()))?;
        let sigma = match &self.sigma {
            Some(s) => {
                let sigma: S = crate::input::value(s, "--sigma", ctx)?;
                if crate::law::decide(&sigma, "--sigma")
                    .map_err(|e| input("--sigma", e.to_string()))?
                    == crate::arith::Sign::Negative
                {
                    return Err(input(
                        "--sigma",
                        format!("the AEEV threshold must be >= 0, got {sigma}"),
                    ));
                }
                Some(sigma)
            }
            None => None,
        };
        let limits = Limits {
            max_steps: self.max_iter,
            max_digits: self.max_digits,
            record: self.record_velocities,
        };
        Ok(run_cradle_with(
            &masses,
            &cors,
            v0,
            sigma.as_ref(),
            &limits,
        )?)
    }

    /// Runs on a backend chosen at run time.
    pub fn report(
        &self,
        backend: crate::arith::backend::Backend,
    ) -> Result<CradleReport, SpecError> {
        struct Job<'a>(&'a CradleSpec, crate::arith::backend::Backend);
        impl crate::arith::backend::RunScalar for Job<'_> {
            type Out = Result<CradleReport, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                let o = self.0.run::<S>(ctx)?;
                Ok(CradleReport::of(&o, &self.1.to_string()))
            }
        }
        backend.run(Job(self, backend))
    }

    /// The run on `arith`: a backend, or the certified ladder ([`crate::certify`]):
    /// 53-bit intervals, MPFR intervals at doubling precision up to `max_bits`, then exact
    /// rationals and Q(√d) where the inputs allow; reports which one decided every sign.
    pub fn report_arith(&self, arith: Arith) -> Result<CradleReport, SpecError> {
        let max_bits = match arith {
            Arith::Backend(b) => return self.report(b),
            Arith::Certified { max_bits } => max_bits,
        };
        let (mut r, by, attempts) = super::certified_report(
            max_bits,
            |b| self.report(b),
            |r| r.undecided.as_ref().map(|u| u.to_string()),
        )?;
        r.certified_by = Some(by);
        r.attempts = Some(attempts);
        Ok(r)
    }
}

/// Table 1 beside this program's values, on a backend chosen at run time.
pub fn table1_report(backend: crate::arith::backend::Backend) -> Table1Report {
    struct Job(crate::arith::backend::Backend);
    impl crate::arith::backend::RunScalar for Job {
        type Out = Table1Report;
        fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
            Table1Report::of(&table1::<S>(ctx), &self.0.to_string(), TABLE1_SIGMA)
        }
    }
    backend.run(Job(backend))
}

impl Table1Report {
    /// The report of the rows computed on backend `arith`.
    pub fn of<S: Scalar>(rows: &[Table1Result<S>], arith: &str, sigma: &'static str) -> Self {
        let rows = rows
            .iter()
            .map(|r| Table1RowReport {
                cor: r.row.cor,
                paper: PaperRow {
                    v: r.row.v,
                    iterations: r.row.iterations,
                    aeev: r.row.aeev,
                },
                ours: match &r.outcome {
                    Ok(o) => OurRow::Run {
                        final_velocity: nums(o.final_velocity()),
                        iterations: o.steps.len(),
                        termination: o.stop.name().to_string(),
                    },
                    Err(e) => OurRow::Error {
                        error: e.to_string(),
                    },
                },
                agreement: r.agreement.clone(),
                matched: r.iterations_match
                    && r.termination_match
                    && r.agreement.iter().all(|a| *a != Agreement::Differs),
            })
            .collect();
        Table1Report {
            arith: arith.to_string(),
            sigma,
            rows,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Readings of Table 1's stopping criterion.
//
// The paper (Sect. 4.1) says: "the termination was ensured by fixing a maximum number
// N = 10^4 of iterations and a minimum threshold σ = 10^-9 ‖v0‖ for the differences of the
// velocities of the three disks", and AEEV rows give "the number of iterations before
// checking the almost equalities". The words admit several readings: which differences
// (adjacent contacts or all pairs of balls), which norm of them (max, Euclidean, sum),
// whether ‖·‖ is that of the initial velocity (absolute σ) or of the current one
// (relative σ), and whether the test comes before or after the exit test.

/// Which differences of the ball velocities, and which norm of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffNorm {
    /// max_i |n_i·q̇| over the contacts (ẋ_i − ẋ_{i+1}): the library's default.
    MaxAdjacent,
    /// (Σ_i (n_i·q̇)²)^½ over the contacts.
    EuclideanAdjacent,
    /// Σ_i |n_i·q̇| over the contacts.
    SumAdjacent,
    /// max_{i<j} |ẋ_i − ẋ_j| over all pairs of balls.
    MaxAllPairs,
    /// (Σ_{i<j} (ẋ_i − ẋ_j)²)^½ over all pairs of balls.
    EuclideanAllPairs,
    /// Σ_{i<j} |ẋ_i − ẋ_j| over all pairs of balls.
    SumAllPairs,
}

/// Whose norm scales σ = f·‖·‖.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SigmaScale {
    /// ‖v0‖ of the initial velocity (an absolute threshold; Table 1: σ = 10⁻⁷).
    Initial,
    /// ‖q̇‖ of the current velocity (a relative threshold).
    Current,
}

/// Where the "almost equal" test stands with respect to the exit test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckOrder {
    /// Only while some contact is still impacted (an exit velocity ends as exit).
    AfterExitTest,
    /// First: an exit velocity whose differences are small ends as AEEV.
    BeforeExitTest,
}

/// One reading of the stopping criterion "σ = f‖v0‖ for the differences of the velocities".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StopReading {
    pub norm: DiffNorm,
    pub scale: SigmaScale,
    pub order: CheckOrder,
}

impl StopReading {
    /// The reading of [`table1`] (|n_i·q̇| ≤ σ for every contact, σ = 10⁻⁹‖v0‖, after the
    /// exit test).
    pub const DEFAULT: StopReading = StopReading {
        norm: DiffNorm::MaxAdjacent,
        scale: SigmaScale::Initial,
        order: CheckOrder::AfterExitTest,
    };

    /// Every reading (6 norms × 2 scales × 2 orders), the default first.
    pub fn all() -> Vec<StopReading> {
        use DiffNorm::*;
        let mut out = Vec::new();
        for order in [CheckOrder::AfterExitTest, CheckOrder::BeforeExitTest] {
            for scale in [SigmaScale::Initial, SigmaScale::Current] {
                for norm in [
                    MaxAdjacent,
                    EuclideanAdjacent,
                    SumAdjacent,
                    MaxAllPairs,
                    EuclideanAllPairs,
                    SumAllPairs,
                ] {
                    out.push(StopReading { norm, scale, order });
                }
            }
        }
        out
    }

    /// A name such as `max_adjacent_initial_after_exit`.
    pub fn name(&self) -> String {
        let n = match self.norm {
            DiffNorm::MaxAdjacent => "max_adjacent",
            DiffNorm::EuclideanAdjacent => "euclidean_adjacent",
            DiffNorm::SumAdjacent => "sum_adjacent",
            DiffNorm::MaxAllPairs => "max_all_pairs",
            DiffNorm::EuclideanAllPairs => "euclidean_all_pairs",
            DiffNorm::SumAllPairs => "sum_all_pairs",
        };
        let s = match self.scale {
            SigmaScale::Initial => "initial",
            SigmaScale::Current => "current",
        };
        let o = match self.order {
            CheckOrder::AfterExitTest => "after_exit",
            CheckOrder::BeforeExitTest => "before_exit",
        };
        format!("{n}_{s}_{o}")
    }

    /// Parses a name of [`StopReading::name`].
    pub fn parse(name: &str) -> Option<StopReading> {
        StopReading::all().into_iter().find(|r| r.name() == name)
    }
}

fn abs_of<S: Scalar>(x: S) -> Result<S, LawError> {
    Ok(
        if crate::law::decide(&x, "a velocity difference")? == crate::arith::Sign::Negative {
            -x
        } else {
            x
        },
    )
}

/// The square of the chosen norm of the velocity differences of `v` (exact: no root).
pub fn difference_norm_sq<S: Scalar>(
    c: &Constraints<S>,
    norm: DiffNorm,
    v: &[S],
) -> Result<S, LawError> {
    let diffs: Vec<S> = match norm {
        DiffNorm::MaxAdjacent | DiffNorm::EuclideanAdjacent | DiffNorm::SumAdjacent => {
            (0..c.count()).map(|i| c.rate(i, v)).collect()
        }
        _ => {
            let mut d = Vec::new();
            for i in 0..v.len() {
                for j in i + 1..v.len() {
                    d.push(v[i].sub_r(&v[j]));
                }
            }
            d
        }
    };
    let zero = v[0].zero_like();
    Ok(match norm {
        DiffNorm::EuclideanAdjacent | DiffNorm::EuclideanAllPairs => {
            diffs.iter().fold(zero, |acc, d| acc + &d.mul_r(d))
        }
        DiffNorm::SumAdjacent | DiffNorm::SumAllPairs => {
            let mut s = zero;
            for d in diffs {
                s = s + &abs_of(d)?;
            }
            s.mul_r(&s)
        }
        DiffNorm::MaxAdjacent | DiffNorm::MaxAllPairs => {
            let mut m = zero;
            for d in diffs {
                let a = abs_of(d)?;
                if crate::law::decide(&a.sub_r(&m), "a velocity difference")?
                    == crate::arith::Sign::Positive
                {
                    m = a;
                }
            }
            m.mul_r(&m)
        }
    })
}

/// The procedure of Sect. 3.5 with the "almost equal" test of one reading: stop when
/// N(differences) ≤ f·‖v_ref‖ (compared squared, so exactly).
struct ReadingProcedure<'a, S> {
    c: &'a Constraints<S>,
    cors: &'a [S],
    reading: StopReading,
    /// f² (e.g. 10⁻¹⁸ for σ = 10⁻⁹‖·‖).
    factor_sq: &'a S,
    /// ‖v0‖² (the initial velocity), for [`SigmaScale::Initial`].
    initial_sq: S,
}

impl<S: Scalar> ReadingProcedure<'_, S> {
    fn almost_equal(&self, v: &[S]) -> Result<bool, LawError> {
        let n = difference_norm_sq(self.c, self.reading.norm, v)?;
        let r = match self.reading.scale {
            SigmaScale::Initial => self.initial_sq.clone(),
            SigmaScale::Current => v.iter().fold(v[0].zero_like(), |a, x| a + &x.mul_r(x)),
        };
        let gap = n.sub_r(&self.factor_sq.mul_r(&r));
        Ok(crate::law::decide(&gap, "N(differences)^2 - sigma^2")? != crate::arith::Sign::Positive)
    }
}

impl<S: Scalar> PiecewiseMap<S> for ReadingProcedure<'_, S> {
    type Zone = Vec<usize>;
    fn classify(&self, v: &[S]) -> Result<Classified<Vec<usize>>, LawError> {
        let set = self.c.impacting(v)?;
        let test_first = self.reading.order == CheckOrder::BeforeExitTest;
        Ok(
            if set.is_empty() && !(test_first && self.almost_equal(v)?) {
                Classified::Exit(set)
            } else {
                // an exit velocity that passes the test first goes on to `at_rest` (AEEV)
                Classified::Apply(set)
            },
        )
    }
    fn at_rest(&self, v: &[S]) -> Result<bool, LawError> {
        self.almost_equal(v)
    }
    fn apply(&self, set: &Vec<usize>, v: &[S]) -> Result<Vec<S>, LawError> {
        Ok(add(v, &impulse_asymmetric(self.c, self.cors, set, v)?))
    }
}

/// The procedure of Sect. 3.5 on a cradle with the stopping criterion read as `reading`,
/// σ = `factor`·‖·‖.
pub fn run_cradle_reading<S: Scalar>(
    masses: &[S],
    cors: &[S],
    v0: Vector<S>,
    reading: StopReading,
    factor: &S,
    limits: &Limits,
) -> Result<Outcome<S>, LawError> {
    let c = cradle_constraints(masses)?;
    if v0.len() != masses.len() || cors.len() != c.count() {
        return Err(LawError::Domain(format!(
            "{} initial velocities and {} CORs for {} balls",
            v0.len(),
            cors.len(),
            masses.len()
        )));
    }
    let initial_sq = v0.iter().fold(v0[0].zero_like(), |a, x| a + &x.mul_r(x));
    let factor_sq = factor.mul_r(factor);
    let map = ReadingProcedure {
        c: &c,
        cors,
        reading,
        factor_sq: &factor_sq,
        initial_sq,
    };
    let run = iterate(&map, v0.clone(), limits)?;
    let mut velocities = run.velocities.into_iter().skip(1);
    let steps = run.zones[..run.steps]
        .iter()
        .map(|set| Step {
            impacting: set.clone(),
            velocity: velocities.next().unwrap_or_default(),
        })
        .collect();
    let stop = match run.end {
        End::Exit => Stop::Exit,
        End::Rest => Stop::Aeev,
        End::MaxSteps => Stop::MaxIterations,
        End::WorkLimit { step, digits } => Stop::WorkLimit { step, digits },
        End::Undecided {
            quantity, lo, hi, ..
        } => Stop::Undecided { quantity, lo, hi },
        End::Ambiguous { .. } => unreachable!("the impacted set is always one zone"),
    };
    Ok(Outcome {
        initial: v0,
        steps,
        stop,
        last: run.last,
    })
}

/// The factor f of Table 1's threshold σ = f‖v0‖.
pub const TABLE1_FACTOR: &str = "1e-9";

/// Every row of Table 1 under one reading of its stopping criterion (three equal balls,
/// v0 = (100, 0, 0), σ = 10⁻⁹‖·‖, N = 10⁴), compared with the paper as [`table1`] does.
pub fn table1_reading<S: Scalar>(ctx: &S::Ctx, reading: StopReading) -> Vec<Table1Result<S>> {
    let lift = |s: &str| crate::lang::eval_str::<S>(s, ctx).expect("Table 1 inputs are decimals");
    let masses = vec![lift("1"), lift("1"), lift("1")];
    let factor = lift(TABLE1_FACTOR);
    let limits = Limits {
        max_steps: 10_000,
        max_digits: None,
        record: false,
    };
    TABLE1
        .iter()
        .map(|row| {
            let e = lift(row.cor);
            let outcome = run_cradle_reading(
                &masses,
                &[e.clone(), e],
                vec![lift("100"), lift("0"), lift("0")],
                reading,
                &factor,
                &limits,
            );
            let (agreement, iterations_match, termination_match) = match &outcome {
                Ok(o) => (
                    o.final_velocity()
                        .iter()
                        .zip(row.v)
                        .map(|(x, p)| agreement(x, p))
                        .collect(),
                    o.steps.len() == row.iterations,
                    (o.stop == Stop::Aeev) == row.aeev,
                ),
                Err(_) => (vec![Agreement::Differs; 3], false, false),
            };
            Table1Result {
                row: *row,
                outcome,
                agreement,
                iterations_match,
                termination_match,
            }
        })
        .collect()
}

impl<S> Table1Result<S> {
    /// The row's values agree to the printed digits.
    pub fn values_match(&self) -> bool {
        self.agreement.iter().all(|a| *a != Agreement::Differs)
    }
    /// Values, iteration count and termination all agree with the paper.
    pub fn matches(&self) -> bool {
        self.values_match() && self.iterations_match && self.termination_match
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Rational;

    #[test]
    fn default_reading_is_the_table1_of_the_library() {
        let old = table1::<Rational>(&());
        let new = table1_reading::<Rational>(&(), StopReading::DEFAULT);
        for (a, b) in old.iter().zip(&new) {
            let (a, b) = (a.outcome.as_ref().unwrap(), b.outcome.as_ref().unwrap());
            assert_eq!(a.steps.len(), b.steps.len(), "{}", a.steps.len());
            assert_eq!(a.stop, b.stop);
            assert_eq!(a.final_velocity(), b.final_velocity());
        }
    }

    #[test]
    fn difference_norms() {
        let q = |n: i64| Rational::new(n, 1);
        let c = cradle_constraints(&[q(1), q(1), q(1)]).unwrap();
        // differences: adjacent 3 - 1 = 2, 1 - (-1) = 2; all pairs 2, 4, 2
        let v = [q(3), q(1), q(-1)];
        let n = |norm| difference_norm_sq(&c, norm, &v).unwrap();
        assert_eq!(n(DiffNorm::MaxAdjacent), q(4));
        assert_eq!(n(DiffNorm::EuclideanAdjacent), q(8));
        assert_eq!(n(DiffNorm::SumAdjacent), q(16));
        assert_eq!(n(DiffNorm::MaxAllPairs), q(16));
        assert_eq!(n(DiffNorm::EuclideanAllPairs), q(24));
        assert_eq!(n(DiffNorm::SumAllPairs), q(64));
        assert_eq!(StopReading::all().len(), 24);
        for r in StopReading::all() {
            assert_eq!(StopReading::parse(&r.name()), Some(r));
        }
    }
}
