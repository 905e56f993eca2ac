//! Fassino–Pasquero (2020): the law code of `law::corner` run on symbolic k, ε, ẋ, ẏ
//! (zone fixed by hypothesis) against the paper's displayed formulas.

use super::{assert_same, at, check, q, s};
use impactkit::arith::symbolic::{IdentityOutcome, Symbolic};
use impactkit::arith::Scalar;
use impactkit::lang::identical;
use impactkit::law::corner::*;
use impactkit::law::V2;

const ZONES: [Zone; 4] = [Zone::Z0, Zone::Z1, Zone::Z2, Zone::Z12];

fn v2(x: &str, y: &str) -> V2<Symbolic> {
    V2::new(s(x), s(y))
}
fn same_v2(a: &V2<Symbolic>, b: &V2<Symbolic>) -> bool {
    a.x.is_identical(&b.x) && a.y.is_identical(&b.y)
}

/// "(13) and (14) agree": for each zone, TR_nid in (ẋ, ẏ) form (13) followed by the change
/// of coordinates (7) equals (7) followed by TR_nid in (ξ̇, η̇) form (14), with symbolic
/// k, ε, ẋ, ẏ; and the other way round, starting from symbolic ξ̇, η̇.
#[test]
fn fp_forms_nonideal_13_and_14_agree() {
    let (k, eps) = (s("k"), s("eps"));
    for zone in ZONES {
        let v = v2("x", "y");
        let via13 = xi_eta(&k, &tr_nid_xy(&k, &eps, zone, &v).unwrap());
        let via14 = tr_nid_xi_eta(&k, &eps, zone, &xi_eta(&k, &v)).unwrap();
        assert!(same_v2(&via13, &via14), "{zone}: {via13} vs {via14}");
        let w = v2("xi", "eta");
        let v = xy_from_xi_eta(&k, &w).unwrap();
        let back = xy_from_xi_eta(&k, &tr_nid_xi_eta(&k, &eps, zone, &w).unwrap()).unwrap();
        assert!(
            same_v2(&tr_nid_xy(&k, &eps, zone, &v).unwrap(), &back),
            "{zone}"
        );
    }
}

/// "(3), (6), (8) agree" (ideal case): (3) and (8) through (7); (6) and (3) on
/// (cos φ, sin φ) = ((1 − t²)/(1 + t²), 2t/(1 + t²)), and also on any (ẋ, ẏ) since every
/// formula is homogeneous of degree 1; at ε = 1, (13) is (3) and (14) is (8).
#[test]
fn fp_forms_ideal_3_6_8_agree() {
    let k = s("k");
    let one = s("1");
    let circle = v2("(1-t^2)/(1+t^2)", "2*t/(1+t^2)");
    for zone in ZONES {
        let v = v2("x", "y");
        let via3 = xi_eta(&k, &tr_id_xy(&k, zone, &v).unwrap());
        let via8 = tr_id_xi_eta(&k, zone, &xi_eta(&k, &v)).unwrap();
        assert!(same_v2(&via3, &via8), "{zone}");
        for v in [v.clone(), circle.clone()] {
            let a = tr_id_phi(&k, zone, &v).unwrap();
            let b = tr_id_xy(&k, zone, &v).unwrap();
            assert!(same_v2(&a, &b), "{zone}: (6) {a} vs (3) {b}");
        }
        let nid = tr_nid_xy(&k, &one, zone, &v).unwrap();
        assert!(same_v2(&nid, &tr_id_xy(&k, zone, &v).unwrap()), "{zone}");
        // the unit circle is preserved by (6) (Remark 2, eq. (4))
        let out = tr_id_phi(&k, zone, &circle).unwrap();
        assert_eq!(out.norm2().is_constant(), Some(q(1, 1)), "{zone}");
    }
}

/// The displayed formulas of (3d), (13b) and (14d), transcribed from the paper, equal
/// the law code's output.
#[test]
fn fp_displayed_zone_formulas() {
    let (k, eps) = (s("k"), s("eps"));
    let v = v2("x", "y");
    let z12 = tr_id_xy(&k, Zone::Z12, &v).unwrap();
    assert_same(&z12.x, "(-k^4*x^2 + (1-2*k^2)*y^2)/(k^4*x^2+y^2)*x");
    assert_same(&z12.y, "(k^2*(k^2-2)*x^2 - y^2)/(k^4*x^2+y^2)*y");
    let z1 = tr_nid_xy(&k, &eps, Zone::Z1, &v).unwrap();
    assert_same(&z1.x, "(1-eps*k^2)/(1+k^2)*x + (1+eps)*k/(1+k^2)*y");
    assert_same(&z1.y, "(1+eps)*k/(1+k^2)*x - (eps-k^2)/(1+k^2)*y");
    let w = tr_nid_xi_eta(&k, &eps, Zone::Z12, &v2("xi", "eta")).unwrap();
    let (p, qq) = ("(1+k^2)*(xi^2+eta^2)", "2*(1-k^2)*xi*eta");
    assert_same(
        &w.x,
        &format!(
            "-(eps*{p} + {qq})/({p} - {qq})*xi + (1+eps)*(1-k^2)*(xi^2+eta^2)/({p} - {qq})*eta"
        ),
    );
}

/// Remark 2 (eq. (4)) and Remark 3 (eq. (5)) as identities in every zone (ideal case);
/// Remark 4 (‖v‖² in ξ̇, η̇); Result 4 (bisector: v' = −v, and v' = −εv for TR_nid).
#[test]
fn fp_remarks_2_3_4_and_result_4() {
    let (k, eps) = (s("k"), s("eps"));
    let v = v2("x", "y");
    let mirror = v2("x", "-y");
    for zone in ZONES {
        let out = tr_id_xy(&k, zone, &v).unwrap();
        assert!(out.norm2().is_identical(&v.norm2()), "(4) in {zone}");
        if zone != Zone::Z0 {
            // (5): the mirrored velocity's image is the mirror image, for the mirrored zone
            let mz = match zone {
                Zone::Z1 => Zone::Z2,
                Zone::Z2 => Zone::Z1,
                z => z,
            };
            let m = tr_nid_xy(&k, &eps, mz, &mirror).unwrap();
            let o = tr_nid_xy(&k, &eps, zone, &v).unwrap();
            assert!(
                same_v2(&m, &V2::new(o.x.clone(), -o.y.clone())),
                "(5) in {zone}"
            );
        }
    }
    let norm = xy_from_xi_eta(&k, &v2("xi", "eta")).unwrap().norm2();
    assert_same(
        &norm,
        "(1+k^2)/(4*k^2)*(xi^2+eta^2) + (1-k^2)/(2*k^2)*xi*eta",
    );
    let bis = v2("x", "0");
    let r = tr_id_xy(&k, Zone::Z12, &bis).unwrap();
    assert!(same_v2(&r, &v2("-x", "0")));
    let r = tr_nid_xy(&k, &eps, Zone::Z12, &bis).unwrap();
    assert!(same_v2(&r, &v2("-eps*x", "0")));
}

/// (10) in the proof of Theorem 3.1 and the rewriting of (14d) in the proof of
/// Theorem 5.1, with ρ = 2ξ̇η̇/(ξ̇² + η̇²), β = (1 − k²)/(1 + k²), z = η̇/ξ̇.
#[test]
fn fp_theorem_3_1_and_5_1_rewritings() {
    let (k, eps) = (s("k"), s("eps"));
    let w = v2("xi", "eta");
    let id = tr_id_xi_eta(&k, Zone::Z12, &w).unwrap();
    let rho = [("rho".to_string(), "2*xi*eta/(xi^2+eta^2)".to_string())];
    let ten_xi = "xi/((1+k^2) - rho*(1-k^2))*(-(1+k^2) - rho*(1-k^2) + 2*eta/xi*(1-k^2))";
    let ten_eta = "eta/((1+k^2) - rho*(1-k^2))*(-(1+k^2) - rho*(1-k^2) + 2*xi/eta*(1-k^2))";
    assert_eq!(
        identical(&id.x.to_string(), ten_xi, &rho),
        Ok(IdentityOutcome::Identical)
    );
    assert_eq!(
        identical(&id.y.to_string(), ten_eta, &rho),
        Ok(IdentityOutcome::Identical)
    );
    let nid = tr_nid_xi_eta(&k, &eps, Zone::Z12, &w).unwrap();
    let sub = [
        ("beta".to_string(), "(1-k^2)/(1+k^2)".to_string()),
        ("z".to_string(), "eta/xi".to_string()),
    ];
    let f = "(1 - beta*2*z/(1+z^2))";
    let xi1 = format!("xi/{f}*(-eps + beta*((1+eps)*z - 2*z/(1+z^2)))");
    let eta1 = format!("eta/{f}*(-eps + beta*((1+eps)/z - 2*z/(1+z^2)))");
    assert_eq!(
        identical(&nid.x.to_string(), &xi1, &sub),
        Ok(IdentityOutcome::Identical)
    );
    assert_eq!(
        identical(&nid.y.to_string(), &eta1, &sub),
        Ok(IdentityOutcome::Identical)
    );
    // the two displayed equalities of the case analysis of (15)
    for (a, b) in [
        (
            "eps/((1+eps)*z - 2*z/(1+z^2))",
            "eps*(1+z^2)/((1+eps)*(z+z^3) - 2*z)",
        ),
        (
            "eps/((1+eps)/z - 2*z/(1+z^2))",
            "eps*z*(1+z^2)/((1+eps)*(1+z^2) - 2*z^2)",
        ),
    ] {
        assert_eq!(identical(a, b, &[]), Ok(IdentityOutcome::Identical), "{a}");
    }
}

/// Lemma 7.1 and Lemma 7.2 (displayed differences, from (13b)).
#[test]
fn fp_lemmas_7_1_and_7_2() {
    let (k, eps) = (s("k"), s("eps"));
    let v = v2("x", "y");
    let eta = s("k*x - y");
    let z1 = tr_nid_xy(&k, &eps, Zone::Z1, &v).unwrap();
    assert_same(
        &(z1.x.clone() - &v.x),
        &format!("-(1+eps)*k/(1+k^2)*({eta})"),
    );
    assert_same(&(z1.y.clone() - &v.y), &format!("(1+eps)/(1+k^2)*({eta})"));
    let vp = v2("x + dx", "y + dy");
    let zp = tr_nid_xy(&k, &eps, Zone::Z1, &vp).unwrap();
    let (dt, dz) = (zp.x.clone() - &z1.x, zp.y.clone() - &z1.y);
    assert_same(&dt, "(1-eps*k^2)/(1+k^2)*dx + (1+eps)*k/(1+k^2)*dy");
    assert_same(&dz, "(1+eps)*k/(1+k^2)*dx - (eps-k^2)/(1+k^2)*dy");
    let plus = k.mul_r(&dt) + &dz;
    let minus = k.mul_r(&dt) - &dz;
    assert_same(
        &plus,
        "dx*k*(2 - eps*k^2 + eps)/(1+k^2) + dy*(2*k^2 + eps*k^2 - eps)/(1+k^2)",
    );
    assert_same(&minus, "-k*eps*dx + eps*dy");
    assert_eq!(
        identical(
            "(2*k^2 + eps*k^2 - eps)/(1+k^2)",
            "1 - (1+eps)*(1-k^2)/(1+k^2)",
            &[]
        ),
        Ok(IdentityOutcome::Identical)
    );
}

/// The closed forms displayed in the proof of Proposition 7.1 (case 3: SA applies (13b) of
/// Z1, TA applies (13d) of Z12 to the same (ξ̇, η̇)), against the law code.
#[test]
fn fp_proposition_7_1_closed_forms() {
    let (k, eps) = (s("k"), s("eps"));
    let v = xy_from_xi_eta(&k, &v2("xi", "eta")).unwrap();
    let sa = tr_nid_xy(&k, &eps, Zone::Z1, &v).unwrap();
    let ta = tr_nid_xy(&k, &eps, Zone::Z12, &v).unwrap();
    let d = "((xi^2+eta^2)*(1+k^2) + 2*xi*eta*(k^2-1))";
    assert_same(&sa.x, "1/(2*k)*xi + (1-k^2-2*eps*k^2)/(2*k*(1+k^2))*eta");
    assert_same(&sa.y, "1/2*xi + (1-k^2+2*eps)/(2*(1+k^2))*eta");
    assert_same(
        &ta.x,
        &format!("(xi+eta)*((1-k^2-2*eps*k^2)*(xi^2+eta^2) - 2*(1-k^2)*xi*eta)/(2*k*{d})"),
    );
    assert_same(
        &ta.y,
        &format!("(eta-xi)*((1-k^2+2*eps)*(xi^2+eta^2) + 2*(1-k^2)*xi*eta)/(2*{d})"),
    );
    let dx = sa.x.clone() - &ta.x;
    let dy = sa.y.clone() - &ta.y;
    assert_same(
        &dx,
        &format!("xi*k*(1+eps)*(eta^2*(3-k^2) + xi^2*(1+k^2))/({d}*(1+k^2))"),
    );
    assert_same(
        &dy,
        &format!("xi*(1+eps)*(eta^2*(3*k^2-1) + xi^2*(1+k^2))/({d}*(1+k^2))"),
    );
    // the first Maclaurin coefficients in ξ̇: (dx/ξ̇) and (dy/ξ̇) at ξ̇ = 0
    let xi = s("xi");
    let zero = s("0");
    let cx = dx
        .checked_div(&xi)
        .unwrap()
        .substitute("xi", &zero)
        .unwrap();
    let cy = dy
        .checked_div(&xi)
        .unwrap()
        .substitute("xi", &zero)
        .unwrap();
    assert_same(&cx, "k*(1+eps)*(3-k^2)/(1+k^2)^2");
    assert_same(&cy, "(1+eps)*(3*k^2-1)/(1+k^2)^2");
}

/// The displayed η̇⁽¹²⁾ₙ₊₁ of Proposition 7.1 is wrong: its last term has (ξ̇² + η̇²)
/// where the law gives (η̇² − ξ̇²); the difference is 2ξ̇³(1 − k²)/D.
#[test]
fn fp_proposition_7_1_eta12_is_misprinted() {
    let (k, eps) = (s("k"), s("eps"));
    let v = xy_from_xi_eta(&k, &v2("xi", "eta")).unwrap();
    let ta = tr_nid_xy(&k, &eps, Zone::Z12, &v).unwrap();
    let eta12 = xi_eta(&k, &ta).y;
    let d = "((xi^2+eta^2)*(1+k^2) + 2*xi*eta*(k^2-1))";
    let printed =
        format!("(-eps*(xi^2+eta^2)*(eta*(1+k^2) - xi*(1-k^2)) - xi*(1-k^2)*(xi^2+eta^2))/{d}");
    assert_eq!(
        check(&eta12, &printed),
        IdentityOutcome::Different {
            witness: at(&[
                ("eps", q(0, 1)),
                ("eta", q(0, 1)),
                ("k", q(0, 1)),
                ("xi", q(1, 1))
            ]),
            lhs: q(1, 1),
            rhs: q(-1, 1),
        }
    );
    // inside the proof's own domain (0 < ξ̇ < η̇, k < 1) the printed value is wrong too
    let pt = at(&[
        ("eps", q(0, 1)),
        ("eta", q(2, 1)),
        ("k", q(1, 2)),
        ("xi", q(1, 1)),
    ]);
    assert_eq!(eta12.eval_rational(&pt), Ok(q(-9, 13)));
    assert_eq!(s(&printed).eval_rational(&pt), Ok(q(-15, 13)));
    let corrected =
        format!("(-eps*(xi^2+eta^2)*(eta*(1+k^2) - xi*(1-k^2)) - xi*(1-k^2)*(eta^2-xi^2))/{d}");
    assert_same(&eta12, &corrected);
    assert_same(&(s(&printed) - &eta12), &format!("-2*xi^3*(1-k^2)/{d}"));
}

/// A 2×2 matrix applied to a vector.
fn apply(m: &M2<Symbolic>, v: &V2<Symbolic>) -> V2<Symbolic> {
    V2::new(
        m[0][0].mul_r(&v.x) + &m[0][1].mul_r(&v.y),
        m[1][0].mul_r(&v.x) + &m[1][1].mul_r(&v.y),
    )
}

/// Proof of Theorem 5.3: H₁ (as computed by `h_matrices`) is the matrix of (14c)∘(14b),
/// the step from v₁ ∈ Z1 to v₃, and H₂ that of (14b)∘(14c), eq. (16).
#[test]
fn fp_theorem_5_3_h_matrices_are_the_two_step_maps() {
    let (k, eps) = (s("k"), s("eps"));
    let (h1, h2) = h_matrices(&k, &eps).unwrap();
    let w = v2("xi", "eta");
    let z1 = |v: &V2<Symbolic>| tr_nid_xi_eta(&k, &eps, Zone::Z1, v).unwrap();
    let z2 = |v: &V2<Symbolic>| tr_nid_xi_eta(&k, &eps, Zone::Z2, v).unwrap();
    assert!(same_v2(&apply(&h1, &w), &z2(&z1(&w))));
    assert!(same_v2(&apply(&h2, &w), &z1(&z2(&w))));
    // the printed entries, with β = (1 − k²)/(1 + k²)
    let beta = [("beta".to_string(), "(1-k^2)/(1+k^2)".to_string())];
    let printed = [
        ["-eps", "-beta*eps*(1+eps)"],
        ["beta*(1+eps)", "beta^2*(1+eps)^2 - eps"],
    ];
    for (row, prow) in h1.iter().zip(printed) {
        for (e, p) in row.iter().zip(prow) {
            assert_eq!(
                identical(&e.to_string(), p, &beta),
                Ok(IdentityOutcome::Identical)
            );
        }
    }
    // same characteristic polynomial: equal traces and determinants (det = ε²)
    let tr = |m: &M2<Symbolic>| m[0][0].add_r(&m[1][1]);
    let det = |m: &M2<Symbolic>| m[0][0].mul_r(&m[1][1]) - &m[0][1].mul_r(&m[1][0]);
    assert!(tr(&h1).is_identical(&tr(&h2)));
    assert_same(&det(&h1), "eps^2");
    assert_same(&det(&h2), "eps^2");
}

/// Remark 8: K₁, K₂ as printed are the matrices of (13c)∘(13b) and (13b)∘(13c), and
/// K_i = B⁻¹H_iB with B the change of coordinates (7).
#[test]
fn fp_remark_8_k_matrices_are_similar_to_h() {
    let (k, eps) = (s("k"), s("eps"));
    let d = "(1+k^2)^2";
    let a = format!("((1-eps*k^2)^2 - k^2*(1+eps)^2)/{d}");
    let b = format!("k*(1-k^2)*(1+eps)^2/{d}");
    let c = format!("((eps-k^2)^2 - k^2*(1+eps)^2)/{d}");
    let k1 = [[s(&a), s(&b)], [-s(&b), s(&c)]];
    let k2 = [[s(&a), -s(&b)], [s(&b), s(&c)]];
    let v = v2("x", "y");
    let z1 = |v: &V2<Symbolic>| tr_nid_xy(&k, &eps, Zone::Z1, v).unwrap();
    let z2 = |v: &V2<Symbolic>| tr_nid_xy(&k, &eps, Zone::Z2, v).unwrap();
    assert!(same_v2(&apply(&k1, &v), &z2(&z1(&v))));
    assert!(same_v2(&apply(&k2, &v), &z1(&z2(&v))));
    let (h1, h2) = h_matrices(&k, &eps).unwrap();
    let similar = |h: &M2<Symbolic>| xy_from_xi_eta(&k, &apply(h, &xi_eta(&k, &v))).unwrap();
    assert!(same_v2(&similar(&h1), &apply(&k1, &v)));
    assert!(same_v2(&similar(&h2), &apply(&k2, &v)));
}

/// Remark 7: ‖v₁‖² − ‖v₀‖² = (ε² − 1)(k²ẋ₀² + ẏ₀²)²/(k⁴ẋ₀² + ẏ₀²) for v₀ ∈ Z12, and the
/// single-impact losses ‖v₁‖² − ‖v₀‖² = −(1 − ε²)η̇₀²/(1 + k²) (Z1), −(1 − ε²)ξ̇₀²/(1 + k²) (Z2).
#[test]
fn fp_remark_7_energy_drop() {
    let (k, eps) = (s("k"), s("eps"));
    let v = v2("x", "y");
    let drop = |z| tr_nid_xy(&k, &eps, z, &v).unwrap().norm2() - v.norm2();
    assert_same(&drop(Zone::Z12), "(eps^2-1)*(k^2*x^2+y^2)^2/(k^4*x^2+y^2)");
    assert_same(&drop(Zone::Z1), "-(1-eps^2)*(k*x-y)^2/(1+k^2)");
    assert_same(&drop(Zone::Z2), "-(1-eps^2)*(k*x+y)^2/(1+k^2)");
}

/// Pasquero, Sect. 4.2: V⊥₁, V⊥₂ as displayed; the displayed β equals
/// ⟨V⊥₁₂, V⊥₁ + V⊥₂⟩/‖V⊥₁ + V⊥₂‖² with V⊥₁₂ = v; the asymmetric rule (10) with
/// ε₁ = ε₂ = ε is Fassino–Pasquero (13) in every zone. β is computed from its definition
/// and must equal both the displayed closed form and `corner::beta` run symbolically
/// (whose denominator, a nonzero rational function, is divided by as is).
#[test]
fn pq_corner_agrees_with_fp() {
    let (k, eps) = (s("k"), s("eps"));
    let v = v2("x", "y");
    let (v1, v2_) = orthogonal_components(&k, &v).unwrap();
    assert_same(&v1.x, "k/(1+k^2)*(k*x-y)");
    assert_same(&v1.y, "-1/(1+k^2)*(k*x-y)");
    assert_same(&v2_.x, "k/(1+k^2)*(k*x+y)");
    assert_same(&v2_.y, "1/(1+k^2)*(k*x+y)");
    let (sx, sy) = (v1.x.add_r(&v2_.x), v1.y.add_r(&v2_.y));
    let beta = (v.x.mul_r(&sx) + &v.y.mul_r(&sy))
        .checked_div(&(sx.square() + &sy.square()))
        .unwrap();
    assert_same(&beta, "(1+k^2)/2*(k^2*x^2+y^2)/(k^4*x^2+y^2)");
    assert!(impactkit::law::corner::beta(&k, &v)
        .unwrap()
        .is_identical(&beta));
    for zone in [Zone::Z0, Zone::Z1, Zone::Z2] {
        let a = asymmetric_xy(&k, &eps, &eps, zone, &v).unwrap();
        assert!(
            same_v2(&a, &tr_nid_xy(&k, &eps, zone, &v).unwrap()),
            "{zone}"
        );
    }
    let c = beta.mul_r(&eps.one_like().add_r(&eps));
    let z12 = V2::new(v.x.sub_r(&c.mul_r(&sx)), v.y.sub_r(&c.mul_r(&sy)));
    assert!(same_v2(&z12, &tr_nid_xy(&k, &eps, Zone::Z12, &v).unwrap()));
}

/// The comparison can fail: one changed sign in (13b), or the wrong zone, is refuted with
/// an exact witness.
#[test]
fn mutants_are_refuted() {
    let (k, eps) = (s("k"), s("eps"));
    let v = v2("x", "y");
    let z1 = tr_nid_xy(&k, &eps, Zone::Z1, &v).unwrap();
    let mutant = "(1+eps*k^2)/(1+k^2)*x + (1+eps)*k/(1+k^2)*y";
    let witness = |e, kk| {
        at(&[
            ("eps", q(e, 1)),
            ("k", q(kk, 1)),
            ("x", q(1, 1)),
            ("y", q(0, 1)),
        ])
    };
    assert_eq!(
        check(&z1.x, mutant),
        IdentityOutcome::Different {
            witness: witness(1, 1),
            lhs: q(0, 1),
            rhs: q(1, 1)
        }
    );
    // the y-row of (13c) is not the y-row of (13b)
    let z2 = tr_nid_xy(&k, &eps, Zone::Z2, &v).unwrap();
    assert_eq!(
        check(&z2.y, "(1+eps)*k/(1+k^2)*x - (eps-k^2)/(1+k^2)*y"),
        IdentityOutcome::Different {
            witness: witness(0, 1),
            lhs: q(-1, 2),
            rhs: q(1, 2)
        }
    );
}
