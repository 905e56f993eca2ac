//! `step` on a system file with a `[lagrangian]` table: a general Lagrangian system
//! ([`super::lagrangian`]) run by [`super::general_stepper`].
//!
//! ```toml
//! name = "double pendulum striking a wall"
//! coordinates = ["a", "b"]            # required: the expressions name them
//! q = ["0", "0"]
//! velocity = ["1", "0"]               # q̇ at t = 0 (p = M(q) q̇), or p = [...]
//!
//! [lagrangian]
//! parameters = ["m = 1", "l = 1", "g = 981/100"]
//! mass_matrix = [["2*m*l^2", "m*l^2*cos(a - b)"],
//!                ["m*l^2*cos(a - b)", "m*l^2"]]     # or masses = [...] (diagonal)
//! potential = "-m*g*l*(2*cos(a) + cos(b))"
//! force = ["-c*a_dot", "0"]           # optional: F(q, q̇, t), rates <name>_dot, time t
//!
//! [[lagrangian.contact]]
//! name = "wall"
//! gap = "3/2 - l*sin(a) - l*sin(b)"   # φ(q) ≥ 0; its normal is ∇φ(q)
//! ```
//!
//! Instead of (or beside) `mass_matrix`, rigid bodies: M(q) gains m J_cᵀJ_c + I ∇θ∇θᵀ
//! for each, and `gravity = "g"` adds Σ m g c_last to V.
//!
//! ```toml
//! [lagrangian]
//! gravity = "981/100"
//!
//! [[lagrangian.body]]
//! name = "link"
//! mass = "m"
//! position = ["l/2*sin(a)", "-l/2*cos(a)"]   # centre of mass; the last is the height
//! angle = "a"                                 # with inertia, or neither (a point mass)
//! inertia = "m*l^2/12"
//! ```

use super::file::{LagrangianSpec, Number};
use super::general_stepper::GeneralRun;
use super::lagrangian::{rate_name, Body, Levels, Model, Scope};
use super::step_file::{
    indeterminacy_report, kept, run_report, StepSpec, MAX_COORDINATES, MAX_TERMS,
};
use super::SpecError;
use crate::arith::{Kind, Scalar, Sign};
use crate::input::{value, InputError};
use crate::lang::parse_with_variables;
use crate::law::decide;
use crate::report::step::{ConservationRow, StepReport};

/// The model of a `[lagrangian]` table for the coordinates `names`; errors name `source`
/// and the key.
pub fn model(spec: &LagrangianSpec, names: &[String], source: &str) -> Result<Model, InputError> {
    let err = |key: &str, reason: String| InputError::new(format!("{source}: {key}"), reason);
    let n = names.len();
    if n == 0 || n > MAX_COORDINATES {
        return Err(err(
            "coordinates",
            format!("{n} names; a system has 1..={MAX_COORDINATES} coordinates"),
        ));
    }
    let identifier = |v: &str| {
        parse_with_variables(v)
            .ok()
            .and_then(|e| e.as_var().map(|x| x == v))
            .unwrap_or(false)
    };
    let mut taken: Vec<String> = vec!["t".into()];
    for c in names {
        if !identifier(c) {
            return Err(err(
                "coordinates",
                format!("`{c}` is not a name of the input language"),
            ));
        }
        if taken.contains(c) || taken.contains(&rate_name(c)) {
            return Err(err("coordinates", format!("`{c}` is used twice (or is t)")));
        }
        taken.extend([c.clone(), rate_name(c)]);
    }
    let mut m = Model {
        coordinates: names.to_vec(),
        parameters: Vec::new(),
        mass: Vec::new(),
        potential: None,
        force: None,
        gaps: Vec::new(),
        bodies: Vec::new(),
        gravity: None,
    };
    for (j, text) in spec.parameters.iter().enumerate() {
        let key = format!("lagrangian parameters {}", j + 1);
        let Some((name, expr)) = text.split_once('=') else {
            return Err(err(&key, format!("`{text}` is not `name = expression`")));
        };
        let name = name.trim();
        if !identifier(name) || taken.iter().any(|t| t == name) {
            return Err(err(
                &key,
                format!("`{name}` is not a free name (a coordinate, a rate, t, or used twice)"),
            ));
        }
        let e = m
            .parse(expr.trim(), Scope::Parameters(j))
            .map_err(|r| err(&key, r))?;
        m.parameters.push((name.to_string(), e));
        taken.push(name.to_string());
    }
    let parse = |m: &Model, x: &Number, key: &str, scope: Scope| {
        m.parse(&x.expr(), scope).map_err(|r| err(key, r))
    };
    let zero = parse_with_variables("0").map_err(|e| err("lagrangian", e.to_string()))?;
    m.mass = match (&spec.masses, &spec.mass_matrix) {
        (Some(d), None) if d.len() == n => {
            let mut rows = vec![vec![zero.clone(); n]; n];
            for (i, x) in d.iter().enumerate() {
                rows[i][i] = parse(&m, x, "lagrangian masses", Scope::Configuration)?;
            }
            rows
        }
        (Some(d), None) => {
            return Err(err(
                "lagrangian masses",
                format!("{} entries for {n} coordinates", d.len()),
            ))
        }
        (None, Some(rows)) => {
            if rows.len() != n || rows.iter().any(|r| r.len() != n) {
                return Err(err(
                    "lagrangian mass_matrix",
                    format!("must be {n} rows of {n} entries"),
                ));
            }
            let mut out = Vec::with_capacity(n);
            for (i, r) in rows.iter().enumerate() {
                let key = format!("lagrangian mass_matrix row {}", i + 1);
                out.push(
                    r.iter()
                        .map(|x| parse(&m, x, &key, Scope::Configuration))
                        .collect::<Result<Vec<_>, _>>()?,
                );
            }
            out
        }
        (Some(_), Some(_)) => {
            return Err(err(
                "lagrangian masses",
                "give `masses` or `mass_matrix`, not both".into(),
            ))
        }
        (None, None) if !spec.body.is_empty() => vec![vec![zero.clone(); n]; n],
        (None, None) => {
            return Err(err(
                "lagrangian mass_matrix",
                "missing: give `mass_matrix`, `masses` or [[lagrangian.body]]".into(),
            ))
        }
    };
    for (i, b) in spec.body.iter().enumerate() {
        let name = b.name.clone().unwrap_or_else(|| (i + 1).to_string());
        let key = format!("lagrangian body {name}");
        if m.bodies.iter().any(|x| x.name == name) {
            return Err(err(&key, "two bodies have this name".into()));
        }
        if b.position.is_empty() || b.position.len() > 3 {
            return Err(err(
                &format!("{key} position"),
                format!(
                    "{} components; a centre of mass has 1 to 3",
                    b.position.len()
                ),
            ));
        }
        let config =
            |x: &Number, what: &str| parse(&m, x, &format!("{key} {what}"), Scope::Configuration);
        let rotation = match (&b.angle, &b.inertia) {
            (Some(a), Some(i)) => Some((config(a, "angle")?, config(i, "inertia")?)),
            (None, None) => None,
            _ => {
                return Err(err(
                    &key,
                    "give `angle` and `inertia` together (or neither: a point mass)".into(),
                ))
            }
        };
        let body = Body {
            name,
            mass: config(&b.mass, "mass")?,
            position: b
                .position
                .iter()
                .map(|x| config(x, "position"))
                .collect::<Result<_, _>>()?,
            rotation,
        };
        m.bodies.push(body);
    }
    if let Some(g) = &spec.gravity {
        if spec.body.is_empty() {
            return Err(err(
                "lagrangian gravity",
                "acts on [[lagrangian.body]] entries; there are none (write it in `potential`)"
                    .into(),
            ));
        }
        m.gravity = Some(parse(&m, g, "lagrangian gravity", Scope::Configuration)?);
    }
    if let Some(v) = &spec.potential {
        m.potential = Some(parse(&m, v, "lagrangian potential", Scope::Configuration)?);
    }
    if let Some(f) = &spec.force {
        if f.len() != n {
            return Err(err(
                "lagrangian force",
                format!("{} components for {n} coordinates", f.len()),
            ));
        }
        m.force = Some(
            f.iter()
                .map(|x| parse(&m, x, "lagrangian force", Scope::Forces))
                .collect::<Result<_, _>>()?,
        );
    }
    if spec.contact.len() > MAX_TERMS {
        return Err(err(
            "lagrangian contact",
            format!("at most {MAX_TERMS} contacts"),
        ));
    }
    for (i, c) in spec.contact.iter().enumerate() {
        let name = c.name.clone().unwrap_or_else(|| (i + 1).to_string());
        let key = format!("lagrangian contact {name}");
        if m.gaps.iter().any(|(g, _)| *g == name) {
            return Err(err(&key, "two contacts have this name".into()));
        }
        let e = parse(&m, &c.gap, &key, Scope::Configuration)?;
        m.gaps.push((name, e));
    }
    Ok(m)
}

/// The initial node (q₀, p₀) in backend `S`, M(q₀) checked symmetric and positive
/// definite.
fn initial<S: Scalar>(
    spec: &StepSpec,
    levels: &Levels<'_, S>,
    ctx: &S::Ctx,
) -> Result<(Vec<S>, Vec<S>), SpecError> {
    let source = &spec.source;
    let err = |key: &str, reason: String| {
        SpecError::Input(InputError::new(format!("{source}: {key}"), reason))
    };
    let n = levels.b0.model.dim();
    let nums = |xs: &[Number], key: &str| -> Result<Vec<S>, SpecError> {
        if xs.len() != n {
            return Err(err(
                key,
                format!("{} components for {n} coordinates", xs.len()),
            ));
        }
        Ok(xs
            .iter()
            .map(|x| value::<S>(&x.expr(), &format!("{source}: {key}"), ctx))
            .collect::<Result<_, _>>()?)
    };
    let q0 = nums(&spec.file.q, "q")?;
    let law = |key: &'static str| move |e: crate::law::LawError| err(key, e.to_string());
    let mass = levels.mass(&q0).map_err(law("lagrangian mass_matrix"))?;
    for i in 0..n {
        for j in i + 1..n {
            let a = levels
                .b0
                .mass_entry(&q0, i, j)
                .map_err(law("lagrangian mass_matrix"))?;
            let b = levels
                .b0
                .mass_entry(&q0, j, i)
                .map_err(law("lagrangian mass_matrix"))?;
            let d = a.sub_r(&b);
            let asym = match S::kind() {
                Kind::Float => {
                    d.to_f64().abs() > 2f64.powi(-30) * (a.to_f64().abs() + b.to_f64().abs())
                }
                _ => matches!(d.sign(), Sign::Positive | Sign::Negative),
            };
            if asym {
                return Err(err(
                    "lagrangian mass_matrix",
                    format!("is not symmetric at q (row {}, column {})", i + 1, j + 1),
                ));
            }
        }
    }
    mass.check_positive_definite().map_err(|_| {
        let what = if levels.b0.model.bodies.is_empty() {
            "lagrangian mass_matrix"
        } else {
            "lagrangian mass_matrix and body"
        };
        err(
            what,
            "M(q) is singular or not positive definite at q (or undecided)".into(),
        )
    })?;
    let p0 = match (&spec.file.p, &spec.file.velocity) {
        (Some(p), None) => nums(p, "p")?,
        (None, Some(v)) => mass.apply(&nums(v, "velocity")?),
        (Some(_), Some(_)) => return Err(err("p", "give `p` or `velocity`, not both".into())),
        (None, None) => {
            return Err(err(
                "p",
                "missing: give the momentum `p` (or the velocity `velocity`) at t = 0".into(),
            ))
        }
    };
    for (i, (name, _)) in levels.b0.model.gaps.iter().enumerate() {
        let key = format!("lagrangian contact {name}");
        let g = levels
            .b0
            .gap(i, &q0)
            .map_err(|e| err(&key, e.to_string()))?;
        if decide(&g, "φ(q0)").map_err(|e| err(&key, e.to_string()))? == Sign::Negative {
            return Err(err(
                &key,
                "the gap is negative at the initial configuration q".into(),
            ));
        }
    }
    Ok((q0, p0))
}

/// What a run of a general system keeps: the energy at every node (without forces; the
/// midpoint rule keeps it only approximately when M depends on q or ∇V is not affine)
/// and across elastic impacts (Lemma 5).
fn conservation<S: Scalar>(has_force: bool, run: &super::stepper::Run<S>) -> Vec<ConservationRow> {
    let mut rows = Vec::new();
    let Some(e0) = run.nodes.first().map(|n| n.energy.clone()) else {
        return rows;
    };
    let scale = e0.to_f64().abs().max(1e-300);
    let mut push = |quantity: &str, reference: &'static str, d: Vec<S>| {
        let (k, largest) = kept(&d, scale);
        rows.push(ConservationRow {
            quantity: quantity.into(),
            reference,
            kept: k,
            compared: d.len(),
            largest_deviation: largest,
        });
    };
    if !has_force {
        let d = run.nodes[1..].iter().map(|n| n.energy.sub_r(&e0)).collect();
        push(
            "energy at every node",
            "SM Sect. VI; the midpoint rule keeps it only approximately when M depends on q or ∇V is not affine",
            d,
        );
    }
    push(
        "energy across elastic impacts",
        "SM Lemma 5 (Γ is an isometry of the metric M(q*)), Sect. VI",
        super::step_file::elastic_changes(run),
    );
    rows
}

/// `step` on a `[lagrangian]` system in backend `S`.
pub fn general_report<S: Scalar>(
    spec: &StepSpec,
    model: &Model,
    arith: String,
    ctx: &S::Ctx,
) -> Result<StepReport, SpecError> {
    if S::is_exact() {
        let mut e = InputError::new(
            "--arith",
            "the midpoint equations (28) of a [lagrangian] system have no closed-form solution; use --arith f64, mpfr:BITS, interval or mpi:BITS",
        );
        e.unrepresentable = true;
        return Err(SpecError::Input(e));
    }
    let (h, law) = spec.law_and_step::<S>(ctx)?;
    let levels = Levels::new(model, ctx)
        .map_err(|e| super::input(&format!("{}: lagrangian parameters", spec.source), e))?;
    let (q0, p0) = initial(spec, &levels, ctx)?;
    let together = spec.together_tolerance::<S>(ctx)?;
    let mut runner = GeneralRun {
        levels,
        h: h.clone(),
        law: law.clone(),
        order: spec.order,
        together,
    };
    let run = runner.run(&q0, &p0, spec.steps);
    let names: Vec<String> = model.gaps.iter().map(|(n, _)| n.clone()).collect();
    let system = spec
        .file
        .name
        .clone()
        .unwrap_or_else(|| spec.source.clone());
    let mut report = run_report(
        (&system, &model.coordinates, &names),
        (&h, &law, spec.order, spec.steps),
        arith,
        &run,
        conservation(model.force.is_some(), &run),
    );
    if spec.compare_orders {
        runner.order = spec.order.other();
        let other = runner.run(&q0, &p0, spec.steps);
        let rows = super::stepper::indeterminacy(&run, &other, |q| runner.levels.mass(q))
            .map_err(SpecError::Law)?;
        report.indeterminacy = Some(indeterminacy_report(&rows, runner.order, &other));
    }
    Ok(report)
}
