//! The **Gram reduction** of a symbolic proof: from one dimension to every dimension and
//! every positive definite mass matrix.
//!
//! ```toml
//! [implication.proof]
//! domain = { m1 = "(0, inf)", m2 = "(0, inf)", m3 = "(0, inf)", u1_1 = "R", … }
//! reduction = { objects = [["u1_1", "u1_2", "u1_3"], ["p1", "p2", "p3"]], metric = "diagonal" }
//! ```
//!
//! **The lemma.** Let a law be *natural*: its outputs are built from its input vectors
//! and covectors by the metric g (inner products, the musical isomorphisms) and linear
//! combinations only, as the reflections of Seghete–Murphey (5)–(7) and the maps of
//! Clark–Bloch (5), (6), (15)–(21) are. Let the claim's conclusions compare g-inner
//! products and whole (co)vectors. A linear change of coordinates T (vectors x ↦ Tx,
//! covectors a ↦ aT⁻¹, M ↦ T⁻ᵀMT⁻¹) commutes with such a law and keeps such a
//! conclusion. Take k input objects in dimension n with a mass matrix M, and d ≥ k:
//! - n ≥ d: a g-orthonormal basis whose first d vectors span a space containing the
//!   objects (and their g-duals) carries them to objects with zero coordinates beyond d,
//!   with M = I; the law's outputs then have zero coordinates beyond d as well, and on the
//!   first d coordinates they are the law's outputs in dimension d with M = I;
//! - n < d: adding d − n g-orthonormal directions (M ⊕ I, the objects extended by 0) is
//!   the converse embedding.
//!
//! So the claim for every n and every M is the claim in dimension d with M = I for every
//! configuration of the objects. The engine checks what it can of this: every probe of
//! the claim is a natural law ([`NATURAL`]); there are k ≤ d objects of d coordinates
//! each; the identity M = I lies in the proof's domain (`diagonal`: m_i = 1; `cholesky`:
//! l_ii = 1, l_ij = 0); and every object ranges over all of R^d (each coordinate free:
//! `R` or a cone variable). With `metric = "cholesky"` an object may instead be fixed to
//! distinct coordinate covectors (e.g. dh = dq3): a general M then covers every
//! configuration in which those objects are linearly independent (the basis change that
//! makes them coordinate covectors turns M = I into a general positive definite matrix).
//! With `metric = "diagonal"` an object may instead lie along an axis of its own, its one
//! nonzero coordinate free (e.g. u1 = (a, 0, 0), u2 = (0, b, 0)): such objects are
//! g-orthogonal, and every configuration in which they are pairwise g-orthogonal and
//! nonzero is one of these (a g-orthonormal basis whose first vectors are the g-duals of
//! those objects, normalised, then the directions of the free objects, makes M = I and
//! each of those objects a multiple of a coordinate (co)vector), so the claim then covers
//! every pairwise g-orthogonal family: its hypotheses must say that they are.
//! With `metric = "diagonal"` the objects may also be in **echelon form**: the j-th object
//! of the list (j = 1, 2, …) has its coordinates after the j-th derived 0 and the others
//! free (u = (a, 0, 0), v = (b, c, 0), p free). At M = I an orthogonal change of basis
//! (Gram–Schmidt of the objects in their order, i.e. a QR decomposition) brings every
//! family there and keeps M = I, so such objects stand for every configuration. Since
//! every m_i ranges over (0, ∞), a diagonal change of coordinates (x ↦ Dx, which turns
//! M = I into a positive diagonal M) may then normalise one nonzero coordinate per axis to
//! 1 (derived `"1"`: u = (a, 0, 0), v = (1, 1, 0) stands for every pair with v not
//! g-orthogonal to u and independent of it); a coordinate derived 0 where the echelon form
//! has a free one is a special configuration (v = (0, 1, 0): g-orthogonal). The engine
//! checks that the claim's cases take every pattern of zero and nonzero values of those
//! coordinates ([`covered`]); a case may be there only to exclude configurations by its
//! hypotheses (v parallel to u), and then has no point.
//! Each case of the claim is checked with its own derived quantities.
//! That the hypotheses and conclusions compare only invariant quantities (g-inner
//! products, rates a(v), whole (co)vectors, a (co)vector ≠ 0) is the claim file's
//! statement, which its `why` names. The tests `it::reduction` check the lemma's hypothesis on the
//! implementation exactly: each declared law against random coordinate changes and the
//! embedding from dimension 3 into 5 with a non-diagonal mass matrix.

mod invariance;

use super::claim::body::{Reduction, Space};
use super::claim::Claim;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The probes whose laws are natural, with the paper's equations that make them so.
pub const NATURAL: &[(&str, &str)] = &[
    (
        "propagative",
        "Seghete–Murphey (5)–(7) and Def. 1: reset maps p Γ(u) = p − 2⟨p, u⟩_g/⟨u, u⟩_g u, built from the inner product ⟨a, b⟩_g = a M⁻¹ bᵀ and combinations of the covectors",
    ),
    (
        "char.single",
        "Pasquero rule (4): the impulse −(1 + ε)V⊥, V⊥ the g-orthogonal component of v along the constraint's gradient, built from g and the gradient",
    ),
    (
        "char.step",
        "Pasquero Sect. 3.5, rules (4)-(8): the impacted set by the signs of the rates n_i·v, the AEEV test |n_i·v| <= sigma, the impulse from the g-orthogonal components V_i (g and the gradients) and beta = g(V_J, ΣV)/|ΣV|^2",
    ),
    (
        "nh.general",
        "Clark–Bloch (5), (6), (15)–(21): P, the restitution map, the elastic map and π_Δ, built from g, the covectors dh, ω^k, their g-duals grad h, W^k and combinations",
    ),
];

/// What a claim's `proof.reduction` table says, read.
struct Spec {
    objects: Vec<Vec<String>>,
    metric: String,
    why: String,
}

fn read(spec: &Reduction) -> Result<Spec, String> {
    let objects = spec
        .objects
        .clone()
        .ok_or("proof.reduction.objects must be a list of coordinate lists")?;
    let metric = spec
        .metric
        .clone()
        .filter(|m| ["diagonal", "cholesky"].contains(&m.as_str()))
        .ok_or("proof.reduction.metric must be \"diagonal\" or \"cholesky\"")?;
    let why = spec
        .why
        .clone()
        .ok_or("proof.reduction.why must say which quantities the conclusions compare")?;
    Ok(Spec {
        objects,
        metric,
        why,
    })
}

/// The names of the metric's parameters in dimension `d`, each with the range text the
/// identity needs to lie in the domain (`(0, inf)` for a diagonal entry, `R` off it).
fn metric_params(metric: &str, d: usize) -> Vec<(String, &'static str)> {
    if metric == "diagonal" {
        return (1..=d).map(|i| (format!("m{i}"), "(0, inf)")).collect();
    }
    let mut out = Vec::new();
    for i in 1..=d {
        for j in 1..=i {
            out.push((format!("l{i}{j}"), if i == j { "(0, inf)" } else { "R" }));
        }
    }
    out
}

/// A fixed object: a coordinate covector e_j (its coordinates the derived constants 0
/// and one 1), its j.
fn coordinate_covector(object: &[String], derived: &BTreeMap<String, String>) -> Option<usize> {
    let vals: Vec<&str> = object
        .iter()
        .map(|x| derived.get(x).map(|s| s.trim()))
        .collect::<Option<_>>()?;
    let ones: Vec<usize> = (0..vals.len()).filter(|&i| vals[i] == "1").collect();
    (ones.len() == 1 && vals.iter().all(|v| *v == "0" || *v == "1")).then(|| ones[0])
}

/// An object along one axis: every coordinate a derived 0 but one, which is free (`R` or
/// a cone variable); its axis.
fn axis_object(
    object: &[String],
    derived: &BTreeMap<String, String>,
    free: impl Fn(&str) -> bool,
) -> Option<usize> {
    let zero = |x: &String| derived.get(x).is_some_and(|v| v.trim() == "0");
    let axes: Vec<usize> = (0..object.len()).filter(|&i| !zero(&object[i])).collect();
    match axes.as_slice() {
        [j] if free(&object[*j]) => Some(*j),
        _ => None,
    }
}

/// An object in echelon position `index` (0-based, in the list of objects): its
/// coordinates after the index derived 0 (at least one), the others free, or derived 1
/// (normalised by a diagonal change of coordinates) or 0 (a special configuration). The
/// axes of its coordinates derived 1, or `None` when it is not in echelon form.
fn echelon_object(
    object: &[String],
    index: usize,
    derived: &BTreeMap<String, String>,
    free: impl Fn(&str) -> bool,
) -> Option<Vec<usize>> {
    let value = |x: &String| derived.get(x).map(|v| v.trim().to_string());
    let zero = |x: &String| value(x).as_deref() == Some("0");
    let one = |x: &String| value(x).as_deref() == Some("1");
    let ok = index + 1 < object.len()
        && object[..=index]
            .iter()
            .all(|x| free(x) || zero(x) || one(x))
        && object[index + 1..].iter().all(zero);
    ok.then(|| (0..=index).filter(|&i| one(&object[i])).collect())
}

/// Whether the cases' echelon patterns (see [`check`]: per echelon coordinate `F` free,
/// `1` normalised, so nonzero, `0` zero) cover every configuration: for every choice of
/// zero or nonzero at each coordinate some case takes it. A case may be there only to
/// exclude configurations (its hypotheses false on all of them, e.g. v parallel to u).
pub fn covered(patterns: &[String], names: &[String]) -> Result<(), String> {
    let n = patterns.iter().map(String::len).max().unwrap_or(0);
    if patterns.iter().any(|p| p.len() != n) {
        return Err("the Gram reduction: the cases list different objects".into());
    }
    let fixed: Vec<usize> = (0..n)
        .filter(|&i| patterns.iter().any(|p| p.as_bytes()[i] != b'F'))
        .collect();
    if fixed.len() > 12 {
        return Err("the Gram reduction: too many normalised or zero coordinates".into());
    }
    for bits in 0..1usize << fixed.len() {
        let zero = |i: usize| {
            fixed
                .iter()
                .position(|&f| f == i)
                .is_some_and(|k| bits >> k & 1 == 1)
        };
        let takes = |p: &String| {
            p.bytes().enumerate().all(|(i, c)| match c {
                b'1' => !zero(i),
                b'0' => zero(i),
                _ => true,
            })
        };
        if !patterns.iter().any(takes) {
            let which: Vec<String> = fixed
                .iter()
                .map(|&i| {
                    let name = names
                        .get(i)
                        .cloned()
                        .unwrap_or_else(|| format!("#{}", i + 1));
                    format!("{name} {}", if zero(i) { "= 0" } else { "!= 0" })
                })
                .collect();
            return Err(format!(
                "the Gram reduction: no case takes the configurations with {} (the echelon coordinates normalised to 1 or fixed to 0 must be covered by the cases, or excluded by a case of their own)",
                which.join(", ")
            ));
        }
    }
    Ok(())
}

/// Checks the Gram reduction of a claim (see the module doc): `probes` are the claim's
/// probes, `domain` the proof's domain as written (`name ↦ range`), `cone` its cone
/// variables, `derived` its derived quantities as written. Returns the certificate entry.
pub fn check(
    spec: &Reduction,
    probes: &[String],
    domain: &BTreeMap<String, String>,
    cone: &[String],
    derived: &BTreeMap<String, String>,
) -> Result<Value, String> {
    let s = read(spec)?;
    let mut laws = Vec::new();
    for p in probes {
        match NATURAL.iter().find(|(n, _)| n == p) {
            Some((_, eq)) => laws.push(*eq),
            None => {
                return Err(format!(
                    "the Gram reduction: probe {p} is not a natural law"
                ))
            }
        }
    }
    if laws.is_empty() {
        return Err("the Gram reduction needs the law's probe".into());
    }
    let d = s.objects.first().map_or(0, Vec::len);
    if d == 0 || s.objects.iter().any(|o| o.len() != d) || s.objects.len() > d {
        return Err(format!(
            "the Gram reduction needs at most d objects of d coordinates each (here {} objects)",
            s.objects.len()
        ));
    }
    let range = |n: &str| domain.get(n).map(|r| r.replace(' ', ""));
    for (name, want) in metric_params(&s.metric, d) {
        match range(&name) {
            Some(r) if r == want.replace(' ', "") => {}
            _ => {
                return Err(format!(
                    "the Gram reduction: the metric parameter {name} must range over {want}, so that the domain holds M = I"
                ))
            }
        }
    }
    let free_coordinate = |x: &str| cone.iter().any(|c| c == x) || range(x).as_deref() == Some("R");
    let all_free = |o: &[String]| o.iter().all(|x| free_coordinate(x));
    // a diagonal metric and objects in echelon form (the j-th in the span of the first j
    // coordinates): at M = I a rotation (QR) brings every family there and keeps M = I
    // … and, since every m_i ranges over (0, inf), a diagonal change of coordinates
    // (M = I becomes a positive diagonal M) may normalise one nonzero coordinate per axis
    // to 1: the configurations where it is 0 are the claim's other cases (`covered`)
    let shapes: Option<Vec<Vec<usize>>> = (s.metric == "diagonal")
        .then(|| {
            s.objects
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    if all_free(o) {
                        Some(Vec::new())
                    } else {
                        echelon_object(o, i, derived, free_coordinate)
                    }
                })
                .collect()
        })
        .flatten();
    let normalised: Vec<usize> = shapes.iter().flatten().flatten().copied().collect();
    let mut axes_once = normalised.clone();
    axes_once.sort_unstable();
    axes_once.dedup();
    if axes_once.len() < normalised.len() {
        return Err(
            "the Gram reduction: a diagonal change of coordinates normalises at most one coordinate per axis to 1".into(),
        );
    }
    // objects along the axes or fixed coordinate covectors first (a family of pairwise
    // g-orthogonal objects, or a general M); objects in echelon form otherwise
    let mut fixed = Vec::new();
    let mut axes = Vec::new();
    let mut not_along = None;
    for o in &s.objects {
        if all_free(o) {
            continue;
        }
        // a diagonal metric and objects along distinct axes (any scale): every family of
        // pairwise g-orthogonal nonzero objects
        if s.metric == "diagonal" {
            match axis_object(o, derived, free_coordinate) {
                Some(j) if !axes.contains(&j) => {
                    axes.push(j);
                    continue;
                }
                _ => {}
            }
        }
        match coordinate_covector(o, derived) {
            Some(j) if s.metric == "cholesky" && !fixed.contains(&j) => fixed.push(j),
            _ => {
                not_along = Some(o);
                break;
            }
        }
    }
    // the echelon coordinates (the j-th object's first j + 1) and their pattern: F free,
    // 1 normalised, 0 zero
    let coordinates: Vec<String> = s
        .objects
        .iter()
        .enumerate()
        .flat_map(|(i, o)| o[..=i.min(d - 1)].iter().cloned())
        .collect();
    let pattern: String = coordinates
        .iter()
        .map(|x| match derived.get(x).map(|v| v.trim()) {
            Some("1") => '1',
            Some("0") => '0',
            _ => 'F',
        })
        .collect();
    let strict_echelon = shapes.is_some() && pattern.bytes().all(|c| c == b'F');
    let echelon = shapes.is_some() && (strict_echelon || not_along.is_some());
    if echelon {
        fixed.clear();
        axes.clear();
    } else if let Some(o) = not_along {
        return Err(format!(
            "the Gram reduction: the object ({}) must range over all of R^{d} (or, with a Cholesky metric, be a distinct coordinate covector; with a diagonal metric, lie along an axis of its own with a free coordinate, or all objects be in echelon form)",
            o.join(", ")
        ));
    }
    let in_echelon = if echelon {
        s.objects.iter().filter(|o| !all_free(o)).count()
    } else {
        0
    };
    let (pattern, coordinates) = if echelon {
        (pattern, coordinates)
    } else {
        (String::new(), Vec::new())
    };
    Ok(json!({
        "reduction": "Gram",
        "dimension": d,
        "objects": s.objects,
        "fixed coordinate covectors": fixed.len(),
        "pairwise orthogonal objects along the axes": axes.len(),
        "objects in echelon form (up to rotation)": in_echelon,
        "coordinates normalised to 1 (a diagonal change of coordinates)": normalised.len(),
        "echelon pattern": pattern,
        "echelon coordinates": coordinates,
        "metric": s.metric,
        "natural laws": laws,
        "conclusions compare": s.why,
    }))
}

/// The Gram reduction's checks of a claim recomputed from its file (for `impactkit
/// check`): what [`gram_reduction`] gives on the claim's own `proof` table, `None` when
/// the claim asks for none.
pub(crate) fn reduction_of(claim: &Claim) -> Result<Option<Value>, String> {
    let Some(spec) = claim.body().proof() else {
        return Ok(None);
    };
    let Some(red) = &spec.reduction else {
        return Ok(None);
    };
    let (_, cone) = super::claim::statement::domain_and_cone(spec)?;
    gram_reduction(claim, red, &cone).map(Some)
}

/// Checks a claim's `proof.reduction` (see [`super::reduction`]): its probes, the proof's
/// domain as written, the cone, and the derived quantities.
pub(crate) fn gram_reduction(
    claim: &Claim,
    red: &Reduction,
    cone: &[String],
) -> Result<Value, String> {
    let spec = claim.body().proof().ok_or("no proof table")?;
    if spec.subdomain.is_some() {
        return Err("proof.reduction and proof.subdomain exclude each other".into());
    }
    let domain = spec.domain.clone().unwrap_or_default();
    // every case with its own derived quantities (the claim's, then the case's)
    let derived = |from: &dyn Space| -> BTreeMap<String, String> {
        from.derive().pairs().iter().cloned().collect()
    };
    let sampled = claim.body().sampled()?;
    let cases = sampled.case.unwrap_or_default();
    let mut per_case = Vec::new();
    for case in cases
        .iter()
        .map(Some)
        .chain(cases.is_empty().then_some(None))
    {
        let mut d = derived(sampled.space);
        let mut name = String::new();
        if let Some(c) = case {
            d.extend(derived(c));
            name = c.name.clone();
        }
        let cert = check(red, &claim.body().probes(), &domain, cone, &d).map_err(|e| {
            if name.is_empty() {
                e
            } else {
                format!("[{name}] {e}")
            }
        })?;
        per_case.push((name, cert));
    }
    let patterns: Vec<String> = per_case
        .iter()
        .filter_map(|(_, c)| c.get("echelon pattern").and_then(|p| p.as_str()))
        .filter(|p| !p.is_empty())
        .map(String::from)
        .collect();
    if !patterns.is_empty() {
        let names: Vec<String> = per_case
            .iter()
            .find_map(|(_, c)| c.get("echelon coordinates").and_then(|n| n.as_array()))
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        covered(&patterns, &names)?;
    }
    // every conclusion means the same in every coordinate system: computed, not read
    let parsed = read(red)?;
    super::reduction::invariance::check(claim, &parsed.objects, &parsed.metric)?;
    let mut first = per_case[0].1.clone();
    if per_case.len() > 1 {
        first["cases"] = per_case
            .into_iter()
            .map(|(n, c)| json!({"case": n, "reduction": c}))
            .collect();
    }
    Ok(first)
}
