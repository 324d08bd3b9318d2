//! TriCore search knowledge, each piece measured against uniform playouts in self-play:
//! - a playout policy that plays the obvious tactic — covering an opponent's active disc, next to a
//!   Core when it can — whenever it can ([`TriCore::policy_move`]);
//! - priors that make the search try the same covering climbs first ([`TriCore::priors`]);
//! - a reward that counts the margin by which a playout is won beside its rank
//!   ([`TriCore::margin_reward`]).
//!
//! Only the search uses it (`impl Knowledge for TriCore`: [`Knowledge::playout_move`],
//! [`Knowledge::move_priors`], [`Knowledge::reward`]); the rules never do.
//!
//! Measured with `triboard selfplay tricore --plain b` (2 threads, the levels' simulation budgets),
//! knowledge at level 2 against uniform playouts (no knowledge):
//! - the playout policy alone (covering climbs, any target), at level 2: 100 – 0 (100 games, seed 1);
//!   at level 3 (four times the simulations): 77 – 17, 80.0 % (95 % interval 71–87 %; 100 games,
//!   seed 3). Without the covering climbs it falls to 25.8 % (60 games at level 3); ending at once
//!   half the time otherwise ([`END_OTHERWISE`]) is worth a few points (74.2 % with 0); preferring
//!   Rings next to a Core in drives changed nothing, so drives stay uniform.
//! - each addition on its own, at level 3 (100 games, seed 3): priors 92.0 %, covering next to a
//!   Core first 87.0 %, the margin reward 88.5 %;
//! - all together, at level 3: 93 – 5, 94.0 % (87.5–97.2 %; the same 100 games as the policy's
//!   80.0 %); but at level 4 (16 times the simulations, 100 games, seed 4) 70 – 28, 71.0 %, against
//!   69.0 % for the policy alone: the additions help the weaker opponent's games measurably, the
//!   stronger one's not. A direct match of the two would settle it.

use super::{BLACK, Phase, Slots, TriCore, TriCoreMove, around, shift};
use crate::rules::features::WeightsCell;
use crate::rules::game::{Game, MAX_PLAYERS, Outcome, Rng, random_index};
use crate::rules::knowledge::Knowledge;

/// Without a covering climb, how often (in 1/256) the policy ends the turn at once rather than
/// choosing uniformly among the climbs and `end` (uniform choice ends rarely: one of many).
const END_OTHERWISE: u64 = 128;
/// Virtual simulations a climb's prior weighs.
const PRIOR_WEIGHT: f32 = 10.0;
/// The prior value of a covering climb (see [`TriCore::covering_climb`]) and of any other climb;
/// `end` and drives get none.
const PRIOR_COVERING: f32 = 1.0;
const PRIOR_OTHER_CLIMB: f32 = 0.3;
/// The share of a playout's reward that is its margin rather than its rank.
const MARGIN_SHARE: f32 = 0.15;

impl TriCore {
    /// The playout policy's move: drives and placements as [`Game::random_move`]; in the climb step
    /// a uniformly chosen covering climb if there is one (see [`TriCore::covering_climb`]), else
    /// `end` half the time and a uniform climb-or-`end` otherwise. `None` once the game is over.
    pub(super) fn policy_move(&mut self, rng: &mut Rng, buf: &mut Vec<TriCoreMove>) -> Option<TriCoreMove> {
        if self.phase() != Phase::Climb {
            return self.random_move(rng, buf);
        }
        if let Some(climb) = self.covering_climb(rng) {
            return Some(climb);
        }
        if chance(rng, END_OTHERWISE) {
            return Some(TriCoreMove::End);
        }
        Some(self.random_climb_or_end(rng))
    }

    /// The mover's covering climbs by height: the sources (single discs, and stacks of 2 on one of
    /// the mover's discs, so that nothing of the opponent's is uncovered) and the targets (the
    /// opponent's active discs).
    fn covering(&self) -> ([Slots; 2], [Slots; 2]) {
        let c = self.mover as usize;
        let opponent = self.top[1 - c];
        let own_bottom = if c == BLACK as usize { !self.white[0] } else { self.white[0] };
        (
            [self.climb_sources(1), self.climb_sources(2) & own_bottom],
            [self.climb_onto(1) & opponent, self.climb_onto(2) & opponent],
        )
    }

    /// A uniformly chosen covering climb of the mover (see [`TriCore::covering`]), among those onto
    /// a disc next to a Core if there are such; `None` if there is none.
    fn covering_climb(&self, rng: &mut Rng) -> Option<TriCoreMove> {
        let t = self.t;
        let (sources, targets) = self.covering();
        let near_cores = around(self.cores, t.all);
        // `pairs[d]`: the sources whose neighbour in direction d is a target; first only targets
        // next to a Core, then any.
        let mut pairs = [0 as Slots; 6];
        let mut total = 0;
        for near in [near_cores, t.all] {
            for (d, pair) in pairs.iter_mut().enumerate() {
                let back = (d + 3) % 6;
                *pair = sources[0] & shift(targets[0] & near, back, t.all)
                    | sources[1] & shift(targets[1] & near, back, t.all);
                total += pair.count_ones() as usize;
            }
            if total > 0 {
                break;
            }
        }
        if total == 0 {
            return None;
        }
        let mut k = random_index(rng, total);
        for (d, &pair) in pairs.iter().enumerate() {
            let n = pair.count_ones() as usize;
            if k < n {
                let s = super::nth_slot(pair, k);
                let to = (s as i32 + super::STEP[d]) as usize;
                return Some(TriCoreMove::Climb { from: t.point[s], to: t.point[to] });
            }
            k -= n;
        }
        unreachable!("the count and the climbs agree")
    }

    /// The search's priors (see [`Knowledge::move_priors`]): in the climb step, [`PRIOR_COVERING`] for a
    /// covering climb and [`PRIOR_OTHER_CLIMB`] for any other, each weighing [`PRIOR_WEIGHT`]
    /// simulations; none for `end` and for the other phases' moves.
    pub(super) fn priors(&self, moves: &[TriCoreMove], out: &mut Vec<(f32, f32)>) {
        out.clear();
        if self.phase() != Phase::Climb {
            out.resize(moves.len(), (0.0, 0.0));
            return;
        }
        let (sources, targets) = self.covering();
        let t = self.t;
        out.extend(moves.iter().map(|&m| match m {
            TriCoreMove::Climb { from, to } => {
                let (f, to) = (t.slot[from as usize] as usize, t.slot[to as usize] as usize);
                let h = self.height_at(f) as usize - 1;
                let covering = sources[h] >> f & 1 != 0 && targets[h] >> to & 1 != 0;
                (if covering { PRIOR_COVERING } else { PRIOR_OTHER_CLIMB }, PRIOR_WEIGHT)
            }
            _ => (0.0, 0.0),
        }));
    }

    /// A finished playout's reward per seat: `1 - MARGIN_SHARE` of its rank and [`MARGIN_SHARE`]
    /// of its margin, the difference of the best groups' Cores plus a sixteenth of their sizes'
    /// difference, over 3 and clamped to ±1, mapped to `[0, 1]`.
    pub(super) fn margin_reward(&self, outcome: &Outcome) -> [f32; MAX_PLAYERS] {
        let value = |player: usize| {
            let (group, reached) = self.best_group_slots(player);
            reached.count_ones() as f32 + group.count_ones() as f32 / 16.0
        };
        let (black, white) = (value(0), value(1));
        let mut reward = outcome.ranks;
        for (player, margin) in [(0, black - white), (1, white - black)] {
            let margin = (margin / 3.0).clamp(-1.0, 1.0);
            reward[player] = (1.0 - MARGIN_SHARE) * outcome.ranks[player] + MARGIN_SHARE * (0.5 + 0.5 * margin);
        }
        reward
    }
}

/// True with probability `p / 256`.
#[inline(always)]
fn chance(rng: &mut Rng, p: u64) -> bool {
    use rand::RngCore as _;
    rng.next_u64() >> 56 < p
}

/// The search knowledge of this module (`ai::Mcts` uses it).
impl Knowledge for TriCore {
    /// The playout policy of this module: a climb onto an opponent's active disc whenever there is
    /// one, else `end` more often than uniform play; drives as [`Game::random_move`].
    fn playout_move(&mut self, rng: &mut Rng, buf: &mut Vec<TriCoreMove>) -> Option<TriCoreMove> {
        self.policy_move(rng, buf)
    }

    /// The priors of this module: climbs onto an opponent's active disc first.
    fn move_priors(&self, moves: &[TriCoreMove], out: &mut Vec<(f32, f32)>) {
        self.priors(moves, out);
    }

    /// The rank, and 15 % the margin of the best groups (this module).
    fn reward(&self, outcome: &Outcome) -> [f32; MAX_PLAYERS] {
        self.margin_reward(outcome)
    }

    fn feature_weights() -> Option<&'static WeightsCell> {
        Some(&super::features::WEIGHTS)
    }

    fn move_features(&self, moves: &[TriCoreMove], out: &mut Vec<u16>) {
        self.move_feature_indices(moves, out);
    }
}
