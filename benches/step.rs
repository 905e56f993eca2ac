//! The time stepper of Seghete–Murphey Sect. VI (`impactkit step`): the ball under
//! gravity (examples/step/ball-gravity.toml, elastic, h = 1/100, 1000 steps, about 45
//! impacts) in f64, in Q(√5) exactly and in MPFR intervals of 128 bits, against the peer a
//! user would otherwise write: a hand-coded f64 loop of the same scheme (drift-kick under
//! the constant force, the impact time from the quadratic formula, the velocity
//! reflected); and the 3-ball cradle with gaps exactly (20 steps).
//!
//! The 2-link system: the double pendulum striking a wall
//! (examples/step/double-pendulum-wall.toml, elastic, h = 1/100, 1000 steps, 8 impacts) by
//! the general stepper in f64, against a hand-written f64 loop of the same scheme: the
//! midpoint DEL step solved by Newton's method with the Jacobian written out by hand, the
//! impact time by bisection on the step length, the momentum reflected in the metric
//! M(q*) about ∇φ(q*).

/// The allocator of the command line (`src/bin/impactkit/main.rs`), so that the generic
/// stepper is timed as `impactkit step` runs it: each recorded node holds its own q and p.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use impactkit::arith::{MpInterval, Quadratic, Rational, Scalar};
use impactkit::system::general_stepper::GeneralRun;
use impactkit::system::lagrangian::Levels;
use impactkit::system::step_file::StepFile;
use impactkit::system::stepper::{Order, StepLaw, StepSystem};

fn system<S: Scalar>(name: &str, ctx: &S::Ctx) -> StepSystem<S> {
    let path = format!("{}/examples/step/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    StepFile::from_toml(&text, &path)
        .unwrap()
        .build(&path, ctx)
        .unwrap()
}

fn ball<S: Scalar>(c: &mut Criterion, label: &str, ctx: &S::Ctx) {
    let sys = system::<S>("ball-gravity", ctx);
    let h = S::from_rational(&num_rational::BigRational::new(1.into(), 100.into()), ctx);
    let run = sys.run(&h, 1000, &StepLaw::Elastic, Order::Argmin);
    assert!(run.stopped.is_none(), "{:?}", run.stopped);
    c.bench_function(&format!("step/ball_1000/{label}"), |b| {
        b.iter(|| sys.run(black_box(&h), 1000, &StepLaw::Elastic, Order::Argmin))
    });
}

/// The hand-written f64 loop: y, v under g = 10 from y = 1/4, h = 1/100, 1000 steps; an
/// impact inside a step is found by the quadratic formula and the velocity reversed.
fn plain_loop(steps: usize) -> (f64, f64, usize) {
    let (g, h) = (10.0f64, 0.01f64);
    let (mut y, mut v, mut impacts) = (0.25f64, 0.0f64, 0usize);
    for _ in 0..steps {
        let mut rem = h;
        loop {
            // y + v τ − g τ²/2 = 0, first positive root
            let disc = v * v + 2.0 * g * y;
            let tau = (v + disc.sqrt()) / g;
            if tau > rem || y + v * rem - 0.5 * g * rem * rem > 0.0 {
                y += v * rem - 0.5 * g * rem * rem;
                v -= g * rem;
                break;
            }
            v = -(v - g * tau);
            y = 0.0;
            rem -= tau;
            impacts += 1;
        }
    }
    (y, v, impacts)
}

/// A node of [`recording_loop`]: what the generic stepper records per node.
#[derive(Clone, Copy)]
struct BallNode {
    t: f64,
    q: [f64; 2],
    p: [f64; 2],
    energy: f64,
}

/// The hand-written loop that gives what `impactkit step` gives: the 2-D ball (x, y) of
/// examples/step/ball-gravity.toml, each node recorded with its time and energy
/// ½|p|² + 10y, and each impact's time.
fn recording_loop(steps: usize) -> (Vec<BallNode>, Vec<f64>) {
    let (g, h) = (10.0f64, 0.01f64);
    let (mut q, mut p, mut t) = ([0.0f64, 0.25], [1.0f64, 0.0], 0.0f64);
    let energy = |q: [f64; 2], p: [f64; 2]| 0.5 * (p[0] * p[0] + p[1] * p[1]) + g * q[1];
    let mut nodes = Vec::with_capacity(steps + 1);
    let mut impacts = Vec::new();
    nodes.push(BallNode {
        t,
        q,
        p,
        energy: energy(q, p),
    });
    for k in 0..steps {
        let mut rem = h;
        loop {
            let (y, v) = (q[1], p[1]);
            let disc = v * v + 2.0 * g * y;
            let tau = (v + disc.sqrt()) / g;
            if tau > rem || y + v * rem - 0.5 * g * rem * rem > 0.0 {
                q = [q[0] + p[0] * rem, y + v * rem - 0.5 * g * rem * rem];
                p[1] = v - g * rem;
                break;
            }
            q = [q[0] + p[0] * tau, 0.0];
            p[1] = -(v - g * tau);
            rem -= tau;
            impacts.push(k as f64 * h + (h - rem));
        }
        t = (k + 1) as f64 * h;
        nodes.push(BallNode {
            t,
            q,
            p,
            energy: energy(q, p),
        });
    }
    (nodes, impacts)
}

/// The double pendulum of examples/step/double-pendulum-wall.toml (m1 = m2 = l1 = l2 = 1,
/// g = 981/100, the wall at x = 1/2): M = [[2, c], [c, 1]], c = cos(a − b),
/// V = −2g cos a − g cos b, φ = 1/2 − sin a − sin b.
mod pendulum {
    const G: f64 = 9.81;

    /// One midpoint step of length h from (q, p): (q₁, p₁), Newton to rounding.
    pub fn step(q: [f64; 2], p: [f64; 2], h: f64) -> ([f64; 2], [f64; 2]) {
        let k = h / 2.0;
        // v = M(q)⁻¹p
        let c0 = (q[0] - q[1]).cos();
        let det0 = 2.0 - c0 * c0;
        let mut v = [(p[0] - c0 * p[1]) / det0, (2.0 * p[1] - c0 * p[0]) / det0];
        for _ in 0..60 {
            let (a, b) = (q[0] + k * v[0], q[1] + k * v[1]);
            let (s, c) = (a - b).sin_cos();
            let w = v[0] * v[1];
            let ga = 2.0 * v[0] + c * v[1] + k * s * w + k * 2.0 * G * a.sin() - p[0];
            let gb = c * v[0] + v[1] - k * s * w + k * G * b.sin() - p[1];
            let j11 = 2.0 - v[1] * s * k + k * (c * k * w + s * v[1]) + k * 2.0 * G * a.cos() * k;
            let j12 = c + v[1] * s * k + k * (-c * k * w + s * v[0]);
            let j21 = c - v[0] * s * k - k * (c * k * w + s * v[1]);
            let j22 = 1.0 + v[0] * s * k - k * (-c * k * w + s * v[0]) + k * G * b.cos() * k;
            let det = j11 * j22 - j12 * j21;
            let d = [(j22 * ga - j12 * gb) / det, (j11 * gb - j21 * ga) / det];
            v = [v[0] - d[0], v[1] - d[1]];
            if d[0].abs().max(d[1].abs()) <= 1e-15 * (1.0 + v[0].abs().max(v[1].abs())) {
                break;
            }
        }
        let (a, b) = (q[0] + k * v[0], q[1] + k * v[1]);
        let s = (a - b).sin();
        let w = v[0] * v[1];
        let dl = [-s * w - 2.0 * G * a.sin(), s * w - G * b.sin()];
        (
            [q[0] + h * v[0], q[1] + h * v[1]],
            [p[0] + h * dl[0], p[1] + h * dl[1]],
        )
    }

    fn gap(q: [f64; 2]) -> f64 {
        0.5 - q[0].sin() - q[1].sin()
    }

    /// p reflected in the metric M(q) about u = ∇φ(q) (SM (7)).
    fn reflect(q: [f64; 2], p: [f64; 2]) -> [f64; 2] {
        let u = [-q[0].cos(), -q[1].cos()];
        let c = (q[0] - q[1]).cos();
        let det = 2.0 - c * c;
        let minv = |x: [f64; 2]| [(x[0] - c * x[1]) / det, (2.0 * x[1] - c * x[0]) / det];
        let (mu, mp) = (minv(u), minv(p));
        let r = 2.0 * (mp[0] * u[0] + mp[1] * u[1]) / (mu[0] * u[0] + mu[1] * u[1]);
        [p[0] - r * u[0], p[1] - r * u[1]]
    }

    /// `steps` steps of h; an impact inside a step is found by bisection on the step
    /// length to rounding, the momentum reflected there and the rest of the step taken.
    pub fn run(steps: usize, h: f64) -> ([f64; 2], [f64; 2], usize) {
        let (mut q, mut p, mut impacts) = ([0.0, 0.0], [4.0, 2.0], 0);
        for _ in 0..steps {
            let mut rem = h;
            loop {
                let (q1, p1) = step(q, p, rem);
                if gap(q1) > 0.0 {
                    (q, p) = (q1, p1);
                    break;
                }
                let (mut lo, mut hi) = (0.0, rem);
                for _ in 0..60 {
                    let m = 0.5 * (lo + hi);
                    if m <= lo || m >= hi {
                        break;
                    }
                    if gap(step(q, p, m).0) > 0.0 {
                        lo = m;
                    } else {
                        hi = m;
                    }
                }
                let (qs, ps) = step(q, p, hi);
                (q, p) = (qs, reflect(qs, ps));
                impacts += 1;
                rem -= hi;
            }
        }
        (q, p, impacts)
    }
}

fn double_pendulum(c: &mut Criterion) {
    let path = format!(
        "{}/examples/step/double-pendulum-wall.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let model = StepFile::from_toml(&text, &path)
        .unwrap()
        .lagrangian
        .unwrap();
    let runner = GeneralRun {
        levels: Levels::<f64>::new(&model, &()).unwrap(),
        h: 0.01,
        law: StepLaw::Elastic,
        order: Order::Argmin,
        together: None,
    };
    let (q0, p0) = (vec![0.0, 0.0], vec![4.0, 2.0]);
    let run = runner.run(&q0, &p0, 1000);
    assert!(run.stopped.is_none(), "{:?}", run.stopped);
    let (q, p, impacts) = pendulum::run(1000, 0.01);
    let last = run.nodes.last().unwrap();
    assert_eq!(run.impacts.len(), impacts);
    for (x, y) in last.q.iter().chain(&last.p).zip(q.iter().chain(&p)) {
        assert!((x - y).abs() < 1e-6, "generic {x} against hand loop {y}");
    }
    c.bench_function("step/double_pendulum_1000/plain_f64_loop", |b| {
        b.iter(|| pendulum::run(black_box(1000), 0.01))
    });
    c.bench_function("step/double_pendulum_1000/f64", |b| {
        b.iter(|| runner.run(black_box(&q0), &p0, 1000))
    });
}

fn benches(c: &mut Criterion) {
    double_pendulum(c);
    c.bench_function("step/ball_1000/plain_f64_loop", |b| {
        b.iter(|| plain_loop(black_box(1000)))
    });
    let sys = system::<f64>("ball-gravity", &());
    let run = sys.run(&0.01, 1000, &StepLaw::Elastic, Order::Argmin);
    let (nodes, impacts) = recording_loop(1000);
    assert_eq!(run.impacts.len(), impacts.len());
    for (a, b) in run.nodes.iter().zip(&nodes) {
        let same = |x: f64, y: f64| (x - y).abs() < 1e-9;
        assert!(
            same(a.t, b.t) && same(a.energy, b.energy),
            "{} {}",
            a.t,
            b.t
        );
        assert!(a
            .q
            .iter()
            .zip(&b.q)
            .chain(a.p.iter().zip(&b.p))
            .all(|(x, y)| same(*x, *y)));
    }
    c.bench_function("step/ball_1000/recording_f64_loop", |b| {
        b.iter(|| recording_loop(black_box(1000)))
    });
    ball::<f64>(c, "f64", &());
    ball::<Quadratic>(c, "quadratic", &());
    ball::<MpInterval>(c, "mpi128", &128);
    let sys = system::<Rational>("cradle-gaps", &());
    let h = Rational::new(1, 10);
    c.bench_function("step/cradle_gaps_20/exact", |b| {
        b.iter(|| sys.run(black_box(&h), 20, &StepLaw::Elastic, Order::Argmin))
    });
}

criterion_group! {
    name = step;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(step);
