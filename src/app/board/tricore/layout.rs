//! Where the discs stand on the TriCore board, in world units. No drawing here, and no import
//! from the rest of the view, so the entities and the art both use it.

use bevy::prelude::*;

use crate::app::board::lattice::{SPACING, point_center};
use crate::rules::geometry::lattice::Lattice;

/// Where a stack's disc at level 1 sits relative to the one below it, in units of [`SPACING`]:
/// up and a little left, so the lower discs show as rims.
const STACK_STEP: Vec2 = Vec2::new(-0.035, 0.085);

/// The translation of the disc at `level` of the stack on `p`.
pub fn disc_translation(lattice: &Lattice, p: usize, level: u8) -> Vec3 {
    (point_center(lattice, p) + STACK_STEP * SPACING * level as f32).extend(2.0 + 0.2 * level as f32)
}
