//! Trike's words: the side panel's hint, the Swap button, the rules window, the game-over lines, and
//! the start screen's options and summary (`docs/rules/trike.md`).

use bevy::prelude::*;
use bevy_egui::egui;

use crate::app::flow::MoveIntent;
use crate::app::games::Swatch;
use crate::app::ui::rules_paragraph;
use crate::rules::trike::{Color as Stone, MAX_SIZE, MIN_SIZE, Trike, TrikeMove, TrikeOptions};
use crate::rules::{Game, Outcome, Player};

/// Two lines on Trike under the start screen's Start button.
pub const SUMMARY: &str = "Slide the pawn along a line of empty cells and drop a checker where it stops.\n\
                           When the pawn is trapped, the checkers under and around it score.";

/// The start screen's board size row (`docs/rules/trike.md` §Board: 7–19, and 3–6 for puzzles).
pub fn options_ui(ui: &mut egui::Ui, options: &mut TrikeOptions) {
    ui.label("Board size");
    ui.vertical(|ui| {
        ui.add(egui::Slider::new(&mut options.size, MIN_SIZE..=MAX_SIZE).suffix(" cells a side"));
        ui.label(egui::RichText::new("7–19 for play, 13 standard; 3–6 for puzzles").small().weak());
    });
}

/// The colours of Trike's swatches, as egui colours.
pub fn swatch(color: Stone) -> Swatch {
    match color {
        Stone::Black => (egui::Color32::from_rgb(0x1f, 0x1f, 0x24), egui::Color32::from_rgb(0xb0, 0xb0, 0xb8)),
        Stone::White => (egui::Color32::from_rgb(0xf7, 0xf5, 0xef), egui::Color32::from_rgb(0x2b, 0x2b, 0x2b)),
    }
}

/// What a person to move should do.
pub fn hint(game: &Trike) -> String {
    if game.pawn().is_none() {
        "Click any cell to place the first checker and the pawn.".into()
    } else {
        "Click a highlighted cell to move the pawn there.".into()
    }
}

/// The Swap button (pie rule, `docs/rules/trike.md` §Pie rule) while White may swap.
pub fn actions(ui: &mut egui::Ui, game: &Trike, may_act: bool, intents: &mut Vec<MoveIntent<TrikeMove>>) {
    if game.swap_available() && may_act {
        let swap = ui.button("Swap colours (pie rule)").on_hover_text(
            "Take over the opening checker: you become Black, and the opener plays White and moves next",
        );
        if swap.clicked() {
            intents.push(MoveIntent { mv: TrikeMove::SWAP, from_ai: false });
        }
    }
}

/// The game-over window's scores.
pub fn game_over(ui: &mut egui::Ui, game: &Trike, outcome: &Outcome) {
    ui.label(format!(
        "{} {} – {} {}",
        game.player_name(Player(0)),
        outcome.scores[0],
        game.player_name(Player(1)),
        outcome.scores[1]
    ));
    ui.label(egui::RichText::new("Scored: the checkers under and around the trapped pawn (gold).").weak());
}

/// The rules window (`docs/rules/trike.md`).
pub fn rules(ui: &mut egui::Ui) {
    let para = rules_paragraph;
    para(
        ui,
        "The board",
        "A triangle of hexagonal cells, N cells on each side (7–19; 13 is standard). There is one neutral \
         pawn and an unlimited supply of black and white checkers. Cells are named by column letter and row \
         number: a1 is the top corner.",
    );
    para(ui, "Opening", "Black puts a black checker on any cell and sets the pawn on top of it.");
    para(
        ui,
        "Pie rule",
        "On the next move only, White may swap instead of moving: the players exchange colours, so the \
         opener now plays White and moves the pawn next. The board stays as it is.",
    );
    para(
        ui,
        "Moving",
        "On your turn, slide the pawn in a straight line in any of the six directions, as far as you like, \
         across empty cells only — it may neither land on nor jump over a checker. Put a checker of your \
         colour on the cell where it stops and the pawn on top of it. Passing is not allowed.",
    );
    para(
        ui,
        "End and score",
        "When the player to move cannot move because every cell next to the pawn is taken (or off the \
         board), the game ends. Each player scores a point for every checker of their colour under the pawn \
         or next to it. The higher score wins; as an odd number of cells is counted, there are no draws.",
    );
    ui.label(egui::RichText::new("Highlighted cells are where the pawn can go.").weak());
}
