//! Whole-game analysis: the search run on every position of a game, giving each move the mover's
//! win rate before it, the search's best move, the win rate the played move kept, and whether it
//! was a mistake (it lost more than a threshold share of win rate). `triboard analyze` prints it;
//! the app's review will draw it as a graph.
//!
//! The win rate a move kept is, in two-seat games, the search's value of the next position for
//! the same seat (1 − the opponent's value when the turn passes, the final rank once the game is
//! over), so every position is judged by a search of the same budget; with more seats, the played
//! move's own mean at the root (none if the search never tried it).

use super::{Budget, Mcts, SearchConfig};
use crate::rules::{Knowledge, Player};

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
/// it returns false the analysis stops and returns the moves analysed so far (the last one may
/// then lack `kept`).
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
    // The value of the position before move `i` for its mover, from the search.
    let mut values: Vec<(Player, f32)> = Vec::with_capacity(moves.len() + 1);
    for (i, &mv) in moves.iter().enumerate() {
        let mover = game.to_move().expect("a move is played only while the game goes on");
        let search = search_position(&game, budget, config, i);
        let best = search.best_move().expect("a position with a move to play has a best move");
        let win_rate = search.win_rate().unwrap_or(0.5);
        let kept =
            if two_seats { None } else { search.root_children().iter().find(|c| c.0 == mv && c.1 > 0).map(|c| c.2) };
        values.push((mover, win_rate));
        out.push(MoveAnalysis { ply: i, mover, played: mv, win_rate, best, kept, loss: 0.0, mistake: false });
        game.play(mv).unwrap_or_else(|e| panic!("move {} is illegal: {e}", i + 1));
        if !progress(i + 1, moves.len()) {
            break;
        }
    }
    if two_seats
        && out.len() == moves.len()
        && let Some(next) = game.to_move()
    {
        // An unfinished game: its last position is searched too, for the last move's value.
        let search = search_position(&game, budget, config, moves.len());
        values.push((next, search.win_rate().unwrap_or(0.5)));
    }
    if two_seats {
        // The value after move i for its mover: the next position's value, seen from that seat.
        let end = game.outcome();
        for (i, a) in out.iter_mut().enumerate() {
            let mover = a.mover;
            a.kept = match values.get(i + 1) {
                Some(&(next, v)) => Some(if next == mover { v } else { 1.0 - v }),
                None if i + 1 == moves.len() => end.as_ref().map(|o| o.ranks[mover.index()]),
                None => None,
            };
        }
    }
    for a in &mut out {
        if let Some(kept) = a.kept {
            a.loss = (a.win_rate - kept).max(0.0);
            a.mistake = a.played != a.best && a.loss > threshold;
        }
    }
    out
}

/// The search of position `ply` of a game: `config` with a seed of its own for that ply.
fn search_position<G: Knowledge>(game: &G, budget: Budget, config: &SearchConfig, ply: usize) -> Mcts<G> {
    let seed = config.seed ^ (ply as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut search = Mcts::new(game, SearchConfig { seed, ..config.clone() });
    search.run(budget);
    search
}
