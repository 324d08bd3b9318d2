//! What the search knows of Blokus Trigon beyond the rules: the move probabilities that lead the
//! search, the opening schedule (`schedule.rs`), the playout policy (`playout.rs`), the reward and
//! the guard against the mirror strategy of the two-player game (`docs/rules/trigon.md`
//! §Variants). Pentobi's kind of knowledge (its ideas and published numbers; our code, tables and
//! weights). Every step was screened with `triboard match`, `trigon-2`, 0.5 s a move, 40 games
//! against the build before it, seats rotated (kept at ≥ 60 %):
//!
//! - **Prior-led selection** (`ai::tree`, [`Knowledge::prior_exploration`]): the softmax of the
//!   learned move features (`features.rs`) is the move probability `P` of the exploration term
//!   `c·P·√N·ln(N+1)/(n+3)`, and a new child starts at the mover's running mean times
//!   `√(γ/γmax)`. Against the former search (UCT + RAVE with hand-set priors as 8 AMAF visits
//!   and a PUCT term of weight 0.3): **31–9** (77.5 %, 95 % interval 62–88 %).
//! - **The opening schedule** (`schedule.rs`): pieces by round, one starting point, moves near the
//!   centre while ≤ 3 pieces are on the board, in tree and playouts. Against a colour's first three
//!   pieces of size 6 and next three of size ≥ 5 (tree only): **25–15** (62.5 %).
//! - **Playouts** (`playout.rs`): the local response, then the biggest piece that fits with strict
//!   size classes: **26–13–1** against the former policy.
//! - **Reward**: see [`Trigon::quality_reward`].
//! - **Mirror guard**: in `trigon-2` the board is centrally symmetric, so the second player could
//!   answer every move with its point reflection and force a tie. While the position is symmetric
//!   (Yellow mirrors Blue, Green mirrors Red), the first player's logits (and, under UCT, priors)
//!   strongly favour the placements that overlap their own reflection — only near the centre —
//!   which cannot be mirrored.
//! - The hand-set **priors** (bigger pieces, attach points gained, the opponents' taken, the centre
//!   early) and the PUCT weight remain for the UCT + RAVE search (`--config prior_exploration=0`).
//!   Earlier measurements: priors' weight 8 against 20 at level 2, 57.5 % of 40; PUCT weight 0.3
//!   against none, 58.8 % of 40; the local response against none, 12–8.

use super::{Cells, NO_PLACEMENT, PIECES, Trigon, TrigonMove, Variant, WORDS};
use crate::rules::{Knowledge, MAX_PLAYERS, Outcome, RewardStats, Rng};

/// Pieces a colour places before its priors stop favouring the centre.
const CENTRE_PRIOR_PIECES: u32 = 6;
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
/// The mirror guard under prior-led selection: added to the logit of a placement that overlaps
/// its own reflection while the position is symmetric (γ × e⁵ ≈ 150).
const MIRROR_LOGIT: f32 = 5.0;
/// Prior-led selection's exploration constant ([`Knowledge::prior_exploration`]).
const PRIOR_EXPLORATION: f32 = 0.87;
/// The temperature the learned logits are divided by before they become γ.
const PRIOR_TEMPERATURE: f32 = 1.0;

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
        let opening = self.placed(c) < CENTRE_PRIOR_PIECES;
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

/// The quality bonuses of the reward (Pentobi's weights; Pepels et al. 2014), each times a
/// sigmoid in `(-1, 1)` of the playout's z-score against the search's running statistics: the
/// score margin (more is better), the game's length in plies (for a winner shorter is better, for
/// a loser longer), and in `trigon-2` the difference of free attach points.
const SCORE_BONUS: f32 = 0.3;
const LENGTH_BONUS: f32 = 0.12;
const ATTACH_BONUS: f32 = 0.1;
/// The most the bonuses add or take.
const BONUS_RANGE: f32 = SCORE_BONUS + LENGTH_BONUS / 2.0 + ATTACH_BONUS;
/// The reward is `(1 - 2·BONUS_SHARE)·result + BONUS_SHARE·(1 + bonus / BONUS_RANGE)`: a win in
/// `[0.8, 1]`, a loss in `[0, 0.2]`. Mapping `result + bonus` whole onto `[0, 1]` (Pentobi's sum,
/// a win then in `[0.54, 1]`) compressed the values against the exploration term and lost 17–22
/// to the old clamped margin (halving the bonuses in it, 6–20).
const BONUS_SHARE: f32 = 0.1;
/// Slots of [`RewardStats`]: the length, the attach point difference, then each seat's margin.
const LENGTH_SLOT: usize = 0;
const ATTACH_SLOT: usize = 1;
const MARGIN_SLOT: usize = 2;

/// `2 / (1 + e^(-2x)) - 1`: a sigmoid from -1 to 1.
fn sigmoid(x: f64) -> f32 {
    (2.0 / (1.0 + (-2.0 * x).exp()) - 1.0) as f32
}

impl Trigon {
    /// The search's reward (see the constants): the rank value (1 a win, ½ a tie, 0 a loss) plus
    /// the quality bonuses, scaled into `[0, 1]`. Updates `stats`.
    pub(super) fn quality_reward(&self, outcome: &Outcome, stats: &mut RewardStats) -> [f32; MAX_PLAYERS] {
        let n = outcome.num_players;
        let stats = &mut stats.0;
        let length = self.ply as f64;
        stats[LENGTH_SLOT].add(length);
        let z_length = stats[LENGTH_SLOT].z(length);
        let attach = if self.options.variant == Variant::Two {
            let free = |c: usize| self.corners[c].and_not(&self.forbidden[c]).count() as f64;
            let d = free(0) + free(2) - free(1) - free(3);
            stats[ATTACH_SLOT].add(d);
            Some(stats[ATTACH_SLOT].z(d))
        } else {
            None
        };
        let mut reward = [0.0; MAX_PLAYERS];
        for (i, r) in reward.iter_mut().enumerate().take(n) {
            let best_other = (0..n).filter(|&j| j != i).map(|j| outcome.scores[j]).max().unwrap_or(0);
            let margin = (outcome.scores[i] - best_other) as f64;
            let slot = &mut stats[(MARGIN_SLOT + i).min(7)];
            slot.add(margin);
            let result = outcome.ranks[i];
            let mut bonus = SCORE_BONUS * sigmoid(slot.z(margin)) - LENGTH_BONUS * (result - 0.5) * sigmoid(z_length);
            if let Some(z) = attach {
                bonus += ATTACH_BONUS * sigmoid(if i == 0 { z } else { -z });
            }
            *r = ((1.0 - 2.0 * BONUS_SHARE) * result + BONUS_SHARE * (1.0 + bonus / BONUS_RANGE)).clamp(0.0, 1.0);
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
    /// [`Game::random_move`](crate::rules::Game::random_move)), and where no piece of size 6 or 5
    /// does (the playout policy's), so playouts from here need not find them one by one.
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
                let pieces = t.lists.pieces(x, status) & self.left[c];
                let fits = |set: u32| {
                    let mut set = set;
                    let mut alive = false;
                    while set != 0 && !alive {
                        let piece = set.trailing_zeros() as usize;
                        set &= set - 1;
                        let range = &list[offsets[piece] as usize..offsets[piece + 1] as usize];
                        alive = range.iter().any(|&k| !t.windows[k as usize].hits(&forbidden));
                    }
                    alive
                };
                if !fits(pieces) {
                    self.dead[c].insert(x);
                    continue;
                }
                for (i, size) in [6, 5].into_iter().enumerate() {
                    if !fits(pieces & t.by_size[size]) {
                        self.no_fit[c][i].insert(x);
                    }
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
        Some(self.policy_move(rng, buf))
    }

    /// The quality reward without statistics: the rank value scaled as the search's.
    fn reward(&self, outcome: &Outcome) -> [f32; MAX_PLAYERS] {
        self.quality_reward(outcome, &mut RewardStats::default())
    }

    fn reward_with(&self, outcome: &Outcome, stats: &mut RewardStats) -> [f32; MAX_PLAYERS] {
        if exp("oldreward") {
            let n = outcome.num_players;
            let mut reward = [0.0; MAX_PLAYERS];
            for (i, r) in reward.iter_mut().enumerate().take(n) {
                let best_other = (0..n).filter(|&j| j != i).map(|j| outcome.scores[j]).max().unwrap_or(0);
                let margin = ((outcome.scores[i] - best_other) as f32 / 40.0).clamp(-1.0, 1.0);
                *r = 0.85 * outcome.ranks[i] + 0.15 * (0.5 + 0.5 * margin);
            }
            return reward;
        }
        self.quality_reward(outcome, stats)
    }

    fn search_moves(&self, out: &mut Vec<TrigonMove>) {
        self.schedule_moves(out);
    }

    fn policy_weight(&self) -> f32 {
        POLICY_WEIGHT
    }

    fn prior_exploration(&self) -> Option<f32> {
        Some(PRIOR_EXPLORATION)
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
        out.extend(active.iter().map(|a| w.logit(a) / PRIOR_TEMPERATURE));
        if self.mirrored() {
            let t = self.tables;
            for (l, mv) in out.iter_mut().zip(moves) {
                if t.self_mirror[mv.0 as usize] {
                    *l += MIRROR_LOGIT;
                }
            }
        }
        true
    }
}

/// EXPERIMENT TOGGLES (not to be committed).
pub fn exp(name: &str) -> bool {
    static E: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    E.get_or_init(|| std::env::var("TRIBOARD_EXP").unwrap_or_default()).split(',').any(|s| s == name)
}
