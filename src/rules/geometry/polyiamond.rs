//! Polyiamonds: shapes of edge-joined equilateral triangles, generated rather than typed in
//! (`docs/rules/trigon.md` §Pieces), in the triangle grid of Pentobi's Trigon board.
//!
//! A triangle is `(x, y)`: row `y` (down), column `x` in half-triangle steps. Here the triangle is
//! **up** iff `x + y` is even ([`Tri::is_up`]); boards with the other convention shift their columns
//! by one (`geometry::trigon`). Its corners are points `(X, Y)` with `X + Y` even: an up triangle
//! `(x, y)` has `(x, y)`, `(x-1, y+1)`, `(x+1, y+1)`; a down one `(x-1, y)`, `(x+1, y)`, `(x, y+1)`.
//! Rotations by 60° and reflections act on the corners (in axial coordinates of the point
//! lattice), so the twelve symmetries of the grid are exact integer maps.

use std::collections::BTreeSet;

/// A triangle of the grid: column `x` (half-triangle steps) and row `y`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tri {
    /// Row, downwards.
    pub y: i32,
    /// Column, in half-triangle steps.
    pub x: i32,
}

impl Tri {
    /// The triangle at column `x`, row `y`.
    pub const fn new(x: i32, y: i32) -> Tri {
        Tri { y, x }
    }

    /// True when the triangle points up (`x + y` even in this grid).
    pub const fn is_up(self) -> bool {
        (self.x + self.y).rem_euclid(2) == 0
    }

    /// The three triangles sharing an edge with this one: left, right, and below (up) or above (down).
    pub const fn edge_neighbours(self) -> [Tri; 3] {
        let dy = if self.is_up() { 1 } else { -1 };
        [Tri::new(self.x - 1, self.y), Tri::new(self.x + 1, self.y), Tri::new(self.x, self.y + dy)]
    }

    /// The three corners as points `(X, Y)` (`X + Y` even).
    pub const fn corners(self) -> [(i32, i32); 3] {
        let (x, y) = (self.x, self.y);
        if self.is_up() { [(x, y), (x - 1, y + 1), (x + 1, y + 1)] } else { [(x - 1, y), (x + 1, y), (x, y + 1)] }
    }

    /// The triangle with these three corners (any order).
    ///
    /// # Panics
    /// If the points are not the corners of one triangle of the grid.
    pub fn from_corners(points: [(i32, i32); 3]) -> Tri {
        let sx: i32 = points.iter().map(|p| p.0).sum();
        let sy: i32 = points.iter().map(|p| p.1).sum();
        // Up: corner sums (3x, 3y + 2); down: (3x, 3y + 1).
        let (x, y) = (sx.div_euclid(3), sy.div_euclid(3));
        let tri = Tri::new(x, y);
        let mut want = tri.corners();
        let mut got = points;
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(want, got, "the points {points:?} are not the corners of a triangle");
        tri
    }
}

/// A point `(X, Y)` (`X + Y` even) in axial coordinates `(q, r)`: `X = 2q + r`, `Y = r`.
fn to_axial((px, py): (i32, i32)) -> (i32, i32) {
    ((px - py).div_euclid(2), py)
}

fn from_axial((q, r): (i32, i32)) -> (i32, i32) {
    (2 * q + r, r)
}

/// Symmetry `k` of the grid (0–11) applied to a point: `k % 6` rotations by 60°, then a reflection
/// in the horizontal axis if `k >= 6`. Symmetry 0 is the identity.
fn transform_point(k: usize, p: (i32, i32)) -> (i32, i32) {
    let (mut q, mut r) = to_axial(p);
    if k >= 6 {
        (q, r) = (q + r, -r);
    }
    for _ in 0..k % 6 {
        (q, r) = (-r, q + r);
    }
    from_axial((q, r))
}

/// Symmetry `k` (0–11) applied to a triangle.
pub fn transform(k: usize, t: Tri) -> Tri {
    Tri::from_corners(t.corners().map(|p| transform_point(k, p)))
}

/// A shape moved so that its first triangle (smallest row, then column) is `(0, 0)` when it points
/// up or `(1, 0)` when it points down: a translation that keeps every triangle's direction, so two
/// shapes are translates of each other iff their normal forms are equal. Sorted.
pub fn normalize(shape: &[Tri]) -> Vec<Tri> {
    let first = *shape.iter().min().expect("a shape has a triangle");
    let (dx, dy) = (if first.is_up() { 0 } else { 1 } - first.x, -first.y);
    let mut out: Vec<Tri> = shape.iter().map(|t| Tri::new(t.x + dx, t.y + dy)).collect();
    out.sort_unstable();
    out
}

/// The distinct orientations of a shape (1 to 12), each normalised, in a fixed order.
pub fn orientations(shape: &[Tri]) -> Vec<Vec<Tri>> {
    let set: BTreeSet<Vec<Tri>> =
        (0..12).map(|k| normalize(&shape.iter().map(|&t| transform(k, t)).collect::<Vec<_>>())).collect();
    set.into_iter().collect()
}

/// The canonical form of a free shape: the least of its orientations.
pub fn canonical(shape: &[Tri]) -> Vec<Tri> {
    orientations(shape).into_iter().next().expect("a shape has an orientation")
}

/// Every free polyiamond of `size` triangles (rotations and reflections identified), each in its
/// canonical form, sorted. Grown from the single triangle by adding edge neighbours.
pub fn free_polyiamonds(size: usize) -> Vec<Vec<Tri>> {
    let mut shapes: BTreeSet<Vec<Tri>> = BTreeSet::from([vec![Tri::new(0, 0)]]);
    for _ in 1..size {
        let mut grown = BTreeSet::new();
        for shape in &shapes {
            for t in shape {
                for n in t.edge_neighbours() {
                    if !shape.contains(&n) {
                        let mut bigger = shape.clone();
                        bigger.push(n);
                        grown.insert(canonical(&bigger));
                    }
                }
            }
        }
        shapes = grown;
    }
    shapes.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_round_trip_and_symmetries_keep_edges() {
        for y in -3..3 {
            for x in -3..3 {
                let t = Tri::new(x, y);
                assert_eq!(Tri::from_corners(t.corners()), t);
                for k in 0..12 {
                    let u = transform(k, t);
                    for n in t.edge_neighbours() {
                        assert!(
                            u.edge_neighbours().contains(&transform(k, n)),
                            "symmetry {k} keeps {t:?}–{n:?} joined"
                        );
                    }
                }
            }
        }
        // Six rotations are the identity; a reflection twice is too.
        let t = Tri::new(3, 1);
        let mut r = t;
        for _ in 0..6 {
            r = transform(1, r);
        }
        assert_eq!(r, t);
        assert_eq!(transform(6, transform(6, t)), t);
    }

    #[test]
    fn the_triangle_has_two_orientations_and_the_hexagon_one() {
        assert_eq!(orientations(&[Tri::new(0, 0)]).len(), 2);
        // The six triangles around the point (1, 1).
        let hexagon = [Tri::new(0, 0), Tri::new(1, 0), Tri::new(2, 0), Tri::new(0, 1), Tri::new(1, 1), Tri::new(2, 1)];
        assert_eq!(orientations(&hexagon).len(), 1);
    }
}
