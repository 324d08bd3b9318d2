//! Saved games in the browser's `localStorage`, one entry per game under the key
//! `triboard/<name>`; the same names and the same interface as the desktop's folder
//! (`app::files`).

use super::super::save_format::{self, Format};
use crate::rules::record::Record;

const KEY_PREFIX: &str = "triboard/";

fn storage() -> Result<web_sys::Storage, String> {
    web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .ok_or_else(|| "this browser does not allow saving (no localStorage)".to_string())
}

/// Where saved games go, for people.
pub fn location() -> String {
    "this browser's local storage (Download keeps a file)".to_string()
}

/// Stores `record` in `format` under a new name; returns where.
///
/// # Errors
/// No `localStorage`, or it is full.
pub fn save_as(record: &Record, format: Format) -> Result<String, String> {
    let text = format.text(record)?;
    let storage = storage()?;
    let name = save_format::new_name_as(record, format, |name| {
        storage.get_item(&format!("{KEY_PREFIX}{name}")).ok().flatten().is_some()
    });
    storage
        .set_item(&format!("{KEY_PREFIX}{name}"), &text)
        .map_err(|_| "the browser's storage is full or refused the game".to_string())?;
    Ok(format!("this browser as {name}"))
}

/// The names of the saved games, newest first.
pub fn list() -> Vec<String> {
    let Ok(storage) = storage() else { return Vec::new() };
    let count = storage.length().unwrap_or(0);
    let mut names: Vec<String> = (0..count)
        .filter_map(|k| storage.key(k).ok().flatten())
        .filter_map(|key| key.strip_prefix(KEY_PREFIX).map(str::to_string))
        .collect();
    save_format::newest_first(&mut names);
    names
}

/// The key of the app's settings (`app::settings`), outside the saved games' prefix.
const SETTINGS_KEY: &str = "triboard-settings";

/// The settings' text, if any were kept.
pub fn read_settings() -> Option<String> {
    storage().ok()?.get_item(SETTINGS_KEY).ok().flatten()
}

/// Keeps the settings' text.
///
/// # Errors
/// No `localStorage`, or it is full.
pub fn write_settings(text: &str) -> Result<(), String> {
    storage()?.set_item(SETTINGS_KEY, text).map_err(|_| "the browser's storage refused the settings".to_string())
}

/// Reads the saved game `name`.
///
/// # Errors
/// No such game, or it is not a record.
pub fn read(name: &str) -> Result<Record, String> {
    let text = storage()?
        .get_item(&format!("{KEY_PREFIX}{name}"))
        .ok()
        .flatten()
        .ok_or_else(|| format!("no saved game {name} in this browser"))?;
    save_format::parse(&text)
}

/// Deletes the saved game `name` from this browser's storage.
///
/// # Errors
/// No `localStorage`, or it refused.
pub fn delete(name: &str) -> Result<(), String> {
    storage()?
        .remove_item(&format!("{KEY_PREFIX}{name}"))
        .map_err(|_| format!("the browser's storage refused to delete {name}"))
}
