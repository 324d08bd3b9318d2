//! Opening a game from a file the person hands over: dropped on the window, chosen with Open…
//! ([`super::dialogs`]), or in the browser dropped on the page. The file is read (at most
//! [`MAX_BYTES`]), parsed ([`files::parse`]: JSON or `.blksgf`) and opened as Load opens a saved
//! game: in a game, after the drop-the-game question when that game is unfinished
//! ([`PanelWindows::drop_game`]); on the start screen, after its own question when the game Menu
//! left is unfinished (or at once). A record of another game than the board's switches to that
//! game, with the record's seats. A file that cannot be opened changes nothing and says why in the
//! status line, naming the file.

use bevy::prelude::*;
use bevy::window::FileDragAndDrop;

use super::files;
use super::flow::{Command, Screen, Status, Step};
use super::games::AppGame;
use super::hud::PanelWindows;
use super::model::Model;
use super::session::{OpenRecord, Suspended};
use crate::rules::record::Record;

/// The desktop's file dialogs (Open…, Save as…) as the panels' systems take them; nothing in the
/// browser, whose page has its own file chooser.
#[cfg(not(target_arch = "wasm32"))]
pub type Dialogs<'w> = ResMut<'w, super::dialogs::FileDialogs>;
/// The desktop's file dialogs (Open…, Save as…) as the panels' systems take them; nothing in the
/// browser, whose page has its own file chooser.
#[cfg(target_arch = "wasm32")]
pub type Dialogs<'w> = ();

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

pub(super) fn plugin(app: &mut App) {
    // `WindowPlugin` adds the message; headless tests have none and write it themselves.
    app.add_message::<FileDragAndDrop>().init_resource::<PendingOpen>().init_resource::<PanelWindows>().add_systems(
        Update,
        (dropped_files, open_on_start_screen.run_if(in_state(Screen::Menu))).chain().in_set(Step::Intents),
    );
}

/// The system that opens a pending file's game in a game of type `G` (called by the registry for
/// every game).
pub(super) fn game_plugin<G: AppGame>(app: &mut App) {
    app.add_systems(
        Update,
        open_in_play::<G>
            .in_set(Step::Intents)
            .after(dropped_files)
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<G>>)),
    );
}

/// Files dropped on the window are offered, in the order they came.
fn dropped_files(
    mut drops: MessageReader<FileDragAndDrop>,
    mut pending: ResMut<PendingOpen>,
    mut status: ResMut<Status>,
) {
    for drop in drops.read() {
        #[cfg(not(target_arch = "wasm32"))]
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = drop {
            offer_path(&mut pending, &mut status, path_buf);
        }
        #[cfg(target_arch = "wasm32")]
        let _ = (drop, &mut pending, &mut status);
    }
}

/// On the start screen a pending game opens at once unless the game Menu left is unfinished: then
/// the start screen asks first (`menu`), and takes the pending game for its question.
fn open_on_start_screen(mut commands: Commands, mut pending: ResMut<PendingOpen>, mut suspended: ResMut<Suspended>) {
    if pending.0.is_none() || suspended.unfinished() {
        return;
    }
    let Some((_, record)) = pending.0.take() else { return };
    suspended.game = None;
    commands.insert_resource(OpenRecord(record));
}

/// In a game a pending game is loaded as Load loads one: at once when the game in play is
/// finished or has no move, else after "Drop the game in play?".
fn open_in_play<G: AppGame>(
    model: Res<Model<G>>,
    mut pending: ResMut<PendingOpen>,
    mut windows: ResMut<PanelWindows>,
    mut orders: MessageWriter<Command>,
) {
    let Some((_, record)) = pending.0.take() else { return };
    if let Some(order) = windows.drop_game(&model, Command::Load(record)) {
        orders.write(order);
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
