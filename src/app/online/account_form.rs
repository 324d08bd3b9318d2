//! The Play online window's account row ([`account_row`]): the name and password fields with Sign
//! in and Sign up, or, once signed in, the account's name with My page and Sign out; and what the
//! server said of the last attempt.

use bevy_egui::egui;

use super::lobby::LobbyTab;
use super::window_in::{LobbyAction, WindowIn};
use crate::app::ui::{RED, UiRects};

/// The account row, under the server's.
pub fn account_row(ui: &mut egui::Ui, input: &mut WindowIn, rects: &mut UiRects, actions: &mut Vec<LobbyAction>) {
    let account = &mut *input.account;
    if let Some(name) = account.signed_in.clone() {
        ui.horizontal(|ui| {
            ui.label("Signed in as");
            ui.label(egui::RichText::new(&name).strong());
            let page = ui.button("My page").on_hover_text("Your ratings and games");
            rects.set("online my page", page.rect);
            if page.clicked() {
                input.lobby.tab = LobbyTab::Player;
                actions.push(LobbyAction::Profile(name.clone()));
            }
            let out = ui.button("Sign out").on_hover_text("End this session on this device and everywhere");
            rects.set("online sign out", out.rect);
            if out.clicked() {
                actions.push(LobbyAction::SignOut);
            }
        });
    } else {
        ui.horizontal(|ui| {
            let name = ui
                .add(egui::TextEdit::singleline(&mut account.name).hint_text("name").desired_width(140.0))
                .on_hover_text("Optional: an account keeps a rating and a page of your games; links work without one");
            rects.set("online name", name.rect);
            let password = ui.add(
                egui::TextEdit::singleline(&mut account.password)
                    .password(true)
                    .hint_text("password")
                    .desired_width(140.0),
            );
            rects.set("online password", password.rect);
            let typed = !account.name.trim().is_empty() && !account.password.is_empty() && !account.waiting();
            let enter = password.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let sign_in = ui.add_enabled(typed, egui::Button::new("Sign in"));
            rects.set("online sign in", sign_in.rect);
            if sign_in.clicked() || (typed && enter) {
                actions.push(LobbyAction::LogIn);
            }
            let sign_up = ui.add_enabled(typed, egui::Button::new("Sign up")).on_hover_text(
                "Make an account with this name and password (3–20 letters, digits, _ or -; 8 characters or more)",
            );
            rects.set("online sign up", sign_up.rect);
            if sign_up.clicked() {
                actions.push(LobbyAction::SignUp);
            }
            if account.waiting() {
                ui.label(egui::RichText::new("signing in…").weak());
            }
        });
        if account.signed_in.is_none() && !account.waiting() && account.said.is_none() {
            ui.label(
                egui::RichText::new(
                    "Optional: an account keeps a rating and a page of your games; links work without one.",
                )
                .small()
                .weak(),
            );
        }
    }
    if let Some(said) = &account.said {
        let text = egui::RichText::new(&said.text);
        ui.add(egui::Label::new(if said.error { text.color(RED) } else { text.weak() }).wrap());
    }
}
