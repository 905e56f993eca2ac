//! `verify --coq` (issue 59): catalogue claims become Coq theorems that Coq's kernel
//! accepts, and false statements do not compile whatever verdict the engine reports. Each
//! false mutant is first shown false by the engine's exact computation (it refutes it);
//! the test then hands Coq the mutant with the verdict `proved` (a prover that lies), or a
//! true claim with a forged refutation, and Coq must reject the generated proof.

use impactkit::claims::{self, coq, Claim, ClaimResult, Verdict};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Whether Coq is here; CI installs it (`.ci/run`), so there its absence is a failure.
fn coq_here() -> bool {
    let ok = std::process::Command::new("coqc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("CI").is_err(),
            "coqc not found: CI installs Coq 8.16 (apt-get install coq)"
        );
        eprintln!("coqc not found: the Coq tests are skipped (apt-get install coq)");
    }
    ok
}

fn claim(path: &str) -> Claim {
    Claim::load(Path::new(path)).unwrap()
}

/// A claim file's text with one edit (which must apply).
fn edited(path: &str, id: &str, from: &str, to: &str) -> Claim {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{path}: {from}");
    let text = text.replace(from, to).replacen(
        &format!("id = \"{}\"", claim(path).id),
        &format!("id = \"{id}\""),
        1,
    );
    Claim::parse(&text, Path::new(path)).unwrap()
}

/// The engine's result for a claim, with its verdict (and witness) replaced where given.
fn result(c: &Claim, forced: Option<(Verdict, Option<serde_json::Value>)>) -> ClaimResult {
    let o = claims::check(c, Duration::from_secs(120));
    let (verdict, cx) = match forced {
        Some((v, cx)) => (v, cx),
        None => (o.verdict, o.counterexample.clone()),
    };
    ClaimResult {
        id: c.id.clone(),
        paper: c.paper.clone(),
        location: c.location.clone(),
        kind: c.kind,
        verdict,
        method: c.method.clone(),
        detail: o.detail,
        counterexample: cx,
        corrected: None,
        certificate: None,
        statement: c.statement.clone(),
        seconds: 0.0,
    }
}

fn folder(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("impactkit-coq-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The claims at `paths` with the engine's results.
fn engine_results(paths: &[&str]) -> Vec<(Claim, ClaimResult)> {
    paths
        .iter()
        .map(|p| {
            let c = claim(p);
            let r = result(&c, None);
            (c, r)
        })
        .collect()
}

/// Has Coq check the files of `entries` in `dir`: each `genuine` claim must be checked,
/// each id of `rejected` (a false statement) must fail to compile, with Coq's error shown.
fn checked_and_rejected(
    dir: &Path,
    entries: &[(Claim, ClaimResult)],
    genuine: &[(Claim, ClaimResult)],
    rejected: &[&str],
) {
    let files: Vec<(String, String, String)> = entries
        .iter()
        .map(|(c, r)| {
            let text = coq::file_of(c, r).unwrap_or_else(|e| panic!("{}: {e}", c.id));
            (c.id.clone(), coq::file_name(&c.id), text)
        })
        .collect();
    let st = coq::check_folder(dir, &files, 2).unwrap();
    let status = |id: &str| st.iter().find(|(i, _)| i == id).unwrap().1.clone();
    for (c, _) in genuine {
        assert_eq!(status(&c.id), coq::CoqStatus::Checked, "{}", c.id);
    }
    for id in rejected {
        match status(id) {
            coq::CoqStatus::Rejected(why) => {
                assert!(why.contains("Error"), "{id}: {why}");
                eprintln!("{id}: {why}");
            }
            s => panic!("{id}: a false statement compiled: {s:?}"),
        }
    }
}

#[test]
fn catalogue_claims_are_checked_by_coq_and_false_statements_do_not_compile() {
    if !coq_here() {
        return;
    }
    let improper = "proofs/fp/fp-3bc-improper.toml";
    let eta12 = "proofs/fp/fp-prop7.1-eta12-negative.toml";
    let beta = "proofs/pq/pq-corner-beta.toml";
    let result1 = "proofs/fp/fp-result1.toml";
    let dy = "proofs/fp/fp-prop7.1-dy.toml";
    // genuine: a proof through the law's branches, a refutation at the engine's witness,
    // an identity, an agreement of two zones' formulas with a closed form
    let genuine = engine_results(&[improper, eta12, beta, result1, dy]);
    assert_eq!(genuine[1].1.verdict, Verdict::Refuted);
    // false mutants, each refuted by the engine, handed to Coq as `proved`
    let mutants = [
        // (3b), (3c) have determinant -1: "+1" is false
        edited(
            improper,
            "m-det",
            "x1*p_y1 - y1*p_x1 == -1",
            "x1*p_y1 - y1*p_x1 == 1",
        ),
        // the zone Z1 of (3a-3d) sends Z1 into Z2 for k < 1: "never Z2" is false
        edited(result1, "m-zone", "zone1 != 1", "zone1 != 2"),
        // beta with a 3 for the 2 of the closed form
        edited(
            beta,
            "m-beta",
            "rhs = \"(1 + k^2)/2*",
            "rhs = \"(1 + k^2)/3*",
        ),
        // Prop. 7.1's difference (13b) - (13d) with 3k^2 + 1 for 3k^2 - 1
        edited(dy, "m-dy", "(3*k^2 - 1)", "(3*k^2 + 1)"),
        // Seghete-Murphey (8), Gamma(u)^2 = I, with a sign flipped
        edited(
            "proofs/sm/sm-involution.toml",
            "m-involution",
            "\"rr1_1 == p1\"",
            "\"rr1_1 == -p1\"",
        ),
    ];
    let mut entries: Vec<(Claim, ClaimResult)> = genuine.clone();
    for m in &mutants {
        assert_eq!(
            result(m, None).verdict,
            Verdict::Refuted,
            "{} is not false",
            m.id
        );
        entries.push((m.clone(), result(m, Some((Verdict::Proved, None)))));
    }
    // the false claim eta12-negative (k = 1 included) reported proved
    let c = claim(eta12);
    let mut lie = result(&c, Some((Verdict::Proved, None)));
    lie.id = "m-eta12-proved".into();
    let mut c2 = c.clone();
    c2.id = lie.id.clone();
    entries.push((c2, lie));
    // a true claim "refuted" at a forged witness
    let c = claim(improper);
    let mut forged = result(
        &c,
        Some((Verdict::Refuted, Some(serde_json::json!({"k": "1"})))),
    );
    forged.id = "m-forged-refutation".into();
    let mut c3 = c.clone();
    c3.id = forged.id.clone();
    entries.push((c3, forged));

    let dir = folder("mutants");
    checked_and_rejected(
        &dir,
        &entries,
        &genuine,
        &[
            "m-det",
            "m-zone",
            "m-beta",
            "m-dy",
            "m-involution",
            "m-eta12-proved",
            "m-forged-refutation",
        ],
    );
    // the folder checks on its own: the laws, the tactics and the claims, by hand
    let text = std::fs::read_to_string(dir.join("claims/fp_3bc_improper.v")).unwrap();
    assert!(text.contains("Theorem fp_3bc_improper :"), "{text}");
    assert!(text.contains("tr_id_in Z1 k 1 0"), "{text}");
    // an agreement: each side's outputs are lets inside its own term
    let text = std::fs::read_to_string(dir.join("claims/fp_prop7_1_dy.v")).unwrap();
    assert!(
        text.contains("(let y1 := snd (tr_nid_in Z1 k eps x y) in let p_y1 := snd (tr_nid_in Z12 k eps x y) in"),
        "{text}"
    );
    assert!(dir.join("lib/Corner.v").exists() && dir.join("_CoqProject").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_claim_without_a_coq_law_says_why() {
    let c = claim("proofs/sm/sm-cradle-only-minimal-corrected.toml");
    let r = result(&c, Some((Verdict::Proved, None)));
    let why = coq::file_of(&c, &r).unwrap_err();
    assert!(
        why.contains("no Coq") || why.contains("has no Coq statement"),
        "{why}"
    );
}

#[test]
fn an_agreement_that_asserts_every_side_defined_is_not_exported() {
    // its statement includes that each form gives a value wherever the others do, which
    // the Coq statement (total functions) cannot say yet: not exported, rather than a
    // weaker theorem
    let c = claim("proofs/fp/fp-forms-ideal-corrected.toml");
    let r = result(&c, Some((Verdict::Proved, None)));
    let why = coq::file_of(&c, &r).unwrap_err();
    assert!(why.contains("every_side_defined"), "{why}");
}

#[test]
fn the_library_has_no_admitted_proof_and_no_axiom() {
    for f in [
        "coq/Corner.v",
        "coq/Tactics.v",
        "coq/Propagative.v",
        "coq/Sequential.v",
        "coq/Penny.v",
    ] {
        let t = std::fs::read_to_string(f).unwrap();
        for w in ["Admitted", "admit.", "Axiom ", "Parameter ", "Conjecture "] {
            assert!(!t.contains(w), "{f} contains {w}");
        }
    }
}

/// Exact examples (a statement without variables), the H matrices of FP Thm 5.3 and
/// Pasquero's rules (5)–(7) and (10) on the corner: genuine verdicts are checked, and a
/// false example reported `proved`, a true one reported `refuted` and false mutants of the
/// new laws' claims (each refuted by the engine first) do not compile.
#[test]
fn exact_examples_and_the_corner_rules_of_pasquero_in_coq() {
    if !coq_here() {
        return;
    }
    let eq43 = "proofs/wl/wl-thm1-eq43.toml";
    let zones = "proofs/pq/pq-zones-2-vs-9-corrected.toml";
    let charpoly = "proofs/fp/fp-thm5.3-charpoly.toml";
    let agrees = "proofs/pq/pq-corner-agrees-fp.toml";
    let genuine = engine_results(&[eq43, zones, charpoly, agrees]);
    assert_eq!(genuine[0].1.verdict, Verdict::Refuted);
    let mut entries = genuine.clone();
    // (42)-(43) at the point: the printed relation is false (lhs = 1/2, rhs = 1/8)
    let c = claim(eq43);
    let mut lie = result(&c, Some((Verdict::Proved, None)));
    lie.id = "m-eq43-proved".into();
    let mut c2 = c.clone();
    c2.id = lie.id.clone();
    entries.push((c2, lie));
    // a true relation there (lhs = 4 rhs), reported refuted at the example's point
    let t = edited(eq43, "m-eq43-true", "\"lhs == rhs\"", "\"lhs == 4*rhs\"");
    assert_eq!(result(&t, None).verdict, Verdict::Proved);
    let forged = result(&t, Some((Verdict::Refuted, Some(serde_json::json!({})))));
    entries.push((t, forged));
    let mutants = [
        // det H1 = eps^2, not eps
        edited(
            charpoly,
            "m-det-h1",
            "h1_11*h1_22 - h1_12*h1_21 == eps^2\"",
            "h1_11*h1_22 - h1_12*h1_21 == eps\"",
        ),
        // in Z12, (9): the velocity is incoming for both walls, not one
        edited(zones, "m-z12", "\"impacts == 2\"", "\"impacts == 1\""),
        // rule (7) with the second COR halved is not FP's (13a-13d) with one COR
        edited(
            agrees,
            "m-eps2",
            "rule = \"asymmetric\", eps1 = \"eps\", eps2 = \"eps\" } }",
            "rule = \"asymmetric\", eps1 = \"eps\", eps2 = \"eps/2\" } }",
        ),
    ];
    for m in &mutants {
        assert_eq!(result(m, None).verdict, Verdict::Refuted, "{}", m.id);
        entries.push((m.clone(), result(m, Some((Verdict::Proved, None)))));
    }
    let dir = folder("examples");
    checked_and_rejected(
        &dir,
        &entries,
        &genuine,
        &[
            "m-eq43-proved",
            "m-eq43-true",
            "m-det-h1",
            "m-z12",
            "m-eps2",
        ],
    );
    // the example's statement: its inputs and values as lets, the relation as the goal
    let text = std::fs::read_to_string(dir.join("claims/wl_thm1_eq43.v")).unwrap();
    assert!(text.contains("let al := (1/2) in"), "{text}");
    assert!(
        text.contains("Theorem wl_thm1_eq43 : ~ (wl_thm1_eq43_1)."),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Clark–Bloch's penny in Coq (`coq/Penny.v`): the printed (28)–(29) against (5) for the
/// back end (34), (12)–(13) in the coordinates (11), the plastic example of Sect. IV-B and
/// the refuted control sentence of Sect. VII are checked; false mutants (each refuted by
/// the engine first) and the control sentence reported `proved` do not compile.
#[test]
fn the_penny_of_clark_and_bloch_in_coq() {
    if !coq_here() {
        return;
    }
    let eq34 = "proofs/cb/cb-eq34.toml";
    let eq12 = "proofs/cb/cb-eq12-13.toml";
    let plastic = "proofs/cb/cb-iv-b-plastic.toml";
    let control = "proofs/cb/cb-vii-control.toml";
    let genuine = engine_results(&[eq34, eq12, plastic, control]);
    assert_eq!(genuine[3].1.verdict, Verdict::Refuted);
    let mut entries = genuine.clone();
    let mutants = [
        // the momentum jump of (5) is C dH, not -C dH
        edited(
            eq34,
            "m-cb-jump",
            "\"dP_4 == C29*dH_4\"",
            "\"dP_4 == -C29*dH_4\"",
        ),
        // (25): (I + mR^2) thetaddot, not I thetaddot
        edited(
            eq12,
            "m-cb-eq25",
            "\"res_theta == (I + m*R^2)*thdd\"",
            "\"res_theta == I*thdd\"",
        ),
        // the plastic impact of Sect. IV-B keeps thetadot = 10
        edited(plastic, "m-cb-theta", "P_3 = \"10\"", "P_3 = \"-10\""),
    ];
    for m in &mutants {
        assert_eq!(result(m, None).verdict, Verdict::Refuted, "{}", m.id);
        entries.push((m.clone(), result(m, Some((Verdict::Proved, None)))));
    }
    // the refuted control sentence reported proved
    let c = claim(control);
    let mut lie = result(&c, Some((Verdict::Proved, None)));
    lie.id = "m-cb-control-proved".into();
    let mut c2 = c.clone();
    c2.id = lie.id.clone();
    entries.push((c2, lie));
    let dir = folder("penny");
    checked_and_rejected(
        &dir,
        &entries,
        &genuine,
        &[
            "m-cb-jump",
            "m-cb-eq25",
            "m-cb-theta",
            "m-cb-control-proved",
        ],
    );
    let text = std::fs::read_to_string(dir.join("claims/cb_eq34.v")).unwrap();
    assert!(
        text.contains("cb_P m I J (cb_dH (-1) R' c s hx hy)"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Seghete–Murphey's billiard break (Sect. VII-A) in Coq: (31)'s inner product checked
/// against cos θ/m_c, and the printed middle expression and the angle θ_min refuted, each
/// over the stated domain with the probe's conditions (positive radii and masses, θ in
/// [0, π], a and b apart) as premises; a false mutant does not compile.
#[test]
fn the_billiard_of_seghete_and_murphey_in_coq() {
    if !coq_here() {
        return;
    }
    let final_ = "proofs/sm/sm-billiard-inner-product-final.toml";
    let printed = "proofs/sm/sm-billiard-inner-product.toml";
    let theta = "proofs/sm/sm-billiard-theta-min.toml";
    let genuine = engine_results(&[final_, printed, theta]);
    assert_eq!(genuine[1].1.verdict, Verdict::Refuted);
    assert_eq!(genuine[2].1.verdict, Verdict::Refuted);
    let mut entries = genuine.clone();
    // cos θ/m_c with the sign of the printed middle expression
    let m = edited(
        final_,
        "m-bil-sign",
        "\"inner == cos_over_mc\"",
        "\"inner == -cos_over_mc\"",
    );
    assert_eq!(result(&m, None).verdict, Verdict::Refuted);
    entries.push((m.clone(), result(&m, Some((Verdict::Proved, None)))));
    let dir = folder("billiard");
    checked_and_rejected(&dir, &entries, &genuine, &["m-bil-sign"]);
    let text = std::fs::read_to_string(dir.join("claims/sm_billiard_inner_product.v")).unwrap();
    assert!(text.contains("0 <= sm_bil_overlap ra rb rc t ->"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The claim's result with its verdict and the certificate the engine writes for it.
fn with_certificate(c: &Claim, verdict: Verdict) -> ClaimResult {
    let o = claims::check(c, Duration::from_secs(120));
    let mut r = result(c, Some((verdict, None)));
    r.certificate = o.certificate;
    r
}

/// A proved claim's proof built from its certificate's cells (the cover as the signs of the
/// parameters' pieces and the cone's forms, per cell the chart as a substitution with its
/// positive variables): `fp-result2` (k ≥ 1, whose signs the generic proof does not find)
/// and `fp-prop7.1-bounds-norm` are checked; the same certificate handed with a false
/// mutant, and a true claim with a forged chart, do not compile.
#[test]
fn a_proof_from_the_certificates_cells() {
    if !coq_here() {
        return;
    }
    impactkit::arith::symbolic::enable_decision_log();
    let result2 = "proofs/fp/fp-result2.toml";
    let norm = "proofs/fp/fp-prop7.1-bounds-norm.toml";
    let genuine: Vec<(Claim, ClaimResult)> = [result2, norm]
        .iter()
        .map(|p| {
            let c = claim(p);
            let r = with_certificate(&c, Verdict::Proved);
            assert_eq!(result(&c, None).verdict, Verdict::Proved, "{p}");
            let text = coq::file_of(&c, &r).unwrap();
            assert!(
                text.contains("ik_cover") && text.contains("ik_cell_solve"),
                "{text}"
            );
            (c, r)
        })
        .collect();
    let mut entries = genuine.clone();
    // a false conclusion (0 at k = u = w = 1) with the genuine claim's certificate
    let m = edited(norm, "m-norm", ">= 0", ">= 1/10");
    assert_eq!(result(&m, None).verdict, Verdict::Refuted);
    let mut r = genuine[1].1.clone();
    r.id = m.id.clone();
    entries.push((m, r));
    // Result 2 for k >= 1/2 (false: Z1 goes to Z2 for k < 1) with the certificate for k >= 1
    let m = edited(
        result2,
        "m-result2",
        "k = \"[1, inf)\"",
        "k = \"[1/2, inf)\"",
    );
    assert_eq!(result(&m, None).verdict, Verdict::Refuted);
    let mut r = genuine[0].1.clone();
    r.id = m.id.clone();
    entries.push((m, r));
    // the true claim with a chart that is not the cell's (x scaled by 2)
    let c = claim(norm);
    let mut r = genuine[1].1.clone();
    let forged = serde_json::to_string(&r.certificate)
        .unwrap()
        .replace("\"k\":\"t_k/(t_k + 1)\"", "\"k\":\"2*t_k/(t_k + 1)\"");
    assert_ne!(forged, serde_json::to_string(&r.certificate).unwrap());
    r.certificate = serde_json::from_str(&forged).unwrap();
    let mut c2 = c.clone();
    c2.id = "m-forged-chart".into();
    r.id = c2.id.clone();
    entries.push((c2, r));
    let dir = folder("cells");
    checked_and_rejected(
        &dir,
        &entries,
        &genuine,
        &["m-norm", "m-result2", "m-forged-chart"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Newton's cradle of Pasquero's Sect. 4.1 in Coq (`coq/Cradle.v`): a run of the procedure
/// is a chain of `let`s (the velocities after 1, 2, … impacts) that the proof walks one by
/// one. `pq-cradle-p3` (proved, from its certificate's cells) and `pq-cradle-p2-sign`
/// (refuted at eps = 0) are checked. A false mutant of p3 handed to Coq as `proved` does
/// not compile, and neither does a velocity after the run has stopped: with ε = 1 the run
/// exits after two impacts, so `v3_3` does not exist (impactkit names it missing, it
/// proves nothing) although the exit velocity, carried on, equals v0 there.
#[test]
fn a_cradle_run_walked_let_by_let() {
    if !coq_here() {
        return;
    }
    impactkit::arith::symbolic::enable_decision_log();
    let p3 = "proofs/pq/pq-cradle-p3.toml";
    let c = claim(p3);
    let r = with_certificate(&c, Verdict::Proved);
    assert_eq!(result(&c, None).verdict, Verdict::Proved);
    let text = coq::file_of(&c, &r).unwrap();
    assert!(
        text.contains("pq3_step") && text.contains("ik_cwalk"),
        "{text}"
    );
    let mut genuine = vec![(c, r.clone())];
    genuine.extend(engine_results(&["proofs/pq/pq-cradle-p2-sign.toml"]));
    assert_eq!(genuine[1].1.verdict, Verdict::Refuted);
    let mut entries = genuine.clone();
    let m = edited(
        p3,
        "m-cradle-p3",
        "v3_3 == (1 + eps)^2/4*v0",
        "v3_3 == (1 + eps)^2/4*v0*(1 - eps/100)",
    );
    assert_eq!(result(&m, None).verdict, Verdict::Refuted);
    let mut rm = r.clone();
    rm.id = m.id.clone();
    entries.push((m, rm));
    let text = std::fs::read_to_string(p3).unwrap();
    let mut gone_text = text.replace("id = \"pq-cradle-p3\"", "id = \"m-cradle-gone\"");
    for (from, to) in [
        (
            "vars = { eps = [\"0\", \"1\"]",
            "vars = { eps = [\"1\", \"1\"]",
        ),
        ("domain = { eps = \"(0, 1)\"", "domain = { eps = \"[1, 1]\""),
    ] {
        assert!(gone_text.contains(from), "{from}");
        gone_text = gone_text.replace(from, to);
    }
    let start = gone_text.find("conclude = [").unwrap();
    let end = start + gone_text[start..].find('\n').unwrap();
    gone_text.replace_range(start..end, "conclude = [\"v3_3 == v0\"]");
    let gone = Claim::parse(&gone_text, Path::new(p3)).unwrap();
    assert_eq!(result(&gone, None).verdict, Verdict::Inconclusive);
    let rg = result(&gone, Some((Verdict::Proved, None)));
    entries.push((gone, rg));
    let dir = folder("cradle");
    checked_and_rejected(&dir, &entries, &genuine, &["m-cradle-p3", "m-cradle-gone"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Seghete–Murphey's variational integrator in Coq (`coq/Variational.v`: the midpoint
/// L_d of a particle under a constant force, its momentum maps F⁻ and F⁺ differentiated by
/// hand, two steps from (q0, p0)): the refutation of `sm-vi-legendre-29` (the sentence
/// after (29) reads F⁺ = F⁻ where (29) makes them opposite) is checked. The statement
/// handed to Coq as proved does not compile, and neither does a refutation, at the same
/// witness, of the true statement F⁺ = −F⁻.
#[test]
fn the_variational_integrator_of_seghete_and_murphey_in_coq() {
    if !coq_here() {
        return;
    }
    let path = "proofs/sm/sm-vi-legendre-29.toml";
    let genuine = engine_results(&[path]);
    let (c, r) = &genuine[0];
    assert_eq!(r.verdict, Verdict::Refuted);
    let text = coq::file_of(c, r).unwrap();
    assert!(text.contains("var_fplus m f h q0 q1"), "{text}");
    let mut entries = genuine.clone();
    let mut proved = c.clone();
    proved.id = "m-legendre-proved".into();
    entries.push((
        proved.clone(),
        result(&proved, Some((Verdict::Proved, None))),
    ));
    let true_one = edited(
        path,
        "m-legendre-opposite",
        "fplus == fminus",
        "fplus == -fminus",
    );
    let forged = result(
        &true_one,
        Some((Verdict::Refuted, r.counterexample.clone())),
    );
    entries.push((true_one, forged));
    let dir = folder("variational");
    checked_and_rejected(
        &dir,
        &entries,
        &genuine,
        &["m-legendre-proved", "m-legendre-opposite"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// TREX's tail length in Coq (`coq/Trex.v`, the display of Sect. VII-B with its two
/// radicals): the refutation of `sm-trex-ltail-inverse` (L_tail is homogeneous of degree
/// 1, so c = L_tail·r1/r2 doubles between (7, 4) and (14, 8)) and the proof of
/// `sm-trex-ltail-formula` (L_tail(7, 4) = 15.86275… to four decimals, beyond the
/// homothetic length) are checked, the radicals bounded by rationals (`ik_sqrts`). False
/// statements do not compile: the refuted claim handed in as proved; the lower bound moved
/// past the value (15.8628, false by 5·10⁻⁵) handed in as proved; and a refutation, at the
/// same witness, of the true relation ck = 2c.
#[test]
fn tail_length_of_trex_in_coq_with_ground_radicals() {
    if !coq_here() {
        return;
    }
    let (inverse, formula) = (
        "proofs/sm/sm-trex-ltail-inverse.toml",
        "proofs/sm/sm-trex-ltail-formula.toml",
    );
    let genuine = engine_results(&[inverse, formula]);
    assert_eq!(genuine[0].1.verdict, Verdict::Refuted);
    assert_eq!(genuine[1].1.verdict, Verdict::Proved);
    let text = coq::file_of(&genuine[1].0, &genuine[1].1).unwrap();
    assert!(text.contains("let ltail := tr_ltail r1 r2 in"), "{text}");
    let mut entries = genuine.clone();
    let mut proved = genuine[0].0.clone();
    proved.id = "m-ltail-inverse-proved".into();
    entries.push((
        proved.clone(),
        result(&proved, Some((Verdict::Proved, None))),
    ));
    let past = edited(
        formula,
        "m-ltail-past",
        "\"ltail_lo >= 15.8627\"",
        "\"ltail_lo >= 15.8628\"",
    );
    entries.push((past.clone(), result(&past, Some((Verdict::Proved, None)))));
    let doubled = edited(
        inverse,
        "m-ltail-doubled",
        "holds = [\"ck_lo <= c_hi\", \"c_lo <= ck_hi\"]",
        "holds = [\"ck_lo <= 2 * c_hi\", \"2 * c_lo <= ck_hi\"]",
    );
    let forged = result(
        &doubled,
        Some((Verdict::Refuted, genuine[0].1.counterexample.clone())),
    );
    entries.push((doubled, forged));
    let dir = folder("trex");
    checked_and_rejected(
        &dir,
        &entries,
        &genuine,
        &["m-ltail-inverse-proved", "m-ltail-past", "m-ltail-doubled"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An exact example whose probe has no Coq law (`corner.result6_chi`): the outputs the
/// statement uses (`ta_steps`, `zone0`) become its parameters, and the refutation of
/// `fp-result3-eq9-literal` is checked for all their values (condition (9) as printed has
/// no solution: m = 1/20 > 0, whatever the law's run gives), hence for the law's. The
/// claim with its failing relation reversed (`m > 0`, true) handed to Coq as refuted does
/// not compile (what fails then is only about the outputs); a proof is never exported
/// without the law; an example whose every relation involves an output stays not
/// exported.
#[test]
fn a_refutation_whatever_the_outputs_of_a_probe_without_a_coq_law() {
    if !coq_here() {
        return;
    }
    let path = "proofs/fp/fp-result3-eq9-literal.toml";
    let genuine = engine_results(&[path]);
    let (c, r) = &genuine[0];
    assert_eq!(r.verdict, Verdict::Refuted);
    let text = coq::file_of(c, r).unwrap();
    assert!(
        text.contains("forall ta_steps zone0 : R, ~ (fp_result3_eq9_literal_1 ta_steps zone0)"),
        "{text}"
    );
    let why = coq::file_of(c, &result(c, Some((Verdict::Proved, None)))).unwrap_err();
    assert!(why.contains("only a refutation"), "{why}");
    let mut entries = genuine.clone();
    let flipped = edited(path, "m-eq9-flipped", "\"m <= 0\"]", "\"m > 0\"]");
    let forged = result(&flipped, Some((Verdict::Refuted, r.counterexample.clone())));
    entries.push((flipped, forged));
    let dir = folder("opaque");
    checked_and_rejected(&dir, &entries, &genuine, &["m-eq9-flipped"]);
    let _ = std::fs::remove_dir_all(&dir);
    let table = claim("proofs/pq/pq-table1.toml");
    let r = result(&table, None);
    assert_eq!(r.verdict, Verdict::Refuted);
    let why = coq::file_of(&table, &r).unwrap_err();
    assert!(
        why.contains("no Coq law for the probe cradle.table1_readings"),
        "{why}"
    );
}

/// The spectral radius ρ(H₁) in Coq (`fp_rho2` of `coq/Corner.v`: the larger modulus of
/// the roots of λ² − tλ + d, written through H₁'s trace and determinant): the refutation of
/// `fp-remark9-monotone` (at k = 1/4, ρ falls from ε = 1/13 to ε = 1/13 + 1/8: real
/// eigenvalues, radicals bounded by rationals) is checked. False statements do not
/// compile: the refuted claim handed in as proved, and a refutation of the true reverse
/// relation (ρ at the larger ε is at most ρ at the smaller) at the same witness.
#[test]
fn spectral_radius_of_h1_in_coq() {
    if !coq_here() {
        return;
    }
    let path = "proofs/fp/fp-remark9-monotone.toml";
    let genuine = engine_results(&[path]);
    assert_eq!(genuine[0].1.verdict, Verdict::Refuted);
    let text = coq::file_of(&genuine[0].0, &genuine[0].1).unwrap();
    assert!(
        text.contains("let rho := fp_rho2 rho_trace rho_det in"),
        "{text}"
    );
    let mut entries = genuine.clone();
    let mut proved = genuine[0].0.clone();
    proved.id = "m-remark9-proved".into();
    entries.push((
        proved.clone(),
        result(&proved, Some((Verdict::Proved, None))),
    ));
    let reverse = edited(
        path,
        "m-remark9-reverse",
        "conclude = [\"p_rho_hi >= rho_lo\"]",
        "conclude = [\"p_rho_lo <= rho_hi\"]",
    );
    let forged = result(
        &reverse,
        Some((Verdict::Refuted, genuine[0].1.counterexample.clone())),
    );
    entries.push((reverse, forged));
    let dir = folder("rho");
    checked_and_rejected(
        &dir,
        &entries,
        &genuine,
        &["m-remark9-proved", "m-remark9-reverse"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Winandy–Leine's rods in Coq (`coq/Rods.v`: identical rods stepped by Table 1 over 2n
/// time units, a chain of `let`s): the two rods of Sect. 4.1, the refutation of the three
/// rods' outcome as printed after (35) (the left rod ends at −v, not v), its correction
/// for every v > 0 (an agreement whose rod side is hoisted and walked) and (36) against
/// the sequential law are checked. The printed outcome handed to Coq as proved, and the
/// two rods' outcome with the right rod at 3/4 (v/2) instead of 3/2, do not compile.
#[test]
fn the_rods_of_winandy_and_leine_in_coq() {
    if !coq_here() {
        return;
    }
    impactkit::arith::symbolic::enable_decision_log();
    let mut genuine =
        engine_results(&["proofs/wl/wl-rods-two.toml", "proofs/wl/wl-rods-three.toml"]);
    assert_eq!(genuine[0].1.verdict, Verdict::Proved);
    assert_eq!(genuine[1].1.verdict, Verdict::Refuted);
    let corrected = "proofs/wl/wl-rods-three-corrected.toml";
    let c = claim(corrected);
    let r = with_certificate(&c, Verdict::Proved);
    let text = coq::file_of(&c, &r).unwrap();
    assert!(
        text.contains("let ik_s0_out1 := wl_rod_v") && text.contains("ik_unsettled = 0"),
        "{text}"
    );
    genuine.push((c, r.clone()));
    let mut entries = genuine.clone();
    let printed = edited(corrected, "m-rods-printed", "out1 = \"-v\"", "out1 = \"v\"");
    assert_eq!(result(&printed, None).verdict, Verdict::Refuted);
    let mut rp = r.clone();
    rp.id = printed.id.clone();
    entries.push((printed, rp));
    let half = edited(
        "proofs/wl/wl-rods-two.toml",
        "m-rods-half",
        "out2 = \"3/2\"",
        "out2 = \"3/4\"",
    );
    assert_eq!(result(&half, None).verdict, Verdict::Refuted);
    let rh = result(&half, Some((Verdict::Proved, None)));
    entries.push((half, rh));
    let dir = folder("rods");
    checked_and_rejected(&dir, &entries, &genuine, &["m-rods-printed", "m-rods-half"]);
    let _ = std::fs::remove_dir_all(&dir);
}
