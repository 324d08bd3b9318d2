//! `triboard check-solver GAME [--size N | --board B] [--positions N] [--level L] [--seed S]`:
//! how often the search at a level plays a winning move where one exists, measured against an
//! exhaustive search ([`crate::ai::exhaustive`]) on small boards (Trike 4–6, Tri-It-Out `hex-2-3` to
//! `hex-3-4`, Trisq 3×3).
//!
//! Positions come from uniformly random games cut at a random ply; a position is kept when the
//! exhaustive search (within `--nodes` positions) finds the seat to move a forced win. The search then
//! chooses a move with the level's simulation budget (no time cap, so the run is reproducible), and
//! the move counts as right when the exhaustive search says it keeps the win. Reported apart: the
//! positions that also have a losing move ("hard"), and how often the solver proved the root.
//! JSON keys: `positions`, `right`, `rate`, `hard`, `hard_right`, `proven`, `search_ms` (the mean wall
//! time of a search, to weigh what a change to the search costs).

use std::io::Write;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::{Value, json};

use super::error::CliError;
use super::games::{GameFlags, GameTask, start_position, with_game};
use crate::ai::exhaustive::{Solved, move_values};
use crate::ai::{Budget, Level, Mcts, SearchConfig};
use crate::rules::{Knowledge, random_index, rng_from_seed};

/// Arguments of `triboard check-solver`.
#[derive(Args, Debug, Clone)]
pub struct CheckSolverArgs {
    /// The game id: one of [`crate::rules::game_ids`].
    #[arg(help = super::games::game_id_help())]
    pub game: String,
    /// The game's options (keep the board small: the exhaustive search must finish).
    #[command(flatten)]
    pub flags: GameFlags,
    /// Positions with a forced win to test.
    #[arg(long, default_value_t = 200)]
    pub positions: usize,
    /// The AI level whose simulation budget the search gets, 1–6.
    #[arg(long, default_value_t = 3)]
    pub level: u8,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Positions the exhaustive search may visit per candidate position; larger ones are skipped.
    #[arg(long, default_value_t = 2_000_000)]
    pub nodes: u64,
    /// Seed of the random games and of the searches.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Search without MCTS-Solver, to measure what it is worth.
    #[arg(long)]
    pub no_solver: bool,
}

struct Task<'a> {
    args: &'a CheckSolverArgs,
    out: &'a mut dyn Write,
}

impl GameTask for Task<'_> {
    type Output = Result<Value, CliError>;
    fn run<G: Knowledge>(self, id: &str) -> Self::Output {
        let args = self.args;
        let (start, _) = start_position::<G>(id, &args.flags, None)?;
        if start.num_players() != 2 {
            return Err(CliError::usage(format!("{id} has {} seats; the solver is for two", start.num_players())));
        }
        let level = Level::new(args.level).map_err(CliError::usage)?;
        let budget = Budget { simulations: level.budget().simulations, max_time: Duration::MAX };
        let mut rng = rng_from_seed(args.seed);
        let mut buf = Vec::new();
        let (mut tested, mut right, mut hard, mut hard_right, mut proven, mut tries) = (0, 0, 0, 0, 0, 0u64);
        let mut searching = Duration::ZERO;
        while tested < args.positions {
            tries += 1;
            if tries > 1000 * args.positions as u64 + 1000 {
                return Err(CliError::failure(format!(
                    "found only {tested} positions with a forced win that the exhaustive search could finish; a smaller board or more --nodes"
                )));
            }
            // A random game, cut at a random ply.
            let mut line = vec![start.clone()];
            let mut g = start.clone();
            while let Some(mv) = g.random_move(&mut rng, &mut buf) {
                g.play_unchecked(mv);
                line.push(g.clone());
            }
            let g = line[random_index(&mut rng, line.len())].clone();
            if g.to_move().is_none() {
                continue;
            }
            let mut nodes = args.nodes;
            let Some(values) = move_values(&g, &mut nodes) else { continue };
            if !values.iter().any(|&(_, v)| v == Solved::Win) {
                continue;
            }
            let seed = args.seed ^ tries.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let config =
                SearchConfig { seed, threads: args.threads, solver: !args.no_solver, ..SearchConfig::default() };
            let clock = Instant::now();
            let mut search = Mcts::new(&g, config);
            search.run(budget);
            searching += clock.elapsed();
            let chosen = search.best_move().ok_or_else(|| CliError::failure("the search found no move"))?;
            let wins = values.iter().any(|&(mv, v)| mv == chosen && v == Solved::Win);
            let is_hard = values.iter().any(|&(_, v)| v == Solved::Loss);
            tested += 1;
            right += usize::from(wins);
            hard += usize::from(is_hard);
            hard_right += usize::from(is_hard && wins);
            proven += usize::from(search.proof().is_some());
            if !wins {
                writeln!(self.out, "missed: ply {}, played {}\n{}", g.ply(), g.move_text(chosen), g.board_text())?;
            }
        }
        let rate = right as f64 / tested as f64;
        let search_ms = searching.as_secs_f64() * 1000.0 / tested as f64;
        writeln!(
            self.out,
            "{id} {}, level {} ({} simulations, {} thread(s)): a winning move in {right} of {tested} positions with a forced win ({:.1}%); {hard_right} of {hard} that also have a losing move; root proven in {proven}; {search_ms:.1} ms a search",
            json!(start.options()),
            args.level,
            budget.simulations,
            args.threads,
            100.0 * rate
        )?;
        Ok(json!({
            "game": id, "options": start.options(), "level": args.level, "threads": args.threads,
            "positions": tested, "right": right, "rate": rate, "hard": hard, "hard_right": hard_right, "proven": proven, "search_ms": search_ms,
        }))
    }
}

/// Runs `triboard check-solver`.
///
/// # Errors
/// An unknown game, bad options or level, a game of more than two seats, or a board too large for
/// the exhaustive search to find enough positions.
pub fn run(args: &CheckSolverArgs, out: &mut dyn Write) -> Result<Value, CliError> {
    with_game(&args.game, Task { args, out })?
}
