//! The side panel's online box, in an online game: the connection (connected, reconnecting,
//! the opponent away), the invitation while a seat is free, the clocks of a live game, and
//! Resign or Rematch — or, for a spectator, "Watching".

use bevy_egui::egui;

use super::action::PanelAction;
use super::windows::PanelWindows;
use crate::app::online::invitation::invitation;
use crate::app::online::link::LinkState;
use crate::app::online::words::link_words;
use crate::app::online::{OnlineGame, OnlineOrder};
use crate::app::ui::{GREEN, RED, UiRects};

/// Draws the online box of `game`; `running` is the seat to move on the board (its clock runs),
/// `over` whether the board's game is over, `colours` the colour each seat plays on the board
/// now (after Trike's pie rule, the swapped ones), which name the clocks. Resign (Cancel before
/// the game has started, [`OnlineGame::started`]) asks first ([`PanelWindows::resign`]).
pub(super) fn online_box<M>(
    ui: &mut egui::Ui,
    game: &OnlineGame,
    (running, over): (Option<u8>, bool),
    colours: &[&str],
    (windows, rects): (&mut PanelWindows, &mut UiRects),
    actions: &mut Vec<PanelAction<M>>,
) {
    let others: Vec<usize> = (0..game.online.len()).filter(|&s| !game.mine(s as u8)).collect();
    let free = !game.full();
    // Short enough to stay whole beside Resign and Rematch ("opponent here" was cut to
    // "opponent …" in a 1280-pixel window); who is away the hover says.
    let away_seats: Vec<String> =
        others.iter().filter(|&&s| !game.online[s]).map(|&s| game.seat_label(s as u8)).collect();
    let away = away_seats.len();
    let (words, colour) = match &game.connection {
        LinkState::Open if free || game.watching() => ("connected".to_string(), ui.visuals().text_color()),
        LinkState::Open if away == 0 => ("all here".to_string(), GREEN),
        LinkState::Open if others.len() == 1 => ("away".to_string(), ui.visuals().weak_text_color()),
        LinkState::Open => (format!("{away} away"), ui.visuals().weak_text_color()),
        other => (link_words(other).to_string(), RED),
    };
    // Two rows while the game runs (a third and fourth only while a seat waits): the clocks
    // with Resign and Rematch at the right (the clocks on a row of their own where both do not
    // fit), then the connection and whether hints are allowed.
    let clocks: Vec<(String, bool)> = match game.clocks_now(running) {
        Some(clocks) => clocks
            .iter()
            .enumerate()
            .map(|(seat, ms)| (clock_label(game, colours, seat as u8, *ms), Some(seat as u8) == running))
            .collect(),
        None => Vec::new(),
    };
    let font = egui::TextStyle::Monospace.resolve(ui.style());
    let spacing = ui.spacing().item_spacing.x;
    // Without a live clock, the correspondence line ("1 day a move · 23 h left") stands there.
    let correspondence = clocks.is_empty().then(|| {
        crate::app::online::words::correspondence_words(
            game.state.as_ref(),
            game.moves.len(),
            crate::app::online::words::now_ms(),
        )
    });
    let body = egui::TextStyle::Body.resolve(ui.style());
    let width = |text: &str, font: &egui::FontId| {
        ui.fonts_mut(|f| f.layout_no_wrap(text.to_string(), font.clone(), egui::Color32::WHITE).size().x) + spacing
    };
    let clocks_width: f32 = match &correspondence {
        Some(words) => width(words, &body),
        None => clocks.iter().map(|(text, _)| width(text, &font)).sum(),
    };
    let draw_clocks = |ui: &mut egui::Ui| {
        if let Some(words) = &correspondence {
            ui.label(egui::RichText::new(words).weak())
                .on_hover_text("A correspondence game: take the time you like, the game waits");
            return;
        }
        let mut tenths = false;
        for (seat, (text, runs)) in clocks.iter().enumerate() {
            let rich = egui::RichText::new(text).monospace();
            let left = game.clocks_now(running).and_then(|c| c.get(seat).copied()).unwrap_or(u64::MAX);
            let rich = match clock_look(left, *runs) {
                ClockLook::Warning => {
                    tenths = true;
                    rich.strong().color(WARNING)
                }
                ClockLook::Running => rich.strong(),
                ClockLook::Still => rich.weak(),
            };
            ui.label(rich).on_hover_text("Time left (Fischer clock, kept by the server)");
        }
        // The running clock's seconds tick (its tenths under ten seconds).
        ui.ctx().request_repaint_after(std::time::Duration::from_millis(if tenths { 50 } else { 250 }));
    };
    let buttons_width = 300.0;
    let one_row = clocks_width + buttons_width <= ui.available_width();
    if !one_row {
        ui.horizontal(|ui| draw_clocks(ui));
    }
    let row = egui::vec2(ui.available_width(), ui.spacing().interact_size.y);
    ui.allocate_ui_with_layout(row, egui::Layout::right_to_left(egui::Align::Center), |ui| {
        let ended = over || game.over();
        if game.watching() {
            // A spectator has nothing to resign or ask: the box says so where the buttons stand.
            let label = ui.label(egui::RichText::new("Watching").strong().color(GREEN));
            rects.set("online watching", label.rect);
            label.on_hover_text("You follow this game without a seat: its players' moves come from the server");
        } else {
            let offered = game.state.as_ref().and_then(|s| s.rematch.as_ref()).is_some();
            let label = if offered { "Play the rematch" } else { "Rematch" };
            let rematch = ui
                .add_enabled(ended, egui::Button::new(label))
                .on_hover_text("The same game again online, the seats moved round by one");
            rects.set("online rematch", rematch.rect);
            if rematch.clicked() {
                actions.push(PanelAction::Online(OnlineOrder::Rematch));
            }
            let (label, hover) = if game.started() {
                ("Resign", "Give up this online game: the other players win")
            } else {
                ("Cancel", "Call this game off before every player has moved: nobody wins or loses, nothing is rated")
            };
            let resign = ui.add_enabled(!ended, egui::Button::new(label)).on_hover_text(hover);
            rects.set("online resign", resign.rect);
            if resign.clicked() {
                windows.resign = true;
            }
        }
        ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
            if one_row {
                draw_clocks(ui);
            }
            // The connection in two words, the rest on hover.
            let tools = match (game.over(), game.state.as_ref().is_some_and(|s| s.allow_tools)) {
                (true, _) => "Hints, Show thinking and analysis are open: the game is over.",
                (false, true) => "Hints, Show thinking and analysis: allowed by the game's creator, for both players.",
                (false, false) => {
                    "Hints, Show thinking and analysis: after the game (its creator chose so, for both players)."
                }
            };
            // How the game ended is the Game over box's: this line keeps to the connection.
            ui.add(egui::Label::new(egui::RichText::new(format!("• {words}")).color(colour)).truncate()).on_hover_text(
                format!(
                    "Online, {}: {}.{}\n{tools}",
                    game.seat.server,
                    link_words(&game.connection),
                    if away_seats.is_empty() { String::new() } else { format!(" Away: {}.", away_seats.join(", ")) }
                ),
            );
        });
    });
    if free
        && !game.watching()
        && let Some(link) = invitation(&game.seat)
    {
        let code = &game.seat.code;
        let spaced = if code.len() == 8 { format!("{}-{}", &code[..4], &code[4..]) } else { code.clone() };
        let whom = if others.len() > 1 { "the other players" } else { "your opponent" };
        ui.horizontal_wrapped(|ui| {
            // Short, so the code's Copy stays on its line in a 1024-pixel window.
            ui.label("Send the code").on_hover_text(format!("Send {whom} the code, or the link below"));
            ui.label(egui::RichText::new(&spaced).monospace().strong());
            copy_button(ui, rects, "online copy code", &spaced);
        });
        ui.horizontal(|ui| {
            ui.label("or the link");
            copy_button(ui, rects, "online copy link", &link);
        });
        let text = ui.add(egui::Label::new(egui::RichText::new(&link).monospace().small()).selectable(true).wrap());
        rects.set("online invite", text.rect);
        text.on_hover_text(
            "Opened in a browser, it joins this game; in the app, paste it at Join (Play online…, Invite a friend)",
        );
    }
}

/// A Copy button (named `name` in `rects`) that puts `text` on the system's clipboard, and says
/// "Copied" once it has.
fn copy_button(ui: &mut egui::Ui, rects: &mut UiRects, name: &'static str, text: &str) {
    let id = egui::Id::new("online copied");
    let copied = ui.ctx().data(|d| d.get_temp::<String>(id)).is_some_and(|t| t == text);
    let button = ui.small_button(if copied { "Copied" } else { "Copy" }).on_hover_text("Copy it to the clipboard");
    rects.set(name, button.rect);
    if button.clicked() {
        ui.ctx().copy_text(text.to_string());
        ui.ctx().data_mut(|d| d.insert_temp(id, text.to_string()));
    }
}

/// The colour of a clock under ten seconds while it runs.
pub const WARNING: egui::Color32 = egui::Color32::from_rgb(240, 140, 40);

/// How a clock is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockLook {
    /// Stopped: the other seat's, or a game not running.
    Still,
    /// Running, ten seconds or more left.
    Running,
    /// Running with under ten seconds left: the warning colour ([`WARNING`]), tenths shown.
    Warning,
}

/// How the clock with `ms` left is drawn, running or not.
pub fn clock_look(ms: u64, runs: bool) -> ClockLook {
    match (runs, ms < 10_000) {
        (false, _) => ClockLook::Still,
        (true, false) => ClockLook::Running,
        (true, true) => ClockLook::Warning,
    }
}

/// A clock's label: who sits at `seat` ("You", or the colour it plays on the board now, which
/// follows a pie-rule swap) and the time left ([`clock_text`]).
pub fn clock_label(game: &OnlineGame, colours: &[&str], seat: u8, ms: u64) -> String {
    let colour = colours.get(usize::from(seat)).map_or_else(|| game.seat_label(seat), |c| (*c).to_string());
    let who = if game.mine(seat) { format!("You ({colour})") } else { colour };
    format!("{who} {}", clock_text(ms))
}

/// A clock's time left, `m:ss` (`h:mm:ss` from an hour), tenths under ten seconds.
pub fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else if ms < 10_000 {
        format!("0:{:02}.{}", s, ms / 100 % 10)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn clocks_read_as_players_expect() {
        assert_eq!(super::clock_text(300_000), "5:00");
        assert_eq!(super::clock_text(61_999), "1:01");
        assert_eq!(super::clock_text(9_450), "0:09.4");
        assert_eq!(super::clock_text(3_723_000), "1:02:03");
        assert_eq!(super::clock_text(0), "0:00.0");
    }
}
