//! Exact arithmetic at scale, on the workloads of issue 12 (GMP through `rug`):
//!
//! * W1: Fassino–Pasquero (2020) TR_nid in the (ξ̇, η̇) form (14), k = 1/1000 (k² = 10⁻⁶),
//!   ε = 99/100, (ξ̇, η̇) = (3/2, 1/2) (v0 = (1000, 1/2)), 1000 rule applications; the
//!   numerator of the final ξ̇ has 26,581 bits (asserted in `tests/corner.rs`).
//! * W1b: k = 1/100 (k² = 10⁻⁴), ε = 99/100, 200 entrance velocities
//!   (ξ̇, η̇) = (1 + j/200, 1 − j/200), j = 1..200 (v0 = (100, j/200)), each until exit:
//!   31,483 rule applications in all.
//! * the exact 3- and 5-ball plastic cradles of the README (Pasquero Sect. 3.5).
//! * W4 (issue 34, the `algebraic` backend): the corner at α = π/16, k = tan(π/16) in
//!   Q(cos(π/16)) (degree 8), ε = 99/100, the 200 entrance velocities of W1b in the
//!   (ξ̇, η̇) form, (ξ̇, η̇) = (1 + j/200, 1 − j/200), i.e. v0 = (1/k, j/200), each until exit.
//!
//! The peer is PARI/GP running the same loop on canonical rationals:
//! `benches/pari/compare.sh` times both in one run (PARI is not a dependency).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use impactkit::arith::{Algebraic, Rational};
use impactkit::system::corner::Form;
use impactkit::system::corner_spec::{Algorithm, CornerSpec, RestitutionSpec};
use impactkit::system::cradle::CradleSpec;

fn corner(alpha: &str, v0: &str, max_steps: usize) -> CornerSpec {
    CornerSpec {
        alpha: alpha.into(),
        v0: v0.into(),
        restitution: RestitutionSpec::Symmetric("99/100".into()),
        algorithm: Algorithm::Ta,
        threshold: None,
        rest_threshold: None,
        max_steps,
        form: Form::XiEta,
        record_velocities: false,
        max_digits: None,
    }
}

fn w1(c: &mut Criterion) {
    let spec = corner("atan(1/1000)", "1000,1/2", 1000);
    c.bench_function("exact/W1 (1000 steps, 26581-bit numerators)", |b| {
        b.iter(|| {
            let t = black_box(&spec).run::<Rational>(&()).unwrap();
            assert_eq!(t.steps, 1000);
            t
        })
    });
}

fn w1b(c: &mut Criterion) {
    let specs: Vec<CornerSpec> = (1..=200)
        .map(|j| corner("atan(1/100)", &format!("100,{j}/200"), 10_000))
        .collect();
    c.bench_function("exact/W1b (200 runs, 31483 steps)", |b| {
        b.iter(|| {
            let steps: usize = specs
                .iter()
                .map(|s| s.run::<Rational>(&()).unwrap().steps)
                .sum();
            assert_eq!(steps, 31_483);
            steps
        })
    });
}

/// The 200 runs of W4 (see the module docs).
pub fn w4_specs() -> Vec<CornerSpec> {
    (1..=200)
        .map(|j| corner("pi/16", &format!("1/tan(pi/16),{j}/200"), 10_000))
        .collect()
}

fn w4(c: &mut Criterion) {
    let specs = w4_specs();
    c.bench_function("algebraic/W4 (corner at pi/16, 200 runs)", |b| {
        b.iter(|| {
            specs
                .iter()
                .map(|s| s.run::<Algebraic>(&()).unwrap().steps)
                .sum::<usize>()
        })
    });
}

fn cradles(c: &mut Criterion) {
    for balls in [3, 5] {
        let spec = CradleSpec {
            balls,
            eps: "0".into(),
            masses: None,
            v0: "1".into(),
            sigma: None,
            max_iter: 10_000,
            record_velocities: false,
            max_digits: None,
        };
        c.bench_function(&format!("exact/cradle {balls} balls plastic"), |b| {
            b.iter(|| black_box(&spec).run::<Rational>(&()).unwrap())
        });
    }
}

criterion_group! {
    name = exact;
    config = Criterion::default().sample_size(10);
    targets = w1, w1b, w4, cradles
}
criterion_main!(exact);
