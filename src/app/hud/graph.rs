//! The win-rate graph of an analysed game (*Analyze game*), under the side panel's status: one
//! point per move, at the mover's win rate *after* it (as KaTrain and Lizzie plot, so a blunder's
//! drop shows on the blunder itself), from the start position's at the left; two seats: the first
//! seat's, as one line. Mistakes ringed in red; the move shown in review marked; a 50 % line and
//! the axis's labels; a click on a point shows the position where that move was played. It folds
//! away (Hide), and shrinks on a short window so the move list keeps [`LIST_ROOM`]. While the
//! analysis runs, its progress and Cancel stand there instead.

use bevy_egui::egui;

use super::action::PanelAction;
use crate::app::flow::{Command, ReviewTo};
use crate::app::games::{AppGame, Swatch};
use crate::app::model::Model;
use crate::app::palette::mistake;
use crate::rules::Player;

/// The graph's height in egui points at most; on a short window it shrinks (to [`GRAPH_MIN`]) so
/// that the move list below keeps [`LIST_ROOM`].
pub const GRAPH_HEIGHT: f32 = 86.0;
/// The graph's smallest height, in egui points.
pub const GRAPH_MIN: f32 = 40.0;
/// The height the graph leaves the move list, in egui points, while it can.
pub const LIST_ROOM: f32 = 140.0;
/// Below this room for the move list (egui points, about four rows) the graph starts folded.
pub const LIST_MIN: f32 = 110.0;

/// One point of the graph: the position after `ply` moves, where move `ply + 1` was played.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The moves played before the position.
    pub ply: usize,
    /// The seat to move there.
    pub mover: Player,
    /// The mover's win rate there, before the move, in `[0, 1]`.
    pub win_rate: f32,
    /// The mover's win rate after the move, in `[0, 1]`: the analysis's value of the move played
    /// (its `kept`), else the next position's seen from the mover (two seats), else `win_rate`.
    pub after: f32,
    /// The move played there was a mistake.
    pub mistake: bool,
    /// The mover's colour ([`AppGame::mover_swatch`]).
    pub swatch: Swatch,
}

/// The graph's points: one per analysed move the game's line still shares with the analysis.
pub fn points<G: AppGame>(model: &Model<G>) -> Vec<Point> {
    let analysed = model.analysed();
    let mut replay = model.start().clone();
    let two = model.game().num_players() == 2;
    let mut out: Vec<Point> = Vec::with_capacity(analysed.len());
    for (ply, (mv, a)) in model.line().into_iter().zip(analysed).enumerate() {
        let Some(mover) = replay.to_move() else { break };
        let swatch = G::mover_swatch(&replay);
        let next = analysed.get(ply + 1).map(|n| n.win_rate);
        replay.play_unchecked(mv);
        // The next position's value, seen from this mover: two seats, the other to move.
        let from_next = next.filter(|_| two && replay.to_move().is_some_and(|p| p != mover)).map(|w| 1.0 - w);
        let after = a.kept.or(from_next).unwrap_or(a.win_rate);
        out.push(Point { ply, mover, win_rate: a.win_rate, after, mistake: a.mistake, swatch });
    }
    out
}

/// The graph's title: whose win rate the curve is. Two seats: the first seat's throughout, named
/// by its colour at the end of the line, whatever position review shows (Trike's swap changes
/// the colour a seat plays, and the curve does not change side with it); more seats: each
/// mover's.
pub fn caption<G: AppGame>(model: &Model<G>) -> String {
    if model.game().num_players() != 2 {
        return "each mover's win rate after its move".to_string();
    }
    let (first, last) = (model.start().player_name(Player(0)), model.line_end().player_name(Player(0)));
    if first == last {
        format!("{last}'s win rate after each move")
    } else {
        format!("{last}'s win rate after each move (the first seat: {first} at the start)")
    }
}

/// The analysis's progress with Cancel while it runs, else the graph if the game has an
/// analysis; nothing otherwise.
pub fn graph_area<G: AppGame>(
    ui: &mut egui::Ui,
    model: &Model<G>,
    analyzing: Option<(usize, f32)>,
    folded: &mut Option<bool>,
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
    let caption = caption(model);
    // Folded by hand, or else where the move list would keep less than LIST_MIN below it.
    let caption_row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
    let cramped = ui.available_height() - caption_row - GRAPH_MIN < LIST_MIN;
    let is_folded = folded.unwrap_or(cramped);
    ui.horizontal(|ui| {
        ui.add(egui::Label::new(egui::RichText::new(caption).small().weak()).truncate());
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let fold = if is_folded { "Show graph" } else { "Hide" };
            if ui.small_button(fold).on_hover_text("Fold the graph away, or bring it back").clicked() {
                *folded = Some(!is_folded);
            }
        });
    });
    if is_folded {
        return;
    }
    let height = (ui.available_height() - LIST_ROOM).clamp(GRAPH_MIN, GRAPH_HEIGHT);
    if let Some(ply) = graph(ui, model, &points, height) {
        actions.push(PanelAction::Order(Command::Review(ReviewTo::Ply(ply))));
    }
}

/// The graph's x for the position after `moves` moves: 0 is the start, move k's point is at k.
fn shown_x(moves: usize, n: usize) -> usize {
    // In review the move shown is the next one, `moves + 1`; at the line's end, the last.
    (moves + 1).min(n)
}

/// Draws the graph of `points`, `height` points high; returns the ply of a clicked point (the
/// position where its move was played).
fn graph<G: AppGame>(ui: &mut egui::Ui, model: &Model<G>, points: &[Point], height: f32) -> Option<usize> {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(ui.available_width(), height), egui::Sense::click());
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    painter.rect_filled(rect, 4.0, visuals.extreme_bg_color);
    // Room at the left for the axis's labels.
    let inner = egui::Rect::from_min_max(rect.min + egui::vec2(34.0, 7.0), rect.max - egui::vec2(8.0, 7.0));
    let n = points.len();
    let x = |k: usize| inner.left() + inner.width() * k as f32 / n.max(1) as f32;
    let y = |rate: f32| inner.bottom() - inner.height() * rate.clamp(0.0, 1.0);
    let weak = visuals.weak_text_color();
    let grid = egui::Stroke::new(1.0, weak.gamma_multiply(0.5));
    let font = egui::FontId::proportional(10.0);
    for (rate, label) in [(1.0, "100%"), (0.5, "50%"), (0.0, "0%")] {
        let at = y(rate);
        painter.text(egui::pos2(rect.left() + 4.0, at), egui::Align2::LEFT_CENTER, label, font.clone(), weak);
        if rate == 0.5 {
            painter.line_segment([egui::pos2(inner.left(), at), egui::pos2(inner.right(), at)], grid);
        }
    }
    let two = model.game().num_players() == 2;
    let seen = |p: &Point, rate: f32| if two && p.mover != Player(0) { 1.0 - rate } else { rate };
    // The move shown in review (the next one from the position shown).
    if model.review() || model.moves().len() < n {
        let at = x(shown_x(model.moves().len(), n));
        painter.line_segment(
            [egui::pos2(at, rect.top()), egui::pos2(at, rect.bottom())],
            egui::Stroke::new(2.0, visuals.selection.bg_fill),
        );
    }
    // One line per seat (two seats: the first seat's win rate throughout, from the start).
    let seats = if two { 1 } else { model.game().num_players() };
    for seat in 0..seats {
        let start = points.first().filter(|_| two).map(|p| egui::pos2(x(0), y(seen(p, p.win_rate))));
        let own: Vec<egui::Pos2> = start
            .into_iter()
            .chain(
                points
                    .iter()
                    .filter(|p| two || p.mover == Player(seat as u8))
                    .map(|p| egui::pos2(x(p.ply + 1), y(seen(p, p.after)))),
            )
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
        let at = egui::pos2(x(p.ply + 1), y(seen(p, p.after)));
        painter.circle(at, 3.0, swatch.0, egui::Stroke::new(1.0, swatch.1));
        if p.mistake {
            painter.circle_stroke(at, 6.0, egui::Stroke::new(2.0, mistake()));
        }
    }
    // The nearest move's point (0: the start, which shows the first move).
    let nearest =
        |pos: egui::Pos2| ((pos.x - inner.left()) / inner.width() * n as f32).round().clamp(0.0, n as f32) as usize;
    if let Some(pos) = response.hover_pos() {
        let k = nearest(pos);
        let text = match k.checked_sub(1).and_then(|i| points.get(i)) {
            Some(p) => format!(
                "Move {k}, {}: win rate {:.0}% before, {:.0}% after{}",
                model.game().player_name(p.mover),
                p.win_rate * 100.0,
                p.after * 100.0,
                if p.mistake { " — a mistake" } else { "" }
            ),
            None => "The start".to_string(),
        };
        response.clone().on_hover_text(text);
    }
    if response.clicked() {
        return response.interact_pointer_pos().map(|pos| nearest(pos).saturating_sub(1));
    }
    None
}
