//! The lesson's part of the side panel (Learn, [`crate::app::learn`]): it takes the place of the
//! game's buttons and the move list, so that the whole lesson fits the smallest window (1024×640):
//! its controls where the game's buttons stand, never moving, and its text below, scrolling.

use bevy_egui::egui;

use super::action::PanelAction;
use crate::app::learn::{Learning, LessonAction};
use crate::app::ui::{GREEN, RED, UiRects};

/// The lesson's title and step, and Back / Try again / Next / Leave (named in `rects` "lesson
/// back", "lesson retry", "lesson next", "lesson leave"); their place never changes within a lesson.
pub fn lesson_controls<M>(
    ui: &mut egui::Ui,
    learning: &Learning,
    rects: &mut UiRects,
    actions: &mut Vec<PanelAction<M>>,
) {
    let steps = learning.lesson.steps.len();
    ui.add(egui::Label::new(egui::RichText::new(&learning.lesson.title).strong()).truncate())
        .on_hover_text(&learning.lesson.title);
    ui.label(egui::RichText::new(format!("Step {} of {steps}", learning.step + 1)).weak());
    ui.horizontal_wrapped(|ui| {
        let mut press = |ui: &mut egui::Ui, name: &'static str, text: &str, enabled: bool, action: LessonAction| {
            let response = ui.add_enabled(enabled, egui::Button::new(text));
            rects.set(name, response.rect);
            if response.clicked() {
                actions.push(PanelAction::Lesson(action));
            }
        };
        press(ui, "lesson back", "◀ Back", learning.step > 0, LessonAction::Back);
        press(ui, "lesson retry", "Try again", true, LessonAction::Retry);
        press(ui, "lesson next", "Next ▶", learning.step + 1 < steps, LessonAction::Next);
        press(ui, "lesson leave", "Leave", true, LessonAction::Leave);
    });
}

/// What the step asks and what was said of the answer, in the room left, scrolling where it is
/// longer; its rectangle on screen goes to `rects` as "lesson text".
pub fn lesson_text(ui: &mut egui::Ui, learning: &Learning, rects: &mut UiRects) {
    let steps = learning.lesson.steps.len();
    let shown = egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        ui.add(egui::Label::new(egui::RichText::new(&learning.lesson.steps[learning.step].text).size(16.0)).wrap());
        ui.add_space(8.0);
        match &learning.feedback {
            Some((true, text)) => {
                // The lessons' explanations mostly begin "Right: …"; that word is the heading.
                let text = text.strip_prefix("Right: ").or_else(|| text.strip_prefix("Right. ")).unwrap_or(text);
                ui.label(egui::RichText::new("Right!").strong().color(GREEN));
                ui.add(egui::Label::new(text).wrap());
                if learning.step + 1 == steps {
                    ui.add_space(6.0);
                    ui.label(egui::RichText::new("That was the last step: Leave, then Start a game.").strong());
                }
            }
            Some((false, text)) => {
                ui.label(egui::RichText::new("Not this one").strong().color(RED));
                ui.add(egui::Label::new(text.as_str()).wrap());
            }
            None => {
                ui.label(egui::RichText::new("Make the move on the board.").weak());
            }
        }
    });
    rects.set("lesson text", shown.inner_rect);
}
