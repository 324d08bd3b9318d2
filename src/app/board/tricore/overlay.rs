//! TriCore's overlay, painted with egui over the board: the lattice's row numbers and the hovered
//! point's name, and each stack's height (2 or 3) in a badge beside its top disc.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::layout::disc_translation;
use crate::app::board::lattice::{SPACING, label_points};
use crate::app::board::{BoardCamera, Hovered, WorldPainter};
use crate::app::flow::Screen;
use crate::app::model::Model;
use crate::rules::tricore::TriCore;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        overlay.run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<TriCore>>)),
    );
}

/// Row numbers, the hovered point's name and each stack's height (2 or 3) beside its top disc.
fn overlay(
    mut contexts: EguiContexts,
    model: Res<Model<TriCore>>,
    hovered: Res<Hovered>,
    camera: BoardCamera,
) -> Result {
    let game = model.game();
    let lattice = game.lattice();
    let ctx = contexts.ctx_mut()?;
    let world = WorldPainter::new(ctx, *camera);
    let (cores, rings) = (game.cores(), game.rings());
    label_points(&world, lattice, &hovered, |p| game.height(p) == 0 && (cores | rings) & (1 << p) == 0);
    let (painter, scale) = (&world.painter, world.scale);
    let font = egui::FontId::proportional(13.0 / scale);
    for p in 0..lattice.len {
        let h = game.height(p);
        if h < 2 {
            continue;
        }
        let top = disc_translation(lattice, p, h - 1).truncate() + Vec2::new(0.30, -0.24) * SPACING;
        let Some(centre) = world.to_screen(top) else { continue };
        painter.circle(
            centre,
            8.5 / scale,
            egui::Color32::from_rgb(0xfb, 0xf3, 0xdc),
            egui::Stroke::new(1.2 / scale, egui::Color32::from_rgb(0x5a, 0x48, 0x30)),
        );
        painter.text(
            centre,
            egui::Align2::CENTER_CENTER,
            h.to_string(),
            font.clone(),
            egui::Color32::from_rgb(0x30, 0x24, 0x18),
        );
    }
    Ok(())
}
