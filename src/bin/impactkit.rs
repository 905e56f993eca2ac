//! The `impactkit` command line: thin, everything is in the library.

use clap::{Parser, Subcommand, ValueEnum};
use impactkit::backend::Backend;
use impactkit::system::corner::Form;
use impactkit::system::corner_spec::{Algorithm, CornerSpec, FigureArith, RestitutionSpec};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "impactkit",
    version,
    about = "Verifying impact mechanics: impact laws over exact, floating-point and interval arithmetic"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum AlgorithmArg {
    /// Theoretical algorithm: S = S_v = 0.
    Ta,
    /// Stable algorithm: thresholds S (default 4.5e-16) and S_v (default 0).
    Sa,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum FormArg {
    /// (x', y'): eqs. (13a-13d), Pasquero (10) with --eps1/--eps2.
    Xy,
    /// (cos phi, sin phi): eqs. (6a-6d), ideal rule only.
    Phi,
    /// (xi', eta'): eqs. (14a-14d).
    Xieta,
}

/// `--arith` of the corner command: a backend, or `certified`.
#[derive(Clone, Copy, Debug)]
enum ArithChoice {
    Backend(Backend),
    Certified,
}

/// Parsed once per process, so the size difference between variants costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Evaluate an expression of the input language on one backend.
    Eval {
        /// The expression, e.g. "tan(pi/6)", "3/7 + 0.1", "(1+sqrt(2))^2".
        #[arg(allow_hyphen_values = true)]
        expr: String,
        /// Backend: f64 | exact | quadratic | mpfr:BITS | interval | mpi:BITS.
        #[arg(long, value_parser = parse_backend)]
        arith: Backend,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// The disk in a corner (Fassino-Pasquero 2020; Pasquero rule (10)): iterate the
    /// impact rule from an entrance velocity until exit, rest or N_max steps.
    Corner {
        /// alpha, half the angle between the walls (k = tan(alpha)), e.g. "pi/4".
        #[arg(long, allow_hyphen_values = true)]
        alpha: String,
        /// Entrance velocity "EXPR,EXPR" (need not be a unit vector).
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
        /// N_max, the largest number of rule applications.
        #[arg(long, default_value_t = 10_000)]
        max_steps: usize,
        /// Which form of the rules to iterate.
        #[arg(long, value_enum, default_value = "xy")]
        form: FormArg,
        /// f64 | exact | quadratic | mpfr:BITS | interval | mpi:BITS | certified.
        #[arg(long, value_parser = parse_arith_choice)]
        arith: ArithChoice,
        /// Largest MPFR precision tried by --arith certified.
        #[arg(long, default_value_t = 3392)]
        max_bits: u32,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Also draw the figure of Sect. 8 (disk, walls, v0, exit velocities) to FILE.
        #[arg(long)]
        svg: Option<std::path::PathBuf>,
        /// The CORs drawn in the figure, "EXPR,EXPR,...".
        #[arg(long, default_value = "1,0.8,0.6,0.4,0.2,0")]
        svg_eps: String,
        /// Report every velocity of the run (`trace`), not only the last one.
        #[arg(long)]
        trace: bool,
    },
    /// The propagative model of Seghete-Murphey: all minimal sequences of reset maps
    /// (Definition 1), their outcomes, uniqueness, and the bound of Theorem 1.
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
        /// Restitution R of (16), in [0, 1] (default: elastic).
        #[arg(long, allow_hyphen_values = true)]
        restitution: Option<String>,
        /// Longest sequence searched (at most 24).
        #[arg(long, default_value_t = 12)]
        max_depth: usize,
        /// f64 | exact | quadratic | mpfr:BITS | interval | mpi:BITS.
        #[arg(long, value_parser = parse_backend)]
        arith: Backend,
        /// Output format.
        #[arg(long, value_enum, default_value = "json")]
        format: Format,
    },
    /// The billiard break of Seghete-Murphey Sect. VII-A: p_ab, p_ba, the indeterminacy
    /// xi and eq. (31) for one angle theta, or a sweep of theta (Fig. 5).
    BilliardBreak {
        /// The angle theta between the centre lines c-a and c-b, in [theta_min, pi].
        #[arg(long, allow_hyphen_values = true, conflicts_with_all = ["tan_quarter", "sweep"])]
        theta: Option<String>,
        /// t = tan(theta/4): a rational t gives a rational geometry (exact backends).
        #[arg(long, allow_hyphen_values = true, conflicts_with = "sweep")]
        tan_quarter: Option<String>,
        /// Sweep theta = i*pi/N, i = 0..N (overlapping geometries skipped).
        #[arg(long)]
        sweep: Option<usize>,
        /// Radii "r_a,r_b,r_c" (the paper does not state them; 1,1,3 puts theta_min
        /// near pi/6 as in Fig. 5).
        #[arg(long, default_value = "1,1,3")]
        radii: String,
        /// Masses "m_a,m_b,m_c" (default: proportional to the volumes, r^3).
        #[arg(long)]
        masses: Option<String>,
        /// Longest reflection sequence.
        #[arg(long, default_value_t = 64)]
        max_depth: usize,
        /// Write Fig. 5 (with --sweep) as SVG to FILE.
        #[arg(long)]
        svg: Option<std::path::PathBuf>,
        /// f64 | exact | quadratic | mpfr:BITS | interval | mpi:BITS.
        #[arg(long, value_parser = parse_backend)]
        arith: Backend,
        /// Output format.
        #[arg(long, value_enum, default_value = "json")]
        format: Format,
    },
    /// One Newton's cradle through several impact laws (Pasquero, Seghete-Murphey, ...),
    /// with an exact comparison of their outcomes.
    CompareCradle {
        /// The COR (Newton's for Pasquero; the energetic R of (16) for Seghete-Murphey).
        #[arg(long, allow_hyphen_values = true)]
        eps: String,
        /// Initial velocities "v1,v2,...".
        #[arg(long, allow_hyphen_values = true)]
        v0: String,
        /// Masses "m1,m2,...".
        #[arg(long, default_value = "1,1,1")]
        masses: String,
        /// Largest number of impulses / reflections.
        #[arg(long, default_value_t = 1000)]
        max_iter: usize,
        /// f64 | exact | quadratic | mpfr:BITS | interval | mpi:BITS.
        #[arg(long, value_parser = parse_backend)]
        arith: Backend,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// The Winandy-Leine Sequential Impact Law of the 3-ball cradle: evaluate or check it.
    Sequential {
        #[command(subcommand)]
        action: impactkit::system::sequential::SequentialCommand,
    },
    /// Colliding linear-elastic thin rods (Winandy-Leine Sect. 4), exact event-driven.
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
        #[arg(long, default_value_t = 10_000)]
        max_steps: usize,
        /// f64 | exact | quadratic | mpfr:BITS | interval | mpi:BITS.
        #[arg(long, value_parser = parse_backend, default_value = "exact")]
        arith: Backend,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Also draw the characteristics diagram (Fig. 6) to FILE (SVG).
        #[arg(long)]
        svg: Option<std::path::PathBuf>,
    },
    /// Newton's cradle through Pasquero's characterization (Sect. 3.5, 4.1): n balls on
    /// a line, any masses, one COR per contact.
    Cradle {
        /// Number of balls (at least 2).
        #[arg(long, required_unless_present = "table1")]
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
        /// Largest number of iterations (impulses).
        #[arg(long, default_value_t = 10_000)]
        max_iter: usize,
        /// Print Pasquero's Table 1 beside this program's values, with a match column.
        #[arg(long)]
        table1: bool,
        /// In text output, list every impulse of the trace.
        #[arg(long)]
        trace: bool,
        /// f64 | exact | quadratic | mpfr:BITS | interval | mpi:BITS.
        #[arg(long, value_parser = parse_backend)]
        arith: Backend,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Verify the papers' claims (proofs/**.toml): a computed verdict per claim.
    Verify {
        /// Claim files or directories (recursive); default: proofs.
        #[arg(default_value = "proofs")]
        paths: Vec<std::path::PathBuf>,
        /// Check only the claim with this id.
        #[arg(long)]
        only: Option<String>,
        /// text | json | markdown.
        #[arg(long, default_value = "text", value_parser = ["text", "json", "markdown"])]
        format: String,
        /// Time budget per claim, in seconds.
        #[arg(long, default_value_t = 20.0)]
        budget_seconds: f64,
    },
}

fn parse_backend(s: &str) -> Result<Backend, String> {
    s.parse()
}

fn parse_arith_choice(s: &str) -> Result<ArithChoice, String> {
    if s == "certified" {
        Ok(ArithChoice::Certified)
    } else {
        s.parse()
            .map(ArithChoice::Backend)
            .map_err(|e: String| e.replace(")", ", or certified)"))
    }
}

/// A failure: exit code 2 for bad input, 1 for an internal failure.
struct Failure {
    code: u8,
    msg: String,
}

fn user_error(msg: impl std::fmt::Display) -> Failure {
    Failure {
        code: 2,
        msg: msg.to_string(),
    }
}

/// Bad input (exit 2) or an internal failure (exit 1) of the propagative-model commands.
fn spec_failure(e: impactkit::system::propagate::PropagateError) -> Failure {
    match e {
        impactkit::system::propagate::PropagateError::Input { .. } => user_error(e),
        other => Failure {
            code: 1,
            msg: other.to_string(),
        },
    }
}

fn to_json(v: &impl serde::Serialize) -> Result<String, Failure> {
    serde_json::to_string(v).map_err(|e| Failure {
        code: 1,
        msg: e.to_string(),
    })
}

/// Human-readable text of a corner report.
fn corner_text(v: &serde_json::Value) -> String {
    let show = |x: &serde_json::Value| match x {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Object(o) => format!(
            "[{}, {}]",
            o["lo"].as_str().unwrap_or("?"),
            o["hi"].as_str().unwrap_or("?")
        ),
        other => other.to_string(),
    };
    let pair = |p: &serde_json::Value| format!("({}, {})", show(&p[0]), show(&p[1]));
    let zones: Vec<String> = v["zones"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|z| z.as_str().unwrap_or("?").to_string())
                .collect()
        })
        .unwrap_or_default();
    let mut out = format!(
        "steps: {}\nzones: {}\ntermination: {}\nfinal: {}",
        v["steps"],
        zones.join(" "),
        v["termination"].as_str().unwrap_or("?"),
        pair(&v["final"])
    );
    if let Some(u) = v.get("undecided") {
        out += &format!(
            "\nundecided at step {}: sign of {} in [{}, {}]",
            u["step"],
            u["quantity"].as_str().unwrap_or("?"),
            u["lo"].as_str().unwrap_or("?"),
            u["hi"].as_str().unwrap_or("?")
        );
    }
    if let Some(c) = v.get("certified_by") {
        out += &format!(
            "\ncertified by: {}",
            c.as_str().unwrap_or("nothing (undecided)")
        );
    }
    out
}

/// Human-readable text of a cradle report.
fn cradle_text(v: &serde_json::Value, with_trace: bool) -> String {
    let show = |x: &serde_json::Value| match x {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Object(o) => format!(
            "[{}, {}]",
            o["lo"].as_str().unwrap_or("?"),
            o["hi"].as_str().unwrap_or("?")
        ),
        other => other.to_string(),
    };
    let vec = |a: &serde_json::Value| {
        a.as_array()
            .map(|xs| xs.iter().map(show).collect::<Vec<_>>().join(", "))
            .unwrap_or_default()
    };
    let mut out = format!(
        "iterations: {}\ntermination: {}\nfinal: ({})",
        v["iterations"],
        v["termination"].as_str().unwrap_or("?"),
        vec(&v["final"])
    );
    let steps = if with_trace {
        v["trace"].as_array()
    } else {
        None
    };
    for (i, s) in steps.into_iter().flatten().enumerate() {
        out += &format!(
            "\n  {}: {} impact at contacts {} -> ({})",
            i + 1,
            s["kind"].as_str().unwrap_or("?"),
            s["impacting"],
            vec(&s["velocity"])
        );
    }
    out
}

fn run(cli: Cli) -> Result<String, Failure> {
    match cli.command {
        Command::CompareCradle {
            eps,
            v0,
            masses,
            max_iter,
            arith,
            format,
        } => {
            use impactkit::system::compare::{compare_text, CompareSpec};
            let spec = CompareSpec {
                eps,
                v0,
                masses,
                max_iter,
            };
            let report = spec.report(arith).map_err(spec_failure)?;
            match format {
                Format::Json => to_json(&report),
                Format::Text => Ok(compare_text(&report)),
            }
        }
        Command::BilliardBreak {
            theta,
            tan_quarter,
            sweep,
            radii,
            masses,
            max_depth,
            svg,
            arith,
            format,
        } => {
            use impactkit::system::billiard_spec::{sweep_svg, Angle, BreakSpec};
            let angle = match (theta, tan_quarter, sweep) {
                (Some(t), _, _) => Angle::Theta(t),
                (_, Some(t), _) => Angle::TanQuarter(t),
                (_, _, Some(n)) => Angle::Sweep(n),
                _ => {
                    return Err(user_error(
                        "billiard-break: give --theta, --tan-quarter or --sweep",
                    ))
                }
            };
            if svg.is_some() && !matches!(angle, Angle::Sweep(_)) {
                return Err(user_error("--svg: only with --sweep"));
            }
            let spec = BreakSpec {
                angle,
                radii,
                masses,
                max_depth,
            };
            let report = spec.report(arith).map_err(spec_failure)?;
            if let Some(path) = svg {
                std::fs::write(&path, sweep_svg(&report)).map_err(|e| {
                    user_error(format!("--svg: cannot write {}: {e}", path.display()))
                })?;
            }
            match format {
                Format::Json => to_json(&report),
                Format::Text => Ok(serde_json::to_string_pretty(&report).unwrap_or_default()),
            }
        }
        Command::Verify {
            paths,
            only,
            format,
            budget_seconds,
        } => impactkit::claims::verify_cli(&paths, only.as_deref(), &format, budget_seconds)
            .map_err(user_error),
        Command::Propagate {
            masses,
            normals,
            momentum,
            restitution,
            max_depth,
            arith,
            format,
        } => {
            let spec = impactkit::system::propagate::PropagateSpec {
                masses,
                normals,
                momentum,
                restitution,
                max_depth,
            };
            let report = spec.report(arith).map_err(spec_failure)?;
            match format {
                Format::Json => to_json(&report),
                Format::Text => Ok(serde_json::to_string_pretty(&report).unwrap_or_default()),
            }
        }
        Command::Sequential { action } => impactkit::system::sequential::run_command(&action)
            .map_err(|e| match e {
                impactkit::system::sequential::SequentialError::Input { .. } => user_error(e),
                other => Failure {
                    code: 1,
                    msg: other.to_string(),
                },
            }),
        Command::Rods {
            velocities,
            lengths,
            impedances,
            max_steps,
            arith,
            format,
            svg,
        } => {
            let spec = impactkit::system::rods::RodsSpec {
                velocities,
                lengths,
                impedances,
                max_steps,
            };
            let fail = |e: impactkit::system::sequential::SequentialError| match e {
                impactkit::system::sequential::SequentialError::Input { .. } => user_error(e),
                other => Failure {
                    code: 1,
                    msg: other.to_string(),
                },
            };
            let report = spec.report(arith).map_err(fail)?;
            if let Some(path) = svg {
                let text = spec.figure().map_err(fail)?;
                std::fs::write(&path, text).map_err(|e| {
                    user_error(format!("--svg: cannot write {}: {e}", path.display()))
                })?;
            }
            match format {
                Format::Text => Ok(impactkit::system::rods::rods_text(&report)),
                Format::Json => to_json(&report),
            }
        }
        Command::Cradle {
            balls,
            eps,
            masses,
            v0,
            sigma,
            max_iter,
            table1,
            trace,
            arith,
            format,
        } => {
            if table1 {
                let report = impactkit::system::cradle::table1_report(arith);
                return match format {
                    Format::Text => Ok(impactkit::system::cradle::table1_text(&report)),
                    Format::Json => to_json(&report),
                };
            }
            let spec = impactkit::system::cradle::CradleSpec {
                balls: balls.unwrap_or(0),
                eps: eps.unwrap_or_default(),
                masses,
                v0,
                sigma,
                max_iter,
            };
            let report = spec.report(arith).map_err(|e| match e {
                impactkit::system::cradle::CradleError::Input { .. } => user_error(e),
                other => Failure {
                    code: 1,
                    msg: other.to_string(),
                },
            })?;
            match format {
                Format::Text => Ok(cradle_text(&report, trace)),
                Format::Json => to_json(&report),
            }
        }
        Command::Eval {
            expr,
            arith,
            format,
        } => {
            let report = impactkit::report::eval(&expr, arith)
                .map_err(|e| user_error(format!("EXPR: {e}")))?;
            match format {
                Format::Text => Ok(report.text()),
                Format::Json => to_json(&report),
            }
        }
        Command::Corner {
            alpha,
            v0,
            eps,
            eps1,
            eps2,
            algorithm,
            threshold,
            rest_threshold,
            max_steps,
            form,
            arith,
            max_bits,
            format,
            svg,
            svg_eps,
            trace,
        } => {
            let restitution = match (eps, eps1, eps2) {
                (Some(e), _, _) => RestitutionSpec::Symmetric(e),
                (None, Some(a), Some(b)) => RestitutionSpec::Asymmetric(a, b),
                _ => return Err(user_error("--eps: give --eps, or both --eps1 and --eps2")),
            };
            let spec = CornerSpec {
                alpha,
                v0,
                restitution,
                algorithm: match algorithm {
                    AlgorithmArg::Ta => Algorithm::Ta,
                    AlgorithmArg::Sa => Algorithm::Sa,
                },
                threshold,
                rest_threshold,
                max_steps,
                form: match form {
                    FormArg::Xy => Form::Xy,
                    FormArg::Phi => Form::Phi,
                    FormArg::Xieta => Form::XiEta,
                },
                record_velocities: trace,
            };
            let failure = |e: impactkit::system::corner::RunError| match e {
                impactkit::system::corner::RunError::Input { .. } => user_error(e),
                other => Failure {
                    code: 1,
                    msg: other.to_string(),
                },
            };
            if matches!(arith, ArithChoice::Certified) && !(106..=1 << 20).contains(&max_bits) {
                return Err(user_error("--max-bits: must be between 106 and 1048576"));
            }
            let report = match arith {
                ArithChoice::Backend(b) => spec.report(b),
                ArithChoice::Certified => spec.certified(max_bits),
            }
            .map_err(failure)?;
            if let Some(path) = svg {
                let eps_list: Vec<String> = impactkit::lang::split_list(&svg_eps)
                    .into_iter()
                    .map(str::to_string)
                    .collect();
                let fa = match arith {
                    ArithChoice::Backend(b) => FigureArith::Backend(b),
                    ArithChoice::Certified => FigureArith::Certified(max_bits),
                };
                let text = spec.figure(&eps_list, fa).map_err(failure)?;
                std::fs::write(&path, text).map_err(|e| {
                    user_error(format!("--svg: cannot write {}: {e}", path.display()))
                })?;
            }
            match format {
                Format::Text => Ok(corner_text(&report)),
                Format::Json => to_json(&report),
            }
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            let help = matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion);
            if help {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            // One line: clap's first paragraph names the option and the reason.
            let rendered = e.render().to_string();
            let line: Vec<&str> = rendered
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            eprintln!("{}", line.join(" "));
            return ExitCode::from(2);
        }
    };
    // A panic is a bug of impactkit, never the user's: report it on one line, exit 1.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        eprintln!("error: internal error (please report): {msg}");
    }));
    let outcome = match std::panic::catch_unwind(|| run(cli)) {
        Ok(r) => r,
        Err(_) => return ExitCode::from(1),
    };
    match outcome {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(f) => {
            eprintln!("error: {}", f.msg);
            ExitCode::from(f.code)
        }
    }
}
