//! `impactkit step`: the variational time stepper of Seghete–Murphey Sect. VI with
//! simultaneous impacts — nodes, impacts, and what the run conserves.

use super::{tuple_text, Num, Report, TextOptions};
use crate::figure::{Entry, Figure, Mark, Style};
use plotters::prelude::{Color, DashedLineSeries, DrawingArea, DrawingBackend, LineSeries, WHITE};
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
    /// `--compare-orders`: the indeterminacy between this run and the same run with the
    /// other order of the reflections (Seghete–Murphey Sect. VII-B, Fig. 8).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indeterminacy: Option<IndeterminacyReport>,
}

/// ξ at one node.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct XiRow {
    pub step: usize,
    pub t: Num,
    /// ξ² = ‖p_a − p_b‖²_g / ‖p_a‖²_g; `null` where p_a = 0.
    pub xi_squared: Option<Num>,
    /// ξ; `null` also where √(ξ²) is not in the backend's field (exact backends) or an
    /// enclosure of ξ² reaches below 0.
    pub xi: Option<Num>,
}

/// Two runs of one system, the reflections in the two orders, compared node by node.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IndeterminacyReport {
    /// The order of the second run (the first is the report's `order`).
    pub against: &'static str,
    /// What ξ is.
    pub measure: &'static str,
    pub nodes: Vec<XiRow>,
    /// The node of the largest ξ (its upper bound on enclosures).
    pub largest: Option<XiRow>,
    /// The first node with ξ > 0 (decided on enclosures).
    pub first_nonzero: Option<XiRow>,
    /// The second run's impacts and why it stopped early, if it did.
    pub other_impacts: usize,
    pub other_stopped: Option<String>,
}

/// The measure of [`IndeterminacyReport`].
pub const XI_MEASURE: &str = "xi = |p_a - p_b|_g / |p_a|_g at every node, the norm of M(q_a)^-1 (SM (31), Sect. VII-B Fig. 8)";

impl IndeterminacyReport {
    fn text(&self, o: &TextOptions) -> String {
        let at = |r: &XiRow| {
            let v = match (&r.xi, &r.xi_squared) {
                (Some(x), _) => x.text(o),
                (None, Some(x2)) => format!("sqrt({})", x2.text(o)),
                (None, None) => "undefined (p_a = 0)".into(),
            };
            format!("{v} at t = {}", r.t.text(o))
        };
        let mut s = format!(
            "indeterminacy against the {} order ({}):\n",
            self.against, self.measure
        );
        s += &match &self.first_nonzero {
            Some(r) => format!("  first xi > 0: {}\n", at(r)),
            None => "  xi = 0 at every node (the two orders agree)\n".into(),
        };
        if let Some(r) = &self.largest {
            s += &format!("  largest xi: {}\n", at(r));
        }
        if let Some(r) = self.nodes.last() {
            s += &format!("  last node: xi = {}\n", at(r));
        }
        s += &format!(
            "  the {} run: {} impact(s){}\n",
            self.against,
            self.other_impacts,
            self.other_stopped
                .as_ref()
                .map(|w| format!(", stopped early: {w}"))
                .unwrap_or_default()
        );
        s
    }
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
        if let Some(x) = &self.indeterminacy {
            s += &x.text(o);
        }
        s
    }
}

/// The coordinates against time, one panel per coordinate (so that a large motion of one
/// does not flatten the bounces of another), through the nodes and the impact
/// configurations, with the impact times as dashed vertical lines.
pub struct StepFigure<'a> {
    report: &'a StepReport,
    /// (t, q) of every node and impact, in time order.
    points: Vec<(f64, Vec<f64>)>,
}

/// The most panels drawn (one per coordinate); further coordinates are in the report.
const MAX_PANELS: usize = 8;

impl<'a> StepFigure<'a> {
    /// The figure of a run.
    pub fn new(r: &'a StepReport) -> StepFigure<'a> {
        let mut points: Vec<(f64, Vec<f64>)> = r
            .nodes
            .iter()
            .map(|n| (n.t.to_f64(), n.q.iter().map(Num::to_f64).collect()))
            .chain(
                r.impacts
                    .iter()
                    .map(|i| (i.time.to_f64(), i.q.iter().map(Num::to_f64).collect())),
            )
            .filter(|(t, q): &(f64, Vec<f64>)| t.is_finite() && q.iter().all(|x| x.is_finite()))
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        StepFigure { report: r, points }
    }

    fn panels(&self) -> usize {
        self.report.coordinates.len().clamp(1, MAX_PANELS)
    }
}

impl Figure for StepFigure<'_> {
    fn size(&self) -> (u32, u32) {
        (960, 70 + 170 * self.panels() as u32)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, plotters::coord::Shift>,
        st: &Style,
    ) -> Result<(), String>
    where
        DB::ErrorType: 'static,
    {
        use crate::figure as style;
        let r = self.report;
        let shown = &r.coordinates[..r.coordinates.len().min(MAX_PANELS)];
        let mut legend: Vec<Entry> = shown
            .iter()
            .enumerate()
            .map(|(j, name)| Entry::new(format!("{name}(t)"), Mark::Line(style::series(j))))
            .collect();
        if !r.impacts.is_empty() {
            legend.push(Entry::new("impact time", Mark::Dashed(style::GUIDE)));
        }
        if r.coordinates.len() > MAX_PANELS {
            legend.push(Entry::new(
                format!(
                    "({} more coordinates in the report)",
                    r.coordinates.len() - MAX_PANELS
                ),
                Mark::Line(WHITE),
            ));
        }
        let title = format!(
            "Coordinates against time: {}, {} impacts, step h = {}",
            r.system,
            r.law,
            r.dt.text(&TextOptions::default())
        );
        let area = st.titled(area, &title)?;
        let data = style::legend_right(&area, st, &legend)?;
        let t1 = self.points.last().map_or(1.0, |p| p.0).max(1e-12);
        let rows = data.split_evenly((self.panels(), 1));
        for (j, (name, panel)) in shown.iter().zip(&rows).enumerate() {
            let (lo, hi) = self
                .points
                .iter()
                .map(|p| p.1[j])
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                    (a.min(x), b.max(x))
                });
            let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
            let pad = ((hi - lo) * 0.08).max(1e-9);
            let (lo, hi) = (lo - pad, hi + pad);
            let last = j + 1 == shown.len();
            let mut b = st.chart(panel, None);
            if !last {
                b.x_label_area_size(st.px(20.0));
            }
            let mut chart = b.build_cartesian_2d(0.0..t1, lo..hi).map_err(style::de)?;
            let fy = style::decimal_ticks(hi - lo);
            let fx = style::decimal_ticks(t1);
            let mut mesh = chart.configure_mesh();
            st.mesh(&mut mesh)
                .y_desc(name.as_str())
                .y_label_formatter(&fy)
                .x_label_formatter(&fx)
                .y_labels(5);
            if last {
                mesh.x_desc("t");
            }
            mesh.draw().map_err(style::de)?;
            for i in &r.impacts {
                let t = i.time.to_f64();
                if t.is_finite() {
                    chart
                        .draw_series(DashedLineSeries::new(
                            vec![(t, lo), (t, hi)],
                            st.size(4.0),
                            st.size(3.0),
                            style::GUIDE.stroke_width(st.size(1.0)),
                        ))
                        .map_err(style::de)?;
                }
            }
            chart
                .draw_series(LineSeries::new(
                    self.points.iter().map(|p| (p.0, p.1[j])),
                    style::series(j).stroke_width(st.size(2.0)),
                ))
                .map_err(style::de)?;
        }
        Ok(())
    }
}

/// Several `step --compare-orders` runs (one per system file), as one report: `runs`, in
/// the order of the files.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepRuns {
    pub runs: Vec<StepReport>,
}

impl Report for StepRuns {
    fn text(&self, o: &TextOptions) -> String {
        let texts: Vec<String> = self.runs.iter().map(|r| r.text(o)).collect();
        texts.join("\n")
    }
}

/// The indeterminacy ξ(t) of `--compare-orders` runs on a log axis, one curve per run
/// (Seghete–Murphey Fig. 8: the two gaits of TREX); exact zeros drawn on a row a decade
/// below the smallest nonzero ξ, labelled 0.
pub struct IndeterminacyFigure<'a> {
    runs: Vec<&'a StepReport>,
}

impl<'a> IndeterminacyFigure<'a> {
    /// The figure of the runs that carry an indeterminacy; `None` if none does.
    pub fn new(runs: &'a [StepReport]) -> Option<IndeterminacyFigure<'a>> {
        let runs: Vec<&StepReport> = runs.iter().filter(|r| r.indeterminacy.is_some()).collect();
        (!runs.is_empty()).then_some(IndeterminacyFigure { runs })
    }

    /// (t, ξ) of a run: ξ's upper bound on enclosures; undecided nodes left out.
    fn points(r: &StepReport) -> Vec<(f64, f64)> {
        let Some(x) = &r.indeterminacy else {
            return Vec::new();
        };
        x.nodes
            .iter()
            .filter_map(|n| {
                let v = match (&n.xi, n.xi_squared.as_ref()?) {
                    (_, Num::Enclosure { hi, .. }) => hi.to_f64().max(0.0).sqrt(),
                    (Some(xi), _) => xi.to_f64(),
                    (None, x2) => x2.to_f64().max(0.0).sqrt(),
                };
                Some((n.t.to_f64(), v))
            })
            .filter(|(t, v)| t.is_finite() && v.is_finite() && *v >= 0.0)
            .collect()
    }
}

impl Figure for IndeterminacyFigure<'_> {
    fn size(&self) -> (u32, u32) {
        (1280, 560)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, plotters::coord::Shift>,
        st: &Style,
    ) -> Result<(), String>
    where
        DB::ErrorType: 'static,
    {
        use crate::figure as style;
        use plotters::coord::types::RangedCoordf64;
        use plotters::prelude::IntoLogRange;
        use plotters::prelude::LogCoord;
        let curves: Vec<Vec<(f64, f64)>> = self.runs.iter().map(|r| Self::points(r)).collect();
        let values: Vec<f64> = curves.iter().flatten().map(|p| p.1).collect();
        let (lo, ymax, ticks, zero) = style::log_rows(&values, 1e-300);
        let t1 = curves.iter().flatten().map(|p| p.0).fold(1e-12, f64::max);
        let legend: Vec<Entry> = self
            .runs
            .iter()
            .enumerate()
            .map(|(j, r)| Entry::new(r.system.clone(), Mark::Line(style::series(j))))
            .collect();
        let first = self.runs[0];
        let title = format!(
            "Indeterminacy of the impact order ({} against {}), {} law, h = {}",
            first.order,
            first.indeterminacy.as_ref().map_or("", |x| x.against),
            first.law,
            first.dt.text(&TextOptions {
                digits: 6,
                exact_values: false
            })
        );
        let area = st.titled(area, &title)?;
        let data = style::legend_right(&area, st, &legend)?;
        let mut chart = st
            .chart(&data, None)
            .build_cartesian_2d(
                RangedCoordf64::from(0.0..t1),
                style::Ticked::<LogCoord<f64>>::new((lo..ymax).log_scale().into(), ticks),
            )
            .map_err(style::de)?;
        let fx = style::decimal_ticks(t1);
        let fy = |v: &f64| match zero {
            Some(z) if *v == z => "0".to_string(),
            _ => style::log_label(v),
        };
        st.mesh(&mut chart.configure_mesh())
            .x_desc("t")
            .x_label_formatter(&fx)
            .y_desc("xi = |p_a - p_b|_g / |p_a|_g")
            .y_label_formatter(&fy)
            .draw()
            .map_err(style::de)?;
        for (j, c) in curves.iter().enumerate() {
            chart
                .draw_series(LineSeries::new(
                    c.iter()
                        .map(|&(t, v)| (t, if v > 0.0 { v } else { zero.unwrap_or(lo) })),
                    style::series(j).stroke_width(st.size(2.0)),
                ))
                .map_err(style::de)?;
        }
        Ok(())
    }
}
