//! Files given to the app: a `.blksgf` and a `.json` dropped on the window open their games (from
//! the start screen, and from a game in play after the drop-the-game question) with the players
//! the records name; a corrupt, foreign or too large file changes nothing and says why, naming it.
//! And the data folder's saved games: saved, listed, loaded back and deleted.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::window::FileDragAndDrop;
use bevy_egui::egui;
use triboard::app::hud::{PanelIn, PanelWindows, side_panel};
use triboard::app::ui::UiRects;
use triboard::app::{Command, Model, Screen, Seat, Status};
use triboard::rules::Game;
use triboard::rules::record::Record;
use triboard::rules::trigon::{Trigon, TrigonOptions, Variant};
use triboard::rules::trike::Trike;

/// A fresh folder for this test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("triboard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp folder");
    dir
}

/// Drops the file at `path` on the window, then lets the app run a few frames.
fn drop_file(app: &mut App, path: &Path) {
    app.world_mut().write_message(FileDragAndDrop::DroppedFile { window: Entity::PLACEHOLDER, path_buf: path.into() });
    for _ in 0..4 {
        app.update();
    }
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// A two-player Trigon game of four placements whose players Pentobi's file names PB and PW.
fn trigon_sgf() -> (String, Vec<String>) {
    let mut game = Trigon::new(&TrigonOptions { variant: Variant::Two }).expect("a board");
    let mut played = Vec::new();
    for _ in 0..4 {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mv = moves[moves.len() / 2];
        game.play(mv).expect("legal");
        played.push(mv);
    }
    let mut record = Record::new(&game, &played);
    record.players = vec!["Alice".to_string(), "Pentobi 27.1".to_string()];
    let sgf = triboard::rules::trigon::sgf::write(&record).expect("a Trigon record");
    assert!(sgf.contains("PB[Alice]") && sgf.contains("PW[Pentobi 27.1]"), "{sgf}");
    (sgf, record.moves)
}

/// The texts egui drew in a frame of the side panel of `model`.
fn panel_texts(model: &Model<Trike>) -> Vec<String> {
    let ctx = egui::Context::default();
    let (mut windows, mut rects, status) = (PanelWindows::default(), UiRects::default(), Status::default());
    let mut texts = Vec::new();
    for _ in 0..2 {
        let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
        ctx.begin_pass(egui::RawInput { screen_rect: Some(screen), ..Default::default() });
        let input = PanelIn {
            model,
            status: &status,
            progress: None,
            verdict: None,
            searching: None,
            hint: None,
            analyzing: None,
            show_thinking: false,
            lesson: None,
            online: None,
        };
        side_panel::<Trike>(&ctx, &input, &mut windows, &mut rects);
        texts = super::texts_drawn(ctx.end_pass());
    }
    texts
}

#[test]
fn dropped_files_open_their_games_with_the_players_the_records_name() {
    let dir = folder("drop-test");
    let (sgf, trigon_moves) = trigon_sgf();
    let sgf_path = dir.join("pentobi game.blksgf");
    std::fs::write(&sgf_path, sgf).unwrap();
    // Selfplay's label for an AI seat is not one of ours: a person plays it under that name.
    let json_path = dir.join("trike.json");
    std::fs::write(
        &json_path,
        r#"{"game":"trike","options":{"size":7},"moves":["d7","d4"],"players":["A (AI level 3)","Alice"]}"#,
    )
    .unwrap();

    // On the start screen: the Trigon file opens its game, with Pentobi's player names.
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    triboard::app::core_plugin(&mut app);
    app.update();
    drop_file(&mut app, &sgf_path);
    assert_eq!(screen(&app), Screen::Playing);
    let model = app.world().resource::<Model<Trigon>>();
    assert_eq!(model.game().id(), "trigon-2");
    assert_eq!(model.record().moves, trigon_moves, "the game opened with its moves");
    assert_eq!(model.seats(), [Seat::Human, Seat::Human], "people play on");
    assert_eq!((model.seat_name(0), model.seat_name(1)), ("Alice".to_string(), "Pentobi 27.1".to_string()));
    assert_eq!(model.record().players, ["Alice", "Pentobi 27.1"], "saving again keeps the names");
    assert!(!app.world().resource::<Status>().error);

    // In that unfinished game, the Trike file waits for "Drop the game in play?".
    drop_file(&mut app, &json_path);
    assert!(app.world().contains_resource::<Model<Trigon>>(), "nothing changed before Drop");
    let order = app.world_mut().resource_mut::<PanelWindows>().confirm.take();
    assert!(matches!(order, Some(Command::Load(_))), "the question is up: {order:?}");
    // Drop: the order goes, and the other game's record switches the board to Trike.
    app.world_mut().write_message(order.unwrap());
    for _ in 0..4 {
        app.update();
    }
    let model = app.world().resource::<Model<Trike>>();
    assert_eq!(model.record().moves, ["d7", "d4"]);
    assert_eq!(model.seats(), [Seat::Human, Seat::Human]);
    assert_eq!(model.names(), [Some("A (AI level 3)".to_string()), Some("Alice".to_string())]);
    let texts = panel_texts(model);
    for name in ["A (AI level 3)", "Alice"] {
        assert!(texts.iter().any(|t| t == name), "the panel shows {name}: {texts:?}");
    }
    assert!(!texts.iter().any(|t| t == "Human"), "no seat is called Human: {texts:?}");

    // A corrupt file, a foreign one and one too large change nothing and say why, naming the file.
    let before = model.record();
    let bad = dir.join("broken.json");
    std::fs::write(&bad, r#"{"game":"trike","moves":["d7",]}"#).unwrap();
    let foreign = dir.join("notes.txt");
    std::fs::write(&foreign, "hello").unwrap();
    let big = dir.join("huge.json");
    std::fs::write(&big, vec![b' '; 5 << 20]).unwrap();
    for (path, why) in [(&bad, "line 1"), (&foreign, ".json or .blksgf"), (&big, "MiB")] {
        drop_file(&mut app, path);
        let status = app.world().resource::<Status>().clone();
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(status.error && status.text.contains(&*name) && status.text.contains(why), "{status:?}");
        assert_eq!(app.world().resource::<Model<Trike>>().record(), before, "{name} changed nothing");
        assert!(app.world().resource::<PanelWindows>().confirm.is_none());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_rematch_moves_the_names_with_the_seats() {
    let record =
        super::record(r#"{"game":"trike","options":{"size":7},"moves":["d7"],"players":["Alice","AI level 2"]}"#);
    let model = Model::<Trike>::from_record(&record, None).expect("a record");
    let ai2 = Seat::Ai(triboard::ai::Level::new(2).unwrap());
    assert_eq!(model.seats(), [Seat::Human, ai2]);
    assert_eq!((model.seat_name(0), model.seat_name(1)), ("Alice".to_string(), "AI level 2".to_string()));
    let again = model.rematch().expect("the same options");
    assert_eq!(again.seats(), [ai2, Seat::Human]);
    assert_eq!(again.record().players, ["AI level 2", "Alice"]);
    // Load keeps the seats in play; a person's seat takes the record's name, an AI seat keeps its level.
    let loaded = Model::<Trike>::from_record(&record, Some(&[ai2, Seat::Human])).expect("a record");
    assert_eq!(loaded.names(), [None, None]);
    let named = super::record(r#"{"game":"trike","options":{"size":7},"moves":[],"players":["Bo","Cy"]}"#);
    let loaded = Model::<Trike>::from_record(&named, Some(&[ai2, Seat::Human])).expect("a record");
    assert_eq!(loaded.record().players, ["AI level 2", "Cy"]);
}

#[test]
fn a_record_of_a_game_lost_on_time_opens_over_and_says_so() {
    let json = r#"{"game":"trike","options":{"size":7},"moves":["d7","d4"],"players":["Ann","Bob"],"flagged":0}"#;
    let model = Model::<Trike>::from_record(&super::record(json), None).expect("a record");
    assert!(model.over() && model.to_move().is_none(), "nobody is to move");
    assert_eq!(model.result_text().as_deref(), Some("Black ran out of time (White wins)"));
    let texts = panel_texts(&model);
    assert!(texts.iter().any(|t| t.contains("ran out of time")), "the panel says how it ended: {texts:?}");
    let again = model.record();
    assert_eq!((again.flagged, again.resigned), (Some(0), None), "saving again keeps the ending");
    assert_eq!(Model::<Trike>::from_record(&again, None).unwrap().result_text(), model.result_text());

    // The ending was the line's end: reviewing keeps it, playing on from an earlier move or Undo
    // drops it, and the game is live again.
    let mut reviewed = model.clone();
    assert!(reviewed.review_to(1));
    assert!(reviewed.over(), "the game reviewed is still the one that ended");
    reviewed.play_from_here();
    assert!(!reviewed.over() && reviewed.to_move().is_some(), "playing on from move 1");
    assert_eq!(reviewed.record().flagged, None);
    let mut undone = model;
    assert!(undone.undo_turn());
    assert!(!undone.over() && undone.to_move().is_some() && undone.result_text().is_none());
    assert_eq!(undone.record().flagged, None);
}

#[test]
fn a_saved_game_is_listed_and_loads_back() {
    let dir = std::env::temp_dir().join(format!("triboard-app-test-{}", std::process::id()));
    // SAFETY: the only test of this binary that reads or writes the environment.
    unsafe { std::env::set_var("TRIBOARD_DATA_DIR", &dir) };
    let mut app = super::humans(7);
    super::click(&mut app, "d7");
    super::click(&mut app, "d4");
    let path = triboard::app::files::save(&app.world().resource::<super::Model>().record()).expect("saved");
    let names = triboard::app::files::list();
    assert_eq!(names.len(), 1);
    assert!(path.ends_with(&names[0]) && names[0].starts_with("trike-"), "{path} {names:?}");
    let record = triboard::app::files::read(&names[0]).expect("a record");
    let mut other = super::humans(9);
    other.world_mut().write_message(Command::Load(record));
    other.update();
    other.update();
    assert_eq!(super::board(&mut other), super::board(&mut app));

    // The Load dialog's list: newest first, with the game, date, moves and result; a file that is
    // not a game of triboard's says why.
    std::fs::write(dir.join("games/chess-20991231-235959.json"), r#"{"game":"chess","moves":[]}"#).unwrap();
    std::fs::write(dir.join("games/trike-20000101-000000.json"), "not a record").unwrap();
    let listed = triboard::app::load_dialog::catalogue();
    let names: Vec<&str> = listed.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["chess-20991231-235959.json", names[1], "trike-20000101-000000.json"], "newest first");
    let chess = &listed[0];
    let why = chess.error.as_deref().expect("chess is refused");
    assert!(why.contains("chess") && why.contains("trike") && why.contains("trigon"), "{why}");
    assert_eq!(chess.date, "2099-12-31 23:59");
    let saved = &listed[1];
    assert_eq!((saved.game.as_str(), saved.moves, saved.result.as_str()), ("Trike", 2, "unfinished"));
    assert!(saved.error.is_none());
    assert!(listed[2].error.is_some());

    // Delete (after the dialog's question): the file goes, and the list follows; a name that is
    // not a saved game's in the folder is refused and nothing is removed.
    let mut dialog = triboard::app::load_dialog::LoadDialog::default();
    dialog.open();
    assert_eq!(dialog.entries.len(), 3);
    assert!(dialog.delete("../settings.json").is_err() && dialog.delete("games/x.json").is_err());
    let saved_name = dialog.entries[1].name.clone();
    dialog.delete(&saved_name).expect("deleted");
    assert!(!dir.join("games").join(&saved_name).exists(), "the file is gone");
    let left: Vec<&str> = dialog.entries.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(left, ["chess-20991231-235959.json", "trike-20000101-000000.json"]);
    assert!(dialog.delete(&saved_name).is_err(), "deleting it again says why");
    assert_eq!(triboard::app::files::list().len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_resigned_game_saved_as_blksgf_reopens_over_with_its_ending() {
    let mut game = Trigon::new(&TrigonOptions { variant: Variant::Two }).expect("a board");
    let mut played = Vec::new();
    for _ in 0..5 {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        game.play(moves[0]).expect("legal");
        played.push(moves[0]);
    }
    let mut record = Record::new(&game, &played);
    record.players = vec!["ann".into(), "bob".into()];
    record.resigned = Some(0);
    let model = Model::<Trigon>::from_record(&record, None).expect("a record");
    record.result = model.result_text();
    let text = triboard::app::files::Format::Sgf.text(&record).expect("SGF");
    assert!(text.contains("RE[W+Resign]"), "{text}");
    let read = triboard::app::files::parse(&text).expect("read back");
    let reopened = Model::<Trigon>::from_record(&read, None).expect("it opens");
    assert!(reopened.over() && reopened.to_move().is_none(), "the game is over, nobody to move");
    assert_eq!(reopened.result_text(), model.result_text());
    assert_eq!(reopened.result_text().as_deref(), Some("Blue/Red resigned (Yellow/Green wins)"));
    let listed = triboard::app::load_dialog::SavedGame::describe("trigon-2-20261128-120000.blksgf", Ok(read));
    assert_eq!(listed.result, "Blue/Red resigned (Yellow/Green wins)", "the Load dialog says how it ended");
    assert!(listed.error.is_none());
}

#[test]
fn a_loaded_game_of_one_move_is_not_one_moves() {
    let mut app = super::humans(7);
    let one = super::record(r#"{"game":"trike","options":{"size":7},"moves":["d7"]}"#);
    app.world_mut().write_message(Command::Load(one));
    app.update();
    app.update();
    assert_eq!(app.world().resource::<Status>().text, "Loaded a game of 1 move");
}

#[test]
fn an_aborted_game_reopens_aborted_from_json_and_blksgf() {
    let game = Trigon::new(&TrigonOptions { variant: Variant::Two }).expect("a board");
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut record = Record::new(&game, &moves[..1]);
    record.flagged = Some(1);
    record.aborted = true;
    let model = Model::<Trigon>::from_record(&record, None).expect("a record");
    let said = model.result_text().expect("over");
    assert!(said.contains("aborted") && model.over(), "{said}");
    let again = model.record();
    assert!(again.aborted && again.flagged == Some(1), "saving keeps the abort: {again:?}");
    let text = triboard::app::files::Format::Sgf.text(&again).expect("SGF");
    let reopened =
        Model::<Trigon>::from_record(&triboard::app::files::parse(&text).expect("read"), None).expect("opens");
    assert_eq!(reopened.result_text(), Some(said));
}
