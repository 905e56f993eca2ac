//! What a proof of termination states, derived from the claim file alone: the lemmas on
//! one step of the run ([`derive`]) that the prover ([`crate::claims::prove::termination`])
//! proves and the checker checks the certificate's proofs against (the argument is below).
//!
//! **Termination of a run by a ranking function**: a claim that every run of an iterated
//! law from the claim's domain stops (Fassino–Pasquero Result 3: "there exists χ such that
//! v_{n+χ} is in Z0"), proved from one step of the law from any state of the domain.
//!
//! ```toml
//! [implication]                      # the claim on the runs: its conclusion is `exit == 1`
//! probe = "corner.ta"
//! assume = ["t > 0", "t < 1", "k*x + abs(y) > 0", "k*x - abs(y) <= 0"]   # the domain D
//! conclude = ["exit == 1"]
//! [[implication.case]] …             # the cases cover D (the claim's statement)
//!
//! [implication.termination]
//! why = "…what the ranking measures…"
//! ranking = "((y - k*x)/(k*x + abs(y)))*((y + k*x)/(k*x + abs(y)))"   # R(state)
//! at_least = "-1"                    # L, the parameters only
//! at_most = "2"                      # B
//! rises_by = "2*k^2/(1 + k^2)^2"     # δ
//! ```
//!
//! **The argument.** Let T be the run's one step ([`crate::claims::claim::induction::STEPS`]), "v
//! continues" mean that the run applies a rule at v (it does not stop there), and D the
//! claim's domain (its hypotheses). If for every v in D that continues and whose T(v)
//! continues: L ≤ R(v) ≤ B, R(T(v)) ≥ R(v) + δ and T(v) is in D, with δ > 0, then along a
//! run from v₀ in D every state that continues is in D, and a stretch v₀, …, v_n of states
//! that continue has R(v_{n−1}) ≥ L + (n − 1)δ and R(v_{n−1}) ≤ B: n ≤ (B − L)/δ + 1. So
//! the run stops after at most ⌊(B − L)/δ⌋ + 2 steps, which is finite for every v₀ (the
//! bound depends on the parameters). The engine builds that lemma itself from the claim:
//! the same space (variables, hypotheses, cases, proof table), the registered step probe
//! in place of the run's, and the conditions above as guarded conclusions
//! (`zone*zone1 != 0 => …`, [`TERMINATING`]: the step's own outputs say whether v and T(v)
//! continue), R(T(v)) and "T(v) in D" by renaming the state in R and in each hypothesis.
//! L, B and δ must not depend on the state. The lemma is proved by the symbolic method
//! over the claim's whole domain with no cell left undefined; it is not sampled (a run's
//! step limit is not the paper's), and a lemma that is not proved gives no proof. That the
//! claim's cases cover its hypotheses is the claim file's statement, as for every claim.
//!
//! **A domain entered after one step** (`domain = [...]` in the table, Fassino–Pasquero
//! Corollary 3.1: from Z12 the first step is a multiple impact, after which the run is in
//! Z1 or Z2). D is then the table's `domain`, not the claim's hypotheses, and three lemmas
//! are proved, each with no cell left undefined: the ranking lemma above over every state
//! of D (the registered [`Terminating::zones`], which cover every state, within D); the
//! *entry lemma* over the claim's space: the first step ends outside a registered zone
//! ([`Terminating::enters`], for TA `zone1 != 12`: Theorem 3.1 and Result 1); and the
//! *domain lemma* over every state (the zones): a state that continues and is not in that
//! zone (`zone*(zone - 12) != 0`) is in D. So the state after the first step stops or is
//! in D, and the run stops within ⌊(B − L)/δ⌋ + 3 steps.

use super::body::{self, Body, Implication};
use super::{Claim, Kind};
use crate::lang;

/// A run and its step, which says where the run stops.
pub struct Terminating {
    /// The run probe.
    pub run: &'static str,
    /// The step probe.
    pub step: &'static str,
    /// Nonzero where the run applies a rule at the state (it does not stop there).
    pub continues: &'static str,
    /// Nonzero where it applies one at the state after the step.
    pub continues_next: &'static str,
    /// The state's inputs with their outputs after the step.
    pub state: &'static [(&'static str, &'static str)],
    /// The run's conclusion a termination gives.
    pub gives: &'static str,
    /// Inputs of the run the step does not take.
    pub run_only: &'static [&'static str],
    /// Zones that cover every state (name, hypotheses on the state and the parameters):
    /// the cases of the domain lemma of a claim with a ranking `domain` of its own.
    pub zones: &'static [(&'static str, &'static [&'static str])],
    /// A relation on the step's outputs that excludes a zone of the next state, and the
    /// relation "continues and is not in that zone" on the state: the entry lemma proves
    /// the first from every state of the claim, the domain lemma that a state with the
    /// second is in the ranking's domain.
    pub enters: (&'static str, &'static str),
    /// The run's rest test, where it has one: (R, F), the run stops at rest where R <= F
    /// (so R > F wherever it applies a rule).
    pub rest: Option<(&'static str, &'static str)>,
}

/// FP eq. (1): ξ̇ = kx + y, η̇ = kx − y; the zones cover every velocity.
const FP_ZONES: &[(&str, &[&str])] = &[
    ("Z0", &["k*x + y <= 0", "k*x - y <= 0"]),
    ("Z1", &["k*x + y <= 0", "k*x - y > 0"]),
    ("Z2", &["k*x + y > 0", "k*x - y <= 0"]),
    ("Z12", &["k*x + y > 0", "k*x - y > 0"]),
];

/// The registered runs: TA's (S = 0, see `induction::ONLY_WITH`) stops only at
/// an exit (Z0; v = 0 is in Z0, so the rest test never stops it first); TA with the rest
/// test ‖v‖ <= S_v of Sect. 6 (`corner.trace`, S = 0) stops at an exit or at rest.
pub const TERMINATING: &[Terminating] = &[
    Terminating {
        run: "corner.ta",
        step: "corner.tr_nid_xy",
        continues: "zone",
        continues_next: "zone1",
        state: &[("x", "x1"), ("y", "y1")],
        gives: "exit == 1",
        run_only: &["max_steps", "S"],
        zones: FP_ZONES,
        // after a step from any velocity, the disk is not in Z12 (FP Theorem 3.1, Result 1)
        enters: ("zone1 != 12", "zone*(zone - 12) != 0"),
        rest: None,
    },
    Terminating {
        run: "corner.trace",
        step: "corner.tr_nid_xy",
        continues: "zone",
        continues_next: "zone1",
        state: &[("x", "x1"), ("y", "y1")],
        gives: "exit + rest == 1",
        run_only: &["max_steps", "S", "Sv"],
        zones: FP_ZONES,
        enters: ("zone1 != 12", "zone*(zone - 12) != 0"),
        rest: Some(("x^2 + y^2", "Sv^2")),
    },
];

/// How the claim's runs are shown to stop.
pub(crate) enum Form {
    /// A ranking R with L <= R <= B rising by delta; `domain`: the ranking's own domain D
    /// (entered after one step), else the claim's hypotheses on the state.
    Ranking {
        r: String,
        lo: String,
        hi: String,
        delta: String,
        domain: Option<Vec<String>>,
    },
    /// The run's rest quantity R shrinking by the factor q above its rest floor F.
    Shrinking { r: String, q: String, floor: String },
}

/// One lemma of a termination: its key in the certificate, how the prover names it, the
/// lemma, and its conclusions.
pub(crate) struct Lemma {
    pub key: &'static str,
    pub what: &'static str,
    pub claim: Claim,
    pub conclude: Vec<String>,
}

/// What a termination states, derived from the claim file.
pub(crate) struct Termination {
    pub why: String,
    pub reg: &'static Terminating,
    pub form: Form,
    /// The lemmas, in the order they are proved.
    pub lemmas: Vec<Lemma>,
}

impl Termination {
    /// The certificate's fields other than the lemmas' proofs.
    pub fn record(&self) -> serde_json::Value {
        let mut out = match &self.form {
            Form::Ranking {
                r, lo, hi, delta, ..
            } => serde_json::json!({
                "method": RANKING, "run": self.reg.run, "step": self.reg.step, "ranking": r,
                "at least": lo, "at most": hi, "rises by": delta,
            }),
            Form::Shrinking { r, q, floor } => serde_json::json!({
                "method": SHRINKING, "run": self.reg.run, "step": self.reg.step,
                "ranking": r, "shrinks by": q, "rest floor": floor,
            }),
        };
        for l in &self.lemmas {
            out[format!("{} conclusions", l.key)] = serde_json::json!(l.conclude);
        }
        out
    }
}

/// The `method` of a ranking function's certificate.
pub const RANKING: &str = "ranking function";
/// The `method` of a shrinking ranking's certificate.
pub const SHRINKING: &str = "ranking shrinking by a factor (rest test)";

fn text<'a>(v: &'a Option<String>, key: &str) -> Result<&'a str, String> {
    v.as_deref()
        .ok_or_else(|| format!("termination: `{key}` must be a string"))
}

/// The names that depend on the state: its inputs and every derived quantity that uses
/// one of them (the claim's and its cases' `derive`).
fn state_names(claim: &Implication, state: &[(&str, &str)]) -> Vec<String> {
    let mut names: Vec<String> = state.iter().map(|(s, _)| s.to_string()).collect();
    let mut pairs = claim.derive.pairs().to_vec();
    for c in claim.case.iter().flatten() {
        pairs.extend(c.derive.pairs().iter().cloned());
    }
    loop {
        let before = names.len();
        for (n, e) in &pairs {
            if !names.contains(n) && uses(e, &names) {
                names.push(n.clone());
            }
        }
        if names.len() == before {
            return names;
        }
    }
}

/// Whether an expression (or relation) uses one of `names` (an unparsable text counts as
/// using them: it is refused later).
fn uses(src: &str, names: &[String]) -> bool {
    let mut vs = Vec::new();
    match lang::parse_relation(src) {
        Ok(r) => r.vars(&mut vs),
        Err(_) => match lang::parse_with_variables(src) {
            Ok(e) => e.vars(&mut vs),
            Err(_) => return true,
        },
    }
    vs.iter().any(|v| names.contains(v))
}

/// `src` with the state's inputs renamed to their values after the step.
fn after_step(src: &str, state: &[(&str, &str)]) -> String {
    state.iter().fold(src.to_string(), |s, (from, to)| {
        super::statement::substitute_text(&s, from, to)
    })
}

/// A lemma on one step over the claim's space: the step probe in place of the run's (its
/// inputs without the run's own), the given conclusions (the cases keep their
/// hypotheses, not their conclusions); `assume` and `cases` replace the claim's where
/// given.
fn step_lemma(
    claim: &Claim,
    reg: &Terminating,
    name: &str,
    conclude: &[String],
    assume: Option<&[String]>,
    cases: Option<toml::Value>,
) -> Result<Claim, String> {
    let mut lemma = claim.table().clone();
    lemma.remove("termination");
    lemma.insert("probe".into(), reg.step.into());
    super::without_inputs(&mut lemma, reg.run_only);
    let list = |xs: &[String]| toml::Value::Array(xs.iter().map(|x| x.clone().into()).collect());
    lemma.insert("conclude".into(), list(conclude));
    if let Some(a) = assume {
        lemma.insert("assume".into(), list(a));
    }
    if let Some(c) = cases {
        lemma.insert("case".into(), c);
    }
    if let Some(toml::Value::Array(cs)) = lemma.get_mut("case") {
        for case in cs.iter_mut().filter_map(|x| x.as_table_mut()) {
            case.remove("conclude");
        }
    }
    claim.lemma(name, Kind::Implication, lemma)
}

/// `zones` of a registered run as the cases of a lemma.
fn zone_cases(reg: &Terminating) -> toml::Value {
    toml::Value::Array(
        reg.zones
            .iter()
            .map(|(name, hyps)| {
                let mut t = toml::Table::new();
                t.insert("name".into(), (*name).into());
                t.insert(
                    "assume".into(),
                    toml::Value::Array(hyps.iter().map(|h| (*h).into()).collect()),
                );
                toml::Value::Table(t)
            })
            .collect(),
    )
}

/// The termination of an `implication` with a `termination` table (`spec`), derived from
/// the claim file: the registered run, the form, and the lemmas to prove.
pub(crate) fn derive(claim: &Claim, spec: &body::Termination) -> Result<Termination, String> {
    let c = match (claim.body(), claim.kind) {
        (Body::Implication(c), Kind::Implication) => c,
        _ => return Err("termination: only for `implication` claims".into()),
    };
    if !c.calls.is_empty() || c.probe2.is_some() || c.induction.is_some() {
        return Err("termination: the claim must run one probe (no calls, no induction)".into());
    }
    let run = c
        .probe
        .as_deref()
        .ok_or("termination: the claim has no probe")?;
    let reg = TERMINATING
        .iter()
        .find(|t| t.run == run)
        .ok_or_else(|| format!("termination: probe {run} has no registered one step"))?;
    let step = reg.step;
    for (r, name, value) in super::induction::ONLY_WITH
        .iter()
        .chain([("corner.trace", "S", "0")].iter())
    {
        let given = c.inputs.as_ref().and_then(|m| m.get(name));
        if run == *r && given.is_some_and(|g| g != *value) {
            return Err(format!(
                "termination: {run} with {name} other than {value} is not the iteration of {step}"
            ));
        }
    }
    // the claim says the runs stop, nothing else
    let concludes = std::iter::once(&c.conclude)
        .chain(c.case.iter().flatten().map(|x| &x.conclude))
        .filter(|k| !k.is_empty());
    for k in concludes {
        if *k != [reg.gives] {
            return Err(format!(
                "termination: the conclusions must be [\"{}\"] (what a proof of termination gives)",
                reg.gives
            ));
        }
    }
    let why = text(&spec.why, "why")?.to_string();
    let (form, lemmas) = match spec.shrinks_by.is_some() {
        true => shrinking(claim, c, spec, reg)?,
        false => ranking(claim, c, spec, reg)?,
    };
    Ok(Termination {
        why,
        reg,
        form,
        lemmas,
    })
}

/// The ranking lemma (and, with a domain of its own, the entry and domain lemmas).
fn ranking(
    claim: &Claim,
    c: &Implication,
    spec: &body::Termination,
    reg: &'static Terminating,
) -> Result<(Form, Vec<Lemma>), String> {
    let (now, next, state) = (reg.continues, reg.continues_next, reg.state);
    let (r, lo, hi, delta) = (
        text(&spec.ranking, "ranking")?,
        text(&spec.at_least, "at_least")?,
        text(&spec.at_most, "at_most")?,
        text(&spec.rises_by, "rises_by")?,
    );
    let moving = state_names(c, state);
    for (key, e) in [("at_least", lo), ("at_most", hi), ("rises_by", delta)] {
        if uses(e, &moving) {
            return Err(format!("termination: `{key}` must not depend on the state"));
        }
    }
    let assume = c.assume.clone();
    // the ranking's own domain D (else the claim's hypotheses on the state)
    let domain = spec.domain.clone();
    let on_state: Vec<String> = match &domain {
        Some(d) => d.clone(),
        None => assume
            .iter()
            .filter(|a| uses(a, &moving))
            .cloned()
            .collect(),
    };
    for e in std::iter::once(r).chain(on_state.iter().map(String::as_str)) {
        let mut vs = Vec::new();
        match lang::parse_relation(e) {
            Ok(x) => x.vars(&mut vs),
            Err(_) => lang::parse_with_variables(e)
                .map_err(|err| format!("termination: {e}: {err}"))?
                .vars(&mut vs),
        }
        let derived_from_state = vs
            .iter()
            .find(|v| moving.contains(v) && !state.iter().any(|(s, _)| s == *v));
        if let Some(v) = derived_from_state {
            return Err(format!(
                "termination: `{e}` uses {v}, which is derived from the state: write it with the state's inputs"
            ));
        }
    }
    if domain.as_ref().is_some_and(|d| d.is_empty()) {
        return Err("termination: `domain` must be a non-empty list of relations".into());
    }
    // the registered zones, which cover every state
    let zones = zone_cases(reg);
    // the ranking lemma: the claim's space, one step, the conditions as guarded
    // conclusions; with a domain D of its own, every state of D (the registered zones
    // within D, so that the states the first step enters are all taken)
    let guard = format!("({now})*({next}) != 0");
    let r_next = after_step(r, state);
    let mut conclude = vec![
        format!("{delta} > 0"),
        format!("{guard} => {r} >= {lo}"),
        format!("{guard} => {r} <= {hi}"),
        format!("{guard} => {r_next} >= {r} + ({delta})"),
    ];
    for a in &on_state {
        conclude.push(format!("{guard} => {}", after_step(a, state)));
    }
    let ranking_assume: Option<Vec<String>> = domain.as_ref().map(|d| {
        let params = assume.iter().filter(|a| !uses(a, &moving)).cloned();
        params.chain(d.iter().cloned()).collect()
    });
    let sub = step_lemma(
        claim,
        reg,
        "ranking lemma",
        &conclude,
        ranking_assume.as_deref(),
        domain.is_some().then(|| zones.clone()),
    )?;
    let mut lemmas = vec![Lemma {
        key: "lemma",
        what: "termination: the ranking lemma",
        claim: sub,
        conclude,
    }];
    if let Some(d) = &domain {
        // a domain of its own: the first step enters it (or the run stops)
        let (enter_next, enter_here) = reg.enters;
        let entry_conclude = vec![enter_next.to_string()];
        let entry = step_lemma(claim, reg, "entry lemma", &entry_conclude, None, None)?;
        let params: Vec<String> = assume
            .iter()
            .filter(|a| !uses(a, &moving))
            .cloned()
            .collect();
        let dom_conclude: Vec<String> = d.iter().map(|a| format!("{enter_here} => {a}")).collect();
        let dom = step_lemma(
            claim,
            reg,
            "domain lemma",
            &dom_conclude,
            Some(&params),
            Some(zones),
        )?;
        lemmas.push(Lemma {
            key: "entry lemma",
            what: "termination: the entry lemma",
            claim: entry,
            conclude: entry_conclude,
        });
        lemmas.push(Lemma {
            key: "domain lemma",
            what: "termination: the domain lemma",
            claim: dom,
            conclude: dom_conclude,
        });
    }
    let form = Form::Ranking {
        r: r.to_string(),
        lo: lo.to_string(),
        hi: hi.to_string(),
        delta: delta.to_string(),
        domain,
    };
    Ok((form, lemmas))
}

/// The shrinking lemma: the ranking is the run's rest quantity R, which exceeds the rest
/// floor F > 0 wherever the run goes on, so a stretch of n steps that go on has
/// F < R(v_n) <= qⁿ R(v₀): n < log(R(v₀)/F)/log(1/q), finite for every v₀ (a q <= 0 stops
/// the run after one step: R(v₁) <= q R(v₀) <= 0 < F). The lemma, over every state (the
/// registered zones) within the claim's hypotheses on the state: q < 1, F > 0, and, where
/// the state and its successor both apply a rule, R(next) <= q R and the successor
/// within those hypotheses.
fn shrinking(
    claim: &Claim,
    c: &Implication,
    spec: &body::Termination,
    reg: &'static Terminating,
) -> Result<(Form, Vec<Lemma>), String> {
    let Some((rest_r, floor)) = reg.rest else {
        return Err(format!(
            "termination: `shrinks_by` needs a run with a rest test ({} has none)",
            reg.run
        ));
    };
    for (key, given) in [
        ("at_least", spec.at_least.is_some()),
        ("at_most", spec.at_most.is_some()),
        ("rises_by", spec.rises_by.is_some()),
        ("domain", spec.domain.is_some()),
    ] {
        if given {
            return Err(format!(
                "termination: `{key}` is not used with `shrinks_by`"
            ));
        }
    }
    let r = text(&spec.ranking, "ranking")?;
    let q = text(&spec.shrinks_by, "shrinks_by")?;
    let squash = |x: &str| x.split_whitespace().collect::<String>();
    if squash(r) != squash(rest_r) {
        return Err(format!(
            "termination: with `shrinks_by` the ranking must be the run's rest quantity {rest_r}"
        ));
    }
    let moving = state_names(c, reg.state);
    if uses(q, &moving) {
        return Err("termination: `shrinks_by` must not depend on the state".into());
    }
    // the floor with the run's own inputs (e.g. Sv = 1/100)
    let floor_here =
        c.inputs
            .iter()
            .flat_map(|m| m.pairs())
            .fold(floor.to_string(), |f, (k, e)| {
                match reg.run_only.contains(&k.as_str()) {
                    true => super::statement::substitute_text(&f, k, &format!("({e})")),
                    false => f,
                }
            });
    let assume = c.assume.clone();
    let on_state: Vec<String> = assume
        .iter()
        .filter(|a| uses(a, &moving))
        .cloned()
        .collect();
    let guard = format!("({})*({}) != 0", reg.continues, reg.continues_next);
    let r_next = after_step(r, reg.state);
    let mut conclude = vec![
        format!("{q} < 1"),
        format!("{floor_here} > 0"),
        format!("{guard} => {r_next} <= ({q})*({r})"),
    ];
    for a in &on_state {
        conclude.push(format!("{guard} => {}", after_step(a, reg.state)));
    }
    let sub = step_lemma(
        claim,
        reg,
        "shrinking lemma",
        &conclude,
        Some(&assume),
        Some(zone_cases(reg)),
    )?;
    let form = Form::Shrinking {
        r: r.to_string(),
        q: q.to_string(),
        floor: floor_here,
    };
    let lemma = Lemma {
        key: "lemma",
        what: "termination: the shrinking lemma",
        claim: sub,
        conclude,
    };
    Ok((form, vec![lemma]))
}
