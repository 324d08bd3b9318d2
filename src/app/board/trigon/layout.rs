//! Where things are on the Trigon board, in world units: triangles, cells and placements. No
//! drawing here, and no import from the rest of the view, so the entities, the pointing and the art
//! all use it.

use bevy::prelude::*;

use crate::rules::geometry::polyiamond::Tri;
use crate::rules::geometry::trigon::TrigonBoard;

/// A triangle's side in world units (one unit is one pixel at camera scale 1).
pub const SIDE: f32 = 40.0;
/// A triangle's height in world units.
pub const HEIGHT: f32 = SIDE * 0.866_025_4;

/// How far the shape grid's columns are from the board's (0 or 1, `geometry::trigon`), as the
/// board's own cell 0 tells it.
pub fn shift(board: &TrigonBoard) -> f32 {
    (board.tri(0).x - i32::from(board.xy[0].0)) as f32
}

/// A point of the shape grid (`x` in half sides, `y` in rows) in world coordinates, the board
/// centred on the origin.
pub fn world(board: &TrigonBoard, x: f32, y: f32) -> Vec2 {
    let n = board.side as f32;
    Vec2::new((x - (2.0 * n - 1.0 + shift(board))) * SIDE / 2.0, -(y - n) * HEIGHT)
}

/// A triangle's corners in world coordinates.
pub fn tri_corners(board: &TrigonBoard, t: Tri) -> [Vec2; 3] {
    t.corners().map(|(x, y)| world(board, x as f32, y as f32))
}

/// How much of its triangle a cell's face covers (the rest is the grid's gap between cells).
pub const CELL_FACE: f32 = 0.9;

/// A cell's triangle around its centre, pointing up or down, its corners pulled to `share` of
/// the way from the centre: [`CELL_FACE`] for its face, 1 for the area that takes the pointer
/// (the whole triangle, so the board has no gap where a pointer finds no cell).
pub fn cell_triangle(up: bool, share: f32) -> [Vec2; 3] {
    let up_tri = [
        Vec2::new(0.0, HEIGHT * 2.0 / 3.0),
        Vec2::new(-SIDE / 2.0, -HEIGHT / 3.0),
        Vec2::new(SIDE / 2.0, -HEIGHT / 3.0),
    ];
    let tri = if up { up_tri } else { up_tri.map(|p| Vec2::new(p.x, -p.y)) };
    tri.map(|p| p * share)
}

/// The centre of a cell in world coordinates.
pub fn cell_center(board: &TrigonBoard, cell: usize) -> Vec2 {
    let c = tri_corners(board, board.tri(cell));
    (c[0] + c[1] + c[2]) / 3.0
}

/// The centre of a group of cells (a placement) in world coordinates.
pub fn cells_center(board: &TrigonBoard, cells: &[u16]) -> Vec2 {
    cells.iter().map(|&c| cell_center(board, c as usize)).sum::<Vec2>() / cells.len() as f32
}
