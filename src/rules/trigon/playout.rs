//! The playout policy of Blokus Trigon (Pentobi's kind of policy, our code): what
//! [`Knowledge::playout_move`](crate::rules::knowledge::Knowledge::playout_move) plays.
//!
//! 1. **The opening schedule** (`schedule.rs`) restricts the pieces, in playouts as in the tree.
//! 2. **Cover the newest opponent frontier first** ([`Trigon::frontier_response`], issue 48):
//!    Pentobi's local points — the attach points the opposing colours' last placements created and
//!    their edge neighbours, the mover's own attach points among them counting twice — and of a few
//!    random legal placements through two of them (the first a double one; only cells from which
//!    a placement can reach the mover's attach points at all, [`Tables::reach`](super::Tables)), the one covering the
//!    most, the biggest among equals (Pentobi weighs `10^(6·local) · 5^size` over every legal move).
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
//! when the draws missed) won 26–13 (one tie), with a narrower local response in step 2 (a
//! placement through a cell that is both a fresh opponent attach point and the mover's own,
//! biggest first). The local points covered in full (every placement through them looked at) made
//! playouts 1.5× slower then (callgrind, 3,000 playouts from the empty board: 682 M instructions
//! against 445 M) and lost 6–15 at 0.5 s. Sampled as step 2 now is (3 cells, 6 draws each), they
//! cost less (`bench trigon-2 --seconds 3` after 24 placements, two matches on the two cores:
//! policy playouts 13,000–14,600/s against 30,900–38,400, search 6,200–6,600 simulations/s
//! against 7,800–9,900), and at equal time they won: `triboard match --engine "NEW gtp --game
//! trigon-2 --seconds 0.15" --engine "OLD gtp --game trigon-2 --seconds 0.15" --game trigon-2
//! --sprt 0,40 --concurrency 1 --seed 48030` (one thread each): **H1 accepted after 112 games**,
//! LLR 3.10, Elo **+105.5 (+43.8 to +174.5)**, pentanomial [6, 0, 27, 1, 22], 0.119 s a move
//! against 0.123. Kept in every variant. Then fewer draws — 2 cells and 3 placements each
//! instead of 3 and 6, and no cell from which no placement reaches the mover's attach points —
//! against those, a non-regression test: `--sprt=-30,10 --seed 48050`: **H1 after 104 games**,
//! LLR 3.06, Elo **+74.6 (+11.8 to +142.7)**, pentanomial [6, 2, 26, 0, 18]: kept. (A version
//! drawing only at the mover's own attach points near the local points, and needing a covered
//! one, answered locally a little more often, 65 % of positions against 60.5 %, at the same cost;
//! not tested in play.)
//!
//! Made cheaper since, the moves unchanged in kind (issue 48's fifth stop): the local points
//! without a branch per cell (each open corner cell's three edge neighbours set at once, the
//! padding bit cleared after, the closed ones masked out per colour), and the reach test only at
//! the cells drawn — uniform among the cells that pass it, by rejection (a rejected cell leaves the
//! pool) — not at every local point first. Timed alone, the local points had cost 7.5 µs a playout
//! from the bench position (policy playouts 42,700/s with them and no draws against 63,000/s
//! without the response), 4.6 µs after. `bench trigon-2 --seconds 2 --moves <24 placements>` (the
//! position of the speed figures above), the builds alternated three times, an SPRT on the other
//! core: policy playouts 32,245, 32,986 and 32,814/s against 31,304, 31,755 and 31,706; search
//! 17,039, 16,629 and 17,307 simulations/s against 16,045, 16,407 and 16,202 (with the tree's
//! arena reused, `ai::tree`).
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
//! piece that fits undo the biggest-first rule that won 26–13 above. Tried again on issue 48's
//! search (folded RAVE values, Pentobi's reward, its expansion threshold; the local response of
//! before step 2's frontier), one thread each: `triboard match --engine "tb gtp --game trigon-2
//! --seconds 0.15 --config last_good_reply=2" --engine "tb gtp --game trigon-2 --seconds 0.15"
//! --game trigon-2 --sprt 0,40 --concurrency 1 --seed 48020`: **H0 accepted after 74 games**,
//! LLR −3.05, Elo −101.4 (−183.5 to −29.1), pentanomial [14, 0, 19, 1, 3]. Still off.

use super::movegen::{count_of, pick};
use super::{Cells, NO_CELL, NO_PLACEMENT, PIECES, Trigon, TrigonMove, nth};
use crate::rules::game::{Rng, random_index};

/// Attach points looked at for the biggest piece, per move.
const DRAWS: usize = 2;
/// Cells of the local points a frontier-covering response draws placements at.
const FRONTIER_CELLS: usize = 2;
/// Random placements drawn through each of them.
const FRONTIER_TRIES: usize = 3;
/// Local points counted at most (Pentobi's Trigon weights stop growing at 5).
const LOCAL_CAP: u32 = 5;

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
        if let Some(mv) = self.frontier_response(rng, allowed) {
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

    /// Pentobi's local points for colour `c` (its idea, our code): the attach points the last
    /// placement of each opposing colour created and their edge neighbours, all still open to that
    /// colour and not forbidden to `c`; and those of them that are `c`'s own attach points, which
    /// count twice. Empty before the opponents have placed.
    pub(super) fn frontier_points(&self, c: usize) -> (Cells, Cells) {
        let t = self.tables;
        let mut local = Cells::default();
        for o in self.opponents(c) {
            let k = self.last[o];
            if k == NO_PLACEMENT {
                continue;
            }
            let s = &t.stamps[k as usize];
            let (s0, theirs) = (s.word as usize, &self.forbidden[o]);
            // Every corner-ring cell still open to `o` with its three edge neighbours (padding
            // included, bit NO_CELL), then the cells closed to `o` taken out: no branch per cell.
            let mut near = Cells::default();
            for i in 0..5 {
                let mut bits = s.corner[i] & !theirs.0[s0 + i];
                near.0[s0 + i] |= bits;
                while bits != 0 {
                    let x = (s0 + i) * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    for &y in &t.edge_neighbours[x] {
                        near.0[y as usize / 64] |= 1 << (y % 64);
                    }
                }
            }
            local = local.or(&near.and_not(theirs));
        }
        local.remove(NO_CELL as usize);
        let local = local.and_not(&self.forbidden[c]);
        let double = local.and(&self.corners[c]);
        (local, double)
    }

    /// The playout's frontier-covering response (Pentobi's playout weights `10^(6·local)·5^size`,
    /// sampled): at a few cells of [`Trigon::frontier_points`] (the first a double one when there
    /// is one), a few random legal placements of `allowed` pieces through the cell, and the one
    /// covering the most local points (doubles twice, at most [`LOCAL_CAP`]) played, the biggest
    /// among equals. `None` when the colour places its first piece, there is no local point or
    /// the draws find no legal placement.
    pub(super) fn frontier_response(&self, rng: &mut Rng, allowed: u32) -> Option<TrigonMove> {
        let c = self.turn as usize;
        if self.left[c] == (1 << PIECES) - 1 {
            return None;
        }
        let (local, double) = self.frontier_points(c);
        let t = self.tables;
        let forbidden = &self.forbidden[c];
        let attach = self.corners[c].and_not(forbidden);
        // The cells worth a draw: a double one not known dead, or one from which a placement
        // can reach an attach point at all — drawn uniformly among those by rejection, so only
        // the drawn cells' reach is looked at; a rejected cell leaves the pool.
        let doubles = double.and_not(&self.dead[c]);
        let n_double = doubles.count() as usize;
        let mut pool = doubles.or(&local.and_not(&double));
        let mut best: Option<(TrigonMove, u32)> = None;
        for draw in 0..FRONTIER_CELLS {
            let x = if draw == 0 && n_double > 0 {
                nth(&doubles, random_index(rng, n_double))
            } else {
                loop {
                    let n = pool.count() as usize;
                    if n == 0 {
                        return best.map(|b| b.0);
                    }
                    let x = nth(&pool, random_index(rng, n));
                    if doubles.contains(x) || t.reach[x].intersects(&attach) {
                        break x;
                    }
                    pool.remove(x);
                }
            };
            let status = t.lists.status(x, forbidden);
            let set = t.lists.pieces(x, status) & self.left[c] & allowed;
            let (list, offsets) = t.lists.list(x, status);
            let total = count_of(offsets, set);
            if total == 0 {
                continue;
            }
            let own = attach.contains(x);
            for _ in 0..FRONTIER_TRIES {
                let k = pick(list, offsets, set, random_index(rng, total));
                let w = &t.windows[k as usize];
                if w.hits(forbidden) || !(own || w.hits(&attach)) {
                    continue;
                }
                let covered = w.count(&local) + w.count(&double);
                let key = covered.min(LOCAL_CAP) * 8 + w.size as u32;
                if best.is_none_or(|b| key > b.1) {
                    best = Some((TrigonMove(k), key));
                }
            }
        }
        best.map(|b| b.0)
    }

    /// The biggest legal placement of one of `allowed` through target cell `x` for the colour to
    /// move, and its size: the size classes from 6 down, each sampled as [`Trigon::sample_at`]
    /// samples (a few random draws, then a full look), a random one of the biggest size found.
    /// `None` if none fits; marks what it finds empty in the caches.
    fn biggest_at(
        &mut self,
        rng: &mut Rng,
        buf: &mut Vec<TrigonMove>,
        x: usize,
        allowed: u32,
    ) -> Option<(TrigonMove, u8)> {
        let c = self.turn as usize;
        let t = self.tables;
        let status = t.lists.status(x, &self.forbidden[c]);
        let present = t.lists.pieces(x, status) & self.left[c];
        let pieces = present & allowed;
        for size in (1..=6usize).rev() {
            let set = pieces & t.by_size[size];
            if set == 0 || (size >= 5 && self.no_fit[c][6 - size].contains(x)) {
                continue;
            }
            if let Some(mv) = self.sample_at(rng, buf, x, status, set) {
                return Some((mv, size as u8));
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

#[cfg(test)]
mod tests {
    use super::super::{TrigonOptions, Variant};
    use super::*;
    use crate::rules::game::{Game as _, rng_from_seed};

    /// The local points a placement covers, doubles twice, capped as the response caps them.
    fn value(g: &Trigon, local: &Cells, double: &Cells, mv: TrigonMove) -> u32 {
        let cells = &g.tables.placements[mv.0 as usize].mask;
        (cells.and(local).count() + cells.and(double).count()).min(LOCAL_CAP)
    }

    /// Along random games of both variants: the local points are what their definition says (an
    /// opposing colour's open attach points by its last placement, their open edge neighbours,
    /// none forbidden to the mover; the doubles its attach points); every frontier response is a
    /// legal placement of a scheduled piece covering one; and it finds the best coverage among
    /// all legal moves in over half the positions (a few draws, not Pentobi's full look: cheaper
    /// draws won their SPRT), 1.8 times as often as a random covering move would or more.
    #[test]
    fn the_frontier_response_covers_the_most_local_points_it_can() {
        let (mut answered, mut best_found, mut random_best) = (0, 0, 0);
        let mut rng = rng_from_seed(11);
        let mut buf = Vec::new();
        for variant in [Variant::Two, Variant::Three] {
            for _ in 0..8 {
                let mut g = Trigon::new(&TrigonOptions { variant }).unwrap();
                while let Some(c) = g.colour_to_move() {
                    let (local, double) = g.frontier_points(c);
                    assert!(local.and(&g.forbidden[c]).is_empty() && double == local.and(&g.corners[c]));
                    let mut open = Cells::default();
                    for o in g.opponents(c).filter(|&o| g.last[o] != NO_PLACEMENT) {
                        let fresh = g.tables.placements[g.last[o] as usize].corner_ring.and_not(&g.forbidden[o]);
                        for x in fresh.iter() {
                            open.insert(x);
                            let near = g.tables.edge_neighbours[x].iter().filter(|&&y| y != NO_CELL);
                            near.filter(|&&y| !g.forbidden[o].contains(y as usize))
                                .for_each(|&y| open.insert(y as usize));
                        }
                    }
                    assert_eq!(local, open.and_not(&g.forbidden[c]));
                    let mut allowed = g.scheduled_pieces();
                    if allowed == 0 {
                        allowed = g.left[c];
                    }
                    if let Some(mv) = g.frontier_response(&mut rng, allowed) {
                        let mut legal = Vec::new();
                        g.legal_moves(&mut legal);
                        assert!(legal.contains(&mv), "{mv:?} is not legal");
                        let piece = g.tables.windows[mv.0 as usize].piece;
                        assert!(allowed & (1 << piece) != 0);
                        let got = value(&g, &local, &double, mv);
                        assert!(got > 0, "{mv:?} covers no local point");
                        let covering: Vec<u32> =
                            legal.iter().map(|&m| value(&g, &local, &double, m)).filter(|&v| v > 0).collect();
                        let best = *covering.iter().max().unwrap();
                        answered += 1;
                        best_found += (got == best) as u32;
                        random_best += (covering[random_index(&mut rng, covering.len())] == best) as u32;
                    }
                    let mv = g.policy_move(&mut rng, &mut buf);
                    g.play(mv).unwrap();
                }
            }
        }
        assert!(answered > 200, "{answered} responses");
        assert!(best_found * 2 >= answered, "the best coverage in {best_found} of {answered}");
        assert!(best_found * 5 >= random_best * 9, "{best_found} against a random covering move's {random_best}");
    }
}
