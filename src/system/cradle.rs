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
    let p = crate::expr::parse(printed)
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
    let lift = |s: &str| crate::expr::eval_str::<S>(s, ctx).expect("Table 1 inputs are decimals");
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
