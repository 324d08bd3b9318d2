//! Blokus Trigon's view (`docs/rules/trigon.md`): the hexagon of triangles with its starting points,
//! the placed pieces dropping into place, the piece chooser (each colour's remaining pieces), the
//! chosen piece as a ghost under the pointer, snapped to the grid in its orientation (R or the mouse
//! wheel turn it, F flips it) and tinted legal or illegal, the attach points of the colour to move
//! on request, and the game-over table of scores, bonuses and ranks.
//!
//! [`entities`] keeps the cells, frame and pieces in step with the model and turns presses and keys
//! into placements; [`ghost`] is the held piece ([`Selection`]), where it lies and its ghost;
//! [`art`] draws the board and fits the camera; [`chooser`] is the panel on the left; [`overlay`]
//! names the edges; [`panel`] holds the side panel's, status line's and start screen's words.

pub mod art;
pub mod chooser;
pub mod entities;
pub mod ghost;
pub mod layout;
pub mod overlay;
pub mod panel;
pub mod pointing;

use bevy::prelude::*;
use bevy_egui::egui;

pub use entities::{PlacedPiece, TrigonCell};
pub use pointing::{Selection, placement_at};

use crate::ai::Level;
use crate::app::games::MoveMarks;
use crate::app::games::{AppGame, GameInfo, Swatch};
use crate::rules::trigon::{Trigon, TrigonMove, TrigonOptions};
use crate::rules::{Game, Outcome, Player};

impl AppGame for Trigon {
    const INFO: GameInfo = GameInfo {
        score_caption: "triangles covered",
        sgf: true,
        ..GameInfo::new("the game is over: no colour can place a piece")
    };

    fn display_name(&self) -> String {
        self.options().variant.name().to_string()
    }
    fn new_game_text(&self) -> String {
        format!("New game: {}. Blue begins on a starting point.", self.display_name())
    }
    fn played_text(&self, mover: &str, text: &str) -> String {
        panel::played_text(self, mover, text)
    }

    fn menu_entries() -> Vec<(&'static str, TrigonOptions)> {
        panel::menu_entries()
    }
    fn seat_names(options: &TrigonOptions) -> &'static [&'static str] {
        panel::seat_names(options)
    }
    fn summary(options: &TrigonOptions) -> &'static str {
        panel::summary(options)
    }
    fn options_ui(ui: &mut egui::Ui, options: &mut TrigonOptions) {
        panel::options_ui(ui, options);
    }
    fn level_strength(level: Level) -> Option<&'static str> {
        Some(panel::level_strength(level))
    }

    fn heading(&self) -> String {
        "Blokus Trigon".to_string()
    }
    fn subtitle(&self) -> String {
        panel::subtitle(self)
    }
    fn seat_swatches(&self, player: Player) -> Vec<Swatch> {
        panel::seat_swatches(self, player)
    }
    fn live_score(&self, player: Player) -> Option<i32> {
        Some(panel::live_score(self, player))
    }
    fn hint(&self) -> String {
        panel::hint(self)
    }
    fn rules(ui: &mut egui::Ui) {
        panel::rules(ui);
    }
    fn game_over(&self, ui: &mut egui::Ui, outcome: &Outcome) {
        panel::game_over(ui, self, outcome);
    }
    fn mover_swatch(before: &Trigon) -> Swatch {
        art::colour_swatch(before.colour_to_move().unwrap_or(0))
    }
    fn list_text(before: &Trigon, mv: TrigonMove) -> String {
        panel::list_text(before, mv)
    }
    fn turns_per_row(&self) -> usize {
        self.options().variant.colours()
    }

    fn plugin(app: &mut App) {
        entities::plugin(app);
    }
    fn view_plugin(app: &mut App) {
        art::plugin(app);
        ghost::plugin(app);
        chooser::plugin(app);
        overlay::plugin(app);
    }
    fn move_marks(&self, mv: TrigonMove) -> MoveMarks {
        if !mv.is_placement() {
            return MoveMarks::default();
        }
        let tables = self.tables();
        let board = tables.board;
        let shapes = tables.placements[mv.0 as usize]
            .cells
            .iter()
            .map(|&c| layout::tri_corners(board, board.tri(c as usize)).to_vec())
            .collect();
        MoveMarks { shapes, ..MoveMarks::default() }
    }
    fn click_points(world: &mut World, mv: TrigonMove) -> Result<Vec<Vec2>, String> {
        entities::click_points(world, mv)
    }
}
