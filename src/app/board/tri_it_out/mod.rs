//! Tri-It-Out's view (`docs/rules/tri-it-out.md`): the lattice board ([`super::lattice`]) with red and
//! blue counters as entities. Restricted points are shaded, and hovering one draws the triangle
//! that restricts it; after a capturing placement the counters that may be taken glow, a click
//! takes one and it shrinks away; the side panel says when a chain goes on ("place again"), keeps
//! the counts, and the end window names the tie rule when it decided.
//!
//! [`entities`] keeps the counters in step with the model and turns presses into moves; [`art`]
//! draws them and shades the points; [`overlay`] draws the hovered point's triangle; [`panel`]
//! holds the side panel's and start screen's words.

pub mod art;
pub mod entities;
pub mod overlay;
pub mod panel;

use bevy::prelude::*;
use bevy_egui::egui;

pub use entities::Counter;

use super::lattice::{LatticeGame, point_center};
use crate::app::games::MoveMarks;
use crate::app::games::{AppGame, GameInfo, Swatch};
use crate::app::model::Model;
use crate::rules::geometry::lattice::Lattice;
use crate::rules::tri_it_out::{TriItOut, TriItOutMove, TriItOutOptions};
use crate::rules::{Game, Outcome, Player};

impl LatticeGame for TriItOut {
    fn board(&self) -> &Lattice {
        self.lattice()
    }
}

impl AppGame for TriItOut {
    const INFO: GameInfo = GameInfo {
        cursor: true,
        score_caption: "counters on the board (fewest wins)",
        ..GameInfo::new("the game is over: no counter can be placed")
    };

    fn display_name(&self) -> String {
        "Tri-It-Out".to_string()
    }
    fn new_game_text(&self) -> String {
        let board = self.options().board;
        format!("New game: Tri-It-Out on {} ({} points). Red places first.", board.id(), self.lattice().len)
    }
    fn played_text(&self, mover: &str, text: &str) -> String {
        match text.strip_prefix('x') {
            Some(point) => format!("{mover} captured {point}"),
            None => format!("{mover} placed on {text}"),
        }
    }

    fn menu_entries() -> Vec<(&'static str, TriItOutOptions)> {
        vec![("Tri-It-Out", TriItOutOptions::default())]
    }
    fn seat_names(_: &TriItOutOptions) -> &'static [&'static str] {
        &["Red (places first)", "Blue"]
    }
    fn summary(_: &TriItOutOptions) -> &'static str {
        panel::SUMMARY
    }
    fn options_ui(ui: &mut egui::Ui, options: &mut TriItOutOptions) {
        panel::options_ui(ui, options);
    }

    fn subtitle(&self) -> String {
        format!("{}, {} points", self.options().board.id(), self.lattice().len)
    }
    fn seat_swatches(&self, player: Player) -> Vec<Swatch> {
        vec![panel::swatch(player.index())]
    }
    fn live_score(&self, player: Player) -> Option<i32> {
        Some(self.counts()[player.index()] as i32)
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
    fn mover_swatch(before: &TriItOut) -> Swatch {
        panel::swatch(before.to_move().map_or(0, |p| p.index()))
    }

    fn plugin(app: &mut App) {
        entities::plugin(app);
    }
    fn view_plugin(app: &mut App) {
        art::plugin(app);
        overlay::plugin(app);
    }
    fn move_marks(&self, mv: TriItOutMove) -> MoveMarks {
        let (TriItOutMove::Place(p) | TriItOutMove::Capture(p)) = mv;
        let radius = super::lattice::SPACING * 0.3;
        MoveMarks { points: vec![point_center(self.lattice(), p as usize)], radius, ..MoveMarks::default() }
    }
    fn click_points(world: &mut World, mv: TriItOutMove) -> Result<Vec<Vec2>, String> {
        let lattice = world.resource::<Model<TriItOut>>().game().lattice();
        let (TriItOutMove::Place(p) | TriItOutMove::Capture(p)) = mv;
        Ok(vec![point_center(lattice, p as usize)])
    }
}
