//! The Play online window's games by invitation ([`invite_tab`]: Create and invite — the start
//! screen's game, the seat, a clock, hints allowed, Rated when signed in — and Join by a code or a
//! link) and the seats held ([`your_games`]: whose turn it is in each, Open and Forget).

use bevy_egui::egui;

use super::link::LinkState;
use super::lobby::CLOCKS;
use super::window_in::{LobbyAction, WIDTH, WindowIn, cell};
use super::words::{game_words, now_ms, turn_words};
use crate::app::clipboard::paste_menu;
use crate::app::settings::OnlineSeat;
use crate::app::ui::{RED, UiRects};

/// Create and invite, then Join.
pub fn invite_tab(ui: &mut egui::Ui, input: &mut WindowIn, rects: &mut UiRects, actions: &mut Vec<LobbyAction>) {
    let url = input.lobby.server_url(input.settings);
    let lobby = &mut *input.lobby;
    let seats = input.chosen.seats;
    let signed_in = input.account.signed_in.is_some();
    if !signed_in {
        lobby.rated = false;
    }
    ui.label(egui::RichText::new(format!("Create a game of {} and invite a friend", input.chosen.name)).strong());
    ui.horizontal(|ui| {
        ui.label("You play");
        lobby.seat = lobby.seat.min(seats.len().saturating_sub(1) as u8);
        egui::ComboBox::from_id_salt("online seat")
            .selected_text(seats.get(usize::from(lobby.seat)).copied().unwrap_or("?"))
            .show_ui(ui, |ui| {
                for (k, name) in seats.iter().enumerate() {
                    ui.selectable_value(&mut lobby.seat, k as u8, *name);
                }
            });
        ui.label("Clock");
        egui::ComboBox::from_id_salt("online clock")
            .selected_text(CLOCKS.get(lobby.clock).map_or("?", |c| c.0))
            .show_ui(ui, |ui| {
                for (k, (name, _)) in CLOCKS.iter().enumerate() {
                    ui.selectable_value(&mut lobby.clock, k, *name);
                }
            });
        ui.add_enabled(signed_in, egui::Checkbox::new(&mut lobby.rated, "Rated"))
            .on_hover_text("Rated games change the players' ratings; your friend must sign in too")
            .on_disabled_hover_text("Sign in to play rated games");
    });
    ui.checkbox(&mut lobby.allow_tools, "Allow hints, Show thinking and analysis during the game");
    let create = ui.add_enabled(url.is_ok() && !lobby.waiting(), egui::Button::new("Create and invite"));
    rects.set("online create", create.rect);
    if create.clicked() {
        actions.push(LobbyAction::Create);
    }
    ui.separator();
    ui.label(egui::RichText::new("Join a game").strong());
    ui.horizontal(|ui| {
        let field =
            ui.add(egui::TextEdit::singleline(&mut lobby.invitation).hint_text("code or link").desired_width(260.0));
        rects.set("online code", field.rect);
        paste_menu(&field, rects);
        let join = ui.add_enabled(!lobby.invitation.trim().is_empty() && !lobby.waiting(), egui::Button::new("Join"));
        rects.set("online join", join.rect);
        if join.clicked() {
            actions.push(LobbyAction::Join);
        }
    });
    if lobby.waiting() {
        match input.link.1 {
            // A server that does not answer says so, rather than a wait without end.
            LinkState::Down { why, .. } => {
                ui.colored_label(RED, format!("No answer from {}: {why}. Trying again…", input.link.0));
            }
            _ => {
                ui.label(egui::RichText::new("Waiting for the server…").weak());
            }
        }
    }
    if let Some(said) = &lobby.said {
        ui.colored_label(RED, said);
    }
}

/// "Your games": each seat held on the lobby's server, with whose turn it is, Open and Forget.
pub fn your_games(ui: &mut egui::Ui, input: &mut WindowIn, rects: &mut UiRects, actions: &mut Vec<LobbyAction>) {
    let server = input.link.0;
    let held: Vec<&OnlineSeat> = input.settings.online.games.iter().filter(|s| s.server == server).collect();
    ui.label(egui::RichText::new(format!("Your games on this server ({})", held.len())).strong());
    if held.is_empty() {
        ui.label(egui::RichText::new("None on this server yet").weak());
        return;
    }
    egui::ScrollArea::vertical().id_salt("your games").show(ui, |ui| {
        for (k, seat) in held.iter().rev().enumerate() {
            ui.horizontal(|ui| {
                let known = input.lobby.known.get(&seat.game_id);
                let words = known.map_or("…".to_string(), |s| turn_words(s, seat.seat, now_ms()));
                let game = known.map_or_else(|| seat.game.clone(), |s| game_words(&s.game, &s.options));
                let code = if seat.code.is_empty() { String::new() } else { format!(" · {}", seat.code) };
                let line = format!("{game}{code} · {words}");
                cell(ui, WIDTH - 180.0, line.as_str()).on_hover_text(&line);
                let open = ui.small_button("Open");
                if k == 0 {
                    rects.set("online open 0", open.rect);
                }
                if open.clicked() {
                    actions.push(LobbyAction::Resume((*seat).clone()));
                }
                if ui.small_button("Forget").on_hover_text("Drop this seat's key from this device").clicked() {
                    actions.push(LobbyAction::Forget(seat.game_id.clone()));
                }
            });
        }
    });
}
