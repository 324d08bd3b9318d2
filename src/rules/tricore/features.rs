//! TriCore's move features and their learned weights (`rules::features`): what a placement, a
//! drive or a climb does to each player's best group and the Cores it reaches
//! (`docs/rules/tricore.md` §Phase 1–3, §Result). Every move has one active feature per group of
//! [`FEATURE_SET`]; a move's logit is their weights' sum.
//!
//! Counts compare the position after the move with the one before it; "reach" is the number of
//! Cores a player's best group is connected to, "group" its number of discs.
//!
//! **Data and fit** (`triboard learn tricore DIR --holdout 0.2`): the built-in weights come from 67
//! games of self-play at 0.15 s a move (`selfplay tricore --a ai:6 --b ai:6 --seconds 0.15 --seed
//! 100 --record DIR`), 6,338 positions with a choice. On the last 13 games held out (1,242
//! positions): log-likelihood −2.240 against −3.049 for the hand-set priors (`knowledge.rs`) and
//! −2.450 for a uniform choice; the most probable move played 18.9 % of the time (the hand-set
//! priors 13.6 %).
//!
//! **In the search** (`selfplay tricore --a ai:6 --b ai:6 --seconds 0.15 --games 40`, A with the
//! weights as the PUCT term on top of the hand-set priors, B without): weight 0.5 with the first 30
//! games' weights, 17–17 (6 shared); weight 0.15 with these, 18–15 (7 shared). **Not in force**
//! (TriCore's `policy_weight` stays 0).

use super::{Phase, TriCore, TriCoreMove};
use crate::rules::features::{FeatureSet, WeightsCell};
use crate::rules::game::Game;

/// TriCore's feature groups and their buckets (a count's last bucket means "or more"):
/// - `kind`: a Core, a Ring, a drive, a climb, `end`.
/// - `my-reach`: the mover's reach after the move, 0–3.
/// - `my-reach-change`: −1…+2 (−1 is bucket 0); `their-reach-change`: −2…+1.
/// - `my-group-change`: −2…+3; `their-group-change`: −3…+2.
/// - `point-cores`: Cores next to the move's point (the Core's or Ring's point, the drive's disc,
///   the climb's target), 0–2+.
/// - `covers`: the climb covers an opponent's disc.
/// - `dest-cores`: Cores next to where the drive leaves its Ring, 0–2+.
/// - `rings`: Rings on the board after the move, 0–3.
/// - `phase-kind`: the mover's discs placed (quarters of 24) × `kind`.
/// - `lead`: the mover's reach less the opponent's after the move, −2…+2.
pub static FEATURE_SET: FeatureSet = FeatureSet {
    game: "tricore",
    groups: &[
        ("kind", 5),
        ("my-reach", 4),
        ("my-reach-change", 4),
        ("their-reach-change", 4),
        ("my-group-change", 6),
        ("their-group-change", 6),
        ("point-cores", 3),
        ("covers", 2),
        ("dest-cores", 3),
        ("rings", 4),
        ("phase-kind", 20),
        ("lead", 5),
    ],
};

/// The built-in weights file, written by `triboard learn tricore`.
pub const BUILTIN_WEIGHTS: &str = include_str!("weights.json");

/// The weights in force: the built-in file, or one given with `--weights FILE`.
pub static WEIGHTS: WeightsCell = WeightsCell::new(&FEATURE_SET, BUILTIN_WEIGHTS);

impl TriCore {
    /// The active features of each of `moves` (legal here): clears `out` and pushes one index per
    /// group of [`FEATURE_SET`] per move, group by group (the module doc).
    ///
    /// # Panics
    /// If the game is over.
    pub fn move_feature_indices(&self, moves: &[TriCoreMove], out: &mut Vec<u16>) {
        assert!(self.phase() != Phase::Over, "features need a move to make");
        out.clear();
        let set = &FEATURE_SET;
        let me = self.mover as usize;
        let value = |g: &TriCore, player: usize| {
            let (group, reached) = g.best_group(player);
            (reached.count_ones() as i32, group.count_ones() as i32)
        };
        let (mine, theirs) = (value(self, me), value(self, 1 - me));
        let cores = self.cores();
        let adjacent = &self.lattice().adjacent;
        let cores_near = |p: u8| (adjacent[p as usize] & cores).count_ones() as usize;
        let quarter = ((24 - self.discs_left(me) as usize) * 4 / 24).min(3);
        for &mv in moves {
            let mut after = self.clone();
            after.play_unchecked(mv);
            let (kind, point, dest, covers) = match mv {
                TriCoreMove::Core(p) => (0, cores_near(p), 0, false),
                TriCoreMove::Ring(p) => (1, cores_near(p), 0, false),
                TriCoreMove::Drive { ring, to } => (2, cores_near(ring), cores_near(to), false),
                TriCoreMove::Climb { to, .. } => (3, cores_near(to), 0, self.top(to as usize) == Some(1 - me as u8)),
                TriCoreMove::End => (4, 0, 0, false),
            };
            let (m, t) = (value(&after, me), value(&after, 1 - me));
            out.extend([
                set.feature(0, kind),
                set.feature(1, m.0 as usize),
                set.feature(2, ((m.0 - mine.0).clamp(-1, 2) + 1) as usize),
                set.feature(3, ((t.0 - theirs.0).clamp(-2, 1) + 2) as usize),
                set.feature(4, ((m.1 - mine.1).clamp(-2, 3) + 2) as usize),
                set.feature(5, ((t.1 - theirs.1).clamp(-3, 2) + 3) as usize),
                set.feature(6, point),
                set.feature(7, covers as usize),
                set.feature(8, dest),
                set.feature(9, after.rings().count_ones() as usize),
                set.feature(10, quarter * 5 + kind),
                set.feature(11, ((m.0 - t.0).clamp(-2, 2) + 2) as usize),
            ]);
        }
    }
}
