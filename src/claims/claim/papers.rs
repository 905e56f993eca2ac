//! The papers a claim can belong to: the `paper = "…"` keys (the file names of the
//! papers' texts, `docs/claims-format.md`), with their short names, and `none` for a
//! claim of no paper (a user's own statement).

/// (key, short name) of every paper.
pub const PAPERS: [(&str, &str); 6] = [
    (
        "fassino-pasquero-2020-disk-in-corner.txt",
        "Fassino–Pasquero",
    ),
    ("pasquero-nonideal-multiple-constraints.txt", "Pasquero"),
    ("seghete-murphey-propagative-impact.txt", "Seghete–Murphey"),
    (
        "winandy-leine-newtons-cradle-impact-law.txt",
        "Winandy–Leine",
    ),
    ("clark-bloch-bouncing-penny.txt", "Clark–Bloch"),
    (NONE, "none"),
];

/// The key of a claim that belongs to no paper.
pub const NONE: &str = "none";

/// The short name of the paper with this key (the key itself if it names none).
pub fn short_name(key: &str) -> &str {
    PAPERS.iter().find(|(k, _)| *k == key).map_or(key, |p| p.1)
}

/// Whether `key` names a paper (or is [`NONE`]).
pub fn known(key: &str) -> bool {
    PAPERS.iter().any(|(k, _)| *k == key)
}
