//! Trisq's board (`docs/rules/trisq.md` §Board, §The piece and the slots, §Adjacency): an `N × N` grid of
//! squares, each with 8 slots — the four trapezia of filling **H** and the four of filling **V** —
//! as exact polygons in quarter units, and the slots' edge- and point-adjacency and board-edge
//! contact computed once per size from that geometry.
//!
//! Square `(col, row)` covers `x ∈ [4·col, 4·col + 4]`, `y ∈ [4·row, 4·row + 4]` in quarter units, `y`
//! down, row 0 at the top. Slot index: `8·(row·N + col) + 4·filling + k`, filling 0 = H, 1 = V,
//! `k` in 0–3 in the rules file's order.

use std::sync::OnceLock;

/// The smallest board side, in squares (for tests; play uses 6–9).
pub const MIN_SIDE: usize = 2;
/// The largest board side, in squares.
pub const MAX_SIDE: usize = 9;

/// The piece, *resolved* (`docs/rules/trisq.md` §The piece): a right trapezium of height ½ with parallel
/// sides ¼ and ¾, the other leg at 45°. Filling H's four slots in one square, in quarter units with
/// `(0, 0)` the square's top-left corner; filling V is H turned by 90°.
pub const FILLING_H: [[(i32, i32); 4]; 4] = [
    [(0, 0), (3, 0), (1, 2), (0, 2)],
    [(3, 0), (4, 0), (4, 2), (1, 2)],
    [(0, 2), (3, 2), (1, 4), (0, 4)],
    [(3, 2), (4, 2), (4, 4), (1, 4)],
];
/// Filling V's four slots (`docs/rules/trisq.md`: H rotated 90°), in the rules file's order.
pub const FILLING_V: [[(i32, i32); 4]; 4] = [
    [(0, 0), (2, 0), (2, 3), (0, 1)],
    [(2, 0), (4, 0), (4, 3), (2, 1)],
    [(0, 1), (2, 3), (2, 4), (0, 4)],
    [(2, 1), (4, 3), (4, 4), (2, 4)],
];

/// The board edges a slot may touch, as bits of [`TrisqBoard::edges`].
pub const TOP: u8 = 1;
/// The bottom edge (Red's, with [`TOP`]).
pub const BOTTOM: u8 = 2;
/// The left edge (Blue's, with [`RIGHT`]).
pub const LEFT: u8 = 4;
/// The right edge.
pub const RIGHT: u8 = 8;

/// The precomputed tables of one board size. Obtain it with [`TrisqBoard::get`].
pub struct TrisqBoard {
    /// The side `N`, in squares.
    pub side: usize,
    /// Every slot's polygon, in quarter units on the whole board (`8·N²` slots).
    pub polygon: Vec<[(i32, i32); 4]>,
    /// `edge_adjacent[s]`: the slots sharing a boundary segment of positive length with slot `s`.
    pub edge_adjacent: Vec<Vec<u16>>,
    /// `point_adjacent[s]`: the slots touching slot `s` in exactly one point.
    pub point_adjacent: Vec<Vec<u16>>,
    /// The board edges each slot has a side on ([`TOP`], [`BOTTOM`], [`LEFT`], [`RIGHT`]).
    pub edges: Vec<u8>,
    /// `edge_adjacent` as fixed rows padded with [`NO_SLOT`], for the engine's inner loops.
    pub edge_rows: Vec<[u16; MAX_EDGE]>,
    /// `point_adjacent` as fixed rows padded with [`NO_SLOT`].
    pub point_rows: Vec<[u16; MAX_POINT]>,
    /// `bridge_rows[s][i]`: the slots edge-adjacent to both `s` and `point_rows[s][i]` (the places
    /// of a bridge of that point contact), padded with [`NO_SLOT`].
    pub bridge_rows: Vec<[[u16; MAX_BRIDGE]; MAX_POINT]>,
}

/// The padding of [`TrisqBoard`]'s fixed rows: one past the last slot of the largest board, never
/// a piece.
pub const NO_SLOT: u16 = (8 * MAX_SIDE * MAX_SIDE) as u16;
/// The most slots edge-adjacent to one slot (over both fillings of the neighbouring squares).
pub const MAX_EDGE: usize = 8;
/// The most slots point-adjacent to one slot.
pub const MAX_POINT: usize = 3;
/// The most places for a bridge of one point contact.
pub const MAX_BRIDGE: usize = 4;

impl std::fmt::Debug for TrisqBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TrisqBoard({})", self.side)
    }
}

/// How two slots touch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contact {
    /// They do not touch.
    None,
    /// They touch in exactly one point.
    Point,
    /// They share a boundary segment of positive length.
    Edge,
}

impl TrisqBoard {
    /// The tables for side `n`, built on first use.
    ///
    /// # Panics
    /// If `n` is outside [`MIN_SIDE`]–[`MAX_SIDE`].
    pub fn get(n: usize) -> &'static TrisqBoard {
        static BOARDS: [OnceLock<TrisqBoard>; MAX_SIDE + 1] = [const { OnceLock::new() }; MAX_SIDE + 1];
        assert!((MIN_SIDE..=MAX_SIDE).contains(&n), "Trisq boards have {MIN_SIDE}–{MAX_SIDE} squares a side");
        BOARDS[n].get_or_init(|| TrisqBoard::new(n))
    }

    /// The number of slots, `8·N²`.
    pub fn slots(&self) -> usize {
        self.polygon.len()
    }

    /// The square `(col, row)` of a slot.
    pub fn square(&self, slot: usize) -> (usize, usize) {
        let sq = slot / 8;
        (sq % self.side, sq / self.side)
    }

    fn new(n: usize) -> TrisqBoard {
        let mut polygon = Vec::with_capacity(8 * n * n);
        for row in 0..n {
            for col in 0..n {
                for shape in FILLING_H.iter().chain(FILLING_V.iter()) {
                    polygon.push(shape.map(|(x, y)| (x + 4 * col as i32, y + 4 * row as i32)));
                }
            }
        }
        let slots = polygon.len();
        let mut edge_adjacent = vec![Vec::new(); slots];
        let mut point_adjacent = vec![Vec::new(); slots];
        let square = |s: usize| ((s / 8) % n, (s / 8) / n);
        for a in 0..slots {
            for b in a + 1..slots {
                let ((ca, ra), (cb, rb)) = (square(a), square(b));
                // Only neighbouring squares can touch; in one square, only one filling's slots coexist.
                if ca.abs_diff(cb) > 1 || ra.abs_diff(rb) > 1 || (a / 8 == b / 8 && a / 4 != b / 4) {
                    continue;
                }
                let list = match contact(&polygon[a], &polygon[b]) {
                    Contact::Edge => &mut edge_adjacent,
                    Contact::Point => &mut point_adjacent,
                    Contact::None => continue,
                };
                list[a].push(b as u16);
                list[b].push(a as u16);
            }
        }
        let size = 4 * n as i32;
        let edges = polygon
            .iter()
            .map(|p| {
                let mut bits = 0;
                for i in 0..4 {
                    let ((x1, y1), (x2, y2)) = (p[i], p[(i + 1) % 4]);
                    if y1 == y2 && x1 != x2 {
                        bits |= if y1 == 0 {
                            TOP
                        } else if y1 == size {
                            BOTTOM
                        } else {
                            0
                        };
                    }
                    if x1 == x2 && y1 != y2 {
                        bits |= if x1 == 0 {
                            LEFT
                        } else if x1 == size {
                            RIGHT
                        } else {
                            0
                        };
                    }
                }
                bits
            })
            .collect();
        let pad = |list: &[u16], row: &mut [u16]| {
            assert!(list.len() <= row.len(), "a Trisq adjacency row overflows");
            row.fill(NO_SLOT);
            row[..list.len()].copy_from_slice(list);
        };
        let mut edge_rows = vec![[NO_SLOT; MAX_EDGE]; slots];
        let mut point_rows = vec![[NO_SLOT; MAX_POINT]; slots];
        let mut bridge_rows = vec![[[NO_SLOT; MAX_BRIDGE]; MAX_POINT]; slots];
        for s in 0..slots {
            pad(&edge_adjacent[s], &mut edge_rows[s]);
            pad(&point_adjacent[s], &mut point_rows[s]);
            for (i, &q) in point_adjacent[s].iter().enumerate() {
                let common: Vec<u16> =
                    edge_adjacent[s].iter().copied().filter(|r| edge_adjacent[q as usize].contains(r)).collect();
                pad(&common, &mut bridge_rows[s][i]);
            }
        }
        TrisqBoard { side: n, polygon, edge_adjacent, point_adjacent, edges, edge_rows, point_rows, bridge_rows }
    }
}

/// How two convex polygons with disjoint interiors touch: their boundaries meet in a segment of
/// positive length ([`Contact::Edge`]), in one point, or not at all. Exact, in integers.
pub fn contact(a: &[(i32, i32); 4], b: &[(i32, i32); 4]) -> Contact {
    let mut points: Vec<(i64, i64, i64)> = Vec::new(); // homogeneous (x·w, y·w, w), w > 0
    for i in 0..4 {
        let (p, q) = (a[i], a[(i + 1) % 4]);
        for j in 0..4 {
            let (r, s) = (b[j], b[(j + 1) % 4]);
            match segment_meet(p, q, r, s) {
                Meet::None => {}
                Meet::Overlap => return Contact::Edge,
                Meet::Point(x, y, w) => points.push((x, y, w)),
            }
        }
    }
    let same = |(x1, y1, w1): (i64, i64, i64), (x2, y2, w2): (i64, i64, i64)| x1 * w2 == x2 * w1 && y1 * w2 == y2 * w1;
    match points.first() {
        None => Contact::None,
        Some(&first) if points.iter().all(|&p| same(p, first)) => Contact::Point,
        // Two different meeting points of convex polygons with disjoint interiors bound a shared segment.
        Some(_) => Contact::Edge,
    }
}

enum Meet {
    None,
    Point(i64, i64, i64),
    Overlap,
}

/// Where segments `pq` and `rs` meet: nowhere, in one point (homogeneous, `w > 0`), or along a
/// segment of positive length.
fn segment_meet(p: (i32, i32), q: (i32, i32), r: (i32, i32), s: (i32, i32)) -> Meet {
    let (p, q, r, s) = (wide(p), wide(q), wide(r), wide(s));
    let d1 = (q.0 - p.0, q.1 - p.1);
    let d2 = (s.0 - r.0, s.1 - r.1);
    let cross = |a: (i64, i64), b: (i64, i64)| a.0 * b.1 - a.1 * b.0;
    let denom = cross(d1, d2);
    let rp = (r.0 - p.0, r.1 - p.1);
    if denom == 0 {
        if cross(rp, d1) != 0 {
            return Meet::None; // parallel, not collinear
        }
        // Collinear: project onto d1 and intersect the parameter ranges (in units of |d1|²).
        let len = d1.0 * d1.0 + d1.1 * d1.1;
        let t = |x: (i64, i64)| (x.0 - p.0) * d1.0 + (x.1 - p.1) * d1.1;
        let (t0, t1) = (t(r).min(t(s)), t(r).max(t(s)));
        let (lo, hi) = (t0.max(0), t1.min(len));
        return match lo.cmp(&hi) {
            std::cmp::Ordering::Less => Meet::Overlap,
            std::cmp::Ordering::Equal => {
                let x = if lo == 0 { p } else { q };
                if lo == 0 || lo == len {
                    Meet::Point(x.0, x.1, 1)
                } else {
                    Meet::Point(p.0 * len + lo * d1.0, p.1 * len + lo * d1.1, len)
                }
            }
            std::cmp::Ordering::Greater => Meet::None,
        };
    }
    // p + t·d1 = r + u·d2 with t = cross(rp, d2) / denom, u = cross(rp, d1) / denom, both in [0, 1].
    let (mut tn, mut un, mut den) = (cross(rp, d2), cross(rp, d1), denom);
    if den < 0 {
        (tn, un, den) = (-tn, -un, -den);
    }
    if tn < 0 || tn > den || un < 0 || un > den {
        return Meet::None;
    }
    Meet::Point(p.0 * den + tn * d1.0, p.1 * den + tn * d1.1, den)
}

fn wide((x, y): (i32, i32)) -> (i64, i64) {
    (x as i64, y as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slot_has_area_one_quarter_and_each_filling_tiles_the_square() {
        let b = TrisqBoard::get(3);
        for poly in &b.polygon {
            // Shoelace in quarter units: area ¼ of a square = 4 square quarter units, doubled = 8.
            let twice: i32 = (0..4).map(|i| poly[i].0 * poly[(i + 1) % 4].1 - poly[(i + 1) % 4].0 * poly[i].1).sum();
            assert_eq!(twice.abs(), 8, "{poly:?}");
        }
    }

    #[test]
    fn contact_of_simple_shapes() {
        let sq = |x: i32, y: i32| [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)];
        assert_eq!(contact(&sq(0, 0), &sq(1, 0)), Contact::Edge);
        assert_eq!(contact(&sq(0, 0), &sq(1, 1)), Contact::Point);
        assert_eq!(contact(&sq(0, 0), &sq(2, 0)), Contact::None);
        // Half a side shared still counts as an edge.
        let tall = [(1, 0), (2, 0), (2, 2), (1, 2)];
        assert_eq!(contact(&sq(0, 1), &tall), Contact::Edge);
    }

    /// Every boundary point of a polygon on the half-quarter grid (coordinates doubled), where all
    /// contacts of these polygons lie (their sides run at 0°, 45° and 90° through quarter points).
    fn boundary(poly: &[(i32, i32); 4]) -> std::collections::HashSet<(i32, i32)> {
        let mut out = std::collections::HashSet::new();
        for i in 0..4 {
            let (p, q) = ((poly[i].0 * 2, poly[i].1 * 2), (poly[(i + 1) % 4].0 * 2, poly[(i + 1) % 4].1 * 2));
            let steps = (q.0 - p.0).abs().max((q.1 - p.1).abs());
            for k in 0..=steps {
                out.insert((p.0 + (q.0 - p.0) * k / steps, p.1 + (q.1 - p.1) * k / steps));
            }
        }
        out
    }

    #[test]
    fn adjacency_is_symmetric_and_agrees_with_rasterised_boundaries() {
        for n in [2, 3, 5] {
            let b = TrisqBoard::get(n);
            let shapes: Vec<_> = b.polygon.iter().map(boundary).collect();
            for a in 0..b.slots() {
                for c in 0..b.slots() {
                    if a == c || (a / 8 == c / 8 && a / 4 != c / 4) {
                        continue;
                    }
                    let common = shapes[a].intersection(&shapes[c]).count();
                    let edge = b.edge_adjacent[a].contains(&(c as u16));
                    let point = b.point_adjacent[a].contains(&(c as u16));
                    assert_eq!(edge, common >= 2, "n {n}: {a} {c} edge");
                    assert_eq!(point, common == 1, "n {n}: {a} {c} point");
                    assert_eq!(edge, b.edge_adjacent[c].contains(&(a as u16)));
                    assert_eq!(point, b.point_adjacent[c].contains(&(a as u16)));
                }
            }
        }
    }

    #[test]
    fn board_edges() {
        let b = TrisqBoard::get(2);
        // Square a1's H0 touches the top and the left; H3 touches neither (it is on the right half
        // of the top-left square, bottom strip).
        assert_eq!(b.edges[0], TOP | LEFT);
        assert_eq!(b.edges[3], 0);
        // Every edge of the board is covered by some slot of each filling.
        for bit in [TOP, BOTTOM, LEFT, RIGHT] {
            assert!(b.edges.iter().any(|&e| e & bit != 0));
        }
    }

    /// `docs/rules/trisq.md` §What a test can rely on: on an empty board two pieces of one colour may
    /// go anywhere compatible unless they are point-adjacent (no third piece can bridge them).
    #[test]
    fn legal_pairs_on_empty_boards() {
        for (n, want) in [(8, 129_176), (6, 40_432)] {
            let b = TrisqBoard::get(n);
            let mut pairs = 0u64;
            for a in 0..b.slots() {
                for c in a + 1..b.slots() {
                    let clash = a / 8 == c / 8 && a / 4 != c / 4;
                    if !clash && !b.point_adjacent[a].contains(&(c as u16)) {
                        pairs += 1;
                    }
                }
            }
            assert_eq!(pairs, want, "{n}×{n}");
        }
    }
}
