//! `impactkit check`, the cover of a symbolic proof: the cells of a certificate chart
//! every point of the claim's domain (re-derived here, without the prover's charting).
//!
//! A cell is a chart: values of the claim's variables as rational functions of chart
//! variables, some of them positive (`t_…`, `c_…`), the others free reals. The checker
//! builds each node's chart and positive variables itself and checks:
//!
//! - **Parameter pieces** (the root cells): for each parameter in an order where every
//!   range's ends come before it, the pieces present under each choice of the earlier
//!   ones are exactly the canonical pieces of its range — `(a, b)`: (a + b·t)/(1 + t),
//!   `(a, inf)`: a + t, `(-inf, b)`: b − t, `R`: the free symbol, and each closed end —
//!   with t = `t_<name>` positive. The ranges are the claim's `proof.domain` (a variable
//!   the case fixes: that value).
//! - **Cone charts**: on a piece, the root cells take n linear forms ℓᵢ of the cone
//!   variables — hypotheses of the case or coordinates — whose determinant has a sign
//!   decided by the rules of [`super::check`]; every sign vector the hypotheses allow
//!   (`>`: +, `>=`: + and 0, `!=`: ±, a coordinate: +, 0, −) occurs once, and in each
//!   cell ℓᵢ evaluated at the cell's values is exactly sᵢ·cᵢ. A point of the piece with
//!   those signs is therefore in exactly one cell.
//! - **Splits** of a cell (or of a piece, before its cone): the children are the parent
//!   with one variable substituted, recomputed here; a free real f is split into
//!   −t_f, 0, t_f; a linear split on N = a·v + r (checked: N − a·v − r = 0, a of decided
//!   sign) solves v from N = s·c on each side s, or charts the side below a positive root
//!   v* as v*·c/(1 + c), or leaves out a side whose solution is decided ≤ 0 for a
//!   positive v; the children's positive variables follow.
//! - **Leaves**: every node is split, charted by a cone or a leaf, once; a proved cell's
//!   chart and positive variables are the node's; a cell outside the hypotheses has a
//!   hypothesis of the case whose `lhs - rhs`, evaluated here by the claim's own
//!   expressions on the node's chart, has a sign (by the rules) that makes it false.
//!
//! Counted, not re-derived: cells where the claim's quantities are undefined or the law
//! refuses (the verdict says so), outside cells decided by an agreement's condition on
//! a law output (its value as the engine wrote it, its sign re-derived), and the
//! statement of an engine-built lemma (its domain and cases are read from the recorded
//! source; for the claim's own proof, the source must be the claim).

use super::error::{reject, Rejection};
use super::rules::{holds, value_sign};
use crate::arith::{Scalar, Symbolic};
use crate::claims::certificate::strs;
use crate::claims::claim::body::Body;
use crate::claims::claim::statement::{domain_and_cone, Range};
use crate::claims::claim::Claim;
use crate::claims::exact::sampled::{self, Case};
use crate::lang::{self, Env};
use num_rational::BigRational;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// What the cover check counted.
#[derive(Debug, Default)]
pub struct Cover {
    pub roots: usize,
    pub splits: usize,
    pub outside: usize,
    /// Outside cells decided on a value the checker cannot evaluate (a law output).
    pub outside_engine: usize,
    /// Leaves where the claim's quantities are undefined or the law refuses.
    pub unproved_leaves: usize,
    /// Proofs of lemmas whose statement the checker derived from the claim file (an
    /// induction's step lemma and conclusions at the run's start).
    pub derived_lemmas: usize,
}

/// One node of the cover: the values of the claim's variables and the positive chart
/// variables.
#[derive(Clone, Debug)]
struct Node {
    chart: Env<Symbolic>,
    positive: BTreeSet<String>,
}

fn parse(text: &str) -> Result<Symbolic, Rejection> {
    lang::parse_symbolic(text).map_err(|e| reject!(Format, "{text}: {e}"))
}

fn chart_of(v: Option<&Value>) -> Result<Env<Symbolic>, Rejection> {
    let m = v
        .and_then(|c| c.as_object())
        .ok_or_else(|| reject!(Format, "a cell without its chart"))?;
    m.iter()
        .map(|(k, x)| {
            Ok((
                k.clone(),
                parse(
                    x.as_str()
                        .ok_or_else(|| reject!(Format, "a malformed chart"))?,
                )?,
            ))
        })
        .collect()
}

fn same_chart(a: &Env<Symbolic>, b: &Env<Symbolic>) -> bool {
    a.len() == b.len()
        && a.iter()
            .all(|(k, x)| b.get(k).is_some_and(|y| x.is_identical(y)))
}

fn text_of<'a>(v: &'a Value, key: &str) -> Result<&'a str, Rejection> {
    v.get(key)
        .and_then(|x| x.as_str())
        .ok_or_else(|| reject!(Format, "a record without `{key}`"))
}

fn is_zero(x: &Symbolic) -> bool {
    x.numerator().is_zero()
}

fn constant(n: i64) -> Symbolic {
    Symbolic::constant(&BigRational::from_integer(n.into()))
}

/// The canonical pieces of a range, its ends at the values `env` of the earlier
/// parameters: (value, the positive chart variable it introduces).
fn canonical_pieces(
    name: &str,
    r: &Range,
    env: &Env<Symbolic>,
) -> Result<Vec<(Symbolic, Option<String>)>, Rejection> {
    let at = |v: &Symbolic| -> Result<Symbolic, Rejection> {
        if let Some(x) = v.variables().into_iter().find(|x| !env.contains_key(x)) {
            return Err(reject!(
                Cover,
                "the range of {name} uses {x}, not a parameter before it"
            ));
        }
        env.iter()
            .try_fold(v.clone(), |acc, (n, x)| acc.substitute(n, x))
            .map_err(|e| reject!(Cover, "{e}"))
    };
    let t = format!("t_{name}");
    let tv = Symbolic::var(&t);
    Ok(match r {
        Range::Union(parts) => {
            let mut out = Vec::new();
            for p in parts {
                out.extend(canonical_pieces(name, p, env)?);
            }
            out
        }
        Range::Point(v) => vec![(at(v)?, None)],
        Range::Interval(None, None) => vec![(Symbolic::var(name), None)],
        Range::Interval(lo, hi) => {
            let inner = match (lo, hi) {
                (Some((a, _)), Some((b, _))) => at(a)?
                    .add_r(&at(b)?.mul_r(&tv))
                    .checked_div(&constant(1).add_r(&tv))
                    .map_err(|e| reject!(Cover, "{e}"))?,
                (Some((a, _)), None) => at(a)?.add_r(&tv),
                (None, Some((b, _))) => at(b)?.sub_r(&tv),
                (None, None) => unreachable!("matched above"),
            };
            let mut out = vec![(inner, Some(t))];
            for (v, closed) in [lo, hi].into_iter().flatten() {
                if *closed {
                    out.push((at(v)?, None));
                }
            }
            out
        }
    })
}

/// The statement a proof is of: its cases, and per case the parameter ranges and cone.
struct Statement {
    cases: Vec<Case>,
    ranges: BTreeMap<String, Range>,
    cone: Vec<String>,
}

fn statement(body: &Body) -> Result<Statement, Rejection> {
    let spec = body
        .proof()
        .ok_or_else(|| reject!(Cover, "the proof's source has no `proof` table"))?;
    // the claim's `proof.domain` and `cone` read as `verify` reads them
    let (params, cone) = domain_and_cone(spec).map_err(Rejection::Claim)?;
    let ranges: BTreeMap<String, Range> = params.into_iter().collect();
    Ok(Statement {
        cases: sampled::cases(body).map_err(Rejection::Claim)?,
        ranges,
        cone,
    })
}

/// The effective range of a parameter in a case (a variable the case fixes: its value).
fn case_range(st: &Statement, case: &Case, name: &str) -> Option<Range> {
    if let Some((_, lo, _)) = case
        .space
        .vars
        .iter()
        .find(|(n, lo, hi)| n == name && lo == hi)
    {
        return Some(Range::Point(Symbolic::constant(lo)));
    }
    st.ranges.get(name).cloned()
}

/// The cone variables a case charts (not fixed by the case, not derived).
fn case_cone(st: &Statement, case: &Case) -> Vec<String> {
    st.cone
        .iter()
        .filter(|c| {
            !case
                .space
                .vars
                .iter()
                .any(|(n, lo, hi)| n == *c && lo == hi)
                && !case.space.derived.iter().any(|(n, _)| n == *c)
        })
        .cloned()
        .collect()
}

/// The pieces of the parameters under each choice of the earlier ones are exactly the
/// canonical pieces; returns the piece nodes keyed by their text.
fn tile_params(
    roots: &[&Value],
    st: &Statement,
    case: &Case,
) -> Result<BTreeMap<String, Node>, Rejection> {
    let steps = |r: &Value| -> Result<Vec<(String, String, String)>, Rejection> {
        r.get("params")
            .and_then(|p| p.as_array())
            .ok_or_else(|| reject!(Format, "a root without its parameter pieces"))?
            .iter()
            .map(|s| {
                let f = |i: usize| s.get(i).and_then(|x| x.as_str()).map(str::to_string);
                match (f(0), f(1), f(2)) {
                    (Some(a), Some(b), Some(c)) => Ok((a, b, c)),
                    _ => Err(reject!(Format, "a malformed parameter piece")),
                }
            })
            .collect()
    };
    let all: Vec<Vec<(String, String, String)>> =
        roots.iter().map(|r| steps(r)).collect::<Result<_, _>>()?;
    let names: Vec<String> = all
        .first()
        .map_or(Vec::new(), |s| s.iter().map(|x| x.0.clone()).collect());
    // the parameters are those of the statement (the case's fixed variables as points)
    let mut want: BTreeSet<String> = st.ranges.keys().cloned().collect();
    want.extend(
        case.space
            .vars
            .iter()
            .filter(|(_, lo, hi)| lo == hi)
            .map(|(n, _, _)| n.clone()),
    );
    let have: BTreeSet<String> = names.iter().cloned().collect();
    if have != want || have.len() != names.len() {
        return Err(reject!(
            Cover,
            "the root cells chart the parameters {have:?}, not the domain's {want:?}"
        ));
    }
    let mut ranges = Vec::new();
    for n in &names {
        let r = case_range(st, case, n).ok_or_else(|| reject!(Cover, "{n} has no range"))?;
        ranges.push(r);
    }
    for s in &all {
        if s.iter().map(|x| &x.0).ne(names.iter())
            || s.iter().zip(&ranges).any(|(x, r)| x.1 != r.text())
        {
            return Err(reject!(
                Cover,
                "a root charts the parameters in another order or range"
            ));
        }
    }
    let mut nodes = BTreeMap::new();
    let idx: Vec<usize> = (0..all.len()).collect();
    tile_level(
        &all,
        roots,
        &names,
        &ranges,
        &idx,
        0,
        &Node {
            chart: Env::new(),
            positive: BTreeSet::new(),
        },
        &mut nodes,
    )?;
    Ok(nodes)
}

#[allow(clippy::too_many_arguments)]
fn tile_level(
    all: &[Vec<(String, String, String)>],
    roots: &[&Value],
    names: &[String],
    ranges: &[Range],
    idx: &[usize],
    depth: usize,
    prefix: &Node,
    nodes: &mut BTreeMap<String, Node>,
) -> Result<(), Rejection> {
    if depth == names.len() {
        let key: BTreeSet<&str> = idx
            .iter()
            .map(|&i| text_of(roots[i], "params piece"))
            .collect::<Result<_, _>>()?;
        if key.len() != 1 {
            return Err(reject!(
                Cover,
                "roots of one parameter piece name different pieces"
            ));
        }
        let k = key.into_iter().next().unwrap_or_default().to_string();
        if nodes.insert(k.clone(), prefix.clone()).is_some() {
            return Err(reject!(Cover, "the piece {k} is charted twice"));
        }
        return Ok(());
    }
    let name = &names[depth];
    let canon = canonical_pieces(name, &ranges[depth], &prefix.chart)?;
    let mut groups: Vec<(Symbolic, Vec<usize>)> = Vec::new();
    for &i in idx {
        let v = parse(&all[i][depth].2)?;
        match groups.iter_mut().find(|(g, _)| g.is_identical(&v)) {
            Some((_, m)) => m.push(i),
            None => groups.push((v, vec![i])),
        }
    }
    if groups.len() != canon.len() {
        return Err(reject!(
            Cover,
            "{name}: {} pieces where its range has {}",
            groups.len(),
            canon.len()
        ));
    }
    for (v, members) in &groups {
        let Some((_, chart_var)) = canon.iter().find(|(c, _)| c.is_identical(v)) else {
            return Err(reject!(
                Cover,
                "{name} = {} is not a piece of its range",
                v.render_string()
            ));
        };
        let mut next = prefix.clone();
        next.chart.insert(name.clone(), v.clone());
        if let Some(t) = chart_var {
            if !next.positive.insert(t.clone()) {
                return Err(reject!(Cover, "the chart variable {t} is used twice"));
            }
        }
        tile_level(all, roots, names, ranges, members, depth + 1, &next, nodes)?;
    }
    Ok(())
}

/// The variables a node's values use.
fn chart_variables(n: &Node) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = n.chart.values().flat_map(|v| v.variables()).collect();
    out.extend(n.positive.iter().cloned());
    out
}

fn substituted(n: &Node, var: &str, by: &Symbolic) -> Option<Env<Symbolic>> {
    n.chart
        .iter()
        .map(|(k, x)| x.substitute(var, by).ok().map(|x| (k.clone(), x)))
        .collect()
}

/// The children of one split, re-derived from the parent.
fn check_split(split: &Value, parent: &Node) -> Result<Vec<(String, Node)>, Rejection> {
    let pieces = split
        .get("pieces")
        .and_then(|p| p.as_array())
        .ok_or_else(|| reject!(Format, "a split without its pieces"))?;
    let vars = chart_variables(parent);
    let mut out = Vec::new();
    let child = |p: &Value,
                 var: &str,
                 by: &Symbolic,
                 fresh: Option<&str>|
     -> Result<(String, Node), Rejection> {
        let chart = chart_of(p.get("chart"))?;
        let want = substituted(parent, var, by)
            .ok_or_else(|| reject!(Cover, "a piece undefined on its parent"))?;
        if !same_chart(&chart, &want) {
            return Err(reject!(
                Cover,
                "the piece {var} = {} does not give its chart",
                by.render_string()
            ));
        }
        let mut positive = parent.positive.clone();
        positive.remove(var);
        if let Some(f) = fresh {
            if vars.contains(f) {
                return Err(reject!(Cover, "the chart variable {f} is not new"));
            }
            positive.insert(f.to_string());
        }
        Ok((text_of(p, "cell")?.to_string(), Node { chart, positive }))
    };
    let kind = pieces
        .first()
        .and_then(|p| p.get("kind"))
        .and_then(|k| k.as_str())
        .unwrap_or("");
    match kind {
        "free" => {
            let f = text_of(&pieces[0], "var")?;
            if parent.positive.contains(f) || !vars.contains(f) {
                return Err(reject!(Cover, "{f} is not a free variable of the cell"));
            }
            let t = format!("t_{f}");
            let want = [-Symbolic::var(&t), constant(0), Symbolic::var(&t)];
            for w in &want {
                let p = pieces.iter().find(|p| {
                    p.get("by")
                        .and_then(|b| b.as_str())
                        .and_then(|b| parse(b).ok())
                        .is_some_and(|b| b.is_identical(w))
                });
                match p {
                    Some(p) => {
                        let fresh = (!is_zero(w)).then_some(t.as_str());
                        out.push(child(p, f, w, fresh)?);
                    }
                    // a piece left out must have no point: the parent is undefined there
                    None if substituted(parent, f, w).is_none() => {}
                    None => {
                        return Err(reject!(
                            Cover,
                            "the split of {f} leaves out {f} = {}",
                            w.render_string()
                        ))
                    }
                }
            }
            if out.len() != pieces.len() {
                return Err(reject!(Cover, "a split with pieces of another kind"));
            }
        }
        "linear" => {
            let dropped = split
                .get("dropped")
                .and_then(|d| d.as_array())
                .cloned()
                .unwrap_or_default();
            // one N for every side: the sides of its sign tile the parent
            let ns: BTreeSet<&str> = pieces
                .iter()
                .chain(&dropped)
                .filter_map(|p| p.get("n")?.as_str())
                .collect();
            if ns.len() != 1 {
                return Err(reject!(
                    Cover,
                    "a linear split whose sides split on different values"
                ));
            }
            for s in [1i64, 0, -1] {
                let side = |p: &&Value| p.get("side").and_then(|x| x.as_i64()) == Some(s);
                if let Some(p) = pieces.iter().find(side) {
                    let (v, by, fresh) = linear_side(p, parent, &vars, s, false)?;
                    out.push(child(p, &v, &by, fresh.as_deref())?);
                } else if let Some(d) = dropped.iter().find(side) {
                    linear_side(d, parent, &vars, s, true)?;
                } else {
                    return Err(reject!(
                        Cover,
                        "a linear split leaves out a side without a reason"
                    ));
                }
            }
            if out.len() != pieces.len() {
                return Err(reject!(Cover, "a split with two pieces on one side"));
            }
        }
        k => return Err(reject!(Format, "a split of unknown kind `{k}`")),
    }
    Ok(out)
}

/// One side s of a linear split on N = a·v + r: the substituted value and the new positive
/// variable (or, for a side left out, its solution decided ≤ 0 for a positive v).
fn linear_side(
    p: &Value,
    parent: &Node,
    vars: &BTreeSet<String>,
    s: i64,
    dropped: bool,
) -> Result<(String, Symbolic, Option<String>), Rejection> {
    let v = text_of(p, "var")?.to_string();
    let (n, a, r) = (
        parse(text_of(p, "n")?)?,
        parse(text_of(p, "a")?)?,
        parse(text_of(p, "r")?)?,
    );
    let fresh = text_of(p, "fresh")?.to_string();
    let bad = |why: &str| {
        Err(reject!(
            Cover,
            "the linear split on {}: {why}",
            n.render_string()
        ))
    };
    if !vars.contains(&v) || a.variables().contains(&v) || r.variables().contains(&v) {
        return bad("not linear in a chart variable");
    }
    if n.variables().iter().any(|x| !vars.contains(x)) {
        return bad("N uses a variable outside the cell's chart");
    }
    if !is_zero(&n.sub_r(&a.mul_r(&Symbolic::var(&v)).add_r(&r))) {
        return bad("N is not a·v + r");
    }
    let positive: Vec<String> = parent.positive.iter().cloned().collect();
    let a_sign = value_sign(&a.render_string(), &positive)?;
    if !matches!(a_sign, Some(1 | -1)) {
        return bad("the sign of a is not decided");
    }
    if vars.contains(&fresh) {
        return bad("its chart variable is not new");
    }
    let mut new_pos: Vec<String> = positive.iter().filter(|x| **x != v).cloned().collect();
    if s != 0 {
        new_pos.push(fresh.clone());
    }
    let sc = Symbolic::var(&fresh).mul_r(&constant(s));
    let sol = sc
        .sub_r(&r)
        .checked_div(&a)
        .map_err(|e| reject!(Cover, "{e}"))?;
    let v_positive = parent.positive.contains(&v);
    if dropped {
        let sg = value_sign(&sol.render_string(), &new_pos)?;
        return match (v_positive, sg) {
            (true, Some(-1 | 0)) => Ok((v, sol, None)),
            _ => bad("a side left out may have points"),
        };
    }
    let by = parse(text_of(p, "by")?)?;
    if p.get("bounded").and_then(|b| b.as_bool()) == Some(true) {
        // below the root v* = −r/a: v = v*·c/(1 + c), exactly (0, v*)
        let root = (-r.clone())
            .checked_div(&a)
            .map_err(|e| reject!(Cover, "{e}"))?;
        let c = Symbolic::var(&fresh);
        let want = root
            .mul_r(&c)
            .checked_div(&constant(1).add_r(&c))
            .map_err(|e| reject!(Cover, "{e}"))?;
        let below = matches!((a_sign, s), (Some(1), -1) | (Some(-1), 1));
        let root_pos = value_sign(&root.render_string(), &new_pos)? == Some(1);
        if !v_positive || !below || !root_pos || !by.is_identical(&want) {
            return bad("a bounded side that is not (0, v*)");
        }
    } else {
        if !by.is_identical(&sol) {
            return bad("a side not solved from N = s·c");
        }
        if v_positive && value_sign(&sol.render_string(), &new_pos)? != Some(1) {
            return bad("the solved value of a positive variable is not decided positive");
        }
    }
    Ok((v, by, (s != 0).then_some(fresh)))
}

/// `lhs - rhs` of a relation at a node's values, the case's derived variables included.
fn relation_value(rel: &lang::Relation, case: &Case, chart: &Env<Symbolic>) -> Option<Symbolic> {
    let mut env = chart.clone();
    case.space.derive(&mut env).ok()?;
    let l = rel.lhs.eval_in(&env, &()).ok()?;
    let r = rel.rhs.eval_in(&env, &()).ok()?;
    Some(l.sub_r(&r))
}

/// The determinant by cofactors: the checker's own (the prover's charts use theirs; a
/// shared one would let one mistake pass both).
fn det(m: &[Vec<Symbolic>]) -> Symbolic {
    if m.is_empty() {
        return constant(1);
    }
    (0..m.len()).fold(constant(0), |acc, j| {
        let minor: Vec<Vec<Symbolic>> = m[1..]
            .iter()
            .map(|row| {
                row.iter()
                    .enumerate()
                    .filter(|(c, _)| *c != j)
                    .map(|(_, x)| x.clone())
                    .collect()
            })
            .collect();
        let term = m[0][j].mul_r(&det(&minor));
        if j % 2 == 0 {
            acc.add_r(&term)
        } else {
            acc.sub_r(&term)
        }
    })
}

/// The cone cells of one piece: the forms, their determinant, every allowed sign vector
/// once, and ℓᵢ = sᵢ·cᵢ in each cell.
fn check_cone(
    piece: &Node,
    roots: &[&Value],
    case: &Case,
    cone: &[String],
) -> Result<Vec<(String, Node)>, Rejection> {
    let first = roots[0];
    if first.get("cone").is_none_or(Value::is_null) {
        if cone.is_empty()
            && roots.len() == 1
            && same_chart(&chart_of(first.get("chart"))?, &piece.chart)
        {
            return Ok(vec![(text_of(first, "cell")?.to_string(), piece.clone())]);
        }
        return Err(reject!(
            Cover,
            "a piece without cone cells where the case has cone variables"
        ));
    }
    let rec = &first["cone"];
    if strs(rec.get("vars")) != cone {
        return Err(reject!(
            Cover,
            "the cone cells chart {:?}, not the case's {cone:?}",
            strs(rec.get("vars"))
        ));
    }
    let forms = rec
        .get("forms")
        .and_then(|f| f.as_array())
        .ok_or_else(|| reject!(Format, "cone cells without forms"))?;
    if forms.len() != cone.len()
        || roots
            .iter()
            .any(|r| r["cone"].get("forms") != rec.get("forms"))
    {
        return Err(reject!(
            Cover,
            "the cone cells of a piece take different forms"
        ));
    }
    // each form's coefficient row and allowed signs
    let mut sym = piece.chart.clone();
    for c in cone {
        sym.insert(c.clone(), Symbolic::var(c));
    }
    let mut rows = Vec::new();
    let mut allowed: Vec<Vec<&str>> = Vec::new();
    // each form: a hypothesis, or the coordinate of a cone variable
    let mut rels: Vec<Result<lang::Relation, usize>> = Vec::new();
    for f in forms {
        let text = text_of(f, "form")?;
        match f.get("relation").and_then(|r| r.as_str()) {
            None => {
                let j = cone
                    .iter()
                    .position(|c| text == format!("{c} free"))
                    .ok_or_else(|| reject!(Cover, "a completing form that is not a coordinate"))?;
                rows.push(
                    (0..cone.len())
                        .map(|k| constant(i64::from(k == j)))
                        .collect::<Vec<_>>(),
                );
                allowed.push(vec!["+", "0", "-"]);
                rels.push(Err(j));
            }
            Some(rel) => {
                let h = case
                    .space
                    .assume
                    .iter()
                    .find(|a| a.text == text && a.rel.symbol() == rel && a.guard.is_none())
                    .ok_or_else(|| {
                        reject!(Cover, "the form `{text}` is not a hypothesis of the case")
                    })?;
                let l = relation_value(h, case, &sym)
                    .ok_or_else(|| reject!(Cover, "`{text}` does not evaluate on the piece"))?;
                let unit = |j: usize| -> Option<Symbolic> {
                    cone.iter().enumerate().try_fold(l.clone(), |acc, (k, c)| {
                        acc.substitute(c, &constant(i64::from(k == j))).ok()
                    })
                };
                let row: Vec<Symbolic> = (0..cone.len())
                    .map(unit)
                    .collect::<Option<_>>()
                    .ok_or_else(|| reject!(Cover, "a form undefined at a unit vector"))?;
                let linear = row.iter().zip(cone).fold(constant(0), |acc, (a, c)| {
                    acc.add_r(&a.mul_r(&Symbolic::var(c)))
                });
                if !is_zero(&l.sub_r(&linear)) {
                    return Err(reject!(
                        Cover,
                        "the form `{text}` is not linear in the cone"
                    ));
                }
                use lang::Rel::*;
                allowed.push(match h.rel {
                    Gt => vec!["+"],
                    Ge => vec!["+", "0"],
                    Lt => vec!["-"],
                    Le => vec!["-", "0"],
                    Eq => vec!["0"],
                    Ne => vec!["+", "-"],
                });
                rows.push(row);
                rels.push(Ok(h.clone()));
            }
        }
    }
    let positive: Vec<String> = piece.positive.iter().cloned().collect();
    if !matches!(
        value_sign(&det(&rows).render_string(), &positive)?,
        Some(1 | -1)
    ) {
        return Err(reject!(
            Cover,
            "the sign of the cone forms' determinant is not decided"
        ));
    }
    let used = chart_variables(piece);
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for r in roots {
        let signs = strs(r["cone"].get("signs"));
        if signs.len() != forms.len()
            || signs
                .iter()
                .zip(&allowed)
                .any(|(s, a)| !a.contains(&s.as_str()))
            || !seen.insert(signs.clone())
        {
            return Err(reject!(
                Cover,
                "a cone cell with a sign vector not allowed, or twice"
            ));
        }
        let chart = chart_of(r.get("chart"))?;
        let mut node = Node {
            chart: chart.clone(),
            positive: piece.positive.clone(),
        };
        for (k, v) in &piece.chart {
            if !chart.get(k).is_some_and(|x| x.is_identical(v)) {
                return Err(reject!(Cover, "a cone cell changes its piece's parameters"));
            }
        }
        if chart.len() != piece.chart.len() + cone.len()
            || cone.iter().any(|c| !chart.contains_key(c))
        {
            return Err(reject!(Cover, "a cone cell with other variables"));
        }
        for (i, (s, rel)) in signs.iter().zip(&rels).enumerate() {
            let c = format!("c_{}", i + 1);
            if used.contains(&c) {
                return Err(reject!(Cover, "the chart variable {c} is not new"));
            }
            let want = match s.as_str() {
                "+" => Symbolic::var(&c),
                "-" => -Symbolic::var(&c),
                _ => constant(0),
            };
            let got = match rel {
                Ok(h) => relation_value(h, case, &chart)
                    .ok_or_else(|| reject!(Cover, "a form undefined on its cell"))?,
                Err(j) => chart[&cone[*j]].clone(),
            };
            if !is_zero(&got.sub_r(&want)) {
                return Err(reject!(
                    Cover,
                    "in the cone cell {}, form {} is {}, not {}",
                    text_of(r, "cell")?,
                    i + 1,
                    got.render_string(),
                    want.render_string()
                ));
            }
            if s != "0" {
                node.positive.insert(c);
            }
        }
        out.push((text_of(r, "cell")?.to_string(), node));
    }
    let total: usize = allowed.iter().map(Vec::len).product();
    if seen.len() != total {
        return Err(reject!(
            Cover,
            "{} cone cells where the forms allow {total}",
            seen.len()
        ));
    }
    Ok(out)
}

/// The cover of one symbolic proof: every point of the statement's domain is in a leaf.
pub(super) fn check_cover(proof: &Value, claim: &Claim, out: &mut Cover) -> Result<(), Rejection> {
    let source: toml::Table = toml::from_str(text_of(proof, "source")?)
        .map_err(|e| reject!(Format, "the proof's source: {e}"))?;
    if *claim.table() != source {
        return Err(reject!(
            Statement,
            "the proof is of another statement than the claim"
        ));
    }
    let st = statement(claim.body())?;
    let roots = proof
        .get("roots")
        .and_then(|r| r.as_array())
        .ok_or_else(|| reject!(Format, "no record of the root cells"))?;
    let splits = proof
        .get("splits")
        .and_then(|r| r.as_array())
        .ok_or_else(|| reject!(Format, "no record of the splits"))?;
    let key = |v: &Value, k: &str| -> Result<(String, String), Rejection> {
        Ok((text_of(v, "case")?.to_string(), text_of(v, k)?.to_string()))
    };
    // pieces of the parameters, per case
    let mut pieces: BTreeMap<(String, String), Node> = BTreeMap::new();
    for case in &st.cases {
        let rs: Vec<&Value> = roots
            .iter()
            .filter(|r| r.get("case").and_then(|c| c.as_str()) == Some(case.name.as_str()))
            .collect();
        if rs.is_empty() {
            return Err(reject!(Cover, "the case `{}` has no cells", case.name));
        }
        for (k, n) in tile_params(&rs, &st, case)? {
            pieces.insert((case.name.clone(), k), n);
        }
    }
    if roots.iter().any(|r| {
        !st.cases
            .iter()
            .any(|c| r.get("case").and_then(|x| x.as_str()) == Some(c.name.as_str()))
    }) {
        return Err(reject!(Cover, "a root cell of no case"));
    }
    let mut consumed: BTreeSet<(String, String)> = BTreeSet::new();
    // splits of pieces (before their cone), then the cone cells of every piece
    let mut rest = Vec::new();
    for s in splits {
        let k = key(s, "parent")?;
        let before = s.get("before the cone").and_then(|b| b.as_bool()) == Some(true);
        match pieces.get(&k).filter(|_| before) {
            Some(p) => {
                if !consumed.insert(k.clone()) {
                    return Err(reject!(Cover, "the piece {} is split twice", k.1));
                }
                for (c, n) in check_split(s, p)? {
                    pieces.insert((k.0.clone(), c), n);
                }
                out.splits += 1;
            }
            None => rest.push(s),
        }
    }
    let mut cells: BTreeMap<(String, String), Node> = BTreeMap::new();
    let mut by_piece: BTreeMap<(String, String), Vec<&Value>> = BTreeMap::new();
    for r in roots {
        let piece = r
            .get("piece")
            .or_else(|| r.get("params piece"))
            .and_then(|p| p.as_str())
            .ok_or_else(|| reject!(Cover, "a root without its piece"))?;
        by_piece
            .entry((text_of(r, "case")?.to_string(), piece.to_string()))
            .or_default()
            .push(r);
    }
    for (k, rs) in &by_piece {
        let p = pieces
            .get(k)
            .ok_or_else(|| reject!(Cover, "the cells of an unknown piece {}", k.1))?;
        if !consumed.insert(k.clone()) {
            return Err(reject!(
                Cover,
                "the piece {} is both split and charted",
                k.1
            ));
        }
        let case = st
            .cases
            .iter()
            .find(|c| c.name == k.0)
            .ok_or_else(|| reject!(Cover, "a cell of no case"))?;
        for (c, n) in check_cone(p, rs, case, &case_cone(&st, case))? {
            if cells.insert((k.0.clone(), c.clone()), n).is_some() {
                return Err(reject!(Cover, "the cell {c} is made twice"));
            }
            out.roots += 1;
        }
    }
    if let Some(k) = pieces.keys().find(|k| !consumed.contains(*k)) {
        return Err(reject!(
            Cover,
            "the piece {} is neither split nor charted",
            k.1
        ));
    }
    // the cells: a cell and its piece may share a text (no cone)
    let mut consumed: BTreeSet<(String, String)> = BTreeSet::new();
    for s in rest {
        let k = key(s, "parent")?;
        let p = cells
            .get(&k)
            .ok_or_else(|| reject!(Cover, "a split of an unknown cell {}", k.1))?
            .clone();
        if !consumed.insert(k.clone()) {
            return Err(reject!(Cover, "the cell {} is split twice", k.1));
        }
        for (c, n) in check_split(s, &p)? {
            if cells.insert((k.0.clone(), c.clone()), n).is_some() {
                return Err(reject!(Cover, "the cell {c} is made twice"));
            }
        }
        out.splits += 1;
    }
    // the leaves: proved cells and other cells, each a node not split, once
    let mut leaf = |c: &Value| -> Result<(String, String, Node), Rejection> {
        let k = key(c, "cell")?;
        let n = cells
            .get(&k)
            .ok_or_else(|| reject!(Cover, "the cell {} is not made by the charts", k.1))?;
        if !consumed.insert(k.clone()) {
            return Err(reject!(
                Cover,
                "the cell {} is a leaf twice, or split and a leaf",
                k.1
            ));
        }
        Ok((k.0, k.1, n.clone()))
    };
    for c in proof
        .get("cells")
        .and_then(|c| c.as_array())
        .into_iter()
        .flatten()
    {
        let (_, at, n) = leaf(c)?;
        if !same_chart(&chart_of(c.get("chart"))?, &n.chart) {
            return Err(reject!(
                Cover,
                "the cell {at}: its chart is not the one the splits give"
            ));
        }
        let pos: BTreeSet<String> = strs(c.get("positive")).into_iter().collect();
        if c.get("facts").is_some() && pos != n.positive {
            return Err(reject!(
                Cover,
                "the cell {at}: its positive variables are not the chart's"
            ));
        }
    }
    for c in proof
        .get("other cells")
        .and_then(|c| c.as_array())
        .into_iter()
        .flatten()
    {
        let (case_name, at, n) = leaf(c)?;
        if !same_chart(&chart_of(c.get("chart"))?, &n.chart) {
            return Err(reject!(
                Cover,
                "the cell {at}: its chart is not the one the splits give"
            ));
        }
        match c.get("status").and_then(|s| s.as_str()) {
            Some("outside") => {
                let case = st
                    .cases
                    .iter()
                    .find(|x| x.name == case_name)
                    .ok_or_else(|| reject!(Cover, "a cell of no case"))?;
                let agreement = claim.body().agreement().is_some();
                outside(
                    c.get("evidence").unwrap_or(&Value::Null),
                    case,
                    &n,
                    &at,
                    agreement,
                    out,
                )?;
            }
            _ => out.unproved_leaves += 1,
        }
    }
    if let Some(k) = cells.keys().find(|k| !consumed.contains(*k)) {
        return Err(reject!(
            Cover,
            "the cell {} is neither proved, split nor a leaf",
            k.1
        ));
    }
    Ok(())
}

/// A cell outside the hypotheses: a relation of the case false at every point of it.
fn outside(
    ev: &Value,
    case: &Case,
    n: &Node,
    at: &str,
    agreement: bool,
    out: &mut Cover,
) -> Result<(), Rejection> {
    let text = text_of(ev, "relation")
        .map_err(|_| reject!(Cover, "the cell {at}: outside without a reason"))?;
    let positive: Vec<String> = n.positive.iter().cloned().collect();
    let false_by = |rel: lang::Rel, v: &Symbolic| -> Result<bool, Rejection> {
        Ok(match value_sign(&v.render_string(), &positive)? {
            Some(s) => !holds(rel.symbol(), s)?,
            None => false,
        })
    };
    if let Some(h) = case
        .space
        .assume
        .iter()
        .find(|a| a.text == text && a.guard.is_none())
    {
        if let Some(v) = relation_value(h, case, &n.chart) {
            if false_by(h.rel, &v)? {
                out.outside += 1;
                return Ok(());
            }
        }
        // with `abs`: its negation holds by the bounds |x| >= ±x
        let mut env = n.chart.clone();
        if case.space.derive(&mut env).is_ok() && abs_bounds_hold(&negation(h), &env, &positive)? {
            out.outside += 1;
            return Ok(());
        }
    } else if agreement && case.conclude.iter().any(|a| a.text == text) {
        // an agreement's condition on the left side's outputs: the engine's value
        let rel = lang::parse_relation(text).map_err(|e| reject!(Format, "{e}"))?;
        if let Some(v) = ev.get("lhs - rhs").and_then(|x| x.as_str()) {
            if rel.guard.is_none() && false_by(rel.rel, &parse(v)?)? {
                out.outside_engine += 1;
                return Ok(());
            }
        }
    }
    Err(reject!(
        Cover,
        "the cell {at}: `{text}` is not shown false there"
    ))
}

/// The relation with the opposite relation sign (`>` becomes `<=`).
fn negation(h: &lang::Relation) -> lang::Relation {
    use lang::Rel::*;
    lang::Relation {
        rel: match h.rel {
            Gt => Le,
            Ge => Lt,
            Lt => Ge,
            Le => Gt,
            Eq => Ne,
            Ne => Eq,
        },
        ..h.clone()
    }
}

/// An inequality with `abs` holds on a cell by the bounds |x| >= ±x: for every choice of
/// the occurrences that bound it from below, some choice of the others gives a relation
/// whose `lhs - rhs` has a sign (by the rules) that makes it true.
fn abs_bounds_hold(
    r: &lang::Relation,
    env: &Env<Symbolic>,
    positive: &[String],
) -> Result<bool, Rejection> {
    let Some((up, down)) = lang::occurrences(r, env, &()) else {
        return Ok(false);
    };
    for every in lang::combinations(&down) {
        let mut some = false;
        for one in lang::combinations(&up) {
            let mut choice = every.clone();
            choice.extend(one);
            let c = lang::chosen(r, &choice);
            let (Ok(l), Ok(rr)) = (c.lhs.eval_in(env, &()), c.rhs.eval_in(env, &())) else {
                continue;
            };
            if let Some(sg) = value_sign(&l.sub_r(&rr).render_string(), positive)? {
                if holds(c.rel.symbol(), sg)? {
                    some = true;
                    break;
                }
            }
        }
        if !some {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::claim::statement::parse_range;

    #[test]
    fn canonical_pieces_of_ranges() {
        let env = Env::new();
        let p = canonical_pieces("k", &parse_range("(0, 1]").unwrap(), &env).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(
            p[0].0.render_string(),
            parse("t_k/(1 + t_k)").unwrap().render_string()
        );
        assert!(p[1].0.is_identical(&constant(1)));
        let r = canonical_pieces("x", &parse_range("R").unwrap(), &env).unwrap();
        assert!(r[0].0.is_identical(&Symbolic::var("x")) && r[0].1.is_none());
        assert!(canonical_pieces("e", &parse_range("(S, inf)").unwrap(), &env).is_err());
    }
}
