//! The settings page (from the start screen's Settings… and the side panel's ⚙): the players'
//! colours (colour-blind safe by default, [`crate::app::palette`]), the theme, Trigon's shape
//! marks, the animation speed, whether the AI's proofs are said during play, Show thinking's
//! default, and Sounds. The choices are [`Look`], kept with the other [`Settings`]; [`apply`] carries a change
//! out at once (the palette repaints the pieces in place, [`ColoursInUse`]).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::palette;
use super::settings::{AnimationSpeed, Colours, Look, Settings, Theme};
use super::tools::ShowThinking;
use super::ui::{UiRects, stone};

/// The settings page is open.
#[derive(Resource, Debug, Default)]
pub struct SettingsPage {
    /// Shown over the screen in use.
    pub open: bool,
}

/// The palette in use; it changes only when the colours setting does, so the views repaint their
/// pieces (`recolour` systems, `run_if(resource_changed::<ColoursInUse>)`) only then.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColoursInUse(pub Colours);

/// The settings page and what applies its choices (called by the app's core plugin, so headless
/// tests have the palette and Show thinking too; the page and the theme need a window).
pub(super) fn plugin(app: &mut App) {
    let look = app.world().resource::<Settings>().look;
    palette::use_classic(look.colours == Colours::Classic);
    app.init_resource::<SettingsPage>()
        .insert_resource(ColoursInUse(look.colours))
        .insert_resource(ShowThinking(look.show_thinking))
        .add_systems(Update, apply.run_if(resource_changed::<Settings>));
}

/// The page and the theme, in the window.
pub(super) fn view_plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, (theme, page).chain());
}

/// Carries out a change of the colours: the palette in use, and [`ColoursInUse`] for the views.
fn apply(settings: Res<Settings>, mut in_use: ResMut<ColoursInUse>) {
    let colours = settings.look.colours;
    if in_use.0 != colours {
        palette::use_classic(colours == Colours::Classic);
        in_use.0 = colours;
    }
}

/// egui's visuals and the window's background for the theme, whenever it changes.
fn theme(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut clear: ResMut<ClearColor>,
    mut shown: Local<Option<Theme>>,
) -> Result {
    let theme = settings.look.theme;
    if *shown == Some(theme) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let (visuals, background) = match theme {
        Theme::Dark => (egui::Visuals::dark(), Color::srgb(0.13, 0.14, 0.16)),
        Theme::Light => (egui::Visuals::light(), Color::srgb(0.86, 0.86, 0.84)),
    };
    ctx.set_visuals(visuals);
    clear.0 = background;
    *shown = Some(theme);
    Ok(())
}

/// The page, over whatever screen is up, while open.
fn page(
    mut contexts: EguiContexts,
    mut open: ResMut<SettingsPage>,
    mut settings: ResMut<Settings>,
    mut show_thinking: ResMut<ShowThinking>,
    mut rects: ResMut<UiRects>,
) -> Result {
    if !open.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut look = settings.look;
    let close = settings_window(ctx, &mut look, &mut rects);
    if look != settings.look {
        if look.show_thinking != settings.look.show_thinking {
            show_thinking.0 = look.show_thinking;
        }
        settings.look = look;
    }
    if close || ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        open.open = false;
    }
    Ok(())
}

/// Draws the settings page into `ctx`, editing `look`; returns true when Close was pressed. Its
/// widgets' rectangles go to `rects` ("settings page", "settings close").
pub fn settings_window(ctx: &egui::Context, look: &mut Look, rects: &mut UiRects) -> bool {
    let mut close = false;
    let shown = egui::Window::new("Settings")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .default_width(440.0)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().max_height(ctx.content_rect().height() - 120.0).show(ui, |ui| {
                egui::Grid::new("settings").num_columns(2).spacing([18.0, 12.0]).show(ui, |ui| {
                    colours_row(ui, look);
                    ui.end_row();
                    ui.label("Theme");
                    ui.horizontal(|ui| {
                        ui.radio_value(&mut look.theme, Theme::Dark, "Dark");
                        ui.radio_value(&mut look.theme, Theme::Light, "Light");
                    });
                    ui.end_row();
                    ui.label("Blokus Trigon");
                    ui.checkbox(
                        &mut look.shape_marks,
                        "A shape on each piece: ring Blue, triangle Yellow, square Red, diamond Green",
                    )
                    .on_hover_text("The colours told apart by shape too");
                    ui.end_row();
                    ui.label("Animation");
                    ui.horizontal(|ui| {
                        ui.radio_value(&mut look.animation, AnimationSpeed::Off, "Off");
                        ui.radio_value(&mut look.animation, AnimationSpeed::Normal, "Normal");
                        ui.radio_value(&mut look.animation, AnimationSpeed::Slow, "Slow");
                    });
                    ui.end_row();
                    ui.label("The AI");
                    ui.vertical(|ui| {
                        ui.checkbox(&mut look.show_proofs, "Say what the AI has proven during play").on_hover_text(
                            "\"Solved: White loses, whatever it plays\": it gives the game away. \
                             A hint says it whatever this is.",
                        );
                        ui.checkbox(&mut look.show_thinking, "Show thinking when the app starts")
                            .on_hover_text("Light the moves a search looks at (T switches it in a game)");
                    });
                    ui.end_row();
                    sounds_row(ui, look, rects);
                    ui.end_row();
                });
            });
            ui.add_space(8.0);
            ui.vertical_centered(|ui| {
                let button = ui.add(egui::Button::new("Close").min_size(egui::vec2(120.0, 32.0)));
                rects.set("settings close", button.rect);
                close = button.clicked();
            });
        });
    if let Some(shown) = shown {
        rects.set("settings page", shown.response.rect);
    }
    close
}

/// Sounds: the switch, and where they play (the browser; the desktop build has no audio).
fn sounds_row(ui: &mut egui::Ui, look: &mut Look, rects: &mut UiRects) {
    ui.label("Sounds");
    ui.vertical(|ui| {
        let switch = ui.checkbox(&mut look.sounds, "A sound at each move, and when your clock runs under ten seconds");
        rects.set("settings sounds", switch.rect);
        if !crate::app::sound::PLAYS {
            ui.label(egui::RichText::new("Played in the browser only: the desktop app is built without audio").weak());
        }
    });
}

/// The colours' choice, with each palette's Trigon and two-player colours as swatches.
fn colours_row(ui: &mut egui::Ui, look: &mut Look) {
    ui.label("Colours");
    ui.vertical(|ui| {
        for (colours, name, hover, palette) in [
            (
                Colours::ColourBlindSafe,
                "Colour-blind safe",
                "Every game's colours stay apart under protanopia, deuteranopia and tritanopia",
                &palette::SAFE,
            ),
            (
                Colours::Classic,
                "Classic",
                "Trigon's Red and Green look alike to many colour-blind players",
                &palette::CLASSIC,
            ),
        ] {
            ui.horizontal(|ui| {
                ui.radio_value(&mut look.colours, colours, name).on_hover_text(hover);
                for rgb in palette.trigon {
                    let [dr, dg, db] = palette::shade(rgb, -0.45);
                    let swatch = (egui::Color32::from_rgb(rgb[0], rgb[1], rgb[2]), egui::Color32::from_rgb(dr, dg, db));
                    stone(ui, swatch, 7.0);
                }
            });
        }
    });
}
