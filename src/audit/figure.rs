//! The figure of an audit (plotters, SVG and PNG): over two varying axes, a map of the
//! domain with every sample coloured by what the audited arithmetic did (same branches,
//! another branch, another termination, reference undecided); over one axis, the
//! relative distance of every sample's final state to the true one (log scale), coloured
//! the same way.

use super::record::Record;
use crate::figure::{self as style, Entry, Figure, Mark, Style};
use plotters::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The figures written, or why none was.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figures {
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub files: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub skipped: Option<String>,
}

impl Figures {
    /// One line per figure, for text reports; `dir`: the folder the figures are in, shown before each name as the `records:`
    /// line shows its file (one kind of path for every file of the report).
    pub fn text(&self, dir: Option<&str>) -> String {
        let mut out = String::new();
        for f in &self.files {
            match dir {
                Some(d) => out += &format!("figure: {d}/{f}\n"),
                None => out += &format!("figure: {f}\n"),
            }
        }
        if let Some(why) = &self.skipped {
            out += &format!("no figure: {why}\n");
        }
        out
    }
}

/// What a sample shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Category {
    Same,
    OtherBranch,
    OtherTermination,
    Undecided,
    NoReference,
}

const CATEGORIES: [(Category, &str, RGBColor); 5] = [
    (Category::Same, "same branches", style::COMMON),
    (
        Category::OtherBranch,
        "another branch, same termination",
        style::PALETTE[1],
    ),
    (
        Category::OtherTermination,
        "another termination",
        style::PALETTE[3],
    ),
    (
        Category::Undecided,
        "reference undecided",
        style::PALETTE[6],
    ),
    (Category::NoReference, "audited run only", style::PALETTE[0]),
];

fn category(r: &Record) -> Category {
    match (&r.comparison, &r.undecided) {
        (Some(c), _) if c.same_zones => Category::Same,
        (Some(c), _) if c.same_termination => Category::OtherBranch,
        (Some(_), _) => Category::OtherTermination,
        (None, Some(_)) => Category::Undecided,
        (None, None) => Category::NoReference,
    }
}

/// The smallest relative distance drawn (0 is drawn there).
const FLOOR: f64 = 1e-20;

fn range(xs: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    if !lo.is_finite() || !hi.is_finite() {
        return (0.0, 1.0);
    }
    let pad = if hi > lo {
        (hi - lo) * 0.03
    } else {
        lo.abs().max(1.0) * 0.05
    };
    (lo - pad, hi + pad)
}

/// The figure of an audit: what it draws and the points.
struct AuditFigure<'a> {
    what: &'a str,
    axes: &'a [String],
    /// Per axis, whether it is labelled in multiples of π.
    pi_axes: &'a [bool],
    records: &'a [Record],
}

/// A linear axis over `lo..hi` with its ticks: multiples of π where the user gave the
/// axis so, else decimal.
fn linear_axis(
    lo: f64,
    hi: f64,
    pi: bool,
) -> style::Ticked<plotters::coord::types::RangedCoordf64> {
    let ticks = match pi {
        true => style::pi_ticks(lo, hi),
        false => style::linear_ticks(lo, hi),
    };
    style::Ticked::new((lo..hi).into(), ticks)
}

/// The tick labels of [`linear_axis`].
fn linear_labels(lo: f64, hi: f64, pi: bool) -> Box<dyn Fn(&f64) -> String> {
    match pi {
        true => Box::new(style::pi_label),
        false => Box::new(style::decimal_ticks(hi - lo)),
    }
}

/// The rows of the log axis of distances ([`style::log_rows`] above [`FLOOR`]; issue 62:
/// zeros sat at an unmarked 10⁻²⁰).
fn log_rows(rels: &[f64]) -> (f64, f64, Vec<f64>, Option<f64>) {
    style::log_rows(rels, FLOOR)
}

/// The categories present, most numerous first (drawn first, so that the rare ones lie
/// on top), each with its count and whether it is rare (under 5 % of the samples, and
/// not "same branches"): rare classes are drawn larger and ringed.
fn classes(records: &[Record]) -> Vec<(Category, String, RGBColor, usize, bool)> {
    let mut out: Vec<_> = CATEGORIES
        .iter()
        .map(|&(cat, name, color)| {
            let n = records.iter().filter(|r| category(r) == cat).count();
            let rare = cat != Category::Same && n * 20 < records.len();
            (cat, format!("{name} ({n})"), color, n, rare)
        })
        .filter(|c| c.3 > 0)
        .collect();
    out.sort_by_key(|c| std::cmp::Reverse(c.3));
    out
}

impl AuditFigure<'_> {
    /// The distance drawn for a record (relative, else absolute; an upper bound), 0 or
    /// at least [`FLOOR`].
    fn rel(r: &Record) -> Option<f64> {
        r.comparison.as_ref().map(|c| {
            let d = c.relative_distance.map_or(c.distance.hi, |b| b.hi);
            match d > 0.0 {
                true => d.max(FLOOR),
                false => 0.0,
            }
        })
    }

    /// One series per class at `point` of each record.
    fn points<'a, DB, CT>(
        &self,
        chart: &mut ChartContext<'a, DB, CT>,
        st: &Style,
        point: impl Fn(&Record) -> (f64, f64),
    ) -> Result<(), String>
    where
        DB: DrawingBackend + 'a,
        DB::ErrorType: 'static,
        CT: plotters::coord::CoordTranslate<From = (f64, f64)>,
    {
        for (cat, _, color, _, rare) in classes(self.records) {
            chart
                .draw_series(
                    self.records
                        .iter()
                        .filter(|r| category(r) == cat)
                        .flat_map(|r| style::dot(point(r), color, rare, st)),
                )
                .map_err(style::de)?;
        }
        Ok(())
    }
}

impl Figure for AuditFigure<'_> {
    fn size(&self) -> (u32, u32) {
        (1000, 620)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, plotters::coord::Shift>,
        st: &Style,
    ) -> Result<(), String>
    where
        DB::ErrorType: 'static,
    {
        let legend: Vec<Entry> = classes(self.records)
            .into_iter()
            .map(|(_, label, color, _, rare)| {
                Entry::new(
                    label,
                    if rare {
                        Mark::Ringed(color)
                    } else {
                        Mark::Dot(color)
                    },
                )
            })
            .collect();
        let title = if self.axes.len() >= 2 {
            format!("Branches over the domain: {}", self.what)
        } else {
            format!("Distance of the final state: {}", self.what)
        };
        let area = st.titled(area, &title)?;
        let data = style::legend_right(&area, st, &legend)?;
        let axes = self.axes;
        let records = self.records;
        let pi = |k: usize| self.pi_axes.get(k).copied().unwrap_or(false);
        let (x0, x1) = range(records.iter().map(|r| r.coords[0]));
        let fx = linear_labels(x0, x1, pi(0));
        if axes.len() >= 2 {
            let (y0, y1) = range(records.iter().map(|r| r.coords[1]));
            let mut chart = st
                .chart(&data, None)
                .build_cartesian_2d(linear_axis(x0, x1, pi(0)), linear_axis(y0, y1, pi(1)))
                .map_err(style::de)?;
            let fy = linear_labels(y0, y1, pi(1));
            st.mesh(&mut chart.configure_mesh())
                .x_desc(axes[0].as_str())
                .y_desc(axes[1].as_str())
                .x_label_formatter(&fx)
                .y_label_formatter(&fy)
                .draw()
                .map_err(style::de)?;
            self.points(&mut chart, st, |r| (r.coords[0], r.coords[1]))
        } else {
            let rels: Vec<f64> = records.iter().filter_map(Self::rel).collect();
            let (ymin, ymax, ticks, zero) = log_rows(&rels);
            let mut chart = st
                .chart(&data, None)
                .build_cartesian_2d(
                    linear_axis(x0, x1, pi(0)),
                    style::Ticked::<LogCoord<f64>>::new((ymin..ymax).log_scale().into(), ticks),
                )
                .map_err(style::de)?;
            let fy = |v: &f64| match zero {
                Some(z) if *v == z => "0".to_string(),
                _ => style::log_label(v),
            };
            let desc = match zero {
                Some(_) => "relative distance to the true final state (upper bound; 0: exact)",
                None => "relative distance to the true final state (upper bound)",
            };
            st.mesh(&mut chart.configure_mesh())
                .x_desc(axes[0].as_str())
                .x_label_formatter(&fx)
                .y_desc(desc)
                .y_label_formatter(&fy)
                .draw()
                .map_err(style::de)?;
            let at = |d: f64| match (d, zero) {
                (0.0, Some(z)) => z,
                _ => d,
            };
            self.points(&mut chart, st, |r| {
                (r.coords[0], Self::rel(r).map_or(ymin, at))
            })
        }
    }
}

/// Writes `map.svg` and `map.png` to `dir`; figures need at least one varying axis and
/// a font for their text. `what` says what was audited against what ("f64 against the
/// certified corner law, alpha atan(1/2), eps 1/2"); the title says what is drawn.
/// `pi_axes`: per axis, whether it is labelled in multiples of π.
pub fn write(
    dir: &Path,
    what: &str,
    axes: &[String],
    pi_axes: &[bool],
    records: &[Record],
) -> Figures {
    if axes.is_empty() || records.is_empty() {
        return Figures {
            files: Vec::new(),
            skipped: Some("the domain has no varying axis".into()),
        };
    }
    if let Err(why) = style::font() {
        return Figures {
            files: Vec::new(),
            skipped: Some(why),
        };
    }
    let fig = AuditFigure {
        what,
        axes,
        pi_axes,
        records,
    };
    let mut files = Vec::new();
    let mut skipped = None;
    // each complete or absent (`style::write` draws under a temporary name)
    for name in ["map.svg", "map.png"] {
        match style::write(&fig, &dir.join(name)) {
            Ok(()) => files.push(name.to_string()),
            Err(why) => skipped = Some(format!("{name}: {why}")),
        }
    }
    Figures { files, skipped }
}
