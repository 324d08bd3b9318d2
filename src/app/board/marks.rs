//! How a move shows on the board outside of play: a hint, the analysis's better move in review, and
//! the heat map of a running search (*Show thinking*). Each game says where a move is on its board
//! ([`AppGame::move_marks`](crate::app::games::AppGame::move_marks): the cells or slots it fills,
//! the points it marks, the path a piece takes) and this module paints any game's marks with egui
//! over the board.

use bevy::prelude::*;
use bevy_egui::egui;

use super::WorldPainter;
use crate::app::games::MoveMarks;

/// The hint's colour in the palette in use ([`crate::app::palette::current`]): a colour no player
/// of the game uses (`black_and_white`: the game's players are Black and White, Trike and TriCore).
pub fn hint_colour(black_and_white: bool) -> egui::Color32 {
    let palette = crate::app::palette::current();
    let [r, g, b] = if black_and_white { palette.hint_black_and_white } else { palette.hint };
    egui::Color32::from_rgb(r, g, b)
}
/// The heat map's colour: orange.
pub const HEAT: egui::Color32 = egui::Color32::from_rgb(0xff, 0x8c, 0x2a);

/// Paints `marks` in `color`: shapes and points filled translucent with a solid outline, the path as
/// an arrow.
pub fn paint_marks(world: &WorldPainter, marks: &MoveMarks, color: egui::Color32) {
    let fill = color.gamma_multiply(0.45);
    let stroke = egui::Stroke::new(3.0, color);
    for shape in &marks.shapes {
        let points: Vec<egui::Pos2> = shape.iter().filter_map(|&p| world.to_screen(p)).collect();
        if points.len() == shape.len() {
            world.painter.add(egui::Shape::convex_polygon(points, fill, stroke));
        }
    }
    for &p in &marks.points {
        if let Some(at) = world.to_screen(p) {
            world.painter.circle(at, marks.radius / world.scale, fill, stroke);
        }
    }
    let path: Vec<egui::Pos2> = marks.path.iter().filter_map(|&p| world.to_screen(p)).collect();
    if path.len() >= 2 {
        let line = egui::Stroke::new(5.0, color);
        for pair in path.windows(2) {
            world.painter.line_segment([pair[0], pair[1]], line);
        }
        let (from, to) = (path[path.len() - 2], path[path.len() - 1]);
        let back = (from - to).normalized() * 16.0;
        let side = egui::vec2(-back.y, back.x) * 0.5;
        world.painter.add(egui::Shape::convex_polygon(
            vec![to, to + back + side, to + back - side],
            color,
            egui::Stroke::NONE,
        ));
    }
}

/// One target of the heat map: a shape or a point of some move's marks, and the simulations of the
/// moves that mark it.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatCell {
    /// The shape (a polygon) or, with one corner, the point.
    pub outline: Vec<Vec2>,
    /// The radius of a point's disc, in world units.
    pub radius: f32,
    /// The simulations of the root moves that cover it, summed.
    pub visits: u64,
}

/// Paints the heat map: each target in [`HEAT`], more opaque the more simulations went through it
/// (the square root of its share of the most visited one's).
pub fn paint_heat(world: &WorldPainter, cells: &[HeatCell]) {
    let Some(top) = cells.first().map(|c| c.visits.max(1)) else { return };
    for cell in cells {
        let share = (cell.visits as f32 / top as f32).sqrt();
        if share < 0.05 {
            continue;
        }
        let fill = HEAT.gamma_multiply(0.15 + 0.6 * share);
        let stroke = egui::Stroke::new(1.0 + 2.0 * share, HEAT.gamma_multiply(share));
        if let [p] = cell.outline[..] {
            if let Some(at) = world.to_screen(p) {
                world.painter.circle(at, cell.radius / world.scale * (0.5 + 0.5 * share), fill, stroke);
            }
        } else {
            let points: Vec<egui::Pos2> = cell.outline.iter().filter_map(|&p| world.to_screen(p)).collect();
            if points.len() == cell.outline.len() {
                world.painter.add(egui::Shape::convex_polygon(points, fill, stroke));
            }
        }
    }
}

/// A regular polygon of `corners` corners around `centre`, of circumradius `radius`, the first
/// corner at angle `start` (radians).
pub fn regular(centre: Vec2, radius: f32, corners: usize, start: f32) -> Vec<Vec2> {
    (0..corners)
        .map(|k| centre + radius * Vec2::from_angle(start + k as f32 * std::f32::consts::TAU / corners as f32))
        .collect()
}
