//! Cost of exactness and rigour: one Z12 update of the non-ideal corner rule,
//! Fassino–Pasquero (2020), eq. (13d), written once against `Scalar`, on every backend.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use impactkit::arith::{Interval, MpInterval, Mpfr, Quadratic, Rational, Scalar};
use impactkit::lang::eval_str;

/// Fassino–Pasquero (2020), eq. (13d): the multiple-impact update for (ẋ, ẏ) ∈ Z12,
/// with k = tan α and restitution ε.
fn z12_update<S: Scalar>(k: &S, eps: &S, x: &S, y: &S) -> (S, S) {
    let one = k.one_like();
    let k2 = k.square();
    let k4 = k2.square();
    let (x2, y2) = (x.square(), y.square());
    let den = k4.mul_r(&x2) + &y2;
    let num_x =
        -(eps.mul_r(&k4).mul_r(&x2)) + (one.clone() - (one.clone() + eps).mul_r(&k2)).mul_r(&y2);
    let num_y = k2.mul_r(&(k2.clone() - (one + eps))).mul_r(&x2) - eps.mul_r(&y2);
    let nx = num_x.checked_div(&den).expect("den > 0 in Z12").mul_r(x);
    let ny = num_y.checked_div(&den).expect("den > 0 in Z12").mul_r(y);
    (nx, ny)
}

fn inputs<S: Scalar>(k: &str, ctx: &S::Ctx) -> [S; 4] {
    [k, "9/10", "1", "1/5"].map(|s| eval_str::<S>(s, ctx).expect("valid input"))
}

fn bench_backend<S: Scalar>(c: &mut Criterion, label: &str, k: &str, ctx: &S::Ctx) {
    let [k, eps, x, y] = inputs::<S>(k, ctx);
    c.bench_function(&format!("z12_update/{label}"), |b| {
        b.iter(|| z12_update(black_box(&k), black_box(&eps), black_box(&x), black_box(&y)))
    });
}

fn benches(c: &mut Criterion) {
    bench_backend::<f64>(c, "f64", "3/4", &());
    bench_backend::<Rational>(c, "exact", "3/4", &());
    bench_backend::<Quadratic>(c, "quadratic_rational_k", "3/4", &());
    bench_backend::<Quadratic>(c, "quadratic_k=tan(pi/6)", "tan(pi/6)", &());
    bench_backend::<Mpfr>(c, "mpfr:53", "3/4", &53);
    bench_backend::<Mpfr>(c, "mpfr:256", "3/4", &256);
    bench_backend::<Interval>(c, "interval", "3/4", &());
    bench_backend::<MpInterval>(c, "mpi:53", "3/4", &53);
    bench_backend::<MpInterval>(c, "mpi:256", "3/4", &256);
    bench_backend::<MpInterval>(c, "mpi:1024", "3/4", &1024);
}

criterion_group!(arith, benches);
criterion_main!(arith);
