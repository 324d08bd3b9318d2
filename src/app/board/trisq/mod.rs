//! Trisq's view (`docs/rules/trisq.md`): the `N × N` grid of squares with Red's edges (top and bottom)
//! and Blue's (left and right) banded in their colours, and every placed trapezium an entity drawn
//! as its exact polygon. Hovering a square outlines the slots that may be played there now and lights
//! the one nearest the pointer; a click places it, or says why not. After a first piece the side
//! panel offers **End turn** (or Enter); while the turn may not end, the two pieces that touch at a
//! corner without a bridge are marked. The last turn's pieces carry a dot, the piece of the turn in
//! progress is lighter, and the winning chain is outlined in gold.
//!
//! [`geometry`] places the rules' quarter units in the world and finds the slot a pointer aims at;
//! [`entities`] keeps the squares and tiles in step with the model and turns presses into moves;
//! [`art`] draws them; [`overlay`] paints labels and outlines over them with egui; [`panel`] holds
//! the side panel's, rules window's and start screen's words.

pub mod art;
pub mod entities;
pub mod geometry;
pub mod overlay;
pub mod panel;

use bevy::prelude::*;
use bevy_egui::egui;

pub use entities::{SlotPointer, Tile, TileMarks, TrisqSquare};
pub use geometry::TrisqLegal;
pub use geometry::{Aim, aim, aimed_slot, slot_centre};

use crate::app::flow::MoveIntent;
use crate::app::games::MoveMarks;
use crate::app::games::{AppGame, GameInfo, Swatch};
use crate::app::model::Model;
use crate::rules::trisq::{Trisq, TrisqMove, TrisqOptions};
use crate::rules::{Game, Outcome, Player};

impl AppGame for Trisq {
    const INFO: GameInfo =
        GameInfo { scored: false, ..GameInfo::new("the game is over: a chain joins a player's edges") };

    fn display_name(&self) -> String {
        "Trisq".to_string()
    }
    fn new_game_text(&self) -> String {
        let n = self.board().side;
        format!("New game: Trisq on a {n}×{n} board. Red (top and bottom) places one piece first.")
    }
    fn played_text(&self, mover: &str, text: &str) -> String {
        if text == "end" {
            format!("{mover} ended the turn")
        } else if let Some(first) = self.first_placed() {
            format!("{mover} placed {} and {text}", self.slot_name(first))
        } else {
            format!("{mover} placed {text}")
        }
    }

    fn menu_entries() -> Vec<(&'static str, TrisqOptions)> {
        vec![("Trisq", TrisqOptions::default())]
    }
    fn seat_names(_: &TrisqOptions) -> &'static [&'static str] {
        &["Red (top–bottom, first)", "Blue (left–right)"]
    }
    fn summary(_: &TrisqOptions) -> &'static str {
        panel::SUMMARY
    }
    fn options_ui(ui: &mut egui::Ui, options: &mut TrisqOptions) {
        panel::options_ui(ui, options);
    }

    fn subtitle(&self) -> String {
        let n = self.board().side;
        format!("{n}×{n}")
    }
    fn seat_swatches(&self, player: Player) -> Vec<Swatch> {
        vec![panel::swatch(player.index())]
    }
    fn hint(&self) -> String {
        panel::hint(self)
    }
    fn actions(&self, ui: &mut egui::Ui, may_act: bool, intents: &mut Vec<MoveIntent<TrisqMove>>) {
        panel::actions(ui, self, may_act, intents);
    }
    fn rules(ui: &mut egui::Ui) {
        panel::rules(ui);
    }
    fn game_over(&self, ui: &mut egui::Ui, outcome: &Outcome) {
        panel::game_over(ui, self, outcome);
    }
    fn mover_swatch(before: &Trisq) -> Swatch {
        panel::swatch(before.to_move().map_or(0, |p| p.index()))
    }

    fn plugin(app: &mut App) {
        entities::plugin(app);
    }
    fn view_plugin(app: &mut App) {
        app.add_plugins((art::plugin, overlay::plugin));
    }
    fn move_marks(&self, mv: TrisqMove) -> MoveMarks {
        let Some(slot) = mv.slot() else { return MoveMarks::default() };
        let corners = geometry::slot_corners(self.board(), slot);
        MoveMarks { shapes: vec![geometry::inset(&geometry::ccw(corners), 2.0)], ..MoveMarks::default() }
    }
    fn click_points(world: &mut World, mv: TrisqMove) -> Result<Vec<Vec2>, String> {
        let board = world.resource::<Model<Trisq>>().game().board();
        let slot = mv.slot().ok_or("end is the End turn button (or Enter), not a press on the board")?;
        Ok(vec![slot_centre(board, slot)])
    }
}
