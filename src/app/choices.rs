//! The start screen's choices ([`Choices`]): every entry of the game list with its options and
//! seats, remembered between launches ([`Settings`]), and the chosen one. The start screen
//! (`menu`) and Play online's Create (`online::lobby`) both read them.

use bevy::prelude::*;
use bevy_egui::egui;

use super::games::{AppGame, ForEachGame, each_game};
use super::settings::{EntrySettings, SeatChoice, Settings};
use super::setup::{GameOptions, Setup};
use crate::ai::{Level, Seat};

/// One entry of the start screen's game list, whatever its game type: built from the registry.
pub(super) struct Entry {
    /// Its name in the list ("Blokus Trigon Two-Player").
    pub(super) name: &'static str,
    /// The game and the options it starts with; the options rows edit them.
    pub(super) game: GameOptions,
    /// The seats' names ([`AppGame::seat_names`]).
    pub(super) seats: &'static [&'static str],
    /// Two lines on the game ([`AppGame::summary`]).
    pub(super) summary: &'static str,
    /// The options rows ([`AppGame::options_ui`]), on the options as JSON.
    pub(super) options_ui: fn(&mut egui::Ui, &mut serde_json::Value),
    /// What each AI level is a match for ([`AppGame::level_strength`]).
    pub(super) level_strength: fn(Level) -> Option<&'static str>,
    /// Each seat's choice.
    pub(super) choices: Vec<SeatChoice>,
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
    pub(super) entries: Vec<Entry>,
    /// The chosen entry.
    pub(super) game: usize,
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
                        level_strength: G::level_strength,
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

    /// The start screen's hover text on AI level `level` for the chosen entry: the level's budget,
    /// and what it is a match for in this game where that was measured
    /// ([`AppGame::level_strength`]).
    pub fn level_text(&self, level: Level) -> String {
        level_words(level, self.entries[self.game].level_strength)
    }

    /// What [`Choices::level_text`] reads for the chosen entry: its game's strength notes.
    pub(super) fn level_strength(&self) -> fn(Level) -> Option<&'static str> {
        self.entries[self.game].level_strength
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

/// The hover text of AI level `level` in a game whose strength notes are `strength`
/// ([`AppGame::level_strength`]): the level's budget, then what it is a match for, if measured.
pub(super) fn level_words(level: Level, strength: fn(Level) -> Option<&'static str>) -> String {
    let budget = format!("AI {level}: {}.", level.summary());
    match strength(level) {
        Some(note) => format!("{budget}\n{note}"),
        None => budget,
    }
}
