//! The figure of an audit (plotters, SVG and PNG): over two varying axes, a map of the
//! domain with every sample coloured by what the audited arithmetic did (same branches,
//! another branch, another termination, reference undecided); over one axis, the
//! relative distance of every sample's final state to the true one (log scale), coloured
//! the same way.

use super::record::Record;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::OnceLock;

/// The figures written, or why none was.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figures {
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub files: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub skipped: Option<String>,
}

impl Figures {
    /// One line per figure, for text reports.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for f in &self.files {
            out += &format!("figure: {f}\n");
        }
        if let Some(why) = &self.skipped {
            out += &format!("no figure: {why}\n");
        }
        out
    }
}

/// TrueType fonts tried for the figures' text, in order (`IMPACTKIT_FONT` first).
const FONTS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/Library/Fonts/Arial.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

/// Registers a sans-serif font once; the reason if none could be read.
pub(crate) fn font() -> Result<(), String> {
    static FONT: OnceLock<Result<(), String>> = OnceLock::new();
    FONT.get_or_init(|| {
        let env = std::env::var("IMPACTKIT_FONT").ok();
        for path in env.iter().map(String::as_str).chain(FONTS.iter().copied()) {
            if let Ok(bytes) = std::fs::read(path) {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                    return Ok(());
                }
            }
        }
        Err("no TrueType font found for the figures' text (install fonts-dejavu-core, or set IMPACTKIT_FONT to a .ttf file)".into())
    })
    .clone()
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
    (Category::Same, "same branches", RGBColor(150, 150, 150)),
    (
        Category::OtherBranch,
        "another branch, same termination",
        RGBColor(230, 140, 0),
    ),
    (
        Category::OtherTermination,
        "another termination",
        RGBColor(200, 0, 0),
    ),
    (
        Category::Undecided,
        "reference undecided",
        RGBColor(0, 0, 0),
    ),
    (
        Category::NoReference,
        "audited run only",
        RGBColor(30, 90, 200),
    ),
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

/// Tick labels with as many decimals as the axis' span needs (and no "-0").
fn ticks(span: f64) -> impl Fn(&f64) -> String {
    let decimals = if span > 0.0 {
        (-(span / 10.0).log10().floor()).clamp(0.0, 12.0) as usize
    } else {
        2
    };
    move |v: &f64| {
        let s = format!("{v:.decimals$}");
        match s.strip_prefix('-') {
            Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
            _ => s,
        }
    }
}

/// One series per category (at `point` of each record), and the legend.
fn categories<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    records: &[Record],
    point: impl Fn(&Record) -> (f64, f64),
) -> Result<(), String>
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
    CT: plotters::coord::CoordTranslate<From = (f64, f64)>,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let dot = |c: RGBColor| c.filled();
    for (cat, name, color) in CATEGORIES {
        let pts: Vec<(f64, f64)> = records
            .iter()
            .filter(|r| category(r) == cat)
            .map(&point)
            .collect();
        if pts.is_empty() {
            continue;
        }
        chart
            .draw_series(pts.iter().map(|p| Circle::new(*p, 2, dot(color))))
            .map_err(e)?
            .label(format!("{name} ({})", pts.len()))
            .legend(move |(x, y)| Circle::new((x, y), 4, dot(color)));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(e)
}

/// Draws the figure of `records` on `area`.
fn draw<DB: DrawingBackend>(
    area: DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    axes: &[String],
    records: &[Record],
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    area.fill(&WHITE).map_err(e)?;
    if axes.len() >= 2 {
        let (x0, x1) = range(records.iter().map(|r| r.coords[0]));
        let (y0, y1) = range(records.iter().map(|r| r.coords[1]));
        let mut chart = ChartBuilder::on(&area)
            .caption(title, ("sans-serif", 16))
            .margin(14)
            .x_label_area_size(46)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(e)?;
        let (fx, fy) = (ticks(x1 - x0), ticks(y1 - y0));
        chart
            .configure_mesh()
            .x_desc(axes[0].as_str())
            .y_desc(axes[1].as_str())
            .x_label_formatter(&fx)
            .y_label_formatter(&fy)
            .label_style(("sans-serif", 13))
            .draw()
            .map_err(e)?;
        categories(&mut chart, records, |r| (r.coords[0], r.coords[1]))?;
    } else {
        let rel = |r: &Record| {
            r.comparison.as_ref().map(|c| {
                c.relative_distance
                    .map_or(c.distance.hi, |b| b.hi)
                    .max(FLOOR)
            })
        };
        let (x0, x1) = range(records.iter().map(|r| r.coords[0]));
        let ymax = records.iter().filter_map(rel).fold(FLOOR * 10.0, f64::max) * 10.0;
        let ymin = records
            .iter()
            .filter_map(rel)
            .fold(ymax / 100.0, f64::min)
            .max(FLOOR)
            / 10.0;
        let mut chart = ChartBuilder::on(&area)
            .caption(title, ("sans-serif", 16))
            .margin(14)
            .x_label_area_size(46)
            .y_label_area_size(80)
            .build_cartesian_2d(x0..x1, (ymin..ymax).log_scale())
            .map_err(e)?;
        let fx = ticks(x1 - x0);
        chart
            .configure_mesh()
            .x_desc(axes[0].as_str())
            .x_label_formatter(&fx)
            .y_desc("relative distance to the true final state (upper bound)")
            .y_label_formatter(&|y| format!("{y:.0e}"))
            .label_style(("sans-serif", 13))
            .draw()
            .map_err(e)?;
        categories(&mut chart, records, |r| {
            (r.coords[0], rel(r).unwrap_or(ymin))
        })?;
    }
    area.present().map_err(e)?;
    Ok(())
}

/// Size of the figures in pixels.
const SIZE: (u32, u32) = (900, 620);

/// Writes `map.svg` and `map.png` to `dir`; figures need at least one varying axis and
/// a font for their text.
pub fn write(dir: &Path, title: &str, axes: &[String], records: &[Record]) -> Figures {
    if axes.is_empty() || records.is_empty() {
        return Figures {
            files: Vec::new(),
            skipped: Some("the domain has no varying axis".into()),
        };
    }
    if let Err(why) = font() {
        return Figures {
            files: Vec::new(),
            skipped: Some(why),
        };
    }
    let mut files = Vec::new();
    let mut skipped = None;
    // drawn under temporary names, renamed when complete (a full disk or a signal leaves
    // no truncated figure)
    let tmp = |name: &str| dir.join(format!(".tmp-{}-{name}", std::process::id()));
    let settle = |name: &str, drawn: Result<(), String>| -> Result<(), String> {
        let t = tmp(name);
        let r = drawn.and_then(|()| std::fs::rename(&t, dir.join(name)).map_err(|e| e.to_string()));
        if r.is_err() {
            let _ = std::fs::remove_file(&t);
        }
        r
    };
    let svg = tmp("map.svg");
    let drawn = draw(
        SVGBackend::new(&svg, SIZE).into_drawing_area(),
        title,
        axes,
        records,
    );
    match settle("map.svg", drawn) {
        Ok(()) => files.push("map.svg".to_string()),
        Err(why) => skipped = Some(format!("map.svg: {why}")),
    }
    let png = tmp("map.png");
    let drawn = draw(
        BitMapBackend::new(&png, SIZE).into_drawing_area(),
        title,
        axes,
        records,
    );
    match settle("map.png", drawn) {
        Ok(()) => files.push("map.png".to_string()),
        Err(why) => skipped = Some(format!("map.png: {why}")),
    }
    Figures { files, skipped }
}
