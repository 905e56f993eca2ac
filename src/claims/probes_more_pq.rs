//! Further probes for the claims of issue 13 (one file per paper, so that they are added
//! independently). Same contract as [`super::probes`]: every probe calls existing law /
//! system code; none restates a formula of a paper.

use super::probes::{int, r, Inputs};
use crate::arith::Rational;
use crate::lang::{self, Env};
use crate::system::cradle::{table1_reading, StopReading, Table1Result};

type R = Rational;

/// The probes of this file, with their inputs and outputs (for error messages and docs).
pub const PROBES: &[(&str, &str)] = &[(
    "cradle.table1_readings",
    "[reading] -> rows readings readings_reproducing best_rows_matched mismatch_rows_matched_<reading> | rows_matched values_matched iterations_matched termination_matched iterations_<row> aeev_<row>; Pasquero Table 1 under each reading of its stopping criterion",
)];

/// Runs a probe of this file; `None` if the name is not one of [`PROBES`].
pub fn run(name: &str, inp: &Inputs) -> Option<Result<Env<Rational>, String>> {
    match name {
        "cradle.table1_readings" => Some(table1_readings(inp)),
        _ => None,
    }
}

fn count(rows: &[Table1Result<R>], f: impl Fn(&Table1Result<R>) -> bool) -> R {
    int(rows.iter().filter(|r| f(r)).count())
}

/// Pasquero's Table 1 (Sect. 4.1) recomputed exactly under the readings of its stopping
/// criterion "σ = 10⁻⁹‖v0‖ for the differences of the velocities of the three disks"
/// (system::cradle::table1_reading): with `reading`, that reading row by row; without,
/// every reading, how many rows each reproduces (values to the printed digits, iteration
/// count and AEEV / exit termination).
fn table1_readings(inp: &Inputs) -> Result<Env<R>, String> {
    if let Some(name) = inp.get("reading") {
        let reading = StopReading::parse(name).ok_or_else(|| {
            format!(
                "reading: unknown \"{name}\" (known: {})",
                StopReading::all()
                    .iter()
                    .map(StopReading::name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
        let rows = table1_reading::<R>(&(), reading);
        let mut out = Env::from([
            ("rows".into(), int(rows.len())),
            ("rows_matched".into(), count(&rows, |r| r.matches())),
            ("values_matched".into(), count(&rows, |r| r.values_match())),
            (
                "iterations_matched".into(),
                count(&rows, |r| r.iterations_match),
            ),
            (
                "termination_matched".into(),
                count(&rows, |r| r.termination_match),
            ),
        ]);
        let mut n = 0;
        for (i, row) in rows.iter().enumerate() {
            let (its, aeev) = match &row.outcome {
                Ok(o) => (
                    o.steps.len(),
                    o.stop == crate::law::characterization::Stop::Aeev,
                ),
                Err(e) => return Err(format!("row {}: {e}", row.row.cor)),
            };
            out.insert(format!("iterations_{}", i + 1), int(its));
            out.insert(format!("aeev_{}", i + 1), int(usize::from(aeev)));
            if !row.matches() {
                n += 1;
                let cor = lang::rational(row.row.cor).map_err(|e| e.to_string())?;
                out.insert(format!("mismatch_{n}_cor"), r(cor));
                out.insert(format!("mismatch_{n}_iterations"), int(its));
                out.insert(
                    format!("mismatch_{n}_values_agree"),
                    int(usize::from(row.values_match())),
                );
            }
        }
        return Ok(out);
    }
    let readings = StopReading::all();
    let mut out = Env::new();
    let mut best = 0;
    let mut reproducing = 0;
    let mut rows_n = 0;
    for reading in &readings {
        let rows = table1_reading::<R>(&(), *reading);
        rows_n = rows.len();
        let m = rows.iter().filter(|r| r.matches()).count();
        best = best.max(m);
        reproducing += usize::from(m == rows.len());
        out.insert(
            format!("mismatch_rows_matched_{}", reading.name()),
            int(m),
        );
    }
    out.extend(Env::from([
        ("rows".into(), int(rows_n)),
        ("readings".into(), int(readings.len())),
        ("readings_reproducing".into(), int(reproducing)),
        ("best_rows_matched".into(), int(best)),
    ]));
    Ok(out)
}
