//! The hypothesis of the induction over the steps of a run (`claims::induction`): each
//! registered step probe, iterated from a state until it stops, reproduces its run probe
//! exactly (steps, multiple impacts, exit, final velocity). Then the engine's checks: the
//! lemmas must be the registered steps with the claim's input maps, a failing lemma gives
//! no proof, and a run-level conclusion the lemmas do not give is still refuted.

use crate::common::claims::{load, mutant_refuted, verdict_of};
use impactkit::claims::claim::induction::STEPS;
use impactkit::claims::probes::{run, Inputs};
use impactkit::claims::{check, Verdict};
use impactkit::lang::show;
use num_rational::BigRational;
use std::time::Duration;

/// A small deterministic generator of rationals.
struct Lcg(u64);
impl Lcg {
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        lo + ((self.0 >> 33) % ((hi - lo + 1) as u64)) as i64
    }
    /// a/b with a in [lo, hi], b in [1, 7].
    fn q(&mut self, lo: i64, hi: i64) -> String {
        let (a, b) = (self.int(lo, hi), self.int(1, 7));
        show(&BigRational::new(a.into(), b.into()))
    }
}

fn inputs(pairs: &[(&str, String)]) -> Inputs {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

fn text(out: &impactkit::lang::Env<impactkit::arith::Rational>, name: &str) -> String {
    show(&out[name].to_big())
}

/// The most steps compared (the runs get the same limit).
const CAP: usize = 60;

/// Iterates `step` from `state` (its names `names`, the next state in `next`) until its
/// `stop` output says so or [`CAP`] steps: (steps, multiple impacts, exit, last state).
fn iterate(
    step: &str,
    fixed: &Inputs,
    names: &[String],
    mut state: Vec<String>,
    next: impl Fn(usize) -> String,
    stop: impl Fn(&impactkit::lang::Env<impactkit::arith::Rational>) -> Option<bool>,
    multiple: impl Fn(&impactkit::lang::Env<impactkit::arith::Rational>) -> bool,
) -> (usize, usize, bool, Vec<String>) {
    let (mut steps, mut mult) = (0, 0);
    loop {
        let mut inp = fixed.clone();
        for (n, v) in names.iter().zip(&state) {
            inp.insert(n.clone(), v.clone());
        }
        let out = run(step, &inp).unwrap();
        if let Some(exit) = stop(&out) {
            return (steps, mult, exit, state);
        }
        if steps == CAP {
            return (steps, mult, false, state);
        }
        mult += usize::from(multiple(&out));
        steps += 1;
        state = (0..names.len()).map(|i| text(&out, &next(i))).collect();
    }
}

#[test]
fn every_registered_step_reproduces_its_run() {
    let runs: Vec<&str> = STEPS.iter().map(|s| s.0).collect();
    assert_eq!(
        runs,
        [
            "corner.asym_run",
            "corner.ta",
            "cradle.run",
            "char.procedure"
        ]
    );
    let mut g = Lcg(13);
    let mut seen_multiple = 0;
    for i in 0..80 {
        // Pasquero (10) and FP's TA on the corner: the zone code 0 is the exit
        let (step, runp) = match i % 2 {
            0 => ("corner.asymmetric", "corner.asym_run"),
            _ => ("corner.tr_nid_xy", "corner.ta"),
        };
        let fixed = inputs(&[
            ("k", g.q(1, 12)),
            ("eps1", g.q(0, 1)),
            ("eps2", g.q(0, 1)),
            ("eps", g.q(0, 1)),
        ]);
        let start = vec![g.q(-9, 9), g.q(-9, 9)];
        let names = vec!["x".to_string(), "y".to_string()];
        let (steps, mult, exit, last) = iterate(
            step,
            &fixed,
            &names,
            start.clone(),
            |i| ["x1", "y1"][i].to_string(),
            |o| (text(o, "zone") == "0").then_some(true),
            |o| text(o, "zone") == "12",
        );
        let mut inp = fixed.clone();
        inp.insert("x".into(), start[0].clone());
        inp.insert("y".into(), start[1].clone());
        inp.insert("max_steps".into(), CAP.to_string());
        // a run the step limit cuts has an outcome only where its certified long run
        // gives one (it never exits): no truncated run is read as an answer
        let r = match run(runp, &inp) {
            Ok(r) => r,
            Err(e) if !exit && e.contains("no outcome") => continue,
            Err(e) => panic!("{inp:?}: {e}"),
        };
        if !exit {
            assert_eq!(text(&r, "never_exits"), "1", "{inp:?}");
            continue;
        }
        assert_eq!(text(&r, "steps"), steps.to_string(), "{inp:?}");
        // (a run cut at the limit also counts the zone it classified last)
        if exit {
            assert_eq!(text(&r, "multiple"), mult.to_string(), "{inp:?}");
        }
        assert_eq!(text(&r, "exit"), if exit { "1" } else { "0" });
        assert_eq!(
            [text(&r, "xf"), text(&r, "yf")],
            [last[0].clone(), last[1].clone()]
        );
        seen_multiple += mult;
    }
    for (step, runp, n) in [
        ("cradle.step", "cradle.run", 3),
        ("char.step", "char.procedure", 4),
    ] {
        for _ in 0..25 {
            // the cradle: COR eps; char: n = 4 coordinates, three constraints, general
            // diagonal masses and CORs; both with an AEEV threshold sigma
            let mut fixed = inputs(&[("sigma", g.q(0, 1))]);
            if n == 3 {
                fixed.insert("eps".into(), g.q(0, 1));
            } else {
                for i in 1..=n {
                    fixed.insert(format!("m{i}"), g.q(1, 5));
                }
                for (i, nrm) in [[1, -1, 0, 0], [0, 1, -1, 0], [0, 0, 1, -1]]
                    .iter()
                    .enumerate()
                {
                    for (j, x) in nrm.iter().enumerate() {
                        fixed.insert(format!("n{}_{}", i + 1, j + 1), x.to_string());
                    }
                    fixed.insert(format!("e{}", i + 1), g.q(0, 1));
                }
            }
            let names: Vec<String> = (1..=n).map(|i| format!("v{i}")).collect();
            let start: Vec<String> = (0..n).map(|_| g.q(-9, 9)).collect();
            let (steps, mult, exit, last) = iterate(
                step,
                &fixed,
                &names,
                start.clone(),
                |i| format!("next_v{}", i + 1),
                |o| {
                    (text(o, "exit") == "1" || text(o, "rest") == "1")
                        .then(|| text(o, "exit") == "1")
                },
                |o| text(o, "impacting") != "0" && text(o, "impacting") != "1",
            );
            let mut inp = fixed.clone();
            for (k, v) in names.iter().zip(&start) {
                inp.insert(k.clone(), v.clone());
            }
            inp.insert("max_iter".into(), CAP.to_string());
            let r = run(runp, &inp).unwrap();
            assert_eq!(text(&r, "steps"), steps.to_string(), "{runp} {inp:?}");
            assert_eq!(text(&r, "multiple"), mult.to_string(), "{runp} {inp:?}");
            assert_eq!(text(&r, "exit"), if exit { "1" } else { "0" });
            let last_run: Vec<String> = (1..=n).map(|i| text(&r, &format!("vf{i}"))).collect();
            assert_eq!(last_run, last, "{runp} {inp:?}");
            seen_multiple += mult;
        }
    }
    // the runs compared include multiple impacts
    assert!(seen_multiple > 0);
}

#[test]
fn induction_checks_its_lemmas() {
    let run_claim = |p: &str| check(&load(p).1, Duration::from_secs(120));
    let sym = "proofs/pq/pq-corner-symmetry.toml";
    let nom = "proofs/pq/pq-cradle-no-multiple.toml";
    let r5 = "proofs/fp/fp-result5.toml";
    assert_eq!(run_claim(sym).verdict, Verdict::Proved);
    assert_eq!(run_claim(nom).verdict, Verdict::Proved);
    let (sym_text, _) = load(sym);
    let (nom_text, _) = load(nom);
    let (r5_text, _) = load(r5);
    let step_call = "calls = [{ probe = \"corner.asymmetric\", prefix = \"m_\", inputs = { eps1 = \"eps2\", eps2 = \"eps1\", y = \"-y\" } }]";
    for (text, from, to, why) in [
        // the runs must start in the lemma's family of related states
        (
            &sym_text,
            step_call,
            "calls = [{ probe = \"corner.asymmetric\", prefix = \"m_\", inputs = { eps1 = \"eps2\", eps2 = \"eps1\", y = \"y\" } }]",
            "does not start in the step lemma's family",
        ),
        (
            &sym_text,
            step_call,
            "calls = [{ probe = \"corner.asymmetric\", prefix = \"m_\", inputs = { eps1 = \"eps1\", eps2 = \"eps2\", y = \"-y\" } }]",
            "the step lemma must compute what the run computes",
        ),
        // a step probe that is not the run's step
        (
            &sym_text,
            "[implication.induction.step]\nprobe = \"corner.asymmetric\"",
            "[implication.induction.step]\nprobe = \"corner.tr_nid_xy\"",
            "is not the one step",
        ),
        // the lemma takes every state, and the claim's parameters
        (
            &sym_text,
            "[implication.induction.step.proof]\ndomain = { k = \"(0, inf)\", eps1 = \"[0, 1]\", eps2 = \"[0, 1]\", x = \"R\"",
            "[implication.induction.step.proof]\ndomain = { k = \"(0, inf)\", eps1 = \"[0, 1]\", eps2 = \"[0, 1]\", x = \"(0, inf)\"",
            "must take every state",
        ),
        (
            &sym_text,
            "[implication.induction.step.proof]\ndomain = { k = \"(0, inf)\"",
            "[implication.induction.step.proof]\ndomain = { k = \"(1, inf)\"",
            "is not the claim's",
        ),
        (
            &nom_text,
            "[implication.induction.step]\nprobe = \"cradle.step\"\n",
            "[implication.induction.step]\nprobe = \"cradle.step\"\nassume = [\"v1 - v2 <= 0\"]\n",
            "restricts the state",
        ),
        // conclusions and bases are the engine's, never the file's
        (
            &nom_text,
            "[implication.induction.step]\nprobe = \"cradle.step\"\n",
            "[implication.induction.step]\nprobe = \"cradle.step\"\nconclude = [\"impacting <= 1\"]\n",
            "is not used",
        ),
        (
            &nom_text,
            "[implication.induction.step]\n",
            "[implication.induction.base]\nprobe = \"cradle.step\"\n\n[implication.induction.step]\n",
            "`base` is not used",
        ),
        // the false run-level conclusions: not among what the lemmas give
        (
            &r5_text,
            "conclude = [\"multiple == 0\"]\n\n[[implication.case]]\nname = \"Z2: none\"",
            "conclude = [\"multiple == 0\", \"steps <= 20\"]\n\n[[implication.case]]\nname = \"Z2: none\"",
            "`steps <= 20` (case Z1: none)",
        ),
        (
            &r5_text,
            "conclude = [\"multiple == 1\"]",
            "conclude = [\"multiple == 1\", \"steps <= 30\"]",
            "use other outputs of the run",
        ),
        (
            &sym_text,
            "\"m_exit == exit\"]",
            "\"m_exit == exit\", \"steps <= 10\"]",
            "`steps <= 10` are not among those it gives",
        ),
        (
            &sym_text,
            "\"m_yf == -yf\"",
            "\"m_yf == yf\"",
            "`m_yf == yf` are not among those it gives",
        ),
    ] {
        assert_eq!(text.matches(from).count(), 1, "{from}");
        let (v, detail) = verdict_of(&text.replacen(from, to, 1));
        assert_ne!(v, Verdict::Proved, "{detail}");
        // no proof by induction, and the claim is then sampled (or proved false exactly)
        assert!(
            v == Verdict::Refuted || detail.contains(why),
            "{why}: {detail}"
        );
    }
    // TA with a threshold S > 0 (SA's zoning) is not the iteration of the zone of eq. (1)
    let from = "y = \"y\", max_steps = \"300\" }";
    assert_eq!(r5_text.matches(from).count(), 1);
    let (v, d) =
        verdict_of(&r5_text.replacen(from, "y = \"y\", max_steps = \"300\", S = \"1/10\" }", 1));
    assert_ne!(v, Verdict::Proved, "{d}");
    assert!(
        v == Verdict::Refuted || d.contains("with S other than 0"),
        "{d}"
    );
    // a malformed induction table is named, not ignored: bad input before any verdict
    let head = &nom_text[..nom_text.find("\n[implication.induction]").unwrap()];
    let malformed = head.replacen("samples = 25\n", "samples = 25\ninduction = 5\n", 1);
    let e =
        impactkit::claims::Claim::parse(&malformed, std::path::Path::new("m.toml")).unwrap_err();
    assert!(
        e.to_string()
            .contains("`implication.induction`: must be a table, not integer `5`"),
        "{e}"
    );
    // a false conclusion on the runs: the instance at the run's start fails, no proof, and
    // a sample point refutes it
    mutant_refuted(nom, "\"multiple == 0\"", "\"multiple == 1\"");
}
