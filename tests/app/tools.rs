//! The player's tools, headless: a hint names and marks the winning move, review shows earlier
//! positions and Play from here keeps the old line as a variation, Analyze game gives the same
//! graph twice and its result survives a save, the heat map sums a search's visits, and Learn
//! mode judges the learner's moves.

use std::time::Duration;

use bevy::prelude::*;
use triboard::ai::MoveStats;
use triboard::ai::exhaustive::{Solved, move_values};
use triboard::app::flow::ReviewTo;
use triboard::app::games::AppGame;
use triboard::app::hud::graph::points;
use triboard::app::learn::{Learning, LessonAction};
use triboard::app::runner::AiRunner;
use triboard::app::session::OpenRecord;
use triboard::app::tools::analysis::Analyzing;
use triboard::app::tools::heat;
use triboard::app::{Command, MoveIntent, Seat, Setup, Status};
use triboard::rules::record::Record;
use triboard::rules::trigon::{Trigon, TrigonMove, TrigonOptions, Variant};
use triboard::rules::trike::{Trike, TrikeMove, TrikeOptions};
use triboard::rules::{Game, rng_from_seed};

use super::{AiSearch, Model, app_with, board, cell, click, humans, started, wait_for};

fn order(app: &mut App, command: Command) {
    app.world_mut().write_message(command);
    app.update();
    app.update();
}

/// A Trike-5 position (as its move texts) where the seat to move has exactly one winning move, and
/// that move: found by playing seeded random moves and asking the exhaustive search.
fn one_winning_move() -> (Vec<String>, TrikeMove) {
    for seed in 0..200 {
        let mut rng = rng_from_seed(seed);
        let mut game = Trike::new(&TrikeOptions { size: 5 }).unwrap();
        let mut texts = Vec::new();
        let mut buf = Vec::new();
        for _ in 0..6 {
            if game.outcome().is_some() {
                break;
            }
            let mv = game.random_move(&mut rng, &mut buf).unwrap();
            texts.push(game.move_text(mv));
            game.play(mv).unwrap();
            if game.outcome().is_some() {
                break;
            }
            let mut budget = 2_000_000;
            if let Some(values) = move_values(&game, &mut budget) {
                let wins: Vec<TrikeMove> = values.iter().filter(|(_, v)| *v == Solved::Win).map(|(m, _)| *m).collect();
                if wins.len() == 1 && wins[0].cell().is_some() && values.len() >= 4 {
                    return (texts, wins[0]);
                }
            }
        }
    }
    panic!("no position with one winning move");
}

fn record(game: &str, options: serde_json::Value, moves: &[String]) -> Record {
    Record::from_json(&serde_json::json!({ "game": game, "options": options, "moves": moves }).to_string()).unwrap()
}

#[test]
fn a_hint_on_a_position_with_one_winning_move_names_it_marks_it_and_is_counted() {
    let (moves, winning) = one_winning_move();
    let mut app = humans(5);
    order(&mut app, Command::Load(record("trike", serde_json::json!({"size": 5}), &moves)));
    assert_eq!(app.world().resource::<Model>().moves().len(), moves.len());
    // A refusal, then the hint: the red line goes, the status says what is being done.
    app.world_mut().write_message(triboard::app::TextIntent("zz9".into()));
    app.update();
    let refused = app.world().resource::<Status>().clone();
    assert!(refused.error && refused.text.starts_with("'zz9' is not a cell"), "a refusal first, once: {refused:?}");
    order(&mut app, Command::Hint);
    let status = app.world().resource::<Status>().clone();
    assert!(!status.error && status.text.starts_with("A hint for "), "{status:?}");
    let found = wait_for(&mut app, Duration::from_secs(60), |app| {
        let revision = app.world().resource::<Model>().revision();
        app.world().resource::<AiSearch>().hint(revision).is_some()
    });
    assert!(found, "the hint's search ends");
    let model = app.world().resource::<Model>();
    let hint = app.world().resource::<AiSearch>().hint(model.revision()).unwrap().clone();
    assert_eq!(hint.mv, winning, "the hint is the one winning move: {}", hint.text);
    let said = &app.world().resource::<Status>().text;
    assert_eq!(
        said,
        &format!("A hint for {}: {}", model.game().player_name(model.game().to_move().unwrap()), hint.text)
    );
    assert!(hint.text.starts_with(&model.game().move_text(winning)), "{}", hint.text);
    // What the board draws for it: the winning cell's hexagon, and the pawn's path to it.
    let marks = model.game().move_marks(hint.mv);
    let centre = triboard::app::board::trike::layout::cell_center(model.game().geometry(), winning.cell().unwrap());
    assert_eq!(marks.shapes.len(), 1);
    let middle = marks.shapes[0].iter().copied().sum::<Vec2>() / marks.shapes[0].len() as f32;
    assert!(middle.distance(centre) < 0.01);
    assert_eq!(marks.path.last().copied(), Some(centre));
    let seat = model.game().to_move().unwrap().index();
    assert_eq!(model.hints()[seat], 1);
    let saved = model.record();
    assert_eq!(saved.hints.iter().sum::<u32>(), 1);
    assert_eq!(saved.hints[seat], 1, "the record counts the hint for the seat that asked");
    // The hint is gone once the position changes.
    let text = app.world().resource::<Model>().game().move_text(winning);
    click(&mut app, &text);
    let model = app.world().resource::<Model>();
    assert!(app.world().resource::<AiSearch>().hint(model.revision()).is_none());
}

#[test]
fn no_hint_for_the_ai_or_a_finished_game() {
    let mut app = app_with(5, [Seat::Ai(triboard::ai::Level::new(1).unwrap()), Seat::Human]);
    app.world_mut().write_message(Command::Hint);
    app.update();
    let status = app.world().resource::<Status>().clone();
    assert!(status.error && status.text.starts_with("no hint"), "{status:?}");
    assert_eq!(app.world().resource::<Model>().hints().iter().sum::<u32>(), 0);
}

/// Six moves of a Trike-7 game: each the first legal move onto a cell.
fn line() -> Vec<String> {
    let mut game = Trike::new(&TrikeOptions { size: 7 }).unwrap();
    let mut texts = Vec::new();
    for _ in 0..6 {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mv = *moves.iter().rev().find(|m| m.cell().is_some()).expect("a cell move");
        texts.push(game.move_text(mv));
        game.play(mv).unwrap();
    }
    texts
}

/// A Trike-7 move legal after the first two moves of [`line`], other than its third.
fn other_third(line: &[String]) -> String {
    let mut game = Trike::new(&TrikeOptions { size: 7 }).unwrap();
    triboard::rules::play_moves(&mut game, &line[..2].join(" ")).unwrap();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.iter().map(|&m| game.move_text(m)).find(|t| *t != line[2]).expect("another move")
}

#[test]
fn clicking_move_k_shows_the_position_after_k_moves_and_play_from_here_keeps_the_old_line() {
    let mut app = humans(7);
    let line = line();
    for m in &line {
        click(&mut app, m);
    }
    order(&mut app, Command::Review(ReviewTo::Ply(2)));
    let model = app.world().resource::<Model>();
    assert!(model.review());
    assert_eq!(model.moves().len(), 2);
    assert_eq!(model.line_len(), 6, "the game in play is not lost");
    let (checkers, pawn) = board(&mut app);
    assert_eq!(checkers.len(), 2, "the board shows the position after two moves");
    assert_eq!(pawn, Some(cell(&app, &line[1])));
    // Nobody moves while reviewing.
    let third = other_third(&line);
    click(&mut app, &third);
    let status = app.world().resource::<Status>().clone();
    assert!(status.error && status.text.contains("looking at move 2 of 6"), "{status:?}");
    // The keys step through the line; End goes back to the game.
    order(&mut app, Command::Review(ReviewTo::Forward));
    assert_eq!(app.world().resource::<Model>().moves().len(), 3);
    order(&mut app, Command::Review(ReviewTo::End));
    assert!(!app.world().resource::<Model>().review());
    assert_eq!(app.world().resource::<Model>().moves().len(), 6);
    order(&mut app, Command::Review(ReviewTo::Start));
    assert_eq!(board(&mut app), (vec![], None));
    // Play from here after move 2, and another move there: the old line is a variation.
    order(&mut app, Command::Review(ReviewTo::Ply(2)));
    order(&mut app, Command::PlayFromHere);
    assert!(!app.world().resource::<Model>().review());
    click(&mut app, &third);
    let model = app.world().resource::<Model>();
    assert_eq!(model.line_len(), 3);
    let mut replay = model.start().clone();
    let old: Vec<TrikeMove> = line
        .iter()
        .map(|m| {
            let mv = replay.parse_move(m).unwrap();
            replay.play(mv).unwrap();
            mv
        })
        .collect();
    assert_eq!(model.variations(), vec![old]);
    let saved = model.record();
    assert_eq!(saved.variations, vec![line.clone()]);
    // The record keeps it through a load, and switching lines brings the old line back.
    let text = saved.to_json();
    order(&mut app, Command::Load(Record::from_json(&text).unwrap()));
    assert_eq!(app.world().resource::<Model>().variations().len(), 1);
    order(&mut app, Command::SwitchLine(0));
    let model = app.world().resource::<Model>();
    assert_eq!(model.line_len(), 6);
    assert_eq!(model.moves().len(), 3, "shown from the move where the lines part");
    assert_eq!(model.variations().len(), 1, "the line before is the variation now");
    assert_eq!(model.record().variations[0], vec![line[0].clone(), line[1].clone(), third]);
}

#[test]
fn play_from_here_is_undone_by_redo_and_the_ai_waits_in_review() {
    let mut app = humans(7);
    for m in &line() {
        click(&mut app, m);
    }
    order(&mut app, Command::Review(ReviewTo::Ply(4)));
    order(&mut app, Command::PlayFromHere);
    order(&mut app, Command::Redo);
    assert_eq!(app.world().resource::<Model>().moves().len(), 5, "Redo brings the old line back, a turn at a time");
    order(&mut app, Command::Redo);
    assert_eq!(app.world().resource::<Model>().moves().len(), 6);
    assert!(app.world().resource::<Model>().variations().is_empty());

    // Against the AI: in review its turn waits.
    let mut app = app_with(7, [Seat::Human, Seat::Ai(triboard::ai::Level::new(1).unwrap())]);
    click(&mut app, "d7");
    assert!(wait_for(&mut app, Duration::from_secs(20), |app| app.world().resource::<Model>().moves().len() == 2));
    order(&mut app, Command::Review(ReviewTo::Back));
    for _ in 0..30 {
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
    let model = app.world().resource::<Model>();
    assert_eq!((model.moves().len(), model.line_len()), (1, 2), "the AI does not play in review");
    assert!(!app.world().resource::<AiSearch>().is_thinking());
}

/// Runs the app's analysis of the game in play with `simulations` a position, sliced in frames;
/// returns the graph's points' win rates and mistakes.
fn analyse(app: &mut App, simulations: u64) -> Vec<(f32, bool)> {
    app.insert_resource(AiRunner::Slices(Duration::from_millis(50)));
    let world = app.world_mut();
    world.resource_scope(|world, mut analyzing: Mut<Analyzing<Trike>>| {
        analyzing.start(world.resource::<Model>(), simulations, AiRunner::Slices(Duration::from_millis(50)));
    });
    assert!(wait_for(app, Duration::from_secs(120), |app| app
        .world()
        .resource::<Analyzing<Trike>>()
        .progress()
        .is_none()));
    app.update();
    let model = app.world().resource::<Model>();
    points(model).iter().map(|p| (p.win_rate, p.mistake)).collect()
}

#[test]
fn analysis_of_a_seeded_game_gives_the_same_graph_twice_and_survives_a_save() {
    let mut app = humans(5);
    let moves: Vec<String> = ["c3", "b2", "b3", "c4", "d4", "e5"].map(String::from).to_vec();
    order(&mut app, Command::Load(record("trike", serde_json::json!({"size": 5}), &moves)));
    let first = analyse(&mut app, 2_000);
    assert_eq!(first.len(), moves.len(), "one point per move");
    assert!(first.iter().all(|(w, _)| (0.0..=1.0).contains(w)));
    let second = analyse(&mut app, 2_000);
    assert_eq!(first, second, "the same graph twice");
    let saved = app.world().resource::<Model>().record();
    let analysis = saved.analysis.clone().expect("the record keeps the analysis");
    assert_eq!(analysis.moves.len(), moves.len());
    assert_eq!(analysis.simulations, 2_000);
    // A save in review keeps the whole line, and with it the whole analysis.
    order(&mut app, Command::Review(ReviewTo::Start));
    let in_review = app.world().resource::<Model>().record();
    assert_eq!(in_review.moves, moves);
    assert_eq!(in_review.analysis.map(|a| a.moves.len()), Some(moves.len()));
    order(&mut app, Command::Review(ReviewTo::End));
    // A reloaded game shows it again; a record without one still loads.
    let text = saved.to_json();
    order(&mut app, Command::Load(Record::from_json(&text).unwrap()));
    assert_eq!(points(app.world().resource::<Model>()).len(), moves.len());
    order(&mut app, Command::Load(record("trike", serde_json::json!({"size": 5}), &moves[..3])));
    assert!(app.world().resource::<Model>().analysis().is_none());
    assert_eq!(app.world().resource::<Model>().moves().len(), 3);
}

#[test]
fn next_and_previous_mistake_jump_to_the_positions_before_marked_moves_and_wrap() {
    let mut app = humans(5);
    let moves: Vec<String> = ["c3", "b2", "b3", "c4", "d4", "e5"].map(String::from).to_vec();
    let mut rec = record("trike", serde_json::json!({"size": 5}), &moves);
    let game = rec.replay::<Trike>().unwrap().0;
    let mut replay = game.clone();
    let mut analysed = Vec::new();
    for (k, m) in moves.iter().enumerate() {
        let mv = replay.parse_move(m).unwrap();
        analysed.push(triboard::rules::record::AnalysedMove {
            win_rate: 0.5,
            best: m.clone(),
            kept: Some(if k == 3 || k == 1 { 0.1 } else { 0.5 }),
            mistake: k == 3 || k == 1,
        });
        replay.play(mv).unwrap();
    }
    rec.analysis = Some(triboard::rules::record::Analysis { simulations: 1, threshold: 0.15, moves: analysed });
    order(&mut app, Command::Load(rec));
    // The graph plots each move's value after it: the mistakes' drops are on the mistakes.
    let after: Vec<f32> = points(app.world().resource::<Model>()).iter().map(|p| p.after).collect();
    assert_eq!(after, [0.5, 0.1, 0.5, 0.1, 0.5, 0.5]);
    order(&mut app, Command::Review(ReviewTo::Start));
    order(&mut app, Command::Review(ReviewTo::NextMistake));
    assert_eq!(app.world().resource::<Model>().moves().len(), 1, "the position where move 2 was played");
    order(&mut app, Command::Review(ReviewTo::NextMistake));
    assert_eq!(app.world().resource::<Model>().moves().len(), 3, "the position where move 4 was played");
    // Moves 2 and 4 are marked: Next from move 4 wraps to move 2, Previous goes back, and from
    // move 2 wraps to move 4.
    order(&mut app, Command::Review(ReviewTo::NextMistake));
    assert_eq!(app.world().resource::<Model>().moves().len(), 1, "past the last, the first");
    order(&mut app, Command::Review(ReviewTo::PreviousMistake));
    assert_eq!(app.world().resource::<Model>().moves().len(), 3, "before the first, the last");
    order(&mut app, Command::Review(ReviewTo::PreviousMistake));
    assert_eq!(app.world().resource::<Model>().moves().len(), 1);
    assert!(!app.world().resource::<Status>().error);
}

#[test]
fn the_heat_map_sums_the_simulations_of_the_moves_through_each_cell() {
    let game = Trigon::new(&TrigonOptions { variant: Variant::Two }).unwrap();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let a = moves[0];
    let cells_of = |m: TrigonMove| game.tables().placements[m.0 as usize].cells.clone();
    let b = *moves.iter().skip(1).find(|&&m| cells_of(m).iter().any(|c| cells_of(a).contains(c))).unwrap();
    let shared = cells_of(a).iter().filter(|c| cells_of(b).contains(c)).count();
    let cells = heat(&game, &[MoveStats { mv: a, visits: 30, mean: 0.5 }, MoveStats { mv: b, visits: 10, mean: 0.5 }]);
    assert_eq!(cells.iter().filter(|c| c.visits == 40).count(), shared, "a cell both cover has both's simulations");
    assert_eq!(cells.first().map(|c| c.visits), Some(40));
    let union = cells_of(a).iter().chain(cells_of(b).iter().filter(|c| !cells_of(a).contains(c))).count();
    assert_eq!(cells.len(), union);
}

#[test]
fn a_running_search_shows_its_root_moves() {
    let mut app = started(Setup::of::<Trike>(
        &TrikeOptions { size: 13 },
        &[Seat::Ai(triboard::ai::Level::new(6).unwrap()), Seat::Human],
    ));
    assert!(wait_for(&mut app, Duration::from_secs(20), |app| {
        app.world().resource::<AiSearch>().root_view().is_some_and(|v| v.iter().any(|m| m.visits > 0))
    }));
    let view = app.world().resource::<AiSearch>().root_view().unwrap();
    let model = app.world().resource::<Model>();
    assert_eq!(view.len(), 91, "every opening cell of Trike-13 is a root move");
    assert!(!heat(model.game(), &view).is_empty());
    app.world().resource::<AiSearch>().move_now();
}

#[test]
fn a_lesson_judges_the_learners_moves_and_moves_on() {
    let mut app = humans(5);
    let mut learning = Learning::for_game("trike").expect("Trike has a lesson");
    let record = learning.go(LessonAction::Next).expect("a second step");
    app.insert_resource(learning);
    app.insert_resource(OpenRecord(record));
    app.update();
    app.update();
    app.update();
    assert_eq!(app.world().resource::<Model>().moves().len(), 1, "step 2 is set up: one move played");
    // Legal but not what the step asks (it asks for the swap).
    click(&mut app, "d5");
    let status = app.world().resource::<Status>().clone();
    assert!(status.error && status.text.contains("legal, but not what this step asks"), "{status:?}");
    assert_eq!(app.world().resource::<Model>().moves().len(), 1);
    // Illegal: the rules' reason.
    click(&mut app, "b3");
    assert!(app.world().resource::<Status>().text.contains("already"), "{:?}", app.world().resource::<Status>());
    // The answer: played and explained.
    app.world_mut().write_message(MoveIntent { mv: TrikeMove::SWAP, from_ai: false });
    app.update();
    assert_eq!(app.world().resource::<Model>().moves().len(), 2);
    let learning = app.world().resource::<Learning>();
    assert!(learning.solved(), "{:?}", learning.feedback);
    // Next step sets up its position.
    let next = app.world_mut().resource_mut::<Learning>().go(LessonAction::Next).unwrap();
    order(&mut app, Command::Load(next));
    assert_eq!(app.world().resource::<Model>().moves().len(), 2, "step 3's two setup moves");
    assert!(!app.world().resource::<Learning>().solved());
}

#[test]
fn every_lesson_opens_in_the_app_at_every_step() {
    for (id, _) in triboard::rules::lesson::LESSONS {
        let mut learning = Learning::for_game(id).unwrap_or_else(|| panic!("{id} has a lesson"));
        let steps = learning.lesson.steps.len();
        let mut app = humans(5);
        app.insert_resource(OpenRecord(learning.record()));
        app.update();
        app.update();
        app.update();
        for k in 0..steps {
            let status = app.world().resource::<Status>().clone();
            assert!(!status.error, "{id} step {}: {status:?}", k + 1);
            let in_play = app.world().resource::<triboard::app::InPlay>().0.clone().expect("a game in play");
            assert!(in_play.ids.contains(&learning.lesson.game.as_str()), "{id} step {}", k + 1);
            assert!(!in_play.title.is_empty(), "{id} step {}", k + 1);
            if let Some(next) = learning.go(LessonAction::Next) {
                order(&mut app, Command::Load(next));
            }
        }
    }
}

#[test]
fn loading_another_game_or_a_rematch_ends_the_lesson() {
    let mut app = humans(5);
    let learning = Learning::for_game("trike").unwrap();
    app.insert_resource(OpenRecord(learning.record()));
    app.insert_resource(learning);
    app.update();
    app.update();
    app.update();
    assert!(app.world().get_resource::<Learning>().is_some());
    order(&mut app, Command::Load(record("trike", serde_json::json!({"size": 5}), &["c3".to_string()])));
    assert!(app.world().get_resource::<Learning>().is_none(), "a saved game is not the lesson");
    assert_eq!(app.world().resource::<Model>().moves().len(), 1);
    // Its moves are the game's again: any legal move is played.
    let game = &app.world().resource::<Model>().game();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let text = game.move_text(*moves.iter().find(|m| m.cell().is_some()).unwrap());
    click(&mut app, &text);
    assert_eq!(app.world().resource::<Model>().moves().len(), 2, "{:?}", app.world().resource::<Status>());

    let learning = Learning::for_game("trike").unwrap();
    app.insert_resource(learning);
    order(&mut app, Command::Rematch);
    assert!(app.world().get_resource::<Learning>().is_none(), "a rematch is a game");
}

#[test]
fn a_hint_does_not_outlive_its_board() {
    let (moves, _) = one_winning_move();
    let game = record("trike", serde_json::json!({"size": 5}), &moves);
    let mut app = humans(5);
    order(&mut app, Command::Load(game.clone()));
    order(&mut app, Command::Hint);
    let found = wait_for(&mut app, Duration::from_secs(60), |app| {
        let revision = app.world().resource::<Model>().revision();
        app.world().resource::<AiSearch>().hint(revision).is_some()
    });
    assert!(found, "the hint's search ends");
    // Back to the start screen, and the same position on a new board (as a lesson's step or a
    // share link opens one), loaded as the first was: the hint of the old board is not shown.
    order(&mut app, Command::NewGame);
    assert!(app.world().get_resource::<Model>().is_none(), "the board is gone");
    app.insert_resource(OpenRecord(game.clone()));
    app.update();
    app.update();
    order(&mut app, Command::Load(game));
    let model = app.world().resource::<Model>();
    assert_eq!(model.moves().len(), moves.len(), "the same position");
    assert!(app.world().resource::<AiSearch>().hint(model.revision()).is_none(), "no hint from the old board");
}
