//! `impactkit regress`: per record, every law's outcome and its distance to the engine's;
//! per engine, which law it is nearest to.

use super::sci::Sci;
use super::{tuple_text, Num, Report, TextOptions};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;

/// Longest scenario name in the text summary (longer ones are elided in the middle).
const MAX_NAME: usize = 60;

/// Longest line of a record's text (longer ones are elided in the middle; issue 62).
pub const MAX_LINE: usize = 160;

/// `line` and a newline onto `out`, elided in the middle past [`MAX_LINE`] characters.
fn push_line(out: &mut String, line: &str) {
    let n = line.chars().count();
    if n <= MAX_LINE {
        out.push_str(line);
    } else {
        let keep = MAX_LINE / 2 - 1;
        out.extend(line.chars().take(keep));
        out.push('…');
        out.extend(line.chars().skip(n - keep));
    }
    out.push('\n');
}

/// A scenario's name (the system file's) for text: long ones elided in the middle.
fn name(s: &str) -> std::borrow::Cow<'_, str> {
    match elided(s) {
        (whole, None) => whole.into(),
        (head, Some(tail)) => format!("{head}…{tail}").into(),
    }
}

/// A name as [`name`] prints it: whole, or its first `MAX_NAME/2` and last
/// `MAX_NAME/2 − 1` characters (to go either side of an ellipsis).
fn elided(s: &str) -> (&str, Option<&str>) {
    if s.len() <= MAX_NAME {
        return (s, None);
    }
    let (head, tail) = if s.is_ascii() {
        (MAX_NAME / 2, s.len() - (MAX_NAME / 2 - 1))
    } else {
        let chars = s.chars().count();
        if chars <= MAX_NAME {
            return (s, None);
        }
        // the byte offsets of the first MAX_NAME/2 and the last MAX_NAME/2 − 1 characters
        let at = |k: usize| s.char_indices().nth(k).map_or(s.len(), |(i, _)| i);
        (at(MAX_NAME / 2), at(chars - (MAX_NAME / 2 - 1)))
    };
    (&s[..head], Some(&s[tail..]))
}

/// One law against one record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LawCheck {
    pub law: &'static str,
    pub applies: bool,
    /// The law's outcome nearest to the engine's (empty when the law does not apply;
    /// shared by every record of the scenario).
    pub outcome: Arc<[Num]>,
    /// engine − law, per component: exact, or an enclosure.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub difference: Vec<Num>,
    /// max_i |engine_i − law_i|: exact, or an enclosure.
    pub distance: Option<Num>,
    /// An upper bound of `distance` in f64 (for sorting and scripts).
    pub distance_upper: Option<f64>,
    /// `distance_upper` over the record's speed scale ([`RecordReport::scale`]), f64:
    /// distances of different scenarios made comparable.
    pub relative_distance: Option<f64>,
    /// The law's contacts in impact order (simultaneous ones joined with `+`).
    #[serde(skip_serializing_if = "empty")]
    pub sequence: Arc<[String]>,
    /// Whether the engine's contact order fits the law's (`null`: not reported).
    pub sequence_consistent: Option<bool>,
    /// max_i |engine impulse_i − law impulse_i| over the contacts, when the record gives
    /// `output.impulses` (the law's impulses: M(q̇⁺ − q̇⁻) = Σ λ_i ∇φ_i): exact, or an
    /// enclosure (JSON only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impulse_distance: Option<Num>,
    /// An upper bound of `impulse_distance` in f64.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impulse_distance_upper: Option<f64>,
    pub note: Arc<str>,
}

fn empty<T>(x: &Arc<[T]>) -> bool {
    x.is_empty()
}

static NO_NUMS: std::sync::OnceLock<Arc<[Num]>> = std::sync::OnceLock::new();
static NO_NAMES: std::sync::OnceLock<Arc<[String]>> = std::sync::OnceLock::new();

/// One empty list shared by every law without an outcome (an empty `Arc<[T]>` is still
/// an allocation, and `regress` makes one per such law and record).
fn shared_empty<T>(cell: &std::sync::OnceLock<Arc<[T]>>) -> Arc<[T]> {
    cell.get_or_init(|| Arc::from([])).clone()
}

impl LawCheck {
    /// A law without an outcome, and why (`does not apply: …` or `undecided: …`).
    pub fn not_applying(law: &'static str, why: impl Into<Arc<str>>) -> Self {
        LawCheck {
            law,
            applies: false,
            outcome: shared_empty(&NO_NUMS),
            difference: Vec::new(),
            distance: None,
            distance_upper: None,
            relative_distance: None,
            sequence: shared_empty(&NO_NAMES),
            sequence_consistent: None,
            impulse_distance: None,
            impulse_distance_upper: None,
            note: why.into(),
        }
    }
}

/// The `expect` clause of a record, checked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExpectReport {
    pub law: String,
    pub tolerance: f64,
    pub distance: Option<Num>,
    pub pass: bool,
    pub reason: String,
}

/// One record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RecordReport {
    /// 1-based line of the records file.
    pub line: usize,
    pub id: Option<String>,
    pub engine: String,
    pub version: Option<String>,
    /// The engine's parameter set (`engine.params.set`), if named.
    pub set: Option<String>,
    /// The scenario's name, where it came from (shared by its records).
    pub scenario: Arc<str>,
    pub source: Arc<str>,
    /// The arithmetic of the laws (exact, quadratic, or mpi:BITS enclosures).
    pub arith: Arc<str>,
    /// The speed that relative distances divide by: the record's `scale`, else ‖q̇⁻‖∞
    /// (`null` when q̇⁻ = 0 and the record gives none).
    pub scale: Option<f64>,
    pub laws: Vec<LawCheck>,
    /// Every law that applies gives the same outcome: the record cannot tell them apart.
    pub not_discriminating: bool,
    /// The laws of the nearest outcome (laws with equal outcomes together).
    pub nearest: Vec<&'static str>,
    pub second: Vec<&'static str>,
    /// The nearest is nearer than the second, decided (`null`: undecided or no second).
    pub nearest_certain: Option<bool>,
    /// The kinetic energy before and after (`null` for a record that could not be
    /// checked; absent values are never printed in text).
    pub energy_before: Option<Num>,
    pub energy_after: Option<Num>,
    /// (E_after − E_before)/E_before (f64).
    pub energy_change: Option<f64>,
    /// ‖Δp off span{∇φ}‖_g / ‖p⁻‖_g (f64): momentum no contact impulse can produce.
    pub momentum_defect: Option<f64>,
    pub expect: Option<ExpectReport>,
    /// Why the record could not be checked (bad input), with its line.
    pub error: Option<String>,
    /// Every law's outcome and note (shared by the scenario's records) is known to hold
    /// no non-finite number (checked once for the scenario), so
    /// [`RecordReport::non_finite`] need not read them again.
    #[serde(skip)]
    pub shared_finite: bool,
}

impl RecordReport {
    /// A record that could not be checked.
    pub fn error(line: usize, id: Option<String>, reason: String) -> Self {
        RecordReport {
            line,
            id,
            engine: String::new(),
            version: None,
            set: None,
            scenario: "".into(),
            source: "".into(),
            arith: "".into(),
            scale: None,
            laws: Vec::new(),
            not_discriminating: false,
            nearest: Vec::new(),
            second: Vec::new(),
            nearest_certain: None,
            energy_before: None,
            energy_after: None,
            energy_change: None,
            momentum_defect: None,
            expect: None,
            error: Some(crate::input::one_line(&reason)),
            shared_finite: false,
        }
    }
}

/// Whether a report's number is finite (an exact value always is).
pub fn finite_num(n: &Num) -> bool {
    match n {
        Num::Exact { .. } => true,
        Num::Approx(f) => f.is_finite(),
        Num::Enclosure { lo, hi } => lo.is_finite() && hi.is_finite(),
    }
}

/// Whether `s` holds the word `inf`, `nan` or `NaN` (between characters that are not
/// ASCII letters or digits): one pass over its bytes.
pub fn quotes_non_finite(s: &str) -> bool {
    let b = s.as_bytes();
    let word = |c: Option<&u8>| c.is_some_and(u8::is_ascii_alphanumeric);
    (0..b.len().saturating_sub(2)).any(|i| {
        matches!(&b[i..i + 3], b"inf" | b"nan" | b"NaN")
            && (i == 0 || !word(b.get(i - 1)))
            && !word(b.get(i + 3))
    })
}

/// One engine (name and version) over its records.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineRow {
    pub engine: String,
    pub version: Option<String>,
    pub records: usize,
    pub expectations: usize,
    pub failed: usize,
    /// Per scenario, which laws were the nearest.
    pub scenarios: Vec<ScenarioRow>,
}

/// One scenario of one engine: how often each group of laws (equal outcomes joined with
/// `=`) was the nearest, over the engine's parameter sets.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScenarioRow {
    pub scenario: String,
    /// Every law gives the same outcome here.
    pub not_discriminating: bool,
    pub nearest: Vec<(String, usize)>,
    /// The largest relative distance to the nearest law over the scenario's records,
    /// to the three digits the text prints (`null`: none had one), and the line of the
    /// first record that has it.
    pub worst_relative: Option<f64>,
    pub worst_line: Option<usize>,
}

/// What the summary keeps of one record ([`Summary::add`]): its names, borrowed, and
/// its [`Facts`].
#[derive(Clone, Debug, PartialEq)]
pub struct Tally<'a> {
    pub engine: &'a str,
    pub version: Option<&'a str>,
    pub scenario: &'a str,
    /// The nearest group (its laws joined with `=` in the summary).
    pub nearest: &'a [&'static str],
    pub facts: Facts,
}

/// The plain facts the summary keeps of one record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Facts {
    pub not_discriminating: bool,
    /// `Some(pass)` for a record with an `expect` clause.
    pub expect: Option<bool>,
    pub error: bool,
    pub non_finite: bool,
    /// The record's line and its relative distance to the nearest law.
    pub line: usize,
    pub relative: Option<f64>,
}

impl<'a> Tally<'a> {
    /// What the summary keeps of `r`.
    pub fn of(r: &'a RecordReport) -> Self {
        Tally {
            engine: &r.engine,
            version: r.version.as_deref(),
            scenario: &r.scenario,
            nearest: &r.nearest,
            facts: Facts {
                not_discriminating: r.not_discriminating,
                expect: r.expect.as_ref().map(|x| x.pass),
                error: r.error.is_some(),
                non_finite: r.non_finite(),
                line: r.line,
                relative: r
                    .nearest
                    .first()
                    .and_then(|n| r.laws.iter().find(|l| l.law == *n))
                    .and_then(|l| l.relative_distance)
                    // as printed: both ways of a text report print it alike, not to the bit
                    .map(as_printed),
            },
        }
    }
}

/// A [`Tally`] that owns its names, taken out of the report (which can then be dropped
/// on the thread that made it: `regress` tallies on its workers and sums on one thread).
#[derive(Clone, Debug, PartialEq)]
pub struct OwnedTally {
    engine: String,
    version: Option<String>,
    scenario: Arc<str>,
    nearest: Vec<&'static str>,
    facts: Facts,
}

impl OwnedTally {
    /// What the summary keeps of `r` ([`Tally::of`]).
    pub fn of(r: RecordReport) -> Self {
        let facts = Tally::of(&r).facts;
        OwnedTally {
            engine: r.engine,
            version: r.version,
            scenario: r.scenario,
            nearest: r.nearest,
            facts,
        }
    }

    /// As a [`Tally`] for [`Summary::add`].
    pub fn tally(&self) -> Tally<'_> {
        Tally {
            engine: &self.engine,
            version: self.version.as_deref(),
            scenario: &self.scenario,
            nearest: &self.nearest,
            facts: self.facts,
        }
    }
}

/// `x` rounded as the text prints it (`{:.2e}`), without allocating.
fn as_printed(x: f64) -> f64 {
    Sci::new(x, false).as_str().parse().unwrap_or(x)
}

/// Whether `joined` is `parts` joined by `=`.
fn joins(joined: &str, parts: &[&str]) -> bool {
    let mut rest = joined;
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            let Some(r) = rest.strip_prefix('=') else {
                return false;
            };
            rest = r;
        }
        let Some(r) = rest.strip_prefix(p) else {
            return false;
        };
        rest = r;
    }
    rest.is_empty()
}

/// Most scenario rows per engine in the summary; the records of further scenarios are
/// counted in one last row, [`OTHER_SCENARIOS`].
pub const MAX_SCENARIO_ROWS: usize = 1000;
/// The name of the row that counts the scenarios past [`MAX_SCENARIO_ROWS`].
pub const OTHER_SCENARIOS: &str = "(further scenarios, counted together)";

/// The per-engine summary of a run, accumulated record by record.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub engines: Vec<EngineRow>,
    /// Per engine name, its versions' rows (looked up without allocating).
    engine_index: HashMap<String, Vec<(Option<String>, usize)>>,
    scenario_index: Vec<HashMap<String, usize>>,
    /// Records read (including those with errors).
    pub records: usize,
    /// Expectations that do not hold.
    pub failed: usize,
    /// Records that could not be checked.
    pub errors: usize,
    /// A report held a non-finite number ([`RecordReport::non_finite`]).
    pub non_finite: bool,
    /// The engine row and scenario row of the last record counted: the next record of
    /// the same engine, version and scenario is counted there without a lookup.
    last: Option<(usize, usize)>,
}

impl Summary {
    /// A new row for `t`'s engine and version: its index.
    fn new_engine(&mut self, t: &Tally) -> usize {
        self.engines.push(EngineRow {
            engine: t.engine.to_string(),
            version: t.version.map(String::from),
            records: 0,
            expectations: 0,
            failed: 0,
            scenarios: Vec::new(),
        });
        self.scenario_index.push(HashMap::new());
        let e = self.engines.len() - 1;
        self.engine_index
            .entry(t.engine.to_string())
            .or_default()
            .push((t.version.map(String::from), e));
        e
    }

    /// Counts one record.
    pub fn add(&mut self, t: &Tally) {
        self.records += 1;
        self.non_finite |= t.facts.non_finite;
        if t.facts.error {
            self.errors += 1;
            return;
        }
        let (e, i) = match self.last.filter(|&(e, i)| {
            let row = &self.engines[e];
            row.engine == t.engine
                && row.version.as_deref() == t.version
                && row.scenarios[i].scenario == t.scenario
        }) {
            Some(rows) => rows,
            None => self.rows(t),
        };
        self.last = Some((e, i));
        let row = &mut self.engines[e];
        row.records += 1;
        if let Some(pass) = t.facts.expect {
            row.expectations += 1;
            if !pass {
                row.failed += 1;
                self.failed += 1;
            }
        }
        let sc = &mut row.scenarios[i];
        sc.not_discriminating &= t.facts.not_discriminating;
        if let Some(r) = t
            .facts
            .relative
            .filter(|r| sc.worst_relative.is_none_or(|w| *r > w))
        {
            sc.worst_relative = Some(r);
            sc.worst_line = Some(t.facts.line);
        }
        match sc.nearest.iter_mut().find(|(l, _)| joins(l, t.nearest)) {
            Some((_, n)) => *n += 1,
            None => sc.nearest.push((t.nearest.join("="), 1)),
        }
    }

    /// The engine row and scenario row of `t` (made if new).
    fn rows(&mut self, t: &Tally) -> (usize, usize) {
        let known = self.engine_index.get(t.engine).and_then(|v| {
            v.iter()
                .find(|(version, _)| version.as_deref() == t.version)
        });
        let e = match known {
            Some((_, e)) => *e,
            None => self.new_engine(t),
        };
        let row = &mut self.engines[e];
        let index = &mut self.scenario_index[e];
        let name = if index.len() < MAX_SCENARIO_ROWS || index.contains_key(t.scenario) {
            t.scenario
        } else {
            OTHER_SCENARIOS
        };
        let known = index.get(name).copied();
        let i = known.unwrap_or_else(|| {
            index.insert(name.to_string(), row.scenarios.len());
            row.scenarios.push(ScenarioRow {
                scenario: name.to_string(),
                not_discriminating: t.facts.not_discriminating,
                nearest: Vec::new(),
                worst_relative: None,
                worst_line: None,
            });
            row.scenarios.len() - 1
        });
        (e, i)
    }

    /// The summary in text: per engine and scenario how often each group of laws was
    /// the nearest, and the counts.
    pub fn text(&self) -> String {
        let mut out = "\nnearest law per engine and scenario (times, over the engine's records)\n"
            .to_string();
        for e in &self.engines {
            out += &format!(
                "{} {}: {} records, {} expectations, {} failed\n",
                e.engine,
                e.version.as_deref().unwrap_or("—"),
                e.records,
                e.expectations,
                e.failed
            );
            let width = e
                .scenarios
                .iter()
                .map(|s| s.scenario.chars().count().min(MAX_NAME))
                .max();
            for sc in &e.scenarios {
                let nearest: Vec<String> = sc
                    .nearest
                    .iter()
                    .map(|(l, n)| format!("{l} ({n})"))
                    .collect();
                let worst = match (sc.worst_relative, sc.worst_line) {
                    (Some(r), Some(l)) => {
                        format!("; farthest rel {} (line {l})", Sci::new(r, false))
                    }
                    _ => String::new(),
                };
                let head = format!("  {:<w$} ", name(&sc.scenario), w = width.unwrap_or(0));
                let rest = format!(
                    "{}{}{worst}",
                    nearest.join(", "),
                    if sc.not_discriminating {
                        " — not discriminating"
                    } else {
                        ""
                    },
                );
                // a row past MAX_LINE goes on below its scenario
                match head.chars().count() + rest.chars().count() > MAX_LINE {
                    false => push_line(&mut out, &(head + &rest)),
                    true => {
                        push_line(&mut out, head.trim_end());
                        push_line(&mut out, &format!("    {rest}"));
                    }
                }
            }
        }
        out += &format!(
            "{} records, {} expectations failed, {} records with errors",
            self.records, self.failed, self.errors
        );
        out
    }

    /// The start of the JSON document of a streamed run, up to its first record: the
    /// same document as [`RegressReport`]'s ([`super::Document`]).
    pub fn json_head() -> String {
        let q = |s: &str| serde_json::Value::from(s).to_string();
        format!(
            "{{\"schema\":{},\"version\":{},\"command\":\"regress\",\"records\":[",
            q(super::SCHEMA),
            q(super::VERSION)
        )
    }

    /// The end of the JSON document of a streamed run, after its last record.
    pub fn json_tail(&self) -> String {
        format!(
            "],\"engines\":{},\"failed\":{},\"errors\":{}{}}}",
            serde_json::to_string(&self.engines).unwrap_or_else(|_| "[]".into()),
            self.failed,
            self.errors,
            if self.non_finite {
                ",\"non_finite\":true"
            } else {
                ""
            }
        )
    }
}

/// The whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegressReport {
    pub records: Vec<RecordReport>,
    pub engines: Vec<EngineRow>,
    /// Expectations that do not hold.
    pub failed: usize,
    /// Records that could not be checked (bad input).
    pub errors: usize,
}

impl RegressReport {
    /// The report of `records`, with the engine summary.
    pub fn of(records: Vec<RecordReport>) -> Self {
        let s = Self::summary(&records);
        RegressReport {
            engines: s.engines,
            records,
            failed: s.failed,
            errors: s.errors,
        }
    }

    fn summary(records: &[RecordReport]) -> Summary {
        let mut s = Summary::default();
        for r in records {
            s.add(&Tally::of(r));
        }
        s
    }
}

/// `x` as the text prints a distance: `{:.2e}`, or `—` for none.
fn put_short(out: &mut String, x: Option<f64>) {
    match x {
        Some(d) => out.push_str(Sci::new(d, false).as_str()),
        None => out.push('—'),
    }
}

/// `names` joined by `sep`.
fn join(out: &mut String, names: &[&str], sep: &str) {
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(n);
    }
}

impl Report for RegressReport {
    fn text(&self, o: &TextOptions) -> String {
        let mut out: String = self.records.iter().map(|r| r.text(o)).collect();
        out += &Self::summary(&self.records).text();
        out
    }
}

impl RecordReport {
    /// The record's lines in text (each ending with a newline): the record, then the
    /// nearest law and the expectation, each line under [`MAX_LINE`] characters.
    pub fn text(&self, o: &TextOptions) -> String {
        self.text_with(o, false)
    }

    /// The record's lines in text; with `detail` (`regress --detail`) also the distances,
    /// the second-nearest law, the energy change, the momentum defect, the impulses and
    /// the contact order, a line each.
    pub fn text_with(&self, o: &TextOptions, detail: bool) -> String {
        use std::fmt::Write;
        let r = self;
        if let Some(e) = &r.error {
            return format!("line {}: error: {e}\n", r.line);
        }
        let mut out = String::with_capacity(256);
        let law = |n: Option<&&str>| n.and_then(|n| r.laws.iter().find(|l| l.law == *n));
        let near = |out: &mut String, names: &[&str]| {
            join(out, names, "=");
            let l = law(names.first());
            out.push_str(" (");
            if detail {
                put_short(out, l.and_then(|l| l.distance_upper));
                out.push_str(", ");
            }
            out.push_str("rel ");
            put_short(out, l.and_then(|l| l.relative_distance));
            out.push(')');
        };
        // the record: line, id, engine and set, scenario
        let mut line = String::with_capacity(160);
        line.push_str("line ");
        line.push_str(itoa::Buffer::new().format(r.line));
        if let Some(id) = &r.id {
            line.push(' ');
            line.push_str(&name(id));
        }
        line.push_str(" [");
        line.push_str(&r.engine);
        if let Some(set) = &r.set {
            line.push(' ');
            line.push_str(set);
        }
        line.push_str("] ");
        // the scenario whole where the line has room, else elided
        match line.chars().count() + r.scenario.chars().count() > MAX_LINE {
            true => line.push_str(&name(&r.scenario)),
            false => line.push_str(&r.scenario),
        }
        push_line(&mut out, &line);
        // the nearest law and the verdict on the expectation
        line.clear();
        line.push_str("  nearest ");
        near(&mut line, &r.nearest);
        if r.not_discriminating {
            line.push_str("; not discriminating");
        }
        match &r.expect {
            Some(x) if x.pass => {
                let _ = write!(line, "; expect {} ok", x.law);
            }
            Some(x) => {
                let _ = write!(line, "; expect {} FAILED ({})", x.law, x.reason);
            }
            None => {}
        }
        push_line(&mut out, &line);
        if detail {
            line.clear();
            line.push_str("  then ");
            match r.second.is_empty() {
                true => line.push('—'),
                false => near(&mut line, &r.second),
            }
            push_line(&mut out, &line);
            line.clear();
            line.push_str("  ΔE/E ");
            match r.energy_change {
                Some(d) => line.push_str(Sci::new(d, true).as_str()),
                None => line.push('—'),
            }
            line.push_str(", momentum defect ");
            put_short(&mut line, r.momentum_defect);
            if let Some(d) = law(r.nearest.first()).and_then(|l| l.impulse_distance_upper) {
                line.push_str(", impulses ");
                line.push_str(Sci::new(d, false).as_str());
                line.push_str(" from the nearest");
            }
            push_line(&mut out, &line);
            if r.laws.iter().any(|l| l.sequence_consistent.is_some()) {
                let fits: Vec<&str> = r
                    .laws
                    .iter()
                    .filter(|l| l.sequence_consistent == Some(true))
                    .map(|l| l.law)
                    .collect();
                line.clear();
                match fits.is_empty() {
                    true => line.push_str("  contact order fits no law"),
                    false => {
                        line.push_str("  contact order fits ");
                        join(&mut line, &fits, ", ");
                    }
                }
                push_line(&mut out, &line);
            }
        }
        if o.exact_values {
            for l in r.laws.iter().filter(|l| l.applies) {
                let _ = writeln!(out, "    {:<18} {}", l.law, tuple_text(&l.outcome, o));
            }
        }
        out
    }

    /// Whether the report holds a non-finite number: a rounded value or an enclosure
    /// bound that overflowed, or a note quoting one (as [`super::has_non_finite`] finds
    /// in its JSON).
    pub fn non_finite(&self) -> bool {
        let word = quotes_non_finite;
        let num = |n: &Num| !finite_num(n);
        let nums = |xs: &[Num]| xs.iter().any(num);
        self.laws.iter().any(|l| {
            (!self.shared_finite && nums(&l.outcome))
                || nums(&l.difference)
                || l.distance.as_ref().is_some_and(num)
                || l.distance_upper.is_some_and(|d| !d.is_finite())
                || (!self.shared_finite && word(&l.note))
        }) || self.energy_before.as_ref().is_some_and(num)
            || self.energy_after.as_ref().is_some_and(num)
            || self
                .expect
                .as_ref()
                .is_some_and(|x| x.distance.as_ref().is_some_and(num) || word(&x.reason))
            || self.error.as_deref().is_some_and(|e| word(&unquoted(e)))
    }
}

/// `s` without its double-quoted parts: an error quoting the record's own text
/// (`invalid type: string "nan"`) is not a non-finite result (issue 63, D14).
fn unquoted(s: &str) -> String {
    s.split('"').step_by(2).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words, not their letters inside other words; non-ASCII text separates words.
    #[test]
    fn quoted_input_is_not_a_non_finite_result() {
        assert_eq!(
            unquoted(r#"invalid type: string "nan", expected f64"#),
            "invalid type: string  , expected f64"
        );
        assert!(quotes_non_finite(&unquoted("the bound is inf")));
    }

    #[test]
    fn non_finite_words_are_found_as_words() {
        for s in ["inf", "x = inf", "(NaN)", "nan,1", "é—inf—é", "a inf"] {
            assert!(quotes_non_finite(s), "{s}");
        }
        for s in [
            "", "in", "infinite", "info", "banana", "Nan", "INF", "nan2", "xinf",
        ] {
            assert!(!quotes_non_finite(s), "{s}");
        }
    }

    /// The owned tally is the borrowed one.
    #[test]
    fn an_owned_tally_is_the_reports_tally() {
        let mut r = RecordReport::error(7, Some("a".into()), "x".into());
        r.error = None;
        r.engine = "box2d".into();
        r.version = Some("3".into());
        r.scenario = "cradle3".into();
        r.nearest = vec!["newton-touching"];
        let mut l = LawCheck::not_applying("newton-touching", "");
        l.relative_distance = Some(1.2345e-3);
        r.laws.push(l);
        let want = format!("{:?}", Tally::of(&r));
        let owned = OwnedTally::of(r);
        assert_eq!(format!("{:?}", owned.tally()), want);
        assert_eq!(owned.tally().facts.relative, Some(1.23e-3));
    }

    /// Long names keep their first 30 and last 29 characters around an ellipsis,
    /// counted in characters, not bytes.
    #[test]
    fn long_names_are_elided_in_the_middle() {
        assert_eq!(name("cradle3"), "cradle3");
        let exact: String = "é".repeat(MAX_NAME);
        assert_eq!(name(&exact), exact);
        let long: String = (0..70).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
        let want = format!("{}…{}", &long[..30], &long[41..]);
        assert_eq!(name(&long), want);
        let wide: String = "αβγ".repeat(30);
        let c: Vec<char> = wide.chars().collect();
        let want: String = c[..30].iter().chain(['…'].iter()).chain(&c[61..]).collect();
        assert_eq!(name(&wide), want);
        assert_eq!(name(&wide).chars().count(), MAX_NAME);
    }

    /// A note is read for non-finite words unless the scenario checked it once.
    #[test]
    fn shared_parts_are_read_unless_checked_by_the_scenario() {
        let mut r = RecordReport::error(1, None, "x".into());
        r.error = None;
        r.laws
            .push(LawCheck::not_applying("newton-touching", "stopped at inf"));
        assert!(r.non_finite());
        r.shared_finite = true;
        assert!(!r.non_finite());
    }
}
