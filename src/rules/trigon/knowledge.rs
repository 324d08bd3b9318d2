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
//! - **Playouts** (`playout.rs`): the frontier response (the most of Pentobi's local points
//!   covered, issue 48: +105.5 and +74.6 Elo on SPRTs), then the biggest piece that fits with
//!   strict size classes: **26–13–1** against the former policy.
//! - **Reward**: the rank value and a share for the score margin as a z-score against the
//!   search's own playouts ([`Trigon::margin_reward`]): **25–15** against the margin clamped at ±40.
//! - **Mirror guard**: in `trigon-2` the board is centrally symmetric, so the second player could
//!   answer every move with its point reflection and force a tie. While the position is symmetric
//!   (Yellow mirrors Blue, Green mirrors Red), the first player's logits (and, under UCT, priors)
//!   strongly favour the placements that overlap their own reflection — only near the centre —
//!   which cannot be mirrored.
//! - **Pentobi's values** (issue 48, `ai::tree`, [`Knowledge::folded_rave`]): one mean per node
//!   with RAVE folded in at weight 0.7 × a distance factor (capped: parent ≤ 50,000 simulations,
//!   child ≤ 2,000 value count; the played child not counted), and the exploration term divided by
//!   that value count instead of simulations + 3. SPRT [0, 40] against Silver's blend, both at
//!   `gtp --seconds 0.15`, `match --game trigon-2 --sprt 0,40 --concurrency 2 --seed 48001`:
//!   **H1 accepted after 110 games** (55 pairs, pentanomial [7, 2, 19, 1, 26]), LLR 2.96, Elo
//!   **+121.6** (+52.3 to +201.8), at 0.120 s a move against 0.134.
//! - **Pentobi's reward** (issue 48, [`Trigon::quality_reward`], `reward_form` 1): the result
//!   plus quality bonuses, not squeezed into `[0, 1]`, the margin over the *mean* of the others.
//!   SPRT [0, 40] against the squeezed reward, both with Pentobi's values at `--seconds 0.15`
//!   (`--seed 48002`): **H1 accepted after 68 games** (34 pairs, pentanomial [1, 3, 12, 3, 15]),
//!   LLR 2.98, Elo **+152.1** (+75.6 to +245.9), at 0.118 s a move against 0.132.
//! - Both in **`trigon-3`**, against neither (`match --game trigon-3 --seconds 0.15 --sprt 0,40
//!   --concurrency 2 --seed 48004`, the old search by `--config folded_rave=0 --config
//!   reward_form=0`): **H1 accepted after 180 games** (pentanomial [12, 2, 45, 0, 31]), LLR 3.14,
//!   Elo **+70.4** (+21.7 to +122.1).
//! - Not kept: a new child's value from this search's root mean (`--config root_mean_cap=100`,
//!   the running mean cut to 100 simulations' worth after each move, as Pentobi keeps it), on top
//!   of both, `trigon-2` (`--seed 48003`): **H0 accepted after 354 games**, LLR −3.15, Elo −5.9
//!   (−41.4 to +29.5).
//! - **Pentobi's expansion threshold** (issue 48, [`Knowledge::expand_growth`] 0.5): a node
//!   expands after 2 + 0.5·depth simulations. SPRT [0, 40] against 2 everywhere, on top of both
//!   steps above (`--seed 48006`): **H1 accepted after 736 games** (pentanomial [74, 5, 174, 9,
//!   106]), LLR 2.98, Elo **+32.2** (+7.3 to +57.5).
//! - Not kept: Pentobi's final choice, the most weighted wins (`--config final_move=1`), against
//!   the most simulated, on top of all the above (`--seed 48008`): **H0 accepted after 134
//!   games** (pentanomial [18, 3, 34, 1, 11]), LLR −2.95, Elo −41.7 (−98.8 to +13.3).
//! - The hand-set **priors** (bigger pieces, attach points gained, the opponents' taken, the centre
//!   early) and the PUCT weight remain for the UCT + RAVE search (`--config prior_exploration=0`).
//!   Earlier measurements: priors' weight 8 against 20 at level 2, 57.5 % of 40; PUCT weight 0.3
//!   against none, 58.8 % of 40; the local response against none, 12–8.

use super::{Cells, NO_PLACEMENT, PIECES, Trigon, TrigonMove, Variant, WORDS};
use crate::rules::features::WeightsCell;
use crate::rules::game::{MAX_PLAYERS, Outcome, Rng};
use crate::rules::knowledge::{Knowledge, RewardStats};

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
/// Simulations added per ply below the root before a node is expanded
/// ([`Knowledge::expand_growth`]), Pentobi's 0.5. It gave 39 % more simulations a second after 24
/// placements (`bench trigon-2 --moves … --config expand_growth=…`: 20,907 against 15,051) and had
/// won 33–27 of 60 at 0.5 s a move against 0, dropped then under a 60 % bar. The SPRT [0, 40]
/// (issue 48; `match --game trigon-2 --sprt 0,40 --concurrency 2 --seed 48006`, both `gtp
/// --seconds 0.15`, 0.5 against `0` on top of Pentobi's values and reward): **H1 accepted after
/// 736 games** (pentanomial [74, 5, 174, 9, 106]), LLR 2.98, Elo **+32.2** (+7.3 to +57.5), at
/// 0.115 s a move against 0.116. Kept, in every variant (tested in `trigon-2`).
const EXPAND_GROWTH: f32 = 0.5;
/// The temperature the learned logits are divided by before they become γ (and `P`). With the
/// 154 features of `features.rs` (`trigon-2`, 0.5 s a move, 40 games against the former 58
/// features at temperature 1): at 1 they lost 4–11 (stopped: too sharp for prior-led
/// selection), at 2 they won **24–15–1** (61 %).
const PRIOR_TEMPERATURE: f32 = 2.0;

impl Trigon {
    /// Pieces colour `c` has placed.
    pub fn placed(&self, c: usize) -> u32 {
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

    /// The attach points the last placements of the colours playing against colour `c` created
    /// (the move features' local cells, `features.rs`).
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
            let covered = w.count(&theirs);
            let mut value = 0.35 + 0.05 * w.size as f32 + 0.02 * gained.min(5) as f32 + 0.03 * covered.min(3) as f32;
            if opening {
                value += 0.1 * (1.0 - t.centre[k] as f32 / 255.0);
            }
            out.push((value.clamp(0.05, 0.95), PRIOR_WEIGHT));
        }
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
    /// [`Game::random_move`](crate::rules::game::Game::random_move)), and where no piece of size 6 or 5
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

    /// The playout policy: as [`Game::random_move`](crate::rules::game::Game::random_move), but the biggest pieces that fit at the drawn
    /// attach point first (the module doc).
    fn playout_move(&mut self, rng: &mut Rng, buf: &mut Vec<TrigonMove>) -> Option<TrigonMove> {
        if self.is_over() {
            return None;
        }
        Some(self.policy_move(rng, buf))
    }

    /// The rank value, and a share for the margin (this module), without statistics.
    fn reward(&self, outcome: &Outcome) -> [f32; MAX_PLAYERS] {
        self.margin_reward(outcome, &mut RewardStats::default())
    }

    fn reward_with(&self, outcome: &Outcome, stats: &mut RewardStats) -> [f32; MAX_PLAYERS] {
        self.margin_reward(outcome, stats)
    }

    /// A remembered reply is played when it is a legal placement, not the colour's first, of a
    /// piece the playout policy would consider now (`playout.rs`: the opening schedule's pieces).
    /// Last-good-reply itself stays off ([`Knowledge::last_good_reply`]'s default: it lost its
    /// screen, `playout.rs`); `--config last_good_reply=2` turns it on.
    fn accepts_reply(&self, mv: TrigonMove) -> bool {
        self.reply_fits(mv)
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

    fn expand_growth(&self) -> f32 {
        EXPAND_GROWTH
    }

    /// Pentobi's folded values (the module doc's SPRT).
    fn folded_rave(&self) -> bool {
        true
    }

    /// Pentobi's quality-based reward, not squeezed ([`Trigon::quality_reward`]; the module
    /// doc's SPRT): in `trigon-2` with its bonuses' weights estimated from the search's playouts
    /// (form 2, `reward.rs`'s SPRT, run in `trigon-2` only), elsewhere Pentobi's fixed weights.
    fn reward_form(&self) -> u8 {
        if self.options.variant == Variant::Two { 2 } else { 1 }
    }

    fn move_priors(&self, moves: &[TrigonMove], out: &mut Vec<(f32, f32)>) {
        self.priors(moves, out);
    }

    fn book_key(&self) -> Option<u64> {
        Some(self.position_key())
    }

    fn book_move(&self) -> Option<TrigonMove> {
        super::book::builtin_move(self)
    }

    fn feature_weights() -> Option<&'static WeightsCell> {
        Some(&super::features::WEIGHTS)
    }

    fn move_features(&self, moves: &[TrigonMove], out: &mut Vec<u16>) {
        let mut active = Vec::with_capacity(moves.len());
        self.placement_features(moves, &mut active);
        out.clear();
        out.extend(active.iter().flatten().map(|&f| f as u16));
    }

    /// The learned move logits (`features.rs`).
    fn move_logits(&self, moves: &[TrigonMove], out: &mut Vec<f32>) -> bool {
        out.clear();
        if self.colour_to_move().is_none() || moves.contains(&TrigonMove::PASS) {
            out.resize(moves.len(), 0.0);
            return true;
        }
        let mut active = Vec::with_capacity(moves.len());
        self.placement_features(moves, &mut active);
        let w = super::features::WEIGHTS.get();
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
