//! Cost of Pasquero's procedure (Sect. 3.5) on n-ball cradles, n = 3, 10, 100, in f64,
//! exact rationals and 53-bit intervals: masses 1, 2, 3, 1, 2, 3, …, COR 9/10 on every
//! contact, ball 1 at velocity 1, the others at rest, at most 50 impulses.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use impactkit::arith::{Interval, Rational, Scalar};
use impactkit::system::cradle::run_cradle;

fn bench_backend<S: Scalar>(c: &mut Criterion, label: &str, n: usize, ctx: &S::Ctx) {
    let masses: Vec<S> = (0..n)
        .map(|i| S::from_i64(1 + (i % 3) as i64, ctx))
        .collect();
    let eps = S::from_i64(9, ctx)
        .checked_div(&S::from_i64(10, ctx))
        .unwrap();
    let cors = vec![eps; n - 1];
    let v0: Vec<S> = (0..n)
        .map(|i| S::from_i64(i64::from(i == 0), ctx))
        .collect();
    c.bench_function(&format!("cradle/{n}_balls/{label}"), |b| {
        b.iter(|| run_cradle(black_box(&masses), black_box(&cors), v0.clone(), None, 50).unwrap())
    });
}

fn benches(c: &mut Criterion) {
    for n in [3, 10, 100] {
        bench_backend::<f64>(c, "f64", n, &());
        bench_backend::<Rational>(c, "exact", n, &());
        bench_backend::<Interval>(c, "interval", n, &());
    }
}

criterion_group! {
    name = cradle;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(cradle);
