//! Last-Good-Reply with Forgetting (Drake 2009; Baier and Drake 2010, "The Power of Forgetting"),
//! the playout memory Pentobi's playouts use (LGRF-2; our code): after every simulation, each
//! move of a seat that won is stored as *the* reply to the move before it (and, at depth 2, to the
//! two moves before it), and each move of a seat that lost is forgotten where it is the stored
//! reply. A playout then tries the stored reply to the last two moves, then to the last move,
//! before its policy, if the game accepts it there ([`Knowledge::accepts_reply`]).
//!
//! One table per search tree, kept across its moves (a reply is checked before it is played, so
//! an old one costs only that check). Keyed by [`Game::move_key`](crate::rules::Game::move_key),
//! which in Trigon names the colour too; a stored reply remembers its seat and its own key, and is
//! offered only to that seat when the move has the same key now (the same colour to move).
//! Nothing here allocates after [`Replies::new`].

use crate::rules::Knowledge;

/// One stored reply: the move, its key when it was played, and its seat.
#[derive(Clone, Copy, Debug)]
struct Entry<M> {
    mv: M,
    key: u32,
    /// A check of the two-move context (0 in the one-move table).
    tag: u32,
    seat: u8,
}

/// `seat` of an empty entry.
const EMPTY: u8 = u8::MAX;

/// Entries of the two-move table (hashed), a power of two.
const TWO_MOVE_ENTRIES: usize = 1 << 17;

/// The last good replies of one search (see the module doc).
pub(crate) struct Replies<M> {
    /// 1: replies to the last move; 2: also to the last two moves.
    depth: u8,
    /// Indexed by the previous move's key.
    one: Vec<Entry<M>>,
    /// Indexed by a hash of the two previous moves' keys (and checked by `tag`).
    two: Vec<Entry<M>>,
}

/// Where the two-move context `(before, last)` goes in the two-move table, and its check tag.
#[inline(always)]
fn slot(before: u32, last: u32) -> (usize, u32) {
    let h = (((before as u64) << 32) | last as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let h = h ^ (h >> 29);
    ((h as usize) & (TWO_MOVE_ENTRIES - 1), (h >> 32) as u32)
}

impl<M: Copy + PartialEq> Replies<M> {
    /// An empty table of replies to the last `depth` (1 or 2) moves, for games whose move keys
    /// lie below `key_space`; `filler` is any move (empty entries hold it, never offered).
    pub fn new(depth: u8, key_space: usize, filler: M) -> Replies<M> {
        let empty = Entry { mv: filler, key: 0, tag: 0, seat: EMPTY };
        let two = if depth >= 2 { vec![empty; TWO_MOVE_ENTRIES] } else { Vec::new() };
        Replies { depth: depth.min(2), one: vec![empty; key_space], two }
    }

    /// The replies to try for `seat` after `trace` (the simulation's `(seat, key)` per ply, the
    /// last one the move just played), best first: the two-move reply, then the one-move reply.
    pub fn suggest(&self, seat: u8, trace: &[(u8, u32)]) -> [Option<(M, u32)>; 2] {
        let n = trace.len();
        let mut out = [None, None];
        if n == 0 {
            return out;
        }
        let last = trace[n - 1].1;
        if self.depth >= 2 && n >= 2 {
            let (i, tag) = slot(trace[n - 2].1, last);
            let e = &self.two[i];
            if e.seat == seat && e.tag == tag {
                out[0] = Some((e.mv, e.key));
            }
        }
        let e = &self.one[last as usize];
        if e.seat == seat {
            out[1] = Some((e.mv, e.key));
        }
        out
    }

    /// Learns from one finished simulation: `trace` its `(seat, key)` per ply, `moves` its moves,
    /// `ranks` each seat's rank value. A seat above ½ won: its replies are stored; below ½ it
    /// lost: its replies are forgotten where stored; exactly ½ (a tie) changes nothing.
    pub fn update(&mut self, trace: &[(u8, u32)], moves: &[M], ranks: &[f32]) {
        debug_assert_eq!(trace.len(), moves.len());
        for i in 1..trace.len() {
            let (seat, key) = trace[i];
            let rank = ranks[seat as usize];
            if rank == 0.5 {
                continue;
            }
            let won = rank > 0.5;
            let mv = moves[i];
            let last = trace[i - 1].1;
            let reply = Entry { mv, key, tag: 0, seat };
            Self::learn(&mut self.one[last as usize], reply, won);
            if self.depth >= 2 && i >= 2 {
                let (j, tag) = slot(trace[i - 2].1, last);
                Self::learn(&mut self.two[j], Entry { tag, ..reply }, won);
            }
        }
    }

    /// Stores `reply` in `e` if its seat won, else empties `e` if it holds that same reply.
    #[inline(always)]
    fn learn(e: &mut Entry<M>, reply: Entry<M>, won: bool) {
        if won {
            *e = reply;
        } else if e.seat == reply.seat && e.key == reply.key && e.tag == reply.tag && e.mv == reply.mv {
            e.seat = EMPTY;
        }
    }
}

/// The first of the replies stored for the seat to move in `state` (after `trace`) that the game
/// accepts there: its key unchanged and [`Knowledge::accepts_reply`].
#[inline]
pub(crate) fn stored_reply<G: Knowledge>(
    replies: &Replies<G::Move>,
    state: &G,
    seat: u8,
    trace: &[(u8, u32)],
) -> Option<G::Move> {
    replies
        .suggest(seat, trace)
        .into_iter()
        .flatten()
        .find(|&(mv, key)| state.move_key(mv) as u32 == key && state.accepts_reply(mv))
        .map(|(mv, _)| mv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winners_replies_are_stored_and_losers_forgotten() {
        let mut r = Replies::new(2, 100, 0u16);
        // Seat 0 plays keys 10, 30; seat 1 plays 20, 40 (moves = keys here).
        let trace = [(0, 10), (1, 20), (0, 30), (1, 40)];
        let moves = [10, 20, 30, 40];
        assert_eq!(r.suggest(1, &trace[..1]), [None, None]);
        r.update(&trace, &moves, &[1.0, 0.0]);
        // Seat 0 won: its reply 30 to 20 is stored, for seat 0 only; seat 1's replies are not.
        assert_eq!(r.suggest(0, &[(1, 20)]), [None, Some((30, 30))]);
        assert_eq!(r.suggest(1, &[(1, 20)]), [None, None]);
        assert_eq!(r.suggest(1, &[(0, 10)]), [None, None]);
        // The two-move reply to (10, 20) too, and not to another move before 20.
        assert_eq!(r.suggest(0, &[(0, 10), (1, 20)]), [Some((30, 30)), Some((30, 30))]);
        assert_eq!(r.suggest(0, &[(0, 11), (1, 20)]), [None, Some((30, 30))]);
        // A tie changes nothing.
        r.update(&trace, &moves, &[0.5, 0.5]);
        assert_eq!(r.suggest(0, &[(0, 10), (1, 20)]), [Some((30, 30)), Some((30, 30))]);
        // A loss with another reply forgets nothing; a loss with the stored one forgets it.
        r.update(&[(0, 10), (1, 20), (0, 31)], &[10, 20, 31], &[0.0, 1.0]);
        assert_eq!(r.suggest(0, &[(0, 10), (1, 20)]), [Some((30, 30)), Some((30, 30))]);
        r.update(&[(0, 10), (1, 20), (0, 30)], &[10, 20, 30], &[0.0, 1.0]);
        assert_eq!(r.suggest(0, &[(0, 10), (1, 20)]), [None, None]);
        // A later win overwrites.
        r.update(&[(1, 20), (0, 32)], &[20, 32], &[1.0, 0.0]);
        assert_eq!(r.suggest(0, &[(1, 20)]), [None, Some((32, 32))]);
        r.update(&[(1, 20), (0, 33)], &[20, 33], &[1.0, 0.0]);
        assert_eq!(r.suggest(0, &[(1, 20)]), [None, Some((33, 33))]);
    }

    /// Trigon playouts as the search runs them, replies first: every move played is legal, and
    /// remembered replies are played. (From the empty board, without the tree's shared first
    /// moves, few are: a stored reply is mostly taken or off the schedule by then. In a search
    /// from 24 placements in, one was found for 78 % of playout moves and played at 12.6 %.)
    #[test]
    fn trigon_playouts_with_replies_play_legal_moves() {
        use crate::rules::trigon::{Trigon, TrigonOptions, Variant};
        use crate::rules::{Game, rng_from_seed};
        let root = Trigon::new(&TrigonOptions { variant: Variant::Two }).unwrap();
        let mut legal = Vec::new();
        root.legal_moves(&mut legal);
        let mut r = Replies::new(2, root.move_key_space(), legal[0]);
        let (mut rng, mut buf) = (rng_from_seed(5), Vec::new());
        let (mut trace, mut moves) = (Vec::new(), Vec::new());
        let (mut replies, mut plies) = (0usize, 0usize);
        for _ in 0..300 {
            let mut g = root.clone();
            g.warm_up();
            trace.clear();
            moves.clear();
            while let Some(seat) = g.to_move() {
                let reply = stored_reply(&r, &g, seat.0, &trace);
                let mv = match reply {
                    Some(mv) => mv,
                    None => g.playout_move(&mut rng, &mut buf).unwrap(),
                };
                g.legal_moves(&mut legal);
                assert!(legal.contains(&mv), "the playout's move is legal");
                replies += usize::from(reply.is_some());
                plies += 1;
                trace.push((seat.0, g.move_key(mv) as u32));
                moves.push(mv);
                g.play_unchecked(mv);
            }
            let ranks = g.outcome().unwrap().ranks;
            r.update(&trace, &moves, &ranks);
        }
        assert!(replies > 0, "{replies} replies in {plies} plies");
    }

    #[test]
    fn depth_one_keeps_no_two_move_replies() {
        let mut r = Replies::new(1, 100, 0u16);
        r.update(&[(0, 10), (1, 20), (0, 30)], &[10, 20, 30], &[1.0, 0.0]);
        assert_eq!(r.suggest(0, &[(0, 10), (1, 20)]), [None, Some((30, 30))]);
    }
}
