//! Cost of the LZB law (issue 61) on the equal Hertz cradle (3 balls, e = 1): the generic
//! ΔP scheme (`Lzb::run`, 3,494 steps of ΔP = 5·10⁻⁴) in `f64` against a hand-written `f64`
//! loop of the same scheme (the peer an engine developer would write: Siconos's
//! `ComputeImpact` for two contacts), and the certified runs on MPFR intervals.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use impactkit::arith::{MpInterval, Scalar};
use impactkit::law::lzb::{Compliance, Exponent, Lzb};
use impactkit::system::cradle::cradle_constraints;

fn params<S: Scalar>(one: &S, dp: Option<S>) -> Lzb<S> {
    Lzb {
        stiffness: vec![one.clone(); 2],
        exponent: vec![Exponent::HERTZ; 2],
        restitution: vec![one.clone(); 2],
        compliance: Compliance::BiStiffness,
        delta_p: dp,
        steps: 1000,
        tol_velocity: one.zero_like(),
        tol_energy: one.zero_like(),
        max_steps: 10_000_000,
        limit_steps: 400,
        limit_max_steps: 1_000_000,
    }
}

/// The ΔP scheme for two contacts, equal η = 3/2, K = 1, e = 1, by hand (G the Gram
/// matrix, γ the contact velocities): returns the post-impact γ.
fn hand_loop(g: [[f64; 2]; 2], mut v: [f64; 2], dp: f64) -> ([f64; 2], usize) {
    let a = 1.5 / 2.5;
    let mut e = [0.0f64; 2];
    let mut steps = 0;
    loop {
        let loaded = [e[0] > 0.0, e[1] > 0.0];
        if !loaded[0] && !loaded[1] && v[0] >= 0.0 && v[1] >= 0.0 {
            break;
        }
        let by_energy = loaded[0] || loaded[1];
        let p = if by_energy {
            usize::from(e[1] > e[0])
        } else {
            usize::from(v[1] < v[0])
        };
        let mut lam = [0.0; 2];
        for i in 0..2 {
            lam[i] = if i == p {
                1.0
            } else if loaded[i] {
                (e[i] / e[p]).powf(a)
            } else if v[i] < 0.0 {
                if by_energy {
                    (-v[i] * dp).powf(a).powf(2.5) / e[p].powf(a).powf(2.5)
                } else {
                    (-v[i] / -v[p]).powf(1.5)
                }
            } else {
                0.0
            };
        }
        let d = [lam[0] * dp, lam[1] * dp];
        let old = v;
        v[0] += g[0][0] * d[0] + g[0][1] * d[1];
        v[1] += g[1][0] * d[0] + g[1][1] * d[1];
        for i in 0..2 {
            let half = 0.5 * (old[i] + v[i]);
            e[i] = (e[i] - half * d[i]).max(0.0);
        }
        steps += 1;
    }
    (v, steps)
}

fn benches(c: &mut Criterion) {
    let cf = cradle_constraints(&[1.0, 1.0, 1.0]).unwrap();
    let lf = params(&1.0, Some(5e-4));
    let v = [1.0, 0.0, 0.0];
    let generic = lf.run(&cf, &v).unwrap();
    let (hand, steps) = hand_loop([[2.0, -1.0], [-1.0, 2.0]], [-1.0, 0.0], 5e-4);
    assert_eq!(steps, generic.steps);
    assert!((hand[0] - generic.gamma[0]).abs() < 1e-9 && (hand[1] - generic.gamma[1]).abs() < 1e-9);
    c.bench_function("lzb/cradle3_hertz/generic_f64", |b| {
        b.iter(|| lf.run(black_box(&cf), black_box(&v)).unwrap())
    });
    c.bench_function("lzb/cradle3_hertz/hand_loop_f64", |b| {
        b.iter(|| {
            hand_loop(
                black_box([[2.0, -1.0], [-1.0, 2.0]]),
                black_box([-1.0, 0.0]),
                5e-4,
            )
        })
    });
    let one = MpInterval::from_i64(1, &256);
    let zero = one.zero_like();
    let ci = cradle_constraints(&[one.clone(), one.clone(), one.clone()]).unwrap();
    let vi = [one.clone(), zero.clone(), zero];
    let dp = Some(one.checked_div(&one.lift_i64(2000)).unwrap());
    let li = params(&one, dp);
    c.bench_function("lzb/cradle3_hertz/mpi256", |b| {
        b.iter(|| li.run(black_box(&ci), black_box(&vi)).unwrap())
    });
    c.bench_function("lzb_limit/cradle3_hertz/mpi256_400", |b| {
        b.iter(|| {
            li.limit(black_box(&ci), black_box(&vi), 400, 1_000_000)
                .unwrap()
        })
    });
}

criterion_group! {
    name = lzb;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(lzb);
