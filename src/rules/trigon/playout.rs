//! The playout policy of Blokus Trigon (Pentobi's kind of policy, our code): what
//! [`Knowledge::playout_move`](crate::rules::knowledge::Knowledge::playout_move) plays.
//!
//! 1. **The opening schedule** (`schedule.rs`) restricts the pieces, in playouts as in the tree.
//! 2. **A local response first** (`knowledge.rs`): a placement on one of the mover's attach points
//!    that is also an attach point of an opponent colour's last placement, biggest pieces first,
//!    from a few random draws.
//! 3. **Otherwise the biggest piece that fits**: at a few random attach points the biggest legal
//!    placement (size classes strictly from 6 down: random draws, then a full look at that size's
//!    list before a smaller size is tried), and the biggest of those is played — close to
//!    Pentobi's `5^size` weighting over all legal moves, where a hexiamond that fits anywhere is
//!    almost always played before a smaller piece. What a full look finds empty is cached in the
//!    state ([`Trigon::no_fit`], [`Trigon::dead`]): legality only shrinks, so it stays true.
//!
//! Measured (`triboard match`, `trigon-2`, 0.5 s a move, 40 games, seats rotated, both with the
//! opening schedule and prior-led selection): this policy against the previous one (a random
//! attach point, then the biggest piece among a few draws per size class, smaller classes drawn
//! when the draws missed) won 26–13 (one tie). A wider local set — the opponents' new attach
//! points *and their edge neighbours*, an own attach point counting double, the placement covering
//! most of them played (Pentobi's local points) — made playouts 1.5× slower (callgrind, 3,000
//! playouts from the empty board: 682 M instructions against 445 M) and lost 6–15: not kept.
//!
//! **Last-good-reply with forgetting (LGRF-2, Pentobi's, our code: `ai::reply`), not kept.** After
//! each simulation the winning seat's moves are stored as the replies to the move before each
//! (and to the two moves before), the losing seat's forgotten where stored; a playout plays the
//! stored two-move reply, else the one-move reply, before the steps above when
//! [`Trigon::reply_fits`] accepts it (legal, not a first piece, a piece of the schedule). In a
//! search 24 placements in, a one-move reply was stored for 78 % of the playout moves (a
//! two-move one for 13 %) and 12.6 % of them were replies played (from the empty board 4.2 %).
//! Screen (`trigon-2`, 0.5 s a move, seats rotated, two matches of 20 at once, LGRF-2 as B
//! against the build before it, `/work/bin/triboard-889e12c`):
//! `triboard match --engine "OLD gtp --game trigon-2 --seconds 0.5" --engine "NEW gtp --game
//! trigon-2 --seconds 0.5" --game trigon-2 --games 20 --seed 11` (and `--seed 12`): LGRF-2 won
//! 8–12 and 6–13–1, **14–25–1 of 40 (36 %)**, mean score 191.5 against 198.9. Search speed
//! (`bench trigon-2 --seconds 3`, the builds one after the other): 16,241 simulations/s against
//! 17,446 from the empty board, 18,423 against 20,437 after 24 placements of a level-1 game
//! (`--moves`); the bench's `policy playouts` line (the policy alone, no search, so no replies)
//! unchanged (53,348 against 52,632/s; 83,399 against 81,540/s). Under the 50 % that would allow
//! a variant: off (`Knowledge::last_good_reply`'s default 0), kept behind
//! `--config last_good_reply=1|2`. A guess for a later try: replies that are not the biggest
//! piece that fits undo the biggest-first rule that won 26–13 above.

use super::movegen::{count_of, pick};
use super::{PIECES, Trigon, TrigonMove, nth};
use crate::rules::game::{Rng, random_index};

/// Attach points looked at for the biggest piece, per move.
const DRAWS: usize = 2;
/// Random placements drawn per size class at a point before its full look.
const TRIES: usize = 4;
/// Random cells of the local set a playout tries before it plays elsewhere.
const LOCAL_TRIES: usize = 3;

impl Trigon {
    /// Whether the playout may play `mv`, a remembered reply (last-good-reply, `ai::reply`): a
    /// legal placement of the colour to move, not its first, of a piece the policy allows now.
    pub(super) fn reply_fits(&self, mv: TrigonMove) -> bool {
        if mv == TrigonMove::PASS || self.is_over() {
            return false;
        }
        let c = self.turn as usize;
        if self.left[c] == (1 << PIECES) - 1 {
            return false;
        }
        let mut allowed = self.scheduled_pieces();
        if allowed == 0 {
            allowed = self.left[c];
        }
        let w = &self.tables.windows[mv.0 as usize];
        allowed & (1 << w.piece) != 0 && !w.hits(&self.forbidden[c]) && w.hits(&self.corners[c])
    }

    /// The playout's move for the colour to move (see the module doc); `PASS` when it has none.
    pub(super) fn policy_move(&mut self, rng: &mut Rng, buf: &mut Vec<TrigonMove>) -> TrigonMove {
        let c = self.turn as usize;
        let mut allowed = self.scheduled_pieces();
        if allowed == 0 {
            allowed = self.left[c];
        }
        if let Some(mv) = self.local_response(rng, buf, allowed) {
            return mv;
        }
        loop {
            let live = self.live_targets(c);
            let n = live.count() as usize;
            if n == 0 {
                return TrigonMove::PASS;
            }
            let top = self.tables.biggest_size(allowed);
            let mut best: Option<(TrigonMove, u8)> = None;
            for _ in 0..DRAWS.min(n) {
                let x = nth(&live, random_index(rng, n));
                if let Some((mv, size)) = self.biggest_at(rng, buf, x, allowed) {
                    if best.is_none_or(|b| size > b.1) {
                        best = Some((mv, size));
                    }
                    if size >= top {
                        break;
                    }
                }
            }
            if let Some((mv, _)) = best {
                return mv;
            }
            for x in live.iter() {
                if let Some((mv, _)) = self.biggest_at(rng, buf, x, allowed) {
                    return mv;
                }
            }
            if allowed == self.left[c] {
                return TrigonMove::PASS;
            }
            allowed = self.left[c];
        }
    }

    /// The playout's local response (Pentobi's "local points", our own code): a placement of the
    /// colour to move that covers an attach point the opponents' last placements created, biggest
    /// pieces first; `None` if a few random draws find none (or it is the colour's first piece).
    pub(super) fn local_response(&self, rng: &mut Rng, buf: &mut Vec<TrigonMove>, allowed: u32) -> Option<TrigonMove> {
        let c = self.turn as usize;
        if self.left[c] == (1 << PIECES) - 1 {
            return None;
        }
        let t = self.tables;
        let local = self.answer_points(c);
        let attach = self.corners[c].and_not(&self.forbidden[c]);
        let local = local.and(&attach).and_not(&self.dead[c]);
        let n = local.count() as usize;
        if n == 0 {
            return None;
        }
        for _ in 0..LOCAL_TRIES {
            let x = nth(&local, random_index(rng, n));
            let status = t.lists.status(x, &self.forbidden[c]);
            let pieces = t.lists.pieces(x, status) & self.left[c] & allowed;
            let touch = if attach.contains(x) { None } else { Some(&attach) };
            if let Some(mv) = self.sample_at(rng, buf, super::SampleTarget { cell: x, status, pieces }, true, touch) {
                return Some(mv);
            }
        }
        None
    }

    /// The biggest legal placement of one of `allowed` through target cell `x` for the colour to
    /// move, and its size: the size classes from 6 down, each with a few random draws and then a
    /// full look, a random one of the biggest size found. `None` if none fits; marks what it finds
    /// empty in the caches.
    fn biggest_at(
        &mut self,
        rng: &mut Rng,
        buf: &mut Vec<TrigonMove>,
        x: usize,
        allowed: u32,
    ) -> Option<(TrigonMove, u8)> {
        let c = self.turn as usize;
        let t = self.tables;
        let forbidden = self.forbidden[c];
        let status = t.lists.status(x, &forbidden);
        let present = t.lists.pieces(x, status) & self.left[c];
        let pieces = present & allowed;
        let (list, offsets) = t.lists.list(x, status);
        for size in (1..=6usize).rev() {
            let set = pieces & t.by_size[size];
            if set == 0 || (size >= 5 && self.no_fit[c][6 - size].contains(x)) {
                continue;
            }
            let total = count_of(offsets, set);
            if total == 0 {
                continue;
            }
            for _ in 0..TRIES {
                let k = pick(list, offsets, set, random_index(rng, total));
                if !t.windows[k as usize].hits(&forbidden) {
                    return Some((TrigonMove(k), size as u8));
                }
            }
            buf.clear();
            let mut p = set;
            while p != 0 {
                let piece = p.trailing_zeros() as usize;
                p &= p - 1;
                for &k in &list[offsets[piece] as usize..offsets[piece + 1] as usize] {
                    if !t.windows[k as usize].hits(&forbidden) {
                        buf.push(TrigonMove(k));
                    }
                }
            }
            if !buf.is_empty() {
                return Some((buf[random_index(rng, buf.len())], size as u8));
            }
            if size >= 5 && set == present & t.by_size[size] {
                self.no_fit[c][6 - size].insert(x);
            }
        }
        if pieces == present {
            self.dead[c].insert(x);
        }
        None
    }
}

impl super::Tables {
    /// The biggest size among `pieces` (a bit per piece), 0 for none.
    pub fn biggest_size(&self, pieces: u32) -> u8 {
        (1..=6u8).rev().find(|&s| pieces & self.by_size[s as usize] != 0).unwrap_or(0)
    }
}

/// How often each piece size (index 1–6; 0 counts passes) is played in each round of `playouts`
/// playouts of the policy from `start` with seed `seed`: element `[round][size]`, rounds past the
/// last row counted in it. For the record of what the policy plays (`playout_size_histogram` test).
pub fn size_histogram(start: &Trigon, seed: u64, playouts: usize) -> Vec<[u32; 7]> {
    use crate::rules::knowledge::Knowledge as _;
    let mut rng = crate::rules::game::rng_from_seed(seed);
    let mut buf = Vec::new();
    let mut rows = vec![[0u32; 7]; 23];
    for _ in 0..playouts {
        let mut g = start.clone();
        g.warm_up();
        while g.colour_to_move().is_some() {
            let round = g.round().min(rows.len() - 1);
            let mv = g.policy_move(&mut rng, &mut buf);
            let size = if mv == TrigonMove::PASS { 0 } else { g.tables.windows[mv.0 as usize].size as usize };
            rows[round][size] += 1;
            use crate::rules::game::Game as _;
            g.play_unchecked(mv);
        }
    }
    rows
}
