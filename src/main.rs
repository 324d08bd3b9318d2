//! The triboard binary: a subcommand runs headless (`triboard::cli`); no subcommand opens the
//! window (with the `app` feature).

use std::process::ExitCode;

use clap::Parser;
use triboard::cli::Cli;

fn main() -> ExitCode {
    // Usage errors exit with 2, `--help` and `--version` with 0 (clap's own codes).
    let cli = Cli::try_parse().unwrap_or_else(|e| e.exit());
    match cli.command {
        Some(command) => triboard::cli::run(command, cli.json),
        None => no_command(),
    }
}

/// No subcommand: the window; without a display, one sentence saying so, and exit code 1.
#[cfg(feature = "app")]
fn no_command() -> ExitCode {
    match triboard::app::run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("{why}");
            ExitCode::FAILURE
        }
    }
}

/// No subcommand and no window in this build: the help, and a usage error.
#[cfg(not(feature = "app"))]
fn no_command() -> ExitCode {
    use clap::CommandFactory;
    eprintln!("{}", Cli::command().render_help());
    eprintln!("This build has no window (built without the `app` feature): give a subcommand.");
    ExitCode::from(2)
}
