//! `impactkit step`: the variational time stepper of Seghete–Murphey Sect. VI with
//! simultaneous impacts — nodes, impacts, and what the run conserves.

use super::{tuple_text, Num, Report, TextOptions};
use serde::Serialize;

/// One node t_k: configuration, discrete momentum (29) and energy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeRow {
    pub step: usize,
    pub t: Num,
    pub q: Vec<Num>,
    pub p: Vec<Num>,
    pub energy: Num,
}

/// One impact, resolved by the step (30).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ImpactRow {
    /// The step k with t_k < t* ≤ t_{k+1} (t* = t_k for an impact at a node).
    pub step: usize,
    pub time: Num,
    /// The contacts closed at t* (their names).
    pub active: Vec<String>,
    /// The reflections Γ(w_i) applied, in order (elastic and inelastic impacts).
    pub sequence: Vec<String>,
    /// elastic | plastic | inelastic | plastic (Zeno rule).
    pub resolution: &'static str,
    pub q: Vec<Num>,
    /// p*⁻ = F⁺(t_k, t*).
    pub before: Vec<Num>,
    /// p*⁺.
    pub after: Vec<Num>,
    pub energy_before: Num,
    pub energy_after: Num,
}

/// A contact coming to rest (held) or leaving rest (released).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RestRow {
    /// The step k with t_k ≤ t < t_{k+1}.
    pub step: usize,
    pub time: Num,
    pub contact: String,
    pub held: bool,
}

/// How a quantity the paper says is conserved behaved over the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kept {
    /// Every difference is exactly zero.
    Exactly,
    /// Every difference is an enclosure containing 0 (its width is the deviation).
    ToEnclosureWidth,
    /// Floating point: every difference is within rounding (relative 2⁻²⁰).
    ToRounding,
    /// A difference is decided nonzero.
    No,
    /// Nothing to compare (no elastic impact, …).
    NotApplicable,
}

/// One conservation check.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConservationRow {
    /// What is compared.
    pub quantity: String,
    /// Where the paper says so (or why the scheme gives it).
    pub reference: &'static str,
    pub kept: Kept,
    /// How many values were compared.
    pub compared: usize,
    /// The largest |difference| (a bound), when not exactly zero; an overflowed bound is
    /// written `{"approx": "inf"}` (flagged `non_finite`), never `null`.
    #[serde(serialize_with = "finite_or_flagged")]
    pub largest_deviation: Option<f64>,
}

/// A bound as a JSON number, or `{"approx": "inf"}` / `{"approx": "NaN"}` when not finite
/// (JSON has no such numbers; `serde_json` would write `null`).
fn finite_or_flagged<S: serde::Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    match x {
        Some(v) if !v.is_finite() => {
            let mut m = s.serialize_map(Some(1))?;
            m.serialize_entry("approx", &v.to_string())?;
            m.end()
        }
        other => serde::Serialize::serialize(other, s),
    }
}

/// The report of `impactkit step`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepReport {
    pub system: String,
    pub coordinates: Vec<String>,
    pub law: String,
    /// argmin | argmax: the order of the reflections of an elastic impact.
    pub order: &'static str,
    pub arith: String,
    pub dt: Num,
    pub steps: usize,
    pub nodes: Vec<NodeRow>,
    pub impacts: Vec<ImpactRow>,
    pub rests: Vec<RestRow>,
    /// How many impacts the Zeno rule made plastic.
    pub zeno_rule_fired: usize,
    pub conservation: Vec<ConservationRow>,
    /// Why the run stopped before the last step, if it did.
    pub stopped: Option<String>,
}

impl Kept {
    fn text(self) -> &'static str {
        match self {
            Kept::Exactly => "kept exactly",
            Kept::ToEnclosureWidth => "kept to enclosure width",
            Kept::ToRounding => "kept to rounding",
            Kept::No => "NOT kept",
            Kept::NotApplicable => "nothing to compare",
        }
    }
}

impl Report for StepReport {
    fn text(&self, o: &TextOptions) -> String {
        let mut s = format!(
            "{}: {} law ({} order), dt = {}, {} steps, {}\ncoordinates {}\n",
            self.system,
            self.law,
            self.order,
            self.dt.text(o),
            self.steps,
            self.arith,
            self.coordinates.join(", ")
        );
        let mut impacts = self.impacts.iter().peekable();
        let mut rests = self.rests.iter().peekable();
        for n in &self.nodes {
            while let Some(i) = impacts.next_if(|i| i.step < n.step) {
                s += &format!(
                    "  impact at t* = {}: {} [{}], reflections [{}]\n    p- = {}\n    p+ = {}\n    energy {} -> {}\n",
                    i.time.text(o),
                    i.resolution,
                    i.active.join(", "),
                    i.sequence.join(", "),
                    tuple_text(&i.before, o),
                    tuple_text(&i.after, o),
                    i.energy_before.text(o),
                    i.energy_after.text(o),
                );
            }
            while let Some(r) = rests.next_if(|r| r.step < n.step) {
                s += &format!(
                    "  contact {} {} at t = {}\n",
                    r.contact,
                    if r.held {
                        "comes to rest"
                    } else {
                        "is released"
                    },
                    r.time.text(o)
                );
            }
            s += &format!(
                "t{} = {}  q = {}  p = {}  E = {}\n",
                n.step,
                n.t.text(o),
                tuple_text(&n.q, o),
                tuple_text(&n.p, o),
                n.energy.text(o)
            );
        }
        if self.zeno_rule_fired > 0 {
            s += &format!(
                "Zeno rule: {} impact(s) resolved plastically (a contact hit again within one step)\n",
                self.zeno_rule_fired
            );
        }
        s += "conservation:\n";
        for c in &self.conservation {
            let dev = c
                .largest_deviation
                .map(|d| format!(" (largest deviation {d:.3e})"))
                .unwrap_or_default();
            s += &format!(
                "  {}: {} over {} value(s){dev} [{}]\n",
                c.quantity,
                c.kept.text(),
                c.compared,
                c.reference
            );
        }
        if let Some(why) = &self.stopped {
            s += &format!("stopped early: {why}\n");
        }
        s
    }
}

/// The coordinates against time (one line per coordinate through the nodes and the
/// impact configurations), with the impact times as dashed vertical lines, as SVG
/// (plotters). Drawing only: the numbers are in the report.
pub fn svg(r: &StepReport) -> Result<String, String> {
    use plotters::prelude::*;
    crate::audit::figure::font()?;
    let mut out = String::new();
    {
        let area = SVGBackend::with_string(&mut out, (800, 520)).into_drawing_area();
        let e = |x: DrawingAreaErrorKind<_>| x.to_string();
        area.fill(&WHITE).map_err(e)?;
        // (t, q) of every node and impact, in time order.
        let mut pts: Vec<(f64, Vec<f64>)> = r
            .nodes
            .iter()
            .map(|n| {
                (
                    n.t.to_f64(),
                    n.q.iter().map(Num::to_f64).collect::<Vec<f64>>(),
                )
            })
            .chain(
                r.impacts
                    .iter()
                    .map(|i| (i.time.to_f64(), i.q.iter().map(Num::to_f64).collect())),
            )
            .filter(|(t, q)| t.is_finite() && q.iter().all(|x| x.is_finite()))
            .collect();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let t1 = pts.last().map_or(1.0, |p| p.0).max(1e-12);
        let (lo, hi) = pts
            .iter()
            .flat_map(|p| p.1.iter().copied())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                (a.min(x), b.max(x))
            });
        let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
        let pad = ((hi - lo) * 0.08).max(1e-9);
        let mut chart = ChartBuilder::on(&area)
            .caption(
                format!(
                    "{} ({} law, dt = {})",
                    r.system,
                    r.law,
                    r.dt.text(&TextOptions::default())
                ),
                ("sans-serif", 16),
            )
            .margin(16)
            .x_label_area_size(46)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..t1, (lo - pad)..(hi + pad))
            .map_err(e)?;
        chart
            .configure_mesh()
            .x_desc("t")
            .y_desc("q")
            .label_style(("sans-serif", 13))
            .draw()
            .map_err(e)?;
        for (j, name) in r.coordinates.iter().enumerate() {
            let c = super::penny_figure::PALETTE[j % super::penny_figure::PALETTE.len()];
            chart
                .draw_series(LineSeries::new(
                    pts.iter().map(|p| (p.0, p.1[j])),
                    c.stroke_width(2),
                ))
                .map_err(e)?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c));
        }
        for i in &r.impacts {
            let t = i.time.to_f64();
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(t, lo - pad), (t, hi + pad)],
                    4,
                    3,
                    RGBColor(150, 150, 150).into(),
                ))
                .map_err(e)?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 13))
            .draw()
            .map_err(e)?;
        area.present().map_err(e)?;
    }
    Ok(out)
}
