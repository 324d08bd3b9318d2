//! Headless system tests of the app: `MinimalPlugins` + the app's core plugin (model, validation,
//! board entities, animation, AI tasks), intents sent directly instead of through picking.
#![cfg(feature = "app")]

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use triboard::ai::Level;
use triboard::app::board::BoardCell;
use triboard::app::board::trike::{Checker, Pawn};
use triboard::app::runner::AiRunner;
use triboard::app::session::OpenRecord;
use triboard::app::{Command, MoveIntent, Screen, Seat, Setup, Status};
use triboard::rules::Game;
use triboard::rules::trike::{Color as Stone, Trike, TrikeMove, TrikeOptions};

/// Trike's model, the app's resource while a game of Trike is in play.
type Model = triboard::app::Model<Trike>;
/// Trike's search.
type AiSearch = triboard::app::ai_task::AiSearch<Trike>;

/// A headless app (`MinimalPlugins` and the app's core plugin) with `setup`'s game started.
fn started(setup: Setup) -> App {
    let mut app = App::new();
    // No settings file: the defaults, and a test's changes are kept nowhere.
    app.add_plugins((MinimalPlugins, StatesPlugin)).insert_resource(triboard::app::settings::SettingsFile(None));
    triboard::app::core_plugin(&mut app);
    app.insert_resource(setup);
    app.update();
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    app.update();
    app.update();
    app
}

fn app_with(size: u8, seats: [Seat; 2]) -> App {
    started(Setup::of::<Trike>(&TrikeOptions { size }, &seats))
}

fn humans(size: u8) -> App {
    app_with(size, [Seat::Human, Seat::Human])
}

fn cell(app: &App, name: &str) -> usize {
    app.world().resource::<Model>().game().geometry().parse(name).expect("a cell name")
}

fn click(app: &mut App, name: &str) {
    let mv = TrikeMove::to(cell(app, name));
    app.world_mut().write_message(MoveIntent { mv, from_ai: false });
    app.update();
}

/// What the board shows: checkers by cell and colour, and the pawn's cell.
fn board(app: &mut App) -> (Vec<(usize, Stone)>, Option<usize>) {
    let world = app.world_mut();
    let mut checkers: Vec<(usize, Stone)> = world.query::<&Checker>().iter(world).map(|c| (c.cell, c.owner)).collect();
    checkers.sort_by_key(|c| c.0);
    let pawns: Vec<Option<usize>> = world.query::<&Pawn>().iter(world).map(|p| p.cell).collect();
    assert_eq!(pawns.len(), 1, "exactly one pawn entity");
    (checkers, pawns[0])
}

fn pawn_translation(app: &mut App) -> Vec2 {
    let world = app.world_mut();
    world.query_filtered::<&Transform, With<Pawn>>().single(world).expect("one pawn").translation.truncate()
}

#[test]
fn the_board_has_one_entity_per_cell() {
    let mut app = humans(7);
    let world = app.world_mut();
    assert_eq!(world.query::<&BoardCell>().iter(world).count(), 28);
    assert_eq!(board(&mut app), (vec![], None));
}

#[test]
fn a_legal_click_moves_the_pawn_and_spawns_a_checker() {
    let mut app = humans(7);
    click(&mut app, "d7");
    let d7 = cell(&app, "d7");
    assert_eq!(board(&mut app), (vec![(d7, Stone::Black)], Some(d7)));
    click(&mut app, "d4");
    let d4 = cell(&app, "d4");
    assert_eq!(board(&mut app), (vec![(d4, Stone::White), (d7, Stone::Black)], Some(d4)));
    assert!(!app.world().resource::<Status>().error);
    // The view catches up: after the slide the pawn entity stands on d4.
    assert!(pawn_reaches(&mut app, d4), "the pawn slid to d4");
}

/// Updates the app until the pawn entity stands on `cell` (at most 3 s); false if it never does.
fn pawn_reaches(app: &mut App, cell: usize) -> bool {
    let target =
        triboard::app::board::trike::layout::cell_center(app.world().resource::<Model>().game().geometry(), cell);
    let deadline = Instant::now() + Duration::from_secs(3);
    while pawn_translation(app).distance(target) > 0.01 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
        app.update();
    }
    pawn_translation(app).distance(target) <= 0.01
}

#[test]
fn a_move_in_the_frame_a_slide_ends_starts_its_own_slide() {
    let mut app = humans(7);
    click(&mut app, "d7");
    click(&mut app, "d4");
    // The slide to d4 ends in the very frame the next move comes.
    let world = app.world_mut();
    let mut slides = world.query_filtered::<&mut triboard::app::animation::Slide, With<Pawn>>();
    slides.single_mut(world).expect("the pawn slides to d4").elapsed = 10.0;
    click(&mut app, "b4");
    let b4 = cell(&app, "b4");
    assert_eq!(board(&mut app).1, Some(b4));
    assert!(pawn_reaches(&mut app, b4), "the pawn reached b4, not stuck on d4");
}

/// One cursor key, then a frame.
fn cursor_key(app: &mut App, key: triboard::app::board::cursor::CursorKey) {
    app.world_mut().write_message(key);
    app.update();
}

#[test]
fn the_keyboard_cursor_moves_along_the_board_and_space_plays_its_cell() {
    use triboard::app::board::cursor::{Arrow, BoardCursor, CursorKey};
    let mut app = humans(7);
    // ↑ brings the cursor up on the cell nearest the centre; ↓ and → step to neighbours.
    cursor_key(&mut app, CursorKey::Step(Arrow::Up));
    let first = app.world().resource::<BoardCursor>().0.expect("the cursor is up");
    cursor_key(&mut app, CursorKey::Step(Arrow::Down));
    cursor_key(&mut app, CursorKey::Step(Arrow::Down));
    cursor_key(&mut app, CursorKey::Step(Arrow::Down));
    cursor_key(&mut app, CursorKey::Step(Arrow::Down));
    let bottom = app.world().resource::<BoardCursor>().0.unwrap();
    assert_ne!(first, bottom);
    let name = |app: &App, cell: usize| app.world().resource::<Model>().game().geometry().name(cell);
    assert!(name(&app, bottom).ends_with('7'), "down to the bottom row: {}", name(&app, bottom));
    cursor_key(&mut app, CursorKey::Step(Arrow::Right));
    let right = app.world().resource::<BoardCursor>().0.unwrap();
    assert!(name(&app, right).ends_with('7') && right != bottom, "right along the row: {}", name(&app, right));
    // Space plays the cursor's cell, as a click there would.
    cursor_key(&mut app, CursorKey::Press);
    app.update();
    assert_eq!(board(&mut app), (vec![(right, Stone::Black)], Some(right)));
    // Esc puts it away; Space then does nothing.
    cursor_key(&mut app, CursorKey::Hide);
    assert_eq!(app.world().resource::<BoardCursor>().0, None);
    cursor_key(&mut app, CursorKey::Press);
    assert_eq!(app.world().resource::<Model>().moves().len(), 1);
}

#[test]
fn with_animation_off_the_pawn_stands_on_its_cell_at_once() {
    let mut app = humans(7);
    app.world_mut().resource_mut::<triboard::app::settings::Settings>().look.animation =
        triboard::app::settings::AnimationSpeed::Off;
    click(&mut app, "d7");
    click(&mut app, "d4");
    app.update();
    let d4 = cell(&app, "d4");
    let target =
        triboard::app::board::trike::layout::cell_center(app.world().resource::<Model>().game().geometry(), d4);
    assert!(pawn_translation(&mut app).distance(target) <= 0.01, "no slide: the pawn is on d4 at once");
}

#[test]
fn an_illegal_click_changes_nothing_and_says_why() {
    let mut app = humans(7);
    click(&mut app, "d7");
    click(&mut app, "d4");
    let before = board(&mut app);
    let moves_before = app.world().resource::<Model>().moves().to_vec();
    // b7 is not on a line from d4 (row 3, column 3): rows differ by 3, columns by 2.
    click(&mut app, "b7");
    assert_eq!(board(&mut app), before);
    assert_eq!(app.world().resource::<Model>().moves(), moves_before);
    let status = app.world().resource::<Status>().clone();
    assert!(status.error, "the status line explains the refusal: {status:?}");
    assert!(status.text.contains("not on a straight line"), "{}", status.text);
    // The reason names the cell: it is said once ("b7 is not …", never "b7: b7 is not …").
    assert!(status.text.starts_with("b7 ") && status.text.matches("b7").count() == 1, "{}", status.text);
    // Onto an occupied cell.
    click(&mut app, "d7");
    assert_eq!(board(&mut app), before);
    assert!(app.world().resource::<Status>().text.contains("already holds a checker"));
}

#[test]
fn undo_restores_the_entities_and_redo_replays() {
    let mut app = humans(7);
    click(&mut app, "d7");
    let after_one = board(&mut app);
    click(&mut app, "d4");
    click(&mut app, "a1");
    let after_three = board(&mut app);
    app.world_mut().write_message(Command::Undo);
    app.update();
    app.world_mut().write_message(Command::Undo);
    app.update();
    assert_eq!(board(&mut app), after_one);
    app.world_mut().write_message(Command::Redo);
    app.update();
    app.world_mut().write_message(Command::Redo);
    app.update();
    assert_eq!(board(&mut app), after_three);
    app.world_mut().write_message(Command::Undo);
    app.update();
    app.world_mut().write_message(Command::Undo);
    app.update();
    app.world_mut().write_message(Command::Undo);
    app.update();
    assert_eq!(board(&mut app), (vec![], None));
}

/// Updates until `done` holds, sleeping a little between frames; false after `limit`.
fn wait_for(app: &mut App, limit: Duration, mut done: impl FnMut(&mut App) -> bool) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        app.update();
        if done(app) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

#[test]
fn an_ai_seat_plays_a_legal_move() {
    let mut app = app_with(7, [Seat::Human, Seat::Ai(Level::new(1).unwrap())]);
    click(&mut app, "c5");
    let played = wait_for(&mut app, Duration::from_secs(20), |app| app.world().resource::<Model>().moves().len() == 2);
    assert!(played, "the AI answered within 20 s");
    let model = app.world().resource::<Model>().clone();
    // Every move went through `play`, so replaying from the start must accept the reply.
    let mut game = model.start().clone();
    for &mv in model.moves() {
        game.play(mv).expect("a legal move");
    }
    assert!(model.human_to_move());
    let (checkers, pawn) = board(&mut app);
    if model.moves()[1] == TrikeMove::SWAP {
        assert_eq!(checkers.len(), 1);
    } else {
        assert_eq!(checkers.len(), 2);
        assert_eq!(pawn, model.moves()[1].cell());
    }
}

#[test]
fn undo_while_the_ai_thinks_cancels_the_search() {
    // Level 6 on the biggest board thinks for seconds: long enough to undo in the middle.
    let mut app = app_with(19, [Seat::Human, Seat::Ai(Level::new(6).unwrap())]);
    click(&mut app, "j10");
    app.update();
    assert!(app.world().resource::<AiSearch>().is_thinking());
    app.world_mut().write_message(Command::Undo);
    app.update();
    assert!(!app.world().resource::<AiSearch>().is_thinking());
    for _ in 0..20 {
        std::thread::sleep(Duration::from_millis(20));
        app.update();
    }
    let model = app.world().resource::<Model>();
    assert!(model.moves().is_empty(), "the cancelled search played nothing: {:?}", model.moves());
    assert_eq!(board(&mut app), (vec![], None));
}

#[test]
fn a_human_cannot_move_for_the_ai() {
    let mut app = app_with(7, [Seat::Ai(Level::new(6).unwrap()), Seat::Human]);
    click(&mut app, "a1");
    assert_eq!(board(&mut app), (vec![], None));
    assert!(app.world().resource::<Status>().error);
}

#[test]
fn a_bad_record_changes_nothing() {
    let mut app = humans(7);
    click(&mut app, "d7");
    let before = board(&mut app);
    let record =
        triboard::rules::record::Record::from_json(r#"{"game":"trike","options":{"size":7},"moves":["a1","b7"]}"#)
            .expect("well-formed");
    app.world_mut().write_message(Command::Load(record));
    app.update();
    assert_eq!(board(&mut app), before);
    let status = app.world().resource::<Status>().text.clone();
    assert!(status.contains("move 2 (b7)"), "{status}");
    // A good one of another size replaces the board.
    let record =
        triboard::rules::record::Record::from_json(r#"{"game":"trike","options":{"size":5},"moves":["a1","c3"]}"#)
            .unwrap();
    app.world_mut().write_message(Command::Load(record));
    app.update();
    app.update();
    let world = app.world_mut();
    assert_eq!(world.query::<&BoardCell>().iter(world).count(), 15);
    assert_eq!(board(&mut app).0.len(), 2);
}

#[test]
fn a_finished_game_has_an_outcome_and_leaving_despawns_the_board() {
    let mut app = humans(3);
    // On side 3: a1 then b2... play until over, always the first legal move.
    for _ in 0..10 {
        let model = app.world().resource::<Model>();
        if model.game().to_move().is_none() {
            break;
        }
        let mut moves = Vec::new();
        model.game().legal_moves(&mut moves);
        let mv = *moves.iter().find(|m| m.cell().is_some()).unwrap();
        app.world_mut().write_message(MoveIntent { mv, from_ai: false });
        app.update();
    }
    assert!(app.world().resource::<Model>().result_text().is_some());
    app.world_mut().write_message(Command::NewGame);
    app.update();
    app.update();
    let world = app.world_mut();
    assert_eq!(world.query::<&BoardCell>().iter(world).count(), 0);
    assert_eq!(world.query::<&Checker>().iter(world).count(), 0);
}

#[test]
fn undo_against_the_ai_goes_back_to_the_humans_turn() {
    let mut app = app_with(7, [Seat::Human, Seat::Ai(Level::new(1).unwrap())]);
    click(&mut app, "c5");
    assert!(wait_for(&mut app, Duration::from_secs(20), |app| app.world().resource::<Model>().moves().len() == 2));
    app.world_mut().write_message(Command::Undo);
    app.update();
    let model = app.world().resource::<Model>();
    assert!(model.moves().is_empty(), "both the AI's reply and the person's move are taken back");
    assert!(model.human_to_move());
    assert_eq!(model.redo().len(), 2);
    assert_eq!(board(&mut app), (vec![], None));
}

#[test]
fn swap_exchanges_the_seats_colours_not_the_checkers() {
    let mut app = humans(7);
    click(&mut app, "d7");
    let before = board(&mut app);
    app.world_mut().write_message(MoveIntent { mv: TrikeMove::SWAP, from_ai: false });
    app.update();
    assert_eq!(board(&mut app), before);
    let model = app.world().resource::<Model>();
    assert_eq!(model.game().player_name(triboard::rules::Player(0)), "White");
    assert_eq!(model.game().to_move(), Some(triboard::rules::Player(0)), "the opener, now White, moves next");
    // A second swap is refused with the pie rule's reason.
    app.world_mut().write_message(MoveIntent { mv: TrikeMove::SWAP, from_ai: false });
    app.update();
    let status = app.world().resource::<Status>();
    assert!(status.error && status.text.contains("pie rule"), "{status:?}");
}

#[test]
fn a_sliced_search_plays_a_legal_move_and_move_now_stops_it() {
    // The browser's way: no thread, a slice of the search in every frame.
    let mut app = app_with(7, [Seat::Human, Seat::Ai(Level::new(6).unwrap())]);
    app.insert_resource(AiRunner::Slices(Duration::from_millis(4)));
    click(&mut app, "c5");
    app.update(); // the search starts
    app.update(); // its first slice
    let search = app.world().resource::<AiSearch>();
    assert!(search.is_thinking());
    let (_, after_one_frame, _) = search.progress().expect("progress");
    assert!(after_one_frame > 0, "a frame ran a slice of simulations");
    app.update();
    let (_, after_two_frames, _) = app.world().resource::<AiSearch>().progress().expect("progress");
    assert!(after_two_frames > after_one_frame, "the next frame ran another slice");
    // Level 6 would take many frames: Move now plays the best move so far.
    app.world().resource::<AiSearch>().move_now();
    assert!(wait_for(&mut app, Duration::from_secs(5), |app| app.world().resource::<Model>().moves().len() == 2));
    let model = app.world().resource::<Model>().clone();
    let mut game = model.start().clone();
    for &mv in model.moves() {
        game.play(mv).expect("a legal move");
    }
    assert!(model.human_to_move());
}

fn record(json: &str) -> triboard::rules::record::Record {
    triboard::rules::record::Record::from_json(json).expect("well-formed")
}

/// A press (`pressed`) or release of the primary button at `at`, as egui reads a click.
fn primary_button(at: bevy_egui::egui::Pos2, pressed: bool) -> bevy_egui::egui::Event {
    bevy_egui::egui::Event::PointerButton {
        pos: at,
        button: bevy_egui::egui::PointerButton::Primary,
        pressed,
        modifiers: bevy_egui::egui::Modifiers::NONE,
    }
}

/// The texts egui drew in the pass `output` ended (its textures let go, as a test has no renderer).
fn texts_drawn(mut output: bevy_egui::egui::FullOutput) -> Vec<String> {
    output.textures_delta.clear();
    output
        .shapes
        .iter()
        .filter_map(|c| match &c.shape {
            bevy_egui::egui::Shape::Text(t) => Some(t.galley.text().to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn an_opened_record_starts_its_game_with_its_seats() {
    // As a share link opens on the start screen: the board size, the moves and the seats of the record.
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    triboard::app::core_plugin(&mut app);
    app.update();
    let shared =
        record(r#"{"game":"trike","options":{"size":5},"moves":["c3","b2"],"players":["Human","AI level 2"]}"#);
    let link = triboard::app::share::fragment(&shared);
    let back = triboard::app::share::parse_fragment(&link).unwrap().unwrap();
    app.insert_resource(OpenRecord(back));
    for _ in 0..4 {
        app.update();
    }
    let model = app.world().resource::<Model>();
    assert_eq!(model.game().geometry().side, 5);
    assert_eq!(model.moves().len(), 2);
    assert_eq!(model.seats(), [Seat::Human, Seat::Ai(Level::new(2).unwrap())]);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
    assert!(!app.world().contains_resource::<OpenRecord>());
    assert_eq!(board(&mut app).0.len(), 2);
    assert_eq!(
        triboard::app::title_text(app.world().resource::<Model>()),
        "Trike · 2 moves · Black to move — triboard"
    );
}

#[test]
fn a_bad_opened_record_changes_nothing_and_says_why() {
    let mut app = humans(7);
    click(&mut app, "d7");
    let before = board(&mut app);
    app.insert_resource(OpenRecord(record(r#"{"game":"trike","options":{"size":7},"moves":["a1","a1"]}"#)));
    app.update();
    app.update();
    assert_eq!(board(&mut app), before);
    let status = app.world().resource::<Status>();
    assert!(status.error && status.text.contains("move 2 (a1)"), "{status:?}");
    assert!(!app.world().contains_resource::<OpenRecord>());
    // On the start screen, a record of another game stays there with the reason.
    let mut menu = App::new();
    menu.add_plugins((MinimalPlugins, StatesPlugin));
    triboard::app::core_plugin(&mut menu);
    menu.update();
    menu.insert_resource(OpenRecord(record(r#"{"game":"chess","moves":[]}"#)));
    menu.update();
    menu.update();
    assert_eq!(*menu.world().resource::<State<Screen>>().get(), Screen::Menu);
    assert!(menu.world().resource::<Status>().text.contains("chess"));
}

// Each game's view has its tests in its own file of this test binary (one Bevy link for all), and
// so do the tests every game of the registry gets.
#[path = "common/mod.rs"]
mod common;
// The online tests start `triboard serve` on a `TempDb`; its `dump` is the server tests'.
#[path = "common/db.rs"]
mod db;
#[path = "app/every_game.rs"]
mod every_game;
#[path = "app/files.rs"]
mod files;
#[path = "app/ghost.rs"]
mod ghost;
#[path = "app/hud.rs"]
mod hud;
#[path = "app/line.rs"]
mod line;
#[path = "app/lobby.rs"]
mod lobby;
#[path = "app/lobby_window.rs"]
mod lobby_window;
#[path = "app/online.rs"]
mod online;
#[path = "app/session.rs"]
mod session;
#[path = "app/tools.rs"]
mod tools;
#[path = "app/tri_it_out.rs"]
mod tri_it_out;
#[path = "app/tricore.rs"]
mod tricore;
#[path = "app/trigon.rs"]
mod trigon;
#[path = "app/trisq.rs"]
mod trisq;

/// A record's analysis survives a load and a save; after an undo and another move, only the
/// analysis of the moves still shared with the analysed line is saved.
#[test]
fn a_loaded_analysis_is_saved_again_for_the_shared_moves() {
    let mut app = humans(5);
    let text = r#"{"game":"trike","options":{"size":5},"moves":["c3","c4","c5"],
        "analysis":{"simulations":4000,"threshold":0.15,"moves":[
          {"win_rate":0.5,"best":"c3","kept":0.5,"mistake":false},
          {"win_rate":0.5,"best":"swap","kept":0.3,"mistake":true},
          {"win_rate":0.7,"best":"c5","mistake":false}]}}"#;
    let loaded = record(text);
    assert_eq!(loaded.analysis.as_ref().map(|a| a.moves.len()), Some(3));
    app.world_mut().write_message(Command::Load(loaded.clone()));
    app.update();
    let saved = app.world().resource::<Model>().record();
    assert_eq!(saved.analysis, loaded.analysis, "saved as loaded");
    app.world_mut().write_message(Command::Undo);
    app.update();
    let after_undo = app.world().resource::<Model>().record();
    assert_eq!(after_undo.analysis.unwrap().moves, loaded.analysis.as_ref().unwrap().moves[..2]);
    click(&mut app, "d5");
    let branched = app.world().resource::<Model>().record();
    assert_eq!(branched.moves, ["c3", "c4", "d5"]);
    assert_eq!(branched.analysis.unwrap().moves.len(), 2, "the third move's analysis was of c5");
    // Saved and loaded again, the record is accepted.
    assert!(branched_loads(&app));
}

fn branched_loads(app: &App) -> bool {
    let record = app.world().resource::<Model>().record();
    record.replay::<Trike>().is_ok() && triboard::rules::record::Record::from_json(&record.to_json()).unwrap() == record
}
