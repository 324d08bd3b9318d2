//! The side panel's online box, in an online game: the connection (connected, reconnecting,
//! the opponent away), the invitation while a seat is free, the clocks of a live game, and
//! Resign or Rematch.

use bevy_egui::egui;

use super::action::PanelAction;
use crate::app::online::link::LinkState;
use crate::app::online::lobby::{invitation, link_words};
use crate::app::online::{OnlineGame, OnlineOrder};
use crate::app::ui::{RED, UiRects};

/// Draws the online box of `game`; `running` is the seat to move on the board (its clock runs),
/// `over` whether the board's game is over.
pub(super) fn online_box<M>(
    ui: &mut egui::Ui,
    game: &OnlineGame,
    running: Option<u8>,
    over: bool,
    rects: &mut UiRects,
    actions: &mut Vec<PanelAction<M>>,
) {
    let others: Vec<usize> = (0..game.online.len()).filter(|&s| s != usize::from(game.seat.seat)).collect();
    let free = !game.full();
    let words = match &game.connection {
        LinkState::Open if free => "connected".to_string(),
        LinkState::Open if others.iter().all(|&s| game.online[s]) => "connected · opponent here".to_string(),
        LinkState::Open => "connected · opponent away".to_string(),
        other => link_words(other).to_string(),
    };
    let colour = if matches!(game.connection, LinkState::Open) { ui.visuals().text_color() } else { RED };
    ui.add(egui::Label::new(egui::RichText::new(format!("Online: {words}")).color(colour)).wrap());
    if free && let Some(link) = invitation(&game.seat) {
        let code = &game.seat.code;
        let spaced = if code.len() == 8 { format!("{}-{}", &code[..4], &code[4..]) } else { code.clone() };
        ui.horizontal_wrapped(|ui| {
            ui.label("Waiting for your opponent: send the code");
            ui.label(egui::RichText::new(spaced).monospace().strong());
            ui.label("or the link");
        });
        let text = ui.add(egui::Label::new(egui::RichText::new(&link).monospace().small()).selectable(true).wrap());
        rects.set("online invite", text.rect);
        text.on_hover_text("Select it and copy it; opened in a browser, it joins this game");
    }
    if let Some(clocks) = game.clocks_now(running) {
        ui.horizontal_wrapped(|ui| {
            for (seat, ms) in clocks.iter().enumerate() {
                let text = format!("{}: {}", game.seat_label(seat as u8), clock_text(*ms));
                let rich = egui::RichText::new(text).monospace();
                ui.label(if Some(seat as u8) == running { rich.strong() } else { rich.weak() });
            }
        });
        // The running clock's seconds tick.
        ui.ctx().request_repaint_after(std::time::Duration::from_millis(250));
    }
    if !game.over() {
        let (words, hover) = match game.state.as_ref().is_some_and(|s| s.allow_tools) {
            true => ("Hints and analysis: allowed", "The game's creator allowed them for both players"),
            false => ("Hints and analysis: after the game", "The game's creator did not allow them while it runs"),
        };
        ui.label(egui::RichText::new(words).small().weak()).on_hover_text(hover);
    }
    ui.horizontal(|ui| {
        let ended = over || game.over();
        let resign = ui
            .add_enabled(!ended, egui::Button::new("Resign"))
            .on_hover_text("Give up this online game: the other players win");
        rects.set("online resign", resign.rect);
        if resign.clicked() {
            actions.push(PanelAction::Online(OnlineOrder::Resign));
        }
        let offered = game.state.as_ref().and_then(|s| s.rematch.as_ref()).is_some();
        let label = if offered { "Play the rematch" } else { "Rematch" };
        let rematch = ui
            .add_enabled(ended, egui::Button::new(label))
            .on_hover_text("The same game again online, the seats moved round by one");
        rects.set("online rematch", rematch.rect);
        if rematch.clicked() {
            actions.push(PanelAction::Online(OnlineOrder::Rematch));
        }
        if let Some(why) = game.ended() {
            ui.label(egui::RichText::new(why).weak());
        }
    });
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
