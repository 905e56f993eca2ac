//! The bouncing penny (Clark–Bloch): one impact through the three maps (P, elastic,
//! plastic) at an oblique rational heading on the ellipse, in f64, exact rationals and
//! MPFR intervals; and the runs of Sect. VI-A (20 impacts on the circle, elastic): the
//! f64 simulator (sampled events) against the certified one (MPFR intervals of 128 bits,
//! certified root isolation, Lohner's method).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use impactkit::arith::{MpInterval, Rational, Scalar};
use impactkit::system::penny::{Boundary, End, Heading, Penny};
use impactkit::system::penny_run::{section_vi_a, RunLaw, Table};
use num_rational::BigRational;

fn q<S: Scalar>(like: &S, n: i64, d: i64) -> S {
    like.lift(&BigRational::new(n.into(), d.into()))
}

fn impact<S: Scalar>(c: &mut Criterion, label: &str, like: S) {
    let p = Penny::table_i(&like);
    let h = Heading {
        cos: q(&like, 3, 5),
        sin: q(&like, 4, 5),
    };
    let b = Boundary::Ellipse {
        a: q(&like, 3, 20),
        b: q(&like, 1, 5),
    };
    let point = (q(&like, 3, 20), like.zero_like());
    let grad = b.gradient(&point.0, &point.1).unwrap();
    let v = p.rolling(&h, &like.lift_i64(10), &q(&like, 1, 5));
    c.bench_function(&format!("penny/impact_maps/{label}"), |bch| {
        bch.iter(|| p.impact_maps(black_box(&h), End::Front, &grad, black_box(&v)))
    });
}

fn run<S: Scalar>(c: &mut Criterion, label: &str, like: S) {
    let a = q(&like, 1, 5);
    let t = Table {
        penny: Penny::table_i(&like),
        boundary: Boundary::Ellipse { a: a.clone(), b: a },
        law: RunLaw::Elastic,
    };
    let s = section_vi_a(&like);
    c.bench_function(&format!("penny/run_circle_elastic_20/{label}"), |bch| {
        bch.iter(|| t.run(black_box(&s), 20).unwrap())
    });
}

fn benches(c: &mut Criterion) {
    impact(c, "f64", 1.0f64);
    impact(c, "exact", Rational::from_i64(1, &()));
    impact(c, "mpi128", MpInterval::from_i64(1, &128));
    run(c, "f64", 1.0f64);
    run(c, "mpi128", MpInterval::from_i64(1, &128));
}

criterion_group! {
    name = penny;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(penny);
