//! Where things are on the Trike board, in world units: cell centres and the pawn's place. No
//! drawing here, and no import from the rest of the view, so the entities and the art both use it.

use bevy::prelude::*;

use crate::rules::geometry::triangle::Triangle;

/// Circumradius of a cell's hexagon in world units (one unit is one pixel at camera scale 1).
pub const HEX_RADIUS: f32 = 32.0;
/// √3, for hexagon geometry.
pub const SQRT3: f32 = 1.732_050_8;

/// The centre of a cell, the board centred on the origin. Rows are horizontal; row `r` is
/// shifted half a cell left per row so that `(r-1, c-1)` and `(r-1, c)` sit above `(r, c)`.
pub fn cell_center(geo: &Triangle, cell: usize) -> Vec2 {
    let (r, c) = (geo.row[cell] as f32, geo.col[cell] as f32);
    let n = geo.side as f32;
    Vec2::new((c - r / 2.0) * SQRT3 * HEX_RADIUS, ((n - 1.0) / 2.0 - r) * 1.5 * HEX_RADIUS)
}

/// Where the pawn stands on a cell (above the checker).
pub fn pawn_translation(geo: &Triangle, cell: usize) -> Vec3 {
    cell_center(geo, cell).extend(3.0)
}
