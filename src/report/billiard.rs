//! `impactkit billiard-break`: the billiard break of Seghete–Murphey (2014), Sect. VII-A —
//! one geometry, or a sweep of the angle θ (Fig. 5) and its figure.

use super::{tuple_text, Num, Report, TextOptions};
use crate::arith::{Rational, Scalar};
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

/// Fig. 5: ξ against θ/π from a sweep, the local minima marked.
pub fn sweep_svg(report: &SweepReport) -> String {
    let o = TextOptions::default();
    let mut pts = Vec::new();
    for p in &report.points {
        if let SweepPoint::Decided(d) = p {
            let x = d.theta_over_pi.to_f64();
            let y = d.xi_squared.to_f64().max(0.0).sqrt();
            if x.is_finite() && y.is_finite() {
                pts.push((x, y));
            }
        }
    }
    let marks: Vec<(f64, f64, String)> = report
        .local_minima_theta_over_pi
        .iter()
        .filter_map(|m| {
            let x = m.to_f64();
            let y = pts.iter().find(|p| (p.0 - x).abs() < 1e-12)?.1;
            Some((x, y, format!("θ = {}π", label(m, &o))))
        })
        .collect();
    let x0 = pts.first().map(|p| p.0).unwrap_or(0.0);
    super::plot::line_plot(
        &format!(
            "Billiard break (Seghete–Murphey Fig. 5): indeterminacy ξ, radii {}",
            report.radii
        ),
        "θ / π",
        "ξ = |p_ab − p_ba|_g / |p0|_g",
        (x0, 1.0),
        &pts,
        &marks,
    )
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
