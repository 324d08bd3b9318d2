//! The move list: the game's turns in rows of [`AppGame::turns_per_row`], each row numbered (a
//! round of turns, as chess numbers its moves), each turn in its mover's column with its mover's
//! colour. A turn of several plies (Tri-It-Out's capture and re-placement, Trisq's two pieces,
//! TriCore's drives) stays in one cell. The list holds the whole line, the moves ahead of a
//! reviewed position greyed; the turn shown stands out; a click on a turn shows the position
//! after it (review); a move the analysis marked a mistake carries a red "?" and says why on hover.

use bevy_egui::egui;

use crate::app::games::{AppGame, Swatch};
use crate::app::model::Model;
use crate::app::palette::mistake;
use crate::app::ui::stone;

/// One turn of the list: its mover's colour and its plies' texts.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    /// The mover's colour.
    pub swatch: Swatch,
    /// The plies' texts in order ([`AppGame::list_text`]).
    pub plies: Vec<String>,
    /// The plies in full notation where a label is shorter (Trigon), for the hover.
    pub full: Vec<String>,
    /// The ply of the turn's first move (moves before it in the line).
    pub first: usize,
    /// What the analysis says of each ply it marked a mistake: "c3: win rate 62% → 18%, better d4".
    pub mistakes: Vec<String>,
}

impl Turn {
    /// The moves played once the turn is over: the position a click on it shows.
    pub fn end(&self) -> usize {
        self.first + self.plies.len()
    }
}

/// The turns of `model`'s whole line ([`Model::line`]): a turn ends where the rules say one does
/// ([`crate::rules::Game::is_turn_boundary`]).
pub fn turns<G: AppGame>(model: &Model<G>) -> Vec<Turn> {
    let mut replay = model.start().clone();
    let mut turns: Vec<Turn> = Vec::new();
    let mut open = false;
    let analysed = model.analysed();
    for (ply, mv) in model.line().into_iter().enumerate() {
        let swatch = G::mover_swatch(&replay);
        let text = G::list_text(&replay, mv);
        let full = replay.move_text(mv);
        let mistake = analysed.get(ply).filter(|a| a.mistake).map(|a| {
            let kept = a.kept.map_or("?".to_string(), |k| format!("{:.0}%", k * 100.0));
            let best = replay.parse_move(&a.best).map_or(a.best.clone(), |b| replay.move_text(b));
            format!("{full}: a mistake, win rate {:.0}% to {kept}; better {best}", a.win_rate * 100.0)
        });
        replay.play_unchecked(mv);
        match turns.last_mut() {
            Some(turn) if open => {
                turn.plies.push(text);
                turn.full.push(full);
                turn.mistakes.extend(mistake);
            }
            _ => turns.push(Turn {
                swatch,
                plies: vec![text],
                full: vec![full],
                first: ply,
                mistakes: mistake.into_iter().collect(),
            }),
        }
        open = !replay.is_turn_boundary();
    }
    turns
}

/// The rows of the list: `(number, turns)`, `per_row` turns a row ([`AppGame::turns_per_row`]: a
/// round, so each column is one seat's), numbered from 1.
pub fn rows(turns: &[Turn], per_row: usize) -> Vec<(usize, &[Turn])> {
    turns.chunks(per_row.max(1)).enumerate().map(|(k, group)| (k + 1, group)).collect()
}

/// The space between two rows of the list, in points.
const ROW_SPACING: f32 = 4.0;

/// Draws the list, scrolled to its end (in review, to the turn shown). A round too wide for the
/// panel (Trigon's four colours) takes two lines, numbered on its first. Returns the ply a click
/// asks to show (the end of the clicked turn).
pub fn move_list<G: AppGame>(ui: &mut egui::Ui, model: &Model<G>) -> Option<usize> {
    let turns = turns(model);
    let round = model.game().turns_per_row().max(1);
    // The number's column is about 28 points; the scroll bar takes some 12.
    let column = |per_line: usize| (ui.available_width() - 40.0 - per_line as f32 * 10.0) / per_line as f32;
    let mut per_line = round;
    while per_line > 1 && column(per_line) < 84.0 {
        per_line = per_line.div_ceil(2);
    }
    let width = column(per_line).max(48.0);
    let rounds = rows(&turns, round);
    let shown = model.moves().len();
    let mut clicked = None;
    // The list's height a whole number of rows (less the last row's spacing), so the list kept at
    // its end shows no half row at its top.
    let row = ui.text_style_height(&egui::TextStyle::Body).max(ui.text_style_height(&egui::TextStyle::Monospace));
    let pitch = row + ROW_SPACING;
    let height = (((ui.available_height() + ROW_SPACING) / pitch).floor().max(1.0) * pitch - ROW_SPACING).max(row);
    let area = egui::ScrollArea::vertical().auto_shrink([false, false]).max_height(height);
    area.stick_to_bottom(!model.review()).show(ui, |ui| {
        let grid = egui::Grid::new("moves").num_columns(per_line + 1).min_col_width(20.0);
        grid.spacing([10.0, ROW_SPACING]).striped(true).show(ui, |ui| {
            for (number, group) in rounds {
                for (line, part) in group.chunks(per_line).enumerate() {
                    let label = if line == 0 { format!("{number}.") } else { String::new() };
                    ui.label(egui::RichText::new(label).weak());
                    for turn in part {
                        let current = turn.end() == shown || (turn.first < shown && shown < turn.end());
                        let ahead = turn.first >= shown;
                        // A long turn wraps inside its column rather than pushing the panel wider.
                        ui.horizontal_top(|ui| {
                            ui.set_max_width(width);
                            stone(ui, turn.swatch, 6.0);
                            let mut text = egui::RichText::new(turn.plies.join(" ")).monospace();
                            if current {
                                text = text.strong().underline();
                            } else if ahead {
                                text = text.weak();
                            }
                            let label = ui.add(egui::Label::new(text).wrap().sense(egui::Sense::click()));
                            if !turn.mistakes.is_empty() {
                                ui.label(egui::RichText::new("?").strong().color(mistake()))
                                    .on_hover_text(turn.mistakes.join("\n"));
                            }
                            let mut hover = "Show the position after this turn".to_string();
                            if turn.full != turn.plies {
                                hover = format!("{}\n{hover}", turn.full.join(" "));
                            }
                            if !turn.mistakes.is_empty() {
                                hover = format!("{}\n{hover}", turn.mistakes.join("\n"));
                            }
                            let label = label.on_hover_cursor(egui::CursorIcon::PointingHand).on_hover_text(hover);
                            if current && model.review() && !ui.clip_rect().contains_rect(label.rect) {
                                label.scroll_to_me(None);
                            }
                            if label.clicked() {
                                clicked = Some(turn.end());
                            }
                        });
                    }
                    ui.end_row();
                }
            }
        });
    });
    clicked
}
