//! The time stepper of Seghete–Murphey Sect. VI (`impactkit step`): the ball under
//! gravity (examples/step/ball-gravity.toml, elastic, h = 1/100, 1000 steps, about 45
//! impacts) in f64, in Q(√5) exactly and in MPFR intervals of 128 bits, against the peer a
//! user would otherwise write: a hand-coded f64 loop of the same scheme (drift-kick under
//! the constant force, the impact time from the quadratic formula, the velocity
//! reflected); and the 3-ball cradle with gaps exactly (20 steps).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use impactkit::arith::{MpInterval, Quadratic, Rational, Scalar};
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

fn benches(c: &mut Criterion) {
    c.bench_function("step/ball_1000/plain_f64_loop", |b| {
        b.iter(|| plain_loop(black_box(1000)))
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
