//! Every law of `impactkit laws` on the equal-mass n-ball cradle (ball 1 at velocity 1, the
//! others at rest, e = 1), n = 3, 5, 6, in f64 and exact rationals: Pasquero's procedure,
//! the propagative model's search of minimal sequences, Newton's law (both variants) and
//! Poisson's as exact LCPs (issue 16: under 1 s in f64, under 10 s exact, for 5 balls).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use impactkit::arith::{Rational, Scalar};
use impactkit::system::file::SystemFile;
use impactkit::system::laws::all;

fn bench_backend<S: Scalar>(c: &mut Criterion, label: &str, n: usize, ctx: &S::Ctx) {
    let masses = vec!["1".to_string(); n];
    let v0: Vec<String> = (0..n)
        .map(|i| if i == 0 { "1" } else { "0" }.into())
        .collect();
    let sys = SystemFile::cradle(&masses, &v0, "1")
        .build::<S>("bench", ctx)
        .unwrap();
    c.bench_function(&format!("laws/cradle_{n}_balls/{label}"), |b| {
        b.iter(|| all(black_box(&sys), 1000))
    });
}

fn benches(c: &mut Criterion) {
    for n in [3, 5, 6] {
        bench_backend::<f64>(c, "f64", n, &());
        bench_backend::<Rational>(c, "exact", n, &());
    }
}

criterion_group! {
    name = laws;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(laws);
