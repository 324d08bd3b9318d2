//! The side panel's seats and verdict: one row per seat (its colours, its name, who plays it —
//! the record's name for its player when it gave one — and its score or "to move"), and the result
//! once the game is over.

use bevy_egui::egui;

use super::windows::PanelWindows;
use crate::app::games::AppGame;
use crate::app::model::Model;
use crate::app::online::OnlineGame;
use crate::app::online::words::change_words;
use crate::app::ui::{short, stone, title};
use crate::rules::{Outcome, Player};

/// One row per seat: its colours, name, who plays it (in an online game, the players' accounts
/// and ratings, [`OnlineGame::player_label`]), and its score or "to move".
pub(super) fn players<G: AppGame>(ui: &mut egui::Ui, model: &Model<G>, online: Option<&OnlineGame>) {
    let game = model.game();
    let outcome = game.outcome();
    // A game ended off the board (a resignation, a flag): the loser's row says how.
    let ending = model.ending().filter(|_| outcome.is_none());
    // What the numbers on the right count.
    if game.live_score(Player(0)).is_some() {
        let row = egui::vec2(ui.available_width(), ui.text_style_height(&egui::TextStyle::Small));
        ui.allocate_ui_with_layout(row, egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.label(egui::RichText::new(G::INFO.score_caption).small().weak());
        });
    }
    for seat in 0..game.num_players() {
        let player = Player(seat as u8);
        let to_move = model.to_move() == Some(player);
        // The score and "to move" at the right first; the colours and names take the room left
        // (cut there, whole on hover).
        let row = egui::vec2(ui.available_width(), ui.spacing().interact_size.y);
        ui.allocate_ui_with_layout(row, egui::Layout::right_to_left(egui::Align::Center), |ui| {
            // Off the panel's edge, which a glyph's overhang crossed ("to move" cut by a point).
            ui.add_space(2.0);
            if let Some(ending) = ending {
                let lost = usize::from(ending.seat) == seat;
                let how = if ending.flagged { "out of time" } else { "resigned" };
                // An aborted game has no winner: the seat that left says how, the others nothing.
                let text = egui::RichText::new(match (lost, ending.aborted) {
                    (true, _) => how,
                    (false, true) => "",
                    (false, false) => "wins",
                })
                .size(17.0);
                ui.label(if lost { text } else { text.strong().color(GOLD) });
            } else if let Some(outcome) = &outcome {
                let won = outcome.winners().contains(&player);
                // Games that keep a running score show the number alone, as while playing.
                let score = outcome.scores[seat];
                let text = if !G::INFO.scored {
                    egui::RichText::new(if won { "wins" } else { "" })
                } else if game.live_score(player).is_some() {
                    egui::RichText::new(score.to_string())
                } else {
                    egui::RichText::new(format!("{score} point{}", if score == 1 { "" } else { "s" }))
                }
                .size(17.0);
                ui.label(if won { text.strong().color(GOLD) } else { text });
            } else {
                if let Some(score) = game.live_score(player) {
                    ui.label(egui::RichText::new(score.to_string()).size(17.0));
                }
                if to_move {
                    ui.label(egui::RichText::new("to move").color(egui::Color32::from_rgb(0x7f, 0xc0, 0x6a)));
                }
            }
            // A gap before the names, which otherwise run into "to move" ("You (bob)to move").
            ui.add_space(8.0);
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                for colour in game.seat_swatches(player) {
                    stone(ui, colour, 9.0);
                }
                let name = egui::RichText::new(game.player_name(player)).size(17.0);
                ui.add(egui::Label::new(if to_move { name.strong() } else { name }).truncate());
                // The record's name for the player where it gave one ("Alice", "Pentobi"): a
                // person plays the seat under it.
                let name = online.map_or_else(|| model.seat_name(seat), |o| o.player_label(seat as u8));
                let who = ui.add(egui::Label::new(egui::RichText::new(short(&name, NAME_CHARS)).weak()).truncate());
                if online.is_some() {
                    who.on_hover_text(format!("{name}: who plays this seat on the server"));
                } else if model.names().get(seat).is_some_and(Option::is_some) {
                    who.on_hover_text(format!("{name}: the player the record names; a person plays this seat"));
                }
            });
        });
    }
}

/// The most characters of a seat's name a player row shows (the score and "to move" keep their
/// room at its right); a longer name ends in "…" and shows whole on hover.
const NAME_CHARS: usize = 16;

const GOLD: egui::Color32 = egui::Color32::from_rgb(0xf2, 0xc1, 0x4e);

/// The result once the game is over, in the panel (it covers neither the board nor the move list),
/// foldable; in an online game the winners are named by their accounts, and a rated game's rating
/// changes follow, one line a seat.
pub(super) fn result<G: AppGame>(
    ui: &mut egui::Ui,
    model: &Model<G>,
    outcome: &Outcome,
    online: Option<&OnlineGame>,
    windows: &mut PanelWindows,
) {
    let game = model.game();
    let winners = outcome.winners();
    let who = |w: Player| online.map_or_else(|| model.seat_name(w.index()), |o| o.who(w.0));
    let names: Vec<String> = winners.iter().map(|w| format!("{} ({})", game.player_name(*w), who(*w))).collect();
    let ratings: Vec<String> = online.map_or_else(Vec::new, |o| o.rated.iter().map(change_words).collect());
    let aborted = model.ending().is_some_and(|e| e.aborted);
    let winners = if aborted { Vec::new() } else { winners };
    let verdict = if aborted {
        "Aborted: unrated".to_string()
    } else if winners.len() == 1 {
        format!("{} wins", names[0])
    } else if winners.len() == game.num_players() {
        "A draw".to_string()
    } else {
        format!("{} share first place", names.join(" and "))
    };
    // On a short window (1024×640) the details start folded, so the graph and the move list
    // below keep their room.
    let short = ui.available_height() < 380.0;
    let revision = Some(model.revision());
    let open = if short { windows.unfolded == revision } else { windows.folded != revision };
    // The frame's margin and stroke inside the panel's width: what it holds wraps at its edge.
    let inner = ui.available_width() - 14.0;
    egui::Frame::group(ui.style()).inner_margin(6).fill(ui.visuals().faint_bg_color).show(ui, |ui| {
        ui.set_width(inner);
        ui.horizontal(|ui| {
            ui.label(title("Game over").color(GOLD));
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                // A game ended off the board has no details to fold.
                let fold = if open { "Hide" } else { "Show" };
                if model.ending().is_none() && ui.small_button(fold).clicked() {
                    if short {
                        windows.unfolded = if open { None } else { revision };
                    } else {
                        windows.folded = if open { revision } else { None };
                    }
                }
            });
        });
        ui.horizontal(|ui| {
            for winner in &winners {
                for colour in game.seat_swatches(*winner) {
                    stone(ui, colour, 9.0);
                }
            }
            ui.add(egui::Label::new(egui::RichText::new(verdict).size(18.0).strong()).wrap());
        });
        match model.ending().filter(|_| model.game().outcome().is_none()) {
            // Ended off the board: how ("White resigned"), and no score of the rules' to detail.
            Some(ending) => {
                ui.label(format!("{} {}", game.player_name(Player(ending.seat)), ending.how()));
            }
            None if open => model.game().game_over(ui, outcome),
            None => {}
        }
        for line in &ratings {
            ui.label(egui::RichText::new(line).strong()).on_hover_text("The rating before and after this game");
        }
    });
}
