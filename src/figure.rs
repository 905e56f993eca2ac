//! One style for every figure impactkit draws: the plotters figures (audit maps and
//! distances, the penny's table, the time stepper's coordinates, the billiard sweep of
//! Seghete–Murphey Fig. 5) and the hand-drawn diagrams (the disk in a corner after
//! Fassino–Pasquero Sect. 8, the cones and characteristics of Winandy–Leine Figs. 4(a)
//! and 6).
//!
//! What the style guarantees, for a reader of a paper:
//! - **Legends outside the data**: [`legend_right`] takes a strip on the right of the
//!   figure and draws the legend there, so no legend covers a curve or a point.
//! - **Coordinates not rounded to pixels**: plotters places every element on whole
//!   pixels; an SVG is drawn at [`SVG_SCALE`] times its size and shown at its size
//!   (a `viewBox`), so curves are placed to a quarter of a pixel. A PNG is drawn at
//!   [`PNG_SCALE`] times its size, for print.
//! - **Readable log axes**: [`log_ticks`] labels 1, 2 and 5 in every decade of a range
//!   of at most four decades (powers of ten, thinned, beyond), written `2·10⁻¹⁶`.
//! - **Colours** that stay distinct for every common colour-vision deficiency (Okabe &
//!   Ito's palette, [`PALETTE`]); a rare class of points is drawn last, larger and ringed
//!   in black ([`Mark::Ringed`]), so 36 points among 6,525 are seen.
//! - **One font** (DejaVu Sans or the first TrueType font found, [`font`]) and one set of
//!   sizes ([`TITLE_PX`], [`LABEL_PX`], [`TICK_PX`], [`LEGEND_PX`]).

use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;
use std::sync::OnceLock;

/// Series colours after Okabe & Ito, "Color Universal Design" (2008): blue, vermillion,
/// bluish green, reddish purple, orange, sky blue, black.
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
];

/// The colour of the common class of a map (drawn first, small, light).
pub const COMMON: RGBColor = RGBColor(180, 180, 180);

/// Guides that are not data (impact times, reference lines).
pub const GUIDE: RGBColor = RGBColor(130, 130, 130);

/// The `i`-th series colour (cycling).
pub fn series(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// `#rrggbb` of a colour, for the hand-drawn SVG diagrams.
pub fn hex(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// Font sizes in CSS pixels (at scale 1).
pub const TITLE_PX: f64 = 16.0;
pub const LABEL_PX: f64 = 14.0;
pub const TICK_PX: f64 = 12.0;
pub const LEGEND_PX: f64 = 13.0;

/// An SVG is drawn at this many times its size and shown at its size.
pub const SVG_SCALE: u32 = 4;
/// A PNG has this many pixels per CSS pixel.
pub const PNG_SCALE: u32 = 2;

/// Sizes of one rendering (SVG or PNG): every length of a figure goes through it.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    scale: u32,
}

impl Style {
    /// A length in drawing pixels.
    pub fn px(&self, v: f64) -> i32 {
        (v * f64::from(self.scale)).round() as i32
    }
    /// A size (stroke width, radius) in drawing pixels.
    pub fn size(&self, v: f64) -> u32 {
        (v * f64::from(self.scale)).round().max(1.0) as u32
    }
    /// The figures' font at `px` CSS pixels.
    pub fn font(&self, px: f64) -> FontDesc<'static> {
        ("sans-serif", px * f64::from(self.scale)).into_font()
    }
    /// A chart on `area` titled `title`, with room for tick labels and axis labels.
    pub fn chart<'a, 'b, DB: DrawingBackend>(
        &self,
        area: &'a DrawingArea<DB, Shift>,
        title: Option<&str>,
    ) -> ChartBuilder<'a, 'b, DB> {
        let mut b = ChartBuilder::on(area);
        if let Some(t) = title {
            b.caption(t, self.font(TITLE_PX));
        }
        b.margin(self.px(12.0))
            .margin_right(self.px(20.0))
            .x_label_area_size(self.px(48.0))
            .y_label_area_size(self.px(76.0));
        b
    }
    /// No grid lines between the labelled ticks (they crowd the data).
    pub fn light_grid(&self) -> ShapeStyle {
        TRANSPARENT.stroke_width(0)
    }
    /// The figure's title across its whole width; the area below it.
    pub fn titled<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        title: &str,
    ) -> Result<DrawingArea<DB, Shift>, String>
    where
        DB::ErrorType: 'static,
    {
        area.titled(title, self.font(TITLE_PX)).map_err(de)
    }
    /// The mesh of a chart in the style: tick labels, axis labels, grid lines.
    pub fn mesh<'m, 'a, 'b, X: Ranged, Y: Ranged, DB: DrawingBackend>(
        &self,
        m: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
    ) -> &'m mut MeshStyle<'a, 'b, X, Y, DB> {
        m.label_style(self.font(TICK_PX))
            .axis_desc_style(self.font(LABEL_PX))
            .light_line_style(self.light_grid())
            .bold_line_style(self.bold_grid())
    }
    /// Grid lines at labelled ticks.
    pub fn bold_grid(&self) -> ShapeStyle {
        RGBColor(215, 215, 215).stroke_width(self.size(1.0))
    }
}

/// A plotters error as text.
pub fn de<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> String {
    e.to_string()
}

/// A figure drawn with the style, as SVG ([`to_svg`]) or PNG ([`write()`]).
pub trait Figure {
    /// Width and height in CSS pixels.
    fn size(&self) -> (u32, u32);
    /// Draws the figure on `area` (already white).
    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        st: &Style,
    ) -> Result<(), String>
    where
        DB::ErrorType: 'static;
}

fn render<DB: DrawingBackend, F: Figure>(
    area: DrawingArea<DB, Shift>,
    f: &F,
    st: &Style,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    area.fill(&WHITE).map_err(de)?;
    f.draw(&area, st)?;
    area.present().map_err(de)
}

/// The SVG text of a figure: drawn at [`SVG_SCALE`] times its size, shown at its size.
pub fn to_svg<F: Figure>(f: &F) -> Result<String, String> {
    font()?;
    let (w, h) = f.size();
    let (sw, sh) = (w * SVG_SCALE, h * SVG_SCALE);
    let mut out = String::new();
    render(
        SVGBackend::with_string(&mut out, (sw, sh)).into_drawing_area(),
        f,
        &Style { scale: SVG_SCALE },
    )?;
    Ok(out.replacen(
        &format!(r#"width="{sw}" height="{sh}""#),
        &format!(r#"width="{w}" height="{h}""#),
        1,
    ))
}

/// Writes a figure to `path`: PNG when the name ends in `.png`, SVG otherwise.
pub fn write<F: Figure>(f: &F, path: &Path) -> Result<(), String> {
    font()?;
    let png = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    // complete or absent: drawn under a temporary name, renamed when done (issue 63, D7)
    let io = |e: std::io::Error| e.to_string();
    if png {
        let (w, h) = f.size();
        crate::output::write_through(
            path,
            |tmp| {
                render(
                    BitMapBackend::new(tmp, (w * PNG_SCALE, h * PNG_SCALE)).into_drawing_area(),
                    f,
                    &Style { scale: PNG_SCALE },
                )
            },
            io,
        )
    } else {
        crate::output::write_atomic(path, to_svg(f)?.as_bytes()).map_err(io)
    }
}

/// How a legend entry is marked.
#[derive(Clone, Copy, Debug)]
pub enum Mark {
    /// A solid line.
    Line(RGBColor),
    /// A dashed line.
    Dashed(RGBColor),
    /// A small filled dot.
    Dot(RGBColor),
    /// A larger dot ringed in black (a rare class, drawn on top).
    Ringed(RGBColor),
}

/// The circles of a dot at `p`: filled (radius 2), or larger (radius 4) and ringed in
/// black when `ringed` (a rare class).
pub fn dot<C: Copy>(p: C, color: RGBColor, ringed: bool, st: &Style) -> Vec<Circle<C, u32>> {
    if ringed {
        vec![
            Circle::new(p, st.size(4.0), color.filled()),
            Circle::new(p, st.size(4.0), BLACK.stroke_width(st.size(1.0))),
        ]
    } else {
        vec![Circle::new(p, st.size(2.0), color.filled())]
    }
}

/// One line of a legend.
#[derive(Clone, Debug)]
pub struct Entry {
    pub label: String,
    pub mark: Mark,
}

impl Entry {
    pub fn new(label: impl Into<String>, mark: Mark) -> Entry {
        Entry {
            label: label.into(),
            mark,
        }
    }
}

/// Draws the legend in a strip on the right of `area`, as wide as its longest label
/// (at most half the figure), and returns the rest of the area for the data.
pub fn legend_right<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    st: &Style,
    entries: &[Entry],
) -> Result<DrawingArea<DB, Shift>, String>
where
    DB::ErrorType: 'static,
{
    if entries.is_empty() {
        return Ok(area.clone());
    }
    let font = st.font(LEGEND_PX).color(&BLACK);
    let mut widest = 0;
    for e in entries {
        widest = widest.max(area.estimate_text_size(&e.label, &font).map_err(de)?.0);
    }
    let (w, _) = area.dim_in_pixel();
    let strip = (widest + st.size(56.0)).min(w / 2);
    let (data, legend) = area.split_horizontally(w - strip);
    let line = st.px(24.0);
    let (x0, x1, xt) = (st.px(6.0), st.px(30.0), st.px(38.0));
    for (i, e) in entries.iter().enumerate() {
        let y = st.px(64.0) + line * i as i32;
        match e.mark {
            Mark::Line(c) => legend
                .draw(&PathElement::new(
                    vec![(x0, y), (x1, y)],
                    c.stroke_width(st.size(2.0)),
                ))
                .map_err(de)?,
            Mark::Dashed(c) => {
                let dash = (x1 - x0) / 5;
                for k in [0, 2, 4] {
                    legend
                        .draw(&PathElement::new(
                            vec![(x0 + k * dash, y), (x0 + (k + 1) * dash, y)],
                            c.stroke_width(st.size(1.5)),
                        ))
                        .map_err(de)?;
                }
            }
            Mark::Dot(c) => legend
                .draw(&Circle::new(((x0 + x1) / 2, y), st.size(4.0), c.filled()))
                .map_err(de)?,
            Mark::Ringed(c) => {
                for circle in dot(((x0 + x1) / 2, y), c, true, st) {
                    legend.draw(&circle).map_err(de)?;
                }
            }
        }
        legend
            .draw(&Text::new(
                e.label.clone(),
                (xt, y),
                font.pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(de)?;
    }
    Ok(data)
}

/// The rows of a log axis for nonnegative values: its range, ticks, and the row where
/// exact zeros are drawn (a decade below the smallest nonzero value, labelled `0`), if any
/// value is 0. Values below `floor` (> 0) count as `floor`.
pub fn log_rows(values: &[f64], floor: f64) -> (f64, f64, Vec<f64>, Option<f64>) {
    let nonzero = || values.iter().copied().filter(|&r| r > 0.0);
    let ymax = nonzero().fold(floor * 10.0, f64::max) * 4.0;
    let low = nonzero().fold(ymax / 100.0, f64::min).max(floor);
    let decade = 10f64.powi(low.log10().floor() as i32);
    match values.contains(&0.0) {
        false => (low / 4.0, ymax, log_ticks(low / 4.0, ymax), None),
        true => {
            let zero = decade / 10.0;
            let mut ticks = log_ticks(decade, ymax);
            ticks.insert(0, zero);
            (zero / 2.0, ymax, ticks, Some(zero))
        }
    }
}

/// An axis whose labelled ticks are given (plotters' own `WithKeyPoints` takes no label
/// formatter): `Ticked::new((lo..hi).log_scale().into(), log_ticks(lo, hi))`.
pub struct Ticked<R: Ranged> {
    inner: R,
    ticks: Vec<R::ValueType>,
}

impl<R: Ranged> Ticked<R> {
    pub fn new(inner: R, ticks: Vec<R::ValueType>) -> Ticked<R> {
        Ticked { inner, ticks }
    }
}

impl<R: Ranged> Ranged for Ticked<R>
where
    R::ValueType: Clone,
{
    type FormatOption = DefaultFormatting;
    type ValueType = R::ValueType;

    fn map(&self, value: &Self::ValueType, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<Self::ValueType> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<Self::ValueType> {
        self.inner.range()
    }

    fn axis_pixel_range(&self, limit: (i32, i32)) -> std::ops::Range<i32> {
        self.inner.axis_pixel_range(limit)
    }
}

/// Tick values of a log axis over [lo, hi] (lo > 0): 1, 2 and 5 in every decade when
/// the range spans at most four decades, powers of ten beyond (every k-th, at most ten).
pub fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return Vec::new();
    }
    let (e0, e1) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let decades = e1 - e0;
    let (mantissas, stride): (&[f64], i32) = if decades <= 4 {
        (&[1.0, 2.0, 5.0], 1)
    } else {
        (&[1.0], (decades + 9) / 10)
    };
    let mut out = Vec::new();
    for e in (e0..=e1).filter(|e| (e - e0) % stride == 0) {
        for m in mantissas {
            let v = m * 10f64.powi(e);
            if v >= lo * (1.0 - 1e-12) && v <= hi * (1.0 + 1e-12) {
                out.push(v);
            }
        }
    }
    out
}

fn superscript(n: i32) -> String {
    n.to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][d as usize - '0' as usize],
        })
        .collect()
}

/// The label of a log-axis tick m·10^e: `0.05`, `20` for −3 ≤ e ≤ 3, else `10⁻¹⁶` and
/// `2·10⁻¹⁶`.
pub fn log_label(v: &f64) -> String {
    if !(*v > 0.0 && v.is_finite()) {
        return String::new();
    }
    let e = (v.log10() + 1e-9).floor() as i32;
    let m = (v / 10f64.powi(e)).round() as i64;
    match e {
        0..=3 => format!("{}", m * 10i64.pow(e as u32)),
        -3..=-1 => format!("0.{}{m}", "0".repeat((-e - 1) as usize)),
        _ if m == 1 => format!("10{}", superscript(e)),
        _ => format!("{m}·10{}", superscript(e)),
    }
}

/// Ticks of a linear axis over [lo, hi]: multiples of 1, 2 or 5 times a power of ten,
/// at most 11 of them.
pub fn linear_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite() && hi > lo) {
        return Vec::new();
    }
    let mut step = 10f64.powf(((hi - lo) / 10.0).log10().floor());
    for m in [2.0, 2.5, 2.0] {
        if (hi - lo) / step <= 10.0 {
            break;
        }
        step *= m;
    }
    ticks_at(lo, hi, step)
}

/// The multiples of `step` in [lo, hi].
fn ticks_at(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    let (k0, k1) = ((lo / step).ceil() as i64, (hi / step).floor() as i64);
    (k0..=k1).map(|k| k as f64 * step).collect()
}

/// Ticks of an axis the user gave in multiples of π: multiples of π/2ᵏ, 3 to 10 of them
/// (issue 62: the axis was in decimal radians).
pub fn pi_ticks(lo: f64, hi: f64) -> Vec<f64> {
    use std::f64::consts::PI;
    if !(lo.is_finite() && hi.is_finite() && hi > lo) {
        return Vec::new();
    }
    let span = (hi - lo) / PI;
    let mut step = 1.0;
    while span / step < 3.0 && step > 1.0 / 1024.0 {
        step /= 2.0;
    }
    while span / step > 10.0 {
        step *= 2.0;
    }
    ticks_at(lo / PI, hi / PI, step)
        .into_iter()
        .map(|k| k * PI)
        .collect()
}

/// The label of a tick v of an axis in multiples of π: [`pi_multiple`] of v/π, with
/// denominators up to 1024 (`0`, `π/4`, `3π/16`, `−π/2`, `2π`).
pub fn pi_label(v: &f64) -> String {
    pi_multiple(v / std::f64::consts::PI, 1024)
}

/// x·π as a multiple of π for a figure: `π/2`, `3π/4`, `−π`, `0`; a value that is no
/// fraction with a denominator up to `max_den` as a decimal (`0.3183π`).
pub fn pi_multiple(x: f64, max_den: i64) -> String {
    for d in 1..=max_den {
        let n = (x * d as f64).round();
        if (x * d as f64 - n).abs() < 1e-9 {
            let n = n as i64;
            let g = gcd(n.unsigned_abs(), d as u64) as i64;
            let (n, d) = (n / g.max(1), d / g.max(1));
            return match (n, d) {
                (0, _) => "0".into(),
                (1, 1) => "π".into(),
                (-1, 1) => "−π".into(),
                (n, 1) => format!("{n}π"),
                (1, d) => format!("π/{d}"),
                (-1, d) => format!("−π/{d}"),
                (n, d) => format!("{n}π/{d}"),
            };
        }
    }
    format!("{x:.4}π")
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Tick labels of a linear axis with as many decimals as its span needs (and no `-0`).
pub fn decimal_ticks(span: f64) -> impl Fn(&f64) -> String {
    let decimals = if span > 0.0 {
        (-(span / 10.0).log10().floor()).clamp(0.0, 12.0) as usize
    } else {
        2
    };
    // a span near the rounding unit (thresholds of 4.5e-16) in scientific notation, not
    // as twelve zeros
    let tiny = span > 0.0 && span < 1e-6;
    move |v: &f64| {
        if tiny {
            return match *v == 0.0 {
                true => "0".into(),
                false => format!("{v:.1e}"),
            };
        }
        let s = format!("{v:.decimals$}");
        match s.strip_prefix('-') {
            Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
            _ => s,
        }
    }
}

/// Text escaped for SVG.
pub fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The opening of a hand-drawn SVG diagram of `w` × `h` CSS pixels, white, in the
/// figures' font, with its title.
pub fn svg_open(w: f64, h: f64, title: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"{LEGEND_PX}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"12\" y=\"22\" font-size=\"{TITLE_PX}\">{}</text>\n",
        escape(title)
    )
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
pub fn font() -> Result<(), String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pi_axes_are_labelled_in_multiples_of_pi() {
        use std::f64::consts::PI;
        let labels: Vec<String> = pi_ticks(0.0, PI / 2.0).iter().map(pi_label).collect();
        assert_eq!(labels, ["0", "π/8", "π/4", "3π/8", "π/2"]);
        let labels: Vec<String> = pi_ticks(-PI, 2.0 * PI).iter().map(pi_label).collect();
        assert_eq!(labels, ["−π", "0", "π", "2π"]);
        assert_eq!(pi_label(&(PI / 16.0)), "π/16");
        assert_eq!(pi_label(&1.0), "0.3183π");
        let t = linear_ticks(-1.0, 1.0);
        assert_eq!((t.len(), t[0], t[10]), (11, -1.0, 1.0));
    }

    #[test]
    fn log_ticks_label_two_and_five_within_four_decades() {
        let t = log_ticks(3e-17, 2e-15);
        assert_eq!(t.len(), 6, "{t:?}"); // 5e-17, 1e-16, 2e-16, 5e-16, 1e-15, 2e-15
        let labels: Vec<String> = t.iter().map(log_label).collect();
        assert_eq!(
            labels,
            ["5·10⁻¹⁷", "10⁻¹⁶", "2·10⁻¹⁶", "5·10⁻¹⁶", "10⁻¹⁵", "2·10⁻¹⁵"]
        );
        // twenty decades: powers of ten, every second one
        let t = log_ticks(1e-20, 1.0);
        assert_eq!(t.len(), 11);
        assert_eq!(log_label(&t[10]), "1");
        assert_eq!(log_label(&0.05), "0.05");
        assert_eq!(log_label(&200.0), "200");
        assert!(log_ticks(0.0, 1.0).is_empty());
    }

    #[test]
    fn decimal_ticks_have_no_negative_zero() {
        let f = decimal_ticks(2.0);
        assert_eq!(f(&-0.0001), "0.0");
        assert_eq!(f(&0.26), "0.3");
        assert_eq!(hex(PALETTE[1]), "#d55e00");
    }
}
