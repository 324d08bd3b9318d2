//! The start screen (egui): the game, its options and who plays each seat.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::Screen;
use super::model::{Setup, Status};
use crate::ai::Level;
use crate::ai::Seat;
use crate::rules::trike::{MAX_SIZE, MIN_SIZE};

/// The start screen's choices while it is open.
#[derive(Resource, Clone, Debug)]
struct Choices {
    size: u8,
    ai: [bool; 2],
    level: [u8; 2],
}

impl Default for Choices {
    fn default() -> Self {
        Choices { size: 13, ai: [false, true], level: [3, 3] }
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
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = root_ui(ctx, "menu");
    let mut start = false;
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space((ui.available_height() - 520.0).max(0.0) / 2.0);
            ui.label(egui::RichText::new("triboard").size(44.0).strong());
            ui.label(egui::RichText::new("abstract strategy games on triangle boards").size(16.0).weak());
            ui.add_space(24.0);
            egui::Frame::group(ui.style()).inner_margin(20.0).corner_radius(8.0).show(ui, |ui| {
                ui.set_width(440.0);
                egui::Grid::new("setup").num_columns(2).spacing([18.0, 14.0]).show(ui, |ui| {
                    ui.label("Game");
                    egui::ComboBox::from_id_salt("game").selected_text("Trike").show_ui(ui, |ui| {
                        let _ = ui.selectable_label(true, "Trike");
                    });
                    ui.end_row();

                    ui.label("Board size");
                    ui.vertical(|ui| {
                        ui.add(egui::Slider::new(&mut choices.size, MIN_SIZE..=MAX_SIZE).suffix(" cells a side"));
                        ui.label(egui::RichText::new("7–19 for play, 13 standard; 3–6 for puzzles").small().weak());
                    });
                    ui.end_row();

                    for (seat, name) in [(0, "Black (opens)"), (1, "White (may swap)")] {
                        ui.label(name);
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
            start = ui.add(button).clicked();
            ui.add_space(10.0);
            // A share link or file that could not be opened says why here.
            if status.error {
                ui.label(egui::RichText::new(&status.text).color(egui::Color32::from_rgb(0xff, 0x7a, 0x6a)));
                ui.add_space(6.0);
            }
            ui.label(
                egui::RichText::new(
                    "Slide the pawn along a line of empty cells and drop a checker where it stops.\n\
                     When the pawn is trapped, the checkers under and around it score.",
                )
                .weak(),
            );
        });
    });
    if start {
        let seat = |k: usize| {
            if choices.ai[k] { Seat::Ai(Level::new(choices.level[k]).expect("slider range")) } else { Seat::Human }
        };
        setup.options.size = choices.size;
        setup.seats = [seat(0), seat(1)];
        next.set(Screen::Playing);
    }
    Ok(())
}
