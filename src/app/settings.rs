//! What the app remembers between launches ([`Settings`]): the start screen's last game and, per
//! entry of its list, the options and who sits in each seat. A small JSON file, `settings.json` in
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
