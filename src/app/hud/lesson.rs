//! The lesson's part of the side panel (Learn, [`crate::app::learn`]): in place of the move list.

use bevy_egui::egui;

use super::action::PanelAction;
use crate::app::learn::{Learning, LessonAction};
use crate::app::ui::{GREEN, RED};

/// The lesson's part of the side panel: its title, the step and what it asks, what was said of the
/// answer, and Back / Try again / Next / Leave.
pub fn lesson_panel<M>(ui: &mut egui::Ui, learning: &Learning, actions: &mut Vec<PanelAction<M>>) {
    let steps = learning.lesson.steps.len();
    ui.label(egui::RichText::new(&learning.lesson.title).strong());
    ui.label(egui::RichText::new(format!("Step {} of {steps}", learning.step + 1)).weak());
    ui.add_space(4.0);
    ui.horizontal_wrapped(|ui| {
        let mut press = |ui: &mut egui::Ui, text: &str, enabled: bool, action: LessonAction| {
            if ui.add_enabled(enabled, egui::Button::new(text)).clicked() {
                actions.push(PanelAction::Lesson(action));
            }
        };
        press(ui, "◀ Back", learning.step > 0, LessonAction::Back);
        press(ui, "Try again", true, LessonAction::Retry);
        press(ui, "Next ▶", learning.step + 1 < steps, LessonAction::Next);
        press(ui, "Leave", true, LessonAction::Leave);
    });
    ui.add_space(4.0);
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
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
}
