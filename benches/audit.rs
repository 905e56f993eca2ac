//! W3: the audited `f64` side of `impactkit audit corner` (`--reference none`): the stable
//! algorithm of Fassino–Pasquero (2020), Sect. 6, α = π/16, ε = 0.9, 10⁶ entrance
//! directions evenly spaced over [−α, α], S = 4.5·10⁻¹⁶, S_v = 10⁻¹², N_max = 10⁵, on one
//! and on two threads. Its peer is the plain C loop `benches/c/w3.c` (same operations, same
//! results bit for bit when compiled without FMA contraction); `benches/c/compare.sh`
//! runs both and prints the ratio.

use criterion::{criterion_group, criterion_main, Criterion};
use impactkit::arith::backend::Backend;
use impactkit::audit::corner::{CornerAudit, Cors, Entrance, Outcome};
use impactkit::audit::domain::{Axis, Sampling, Shard};
use impactkit::audit::Execution;
use impactkit::system::corner::Form;
use impactkit::system::corner_spec::Algorithm;

/// The W3 audit.
pub fn w3() -> CornerAudit {
    let v = |s: &str| Axis::Value(s.into());
    CornerAudit {
        alpha: v("pi/16"),
        entrance: Entrance::Polar {
            direction: Axis::Range {
                lo: "-alpha".into(),
                hi: "alpha".into(),
            },
            speed: v("1"),
        },
        cors: Cors::Symmetric(v("0.9")),
        algorithm: Algorithm::Sa,
        threshold: Some(v("4.5e-16")),
        rest_threshold: Some(v("1e-12")),
        reference_algorithm: Algorithm::Sa,
        form: Form::Xy,
        max_steps: 100_000,
        max_digits: 20_000,
        audited: Backend::F64,
        reference: None,
        sample_seconds: 10.0,
    }
}

fn steps(out: &Outcome) -> u64 {
    match out {
        Outcome::Tally(t) => t.steps,
        Outcome::Records(r) => r.iter().map(|r| r.audited.steps as u64).sum(),
    }
}

fn benches(c: &mut Criterion) {
    let audit = w3();
    for jobs in [1usize, 2] {
        let exec = Execution {
            jobs: Some(jobs),
            shard: Shard::ALL,
            progress: false,
        };
        let run = || {
            audit
                .run(Sampling::Grid(vec![1_000_000]), &exec, false)
                .unwrap()
                .1
        };
        let t = std::time::Instant::now();
        let n = steps(&run());
        eprintln!(
            "W3 on {jobs} thread(s): {n} rule applications, {:.3e} per second (one run)",
            n as f64 / t.elapsed().as_secs_f64()
        );
        c.bench_function(&format!("audit_w3/{jobs}_threads"), |b| b.iter(run));
    }
}

criterion_group! {
    name = audit;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(audit);
