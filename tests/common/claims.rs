//! Helpers of the claim tests: load a claim file, check a mutated text, and the mutation
//! test itself (the engine must be able to fail).

use impactkit::claims::{check, Claim, Verdict};
use std::path::Path;
use std::time::Duration;

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
    let original = check(&claim, Duration::from_secs(120));
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
