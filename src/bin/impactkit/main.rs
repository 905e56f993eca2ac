//! The `impactkit` command line: argument types ([`args`]), dispatch, exit codes and
//! output; everything else is in the library.

/// The allocator of the command line: `regress` makes and frees many small blocks per
/// record on one thread and frees them on another, where mimalloc is markedly faster
/// than the system's (see docs/performance.md). The library leaves the choice to its user.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// GMP's and MPFR's blocks from mimalloc too (set first thing in [`main`], before any
/// exact number exists, so that no block is freed by another allocator than its own):
/// exact arithmetic makes and frees a block per intermediate number (`regress` computes
/// the laws of the benchmark's 55 scenarios in 0.52 s instead of 0.77 s with glibc's
/// allocator, docs/performance.md).
mod gmp_blocks {
    use libmimalloc_sys::{mi_free, mi_malloc, mi_realloc};
    use std::ffi::c_void;

    /// A block that cannot be had ends the process, as GMP's own allocator does.
    fn check(p: *mut c_void) -> *mut c_void {
        if p.is_null() {
            eprintln!("impactkit: out of memory in exact arithmetic");
            std::process::abort();
        }
        p
    }

    extern "C" fn alloc(size: usize) -> *mut c_void {
        // SAFETY: mi_malloc takes any size and returns a block aligned for any limb
        check(unsafe { mi_malloc(size) })
    }

    unsafe extern "C" fn realloc(p: *mut c_void, _old: usize, new: usize) -> *mut c_void {
        // SAFETY: GMP hands back a block it had from `alloc` or `realloc`
        check(unsafe { mi_realloc(p, new) })
    }

    unsafe extern "C" fn free(p: *mut c_void, _size: usize) {
        // SAFETY: as for `realloc`
        unsafe { mi_free(p) }
    }

    /// Installs the functions; called before any GMP or MPFR number is made.
    pub fn install() {
        // SAFETY: no GMP block exists yet (first statement of `main`, single thread)
        unsafe {
            gmp_mpfr_sys::gmp::set_memory_functions(Some(alloc), Some(realloc), Some(free));
        }
    }
}

mod args;
mod audit;

use args::{
    AlgorithmArg, Cli, Command, EndArg, FormArg, Format, OrderArg, Output, PennyCommand,
    PennyLawArg, RunLawArg, SequentialCommand, StepLawArg, TableArg, VerifyFormat,
};
use clap::Parser;
use impactkit::arith::ArithError;
use impactkit::arith::FieldMismatch;
use impactkit::certify::Arith;
use impactkit::law::LawError;
use impactkit::report::{Document, Report, TextOptions};
use impactkit::system::corner::Form;
use impactkit::system::corner_spec::{Algorithm, CornerSpec, RestitutionSpec};
use impactkit::system::SpecError;
use std::io::Write;
use std::process::ExitCode;

/// A failure: exit code 2 for bad input, 1 for an internal failure; or a command that
/// ended on an undecided sign, reported as a result (exit 0, see [`undecided`]).
enum Failure {
    Exit {
        code: u8,
        msg: String,
    },
    /// A complete report whose result is "differences found" (1) or bad records (2).
    Report {
        text: String,
        code: u8,
    },
    Undecided(LawError),
}

fn user_error(msg: impl std::fmt::Display) -> Failure {
    Failure::Exit {
        code: 2,
        msg: msg.to_string(),
    }
}

/// How a command's error ends it: bad input and inputs outside a law's domain (exit 2,
/// one line); an undecided sign, which is a result of the arithmetic chosen, not a
/// failure (exit 0 with the undecided quantity, see [`undecided`]).
fn spec_failure(e: SpecError) -> Failure {
    match e {
        SpecError::Law(u @ LawError::Undecided { .. }) => Failure::Undecided(u),
        SpecError::Law(LawError::Arith(e @ ArithError::Unbounded { .. })) => user_error(format!(
            "--arith: the computation overflowed ({e}); exact, quadratic or mpfr:BITS arithmetic has the range"
        )),
        SpecError::Law(LawError::Arith(e)) => user_error(format!("--arith: {e}")),
        other => user_error(other),
    }
}

/// The report of a command whose result hangs on a sign its arithmetic cannot decide.
#[derive(serde::Serialize)]
struct UndecidedReport {
    /// Always false: the result is incomplete.
    complete: bool,
    /// The quantity whose sign is undecided, and its enclosure.
    undecided: UndecidedSign,
}

#[derive(serde::Serialize)]
struct UndecidedSign {
    quantity: String,
    lo: String,
    hi: String,
}

impl Report for UndecidedReport {
    fn text(&self, _: &TextOptions) -> String {
        let u = &self.undecided;
        format!(
            "undecided: the sign of {} lies in [{}, {}]; a finer arithmetic (mpi:BITS, exact, quadratic) may decide it",
            u.quantity, u.lo, u.hi
        )
    }
}

/// The undecided-sign document of `command` (exit 0, `"complete": false`).
fn undecided(command: &str, e: LawError, out: &Output) -> Result<Printed, Failure> {
    let LawError::Undecided { quantity, lo, hi } = e else {
        return Err(user_error(e));
    };
    let report = UndecidedReport {
        complete: false,
        undecided: UndecidedSign { quantity, lo, hi },
    };
    emit(command, &report, out)
}

/// What a command prints on standard output.
struct Printed(String);

fn text_options(out: &Output) -> TextOptions {
    TextOptions {
        digits: out.digits as usize,
        exact_values: out.exact_values,
    }
}

/// A typed report as text or as a JSON document of `command`; a report holding a
/// non-finite number says so (`"non_finite": true`, or a warning line in text).
fn emit<R: Report>(command: &str, report: &R, out: &Output) -> Result<Printed, Failure> {
    let internal = |e: serde_json::Error| Failure::Exit {
        code: 1,
        msg: e.to_string(),
    };
    let mut doc = Document::new(command, report);
    let non_finite =
        impactkit::report::has_non_finite(&serde_json::to_value(&doc).map_err(internal)?);
    match out.format {
        Format::Text if non_finite => Ok(Printed(format!(
            "{}\n{}",
            report.text(&text_options(out)),
            impactkit::report::NON_FINITE_WARNING
        ))),
        Format::Text => Ok(Printed(report.text(&text_options(out)))),
        Format::Json => {
            doc.non_finite = non_finite.then_some(true);
            serde_json::to_string(&doc).map(Printed).map_err(internal)
        }
    }
}

/// Writes a figure to `path` (PNG for `.png`, else SVG), or its SVG to standard output
/// for `-`.
fn write_figure<F: impactkit::figure::Figure>(
    path: &std::path::Path,
    fig: &F,
) -> Result<Option<Printed>, Failure> {
    if path.as_os_str() == "-" {
        return impactkit::figure::to_svg(fig)
            .map(|s| Some(Printed(s)))
            .map_err(|e| user_error(format!("--svg: {e}")));
    }
    impactkit::figure::write(fig, path)
        .map_err(|e| user_error(format!("--svg: {}: {e}", path.display())))?;
    Ok(None)
}

/// Writes an SVG figure to `path`, or to standard output for `-`.
fn write_svg(path: &std::path::Path, svg: &str) -> Result<Option<Printed>, Failure> {
    if path.as_os_str() == "-" {
        return Ok(Some(Printed(svg.to_string())));
    }
    impactkit::output::write_atomic(path, svg.as_bytes())
        .map_err(|e| user_error(format!("--svg: cannot write {}: {e}", path.display())))?;
    Ok(None)
}

fn run(cli: Cli) -> Result<Printed, Failure> {
    match cli.command {
        Command::CompareCradle {
            eps,
            v0,
            masses,
            max_steps,
            max_digits,
            arith,
            out,
        } => {
            use impactkit::commands::compare::CompareSpec;
            let spec = CompareSpec {
                eps,
                v0,
                masses,
                max_iter: max_steps,
                max_digits,
            };
            let report = impactkit::commands::on_arith(arith, |b| spec.report(b), |_| false)
                .map_err(spec_failure)?;
            emit("compare-cradle", &report, &out)
        }
        Command::Laws {
            file,
            max_steps,
            max_digits,
            max_reflections,
            arith,
            max_bits,
            out,
        } => {
            use impactkit::commands::laws::LawsSpec;
            use impactkit::system::file::SystemFile;
            let arith = Arith::parse(&arith, max_bits).map_err(user_error)?;
            let source = file.display().to_string();
            let text = read_capped(&file, impactkit::input::files::SYSTEM)?;
            let spec = LawsSpec {
                file: SystemFile::from_toml(&text, &source).map_err(user_error)?,
                source,
                max_iter: max_steps,
                max_digits,
                max_reflections,
            };
            let report = spec.report(arith).map_err(spec_failure)?;
            emit("laws", &report, &out)
        }
        Command::Regress {
            records,
            jobs,
            fit: Some(_),
            fit_evaluations,
            fit_stiffness,
            out,
            ..
        } => regress_fit(&records, jobs, (fit_evaluations, fit_stiffness), &out),
        Command::Regress {
            records,
            jobs,
            summary,
            detail,
            out,
            ..
        } => regress(&records, jobs, summary, detail, &out),
        Command::System { scenario } => Ok(Printed(system_file(scenario)?.to_toml())),
        Command::BilliardBreak {
            theta,
            tan_quarter,
            sweep,
            radii,
            masses,
            max_steps,
            svg,
            arith,
            out,
        } => {
            use impactkit::commands::billiard::{Angle, BreakSpec};
            use impactkit::report::billiard::{BilliardReport, SweepFigure};
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
                max_depth: max_steps,
            };
            let report = impactkit::commands::on_arith(arith, |b| spec.report(b), |_| false)
                .map_err(spec_failure)?;
            if let (Some(path), BilliardReport::Sweep(sweep)) = (svg, &report) {
                if let Some(p) = write_figure(&path, &SweepFigure::new(sweep))? {
                    return Ok(p);
                }
            }
            emit("billiard-break", &report, &out)
        }
        Command::Check { paths, claims, out } => {
            let (text, ok) =
                impactkit::claims::check::check_cli(&paths, &claims, out.format == Format::Json)
                    .map_err(user_error)?;
            if ok {
                Ok(Printed(text))
            } else {
                Err(Failure::Report { text, code: 1 })
            }
        }
        Command::Verify {
            paths,
            only,
            budget_seconds,
            jobs,
            certificates,
            smtlib,
            coq,
            html,
            deny,
            probes,
            out,
        } => {
            if probes {
                let format = if out.format == VerifyFormat::Json {
                    "json"
                } else {
                    "text"
                };
                return Ok(Printed(impactkit::claims::probes::catalogue_report(format)));
            }
            let jobs = jobs.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
            });
            let format = match out.format {
                VerifyFormat::Text => "text",
                VerifyFormat::Json => "json",
                VerifyFormat::Markdown => "markdown",
            };
            let exports = impactkit::claims::Exports {
                certificates,
                smtlib,
                coq,
                html,
            };
            // text: each claim's lines as soon as it and the claims before it are decided
            // (a closed pipe ends the streaming quietly; the summary then fails quietly too)
            let stream = |lines: &str| {
                use std::io::Write;
                let mut o = std::io::stdout().lock();
                let _ = o.write_all(lines.as_bytes()).and_then(|()| o.flush());
            };
            let (text, verdicts) = impactkit::claims::verify_verdicts(
                &paths,
                only.as_deref(),
                format,
                budget_seconds,
                jobs,
                &exports,
                Some(&stream),
            )
            .map_err(user_error)?;
            let denied = verdicts
                .iter()
                .filter(|v| deny.iter().any(|d| d.denies(**v)))
                .count();
            if denied == 0 {
                return Ok(Printed(text));
            }
            eprintln!("verify: {denied} claim(s) with a verdict that --deny names (exit status 1)");
            Err(Failure::Report { text, code: 1 })
        }
        Command::Propagate {
            masses,
            normals,
            momentum,
            eps,
            max_steps,
            arith,
            out,
        } => {
            let spec = impactkit::system::propagate::PropagateSpec {
                masses,
                normals,
                momentum,
                restitution: eps,
                max_depth: max_steps,
            };
            let report = impactkit::commands::on_arith(arith, |b| spec.report(b), |_| false)
                .map_err(spec_failure)?;
            emit("propagate", &report, &out)
        }
        Command::Sequential { action } => sequential(action),
        Command::Penny { action } => penny(action),
        Command::Step {
            file,
            system,
            dt,
            steps,
            law,
            eps,
            order,
            compare_orders,
            together,
            svg,
            arith,
            out,
        } => {
            // one of them is present (clap: FILE unless --system)
            let files: Vec<_> = file.into_iter().chain(system).collect();
            let options = StepOptions {
                law,
                eps,
                order,
                compare_orders,
                together,
            };
            step(&files, dt, steps, options, svg, arith, out)
        }
        Command::Rods {
            velocities,
            lengths,
            impedances,
            max_steps,
            arith,
            svg,
            out,
        } => {
            let spec = impactkit::commands::rods::RodsSpec {
                velocities,
                lengths,
                impedances,
                max_steps,
            };
            let report = impactkit::commands::on_arith(arith, |b| spec.report(b), |_| false)
                .map_err(spec_failure)?;
            if let Some(path) = svg {
                if let Some(p) = write_svg(&path, &spec.figure().map_err(spec_failure)?)? {
                    return Ok(p);
                }
            }
            emit("rods", &report, &out)
        }
        Command::Cradle {
            balls,
            eps,
            masses,
            v0,
            sigma,
            max_steps,
            max_digits,
            table1,
            trace,
            arith,
            max_bits,
            out,
        } => {
            let arith = Arith::parse(&arith, max_bits).map_err(user_error)?;
            if table1 {
                let Arith::Backend(b) = arith else {
                    return Err(user_error(
                        "--arith: --table1 runs on one backend, not certified",
                    ));
                };
                let report = impactkit::system::cradle::table1_report(b);
                return emit("cradle", &report, &out);
            }
            let spec = impactkit::system::cradle::CradleSpec {
                balls: balls.unwrap_or(0),
                eps: eps.unwrap_or_default(),
                masses,
                v0,
                sigma,
                max_iter: max_steps,
                record_velocities: trace,
                max_digits: Some(max_digits),
            };
            let report = spec.report_arith(arith).map_err(spec_failure)?;
            emit("cradle", &report, &out)
        }
        Command::Audit { law } => audit::run(law),
        Command::Eval { expr, arith, out } => {
            let report = impactkit::report::eval::eval_arith(&expr, arith)
                .map_err(|e| user_error(format!("EXPR: {e}")))?;
            emit("eval", &report, &out)
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
            max_digits,
            form,
            arith,
            max_bits,
            svg,
            svg_eps,
            trace,
            out,
        } => {
            let symbolic = arith == "symbolic";
            let arith = if symbolic {
                Arith::Backend(impactkit::arith::backend::Backend::Exact)
            } else {
                Arith::parse(&arith, max_bits).map_err(user_error)?
            };
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
                max_digits: Some(max_digits),
            };
            if symbolic {
                if svg.is_some() || trace {
                    return Err(user_error(
                        "--arith: symbolic gives the closed form of one step; no --svg or --trace",
                    ));
                }
                let report = spec.symbolic_step().map_err(spec_failure)?;
                return emit("corner", &report, &out);
            }
            if spec.v0.contains(';') {
                if svg.is_some() {
                    return Err(user_error(
                        "--svg: draws one entrance velocity; give one --v0",
                    ));
                }
                let report = spec.batch(arith).map_err(spec_failure)?;
                return emit("corner", &report, &out);
            }
            let report = spec.report_arith(arith).map_err(spec_failure)?;
            if let Some(path) = svg {
                let eps_list: Vec<String> = impactkit::lang::split_list(&svg_eps)
                    .into_iter()
                    .map(str::to_string)
                    .collect();
                let text = spec.figure(&eps_list, arith).map_err(spec_failure)?;
                if let Some(p) = write_svg(&path, &text)? {
                    return Ok(p);
                }
            }
            emit("corner", &report, &out)
        }
    }
}

/// `impactkit sequential map|check`.
fn penny(action: PennyCommand) -> Result<Printed, Failure> {
    use impactkit::commands::penny::{BoundarySpec, HeadingSpec, ImpactSpec, VelocitySpec};
    use impactkit::report::penny::PennyLaw;
    use impactkit::system::penny::End;
    match action {
        PennyCommand::Impact {
            mass,
            radius,
            inertia,
            spin_inertia,
            phi,
            heading,
            wall,
            ellipse,
            gradient,
            point,
            end,
            rates,
            qdot,
            law,
            arith,
            out,
        } => {
            let heading = match (phi, heading) {
                (Some(p), _) => HeadingSpec::Phi(p),
                (_, Some(h)) => HeadingSpec::CosSin(h),
                _ => return Err(user_error("penny impact: give --phi or --heading")),
            };
            let boundary = match (wall, ellipse, gradient) {
                (Some(w), _, _) => BoundarySpec::Wall(w),
                (_, Some(e), _) => BoundarySpec::Ellipse(e),
                (_, _, Some(g)) => BoundarySpec::Gradient(g),
                _ => {
                    return Err(user_error(
                        "penny impact: give --wall, --ellipse or --gradient",
                    ))
                }
            };
            let velocity = match (rates, qdot) {
                (Some(r), _) => VelocitySpec::Rates(r),
                (_, Some(q)) => VelocitySpec::Qdot(q),
                _ => return Err(user_error("penny impact: give --rates or --qdot")),
            };
            let spec = ImpactSpec {
                params: [mass, radius, inertia, spin_inertia],
                heading,
                boundary,
                point,
                end: match end {
                    EndArg::Front => End::Front,
                    EndArg::Back => End::Back,
                },
                velocity,
                law: match law {
                    PennyLawArg::P => Some(PennyLaw::P),
                    PennyLawArg::Elastic => Some(PennyLaw::Elastic),
                    PennyLawArg::Plastic => Some(PennyLaw::Plastic),
                    PennyLawArg::All => None,
                },
            };
            let report = impactkit::commands::on_arith(arith, |b| spec.report(b), |_| false)
                .map_err(spec_failure)?;
            emit("penny impact", &report, &out)
        }
        PennyCommand::Spread(a) => {
            use impactkit::commands::penny::{RunSpec, SpreadSpec, TableKind};
            use impactkit::system::penny_run::RunLaw;
            let spec = SpreadSpec {
                run: RunSpec {
                    table: match a.table {
                        TableArg::Ellipse => TableKind::Ellipse,
                        TableArg::Circle => TableKind::Circle,
                    },
                    a: None,
                    b: None,
                    params: [None, None, None, None],
                    law: match a.law {
                        RunLawArg::Elastic => RunLaw::Elastic,
                        RunLawArg::Plastic => RunLaw::Plastic,
                    },
                    impacts: 1,
                    initial: [None, None, None, None],
                    rates: None,
                },
                runs: a.runs,
                times: a.times,
            };
            let (report, fig) = spec.report(a.arith).map_err(spec_failure)?;
            if let Some(path) = &a.svg {
                if let Some(p) = write_figure(path, &fig)? {
                    return Ok(p);
                }
            }
            emit("penny spread", &report, &a.out)
        }
        PennyCommand::Run {
            table,
            a,
            b,
            law,
            impacts,
            mass,
            radius,
            inertia,
            spin_inertia,
            x0,
            y0,
            theta0,
            phi0,
            rates,
            svg,
            arith,
            max_degree,
            out,
        } => {
            use impactkit::system::penny_run::RunLaw;
            impactkit::arith::set_max_degree(usize::try_from(max_degree).unwrap_or(usize::MAX));
            use impactkit::commands::penny::{RunSpec, TableKind};
            let spec = RunSpec {
                table: match table {
                    TableArg::Ellipse => TableKind::Ellipse,
                    TableArg::Circle => TableKind::Circle,
                },
                a,
                b,
                params: [mass, radius, inertia, spin_inertia],
                law: match law {
                    RunLawArg::Elastic => RunLaw::Elastic,
                    RunLawArg::Plastic => RunLaw::Plastic,
                },
                impacts,
                initial: [x0, y0, theta0, phi0],
                rates,
            };
            let (report, figure) = spec.report(arith, svg.is_some()).map_err(spec_failure)?;
            if let (Some(fig), Some(path)) = (figure, &svg) {
                if let Some(p) = write_figure(path, &fig)? {
                    return Ok(p);
                }
            }
            emit("penny run", &report, &out)
        }
    }
}

/// The most system files one `step --compare-orders` runs (and draws on one figure).
const MAX_STEP_FILES: usize = 16;

/// The options of `impactkit step` beside the files, the step and the output.
struct StepOptions {
    law: StepLawArg,
    eps: Option<String>,
    order: OrderArg,
    compare_orders: bool,
    together: Option<String>,
}

/// `impactkit step`: reads the system file(s), runs, and prints (or draws) the run(s).
fn step(
    files: &[std::path::PathBuf],
    dt: String,
    steps: usize,
    o: StepOptions,
    svg: Option<std::path::PathBuf>,
    arith: Arith,
    out: Output,
) -> Result<Printed, Failure> {
    use impactkit::system::step_file::{LawArg, StepFile, StepSpec};
    use impactkit::system::stepper::Order;
    if files.len() > 1 && !o.compare_orders {
        return Err(user_error(
            "FILE: several system files are run together only with --compare-orders",
        ));
    }
    if files.len() > MAX_STEP_FILES {
        return Err(user_error(format!(
            "FILE: at most {MAX_STEP_FILES} system files are compared in one run, got {}",
            files.len()
        )));
    }
    let mut reports = Vec::new();
    for system in files {
        let source = system.display().to_string();
        let text = read_capped(system, impactkit::input::files::SYSTEM)?;
        let file = StepFile::from_toml(&text, &source).map_err(user_error)?;
        let spec = StepSpec {
            file,
            source,
            dt: dt.clone(),
            steps,
            law: match o.law {
                StepLawArg::Elastic => LawArg::Elastic,
                StepLawArg::Plastic => LawArg::Plastic,
                StepLawArg::Inelastic => LawArg::Inelastic,
            },
            eps: o.eps.clone(),
            order: match o.order {
                OrderArg::Argmin => Order::Argmin,
                OrderArg::Argmax => Order::Argmax,
            },
            together: o.together.clone(),
            compare_orders: o.compare_orders,
        };
        let report =
            impactkit::commands::on_arith(arith, |b| spec.report(b), |r| spec.undecided(r))
                .map_err(spec_failure)?;
        reports.push(report);
    }
    if let Some(path) = svg {
        let written = match impactkit::report::step::IndeterminacyFigure::new(&reports) {
            Some(fig) => write_figure(&path, &fig)?,
            None => write_figure(
                &path,
                &impactkit::report::step::StepFigure::new(&reports[0]),
            )?,
        };
        if let Some(p) = written {
            return Ok(p);
        }
    }
    match reports.len() {
        1 => emit("step", &reports[0], &out),
        _ => emit(
            "step",
            &impactkit::report::step::StepRuns { runs: reports },
            &out,
        ),
    }
}

fn sequential(action: SequentialCommand) -> Result<Printed, Failure> {
    use impactkit::system::sequential::{CheckSpec, MapSpec};
    match action {
        SequentialCommand::Map {
            gamma,
            masses,
            restitution,
            arith,
            out,
        } => {
            let spec = MapSpec {
                gamma,
                masses,
                restitution,
            };
            let report = impactkit::commands::on_arith(arith, |b| spec.report(b), |_| false)
                .map_err(spec_failure)?;
            emit("sequential map", &report, &out)
        }
        SequentialCommand::Check {
            masses,
            samples,
            seed,
            arith,
            svg,
            out,
        } => {
            let spec = CheckSpec {
                masses,
                samples,
                seed,
            };
            let report = impactkit::commands::on_arith(arith, |b| spec.report(b), |_| false)
                .map_err(spec_failure)?;
            if let Some(path) = svg {
                if let Some(p) = write_svg(&path, &spec.figure().map_err(spec_failure)?)? {
                    return Ok(p);
                }
            }
            emit("sequential check", &report, &out)
        }
    }
}

/// Writes `s` and a newline to standard output; a closed pipe (`| head`) is not an error.
fn print_out(s: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{s}").and_then(|_| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // as ripgrep does: the reader went away, which ends the program quietly
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        // a full disk or a closed device: the environment's fault, not impactkit's (1 is
        // kept for internal failures)
        Err(e) => {
            eprintln!("error: cannot write the output: {e}");
            ExitCode::from(2)
        }
    }
}

/// A value starting with '-' given to an option that does not take one (clap reads it as
/// an unknown option): the error names the option, as every other bad value does.
fn negative_value(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    let looks_numeric = arg
        .strip_prefix('-')
        .and_then(|rest| rest.chars().next())
        .is_some_and(|c| c.is_ascii_digit() || c == '.');
    if !looks_numeric {
        return None;
    }
    let argv: Vec<String> = std::env::args().collect();
    // clap names the first short flag of `-1/2` (`-1`): the whole word is the value
    let at = argv.iter().position(|a| a.starts_with(arg.as_str()))?;
    let (option, arg) = (argv.get(at.checked_sub(1)?)?, &argv[at]);
    option.starts_with("--").then(|| {
        format!(
            "error: {option}: `{arg}` is negative (a value starting with '-' is read as an option; to pass it anyway write {option}={arg})"
        )
    })
}

fn main() -> ExitCode {
    gmp_blocks::install();
    // ^C, SIGTERM, SIGHUP: the temporary files being written are removed, exit 130 as a
    // shell's ^C (issue 63, D7); a failure to install the handler changes nothing else
    let _ = ctrlc::set_handler(|| {
        impactkit::output::remove_pending();
        std::process::exit(130);
    });
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            let help = matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            );
            if help {
                let _ = print_out(e.render().to_string().trim_end());
                return ExitCode::SUCCESS;
            }
            if let Some(line) = negative_value(&e) {
                eprintln!("{}", impactkit::input::one_line(&line));
                return ExitCode::from(2);
            }
            // One line: clap's first paragraph names the option and the reason.
            let rendered = e.render().to_string();
            let line: Vec<&str> = rendered
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            eprintln!("{}", impactkit::input::one_line(&line.join(" ")));
            return ExitCode::from(2);
        }
    };
    // A panic is a bug of impactkit, never the user's: report it on one line, exit 1.
    // One payload is the user's: values in two number fields `--arith algebraic` cannot
    // join (issue 63, D2), reported after the unwinding as bad input, exit 2.
    std::panic::set_hook(Box::new(|info| {
        if info.payload().is::<FieldMismatch>() {
            return;
        }
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        eprintln!(
            "error: internal error (please report): {}",
            impactkit::input::one_line(&msg)
        );
    }));
    let (name, out) = name_and_output(&cli.command);
    let outcome = match std::panic::catch_unwind(|| run(cli)) {
        Ok(r) => r,
        Err(e) => {
            let Some(m) = e.downcast_ref::<FieldMismatch>() else {
                return ExitCode::from(1);
            };
            eprintln!("error: {}", impactkit::input::one_line(&m.line()));
            return ExitCode::from(2);
        }
    };
    let outcome = match outcome {
        Err(Failure::Undecided(e)) => undecided(name, e, &out),
        other => other,
    };
    match outcome {
        Ok(Printed(text)) => print_out(&text),
        Err(Failure::Exit { code, msg }) => {
            eprintln!("error: {}", impactkit::input::one_line(&msg));
            ExitCode::from(code)
        }
        Err(Failure::Report { text, code }) => {
            if print_out(&text) != ExitCode::SUCCESS {
                return ExitCode::from(2);
            }
            ExitCode::from(code)
        }
        Err(Failure::Undecided(e)) => {
            eprintln!("error: {}", impactkit::input::one_line(&e.to_string()));
            ExitCode::from(1)
        }
    }
}

/// The name of a command (as its JSON documents write it) and its output options.
fn name_and_output(c: &Command) -> (&'static str, Output) {
    match c {
        Command::Audit { law } => audit::name_and_output(law),
        Command::Eval { out, .. } => ("eval", *out),
        Command::Corner { out, .. } => ("corner", *out),
        Command::Propagate { out, .. } => ("propagate", *out),
        Command::BilliardBreak { out, .. } => ("billiard-break", *out),
        Command::CompareCradle { out, .. } => ("compare-cradle", *out),
        Command::Sequential {
            action: SequentialCommand::Map { out, .. },
        } => ("sequential map", *out),
        Command::Sequential {
            action: SequentialCommand::Check { out, .. },
        } => ("sequential check", *out),
        Command::Penny {
            action: PennyCommand::Impact { out, .. },
        } => ("penny impact", *out),
        Command::Penny {
            action: PennyCommand::Run { out, .. },
        } => ("penny run", *out),
        Command::Penny {
            action: PennyCommand::Spread(a),
        } => ("penny spread", a.out),
        Command::Rods { out, .. } => ("rods", *out),
        Command::Step { out, .. } => ("step", *out),
        Command::Cradle { out, .. } => ("cradle", *out),
        Command::Verify { out, .. } => ("verify", out.common()),
        Command::Check { out, .. } => ("check", *out),
        Command::Laws { out, .. } => ("laws", *out),
        Command::Regress { out, .. } => ("regress", *out),
        Command::System { .. } => ("system", Output::default()),
    }
}

/// The system file of a built-in scenario.
fn system_file(
    scenario: args::SystemCommand,
) -> Result<impactkit::system::file::SystemFile, Failure> {
    use args::SystemCommand;
    use impactkit::lang::split_list;
    use impactkit::system::file::{billiard_touching, SystemFile};
    let parts = |s: &str| -> Vec<String> { split_list(s).iter().map(|x| x.to_string()).collect() };
    // every value is an expression of the input language with a finite value (the file
    // written must be one that `laws` reads)
    let finite = |option: &str, items: &[String]| -> Result<(), Failure> {
        for x in items {
            impactkit::input::value::<impactkit::arith::MpInterval>(x, option, &128)
                .map_err(user_error)?;
        }
        Ok(())
    };
    Ok(match scenario {
        SystemCommand::Cradle {
            balls,
            masses,
            v0,
            eps,
        } => {
            let masses = masses.map_or_else(|| vec!["1".to_string(); balls], |m| parts(&m));
            let n = masses.len();
            let v0 = match v0 {
                Some(v) => parts(&v),
                None => (0..n)
                    .map(|i| if i == 0 { "1" } else { "0" }.to_string())
                    .collect(),
            };
            if !(2..=64).contains(&n) || v0.len() != n {
                return Err(user_error(format!(
                    "--v0/--masses: {} velocities for {n} balls (2..=64 balls)",
                    v0.len()
                )));
            }
            // a system file has at most MAX_CONTACTS contacts (issue 63, D13): one between
            // each pair of neighbours
            let most = impactkit::system::file::MAX_CONTACTS + 1;
            if n > most {
                return Err(user_error(format!(
                    "--balls/--masses: {n} balls; a system file has at most {} contacts, so at most {most} balls (the cradle command takes up to 64)",
                    impactkit::system::file::MAX_CONTACTS
                )));
            }
            finite("--masses", &masses)?;
            finite("--v0", &v0)?;
            finite("--eps", std::slice::from_ref(&eps))?;
            SystemFile::cradle(&masses, &v0, &eps)
        }
        SystemCommand::Corner {
            alpha,
            v0,
            eps,
            eps1,
            eps2,
        } => {
            impactkit::input::check_open_range(&alpha, "--alpha", "0", "pi/2")
                .map_err(user_error)?;
            let v0 = parts(&v0);
            if v0.len() != 2 {
                return Err(user_error("--v0: two components \"x,y\""));
            }
            finite("--v0", &v0)?;
            let e1 = eps1.unwrap_or_else(|| eps.clone());
            let e2 = eps2.unwrap_or(eps);
            finite("--eps1", std::slice::from_ref(&e1))?;
            finite("--eps2", std::slice::from_ref(&e2))?;
            SystemFile::corner(&alpha, &v0, [&e1, &e2], "1")
        }
        SystemCommand::Billiard {
            theta,
            radii,
            masses,
        } => {
            let r = parts(&radii);
            let [ra, rb, rc] = <[String; 3]>::try_from(r)
                .map_err(|_| user_error("--radii: three radii \"r_a,r_b,r_c\""))?;
            let m = match masses {
                Some(m) => <[String; 3]>::try_from(parts(&m))
                    .map_err(|_| user_error("--masses: three masses \"m_a,m_b,m_c\""))?,
                None => [&ra, &rb, &rc].map(|r| format!("({r})^3")),
            };
            finite("--theta", std::slice::from_ref(&theta))?;
            finite("--radii", &[ra.clone(), rb.clone(), rc.clone()])?;
            finite("--masses", &m)?;
            let radii = [ra.as_str(), rb.as_str(), rc.as_str()];
            let touching = billiard_touching(&theta, radii).map_err(user_error)?;
            SystemFile::billiard(&theta, radii, [&m[0], &m[1], &m[2]], touching)
        }
    })
}

/// `impactkit regress`: the records streamed through the laws (each record's report
/// written as it is checked, in file order), then the summary per engine; with
/// `failing_only` (`--summary`) only the records that fail are written, and with `detail`
/// (`--detail`) every measure of each record.
fn regress(
    path: &std::path::Path,
    jobs: Option<usize>,
    failing_only: bool,
    detail: bool,
    out: &Output,
) -> Result<Printed, Failure> {
    use impactkit::regress::stream::{run, Render};
    use impactkit::report::regress::Summary;
    use std::io::Write;
    let json = match out.format {
        Format::Text => false,
        Format::Json => true,
    };
    let (file, format, dir) = impactkit::regress::stream::open_records(path).map_err(user_error)?;
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let o = text_options(out);
    let render = move |r: &impactkit::report::regress::RecordReport| {
        let fails = r.error.is_some() || r.expect.as_ref().is_some_and(|x| !x.pass);
        if failing_only && !fails {
            String::new()
        } else if json {
            serde_json::to_string(r).unwrap_or_default()
        } else {
            r.text_with(&o, detail)
        }
    };
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let mut first = true;
    let mut sink = |text: &str| {
        if text.is_empty() {
            return Ok(());
        }
        if json {
            let sep = if first {
                Summary::json_head()
            } else {
                ",".into()
            };
            stdout.write_all(sep.as_bytes())?;
        }
        first = false;
        stdout.write_all(text.as_bytes())
    };
    // text prints no exact difference, so it is not computed
    let render = Render {
        full: json,
        render: &render,
    };
    let ran = run(
        std::io::BufReader::with_capacity(1 << 16, file),
        format,
        &dir,
        jobs,
        &render,
        &mut sink,
    )
    .and_then(|s| stdout.flush().map(|_| s));
    let summary = match ran {
        Ok(s) => s,
        // the reader went away (`| head`): end quietly, as print_out does
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(Printed(String::new())),
        // the worker threads did not start: bad input naming --jobs, with the cause
        Err(e)
            if e.get_ref()
                .is_some_and(|i| i.is::<impactkit::input::InputError>()) =>
        {
            return Err(user_error(e.to_string()))
        }
        Err(e) => {
            return Err(Failure::Exit {
                code: 2,
                msg: format!("cannot write the output: {e}"),
            })
        }
    };
    if summary.records == 0 {
        return Err(user_error(format!("{}: no records", path.display())));
    }
    let text = if json {
        // with --summary every record may have passed: the document still has its head
        let head = if first {
            Summary::json_head()
        } else {
            String::new()
        };
        head + &summary.json_tail()
    } else if summary.non_finite {
        format!(
            "{}\n{}",
            summary.text(),
            impactkit::report::NON_FINITE_WARNING
        )
    } else {
        summary.text()
    };
    let code = if summary.errors > 0 {
        2
    } else if summary.failed > 0 {
        1
    } else {
        0
    };
    if code == 0 {
        Ok(Printed(text))
    } else {
        Err(Failure::Report { text, code })
    }
}

/// `regress --fit lzb`: the records read whole, fitted per engine parameter set; exit 2
/// (after the report) when a record could not take part.
fn regress_fit(
    path: &std::path::Path,
    jobs: Option<usize>,
    (evaluations, per_contact): (usize, bool),
    out: &Output,
) -> Result<Printed, Failure> {
    use impactkit::regress::fit::{fit, FitOptions, MAX_RECORDS};
    use impactkit::regress::stream::{open_records, read_all};
    let (file, format, dir) = open_records(path).map_err(user_error)?;
    let records = read_all(std::io::BufReader::new(file), format, MAX_RECORDS);
    if records.is_empty() {
        return Err(user_error(format!("{}: no records", path.display())));
    }
    if records.len() > MAX_RECORDS {
        return Err(user_error(format!(
            "--fit: at most {MAX_RECORDS} records (each is run hundreds of times); {} has more",
            path.display()
        )));
    }
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let options = FitOptions {
        evaluations,
        per_contact,
        ..FitOptions::default()
    };
    let report = fit(records, &dir, &options, jobs).map_err(user_error)?;
    let bad = !report.errors.is_empty();
    match emit("regress", &report, out)? {
        Printed(text) if bad => Err(Failure::Report { text, code: 2 }),
        p => Ok(p),
    }
}

fn read_capped(
    path: &std::path::Path,
    kind: impactkit::input::files::FileKind,
) -> Result<String, Failure> {
    impactkit::input::files::read_text(path, kind).map_err(user_error)
}
