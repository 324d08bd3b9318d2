//! The piece chooser, the panel on the left. At its top, the pieces of the colour to move in a fixed
//! grid: every one of the 22 keeps its slot for the whole game and for every colour (piece order),
//! a placed one left as a faint outline, so a piece is always where it was; they can be chosen while
//! a person is to move (the chosen one drawn in its orientation). Below, each colour with its seat,
//! score and its own small fixed grid; then the keys' reminder and the attach points' checkbox.
//! [`chooser_ui`] draws it from plain values, so `tests/app/trigon.rs` checks the slots in a
//! bare `egui::Context`.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::art::colour_swatch;
use super::entities::colour_to_move;
use super::pointing::{Selection, oriented};
use crate::ai::Seat;
use crate::app::flow::Screen;
use crate::app::model::Model;
use crate::app::ui::{LeftPanelWidth, stone};
use crate::rules::Game;
use crate::rules::geometry::polyiamond::Tri;
use crate::rules::trigon::pieces::piece_name;
use crate::rules::trigon::{COLOURS, PIECES, Trigon};

/// The chooser's width in egui points for a window `width` points wide: 24 % of it, between 230
/// (a 1000-point window keeps 450 for the board beside the side panel) and 300.
pub fn chooser_width(width: f32) -> f32 {
    (width * 0.24).clamp(230.0, 300.0)
}

/// Pieces per row of the grid of the colour to move.
const PER_ROW: usize = 6;
/// The narrowed chooser's width in egui points ([`Selection::narrow`]): its pieces three a row.
pub const NARROW_WIDTH: f32 = 150.0;
/// Pieces per row of the narrowed chooser.
const NARROW_PER_ROW: usize = 3;
/// Pieces per row of a colour's small grid.
const SMALL_PER_ROW: usize = 11;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        chooser
            .after(crate::app::hud::Panels)
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<Trigon>>)),
    )
    .add_systems(OnExit(Screen::Playing), |mut left: ResMut<LeftPanelWidth>| left.0 = 0.0);
}

/// The chooser panel; its width (in logical pixels) goes to [`LeftPanelWidth`] for the camera fit.
/// The selection is written only when a click or the checkbox changes it.
fn chooser(
    mut contexts: EguiContexts,
    model: Res<Model<Trigon>>,
    mut selection: ResMut<Selection>,
    mut left: ResMut<LeftPanelWidth>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut chosen = *selection;
    let (width, _) = chooser_ui(ctx, &model, &mut chosen);
    if chosen != *selection {
        *selection = chosen;
    }
    let width = width * ctx.zoom_factor();
    if (left.0 - width).abs() > 0.5 {
        left.0 = width;
    }
    Ok(())
}

/// Draws the chooser into `ctx` and applies its clicks to `selection`; returns its width in egui
/// points and where each of the 22 slots of the large grid was drawn (piece, rectangle in points).
pub fn chooser_ui(
    ctx: &egui::Context,
    model: &Model<Trigon>,
    selection: &mut Selection,
) -> (f32, Vec<(usize, egui::Rect)>) {
    let colours = model.game().options().variant.colours();
    let choosing = model.human_to_move();
    let mut root = crate::app::ui::root_ui(ctx, "chooser");
    let frame = egui::Frame::side_top_panel(&ctx.global_style()).inner_margin(egui::Margin::symmetric(10, 8));
    let width = if selection.narrow { NARROW_WIDTH } else { chooser_width(ctx.content_rect().width()) };
    let mut slots = Vec::new();
    let panel = egui::Panel::left("pieces").exact_size(width).resizable(false).frame(frame).show(&mut root, |ui| {
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            ui.set_max_width(ui.available_width());
            // The colour to move (the last one once the game is over) on top.
            let shown = model.game().colour_to_move().unwrap_or_else(|| last_mover(model));
            slots = large_grid(ui, model, shown, selection);
            footer(ui, choosing, selection);
            if selection.narrow {
                return;
            }
            ui.separator();
            for c in 0..colours {
                colour_heading(ui, model, c);
                small_grid(ui, model, c);
                ui.add_space(2.0);
            }
        });
    });
    (panel.response.rect.width(), slots)
}

/// The colour that made the last move (Blue before any).
fn last_mover(model: &Model<Trigon>) -> usize {
    let mut replay = model.start().clone();
    let mut last = 0;
    for &mv in model.moves() {
        last = replay.colour_to_move().unwrap_or(last);
        replay.play_unchecked(mv);
    }
    last
}

/// The grid of colour `c`'s 22 pieces, each in its fixed slot: clickable while a person is to move
/// it; a placed piece leaves a faint outline. Returns the slots' rectangles.
fn large_grid(
    ui: &mut egui::Ui,
    model: &Model<Trigon>,
    c: usize,
    selection: &mut Selection,
) -> Vec<(usize, egui::Rect)> {
    let game = model.game();
    let active = colour_to_move(model) == Some(c) && model.human_to_move();
    let title = if active {
        format!("{}: choose a piece", COLOURS[c])
    } else if model.over() {
        "The game is over".to_string()
    } else {
        format!("{} to move", COLOURS[c])
    };
    let per_row = if selection.narrow { NARROW_PER_ROW } else { PER_ROW };
    ui.horizontal(|ui| {
        stone(ui, colour_swatch(c), 8.0);
        let title = if selection.narrow { COLOURS[c].to_string() } else { title };
        ui.label(egui::RichText::new(title).strong());
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let (arrow, hover) = if selection.narrow {
                ("▶", "Widen the chooser: every colour's pieces")
            } else {
                ("◀", "Narrow the chooser to the pieces to move, so the board takes the room")
            };
            if ui.small_button(arrow).on_hover_text(hover).clicked() {
                selection.narrow = !selection.narrow;
            }
        });
    });
    let side = ((ui.available_width() - (per_row as f32 - 1.0) * 2.0) / per_row as f32).floor();
    let cell = egui::vec2(side, (side * 0.92).floor());
    let origin = ui.cursor().min;
    let rows = PIECES.div_ceil(per_row);
    let (area, _) =
        ui.allocate_exact_size(egui::vec2(ui.available_width(), rows as f32 * (cell.y + 2.0)), egui::Sense::hover());
    let mut slots = Vec::with_capacity(PIECES);
    for p in 0..PIECES {
        let at = origin + egui::vec2((p % per_row) as f32 * (cell.x + 2.0), (p / per_row) as f32 * (cell.y + 2.0));
        let rect = egui::Rect::from_min_size(at, cell);
        slots.push((p, rect));
        let left = game.pieces_left(c) & (1 << p) != 0;
        let sense = if active && left { egui::Sense::click() } else { egui::Sense::hover() };
        let response = ui.interact(rect, ui.id().with(("piece", p)), sense);
        let chosen = active && selection.piece == Some(p as u8);
        if chosen {
            ui.painter().rect_filled(rect, 4.0, egui::Color32::from_gray(0x55));
        } else if active && left && response.hovered() {
            ui.painter().rect_filled(rect, 4.0, egui::Color32::from_gray(0x3a));
        }
        let symmetry = if chosen { selection.symmetry } else { 0 };
        let shape = oriented(game.tables(), p, symmetry);
        let swatch = if left {
            let (fill, edge) = colour_swatch(c);
            if active { (fill, edge) } else { (fill.gamma_multiply(0.75), edge) }
        } else {
            (egui::Color32::TRANSPARENT, egui::Color32::from_gray(0x50))
        };
        draw_shape(ui.painter(), rect, &shape, swatch, side * 0.32);
        let name = piece_name(p).to_string();
        let response = response.on_hover_text(if left { name } else { format!("{name}: placed") });
        if active && left && response.clicked() {
            *selection = if chosen {
                Selection { piece: None, ..*selection }
            } else {
                Selection { piece: Some(p as u8), symmetry: 0, colour: c as u8, ..*selection }
            };
        }
    }
    let _ = area;
    slots
}

/// Colour `c`'s pieces small, each in its fixed slot, placed ones left empty.
fn small_grid(ui: &mut egui::Ui, model: &Model<Trigon>, c: usize) {
    let game = model.game();
    let side = ((ui.available_width() - (SMALL_PER_ROW as f32 - 1.0)) / SMALL_PER_ROW as f32).floor();
    let cell = egui::vec2(side, side * 0.9);
    let origin = ui.cursor().min;
    let rows = PIECES.div_ceil(SMALL_PER_ROW);
    ui.allocate_exact_size(egui::vec2(ui.available_width(), rows as f32 * (cell.y + 1.0)), egui::Sense::hover());
    for p in (0..PIECES).filter(|p| game.pieces_left(c) & (1 << p) != 0) {
        let at = origin
            + egui::vec2((p % SMALL_PER_ROW) as f32 * (cell.x + 1.0), (p / SMALL_PER_ROW) as f32 * (cell.y + 1.0));
        let shape = oriented(game.tables(), p, 0);
        draw_shape(ui.painter(), egui::Rect::from_min_size(at, cell), &shape, colour_swatch(c), side * 0.3);
    }
}

/// A colour's row: its swatch and name (strong while it is to move), its seat, then on the right its
/// score and "out", "to move", or how its seat lost off the board ("resigned").
fn colour_heading(ui: &mut egui::Ui, model: &Model<Trigon>, c: usize) {
    let game = model.game();
    let is_turn = colour_to_move(model) == Some(c);
    ui.horizontal(|ui| {
        stone(ui, colour_swatch(c), 8.0);
        let name = egui::RichText::new(COLOURS[c]).size(16.0);
        ui.label(if is_turn { name.strong() } else { name });
        let seat = game.player_of(c).index();
        let text = match model.names().get(seat).and_then(|n| n.as_deref()) {
            Some(name) => name.to_string(),
            None => seat_text(model.seats()[seat]),
        };
        ui.label(egui::RichText::new(crate::app::ui::short(&text, 14)).weak()).on_hover_text(text);
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.label(egui::RichText::new(format!("{}", game.colour_score(c))).size(16.0).strong());
            let ended = model.ending().filter(|e| usize::from(e.seat) == seat);
            if let Some(ending) = ended {
                ui.label(egui::RichText::new(ending.how()).color(egui::Color32::from_rgb(0xff, 0x9a, 0x7a)));
            } else if game.is_out(c) && !model.over() {
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
        Seat::Remote => "Online".to_string(),
    }
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

/// Below the large grid, in a strip of fixed height (so the checkbox below it never moves): the
/// chosen piece and the keys, or how to choose one while a person is to move; then the attach
/// points' checkbox.
fn footer(ui: &mut egui::Ui, choosing: bool, selection: &mut Selection) {
    let body = ui.text_style_height(&egui::TextStyle::Body);
    let small = ui.text_style_height(&egui::TextStyle::Small);
    let (rect, _) =
        ui.allocate_exact_size(egui::vec2(ui.available_width(), body + 2.0 * small + 6.0), egui::Sense::hover());
    let mut strip =
        ui.new_child(egui::UiBuilder::new().max_rect(rect).layout(egui::Layout::top_down(egui::Align::Min)));
    strip.set_clip_rect(rect.intersect(ui.clip_rect()));
    strip.spacing_mut().item_spacing.y = 2.0;
    match selection.piece {
        Some(p) => {
            strip.label(egui::RichText::new(format!("Piece {} chosen", piece_name(p as usize))).strong());
            strip.add(
                egui::Label::new(
                    egui::RichText::new("R or wheel: turn · F: flip · Esc: put back · click the board to place")
                        .small()
                        .weak(),
                )
                .wrap(),
            );
        }
        None if choosing => {
            strip.add(
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
