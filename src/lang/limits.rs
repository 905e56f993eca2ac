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
    /// Largest exact rational value met during an evaluation, in bits of numerator plus
    /// denominator (estimated before computing it): `(9^100000)^100000` is refused instead
    /// of computing 3·10¹⁰ bits.
    pub max_bits: u64,
    /// Largest total work of one exact evaluation: the sum, over its operations, of the
    /// sizes (bits) of their operands. Bounds a long chain of operations on large
    /// values (`1e400/1e400/…/1e400` three thousand times), each of them within
    /// `max_bits`, whose total would take minutes.
    pub max_work_bits: u64,
}

/// The limits of the language.
///
/// * `max_len = 1_000_000` bytes and `max_tokens = 100_000`: options and claims are
///   short; the longest inputs are closed forms printed by the symbolic backend and read
///   back (the test suite's longest: 52,130 bytes, about 4,000 tokens, with its
///   large rational coefficients). Sums and products are kept flat in the tree, so the
///   token count bounds memory and time, never the recursion.
/// * `max_depth = 200`: about 100 nested parentheses; the evaluator recurses once per level,
///   so this keeps the stack small on every thread.
/// * `max_exponent = 100_000`: `10^100000` is a 332,193-bit integer, still instant with GMP;
///   `1e-100000` is accepted as a literal.
/// * `max_bits = 10_000_000`: an exact value of up to about 3 million decimal digits.
///   Exact backends refuse a larger one (an error naming the sub-expression); rounded and
///   enclosure backends stop tracking it exactly and compute on, as a program would.
/// * `max_work_bits = 50_000_000`: the sum of the operand sizes of the operations of one
///   exact evaluation, a second or so of GMP arithmetic; a longer chain is refused.
pub const LIMITS: Limits = Limits {
    max_len: 1_000_000,
    max_tokens: 100_000,
    max_depth: 200,
    max_exponent: 100_000,
    max_bits: 10_000_000,
    max_work_bits: 50_000_000,
};

/// Largest exponent magnitude accepted in `x^n` and in `1e-n` literals ([`LIMITS`]).
pub const MAX_EXPONENT: i64 = LIMITS.max_exponent;
/// Deepest nesting accepted ([`LIMITS`]).
pub const MAX_DEPTH: usize = LIMITS.max_depth;
