//! The start screen's page ([`start_page`]): the title, the form (game, options, seats), the
//! buttons (Open…, Load…, Start, Resume; Learn, Play online…, Settings…) and the lines under them,
//! with the form of the game's options and seats ([`setup_form`]), drawn from what [`StartIn`] gives and returning what was [`Pressed`], so the menu's system
//! carries it out and the tests draw it at any window size.

use bevy_egui::egui;

use super::choices::{Choices, level_words};
use super::flow::Status;
use super::learn::Learning;
use super::ui::{UiRects, root_ui};
use crate::ai::Level;

/// What the start page is drawn from.
pub struct StartIn<'a> {
    /// The form's choices (changed by the form).
    pub choices: &'a mut Choices,
    /// The game Menu left, if any: its name and moves (Resume brings it back).
    pub kept: Option<(&'a str, usize)>,
    /// The online seats held, in a line ("2 online games, 1 where it is your move"), if any.
    pub online: Option<String>,
    /// How many online seats are held.
    pub held: usize,
    /// The status: an error (a link or file that could not be opened) shows in the last line.
    pub status: &'a Status,
}

/// What was pressed on the start page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pressed {
    /// Start.
    pub start: bool,
    /// Resume.
    pub resume: bool,
    /// Load… (the data folder's games).
    pub open_load: bool,
    /// Learn (the chosen game's lesson).
    pub learn: bool,
    /// Open… (a file anywhere).
    pub open_file: bool,
    /// Play online….
    pub online: bool,
    /// Settings….
    pub settings: bool,
}

/// Draws the start page into `ctx`; named widgets' rectangles go to `rects` (`start`, `resume`,
/// `menu open`, `menu load`, `learn`, `menu online`, `menu settings`). Returns what was pressed.
pub fn start_page(ctx: &egui::Context, input: &mut StartIn, rects: &mut UiRects) -> Pressed {
    let mut root = root_ui(ctx, "menu");
    let mut pressed = Pressed::default();
    let choices = &mut *input.choices;
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
                setup_form(ui, choices);
                ui.add_space(gap);
                // One row whose buttons never move: Resume is there, disabled, when no game was left.
                let row = 120.0 * 2.0 + 160.0 * 2.0 + 3.0 * ui.spacing().item_spacing.x;
                ui.allocate_ui_with_layout(
                    egui::vec2(row, 44.0),
                    egui::Layout::left_to_right(egui::Align::Center),
                    |ui| {
                        let open_button = ui.add(egui::Button::new("Open…").min_size(egui::vec2(120.0, 40.0)));
                        rects.set("menu open", open_button.rect);
                        pressed.open_file =
                            open_button.on_hover_text("Open a game from a .json or .blksgf file").clicked();
                        let load_button = ui.add(egui::Button::new("Load…").min_size(egui::vec2(120.0, 40.0)));
                        rects.set("menu load", load_button.rect);
                        pressed.open_load = load_button.on_hover_text("Open a saved game of the data folder").clicked();
                        let button = egui::Button::new(egui::RichText::new("Start").size(20.0).strong())
                            .min_size(egui::vec2(160.0, 40.0));
                        let start = ui.add(button);
                        rects.set("start", start.rect);
                        pressed.start = start.clicked();
                        let kept = input.kept;
                        let hover = kept.map_or("No game was left with Menu".to_string(), |(name, moves)| {
                            format!("Back to {name} as you left it ({})", crate::rules::counted(moves, "move", "moves"))
                        });
                        let resume_button = ui
                            .add_enabled(kept.is_some(), egui::Button::new("Resume").min_size(egui::vec2(160.0, 40.0)))
                            .on_hover_text(hover)
                            .on_disabled_hover_text("No game was left with Menu");
                        rects.set("resume", resume_button.rect);
                        pressed.resume = resume_button.clicked();
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
                        // The same words for every game (a long name once made it "Learn this game"
                        // beside "Learn Trike"); the hover names the game.
                        let learn_button = ui
                            .add_enabled(teaches, egui::Button::new("Learn to play").min_size(egui::vec2(third, 32.0)))
                            .on_hover_text(format!(
                                "A guided lesson of {name}: a few positions, each teaching one rule; you make the move"
                            ));
                        rects.set("learn", learn_button.rect);
                        pressed.learn = learn_button.clicked();
                        let held = input.held;
                        let online_button = ui
                            .add(egui::Button::new("Play online…").min_size(egui::vec2(third, 32.0)))
                            .on_hover_text(format!(
                                "Play a friend over the network: create a game and send its link, or join one \
                                 (your games: {held})"
                            ));
                        rects.set("menu online", online_button.rect);
                        pressed.online = online_button.clicked();
                        let settings_button = ui
                            .add(egui::Button::new("Settings…").min_size(egui::vec2(third, 32.0)))
                            .on_hover_text("Colours (colour-blind safe), theme, animation, the AI's proofs");
                        rects.set("menu settings", settings_button.rect);
                        pressed.settings = settings_button.clicked();
                    },
                );
                if let Some(online) = &input.online {
                    ui.label(egui::RichText::new(format!("{online} (Play online…)")).weak());
                }
                if let Some((name, moves)) = input.kept {
                    let moves = crate::rules::counted(moves, "move", "moves");
                    ui.label(egui::RichText::new(format!("Left with Menu: {name}, {moves}")).weak());
                }
                ui.add_space(8.0);
                // A share link or file that could not be opened says why here, in the game's
                // summary's place (so the window's last line stays in view).
                if input.status.error {
                    ui.label(egui::RichText::new(&input.status.text).color(egui::Color32::from_rgb(0xff, 0x7a, 0x6a)));
                } else {
                    ui.label(egui::RichText::new(choices.entries[choices.game].summary).weak());
                }
            });
        });
    });
    pressed
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

            // Only the hovered level's words are built (`on_hover_ui`), not six strings a frame.
            let strength = choices.level_strength();
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
                            ui.selectable_value(&mut choice.level, level, level.to_string()).on_hover_ui(|ui| {
                                ui.label(level_words(Level::new(level).expect("a level"), strength));
                            });
                        }
                    });
                });
                ui.end_row();
            }
        });
    });
    frame.response.rect
}
