//! Probes: named entry points into the library's laws, for claims.
//!
//! A probe takes named inputs (input-language strings, e.g. `k = "1/2"`) and returns named
//! exact outputs; a claim states the inputs and the paper's outputs, the engine runs the
//! law and compares. Every probe calls existing law / system code; none restates a
//! formula of a paper.

use crate::arith::{Quadratic, Rational, Scalar};
use crate::lang::{self, Env};
use crate::law::characterization::{
    impulse_asymmetric, impulse_ideal, impulse_symmetric, Constraints, Stop,
};
use crate::law::corner::{self, Zone};
use crate::law::V2;
use crate::linalg::{add, SymMatrix};
use crate::report::cradle::Agreement;
use crate::system::corner::{CornerRun, Form, Restitution};
use crate::system::cradle::{run_cradle, table1};
use num_rational::BigRational;
use std::collections::BTreeMap;

/// Probe inputs: name → input-language string.
pub type Inputs = BTreeMap<String, String>;

type R = Rational;

/// The probes, with their inputs and outputs (for error messages and docs).
pub const PROBES: [(&str, &str); 21] = [
    (
        "propagative.thm1",
        "m1..mn u1_i u2_i p1..pn -> count min_len max_len bound (= ceil(pi/gamma)); SM Thm 1",
    ),
    (
        "corner.result6",
        "a b -> ta_steps predicted; alpha = a*pi, v0 = (cos b*pi, sin b*pi), 256-bit intervals",
    ),
    (
        "corner.tr_id_xy",
        "k x y -> x1 y1 zone zone1 xi eta xi1 eta1; eqs. (3a-3d)",
    ),
    (
        "corner.tr_id_phi",
        "k x y -> same; eqs. (6a-6d), (x, y) = v(cos phi, sin phi)",
    ),
    (
        "corner.tr_id_xi_eta",
        "k x y -> same; eqs. (8a-8d) through (7)",
    ),
    ("corner.tr_nid_xy", "k eps x y -> same; eqs. (13a-13d)"),
    (
        "corner.tr_nid_xi_eta",
        "k eps x y -> same; eqs. (14a-14d) through (7)",
    ),
    (
        "corner.asymmetric",
        "k eps1 eps2 x y -> same; Pasquero eq. (10)",
    ),
    (
        "corner.orthogonal",
        "k x y -> v1x v1y v2x v2y v12x v12y beta; Pasquero Sect. 4.2",
    ),
    (
        "corner.ta",
        "k eps x y [S] [max_steps] -> steps multiple exit xf yf; FP Sect. 6",
    ),
    (
        "corner.h",
        "k eps -> h1_11 .. h1_22 h2_11 .. h2_22; proof of Thm 5.3",
    ),
    (
        "char.corner",
        "rule (ideal|symmetric|asymmetric) k eps eps1 eps2 x y -> x1 y1; Pasquero (5)(6)(7)",
    ),
    (
        "cradle.run",
        "eps v1 v2 v3 [m1 m2 m3] [sigma] [max_iter] -> steps multiple exit vf1..3, v{w}_{i}",
    ),
    (
        "cradle.table1",
        "-> rows agree_values agree_iterations agree_termination; Pasquero Table 1",
    ),
    (
        "corner.quadratic_run",
        "alpha eps1 eps2 x y [max_steps] -> steps multiple exit; Pasquero (10) in Q(sqrt d)",
    ),
    (
        "propagative",
        "m1 .. m_n, normals u1 .. (comma lists), p -> see propagative()",
    ),
    (
        "sequential.law",
        "[m | m1 m2 m3] [g1 g2] -> cones q_N_ij continuous energy onto_first kinematic kinetic factorises gp lam in_N; WL Sect. 3",
    ),
    (
        "sequential.pair",
        "[m] a1 a2 b1 b2 -> lhs rhs split; WL Theorem 1 (37)",
    ),
    (
        "sequential.abc",
        "[m] v -> gp/bar/lam{A,B,C}{1,2} lambda_sum violates found found_sum; WL (45)-(49)",
    ),
    ("rods", "u1 u2 .. -> out_i gm_i gp_i vibrating; WL Sect. 4"),
    (
        "billiard.break",
        "[ra rb rc ma mb mc] (t | half) -> inner middle cos_over_mc xi2 overlap; SM (31), Fig. 5",
    ),
];

pub(super) fn get(inp: &Inputs, name: &str) -> Result<BigRational, String> {
    let s = inp
        .get(name)
        .ok_or_else(|| format!("probe input `{name}` missing"))?;
    lang::rational(s).map_err(|e| format!("probe input `{name}`: {e}"))
}

fn opt(inp: &Inputs, name: &str, default: &str) -> Result<BigRational, String> {
    match inp.get(name) {
        Some(_) => get(inp, name),
        None => lang::rational(default).map_err(|e| e.to_string()),
    }
}

pub(super) fn r(q: BigRational) -> R {
    Rational::from_big(&q)
}

pub(super) fn int(n: usize) -> R {
    Rational::new(n as i64, 1)
}

fn zone_code(z: Zone) -> R {
    int(match z {
        Zone::Z0 => 0,
        Zone::Z1 => 1,
        Zone::Z2 => 2,
        Zone::Z12 => 12,
    })
}

pub(super) fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Runs a probe.
pub fn run(name: &str, inp: &Inputs) -> Result<Env<R>, String> {
    match name {
        "corner.tr_id_xy"
        | "corner.tr_id_phi"
        | "corner.tr_id_xi_eta"
        | "corner.tr_nid_xy"
        | "corner.tr_nid_xi_eta"
        | "corner.asymmetric" => corner_step(name, inp),
        "corner.orthogonal" => corner_orthogonal(inp),
        "corner.ta" => corner_ta(inp),
        "corner.h" => corner_h(inp),
        "char.corner" => char_corner(inp),
        "cradle.run" => cradle(inp),
        "cradle.table1" => cradle_table1(),
        "corner.quadratic_run" => corner_quadratic(inp),
        "propagative" => super::probes_propagative::reflections(inp),
        "corner.result6" => corner_result6(inp),
        "propagative.thm1" => super::probes_propagative::theorem1(inp),
        "sequential.law" => super::probes_sequential::sequential_law(inp),
        "sequential.pair" => super::probes_sequential::sequential_pair(inp),
        "sequential.abc" => super::probes_sequential::sequential_abc(inp),
        "rods" => super::probes_sequential::rods(inp),
        "billiard.break" => super::probes_billiard::billiard_break(inp),
        _ => super::probes_more_fp::run(name, inp)
            .or_else(|| super::probes_more_pq::run(name, inp))
            .or_else(|| super::probes_more_sm::run(name, inp))
            .or_else(|| super::probes_more_wl::run(name, inp))
            .unwrap_or_else(|| {
                Err(format!(
                    "unknown probe \"{name}\" (known: {})",
                    all_probes().join(", ")
                ))
            }),
    }
}

/// The names of every probe.
pub fn all_probes() -> Vec<&'static str> {
    PROBES
        .iter()
        .chain(super::probes_more_fp::PROBES)
        .chain(super::probes_more_pq::PROBES)
        .chain(super::probes_more_sm::PROBES)
        .chain(super::probes_more_wl::PROBES)
        .map(|p| p.0)
        .collect()
}

/// One application of a corner rule in the zone eq. (1) assigns (S = 0).
fn corner_step(name: &str, inp: &Inputs) -> Result<Env<R>, String> {
    let k = r(get(inp, "k")?);
    let v = V2::new(r(get(inp, "x")?), r(get(inp, "y")?));
    let zero = k.zero_like();
    let mut zone = corner::zone_xy(&k, &v, &zero).map_err(err)?;
    // `force_zone`: apply that zone's formula wherever v is (as SA does near a boundary,
    // FP Sect. 7)
    if let Some(z) = inp.get("force_zone") {
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
            let zs = corner::zones_phi(&k, &v).map_err(err)?;
            if zs.len() != 1 {
                return Err(format!(
                    "the conditions of (6) give {} zones here",
                    zs.len()
                ));
            }
            corner::tr_id_phi(&k, zs[0], &v)
        }
        "corner.tr_id_xi_eta" => {
            let w = corner::tr_id_xi_eta(&k, zone, &corner::xi_eta(&k, &v)).map_err(err)?;
            corner::xy_from_xi_eta(&k, &w)
        }
        "corner.tr_nid_xy" => corner::tr_nid_xy(&k, &r(get(inp, "eps")?), zone, &v),
        "corner.tr_nid_xi_eta" => {
            let e = r(get(inp, "eps")?);
            let w = corner::tr_nid_xi_eta(&k, &e, zone, &corner::xi_eta(&k, &v)).map_err(err)?;
            corner::xy_from_xi_eta(&k, &w)
        }
        _ => corner::asymmetric_xy(&k, &r(get(inp, "eps1")?), &r(get(inp, "eps2")?), zone, &v),
    }
    .map_err(err)?;
    step_outputs(&k, &v, zone, &out)
}

fn step_outputs(k: &R, v: &V2<R>, zone: Zone, out: &V2<R>) -> Result<Env<R>, String> {
    let zone1 = corner::zone_xy(k, out, &k.zero_like()).map_err(err)?;
    let w = corner::xi_eta(k, v);
    let w1 = corner::xi_eta(k, out);
    Ok(Env::from([
        ("x1".into(), out.x.clone()),
        ("y1".into(), out.y.clone()),
        ("zone".into(), zone_code(zone)),
        ("zone1".into(), zone_code(zone1)),
        ("xi".into(), w.x),
        ("eta".into(), w.y),
        ("xi1".into(), w1.x),
        ("eta1".into(), w1.y),
    ]))
}

/// V⊥₁, V⊥₂ (law code), V⊥₁₂ = v and β (Pasquero Sect. 4.2).
fn corner_orthogonal(inp: &Inputs) -> Result<Env<R>, String> {
    let k = r(get(inp, "k")?);
    let v = V2::new(r(get(inp, "x")?), r(get(inp, "y")?));
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

/// The theoretical algorithm TA (S = 0 unless given) of FP Sect. 6, exact.
fn corner_ta(inp: &Inputs) -> Result<Env<R>, String> {
    let k = r(get(inp, "k")?);
    let run = CornerRun {
        k: k.clone(),
        restitution: Restitution::Symmetric(r(get(inp, "eps")?)),
        threshold: r(opt(inp, "S", "0")?),
        rest_threshold: k.zero_like(),
        max_steps: opt(inp, "max_steps", "1000")?
            .to_integer()
            .try_into()
            .map_err(|_| "max_steps too large")?,
        form: Form::Xy,
        max_digits: None,
        record_velocities: false,
    };
    let t = run
        .run(V2::new(r(get(inp, "x")?), r(get(inp, "y")?)))
        .map_err(err)?;
    let f = t.final_velocity();
    Ok(Env::from([
        ("steps".into(), int(t.steps)),
        (
            "multiple".into(),
            int(t.zones.iter().filter(|z| **z == Zone::Z12).count()),
        ),
        (
            "exit".into(),
            int(usize::from(t.termination.name() == "exit")),
        ),
        ("xf".into(), f.x.clone()),
        ("yf".into(), f.y.clone()),
    ]))
}

/// H₁, H₂ of the proof of Theorem 5.3 (law code).
fn corner_h(inp: &Inputs) -> Result<Env<R>, String> {
    let (h1, h2) = corner::h_matrices(&r(get(inp, "k")?), &r(get(inp, "eps")?)).map_err(err)?;
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

/// One step of Pasquero's general rules (5), (6), (7) on the corner: M = I, normals
/// (k, −1) (S1) and (k, 1) (S2), impacting set from the law (p(S_i) > 0).
fn char_corner(inp: &Inputs) -> Result<Env<R>, String> {
    let k = r(get(inp, "k")?);
    let one = k.one_like();
    let c = Constraints::new(
        SymMatrix::diagonal(&[one.clone(), one.clone()]),
        vec![vec![k.clone(), -one.clone()], vec![k.clone(), one]],
    )
    .map_err(err)?;
    let v = vec![r(get(inp, "x")?), r(get(inp, "y")?)];
    // incoming for S_i when n_i·v > 0: kx − y > 0 (S1), kx + y > 0 (S2), eq. (9)
    let set = c.impacting(&v).map_err(err)?;
    let rule = inp.get("rule").map(String::as_str).unwrap_or("asymmetric");
    let imp = match rule {
        "ideal" => impulse_ideal(&c, &set, &v),
        "symmetric" => impulse_symmetric(&c, &r(get(inp, "eps")?), &set, &v),
        "asymmetric" => {
            impulse_asymmetric(&c, &[r(get(inp, "eps1")?), r(get(inp, "eps2")?)], &set, &v)
        }
        other => return Err(format!("char.corner: unknown rule {other}")),
    }
    .map_err(err)?;
    let out = add(&v, &imp);
    Ok(Env::from([
        ("x1".into(), out[0].clone()),
        ("y1".into(), out[1].clone()),
        ("impacts".into(), int(set.len())),
    ]))
}

fn usize_in(inp: &Inputs, name: &str, default: &str) -> Result<usize, String> {
    opt(inp, name, default)?
        .to_integer()
        .try_into()
        .map_err(|_| format!("{name} out of range"))
}

/// The procedure of Pasquero Sect. 3.5 on a 3-ball cradle (law code), exact.
fn cradle(inp: &Inputs) -> Result<Env<R>, String> {
    let masses = ["m1", "m2", "m3"]
        .iter()
        .map(|m| opt(inp, m, "1").map(r))
        .collect::<Result<Vec<_>, _>>()?;
    let e = r(get(inp, "eps")?);
    let v0 = ["v1", "v2", "v3"]
        .iter()
        .map(|m| get(inp, m).map(r))
        .collect::<Result<Vec<_>, _>>()?;
    let sigma = match inp.get("sigma") {
        Some(_) => Some(r(get(inp, "sigma")?)),
        None => None,
    };
    let o = run_cradle(
        &masses,
        &[e.clone(), e],
        v0,
        sigma.as_ref(),
        usize_in(inp, "max_iter", "10000")?,
    )
    .map_err(err)?;
    let mut out = Env::from([
        ("steps".into(), int(o.steps.len())),
        (
            "multiple".into(),
            int(o.steps.iter().filter(|s| s.impacting.len() > 1).count()),
        ),
        ("exit".into(), int(usize::from(o.stop == Stop::Exit))),
    ]);
    for (i, x) in o.final_velocity().iter().enumerate() {
        out.insert(format!("vf{}", i + 1), x.clone());
    }
    for (w, s) in o.steps.iter().enumerate().take(8) {
        for (i, x) in s.velocity.iter().enumerate() {
            out.insert(format!("v{}_{}", w + 1, i + 1), x.clone());
        }
    }
    Ok(out)
}

/// Pasquero's Table 1 recomputed exactly (system::cradle::table1).
fn cradle_table1() -> Result<Env<R>, String> {
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

/// Pasquero's rule (10) iterated exactly in one quadratic field Q(√d) (α like pi/6).
fn corner_quadratic(inp: &Inputs) -> Result<Env<R>, String> {
    let q = |n: &str| -> Result<Quadratic, String> {
        let s = inp
            .get(n)
            .ok_or_else(|| format!("probe input `{n}` missing"))?;
        crate::lang::eval_str::<Quadratic>(s, &()).map_err(err)
    };
    let alpha = inp.get("alpha").ok_or("probe input `alpha` missing")?;
    let k = crate::lang::eval_str::<Quadratic>(&format!("tan({alpha})"), &()).map_err(err)?;
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
    Ok(Env::from([
        ("steps".into(), int(t.steps)),
        (
            "multiple".into(),
            int(t.zones.iter().filter(|z| **z == Zone::Z12).count()),
        ),
        (
            "exit".into(),
            int(usize::from(t.termination.name() == "exit")),
        ),
    ]))
}

/// Converts an exact point into probe inputs (input-language strings).
pub fn inputs_from(
    env: &Env<R>,
    mapping: &[(String, String)],
    fixed: &Inputs,
) -> Result<Inputs, String> {
    let mut out = fixed.clone();
    for (name, expr) in mapping {
        let node = lang::parse_with_variables(expr).map_err(|e| format!("inputs.{name}: {e}"))?;
        match node.as_var() {
            // a word that is not a variable is a literal (e.g. rule = "ideal")
            Some(w) if !env.contains_key(w) => {
                out.insert(name.clone(), w.to_string());
            }
            _ => {
                let v = node.eval_in(env, &()).map_err(|e| e.to_string())?;
                out.insert(name.clone(), lang::show(&v.to_big()));
            }
        }
    }
    Ok(out)
}

/// FP Result 6: TA steps (eps = 1) versus the count predicted by condition (9), for
/// α = aπ and v0 = (cos bπ, sin bπ), both on 256-bit MPFR intervals (certified signs).
fn corner_result6(inp: &Inputs) -> Result<Env<R>, String> {
    use crate::arith::MpInterval;
    let (a, b) = (get(inp, "a")?, get(inp, "b")?);
    let ev = |s: String| crate::lang::eval_str::<MpInterval>(&s, &256).map_err(err);
    let (a, b) = (lang::show(&a), lang::show(&b));
    let alpha = ev(format!("({a})*pi"))?;
    let v0 = V2::new(ev(format!("cos(({b})*pi)"))?, ev(format!("sin(({b})*pi)"))?);
    let k = alpha.tan().map_err(err)?;
    let run = CornerRun {
        k: k.clone(),
        restitution: Restitution::Symmetric(k.one_like()),
        threshold: k.zero_like(),
        rest_threshold: k.zero_like(),
        max_steps: 100_000,
        form: Form::Xy,
        max_digits: None,
        record_velocities: false,
    };
    let t = run.run(v0.clone()).map_err(err)?;
    if t.termination.name() != "exit" {
        return Err(format!(
            "TA did not certify an exit ({})",
            t.termination.name()
        ));
    }
    let p = corner::predicted_iterations_ideal(&alpha, &v0).map_err(err)?;
    Ok(Env::from([
        ("ta_steps".into(), int(t.steps)),
        ("predicted".into(), int(p)),
    ]))
}
