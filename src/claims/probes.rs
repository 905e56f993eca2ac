//! Probes: named entry points into the library's laws, for claims.
//!
//! A probe takes named inputs (input-language strings, e.g. `k = "1/2"`) and returns named
//! exact outputs; a claim states the inputs and the paper's outputs, the engine runs the
//! law and compares. Every probe calls existing law / system code; none restates a
//! formula of a paper.

use crate::arith::{Quadratic, Rational, Scalar};
use crate::lang::{self, Env};
use crate::law::corner::{self, Zone};
use crate::law::V2;
use crate::report::cradle::Agreement;
use crate::system::corner::{CornerRun, Form, Restitution};
use crate::system::cradle::table1;
use num_rational::BigRational;
use std::collections::BTreeMap;

/// Probe inputs: name → input-language string.
pub type Inputs = BTreeMap<String, String>;

type R = Rational;

/// The probes, with their inputs and outputs (for error messages and docs).
pub const PROBES: [(&str, &str); 23] = [
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
        "k x y -> x1 y1 zone zone1 xi eta xi1 eta1 goes_on multi multi_next; eqs. (3a-3d)",
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
        "char.single",
        "m1 m2 m3 n1 n2 n3 v1 v2 v3 eps -> w1..3 impacts rate0 rate1 E0 E1 d1..3; Pasquero rule (4), one constraint",
    ),
    (
        "cradle.run",
        "eps v1 v2 v3 [m1 m2 m3] [sigma] [max_iter] -> steps multiple exit vf1..3 (the state after max_iter steps where given; none where the default limit cuts the run), v{w}_{i}",
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
        "[ra rb rc ma mb mc] (t [check_overlap = 0|1] | half) -> inner middle cos_over_mc xi2 overlap; SM (31), Fig. 5",
    ),
    (
        "penny.run",
        "table law impacts [bits] -> impacts front_first energy_kept energy_drops alternating; CB Sect. VI-A, Figs. 1-4",
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

/// A word input of a probe (`table = "circle"`), or an error naming it.
pub(super) fn word<'a>(inp: &'a Inputs, name: &str) -> Result<&'a str, String> {
    inp.get(name)
        .map(String::as_str)
        .ok_or_else(|| format!("probe input `{name}` missing"))
}

pub(super) fn int(n: usize) -> R {
    Rational::new(n as i64, 1)
}

pub(super) fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Runs a probe.
pub fn run(name: &str, inp: &Inputs) -> Result<Env<R>, String> {
    // the probes that run in any arithmetic (probes_generic), here on exact rationals
    if let Some(r) =
        super::probes_generic::run(name, &super::probes_generic::ProbeIn::from_strings(inp))
    {
        return r;
    }
    match name {
        "cradle.table1" => cradle_table1(),
        "corner.quadratic_run" => corner_quadratic(inp),
        "corner.result6" => corner_result6(inp),
        "propagative.thm1" => super::probes_propagative::theorem1(inp),
        "sequential.pair" => super::probes_sequential::sequential_pair(inp),
        "sequential.abc" => super::probes_sequential::sequential_abc(inp),
        "billiard.break" => super::probes_billiard::billiard_break(inp),
        "penny.run" => super::probes_penny_run::penny_run(inp),
        _ => super::probes_fp::run(name, inp)
            .or_else(|| super::probes_pq::run(name, inp))
            .or_else(|| super::probes_sm::run(name, inp))
            .or_else(|| super::probes_trex::run(name, inp))
            .or_else(|| super::probes_stepper::run(name, inp))
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
    catalogue().into_iter().map(|p| p.0).collect()
}

/// Every probe with its inputs, outputs and the paper's equations (`verify --probes`),
/// sorted by name.
pub fn catalogue() -> Vec<(&'static str, &'static str)> {
    let mut all: Vec<(&'static str, &'static str)> = PROBES
        .iter()
        .chain(super::probes_fp::PROBES)
        .chain(super::probes_pq::PROBES)
        .chain(super::probes_sm::PROBES)
        .chain(super::probes_wl::PROBES)
        .chain(super::probes_cb::PROBES)
        .chain(super::probes_trex::PROBES)
        .chain(super::probes_stepper::PROBES)
        .chain(super::probes_induction_steps::PROBES)
        .copied()
        .collect();
    all.sort_by_key(|p| p.0);
    all
}

/// The probe catalogue as text (one probe per entry: its name, then its inputs -> outputs
/// and the paper's equations) or as a JSON document.
pub fn catalogue_report(format: &str) -> String {
    let all = catalogue();
    if format == "json" {
        let probes: Vec<_> = all
            .iter()
            .map(|(n, d)| serde_json::json!({"name": n, "signature": d}))
            .collect();
        return serde_json::json!({
            "schema": "impactkit/1",
            "version": env!("CARGO_PKG_VERSION"),
            "command": "verify --probes",
            "probes": probes,
        })
        .to_string();
    }
    let mut out = format!(
        "{} probes (inputs -> outputs; the paper's equations). Inputs in brackets are optional.\n",
        all.len()
    );
    for (n, d) in all {
        out += &format!("{n}\n    {d}\n");
    }
    out
}

fn usize_in(inp: &Inputs, name: &str, default: &str) -> Result<usize, String> {
    opt(inp, name, default)?
        .to_integer()
        .try_into()
        .map_err(|_| format!("{name} out of range"))
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

/// Runs an exact probe in one quadratic field Q(√d) (the fast path) and, where its
/// values leave every quadratic field (α = π/16), in the algebraic backend.
pub(super) fn quadratic_or_algebraic(
    quadratic: impl FnOnce() -> Result<Env<R>, String>,
    algebraic: impl FnOnce() -> Result<Env<R>, String>,
) -> Result<Env<R>, String> {
    quadratic().or_else(|e| {
        if e.contains("not representable in the quadratic backend") {
            algebraic()
        } else {
            Err(e)
        }
    })
}

/// Pasquero's rule (10) iterated exactly (α like pi/6 in Q(√d), like pi/16 in the
/// algebraic backend).
fn corner_quadratic(inp: &Inputs) -> Result<Env<R>, String> {
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

/// The ideal TA of FP Sect. 6 (ε = 1) for α = aπ and v0 = (cos bπ, sin bπ) (inputs `a`,
/// `b`) on 256-bit MPFR intervals: α, v0, and the number of steps of a run that certifies
/// its exit (an error otherwise). Shared by the probes of FP Result 6.
pub(super) fn result6_run(
    inp: &Inputs,
) -> Result<
    (
        crate::arith::MpInterval,
        V2<crate::arith::MpInterval>,
        usize,
    ),
    String,
> {
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
    Ok((alpha, v0, t.steps))
}

/// FP Result 6: TA steps (eps = 1) versus the count predicted by condition (9), for
/// α = aπ and v0 = (cos bπ, sin bπ), both on 256-bit MPFR intervals (certified signs).
fn corner_result6(inp: &Inputs) -> Result<Env<R>, String> {
    let (alpha, v0, steps) = result6_run(inp)?;
    let p = corner::predicted_iterations_ideal(&alpha, &v0).map_err(err)?;
    Ok(Env::from([
        ("ta_steps".into(), int(steps)),
        ("predicted".into(), int(p)),
    ]))
}
