//! The Play online window's pages of players: a game's leaderboard ([`leaderboard_tab`]: rank,
//! name, rating with `?` while provisional, games; a name opens the player's page) and a player's
//! page ([`player_tab`]: ratings per game, games newest first with their result, each finished one
//! to review or to keep as a file, each running one to watch).

use bevy_egui::egui;

use super::lobby::LobbyTab;
use super::pages::RecordUse;
use super::window_in::{LobbyAction, WindowIn, cell, set_nth};
use super::words::{game_name, game_words, now_ms, page_turn_words, players_words};
use crate::app::files::Format;
use crate::app::save_format::{date_of, utc_stamp};
use crate::app::ui::{RED, UiRects};
use crate::net::protocol::GameListing;

/// The leaderboard's names, by row.
const NAMES: &[&str] = &[
    "leaderboard name 0",
    "leaderboard name 1",
    "leaderboard name 2",
    "leaderboard name 3",
    "leaderboard name 4",
    "leaderboard name 5",
];
/// A player's games' Review (or Watch) buttons, by row.
const REVIEW: &[&str] =
    &["profile review 0", "profile review 1", "profile review 2", "profile review 3", "profile review 4"];
/// A player's games' Save buttons, by row.
const SAVE: &[&str] = &["profile save 0", "profile save 1", "profile save 2", "profile save 3", "profile save 4"];

/// The leaderboard of one game, its game chosen in a list; asked for when shown.
pub fn leaderboard_tab(ui: &mut egui::Ui, input: &mut WindowIn, rects: &mut UiRects, actions: &mut Vec<LobbyAction>) {
    let pages = &mut *input.pages;
    if pages.game.is_empty() {
        pages.game.clone_from(&input.chosen.game);
    }
    let mut game = pages.game.clone();
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new("Leaderboard of").strong());
        egui::ComboBox::from_id_salt("leaderboard game").width(220.0).selected_text(game_name(&game)).show_ui(
            ui,
            |ui| {
                for id in crate::rules::game_ids() {
                    ui.selectable_value(&mut game, id.to_string(), game_name(id));
                }
            },
        );
    });
    let shown = pages.leaderboard.as_ref().filter(|(g, _)| *g == game);
    if game != pages.game || (shown.is_none() && !pages.waiting() && pages.said.is_none()) {
        actions.push(LobbyAction::Leaderboard(game.clone()));
    }
    if let Some(said) = &pages.said {
        ui.colored_label(RED, &said.text);
    }
    let Some((_, rows)) = shown else {
        ui.label(egui::RichText::new("Asking the server…").weak());
        return;
    };
    if rows.is_empty() {
        ui.label(egui::RichText::new("Nobody has played this game rated yet").weak());
        return;
    }
    ui.horizontal(|ui| {
        for (width, title) in [(40.0, "#"), (220.0, "Player"), (80.0, "Rating"), (60.0, "Games")] {
            cell(ui, width, egui::RichText::new(title).weak());
        }
    });
    egui::ScrollArea::vertical().id_salt("leaderboard").show(ui, |ui| {
        for (k, row) in rows.iter().enumerate() {
            ui.horizontal(|ui| {
                cell(ui, 40.0, format!("{}", k + 1));
                let name = if row.bot { format!("{} (bot)", row.name) } else { row.name.clone() };
                let size = egui::vec2(220.0, ui.spacing().interact_size.y);
                let link = ui
                    .allocate_ui_with_layout(size, egui::Layout::left_to_right(egui::Align::Center), |ui| {
                        ui.set_min_size(size);
                        ui.add(egui::Link::new(name))
                    })
                    .inner
                    .on_hover_text("Open the player's page");
                set_nth(rects, NAMES, k, link.rect);
                if link.clicked() {
                    input.lobby.tab = LobbyTab::Player;
                    actions.push(LobbyAction::Profile(row.name.clone()));
                }
                cell(ui, 80.0, egui::RichText::new(row.shown()).strong())
                    .on_hover_text(format!("± {} (a ? while it is provisional)", row.deviation));
                cell(ui, 60.0, row.games.to_string());
            });
        }
    });
}

/// The player's page shown, and a field to look up another.
pub fn player_tab(ui: &mut egui::Ui, input: &mut WindowIn, rects: &mut UiRects, actions: &mut Vec<LobbyAction>) {
    let pages = &mut *input.pages;
    ui.horizontal(|ui| {
        let field =
            ui.add(egui::TextEdit::singleline(&mut pages.typed).hint_text("a player's name").desired_width(180.0));
        rects.set("profile name", field.rect);
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let show = ui.add_enabled(!pages.typed.trim().is_empty(), egui::Button::new("Show"));
        if show.clicked() || (enter && !pages.typed.trim().is_empty()) {
            actions.push(LobbyAction::Profile(pages.typed.trim().to_string()));
        }
        // What the server said, or where a game was kept, in this row: the rows below never
        // move under the pointer.
        if pages.waiting() {
            ui.label(egui::RichText::new("asking the server…").weak());
        } else if let Some(said) = &pages.said {
            let text = egui::RichText::new(&said.text);
            ui.add(egui::Label::new(if said.error { text.color(RED) } else { text.weak() }).truncate())
                .on_hover_text(&said.text);
        }
    });
    let Some(profile) = &pages.profile else {
        ui.label(egui::RichText::new("Press a name in the leaderboard, or type one").weak());
        return;
    };
    ui.separator();
    ui.horizontal(|ui| {
        let title = ui.label(egui::RichText::new(&profile.name).heading().strong());
        rects.set("profile", title.rect);
        let since = date_of(&utc_stamp(profile.created_ms / 1000));
        let what = if profile.bot { "a bot of the server" } else { "a player" };
        ui.label(egui::RichText::new(format!("{what}, since {}", &since[..10])).weak());
    });
    if profile.ratings.is_empty() {
        ui.label(egui::RichText::new("No rated game yet").weak());
    }
    ui.horizontal_wrapped(|ui| {
        for rating in &profile.ratings {
            let games = if rating.games == 1 { "1 game".to_string() } else { format!("{} games", rating.games) };
            ui.label(format!("{} {}", game_name(&rating.game), rating.shown()));
            ui.label(egui::RichText::new(format!("({games})  ")).weak());
        }
    });
    ui.label(egui::RichText::new(format!("Games ({}), newest first", profile.games.len())).strong());
    egui::ScrollArea::vertical().id_salt("profile games").show(ui, |ui| {
        for (k, listing) in profile.games.iter().enumerate() {
            ui.horizontal(|ui| game_row(ui, listing, &profile.name, (k, rects), actions));
        }
    });
}

/// One of a player's games: when, what, who, the result for the player, and its buttons.
fn game_row(
    ui: &mut egui::Ui,
    listing: &GameListing,
    player: &str,
    (k, rects): (usize, &mut UiRects),
    actions: &mut Vec<LobbyAction>,
) {
    let date = date_of(&utc_stamp(listing.created_ms / 1000));
    cell(ui, 84.0, egui::RichText::new(&date[..10]).weak()).on_hover_text(format!("{date} UTC"));
    let game = game_words(&listing.game, &listing.options);
    cell(ui, 120.0, game.as_str()).on_hover_text(&game);
    let players = players_words(listing);
    cell(ui, 150.0, players.as_str()).on_hover_text(&players);
    let result = page_turn_words(listing, player, now_ms());
    cell(ui, 52.0, egui::RichText::new(&result).strong()).on_hover_text(&result);
    let running = listing.winners.is_empty() && !listing.aborted;
    let (label, why) = if running {
        ("Watch", "Follow the game's moves without a seat")
    } else {
        ("Review", "Open the game on the board, to go through its moves")
    };
    let button = ui.small_button(label).on_hover_text(why);
    set_nth(rects, REVIEW, k, button.rect);
    if button.clicked() {
        actions.push(if running {
            LobbyAction::Watch(listing.game_id.clone())
        } else {
            LobbyAction::Fetch(Box::new(listing.clone()), RecordUse::Review)
        });
    }
    if running {
        return;
    }
    #[cfg(target_arch = "wasm32")]
    let (json, sgf) = ("Download", ".blksgf");
    #[cfg(not(target_arch = "wasm32"))]
    let (json, sgf) = ("Save", ".blksgf");
    let save = ui.small_button(json).on_hover_text("Keep the game as a .json file");
    set_nth(rects, SAVE, k, save.rect);
    if save.clicked() {
        actions.push(LobbyAction::Fetch(Box::new(listing.clone()), RecordUse::Save(Format::Json)));
    }
    if listing.game.starts_with("trigon")
        && ui.small_button(sgf).on_hover_text("Keep the game in Pentobi's format").clicked()
    {
        actions.push(LobbyAction::Fetch(Box::new(listing.clone()), RecordUse::Save(Format::Sgf)));
    }
}

/// A listed game's result for `player` ([`words::result_for`](super::words::result_for)).
pub use super::words::result_for;
