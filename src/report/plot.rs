//! A hand-made SVG line plot, used for Fig. 5 of Seghete–Murphey (ξ against θ).

use std::fmt::Write;

const W: f64 = 560.0;
const H: f64 = 360.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;

/// The SVG text of a line through `points` (x, y), with `marks` (x, y, label) drawn as red
/// dots. x runs over [x0, x1]; y from 0 to the largest value (at least 1e-12).
pub fn line_plot(
    title: &str,
    x_label: &str,
    y_label: &str,
    (x0, x1): (f64, f64),
    points: &[(f64, f64)],
    marks: &[(f64, f64, String)],
) -> String {
    let ymax = points
        .iter()
        .map(|p| p.1)
        .filter(|y| y.is_finite())
        .fold(1e-12, f64::max);
    let span = if x1 > x0 { x1 - x0 } else { 1.0 };
    let sx = |x: f64| LEFT + (x - x0) / span * (W - LEFT - RIGHT);
    let sy = |y: f64| H - BOTTOM - y / ymax * (H - TOP - BOTTOM);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="{LEFT}" y="20">{}</text>"#, escape(title));
    // axes
    let _ = writeln!(
        s,
        r#"<path d="M{:.2},{:.2} L{:.2},{:.2} L{:.2},{:.2}" fill="none" stroke="black"/>"#,
        sx(x0),
        sy(ymax),
        sx(x0),
        sy(0.0),
        sx(x1),
        sy(0.0)
    );
    for k in 0..=4 {
        let x = x0 + span * f64::from(k) / 4.0;
        let _ = writeln!(
            s,
            r#"<text x="{:.2}" y="{:.2}" text-anchor="middle">{:.2}</text>"#,
            sx(x),
            sy(0.0) + 16.0,
            x
        );
        let y = ymax * f64::from(k) / 4.0;
        let _ = writeln!(
            s,
            r#"<text x="{:.2}" y="{:.2}" text-anchor="end">{:.3}</text>"#,
            sx(x0) - 6.0,
            sy(y) + 4.0,
            y
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.2}" y="{:.2}" text-anchor="middle">{}</text>"#,
        (sx(x0) + sx(x1)) / 2.0,
        H - 12.0,
        escape(x_label)
    );
    let _ = writeln!(
        s,
        r#"<text x="14" y="{:.2}" transform="rotate(-90 14 {:.2})" text-anchor="middle">{}</text>"#,
        (sy(0.0) + sy(ymax)) / 2.0,
        (sy(0.0) + sy(ymax)) / 2.0,
        escape(y_label)
    );
    let path: Vec<String> = points
        .iter()
        .filter(|p| p.1.is_finite())
        .enumerate()
        .map(|(i, p)| {
            format!(
                "{}{:.2},{:.2}",
                if i == 0 { "M" } else { "L" },
                sx(p.0),
                sy(p.1)
            )
        })
        .collect();
    let _ = writeln!(
        s,
        r##"<path d="{}" fill="none" stroke="#1b9e77" stroke-width="2"/>"##,
        path.join(" ")
    );
    for (x, y, label) in marks {
        let _ = writeln!(
            s,
            r#"<circle cx="{:.2}" cy="{:.2}" r="4" fill="red"/><text x="{:.2}" y="{:.2}" fill="red" text-anchor="middle">{}</text>"#,
            sx(*x),
            sy(*y),
            sx(*x),
            sy(*y) - 8.0,
            escape(label)
        );
    }
    s.push_str("</svg>\n");
    s
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
