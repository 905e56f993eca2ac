//! The symbolic proof method of `agreement` and `implication` claims: the law code run on
//! rational functions over a decomposition of the paper's whole domain into cells, every
//! sign decided exactly.
//!
//! ```toml
//! [implication.proof]
//! domain = { k = "(0, inf)", eps = "(0, 1]" }   # the paper's domain of each parameter
//! cone = ["x", "y"]                             # velocity variables: each case's
//!                                               # `assume` are linear forms in them
//! subdomain = "diagonal masses only"            # optional: the domain above is a part of
//!                                               # the paper's (proved-on-subdomain)
//! work = 30000000                               # optional: the work bound in term
//!                                               # products (default 3000000)
//! ```
//!
//! **Cells.** A parameter with an open range is written through a positive chart variable
//! (`(a, b)`: (a + b·t)/(1 + t); `(a, inf)`: a + t; `R`: t, 0, −t), and every closed end
//! is a cell of its own (the parameter equal to the end). For the velocity, the first
//! linear forms ℓ of the case's hypotheses (completed by coordinate forms when there are
//! fewer than variables) are set to ±c (c > 0) or 0, as each hypothesis allows (`>`: +c;
//! `>=`: +c and 0; `!=`: ±c; a completing form: +c, 0, −c), and the velocity is solved
//! from them (Cramer's rule; the determinant's sign is decided in each cell). So the cells
//! cover the domain exactly: open cells, every boundary ray and the degenerate point
//! v = 0 where the hypotheses allow them. The remaining hypotheses are decided in each
//! cell (false: the cell is outside the domain).
//!
//! **Signs.** Every chart variable is positive, so inside
//! [`crate::arith::symbolic::with_positive_variables`] the law's own `sign()` calls are
//! decided by the signs of the coefficients (a polynomial with positive coefficients is
//! positive on the orthant). The zone of the law is therefore decided in each cell, not
//! assumed.
//!
//! **Verdicts.** `proved` when in every cell every conclusion (or every compared output)
//! is decided true: the certificate lists the cells with their charts. `refuted` when a
//! conclusion is false or undecided in a cell and an exact rational point of that cell
//! violates it (checked by the exact rational path). Otherwise no proof: the reason is
//! returned and the caller samples.

pub mod induction;
mod lipschitz;
pub mod termination;

use super::claim::body::{Body, Proof, Quantities};
use super::claim::statement::{domain_and_cone, obligation, radical_names, zone_conditions, Range};
use super::claim::{Claim, Kind, Outcome, Verdict};
use super::exact::sample_points::env_json;
use super::exact::sampled::{self, Case};
use crate::arith::symbolic::{
    radicals, take_undecided, with_positive_variables, with_radicals, Poly, Radical,
};
use crate::arith::{Rational, Scalar, Sign, Symbolic};
use crate::lang::{self, Env};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use serde_json::{json, Value};
use std::time::Instant;

/// What the proof method established.
pub enum Attempt {
    /// `proved` or `refuted`.
    Decided(Outcome),
    /// No proof: the reason (a cell and what could not be decided).
    NoProof(String),
}

/// One piece of a parameter's range: its value (in a chart variable, or constant).
#[derive(Clone)]
struct Piece {
    value: Symbolic,
    chart: Option<String>,
    text: String,
}

fn q(x: &BigRational) -> Symbolic {
    Symbolic::constant(x)
}

/// The pieces of a range, its ends evaluated at the values `env` of the parameters
/// before it: the open part through a positive chart variable, each closed end, and for
/// `R` one free symbol (split later on demand).
fn pieces(name: &str, r: &Range, env: &Env<Symbolic>) -> Result<Vec<Piece>, String> {
    let t = format!("t_{name}");
    let tv = Symbolic::var(&t);
    let one = q(&BigRational::one());
    let at = |v: &Symbolic| -> Result<Symbolic, String> {
        env.iter().try_fold(v.clone(), |acc, (n, x)| {
            acc.substitute(n, x)
                .map_err(|e| format!("the range of {name}: {e}"))
        })
    };
    let point = |v: &Symbolic| -> Result<Piece, String> {
        let v = at(v)?;
        Ok(Piece {
            text: format!("{name} = {}", v.render_string()),
            value: v,
            chart: None,
        })
    };
    match r {
        Range::Union(parts) => {
            let mut out = Vec::new();
            for p in parts {
                out.extend(pieces(name, p, env)?);
            }
            Ok(out)
        }
        Range::Point(v) => Ok(vec![point(v)?]),
        Range::Interval(None, None) => Ok(vec![Piece {
            value: Symbolic::var(name),
            chart: None,
            text: format!("{name} free"),
        }]),
        Range::Interval(lo, hi) => {
            let inner = match (lo, hi) {
                (Some((a, _)), Some((b, _))) => at(a)?
                    .add_r(&at(b)?.mul_r(&tv))
                    .checked_div(&one.add_r(&tv))
                    .map_err(|e| e.to_string())?,
                (Some((a, _)), None) => at(a)?.add_r(&tv),
                (None, Some((b, _))) => at(b)?.sub_r(&tv),
                (None, None) => unreachable!("handled above"),
            };
            let mut out = vec![Piece {
                text: format!("{name} = {} (open, {t} > 0)", inner.render_string()),
                value: inner,
                chart: Some(t.clone()),
            }];
            for (v, closed) in [lo, hi].into_iter().flatten() {
                if *closed {
                    out.push(point(v)?);
                }
            }
            Ok(out)
        }
    }
}

/// The parameters in an order where every range's ends come before it.
fn dependency_order(params: &[(String, Range)]) -> Result<Vec<(String, Range)>, String> {
    let mut todo = params.to_vec();
    let mut out: Vec<(String, Range)> = Vec::new();
    while !todo.is_empty() {
        let before = todo.len();
        let (ready, rest): (Vec<_>, Vec<_>) = todo
            .into_iter()
            .partition(|(_, r)| r.depends().iter().all(|d| out.iter().any(|(n, _)| n == d)));
        out.extend(ready);
        todo = rest;
        if todo.len() == before {
            return Err(format!(
                "the range of {} depends on a variable without a range",
                todo[0].0
            ));
        }
    }
    Ok(out)
}

/// A linear form ℓ(v) = Σ a_j v_j of the cone variables, with the relation ℓ ⋈ 0 it must
/// satisfy (`None`: a completing coordinate form, free).
#[derive(Clone)]
struct Form {
    coeffs: Vec<Symbolic>,
    rel: Option<lang::Rel>,
    text: String,
}

fn cone_degree_one(x: &Symbolic, cone: &[String]) -> bool {
    let deg = |m: &crate::arith::symbolic::poly::Monomial| -> u32 {
        m.iter()
            .filter(|(v, _)| cone.iter().any(|c| **c == **v))
            .map(|(_, e)| *e)
            .sum()
    };
    x.denominator().terms().all(|(m, _)| deg(m) == 0)
        && x.numerator().terms().all(|(m, _)| deg(m) == 1)
}

/// The linear homogeneous hypotheses of a case, as forms (coefficients in the
/// parameters' own names).
fn linear_forms(case: &Case, env0: &Env<Symbolic>, cone: &[String]) -> Vec<(usize, Form)> {
    let mut out = Vec::new();
    for (i, a) in case.space.assume.iter().enumerate() {
        let (Ok(l), Ok(r)) = (a.lhs.eval_in(env0, &()), a.rhs.eval_in(env0, &())) else {
            continue;
        };
        let f = l.sub_r(&r);
        if !cone_degree_one(&f, cone) {
            continue;
        }
        let coeffs: Option<Vec<Symbolic>> = cone
            .iter()
            .map(|c| {
                cone.iter().try_fold(f.clone(), |acc, d| {
                    let v = q(&BigRational::from_integer(i64::from(c == d).into()));
                    acc.substitute(d, &v).ok()
                })
            })
            .collect();
        if let Some(coeffs) = coeffs {
            out.push((
                i,
                Form {
                    coeffs,
                    rel: Some(a.rel),
                    text: a.text.clone(),
                },
            ));
        }
    }
    out
}

fn det(m: &[Vec<Symbolic>]) -> Symbolic {
    match m.len() {
        0 => q(&BigRational::one()),
        1 => m[0][0].clone(),
        n => {
            let mut acc = q(&BigRational::zero());
            for j in 0..n {
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
                acc = if j % 2 == 0 {
                    acc.add_r(&term)
                } else {
                    acc.sub_r(&term)
                };
            }
            acc
        }
    }
}

/// The first `n` forms (hypotheses first, then coordinate forms) whose determinant is not
/// identically zero, with the indices of the hypotheses used.
fn choose_forms(forms: &[(usize, Form)], cone: &[String]) -> Option<(Vec<Form>, Vec<usize>)> {
    let n = cone.len();
    let mut cands: Vec<(Option<usize>, Form)> =
        forms.iter().map(|(i, f)| (Some(*i), f.clone())).collect();
    for (j, name) in cone.iter().enumerate() {
        cands.push((
            None,
            Form {
                coeffs: (0..n)
                    .map(|k| q(&BigRational::from_integer(i64::from(j == k).into())))
                    .collect(),
                rel: None,
                text: format!("{name} free"),
            },
        ));
    }
    // combinations in lexicographic order
    let mut idx: Vec<usize> = (0..n).collect();
    loop {
        let rows: Vec<Vec<Symbolic>> = idx.iter().map(|&i| cands[i].1.coeffs.clone()).collect();
        if det(&rows).sign() != Sign::Zero {
            return Some((
                idx.iter().map(|&i| cands[i].1.clone()).collect(),
                idx.iter().filter_map(|&i| cands[i].0).collect(),
            ));
        }
        // next combination
        let m = cands.len();
        let mut k = n;
        loop {
            if k == 0 {
                return None;
            }
            k -= 1;
            if idx[k] < m - n + k {
                break;
            }
        }
        idx[k] += 1;
        for l in k + 1..n {
            idx[l] = idx[l - 1] + 1;
        }
    }
}

/// The values a form takes in its cells: +c, 0, −c as its relation allows.
fn form_values(f: &Form, c: &str) -> Vec<(Symbolic, Option<String>, &'static str)> {
    use lang::Rel::*;
    let pos = (Symbolic::var(c), Some(c.to_string()), "+");
    let neg = (-Symbolic::var(c), Some(c.to_string()), "-");
    let zero = (q(&BigRational::zero()), None, "0");
    match f.rel {
        Some(Gt) => vec![pos],
        Some(Ge) => vec![pos, zero],
        Some(Lt) => vec![neg],
        Some(Le) => vec![neg, zero],
        Some(Eq) => vec![zero],
        Some(Ne) => vec![pos, neg],
        None => vec![pos, zero, neg],
    }
}

fn substitute_all(x: &Symbolic, params: &Env<Symbolic>) -> Option<Symbolic> {
    params
        .iter()
        .try_fold(x.clone(), |acc, (n, v)| acc.substitute(n, v).ok())
}

/// One cell: values of the claim's variables in chart variables, its chart variables,
/// and a description.
struct Cell {
    env: Env<Symbolic>,
    charts: Vec<String>,
    text: String,
    /// How the cell was made, for a certificate: a root's parameter pieces and cone
    /// forms, or a split piece's substitution (`Null` when not recorded).
    origin: Value,
}

/// The cells of one case: every combination of parameter pieces and cone values.
fn cells(
    case: &Case,
    params: &[(String, Range)],
    cone: &[String],
    tree: &mut Tree,
) -> Result<(Vec<Cell>, Vec<usize>), String> {
    let case_name = case.name.as_str();
    // a cone variable the case fixes (a degenerate box side) or derives is not charted
    let cone: Vec<String> = cone
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
        .collect();
    let cone = cone.as_slice();
    // constants of the case (a variable fixed by a degenerate box side)
    let mut params: Vec<(String, Range)> = params.to_vec();
    for (n, lo, hi) in &case.space.vars {
        if lo == hi {
            params.retain(|p| &p.0 != n);
            params.push((n.clone(), Range::Point(q(lo))));
        } else if !params.iter().any(|p| &p.0 == n)
            && !cone.contains(n)
            && !case.space.derived.iter().any(|(d, _)| d == n)
        {
            return Err(format!("the variable {n} has no range in `proof.domain`"));
        }
    }
    let params = dependency_order(&params)?;
    let mut env0: Env<Symbolic> = params
        .iter()
        .map(|(n, r)| match r {
            Range::Point(v) if v.is_constant().is_some() => (n.clone(), v.clone()),
            _ => (n.clone(), Symbolic::var(n)),
        })
        .collect();
    for c in cone {
        env0.insert(c.clone(), Symbolic::var(c));
    }
    // derived quantities may appear in the hypotheses (best effort: those that fail stay
    // unknown, and a hypothesis using them is then not a form)
    let _ = derive_symbolic(case, &mut env0);
    let lf = if cone.is_empty() {
        Vec::new()
    } else {
        let lf = linear_forms(case, &env0, cone);
        choose_forms(&lf, cone).ok_or("the cone's linear forms are dependent")?;
        lf
    };
    let mut used = Vec::new();
    // the product of the parameter pieces
    // each combination: values, chart variables, text, and the pieces taken (for a
    // certificate: parameter, range, value) and the text of the parameter piece
    type Combo = (Env<Symbolic>, Vec<String>, Vec<String>, Vec<Value>, String);
    let mut combos: Vec<Combo> = vec![(
        Env::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        String::new(),
    )];
    for (n, r) in &params {
        let mut next = Vec::new();
        for (env, charts, text, steps, _) in &combos {
            for p in pieces(n, r, env)? {
                let (mut e, mut c, mut t) = (env.clone(), charts.clone(), text.clone());
                e.insert(n.clone(), p.value.clone());
                c.extend(p.chart.clone());
                t.push(p.text.clone());
                let mut st = steps.clone();
                st.push(json!([n, r.text(), p.value.render_string()]));
                let joined = t.join(", ");
                next.push((e, c, t, st, joined));
            }
        }
        combos = next;
    }
    let mut out = Vec::new();
    let mut work: Vec<Combo> = combos.into_iter().rev().collect();
    let mut budget = MAX_CELLS;
    while let Some((penv, pcharts, ptext, psteps, proot)) = work.pop() {
        budget = budget.saturating_sub(1);
        if budget == 0 {
            return Err(format!(
                "more than {MAX_CELLS} pieces while charting the cone"
            ));
        }
        if cone.is_empty() {
            let charts = with_free_symbols(&pcharts, &penv);
            out.push(Cell {
                env: penv,
                charts,
                text: ptext.join(", "),
                origin: json!({"params": psteps, "params piece": proot, "cone": null}),
            });
            continue;
        }
        let subst: Env<Symbolic> = penv
            .iter()
            .filter(|(n, _)| env0.get(*n).is_some_and(|v| v.is_constant().is_none()))
            .map(|(n, v)| (n.clone(), v.clone()))
            .collect();
        // the forms with this piece's parameter values; the completing coordinates are
        // chosen per piece, so that a piece where the first choice degenerates (e.g. a
        // normal with a zero component) takes the next
        let here = lf
            .iter()
            .map(|(i, f)| {
                let coeffs = f
                    .coeffs
                    .iter()
                    .map(|x| substitute_all(x, &subst).ok_or("a form's coefficient is undefined"))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok((
                    *i,
                    Form {
                        coeffs,
                        ..f.clone()
                    },
                ))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let forms = choose_forms(&here, cone).ok_or_else(|| {
            format!(
                "in the cell {}, the cone's linear forms are dependent",
                ptext.join(", ")
            )
        })?;
        let a: Vec<Vec<Symbolic>> = forms.0.iter().map(|f| f.coeffs.clone()).collect();
        let d = det(&a);
        let positive: Vec<String> = pcharts
            .iter()
            .filter(|c| c.starts_with("t_") || c.starts_with("c_"))
            .cloned()
            .collect();
        let ds = with_positive_variables(&positive, || d.sign());
        if !matches!(ds, Sign::Positive | Sign::Negative) {
            // split the piece on the determinant's sign (linearly, or on a free variable)
            // and chart each part
            let charts = with_free_symbols(&pcharts, &penv);
            let piece = Cell {
                env: penv,
                charts,
                text: ptext.join(", "),
                origin: Value::Null,
            };
            let free = || {
                d.variables()
                    .into_iter()
                    .find(|v| piece.charts.contains(v) && !positive.contains(v))
            };
            let parts = linear_split(&piece, &d, &positive)
                .or_else(|| free().map(|f| split_cell(&piece, &f)))
                .ok_or_else(|| {
                    format!(
                        "in the cell {}, the sign of the chart's determinant {} is not decided",
                        piece.text,
                        d.render_string()
                    )
                })?;
            tree.split(case_name, &piece.text, &parts);
            if let Some(s) = tree.splits.last_mut() {
                s["before the cone"] = true.into();
            }
            work.extend(
                parts
                    .into_iter()
                    .rev()
                    .map(|c| (c.env, c.charts, vec![c.text], psteps.clone(), proot.clone())),
            );
            continue;
        }
        used.extend(forms.1.iter().copied());
        // every combination of form values
        type VCombo = (Vec<Symbolic>, Vec<String>, Vec<String>, Vec<&'static str>);
        let mut vcombos: Vec<VCombo> = vec![(Vec::new(), Vec::new(), Vec::new(), Vec::new())];
        for (i, f) in forms.0.iter().enumerate() {
            let c = format!("c_{}", i + 1);
            let mut next = Vec::new();
            for (b, charts, text, signs) in &vcombos {
                for (v, chart, sgn) in form_values(f, &c) {
                    let (mut b, mut ch, mut t) = (b.clone(), charts.clone(), text.clone());
                    let mut sg = signs.clone();
                    b.push(v);
                    ch.extend(chart);
                    t.push(format!("[{}] {sgn}", f.text));
                    sg.push(sgn);
                    next.push((b, ch, t, sg));
                }
            }
            vcombos = next;
        }
        let form_record: Vec<Value> = forms
            .0
            .iter()
            .map(|f| json!({"form": f.text, "relation": f.rel.map(lang::Rel::symbol)}))
            .collect();
        for (b, ccharts, ctext, signs) in vcombos {
            let mut env = penv.clone();
            for (j, name) in cone.iter().enumerate() {
                let mut aj = a.clone();
                for (row, bi) in aj.iter_mut().zip(&b) {
                    row[j] = bi.clone();
                }
                let vj = det(&aj)
                    .checked_div(&d)
                    .map_err(|e| format!("Cramer's rule: {e}"))?;
                env.insert(name.clone(), vj);
            }
            let mut charts = pcharts.clone();
            charts.extend(ccharts);
            let charts = with_free_symbols(&charts, &env);
            out.push(Cell {
                env,
                charts,
                text: format!("{}; {}", ptext.join(", "), ctext.join(", ")),
                origin: json!({
                    "params": psteps,
                    "params piece": proot,
                    "piece": ptext.join(", "),
                    "cone": {"vars": cone, "forms": form_record, "signs": signs},
                }),
            });
        }
    }
    used.sort_unstable();
    used.dedup();
    Ok((out, used))
}

/// The chart variables `charts` with the free real symbols of the values in `env` (a free
/// symbol takes values in witness points too).
fn with_free_symbols(charts: &[String], env: &Env<Symbolic>) -> Vec<String> {
    let mut out = charts.to_vec();
    out.extend(
        env.values()
            .flat_map(|v| v.variables())
            .filter(|v| !v.starts_with("t_") && !v.starts_with("c_")),
    );
    out.sort();
    out.dedup();
    out
}

/// The derived variables of a case, in dependency order.
fn derive_symbolic(case: &Case, env: &mut Env<Symbolic>) -> Result<(), String> {
    case.space.derive(env)
}

/// What one cell gives.
enum CellResult {
    Holds(Vec<Value>),
    /// A hypothesis (or an agreement's condition) decided false on the whole cell: the
    /// relation and its `lhs - rhs` there, for a certificate.
    Outside(Value),
    /// A quantity of the claim divides by a value that is zero on the whole cell (e.g. the
    /// ratio |v1|/|v0| at v0 = 0): the claim says nothing there, as at a sample point.
    Undefined,
    /// Not decided true: the reason (a witness search follows).
    Open(String),
    /// A conclusion decided **false** for every value of the cell, whose hypotheses are
    /// all decided true and whose radicals are defined: every point of the cell is a
    /// counterexample (the reason; a rational witness is still looked for first).
    False(String),
}

/// The law (or a side) refused the cell with an error of its own (not an undecided sign,
/// not a conclusion that failed).
fn is_refusal(why: &str) -> bool {
    ["the law: ", "left side: ", "right side: "]
        .iter()
        .any(|p| why.starts_with(p) || why.contains(&format!("; {p}")))
        && !why.contains("undecided")
        && !why.contains("no symbolic form")
        && !why.contains("missing")
        && !why.contains("unknown")
}

/// A division by a value that is zero on the whole cell.
fn is_undefined(e: &str) -> bool {
    e.contains("division by zero")
}

fn undefined_or_open(e: impl ToString) -> CellResult {
    let e = e.to_string();
    if is_undefined(&e) {
        CellResult::Undefined
    } else {
        CellResult::Open(e)
    }
}

/// A relation decided on a cell: a guarded one through its guard, then its body; one with
/// `abs` of undecided sign also by the bounds `|x| >= ±x` ([`lang::decide_by_abs_bounds`]),
/// then as a bound linear in the cone chart ([`super::prove::lipschitz`]).
fn decide(r: &lang::Relation, env: &Env<Symbolic>) -> Result<Option<bool>, String> {
    if let Some(g) = &r.guard {
        let body = lang::Relation {
            guard: None,
            ..r.clone()
        };
        return match g.decide_as_guard(env, &()) {
            Ok(Some(false)) => Ok(Some(true)),
            Ok(Some(true)) => decide(&body, env),
            // a guard not decided on the cell, or not given (an output the law leaves out
            // where its sign is undecided, e.g. the next zone): true where the body is
            // decided true on the whole cell, else as undecided as the guard
            g => {
                if quietly(|| decide(&body, env)) == Ok(Some(true)) {
                    Ok(Some(true))
                } else {
                    g.map(|_| None).map_err(|e| e.to_string())
                }
            }
        };
    }
    // the bounds only decide what the plain evaluation could not; an error in one of
    // their relations (e.g. a division by zero where a sign is chosen) leaves it undecided
    match r.decide(env, &()).map_err(|e| e.to_string())? {
        None => Ok(quietly(|| {
            lang::decide_by_abs_bounds(r, env, &())
                .unwrap_or(None)
                .or_else(|| super::prove::lipschitz::decide(r, env))
        })),
        d => Ok(d),
    }
}

/// `f` with its own undecided signs dropped: the splitting of a cell follows the plain
/// evaluation, not an attempt that was not needed.
fn quietly<T>(f: impl FnOnce() -> T) -> T {
    let saved = take_undecided();
    let out = f();
    crate::arith::symbolic::restore_undecided(saved);
    out
}

fn show_value(x: &Symbolic) -> Value {
    let s = x.render_string();
    if s.len() <= 4000 {
        s.into()
    } else {
        format!("({} characters, omitted)", s.len()).into()
    }
}

/// How the cells of a proof came about, for a certificate (with the decision log on):
/// the root cells of each case (the charts of the domain), every split of a cell into the
/// cells that chart its pieces (a sign of a free variable, of a linear form: negative,
/// zero, positive; a piece with no point of the cell is left out and counted), and the
/// leaves that are not proved cells (outside the hypotheses, undefined, refused).
#[derive(Default)]
struct Tree {
    /// The claim (or the engine's lemma) the proof is of, as TOML.
    source: String,
    roots: Vec<Value>,
    splits: Vec<Value>,
    leaves: Vec<Value>,
}

impl Tree {
    fn on() -> bool {
        crate::arith::symbolic::decision_log_enabled()
    }
    fn root(&mut self, case: &str, cell: &Cell) {
        if Self::on() {
            let mut r = json!({"case": case, "cell": cell.text, "chart": chart_json(&cell.env)});
            if let Value::Object(o) = &cell.origin {
                r.as_object_mut().expect("an object").extend(o.clone());
            }
            self.roots.push(r);
        }
    }
    fn leaf(&mut self, case: &str, cell: &Cell, status: &str, why: Value) {
        if Self::on() {
            self.leaves.push(json!({
                "case": case, "cell": cell.text, "status": status, "chart": chart_json(&cell.env),
                "evidence": why,
            }));
        }
    }
    fn split(&mut self, case: &str, parent: &str, parts: &[Cell]) {
        if Self::on() {
            let children: Vec<&str> = parts.iter().map(|c| c.text.as_str()).collect();
            let pieces: Vec<Value> = parts
                .iter()
                .map(|c| {
                    let mut o = c.origin.clone();
                    if let Some(m) = o.as_object_mut() {
                        m.remove("dropped");
                        m.insert("cell".into(), c.text.clone().into());
                        m.insert("chart".into(), Value::Object(chart_json(&c.env)));
                    }
                    o
                })
                .collect();
            let dropped = parts
                .first()
                .and_then(|c| c.origin.get("dropped").cloned())
                .unwrap_or_else(|| json!([]));
            self.splits.push(json!({
                "case": case,
                "parent": parent,
                "children": children,
                "pieces": pieces,
                "dropped": dropped,
                "without points": 3 - parts.len().min(3),
            }));
        }
    }
    fn attach(self, mut cert: Value) -> Value {
        if Self::on() {
            cert["source"] = self.source.into();
            cert["roots"] = Value::Array(self.roots);
            cert["splits"] = Value::Array(self.splits);
            cert["other cells"] = Value::Array(self.leaves);
        }
        cert
    }
}

/// The values of a cell's variables in its chart variables, for a certificate.
fn chart_json(env: &Env<Symbolic>) -> serde_json::Map<String, Value> {
    env.iter()
        .map(|(k, v)| (k.clone(), v.render_string().into()))
        .collect()
}

/// The decided signs of a cell, for a certificate: each value as a rational function of
/// the chart variables (radicals named `rad_i`), its sign and the rule.
fn facts_json(facts: &[crate::arith::symbolic::Decision]) -> Value {
    let sign = |s: Sign| match s {
        Sign::Positive => ">",
        Sign::Negative => "<",
        Sign::Zero => "==",
        Sign::Unknown => "?",
    };
    let mut seen = std::collections::BTreeSet::new();
    Value::Array(
        facts
            .iter()
            .filter_map(|f| {
                let v = radical_names(&f.value.render_string());
                seen.insert((v.clone(), sign(f.sign)))
                    .then(|| json!({"value": v, "sign": sign(f.sign), "rule": f.rule}))
            })
            .collect(),
    )
}

/// The radicals of a cell: name and radicand (and the x of |x| = √(x²)).
fn radicals_json(rads: &[Radical]) -> Value {
    Value::Array(
        rads.iter()
            .map(|r| {
                json!({
                    "name": radical_names(&r.name),
                    "radicand": radical_names(&r.radicand.render_string()),
                })
            })
            .collect(),
    )
}

/// Radical names `√i` written `rad_i` (a name of the input language).
/// A relation decided false on a cell, for a certificate: its text, relation and
/// `lhs - rhs` (where it evaluates).
fn false_relation(r: &lang::Relation, env: &Env<Symbolic>) -> Value {
    let d = r
        .lhs
        .eval_in(env, &())
        .and_then(|l| r.rhs.eval_in(env, &()).map(|x| l.sub_r(&x)));
    json!({
        "relation": r.text,
        "rel": r.rel.symbol(),
        "guarded": r.guard.is_some(),
        "lhs - rhs": d.ok().map(|d| radical_names(&d.render_string())),
    })
}

/// Evaluates one cell of an implication (`sides = None`) or an agreement.
fn run_cell(
    t: &Body,
    case: &Case,
    cell: &Cell,
    sides: Option<&sampled::Sides>,
) -> Result<CellResult, String> {
    let mut env = cell.env.clone();
    if let Err(e) = derive_symbolic(case, &mut env) {
        return Ok(undefined_or_open(e));
    }
    // an undecided hypothesis is kept as a note: where every conclusion is decided true
    // for all values of the cell, it was not needed
    let mut open_hyp = None;
    for a in &case.space.assume {
        match decide(a, &env) {
            Ok(Some(true)) => {}
            Ok(Some(false)) => return Ok(CellResult::Outside(false_relation(a, &env))),
            Ok(None) => open_hyp = Some(format!("hypothesis `{}` undecided", a.text)),
            Err(e) => return Ok(undefined_or_open(e)),
        }
    }
    let open = |why: String| match &open_hyp {
        Some(h) => CellResult::Open(format!("{h}; {why}")),
        None => CellResult::Open(why),
    };
    let mut signs = Vec::new();
    if let Some(h) = &open_hyp {
        signs.push(json!({ "not needed": h }));
    }
    match sides {
        None => {
            let outs = match sampled::side(sampled::quantities(t), &env) {
                Ok(o) => o,
                Err(e) if is_undefined(&e) => return Ok(CellResult::Undefined),
                Err(e) => return Ok(open(format!("the law: {e}"))),
            };
            let mut scope = env.clone();
            scope.extend(outs);
            for r in &case.conclude {
                match decide(r, &scope) {
                    Ok(Some(true)) => {
                        let d = r
                            .lhs
                            .eval_in(&scope, &())
                            .and_then(|l| r.rhs.eval_in(&scope, &()).map(|x| l.sub_r(&x)));
                        let log = crate::arith::symbolic::decision_log_enabled();
                        let mut fact = match d {
                            Ok(d) => json!({"relation": r.text, "lhs - rhs": show_value(&d)}),
                            Err(_) if log => json!({"relation": r.text}),
                            Err(_) => continue,
                        };
                        if log {
                            fact["obligation"] = obligation(r, &scope);
                        }
                        signs.push(fact);
                    }
                    Ok(Some(false)) if open_hyp.is_none() => {
                        return Ok(falsified(format!("`{}` is false", r.text), case, &env));
                    }
                    Ok(_) => return Ok(open(format!("`{}` not decided true", r.text))),
                    Err(e) if is_undefined(&e) => return Ok(CellResult::Undefined),
                    Err(e) => match zone_conclusion(r, &scope) {
                        Some(Ok(cert)) => signs.push(cert),
                        Some(Err(why)) => return Ok(open(format!("`{}`: {why}", r.text))),
                        None => return Ok(open(format!("`{}`: {e}", r.text))),
                    },
                }
            }
        }
        Some((left, rights, compare, every)) => {
            let side = |s: &dyn Quantities| sampled::side(s, &env);
            let a = match side(*left) {
                Ok(a) => a,
                Err(e) if is_undefined(&e) => return Ok(CellResult::Undefined),
                Err(e) => return Ok(open(format!("left side: {e}"))),
            };
            let mut scope = env.clone();
            scope.extend(a.clone());
            for r in &case.conclude {
                match decide(r, &scope) {
                    Ok(Some(true)) => {}
                    Ok(Some(false)) => return Ok(CellResult::Outside(false_relation(r, &scope))),
                    _ => return Ok(open(format!("`{}` undecided", r.text))),
                }
            }
            for right in rights {
                let b = match side(*right) {
                    Ok(b) => b,
                    Err(e) if is_undefined(&e) => return Ok(CellResult::Undefined),
                    // a refusal where the left side gives an outcome (the forms must be
                    // defined alike): false on the whole cell
                    Err(e)
                        if *every
                            && open_hyp.is_none()
                            && is_refusal(&format!("right side: {e}")) =>
                    {
                        let why = format!("the right side gives no outcome: {e}");
                        return Ok(falsified(why, case, &env));
                    }
                    Err(e) => return Ok(open(format!("right side: {e}"))),
                };
                for name in compare {
                    let (Some(x), Some(y)) = (a.get(name), b.get(name)) else {
                        return Err(format!("output `{name}` missing on one side"));
                    };
                    if !x.is_identical(y) {
                        return Ok(open(format!("{name} differs")));
                    }
                    signs.push(json!({"output": name, "value": show_value(x)}));
                }
            }
        }
    }
    // a square root kept as a radical (see `with_radicals`) is defined where its radicand
    // is >= 0: the cell must say so, or a hypothesis of the claim
    for rad in radicals() {
        if let Some(why) = radicand_not_established(&rad, case, &env) {
            return Ok(open(why));
        }
        signs.push(json!({ "radical": rad.name, "square root of": show_value(&rad.radicand) }));
    }
    Ok(CellResult::Holds(signs))
}

/// [`CellResult::False`] for a failure decided on the whole cell, when every radical of
/// the computation is defined there (else the cell stays open).
fn falsified(why: String, case: &Case, env: &Env<Symbolic>) -> CellResult {
    match radicals()
        .iter()
        .find_map(|rad| radicand_not_established(rad, case, env))
    {
        Some(no) => CellResult::Open(format!("{why}; {no}")),
        None => CellResult::False(why),
    }
}

/// `None` when the radicand of `rad` is ≥ 0 wherever the claim speaks: a square (|x|),
/// decided ≥ 0 on the cell, or a hypothesis `D >= 0` / `D > 0` of the case (the points
/// where it fails are outside the claim's domain); else the reason.
fn radicand_not_established(rad: &Radical, case: &Case, env: &Env<Symbolic>) -> Option<String> {
    if rad.abs_of.is_some() || matches!(rad.radicand.sign(), Sign::Positive | Sign::Zero) {
        return None;
    }
    let assumed = case.space.assume.iter().any(|a| {
        matches!(a.rel, lang::Rel::Ge | lang::Rel::Gt)
            && a.lhs
                .eval_in(env, &())
                .and_then(|l| a.rhs.eval_in(env, &()).map(|r| l - &r))
                .is_ok_and(|d: Symbolic| d.is_identical(&rad.radicand))
    });
    (!assumed).then(|| {
        format!(
            "a square root of {} whose sign is not decided on the cell (no hypothesis says it is >= 0)",
            rad.radicand.render_string()
        )
    })
}

/// A conclusion `zoneN != c` or `zoneN == c` on the zone code the corner probes give for
/// (ξ̇N, η̇N) (`xiN`, `etaN`; FP eq. (1)) when the probe left the code out because a sign
/// of ξ̇N or η̇N is not the same on the whole cell. Each zone the conclusion excludes is
/// shown empty on the cell by a certificate of infeasibility of its two conditions
/// p₁ ▷ 0, p₂ ▷ 0: one condition false on the cell, or λp₁ + μp₂ < 0 on the cell for
/// multipliers λ, μ ≥ 0 (1, or ±ξ̇, ±η̇ of the input where decided nonnegative), or
/// λp₁ + μp₂ ≤ 0 with a positive multiplier on a strict condition (the conditions give
/// λp₁ + μp₂ ≥ 0, > 0 in that case). E.g. FP Theorem 5.1: ξ̇ξ̇' + η̇η̇' = −ε(ξ̇² + η̇²).
/// `None`: not such a conclusion; `Some(Err)`: no certificate found.
fn zone_conclusion(r: &lang::Relation, scope: &Env<Symbolic>) -> Option<Result<Value, String>> {
    let name = r.lhs.as_var()?;
    let suffix = name.strip_prefix("zone")?;
    let xi = scope.get(&format!("xi{suffix}"))?;
    let eta = scope.get(&format!("eta{suffix}"))?;
    let c = r.rhs.as_rational()?;
    if !c.is_integer() {
        return None;
    }
    let c = i64::try_from(c.to_integer()).ok()?;
    let excluded: Vec<i64> = match r.rel {
        lang::Rel::Ne => vec![c],
        lang::Rel::Eq => [0, 1, 2, 12].into_iter().filter(|z| *z != c).collect(),
        _ => return None,
    };
    // multipliers: 1 and the input's zone coordinates, where nonnegative on the cell
    let one = xi.one_like();
    let mut mult = vec![(one, Sign::Positive)];
    for v in ["xi", "eta"].iter().filter_map(|v| scope.get(*v)) {
        for m in [v.clone(), -v.clone()] {
            if let s @ (Sign::Positive | Sign::Zero) = m.sign() {
                mult.push((m, s));
            }
        }
    }
    let mut certs = Vec::new();
    for z in excluded {
        let conds = zone_conditions(z, xi, eta)?;
        let cert = zone_empty(&conds, &mult);
        match cert {
            Some((text, by)) => certs.push(json!({ "zone": z, "empty": text, "by": by })),
            None => {
                return Some(Err(format!(
                    "{name} = {z} is not excluded on the cell (no certificate)"
                )))
            }
        }
    }
    let show = |v: &Symbolic| radical_names(&v.render_string());
    let input: serde_json::Map<String, Value> = ["xi", "eta"]
        .iter()
        .filter_map(|v| scope.get(*v).map(|x| (v.to_string(), show(x).into())))
        .collect();
    Some(Ok(json!({
        "relation": r.text,
        "zones excluded": certs,
        "xi": show(xi),
        "eta": show(eta),
        "input": input,
    })))
}

/// A certificate that p₁ ▷ 0 ∧ p₂ ▷ 0 has no point in the cell (see [`zone_conclusion`]).
fn zone_empty(conds: &[(Symbolic, bool); 2], mult: &[(Symbolic, Sign)]) -> Option<(String, Value)> {
    // a condition false on the whole cell
    for (i, (p, strict)) in conds.iter().enumerate() {
        let by = json!({ "condition": i });
        match p.sign() {
            Sign::Negative => return Some((format!("{} < 0", p.render_string()), by)),
            Sign::Zero if *strict => return Some((format!("{} = 0", p.render_string()), by)),
            _ => {}
        }
    }
    for (l, ls) in mult {
        for (m, ms) in mult {
            let sum = l.clone() * &conds[0].0 + &m.mul_r(&conds[1].0);
            let strict_positive =
                (conds[0].1 && *ls == Sign::Positive) || (conds[1].1 && *ms == Sign::Positive);
            let ok = match sum.sign() {
                Sign::Negative => true,
                Sign::Zero => strict_positive,
                _ => false,
            };
            if ok {
                let text = format!(
                    "({})*({}) + ({})*({}) = {}",
                    l.render_string(),
                    conds[0].0.render_string(),
                    m.render_string(),
                    conds[1].0.render_string(),
                    sum.render_string()
                );
                let by = json!({ "multipliers": [
                    radical_names(&l.render_string()), radical_names(&m.render_string()),
                ]});
                return Some((text, by));
            }
        }
    }
    None
}

const WITNESS: [(i64, i64); 7] = [(1, 1), (2, 1), (1, 2), (3, 1), (1, 3), (5, 2), (2, 7)];

/// The extreme chart values of the second round of [`witness`]: a chart variable near 0
/// or large is a parameter near an end of its range (k = t/(1 + t) near 0 or 1).
const EXTREME: [(i64, i64); 3] = [(1, 100), (1, 1), (100, 1)];

/// Cells with at most this many chart variables also get every corner of
/// {1/100, 1, 100}ⁿ as a witness candidate (3⁶ = 729 exact points at most).
const MAX_CORNER_CHARTS: usize = 6;

/// The witness candidates of a cell with `n` chart variables: 24 points of [`WITNESS`],
/// then, when `corners` ≤ [`MAX_CORNER_CHARTS`] (`corners` = n, or more to leave them out),
/// the corners of {1/100, 1, 100}ⁿ (where a claim may fail only near the ends of its
/// ranges, e.g. small k with ξ_n near S).
fn witness_points(corners: usize, n: usize) -> Vec<Vec<(i64, i64)>> {
    let mut out: Vec<Vec<(i64, i64)>> = (0..24usize)
        .map(|j| {
            (0..n)
                .map(|i| WITNESS[(j + 3 * i + i * j) % WITNESS.len()])
                .collect()
        })
        .collect();
    if corners <= MAX_CORNER_CHARTS {
        for code in 0..3usize.pow(n as u32) {
            out.push(
                (0..n)
                    .map(|i| EXTREME[code / 3usize.pow(i as u32) % 3])
                    .collect(),
            );
        }
    }
    out
}

/// An exact rational point of the cell that violates the claim (by the exact path).
fn witness(
    t: &Body,
    case: &Case,
    cell: &Cell,
    sides: Option<&sampled::Sides>,
    corners: bool,
) -> Option<Outcome> {
    let n = if corners {
        cell.charts.len()
    } else {
        usize::MAX
    };
    for values in witness_points(n, cell.charts.len()) {
        let point: Vec<(String, BigRational)> = cell
            .charts
            .iter()
            .zip(&values)
            .map(|(c, (n, d))| (c.clone(), BigRational::new((*n).into(), (*d).into())))
            .collect();
        let mut env: Env<Rational> = Env::new();
        for (n, v) in &cell.env {
            let Ok(x) = v.eval_rational(&point) else {
                continue;
            };
            env.insert(n.clone(), Rational::from_big(&x));
        }
        // the point must be one of the case: its hypotheses, and the values it fixes
        let fixed = case.space.vars.iter().filter(|(_, lo, hi)| lo == hi);
        if case.space.derive(&mut env).is_err()
            || !case.space.admits(&env).unwrap_or(false)
            || fixed
                .clone()
                .any(|(n, lo, _)| env.get(n).map(|v| v.to_big()) != Some(lo.clone()))
        {
            continue;
        }
        let r = match sides {
            None => sampled::implication_point(sampled::quantities(t), case, &env),
            Some(sides) => sampled::agreement_point(sides, case, &env).ok()?,
        };
        if let Err((detail, mut cx)) = r {
            let label = sampled::label(case);
            if cx.is_null() {
                cx = env_json(&env);
            }
            return Some(Outcome::refuted(
                format!(
                    "{label}{detail} (found by the symbolic method in the cell {})",
                    cell.text
                ),
                cx,
            ));
        }
    }
    None
}

fn domain_text(params: &[(String, Range)], cone: &[String]) -> String {
    let mut parts: Vec<String> = params.iter().map(|(n, r)| range_text(n, r)).collect();
    if !cone.is_empty() {
        parts.push(format!("({}) in each case's cone", cone.join(", ")));
    }
    parts.join(", ")
}

fn range_text(n: &str, r: &Range) -> String {
    match r {
        Range::Union(rs) => rs
            .iter()
            .map(|r| range_text(n, r))
            .collect::<Vec<_>>()
            .join(" or "),
        Range::Point(v) => format!("{n} = {}", v.render_string()),
        Range::Interval(lo, hi) => {
            let l = lo.as_ref().map_or("(-inf".to_string(), |(v, c)| {
                format!("{}{}", if *c { "[" } else { "(" }, v.render_string())
            });
            let h = hi.as_ref().map_or("inf)".to_string(), |(v, c)| {
                format!("{}{}", v.render_string(), if *c { "]" } else { ")" })
            });
            if lo.is_none() && hi.is_none() {
                format!("{n} ∈ R")
            } else {
                format!("{n} ∈ {l}, {h}")
            }
        }
    }
}

/// The largest number of cells one case may take (splits included).
const MAX_CELLS: usize = 4000;

/// `p = a·v + r` with `a`, `r` free of `v`, when `p` is of degree 1 in `v`.
fn linear_in(p: &Poly, v: &str) -> Option<(Poly, Poly)> {
    if p.degree_in(v) != 1 {
        return None;
    }
    let zero = Poly::zero();
    let (r, _) = p.substitute(v, &zero, &Poly::constant(&BigRational::one()));
    let a = p.sub(&r).div_monomial(&vec![(v.into(), 1)]);
    Some((a, r))
}

/// The cells of `cell` where the numerator N of `e` is positive, zero, negative, when N is
/// of degree 1 in a variable v with a coefficient of decided sign: v is solved from
/// N = s·c (c a new positive variable, s = +1, 0, −1). When v is itself positive, the
/// solved expression must be decided positive for all positive values of the others, so
/// the three cells cover exactly the points of `cell`.
fn linear_split(cell: &Cell, e: &Symbolic, positive: &[String]) -> Option<Vec<Cell>> {
    // split on the numerator, or on the denominator when the numerator's sign is decided
    let one = Poly::constant(&BigRational::one());
    let num = Symbolic::from_parts(e.numerator().clone(), one.clone()).ok()?;
    let undecided = |p: &Poly| {
        Symbolic::from_parts(p.clone(), one.clone())
            .is_ok_and(|x| with_positive_variables(positive, || x.sign()) == Sign::Unknown)
    };
    let n = &match with_positive_variables(positive, || num.sign()) {
        Sign::Unknown => e.numerator().clone(),
        // the first factor of the denominator of undecided sign
        _ => e
            .denominator_factors()
            .map(|(f, _)| f)
            .find(|f| undecided(f))
            .cloned()
            .unwrap_or_else(|| e.denominator()),
    };
    let fresh = (0..)
        .map(|i| format!("c_s{}_{i}", cell.charts.len()))
        .find(|c| !cell.charts.contains(c))?;
    let first = !cell.charts.iter().any(|c| c.starts_with("c_s"));
    // the variables N is of degree 1 in, with a coefficient of decided sign
    let mut candidates = Vec::new();
    for v in n.variables() {
        if !cell.charts.contains(&v) {
            continue;
        }
        let Some((a, r)) = linear_in(n, &v) else {
            continue;
        };
        let a = Symbolic::from_parts(a, one.clone()).ok()?;
        let r = Symbolic::from_parts(r, one.clone()).ok()?;
        if matches!(
            with_positive_variables(positive, || a.sign()),
            Sign::Positive | Sign::Negative
        ) {
            candidates.push((v, a, r));
        }
    }
    if candidates.is_empty() {
        return None;
    }
    // each side N = s·c is charted by a variable whose solved value stays in its range
    let mut parts = Vec::new();
    let mut dropped = Vec::new();
    let n_text = Symbolic::from_parts(n.clone(), one.clone())
        .ok()?
        .render_string();
    for (s, text) in [(1i64, "> 0"), (0, "= 0"), (-1, "< 0")] {
        let sc = Symbolic::var(&fresh).mul_r(&q(&BigRational::from_integer(s.into())));
        let mut done = false;
        for (v, a, r) in &candidates {
            let Ok(mut sol) = sc.sub_r(r).checked_div(a) else {
                continue;
            };
            let mut new_pos: Vec<String> = positive.iter().filter(|p| *p != v).cloned().collect();
            if s != 0 {
                new_pos.push(fresh.clone());
            }
            let side = json!({
                "var": v, "n": n_text, "a": a.render_string(), "r": r.render_string(),
                "side": s, "fresh": fresh,
            });
            let mut bounded = false;
            if positive.contains(v) {
                match with_positive_variables(&new_pos, || sol.sign()) {
                    Sign::Positive => {}
                    // v would not be positive anywhere on this side: no point of the cell
                    // has N of this sign
                    Sign::Negative | Sign::Zero => {
                        let mut d = side;
                        d["solution"] = sol.render_string().into();
                        dropped.push(d);
                        done = true;
                        break;
                    }
                    // the side between 0 and the root v* = −r/a (a positive rational)
                    // is charted by v = v*·c/(1 + c): exactly 0 < v < v*
                    Sign::Unknown => match bounded_chart(a, r, s, &fresh, &new_pos, first) {
                        Some(b) => {
                            sol = b;
                            bounded = true;
                        }
                        None => continue,
                    },
                }
            }
            let mut origin = side;
            origin["by"] = sol.render_string().into();
            origin["bounded"] = bounded.into();
            let Some(env) = cell
                .env
                .iter()
                .map(|(k, x)| x.substitute(v, &sol).ok().map(|x| (k.clone(), x)))
                .collect::<Option<Env<Symbolic>>>()
            else {
                continue;
            };
            let mut charts: Vec<String> = cell.charts.iter().filter(|c| *c != v).cloned().collect();
            if s != 0 {
                charts.push(fresh.clone());
            }
            parts.push(Cell {
                env,
                charts,
                text: format!(
                    "{}, [{} {text}]",
                    cell.text,
                    e.render_string().chars().take(80).collect::<String>()
                ),
                origin,
            });
            done = true;
            break;
        }
        if !done {
            return None;
        }
    }
    for p in &mut parts {
        p.origin["kind"] = "linear".into();
        p.origin["dropped"] = json!(dropped);
    }
    Some(parts)
}

/// For N = a·v + r with v > 0 and a of decided sign, the side of N's sign `s` that lies
/// between v = 0 and the root v* = −r/a, when v* is a positive rational, or, in the cell's
/// first split, a function of the other chart variables decided positive on the cell
/// (nested moving charts would grow without bound in runs whose number of steps depends
/// on the cell): v = v*·c/(1 + c) with c > 0 runs over exactly (0, v*).
/// `None` for the other side or an undecided root.
fn bounded_chart(
    a: &Symbolic,
    r: &Symbolic,
    s: i64,
    c: &str,
    positive: &[String],
    first_split: bool,
) -> Option<Symbolic> {
    let a_sign = with_positive_variables(positive, || a.sign());
    let below = matches!((a_sign, s), (Sign::Positive, -1) | (Sign::Negative, 1));
    if !below {
        return None;
    }
    // a rational root only (r = −v*·a, checked without dividing): nested charts over
    // moving roots grow without bound in runs whose number of steps depends on the cell
    // (e.g. a cradle run to a threshold)
    let (an, rn) = (a.numerator(), r.numerator());
    let rational_root = || {
        if !a.denominator().is_monomial() || a.denominator() != r.denominator() || an.is_zero() {
            return None;
        }
        let v_star = -(rn.leading_coefficient() / an.leading_coefficient());
        (rn.add(&an.scale(&v_star)).is_zero() && v_star.is_positive()).then(|| q(&v_star))
    };
    // a moving root v* (a function of the other chart variables) decided positive, in the
    // cell's first split only: in a run whose number of steps depends on the cell, later
    // splits would chart over moving roots again and again (the cells grow until the budget)
    let moving_root = || {
        let root = (-r.clone()).checked_div(a).ok()?;
        (first_split && with_positive_variables(positive, || root.sign()) == Sign::Positive)
            .then_some(root)
    };
    let root = rational_root().or_else(moving_root)?;
    let c = Symbolic::var(c);
    let one = q(&BigRational::one());
    root.mul_r(&c).checked_div(&one.add_r(&c)).ok()
}

/// A free real variable of the cell that occurs in a numerator of `undecided` (most
/// recent first) with even exponents only.
fn even_free_variable(undecided: &[Symbolic], cell: &Cell, positive: &[String]) -> Option<String> {
    undecided.iter().rev().find_map(|e| {
        let p = e.numerator();
        p.variables().into_iter().find(|v| {
            cell.charts.contains(v)
                && !positive.contains(v)
                && p.terms().all(|(m, _)| {
                    m.iter()
                        .find(|(x, _)| **x == **v)
                        .is_none_or(|(_, k)| k % 2 == 0)
                })
        })
    })
}

/// The three cells of `cell` with the free real variable `f` negative, zero, positive.
fn split_cell(cell: &Cell, f: &str) -> Vec<Cell> {
    let t = format!("t_{f}");
    let zero = q(&BigRational::zero());
    [
        (-Symbolic::var(&t), format!("{f} = -{t}"), true),
        (zero, format!("{f} = 0"), false),
        (Symbolic::var(&t), format!("{f} = {t}"), true),
    ]
    .into_iter()
    .filter_map(|(by, text, chart)| {
        let env = cell
            .env
            .iter()
            .map(|(k, v)| v.substitute(f, &by).ok().map(|v| (k.clone(), v)))
            .collect::<Option<Env<Symbolic>>>()?;
        let mut charts: Vec<String> = cell.charts.iter().filter(|c| *c != f).cloned().collect();
        if chart {
            charts.push(t.clone());
        }
        Some(Cell {
            env,
            charts,
            text: format!("{}, {text}", cell.text),
            origin: json!({"kind": "free", "var": f, "by": by.render_string(), "fresh": t}),
        })
    })
    .collect()
}

/// Tries the symbolic proof of an `agreement` or `implication` claim that has a `proof`
/// table; `None` when it has none.
pub fn attempt(claim: &Claim, deadline: Instant) -> Option<Attempt> {
    let spec = claim.body().proof()?;
    Some(attempt_with(claim, spec, deadline).unwrap_or_else(Attempt::NoProof))
}

fn attempt_with(claim: &Claim, spec: &Proof, deadline: Instant) -> Result<Attempt, String> {
    let t = claim.body();
    let (params, cone) = domain_and_cone(spec)?;
    if cone.len() > 4 {
        return Err("at most 4 cone variables".into());
    }
    let sides = match claim.kind {
        Kind::Agreement => Some(sampled::agreement_sides(t)?),
        Kind::Implication => None,
        k => return Err(format!("no symbolic method for kind {k}")),
    };
    // the symbolic work gets a share of the budget; a computation that swells past it is
    // abandoned (the claim is then sampled)
    let now = Instant::now();
    let share = now
        + deadline
            .saturating_duration_since(now)
            .mul_f64(PROVER_SHARE);
    let deadline = deadline.min(share);
    let work = work_bound(spec)?;
    crate::arith::symbolic::poly::with_deadline(deadline, work, || {
        attempt_cells(claim, &params, &cone, sides.as_ref(), deadline)
    })
    .unwrap_or_else(|| {
        Err(format!(
            "the symbolic computation exceeded its share ({work} term products, weighted by coefficient size, or 3/4 of the budget)"
        ))
    })
}

/// The work bound of a claim: `proof.work` (term products, at most [`MAX_PROVER_WORK`])
/// for a proof known to need more than the default [`PROVER_WORK`] (many cells; the
/// budget in seconds still applies).
fn work_bound(spec: &Proof) -> Result<u64, String> {
    match spec.work {
        None => Ok(PROVER_WORK),
        Some(w) => u64::try_from(w)
            .ok()
            .filter(|w| (1..=MAX_PROVER_WORK).contains(w))
            .ok_or(format!(
                "proof.work must be an integer in 1..={MAX_PROVER_WORK} (term products)"
            )),
    }
}

/// The time the symbolic method may take on one claim, as a fraction of the claim's
/// budget (15 s of the default 20 s): a safety net, the work bound below normally stops
/// it first, identically on every machine. The tests, which compare verdicts, give a
/// budget that leaves the work bound alone to decide, even on a loaded machine.
const PROVER_SHARE: f64 = 0.75;
/// The polynomial term products the symbolic method may spend on one claim (each weighted
/// by (1 + bits/256)² for its coefficients' size, [`Poly::mul`]).
const PROVER_WORK: u64 = 3_000_000;
/// The largest `proof.work` a claim file may ask for.
const MAX_PROVER_WORK: u64 = 100_000_000;

fn attempt_cells(
    claim: &Claim,
    params: &[(String, Range)],
    cone: &[String],
    sides: Option<&sampled::Sides>,
    deadline: Instant,
) -> Result<Attempt, String> {
    let t = claim.body();
    let mut certificate = Vec::new();
    let mut tree = Tree {
        source: toml::to_string(claim.table()).unwrap_or_default(),
        ..Tree::default()
    };
    let (mut n_cells, mut outside, mut undefined) = (0usize, 0usize, 0usize);
    let mut refused: Vec<String> = Vec::new();
    for case in sampled::cases(t)? {
        let (cs, used) = cells(&case, params, cone, &mut tree)?;
        for c in &cs {
            tree.root(&case.name, c);
        }
        let mut cs: Vec<Cell> = cs.into_iter().rev().collect();
        let mut budget_cells = MAX_CELLS;
        while let Some(cell) = cs.pop() {
            let cell = &cell;
            if crate::budget::passed(deadline) {
                return Err("(time) the time limit ran out during the symbolic proof".into());
            }
            budget_cells = budget_cells.saturating_sub(1);
            if budget_cells == 0 {
                return Err(format!("more than {MAX_CELLS} cells"));
            }
            take_undecided();
            let positive: Vec<String> = cell
                .charts
                .iter()
                .filter(|c| c.starts_with("t_") || c.starts_with("c_"))
                .cloned()
                .collect();
            crate::arith::symbolic::take_decisions();
            let (r, rads) = with_positive_variables(&positive, || {
                with_radicals(|| (run_cell(t, &case, cell, sides), radicals()))
            });
            let r = r?;
            let facts = crate::arith::symbolic::take_decisions();
            match r {
                CellResult::Holds(signs) => {
                    n_cells += 1;
                    let chart = chart_json(&cell.env);
                    let mut c = json!({
                        "case": case.name,
                        "cell": cell.text,
                        "chart": chart,
                        "decided": signs,
                    });
                    if crate::arith::symbolic::decision_log_enabled() {
                        c["positive"] = json!(positive);
                        c["facts"] = facts_json(&facts);
                        c["radicals"] = radicals_json(&rads);
                    }
                    certificate.push(c);
                }
                CellResult::Outside(why) => {
                    outside += 1;
                    tree.leaf(&case.name, cell, "outside", why);
                }
                CellResult::Undefined => {
                    undefined += 1;
                    tree.leaf(&case.name, cell, "undefined", Value::Null);
                }
                CellResult::False(why) => {
                    if let Some(o) = witness(t, &case, cell, sides, true) {
                        return Ok(Attempt::Decided(o));
                    }
                    // no rational point (e.g. a value in Q(√2)): the cell itself is the
                    // counterexample, its values exact
                    let (chart, rads) = cell_values(&case, cell);
                    return Ok(Attempt::Decided(Outcome::refuted(
                        format!(
                            "{}{why} at every point of the cell {} (decided exactly by the symbolic method)",
                            sampled::label(&case),
                            cell.text
                        ),
                        json!({"cell": cell.text, "chart": chart, "radicals": rads}),
                    )));
                }
                CellResult::Open(why) => {
                    // a sign undecided because of a free real variable: split the cell on
                    // the sign of that variable (negative, zero, positive) and go on
                    let undecided = take_undecided();
                    // a monomial (e.g. a*t_S) has the sign of its free real factors: split
                    // on one of them rather than charting the monomial
                    let free_factor = undecided.iter().rev().find_map(|e| {
                        let one_term = |p: &Poly| p.is_monomial() || p.as_constant().is_some();
                        (one_term(e.numerator()) && one_term(&e.denominator()))
                            .then(|| {
                                e.variables()
                                    .into_iter()
                                    .find(|v| cell.charts.contains(v) && !positive.contains(v))
                            })
                            .flatten()
                    });
                    // a free variable that occurs only squared (e.g. u1_1 in the norm
                    // Σ u_i²/m_i) admits no linear split; its sign split charts it
                    let free_factor =
                        free_factor.or_else(|| even_free_variable(&undecided, cell, &positive));
                    if let Some(f) = free_factor {
                        let parts = split_cell(cell, &f);
                        tree.split(&case.name, &cell.text, &parts);
                        cs.extend(parts);
                        continue;
                    }
                    // the last undecided sign is the one that stopped the law; earlier
                    // ones may come from optional outputs
                    if let Some(parts) = undecided
                        .iter()
                        .rev()
                        .find_map(|e| linear_split(cell, e, &positive))
                    {
                        tree.split(&case.name, &cell.text, &parts);
                        cs.extend(parts);
                        continue;
                    }
                    let free = undecided
                        .iter()
                        .rev()
                        .flat_map(|e| e.variables())
                        .find(|v| cell.charts.contains(v) && !positive.contains(v));
                    if let Some(f) = free {
                        let parts = split_cell(cell, &f);
                        tree.split(&case.name, &cell.text, &parts);
                        cs.extend(parts);
                        continue;
                    }
                    // the corners of the cell only where the law ran on it and a conclusion
                    // stayed open (a run the law could not follow may take long at a corner)
                    let law_ran = !why.contains("the law:") && !why.contains(" side: ");
                    if let Some(o) = witness(t, &case, cell, sides, law_ran) {
                        return Ok(Attempt::Decided(o));
                    }
                    // the law refuses the whole cell (no sign was undecided: e.g. the zone
                    // conditions (6) of FP give two zones on a boundary ray): the claim is
                    // then established on the other cells only
                    if is_refusal(&why) {
                        refused.push(format!("{}{}: {why}", sampled::label(&case), cell.text));
                        tree.leaf(&case.name, cell, "refused", Value::Null);
                        continue;
                    }
                    let label = sampled::label(&case);
                    return Ok(Attempt::NoProof(format!(
                        "{label}cell {}: {why}",
                        cell.text
                    )));
                }
            }
        }
        let _ = used;
    }
    if !refused.is_empty() && n_cells == 0 {
        return Ok(Attempt::NoProof(format!(
            "the law gives no outcome in any cell (first: {})",
            refused[0]
        )));
    }
    if !refused.is_empty() {
        let mut o = Outcome::new(
            Verdict::ProvedOnSubdomain,
            format!(
                "symbolic proof over the domain ({}) except {} where the law gives no outcome (first: {}): {} proved, {outside} outside the hypotheses",
                domain_text(params, cone),
                cells_text(refused.len()),
                refused[0],
                cells_text(n_cells),
            ),
        );
        o.certificate =
            Some(tree.attach(
                json!({"method": "symbolic cells", "cells": certificate, "refused": refused}),
            ));
        return Ok(Attempt::Decided(o));
    }
    // a proof in one dimension may extend to all of them (Gram reduction)
    if let Some(red) = claim.body().proof().and_then(|p| p.reduction.as_ref()) {
        let cert = super::reduction::gram_reduction(claim, red, cone)?;
        let mut o = Outcome::new(
            Verdict::Proved,
            format!(
                "symbolic proof in dimension {} over the domain ({}), {}, {outside} outside the hypotheses, every sign decided exactly; extended to every dimension and every positive definite mass matrix by the Gram reduction (the law is natural: {}; the conclusions compare {})",
                cert["dimension"],
                domain_text(params, cone),
                cells_text(n_cells),
                cert["natural laws"].as_array().map_or(String::new(), |l| l.iter().filter_map(|x| x.as_str()).collect::<Vec<_>>().join("; ")),
                cert["conclusions compare"].as_str().unwrap_or_default(),
            ),
        );
        o.certificate =
            Some(tree.attach(
                json!({"method": "symbolic cells", "cells": certificate, "reduction": cert}),
            ));
        return Ok(Attempt::Decided(o));
    }
    // a proof table may state that its domain is a part of the paper's (a family of
    // systems, e.g. diagonal masses): the verdict then says so
    let sub = claim.body().proof().and_then(|p| p.subdomain.as_deref());
    if let Some(sub) = sub {
        let mut o = Outcome::new(
            Verdict::ProvedOnSubdomain,
            format!(
                "symbolic proof over the stated domain ({}), only a part of the paper's: {sub}; {}, {outside} outside the hypotheses",
                domain_text(params, cone),
                cells_text(n_cells),
            ),
        );
        o.certificate =
            Some(tree.attach(json!({"method": "symbolic cells", "cells": certificate})));
        return Ok(Attempt::Decided(o));
    }
    let mut o = Outcome::new(
        Verdict::Proved,
        format!(
            "symbolic proof over the whole domain ({}) in {}: on {}, {} ran on rational functions and decided every sign exactly; {outside} outside the hypotheses{}",
            domain_text(params, cone),
            cells_text(n_cells),
            if n_cells == 1 { "it" } else { "each" },
            if !claim.body().probes().is_empty() {
                "the law code"
            } else {
                "the claim's expressions"
            },
            if undefined > 0 { format!(", {} where the claim's quantities are undefined", cells_text(undefined)) } else { String::new() },
        ),
    );
    o.certificate = Some(tree.attach(
        json!({"method": "symbolic cells", "cells": certificate, "undefined cells": undefined}),
    ));
    Ok(Attempt::Decided(o))
}

/// `n` cells, in words: `1 cell`, `169 cells` (a cell: docs/concepts.md).
fn cells_text(n: usize) -> String {
    match n {
        1 => "1 cell".into(),
        n => format!("{n} cells"),
    }
}

/// The values of a cell's variables, derived ones included, and the radicals they hold.
fn cell_values(case: &Case, cell: &Cell) -> (serde_json::Map<String, Value>, Vec<Value>) {
    with_radicals(|| {
        let mut env = cell.env.clone();
        let _ = derive_symbolic(case, &mut env);
        let chart = env
            .iter()
            .map(|(k, v)| (k.clone(), show_value(v)))
            .collect();
        let rads = radicals()
            .iter()
            .map(|r| json!({"radical": r.name, "square root of": show_value(&r.radicand)}))
            .collect();
        (chart, rads)
    })
}
