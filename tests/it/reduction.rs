//! The hypothesis of the Gram reduction (`claims::reduction`) for the laws it is declared
//! for: the law commutes with a linear change of coordinates and with the embedding into
//! more dimensions (M ⊕ I, covectors extended by 0). Checked exactly at random rational
//! configurations, in dimension 3 against dimension 5 with a non-diagonal mass matrix.

use impactkit::arith::{Rational, Scalar};
use impactkit::law::characterization::{impulse_symmetric, Constraints};
use impactkit::law::nonholonomic::NonholonomicImpact;
use impactkit::law::propagative::Contacts;
use impactkit::linalg::{Matrix, SymMatrix, Vector};
use num_rational::BigRational;

/// A small deterministic generator of integers in [-k, k].
struct Lcg(u64);
impl Lcg {
    fn int(&mut self, k: i64) -> i64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % (2 * k as u64 + 1)) as i64 - k
    }
    fn vec(&mut self, n: usize) -> Vector<Rational> {
        (0..n).map(|_| r(self.int(4))).collect()
    }
}

fn r(n: i64) -> Rational {
    Rational::from_big(&BigRational::from_integer(n.into()))
}

fn pad(v: &[Rational], n: usize) -> Vector<Rational> {
    let mut out = v.to_vec();
    out.resize(n, r(0));
    out
}

/// Row vector times matrix: a·T.
fn row_times(a: &[Rational], t: &Matrix<Rational>) -> Vector<Rational> {
    (0..t.len())
        .map(|j| (0..a.len()).fold(r(0), |s, i| s + &a[i].mul_r(&t[i][j])))
        .collect()
}

/// Matrix times column vector: T·v.
fn times_col(t: &Matrix<Rational>, v: &[Rational]) -> Vector<Rational> {
    t.iter()
        .map(|row| (0..v.len()).fold(r(0), |s, j| s + &row[j].mul_r(&v[j])))
        .collect()
}

/// Tᵀ·M·T as a symmetric matrix, M = diag(m) ⊕ I.
fn congruent(m: &[Rational], t: &Matrix<Rational>) -> SymMatrix<Rational> {
    let n = t.len();
    let entry =
        |i: usize, j: usize| (0..n).fold(r(0), |s, k| s + &m[k].mul_r(&t[k][i]).mul_r(&t[k][j]));
    SymMatrix::from_upper(
        (0..n)
            .map(|i| (i..n).map(|j| entry(i, j)).collect())
            .collect(),
    )
    .unwrap()
}

/// An invertible integer matrix: unit upper triangular times a random lower one with
/// nonzero diagonal.
fn invertible(g: &mut Lcg, n: usize) -> Matrix<Rational> {
    let u: Matrix<Rational> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    if j == i {
                        r(1)
                    } else if j > i {
                        r(g.int(2))
                    } else {
                        r(0)
                    }
                })
                .collect()
        })
        .collect();
    let l: Matrix<Rational> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| match j.cmp(&i) {
                    std::cmp::Ordering::Equal => r(1 + g.int(2).abs()),
                    std::cmp::Ordering::Less => r(g.int(2)),
                    _ => r(0),
                })
                .collect()
        })
        .collect();
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| (0..n).fold(r(0), |s, k| s + &u[i][k].mul_r(&l[k][j])))
                .collect()
        })
        .collect()
}

/// A random change of coordinates from dimension 3 with M = diag(m) to dimension 5: first
/// M ⊕ I (the objects extended by 0), then x = T x' (vectors v' = T⁻¹v, covectors a·T,
/// M' = Tᵀ(M ⊕ I)T, non-diagonal).
struct Change {
    t: Matrix<Rational>,
    mass: SymMatrix<Rational>,
}

impl Change {
    fn new(g: &mut Lcg, m: &[Rational]) -> Self {
        let t = invertible(g, 5);
        let m5: Vec<Rational> = (0..5)
            .map(|i| m.get(i).cloned().unwrap_or_else(|| r(1)))
            .collect();
        Change {
            mass: congruent(&m5, &t),
            t,
        }
    }
    fn covector(&self, a: &[Rational]) -> Vector<Rational> {
        row_times(&pad(a, 5), &self.t)
    }
    fn vector(&self, v: &[Rational]) -> Vector<Rational> {
        impactkit::linalg::solve(self.t.clone(), pad(v, 5)).unwrap()
    }
    /// A vector of dimension 5 back in the first coordinates: T·v'.
    fn back(&self, v: &[Rational]) -> Vector<Rational> {
        times_col(&self.t, v)
    }
}

/// Positive diagonal masses.
fn masses(g: &mut Lcg) -> Vector<Rational> {
    (0..3).map(|_| r(1 + g.int(3).abs())).collect()
}

/// Seghete–Murphey (7): in coordinates x = T x' the covectors are a' = a·T and the mass
/// matrix M' = Tᵀ M T; the reflection of p' across u' is the reflection of p across u,
/// times T, and in dimension 5 (M ⊕ I, covectors padded) it is the padded one.
#[test]
fn propagative_reflection_is_natural() {
    let mut g = Lcg(7);
    let mut checked = 0;
    for _ in 0..20 {
        let m = masses(&mut g);
        let (u, p) = (g.vec(3), g.vec(3));
        if u.iter().all(|x| x.sign() == impactkit::arith::Sign::Zero) {
            continue;
        }
        let c = Contacts::new(SymMatrix::diagonal(&m), vec![u.clone()]).unwrap();
        let out = c.reflect(&p, 0).unwrap();
        let ch = Change::new(&mut g, &m);
        let c5 = Contacts::new(ch.mass.clone(), vec![ch.covector(&u)]).unwrap();
        assert_eq!(c5.reflect(&ch.covector(&p), 0).unwrap(), ch.covector(&out));
        checked += 1;
    }
    assert!(checked >= 15, "{checked}");
}

/// Clark–Bloch (6) and (21): vectors v = T v', covectors a' = a·T, M' = Tᵀ M T; the
/// restitution map and π_Δ carry over: T·R'(v') = R(v), in dimension 5 as in 3.
#[test]
fn nonholonomic_maps_are_natural() {
    let mut g = Lcg(11);
    let e = Rational::from_big(&BigRational::new(1.into(), 3.into()));
    let mut checked = 0;
    for _ in 0..20 {
        let m = masses(&mut g);
        let (dh, w, v) = (g.vec(3), g.vec(3), g.vec(3));
        let Ok(law) = NonholonomicImpact::new(SymMatrix::diagonal(&m), vec![w.clone()], dh.clone())
        else {
            continue;
        };
        let (Ok(hol), Ok(proj)) = (law.holonomic(&v, &e), law.project(&v)) else {
            continue;
        };
        let ch = Change::new(&mut g, &m);
        let v5 = ch.vector(&v);
        let law5 =
            NonholonomicImpact::new(ch.mass.clone(), vec![ch.covector(&w)], ch.covector(&dh))
                .unwrap();
        assert_eq!(ch.back(&law5.holonomic(&v5, &e).unwrap()), pad(&hol, 5));
        assert_eq!(ch.back(&law5.project(&v5).unwrap()), pad(&proj, 5));
        checked += 1;
    }
    assert!(checked >= 15, "{checked}");
}

/// Pasquero rule (4) (one constraint): vectors v = T v', the gradient n' = n·T,
/// M' = Tᵀ M T; the impulse carries over, T·I'(v') = I(v), and so does the impacting set.
#[test]
fn single_impact_rule_is_natural() {
    let mut g = Lcg(13);
    let e = Rational::from_big(&BigRational::new(1.into(), 2.into()));
    let mut checked = 0;
    for _ in 0..20 {
        let m = masses(&mut g);
        let (n, v) = (g.vec(3), g.vec(3));
        let Ok(c) = Constraints::new(SymMatrix::diagonal(&m), vec![n.clone()]) else {
            continue;
        };
        let set = c.impacting(&v).unwrap();
        let imp = impulse_symmetric(&c, &e, &set, &v).unwrap();
        let ch = Change::new(&mut g, &m);
        let v5 = ch.vector(&v);
        let c5 = Constraints::new(ch.mass.clone(), vec![ch.covector(&n)]).unwrap();
        let set5 = c5.impacting(&v5).unwrap();
        assert_eq!(set5, set);
        let imp5 = impulse_symmetric(&c5, &e, &set5, &v5).unwrap();
        assert_eq!(ch.back(&imp5), pad(&imp, 5));
        checked += 1;
    }
    assert!(checked >= 15, "{checked}");
}

/// Pasquero Sect. 3.5, one step of the procedure (char.step) with two constraints, any
/// CORs and an AEEV threshold: the same decision (exit, rest, or the impacted set) and
/// T·next'(v') = next(v), in dimension 5 as in 3.
#[test]
fn procedure_step_is_natural() {
    use impactkit::system::cradle::procedure_step;
    use impactkit::system::iterate::Stepped;
    let mut g = Lcg(17);
    let q = |n: i64, d: i64| Rational::from_big(&BigRational::new(n.into(), d.into()));
    let mut kinds = [0usize; 3];
    for _ in 0..40 {
        let m = masses(&mut g);
        let (n1, n2, v) = (g.vec(3), g.vec(3), g.vec(3));
        let Ok(c) = Constraints::new(SymMatrix::diagonal(&m), vec![n1.clone(), n2.clone()]) else {
            continue;
        };
        let cors = [q(g.int(3).abs(), 3), q(1 + g.int(2).abs(), 3)];
        let sigma = q(1, 2);
        let Ok(step) = procedure_step(&c, &cors, &v, Some(&sigma)) else {
            continue;
        };
        let ch = Change::new(&mut g, &m);
        let c5 =
            Constraints::new(ch.mass.clone(), vec![ch.covector(&n1), ch.covector(&n2)]).unwrap();
        let step5 = procedure_step(&c5, &cors, &ch.vector(&v), Some(&sigma)).unwrap();
        match (step, step5) {
            (Stepped::Exit(a), Stepped::Exit(b)) | (Stepped::Rest(a), Stepped::Rest(b)) => {
                assert_eq!(a, b);
                kinds[usize::from(a.is_empty())] += 1;
            }
            (Stepped::Next(a, w), Stepped::Next(b, w5)) => {
                assert_eq!(a, b);
                assert_eq!(ch.back(&w5), pad(&w, 5));
                kinds[2] += 1;
            }
            (x, y) => panic!("different steps: {x:?} and {y:?}"),
        }
    }
    // steps that apply an impulse were compared
    assert!(kinds[2] >= 10, "{kinds:?}");
}

/// The Gram reduction's echelon form normalised by a diagonal change of coordinates
/// (`claims::reduction::check`): u = (a, 0, 0), v = (1, 1, 0) stands for every pair with
/// v neither g-orthogonal nor parallel to u; two objects normalised on one axis, or a
/// metric entry that does not range over (0, inf), are refused.
#[test]
fn echelon_objects_may_be_normalised_once_per_axis() {
    use impactkit::claims::reduction::check;
    use std::collections::BTreeMap;
    let spec: impactkit::claims::claim::body::Reduction = toml::from_str(
        r#"objects = [["u1", "u2", "u3"], ["v1", "v2", "v3"], ["p1", "p2", "p3"]]
metric = "diagonal"
why = "test""#,
    )
    .unwrap();
    let map = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    let domain = map(&[
        ("m1", "(0, inf)"),
        ("m2", "(0, inf)"),
        ("m3", "(0, inf)"),
        ("u1", "R"),
    ]);
    let cone = ["p1".to_string(), "p2".into(), "p3".into()];
    let probes = ["propagative".to_string()];
    // u = (u1, 0, 0), v = (v1, v2, 0) with the given derived values, over a domain
    let at = |domain: &BTreeMap<String, String>, extra: &[(&str, &str)]| {
        let mut d = map(&[("u2", "0"), ("u3", "0"), ("v3", "0")]);
        d.extend(map(extra));
        check(&spec, &probes, domain, &cone, &d)
    };
    let ok = at(&domain, &[("v1", "1"), ("v2", "1")]).unwrap();
    assert_eq!(
        ok["coordinates normalised to 1 (a diagonal change of coordinates)"],
        2
    );
    assert_eq!(ok["objects in echelon form (up to rotation)"], 2);
    // the pattern of the echelon coordinates (u1; v1, v2; p1, p2, p3)
    assert_eq!(ok["echelon pattern"], "F11FFF");
    // g-orthogonal: a special configuration of the echelon form
    assert!(at(&domain, &[("v1", "0"), ("v2", "1")]).is_ok());
    // axis 1 normalised twice
    let e = at(&domain, &[("u1", "1"), ("v1", "1"), ("v2", "1")]).unwrap_err();
    assert!(e.contains("at most one coordinate per axis"), "{e}");
    // the metric must hold every positive diagonal matrix
    let mut narrow = domain.clone();
    narrow.insert("m2".into(), "(0, 2)".into());
    let e = at(&narrow, &[("v1", "1"), ("v2", "1")]).unwrap_err();
    assert!(e.contains("must range over (0, inf)"), "{e}");
    // v = (1, 2, 0) is not a normalised echelon object
    let e = at(&domain, &[("v1", "1"), ("v2", "2")]).unwrap_err();
    assert!(e.contains("must range over all of R^3"), "{e}");
}

/// The cases of a normalised echelon form must take every configuration: v = (1, 1, 0)
/// and v = (0, 1, 0) leave out v parallel to u (second coordinate 0), which a case of its
/// own, v = (b, 0, 0), takes.
#[test]
fn normalised_echelon_cases_must_cover_every_configuration() {
    use impactkit::claims::reduction::covered;
    let names: Vec<String> = ["u1", "v1", "v2"].iter().map(|s| s.to_string()).collect();
    let p = |xs: &[&str]| -> Vec<String> { xs.iter().map(|s| s.to_string()).collect() };
    assert!(covered(&p(&["FFF"]), &names).is_ok());
    assert!(covered(&p(&["F11", "F01", "FF0"]), &names).is_ok());
    let e = covered(&p(&["F11", "F01"]), &names).unwrap_err();
    assert!(e.contains("v2 = 0"), "{e}");
    let e = covered(&p(&["F11", "FF0"]), &names).unwrap_err();
    assert!(e.contains("v1 = 0, v2 != 0"), "{e}");
    assert!(covered(&p(&["F11", "F1"]), &names).is_err());
}
