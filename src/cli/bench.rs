//! `triboard bench GAME [--size N] [--seconds S] [--moves "…"] [--threads N] [--config NAME=VALUE]`:
//! uniform random playouts per second on one thread, the playout policy's playouts
//! ([`Knowledge::playout_move`]) per second, then search simulations per second on N threads, from
//! the same position; for a game with move logits, the share of the root's simulations spent on
//! the ten moves of highest prior.
//! JSON keys: `playouts_per_s`, `plies_per_playout`, `plies_per_s`, `policy_playouts_per_s`,
//! `simulations_per_s`, `top10_prior_share`, ….

use std::io::Write;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::{Value, json};

use super::ai_flags::apply_config;
use super::error::CliError;
use super::games::{GameFlags, GameTask, start_position, with_game};
use crate::ai::{Mcts, MoveStats, SearchConfig};
use crate::rules::{Knowledge, rng_from_seed};

/// Arguments of `triboard bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// The game id: one of [`crate::rules::game_ids`].
    #[arg(help = super::games::game_id_help())]
    pub game: String,
    /// The game's options.
    #[command(flatten)]
    pub flags: GameFlags,
    /// Seconds for each of the two measurements.
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,
    /// Start after these moves, in the game's notation.
    #[arg(long)]
    pub moves: Option<String>,
    /// Seed of the playouts and of the search.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Search threads for the second measurement (one tree each: `ai::mcts`).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// A search setting for the third measurement, `NAME=VALUE` (as `triboard gtp --config`;
    /// repeatable), e.g. `prior_exploration=0` for UCT + RAVE in a game with priors.
    #[arg(long = "config", value_name = "NAME=VALUE")]
    pub config: Vec<String>,
}

/// Playouts between two looks at the clock.
const BATCH: u64 = 32;

struct Task<'a> {
    args: &'a BenchArgs,
    out: &'a mut dyn Write,
}

impl GameTask for Task<'_> {
    type Output = Result<Value, CliError>;
    fn run<G: Knowledge>(self, id: &str) -> Self::Output {
        let (mut game, _) = start_position::<G>(id, &self.args.flags, self.args.moves.as_deref())?;
        game.warm_up();
        if game.to_move().is_none() {
            return Err(CliError::usage("the game is already over after --moves: nothing to measure"));
        }
        let seconds = self.args.seconds;
        if !(seconds.is_finite() && seconds > 0.0 && seconds <= 86_400.0) {
            return Err(CliError::usage(format!("--seconds {seconds} must be above 0 and at most a day")));
        }
        let duration = Duration::from_secs_f64(seconds);
        let out = self.out;
        writeln!(out, "{id} {}, {} plies played; {seconds} s per measurement", json!(game.options()), game.ply())?;

        // Uniform random playouts (clone the position, random moves until the game is over), then
        // the playout policy's.
        let mut rng = rng_from_seed(self.args.seed);
        let mut buf = Vec::new();
        let (playouts, plies, elapsed) = time_playouts(&game, duration, |g| g.random_move(&mut rng, &mut buf));
        let playouts_per_s = playouts as f64 / elapsed;
        let plies_per_playout = plies as f64 / playouts as f64;
        writeln!(
            out,
            "random playouts: {playouts} in {elapsed:.2} s = {playouts_per_s:.0}/s, {plies_per_playout:.1} plies each ({:.0} plies/s)",
            plies as f64 / elapsed
        )?;
        let (policy_playouts, policy_plies, policy_elapsed) =
            time_playouts(&game, duration, |g| g.playout_move(&mut rng, &mut buf));
        let policy_playouts_per_s = policy_playouts as f64 / policy_elapsed;
        writeln!(
            out,
            "policy playouts: {policy_playouts} in {policy_elapsed:.2} s = {policy_playouts_per_s:.0}/s, {:.1} plies each",
            policy_plies as f64 / policy_playouts as f64
        )?;

        // The search from the same position, on --threads threads.
        let threads = self.args.threads.max(1);
        let mut config = SearchConfig { seed: self.args.seed, threads, ..SearchConfig::default() };
        apply_config(&mut config, &self.args.config)?;
        let mut search = Mcts::new(&game, config);
        let started = Instant::now();
        let simulations = search.run_for(duration);
        let search_elapsed = started.elapsed().as_secs_f64();
        let simulations_per_s = simulations as f64 / search_elapsed;
        let best = search.best_move().map(|mv| game.move_text(mv));
        writeln!(
            out,
            "search on {threads} thread(s): {simulations} simulations in {search_elapsed:.2} s = {simulations_per_s:.0}/s; best move {}, win rate {}",
            best.as_deref().unwrap_or("-"),
            search.win_rate().map_or("-".to_string(), |w| format!("{:.1}%", 100.0 * w))
        )?;
        let top10 = top_prior_share(&game, &search.root_children(), 10);
        if let Some(share) = top10 {
            writeln!(out, "root simulations on the 10 moves of highest prior: {:.1}%", 100.0 * share)?;
        }
        Ok(json!({
            "game": id,
            "options": game.options(),
            "ply": game.ply(),
            "seconds": seconds,
            "playouts": playouts,
            "playouts_per_s": playouts_per_s,
            "plies_per_playout": plies_per_playout,
            "plies_per_s": plies as f64 / elapsed,
            "simulations": simulations,
            "simulations_per_s": simulations_per_s,
            "policy_playouts_per_s": policy_playouts_per_s,
            "top10_prior_share": top10,
            "threads": threads,
            "best_move": best,
        }))
    }
}

/// Plays out `game` with `next` (the move to play, `None` at the end) for at least `duration`,
/// in batches of [`BATCH`]: the playouts, their plies and the seconds they took.
fn time_playouts<G: Knowledge>(
    game: &G,
    duration: Duration,
    mut next: impl FnMut(&mut G) -> Option<G::Move>,
) -> (u64, u64, f64) {
    let (mut playouts, mut plies) = (0u64, 0u64);
    let started = Instant::now();
    while started.elapsed() < duration {
        for _ in 0..BATCH {
            let mut g = game.clone();
            while let Some(mv) = next(&mut g) {
                g.play_unchecked(mv);
                plies += 1;
            }
            playouts += 1;
        }
    }
    (playouts, plies, started.elapsed().as_secs_f64())
}

/// The share of the root's simulations (`children`) spent on the `n` moves with the highest
/// logits ([`Knowledge::move_logits`]); `None` for a game without them.
pub fn top_prior_share<G: Knowledge>(game: &G, children: &[MoveStats<G::Move>], n: usize) -> Option<f64> {
    let moves: Vec<G::Move> = children.iter().map(|c| c.mv).collect();
    let mut logits = Vec::new();
    if moves.is_empty() || !game.move_logits(&moves, &mut logits) {
        return None;
    }
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by(|&a, &b| logits[b].total_cmp(&logits[a]));
    let total: u64 = children.iter().map(|c| u64::from(c.visits)).sum();
    let top: u64 = order.iter().take(n).map(|&i| u64::from(children[i].visits)).sum();
    Some(top as f64 / total.max(1) as f64)
}

/// Runs `triboard bench`.
///
/// # Errors
/// An unknown game, bad options, a bad `--moves`, a finished position or a bad `--seconds`.
pub fn run(args: &BenchArgs, out: &mut dyn Write) -> Result<Value, CliError> {
    with_game(&args.game, Task { args, out })?
}
