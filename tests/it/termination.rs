//! Termination by a ranking function (`claims::termination`): the registered step's
//! outputs say exactly where the run continues, the bound the theorem gives holds on exact
//! runs, and the engine's checks: conditions that fail, a domain not closed under the
//! step, bounds that depend on the state, conclusions other than the run's stop.

use crate::common::claims::{load, verdict_of};
use impactkit::claims::claim::termination::TERMINATING;
use impactkit::claims::probes::{run, Inputs};
use impactkit::claims::Verdict;
use impactkit::lang::show;
use num_rational::BigRational;
use num_traits::ToPrimitive;

fn q(a: i64, b: i64) -> String {
    show(&BigRational::new(a.into(), b.into()))
}

fn inputs(pairs: &[(&str, &str)]) -> Inputs {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Each (from, to, why) edit of the claim text leaves it unproved, `why` in the detail.
fn not_proved(text: &str, broken: &[(&str, &str, &str)]) {
    for (from, to, why) in broken {
        assert_eq!(text.matches(from).count(), 1, "{from}");
        let (v, d) = verdict_of(&text.replacen(from, to, 1));
        assert_ne!(v, Verdict::Proved, "{to}: {d}");
        // (or refuted outright: a run that never exits, say)
        assert!(v == Verdict::Refuted || d.contains(why), "{to}: {d}");
    }
}

fn value(out: &impactkit::lang::Env<impactkit::arith::Rational>, name: &str) -> BigRational {
    out[name].to_big()
}

/// TA (ideal) from (x, y) against its step: the run applies a rule exactly where the
/// step's `zone` is not 0, `zone1` is the zone of the step's outcome, and the number of
/// steps is within the ranking's bound (1 + k^2)^2 (B - L)/(2 k^2) + 2 = 3(1 + k^2)^2/(2k^2) + 2.
#[test]
fn the_step_says_where_the_run_continues_and_the_bound_holds() {
    assert_eq!(TERMINATING[0].step, "corner.tr_nid_xy");
    let mut checked = 0;
    for (ka, kb) in [(1, 3), (1, 7), (2, 5), (1, 1), (3, 2), (1, 20)] {
        let k = q(ka, kb);
        for (x, y) in [
            (1, -2),
            (3, 1),
            (1, 0),
            (2, -5),
            (5, 1),
            (1, 9),
            (-1, 2),
            (7, -1),
        ] {
            let (x, y) = (q(x, 1), q(y, 1));
            let step = run(
                "corner.tr_nid_xy",
                &inputs(&[("k", &k), ("eps", "1"), ("x", &x), ("y", &y)]),
            )
            .unwrap();
            let ta = run(
                "corner.ta",
                &inputs(&[("k", &k), ("eps", "1"), ("x", &x), ("y", &y)]),
            )
            .unwrap();
            let continues = value(&step, "zone") != BigRational::from_integer(0.into());
            let steps = value(&ta, "steps").to_integer().to_i64().unwrap();
            assert_eq!(continues, steps > 0, "k = {k}, v = ({x}, {y})");
            assert_eq!(value(&ta, "exit"), BigRational::from_integer(1.into()));
            // the zone of the outcome is the next step's zone
            let (x1, y1) = (show(&value(&step, "x1")), show(&value(&step, "y1")));
            let again = run(
                "corner.tr_nid_xy",
                &inputs(&[("k", &k), ("eps", "1"), ("x", &x1), ("y", &y1)]),
            )
            .unwrap();
            assert_eq!(value(&again, "zone"), value(&step, "zone1"));
            // from Z1 or Z2 (the claim's domain) the run ends within the bound
            let z = value(&step, "zone").to_integer().to_i64().unwrap();
            if z == 1 || z == 2 {
                let kk = BigRational::new(ka.into(), kb.into());
                let one = BigRational::from_integer(1.into());
                let two = BigRational::from_integer(2.into());
                let k2 = &kk * &kk;
                let bound = BigRational::from_integer(3.into()) * (&one + &k2) * (&one + &k2)
                    / (&two * &k2)
                    + &two;
                assert!(
                    BigRational::from_integer(steps.into()) <= bound,
                    "k = {k}: {steps} steps"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 12, "{checked}");
}

/// Each broken condition leaves `fp-result3-chi` unproved (sampled instead), with the
/// reason in the detail.
#[test]
fn termination_checks_its_ranking() {
    let (text, _) = load("proofs/fp/fp-result3-chi.toml");
    let (v, d) = verdict_of(&text);
    assert_eq!(v, Verdict::Proved, "{d}");
    assert!(d.contains("ranking function"), "{d}");
    let broken = [
        // R does not rise by 1 at each step (at R = c it rises by (1 - c^2)/c)
        (
            "rises_by = \"2*k^2/(1 + k^2)^2\"",
            "rises_by = \"1\"",
            "the ranking lemma is refuted",
        ),
        // R goes up to 2c, above 1 for c > 1/2
        (
            "at_most = \"2\"",
            "at_most = \"1\"",
            "the ranking lemma is refuted",
        ),
        // a domain the step leaves: Z1 alone (its steps continue into Z2)
        (
            "\"k*x + abs(y) > 0\", \"k*x - abs(y) <= 0\"]",
            "\"k*x + y <= 0\", \"k*x - y > 0\"]",
            "the ranking lemma is refuted",
        ),
        // a bound that depends on the state
        (
            "at_least = \"-1\"",
            "at_least = \"-x^2\"",
            "must not depend on the state",
        ),
        // a conclusion other than the run's stop
        (
            "conclude = [\"exit == 1\"]",
            "conclude = [\"exit == 1\", \"steps >= 1\"]",
            "the conclusions must be",
        ),
        // a run that is not the iteration of the step (TA with a threshold is SA's zoning)
        (
            "eps = \"1\", x = \"x\"",
            "eps = \"1\", S = \"1/10\", x = \"x\"",
            "is not the iteration of",
        ),
    ];
    not_proved(&text, &broken);
}

/// A run cut by its step limit has no outcome (the limit is the tool's, not the law's):
/// no exit = 0 that a claim could read as a counterexample to termination.
#[test]
fn a_run_cut_by_its_step_limit_has_no_outcome() {
    for probe in ["corner.ta", "corner.trace"] {
        let inp = inputs(&[
            ("k", "1/100"),
            ("eps", "1"),
            ("x", "1"),
            ("y", "-1/1000"),
            ("max_steps", "3"),
        ]);
        let e = run(probe, &inp).unwrap_err();
        assert!(e.contains("step limit"), "{probe}: {e}");
        let mut inp = inp;
        inp.insert("max_steps".into(), "10000".into());
        let out = run(probe, &inp).unwrap();
        assert_eq!(
            value(&out, "exit"),
            BigRational::from_integer(1.into()),
            "{probe}"
        );
    }
}

/// FP Corollary 3.1 from every zone: the first step enters the ranking's own domain D
/// (entry and domain lemmas), then the ranking of Result 3. A D that misses a boundary
/// ray of Z1, a D that takes in Z12, and inelastic steps (ε = 1/2, whose ranking does not
/// rise) are not proved, each with the lemma that fails.
#[test]
fn corollary_3_1_enters_the_ranking_domain() {
    let (text, _) = load("proofs/fp/fp-cor3.1-termination.toml");
    let (v, d) = verdict_of(&text);
    assert_eq!(v, Verdict::Proved, "{d}");
    for lemma in ["the entry lemma", "the domain lemma", "the ranking lemma"] {
        assert!(d.contains(lemma), "{lemma}: {d}");
    }
    let broken = [
        (
            "domain = [\"k*x + abs(y) > 0\", \"k*x - abs(y) <= 0\"]",
            "domain = [\"k*x + abs(y) > 0\", \"k*x - abs(y) < 0\"]",
            "the domain lemma is refuted",
        ),
        (
            "domain = [\"k*x + abs(y) > 0\", \"k*x - abs(y) <= 0\"]",
            "domain = [\"k*x + abs(y) > 0\"]",
            "the ranking lemma is not proved",
        ),
        (
            "eps = \"1\", x = \"x\"",
            "eps = \"1/2\", x = \"x\"",
            "the ranking lemma is refuted",
        ),
    ];
    not_proved(&text, &broken);
}

/// The registered zones of TA's step cover every state, one at a time, and each is the
/// step's own `zone` (FP eq. (1)), the boundary rays and v = 0 included: the domain and
/// ranking lemmas over them speak of every state.
#[test]
fn the_registered_zones_partition_the_states_as_the_step_does() {
    use impactkit::lang::{parse_relation, Env};
    let reg = &TERMINATING[0];
    let code = |name: &str| match name {
        "Z0" => 0,
        "Z1" => 1,
        "Z2" => 2,
        _ => 12,
    };
    let mut seen = [0usize; 4];
    for (ka, kb) in [(1, 3), (1, 1), (5, 2)] {
        for x in -3..=3 {
            for y in -3..=3 {
                let (k, x, y) = (q(ka, kb), q(x, 1), q(y, 1));
                let mut env = Env::new();
                for (n, v) in [("k", &k), ("x", &x), ("y", &y)] {
                    env.insert(
                        n.to_string(),
                        impactkit::lang::rational(v)
                            .map(|r| impactkit::arith::Rational::from_big(&r))
                            .unwrap(),
                    );
                }
                let holds: Vec<&str> = reg
                    .zones
                    .iter()
                    .filter(|(_, hyps)| {
                        hyps.iter().all(|h| {
                            parse_relation(h).unwrap().decide(&env, &()).unwrap() == Some(true)
                        })
                    })
                    .map(|(n, _)| *n)
                    .collect();
                assert_eq!(holds.len(), 1, "k = {k}, ({x}, {y}): {holds:?}");
                let step = run(
                    "corner.tr_nid_xy",
                    &inputs(&[("k", &k), ("eps", "1"), ("x", &x), ("y", &y)]),
                )
                .unwrap();
                let z = value(&step, "zone").to_integer().to_i64().unwrap();
                assert_eq!(z, code(holds[0]), "k = {k}, ({x}, {y})");
                seen[[0, 1, 2, 12].iter().position(|c| *c == z).unwrap()] += 1;
            }
        }
    }
    assert!(seen.iter().all(|n| *n > 0), "{seen:?}");
}

/// TA with the rest test (`corner.trace`, registered for `shrinks_by`) is its step
/// iterated: an exit where the step's `zone` is 0, else rest where x² + y² <= S_v², else
/// the step's outcome; the same number of steps and the same end.
#[test]
fn the_rest_run_is_the_step_with_the_rest_test() {
    let reg = TERMINATING
        .iter()
        .find(|t| t.run == "corner.trace")
        .unwrap();
    assert_eq!(reg.rest, Some(("x^2 + y^2", "Sv^2")));
    let mut ends = [0usize; 2];
    for (ka, kb) in [(1, 3), (3, 4), (2, 1)] {
        for (ea, eb) in [(0, 1), (1, 2), (9, 10)] {
            for (x, y) in [(1, -2), (3, 1), (2, -5), (5, 1), (-1, 2), (7, -1)] {
                let (k, eps, sv) = (q(ka, kb), q(ea, eb), q(1, 5));
                let mut state = (q(x, 1), q(y, 1));
                let mut steps = 0;
                let end = loop {
                    let out = run(
                        "corner.tr_nid_xy",
                        &inputs(&[("k", &k), ("eps", &eps), ("x", &state.0), ("y", &state.1)]),
                    )
                    .unwrap();
                    if value(&out, "zone") == BigRational::from_integer(0.into()) {
                        break "exit";
                    }
                    let v2 = {
                        let x = impactkit::lang::rational(&state.0).unwrap();
                        let y = impactkit::lang::rational(&state.1).unwrap();
                        &x * &x + &y * &y
                    };
                    let s = impactkit::lang::rational(&sv).unwrap();
                    if v2 <= &s * &s {
                        break "rest";
                    }
                    state = (show(&value(&out, "x1")), show(&value(&out, "y1")));
                    steps += 1;
                    assert!(steps < 300, "k = {k}, eps = {eps}");
                };
                let tr = run(
                    "corner.trace",
                    &inputs(&[
                        ("k", &k),
                        ("eps", &eps),
                        ("x", &q(x, 1)),
                        ("y", &q(y, 1)),
                        ("Sv", &sv),
                    ]),
                )
                .unwrap();
                let one = BigRational::from_integer(1.into());
                assert_eq!(value(&tr, end), one, "k = {k}, eps = {eps}, ({x}, {y})");
                assert_eq!(
                    value(&tr, "steps"),
                    BigRational::from_integer(steps.into()),
                    "k = {k}, eps = {eps}, ({x}, {y})"
                );
                ends[usize::from(end == "rest")] += 1;
            }
        }
    }
    // both ends were seen
    assert!(ends.iter().all(|n| *n > 0), "{ends:?}");
}

/// FP Theorem 5.3 by a ranking that shrinks by q = ε² + (1 − ε²)c² < 1 per step: a
/// smaller factor is refuted, ε = 1 (q = 1) is refused, and the ranking must be the
/// run's rest quantity, without the additive bounds.
#[test]
fn theorem_5_3_by_a_shrinking_ranking() {
    let (text, _) = load("proofs/fp/fp-thm5.3-limit.toml");
    let (v, d) = verdict_of(&text);
    assert_eq!(v, Verdict::Proved, "{d}");
    assert!(d.contains("shrinks by the factor"), "{d}");
    not_proved(
        &text,
        &[
            (
                "shrinks_by = \"eps^2 + (1 - eps^2)*((1 - k^2)/(1 + k^2))^2\"",
                "shrinks_by = \"eps^2 + (1 - eps^2)*((1 - k^2)/(1 + k^2))^2/2\"",
                "the shrinking lemma is refuted",
            ),
            (
                "eps = \"[0, 1)\", x = \"R\"",
                "eps = \"[0, 1]\", x = \"R\"",
                "the shrinking lemma is refuted",
            ),
            (
                "ranking = \"x^2 + y^2\"",
                "ranking = \"x^2 + 2*y^2\"",
                "must be the run's rest quantity",
            ),
            (
                "ranking = \"x^2 + y^2\"",
                "ranking = \"x^2 + y^2\"\nat_least = \"0\"",
                "is not used with `shrinks_by`",
            ),
        ],
    );
    // a run without a rest test
    let (chi, _) = load("proofs/fp/fp-result3-chi.toml");
    let (v, d) = verdict_of(&chi.replacen(
        "rises_by = \"2*k^2/(1 + k^2)^2\"",
        "shrinks_by = \"1/2\"",
        1,
    ));
    assert_ne!(v, Verdict::Proved, "{d}");
    assert!(d.contains("needs a run with a rest test"), "{d}");
}
