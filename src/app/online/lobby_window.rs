//! The Play online… window over the start screen: Create (seat, clock, tools allowed), Join (a
//! code or a link), and Your games, on the [`Lobby`]'s state.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::link::{Link, default_server, read_invitation};
use super::lobby::{CLOCKS, Lobby, link_words, whose_turn};
use crate::app::choices::Choices;
use crate::app::flow::Screen;
use crate::app::settings::{OnlineSeat, Settings};
use crate::app::ui::UiRects;

/// The window itself (with the app's egui).
pub fn view_plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, lobby_window.run_if(in_state(Screen::Menu)));
}

/// The Play online… window over the start screen.
fn lobby_window(
    mut contexts: EguiContexts,
    (mut lobby, mut link, mut settings): (ResMut<Lobby>, NonSendMut<Link>, ResMut<Settings>),
    choices: Res<Choices>,
    mut rects: ResMut<UiRects>,
) -> Result {
    if !lobby.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    // The link goes to this server (`lobby::want_server`), not from here.
    let url = lobby.server_url(&settings);
    egui::Window::new("Play online")
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .default_width(460.0)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label("Server");
                let hint = settings.online.server.clone();
                let hint = if hint.is_empty() { default_server() } else { hint };
                let field = ui.add(egui::TextEdit::singleline(&mut lobby.server).hint_text(hint).desired_width(260.0));
                rects.set("online server", field.rect);
                ui.label(egui::RichText::new(link_words(link.state())).weak());
            });
            if let Err(e) = &url {
                ui.colored_label(crate::app::ui::RED, e);
            }
            ui.separator();
            let (game, options, seats) = choices.chosen();
            ui.label(egui::RichText::new(format!("Create a game of {}", choices.chosen_name())).strong());
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
                egui::ComboBox::from_id_salt("online clock").selected_text(CLOCKS[lobby.clock].0).show_ui(ui, |ui| {
                    for (k, (name, _)) in CLOCKS.iter().enumerate() {
                        ui.selectable_value(&mut lobby.clock, k, *name);
                    }
                });
            });
            ui.checkbox(&mut lobby.allow_tools, "Allow hints, Show thinking and analysis during the game");
            let create = ui.add_enabled(url.is_ok() && !lobby.waiting(), egui::Button::new("Create and invite"));
            rects.set("online create", create.rect);
            if create.clicked()
                && let Ok(url) = &url
            {
                lobby.create(&mut link, url, &game, options);
            }
            ui.separator();
            ui.label(egui::RichText::new("Join a game").strong());
            ui.horizontal(|ui| {
                let field = ui.add(
                    egui::TextEdit::singleline(&mut lobby.invitation).hint_text("code or link").desired_width(260.0),
                );
                rects.set("online code", field.rect);
                let join =
                    ui.add_enabled(!lobby.invitation.trim().is_empty() && !lobby.waiting(), egui::Button::new("Join"));
                rects.set("online join", join.rect);
                if join.clicked() {
                    let (code, server) = read_invitation(&lobby.invitation);
                    match server.map_or_else(|| url.clone(), Ok) {
                        Ok(url) => lobby.join(&mut link, &url, &code, &mut settings),
                        Err(e) => lobby.said = Some(e),
                    }
                }
            });
            if lobby.waiting() {
                ui.label(egui::RichText::new("Waiting for the server…").weak());
            }
            if let Some(said) = &lobby.said {
                ui.colored_label(crate::app::ui::RED, said);
            }
            ui.separator();
            your_games(ui, &mut lobby, &mut link, &mut settings);
        });
    if !open {
        lobby.open = false;
    }
    Ok(())
}

/// "Your games": each seat held on the lobby's server, with whose turn it is, Open and Forget.
fn your_games(ui: &mut egui::Ui, lobby: &mut Lobby, link: &mut Link, settings: &mut Settings) {
    let server = link.url().to_string();
    let held: Vec<OnlineSeat> = settings.online.games.iter().filter(|s| s.server == server).cloned().collect();
    ui.label(egui::RichText::new(format!("Your games ({})", held.len())).strong());
    if held.is_empty() {
        ui.label(egui::RichText::new("None on this server yet").weak());
        return;
    }
    let mut forget = None;
    egui::ScrollArea::vertical().max_height(160.0).show(ui, |ui| {
        for seat in held.iter().rev() {
            ui.horizontal(|ui| {
                let words = lobby.known.get(&seat.game_id).map_or("…".to_string(), |s| whose_turn(s, seat.seat));
                ui.label(format!(
                    "{} · {} · {words}",
                    seat.game,
                    if seat.code.is_empty() { "rematch" } else { &seat.code }
                ));
                if ui.small_button("Open").clicked() {
                    lobby.resume(seat.clone(), link, settings);
                }
                if ui.small_button("Forget").on_hover_text("Drop this seat's key from this device").clicked() {
                    forget = Some(seat.game_id.clone());
                }
            });
        }
    });
    if let Some(id) = forget {
        settings.online.games.retain(|s| !(s.server == server && s.game_id == id));
    }
}
