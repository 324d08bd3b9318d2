//! Tri-It-Out's move features and their learned weights (`rules::features`): what a placement or
//! a capture does to the mixed triangles, the restricted locations and each side's safe
//! placements (`docs/rules/tri-it-out.md` §Definitions, §A turn). Every move has one active
//! feature per group of [`FEATURE_SET`]; a move's logit is their weights' sum.
//!
//! A *safe* placement forms no mixed triangle (its point does not complete a triangle with two
//! enemy counters): the turn ends with it. Counts are taken in the position after the move.
//!
//! **Data and fit** (`triboard learn tri-it-out DIR --holdout 0.2`): the built-in weights come from
//! 196 games of `hex-3-4` self-play at level 5 (`selfplay tri-it-out --a ai:5 --b ai:5 --seed 100
//! --record DIR`), 5,366 positions with a choice. On the last 39 games held out (1,034 positions):
//! log-likelihood −1.703 against −1.815 for a uniform choice (Tri-It-Out has no hand-set priors),
//! the most probable move played 31.8 % of the time — a small gain: in a misère game the features
//! of one move say little. (From the first 25 games: −1.654 against −1.757 on 130 positions.)
//!
//! **In the search** (`selfplay tri-it-out --a ai:6 --b ai:6 --seconds 0.2 --games 40`, A with
//! the weights as the PUCT term, B without): weight 0.5, **45–35** of 80 (seeds 1 and 2; 56 %;
//! with the first 25 games' weights 23–17); weight 1.5, 21–19; as prior-led selection
//! (`--a-config prior_exploration=0.87`, seed 5), 14–26. Under the 60 % bar: **not in
//! force** (Tri-It-Out's `policy_weight` stays 0), the weights kept for the next round of data.

use super::{TriItOut, TriItOutMove};
use crate::rules::features::{FeatureSet, WeightsCell};
use crate::rules::game::Game;

/// Tri-It-Out's feature groups and their buckets (a count's last bucket means "or more"):
/// - `kind`: a placement, a capture.
/// - `forms`: the enemy counters the placement makes capturable, 0–3+ (0 for a capture).
/// - `restricted-change`: restricted locations after less before, −3…+5 (−3 is bucket 0).
/// - `my-safe`, `their-safe`: the mover's and the enemy's safe placements after the move: 0, 1, 2,
///   3, 4–5, 6–8, 9–12, 13+.
/// - `their-unsafe`: free points where an enemy placement would form a mixed triangle, 0–4+.
/// - `own-near`, `enemy-near`: the move's point's neighbours holding the mover's counters and the
///   enemy's, 0–3+.
/// - `boundary`: the point is on the board's boundary.
/// - `phase-kind`: the share of points filled (quarters) × `kind`.
/// - `balance`: the mover's counters less the enemy's after the move, −3…+3.
/// - `ends`: the game goes on, ends won, ends lost.
pub static FEATURE_SET: FeatureSet = FeatureSet {
    game: "tri-it-out",
    groups: &[
        ("kind", 2),
        ("forms", 4),
        ("restricted-change", 9),
        ("my-safe", 8),
        ("their-safe", 8),
        ("their-unsafe", 5),
        ("own-near", 4),
        ("enemy-near", 4),
        ("boundary", 2),
        ("phase-kind", 8),
        ("balance", 7),
        ("ends", 3),
    ],
};

/// The built-in weights file, written by `triboard learn tri-it-out`.
pub const BUILTIN_WEIGHTS: &str = include_str!("weights.json");

/// The weights in force: the built-in file, or one given with `--weights FILE`.
pub static WEIGHTS: WeightsCell = WeightsCell::new(&FEATURE_SET, BUILTIN_WEIGHTS);

/// The bucket of a number of safe placements.
fn safe_bucket(n: u32) -> usize {
    match n {
        0..=3 => n as usize,
        4..=5 => 4,
        6..=8 => 5,
        9..=12 => 6,
        _ => 7,
    }
}

impl TriItOut {
    /// The active features of each of `moves` (legal here): clears `out` and pushes one index per
    /// group of [`FEATURE_SET`] per move, group by group (the module doc).
    ///
    /// # Panics
    /// If the game is over.
    pub fn move_feature_indices(&self, moves: &[TriItOutMove], out: &mut Vec<u16>) {
        assert!(!self.over, "features need a move to make");
        out.clear();
        let set = &FEATURE_SET;
        let me = self.mover as usize;
        let lattice = &self.tables.lattice;
        let restricted_before = self.restricted.count_ones() as i32;
        let filled = self.occupied().count_ones() as usize;
        let quarter = (filled * 4 / lattice.len).min(3);
        for &mv in moves {
            let mut after = self.clone();
            after.play_unchecked(mv);
            let (place, p) = match mv {
                TriItOutMove::Place(p) => (true, p as usize),
                TriItOutMove::Capture(p) => (false, p as usize),
            };
            let free = after.tables.lattice.all & !after.occupied() & !after.restricted;
            let my_safe = (free & !after.closes[1 - me]).count_ones();
            let their_safe = (free & !after.closes[me]).count_ones();
            let their_unsafe = (free & after.closes[me]).count_ones() as usize;
            let near = lattice.adjacent[p];
            let own = (near & after.counters[me]).count_ones() as usize;
            let enemy = (near & after.counters[1 - me]).count_ones() as usize;
            let forms = if place { after.capturable.count_ones() as usize } else { 0 };
            let change = after.restricted.count_ones() as i32 - restricted_before;
            let counts = after.counts();
            let balance = counts[me] as i32 - counts[1 - me] as i32;
            let ends = match after.outcome() {
                None => 0,
                Some(o) if o.ranks[me] > 0.5 => 1,
                Some(_) => 2,
            };
            out.extend([
                set.feature(0, !place as usize),
                set.feature(1, forms),
                set.feature(2, (change.clamp(-3, 5) + 3) as usize),
                set.feature(3, safe_bucket(my_safe)),
                set.feature(4, safe_bucket(their_safe)),
                set.feature(5, their_unsafe),
                set.feature(6, own),
                set.feature(7, enemy),
                set.feature(8, (lattice.boundary >> p & 1) as usize),
                set.feature(9, quarter * 2 + !place as usize),
                set.feature(10, (balance.clamp(-3, 3) + 3) as usize),
                set.feature(11, ends),
            ]);
        }
    }
}
