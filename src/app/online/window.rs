//! The Play online window's drawing ([`online_window`]): the server, the account, and one of its
//! parts at a time ([`LobbyTab`]: the lobby, Create and invite, Your games, the leaderboard, a
//! player's page), drawn from what [`WindowIn`] gives and returning what was pressed as
//! [`LobbyAction`]s (`window_in`), so the window's system carries them out and the tests draw it
//! at any window size.

use bevy_egui::egui;

use super::account_form::account_row;
use super::invite_tab::{invite_tab, your_games};
use super::link::{LinkState, default_server};
use super::lobby::LobbyTab;
use super::lobby_tab::lobby_tab;
use super::players_tab::{leaderboard_tab, player_tab};
pub use super::window_in::{Chosen, LobbyAction, WIDTH, WindowIn};
use super::words::link_words;
use crate::app::clipboard::paste_menu;
use crate::app::ui::{RED, UiRects};

/// Draws the Play online window into `ctx`, unless it is closed; returns what was pressed.
/// Named widgets' rectangles go to `rects` (`online server`, `online name`, `online password`,
/// `online sign in`, `online sign up`, `online sign out`, the tabs `lobby tab …`, and each part's;
/// the window itself, `online window`).
pub fn online_window(ctx: &egui::Context, input: &mut WindowIn, rects: &mut UiRects) -> Vec<LobbyAction> {
    let mut actions = Vec::new();
    if !input.lobby.open {
        return actions;
    }
    let mut open = true;
    // Its content's height: the screen's less the title bar and margins (a 1024×640 screen gives
    // some 570 points), at most 640.
    let height = (ctx.content_rect().height() - 64.0).clamp(260.0, 640.0);
    let window = egui::Window::new("Play online")
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .fixed_size([WIDTH, height])
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            // The whole height, so the tabs' lists can take what their forms leave.
            ui.set_min_height(height);
            server_row(ui, input, rects);
            account_row(ui, input, rects, &mut actions);
            ui.separator();
            tabs(ui, input, rects);
            ui.separator();
            match input.lobby.tab {
                LobbyTab::Lobby => lobby_tab(ui, input, rects, &mut actions),
                LobbyTab::Invite => invite_tab(ui, input, rects, &mut actions),
                LobbyTab::Games => your_games(ui, input, rects, &mut actions),
                LobbyTab::Leaderboard => leaderboard_tab(ui, input, rects, &mut actions),
                LobbyTab::Player => player_tab(ui, input, rects, &mut actions),
            }
        });
    if let Some(window) = window {
        rects.set("online window", window.response.rect);
    }
    if !open {
        input.lobby.open = false;
    }
    actions
}

/// The server's address, and whether it answers.
fn server_row(ui: &mut egui::Ui, input: &mut WindowIn, rects: &mut UiRects) {
    let url = input.lobby.server_url(input.settings);
    ui.horizontal(|ui| {
        ui.label("Server");
        let hint = if input.settings.online.server.is_empty() {
            default_server()
        } else {
            input.settings.online.server.clone()
        };
        let field = ui.add(egui::TextEdit::singleline(&mut input.lobby.server).hint_text(hint).desired_width(280.0));
        rects.set("online server", field.rect);
        paste_menu(&field, rects);
        let online = input.lobby.view.as_ref().map(|v| v.online).filter(|_| *input.link.1 == LinkState::Open);
        let words = match online {
            Some(n) => format!("{} · {n} online", link_words(input.link.1)),
            None => link_words(input.link.1).to_string(),
        };
        ui.label(egui::RichText::new(words).weak());
    });
    if let Err(e) = &url {
        ui.colored_label(RED, e);
    }
}

/// The window's parts, one button each.
fn tabs(ui: &mut egui::Ui, input: &mut WindowIn, rects: &mut UiRects) {
    let server = input.link.0;
    let held = input.settings.online.games.iter().filter(|s| s.server == server).count();
    let games = format!("Your games ({held})");
    let parts: [(LobbyTab, &str, &'static str); 5] = [
        (LobbyTab::Lobby, "Lobby", "lobby tab lobby"),
        (LobbyTab::Invite, "Invite a friend", "lobby tab invite"),
        (LobbyTab::Games, games.as_str(), "lobby tab games"),
        (LobbyTab::Leaderboard, "Leaderboard", "leaderboard"),
        (LobbyTab::Player, "Player", "lobby tab player"),
    ];
    ui.horizontal(|ui| {
        for (tab, label, name) in parts {
            let button = ui.selectable_label(input.lobby.tab == tab, label);
            rects.set(name, button.rect);
            if button.clicked() {
                input.lobby.tab = tab;
            }
        }
    });
}
