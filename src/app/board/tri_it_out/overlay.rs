//! Tri-It-Out's overlay, painted with egui over the board: the lattice's row numbers and the
//! hovered point's name, and over a restricted point the triangle that closes it.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::app::board::lattice::{label_points, point_center};
use crate::app::board::{BoardCamera, Hovered, WorldPainter};
use crate::app::flow::Screen;
use crate::app::model::Model;
use crate::rules::tri_it_out::TriItOut;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        overlay.run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<TriItOut>>)),
    );
}

/// Row numbers and the hovered point's name; over a restricted point, the triangle that closes it.
fn overlay(
    mut contexts: EguiContexts,
    model: Res<Model<TriItOut>>,
    hovered: Res<Hovered>,
    camera: BoardCamera,
) -> Result {
    let game = model.game();
    let lattice = game.lattice();
    let world = WorldPainter::new(contexts.ctx_mut()?, *camera);
    label_points(&world, lattice, &hovered, |p| game.counter(p).is_none());
    let Some(p) = hovered.0.filter(|&p| p < lattice.len) else { return Ok(()) };
    let Some((a, b)) = game.restricting_pair(p) else { return Ok(()) };
    let screen = |q: usize| world.to_screen(point_center(lattice, q));
    let (Some(pp), Some(pa), Some(pb)) = (screen(p), screen(a), screen(b)) else { return Ok(()) };
    let stroke = egui::Stroke::new(3.0, egui::Color32::from_rgb(0xff, 0xe0, 0x6a));
    world.painter.add(egui::Shape::convex_polygon(
        vec![pp, pa, pb],
        egui::Color32::from_rgba_unmultiplied(0xff, 0xe0, 0x6a, 40),
        stroke,
    ));
    Ok(())
}
