//! `impactkit propagate`: the propagative model on inputs given as expressions.

use crate::arith::backend::{Backend, RunScalar};
use crate::arith::{MpInterval, Scalar};
use crate::law::propagative::{
    distinct_outcomes, inelastic, minimal_sequences, theorem1_ratio, Contacts,
};
use crate::law::LawError;
use crate::linalg::SymMatrix;
use crate::report::nums;
use crate::report::propagate::PropagateReport;

pub use super::SpecError;
use super::{input, list};
use crate::input::caps;

/// A propagate run as the command line states it.
#[derive(Clone, Debug)]
pub struct PropagateSpec {
    /// "m1,m2,…" (a diagonal mass matrix).
    pub masses: String,
    /// Rows separated by `;`: "−1,1,0;0,−1,1".
    pub normals: String,
    /// The momentum covector p = M q̇.
    pub momentum: String,
    /// Restitution R of (16) (default 1, elastic).
    pub restitution: Option<String>,
    pub max_depth: usize,
}

impl PropagateSpec {
    /// The contacts and the momentum on backend `S`.
    pub fn build<S: Scalar>(&self, ctx: &S::Ctx) -> Result<(Contacts<S>, Vec<S>), SpecError> {
        let masses = list::<S>(&self.masses, "--masses", ctx)?;
        let normals: Vec<Vec<S>> = self
            .normals
            .split(';')
            .map(|row| list::<S>(row, "--normals", ctx))
            .collect::<Result<_, _>>()?;
        let p = list::<S>(&self.momentum, "--momentum", ctx)?;
        let n = masses.len();
        if p.len() != n {
            return Err(input(
                "--momentum",
                format!("{} components for {n} masses", p.len()),
            ));
        }
        if let Some(row) = normals.iter().find(|r| r.len() != n) {
            return Err(input(
                "--normals",
                format!("a row has {} components for {n} masses", row.len()),
            ));
        }
        let all: Vec<&S> = masses
            .iter()
            .chain(normals.iter().flatten())
            .chain(&p)
            .collect();
        crate::arith::check_compatible(&all)
            .map_err(|e| input("--masses/--normals/--momentum", e.to_string()))?;
        if normals.len() > caps::CONTACTS {
            return Err(input(
                "--normals",
                format!(
                    "{} normals, more than {} (the limit of contacts)",
                    normals.len(),
                    caps::CONTACTS
                ),
            ));
        }
        let c = Contacts::new(SymMatrix::diagonal(&masses), normals).map_err(|e| match e {
            LawError::Domain(m) => input("--masses/--normals", m),
            other => input("--masses/--normals", other),
        })?;
        c.check_independent().map_err(|e| input("--normals", e))?;
        Ok((c, p))
    }

    /// The report: every minimal sequence (1-based normal indices), the distinct
    /// outcomes, uniqueness, the longest minimal sequence and, for two normals, a
    /// rigorous enclosure of the bound π/γ of Theorem 1 (MPFR intervals, 128 bits).
    pub fn report(&self, backend: Backend) -> Result<PropagateReport, SpecError> {
        struct Job<'a>(&'a PropagateSpec, Backend);
        impl RunScalar for Job<'_> {
            type Out = Result<PropagateReport, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                self.0.report_in::<S>(ctx, &self.1)
            }
        }
        backend.run(Job(self, backend))
    }

    fn report_in<S: Scalar>(
        &self,
        ctx: &S::Ctx,
        backend: &Backend,
    ) -> Result<PropagateReport, SpecError> {
        let (c, p) = self.build::<S>(ctx)?;
        let depth = caps::DEPTH;
        if !(depth.min..=depth.max).contains(&(self.max_depth as u64)) {
            return Err(input(
                "--max-steps",
                format!("must lie in {}..={}", depth.min, depth.max),
            ));
        }
        let r = match &self.restitution {
            Some(src) => {
                let r: S = crate::input::value(src, "--eps", ctx)?;
                let lo =
                    crate::law::decide(&r, "--eps").map_err(|e| input("--eps", e.to_string()))?;
                let hi = crate::law::decide(&(r.one_like() - &r), "--eps")
                    .map_err(|e| input("--eps", e.to_string()))?;
                if lo == crate::arith::Sign::Negative || hi == crate::arith::Sign::Negative {
                    return Err(input("--eps", "R must lie in [0, 1]"));
                }
                Some(r)
            }
            None => None,
        };
        let seqs = minimal_sequences(&c, &p, self.max_depth).map_err(|e| match e {
            LawError::Domain(m) => input(
                "--max-steps",
                format!("{m}: lower --max-steps (the longest sequence) or use fewer contacts"),
            ),
            other => SpecError::Law(other),
        })?;
        let plastic = c.plastic(&p)?;
        let results: Vec<(Vec<usize>, Vec<S>)> = match &r {
            Some(r) => seqs
                .iter()
                .map(|(s, e)| (s.clone(), inelastic(e, &plastic, r)))
                .collect(),
            None => seqs.clone(),
        };
        let outcomes = distinct_outcomes(&results)?;
        let bound = if c.normals.len() == 2 {
            let (ci, _) = self.build::<MpInterval>(&128)?;
            Some(theorem1_ratio(&ci, 0, 1)?.num())
        } else {
            None
        };
        Ok(PropagateReport {
            arith: backend.to_string(),
            sequences: seqs
                .iter()
                .map(|(s, _)| s.iter().map(|i| i + 1).collect())
                .collect(),
            outcomes: outcomes.iter().map(|v| nums(v)).collect(),
            unique: outcomes.len() == 1,
            longest: seqs.iter().map(|(s, _)| s.len()).max().unwrap_or(0),
            bound,
            plastic: nums(&plastic),
        })
    }
}
