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

pub mod analyze;
pub mod bench;
pub mod check_solver;
pub mod engine_match;
pub mod games;
pub mod gtp;
pub mod learn;
pub mod perft;
pub mod play;
pub mod replay;
pub mod selfplay;
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
pub mod serve;
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
pub mod serve_bench;

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use serde_json::{Value, json};

use crate::ai::Level;
pub use crate::ai::Seat;
use crate::rules::{Game, Knowledge, play_moves};
pub use games::{GameFlags, GameTask, with_game};

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
    /// Run the game server: the WebSocket API at /ws and the browser app, on one address.
    #[cfg(all(feature = "server", not(target_arch = "wasm32")))]
    Serve(serve::ServeArgs),
    /// Many games at once against a game server over loopback: moves/s, latency, lost moves.
    #[cfg(all(feature = "server", not(target_arch = "wasm32")))]
    ServeBench(serve_bench::ServeBenchArgs),
}

/// Why a command failed, and so its exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CliError {
    /// Bad arguments or input from the command line (exit code 2).
    Usage(String),
    /// The command could not do its work: unreadable file, bad record, I/O (exit code 1).
    Failure(String),
    /// Stdout was closed by the reader (`| head`): stop quietly.
    BrokenPipe,
}

impl CliError {
    /// A usage error (exit code 2).
    pub fn usage(msg: impl Into<String>) -> CliError {
        CliError::Usage(msg.into())
    }
    /// A failure (exit code 1).
    pub fn failure(msg: impl Into<String>) -> CliError {
        CliError::Failure(msg.into())
    }
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Failure(_) | CliError::BrokenPipe => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Failure(m) => f.write_str(m),
            CliError::BrokenPipe => f.write_str("output closed"),
        }
    }
}

impl std::error::Error for CliError {}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        if e.kind() == io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else {
            CliError::Failure(format!("output error: {e}"))
        }
    }
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
        Command::Analyze(args) => analyze::run(&args, &mut out),
        #[cfg(all(feature = "server", not(target_arch = "wasm32")))]
        Command::Serve(args) => serve::run(&args, &mut out),
        #[cfg(all(feature = "server", not(target_arch = "wasm32")))]
        Command::ServeBench(args) => serve_bench::run(&args, &mut out),
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

/// Reads `human`, `ai` (level 3) or `ai:L` (level 1–6).
///
/// # Errors
/// Anything else, with what is accepted.
pub fn parse_seat(text: &str) -> Result<Seat, String> {
    let t = text.trim().to_ascii_lowercase();
    if t == "human" {
        return Ok(Seat::Human);
    }
    parse_ai(&t).map(Seat::Ai).map_err(|_| format!("'{text}' is not 'human', 'ai' or 'ai:L' with a level L in 1–6"))
}

/// Reads `ai` (level 3), `ai:L` or a bare level `L`, 1–6.
///
/// # Errors
/// Anything else, with what is accepted.
pub fn parse_ai(text: &str) -> Result<Level, String> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || format!("'{text}' is not 'ai:L' with a level L in 1–6");
    let digits = match t.strip_prefix("ai") {
        Some("") => return Level::new(3),
        Some(rest) => rest.strip_prefix(':').ok_or_else(bad)?,
        None => t.as_str(),
    };
    let n: u8 = digits.parse().map_err(|_| bad())?;
    Level::new(n)
}

/// The start position of game `G` for these flags, after the moves of `--moves`.
///
/// # Errors
/// Usage errors: a flag the game refuses, options out of range, or a bad move
/// (`--moves: move 3 (b2): reason`).
pub fn start_position<G: Knowledge>(
    id: &str,
    flags: &GameFlags,
    moves: Option<&str>,
) -> Result<(G, Vec<G::Move>), CliError> {
    let options = flags.options::<G>(id).map_err(CliError::usage)?;
    let start = G::new(&options).map_err(CliError::usage)?;
    let mut game = start.clone();
    let mut played = Vec::new();
    if let Some(moves) = moves {
        play_moves(&mut game, moves).map_err(|e| CliError::usage(format!("--moves: {e}")))?;
        // Every move is now known to be legal: keep them for records and undo.
        let mut g = start;
        for text in moves.split_whitespace() {
            let mv = g.parse_move(text).expect("play_moves accepted it");
            g.play_unchecked(mv);
            played.push(mv);
        }
    }
    Ok((game, played))
}

/// The result of a finished game as JSON: per-seat `scores`, `ranks` and `names` (Trike: the
/// colour each seat ends with), the `winners` (seat indices) and a one-line `text`.
pub fn outcome_json<G: Game>(game: &G) -> Value {
    match game.outcome() {
        None => Value::Null,
        Some(o) => {
            let n = o.num_players;
            let names: Vec<&str> = (0..n).map(|i| game.player_name(crate::rules::Player(i as u8))).collect();
            json!({
                "scores": &o.scores[..n],
                "ranks": &o.ranks[..n],
                "names": names,
                "winners": o.winners().iter().map(|p| p.index()).collect::<Vec<_>>(),
                "text": result_text(game),
            })
        }
    }
}

/// The result of a finished game in words: "Black 4 – White 3: Black wins" (seats in order).
pub fn result_text<G: Game>(game: &G) -> Option<String> {
    let o = game.outcome()?;
    let name = |i: usize| game.player_name(crate::rules::Player(i as u8));
    let scores: Vec<String> = (0..o.num_players).map(|i| format!("{} {}", name(i), o.scores[i])).collect();
    let winners = o.winners();
    let verdict = if winners.len() == 1 {
        format!("{} wins", name(winners[0].index()))
    } else {
        let names: Vec<&str> = winners.iter().map(|p| name(p.index())).collect();
        format!("{} share the win", names.join(" and "))
    };
    Some(format!("{}: {verdict}", scores.join(" – ")))
}

/// Reads a record file (JSON, or Pentobi's `.blksgf`): the record and the file's text.
///
/// # Errors
/// An unreadable file or a malformed record (failures naming the file).
pub fn read_record_file(path: &std::path::Path) -> Result<(crate::rules::record::Record, String), CliError> {
    let file = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| CliError::failure(format!("cannot read {file}: {e}")))?;
    let record = crate::rules::trigon::sgf::read_any(&text).map_err(|e| CliError::failure(format!("{file}: {e}")))?;
    Ok((record, text))
}

/// The search settings `settings` (`NAME=VALUE` each) applied to `config`.
///
/// # Errors
/// A setting without `=`, an unknown name or a bad value (usage).
pub fn apply_config(config: &mut crate::ai::SearchConfig, settings: &[String]) -> Result<(), CliError> {
    for setting in settings {
        let (name, value) =
            setting.split_once('=').ok_or_else(|| CliError::usage(format!("--config {setting}: write NAME=VALUE")))?;
        config.set(name.trim(), value.trim()).map_err(|e| CliError::usage(format!("--config: {e}")))?;
    }
    Ok(())
}

/// Puts the move-feature weights of file `path` (written by `triboard learn`) in force for game
/// `G` instead of its built-in ones, for the rest of the process.
///
/// # Errors
/// A game without features (usage); an unreadable or malformed file, or weights already in use
/// (failures naming the file).
pub fn install_weights<G: Knowledge>(path: &std::path::Path) -> Result<(), CliError> {
    let file = path.display();
    let cell = G::feature_weights().ok_or_else(|| CliError::usage("this game has no move features (--weights)"))?;
    let text = std::fs::read_to_string(path).map_err(|e| CliError::failure(format!("cannot read {file}: {e}")))?;
    let weights = crate::rules::features::Weights::from_json(cell.set(), &text)
        .map_err(|e| CliError::failure(format!("{file}: {e}")))?;
    cell.install(weights).map_err(|e| CliError::failure(format!("{file}: {e}")))
}

/// Runs `task` with the game a record of `file` names: an unknown game is the file's failure, not a
/// bad command line.
///
/// # Errors
/// The task's own errors; an unknown game (failure naming the file).
pub fn with_record_game<T: GameTask<Output = Result<Value, CliError>>>(
    id: &str,
    file: &str,
    task: T,
) -> Result<Value, CliError> {
    with_game(id, task).unwrap_or_else(|e| Err(CliError::failure(format!("{file}: {e}"))))
}

pub use crate::rules::move_texts;

pub use crate::ai::derive_seed;

/// Now as an ISO 8601 UTC timestamp (`2026-11-22T20:31:05Z`), for records.
pub fn now_iso8601() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::trike::Trike;

    #[test]
    fn seats_parse() {
        assert_eq!(parse_seat("human"), Ok(Seat::Human));
        assert_eq!(parse_seat("ai:2"), Ok(Seat::Ai(Level::new(2).unwrap())));
        assert_eq!(parse_seat("AI"), Ok(Seat::Ai(Level::new(3).unwrap())));
        assert!(parse_seat("ai:9").is_err());
        assert!(parse_seat("robot").is_err());
        assert_eq!(parse_ai("4"), Ok(Level::new(4).unwrap()));
        assert!(parse_ai("ai2").is_err());
    }

    #[test]
    fn unknown_games_are_usage_errors() {
        struct Id;
        impl GameTask for Id {
            type Output = String;
            fn run<G: Knowledge>(self, id: &str) -> String {
                id.to_string()
            }
        }
        assert_eq!(with_game("trike", Id), Ok("trike".to_string()));
        assert_eq!(with_game("trigon-2", Id), Ok("trigon-2".to_string()));
        assert_eq!(with_game("trisq", Id), Ok("trisq".to_string()));
        assert!(matches!(with_game("chess", Id), Err(CliError::Usage(m)) if m.contains("unknown game")));
    }

    #[test]
    fn bad_moves_name_their_place() {
        let e = start_position::<Trike>("trike", &GameFlags { size: Some(5), ..GameFlags::default() }, Some("a1 zz9"))
            .unwrap_err();
        assert!(matches!(&e, CliError::Usage(m) if m.starts_with("--moves: move 2 (zz9): ")), "{e}");
        let (g, moves) =
            start_position::<Trike>("trike", &GameFlags { size: Some(5), ..GameFlags::default() }, Some("c3 c4"))
                .unwrap();
        assert_eq!(g.ply(), 2);
        assert_eq!(move_texts(&Trike::new(g.options()).unwrap(), &moves), ["c3", "c4"]);
    }

    #[test]
    fn dates_are_iso() {
        let d = now_iso8601();
        assert_eq!(d.len(), 20, "{d}");
        assert!(d.starts_with("20") && d.ends_with('Z'));
    }
}
