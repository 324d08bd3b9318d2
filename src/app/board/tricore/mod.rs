//! TriCore's view (`docs/rules/tricore.md`): the elongated hexagon of the lattice board
//! ([`super::lattice`]) with red Cores, blue Rings and black and white discs as entities, stacks
//! drawn as offset discs with their height beside them. While Cores and Rings are placed the legal
//! points light up; in the disc phase a click chooses a Ring (its destinations light up) and a
//! second click drives it there — the Ring glides, the disc drops in where it stood — then a click
//! on one of the mover's discs that may climb and one on its target climbs, or **End turn** (or
//! Enter) ends the turn. Trapped Rings shrink away; the end window marks each best group in gold.
//!
//! [`entities`] keeps the pieces in step with the model and turns presses into moves; [`art`] draws
//! them and lights the points; [`overlay`] paints the stacks' heights; [`panel`] holds the side
//! panel's and start screen's words.

pub mod art;
pub mod entities;
pub mod layout;
pub mod overlay;
pub mod panel;

use bevy::prelude::*;
use bevy_egui::egui;

pub use entities::{Chosen, Core, Disc, Ring};

use super::lattice::{LatticeGame, point_center};
use crate::app::flow::MoveIntent;
use crate::app::games::MoveMarks;
use crate::app::games::{AppGame, GameInfo, Swatch};
use crate::app::model::Model;
use crate::rules::geometry::lattice::Lattice;
use crate::rules::tricore::{TriCore, TriCoreMove, TriCoreOptions};
use crate::rules::{Game, Outcome, Player};

impl LatticeGame for TriCore {
    fn board(&self) -> &Lattice {
        self.lattice()
    }
}

impl AppGame for TriCore {
    const INFO: GameInfo = GameInfo {
        score_caption: "best group: Cores reached",
        black_and_white: true,
        cursor: true,
        ..GameInfo::new("the game is over")
    };

    fn display_name(&self) -> String {
        "TriCore".to_string()
    }
    fn new_game_text(&self) -> String {
        "New game: TriCore. Black places the first Core.".to_string()
    }
    fn played_text(&self, mover: &str, text: &str) -> String {
        panel::played_text(self, mover, text)
    }

    fn menu_entries() -> Vec<(&'static str, TriCoreOptions)> {
        vec![("TriCore", TriCoreOptions::default())]
    }
    fn seat_names(_: &TriCoreOptions) -> &'static [&'static str] {
        &["Black (first core)", "White (first ring)"]
    }
    fn summary(_: &TriCoreOptions) -> &'static str {
        panel::SUMMARY
    }
    fn options_ui(ui: &mut egui::Ui, _: &mut TriCoreOptions) {
        panel::options_ui(ui);
    }

    fn subtitle(&self) -> String {
        panel::subtitle(self)
    }
    fn seat_swatches(&self, player: Player) -> Vec<Swatch> {
        vec![panel::swatch(player.index())]
    }
    /// The Cores each player's best group reaches now: what the result counts first.
    fn live_score(&self, player: Player) -> Option<i32> {
        Some(self.best_group(player.index()).1.count_ones() as i32)
    }
    fn hint(&self) -> String {
        panel::hint(self)
    }
    fn actions(&self, ui: &mut egui::Ui, may_act: bool, intents: &mut Vec<MoveIntent<TriCoreMove>>) {
        panel::actions(ui, self, may_act, intents);
    }
    fn rules(ui: &mut egui::Ui) {
        panel::rules(ui);
    }
    fn game_over(&self, ui: &mut egui::Ui, outcome: &Outcome) {
        panel::game_over(ui, self, outcome);
    }
    fn mover_swatch(before: &TriCore) -> Swatch {
        panel::swatch(before.to_move().map_or(0, |p| p.index()))
    }

    fn plugin(app: &mut App) {
        entities::plugin(app);
    }
    fn view_plugin(app: &mut App) {
        art::plugin(app);
        overlay::plugin(app);
    }
    fn move_marks(&self, mv: TriCoreMove) -> MoveMarks {
        let at = |p: u8| point_center(self.lattice(), p as usize);
        let radius = super::lattice::SPACING * 0.3;
        let (points, path) = match mv {
            TriCoreMove::Core(p) | TriCoreMove::Ring(p) => (vec![at(p)], Vec::new()),
            TriCoreMove::Drive { ring, to } => (vec![at(to)], vec![at(ring), at(to)]),
            TriCoreMove::Climb { from, to } => (vec![at(to)], vec![at(from), at(to)]),
            TriCoreMove::End => (Vec::new(), Vec::new()),
        };
        MoveMarks { points, radius, path, ..MoveMarks::default() }
    }
    fn click_points(world: &mut World, mv: TriCoreMove) -> Result<Vec<Vec2>, String> {
        let lattice = world.resource::<Model<TriCore>>().game().lattice();
        let at = |p: u8| point_center(lattice, p as usize);
        match mv {
            TriCoreMove::Core(p) | TriCoreMove::Ring(p) => Ok(vec![at(p)]),
            TriCoreMove::Drive { ring, to } => Ok(vec![at(ring), at(to)]),
            TriCoreMove::Climb { from, to } => Ok(vec![at(from), at(to)]),
            TriCoreMove::End => Err("end is the End turn button (or Enter), not a press on the board".into()),
        }
    }
}
