//! SVG pictures after Winandy–Leine (2017): the cones of the Sequential Impact Law in the
//! (γ₁⁻, γ₂⁻)-plane (Fig. 4(a)) and the characteristics diagram of colliding rods (Fig. 6).

use std::fmt::Write;

/// One cone to draw: name, its two rays, and whether it overlaps an earlier cone (a
/// construction that does not close).
#[derive(Clone, Debug)]
pub struct ConeSketch {
    pub name: String,
    pub from: (f64, f64),
    pub to: (f64, f64),
    pub overlaps: bool,
}

fn unit(v: (f64, f64)) -> (f64, f64) {
    let n = (v.0 * v.0 + v.1 * v.1).sqrt().max(f64::MIN_POSITIVE);
    (v.0 / n, v.1 / n)
}

use crate::figure::escape;

const FILL: [&str; 4] = ["#e8f1fa", "#fdf0e0", "#e9f5e9", "#f3e9f5"];

/// Fig. 4(a): the cones as sectors around the origin, counter-clockwise from C_I.
pub fn cone_figure(title: &str, cones: &[ConeSketch]) -> String {
    const SIZE: f64 = 480.0;
    const R: f64 = 200.0;
    let c = SIZE / 2.0;
    let px = |u: (f64, f64), r: f64| (c + r * u.0, c - r * u.1);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" viewBox="0 0 {SIZE} {SIZE}" font-family="sans-serif" font-size="13">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    for (i, k) in cones.iter().enumerate() {
        let (a, b) = (unit(k.from), unit(k.to));
        let (p, q) = (px(a, R), px(b, R));
        let fill = if k.overlaps {
            "#f4b6b6"
        } else {
            FILL[i % FILL.len()]
        };
        let opacity = if k.overlaps { "0.7" } else { "1" };
        let _ = writeln!(
            s,
            r##"<path d="M {c:.2} {c:.2} L {:.2} {:.2} A {R} {R} 0 0 0 {:.2} {:.2} Z" fill="{fill}" fill-opacity="{opacity}" stroke="#555" stroke-width="1"/>"##,
            p.0, p.1, q.0, q.1
        );
        let mid = unit((a.0 + b.0, a.1 + b.1));
        let l = px(mid, 0.62 * R);
        // C_II etc. after the paper; names that are already C<k> stay as they are
        let label = match k.name.strip_prefix('C') {
            Some(_) => escape(&k.name),
            None => format!(
                r#"C<tspan dy="4" font-size="10">{}</tspan>"#,
                escape(&k.name)
            ),
        };
        let _ = writeln!(
            s,
            r#"<text x="{:.2}" y="{:.2}" text-anchor="middle">{label}</text>"#,
            l.0, l.1
        );
    }
    // axes
    let _ = writeln!(
        s,
        r##"<line x1="10" y1="{c}" x2="{}" y2="{c}" stroke="#000" stroke-width="0.8"/><line x1="{c}" y1="{}" x2="{c}" y2="30" stroke="#000" stroke-width="0.8"/>"##,
        SIZE - 10.0,
        SIZE - 10.0
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="end">γ₁⁻</text><text x="{}" y="40">γ₂⁻</text>"#,
        SIZE - 12.0,
        c - 6.0,
        c + 6.0
    );
    let _ = writeln!(s, r#"<text x="10" y="18">{}</text>"#, escape(title));
    s.push_str("</svg>\n");
    s
}

/// Fig. 6: the characteristics diagram of a rod run: x (reference position, one unit per
/// cell) to the right, t upwards. A right-going (left-going) characteristic crosses a
/// cell during a step where R (L) changes; the velocity of each cell is written at the
/// lattice times; a contact drawn dashed is open.
pub fn characteristics_figure(
    title: &str,
    cells_per_rod: &[usize],
    steps_per_unit: usize,
    r: &[Vec<f64>],
    l: &[Vec<f64>],
    open: &[Vec<bool>],
    velocity_labels: &[Vec<String>],
) -> String {
    let ncell: usize = cells_per_rod.iter().sum();
    let nstep = r.len().saturating_sub(1).max(1);
    let w = (80.0 * ncell as f64 / steps_per_unit as f64).clamp(300.0, 900.0);
    let cw = w / ncell.max(1) as f64;
    let h = (cw * nstep as f64).clamp(120.0, 900.0);
    let ch = h / nstep as f64;
    let (x0, y0) = (40.0, 40.0 + h);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" viewBox="0 0 {:.0} {:.0}" font-family="sans-serif" font-size="10">"#,
        w + 80.0,
        h + 80.0,
        w + 80.0,
        h + 80.0
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="10" y="16" font-size="13">{}</text>"#,
        escape(title)
    );
    let x = |j: f64| x0 + cw * j;
    let y = |n: f64| y0 - ch * n;
    // rod boundaries (contacts): solid while closed, dashed while open
    let mut edge = 0usize;
    for (k, c) in cells_per_rod.iter().enumerate() {
        edge += c;
        if k + 1 == cells_per_rod.len() {
            break;
        }
        for n in 0..nstep {
            let dash = if open.get(n).and_then(|o| o.get(k)).copied().unwrap_or(false) {
                r#" stroke-dasharray="3,3""#
            } else {
                ""
            };
            let _ = writeln!(
                s,
                r##"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="#999"{dash}/>"##,
                x(edge as f64),
                y(n as f64),
                x(edge as f64),
                y(n as f64 + 1.0)
            );
        }
    }
    let _ = writeln!(
        s,
        r##"<rect x="{x0}" y="{:.2}" width="{w:.2}" height="{h:.2}" fill="none" stroke="#000"/>"##,
        y0 - h
    );
    for n in 0..nstep {
        for j in 0..ncell {
            let (jf, nf) = (j as f64, n as f64);
            if r[n + 1][j] != r[n][j] {
                let _ = writeln!(
                    s,
                    r#"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="black"/>"#,
                    x(jf),
                    y(nf),
                    x(jf + 1.0),
                    y(nf + 1.0)
                );
            }
            if l[n + 1][j] != l[n][j] {
                let _ = writeln!(
                    s,
                    r#"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="black"/>"#,
                    x(jf + 1.0),
                    y(nf),
                    x(jf),
                    y(nf + 1.0)
                );
            }
        }
    }
    for (n, row) in velocity_labels.iter().enumerate() {
        for (j, label) in row.iter().enumerate() {
            let _ = writeln!(
                s,
                r##"<text x="{:.2}" y="{:.2}" text-anchor="middle" fill="#1b5e9e">{}</text>"##,
                x(j as f64 + 0.5),
                y(n as f64) - 3.0,
                escape(label)
            );
        }
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.2}" y="{:.2}" text-anchor="end">x</text><text x="{:.2}" y="{:.2}">t</text>"#,
        x0 + w,
        y0 + 16.0,
        x0 - 14.0,
        y0 - h
    );
    s.push_str("</svg>\n");
    s
}
