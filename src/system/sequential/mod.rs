//! `impactkit sequential map|check`: the Winandy–Leine Sequential Impact Law on inputs
//! given as expressions, as JSON reports.

pub mod figures;

use crate::arith::{Rational, Scalar};
use crate::backend::{Backend, RunScalar};
use crate::law::sequential::checks::{check_all, check_cone, ConeCheck, PairViolation};
use crate::law::sequential::classic::{newton, poisson, ClassicOutcome};
use crate::law::sequential::cycles::{abc_cycle, Cycle};
use crate::law::sequential::{construct, Cone, ConeMap, Cradle, Vec2};
use crate::law::LawError;
use crate::system::corner_spec::scalar_json;
use serde_json::{json, Value};

use super::input;
pub use super::SpecError;

pub fn parse_list<S: Scalar>(
    src: &str,
    n: usize,
    option: &'static str,
    ctx: &S::Ctx,
) -> Result<Vec<S>, SpecError> {
    let parts = crate::lang::split_list(src);
    if parts.len() != n {
        return Err(input(
            option,
            format!("expected {n} values, got {}", parts.len()),
        ));
    }
    let v = super::list::<S>(src, option, ctx)?;
    let refs: Vec<&S> = v.iter().collect();
    crate::arith::check_compatible(&refs).map_err(|e| input(option, e.to_string()))?;
    Ok(v)
}

fn masses<S: Scalar>(src: &Option<String>, ctx: &S::Ctx) -> Result<[S; 3], SpecError> {
    let m = parse_list::<S>(src.as_deref().unwrap_or("1,1,1"), 3, "--masses", ctx)?;
    let m: [S; 3] = [m[0].clone(), m[1].clone(), m[2].clone()];
    Cradle::new(&m).map_err(|e| match e {
        LawError::Domain(r) => input("--masses", r),
        other => SpecError::Law(other),
    })?;
    Ok(m)
}

/// `[x, y]` as JSON strings (or enclosures).
pub fn v2_json<S: Scalar>(v: &Vec2<S>) -> Value {
    json!([scalar_json(&v[0]), scalar_json(&v[1])])
}

fn m2_json<S: Scalar>(m: &[[S; 2]; 2]) -> Value {
    json!([v2_json(&m[0]), v2_json(&m[1])])
}

fn cone_json<S: Scalar>(c: &Cone<S>, k: &ConeCheck<S>) -> Value {
    json!({
        "name": c.name,
        "from": v2_json(&c.from),
        "to": v2_json(&c.to),
        "q": m2_json(&c.q),
        "energy": k.energy,
        "images": [v2_json(&k.images[0]), v2_json(&k.images[1])],
        "kinematic": k.kinematic,
        "onto_first_quadrant": k.onto_first_quadrant,
        "impulses": [v2_json(&k.impulses[0]), v2_json(&k.impulses[1])],
        "kinetic": k.kinetic,
    })
}

/// A cycle as JSON: the points, cones, γ⁺, γ̄, Λ and the sums.
pub fn cycle_json<S: Scalar>(c: &Cycle<S>) -> Value {
    let vs = |v: &[Vec2<S>]| Value::Array(v.iter().map(v2_json).collect());
    json!({
        "cycle": vs(&c.gamma_minus),
        "cones": c.cones,
        "gamma_plus": vs(&c.gamma_plus),
        "gamma_bar": vs(&c.gamma_bar),
        "lambda": vs(&c.lambda),
        "lambda_sum": scalar_json(&c.lambda_sum),
        "sum": scalar_json(&c.sum),
    })
}

fn pair_json<S: Scalar>(p: &Option<PairViolation<S>>) -> Value {
    match p {
        None => Value::Null,
        Some(p) => json!({
            "a": v2_json(&p.a), "b": v2_json(&p.b),
            "lhs": scalar_json(&p.lhs), "rhs": scalar_json(&p.rhs),
        }),
    }
}

fn classic_json<S: Scalar>(o: &ClassicOutcome<S>) -> Value {
    json!({"gamma_plus": v2_json(&o.gamma_plus), "impulse": v2_json(&o.impulse)})
}

/// The law for masses `m` on backend `S`: constructed in `S` itself when it is exact,
/// otherwise constructed exactly over Q (the masses must then be rational) and its rays
/// and matrices converted to `S` (rounded or enclosed), so that only the evaluation runs
/// in the inexact arithmetic.
pub fn build_law<S: Scalar>(
    masses_src: &str,
    m: &[S; 3],
    ctx: &S::Ctx,
) -> Result<ConeMap<S>, SpecError> {
    let domain = |x: LawError| match x {
        LawError::Domain(r) => input("--masses", r),
        other => SpecError::Law(other),
    };
    if S::is_exact() {
        return crate::law::sequential::construct_law(m).map_err(domain);
    }
    let q = masses::<crate::arith::Rational>(&Some(masses_src.to_string()), &()).map_err(|e| match e {
        SpecError::Input(e) => input(
            "--masses",
            format!("{} (inexact backends build the law exactly over Q: give rational masses, or use --arith quadratic)", e.reason),
        ),
        other => other,
    })?;
    let exact = crate::law::sequential::construct_law(&q).map_err(domain)?;
    let l = |x: &crate::arith::Rational| S::from_rational(&x.to_big(), ctx);
    let lv = |v: &Vec2<crate::arith::Rational>| [l(&v[0]), l(&v[1])];
    Ok(ConeMap {
        cones: exact
            .cones
            .iter()
            .map(|c| Cone {
                name: c.name.clone(),
                from: lv(&c.from),
                to: lv(&c.to),
                q: [lv(&c.q[0]), lv(&c.q[1])],
            })
            .collect(),
    })
}

/// `sequential map`: one pre-impact contact velocity.
#[derive(Clone, Debug)]
pub struct MapSpec {
    /// "γ1,γ2".
    pub gamma: String,
    /// "m1,m2,m3" (default 1,1,1).
    pub masses: Option<String>,
    /// Restitution of the Newton and Poisson laws reported beside (default 1).
    pub restitution: Option<String>,
}

impl MapSpec {
    /// `{"arith", "gamma_minus", "gamma_plus", "cone", "impulse", "newton", "poisson"}`.
    pub fn report(&self, backend: Backend) -> Result<Value, SpecError> {
        struct Job<'a>(&'a MapSpec, Backend);
        impl RunScalar for Job<'_> {
            type Out = Result<Value, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                self.0.report_in::<S>(ctx, self.1)
            }
        }
        backend.run(Job(self, backend))
    }

    fn report_in<S: Scalar>(&self, ctx: &S::Ctx, backend: Backend) -> Result<Value, SpecError> {
        let m = masses::<S>(&self.masses, ctx)?;
        let g = parse_list::<S>(&self.gamma, 2, "--gamma", ctx)?;
        let g: Vec2<S> = [g[0].clone(), g[1].clone()];
        let e = parse_list::<S>(
            self.restitution.as_deref().unwrap_or("1"),
            1,
            "--restitution",
            ctx,
        )?
        .remove(0);
        let bad_e = crate::law::decide(&e, "--restitution")? == crate::arith::Sign::Negative
            || crate::law::decide(&(e.one_like() - &e), "--restitution")?
                == crate::arith::Sign::Negative;
        if bad_e {
            return Err(input("--restitution", "must lie in [0, 1]"));
        }
        let mut all: Vec<&S> = m.iter().chain(g.iter()).collect();
        all.push(&e);
        crate::arith::check_compatible(&all)
            .map_err(|x| input("--masses/--gamma", x.to_string()))?;
        let map = build_law::<S>(self.masses.as_deref().unwrap_or("1,1,1"), &m, ctx)?;
        let cradle = Cradle::new(&m)?;
        let ev = match map.apply(&g) {
            Ok(ev) => ev,
            Err(LawError::Undecided { quantity, lo, hi }) => {
                // an enclosure on a boundary: report the cones it may lie in
                let cands: Vec<Value> = map
                    .candidates(&g)
                    .into_iter()
                    .map(|i| {
                        let c = &map.cones[i];
                        json!({"cone": c.name, "gamma_plus": v2_json(&crate::law::sequential::mat_vec(&c.q, &g))})
                    })
                    .collect();
                return Ok(json!({
                    "arith": backend.to_string(),
                    "gamma_minus": v2_json(&g),
                    "gamma_plus": Value::Null,
                    "cone": Value::Null,
                    "undecided": {"quantity": quantity, "lo": lo, "hi": hi},
                    "candidates": cands,
                }));
            }
            Err(e) => return Err(e.into()),
        };
        Ok(json!({
            "arith": backend.to_string(),
            "gamma_minus": v2_json(&g),
            "gamma_plus": v2_json(&ev.gamma_plus),
            "cone": ev.name,
            "impulse": v2_json(&cradle.impulse(&g, &ev.gamma_plus)),
            "newton": classic_json(&newton(&cradle, &g, &e)?),
            "poisson": classic_json(&poisson(&cradle, &g, &e)?),
        }))
    }
}

/// `sequential check`: construct the law for the masses and check every property.
#[derive(Clone, Debug)]
pub struct CheckSpec {
    pub masses: Option<String>,
    /// Random exact pairs for the falsification of Theorem 1.
    pub samples: usize,
    pub seed: u64,
}

impl CheckSpec {
    /// Fig. 4(a) for these masses (built exactly over Q): the cones, and in red the cone
    /// that overlaps C_I when the construction does not close.
    pub fn figure(&self) -> Result<String, SpecError> {
        let m = masses::<Rational>(&self.masses, &())?;
        let c = construct(&m, 64)?;
        let n = c.cones.len();
        let f = |v: &Vec2<Rational>| (v[0].to_f64(), v[1].to_f64());
        let sketches: Vec<figures::ConeSketch> = c
            .cones
            .iter()
            .enumerate()
            .map(|(i, k)| figures::ConeSketch {
                name: k.name.clone(),
                from: f(&k.from),
                to: f(&k.to),
                overlaps: !c.closes && i + 1 == n,
            })
            .collect();
        let title = format!(
            "Sequential Impact Law, masses ({}): {} cones{}",
            m.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            n,
            if c.closes { "" } else { ", does not close" }
        );
        Ok(figures::cone_figure(&title, &sketches))
    }

    /// The check report (see the README for its keys).
    pub fn report(&self, backend: Backend) -> Result<Value, SpecError> {
        struct Job<'a>(&'a CheckSpec, Backend);
        impl RunScalar for Job<'_> {
            type Out = Result<Value, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                self.0.report_in::<S>(ctx, self.1)
            }
        }
        backend.run(Job(self, backend))
    }

    fn report_in<S: Scalar>(&self, ctx: &S::Ctx, backend: Backend) -> Result<Value, SpecError> {
        if self.samples > 100_000 {
            return Err(input("--samples", "at most 100000"));
        }
        if !S::is_exact() {
            return Err(input(
                "--arith",
                "the checks are exact identities: use --arith exact or quadratic",
            ));
        }
        let m = masses::<S>(&self.masses, ctx)?;
        let c = construct(&m, 64)?;
        let cradle = c.cradle.clone();
        let checks = c
            .cones
            .iter()
            .map(|k| check_cone(&cradle, k))
            .collect::<Result<Vec<_>, _>>()?;
        let cones: Vec<Value> = c
            .cones
            .iter()
            .zip(&checks)
            .map(|(a, b)| cone_json(a, b))
            .collect();
        let mut out = json!({
            "arith": backend.to_string(),
            "masses": m.iter().map(scalar_json).collect::<Vec<_>>(),
            "delassus": m2_json(&cradle.g),
            "cos2_theta": scalar_json(&cradle.cos2_theta()?),
            "closes": c.closes,
            "number_of_cones": c.cones.len(),
            "last_image_of_e1": v2_json(&c.last_image_of_e1),
            "cones": cones,
        });
        if !(c.closes && c.continuous_at_closure) {
            // not a map of the whole plane: the global properties are undefined
            for k in [
                "continuous",
                "energy_conserving",
                "kinematically_consistent",
                "kinetically_consistent",
                "non_expansive",
                "monotone",
                "cyclically_monotone",
                "counterexample",
            ] {
                out[k] = Value::Null;
            }
            out["continuous"] = json!(false);
            out["energy_conserving"] = json!(checks.iter().all(|k| k.energy));
            out["kinematically_consistent"] = json!(checks.iter().all(|k| k.kinematic));
            out["kinetically_consistent"] = json!(checks.iter().all(|k| k.kinetic));
            return Ok(out);
        }
        let map = ConeMap { cones: c.cones };
        let r = check_all(&map, &cradle, self.samples, self.seed)?;
        let ne = &r.non_expansive;
        let non_expansive = ne.proved && ne.counterexample.is_none();
        let one = m[0].one_like();
        let abc = abc_cycle(&map, &cradle, &one)?;
        out["continuous"] = json!(r.continuous);
        out["rays"] = Value::Array(
            r.rays
                .iter()
                .map(|x| {
                    json!({"ray": v2_json(&x.ray), "between": [x.before, x.after],
                           "images": [v2_json(&x.images[0]), v2_json(&x.images[1])], "ok": x.ok})
                })
                .collect(),
        );
        out["energy_conserving"] = json!(r.energy_conserving);
        out["kinematically_consistent"] = json!(r.kinematically_consistent);
        out["kinetically_consistent"] = json!(r.kinetically_consistent);
        out["factorisation"] = Value::Array(
            r.factorisation
                .iter()
                .map(|f| json!({"cone": f.cone, "word": f.word, "ok": f.ok}))
                .collect(),
        );
        out["factorises"] = json!(r.factorises);
        out["non_expansive"] = json!(non_expansive);
        out["non_expansivity"] = json!({
            "proved_from_continuity_and_isometry": ne.proved,
            "samples": ne.samples,
            "samples_crossing_boundaries": ne.split_samples,
            "counterexample": pair_json(&ne.counterexample),
        });
        out["monotone"] = json!(non_expansive && ne.monotone_counterexample.is_none());
        out["monotone_counterexample"] = pair_json(&ne.monotone_counterexample);
        out["cyclically_monotone"] = match &r.cyclic {
            Some(_) => json!(false),
            None => Value::Null,
        };
        out["counterexample"] = match &r.cyclic {
            Some(cy) => cycle_json(cy),
            None => Value::Null,
        };
        out["abc_cycle"] = cycle_json(&abc);
        // Sect. 4: identical thin rods against the law, on the integer grid [−4, 4]²
        let equal = crate::law::sequential::is_zero(&m[0].sub_r(&m[1]), "m1 − m2")?
            && crate::law::sequential::is_zero(&m[1].sub_r(&m[2]), "m2 − m3")?;
        out["thin_rods"] = if equal {
            let pts: Vec<Vec2<S>> = (-4..=4)
                .flat_map(|a| (-4..=4).map(move |b| (a, b)))
                .map(|(a, b)| [m[0].lift_i64(a), m[0].lift_i64(b)])
                .collect();
            let unit = crate::system::rods::Rod {
                cells: 1,
                impedance: m[0].one_like(),
            };
            let rods = [unit.clone(), unit.clone(), unit];
            let cmp = crate::system::rods::compare_with_law(&rods, &pts, 1000)?;
            let count = |f: fn(&crate::system::rods::Agreement<S>) -> bool| {
                cmp.iter().filter(|a| f(a)).count()
            };
            use crate::system::rods::Agreement as A;
            json!({
                "grid": "integer points of [-4, 4]^2",
                "agree": count(|a| matches!(a, A::Agree { .. })),
                "differ": count(|a| matches!(a, A::Differ { .. })),
                "unsupported": count(|a| matches!(a, A::Unsupported { .. })),
            })
        } else {
            Value::Null
        };
        Ok(out)
    }
}

/// `--format` of the sequential and rods commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutFormat {
    Text,
    Json,
}

/// `--arith` parser.
pub fn parse_backend(s: &str) -> Result<Backend, String> {
    s.parse()
}

/// The sub-commands of `impactkit sequential`.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum SequentialCommand {
    /// γ⁺ = S(γ⁻) (eq. (19)), its cone and impulse, and Newton's and Poisson's outcomes.
    Map {
        /// Pre-impact contact velocities "g1,g2" (γ = (u2 − u1, u3 − u2)).
        #[arg(long, allow_hyphen_values = true)]
        gamma: String,
        /// Masses "m1,m2,m3" (default 1,1,1); the law must close up for them.
        #[arg(long, allow_hyphen_values = true)]
        masses: Option<String>,
        /// Restitution of the Newton and Poisson laws, in [0, 1] (default 1).
        #[arg(long, allow_hyphen_values = true)]
        restitution: Option<String>,
        /// f64 | exact | quadratic | mpfr:BITS | interval | mpi:BITS.
        #[arg(long, value_parser = parse_backend, default_value = "exact")]
        arith: Backend,
        #[arg(long, value_enum, default_value = "text")]
        format: OutFormat,
    },
    /// Construct the law from P1–P3 for the masses and check every property.
    Check {
        /// Masses "m1,m2,m3" (default 1,1,1).
        #[arg(long, allow_hyphen_values = true)]
        masses: Option<String>,
        /// Random exact pairs for the falsification test of Theorem 1 (at most 100000).
        #[arg(long, default_value_t = 200)]
        samples: usize,
        /// Seed of those pairs.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// f64 | exact | quadratic | mpfr:BITS | interval | mpi:BITS.
        #[arg(long, value_parser = parse_backend, default_value = "exact")]
        arith: Backend,
        #[arg(long, value_enum, default_value = "json")]
        format: OutFormat,
        /// Also draw the cones (Fig. 4(a)) to FILE (SVG).
        #[arg(long)]
        svg: Option<std::path::PathBuf>,
    },
}

/// Runs one `sequential` sub-command; the text or JSON to print.
pub fn run_command(cmd: &SequentialCommand) -> Result<String, SpecError> {
    let show = |x: &Value| match x {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let pair = |p: &Value| format!("({}, {})", show(&p[0]), show(&p[1]));
    match cmd {
        SequentialCommand::Map {
            gamma,
            masses,
            restitution,
            arith,
            format,
        } => {
            let spec = MapSpec {
                gamma: gamma.clone(),
                masses: masses.clone(),
                restitution: restitution.clone(),
            };
            let r = spec.report(*arith)?;
            Ok(match format {
                OutFormat::Json => r.to_string(),
                OutFormat::Text => format!(
                    "gamma_plus: {} (cone {})\nimpulse: {}\nnewton: {}\npoisson: {}",
                    pair(&r["gamma_plus"]),
                    show(&r["cone"]),
                    pair(&r["impulse"]),
                    pair(&r["newton"]["gamma_plus"]),
                    pair(&r["poisson"]["gamma_plus"])
                ),
            })
        }
        SequentialCommand::Check {
            masses,
            samples,
            seed,
            arith,
            format,
            svg,
        } => {
            let spec = CheckSpec {
                masses: masses.clone(),
                samples: *samples,
                seed: *seed,
            };
            let r = spec.report(*arith)?;
            if let Some(path) = svg {
                std::fs::write(path, spec.figure()?)
                    .map_err(|e| input("--svg", format!("cannot write {}: {e}", path.display())))?;
            }
            Ok(match format {
                OutFormat::Json => r.to_string(),
                OutFormat::Text => serde_json::to_string_pretty(&r).unwrap_or_default(),
            })
        }
    }
}
