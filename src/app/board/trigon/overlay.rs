//! What egui paints over Trigon's board: the cells' names along its edges, as the rules' labels
//! have them (`TrigonBoard::label`: column letters, then the row counted from the bottom).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::ghost::GhostWhy;
use super::layout::world;
use crate::app::board::{BoardCamera, WorldPainter, hover_readout};
use crate::app::flow::Screen;
use crate::app::model::Model;
use crate::app::ui::LeftPanelWidth;
use crate::rules::trigon::Trigon;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (label_edges, say_why).run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<Trigon>>)),
    );
}

/// Why the held piece does not fit where its ghost is, at the board's foot (right of the chooser).
fn say_why(mut contexts: EguiContexts, why: Res<GhostWhy>, left: Option<Res<LeftPanelWidth>>) -> Result {
    if let Some(text) = &why.0 {
        hover_readout(contexts.ctx_mut()?, left.map_or(0.0, |l| l.0), text);
    }
    Ok(())
}

/// Column letters above and below the board, row numbers at both ends of each row, painted by egui
/// at the cells' places on screen.
fn label_edges(mut contexts: EguiContexts, model: Res<Model<Trigon>>, camera: BoardCamera) -> Result {
    let board = model.game().tables().board;
    let overlay = WorldPainter::new(contexts.ctx_mut()?, *camera);
    // About half a triangle's side on screen (two columns are one side), between 11 and 18 points:
    // readable on a small window, and a two-letter name still fits the two columns it stands for.
    let side = world(board, 2.0, 0.0).distance(world(board, 0.0, 0.0));
    let font = egui::FontId::monospace((0.55 * side / overlay.scale).clamp(11.0, 18.0));
    let color = egui::Color32::from_rgb(0xa8, 0x9f, 0x90);
    let label = |text: &str, p: Vec2| overlay.label(p, text.to_string(), &font, color);
    // The middle row spans every column. Every other column is named, so the letters do not crowd:
    // each column is half a triangle wide.
    let middle = board.side - 1;
    for cell in (0..board.width).step_by(2).filter_map(|x| board.at(x, middle)) {
        let name = board.label(cell);
        let letters = name.trim_end_matches(|c: char| c.is_ascii_digit());
        let x = board.tri(cell).x as f32;
        label(letters, world(board, x, -0.75));
        label(letters, world(board, x, board.height as f32 + 0.75));
    }
    for y in 0..board.height {
        let mut row = (0..board.width).filter_map(|x| board.at(x, y));
        let Some(first) = row.next() else { continue };
        let last = row.next_back().unwrap_or(first);
        let name = board.label(first);
        let number = name.trim_start_matches(|c: char| c.is_ascii_lowercase());
        let at = |cell: usize, dx: f32| world(board, board.tri(cell).x as f32 + dx, y as f32 + 0.5);
        label(number, at(first, -2.0));
        label(number, at(last, 2.0));
    }
    Ok(())
}
