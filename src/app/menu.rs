//! The start screen (egui): the game, its options and who plays each seat, remembered per entry
//! between launches ([`Settings`]); Start, Resume (the game Menu left), Load… (the data folder's
//! games) and Open… (a file anywhere: the system's file dialog, or the browser's file chooser).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::flow::Screen;
use super::flow::Status;
use super::games::{AppGame, ForEachGame, each_game};
use super::learn::Learning;
use super::load_dialog::LoadDialog;
use super::open_file::{Dialogs, PendingOpen};
use super::session::OpenRecord;
use super::session::Suspended;
use super::settings::{EntrySettings, SeatChoice, Settings};
use super::setup::{GameOptions, Setup};
use super::ui::{UiRects, confirm_drop, root_ui};
use crate::ai::Level;
use crate::ai::Seat;
use crate::rules::record::Record;

/// One entry of the start screen's game list, whatever its game type: built from the registry.
struct Entry {
    /// Its name in the list ("Blokus Trigon Two-Player").
    name: &'static str,
    /// The game and the options it starts with; the options rows edit them.
    game: GameOptions,
    /// The seats' names ([`AppGame::seat_names`]).
    seats: &'static [&'static str],
    /// Two lines on the game ([`AppGame::summary`]).
    summary: &'static str,
    /// The options rows ([`AppGame::options_ui`]), on the options as JSON.
    options_ui: fn(&mut egui::Ui, &mut serde_json::Value),
    /// Each seat's choice.
    choices: Vec<SeatChoice>,
}

/// A new game's seats: the first a person's, the others AI level 3.
fn default_seats(n: usize) -> Vec<SeatChoice> {
    (0..n).map(|k| SeatChoice { ai: k > 0, level: 3 }).collect()
}

/// The options rows of game type `G`, on its options as JSON.
fn options_ui<G: AppGame>(ui: &mut egui::Ui, value: &mut serde_json::Value) {
    let mut options: G::Options = serde_json::from_value(value.clone()).unwrap_or_default();
    let before = options.clone();
    G::options_ui(ui, &mut options);
    if options != before {
        *value = serde_json::to_value(&options).expect("options serialise");
    }
}

/// The start screen's choices: the entries of the game list, each with its own options and seats,
/// and the chosen one.
#[derive(Resource)]
pub struct Choices {
    entries: Vec<Entry>,
    /// The chosen entry.
    game: usize,
}

impl Choices {
    /// Every entry of the registry, with the choices `settings` remember (an option or seat that no
    /// longer fits its game is replaced by the default).
    pub fn with_settings(settings: &Settings) -> Choices {
        struct Entries<'a>(Vec<Entry>, &'a Settings);
        impl ForEachGame for Entries<'_> {
            fn game<G: AppGame>(&mut self) {
                for (name, options) in G::menu_entries() {
                    let kept = self.1.entries.get(name);
                    let mut game = GameOptions::of::<G>(&options);
                    if let Some(kept) = kept
                        && let Ok(options) = serde_json::from_value::<G::Options>(kept.options.clone())
                        && G::new(&options).is_ok()
                    {
                        game = GameOptions::of::<G>(&options);
                    }
                    let seats = G::seat_names(&options);
                    let mut choices = default_seats(seats.len());
                    if let Some(kept) = kept {
                        for (choice, kept) in choices.iter_mut().zip(&kept.seats) {
                            if Level::new(kept.level).is_ok() {
                                *choice = *kept;
                            }
                        }
                    }
                    self.0.push(Entry {
                        name,
                        game,
                        seats,
                        summary: G::summary(&options),
                        options_ui: options_ui::<G>,
                        choices,
                    });
                }
            }
        }
        let mut entries = Entries(Vec::new(), settings);
        each_game(&mut entries);
        let entries = entries.0;
        let game = settings.game.as_ref().and_then(|name| entries.iter().position(|e| e.name == name)).unwrap_or(0);
        Choices { entries, game }
    }

    /// The choices as [`Settings`] keep them, with the rest (the settings page's `look`, online
    /// play's seats) as `kept` has them.
    pub fn settings(&self, kept: &Settings) -> Settings {
        Settings {
            look: kept.look,
            online: kept.online.clone(),
            game: Some(self.entries[self.game].name.to_string()),
            entries: self
                .entries
                .iter()
                .map(|e| {
                    (e.name.to_string(), EntrySettings { options: e.game.options.clone(), seats: e.choices.clone() })
                })
                .collect(),
        }
    }

    /// The names of the entries, in the list's order.
    pub fn names(&self) -> Vec<&'static str> {
        self.entries.iter().map(|e| e.name).collect()
    }

    /// Chooses the entry named `name`; false when there is none.
    pub fn choose(&mut self, name: &str) -> bool {
        match self.entries.iter().position(|e| e.name == name) {
            Some(k) => {
                self.game = k;
                true
            }
            None => false,
        }
    }

    /// The chosen entry's game id, options and seats' names (Play online's Create).
    pub fn chosen(&self) -> (String, serde_json::Value, &'static [&'static str]) {
        let entry = &self.entries[self.game];
        (entry.game.game.clone(), entry.game.options.clone(), entry.seats)
    }

    /// The chosen entry's name in the list.
    pub fn chosen_name(&self) -> &'static str {
        self.entries[self.game].name
    }

    /// The chosen entry's seat choices, to change.
    pub fn seats_mut(&mut self) -> &mut Vec<SeatChoice> {
        &mut self.entries[self.game].choices
    }

    /// The chosen entry's game and options, to change.
    pub fn game_mut(&mut self) -> &mut GameOptions {
        &mut self.entries[self.game].game
    }

    /// The [`Setup`] that Start begins.
    pub fn setup(&self) -> Setup {
        let entry = &self.entries[self.game];
        let seat = |c: &SeatChoice| match (c.ai, Level::new(c.level)) {
            (true, Ok(level)) => Seat::Ai(level),
            _ => Seat::Human,
        };
        Setup { game: entry.game.clone(), seats: entry.choices.iter().map(seat).collect() }
    }
}

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
    ctx.all_styles_mut(|style| {
        use egui::{FontFamily::Proportional, FontId, TextStyle};
        style.text_styles.insert(TextStyle::Heading, FontId::new(24.0, Proportional));
        style.text_styles.insert(TextStyle::Body, FontId::new(15.0, Proportional));
        style.text_styles.insert(TextStyle::Button, FontId::new(15.0, Proportional));
        style.text_styles.insert(TextStyle::Small, FontId::new(12.5, Proportional));
        style.spacing.item_spacing = egui::vec2(8.0, 7.0);
        style.spacing.button_padding = egui::vec2(10.0, 5.0);
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
                ui.add_space((ui.available_height() - 620.0).max(0.0) / 2.0);
                ui.label(egui::RichText::new("triboard").size(44.0).strong());
                ui.label(egui::RichText::new("abstract strategy games on triangle boards").size(16.0).weak());
                ui.add_space(20.0);
                setup_form(ui, &mut choices);
                ui.add_space(18.0);
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
                // A share link or file that could not be opened says why here.
                if status.error {
                    ui.label(egui::RichText::new(&status.text).color(egui::Color32::from_rgb(0xff, 0x7a, 0x6a)));
                    ui.add_space(6.0);
                }
                ui.label(egui::RichText::new(choices.entries[choices.game].summary).weak());
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
        match confirm_drop(
            ctx,
            &mut rects,
            "Drop the game you left?",
            &what,
            "Resume brings it back; Start or Open drops it.",
            "Drop it",
        ) {
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
