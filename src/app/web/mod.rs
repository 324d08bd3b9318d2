//! The browser page (wasm only, `../shared/design.md` §Web): the loading indicator goes when the
//! first frame is drawn, the page title follows the window's, the address bar always holds the
//! share link of the game in play (and a link pasted there opens its game), Download / Upload of
//! records, and a small hook for the page's scripts and tests: `triboard_play(move)`,
//! `triboard_state()`, `triboard_frame_stats()` and `triboard_reset_frame_stats()`.

pub mod storage;

use std::sync::Mutex;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::egui;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use super::ai_task::AiSearch;
use super::files;
use super::frame_log::FrameTimes;
use super::model::{AppGame, Command, Model, MoveIntent, Status, Step};
use super::share::{self, OpenRecord};
use super::{Playing, WithModel};
use crate::rules::Game;
use crate::rules::record::Record;
use crate::rules::tri_it_out::TriItOut;
use crate::rules::tricore::TriCore;
use crate::rules::trigon::Trigon;
use crate::rules::trike::Trike;
use crate::rules::trisq::Trisq;

/// Moves sent by the page's scripts, waiting for the next frame.
static PLAYED: Mutex<Vec<String>> = Mutex::new(Vec::new());
/// Uploaded files (name, text), waiting for the next frame.
static UPLOADED: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());
/// The state as the page's scripts read it (JSON), refreshed every frame.
static STATE: Mutex<String> = Mutex::new(String::new());
/// The frame-time summary (JSON), refreshed every half second.
static FRAMES: Mutex<String> = Mutex::new(String::new());

/// Plays `text`, a move in the game's notation, for the person to move, as a click on the board
/// would: the same checks, and a refusal shows its reason in the status line.
#[wasm_bindgen]
pub fn triboard_play(text: &str) {
    lock(&PLAYED).push(text.to_string());
}

/// The app's state as JSON: `screen`, `moves` (in notation), `to_move`, `over`, `thinking`,
/// `status`, `status_error`.
#[wasm_bindgen]
pub fn triboard_state() -> String {
    lock(&STATE).clone()
}

/// Frame times in ms, idle and while the AI thinks: `{"idle": {"frames", "p50_ms", "p99_ms",
/// "max_ms"}, "thinking": {...}}`.
#[wasm_bindgen]
pub fn triboard_frame_stats() -> String {
    lock(&FRAMES).clone()
}

/// Frame times are forgotten at the next frame (`triboard_reset_frame_stats`).
static RESET_FRAMES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Forgets the frame times so far (say, the first frames that compile the shaders), so that the
/// next summaries cover what comes after.
#[wasm_bindgen]
pub fn triboard_reset_frame_stats() {
    RESET_FRAMES.store(true, std::sync::atomic::Ordering::Relaxed);
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            follow_link,
            (
                take_played::<Trike>,
                take_played::<TriItOut>,
                take_played::<TriCore>,
                take_played::<Trisq>,
                take_played::<Trigon>,
            )
                .chain(),
            take_uploads,
        )
            .in_set(Step::Intents),
    )
    .add_systems(Last, (first_frame.run_if(run_once), page_title, publish_state, publish_frames));
}

fn window() -> web_sys::Window {
    web_sys::window().expect("the app runs in a browser window")
}

/// The loading indicator goes; `data-first-frame` on `<body>` records when (ms since the page
/// began loading), for the browser test.
fn first_frame() {
    let now = window().performance().map_or(0.0, |p| p.now());
    if let Some(document) = window().document() {
        if let Some(loading) = document.get_element_by_id("loading") {
            loading.remove();
        }
        if let Some(body) = document.body() {
            let _ = body.set_attribute("data-first-frame", &format!("{now:.0}"));
        }
    }
    info!("first frame {now:.0} ms after the page began loading");
}

/// The page title is the window's (winit's web backend only puts it on the canvas).
fn page_title(windows: Query<&Window, (With<PrimaryWindow>, Changed<Window>)>) {
    if let (Ok(w), Some(document)) = (windows.single(), window().document()) {
        document.set_title(&w.title);
    }
}

/// Keeps the address bar's fragment the share link of the game in play (no history entries; none
/// on the start screen), and opens the game of a link pasted or opened in it.
fn follow_link(
    mut commands: Commands,
    playing: Playing,
    opening: Option<Res<OpenRecord>>,
    mut status: ResMut<Status>,
    mut shown: Local<Option<String>>,
) {
    if opening.is_some() {
        return;
    }
    let location = window().location();
    let hash = location.hash().unwrap_or_default();
    // First frame, or the person changed the fragment: open what it holds.
    if shown.as_deref() != Some(hash.as_str()) {
        match share::parse_fragment(&hash) {
            Ok(Some(record)) => {
                commands.insert_resource(OpenRecord(record));
            }
            Ok(None) => {}
            Err(e) => *status = Status::error(format!("cannot open the link: {e}")),
        }
        *shown = Some(hash);
        return;
    }
    // The game in play, if its model changed this frame.
    struct ChangedRecord;
    impl WithModel for ChangedRecord {
        type Output = Option<Record>;
        fn run<G: AppGame>(self, model: &Res<Model<G>>) -> Option<Record> {
            model.is_changed().then(|| model.record())
        }
    }
    let changed = playing.with(ChangedRecord);
    let wanted = match changed {
        Some(Some(record)) => share::fragment(&record),
        Some(None) => return,
        None if hash.is_empty() => return,
        None => String::new(),
    };
    if wanted != hash {
        let url = if wanted.is_empty() {
            format!("{}{}", location.pathname().unwrap_or_default(), location.search().unwrap_or_default())
        } else {
            wanted.clone()
        };
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
        }
        // As the browser reads it back, so it is not taken for a link the person opened.
        *shown = Some(location.hash().unwrap_or_default());
    }
}

fn take_played<G: AppGame>(
    model: Option<Res<Model<G>>>,
    mut status: ResMut<Status>,
    mut intents: MessageWriter<MoveIntent<G::Move>>,
) {
    // Whichever game is in play takes the moves; the others, run before Trigon's, leave them when
    // their game is not in play, and Trigon's, last, says when no game is.
    if model.is_none() && G::IDS != Trigon::IDS {
        return;
    }
    let played: Vec<String> = std::mem::take(&mut *lock(&PLAYED));
    for text in played {
        match model.as_ref().map(|m| m.game.parse_move(&text)) {
            Some(Ok(mv)) => {
                intents.write(MoveIntent { mv, from_ai: false });
            }
            Some(Err(e)) => *status = Status::error(format!("{text}: {e}")),
            None => *status = Status::error(format!("{text}: no game in play")),
        }
    }
}

fn take_uploads(mut status: ResMut<Status>, mut orders: MessageWriter<Command>) {
    let uploaded: Vec<(String, String)> = std::mem::take(&mut *lock(&UPLOADED));
    for (name, text) in uploaded {
        match files::parse(&text) {
            Ok(record) => {
                orders.write(Command::Load(record));
            }
            Err(e) => *status = Status::error(format!("cannot load {name}: {e}")),
        }
    }
}

/// Rebuilt only when the game, the status line or the thinking flag changed.
#[allow(clippy::too_many_arguments)]
fn publish_state(
    playing: Playing,
    status: Res<Status>,
    trike_search: Res<AiSearch<Trike>>,
    trigon_search: Res<AiSearch<Trigon>>,
    tri_it_out_search: Res<AiSearch<TriItOut>>,
    tricore_search: Res<AiSearch<TriCore>>,
    trisq_search: Res<AiSearch<Trisq>>,
    mut shown: Local<Option<(Option<u64>, Status, bool)>>,
) {
    struct Revision;
    impl WithModel for Revision {
        type Output = u64;
        fn run<G: AppGame>(self, model: &Res<Model<G>>) -> u64 {
            model.revision
        }
    }
    let thinking = trike_search.is_thinking()
        || trigon_search.is_thinking()
        || tri_it_out_search.is_thinking()
        || tricore_search.is_thinking()
        || trisq_search.is_thinking();
    let key = (playing.with(Revision), status.clone(), thinking);
    if shown.as_ref() == Some(&key) {
        return;
    }
    fn in_play<G: AppGame>(model: &Model<G>, status: &Status, thinking: bool) -> serde_json::Value {
        let record = model.record();
        serde_json::json!({
            "screen": "playing",
            "game": record.game,
            "moves": record.moves,
            "to_move": model.game.to_move().map(|p| model.game.player_name(p)),
            "over": model.game.outcome().is_some(),
            "result": model.result_text(),
            "thinking": thinking,
            "status": status.text,
            "status_error": status.error,
        })
    }
    struct State<'a>(&'a Status, bool);
    impl WithModel for State<'_> {
        type Output = serde_json::Value;
        fn run<G: AppGame>(self, model: &Res<Model<G>>) -> serde_json::Value {
            in_play(&**model, self.0, self.1)
        }
    }
    let state = playing.with(State(&status, key.2)).unwrap_or_else(
        || serde_json::json!({ "screen": "menu", "status": status.text, "status_error": status.error }),
    );
    *lock(&STATE) = state.to_string();
    *shown = Some(key);
}

/// Every half second (the summary sorts all frame times).
fn publish_frames(mut times: ResMut<FrameTimes>, time: Res<Time<Real>>, mut last: Local<f32>) {
    if RESET_FRAMES.swap(false, std::sync::atomic::Ordering::Relaxed) {
        *times = FrameTimes::default();
    }
    let now = time.elapsed_secs();
    if now - *last >= 0.5 {
        *last = now;
        *lock(&FRAMES) = times.summary().to_string();
    }
}

/// The browser's extra buttons in the side panel: Download and Upload the record as a file, and
/// copy the share link.
pub(super) fn file_buttons<G: AppGame>(ui: &mut egui::Ui, model: &Model<G>, status: &mut Status) {
    ui.horizontal(|ui| {
        if ui.button("Download").on_hover_text("Save the game as a JSON file").clicked() {
            let record = model.record();
            *status = match download(&files::new_name_as(&record, files::Format::Json, |_| false), &record.to_json()) {
                Ok(()) => Status::info("Downloaded the game"),
                Err(e) => Status::error(e),
            };
        }
        if record_is_trigon(model) && ui.button("Download .blksgf").on_hover_text("Save in Pentobi's format").clicked()
        {
            let record = model.record();
            *status = match files::Format::Sgf
                .text(&record)
                .and_then(|text| download(&files::new_name_as(&record, files::Format::Sgf, |_| false), &text))
            {
                Ok(()) => Status::info("Downloaded the game"),
                Err(e) => Status::error(e),
            };
        }
        if ui.button("Upload…").on_hover_text("Load a game from a JSON or .blksgf file").clicked()
            && let Err(e) = upload()
        {
            *status = Status::error(e);
        }
        if ui.button("Share link").on_hover_text("Copy a link that opens this game at this move").clicked() {
            let location = window().location();
            let link = format!(
                "{}{}{}",
                location.origin().unwrap_or_default(),
                location.pathname().unwrap_or_default(),
                share::fragment(&model.record())
            );
            let _ = window().navigator().clipboard().write_text(&link);
            *status = Status::info("Link copied — the address bar holds it too");
        }
    });
}

fn record_is_trigon<G: AppGame>(model: &Model<G>) -> bool {
    Trigon::IDS.contains(&model.game.id())
}

/// Offers `text` as a file download named `name`.
fn download(name: &str, text: &str) -> Result<(), String> {
    let fail = |_| "the browser refused the download".to_string();
    let document = window().document().ok_or("no document")?;
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let anchor: web_sys::HtmlAnchorElement = document.create_element("a").map_err(fail)?.unchecked_into();
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Opens the browser's file chooser; the chosen file's text arrives in a later frame.
fn upload() -> Result<(), String> {
    let fail = |_| "the browser refused to open a file".to_string();
    let document = window().document().ok_or("no document")?;
    let input: web_sys::HtmlInputElement = document.create_element("input").map_err(fail)?.unchecked_into();
    input.set_type("file");
    input.set_accept(".json,.blksgf,application/json");
    let chooser = input.clone();
    let on_change = Closure::once(move || {
        let Some(file) = chooser.files().and_then(|files| files.get(0)) else { return };
        let name = file.name();
        let on_text = Closure::once(move |text: JsValue| {
            lock(&UPLOADED).push((name, text.as_string().unwrap_or_default()));
        });
        let _ = file.text().then(&on_text);
        on_text.forget();
    });
    input.set_onchange(Some(on_change.as_ref().unchecked_ref()));
    on_change.forget();
    input.click();
    Ok(())
}
