//! Winandy–Leine (2017), Sect. 4: colliding linear-elastic thin rods, an exact
//! event-driven solver of the 1-D wave equation (31).
//!
//! Each rod is cut into cells of equal wave transit time (the time unit); at integer times
//! every cell is uniform, so the state is two Riemann invariants per cell, R = v − c·u_x
//! (right-going) and L = v + c·u_x (left-going), each moving one cell per step. Free ends
//! reflect (Table 1: u_x = 0), closed contacts transmit and reflect by the impedances
//! (Table 1, "impact between ends", for equal impedances), and a contact is closed while
//! it transmits compression (L_right < R_left). Piecewise constant data and rational
//! impedances keep everything rational: no rounding in the exact backend.

use crate::arith::{Scalar, Sign};
use crate::law::{decide, LawError};

/// One rod: its transit time in cells (length / c in time units) and its impedance
/// z = ρAc; its mass is z · cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Rod<S> {
    pub cells: usize,
    pub impedance: S,
}

/// A contact opening or closing at an integer time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RodEvent {
    /// Time in lattice steps; the time is `t / steps_per_unit` (units of the given
    /// cell transit time, ℓ/c for unit rods).
    pub t: usize,
    /// The contact between rods `contact` and `contact + 1` (1-based).
    pub contact: usize,
    /// `true`: the contact closes (starts transmitting), `false`: it opens.
    pub closes: bool,
}

/// The state of every cell at one integer time: (velocity, c·u_x) per cell per rod.
#[derive(Clone, Debug, PartialEq)]
pub struct RodSnapshot<S> {
    pub t: usize,
    pub velocity: Vec<Vec<S>>,
    pub strain: Vec<Vec<S>>,
}

/// The outcome of a rod collision.
#[derive(Clone, Debug, PartialEq)]
pub struct RodRun<S> {
    /// The rods' final velocities (mean velocities when they still vibrate).
    pub outgoing: Vec<S>,
    pub events: Vec<RodEvent>,
    /// The step from which every contact stays open (time `end_time / steps_per_unit`).
    pub end_time: usize,
    /// Some rod still vibrates when the contacts have opened for good: `outgoing` are
    /// then the rods' mean (centre-of-mass) velocities, and part of the energy stays in
    /// the vibrations.
    pub vibrating: bool,
    /// Lattice steps per time unit: 1, or more when a gap closed between two lattice
    /// times and the lattice was refined so that it closes on a lattice time.
    pub steps_per_unit: usize,
    pub snapshots: Vec<RodSnapshot<S>>,
}

/// Identical unit rods (one cell each, impedance 1) with the given initial velocities,
/// undeformed and touching at t = 0 (eqs. (32), (34)).
pub fn rods_outgoing<S: Scalar>(velocities: &[S], max_steps: usize) -> Result<RodRun<S>, LawError> {
    let rods: Vec<Rod<S>> = velocities
        .iter()
        .map(|v| Rod {
            cells: 1,
            impedance: v.one_like(),
        })
        .collect();
    solve_rods(&rods, velocities, max_steps)
}

/// Largest number of cell-steps (cells × lattice steps) one lattice run may take; every
/// step's state is kept, so this bounds time and memory.
pub const WORK_LIMIT: usize = 2_000_000;

/// Largest number of decimal digits of the exact states one lattice run keeps (every
/// step's velocities and strains; a digit counts at least 1 per value): bounds memory when
/// the exact numbers grow (a stiff middle rod), about 200 MB.
pub const MAX_KEPT_DIGITS: u64 = 20_000_000;

/// Largest lattice refinement (steps per time unit) [`solve_rods`] tries.
pub const MAX_REFINEMENT: usize = 4096;

/// Rods `rods` with initial uniform velocities, undeformed and touching at t = 0.
/// When a gap closes between two lattice times, at a rational fraction p/d of a step,
/// the lattice is refined d times and the run restarts, so the re-contact falls on the
/// lattice (exact backends only; up to [`MAX_REFINEMENT`] steps per unit). An error if
/// the rods are still interacting after `max_steps` time units.
pub fn solve_rods<S: Scalar>(
    rods: &[Rod<S>],
    velocities: &[S],
    max_steps: usize,
) -> Result<RodRun<S>, LawError> {
    let mut k = 1usize;
    loop {
        crate::budget::checkpoint();
        let fine: Vec<Rod<S>> = rods
            .iter()
            .map(|r| Rod {
                cells: r.cells * k,
                impedance: r.impedance.clone(),
            })
            .collect();
        match solve_lattice(&fine, velocities, max_steps.saturating_mul(k))? {
            Lattice::Done(mut run) => {
                run.steps_per_unit = k;
                return Ok(run);
            }
            Lattice::Recontact { fraction, what } => {
                let d = fraction
                    .rational_bounds()
                    .filter(|(lo, hi)| lo == hi)
                    .and_then(|(q, _)| usize::try_from(q.denom().clone()).ok());
                match d.and_then(|d| k.checked_mul(d)).filter(|&n| n <= MAX_REFINEMENT) {
                    Some(n) if n > k => k = n,
                    _ => {
                        return Err(LawError::Domain(format!(
                            "{what}, a fraction {fraction} of a lattice step: the lattice cannot be refined to it (exact rational times only, at most {MAX_REFINEMENT} steps per unit)"
                        )))
                    }
                }
            }
        }
    }
}

enum Lattice<S> {
    Done(RodRun<S>),
    Recontact { fraction: S, what: String },
}

fn solve_lattice<S: Scalar>(
    rods: &[Rod<S>],
    velocities: &[S],
    max_steps: usize,
) -> Result<Lattice<S>, LawError> {
    let n = rods.len();
    if n == 0 || velocities.len() != n {
        return Err(LawError::Domain(format!(
            "{} velocities for {n} rods",
            velocities.len()
        )));
    }
    for (k, r) in rods.iter().enumerate() {
        if r.cells == 0 {
            return Err(LawError::Domain(format!("rod {} has no cells", k + 1)));
        }
        if decide(&r.impedance, "impedance")? != Sign::Positive {
            return Err(LawError::Domain(format!(
                "rod {}: impedance must be positive",
                k + 1
            )));
        }
    }
    let zero = velocities[0].zero_like();
    let two = zero.lift_i64(2);
    // R, L per cell
    let mut r: Vec<Vec<S>> = (0..n)
        .map(|k| vec![velocities[k].clone(); rods[k].cells])
        .collect();
    let mut l = r.clone();
    let mut gap: Vec<S> = vec![zero.clone(); n.saturating_sub(1)];
    let mut closed = vec![false; n.saturating_sub(1)];
    let mut events = Vec::new();
    let mut snapshots = Vec::new();
    let total_cells: usize = rods.iter().map(|r| r.cells).sum();
    let mut open_since: Option<usize> = None;
    let mut kept = 0u64;
    // the common period of the free vibrations, lcm of 2·cells (None if absurdly large)
    let period = rods.iter().try_fold(1usize, |p, r| {
        let q = 2 * r.cells;
        let g = num_integer::gcd(p, q);
        (p / g).checked_mul(q).filter(|&x| x <= WORK_LIMIT)
    });
    for t in 0..=max_steps {
        if (t + 1).saturating_mul(total_cells) > WORK_LIMIT {
            return Err(LawError::Domain(format!(
                "the lattice run exceeds {WORK_LIMIT} cell-steps ({total_cells} cells, step {t}): the rods still interact"
            )));
        }
        // the contacts during (t, t + 1)
        for k in 0..n - 1 {
            let ra = r[k].last().expect("cells");
            let lb = &l[k + 1][0];
            let now = decide(&gap[k], "gap")? == Sign::Zero
                && decide(&lb.sub_r(ra), "L_right − R_left")? == Sign::Negative;
            if now != closed[k] {
                events.push(RodEvent {
                    t,
                    contact: k + 1,
                    closes: now,
                });
                closed[k] = now;
            }
        }
        let half = |a: &S, b: &S| -> Result<S, LawError> { Ok(a.add_r(b).checked_div(&two)?) };
        let mut snap = RodSnapshot {
            t,
            velocity: Vec::with_capacity(n),
            strain: Vec::with_capacity(n),
        };
        for k in 0..n {
            snap.velocity.push(
                r[k].iter()
                    .zip(&l[k])
                    .map(|(a, b)| half(a, b))
                    .collect::<Result<_, _>>()?,
            );
            snap.strain.push(
                r[k].iter()
                    .zip(&l[k])
                    .map(|(a, b)| half(&-a.clone(), b))
                    .collect::<Result<_, _>>()?,
            );
        }
        kept = kept.saturating_add(
            snap.velocity
                .iter()
                .chain(&snap.strain)
                .flatten()
                .map(|x| x.exact_digits().max(1))
                .sum::<u64>(),
        );
        if kept > MAX_KEPT_DIGITS {
            return Err(LawError::Domain(format!(
                "the lattice run keeps more than {MAX_KEPT_DIGITS} digits of exact state ({total_cells} cells, step {t}): the numbers grow; use --arith f64 or mpfr:BITS"
            )));
        }
        snapshots.push(snap);
        // finished? All contacts open, the rods' mean velocities non-decreasing (no drift
        // towards each other), and either every rod uniform, or one full period P of the
        // free vibrations (lcm of the round trips 2·cells) without a contact closing:
        // then gap(t + P) = gap(t) + (V_{k+1} − V_k) P ≥ gap(t), so none ever closes.
        if closed.iter().any(|c| *c) {
            open_since = None;
        } else if open_since.is_none() {
            open_since = Some(t);
        }
        if let Some(t0) = open_since {
            let means: Vec<S> = (0..n)
                .map(|k| {
                    let sum = r[k]
                        .iter()
                        .zip(&l[k])
                        .fold(zero.clone(), |acc, (a, b)| acc + &a.add_r(b));
                    sum.checked_div(&zero.lift_i64(2 * rods[k].cells as i64))
                })
                .collect::<Result<_, _>>()?;
            let mut apart = true;
            for k in 0..n - 1 {
                apart = apart
                    && decide(&means[k + 1].sub_r(&means[k]), "V_{k+1} − V_k")? != Sign::Negative;
            }
            let mut uniform = true;
            for k in 0..n {
                for (a, b) in r[k].iter().zip(&l[k]) {
                    uniform = uniform
                        && decide(&a.sub_r(b), "R − L")? == Sign::Zero
                        && decide(&a.sub_r(&r[k][0]), "R − R₀")? == Sign::Zero;
                }
            }
            if apart && (uniform || period.is_some_and(|p| t >= t0 + p)) {
                return Ok(Lattice::Done(RodRun {
                    outgoing: means,
                    events,
                    end_time: t0,
                    steps_per_unit: 1,
                    vibrating: !uniform,
                    snapshots,
                }));
            }
        }
        if t == max_steps {
            break;
        }
        // one step
        let mut nr = r.clone();
        let mut nl = l.clone();
        for k in 0..n {
            let m = rods[k].cells;
            for j in (1..m).rev() {
                nr[k][j] = r[k][j - 1].clone();
            }
            for j in 0..m - 1 {
                nl[k][j] = l[k][j + 1].clone();
            }
            // left end of rod k
            nr[k][0] = if k > 0 && closed[k - 1] {
                let (za, zb) = (&rods[k - 1].impedance, &rods[k].impedance);
                let ra = r[k - 1].last().expect("cells");
                let lb = &l[k][0];
                (two.mul_r(za).mul_r(ra) + &zb.sub_r(za).mul_r(lb)).checked_div(&za.add_r(zb))?
            } else {
                l[k][0].clone()
            };
            // right end of rod k
            nl[k][m - 1] = if k + 1 < n && closed[k] {
                let (za, zb) = (&rods[k].impedance, &rods[k + 1].impedance);
                let ra = r[k].last().expect("cells");
                let lb = &l[k + 1][0];
                (za.sub_r(zb).mul_r(ra) + &two.mul_r(zb).mul_r(lb)).checked_div(&za.add_r(zb))?
            } else {
                r[k][m - 1].clone()
            };
        }
        // gaps of open contacts: d/dt gap = v(left end of k+1) − v(right end of k)
        for k in 0..n - 1 {
            if closed[k] {
                continue;
            }
            let rate = l[k + 1][0].sub_r(r[k].last().expect("cells"));
            let g = gap[k].add_r(&rate);
            if decide(&g, "gap")? == Sign::Negative {
                let fraction = gap[k].checked_div(&-rate)?;
                return Ok(Lattice::Recontact {
                    what: format!("rods {} and {} touch again after step {t}", k + 1, k + 2),
                    fraction,
                });
            }
            gap[k] = g;
        }
        r = nr;
        l = nl;
    }
    Err(LawError::Domain(format!(
        "the rods still interact after {max_steps} lattice steps"
    )))
}

/// How the rod model and the Sequential Impact Law compare at one γ⁻.
#[derive(Clone, Debug, PartialEq)]
pub enum Agreement<S> {
    /// γ⁺ of the rods (three identical rods, u⁻ = (0, γ₁, γ₁ + γ₂)) equals S(γ⁻).
    Agree { gamma_plus: [S; 2], cone: String },
    /// They differ: both values.
    Differ {
        rods: [S; 2],
        law: [S; 2],
        cone: String,
    },
    /// The rod solver cannot follow this collision (a re-contact between lattice times).
    Unsupported { cone: String, reason: String },
}

/// Winandy–Leine (2017), Sect. 4.2: the thin-rod outcome against γ⁺ = S(γ⁻) of the law
/// constructed (Sect. 3) for the rods' masses m = z · cells, at each given γ⁻
/// (u⁻ = (0, γ₁, γ₁ + γ₂)). The paper's case is three identical rods.
pub fn compare_with_law<S: Scalar>(
    rods: &[Rod<S>; 3],
    points: &[[S; 2]],
    max_steps: usize,
) -> Result<Vec<Agreement<S>>, LawError> {
    let masses = [0, 1, 2].map(|i| {
        let r = &rods[i];
        r.impedance.mul_r(&r.impedance.lift_i64(r.cells as i64))
    });
    let map = crate::law::sequential::construct_law(&masses)?;
    let mut out = Vec::with_capacity(points.len());
    for g in points {
        let ev = map.apply(g)?;
        let zero = g[0].zero_like();
        let u = [zero, g[0].clone(), g[0].add_r(&g[1])];
        match solve_rods(rods, &u, max_steps) {
            Ok(run) => {
                let o = &run.outgoing;
                let gp = [o[1].sub_r(&o[0]), o[2].sub_r(&o[1])];
                let same = decide(&gp[0].sub_r(&ev.gamma_plus[0]), "γ⁺ difference")? == Sign::Zero
                    && decide(&gp[1].sub_r(&ev.gamma_plus[1]), "γ⁺ difference")? == Sign::Zero;
                out.push(if same {
                    Agreement::Agree {
                        gamma_plus: gp,
                        cone: ev.name,
                    }
                } else {
                    Agreement::Differ {
                        rods: gp,
                        law: ev.gamma_plus,
                        cone: ev.name,
                    }
                });
            }
            Err(LawError::Domain(reason)) => out.push(Agreement::Unsupported {
                cone: ev.name,
                reason,
            }),
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}
