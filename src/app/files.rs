//! Saved games: JSON records in the `games` folder of the user's data folder (`TRIBOARD_DATA_DIR`
//! overrides the data folder, for tests and screenshots), or in the browser's `localStorage`. Either way a saved
//! game is known by its name, `<game>-<YYYYMMDD-HHMMSS>.json` (UTC); Blokus Trigon games may also
//! be saved in Pentobi's format, `.blksgf`, and either format loads. The Load dialog deletes them
//! by name ([`delete`]).

#[cfg(target_arch = "wasm32")]
pub use super::web::storage::{delete, list, location, read, save_as};
#[cfg(not(target_arch = "wasm32"))]
pub use folder::{data_dir, delete, games_dir, list, location, read, save_as};

pub use super::save_format::{
    Format, date_of, is_plain_name, is_saved_game, new_name_as, newest_first, parse, stamp_of, utc_stamp,
};
use crate::rules::record::Record;

/// Saves `record` as JSON under a new name; returns where.
///
/// # Errors
/// See [`save_as`].
pub fn save(record: &Record) -> Result<String, String> {
    save_as(record, Format::Json)
}

/// Saved games as files in a folder.
#[cfg(not(target_arch = "wasm32"))]
mod folder {
    use std::path::PathBuf;

    use super::Format;
    use crate::rules::record::Record;

    /// The app's data folder ([`crate::data_dir::data_dir`]): it holds `games/` and
    /// `settings.json`.
    pub use crate::data_dir::data_dir;

    /// The folder saved games go to (created on first save).
    pub fn games_dir() -> PathBuf {
        data_dir().join("games")
    }

    /// Where saved games go, for people: the folder.
    pub fn location() -> String {
        games_dir().display().to_string()
    }

    /// Writes `record` in `format` to a new file named after the game and the time; returns its path.
    ///
    /// # Errors
    /// The folder or the file could not be written, with the path in the message.
    pub fn save_as(record: &Record, format: Format) -> Result<String, String> {
        let text = format.text(record)?;
        let dir = games_dir();
        std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let path = dir.join(super::new_name_as(record, format, |name| dir.join(name).exists()));
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(path.display().to_string())
    }

    /// The names of the saved games, newest first ([`super::newest_first`]).
    pub fn list() -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(games_dir()) else { return Vec::new() };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|name| super::is_saved_game(name))
            .collect();
        super::newest_first(&mut names);
        names
    }

    /// Reads the saved game `name`, JSON or SGF (its moves are checked when it is loaded into the
    /// game).
    ///
    /// # Errors
    /// The file cannot be read or is not a record.
    pub fn read(name: &str) -> Result<Record, String> {
        let path = games_dir().join(name);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        super::parse(&text)
    }

    /// Deletes the saved game `name` (a name [`list`] gave: a saved game's file name in the
    /// folder, never a path).
    ///
    /// # Errors
    /// Not a saved game's name, or the file could not be removed, with the path in the message.
    pub fn delete(name: &str) -> Result<(), String> {
        if !super::is_plain_name(name) {
            return Err(format!("'{name}' is not a saved game's name"));
        }
        let path = games_dir().join(name);
        std::fs::remove_file(&path).map_err(|e| format!("cannot delete {}: {e}", path.display()))
    }
}
