//! A game read from a file the person hands over, waiting to be opened ([`PendingOpen`]): what is
//! taken (a `.json` or `.blksgf` file of at most [`MAX_BYTES`]), how it is read and why it is
//! refused. Who opens it is `open_file`'s; the desktop's dialogs and the browser's file chooser
//! offer files here too.

use bevy::prelude::*;

use super::files;
use super::flow::Status;
use crate::rules::record::Record;

/// The largest file taken for a game (4 MiB): a record of the longest game is a few dozen KiB.
pub const MAX_BYTES: u64 = 4 << 20;

/// A game read from a file, waiting to be opened: the file's name and its record. Taken by the
/// game in play ([`PanelWindows::drop_game`] asks first when it is unfinished) or by the start
/// screen.
#[derive(Resource, Default, Debug)]
pub struct PendingOpen(pub Option<(String, Record)>);

impl PendingOpen {
    /// Takes the text of the file `name` (or why it could not be read) as the game to open next;
    /// `Err` is the status line's refusal, naming the file: nothing else changes.
    ///
    /// # Errors
    /// The file could not be read, or is not a record (with the place in it and the reason).
    pub fn offer(&mut self, name: &str, text: Result<String, String>) -> Result<(), Status> {
        let record = text.and_then(|text| files::parse(&text)).map_err(|e| refusal(name, e))?;
        self.0 = Some((name.to_string(), record));
        Ok(())
    }
}

/// "cannot open NAME: REASON", as an error for the status line.
pub fn refusal(name: &str, reason: impl std::fmt::Display) -> Status {
    Status::error(format!("cannot open {name}: {reason}"))
}

/// Why a file of `name` and `bytes` is not taken for a game before it is read, if it is not: not
/// a `.json` or `.blksgf` file, or larger than [`MAX_BYTES`].
pub fn precheck(name: &str, bytes: u64) -> Option<String> {
    if !files::is_saved_game(&name.to_ascii_lowercase()) {
        return Some("triboard opens games saved as .json or .blksgf files".to_string());
    }
    (bytes > MAX_BYTES).then(|| {
        let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
        format!("it holds {:.1} MiB, more than the {:.0} MiB a saved game may have", mib(bytes), mib(MAX_BYTES))
    })
}

/// The name a file is shown by: its file name ("game.json"), else the whole path.
pub fn shown_name(path: &std::path::Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// Reads the file at `path` as a game's text: refused unread when [`precheck`] refuses it, and
/// never more than [`MAX_BYTES`] read (a file that grows meanwhile is refused).
///
/// # Errors
/// Why it is refused or could not be read (not UTF-8, say; in the browser, always: it has no
/// files of its own).
pub fn read_file(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let size = std::fs::metadata(path).map_err(|e| format!("cannot read it: {e}"))?.len();
    if let Some(why) = precheck(&shown_name(path), size) {
        return Err(why);
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read it: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read it: {e}"))?;
    if let Some(why) = precheck(&shown_name(path), bytes.len() as u64) {
        return Err(why);
    }
    String::from_utf8(bytes).map_err(|e| format!("it is not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))
}

/// Reads the file at `path` and offers it ([`PendingOpen::offer`]); a refusal goes to `status`.
#[cfg(not(target_arch = "wasm32"))]
pub fn offer_path(pending: &mut PendingOpen, status: &mut Status, path: &std::path::Path) {
    if let Err(refused) = pending.offer(&shown_name(path), read_file(path)) {
        *status = refused;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_saved_games_of_a_sane_size_are_read() {
        assert_eq!(precheck("game.json", 100), None);
        assert_eq!(precheck("GAME.BLKSGF", MAX_BYTES), None);
        assert!(precheck("photo.png", 100).is_some_and(|why| why.contains(".json or .blksgf")));
        let big = precheck("big.json", 5 << 20).expect("too large");
        assert!(big.contains("5.0 MiB") && big.contains("4 MiB"), "{big}");
        let mut pending = PendingOpen::default();
        let refused = pending.offer("bad.json", Ok("{ not json".to_string())).expect_err("refused");
        assert!(refused.error && refused.text.starts_with("cannot open bad.json: "), "{refused:?}");
        assert!(refused.text.contains("line 1"), "the place in the file: {}", refused.text);
        assert!(pending.0.is_none());
        pending.offer("ok.json", Ok(r#"{"game":"trike","moves":["c3"]}"#.to_string())).expect("a record");
        assert_eq!(pending.0.as_ref().map(|(n, r)| (n.as_str(), r.moves.len())), Some(("ok.json", 1)));
    }
}
