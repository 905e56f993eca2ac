//! One step of an iterated law, from any state, in any arithmetic: the step lemmas of a
//! proof by induction over the steps of a run (`claims::induction`). Each probe calls
//! the law's own step (`system::iterate::step` of the map its run iterates); none restates
//! a formula of the paper.

use super::inputs::ProbeIn;
use crate::arith::Scalar;
use crate::lang::Env;
use crate::law::characterization::Constraints;
use crate::linalg::SymMatrix;
use crate::system::cradle::{cradle_constraints, procedure_step};
use crate::system::iterate::Stepped;

/// The probes of this file (generic), with their inputs and outputs.
pub const PROBES: &[(&str, &str)] = &[
    (
        "cradle.step",
        "eps v1 v2 v3 [m1 m2 m3] [sigma] -> u1..3 rate1 rate2 impacting goes_on multi exit rest next_v1..3 (the next state; = u when the run stops) next_rate1 next_rate2 [next_impacting, where decided]; one step of cradle.run, Pasquero Sect. 3.5",
    ),
    (
        "char.step",
        "as char.procedure (v1..vn, m1..mn or m_i_j, n<i>_<j>, e1..er, [sigma]) -> u1..un rate<i> impacting goes_on multi exit rest next_v1..next_vn (the next state; = u when the run stops) next_rate<i> [next_impacting, where decided]; one step of char.procedure, Pasquero Sect. 3.5 (8)",
    ),
];

/// Runs a probe of this file; `None` for another name.
pub fn run<S: Scalar>(name: &str, inp: &ProbeIn<S>) -> Option<Result<Env<S>, String>> {
    match name {
        "cradle.step" => Some(cradle_step(inp)),
        "char.step" => Some(char_step(inp)),
        _ => None,
    }
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The velocity `v1`, `v2`, … (at least 2).
fn velocity<S: Scalar>(inp: &ProbeIn<S>) -> Result<Vec<S>, String> {
    let mut v = Vec::new();
    while inp.has(&format!("v{}", v.len() + 1)) {
        v.push(inp.num(&format!("v{}", v.len() + 1))?);
    }
    if v.len() < 2 {
        return Err("give v1, v2, ...".into());
    }
    Ok(v)
}

fn sigma<S: Scalar>(inp: &ProbeIn<S>) -> Result<Option<S>, String> {
    match inp.has("sigma") {
        true => Ok(Some(inp.num("sigma")?)),
        false => Ok(None),
    }
}

/// One step of `cradle.run`: three balls (masses `m1..m3`, default 1), COR `eps` at both
/// contacts.
fn cradle_step<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let masses: Vec<S> = ["m1", "m2", "m3"].iter().map(|m| inp.opt(m, 1)).collect();
    let e = inp.num("eps")?;
    let v = velocity(inp)?;
    let c = cradle_constraints(&masses).map_err(err)?;
    outputs(inp, &c, &[e.clone(), e], &v, sigma(inp)?.as_ref())
}

/// One step of `char.procedure` (the same inputs).
fn char_step<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let (c, cors, v, sigma) = procedure_system(inp)?;
    outputs(inp, &c, &cors, &v, sigma.as_ref())
}

/// (constraints, CORs, velocity, AEEV threshold σ).
pub(crate) type ProcedureSystem<S> = (Constraints<S>, Vec<S>, Vec<S>, Option<S>);

/// The system of `char.procedure` and `char.step`: velocities `v1..vn`, masses
/// `m1..mn` (diagonal, default 1) or `m_i_j` (the upper triangle of a symmetric M),
/// normals `n<i>_<j>` (missing components 0), CORs `e1..er`, `sigma`: the constraints,
/// the CORs, the velocity and the AEEV threshold.
pub(crate) fn procedure_system<S: Scalar>(inp: &ProbeIn<S>) -> Result<ProcedureSystem<S>, String> {
    let v = velocity(inp)?;
    let n = v.len();
    let mass = if inp.has("m_1_1") {
        let mut rows = Vec::new();
        for i in 1..=n {
            rows.push(
                (i..=n)
                    .map(|j| inp.num(&format!("m_{i}_{j}")))
                    .collect::<Result<Vec<_>, _>>()?,
            );
        }
        SymMatrix::from_upper(rows).map_err(err)?
    } else {
        let d: Vec<S> = (1..=n).map(|i| inp.opt(&format!("m{i}"), 1)).collect();
        SymMatrix::diagonal(&d)
    };
    let has_normal = |i: usize| (1..=n).any(|j| inp.has(&format!("n{i}_{j}")));
    let mut normals = Vec::new();
    while has_normal(normals.len() + 1) {
        let i = normals.len() + 1;
        normals.push(
            (1..=n)
                .map(|j| inp.opt(&format!("n{i}_{j}"), 0))
                .collect::<Vec<S>>(),
        );
    }
    let cors = (1..=normals.len())
        .map(|i| inp.num(&format!("e{i}")))
        .collect::<Result<Vec<_>, _>>()?;
    let c = Constraints::new(mass, normals).map_err(err)?;
    Ok((c, cors, v, sigma(inp)?))
}

/// The state `u`, its rates and impacted count, the step's decision and the next state
/// with its rates and impacted count.
fn outputs<S: Scalar>(
    inp: &ProbeIn<S>,
    c: &Constraints<S>,
    cors: &[S],
    v: &[S],
    sigma: Option<&S>,
) -> Result<Env<S>, String> {
    let mut out = Env::new();
    let flag = |b: bool| inp.int(usize::from(b));
    let (w, impacting, exit, rest) = match procedure_step(c, cors, v, sigma).map_err(err)? {
        Stepped::Exit(z) => (v.to_vec(), z.len(), true, false),
        Stepped::Rest(z) => (v.to_vec(), z.len(), false, true),
        Stepped::Next(z, w) => (w, z.len(), false, false),
        Stepped::Ambiguous(_) => return Err("the impacted set is always one zone".into()),
    };
    out.insert("impacting".into(), inp.int(impacting));
    // what the run does at v: goes on (a rule applied), with a multiple impact
    out.insert("goes_on".into(), flag(!exit && !rest));
    out.insert("multi".into(), flag(!exit && !rest && impacting > 1));
    out.insert("exit".into(), flag(exit));
    out.insert("rest".into(), flag(rest));
    // where every rate of the next state has a decided sign (symbolically it may not)
    if let Ok(set) = c.impacting(&w) {
        out.insert("next_impacting".into(), inp.int(set.len()));
    }
    for i in 0..c.count() {
        out.insert(format!("rate{}", i + 1), c.rate(i, v));
        out.insert(format!("next_rate{}", i + 1), c.rate(i, &w));
    }
    for (i, (x, y)) in v.iter().zip(&w).enumerate() {
        out.insert(format!("u{}", i + 1), x.clone());
        out.insert(format!("next_v{}", i + 1), y.clone());
    }
    Ok(out)
}
