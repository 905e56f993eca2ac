//! Probes: named entry points into the library's laws, for claims.
//!
//! A probe takes named inputs (input-language strings, e.g. `k = "1/2"`) and returns named
//! exact outputs; a claim states the inputs and the paper's outputs, the engine runs the
//! law and compares. Every probe calls existing law / system code; none restates a
//! formula of a paper.

mod billiard;
mod clark_bloch;
mod fassino_pasquero;
pub mod generic;
mod induction_steps;
pub mod inputs;
mod pasquero;
mod penny_run;
mod propagative;
mod seghete_murphey;
mod sequential;
mod stepper;
mod trex;
mod winandy_leine;

use crate::lang::{self, Env};

pub use inputs::Inputs;
use inputs::R;

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

/// Runs a probe.
pub fn run(name: &str, inp: &Inputs) -> Result<Env<R>, String> {
    // the probes that run in any arithmetic (probes_generic), here on exact rationals
    if let Some(r) = generic::run(name, &inputs::ProbeIn::from_strings(inp)) {
        return r;
    }
    match name {
        "cradle.table1" => pasquero::cradle_table1(),
        "corner.quadratic_run" => pasquero::corner_quadratic(inp),
        "corner.result6" => fassino_pasquero::corner_result6(inp),
        "propagative.thm1" => propagative::theorem1(inp),
        "sequential.pair" => sequential::sequential_pair(inp),
        "sequential.abc" => sequential::sequential_abc(inp),
        "billiard.break" => billiard::billiard_break(inp),
        "penny.run" => penny_run::penny_run(inp),
        _ => fassino_pasquero::run(name, inp)
            .or_else(|| pasquero::run(name, inp))
            .or_else(|| seghete_murphey::run(name, inp))
            .or_else(|| trex::run(name, inp))
            .or_else(|| stepper::run(name, inp))
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
        .chain(fassino_pasquero::PROBES)
        .chain(pasquero::PROBES)
        .chain(seghete_murphey::PROBES)
        .chain(winandy_leine::PROBES)
        .chain(clark_bloch::PROBES)
        .chain(trex::PROBES)
        .chain(stepper::PROBES)
        .chain(induction_steps::PROBES)
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
