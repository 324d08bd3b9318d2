//! The headless command-line interface: `play`, `selfplay`, `bench`, `perft`, `replay`, `gtp`, `match`
//! and `check-solver`, and (with the `server` feature) `serve` and `serve-bench` (`docs/design.md`
//! §cli).
//!
//! Every command takes `--json` and then prints exactly one JSON object as its last line on stdout
//! (human-readable lines come before it). Errors are one line on stderr (and, with `--json`, an
//! `{"error": …}` object on stdout); the exit code is 2 for a usage error and 1 for a failure.
//!
//! Games are chosen by id at run time through [`with_game`], built from the one list of games
//! ([`crate::for_each_game`]), which calls a generic [`GameTask::run`] with the game's type; the
//! shared game flags become the rules' named parameters ([`GameFlags::options`]). A new game needs
//! nothing here.
//!
//! This file holds the clap types and the dispatch ([`run`]); what the subcommands share is in files
//! of its own, which they import directly: [`error`], [`games`], [`ai_flags`], [`output`] and
//! [`records`].

pub mod ai_flags;
pub mod analyze;
pub mod bench;
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
mod bench_client;
pub mod book;
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
pub mod bot;
pub mod check_solver;
pub mod engine_match;
pub mod error;
pub mod games;
pub mod gtp;
pub mod gtp_client;
pub mod gtp_engine;
pub mod gtp_time;
pub mod gtp_trigon;
pub mod learn;
pub mod match_report;
pub mod output;
pub mod perft;
pub mod play;
pub mod records;
pub mod replay;
pub mod selfplay;
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
pub mod serve;
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
pub mod serve_bench;
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
mod serve_bench_check;
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
mod serve_bench_lobby;
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
mod serve_bench_procs;
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
mod serve_bench_soak;
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
mod serve_bench_table;
pub mod sprt;
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
pub mod ws_client;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use serde_json::{Value, json};

// The helpers the subcommands share, under the names they had here, for code outside `cli`; the
// files of `cli` import them from the files that hold them.
pub use crate::ai::{Seat, derive_seed};
pub use crate::rules::move_texts;
pub use ai_flags::{apply_config, install_weights, parse_ai, parse_seat};
pub use error::CliError;
pub use games::{GameFlags, GameTask, start_position, with_game, with_record_game};
pub use output::{now_iso8601, outcome_json, result_text};
pub use records::read_record_file;

/// triboard: abstract strategy games on triangle-flavoured boards.
///
/// Without a subcommand the window opens (when built with the `app` feature).
#[derive(Parser, Debug)]
#[command(name = "triboard", version, about, long_about = None)]
pub struct Cli {
    /// Print one JSON object as the last line of output.
    #[arg(long, global = true)]
    pub json: bool,
    /// The headless command to run; none opens the window.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The headless subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play a game in the terminal: people type moves, AI seats answer.
    Play(play::PlayArgs),
    /// AI against AI over many games, with win rates and confidence intervals.
    Selfplay(selfplay::SelfplayArgs),
    /// Random playouts per second and search simulations per second.
    Bench(bench::BenchArgs),
    /// Count the leaves of the game tree at each depth.
    Perft(perft::PerftArgs),
    /// Check a game record, and print its final position, moves and result.
    Replay(replay::ReplayArgs),
    /// Blokus Trigon as a GTP engine on stdin/stdout, speaking like Pentobi's `pentobi-gtp`.
    Gtp(gtp::GtpArgs),
    /// GTP engines (triboard, Pentobi, …) against each other at Blokus Trigon, seats rotated.
    Match(engine_match::MatchArgs),
    /// How often a level plays a winning move where an exhaustive search finds one (small boards).
    CheckSolver(check_solver::CheckSolverArgs),
    /// Analyse a recorded game: the win rate before and after each move, the best move, mistakes.
    Analyze(analyze::AnalyzeArgs),
    /// Learn a game's move-feature weights from game records (softmax regression).
    Learn(learn::LearnArgs),
    /// Opening books: `book build GAME --out FILE` grows one from deep searches.
    Book(book::BookArgs),
    /// Run the game server: the WebSocket API at /ws and the browser app, on one address.
    #[cfg(all(feature = "server", not(target_arch = "wasm32")))]
    Serve(serve::ServeArgs),
    /// Many games at once against a game server over loopback: moves/s, latency, lost moves.
    #[cfg(all(feature = "server", not(target_arch = "wasm32")))]
    ServeBench(serve_bench::ServeBenchArgs),
    /// Seat an outside GTP engine (Pentobi) on a game server as a bot account.
    #[cfg(all(feature = "server", not(target_arch = "wasm32")))]
    Bot(bot::BotArgs),
}

/// Runs one subcommand, writing to stdout and reading stdin (for `play`), and returns the exit
/// code. With `json`, the last line printed is one JSON object: the command's result, or
/// `{"error": "…"}`.
pub fn run(command: Command, json: bool) -> ExitCode {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = match command {
        Command::Play(args) => play::run(&args, &mut io::stdin().lock(), &mut out),
        Command::Selfplay(args) => selfplay::run(&args, &mut out),
        Command::Bench(args) => bench::run(&args, &mut out),
        Command::Perft(args) => perft::run(&args, &mut out),
        Command::Replay(args) => replay::run(&args, &mut out),
        Command::Gtp(args) => gtp::run(&args, &mut io::stdin().lock(), &mut out),
        Command::Match(args) => engine_match::run(&args, &mut out),
        Command::CheckSolver(args) => check_solver::run(&args, &mut out),
        Command::Learn(args) => learn::run(&args, &mut out),
        Command::Book(args) => book::run(&args, &mut out),
        Command::Analyze(args) => analyze::run(&args, &mut out),
        #[cfg(all(feature = "server", not(target_arch = "wasm32")))]
        Command::Serve(args) => serve::run(&args, &mut out),
        #[cfg(all(feature = "server", not(target_arch = "wasm32")))]
        Command::ServeBench(args) => serve_bench::run(&args, &mut out),
        #[cfg(all(feature = "server", not(target_arch = "wasm32")))]
        Command::Bot(args) => bot::run(&args, &mut out),
    };
    finish(result, json, &mut out)
}

/// Prints the JSON line (with `json`) and the error message, and chooses the exit code.
fn finish(result: Result<Value, CliError>, json: bool, out: &mut dyn Write) -> ExitCode {
    match result {
        Ok(value) => {
            if json && writeln!(out, "{value}").and_then(|()| out.flush()).is_err() {
                return ExitCode::from(1);
            }
            ExitCode::SUCCESS
        }
        Err(CliError::BrokenPipe) => ExitCode::from(1),
        Err(e) => {
            if json {
                let _ = writeln!(out, "{}", json!({ "error": e.to_string() }));
                let _ = out.flush();
            }
            eprintln!("triboard: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
