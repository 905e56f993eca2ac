//! The command-line types (clap). One name per notion across commands: `--eps` (a
//! coefficient of restitution), `--max-steps` (the work limit of an iteration), `--v0`,
//! `--masses`, `--arith`, `--format`, `--digits`, `--exact-values`.

use clap::{Args, Parser, Subcommand, ValueEnum};
use impactkit::arith::backend::Backend;
use impactkit::certify::Arith;

/// The conventions every command follows, shown by `impactkit --help`.
pub const CONVENTIONS: &str = "\
Conventions (every command):
  --format text|json   text (default) is for people; JSON carries \"schema\": \"impactkit/1\",
                       the version, and numbers as {\"exact\": ..}, {\"approx\": ..} or
                       {\"lo\": .., \"hi\": ..}
  --digits N           significant digits of values in text (default 20), correctly rounded;
                       --exact-values prints exact values in full instead
  --arith A            f64 | exact | quadratic | algebraic | mpfr:BITS | interval | mpi:BITS |
                       certified, the default of every command but audit (f64, the
                       arithmetic under audit) and penny run/spread (mpi:128/f64): every sign
                       decided, exact where the inputs allow; symbolic where offered
  numbers              expressions of the input language: 9/10, 0.9, pi/4, tan(pi/6), 1e-16
  exit status          0 success (the JSON says \"complete\": false when a sign stayed
                       undecided, \"non_finite\": true when f64 overflowed), 2 bad input
                       (one line naming the option), 1 internal error
  limits               every count and size has one; see docs/conventions.md (Limits)
  --svg -              writes the figure to standard output instead of the report";

#[derive(Parser)]
#[command(
    name = "impactkit",
    version,
    about = "Verifying impact mechanics: impact laws over exact, floating-point and interval arithmetic",
    arg_required_else_help = true,
    after_help = CONVENTIONS
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// The formats of `verify`: those of every command, and the Markdown catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VerifyFormat {
    Text,
    Json,
    /// The claims catalogue as a Markdown table (docs/claims.md).
    Markdown,
}

/// The output options of `verify`.
#[derive(Args, Clone, Copy, Debug)]
pub struct VerifyOutput {
    /// Output format: text (for people), json (schema impactkit/1) or markdown (the
    /// catalogue table of docs/claims.md).
    #[arg(long, value_enum, default_value = "text")]
    pub format: VerifyFormat,
}

impl VerifyOutput {
    /// The shared output options (markdown reports errors as text does).
    pub fn common(self) -> Output {
        Output {
            format: match self.format {
                VerifyFormat::Json => Format::Json,
                _ => Format::Text,
            },
            ..Output::default()
        }
    }
}

/// Output options shared by every command.
#[derive(Args, Clone, Copy, Debug)]
pub struct Output {
    /// Output format: text (for people) or json (schema impactkit/1).
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Significant digits of the values printed in text (correctly rounded), 1..=10000.
    #[arg(long, default_value_t = 20, value_parser = text_digits)]
    pub digits: u32,
    /// Print exact values in full (input language) in text, not rounded.
    #[arg(long)]
    pub exact_values: bool,
}

impl Default for Output {
    fn default() -> Self {
        Output {
            format: Format::Text,
            digits: 20,
            exact_values: false,
        }
    }
}

/// The verdicts `verify --deny` turns into exit status 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DenyArg {
    Refuted,
    Inconclusive,
    /// confirmed-on-samples.
    Sampled,
    /// proved-on-subdomain.
    Subdomain,
    /// Every verdict but proved and refuted.
    Unproved,
}

impl DenyArg {
    /// Whether `v` is denied by this class.
    pub fn denies(self, v: impactkit::claims::Verdict) -> bool {
        use impactkit::claims::Verdict as V;
        match self {
            DenyArg::Refuted => v == V::Refuted,
            DenyArg::Inconclusive => v == V::Inconclusive,
            DenyArg::Sampled => v == V::ConfirmedOnSamples,
            DenyArg::Subdomain => v == V::ProvedOnSubdomain,
            DenyArg::Unproved => !matches!(v, V::Proved | V::Refuted),
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum AlgorithmArg {
    /// Theoretical algorithm: S = S_v = 0.
    Ta,
    /// Stable algorithm: thresholds S (default 4.5e-16) and S_v (default 0).
    Sa,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormArg {
    /// (x', y'): eqs. (13a-13d), Pasquero (10) with --eps1/--eps2.
    Xy,
    /// (cos phi, sin phi): eqs. (6a-6d), ideal rule only.
    Phi,
    /// (xi', eta'): eqs. (14a-14d).
    Xieta,
}

/// Parsed once per process, so the size difference between variants costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
pub enum Command {
    /// Audit floating-point robustness over a whole input domain: where does f64 (or
    /// mpfr:BITS) take another branch than the certified computation, and how far apart
    /// do the results end.
    Audit {
        #[command(subcommand)]
        law: crate::audit::AuditCommand,
    },
    /// Evaluate an expression of the input language on one backend.
    #[command(allow_negative_numbers = true)]
    Eval {
        /// The expression, e.g. "tan(pi/6)", "3/7 + 0.1", "(1+sqrt(2))^2".
        #[arg(allow_hyphen_values = true)]
        expr: String,
        /// Backend: f64 | exact | quadratic | algebraic | mpfr:BITS | interval | mpi:BITS | certified (default: exact where the inputs allow, else enclosures until every sign is decided).
        #[arg(long, value_parser = parse_arith, default_value = "certified")]
        arith: Arith,
        #[command(flatten)]
        out: Output,
    },
    /// The disk in a corner (Fassino-Pasquero 2020; Pasquero rule (10)): iterate the
    /// impact rule from an entrance velocity until exit, rest or N_max steps.
    #[command(allow_negative_numbers = true)]
    Corner {
        /// alpha, half the angle between the walls (k = tan(alpha)), e.g. "pi/4".
        #[arg(long, allow_hyphen_values = true)]
        alpha: String,
        /// Entrance velocity "EXPR,EXPR" (need not be a unit vector); several runs:
        /// "x1,y1;x2,y2;...".
        #[arg(long, allow_hyphen_values = true)]
        v0: String,
        /// Coefficient of restitution of both walls, in [0, 1] (1: ideal).
        #[arg(long, allow_hyphen_values = true, required_unless_present_all = ["eps1", "eps2"], conflicts_with_all = ["eps1", "eps2"])]
        eps: Option<String>,
        /// COR of wall S1 (kx - y = 0), with --eps2: Pasquero's asymmetric rule (10).
        #[arg(long, allow_hyphen_values = true, requires = "eps2")]
        eps1: Option<String>,
        /// COR of wall S2 (kx + y = 0).
        #[arg(long, allow_hyphen_values = true, requires = "eps1")]
        eps2: Option<String>,
        /// ta (S = S_v = 0) or sa (thresholds), Sect. 6.
        #[arg(long, value_enum, default_value = "ta")]
        algorithm: AlgorithmArg,
        /// S, for --algorithm sa (default 4.5e-16).
        #[arg(long, allow_hyphen_values = true)]
        threshold: Option<String>,
        /// S_v, for --algorithm sa (default 0).
        #[arg(long, allow_hyphen_values = true)]
        rest_threshold: Option<String>,
        /// N_max, the largest number of rule applications; "unlimited" (with --arith
        /// certified, --algorithm ta, --eps): the long-run certificate decides (never exits,
        /// or the exact exit step).
        #[arg(long, default_value = "10000", value_parser = corner_steps)]
        max_steps: usize,
        /// Work limit of exact runs: the largest number of decimal digits of a velocity's
        /// exact numbers.
        #[arg(long, default_value_t = impactkit::input::caps::DEFAULT_DIGITS, value_parser = digits)]
        max_digits: u64,
        /// Which form of the rules to iterate.
        #[arg(long, value_enum, default_value = "xy")]
        form: FormArg,
        /// f64 | exact | quadratic | algebraic | mpfr:BITS | interval | mpi:BITS | certified
        /// (default) | symbolic (the closed form of one step in each zone; --alpha
        /// "atan(K)", variables allowed in K, --v0, --eps).
        #[arg(long, default_value = "certified")]
        arith: String,
        /// Largest MPFR precision tried by --arith certified.
        #[arg(long, default_value_t = impactkit::certify::DEFAULT_MAX_BITS)]
        max_bits: u32,
        /// Also draw the figure of Sect. 8 (disk, walls, v0, exit velocities) to FILE
        /// ("-": standard output, instead of the report).
        #[arg(long, value_parser = svg_file)]
        svg: Option<std::path::PathBuf>,
        /// The CORs drawn in the figure, "EXPR,EXPR,...".
        #[arg(long, default_value = "1,0.8,0.6,0.4,0.2,0")]
        svg_eps: String,
        /// Report every velocity of the run (`trace`), not only the last one.
        #[arg(long)]
        trace: bool,
        #[command(flatten)]
        out: Output,
    },
    /// The propagative model of Seghete-Murphey: all minimal sequences of reset maps
    /// (Definition 1), their outcomes, uniqueness, and the bound of Theorem 1.
    #[command(allow_negative_numbers = true)]
    Propagate {
        /// Masses "m1,m2,..." (a diagonal mass matrix).
        #[arg(long, allow_hyphen_values = true)]
        masses: String,
        /// Contact normals Dphi, rows separated by ';': "-1,1,0;0,-1,1".
        #[arg(long, allow_hyphen_values = true)]
        normals: String,
        /// The momentum covector p = M q', "p1,p2,...".
        #[arg(long, allow_hyphen_values = true)]
        momentum: String,
        /// Restitution: the energetic coefficient R of Seghete-Murphey (16), in [0, 1]
        /// (default: elastic). `--restitution` is an alias.
        #[arg(long, alias = "restitution", allow_hyphen_values = true)]
        eps: Option<String>,
        /// Longest sequence of reset maps searched (at most 24). `--max-depth` is an alias.
        #[arg(long, alias = "max-depth", default_value_t = 12, value_parser = depth)]
        max_steps: usize,
        /// f64 | exact | quadratic | algebraic | mpfr:BITS | interval | mpi:BITS | certified (default: exact where the inputs allow, else enclosures until every sign is decided).
        #[arg(long, value_parser = parse_arith, default_value = "certified")]
        arith: Arith,
        #[command(flatten)]
        out: Output,
    },
    /// The billiard break of Seghete-Murphey Sect. VII-A: p_ab, p_ba, the indeterminacy
    /// xi and eq. (31) for one angle theta, or a sweep of theta (Fig. 5).
    #[command(allow_negative_numbers = true)]
    BilliardBreak {
        /// The angle theta between the centre lines c-a and c-b, in [theta_min, pi].
        #[arg(long, allow_hyphen_values = true, conflicts_with_all = ["tan_quarter", "sweep"])]
        theta: Option<String>,
        /// t = tan(theta/4): a rational t gives a rational geometry (exact backends).
        #[arg(long, allow_hyphen_values = true, conflicts_with = "sweep")]
        tan_quarter: Option<String>,
        /// Sweep theta = i*pi/N, i = 0..N (overlapping geometries skipped).
        #[arg(long, value_parser = sweep)]
        sweep: Option<usize>,
        /// Radii "r_a,r_b,r_c" (the paper does not state them; 1,1,3 puts theta_min
        /// near pi/6 as in Fig. 5).
        #[arg(long, default_value = "1,1,3")]
        radii: String,
        /// Masses "m_a,m_b,m_c" (default: proportional to the volumes, r^3).
        #[arg(long)]
        masses: Option<String>,
        /// Longest reflection sequence. `--max-depth` is an alias.
        #[arg(long, alias = "max-depth", default_value_t = 64, value_parser = billiard_depth)]
        max_steps: usize,
        /// Draw Fig. 5 (with --sweep) to FILE (.svg or .png; "-": SVG on standard output).
        #[arg(long, value_parser = figure_file)]
        svg: Option<std::path::PathBuf>,
        /// f64 | exact | quadratic | algebraic | mpfr:BITS | interval | mpi:BITS | certified (default: exact where the inputs allow, else enclosures until every sign is decided).
        #[arg(long, value_parser = parse_arith, default_value = "certified")]
        arith: Arith,
        #[command(flatten)]
        out: Output,
    },
    /// One Newton's cradle through several impact laws (Pasquero, Seghete-Murphey, ...),
    /// with an exact comparison of their outcomes.
    #[command(allow_negative_numbers = true)]
    CompareCradle {
        /// The coefficient of restitution: Newton's for Pasquero, Newton and Poisson; the
        /// energetic R of Seghete-Murphey (16) for the propagative law.
        #[arg(long, allow_hyphen_values = true)]
        eps: String,
        /// Initial velocities "v1,v2,...".
        #[arg(long, allow_hyphen_values = true)]
        v0: String,
        /// Masses "m1,m2,...".
        #[arg(long, default_value = "1,1,1")]
        masses: String,
        /// Largest number of impulses / reflections. `--max-iter` is an alias.
        #[arg(long, alias = "max-iter", default_value_t = 1000, value_parser = compare_steps)]
        max_steps: usize,
        /// Work limit of the exact laws (Pasquero's impulses, Newton's solves): the largest
        /// number of decimal digits of a velocity's exact numbers.
        #[arg(long, default_value_t = impactkit::input::caps::DEFAULT_DIGITS, value_parser = digits)]
        max_digits: u64,
        /// f64 | exact | quadratic | algebraic | mpfr:BITS | interval | mpi:BITS | certified (default: exact where the inputs allow, else enclosures until every sign is decided).
        #[arg(long, value_parser = parse_arith, default_value = "certified")]
        arith: Arith,
        #[command(flatten)]
        out: Output,
    },
    /// The Winandy-Leine Sequential Impact Law of the 3-ball cradle: evaluate or check it.
    Sequential {
        #[command(subcommand)]
        action: SequentialCommand,
    },
    /// The bouncing penny of Clark-Bloch Sect. V-VI: one impact through the three maps,
    /// or runs on the table.
    Penny {
        #[command(subcommand)]
        action: PennyCommand,
    },
    /// The variational time stepper of Seghete-Murphey Sect. VI with simultaneous impacts
    /// resolved by the propagative model, eq. (28)-(30).
    #[command(allow_negative_numbers = true)]
    Step {
        /// The system file (TOML, the schema `laws` and `regress` read: masses, q, p or
        /// velocity, force, springs, contacts as affine gaps; docs/step.md); several
        /// files only with --compare-orders (one report and one figure for all)
        #[arg(value_name = "FILE", required_unless_present = "system")]
        file: Vec<std::path::PathBuf>,
        /// The system file, as an option (the same as FILE)
        #[arg(long, value_name = "FILE", conflicts_with = "file")]
        system: Option<std::path::PathBuf>,
        /// The time step h (an expression, positive).
        #[arg(long, allow_hyphen_values = true)]
        dt: String,
        /// The number of steps (1..=100000).
        #[arg(long)]
        steps: usize,
        /// The impact law: elastic (reflections), plastic (11), inelastic (17) with --eps.
        #[arg(long, value_enum)]
        law: StepLawArg,
        /// R of (16) for --law inelastic, in [0, 1].
        #[arg(long, allow_hyphen_values = true)]
        eps: Option<String>,
        /// The order of the reflections of an elastic impact: the violated contact with
        /// the smallest <u, p>_g first (argmin, Sect. VII-B) or the largest (argmax).
        #[arg(long, value_enum, default_value = "argmin")]
        order: OrderArg,
        /// Run again with the other --order and report the indeterminacy
        /// xi = |p_a - p_b|_g / |p_a|_g at every node (Seghete-Murphey Fig. 8); --svg then
        /// draws xi against time.
        #[arg(long)]
        compare_orders: bool,
        /// [lagrangian] systems: an approaching contact whose gap is at most TOL at an
        /// impact instant takes part in that impact (one simultaneous impact; default:
        /// only the contacts closed there).
        #[arg(long, value_name = "TOL", allow_hyphen_values = true)]
        together: Option<String>,
        /// Draw the coordinates against time to FILE (.svg or .png; "-": SVG on standard
        /// output).
        #[arg(long, value_parser = figure_file)]
        svg: Option<std::path::PathBuf>,
        /// f64 | exact | quadratic | algebraic | mpfr:BITS | interval | mpi:BITS | certified (default: exact where the inputs allow, else enclosures until every sign is decided).
        #[arg(long, value_parser = parse_arith, default_value = "certified")]
        arith: Arith,
        #[command(flatten)]
        out: Output,
    },
    /// Colliding linear-elastic thin rods (Winandy-Leine Sect. 4), exact event-driven.
    #[command(allow_negative_numbers = true)]
    Rods {
        /// Initial velocities "v1,v2,..." (rods undeformed and touching at t = 0).
        #[arg(long, allow_hyphen_values = true)]
        velocities: String,
        /// Transit times in cells "n1,n2,..." (default all 1: identical rods).
        #[arg(long)]
        lengths: Option<String>,
        /// Impedances "z1,z2,..." (default all 1).
        #[arg(long, allow_hyphen_values = true)]
        impedances: Option<String>,
        /// Largest number of time steps.
        #[arg(long, default_value_t = 10_000, value_parser = steps)]
        max_steps: usize,
        /// f64 | exact | quadratic | algebraic | mpfr:BITS | interval | mpi:BITS | certified (default: exact where the inputs allow, else enclosures until every sign is decided).
        #[arg(long, value_parser = parse_arith, default_value = "certified")]
        arith: Arith,
        /// Also draw the characteristics diagram (Fig. 6) to FILE (SVG; "-": standard
        /// output).
        #[arg(long, value_parser = svg_file)]
        svg: Option<std::path::PathBuf>,
        #[command(flatten)]
        out: Output,
    },
    /// Newton's cradle through Pasquero's characterization (Sect. 3.5, 4.1): n balls on
    /// a line, any masses, one COR per contact.
    #[command(allow_negative_numbers = true)]
    Cradle {
        /// Number of balls (at least 2).
        #[arg(long, required_unless_present = "table1", value_parser = balls)]
        balls: Option<usize>,
        /// One COR for all contacts, or "e1,e2,..." (one per contact), in [0, 1].
        #[arg(long, allow_hyphen_values = true, required_unless_present = "table1")]
        eps: Option<String>,
        /// Masses "m1,m2,..." (default: all 1).
        #[arg(long, allow_hyphen_values = true)]
        masses: Option<String>,
        /// Initial velocities "v1,v2,...", or one V: ball 1 moves at V, the others rest.
        #[arg(long, allow_hyphen_values = true, default_value = "1")]
        v0: String,
        /// AEEV threshold: stop when every relative velocity |v_i - v_(i+1)| <= sigma.
        #[arg(long, allow_hyphen_values = true)]
        sigma: Option<String>,
        /// Largest number of iterations (impulses). `--max-iter` is an alias.
        #[arg(long, alias = "max-iter", default_value_t = 10_000, value_parser = steps)]
        max_steps: usize,
        /// Work limit of exact runs: the largest number of decimal digits of a velocity's
        /// exact numbers.
        #[arg(long, default_value_t = impactkit::input::caps::DEFAULT_DIGITS, value_parser = digits)]
        max_digits: u64,
        /// Print Pasquero's Table 1 beside this program's values, with a match column.
        #[arg(long)]
        table1: bool,
        /// Report every impulse and the velocity after it (`trace`).
        #[arg(long)]
        trace: bool,
        /// f64 | exact | quadratic | algebraic | mpfr:BITS | interval | mpi:BITS | certified
        /// (default).
        #[arg(long, default_value = "certified")]
        arith: String,
        /// Largest MPFR precision tried by --arith certified.
        #[arg(long, default_value_t = impactkit::certify::DEFAULT_MAX_BITS)]
        max_bits: u32,
        #[command(flatten)]
        out: Output,
    },
    /// Every impact law that applies to a system file, side by side, with an exact
    /// agreement table (Pasquero, Seghete-Murphey, Newton over every touching / the
    /// approaching contacts, Poisson, Winandy-Leine for a 3-ball cradle)
    Laws {
        /// The system file (TOML; `impactkit system` writes the built-in ones)
        file: std::path::PathBuf,
        /// Largest number of impulses (Pasquero) / solves (Newton)
        #[arg(long, default_value_t = 1000)]
        max_steps: usize,
        /// Work limit of the exact laws (Pasquero's impulses, Newton's solves): the largest
        /// number of decimal digits of a velocity's exact numbers.
        #[arg(long, default_value_t = impactkit::input::caps::DEFAULT_DIGITS, value_parser = digits)]
        max_digits: u64,
        /// Work limit of Seghete-Murphey's search of minimal sequences: reflections
        /// computed, each counting one more per 100 digits of its numbers and per 8
        /// coordinates (at most 400000)
        #[arg(long, default_value_t = impactkit::input::caps::DEFAULT_LAWS_REFLECTIONS, value_parser = reflections)]
        max_reflections: u64,
        /// f64 | exact | quadratic | algebraic | mpfr:BITS | interval | mpi:BITS | certified
        #[arg(long, default_value = "certified")]
        arith: String,
        /// Largest MPFR precision tried by --arith certified.
        #[arg(long, default_value_t = impactkit::certify::DEFAULT_MAX_BITS)]
        max_bits: u32,
        #[command(flatten)]
        out: Output,
    },
    /// Regression-test a simulator: each output record (JSON lines, or CSV) against every
    /// impact law that applies to its system, exactly. Exit status 0 when every `expect`
    /// clause holds, 1 when one fails ("differences found", as diff and test runners),
    /// 2 for bad input (a record that cannot be checked is reported with its line)
    Regress {
        /// The records file (.jsonl, or .csv); scenario files are relative to it
        records: std::path::PathBuf,
        /// Worker threads (default: all cores); the output is in file order whatever
        /// the number
        #[arg(long, value_parser = jobs)]
        jobs: Option<usize>,
        /// Print only the records that fail (an error, or an expectation that does not
        /// hold) and the summary: one screen for any number of records
        #[arg(long)]
        summary: bool,
        /// Per record, also the distances, the second-nearest law, the energy change,
        /// the momentum defect, the impulses and the contact order (text; JSON has all)
        #[arg(long)]
        detail: bool,
        /// Fit a compliant law's parameters to the records, per engine parameter set,
        /// instead of checking them: `lzb` (η, the stiffness ratios, the energetic
        /// coefficients), its distance certified by the limit ΔP → 0
        #[arg(long, value_parser = fit_law, conflicts_with_all = ["summary", "detail"])]
        fit: Option<FitLaw>,
        /// With --fit: objective evaluations of the search per exponent η (each runs
        /// every record of the set; 10..=100000)
        #[arg(long, default_value_t = 100, value_parser = fit_evaluations, requires = "fit")]
        fit_evaluations: usize,
        /// With --fit: one stiffness per contact name (the first one's K = 1) instead of
        /// the same K for every contact
        #[arg(long, requires = "fit")]
        fit_stiffness: bool,
        #[command(flatten)]
        out: Output,
    },
    /// Write a built-in scenario as a system file (TOML, to standard output)
    System {
        #[command(subcommand)]
        scenario: SystemCommand,
    },
    /// Verify the papers' claims (proofs/**.toml): a computed verdict per claim.
    #[command(allow_negative_numbers = true)]
    Verify {
        /// Claim files or directories (recursive: their *.toml files; links to directories
        /// inside a directory are not followed); default: proofs.
        #[arg(default_value = "proofs")]
        paths: Vec<std::path::PathBuf>,
        /// Check only the claim with this id.
        #[arg(long)]
        only: Option<String>,
        /// Time limit per claim, in seconds: a safety net only (work bounds decide the
        /// verdicts); a claim past it is `inconclusive (time)`.
        #[arg(long, default_value_t = 120.0, value_parser = budget)]
        budget_seconds: f64,
        /// Claims checked in parallel (default: every core; 1..=1024, as every --jobs).
        #[arg(long, value_parser = jobs)]
        jobs: Option<usize>,
        /// Write a certificate per proved or refuted claim into this directory
        /// (`<id>.json`, re-checked by `impactkit check`).
        #[arg(long)]
        certificates: Option<std::path::PathBuf>,
        /// Write the polynomial obligations of every symbolic proof as SMT-LIB 2 queries
        /// into this directory (`<id>.smt2`; scripts/smt_crosscheck.py runs Z3 on them).
        #[arg(long)]
        smtlib: Option<std::path::PathBuf>,
        /// Write each decided claim as a Coq theorem with its proof into this directory
        /// (`<id>.v`, the laws in `lib/`), and have Coq's kernel check them (coqc, coqchk,
        /// Print Assumptions): each verdict gets a Coq status.
        #[arg(long)]
        coq: Option<std::path::PathBuf>,
        /// Write the verdicts as a static site into this directory: index.html (the
        /// catalogue, errata first, a filter by paper and verdict) and a page per claim.
        #[arg(long)]
        html: Option<std::path::PathBuf>,
        /// Exit with status 1 (after the full report) when a claim's verdict is in this
        /// comma list, for CI: refuted, inconclusive, sampled (confirmed on samples),
        /// subdomain (proved on a subdomain), unproved (= inconclusive,sampled,subdomain).
        #[arg(long, value_enum, value_delimiter = ',')]
        deny: Vec<DenyArg>,
        /// List every probe a claim can call (its inputs, outputs and the paper's
        /// equations) and exit.
        #[arg(long)]
        probes: bool,
        #[command(flatten)]
        out: VerifyOutput,
    },
    /// Re-check certificates of `verify --certificates` without the prover (exit 1 when
    /// one is rejected).
    Check {
        /// Certificate files (`DIR/*.json`).
        paths: Vec<std::path::PathBuf>,
        /// The claim files (or folders of them) the certificates are checked against:
        /// each certificate's statement is read from the claim file with its id, never
        /// from the certificate.
        #[arg(long, default_value = "proofs", num_args = 1..)]
        claims: Vec<std::path::PathBuf>,
        #[command(flatten)]
        out: Output,
    },
}

/// The sub-commands of `impactkit sequential`.
#[derive(Subcommand)]
pub enum SequentialCommand {
    /// γ⁺ = S(γ⁻) (eq. (19)), its cone and impulse, and Newton's and Poisson's outcomes.
    #[command(allow_negative_numbers = true)]
    Map {
        /// Pre-impact contact velocities "g1,g2" (γ = (u2 − u1, u3 − u2)).
        #[arg(long, allow_hyphen_values = true)]
        gamma: String,
        /// Masses "m1,m2,m3" (default 1,1,1); the law must close up for them.
        #[arg(long, allow_hyphen_values = true)]
        masses: Option<String>,
        /// Coefficient of restitution of the Newton and Poisson laws, in [0, 1] (default
        /// 1). `--restitution` is an alias.
        #[arg(long = "eps", alias = "restitution", allow_hyphen_values = true)]
        restitution: Option<String>,
        /// f64 | exact | quadratic | algebraic | mpfr:BITS | interval | mpi:BITS | certified (default: exact where the inputs allow, else enclosures until every sign is decided).
        #[arg(long, value_parser = parse_arith, default_value = "certified")]
        arith: Arith,
        #[command(flatten)]
        out: Output,
    },
    /// Construct the law from P1–P3 for the masses and check every property.
    #[command(allow_negative_numbers = true)]
    Check {
        /// Masses "m1,m2,m3" (default 1,1,1).
        #[arg(long, allow_hyphen_values = true)]
        masses: Option<String>,
        /// Random exact pairs for the falsification test of Theorem 1 (at most 100000).
        #[arg(long, default_value_t = 200, value_parser = samples)]
        samples: usize,
        /// Seed of those pairs.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// exact | quadratic | algebraic (the checks are exact identities).
        #[arg(long, value_parser = parse_arith, default_value = "certified")]
        arith: Arith,
        /// Also draw the cones (Fig. 4(a)) to FILE (SVG; "-": standard output, instead of
        /// the report).
        #[arg(long, value_parser = svg_file)]
        svg: Option<std::path::PathBuf>,
        #[command(flatten)]
        out: Output,
    },
}

/// The penny's maps, for `--law`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PennyLawArg {
    /// P of Theorem 3.1 (5), (28)-(29): the constraints not imposed.
    P,
    /// The elastic nonholonomic map (15), Proposition 4.1.
    Elastic,
    /// The plastic nonholonomic map (18), Definition 4.4.
    Plastic,
    /// All three.
    All,
}

/// Which end of the penny meets the boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EndArg {
    /// (27): (x + R cos phi, y + R sin phi).
    Front,
    /// (34): (x - R cos phi, y - R sin phi).
    Back,
}

#[derive(Subcommand, Debug)]
pub enum PennyCommand {
    /// One impact of the penny (Sect. V-B): P (28)-(29), the elastic map (15) and the
    /// plastic map (18), with what each conserves. Inertias default to Table I.
    #[command(allow_negative_numbers = true)]
    Impact {
        /// The mass m (default: Table I, 0.0025).
        #[arg(long, allow_hyphen_values = true)]
        mass: Option<String>,
        /// The radius R (default: Table I, 0.01).
        #[arg(long, allow_hyphen_values = true)]
        radius: Option<String>,
        /// I, about the axis perpendicular to the disk (default: Table I, 1.25e-7).
        #[arg(long, allow_hyphen_values = true)]
        inertia: Option<String>,
        /// J, about an axis in the disk's plane (default: Table I, 6.25e-8).
        #[arg(long, allow_hyphen_values = true)]
        spin_inertia: Option<String>,
        /// The heading phi (cos and sin through the backend: exact on the table of angles).
        #[arg(
            long,
            allow_hyphen_values = true,
            required_unless_present = "heading",
            conflicts_with = "heading"
        )]
        phi: Option<String>,
        /// The heading as "cos phi,sin phi" (a unit vector; rational or Q(sqrt d) points
        /// keep exact backends exact).
        #[arg(long, allow_hyphen_values = true)]
        heading: Option<String>,
        /// A straight wall "a*x+b*y=c"; the table is the side a*x+b*y < c.
        #[arg(long, allow_hyphen_values = true, required_unless_present_any = ["ellipse", "gradient"], conflicts_with_all = ["ellipse", "gradient"])]
        wall: Option<String>,
        /// The elliptical table (35) "a,b" (a circle when a = b); needs --point.
        #[arg(long, allow_hyphen_values = true, conflicts_with = "gradient")]
        ellipse: Option<String>,
        /// A general boundary h = 0, by its gradient "h_x,h_y" at the point (table: h < 0).
        #[arg(long, allow_hyphen_values = true)]
        gradient: Option<String>,
        /// Where the end meets the boundary, "x,y" (checked to lie on it).
        #[arg(long, allow_hyphen_values = true)]
        point: Option<String>,
        /// Which end hits: front (27) or back (34).
        #[arg(long, value_enum, default_value = "front")]
        end: EndArg,
        /// The rolling rates "thetadot,phidot"; xdot, ydot follow from (23).
        #[arg(
            long,
            allow_hyphen_values = true,
            required_unless_present = "qdot",
            conflicts_with = "qdot"
        )]
        rates: Option<String>,
        /// The velocity "xdot,ydot,thetadot,phidot" (checked to satisfy (23)).
        #[arg(long, allow_hyphen_values = true)]
        qdot: Option<String>,
        /// Which map(s).
        #[arg(long, value_enum, default_value = "all")]
        law: PennyLawArg,
        /// f64 | exact | quadratic | algebraic | mpfr:BITS | interval | mpi:BITS | certified (default: exact where the inputs allow, else enclosures until every sign is decided).
        #[arg(long, value_parser = parse_arith, default_value = "certified")]
        arith: Arith,
        #[command(flatten)]
        out: Output,
    },
    /// Fig. 5 made deterministic (Sect. VI-B): runs from the data of Sect. VI-A with
    /// theta0 and phidot0 moved by a grid of offsets in (-0.005, 0.005), and where each
    /// penny is at the given times.
    Spread(SpreadArgs),
    /// Runs on the table (Sect. VI): the flow (26), the first impact of either end
    /// (certified root isolation on enclosures), the impact map, repeated. Defaults: Table
    /// I and the initial data of Sect. VI-A.
    #[command(allow_negative_numbers = true)]
    Run {
        /// ellipse (a = 0.15, b = 0.20) or circle (a = b = 0.20), (35).
        #[arg(long, value_enum, default_value = "ellipse")]
        table: TableArg,
        /// Semi-axis a along x.
        #[arg(long)]
        a: Option<String>,
        /// Semi-axis b along y.
        #[arg(long)]
        b: Option<String>,
        /// The impact map at every impact.
        #[arg(long, value_enum)]
        law: RunLawArg,
        /// Number of impacts (1..=10000).
        #[arg(long, default_value_t = 20)]
        impacts: usize,
        #[arg(long, allow_hyphen_values = true)]
        mass: Option<String>,
        #[arg(long, allow_hyphen_values = true)]
        radius: Option<String>,
        #[arg(long, allow_hyphen_values = true)]
        inertia: Option<String>,
        #[arg(long, allow_hyphen_values = true)]
        spin_inertia: Option<String>,
        /// Initial x (default 0).
        #[arg(long, allow_hyphen_values = true)]
        x0: Option<String>,
        /// Initial y (default 0).
        #[arg(long, allow_hyphen_values = true)]
        y0: Option<String>,
        /// Initial theta (default 0).
        #[arg(long, allow_hyphen_values = true)]
        theta0: Option<String>,
        /// Initial heading phi (default pi/2).
        #[arg(long, allow_hyphen_values = true)]
        phi0: Option<String>,
        /// Initial "thetadot,phidot" (default 10,0.2).
        #[arg(long, allow_hyphen_values = true)]
        rates: Option<String>,
        /// Draw the trajectory with the impacts marked (Figs. 1-4) to FILE (.svg or .png;
        /// "-": SVG on standard output, instead of the report).
        #[arg(long, value_parser = figure_file)]
        svg: Option<std::path::PathBuf>,
        /// f64 | exact | quadratic | algebraic | mpfr:BITS | interval | mpi:BITS.
        #[arg(long, value_parser = parse_backend, default_value = "mpi:128")]
        arith: Backend,
        /// With --arith algebraic: the largest degree over Q of the number fields the run
        /// may build (each impact point's square root may double it), 2..=1024.
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(2..=1024))]
        max_degree: u64,
        #[command(flatten)]
        out: Output,
    },
}

/// The options of `penny spread` (Fig. 5).
#[derive(clap::Args, Debug)]
pub struct SpreadArgs {
    /// ellipse (a = 0.15, b = 0.20) or circle (a = b = 0.20), (35).
    #[arg(long, value_enum, default_value = "ellipse")]
    pub table: TableArg,
    /// The impact map at every impact.
    #[arg(long, value_enum)]
    pub law: RunLawArg,
    /// Number of runs, a square (the offsets form a grid), 1..=400.
    #[arg(long, default_value_t = 100)]
    pub runs: usize,
    /// Times "t1,t2,..." in seconds (1 to 8 of them, each in [0, 10000]).
    #[arg(long, default_value = "5,10,20,40")]
    pub times: String,
    /// Draw the clouds on the table to FILE (.svg or .png; "-": SVG on standard output).
    #[arg(long, value_parser = figure_file)]
    pub svg: Option<std::path::PathBuf>,
    /// f64 | exact | quadratic | algebraic | mpfr:BITS | interval | mpi:BITS (f64: the figure's
    /// precision, and fast).
    #[arg(long, value_parser = parse_backend, default_value = "f64")]
    pub arith: Backend,
    #[command(flatten)]
    pub out: Output,
}

/// The table of `penny run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TableArg {
    Ellipse,
    Circle,
}

/// The impact map of `penny run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RunLawArg {
    Elastic,
    Plastic,
}

/// `impactkit step --law`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StepLawArg {
    Elastic,
    Plastic,
    Inelastic,
}

/// `impactkit step --order`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OrderArg {
    Argmin,
    Argmax,
}

pub fn parse_backend(s: &str) -> Result<Backend, String> {
    s.parse()
}

/// `--arith` of a command that runs on one backend: a backend, or `certified` (the
/// default; [`impactkit::commands::on_arith`]).
pub fn parse_arith(s: &str) -> Result<Arith, String> {
    match s {
        "certified" => Ok(Arith::Certified {
            max_bits: impactkit::certify::DEFAULT_MAX_BITS,
        }),
        _ => parse_backend(s)
            .map(Arith::Backend)
            .map_err(|e| e.replace(')', ", or certified)")),
    }
}

/// A clap value parser of a count option within its [`Cap`](impactkit::input::caps::Cap).
macro_rules! count_parser {
    ($($name:ident: $t:ty = $cap:ident;)*) => {$(
        pub(crate) fn $name(s: &str) -> Result<$t, String> {
            impactkit::input::caps::$cap.parse(s).map(|n| n as $t)
        }
    )*};
}

count_parser! {
    audit_samples: u64 = AUDIT_SAMPLES;
    jobs: usize = JOBS;
    steps: usize = STEPS;
    compare_steps: usize = COMPARE_STEPS;
    depth: usize = DEPTH;
    billiard_depth: usize = BILLIARD_DEPTH;
    digits: u64 = DIGITS;
    reflections: u64 = LAWS_REFLECTIONS;
    balls: usize = BALLS;
    sweep: usize = SWEEP;
    samples: usize = SAMPLES;
    text_digits: u32 = TEXT_DIGITS;
}

/// `corner --max-steps`: a whole number within [`STEPS`](impactkit::input::caps::STEPS),
/// or `unlimited` ([`UNLIMITED`](impactkit::system::corner_spec::UNLIMITED)).
fn corner_steps(s: &str) -> Result<usize, String> {
    if s.trim() == "unlimited" {
        return Ok(impactkit::system::corner_spec::UNLIMITED);
    }
    steps(s).map_err(|e| format!("{e}, or unlimited"))
}

/// A figure FILE whose extension is one of `allowed` (or none), or `-`; another
/// extension is refused with `refusal` rather than written in the wrong format.
fn figure_path(s: &str, allowed: &[&str], refusal: &str) -> Result<std::path::PathBuf, String> {
    let p = std::path::PathBuf::from(s);
    match p.extension().and_then(|e| e.to_str()) {
        Some(e) if s != "-" && !allowed.iter().any(|x| e.eq_ignore_ascii_case(x)) => {
            Err(format!("{refusal}, or - for standard output (got .{e})"))
        }
        _ => Ok(p),
    }
}

/// `--svg FILE` of a command that draws SVG only: FILE.svg (or without an extension),
/// or `-`; another extension (`x.png`) is refused rather than written as SVG text.
pub(crate) fn svg_file(s: &str) -> Result<std::path::PathBuf, String> {
    figure_path(
        s,
        &["svg"],
        "this command draws SVG only: give a FILE ending in .svg",
    )
}

/// `--svg FILE` of a command drawn with plotters: FILE.svg (or without an extension),
/// FILE.png, or `-`; another extension (`x.pdf`) is refused rather than written as SVG
/// text.
pub(crate) fn figure_file(s: &str) -> Result<std::path::PathBuf, String> {
    figure_path(s, &["svg", "png"], "give a FILE ending in .svg or .png")
}

/// `--budget-seconds`: a finite number of seconds within
/// [`BUDGET_SECONDS`](impactkit::input::caps::BUDGET_SECONDS).
pub(crate) fn budget(s: &str) -> Result<f64, String> {
    let (lo, hi) = impactkit::input::caps::BUDGET_SECONDS;
    match s.trim().parse::<f64>() {
        Ok(b) if (lo..=hi).contains(&b) => Ok(b),
        _ => Err(format!("expected a number of seconds in {lo}..={hi}")),
    }
}

/// The built-in scenarios of `impactkit system`.
#[derive(Subcommand, Clone, Debug)]
pub enum SystemCommand {
    /// An n-ball Newton's cradle on a line (gaps x_{i+1} - x_i)
    #[command(allow_negative_numbers = true)]
    Cradle {
        /// Number of balls (masses 1), unless --masses is given
        #[arg(long, default_value_t = 3, value_parser = balls)]
        balls: usize,
        /// Masses "m1,m2,..."
        #[arg(long)]
        masses: Option<String>,
        /// Pre-impact velocities (default: 1, 0, ..., 0)
        #[arg(long, allow_hyphen_values = true)]
        v0: Option<String>,
        /// Coefficient of restitution of every contact
        #[arg(long, default_value = "1")]
        eps: String,
    },
    /// The disk in a corner of half-angle alpha (Fassino-Pasquero 2020)
    #[command(allow_negative_numbers = true)]
    Corner {
        /// Half-angle alpha of the corner, in (0, pi/2)
        #[arg(long, default_value = "pi/4")]
        alpha: String,
        /// Pre-impact velocity "x,y" (default: 1, 0, into the corner)
        #[arg(long, allow_hyphen_values = true, default_value = "1,0")]
        v0: String,
        /// Coefficient of restitution of both walls
        #[arg(long, default_value = "1")]
        eps: String,
        /// Coefficients of the walls S1 and S2 (the asymmetric rule)
        #[arg(long)]
        eps1: Option<String>,
        #[arg(long)]
        eps2: Option<String>,
    },
    /// The billiard break of Seghete-Murphey Sect. VII-A (cue ball c moving at speed 1)
    Billiard {
        /// The angle theta between the centre lines c-a and c-b
        #[arg(long, default_value = "pi/3")]
        theta: String,
        /// Radii "r_a,r_b,r_c"
        #[arg(long, default_value = "1,1,1")]
        radii: String,
        /// Masses "m_a,m_b,m_c" (default: r^3)
        #[arg(long)]
        masses: Option<String>,
    },
}

/// The laws `regress --fit` can fit (only LZB has parameters beyond the file's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FitLaw {
    Lzb,
}

fn fit_law(s: &str) -> Result<FitLaw, String> {
    match s {
        "lzb" => Ok(FitLaw::Lzb),
        _ => Err(format!(
            "`{s}`: only lzb has parameters to fit (the rigid laws take the file's coefficients)"
        )),
    }
}

fn fit_evaluations(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (10..=100_000).contains(&n) => Ok(n),
        _ => Err(format!("`{s}`: a whole number in 10..=100000")),
    }
}
