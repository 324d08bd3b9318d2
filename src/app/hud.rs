//! The in-game panels (egui): players and scores, the status line, the AI's progress with Move now,
//! Swap, undo/redo, new game and rematch, save and load, the move list, the rules, and the
//! game-over window.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::Screen;
use super::ai_task::AiSearch;
use super::files;
use super::menu::root_ui;
use super::model::{Command, Model, MoveIntent, Status};
use crate::rules::trike::{Color as Stone, TrikeMove};
use crate::rules::{Game, Player};

/// Width of the side panel in logical pixels; the board view keeps the board left of it.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct PanelWidth(pub f32);

impl Default for PanelWidth {
    fn default() -> Self {
        PanelWidth(SIDE_PANEL)
    }
}

const SIDE_PANEL: f32 = 340.0;

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
    app.init_resource::<PanelWidth>().init_resource::<Windows>().add_systems(
        EguiPrimaryContextPass,
        panels.run_if(in_state(Screen::Playing).and_then(resource_exists::<Model>)),
    );
}

/// The colours of the swatches, as egui colours.
fn swatch(color: Stone) -> (egui::Color32, egui::Color32) {
    match color {
        Stone::Black => (egui::Color32::from_rgb(0x1f, 0x1f, 0x24), egui::Color32::from_rgb(0xb0, 0xb0, 0xb8)),
        Stone::White => (egui::Color32::from_rgb(0xf7, 0xf5, 0xef), egui::Color32::from_rgb(0x2b, 0x2b, 0x2b)),
    }
}

fn title(text: &str) -> egui::RichText {
    egui::RichText::new(text).size(17.0).strong()
}

fn stone(ui: &mut egui::Ui, color: Stone, radius: f32) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(radius * 2.0 + 4.0, radius * 2.0 + 4.0), egui::Sense::hover());
    let (fill, outline) = swatch(color);
    ui.painter().circle(rect.center(), radius, fill, egui::Stroke::new(1.5, outline));
}

#[allow(clippy::too_many_arguments)]
fn panels(
    mut contexts: EguiContexts,
    model: Res<Model>,
    search: Res<AiSearch>,
    mut status: ResMut<Status>,
    mut windows: ResMut<Windows>,
    mut panel_width: ResMut<PanelWidth>,
    mut intents: MessageWriter<MoveIntent>,
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
            ui.heading("Trike");
            ui.label(egui::RichText::new(format!("board {}", game.geometry().side)).weak());
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button("Rules").clicked() {
                    windows.rules = !windows.rules;
                }
            });
        });
        ui.separator();
        for seat in 0..2 {
            let player = Player(seat as u8);
            ui.horizontal(|ui| {
                stone(ui, game.color_of(player), 9.0);
                let to_move = game.to_move() == Some(player);
                let name = egui::RichText::new(game.player_name(player)).size(17.0);
                ui.label(if to_move { name.strong() } else { name });
                ui.label(egui::RichText::new(model.seats[seat].label()).weak());
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if let Some(outcome) = &outcome {
                        let won = outcome.winners().contains(&player);
                        let text = egui::RichText::new(format!(
                            "{} point{}",
                            outcome.scores[seat],
                            if outcome.scores[seat] == 1 { "" } else { "s" }
                        ))
                        .size(17.0);
                        ui.label(if won {
                            text.strong().color(egui::Color32::from_rgb(0xf2, 0xc1, 0x4e))
                        } else {
                            text
                        });
                    } else if to_move {
                        ui.label(egui::RichText::new("to move").color(egui::Color32::from_rgb(0x7f, 0xc0, 0x6a)));
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
            let hint = if game.pawn().is_none() {
                "Click any cell to place the first checker and the pawn."
            } else {
                "Click a highlighted cell to move the pawn there."
            };
            ui.label(egui::RichText::new(hint).weak());
        }
        if game.swap_available() && model.human_to_move() {
            let swap = ui.button("Swap colours (pie rule)").on_hover_text(
                "Take over the opening checker: you become Black, and the opener plays White and moves next",
            );
            if swap.clicked() {
                intents.write(MoveIntent { mv: TrikeMove::SWAP, from_ai: false });
            }
        }
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
            if ui.button("Rematch").on_hover_text("The same board again, the seats exchanged").clicked() {
                orders.write(Command::Rematch);
            }
        });
        ui.separator();
        ui.label(egui::RichText::new(format!("Moves ({})", model.moves.len())).strong());
        move_list(ui, &model);
    });
    // Keyboard: Ctrl+Z undo, Ctrl+Y or Ctrl+Shift+Z redo.
    let (undo, redo) = ctx.input(|i| {
        let z = i.modifiers.command && i.key_pressed(egui::Key::Z);
        (z && !i.modifiers.shift, (z && i.modifiers.shift) || (i.modifiers.command && i.key_pressed(egui::Key::Y)))
    });
    if undo {
        orders.write(Command::Undo);
    }
    if redo {
        orders.write(Command::Redo);
    }
    let width = panel.response.rect.width();
    if (panel_width.0 - width).abs() > 0.5 {
        panel_width.0 = width;
    }

    if windows.rules {
        let mut open = true;
        egui::Window::new(title("Rules of Trike")).open(&mut open).default_width(420.0).show(ctx, rules_text);
        windows.rules = open;
    }
    if windows.load {
        let mut open = true;
        let mut chosen = None;
        egui::Window::new(title("Load a saved game")).open(&mut open).default_width(420.0).show(ctx, |ui| {
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
        let winner = outcome.winners()[0];
        let mut close = false;
        egui::Window::new(title("Game over"))
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::LEFT_TOP, [16.0, 16.0])
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    stone(ui, game.color_of(winner), 11.0);
                    ui.label(
                        egui::RichText::new(format!(
                            "{} ({}) wins",
                            game.player_name(winner),
                            model.seats[winner.index()].label()
                        ))
                        .size(20.0)
                        .strong(),
                    );
                });
                ui.label(format!(
                    "{} {} – {} {}",
                    game.player_name(Player(0)),
                    outcome.scores[0],
                    game.player_name(Player(1)),
                    outcome.scores[1]
                ));
                ui.label(egui::RichText::new("Scored: the checkers under and around the trapped pawn (gold).").weak());
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

/// The plies in rows of two, each with the mover's colour; the last one stands out.
fn move_list(ui: &mut egui::Ui, model: &Model) {
    let mut replay = model.start.clone();
    let plies: Vec<(Stone, String)> = model
        .moves
        .iter()
        .map(|&mv| {
            let mover = replay.color_of(replay.to_move().expect("a recorded move was played"));
            let text = replay.move_text(mv);
            replay.play_unchecked(mv);
            (mover, text)
        })
        .collect();
    let last = plies.len().saturating_sub(1);
    egui::ScrollArea::vertical().auto_shrink([false, false]).stick_to_bottom(true).show(ui, |ui| {
        egui::Grid::new("moves").num_columns(3).min_col_width(24.0).spacing([14.0, 4.0]).striped(true).show(ui, |ui| {
            for (row, pair) in plies.chunks(2).enumerate() {
                ui.label(egui::RichText::new(format!("{}.", row * 2 + 1)).weak());
                for (k, (color, text)) in pair.iter().enumerate() {
                    ui.horizontal(|ui| {
                        stone(ui, *color, 6.0);
                        let t = egui::RichText::new(text).monospace();
                        ui.label(if row * 2 + k == last { t.strong().underline() } else { t });
                    });
                }
                ui.end_row();
            }
        });
    });
}

fn rules_text(ui: &mut egui::Ui) {
    let para = |ui: &mut egui::Ui, title: &str, body: &str| {
        ui.label(egui::RichText::new(title).strong());
        ui.add(egui::Label::new(body).wrap());
        ui.add_space(6.0);
    };
    para(
        ui,
        "The board",
        "A triangle of hexagonal cells, N cells on each side (7–19; 13 is standard). There is one neutral \
         pawn and an unlimited supply of black and white checkers. Cells are named by column letter and row \
         number: a1 is the top corner.",
    );
    para(ui, "Opening", "Black puts a black checker on any cell and sets the pawn on top of it.");
    para(
        ui,
        "Pie rule",
        "On the next move only, White may swap instead of moving: the players exchange colours, so the \
         opener now plays White and moves the pawn next. The board stays as it is.",
    );
    para(
        ui,
        "Moving",
        "On your turn, slide the pawn in a straight line in any of the six directions, as far as you like, \
         across empty cells only — it may neither land on nor jump over a checker. Put a checker of your \
         colour on the cell where it stops and the pawn on top of it. Passing is not allowed.",
    );
    para(
        ui,
        "End and score",
        "When the player to move cannot move because every cell next to the pawn is taken (or off the \
         board), the game ends. Each player scores a point for every checker of their colour under the pawn \
         or next to it. The higher score wins; as an odd number of cells is counted, there are no draws.",
    );
    ui.label(egui::RichText::new("Highlighted cells are where the pawn can go.").weak());
}
