//! Trike's search knowledge ([`Knowledge`]): its learned move features as the search's move
//! probabilities.

use super::features;
use super::{Trike, TrikeMove};
use crate::rules::features::WeightsCell;
use crate::rules::knowledge::Knowledge;

/// Trike's search knowledge: learned move features (`features.rs`) as the move probabilities of
/// the search; uniform playouts ([`Game::random_move`]), no pruning, the rank as reward.
impl Knowledge for Trike {
    /// The learned move probabilities as the PUCT term (`ai::SearchConfig::policy_weight`).
    fn policy_weight(&self) -> f32 {
        POLICY_WEIGHT
    }

    fn feature_weights() -> Option<&'static WeightsCell> {
        Some(&features::WEIGHTS)
    }

    fn move_features(&self, moves: &[TrikeMove], out: &mut Vec<u16>) {
        self.move_feature_indices(moves, out);
    }
}

/// The weight of the PUCT term that carries the learned move probabilities (`features.rs` has the
/// screens that set it).
const POLICY_WEIGHT: f32 = 0.5;
