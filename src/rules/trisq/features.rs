//! Trisq's move features and their learned weights (`rules::features`): where a placement lies on
//! each player's shortest chain, what it touches, whether it answers the opponent's last turn or
//! wins (`docs/rules/trisq.md` §Play, §End). Every move has one active feature per group of
//! [`FEATURE_SET`]; a move's logit is their weights' sum.
//!
//! *Slack* is how many pieces more than the fewest a chain between a player's edges needs if it
//! must use the slot (0: the slot is on a shortest chain; `knowledge.rs`).
//!
//! **Data and fit** (`triboard learn trisq DIR --holdout 0.2`): the built-in weights come from 95
//! games of 8 × 8 self-play at 0.15 s a move (`selfplay trisq --a ai:6 --b ai:6 --seconds 0.15
//! --seed 100 --record DIR`; at level 5 a game took minutes here), 6,388 positions with a choice.
//! On the last 19 games held out (1,329 positions): log-likelihood −2.522 against −4.394 for the
//! hand-set priors (`knowledge.rs`, their values as the PUCT softmax) and −5.687 for a uniform
//! choice; the most probable move played 39.3 % of the time (the hand-set priors 4.7 %: their
//! values tie across many moves).
//!
//! **In the search** (`selfplay trisq --a ai:6 --b ai:6 --seconds 0.15 --games 40`, A with the
//! weights as the PUCT term on top of the hand-set priors and the shortest-chain pruning, B
//! without): weight 0.5 with the first 43 games' weights, 18–22; weight 0.15 with these, 22–18 —
//! not kept: on top of the hand-set priors the PUCT term adds little.
//!
//! **As prior-led selection** (`--a-config prior_exploration=C`, 0.2 s a move: the learned
//! probabilities replace UCT + RAVE and the hand-set priors; the shortest-chain pruning stays):
//! c = 0.87 won **23–17** (seed 5) and **28–12** (seed 6), 51–29 of 80 (63.8 %, 95 % interval
//! 52.8–73.4 %); c = 1.5 lost 15–25. In force with c = 0.87 (`knowledge.rs`). The ladder after it
//! (`selfplay trisq --a ai:L+1 --b ai:L --games 40 --seed 2026`): 2 v 1 26–14 (65 %), 3 v 2 32–8
//! (80 %). At 1 s a move, one thread each, against the search without them
//! (`selfplay trisq --a ai:6 --b ai:6 --seconds 1 --games 50 --seed 11|12 --b-config
//! prior_exploration=0`): **75 of 100** (95 % interval 65.7–82.5 %).

use super::tactics::MAX_ANSWERS;
use super::{Trisq, TrisqMove, own_edges};
use crate::rules::features::{FeatureSet, WeightsCell};

/// Trisq's feature groups and their buckets (a count's last bucket means "or more"):
/// - `kind`: the turn's first piece, its second, `end`.
/// - `my-slack`, `their-slack`: the slot's slack for the mover and for the opponent, 0–3+, or no
///   chain through it (bucket 4; `end` too).
/// - `own-near`, `their-near`: edge-adjacent pieces of the mover's and of the opponent's, 0–3+.
/// - `answer`: the slot saves a bridge or an edge template the opponent's last turn threatened.
/// - `own-edge`, `their-edge`: the piece touches one of the mover's edges, of the opponent's.
/// - `wins`: the piece completes the mover's chain.
/// - `phase-kind`: pieces on the board (0–3, 4–9, 10–19, 20+) × `kind`.
/// - `slot-colour`: the slot's place in its square (0–7: filling H, then V) × the mover's colour.
pub static FEATURE_SET: FeatureSet = FeatureSet {
    game: "trisq",
    groups: &[
        ("kind", 3),
        ("my-slack", 5),
        ("their-slack", 5),
        ("own-near", 4),
        ("their-near", 4),
        ("answer", 2),
        ("own-edge", 2),
        ("their-edge", 2),
        ("wins", 2),
        ("phase-kind", 12),
        ("slot-colour", 16),
    ],
};

/// The built-in weights file, written by `triboard learn trisq`.
pub const BUILTIN_WEIGHTS: &str = include_str!("weights.json");

/// The weights in force: the built-in file, or one given with `--weights FILE`.
pub static WEIGHTS: WeightsCell = WeightsCell::new(&FEATURE_SET, BUILTIN_WEIGHTS);

/// The bucket of a slack.
fn slack_bucket(slack: u8) -> usize {
    if slack == u8::MAX { 4 } else { slack.min(3) as usize }
}

impl Trisq {
    /// The active features of each of `moves` (legal here): clears `out` and pushes one index per
    /// group of [`FEATURE_SET`] per move, group by group (the module doc).
    ///
    /// # Panics
    /// If the game is over.
    pub fn move_feature_indices(&self, moves: &[TrisqMove], out: &mut Vec<u16>) {
        assert!(self.winner.is_none(), "features need a move to make");
        out.clear();
        let set = &FEATURE_SET;
        let c = self.mover as usize;
        let (mine, theirs) = (self.path_slack(c), self.path_slack(c ^ 1));
        let mut answers = [0u16; MAX_ANSWERS];
        let n = if self.pending == 0 { self.answers(&mut answers) } else { 0 };
        let answers = &answers[..n];
        let pieces = (self.own[0].count() + self.own[1].count()) as usize;
        let phase = match pieces {
            0..=3 => 0,
            4..=9 => 1,
            10..=19 => 2,
            _ => 3,
        };
        let (ea, eb) = own_edges(c);
        let (oa, ob) = own_edges(c ^ 1);
        for &mv in moves {
            let Some(s) = mv.slot() else {
                out.push(set.feature(0, 2));
                out.extend(
                    [4, 4, 0, 0, 0, 0, 0, 0, phase * 3 + 2, 0].iter().enumerate().map(|(g, &b)| set.feature(g + 1, b)),
                );
                continue;
            };
            let kind = (self.first != super::NO_SLOT) as usize;
            let row = &self.board.edge_rows[s];
            let near =
                |k: usize| row.iter().filter(|&&r| r != super::NO_SLOT && self.own[k].contains(r as usize)).count();
            let edges = self.board.edges[s];
            let wins = self.frontier[c][0].contains(s) && self.frontier[c][1].contains(s);
            out.extend([
                set.feature(0, kind),
                set.feature(1, slack_bucket(mine[s])),
                set.feature(2, slack_bucket(theirs[s])),
                set.feature(3, near(c)),
                set.feature(4, near(c ^ 1)),
                set.feature(5, answers.contains(&(s as u16)) as usize),
                set.feature(6, (edges & (ea | eb) != 0) as usize),
                set.feature(7, (edges & (oa | ob) != 0) as usize),
                set.feature(8, wins as usize),
                set.feature(9, phase * 3 + kind),
                set.feature(10, s % 8 + 8 * c),
            ]);
        }
    }
}
