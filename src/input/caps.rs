//! The limits of the command line's counts and sizes, in one place (the limits of the
//! input language itself are in `lang/limits.rs`). Each bounds the work one
//! command line can ask for; docs/conventions.md lists them with the option that sets or raises
//! them. A value outside its range is bad input: exit 2, one line naming the option.

/// A count option's accepted range and default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cap {
    /// The option, as the user writes it.
    pub option: &'static str,
    /// Smallest accepted value.
    pub min: u64,
    /// Largest accepted value.
    pub max: u64,
}

impl Cap {
    /// `s` as a whole number in `min..=max`, or the reason it is refused (one line; the
    /// caller names the option).
    ///
    /// # Example
    ///
    /// ```
    /// use impactkit::input::caps::STEPS;
    /// assert_eq!(STEPS.parse("100"), Ok(100));
    /// assert_eq!(STEPS.parse("0").unwrap_err(), "0 is outside 1..=1000000 (the limit of --max-steps)");
    /// ```
    pub fn parse(&self, s: &str) -> Result<u64, String> {
        let t = s.trim();
        let n: u64 = t.parse().map_err(|_| {
            if t.starts_with('-') && t[1..].bytes().all(|b| b.is_ascii_digit()) && t.len() > 1 {
                format!(
                    "must not be negative (a whole number in {}..={})",
                    self.min, self.max
                )
            } else {
                format!("expected a whole number in {}..={}", self.min, self.max)
            }
        })?;
        if n < self.min || n > self.max {
            return Err(format!(
                "{n} is outside {}..={} (the limit of {})",
                self.min, self.max, self.option
            ));
        }
        Ok(n)
    }
}

/// `--max-steps` of the iterated laws (`corner`, `cradle`, `rods`): rule applications.
pub const STEPS: Cap = Cap {
    option: "--max-steps",
    min: 1,
    max: 1_000_000,
};
/// `--max-steps` of `compare-cradle` (Pasquero's iterations).
pub const COMPARE_STEPS: Cap = Cap {
    option: "--max-steps",
    min: 1,
    max: 10_000,
};
/// `--max-steps` of `propagate`: the longest sequence of reset maps searched.
pub const DEPTH: Cap = Cap {
    option: "--max-steps",
    min: 1,
    max: 24,
};
/// `--max-steps` of `billiard-break`: the longest reflection sequence.
pub const BILLIARD_DEPTH: Cap = Cap {
    option: "--max-steps",
    min: 1,
    max: 256,
};
/// `--max-digits`: decimal digits of the exact numbers of an iteration (`corner`, `cradle`).
pub const DIGITS: Cap = Cap {
    option: "--max-digits",
    min: 10,
    max: 1_000_000,
};
/// Default of `--max-digits`: an exact run stops (termination `work-limit`) before its
/// numbers make one step cost more than about a millisecond.
pub const DEFAULT_DIGITS: u64 = 20_000;
/// `--balls` of `cradle`, and the length of its `--masses`, `--v0` and `--eps` lists.
pub const BALLS: Cap = Cap {
    option: "--balls",
    min: 2,
    max: 64,
};
/// `--sweep` of `billiard-break`: angles.
pub const SWEEP: Cap = Cap {
    option: "--sweep",
    min: 1,
    max: 100_000,
};
/// `--samples` of `sequential check`.
pub const SAMPLES: Cap = Cap {
    option: "--samples",
    min: 0,
    max: 100_000,
};
/// `--samples` of `audit`: quasi-random points of the domain.
pub const AUDIT_SAMPLES: Cap = Cap {
    option: "--samples",
    min: 1,
    max: 100_000_000,
};
/// The threads a run asked for `--jobs N` starts: N, at most four per core (more is never
/// faster, and every thread costs address space for its stack: `--jobs 1024` under a
/// 4 GB address-space cap aborted while starting its threads, issue 63, D6).
pub fn threads(jobs: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    jobs.clamp(1, 4 * cores)
}

/// A pool of [`threads`]`(jobs)` workers; a failed start is bad input naming `--jobs` and
/// the cause.
pub fn pool(jobs: usize) -> Result<rayon::ThreadPool, super::InputError> {
    let n = threads(jobs);
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| super::InputError::new("--jobs", format!("cannot start {n} threads: {e}")))
}

/// `--jobs` of `audit`, `regress` and `verify`: worker threads (at most four per core
/// start, [`threads`]).
pub const JOBS: Cap = Cap {
    option: "--jobs",
    min: 1,
    max: 1024,
};
/// `--digits`: significant digits of values in text.
pub const TEXT_DIGITS: Cap = Cap {
    option: "--digits",
    min: 1,
    max: 10_000,
};
/// Entries of any list option (`--masses`, `--v0`, `--velocities`, …); each command
/// may bound its own lists further (`--balls`, the contacts of `propagate`).
pub const LIST: usize = 1_000;
/// Contacts (`--normals` rows) of `propagate` and balls of `compare-cradle`.
pub const CONTACTS: usize = 8;
/// Reflections the search of minimal sequences (Seghete–Murphey, Definition 1) may
/// compute before it stops with an error naming `--max-steps`: a deterministic bound on
/// the work of `propagate` (`laws`, `regress` and `compare-cradle` use
/// [`DEFAULT_LAWS_REFLECTIONS`]). In exact
/// arithmetic a reflection counts one more for every 100 digits of the momentum it
/// reflects.
pub const REFLECTIONS: u64 = 400_000;
/// `--max-reflections` of `laws`: the reflections its search of minimal sequences may
/// compute (counted as for [`REFLECTIONS`]), at most that bound.
pub const LAWS_REFLECTIONS: Cap = Cap {
    option: "--max-reflections",
    min: 1,
    max: REFLECTIONS,
};
/// Default of `--max-reflections` of `laws`, and the bound of `regress`: six times what
/// the largest example needs (8,274 for the 3-ball billiard rack at π/3), and small
/// enough that a certified run climbing its whole precision ladder stays within seconds.
pub const DEFAULT_LAWS_REFLECTIONS: u64 = 50_000;
/// Decimal digits of one exact option value (numerator and denominator): `1e-100000`
/// is a valid expression, but not a coefficient a law should iterate with.
pub const VALUE_DIGITS: u64 = 10_000;
/// Per-claim time budget of `verify`, in seconds.
pub const BUDGET_SECONDS: (f64, f64) = (0.1, 86_400.0);
