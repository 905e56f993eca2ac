//! A [`Model`] compiled to the straight-line programs of [`crate::lang::tape`] that the
//! general stepper runs ([`super::lagrangian`]): M(q), V(q), the gaps φ_j(q) and their
//! gradients, and the midpoint step's equations (Seghete–Murphey Sect. VI, (28)–(29))
//!
//! G(v, λ) = M(q̄)v − (h/2)[½ vᵀ∂_qM(q̄)v − ∇V(q̄) + F(q̄, v, t̄) + Σλ_j∇φ_j(q̄)] − p₀,
//! p₁ = p₀ + h[…],  q̄ = q₀ + (h/2)v,  t̄ = t₀ + h/2,
//!
//! with ∂G/∂(v, λ), every derivative exact (symbolic, in the graph). Two layouts of inputs:
//! the model's expressions are compiled in the coordinates q (slots 0..n), their rates
//! (n..2n) and t (2n); the step's programs take (q₀, p₀, t₀, h, v, λ) from slot 2n + 1
//! on, the model's slots substituted by q̄, v and t̄.

use super::lagrangian::{rate_name, Body, Model, Programs};
use crate::lang::tape::{Graph, Id, Names, Program};
use crate::lang::Expr;
use num_rational::BigRational;
use std::collections::HashMap;

/// The model's expressions as nodes of one graph (the coordinate layout).
struct Nodes {
    /// M(q), n × n (symmetric: (i, j) and (j, i) are one node).
    mass: Vec<Vec<Id>>,
    potential: Id,
    /// ∂_qL(q, q̇) − ∇V + F, with q̇ the rate slots.
    force: Vec<Id>,
    gaps: Vec<Id>,
    /// ∇φ_j, row j.
    normals: Vec<Vec<Id>>,
}

/// The step's inputs (q₀, p₀, t₀, h, v, λ) as nodes, from slot `base` on.
struct StepInputs {
    base: usize,
    q0: Vec<Id>,
    p0: Vec<Id>,
    h: Id,
    /// h/2.
    half_h: Id,
    v: Vec<Id>,
    lam: Vec<Id>,
    /// The model's slots at the midpoint: q ↦ q̄, q̇ ↦ v, t ↦ t̄.
    at_mid: HashMap<usize, Id>,
}

/// The compiled programs of `model`.
pub fn compile(model: &Model) -> Result<Programs, String> {
    let (n, m) = (model.dim(), model.gaps.len());
    let mut g = Graph::new();
    let nodes = model_nodes(model, &mut g)?;
    let at = step_inputs(&mut g, n, m);
    let free = equations(&mut g, &nodes, &at, false);
    let momentum = free.1.clone();
    let free = with_jacobian(&mut g, free, &at, n);
    let both = equations(&mut g, &nodes, &at, true);
    let mut held = with_jacobian(&mut g, both, &at, n + m);
    held.extend(held_rows(&mut g, &nodes, &at));
    let upper: Vec<Id> = (0..n).flat_map(|i| nodes.mass[i][i..].to_vec()).collect();
    let inputs = 3 * n + 2 + m;
    let config = |g: &Graph, out: &[Id]| Program::new(g, out, 0, n);
    Ok(Programs {
        mass: config(&g, &upper),
        potential: config(&g, &[nodes.potential]),
        gaps: nodes.gaps.iter().map(|&e| config(&g, &[e])).collect(),
        normals: nodes.normals.iter().map(|r| config(&g, r)).collect(),
        free: Program::new(&g, &free, at.base, inputs),
        momentum: Program::new(&g, &momentum, at.base, inputs),
        held: Program::new(&g, &held, at.base, inputs),
    })
}

/// The names of the configuration expressions (parameters, `pi`, coordinates) and of the
/// force expressions (those, the rates `<name>_dot` and `t`).
fn names(model: &Model, g: &mut Graph) -> (Names, Names) {
    let n = model.dim();
    let mut config = Names::new();
    for (k, (p, _)) in model.parameters.iter().enumerate() {
        config.insert(p.clone(), g.named(k));
    }
    config.insert("pi".into(), g.named(model.parameters.len()));
    for (i, c) in model.coordinates.iter().enumerate() {
        config.insert(c.clone(), g.input(i));
    }
    let mut forces = config.clone();
    for (i, c) in model.coordinates.iter().enumerate() {
        forces.insert(rate_name(c), g.input(n + i));
    }
    forces.insert("t".into(), g.input(2 * n));
    (config, forces)
}

fn expr(g: &mut Graph, e: &Expr, names: &Names, what: String) -> Result<Id, String> {
    g.compile(e, names).map_err(|err| format!("{what}: {err}"))
}

/// M, V, ∂_qL − ∇V + F, the gaps and their gradients, in the coordinate layout.
#[allow(clippy::needless_range_loop)] // M's symmetric (i, j) indices read best as such
fn model_nodes(model: &Model, g: &mut Graph) -> Result<Nodes, String> {
    let n = model.dim();
    let (config, forces) = names(model, g);
    let mut mass = vec![vec![0; n]; n];
    for i in 0..n {
        for j in i..n {
            let what = format!("mass_matrix row {}, column {}", i + 1, j + 1);
            mass[i][j] = expr(g, &model.mass[i][j], &config, what)?;
            mass[j][i] = mass[i][j];
        }
    }
    let mut potential = match &model.potential {
        Some(e) => expr(g, e, &config, "potential".into())?,
        None => g.int(0),
    };
    let gravity = match &model.gravity {
        Some(e) => Some(expr(g, e, &config, "gravity".into())?),
        None => None,
    };
    for b in &model.bodies {
        add_body(g, b, &config, &mut mass, &mut potential, gravity)?;
    }
    let force: Vec<Id> = match &model.force {
        Some(f) => f
            .iter()
            .enumerate()
            .map(|(i, e)| expr(g, e, &forces, format!("force component {}", i + 1)))
            .collect::<Result<_, _>>()?,
        None => vec![g.int(0); n],
    };
    let gaps: Vec<Id> = model
        .gaps
        .iter()
        .map(|(name, e)| expr(g, e, &config, format!("gap {name}")))
        .collect::<Result<_, _>>()?;
    let normals = gaps
        .iter()
        .map(|&e| (0..n).map(|k| g.diff(e, k)).collect())
        .collect();
    let force = (0..n)
        .map(|i| generalized_force(g, &mass, potential, force[i], i))
        .collect();
    Ok(Nodes {
        mass,
        potential,
        force,
        gaps,
        normals,
    })
}

/// A rigid body's kinetic energy added to M, m J_cᵀJ_c + I ∇θ∇θᵀ (J_c = ∂c/∂q), and
/// under gravity m g c_last added to V.
fn add_body(
    g: &mut Graph,
    b: &Body,
    config: &Names,
    mass: &mut [Vec<Id>],
    potential: &mut Id,
    gravity: Option<Id>,
) -> Result<(), String> {
    let n = mass.len();
    let what = |x: &str| format!("body {} {x}", b.name);
    let mb = expr(g, &b.mass, config, what("mass"))?;
    let c: Vec<Id> = b
        .position
        .iter()
        .map(|e| expr(g, e, config, what("position")))
        .collect::<Result<_, _>>()?;
    // rows of weighted Jacobians: (m, ∂c_k/∂q) per component, (I, ∇θ)
    let mut rows: Vec<(Id, Vec<Id>)> = c
        .iter()
        .map(|&ck| (mb, (0..n).map(|i| g.diff(ck, i)).collect()))
        .collect();
    if let Some((th, inertia)) = &b.rotation {
        let th = expr(g, th, config, what("angle"))?;
        let ib = expr(g, inertia, config, what("inertia"))?;
        rows.push((ib, (0..n).map(|i| g.diff(th, i)).collect()));
    }
    for i in 0..n {
        for j in i..n {
            let terms: Vec<Id> = rows
                .iter()
                .map(|(w, r)| {
                    let x = g.mul(r[i], r[j]);
                    g.mul(*w, x)
                })
                .collect();
            let t = g.sum(terms);
            mass[i][j] = g.add(mass[i][j], t);
            mass[j][i] = mass[i][j];
        }
    }
    if let (Some(gr), Some(&height)) = (gravity, c.last()) {
        let w = g.mul(mb, height);
        let v = g.mul(gr, w);
        *potential = g.add(*potential, v);
    }
    Ok(())
}

/// Component i of ∂_qL(q, q̇) − ∇V + F = ½ Σ_ab ∂_iM_ab q̇_a q̇_b − ∂_iV + F_i.
#[allow(clippy::needless_range_loop)] // M's symmetric (a, b) indices read best as such
fn generalized_force(g: &mut Graph, mass: &[Vec<Id>], potential: Id, f: Id, i: usize) -> Id {
    let n = mass.len();
    let mut terms = Vec::new();
    for a in 0..n {
        for b in a..n {
            let dm = g.diff(mass[a][b], i);
            let (qa, qb) = (g.input(n + a), g.input(n + b));
            let w = g.mul(qa, qb);
            // ½ on the diagonal, twice ½ off it
            let c = g.rat(BigRational::new(
                if a == b { 1 } else { 2 }.into(),
                2.into(),
            ));
            let t = g.mul(dm, w);
            terms.push(g.mul(c, t));
        }
    }
    let dv = g.diff(potential, i);
    let kin = g.sum(terms);
    let x = g.sub(kin, dv);
    g.add(x, f)
}

fn step_inputs(g: &mut Graph, n: usize, m: usize) -> StepInputs {
    let base = 2 * n + 1;
    let q0: Vec<Id> = (0..n).map(|i| g.input(base + i)).collect();
    let p0: Vec<Id> = (0..n).map(|i| g.input(base + n + i)).collect();
    let (t0, h) = (g.input(base + 2 * n), g.input(base + 2 * n + 1));
    let v: Vec<Id> = (0..n).map(|i| g.input(base + 2 * n + 2 + i)).collect();
    let lam: Vec<Id> = (0..m).map(|j| g.input(base + 3 * n + 2 + j)).collect();
    let half = g.rat(BigRational::new(1.into(), 2.into()));
    let half_h = g.mul(half, h);
    let mut at_mid = HashMap::new();
    for i in 0..n {
        let d = g.mul(half_h, v[i]);
        at_mid.insert(i, g.add(q0[i], d));
        at_mid.insert(n + i, v[i]);
    }
    let tbar = g.add(t0, half_h);
    at_mid.insert(2 * n, tbar);
    StepInputs {
        base,
        q0,
        p0,
        h,
        half_h,
        v,
        lam,
        at_mid,
    }
}

/// (G, p₁), with the held gaps' force Σλ_j∇φ_j(q̄) or without.
fn equations(
    g: &mut Graph,
    nodes: &Nodes,
    at: &StepInputs,
    with_lambda: bool,
) -> (Vec<Id>, Vec<Id>) {
    let n = at.q0.len();
    let (mut gs, mut p1) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for i in 0..n {
        let mut push = g.subst(nodes.force[i], &at.at_mid);
        for (j, row) in nodes.normals.iter().enumerate().filter(|_| with_lambda) {
            let u = g.subst(row[i], &at.at_mid);
            let t = g.mul(at.lam[j], u);
            push = g.add(push, t);
        }
        let push = g.mul(at.half_h, push);
        let row: Vec<Id> = (0..n)
            .map(|j| {
                let mij = g.subst(nodes.mass[i][j], &at.at_mid);
                g.mul(mij, at.v[j])
            })
            .collect();
        let mv = g.sum(row);
        let x = g.sub(mv, push);
        gs.push(g.sub(x, at.p0[i]));
        let y = g.add(at.p0[i], push);
        p1.push(g.add(y, push));
    }
    (gs, p1)
}

/// G, p₁ and ∂G/∂(v, λ) row by row (the first `cols` unknowns).
fn with_jacobian(
    g: &mut Graph,
    (gs, p1): (Vec<Id>, Vec<Id>),
    at: &StepInputs,
    cols: usize,
) -> Vec<Id> {
    // the unknowns v, λ follow q₀, p₀, t₀, h
    let first = at.base + 2 * at.q0.len() + 2;
    let mut outputs = gs.clone();
    outputs.extend(&p1);
    for &gi in &gs {
        for k in 0..cols {
            outputs.push(g.diff(gi, first + k));
        }
    }
    outputs
}

/// φ_j(q₁) and ∇φ_j(q₁), q₁ = q₀ + hv: the rows of the held gaps.
fn held_rows(g: &mut Graph, nodes: &Nodes, at: &StepInputs) -> Vec<Id> {
    let mut at_end = HashMap::new();
    for (i, (&q, &v)) in at.q0.iter().zip(&at.v).enumerate() {
        let d = g.mul(at.h, v);
        at_end.insert(i, g.add(q, d));
    }
    let mut rows: Vec<Id> = nodes.gaps.iter().map(|&e| g.subst(e, &at_end)).collect();
    for row in &nodes.normals {
        for &u in row {
            rows.push(g.subst(u, &at_end));
        }
    }
    rows
}
