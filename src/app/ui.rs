//! The widgets and sizes every screen shares — panel widths, where named buttons were drawn, a
//! swatch, a title, a rules paragraph, the confirmation before a game is dropped, the colours of
//! refusals and mistakes — in one module that imports nothing else of the app (bevy_new_2d's
//! `theme`), so the board views, the start screen and the panels all use it without importing
//! each other.

use bevy::prelude::*;
use bevy_egui::egui;

/// A swatch: fill and outline.
pub type Swatch = (egui::Color32, egui::Color32);

/// A refusal or an error (the status line, the confirmation's Drop).
pub const RED: egui::Color32 = egui::Color32::from_rgb(0xff, 0x7a, 0x6a);
/// A right answer (Learn), and a connection that is up (online play).
pub const GREEN: egui::Color32 = egui::Color32::from_rgb(0x7f, 0xd0, 0x7a);
/// The colour of the move played next in the line, in review.
pub const NEXT: egui::Color32 = egui::Color32::from_rgb(0xe8, 0xe8, 0xf0);

/// The side panel's widest, in egui points (windows of 1130 logical pixels and more).
pub const SIDE_PANEL_MAX: f32 = 340.0;
/// The side panel's narrowest, in egui points: its widest row of buttons fits (content wider than a
/// panel pushes egui's panel edge into it, the thin line seen crossing it).
pub const SIDE_PANEL_MIN: f32 = 320.0;
/// Lines of the status area: its height is that of this many lines whatever the text.
pub const STATUS_LINES: usize = 3;

/// The side panel's width in egui points for a window `width` points wide: 30 % of it, between
/// [`SIDE_PANEL_MIN`] and [`SIDE_PANEL_MAX`].
pub fn side_width(width: f32) -> f32 {
    (width * 0.3).clamp(SIDE_PANEL_MIN, SIDE_PANEL_MAX)
}

/// Width of the side panel in logical window pixels (egui's width times its zoom); the board view
/// keeps the board left of it.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct PanelWidth(pub f32);

impl Default for PanelWidth {
    fn default() -> Self {
        PanelWidth(SIDE_PANEL_MAX)
    }
}

/// Width of a panel left of the board (Trigon's piece chooser) in logical window pixels, 0 when
/// there is none.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct LeftPanelWidth(pub f32);

/// Where named widgets were drawn last frame, in egui points (the start screen's `start`, `menu
/// load` and `menu open`, the side panel's buttons `undo`, `redo`, `save`, `load`, `menu`, `new
/// game`, `rematch`, `open`, `save as`, the confirmation's `keep` and `drop`): for the page's test hook (`triboard_ui_rect`) and the tests that check a
/// button stays where it is. `zoom` is egui's zoom factor: a point is `zoom` logical pixels.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct UiRects {
    /// The rectangles by name.
    pub rects: std::collections::BTreeMap<&'static str, egui::Rect>,
    /// Logical window pixels per egui point.
    pub zoom: f32,
}

impl Default for UiRects {
    fn default() -> Self {
        UiRects { rects: Default::default(), zoom: 1.0 }
    }
}

impl UiRects {
    /// Records where `name` was drawn (a change only when it moved, so change detection stays quiet).
    pub fn set(&mut self, name: &'static str, rect: egui::Rect) {
        if self.rects.get(name) != Some(&rect) {
            self.rects.insert(name, rect);
        }
    }

    /// Where `name` was drawn, in egui points.
    pub fn get(&self, name: &str) -> Option<egui::Rect> {
        self.rects.get(name).copied()
    }
}

/// `text` cut to at most `max` characters, ending in "…" when it was longer.
pub fn short(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// A round swatch of `radius`.
pub fn stone(ui: &mut egui::Ui, (fill, outline): Swatch, radius: f32) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(radius * 2.0 + 4.0, radius * 2.0 + 4.0), egui::Sense::hover());
    ui.painter().circle(rect.center(), radius, fill, egui::Stroke::new(1.5, outline));
}

/// A window's title: larger and bold.
pub(crate) fn title(text: &str) -> egui::RichText {
    egui::RichText::new(text).size(17.0).strong()
}

/// One paragraph of a rules panel: a bold title, then the wrapped text.
pub(crate) fn rules_paragraph(ui: &mut egui::Ui, title: &str, body: &str) {
    ui.label(egui::RichText::new(title).strong());
    ui.add(egui::Label::new(body).wrap());
    ui.add_space(6.0);
}

/// A root `Ui` covering the window, for panels (egui 0.36 shows panels inside a `Ui`).
pub fn root_ui(ctx: &egui::Context, id: &'static str) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        id.into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    )
}

/// A modal question before a game is dropped: `heading`, the game's state, what happens, then
/// Keep playing and `drop` (rectangles `keep` and `drop`). `Some(true)` when Drop was pressed,
/// `Some(false)` for Keep playing, Esc or a click beside it, `None` while it waits.
pub fn confirm_drop(
    ctx: &egui::Context,
    rects: &mut UiRects,
    heading: &str,
    state: &str,
    what: &str,
    drop: &str,
) -> Option<bool> {
    let mut decided = None;
    // One modal (and so one remembered size) per question's words: a question of another size
    // under a shared id was placed by the last one's size on its first frame and moved on its
    // second, away from where its buttons had been drawn. A new one gets egui's sizing pass.
    let id = egui::Id::new(("confirm drop", heading, state, what, drop));
    let modal = egui::Modal::new(id).show(ctx, |ui| {
        ui.set_width(360.0);
        ui.label(title(heading));
        ui.add_space(4.0);
        ui.label(state);
        ui.label(egui::RichText::new(what).weak());
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            let keep = ui.button("Keep playing");
            let drop = ui.button(egui::RichText::new(drop).color(RED));
            // Not where an invisible sizing pass lays them out.
            if !ui.is_sizing_pass() {
                rects.set("keep", keep.rect);
                rects.set("drop", drop.rect);
            }
            if keep.clicked() {
                decided = Some(false);
            } else if drop.clicked() {
                decided = Some(true);
            }
        });
    });
    if decided.is_none() && modal.should_close() {
        decided = Some(false);
    }
    decided
}

/// Larger text and roomier spacing than egui's defaults, for every screen (the app sets it on its
/// first frame; the panel tests draw with it too).
pub fn app_style(ctx: &egui::Context) {
    ctx.all_styles_mut(|style| {
        use egui::{FontFamily::Proportional, FontId, TextStyle};
        style.text_styles.insert(TextStyle::Heading, FontId::new(24.0, Proportional));
        style.text_styles.insert(TextStyle::Body, FontId::new(15.0, Proportional));
        style.text_styles.insert(TextStyle::Button, FontId::new(15.0, Proportional));
        style.text_styles.insert(TextStyle::Small, FontId::new(12.5, Proportional));
        style.spacing.item_spacing = egui::vec2(8.0, 7.0);
        style.spacing.button_padding = egui::vec2(10.0, 5.0);
    });
}
