//! A claim's statement as Coq propositions: one per case of an implication, or one for an
//! identity or an inequality. Built from the claim file alone (never from a certificate or
//! a verdict): the domain of `proof.domain` and the hypotheses as premises, the derived
//! quantities and the probes' outputs as `let`s, the conclusions as the goal. A
//! conclusion with a non-constant divisor is stated where the divisor is nonzero (the
//! input language leaves a quotient by zero undefined, Coq's division is total); an
//! identity's divisors are premises.

use super::laws;
use super::term::{self, name};
use crate::arith::symbolic::Symbolic;
use crate::claims::claim::body::{
    Body, Example, Identity, Implication, Inequality, Quantities, Ranges,
};
use crate::claims::claim::statement::{domain_and_cone, Range};
use crate::claims::claim::{Claim, Kind};
use crate::claims::exact::sampled::{self, Case};
use crate::lang::{self, NodeKind};
use num_rational::BigRational;

/// One proposition of a statement: its quantified variables in order and its text.
#[derive(Clone, Debug)]
pub(crate) struct Prop {
    pub(crate) label: String,
    /// The case's name in the claim file (`""` for the claim's only case or an unnamed
    /// one): the name its certificate's cells carry.
    pub(crate) case: String,
    pub(crate) vars: Vec<String>,
    /// Whether the proof walks the `let`s one by one (`laws::Outputs::chain`).
    pub(crate) chain: bool,
    pub(crate) text: String,
    /// An exact example's probe without a Coq law: `(probe, its outputs the statement
    /// uses)`. The outputs are the statement's parameters; only a refutation that holds
    /// whatever their values (so for the law's values too) can be checked.
    pub(crate) opaque: Option<(String, Vec<String>)>,
}

/// The statement of a claim: its propositions (their conjunction is the claim).
pub(crate) fn of(claim: &Claim) -> Result<Vec<Prop>, String> {
    match (claim.body(), claim.kind) {
        (Body::Implication(t), Kind::Implication) => implication(claim.body(), t),
        (Body::Agreement(_), _) => agreement(claim.body()),
        (Body::Identity(t), _) => identity(t).map(|p| vec![p]),
        (Body::Inequality(t), _) => inequality(t).map(|p| vec![p]),
        (Body::Example(t), _) => exact_example(t).map(|p| vec![p]),
        (_, k) => Err(format!("the kind {k} has no Coq statement yet")),
    }
}

/// Builds `forall vars, premises -> lets -> goal` line by line.
#[derive(Default)]
struct Builder {
    vars: Vec<String>,
    lines: Vec<String>,
    /// The names the `let`s define.
    defined: Vec<String>,
}

impl Builder {
    fn premise(&mut self, p: String) {
        let line = format!("  {p} ->");
        if !self.lines.contains(&line) {
            self.lines.push(line);
        }
    }
    fn def(&mut self, n: &str, body: String) {
        self.lines.push(format!("  let {} := {body} in", name(n)));
        self.defined.push(name(n));
    }
    /// Whether the statement gives `n` a meaning (a quantified variable or a `let`).
    fn knows(&self, n: &str) -> bool {
        self.defined.iter().any(|d| d == n) || self.vars.iter().any(|v| name(v) == n)
    }
    fn divisors_nonzero(&mut self, ds: &[String]) {
        for d in ds {
            self.premise(format!("{d} <> 0"));
        }
    }
    fn finish(self, label: String, case: &str, goal: &[String]) -> Prop {
        let head = match self.vars.is_empty() {
            true => String::new(),
            false => format!(
                "  forall {} : R,\n",
                self.vars
                    .iter()
                    .map(|v| name(v))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        };
        let goal = match goal.is_empty() {
            true => "True".to_string(),
            false => goal.join("\n  /\\ "),
        };
        Prop {
            label,
            case: case.to_string(),
            chain: false,
            opaque: None,
            vars: self.vars,
            text: format!("{head}{}\n  {goal}", self.lines.join("\n")),
        }
    }
}

/// The premise of a range, `lo < v <= hi`, or `None` for R.
fn range_premise(v: &str, r: &Range) -> Result<Option<String>, String> {
    let end = |e: &crate::arith::Symbolic| term::source(&e.render_string());
    Ok(match r {
        Range::Point(p) => Some(format!("{} = {}", name(v), end(p)?)),
        Range::Interval(None, None) => None,
        Range::Interval(lo, hi) => {
            let mut parts = Vec::new();
            if let Some((a, closed)) = lo {
                parts.push(format!("{} {}", end(a)?, if *closed { "<=" } else { "<" }));
            }
            parts.push(name(v));
            if let Some((b, closed)) = hi {
                parts.push(format!("{} {}", if *closed { "<=" } else { "<" }, end(b)?));
            }
            Some(parts.join(" "))
        }
        Range::Union(rs) => {
            let ps: Vec<String> = rs
                .iter()
                .map(|r| range_premise(v, r).map(|p| p.unwrap_or_else(|| "True".into())))
                .collect::<Result<_, _>>()?;
            Some(format!("({})", ps.join(" \\/ ")))
        }
    })
}

fn implication(body: &Body, t: &Implication) -> Result<Vec<Prop>, String> {
    // `corrected_conclude` is a candidate correction the engine samples: the claim's
    // statement is its `conclude`, which is what the Coq theorem states. A Gram reduction
    // (`proof.reduction`) is stated over its `proof.domain` (the dimension and masses it
    // is proved in): its extension to every dimension is `impactkit check`'s, not Coq's
    for (key, given) in [
        ("induction", t.induction.is_some()),
        ("termination", t.termination.is_some()),
    ] {
        if given {
            return Err(format!("`{key}` has no Coq statement yet"));
        }
    }
    per_case(body, |c, params, cone, label| {
        case_prop(t, c, params, cone, label)
    })
}

/// One proposition per case of `t` (`proof.domain` and the cases), by `prop`.
fn per_case(
    t: &Body,
    prop: impl Fn(&Case, &[(String, Range)], &[String], String) -> Result<Prop, String>,
) -> Result<Vec<Prop>, String> {
    let (params, cone) = match t.proof() {
        Some(spec) => domain_and_cone(spec)?,
        // without a proof table the claim speaks of its `vars` box (only a refutation is
        // decided there: the engine proves nothing without `proof.domain`)
        None => (vars_box(t.sampled()?.space.vars())?, Vec::new()),
    };
    let cases = sampled::cases(t)?;
    let n = cases.len();
    cases
        .iter()
        .enumerate()
        .map(|(i, c)| prop(c, &params, &cone, case_label(c, i, n)))
        .collect()
}

/// The closed ranges of `vars` (`name = [lo, hi]`), as a domain.
fn vars_box(vars: &Ranges) -> Result<Vec<(String, Range)>, String> {
    if vars.is_empty() {
        return Err(
            "no `proof.domain` and no `vars`: the claim states no domain to quantify over".into(),
        );
    }
    vars.iter()
        .map(|(v, (lo, hi))| {
            let end = |e: &str| -> Result<(Symbolic, bool), String> {
                let q = lang::rational(e).map_err(|x| format!("vars.{v}: {x}"))?;
                Ok((Symbolic::constant(&q), true))
            };
            Ok((v.clone(), Range::Interval(Some(end(lo)?), Some(end(hi)?))))
        })
        .collect()
}

/// A case's label in the Coq file: its name, else its number, or "the claim" if alone.
fn case_label(c: &Case, i: usize, n: usize) -> String {
    match (c.name.is_empty(), n) {
        (true, 1) => "the claim".to_string(),
        (true, _) => format!("case {}", i + 1),
        (false, _) => format!("case {}", c.name),
    }
}

fn pinned(c: &Case, v: &str) -> Option<BigRational> {
    c.space
        .vars
        .iter()
        .find(|(n, lo, hi)| n == v && lo == hi)
        .map(|(_, lo, _)| lo.clone())
}

/// The frame of a case: its variables, the domain's and the hypotheses' premises, the
/// pinned and derived quantities as `let`s.
fn case_frame(c: &Case, params: &[(String, Range)], cone: &[String]) -> Result<Builder, String> {
    let derived = |v: &str| c.space.derived.iter().any(|(d, _)| d == v);
    let mut b = Builder::default();
    let mut lets = Vec::new();
    for (v, r) in params {
        if pinned(c, v).is_some() {
            continue;
        }
        match r {
            Range::Point(p) => lets.push((v.clone(), term::source(&p.render_string())?)),
            _ => b.vars.push(v.clone()),
        }
    }
    for v in cone {
        if pinned(c, v).is_none() && !derived(v) {
            b.vars.push(v.clone());
        }
    }
    for (v, lo, hi) in &c.space.vars {
        if lo != hi && !b.vars.contains(v) && !derived(v) {
            return Err(format!("the variable {v} has no range in `proof.domain`"));
        }
    }
    for (v, r) in params {
        if pinned(c, v).is_none() {
            if let Some(p) = range_premise(v, r)? {
                if !matches!(r, Range::Point(_)) {
                    b.premise(p);
                }
            }
        }
    }
    for (v, q) in c
        .space
        .vars
        .iter()
        .filter_map(|(v, _, _)| pinned(c, v).map(|q| (v, q)))
    {
        b.def(v, term::number(&q));
    }
    for (v, e) in lets {
        b.def(&v, e);
    }
    for (v, e) in dependency_order(&c.space.derived) {
        let mut ds = Vec::new();
        term::divisors(e, &mut ds)?;
        b.divisors_nonzero(&ds);
        b.def(v, term::expr(e)?);
    }
    for a in &c.space.assume {
        let mut ds = Vec::new();
        term::relation_divisors(a, &mut ds)?;
        b.divisors_nonzero(&ds);
        b.premise(term::relation(a)?);
    }
    Ok(b)
}

/// The derived quantities in an order where each comes after the derived ones it uses (a
/// case's `derive` may give a name the claim's own `derive` uses): the given order where
/// it allows, a quantity deferred until what it uses is defined (a cycle keeps its order).
fn dependency_order(derived: &[(String, lang::Expr)]) -> Vec<&(String, lang::Expr)> {
    let uses = |e: &lang::Expr| {
        let mut v = Vec::new();
        e.vars(&mut v);
        v
    };
    let mut out: Vec<&(String, lang::Expr)> = Vec::new();
    let mut left: Vec<&(String, lang::Expr)> = derived.iter().collect();
    while !left.is_empty() {
        let ready = left.iter().position(|(_, e)| {
            uses(e)
                .iter()
                .all(|u| out.iter().any(|(d, _)| d == u) || !left.iter().any(|(d, _)| d == u))
        });
        out.push(left.remove(ready.unwrap_or(0)));
    }
    out
}

/// A side's quantities in order, as `(name, Coq term)`: the outputs of `probe` (as the
/// Coq law's), of `probe2` (named `p_*`), then `exprs`; and per expression (by its index
/// in `lets`), its divisors.
struct Side {
    lets: Vec<(String, String)>,
    divisors: Vec<(usize, Vec<String>)>,
    /// The laws' divisors: `(output, term)`, the term nonzero where the output is used
    /// (`""`: wherever the probe is).
    nonzero: Vec<(String, String)>,
    /// The laws' further conditions of definedness: `(output, proposition)`.
    premises: Vec<(String, String)>,
    /// `(output, let)`: the output exists where the `let` is 0.
    defined: Vec<(String, String)>,
    chain: bool,
}

impl Side {
    /// The premises that the laws are defined where the `let`s `used` need them.
    fn law_premises(&self, used: &[(String, String)]) -> Vec<String> {
        let wanted = |o: &String| o.is_empty() || used.iter().any(|(n, _)| n == o);
        let conditions = self.premises.iter().filter(|(o, _)| wanted(o));
        self.nonzero
            .iter()
            .filter(|(o, _)| wanted(o))
            .map(|(_, t)| format!("{t} <> 0"))
            .chain(conditions.map(|(_, c)| c.clone()))
            .collect()
    }
}

/// One run of a probe: its name, its `inputs` mapping and the prefix of its outputs.
type Run = (String, Vec<(String, String)>, String);

fn side_lets(t: &dyn Quantities, c: &Case) -> Result<Side, String> {
    let mut outputs = Vec::new();
    let mut nonzero = Vec::new();
    let mut premises = Vec::new();
    let mut defined = Vec::new();
    let mut chain = false;
    // the runs: `probe` (its outputs unprefixed), `probe2` (`p_*`), then each of `calls`
    // (`{prefix}*`), each on the claim's variables and derived quantities with its own
    // `inputs`, as the engine runs them
    let mut runs: Vec<Run> = Vec::new();
    for (probe, inputs, prefix) in [(t.probe(), t.inputs(), ""), (t.probe2(), t.inputs2(), "p_")] {
        if let Some(probe) = probe {
            runs.push((
                probe.to_string(),
                inputs.pairs().to_vec(),
                prefix.to_string(),
            ));
        }
    }
    for call in t.calls() {
        runs.push((
            call.probe.clone(),
            call.inputs.pairs().to_vec(),
            call.prefix.clone(),
        ));
    }
    for (probe, mapping, prefix) in &runs {
        let (probe, prefix) = (probe.as_str(), prefix.as_str());
        let arg = |n: &str| -> Result<String, String> {
            match mapping.iter().find(|(k, _)| k == n) {
                Some((_, e)) => term::source(e),
                None => Ok(name(n)),
            }
        };
        let zone = match mapping.iter().find(|(k, _)| k == "force_zone") {
            None => None,
            Some((_, e)) => Some(ground(c, e)?),
        };
        let has = |n: &str| {
            mapping.iter().any(|(k, _)| k == n)
                || c.space.vars.iter().any(|(v, _, _)| v == n)
                || c.space.derived.iter().any(|(v, _)| v == n)
        };
        let word = |n: &str| mapping.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        let o = laws::outputs(probe, &arg, &has, zone.as_ref(), &word, prefix)?;
        outputs.extend(o.lets);
        nonzero.extend(o.nonzero);
        premises.extend(o.premises);
        defined.extend(o.defined);
        chain |= o.chain;
    }
    let mut divisors = Vec::new();
    for (v, e) in t.exprs().pairs() {
        let x = lang::parse_with_variables(e).map_err(|x| format!("exprs.{v}: {x}"))?;
        let mut ds = Vec::new();
        term::divisors(&x, &mut ds)?;
        divisors.push((outputs.len(), ds));
        outputs.push((v.clone(), term::expr(&x)?));
    }
    Ok(Side {
        lets: outputs,
        divisors,
        nonzero,
        premises,
        defined,
        chain,
    })
}

/// The `let`s of `lets` that the names `used` need, with those they are computed from.
fn needed(lets: &[(String, String)], used: &[String]) -> Vec<(String, String)> {
    let mut keep = vec![false; lets.len()];
    for i in (0..lets.len()).rev() {
        let n = name(&lets[i].0);
        keep[i] =
            used.contains(&n) || (i + 1..lets.len()).any(|j| keep[j] && mentions(&lets[j].1, &n));
    }
    lets.iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(l, _)| l.clone())
        .collect()
}

/// `let a := .. in let b := .. in body`, with the `let`s `body` needs.
fn nested(lets: &[(String, String)], body: &str) -> String {
    let used: Vec<String> = body
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '\''))
        .map(str::to_string)
        .collect();
    needed(lets, &used)
        .iter()
        .rev()
        .fold(body.to_string(), |acc, (n, t)| {
            format!("let {} := {t} in {acc}", name(n))
        })
}

fn case_prop(
    t: &Implication,
    c: &Case,
    params: &[(String, Range)],
    cone: &[String],
    label: String,
) -> Result<Prop, String> {
    let mut b = case_frame(c, params, cone)?;
    let side = side_lets(t, c)?;
    let mut goal = Vec::new();
    for r in &c.conclude {
        goal.push(guarded(r)?);
    }
    // the outputs the conclusions use, with those they are computed from
    let mut used: Vec<String> = Vec::new();
    for r in &c.conclude {
        used.extend(relation_vars(r).iter().map(|n| name(n)));
    }
    // and that those outputs exist (each condition once)
    let mut exist: Vec<String> = Vec::new();
    for (o, l) in &side.defined {
        if used.contains(&name(o)) && !exist.contains(&name(l)) {
            exist.push(name(l));
        }
    }
    for l in exist {
        goal.push(format!("{l} = 0"));
        used.push(l);
    }
    let lets = needed(&side.lets, &used);
    if !side.lets.is_empty() || t.probe.is_some() {
        for p in side.law_premises(&lets) {
            b.premise(p);
        }
    }
    for (n, body) in lets {
        b.def(&n, body);
    }
    if let Some(v) = used.iter().find(|v| !b.knows(v)) {
        return Err(format!("`{v}` is not an output of the probe's Coq law yet"));
    }
    let mut p = b.finish(label, &c.name, &goal);
    p.chain = side.chain;
    Ok(p)
}

/// The variables of a relation and of its guards (`a => b => r` nests them).
fn relation_vars(r: &lang::Relation) -> Vec<String> {
    let mut v = Vec::new();
    let mut at = Some(r);
    while let Some(x) = at {
        x.lhs.vars(&mut v);
        x.rhs.vars(&mut v);
        at = x.guard.as_deref();
    }
    v
}

/// An agreement, per case: where every side is defined (its expressions' divisors
/// nonzero), each compared output of `left` equals that of `right` (and `also`). Each
/// side's quantities are `let`s inside its own term, so that a side sees only the inputs
/// and its own outputs, as in the claim's semantics.
fn agreement(t: &Body) -> Result<Vec<Prop>, String> {
    let (left, rights, compare, every) = sampled::agreement_sides(t)?;
    if every {
        return Err(
            "`every_side_defined` (a side's being defined) has no Coq statement yet".into(),
        );
    }
    per_case(t, |c, params, cone, label| {
        if !c.conclude.is_empty() {
            return Err("an agreement case with conclusions has no Coq statement yet".into());
        }
        let mut b = case_frame(c, params, cone)?;
        let mut sides = Vec::new();
        let mut goal = Vec::new();
        let mut chain = false;
        for (i, s) in std::iter::once(left)
            .chain(rights.iter().copied())
            .enumerate()
        {
            let mut side = side_lets(s, c)?;
            // a run (a chain of `let`s) is walked `let` by `let`: its `let`s are the
            // statement's own, renamed so that no other side sees them
            if side.chain {
                hoist(&mut b, &mut side, &format!("ik_s{i}_"));
                chain = true;
            }
            // its outputs exist (a run's outputs exist where their `let` is 0)
            for (_, l) in &side.defined {
                push_goal(&mut goal, scoped(&side.lets, &format!("{} = 0", name(l))));
            }
            side_defined(&mut b, &side);
            sides.push(side);
        }
        let names: Vec<String> = compare.iter().map(|v| name(v)).collect();
        for s in &sides {
            if let Some(v) = names
                .iter()
                .find(|v| !s.lets.iter().any(|(n, _)| name(n) == **v))
            {
                return Err(format!("output `{v}` missing on one side"));
            }
            for p in s.law_premises(&needed(&s.lets, &names)) {
                b.premise(p);
            }
        }
        for v in &names {
            let l = nested(&sides[0].lets, v);
            for s in &sides[1..] {
                goal.push(format!("({l}) = ({})", nested(&s.lets, v)));
            }
        }
        let mut p = b.finish(label, &c.name, &goal);
        p.chain = chain;
        Ok(p)
    })
}

/// A side's `let`s made the statement's own, in order, each renamed `{prefix}name` (in the
/// side's terms, its premises and its existence conditions too), so that the other sides,
/// which see only the inputs and their own quantities, cannot refer to them; the side
/// then reads its quantities by those names.
fn hoist(b: &mut Builder, side: &mut Side, prefix: &str) {
    let renamed: Vec<(String, String)> = side
        .lets
        .iter()
        .map(|(n, _)| (name(n), format!("{prefix}{}", name(n))))
        .collect();
    let re = |t: &str| term::rename(t, &renamed);
    for p in side.law_premises(&side.lets) {
        b.premise(re(&p));
    }
    for ((_, t), (_, to)) in side.lets.iter().zip(&renamed) {
        b.def(to, re(t));
    }
    side.nonzero.clear();
    side.premises.clear();
    for (_, ds) in side.divisors.iter_mut() {
        for d in ds.iter_mut() {
            *d = re(d);
        }
    }
    side.lets = renamed;
}

/// The premises that a side is defined: each of its expressions' divisors nonzero, in the
/// side's scope (`let`s) where it uses the side's quantities.
fn side_defined(b: &mut Builder, side: &Side) {
    for (j, ds) in &side.divisors {
        for d in ds {
            b.premise(scoped(&side.lets[..*j], &format!("{d} <> 0")));
        }
    }
}

/// `body` in the scope of the `let`s it needs (`nested`), in parentheses where it has
/// any, so that it stands as one premise or conjunct.
fn scoped(lets: &[(String, String)], body: &str) -> String {
    match nested(lets, body) {
        t if t.starts_with("let ") => format!("({t})"),
        t => t,
    }
}

/// Whether a Coq term mentions the identifier `n`.
fn mentions(t: &str, n: &str) -> bool {
    t.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '\''))
        .any(|w| w == n)
}

/// A conclusion with its non-constant divisors required nonzero: `d1 <> 0 -> d2 <> 0 ->
/// r` (where a divisor vanishes the conclusion is undefined, as in the input language,
/// and states nothing).
fn guarded(r: &lang::Relation) -> Result<String, String> {
    let mut ds = Vec::new();
    term::relation_divisors(r, &mut ds)?;
    let rel = term::relation(r)?;
    Ok(match ds.is_empty() {
        true => rel,
        false => format!(
            "({} -> {rel})",
            ds.iter()
                .map(|d| format!("{d} <> 0"))
                .collect::<Vec<_>>()
                .join(" -> ")
        ),
    })
}

/// A probe input that must be a number: a literal, or a variable the case pins.
fn ground(c: &Case, e: &str) -> Result<BigRational, String> {
    let ex = lang::parse_with_variables(e).map_err(|x| x.to_string())?;
    match &ex.root.kind {
        NodeKind::Var(v) => {
            pinned(c, v).ok_or(format!("force_zone = {e} is not fixed by the case"))
        }
        _ => lang::rational(e).map_err(|x| x.to_string()),
    }
}

/// `forall vars, (divisors nonzero) -> hypotheses -> lhs = rhs`, the substitutions as
/// `let`s (the last one outermost, as the textual substitution applies them in order).
fn identity(t: &Identity) -> Result<Prop, String> {
    let subs = t.substitute.pairs();
    let parse = |s: &str| lang::parse_with_variables(s).map_err(|e| format!("`{s}`: {e}"));
    let lhs = parse(&t.lhs)?;
    let rhs = parse(&t.rhs)?;
    let subs: Vec<(String, lang::Expr)> = subs
        .iter()
        .map(|(v, e)| parse(e).map(|x| (v.clone(), x)))
        .collect::<Result<_, _>>()?;
    // the free variables: those of the sides and the substitutions, less the substituted
    // ones bound outside their use
    let mut used = Vec::new();
    lhs.vars(&mut used);
    rhs.vars(&mut used);
    for (_, e) in &subs {
        e.vars(&mut used);
    }
    let mut vars: Vec<String> = Vec::new();
    // a variable is free if it is not substituted, or if it occurs in the body of a
    // substitution applied before its own (textual order): keep it simple, a substituted
    // name is bound
    for v in used {
        if !subs.iter().any(|(s, _)| s == &v) && !vars.contains(&v) {
            vars.push(v);
        }
    }
    let mut b = Builder {
        vars,
        ..Builder::default()
    };
    for (v, e) in subs.iter().rev() {
        let mut ds = Vec::new();
        term::divisors(e, &mut ds)?;
        b.divisors_nonzero(&ds);
        b.def(v, term::expr(e)?);
    }
    let space = crate::claims::exact::sample_points::Space::read(t)?;
    for a in &space.assume {
        let mut ds = Vec::new();
        term::relation_divisors(a, &mut ds)?;
        b.divisors_nonzero(&ds);
        b.premise(term::relation(a)?);
    }
    let mut ds = Vec::new();
    term::divisors(&lhs, &mut ds)?;
    term::divisors(&rhs, &mut ds)?;
    b.divisors_nonzero(&ds);
    let goal = format!("{} = {}", term::expr(&lhs)?, term::expr(&rhs)?);
    Ok(b.finish("the identity".into(), "", &[goal]))
}

/// `forall vars in the domain (or the box), hypotheses -> holds`.
fn inequality(t: &Inequality) -> Result<Prop, String> {
    // `subdomain` names the box of the interval fallback; with a `proof` table the
    // statement is over `proof.domain`, the claim's whole domain
    if t.subdomain.is_some() && t.proof.is_none() {
        return Err("a claim on a subdomain (`subdomain`)".into());
    }
    let space = crate::claims::exact::sample_points::Space::read(t)?;
    let holds = lang::parse_relation(&t.holds).map_err(|e| format!("holds: {e}"))?;
    let mut b = Builder::default();
    let params = match &t.proof {
        Some(spec) => domain_and_cone(spec)?.0,
        None => space
            .vars
            .iter()
            .map(|(v, lo, hi)| {
                let end = |q: &BigRational| crate::arith::Symbolic::constant(q);
                (
                    v.clone(),
                    Range::Interval(Some((end(lo), true)), Some((end(hi), true))),
                )
            })
            .collect(),
    };
    for (v, _) in &params {
        b.vars.push(v.clone());
    }
    for (v, r) in &params {
        if let Some(p) = range_premise(v, r)? {
            b.premise(p);
        }
    }
    for (v, e) in &space.derived {
        let mut ds = Vec::new();
        term::divisors(e, &mut ds)?;
        b.divisors_nonzero(&ds);
        b.def(v, term::expr(e)?);
    }
    for a in &space.assume {
        let mut ds = Vec::new();
        term::relation_divisors(a, &mut ds)?;
        b.divisors_nonzero(&ds);
        b.premise(term::relation(a)?);
    }
    Ok(b.finish("the inequality".into(), "", &[guarded(&holds)?]))
}

/// An exact example (`exact-example`), a proposition without variables: the numeric
/// inputs and the probe's outputs (as the Coq law's) at the given point and the `values`
/// as `let`s; the goal, in the order impactkit checks it: the laws and the `values`
/// defined there (their divisors nonzero: a conjunct, not a premise, so that an undefined
/// point cannot make the theorem vacuous), every `holds` relation, every `expect`ed output
/// equal to the paper's value, every `printed` one within half a unit of its last digit.
fn exact_example(t: &Example) -> Result<Prop, String> {
    if t.missing.is_some() {
        return Err(
            "an example on a declared model (`missing`): its verdict is inconclusive".into(),
        );
    }
    let inputs = t.inputs.pairs();
    let mut b = Builder::default();
    let mut goal: Vec<String> = Vec::new();
    let mut numeric = Vec::new();
    for (n, v) in inputs {
        if let Ok(q) = lang::rational(v) {
            b.def(n, term::number(&q));
            numeric.push(n.clone());
        }
    }
    // a probe without a Coq law: the outputs the statement uses become its parameters
    let mut opaque: Option<(String, Vec<String>)> = None;
    let mut chain = false;
    if let Some(probe) = t.probe.as_deref() {
        let arg = |n: &str| -> Result<String, String> {
            match numeric.iter().any(|k| k == n) {
                true => Ok(name(n)),
                false => Err(format!("the probe input `{n}` is not a number here")),
            }
        };
        let has = |n: &str| inputs.iter().any(|(k, _)| k == n);
        let zone = match inputs.iter().find(|(k, _)| k == "force_zone") {
            None => None,
            Some((_, e)) => Some(lang::rational(e).map_err(|x| x.to_string())?),
        };
        let word = |n: &str| inputs.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
        let o = match laws::outputs(probe, &arg, &has, zone.as_ref(), &word, "") {
            Err(e) if e.starts_with(laws::NO_LAW) => {
                opaque = Some((probe.to_string(), Vec::new()));
                laws::Outputs::default()
            }
            o => o?,
        };
        // a run's outputs exist where their `let` is 0: the example states that too
        for (_, l) in &o.defined {
            push_goal(&mut goal, format!("{} = 0", name(l)));
        }
        chain = o.chain && !o.defined.is_empty();
        for (n, body) in o.lets {
            b.def(&n, body);
        }
        for (_, d) in o.nonzero {
            push_goal(&mut goal, format!("{d} <> 0"));
        }
        for (_, c) in o.premises {
            push_goal(&mut goal, c);
        }
    }
    // a name nothing defines is an output of the probe: of its Coq law (an error: not
    // written yet), or a parameter where the probe has none
    let known = |b: &Builder, vs: &[String], opaque: &mut Option<(String, Vec<String>)>| {
        for v in vs.iter().filter(|v| !b.knows(&name(v))) {
            match opaque.as_mut() {
                Some((_, outs)) if !outs.contains(v) => outs.push(v.clone()),
                Some(_) => {}
                None => return Err(format!("`{v}` is not an output of the probe's Coq law yet")),
            }
        }
        Ok(())
    };
    // with opaque outputs: the `values` that depend on one, and whether some conjunct of
    // the goal does not (else no refutation can hold whatever they are)
    let mut tainted: Vec<String> = Vec::new();
    let mut free = false;
    let depends = |vs: &[String], tainted: &[String], opaque: &Option<(String, Vec<String>)>| {
        vs.iter()
            .any(|v| tainted.contains(v) || opaque.as_ref().is_some_and(|(_, o)| o.contains(v)))
    };
    for (n, e) in t.values.pairs() {
        let x = lang::parse_with_variables(e).map_err(|x| format!("values.{n}: {x}"))?;
        let mut vs = Vec::new();
        x.vars(&mut vs);
        known(&b, &vs, &mut opaque)?;
        if depends(&vs, &tainted, &opaque) {
            tainted.push(n.clone());
        }
        let mut ds = Vec::new();
        term::divisors(&x, &mut ds)?;
        for d in ds {
            push_goal(&mut goal, format!("{d} <> 0"));
        }
        b.def(n, term::expr(&x)?);
    }
    for h in &t.holds {
        let r = lang::parse_relation(h).map_err(|e| format!("holds: {e}"))?;
        let vs = relation_vars(&r);
        known(&b, &vs, &mut opaque)?;
        free |= !depends(&vs, &tainted, &opaque);
        let mut ds = Vec::new();
        term::relation_divisors(&r, &mut ds)?;
        for d in ds {
            push_goal(&mut goal, format!("{d} <> 0"));
        }
        goal.push(term::relation(&r)?);
    }
    for (n, stated) in t.expect.pairs() {
        let vs = std::slice::from_ref(n);
        known(&b, vs, &mut opaque)?;
        free |= !depends(vs, &tainted, &opaque);
        let q = lang::rational(stated).map_err(|e| format!("expect.{n}: {e}"))?;
        goal.push(format!("{} = {}", name(n), term::number(&q)));
    }
    for (n, stated) in t.printed.pairs() {
        let vs = std::slice::from_ref(n);
        known(&b, vs, &mut opaque)?;
        free |= !depends(vs, &tainted, &opaque);
        let (p, half) = crate::claims::exact::example::printed_half_unit(stated)?;
        goal.push(format!(
            "Rabs ({} - {}) <= {}",
            name(n),
            term::number(&p),
            term::number(&half)
        ));
    }
    if goal.is_empty() {
        return Err("an exact-example needs `expect`, `printed` or `holds`".into());
    }
    if let (Some((probe, _)), false) = (&opaque, free) {
        return Err(format!("{} {probe} yet", laws::NO_LAW));
    }
    let mut prop = b.finish("the example".into(), "", &goal);
    prop.opaque = opaque;
    prop.chain = chain;
    Ok(prop)
}

fn push_goal(goal: &mut Vec<String>, g: String) {
    if !goal.contains(&g) {
        goal.push(g);
    }
}
