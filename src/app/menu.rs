//! The start screen (egui): the game, its options and who plays each seat.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::Screen;
use super::games::{AppGame, ForEachGame, each_game};
use super::hud::UiRects;
use super::model::Status;
use super::setup::{GameOptions, Setup};
use crate::ai::Level;
use crate::ai::Seat;

/// One entry of the start screen's game list, whatever its game type: built from the registry.
struct Entry {
    /// Its name in the list ("Blokus Trigon Two-Player").
    name: &'static str,
    /// The game and the options it starts with; the options rows edit them.
    game: GameOptions,
    /// The seats' names ([`AppGame::seat_names`]).
    seats: &'static [&'static str],
    /// Two lines on the game ([`AppGame::summary`]).
    summary: &'static str,
    /// The options rows ([`AppGame::options_ui`]), on the options as JSON.
    options_ui: fn(&mut egui::Ui, &mut serde_json::Value),
}

/// The options rows of game type `G`, on its options as JSON.
fn options_ui<G: AppGame>(ui: &mut egui::Ui, value: &mut serde_json::Value) {
    let mut options: G::Options = serde_json::from_value(value.clone()).unwrap_or_default();
    let before = options.clone();
    G::options_ui(ui, &mut options);
    if options != before {
        *value = serde_json::to_value(&options).expect("options serialise");
    }
}

/// The start screen's choices while it is open.
#[derive(Resource)]
struct Choices {
    entries: Vec<Entry>,
    /// The chosen entry.
    game: usize,
    ai: [bool; 4],
    level: [u8; 4],
}

impl Default for Choices {
    fn default() -> Self {
        struct Entries(Vec<Entry>);
        impl ForEachGame for Entries {
            fn game<G: AppGame>(&mut self) {
                for (name, options) in G::menu_entries() {
                    self.0.push(Entry {
                        name,
                        game: GameOptions::of::<G>(&options),
                        seats: G::seat_names(&options),
                        summary: G::summary(&options),
                        options_ui: options_ui::<G>,
                    });
                }
            }
        }
        let mut entries = Entries(Vec::new());
        each_game(&mut entries);
        Choices { entries: entries.0, game: 0, ai: [false, true, true, true], level: [3, 3, 3, 3] }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Choices>()
        // Only what goes wrong on the start screen itself (a link that cannot be opened) shows there.
        .add_systems(OnEnter(Screen::Menu), |mut status: ResMut<Status>| *status = Status::default())
        .add_systems(EguiPrimaryContextPass, (style, start_screen.run_if(in_state(Screen::Menu))).chain());
}

/// Larger text and roomier spacing than egui's defaults, for every screen.
fn style(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    *done = true;
    let ctx = contexts.ctx_mut()?;
    ctx.set_visuals(egui::Visuals::dark());
    ctx.all_styles_mut(|style| {
        use egui::{FontFamily::Proportional, FontId, TextStyle};
        style.text_styles.insert(TextStyle::Heading, FontId::new(24.0, Proportional));
        style.text_styles.insert(TextStyle::Body, FontId::new(15.0, Proportional));
        style.text_styles.insert(TextStyle::Button, FontId::new(15.0, Proportional));
        style.text_styles.insert(TextStyle::Small, FontId::new(12.5, Proportional));
        style.spacing.item_spacing = egui::vec2(8.0, 7.0);
        style.spacing.button_padding = egui::vec2(10.0, 5.0);
    });
    Ok(())
}

/// A root `Ui` covering the window, for panels (egui 0.36 shows panels inside a `Ui`).
pub(super) fn root_ui(ctx: &egui::Context, id: &'static str) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        id.into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    )
}

fn start_screen(
    mut contexts: EguiContexts,
    mut choices: ResMut<Choices>,
    mut setup: ResMut<Setup>,
    status: Res<Status>,
    mut rects: ResMut<UiRects>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = root_ui(ctx, "menu");
    let mut start = false;
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space((ui.available_height() - 600.0).max(0.0) / 2.0);
            ui.label(egui::RichText::new("triboard").size(44.0).strong());
            ui.label(egui::RichText::new("abstract strategy games on triangle boards").size(16.0).weak());
            ui.add_space(24.0);
            egui::Frame::group(ui.style()).inner_margin(20.0).corner_radius(8.0).show(ui, |ui| {
                ui.set_width(440.0);
                egui::Grid::new("setup").num_columns(2).spacing([18.0, 14.0]).show(ui, |ui| {
                    ui.label("Game");
                    let choices = &mut *choices;
                    egui::ComboBox::from_id_salt("game")
                        .width(260.0)
                        .height(420.0)
                        .selected_text(choices.entries[choices.game].name)
                        .show_ui(ui, |ui| {
                            for (k, entry) in choices.entries.iter().enumerate() {
                                ui.selectable_value(&mut choices.game, k, entry.name);
                            }
                        });
                    ui.end_row();

                    let entry = &mut choices.entries[choices.game];
                    (entry.options_ui)(ui, &mut entry.game.options);
                    ui.end_row();

                    for (seat, name) in choices.entries[choices.game].seats.iter().enumerate() {
                        ui.label(*name);
                        ui.horizontal(|ui| {
                            ui.radio_value(&mut choices.ai[seat], false, "Human");
                            ui.radio_value(&mut choices.ai[seat], true, "AI");
                            ui.add_space(6.0);
                            ui.add_enabled_ui(choices.ai[seat], |ui| {
                                ui.label(egui::RichText::new("level").weak());
                                for level in Level::MIN..=Level::MAX {
                                    ui.selectable_value(&mut choices.level[seat], level, level.to_string());
                                }
                            });
                        });
                        ui.end_row();
                    }
                });
            });
            ui.add_space(20.0);
            let button = egui::Button::new(egui::RichText::new("Start").size(20.0)).min_size(egui::vec2(160.0, 40.0));
            let pressed = ui.add(button);
            rects.set("start", pressed.rect);
            start = pressed.clicked();
            ui.add_space(10.0);
            // A share link or file that could not be opened says why here.
            if status.error {
                ui.label(egui::RichText::new(&status.text).color(egui::Color32::from_rgb(0xff, 0x7a, 0x6a)));
                ui.add_space(6.0);
            }
            ui.label(egui::RichText::new(choices.entries[choices.game].summary).weak());
        });
    });
    if start {
        let seat = |k: usize| {
            if choices.ai[k] { Seat::Ai(Level::new(choices.level[k]).expect("slider range")) } else { Seat::Human }
        };
        let entry = &choices.entries[choices.game];
        *setup = Setup { game: entry.game.clone(), seats: (0..entry.seats.len()).map(seat).collect() };
        next.set(Screen::Playing);
    }
    Ok(())
}
