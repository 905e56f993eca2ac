//! The probes that run in any arithmetic (`S: Scalar`): the corner rules, Pasquero's rules
//! and procedure, the propagative reflections. With exact rationals they are ordinary
//! probes; on [`crate::arith::Symbolic`] inside a chart of positive variables they run the
//! law code on rational functions for a proof (`claims::prove`).

use super::inputs::{err, propagative_system, ProbeIn};
use crate::arith::Scalar;
use crate::lang::Env;
use crate::law::characterization::{
    impulse_asymmetric, impulse_ideal, impulse_symmetric, kinetic_energy, Constraints, Stop,
};
use crate::law::corner::{self, Zone};
use crate::law::propagative::Contacts;
use crate::law::sequential::checks::{check_cone, check_continuity, check_factorisation};
use crate::law::sequential::classic::{ball_velocities, contact_velocities, newton, poisson};
use crate::law::sequential::{construct, construct_law, Cradle, Vec2};
use crate::law::V2;
use crate::linalg::{add, SymMatrix};
use crate::system::corner::{CornerRun, Form, Restitution};
use crate::system::cradle::run_cradle;

/// The probes of this file.
pub const GENERIC: [&str; 23] = [
    "billiard.break",
    "propagative.rotations",
    "propagative.minimal",
    "rods",
    "rods.states",
    "corner.zone_ta_sa",
    "corner.tr_id_xy",
    "corner.tr_id_phi",
    "corner.tr_id_xi_eta",
    "corner.tr_nid_xy",
    "corner.tr_nid_xi_eta",
    "corner.asymmetric",
    "corner.orthogonal",
    "corner.h",
    "char.corner",
    "char.single",
    "cradle.run",
    "sequential.law",
    "sequential.balls",
    "sequential.cradle",
    "corner.ta",
    "corner.zones",
    "corner.compose",
];

/// Runs a probe of this file (or `propagative`); `None` for another name.
pub fn run<S: Scalar>(name: &str, inp: &ProbeIn<S>) -> Option<Result<Env<S>, String>> {
    Some(match name {
        "corner.tr_id_xy"
        | "corner.tr_id_phi"
        | "corner.tr_id_xi_eta"
        | "corner.tr_nid_xy"
        | "corner.tr_nid_xi_eta"
        | "corner.asymmetric" => corner_step(name, inp),
        "corner.orthogonal" => corner_orthogonal(inp),
        "corner.h" => corner_h(inp),
        "char.corner" => char_corner(inp),
        "char.single" => char_single(inp),
        "cradle.run" => cradle(inp),
        "propagative" => reflections(inp),
        "propagative.minimal" => crate::claims::probes::seghete_murphey::minimal(inp),
        "propagative.rotations" => crate::claims::probes::seghete_murphey::rotations(inp),
        "rods" => crate::claims::probes::winandy_leine::rods(inp),
        "rods.states" => crate::claims::probes::winandy_leine::rods_states(inp),
        "sequential.law" => sequential_law(inp),
        "sequential.balls" => sequential_balls(inp),
        "sequential.cradle" => sequential_cradle(inp),
        "corner.ta" => corner_ta(inp),
        "corner.zones" => corner_zones(inp),
        "corner.zone_ta_sa" => corner_zone_ta_sa(inp),
        "corner.compose" => corner_compose(inp),
        // exact where the root is (symbolic: a radical); at a rational point with an
        // irrational root, the 256-bit enclosure of claims::probes::fassino_pasquero
        "corner.rho" => corner_rho(inp)?,
        // the rational geometries t = tan(θ/4); θ in Q(√d) is claims::probes::billiard
        "billiard.break" if !inp.has("half") && !inp.has("theta_over_pi") => billiard_break(inp),
        // one step of a run, for the induction (claims::probes::induction_steps)
        "cradle.step" | "char.step" => {
            return crate::claims::probes::induction_steps::run(name, inp)
        }
        // Clark-Bloch (the penny and the nonholonomic law): claims::probes::clark_bloch
        _ => return crate::claims::probes::clark_bloch::run(name, inp),
    })
}

/// Seghete–Murphey Sect. VII-A, eq. (31) and Fig. 5, at `t` = tan(θ/4) (cos(θ/2) =
/// (1 − t²)/(1 + t²), sin(θ/2) = 2t/(1 + t²)): radii `ra rb rc` (default 1), masses
/// `ma mb mc` (default r³, equal density). Outputs (law code, `system::billiard`):
/// `inner` = ⟨Dφa, Dφb⟩_g, `cos_over_mc` = cos θ/m_c, `middle` (the middle expression of
/// (31) as printed), and, where the overlap check and the runs' signs are decided, `xi2`
/// = ξ² (Fig. 5) and `overlap` (cos θ_min − cos θ); an overlapping geometry is an error,
/// unless `check_overlap = 0` (then ξ² is the law's value for any radii).
fn billiard_break<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let t = inp.num("t")?;
    let one = t.one_like();
    let den = one.add_r(&t.square());
    let cos_half = (one - &t.square()).checked_div(&den).map_err(err)?;
    let sin_half = inp.int(2).mul_r(&t).checked_div(&den).map_err(err)?;
    let radius = |n: &str| {
        if inp.has(n) {
            inp.num(n)
        } else {
            Ok(inp.int(1))
        }
    };
    let radii = [radius("ra")?, radius("rb")?, radius("rc")?];
    let mut b = crate::system::billiard::Break::with_volume_masses(radii, cos_half, sin_half);
    for (i, n) in ["ma", "mb", "mc"].iter().enumerate() {
        if inp.has(n) {
            b.masses[i] = inp.num(n)?;
        }
    }
    let (_, [inner, cos_over_mc, middle]) = b.sides_31().map_err(err)?;
    let mut out = Env::from([
        ("inner".into(), inner),
        ("cos_over_mc".into(), cos_over_mc),
        ("middle".into(), middle),
    ]);
    // `check_overlap = 0`: the outcome without the check that balls a and b do not
    // intersect (a statement about every radius, admissible or not, needs no such check)
    let checked = inp.count("check_overlap", 1)? != 0;
    let outcome = match checked {
        true => b.outcome(64),
        false => b.outcome_without_overlap_check(64),
    };
    match outcome {
        Ok(o) => {
            out.insert("xi2".into(), o.xi_squared);
            out.insert("overlap".into(), o.overlap_margin);
        }
        // symbolically: a sign of the overlap check or of the runs open on the cell
        Err(crate::law::LawError::Undecided { .. }) => {}
        Err(e) => return Err(err(e)),
    }
    Ok(out)
}

/// The zones TA (S = 0) and SA (threshold S) assign to (ξ̇, η̇) (law code,
/// [`corner::zone_xi_eta`]; FP Sect. 6, Table 1 of Sect. 7).
fn corner_zone_ta_sa<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let w = V2::new(inp.num("xi")?, inp.num("eta")?);
    let s = inp.num("S")?;
    let ta = corner::zone_xi_eta(&w, &s.zero_like()).map_err(err)?;
    let sa = corner::zone_xi_eta(&w, &s).map_err(err)?;
    Ok(Env::from([
        ("ta_zone".into(), zone_code(inp, ta)),
        ("sa_zone".into(), zone_code(inp, sa)),
    ]))
}

fn zone_code<S: Scalar>(inp: &ProbeIn<S>, z: Zone) -> S {
    inp.int(match z {
        Zone::Z0 => 0,
        Zone::Z1 => 1,
        Zone::Z2 => 2,
        Zone::Z12 => 12,
    })
}

/// One application of a corner rule in the zone eq. (1) assigns (S = 0); FP (3), (6),
/// (8), (13), (14), Pasquero (10).
fn corner_step<S: Scalar>(name: &str, inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let k = inp.num("k")?;
    let v = V2::new(inp.num("x")?, inp.num("y")?);
    let zero = k.zero_like();
    let mut zone = corner::zone_xy(&k, &v, &zero).map_err(err)?;
    // `force_zone`: apply that zone's formula wherever v is (as SA does near a boundary,
    // FP Sect. 7)
    if let Some(z) = inp.word("force_zone") {
        zone = match z.as_str() {
            "0" => Zone::Z0,
            "1" => Zone::Z1,
            "2" => Zone::Z2,
            "12" => Zone::Z12,
            o => return Err(format!("force_zone: expected 0, 1, 2 or 12, got {o}")),
        };
    }
    let out = match name {
        "corner.tr_id_xy" => corner::tr_id_xy(&k, zone, &v),
        "corner.tr_id_phi" => {
            let corrected = inp.count("corrected", 0)? != 0;
            let zs = corner::zones_phi_with(&k, &v, corrected).map_err(err)?;
            corner::tr_id_phi_in(&k, &zs, &v)
        }
        "corner.tr_id_xi_eta" => {
            let w = corner::tr_id_xi_eta(&k, zone, &corner::xi_eta(&k, &v)).map_err(err)?;
            corner::xy_from_xi_eta(&k, &w)
        }
        "corner.tr_nid_xy" => corner::tr_nid_xy(&k, &inp.num("eps")?, zone, &v),
        "corner.tr_nid_xi_eta" => {
            let e = inp.num("eps")?;
            let w = corner::tr_nid_xi_eta(&k, &e, zone, &corner::xi_eta(&k, &v)).map_err(err)?;
            corner::xy_from_xi_eta(&k, &w)
        }
        _ => corner::asymmetric_xy(&k, &inp.num("eps1")?, &inp.num("eps2")?, zone, &v),
    }
    .map_err(err)?;
    // the zone of the outcome, when its sign is decided (symbolically it may not be: a
    // claim that needs `zone1` then has no proof in that cell)
    let zone1 = corner::zone_xy(&k, &out, &zero).ok();
    let w = corner::xi_eta(&k, &v);
    let w1 = corner::xi_eta(&k, &out);
    let mut env = Env::from([
        ("x1".into(), out.x),
        ("y1".into(), out.y),
        ("zone".into(), zone_code(inp, zone)),
        ("xi".into(), w.x),
        ("eta".into(), w.y),
        ("xi1".into(), w1.x),
        ("eta1".into(), w1.y),
    ]);
    // what a run (S = 0) does at v: goes on unless v is in Z0; a multiple impact in Z12;
    // and whether the next state is in Z12 (where its zone is decided)
    env.insert("goes_on".into(), inp.int(usize::from(zone != Zone::Z0)));
    env.insert("multi".into(), inp.int(usize::from(zone == Zone::Z12)));
    if let Some(z) = zone1 {
        env.insert("zone1".into(), zone_code(inp, z));
        env.insert("multi_next".into(), inp.int(usize::from(z == Zone::Z12)));
    }
    Ok(env)
}

/// V⊥₁, V⊥₂ (law code), V⊥₁₂ = v and β (Pasquero Sect. 4.2).
fn corner_orthogonal<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let k = inp.num("k")?;
    let v = V2::new(inp.num("x")?, inp.num("y")?);
    let (v1, v2) = corner::orthogonal_components(&k, &v).map_err(err)?;
    let mut out = Env::from([
        ("v1x".into(), v1.x),
        ("v1y".into(), v1.y),
        ("v2x".into(), v2.x),
        ("v2y".into(), v2.y),
        ("v12x".into(), v.x.clone()),
        ("v12y".into(), v.y.clone()),
    ]);
    if let Ok(b) = corner::beta(&k, &v) {
        out.insert("beta".into(), b);
    }
    Ok(out)
}

/// H₁, H₂ of the proof of FP Theorem 5.3 (law code).
fn corner_h<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let (h1, h2) = corner::h_matrices(&inp.num("k")?, &inp.num("eps")?).map_err(err)?;
    let mut out = Env::new();
    for (name, h) in [("h1", h1), ("h2", h2)] {
        for (i, row) in h.iter().enumerate() {
            for (j, x) in row.iter().enumerate() {
                out.insert(format!("{name}_{}{}", i + 1, j + 1), x.clone());
            }
        }
    }
    Ok(out)
}

/// ρ(H₁) = ρ(H₂) of FP Theorem 5.3 by the law ([`corner::h_matrices`],
/// [`corner::spectral_radius`]) in the backend's arithmetic: `rho` and `rho_lo` = `rho_hi`
/// = ρ. `None` where the backend cannot hold the root (an irrational √(t² − 4δ) at a
/// rational point): the caller then encloses it.
fn corner_rho<S: Scalar>(inp: &ProbeIn<S>) -> Option<Result<Env<S>, String>> {
    let (h1, _) = match corner::h_matrices(&inp.num("k").ok()?, &inp.num("eps").ok()?) {
        Ok(h) => h,
        Err(e) => return Some(Err(err(e))),
    };
    match corner::spectral_radius(&h1) {
        Ok(rho) => Some(Ok(Env::from([
            ("rho".into(), rho.clone()),
            ("rho_lo".into(), rho.clone()),
            ("rho_hi".into(), rho),
        ]))),
        Err(crate::law::LawError::Arith(crate::arith::ArithError::NotRepresentable { .. })) => None,
        Err(e) => Some(Err(err(e))),
    }
}

/// One step of Pasquero's general rules (5), (6), (7) on the corner: M = I, normals
/// (k, −1) (S1) and (k, 1) (S2), impacting set from the law (p(S_i) > 0).
fn char_corner<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let k = inp.num("k")?;
    let one = k.one_like();
    let c = Constraints::new(
        SymMatrix::diagonal(&[one.clone(), one.clone()]),
        vec![vec![k.clone(), -one.clone()], vec![k.clone(), one]],
    )
    .map_err(err)?;
    let v = vec![inp.num("x")?, inp.num("y")?];
    // incoming for S_i when n_i·v > 0: kx − y > 0 (S1), kx + y > 0 (S2), eq. (9)
    let set = c.impacting(&v).map_err(err)?;
    let rule = inp.word("rule").unwrap_or_else(|| "asymmetric".into());
    let imp = match rule.as_str() {
        "ideal" => impulse_ideal(&c, &set, &v),
        "symmetric" => impulse_symmetric(&c, &inp.num("eps")?, &set, &v),
        "asymmetric" => impulse_asymmetric(&c, &[inp.num("eps1")?, inp.num("eps2")?], &set, &v),
        other => return Err(format!("char.corner: unknown rule {other}")),
    }
    .map_err(err)?;
    let out = add(&v, &imp);
    Ok(Env::from([
        ("x1".into(), out[0].clone()),
        ("y1".into(), out[1].clone()),
        ("impacts".into(), inp.int(set.len())),
    ]))
}

/// Pasquero's rule (4), the single impact (law code: [`Constraints`] with one constraint,
/// [`impulse_symmetric`]), in three dimensions: masses `m1 m2 m3` (M diagonal, default 1),
/// the constraint's gradient `n1 n2 n3` (a covector), the velocity `v1 v2 v3`, the COR
/// `eps`. Outputs the velocity after `w1 w2 w3`, `impacts` (1 when n(v) > 0, eq. (9)),
/// the rates `rate0` = n(v), `rate1` = n(w), the kinetic energies `E0`, `E1`, and the
/// covector of the impulse `d1 d2 d3` = M(w − v).
fn char_single<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let masses: Vec<S> = ["m1", "m2", "m3"].iter().map(|m| inp.opt(m, 1)).collect();
    let n = ["n1", "n2", "n3"]
        .iter()
        .map(|x| inp.num(x))
        .collect::<Result<Vec<_>, _>>()?;
    let v = ["v1", "v2", "v3"]
        .iter()
        .map(|x| inp.num(x))
        .collect::<Result<Vec<_>, _>>()?;
    let c = Constraints::new(SymMatrix::diagonal(&masses), vec![n]).map_err(err)?;
    let set = c.impacting(&v).map_err(err)?;
    let imp = impulse_symmetric(&c, &inp.num("eps")?, &set, &v).map_err(err)?;
    let w = add(&v, &imp);
    let d = c.mass.apply(&imp);
    let mut out = Env::from([
        ("impacts".into(), inp.int(set.len())),
        ("rate0".into(), c.rate(0, &v)),
        ("rate1".into(), c.rate(0, &w)),
        ("E0".into(), kinetic_energy(&c, &v).map_err(err)?),
        ("E1".into(), kinetic_energy(&c, &w).map_err(err)?),
    ]);
    for i in 0..3 {
        out.insert(format!("w{}", i + 1), w[i].clone());
        out.insert(format!("d{}", i + 1), d[i].clone());
    }
    Ok(out)
}

/// The procedure of Pasquero Sect. 3.5 on a 3-ball cradle (law code).
fn cradle<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let masses: Vec<S> = ["m1", "m2", "m3"].iter().map(|m| inp.opt(m, 1)).collect();
    let e = inp.num("eps")?;
    let v0 = ["v1", "v2", "v3"]
        .iter()
        .map(|m| inp.num(m))
        .collect::<Result<Vec<_>, _>>()?;
    let sigma = match inp.has("sigma") {
        true => Some(inp.num("sigma")?),
        false => None,
    };
    let o = run_cradle(
        &masses,
        &[e.clone(), e],
        v0,
        sigma.as_ref(),
        inp.count("max_iter", 10_000)?,
    )
    .map_err(err)?;
    let mut out = Env::new();
    // a run cut by an undecided sign (symbolically) has true steps so far but no end: only
    // the velocities of its steps are outputs then; so has a run cut by the default step
    // limit (the tool's, not the law's). A `max_iter` the claim gives is part of its
    // statement ("p3 is an exit velocity"): the outputs then describe the state after that
    // many steps, `exit` = 0 where it is not an exit.
    let cut_by_tool = o.stop == Stop::MaxIterations && !inp.has("max_iter");
    if !matches!(o.stop, Stop::Undecided { .. }) && !cut_by_tool {
        out.extend([
            ("steps".into(), inp.int(o.steps.len())),
            (
                "multiple".into(),
                inp.int(o.steps.iter().filter(|s| s.impacting.len() > 1).count()),
            ),
            ("exit".into(), inp.int(usize::from(o.stop == Stop::Exit))),
        ]);
        for (i, x) in o.final_velocity().iter().enumerate() {
            out.insert(format!("vf{}", i + 1), x.clone());
        }
    }
    for (w, s) in o.steps.iter().enumerate().take(8) {
        for (i, x) in s.velocity.iter().enumerate() {
            out.insert(format!("v{}_{}", w + 1, i + 1), x.clone());
        }
    }
    Ok(out)
}

/// Seghete–Murphey (propagative), on a diagonal mass matrix: masses `m1`..`mn`, normals
/// `u{a}_{i}` (a = 1, 2, …), momentum `p1`..`pn`. Outputs (law code): `g_ab` = ⟨u_a, u_b⟩_g,
/// `rate_a` = ⟨p, u_a⟩_g, `energy` = ⟨p, p⟩_g, reflections `r{a}_{i}` = pΓ(u_a) and
/// `rr{a}_{i}` = pΓ(u_a)Γ(u_a), products `uv_i`, `vu_i`, `uvu_i`, `vuv_i` of normals 1, 2
/// with their feasibility `feas_uv` … (1/0), `fwd_i` = pΓ(u_1)…Γ(u_n) and `rev_i` (reverse
/// order) with `feas_fwd`, the plastic outcome (11) `pl_i`, and `feasible` (eq. (6)).
fn reflections<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let (m, normals, p) = propagative_system(inp)?;
    let p = p.ok_or("probe input `p1` missing")?;
    let c = Contacts::new(SymMatrix::diagonal(&m), normals.clone()).map_err(err)?;
    let mut out = Env::new();
    let put = |out: &mut Env<S>, name: &str, v: &[S]| {
        for (i, x) in v.iter().enumerate() {
            out.insert(format!("{name}_{}", i + 1), x.clone());
        }
    };
    let flag = |b: bool| inp.int(usize::from(b));
    // feasibility (eq. (6)) is an output only where its signs are decided (symbolically
    // they may not be; a claim that needs it then has no proof in that cell)
    let put_flag = |out: &mut Env<S>, name: &str, q: &[S]| {
        if let Ok(b) = c.feasible(q) {
            out.insert(name.into(), flag(b));
        }
    };
    put_flag(&mut out, "feasible", &p);
    out.insert("energy".into(), c.inner(&p, &p).map_err(err)?);
    for a in 0..normals.len() {
        let ra = c.reflect(&p, a).map_err(err)?;
        put(&mut out, &format!("r{}", a + 1), &ra);
        put(
            &mut out,
            &format!("rr{}", a + 1),
            &c.reflect(&ra, a).map_err(err)?,
        );
        out.insert(
            format!("rate_{}", a + 1),
            c.inner(&p, &normals[a]).map_err(err)?,
        );
        for b in 0..normals.len() {
            out.insert(
                format!("g_{}{}", a + 1, b + 1),
                c.inner(&normals[a], &normals[b]).map_err(err)?,
            );
        }
    }
    if normals.len() >= 2 {
        for (name, seq) in [
            ("uv", vec![0, 1]),
            ("vu", vec![1, 0]),
            ("uvu", vec![0, 1, 0]),
            ("vuv", vec![1, 0, 1]),
        ] {
            let q = c.apply_sequence(&p, &seq).map_err(err)?;
            put_flag(&mut out, &format!("feas_{name}"), &q);
            put(&mut out, name, &q);
        }
    }
    let all: Vec<usize> = (0..normals.len()).collect();
    let fwd = c.apply_sequence(&p, &all).map_err(err)?;
    put_flag(&mut out, "feas_fwd", &fwd);
    put(&mut out, "fwd", &fwd);
    let rev: Vec<usize> = all.iter().rev().copied().collect();
    put(&mut out, "rev", &c.apply_sequence(&p, &rev).map_err(err)?);
    if let Ok(pl) = c.plastic(&p) {
        put(&mut out, "pl", &pl);
    }
    Ok(out)
}

/// The masses m1, m2, m3: each `m{i}` if given, else `m`, else 1.
fn wl_masses<S: Scalar>(inp: &ProbeIn<S>) -> [S; 3] {
    let m = |i: usize| {
        inp.nums
            .get(&format!("m{i}"))
            .or_else(|| inp.nums.get("m"))
            .cloned()
            .unwrap_or_else(|| inp.int(1))
    };
    [m(1), m(2), m(3)]
}

fn put2<S: Scalar>(out: &mut Env<S>, name: &str, v: &Vec2<S>) {
    for (i, x) in v.iter().enumerate() {
        out.insert(format!("{name}{}", i + 1), x.clone());
    }
}

/// Winandy–Leine (2017), Sect. 3: the law constructed from P1–P3 (eqs. (20)–(23)) for
/// masses `m1 m2 m3` (or `m`; default 1). Outputs: `cones`, `closes`, per cone N (names of
/// Fig. 4(a): I, IIa, …) its matrix `q_N_ij` and rays `from_N_i`, `to_N_i`; the exact
/// checks `continuous` (P1 on every shared ray), `energy` (P2: QᵀG⁻¹Q = G⁻¹), `onto_first`
/// (P3: each cone onto the first quadrant), `kinematic`, `kinetic` (Λ ≥ 0 on both rays of
/// every cone, hence on the cone), `factorises` (eq. (24) generalised, `factor_checks`
/// words) (1/0), where decided. With `g1 g2` (γ⁻): `gp1 gp2` (γ⁺, eq. (19)), `lam1 lam2`
/// (Λ, eq. (6)), `in_N` (1 for the cone used, else 0), `norm_minus`, `norm_plus`
/// (‖·‖²_{G⁻¹}), and the elastic generalised Newton and Poisson laws `newton_gp{1,2}`,
/// `poisson_gp{1,2}`.
fn sequential_law<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let m = wl_masses(inp);
    let built = construct(&m, 64).map_err(err)?;
    let map = construct_law(&m).map_err(err)?;
    let cradle = Cradle::new(&m).map_err(err)?;
    let flag = |b: bool| inp.int(usize::from(b));
    let mut out = Env::from([
        ("cones".into(), inp.int(map.cones.len())),
        ("closes".into(), flag(built.closes)),
    ]);
    for c in &map.cones {
        for (i, row) in c.q.iter().enumerate() {
            for (j, x) in row.iter().enumerate() {
                out.insert(format!("q_{}_{}{}", c.name, i + 1, j + 1), x.clone());
            }
        }
        put2(&mut out, &format!("from_{}_", c.name), &c.from);
        put2(&mut out, &format!("to_{}_", c.name), &c.to);
    }
    // the exact checks, where their signs are decided (symbolically they may not be)
    if let Ok(rays) = check_continuity(&map) {
        out.insert("continuous".into(), flag(rays.iter().all(|x| x.ok)));
    }
    if let Ok(cones) = map
        .cones
        .iter()
        .map(|c| check_cone(&cradle, c))
        .collect::<Result<Vec<_>, _>>()
    {
        out.insert("energy".into(), flag(cones.iter().all(|c| c.energy)));
        out.insert(
            "onto_first".into(),
            flag(cones.iter().all(|c| c.onto_first_quadrant)),
        );
        out.insert("kinematic".into(), flag(cones.iter().all(|c| c.kinematic)));
        out.insert("kinetic".into(), flag(cones.iter().all(|c| c.kinetic)));
    }
    if let Ok(factors) = check_factorisation(&map) {
        out.insert("factorises".into(), flag(factors.iter().all(|f| f.ok)));
        out.insert("factor_checks".into(), inp.int(factors.len()));
    }
    if inp.has("g1") {
        let g: Vec2<S> = [inp.num("g1")?, inp.num("g2")?];
        let e = map.apply(&g).map_err(err)?;
        for c in &map.cones {
            out.insert(format!("in_{}", c.name), flag(c.name == e.name));
        }
        put2(&mut out, "gp", &e.gamma_plus);
        put2(&mut out, "lam", &cradle.impulse(&g, &e.gamma_plus));
        out.insert("norm_minus".into(), cradle.norm2(&g));
        out.insert("norm_plus".into(), cradle.norm2(&e.gamma_plus));
        let one = inp.int(1);
        if let Ok(n) = newton(&cradle, &g, &one) {
            put2(&mut out, "newton_gp", &n.gamma_plus);
        }
        if let Ok(p) = poisson(&cradle, &g, &one) {
            put2(&mut out, "poisson_gp", &p.gamma_plus);
        }
    }
    Ok(out)
}

/// Winandy–Leine eq. (8): ball velocities u⁺ = Z(u⁻) of the sequential law on a 3-ball
/// cradle (masses `m1 m2 m3` or `m`), from `u1 u2 u3`: `up_i`, contact velocities
/// `gm_i`, `gp_i`, impulses `lam_i`, the cone used `in_N`.
fn sequential_balls<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let m = wl_masses(inp);
    let map = construct_law(&m).map_err(err)?;
    let cradle = Cradle::new(&m).map_err(err)?;
    let u = [inp.num("u1")?, inp.num("u2")?, inp.num("u3")?];
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
        out.insert(
            format!("in_{}", c.name),
            inp.int(usize::from(c.name == e.name)),
        );
    }
    Ok(out)
}

/// Winandy–Leine eq. (6): the Delassus operator G = WᵀM⁻¹W of the law's cradle and its
/// inverse (the metric of P2).
fn sequential_cradle<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let cradle = Cradle::new(&wl_masses(inp)).map_err(err)?;
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

/// The theoretical algorithm TA (S = 0 unless given) of FP Sect. 6: steps, multiple
/// impacts, exit (1/0) and the final velocity.
fn corner_ta<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let k = inp.num("k")?;
    let run = CornerRun {
        k: k.clone(),
        restitution: Restitution::Symmetric(inp.num("eps")?),
        threshold: inp.opt("S", 0),
        rest_threshold: k.zero_like(),
        max_steps: inp.count("max_steps", 1000)?.min(DIRECT_STEPS),
        form: Form::Xy,
        max_digits: None,
        record_velocities: false,
    };
    let t = run
        .run(V2::new(inp.num("x")?, inp.num("y")?))
        .map_err(err)?;
    // a run cut by an undecided sign is not a run of the law: no outputs (the prover then
    // splits the cell on that sign, or gives up)
    if let crate::system::corner::Termination::Undecided { quantity, .. } = &t.termination {
        return Err(format!("the sign of {quantity} is undecided"));
    }
    // a run cut by the step limit: its certified long run (an exact exit, or a proof that
    // it never exits), else no outcome (the limit is the tool's, not the law's)
    if let crate::system::corner::Termination::MaxSteps = &t.termination {
        let v0 = V2::new(inp.num("x")?, inp.num("y")?);
        let limit = inp.count("max_steps", 1000)?;
        return corner_beyond_limit(inp, &k, &inp.num("eps")?, &v0, limit);
    }
    let f = t.final_velocity();
    Ok(Env::from([
        ("steps".into(), inp.int(t.steps)),
        (
            "multiple".into(),
            inp.int(t.zones.iter().filter(|z| **z == Zone::Z12).count()),
        ),
        (
            "exit".into(),
            inp.int(usize::from(t.termination.name() == "exit")),
        ),
        ("xf".into(), f.x.clone()),
        ("yf".into(), f.y.clone()),
    ]))
}

/// The steps a corner run of a probe takes one by one; a longer run goes on through its
/// certified long run ([`corner_beyond_limit`]), which gives the same outcome (the tests
/// compare them) without iterating every step.
pub(crate) const DIRECT_STEPS: usize = 256;

/// The outcome of a TA run (one COR `eps`, S = 0) that a step limit of `limit` steps cut,
/// from its certified long run ([`crate::system::corner_longrun`]): where it exits, the
/// exact outcome (`steps`, `multiple`, `exit` = 1, `xf`, `yf`); where it never exits,
/// `exit` = 0, `never_exits` = 1, the Z12 steps `multiple` (Theorem 5.1: only at the
/// start) and the limit `xf` = `yf` = 0 of the velocities (Theorem 5.3, certified by the
/// decay ρ(M) < 1; no `steps`). A run with no certificate, or that exits only after
/// `limit` steps, has no outcome: a counterexample is a terminating computation or a
/// certified limit, never a truncated run.
pub(crate) fn corner_beyond_limit<S: Scalar>(
    inp: &ProbeIn<S>,
    k: &S,
    eps: &S,
    v0: &V2<S>,
    limit: usize,
) -> Result<Env<S>, String> {
    let cut = limit;
    use crate::system::corner_longrun::{long_run, LongRunLimits, Outcome};
    let no_outcome = |why: String| {
        format!("the run reached its step limit ({cut} steps) and has no certified long run ({why}): no outcome")
    };
    let run = long_run(k, eps, v0, &LongRunLimits::default()).map_err(|e| no_outcome(e.reason))?;
    let z12 = run.entry_zones.iter().filter(|z| **z == Zone::Z12).count();
    match run.outcome {
        Outcome::Exits { steps, exit_xy, .. } => {
            let steps = usize::try_from(steps)
                .ok()
                .filter(|s| *s <= limit)
                .ok_or_else(|| no_outcome(format!("it exits after {steps} steps")))?;
            Ok(Env::from([
                ("steps".into(), inp.int(steps)),
                ("multiple".into(), inp.int(z12)),
                ("exit".into(), inp.int(1)),
                ("xf".into(), exit_xy.x),
                ("yf".into(), exit_xy.y),
            ]))
        }
        Outcome::NeverExits { .. } => {
            // eps < 1 decided: the decay per period rho(M) < 1, so v_n -> 0
            if (eps.clone() - &eps.one_like()).sign() != crate::arith::Sign::Negative {
                return Err(no_outcome("never exits with eps = 1".into()));
            }
            Ok(Env::from([
                ("multiple".into(), inp.int(z12)),
                ("exit".into(), inp.int(0)),
                ("never_exits".into(), inp.int(1)),
                ("xf".into(), k.zero_like()),
                ("yf".into(), k.zero_like()),
            ]))
        }
    }
}

/// The zone of v by FP eq. (1), and the zones whose conditions (6a–6d) hold (law code,
/// [`corner::zones_phi`]): their number and the first (−1 if none), and one flag per
/// condition.
fn corner_zones<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let k = inp.num("k")?;
    let v = V2::new(inp.num("x")?, inp.num("y")?);
    let z = corner::zone_xy(&k, &v, &k.zero_like()).map_err(err)?;
    let zs = corner::zones_phi(&k, &v).map_err(err)?;
    let flag = |w: Zone| inp.int(usize::from(zs.contains(&w)));
    Ok(Env::from([
        ("zone".into(), zone_code(inp, z)),
        ("phi_count".into(), inp.int(zs.len())),
        (
            "phi_zone".into(),
            zs.first()
                .map_or(S::from_i64(-1, &inp.ctx), |w| zone_code(inp, *w)),
        ),
        ("in6a".into(), flag(Zone::Z0)),
        ("in6b".into(), flag(Zone::Z1)),
        ("in6c".into(), flag(Zone::Z2)),
        ("in6d".into(), flag(Zone::Z12)),
    ]))
}

/// The rule applied successively in the stated zones (`zones`: one digit per step, 3 for
/// Z12), whatever zone eq. (1) assigns, as the proofs of FP Thm 5.3 and Result 3 do under
/// their hypotheses: TR_id (3a–3d) without `eps`, TR_nid (13a–13d) with it. Outputs
/// `x{i} y{i} xi{i} eta{i}` for i = 0 (the input) and each step.
fn corner_compose<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let k = inp.num("k")?;
    let eps = inp.has("eps").then(|| inp.num("eps")).transpose()?;
    let mut v = V2::new(inp.num("x")?, inp.num("y")?);
    let mut out = Env::new();
    let mut put = |i: usize, v: &V2<S>| {
        let w = corner::xi_eta(&k, v);
        out.insert(format!("x{i}"), v.x.clone());
        out.insert(format!("y{i}"), v.y.clone());
        out.insert(format!("xi{i}"), w.x);
        out.insert(format!("eta{i}"), w.y);
    };
    put(0, &v);
    let zones = inp.raw("zones").ok_or("probe input `zones` missing")?;
    for (i, z) in zones.chars().enumerate() {
        let zone = match z {
            '0' => Zone::Z0,
            '1' => Zone::Z1,
            '2' => Zone::Z2,
            '3' => Zone::Z12,
            o => return Err(format!("zones: expected digits 0, 1, 2, 3 (Z12), got {o}")),
        };
        v = match &eps {
            None => corner::tr_id_xy(&k, zone, &v),
            Some(e) => corner::tr_nid_xy(&k, e, zone, &v),
        }
        .map_err(err)?;
        put(i + 1, &v);
    }
    Ok(out)
}
