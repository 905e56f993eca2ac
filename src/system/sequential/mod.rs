//! `impactkit sequential map|check`: the Winandy–Leine Sequential Impact Law on inputs
//! given as expressions, as typed reports ([`crate::report::sequential`]).

pub mod figures;

use crate::arith::backend::{Backend, RunScalar};
use crate::arith::{Rational, Scalar};
use crate::law::sequential::checks::{check_all, check_cone};
use crate::law::sequential::classic::{newton, poisson};
use crate::law::sequential::cycles::abc_cycle;
use crate::law::sequential::{construct, Cone, ConeMap, Cradle, Vec2};
use crate::law::LawError;
use crate::report::sequential::{
    m2, v2, Candidate, CheckReport, ClassicReport, ConeReport, CycleReport, FactorReport,
    GlobalChecks, MapReport, NonExpansivityReport, PairReport, RayReport, ThinRodsReport,
};

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
    /// γ⁺, its cone and impulse, and Newton's and Poisson's outcomes; on an undecided
    /// cone boundary, the candidate cones.
    pub fn report(&self, backend: Backend) -> Result<MapReport, SpecError> {
        struct Job<'a>(&'a MapSpec, Backend);
        impl RunScalar for Job<'_> {
            type Out = Result<MapReport, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                self.0.report_in::<S>(ctx, self.1)
            }
        }
        backend.run(Job(self, backend))
    }

    fn report_in<S: Scalar>(&self, ctx: &S::Ctx, backend: Backend) -> Result<MapReport, SpecError> {
        let m = masses::<S>(&self.masses, ctx)?;
        let g = parse_list::<S>(&self.gamma, 2, "--gamma", ctx)?;
        let g: Vec2<S> = [g[0].clone(), g[1].clone()];
        let e =
            parse_list::<S>(self.restitution.as_deref().unwrap_or("1"), 1, "--eps", ctx)?.remove(0);
        let bad_e = crate::law::decide(&e, "--eps")? == crate::arith::Sign::Negative
            || crate::law::decide(&(e.one_like() - &e), "--eps")? == crate::arith::Sign::Negative;
        if bad_e {
            return Err(input("--eps", "must lie in [0, 1]"));
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
                let candidates = map
                    .candidates(&g)
                    .into_iter()
                    .map(|i| {
                        let c = &map.cones[i];
                        Candidate {
                            cone: c.name.clone(),
                            gamma_plus: v2(&crate::law::sequential::mat_vec(&c.q, &g)),
                        }
                    })
                    .collect();
                return Ok(MapReport {
                    arith: backend.to_string(),
                    gamma_minus: v2(&g),
                    gamma_plus: None,
                    cone: None,
                    impulse: None,
                    newton: None,
                    poisson: None,
                    undecided: Some(crate::arith::Undecided { quantity, lo, hi }),
                    candidates: Some(candidates),
                });
            }
            Err(e) => return Err(e.into()),
        };
        Ok(MapReport {
            arith: backend.to_string(),
            gamma_minus: v2(&g),
            gamma_plus: Some(v2(&ev.gamma_plus)),
            cone: Some(ev.name.clone()),
            impulse: Some(v2(&cradle.impulse(&g, &ev.gamma_plus))),
            newton: Some(ClassicReport::of(&newton(&cradle, &g, &e)?)),
            poisson: Some(ClassicReport::of(&poisson(&cradle, &g, &e)?)),
            undecided: None,
            candidates: None,
        })
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

    /// The law and its properties (exact backends only).
    pub fn report(&self, backend: Backend) -> Result<CheckReport, SpecError> {
        struct Job<'a>(&'a CheckSpec, Backend);
        impl RunScalar for Job<'_> {
            type Out = Result<CheckReport, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                self.0.report_in::<S>(ctx, self.1)
            }
        }
        backend.run(Job(self, backend))
    }

    fn report_in<S: Scalar>(
        &self,
        ctx: &S::Ctx,
        backend: Backend,
    ) -> Result<CheckReport, SpecError> {
        if self.samples > 100_000 {
            return Err(input("--samples", "at most 100000"));
        }
        if !S::is_exact() {
            return Err(input(
                "--arith",
                "the checks are exact identities: use --arith exact, quadratic or algebraic",
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
        let cones = c
            .cones
            .iter()
            .zip(&checks)
            .map(|(a, b)| ConeReport::of(a, b))
            .collect();
        let mut out = CheckReport {
            arith: backend.to_string(),
            masses: crate::report::nums(&m),
            delassus: m2(&cradle.g),
            cos2_theta: cradle.cos2_theta()?.num(),
            closes: c.closes,
            number_of_cones: c.cones.len(),
            last_image_of_e1: v2(&c.last_image_of_e1),
            cones,
            // not a map of the whole plane: the global properties are undefined
            continuous: false,
            energy_conserving: checks.iter().all(|k| k.energy),
            kinematically_consistent: checks.iter().all(|k| k.kinematic),
            kinetically_consistent: checks.iter().all(|k| k.kinetic),
            non_expansive: None,
            monotone: None,
            cyclically_monotone: None,
            counterexample: None,
            global: None,
        };
        if !(c.closes && c.continuous_at_closure) {
            return Ok(out);
        }
        let map = ConeMap { cones: c.cones };
        let r = check_all(&map, &cradle, self.samples, self.seed)?;
        let ne = &r.non_expansive;
        let non_expansive = ne.proved && ne.counterexample.is_none();
        let one = m[0].one_like();
        let abc = abc_cycle(&map, &cradle, &one)?;
        out.continuous = r.continuous;
        out.energy_conserving = r.energy_conserving;
        out.kinematically_consistent = r.kinematically_consistent;
        out.kinetically_consistent = r.kinetically_consistent;
        out.non_expansive = Some(non_expansive);
        out.monotone = Some(non_expansive && ne.monotone_counterexample.is_none());
        out.cyclically_monotone = r.cyclic.as_ref().map(|_| false);
        out.counterexample = r.cyclic.as_ref().map(CycleReport::of);
        // Sect. 4: identical thin rods against the law, on the integer grid [−4, 4]²
        let equal = crate::law::sequential::is_zero(&m[0].sub_r(&m[1]), "m1 − m2")?
            && crate::law::sequential::is_zero(&m[1].sub_r(&m[2]), "m2 − m3")?;
        let thin_rods = if equal {
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
            Some(ThinRodsReport {
                grid: "integer points of [-4, 4]^2",
                agree: count(|a| matches!(a, A::Agree { .. })),
                differ: count(|a| matches!(a, A::Differ { .. })),
                unsupported: count(|a| matches!(a, A::Unsupported { .. })),
            })
        } else {
            None
        };
        out.global = Some(GlobalChecks {
            rays: r.rays.iter().map(RayReport::of).collect(),
            factorisation: r.factorisation.iter().map(FactorReport::of).collect(),
            factorises: r.factorises,
            non_expansivity: NonExpansivityReport {
                proved_from_continuity_and_isometry: ne.proved,
                samples: ne.samples,
                samples_crossing_boundaries: ne.split_samples,
                counterexample: ne.counterexample.as_ref().map(PairReport::of),
            },
            monotone_counterexample: ne.monotone_counterexample.as_ref().map(PairReport::of),
            abc_cycle: CycleReport::of(&abc),
            thin_rods,
        });
        Ok(out)
    }
}
