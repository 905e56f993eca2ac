//! Verdicts and mutants of the claims added for issue 13 (this paper's part): the expected
//! verdicts live here, never in the claim files.
//!
//! Fassino–Pasquero (2020): every claim file of `proofs/fp/` added for issue 13 (and the
//! two rewritten, `fp-result6-iterations`, `fp-example-pi4`) with its expected verdict,
//! the exact counterexamples of the refuted ones, and one mutant per kind and per probe
//! of `probes_fp.rs` that must come out refuted.

use crate::common::claims::{load, mutant_refuted, outcome, verdict_of};
use impactkit::claims::{check, Outcome, Verdict};
use std::time::Duration;

/// The mutation test of the claim `id` of this paper.
fn mutant(id: &str, from: &str, to: &str) -> String {
    mutant_refuted(&format!("proofs/fp/{id}.toml"), from, to)
}

fn run(id: &str) -> Outcome {
    let (_, c) = load(&format!("proofs/fp/{id}.toml"));
    outcome(&c.id)
}

#[test]
fn fp_issue13_verdicts() {
    for (id, want) in [
        ("fp-3bc-improper", Verdict::Proved),
        ("fp-6-zone-boundaries-corrected", Verdict::Proved),
        ("fp-6-zone-boundaries", Verdict::Refuted),
        ("fp-cor3.1-termination", Verdict::Proved),
        ("fp-eq2-lambda", Verdict::Proved),
        ("fp-example-pi4-eta1", Verdict::Proved),
        ("fp-example-pi4-f64", Verdict::Proved),
        ("fp-example-pi4-numbers", Verdict::Proved),
        ("fp-example-pi4-threshold", Verdict::Refuted),
        ("fp-example-pi4-xi1-corrected", Verdict::Proved),
        ("fp-example-pi4-xi1", Verdict::Refuted),
        ("fp-example-pi4", Verdict::Proved),
        ("fp-prop7.1-bounds-2S-x", Verdict::Proved),
        ("fp-prop7.1-bounds-2S-y", Verdict::Proved),
        ("fp-prop7.1-bounds-4S", Verdict::Refuted),
        ("fp-prop7.1-bounds-case2-corrected", Verdict::Proved),
        ("fp-prop7.1-bounds-case2", Verdict::Refuted),
        ("fp-prop7.1-bounds-case3-eta1-corrected", Verdict::Proved),
        ("fp-prop7.1-bounds-case3-eta1", Verdict::Refuted),
        ("fp-prop7.1-bounds-case3-xi1", Verdict::Proved),
        ("fp-prop7.1-bounds-maclaurin", Verdict::Proved),
        ("fp-prop7.1-bounds-norm-rewrite", Verdict::Proved),
        ("fp-prop7.1-bounds-norm", Verdict::Proved),
        ("fp-prop7.1-bounds-triangle-corrected", Verdict::Proved),
        ("fp-prop7.1-bounds-triangle", Verdict::Refuted),
        ("fp-prop7.1-table1", Verdict::Proved),
        ("fp-remark4-norm", Verdict::Proved),
        ("fp-remark9-monotone", Verdict::Refuted),
        ("fp-result1-nid", Verdict::Proved),
        ("fp-result2-nid", Verdict::Proved),
        ("fp-result3-angles", Verdict::Proved),
        ("fp-result3-chi", Verdict::Proved),
        ("fp-result4-nid", Verdict::Proved),
        ("fp-result5", Verdict::Proved),
        (
            "fp-result6-iterations-corrected",
            Verdict::ConfirmedOnSamples,
        ),
        ("fp-result6-iterations", Verdict::Refuted),
        ("fp-result7", Verdict::Proved),
        ("fp-sect2.2-double-angle", Verdict::Proved),
        ("fp-sect6-N-estimate", Verdict::Proved),
        ("fp-sect8-figures", Verdict::Proved),
        ("fp-sect8-inputs", Verdict::Proved),
        ("fp-thm3.1-eq11-12", Verdict::Proved),
        ("fp-thm3.1-eq12-f", Verdict::Proved),
        ("fp-thm3.1-eq12", Verdict::Proved),
        ("fp-thm5.1-beta-z-form", Verdict::Proved),
        ("fp-thm5.1-eps-bounds-z-large", Verdict::Proved),
        ("fp-thm5.1-eps-bounds", Verdict::Proved),
        ("fp-thm5.3-H1", Verdict::Proved),
        ("fp-thm5.3-H2-eq16", Verdict::Proved),
        ("fp-thm5.3-charpoly", Verdict::Proved),
        ("fp-thm5.3-limit", Verdict::Proved),
        ("fp-thm5.3-rho-formula", Verdict::Proved),
        ("fp-zone-symmetry", Verdict::Proved),
        ("fp-zones-phi-intro", Verdict::Proved),
        ("fp-thm5.1-first-factor", Verdict::Proved),
        ("fp-thm5.1-eps0", Verdict::Proved),
        ("fp-thm5.3-rho-range", Verdict::Proved),
        ("fp-lemma7.2-displays", Verdict::Proved),
        ("fp-lemma7.2-bounds", Verdict::Proved),
        ("fp-lemma7.2", Verdict::Proved),
        ("fp-result3-eq9-literal", Verdict::Refuted),
    ] {
        let o = run(id);
        assert_eq!(o.verdict, want, "{id}: {}", o.detail);
    }
}

#[test]
fn zone_conclusions_proved_by_certificates() {
    // the zone of the outcome changes within the cell; each excluded zone is shown empty
    // by a certificate (Theorem 3.1: xi*xi1 + eta*eta1 = -(xi^2 + eta^2) on Z12)
    for id in ["fp-thm3.1", "fp-result1", "fp-result1-nid", "fp-thm5.1"] {
        let o = run(id);
        assert_eq!(o.verdict, Verdict::Proved, "{id}: {}", o.detail);
    }
    let o = run("fp-thm3.1");
    let cert = o.certificate.unwrap().to_string();
    assert!(cert.contains("= -c_1^2 - c_2^2"), "{cert}");
    // the engine can fail: another zone is reached, at an exact point
    let d = mutant(
        "fp-thm3.1",
        "conclude = [\"zone1 != 12\"]",
        "conclude = [\"zone1 != 1\"]",
    );
    assert!(d.contains("zone1 = 1"), "{d}");
    mutant(
        "fp-result1",
        "conclude = [\"zone1 != 1\", \"zone1 != 12\"]",
        "conclude = [\"zone1 != 1\", \"zone1 != 0\"]",
    );
}

#[test]
fn square_roots_and_abs_eliminated_at_tight_ends() {
    // rho(H1) < 1 tends to equality as beta -> 1; |3k^2 - 1|(1 + eps)/(1 + k^2)^2 < 2 as
    // k -> 0 with eps = 1: both proved over the open domain, and a bound below the
    // supremum is refuted (by interval evaluation at a point)
    for id in ["fp-thm5.3-spectral-radius", "fp-prop7.1-bounds-2S-y"] {
        let o = run(id);
        assert_eq!(o.verdict, Verdict::Proved, "{id}: {}", o.detail);
        assert!(
            o.detail.starts_with("symbolic proof over the whole domain"),
            "{}",
            o.detail
        );
    }
    mutant(
        "fp-thm5.3-spectral-radius",
        "holds = \"rho < 1\"",
        "holds = \"rho < 99/100\"",
    );
    mutant(
        "fp-prop7.1-bounds-2S-y",
        "(1 + k^2)^2 < 2\"",
        "(1 + k^2)^2 < 19/10\"",
    );
    // without the hypothesis d >= 0 the root of d is not taken where d may be negative
    let (text, _) = load("proofs/fp/fp-thm5.3-spectral-radius.toml");
    let text = text.replacen("assume = [\"d >= 0\"]", "assume = []", 1);
    let c = impactkit::claims::Claim::parse(&text, std::path::Path::new("mutant.toml")).unwrap();
    // (the interval fallback then runs to its box bound)
    let o = check(&c, Duration::from_secs(120));
    assert_ne!(o.verdict, Verdict::Proved, "{}", o.detail);
    assert!(
        o.detail.contains("no hypothesis says it is >= 0"),
        "{}",
        o.detail
    );
}

#[test]
fn fp_issue13_counterexamples() {
    // (6a)/(6b) on their boundary rays: two conditions of (6) hold on a ray of Z0 (found
    // by the symbolic method in the boundary cell), none on phi = -alpha
    let o = run("fp-6-zone-boundaries");
    assert_eq!(o.verdict, Verdict::Refuted, "{}", o.detail);
    assert!(o.detail.contains("phi_count = 2"), "{}", o.detail);
    // the phi form (6) gives no value on the ray phi = -alpha (xi = 0, eta > 0), so the
    // three forms are not equivalent there; with (6b) corrected they are, everywhere
    let o = run("fp-forms-ideal");
    assert_eq!(o.verdict, Verdict::Refuted, "{}", o.detail);
    assert!(
        o.detail.starts_with("[Z1] the right side gives no outcome"),
        "{}",
        o.detail
    );
    let cx = o.counterexample.unwrap();
    let q = |n: &str| {
        cx[n]
            .as_str()
            .unwrap()
            .parse::<num_rational::BigRational>()
            .unwrap()
    };
    assert_eq!(
        q("k") * q("x") + q("y"),
        num_rational::BigRational::from_integer(0.into())
    );
    let o = run("fp-forms-ideal-corrected");
    assert_eq!(o.verdict, Verdict::Proved, "{}", o.detail);
    mutant(
        "fp-forms-ideal-corrected",
        "inputs = { corrected = \"1\" }",
        "inputs = { corrected = \"0\" }",
    );
    // v = 0 has no direction phi: without the hypothesis the origin is a counterexample
    mutant(
        "fp-forms-ideal-corrected",
        "\"k*x - y <= 0\", \"x^2 + y^2 > 0\"",
        "\"k*x - y <= 0\"",
    );
    // Results 5 and 7 by induction over TA's steps: a run-level count the lemmas do not
    // give is refuted (the instance at the run's start fails, then an exact run)
    for id in ["fp-result5", "fp-result7"] {
        let d = mutant(
            id,
            "conclude = [\"multiple == 1\"]",
            "conclude = [\"multiple == 2\"]",
        );
        assert!(d.contains("`multiple == 2` fails"), "{d}");
    }
    // Result 6 read literally: chi is not the number of iterations
    let o = run("fp-result6-iterations");
    assert!(o.detail.contains("left 1 but right 0"), "{}", o.detail);
    // (9) as printed (angles not reduced modulo 2 pi) has no solution at alpha = pi/10,
    // phi_0 = -13 pi/20, where TA exits after 2 steps
    let o = run("fp-result3-eq9-literal");
    assert_eq!(o.detail, "`m <= 0` fails: m = 1/20");
    // the example's xi1 is about -1.414, not x1
    let cx = run("fp-example-pi4-xi1").counterexample.unwrap();
    assert_eq!(cx["output"], "xi1");
    assert_eq!(cx["stated"], "-0.707106781186547");
    // binary64 eta1 with the paper's inputs (k = tan(pi/4), v0 = (cos, sin) in binary64):
    // 2^-51 = 4.440892098500626e-16, as printed
    let o = run("fp-example-pi4-eta1");
    assert_eq!(o.verdict, Verdict::Proved, "{}", o.detail);
    // 2 * 2^-52 = 4.44e-16, not 4.5e-16
    let cx = run("fp-example-pi4-threshold").counterexample.unwrap();
    assert_eq!(cx["computed"], "1/2251799813685248");
    // rho(H1) decreases when eps grows at beta = 15/17 (k = 1/4)
    let o = run("fp-remark9-monotone");
    assert!(o.detail.starts_with("[eps increases]"), "{}", o.detail);
    // equality in the displayed strict inequalities of Prop. 7.1
    let o = run("fp-prop7.1-bounds-case2");
    assert!(o.detail.starts_with("[ray eta_n = 0"), "{}", o.detail);
    let o = run("fp-prop7.1-bounds-case3-eta1");
    assert!(o.detail.starts_with("[eps = 0]"), "{}", o.detail);
    assert!(o.detail.contains("eta1 = 0"), "{}", o.detail);
    let o = run("fp-prop7.1-bounds-triangle");
    assert!(o.detail.contains("fails at"), "{}", o.detail);
}

#[test]
fn fp_issue13_identity_and_inequality_mutants() {
    // Remark 4: a coefficient
    let d = mutant(
        "fp-remark4-norm",
        "(1 - k^2)/(2*k^2)*xi*eta",
        "(1 - k^2)/(3*k^2)*xi*eta",
    );
    assert!(d.contains("lhs =") && d.contains("rhs ="), "{d}");
    // Theorem 5.1: the sign of eps in the beta-z form
    mutant(
        "fp-thm5.1-beta-z-form",
        "rhs = \"xi/(1 - beta*2*z/(1 + z^2))*(-eps",
        "rhs = \"xi/(1 - beta*2*z/(1 + z^2))*(eps",
    );
    // the bound 2 of the Maclaurin coefficient: its maximum is about 1.76
    let d = mutant(
        "fp-prop7.1-bounds-2S-x",
        "holds = \"k*(1 + eps)*(3 - k^2)/(1 + k^2)^2 < 2\"",
        "holds = \"k*(1 + eps)*(3 - k^2)/(1 + k^2)^2 < 17/10\"",
    );
    assert!(d.contains("certified"), "{d}");
}

/// `inequality` claims with a `proof` table: the symbolic method on the paper's domain
/// (open and half-open ends) proves them where interval boxes cannot reach the boundary.
#[test]
fn fp_inequalities_proved_on_the_papers_domain() {
    for id in [
        "fp-thm3.1-reduced",
        "fp-thm5.1-reduced",
        "fp-prop7.1-bounds-norm",
    ] {
        let o = run(id);
        assert_eq!(o.verdict, Verdict::Proved, "{id}: {}", o.detail);
        assert!(o.detail.contains("symbolic proof"), "{id}: {}", o.detail);
    }
    // a changed coefficient: refuted exactly by the symbolic method (a corner of a cell,
    // beta and z near 1), and without the proof table by the interval branch-and-bound of
    // the box at a certified point
    let d = mutant(
        "fp-thm3.1-reduced",
        "holds = \"-1 + beta*(2*z - 2*z/(1 + z^2)) < 0\"",
        "holds = \"-1 + beta*(3*z - 2*z/(1 + z^2)) < 0\"",
    );
    assert!(d.contains("symbolic method"), "{d}");
    let (text, _) = load("proofs/fp/fp-thm3.1-reduced.toml");
    let cut = text.find("[inequality.proof]").unwrap();
    let (v, d) = verdict_of(&text[..cut].replacen(
        "holds = \"-1 + beta*(2*z - 2*z/(1 + z^2)) < 0\"",
        "holds = \"-1 + beta*(3*z - 2*z/(1 + z^2)) < 0\"",
        1,
    ));
    assert_eq!(v, Verdict::Refuted, "{d}");
    assert!(d.contains("certified"), "{d}");
    // a domain widened past the paper's: at eps = 0 the left side of (15) vanishes at
    // z = 1, so with z up to 1 included the strict inequality fails there
    let d = mutant(
        "fp-thm5.1-reduced",
        "domain = { eps = \"(0, 1)\", beta = \"(0, 1)\", z = \"(0, 1)\" }",
        "domain = { eps = \"[0, 1)\", beta = \"(0, 1)\", z = \"(0, 1]\" }",
    );
    assert!(d.contains("eps = 0"), "{d}");
}

#[test]
fn fp_issue13_example_mutants() {
    // exact Q(sqrt 2) run (corner.quadratic_trace)
    mutant(
        "fp-example-pi4-numbers",
        "x1_b = \"-1/2\"",
        "x1_b = \"1/2\"",
    );
    // binary64 run (corner.f64_ta)
    mutant("fp-example-pi4-f64", "zone1 = \"1\"", "zone1 = \"0\"");
    // exact TA with a rest threshold (corner.trace)
    mutant("fp-sect6-N-estimate", "\"steps <= 28\"", "\"steps <= 20\"");
    // the figures' runs (corner.figures): the ideal runs exit
    mutant(
        "fp-sect8-figures",
        "\"a1_e1_exit == 1\"",
        "\"a1_e1_exit == 0\"",
    );
}

#[test]
fn fp_issue13_sampled_mutants() {
    // corner.zones: a zone of an angle interval, and of the point phi = pi (c = 0), which
    // no finite t = tan(phi/2) reaches
    mutant(
        "fp-zones-phi-intro",
        "conclude = [\"zone == 12\"]",
        "conclude = [\"zone == 2\"]",
    );
    mutant(
        "fp-zones-phi-intro",
        "derive = { c = \"0\", t = \"1\" }\nconclude = [\"zone == 0\"]",
        "derive = { c = \"0\", t = \"1\" }\nconclude = [\"zone == 1\"]",
    );
    // corner.compose: a sign of H1
    mutant(
        "fp-thm5.3-H1",
        "[\"b\", \"-beta*eps*(1 + eps)\"]",
        "[\"b\", \"beta*eps*(1 + eps)\"]",
    );
    // agreement: the reflection angle of Result 3
    mutant(
        "fp-result3-angles",
        "X1 = \"c*x + s*y\"",
        "X1 = \"c*x - s*y\"",
    );
    // corner.zone_ta_sa: a cell of Table 1
    mutant(
        "fp-prop7.1-table1",
        "conclude = [\"ta_zone == 12\", \"sa_zone == 2\"]",
        "conclude = [\"ta_zone == 12\", \"sa_zone == 12\"]",
    );
    // a cell whose side is between 0 and a rational root (0 < xi <= S): its border xi = S
    let d = mutant(
        "fp-prop7.1-table1",
        "\"b >= 0\"]\nconclude = [\"ta_zone == 2\", \"sa_zone == 0\"]",
        "\"b >= 0\"]\nconclude = [\"ta_zone == 2\", \"sa_zone == 2\"]",
    );
    assert!(d.contains("symbolic method"), "{d}");
    // a ray the case fixes (x = -1, y = -k) is not charted as a cone: the witness of a
    // wrong conclusion lies on the ray
    let d = mutant(
        "fp-6-zone-boundaries-corrected",
        "conclude = [\"zone == 0\", \"in6a == 1\"]",
        "conclude = [\"zone == 1\", \"in6a == 1\"]",
    );
    assert!(d.contains("x = -1"), "{d}");
    // corner.orthogonal with TR_nid: the component of eq. (2)
    mutant(
        "fp-eq2-lambda",
        "\"y1 == y - (1 + eps)*p_v2y\"",
        "\"y1 == y - (1 + eps)*p_v1y\"",
    );
    // corner.h: the determinant eps^2
    mutant(
        "fp-thm5.3-charpoly",
        "\"h1_11*h1_22 - h1_12*h1_21 == eps^2\"",
        "\"h1_11*h1_22 - h1_12*h1_21 == eps\"",
    );
}

#[test]
fn fp_issue13_probe_mutants() {
    let base = r#"
id = "probe-test"
paper = "fassino-pasquero-2020-disk-in-corner.txt"
where = "test"
statement = "test"
kind = "KIND"
method = "test"
"#;
    // corner.result6_chi: the law's count j is TA's number of steps, chi is not
    let text = format!(
        "{}[agreement]\nvars = {{ a = [\"1/64\", \"1/4\"], b = [\"-1\", \"1\"] }}\nsamples = 20\ncompare = [\"steps\"]\nleft = {{ probe = \"corner.result6_chi\", exprs = {{ steps = \"ta_steps\" }} }}\nright = {{ probe = \"corner.result6_chi\", exprs = {{ steps = \"j\" }} }}\n",
        base.replace("KIND", "agreement")
    );
    let (v, d) = verdict_of(&text);
    assert_eq!(v, Verdict::ConfirmedOnSamples, "{d}");
    let (v, d) = verdict_of(&text.replace("steps = \"j\"", "steps = \"j + 1\""));
    assert_eq!(v, Verdict::Refuted, "{d}");
    // corner.rho: rho(H1) < 1 on (0, 1)^2, and not below 1/2 everywhere
    let text = format!(
        "{}[implication]\nprobe = \"corner.rho\"\nvars = {{ k = [\"0\", \"1\"], eps = [\"0\", \"1\"] }}\nassume = [\"k > 0\", \"eps < 1\"]\nsamples = 40\nconclude = [\"rho_hi < 1\"]\n",
        base.replace("KIND", "implication")
    );
    let (v, d) = verdict_of(&text);
    assert_eq!(v, Verdict::ConfirmedOnSamples, "{d}");
    let (v, d) = verdict_of(&text.replace("rho_hi < 1\"", "rho_hi < 1/2\""));
    assert_eq!(v, Verdict::Refuted, "{d}");
    // the claim itself: proved by the law on radicals in the three eigenvalue cases; a
    // bound below the supremum is refuted exactly (near eps = 1, at a corner of a cell)
    let d = mutant("fp-thm5.3-rho-range", "\"rho_hi < 1\"", "\"rho_hi < 9/10\"");
    assert!(d.contains("`rho_hi < 9/10` fails"), "{d}");
    mutant(
        "fp-thm5.3-rho-range",
        "\"rho_lo >= eps\"",
        "\"rho_lo >= 2*eps\"",
    );
}

/// The "summing up" bounds of Proposition 7.1, case 3, fail exactly for small k with ξ̇ₙ
/// near S < η̇ₙ: random samples miss that corner of the domain, the corners of a proof
/// cell ({1/100, 1, 100} in each chart variable) do not.
#[test]
fn the_4s_bounds_fail_at_a_corner_of_the_domain() {
    let o = run("fp-prop7.1-bounds-4S");
    assert_eq!(o.verdict, Verdict::Refuted, "{}", o.detail);
    assert!(
        o.detail.starts_with("`p_xi1 < xi1 + 4*S` fails") && o.detail.contains("symbolic method"),
        "{}",
        o.detail
    );
}

/// Lemma 7.2 is proved as bounds linear in the cone chart of (x, y, dx, dy)
/// (`claims::lipschitz`); a smaller constant in any display is refuted, and so is the
/// lemma for k up to 2 (the paper's k is in (0, 1)).
#[test]
fn lemma_7_2_bounds_are_tight_where_the_mutants_fail() {
    for (from, to) in [
        (
            "\"abs(p_x1 - x1) <= abs(dx) + abs(dy)\"",
            "\"abs(p_x1 - x1) <= abs(dx)\"",
        ),
        (
            "<= 3/2*abs(dx) + abs(dy)\", \"abs((k*p_x1 - p_y1)",
            "<= abs(dx) + abs(dy)\", \"abs((k*p_x1 - p_y1)",
        ),
        ("k = \"(0, 1)\"", "k = \"(0, 2)\""),
    ] {
        mutant("fp-lemma7.2", from, to);
    }
}

/// The triangle inequalities of Prop. 7.1 (case 3, corrected) are proved by the bounds
/// |x| >= ±x; halving a coefficient is refuted.
#[test]
fn triangle_inequality_mutant_is_refuted() {
    mutant(
        "fp-prop7.1-bounds-triangle-corrected",
        "<= k*abs(x1 - p_x1) + abs(y1 - p_y1)\", \"abs(eta1",
        "<= k*abs(x1 - p_x1)/2 + abs(y1 - p_y1)\", \"abs(eta1",
    );
}
