//! The start screen (egui): the game, its options and who plays each seat.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::Screen;
use super::model::{Setup, Status};
use crate::ai::Level;
use crate::ai::Seat;
use crate::rules::tri_it_out::{Board, TieRule, TriItOutOptions, Variant as TriItOutVariant};
use crate::rules::trigon::Variant;
use crate::rules::trike::{MAX_SIZE, MIN_SIZE, TrikeOptions};
use crate::rules::trisq::TrisqOptions;

/// The games the start screen offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    Trike,
    Trigon(Variant),
    TriItOut,
    TriCore,
    Trisq,
}

impl Choice {
    const ALL: [Choice; 7] = [
        Choice::Trike,
        Choice::TriItOut,
        Choice::TriCore,
        Choice::Trisq,
        Choice::Trigon(Variant::Four),
        Choice::Trigon(Variant::Two),
        Choice::Trigon(Variant::Three),
    ];

    fn name(self) -> &'static str {
        match self {
            Choice::Trike => "Trike",
            Choice::Trigon(Variant::Four) => "Blokus Trigon (4 players)",
            Choice::Trigon(Variant::Two) => "Blokus Trigon Two-Player",
            Choice::Trigon(Variant::Three) => "Blokus Trigon Three-Player",
            Choice::TriItOut => "Tri-It-Out",
            Choice::TriCore => "TriCore",
            Choice::Trisq => "Trisq",
        }
    }

    /// The seats' names, in the order they first move.
    fn seats(self) -> &'static [&'static str] {
        match self {
            Choice::Trike => &["Black (opens)", "White (may swap)"],
            Choice::Trigon(Variant::Four) => &["Blue", "Yellow", "Red", "Green"],
            Choice::Trigon(Variant::Two) => &["Blue & Red", "Yellow & Green"],
            Choice::Trigon(Variant::Three) => &["Blue", "Yellow", "Red"],
            Choice::TriItOut => &["Red (places first)", "Blue"],
            Choice::TriCore => &["Black (first core)", "White (first ring)"],
            Choice::Trisq => &["Red (top–bottom, first)", "Blue (left–right)"],
        }
    }

    fn summary(self) -> &'static str {
        match self {
            Choice::Trike => {
                "Slide the pawn along a line of empty cells and drop a checker where it stops.\n\
                 When the pawn is trapped, the checkers under and around it score."
            }
            Choice::Trigon(Variant::Two) => {
                "Place your pieces corner to corner, never edge to edge with your own colour.\n\
                 You play two colours; their triangles add up. Most triangles wins."
            }
            Choice::Trigon(_) => {
                "Place your pieces corner to corner, never edge to edge with your own colour.\n\
                 A colour that cannot place is out. Most triangles wins; all 22 pieces earn a bonus."
            }
            Choice::TriItOut => {
                "Place counters; completing a triangle with two enemy counters captures one of them.\n\
                 Points that would complete a mixed triangle are closed. Fewest counters wins."
            }
            Choice::TriCore => {
                "Place cores and rings, then drive rings to lay discs and climb stacks.\n\
                 The group that reaches the most cores wins."
            }
            Choice::Trisq => {
                "Place one or two trapezia a turn; two of yours touching at a corner need a third touching both.\n\
                 Join your two edges with a chain of pieces sharing sides to win."
            }
        }
    }
}

/// The start screen's choices while it is open.
#[derive(Resource, Clone, Debug)]
struct Choices {
    game: Choice,
    size: u8,
    ai: [bool; 4],
    level: [u8; 4],
    tri_it_out: TriItOutOptions,
    trisq_size: u8,
}

impl Default for Choices {
    fn default() -> Self {
        Choices {
            game: Choice::Trike,
            size: 13,
            ai: [false, true, true, true],
            level: [3, 3, 3, 3],
            tri_it_out: TriItOutOptions::default(),
            trisq_size: TrisqOptions::default().size,
        }
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
            ui.add_space((ui.available_height() - 600.0).max(0.0) / 2.0);
            ui.label(egui::RichText::new("triboard").size(44.0).strong());
            ui.label(egui::RichText::new("abstract strategy games on triangle boards").size(16.0).weak());
            ui.add_space(24.0);
            egui::Frame::group(ui.style()).inner_margin(20.0).corner_radius(8.0).show(ui, |ui| {
                ui.set_width(440.0);
                egui::Grid::new("setup").num_columns(2).spacing([18.0, 14.0]).show(ui, |ui| {
                    ui.label("Game");
                    egui::ComboBox::from_id_salt("game")
                        .width(260.0)
                        .height(420.0)
                        .selected_text(choices.game.name())
                        .show_ui(ui, |ui| {
                            for choice in Choice::ALL {
                                ui.selectable_value(&mut choices.game, choice, choice.name());
                            }
                        });
                    ui.end_row();

                    match choices.game {
                        Choice::Trike => {
                            ui.label("Board size");
                            ui.vertical(|ui| {
                                ui.add(
                                    egui::Slider::new(&mut choices.size, MIN_SIZE..=MAX_SIZE).suffix(" cells a side"),
                                );
                                ui.label(
                                    egui::RichText::new("7–19 for play, 13 standard; 3–6 for puzzles").small().weak(),
                                );
                            });
                        }
                        Choice::Trigon(variant) => {
                            ui.label("Board");
                            let cells = if variant == Variant::Three { 384 } else { 486 };
                            ui.label(egui::RichText::new(format!("{cells} triangles, 22 pieces per colour")).weak());
                        }
                        Choice::TriItOut => tri_it_out_options(ui, &mut choices.tri_it_out),
                        Choice::TriCore => {
                            ui.label("Board");
                            ui.label(egui::RichText::new("51 points; 3 cores, 3 rings, 24 discs each").weak());
                        }
                        Choice::Trisq => {
                            ui.label("Board size");
                            ui.vertical(|ui| {
                                ui.add(egui::Slider::new(&mut choices.trisq_size, 6..=9).suffix(" squares a side"));
                                ui.label(egui::RichText::new("6–9, 8 standard").small().weak());
                            });
                        }
                    }
                    ui.end_row();

                    for (seat, name) in choices.game.seats().iter().enumerate() {
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
            start = ui.add(button).clicked();
            ui.add_space(10.0);
            // A share link or file that could not be opened says why here.
            if status.error {
                ui.label(egui::RichText::new(&status.text).color(egui::Color32::from_rgb(0xff, 0x7a, 0x6a)));
                ui.add_space(6.0);
            }
            ui.label(egui::RichText::new(choices.game.summary()).weak());
        });
    });
    if start {
        let seat = |k: usize| {
            if choices.ai[k] { Seat::Ai(Level::new(choices.level[k]).expect("slider range")) } else { Seat::Human }
        };
        let seats: Vec<Seat> = (0..choices.game.seats().len()).map(seat).collect();
        *setup = match choices.game {
            Choice::Trike => Setup::trike(TrikeOptions { size: choices.size }, [seats[0], seats[1]]),
            Choice::Trigon(variant) => Setup::trigon(variant, &seats),
            Choice::TriItOut => Setup::tri_it_out(choices.tri_it_out, [seats[0], seats[1]]),
            Choice::TriCore => Setup::tricore([seats[0], seats[1]]),
            Choice::Trisq => Setup::trisq(TrisqOptions { size: choices.trisq_size }, [seats[0], seats[1]]),
        };
        next.set(Screen::Playing);
    }
    Ok(())
}

/// Tri-It-Out's options: the board, the tie rule and the variant (`rules/tri-it-out.md`).
fn tri_it_out_options(ui: &mut egui::Ui, options: &mut TriItOutOptions) {
    ui.label("Board");
    egui::ComboBox::from_id_salt("tio-board").width(260.0).selected_text(board_label(options.board)).show_ui(
        ui,
        |ui| {
            for board in Board::ALL {
                ui.selectable_value(&mut options.board, board, board_label(board));
            }
        },
    );
    ui.end_row();
    ui.label("A tie");
    ui.vertical(|ui| {
        ui.radio_value(&mut options.tie, TieRule::StuckPlayerLoses, "the player who cannot place loses");
        ui.radio_value(&mut options.tie, TieRule::LastMoverLoses, "the player who moved last loses (Ludii)");
    });
    ui.end_row();
    ui.label("Variant");
    let mut any = options.variant == TriItOutVariant::AnyMixedTriangle;
    ui.checkbox(&mut any, "capture from any mixed triangle")
        .on_hover_text("A capture may take from any mixed triangle on the board; keep placing until none is left");
    options.variant = if any { TriItOutVariant::AnyMixedTriangle } else { TriItOutVariant::Standard };
}

/// A board's name on the start screen: its id and its number of points.
fn board_label(board: Board) -> String {
    format!("{} ({} points)", board.id(), board.lattice().len)
}
