//! TriCore playout knowledge: a playout policy that plays the obvious tactic — covering an
//! opponent's active disc — whenever it can, measured against uniform playouts in self-play.
//!
//! Only the search uses it ([`crate::rules::Game::playout_move`]); the rules never do.
//!
//! Measured with `triboard selfplay tricore --plain b` (60 or 100 games, 2 threads, levels' simulation
//! budgets), the policy at level 2 against uniform playouts:
//! - at level 2: 100 – 0 (100 games, seed 1);
//! - at level 3 (four times the simulations): 49 – 11, 81.7 % (95 % interval 70–89 %; seed 2).
//!
//! Variants against uniform playouts at level 3, same 60 games: without the covering climbs
//! 25.8 %; never ending at once otherwise ([`END_OTHERWISE`] 0) 74.2 %; always ending 80.0 %; a
//! drive preferring a Ring next to a Core (3 in 4) changed nothing (81.7 %), so drives stay uniform.

use super::{BLACK, Phase, Slots, TriCore, TriCoreMove, shift};
use crate::rules::{Game, Rng, random_index};

/// Without a covering climb, how often (in 1/256) the policy ends the turn at once rather than
/// choosing uniformly among the climbs and `end` (uniform choice ends rarely: one of many).
const END_OTHERWISE: u64 = 128;

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

    /// A uniformly chosen climb of the mover onto an opponent's active disc that uncovers none of
    /// the opponent's (the source is a single disc, or stands on one of the mover's), if any.
    fn covering_climb(&self, rng: &mut Rng) -> Option<TriCoreMove> {
        let t = self.t;
        let c = self.mover as usize;
        let opponent = self.top[1 - c];
        let own_bottom = if c == BLACK as usize { !self.white[0] } else { self.white[0] };
        let (s1, s2) = (self.climb_sources(1), self.climb_sources(2) & own_bottom);
        let (t1, t2) = (self.climb_onto(1) & opponent, self.climb_onto(2) & opponent);
        // `pairs[d]`: the sources whose neighbour in direction d is such a target.
        let mut pairs = [0 as Slots; 6];
        let mut total = 0;
        for (d, pair) in pairs.iter_mut().enumerate() {
            let back = (d + 3) % 6;
            *pair = s1 & shift(t1, back, t.all) | s2 & shift(t2, back, t.all);
            total += pair.count_ones() as usize;
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
}

/// True with probability `p / 256`.
#[inline(always)]
fn chance(rng: &mut Rng, p: u64) -> bool {
    use rand::RngCore as _;
    rng.next_u64() >> 56 < p
}
