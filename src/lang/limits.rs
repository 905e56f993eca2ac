//! The limits of the input language, in one place. Every parse and every evaluation of
//! the language (command-line options, symbolic closed forms, claim files) uses these
//! same values, so an input accepted by one user of the language is accepted by all.
//!
//! They bound the work an input can ask for: the size of the text, the number of tokens
//! (which bounds the length of a sum or product), the nesting (which bounds the depth of
//! the syntax tree, hence the recursion of the parser, the evaluator and `Drop`), and the
//! exponents (which bound the size of `x^n` and of `1e-n`).

/// The limits of one parse and evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Longest accepted input, in bytes.
    pub max_len: usize,
    /// Most tokens (numbers, names, operators, parentheses, commas) in one input.
    pub max_tokens: usize,
    /// Deepest nesting: every parenthesis level counts 2 (expression and operand), every
    /// unary sign or right-associated `^` counts 1.
    pub max_depth: usize,
    /// Largest |n| in `x^n` and in the exponent of a literal `1e-n`.
    pub max_exponent: i64,
}

/// The limits of the language.
///
/// * `max_len = 100_000` bytes and `max_tokens = 20_000`: far above any option or claim
///   (the longest inputs are closed forms printed by the symbolic backend, a few thousand
///   characters), far below what would exhaust memory or time.
/// * `max_depth = 200`: about 100 nested parentheses; the evaluator recurses once per level,
///   so this keeps the stack small on every thread.
/// * `max_exponent = 100_000`: `10^100000` is a 332,193-bit integer, still instant with GMP;
///   `1e-100000` is accepted as a literal.
pub const LIMITS: Limits = Limits {
    max_len: 100_000,
    max_tokens: 20_000,
    max_depth: 200,
    max_exponent: 100_000,
};

/// Largest exponent magnitude accepted in `x^n` and in `1e-n` literals ([`LIMITS`]).
pub const MAX_EXPONENT: i64 = LIMITS.max_exponent;
/// Deepest nesting accepted ([`LIMITS`]).
pub const MAX_DEPTH: usize = LIMITS.max_depth;
