//! Keyboard play on the board: a cursor on the board's cells, moved by the arrow keys to the
//! nearest cell in that direction, that presses its cell with Space as a click would (the same
//! [`CellClicked`], so the same rules and refusals). ↑ or ↓ brings it up; while it is up, ← and →
//! move it too (else they step through review); Esc puts it away. The games whose every move is
//! made by pressing cells have it (Trike, Tri-It-Out, TriCore: [`GameInfo::cursor`]); Trigon's
//! pieces and Trisq's tiles are placed by where the pointer is within a cell.
//!
//! [`GameInfo::cursor`]: crate::app::games::GameInfo::cursor

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::{BoardCamera, BoardCell, CellClicked, Hovered, WorldPainter};
use crate::app::flow::{Screen, Step};
use crate::app::games::AppGame;
use crate::app::model::Model;

/// The keyboard cursor's cell, while it is up.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardCursor(pub Option<usize>);

/// A direction of the arrow keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrow {
    /// ↑
    Up,
    /// ↓
    Down,
    /// ←
    Left,
    /// →
    Right,
}

impl Arrow {
    /// The direction in world space (y up).
    pub fn direction(self) -> Vec2 {
        match self {
            Arrow::Up => Vec2::Y,
            Arrow::Down => Vec2::NEG_Y,
            Arrow::Left => Vec2::NEG_X,
            Arrow::Right => Vec2::X,
        }
    }
}

/// What the keyboard asks of the cursor (sent by the input plugin).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CursorKey {
    /// Bring the cursor up, or move it one cell.
    Step(Arrow),
    /// Space: press the cursor's cell.
    Press,
    /// Esc: put the cursor away.
    Hide,
}

/// The cell one step from `from` towards `arrow` among `cells` (cell, world position): the
/// nearest whose direction lies within 60° of the arrow's (one off the arrow's line counts up to
/// a quarter farther); `from` itself where none does. Without `from`, the cell nearest the board's centre.
pub fn step(cells: &[(usize, Vec2)], from: Option<usize>, arrow: Arrow) -> Option<usize> {
    let centre = cells.iter().map(|c| c.1).sum::<Vec2>() / cells.len().max(1) as f32;
    let Some(at) = from.and_then(|f| cells.iter().find(|c| c.0 == f)).map(|c| c.1) else {
        return cells.iter().min_by(|a, b| a.1.distance(centre).total_cmp(&b.1.distance(centre))).map(|c| c.0);
    };
    let dir = arrow.direction();
    cells
        .iter()
        .filter_map(|&(cell, p)| {
            let d = p - at;
            let along = d.dot(dir);
            // Within 60° of the arrow: along > |d| cos 60°.
            let length = d.length();
            // The nearest first, a cell off the arrow's line counting a little farther.
            (along > 1e-3 && along >= length * 0.5).then(|| (cell, length * (1.0 + 0.5 * (1.0 - along / length))))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|c| c.0)
        .or(from)
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<BoardCursor>()
        .add_message::<CursorKey>()
        .add_systems(OnExit(Screen::Playing), |mut cursor: ResMut<BoardCursor>| cursor.0 = None);
}

/// The cursor of game type `G` (called by the registry for every game; it acts where
/// [`GameInfo::cursor`](crate::app::games::GameInfo::cursor) says).
pub(crate) fn game_plugin<G: AppGame>(app: &mut App) {
    if !G::INFO.cursor {
        return;
    }
    app.add_systems(
        Update,
        keys_to_cursor.in_set(Step::Intents).run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<G>>)),
    );
}

/// The cursor's ring, in every game's view.
pub(crate) fn view_plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, paint_cursor.run_if(in_state(Screen::Playing)));
}

/// Moves the cursor, shows its cell as hovered, and presses it.
fn keys_to_cursor(
    mut keys: MessageReader<CursorKey>,
    cells: Query<(&BoardCell, &Transform)>,
    mut cursor: ResMut<BoardCursor>,
    mut hovered: ResMut<Hovered>,
    mut clicks: MessageWriter<CellClicked>,
) {
    for key in keys.read() {
        match *key {
            CursorKey::Step(arrow) => {
                let all: Vec<(usize, Vec2)> = cells.iter().map(|(c, t)| (c.cell, t.translation.truncate())).collect();
                cursor.0 = step(&all, cursor.0, arrow);
                hovered.0 = cursor.0;
            }
            CursorKey::Press => {
                if let Some(cell) = cursor.0 {
                    clicks.write(CellClicked { cell });
                }
            }
            CursorKey::Hide => {
                if hovered.0 == cursor.0 {
                    hovered.0 = None;
                }
                cursor.0 = None;
            }
        }
    }
}

/// A ring around the cursor's cell.
fn paint_cursor(
    mut contexts: EguiContexts,
    cursor: Res<BoardCursor>,
    cells: Query<(&BoardCell, &Transform)>,
    camera: BoardCamera,
) -> Result {
    let Some(at) = cursor.0.and_then(|c| cells.iter().find(|(cell, _)| cell.cell == c)) else { return Ok(()) };
    let world = WorldPainter::new(contexts.ctx_mut()?, *camera);
    let centre = at.1.translation.truncate();
    // The ring's radius: a little under half the distance to the nearest other cell.
    let nearest = cells
        .iter()
        .map(|(_, t)| t.translation.truncate().distance(centre))
        .filter(|&d| d > 1e-3)
        .fold(f32::MAX, f32::min);
    let radius = if nearest < f32::MAX { nearest * 0.45 / world.scale } else { 12.0 };
    if let Some(p) = world.to_screen(centre) {
        world.painter.circle_stroke(p, radius, egui::Stroke::new(3.0, egui::Color32::from_rgb(0xff, 0xd0, 0x40)));
        world.painter.circle_stroke(p, radius + 2.5, egui::Stroke::new(1.5, egui::Color32::from_rgb(0x20, 0x20, 0x20)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A triangle of hexagon centres, as Trike's board: rows of 1, 2, 3 cells.
    fn triangle() -> Vec<(usize, Vec2)> {
        let mut cells = Vec::new();
        for r in 0..3 {
            for c in 0..=r {
                cells.push((cells.len(), Vec2::new(c as f32 - r as f32 / 2.0, -(r as f32) * 0.866)));
            }
        }
        cells
    }

    #[test]
    fn the_arrows_step_to_the_neighbour_in_their_direction() {
        let cells = triangle();
        // The cell nearest the centre comes up first.
        let start = step(&cells, None, Arrow::Up);
        assert_eq!(start, Some(4), "the middle of the bottom row of three is nearest the centre");
        assert_eq!(step(&cells, Some(4), Arrow::Left), Some(3));
        assert_eq!(step(&cells, Some(4), Arrow::Right), Some(5));
        // Up from the bottom row's middle: one of the two cells above it (both at 60°), then the top.
        let up = step(&cells, Some(4), Arrow::Up);
        assert!(matches!(up, Some(1) | Some(2)), "{up:?}");
        assert_eq!(step(&cells, up, Arrow::Up), Some(0));
        // At the edge, the cursor stays.
        assert_eq!(step(&cells, Some(0), Arrow::Up), Some(0));
        assert_eq!(step(&cells, Some(3), Arrow::Left), Some(3));
    }
}
