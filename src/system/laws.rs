//! Every impact law that applies to a [`System`], on the same inputs and arithmetic, and
//! an exact comparison of their outcomes (`impactkit laws FILE`, `compare-cradle`,
//! `regress`).
//!
//! * Pasquero's characterization, procedure of Sect. 3.5 with each contact's coefficient
//!   as the COR of its constraint (asymmetric rule (7); (6) for equal CORs, (5) for 1);
//! * the propagative model of Seghete–Murphey: every minimal sequence (Definition 1) and
//!   its outcome; for R < 1 the inelastic outcome (17) with the *energetic* R of (16)
//!   (one value for every contact);
//! * Newton's law solved simultaneously over every touching contact, and over the
//!   approaching ones only (repeated), and Poisson's law ([`crate::law::newton`]);
//! * for a 3-ball cradle (masses on a line, gaps x₂ − x₁, x₃ − x₂), the Sequential Impact
//!   Law of Winandy–Leine (19), elastic only.
//!
//! Each law says where it does not apply.

use super::file::System;
use crate::arith::{Scalar, Sign, Undecided};
use crate::law::characterization::{Constraints, Stop};
use crate::law::newton::{newton, poisson, ImpactOutcome, NewtonVariant};
use crate::law::propagative::{inelastic, minimal_sequences, Contacts};
use crate::law::{decide, LawError};
use crate::linalg::Vector;
use crate::report::compare::AgreementRow;
use crate::system::cradle::{procedure, record_all};
use crate::system::iterate::Limits;

/// The laws impactkit runs on a system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Law {
    Pasquero,
    SegheteMurphey,
    NewtonTouching,
    NewtonApproaching,
    Poisson,
    WinandyLeine,
    /// The compliant law of Liu–Zhao–Brogliato (its ΔP scheme): run only where the
    /// system file has an `[lzb]` table, never in [`Law::ALL`]'s agreement table (a
    /// compliant outcome is compared by its distance, [`crate::law::lzb`]).
    Lzb,
    /// LZB's continuous limit ΔP → 0, enclosed by a validated integration (enclosure
    /// backends only; [`crate::law::lzb_limit`]).
    LzbLimit,
}

impl Law {
    /// Every law, in report order.
    pub const ALL: [Law; 6] = [
        Law::Pasquero,
        Law::SegheteMurphey,
        Law::NewtonTouching,
        Law::NewtonApproaching,
        Law::Poisson,
        Law::WinandyLeine,
    ];

    /// The name in reports and in `expect` clauses.
    pub fn name(self) -> &'static str {
        match self {
            Law::Pasquero => "pasquero",
            Law::SegheteMurphey => "seghete-murphey",
            Law::NewtonTouching => "newton-touching",
            Law::NewtonApproaching => "newton-approaching",
            Law::Poisson => "poisson",
            Law::WinandyLeine => "winandy-leine",
            Law::Lzb => "lzb",
            Law::LzbLimit => "lzb-limit",
        }
    }

    /// Paper and equation.
    pub fn citation(self) -> &'static str {
        match self {
            Law::Pasquero => "Pasquero, Sect. 3.5, rules (5)-(7)",
            Law::SegheteMurphey => "Seghete-Murphey, Def. 1, (14); (16)-(17)",
            Law::NewtonTouching => "Newton's law, every touching contact (Winandy-Leine Sect. 1)",
            Law::NewtonApproaching => "Newton's law, approaching contacts, repeated",
            Law::Poisson => "Poisson's law (Winandy-Leine Sect. 1)",
            Law::WinandyLeine => "Winandy-Leine, eqs. (19), (23)",
            Law::Lzb => "Liu-Zhao-Brogliato (2008) Sect. 3, the delta-P scheme of Siconos",
            Law::LzbLimit => {
                "Liu-Zhao-Brogliato (2008) eqs. (2.3)-(2.6), the limit delta-P -> 0, validated"
            }
        }
    }

    /// The compliant laws, after [`Law::ALL`] where a system file has an `[lzb]` table.
    pub const COMPLIANT: [Law; 2] = [Law::Lzb, Law::LzbLimit];

    /// Every law, rigid then compliant (the order of `laws` where a system file has an
    /// `[lzb]` table).
    pub fn every() -> impl Iterator<Item = Law> {
        Law::ALL.into_iter().chain(Law::COMPLIANT)
    }

    /// The law named `s` (`newton-simultaneous` is `newton-touching`).
    pub fn parse(s: &str) -> Option<Law> {
        if s == "newton-simultaneous" {
            return Some(Law::NewtonTouching);
        }
        Law::every().find(|l| l.name() == s)
    }
}

/// What one law gives on a system.
#[derive(Clone, Debug)]
pub struct LawOutcome<S> {
    pub law: Law,
    /// The distinct post-impact velocities (several where the law is not unique).
    pub outcomes: Vec<Vector<S>>,
    /// Per outcome, the contacts impacted at each step (0-based, sets in order).
    pub sequences: Vec<Vec<Vec<usize>>>,
    /// How it ended.
    pub note: String,
}

impl<S> LawOutcome<S> {
    /// The contacts of outcome `k`'s sequence by name, one set per step.
    pub fn named_sequence(&self, sys: &System<S>, k: usize) -> Vec<Vec<String>> {
        self.sequences
            .get(k)
            .map(|seq| {
                seq.iter()
                    .map(|set| set.iter().map(|&i| sys.contacts[i].clone()).collect())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// The precision (bits) of the interval run of LZB's ΔP scheme where the other laws run
/// exactly: `laws` shows its enclosure, `regress` compares records with its midpoint.
pub const LZB_BITS: u32 = 256;

/// Longest reflection sequence searched by the propagative model (exponential search).
pub const PROPAGATIVE_DEPTH: usize = 12;

/// Pasquero's constraints: n_i = −∇φ_i (admissible n_i·q̇ ≤ 0).
pub fn constraints<S: Scalar>(sys: &System<S>) -> Result<Constraints<S>, LawError> {
    let normals = sys
        .normals
        .iter()
        .map(|n| n.iter().map(|x| -x.clone()).collect())
        .collect();
    Constraints::new(sys.mass.clone(), normals)
}

/// Runs `law` on `sys` (`max_iter`: Pasquero's iterations and Newton's solves).
pub fn run<S: Scalar>(
    law: Law,
    sys: &System<S>,
    max_iter: usize,
) -> Result<LawOutcome<S>, LawError> {
    let one = |v: Vector<S>, seq: Vec<Vec<usize>>, note: String| LawOutcome {
        law,
        outcomes: vec![v],
        sequences: vec![seq],
        note,
    };
    let classic = |o: ImpactOutcome<S>, what: &str| {
        let n = o.rounds.len();
        let note = format!("{what}; {n} solve{}", if n == 1 { "" } else { "s" });
        one(o.velocity, o.rounds, note)
    };
    match law {
        Law::Pasquero => {
            let c = constraints(sys)?;
            let o = procedure(
                &c,
                &sys.restitution,
                sys.velocity.clone(),
                None,
                &Limits {
                    max_digits: crate::budget::digit_cap(),
                    ..record_all(max_iter)
                },
            )?;
            let n = o.steps.len();
            let plural = if n == 1 { "impulse" } else { "impulses" };
            let note = match &o.stop {
                Stop::Exit => format!("exit after {n} {plural}"),
                Stop::Undecided { quantity, lo, hi } => {
                    return Err(LawError::Undecided {
                        quantity: quantity.clone(),
                        lo: lo.clone(),
                        hi: hi.clone(),
                    })
                }
                Stop::WorkLimit { digits, .. } => {
                    return Err(LawError::Domain(format!(
                        "work limit: the velocity has {digits} digits after {n} {plural} (--max-digits)"
                    )))
                }
                other => {
                    return Err(LawError::Domain(format!(
                        "stopped: {} after {n} {plural}",
                        other.name()
                    )))
                }
            };
            let seq = o.steps.iter().map(|s| s.impacting.clone()).collect();
            Ok(one(o.final_velocity().clone(), seq, note))
        }
        Law::SegheteMurphey => seghete_murphey(sys),
        Law::NewtonTouching => Ok(classic(
            newton(
                &constraints(sys)?,
                &sys.velocity,
                &sys.restitution,
                NewtonVariant::Touching,
                1,
            )?,
            "LCP over every touching contact",
        )),
        Law::NewtonApproaching => Ok(classic(
            newton(
                &constraints(sys)?,
                &sys.velocity,
                &sys.restitution,
                NewtonVariant::Approaching,
                max_iter,
            )?,
            "LCP over the approaching contacts",
        )),
        Law::Poisson => Ok(classic(
            poisson(&constraints(sys)?, &sys.velocity, &sys.poisson)?,
            "compression + expansion",
        )),
        Law::WinandyLeine => winandy_leine(sys),
        Law::Lzb => lzb(sys),
        Law::LzbLimit => lzb_limit(sys),
    }
}

/// The file's `[lzb]` parameters.
fn lzb_params<S: Scalar>(sys: &System<S>) -> Result<&crate::law::lzb::Lzb<S>, LawError> {
    sys.lzb.as_ref().ok_or_else(|| {
        LawError::Domain(
            "the system file has no [lzb] table (its stiffnesses and exponents)".into(),
        )
    })
}

/// LZB's continuous limit, enclosed.
fn lzb_limit<S: Scalar>(sys: &System<S>) -> Result<LawOutcome<S>, LawError> {
    let params = lzb_params(sys)?;
    if sys.velocity[0].hull_with(&sys.velocity[0]).is_none() {
        return Err(LawError::Domain(
            "the certified limit runs on enclosures (--arith interval, mpi:BITS or certified)"
                .into(),
        ));
    }
    let o = params.limit(
        &constraints(sys)?,
        &sys.velocity,
        params.limit_steps,
        params.limit_max_steps,
    )?;
    Ok(LawOutcome {
        law: Law::LzbLimit,
        outcomes: vec![o.velocity],
        sequences: vec![Vec::new()],
        note: format!(
            "certified enclosure of the limit; {} time steps of h = {}",
            o.steps,
            o.h.to_f64()
        ),
    })
}

/// The LZB law's ΔP scheme with the file's `[lzb]` parameters.
fn lzb<S: Scalar>(sys: &System<S>) -> Result<LawOutcome<S>, LawError> {
    let params = lzb_params(sys)?;
    let o = params.run(&constraints(sys)?, &sys.velocity)?;
    let turns: Vec<String> = o
        .primaries
        .iter()
        .map(|&i| sys.contacts[i].clone())
        .collect();
    let note = format!(
        "{}, {} steps of ΔP = {}; primary contacts {}",
        params.compliance.name(),
        o.steps,
        o.delta_p.to_f64(),
        turns.join(" ")
    );
    Ok(LawOutcome {
        law: Law::Lzb,
        outcomes: vec![o.velocity],
        sequences: vec![o.primaries.iter().map(|&i| vec![i]).collect()],
        note,
    })
}

/// The energetic R of (16): the file's `energetic`, else the contacts' one coefficient.
fn energetic<S: Scalar>(sys: &System<S>) -> Result<S, LawError> {
    match &sys.energetic {
        Some(r) => Ok(r.clone()),
        None => common_restitution(sys),
    }
}

/// The one coefficient of every contact.
fn common_restitution<S: Scalar>(sys: &System<S>) -> Result<S, LawError> {
    let e = sys.restitution[0].clone();
    for x in &sys.restitution[1..] {
        if decide(&x.sub_r(&e), "a difference of coefficients")? != Sign::Zero {
            return Err(LawError::Domain(
                "the energetic R of (16) is one coefficient for all contacts (give `energetic`)"
                    .into(),
            ));
        }
    }
    Ok(e)
}

/// Seghete–Murphey: every minimal sequence, outcomes as velocities q̇ = M⁻¹p.
fn seghete_murphey<S: Scalar>(sys: &System<S>) -> Result<LawOutcome<S>, LawError> {
    let r = energetic(sys)?;
    let c = Contacts::new(sys.mass.clone(), sys.normals.clone())?;
    let p = sys.mass.apply(&sys.velocity);
    let seqs = minimal_sequences(&c, &p, PROPAGATIVE_DEPTH)?;
    if seqs.is_empty() {
        return Err(LawError::Domain(format!(
            "no minimal sequence of at most {PROPAGATIVE_DEPTH} reflections"
        )));
    }
    let elastic = decide(&(r.one_like() - &r), "1 − R")? == Sign::Zero;
    let results: Vec<(Vec<usize>, Vec<S>)> = if elastic {
        seqs.clone()
    } else {
        // the plastic impact that never pulls (issue 16: (11) over every contact can)
        let plastic = c.plastic_complementary(&p)?.momentum;
        seqs.iter()
            .map(|(s, e)| (s.clone(), inelastic(e, &plastic, &r)))
            .collect()
    };
    // outcomes merged where their equality is decided; an undecided pair stays apart
    // here, and the certified run of `laws` decides it (the `laws` command, `commands::laws`)
    let mut outcomes: Vec<Vector<S>> = Vec::new();
    let mut momenta: Vec<&Vector<S>> = Vec::new();
    let mut sequences = Vec::new();
    for (s, q) in &results {
        if momenta.iter().any(|m| difference(m, q).equal == Some(true)) {
            continue;
        }
        momenta.push(q);
        outcomes.push(sys.mass.solve(q)?);
        sequences.push(s.iter().map(|&i| vec![i]).collect());
    }
    let names: Vec<String> = seqs
        .iter()
        .map(|(s, _)| {
            s.iter()
                .map(|&i| format!("u{}", sys.contacts[i]))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let kind = if elastic {
        "elastic".to_string()
    } else {
        "inelastic (17) with R = e of (16)".to_string()
    };
    Ok(LawOutcome {
        law: Law::SegheteMurphey,
        outcomes,
        sequences,
        note: format!("{kind}; minimal sequences {}", names.join(", ")),
    })
}

/// The masses of a 3-ball cradle, when `sys` is one: diagonal M (x₁, x₂, x₃) and the
/// touching normals positive multiples of e₂ − e₁ and e₃ − e₂, in this order.
fn as_cradle3<S: Scalar>(sys: &System<S>) -> Result<Option<[S; 3]>, LawError> {
    if sys.mass.dim() != 3 || sys.normals.len() != 2 {
        return Ok(None);
    }
    for i in 0..3 {
        for j in i + 1..3 {
            if decide(sys.mass.get(i, j), "an off-diagonal mass")? != Sign::Zero {
                return Ok(None);
            }
        }
    }
    for (k, n) in sys.normals.iter().enumerate() {
        let (a, b, z) = (&n[k], &n[k + 1], &n[2 - 2 * k]);
        let ok = decide(z, "a normal component")? == Sign::Zero
            && decide(b, "a normal component")? == Sign::Positive
            && decide(&a.add_r(b), "a normal component")? == Sign::Zero;
        if !ok {
            return Ok(None);
        }
    }
    Ok(Some([
        sys.mass.get(0, 0).clone(),
        sys.mass.get(1, 1).clone(),
        sys.mass.get(2, 2).clone(),
    ]))
}

/// Winandy–Leine's Sequential Impact Law (19) on gap velocities γ = (ẋ₂ − ẋ₁, ẋ₃ − ẋ₂),
/// q̇⁺ = q̇⁻ + M⁻¹WΛ, Λ = G⁻¹(γ⁺ − γ⁻) (eq. (6)).
fn winandy_leine<S: Scalar>(sys: &System<S>) -> Result<LawOutcome<S>, LawError> {
    use crate::law::sequential::{construct_law, Cradle};
    let Some(m) = as_cradle3(sys)? else {
        return Err(LawError::Domain("applies to a 3-ball cradle only".into()));
    };
    let e = common_restitution(sys)?;
    if decide(&(e.one_like() - &e), "1 − e")? != Sign::Zero {
        return Err(LawError::Domain(
            "the Sequential Impact Law (19) is elastic: e = 1 only".into(),
        ));
    }
    let v = &sys.velocity;
    let cradle = Cradle::new(&m)?;
    let gm = [v[1].sub_r(&v[0]), v[2].sub_r(&v[1])];
    let ev = construct_law(&m)?.apply(&gm)?;
    let l = cradle.impulse(&gm, &ev.gamma_plus);
    let out = vec![
        v[0].sub_r(&l[0].checked_div(&m[0])?),
        v[1].add_r(&l[0].sub_r(&l[1]).checked_div(&m[1])?),
        v[2].add_r(&l[1].checked_div(&m[2])?),
    ];
    Ok(LawOutcome {
        law: Law::WinandyLeine,
        outcomes: vec![out],
        sequences: vec![Vec::new()],
        note: format!("cone {}", ev.name),
    })
}

/// Why a law gives no outcome, as a report says it: `undecided: …` when a sign stayed
/// undecided in the arithmetic of the run (a finer one may decide it), else
/// `does not apply: …`.
pub fn why_not(e: &LawError) -> String {
    match e {
        LawError::Undecided { .. } => format!("undecided: {e}"),
        _ if unfinished(e) => format!("not computed: {e}"),
        _ => format!("does not apply: {e}"),
    }
}

/// Whether a law stopped at one of its limits (impulses or solves, search depth or
/// reflections, work digits) or on an undecided sign, rather than not applying to the system: its outcome
/// was not computed, so it may still differ from the others.
pub fn unfinished(e: &LawError) -> bool {
    match e {
        LawError::Undecided { .. } => true,
        LawError::Domain(m) => [
            "work limit",
            "stopped:",
            "no minimal sequence of at most",
            "the search of minimal sequences needs more than",
            "contacts still approach after",
        ]
        .iter()
        .any(|p| m.starts_with(p)),
        LawError::Arith(_) => false,
    }
}

/// A law's row: its outcome, or why it does not apply.
pub type LawResult<S> = Result<LawOutcome<S>, LawError>;

/// Every law on `sys`.
///
/// # Example
///
/// ```
/// use impactkit::arith::Rational;
/// use impactkit::system::file::SystemFile;
/// use impactkit::system::laws::{all, Law};
/// let file = SystemFile::cradle(&["1".into(), "1".into(), "1".into()], &["1".into(), "0".into(), "0".into()], "1");
/// let sys = file.build::<Rational>("cradle", &()).unwrap();
/// for (law, result) in all(&sys, 1000) {
///     let outcome = result.unwrap();
///     let v: Vec<String> = outcome.outcomes[0].iter().map(|x| x.to_string()).collect();
///     match law {
///         Law::NewtonTouching | Law::Poisson => assert_eq!(v, ["-1/3", "2/3", "2/3"]),
///         _ => assert_eq!(v, ["0", "0", "1"], "{}", law.name()),
///     }
/// }
/// ```
pub fn all<S: Scalar>(sys: &System<S>, max_iter: usize) -> Vec<(Law, LawResult<S>)> {
    Law::ALL
        .into_iter()
        .map(|l| (l, run(l, sys, max_iter)))
        .collect()
}

/// Whether two velocity vectors are equal (every difference decided zero; `None` when a
/// difference's sign is undecided, with the first undecided quantity) and the largest
/// |difference| of the decided components.
pub struct Difference<S> {
    pub equal: Option<bool>,
    pub max: Option<S>,
    pub undecided: Option<Undecided>,
}

/// |a − b| componentwise, decided.
pub fn difference<S: Scalar>(a: &[S], b: &[S]) -> Difference<S> {
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
        let larger = match &out.max {
            None => true,
            Some(m) => crate::arith::decide(&d.sub_r(m), "|difference|") == Ok(Sign::Positive),
        };
        if larger {
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

/// Whether two laws give the same outcomes (each outcome of `a` found among `b`'s and
/// as many), decided through `sign()`, with the largest distance to the nearest.
pub fn agree<S: Scalar>(
    a: &[Vector<S>],
    b: &[Vector<S>],
) -> (Option<bool>, Option<S>, Option<Undecided>) {
    let mut all_equal = Some(a.len() == b.len());
    let mut worst: Option<S> = None;
    let mut undecided = None;
    for x in a {
        let mut found = Some(false);
        let mut nearest: Option<S> = None;
        for y in b {
            let d = difference(x, y);
            found = or3(found, d.equal);
            if undecided.is_none() {
                undecided = d.undecided;
            }
            if let Some(d) = d.max {
                let closer = match &nearest {
                    None => true,
                    Some(n) => {
                        crate::arith::decide(&d.sub_r(n), "|difference|") == Ok(Sign::Negative)
                    }
                };
                if closer {
                    nearest = Some(d);
                }
            }
        }
        all_equal = and3(all_equal, found);
        if let Some(n) = nearest {
            let farther = match &worst {
                None => true,
                Some(w) => crate::arith::decide(&n.sub_r(w), "|difference|") == Ok(Sign::Positive),
            };
            if farther {
                worst = Some(n);
            }
        }
    }
    (all_equal, worst, undecided)
}

/// The agreement table of every pair of laws that apply.
pub fn agreement<S: Scalar>(rows: &[(Law, LawResult<S>)]) -> Vec<AgreementRow> {
    let ok: Vec<(Law, &LawOutcome<S>)> = rows
        .iter()
        .filter_map(|(l, r)| r.as_ref().ok().map(|o| (*l, o)))
        .collect();
    let mut out = Vec::new();
    for (i, (la, a)) in ok.iter().enumerate() {
        for (lb, b) in &ok[i + 1..] {
            let (agree, max, undecided) = agree(&a.outcomes, &b.outcomes);
            out.push(AgreementRow {
                laws: [la.name(), lb.name()],
                agree,
                max_difference: max.as_ref().map(Scalar::num),
                undecided: if agree.is_none() { undecided } else { None },
            });
        }
    }
    out
}

/// ½ q̇ᵀMq̇.
pub fn energy<S: Scalar>(sys: &System<S>, v: &[S]) -> Result<S, LawError> {
    Ok(sys.mass.inner(v, v).checked_div(&v[0].lift_i64(2))?)
}

/// M q̇.
pub fn momentum<S: Scalar>(sys: &System<S>, v: &[S]) -> Vector<S> {
    sys.mass.apply(v)
}

/// The part of the momentum change M(q̇⁺ − q̇⁻) that no contact impulse can produce: its
/// g-orthogonal projection off span{∇φ_i} (zero for every law; a simulator's drift in
/// the momenta the contacts do not touch).
pub fn momentum_defect<S: Scalar>(sys: &System<S>, v: &[S]) -> Result<Vector<S>, LawError> {
    let dp: Vector<S> = momentum(sys, v)
        .iter()
        .zip(momentum(sys, &sys.velocity))
        .map(|(a, b)| a.sub_r(&b))
        .collect();
    let c = Contacts::new(sys.mass.clone(), sys.normals.clone())?;
    c.plastic(&dp)
}
