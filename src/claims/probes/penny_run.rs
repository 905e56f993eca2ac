//! Probes into the penny's runs on the table (Clark–Bloch Sect. VI, Figs. 1–4):
//! certified runs (MPFR intervals, Lohner's method) summarised by exact facts.

use super::inputs::{err, get, int, word, Inputs};
use crate::arith::{MpInterval, Rational, Scalar};
use crate::lang::Env;
use crate::system::penny::{Boundary, End, Penny};
use crate::system::penny_run::{section_vi_a, RunLaw, Stop, Table};
use num_rational::BigRational;

type R = Rational;

/// `penny.run`: `table` = circle | ellipse (Table I: a = 0.20 or 0.15, b = 0.20), `law` =
/// elastic | plastic, `impacts` = N, the data of Sect. VI-A, MPFR intervals of `bits`
/// (default 256). Outputs: `impacts` (the number certified; a run that stops undecided is
/// an error, so the claim is inconclusive, not refuted), `front_first` (1: the first
/// impact is the front end's (27)), `energy_kept` (1: every post-impact energy encloses
/// the initial energy ½(I + mR²)θ̇₀² + ½Jφ̇₀²), `energy_drops` (1: at every impact the
/// enclosure after lies strictly below the one before), `alternating` (1: the ends
/// alternate front, back, front, …).
pub(crate) fn penny_run(inp: &Inputs) -> Result<Env<R>, String> {
    let bits = match inp.get("bits") {
        Some(_) => u32::try_from(get(inp, "bits")?.to_integer()).map_err(err)?,
        None => 256,
    };
    let like = MpInterval::from_i64(1, &bits);
    let q = |n: i64, d: i64| like.lift(&BigRational::new(n.into(), d.into()));
    let boundary = match word(inp, "table")? {
        "circle" => Boundary::Ellipse {
            a: q(1, 5),
            b: q(1, 5),
        },
        "ellipse" => Boundary::Ellipse {
            a: q(3, 20),
            b: q(1, 5),
        },
        other => return Err(format!("penny.run: unknown table {other}")),
    };
    let law = match word(inp, "law")? {
        "elastic" => RunLaw::Elastic,
        "plastic" => RunLaw::Plastic,
        other => return Err(format!("penny.run: unknown law {other}")),
    };
    let n = usize::try_from(get(inp, "impacts")?.to_integer()).map_err(err)?;
    let table = Table {
        penny: Penny::table_i(&like),
        boundary,
        law,
    };
    let start = section_vi_a(&like);
    let run = table.run(&start, n).map_err(err)?;
    match &run.stop {
        Stop::Done => {}
        other => return Err(format!("penny.run: the certified run stopped: {other:?}")),
    }
    let e0 = BigRational::new(1_500_100.into(), 80_000_000_000i64.into());
    let flag = |b: bool| int(usize::from(b));
    let kept = run
        .impacts
        .iter()
        .all(|m| m.energy.1.contains_rational(&e0));
    let drops = run
        .impacts
        .iter()
        .all(|m| m.energy.1.hi() < m.energy.0.lo());
    let alternating = run
        .impacts
        .iter()
        .enumerate()
        .all(|(i, m)| m.end == if i % 2 == 0 { End::Front } else { End::Back });
    let mut out = Env::new();
    out.insert("impacts".into(), int(run.impacts.len()));
    out.insert(
        "front_first".into(),
        flag(run.impacts.first().is_some_and(|m| m.end == End::Front)),
    );
    out.insert("energy_kept".into(), flag(kept));
    out.insert("energy_drops".into(), flag(drops));
    out.insert("alternating".into(), flag(alternating));
    Ok(out)
}
