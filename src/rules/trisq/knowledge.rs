//! Trisq search knowledge, connection-aware as Hex programs are, on Trisq's trapezia. Only the
//! search uses it (`impl Knowledge for Trisq`: [`Knowledge::search_moves`],
//! [`Knowledge::move_priors`]); the rules never do.
//!
//! - **Shortest chains** ([`Trisq::search_candidates`]): once a few pieces are down, the search
//!   looks only at slots on a shortest chain of either player — the fewest pieces that would join
//!   its edges, by 0-1 breadth-first search from each edge ([`Trisq::path_slack`]).
//! - **Save a bridge**: two own pieces that are not edge-adjacent but share open edge-adjacent
//!   slots; when the opponent's last turn leaves exactly one, the priors put it first
//!   ([`Trisq::answers`]). **Save an edge template** likewise for an own piece and its open
//!   slots on its edge.
//! - Priors prefer slots next to pieces of both colours, then own, then the opponent's; `end` low.
//!
//! Measured with `triboard selfplay trisq --plain b --seed 5` (8 × 8, 100 games, both at level 1):
//! - the priors alone 64 %; the pruning to squares near pieces alone 67 %; both 70 %;
//! - shortest chains of either player (slack 0) with the priors: **82 %** (73–88 %); slack ≤ 1 73 %,
//!   ≤ 2 59 %;
//! - priors by chain slack instead of by neighbours: 79 % with the pruning, 57 % without.
//! - Tried and dropped: answering the opponent's last turn in the *playouts* (save a bridge or an
//!   edge template whenever one applies) lost to uniform playouts, 40 % at level 1 and 20 % at
//!   level 2 (30 games); playouts kept near pieces, 47 %; a prior for moves that make a bridge,
//!   63 %. The playouts stay uniform ([`crate::rules::game::Game::random_move`]).
//!
//! All of it, 200 games with `--seed 2027`: level 1 80.0 % (73.9–85.0 %), level 2 only 60.5 %
//! (53.6–67.0 %) — with four times the simulations uniform playouts and RAVE find much of it alone.
//!
//! Since then the search is led by the learned move probabilities (`features.rs`; prior-led
//! selection, [`Knowledge::prior_exploration`]): the priors above no longer set the children's
//! starting values, the shortest-chain pruning still chooses the moves looked at. At 1 s a move, one
//! thread each, seats alternating, against the search with the hand-set priors and UCT + RAVE
//! (`selfplay trisq --a ai:6 --b ai:6 --seconds 1 --games 50 --seed 11`, and `--seed 12`,
//! `--b-config prior_exploration=0`): **75 of 100**, 95 % interval 65.7–82.5 % (37–13 and 38–12;
//! 973 ms a move each, 79 plies a game).

use super::tactics::MAX_ANSWERS;
use super::{MAX_SIDE, Trisq, TrisqMove};
use crate::rules::features::WeightsCell;
use crate::rules::game::Game;
use crate::rules::knowledge::Knowledge;

/// Before this many pieces are on the board the search looks at every legal move.
const OPENING_PIECES: usize = 4;
/// The fewest moves the shortest-chain pruning keeps; below, it widens to squares near pieces.
const MIN_CANDIDATES: usize = 8;

/// Priors `(value, weight)`: an answer to the opponent's last turn, a slot edge-adjacent to pieces
/// of both colours, to own pieces only, to the opponent's only, to none, and `end`.
const PRIOR_ANSWER: (f32, f32) = (1.0, 20.0);
const PRIOR_BOTH: (f32, f32) = (0.7, 10.0);
const PRIOR_OWN: (f32, f32) = (0.6, 10.0);
const PRIOR_OPPONENT: (f32, f32) = (0.55, 10.0);
const PRIOR_ALONE: (f32, f32) = (0.35, 10.0);
const PRIOR_END: (f32, f32) = (0.2, 10.0);

/// Prior-led selection's constant (Trigon's; 1.5 lost 15–25).
const PRIOR_EXPLORATION: f32 = 0.87;

impl Trisq {
    /// The search's priors (`(value, weight)` per move, see [`Knowledge::move_priors`]): answers to the
    /// opponent's last turn first, then slots next to own and opponent pieces, then the rest;
    /// `end` low (a second piece is nearly always worth more).
    pub(super) fn priors(&self, moves: &[TrisqMove], out: &mut Vec<(f32, f32)>) {
        out.clear();
        let c = self.mover as usize;
        let mut answers = [0u16; MAX_ANSWERS];
        let n = if self.pending == 0 { self.answers(&mut answers) } else { 0 };
        let answers = &answers[..n];
        out.extend(moves.iter().map(|&mv| {
            let Some(slot) = mv.slot() else { return PRIOR_END };
            if answers.contains(&(slot as u16)) {
                return PRIOR_ANSWER;
            }
            let row = &self.board.edge_rows[slot];
            let next_to = |k: usize| row.iter().any(|&r| self.own[k].contains(r as usize));
            match (next_to(c), next_to(c ^ 1)) {
                (true, true) => PRIOR_BOTH,
                (true, false) => PRIOR_OWN,
                (false, true) => PRIOR_OPPONENT,
                (false, false) => PRIOR_ALONE,
            }
        }));
    }

    /// The moves the search looks at. In the opening (fewer than [`OPENING_PIECES`] pieces) all
    /// legal moves; then those on a shortest chain of either player ([`Trisq::path_slack`] 0:
    /// building one's own or blocking the opponent's) and `end`; when fewer than
    /// [`MIN_CANDIDATES`] are, those in a square next to or holding a piece; all when none is.
    pub(super) fn search_candidates(&self, out: &mut Vec<TrisqMove>) {
        self.legal_moves(out);
        if ((self.own[0].count() + self.own[1].count()) as usize) < OPENING_PIECES {
            return;
        }
        let c = self.mover as usize;
        let (mine, theirs) = (self.path_slack(c), self.path_slack(c ^ 1));
        let on_chain = |mv: &TrisqMove| mv.slot().is_none_or(|s| mine[s] == 0 || theirs[s] == 0);
        if out.iter().filter(|mv| on_chain(mv)).count() >= MIN_CANDIDATES {
            out.retain(on_chain);
            return;
        }
        let n = self.board.side;
        let mut near = [false; MAX_SIDE * MAX_SIDE];
        for s in self.own[0].iter().chain(self.own[1].iter()) {
            let (col, row) = self.board.square(s);
            for r in row.saturating_sub(1)..(row + 2).min(n) {
                for c in col.saturating_sub(1)..(col + 2).min(n) {
                    near[r * n + c] = true;
                }
            }
        }
        let before = out.len();
        out.retain(|mv| mv.slot().is_none_or(|s| near[s / 8]));
        if out.is_empty() && before > 0 {
            self.legal_moves(out);
        }
    }
}

/// The search knowledge of this module (`ai::Mcts` uses it).
impl Knowledge for Trisq {
    /// The moves of [`Trisq::search_candidates`].
    fn search_moves(&self, out: &mut Vec<TrisqMove>) {
        self.search_candidates(out);
    }

    /// The priors of [`Trisq::priors`].
    fn move_priors(&self, moves: &[TrisqMove], out: &mut Vec<(f32, f32)>) {
        self.priors(moves, out);
    }

    /// Prior-led selection with the learned move probabilities (`features.rs` has the screens).
    fn prior_exploration(&self) -> Option<f32> {
        Some(PRIOR_EXPLORATION)
    }

    fn feature_weights() -> Option<&'static WeightsCell> {
        Some(&super::features::WEIGHTS)
    }

    fn move_features(&self, moves: &[TrisqMove], out: &mut Vec<u16>) {
        self.move_feature_indices(moves, out);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{TOP, TrisqOptions};
    use super::*;
    use crate::rules::game::play_moves;

    /// The fewest pieces Red needs from the top edge to any slot on the bottom edge.
    fn red_gap(g: &Trisq) -> u8 {
        let d = g.edge_distance(0, TOP);
        (0..g.board.slots()).filter(|&s| g.board.edges[s] & super::super::BOTTOM != 0).map(|s| d[s]).min().unwrap()
    }

    /// No piece touches both the top and the bottom side of its square, so a chain needs two pieces
    /// a row: 8 on the empty 4 × 4 board, 6 once Red holds a column's first square top to bottom,
    /// and every slot of a shortest chain has slack 0.
    #[test]
    fn shortest_chains_count_two_pieces_a_row() {
        let mut g = Trisq::new(&TrisqOptions { size: 4 }).unwrap();
        assert_eq!(red_gap(&g), 8);
        play_moves(&mut g, "a1H0 d4H1 d3H1 a1H2").unwrap();
        assert_eq!(red_gap(&g), 6);
        let slack = g.path_slack(0);
        assert_eq!(slack[0], 0, "a1H0 is on Red's shortest chain");
        assert_eq!(slack[2], 0, "a1H2 too");
        // Blue's wall of H strips across row 2 (a win for Blue) cuts every Red chain.
        let mut wall = Trisq::new(&TrisqOptions { size: 4 }).unwrap();
        play_moves(&mut wall, "d4H0 a2H0 a2H1 d4H1 end b2H0 b2H1 d4H2 end c2H0 c2H1 d4H3 end d2H0 d2H1")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(wall.winner(), Some(crate::rules::game::Player(1)));
        assert_eq!(red_gap(&wall), u8::MAX);
    }
}
