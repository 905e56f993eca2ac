//! Further probes for the claims of issue 13 (one file per paper, so that they are added
//! independently). Same contract as [`crate::claims::probes`]: every probe calls existing law /
//! system code; none restates a formula of a paper.
//!
//! These are the Fassino–Pasquero (2020) probes: the zones as eq. (1) and as (6a–6d)
//! assign them, a chain of rule applications in stated zones, a recorded TA / SA run, the
//! count of condition (9) (Result 6), the zones TA and SA assign (Table 1), and the π/4
//! example of Sect. 6 in IEEE binary64 and in Q(√2).

use super::inputs::{err, get, int, r, Inputs};
use crate::arith::{Quadratic, Rational, Scalar};
use crate::lang::{self, Env};
use crate::law::corner::{self, Zone};
use crate::law::V2;
use crate::system::corner::{CornerRun, Form, Restitution};
use crate::system::corner_spec::{Algorithm, CornerSpec, RestitutionSpec};
use num_rational::BigRational;

type R = Rational;

/// The probes of this file, with their inputs and outputs (for error messages and docs).
pub const PROBES: &[(&str, &str)] = &[
    (
        "corner.zones",
        "k x y -> zone (eq. (1)) phi_count phi_zone in6a in6b in6c in6d (conditions (6a-6d)); FP Sect. 1, 2.2",
    ),
    (
        "corner.compose",
        "k [eps] x y zones (digits, 3 = Z12: \"1212\" is Z1 Z2 Z1 Z2) -> x0 y0 xi0 eta0 .. x_n y_n xi_n eta_n; TR_id (3) (no eps) or TR_nid (13) applied in the stated zones",
    ),
    (
        "corner.trace",
        "k eps x y [S] [Sv] [max_steps] -> steps exit rest multiple xf yf n2f x_i y_i zone_i (i <= 12); FP Sect. 6 (TA / SA)",
    ),
    (
        "corner.result6_chi",
        "a b -> ta_steps j chi zone0; alpha = a*pi, v0 = (cos b*pi, sin b*pi); j = first iterate in Z0 by condition (9) (law), chi = its subsequence index; FP Result 6",
    ),
    (
        "corner.zone_ta_sa",
        "xi eta S -> ta_zone sa_zone; the zone tests of TA (S = 0) and SA; FP Sect. 6, Table 1",
    ),
    (
        "corner.f64_ta",
        "alpha eps x0 y0 S -> k x1 y1 xi1 eta1 zone0 zone1 ta_steps sa_steps (binary64 values as exact rationals); FP Sect. 6, Example",
    ),
    (
        "corner.quadratic_trace",
        "alpha eps x0 y0 -> steps zone_i x_i_a x_i_b y_i_a y_i_b d (v_i = a + b sqrt d, exact in Q(sqrt d)); FP Sect. 6, Example",
    ),
    (
        "corner.rho",
        "k eps -> rho rho_lo rho_hi (rho(H1) = rho(H2) exactly where the root is rational or symbolic, else a 256-bit enclosure rho_lo, rho_hi); FP Thm 5.3, Remark 9",
    ),
    (
        "corner.figures",
        "[S] [Sv] -> {a1,a2,b1,b2,c1,c2}_e{1..5}_{exit,rest,steps,n2lo,n2hi}; SA of Sect. 6 on 256-bit MPFR intervals for the six inputs of Sect. 8 and eps = 1, 0.75, 0.5, 0.25, 0.05",
    ),
];

/// Runs a probe of this file; `None` if the name is not one of [`PROBES`].
pub fn run(name: &str, inp: &Inputs) -> Option<Result<Env<R>, String>> {
    Some(match name {
        "corner.trace" => trace(inp),
        "corner.result6_chi" => result6_chi(inp),
        "corner.f64_ta" => f64_ta(inp),
        "corner.quadratic_trace" => quadratic_trace(inp),
        "corner.rho" => rho(inp),
        "corner.figures" => figures(inp),
        _ => return None,
    })
}

fn code(z: Zone) -> R {
    int(match z {
        Zone::Z0 => 0,
        Zone::Z1 => 1,
        Zone::Z2 => 2,
        Zone::Z12 => 12,
    })
}

fn opt(inp: &Inputs, name: &str, default: &str) -> Result<BigRational, String> {
    match inp.get(name) {
        Some(_) => get(inp, name),
        None => lang::rational(default).map_err(|e| e.to_string()),
    }
}

fn count(inp: &Inputs, name: &str, default: &str) -> Result<usize, String> {
    opt(inp, name, default)?
        .to_integer()
        .try_into()
        .map_err(|_| format!("{name} out of range"))
}

fn text<'a>(inp: &'a Inputs, name: &str) -> Result<&'a str, String> {
    inp.get(name)
        .map(String::as_str)
        .ok_or_else(|| format!("probe input `{name}` missing"))
}

/// TA (S = S_v = 0) or SA of Sect. 6, exact, recording the velocities (system code).
fn trace(inp: &Inputs) -> Result<Env<R>, String> {
    let k = r(get(inp, "k")?);
    let run = CornerRun {
        k: k.clone(),
        restitution: Restitution::Symmetric(r(get(inp, "eps")?)),
        threshold: r(opt(inp, "S", "0")?),
        rest_threshold: r(opt(inp, "Sv", "0")?),
        max_steps: count(inp, "max_steps", "1000")?,
        form: Form::Xy,
        max_digits: None,
        record_velocities: true,
    };
    let t = run
        .run(V2::new(r(get(inp, "x")?), r(get(inp, "y")?)))
        .map_err(err)?;
    // a run cut by the step limit has no outcome: the limit is the tool's, not the law's
    if t.termination.name() == "max-steps" {
        return Err(format!(
            "the run reached its step limit ({} steps): no outcome",
            t.steps
        ));
    }
    let f = t.final_velocity();
    let mut out = Env::from([
        ("steps".into(), int(t.steps)),
        (
            "exit".into(),
            int(usize::from(t.termination.name() == "exit")),
        ),
        (
            "rest".into(),
            int(usize::from(t.termination.name() == "rest")),
        ),
        (
            "multiple".into(),
            int(t.zones.iter().filter(|z| **z == Zone::Z12).count()),
        ),
        ("xf".into(), f.x.clone()),
        ("yf".into(), f.y.clone()),
        ("n2f".into(), f.x.square() + &f.y.square()),
    ]);
    for (i, v) in t.velocities.iter().enumerate().take(13) {
        out.insert(format!("x_{i}"), v.x.clone());
        out.insert(format!("y_{i}"), v.y.clone());
    }
    for (i, z) in t.zones.iter().enumerate().take(13) {
        out.insert(format!("zone_{i}"), code(*z));
    }
    Ok(out)
}

/// Result 6: the steps of TA (ε = 1) and the count of condition (9) as the law computes
/// it ([`corner::predicted_iterations_ideal`]: j, the first iterate in Z0, angles reduced
/// to (−π, π]), on 256-bit MPFR intervals with certified signs; `chi` is the index of (9)
/// itself: the iterate 2χ or 2χ + 1 is the first in Z0, so χ = ⌊j/2⌋ (v0 ∈ Z1, Z2), and
/// from φ1, increased by 1, for v0 ∈ Z12.
fn result6_chi(inp: &Inputs) -> Result<Env<R>, String> {
    let (alpha, v0, steps) = result6_run(inp)?;
    let k = alpha.tan().map_err(err)?;
    let zone = corner::zone_xy(&k, &v0, &k.zero_like()).map_err(err)?;
    let j = corner::predicted_iterations_ideal(&alpha, &v0).map_err(err)?;
    let chi = match zone {
        Zone::Z0 => 0,
        Zone::Z12 => (j - 1) / 2 + 1,
        _ => j / 2,
    };
    Ok(Env::from([
        ("ta_steps".into(), int(steps)),
        ("j".into(), int(j)),
        ("chi".into(), int(chi)),
        ("zone0".into(), code(zone)),
    ]))
}

fn spec(inp: &Inputs, algorithm: Algorithm) -> Result<CornerSpec, String> {
    Ok(CornerSpec {
        alpha: text(inp, "alpha")?.to_string(),
        v0: format!("{},{}", text(inp, "x0")?, text(inp, "y0")?),
        restitution: RestitutionSpec::Symmetric(text(inp, "eps")?.to_string()),
        algorithm,
        threshold: match algorithm {
            Algorithm::Sa => Some(text(inp, "S")?.to_string()),
            Algorithm::Ta => None,
        },
        rest_threshold: None,
        max_steps: 1000,
        form: Form::Xy,
        record_velocities: true,
        max_digits: None,
    })
}

fn exact_f64(x: f64) -> Result<R, String> {
    BigRational::from_float(x)
        .map(r)
        .ok_or_else(|| "non-finite binary64 value".to_string())
}

/// The example of Sect. 6 in IEEE binary64 (system code, [`CornerSpec::run`]): k, v1 of
/// TA and its (ξ̇, η̇), as the exact rationals the binary64 values are; the zones of v0
/// and v1 and the steps of TA and SA.
fn f64_ta(inp: &Inputs) -> Result<Env<R>, String> {
    let ta = spec(inp, Algorithm::Ta)?.run::<f64>(&()).map_err(err)?;
    let sa = spec(inp, Algorithm::Sa)?.run::<f64>(&()).map_err(err)?;
    let (run, _) = spec(inp, Algorithm::Ta)?.build::<f64>(&()).map_err(err)?;
    let v1 = ta
        .velocities
        .get(1)
        .ok_or("TA made no step: v1 is not defined")?;
    let w = corner::xi_eta(&run.k, v1);
    let mut out = Env::from([
        ("k".into(), exact_f64(run.k)?),
        ("x1".into(), exact_f64(v1.x)?),
        ("y1".into(), exact_f64(v1.y)?),
        ("xi1".into(), exact_f64(w.x)?),
        ("eta1".into(), exact_f64(w.y)?),
        ("ta_steps".into(), int(ta.steps)),
        ("sa_steps".into(), int(sa.steps)),
    ]);
    for (i, z) in ta.zones.iter().enumerate().take(2) {
        out.insert(format!("zone{i}"), code(*z));
    }
    Ok(out)
}

/// The same run exactly in Q(√d) (system code): v_i = (a + b√d) componentwise.
fn quadratic_trace(inp: &Inputs) -> Result<Env<R>, String> {
    let t = spec(inp, Algorithm::Ta)?
        .run::<Quadratic>(&())
        .map_err(err)?;
    let mut out = Env::from([("steps".into(), int(t.steps))]);
    let mut d = None;
    for (i, v) in t.velocities.iter().enumerate().take(6) {
        for (name, c) in [("x", &v.x), ("y", &v.y)] {
            out.insert(format!("{name}{i}_a"), r(crate::arith::rug_to_rat(c.a())));
            out.insert(format!("{name}{i}_b"), r(crate::arith::rug_to_rat(c.b())));
            if let Some(n) = c.d() {
                d = Some(n.clone());
            }
        }
    }
    for (i, z) in t.zones.iter().enumerate().take(6) {
        out.insert(format!("zone{i}"), code(*z));
    }
    if let Some(n) = d {
        let q = lang::rational(&n.to_string()).map_err(|e| e.to_string())?;
        out.insert("d".into(), r(q));
    }
    Ok(out)
}

/// The spectral radius ρ(H₁) of the law ([`corner::h_matrices`],
/// [`corner::spectral_radius`]) on 256-bit MPFR intervals: the endpoints of its
/// enclosure, exactly.
fn rho(inp: &Inputs) -> Result<Env<R>, String> {
    use crate::arith::{float_to_rat, MpInterval};
    let k = MpInterval::from_rational_prec(&get(inp, "k")?, 256);
    let eps = MpInterval::from_rational_prec(&get(inp, "eps")?, 256);
    let (h1, _) = corner::h_matrices(&k, &eps).map_err(err)?;
    let rho = corner::spectral_radius(&h1).map_err(err)?;
    let end = |x: &rug::Float| float_to_rat(x).map(r).ok_or("non-finite enclosure");
    Ok(Env::from([
        ("rho_lo".into(), end(rho.lo())?),
        ("rho_hi".into(), end(rho.hi())?),
    ]))
}

/// The runs behind the figures of Sect. 8: SA (thresholds S, S_v; defaults the paper's
/// S = 4.5e-16 and S_v = 1e-6, which the paper does not state) of the law on 256-bit MPFR
/// intervals, for α = π/6 (a), π/16 (b), π/32 (c), tan φ0 = k/2 (1) or k (2), |v0| = 1, and
/// ε = 1, 0.75, 0.5, 0.25, 0.05 (e1..e5): how each run ends and the endpoints of the
/// enclosure of the final |v|².
fn figures(inp: &Inputs) -> Result<Env<R>, String> {
    use crate::arith::{float_to_rat, MpInterval};
    let s = opt(inp, "S", "4.5e-16")?;
    let sv = opt(inp, "Sv", "1e-6")?;
    let ev = |e: &str| crate::lang::eval_str::<MpInterval>(e, &256).map_err(err);
    let end = |x: &rug::Float| float_to_rat(x).map(r).ok_or("non-finite enclosure");
    let mut out = Env::new();
    for (case, alpha) in [("a", "pi/6"), ("b", "pi/16"), ("c", "pi/32")] {
        for (m, ratio) in [("1", "1/2"), ("2", "1")] {
            let k = ev(&format!("tan({alpha})"))?;
            // v0 = (cos φ0, sin φ0) with tan φ0 = ratio·k, cos φ0 > 0
            let t = ev(&format!("{ratio}*tan({alpha})"))?;
            let c = ev("1")?.checked_div(&(ev("1")? + &t.square()).sqrt().map_err(err)?);
            let c = c.map_err(err)?;
            let v0 = V2::new(c.clone(), t.mul_r(&c));
            for (i, e) in ["1", "3/4", "1/2", "1/4", "1/20"].iter().enumerate() {
                let run = CornerRun {
                    k: k.clone(),
                    restitution: Restitution::Symmetric(ev(e)?),
                    threshold: MpInterval::from_rational_prec(&s, 256),
                    rest_threshold: MpInterval::from_rational_prec(&sv, 256),
                    max_steps: 100_000,
                    form: Form::Xy,
                    max_digits: None,
                    record_velocities: false,
                };
                let tr = run.run(v0.clone()).map_err(err)?;
                let f = tr.final_velocity();
                let n2 = f.x.square() + &f.y.square();
                let name = format!("{case}{m}_e{}", i + 1);
                let ends = tr.termination.name();
                out.insert(format!("{name}_exit"), int(usize::from(ends == "exit")));
                out.insert(format!("{name}_rest"), int(usize::from(ends == "rest")));
                out.insert(format!("{name}_steps"), int(tr.steps));
                out.insert(format!("{name}_n2lo"), end(n2.lo())?);
                out.insert(format!("{name}_n2hi"), end(n2.hi())?);
            }
        }
    }
    Ok(out)
}

/// The ideal TA of FP Sect. 6 (ε = 1) for α = aπ and v0 = (cos bπ, sin bπ) (inputs `a`,
/// `b`) on 256-bit MPFR intervals: α, v0, and the number of steps of a run that certifies
/// its exit (an error otherwise). Shared by the probes of FP Result 6.
pub(crate) fn result6_run(
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
pub(crate) fn corner_result6(inp: &Inputs) -> Result<Env<R>, String> {
    let (alpha, v0, steps) = result6_run(inp)?;
    let p = corner::predicted_iterations_ideal(&alpha, &v0).map_err(err)?;
    Ok(Env::from([
        ("ta_steps".into(), int(steps)),
        ("predicted".into(), int(p)),
    ]))
}
