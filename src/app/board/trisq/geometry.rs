//! Trisq's board in the world: the rules' quarter units (`docs/rules/trisq.md` §Board, `y` down
//! from the top-left corner) as world units centred on the origin, `y` up; slots as convex
//! counter-clockwise polygons; the frame's measures; and the slot a pointer aims at.

use bevy::prelude::*;

use crate::rules::geometry::trisq::TrisqBoard;
use crate::rules::trisq::Trisq;

/// A square's side in world units (pixels at camera scale 1); the rules' quarter unit is a fourth.
pub const SQUARE: f32 = 72.0;
/// The rules' quarter unit in world units.
pub const QUARTER: f32 = SQUARE / 4.0;
/// The coloured edge bands' thickness, in world units.
pub const BAND: f32 = SQUARE * 0.16;
/// The gap between the grid and the edge bands, in world units.
pub const BAND_GAP: f32 = SQUARE * 0.07;
/// The frame's margin around the bands, in world units.
pub const MARGIN: f32 = SQUARE * 0.36;

/// A point in quarter units (`x` right, `y` down from the board's top-left corner) in world units,
/// the board of side `n` centred on the origin, `y` up.
pub fn world_point(n: usize, x: f32, y: f32) -> Vec2 {
    let half = n as f32 * SQUARE / 2.0;
    Vec2::new(x * QUARTER - half, half - y * QUARTER)
}

/// A slot's four corners in world units, counter-clockwise.
pub fn slot_corners(board: &TrisqBoard, slot: usize) -> [Vec2; 4] {
    ccw(board.polygon[slot].map(|(x, y)| world_point(board.side, x as f32, y as f32)))
}

/// A slot's centre (the centroid of its area) in world units.
pub fn slot_centre(board: &TrisqBoard, slot: usize) -> Vec2 {
    centroid(&slot_corners(board, slot))
}

/// The centre of square `square` (`row·n + col`) in world units.
pub fn square_centre(n: usize, square: usize) -> Vec2 {
    let (col, row) = (square % n, square / n);
    world_point(n, 4.0 * col as f32 + 2.0, 4.0 * row as f32 + 2.0)
}

/// The slots of `square` (8, the four of filling H then the four of V).
pub fn square_slots(square: usize) -> std::ops::Range<usize> {
    8 * square..8 * square + 8
}

/// The square's name: `c4`.
pub fn square_name(n: usize, square: usize) -> String {
    format!("{}{}", (b'a' + (square % n) as u8) as char, square / n + 1)
}

/// What a press on a square aims at ([`aim`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aim {
    /// This free slot: a press places it (if the rules allow it now).
    Slot(usize),
    /// The pointer is on this slot's piece: a press is refused.
    Taken(usize),
    /// The square has no free slot left.
    Full,
}

/// What a press on `square` aims at, the pointer at `pointer` (world units; `None` stands for the
/// square's centre). The pointer lies in one slot of each filling: a free one of those is aimed at
/// (a legal one first, then the one whose centre is nearest); if neither is free and one holds a
/// piece, that piece is [`Aim::Taken`] — a press on a piece never places beside it. Only a pointer
/// in no slot (a boundary, or outside the square) falls back to the nearest free slot.
pub fn aim(game: &Trisq, legal: &TrisqLegal, square: usize, pointer: Option<Vec2>) -> Aim {
    let board = game.board();
    if square >= board.side * board.side {
        return Aim::Full;
    }
    let at = pointer.unwrap_or_else(|| square_centre(board.side, square));
    let nearest = |slots: &mut dyn Iterator<Item = usize>| {
        slots.min_by(|&a, &b| {
            (!legal.slot(a))
                .cmp(&!legal.slot(b))
                .then(slot_centre(board, a).distance(at).total_cmp(&slot_centre(board, b).distance(at)))
        })
    };
    let under: Vec<usize> = square_slots(square).filter(|&s| contains(&slot_corners(board, s), at)).collect();
    if let Some(slot) = nearest(&mut under.iter().copied().filter(|&s| game.available(s))) {
        return Aim::Slot(slot);
    }
    if let Some(&taken) = under.iter().find(|&&s| game.piece(s).is_some()) {
        return Aim::Taken(taken);
    }
    match nearest(&mut square_slots(square).filter(|&s| game.available(s))) {
        Some(slot) => Aim::Slot(slot),
        None => Aim::Full,
    }
}

/// The free slot a press on `square` places ([`aim`]'s [`Aim::Slot`]); `None` when the pointer is
/// on a piece or the square is full.
pub fn aimed_slot(game: &Trisq, legal: &TrisqLegal, square: usize, pointer: Option<Vec2>) -> Option<usize> {
    match aim(game, legal, square, pointer) {
        Aim::Slot(slot) => Some(slot),
        Aim::Taken(_) | Aim::Full => None,
    }
}

/// The point where two point-adjacent slots touch, in world units: a corner of one on the other's
/// boundary.
pub fn touch_point(board: &TrisqBoard, a: usize, b: usize) -> Option<Vec2> {
    let (pa, pb) = (slot_corners(board, a), slot_corners(board, b));
    let on = |poly: &[Vec2; 4], p: Vec2| {
        (0..4).any(|i| {
            let (u, v) = (poly[i], poly[(i + 1) % 4]);
            (v - u).perp_dot(p - u).abs() < 1e-2 && (p - u).dot(p - v) <= 1e-2
        })
    };
    pa.iter().copied().find(|&p| on(&pb, p)).or_else(|| pb.iter().copied().find(|&p| on(&pa, p)))
}

fn signed_area(p: &[Vec2]) -> f32 {
    (0..p.len()).map(|i| p[i].perp_dot(p[(i + 1) % p.len()])).sum::<f32>() / 2.0
}

/// The quadrilateral `p` counter-clockwise (the rules' polygons run either way once `y` is up).
pub fn ccw(mut p: [Vec2; 4]) -> [Vec2; 4] {
    if signed_area(&p) < 0.0 {
        p.reverse();
    }
    p
}

/// The centroid of the polygon `p`'s area.
pub fn centroid(p: &[Vec2]) -> Vec2 {
    let a = signed_area(p);
    let mut c = Vec2::ZERO;
    for i in 0..p.len() {
        let (u, v) = (p[i], p[(i + 1) % p.len()]);
        c += (u + v) * u.perp_dot(v);
    }
    c / (6.0 * a)
}

/// True when `at` lies in the counter-clockwise convex polygon `p` (its boundary included).
fn contains(p: &[Vec2], at: Vec2) -> bool {
    (0..p.len()).all(|i| (p[(i + 1) % p.len()] - p[i]).perp_dot(at - p[i]) >= -1e-3)
}

/// The convex counter-clockwise polygon `p` with every side moved inwards by `d`.
pub fn inset(p: &[Vec2], d: f32) -> Vec<Vec2> {
    let n = p.len();
    let line = |i: usize| {
        let dir = (p[(i + 1) % n] - p[i]).normalize();
        (p[i] + dir.perp() * d, dir)
    };
    (0..n)
        .map(|i| {
            let (a, u) = line((i + n - 1) % n);
            let (b, v) = line(i);
            a + u * (b - a).perp_dot(v) / u.perp_dot(v)
        })
        .collect()
}

/// The legal moves of the position in play, by slot, kept while the position stands.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct TrisqLegal {
    /// `slots[s]`: placing into `s` is legal now.
    pub slots: Vec<bool>,
    /// `end` is legal now.
    pub end: bool,
}

impl TrisqLegal {
    /// Placing into `slot` is legal now.
    pub fn slot(&self, slot: usize) -> bool {
        self.slots.get(slot).copied().unwrap_or(false)
    }
}
