//! The move list: the game's turns in rows of [`AppGame::TURNS_PER_ROW`], each row numbered (a
//! round of turns, as chess numbers its moves), each turn in its mover's column with its mover's
//! colour. A turn of several plies (Tri-It-Out's capture and re-placement, Trisq's two pieces,
//! TriCore's drives) stays in one cell; the last ply stands out.

use bevy_egui::egui;

use super::stone;
use crate::app::games::{AppGame, Swatch};
use crate::app::model::Model;

/// One turn of the list: its mover's colour and its plies' texts.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    /// The mover's colour.
    pub swatch: Swatch,
    /// The plies' texts in order.
    pub plies: Vec<String>,
}

/// The turns of `model`'s moves: a turn ends where the rules say one does
/// ([`crate::rules::Game::is_turn_boundary`]).
pub fn turns<G: AppGame>(model: &Model<G>) -> Vec<Turn> {
    let mut replay = model.start.clone();
    let mut turns: Vec<Turn> = Vec::new();
    let mut open = false;
    for &mv in &model.moves {
        let swatch = G::mover_swatch(&replay);
        let text = G::move_label(&replay, mv);
        replay.play_unchecked(mv);
        match turns.last_mut() {
            Some(turn) if open => turn.plies.push(text),
            _ => turns.push(Turn { swatch, plies: vec![text] }),
        }
        open = !replay.is_turn_boundary();
    }
    turns
}

/// The rows of the list: `(number, turns)`, [`AppGame::TURNS_PER_ROW`] turns a row (a round, so
/// each column is one seat's), numbered from 1.
pub fn rows<G: AppGame>(turns: &[Turn]) -> Vec<(usize, &[Turn])> {
    turns.chunks(G::TURNS_PER_ROW.max(1)).enumerate().map(|(k, group)| (k + 1, group)).collect()
}

/// Draws the list, scrolled to its end.
pub fn move_list<G: AppGame>(ui: &mut egui::Ui, model: &Model<G>) {
    let turns = turns(model);
    let last_row = rows::<G>(&turns).len();
    let per_row = G::TURNS_PER_ROW.max(1) as f32;
    // The number's column is about 28 points; the scroll bar takes some 12.
    let column = ((ui.available_width() - 40.0 - per_row * 10.0) / per_row).max(60.0);
    egui::ScrollArea::vertical().auto_shrink([false, false]).stick_to_bottom(true).show(ui, |ui| {
        egui::Grid::new("moves")
            .num_columns(G::TURNS_PER_ROW + 1)
            .min_col_width(20.0)
            .spacing([10.0, 4.0])
            .striped(true)
            .show(ui, |ui| {
                for (number, group) in rows::<G>(&turns) {
                    ui.label(egui::RichText::new(format!("{number}.")).weak());
                    for (k, turn) in group.iter().enumerate() {
                        let last = number == last_row && k + 1 == group.len();
                        // A long turn wraps inside its column rather than pushing the panel wider.
                        ui.horizontal_top(|ui| {
                            ui.set_max_width(column);
                            stone(ui, turn.swatch, 6.0);
                            let text = egui::RichText::new(turn.plies.join(" ")).monospace();
                            ui.add(egui::Label::new(if last { text.strong().underline() } else { text }).wrap());
                        });
                    }
                    ui.end_row();
                }
            });
    });
}
