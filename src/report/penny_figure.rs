//! Figures of the penny on the table (Clark & Bloch, Figs. 1–4): the path of the contact
//! point between impacts, the table's boundary, and where each end hit, as SVG or PNG
//! (plotters, in the style of [`crate::figure`]).

use crate::figure::{self as style, Entry, Figure, Mark, Style};
use plotters::prelude::*;

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

impl Figure for TableFigure {
    fn size(&self) -> (u32, u32) {
        (1000, 760)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, plotters::coord::Shift>,
        st: &Style,
    ) -> Result<(), String>
    where
        DB::ErrorType: 'static,
    {
        let f = self;
        let path = style::PALETTE[0];
        let (front, back) = (style::PALETTE[1], style::PALETTE[2]);
        let mut legend = vec![Entry::new("table edge", Mark::Line(BLACK))];
        if !f.legs.is_empty() {
            legend.push(Entry::new("path of the contact point", Mark::Line(path)));
        }
        for (which, colour, label) in [
            (true, front, "front end hits the edge"),
            (false, back, "back end hits the edge"),
        ] {
            if f.impacts.iter().any(|p| p.2 == which) {
                legend.push(Entry::new(label, Mark::Ringed(colour)));
            }
        }
        for (i, (label, _)) in f.clouds.iter().enumerate() {
            legend.push(Entry::new(label.clone(), Mark::Dot(style::series(i))));
        }
        let area = st.titled(area, &f.title)?;
        let data = style::legend_right(&area, st, &legend)?;
        let m = f.a.max(f.b) * 1.1;
        let mut chart = st
            .chart(&data, None)
            .build_cartesian_2d(-m..m, -m..m)
            .map_err(style::de)?;
        let ticks = style::decimal_ticks(2.0 * m);
        st.mesh(&mut chart.configure_mesh())
            .x_desc("x (m)")
            .y_desc("y (m)")
            .x_label_formatter(&ticks)
            .y_label_formatter(&ticks)
            .draw()
            .map_err(style::de)?;
        let boundary: Vec<(f64, f64)> = (0..=720)
            .map(|k| {
                let t = f64::from(k) * std::f64::consts::PI / 360.0;
                (f.a * t.cos(), f.b * t.sin())
            })
            .collect();
        chart
            .draw_series(LineSeries::new(boundary, BLACK.stroke_width(st.size(2.0))))
            .map_err(style::de)?;
        for leg in &f.legs {
            chart
                .draw_series(LineSeries::new(
                    leg.iter().copied(),
                    path.stroke_width(st.size(1.0)),
                ))
                .map_err(style::de)?;
        }
        for (which, colour) in [(true, front), (false, back)] {
            chart
                .draw_series(
                    f.impacts
                        .iter()
                        .filter(|p| p.2 == which)
                        .flat_map(|p| style::dot((p.0, p.1), colour, true, st)),
                )
                .map_err(style::de)?;
        }
        for (i, (_, pts)) in f.clouds.iter().enumerate() {
            let colour = style::series(i);
            chart
                .draw_series(pts.iter().flat_map(|p| style::dot(*p, colour, false, st)))
                .map_err(style::de)?;
        }
        Ok(())
    }
}
