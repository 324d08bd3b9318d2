//! Saved games: JSON records in the `games` folder of the user's data folder (`TRIBOARD_DATA_DIR`
//! overrides the data folder, for tests and screenshots), or in the browser's `localStorage`. Either way a saved
//! game is known by its name, `<game>-<YYYYMMDD-HHMMSS>.json` (UTC); Blokus Trigon games may also
//! be saved in Pentobi's format, `.blksgf`, and either format loads. The Load dialog deletes them
//! by name ([`delete`]).

#[cfg(target_arch = "wasm32")]
pub use super::web::storage::{delete, list, location, read, save_as};
#[cfg(not(target_arch = "wasm32"))]
pub use folder::{data_dir, delete, games_dir, list, location, read, save_as};

use crate::rules::record::Record;
use crate::rules::trigon::sgf;

/// A file format of saved games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The record as JSON (every game).
    Json,
    /// Pentobi's SGF dialect (Blokus Trigon only).
    Sgf,
}

impl Format {
    /// The file name's extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Sgf => sgf::EXTENSION,
        }
    }

    /// The record's text in this format.
    ///
    /// # Errors
    /// SGF of a game other than Trigon, or a record that does not replay.
    pub fn text(self, record: &Record) -> Result<String, String> {
        match self {
            Format::Json => Ok(record.to_json()),
            Format::Sgf => sgf::write(record).map_err(|e| e.to_string()),
        }
    }
}

/// Saves `record` as JSON under a new name; returns where.
///
/// # Errors
/// See [`save_as`].
pub fn save(record: &Record) -> Result<String, String> {
    save_as(record, Format::Json)
}

/// Reads a saved game's text, JSON or SGF.
///
/// # Errors
/// Neither a JSON record nor an SGF one, with the place.
pub fn parse(text: &str) -> Result<Record, String> {
    sgf::read_any(text)
}

/// True for the names of saved games (JSON or SGF files).
pub fn is_saved_game(name: &str) -> bool {
    name.ends_with(".json") || name.ends_with(&format!(".{}", sgf::EXTENSION))
}

/// A new name for a saved game of `record` now in `format`; `taken` says whether a name is in use
/// already.
pub(super) fn new_name_as(record: &Record, format: Format, taken: impl Fn(&str) -> bool) -> String {
    use web_time::{SystemTime, UNIX_EPOCH};
    let stamp = utc_stamp(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()));
    let ext = format.extension();
    let mut name = format!("{}-{stamp}.{ext}", record.game);
    let mut k = 2;
    while taken(&name) {
        name = format!("{}-{stamp}-{k}.{ext}", record.game);
        k += 1;
    }
    name
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

/// True for a saved game's name that is a plain file name (no folder in it), as [`list`] gives.
pub fn is_plain_name(name: &str) -> bool {
    is_saved_game(name) && !name.contains(['/', '\\']) && !name.starts_with('.')
}

/// The time stamp in a saved game's name, `YYYYMMDD-HHMMSS` (UTC), if it has one: the name is
/// `<game id>-<stamp>[-<k>].<ext>` and game ids hold dashes too.
pub fn stamp_of(name: &str) -> Option<&str> {
    let b = name.as_bytes();
    (0..b.len().saturating_sub(14)).find_map(|at| {
        let s = &b[at..at + 15];
        let digits = |r: std::ops::Range<usize>| s[r].iter().all(u8::is_ascii_digit);
        (digits(0..8) && s[8] == b'-' && digits(9..15) && (at == 0 || b[at - 1] == b'-')).then(|| &name[at..at + 15])
    })
}

/// "2026-11-24 02:33" (UTC) from a stamp of [`stamp_of`].
pub fn date_of(stamp: &str) -> String {
    format!("{}-{}-{} {}:{}", &stamp[0..4], &stamp[4..6], &stamp[6..8], &stamp[9..11], &stamp[11..13])
}

/// Sorts saved games' names newest first: by the time stamp in the name, then by the name (a
/// `-2` twin after its first); names without a stamp last, by name.
pub fn newest_first(names: &mut [String]) {
    names.sort_by(|a, b| stamp_of(b).cmp(&stamp_of(a)).then_with(|| b.cmp(a)));
}

/// `YYYYMMDD-HHMMSS` for seconds since the Unix epoch (civil-from-days, proleptic Gregorian).
pub(super) fn utc_stamp(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!("{y:04}{m:02}{d:02}-{:02}{:02}{:02}", rem / 3600, rem / 60 % 60, rem % 60)
}

#[cfg(test)]
mod tests {
    #[test]
    fn newest_first_sorts_by_the_stamp_not_the_game() {
        let mut names: Vec<String> = [
            "trisq-20261101-120000.json",
            "trike-20261124-010203.json",
            "tri-it-out-20261120-000000.json",
            "trigon-2-20261124-010203-2.blksgf",
            "odd.json",
            "trigon-2-20261124-010203.blksgf",
        ]
        .map(String::from)
        .to_vec();
        super::newest_first(&mut names);
        assert_eq!(
            names,
            [
                "trike-20261124-010203.json",
                "trigon-2-20261124-010203.blksgf",
                "trigon-2-20261124-010203-2.blksgf",
                "tri-it-out-20261120-000000.json",
                "trisq-20261101-120000.json",
                "odd.json",
            ]
        );
        assert_eq!(super::stamp_of("trigon-2-20261124-010203-2.blksgf"), Some("20261124-010203"));
        assert_eq!(super::date_of("20261124-010203"), "2026-11-24 01:02");
        assert_eq!(super::stamp_of("trike-2026.json"), None);
    }

    #[test]
    fn only_plain_saved_games_names_are_deleted() {
        assert!(super::is_plain_name("trike-20261124-010203.json"));
        assert!(super::is_plain_name("trigon-2-20261124-010203.blksgf"));
        for bad in ["../trike.json", "games/trike.json", "..\\trike.json", ".json", "settings.txt", ""] {
            assert!(!super::is_plain_name(bad), "{bad}");
        }
    }

    #[test]
    fn stamp() {
        assert_eq!(super::utc_stamp(0), "19700101-000000");
        assert_eq!(super::utc_stamp(1_700_000_000), "20231114-221320");
    }
}
