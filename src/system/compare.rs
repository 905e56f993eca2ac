//! `impactkit compare-cradle`: one Newton's cradle through several impact laws, on the
//! same inputs and the same arithmetic, with an exact comparison of their outcomes.
//!
//! * Pasquero's characterization, procedure of Sect. 3.5 with the COR ε on every contact
//!   (`pasquero-nonideal-multiple-constraints.txt`, rule (6); (5) for ε = 1);
//! * the propagative model of Seghete–Murphey: every minimal sequence (Definition 1) and
//!   its outcome; for ε < 1 the inelastic outcome (17) with the *energetic* restitution
//!   R = ε of (16) — a different notion of restitution than Newton's ratio of relative
//!   velocities, so disagreement there is expected and reported, not hidden.
//!
//! * for three balls, on the gap velocities γ = (ẋ₂ − ẋ₁, ẋ₃ − ẋ₂): the Sequential Impact
//!   Law of Winandy–Leine (19) (elastic), and Newton's and Poisson's laws with
//!   restitution ε (Winandy–Leine Sect. 1).
//!
//! Each law says where it does not apply.

use super::cradle::run_cradle;
use super::propagate::SpecError;
use super::{input, list};
use crate::arith::backend::{Backend, RunScalar};
use crate::arith::{Scalar, Sign, Undecided};
use crate::law::characterization::Stop;
use crate::law::propagative::{distinct_outcomes, inelastic, minimal_sequences, Contacts};
use crate::law::{decide, LawError};
use crate::linalg::{SymMatrix, Vector};
use crate::report::compare::{AgreementRow, CompareReport, LawRow};
use crate::report::nums;

/// The cradle as the command line states it.
#[derive(Clone, Debug)]
pub struct CompareSpec {
    /// The COR ε (Newton's for Pasquero; energetic R of (16) for Seghete–Murphey).
    pub eps: String,
    /// Initial velocities "v1,v2,…".
    pub v0: String,
    /// Masses "m1,m2,…".
    pub masses: String,
    /// Largest number of iterations (Pasquero) / reflections (Seghete–Murphey).
    pub max_iter: usize,
}

/// What one law gives.
#[derive(Clone, Debug)]
pub struct LawOutcome<S> {
    /// Short name.
    pub law: &'static str,
    /// Paper and equation.
    pub citation: &'static str,
    /// The distinct post-impact velocities (several where the law is not unique).
    pub outcomes: Vec<Vector<S>>,
    /// How it ended, or why it does not apply.
    pub note: String,
}

/// Pasquero, Sect. 3.5 with rule (6).
pub fn pasquero<S: Scalar>(
    masses: &[S],
    eps: &S,
    v0: &[S],
    max_iter: usize,
) -> Result<LawOutcome<S>, LawError> {
    let cors = vec![eps.clone(); masses.len() - 1];
    let o = run_cradle(masses, &cors, v0.to_vec(), None, max_iter)?;
    let n = o.steps.len();
    let plural = if n == 1 { "impulse" } else { "impulses" };
    let note = match &o.stop {
        Stop::Exit => format!("exit after {n} {plural}"),
        other => format!("{} after {n} {plural}", other.name()),
    };
    Ok(LawOutcome {
        law: "pasquero",
        citation: "Pasquero, Sect. 3.5, rules (5)/(6)",
        outcomes: vec![o.final_velocity().clone()],
        note,
    })
}

/// Seghete–Murphey: all minimal sequences, outcomes as velocities.
pub fn seghete_murphey<S: Scalar>(
    masses: &[S],
    eps: &S,
    v0: &[S],
    max_depth: usize,
) -> Result<LawOutcome<S>, LawError> {
    let n = masses.len();
    let zero = eps.zero_like();
    let one = eps.one_like();
    // gap φ_i = x_{i+1} − x_i − (r_i + r_{i+1}): Dφ_i = e_{i+1} − e_i
    let normals = (0..n - 1)
        .map(|i| {
            (0..n)
                .map(|j| match j {
                    _ if j == i => -one.clone(),
                    _ if j == i + 1 => one.clone(),
                    _ => zero.clone(),
                })
                .collect()
        })
        .collect();
    let c = Contacts::new(SymMatrix::diagonal(masses), normals)?;
    let p: Vec<S> = masses.iter().zip(v0).map(|(m, v)| m.mul_r(v)).collect();
    let seqs = minimal_sequences(&c, &p, max_depth)?;
    if seqs.is_empty() {
        return Err(LawError::Domain(format!(
            "no minimal sequence of at most {max_depth} reflections"
        )));
    }
    let elastic = decide(&(one.clone() - eps), "1 − ε")? == Sign::Zero;
    let results: Vec<(Vec<usize>, Vec<S>)> = if elastic {
        seqs.clone()
    } else {
        let plastic = c.plastic(&p)?;
        seqs.iter()
            .map(|(s, e)| (s.clone(), inelastic(e, &plastic, eps)))
            .collect()
    };
    let momenta = distinct_outcomes(&results)?;
    let outcomes = momenta
        .iter()
        .map(|q| {
            q.iter()
                .zip(masses)
                .map(|(pi, m)| pi.checked_div(m))
                .collect::<Result<Vec<S>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let names: Vec<String> = seqs
        .iter()
        .map(|(s, _)| {
            s.iter()
                .map(|i| format!("u{}", i + 1))
                .collect::<Vec<_>>()
                .join("")
        })
        .collect();
    let kind = if elastic {
        "elastic".to_string()
    } else {
        "inelastic (17) with R = ε of (16)".to_string()
    };
    Ok(LawOutcome {
        law: "seghete-murphey",
        citation: "Seghete-Murphey, Def. 1, (14); (16)-(17)",
        outcomes,
        note: format!("{kind}; minimal sequences {}", names.join(", ")),
    })
}

/// The three laws of the 3-ball cradle of Winandy–Leine on gap velocities
/// γ = Wᵀq̇ = (ẋ₂ − ẋ₁, ẋ₃ − ẋ₂).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GapLaw {
    /// The Sequential Impact Law (19), constructed from P1–P3 (elastic: ε = 1 only).
    Sequential,
    /// Newton's law with restitution ε (an LCP on G), Winandy–Leine Sect. 1.
    Newton,
    /// Poisson's law with restitution ε (compression, then expansion), Sect. 1.
    Poisson,
}

impl GapLaw {
    fn names(self) -> (&'static str, &'static str) {
        match self {
            GapLaw::Sequential => ("winandy-leine", "Winandy-Leine, eqs. (19), (23)"),
            GapLaw::Newton => ("newton", "Newton's law, Winandy-Leine Sect. 1"),
            GapLaw::Poisson => ("poisson", "Poisson's law, Winandy-Leine Sect. 1"),
        }
    }
}

/// A gap-velocity law of the 3-ball cradle, with post-impact velocities
/// q̇⁺ = q̇⁻ + M⁻¹WΛ, Λ = G⁻¹(γ⁺ − γ⁻) (Winandy–Leine eq. (6)).
pub fn gap_law<S: Scalar>(
    law: GapLaw,
    masses: &[S],
    eps: &S,
    v0: &[S],
) -> Result<LawOutcome<S>, LawError> {
    use crate::law::sequential::classic::{newton, poisson};
    use crate::law::sequential::{construct_law, Cradle};
    let (name, citation) = law.names();
    let (Ok(m), Ok(v)) = (
        <[S; 3]>::try_from(masses.to_vec()),
        <[S; 3]>::try_from(v0.to_vec()),
    ) else {
        return Err(LawError::Domain("applies to three balls only".into()));
    };
    let cradle = Cradle::new(&m)?;
    let gm = [v[1].sub_r(&v[0]), v[2].sub_r(&v[1])];
    let (gp, note) = match law {
        GapLaw::Sequential => {
            if decide(&(eps.one_like() - eps), "1 − ε")? != Sign::Zero {
                return Err(LawError::Domain(
                    "the Sequential Impact Law (19) is elastic: ε = 1 only".into(),
                ));
            }
            let e = construct_law(&m)?.apply(&gm)?;
            (e.gamma_plus, format!("cone {}", e.name))
        }
        GapLaw::Newton => (newton(&cradle, &gm, eps)?.gamma_plus, "LCP on G".into()),
        GapLaw::Poisson => (
            poisson(&cradle, &gm, eps)?.gamma_plus,
            "compression + expansion".into(),
        ),
    };
    let l = cradle.impulse(&gm, &gp);
    let out = vec![
        v[0].sub_r(&l[0].checked_div(&m[0])?),
        v[1].add_r(&l[0].sub_r(&l[1]).checked_div(&m[1])?),
        v[2].add_r(&l[1].checked_div(&m[2])?),
    ];
    Ok(LawOutcome {
        law: name,
        citation,
        outcomes: vec![out],
        note,
    })
}

/// Longest reflection sequence searched by the propagative model here (the search is
/// exponential in the depth).
pub const PROPAGATIVE_DEPTH: usize = 12;

/// Every law on the same cradle; a law that does not apply reports why instead.
pub fn laws<S: Scalar>(masses: &[S], eps: &S, v0: &[S], max_iter: usize) -> Vec<LawOutcome<S>> {
    let failed = |law, citation, e: LawError| LawOutcome {
        law,
        citation,
        outcomes: Vec::new(),
        note: format!("does not apply: {e}"),
    };
    let mut out = vec![
        pasquero(masses, eps, v0, max_iter)
            .unwrap_or_else(|e| failed("pasquero", "Pasquero, Sect. 3.5, rules (5)/(6)", e)),
        seghete_murphey(masses, eps, v0, PROPAGATIVE_DEPTH).unwrap_or_else(|e| {
            failed(
                "seghete-murphey",
                "Seghete-Murphey, Def. 1, (14); (16)-(17)",
                e,
            )
        }),
    ];
    for law in [GapLaw::Sequential, GapLaw::Newton, GapLaw::Poisson] {
        let (name, citation) = law.names();
        out.push(gap_law(law, masses, eps, v0).unwrap_or_else(|e| failed(name, citation, e)));
    }
    out
}

/// Whether two velocity vectors are equal (every difference decided zero; `None` when a
/// difference's sign is undecided, with the first undecided quantity) and the largest
/// |difference| of the decided components (chosen by its f64 value, reported in the
/// backend's arithmetic).
struct Difference<S> {
    equal: Option<bool>,
    max: Option<S>,
    undecided: Option<Undecided>,
}

fn difference<S: Scalar>(a: &[S], b: &[S]) -> Difference<S> {
    let mut out = Difference {
        equal: Some(true),
        max: None,
        undecided: None,
    };
    for (x, y) in a.iter().zip(b) {
        let mut d = x.sub_r(y);
        let s = match crate::arith::decide(&d, "a difference of outcomes") {
            Ok(s) => s,
            Err(u) => {
                // undecided: equality is unknown unless another component differs
                if out.equal == Some(true) {
                    out.equal = None;
                }
                out.undecided.get_or_insert(u);
                continue;
            }
        };
        if s != Sign::Zero {
            out.equal = Some(false);
        }
        if s == Sign::Negative {
            d = -d;
        }
        if out.max.as_ref().is_none_or(|m: &S| d.to_f64() > m.to_f64()) {
            out.max = Some(d);
        }
    }
    out
}

/// Three-valued "or" (`None`: unknown).
fn or3(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), Some(false)) => Some(false),
        _ => None,
    }
}

/// Three-valued "and" (`None`: unknown).
fn and3(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

impl CompareSpec {
    /// The comparison on backend `backend`.
    pub fn report(&self, backend: Backend) -> Result<CompareReport, SpecError> {
        struct Job<'a>(&'a CompareSpec, Backend);
        impl RunScalar for Job<'_> {
            type Out = Result<CompareReport, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                self.0.report_in::<S>(ctx, &self.1.to_string())
            }
        }
        if self.max_iter == 0 || self.max_iter > 10_000 {
            return Err(input("--max-steps", "must lie in 1..=10000"));
        }
        backend.run(Job(self, backend))
    }

    fn report_in<S: Scalar>(&self, ctx: &S::Ctx, arith: &str) -> Result<CompareReport, SpecError> {
        let masses = list::<S>(&self.masses, "--masses", ctx)?;
        let v0 = list::<S>(&self.v0, "--v0", ctx)?;
        let eps = list::<S>(&self.eps, "--eps", ctx)?;
        let [eps] = <[S; 1]>::try_from(eps).map_err(|_| input("--eps", "one value"))?;
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
        let all: Vec<&S> = masses.iter().chain(&v0).chain([&eps]).collect();
        crate::arith::check_compatible(&all)
            .map_err(|e| input("--eps/--v0/--masses", e.to_string()))?;
        for m in &masses {
            if decide(m, "a mass").map_err(|e| input("--masses", e.to_string()))? != Sign::Positive
            {
                return Err(input("--masses", "masses must be positive"));
            }
        }
        let in_range = decide(&eps, "ε").map_err(|e| input("--eps", e.to_string()))?
            != Sign::Negative
            && decide(&(eps.one_like() - &eps), "1 − ε")
                .map_err(|e| input("--eps", e.to_string()))?
                != Sign::Negative;
        if !in_range {
            return Err(input("--eps", "ε must lie in [0, 1]"));
        }
        let results = laws(&masses, &eps, &v0, self.max_iter);
        let mut agreement = Vec::new();
        for (i, a) in results.iter().enumerate() {
            for b in &results[i + 1..] {
                if a.outcomes.is_empty() || b.outcomes.is_empty() {
                    continue;
                }
                // a's outcomes found among b's (and the largest distance to the nearest);
                // an undecided sign makes the pair's agreement undecided, reported in place
                let mut all_equal = Some(a.outcomes.len() == b.outcomes.len());
                let mut worst: Option<S> = None;
                let mut undecided = None;
                for x in &a.outcomes {
                    let mut found = Some(false);
                    let mut nearest: Option<S> = None;
                    for y in &b.outcomes {
                        let d = difference(x, y);
                        found = or3(found, d.equal);
                        if undecided.is_none() {
                            undecided = d.undecided;
                        }
                        if let Some(d) = d.max {
                            if nearest.as_ref().is_none_or(|n| d.to_f64() < n.to_f64()) {
                                nearest = Some(d);
                            }
                        }
                    }
                    all_equal = and3(all_equal, found);
                    if let Some(n) = nearest {
                        if worst.as_ref().is_none_or(|w| n.to_f64() > w.to_f64()) {
                            worst = Some(n);
                        }
                    }
                }
                agreement.push(AgreementRow {
                    laws: [a.law, b.law],
                    agree: all_equal,
                    max_difference: worst.as_ref().map(Scalar::num),
                    undecided: if all_equal.is_none() { undecided } else { None },
                });
            }
        }
        Ok(CompareReport {
            arith: arith.to_string(),
            masses: nums(&masses),
            v0: nums(&v0),
            eps: eps.num(),
            laws: results
                .iter()
                .map(|r| LawRow {
                    law: r.law,
                    citation: r.citation,
                    outcomes: r.outcomes.iter().map(|o| nums(o)).collect(),
                    unique: r.outcomes.len() == 1,
                    note: r.note.clone(),
                })
                .collect(),
            agreement,
        })
    }
}
