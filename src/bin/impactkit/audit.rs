//! `impactkit audit`: argument types and dispatch (the work is in `impactkit::audit`).

use super::args::{
    audit_samples, balls, budget, depth, digits, jobs, parse_backend, steps, AlgorithmArg, FormArg,
    Output,
};
use super::{emit, user_error, Failure, Printed};
use clap::Subcommand;
use impactkit::arith::backend::Backend;
use impactkit::audit::corner::{CornerOptions, Outcome};
use impactkit::audit::domain::{parse_grid, Axis, Sampling, Shard};
use impactkit::audit::summary::{AuditReport, Summary, Timing};
use impactkit::audit::{figure, vector_axes, Arithmetics, Config, Execution, Law, Stored};
use impactkit::input::InputError;
use impactkit::system::corner::Form;
use impactkit::system::corner_spec::Algorithm;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

/// The laws `audit` runs, and `merge`. Parsed once per process, so the size difference
/// between variants costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
pub enum AuditCommand {
    /// The disk in a corner (Fassino-Pasquero 2020, Sect. 6: TA and SA, every form;
    /// Pasquero's rule (10) with --eps1/--eps2). Each of --alpha, --direction, --speed,
    /// --eps is a value, a range "a..b" or a list "a|b|c" ("a,b,c" too); v0 =
    /// speed*(cos(direction),
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
    /// Newton's cradle through Pasquero's step-by-step procedure (Sect. 3.5); the zones
    /// are the impacted sets of every step. --masses, --eps and --v0 are vectors as the
    /// cradle command takes them, one component per ball or contact separated by commas;
    /// each component is a value, a range "a..b" or a list "a|b|c" (e.g. --masses
    /// "1,1..3,1", --v0 "1,0,0", --eps "0..1"). Components are named m1.., e1.. (eps
    /// for one COR), v1.. (v for one velocity), sigma; later ones may name earlier ones.
    #[command(allow_negative_numbers = true)]
    Cradle {
        /// Number of balls (default: the components of --masses, else of --v0, else of
        /// --eps plus one, else 3).
        #[arg(long, value_parser = balls)]
        balls: Option<usize>,
        /// Masses "m1,m2,..." (default: all 1).
        #[arg(long, allow_hyphen_values = true)]
        masses: Option<String>,
        /// One COR for all contacts, or "e1,e2,..." (one per contact), in [0, 1].
        #[arg(long, allow_hyphen_values = true)]
        eps: String,
        /// Initial velocities "v1,v2,...", or one V: ball 1 moves at V, the others rest.
        #[arg(long, allow_hyphen_values = true, default_value = "1")]
        v0: String,
        /// AEEV threshold (a value, range or list "a|b|c").
        #[arg(long, allow_hyphen_values = true)]
        sigma: Option<String>,
        /// Largest number of iterations (impulses) of a run.
        #[arg(long, alias = "max-iter", default_value_t = 10_000, value_parser = steps)]
        max_steps: usize,
        #[command(flatten)]
        common: Common,
    },
    /// The propagative model of Seghete-Murphey; the "zones" are the sorted minimal
    /// sequences of reset maps, then "unique" or "outcomes:k" (the divergence is the
    /// first differing entry). --masses, --normals (rows separated by ';') and
    /// --momentum are vectors as the propagate command takes them; each component is a
    /// value, a range "a..b" or a list "a|b|c" (names m1.., n1_1.., p1..); --eps (R) is
    /// a value, range or list "a|b|c".
    #[command(allow_negative_numbers = true)]
    Propagate {
        /// Masses "m1,m2,..." (a diagonal mass matrix).
        #[arg(long, allow_hyphen_values = true)]
        masses: String,
        /// Contact normals, rows separated by ';': "-1,1,0;0,-1,1".
        #[arg(long, allow_hyphen_values = true)]
        normals: String,
        /// The momentum covector p = M q', "p1,p2,...".
        #[arg(long, allow_hyphen_values = true)]
        momentum: String,
        /// Restitution R of (16), in [0, 1] (default: elastic).
        #[arg(long, alias = "restitution", allow_hyphen_values = true)]
        eps: Option<String>,
        /// Longest sequence of reset maps searched.
        #[arg(long, alias = "max-depth", default_value_t = 12, value_parser = depth)]
        max_steps: usize,
        #[command(flatten)]
        common: Common,
    },
    /// The Winandy-Leine sequential impact law (sequential map, eq. (19)); the zone is
    /// the cone of gamma-, the final state gamma+. --gamma "g1,g2" and --masses
    /// "m1,m2,m3" are vectors: each component a value, a range "a..b" or a list "a|b|c"
    /// (names g1, g2, m1..m3); --eps is a value, range or list "a|b|c".
    #[command(allow_negative_numbers = true)]
    Sequential {
        /// Pre-impact contact velocities "g1,g2", e.g. "-1,-1..1".
        #[arg(long, allow_hyphen_values = true)]
        gamma: String,
        /// Masses "m1,m2,m3" (default 1,1,1); the law must close up for them.
        #[arg(long, allow_hyphen_values = true)]
        masses: Option<String>,
        /// COR of the Newton and Poisson laws reported beside, in [0, 1] (default 1).
        #[arg(long, alias = "restitution", allow_hyphen_values = true)]
        eps: Option<String>,
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
    /// Write the audit as a static page into DIR (index.html: the summary, the map
    /// figure and the worst cases with the commands that reproduce them), with --out's
    /// files (DIR is --out's directory; if both are given they must be the same).
    #[arg(long)]
    html: Option<PathBuf>,
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
        AuditCommand::Cradle { common, .. } => ("audit cradle", common.output),
        AuditCommand::Propagate { common, .. } => ("audit propagate", common.output),
        AuditCommand::Sequential { common, .. } => ("audit sequential", common.output),
        AuditCommand::Merge { output, .. } => ("audit merge", *output),
    }
}

fn input(e: InputError) -> Failure {
    user_error(e)
}

fn axis(src: &str, option: &str) -> Result<Axis, Failure> {
    Axis::parse(src, option).map_err(input)
}

/// `--html DIR` is `--out DIR` with the page: `--out` set to it (the same directory if
/// both are given).
fn with_html(mut c: Common) -> Result<Common, Failure> {
    match (&c.html, &c.out) {
        (Some(h), None) => c.out = Some(h.clone()),
        (Some(h), Some(o)) if h != o => {
            return Err(user_error(format!(
                "--html: must be the --out directory ({}), or give only one of them",
                o.display()
            )))
        }
        _ => {}
    }
    Ok(c)
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
            let common = with_html(common)?;
            let alg = |a: AlgorithmArg| match a {
                AlgorithmArg::Ta => Algorithm::Ta,
                AlgorithmArg::Sa => Algorithm::Sa,
            };
            let audit = CornerOptions {
                alpha,
                direction,
                v0,
                speed,
                eps,
                eps1,
                eps2,
                algorithm: alg(algorithm),
                threshold,
                rest_threshold,
                reference_algorithm: reference_algorithm.map(alg),
                form: match form {
                    FormArg::Xy => Form::Xy,
                    FormArg::Phi => Form::Phi,
                    FormArg::Xieta => Form::XiEta,
                },
                max_steps,
                max_digits: common.max_digits,
                audited: common.arith,
                reference: reference(&common)?,
                sample_seconds: common.sample_seconds,
            }
            .build()
            .map_err(input)?;
            let (sampling, exec) = sampling_and_execution(&common)?;
            let start = Instant::now();
            let (config, outcome) = audit
                .run(sampling, &exec, common.out.is_some())
                .map_err(input)?;
            let seconds = start.elapsed().as_secs_f64();
            let threads = exec
                .jobs
                .map_or_else(rayon::current_num_threads, impactkit::input::caps::threads);
            let timing = common.timing.then_some((seconds, threads));
            let records = match outcome {
                Outcome::Records(r) => Samples::Records(r),
                Outcome::Tally(t) => Samples::Tally(t),
            };
            finish(
                config,
                exec.shard,
                records,
                out_dir(&common),
                &common.output,
                timing,
                "audit corner",
            )
        }
        AuditCommand::Cradle {
            balls,
            masses,
            eps,
            v0,
            sigma,
            max_steps,
            common,
        } => {
            let common = with_html(common)?;
            let masses_axes = masses
                .as_deref()
                .map(|m| vector_axes(m, "--masses"))
                .transpose()
                .map_err(input)?;
            let eps_axes = vector_axes(&eps, "--eps").map_err(input)?;
            let v0_axes = vector_axes(&v0, "--v0").map_err(input)?;
            let n = balls.unwrap_or(match (&masses_axes, v0_axes.len(), eps_axes.len()) {
                (Some(m), _, _) => m.len(),
                (None, v, _) if v > 1 => v,
                (None, _, e) if e > 1 => e + 1,
                _ => 3,
            });
            // the lengths are checked by the cradle's own spec (check_domain)
            let sigma_axis = sigma.as_deref().map(|s| axis(s, "--sigma")).transpose()?;
            let mut given = BTreeMap::new();
            given.insert("--eps".to_string(), eps.clone());
            given.insert("--v0".to_string(), v0.clone());
            if let Some(m) = &masses {
                given.insert("--masses".to_string(), m.clone());
            }
            if let Some(s) = &sigma {
                given.insert("--sigma".to_string(), s.clone());
            }
            let law = impactkit::audit::cradle::CradleAudit::new(
                n,
                masses_axes,
                eps_axes,
                v0_axes,
                sigma_axis,
                max_steps,
                common.max_digits,
                given,
            );
            run_law(&law, common)
        }
        AuditCommand::Propagate {
            masses,
            normals,
            momentum,
            eps,
            max_steps,
            common,
        } => {
            let common = with_html(common)?;
            let m = vector_axes(&masses, "--masses").map_err(input)?;
            let rows = normals
                .split(';')
                .map(|r| vector_axes(r, "--normals"))
                .collect::<Result<Vec<_>, _>>()
                .map_err(input)?;
            let p = vector_axes(&momentum, "--momentum").map_err(input)?;
            let r = eps.as_deref().map(|e| axis(e, "--eps")).transpose()?;
            let mut given = BTreeMap::new();
            given.insert("--masses".to_string(), masses.clone());
            given.insert("--normals".to_string(), normals.clone());
            given.insert("--momentum".to_string(), momentum.clone());
            if let Some(e) = &eps {
                given.insert("--eps".to_string(), e.clone());
            }
            let law =
                impactkit::audit::propagate::PropagateAudit::new(m, rows, p, r, max_steps, given);
            run_law(&law, common)
        }
        AuditCommand::Sequential {
            gamma,
            masses,
            eps,
            common,
        } => {
            let common = with_html(common)?;
            let g = vector_axes(&gamma, "--gamma").map_err(input)?;
            if g.len() != 2 {
                return Err(user_error(format!(
                    "--gamma: expected 2 components \"g1,g2\", got {}",
                    g.len()
                )));
            }
            let m = masses
                .as_deref()
                .map(|m| vector_axes(m, "--masses"))
                .transpose()
                .map_err(input)?;
            if let Some(m) = &m {
                if m.len() != 3 {
                    return Err(user_error(format!(
                        "--masses: expected 3 components \"m1,m2,m3\", got {}",
                        m.len()
                    )));
                }
            }
            let e = eps.as_deref().map(|e| axis(e, "--eps")).transpose()?;
            let mut given = BTreeMap::new();
            given.insert("--gamma".to_string(), gamma.clone());
            if let Some(ms) = &masses {
                given.insert("--masses".to_string(), ms.clone());
            }
            if let Some(x) = &eps {
                given.insert("--eps".to_string(), x.clone());
            }
            let law = impactkit::audit::sequential::SequentialAudit::new(g, m, e, given);
            run_law(&law, common)
        }
        AuditCommand::Merge { dirs, out, output } => {
            // `--out` is probed first, and marked incomplete only after the shards are read
            // (it may be one of them)
            if let Some(dir) = &out {
                impactkit::output::check_dir(dir)
                    .map_err(|e| input(impactkit::input::InputError::new("--out", e)))?;
            }
            let (config, records) = impactkit::audit::merge(&dirs).map_err(input)?;
            if let Some(dir) = &out {
                impactkit::audit::check_out(dir).map_err(input)?;
            }
            finish(
                config,
                Shard::ALL,
                Samples::Records(records),
                out.map(|dir| OutDir { dir, html: false }),
                &output,
                None,
                "audit merge",
            )
        }
    }
}

/// Runs the audit of a law with zones ([`Law`]) and prints its summary.
fn run_law<L: Law>(law: &L, common: Common) -> Result<Printed, Failure> {
    let reference = reference(&common)?;
    let ar = Arithmetics {
        audited: common.arith,
        reference,
        max_digits: common.max_digits,
        sample_seconds: common.sample_seconds,
    };
    let (sampling, exec) = sampling_and_execution(&common)?;
    let start = Instant::now();
    let (config, records) = impactkit::audit::run_law(law, &ar, sampling, &exec).map_err(input)?;
    let seconds = start.elapsed().as_secs_f64();
    let threads = exec
        .jobs
        .map_or_else(rayon::current_num_threads, impactkit::input::caps::threads);
    let name = format!("audit {}", law.name());
    finish(
        config,
        exec.shard,
        Samples::Records(records),
        out_dir(&common),
        &common.output,
        common.timing.then_some((seconds, threads)),
        &name,
    )
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
    if let Some(dir) = &c.out {
        impactkit::audit::check_out(dir).map_err(input)?;
    }
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
/// `--out`'s directory, and whether `--html` asks for the page there.
struct OutDir {
    dir: PathBuf,
    html: bool,
}

fn out_dir(c: &Common) -> Option<OutDir> {
    c.out.clone().map(|dir| OutDir {
        dir,
        html: c.html.is_some(),
    })
}

fn finish(
    config: Config,
    shard: Shard,
    samples: Samples,
    out_dir: Option<OutDir>,
    output: &Output,
    timing: Option<(f64, usize)>,
    name: &str,
) -> Result<Printed, Failure> {
    let html = out_dir.as_ref().is_some_and(|o| o.html);
    let out = out_dir.map(|o| o.dir);
    let (summary, records) = match samples {
        Samples::Records(r) => (Summary::of(&r), r),
        Samples::Tally(t) => (Summary::of_tally(&t), Vec::new()),
    };
    let figures = match &out {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| user_error(format!("--out: {}: {e}", dir.display())))?;
            let what = format!(
                "{} against the certified {} law ({})",
                config.options.get("--arith").map_or("f64", String::as_str),
                config.law,
                config
                    .options
                    .iter()
                    .filter(|(k, _)| ["--alpha", "--eps", "--algorithm", "--direction"]
                        .contains(&k.as_str()))
                    .map(|(k, v)| format!("{} {v}", &k[2..]))
                    .collect::<Vec<_>>()
                    .join(", "),
            );
            figure::write(dir, &what, &config.axes, &config.pi_axes, &records)
        }
        None => figure::Figures::default(),
    };
    let stored = Stored::new(config.clone(), shard, summary.clone(), figures.clone());
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
    if let (true, Some(dir)) = (html, &report.out) {
        use impactkit::report::Report;
        let text = report.text(&crate::text_options(output));
        let page = impactkit::audit::html_page(name, &text, &report.figures.files);
        let dir = std::path::Path::new(dir);
        let err = |e: std::io::Error| user_error(format!("--html: {}: {e}", dir.display()));
        impactkit::output::write_atomic(&dir.join("index.html"), page.as_bytes()).map_err(err)?;
        impactkit::output::write_atomic(
            &dir.join("style.css"),
            impactkit::report::html::STYLE.as_bytes(),
        )
        .map_err(err)?;
    }
    emit(name, &report, output)
}
