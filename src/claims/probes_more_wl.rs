//! Further probes for the claims of issue 13 (one file per paper, so that they are added
//! independently). Same contract as [`super::probes`]: every probe calls existing law /
//! system code; none restates a formula of a paper.

use super::probes::{err, get, int, r, Inputs};
use crate::arith::{Rational, Scalar};
use crate::lang::Env;
use crate::law::sequential::classic::{ball_velocities, contact_velocities};
use crate::law::sequential::{construct_law, Cradle};
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
        "sequential.balls" => Some(sequential_balls(inp)),
        "sequential.cradle" => Some(sequential_cradle(inp)),
        "rods.states" => Some(rods_states(inp)),
        _ => None,
    }
}

/// The masses m1, m2, m3: each `m{i}` if given, else `m`, else 1.
fn masses(inp: &Inputs) -> Result<[R; 3], String> {
    let m = |i: usize| -> Result<R, String> {
        let k = format!("m{i}");
        if inp.contains_key(&k) {
            get(inp, &k).map(r)
        } else if inp.contains_key("m") {
            get(inp, "m").map(r)
        } else {
            Ok(int(1))
        }
    };
    Ok([m(1)?, m(2)?, m(3)?])
}

/// Winandy–Leine eq. (8): u⁺ = Z(u⁻) of the Sequential Impact Law (the law constructed
/// from P1–P3, `law::sequential`): γ⁻ = Wᵀu⁻ (eq. (2), `classic::contact_velocities`),
/// γ⁺ = S(γ⁻) (eq. (19)), Λ = G⁻¹(γ⁺ − γ⁻) (eq. (6)), u⁺ = u⁻ + M⁻¹WΛ (eq. (1),
/// `classic::ball_velocities`).
fn sequential_balls(inp: &Inputs) -> Result<Env<R>, String> {
    let m = masses(inp)?;
    let map = construct_law(&m).map_err(err)?;
    let cradle = Cradle::new(&m).map_err(err)?;
    let u = [r(get(inp, "u1")?), r(get(inp, "u2")?), r(get(inp, "u3")?)];
    let gm = contact_velocities(&u);
    let e = map.apply(&gm).map_err(err)?;
    let lam = cradle.impulse(&gm, &e.gamma_plus);
    let up = ball_velocities(&cradle, &u, &lam).map_err(err)?;
    let mut out = Env::new();
    for (i, x) in up.iter().enumerate() {
        out.insert(format!("up{}", i + 1), x.clone());
    }
    for i in 0..2 {
        out.insert(format!("gm{}", i + 1), gm[i].clone());
        out.insert(format!("gp{}", i + 1), e.gamma_plus[i].clone());
        out.insert(format!("lam{}", i + 1), lam[i].clone());
    }
    for c in &map.cones {
        out.insert(format!("in_{}", c.name), int(usize::from(c.name == e.name)));
    }
    Ok(out)
}

/// Winandy–Leine eq. (6): the Delassus operator G = WᵀM⁻¹W of the law's cradle and its
/// inverse (the metric of P2).
fn sequential_cradle(inp: &Inputs) -> Result<Env<R>, String> {
    let cradle = Cradle::new(&masses(inp)?).map_err(err)?;
    let mut out = Env::new();
    for i in 0..2 {
        for j in 0..2 {
            out.insert(format!("g_{}{}", i + 1, j + 1), cradle.g[i][j].clone());
            out.insert(
                format!("ginv_{}{}", i + 1, j + 1),
                cradle.g_inv[i][j].clone(),
            );
        }
    }
    Ok(out)
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
