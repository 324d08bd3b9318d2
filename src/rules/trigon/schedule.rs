//! The opening schedule of the search's knowledge (Pentobi's idea, our code and tables): which
//! pieces the tree and the playouts consider by round, one starting point for a colour's first
//! piece, and moves near the centre while few pieces are on the board. Knowledge only: when the
//! schedule leaves a colour no legal move, every legal move is considered (a colour is never made
//! to pass by it), and the rules (`mod.rs`) never read it.
//!
//! By round (`ply / colours`, every colour's move counted, as Pentobi counts): round 0 the V or
//! the I6 only; rounds 1–3 the hexiamonds but the O; round 4 size ≥ 5; rounds 5–6 size ≥ 4;
//! rounds 7–8 size ≥ 3; then every piece.

use std::sync::OnceLock;

use super::pieces::piece_by_name;
use super::{PIECES, Trigon, TrigonMove};

/// While at most this many pieces are on the board, the tree considers only the placements whose
/// nearest cell to the centre is within [`CENTRE_SLACK`] of the nearest of all.
const CENTRE_PIECES: u32 = 3;
/// How much farther than the nearest placement's (triangle side lengths) a placement may reach.
const CENTRE_SLACK: f32 = 0.5;

/// The pieces (a bit per piece) the schedule considers in round `round`.
pub fn scheduled(round: usize) -> u32 {
    static TABLE: OnceLock<[u32; 9]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let by_size = super::Tables::get(9).by_size;
        let piece = |name: &str| piece_by_name(name).map_or(0, |p| 1u32 << p);
        let at_least = |size: usize| (size..=6).fold(0, |acc, s| acc | by_size[s]);
        std::array::from_fn(|round| match round {
            0 => piece("V") | piece("I6"),
            1..=3 => by_size[6] & !piece("O"),
            4 => at_least(5),
            5..=6 => at_least(4),
            _ => at_least(3),
        })
    });
    table.get(round).copied().unwrap_or((1 << PIECES) - 1)
}

impl Trigon {
    /// The round: moves of every colour so far over the number of colours.
    pub(super) fn round(&self) -> usize {
        self.ply as usize / self.colours as usize
    }

    /// The pieces of the colour to move that the schedule considers now (a subset of those left).
    pub(super) fn scheduled_pieces(&self) -> u32 {
        self.left[self.turn as usize] & scheduled(self.round())
    }

    /// The starting point a colour's first piece goes to in the search (Pentobi's rule): of the
    /// free starting points, the one farthest from the occupied ones, the colour's own side's
    /// counting double; `None` if none is free.
    pub(super) fn best_starting_point(&self, c: usize) -> Option<usize> {
        let t = self.tables;
        let b = t.board;
        let seat = self.player_of(c);
        let xy = |p: usize| {
            let (x, y) = b.xy[p];
            (x as f32 * 0.5, y as f32 * 0.866)
        };
        let mut best = None;
        let mut far = -1.0f32;
        for &p in &b.starting_points {
            let p = p as usize;
            if self.forbidden[c].contains(p) {
                continue;
            }
            let (px, py) = xy(p);
            let mut d = 0.0;
            for &q in &b.starting_points {
                let q = q as usize;
                let Some(owner) = self.colour_at(q) else { continue };
                let (qx, qy) = xy(q);
                let weight = if self.player_of(owner) == seat { 2.0 } else { 1.0 };
                d += weight * (qx - px).hypot(qy - py);
            }
            if d > far {
                far = d;
                best = Some(p);
            }
        }
        best
    }

    /// The moves the search's tree considers (the schedule applied to the legal moves, `out`
    /// holding them): the scheduled pieces; a first piece only on [`Trigon::best_starting_point`];
    /// while at most [`CENTRE_PIECES`] pieces are on the board, only placements reaching nearly
    /// as close to the centre as the closest. Falls back to every legal move when the schedule
    /// leaves none.
    pub(super) fn schedule_moves(&self, out: &mut Vec<TrigonMove>) {
        use super::Game as _;
        self.legal_moves(out);
        let Some(c) = self.colour_to_move() else { return };
        if out.len() <= 1 {
            return;
        }
        let t = self.tables;
        let allowed = self.scheduled_pieces();
        let first = self.left[c] == (1 << PIECES) - 1;
        let start = if first { self.best_starting_point(c) } else { None };
        let keep = |m: &TrigonMove| {
            let k = m.0 as usize;
            allowed & (1 << t.windows[k].piece) != 0 && start.is_none_or(|s| t.placements[k].mask.contains(s))
        };
        if out.iter().any(keep) {
            out.retain(keep);
        }
        if self.occupied_pieces() <= CENTRE_PIECES && out.len() > 1 {
            let nearest: Vec<f32> = out.iter().map(|m| t.nearest_centre(m.0 as usize)).collect();
            let min = nearest.iter().copied().fold(f32::INFINITY, f32::min);
            let mut i = 0;
            out.retain(|_| {
                i += 1;
                nearest[i - 1] <= min + CENTRE_SLACK
            });
        }
    }

    /// Pieces on the board, all colours.
    pub(super) fn occupied_pieces(&self) -> u32 {
        (0..self.colours as usize).map(|c| self.placed(c)).sum()
    }
}

impl super::Tables {
    /// The distance from the board's centre (in triangle side lengths) of placement `k`'s cell
    /// nearest to it.
    pub fn nearest_centre(&self, k: usize) -> f32 {
        let b = self.board;
        let (cx, cy) = ((b.width as f32 - 1.0) / 2.0, (b.height as f32 - 1.0) / 2.0);
        self.placements[k]
            .cells
            .iter()
            .map(|&c| {
                let (x, y) = b.xy[c as usize];
                ((x as f32 - cx) * 0.5).hypot((y as f32 - cy) * 0.866)
            })
            .fold(f32::INFINITY, f32::min)
    }
}
