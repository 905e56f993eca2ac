//! The `impactkit` command line: thin, everything is in the library.

use clap::{Parser, Subcommand, ValueEnum};
use impactkit::backend::Backend;
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
}

fn parse_backend(s: &str) -> Result<Backend, String> {
    s.parse()
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

fn run(cli: Cli) -> Result<String, Failure> {
    match cli.command {
        Command::Eval {
            expr,
            arith,
            format,
        } => {
            let report = impactkit::report::eval(&expr, arith)
                .map_err(|e| user_error(format!("EXPR: {e}")))?;
            Ok(match format {
                Format::Text => report.text(),
                Format::Json => serde_json::to_string(&report).map_err(|e| Failure {
                    code: 1,
                    msg: e.to_string(),
                })?,
            })
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                return ExitCode::from(
                    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                        2
                    } else {
                        0
                    },
                );
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
    match run(cli) {
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
