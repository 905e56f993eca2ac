//! Why `check` rejects a certificate, as a type: the class of the failure (which part of
//! the proof did not re-check) and one line naming what failed. The class is what a
//! script reads (`check --format json`: `"class"`); the line is what a referee reads.

/// Why a certificate is rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// The certificate's record is malformed: a key missing, a value of the wrong type,
    /// a text that does not parse.
    #[error("{0}")]
    Format(String),
    /// The certificate names another claim, no claim file given has its id, or the claim
    /// file's statement (its domain, cases, induction, termination) cannot be derived.
    #[error("{0}")]
    Claim(String),
    /// The verdict has no certificate of this kind (a proof without its cells, a verdict
    /// `check` does not know).
    #[error("{0}")]
    Verdict(String),
    /// The proof is of another statement than the one derived from the claim file (a
    /// lemma, an induction's runs, a termination's ranking, a Gram reduction).
    #[error("{0}")]
    Statement(String),
    /// The cells do not cover the domain as charted (a piece left out, charted twice, a
    /// split that does not chart its parent, a cell outside without a reason).
    #[error("{0}")]
    Cover(String),
    /// A sign, decided by the law's run or recorded, that the checker's rules do not give.
    #[error("{0}")]
    Sign(String),
    /// A conclusion that does not follow on its cell.
    #[error("{0}")]
    Conclusion(String),
    /// A proof that proves nothing: no cell with a point, or a conclusion decided nowhere.
    #[error("{0}")]
    Vacuous(String),
    /// A refutation's witness outside the domain, or not violating the statement.
    #[error("{0}")]
    Witness(String),
    /// The claim, re-evaluated exactly, gives another verdict or cannot be evaluated.
    #[error("{0}")]
    Recomputed(String),
}

impl Rejection {
    /// The class, as written in `check`'s JSON (`"class"`).
    pub fn class(&self) -> &'static str {
        match self {
            Rejection::Format(_) => "format",
            Rejection::Claim(_) => "claim",
            Rejection::Verdict(_) => "verdict",
            Rejection::Statement(_) => "statement",
            Rejection::Cover(_) => "cover",
            Rejection::Sign(_) => "sign",
            Rejection::Conclusion(_) => "conclusion",
            Rejection::Vacuous(_) => "vacuous",
            Rejection::Witness(_) => "witness",
            Rejection::Recomputed(_) => "recomputed",
        }
    }

    /// The same rejection with `prefix` before its line (the cell or part it is about).
    pub fn within(mut self, prefix: &str) -> Rejection {
        let m = self.line_mut();
        *m = format!("{prefix}{m}");
        self
    }

    fn line_mut(&mut self) -> &mut String {
        match self {
            Rejection::Format(m)
            | Rejection::Claim(m)
            | Rejection::Verdict(m)
            | Rejection::Statement(m)
            | Rejection::Cover(m)
            | Rejection::Sign(m)
            | Rejection::Conclusion(m)
            | Rejection::Vacuous(m)
            | Rejection::Witness(m)
            | Rejection::Recomputed(m) => m,
        }
    }
}

/// Bad input to `impactkit check` (exit 2), as opposed to a certificate rejected (exit 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// No certificate file was given.
    #[error("check: give certificate files (verify --certificates DIR writes them)")]
    NoFiles,
    /// A file could not be read (its reader's line, naming it).
    #[error("{0}")]
    Read(String),
    /// A file that is not a certificate at all.
    #[error("{file}: not a certificate (JSON with \"schema\": \"{schema}\")")]
    NotCertificate { file: String, schema: &'static str },
    /// The claim files of `--claims`.
    #[error("--claims: {0}")]
    Claims(#[from] super::super::claim::ClaimError),
}

/// `reject!(Class, "format", args…)`: a [`Rejection`] of that class with the formatted line.
macro_rules! reject {
    ($class:ident, $($fmt:tt)+) => {
        $crate::claims::check::error::Rejection::$class(format!($($fmt)+))
    };
}
pub(crate) use reject;
