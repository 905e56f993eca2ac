//! The mutation suite that keeps the prover honest (issue 33): false statements made
//! mechanically from proved claims, none of which may be proved, and true rewrites, which
//! must stay proved.
//!
//! Each mutant negates the first conclusion of a claim the engine proves over its whole
//! domain (`a == b` becomes `a != b`, `a <= b` becomes `a > b`, …), or adds 1/7 to one
//! side of a proved identity: it is therefore false at **every** point of the claim's
//! domain (the original holds there), so any point of the domain is an exact
//! counterexample. The engine must refute it or leave it open; every refutation's witness
//! is re-checked by `impactkit check` (the claim's exact evaluation at that point). The
//! claims span the proof paths: identities, symbolic cells (with guards, `abs` bounds and
//! bounds linear in the cone), interval branch-and-bound, the Gram reduction, induction
//! over a run and both termination modes.

use impactkit::claims::{self, check, Verdict};
use impactkit::lang::relation_span;
use std::path::PathBuf;

/// (claim file, an identity: `true`) of the proved claims mutated.
const MUTATED: &[(&str, bool)] = &[
    ("proofs/cb/cb-eq12-13.toml", false),
    ("proofs/cb/cb-eq25-26.toml", false),
    ("proofs/cb/cb-eq27-29.toml", false),
    ("proofs/cb/cb-eq30.toml", false),
    ("proofs/cb/cb-eq31.toml", false),
    ("proofs/cb/cb-eq32-33.toml", false),
    ("proofs/cb/cb-eq34.toml", false),
    ("proofs/cb/cb-eq6-remark3.1.toml", false),
    ("proofs/cb/cb-theta-dot-unchanged.toml", false),
    ("proofs/cb/cb-thm3.1.toml", false),
    ("proofs/cb/cb-vi-b-theta0.toml", false),
    ("proofs/cb/cb-vii-control-corrected.toml", false),
    ("proofs/fp/fp-3bc-improper.toml", false),
    ("proofs/fp/fp-cor3.1-termination.toml", false),
    ("proofs/fp/fp-eq2-lambda.toml", false),
    ("proofs/fp/fp-lemma7.1.toml", false),
    ("proofs/fp/fp-lemma7.2-bounds.toml", true),
    ("proofs/fp/fp-lemma7.2-displays.toml", false),
    ("proofs/fp/fp-prop7.1-bounds-2S-x.toml", false),
    ("proofs/fp/fp-prop7.1-bounds-2S-y.toml", false),
    ("proofs/fp/fp-prop7.1-bounds-case2-corrected.toml", false),
    (
        "proofs/fp/fp-prop7.1-bounds-case3-eta1-corrected.toml",
        false,
    ),
    ("proofs/fp/fp-prop7.1-bounds-case3-xi1.toml", false),
    ("proofs/fp/fp-prop7.1-bounds-maclaurin.toml", true),
    ("proofs/fp/fp-prop7.1-bounds-norm-rewrite.toml", true),
    ("proofs/fp/fp-prop7.1-bounds-norm.toml", false),
    ("proofs/fp/fp-prop7.1-bounds-triangle-corrected.toml", false),
    ("proofs/fp/fp-prop7.1-eta12-negative-corrected.toml", false),
    ("proofs/fp/fp-remark2-energy.toml", false),
    ("proofs/fp/fp-remark4-norm.toml", true),
    ("proofs/fp/fp-remark7-energy-drop.toml", false),
    ("proofs/fp/fp-result1.toml", false),
    ("proofs/fp/fp-result2-nid.toml", false),
    ("proofs/fp/fp-result2.toml", false),
    ("proofs/fp/fp-result3-chi.toml", false),
    ("proofs/fp/fp-result4-nid.toml", false),
    ("proofs/fp/fp-result4.toml", false),
    ("proofs/fp/fp-result5.toml", false),
    ("proofs/fp/fp-result7.toml", false),
    ("proofs/fp/fp-sect2.2-double-angle.toml", true),
    ("proofs/fp/fp-sect8-inputs.toml", false),
    ("proofs/fp/fp-thm3.1-eq11-12.toml", true),
    ("proofs/fp/fp-thm3.1-eq12-f.toml", true),
    ("proofs/fp/fp-thm3.1-eq12.toml", true),
    ("proofs/fp/fp-thm3.1-reduced.toml", false),
    ("proofs/fp/fp-thm3.1.toml", false),
    ("proofs/fp/fp-thm5.1-beta-z-form.toml", true),
    ("proofs/fp/fp-thm5.1-eps-bounds-z-large.toml", true),
    ("proofs/fp/fp-thm5.1-eps-bounds.toml", true),
    ("proofs/fp/fp-thm5.1-eps0.toml", true),
    ("proofs/fp/fp-thm5.1-first-factor.toml", true),
    ("proofs/fp/fp-thm5.1-reduced.toml", false),
    ("proofs/fp/fp-thm5.1-rewrite.toml", true),
    ("proofs/fp/fp-thm5.1.toml", false),
    ("proofs/fp/fp-thm5.3-charpoly.toml", false),
    ("proofs/fp/fp-thm5.3-limit.toml", false),
    ("proofs/fp/fp-thm5.3-rho-formula.toml", true),
    ("proofs/fp/fp-thm5.3-rho-range.toml", false),
    ("proofs/fp/fp-thm5.3-spectral-radius-exact.toml", false),
    ("proofs/fp/fp-thm5.3-spectral-radius.toml", false),
    ("proofs/fp/fp-zones-phi-intro.toml", false),
    ("proofs/pq/pq-corner-beta.toml", true),
    ("proofs/pq/pq-corner-symmetry.toml", false),
    ("proofs/pq/pq-cradle-constraint-values-algebra.toml", true),
    ("proofs/pq/pq-cradle-constraint-values.toml", false),
    ("proofs/pq/pq-cradle-no-multiple.toml", false),
    ("proofs/pq/pq-cradle-p1.toml", false),
    ("proofs/pq/pq-cradle-p2.toml", false),
    ("proofs/pq/pq-cradle-p3.toml", false),
    ("proofs/pq/pq-cradle-spin-unchanged.toml", false),
    ("proofs/pq/pq-fig1.toml", false),
    ("proofs/pq/pq-rule5-codim2.toml", false),
    ("proofs/pq/pq-zones-2-vs-9-corrected.toml", false),
    ("proofs/sm/sm-billiard-independence-corrected.toml", false),
    ("proofs/sm/sm-billiard-inner-product-final.toml", false),
    ("proofs/sm/sm-cradle-matrices.toml", false),
    ("proofs/sm/sm-cradle-only-minimal-corrected.toml", false),
    ("proofs/sm/sm-cradle-unit-normals.toml", true),
    ("proofs/sm/sm-eq18.toml", true),
    ("proofs/sm/sm-inelastic-intermediate-corrected.toml", true),
    ("proofs/sm/sm-involution.toml", false),
    ("proofs/sm/sm-lemma1.toml", true),
    ("proofs/sm/sm-lemma2.toml", true),
    ("proofs/sm/sm-lemma3.toml", false),
    ("proofs/sm/sm-lemma4-proof-step-corrected.toml", true),
    ("proofs/sm/sm-lemma4-proof-sum.toml", true),
    ("proofs/sm/sm-lemma4-relations.toml", true),
    ("proofs/sm/sm-lemma4-reverse.toml", true),
    ("proofs/sm/sm-lemma4.toml", true),
    ("proofs/sm/sm-lemma5-isometry.toml", false),
    ("proofs/sm/sm-lemma6-base.toml", true),
    ("proofs/sm/sm-lemma6-step.toml", true),
    ("proofs/sm/sm-lemma7-orthogonality.toml", false),
    ("proofs/sm/sm-lemma7-proof.toml", true),
    ("proofs/sm/sm-scale-invariance.toml", false),
    ("proofs/sm/sm-single-impact-lambda.toml", true),
    ("proofs/sm/sm-single-impact-law.toml", false),
    ("proofs/sm/sm-single-impact-quadratic.toml", true),
    ("proofs/sm/sm-thm1-proof-threshold.toml", true),
    ("proofs/sm/sm-thm2-proof.toml", true),
    ("proofs/sm/sm-thm3-difference.toml", true),
    ("proofs/sm/sm-thm3-proof-factor.toml", true),
    ("proofs/sm/sm-thm3-proof-feasibility-corrected.toml", true),
    ("proofs/sm/sm-thm3-proof-plus-half-corrected.toml", true),
    ("proofs/sm/sm-thm3.toml", false),
    ("proofs/wl/wl-Z-nonexpansive-M.toml", false),
    ("proofs/wl/wl-cone-iia-impulse.toml", false),
    ("proofs/wl/wl-cone-iva-impulse.toml", false),
    ("proofs/wl/wl-cones-iib-ivb.toml", false),
    ("proofs/wl/wl-delassus.toml", false),
    ("proofs/wl/wl-eq12-13-expansion.toml", true),
    ("proofs/wl/wl-eq12-13.toml", true),
    ("proofs/wl/wl-h-monotone.toml", false),
    ("proofs/wl/wl-rods-three-newton-differs.toml", false),
    ("proofs/wl/wl-rods-three-regions-35.toml", false),
    ("proofs/wl/wl-rods-three-simultaneous.toml", false),
    ("proofs/wl/wl-rods-two-regions-33.toml", false),
    ("proofs/wl/wl-table1-transitions.toml", false),
    ("proofs/wl/wl-thm1-eq43-corrected.toml", true),
    ("proofs/wl/wl-thm1-eq43-first.toml", true),
    ("proofs/wl/wl-thm1-eq43-second.toml", true),
    ("proofs/wl/wl-thm1-eq44-corrected.toml", true),
    ("proofs/wl/wl-thm1-nonexpansive.toml", false),
];

/// Claims whose first conclusion is rewritten with its sides exchanged (true). A ranking
/// proof of termination takes `exit == 1` only as written, so none is among them.
const REWRITTEN: &[&str] = &[
    "proofs/cb/cb-eq12-13.toml",
    "proofs/cb/cb-eq30.toml",
    "proofs/cb/cb-thm3.1.toml",
    "proofs/fp/fp-3bc-improper.toml",
    "proofs/fp/fp-eq2-lambda.toml",
    "proofs/fp/fp-lemma7.1.toml",
    "proofs/fp/fp-prop7.1-bounds-2S-x.toml",
    "proofs/fp/fp-result5.toml",
    "proofs/pq/pq-corner-symmetry.toml",
    "proofs/pq/pq-cradle-spin-unchanged.toml",
    "proofs/sm/sm-lemma7-orthogonality.toml",
    "proofs/wl/wl-thm1-nonexpansive.toml",
    "proofs/fp/fp-prop7.1-bounds-triangle-corrected.toml",
    "proofs/pq/pq-cradle-no-multiple.toml",
];

fn first_conclusion(text: &str) -> Option<String> {
    let at = text
        .find("conclude = [")
        .or_else(|| text.find("holds = \""))?;
    let rest = &text[at..];
    let start = rest.find('"')? + 1;
    let end = start + rest[start..].find('"')?;
    Some(rest[start..end].to_string())
}

/// The relation's operator: (start, end, operator).
fn operator(c: &str) -> (usize, usize, &'static str) {
    let (at, end) = impactkit::lang::relation_span(c).expect("a relation");
    let op = ["==", "!=", "<=", ">=", "<", ">"]
        .into_iter()
        .find(|o| c[at..end].trim() == *o)
        .expect("an operator");
    (at, end, op)
}

fn negated(c: &str) -> String {
    let (at, end, op) = operator(c);
    let not = match op {
        "==" => "!=",
        "!=" => "==",
        "<=" => ">",
        ">=" => "<",
        "<" => ">=",
        _ => "<=",
    };
    format!("{} {not} {}", &c[..at], &c[end..])
}

fn swapped(c: &str) -> String {
    let (at, end, op) = operator(c);
    let mirror = match op {
        "<=" => ">=",
        ">=" => "<=",
        "<" => ">",
        ">" => "<",
        o => o,
    };
    format!("{} {mirror} {}", c[end..].trim(), c[..at].trim())
}

/// Writes the mutants of `files` (made by `make`) into a fresh directory.
fn write(name: &str, files: &[&str], make: impl Fn(&str, &str) -> String) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("impactkit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (i, f) in files.iter().enumerate() {
        let text = std::fs::read_to_string(f).unwrap();
        let mutated = make(f, &text);
        assert_ne!(mutated, text, "{f}: no mutation");
        let id_line = text.lines().find(|l| l.starts_with("id = ")).unwrap();
        let id = id_line.trim_start_matches("id = ").trim_matches('"');
        let renamed = mutated.replacen(id_line, &format!("id = \"mut-{id}\""), 1);
        std::fs::write(dir.join(format!("m{i:03}.toml")), renamed).unwrap();
    }
    dir
}

/// Verifies the mutants of `dir` (certificates on): none is proved, and every
/// refutation's certificate is accepted by `check` against the mutants' own files. The
/// number of refutations.
fn none_proved_refutations_recheck(dir: &std::path::Path) -> usize {
    let certs = dir.join("certificates");
    let exports = claims::Exports {
        certificates: Some(certs.clone()),
        smtlib: None,
        coq: None,
        html: None,
    };
    let out = claims::verify_cli(&[dir.to_path_buf()], None, "json", 120.0, 2, &exports).unwrap();
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mutants = claims::load_paths(&[dir.to_path_buf()]).unwrap();
    let mut refuted = 0;
    for c in j["claims"].as_array().unwrap() {
        let v = c["verdict"].as_str().unwrap();
        assert!(
            v != Verdict::Proved.name() && v != Verdict::ProvedOnSubdomain.name(),
            "a false mutant is {v}: {} {}",
            c["id"],
            c["detail"]
        );
        if v == "refuted" {
            refuted += 1;
            let id = c["id"].as_str().unwrap();
            let text = std::fs::read_to_string(certs.join(format!("{id}.json"))).unwrap();
            let checked = check::check_text(&text, &mutants).unwrap();
            assert!(checked.rejected.is_none(), "{id}: {:?}", checked.rejected);
        }
    }
    refuted
}

fn mutate(f: &str, text: &str) -> String {
    let identity = MUTATED.iter().find(|(p, _)| *p == f).unwrap().1;
    if identity {
        let line = text.lines().find(|l| l.starts_with("rhs = \"")).unwrap();
        let rhs = line.trim_start_matches("rhs = \"").trim_end_matches('"');
        return text.replacen(line, &format!("rhs = \"({rhs}) + 1/7\""), 1);
    }
    let c = first_conclusion(text).unwrap();
    let quoted = format!("\"{c}\"");
    assert_eq!(text.matches(&quoted).count(), 1, "{f}: {c}");
    text.replacen(&quoted, &format!("\"{}\"", negated(&c)), 1)
}

#[test]
fn no_false_mutant_is_proved_and_every_refutation_rechecks() {
    let files: Vec<&str> = MUTATED.iter().map(|(f, _)| *f).collect();
    assert!(files.len() >= 60);
    let dir = write("mutants", &files, mutate);
    let refuted = none_proved_refutations_recheck(&dir);
    // nearly all are refuted outright (an exact witness); the rest stay open
    assert!(
        refuted * 10 >= files.len() * 9,
        "{refuted} of {}",
        files.len()
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn true_rewrites_stay_proved() {
    assert!(REWRITTEN.len() >= 10);
    let dir = write("rewrites", REWRITTEN, |f, text| {
        let c = first_conclusion(text).unwrap();
        let quoted = format!("\"{c}\"");
        assert_eq!(text.matches(&quoted).count(), 1, "{f}: {c}");
        text.replacen(&quoted, &format!("\"{}\"", swapped(&c)), 1)
    });
    let out = claims::verify_cli(
        std::slice::from_ref(&dir),
        None,
        "json",
        120.0,
        2,
        &claims::Exports::default(),
    )
    .unwrap();
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    for c in j["claims"].as_array().unwrap() {
        assert_eq!(c["verdict"], "proved", "{} {}", c["id"], c["detail"]);
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The conclusions of the claim's first `conclude` list and of its last one (a case's),
/// as written.
fn conclude_lists(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("conclude = [") {
        let body = &rest[at + "conclude = [".len()..];
        let end = body.find(']').unwrap_or(body.len());
        let list: Vec<String> = body[..end]
            .split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect();
        out.push(list);
        rest = &body[end..];
    }
    out
}

/// The second family of false mutants: the **last** conclusion of the first list, and
/// the first conclusion of the last case, each negated where it is not the conclusion
/// the first family negates (and has no guard, which could make it vacuous).
fn second_family(text: &str) -> Vec<String> {
    let lists = conclude_lists(text);
    let first = first_conclusion(text);
    let mut picks: Vec<String> = Vec::new();
    if let Some(l) = lists.first().and_then(|l| l.last()) {
        picks.push(l.clone());
    }
    if lists.len() > 1 {
        if let Some(c) = lists.last().and_then(|l| l.first()) {
            picks.push(c.clone());
        }
    }
    picks.sort();
    picks.dedup();
    picks
        .into_iter()
        .filter(|c| Some(c) != first.as_ref() && !c.contains("=>") && relation_span(c).is_some())
        .filter(|c| text.matches(&format!("\"{c}\"")).count() == 1)
        .collect()
}

#[test]
fn a_second_family_of_false_mutants_is_never_proved() {
    let mut made: Vec<(String, String)> = Vec::new();
    for (f, identity) in MUTATED {
        if *identity {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        for c in second_family(&text) {
            let m = text.replacen(&format!("\"{c}\""), &format!("\"{}\"", negated(&c)), 1);
            made.push((f.to_string(), m));
        }
    }
    let dir = std::env::temp_dir().join(format!("impactkit-mutants2-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (i, (_, m)) in made.iter().enumerate() {
        let id_line = m.lines().find(|l| l.starts_with("id = ")).unwrap();
        let id = id_line.trim_start_matches("id = ").trim_matches('"');
        let renamed = m.replacen(id_line, &format!("id = \"mut2-{i}-{id}\""), 1);
        std::fs::write(dir.join(format!("n{i:03}.toml")), renamed).unwrap();
    }
    assert!(made.len() >= 40, "{} mutants", made.len());
    none_proved_refutations_recheck(&dir);
    std::fs::remove_dir_all(&dir).ok();
}

/// One claim file written to a fresh directory and verified: its JSON result.
fn verify_one(name: &str, text: &str) -> serde_json::Value {
    let dir = std::env::temp_dir().join(format!("impactkit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("c.toml"), text).unwrap();
    let exports = claims::Exports {
        certificates: Some(dir.join("certificates")),
        smtlib: None,
        coq: None,
        html: None,
    };
    let out =
        claims::verify_cli(std::slice::from_ref(&dir), None, "json", 120.0, 2, &exports).unwrap();
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    j["claims"][0].clone()
}

/// `fp-result7` with its run switched to Pasquero's asymmetric rule (10) with
/// eps2 = eps/1000 and its step lemma to the rule with eps2 = eps, the input maps written
/// as tables or as `[name, expression]` pairs (`pairs`).
fn asymmetric_result7(id: &str, pairs: bool) -> String {
    let map = |entries: &[(&str, &str)]| {
        let items: Vec<String> = entries
            .iter()
            .map(|(k, v)| match pairs {
                false => format!("{k} = \"{v}\""),
                true => format!("[\"{k}\", \"{v}\"]"),
            })
            .collect();
        match pairs {
            false => format!("{{ {} }}", items.join(", ")),
            true => format!("[{}]", items.join(", ")),
        }
    };
    let run = map(&[
        ("k", "t/(1 - t)"),
        ("eps1", "eps"),
        ("eps2", "eps/1000"),
        ("x", "x"),
        ("y", "y"),
        ("max_steps", "300"),
    ]);
    let step = map(&[
        ("k", "t/(1 - t)"),
        ("eps1", "eps"),
        ("eps2", "eps"),
        ("x", "x"),
        ("y", "y"),
    ]);
    let text = std::fs::read_to_string("proofs/fp/fp-result7.toml").unwrap();
    let mutant = text
        .replacen("id = \"fp-result7\"", &format!("id = \"{id}\""), 1)
        .replacen(
            "probe = \"corner.ta\"\ninputs = { k = \"t/(1 - t)\", eps = \"eps\", x = \"x\", y = \"y\", max_steps = \"300\" }",
            &format!("probe = \"corner.asym_run\"\ninputs = {run}"),
            1,
        )
        .replacen(
            "probe = \"corner.tr_nid_xy\"\ninputs = { k = \"t/(1 - t)\", eps = \"eps\", x = \"x\", y = \"y\" }",
            &format!("probe = \"corner.asymmetric\"\ninputs = {step}"),
            1,
        );
    assert_eq!(mutant.matches("corner.asym").count(), 2, "{mutant}");
    mutant
}

/// Issue 58: an induction whose step lemma is the symmetric corner step while the run is
/// Pasquero's asymmetric rule (10) with eps2 = eps/1000. False: at k = 1/2, eps = 9/10,
/// v0 = (1, 1/5) the run has 2 multiple impacts (computed exactly below). The same with
/// the input maps written as `[name, expression]` pairs: the induction's checks read the
/// typed claim, where both forms are one map (they used to read the table form only, and
/// the previous engine proved the pairs-form mutant). Never proved.
#[test]
fn an_induction_step_must_compute_what_the_run_computes() {
    let run = impactkit::claims::probes::run(
        "corner.asym_run",
        &[
            ("k", "1/2"),
            ("eps1", "9/10"),
            ("eps2", "9/10000"),
            ("x", "1"),
            ("y", "1/5"),
            ("max_steps", "300"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect(),
    )
    .unwrap();
    assert_eq!(impactkit::lang::show(&run["multiple"].to_big()), "2");
    for (form, pairs) in [("table", false), ("pairs", true)] {
        let mutant = asymmetric_result7(&format!("mut-fp-result7-asym-{form}"), pairs);
        let r = verify_one(&format!("asym-step-{form}"), &mutant);
        assert_ne!(r["verdict"], "proved", "{form}: {r}");
        assert_ne!(r["verdict"], "proved-on-subdomain", "{form}: {r}");
    }
}

/// Issue 58: a Gram reduction extends only conclusions invariant under the change of
/// coordinates. `next_v3 == v3` is not: with M = I, n1 = (1, 0, 1), n2 = (0, 1, 0),
/// v = (1, 1, 1), rule (5) gives next_v = (-1, -1, -1) (computed exactly below).
#[test]
fn a_gram_reduction_does_not_extend_a_coordinate_conclusion() {
    let step = impactkit::claims::probes::run(
        "char.step",
        &[
            ("m1", "1"),
            ("m2", "1"),
            ("m3", "1"),
            ("n1_1", "1"),
            ("n1_2", "0"),
            ("n1_3", "1"),
            ("n2_1", "0"),
            ("n2_2", "1"),
            ("n2_3", "0"),
            ("e1", "1"),
            ("e2", "1"),
            ("v1", "1"),
            ("v2", "1"),
            ("v3", "1"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect(),
    )
    .unwrap();
    for k in ["next_v1", "next_v2", "next_v3"] {
        assert_eq!(impactkit::lang::show(&step[k].to_big()), "-1", "{k}");
    }
    let text = std::fs::read_to_string("proofs/pq/pq-rule5-codim2.toml").unwrap();
    let mutant = text.replacen(
        "conclude = [\"g12 == 0\", ",
        "conclude = [\"g12 == 0\", \"next_v3 == v3\", ",
        1,
    );
    assert_ne!(mutant, text);
    let r = verify_one("gram-coord", &mutant);
    assert_ne!(r["verdict"], "proved", "{r}");
    assert!(
        r["detail"].as_str().unwrap().contains("not invariant"),
        "{r}"
    );
}

/// Issue 58: a conclusion undefined on every cell (a division by `k - k`) is not proved.
#[test]
fn a_conclusion_undefined_everywhere_is_not_proved() {
    let text = std::fs::read_to_string("proofs/fp/fp-prop7.1-eta12-negative-corrected.toml")
        .unwrap()
        .replacen("\"eta1 <= 0\"", "\"eta1 <= 0\", \"eta1/(k - k) > 5\"", 1);
    let r = verify_one("vacuous", &text);
    assert_ne!(r["verdict"], "proved", "{r}");
}

/// Issue 58: `fp-prop7.1-eta12-negative` on the paper's domain k in (0, 1] (alpha <=
/// pi/4) is false at k = 1, eps = 0, where (13d) gives eta^(12) = 0.
#[test]
fn the_eta12_claim_is_refuted_on_the_papers_domain() {
    let text = std::fs::read_to_string("proofs/fp/fp-prop7.1-eta12-negative.toml").unwrap();
    assert!(text.contains("k = \"(0, 1]\""));
    let r = verify_one("eta12", &text);
    assert_eq!(r["verdict"], "refuted", "{r}");
    assert_eq!(r["counterexample"]["k"], "1", "{r}");
    assert_eq!(r["counterexample"]["eps"], "0", "{r}");
    assert_eq!(r["counterexample"]["eta1"], "0", "{r}");
}
