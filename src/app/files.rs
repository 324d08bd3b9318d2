//! Saved games: JSON records in a folder under the user's data directory
//! (`TRIBOARD_DATA_DIR` overrides it, for tests and screenshots).

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::rules::record::Record;

/// The folder saved games go to (created on first save).
pub fn games_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("TRIBOARD_DATA_DIR") {
        return PathBuf::from(dir);
    }
    directories::ProjectDirs::from("org", "triboard", "triboard")
        .map(|dirs| dirs.data_dir().join("games"))
        .unwrap_or_else(|| PathBuf::from("triboard-games"))
}

/// Writes `record` to a new file named after the game and the time (UTC); returns its path.
///
/// # Errors
/// The folder or the file could not be written, with the path in the message.
pub fn save(record: &Record) -> Result<PathBuf, String> {
    let dir = games_dir();
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let stamp = utc_stamp(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()));
    let mut path = dir.join(format!("{}-{stamp}.json", record.game));
    let mut k = 2;
    while path.exists() {
        path = dir.join(format!("{}-{stamp}-{k}.json", record.game));
        k += 1;
    }
    std::fs::write(&path, record.to_json()).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// The saved games, newest first (by name, which starts with the date).
pub fn list() -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(games_dir()) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files.reverse();
    files
}

/// Reads a record (its moves are checked when it is loaded into the game).
///
/// # Errors
/// The file cannot be read or is not a record.
pub fn read(path: &Path) -> Result<Record, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Record::from_json(&text).map_err(|e| e.to_string())
}

/// `YYYYMMDD-HHMMSS` for seconds since the Unix epoch (civil-from-days, proleptic Gregorian).
fn utc_stamp(secs: u64) -> String {
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
    fn stamp() {
        assert_eq!(super::utc_stamp(0), "19700101-000000");
        assert_eq!(super::utc_stamp(1_700_000_000), "20231114-221320");
    }
}
