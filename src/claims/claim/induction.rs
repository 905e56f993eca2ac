//! What an induction over the steps of a run states, derived from the claim file alone:
//! the step lemma (its space, and conclusions built from the run), the claim's
//! conclusions at the run's start (one run) or the run facts (runs in lockstep). The
//! prover ([`crate::claims::prove::induction`]) proves what [`derive`] gives; the checker
//! derives it again and checks the certificate's lemmas against it, never against a
//! statement recorded in the certificate.
//!
//! **Induction over the steps of a run**: a claim about the runs of an iterated law (a
//! corner rule or Pasquero's procedure run until it stops) from a lemma about **one step
//! from any state**, which the engine builds from the run and proves by the symbolic
//! method; the claim's conclusions must be ones that lemma gives, never a text.
//!
//! ```toml
//! [implication]                       # the claim as the paper states it, on the runs
//! probe = "corner.asym_run"
//! calls = [{ probe = "corner.asym_run", prefix = "m_", inputs = { y = "-y" } }]
//! conclude = ["m_xf == xf", "m_yf == -yf", "m_steps == steps"]
//!
//! [implication.induction]
//! why = "…what the step keeps…"       # for the reader; the engine does not use it
//! conserved = ["s1"]                  # optional: state variables a step keeps
//! [implication.induction.step]        # the space of the lemma on one step
//! probe = "corner.asymmetric"         # the registered one step of each run (STEPS)
//! calls = [{ probe = "corner.asymmetric", prefix = "m_", inputs = { y = "-y" } }]
//! [implication.induction.step.proof]
//! domain = { …, x = "R", y = "R" }    # every state: the state variables over R
//! ```
//!
//! **What the engine checks.** A run is the sequence v₀, v₁ = T(v₀), … of one step map T
//! (classify the state, stop at an exit or at rest, else apply the rule of its zone);
//! its outputs are the number of steps (states that go on), of multiple impacts, the exit
//! flag and the final state. Each probe of the step table must be the registered one step
//! ([`STEPS`]) of the claim's run probe with the same prefix (the tests `it::induction`
//! check that iterating it reproduces the run exactly); the step lemma takes every state
//! (its state variables range over R, no hypothesis on them, its cases are the cells the
//! prover finds) and the claim's parameters (same domains, hypotheses among the claim's,
//! same derived quantities). Then, by the form of the claim:
//!
//! - **Runs in lockstep** (two or more runs): the step table's inputs describe a family of
//!   related states, one per value of its state variables (each a state input of the main
//!   step, written as itself). The engine checks, as identities of rational functions,
//!   that the claim's runs start in the family (their inputs are the lemma's at the state
//!   variables' starting values), and the step lemma it builds says that from related
//!   states every run decides alike (the outputs that decide a stop and a multiple
//!   impact: `goes_on` and `multi` of a corner step, the rates of the procedure, so that
//!   the AEEV test with one σ decides alike) and ends in related states (the state
//!   variables' next values being the main run's next state), and that each `conserved`
//!   variable keeps its value. So the runs have the same steps, multiple impacts and
//!   exit, and their final states are related: the run facts `P_steps == steps`,
//!   `P_multiple == multiple`, `P_exit == exit` and, per state input s of each run, its
//!   final value as the family gives it (conserved variables at their start). Every
//!   conclusion of the claim must be one of these facts, as an identity of rational
//!   functions.
//! - **One run**: the engine derives the number of multiple impacts only. Either the step
//!   lemma `goes_on == 1 => (the next state has no multiple impact)` holds, and then
//!   `multiple` is the first step's `multi`; or `goes_on - multi == 1 => (…)` holds, and
//!   with `multi == 0` at the run's start `multiple` is 0. The claim's conclusions, which
//!   may use no other output of the run, are then proved with `multiple` so replaced, on
//!   the step at the run's start (its step limit must let it take one step), over the
//!   claim's own space and cases.
//!
//! A conclusion the lemmas do not give leaves the claim without a proof (the detail names
//! it); it is then checked on exact samples, where a terminating run (or a certified
//! limit) can refute it. The lemmas are proved with no cell where their quantities are
//! undefined; a lemma that is refuted or not proved gives no proof, never a refutation.

use super::body::{self, Implication, Named};
use super::{Claim, Kind};

/// The runs whose one step is a probe of its own: (run probe, step probe, the step, with
/// the paper's equations).
pub const STEPS: &[(&str, &str, &str)] = &[
    (
        "corner.asym_run",
        "corner.asymmetric",
        "Pasquero (10) on the corner of Sect. 4.2: the zone of eq. (1) (exit in Z0), then the rule of that zone (system::corner, asymmetric restitution, S = 0)",
    ),
    (
        "corner.ta",
        "corner.tr_nid_xy",
        "Fassino–Pasquero TA (Sect. 6) with S = 0: the zone of eq. (1) (exit in Z0), then TR_nid of that zone, (13) in (x, y) (system::corner, symmetric restitution eps)",
    ),
    (
        "cradle.run",
        "cradle.step",
        "Pasquero Sect. 3.5 on the 3-ball cradle: the impacted constraints (exit when none), the AEEV test |n_i·v| <= sigma, then rule (7)/(8) on the impacted set (system::iterate::step of the procedure's map)",
    ),
    (
        "char.procedure",
        "char.step",
        "Pasquero Sect. 3.5, any r and M: as cradle.step (system::iterate::step of the procedure's map)",
    ),
];

/// The step probe of a run probe.
pub(crate) fn step_of(run: &str) -> Option<&'static str> {
    STEPS.iter().find(|(r, _, _)| *r == run).map(|(_, s, _)| *s)
}

/// Inputs with which a run is not the iteration of its registered step: (run, input,
/// the value it may have). TA with a threshold S > 0 is SA's zoning, not eq. (1)'s.
pub(crate) const ONLY_WITH: &[(&str, &str, &str)] = &[("corner.ta", "S", "0")];

/// (prefix, probe, input map) of a table's probe (prefix "") and its calls.
fn probes(t: &Implication) -> Vec<Run> {
    let mut out = Vec::new();
    if let Some(p) = &t.probe {
        out.push((String::new(), p.clone(), t.inputs.clone()));
    }
    for c in &t.calls {
        out.push((c.prefix.clone(), c.probe.clone(), Some(c.inputs.clone())));
    }
    out
}

/// A run of a claim or a step of its lemma: (prefix, probe, its inputs).
type Run = (String, String, Option<Named>);

/// Checks that a lemma runs the one steps of the claim's runs, with the same prefixes:
/// `None` when it does, else the reason.
fn mismatch(claim: &Implication, lemma: &Implication) -> Option<String> {
    let (runs, steps) = (probes(claim), probes(lemma));
    if runs.len() != steps.len() {
        return Some(format!(
            "the lemma has {} probe(s), the claim {}",
            steps.len(),
            runs.len()
        ));
    }
    for ((rp, run, rin), (sp, st, _)) in runs.iter().zip(&steps) {
        let Some(want) = step_of(run) else {
            return Some(format!("probe {run} has no registered one step"));
        };
        if st != want || rp != sp {
            return Some(format!(
                "the lemma's probe `{sp}{st}` is not the one step `{rp}{want}` of `{run}`"
            ));
        }
        for (r, name, value) in ONLY_WITH {
            let given = rin.as_ref().and_then(|m| m.get(name));
            if run == r && given.is_some_and(|g| g != *value) {
                return Some(format!(
                    "{run} with {name} other than {value} is not the iteration of {want}"
                ));
            }
        }
    }
    None
}

/// How a run is made of its steps: the step's state inputs, their values after the step
/// and at the run's end, the outputs that decide what the run does at a state, and the
/// run's inputs that only bound it.
struct Shape {
    /// The step's state inputs (`x`, `y`; `v1`, …).
    state: Vec<String>,
    /// The corner steps name the next state `x1`, `y1`; the procedure's `next_v<i>`.
    corner: bool,
    /// Step outputs that decide the run at a state: equal at two states, both runs stop
    /// or go on alike there, and count a multiple impact alike.
    decides: Vec<String>,
    /// Relations on the step's outputs that say the next state has no multiple impact.
    no_multi_next: Vec<String>,
    /// Run inputs that only bound the run (a step limit): the same in every run.
    limits: &'static [&'static str],
    /// Run inputs of the stop test that a step lemma is stated without (the AEEV σ): the
    /// same in every run, kept where the step is evaluated at the run's start.
    thresholds: &'static [&'static str],
}

impl Shape {
    fn next(&self, s: &str) -> String {
        match self.corner {
            true => format!("{s}1"),
            false => format!("next_{s}"),
        }
    }
    fn last(&self, s: &str) -> String {
        match self.corner {
            true => format!("{s}f"),
            false => format!("vf{}", &s[1..]),
        }
    }
}

/// The largest `i` with an input `{prefix}{i}` or `{prefix}{i}_…` among `keys`.
fn largest_index<'a>(keys: impl Iterator<Item = &'a String>, prefix: &str) -> usize {
    keys.filter_map(|k| {
        let rest = k.strip_prefix(prefix)?;
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        let after = &rest[digits.len()..];
        (after.is_empty() || after.starts_with('_'))
            .then(|| digits.parse::<usize>().ok())
            .flatten()
    })
    .max()
    .unwrap_or(0)
}

/// The shape of a registered run whose step probe runs with inputs of `keys`.
fn shape(run: &str, keys: &[String]) -> Option<Shape> {
    let pairwise = |r: usize| -> Vec<String> {
        let mut out = Vec::new();
        for i in 1..=r {
            for j in i + 1..=r {
                out.push(format!("next_rate{i} > 0 => next_rate{j} <= 0"));
            }
        }
        out
    };
    let procedure = |n: usize, r: usize, limits| Shape {
        state: (1..=n).map(|i| format!("v{i}")).collect(),
        corner: false,
        decides: (1..=r).map(|i| format!("rate{i}")).collect(),
        no_multi_next: pairwise(r),
        limits,
        thresholds: &["sigma"],
    };
    match run {
        "corner.ta" | "corner.asym_run" => Some(Shape {
            state: vec!["x".into(), "y".into()],
            corner: true,
            decides: vec!["goes_on".into(), "multi".into()],
            no_multi_next: vec!["zone1 != 12".into()],
            limits: &["max_steps"],
            thresholds: &["S"],
        }),
        "cradle.run" => Some(procedure(3, 2, &["max_iter"])),
        "char.procedure" => Some(procedure(
            largest_index(keys.iter(), "v"),
            largest_index(keys.iter(), "n"),
            &["max_iter"],
        )),
        _ => None,
    }
}

/// The shape of a run of the claim with its step in the lemma (inputs of both).
fn shape_of(run: &Run, step: &Run) -> Result<Shape, String> {
    let mut keys = keys_of(&run.2);
    keys.extend(keys_of(&step.2));
    shape(&run.1, &keys).ok_or_else(|| format!("induction: {} has no shape", run.1))
}

/// An input of a probe as written, or the input's own name (a variable of the same name).
pub(crate) fn input_of(map: &Option<Named>, key: &str) -> String {
    map.as_ref()
        .and_then(|m| m.get(key))
        .map_or(key.to_string(), str::to_string)
}

fn keys_of(map: &Option<Named>) -> Vec<String> {
    map.iter()
        .flat_map(|m| m.pairs().iter().map(|(k, _)| k.clone()))
        .collect()
}

/// The variables of an expression or relation (none where it does not parse).
fn vars_of(src: &str) -> Vec<String> {
    let mut vs = Vec::new();
    if let Ok(r) = crate::lang::parse_relation(src) {
        r.vars(&mut vs);
    } else if let Ok(e) = crate::lang::parse_with_variables(src) {
        e.vars(&mut vs);
    }
    vs
}

/// `src` with each variable of `map` replaced (simultaneously) by its expression.
fn substitute(src: &str, map: &[(String, String)]) -> String {
    // through placeholders, so that a replacement is not replaced again
    let mut out = src.to_string();
    for (i, (v, _)) in map.iter().enumerate() {
        let hole = format!("zz_sub_{i}");
        out =
            super::statement::substitute_text(&out, v, &hole).replace(&format!("({hole})"), &hole);
    }
    for (i, (_, e)) in map.iter().enumerate() {
        out = super::statement::substitute_text(&out, &format!("zz_sub_{i}"), e);
    }
    out
}

/// Whether two expressions agree as rational functions (every name a variable).
fn same(a: &str, b: &str) -> bool {
    matches!(
        crate::lang::identical(a, b, &[]),
        Ok(crate::arith::symbolic::IdentityOutcome::Identical)
    )
}

/// Whether the relation `c` is the equation `fact` (`lhs == rhs`), up to the sides'
/// order and rearrangement as rational functions.
pub(crate) fn is_fact(c: &str, fact: &(String, String)) -> bool {
    let Ok(r) = crate::lang::parse_relation(c) else {
        return false;
    };
    let Some((at, end, _)) = c
        .find("==")
        .map(|at| (at, at + 2, ()))
        .filter(|_| r.guard.is_none() && r.rel == crate::lang::Rel::Eq)
    else {
        return false;
    };
    let d = format!("({}) - ({})", &c[..at], &c[end..]);
    let f = format!("({}) - ({})", fact.0, fact.1);
    same(&d, &f) || same(&d, &format!("-({f})"))
}

/// The names of a claim table that are not run outputs: its variables, derived
/// quantities and named expressions.
fn own_names(t: &Implication) -> Vec<String> {
    let mut names: Vec<String> = t.vars.keys().cloned().collect();
    names.extend(t.derive.pairs().iter().map(|(n, _)| n.clone()));
    // a named expression is the claim's own only where it uses only the claim's own
    // names (one that uses an output of the run is a quantity of the run)
    for (n, e) in t.exprs.pairs() {
        if vars_of(e).iter().all(|v| names.contains(v)) {
            names.push(n.clone());
        }
    }
    names
}

/// Every conclusion of a claim with where it stands (`""` or the case's name).
pub(crate) fn conclusions(t: &Implication) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = t
        .conclude
        .iter()
        .map(|c| (String::new(), c.clone()))
        .collect();
    for case in t.case.iter().flatten() {
        out.extend(case.conclude.iter().map(|c| (case.name.clone(), c.clone())));
    }
    out
}

pub(crate) fn where_(case: &str) -> String {
    match case {
        "" => String::new(),
        c => format!(" (case {c})"),
    }
}

/// A lemma built by the engine on the space of the claim's `step` table: its variables,
/// inputs, calls, domain and hypotheses, no cases (so every state is taken), and the
/// given conclusions only.
fn engine_lemma(
    claim: &Claim,
    step: &toml::Table,
    name: &str,
    conclude: &[String],
) -> Result<Claim, String> {
    let mut t = step.clone();
    t.remove("case");
    t.insert(
        "conclude".into(),
        toml::Value::Array(conclude.iter().map(|c| c.clone().into()).collect()),
    );
    claim.lemma(name, Kind::Implication, t)
}

/// What the checks of the step table give: the claim's probes and the step's, the run's
/// shape, and the state variables of the step lemma with the state input of the main
/// step that each one is.
struct Setup<'a> {
    /// The step lemma's table as written (the engine's lemma is built on it).
    step: &'a toml::Table,
    runs: Vec<Run>,
    steps: Vec<Run>,
    shape: Shape,
    /// (lemma variable, the main step's state input it is).
    state_vars: Vec<(String, String)>,
}

fn setup<'a>(
    claim: &'a Claim,
    c: &Implication,
    ind: &body::Induction,
) -> Result<Setup<'a>, String> {
    if claim.kind != Kind::Implication {
        return Err("induction: only for `implication` claims".into());
    }
    if ind.base.is_some() {
        return Err("induction: `base` is not used: the engine checks that the runs start in the step lemma's family of states, from the claim's own inputs".into());
    }
    let need = "induction: a `step` table (the lemma on one step) is needed";
    let step = ind.step.as_deref().ok_or(need)?;
    let step_table = claim
        .table()
        .get("induction")
        .and_then(|i| i.get("step"))
        .and_then(|s| s.as_table())
        .ok_or(need)?;
    for (key, given) in [
        ("conclude", !step.conclude.is_empty()),
        ("case", step.case.is_some()),
    ] {
        if given {
            return Err(format!("induction: step: `{key}` is not used: the engine builds the step lemma's conclusions from the run, over every state"));
        }
    }
    if let Some(m) = mismatch(c, step) {
        return Err(format!("induction: step: {m}"));
    }
    let (runs, steps) = (probes(c), probes(step));
    let run = runs
        .first()
        .ok_or("induction: the claim runs no probe")?
        .1
        .clone();
    if runs.iter().any(|r| r.1 != run) && !(run == "char.procedure" && runs.len() == 2) {
        return Err(
            "induction: the claim's runs must be of one kind (or char.procedure beside cradle.run)"
                .into(),
        );
    }
    let shape = shape_of(&runs[0], &steps[0])?;
    // the step computes what the run computes: the same law (the registered step) with
    // the same inputs, other than the state (a family of states, checked below) and the
    // run's own bounds and stop thresholds
    for (r, st) in runs.iter().zip(&steps) {
        let sh = shape_of(r, st)?;
        let mut keys = keys_of(&r.2);
        keys.extend(keys_of(&st.2));
        keys.sort();
        keys.dedup();
        for k in keys.iter().filter(|k| {
            !sh.state.contains(k)
                && !sh.limits.contains(&k.as_str())
                && !sh.thresholds.contains(&k.as_str())
        }) {
            let (a, b) = (input_of(&r.2, k), input_of(&st.2, k));
            if !same(&a, &b) {
                return Err(format!(
                    "induction: step: the lemma's `{}{}` takes {k} = {b} where the run `{}{}` takes {k} = {a}: the step lemma must compute what the run computes",
                    st.0, st.1, r.0, r.1
                ));
            }
        }
    }
    // the state variables: each is a state input of the main step, written as itself
    let mut state_vars: Vec<(String, String)> = Vec::new();
    for (r, st) in runs.iter().zip(&steps) {
        for s in &shape_of(r, st)?.state {
            for v in vars_of(&input_of(&st.2, s)) {
                if state_vars.iter().any(|(x, _)| *x == v) {
                    continue;
                }
                let own = shape
                    .state
                    .iter()
                    .find(|s0| input_of(&steps[0].2, s0).trim() == v)
                    .ok_or_else(|| format!("induction: the state variable {v} of the step lemma is not a state input of its main probe (write that input as {v})"))?;
                state_vars.push((v, own.clone()));
            }
        }
    }
    // the lemma takes every state: its state variables range over R, no hypothesis on them
    let domain = step.proof.as_ref().and_then(|p| p.domain.as_ref());
    for (v, _) in &state_vars {
        let d = domain.and_then(|d| d.get(v));
        if d.map(|d| d.trim()) != Some("R") {
            return Err(format!(
                "induction: the step lemma must take every state: its domain must give {v} = \"R\""
            ));
        }
    }
    let names: Vec<String> = state_vars.iter().map(|(v, _)| v.clone()).collect();
    for a in &step.assume {
        if vars_of(a).iter().any(|v| names.contains(v)) {
            return Err(format!("induction: the step lemma must take every state: its hypothesis `{a}` restricts the state"));
        }
    }
    // the lemma's parameters are the claim's: same domains, hypotheses among the claim's
    let claim_domain = c.proof.as_ref().and_then(|p| p.domain.as_ref());
    for (v, d) in domain.into_iter().flatten() {
        if names.contains(v) {
            continue;
        }
        if claim_domain.and_then(|c| c.get(v)) != Some(d) {
            return Err(format!(
                "induction: the step lemma's domain of {v} is not the claim's"
            ));
        }
    }
    for a in &step.assume {
        if !c.assume.contains(a) {
            return Err(format!(
                "induction: the step lemma's hypothesis `{a}` is not one of the claim's"
            ));
        }
    }
    for (n, e) in step.derive.pairs() {
        if !c.derive.pairs().contains(&(n.clone(), e.clone())) {
            return Err(format!(
                "induction: the step lemma derives {n} otherwise than the claim"
            ));
        }
    }
    Ok(Setup {
        step: step_table,
        runs,
        steps,
        shape,
        state_vars,
    })
}

/// A run fact `lhs == rhs` on the claim's run outputs.
pub(crate) type Fact = (String, String);

/// What a form of induction gives: the run facts, the step lemma's conclusions, and the
/// claim's conclusions at the run's start to prove (the instance and its rewritten
/// conclusions), where they are derived that way.
type Derivation = (Vec<Fact>, Vec<String>, Option<(Claim, Vec<String>)>);

/// Two or more runs in lockstep: the step lemma's inputs describe a family of related
/// states (one point per value of its state variables); the engine checks that the
/// claim's runs start in it (their inputs are the lemma's at the state variables' values
/// from the claim), and the lemma must show that one step from related states decides
/// alike and ends in related states (the state variables' next values being the main
/// run's next state). Then the runs have the same steps, multiple impacts and exit, and
/// their final states are related; a state variable named in `conserved` (the lemma
/// shows its next value is itself) keeps its value from the start.
fn lockstep(ind: &body::Induction, su: &Setup) -> Result<Derivation, String> {
    let sh = &su.shape;
    let conserved = &ind.conserved;
    for c in conserved {
        if !su.state_vars.iter().any(|(v, _)| v == c) {
            return Err(format!(
                "induction: `conserved` names {c}, which is not a state variable of the step lemma"
            ));
        }
    }
    let names: Vec<String> = su.state_vars.iter().map(|(v, _)| v.clone()).collect();
    let next: Vec<(String, String)> = su
        .state_vars
        .iter()
        .map(|(v, s)| (v.clone(), sh.next(s)))
        .collect();
    let start: Vec<(String, String)> = su
        .state_vars
        .iter()
        .map(|(v, s)| (v.clone(), input_of(&su.runs[0].2, s)))
        .collect();
    let last: Vec<(String, String)> = su
        .state_vars
        .iter()
        .map(|(v, s)| match conserved.contains(v) {
            true => (v.clone(), input_of(&su.runs[0].2, s)),
            false => (v.clone(), sh.last(s)),
        })
        .collect();
    let mut obligations = Vec::new();
    let mut facts = Vec::new();
    for (run, st) in su.runs.iter().zip(&su.steps) {
        let ((rp, _, rin), (sp, sname, sin)) = (run, st);
        let sh_j = shape_of(run, st)?;
        let mut keys = keys_of(rin);
        keys.extend(keys_of(sin));
        keys.extend(sh_j.state.iter().cloned());
        if sh_j.decides.len() != sh.decides.len() {
            return Err(format!(
                "induction: the run `{rp}` is decided by {} quantities, the main run by {}",
                sh_j.decides.len(),
                sh.decides.len()
            ));
        }
        // the runs start in the family: every input the claim's run gives is the lemma's
        // at the state variables' starting values
        keys.sort();
        keys.dedup();
        for k in keys.iter().filter(|k| {
            !sh_j.limits.contains(&k.as_str()) && !sh_j.thresholds.contains(&k.as_str())
        }) {
            let (given, family) = (input_of(rin, k), substitute(&input_of(sin, k), &start));
            if !same(&given, &family) {
                return Err(format!(
                    "induction: the run `{rp}` does not start in the step lemma's family: its input {k} = {given}, the lemma's {family}"
                ));
            }
            if !sh_j.state.contains(k)
                && vars_of(&input_of(sin, k)).iter().any(|v| names.contains(v))
            {
                return Err(format!(
                    "induction: the parameter {k} of `{sp}{sname}` depends on the state"
                ));
            }
        }
        if !sp.is_empty() {
            for (a, b) in sh_j.decides.iter().zip(&sh.decides) {
                obligations.push(format!("{sp}{a} == {b}"));
            }
            for out in ["steps", "multiple", "exit"] {
                facts.push((format!("{rp}{out}"), out.to_string()));
            }
        }
        for s in &sh_j.state {
            let family = input_of(sin, s);
            let at_next = substitute(&family, &next);
            if sp.is_empty() && family.trim() == s.as_str() {
                // the main run's own state variable: its next value is its next state
            } else {
                obligations.push(format!("{sp}{} == {at_next}", sh_j.next(s)));
            }
            facts.push((format!("{rp}{}", sh_j.last(s)), substitute(&family, &last)));
        }
    }
    for (v, s) in &su.state_vars {
        if conserved.contains(v) {
            obligations.push(format!("{} == {v}", sh.next(s)));
        }
    }
    Ok((facts, obligations, None))
}

/// One run: its number of multiple impacts. Either no step from a state that goes on
/// ends in a multiple impact (the count is the first step's), or none does from a state
/// that goes on without one, and the run's first state has none (the count is 0). The
/// claim's conclusions may use no other output of the run; they are then proved with
/// the count replaced, on the step at the run's start, over the claim's own space.
fn single_run(
    claim: &Claim,
    c: &Implication,
    su: &Setup,
    form: OneRun,
) -> Result<Derivation, String> {
    let sh = &su.shape;
    for (v, s) in &su.state_vars {
        if v != s {
            return Err(format!(
                "induction: one run: the step lemma's state input {s} must be written as itself (not {v})"
            ));
        }
    }
    for key in sh.limits {
        let given = input_of(&su.runs[0].2, key);
        if given != *key && !given.trim().parse::<u64>().is_ok_and(|n| n >= 1) {
            return Err(format!(
                "induction: the run's {key} must be a positive integer (its first step is taken)"
            ));
        }
    }
    let own = own_names(c);
    let all = conclusions(c);
    let bad: Vec<String> = all
        .iter()
        .filter(|(_, c)| {
            vars_of(c)
                .iter()
                .any(|v| v != "multiple" && !own.contains(v))
        })
        .map(|(case, c)| format!("`{c}`{}", where_(case)))
        .collect();
    if !bad.is_empty() {
        return Err(format!(
            "induction: for one run the engine derives only the number of multiple impacts (`multiple`); the conclusion(s) {} use other outputs of the run",
            bad.join(", ")
        ));
    }
    let first: Vec<String> = sh
        .no_multi_next
        .iter()
        .map(|r| format!("goes_on == 1 => {r}"))
        .collect();
    let kept: Vec<String> = sh
        .no_multi_next
        .iter()
        .map(|r| format!("goes_on - multi == 1 => {r}"))
        .collect();
    // the form: from every state that goes on, or only without a multiple impact (the
    // prover takes the first whose step lemma it proves; the checker the one recorded)
    let (lemma_conclusions, count, base) = match form {
        OneRun::FromAny => (first, "multi", None),
        OneRun::WithoutMultiple => (kept, "0", Some("multi == 0".to_string())),
    };
    // the instance: the claim's space, the step at the run's start in place of the run
    let mut t = claim.table().clone();
    t.remove("induction");
    t.insert("probe".into(), su.steps[0].1.clone().into());
    super::without_inputs(&mut t, sh.limits);
    if sh.corner {
        super::without_inputs(&mut t, sh.thresholds);
    }
    let mut rewritten = Vec::new();
    let mut rewrite = |x: &mut toml::Table| {
        if let Some(toml::Value::Array(cs)) = x.get_mut("conclude") {
            for c in cs.iter_mut() {
                if let Some(s) = c.as_str() {
                    let r = super::statement::substitute_text(s, "multiple", count);
                    rewritten.push(r.clone());
                    *c = r.into();
                }
            }
        }
    };
    rewrite(&mut t);
    if let Some(toml::Value::Array(cases)) = t.get_mut("case") {
        for case in cases.iter_mut().filter_map(|c| c.as_table_mut()) {
            rewrite(case);
        }
    }
    if let Some(b) = base {
        let mut cs = match t.remove("conclude") {
            Some(toml::Value::Array(cs)) => cs,
            _ => Vec::new(),
        };
        cs.push(b.clone().into());
        rewritten.push(b);
        t.insert("conclude".into(), toml::Value::Array(cs));
    }
    let inst = claim.lemma("at the run's start", claim.kind, t)?;
    Ok((Vec::new(), lemma_conclusions, Some((inst, rewritten))))
}

/// Which form of the one-run induction (see the module's doc): the step lemma from every
/// state that goes on, or from one that goes on without a multiple impact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OneRun {
    FromAny,
    WithoutMultiple,
}

/// What an induction states, derived from the claim file.
pub(crate) struct Induction {
    /// The `why` text (for the reader; nothing is derived from it).
    pub why: String,
    /// The claim's run probes, in order, each once.
    pub runs: Vec<String>,
    /// Whether the claim has one run (two forms) or runs in lockstep (one form).
    pub one_run: bool,
    /// The step lemma, built by the engine, to be proved at every state.
    pub lemma: Claim,
    pub lemma_conclusions: Vec<String>,
    /// The run facts (runs in lockstep), the claim's conclusions among them.
    pub facts: Vec<Fact>,
    /// One run: the claim's conclusions at the run's start, and their rewritten texts.
    pub instance: Option<(Claim, Vec<String>)>,
}

/// The induction of an `implication` with an `induction` table, in the given form (a
/// claim with runs in lockstep has one form; `form` is then not used).
pub(crate) fn derive(claim: &Claim, form: OneRun) -> Result<Induction, String> {
    let c = claim
        .body()
        .implication()
        .ok_or("induction: only for `implication` claims")?;
    let ind = c.induction.as_ref().ok_or("induction: must be a table")?;
    let why = ind
        .why
        .as_deref()
        .ok_or("induction: `why` must say what the step lemma keeps")?;
    let su = setup(claim, c, ind)?;
    // the runs' bounds and stop thresholds are the same in every run, and the step limits
    // are positive (a run with no step is not its first step)
    for key in su.shape.limits.iter().chain(su.shape.thresholds) {
        let first = input_of(&su.runs[0].2, key);
        for (p, _, m) in &su.runs[1..] {
            if input_of(m, key) != first {
                return Err(format!(
                    "induction: the run `{p}` has another {key} than the claim's main run"
                ));
            }
        }
    }
    let mut runs: Vec<String> = su.runs.iter().map(|r| r.1.clone()).collect();
    runs.dedup();
    let one_run = su.runs.len() == 1;
    let (facts, lemma_conclusions, instance) = match one_run {
        false => lockstep(ind, &su)?,
        true => single_run(claim, c, &su, form)?,
    };
    Ok(Induction {
        why: why.to_string(),
        runs,
        one_run,
        lemma: engine_lemma(claim, su.step, "step lemma", &lemma_conclusions)?,
        lemma_conclusions,
        facts,
        instance,
    })
}

/// The claim's conclusions that are not among the run facts (runs in lockstep), each
/// with where it stands.
pub(crate) fn not_facts(claim: &Claim, facts: &[Fact]) -> Vec<String> {
    conclusions(
        claim
            .body()
            .implication()
            .unwrap_or(&Implication::default()),
    )
    .into_iter()
    .filter(|(_, c)| !facts.iter().any(|f| is_fact(c, f)))
    .map(|(case, c)| format!("`{c}`{}", where_(&case)))
    .collect()
}

/// A run fact as written in a certificate (`lhs == rhs`).
pub(crate) fn fact_text(f: &Fact) -> String {
    format!("{} == {}", f.0, f.1)
}

/// The `method` of an induction's certificate.
pub const METHOD: &str = "induction over the steps of the run";
