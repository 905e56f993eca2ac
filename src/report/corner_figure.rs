//! Hand-made SVG drawings of the disk in a corner, after the figures a1–c2 of
//! Fassino & Pasquero (2020), Sect. 8: the unit disk, the two walls (segments tangent to
//! the disk at the contact points), the unit entrance velocity v0 (dashed, ending with an
//! empty dot on the border of the disk) and the exit velocities for several CORs ε.

use crate::figure as style;
use std::fmt::Write;

/// One exit velocity to draw.
#[derive(Clone, Debug)]
pub struct ExitArrow {
    /// Label (the COR).
    pub label: String,
    /// The final velocity (ẋ, ẏ), for a unit entrance velocity.
    pub v: (f64, f64),
    /// Why the run stopped (`exit`, `rest`, …), shown in the legend.
    pub termination: String,
}

const SIZE: f64 = 480.0;
/// The legend's strip, right of the drawing.
const LEGEND: f64 = 300.0;
const SCALE: f64 = 110.0; // pixels per unit length

/// Screen coordinates of a point of the disk frame (disk centre at the origin, corner
/// vertex to the right, y up).
fn px(p: (f64, f64)) -> (f64, f64) {
    (SIZE / 2.0 + SCALE * p.0, 20.0 + SIZE / 2.0 - SCALE * p.1)
}

/// The SVG text of one figure: half-angle `alpha` (radians), entrance velocity `v0`
/// (normalised here), exit velocities `exits` (scaled by 1/|v0|), and a title; the
/// legend (one line per exit velocity) lies right of the drawing.
pub fn corner_figure(title: &str, alpha: f64, v0: (f64, f64), exits: &[ExitArrow]) -> String {
    let n0 = (v0.0 * v0.0 + v0.1 * v0.1).sqrt().max(f64::MIN_POSITIVE);
    let u0 = (v0.0 / n0, v0.1 / n0);
    let mut s = style::svg_open(SIZE + LEGEND, SIZE + 20.0, title);
    // the drawing is clipped to its square, so that long walls never reach the legend
    let _ = writeln!(
        s,
        r#"<clipPath id="drawing"><rect x="0" y="30" width="{SIZE}" height="{}"/></clipPath><g clip-path="url(#drawing)">"#,
        SIZE - 10.0
    );
    // the disk (radius 1, centre at the origin)
    let (cx, cy) = px((0.0, 0.0));
    let _ = writeln!(
        s,
        r#"<circle cx="{cx:.2}" cy="{cy:.2}" r="{SCALE:.2}" fill="none" stroke="black" stroke-width="1.5"/>"#
    );
    // Walls, in the disk frame (vertex at (1/sin α, 0)): S2 touches the disk at
    // (sin α, cos α) with direction (cos α, −sin α), S1 at (sin α, −cos α) with
    // direction (cos α, sin α).
    let (sa, ca) = alpha.sin_cos();
    for sign in [1.0, -1.0] {
        let normal = (sa, sign * ca); // the contact point
        let dir = (ca, -sign * sa); // along the wall, towards the vertex
        let p = normal;
        let a = px((p.0 - 1.6 * dir.0, p.1 - 1.6 * dir.1));
        let b = px((p.0 + 1.6 * dir.0, p.1 + 1.6 * dir.1));
        let _ = writeln!(
            s,
            r##"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="#444" stroke-width="3"/>"##,
            a.0, a.1, b.0, b.1
        );
    }
    // entrance velocity: dashed, from the centre to the border, empty dot on the border
    let e = px(u0);
    let _ = writeln!(
        s,
        r#"<line x1="{cx:.2}" y1="{cy:.2}" x2="{:.2}" y2="{:.2}" stroke="black" stroke-dasharray="6,4"/>"#,
        e.0, e.1
    );
    let _ = writeln!(
        s,
        r#"<circle cx="{:.2}" cy="{:.2}" r="5" fill="white" stroke="black"/>"#,
        e.0, e.1
    );
    for (i, ex) in exits.iter().enumerate() {
        let v = (ex.v.0 / n0, ex.v.1 / n0);
        let end = px(v);
        let c = style::hex(style::series(i));
        let _ = writeln!(
            s,
            r#"<line x1="{cx:.2}" y1="{cy:.2}" x2="{:.2}" y2="{:.2}" stroke="{c}" stroke-width="2"/>"#,
            end.0, end.1
        );
        let _ = writeln!(
            s,
            r#"<circle cx="{:.2}" cy="{:.2}" r="3.5" fill="{c}"/>"#,
            end.0, end.1
        );
    }
    s.push_str("</g>\n");
    // the legend
    let x = SIZE + 10.0;
    let _ = writeln!(
        s,
        r#"<line x1="{x}" y1="60" x2="{}" y2="60" stroke="black" stroke-dasharray="6,4"/><circle cx="{}" cy="60" r="5" fill="white" stroke="black"/><text x="{}" y="64">entrance velocity v0 (unit length)</text><text x="{}" y="84" font-size="12">exit velocities (same scale):</text>"#,
        x + 24.0,
        x + 24.0,
        x + 34.0,
        x
    );
    for (i, ex) in exits.iter().enumerate() {
        let v = (ex.v.0 / n0, ex.v.1 / n0);
        let c = style::hex(style::series(i));
        let y = 104.0 + 20.0 * i as f64;
        let _ = writeln!(
            s,
            r#"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="{c}" stroke-width="2"/><text x="{}" y="{}">ε = {}: |v| = {:.4}, {}</text>"#,
            x + 24.0,
            x + 34.0,
            y + 4.0,
            style::escape(&ex.label),
            (v.0 * v.0 + v.1 * v.1).sqrt(),
            style::escape(&ex.termination)
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_every_element() {
        let ex = [ExitArrow {
            label: "1".into(),
            v: (-1.0, 0.0),
            termination: "exit".into(),
        }];
        let svg = corner_figure("t <1>", 0.5, (2.0, 0.0), &ex);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<line").count(), 6); // 2 walls, v0, one exit; 2 in the legend
        assert!(svg.contains("stroke-dasharray"));
        assert!(svg.contains("t &lt;1&gt;"));
        // v0 normalised: the empty dot lies on the border (x = 240 + 110)
        assert!(svg.contains(r#"<circle cx="350.00" cy="260.00" r="5""#));
        // exit scaled by 1/|v0| = 1/2
        assert!(svg.contains(r#"<circle cx="185.00" cy="260.00" r="3.5""#));
    }
}
