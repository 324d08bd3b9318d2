//! Files coming in from the page: Upload… (the side panel's), the start screen's Open… (both the
//! browser's file chooser), and a file dropped anywhere on the page. Each is opened as on the
//! desktop ([`PendingOpen`]: asked about first when an unfinished game would be dropped; a record
//! of another game switches to it). A file larger than [`MAX_BYTES`](crate::app::pending_open::MAX_BYTES) is refused
//! unread.

use std::sync::Mutex;

use bevy::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use super::page::{lock, window};
use crate::app::flow::{Status, Step};
use crate::app::pending_open::{PendingOpen, precheck};

/// A file's name and its text (or why it was not read).
type Incoming = (String, Result<String, String>);

/// Files of Upload…, Open… and dropped on the page, waiting for the next frame.
static OPENED: Mutex<Vec<Incoming>> = Mutex::new(Vec::new());

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, listen_for_drops).add_systems(Update, take_opened.in_set(Step::Intents));
}

/// Opens the browser's file chooser for Upload… and Open…; the chosen file opens as a dropped one
/// does, in a later frame.
///
/// # Errors
/// The browser refused to open a file chooser.
pub fn upload() -> Result<(), String> {
    choose_file(&OPENED)
}

/// Opens the browser's file chooser; the chosen file's text arrives in `queue` in a later frame.
fn choose_file(queue: &'static Mutex<Vec<Incoming>>) -> Result<(), String> {
    let fail = |_| "the browser refused to open a file".to_string();
    let document = window().document().ok_or("no document")?;
    let input: web_sys::HtmlInputElement = document.create_element("input").map_err(fail)?.unchecked_into();
    input.set_type("file");
    input.set_accept(".json,.blksgf,application/json");
    let chooser = input.clone();
    let on_change = Closure::once(move || {
        if let Some(file) = chooser.files().and_then(|files| files.get(0)) {
            read(file, queue);
        }
    });
    input.set_onchange(Some(on_change.as_ref().unchecked_ref()));
    on_change.forget();
    input.click();
    Ok(())
}

/// Reads `file`'s text into `queue` (a later frame takes it); a file too large, or not a saved
/// game's, is refused unread.
fn read(file: web_sys::File, queue: &'static Mutex<Vec<Incoming>>) {
    let name = file.name();
    if let Some(why) = precheck(&name, file.size() as u64) {
        lock(queue).push((name, Err(why)));
        return;
    }
    let on_text = Closure::once(move |text: JsValue| {
        let text = text.as_string().ok_or_else(|| "the browser could not read it as text".to_string());
        lock(queue).push((name, text));
    });
    let _ = file.text().then(&on_text);
    on_text.forget();
}

/// A file dropped anywhere on the page opens ([`OPENED`]); the page's own handling of a drop
/// (opening the file in the tab) is prevented.
fn listen_for_drops() {
    let Some(document) = window().document() else { return };
    let over = Closure::<dyn FnMut(web_sys::DragEvent)>::new(|event: web_sys::DragEvent| {
        // Without this the page does not take the drop.
        event.prevent_default();
    });
    let drop = Closure::<dyn FnMut(web_sys::DragEvent)>::new(|event: web_sys::DragEvent| {
        event.prevent_default();
        if let Some(file) = event.data_transfer().and_then(|d| d.files()).and_then(|files| files.get(0)) {
            read(file, &OPENED);
        }
    });
    let _ = document.add_event_listener_with_callback("dragover", over.as_ref().unchecked_ref());
    let _ = document.add_event_listener_with_callback("drop", drop.as_ref().unchecked_ref());
    over.forget();
    drop.forget();
}

/// Open…'s and dropped files wait to be opened ([`PendingOpen`]); a refusal says why.
fn take_opened(mut pending: ResMut<PendingOpen>, mut status: ResMut<Status>) {
    for (name, text) in std::mem::take(&mut *lock(&OPENED)) {
        if let Err(refused) = pending.offer(&name, text) {
            *status = refused;
        }
    }
}
