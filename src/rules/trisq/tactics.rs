//! What Trisq's knowledge and move features read of a position: the mover's answers to the
//! opponent's last turn, and how far each slot lies off a shortest chain between a colour's edges.

use super::{NO_SLOT, SLOTS, Trisq, own_edges};

/// The most answers collected at once.
pub(super) const MAX_ANSWERS: usize = 16;

impl Trisq {
    /// True when slots `a` and `b` are edge-adjacent.
    #[inline(always)]
    fn is_neighbour(&self, a: usize, b: usize) -> bool {
        let w = &self.masks.neighbours[a];
        let k = (b / 64).wrapping_sub(w.base);
        k < 4 && w.bits[k] >> (b % 64) & 1 != 0
    }

    /// Whether the mover may place into `slot` now (the first or an optional second piece).
    #[inline]
    fn may_place(&self, slot: usize) -> bool {
        !self.blocked.contains(slot)
            && if self.first == NO_SLOT { self.ply == 0 || self.first_ok(slot) } else { self.second_ok(slot) }
    }

    /// The mover's answers to the opponent's last turn: for each piece `x` it placed, the last
    /// open slot of a bridge between two own pieces next to `x` (not both joined to the same own
    /// edge already), and of an edge template of an own piece next to `x` with `x` on that edge.
    /// Legal moves only, possibly repeated; returns how many were written to `out`.
    pub(super) fn answers(&self, out: &mut [u16; MAX_ANSWERS]) -> usize {
        let c = self.mover as usize;
        let own = &self.own[c];
        let (ea, eb) = own_edges(c);
        let mut n = 0;
        let mut push = |r: usize, n: &mut usize| {
            if *n < MAX_ANSWERS && self.may_place(r) {
                out[*n] = r as u16;
                *n += 1;
            }
        };
        for &x in &self.last_turn[c ^ 1] {
            if x == NO_SLOT {
                continue;
            }
            let x = x as usize;
            let mut near = [0u16; 8];
            let mut k = 0;
            for &p in &self.board.edge_rows[x] {
                if own.contains(p as usize) {
                    near[k] = p;
                    k += 1;
                }
            }
            for i in 0..k {
                let p = near[i] as usize;
                for &q in &near[i + 1..k] {
                    let q = q as usize;
                    let joined = (0..2).any(|e| self.reach[c][e].contains(p) && self.reach[c][e].contains(q));
                    if joined || self.is_neighbour(p, q) {
                        continue;
                    }
                    if let Some(r) = self.single_open(p, |r| self.is_neighbour(q, r)) {
                        push(r, &mut n);
                    }
                }
                for (e, bit) in [(0, ea), (1, eb)] {
                    if self.board.edges[x] & bit != 0
                        && !self.reach[c][e].contains(p)
                        && let Some(r) = self.single_open(p, |r| self.board.edges[r] & bit != 0)
                    {
                        push(r, &mut n);
                    }
                }
            }
        }
        n
    }

    /// For colour `c`: how many pieces more than the fewest a chain between its edges needs if it
    /// must use each slot (0: the slot is on a shortest chain), by 0-1 breadth-first search from
    /// either edge over own pieces (free) and open slots (one piece each). 255 where none passes.
    pub(super) fn path_slack(&self, c: usize) -> [u8; SLOTS] {
        let (ea, eb) = own_edges(c);
        let da = self.edge_distance(c, ea);
        let db = self.edge_distance(c, eb);
        let mut best = u8::MAX;
        let mut slack = [u8::MAX; SLOTS];
        for s in 0..self.board.slots() {
            if da[s] != u8::MAX && db[s] != u8::MAX {
                let cost = !self.own[c].contains(s) as u16;
                let through = (da[s] as u16 + db[s] as u16 - cost).min(u8::MAX as u16 - 1) as u8;
                slack[s] = through;
                best = best.min(through);
            }
        }
        for v in slack.iter_mut() {
            if *v != u8::MAX {
                *v -= best;
            }
        }
        slack
    }

    /// The fewest pieces colour `c` needs to join each slot (counting it) to the edge `bit`, level
    /// by level: own pieces cost nothing, open slots one piece, the rest cannot be passed.
    pub(super) fn edge_distance(&self, c: usize, bit: u8) -> [u8; SLOTS] {
        let cost = |s: usize| {
            if self.own[c].contains(s) {
                Some(0)
            } else if self.blocked.contains(s) {
                None
            } else {
                Some(1)
            }
        };
        let mut dist = [u8::MAX; SLOTS];
        // `level`: the slots at the distance being settled (each enters at most twice: from the
        // previous level and by a free step); `next`: those one piece further.
        let (mut level, mut next) = ([0u16; 2 * SLOTS], [0u16; SLOTS]);
        let (mut len, mut next_len) = (0, 0);
        for s in (0..self.board.slots()).filter(|&s| self.board.edges[s] & bit != 0) {
            match cost(s) {
                Some(0) => {
                    dist[s] = 0;
                    level[len] = s as u16;
                    len += 1;
                }
                Some(_) => {
                    dist[s] = 1;
                    next[next_len] = s as u16;
                    next_len += 1;
                }
                None => {}
            }
        }
        let mut d = 0u8;
        loop {
            while len > 0 {
                len -= 1;
                let s = level[len] as usize;
                if dist[s] != d {
                    continue; // settled nearer since
                }
                for &t in &self.board.edge_rows[s] {
                    let t = t as usize;
                    match (t != NO_SLOT as usize).then(|| cost(t)).flatten() {
                        Some(0) if dist[t] > d => {
                            dist[t] = d;
                            level[len] = t as u16;
                            len += 1;
                        }
                        Some(1) if dist[t] > d + 1 => {
                            dist[t] = d + 1;
                            next[next_len] = t as u16;
                            next_len += 1;
                        }
                        _ => {}
                    }
                }
            }
            if next_len == 0 || d == u8::MAX - 2 {
                return dist;
            }
            level[..next_len].copy_from_slice(&next[..next_len]);
            (len, next_len) = (next_len, 0);
            d += 1;
        }
    }

    /// The one open slot edge-adjacent to `p` that passes `keep`, if exactly one does.
    #[inline]
    fn single_open(&self, p: usize, keep: impl Fn(usize) -> bool) -> Option<usize> {
        let mut found = None;
        for &r in &self.board.edge_rows[p] {
            let r = r as usize;
            if r != NO_SLOT as usize && !self.blocked.contains(r) && keep(r) {
                if found.is_some() {
                    return None;
                }
                found = Some(r);
            }
        }
        found
    }
}
