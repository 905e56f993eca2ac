//! Cooperative cancellation: a deadline per thread, watched at the checkpoints of every
//! long computation (each step of an iterated law, each node of a search, each sample of
//! a sampled check, each product of the symbolic expansion). `verify` runs each claim
//! under its `--budget-seconds` with [`with_deadline`]; past it, the next checkpoint
//! unwinds (without a panic message) back to [`with_deadline`], which returns `None`, so
//! the claim is reported `inconclusive (time)` and its thread really stops.
//!
//! Outside [`with_deadline`] a checkpoint costs one thread-local read.
//!
//! [`cancel`] asks every computation of the process to stop (Ctrl-C in the Python
//! package): deadlines count as passed, `verify` checks no further claim and an audit no
//! further sample, until [`clear_cancel`].

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Set by [`cancel`]: every deadline has passed.
static CANCELLED: AtomicBool = AtomicBool::new(false);

/// Asks every running computation of the process to stop at its next checkpoint (the
/// Python package calls it on Ctrl-C; the caller discards the results).
pub fn cancel() {
    CANCELLED.store(true, Ordering::Relaxed);
}

/// Whether [`cancel`] was called (and not cleared since).
pub fn cancelled() -> bool {
    CANCELLED.load(Ordering::Relaxed)
}

/// Ends a cancellation, before the next computation starts.
pub fn clear_cancel() {
    CANCELLED.store(false, Ordering::Relaxed);
}

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    /// Set whenever a computation of this thread saw a deadline pass (a checkpoint, a
    /// loop that ended cleanly at it): the outcome then depends on the clock, and `verify`
    /// reports it `inconclusive (time)` whatever was computed ([`take_timed`]).
    static TIMED: Cell<bool> = const { Cell::new(false) };
    /// The deterministic work limit of the exact laws run by `laws`, `regress` and
    /// `compare-cradle`: the decimal digits of a velocity ([`with_digit_cap`]).
    static DIGITS: Cell<Option<u64>> = const { Cell::new(None) };
    /// The deterministic work limit of the search of minimal sequences run by `laws` and
    /// `regress`: reflections ([`with_reflection_cap`]).
    static REFLECTIONS: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Runs `f` with the exact iterated laws of this thread bounded by `cap` decimal digits
/// of a velocity (Pasquero's procedure, Newton's repeated solves): past it they stop with
/// a work limit, whatever the machine's load.
pub fn with_digit_cap<T>(cap: u64, f: impl FnOnce() -> T) -> T {
    with_cap(&DIGITS, cap, f)
}

/// Runs `f` with the thread-local cap `key` set to `cap`, restored afterwards (also when
/// `f` unwinds).
fn with_cap<T>(
    key: &'static std::thread::LocalKey<Cell<Option<u64>>>,
    cap: u64,
    f: impl FnOnce() -> T,
) -> T {
    struct Restore(
        &'static std::thread::LocalKey<Cell<Option<u64>>>,
        Option<u64>,
    );
    impl Drop for Restore {
        fn drop(&mut self) {
            self.0.with(|d| d.set(self.1));
        }
    }
    let _restore = Restore(key, key.with(|d| d.replace(Some(cap))));
    f()
}

/// This thread's digit cap ([`with_digit_cap`]), if any.
pub fn digit_cap() -> Option<u64> {
    DIGITS.with(Cell::get)
}

/// Runs `f` with the searches of minimal sequences of this thread (Seghete–Murphey,
/// Definition 1) bounded by `cap` reflections in place of their own default
/// ([`crate::input::caps::REFLECTIONS`]).
pub fn with_reflection_cap<T>(cap: u64, f: impl FnOnce() -> T) -> T {
    with_cap(&REFLECTIONS, cap, f)
}

/// Runs `f` under both work limits of the laws of `laws`, `regress` and
/// `compare-cradle`: `digits` ([`with_digit_cap`]) and `reflections`
/// ([`with_reflection_cap`]).
pub fn with_law_caps<T>(digits: u64, reflections: u64, f: impl FnOnce() -> T) -> T {
    with_reflection_cap(reflections, || with_digit_cap(digits, f))
}

/// This thread's reflection cap ([`with_reflection_cap`]), if any.
pub fn reflection_cap() -> Option<u64> {
    REFLECTIONS.with(Cell::get)
}

/// Whether `deadline` has passed; if so, this thread's work is marked as cut by the clock.
pub fn passed(deadline: Instant) -> bool {
    let p = cancelled() || Instant::now() >= deadline;
    if p {
        TIMED.with(|t| t.set(true));
    }
    p
}

/// Whether a deadline cut this thread's work since the last call (and clears the mark).
pub fn take_timed() -> bool {
    TIMED.with(|t| t.replace(false))
}

/// The unwinding payload of a computation stopped at its deadline.
#[derive(Debug)]
pub struct Expired;

/// Unwinds with [`Expired`] if this thread's deadline has passed.
pub fn checkpoint() {
    if let Some(d) = DEADLINE.with(Cell::get) {
        if passed(d) {
            std::panic::resume_unwind(Box::new(Expired));
        }
    }
}

/// Whether this thread's deadline has passed (for loops that end cleanly instead).
pub fn expired() -> bool {
    DEADLINE.with(Cell::get).is_some_and(passed)
}

/// Runs `f` with checkpoints unwinding past `deadline` (or past an earlier deadline of an
/// enclosing call): `None` when `f` was stopped there. Other panics propagate.
///
/// # Example
///
/// ```
/// use impactkit::budget::{checkpoint, with_deadline};
/// use std::time::{Duration, Instant};
/// let quick = with_deadline(Instant::now() + Duration::from_secs(60), || 2 + 2);
/// assert_eq!(quick, Some(4));
/// let endless = with_deadline(Instant::now() + Duration::from_millis(10), || loop {
///     checkpoint();
/// });
/// assert_eq!(endless, None::<()>);
/// ```
pub fn with_deadline<T>(deadline: Instant, f: impl FnOnce() -> T) -> Option<T> {
    struct Restore(Option<Instant>);
    impl Drop for Restore {
        fn drop(&mut self) {
            DEADLINE.with(|d| d.set(self.0));
        }
    }
    let outer = DEADLINE.with(Cell::get);
    let effective = outer.map_or(deadline, |o| o.min(deadline));
    let _restore = Restore(DEADLINE.with(|d| d.replace(Some(effective))));
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(v) => Some(v),
        Err(e) if e.is::<Expired>() => None,
        Err(e) => std::panic::resume_unwind(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_loop_with_checkpoints_stops_at_its_deadline() {
        let t = Instant::now();
        let r = with_deadline(t + Duration::from_millis(50), || loop {
            checkpoint();
        });
        assert!(r.is_none());
        assert!(t.elapsed() < Duration::from_secs(5));
        // outside, checkpoints do nothing; an enclosing deadline bounds an inner one
        checkpoint();
        let r = with_deadline(t + Duration::from_secs(3600), || {
            with_deadline(t + Duration::from_secs(7200), expired)
        });
        assert_eq!(r, Some(Some(false)));
    }
}
