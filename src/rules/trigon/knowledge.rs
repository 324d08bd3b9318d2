//! What the search knows of Blokus Trigon beyond the rules: priors for new tree nodes, pruning of
//! weak opening moves, the playout policy and the guard against the mirror strategy of the
//! two-player game (`docs/rules/trigon.md` §Variants). Measured with `triboard selfplay … --plain`.
//!
//! The knowledge is Pentobi's kind, kept simple:
//! - **Priors**: bigger pieces first (a piece not placed costs its size at the end), more new
//!   attach points for the mover, more of the opponents' attach points covered, and in a colour's
//!   first pieces nearness to the centre (where the board is open).
//! - **Pruning**: a colour's first pieces are its biggest ones (size 6, then 5 and 6), as in any
//!   strong player's opening.
//! - **Playouts**: first a *local response* (Pentobi's local points, our own code): a placement on
//!   one of the mover's attach points that is also an attach point of an opponent colour's last
//!   placement, biggest pieces first, from a few random draws; else, at a random attach point, the
//!   biggest pieces that fit there first. Measured with `triboard match`, `trigon-2`, 0.5 s a move,
//!   20 games against the same engine without it: 12–8; at equal time against Pentobi level 7
//!   (0.96 s against its 0.90 s a move, 20 games) 4–16, where without it 0–6 had been measured.
//!   Local points that are not the mover's attach points too (reached by a placement through
//!   another attach point) made playouts 2.5× slower and lost 1–6: not kept. (Choosing the better
//!   of two placements, by size and opponents' attach points taken, won 55 % of 40 games at the
//!   same simulations but made playouts ~1.5× slower: not kept.)
//! - **PUCT**: a PUCT term (`ai::SearchConfig::policy_weight`) whose move probabilities are the
//!   softmax of learned feature weights (`features.rs`, learned by `triboard learn` from games of
//!   Pentobi against itself played here): a small gain at weight 0.3 (below, measured with the
//!   former 58 features learned from 15 games of Pentobi level 7); the hand-set priors as
//!   probabilities had measured none.
//! - **Reward**: the rank value plus a share for the score margin.
//! - **Mirror guard**: in `trigon-2` the board is centrally symmetric, so the second player could
//!   answer every move with its point reflection and force a tie. While the position is symmetric
//!   (Yellow mirrors Blue, Green mirrors Red), the first player's priors strongly favour the
//!   placements that overlap their own reflection — only near the centre — which cannot be mirrored.

use super::{Cells, NO_PLACEMENT, PIECES, Trigon, TrigonMove, Variant, WORDS, nth};
use crate::rules::{Knowledge, MAX_PLAYERS, Outcome, Rng, random_index};

/// Pieces a colour places before the search looks at every size (`0..3`: size 6 only, `3..6`:
/// sizes 5 and 6).
const OPENING_PIECES: [u32; 2] = [3, 6];
/// Virtual simulations a prior is worth. Measured at level 2 in `trigon-2` (`triboard match`, 40
/// games each against weight 20): 8 won 57.5 %, 60 won 40 %.
const PRIOR_WEIGHT: f32 = 8.0;
/// The weight of the PUCT term ([`Knowledge::policy_weight`]), whose move probabilities are the
/// learned ones (`features.rs`). Against none (`triboard match`, `trigon-2`, 0.5 s a move, the
/// weights learned from 15 games of Pentobi level 7): 0.3 won 13–6–1 and 10–10 (58.8 % of 40);
/// 0.1 won 9–11, 1.0 lost 6–13–1. With the hand-set priors as probabilities instead, 0.5 had
/// drawn 10–10 and, with the local responses on both sides, 10–9–1.
const POLICY_WEIGHT: f32 = 0.3;
/// The weight of the mirror guard's prior: enough to outweigh hundreds of simulations.
const MIRROR_WEIGHT: f32 = 400.0;

impl Trigon {
    /// Pieces colour `c` has placed.
    pub(super) fn placed(&self, c: usize) -> u32 {
        PIECES as u32 - self.left[c].count_ones()
    }

    /// The colours playing against colour `c`.
    pub(super) fn opponents(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        let seat = self.player_of(c);
        (0..self.colours as usize).filter(move |&o| self.player_of(o) != seat)
    }

    /// The moves the search considers: in a colour's opening only its biggest pieces.
    pub(super) fn opening_moves(&self, out: &mut Vec<TrigonMove>) {
        use super::Game as _;
        self.legal_moves(out);
        let Some(c) = self.colour_to_move() else { return };
        let placed = self.placed(c);
        let min_size = if placed < OPENING_PIECES[0] {
            6
        } else if placed < OPENING_PIECES[1] {
            5
        } else {
            return;
        };
        let windows = &self.tables.windows;
        let big = |m: &TrigonMove| *m != TrigonMove::PASS && windows[m.0 as usize].size >= min_size;
        if out.iter().any(big) {
            out.retain(big);
        }
    }

    /// True in `trigon-2` when the position is its own point reflection with Blue↔Yellow and
    /// Red↔Green, and the first player (Blue or Red) is to move.
    fn mirrored(&self) -> bool {
        if self.options.variant != Variant::Two || self.ply < 2 {
            return false;
        }
        if !matches!(self.colour_to_move(), Some(0 | 2)) {
            return false;
        }
        let n = self.tables.board.cells();
        [(0, 1), (2, 3)].iter().all(|&(a, b)| reflect(&self.own[a], n) == self.own[b])
    }

    /// The attach points of the colours playing against colour `c`.
    pub(super) fn their_attach_points(&self, c: usize) -> Cells {
        let mut theirs = Cells::default();
        for o in self.opponents(c) {
            for w in 0..WORDS {
                theirs.0[w] |= self.corners[o].0[w] & !self.forbidden[o].0[w];
            }
        }
        theirs
    }

    /// The attach points the last placements of the colours playing against colour `c` created:
    /// the cells a local response answers.
    pub(super) fn answer_points(&self, c: usize) -> Cells {
        let mut local = Cells::default();
        for o in self.opponents(c) {
            let k = self.last[o];
            if k == NO_PLACEMENT {
                continue;
            }
            let s = &self.tables.stamps[k as usize];
            let s0 = s.word as usize;
            for i in 0..5 {
                local.0[s0 + i] |= s.corner[i] & !self.forbidden[o].0[s0 + i];
            }
        }
        local
    }

    /// The attach points colour `c` gains by placement `k`: cells touching it at a corner that are
    /// not yet the colour's attach points, not forbidden to it and not next to the placement's edges.
    pub(super) fn gained(&self, c: usize, k: usize) -> u32 {
        let (w, s) = (&self.tables.windows[k], &self.tables.stamps[k]);
        let (s0, w0) = (s.word as usize, w.word as usize);
        let mut gained = 0;
        for i in 0..5 {
            let mask = if (s0 + i).wrapping_sub(w0) < 3 { w.bits[s0 + i - w0] } else { 0 };
            let blocked = self.forbidden[c].0[s0 + i] | self.corners[c].0[s0 + i] | s.edge[i] | mask;
            gained += (s.corner[i] & !blocked).count_ones();
        }
        gained
    }

    /// The priors of `moves` (see the module doc), for the colour to move.
    pub(super) fn priors(&self, moves: &[TrigonMove], out: &mut Vec<(f32, f32)>) {
        out.clear();
        let Some(c) = self.colour_to_move() else {
            out.resize(moves.len(), (0.0, 0.0));
            return;
        };
        let t = self.tables;
        let theirs = self.their_attach_points(c);
        let opening = self.placed(c) < OPENING_PIECES[1];
        let mirrored = self.mirrored();
        for &mv in moves {
            if mv == TrigonMove::PASS {
                out.push((0.0, 0.0));
                continue;
            }
            let k = mv.0 as usize;
            let w = &t.windows[k];
            if mirrored && t.self_mirror[k] {
                out.push((1.0, MIRROR_WEIGHT));
                continue;
            }
            let gained = self.gained(c, k);
            let w0 = w.word as usize;
            let mut covered = 0;
            for i in 0..3 {
                covered += (w.bits[i] & theirs.0[w0 + i]).count_ones();
            }
            let mut value = 0.35 + 0.05 * w.size as f32 + 0.02 * gained.min(5) as f32 + 0.03 * covered.min(3) as f32;
            if opening {
                value += 0.1 * (1.0 - t.centre[k] as f32 / 255.0);
            }
            out.push((value.clamp(0.05, 0.95), PRIOR_WEIGHT));
        }
    }
}

/// Random cells of the local set a playout tries before it plays elsewhere.
const LOCAL_TRIES: usize = 3;

impl Trigon {
    /// The playout's local response (Pentobi's "local points", our own code): a placement of the
    /// colour to move that covers an attach point the opponents' last placements created, biggest
    /// pieces first; `None` if a few random draws find none (or it is the colour's first piece).
    pub(super) fn local_response(&self, rng: &mut Rng, buf: &mut Vec<TrigonMove>) -> Option<TrigonMove> {
        let c = self.turn as usize;
        if self.left[c] == (1 << PIECES) - 1 {
            return None;
        }
        let t = self.tables;
        let local = self.answer_points(c);
        let attach = self.corners[c].and_not(&self.forbidden[c]);
        let local = local.and(&attach).and_not(&self.dead[c]);
        let n = local.count() as usize;
        if n == 0 {
            return None;
        }
        for _ in 0..LOCAL_TRIES {
            let x = nth(&local, random_index(rng, n));
            let status = t.lists.status(x, &self.forbidden[c]);
            let pieces = t.lists.pieces(x, status) & self.left[c];
            let touch = if attach.contains(x) { None } else { Some(&attach) };
            if let Some(mv) = self.sample_at(rng, buf, x, status, pieces, true, touch) {
                return Some(mv);
            }
        }
        None
    }
}

/// The share of a playout's reward that is its score margin (the rest is the rank value). Against
/// rank alone, 0.15 won 62.5 % of 40 games at level 2 in `trigon-2`; 0.3 was no better (47.5 %).
const MARGIN_SHARE: f32 = 0.15;
/// The score margin (points) that earns the whole margin share.
const MARGIN_SCALE: f32 = 40.0;

impl Trigon {
    /// The search's reward: mostly the rank value, plus a share for the margin over the best other
    /// seat (`±MARGIN_SCALE` points and beyond map to 1 and 0).
    pub(super) fn margin_reward(&self, outcome: &Outcome) -> [f32; MAX_PLAYERS] {
        let n = outcome.num_players;
        let mut reward = [0.0; MAX_PLAYERS];
        for (i, r) in reward.iter_mut().enumerate().take(n) {
            let best_other = (0..n).filter(|&j| j != i).map(|j| outcome.scores[j]).max().unwrap_or(0);
            let margin = ((outcome.scores[i] - best_other) as f32 / MARGIN_SCALE).clamp(-1.0, 1.0);
            *r = (1.0 - MARGIN_SHARE) * outcome.ranks[i] + MARGIN_SHARE * (0.5 + 0.5 * margin);
        }
        reward
    }
}

/// The point reflection of a set of cells: cell `i` ↔ `n - 1 - i` (cells are numbered row by row
/// and the board is centrally symmetric).
pub fn reflect(set: &Cells, n: usize) -> Cells {
    let mut out = Cells::default();
    for i in set.iter() {
        out.insert(n - 1 - i);
    }
    out
}

/// The search knowledge of this module (`ai::Mcts` uses it).
impl Knowledge for Trigon {
    /// Marks the attach points of every colour where no placement fits any more (the cache of
    /// [`Game::random_move`](crate::rules::Game::random_move)), so playouts from here need not find them one by one.
    fn warm_up(&mut self) {
        let t = self.tables;
        for c in 0..self.colours as usize {
            if self.out[c] {
                continue;
            }
            let forbidden = self.forbidden[c];
            for x in self.live_targets(c).iter() {
                let status = t.lists.status(x, &forbidden);
                let (list, offsets) = t.lists.list(x, status);
                let mut pieces = t.lists.pieces(x, status) & self.left[c];
                let mut alive = false;
                while pieces != 0 && !alive {
                    let piece = pieces.trailing_zeros() as usize;
                    pieces &= pieces - 1;
                    let range = &list[offsets[piece] as usize..offsets[piece + 1] as usize];
                    alive = range.iter().any(|&k| !t.windows[k as usize].hits(&forbidden));
                }
                if !alive {
                    self.dead[c].insert(x);
                }
            }
        }
    }

    /// The playout policy: as [`Game::random_move`](crate::rules::Game::random_move), but the biggest pieces that fit at the drawn
    /// attach point first (the module doc).
    fn playout_move(&mut self, rng: &mut Rng, buf: &mut Vec<TrigonMove>) -> Option<TrigonMove> {
        if self.is_over() {
            return None;
        }
        Some(self.fast_random(rng, buf, true))
    }

    fn reward(&self, outcome: &Outcome) -> [f32; MAX_PLAYERS] {
        self.margin_reward(outcome)
    }

    fn search_moves(&self, out: &mut Vec<TrigonMove>) {
        self.opening_moves(out);
    }

    fn policy_weight(&self) -> f32 {
        POLICY_WEIGHT
    }

    fn move_priors(&self, moves: &[TrigonMove], out: &mut Vec<(f32, f32)>) {
        self.priors(moves, out);
    }

    /// The learned move logits (`features.rs`).
    fn move_logits(&self, moves: &[TrigonMove], out: &mut Vec<f32>) -> bool {
        out.clear();
        if self.colour_to_move().is_none() || moves.contains(&TrigonMove::PASS) {
            out.resize(moves.len(), 0.0);
            return true;
        }
        let mut active = Vec::with_capacity(moves.len());
        self.move_features(moves, &mut active);
        let w = super::features::weights();
        out.extend(active.iter().map(|a| w.logit(a)));
        true
    }
}
