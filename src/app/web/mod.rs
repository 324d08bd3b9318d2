//! The browser page (wasm only, `docs/design.md` §Web): the loading indicator goes when the
//! first frame is drawn, the page title follows the window's, the address bar always holds the
//! share link of the game in play (and a link pasted there opens its game), Download / Upload of
//! records, and a small hook for the page's scripts and tests: `triboard_play(move)`,
//! `triboard_state()`, `triboard_frame_stats()` and `triboard_reset_frame_stats()`.

pub mod download;
pub mod file_input;
mod page;
pub mod storage;

pub(crate) use download::file_buttons;

use std::cell::RefCell;
use std::sync::Mutex;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use wasm_bindgen::prelude::*;

use super::ai_task::{AiThinking, ShownHint};
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
/// notation), `to_move`, `over`, `result`, `thinking`, `status`, `status_error`, `asking` (a
/// question is up: before the game in play is dropped, or "Resign this game?"); `online` (the online game on the board:
/// `code`, `seat`, `game_id`, `server_moves`, `connection`, `players_online`, `ended`, `watching`,
/// `players`, `rated`, `rating_changes`) and `lobby` (the Play online window and the account: `open`, `waiting`,
/// `said`, `tab`, `challenges`, `challenge_ids`, `live`, `bots`, `people_online`, `posted`,
/// `signed_in`, `name_typed`, `password_typed` (the password's length, never what), `account_said`, `watching`, `rating_change`, `leaderboard`, `profile`,
/// `pages_said`).
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
/// `redo`, `save`, `load`, `download`, `upload`, `new-game`: the side panel's buttons; the Play
/// online window's `online name`, `online password`, `online sign in`, `online sign up`,
/// `online sign out`, `lobby accept N`, `lobby watch N`, `lobby bot N`, `lobby post`,
/// `leaderboard`, `leaderboard name N`, `profile review N`, …: `app::ui::UiRects`), as JSON
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

/// What the online client shows, for the page's state: the account, the lobby, the pages.
#[derive(bevy::ecs::system::SystemParam)]
struct OnlineIn<'w> {
    game: Option<Res<'w, crate::app::online::OnlineGame>>,
    lobby: Res<'w, crate::app::online::lobby::Lobby>,
    account: Res<'w, crate::app::online::account::Account>,
    pages: Res<'w, crate::app::online::pages::Pages>,
}

/// Rebuilt only when the game, the status line, the thinking flag or online play changed.
fn publish_state(
    (in_play, status, thinking, hint): (Res<InPlay>, Res<Status>, Res<AiThinking>, Res<ShownHint>),
    windows: Res<crate::app::hud::windows::PanelWindows>,
    online: OnlineIn,
    mut was_asking: Local<bool>,
) {
    use crate::app::online::words::{change_words, link_words};
    let asking = windows.confirm.is_some() || windows.resign;
    let asked = std::mem::replace(&mut *was_asking, asking) != asking;
    let OnlineIn { game, lobby, account, pages } = online;
    let online_changed = game.as_ref().is_some_and(|o| o.is_changed())
        || lobby.is_changed()
        || account.is_changed()
        || pages.is_changed();
    if !(in_play.is_changed()
        || status.is_changed()
        || thinking.is_changed()
        || hint.is_changed()
        || asked
        || online_changed)
    {
        return;
    }
    // An online game: its code, the seat held (none when watching), the server's moves, the
    // connection, the players and the ratings' changes at its end.
    let online = game.as_deref().map(|o| {
        let seats = o.seats().len() as u8;
        serde_json::json!({
            "code": o.seat.code,
            "seat": o.seat.seat,
            "game_id": o.seat.game_id,
            "server_moves": o.moves,
            "connection": link_words(&o.connection),
            "players_online": o.online,
            "ended": o.ended(),
            "watching": o.watching(),
            "players": (0..seats).map(|s| o.player_label(s)).collect::<Vec<_>>(),
            "rated": o.state.as_ref().is_some_and(|s| s.rated),
            "rating_changes": o.rated.iter().map(change_words).collect::<Vec<_>>(),
        })
    });
    let view = lobby.view.as_ref();
    let lobby = serde_json::json!({
        "open": lobby.open,
        "waiting": lobby.waiting(),
        "said": lobby.said,
        "tab": format!("{:?}", lobby.tab).to_lowercase(),
        "challenges": view.map(|v| v.challenges.len()),
        "challenge_ids": view.map(|v| v.challenges.iter().map(|c| c.game_id.clone()).collect::<Vec<_>>()),
        "live": view.map(|v| v.live.len()),
        "bots": view.map(|v| v.bots.clone()),
        "people_online": view.map(|v| v.online),
        "posted": lobby.posted.as_ref().map(|p| p.game_id.clone()),
        "signed_in": account.signed_in,
        // What the form holds (the password only as its length, for a test to know its keys
        // arrived; the page's own script could read its memory anyway).
        "name_typed": account.name,
        "password_typed": account.password.chars().count(),
        "account_said": account.said.as_ref().map(|s| s.text.clone()),
        "watching": game.as_deref().filter(|g| g.watching()).map(|g| g.seat.game_id.clone()),
        // The person's own change (a spectator's: the first seat's).
        "rating_change": game.as_deref().and_then(|g| g.rated.iter().find(|c| g.mine(c.seat)).or(g.rated.first())).map(change_words),
        "leaderboard": pages.leaderboard.as_ref().map(|(game, rows)| serde_json::json!({
            "game": game,
            "names": rows.iter().map(|r| r.name.clone()).collect::<Vec<_>>(),
        })),
        "profile": pages.profile.as_ref().map(|p| serde_json::json!({ "name": p.name, "games": p.games.len() })),
        "pages_said": pages.said.as_ref().map(|s| s.text.clone()),
    });
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
