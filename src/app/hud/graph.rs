//! The win-rate graph of an analysed game (*Analyze game*), under the side panel's status: one
//! point per move, at the mover's win rate before it (two seats: the first seat's, as one line);
//! mistakes ringed in red; the position shown marked; a click on a point shows that position. While
//! the analysis runs, its progress and Cancel stand there instead.

use bevy_egui::egui;

use super::action::PanelAction;
use crate::app::flow::{Command, ReviewTo};
use crate::app::games::{AppGame, Swatch};
use crate::app::model::Model;
use crate::app::ui::MISTAKE;
use crate::rules::Player;

/// The graph's height in egui points at most; on a short window it shrinks (to 36) so that the
/// move list below keeps [`LIST_ROOM`].
pub const GRAPH_HEIGHT: f32 = 86.0;
/// The height the graph leaves the move list, in egui points, while it can.
pub const LIST_ROOM: f32 = 140.0;

/// One point of the graph: the position after `ply` moves, where move `ply + 1` was played.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The moves played before the position.
    pub ply: usize,
    /// The seat to move there.
    pub mover: Player,
    /// The mover's win rate there, in `[0, 1]`.
    pub win_rate: f32,
    /// The move played there was a mistake.
    pub mistake: bool,
    /// The mover's colour ([`AppGame::mover_swatch`]).
    pub swatch: Swatch,
}

/// The graph's points: one per analysed move the game's line still shares with the analysis.
pub fn points<G: AppGame>(model: &Model<G>) -> Vec<Point> {
    let analysed = model.analysed();
    let mut replay = model.start().clone();
    let mut out = Vec::with_capacity(analysed.len());
    for (ply, (mv, a)) in model.line().into_iter().zip(analysed).enumerate() {
        let Some(mover) = replay.to_move() else { break };
        let swatch = G::mover_swatch(&replay);
        out.push(Point { ply, mover, win_rate: a.win_rate, mistake: a.mistake, swatch });
        replay.play_unchecked(mv);
    }
    out
}

/// The analysis's progress with Cancel while it runs, else the graph if the game has an
/// analysis; nothing otherwise.
pub fn graph_area<G: AppGame>(
    ui: &mut egui::Ui,
    model: &Model<G>,
    analyzing: Option<(usize, f32)>,
    actions: &mut Vec<PanelAction<G::Move>>,
) {
    if let Some((moves, fraction)) = analyzing {
        ui.separator();
        ui.label(format!("Analyzing {moves} moves…"));
        ui.horizontal(|ui| {
            if ui.button("Cancel").on_hover_text("Stop the analysis; nothing is kept").clicked() {
                actions.push(PanelAction::CancelAnalysis);
            }
            ui.add(egui::ProgressBar::new(fraction).show_percentage());
        });
        return;
    }
    let points = points(model);
    if points.is_empty() {
        return;
    }
    ui.separator();
    let two = model.game().num_players() == 2;
    let caption = if two {
        format!("{}'s win rate, move by move (click to see)", model.game().player_name(Player(0)))
    } else {
        "each mover's win rate, move by move (click to see)".to_string()
    };
    ui.label(egui::RichText::new(caption).small().weak());
    if let Some(ply) = graph(ui, model, &points) {
        actions.push(PanelAction::Order(Command::Review(ReviewTo::Ply(ply))));
    }
}

/// Draws the graph of `points`; returns the ply of a clicked point.
fn graph<G: AppGame>(ui: &mut egui::Ui, model: &Model<G>, points: &[Point]) -> Option<usize> {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(ui.available_width(), GRAPH_HEIGHT), egui::Sense::click());
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    painter.rect_filled(rect, 4.0, visuals.extreme_bg_color);
    let inner = rect.shrink2(egui::vec2(8.0, 8.0));
    let n = points.len().max(2) - 1;
    let x = |ply: usize| inner.left() + inner.width() * ply as f32 / n as f32;
    let y = |rate: f32| inner.bottom() - inner.height() * rate.clamp(0.0, 1.0);
    let grid = egui::Stroke::new(1.0, visuals.weak_text_color().gamma_multiply(0.4));
    painter.line_segment([egui::pos2(inner.left(), y(0.5)), egui::pos2(inner.right(), y(0.5))], grid);
    let two = model.game().num_players() == 2;
    let value = |p: &Point| if two && p.mover != Player(0) { 1.0 - p.win_rate } else { p.win_rate };
    // The position shown.
    let shown = model.moves().len();
    if shown <= n {
        let at = x(shown);
        painter.line_segment(
            [egui::pos2(at, rect.top()), egui::pos2(at, rect.bottom())],
            egui::Stroke::new(2.0, visuals.selection.bg_fill),
        );
    }
    // One line per seat (two seats: the first seat's win rate throughout).
    let seats = if two { 1 } else { model.game().num_players() };
    for seat in 0..seats {
        let own: Vec<egui::Pos2> = points
            .iter()
            .filter(|p| two || p.mover == Player(seat as u8))
            .map(|p| egui::pos2(x(p.ply), y(value(p))))
            .collect();
        let colour = if two {
            visuals.text_color()
        } else {
            points.iter().find(|p| p.mover == Player(seat as u8)).map_or(visuals.text_color(), |p| p.swatch.0)
        };
        painter.add(egui::Shape::line(own, egui::Stroke::new(1.5, colour)));
    }
    for p in points {
        let swatch = p.swatch;
        let at = egui::pos2(x(p.ply), y(value(p)));
        painter.circle(at, 3.0, swatch.0, egui::Stroke::new(1.0, swatch.1));
        if p.mistake {
            painter.circle_stroke(at, 6.0, egui::Stroke::new(2.0, MISTAKE));
        }
    }
    let nearest = |pos: egui::Pos2| {
        let ply = ((pos.x - inner.left()) / inner.width() * n as f32).round().max(0.0) as usize;
        points.get(ply.min(points.len() - 1))
    };
    if let Some(pos) = response.hover_pos()
        && let Some(p) = nearest(pos)
    {
        let name = model.game().player_name(p.mover);
        let mistake = if p.mistake { " — then a mistake" } else { "" };
        response.clone().on_hover_text(format!(
            "After {} moves: {name} to move, win rate {:.0}%{mistake}",
            p.ply,
            p.win_rate * 100.0
        ));
    }
    if response.clicked() {
        return response.interact_pointer_pos().and_then(nearest).map(|p| p.ply);
    }
    None
}
