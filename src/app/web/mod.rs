//! The browser page (wasm only, `docs/design.md` §Web): the loading indicator goes when the
//! first frame is drawn, the page title follows the window's, the address bar always holds the
//! share link of the game in play (and a link pasted there opens its game), Download / Upload of
//! records, and a small hook for the page's scripts and tests: `triboard_play(move)`,
//! `triboard_state()`, `triboard_frame_stats()` and `triboard_reset_frame_stats()`.

pub mod file_input;
mod page;
pub mod storage;

use std::cell::RefCell;
use std::sync::Mutex;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::egui;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use super::ai_task::{AiThinking, ShownHint};
use super::files;
use super::flow::{Status, Step, TextIntent};
use super::frame_log::FrameTimes;
use super::games::AppGame;
use super::in_play::InPlay;
use super::learn::Learning;
use super::model::Model;
use super::session::{self, OpenRecord};
use super::share;
use super::ui::UiRects;
use page::{lock, window};

/// Moves sent by the page's scripts, waiting for the next frame.
static PLAYED: Mutex<Vec<String>> = Mutex::new(Vec::new());
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

/// The app's state as JSON: `screen` (`menu` or `playing`), `game` (the record's id), `moves` (in
/// notation), `to_move`, `over`, `result`, `thinking`, `status`, `status_error`, `asking` (the
/// question before the game in play is dropped is up).
#[wasm_bindgen]
pub fn triboard_state() -> String {
    lock(&STATE).clone()
}

/// The games of the registry as JSON, one entry per game id in the start screen's order: `id`,
/// `seats` (at the id's default options) and `lesson` (a lesson has this id), so the browser test
/// plays every game the build has.
#[wasm_bindgen]
pub fn triboard_games() -> String {
    struct List(Vec<serde_json::Value>);
    impl super::games::ForEachGame for List {
        fn game<G: AppGame>(&mut self) {
            for &id in G::IDS {
                let seats = G::new(&G::options_for_id(id)).map_or(0, |g| g.num_players());
                let lesson = crate::rules::lesson::LESSONS.iter().any(|(l, _)| *l == id);
                self.0.push(serde_json::json!({ "id": id, "seats": seats, "lesson": lesson }));
            }
        }
    }
    let mut list = List(Vec::new());
    super::games::each_game(&mut list);
    serde_json::Value::Array(list.0).to_string()
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

/// The legal moves of the player to move, in notation, as a JSON array (`[]` on the start screen).
#[wasm_bindgen]
pub fn triboard_legal() -> String {
    lock(&LEGAL).clone()
}

/// Where a named widget was drawn last frame (`start`: the start screen's Start button; `undo`,
/// `redo`, `save`, `load`, `download`, `upload`, `new-game`: the side panel's buttons), as JSON
/// `{x, y, w, h}` in CSS pixels, or `""` when it is not shown.
#[wasm_bindgen]
pub fn triboard_ui_rect(name: &str) -> String {
    lock(&RECTS).get(name).cloned().unwrap_or_default()
}

/// The points to press, in order, so that a person's presses play `text` (a move in notation) in
/// the game in play: a promise of a JSON array of `{x, y}` in CSS pixels, answered at the next
/// frame, or of a JSON string with the reason there are none. Where the game needs a choice made
/// before pressing (Trigon's piece and orientation), the hook makes it.
#[wasm_bindgen]
pub fn triboard_click_points(text: &str) -> js_sys::Promise {
    let text = text.to_string();
    js_sys::Promise::new(&mut |resolve, _reject| {
        CLICKS.with(|clicks| clicks.borrow_mut().push((text.clone(), resolve)));
    })
}

/// The legal moves as `triboard_legal` gives them, refreshed when the model changes.
static LEGAL: Mutex<String> = Mutex::new(String::new());
/// The named widgets' rectangles as `triboard_ui_rect` gives them.
static RECTS: Mutex<std::collections::BTreeMap<String, String>> = Mutex::new(std::collections::BTreeMap::new());

thread_local! {
    /// `triboard_click_points` requests waiting for the next frame: the move and the promise's resolve.
    static CLICKS: RefCell<Vec<(String, js_sys::Function)>> = const { RefCell::new(Vec::new()) };
}

pub(super) fn plugin(app: &mut App) {
    file_input::plugin(app);
    app.add_systems(Update, (follow_link, take_played).in_set(Step::Intents)).add_systems(
        Last,
        (first_frame.run_if(run_once), page_title, publish_state, publish_frames, publish_rects, publish_menu_legal),
    );
}

/// The page hooks of one game type (called by the registry for every game): its legal moves, and
/// the points to press for a move.
pub(super) fn game_plugin<G: AppGame>(app: &mut App) {
    app.add_systems(
        Last,
        (
            publish_legal::<G>.run_if(resource_exists_and_changed::<Model<G>>),
            answer_clicks::<G>.run_if(resource_exists::<Model<G>>),
        ),
    );
}

/// On the start screen there are no legal moves.
fn publish_menu_legal(in_play: Res<InPlay>) {
    if in_play.is_changed() && in_play.0.is_none() {
        *lock(&LEGAL) = "[]".to_string();
    }
}

fn publish_legal<G: AppGame>(model: Res<Model<G>>) {
    let mut moves = Vec::new();
    model.game().legal_moves(&mut moves);
    let texts: Vec<String> = moves.iter().map(|&mv| model.game().move_text(mv)).collect();
    *lock(&LEGAL) = serde_json::to_string(&texts).expect("strings serialise");
}

/// Answers `triboard_click_points`: the game's presses for the move ([`AppGame::click_points`]),
/// from world to CSS pixels through the board's camera.
fn answer_clicks<G: AppGame>(world: &mut World) {
    let requests = CLICKS.with(|clicks| std::mem::take(&mut *clicks.borrow_mut()));
    for (text, resolve) in requests {
        let parsed = world.resource::<Model<G>>().game().parse_move(&text).map_err(|e| format!("{text}: {e}"));
        let answer = parsed.and_then(|mv| G::click_points(world, mv)).and_then(|points| {
            let mut cameras = world.query_filtered::<(&Camera, &GlobalTransform), With<Camera2d>>();
            let (camera, at) = cameras.single(world).map_err(|_| "no board camera".to_string())?;
            points
                .iter()
                .map(|p| {
                    camera
                        .world_to_viewport(at, p.extend(0.0))
                        .map(|v| serde_json::json!({ "x": v.x, "y": v.y }))
                        .map_err(|_| format!("{text}: a point off the screen"))
                })
                .collect::<Result<Vec<_>, String>>()
        });
        let json = match answer {
            Ok(points) => serde_json::Value::from(points),
            Err(why) => serde_json::Value::from(why),
        };
        let _ = resolve.call1(&JsValue::NULL, &JsValue::from_str(&json.to_string()));
    }
}

fn publish_rects(rects: Res<UiRects>) {
    if !rects.is_changed() {
        return;
    }
    // In the page's CSS pixels: egui's points times its zoom.
    let z = rects.zoom;
    *lock(&RECTS) = rects
        .rects
        .iter()
        .map(|(name, r)| {
            let rect =
                serde_json::json!({ "x": r.min.x * z, "y": r.min.y * z, "w": r.width() * z, "h": r.height() * z });
            (name.to_string(), rect.to_string())
        })
        .collect();
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
/// on the start screen), and opens the game of a link pasted or opened in it (or, for `#learn=ID`,
/// the lesson of that game).
fn follow_link(
    mut commands: Commands,
    in_play: Res<InPlay>,
    opening: Option<Res<OpenRecord>>,
    online: Option<Res<crate::app::online::OnlineGame>>,
    mut status: ResMut<Status>,
    mut shown: Local<Option<String>>,
) {
    if opening.is_some() {
        return;
    }
    let location = window().location();
    let hash = location.hash().unwrap_or_default();
    // An online game's invitation (`#join=CODE`) is online play's (`online::lobby`), at launch.
    if hash.starts_with("#join=") && shown.is_none() {
        *shown = Some(hash);
        return;
    }
    // First frame, or the person changed the fragment: open what it holds.
    if shown.as_deref() != Some(hash.as_str()) && !hash.starts_with("#join=") {
        // A lesson's link: `#learn=trike` opens Learn on that game.
        if let Some(id) = hash.strip_prefix("#learn=") {
            match Learning::for_game(id) {
                Some(learning) => session::open_lesson(learning, &mut commands),
                None => *status = Status::error(format!("cannot open the link: no lesson for '{id}'")),
            }
            *shown = Some(hash);
            return;
        }
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
    // The game in play, if it changed this frame.
    let wanted = match (&in_play.0, online.as_deref()) {
        // An online game's address is its invitation: a reload resumes the seat held there.
        (Some(_), Some(game)) if !game.seat.code.is_empty() => format!("#join={}", game.seat.code),
        (_, Some(_)) => return,
        (in_play_now, None) => match in_play_now {
            Some(summary) if in_play.is_changed() => share::fragment(&summary.record),
            Some(_) => return,
            None if hash.is_empty() => return,
            None => String::new(),
        },
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

/// The page's moves go to the game in play as text intents.
fn take_played(mut texts: MessageWriter<TextIntent>) {
    for text in std::mem::take(&mut *lock(&PLAYED)) {
        texts.write(TextIntent(text));
    }
}

/// Rebuilt only when the game, the status line or the thinking flag changed.
fn publish_state(
    (in_play, status, thinking, hint): (Res<InPlay>, Res<Status>, Res<AiThinking>, Res<ShownHint>),
    windows: Res<crate::app::hud::windows::PanelWindows>,
    online: Option<Res<crate::app::online::OnlineGame>>,
    lobby: Res<crate::app::online::lobby::Lobby>,
    mut was_asking: Local<bool>,
) {
    let asking = windows.confirm.is_some();
    let asked = std::mem::replace(&mut *was_asking, asking) != asking;
    let online_changed = online.as_ref().is_some_and(|o| o.is_changed()) || lobby.is_changed();
    if !(in_play.is_changed()
        || status.is_changed()
        || thinking.is_changed()
        || hint.is_changed()
        || asked
        || online_changed)
    {
        return;
    }
    // An online game: its code, the seat held, the server's moves and the connection.
    let online = online.as_deref().map(|o| {
        serde_json::json!({
            "code": o.seat.code,
            "seat": o.seat.seat,
            "game_id": o.seat.game_id,
            "server_moves": o.moves,
            "connection": crate::app::online::lobby::link_words(&o.connection),
            "players_online": o.online,
            "ended": o.ended(),
        })
    });
    let lobby = serde_json::json!({ "open": lobby.open, "waiting": lobby.waiting(), "said": lobby.said });
    let state = match &in_play.0 {
        Some(s) => serde_json::json!({
            "screen": "playing",
            "game": s.record.game,
            "moves": s.record.moves,
            "to_move": s.to_move,
            "over": s.over,
            "result": s.record.result,
            "thinking": thinking.0,
            "status": status.text,
            "status_error": status.error,
            "shown": s.shown,
            "review": s.review,
            "hint": hint.0,
            "analysed": s.analysed,
            "mistakes": s.mistakes,
            "asking": asking,
            "online": online,
            "lobby": lobby,
        }),
        None => serde_json::json!({
            "screen": "menu",
            "status": status.text,
            "status_error": status.error,
            "lobby": lobby,
        }),
    };
    *lock(&STATE) = state.to_string();
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
pub(crate) fn file_buttons<G: AppGame>(ui: &mut egui::Ui, model: &Model<G>, status: &mut Status, rects: &mut UiRects) {
    // Wrapped: four buttons do not fit one row of a narrow panel.
    ui.horizontal_wrapped(|ui| {
        let download_button = ui.button("Download").on_hover_text("Save the game as a JSON file");
        rects.set("download", download_button.rect);
        if download_button.clicked() {
            let record = model.record();
            *status = match download(&files::new_name_as(&record, files::Format::Json, |_| false), &record.to_json()) {
                Ok(()) => Status::info("Downloaded the game"),
                Err(e) => Status::error(e),
            };
        }
        if G::INFO.sgf && ui.button("Download .blksgf").on_hover_text("Save in Pentobi's format").clicked() {
            let record = model.record();
            *status = match files::Format::Sgf
                .text(&record)
                .and_then(|text| download(&files::new_name_as(&record, files::Format::Sgf, |_| false), &text))
            {
                Ok(()) => Status::info("Downloaded the game"),
                Err(e) => Status::error(e),
            };
        }
        let upload_button = ui.button("Upload…").on_hover_text("Load a game from a JSON or .blksgf file");
        rects.set("upload", upload_button.rect);
        if upload_button.clicked()
            && let Err(e) = file_input::upload()
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
