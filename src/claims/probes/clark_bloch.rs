//! Probes for the claims of Clark & Bloch, "The bouncing penny and nonholonomic impacts"
//! (`clark-bloch-bouncing-penny.txt`, claims `proofs/cb/`). Same contract as
//! [`crate::claims::probes`]: every probe calls the law code ([`crate::law::nonholonomic`],
//! [`crate::system::penny`]); none restates a formula of the paper (the claim files state
//! the paper's relations over the outputs).
//!
//! All are generic (`S: Scalar`): on exact rationals they are ordinary probes; on
//! [`crate::arith::Symbolic`] inside a chart of positive variables they run the law code
//! on rational functions for the prover (`claims::prove`).
//!
//! * `nh.general`: one impact of a general natural system (M, the ω^k, dh, q̇) through the
//!   general law: P of Theorem 3.1 (5), the restitution map (6), π_Δ of (21), the plastic
//!   map (18) and (20), the elastic map of Proposition 4.1 ((15)–(17)) and its closed
//!   form, with the cometric pairings that (16)–(17) use.
//! * `penny.maps`: the same for the rolling penny of Sect. V (M (22), ω (24), dH of the
//!   end (27) or (34)), with the printed (28)–(29), and dH(q̇) as the rate of h along the
//!   end's motion (the chain rule through the law's end point, by jets).
//! * `penny.printed`: the printed (30)–(33) next to the law's M⁻¹ω^k, a^{ij} (19) and π_Δ
//!   (21).
//! * `penny.flow`: the law's flow (26) and its time derivative (forward-mode jets through
//!   the law's code: [`Dual`]).
//! * `penny.eq12`: the Lagrange–d'Alembert equations (12)–(13) in the coordinates (11)
//!   for the penny: M and the ω^k from the law, q̈ the time derivative of the law's rolling
//!   velocity (23) along a motion with given θ̈, φ̈ (jets).
//! * `penny.table1`, `penny.initial`: Table I and the initial data of Sect. VI-A.

use super::inputs::ProbeIn;
use crate::arith::dual::Dual;
use crate::arith::{Scalar, Sign};
use crate::lang::Env;
use crate::law::decide;
use crate::law::nonholonomic::NonholonomicImpact;
use crate::linalg::{dot, sub, SymMatrix, Vector};
use crate::system::penny::{Boundary, End, Heading, Penny, PennyState};
use std::fmt;

/// The probes of this file, with their inputs and outputs (for error messages and docs).
pub const PROBES: &[(&str, &str)] = &[
    (
        "nh.general",
        "v1..vn m{i}{j} (i<=j) [w{k}_{i}] dh1..dhn [u1..un] [e] [maps: p projection plastic elastic energy, default all] -> P_i dP_i E0 EP rate gdd gd{k} g{k}{l} pw{k} [R_i dR_i RR_i rateR Ru_i gRu gvRu] proj_i dproj_i pp_i W{k}_i projW{k}_i gPu gvPu pl_i pl20_i dpl_i dplP_i Epl el_i alpha lam{k} refl_i del_i Eel nontrivial om{k}_X; CB (5), (6), (15)-(21)",
    ),
    (
        "penny.maps",
        "m R I J c s hx hy [end] (thd phd | vx vy vth vph) [ux uy uth uph] [maps: p projection plastic elastic energy] -> v_i dH_i rate rate_chain P_i dP_i p28_i C29 E0 EP [proj_i dproj_i pp_i W{k}_i projW{k}_i gPu gvPu] pl_i pl20_i dpl_i dplP_i Epl el_i alpha lam1 lam2 refl_i del_i Eel nontrivial om{k}_X det_X gram pairings; CB (5), (15)-(29), (34)",
    ),
    (
        "penny.printed",
        "m R I c s [maps: w30 a31 p32] -> W30_{k}_{i} W_{k}_{i} a31_{i}{j} g{i}{j} P32_{i}_{j} Pi_{i}_{j}; CB (19), (21), (30)-(33)",
    ),
    (
        "penny.flow",
        "R x0 y0 th0 c0 s0 Om om t cu su -> x y theta hc hs thd phd, d* (time derivatives), fx fy bx by; CB (26)",
    ),
    (
        "penny.eq12",
        "m R I J c s thd phd thdd phdd -> res_theta res_phi o{a}_{b} A{a}_{alpha} xdot13 ydot13 qdd_i; CB (11)-(13), (22)-(25)",
    ),
    (
        "penny.table1",
        "-> m R I J; CB Table I (system::penny::TABLE_I)",
    ),
    (
        "penny.initial",
        "c s thd phd x0 y0 a{k} b{k} -> v_i in_delta hf{k} hb{k} ratef{k} rateb{k}; CB Sect. VI-A",
    ),
];

/// Runs a probe of this file; `None` if the name is not one of [`PROBES`].
pub fn run<S: Scalar>(name: &str, inp: &ProbeIn<S>) -> Option<Result<Env<S>, String>> {
    Some(match name {
        "nh.general" => general(inp),
        "penny.maps" => penny_maps(inp),
        "penny.printed" => penny_printed(inp),
        "penny.flow" => penny_flow(inp),
        "penny.eq12" => penny_eq12(inp),
        "penny.table1" => penny_table1(inp),
        "penny.initial" => penny_initial(inp),
        _ => return crate::claims::probes::stepper::run_generic(name, inp),
    })
}

fn err(e: impl fmt::Display) -> String {
    e.to_string()
}

// ---------------------------------------------------------------------------------------
// Jets: forward-mode differentiation of law code (one seed of `arith::dual`)
// ---------------------------------------------------------------------------------------

/// The jet a + a′ε (ε² = 0): law code run on jets whose ε-parts are the time derivatives of
/// its inputs gives the time derivative of its outputs, exactly on exact and symbolic
/// backends.
fn jet<S: Scalar>(v: S, d: S) -> Dual<S> {
    Dual {
        value: v,
        grad: vec![d],
    }
}

/// a′ of a jet.
fn dv<S: Scalar>(x: &Dual<S>) -> S {
    x.gradient(1)[0].clone()
}

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

fn put<S: Scalar>(out: &mut Env<S>, name: &str, v: &[S]) {
    for (i, x) in v.iter().enumerate() {
        out.insert(format!("{name}_{}", i + 1), x.clone());
    }
}

fn flag<S: Scalar>(like: &S, b: bool) -> S {
    like.lift_i64(i64::from(b))
}

/// ⟨a, b⟩ = a M⁻¹ bᵀ for covectors (the cometric of (1)).
fn co<S: Scalar>(m: &SymMatrix<S>, a: &[S], b: &[S]) -> Result<S, String> {
    Ok(dot(a.iter(), m.solve(b).map_err(err)?.iter()))
}

/// The determinant of a square matrix (cofactor expansion; n ≤ 4 here).
fn det<S: Scalar>(rows: &[Vector<S>]) -> S {
    match rows.len() {
        1 => rows[0][0].clone(),
        n => {
            let mut acc = rows[0][0].zero_like();
            for j in 0..n {
                if rows[0][j].sign() == Sign::Zero {
                    continue;
                }
                let minor: Vec<Vector<S>> = rows[1..]
                    .iter()
                    .map(|r| {
                        r.iter()
                            .enumerate()
                            .filter(|(c, _)| *c != j)
                            .map(|(_, x)| x.clone())
                            .collect()
                    })
                    .collect();
                let term = rows[0][j].mul_r(&det(&minor));
                acc = if j % 2 == 0 { acc + &term } else { acc - &term };
            }
            acc
        }
    }
}

/// Forgets the signs left undecided so far. On the symbolic backend the prover splits a
/// cell on the last value whose sign was undecided, but the record keeps only the first 64
/// (`arith::symbolic::take_undecided`), and the zero tests of the linear algebra (`dot`,
/// elimination) fill it with signs nobody needed: calling this before a decision that
/// matters keeps that decision recordable. (No effect on other backends.)
fn fresh() {
    let _ = crate::arith::symbolic::take_undecided();
}

/// A call into the law with a fresh record of undecided signs ([`fresh`]).
fn law<T, E: fmt::Display>(f: impl FnOnce() -> Result<T, E>) -> Result<T, String> {
    fresh();
    f().map_err(err)
}

/// The law's [`NonholonomicImpact::new`] reports any failure of its independence check as
/// "linearly dependent", an undecided pivot included; run the same check first so that an
/// undecided sign stays an undecided sign (the prover then splits the cell on it) and only
/// a decided singular Gram matrix is a refusal.
fn independence<S: Scalar>(mass: &SymMatrix<S>, omegas: &[Vector<S>]) -> Result<(), String> {
    if omegas.is_empty() {
        return Ok(());
    }
    let gram = omegas
        .iter()
        .map(|a| omegas.iter().map(|b| co(mass, a, b)).collect())
        .collect::<Result<Vec<Vector<S>>, String>>()?;
    let zero = vec![omegas[0][0].zero_like(); omegas.len()];
    fresh();
    match crate::linalg::solve(gram, zero) {
        Err(e @ crate::linalg::LinalgError::Undecided(_)) => Err(err(e)),
        _ => Ok(()),
    }
}

/// The outputs requested in `maps` (names separated by `_`, `,` or spaces; default: all):
/// `p`, `projection`, `plastic`, `elastic`, `energy` (`nh.general`, `penny.maps`), `w30`,
/// `a31`, `p32` (`penny.printed`).
fn wants<S: Scalar>(inp: &ProbeIn<S>, map: &str) -> bool {
    inp.raw("maps")
        .is_none_or(|m| m.split([',', ' ', '_']).any(|x| x == map))
}

/// The pairings (16)–(17) use, the energies and constraint values of the outputs, and the
/// momentum jumps: shared by `nh.general` and `penny.maps`.
fn pairings<S: Scalar>(
    nh: &NonholonomicImpact<S>,
    v: &[S],
    out: &mut Env<S>,
) -> Result<(), String> {
    let m = &nh.mass;
    for (k, row) in nh.gram().iter().enumerate() {
        for (l, x) in row.iter().enumerate() {
            out.insert(format!("g{}{}", k + 1, l + 1), x.clone());
        }
    }
    for (k, o) in nh.omegas.iter().enumerate() {
        out.insert(format!("gd{}", k + 1), co(m, &nh.dh, o)?);
        out.insert(format!("pw{}", k + 1), co(m, &m.apply(v), o)?);
    }
    out.insert("gdd".into(), co(m, &nh.dh, &nh.dh)?);
    out.insert("pd".into(), co(m, &m.apply(v), &nh.dh)?);
    out.insert("rate".into(), nh.normal_rate(v));
    out.insert("E0".into(), nh.energy(v).map_err(err)?);
    Ok(())
}

/// A post-impact velocity `x` of a map named `name`: x itself, its energy `E{name}` (if
/// `energy`: a quadratic form of rational functions, the largest output), its constraint
/// values `om{k}_{name}`, and the momentum jump `d{name}_i` = (M(x − q̇))_i.
fn outcome<S: Scalar>(
    nh: &NonholonomicImpact<S>,
    v: &[S],
    (name, energy): (&str, bool),
    x: &[S],
    out: &mut Env<S>,
) -> Result<(), String> {
    put(out, name, x);
    if energy {
        out.insert(format!("E{name}"), nh.energy(x).map_err(err)?);
    }
    for (k, o) in nh.omegas.iter().enumerate() {
        out.insert(format!("om{}_{name}", k + 1), dot(o.iter(), x.iter()));
    }
    put(out, &format!("d{name}"), &nh.mass.apply(&sub(x, v)));
    Ok(())
}

/// The elastic map (Proposition 4.1) at q̇ ∈ Δ: where dh(q̇) is decided zero, (15) has only
/// the trivial solution q̇⁺ = q̇, λ = 0, α = 0 (`nontrivial` = 0; the law answers an error
/// there); otherwise the law's solution (`nontrivial` = 1). An undecided rate is an error
/// (the prover splits on it).
fn elastic<S: Scalar>(
    nh: &NonholonomicImpact<S>,
    v: &[S],
    energy: bool,
    out: &mut Env<S>,
) -> Result<(), String> {
    let rate = nh.normal_rate(v);
    let zero = rate.zero_like();
    fresh();
    let decided = decide(&rate, "the normal rate dh(qdot)").map_err(err)?;
    let (x, alpha, lambda, nontrivial) = match decided {
        Sign::Zero => (
            v.to_vec(),
            zero.clone(),
            vec![zero.clone(); nh.omegas.len()],
            false,
        ),
        _ => {
            fresh();
            let e = nh.elastic(v).map_err(err)?;
            (e.velocity, e.alpha, e.lambda, true)
        }
    };
    outcome(nh, v, ("el", energy), &x, out)?;
    out.insert("alpha".into(), alpha);
    put(out, "lam", &lambda);
    // `lam_k` → also `lam{k}` (the paper's λ_k)
    for (k, l) in lambda.iter().enumerate() {
        out.insert(format!("lam{}", k + 1), l.clone());
    }
    out.insert("nontrivial".into(), flag(&zero, nontrivial));
    fresh();
    put(out, "refl", &nh.elastic_reflection(v).map_err(err)?);
    Ok(())
}

/// π_Δ of (21) at q̇ (`proj_i`), applied twice (`pp_i`), the constraints of π_Δ(q̇)
/// (`om{k}_proj`), W^k = M⁻¹ω^k and π_Δ(W^k) (`W{k}_i`, `projW{k}_i`), and with a second
/// velocity u the two sides of self-adjointness g(π_Δ q̇, u), g(q̇, π_Δ u) (`gPu`, `gvPu`).
fn projection<S: Scalar>(
    nh: &NonholonomicImpact<S>,
    v: &[S],
    u: Option<&[S]>,
    out: &mut Env<S>,
) -> Result<(), String> {
    let proj = law(|| nh.project(v))?;
    put(out, "proj", &proj);
    put(out, "dproj", &nh.mass.apply(&sub(&proj, v)));
    put(out, "pp", &law(|| nh.project(&proj))?);
    for (k, o) in nh.omegas.iter().enumerate() {
        out.insert(format!("om{}_proj", k + 1), dot(o.iter(), proj.iter()));
        let wk = nh.mass.solve(o).map_err(err)?;
        put(out, &format!("W{}", k + 1), &wk);
        put(out, &format!("projW{}", k + 1), &law(|| nh.project(&wk))?);
    }
    if let Some(u) = u {
        let pu = law(|| nh.project(u))?;
        out.insert("gPu".into(), nh.mass.inner(&proj, u));
        out.insert("gvPu".into(), nh.mass.inner(v, &pu));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// nh.general
// ---------------------------------------------------------------------------------------

/// A general natural system at one impact configuration (CB Sect. III–IV): the mass
/// matrix from its upper entries `m{i}{j}` (absent: 0), the one-forms `w{k}_{i}`, `dh{i}`,
/// q̇ = `v{i}`; with `e`, the restitution map (6) at q̇ and at a second velocity `u{i}`.
/// P (5), π_Δ (21), the plastic map (18) and its form (20) and, at q̇ ∈ Δ, the elastic map
/// (15)–(17) with its closed form; the pairings of (16)–(17).
fn general<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let mut n = 0;
    while inp.has(&format!("v{}", n + 1)) {
        n += 1;
    }
    if n == 0 {
        return Err("nh.general needs v1..vn".into());
    }
    let zero = inp.num("v1")?.zero_like();
    let entry = |i: usize, j: usize| {
        let key = format!("m{i}{j}");
        if inp.has(&key) {
            inp.num(&key)
        } else {
            Ok(zero.clone())
        }
    };
    let upper = (1..=n)
        .map(|i| (i..=n).map(|j| entry(i, j)).collect::<Result<Vec<_>, _>>())
        .collect::<Result<Vec<_>, _>>()?;
    let mass = SymMatrix::from_upper(upper).map_err(err)?;
    let vector = |name: &str| -> Result<Vector<S>, String> {
        (1..=n).map(|i| inp.num(&format!("{name}{i}"))).collect()
    };
    let mut omegas = Vec::new();
    while inp.has(&format!("w{}_1", omegas.len() + 1)) {
        let k = omegas.len() + 1;
        omegas.push(vector(&format!("w{k}_"))?);
    }
    let v = vector("v")?;
    let dh = vector("dh")?;
    law(|| mass.check_positive_definite())?;
    independence(&mass, &omegas)?;
    let nh = law(|| NonholonomicImpact::new(mass, omegas, dh))?;
    let one = zero.one_like();
    let mut out = Env::new();
    pairings(&nh, &v, &mut out)?;
    let energy = wants(inp, "energy");
    let p = if wants(inp, "p") || wants(inp, "plastic") {
        let p = law(|| nh.holonomic(&v, &one))?;
        outcome(&nh, &v, ("P", energy), &p, &mut out)?;
        Some(p)
    } else {
        None
    };
    let u = if inp.has("u1") {
        Some(vector("u")?)
    } else {
        None
    };
    if inp.has("e") {
        let e = inp.num("e")?;
        let r = law(|| nh.holonomic(&v, &e))?;
        put(&mut out, "R", &r);
        put(&mut out, "dR", &nh.mass.apply(&sub(&r, &v)));
        put(&mut out, "RR", &law(|| nh.holonomic(&r, &e))?);
        out.insert("rateR".into(), nh.normal_rate(&r));
        if let Some(u) = &u {
            let ru = law(|| nh.holonomic(u, &e))?;
            put(&mut out, "Ru", &ru);
            out.insert("gRu".into(), nh.mass.inner(&r, u));
            out.insert("gvRu".into(), nh.mass.inner(&v, &ru));
        }
    }
    if !nh.omegas.is_empty() && wants(inp, "projection") {
        projection(&nh, &v, u.as_deref(), &mut out)?;
    }
    if let (true, Some(p)) = (wants(inp, "plastic"), &p) {
        let pl = law(|| nh.plastic(&v))?;
        outcome(&nh, &v, ("pl", energy), &pl, &mut out)?;
        put(&mut out, "pl20", &law(|| nh.plastic_20(&v))?);
        put(&mut out, "dplP", &nh.mass.apply(&sub(&pl, p)));
    }
    if wants(inp, "elastic") && law(|| nh.in_distribution(&v))? {
        elastic(&nh, &v, energy, &mut out)?;
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// The penny
// ---------------------------------------------------------------------------------------

fn penny_of<S: Scalar>(inp: &ProbeIn<S>) -> Result<Penny<S>, String> {
    Ok(Penny {
        mass: inp.num("m")?,
        radius: inp.num("R")?,
        inertia: inp.num("I")?,
        spin_inertia: inp.num("J")?,
    })
}

fn heading_of<S: Scalar>(inp: &ProbeIn<S>, c: &str, s: &str) -> Result<Heading<S>, String> {
    Ok(Heading {
        cos: inp.num(c)?,
        sin: inp.num(s)?,
    })
}

fn end_of<S: Scalar>(inp: &ProbeIn<S>) -> Result<End, String> {
    match inp.raw("end").as_deref() {
        None | Some("front") => Ok(End::Front),
        Some("back") => Ok(End::Back),
        Some(o) => Err(format!("end: expected front or back, got {o}")),
    }
}

fn jets<S: Scalar>(p: &Penny<S>) -> Penny<Dual<S>> {
    Penny {
        mass: Dual::constant(p.mass.clone()),
        radius: Dual::constant(p.radius.clone()),
        inertia: Dual::constant(p.inertia.clone()),
        spin_inertia: Dual::constant(p.spin_inertia.clone()),
    }
}

/// The heading as a jet along a motion with φ̇ = `phidot`: (cos φ)′ = −φ̇ sin φ,
/// (sin φ)′ = φ̇ cos φ.
fn heading_jet<S: Scalar>(h: &Heading<S>, phidot: &S) -> Heading<Dual<S>> {
    Heading {
        cos: jet(h.cos.clone(), -phidot.mul_r(&h.sin)),
        sin: jet(h.sin.clone(), phidot.mul_r(&h.cos)),
    }
}

/// The penny's three maps at one impact (CB Sect. V-B): the law's nonholonomic impact for
/// the heading (`c`, `s`), the end (`end`, default front) and the gradient (`hx`, `hy`)
/// of h at the end point; q̇ the rolling velocity (23) of `thd`, `phd` (then the elastic
/// map too) or any (`vx vy vth vph`). The printed (28)–(29), and `rate_chain`: the rate of
/// h along the end's motion, h_x ė_x + h_y ė_y with ė the derivative of the law's end
/// point (27)/(34) (jets), to compare with dH(q̇).
fn penny_maps<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let p = penny_of(inp)?;
    let h = heading_of(inp, "c", "s")?;
    let end = end_of(inp)?;
    let grad = (inp.num("hx")?, inp.num("hy")?);
    let rolling = inp.has("thd");
    let v = if rolling {
        p.rolling(&h, &inp.num("thd")?, &inp.num("phd")?)
    } else {
        ["vx", "vy", "vth", "vph"]
            .iter()
            .map(|n| inp.num(n))
            .collect::<Result<Vec<S>, _>>()?
    };
    independence(&p.mass_matrix(), &p.omegas(&h))?;
    let nh = law(|| p.impact(&h, end, &grad))?;
    let one = v[0].one_like();
    let mut out = Env::new();
    put(&mut out, "v", &v);
    put(&mut out, "dH", &nh.dh);
    pairings(&nh, &v, &mut out)?;
    // the chain rule through the end point: x, y move at ẋ, ẏ, the heading at φ̇
    let pj = jets(&p);
    let (ex, ey) = pj.end_point(
        &jet(v[0].zero_like(), v[0].clone()),
        &jet(v[1].zero_like(), v[1].clone()),
        &heading_jet(&h, &v[3]),
        end,
    );
    out.insert(
        "rate_chain".into(),
        grad.0.mul_r(&dv(&ex)) + &grad.1.mul_r(&dv(&ey)),
    );
    let energy = wants(inp, "energy");
    let pp = law(|| nh.holonomic(&v, &one))?;
    outcome(&nh, &v, ("P", energy), &pp, &mut out)?;
    put(&mut out, "p28", &p.p_28(&h, end, &grad, &v).map_err(err)?);
    out.insert("C29".into(), p.c_29(&h, end, &grad, &v).map_err(err)?);
    if wants(inp, "projection") {
        let u = if inp.has("ux") {
            Some(
                ["ux", "uy", "uth", "uph"]
                    .iter()
                    .map(|n| inp.num(n))
                    .collect::<Result<Vec<S>, _>>()?,
            )
        } else {
            None
        };
        projection(&nh, &v, u.as_deref(), &mut out)?;
    }
    let span = |x: &[S]| {
        let mut rows = nh.omegas.clone();
        rows.push(nh.dh.clone());
        rows.push(nh.mass.apply(&sub(x, &v)));
        det(&rows)
    };
    if wants(inp, "plastic") {
        let pl = law(|| nh.plastic(&v))?;
        outcome(&nh, &v, ("pl", energy), &pl, &mut out)?;
        put(&mut out, "pl20", &law(|| nh.plastic_20(&v))?);
        out.insert("det_pl".into(), span(&pl));
        put(&mut out, "dplP", &nh.mass.apply(&sub(&pl, &pp)));
    }
    if rolling && wants(inp, "elastic") {
        elastic(&nh, &v, energy, &mut out)?;
        let el: Vec<S> = (1..=4).map(|i| out[&format!("el_{i}")].clone()).collect();
        out.insert("det_el".into(), span(&el));
    }
    Ok(out)
}

/// (30)–(33) as printed next to the law's objects, at the heading (`c`, `s`): W30 (30) and
/// W = M⁻¹ω^k (the ♯ of (1)); a31 (31) and g = (a^{ij}) of (19) (the law's Gram matrix);
/// P32 = (I + mR²)π_Δ of (32)–(33) and Pi the law's π_Δ (21), column j = π_Δ(e_j).
fn penny_printed<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let m = inp.num("m")?;
    let p = Penny {
        mass: m.clone(),
        radius: inp.num("R")?,
        inertia: inp.num("I")?,
        spin_inertia: m.one_like(), // J does not enter (30)–(33)
    };
    let h = heading_of(inp, "c", "s")?;
    let (zero, one) = (m.zero_like(), m.one_like());
    // π_Δ, W and a^{ij} do not depend on dh: any end and gradient
    independence(&p.mass_matrix(), &p.omegas(&h))?;
    let nh = law(|| p.impact(&h, End::Front, &(one.clone(), zero.clone())))?;
    let mut out = Env::new();
    if wants(inp, "w30") {
        for (k, w) in p.w_30(&h).map_err(err)?.iter().enumerate() {
            put(&mut out, &format!("W30_{}", k + 1), w);
        }
        for (k, o) in nh.omegas.iter().enumerate() {
            put(
                &mut out,
                &format!("W_{}", k + 1),
                &nh.mass.solve(o).map_err(err)?,
            );
        }
    }
    if wants(inp, "a31") {
        for (i, row) in p.a_31(&h).map_err(err)?.iter().enumerate() {
            for (j, x) in row.iter().enumerate() {
                out.insert(format!("a31_{}{}", i + 1, j + 1), x.clone());
            }
        }
        for (i, row) in nh.gram().iter().enumerate() {
            for (j, x) in row.iter().enumerate() {
                out.insert(format!("g{}{}", i + 1, j + 1), x.clone());
            }
        }
    }
    if wants(inp, "p32") {
        for (i, row) in p.projection_32(&h).iter().enumerate() {
            for (j, x) in row.iter().enumerate() {
                out.insert(format!("P32_{}_{}", i + 1, j + 1), x.clone());
            }
        }
        for j in 0..4 {
            let e: Vec<S> = (0..4).map(|i| flag(&zero, i == j)).collect();
            for (i, x) in law(|| nh.project(&e))?.iter().enumerate() {
                out.insert(format!("Pi_{}_{}", i + 1, j + 1), x.clone());
            }
        }
    }
    Ok(out)
}

/// The law's flow (26) from (`x0`, `y0`, `th0`, heading (`c0`, `s0`), θ̇ = `Om`, φ̇ = `om`)
/// for a time `t`, with u = ωt given by (cos u, sin u) = (`cu`, `su`) (exact points of the
/// circle), and the time derivative of every component: the flow run on jets with t′ = 1,
/// (cos u)′ = −ω sin u, (sin u)′ = ω cos u, (1 − cos u)′ = ω sin u. Outputs the state
/// (`x y theta hc hs thd phd`), its derivative (`dx dy dtheta dhc dhs dthd dphd`) and the
/// ends (27)/(34) of the state (`fx fy`, `bx by`).
fn penny_flow<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let r = inp.num("R")?;
    let one = r.one_like();
    let p = Penny {
        mass: one.clone(),
        radius: r,
        inertia: one.clone(),
        spin_inertia: one,
    };
    let c = |n: &str| inp.num(n).map(Dual::constant);
    let s = PennyState {
        x: c("x0")?,
        y: c("y0")?,
        theta: c("th0")?,
        heading: Heading {
            cos: c("c0")?,
            sin: c("s0")?,
        },
        thetadot: c("Om")?,
        phidot: c("om")?,
    };
    let (om, cu, su) = (inp.num("om")?, inp.num("cu")?, inp.num("su")?);
    let t = jet(inp.num("t")?, om.one_like());
    let cos_u = jet(cu.clone(), -om.mul_r(&su));
    let sin_u = jet(su.clone(), om.mul_r(&cu));
    let vers = jet(cu.one_like() - &cu, om.mul_r(&su));
    let f = jets(&p)
        .flow_by(&s, &t, &cos_u, &sin_u, &vers)
        .map_err(err)?;
    let mut out = Env::new();
    for (name, x) in [
        ("x", &f.x),
        ("y", &f.y),
        ("theta", &f.theta),
        ("hc", &f.heading.cos),
        ("hs", &f.heading.sin),
        ("thd", &f.thetadot),
        ("phd", &f.phidot),
    ] {
        out.insert(name.into(), x.value.clone());
        out.insert(format!("d{name}"), dv(x));
    }
    let h = Heading {
        cos: f.heading.cos.value.clone(),
        sin: f.heading.sin.value.clone(),
    };
    for (end, a, b) in [(End::Front, "fx", "fy"), (End::Back, "bx", "by")] {
        let (ex, ey) = p.end_point(&f.x.value, &f.y.value, &h, end);
        out.insert(a.into(), ex);
        out.insert(b.into(), ey);
    }
    Ok(out)
}

/// The Lagrange–d'Alembert equations (12)–(13) of the penny in the coordinates (11),
/// s = (x, y), r = (θ, φ), at the heading (`c`, `s`) along a motion that satisfies the
/// constraints (13) with θ̇, φ̇, θ̈, φ̈ = `thd`, `phd`, `thdd`, `phdd`: q̇ is the law's rolling
/// velocity (23) and q̈ its time derivative (jets). L of (22) has a constant M (the law's
/// `mass_matrix`), so d/dt ∂L/∂q̇ − ∂L/∂q = M q̈. The ω^a are the law's (24); `o{a}_{b}` is
/// their ds^b coefficient (1 if a = b, 0 otherwise, for the form (11)) and
/// `A{a}_{α}` their dr^α coefficient. Outputs `res_theta`, `res_phi` (left minus right of
/// (12)), `xdot13`, `ydot13` (ṡ^a = −A^a_α ṙ^α of (13)) and `qdd_i`.
fn penny_eq12<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let p = penny_of(inp)?;
    let h = heading_of(inp, "c", "s")?;
    let (thd, phd) = (inp.num("thd")?, inp.num("phd")?);
    let qdot = jets(&p).rolling(
        &heading_jet(&h, &phd),
        &jet(thd.clone(), inp.num("thdd")?),
        &jet(phd.clone(), inp.num("phdd")?),
    );
    let qdd: Vec<S> = qdot.iter().map(|x| dv(x)).collect();
    let el = p.mass_matrix().apply(&qdd);
    let omegas = p.omegas(&h);
    let mut out = Env::new();
    put(&mut out, "qdd", &qdd);
    put(
        &mut out,
        "qd",
        &qdot.iter().map(|x| x.value.clone()).collect::<Vec<_>>(),
    );
    for (a, o) in omegas.iter().enumerate() {
        for (b, x) in o[..2].iter().enumerate() {
            out.insert(format!("o{}_{}", a + 1, b + 1), x.clone());
        }
        out.insert(format!("A{}_theta", a + 1), o[2].clone());
        out.insert(format!("A{}_phi", a + 1), o[3].clone());
    }
    let rdot = [thd, phd];
    for (alpha, name) in [(0usize, "theta"), (1, "phi")] {
        let mut res = el[2 + alpha].clone();
        for (a, o) in omegas.iter().enumerate() {
            res = res - &o[2 + alpha].mul_r(&el[a]);
        }
        out.insert(format!("res_{name}"), res);
    }
    for (a, name) in [(0usize, "xdot13"), (1, "ydot13")] {
        let s = omegas[a][2].mul_r(&rdot[0]) + &omegas[a][3].mul_r(&rdot[1]);
        out.insert(name.into(), -s);
    }
    Ok(out)
}

/// Table I as the law holds it (`Penny::table_i`).
fn penny_table1<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let p = Penny::table_i(&S::from_i64(1, &inp.ctx));
    Ok(Env::from([
        ("m".into(), p.mass),
        ("R".into(), p.radius),
        ("I".into(), p.inertia),
        ("J".into(), p.spin_inertia),
    ]))
}

/// The initial state of Sect. VI-A on the tables (35) `a{k}`, `b{k}` (k = 1, 2, …), with
/// the penny of Table I: q̇ the rolling velocity (23) of `thd`, `phd` at the heading (`c`,
/// `s`), `in_delta` (the law's constraint check), and for each table h at the front and
/// back end points (27)/(34) of (`x0`, `y0`) and the rates dH(q̇) of both ends (the law's
/// normal rate, gradient of h at the end point).
fn penny_initial<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let p = Penny::table_i(&S::from_i64(1, &inp.ctx));
    let h = heading_of(inp, "c", "s")?;
    let v = p.rolling(&h, &inp.num("thd")?, &inp.num("phd")?);
    let (x0, y0) = (inp.num("x0")?, inp.num("y0")?);
    let mut out = Env::new();
    put(&mut out, "v", &v);
    let mut k = 1;
    while inp.has(&format!("a{k}")) {
        let table = Boundary::Ellipse {
            a: inp.num(&format!("a{k}"))?,
            b: inp.num(&format!("b{k}"))?,
        };
        for (end, tag) in [(End::Front, "f"), (End::Back, "b")] {
            let (ex, ey) = p.end_point(&x0, &y0, &h, end);
            out.insert(format!("h{tag}{k}"), table.h(&ex, &ey).map_err(err)?);
            let grad = table.gradient(&ex, &ey).map_err(err)?;
            let nh = law(|| p.impact(&h, end, &grad))?;
            out.insert(format!("rate{tag}{k}"), nh.normal_rate(&v));
            if k == 1 && end == End::Front {
                out.insert(
                    "in_delta".into(),
                    flag(&x0, law(|| nh.in_distribution(&v))?),
                );
            }
        }
        k += 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Rational;

    fn r(n: i64, d: i64) -> Rational {
        Rational::new(n, d)
    }

    #[test]
    fn jets_differentiate_products_and_quotients() {
        // f(t) = t²/(1 + t) at t = 2: f = 4/3, f′ = (2t(1 + t) − t²)/(1 + t)² = 8/9
        let t = jet(r(2, 1), r(1, 1));
        let f = t.mul_r(&t).checked_div(&(t.one_like() + &t)).unwrap();
        assert_eq!((f.value.clone(), dv(&f)), (r(4, 3), r(8, 9)));
        // a jet with value 0 and a nonzero derivative is not an exact zero
        assert_eq!(jet(r(0, 1), r(1, 1)).sign(), Sign::Unknown);
        assert_eq!(Dual::constant(r(0, 1)).sign(), Sign::Zero);
    }

    #[test]
    fn determinant() {
        let m = vec![
            vec![r(2, 1), r(0, 1), r(1, 1)],
            vec![r(1, 1), r(3, 1), r(0, 1)],
            vec![r(0, 1), r(1, 1), r(4, 1)],
        ];
        assert_eq!(det(&m), r(25, 1)); // 2·12 − 0 + 1·1
    }
}
