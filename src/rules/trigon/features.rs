//! Move features of Blokus Trigon and their learned weights: the search's PUCT move probabilities
//! (`knowledge.rs`), learned by `triboard learn` from the moves of strong games (softmax
//! regression, as Coulom's Minorization-Maximization learns Go move patterns; our own features,
//! weights and tool).
//!
//! The features follow the kinds of cells Pentobi's move priors look at (`PriorKnowledge` in its
//! source: the move's cells, the cells next to it along an edge, its new attach points), counted
//! per move and bucketed: every placement has exactly one active feature in each of [`GROUPS`]
//! groups (see [`BUCKETS`]). A move's logit is the sum of its active features' weights, and its
//! probability among the legal moves is the softmax of the logits.
//!
//! **The built-in weights are expert iteration's first round** (issue 48): refitted to the visit
//! shares of our own searches, not to Pentobi's moves — every second position of the 60 games of
//! the level-7 match in README §The search, each searched anew with 12,000 simulations
//! (`triboard learn trigon-2 DIR --search 12000 --every 2 --threads 2 --scale 2`; 1,738 positions
//! fitted, 435 held out). Held out: log-likelihood −3.974 of the searches' visit shares (the
//! hand-set priors −4.889, uniform −5.428), the searches' most visited move the model's first in
//! 27.4 % (hand-set 12.9 %). Against the weights below, one thread each: `triboard match --engine
//! "tb gtp --game trigon-2 --seconds 0.15 --weights x1.json" --engine "tb gtp --game trigon-2
//! --seconds 0.15" --game trigon-2 --sprt 0,40`, run in three stretches (`--seed 48007`, `48011`,
//! then `48012 --sprt-resume` from the first two's pairs): **H1 accepted after 946 games**, LLR
//! 2.98, Elo **+29.5 (+7.4 to +51.7)**, pentanomial [93, 17, 216, 11, 136]. Every variant uses them.
//!
//! The weights before them were learned from 394 games of Pentobi (`pentobi-gtp --nobook`) against
//! itself in `trigon-2`, 268 at level 3 then 126 at level 4 (`triboard match --record`; 36 minutes
//! of one core): 29,691 positions with a choice, the last 79 games (5,911 positions, level 4) held
//! out. On those held-out positions, with `triboard learn l3 l4 --holdout 0.2`:
//!
//! | | log-likelihood | most probable move played |
//! |---|---|---|
//! | uniform choice | −5.515 | — |
//! | hand-set priors (`knowledge.rs`) | — | 11.7 % |
//! | the former 58 features (7 groups), learned from the same games | −3.957 | 14.9 % |
//! | these 154 features (21 groups) | **−3.401** | **21.8 %** |
//!
//! (The former weights had been learned from 15 games of Pentobi level 7: 1,115 positions, held-out
//! log-likelihood −4.523 and 13.2 % on their own 219 held-out positions.) They cost more time:
//! reading the legal moves and their features in every position of 47 games (`triboard learn DIR
//! --iterations 1`) took 0.40 s of CPU against 0.21 s with the former ones, and a search of
//! `trigon-2` (`triboard bench trigon-2 [--moves …]`, one thread) ran 7–10 % fewer simulations a
//! second: 35,400 against 39,600 at the start, 45,100 against 48,900 after 16 placements, 62,800
//! against 67,200 after 32. In play: under the former search (UCT + RAVE, the PUCT weight 0.3
//! unchanged) they won 9 and lost 11 of 20 against the former features (`triboard match`,
//! `trigon-2`, 0.5 s a move); under prior-led selection, where they are the move probabilities,
//! at temperature 2 they won **24–15–1** of 40 (at temperature 1, 4–11: `knowledge.rs`).
//!
//! **Weights of `trigon-3`'s own, not kept** (issue 37): learned from 242 games of Pentobi level 5
//! against itself in `trigon-3` (`--nobook`, three engines with different seeds: `triboard match
//! --game trigon-3 --record DIR`), 11,199 positions to fit and the last 48 games' 2,773 held out
//! (`triboard learn trigon-3 DIR`): held-out log-likelihood −3.385 (hand-set priors −4.896,
//! uniform −5.541), the most probable move played 20.4 %. Used in `trigon-3` in place of the
//! `trigon-2` weights, against them (`match --game trigon-3 --games 40 --seed 3751`, both `gtp
//! --seconds 0.5`, 0.45 s a move each): **15–22–3** (41.2 %, 95 % interval 27–57 %).
//! Every variant keeps the `trigon-2` weights.
//!
//! The weights in force are the built-in file `weights.json` beside this module (written by
//! `triboard learn trigon-2`), or a file given with `--weights FILE` ([`WEIGHTS`]); the weights
//! file and its loading are every game's (`rules::features`).

use super::{Cells, NO_CELL, Trigon, TrigonMove, Variant, WORDS};
use crate::rules::features::{FeatureSet, WeightsCell};

/// Feature groups: every placement has exactly one active feature in each.
pub const GROUPS: usize = 21;
/// Buckets of each group, in the order of [`GROUP_NAMES`] (a count bucket's last value means "or
/// more"). "Theirs" are the colours playing against the mover, the "partner" its seat's other colour
/// in `trigon-2`; an attach point is free and not forbidden to its colour.
/// - `size-phase`: piece size 1–6 × pieces the mover has placed (0–2, 3–5, 6–10, 11+): 24.
/// - `taken`: the move's cells that are their attach points, 0–4+.
/// - `near`: the move's other cells next along an edge to one of their attach points, 0–5+.
/// - `local`: the move's cells that are attach points of their last placements, 0–2+.
/// - `uses`: the move's cells that are the mover's own attach points, 1–5+ (a first piece, which
///   uses none, counts as 1).
/// - `partner-attach`: the move's cells that are the partner's attach points, 0–2+.
/// - `blocks`: the move's cells still open to one of them (not forbidden to it), 0–6.
/// - The move's edge ring (the cells sharing an edge with it), split by what each cell is:
///   `ring-theirs` their pieces (0–5+), `ring-partner` the partner's (0–3+, "connects"),
///   `ring-forbidden` empty and already forbidden to the mover (0–6+), `ring-own-attach` the
///   mover's own attach points it gives up (0–4+), `ring-open` newly forbidden to the mover and open
///   to one of them (0–6+), `ring-dead` newly forbidden to the mover and forbidden to all of them
///   (0–6+).
/// - `gained`: the attach points the move creates, 0–6+; `gained-free-N` (N = 0–3): those of them
///   with N edge neighbours still open to the mover after the move, 0–4+ each; `gained-contested`:
///   those that are also their attach points, 0–3+.
/// - `phase-centre`: pieces placed (0–2, 3–5, 6+) × the placement's distance from the centre in
///   four bands: 12.
/// - `piece`: which of the 22 pieces (beside its size: on the held-out games of the first 73
///   it raised the log-likelihood from −3.48 to −3.40).
pub const BUCKETS: [usize; GROUPS] = [24, 5, 6, 3, 5, 3, 7, 6, 4, 7, 5, 7, 7, 7, 5, 5, 5, 5, 4, 12, 22];
/// Group names, as the weights file writes them (`"size-phase 3"`, `"gained 2"`, …).
pub const GROUP_NAMES: [&str; GROUPS] = [
    "size-phase",
    "taken",
    "near",
    "local",
    "uses",
    "partner-attach",
    "blocks",
    "ring-theirs",
    "ring-partner",
    "ring-forbidden",
    "ring-own-attach",
    "ring-open",
    "ring-dead",
    "gained",
    "gained-free-0",
    "gained-free-1",
    "gained-free-2",
    "gained-free-3",
    "gained-contested",
    "phase-centre",
    "piece",
];
/// The number of features, [`BUCKETS`] summed.
pub const FEATURES: usize = {
    let mut n = 0;
    let mut g = 0;
    while g < GROUPS {
        n += BUCKETS[g];
        g += 1;
    }
    n
};
// An [`Active`] holds feature indices as bytes.
const _: () = assert!(FEATURES <= 256);
/// The index of each group's first feature.
const OFFSETS: [usize; GROUPS] = {
    let mut o = [0; GROUPS];
    let mut g = 1;
    while g < GROUPS {
        o[g] = o[g - 1] + BUCKETS[g - 1];
        g += 1;
    }
    o
};

/// A placement's active features: one index into `0..FEATURES` per group.
pub type Active = [u8; GROUPS];

/// The bucket of each group that `active` holds, in the order of [`GROUP_NAMES`].
pub fn buckets(active: &Active) -> [usize; GROUPS] {
    let mut out = [0; GROUPS];
    for g in 0..GROUPS {
        out[g] = active[g] as usize - OFFSETS[g];
    }
    out
}

/// The bucket of each group for these counts, in the order of [`GROUP_NAMES`] (the size-phase,
/// phase-centre and piece buckets are given as themselves, `counts[4]` is the own attach points
/// used): each count capped at its group's last bucket. For tests that count naively.
pub fn bucket_counts(counts: [u32; GROUPS]) -> [usize; GROUPS] {
    let mut out = [0; GROUPS];
    for g in 0..GROUPS {
        let n = if g == 4 { counts[g].max(1) - 1 } else { counts[g] } as usize;
        out[g] = n.min(BUCKETS[g] - 1);
    }
    out
}

/// The name of feature `i` (`0..FEATURES`): its group and bucket, e.g. `"gained 3"`.
pub fn feature_name(i: usize) -> String {
    FEATURE_SET.name(i)
}

/// The phase of a colour that has placed `placed` pieces, for the size: 0–3.
pub fn size_phase(placed: u32) -> usize {
    match placed {
        0..=2 => 0,
        3..=5 => 1,
        6..=10 => 2,
        _ => 3,
    }
}

/// The phase of a colour that has placed `placed` pieces, for the distance from the centre: 0–2.
pub fn centre_phase(placed: u32) -> usize {
    match placed {
        0..=2 => 0,
        3..=5 => 1,
        _ => 2,
    }
}

/// True when cell `n` is in `bits`, a window of a bitboard starting at word `word0`.
#[inline(always)]
fn in_window(bits: &[u64], word0: usize, n: usize) -> bool {
    let i = (n / 64).wrapping_sub(word0);
    i < bits.len() && bits[i] >> (n % 64) & 1 != 0
}

/// Popcount of `bits` (a window from word `word0`) and `set`.
#[inline(always)]
fn count_in<const N: usize>(bits: &[u64; N], word0: usize, set: &Cells) -> u32 {
    bits.iter().zip(&set.0[word0..word0 + N]).map(|(a, b)| (a & b).count_ones()).sum()
}

impl Trigon {
    /// The active features of each placement in `moves` (legal in this position, none a pass),
    /// for the colour to move: clears `out` and pushes one [`Active`] per move (`docs/rules/trigon.md`
    /// §Play defines attach points).
    ///
    /// # Panics
    /// If the game is over or a move is a pass.
    pub fn placement_features(&self, moves: &[TrigonMove], out: &mut Vec<Active>) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the instruction the function is compiled for.
            return unsafe { self.placement_features_popcnt(moves, out) };
        }
        self.features_of(moves, out);
    }

    /// [`Trigon::placement_features`] compiled with the `popcnt` instruction: the features are
    /// counts of cells, and without it (x86-64's baseline) every count is a dozen instructions.
    /// With it the search ran 23,009 and 23,266 simulations/s after 24 placements of a level-1
    /// game, without it 21,759 and 21,627 (`bench trigon-2 --seconds 3 --moves …`, the builds
    /// alternated).
    ///
    /// # Safety
    /// The CPU must have `popcnt` (`is_x86_feature_detected!`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn placement_features_popcnt(&self, moves: &[TrigonMove], out: &mut Vec<Active>) {
        self.features_of(moves, out);
    }

    /// The body of [`Trigon::placement_features`], inlined into each of its two builds.
    #[inline(always)]
    fn features_of(&self, moves: &[TrigonMove], out: &mut Vec<Active>) {
        out.clear();
        let c = self.colour_to_move().expect("features need a colour to move");
        let t = self.tables;
        let board = t.board;
        let (theirs, local) = (self.their_attach_points(c), self.answer_points(c));
        let partner = (self.options.variant == Variant::Two).then_some((c + 2) % 4);
        let (mut their_cells, mut open_to_them) = (Cells::default(), Cells::default());
        for o in self.opponents(c) {
            for w in 0..WORDS {
                their_cells.0[w] |= self.own[o].0[w];
                open_to_them.0[w] |= !self.forbidden[o].0[w];
            }
        }
        // Cells next along an edge to one of their attach points (and not one themselves).
        let mut near = Cells::default();
        for x in theirs.iter() {
            for &n in &board.edge_neighbours[x] {
                near.insert(n as usize);
            }
        }
        let near = near.and_not(&theirs);
        let (partner_cells, partner_attach) = match partner {
            Some(p) => (self.own[p], self.corners[p].and_not(&self.forbidden[p])),
            None => (Cells::default(), Cells::default()),
        };
        let forbidden = &self.forbidden[c];
        let empty_forbidden = forbidden.and_not(&self.occupied);
        let mine = self.corners[c].and_not(forbidden);
        // Forbidden to the mover, and the padding cell of the neighbour table.
        let mut closed = *forbidden;
        closed.insert(NO_CELL as usize);
        // Free, not forbidden to the mover and not its attach point: newly forbidden by a move
        // whose edge ring covers it.
        let mut fresh = Cells::default();
        for w in 0..WORDS {
            fresh.0[w] = !forbidden.0[w] & !self.corners[c].0[w];
        }
        let (fresh_open, fresh_dead) = (fresh.and(&open_to_them), fresh.and_not(&open_to_them));
        let placed = self.placed(c);
        let (sphase, cphase) = (size_phase(placed), centre_phase(placed));
        for &mv in moves {
            assert!(mv != TrigonMove::PASS, "a pass has no features");
            let k = mv.0 as usize;
            let (w, s) = (&t.windows[k], &t.stamps[k]);
            let (s0, w0) = (s.word as usize, w.word as usize);
            // The attach points gained, each by its edge neighbours still open after the move.
            let (mut gained, mut free, mut contested) = (0, [0u32; 4], 0);
            for i in 0..5 {
                let mask = if (s0 + i).wrapping_sub(w0) < 3 { w.bits[s0 + i - w0] } else { 0 };
                let blocked = forbidden.0[s0 + i] | self.corners[c].0[s0 + i] | s.edge[i] | mask;
                let mut new = s.corner[i] & !blocked;
                gained += new.count_ones();
                contested += (new & theirs.0[s0 + i]).count_ones();
                while new != 0 {
                    let x = (s0 + i) * 64 + new.trailing_zeros() as usize;
                    new &= new - 1;
                    // A gained attach point shares no edge with the move: its neighbours are
                    // closed by the move only through its edge ring.
                    let open = t.edge_neighbours[x]
                        .iter()
                        .filter(|&&n| !closed.contains(n as usize) && !in_window(&s.edge, s0, n as usize))
                        .count();
                    free[open] += 1;
                }
            }
            let band = (t.centre[k] as usize * 4 / 256).min(3);
            let counts = [
                (w.size as u32 - 1) * 4 + sphase as u32,
                count_in(&w.bits, w0, &theirs),
                count_in(&w.bits, w0, &near),
                count_in(&w.bits, w0, &local),
                count_in(&w.bits, w0, &mine),
                count_in(&w.bits, w0, &partner_attach),
                count_in(&w.bits, w0, &open_to_them),
                count_in(&s.edge, s0, &their_cells),
                count_in(&s.edge, s0, &partner_cells),
                count_in(&s.edge, s0, &empty_forbidden),
                count_in(&s.edge, s0, &mine),
                count_in(&s.edge, s0, &fresh_open),
                count_in(&s.edge, s0, &fresh_dead),
                gained,
                free[0],
                free[1],
                free[2],
                free[3],
                contested,
                (cphase * 4 + band) as u32,
                w.piece as u32,
            ];
            let buckets = bucket_counts(counts);
            let mut active = [0u8; GROUPS];
            for g in 0..GROUPS {
                active[g] = (OFFSETS[g] + buckets[g]) as u8;
            }
            out.push(active);
        }
    }
}

/// Trigon's groups as a [`FeatureSet`] (names and buckets from [`GROUP_NAMES`] and [`BUCKETS`]).
pub static FEATURE_SET: FeatureSet = FeatureSet { game: "trigon", groups: &GROUP_LIST };
const GROUP_LIST: [(&str, usize); GROUPS] = {
    let mut list = [("", 0); GROUPS];
    let mut g = 0;
    while g < GROUPS {
        list[g] = (GROUP_NAMES[g], BUCKETS[g]);
        g += 1;
    }
    list
};
const _: () = assert!(FEATURE_SET.len() == FEATURES);

/// The built-in weights file, written by `triboard learn trigon-2`.
pub const BUILTIN_WEIGHTS: &str = include_str!("weights.json");

/// The weights in force: the built-in file, or one given with `--weights FILE`.
pub static WEIGHTS: WeightsCell = WeightsCell::new(&FEATURE_SET, BUILTIN_WEIGHTS);
