//! Further probes for the claims of issue 13 (one file per paper, so that they are added
//! independently). Same contract as [`crate::claims::probes`]: every probe calls existing law /
//! system code; none restates a formula of a paper. The rod probes run in any arithmetic
//! ([`crate::claims::probes::generic`] dispatches them).

use super::inputs::err;
use super::inputs::ProbeIn;
use crate::arith::{Scalar, Sign};
use crate::lang::Env;
use crate::law::decide;
use crate::system::rods::{rods_outgoing, solve_rods, Rod};

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

/// Winandy–Leine Sect. 4: identical thin rods (unit transit time, impedance 1), each cut
/// into `cells` cells (default 2), initial velocities `u1`, `u2`, … (system::rods): the
/// distinct states (u_t, c·u_x) met by the solution at lattice times, sorted by u_t then
/// c·u_x (`s<i>_v`, `s<i>_e`, their number `states`), and every cell state
/// `t<k>_r<i>_c<j>_v`, `…_e` (lattice time k, rod i, cell j, 1-based from the left),
/// the outgoing velocities `out<i>` and the time `open_<c>` at which contact c opens for
/// the last time (in rod transit times l/c). In any arithmetic: equal states and the
/// order are decided by `sign()` (on `Symbolic`, an undecided comparison stops the probe
/// and the prover splits the cell).
pub(crate) fn rods_states<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let u = velocities(inp, "rods.states")?;
    let cells = inp.count("cells", 2)?;
    let rods: Vec<Rod<S>> = u
        .iter()
        .map(|x| Rod {
            cells,
            impedance: x.one_like(),
        })
        .collect();
    let run = solve_rods(&rods, &u, 1000).map_err(err)?;
    let mut states: Vec<(S, S)> = Vec::new();
    let mut out = Env::new();
    for snap in &run.snapshots {
        for (i, (vs, es)) in snap.velocity.iter().zip(&snap.strain).enumerate() {
            for (j, (v, e)) in vs.iter().zip(es).enumerate() {
                out.insert(format!("t{}_r{}_c{}_v", snap.t, i + 1, j + 1), v.clone());
                out.insert(format!("t{}_r{}_c{}_e", snap.t, i + 1, j + 1), e.clone());
                insert_sorted(&mut states, (v.clone(), e.clone()))?;
            }
        }
    }
    out.insert("states".into(), inp.int(states.len()));
    out.insert("steps_per_unit".into(), inp.int(run.steps_per_unit));
    for (i, (v, e)) in states.into_iter().enumerate() {
        out.insert(format!("s{}_v", i + 1), v);
        out.insert(format!("s{}_e", i + 1), e);
    }
    for (i, x) in run.outgoing.iter().enumerate() {
        out.insert(format!("out{}", i + 1), x.clone());
    }
    // the time (in rod transit times) at which each contact opens for the last time
    let per_unit = run.steps_per_unit * cells;
    for c in 1..u.len() {
        if let Some(e) = run
            .events
            .iter()
            .filter(|e| e.contact == c && !e.closes)
            .max_by_key(|e| e.t)
        {
            let t = inp.int(e.t).checked_div(&inp.int(per_unit)).map_err(err)?;
            out.insert(format!("open_{c}"), t);
        }
    }
    Ok(out)
}

/// Winandy–Leine Sect. 4: identical thin rods (wave equation on a lattice, one cell per
/// rod) with initial velocities `u1`, `u2`, … (undeformed, touching): outgoing velocities
/// `out1`, …, `vibrating` (1/0), the contact velocities γ⁻ᵢ = uᵢ₊₁ − uᵢ as `gm{i}` and
/// γ⁺ as `gp{i}` (eq. (2)). In any arithmetic.
pub(crate) fn rods<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let u = velocities(inp, "rods")?;
    let run = rods_outgoing(&u, 100_000).map_err(err)?;
    let mut out = Env::from([("vibrating".into(), inp.int(usize::from(run.vibrating)))]);
    for (i, x) in run.outgoing.iter().enumerate() {
        out.insert(format!("out{}", i + 1), x.clone());
    }
    for i in 0..u.len() - 1 {
        out.insert(format!("gm{}", i + 1), u[i + 1].sub_r(&u[i]));
        out.insert(
            format!("gp{}", i + 1),
            run.outgoing[i + 1].sub_r(&run.outgoing[i]),
        );
    }
    Ok(out)
}

/// The inputs `u1`, `u2`, … (at least two).
fn velocities<S: Scalar>(inp: &ProbeIn<S>, probe: &str) -> Result<Vec<S>, String> {
    let mut u = Vec::new();
    while inp.has(&format!("u{}", u.len() + 1)) {
        u.push(inp.num(&format!("u{}", u.len() + 1))?);
    }
    if u.len() < 2 {
        return Err(format!("{probe}: give at least u1 and u2"));
    }
    Ok(u)
}

/// Inserts the state `s` into the sorted, duplicate-free `states` (order: u_t, then c·u_x),
/// every comparison decided by `sign()`.
fn insert_sorted<S: Scalar>(states: &mut Vec<(S, S)>, s: (S, S)) -> Result<(), String> {
    let cmp = |a: &(S, S), b: &(S, S)| -> Result<Sign, String> {
        match decide(&a.0.sub_r(&b.0), "a difference of rod velocities").map_err(err)? {
            Sign::Zero => decide(&a.1.sub_r(&b.1), "a difference of rod strains").map_err(err),
            other => Ok(other),
        }
    };
    for i in 0..states.len() {
        match cmp(&s, &states[i])? {
            Sign::Zero => return Ok(()),
            Sign::Negative => {
                states.insert(i, s);
                return Ok(());
            }
            _ => {}
        }
    }
    states.push(s);
    Ok(())
}
