//! TriCore's words: the status line's account of a move, the side panel's phase, hint, counts and
//! End turn button, the rules window, the game-over lines, and the start screen's board row and
//! summary (`docs/rules/tricore.md`).

use bevy::prelude::*;
use bevy_egui::egui;

use super::art::{FILL, OUTLINE};
use crate::app::board::lattice;
use crate::app::flow::MoveIntent;
use crate::app::games::Swatch;
use crate::app::ui::rules_paragraph;
use crate::rules::Outcome;
use crate::rules::geometry::lattice::Lattice;
use crate::rules::tricore::{Phase, TriCore, TriCoreMove};

/// The player names by colour: Black places the first Core and moves first with discs.
pub const NAMES: [&str; 2] = ["Black", "White"];

/// Two lines on TriCore under the start screen's Start button.
pub const SUMMARY: &str = "Place cores and rings, then drive rings to lay discs and climb stacks.\n\
                           The group that reaches the most cores wins.";

/// A colour's swatch for the side panel (0 Black, 1 White).
pub fn swatch(colour: usize) -> Swatch {
    lattice::swatch(FILL[colour], OUTLINE[colour])
}

/// The start screen's board row: TriCore has one board.
pub fn options_ui(ui: &mut egui::Ui) {
    ui.label("Board");
    ui.label(egui::RichText::new("51 points; 3 cores, 3 rings, 24 discs each").weak());
}

/// What the status line says of a move `text` (in notation) just played by `mover`; `game` is the
/// position after it.
pub fn played_text(game: &TriCore, mover: &str, text: &str) -> String {
    if text == "end" {
        format!("{mover} ended the turn")
    } else if let Some((ring, to)) = text.split_once('-') {
        format!("{mover} put a disc on {ring} and drove the Ring to {to}")
    } else if let Some((from, to)) = text.split_once('^') {
        format!("{mover} climbed from {from} onto {to}")
    } else if game.phase() == Phase::Cores {
        format!("{mover} placed a Core on {text}")
    } else {
        format!("{mover} placed a Ring on {text}")
    }
}

/// Beside the heading: the phase.
pub fn subtitle(game: &TriCore) -> String {
    match game.phase() {
        Phase::Cores => "placing Cores",
        Phase::Rings => "placing Rings",
        Phase::Drive => "discs: drive",
        Phase::Climb => "discs: climb",
        Phase::Over => "game over",
    }
    .to_string()
}

/// What a person to move should do in the phase.
pub fn hint(game: &TriCore) -> String {
    match game.phase() {
        Phase::Cores => "Place a Core (red): click a lit inner point that is not next to a Core.",
        Phase::Rings => "Place a Ring (blue): click a lit point not next to a Core or another Ring.",
        Phase::Drive => {
            "Click a Ring: your disc goes on its point and the Ring must move — then click one of its \
             lit destinations along a line."
        }
        Phase::Climb => {
            "You may climb: click one of your lit discs, then a lit stack of the same height next to it. \
             Or End turn (Enter)."
        }
        Phase::Over => "",
    }
    .to_string()
}

/// The discs and Rings left once discs are played, and the End turn button in the climb step.
pub fn actions(ui: &mut egui::Ui, game: &TriCore, may_act: bool, intents: &mut Vec<MoveIntent<TriCoreMove>>) {
    if matches!(game.phase(), Phase::Drive | Phase::Climb | Phase::Over) {
        ui.label(
            egui::RichText::new(format!(
                "Discs left: Black {}, White {} · Rings {}",
                game.discs_left(0),
                game.discs_left(1),
                game.rings().count_ones()
            ))
            .weak(),
        );
    }
    if game.phase() == Phase::Climb && may_act {
        let end = ui.button("End turn").on_hover_text("No climb this turn (Enter)");
        if end.clicked() {
            intents.push(MoveIntent { mv: TriCoreMove::End, from_ai: false });
        }
    }
}

/// The rules window (`docs/rules/tricore.md`).
pub fn rules(ui: &mut egui::Ui) {
    let para = rules_paragraph;
    para(
        ui,
        "Board and pieces",
        "51 points in rows of 6, 7, 8, 9, 8, 7, 6. The 22 points on the edge are peripheral, the other 29 \
         inner. There are 3 red Cores and 3 blue Rings, which belong to nobody, and 24 discs each for \
         Black and White.",
    );
    para(ui, "1. Cores", "Black, White, Black each place a Core on an empty inner point that is not next to a Core.");
    para(
        ui,
        "2. Rings",
        "White, Black, White each place a Ring on an empty point not next to any Core nor to another Ring. \
         Edge points are allowed.",
    );
    para(
        ui,
        "3. Discs (Black first)",
        "A turn: rings that cannot move are removed first. Then put a disc of your colour on a Ring's point \
         and move that Ring in a straight line to any empty point; it may pass over discs and stacks but not \
         over Rings or Cores. Then you may climb: one of your active discs (not the one just placed) moves \
         onto an adjacent stack of exactly its own height, making it one higher (at most 3). The disc it \
         uncovers becomes active again.",
    );
    para(
        ui,
        "Active discs",
        "The top disc of a stack is its active disc; only active discs move and count. Stacks show their \
         height beside them.",
    );
    para(
        ui,
        "End and result",
        "The game ends when no Ring is left or all 48 discs are placed. A group is a set of connected active \
         discs of one colour; it reaches a Core when one of its discs is next to it. The player whose best \
         group reaches more Cores wins; on a tie the larger group wins; still tied, it is a draw.",
    );
    ui.label(egui::RichText::new("Lit points are where you may click; the end marks each best group in gold.").weak());
}

/// The game-over window: each player's best group, the Cores it reaches, and what decided.
pub fn game_over(ui: &mut egui::Ui, game: &TriCore, outcome: &Outcome) {
    let lattice = game.lattice();
    let groups = [game.best_group(0), game.best_group(1)];
    // Kept narrow: the window stands over the board's corner.
    egui::Grid::new("tricore-groups").num_columns(3).spacing([12.0, 2.0]).show(ui, |ui| {
        for (player, (discs, cores)) in groups.iter().enumerate() {
            ui.horizontal(|ui| {
                crate::app::ui::stone(ui, swatch(player), 6.0);
                ui.label(NAMES[player]);
            });
            let n = discs.count_ones();
            ui.label(format!("{n} disc{}", if n == 1 { "" } else { "s" }));
            let reached: Vec<String> = Lattice::iter(*cores).map(|p| lattice.name(p)).collect();
            ui.label(match reached.len() {
                0 => "no Core".to_string(),
                1 => format!("1 Core: {}", reached[0]),
                k => format!("{k} Cores: {}", reached.join(" ")),
            });
            ui.end_row();
        }
    });
    let [(b, bc), (w, wc)] = groups.map(|(d, c)| (d.count_ones(), c.count_ones()));
    let how = if outcome.winners().len() > 1 {
        "Same Cores, same size: a draw.".to_string()
    } else if bc == wc {
        format!("Same Cores: the larger group wins, {} to {}.", b.max(w), b.min(w))
    } else {
        "More Cores reached wins.".to_string()
    };
    ui.label(how);
    ui.label(egui::RichText::new("Best groups in gold.").weak());
}
