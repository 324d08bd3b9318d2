//! Tri-It-Out's search knowledge ([`Knowledge`]): its playout policy and learned move features.

use super::features;
use super::{Lattice, TriItOut, TriItOutMove, random_point};
use crate::rules::features::WeightsCell;
use crate::rules::game::{Game, Rng};
use crate::rules::knowledge::Knowledge;

/// The search knowledge of Tri-It-Out: its playout policy (the neutral defaults otherwise).
impl Knowledge for TriItOut {
    /// Playout knowledge (`docs/rules/tri-it-out.md` §A turn, misère): a placement that forms a mixed
    /// triangle costs its mover a counter and gives the enemy one fewer, so playouts place where no
    /// mixed triangle forms whenever such a point is free, uniformly among those, else uniformly
    /// among all. A capture is chosen uniformly among those after which the mover has such a point
    /// for the placement that must follow (so the turn can end), else among all.
    ///
    /// Measured with `triboard selfplay tri-it-out --a ai:L --b ai:L --plain b` on hex-3-4 (A with
    /// this knowledge, B with random playouts; seats alternate): level 2, 300 games, seed 7: safe
    /// placements alone 65.7 %, with the capture choice 75.3 %; seed 0: 72.7 %; level 3, 200 games:
    /// 84.5 % (A as Red wins 69 of 100, B as Red 0 of 100 — Blue, second, wins every game without
    /// captures). Priors against mixed-triangle placements (value 0.1 over 10 or 40 simulations)
    /// and a 15 % share of the count margin in the reward did not measurably help and are left out.
    fn playout_move(&mut self, rng: &mut Rng, _buf: &mut Vec<TriItOutMove>) -> Option<TriItOutMove> {
        if self.over {
            return None;
        }
        let me = self.mover as usize;
        if self.capturable != 0 {
            let mut keeps_safe = 0u64;
            if self.capturable & (self.capturable - 1) != 0 {
                for c in Lattice::iter(self.capturable) {
                    let mut next = self.clone();
                    next.play_unchecked(TriItOutMove::Capture(c as u8));
                    if next.free() & !next.closes[1 - me] != 0 {
                        keeps_safe |= 1 << c;
                    }
                }
            }
            let choice = if keeps_safe != 0 { keeps_safe } else { self.capturable };
            return Some(TriItOutMove::Capture(random_point(rng, choice)));
        }
        let free = self.free();
        let safe = free & !self.closes[1 - me];
        Some(TriItOutMove::Place(random_point(rng, if safe != 0 { safe } else { free })))
    }

    fn feature_weights() -> Option<&'static WeightsCell> {
        Some(&features::WEIGHTS)
    }

    fn move_features(&self, moves: &[TriItOutMove], out: &mut Vec<u16>) {
        self.move_feature_indices(moves, out);
    }
}
