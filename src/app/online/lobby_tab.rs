//! The Play online window's lobby ([`lobby_tab`], `docs/design.md` §Lobby): the open challenges,
//! each with Accept (or Withdraw, the person's own), "Post a challenge" of the start screen's game
//! (the seat, the clock, Rated when signed in), "Play a bot" (one button per bot of the server),
//! and the live games with Watch.

use bevy_egui::egui;

use super::lobby::CLOCKS;
use super::window_in::{LobbyAction, WindowIn, cell, set_nth};
use super::words::{game_words, players_words, time_control_words};
use crate::app::ui::{RED, UiRects};
use crate::net::protocol::GameListing;

/// The rows' Accept (or Withdraw) buttons, by row.
const ACCEPT: &[&str] =
    &["lobby accept 0", "lobby accept 1", "lobby accept 2", "lobby accept 3", "lobby accept 4", "lobby accept 5"];
/// The live games' Watch buttons, by row.
const WATCH: &[&str] =
    &["lobby watch 0", "lobby watch 1", "lobby watch 2", "lobby watch 3", "lobby watch 4", "lobby watch 5"];
/// The bots' buttons, in the server's order.
const BOTS: &[&str] = &["lobby bot 0", "lobby bot 1", "lobby bot 2", "lobby bot 3", "lobby bot 4", "lobby bot 5"];

/// The lobby's part of the window.
pub fn lobby_tab(ui: &mut egui::Ui, input: &mut WindowIn, rects: &mut UiRects, actions: &mut Vec<LobbyAction>) {
    let Some(view) = input.lobby.view.clone() else {
        ui.label(egui::RichText::new("Waiting for the server's lobby…").weak());
        post(ui, input, rects, actions);
        return;
    };
    let server = input.link.0;
    let mine = |id: &str| input.settings.online.games.iter().any(|s| s.server == server && s.game_id == id);
    let signed_in = input.account.signed_in.is_some();
    let busy = input.lobby.waiting();
    // The lists share the room their headings and the forms below them leave (as tall as last
    // frame measured them), the challenges a little more.
    let row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
    let heading = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
    let forms = ui.id().with("lobby forms");
    let below = ui.data(|d| d.get_temp::<f32>(forms)).unwrap_or(3.0 * row + 12.0);
    let room = (ui.available_height() - below - 2.0 * heading - 2.0 * ui.spacing().item_spacing.y).max(4.0 * row);
    let (challenges_height, live_height) = (room * 0.55, room * 0.45);
    ui.label(egui::RichText::new(format!("Open challenges ({})", view.challenges.len())).strong());
    egui::ScrollArea::vertical().id_salt("challenges").max_height(challenges_height).show(ui, |ui| {
        if view.challenges.is_empty() {
            ui.label(egui::RichText::new("None now: post one below, or play a bot").weak());
        }
        for (k, listing) in view.challenges.iter().enumerate() {
            ui.horizontal(|ui| {
                listing_cells(ui, listing);
                let (label, action, enabled, why) = if mine(&listing.game_id) {
                    ("Withdraw", LobbyAction::Withdraw(listing.game_id.clone()), true, "Take your challenge back")
                } else {
                    let may = !busy && (signed_in || !listing.rated);
                    let why = if listing.rated && !signed_in {
                        "A rated game: sign in to accept it"
                    } else {
                        "Take the free seat: the game starts"
                    };
                    ("Accept", LobbyAction::Accept(listing.game_id.clone()), may, why)
                };
                let button = ui.add_enabled(enabled, egui::Button::new(label)).on_hover_text(why);
                set_nth(rects, ACCEPT, k, button.rect);
                if button.clicked() {
                    actions.push(action);
                }
            });
        }
    });
    ui.label(egui::RichText::new(format!("Live games ({})", view.live.len())).strong());
    egui::ScrollArea::vertical().id_salt("live").max_height(live_height).show(ui, |ui| {
        if view.live.is_empty() {
            ui.label(egui::RichText::new("No game is being played now").weak());
        }
        for (k, listing) in view.live.iter().enumerate() {
            ui.horizontal(|ui| {
                listing_cells(ui, listing);
                let button = ui.button("Watch").on_hover_text("Follow the game's moves without a seat");
                set_nth(rects, WATCH, k, button.rect);
                if button.clicked() {
                    actions.push(LobbyAction::Watch(listing.game_id.clone()));
                }
            });
        }
    });
    let top = ui.cursor().top();
    ui.separator();
    post(ui, input, rects, actions);
    bots(ui, input, &view.bots, rects, actions);
    if let Some(said) = &input.lobby.said {
        ui.colored_label(RED, said);
    }
    let height = ui.cursor().top() - top;
    ui.data_mut(|d| d.insert_temp(forms, height));
}

/// A listed game's columns: the game, the clock, rated or casual, the players with ratings.
pub fn listing_cells(ui: &mut egui::Ui, listing: &GameListing) {
    let game = game_words(&listing.game, &listing.options);
    cell(ui, 200.0, game.as_str()).on_hover_text(&game);
    cell(ui, 66.0, time_control_words(listing.clock.as_ref(), listing.days_per_move)).on_hover_text(
        "Fischer: minutes + seconds a move; or days a move, a correspondence game with deadlines; or no clock",
    );
    cell(ui, 46.0, if listing.rated { "rated" } else { "casual" });
    let players = players_words(listing);
    cell(ui, 206.0, players.as_str()).on_hover_text(&players);
}

/// "Post a challenge" of the start screen's game: the seat, the clock, Rated.
fn post(ui: &mut egui::Ui, input: &mut WindowIn, rects: &mut UiRects, actions: &mut Vec<LobbyAction>) {
    let lobby = &mut *input.lobby;
    let signed_in = input.account.signed_in.is_some();
    if !signed_in {
        lobby.rated = false;
    }
    // Wrapped: a long game name ("Blokus Trigon Three-Player") must not push the window wider.
    ui.horizontal_wrapped(|ui| {
        let seats = input.chosen.seats;
        lobby.seat = lobby.seat.min(seats.len().saturating_sub(1) as u8);
        ui.label(egui::RichText::new(format!("{}:", input.chosen.name)).strong())
            .on_hover_text("The game and options chosen on the start screen: post it, or play it against a bot");
        ui.label("you play");
        egui::ComboBox::from_id_salt("lobby seat")
            .width(90.0)
            .selected_text(seats.get(usize::from(lobby.seat)).copied().unwrap_or("?"))
            .show_ui(ui, |ui| {
                for (k, name) in seats.iter().enumerate() {
                    ui.selectable_value(&mut lobby.seat, k as u8, *name);
                }
            });
        let chosen = CLOCKS.get(lobby.post_clock).map_or("?", |c| c.0);
        egui::ComboBox::from_id_salt("lobby clock").width(150.0).selected_text(chosen).show_ui(ui, |ui| {
            for (k, (name, _)) in CLOCKS.iter().enumerate() {
                ui.selectable_value(&mut lobby.post_clock, k, *name);
            }
        });
        let rated = ui
            .add_enabled(signed_in, egui::Checkbox::new(&mut lobby.rated, "Rated"))
            .on_hover_text("Rated games change the players' ratings")
            .on_disabled_hover_text("Sign in to play rated games");
        rects.set("lobby rated", rated.rect);
        let button = ui
            .add_enabled(!lobby.waiting() && lobby.posted.is_none(), egui::Button::new("Post"))
            .on_hover_text("List this game in the lobby for anyone to accept");
        rects.set("lobby post", button.rect);
        if button.clicked() {
            actions.push(LobbyAction::Post);
        }
    });
    if lobby.posted.is_some() {
        ui.label(
            egui::RichText::new("Your challenge waits in the lobby: its game opens when someone accepts it").weak(),
        );
    }
}

/// "Play a bot": one button per bot of the server, for the start screen's game.
fn bots(ui: &mut egui::Ui, input: &WindowIn, bots: &[String], rects: &mut UiRects, actions: &mut Vec<LobbyAction>) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Play a bot:");
        if bots.is_empty() {
            ui.label(egui::RichText::new("this server runs none").weak());
        }
        for (k, bot) in bots.iter().enumerate() {
            let button = ui
                .add_enabled(!input.lobby.waiting(), egui::Button::new(bot.as_str()))
                .on_hover_text(format!("A game of {} against {bot}, at once", input.chosen.name));
            set_nth(rects, BOTS, k, button.rect);
            if button.clicked() {
                actions.push(LobbyAction::PlayBot(bot.clone()));
            }
        }
    });
}
