//! Newton's cradle: n balls on a line, any masses, one COR per contact, through
//! Pasquero's characterization (`pasquero-nonideal-multiple-constraints.txt`, Sect. 4.1),
//! and the reproduction of its Table 1.
//!
//! Ball i has velocity ẋ_i; the contact of balls i, i+1 is the constraint
//! x_i − x_{i+1} + 2R ≤ 0 with normal n = e_i − e_{i+1}: it is impacted when
//! ẋ_i − ẋ_{i+1} > 0.

use crate::arith::Scalar;
use crate::law::characterization::{iterate, Constraints, Outcome};
use crate::law::LawError;
use crate::linalg::{SymMatrix, Vector};

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

/// Runs the procedure of Sect. 3.5 on a cradle.
pub fn run_cradle<S: Scalar>(
    masses: &[S],
    cors: &[S],
    v0: Vector<S>,
    sigma: Option<&S>,
    max_iter: usize,
) -> Result<Outcome<S>, LawError> {
    let c = cradle_constraints(masses)?;
    if v0.len() != masses.len() {
        return Err(LawError::Domain(format!(
            "{} initial velocities for {} balls",
            v0.len(),
            masses.len()
        )));
    }
    iterate(&c, cors, v0, sigma, max_iter)
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

/// How one of our values compares with the printed one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Agreement {
    /// Equal to the printed decimal, exactly.
    Exact,
    /// Within half a unit of the printed decimal's last digit.
    Rounded,
    /// Further away.
    Differs,
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
}

/// Errors of a cradle run: bad input (exit code 2) or a law error.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CradleError {
    #[error("{option}: {reason}")]
    Input {
        option: &'static str,
        reason: String,
    },
    #[error(transparent)]
    Law(#[from] LawError),
}

fn list<S: Scalar>(src: &str, option: &'static str, ctx: &S::Ctx) -> Result<Vec<S>, CradleError> {
    crate::lang::split_list(src)
        .into_iter()
        .map(|p| {
            crate::lang::eval_str::<S>(p, ctx).map_err(|e| CradleError::Input {
                option,
                reason: e.to_string(),
            })
        })
        .collect()
}

fn input(option: &'static str, reason: impl Into<String>) -> CradleError {
    CradleError::Input {
        option,
        reason: reason.into(),
    }
}

impl CradleSpec {
    /// Builds the inputs on backend `S` and runs the procedure of Sect. 3.5.
    pub fn run<S: Scalar>(&self, ctx: &S::Ctx) -> Result<Outcome<S>, CradleError> {
        let n = self.balls;
        if n < 2 {
            return Err(input("--balls", "a cradle needs at least 2 balls"));
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
            Some(s) => Some(list::<S>(s, "--sigma", ctx)?.remove(0)),
            None => None,
        };
        Ok(run_cradle(
            &masses,
            &cors,
            v0,
            sigma.as_ref(),
            self.max_iter,
        )?)
    }

    /// The run as JSON: `{"arith", "iterations", "termination", "final", "trace"}`.
    pub fn report(
        &self,
        backend: crate::backend::Backend,
    ) -> Result<serde_json::Value, CradleError> {
        struct Job<'a>(&'a CradleSpec, crate::backend::Backend);
        impl crate::backend::RunScalar for Job<'_> {
            type Out = Result<serde_json::Value, CradleError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                let o = self.0.run::<S>(ctx)?;
                Ok(outcome_json(&o, &self.1.to_string()))
            }
        }
        backend.run(Job(self, backend))
    }
}

fn vector_json<S: Scalar>(v: &[S]) -> serde_json::Value {
    serde_json::Value::Array(
        v.iter()
            .map(crate::system::corner_spec::scalar_json)
            .collect(),
    )
}

/// An outcome of the procedure as JSON.
pub fn outcome_json<S: Scalar>(o: &Outcome<S>, arith: &str) -> serde_json::Value {
    use serde_json::json;
    let trace: Vec<_> = o
        .steps
        .iter()
        .map(|s| {
            json!({
                "impacting": s.impacting.iter().map(|i| i + 1).collect::<Vec<_>>(),
                "kind": s.kind(),
                "velocity": vector_json(&s.velocity),
            })
        })
        .collect();
    let mut out = json!({
        "arith": arith,
        "iterations": o.steps.len(),
        "termination": o.stop.name(),
        "final": vector_json(o.final_velocity()),
        "trace": trace,
    });
    if let crate::law::characterization::Stop::Undecided { quantity, lo, hi } = &o.stop {
        out["undecided"] = json!({"quantity": quantity, "lo": lo, "hi": hi});
    }
    out
}

/// Table 1 beside this program's values, as JSON rows.
pub fn table1_report(backend: crate::backend::Backend) -> serde_json::Value {
    struct Job(crate::backend::Backend);
    impl crate::backend::RunScalar for Job {
        type Out = serde_json::Value;
        fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
            use serde_json::json;
            let rows: Vec<_> = table1::<S>(ctx)
                .into_iter()
                .map(|r| {
                    let ours = match &r.outcome {
                        Ok(o) => json!({
                            "final": vector_json(o.final_velocity()),
                            "decimal": o.final_velocity().iter().map(|x| format!("{:.10}", x.to_f64())).collect::<Vec<_>>(),
                            "iterations": o.steps.len(),
                            "termination": o.stop.name(),
                        }),
                        Err(e) => json!({"error": e.to_string()}),
                    };
                    let matched = r.iterations_match
                        && r.termination_match
                        && r.agreement.iter().all(|a| *a != Agreement::Differs);
                    json!({
                        "cor": r.row.cor,
                        "paper": {"v": r.row.v, "iterations": r.row.iterations, "aeev": r.row.aeev},
                        "ours": ours,
                        "agreement": r.agreement,
                        "match": matched,
                    })
                })
                .collect();
            json!({"arith": self.0.to_string(), "sigma": TABLE1_SIGMA, "rows": rows})
        }
    }
    backend.run(Job(backend))
}

/// Table 1 as text: the paper's row, ours, and whether they match.
pub fn table1_text(report: &serde_json::Value) -> String {
    let mut s = format!(
        "Table 1 of Pasquero (three equal balls, v0 = 100, sigma = {}), arith = {}\n",
        report["sigma"].as_str().unwrap_or("?"),
        report["arith"].as_str().unwrap_or("?")
    );
    s += &format!(
        "{:>7} | {:>12} {:>12} {:>12} {:>9} | {:>14} {:>14} {:>14} {:>9} | match\n",
        "COR", "paper v1", "v2", "v3", "its", "ours v1", "v2", "v3", "its"
    );
    let empty = Vec::new();
    for r in report["rows"].as_array().unwrap_or(&empty) {
        let p = &r["paper"];
        let pits = if p["aeev"].as_bool().unwrap_or(false) {
            format!("AEEV/{}", p["iterations"])
        } else {
            p["iterations"].to_string()
        };
        let o = &r["ours"];
        let d = |i: usize| o["decimal"][i].as_str().unwrap_or("-").to_string();
        let oits = if o["termination"] == "aeev" {
            format!("AEEV/{}", o["iterations"])
        } else {
            o["iterations"].to_string()
        };
        s += &format!(
            "{:>7} | {:>12} {:>12} {:>12} {:>9} | {:>14} {:>14} {:>14} {:>9} | {}\n",
            r["cor"].as_str().unwrap_or("?"),
            p["v"][0].as_str().unwrap_or("?"),
            p["v"][1].as_str().unwrap_or("?"),
            p["v"][2].as_str().unwrap_or("?"),
            pits,
            d(0),
            d(1),
            d(2),
            oits,
            if r["match"].as_bool().unwrap_or(false) {
                "yes"
            } else {
                "NO"
            }
        );
    }
    s.trim_end().to_string()
}
