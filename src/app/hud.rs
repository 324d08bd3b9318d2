//! The in-game panels (egui): players and scores, the status line, the AI's progress with Move now,
//! the game's own actions (Trike's Swap), undo/redo, new game and rematch, save and load, the move
//! list, the rules, and the game-over window. The frame is shared; what differs per game are the
//! panel words of its [`AppGame`] (Trigon's piece chooser is its own panel, in `board::trigon`).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::Screen;
use super::ai_task::AiSearch;
use super::files;
use super::games::{AppGame, Swatch};
use super::menu::root_ui;
use super::model::{Command, Model, MoveIntent, Status};
use crate::rules::Player;

/// Width of the side panel in logical pixels; the board view keeps the board left of it.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct PanelWidth(pub f32);

impl Default for PanelWidth {
    fn default() -> Self {
        PanelWidth(SIDE_PANEL)
    }
}

const SIDE_PANEL: f32 = 340.0;

/// Width of a panel left of the board (Trigon's piece chooser), 0 when there is none.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct LeftPanelWidth(pub f32);

/// Where named widgets were drawn last frame, in logical pixels (the start screen's `start`, the
/// side panel's buttons): for the page's test hook (`triboard_ui_rect`) and the tests that check a
/// button stays where it is.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct UiRects(pub std::collections::BTreeMap<&'static str, egui::Rect>);

impl UiRects {
    /// Records where `name` was drawn (a change only when it moved, so change detection stays quiet).
    pub fn set(&mut self, name: &'static str, rect: egui::Rect) {
        if self.0.get(name) != Some(&rect) {
            self.0.insert(name, rect);
        }
    }
}

/// Which windows are open.
#[derive(Resource, Default)]
struct Windows {
    rules: bool,
    load: bool,
    saved: Vec<String>,
    /// The model revision whose game-over window was closed.
    dismissed: Option<u64>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PanelWidth>()
        .init_resource::<LeftPanelWidth>()
        .init_resource::<Windows>()
        .init_resource::<UiRects>();
}

/// The side panel of one game type (called by the registry for every game).
pub(super) fn game_plugin<G: AppGame>(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        panels::<G>.run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<G>>)),
    );
}

fn title(text: &str) -> egui::RichText {
    egui::RichText::new(text).size(17.0).strong()
}

/// A round swatch of `radius`.
pub fn stone(ui: &mut egui::Ui, (fill, outline): Swatch, radius: f32) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(radius * 2.0 + 4.0, radius * 2.0 + 4.0), egui::Sense::hover());
    ui.painter().circle(rect.center(), radius, fill, egui::Stroke::new(1.5, outline));
}

#[allow(clippy::too_many_arguments)]
fn panels<G: AppGame>(
    mut contexts: EguiContexts,
    model: Res<Model<G>>,
    search: Res<AiSearch<G>>,
    mut status: ResMut<Status>,
    mut windows: ResMut<Windows>,
    mut panel_width: ResMut<PanelWidth>,
    left: Res<LeftPanelWidth>,
    mut intents: MessageWriter<MoveIntent<G::Move>>,
    mut orders: MessageWriter<Command>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = root_ui(ctx, "hud");
    let game = &model.game;
    let outcome = game.outcome();
    let frame = egui::Frame::side_top_panel(&ctx.global_style()).inner_margin(egui::Margin::symmetric(16, 10));
    let panel = egui::Panel::right("side").exact_size(SIDE_PANEL).resizable(false).frame(frame).show(&mut root, |ui| {
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            ui.heading(game.heading());
            ui.label(egui::RichText::new(game.subtitle()).weak());
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button("Rules").clicked() {
                    windows.rules = !windows.rules;
                }
            });
        });
        ui.separator();
        for seat in 0..game.num_players() {
            let player = Player(seat as u8);
            ui.horizontal(|ui| {
                for colour in game.seat_swatches(player) {
                    stone(ui, colour, 9.0);
                }
                let to_move = game.to_move() == Some(player);
                let name = egui::RichText::new(game.player_name(player)).size(17.0);
                ui.label(if to_move { name.strong() } else { name });
                ui.label(egui::RichText::new(model.seats[seat].label()).weak());
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if let Some(outcome) = &outcome {
                        let won = outcome.winners().contains(&player);
                        // Games that keep a running score show the number alone, as while playing.
                        let score = outcome.scores[seat];
                        let text = if !G::SCORED {
                            egui::RichText::new(if won { "wins" } else { "" })
                        } else if game.live_score(player).is_some() {
                            egui::RichText::new(score.to_string())
                        } else {
                            egui::RichText::new(format!("{score} point{}", if score == 1 { "" } else { "s" }))
                        }
                        .size(17.0);
                        ui.label(if won {
                            text.strong().color(egui::Color32::from_rgb(0xf2, 0xc1, 0x4e))
                        } else {
                            text
                        });
                    } else {
                        if let Some(score) = game.live_score(player) {
                            ui.label(egui::RichText::new(score.to_string()).size(17.0));
                        }
                        if to_move {
                            ui.label(egui::RichText::new("to move").color(egui::Color32::from_rgb(0x7f, 0xc0, 0x6a)));
                        }
                    }
                });
            });
        }
        ui.separator();
        let color = if status.error { egui::Color32::from_rgb(0xff, 0x7a, 0x6a) } else { ui.visuals().text_color() };
        ui.add(egui::Label::new(egui::RichText::new(&status.text).color(color)).wrap());
        if let Some((level, sims, fraction)) = search.progress() {
            ui.add_space(4.0);
            ui.label(format!("AI {level} is thinking… {sims} simulations"));
            ui.horizontal(|ui| {
                if ui.button("Move now").on_hover_text("Play the best move found so far").clicked() {
                    search.move_now();
                }
                ui.add(egui::ProgressBar::new(fraction).show_percentage());
            });
        } else if model.human_to_move() {
            ui.label(egui::RichText::new(G::hint(&model)).weak());
        }
        G::actions(ui, &model, &mut intents);
        ui.separator();
        ui.horizontal(|ui| {
            if ui.add_enabled(!model.moves.is_empty(), egui::Button::new("⟲ Undo")).clicked() {
                orders.write(Command::Undo);
            }
            if ui.add_enabled(!model.redo.is_empty(), egui::Button::new("⟳ Redo")).clicked() {
                orders.write(Command::Redo);
            }
            if ui.button("Save").clicked() {
                *status = match files::save(&model.record()) {
                    Ok(place) => Status::info(format!("Saved to {place}")),
                    Err(e) => Status::error(e),
                };
            }
            if ui.button("Load…").clicked() {
                windows.load = !windows.load;
                windows.saved = files::list();
            }
        });
        #[cfg(target_arch = "wasm32")]
        super::web::file_buttons(ui, &model, &mut status);
        ui.horizontal(|ui| {
            if ui.button("New game").clicked() {
                orders.write(Command::NewGame);
            }
            if ui.button("Rematch").on_hover_text("The same game again, the seats moved round by one").clicked() {
                orders.write(Command::Rematch);
            }
            if G::SGF && ui.button("Save .blksgf").on_hover_text("Save in Pentobi's format").clicked() {
                *status = match files::save_as(&model.record(), files::Format::Sgf) {
                    Ok(place) => Status::info(format!("Saved to {place}")),
                    Err(e) => Status::error(e),
                };
            }
        });
        ui.separator();
        ui.label(egui::RichText::new(format!("Moves ({})", model.moves.len())).strong());
        move_list::<G>(ui, &model);
    });
    let width = panel.response.rect.width();
    if (panel_width.0 - width).abs() > 0.5 {
        panel_width.0 = width;
    }

    if windows.rules {
        let mut open = true;
        egui::Window::new(title(&format!("Rules of {}", game.display_name())))
            .open(&mut open)
            .default_width(420.0)
            .show(ctx, G::rules);
        windows.rules = open;
    }
    if windows.load {
        let mut open = true;
        let mut chosen = None;
        egui::Window::new(title("Load a saved game"))
            .open(&mut open)
            .default_width(420.0)
            .default_pos([left.0 + 16.0, 16.0])
            .show(ctx, |ui| {
                ui.label(egui::RichText::new(files::location()).small().weak());
                if windows.saved.is_empty() {
                    ui.label("No saved games yet.");
                }
                egui::ScrollArea::vertical().max_height(300.0).show(ui, |ui| {
                    for name in &windows.saved {
                        if ui.button(name).clicked() {
                            chosen = Some(name.clone());
                        }
                    }
                });
            });
        windows.load = open;
        if let Some(name) = chosen {
            match files::read(&name) {
                Ok(record) => {
                    orders.write(Command::Load(record));
                    windows.load = false;
                }
                Err(e) => *status = Status::error(format!("cannot load: {e}")),
            }
        }
    }
    if let Some(outcome) = outcome
        && windows.dismissed != Some(model.revision)
    {
        let winners = outcome.winners();
        let mut close = false;
        egui::Window::new(title("Game over"))
            .collapsible(false)
            .resizable(false)
            // Off the board: at the foot of the panel left of it where there is one (Trigon's
            // chooser, mostly empty by the end), else over the foot of the side panel's move list.
            .anchor(
                egui::Align2::LEFT_BOTTOM,
                if left.0 > 0.0 { [8.0, -8.0] } else { [ctx.content_rect().width() - panel_width.0 + 8.0, -8.0] },
            )
            .max_width(panel_width.0 - 40.0)
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    for winner in &winners {
                        for colour in game.seat_swatches(*winner) {
                            stone(ui, colour, 11.0);
                        }
                    }
                    let names: Vec<String> = winners
                        .iter()
                        .map(|w| format!("{} ({})", game.player_name(*w), model.seats[w.index()].label()))
                        .collect();
                    let verdict = if winners.len() == 1 {
                        format!("{} wins", names[0])
                    } else if winners.len() == game.num_players() {
                        "A draw".to_string()
                    } else {
                        format!("{} share first place", names.join(" and "))
                    };
                    ui.add(egui::Label::new(egui::RichText::new(verdict).size(20.0).strong()).wrap());
                });
                G::game_over(ui, &model, &outcome);
                ui.horizontal(|ui| {
                    if ui.button("New game").clicked() {
                        orders.write(Command::NewGame);
                    }
                    if ui.button("Rematch").clicked() {
                        orders.write(Command::Rematch);
                    }
                    close = ui.button("Close").clicked();
                });
            });
        if close {
            windows.dismissed = Some(model.revision);
        }
    }
    Ok(())
}

/// The plies in rows of [`AppGame::PLIES_PER_ROW`], each with the mover's colour; the last one
/// stands out.
fn move_list<G: AppGame>(ui: &mut egui::Ui, model: &Model<G>) {
    let mut replay = model.start.clone();
    let plies: Vec<(Swatch, String)> = model
        .moves
        .iter()
        .map(|&mv| {
            let mover = G::mover_swatch(&replay);
            let text = G::move_label(&replay, mv);
            replay.play_unchecked(mv);
            (mover, text)
        })
        .collect();
    let last = plies.len().saturating_sub(1);
    let per_row = G::PLIES_PER_ROW;
    // The first row may be shorter (Trisq's one-piece opening turn), so the later rows hold whole turns.
    let first = G::FIRST_ROW_PLIES.clamp(1, per_row).min(plies.len());
    let rows = std::iter::once((0, &plies[..first]))
        .filter(|(_, group)| !group.is_empty())
        .chain(plies[first..].chunks(per_row).enumerate().map(|(r, group)| (first + r * per_row, group)));
    egui::ScrollArea::vertical().auto_shrink([false, false]).stick_to_bottom(true).show(ui, |ui| {
        egui::Grid::new("moves").num_columns(per_row + 1).min_col_width(24.0).spacing([14.0, 4.0]).striped(true).show(
            ui,
            |ui| {
                for (start, group) in rows {
                    ui.label(egui::RichText::new(format!("{}.", start + 1)).weak());
                    for (k, (colour, text)) in group.iter().enumerate() {
                        ui.horizontal(|ui| {
                            stone(ui, *colour, 6.0);
                            let t = egui::RichText::new(text).monospace();
                            ui.label(if start + k == last { t.strong().underline() } else { t });
                        });
                    }
                    ui.end_row();
                }
            },
        );
    });
}

/// One paragraph of a rules panel: a bold title, then the wrapped text.
pub(crate) fn rules_paragraph(ui: &mut egui::Ui, title: &str, body: &str) {
    ui.label(egui::RichText::new(title).strong());
    ui.add(egui::Label::new(body).wrap());
    ui.add_space(6.0);
}
