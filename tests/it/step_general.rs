//! `impactkit step` on general Lagrangian systems (`[lagrangian]`: M(q), V(q), forces,
//! curved gaps; Seghete–Murphey Sect. VI): the general stepper agrees with the
//! constant-M stepper, a double pendulum's elastic impact is the reflection of (7) in
//! the metric M(q*) (checked against closed forms written here), certified enclosures
//! contain the MPFR run, and bad input is refused with exit 2.

use crate::common::{bad, json};

fn example(file: &str) -> String {
    format!("{}/examples/step/{file}", env!("CARGO_MANIFEST_DIR"))
}

fn num(x: &serde_json::Value) -> f64 {
    let s = x["approx"]
        .as_str()
        .or_else(|| x["exact"].as_str())
        .or_else(|| x["lo"].as_str())
        .unwrap();
    s.parse().unwrap()
}

fn bounds(x: &serde_json::Value) -> (f64, f64) {
    (
        x["lo"].as_str().unwrap().parse().unwrap(),
        x["hi"].as_str().unwrap().parse().unwrap(),
    )
}

/// `text` written to a file of its own directory (tests run in parallel, and `tempdir`
/// empties the directory it names).
fn write(name: &str, text: &str) -> String {
    let dir = crate::common::tempdir(&format!("step-general-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

fn args<'a>(file: &'a str, dt: &'a str, steps: &'a str, arith: &'a str) -> Vec<&'a str> {
    vec![
        "step", "--system", file, "--dt", dt, "--steps", steps, "--law", "elastic", "--arith",
        arith, "--format", "json",
    ]
}

/// The ball of `examples/step/ball-gravity.toml` written as a `[lagrangian]` system
/// (V = 10 y, the gap y): the general stepper's nodes and impact times equal the
/// constant-M stepper's (the midpoint step of an affine ∇V is the same equation).
#[test]
fn general_ball_is_the_constant_mass_ball() {
    let general = write(
        "ball.toml",
        "coordinates = [\"x\", \"y\"]\nq = [\"0\", \"1/4\"]\np = [\"1\", \"0\"]\n[lagrangian]\nmasses = [\"1\", \"1\"]\npotential = \"10*y\"\n[[lagrangian.contact]]\nname = \"floor\"\ngap = \"y\"\n",
    );
    let old = example("ball-gravity.toml");
    let a = json(&args(&general, "1/10", "20", "f64"));
    let b = json(&args(&old, "1/10", "20", "f64"));
    // impacts every 2·sqrt(5)/10 from sqrt(5)/10: four in 2 s
    assert_eq!(a["impacts"].as_array().unwrap().len(), 4);
    assert_eq!(b["impacts"].as_array().unwrap().len(), 4);
    for k in 0..4 {
        let (ta, tb) = (num(&a["impacts"][k]["time"]), num(&b["impacts"][k]["time"]));
        assert!((ta - tb).abs() < 1e-12, "impact {k}: {ta} vs {tb}");
    }
    // t* = sqrt(1/20) exactly (the constant stepper's closed form)
    assert!((num(&a["impacts"][0]["time"]) - 0.05f64.sqrt()).abs() < 1e-14);
    for k in 0..=20 {
        for j in 0..2 {
            let (x, y) = (num(&a["nodes"][k]["q"][j]), num(&b["nodes"][k]["q"][j]));
            assert!((x - y).abs() < 1e-12, "node {k} q{j}: {x} vs {y}");
            let (x, y) = (num(&a["nodes"][k]["p"][j]), num(&b["nodes"][k]["p"][j]));
            assert!((x - y).abs() < 1e-11, "node {k} p{j}: {x} vs {y}");
        }
    }
}

/// M(q) of the double pendulum of `examples/step/double-pendulum-wall.toml`
/// (m1 = m2 = l1 = l2 = 1) and the wall's normal ∇φ = (−cos a, −cos b), by hand.
fn pendulum_mass(a: f64, b: f64) -> [[f64; 2]; 2] {
    let c = (a - b).cos();
    [[2.0, c], [c, 1.0]]
}

fn solve2(m: [[f64; 2]; 2], p: [f64; 2]) -> [f64; 2] {
    let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    [
        (m[1][1] * p[0] - m[0][1] * p[1]) / det,
        (m[0][0] * p[1] - m[1][0] * p[0]) / det,
    ]
}

/// The double pendulum's impact with the wall: at q* the gap is 0, and p⁺ is the
/// reflection (7) of p⁻ about u = ∇φ(q*) in the metric M(q*): p⁺ − p⁻ is a multiple
/// of u, the normal rate ⟨u, M⁻¹p⟩ changes sign, and the energy is kept (Lemma 5). Every
/// quantity is recomputed here from the closed forms, not from the stepper.
#[test]
fn double_pendulum_impact_is_the_reflection_in_m_of_q() {
    let f = example("double-pendulum-wall.toml");
    let r = json(&args(&f, "1/100", "40", "f64"));
    let i = &r["impacts"][0];
    assert_eq!(i["active"][0], "wall");
    let (a, b) = (num(&i["q"][0]), num(&i["q"][1]));
    assert!((0.5 - a.sin() - b.sin()).abs() < 1e-12, "gap at q*");
    let pm = [num(&i["before"][0]), num(&i["before"][1])];
    let pp = [num(&i["after"][0]), num(&i["after"][1])];
    let u = [-a.cos(), -b.cos()];
    let m = pendulum_mass(a, b);
    let rate = |p: [f64; 2]| {
        let v = solve2(m, p);
        u[0] * v[0] + u[1] * v[1]
    };
    assert!(rate(pm) < -0.1, "approaching before: {}", rate(pm));
    assert!((rate(pp) + rate(pm)).abs() < 1e-12, "rate reversed");
    let d = [pp[0] - pm[0], pp[1] - pm[1]];
    assert!((d[0] * u[1] - d[1] * u[0]).abs() < 1e-12, "impulse along u");
    let kinetic = |p: [f64; 2]| {
        let v = solve2(m, p);
        (p[0] * v[0] + p[1] * v[1]) / 2.0
    };
    assert!((kinetic(pp) - kinetic(pm)).abs() < 1e-12);
    // the report's own energy check agrees
    let rows = r["conservation"].as_array().unwrap();
    let elastic = rows
        .iter()
        .find(|x| x["quantity"] == "energy across elastic impacts")
        .unwrap();
    assert!(
        ["exactly", "to-rounding"].contains(&elastic["kept"].as_str().unwrap()),
        "{elastic}"
    );
}

/// Certified runs (interval Newton/Krawczyk, bisection of the impact time on boxes of
/// step lengths) enclose the MPFR run at 200 bits, node by node and at the impact.
#[test]
fn certified_double_pendulum_encloses_the_mpfr_run() {
    let f = example("double-pendulum-wall.toml");
    let m = json(&args(&f, "1/100", "60", "mpfr:200"));
    let e = json(&args(&f, "1/100", "60", "interval"));
    assert!(e["stopped"].is_null(), "{}", e["stopped"]);
    let (lo, hi) = bounds(&e["impacts"][0]["time"]);
    let t = num(&m["impacts"][0]["time"]);
    assert!(lo <= t && t <= hi && hi - lo < 1e-9, "{t} in [{lo}, {hi}]");
    for k in [0, 25, 26, 60] {
        for j in 0..2 {
            let (lo, hi) = bounds(&e["nodes"][k]["q"][j]);
            let x = num(&m["nodes"][k]["q"][j]);
            assert!(
                lo - 1e-15 <= x && x <= hi + 1e-15,
                "node {k}: {x} in [{lo}, {hi}]"
            );
            assert!(hi - lo < 1e-8, "node {k}: width {}", hi - lo);
        }
    }
}

/// The PD-controlled arm: one elastic strike of the table, energy kept across it, and
/// the controller settling the arm near its reference (a = −2/5 less the droop of
/// gravity against kp = 200).
#[test]
fn pd_arm_strikes_the_table_once() {
    let f = example("arm-pd-table.toml");
    let r = json(&args(&f, "1/200", "200", "f64"));
    assert!(r["stopped"].is_null(), "{}", r["stopped"]);
    assert_eq!(r["impacts"].as_array().unwrap().len(), 1);
    let a = num(&r["nodes"][200]["q"][0]);
    assert!((-0.46..-0.42).contains(&a), "{a}");
}

/// The double pendulum with its mass model written as bodies
/// (`examples/step/double-pendulum-bodies.toml`: M = Σ m J_cᵀJ_c and V = Σ m g y derived
/// from the positions) runs as the explicit M(q) of `double-pendulum-wall.toml`: the same
/// impact and nodes to rounding in f64, and certified enclosures that meet.
#[test]
fn bodies_are_the_explicit_mass_matrix() {
    let (a, b) = (
        example("double-pendulum-wall.toml"),
        example("double-pendulum-bodies.toml"),
    );
    let (x, y) = (
        json(&args(&a, "1/100", "60", "f64")),
        json(&args(&b, "1/100", "60", "f64")),
    );
    assert_eq!(x["impacts"].as_array().unwrap().len(), 1);
    assert_eq!(y["impacts"].as_array().unwrap().len(), 1);
    let dt = num(&x["impacts"][0]["time"]) - num(&y["impacts"][0]["time"]);
    assert!(dt.abs() < 1e-12, "{dt}");
    for key in ["q", "p"] {
        for j in 0..2 {
            let d = num(&x["nodes"][60][key][j]) - num(&y["nodes"][60][key][j]);
            assert!(d.abs() < 1e-12, "{key}[{j}]: {d}");
        }
    }
    let (u, v) = (
        json(&args(&a, "1/100", "30", "interval")),
        json(&args(&b, "1/100", "30", "interval")),
    );
    assert!(v["stopped"].is_null(), "{}", v["stopped"]);
    for j in 0..2 {
        let ((alo, ahi), (blo, bhi)) = (
            bounds(&u["nodes"][30]["q"][j]),
            bounds(&v["nodes"][30]["q"][j]),
        );
        assert!(
            alo <= bhi && blo <= ahi,
            "[{alo}, {ahi}] and [{blo}, {bhi}] are disjoint"
        );
    }
}

/// Bad input: exit 2, one line naming the key or the option.
#[test]
fn general_step_bad_input() {
    let f = example("double-pendulum-wall.toml");
    let e = bad(&args(&f, "1/100", "10", "exact"));
    assert!(e.contains("--arith") && e.contains("mpfr"), "{e}");
    // `laws` reads constant-M systems and says where a [lagrangian] one runs
    let e = bad(&["laws", &f]);
    assert!(
        e.contains("lagrangian") && e.contains("runs in `step`"),
        "{e}"
    );
    let base =
        "coordinates = [\"a\"]\nq = [\"0\"]\nvelocity = [\"1\"]\n[lagrangian]\nmasses = [\"1\"]\n";
    let cases = [
        (
            format!("{base}[[lagrangian.contact]]\ngap = \"w - a\"\n"),
            "unknown variable `w`",
        ),
        (format!("{base}force = [\"a_dot\", \"1\"]\n"), "force"),
        (
            base.replace(
                "masses = [\"1\"]",
                "mass_matrix = [[\"1\", \"a\"], [\"0\", \"1\"]]",
            )
            .replace("[\"a\"]", "[\"a\", \"b\"]")
            .replace("q = [\"0\"]", "q = [\"1\", \"0\"]")
            .replace("velocity = [\"1\"]", "velocity = [\"1\", \"0\"]"),
            "not symmetric",
        ),
        (format!("masses = [\"1\"]\n{base}"), "inside that table"),
        (base.replace("coordinates = [\"a\"]\n", ""), "coordinates"),
        (
            base.replace(
                "masses = [\"1\"]",
                "parameters = [\"a = 1\"]\nmasses = [\"1\"]",
            ),
            "not a free name",
        ),
        (
            format!("{base}[[lagrangian.contact]]\ngap = \"a + 1/2\"\n")
                .replace("q = [\"0\"]", "q = [\"-1\"]"),
            "negative",
        ),
        (
            format!("{base}[[lagrangian.body]]\nmass = \"1\"\nposition = [\"a\"]\nangle = \"a\"\n"),
            "`angle` and `inertia` together",
        ),
        (
            format!("{base}[[lagrangian.body]]\nmass = \"1\"\nposition = []\n"),
            "1 to 3",
        ),
        (format!("{base}gravity = \"10\"\n"), "there are none"),
        (
            base.replace(
                "masses = [\"1\"]\n",
                "[[lagrangian.body]]\nmass = \"1\"\nposition = [\"0\"]\n",
            ),
            "not positive definite",
        ),
    ];
    for (k, (text, want)) in cases.iter().enumerate() {
        let p = write(&format!("bad{k}.toml"), text);
        let e = bad(&args(&p, "1/10", "3", "f64"));
        assert!(e.contains(want), "case {k}: {e}");
    }
}

/// McGeer's rimless wheel at heel strike (`examples/systems/rimless-wheel.toml`): the
/// plastic impact of the new spoke maps the hub's rate ω⁻ about the old foot to
/// ω⁺ = cos(2α)ω⁻ about the new one. Exactly at α = π/6 (every law that applies gives
/// q̇⁺ = (√3/4, 1/4), |q̇⁺| = 1/2), and in `f64` at other α.
#[test]
fn rimless_wheel_heel_strike_is_cos_two_alpha() {
    let f = format!(
        "{}/examples/systems/rimless-wheel.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let r = json(&["laws", &f, "--format", "json"]);
    let mut applied = 0;
    for law in r["laws"].as_array().unwrap() {
        let Some(out) = law["outcomes"].as_array() else {
            continue;
        };
        if out.is_empty() {
            continue;
        }
        applied += 1;
        let v: Vec<&str> = out[0]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["exact"].as_str().unwrap())
            .collect();
        assert_eq!(v, ["1/4*sqrt(3)", "1/4"], "{}", law["law"]);
    }
    assert!(applied >= 4, "{applied} laws applied");
    for k in [5, 8, 10, 12] {
        let a = std::f64::consts::PI / f64::from(k);
        let text = std::fs::read_to_string(&f)
            .unwrap()
            .replace("pi/6", &format!("pi/{k}"));
        let p = write(&format!("rimless{k}.toml"), &text);
        let r = json(&["laws", &p, "--arith", "f64", "--format", "json"]);
        let v = &r["laws"][0]["outcomes"][0];
        let speed = num(&v[0]).hypot(num(&v[1]));
        assert!(
            (speed - (2.0 * a).cos()).abs() < 1e-15,
            "alpha = pi/{k}: {speed}"
        );
    }
}

/// McGeer's rimless wheel rolling down a slope (`examples/step/rimless-wheel-slope.toml`:
/// α = π/8, γ = 1/10, g = 1, spokes of length 1, ω₀ = 1/2): each stance is a held contact
/// on a curved gap, each landing a plastic strike. The hub's speed after strike n follows
/// the continuous model's exact recurrence ω²ₙ₊₁ = cos²(2α)(ω²ₙ + 4g sin γ sin α) — the
/// stance gains 2g sin γ sin α of energy, the strike keeps cos(2α) of the speed — towards
/// McGeer's fixed point ω*² = 4g sin γ sin α = 0.15282… (at cos²(2α) = 1/2), to O(h²):
/// within 10⁻⁵ at h = 1/100 and 10⁻⁷ at h = 1/1000; every strike's ω⁺/ω⁻ is cos(2α) to
/// the same order, and all 12 strikes are found.
#[test]
fn rimless_wheel_rolls_to_mcgeers_steady_speed() {
    let f = example("rimless-wheel-slope.toml");
    let (alpha, gam) = (std::f64::consts::PI / 8.0, 0.1f64);
    let c = (2.0 * alpha).cos();
    let gain = 4.0 * gam.sin() * alpha.sin();
    for (dt, steps, tol) in [("1/100", "2800", 1e-5), ("1/1000", "28000", 1e-7)] {
        let mut a = args(&f, dt, steps, "f64");
        a[8] = "plastic";
        let r = json(&a);
        assert!(r["stopped"].is_null(), "{dt}: {}", r["stopped"]);
        let impacts = r["impacts"].as_array().unwrap();
        // the first impact is the stance foot at t = 0 (no change); then feet 1..12
        assert_eq!(impacts.len(), 13, "{dt}");
        let mut w2 = 0.25;
        for (n, im) in impacts.iter().enumerate().skip(1) {
            assert_eq!(im["active"][0], format!("foot{n}"), "{dt}");
            let speed = |k: &str| num(&im[k][0]).hypot(num(&im[k][1]));
            w2 = c * c * (w2 + gain);
            let (before, after) = (speed("before"), speed("after"));
            assert!(
                (after - w2.sqrt()).abs() < tol,
                "{dt}, strike {n}: {after} vs {}",
                w2.sqrt()
            );
            assert!((after / before - c).abs() < 2.0 * tol, "{dt}, strike {n}");
        }
        let fixed = (gain * c * c / (1.0 - c * c)).sqrt();
        assert!(
            (w2.sqrt() - fixed).abs() < 1e-4,
            "the recurrence nears omega* = {fixed}"
        );
    }
}

/// Resting contacts: the ball of the constant-M stepper, dropped under the plastic law,
/// comes to rest on the floor at t* = √5/10 and stays at y = 0 with p = (1, 0) — in the
/// general stepper as in the constant one; a PD arm pushed onto the table rests with its
/// tip on the table (φ = 0 to rounding) to the end.
#[test]
fn resting_contacts_are_held() {
    let general = write(
        "ball-rest.toml",
        "coordinates = [\"x\", \"y\"]\nq = [\"0\", \"1/4\"]\np = [\"1\", \"0\"]\n[lagrangian]\nmasses = [\"1\", \"1\"]\npotential = \"10*y\"\n[[lagrangian.contact]]\nname = \"floor\"\ngap = \"y\"\n",
    );
    let plastic = |f: &str| {
        let mut a = args(f, "1/10", "10", "f64");
        a[8] = "plastic";
        json(&a)
    };
    let a = plastic(&general);
    let b = plastic(&example("ball-gravity.toml"));
    for r in [&a, &b] {
        assert_eq!(r["rests"][0]["contact"], "floor");
        assert_eq!(r["rests"][0]["held"], true);
        assert!(r["stopped"].is_null());
    }
    for k in 3..=10 {
        let (ya, yb) = (num(&a["nodes"][k]["q"][1]), num(&b["nodes"][k]["q"][1]));
        assert!(ya.abs() < 1e-15 && yb.abs() < 1e-15, "node {k}: {ya}, {yb}");
        let (pa, pb) = (num(&a["nodes"][k]["p"][1]), num(&b["nodes"][k]["p"][1]));
        assert!(pa.abs() < 1e-14 && pb.abs() < 1e-14, "node {k}: {pa}, {pb}");
    }
    let text = std::fs::read_to_string(example("arm-pd-table.toml"))
        .unwrap()
        .replace("\"a_ref = -2/5\"", "\"a_ref = -3/2\"");
    let arm = write("arm-push.toml", &text);
    let mut a = args(&arm, "1/200", "200", "f64");
    a[8] = "plastic";
    let r = json(&a);
    assert!(r["stopped"].is_null(), "{}", r["stopped"]);
    assert_eq!(
        r["rests"].as_array().unwrap().len(),
        1,
        "held, never released"
    );
    let tip = |n: &serde_json::Value| {
        let (x, y) = (num(&n["q"][0]), num(&n["q"][1]));
        0.5 * x.sin() + 0.5 * (x + y).sin() + 0.6
    };
    let rest = r["rests"][0]["step"].as_u64().unwrap() as usize;
    for n in &r["nodes"].as_array().unwrap()[rest + 1..] {
        assert!(tip(n).abs() < 1e-12, "{}", tip(n));
    }
}

/// The `[lagrangian]` model of an example file.
fn example_model(file: &str) -> impactkit::system::lagrangian::Model {
    let path = example(file);
    let text = std::fs::read_to_string(&path).unwrap();
    impactkit::system::step_file::StepFile::from_toml(&text, &path)
        .unwrap()
        .lagrangian
        .unwrap()
}

/// The file's M(q) equals `src/system/trex.rs`'s at the point, entry by entry.
fn assert_trex_mass(
    file: &str,
    lv: &impactkit::system::lagrangian::Levels<f64>,
    point: &impactkit::system::trex::TrexPoint<f64>,
) {
    let (ours, theirs) = (lv.mass(&point.q).unwrap(), point.mass_matrix().unwrap());
    for i in 0..8 {
        for j in 0..8 {
            let (a, b) = (*ours.get(i, j), *theirs.get(i, j));
            assert!(
                (a - b).abs() <= 1e-11 * (1.0 + b.abs()),
                "{file}: M[{i}][{j}] = {a} against {b}"
            );
        }
    }
}

/// TREX as a system file (`examples/step/trex-initial.toml`, `trex-optimized.toml`: the
/// declared model of docs/trex-model.md written as seven bodies) against the same model in
/// Rust (`src/system/trex.rs`, Sect. VII-B): the same M(q) and the same two gaps at both
/// rows of Table I, two independent encodings of one declared model.
#[test]
fn trex_file_is_the_declared_model() {
    use impactkit::system::lagrangian::Levels;
    use impactkit::system::trex::{table_i, TailRule};
    for (row, file) in table_i()
        .iter()
        .zip(["trex-initial.toml", "trex-optimized.toml"])
    {
        let model = example_model(file);
        let lv = Levels::<f64>::new(&model, &()).unwrap();
        let point = row.point::<f64>(&(), TailRule::Printed);
        assert_trex_mass(file, &lv, &point);
        let ((tail, foot), _) = point.gaps_and_normals().unwrap();
        assert!((lv.gap(0, &point.q).unwrap() - tail).abs() < 1e-12);
        assert!((lv.gap(1, &point.q).unwrap() - foot).abs() < 1e-12);
    }
}

/// The TREX drop: from 17 cm above Table I's Initial row the tail strikes first, then
/// the right foot (the declared model's tail penetrates 0.57 cm at the printed row, the
/// foot is 0.12 cm up), each an elastic impact keeping the energy.
#[test]
fn trex_drop_strikes_tail_then_foot() {
    let f = example("trex-initial.toml");
    let r = json(&args(&f, "1/1000", "200", "f64"));
    assert!(r["stopped"].is_null(), "{}", r["stopped"]);
    let impacts = r["impacts"].as_array().unwrap();
    assert_eq!(impacts.len(), 2, "{impacts:?}");
    // free fall of the 17 cm plus the 0.57 cm the tail tip is below y = 0 at the row
    let t0 = (2.0 * (17.0 - 0.574) / 981.0f64).sqrt();
    let t = num(&impacts[0]["time"]);
    assert!((t - t0).abs() < 2e-3, "{t} against {t0}");
}

/// Fig. 8's two runs (`--compare-orders`) of the two gaits on the optimized mechanism
/// (`examples/step/trex-fig8-*.toml`), f64.
fn fig8(steps: &str) -> serde_json::Value {
    let (a, b) = (
        example("trex-fig8-optimized.toml"),
        example("trex-fig8-initial.toml"),
    );
    json(&[
        "step",
        &a,
        &b,
        "--dt",
        "1/1000",
        "--steps",
        steps,
        "--law",
        "elastic",
        "--arith",
        "f64",
        "--together",
        "1e-9",
        "--compare-orders",
        "--format",
        "json",
    ])
}

/// ξ of a run at a node, and its largest value.
fn xi_at(run: &serde_json::Value, step: usize) -> f64 {
    num(&run["indeterminacy"]["nodes"][step]["xi"])
}

/// Seghete–Murphey Fig. 8 on the declared model: dropped from 17 cm, tail and right foot
/// strike together at t* = √(2·17/981) (`--together`: one simultaneous impact); the
/// two reflection orders then part by ξ ≈ 0.024 for the initial gait (straight knees,
/// hips antiphase) and by rounding only (ξ ≈ 3·10⁻¹⁷) for the optimized gait, whose
/// contacts are orthogonal in the kinetic metric (⟨u, v⟩_g = 0, certified in
/// `src/system/trex.rs`): "more than five orders of magnitude" holds, right after the
/// impact and over the run.
#[test]
fn trex_fig8_optimized_gait_is_orders_below_the_initial_gait() {
    let r = fig8("300");
    let runs = r["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    let ts = (34.0f64 / 981.0).sqrt();
    for run in runs {
        assert!(run["stopped"].is_null(), "{}", run["stopped"]);
        let first = &run["impacts"][0];
        assert_eq!(first["active"], serde_json::json!(["tail", "foot"]));
        assert!((num(&first["time"]) - ts).abs() < 1e-9, "{}", first["time"]);
        // the drop is a rigid fall: no ξ before the impact
        assert_eq!(xi_at(run, 186), 0.0);
    }
    let (opt, ini) = (&runs[0], &runs[1]);
    let (xo, xi) = (xi_at(opt, 187), xi_at(ini, 187));
    assert!(xi > 0.02 && xi < 0.03, "initial gait: {xi}");
    assert!(xo < 1e-14, "optimized gait: {xo}");
    let largest = |run: &serde_json::Value| num(&run["indeterminacy"]["largest"]["xi"]);
    assert!(
        largest(ini) / largest(opt) > 1e5,
        "{} {}",
        largest(ini),
        largest(opt)
    );
}

/// The Fig. 8 files are the model of `src/system/trex.rs` at impactkit's certified
/// optimum (the optimized gait: both gaps and ⟨u, v⟩_g vanish to the digits written) and
/// at the declared initial gait (both gaps vanish, ⟨u, v⟩_g = 1.84·10⁻⁴ does not).
#[test]
fn trex_fig8_files_are_the_declared_model_at_its_optimum() {
    use impactkit::system::lagrangian::Levels;
    use impactkit::system::trex::{TailRule, TrexDesign, TrexPoint};
    let design = TrexDesign::from_array([6.972287, 4.059328, 7.998306, 9.994437]);
    for (file, inner) in [
        ("trex-fig8-optimized.toml", 0.0),
        ("trex-fig8-initial.toml", 1.843e-4),
    ] {
        let path = example(file);
        let model = example_model(file);
        let lv = Levels::<f64>::new(&model, &()).unwrap();
        let json = json(&args(&path, "1/1000", "1", "f64"));
        let mut q: Vec<f64> = json["nodes"][0]["q"]
            .as_array()
            .unwrap()
            .iter()
            .map(num)
            .collect();
        q[1] -= 17.0;
        let point = TrexPoint {
            design: design.clone(),
            q: q.clone(),
            tail: TailRule::Printed,
        };
        assert_trex_mass(file, &lv, &point);
        let [gt, gf, ip] = point.residual().unwrap();
        assert!(
            gt.abs() < 1e-12 && gf.abs() < 1e-12,
            "{file}: gaps {gt} {gf}"
        );
        assert!((ip - inner).abs() < 1e-6, "{file}: <u, v>_g = {ip}");
        assert!(lv.gap(0, &q).unwrap().abs() < 1e-12 && lv.gap(1, &q).unwrap().abs() < 1e-12);
    }
}

/// Without `--together` rounding separates the two strikes of the optimized gait (foot,
/// then tail 10⁻¹⁶ s later); on enclosures the reflection order of the straight drop is
/// undecided and said so: both contacts approach at the same rate ⟨u_i, p⟩_g = ẏ (every
/// gap is y plus a function of the held angles), so Sect. VII-B's argmin / argmax is a
/// tie that only rounding breaks.
#[test]
fn trex_fig8_simultaneity_and_the_tie_of_the_order() {
    let f = example("trex-fig8-optimized.toml");
    let r = json(&args(&f, "1/1000", "190", "f64"));
    let active: Vec<&serde_json::Value> = r["impacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| &i["active"])
        .collect();
    assert_eq!(
        active,
        [&serde_json::json!(["foot"]), &serde_json::json!(["tail"])]
    );
    let r = json(&[
        "step",
        &f,
        "--dt",
        "1/1000",
        "--steps",
        "190",
        "--law",
        "elastic",
        "--arith",
        "interval",
        "--together",
        "1e-9",
        "--format",
        "json",
    ]);
    let why = r["stopped"].as_str().unwrap();
    assert!(why.contains("⟨u_i, p⟩_g − ⟨u_j, p⟩_g"), "{why}");
    assert_eq!(r["nodes"].as_array().unwrap().len(), 187);
}

#[test]
fn together_and_compare_orders_bad_input() {
    let trex = example("trex-fig8-optimized.toml");
    let ball = example("ball-gravity.toml");
    let base = ["--dt", "1/1000", "--steps", "5", "--law", "elastic"];
    let run = |files: &[&str], extra: &[&str]| {
        let mut a = vec!["step"];
        a.extend_from_slice(files);
        a.extend_from_slice(&base);
        a.extend_from_slice(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    for (a, needle) in [
        (run(&[&trex], &["--together", "-1"]), "--together"),
        (run(&[&trex], &["--together", "x"]), "--together"),
        (run(&[&ball], &["--together", "1"]), "[lagrangian]"),
        (run(&[&ball, &ball], &[]), "--compare-orders"),
        (
            run(&[ball.as_str(); 17], &["--compare-orders"]),
            "at most 16",
        ),
    ] {
        let args: Vec<&str> = a.iter().map(String::as_str).collect();
        let msg = bad(&args);
        assert!(msg.contains(needle), "{args:?}: {msg}");
    }
}

/// `--compare-orders` in exact arithmetic on a constant-M system: balls of masses 1, 2, 1
/// touching, the outer ones moving in (p = (2, 0, −1)); both contacts approach, at
/// different rates. Reflections (7) by hand: argmin (contact 12 first) ends at
/// p = (−2/3, −4/9, 19/9), argmax (23 first) at (−14/9, 32/27, 37/27), so
/// ξ² = ‖p_a − p_b‖²_g / ‖p_a‖²_g = 8/15 exactly, and ξ = √(8/15) is not rational.
#[test]
fn compare_orders_exact_on_three_balls() {
    let f = write(
        "balls-121.toml",
        "masses = [\"1\", \"2\", \"1\"]\nq = [\"0\", \"1\", \"2\"]\np = [\"2\", \"0\", \"-1\"]\n\
         [[gap]]\nname = \"12\"\na = [\"-1\", \"1\", \"0\"]\nb = \"-1\"\n\
         [[gap]]\nname = \"23\"\na = [\"0\", \"-1\", \"1\"]\nb = \"-1\"\n",
    );
    let r = json(&[
        "step",
        &f,
        "--dt",
        "1/10",
        "--steps",
        "1",
        "--law",
        "elastic",
        "--arith",
        "exact",
        "--compare-orders",
        "--format",
        "json",
    ]);
    let x = &r["indeterminacy"];
    assert_eq!(x["against"], "argmax");
    assert_eq!(x["nodes"][0]["xi_squared"]["exact"], "0");
    assert_eq!(x["nodes"][1]["xi_squared"]["exact"], "8/15");
    assert!(x["nodes"][1]["xi"].is_null(), "√(8/15) is not rational");
    assert_eq!(x["largest"]["step"], 1);
    assert_eq!(r["impacts"][0]["sequence"], serde_json::json!(["12", "23"]));
}
