//! The symbolic proof method (issue 13) on three claims whose rational functions used to
//! swell without a GCD: FP Theorem 5.3's H1 (two applications of (14b), (14c) against the
//! matrix), SM Lemma 3 (sequences of reflections with free normals in R^3) and the plastic
//! outcome (11) with free normals (`sm-plastic-projection-corrected`). Each is a whole
//! `verify` of the claim: the cells, the law code on rational functions, the signs.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use impactkit::claims::{check, Claim, Verdict};
use std::path::Path;
use std::time::Duration;

fn bench_claim(c: &mut Criterion, path: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    let claim = Claim::parse(&text, Path::new(path)).unwrap();
    assert_eq!(
        check(&claim, Duration::from_secs(120)).verdict,
        Verdict::Proved
    );
    c.bench_function(&format!("symbolic/{}", claim.id), |b| {
        b.iter(|| check(black_box(&claim), Duration::from_secs(120)))
    });
}

fn benches(c: &mut Criterion) {
    for p in [
        "proofs/fp/fp-thm5.3-H1.toml",
        "proofs/sm/sm-lemma3.toml",
        "proofs/sm/sm-plastic-projection-corrected.toml",
    ] {
        bench_claim(c, p);
    }
}

criterion_group! {
    name = symbolic;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(symbolic);
