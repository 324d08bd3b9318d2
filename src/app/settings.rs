//! What the app remembers between launches ([`Settings`]): the start screen's last game and, per
//! entry of its list, the options and who sits in each seat; and the settings page's choices
//! ([`Look`]: colours, theme, Trigon's shape marks, animation speed, what the AI's proofs and
//! Show thinking do). A small JSON file, `settings.json` in
//! the data folder (beside the saved games' folder; `TRIBOARD_DATA_DIR` overrides the folder), or
//! the browser's `localStorage` under `triboard-settings`. A file that cannot be read is ignored
//! (the defaults are used) and replaced at the next change; nothing here ever stops the app.

use std::collections::BTreeMap;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// One seat's choice on the start screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatChoice {
    /// True for an AI seat.
    pub ai: bool,
    /// The AI's level ([`crate::ai::Level`]'s range), kept while the seat is a person's.
    pub level: u8,
}

/// The start screen's choices for one entry of its game list.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EntrySettings {
    /// The options, as the game's `Options` serialise (`null`: the defaults).
    #[serde(default)]
    pub options: serde_json::Value,
    /// Each seat's choice, in seat order.
    #[serde(default)]
    pub seats: Vec<SeatChoice>,
}

/// What is remembered between launches.
#[derive(Resource, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The start screen's chosen entry, by its name in the list ("Blokus Trigon Two-Player").
    #[serde(default)]
    pub game: Option<String>,
    /// Each entry's choices, by its name in the list.
    #[serde(default)]
    pub entries: BTreeMap<String, EntrySettings>,
    /// The settings page's choices.
    #[serde(default)]
    pub look: Look,
    /// Online play: the server and the seats held ([`OnlineSettings`]).
    #[serde(default)]
    pub online: OnlineSettings,
}

/// What online play remembers: the server last used, every seat held in an online game, with
/// its secret token, and the session of the account signed in on each server (`docs/design.md` §Network play: a seat's token is its only key).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OnlineSettings {
    /// The server's WebSocket address (`ws://127.0.0.1:8080/ws`); empty for the default (the
    /// page's own server in the browser).
    #[serde(default)]
    pub server: String,
    /// The seats held, newest last.
    #[serde(default)]
    pub games: Vec<OnlineSeat>,
    /// The account signed in on each server (`docs/design.md` §Lobby): its session token, never
    /// its password.
    #[serde(default)]
    pub sessions: Vec<OnlineSession>,
}

impl OnlineSettings {
    /// The session kept for the server at `server`, if signed in there.
    pub fn session(&self, server: &str) -> Option<&OnlineSession> {
        self.sessions.iter().find(|s| s.server == server)
    }

    /// The seat tokens held on the server at `server`: what a sign-in claims for the account.
    pub fn tokens(&self, server: &str) -> Vec<String> {
        self.games.iter().filter(|s| s.server == server).map(|s| s.token.clone()).collect()
    }
}

/// An account signed in on one server: the name and the session token that signs a new
/// connection in again (`resume`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnlineSession {
    /// The server's WebSocket address.
    pub server: String,
    /// The account's name, as the server spells it.
    pub name: String,
    /// The session token (secret: it signs in as the account until signed out).
    pub session: String,
}

/// One seat held in an online game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnlineSeat {
    /// The server's WebSocket address.
    pub server: String,
    /// The game on the server.
    pub game_id: String,
    /// The seat's secret token.
    pub token: String,
    /// The seat, `0..players`.
    pub seat: u8,
    /// The kind of game (`trike`, …).
    pub game: String,
    /// The game's join code, for the invitation link.
    pub code: String,
}

/// The players' colours ([`crate::app::palette`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Colours {
    /// Colours that stay apart under protanopia, deuteranopia and tritanopia ([`palette::SAFE`]).
    ///
    /// [`palette::SAFE`]: crate::app::palette::SAFE
    #[default]
    ColourBlindSafe,
    /// The colours until November 2026 ([`palette::CLASSIC`]): Trigon's Red and Green look alike
    /// to many colour-blind players.
    ///
    /// [`palette::CLASSIC`]: crate::app::palette::CLASSIC
    Classic,
}

/// The panels' and the window's theme.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Theme {
    /// Dark panels on a dark background.
    #[default]
    Dark,
    /// Light panels on a light background.
    Light,
}

/// How fast pieces move, drop in and go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AnimationSpeed {
    /// No animation: pieces stand in their place at once.
    Off,
    /// About 250 ms a move ([`crate::app::animation::DURATION`]).
    #[default]
    Normal,
    /// Twice as long.
    Slow,
}

impl AnimationSpeed {
    /// How long an animation of `normal` seconds takes at this speed, in seconds (0: none).
    pub fn seconds(self, normal: f32) -> f32 {
        match self {
            AnimationSpeed::Off => 0.0,
            AnimationSpeed::Normal => normal,
            AnimationSpeed::Slow => 2.0 * normal,
        }
    }
}

/// The settings page's choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Look {
    /// The players' colours.
    pub colours: Colours,
    /// The panels' theme.
    pub theme: Theme,
    /// A small shape on each Trigon piece, one per colour (circle, triangle, square, diamond), so
    /// that the colours are told apart by shape too.
    pub shape_marks: bool,
    /// How fast pieces move.
    pub animation: AnimationSpeed,
    /// Say during play what the AI's solver has proven ("Solved: White loses…"); off by default,
    /// as it gives the game away. A hint says it whatever this is.
    pub show_proofs: bool,
    /// Show thinking is on when the app starts.
    pub show_thinking: bool,
    /// A sound at each move and when the person's clock runs low (where the platform plays
    /// them: the browser, [`crate::app::sound`]).
    pub sounds: bool,
}

impl Default for Look {
    fn default() -> Self {
        Look {
            colours: Colours::default(),
            theme: Theme::default(),
            shape_marks: false,
            animation: AnimationSpeed::default(),
            show_proofs: false,
            show_thinking: true,
            sounds: true,
        }
    }
}

/// Where [`Settings`] are kept: a file (the desktop), or `None` for the browser's storage. Insert
/// it before [`plugin`] runs to use another file (the tests do).
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct SettingsFile(pub Option<std::path::PathBuf>);

impl Default for SettingsFile {
    fn default() -> Self {
        #[cfg(target_arch = "wasm32")]
        return SettingsFile(None);
        #[cfg(not(target_arch = "wasm32"))]
        SettingsFile(Some(super::files::data_dir().join("settings.json")))
    }
}

impl SettingsFile {
    /// The settings kept there; the defaults when there are none or they cannot be read.
    pub fn load(&self) -> Settings {
        self.read_text().and_then(|text| serde_json::from_str(&text).ok()).unwrap_or_default()
    }

    fn read_text(&self) -> Option<String> {
        match &self.0 {
            Some(path) => std::fs::read_to_string(path).ok(),
            #[cfg(target_arch = "wasm32")]
            None => super::web::storage::read_settings(),
            #[cfg(not(target_arch = "wasm32"))]
            None => None,
        }
    }

    /// Keeps `settings` there.
    ///
    /// # Errors
    /// The folder or file cannot be written (the browser's storage is full), with the place.
    pub fn save(&self, settings: &Settings) -> Result<(), String> {
        let text = serde_json::to_string_pretty(settings).expect("settings serialise");
        match &self.0 {
            Some(path) => {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                }
                std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
            }
            #[cfg(target_arch = "wasm32")]
            None => super::web::storage::write_settings(&text),
            #[cfg(not(target_arch = "wasm32"))]
            None => Ok(()),
        }
    }
}

/// Loads the settings at startup and saves them whenever they change.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SettingsFile>();
    let settings = app.world().resource::<SettingsFile>().load();
    app.insert_resource(settings).add_systems(Last, save.run_if(resource_changed::<Settings>));
}

fn save(file: Res<SettingsFile>, settings: Res<Settings>, mut said: Local<bool>) {
    // As loaded: nothing to keep.
    if settings.is_added() {
        return;
    }
    if let Err(e) = file.save(&settings)
        && !*said
    {
        // Once: a read-only data folder should not flood the log.
        warn!("the settings are not kept: {e}");
        *said = true;
    }
}
