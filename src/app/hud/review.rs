//! The side panel's tools and review: Hint, Analyze and Show thinking, the review buttons
//! (⏮ ◀ ▶ ⏭, Next mistake), and in review the move shown with what the analysis says of it.

use bevy_egui::egui;

use super::action::{PanelAction, PanelIn};
use crate::app::flow::{Command, ReviewTo};
use crate::app::games::AppGame;
use crate::app::model::Model;
use crate::app::ui::UiRects;

/// The player's tools, in two rows that never change within a game: Hint, Analyze and Show
/// thinking; then review's ⏮ ◀ ▶ ⏭ and the previous and next mistake.
pub(super) fn tool_buttons<G: AppGame>(
    ui: &mut egui::Ui,
    input: &PanelIn<G>,
    rects: &mut UiRects,
    actions: &mut Vec<PanelAction<G::Move>>,
) {
    let model = input.model;
    ui.horizontal(|ui| {
        let may_hint = model.person_may_move().is_ok() && input.searching.is_none() && input.tools();
        let hint = ui
            .add_enabled(may_hint, egui::Button::new("Hint"))
            .on_hover_text("The search's best move for you, drawn on the board, with its win rate (H)");
        rects.set("hint", hint.rect);
        if hint.clicked() {
            actions.push(PanelAction::Order(Command::Hint));
        }
        let analyze = ui
            .add_enabled_ui(model.line_len() > 0 && input.analyzing.is_none() && input.tools(), |ui| {
                ui.menu_button("Analyze…", |ui| {
                    for (name, simulations) in crate::ai::analysis::BUDGETS {
                        let text =
                            format!("{}{}: {simulations} simulations a position", name[..1].to_uppercase(), &name[1..]);
                        let choice = ui.button(text);
                        rects.set(name, choice.rect);
                        if choice.clicked() {
                            actions.push(PanelAction::Analyze(simulations));
                        }
                    }
                })
            })
            .inner
            .response
            .on_hover_text("Search every position of the game: a win-rate graph, the mistakes and better moves");
        rects.set("analyze", analyze.rect);
        let mut show = input.show_thinking;
        let thinking = ui
            .add_enabled(input.tools(), egui::Checkbox::new(&mut show, "Show thinking"))
            .on_hover_text("While a search runs, light the moves it looks at, the more the brighter (T)");
        rects.set("show thinking", thinking.rect);
        if thinking.changed() {
            actions.push(PanelAction::ToggleThinking);
        }
    });
    ui.horizontal(|ui| {
        let now = model.moves().len();
        let end = model.line_len();
        let mut step = |ui: &mut egui::Ui, name: &'static str, text: &str, enabled: bool, hover: &str, to: ReviewTo| {
            let response = ui.add_enabled(enabled, egui::Button::new(text)).on_hover_text(hover);
            rects.set(name, response.rect);
            if response.clicked() {
                actions.push(PanelAction::Order(Command::Review(to)));
            }
        };
        step(ui, "review start", "⏮", now > 0, "The start (Home)", ReviewTo::Start);
        step(ui, "review back", "◀", now > 0, "One move back (Left arrow)", ReviewTo::Back);
        step(ui, "review forward", "▶", now < end, "One move on (Right arrow)", ReviewTo::Forward);
        step(ui, "review end", "⏭", now < end || model.review(), "Back to the game (End)", ReviewTo::End);
        let any = model.review_target(ReviewTo::NextMistake).is_some();
        step(
            ui,
            "previous mistake",
            "◀ ?",
            any,
            "The previous mistake (a move marked ? by the analysis); from the first, the last (P)",
            ReviewTo::PreviousMistake,
        );
        step(
            ui,
            "next mistake",
            "? ▶",
            any,
            "The next mistake (a move marked ? by the analysis); from the last, the first (N)",
            ReviewTo::NextMistake,
        );
    });
}

/// In review: which move is shown, Play from here, and what the analysis says of the move played
/// next, in at most `rows` lines.
pub(super) fn review_line<G: AppGame>(
    ui: &mut egui::Ui,
    input: &PanelIn<G>,
    rows: usize,
    actions: &mut Vec<PanelAction<G::Move>>,
) {
    let model = input.model;
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new(format!("Move {} of {}", model.moves().len(), model.line_len())).strong());
        // Not in an online game (the server keeps every move) nor in one of the server's
        // players opened to review: nobody here plays on.
        if input.local() {
            let play = ui.button("Play from here").on_hover_text(
                "Play on from this position; the moves that followed stay as Redo, and as a variation once another move is played",
            );
            if play.clicked() {
                actions.push(PanelAction::Order(Command::PlayFromHere));
            }
        }
    });
    let text = review_text(model);
    let font = egui::TextStyle::Body.resolve(ui.style());
    let mut job =
        egui::text::LayoutJob::simple(text.clone(), font, ui.visuals().weak_text_color(), ui.available_width());
    job.wrap.max_rows = rows.max(1);
    ui.add(egui::Label::new(job).selectable(false)).on_hover_text(text);
}

/// What review says of the move played next from the position shown: its text, and with an
/// analysis whether it was a mistake, the better move, and the mover's win rate before and after,
/// in that order, so a short window that cuts the line cuts the numbers, not the better move
/// ("better …" was cut at 1024×640).
pub fn review_text<G: AppGame>(model: &Model<G>) -> String {
    let Some(next) = model.redo().last().copied() else { return "The last position of the line".to_string() };
    let game = model.game();
    let mover = game.to_move().map_or("", |p| game.player_name(p));
    let mut text = format!("Next: {mover} {}", game.move_text(next));
    let (_, better, mistake) = crate::app::tools::review_marks(model);
    if let Some(a) = model.analysed().get(model.moves().len()) {
        if mistake {
            text += ", a mistake";
        }
        if let Some(better) = better {
            text += &format!("; better {}", game.move_text(better));
        }
        let kept = a.kept.map_or("?".to_string(), |k| format!("{:.0}%", k * 100.0));
        text += &format!(" (win rate {:.0}% to {kept})", a.win_rate * 100.0);
    }
    text
}
