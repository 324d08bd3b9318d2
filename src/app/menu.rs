//! The start screen (egui): the game, its options and who plays each seat, remembered per entry
//! between launches ([`Settings`]); Start, Resume (the game Menu left), Load… (the data folder's
//! games) and Open… (a file anywhere: the system's file dialog, or the browser's file chooser).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::choices::Choices;
use super::flow::Screen;
use super::flow::Status;
use super::learn::Learning;
use super::load_dialog::LoadDialog;
use super::open_file::Dialogs;
use super::pending_open::PendingOpen;
use super::session::OpenRecord;
use super::session::Suspended;
use super::settings::Settings;
use super::setup::Setup;
use super::ui::{UiRects, confirm_drop, root_ui};
use crate::ai::Level;
use crate::rules::record::Record;

/// What waits for "Drop the game you left?" on the start screen.
enum Pending {
    Start,
    Open(Record),
    Learn(Learning),
}

/// The start screen's own state: the confirmation waiting, if any.
#[derive(Resource, Default)]
struct MenuState {
    confirm: Option<Pending>,
}

pub(super) fn plugin(app: &mut App) {
    let choices = Choices::with_settings(app.world().resource::<Settings>());
    app.insert_resource(choices)
        .init_resource::<MenuState>()
        .init_resource::<LoadDialog>()
        // Only what goes wrong on the start screen itself (a link that cannot be opened) shows there.
        .add_systems(OnEnter(Screen::Menu), |mut status: ResMut<Status>| *status = Status::default())
        .add_systems(EguiPrimaryContextPass, (style, start_screen.run_if(in_state(Screen::Menu))).chain());
}

/// Larger text and roomier spacing than egui's defaults, for every screen (the theme's colours:
/// [`crate::app::settings_page`]).
fn style(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    *done = true;
    let ctx = contexts.ctx_mut()?;
    crate::app::ui::app_style(ctx);
    // The clocks' glyphs in the font atlas from the start: a glyph first laid out in a frame can
    // miss that frame's texture (a clock once read "9: 9" for a frame).
    let style = ctx.global_style();
    let fonts = [egui::TextStyle::Monospace, egui::TextStyle::Body].map(|s| s.resolve(&style));
    ctx.fonts_mut(|f| {
        for font in fonts {
            let _ = f.layout_no_wrap("0123456789:.".to_string(), font, egui::Color32::WHITE);
        }
    });
    Ok(())
}

#[cfg_attr(target_arch = "wasm32", allow(unused_mut, unused_variables))]
fn start_screen(
    mut contexts: EguiContexts,
    (mut choices, mut settings): (ResMut<Choices>, ResMut<Settings>),
    (mut setup, mut suspended): (ResMut<Setup>, ResMut<Suspended>),
    (mut state, mut load): (ResMut<MenuState>, ResMut<LoadDialog>),
    (mut status, mut rects, mut page): (ResMut<Status>, ResMut<UiRects>, ResMut<super::settings_page::SettingsPage>),
    (mut pending, mut dialogs, mut lobby): (ResMut<PendingOpen>, Dialogs, ResMut<super::online::lobby::Lobby>),
    (mut commands, mut next): (Commands, ResMut<NextState<Screen>>),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = root_ui(ctx, "menu");
    let (mut start, mut resume, mut open_load, mut learn, mut open_file) = (false, false, false, false, false);
    egui::CentralPanel::default().show(&mut root, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                // A short window (1024×640 gives some 570 points) keeps its last line in view with
                // a smaller title and less room between the parts.
                let short = ui.available_height() < 620.0;
                let (title, gap) = if short { (32.0, 8.0) } else { (44.0, 19.0) };
                ui.add_space((ui.available_height() - 620.0).max(0.0) / 2.0);
                ui.label(egui::RichText::new("triboard").size(title).strong());
                ui.label(egui::RichText::new("abstract strategy games on triangle boards").size(16.0).weak());
                ui.add_space(gap);
                setup_form(ui, &mut choices);
                ui.add_space(gap);
                // One row whose buttons never move: Resume is there, disabled, when no game was left.
                let row = 120.0 * 2.0 + 160.0 * 2.0 + 3.0 * ui.spacing().item_spacing.x;
                ui.allocate_ui_with_layout(
                    egui::vec2(row, 44.0),
                    egui::Layout::left_to_right(egui::Align::Center),
                    |ui| {
                        let open_button = ui.add(egui::Button::new("Open…").min_size(egui::vec2(120.0, 40.0)));
                        rects.set("menu open", open_button.rect);
                        open_file = open_button.on_hover_text("Open a game from a .json or .blksgf file").clicked();
                        let load_button = ui.add(egui::Button::new("Load…").min_size(egui::vec2(120.0, 40.0)));
                        rects.set("menu load", load_button.rect);
                        open_load = load_button.on_hover_text("Open a saved game of the data folder").clicked();
                        let button = egui::Button::new(egui::RichText::new("Start").size(20.0).strong())
                            .min_size(egui::vec2(160.0, 40.0));
                        let pressed = ui.add(button);
                        rects.set("start", pressed.rect);
                        start = pressed.clicked();
                        let kept = suspended.game.as_ref();
                        let hover = kept.map_or("No game was left with Menu".to_string(), |g| {
                            format!("Back to {} as you left it ({} moves)", g.name, g.moves)
                        });
                        let resume_button = ui
                            .add_enabled(kept.is_some(), egui::Button::new("Resume").min_size(egui::vec2(160.0, 40.0)))
                            .on_hover_text(hover)
                            .on_disabled_hover_text("No game was left with Menu");
                        rects.set("resume", resume_button.rect);
                        resume = resume_button.clicked();
                    },
                );
                let name = choices.entries[choices.game].name;
                let teaches = Learning::teaches(&choices.entries[choices.game].game.game);
                // One row under the first, as wide: it stays in view on a 1024×640 window.
                let third = (row - 2.0 * ui.spacing().item_spacing.x) / 3.0;
                ui.allocate_ui_with_layout(
                    egui::vec2(row, 36.0),
                    egui::Layout::left_to_right(egui::Align::Center),
                    |ui| {
                        let learn_text =
                            if name.chars().count() <= 12 { format!("Learn {name}") } else { "Learn this game".into() };
                        let learn_button = ui
                            .add_enabled(teaches, egui::Button::new(learn_text).min_size(egui::vec2(third, 32.0)))
                            .on_hover_text(format!(
                                "A guided lesson of {name}: a few positions, each teaching one rule; you make the move"
                            ));
                        rects.set("learn", learn_button.rect);
                        learn = learn_button.clicked();
                        let held = settings.online.games.len();
                        let online_button = ui
                            .add(egui::Button::new("Play online…").min_size(egui::vec2(third, 32.0)))
                            .on_hover_text(format!(
                                "Play a friend over the network: create a game and send its link, or join one \
                                 (your games: {held})"
                            ));
                        rects.set("menu online", online_button.rect);
                        if online_button.clicked() {
                            lobby.open = true;
                        }
                        let settings_button = ui
                            .add(egui::Button::new("Settings…").min_size(egui::vec2(third, 32.0)))
                            .on_hover_text("Colours (colour-blind safe), theme, animation, the AI's proofs");
                        rects.set("menu settings", settings_button.rect);
                        if settings_button.clicked() {
                            page.open = true;
                        }
                    },
                );
                if let Some(online) = super::online::lobby::summary(&lobby, &settings) {
                    ui.label(egui::RichText::new(format!("{online} (Play online…)")).weak());
                }
                if let Some(kept) = &suspended.game {
                    ui.label(
                        egui::RichText::new(format!("Left with Menu: {}, {} moves", kept.name, kept.moves)).weak(),
                    );
                }
                ui.add_space(8.0);
                // A share link or file that could not be opened says why here, in the game's
                // summary's place (so the window's last line stays in view).
                if status.error {
                    ui.label(egui::RichText::new(&status.text).color(egui::Color32::from_rgb(0xff, 0x7a, 0x6a)));
                } else {
                    ui.label(egui::RichText::new(choices.entries[choices.game].summary).weak());
                }
            });
        });
    });
    if open_load {
        load.open();
    }
    if open_file {
        #[cfg(not(target_arch = "wasm32"))]
        if let Err(refused) = dialogs.ask(super::dialogs::Ask::Open) {
            *status = refused;
        }
        #[cfg(target_arch = "wasm32")]
        if let Err(e) = super::web::file_input::upload() {
            *status = Status::error(e);
        }
    }
    // A file dropped (or chosen) while the game Menu left is unfinished: asked about here.
    if let Some((_, record)) = pending.0.take() {
        state.confirm = Some(Pending::Open(record));
    }
    if let Some(record) = load.show(ctx) {
        state.confirm = Some(Pending::Open(record));
    }
    if start {
        state.confirm = Some(Pending::Start);
    }
    if learn && let Some(learning) = Learning::for_game(&choices.entries[choices.game].game.game) {
        state.confirm = Some(Pending::Learn(learning));
    }
    // Starting or opening another game drops the one Menu left: ask first when it is unfinished.
    if state.confirm.is_some() && suspended.unfinished() {
        let kept = suspended.game.as_ref().expect("unfinished");
        let what = format!("{} is unfinished: {} moves played.", kept.name, kept.moves);
        let pressed = match state.confirm {
            Some(Pending::Learn(_)) => "Learn",
            Some(Pending::Open(_)) => "Opening a game",
            _ => "Start",
        };
        let drops = format!("Resume brings it back; {pressed} drops it.");
        match confirm_drop(ctx, &mut rects, "Drop the game you left?", &what, &drops, "Drop it") {
            Some(true) => suspended.game = None,
            Some(false) => state.confirm = None,
            None => {}
        }
    }
    if !suspended.unfinished() {
        match state.confirm.take() {
            Some(Pending::Start) => {
                suspended.game = None;
                *setup = choices.setup();
                next.set(Screen::Playing);
            }
            Some(Pending::Open(record)) => {
                suspended.game = None;
                commands.insert_resource(OpenRecord(record));
            }
            Some(Pending::Learn(learning)) => {
                suspended.game = None;
                super::session::open_lesson(learning, &mut commands);
            }
            None => {}
        }
    }
    if resume && suspended.resume(&mut setup) {
        next.set(Screen::Playing);
    }
    let now = choices.settings(&settings);
    if *settings != now {
        *settings = now;
    }
    Ok(())
}

/// The form's inner height in points: the tallest entry's (Blokus Trigon: game, variant, four
/// seats), so that the buttons below stand at the same height whatever the game.
pub const FORM_HEIGHT: f32 = 270.0;

/// The form: the game list, the chosen game's options, and each seat's person or AI and level;
/// returns its rectangle (the same height for every entry, [`FORM_HEIGHT`]).
pub fn setup_form(ui: &mut egui::Ui, choices: &mut Choices) -> egui::Rect {
    let frame = egui::Frame::group(ui.style()).inner_margin(20.0).corner_radius(8.0).show(ui, |ui| {
        ui.set_width(460.0);
        ui.set_min_height(FORM_HEIGHT);
        egui::Grid::new("setup").num_columns(2).spacing([18.0, 12.0]).show(ui, |ui| {
            ui.label("Game");
            egui::ComboBox::from_id_salt("game")
                .width(270.0)
                .height(420.0)
                .selected_text(choices.entries[choices.game].name)
                .show_ui(ui, |ui| {
                    for (k, entry) in choices.entries.iter().enumerate() {
                        ui.selectable_value(&mut choices.game, k, entry.name);
                    }
                });
            ui.end_row();

            let entry = &mut choices.entries[choices.game];
            (entry.options_ui)(ui, &mut entry.game.options);
            ui.end_row();

            for (name, choice) in entry.seats.iter().zip(entry.choices.iter_mut()) {
                ui.label(*name);
                ui.horizontal(|ui| {
                    ui.radio_value(&mut choice.ai, false, "Human");
                    ui.radio_value(&mut choice.ai, true, "AI");
                    ui.add_space(6.0);
                    ui.add_enabled_ui(choice.ai, |ui| {
                        ui.label(egui::RichText::new("level").weak());
                        for level in Level::MIN..=Level::MAX {
                            ui.selectable_value(&mut choice.level, level, level.to_string());
                        }
                    });
                });
                ui.end_row();
            }
        });
    });
    frame.response.rect
}
