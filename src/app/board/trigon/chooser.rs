//! The piece chooser, the panel on the left: each colour with its seat, score and remaining pieces;
//! the pieces of the colour to move are large and can be chosen when a person is to move (the chosen
//! one drawn in its orientation), with the keys' reminder and the attach points' checkbox below.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::art::colour_swatch;
use super::ghost::{Selection, oriented};
use crate::ai::Seat;
use crate::app::Screen;
use crate::app::hud::{LeftPanelWidth, stone};
use crate::app::model::Model;
use crate::rules::Game;
use crate::rules::geometry::polyiamond::Tri;
use crate::rules::trigon::pieces::piece_name;
use crate::rules::trigon::{COLOURS, PIECES, Trigon};

/// Width of the piece chooser in logical pixels.
const LEFT_PANEL: f32 = 282.0;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        chooser.run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<Trigon>>)),
    )
    .add_systems(OnExit(Screen::Playing), |mut left: ResMut<LeftPanelWidth>| left.0 = 0.0);
}

/// The chooser panel; its width goes to [`LeftPanelWidth`] for the camera fit. The selection is
/// written only when a click or the checkbox changes it.
fn chooser(
    mut contexts: EguiContexts,
    model: Res<Model<Trigon>>,
    mut selection: ResMut<Selection>,
    mut left: ResMut<LeftPanelWidth>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let colours = model.game.options().variant.colours();
    let choosing = model.human_to_move();
    let mut root = crate::app::menu::root_ui(ctx, "chooser");
    let frame = egui::Frame::side_top_panel(&ctx.global_style()).inner_margin(egui::Margin::symmetric(12, 10));
    let panel =
        egui::Panel::left("pieces").exact_size(LEFT_PANEL).resizable(false).frame(frame).show(&mut root, |ui| {
            egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                for c in 0..colours {
                    colour_heading(ui, &model, c);
                    pieces(ui, &model, c, selection.reborrow());
                    ui.add_space(4.0);
                    ui.separator();
                }
                footer(ui, choosing, selection.reborrow());
            });
        });
    let width = panel.response.rect.width();
    if (left.0 - width).abs() > 0.5 {
        left.0 = width;
    }
    Ok(())
}

/// A colour's row: its swatch and name (strong while it is to move), its seat, then on the right its
/// score and "out" or "to move".
fn colour_heading(ui: &mut egui::Ui, model: &Model<Trigon>, c: usize) {
    let game = &model.game;
    let is_turn = game.colour_to_move() == Some(c);
    ui.horizontal(|ui| {
        stone(ui, colour_swatch(c), 8.0);
        let name = egui::RichText::new(COLOURS[c]).size(16.0);
        ui.label(if is_turn { name.strong() } else { name });
        let seat = model.seats[game.player_of(c).index()];
        ui.label(egui::RichText::new(seat_text(seat)).weak());
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.label(egui::RichText::new(format!("{}", game.colour_score(c))).size(16.0).strong());
            if game.is_out(c) && game.outcome().is_none() {
                ui.label(egui::RichText::new("out").color(egui::Color32::from_rgb(0xff, 0x9a, 0x7a)));
            } else if is_turn {
                ui.label(egui::RichText::new("to move").color(egui::Color32::from_rgb(0x7f, 0xc0, 0x6a)));
            }
        });
    });
}

/// A seat as the chooser names it, shorter than the side panel ("AI 3").
fn seat_text(seat: Seat) -> String {
    match seat {
        Seat::Human => "Human".to_string(),
        Seat::Ai(level) => format!("AI {}", level.number()),
    }
}

/// Colour `c`'s remaining pieces in a grid, large and clickable while a person is to move it: a click
/// chooses a piece (unturned) or puts the chosen one back.
fn pieces(ui: &mut egui::Ui, model: &Model<Trigon>, c: usize, mut selection: Mut<Selection>) {
    let game = &model.game;
    let big = game.colour_to_move() == Some(c) && model.human_to_move();
    let cell = if big { egui::vec2(47.0, 44.0) } else { egui::vec2(29.0, 26.0) };
    // As many as fit the panel's width (the grid puts 2 points between cells).
    let per_row = (((ui.available_width() + 2.0) / (cell.x + 2.0)).floor() as usize).max(1);
    let remaining: Vec<usize> = (0..PIECES).filter(|k| game.pieces_left(c) & (1 << k) != 0).collect();
    if remaining.is_empty() {
        ui.label(egui::RichText::new("all 22 pieces placed").weak());
    }
    egui::Grid::new(("pieces", c)).spacing([2.0, 2.0]).min_col_width(0.0).min_row_height(0.0).show(ui, |ui| {
        for (k, &p) in remaining.iter().enumerate() {
            let sense = if big { egui::Sense::click() } else { egui::Sense::hover() };
            let (rect, response) = ui.allocate_exact_size(cell, sense);
            let chosen = big && selection.piece == Some(p as u8);
            if chosen {
                ui.painter().rect_filled(rect, 4.0, egui::Color32::from_gray(0x55));
            } else if big && response.hovered() {
                ui.painter().rect_filled(rect, 4.0, egui::Color32::from_gray(0x3a));
            }
            let symmetry = if chosen { selection.symmetry } else { 0 };
            let shape = oriented(game.tables(), p, symmetry);
            let unit = if big { 14.0 } else { 7.0 };
            draw_shape(ui.painter(), rect, &shape, colour_swatch(c), unit);
            let response = response.on_hover_text(piece_name(p).to_string());
            if big && response.clicked() {
                *selection = if chosen {
                    Selection { piece: None, ..*selection }
                } else {
                    Selection { piece: Some(p as u8), symmetry: 0, colour: c as u8, ..*selection }
                };
            }
            if (k + 1) % per_row == 0 {
                ui.end_row();
            }
        }
    });
}

/// Draws a piece's shape in `rect`, filled and outlined by the swatch, scaled to fit (at most `unit`
/// points per side).
fn draw_shape(
    painter: &egui::Painter,
    rect: egui::Rect,
    shape: &[Tri],
    (fill, edge): (egui::Color32, egui::Color32),
    unit: f32,
) {
    let pts: Vec<Vec<egui::Pos2>> = shape
        .iter()
        .map(|t| t.corners().iter().map(|&(x, y)| egui::pos2(x as f32 * 0.5, y as f32 * 0.866)).collect())
        .collect();
    let (mut min, mut max) = (egui::pos2(f32::MAX, f32::MAX), egui::pos2(f32::MIN, f32::MIN));
    for p in pts.iter().flatten() {
        min = min.min(*p);
        max = max.max(*p);
    }
    let size = max - min;
    let scale = ((rect.width() - 4.0) / size.x).min((rect.height() - 4.0) / size.y).min(unit);
    let offset = rect.center() - (min + size / 2.0).to_vec2() * scale;
    for tri in pts {
        let points: Vec<egui::Pos2> = tri.iter().map(|p| offset + p.to_vec2() * scale).collect();
        painter.add(egui::Shape::convex_polygon(points, fill, egui::Stroke::new(1.0, edge)));
    }
}

/// Below the colours: the chosen piece and the keys, or how to choose one while a person is to move;
/// then the attach points' checkbox.
fn footer(ui: &mut egui::Ui, choosing: bool, mut selection: Mut<Selection>) {
    match selection.piece {
        Some(p) => {
            ui.label(egui::RichText::new(format!("Piece {} chosen", piece_name(p as usize))).strong());
            ui.add(
                egui::Label::new(
                    egui::RichText::new("R or wheel: turn · F: flip · Esc: put back · click the board to place")
                        .small()
                        .weak(),
                )
                .wrap(),
            );
        }
        None if choosing => {
            ui.add(
                egui::Label::new(egui::RichText::new("Choose a piece, then click the board to place it.").weak())
                    .wrap(),
            );
        }
        None => {}
    }
    let mut show = selection.show_attach;
    if ui.checkbox(&mut show, "Show attach points (A)").changed() {
        selection.show_attach = show;
    }
}
