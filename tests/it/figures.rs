//! Every kind of figure (issue 37, part 5): each is rendered through the CLI and checked to
//! be a well-formed SVG document (parsed as XML) or a PNG image (decoded), with a title,
//! labelled axes where it has axes, and the legend right of the data.

use crate::common::run;
use std::path::{Path, PathBuf};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("impactkit-fig-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Parses `text` as XML: the root is an `<svg>` with a width, a height and a viewBox;
/// returns every text shown.
fn svg_texts(text: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("not XML: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    for a in ["width", "height", "viewBox"] {
        assert!(root.attribute(a).is_some(), "no {a}");
    }
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let t: String = n
                .descendants()
                .filter(|t| t.is_text())
                .filter_map(|t| t.text())
                .collect();
            t.trim().to_string()
        })
        .collect()
}

/// Decodes a PNG; returns its width and height.
fn png_size(path: &Path) -> (u32, u32) {
    let file = std::fs::File::open(path).unwrap();
    let mut reader = png::Decoder::new(file).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    (info.width, info.height)
}

/// Runs `args` with `--svg FILE` for `.svg` and `.png`, and `--svg -`; checks the three.
fn plotted(name: &str, args: &[&str], expect: &[&str]) {
    let d = dir(name);
    let (svg, png) = (d.join("f.svg"), d.join("f.png"));
    for file in [&svg, &png] {
        let mut a = args.to_vec();
        a.extend(["--svg", file.to_str().unwrap()]);
        let (code, _, err) = run(&a);
        assert_eq!(code, 0, "{name}: {err}");
    }
    let texts = svg_texts(&std::fs::read_to_string(&svg).unwrap());
    for e in expect {
        assert!(
            texts.iter().any(|t| t.contains(e)),
            "{name}: no text {e:?} in {texts:?}"
        );
    }
    let (w, h) = png_size(&png);
    assert!(w >= 1200 && h >= 600, "{name}: {w}x{h}");
    let mut a = args.to_vec();
    a.extend(["--svg", "-"]);
    let (code, out, err) = run(&a);
    assert_eq!(code, 0, "{name}: {err}");
    assert_eq!(
        svg_texts(&out),
        texts,
        "{name}: --svg - differs from the file"
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn step_billiard_and_penny_figures_are_valid_svg_and_png() {
    plotted(
        "step",
        &[
            "step",
            "--system",
            "examples/step/ball-gravity.toml",
            "--dt",
            "1/20",
            "--steps",
            "30",
            "--law",
            "inelastic",
            "--eps",
            "7/10",
            "--arith",
            "f64",
        ],
        &[
            "Coordinates against time",
            "x(t)",
            "y(t)",
            "impact time",
            "t",
        ],
    );
    plotted(
        "billiard",
        &["billiard-break", "--sweep", "16", "--arith", "f64"],
        &["Indeterminacy ξ", "θ = π/2", "π/4", "local minimum of ξ"],
    );
    plotted(
        "penny",
        &[
            "penny",
            "run",
            "--table",
            "circle",
            "--law",
            "elastic",
            "--impacts",
            "4",
            "--arith",
            "f64",
        ],
        &[
            "table edge",
            "path of the contact point",
            "front end hits the edge",
            "x (m)",
            "y (m)",
        ],
    );
}

/// The texts of the SVG figure of a corner audit over `v0` on `grid` (its PNG checked too).
fn audit_texts(name: &str, v0: &str, grid: &str) -> Vec<String> {
    let d = dir(name);
    let (code, _, err) = run(&[
        "audit",
        "corner",
        "--alpha",
        "atan(1/2)",
        "--v0",
        v0,
        "--eps",
        "1/2",
        "--grid",
        grid,
        "--out",
        d.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let texts = svg_texts(&std::fs::read_to_string(d.join("map.svg")).unwrap());
    assert!(png_size(&d.join("map.png")).0 >= 1200);
    std::fs::remove_dir_all(&d).ok();
    texts
}

#[test]
fn audit_figures_are_valid_svg_and_png_with_readable_log_ticks() {
    // over one axis: the relative distance on a log axis labelled 1, 2, 5 per decade
    let texts = audit_texts("audit1", "-1..1,1/2", "41");
    let has = |p: &str| texts.iter().any(|t| t.starts_with(p));
    assert!(has("Distance of the final state"), "{texts:?}");
    assert!(
        texts.iter().any(|t| t == "2·10⁻¹⁶"),
        "no 2·10⁻¹⁶ tick: {texts:?}"
    );
    // over two axes: the rare class is counted in the legend
    let texts = audit_texts("audit2", "-1..1,-1..1", "21x21");
    let has = |p: &str| texts.iter().any(|t| t.starts_with(p));
    assert!(has("Branches over the domain"), "{texts:?}");
    assert!(has("another branch, same termination ("), "{texts:?}");
}

#[test]
fn drawn_diagrams_are_valid_svg() {
    for (args, expect) in [
        (
            vec![
                "corner", "--alpha", "pi/6", "--v0", "1,1/2", "--eps", "1", "--arith", "f64",
            ],
            vec![
                "Exit velocities of the disk in a corner",
                "entrance velocity v0 (unit length)",
                "ε = 1: |v| = ",
            ],
        ),
        (vec!["sequential", "check", "--samples", "0"], vec!["γ₁⁻"]),
        (vec!["rods", "--velocities", "2,0,-1"], vec!["t"]),
        (
            vec!["penny", "spread", "--law", "elastic", "--runs", "4"],
            vec!["Where 4 pennies are", "t = 5 s"],
        ),
    ] {
        let mut a = args.clone();
        a.extend(["--svg", "-"]);
        let (code, out, err) = run(&a);
        assert_eq!(code, 0, "{args:?}: {err}");
        let texts = svg_texts(&out);
        for e in expect {
            assert!(
                texts.iter().any(|t| t.contains(e)),
                "{args:?}: no {e:?} in {texts:?}"
            );
        }
    }
}

/// An axis given in multiples of π is labelled so (0, π/8, …, π/2), not in decimal
/// radians, and an exact zero distance is drawn on a row labelled `0` (issue 62: it sat
/// at an unmarked 10⁻²⁰); thresholds near the rounding unit read 4.5e-16, not 0.000….
#[test]
fn audit_figures_label_pi_axes_and_exact_zeros() {
    // the corner at π/4, every direction of v0 in [0, π/2], eps 1, then the given options
    let texts_of = |name: &str, args: &[&str]| {
        let d = dir(name);
        let mut all = vec![
            "audit",
            "corner",
            "--alpha",
            "pi/4",
            "--direction",
            "0..pi/2",
        ];
        all.extend_from_slice(&["--eps", "1"]);
        all.extend_from_slice(args);
        all.extend_from_slice(&["--out", d.to_str().unwrap()]);
        let (code, _, err) = run(&all);
        assert_eq!(code, 0, "{err}");
        let texts = svg_texts(&std::fs::read_to_string(d.join("map.svg")).unwrap());
        std::fs::remove_dir_all(&d).ok();
        texts
    };
    let texts = texts_of("audit-pi", &["--grid", "17"]);
    for label in ["0", "π/8", "π/4", "3π/8", "π/2"] {
        assert!(texts.iter().any(|t| t == label), "no {label}: {texts:?}");
    }
    assert!(
        texts.iter().any(|t| t.ends_with("(upper bound; 0: exact)")),
        "{texts:?}"
    );
    assert!(!texts.iter().any(|t| t == "10⁻²⁰"), "{texts:?}");
    let two = [
        "--algorithm",
        "sa",
        "--threshold",
        "0,4.5e-16",
        "--reference-algorithm",
        "ta",
        "--grid",
        "5",
    ];
    let texts = texts_of("audit-pi2", &two);
    assert!(texts.iter().any(|t| t == "4.5e-16"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "3π/8"), "{texts:?}");
    assert!(!texts.iter().any(|t| t.starts_with("0.0000")), "{texts:?}");
}
