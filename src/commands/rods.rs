//! `impactkit rods`: the command line's rod collisions as typed reports, and SVG.

use crate::arith::Rational;
use crate::arith::Scalar;
use crate::law::LawError;
use crate::report::nums;
use crate::report::rods::RodsReport;
use crate::report::rods::*;
use crate::system::rods::RodRun;
use crate::system::rods::{solve_rods, Rod};

/// `impactkit rods`: the collision as the command line states it.
#[derive(Clone, Debug)]
pub struct RodsSpec {
    /// "v1,v2,…".
    pub velocities: String,
    /// Transit times in cells "n1,n2,…" (default all 1: identical rods).
    pub lengths: Option<String>,
    /// Impedances "z1,z2,…" (default all 1).
    pub impedances: Option<String>,
    pub max_steps: usize,
}

impl RodsSpec {
    /// The collision on backend `backend` (γ⁻ and γ⁺ for three rods).
    pub fn report(
        &self,
        backend: crate::arith::backend::Backend,
    ) -> Result<RodsReport, crate::system::SpecError> {
        struct Job<'a>(&'a RodsSpec, crate::arith::backend::Backend);
        impl crate::arith::backend::RunScalar for Job<'_> {
            type Out = Result<RodsReport, crate::system::SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                self.0.report_in::<S>(ctx, self.1)
            }
        }
        backend.run(Job(self, backend))
    }

    fn report_in<S: Scalar>(
        &self,
        ctx: &S::Ctx,
        backend: crate::arith::backend::Backend,
    ) -> Result<RodsReport, crate::system::SpecError> {
        use crate::system::input;
        use crate::system::sequential::{parse_list, SpecError};
        let n = crate::lang::split_list(&self.velocities).len();
        if n < 1 {
            return Err(input("--velocities", "at least one rod"));
        }
        let v = parse_list::<S>(&self.velocities, n, "--velocities", ctx)?;
        let cells: Vec<usize> = match &self.lengths {
            None => vec![1; n],
            Some(src) => {
                let parts = crate::lang::split_list(src);
                if parts.len() != n {
                    return Err(input(
                        "--lengths",
                        format!("expected {n} values, got {}", parts.len()),
                    ));
                }
                parts
                    .iter()
                    .map(|p| match p.trim().parse::<usize>() {
                        Ok(k) if (1..=1000).contains(&k) => Ok(k),
                        _ => Err(input(
                            "--lengths",
                            format!("'{p}' is not a whole number of cells in 1..=1000"),
                        )),
                    })
                    .collect::<Result<_, _>>()?
            }
        };
        let z = match &self.impedances {
            None => vec![v[0].one_like(); n],
            Some(src) => parse_list::<S>(src, n, "--impedances", ctx)?,
        };
        let all: Vec<&S> = v.iter().chain(&z).collect();
        crate::arith::check_compatible(&all)
            .map_err(|e| input("--velocities/--impedances", e.to_string()))?;
        let rods: Vec<Rod<S>> = cells
            .iter()
            .zip(&z)
            .map(|(c, z)| Rod {
                cells: *c,
                impedance: z.clone(),
            })
            .collect();
        if self.max_steps > 1_000_000 {
            return Err(input("--max-steps", "at most 1000000"));
        }
        let run = solve_rods(&rods, &v, self.max_steps).map_err(|e| match e {
            LawError::Domain(r) if r.contains("impedance") || r.contains("cells") => {
                input("--impedances", r)
            }
            // the run's bound is the option's (issue 63, D11)
            LawError::Domain(r) if r.contains("lattice steps") => {
                input("--max-steps", format!("{r}; raise --max-steps"))
            }
            other => SpecError::Law(other),
        })?;
        Ok(RodsReport::of(&rods, &v, &run, &backend.to_string()))
    }
}

impl RodsSpec {
    /// Fig. 6: the characteristics diagram of this collision, computed exactly (the
    /// velocities must be rational).
    pub fn figure(&self) -> Result<String, crate::system::SpecError> {
        use crate::arith::Rational;
        use crate::system::sequential::{parse_list, SpecError};
        let n = crate::lang::split_list(&self.velocities).len();
        let v = parse_list::<Rational>(&self.velocities, n, "--velocities", &())?;
        let cells: Vec<usize> = match &self.lengths {
            None => vec![1; n],
            Some(src) => crate::lang::split_list(src)
                .iter()
                .map(|p| p.trim().parse::<usize>().unwrap_or(1))
                .collect(),
        };
        let z = match &self.impedances {
            None => vec![Rational::new(1, 1); n],
            Some(src) => parse_list::<Rational>(src, n, "--impedances", &())?,
        };
        let rods: Vec<Rod<Rational>> = cells
            .iter()
            .zip(&z)
            .map(|(c, z)| Rod {
                cells: *c,
                impedance: z.clone(),
            })
            .collect();
        let run = solve_rods(&rods, &v, self.max_steps).map_err(SpecError::Law)?;
        let k = run.steps_per_unit;
        let flat =
            |xs: &[Vec<Rational>]| -> Vec<Rational> { xs.iter().flatten().cloned().collect() };
        let mut r = Vec::new();
        let mut l = Vec::new();
        let mut labels = Vec::new();
        for snap in &run.snapshots {
            let vel = flat(&snap.velocity);
            let eps = flat(&snap.strain);
            r.push(
                vel.iter()
                    .zip(&eps)
                    .map(|(a, b)| a.sub_r(b).to_f64())
                    .collect::<Vec<_>>(),
            );
            l.push(
                vel.iter()
                    .zip(&eps)
                    .map(|(a, b)| a.add_r(b).to_f64())
                    .collect::<Vec<_>>(),
            );
            labels.push(if vel.len() <= 12 {
                vel.iter().map(|x| x.to_string()).collect()
            } else {
                Vec::new()
            });
        }
        let mut open = Vec::new();
        let mut state = vec![true; n.saturating_sub(1)];
        for t in 0..run.snapshots.len() {
            for e in run.events.iter().filter(|e| e.t == t) {
                state[e.contact - 1] = !e.closes;
            }
            open.push(state.clone());
        }
        let fine: Vec<usize> = cells.iter().map(|c| c * k).collect();
        let title = format!(
            "Thin rods, velocities ({}): outgoing ({})",
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            run.outgoing
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        Ok(crate::system::sequential::figures::characteristics_figure(
            &title, &fine, k, &r, &l, &open, &labels,
        ))
    }
}

impl RodsReport {
    /// The report of `run`, the collision of `rods` with initial velocities `v`.
    pub fn of<S: Scalar>(rods: &[Rod<S>], v: &[S], run: &RodRun<S>, arith: &str) -> Self {
        let time = |step: usize| Rational::new(step as i64, run.steps_per_unit as i64).num();
        let per_rod = |xs: &[Vec<S>]| xs.iter().map(|c| nums(c)).collect();
        let gaps = |u: &[S]| (u.len() == 3).then(|| nums(&[u[1].sub_r(&u[0]), u[2].sub_r(&u[1])]));
        RodsReport {
            arith: arith.to_string(),
            masses: rods
                .iter()
                .map(|r| {
                    r.impedance
                        .mul_r(&r.impedance.lift_i64(r.cells as i64))
                        .num()
                })
                .collect(),
            outgoing: nums(&run.outgoing),
            events: run
                .events
                .iter()
                .map(|e| RodEventReport {
                    t: time(e.t),
                    contact: e.contact,
                    kind: if e.closes { "close" } else { "open" },
                })
                .collect(),
            end_time: time(run.end_time),
            steps_per_unit: run.steps_per_unit,
            vibrating: run.vibrating,
            states: run
                .snapshots
                .iter()
                .map(|s| RodStateReport {
                    t: time(s.t),
                    velocity: per_rod(&s.velocity),
                    strain_times_c: per_rod(&s.strain),
                })
                .collect(),
            gamma_minus: gaps(v),
            gamma_plus: gaps(&run.outgoing),
        }
    }
}
