//! `impactkit billiard-break`: the billiard break of Seghete–Murphey (2014), Sect. VII-A —
//! one geometry, or a sweep of the angle θ (Fig. 5) and its figure.

use super::{tuple_text, Num, Report, TextOptions};
use crate::arith::{Rational, Scalar};
use crate::figure::{Entry, Figure, Mark, Style};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::Serialize;

/// One geometry: the inner product of (31) three ways, the two resolutions p_ab and p_ba,
/// and the indeterminacy ξ.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BreakReport {
    /// The backend, as given to `--arith`.
    pub arith: String,
    /// Radii r_a, r_b, r_c.
    pub radii: Vec<Num>,
    /// Masses m_a, m_b, m_c.
    pub masses: Vec<Num>,
    /// cos θ, θ = ∠acb.
    pub cos_theta: Num,
    /// ⟨Dφ_a, Dφ_b⟩_g computed from the positions (Seghete–Murphey (2014), the display
    /// before (31)).
    pub inner_product: Num,
    /// cos θ / m_c, the right-hand side of (31).
    pub cos_theta_over_mc: Num,
    /// The middle expression of (31) as printed (its sign is wrong: it is the negative of
    /// the inner product).
    pub printed_31_middle: Num,
    /// The momentum before impact, p0 = M q̇ (6 components: a, b, c in the plane).
    pub p0: Vec<Num>,
    /// The outcome with the a–c contact resolved first.
    pub p_ab: Vec<Num>,
    /// The outcome with the b–c contact resolved first.
    pub p_ba: Vec<Num>,
    /// The reflections of p_ab, in order (`a`: contact a–c, `b`: contact b–c).
    pub sequence_ab: String,
    /// The reflections of p_ba, in order.
    pub sequence_ba: String,
    /// ξ² = ‖p_ab − p_ba‖²_g / ‖p0‖²_g, the square of the indeterminacy of Fig. 5.
    pub xi_squared: Num,
    /// ξ: exact where the backend can take the root, otherwise a rigorous enclosure
    /// (MPFR intervals, 128 bits); `null` when neither is possible.
    pub xi: Option<Num>,
}

fn xi_text(xi: &Option<Num>, o: &TextOptions) -> String {
    xi.as_ref()
        .map_or_else(|| "(no root on this backend)".into(), |x| x.text(o))
}

impl Report for BreakReport {
    fn text(&self, o: &TextOptions) -> String {
        format!(
            "radii: {}\nmasses: {}\ncos theta: {}\n\
             <Dphi_a, Dphi_b>_g: {}\ncos theta / m_c (31): {}\n(31) middle, as printed: {}\n\
             p0: {}\np_ab ({}): {}\np_ba ({}): {}\nxi^2: {}\nxi: {}",
            tuple_text(&self.radii, o),
            tuple_text(&self.masses, o),
            self.cos_theta.text(o),
            self.inner_product.text(o),
            self.cos_theta_over_mc.text(o),
            self.printed_31_middle.text(o),
            tuple_text(&self.p0, o),
            self.sequence_ab,
            tuple_text(&self.p_ab, o),
            self.sequence_ba,
            tuple_text(&self.p_ba, o),
            self.xi_squared.text(o),
            xi_text(&self.xi, o),
        )
    }
}

/// The outcome at one decided angle of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DecidedPoint {
    /// θ/π, exact.
    pub theta_over_pi: Num,
    /// ξ (see [`BreakReport::xi`]).
    pub xi: Option<Num>,
    /// ξ².
    pub xi_squared: Num,
    /// The number of reflections with a–c first.
    pub sequence_ab: usize,
    /// The number of reflections with b–c first.
    pub sequence_ba: usize,
}

/// One angle of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SweepPoint {
    /// The outcome at θ.
    Decided(Box<DecidedPoint>),
    /// A sign the backend could not decide at θ (e.g. θ = π in interval arithmetic,
    /// where cos(θ/2) encloses 0): reported, not guessed.
    Undecided {
        theta_over_pi: Num,
        undecided: String,
    },
}

/// θ = iπ/N over [θ_min, π] (Seghete–Murphey (2014), Fig. 5).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepReport {
    /// The backend, as given to `--arith`.
    pub arith: String,
    /// The radii as given to `--radii`.
    pub radii: String,
    /// One entry per angle where a and b do not overlap.
    pub points: Vec<SweepPoint>,
    /// Angles skipped because a and b would overlap (θ < θ_min), or where that was
    /// undecided.
    pub skipped_overlapping: usize,
    /// The θ/π where ξ has a local minimum among the decided points.
    pub local_minima_theta_over_pi: Vec<Num>,
}

/// `i/n` as an exact number.
pub fn ratio(i: usize, n: usize) -> Num {
    Rational::new(i as i64, n.max(1) as i64).num()
}

/// An exact value in its input-language form (θ/π as a label), otherwise as text.
fn label(x: &Num, o: &TextOptions) -> String {
    match x {
        Num::Exact { expr, .. } => expr.clone(),
        other => other.text(o),
    }
}

impl Report for SweepReport {
    fn text(&self, o: &TextOptions) -> String {
        let mut out = format!(
            "radii: {}\nangles: {} (skipped, a and b overlapping: {})",
            self.radii,
            self.points.len(),
            self.skipped_overlapping
        );
        for p in &self.points {
            out += &match p {
                SweepPoint::Decided(d) => format!(
                    "\ntheta = {}*pi: xi = {} ({} + {} reflections)",
                    label(&d.theta_over_pi, o),
                    xi_text(&d.xi, o),
                    d.sequence_ab,
                    d.sequence_ba
                ),
                SweepPoint::Undecided {
                    theta_over_pi,
                    undecided,
                } => format!(
                    "\ntheta = {}*pi: undecided: {undecided}",
                    label(theta_over_pi, o)
                ),
            };
        }
        let minima: Vec<String> = self
            .local_minima_theta_over_pi
            .iter()
            .map(|m| format!("{}*pi", label(m, o)))
            .collect();
        out += &format!("\nlocal minima of xi: theta = {}", minima.join(", "));
        out
    }
}

/// θ/π as a multiple of π for a figure (denominators up to 64).
fn pi_multiple(x: f64) -> String {
    crate::figure::pi_multiple(x, 64)
}

/// Fig. 5 of Seghete–Murphey: the indeterminacy ξ against the angle θ from a sweep, the
/// local minima marked (drawn in the style of [`crate::figure`]).
pub struct SweepFigure {
    title: String,
    /// (θ/π, ξ) of every decided angle.
    points: Vec<(f64, f64)>,
    /// (θ/π, ξ) of the local minima.
    minima: Vec<(f64, f64)>,
}

impl SweepFigure {
    /// The figure of a sweep.
    pub fn new(report: &SweepReport) -> SweepFigure {
        let mut points = Vec::new();
        for p in &report.points {
            if let SweepPoint::Decided(d) = p {
                let x = d.theta_over_pi.to_f64();
                let y = d.xi_squared.to_f64().max(0.0).sqrt();
                if x.is_finite() && y.is_finite() {
                    points.push((x, y));
                }
            }
        }
        let minima = report
            .local_minima_theta_over_pi
            .iter()
            .filter_map(|m| {
                let x = m.to_f64();
                let y = points.iter().find(|p| (p.0 - x).abs() < 1e-12)?.1;
                Some((x, y))
            })
            .collect();
        SweepFigure {
            title: format!(
                "Indeterminacy ξ of the billiard break against θ (Seghete–Murphey Fig. 5), radii {}",
                report.radii
            ),
            points,
            minima,
        }
    }
}

impl Figure for SweepFigure {
    fn size(&self) -> (u32, u32) {
        (900, 440)
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
        let (line, mark) = (style::PALETTE[0], style::PALETTE[1]);
        let mut legend = vec![Entry::new("ξ at the swept angles θ", Mark::Line(line))];
        if !self.minima.is_empty() {
            legend.push(Entry::new("local minimum of ξ", Mark::Ringed(mark)));
        }
        let area = st.titled(area, &self.title)?;
        let data = style::legend_right(&area, st, &legend)?;
        let x0 = self.points.first().map_or(0.0, |p| p.0).min(1.0);
        let x0 = if x0 < 1.0 { x0 } else { 0.0 };
        let ymax = self.points.iter().map(|p| p.1).fold(1e-12, f64::max) * 1.15;
        let ticks: Vec<f64> = (0..=8)
            .map(|k| f64::from(k) / 8.0)
            .filter(|t| *t >= x0 - 1e-12)
            .collect();
        let mut chart = st
            .chart(&data, None)
            .build_cartesian_2d(
                crate::figure::Ticked::new(
                    plotters::coord::types::RangedCoordf64::from(x0..1.0),
                    ticks,
                ),
                0.0..ymax,
            )
            .map_err(style::de)?;
        let fy = style::decimal_ticks(ymax);
        st.mesh(&mut chart.configure_mesh())
            .x_desc("angle θ between the lines of centres")
            .y_desc("ξ = ‖p_ab − p_ba‖_g / ‖p0‖_g")
            .x_label_formatter(&|x| pi_multiple(*x))
            .y_label_formatter(&fy)
            .draw()
            .map_err(style::de)?;
        chart
            .draw_series(LineSeries::new(
                self.points.iter().copied(),
                line.stroke_width(st.size(2.0)),
            ))
            .map_err(style::de)?;
        chart
            .draw_series(
                self.minima
                    .iter()
                    .flat_map(|p| style::dot(*p, mark, true, st)),
            )
            .map_err(style::de)?;
        let font = st.font(style::LEGEND_PX).color(&mark);
        for (x, y) in &self.minima {
            // above the point, or below it near the top
            let above = *y < ymax * 0.85;
            let pos = if above { VPos::Bottom } else { VPos::Top };
            let dy = if above { -st.px(14.0) } else { st.px(14.0) };
            chart
                .draw_series(std::iter::once(
                    EmptyElement::at((*x, *y))
                        + Text::new(
                            format!("θ = {}", pi_multiple(*x)),
                            (0, dy),
                            font.pos(Pos::new(HPos::Center, pos)),
                        ),
                ))
                .map_err(style::de)?;
        }
        Ok(())
    }
}

/// What `billiard-break` reports: one geometry, or a sweep.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum BilliardReport {
    Geometry(Box<BreakReport>),
    Sweep(SweepReport),
}

impl Report for BilliardReport {
    fn text(&self, o: &TextOptions) -> String {
        match self {
            BilliardReport::Geometry(r) => r.text(o),
            BilliardReport::Sweep(r) => r.text(o),
        }
    }
}
