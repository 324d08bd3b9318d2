//! Game record files: reading one (JSON, or Pentobi's `.blksgf`) and writing one per game.

use std::path::Path;

use super::error::CliError;
use crate::rules::record::Record;

/// Reads a record file (JSON, or Pentobi's `.blksgf`): the record and the file's text.
///
/// # Errors
/// An unreadable file or a malformed record (failures naming the file).
pub fn read_record_file(path: &Path) -> Result<(Record, String), CliError> {
    let file = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| CliError::failure(format!("cannot read {file}: {e}")))?;
    let record = crate::rules::trigon::sgf::read_any(&text).map_err(|e| CliError::failure(format!("{file}: {e}")))?;
    Ok((record, text))
}

/// Writes `record` to `dir/game-NNNN.json` (game `index + 1`; `dir` exists).
///
/// # Errors
/// A file that cannot be written (failure).
pub(super) fn write_record(dir: &Path, index: usize, record: &Record) -> Result<(), CliError> {
    let path = dir.join(format!("game-{:04}.json", index + 1));
    std::fs::write(&path, record.to_json() + "\n")
        .map_err(|e| CliError::failure(format!("cannot write {}: {e}", path.display())))
}
