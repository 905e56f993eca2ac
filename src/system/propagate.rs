//! `impactkit propagate`: the propagative model on inputs given as expressions.

use crate::arith::backend::{Backend, RunScalar};
use crate::arith::{MpInterval, Scalar, Sign};
use crate::law::propagative::{inelastic, minimal_sequences, theorem1_ratio, Contacts};
use crate::law::LawError;
use crate::linalg::SymMatrix;
use crate::report::nums;
use crate::report::propagate::{PropagateReport, Uniqueness};
use num_rational::BigRational;

pub use super::SpecError;
use super::{input, list};
use crate::input::caps;

/// A propagate run as the command line states it.
#[derive(Clone, Debug)]
///
/// # Example
///
/// ```
/// use impactkit::arith::backend::Backend;
/// use impactkit::system::propagate::PropagateSpec;
/// let spec = PropagateSpec {
///     masses: "1,1".into(),
///     normals: "sin(pi/16),-cos(pi/16);sin(pi/16),cos(pi/16)".into(),
///     momentum: "-1,0".into(), restitution: None, max_depth: 12,
/// };
/// let r = spec.report(Backend::Algebraic).unwrap();
/// assert_eq!(r.unique, Some(true));
/// assert_eq!(r.outcomes[0].iter().map(|n| n.exact_expr().unwrap()).collect::<Vec<_>>(), ["1", "0"]);
/// ```
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

    /// R of (16) from `--eps` on backend `S`, checked to lie in [0, 1].
    fn restitution<S: Scalar>(&self, ctx: &S::Ctx) -> Result<Option<S>, SpecError> {
        let Some(src) = &self.restitution else {
            return Ok(None);
        };
        let r: S = crate::input::value(src, "--eps", ctx)?;
        let lo = crate::law::decide(&r, "--eps").map_err(|e| input("--eps", e.to_string()))?;
        let hi = crate::law::decide(&(r.one_like() - &r), "--eps")
            .map_err(|e| input("--eps", e.to_string()))?;
        if lo == Sign::Negative || hi == Sign::Negative {
            return Err(input("--eps", "R must lie in [0, 1]"));
        }
        Ok(Some(r))
    }

    /// The outcome of every sequence in `seqs`: p Γ(w₁)⋯Γ(w_n) (14), or with `--eps R`
    /// the inelastic outcome (17) R p_e + (1 − R) p_p with the plastic impact that never
    /// pulls ([`Contacts::plastic_complementary`]).
    fn outcomes_in<S: Scalar>(
        &self,
        ctx: &S::Ctx,
        seqs: &[Vec<usize>],
    ) -> Result<Vec<Vec<S>>, SpecError> {
        let (c, p) = self.build::<S>(ctx)?;
        let r = self.restitution::<S>(ctx)?;
        let plastic = match r {
            Some(_) => Some(c.plastic_complementary(&p)?.momentum),
            None => None,
        };
        seqs.iter()
            .map(|s| {
                let e = c.apply_sequence(&p, s)?;
                Ok(match (&r, &plastic) {
                    (Some(r), Some(pl)) => inelastic(&e, pl, r),
                    _ => e,
                })
            })
            .collect()
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
        let r = self.restitution::<S>(ctx)?;
        let seqs = minimal_sequences(&c, &p, self.max_depth).map_err(|e| match e {
            LawError::Domain(m) => input(
                "--max-steps",
                format!("{m}: lower --max-steps (the longest sequence) or use fewer contacts"),
            ),
            other => SpecError::Law(other),
        })?;
        let plastic = c.plastic_complementary(&p)?;
        let results: Vec<Vec<S>> = match &r {
            Some(r) => seqs
                .iter()
                .map(|(_, e)| inelastic(e, &plastic.momentum, r))
                .collect(),
            None => seqs.iter().map(|(_, e)| e.clone()).collect(),
        };
        let indices: Vec<Vec<usize>> = seqs.iter().map(|(s, _)| s.clone()).collect();
        let eq = self.certified_equality(&indices);
        let classes = eq.classes();
        let bound = if c.normals.len() == 2 {
            let (ci, _) = self.build::<MpInterval>(&128)?;
            Some(theorem1_ratio(&ci, 0, 1)?.num())
        } else {
            None
        };
        Ok(PropagateReport {
            arith: backend.to_string(),
            sequences: indices
                .iter()
                .map(|s| s.iter().map(|i| i + 1).collect())
                .collect(),
            outcomes: classes.iter().map(|&k| nums(&results[k])).collect(),
            unique: eq.unique(),
            uniqueness: Uniqueness {
                certified_by: eq.certified_by.clone(),
                reason: eq.undecided_reason(),
            },
            longest: seqs.iter().map(|(s, _)| s.len()).max().unwrap_or(0),
            bound,
            plastic: nums(&plastic.momentum),
            plastic_released: plastic.released.iter().map(|i| i + 1).collect(),
        })
    }

    /// Which outcomes of `seqs` are equal, decided on the certified ladder
    /// ([`crate::certify::ladder`]) whatever `--arith` is: intervals at rising precision
    /// decide "different" (an enclosure of a difference excludes 0), and only an exact
    /// backend (`exact` for rational inputs, `quadratic` for inputs in one Q(√d),
    /// `algebraic` for inputs in one number field such as Q(cos(π/16))) decides
    /// "equal". Never a floating-point comparison; a pair no rung decides stays undecided.
    fn certified_equality(&self, seqs: &[Vec<usize>]) -> Equality {
        let k = seqs.len();
        let mut eq = Equality {
            rel: vec![vec![None; k]; k],
            certified_by: None,
            widest: None,
            skipped: Vec::new(),
        };
        for a in 0..k {
            eq.rel[a][a] = Some(true);
        }
        if eq.all_decided() {
            return eq;
        }
        struct Job<'a> {
            spec: &'a PropagateSpec,
            seqs: &'a [Vec<usize>],
            rel: &'a [Vec<Option<bool>>],
        }
        impl RunScalar for Job<'_> {
            type Out = Result<Vec<(usize, usize, Result<bool, Option<BigRational>>)>, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                let out = self.spec.outcomes_in::<S>(ctx, self.seqs)?;
                let mut found = Vec::new();
                for a in 0..out.len() {
                    for b in a + 1..out.len() {
                        if self.rel[a][b].is_none() {
                            found.push((a, b, compare(&out[a], &out[b])));
                        }
                    }
                }
                Ok(found)
            }
        }
        for backend in crate::certify::ladder(crate::certify::DEFAULT_MAX_BITS) {
            let job = Job {
                spec: self,
                seqs,
                rel: &eq.rel,
            };
            match backend.run(job) {
                Ok(found) => {
                    let bits = match backend {
                        Backend::Interval => Some(53),
                        Backend::MpInterval(b) => Some(b),
                        _ => None,
                    };
                    let mut widest: Option<(usize, usize, BigRational)> = None;
                    for (a, b, r) in found {
                        match r {
                            Ok(equal) => eq.set(a, b, equal),
                            Err(Some(w)) => {
                                if widest.as_ref().is_none_or(|(_, _, v)| w > *v) {
                                    widest = Some((a, b, w));
                                }
                            }
                            Err(None) => {}
                        }
                    }
                    eq.close();
                    if let (Some(bits), Some((a, b, w))) = (bits, widest) {
                        if eq.rel[a][b].is_none() {
                            eq.widest = Some((a, b, w, bits));
                        }
                    }
                    if eq.all_decided() {
                        eq.certified_by = Some(backend.to_string());
                        return eq;
                    }
                }
                Err(SpecError::Input(e)) => eq.skipped.push((backend.to_string(), e.reason)),
                Err(SpecError::Law(e)) => eq.skipped.push((backend.to_string(), e.to_string())),
            }
        }
        eq
    }
}

/// The difference of two outcomes: `Ok(equal)` when decided (every component `Zero`,
/// or one of them not), otherwise `Err` with a rational bound on the largest |difference|
/// where the backend encloses it.
fn compare<S: Scalar>(a: &[S], b: &[S]) -> Result<bool, Option<BigRational>> {
    use num_traits::Signed;
    let mut all_zero = true;
    let mut widest: Option<BigRational> = None;
    for (x, y) in a.iter().zip(b) {
        let d = x.sub_r(y);
        match d.sign() {
            Sign::Zero => {}
            Sign::Positive | Sign::Negative => return Ok(false),
            Sign::Unknown => {
                all_zero = false;
                if let Some((lo, hi)) = d.rational_bounds() {
                    let m = lo.abs().max(hi.abs());
                    if widest.as_ref().is_none_or(|w| m > *w) {
                        widest = Some(m);
                    }
                }
            }
        }
    }
    if all_zero {
        Ok(true)
    } else {
        Err(widest)
    }
}

/// The equality relation between the outcomes of the minimal sequences, as far as the
/// certified ladder decided it.
struct Equality {
    /// `rel[a][b]`: `Some(true)` equal, `Some(false)` different, `None` undecided.
    rel: Vec<Vec<Option<bool>>>,
    /// The rung that decided the last pair.
    certified_by: Option<String>,
    /// The undecided pair with the widest enclosure of a difference at the highest
    /// precision tried: (a, b, bound on |difference|, bits).
    widest: Option<(usize, usize, BigRational, u32)>,
    /// Rungs that could not run: (backend, why).
    skipped: Vec<(String, String)>,
}

impl Equality {
    fn set(&mut self, a: usize, b: usize, equal: bool) {
        self.rel[a][b] = Some(equal);
        self.rel[b][a] = Some(equal);
    }

    /// Closes the relation: equality is transitive, and a ≠ b with b = c gives a ≠ c.
    fn close(&mut self) {
        let k = self.rel.len();
        loop {
            let mut changed = false;
            for a in 0..k {
                for b in 0..k {
                    for c in 0..k {
                        let implied = match (self.rel[a][b], self.rel[b][c]) {
                            (Some(true), Some(x)) | (Some(x), Some(true)) => Some(x),
                            _ => None,
                        };
                        if let (Some(x), None) = (implied, self.rel[a][c]) {
                            self.set(a, c, x);
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                return;
            }
        }
    }

    fn all_decided(&self) -> bool {
        self.rel.iter().flatten().all(Option::is_some)
    }

    /// One representative sequence per outcome: the first of each class of decided
    /// equal outcomes (undecided pairs stay apart).
    fn classes(&self) -> Vec<usize> {
        (0..self.rel.len())
            .filter(|&b| (0..b).all(|a| self.rel[a][b] != Some(true)))
            .collect()
    }

    /// Whether every minimal sequence gives the same outcome: `None` when undecided
    /// (no sequence within the depth: not unique, as before).
    fn unique(&self) -> Option<bool> {
        let k = self.rel.len();
        if k == 0 {
            Some(false)
        } else if (0..k).all(|b| self.rel[0][b] == Some(true)) {
            Some(true)
        } else if self.rel.iter().flatten().any(|r| *r == Some(false)) {
            Some(false)
        } else {
            None
        }
    }

    /// Why uniqueness is undecided, with the enclosure of the largest difference.
    fn undecided_reason(&self) -> Option<String> {
        if self.unique().is_some() {
            return None;
        }
        let classes = self.classes();
        let index = |s: usize| classes.iter().position(|&c| c == s).map_or(0, |i| i + 1);
        let agree = match &self.widest {
            Some((a, b, w, bits)) => format!(
                "outcomes {} and {} agree to within {} at {bits} bits",
                index(*a),
                index(*b),
                power_of_ten_above(w)
            ),
            None => "no enclosure separates the outcomes".into(),
        };
        let exact: Vec<String> = self
            .skipped
            .iter()
            .filter(|(b, _)| matches!(b.as_str(), "exact" | "quadratic" | "algebraic"))
            .map(|(b, why)| {
                let why = why.split(" (use ").next().unwrap_or(why);
                format!("{b}: {why}")
            })
            .collect();
        Some(if exact.is_empty() {
            format!("{agree}; equality needs exact arithmetic")
        } else {
            format!(
                "{agree}; equality needs exact arithmetic, which cannot run here ({})",
                exact.join("; ")
            )
        })
    }
}

/// The smallest `1e{k}` with |w| ≤ 10^k, from the decimal lengths of w's numerator and
/// denominator (an upper bound, never below |w|).
fn power_of_ten_above(w: &BigRational) -> String {
    use num_traits::Zero;
    if w.is_zero() {
        return "0".into();
    }
    let digits = |n: &num_bigint::BigInt| n.magnitude().to_string().len() as i64;
    // |n| < 10^dn and d ≥ 10^(dd − 1): |n/d| < 10^(dn − dd + 1)
    let mut k = digits(w.numer()) - digits(w.denom()) + 1;
    let w = num_traits::Signed::abs(w);
    while w <= pow10(k - 1) {
        k -= 1;
    }
    format!("1e{k}")
}

/// 10^k as a rational.
fn pow10(k: i64) -> BigRational {
    let p = BigRational::from_integer(num_bigint::BigInt::from(10).pow(k.unsigned_abs() as u32));
    if k >= 0 {
        p
    } else {
        p.recip()
    }
}
