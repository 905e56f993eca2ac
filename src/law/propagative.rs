//! The propagative impact model of Seghete & Murphey
//! (`seghete-murphey-propagative-impact.txt`): reflections of the momentum covector in
//! the kinetic metric, minimal sequences of reset maps (Definition 1), plastic and
//! inelastic outcomes, and the uniqueness results of Sect. V.
//!
//! Momenta p = q̇ᵀM and contact normals u = Dφ are covectors (rows). The kinetic inner
//! product is ⟨a, b⟩_g = a M⁻¹ bᵀ (5); p is feasible for u when ⟨p, u⟩_g ≥ 0 (6).

use super::{decide, LawError};
use crate::arith::{Scalar, Sign};
use crate::linalg::{add, dot, scale, solve, sub, LinalgError, SymMatrix, Vector};
use std::rc::Rc;

/// The kinetic metric on covectors, with the contact normals.
#[derive(Clone, Debug)]
pub struct Contacts<S> {
    pub mass: SymMatrix<S>,
    pub normals: Vec<Vector<S>>,
    /// M⁻¹uᵀ for every normal.
    dual: Vec<Vector<S>>,
}

impl<S: Scalar> Contacts<S> {
    /// Checks M (positive definite) and the normals (length, nonzero).
    pub fn new(mass: SymMatrix<S>, normals: Vec<Vector<S>>) -> Result<Self, LawError> {
        let n = mass.dim();
        if n == 0 || normals.is_empty() {
            return Err(LawError::Domain(
                "need at least one coordinate and one normal".into(),
            ));
        }
        mass.check_positive_definite()?;
        let mut dual = Vec::new();
        for (i, u) in normals.iter().enumerate() {
            if u.len() != n {
                return Err(LawError::Domain(format!(
                    "normal {} has {} components, the system has {n}",
                    i + 1,
                    u.len()
                )));
            }
            let d = mass.solve(u)?;
            // |u|²_g ≥ 0 (M is positive definite), 0 only for u = 0; on the symbolic
            // backend a nonzero rational function of undecided sign on a cell is accepted
            // (a quantity that divides by it is undefined only where u = 0)
            let norm2 = dot(u.iter(), d.iter());
            if !(norm2.sign() == Sign::Unknown && norm2.nonzero_in_field())
                && decide(&norm2, "|u|_g^2")? != Sign::Positive
            {
                return Err(LawError::Domain(format!("normal {} is zero", i + 1)));
            }
            dual.push(d);
        }
        Ok(Contacts {
            mass,
            normals,
            dual,
        })
    }

    /// Whether the normals are linearly independent, as (11) needs to invert the Gram
    /// matrix G_ab = ⟨u_a, u_b⟩_g: G positive definite, decided pivot by pivot (an
    /// undecided pivot is reported).
    pub fn check_independent(&self) -> Result<(), LawError> {
        let m = self.normals.len();
        let upper = (0..m)
            .map(|a| {
                (a..m)
                    .map(|b| dot(self.normals[a].iter(), self.dual[b].iter()))
                    .collect()
            })
            .collect();
        match SymMatrix::from_upper(upper)?.check_positive_definite() {
            // rounded arithmetic may lose a pivot to cancellation or overflow (masses of
            // 1e-300): it cannot tell dependence apart from rounding
            Err(LinalgError::Domain(_)) if S::kind() == crate::arith::Kind::Float => {
                Err(LawError::Domain(format!(
                    "the Gram matrix of (11) is singular in {} (the normals are dependent, or a pivot was lost to rounding or overflow); an exact arithmetic decides it",
                    S::NAME
                )))
            }
            Err(LinalgError::Domain(_)) => Err(LawError::Domain(
                "the normals are linearly dependent (the Gram matrix of (11) is singular)".into(),
            )),
            other => Ok(other?),
        }
    }

    /// ⟨a, b⟩_g = a M⁻¹ bᵀ, eq. (5a).
    pub fn inner(&self, a: &[S], b: &[S]) -> Result<S, LawError> {
        let mb = self.mass.solve(b)?;
        Ok(dot(a.iter(), mb.iter()))
    }

    /// ⟨p, u_i⟩_g.
    pub fn rate(&self, p: &[S], i: usize) -> S {
        dot(p.iter(), self.dual[i].iter())
    }

    /// p Γ(u_i) = p − 2⟨p, u_i⟩_g/‖u_i‖²_g · u_i, eq. (7).
    pub fn reflect(&self, p: &[S], i: usize) -> Result<Vector<S>, LawError> {
        let u = &self.normals[i];
        let nn = dot(u.iter(), self.dual[i].iter());
        let c = self.rate(p, i).checked_div(&nn)?;
        Ok(sub(p, &scale(&(c.lift_i64(2) * &c), u)))
    }

    /// Γ(u_i) = I − 2 M⁻¹uᵀu/‖u‖²_g as a matrix acting on row covectors (p ↦ pΓ).
    pub fn gamma_matrix(&self, i: usize) -> Result<Vec<Vector<S>>, LawError> {
        let n = self.mass.dim();
        let u = &self.normals[i];
        let d = &self.dual[i];
        let nn = dot(u.iter(), d.iter());
        let zero = nn.zero_like();
        (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| {
                        let id = if r == c { nn.one_like() } else { zero.clone() };
                        Ok(id - &(nn.lift_i64(2) * &d[r] * &u[c]).checked_div(&nn)?)
                    })
                    .collect()
            })
            .collect()
    }

    /// Feasible for every normal: ⟨p, u_i⟩_g ≥ 0, eq. (6).
    pub fn feasible(&self, p: &[S]) -> Result<bool, LawError> {
        for i in 0..self.normals.len() {
            if rate_sign(self, p, i)? == Sign::Negative {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// p Γ(w₁)⋯Γ(w_n), eq. (14).
    pub fn apply_sequence(&self, p: &[S], seq: &[usize]) -> Result<Vector<S>, LawError> {
        let mut q = p.to_vec();
        for &i in seq {
            q = self.reflect(&q, i)?;
        }
        Ok(q)
    }

    /// The Gram matrix G_ab = ⟨u_a, u_b⟩_g of the normals.
    pub fn gram(&self) -> Vec<Vector<S>> {
        let m = self.normals.len();
        (0..m)
            .map(|a| {
                (0..m)
                    .map(|b| dot(self.normals[a].iter(), self.dual[b].iter()))
                    .collect()
            })
            .collect()
    }

    /// The plastic outcome (11) as printed: the g-orthogonal projection of p onto the
    /// covectors orthogonal to every normal, p − Σλ_j u_j with G λ = (⟨p, u_j⟩_g).
    ///
    /// It holds *every* listed contact, whatever the sign of λ_j: where a contact is
    /// already separating (⟨p, u_j⟩_g > 0) it may need λ_j > 0, an impulse that pulls
    /// (the disk leaving one wall of a corner is pulled back onto it). The impact that
    /// never pulls is [`Contacts::plastic_complementary`]; the two agree when every
    /// multiplier of (11) pushes. Kept as printed because the claims check (11) itself.
    pub fn plastic(&self, p: &[S]) -> Result<Vector<S>, LawError> {
        let rhs = (0..self.normals.len()).map(|a| self.rate(p, a)).collect();
        let lambda = solve(self.gram(), rhs)?;
        let mut out = p.to_vec();
        for (l, u) in lambda.iter().zip(&self.normals) {
            out = sub(&out, &scale(l, u));
        }
        Ok(out)
    }

    /// The plastic impact that never pulls: p_p = p + Σ z_j u_j with impulses z ≥ 0,
    /// post-impact rates w_i = ⟨p_p, u_i⟩_g ≥ 0 and z_i w_i = 0 — the linear
    /// complementarity problem LCP(q, G) with q_i = ⟨p, u_i⟩_g and the Gram matrix G
    /// (positive definite for independent normals, so the solution is unique), solved
    /// exactly by [`crate::linalg::lcp::solve_lcp`].
    ///
    /// Why: Seghete–Murphey's (11) projects onto the intersection of *all* contact
    /// tangent spaces, which needs a negative impulse on a contact the momentum is
    /// leaving; a plastic impact ends every contact it acts on with zero normal rate and
    /// releases the others. Where all of (11)'s multipliers push, this is (11). The
    /// inelastic outcome (17), p⁺ = R p_e + (1 − R) p_p, uses this one. An undecidable
    /// sign (enclosures) is reported.
    pub fn plastic_complementary(&self, p: &[S]) -> Result<PlasticOutcome<S>, LawError> {
        let q: Vector<S> = (0..self.normals.len()).map(|a| self.rate(p, a)).collect();
        let sol = crate::linalg::lcp::solve_lcp(&self.gram(), &q)?;
        let mut momentum = p.to_vec();
        for (z, u) in sol.z.iter().zip(&self.normals) {
            momentum = add(&momentum, &scale(z, u));
        }
        let released = (0..q.len()).filter(|&i| !sol.active[i]).collect();
        Ok(PlasticOutcome {
            momentum,
            impulses: sol.z,
            released,
        })
    }
}

/// The plastic impact that never pulls ([`Contacts::plastic_complementary`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PlasticOutcome<S> {
    /// p_p = p + Σ z_j u_j.
    pub momentum: Vector<S>,
    /// The impulses z_j ≥ 0 on the normals.
    pub impulses: Vector<S>,
    /// The contacts the plastic impact releases (0-based): no impulse, and a
    /// non-negative rate ⟨p_p, u_i⟩_g afterwards (where (11) would hold them).
    pub released: Vec<usize>,
}

/// The inelastic outcome (17): p⁺ = α p_e + (1 − α) p_p. With R defined by (16),
/// R² = 1 − ΔE/E_p, and ⟨p_p, p_e⟩_g = ‖p_p‖²_g (18), the energy of p⁺ gives
/// ΔE/E_p = 1 − α², so α = R. (The paper prints α = √(1 − R²), which would make R = 0
/// elastic and R = 1 plastic, the opposite of its own definition (16).)
pub fn inelastic<S: Scalar>(elastic: &[S], plastic: &[S], r: &S) -> Vector<S> {
    add(&scale(r, elastic), &scale(&(r.one_like() - r), plastic))
}

/// The decided sign of ⟨p, u_i⟩_g, eq. (6), or the undecided quantity named
/// `<p, u{i+1}>_g` (the name written only then: the searches ask this per reflection).
fn rate_sign<S: Scalar>(c: &Contacts<S>, p: &[S], i: usize) -> Result<Sign, LawError> {
    let r = c.rate(p, i);
    match r.sign() {
        Sign::Unknown => decide(&r, &format!("<p, u{}>_g", i + 1)),
        s => Ok(s),
    }
}

/// A sequence of normal indices with the momentum it produces.
pub type Sequenced<S> = (Vec<usize>, Vector<S>);

/// The minimal sequences of Definition 1 for momentum `p`, up to length `max_depth`:
/// the sequence makes p feasible for every normal, and no proper subsequence does.
/// If p is feasible, the only minimal sequence is the empty one.
///
/// The search walks the sequences depth first and carries, with each sequence W, the
/// momenta P(W) of all its proper subsequences (each computed once, from its parent's:
/// P(W w) = P(W) ∪ {p W} ∪ {s Γ(w) : s ∈ P(W)}). It keeps the invariant "W and every
/// proper subsequence of W are infeasible", which makes every pruning below exact — the
/// result is the set an exhaustive search of Definition 1 gives:
///
/// - a W w with a feasible s Γ(w), s ∈ P(W), is not minimal (s w is a feasible proper
///   subsequence), and neither is any extension of it (s w stays a proper
///   subsequence): the whole branch is cut, at the first such s;
/// - a feasible W w is minimal (its proper subsequences are those of W, infeasible by
///   the invariant, and the s w just checked), and no extension is: it is a leaf;
/// - Lemma 1: w equal to the last member of W is skipped (Γ(w)Γ(w) = I, so dropping
///   both leaves the momentum unchanged);
/// - a w with ⟨p W, w⟩_g decided zero is skipped (`sign()` is `Zero`; an undecided
///   sign is searched): Γ(w) is then the identity on p W
///   (eq. (7)), so in any W w V the proper subsequence W V produces the same momenta
///   after every step; if W w V were feasible, W V would be too, and W w V is never
///   minimal.
///
/// # Example
///
/// ```
/// use impactkit::arith::Rational;
/// use impactkit::law::propagative::{minimal_sequences, Contacts};
/// use impactkit::linalg::SymMatrix;
/// let r = |n| Rational::new(n, 1);
/// let mass = SymMatrix::diagonal(&[r(1), r(1), r(1)]);
/// let c = Contacts::new(mass, vec![vec![r(-1), r(1), r(0)], vec![r(0), r(-1), r(1)]]).unwrap();
/// let found = minimal_sequences(&c, &[r(1), r(0), r(0)], 12).unwrap();
/// assert_eq!(found.len(), 1);
/// let (seq, p) = &found[0];
/// assert_eq!(seq, &vec![0, 1]);
/// assert_eq!(p.iter().map(|x| x.to_string()).collect::<Vec<_>>(), ["0", "0", "1"]);
/// ```
pub fn minimal_sequences<S: Scalar>(
    c: &Contacts<S>,
    p: &[S],
    max_depth: usize,
) -> Result<Vec<Sequenced<S>>, LawError> {
    if c.feasible(p)? {
        return Ok(vec![(Vec::new(), p.to_vec())]);
    }
    let mut work = Work::new();
    let mut out = Vec::new();
    // (W, p W, P(W)): the momenta of the proper subsequences of W (shared between the
    // nodes that keep them, not copied)
    type Node<S> = (Vec<usize>, Vector<S>, Vec<Rc<Vector<S>>>);
    let mut stack: Vec<Node<S>> = vec![(Vec::new(), p.to_vec(), Vec::new())];
    while let Some((seq, q, subs)) = stack.pop() {
        if seq.len() >= max_depth {
            continue;
        }
        let q = Rc::new(q);
        // a reflection costs more as its numbers grow (one unit per 100 digits, exact or
        // MPFR, `Scalar::work_digits`) and
        // with the dimension (one unit per 8 coordinates: every momentum kept on the
        // stack is a vector of that length)
        let per_coordinates = (q.len() as u64).div_ceil(8).max(1);
        let cost = (1 + q.iter().map(Scalar::work_digits).sum::<u64>() / 100) * per_coordinates;
        for i in 0..c.normals.len() {
            if seq.last() == Some(&i) {
                continue; // Lemma 1
            }
            if c.rate(&q, i).sign() == Sign::Zero {
                continue; // Γ(u_i) is the identity here (an undecided sign is not skipped)
            }
            let mut next = seq.clone();
            next.push(i);
            work.spend(cost)?;
            let r = c.reflect(&q, i)?;
            // the momenta of the proper subsequences s u_i, s ∈ P(W): stop at a feasible one
            let mut next_subs = Vec::with_capacity(2 * subs.len() + 1);
            let mut cut = false;
            for s in &subs {
                work.spend(cost)?;
                let t = c.reflect(s, i)?;
                if c.feasible(&t)? {
                    cut = true;
                    break;
                }
                next_subs.push(Rc::new(t));
            }
            if cut {
                continue;
            }
            if c.feasible(&r)? {
                out.push((next, r));
            } else {
                next_subs.extend(subs.iter().cloned());
                next_subs.push(Rc::clone(&q));
                stack.push((next, r, next_subs));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// The reflections a search may still compute, of its limit: this thread's cap
/// ([`crate::budget::with_reflection_cap`], `laws --max-reflections`) or
/// [`crate::input::caps::REFLECTIONS`]. A deterministic bound on its work, whatever the
/// depth and the number of contacts.
struct Work {
    left: u64,
    limit: u64,
    /// The option that raises the limit, when the cap is the caller's.
    option: Option<&'static str>,
}

impl Work {
    fn new() -> Work {
        let cap = crate::budget::reflection_cap();
        let limit = cap.unwrap_or(crate::input::caps::REFLECTIONS);
        Work {
            left: limit,
            limit,
            option: cap.map(|_| crate::input::caps::LAWS_REFLECTIONS.option),
        }
    }

    fn spend(&mut self, n: u64) -> Result<(), LawError> {
        crate::budget::checkpoint();
        if self.left < n {
            let option = self.option.map(|o| format!(", {o}")).unwrap_or_default();
            return Err(LawError::Domain(format!(
                "the search of minimal sequences needs more than {} reflections (its work limit{option}; a reflection counts one more per 100 digits of its numbers and per 8 coordinates)",
                self.limit
            )));
        }
        self.left -= n;
        Ok(())
    }
}

/// The distinct outcomes of a set of sequences (equal when every component difference is
/// decided zero; an undecidable comparison is reported).
pub fn distinct_outcomes<S: Scalar>(
    results: &[(Vec<usize>, Vector<S>)],
) -> Result<Vec<Vector<S>>, LawError> {
    let mut out: Vec<Vector<S>> = Vec::new();
    for (_, v) in results {
        let mut seen = false;
        for w in &out {
            let mut equal = true;
            for (a, b) in v.iter().zip(w) {
                if decide(&a.sub_r(b), "a difference of outcomes")? != Sign::Zero {
                    equal = false;
                    break;
                }
            }
            if equal {
                seen = true;
                break;
            }
        }
        if !seen {
            out.push(v.clone());
        }
    }
    Ok(out)
}

/// π/γ for two normals, γ = arcsin⟨r, u⟩_g, r = (u + v)/‖u + v‖_g with u, v normalised
/// (Lemma 4, Theorem 1). With c = ⟨u, v⟩_g/(‖u‖_g‖v‖_g), ⟨r, u⟩_g = √((1 + c)/2) and
/// γ = atan(√((1 + c)/(1 − c))). Needs π and atan: enclosure or float backends.
pub fn theorem1_ratio<S: Scalar>(c: &Contacts<S>, a: usize, b: usize) -> Result<S, LawError> {
    let (u, v) = (&c.normals[a], &c.normals[b]);
    let uu = c.inner(u, u)?;
    let vv = c.inner(v, v)?;
    let uv = c.inner(u, v)?;
    let cos = uv.checked_div(&uu.mul_r(&vv).sqrt()?)?;
    let one = cos.one_like();
    let gamma = one
        .add_r(&cos)
        .checked_div(&one.sub_r(&cos))?
        .sqrt()?
        .atan()?;
    Ok(S::pi(&cos.ctx())?.checked_div(&gamma)?)
}

/// Lemma 7: Γ(u)Γ(v) = Γ(v)Γ(u) (decided entrywise) and whether ⟨u, v⟩_g = 0.
pub fn lemma7<S: Scalar>(c: &Contacts<S>, a: usize, b: usize) -> Result<(bool, bool), LawError> {
    let ga = c.gamma_matrix(a)?;
    let gb = c.gamma_matrix(b)?;
    let n = ga.len();
    let mut commute = true;
    for i in 0..n {
        for j in 0..n {
            let ab = dot(
                ga[i].iter(),
                gb.iter().map(|row| &row[j]).collect::<Vec<_>>().into_iter(),
            );
            let ba = dot(
                gb[i].iter(),
                ga.iter().map(|row| &row[j]).collect::<Vec<_>>().into_iter(),
            );
            if decide(&ab.sub_r(&ba), "Γ(u)Γ(v) − Γ(v)Γ(u)")? != Sign::Zero {
                commute = false;
            }
        }
    }
    let orth = decide(&c.inner(&c.normals[a], &c.normals[b])?, "<u, v>_g")? == Sign::Zero;
    Ok((commute, orth))
}

/// Theorem 3's condition ⟨u, v⟩_g = −½ for unit normals, decided without square roots:
/// ⟨u, v⟩_g < 0 and 4⟨u, v⟩²_g = ‖u‖²_g‖v‖²_g.
pub fn theorem3_condition<S: Scalar>(
    c: &Contacts<S>,
    a: usize,
    b: usize,
) -> Result<bool, LawError> {
    let (u, v) = (&c.normals[a], &c.normals[b]);
    let uv = c.inner(u, v)?;
    let lhs = uv.lift_i64(4).mul_r(&uv.square());
    let rhs = c.inner(u, u)?.mul_r(&c.inner(v, v)?);
    Ok(decide(&uv, "<u, v>_g")? == Sign::Negative
        && decide(&lhs.sub_r(&rhs), "4<u,v>^2 - |u|^2|v|^2")? == Sign::Zero)
}

/// The outcome when the impact with normal `first` is resolved first, then, as long as
/// the momentum is infeasible, the lowest-indexed violated contact other than the one
/// just resolved (for two normals: strict alternation). This is the ordering behind
/// p_ab and p_ba of Seghete–Murphey Sect. VII-A. Returns the sequence and the outcome;
/// A feasible `p` is left alone (the empty sequence). `Domain` if `first` is not violated
/// by an infeasible `p`, or if `max_depth` reflections do not reach a feasible momentum.
pub fn ordered_outcome<S: Scalar>(
    c: &Contacts<S>,
    p: &[S],
    first: usize,
    max_depth: usize,
) -> Result<Sequenced<S>, LawError> {
    if c.feasible(p)? {
        return Ok((Vec::new(), p.to_vec()));
    }
    if decide(&c.rate(p, first), "<p, u_first>_g")? != Sign::Negative {
        return Err(LawError::Domain(format!(
            "contact {} is not violated by the momentum",
            first + 1
        )));
    }
    let mut seq = vec![first];
    let mut q = c.reflect(p, first)?;
    while !c.feasible(&q)? {
        if seq.len() >= max_depth {
            return Err(LawError::Domain(format!(
                "no feasible momentum after {max_depth} reflections"
            )));
        }
        let last = *seq.last().unwrap_or(&first);
        let mut next = None;
        for i in (0..c.normals.len()).filter(|&i| i != last) {
            if rate_sign(c, &q, i)? == Sign::Negative {
                next = Some(i);
                break;
            }
        }
        let i = next
            .ok_or_else(|| LawError::Domain("only the contact just resolved is violated".into()))?;
        q = c.reflect(&q, i)?;
        seq.push(i);
    }
    Ok((seq, q))
}

/// One pass over the contacts in the given `order`: each contact still violated when its
/// turn comes is resolved once. Theorem 2: for pairwise g-orthogonal normals the result
/// is feasible and the same for every order.
pub fn one_pass<S: Scalar>(
    c: &Contacts<S>,
    p: &[S],
    order: &[usize],
) -> Result<Sequenced<S>, LawError> {
    let mut q = p.to_vec();
    let mut seq = Vec::new();
    for &i in order {
        if rate_sign(c, &q, i)? == Sign::Negative {
            q = c.reflect(&q, i)?;
            seq.push(i);
        }
    }
    Ok((seq, q))
}

/// Whether the normals are pairwise g-orthogonal, ⟨u_i, u_j⟩_g = 0 for i ≠ j (the
/// hypothesis of Theorem 2), decided exactly where the backend is exact.
pub fn pairwise_orthogonal<S: Scalar>(c: &Contacts<S>) -> Result<bool, LawError> {
    let m = c.normals.len();
    for i in 0..m {
        for j in i + 1..m {
            let g = c.inner(&c.normals[i], &c.normals[j])?;
            if decide(&g, "<u_i, u_j>_g")? != Sign::Zero {
                return Ok(false);
            }
        }
    }
    Ok(true)
}
