//! Whole-game analysis: the search run on every position of a game, giving each move the mover's
//! win rate before it, the search's best move, the win rate the played move kept, and whether it
//! was a mistake (it lost more than a threshold share of win rate). `triboard analyze` prints it;
//! the app's review will draw it as a graph.
//!
//! The win rate a move kept: the best move's keeps the position's; a move the search proved keeps
//! 1 or 0. Otherwise, in two-seat games, the positions after the played move and after the best
//! move are searched alike (the same seat to move in both, so one bias: Trigon's searches rate the
//! side to move high, so values of positions with different seats to move do not compare) and the
//! played move keeps the position's win rate less what it falls short of the best (a finished game
//! counts its rank). With more seats, the played move's own mean in the search, given at least
//! [`MIN_VISITS`] simulations; else unknown.

use super::{Budget, Mcts, SearchConfig};
use crate::rules::{Knowledge, Player};

/// Simulations of the played move in its position's search that make its own mean the measure of
/// what it kept, in games of more than two seats.
pub const MIN_VISITS: u64 = 50;

/// The analysis of one move of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAnalysis<M> {
    /// The ply of the position before the move (0 for the first move).
    pub ply: usize,
    /// The seat that made it.
    pub mover: Player,
    /// The move played.
    pub played: M,
    /// The mover's win rate before it, in `[0, 1]`: the search's expected reward of its best move.
    pub win_rate: f32,
    /// The search's best move in the position.
    pub best: M,
    /// The mover's win rate after the played move, in `[0, 1]` (see the module doc); `None` where
    /// it is not known.
    pub kept: Option<f32>,
    /// The share of win rate the move lost, `win_rate − kept`, at least 0.
    pub loss: f32,
    /// `loss` exceeds the threshold.
    pub mistake: bool,
}

/// Analyses every move of the game played from `start` by `moves` (all legal), each position with
/// a search of `budget` on `config` (its seed varied per position, so the result is the same on
/// every run with the same threads). `progress(done, total)` is called after each position; when
/// it returns false the analysis stops and returns the moves analysed so far.
///
/// # Panics
/// If a move is illegal in its position.
pub fn analyze_game<G: Knowledge>(
    start: &G,
    moves: &[G::Move],
    budget: Budget,
    config: &SearchConfig,
    threshold: f32,
    mut progress: impl FnMut(usize, usize) -> bool,
) -> Vec<MoveAnalysis<G::Move>> {
    let two_seats = start.num_players() == 2;
    let mut game = start.clone();
    let mut out: Vec<MoveAnalysis<G::Move>> = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let mover = game.to_move().expect("a move is played only while the game goes on");
        let search = search_position(&game, budget, config, 2 * i);
        let best = search.best_move().expect("a position with a move to play has a best move");
        let win_rate = search.win_rate().unwrap_or(0.5);
        let own = search.move_value(mv);
        let kept = if mv == best {
            Some(win_rate)
        } else if let Some((_, v, true)) = own {
            // Proven in this search: exactly what it keeps.
            Some(v)
        } else if two_seats {
            // The positions after the played move and after the best move, each searched alike
            // (the same seat to move in both) and compared from the mover's side.
            let played = value_after(&game, mv, mover, budget, config, 2 * i);
            let better = value_after(&game, best, mover, budget, config, 2 * i + 1);
            Some(win_rate - (better - played).max(0.0))
        } else {
            own.filter(|&(n, _, _)| n >= MIN_VISITS).map(|(_, v, _)| v)
        };
        let mut a = MoveAnalysis { ply: i, mover, played: mv, win_rate, best, kept, loss: 0.0, mistake: false };
        if let Some(kept) = kept {
            a.loss = (win_rate - kept).max(0.0);
            a.mistake = mv != best && a.loss > threshold;
        }
        out.push(a);
        game.play(mv).unwrap_or_else(|e| panic!("move {} is illegal: {e}", i + 1));
        if !progress(i + 1, moves.len()) {
            break;
        }
    }
    out
}

/// The value for `mover` of the position after `mv` (legal in `game`): its rank once the game is
/// over, else the search's value for the seat to move there, turned to `mover`'s side (two seats).
fn value_after<G: Knowledge>(
    game: &G,
    mv: G::Move,
    mover: Player,
    budget: Budget,
    config: &SearchConfig,
    key: usize,
) -> f32 {
    let mut next = game.clone();
    next.play_unchecked(mv);
    if let Some(outcome) = next.outcome() {
        return outcome.ranks[mover.index()];
    }
    let to_move = next.to_move().expect("a game not over has a seat to move");
    let v = search_position(&next, budget, config, 1_000_000 + key).win_rate().unwrap_or(0.5);
    if to_move == mover { v } else { 1.0 - v }
}

/// The search of position `ply` of a game: `config` with a seed of its own for that ply.
fn search_position<G: Knowledge>(game: &G, budget: Budget, config: &SearchConfig, ply: usize) -> Mcts<G> {
    let seed = config.seed ^ (ply as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut search = Mcts::new(game, SearchConfig { seed, ..config.clone() });
    search.run(budget);
    search
}
