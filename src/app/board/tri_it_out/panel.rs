//! Tri-It-Out's words: the side panel's hint, the rules window, the game-over lines, and the start
//! screen's board, tie rule and variant rows and summary (`docs/rules/tri-it-out.md`).

use bevy_egui::egui;

use super::art::{fill, outline};
use crate::app::board::lattice;
use crate::app::games::Swatch;
use crate::app::ui::rules_paragraph;
use crate::rules::tri_it_out::{Board, TieRule, TriItOut, TriItOutOptions, Variant};
use crate::rules::{Game, Outcome, Player};

/// The player names, by colour: Red places first (`docs/rules/tri-it-out.md`).
pub const NAMES: [&str; 2] = ["Red", "Blue"];

/// Two lines on Tri-It-Out under the start screen's Start button.
pub const SUMMARY: &str = "Place counters; completing a triangle with two enemy counters captures one of them.\n\
                           Points that would complete a mixed triangle are closed. Fewest counters wins.";

/// A colour's swatch for the side panel (0 Red, 1 Blue).
pub fn swatch(colour: usize) -> Swatch {
    lattice::swatch(fill(colour), outline(colour))
}

/// What a person to move should do: capture, place again, or place.
pub fn hint(game: &TriItOut) -> String {
    let me = game.to_move().map_or(0, |p| p.index());
    if game.capture_pending() {
        format!("Capture: click one of the glowing {} counters.", NAMES[1 - me])
    } else if game.placing_again() {
        "Place again: after a capture you place another counter.".to_string()
    } else {
        "Click a point to place a counter. Shaded points are restricted: hover one to see the triangle \
         that closes it."
            .to_string()
    }
}
/// The rules window (`docs/rules/tri-it-out.md`).
pub fn rules(ui: &mut egui::Ui) {
    let para = rules_paragraph;
    para(
        ui,
        "Goal",
        "Have the fewest counters on the board when the game ends. Red places first; each player has an \
         unlimited supply of counters.",
    );
    para(
        ui,
        "Triangles",
        "Any three counters the same distance apart form a triangle — of any size and any tilt, not only \
         along the lines. A mixed triangle holds counters of both colours.",
    );
    para(
        ui,
        "Restricted points",
        "An empty point that would complete a triangle with a red and a blue counter already on the board \
         is restricted: nobody may place there. They are shaded; hover one to see its triangle.",
    );
    para(
        ui,
        "A turn",
        "Place a counter on an empty point that is not restricted. If it forms mixed triangles (with two \
         enemy counters), take one enemy counter from one of them — they glow — and place again. Your turn \
         ends with a placement that forms no mixed triangle.",
    );
    para(
        ui,
        "End",
        "The game ends when the player to move cannot place, even in the middle of a turn. Fewest counters \
         wins. On equal counts the player who moved last loses, as in the designer's own version on Ludii. \
         The start screen offers the published sentence read literally instead (the player who cannot \
         place loses), under which the second player wins nearly every game.",
    );
    para(
        ui,
        "Variant: any mixed triangle",
        "A capture may take an enemy counter from any mixed triangle on the board; keep placing until none \
         remains. If the game ends on your turn while one remains, you lose.",
    );
}
/// The game-over window: the counts, and the tie rule or the variant when it decided.
pub fn game_over(ui: &mut egui::Ui, game: &TriItOut, outcome: &Outcome) {
    let [red, blue] = game.counts();
    ui.label(format!("Red {red} – Blue {blue} counters on the board; fewest wins."));
    if game.tie_decided() {
        let rule = match game.options().tie {
            TieRule::StuckPlayerLoses => "the player who could not place loses",
            TieRule::LastMoverLoses => "the player who moved last loses",
        };
        let loser = (0..2).find(|&p| !outcome.winners().contains(&Player(p as u8))).map_or("", |p| NAMES[p]);
        ui.label(format!("Equal counts: {rule} — {loser}."));
    } else if game.options().variant == Variant::AnyMixedTriangle && red == blue {
        ui.label("A mixed triangle was left on the board of the player who could not place.");
    }
    if let Some(p) = game.stuck() {
        ui.label(egui::RichText::new(format!("{} could not place.", NAMES[p.index()])).weak());
    }
}
/// Tri-It-Out's options: the board, the tie rule and the variant (`docs/rules/tri-it-out.md`).
pub fn options_ui(ui: &mut egui::Ui, options: &mut TriItOutOptions) {
    ui.label("Board");
    // Tall enough for all nine boards: a list cut at six gave no sign that it scrolled.
    egui::ComboBox::from_id_salt("tio-board")
        .width(260.0)
        .height(600.0)
        .selected_text(board_label(options.board))
        .show_ui(ui, |ui| {
            for board in Board::ALL {
                ui.selectable_value(&mut options.board, board, board_label(board));
            }
        });
    ui.end_row();
    ui.label("A tie");
    ui.vertical(|ui| {
        ui.radio_value(&mut options.tie, TieRule::LastMoverLoses, "the player who moved last loses (Ludii; standard)")
            .on_hover_text("The designer's own implementation: the seats are even");
        ui.radio_value(&mut options.tie, TieRule::StuckPlayerLoses, "the player who cannot place loses (literal)")
            .on_hover_text(
                "The published sentence read literally: without captures the second player (Blue) wins \
                 nearly every game, whoever plays it",
            );
    });
    ui.end_row();
    ui.label("Variant");
    let mut any = options.variant == Variant::AnyMixedTriangle;
    ui.checkbox(&mut any, "capture from any mixed triangle")
        .on_hover_text("A capture may take from any mixed triangle on the board; keep placing until none is left");
    options.variant = if any { Variant::AnyMixedTriangle } else { Variant::Standard };
}

/// A board's name on the start screen: its id and its number of points.
fn board_label(board: Board) -> String {
    format!("{} ({} points)", board.id(), board.lattice().len)
}
