//! Trisq search knowledge: connection patterns in the playouts and priors, as strong Hex programs
//! use them, on Trisq's trapezia.
//!
//! - **Save a bridge**: two own pieces that are not edge-adjacent but share empty edge-adjacent
//!   slots are virtually connected while two such slots are open; when the opponent's last turn
//!   leaves exactly one, the policy takes it ([`Trisq::answers`]).
//! - **Save an edge template**: an own piece not yet joined to one of its edges with open slots
//!   edge-adjacent to it on that edge; when the opponent's last turn leaves exactly one, take it.
//!
//! Only the search uses it ([`crate::rules::Game::playout_move`],
//! [`crate::rules::Game::move_priors`]); the rules never do.

use super::{NO_SLOT, Trisq, TrisqMove, own_edges};
use crate::rules::{Game, Rng, random_index};

/// Priors `(value, weight)`: an answer to the opponent's last turn, a slot edge-adjacent to pieces
/// of both colours, to own pieces only, to the opponent's only, to none, and `end`.
const PRIOR_ANSWER: (f32, f32) = (1.0, 20.0);
const PRIOR_BOTH: (f32, f32) = (0.7, 10.0);
const PRIOR_OWN: (f32, f32) = (0.6, 10.0);
const PRIOR_OPPONENT: (f32, f32) = (0.55, 10.0);
const PRIOR_ALONE: (f32, f32) = (0.35, 10.0);
const PRIOR_END: (f32, f32) = (0.2, 10.0);

/// The most answers collected at once.
const MAX_ANSWERS: usize = 16;

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
                    if self.board.edges[x] & bit != 0 && !self.reach[c][e].contains(p) {
                        if let Some(r) = self.single_open(p, |r| self.board.edges[r] & bit != 0) {
                            push(r, &mut n);
                        }
                    }
                }
            }
        }
        n
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

    /// The search's priors (`(value, weight)` per move, see [`Game::move_priors`]): answers to the
    /// opponent's last turn first, then slots next to own and opponent pieces, then the rest;
    /// `end` low (a second piece is nearly always worth more).
    pub(super) fn priors(&self, moves: &[TrisqMove], out: &mut Vec<(f32, f32)>) {
        out.clear();
        let c = self.mover as usize;
        let mut answers = [0u16; MAX_ANSWERS];
        let n = if self.pending == 0 { self.answers(&mut answers) } else { 0 };
        let answers = &answers[..n];
        out.extend(moves.iter().map(|&mv| {
            let Some(slot) = mv.slot() else { return PRIOR_END };
            if answers.contains(&(slot as u16)) {
                return PRIOR_ANSWER;
            }
            let row = &self.board.edge_rows[slot];
            let next_to = |k: usize| row.iter().any(|&r| self.own[k].contains(r as usize));
            match (next_to(c), next_to(c ^ 1)) {
                (true, true) => PRIOR_BOTH,
                (true, false) => PRIOR_OWN,
                (false, true) => PRIOR_OPPONENT,
                (false, false) => PRIOR_ALONE,
            }
        }));
    }

    /// The playout policy's move: an answer to the opponent's last turn when there is one
    /// ([`Trisq::answers`], uniformly among them), else [`Game::random_move`]. `None` once the
    /// game is over.
    pub(super) fn policy_move(&mut self, rng: &mut Rng, buf: &mut Vec<TrisqMove>) -> Option<TrisqMove> {
        if self.winner.is_some() {
            return None;
        }
        if self.pending == 0 {
            let mut answers = [0u16; MAX_ANSWERS];
            let n = self.answers(&mut answers);
            if n > 0 {
                return Some(TrisqMove::place(answers[random_index(rng, n)] as usize));
            }
        }
        self.random_move(rng, buf)
    }
}
