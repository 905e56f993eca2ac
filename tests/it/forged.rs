//! Forged certificates (issue 58): each class of hand edit a referee could make to a
//! genuine certificate, or to the claim file it is checked against, and the reason
//! `impactkit check` must give for rejecting it. The certificates are made by `verify`
//! from the catalogue; every edit is mechanical, and every genuine certificate is first
//! shown accepted (so each rejection is the edit's doing).

use impactkit::claims::{self, check, Claim};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::OnceLock;

const IDS: &[&str] = &[
    "fp-result1",
    "fp-prop7.1-bounds-4S",
    "sm-involution",
    "fp-prop7.1-y1",
    "fp-prop7.1-bounds-2S-y",
    "fp-prop7.1-eta12-negative-corrected",
    "fp-remark2-energy",
    "fp-thm5.3-spectral-radius",
    "fp-lemma7.2",
    "pq-corner-symmetry",
    "fp-6-zone-boundaries-corrected",
    "fp-thm3.1",
    "fp-result7",
    "fp-cor3.1-termination",
    "fp-thm5.3-limit",
];

fn file_of(id: &str) -> String {
    let dir = match &id[..2] {
        "fp" => "fp",
        "pq" => "pq",
        "sm" => "sm",
        "cb" => "cb",
        _ => "wl",
    };
    format!("proofs/{dir}/{id}.toml")
}

/// The catalogue's claims (what `check --claims proofs` reads).
fn catalogue() -> &'static Vec<Claim> {
    static C: OnceLock<Vec<Claim>> = OnceLock::new();
    C.get_or_init(|| claims::load_paths(&[PathBuf::from("proofs")]).unwrap())
}

/// The genuine certificates of [`IDS`], made once.
fn genuine() -> &'static Vec<(String, Value)> {
    static G: OnceLock<Vec<(String, Value)>> = OnceLock::new();
    G.get_or_init(|| {
        let out = std::env::temp_dir().join(format!("impactkit-forged-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let exports = claims::Exports {
            certificates: Some(out.clone()),
            smtlib: None,
            coq: None,
            html: None,
        };
        let paths: Vec<PathBuf> = IDS.iter().map(|i| PathBuf::from(file_of(i))).collect();
        claims::verify_cli(&paths, None, "json", 120.0, 2, &exports).unwrap();
        let certs = IDS
            .iter()
            .map(|id| {
                let t = std::fs::read_to_string(out.join(format!("{id}.json"))).unwrap();
                (id.to_string(), serde_json::from_str(&t).unwrap())
            })
            .collect();
        let _ = std::fs::remove_dir_all(&out);
        certs
    })
}

fn cert(id: &str) -> Value {
    genuine().iter().find(|(i, _)| i == id).unwrap().1.clone()
}

fn verdict(c: &Value, claims: &[Claim]) -> Result<(), check::Rejection> {
    match check::check_text(&c.to_string(), claims)?.rejected {
        None => Ok(()),
        Some(why) => Err(why),
    }
}

/// The claim file `id` with `edit` applied to its text, as the only claim given.
fn edited_claim(id: &str, edit: impl Fn(&str) -> String) -> Vec<Claim> {
    let text = std::fs::read_to_string(file_of(id)).unwrap();
    let new = edit(&text);
    assert_ne!(new, text, "{id}: the edit changed nothing");
    vec![Claim::parse(&new, std::path::Path::new(&file_of(id))).unwrap()]
}

/// One forged certificate: `id`'s certificate edited by `edit`, checked against the
/// catalogue, must be rejected with a reason containing `want`, of the class `class`
/// ([`check::Rejection::class`]).
fn forged(id: &str, edit: impl Fn(&mut Value), want: &str, class: &str) {
    let mut c = cert(id);
    edit(&mut c);
    assert_ne!(c, cert(id), "{id}: the edit changed nothing ({want})");
    let why = verdict(&c, catalogue()).expect_err(want);
    assert!(
        why.to_string().contains(want),
        "{id}: wanted `{want}`, got: {why}"
    );
    assert_eq!(why.class(), class, "{id}: {why}");
}

/// The genuine certificate of `id`, checked against its claim file edited by `edit` (a
/// false statement under the same id), must be rejected with a reason containing `want`,
/// of the class `class`.
fn claim_edit_rejected(id: &str, edit: impl Fn(&str) -> String, want: &str, class: &str) {
    let why = verdict(&cert(id), &edited_claim(id, edit)).expect_err(want);
    assert!(
        why.to_string().contains(want),
        "{id}: wanted `{want}`, got: {why}"
    );
    assert_eq!(why.class(), class, "{id}: {why}");
}

/// The first proved cell of the top-level proof.
fn cell0(c: &mut Value) -> &mut Value {
    &mut c["certificate"]["cells"][0]
}

/// The first recorded conclusion with an obligation of a certificate's first cells.
fn first_obligation(c: &mut Value) -> &mut Value {
    let cells = c["certificate"]["cells"].as_array_mut().unwrap();
    cells
        .iter_mut()
        .flat_map(|cell| cell["decided"].as_array_mut().unwrap().iter_mut())
        .find(|d| d.get("obligation").is_some())
        .unwrap()
}

/// The first proved cell turned into a leaf the proof leaves out, with `status`.
fn declared(c: &mut Value, status: &str) {
    declared_in(&mut c["certificate"], status);
}

/// [`declared`] in the symbolic proof `proof` (a lemma's, say).
fn declared_in(proof: &mut Value, status: &str) {
    let c = proof;
    let cell = c["cells"].as_array_mut().unwrap().remove(0);
    let leaf = serde_json::json!({
        "case": cell["case"], "cell": cell["cell"], "status": status,
        "chart": cell["chart"], "evidence": null,
    });
    c["other cells"].as_array_mut().unwrap().push(leaf);
}

#[test]
fn every_genuine_certificate_is_accepted() {
    for (id, c) in genuine() {
        verdict(c, catalogue()).unwrap_or_else(|e| panic!("{id}: {e}"));
    }
}

/// The certificate with its proof's recorded statement replaced by the claim's (what a
/// forger would do so that the statement matches the edited claim file).
fn restated(mut c: Value, claim: &Claim) -> Value {
    c["certificate"]["source"] = toml::to_string(claim.table()).unwrap().into();
    c
}

#[test]
fn statements_are_read_from_the_claim_files() {
    let id = "fp-prop7.1-eta12-negative-corrected";
    let against = |edit: &dyn Fn(&str) -> String| -> (Result<(), check::Rejection>, Result<(), check::Rejection>) {
        let claims = edited_claim(id, edit);
        (
            verdict(&cert(id), &claims),
            verdict(&restated(cert(id), &claims[0]), &claims),
        )
    };
    // 1. the claim replaced by its negation, the certificate kept (and its recorded
    //    statement made the negated one)
    let (a, b) = against(&|t| t.replacen("\"eta1 <= 0\"", "\"eta1 > 0\"", 1));
    let (a, b) = (a.unwrap_err(), b.unwrap_err());
    assert!(a.to_string().contains("another statement"), "{a}");
    assert_eq!(a.class(), "statement");
    assert!(b.to_string().contains("is not the claim's"), "{b}");
    assert_eq!(b.class(), "conclusion");
    // 2. another (false) statement under the same id: a conclusion made stronger
    let (a, b) = against(&|t| t.replacen("\"eta1 <= 0\"", "\"eta1 < -1\"", 1));
    assert!(a.is_err());
    assert!(b.unwrap_err().to_string().contains("is not the claim's"));
    // 3. a conclusion added to the claim file
    let (a, b) = against(&|t| t.replacen("\"eta1 <= 0\"", "\"eta1 <= 0\", \"eta1 < -eps\"", 1));
    assert!(a.is_err());
    assert!(b.unwrap_err().to_string().contains("conclusions recorded"));
    // 4. the domain of the claim file widened (eps up to 2)
    let (a, b) = against(&|t| t.replacen("eps = \"[0, 1]\"", "eps = \"[0, 2]\"", 1));
    assert!(a.is_err() && b.is_err());
    // 5. the certificate of one claim presented as another's
    let mut other = cert("fp-result1");
    other["claim"] = "fp-prop7.1-eta12-negative-corrected".into();
    assert_eq!(
        verdict(&other, catalogue()).unwrap_err().class(),
        "statement"
    );
    // 6. a claim not among those given
    let why = verdict(&cert("fp-result1"), &[]).unwrap_err();
    assert!(why.to_string().contains("no claim file"), "{why}");
    assert_eq!(why.class(), "claim");
    // 7. the certificate's own copy of the claim's text is not read: editing it changes
    //    nothing
    let mut src = cert("fp-result1");
    src["source"] = "id = \"anything\"".into();
    verdict(&src, catalogue()).unwrap();
}

#[test]
fn edited_obligations_and_signs_are_rejected() {
    // 8. an obligation's operator changed
    forged(
        "fp-prop7.1-eta12-negative-corrected",
        |c| {
            let ob = &mut first_obligation(c)["obligation"]["body"][0];
            *ob = if *ob == "<=" { "<" } else { "<=" }.into();
        },
        "recorded obligation",
        "conclusion",
    );
    // 9. an obligation's value changed
    forged(
        "fp-prop7.1-eta12-negative-corrected",
        |c| first_obligation(c)["obligation"]["body"][1] = "-1".into(),
        "recorded obligation",
        "conclusion",
    );
    // 10. a guard of an obligation dropped
    forged(
        "fp-prop7.1-eta12-negative-corrected",
        |c| {
            let cells = c["certificate"]["cells"].as_array_mut().unwrap();
            let d = cells
                .iter_mut()
                .flat_map(|cell| cell["decided"].as_array_mut().unwrap().iter_mut())
                .find(|d| {
                    d["obligation"]["guards"]
                        .as_array()
                        .is_some_and(|g| !g.is_empty())
                })
                .unwrap();
            d["obligation"]["guards"] = serde_json::json!([]);
        },
        "recorded obligation",
        "conclusion",
    );
    // 11. a conclusion's entry dropped from a cell
    forged(
        "fp-prop7.1-eta12-negative-corrected",
        |c| {
            cell0(c)["decided"].as_array_mut().unwrap().pop();
        },
        "conclusions recorded",
        "conclusion",
    );
    // 12. two conclusions' entries exchanged
    forged(
        "fp-prop7.1-eta12-negative-corrected",
        |c| {
            let d = cell0(c)["decided"].as_array_mut().unwrap();
            let n = d.len();
            d.swap(n - 1, n - 2);
        },
        "is not the claim's",
        "conclusion",
    );
    // 13. a conclusion's text changed to its negation, its obligation kept
    forged(
        "fp-prop7.1-eta12-negative-corrected",
        |c| first_obligation(c)["relation"] = "eta1 > 0".into(),
        "is not the claim's",
        "conclusion",
    );
    // 14. a recorded sign flipped
    forged(
        "fp-result1",
        |c| {
            let f = cell0(c)["facts"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .find(|f| f["sign"] == ">")
                .unwrap();
            f["sign"] = "<".into();
        },
        "does not follow by the rules",
        "sign",
    );
    // 15. a false sign decided by the radical rule
    forged(
        "fp-thm5.3-spectral-radius",
        |c| {
            let cells = c["certificate"]["cells"].as_array_mut().unwrap();
            let f = cells
                .iter_mut()
                .flat_map(|cell| cell["facts"].as_array_mut().unwrap().iter_mut())
                .find(|f| f["rule"] == "radical")
                .unwrap();
            f["sign"] = if f["sign"] == ">" { "<" } else { ">" }.into();
        },
        "does not follow by the rules",
        "sign",
    );
    // 16. a false sign added to a cell
    forged(
        "fp-result1",
        |c| {
            cell0(c)["facts"]
                .as_array_mut()
                .unwrap()
                .push(serde_json::json!({"value": "t_k - 1", "sign": ">", "rule": "coefficients"}))
        },
        "does not follow by the rules",
        "sign",
    );
    // 17. a zone conclusion's outcome changed (η̇ negated)
    forged(
        "fp-result1",
        |c| {
            let d = &mut cell0(c)["decided"][0];
            let eta = d["eta"].as_str().unwrap().to_string();
            d["eta"] = format!("-({eta})").into();
        },
        "recorded eta",
        "conclusion",
    );
    // 18. a zone excluded by a multiplier that is not allowed
    forged(
        "fp-thm3.1",
        |c| {
            let cells = c["certificate"]["cells"].as_array_mut().unwrap();
            let z = cells
                .iter_mut()
                .flat_map(|cell| cell["decided"].as_array_mut().unwrap().iter_mut())
                .flat_map(|d| {
                    d.get_mut("zones excluded")
                        .and_then(|z| z.as_array_mut())
                        .into_iter()
                        .flatten()
                })
                .find(|z| z["by"].get("multipliers").is_some())
                .unwrap();
            z["by"]["multipliers"][0] = "t_k + 7".into();
        },
        "multiplier",
        "conclusion",
    );
    // 19. a positive variable claimed for a free one
    forged(
        "fp-result1",
        |c| {
            cell0(c)["positive"]
                .as_array_mut()
                .unwrap()
                .push("x".into());
        },
        "positive variables are not the chart's",
        "cover",
    );
    // 20. a cell's chart changed
    forged(
        "fp-result1",
        |c| {
            let chart = cell0(c)["chart"].as_object_mut().unwrap();
            let (k, v) = chart
                .iter()
                .next()
                .map(|(k, v)| (k.clone(), v.clone()))
                .unwrap();
            chart.insert(k, format!("2*({})", v.as_str().unwrap()).into());
        },
        "chart",
        "cover",
    );
}

#[test]
fn edited_covers_and_leaves_are_rejected() {
    // 21. a proved cell dropped
    forged(
        "fp-result1",
        |c| {
            c["certificate"]["cells"].as_array_mut().unwrap().remove(0);
        },
        "neither proved",
        "cover",
    );
    // 22. every proved cell dropped (nothing left to prove the claim)
    forged(
        "fp-remark2-energy",
        |c| c["certificate"]["cells"] = serde_json::json!([]),
        "neither proved",
        "cover",
    );
    // 23. a proved cell declared undefined (the claim is defined there)
    forged(
        "fp-result1",
        |c| declared(c, "undefined"),
        "recorded `undefined`",
        "recomputed",
    );
    // 24. a proved cell declared refused by the law
    forged(
        "fp-result1",
        |c| declared(c, "refused"),
        "recorded `refused`",
        "recomputed",
    );
    // 25. a root cell's chart changed (the cone's forms no longer solved)
    forged(
        "fp-result1",
        |c| {
            let x = c["certificate"]["roots"][0]["chart"]["x"]
                .as_str()
                .unwrap()
                .to_string();
            c["certificate"]["roots"][0]["chart"]["x"] = format!("2*({x})").into();
        },
        "form 1 is",
        "cover",
    );
    // 26. the Gram reduction's recorded checks edited
    forged(
        "sm-involution",
        |c| c["certificate"]["reduction"]["dimension"] = 2.into(),
        "recomputed, differ",
        "statement",
    );
    // 27. the Gram reduction removed from the certificate
    forged(
        "sm-involution",
        |c| {
            c["certificate"]
                .as_object_mut()
                .unwrap()
                .remove("reduction");
        },
        "missing from the certificate",
        "statement",
    );
    // 28. an agreement's right side recorded on a cell the left does not give
    forged(
        "fp-prop7.1-y1",
        |c| {
            let chart = cell0(c)["chart"].as_object_mut().unwrap();
            let k = chart.keys().next().unwrap().clone();
            chart.insert(k, "1/3".into());
        },
        "chart",
        "cover",
    );
    // 29. a certificate with the decision log stripped
    forged(
        "fp-result1",
        |c| {
            cell0(c).as_object_mut().unwrap().remove("facts");
        },
        "without the decision log",
        "format",
    );
    // 30. a lemma's cell dropped (induction)
    forged(
        "pq-corner-symmetry",
        |c| {
            let cells = c
                .pointer_mut("/certificate/step lemma/cells")
                .unwrap()
                .as_array_mut()
                .unwrap();
            let n = cells.len();
            cells.remove(n / 2);
        },
        "neither proved",
        "cover",
    );
    // 31. a lemma's obligation edited (induction)
    forged(
        "pq-corner-symmetry",
        |c| {
            let body = c
                .pointer_mut("/certificate/step lemma/cells/0/decided/2/obligation/body/1")
                .unwrap();
            *body = "1/1000".into();
        },
        "recorded obligation",
        "conclusion",
    );
}

/// An induction's lemmas are checked against the statements the checker derives from the
/// claim file (`claim::induction::derive`), never against the statements the certificate
/// records: before, a certificate could prove any lemma under an induction's name.
#[test]
fn induction_lemmas_are_derived_from_the_claim_file() {
    // 38. the step lemma's recorded conclusions weakened (one dropped, with its statement)
    forged(
        "pq-corner-symmetry",
        |c| {
            let cs = c
                .pointer_mut("/certificate/step lemma conclusions")
                .unwrap()
                .as_array_mut()
                .unwrap();
            cs.pop();
            let src = c.pointer_mut("/certificate/step lemma/source").unwrap();
            *src = src
                .as_str()
                .unwrap()
                .replacen(", \"m_y1 == -(y1)\"", "", 1)
                .into();
        },
        "not those the claim's induction gives",
        "statement",
    );
    // 39. the step lemma's statement restricted (a hypothesis on the state), conclusions kept
    forged(
        "pq-corner-symmetry",
        |c| {
            let src = c.pointer_mut("/certificate/step lemma/source").unwrap();
            *src = format!("assume = [\"x > 0\"]\n{}", src.as_str().unwrap()).into();
        },
        "another statement than the claim",
        "statement",
    );
    // 40. a run fact edited (a run's final state said to be its mirror's)
    forged(
        "pq-corner-symmetry",
        |c| {
            let facts = c.pointer_mut("/certificate/run facts").unwrap();
            facts[0] = "xf == -(xf)".into();
        },
        "run facts are not those",
        "statement",
    );
    // 41. the runs named otherwise
    forged(
        "pq-corner-symmetry",
        |c| c["certificate"]["runs"] = serde_json::json!(["corner.ta"]),
        "runs are not the claim's",
        "statement",
    );
    // 42. one run: the conclusions at the run's start edited
    forged(
        "fp-result7",
        |c| c["certificate"]["instance conclusions"][0] = "(multi) == 2".into(),
        "conclusions at the run's start are not those",
        "statement",
    );
    // 43. one run: the instance's statement weakened (a case's conclusion dropped)
    forged(
        "fp-result7",
        |c| {
            let src = c.pointer_mut("/certificate/instance/source").unwrap();
            *src = src
                .as_str()
                .unwrap()
                .replacen("conclude = [\"(multi) == 1\"]", "conclude = []", 1)
                .into();
        },
        "another statement than the claim",
        "statement",
    );
    // 44. the step lemma left undefined on a cell (it must hold at every state)
    forged(
        "fp-result7",
        |c| declared_in(&mut c["certificate"]["step lemma"], "undefined"),
        "must hold at every state",
        "conclusion",
    );
    // 45. the claim file's run changed (the step lemma now about another law than the
    //     run), the genuine certificate kept: the step no longer computes what the run does
    claim_edit_rejected(
        "fp-result7",
        |t| {
            t.replacen(
                "probe = \"corner.ta\"\ninputs = { k = \"t/(1 - t)\", eps = \"eps\"",
                "probe = \"corner.ta\"\ninputs = { k = \"t/(1 - t)\", eps = \"eps/1000\"",
                1,
            )
        },
        "must compute what the run computes",
        "claim",
    );
    // 46. the claim file's conclusion made false (multiple == 2 in Z12), certificate kept
    claim_edit_rejected(
        "fp-result7",
        |t| t.replacen("[\"multiple == 1\"]", "[\"multiple == 2\"]", 1),
        "not those the claim's induction gives",
        "statement",
    );
    // 47. runs in lockstep: the claim file's conclusion made false (the mirror's final
    //     y the same, not opposite), certificate kept
    claim_edit_rejected(
        "pq-corner-symmetry",
        |t| t.replacen("\"m_yf == -yf\"", "\"m_yf == yf\"", 1),
        "not among the run facts",
        "statement",
    );
}

/// A termination's lemmas too are checked against the statements derived from the claim
/// file (`claim::termination::derive`), and its record (ranking, bounds, rate) must be the
/// claim file's.
#[test]
fn termination_lemmas_are_derived_from_the_claim_file() {
    // 48. the ranking lemma's statement restricted (a hypothesis on the state)
    forged(
        "fp-cor3.1-termination",
        |c| {
            let src = c.pointer_mut("/certificate/lemma/source").unwrap();
            *src = src
                .as_str()
                .unwrap()
                .replacen("assume = [", "assume = [\"y > 0\", ", 1)
                .into();
        },
        "another statement than the claim",
        "statement",
    );
    // 49. the recorded rate of rise changed (with the lemma's conclusions)
    forged(
        "fp-cor3.1-termination",
        |c| c["certificate"]["rises by"] = "1".into(),
        "`rises by` is not the one the claim file gives",
        "statement",
    );
    // 50. the entry lemma's conclusions replaced by a weaker one
    forged(
        "fp-cor3.1-termination",
        |c| c["certificate"]["entry lemma conclusions"] = serde_json::json!(["zone1 != 13"]),
        "`entry lemma conclusions` is not the one",
        "statement",
    );
    // 51. the domain lemma's proof dropped
    forged(
        "fp-cor3.1-termination",
        |c| {
            c["certificate"]
                .as_object_mut()
                .unwrap()
                .remove("domain lemma");
        },
        "no proof of the domain lemma",
        "format",
    );
    // 52. the shrinking factor recorded otherwise
    forged(
        "fp-thm5.3-limit",
        |c| c["certificate"]["shrinks by"] = "1/2".into(),
        "`shrinks by` is not the one the claim file gives",
        "statement",
    );
    // 53. the shrinking lemma's statement weakened (its first conclusion dropped)
    forged(
        "fp-thm5.3-limit",
        |c| {
            let src = c.pointer_mut("/certificate/lemma/source").unwrap();
            *src = src
                .as_str()
                .unwrap()
                .replacen(
                    "conclude = [\"eps^2 + (1 - eps^2)*((1 - k^2)/(1 + k^2))^2 < 1\", ",
                    "conclude = [",
                    1,
                )
                .into();
        },
        "another statement than the claim",
        "statement",
    );
    // 54. the claim file's ranking changed (a false rate of rise: 1 at every step from
    //     D, where R is bounded by 2 - (-1) = 3 but the paper's rate is smaller), the
    //     genuine certificate kept
    claim_edit_rejected(
        "fp-cor3.1-termination",
        |t| t.replacen("rises_by = \"2*k^2/(1 + k^2)^2\"", "rises_by = \"1\"", 1),
        "is not the one the claim file gives",
        "statement",
    );
}

#[test]
fn edited_refutations_are_rejected() {
    // 32. the witness moved out of the proof's domain (k = 0 is not in (0, inf))
    forged(
        "fp-prop7.1-bounds-4S",
        |c| c["counterexample"]["k"] = "0".into(),
        "outside the proof's domain",
        "witness",
    );
    // 33. the witness moved to where the claim holds
    forged(
        "fp-prop7.1-bounds-4S",
        |c| c["counterexample"]["k"] = "1".into(),
        "recomputed",
        "recomputed",
    );
    // 34. the witness without a value of a parameter
    forged(
        "fp-prop7.1-bounds-4S",
        |c| {
            c["counterexample"].as_object_mut().unwrap().remove("k");
        },
        "no value of k",
        "witness",
    );
    // 35. a true claim's certificate turned into a "refutation" at a point of its domain
    forged(
        "fp-prop7.1-eta12-negative-corrected",
        |c| {
            c["verdict"] = "refuted".into();
            c["counterexample"] = serde_json::json!({
                "k": "1/2", "eps": "1/2", "xi": "1", "eta": "2", "violated": "eta1 <= 0"
            });
        },
        "recomputed",
        "recomputed",
    );
    // 36. a true claim "refuted" at a witness outside its domain (eps = 3)
    forged(
        "fp-prop7.1-eta12-negative-corrected",
        |c| {
            c["verdict"] = "refuted".into();
            c["counterexample"] =
                serde_json::json!({"k": "1/2", "eps": "3", "xi": "1", "eta": "2"});
        },
        "outside the proof's domain",
        "witness",
    );
    // 37. a refutation with no witness
    forged(
        "fp-prop7.1-bounds-4S",
        |c| c["counterexample"] = Value::Null,
        "without a witness",
        "verdict",
    );
}
