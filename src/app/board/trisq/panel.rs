//! Trisq's words: the start screen's summary and board size, the side panel's hint and its End
//! turn button, the rules window (with a drawing of the piece and both fillings) and the game-over
//! lines (`docs/rules/trisq.md`).

use bevy::prelude::*;
use bevy_egui::egui;

use super::art::{colour32, fill, fresh, outline};
use crate::app::flow::MoveIntent;
use crate::app::games::Swatch;
use crate::app::ui::rules_paragraph;
use crate::rules::geometry::trisq::{FILLING_H, FILLING_V};
use crate::rules::trisq::{NAMES, Trisq, TrisqMove, TrisqOptions};
use crate::rules::{Game, Outcome};

/// The start screen's two lines on the game.
pub const SUMMARY: &str = "Place one or two trapezia a turn; two of yours touching at a corner need a third touching both.\n\
     Join your two edges with a chain of pieces sharing sides to win.";

/// A colour's swatch for the side panel: 0 Red, 1 Blue.
pub fn swatch(colour: usize) -> Swatch {
    crate::app::board::lattice::swatch(fill(colour), outline(colour))
}

/// The start screen's board size.
pub fn options_ui(ui: &mut egui::Ui, options: &mut TrisqOptions) {
    ui.label("Board size");
    ui.vertical(|ui| {
        ui.add(egui::Slider::new(&mut options.size, 6..=9).suffix(" squares a side"));
        ui.label(egui::RichText::new("6–9, 8 standard").small().weak());
    });
}

/// What a person to move should do: hover and click, or place a second piece (naming the pair that
/// keeps the turn from ending), or end the turn.
pub fn hint(game: &Trisq) -> String {
    if game.first_placed().is_some() {
        match game.end_blocker() {
            Some((a, b)) => format!(
                "Place a second piece: {} and {} touch at a corner with no piece of yours along both \
                 (marked), so the turn cannot end yet.",
                game.slot_name(a),
                game.slot_name(b)
            ),
            None => "Place a second piece, or End turn (Enter).".to_string(),
        }
    } else if game.ply() == 0 {
        "Red's first turn is one piece. Hover a square: its free slots are outlined, the one nearest the \
         pointer lit. Click to place it."
            .to_string()
    } else {
        "Hover a square: its free slots are outlined, the one nearest the pointer lit. Click to place it; \
         one or two pieces a turn."
            .to_string()
    }
}

/// The turn's count of pieces, and End turn once a person has placed the first.
pub fn actions(ui: &mut egui::Ui, game: &Trisq, may_act: bool, intents: &mut Vec<MoveIntent<TrisqMove>>) {
    let Some(mover) = game.to_move() else { return };
    let name = NAMES[mover.index()];
    let placed = game.first_placed().is_some() as usize;
    let of = if game.ply() == 0 { 1 } else { 2 };
    ui.horizontal(|ui| {
        crate::app::ui::stone(ui, swatch(mover.index()), 6.0);
        ui.label(format!("{name}'s turn: {placed} of {of} piece{} placed", if of == 1 { "" } else { "s" }));
    });
    if placed == 1 && may_act {
        let blocked = game.end_blocker().is_some();
        let end = ui.button("End turn").on_hover_text(if blocked {
            "Refused now: two of your pieces touch at a corner without a bridge"
        } else {
            "Stop at one piece this turn (Enter)"
        });
        if end.clicked() {
            intents.push(MoveIntent { mv: TrisqMove::END, from_ai: false });
        }
    }
}

/// The rules window's text, with the piece and both fillings drawn.
pub fn rules(ui: &mut egui::Ui) {
    let para = rules_paragraph;
    para(
        ui,
        "Board and goal",
        "A square grid, 8×8 as standard (6–9). Red owns the top and bottom edges, Blue the left and right \
         ones. Join your two edges with a chain of your pieces, each sharing part of a side with the next.",
    );
    para(
        ui,
        "The piece",
        "A trapezium half a square high with parallel sides ¼ and ¾ of a square, one leg square to them, \
         the other at 45°. It is placed front side up: turned, never flipped.",
    );
    draw_pieces(ui);
    para(
        ui,
        "Slots",
        "Four pieces fill a square in exactly two ways, H and V, so each square has 8 slots. Once a square \
         holds a piece, only the slots of that piece's filling remain in it.",
    );
    para(
        ui,
        "A turn",
        "Red begins with one piece; after that each turn places one or two pieces of your colour. At the \
         end of your turn, any two of your pieces that touch at a single point need a third piece of \
         yours sharing a side with both (a bridge). A turn that cannot end with one piece needs a second.",
    );
    para(
        ui,
        "End",
        "The first chain joining a player's two edges wins at once, even in the middle of a turn. There \
         are no draws.",
    );
    ui.label(
        egui::RichText::new(
            "Dots mark the last turn's pieces; the piece of the turn in progress is lighter; the winning \
             chain is outlined in gold.",
        )
        .weak(),
    );
}

/// The game-over window's lines: whose chain joined which edges, and its length.
pub fn game_over(ui: &mut egui::Ui, game: &Trisq, outcome: &Outcome) {
    let Some(winner) = outcome.winners().first().map(|w| w.index()) else { return };
    let edges = if winner == 0 { "top and bottom" } else { "left and right" };
    let chain = game.winning_chain().len();
    ui.label(format!("{} joined {edges} with a chain of {chain} pieces.", NAMES[winner]));
    ui.label(egui::RichText::new("The chain is outlined in gold.").weak());
}

/// The rules window's drawing: the piece with its measures, then a square of each filling with
/// its four slots numbered.
fn draw_pieces(ui: &mut egui::Ui) {
    let unit = 92.0;
    let (response, painter) =
        ui.allocate_painter(egui::vec2(ui.available_width().min(420.0), unit + 44.0), egui::Sense::hover());
    let rect = response.rect;
    let ink = ui.visuals().text_color();
    let weak = ui.visuals().weak_text_color();
    let font = egui::FontId::proportional(13.0);
    let gap = (rect.width() - 3.0 * unit) / 4.0;
    let origin = |k: usize| egui::pos2(rect.left() + gap + k as f32 * (unit + gap), rect.top() + 4.0);
    let at = |o: egui::Pos2, (x, y): (i32, i32)| o + egui::vec2(x as f32, y as f32) * unit / 4.0;
    // The piece alone, larger: H's slot 0 at a square's scale, its sides measured.
    let o = origin(0) + egui::vec2(0.0, unit * 0.25);
    let piece = FILLING_H[0];
    painter.add(egui::Shape::convex_polygon(
        piece.iter().map(|&p| at(o, p)).collect(),
        colour32(fill(0)),
        egui::Stroke::new(1.5, colour32(outline(0))),
    ));
    painter.text(at(o, (1, 0)) + egui::vec2(4.0, -2.0), egui::Align2::CENTER_BOTTOM, "¾", font.clone(), ink);
    painter.text(at(o, (0, 2)) + egui::vec2(2.0, 2.0), egui::Align2::LEFT_TOP, "¼", font.clone(), ink);
    painter.text(at(o, (0, 1)) + egui::vec2(-4.0, 0.0), egui::Align2::RIGHT_CENTER, "½", font.clone(), ink);
    painter.text(at(o, (2, 1)) + egui::vec2(4.0, 0.0), egui::Align2::LEFT_CENTER, "45°", font.clone(), weak);
    painter.text(
        egui::pos2(o.x + unit * 0.4, rect.bottom() - 4.0),
        egui::Align2::CENTER_BOTTOM,
        "the piece",
        font.clone(),
        weak,
    );
    // The two fillings, slots 0–3 in alternating shades.
    for (k, (filling, name)) in [(FILLING_H, "filling H"), (FILLING_V, "filling V")].into_iter().enumerate() {
        let o = origin(k + 1);
        for (i, slot) in filling.iter().enumerate() {
            let fill = if i % 3 == 0 { fill(k) } else { fresh(k) };
            let corners: Vec<egui::Pos2> = slot.iter().map(|&p| at(o, p)).collect();
            let centre = corners.iter().fold(egui::Vec2::ZERO, |c, p| c + p.to_vec2()) / 4.0;
            painter.add(egui::Shape::convex_polygon(
                corners,
                colour32(fill),
                egui::Stroke::new(1.5, colour32(outline(k))),
            ));
            painter.text(
                centre.to_pos2(),
                egui::Align2::CENTER_CENTER,
                i.to_string(),
                font.clone(),
                egui::Color32::WHITE,
            );
        }
        painter.rect_stroke(
            egui::Rect::from_min_size(o, egui::vec2(unit, unit)),
            0.0,
            egui::Stroke::new(1.0, weak),
            egui::StrokeKind::Middle,
        );
        painter.text(
            egui::pos2(o.x + unit / 2.0, rect.bottom() - 4.0),
            egui::Align2::CENTER_BOTTOM,
            name,
            font.clone(),
            weak,
        );
    }
    ui.add_space(6.0);
}
