//! Open… and Save as… on the desktop: the system's file dialogs, through `rfd` (on Linux its XDG
//! desktop portal backend, which falls back on zenity). A dialog runs off the frame — `rfd` waits
//! for it on a thread of its own, a task of Bevy's `IoTaskPool` awaits that, and a system polls
//! the task each frame — so the window keeps drawing while it is open. Open… offers the chosen
//! file as a dropped one is ([`PendingOpen`]); Save as… writes the record of the moment it was
//! pressed, as `.json` or (Blokus Trigon) `.blksgf` after the name's extension. Where no dialog
//! can open (no D-Bus session and no zenity, as under a bare Xvfb) the status line says so and
//! points to Load…; nothing panics.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bevy::ecs::system::NonSendMarker;
use bevy::prelude::*;
use bevy::tasks::futures::check_ready;
use bevy::tasks::{IoTaskPool, Task};
use bevy::window::{PrimaryWindow, RawHandleWrapper};

use super::files::{self, Format};
use super::flow::{Status, Step};
use super::pending_open::{PendingOpen, offer_path};
use crate::rules::record::Record;

/// A dialog that answers "nothing chosen" sooner than this did not open: no person closes one so
/// fast, the portal and zenity failed.
const QUICK: Duration = Duration::from_millis(700);

/// What a dialog is for.
#[derive(Clone, Debug)]
pub enum Ask {
    /// Choose a saved game to open.
    Open,
    /// Choose where to save `record`; `sgf` when it may be saved as `.blksgf` (Blokus Trigon).
    SaveAs {
        /// The game's record when Save as… was pressed.
        record: Box<Record>,
        /// Pentobi's format is offered too.
        sgf: bool,
    },
}

/// A dialog asked for and not yet started, or the one open.
#[derive(Resource, Default)]
pub struct FileDialogs {
    asked: Option<Ask>,
    open: Option<(Ask, Instant, Task<Option<PathBuf>>)>,
}

impl FileDialogs {
    /// Asks for a dialog, which opens at the next frame (on the main thread, over the window).
    ///
    /// # Errors
    /// A dialog is open already, or none can open on this desktop ([`unavailable`]): the status
    /// line's sentence.
    pub fn ask(&mut self, ask: Ask) -> Result<(), Status> {
        if self.asked.is_some() || self.open.is_some() {
            return Err(Status::error("A file dialog is open already"));
        }
        if let Some(why) = unavailable() {
            return Err(no_dialog(&why));
        }
        self.asked = Some(ask);
        Ok(())
    }
}

/// "No file dialog here (WHY): Load… lists the data folder", short enough for two lines of the
/// side panel.
fn no_dialog(why: &str) -> Status {
    Status::error(format!("No file dialog here ({why}): Load… lists the data folder"))
}

/// Why no file dialog can open here, if none can: on Linux and the BSDs, neither a D-Bus session
/// bus (for the desktop portal) nor zenity on the `PATH`. Elsewhere the system always has one.
pub fn unavailable() -> Option<String> {
    if !cfg!(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "dragonfly",
        target_os = "netbsd",
        target_os = "openbsd"
    )) {
        return None;
    }
    unavailable_with(|key| std::env::var_os(key), |path| path.exists())
}

/// [`unavailable`] with the environment read by `var` and files looked for by `exists`.
fn unavailable_with(
    var: impl Fn(&str) -> Option<std::ffi::OsString>,
    exists: impl Fn(&Path) -> bool,
) -> Option<String> {
    let set = |key: &str| var(key).filter(|v| !v.is_empty());
    let bus = set("DBUS_SESSION_BUS_ADDRESS").is_some()
        || set("XDG_RUNTIME_DIR").is_some_and(|dir| exists(&Path::new(&dir).join("bus")));
    let zenity = set("PATH").is_some_and(|path| std::env::split_paths(&path).any(|dir| exists(&dir.join("zenity"))));
    (!bus && !zenity).then(|| "no desktop portal, no zenity".to_string())
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FileDialogs>().add_systems(Update, (start, finish).chain().in_set(Step::Intents));
}

/// Opens the dialog asked for, over the primary window (on the main thread: `NonSendMarker`).
fn start(
    _main: NonSendMarker,
    windows: Query<&RawHandleWrapper, With<PrimaryWindow>>,
    mut dialogs: ResMut<FileDialogs>,
) {
    let Some(ask) = dialogs.asked.take() else { return };
    let mut dialog = rfd::AsyncFileDialog::new();
    if let Ok(handle) = windows.single() {
        // SAFETY: on the main thread (this system is `NonSendMarker`), where every platform allows
        // using the window's handle.
        let parent = unsafe { handle.get_handle() };
        dialog = dialog.set_parent(&parent);
    }
    let dir = files::games_dir();
    if dir.is_dir() || std::fs::create_dir_all(&dir).is_ok() {
        dialog = dialog.set_directory(&dir);
    }
    let task = match &ask {
        Ask::Open => {
            let future = dialog
                .set_title("Open a game")
                .add_filter("Saved games (.json, .blksgf)", &["json", "blksgf"])
                .add_filter("JSON records (.json)", &["json"])
                .add_filter("Pentobi games (.blksgf)", &["blksgf"])
                .pick_file();
            IoTaskPool::get().spawn(async move { future.await.map(|file| file.path().to_path_buf()) })
        }
        Ask::SaveAs { record, sgf } => {
            let mut dialog = dialog
                .set_title("Save the game as")
                .set_file_name(files::new_name_as(record, Format::Json, |_| false))
                .add_filter("JSON record (.json)", &["json"]);
            if *sgf {
                dialog = dialog.add_filter("Pentobi game (.blksgf)", &[Format::Sgf.extension()]);
            }
            let future = dialog.save_file();
            IoTaskPool::get().spawn(async move { future.await.map(|file| file.path().to_path_buf()) })
        }
    };
    dialogs.open = Some((ask, Instant::now(), task));
}

/// Carries out what the open dialog answered, once it has: opens the file chosen, or saves there.
fn finish(mut dialogs: ResMut<FileDialogs>, mut pending: ResMut<PendingOpen>, mut status: ResMut<Status>) {
    let Some((_, started, task)) = dialogs.open.as_mut() else { return };
    let Some(chosen) = check_ready(task) else { return };
    let quick = started.elapsed() < QUICK;
    let Some((ask, _, _)) = dialogs.open.take() else { return };
    match (ask, chosen) {
        (_, None) if quick => {
            *status = no_dialog("neither the portal nor zenity opened one");
        }
        (_, None) => {}
        (Ask::Open, Some(path)) => offer_path(&mut pending, &mut status, &path),
        (Ask::SaveAs { record, sgf }, Some(path)) => {
            *status = match save_to(&record, sgf, &path) {
                Ok(place) => Status::info(format!("Saved to {place}")),
                Err(e) => Status::error(e),
            };
        }
    }
}

/// The format and path a name chosen in Save as… stands for: `.blksgf` is Pentobi's format (when
/// `sgf`), `.json` a record; any other name gets `.json` added.
///
/// # Errors
/// `.blksgf` for a game other than Blokus Trigon.
pub fn save_target(path: &Path, sgf: bool) -> Result<(Format, PathBuf), String> {
    let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("json") => Ok((Format::Json, path.to_path_buf())),
        Some(e) if e == Format::Sgf.extension() && sgf => Ok((Format::Sgf, path.to_path_buf())),
        Some(e) if e == Format::Sgf.extension() => Err("only Blokus Trigon games are saved as .blksgf".to_string()),
        _ => {
            let mut name = path.as_os_str().to_owned();
            name.push(".json");
            Ok((Format::Json, PathBuf::from(name)))
        }
    }
}

/// Writes `record` where Save as… chose; returns the path written.
fn save_to(record: &Record, sgf: bool, path: &Path) -> Result<String, String> {
    let (format, path) = save_target(path, sgf)?;
    let text = format.text(record)?;
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dialog_needs_a_session_bus_or_zenity() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |key: &str| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| std::ffi::OsString::from(v))
        };
        let nothing = |_: &Path| false;
        let why = unavailable_with(env(&[("PATH", "/usr/bin")]), nothing).expect("none");
        assert!(why.contains("portal") && why.contains("zenity"), "{why}");
        assert!(no_dialog(&why).text.ends_with("Load… lists the data folder"));
        assert_eq!(unavailable_with(env(&[("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/bus")]), nothing), None);
        let bus = |p: &Path| p == Path::new("/run/user/1000/bus");
        assert_eq!(unavailable_with(env(&[("XDG_RUNTIME_DIR", "/run/user/1000")]), bus), None);
        let zenity = |p: &Path| p == Path::new("/opt/bin/zenity");
        assert_eq!(unavailable_with(env(&[("PATH", "/usr/bin:/opt/bin")]), zenity), None);
    }

    #[test]
    fn the_name_chosen_says_the_format() {
        let json = save_target(Path::new("/g/a.json"), false).unwrap();
        assert_eq!(json, (Format::Json, PathBuf::from("/g/a.json")));
        assert_eq!(save_target(Path::new("/g/a.BLKSGF"), true).unwrap().0, Format::Sgf);
        assert!(save_target(Path::new("/g/a.blksgf"), false).is_err());
        assert_eq!(save_target(Path::new("/g/mine"), true).unwrap().1, PathBuf::from("/g/mine.json"));
        assert_eq!(save_target(Path::new("/g/mine.txt"), true).unwrap().1, PathBuf::from("/g/mine.txt.json"));
    }
}
