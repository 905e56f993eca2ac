//! `impactkit audit`: argument types and dispatch (the work is in `impactkit::audit`).

use super::args::{
    audit_samples, budget, digits, jobs, parse_backend, steps, AlgorithmArg, FormArg, Output,
};
use super::{emit, user_error, Failure, Printed};
use clap::Subcommand;
use impactkit::arith::backend::Backend;
use impactkit::audit::corner::{CornerAudit, Cors, Entrance, Outcome};
use impactkit::audit::domain::{parse_grid, Axis, Sampling, Shard};
use impactkit::audit::summary::{AuditReport, Summary, Timing};
use impactkit::audit::{figure, Config, Execution, Stored};
use impactkit::input::InputError;
use impactkit::system::corner::Form;
use impactkit::system::corner_spec::Algorithm;
use std::path::PathBuf;
use std::time::Instant;

/// The laws `audit` runs, and `merge`. Parsed once per process, so the size difference
/// between variants costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
pub enum AuditCommand {
    /// The disk in a corner (Fassino-Pasquero 2020, Sect. 6: TA and SA, every form;
    /// Pasquero's rule (10) with --eps1/--eps2). Each of --alpha, --direction, --speed,
    /// --eps is a value, a range "a..b" or a list "a,b,c"; v0 = speed*(cos(direction),
    /// sin(direction)); later options may name earlier ones ("-alpha..alpha").
    #[command(allow_negative_numbers = true)]
    Corner {
        /// alpha (half the corner's angle), e.g. "pi/16" or "pi/64..pi/4".
        #[arg(long, allow_hyphen_values = true)]
        alpha: String,
        /// The direction phi of v0, e.g. "-alpha..alpha".
        #[arg(
            long,
            allow_hyphen_values = true,
            required_unless_present = "v0",
            conflicts_with = "v0"
        )]
        direction: Option<String>,
        /// Instead of --direction and --speed: v0 = "X,Y", each component a value or a
        /// range ("1..2,-1/2..1/2"); with --alpha "atan(q)" every reference is exact.
        #[arg(long, allow_hyphen_values = true, conflicts_with = "speed")]
        v0: Option<String>,
        /// The speed |v0| (default 1, as the paper's algorithm takes).
        #[arg(long, allow_hyphen_values = true)]
        speed: Option<String>,
        /// COR of both walls, in [0, 1].
        #[arg(long, allow_hyphen_values = true, required_unless_present_all = ["eps1", "eps2"], conflicts_with_all = ["eps1", "eps2"])]
        eps: Option<String>,
        /// COR of wall S1, with --eps2: Pasquero's rule (10).
        #[arg(long, allow_hyphen_values = true, requires = "eps2")]
        eps1: Option<String>,
        /// COR of wall S2.
        #[arg(long, allow_hyphen_values = true, requires = "eps1")]
        eps2: Option<String>,
        /// ta (S = S_v = 0) or sa (thresholds), Sect. 6.
        #[arg(long, value_enum, default_value = "ta")]
        algorithm: AlgorithmArg,
        /// S, for --algorithm sa (default 4.5e-16): a value, range or list.
        #[arg(long, allow_hyphen_values = true)]
        threshold: Option<String>,
        /// S_v, for --algorithm sa (default 0): a value, range or list.
        #[arg(long, allow_hyphen_values = true)]
        rest_threshold: Option<String>,
        /// The reference's algorithm (default: --algorithm). "--algorithm sa
        /// --reference-algorithm ta" is the comparison of Sect. 6: SA in floating point
        /// against the theoretical algorithm, certified.
        #[arg(long, value_enum)]
        reference_algorithm: Option<AlgorithmArg>,
        /// Which form of the rules to iterate.
        #[arg(long, value_enum, default_value = "xy")]
        form: FormArg,
        /// N_max, the largest number of rule applications of a run.
        #[arg(long, default_value_t = 10_000, value_parser = steps)]
        max_steps: usize,
        #[command(flatten)]
        common: Common,
    },
    /// Join the output directories of the shards of one audit (run with --shard i/n
    /// and --out DIR each) into the summary and figure of a single run.
    Merge {
        /// The shards' output directories.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Write the merged records, summary and figure to DIR.
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        output: Output,
    },
}

/// Options of every law's audit.
#[derive(clap::Args)]
pub struct Common {
    /// N1xN2x...: a grid, one count per range (ends included); lists are taken whole.
    #[arg(long, conflicts_with = "samples")]
    grid: Option<String>,
    /// N quasi-random points (Roberts' R_d sequence, shifted by --seed; reproducible).
    #[arg(long, value_parser = audit_samples)]
    samples: Option<u64>,
    /// The seed of the quasi-random points.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The arithmetic under audit: f64 or mpfr:BITS.
    #[arg(long, value_parser = parse_backend, default_value = "f64")]
    arith: Backend,
    /// certified (every sample against the certified ladder) or none (only the audited
    /// arithmetic: for timing and quick looks).
    #[arg(long, default_value = "certified", value_parser = ["certified", "none"])]
    reference: String,
    /// Largest MPFR precision of the certified ladder.
    #[arg(long, default_value_t = impactkit::certify::DEFAULT_MAX_BITS)]
    max_bits: u32,
    /// Work limit of exact references: decimal digits of a velocity's exact numbers.
    #[arg(long, default_value_t = impactkit::input::caps::DEFAULT_DIGITS, value_parser = digits)]
    max_digits: u64,
    /// Time one sample's certified reference may take (then it counts as undecided).
    #[arg(long, default_value_t = 10.0, value_parser = budget)]
    sample_seconds: f64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = jobs)]
    jobs: Option<usize>,
    /// i/n: run only the points with index = i (mod n); merge the shards' --out
    /// directories with `impactkit audit merge`.
    #[arg(long, default_value = "0/1")]
    shard: String,
    /// Write samples.jsonl (one record per sample), audit.json and the figure
    /// (map.svg, map.png) to DIR.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Report the wall time and the audited rule applications per second (off by
    /// default, so that the output of a run is reproducible).
    #[arg(long)]
    timing: bool,
    #[command(flatten)]
    output: Output,
}

/// The command's name and output options.
pub fn name_and_output(c: &AuditCommand) -> (&'static str, Output) {
    match c {
        AuditCommand::Corner { common, .. } => ("audit corner", common.output),
        AuditCommand::Merge { output, .. } => ("audit merge", *output),
    }
}

fn input(e: InputError) -> Failure {
    user_error(e)
}

fn axis(src: &str, option: &str) -> Result<Axis, Failure> {
    Axis::parse(src, option).map_err(input)
}

/// Runs an `audit` command.
pub fn run(cmd: AuditCommand) -> Result<Printed, Failure> {
    match cmd {
        AuditCommand::Corner {
            alpha,
            direction,
            v0,
            speed,
            eps,
            eps1,
            eps2,
            algorithm,
            threshold,
            rest_threshold,
            reference_algorithm,
            form,
            max_steps,
            common,
        } => {
            let cors = match (eps, eps1, eps2) {
                (Some(e), _, _) => Cors::Symmetric(axis(&e, "--eps")?),
                (None, Some(a), Some(b)) => {
                    Cors::Asymmetric(axis(&a, "--eps1")?, axis(&b, "--eps2")?)
                }
                _ => return Err(user_error("--eps: give --eps, or both --eps1 and --eps2")),
            };
            let alg = |a: AlgorithmArg| match a {
                AlgorithmArg::Ta => Algorithm::Ta,
                AlgorithmArg::Sa => Algorithm::Sa,
            };
            let algorithm = alg(algorithm);
            let reference_algorithm = reference_algorithm.map_or(algorithm, alg);
            let opt_axis = |s: Option<String>, o: &str| s.map(|s| axis(&s, o)).transpose();
            if algorithm == Algorithm::Ta && (threshold.is_some() || rest_threshold.is_some()) {
                return Err(user_error(
                    "--threshold: TA has S = S_v = 0 (Sect. 6); thresholds need --algorithm sa",
                ));
            }
            let reference = reference(&common)?;
            let audit = CornerAudit {
                alpha: axis(&alpha, "--alpha")?,
                entrance: match (direction, v0) {
                    (Some(d), _) => Entrance::Polar {
                        direction: axis(&d, "--direction")?,
                        speed: axis(speed.as_deref().unwrap_or("1"), "--speed")?,
                    },
                    (None, Some(v)) => {
                        let parts = impactkit::lang::split_list(&v);
                        let [x, y] = parts.as_slice() else {
                            return Err(user_error(format!(
                                "--v0: expected two components \"X,Y\" (each a value or a range a..b), got {}",
                                parts.len()
                            )));
                        };
                        Entrance::Cartesian {
                            x: axis(x, "--v0")?,
                            y: axis(y, "--v0")?,
                        }
                    }
                    (None, None) => {
                        return Err(user_error("--direction: give --direction or --v0"))
                    }
                },
                cors,
                algorithm,
                threshold: match (algorithm, threshold) {
                    (Algorithm::Sa, None) => Some(Axis::Value(
                        impactkit::system::corner_spec::DEFAULT_SA_THRESHOLD.into(),
                    )),
                    (_, t) => opt_axis(t, "--threshold")?,
                },
                rest_threshold: opt_axis(rest_threshold, "--rest-threshold")?,
                reference_algorithm,
                form: match form {
                    FormArg::Xy => Form::Xy,
                    FormArg::Phi => Form::Phi,
                    FormArg::Xieta => Form::XiEta,
                },
                max_steps,
                max_digits: common.max_digits,
                audited: common.arith,
                reference,
                sample_seconds: common.sample_seconds,
            };
            let (sampling, exec) = sampling_and_execution(&common)?;
            let start = Instant::now();
            let (config, outcome) = audit
                .run(sampling, &exec, common.out.is_some())
                .map_err(input)?;
            let seconds = start.elapsed().as_secs_f64();
            let threads = exec.jobs.unwrap_or_else(rayon::current_num_threads);
            let timing = common.timing.then_some((seconds, threads));
            let records = match outcome {
                Outcome::Records(r) => Samples::Records(r),
                Outcome::Tally(t) => Samples::Tally(t),
            };
            finish(
                config,
                exec.shard,
                records,
                common.out,
                &common.output,
                timing,
                "audit corner",
            )
        }
        AuditCommand::Merge { dirs, out, output } => {
            let (config, records) = impactkit::audit::merge(&dirs).map_err(input)?;
            finish(
                config,
                Shard::ALL,
                Samples::Records(records),
                out,
                &output,
                None,
                "audit merge",
            )
        }
    }
}

fn reference(c: &Common) -> Result<Option<u32>, Failure> {
    if c.reference == "none" {
        return Ok(None);
    }
    impactkit::certify::Arith::parse("certified", c.max_bits).map_err(user_error)?;
    Ok(Some(c.max_bits))
}

fn sampling_and_execution(c: &Common) -> Result<(Sampling, Execution), Failure> {
    let sampling = match (&c.grid, c.samples) {
        (Some(g), _) => Sampling::Grid(parse_grid(g).map_err(input)?),
        (None, Some(n)) => Sampling::Quasi {
            samples: n,
            seed: c.seed,
        },
        (None, None) => {
            return Err(user_error(
                "--samples: give --samples N (quasi-random) or --grid N1xN2...",
            ))
        }
    };
    let shard = Shard::parse(&c.shard).map_err(input)?;
    Ok((
        sampling,
        Execution {
            jobs: c.jobs,
            shard,
            progress: true,
        },
    ))
}

/// The samples of a run.
enum Samples {
    Records(Vec<impactkit::audit::record::Record>),
    Tally(impactkit::audit::Tally),
}

/// Summary, files and the printed report.
fn finish(
    config: Config,
    shard: Shard,
    samples: Samples,
    out: Option<PathBuf>,
    output: &Output,
    timing: Option<(f64, usize)>,
    name: &str,
) -> Result<Printed, Failure> {
    let (summary, records) = match samples {
        Samples::Records(r) => (Summary::of(&r), r),
        Samples::Tally(t) => (Summary::of_tally(&t), Vec::new()),
    };
    let figures = match &out {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| user_error(format!("--out: {}: {e}", dir.display())))?;
            let title = format!(
                "{} {}: {} vs certified",
                config.law,
                config
                    .options
                    .iter()
                    .filter(|(k, _)| ["--alpha", "--eps", "--algorithm", "--direction"]
                        .contains(&k.as_str()))
                    .map(|(k, v)| format!("{} {v}", &k[2..]))
                    .collect::<Vec<_>>()
                    .join(", "),
                config.options.get("--arith").map_or("f64", String::as_str),
            );
            figure::write(dir, &title, &config.axes, &records)
        }
        None => figure::Figures::default(),
    };
    let stored = Stored {
        config: config.clone(),
        shard,
        summary: summary.clone(),
        figures: figures.clone(),
    };
    if let Some(dir) = &out {
        impactkit::audit::write_out(dir, &stored, &records).map_err(input)?;
    }
    let report = AuditReport {
        config,
        shard,
        summary,
        figures,
        out: out.map(|d| d.display().to_string()),
        timing: timing.map(|(seconds, threads)| Timing {
            seconds,
            steps_per_second: stored.summary.audited_steps as f64 / seconds.max(1e-9),
            threads,
        }),
    };
    emit(name, &report, output)
}
