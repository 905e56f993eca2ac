//! `impactkit compare-cradle`: one Newton's cradle through every impact law — the special
//! case of `impactkit laws FILE` for the system [`SystemFile::cradle`] (gaps
//! x_{i+1} − x_i, one coefficient ε on every contact: Newton's for Pasquero, Newton and
//! Poisson; the energetic R of Seghete–Murphey (16) for the propagative law, a different
//! notion of restitution, so disagreement there is expected and reported).

use super::laws::{LawsSpec, MAX_ITER};
use crate::arith::backend::Backend;
use crate::arith::Rational;
use crate::certify::Arith;
use crate::lang::split_list;
use crate::report::compare::CompareReport;
use crate::system::file::SystemFile;
use crate::system::propagate::SpecError;
use crate::system::{input, list};

/// The cradle as the command line states it.
#[derive(Clone, Debug)]
pub struct CompareSpec {
    /// The COR ε.
    pub eps: String,
    /// Initial velocities "v1,v2,…".
    pub v0: String,
    /// Masses "m1,m2,…".
    pub masses: String,
    /// Largest number of iterations (Pasquero) / solves (Newton).
    pub max_iter: usize,
    /// Work limit of the exact laws (`--max-digits`, see [`LawsSpec::max_digits`]).
    pub max_digits: u64,
}

impl CompareSpec {
    /// The comparison on backend `backend` (the agreement table decided on the certified
    /// ladder, [`LawsSpec::report`]).
    pub fn report(&self, backend: Backend) -> Result<CompareReport, SpecError> {
        if self.max_iter == 0 || self.max_iter > MAX_ITER {
            return Err(input("--max-steps", format!("must lie in 1..={MAX_ITER}")));
        }
        let masses: Vec<String> = split_list(&self.masses)
            .iter()
            .map(|s| s.to_string())
            .collect();
        let v0: Vec<String> = split_list(&self.v0).iter().map(|s| s.to_string()).collect();
        let eps: Vec<String> = split_list(&self.eps)
            .iter()
            .map(|s| s.to_string())
            .collect();
        let [eps] = <[String; 1]>::try_from(eps).map_err(|_| input("--eps", "one value"))?;
        if masses.len() < 2 || v0.len() != masses.len() {
            return Err(input(
                "--v0/--masses",
                format!(
                    "{} velocities for {} masses (at least 2)",
                    v0.len(),
                    masses.len()
                ),
            ));
        }
        if masses.len() > crate::input::caps::BALLS.max as usize {
            return Err(input(
                "--masses",
                format!("at most {} balls", crate::input::caps::BALLS.max),
            ));
        }
        // the options' own errors first, named as the user wrote them
        let ctx = ();
        for (src, opt) in [
            (&self.masses, "--masses"),
            (&self.v0, "--v0"),
            (&self.eps, "--eps"),
        ] {
            if let Err(SpecError::Input(e)) = list::<Rational>(src, opt, &ctx) {
                if !e.unrepresentable {
                    return Err(SpecError::Input(e));
                }
            }
        }
        let spec = LawsSpec {
            file: SystemFile::cradle(&masses, &v0, &eps),
            source: "--masses/--v0/--eps".into(),
            max_iter: self.max_iter,
            max_digits: self.max_digits,
            max_reflections: crate::input::caps::DEFAULT_LAWS_REFLECTIONS,
        };
        let r = spec.report(Arith::Backend(backend)).map_err(|e| match e {
            SpecError::Input(mut e) if e.option.starts_with("--masses/--v0/--eps: ") => {
                e.option = match &e.option["--masses/--v0/--eps: ".len()..] {
                    "masses" => "--masses".into(),
                    "velocity" => "--v0".into(),
                    k if k.contains("restitution") => "--eps".into(),
                    _ => "--masses/--v0/--eps".into(),
                };
                SpecError::Input(e)
            }
            other => other,
        })?;
        Ok(CompareReport {
            arith: r.arith,
            masses: r.system.masses,
            v0: r.system.velocity,
            eps: r.system.restitution[0].clone(),
            laws: r.laws,
            agreement: r.agreement,
            groups: r.groups,
        })
    }
}
