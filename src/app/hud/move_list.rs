//! The move list: the game's turns in rows of [`AppGame::turns_per_row`], each row numbered (a
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
    /// The plies' texts in order ([`AppGame::move_label`]).
    pub plies: Vec<String>,
    /// The plies in full notation where a label is shorter (Trigon), for the hover.
    pub full: Vec<String>,
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
        let full = replay.move_text(mv);
        replay.play_unchecked(mv);
        match turns.last_mut() {
            Some(turn) if open => {
                turn.plies.push(text);
                turn.full.push(full);
            }
            _ => turns.push(Turn { swatch, plies: vec![text], full: vec![full] }),
        }
        open = !replay.is_turn_boundary();
    }
    turns
}

/// The rows of the list: `(number, turns)`, `per_row` turns a row ([`AppGame::turns_per_row`]: a
/// round, so each column is one seat's), numbered from 1.
pub fn rows(turns: &[Turn], per_row: usize) -> Vec<(usize, &[Turn])> {
    turns.chunks(per_row.max(1)).enumerate().map(|(k, group)| (k + 1, group)).collect()
}

/// Draws the list, scrolled to its end. A round too wide for the panel (Trigon's four colours) takes
/// two lines, numbered on its first.
pub fn move_list<G: AppGame>(ui: &mut egui::Ui, model: &Model<G>) {
    let turns = turns(model);
    let round = model.game.turns_per_row().max(1);
    // The number's column is about 28 points; the scroll bar takes some 12.
    let column = |per_line: usize| (ui.available_width() - 40.0 - per_line as f32 * 10.0) / per_line as f32;
    let mut per_line = round;
    while per_line > 1 && column(per_line) < 84.0 {
        per_line = per_line.div_ceil(2);
    }
    let width = column(per_line).max(48.0);
    let rounds = rows(&turns, round);
    let last_round = rounds.len();
    egui::ScrollArea::vertical().auto_shrink([false, false]).stick_to_bottom(true).show(ui, |ui| {
        egui::Grid::new("moves").num_columns(per_line + 1).min_col_width(20.0).spacing([10.0, 4.0]).striped(true).show(
            ui,
            |ui| {
                for (number, group) in rounds {
                    for (line, part) in group.chunks(per_line).enumerate() {
                        let label = if line == 0 { format!("{number}.") } else { String::new() };
                        ui.label(egui::RichText::new(label).weak());
                        for (k, turn) in part.iter().enumerate() {
                            let last = number == last_round && line * per_line + k + 1 == group.len();
                            // A long turn wraps inside its column rather than pushing the panel wider.
                            ui.horizontal_top(|ui| {
                                ui.set_max_width(width);
                                stone(ui, turn.swatch, 6.0);
                                let text = egui::RichText::new(turn.plies.join(" ")).monospace();
                                let label = ui
                                    .add(egui::Label::new(if last { text.strong().underline() } else { text }).wrap());
                                if turn.full != turn.plies {
                                    label.on_hover_text(turn.full.join(" "));
                                }
                            });
                        }
                        ui.end_row();
                    }
                }
            },
        );
    });
}
