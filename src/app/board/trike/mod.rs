//! Trike's view (`docs/rules/trike.md`): a triangle of hexagonal cells, black and white checkers,
//! the neutral pawn sliding between them. [`entities`] keeps the cells, checkers and pawn in step
//! with the model and turns presses into moves; [`art`] draws them; [`panel`] holds the side
//! panel's and start screen's words.

pub mod art;
pub mod entities;
pub mod layout;
pub mod panel;

use bevy::prelude::*;
use bevy_egui::egui;

pub use entities::{Checker, Pawn, TrikeCell};

use crate::app::board::marks::regular;
use crate::app::flow::MoveIntent;
use crate::app::games::MoveMarks;
use crate::app::games::{AppGame, GameInfo, Swatch};
use crate::app::model::Model;
use crate::rules::trike::{Trike, TrikeMove, TrikeOptions};
use crate::rules::{Game, Outcome, Player};

impl AppGame for Trike {
    const INFO: GameInfo =
        GameInfo { black_and_white: true, cursor: true, ..GameInfo::new("the game is over: the pawn is trapped") };

    fn display_name(&self) -> String {
        "Trike".to_string()
    }
    fn new_game_text(&self) -> String {
        format!("New game: Trike on a board of side {}", self.options().size)
    }
    fn played_text(&self, mover: &str, text: &str) -> String {
        if text == "swap" {
            format!("{mover} swapped: the colours are exchanged")
        } else {
            format!("{mover} played {text}")
        }
    }

    fn menu_entries() -> Vec<(&'static str, TrikeOptions)> {
        vec![("Trike", TrikeOptions::default())]
    }
    fn seat_names(_: &TrikeOptions) -> &'static [&'static str] {
        &["Black (opens)", "White (may swap)"]
    }
    fn summary(_: &TrikeOptions) -> &'static str {
        panel::SUMMARY
    }
    fn options_ui(ui: &mut egui::Ui, options: &mut TrikeOptions) {
        panel::options_ui(ui, options);
    }

    fn subtitle(&self) -> String {
        format!("board {}", self.geometry().side)
    }
    fn seat_swatches(&self, player: Player) -> Vec<Swatch> {
        vec![panel::swatch(self.color_of(player))]
    }
    fn hint(&self) -> String {
        panel::hint(self)
    }
    fn actions(&self, ui: &mut egui::Ui, may_act: bool, intents: &mut Vec<MoveIntent<TrikeMove>>) {
        panel::actions(ui, self, may_act, intents);
    }
    fn rules(ui: &mut egui::Ui) {
        panel::rules(ui);
    }
    fn game_over(&self, ui: &mut egui::Ui, outcome: &Outcome) {
        panel::game_over(ui, self, outcome);
    }
    fn mover_swatch(before: &Trike) -> Swatch {
        panel::swatch(before.color_of(before.to_move().expect("a recorded move was played")))
    }

    fn plugin(app: &mut App) {
        entities::plugin(app);
    }
    fn view_plugin(app: &mut App) {
        art::plugin(app);
    }
    fn move_marks(&self, mv: TrikeMove) -> MoveMarks {
        let geo = self.geometry();
        let Some(to) = mv.cell() else { return MoveMarks::default() };
        let centre = layout::cell_center(geo, to);
        // A pointy-top hexagon, a little inside the cell's.
        let hexagon = regular(centre, layout::HEX_RADIUS * 0.85, 6, std::f32::consts::FRAC_PI_6);
        let path = self.pawn().map(|from| vec![layout::cell_center(geo, from), centre]).unwrap_or_default();
        MoveMarks { shapes: vec![hexagon], path, ..MoveMarks::default() }
    }
    fn click_points(world: &mut World, mv: TrikeMove) -> Result<Vec<Vec2>, String> {
        let game = &world.resource::<Model<Trike>>().game();
        let cell = mv.cell().ok_or("a swap is the Swap button, not a press on the board")?;
        Ok(vec![layout::cell_center(game.geometry(), cell)])
    }
}
