//! Probes into the time stepper of Seghete–Murphey Sect. VI (`law::variational`,
//! `system::stepper`) and the impact set S of Sect. III. Same contract as
//! [`crate::claims::probes`]: every probe calls the law / system code; none restates a formula of
//! the paper (the one printed formula a probe evaluates, the midpoint L_d, is the
//! law's own [`Lagrangian::discrete`]).

use super::inputs::ProbeIn;
use super::inputs::{err, get, int, word, Inputs};
use crate::arith::{Quadratic, Rational, Scalar, Sign};
use crate::lang::Env;
use crate::law::propagative::{minimal_sequences, Contacts};
use crate::law::variational::{Lagrangian, Spring};
use crate::linalg::{add, SymMatrix, Vector};
use crate::system::step_file::{conservation, StepFile};
use crate::system::stepper::{Order, Resolution, StepLaw, StepSystem};
use num_rational::BigRational;

type R = Rational;

/// The probes of this file (exact), with their inputs and outputs.
pub const PROBES: &[(&str, &str)] = &[
    (
        "variational.ld",
        "m f q0 q1 h -> ld action err (the exact action along the motion under the constant force f through q0, q1, by Simpson's rule, minus the midpoint L_d); SM Sect. VI",
    ),
    (
        "variational.del",
        "m f [k b] q0 p0 h -> q1 p1 q2 p2 del (D2Ld(q0,q1) + D1Ld(q1,q2)) fminus (printed F-(t1,t2) = D1Ld) fplus (F+(t0,t1) = D2Ld) energy0 energy2; SM (28)-(29)",
    ),
    (
        "step.run",
        "system = examples/step file name, dt, steps, law = elastic|plastic|inelastic, [eps], [order = argmin|argmax] -> impacts zeno resid30 t1_sq energy_nodes energy_flow energy_impacts ineq16 momentum final_q{i} final_p{i} (1 = kept exactly); SM Sect. VI (28)-(30)",
    ),
    (
        "propagative.impact_set",
        "m1..mn u1_i.. p1..pn -> s_count s_{k} (1: normal k is in S) seq_count out_i feasible_all (1: the outcome over S is feasible for every closed contact); SM Sect. III, the set S",
    ),
];

/// Runs an exact probe of this file; `None` if the name is not one of [`PROBES`].
pub fn run(name: &str, inp: &Inputs) -> Option<Result<Env<R>, String>> {
    match name {
        "step.run" => Some(step_run(inp)),
        "propagative.impact_set" => Some(impact_set(inp)),
        _ => None,
    }
}

/// Runs a generic probe of this file; `None` for another name.
pub fn run_generic<S: Scalar>(name: &str, inp: &ProbeIn<S>) -> Option<Result<Env<S>, String>> {
    match name {
        "variational.ld" => Some(ld(inp)),
        "variational.del" => Some(del(inp)),
        _ => None,
    }
}

/// The one-coordinate Lagrangian ½ m q̇² + f q − ½ k (q + b)².
fn lagrangian<S: Scalar>(inp: &ProbeIn<S>) -> Result<Lagrangian<S>, String> {
    let k = inp.opt("k", 0);
    let springs = if k.sign() == Sign::Zero {
        vec![]
    } else {
        vec![Spring {
            stiffness: k,
            a: vec![inp.opt("m", 1).one_like()],
            b: inp.opt("b", 0),
        }]
    };
    Ok(Lagrangian {
        mass: SymMatrix::diagonal(&[inp.num("m")?]),
        force: vec![inp.num("f")?],
        springs,
    })
}

/// `variational.ld`: the midpoint L_d against the exact action of the motion under the
/// constant force through q0 (t = 0) and q1 (t = h). That motion is the law's
/// [`Lagrangian::position`] from q0 with the momentum p0 = −D₁L_d(q0, q1) (exact for a
/// constant force); L along it is quadratic in t, so Simpson's rule is its exact integral.
fn ld<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let l = lagrangian(inp)?;
    let (q0, q1, h) = (vec![inp.num("q0")?], vec![inp.num("q1")?], inp.num("h")?);
    let ld = l.discrete(&q0, &q1, &h).map_err(err)?;
    let p0: Vector<S> = l
        .d1(&q0, &q1, &h)
        .map_err(err)?
        .into_iter()
        .map(|x| -x)
        .collect();
    let lag_at = |t: &S| -> Result<S, String> {
        // q(t) and q̇(t) = M⁻¹ p(t), p(t) = p0 + t f (constant force).
        let q = if t.sign() == Sign::Zero {
            q0.clone()
        } else {
            l.position(&q0, &p0, t).map_err(err)?
        };
        let p = add(&p0, &crate::linalg::scale(t, &l.force));
        let v = l.mass.solve(&p).map_err(err)?;
        Ok(l.lagrangian(&q, &v))
    };
    let half = h.mul_r(&h.lift(&BigRational::new(1.into(), 2.into())));
    let simpson = lag_at(&h.zero_like())?
        .add_r(&lag_at(&half)?.mul_r(&h.lift_i64(4)))
        .add_r(&lag_at(&h)?);
    let action = h.mul_r(&simpson).checked_div(&h.lift_i64(6)).map_err(err)?;
    let mut out = Env::new();
    out.insert("err".into(), action.sub_r(&ld));
    out.insert("ld".into(), ld);
    out.insert("action".into(), action);
    Ok(out)
}

/// `variational.del`: two steps of the integrator from (q0, p0), and the DEL residual.
fn del<S: Scalar>(inp: &ProbeIn<S>) -> Result<Env<S>, String> {
    let l = lagrangian(inp)?;
    let (q0, p0, h) = (vec![inp.num("q0")?], vec![inp.num("p0")?], inp.num("h")?);
    let (q1, p1) = l.step(&q0, &p0, &h).map_err(err)?;
    let (q2, p2) = l.step(&q1, &p1, &h).map_err(err)?;
    let fplus = l.d2(&q0, &q1, &h).map_err(err)?;
    let fminus = l.d1(&q1, &q2, &h).map_err(err)?;
    let mut out = Env::new();
    out.insert("del".into(), fplus[0].add_r(&fminus[0]));
    out.insert("fplus".into(), fplus[0].clone());
    out.insert("fminus".into(), fminus[0].clone());
    out.insert("energy0".into(), l.energy(&q0, &p0).map_err(err)?);
    out.insert("energy2".into(), l.energy(&q2, &p2).map_err(err)?);
    out.insert("q1".into(), q1[0].clone());
    out.insert("p1".into(), p1[0].clone());
    out.insert("q2".into(), q2[0].clone());
    out.insert("p2".into(), p2[0].clone());
    Ok(out)
}

/// A rational output of an exact run in Q(√d), or an error naming it.
fn rational(x: &Quadratic, what: &str) -> Result<R, String> {
    x.as_rational()
        .map(|q| Rational::from_rug(q.clone()))
        .ok_or_else(|| format!("{what} = {x} is not rational"))
}

/// `step.run`: a system of `examples/step` run exactly in Q(√d) (`quadratic`).
fn step_run(inp: &Inputs) -> Result<Env<R>, String> {
    let name = word(inp, "system")?;
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(format!("system `{name}`: a file name of examples/step"));
    }
    let path = format!("{}/examples/step/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text =
        crate::input::files::read_text(std::path::Path::new(&path), crate::input::files::SYSTEM)?;
    let sys: StepSystem<Quadratic> = StepFile::from_toml(&text, &path)
        .map_err(err)?
        .build(&path, &())
        .map_err(err)?;
    let q = |s: &str| -> Result<Quadratic, String> {
        crate::input::value::<Quadratic>(s, s, &()).map_err(err)
    };
    let h = q(word(inp, "dt")?)?;
    let steps = get(inp, "steps")?
        .to_integer()
        .to_string()
        .parse::<usize>()
        .map_err(err)?;
    let law = match word(inp, "law")? {
        "elastic" => StepLaw::Elastic,
        "plastic" => StepLaw::Plastic,
        "inelastic" => StepLaw::Inelastic(q(word(inp, "eps")?)?),
        other => return Err(format!("law `{other}`")),
    };
    let order = match inp.get("order").map(String::as_str) {
        Some("argmax") => Order::Argmax,
        _ => Order::Argmin,
    };
    let run = sys.run(&h, steps, &law, order);
    if let Some(s) = &run.stopped {
        return Err(format!("the run stopped: {s}"));
    }
    let mut out = Env::new();
    let flag = |b: bool| int(usize::from(b));
    out.insert("impacts".into(), int(run.impacts.len()));
    out.insert(
        "zeno".into(),
        int(run
            .impacts
            .iter()
            .filter(|i| i.resolution == Resolution::ZenoPlastic)
            .count()),
    );
    if let Some(i) = run.impacts.first() {
        out.insert("t1_sq".into(), rational(&i.time.square(), "t*²")?);
    }
    // (30) at every impact: p*⁺ + D₁L_d(q*, q_{k+1}) over t_{k+1} − t* vanishes (for the
    // last impact of each step; earlier ones are followed by another impact).
    let mut resid = true;
    for (j, i) in run.impacts.iter().enumerate() {
        let next_in_step = run.impacts.get(j + 1).is_some_and(|n| n.step == i.step);
        if next_in_step {
            continue;
        }
        let node = &run.nodes[i.step + 1];
        let rest = node.t.sub_r(&i.time);
        if rest.sign() == Sign::Zero {
            continue;
        }
        let d1 = sys.lagrangian.d1(&i.q, &node.q, &rest).map_err(err)?;
        let r = add(&i.after, &d1);
        resid &= r.iter().all(|x| x.sign() == Sign::Zero);
    }
    out.insert("resid30".into(), flag(resid));
    let rows = conservation(&sys, &law, &run);
    let exactly = |prefix: &str| {
        rows.iter()
            .find(|r| r.quantity.starts_with(prefix))
            .map(|r| r.kept == crate::report::step::Kept::Exactly)
    };
    for (key, prefix) in [
        ("energy_nodes", "energy at every node"),
        ("energy_flow", "energy along the flow"),
        ("energy_impacts", "energy across elastic"),
        ("ineq16", "energy lost at inelastic"),
        ("momentum", "momentum"),
    ] {
        if let Some(b) = exactly(prefix) {
            out.insert(key.into(), flag(b));
        }
    }
    if let Some(n) = run.nodes.last() {
        for (i, x) in n.q.iter().enumerate() {
            if let Ok(v) = rational(x, "q") {
                out.insert(format!("final_q{}", i + 1), v);
            }
        }
        for (i, x) in n.p.iter().enumerate() {
            if let Ok(v) = rational(x, "p") {
                out.insert(format!("final_p{}", i + 1), v);
            }
        }
        if let Ok(e) = rational(&n.energy, "E") {
            out.insert("final_energy".into(), e);
        }
    }
    Ok(out)
}

/// `propagative.impact_set`: the set S of Sect. III — the closed contacts with
/// ⟨p⁻, u⟩_g < 0 — its minimal sequences (Definition 1 over S), and whether their outcome
/// is feasible for every closed contact (all the normals given).
fn impact_set(inp: &Inputs) -> Result<Env<R>, String> {
    let (m, normals, p) = crate::claims::probes::seghete_murphey::system(inp)?;
    let p = p.ok_or("probe input `p1` missing")?;
    let mass = SymMatrix::diagonal(&m);
    let all = Contacts::new(mass.clone(), normals.clone()).map_err(err)?;
    let s: Vec<usize> = (0..normals.len())
        .filter(|&i| all.rate(&p, i).sign() == Sign::Negative)
        .collect();
    let mut out = Env::new();
    out.insert("s_count".into(), int(s.len()));
    for i in 0..normals.len() {
        out.insert(format!("s_{}", i + 1), int(usize::from(s.contains(&i))));
    }
    if s.is_empty() {
        return Ok(out);
    }
    let over_s =
        Contacts::new(mass, s.iter().map(|&i| normals[i].clone()).collect()).map_err(err)?;
    let seqs = minimal_sequences(&over_s, &p, 12).map_err(err)?;
    out.insert("seq_count".into(), int(seqs.len()));
    if let Some((_, o)) = seqs.first() {
        for (i, x) in o.iter().enumerate() {
            out.insert(format!("out_{}", i + 1), x.clone());
        }
        let feasible = (0..normals.len()).all(|i| all.rate(o, i).sign() != Sign::Negative);
        out.insert("feasible_all".into(), int(usize::from(feasible)));
    }
    Ok(out)
}
