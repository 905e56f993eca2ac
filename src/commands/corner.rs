//! `impactkit corner`: the `--arith` policy of a corner run, batches of entrance velocities
//! (`--v0 "x1,y1;x2,y2"`) and the figure of Fassino–Pasquero Sect. 8. The run itself
//! (build, run, report, the certified ladder, the long-run certificate) is
//! [`crate::system::corner_spec`], which `audit` and the claims' probes use too.

use crate::certify::Arith;
use crate::lang::split_list;
use crate::report::corner::{CornerBatchReport, CornerRunReport};
use crate::system::corner_spec::value;
use crate::system::corner_spec::{CornerSpec, RestitutionSpec, MAX_BATCH, UNLIMITED};
use crate::system::{input, SpecError};

impl CornerSpec {
    /// The run on `arith` (a backend, or the certified ladder up to `max_bits`).
    pub fn report_arith(&self, arith: Arith) -> Result<CornerRunReport, SpecError> {
        if self.max_steps == UNLIMITED && matches!(arith, Arith::Backend(_)) {
            return Err(input(
                "--max-steps",
                "unlimited needs --arith certified (the long-run certificate of TA)",
            ));
        }
        match arith {
            Arith::Backend(b) => self.report(b),
            Arith::Certified { max_bits } => self.certified(max_bits),
        }
    }

    /// One run per entrance velocity of `--v0 "x1,y1;x2,y2;…"`.
    pub fn batch(&self, arith: Arith) -> Result<CornerBatchReport, SpecError> {
        let n = self.v0.split(';').count();
        if n > MAX_BATCH {
            return Err(input(
                "--v0",
                format!("at most {MAX_BATCH} entrance velocities in one run, got {n}"),
            ));
        }
        let runs = self
            .v0
            .split(';')
            .map(|v| {
                let mut one = self.clone();
                one.v0 = v.trim().to_string();
                one.report_arith(arith)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(CornerBatchReport { runs })
    }
}

impl CornerSpec {
    /// The SVG figure of Sect. 8 for this entrance velocity: one exit velocity per COR in
    /// `eps_list` (each run as this spec states, with that ε).
    pub fn figure(&self, eps_list: &[String], arith: Arith) -> Result<String, SpecError> {
        let bad = |reason: String| input("--svg", reason);
        if matches!(self.restitution, RestitutionSpec::Asymmetric(..)) {
            return Err(bad(
                "figures draw one COR per exit velocity; use --eps".into()
            ));
        }
        let f = |src: &str, option: &'static str| value::<f64>(src, option, &());
        let alpha = f(&self.alpha, "--alpha")?;
        let parts = split_list(&self.v0);
        if parts.len() != 2 {
            return Err(input("--v0", "expected two components"));
        }
        let v0 = (f(parts[0], "--v0")?, f(parts[1], "--v0")?);
        let mut exits = Vec::new();
        for e in eps_list {
            let mut one = self.clone();
            one.restitution = RestitutionSpec::Symmetric(e.clone());
            let report = one.report_arith(arith)?;
            let fin = &report.final_velocity;
            exits.push(crate::report::corner_figure::ExitArrow {
                label: e.clone(),
                v: (fin[0].to_f64(), fin[1].to_f64()),
                termination: report.termination.clone(),
            });
        }
        let title = format!(
            "Exit velocities of the disk in a corner: α = {}, v0 = ({}), {:?}",
            self.alpha, self.v0, self.algorithm
        );
        Ok(crate::report::corner_figure::corner_figure(
            &title, alpha, v0, &exits,
        ))
    }
}
