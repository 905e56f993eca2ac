//! Helpers of the claim tests: load a claim file, check a mutated text, and the mutation
//! test itself (the engine must be able to fail).

use impactkit::claims::{check, Claim, ClaimResult, Outcome, Verdict};
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

/// The whole catalogue (`proofs/`) checked once per test process on every core, as
/// `verify proofs` checks it: the claims tests, the originals of the mutation tests and the
/// catalogue report share this run (a verdict does not depend on the run or the thread).
pub fn catalogue() -> &'static [ClaimResult] {
    static ALL: OnceLock<Vec<ClaimResult>> = OnceLock::new();
    ALL.get_or_init(|| {
        let claims = impactkit::claims::load_paths(&["proofs".into()]).unwrap();
        let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
        impactkit::claims::run_parallel(&claims, None, Duration::from_secs(120), jobs, &|_| {})
    })
}

/// The outcome of the catalogue claim `id`, from [`catalogue`].
pub fn outcome(id: &str) -> Outcome {
    let r = catalogue()
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("{id} is not a claim of proofs/"));
    Outcome {
        verdict: r.verdict,
        detail: r.detail.clone(),
        counterexample: r.counterexample.clone(),
        corrected: r.corrected.clone(),
        certificate: r.certificate.clone(),
    }
}

/// A claim file's text and the claim.
pub fn load(path: &str) -> (String, Claim) {
    let text = std::fs::read_to_string(path).unwrap();
    let c = Claim::parse(&text, Path::new(path)).unwrap();
    (text, c)
}

/// The verdict and detail of a claim given as text.
pub fn verdict_of(text: &str) -> (Verdict, String) {
    let c = Claim::parse(text, Path::new("mutant.toml")).unwrap();
    let o = check(&c, Duration::from_secs(120));
    (o.verdict, o.detail)
}

/// Replaces exactly one occurrence of `from` by `to`, and checks the mutant is refuted
/// while the original is not.
pub fn mutant_refuted(path: &str, from: &str, to: &str) -> String {
    let (text, claim) = load(path);
    assert_eq!(
        text.matches(from).count(),
        1,
        "{path}: `{from}` must occur once"
    );
    // a catalogue file's verdict comes from the shared run
    let original = match path.starts_with("proofs/") {
        true => outcome(&claim.id),
        false => check(&claim, Duration::from_secs(120)),
    };
    assert_ne!(
        original.verdict,
        Verdict::Refuted,
        "{path}: {}",
        original.detail
    );
    let (v, detail) = verdict_of(&text.replacen(from, to, 1));
    assert_eq!(v, Verdict::Refuted, "{path} mutated: {detail}");
    detail
}
