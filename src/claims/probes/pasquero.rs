//! Further probes for the claims of issue 13 (one file per paper, so that they are added
//! independently). Same contract as [`crate::claims::probes`]: every probe calls existing law /
//! system code; none restates a formula of a paper.

use super::inputs::{err, get, int, quadratic_or_algebraic, r, usize_in, Inputs};
use crate::arith::Quadratic;
use crate::arith::Rational;
use crate::arith::Scalar;
use crate::lang::{self, Env};
use crate::law::characterization::Stop;
use crate::law::corner::{self, Zone};
use crate::law::V2;
use crate::report::cradle::Agreement;
use crate::system::corner::{CornerRun, Form, Restitution, Trace};
use crate::system::cradle::procedure;
use crate::system::cradle::table1;
use crate::system::cradle::{table1_reading, StopReading, Table1Result};
use crate::system::iterate::Limits;

type R = Rational;

/// The probes of this file, with their inputs and outputs (for error messages and docs).
pub const PROBES: &[(&str, &str)] = &[
    (
        "cradle.table1_readings",
        "[reading] -> rows readings readings_reproducing best_rows_matched row_<i>_readings row_<i>_values_readings mismatch_rows_matched_<reading> | rows_matched values_matched iterations_matched termination_matched iterations_<row> aeev_<row> v<row>_<ball>; Pasquero Table 1 under each reading of its stopping criterion",
    ),
    (
        "corner.asym_run",
        "k eps1 eps2 x y [max_steps] -> steps multiple exit xf yf; Pasquero rule (10) iterated exactly (rational k)",
    ),
    (
        "char.procedure",
        "v1..vn, m1..mn (or m_i_j), n<i>_<j> (constraint i, component j), e1..er [sigma] [max_iter] -> steps multiple exit vf1..vfn ke0 kef rate<i> beta1; Pasquero Sect. 3.5 (8), any r and M",
    ),
];

/// Runs a probe of this file; `None` if the name is not one of [`PROBES`].
pub fn run(name: &str, inp: &Inputs) -> Option<Result<Env<Rational>, String>> {
    match name {
        "cradle.table1_readings" => Some(table1_readings(inp)),
        "corner.asym_run" => Some(corner_asym_run(inp)),
        "char.procedure" => Some(char_procedure(inp)),
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
            if let Ok(o) = &row.outcome {
                for (j, x) in o.final_velocity().iter().enumerate() {
                    out.insert(format!("v{}_{}", i + 1, j + 1), x.clone());
                }
            }
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
    let mut per_row = vec![(0usize, 0usize); crate::system::cradle::TABLE1.len()];
    for reading in &readings {
        let rows = table1_reading::<R>(&(), *reading);
        rows_n = rows.len();
        for (i, row) in rows.iter().enumerate() {
            per_row[i].0 += usize::from(row.matches());
            per_row[i].1 += usize::from(row.values_match());
        }
        let m = rows.iter().filter(|r| r.matches()).count();
        best = best.max(m);
        reproducing += usize::from(m == rows.len());
        out.insert(format!("mismatch_rows_matched_{}", reading.name()), int(m));
    }
    for (i, (all, values)) in per_row.iter().enumerate() {
        out.insert(format!("row_{}_readings", i + 1), int(*all));
        out.insert(format!("row_{}_values_readings", i + 1), int(*values));
    }
    out.extend(Env::from([
        ("rows".into(), int(rows_n)),
        ("readings".into(), int(readings.len())),
        ("readings_reproducing".into(), int(reproducing)),
        ("best_rows_matched".into(), int(best)),
    ]));
    Ok(out)
}

fn usize_of(inp: &Inputs, name: &str, default: usize) -> Result<usize, String> {
    match inp.get(name) {
        None => Ok(default),
        Some(_) => get(inp, name)?
            .to_integer()
            .try_into()
            .map_err(|_| format!("{name} out of range")),
    }
}

/// Pasquero's iterative rule (10) (Sect. 4.2) on the disk in the corner with k = tan α
/// rational (system::corner, asymmetric restitution), exact; no thresholds (S = S_v = 0).
fn corner_asym_run(inp: &Inputs) -> Result<Env<R>, String> {
    let k = r(get(inp, "k")?);
    let (e1, e2) = (r(get(inp, "eps1")?), r(get(inp, "eps2")?));
    let symmetric = (e1.clone() - &e2).sign() == crate::arith::Sign::Zero;
    let limit = usize_of(inp, "max_steps", 10_000)?;
    let run = CornerRun {
        k: k.clone(),
        restitution: Restitution::Asymmetric(e1.clone(), e2),
        threshold: k.zero_like(),
        rest_threshold: k.zero_like(),
        // with one COR, a long run goes on through its certified long run
        max_steps: match symmetric {
            true => limit.min(crate::claims::probes::generic::DIRECT_STEPS),
            false => limit,
        },
        form: Form::Xy,
        max_digits: None,
        record_velocities: false,
    };
    let v0 = V2::new(r(get(inp, "x")?), r(get(inp, "y")?));
    let t = run.run(v0.clone()).map_err(err)?;
    // a run cut by the step limit: with equal CORs its certified long run (TA), else no
    // outcome (a counterexample is a terminating run or a certified limit)
    if let crate::system::corner::Termination::MaxSteps = &t.termination {
        if !symmetric {
            return Err(format!(
                "the run reached its step limit ({} steps): no outcome",
                t.steps
            ));
        }
        let pin = super::inputs::ProbeIn::from_strings(inp);
        let mut out =
            crate::claims::probes::generic::corner_beyond_limit(&pin, &k, &e1, &v0, limit)?;
        out.insert("zone0".into(), {
            let z = corner::zone_xy(&k, &v0, &k.zero_like()).map_err(err)?;
            int(match z {
                Zone::Z0 => 0,
                Zone::Z1 => 1,
                Zone::Z2 => 2,
                Zone::Z12 => 12,
            })
        });
        return Ok(out);
    }
    let f = t.final_velocity();
    let mut out = run_counts(&t);
    out.extend([
        ("xf".into(), f.x.clone()),
        ("yf".into(), f.y.clone()),
        ("zone0".into(), {
            let z = corner::zone_xy(
                &k,
                &V2::new(r(get(inp, "x")?), r(get(inp, "y")?)),
                &k.zero_like(),
            )
            .map_err(err)?;
            int(match z {
                Zone::Z0 => 0,
                Zone::Z1 => 1,
                Zone::Z2 => 2,
                Zone::Z12 => 12,
            })
        }),
    ]);
    Ok(out)
}

/// The step-by-step procedure of Pasquero Sect. 3.5, rule (8), for any number r of
/// constraints of codimension 1 and any mass matrix M (law::characterization through
/// system::cradle::procedure): velocities `v1..vn`, masses `m1..mn` (diagonal M) or
/// `m_i_j` (full, symmetric), normals `n<i>_<j>` (n_i·q̇ > 0: incoming for S_i), CORs
/// `e1..er`. Outputs the run, ½q̇ᵀMq̇ before (`ke0`) and after (`kef`), the final rates
/// `rate<i>` = n_i·q̇_f and β of the first step (`beta1`, when it is multiple).
fn char_procedure(inp: &Inputs) -> Result<Env<R>, String> {
    let (c, cors, v, sigma) = crate::claims::probes::induction_steps::procedure_system(
        &super::inputs::ProbeIn::from_strings(inp),
    )
    .map_err(|e| format!("char.procedure: {e}"))?;
    let limits = Limits {
        max_steps: usize_of(inp, "max_iter", 10_000)?,
        max_digits: None,
        record: false,
    };
    let first = c.impacting(&v).map_err(err)?;
    let beta1 = if first.len() > 1 {
        Some(c.beta(&first, &v).map_err(err)?)
    } else {
        None
    };
    let ke0 = crate::law::characterization::kinetic_energy(&c, &v).map_err(err)?;
    let o = procedure(&c, &cors, v, sigma.as_ref(), &limits).map_err(err)?;
    // a run cut by the default step limit has no outcome (the limit is the tool's, not the
    // law's); a `max_iter` the claim gives is part of its statement
    if o.stop == Stop::MaxIterations && !inp.contains_key("max_iter") {
        return Err(format!(
            "char.procedure: the run reached its step limit ({} steps): no outcome",
            o.steps.len()
        ));
    }
    let f = o.final_velocity();
    let mut out = Env::from([
        ("steps".into(), int(o.steps.len())),
        (
            "multiple".into(),
            int(o.steps.iter().filter(|s| s.impacting.len() > 1).count()),
        ),
        ("exit".into(), int(usize::from(o.stop == Stop::Exit))),
        ("ke0".into(), ke0),
        (
            "kef".into(),
            crate::law::characterization::kinetic_energy(&c, f).map_err(err)?,
        ),
    ]);
    for (i, x) in f.iter().enumerate() {
        out.insert(format!("vf{}", i + 1), x.clone());
    }
    for i in 0..c.count() {
        out.insert(format!("rate{}", i + 1), c.rate(i, f));
    }
    if let Some(b) = beta1 {
        out.insert("beta1".into(), b);
    }
    Ok(out)
}

/// Pasquero's Table 1 recomputed exactly (system::cradle::table1).
pub(crate) fn cradle_table1() -> Result<Env<R>, String> {
    let rows = table1::<R>(&());
    let values = rows
        .iter()
        .filter(|r| r.agreement.iter().all(|a| *a != Agreement::Differs))
        .count();
    let its = rows.iter().filter(|r| r.iterations_match).count();
    let term = rows.iter().filter(|r| r.termination_match).count();
    let mut out = Env::new();
    let mut n = 0;
    for row in &rows {
        let ok = row.agreement.iter().all(|a| *a != Agreement::Differs)
            && row.iterations_match
            && row.termination_match;
        if !ok {
            n += 1;
            out.insert(
                format!("mismatch_cor_{n}"),
                r(lang::rational(row.row.cor).map_err(|e| e.to_string())?),
            );
            let its = row.outcome.as_ref().map(|o| o.steps.len()).unwrap_or(0);
            out.insert(format!("mismatch_iterations_{n}"), int(its));
        }
    }
    out.extend(Env::from([
        ("rows".into(), int(rows.len())),
        ("agree_values".into(), int(values)),
        ("agree_iterations".into(), int(its)),
        ("agree_termination".into(), int(term)),
    ]));
    Ok(out)
}

/// Pasquero's rule (10) iterated exactly (α like pi/6 in Q(√d), like pi/16 in the
/// algebraic backend).
pub(crate) fn corner_quadratic(inp: &Inputs) -> Result<Env<R>, String> {
    quadratic_or_algebraic(
        || corner_exact::<Quadratic>(inp),
        || corner_exact::<crate::arith::Algebraic>(inp),
    )
}

fn corner_exact<S: Scalar<Ctx = ()>>(inp: &Inputs) -> Result<Env<R>, String> {
    let q = |n: &str| -> Result<S, String> {
        let s = inp
            .get(n)
            .ok_or_else(|| format!("probe input `{n}` missing"))?;
        crate::lang::eval_str::<S>(s, &()).map_err(err)
    };
    let alpha = inp.get("alpha").ok_or("probe input `alpha` missing")?;
    let k = crate::lang::eval_str::<S>(&format!("tan({alpha})"), &()).map_err(err)?;
    let run = CornerRun {
        k: k.clone(),
        restitution: Restitution::Asymmetric(q("eps1")?, q("eps2")?),
        threshold: k.zero_like(),
        rest_threshold: k.zero_like(),
        max_steps: usize_in(inp, "max_steps", "10000")?,
        form: Form::Xy,
        max_digits: None,
        record_velocities: false,
    };
    let t = run.run(V2::new(q("x")?, q("y")?)).map_err(err)?;
    Ok(run_counts(&t))
}

/// A corner run's counts: its steps, its multiple impacts (steps in Z12) and whether it
/// exits (1) or stops otherwise (0).
fn run_counts<S: Scalar>(t: &Trace<S>) -> Env<R> {
    Env::from([
        ("steps".into(), int(t.steps)),
        (
            "multiple".into(),
            int(t.zones.iter().filter(|z| **z == Zone::Z12).count()),
        ),
        (
            "exit".into(),
            int(usize::from(t.termination.name() == "exit")),
        ),
    ])
}
