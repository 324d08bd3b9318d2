//! What the Play online window is drawn from ([`WindowIn`], [`Chosen`]) and what a press in it
//! asks ([`LobbyAction`]), with the rows' helpers its parts share ([`cell`], [`set_nth`]): below
//! the window and its parts, so each part imports it and none imports another.

use bevy_egui::egui;

use super::account::Account;
use super::link::LinkState;
use super::lobby::Lobby;
use super::pages::{Pages, RecordUse};
use crate::app::settings::{OnlineSeat, Settings};
use crate::app::ui::UiRects;
use crate::net::protocol::GameListing;

/// The game the start screen's form chose: what Create, Post and Play a bot start.
#[derive(Clone, Debug, PartialEq)]
pub struct Chosen {
    /// The game id (`trike`, `trigon-2`, …).
    pub game: String,
    /// Its options, as the form has them.
    pub options: serde_json::Value,
    /// Its seats' names, in seat order.
    pub seats: &'static [&'static str],
    /// The form's entry's name ("Trike", "Blokus Trigon Two-Player").
    pub name: &'static str,
}

/// What the Play online window is drawn from (its forms are changed in place).
pub struct WindowIn<'a> {
    /// The window's state: its tab, forms, the lobby as the server sent it, the seats' games.
    pub lobby: &'a mut Lobby,
    /// The account form and who is signed in.
    pub account: &'a mut Account,
    /// The leaderboard and the player's page.
    pub pages: &'a mut Pages,
    /// The seats held and the server last used.
    pub settings: &'a Settings,
    /// The connection's server (`ws://…/ws`) and state.
    pub link: (&'a str, &'a LinkState),
    /// The game the start screen's form chose.
    pub chosen: Chosen,
}

/// What was pressed in the Play online window, for its system to carry out.
#[derive(Clone, Debug, PartialEq)]
pub enum LobbyAction {
    /// Sign up with the name and password typed.
    SignUp,
    /// Sign in with the name and password typed.
    LogIn,
    /// Sign out.
    SignOut,
    /// Accept the open challenge of this game id.
    Accept(String),
    /// Withdraw the person's challenge of this game id.
    Withdraw(String),
    /// Post the chosen game as an open challenge.
    Post,
    /// Play the chosen game against this bot.
    PlayBot(String),
    /// Watch the game of this id.
    Watch(String),
    /// Create the chosen game, to invite a friend.
    Create,
    /// Join by the code or link typed.
    Join,
    /// Resume a seat held.
    Resume(OnlineSeat),
    /// Forget the seat held in the game of this id.
    Forget(String),
    /// Show the leaderboard of this game id.
    Leaderboard(String),
    /// Show the page of this player.
    Profile(String),
    /// Fetch a finished game whole, to review or keep.
    Fetch(Box<GameListing>, RecordUse),
}

/// The name `names[k]` for the `k`th row's widget (`"lobby accept 3"`), for [`UiRects`], whose
/// names are static; none past the table.
pub fn nth(names: &'static [&'static str], k: usize) -> Option<&'static str> {
    names.get(k).copied()
}

/// Where a row's widget was drawn, under its name, when the row has one ([`nth`]).
pub fn set_nth(rects: &mut UiRects, names: &'static [&'static str], k: usize, rect: egui::Rect) {
    if let Some(name) = nth(names, k) {
        rects.set(name, rect);
    }
}

/// A label at the left of `width` points, cut there (whole on hover), so rows keep their columns.
pub fn cell(ui: &mut egui::Ui, width: f32, text: impl Into<egui::WidgetText>) -> egui::Response {
    let size = egui::vec2(width, ui.spacing().interact_size.y);
    ui.allocate_ui_with_layout(size, egui::Layout::left_to_right(egui::Align::Center), |ui| {
        ui.set_min_size(size);
        ui.add(egui::Label::new(text).truncate())
    })
    .inner
}

/// The Play online window's width, in points.
pub const WIDTH: f32 = 660.0;
