//! The Load dialog, on the start screen and in the side panel: the saved games newest first, each
//! with its game, date (local time, [`local_time`]), moves and result; it scrolls, Esc closes it,
//! and a game that cannot be opened says why inside it and leaves it open. Delete removes a saved
//! game (the file, or the browser's entry) after asking.

use bevy::prelude::*;
use bevy_egui::egui;

use super::files;
use super::games::{AppGame, ForGame, for_id};
use super::local_time::{self, LocalDate};
use super::setup::unknown_game;
use super::ui::{RED, title};
use crate::rules::record::Record;

/// A saved game as the dialog lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedGame {
    /// Its name in the folder (or the browser's storage).
    pub name: String,
    /// The game's name ("Blokus Trigon Two-Player"), or the record's game id when it is unknown.
    pub game: String,
    /// When it was saved ("2026-11-24 02:33", UTC), from its name.
    pub date: String,
    /// When it was saved in local time, from its name.
    pub local: Option<LocalDate>,
    /// Its moves (plies).
    pub moves: usize,
    /// Its result, or "unfinished".
    pub result: String,
    /// Why it cannot be opened (not a record, an unknown game, a move that does not replay).
    pub error: Option<String>,
}

impl SavedGame {
    /// What the dialog says of the saved game `name`, read as `read`.
    pub fn describe(name: &str, read: Result<Record, String>) -> SavedGame {
        let date = files::stamp_of(name).map(files::date_of).unwrap_or_default();
        let local = files::stamp_of(name).and_then(local_time::local_date);
        let mut saved = SavedGame {
            name: name.to_string(),
            game: String::new(),
            date,
            local,
            moves: 0,
            result: String::new(),
            error: None,
        };
        match read {
            Err(e) => saved.error = Some(e),
            Ok(record) => {
                saved.game = record.game.clone();
                saved.moves = record.moves.len();
                saved.result = record.result.clone().unwrap_or_else(|| "unfinished".to_string());
                match for_id(&record.game, Describe(&record)).unwrap_or_else(|| Err(unknown_game(&record.game))) {
                    Ok(game) => saved.game = game,
                    Err(e) => saved.error = Some(e),
                }
            }
        }
        saved
    }
}

/// The record's game name, after replaying every move.
struct Describe<'a>(&'a Record);

impl ForGame for Describe<'_> {
    type Output = Result<String, String>;
    fn run<G: AppGame>(self) -> Self::Output {
        let (_, game, _) = self.0.replay::<G>().map_err(|e| e.to_string())?;
        Ok(game.display_name())
    }
}

/// The saved games, newest first, each described.
pub fn catalogue() -> Vec<SavedGame> {
    files::list().into_iter().map(|name| SavedGame::describe(&name, files::read(&name))).collect()
}

/// A result's verdict ("White wins") without the scores: the app writes "Black 3 – White 4 (White
/// wins)", the CLI "Black 3 – White 4: White wins".
fn verdict(result: &str) -> &str {
    if let Some((_, v)) = result.rsplit_once(" (")
        && let Some(v) = v.strip_suffix(')')
    {
        return v;
    }
    result.rsplit_once(": ").map_or(result, |(_, v)| v)
}

/// A label cut to the result column's width, left-aligned.
fn cell(ui: &mut egui::Ui, text: egui::RichText) -> egui::Response {
    let size = egui::vec2(170.0, ui.spacing().interact_size.y);
    ui.allocate_ui_with_layout(size, egui::Layout::left_to_right(egui::Align::Center), |ui| {
        ui.set_min_size(size);
        ui.add(egui::Label::new(text).truncate())
    })
    .inner
}

/// The dialog's state: open or not, and the games listed when it was opened.
#[derive(Resource, Debug, Default)]
pub struct LoadDialog {
    /// It is shown.
    pub open: bool,
    /// The games listed, newest first.
    pub entries: Vec<SavedGame>,
    /// Why the last chosen game could not be opened (or deleted).
    pub error: Option<String>,
    /// The saved game whose Delete waits for "Delete this saved game?".
    pub confirm_delete: Option<String>,
    /// What the last Delete did ("Deleted …").
    pub notice: Option<String>,
}

impl LoadDialog {
    /// Opens it (again) with the saved games as they are now.
    pub fn open(&mut self) {
        self.entries = catalogue();
        self.error = None;
        self.notice = None;
        self.confirm_delete = None;
        self.open = true;
    }

    /// Deletes the saved game `name` (its file, or the browser's entry) and lists the games again.
    ///
    /// # Errors
    /// It could not be deleted: why (the list is unchanged).
    pub fn delete(&mut self, name: &str) -> Result<(), String> {
        files::delete(name)?;
        self.entries = catalogue();
        Ok(())
    }

    /// Draws it while open; returns the record chosen (the dialog then closes).
    pub fn show(&mut self, ctx: &egui::Context) -> Option<Record> {
        if !self.open {
            return None;
        }
        // Esc closes the question first, then the dialog.
        if self.confirm_delete.is_none() && ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
            self.open = false;
            return None;
        }
        let mut chosen = None;
        let mut open = true;
        let height = (ctx.content_rect().height() - 220.0).clamp(120.0, 460.0);
        egui::Window::new(title("Open a saved game"))
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.set_width(620.0_f32.min(ctx.content_rect().width() - 60.0));
                ui.label(egui::RichText::new(format!("From {} — newest first. Esc closes.", files::location())).weak());
                if let Some(e) = &self.error {
                    ui.colored_label(RED, e);
                } else if let Some(notice) = &self.notice {
                    ui.label(notice);
                }
                if self.entries.is_empty() {
                    ui.label("No saved games yet: Save in a game puts one here.");
                    return;
                }
                egui::ScrollArea::vertical()
                    .auto_shrink([false, true])
                    .max_height(height)
                    .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
                    .show(ui, |ui| {
                        egui::Grid::new("saved").num_columns(5).striped(true).spacing([16.0, 6.0]).show(ui, |ui| {
                            for heading in ["Game", "Saved", "Moves", "Result", ""] {
                                let label = ui.label(egui::RichText::new(heading).strong());
                                if heading == "Saved" {
                                    label.on_hover_text("In this computer's local time (the UTC time on hover)");
                                }
                            }
                            ui.end_row();
                            for saved in &self.entries {
                                ui.label(if saved.game.is_empty() { "?" } else { &saved.game })
                                    .on_hover_text(&saved.name);
                                match &saved.local {
                                    Some(local) => ui.label(&local.date).on_hover_text(format!(
                                        "{} UTC (local time was UTC{} then)",
                                        saved.date, local.offset
                                    )),
                                    None => ui.label(&saved.date),
                                };
                                ui.label(saved.moves.to_string());
                                match &saved.error {
                                    Some(e) => {
                                        ui.add(
                                            egui::Label::new(egui::RichText::new("cannot be opened").weak()).truncate(),
                                        )
                                        .on_hover_text(e);
                                        ui.horizontal(|ui| {
                                            if delete_button(ui) {
                                                self.confirm_delete = Some(saved.name.clone());
                                            }
                                        });
                                    }
                                    None => {
                                        // The verdict, "Black wins"; the scores on hover.
                                        cell(ui, egui::RichText::new(verdict(&saved.result)))
                                            .on_hover_text(&saved.result);
                                        ui.horizontal(|ui| {
                                            if ui.button("Open").clicked() {
                                                chosen = Some(saved.name.clone());
                                            }
                                            if delete_button(ui) {
                                                self.confirm_delete = Some(saved.name.clone());
                                            }
                                        });
                                    }
                                }
                                ui.end_row();
                            }
                        });
                    });
            });
        self.open &= open;
        self.ask_delete(ctx);
        let name = chosen?;
        match files::read(&name) {
            Ok(record) => {
                self.open = false;
                Some(record)
            }
            Err(e) => {
                self.error = Some(format!("{name} cannot be opened: {e}"));
                None
            }
        }
    }
}

/// A row's Delete button; true when pressed.
fn delete_button(ui: &mut egui::Ui) -> bool {
    ui.button("Delete").on_hover_text("Delete this saved game (asks first)").clicked()
}

impl LoadDialog {
    /// "Delete this saved game?" over the dialog while a Delete waits: Delete removes it, Keep it
    /// (or Esc, or a click beside it) keeps it.
    fn ask_delete(&mut self, ctx: &egui::Context) {
        let Some(name) = self.confirm_delete.clone() else { return };
        let mut decided = None;
        let modal = egui::Modal::new(egui::Id::new("confirm delete")).show(ctx, |ui| {
            ui.set_width(380.0);
            ui.label(title("Delete this saved game?"));
            ui.add_space(4.0);
            if let Some(saved) = self.entries.iter().find(|s| s.name == name)
                && !saved.game.is_empty()
            {
                ui.label(format!(
                    "{}, {}, {}",
                    saved.game,
                    crate::rules::counted(saved.moves, "move", "moves"),
                    verdict(&saved.result)
                ));
            }
            ui.label(&name);
            ui.label(
                egui::RichText::new(format!("It is removed from {}; this cannot be undone.", files::location())).weak(),
            );
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if ui.button("Keep it").clicked() {
                    decided = Some(false);
                } else if ui.button(egui::RichText::new("Delete").color(RED)).clicked() {
                    decided = Some(true);
                }
            });
        });
        if decided.is_none() && modal.should_close() {
            decided = Some(false);
        }
        match decided {
            Some(true) => {
                self.confirm_delete = None;
                match self.delete(&name) {
                    Ok(()) => {
                        self.error = None;
                        self.notice = Some(format!("Deleted {name}"));
                    }
                    Err(e) => self.error = Some(e),
                }
            }
            Some(false) => self.confirm_delete = None,
            None => {}
        }
    }
}
