//! Figures of the penny on the table (Clark & Bloch, Figs. 1–4): the path of the contact
//! point between impacts, the table's boundary, and where each end hit, as SVG or PNG
//! (plotters).

use plotters::prelude::*;
use std::path::Path;

/// What one figure shows, in f64 (drawing only: the run's numbers are in its report).
#[derive(Clone, Debug)]
pub struct TableFigure {
    pub title: String,
    /// Semi-axes of the ellipse (35).
    pub a: f64,
    pub b: f64,
    /// The contact point's path, one polyline per flight.
    pub legs: Vec<Vec<(f64, f64)>>,
    /// Impacts: the end's point on the boundary, `true` for the front end.
    pub impacts: Vec<(f64, f64, bool)>,
    /// Fig. 5: where each run's penny is at a time, one labelled cloud per time.
    pub clouds: Vec<(String, Vec<(f64, f64)>)>,
}

const SIZE: (u32, u32) = (760, 760);

/// The colours of the series of impactkit's figures (ColorBrewer "Dark2").
pub(crate) const PALETTE: [RGBColor; 8] = [
    RGBColor(27, 158, 119),
    RGBColor(217, 95, 2),
    RGBColor(117, 112, 179),
    RGBColor(231, 41, 138),
    RGBColor(102, 166, 30),
    RGBColor(230, 171, 2),
    RGBColor(166, 118, 29),
    RGBColor(102, 102, 102),
];

fn draw<DB: DrawingBackend>(
    area: DrawingArea<DB, plotters::coord::Shift>,
    f: &TableFigure,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    area.fill(&WHITE).map_err(e)?;
    let m = f.a.max(f.b) * 1.1;
    let mut chart = ChartBuilder::on(&area)
        .caption(&f.title, ("sans-serif", 16))
        .margin(16)
        .x_label_area_size(46)
        .y_label_area_size(60)
        .build_cartesian_2d(-m..m, -m..m)
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc("x (m)")
        .y_desc("y (m)")
        .x_label_formatter(&|x| format!("{x:.2}"))
        .y_label_formatter(&|y| format!("{y:.2}"))
        .label_style(("sans-serif", 13))
        .draw()
        .map_err(e)?;
    let boundary: Vec<(f64, f64)> = (0..=720)
        .map(|k| {
            let t = f64::from(k) * std::f64::consts::PI / 360.0;
            (f.a * t.cos(), f.b * t.sin())
        })
        .collect();
    chart
        .draw_series(LineSeries::new(boundary, BLACK.stroke_width(2)))
        .map_err(e)?
        .label("table boundary h = 0 (35)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.stroke_width(2)));
    let path = RGBColor(27, 158, 119);
    for (i, leg) in f.legs.iter().enumerate() {
        let s = chart
            .draw_series(LineSeries::new(leg.iter().copied(), path.stroke_width(1)))
            .map_err(e)?;
        if i == 0 {
            s.label("contact point (x, y), flow (26)")
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], path));
        }
    }
    for (front, colour, label) in [
        (true, RGBColor(200, 0, 0), "front end hits (27)"),
        (false, RGBColor(30, 90, 200), "back end hits (34)"),
    ] {
        let pts: Vec<(f64, f64)> = f
            .impacts
            .iter()
            .filter(|p| p.2 == front)
            .map(|p| (p.0, p.1))
            .collect();
        if pts.is_empty() {
            continue;
        }
        chart
            .draw_series(pts.into_iter().map(|p| Circle::new(p, 4, colour.filled())))
            .map_err(e)?
            .label(label)
            .legend(move |(x, y)| Circle::new((x + 10, y), 4, colour.filled()));
    }
    for (i, (label, pts)) in f.clouds.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        chart
            .draw_series(pts.iter().map(|p| Circle::new(*p, 3, colour.filled())))
            .map_err(e)?
            .label(label.as_str())
            .legend(move |(x, y)| Circle::new((x + 10, y), 3, colour.filled()));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(e)?;
    area.present().map_err(e)?;
    Ok(())
}

/// Writes the figure to `path`: PNG when it ends in `.png`, SVG otherwise.
pub fn write(path: &Path, f: &TableFigure) -> Result<(), String> {
    crate::audit::figure::font()?;
    let png = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if png {
        draw(BitMapBackend::new(path, SIZE).into_drawing_area(), f)
    } else {
        draw(SVGBackend::new(path, SIZE).into_drawing_area(), f)
    }
}

/// The SVG text of the figure.
pub fn svg(f: &TableFigure) -> Result<String, String> {
    crate::audit::figure::font()?;
    let mut out = String::new();
    draw(
        SVGBackend::with_string(&mut out, SIZE).into_drawing_area(),
        f,
    )?;
    Ok(out)
}
