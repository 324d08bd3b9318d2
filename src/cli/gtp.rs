//! `triboard gtp [--game trigon|trigon-2|trigon-3] [--level L] [--seed S] [--untimed]`: Blokus Trigon
//! as a GTP engine that speaks like Pentobi's `pentobi-gtp` (`docs/rules/trigon.md` §Records and engine
//! protocol), so that one controller can drive triboard and Pentobi with the same commands.
//!
//! Framing (GTP 2): one command a line, an optional numeric id before it, everything from `#` on
//! ignored, blank lines skipped; the answer is `=id text` or `?id reason` and ends with an empty
//! line. As in Pentobi, a space follows the status (`= ` for an empty answer), a multi-line answer
//! starts on the status line (`showboard` starts with a newline), and an empty line inside an answer
//! becomes a line holding one space. End of input ends the engine like `quit`.
//!
//! Commands: `protocol_version name version known_command list_commands quit clear_board set_game
//! play genmove undo final_score showboard all_legal`, and Pentobi's `set_random_seed` and
//! `cputime` (seconds of CPU time, which Pentobi's `twogtp` asks for). Colours are `1 2 3 4` (or
//! `blue yellow red green`), `1 2 3` in `trigon-3`; in `trigon-2` the first player has 1 and 3.
//! Moves are cell lists (`r12,r13,s13,r14,s14,r15`) or `pass`. Choices where Pentobi's engine and
//! ours differ:
//!
//! - **Turn order.** Pentobi's `play`/`genmove` take any colour and the next colour is the one after
//!   it. Triboard's rules only move the colour to play, so a command for another colour is accepted
//!   when every colour before it can only pass: those pass (they are out, as `§Play` says, and stay
//!   out since cells only fill). Otherwise the answer is `? it is colour 1 (Blue) to play, not 3
//!   (Red)`. `all_legal` works the same way; for a colour that is out it is empty, as in Pentobi.
//! - **Passes.** `genmove` answers `pass` for a colour that cannot place (it is then out);
//!   `play c pass` is accepted only for such a colour, or one already out, where it changes nothing
//!   (Pentobi refuses every `play pass`). Passes are not moves for `undo`, which takes back the last
//!   placement (and the passes after it).
//! - **`final_score`** is answered in every position: `B+n`, `W+n` or `0` in `trigon-2` (Blue+Red
//!   against Yellow+Green), else the points of each colour, `94 101 87 99` (without Pentobi's
//!   trailing space).
//! - **Levels** are the AI levels 1–6 of `src/ai`: simulation budgets with their wall-clock caps
//!   (0.5 s at level 1 to 10 s at level 6), as in the app; `--untimed` drops the caps so that
//!   `--seed` replays the same moves on any machine; `--seconds S` searches S seconds a move
//!   instead (stopping earlier once the best move cannot change), for an equal time against
//!   another engine, and with `--time-manager` S is the game's mean a move, spent by the time
//!   manager (`ai::time`); `time_settings` and `time_left` set a game clock, which the time manager spends
//!   (`gtp_time.rs`); `--threads N` searches on N threads. With `--book` the first moves come from
//!   the built-in opening book (`rules::book`) while it has the position. Each `genmove` keeps its tree below the moves played
//!   since the last one (tree reuse). `name` is `triboard`.
//!
//! This file holds the command's flags and its loop over the input; the engine and its command
//! table are in `gtp_engine.rs`, Trigon in GTP's words (variants, colours, `final_score`) in
//! `gtp_trigon.rs`.

use std::io::{BufRead, Write};
use std::time::Duration;

use clap::Args;
use serde_json::{Value, json};

use super::ai_flags::{apply_config, install_weights, parse_ai};
use super::error::CliError;
use super::gtp_engine::GtpEngine;
use super::gtp_trigon::variant_from_id;
use crate::ai::Level;
use crate::ai::time::TimeManager;
use crate::rules::trigon::Trigon;

/// Arguments of `triboard gtp`.
#[derive(Args, Debug, Clone)]
pub struct GtpArgs {
    /// The variant at start: `trigon`, `trigon-2` or `trigon-3` (Pentobi's `t`, `t2`, `t3`,
    /// `trigon_2`, `trigon_3` too); `set_game` changes it.
    #[arg(long, default_value = "trigon")]
    pub game: String,
    /// AI level of `genmove`, 1–6.
    #[arg(long, default_value = "3", value_parser = parse_ai)]
    pub level: Level,
    /// Seed of the searches (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Drop the level's wall-clock cap: the search always makes its full simulation budget, so a
    /// seed replays the same moves on any machine (level 6 then takes a minute a move).
    #[arg(long)]
    pub untimed: bool,
    /// Search this many seconds a move instead of the level's budget, stopping earlier when the
    /// best move cannot change: an equal time per move against another engine.
    #[arg(long, conflicts_with = "untimed", value_parser = parse_seconds)]
    pub seconds: Option<f64>,
    /// With `--seconds`: spend it as a game's mean a move through the time manager (`ai::time`:
    /// more for the young game and an unsettled best move, less once the move is decided).
    #[arg(long, requires = "seconds")]
    pub time_manager: bool,
    /// With `--seconds`: spread it over the game as Pentobi's levels spread their simulations
    /// (`ai::time::spread_weight`: little on a colour's first pieces, growing by 10 % a piece),
    /// each move's share spent flat with the early stop; the mean stays about `--seconds`.
    #[arg(long, requires = "seconds", conflicts_with = "time_manager")]
    pub spread: bool,
    /// Play the built-in opening book's move while it has the position (`rules::book`; off by
    /// default: it lost its screen, `rules/trigon/book.rs`).
    #[arg(long)]
    pub book: bool,
    /// Search threads (one tree each, root statistics merged: `ai::mcts`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// A search setting, NAME=VALUE (`SearchConfig::set`: exploration, rave_bias,
    /// first_play_urgency, expand_after, policy_weight, policy_sharpness), for tuning matches.
    #[arg(long = "config", value_name = "NAME=VALUE")]
    pub config: Vec<String>,
    /// Move-feature weights to use instead of the built-in ones (a file `triboard learn` wrote).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<std::path::PathBuf>,
}

/// A positive, finite number of seconds.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() && s <= 3600.0 => Ok(s),
        _ => Err(format!("'{text}' is not a number of seconds between 0 and 3600")),
    }
}

/// Runs `triboard gtp`: answers the commands of `input` on `out` until `quit` or end of input.
///
/// # Errors
/// An unknown `--game` (usage error); unreadable input (failure); a closed output.
pub fn run(args: &GtpArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<Value, CliError> {
    let variant = variant_from_id(&args.game)
        .ok_or_else(|| CliError::usage(format!("gtp plays trigon, trigon-2 or trigon-3, not '{}'", args.game)))?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
    });
    let mut engine = GtpEngine::new(variant, args.level, seed, !args.untimed);
    let per_move = args.seconds.map(Duration::from_secs_f64);
    if args.time_manager {
        engine.time.manager = per_move.map(TimeManager::per_move);
    } else {
        engine.time.flat = per_move;
        engine.time.spread = args.spread;
    }
    engine.threads = args.threads as usize;
    crate::rules::book::set_enabled(args.book);
    apply_config(&mut engine.config, &args.config)?;
    if let Some(path) = &args.weights {
        install_weights::<Trigon>(path)?;
    }
    let mut commands = 0u64;
    let mut line = Vec::new();
    while !engine.has_quit() {
        line.clear();
        if input.read_until(b'\n', &mut line).map_err(|e| CliError::failure(format!("cannot read input: {e}")))? == 0 {
            break;
        }
        if let Some(response) = engine.handle_line(&String::from_utf8_lossy(&line)) {
            commands += 1;
            out.write_all(response.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(json!({ "commands": commands, "seed": seed }))
}
