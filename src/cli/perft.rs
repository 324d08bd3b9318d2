//! `triboard perft GAME [--size N] [--moves "…"] --depth D`: leaf counts of the game tree at each
//! depth, for checking move generation. JSON: `{"perft": [c1, c2, …]}`.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use serde_json::{Value, json};

use super::error::CliError;
use super::games::{GameFlags, GameTask, start_position, with_game};
use crate::rules::{Knowledge, perft};

/// Arguments of `triboard perft`.
#[derive(Args, Debug, Clone)]
pub struct PerftArgs {
    /// The game id: one of [`crate::rules::game_ids`].
    #[arg(help = super::games::game_id_help())]
    pub game: String,
    /// The game's options.
    #[command(flatten)]
    pub flags: GameFlags,
    /// Start after these moves, in the game's notation ("c3 c5 swap").
    #[arg(long)]
    pub moves: Option<String>,
    /// Count down to this many plies.
    #[arg(long)]
    pub depth: usize,
}

struct Task<'a> {
    args: &'a PerftArgs,
    out: &'a mut dyn Write,
}

impl GameTask for Task<'_> {
    type Output = Result<Value, CliError>;
    fn run<G: Knowledge>(self, id: &str) -> Self::Output {
        let (game, _) = start_position::<G>(id, &self.args.flags, self.args.moves.as_deref())?;
        let started = Instant::now();
        let counts = perft(&game, self.args.depth);
        let seconds = started.elapsed().as_secs_f64();
        for (d, count) in counts.iter().enumerate() {
            writeln!(self.out, "{} {count}", d + 1)?;
        }
        Ok(json!({ "perft": counts, "seconds": seconds }))
    }
}

/// Runs `triboard perft`, printing `d count` for each depth.
///
/// # Errors
/// An unknown game, bad options or a bad `--moves` (usage errors).
pub fn run(args: &PerftArgs, out: &mut dyn Write) -> Result<Value, CliError> {
    with_game(&args.game, Task { args, out })?
}
