//! `impactkit laws FILE` and `compare-cradle`: every law on one system, its rows in the
//! arithmetic the user chose, and the agreement table decided on the certified ladder
//! (exact where the inputs allow): whether two laws agree is a property of the laws,
//! never a float comparison.

use crate::arith::backend::{Backend, RunScalar};
use crate::arith::Scalar;
use crate::certify::Arith;
use crate::report::compare::{AgreementRow, LawRow, LawsReport, SystemSummary};
use crate::report::nums;
use crate::system::file::{System, SystemFile};
use crate::system::laws::{agreement, all, Law, LawResult, LZB_BITS};
use crate::system::{certified_report, SpecError};

/// Largest `--max-steps` (Pasquero's impulses, Newton's solves).
pub const MAX_ITER: usize = 10_000;

/// A system and how to run its laws.
#[derive(Clone, Debug)]
///
/// # Example
///
/// ```
/// use impactkit::certify::Arith;
/// use impactkit::system::file::SystemFile;
/// use impactkit::commands::laws::LawsSpec;
/// let file = SystemFile::corner("pi/6", &["1".into(), "0".into()], ["1", "1"], "1");
/// let spec = LawsSpec { file, source: "corner".into(), max_iter: 1000, max_digits: 20_000, max_reflections: 50_000 };
/// let report = spec.report(Arith::parse("certified", 3392).unwrap()).unwrap();
/// assert_eq!(report.agreement_decided_by.as_deref(), Some("quadratic"));
/// let newton = report.laws.iter().find(|r| r.law == "newton-touching").unwrap();
/// assert_eq!(newton.outcomes[0].iter().map(|n| n.exact_expr().unwrap()).collect::<Vec<_>>(), ["-1", "0"]);
/// ```
pub struct LawsSpec {
    pub file: SystemFile,
    /// Names the file in errors.
    pub source: String,
    pub max_iter: usize,
    /// The work limit of the exact iterated laws: decimal digits of a velocity
    /// (`--max-digits`, [`crate::input::caps::DIGITS`]).
    pub max_digits: u64,
    /// The work limit of the search of minimal sequences (Seghete–Murphey):
    /// reflections (`--max-reflections`, [`crate::input::caps::LAWS_REFLECTIONS`]).
    pub max_reflections: u64,
}

/// The report rows of every law on `sys`.
pub fn rows<S: Scalar>(sys: &System<S>, results: &[(Law, LawResult<S>)]) -> Vec<LawRow> {
    results
        .iter()
        .map(|(law, r)| match r {
            Ok(o) => LawRow {
                law: law.name(),
                citation: law.citation(),
                outcomes: o.outcomes.iter().map(|v| nums(v)).collect(),
                unique: o.outcomes.len() == 1,
                note: o.note.clone(),
                sequences: (0..o.outcomes.len())
                    .map(|k| {
                        let named = o.named_sequence(sys, k);
                        named.iter().map(|set| set.join("+")).collect()
                    })
                    .collect(),
            },
            Err(e) => LawRow {
                law: law.name(),
                citation: law.citation(),
                outcomes: Vec::new(),
                unique: false,
                note: crate::system::laws::why_not(e),
                sequences: Vec::new(),
            },
        })
        .collect()
}

/// The rows, the agreement table and the system of one run.
type Run = (Vec<LawRow>, Vec<AgreementRow>, SystemSummary);

/// A row of a rounded or enclosure run keeps only the outcomes whose sequence the
/// certified run found distinct: where `f64` splits one outcome in two (two sequences
/// whose exact outcomes are equal), the certified run decides, never a float comparison.
/// Rows whose sequences differ from the certified run's are left as they are.
fn align(rows: &mut [LawRow], certified: &[LawRow], by: &str) {
    for r in rows.iter_mut() {
        let Some(c) = certified.iter().find(|c| c.law == r.law) else {
            continue;
        };
        let fewer = !c.outcomes.is_empty() && c.outcomes.len() < r.outcomes.len();
        if !fewer || c.sequences.is_empty() || !c.sequences.iter().all(|s| r.sequences.contains(s))
        {
            continue;
        }
        let keep: Vec<bool> = r
            .sequences
            .iter()
            .map(|s| c.sequences.contains(s))
            .collect();
        let mut k = keep.iter();
        r.outcomes.retain(|_| *k.next().unwrap_or(&true));
        let mut k = keep.iter();
        r.sequences.retain(|_| *k.next().unwrap_or(&true));
        r.unique = r.outcomes.len() == 1;
        r.note += &format!(" (equal outcomes merged, decided in {by})");
    }
}

/// `Some(())` when the mass matrix is decided diagonal.
fn diagonal<S: Scalar>(sys: &System<S>) -> Option<()> {
    let n = sys.mass.dim();
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .all(|(i, j)| sys.mass.get(i, j).sign() == crate::arith::Sign::Zero)
        .then_some(())
}

/// What the file describes, as the laws see it on backend `S`.
fn summary<S: Scalar>(sys: &System<S>) -> SystemSummary {
    SystemSummary {
        name: sys.name.clone(),
        coordinates: sys.coordinates.clone(),
        contacts: sys.contacts.clone(),
        ignored: sys.ignored.clone(),
        masses: (0..sys.mass.dim())
            .map(|i| sys.mass.get(i, i).num())
            .collect(),
        mass_matrix: diagonal(sys)
            .is_none()
            .then(|| sys.mass.full().iter().map(|r| nums(r)).collect()),
        velocity: nums(&sys.velocity),
        restitution: nums(&sys.restitution),
    }
}

/// Why an agreement table is not decided, if it is not.
fn undecided_pair(rows: &[AgreementRow]) -> Option<String> {
    rows.iter()
        .find(|r| r.agree.is_none())
        .map(|r| format!("{} vs {}", r.laws[0], r.laws[1]))
}

impl LawsSpec {
    /// The system on backend `S`.
    pub fn system<S: Scalar>(&self, ctx: &S::Ctx) -> Result<System<S>, SpecError> {
        Ok(self.file.build::<S>(&self.source, ctx)?)
    }

    /// The rows on `backend` and the agreement table of that run.
    fn run_on(&self, backend: Backend) -> Result<Run, SpecError> {
        struct Job<'a>(&'a LawsSpec);
        impl RunScalar for Job<'_> {
            type Out = Result<Run, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                let sys = self.0.system::<S>(ctx)?;
                let results = all(&sys, self.0.max_iter);
                let summary = summary(&sys);
                Ok((rows(&sys, &results), agreement(&results), summary))
            }
        }
        crate::budget::with_law_caps(self.max_digits, self.max_reflections, || {
            backend.run(Job(self))
        })
    }

    /// The LZB rows, when the file has an `[lzb]` table: the ΔP scheme and the certified
    /// limit, on `backend` when it can take real roots, else (exact arithmetic) on
    /// 256-bit intervals (an enclosure of the scheme's result, and of the limit).
    fn lzb_rows(&self, backend: Backend) -> Result<Vec<LawRow>, SpecError> {
        struct Job<'a>(&'a LawsSpec, String);
        impl RunScalar for Job<'_> {
            type Out = Result<Vec<LawRow>, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                let sys = self.0.system::<S>(ctx)?;
                let results: Vec<(Law, LawResult<S>)> = [Law::Lzb, Law::LzbLimit]
                    .into_iter()
                    .map(|l| (l, crate::system::laws::run(l, &sys, self.0.max_iter)))
                    .collect();
                let mut out = rows(&sys, &results);
                for row in &mut out {
                    row.note += &self.1;
                }
                Ok(out)
            }
        }
        if self.file.lzb.is_none() {
            return Ok(Vec::new());
        }
        let (on, said) = match backend {
            Backend::Exact | Backend::Quadratic | Backend::Algebraic => (
                Backend::MpInterval(LZB_BITS),
                format!(
                    " (on {}: LZB takes real roots)",
                    Backend::MpInterval(LZB_BITS)
                ),
            ),
            b => (b, String::new()),
        };
        on.run(Job(self, said))
    }

    /// The summary with the file's numbers exact, when they lie in one exact field: what
    /// the user wrote, whatever `--arith` the laws run on.
    fn exact_summary(&self) -> Option<SystemSummary> {
        struct Job<'a>(&'a LawsSpec);
        impl RunScalar for Job<'_> {
            type Out = Option<SystemSummary>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                self.0.system::<S>(ctx).ok().map(|sys| summary(&sys))
            }
        }
        self.exact_backend()?.run(Job(self))
    }

    /// Exact rationals, or one Q(√d), when the system's numbers lie there.
    fn exact_backend(&self) -> Option<Backend> {
        self.file.exact_backend(&self.source)
    }

    /// The rows and the agreement table, exact where the inputs allow, else on the
    /// certified ladder, and the backend that decided them.
    fn certified_run(&self, max_bits: u32) -> Result<(Run, Option<String>), SpecError> {
        if let Some(b) = self.exact_backend() {
            return Ok((self.run_on(b)?, Some(b.to_string())));
        }
        let (r, by, _) = certified_report(max_bits, |b| self.run_on(b), |r| undecided_pair(&r.1))?;
        Ok((r, by))
    }

    /// The report on `arith`.
    pub fn report(&self, arith: Arith) -> Result<LawsReport, SpecError> {
        if self.max_iter == 0 || self.max_iter > MAX_ITER {
            return Err(crate::system::input(
                "--max-steps",
                format!("must lie in 1..={MAX_ITER}"),
            ));
        }
        crate::input::caps::DIGITS
            .parse(&self.max_digits.to_string())
            .map_err(|e| crate::system::input("--max-digits", e))?;
        crate::input::caps::LAWS_REFLECTIONS
            .parse(&self.max_reflections.to_string())
            .map_err(|e| crate::system::input("--max-reflections", e))?;
        let (mut laws, summary, agreement, decided_by, name) = match arith {
            Arith::Backend(b) => {
                let (mut laws, own, summary) = self.run_on(b)?;
                let (agreement, by) =
                    if matches!(b, Backend::Exact | Backend::Quadratic | Backend::Algebraic) {
                        (own, Some(b.to_string()))
                    } else {
                        let ((rows, agreement, _), by) =
                            self.certified_run(crate::certify::DEFAULT_MAX_BITS)?;
                        if let Some(by) = &by {
                            align(&mut laws, &rows, by);
                        }
                        (agreement, by)
                    };
                (laws, summary, agreement, by, b.to_string())
            }
            Arith::Certified { .. } if self.exact_backend().is_some() => {
                let b = self.exact_backend().unwrap_or(Backend::Exact);
                let (laws, agreement, summary) = self.run_on(b)?;
                let name = format!("certified ({b})");
                (laws, summary, agreement, Some(b.to_string()), name)
            }
            Arith::Certified { max_bits } => {
                let (r, by, _) =
                    certified_report(max_bits, |b| self.run_on(b), |(_, a, _)| undecided_pair(a))?;
                let name = format!("certified ({})", by.as_deref().unwrap_or("undecided"));
                (r.0, r.2, r.1, by, name)
            }
        };
        let lzb_on = match arith {
            Arith::Backend(b) => b,
            Arith::Certified { .. } => Backend::Exact,
        };
        // LZB stands beside the rigid laws, outside their groups and agreement table
        let groups = crate::report::compare::groups(&laws, &agreement);
        laws.extend(self.lzb_rows(lzb_on)?);
        Ok(LawsReport {
            arith: name,
            system: self.exact_summary().unwrap_or(summary),
            groups,
            laws,
            agreement,
            agreement_decided_by: decided_by,
        })
    }
}
