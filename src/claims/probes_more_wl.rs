//! Further probes for the claims of issue 13 (one file per paper, so that they are added
//! independently). Same contract as [`super::probes`]: every probe calls existing law /
//! system code; none restates a formula of a paper.

use super::probes::{err, get, int, r, Inputs};
use crate::arith::{Rational, Scalar};
use crate::lang::Env;
use crate::system::rods::{solve_rods, Rod};

type R = Rational;

/// The probes of this file, with their inputs and outputs (for error messages and docs).
pub const PROBES: &[(&str, &str)] = &[
    (
        "sequential.balls",
        "[m | m1 m2 m3] u1 u2 u3 -> up1 up2 up3 (u+ = Z(u-), eq. (8)) gm1 gm2 gp1 gp2 lam1 lam2; WL Sect. 2-3",
    ),
    (
        "sequential.cradle",
        "[m | m1 m2 m3] -> g_ij (Delassus operator G = W^T M^-1 W, eq. (6)) ginv_ij; WL Sect. 2",
    ),
    (
        "rods.states",
        "u1 u2 .. [cells] -> states s<i>_v s<i>_e (distinct (u_t, c u_x) of the solution, sorted) t<k>_r<i>_c<j>_{v,e} out<i> open_<contact> (last opening time, rod transit times); WL Sect. 4",
    ),
];

/// Runs a probe of this file; `None` if the name is not one of [`PROBES`].
pub fn run(name: &str, inp: &Inputs) -> Option<Result<Env<Rational>, String>> {
    match name {
        "rods.states" => Some(rods_states(inp)),
        _ => None,
    }
}

/// Winandy–Leine Sect. 4: identical thin rods (unit transit time, impedance 1), each cut
/// into `cells` cells (default 2), initial velocities `u1`, `u2`, … (system::rods): the
/// distinct states (u_t, c·u_x) met by the solution at lattice times, sorted by u_t then
/// c·u_x (`s<i>_v`, `s<i>_e`, their number `states`), and every cell state
/// `t<k>_r<i>_c<j>_v`, `…_e` (lattice time k, rod i, cell j, 1-based from the left),
/// the outgoing velocities `out<i>` and the time `open_<c>` at which contact c opens for
/// the last time (in rod transit times l/c).
fn rods_states(inp: &Inputs) -> Result<Env<R>, String> {
    let mut u = Vec::new();
    while inp.contains_key(&format!("u{}", u.len() + 1)) {
        u.push(r(get(inp, &format!("u{}", u.len() + 1))?));
    }
    if u.len() < 2 {
        return Err("rods.states: give at least u1 and u2".into());
    }
    let cells = match inp.get("cells") {
        Some(_) => get(inp, "cells")?
            .to_integer()
            .try_into()
            .map_err(|_| "cells out of range")?,
        None => 2usize,
    };
    let rods: Vec<Rod<R>> = u
        .iter()
        .map(|x| Rod {
            cells,
            impedance: x.one_like(),
        })
        .collect();
    let run = solve_rods(&rods, &u, 1000).map_err(err)?;
    let mut states: Vec<(num_rational::BigRational, num_rational::BigRational)> = Vec::new();
    let mut out = Env::new();
    for snap in &run.snapshots {
        for (i, (vs, es)) in snap.velocity.iter().zip(&snap.strain).enumerate() {
            for (j, (v, e)) in vs.iter().zip(es).enumerate() {
                out.insert(format!("t{}_r{}_c{}_v", snap.t, i + 1, j + 1), v.clone());
                out.insert(format!("t{}_r{}_c{}_e", snap.t, i + 1, j + 1), e.clone());
                let s = (v.to_big(), e.to_big());
                if !states.contains(&s) {
                    states.push(s);
                }
            }
        }
    }
    states.sort();
    out.insert("states".into(), int(states.len()));
    out.insert("steps_per_unit".into(), int(run.steps_per_unit));
    for (i, (v, e)) in states.iter().enumerate() {
        out.insert(format!("s{}_v", i + 1), Rational::from_big(v));
        out.insert(format!("s{}_e", i + 1), Rational::from_big(e));
    }
    for (i, x) in run.outgoing.iter().enumerate() {
        out.insert(format!("out{}", i + 1), x.clone());
    }
    // the time (in rod transit times) at which each contact opens for the last time
    let per_unit = (run.steps_per_unit * cells) as i64;
    for c in 1..u.len() {
        if let Some(e) = run
            .events
            .iter()
            .filter(|e| e.contact == c && !e.closes)
            .max_by_key(|e| e.t)
        {
            out.insert(format!("open_{c}"), Rational::new(e.t as i64, per_unit));
        }
    }
    Ok(out)
}
