//! Opening a game from a file the person hands over: dropped on the window, chosen with Open…
//! ([`super::dialogs`]), or in the browser dropped on the page. The file is read (at most
//! `pending_open::MAX_BYTES`), parsed ([`files::parse`]: JSON or `.blksgf`) and opened as Load opens a saved
//! game: in a game, after the drop-the-game question when that game is unfinished
//! ([`PanelWindows::drop_game`]); on the start screen, after its own question when the game Menu
//! left is unfinished (or at once). A record of another game than the board's switches to that
//! game, with the record's seats. A file that cannot be opened changes nothing and says why in the
//! status line, naming the file.

use bevy::prelude::*;
use bevy::window::FileDragAndDrop;

use super::flow::{Command, Screen, Status, Step};
use super::games::AppGame;
use super::hud::windows::PanelWindows;
use super::model::Model;
use super::pending_open::PendingOpen;
#[cfg(not(target_arch = "wasm32"))]
use super::pending_open::offer_path;
use super::session::{OpenRecord, Suspended};

/// The desktop's file dialogs (Open…, Save as…) as the panels' systems take them; nothing in the
/// browser, whose page has its own file chooser.
#[cfg(not(target_arch = "wasm32"))]
pub type Dialogs<'w> = ResMut<'w, super::dialogs::FileDialogs>;
/// The desktop's file dialogs (Open…, Save as…) as the panels' systems take them; nothing in the
/// browser, whose page has its own file chooser.
#[cfg(target_arch = "wasm32")]
pub type Dialogs<'w> = ();

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
