//! What egui paints over Trisq's board: column letters and row numbers; the free slots of squares
//! that hold a piece, faintly; under the pointer, the hovered square's playable slots and the slot a
//! press would place, named; the pair that keeps the turn from ending (`docs/rules/trisq.md` §Play),
//! pulsing at the corner where they touch; the winning chain in gold. Also where the pointer aims.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::art::{GOLD, WARN, colour32, fill, outline as outline_of, translucent};
use super::entities::{SlotPointer, Tile, TileMarks};
use super::geometry::TrisqLegal;
use super::geometry::{Aim, BAND, BAND_GAP, MARGIN, SQUARE, aimed_slot, slot_corners, square_slots, touch_point};
use crate::app::board::{BoardCamera, Hovered, WorldPainter, hover_readout};
use crate::app::flow::Screen;
use crate::app::model::Model;
use crate::rules::Game;
use crate::rules::trisq::Trisq;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        overlay.run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<Trisq>>)),
    );
}

/// Column letters and row numbers; the free slots of squares that have a filling, faintly; the
/// hovered square's playable slots outlined and the aimed one lit; the pair that keeps the turn from
/// ending, and the winning chain, outlined.
fn overlay(
    mut contexts: EguiContexts,
    model: Res<Model<Trisq>>,
    (hovered, legal, pointer): (Res<Hovered>, Res<TrisqLegal>, Res<SlotPointer>),
    time: Res<Time>,
    camera: BoardCamera,
    tiles: Query<(&Tile, &TileMarks)>,
) -> Result {
    let game = model.game();
    let board = game.board();
    let n = board.side;
    let ctx = contexts.ctx_mut()?;
    let world = WorldPainter::new(ctx, *camera);
    let scale = world.scale.max(0.05);
    let painter = &world.painter;
    let font = egui::FontId::monospace(15.0 / scale);
    let ink = egui::Color32::from_rgb(0xb8, 0xae, 0x9c);
    let edge = n as f32 * SQUARE / 2.0 + BAND_GAP + BAND + MARGIN + SQUARE * 0.3;
    for k in 0..n {
        let along = -(n as f32) * SQUARE / 2.0 + (k as f32 + 0.5) * SQUARE;
        let letter = ((b'a' + k as u8) as char).to_string();
        world.label(Vec2::new(along, edge), letter.clone(), &font, ink);
        world.label(Vec2::new(along, -edge), letter, &font, ink);
        world.label(Vec2::new(-edge, -along), format!("{}", k + 1), &font, ink);
        world.label(Vec2::new(edge, -along), format!("{}", k + 1), &font, ink);
    }
    let screen = |slot: usize| -> Option<Vec<egui::Pos2>> {
        slot_corners(board, slot).iter().map(|&p| world.to_screen(p)).collect()
    };
    let outline = |slot: usize, fill: egui::Color32, stroke: egui::Stroke| {
        if let Some(points) = screen(slot) {
            painter.add(egui::Shape::convex_polygon(points, fill, stroke));
        }
    };
    // Squares with a filling show where their remaining slots are.
    let faint = egui::Stroke::new(1.0, egui::Color32::from_rgba_unmultiplied(0x6a, 0x55, 0x3a, 150));
    for square in 0..n * n {
        let slots = square_slots(square);
        if slots.clone().all(|s| game.piece(s).is_none()) {
            continue;
        }
        for s in slots.filter(|&s| game.available(s)) {
            outline(s, egui::Color32::TRANSPARENT, faint);
        }
    }
    // The hovered square: its playable slots, and the one a click would place.
    if let (Some(mover), Some(square)) = (game.to_move(), hovered.0.filter(|&sq| sq < n * n))
        && model.human_to_move()
    {
        let c = mover.index();
        let aimed = aimed_slot(game, &legal, square, pointer.0);
        // The aimed slot's filling clearly, the other one (which a click there would rule out) faintly.
        let thin = egui::Stroke::new(1.6, translucent(outline_of(c), 220));
        let faint = egui::Stroke::new(1.0, translucent(outline_of(c), 80));
        for s in square_slots(square).filter(|&s| legal.slot(s)) {
            let same = aimed.is_some_and(|a| a / 4 == s / 4);
            outline(s, egui::Color32::TRANSPARENT, if same { thin } else { faint });
        }
        if let Some(s) = aimed {
            if legal.slot(s) {
                outline(s, translucent(fill(c), 235), egui::Stroke::new(2.5, colour32(outline_of(c))));
            } else {
                outline(
                    s,
                    egui::Color32::from_rgba_unmultiplied(0x60, 0x60, 0x60, 90),
                    egui::Stroke::new(2.0, colour32(WARN)),
                );
            }
            hover_readout(ctx, 0.0, &game.slot_name(s));
        } else if let Aim::Taken(s) = super::geometry::aim(game, &legal, square, pointer.0) {
            let owner = game.piece(s).map_or("a", |p| game.player_name(crate::rules::Player(p)));
            hover_readout(ctx, 0.0, &format!("{}: {owner}'s piece", game.slot_name(s)));
        }
    }
    // The pair that keeps the turn from ending, pulsing, with the point where they touch.
    if model.human_to_move()
        && let Some((a, b)) = game.end_blocker()
    {
        let pulse = 0.5 + 0.5 * (time.elapsed_secs() * 5.0).sin();
        let alpha = (120.0 + 120.0 * pulse) as u8;
        for s in [a, b] {
            outline(s, egui::Color32::TRANSPARENT, egui::Stroke::new(3.0, translucent(WARN, alpha)));
        }
        if let Some(p) = touch_point(board, a, b).and_then(|p| world.to_screen(p)) {
            painter.circle_stroke(p, (5.0 + 3.0 * pulse) / scale.max(0.5), egui::Stroke::new(2.5, colour32(WARN)));
        }
    }
    // The winning chain, as the tiles' marks hold it.
    for (tile, _) in tiles.iter().filter(|(_, marks)| marks.chain) {
        outline(tile.slot, egui::Color32::TRANSPARENT, egui::Stroke::new(3.0, colour32(GOLD)));
    }
    Ok(())
}
