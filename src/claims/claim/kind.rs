//! The kinds of claim (`kind = "…"` in a claim file), each read from its own table.

use serde::{Deserialize, Serialize};

/// A claim's kind: what its table states and which checker decides it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// `[identity]`: two expressions equal over their variables' domain.
    Identity,
    /// `[example]`: a probe run exactly, its outputs compared with the paper's.
    ExactExample,
    /// `[agreement]`: two sides (laws or expressions) equal on a domain, per zone.
    Agreement,
    /// `[implication]`: conclusions that hold wherever the hypotheses hold.
    Implication,
    /// `[search]`: an exact search for a violation.
    CounterexampleSearch,
    /// `[inequality]`: an inequality over boxes (interval branch-and-bound).
    Inequality,
    /// `[fp-audit]`: `f64` behaviour against the exact one.
    FpAudit,
}

impl Kind {
    /// Every kind, in the order of `docs/claims-format.md`.
    pub const ALL: [Kind; 7] = [
        Kind::Identity,
        Kind::ExactExample,
        Kind::Agreement,
        Kind::Implication,
        Kind::CounterexampleSearch,
        Kind::Inequality,
        Kind::FpAudit,
    ];

    /// The name written in a claim file (`kind = "exact-example"`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Identity => "identity",
            Kind::ExactExample => "exact-example",
            Kind::Agreement => "agreement",
            Kind::Implication => "implication",
            Kind::CounterexampleSearch => "counterexample-search",
            Kind::Inequality => "inequality",
            Kind::FpAudit => "fp-audit",
        }
    }

    /// The table holding the kind's formal content (`[example]` for `exact-example`).
    pub fn table(self) -> &'static str {
        match self {
            Kind::ExactExample => "example",
            Kind::CounterexampleSearch => "search",
            k => k.name(),
        }
    }

    /// The kind named `name`, if there is one.
    pub fn named(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether its verdict is an exact recomputation (its own certificate).
    pub fn recomputed(self) -> bool {
        matches!(self, Kind::ExactExample | Kind::FpAudit | Kind::Identity)
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
