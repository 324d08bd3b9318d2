//! The piece a person holds ([`Selection`]): its orientation, where it lies under the pointer
//! ([`ghost_tris`], [`anchor_near`]: the piece's centre as near the pointer as the grid allows) and
//! the placement it makes there ([`placement_at`], which the press plays). No drawing here: the
//! ghost ([`super::ghost`]) shows it.

use bevy::prelude::*;

use super::layout::{SIDE, cell_center, tri_corners};
use crate::app::model::Model;
use crate::rules::geometry::polyiamond::{Tri, normalize, transform};
use crate::rules::geometry::trigon::TrigonBoard;
use crate::rules::trigon::{Tables, Trigon, TrigonMove};

/// The piece the person to move holds, its orientation, and whether attach points are shown.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// The piece (`0..22`), if one is chosen.
    pub piece: Option<u8>,
    /// The orientation: symmetry `0..12` of the grid (`k % 6` turns by 60°, flipped if `k >= 6`)
    /// applied to the piece's canonical shape.
    pub symmetry: u8,
    /// The colour the piece was chosen for; a selection for another colour is dropped.
    pub colour: u8,
    /// Show the attach points of the colour to move.
    pub show_attach: bool,
    /// The chooser is narrowed to the pieces of the colour to move, three a row, so the board takes
    /// the room ([`super::chooser`]).
    pub narrow: bool,
}

impl Selection {
    /// Turned by 60° (`steps` may be negative).
    pub fn rotated(self, steps: i32) -> Selection {
        let (r, flipped) = (self.symmetry as i32 % 6, self.symmetry >= 6);
        let r = (r + steps).rem_euclid(6) as u8;
        Selection { symmetry: r + if flipped { 6 } else { 0 }, ..self }
    }

    /// Flipped about the vertical axis of the screen (reflecting after a turn `r` is the reflection
    /// followed by the turn `-r`).
    pub fn flipped(self) -> Selection {
        let (r, flipped) = (self.symmetry as i32 % 6, self.symmetry >= 6);
        let r = ((6 - r) % 6) as u8;
        // The symmetry maps reflect in the horizontal axis; three turns more make it the vertical one.
        let sel = Selection { symmetry: r + if flipped { 0 } else { 6 }, ..self };
        sel.rotated(3)
    }
}

/// The shape of `piece` (`0..22`) in orientation `symmetry` (`0..12`, as [`Selection::symmetry`]),
/// normalised.
pub fn oriented(tables: &Tables, piece: usize, symmetry: u8) -> Vec<Tri> {
    let shape: Vec<Tri> = tables.pieces[piece].iter().map(|&t| transform(symmetry as usize, t)).collect();
    normalize(&shape)
}

/// The centroid of a triangle in point coordinates (`x` half sides, `y` rows).
fn tri_centroid(t: Tri) -> Vec2 {
    let c = t.corners();
    Vec2::new((c[0].0 + c[1].0 + c[2].0) as f32 / 3.0, (c[0].1 + c[1].1 + c[2].1) as f32 / 3.0)
}

/// Where the selected piece lies with its centre at `anchor`: its triangles in the shape grid
/// (some may be off the board). The triangle nearest the piece's centre that points the way the
/// anchor cell points goes on the anchor; a 1-triangle piece pointing the other way is turned.
pub fn ghost_tris(board: &TrigonBoard, shape: &[Tri], anchor: usize) -> Vec<Tri> {
    let target = board.tri(anchor);
    let centre = shape.iter().map(|&t| tri_centroid(t)).sum::<Vec2>() / shape.len() as f32;
    let best = shape
        .iter()
        .filter(|t| t.is_up() == target.is_up())
        .min_by(|a, b| tri_centroid(**a).distance(centre).total_cmp(&tri_centroid(**b).distance(centre)));
    match best {
        Some(a) => shape.iter().map(|t| Tri::new(t.x + target.x - a.x, t.y + target.y - a.y)).collect(),
        // Only the 1-triangle piece has a single direction: it takes the anchor's.
        None => vec![target],
    }
}

pub use crate::app::board::BoardPointer;

/// The anchor cell ([`ghost_tris`]) that puts the centre of `shape` nearest `pointer` (world
/// units), among the cells within two sides of it; `cell` (the cell under the pointer) when there
/// is no pointer or no better one. So the ghost sits centred on the pointer, within half a
/// triangle, and the press places what the ghost shows.
pub fn anchor_near(board: &TrigonBoard, shape: &[Tri], cell: usize, pointer: Option<Vec2>) -> usize {
    let Some(at) = pointer else { return cell };
    let reach = 2.0 * SIDE;
    let centre = |anchor: usize| {
        let tris = ghost_tris(board, shape, anchor);
        tris.iter().map(|&t| tri_centroid_world(board, t)).sum::<Vec2>() / tris.len() as f32
    };
    (0..board.cells())
        .filter(|&c| cell_center(board, c).distance(at) <= reach)
        .chain(std::iter::once(cell))
        .min_by(|&a, &b| centre(a).distance(at).total_cmp(&centre(b).distance(at)).then(a.cmp(&b)))
        .unwrap_or(cell)
}

/// A triangle's centroid in world units (it may lie off the board).
fn tri_centroid_world(board: &TrigonBoard, t: Tri) -> Vec2 {
    let c = tri_corners(board, t);
    (c[0] + c[1] + c[2]) / 3.0
}

/// The placement the selected piece would make at `anchor` (the rules'
/// [`Tables::placement_by_cells`] of the cells it lies on); whether it is legal is the model's
/// question. `Err` says why there is none.
///
/// # Errors
/// No piece chosen, or the piece would stick out of the board.
pub fn placement_at(model: &Model<Trigon>, selection: &Selection, anchor: usize) -> Result<TrigonMove, String> {
    let tables = model.game().tables();
    let piece = selection.piece.ok_or("choose a piece first (in the panel on the left)")?;
    let shape = oriented(tables, piece as usize, selection.symmetry);
    let mut cells = Vec::with_capacity(shape.len());
    for t in ghost_tris(tables.board, &shape, anchor) {
        cells.push(tables.board.cell_of(t).ok_or("the piece would stick out of the board")? as u16);
    }
    tables.placement_by_cells(&cells).map(TrigonMove).ok_or_else(|| "not a placement of this piece".to_string())
}
