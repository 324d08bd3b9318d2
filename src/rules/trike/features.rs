//! Trike's move features and their learned weights (`rules::features`): what a slide to cell `t`
//! does to the pawn's neighbourhood, the game's end and the opponent's replies
//! (`docs/rules/trike.md` §Play 3, §End and score). Every move has one active feature per group
//! of [`FEATURE_SET`]; a move's logit is their weights' sum, its probability their softmax.
//!
//! Counts are taken after the move, around its destination `t` (the cells that would score if the
//! pawn were trapped there); "theirs" are the opponent's checkers, "replies" the opponent's legal
//! moves from `t`. A *trap* is a reply that leaves the pawn no empty neighbour, ending the game:
//! a winning trap wins it for the opponent at once.
//!
//! **Data and fit** (`triboard learn trike DIR… --holdout 0.2`): the built-in weights come from 161
//! games of Trike-13 self-play at level 5 (250,000 simulations a move): 121 by the search without
//! learned knowledge (`selfplay trike --a ai:5 --b ai:5 --seed 100 --record DIR`), then 40 with the
//! first weights in force (seed 200; expert iteration, round 2) — 9,077 positions with a choice.
//! On the last 32 games held out (1,824 positions, all of round 2): log-likelihood −1.951 against −2.199 for a
//! uniform choice (Trike had no hand-set priors), the most probable move played 31.9 % of the
//! time. The first weights, from 61 games of round 1 (12 held out): −1.860 against −2.242, 35.2 % on their own
//! held-out games; more data and the second round moved the held-out figures little (features
//! this coarse saturate: L2 0.01 instead of 0.001 gives −1.961).
//!
//! **In the search** (`selfplay trike --a ai:6 --b ai:6 --seconds 0.2 --games 40`, A with the
//! round-1 weights, B the search before them: UCT + RAVE without priors):
//! - as the PUCT term (`ai::SearchConfig::policy_weight`) of weight 0.5: **27–13**; 1.0: 29–11;
//!   0.25: 29–11 — 0.5 is in force ([`crate::rules::knowledge::Knowledge::policy_weight`]);
//! - as prior-led selection (`--a-config prior_exploration=0.87`, Trigon's): 21–19, not used;
//! - a playout policy that takes a winning trap and never walks into a losing one (the features'
//!   `ends` and `their-winning-traps` in the playouts): 191,000 playouts/s against 736,000
//!   uniform (`bench trike`, machine busy), and **18–22** against uniform playouts: not kept.
//!
//! **At 1 s a move** (the measure: `selfplay trike --a ai:6 --b ai:6 --seconds 1 --games 50
//! --seed 11|12 --b-config policy_weight=0`, one thread each, seats alternating; B is the search
//! before the learned knowledge, move for move): A won **82 of 100** (43–7 and 39–11), 95 % interval
//! 73.3–88.3 %; 0.66 s against 0.68 s a move (the search stops once its best move cannot change),
//! 58 plies a game. The features cost a fifth of the search's speed: `bench trike --seconds 2`
//! (the empty board, one thread, run in turn) 474,013 and 487,990 simulations/s against 596,189
//! and 605,505 with `--config policy_weight=0`.

use super::{Color, Trike, TrikeMove};
use crate::rules::features::{FeatureSet, WeightsCell};
use crate::rules::geometry::triangle::NONE;

/// Trike's feature groups and their buckets (a count's last bucket means "or more"):
/// - `kind`: the opening placement, the swap, a slide.
/// - `own-around`, `their-around`, `empty-around`: `t`'s neighbours holding the mover's checkers,
///   the opponent's, and empty ones, 0–6.
/// - `balance`: the mover's checkers minus the opponent's on `t` and its neighbours, −3…+3 (3 is
///   bucket 0).
/// - `ends`: the move leaves the game open, traps the pawn and wins, or traps it and loses.
/// - `replies`: the opponent's legal moves from `t`: 0, 1, 2, 3, 4–5, 6–8, 9–12, 13–17, 18+.
/// - `their-winning-traps`: replies that trap the pawn and win for the opponent, 0–3+.
/// - `their-losing-traps`: replies that trap it and lose for the opponent, 0–2+.
/// - `distance`: cells slid, 1–6+ (0 for the opening and the swap).
/// - `edge`: `t`'s distance from the board's edge in cells, 0–3+.
/// - `phase-empty`: the share of the board filled (quarters) × `empty-around` 0–4+.
pub static FEATURE_SET: FeatureSet = FeatureSet {
    game: "trike",
    groups: &[
        ("kind", 3),
        ("own-around", 7),
        ("their-around", 7),
        ("empty-around", 7),
        ("balance", 7),
        ("ends", 3),
        ("replies", 9),
        ("their-winning-traps", 4),
        ("their-losing-traps", 3),
        ("distance", 7),
        ("edge", 4),
        ("phase-empty", 20),
    ],
};

/// The built-in weights file, written by `triboard learn trike`.
pub const BUILTIN_WEIGHTS: &str = include_str!("weights.json");

/// The weights in force: the built-in file, or one given with `--weights FILE`.
pub static WEIGHTS: WeightsCell = WeightsCell::new(&FEATURE_SET, BUILTIN_WEIGHTS);

/// The `replies` bucket of a number of replies.
fn replies_bucket(n: usize) -> usize {
    match n {
        0..=3 => n,
        4..=5 => 4,
        6..=8 => 5,
        9..=12 => 6,
        13..=17 => 7,
        _ => 8,
    }
}

impl Trike {
    /// The active features of each of `moves` (legal here): clears `out` and pushes one index per
    /// group of [`FEATURE_SET`] per move, group by group (the module doc).
    ///
    /// # Panics
    /// If the game is over.
    pub fn move_feature_indices(&self, moves: &[TrikeMove], out: &mut Vec<u16>) {
        assert!(!self.over, "features need a move to make");
        out.clear();
        let geo = self.geo;
        let set = &FEATURE_SET;
        let mover_white = self.color_to_move == Color::White;
        let filled = self.occupied.count() as usize;
        let quarter = (filled * 4 / geo.cells).min(3);
        for &mv in moves {
            let start = out.len();
            let Some(t) = mv.cell() else {
                out.push(set.feature(0, 1));
                out.extend((1..set.groups.len()).map(|g| set.feature(g, 0)));
                continue;
            };
            let (mut occupied, mut lines) = (self.occupied, self.lines);
            occupied.insert(t);
            geo.occupy(&mut lines, t);
            // The mover's checkers after the move, and the opponent's.
            let mut mine = if mover_white { self.white } else { self.occupied.and_not(&self.white) };
            mine.insert(t);
            let theirs = occupied.and_not(&mine);
            let (mut own, mut their, mut empty) = (0, 0, 0);
            for &n in &geo.neighbor[t] {
                if n == NONE {
                    continue;
                }
                let n = n as usize;
                if mine.contains(n) {
                    own += 1;
                } else if theirs.contains(n) {
                    their += 1;
                } else {
                    empty += 1;
                }
            }
            let opening = self.pawn == NONE;
            let ends = if !opening && empty == 0 { if own + 1 > their { 1 } else { 2 } } else { 0 };
            // The opponent's replies from t, and those that trap the pawn.
            let (mut replies, mut winning, mut losing) = (0, 0, 0);
            if ends == 0 {
                for d in 0..6 {
                    for k in 1..=geo.free_run(t, d, &lines) {
                        replies += 1;
                        let r = geo.step(t, d, k);
                        let around = &geo.around[r];
                        if geo.neighbor[r].iter().all(|&n| n == NONE || occupied.contains(n as usize)) {
                            // Trapped at r: the opponent's checker on r counts for them.
                            let them = around.and(&theirs).count() + 1;
                            let us = around.and(&mine).count();
                            if them > us {
                                winning += 1;
                            } else {
                                losing += 1;
                            }
                        }
                    }
                }
            }
            let distance = match self.pawn() {
                Some(p) => {
                    (geo.row[t] as i32 - geo.row[p] as i32).abs().max((geo.col[t] as i32 - geo.col[p] as i32).abs())
                }
                None => 0,
            } as usize;
            let (r, c, side) = (geo.row[t] as usize, geo.col[t] as usize, geo.side);
            let edge = c.min(r - c).min(side - 1 - r);
            let balance = (own + 1) as i32 - their as i32;
            out.extend([
                set.feature(0, if opening { 0 } else { 2 }),
                set.feature(1, own),
                set.feature(2, their),
                set.feature(3, empty),
                set.feature(4, (balance.clamp(-3, 3) + 3) as usize),
                set.feature(5, ends),
                set.feature(6, replies_bucket(replies)),
                set.feature(7, winning),
                set.feature(8, losing),
                set.feature(9, distance),
                set.feature(10, edge),
                set.feature(11, quarter * 5 + empty.min(4)),
            ]);
            debug_assert_eq!(out.len() - start, set.groups.len());
        }
    }
}
