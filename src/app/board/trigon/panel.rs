//! Trigon's words: the status line's, the side panel's hint and move list entries, the rules
//! window, the game-over table of scores, bonuses and ranks, and the start screen's entries, seats,
//! board row and summary (`docs/rules/trigon.md`).

use bevy_egui::egui;

use super::art::colour_swatch;
use crate::ai::Level;
use crate::app::games::Swatch;
use crate::app::ui::{rules_paragraph, stone};
use crate::rules::trigon::pieces::piece_name;
use crate::rules::trigon::{COLOURS, PIECES, Trigon, TrigonMove, TrigonOptions, Variant};
use crate::rules::{Game, Outcome, Player};

/// The status line on a move just played: the colour, not the seat (in the two-player variant a
/// seat plays two colours), and the piece placed or that the colour is out.
pub fn played_text(before: &Trigon, mover: &str, text: &str) -> String {
    let colour = before.colour_to_move().map_or(mover, |c| COLOURS[c]);
    match before.parse_move(text) {
        Ok(TrigonMove::PASS) => format!("{colour} cannot place a piece and is out"),
        // Its player left an online game of three or four (`docs/rules/trigon.md` §Play).
        Ok(TrigonMove::RETIRE) => format!("{colour} left the game: the others play on"),
        Ok(mv) if !mv.is_placement() => format!("{colour} played {text}"),
        Ok(mv) => {
            let piece = before.tables().placements[mv.0 as usize].piece as usize;
            format!("{colour} placed {} on {text}", piece_name(piece))
        }
        Err(_) => format!("{colour} played {text}"),
    }
}

/// The start screen's entries: one per variant, by its menu label.
pub fn menu_entries() -> Vec<(&'static str, TrigonOptions)> {
    Variant::ALL.into_iter().map(|variant| (variant.label(), TrigonOptions { variant })).collect()
}

/// The seats' names on the start screen: their colours, in the order they first move.
pub fn seat_names(options: &TrigonOptions) -> &'static [&'static str] {
    match options.variant {
        Variant::Four => &["Blue", "Yellow", "Red", "Green"],
        Variant::Two => &["Blue & Red", "Yellow & Green"],
        Variant::Three => &["Blue", "Yellow", "Red"],
    }
}

/// Two lines on the variant under the start screen's Start button.
pub fn summary(options: &TrigonOptions) -> &'static str {
    match options.variant {
        Variant::Two => {
            "Place your pieces corner to corner, never edge to edge with your own colour.\n\
             You play two colours; their triangles add up. Most triangles wins."
        }
        _ => {
            "Place your pieces corner to corner, never edge to edge with your own colour.\n\
             A colour that cannot place is out. Most triangles wins; all 22 pieces earn a bonus."
        }
    }
}

/// What AI level `level` is a match for, measured in Two-Player against Pentobi 31's levels (one
/// thread each, Pentobi's opening book, 40 games with the colours swapped each pair; level 4 by an
/// SPRT against level 3; README §The search, "the app's levels"): the start screen's hover text on
/// the level.
pub fn level_strength(level: Level) -> &'static str {
    match level.number() {
        1 => "Two-Player: about Pentobi level 4 (22 of 40 points against it).",
        2 => "Two-Player: about Pentobi level 6 (16.5 of 40 points against it).",
        3 => "Two-Player: about Pentobi level 7 (20 of 40 points against it).",
        4 => "Two-Player: above Pentobi level 7 (it beat level 3, about Pentobi level 7, on a sequential test).",
        _ => {
            "Two-Player: more simulations than level 4, which is above Pentobi level 7 \
              (not yet measured against Pentobi)."
        }
    }
}

/// The start screen's board row: the variant's board, which it fixes.
pub fn options_ui(ui: &mut egui::Ui, options: &mut TrigonOptions) {
    ui.label("Board");
    let cells = options.variant.cells();
    ui.label(egui::RichText::new(format!("{cells} triangles, {PIECES} pieces per colour")).weak());
}

/// Beside the heading: "4 players".
pub fn subtitle(game: &Trigon) -> String {
    format!("{} players", game.options().variant.seats())
}

/// The colours seat `player` plays (two in the two-player variant), in play order.
fn colours_of(game: &Trigon, player: Player) -> impl Iterator<Item = usize> + '_ {
    (0..game.options().variant.colours()).filter(move |&c| game.player_of(c) == player)
}

/// The swatches of the colours seat `player` plays.
pub fn seat_swatches(game: &Trigon, player: Player) -> Vec<Swatch> {
    colours_of(game, player).map(colour_swatch).collect()
}

/// Seat `player`'s score while the game runs: its colours' scores added up.
pub fn live_score(game: &Trigon, player: Player) -> i32 {
    colours_of(game, player).map(|c| game.colour_score(c)).sum()
}

/// What a person to move should do: cover a starting point with the colour's first piece, else
/// touch its pieces at a corner.
pub fn hint(game: &Trigon) -> String {
    let colour = game.colour_to_move().map_or("", |c| COLOURS[c]);
    if game.pieces_left(game.colour_to_move().unwrap_or(0)) == (1 << PIECES) - 1 {
        format!("{colour}: choose a piece on the left and cover a free starting point (the marked cells).")
    } else {
        format!("{colour}: choose a piece; it must touch a {colour} piece at a corner, never along an edge.")
    }
}

/// A move in the move list: the piece and its first cell ("I6 r15"; the hover shows every cell), or
/// the colour's pass.
pub fn list_text(before: &Trigon, mv: TrigonMove) -> String {
    if mv == TrigonMove::PASS {
        return "out (pass)".to_string();
    }
    if !mv.is_placement() {
        return "left the game".to_string();
    }
    let tables = before.tables();
    let placement = &tables.placements[mv.0 as usize];
    let first = tables.board.label(placement.cells[0] as usize);
    format!("{} {first}", piece_name(placement.piece as usize))
}

/// The rules window (`docs/rules/trigon.md`).
pub fn rules(ui: &mut egui::Ui) {
    let para = rules_paragraph;
    para(
        ui,
        "The board and the pieces",
        "A hexagon of 486 triangles (384 for three players). Each of the colours Blue, Yellow, Red and \
         Green has 22 pieces: every shape of 1 to 6 triangles. Pieces may be turned and flipped.",
    );
    para(
        ui,
        "Play",
        "The colours take turns in the order Blue, Yellow, Red, Green. A colour's first piece must cover \
         one of the six marked starting points not yet covered. Every later piece must touch a piece of \
         the same colour at a corner, and may never share an edge with one. Touching other colours is free.",
    );
    para(
        ui,
        "Passing and the end",
        "A colour that cannot place a piece is out for the rest of the game (the app passes for it). \
         The game ends when no colour can place.",
    );
    para(
        ui,
        "Score",
        "Each colour scores the triangles it placed, +15 if it placed all 22 pieces, +20 instead if the \
         last of them was the single triangle. Two players: Blue+Red against Yellow+Green, the scores \
         added up. Ties share the place.",
    );
    ui.label(
        egui::RichText::new("R or the mouse wheel turns the chosen piece, F flips it; A shows the attach points.")
            .weak(),
    );
}

/// The game-over table: per colour its triangles, bonus, score and rank (best first; by seat in the
/// two-player variant, whose seats' sums and ranks follow).
pub fn game_over(ui: &mut egui::Ui, game: &Trigon, outcome: &Outcome) {
    let two = game.options().variant == Variant::Two;
    let rank =
        |player: usize| 1 + (0..outcome.num_players).filter(|&q| outcome.scores[q] > outcome.scores[player]).count();
    // Narrow enough for the narrowest side panel.
    egui::Grid::new("scores").num_columns(5).spacing([10.0, 4.0]).striped(true).show(ui, |ui| {
        for head in ["colour", "placed", "bonus", "score", if two { "" } else { "rank" }] {
            ui.label(egui::RichText::new(head).weak());
        }
        ui.end_row();
        let mut order: Vec<usize> = (0..game.options().variant.colours()).collect();
        order.sort_by_key(|&c| (std::cmp::Reverse(game.colour_score(c)), c));
        if two {
            order = vec![0, 2, 1, 3];
        }
        for c in order {
            let score = game.colour_score(c);
            let bonus = if game.pieces_left(c) == 0 { score - placed(game, c) } else { 0 };
            ui.horizontal(|ui| {
                stone(ui, colour_swatch(c), 6.0);
                ui.label(COLOURS[c]);
            });
            ui.label(format!("{}", placed(game, c)));
            ui.label(if bonus > 0 { format!("+{bonus}") } else { "–".to_string() });
            ui.label(egui::RichText::new(format!("{score}")).strong());
            ui.label(if two { String::new() } else { ordinal(rank(c)) });
            ui.end_row();
        }
    });
    if two {
        ui.add_space(4.0);
        for p in 0..2 {
            let line = format!("{}: {} {}", game.player_name(Player(p as u8)), outcome.scores[p], ordinal(rank(p)));
            ui.label(egui::RichText::new(line).strong());
        }
    }
    ui.add(
        egui::Label::new(
            egui::RichText::new("Triangles placed, +15 for all 22 pieces, +20 if the last was the single triangle.")
                .weak(),
        )
        .wrap(),
    );
}

/// Triangles colour `c` placed.
fn placed(game: &Trigon, c: usize) -> i32 {
    (0..game.tables().board.cells()).filter(|&cell| game.colour_at(cell) == Some(c)).count() as i32
}

/// "1st", "2nd", "3rd", "4th".
fn ordinal(rank: usize) -> String {
    match rank {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}
