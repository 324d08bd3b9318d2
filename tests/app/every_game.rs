//! The tests every game of the registry gets ([`triboard::for_each_game`]): a game added to the
//! list is in every one of them, and each fails until the game has what it checks. A module of the
//! `app` test binary (one Bevy link), with the random-game harness of `tests/common`.
//!
//! - **Random games** through the shared harness (`common::random_games`: the `Game` surface
//!   consistent with itself at every position, refusals, record round trips), from the game's
//!   default options; the game's own test file adds its rule-specific checks.
//! - **Perft** from the default start position, pinned in [`PERFT`] (one entry per game, by its
//!   first id). Each game's own test file checks its move generator against a naive one written
//!   from the rules text.
//! - **A lesson** (`assets/lessons/`, `rules::lesson::LESSONS`) that plays through the rules.
//! - **Clicks**: in a headless app, every legal first move's `AppGame::click_points` turned into
//!   presses on the board plays that move.

use bevy::prelude::*;
use triboard::app::board::{BoardCell, BoardPointer, CellClicked, Hovered};
use triboard::app::games::AppGame;
use triboard::app::{Command, Model, Seat, Setup};
use triboard::rules::lesson::{LESSONS, Lesson, Verdict};
use triboard::rules::{Game, Knowledge, perft};

use super::common::{Observe, Run, random_games};
use super::started;

/// A check every game gets.
trait Check {
    fn check<G: AppGame + Observe>();
}

/// Runs `C` for every game type of the registry.
macro_rules! every_game {
    ($($g:ty),*) => {
        fn for_every_game<C: Check>() {
            $( C::check::<$g>(); )*
        }
    };
}
triboard::for_each_game!(every_game);

/// A [`Check`] made of a generic function.
macro_rules! check {
    ($name:ident, $f:ident) => {
        struct $name;
        impl Check for $name {
            fn check<G: AppGame + Observe>() {
                $f::<G>();
            }
        }
    };
}

/// Perft counts from each game's default start position (`triboard perft GAME --depth N` prints
/// them), by the game's first id; every game of the registry must have its line.
const PERFT: &[(&str, &[u64])] = &[
    ("trike", &[91, 2_275, 46_410]),
    ("tri-it-out", &[27, 702, 16_740]),
    ("tricore", &[29, 676, 12_306]),
    ("trisq", &[512, 259_584]),
    ("trigon", &[2_478, 5_117_070]),
];

fn start<G: Game>() -> G {
    G::new(&G::Options::default()).expect("the default options make a game")
}

fn perft_is_pinned<G: Game>() {
    let id = G::IDS[0];
    let Some((_, pinned)) = PERFT.iter().find(|(g, _)| *g == id) else {
        panic!("{id}: no perft counts in PERFT (run `triboard perft {id} --depth 3` and pin them)")
    };
    assert_eq!(perft(&start::<G>(), pinned.len()), pinned.to_vec(), "{id}");
}

#[test]
fn every_game_has_its_perft_counts() {
    check!(PerftIsPinned, perft_is_pinned);
    for_every_game::<PerftIsPinned>();
    let mut ids = Vec::new();
    macro_rules! first_ids {
        ($($g:ty),*) => { $( ids.push(<$g as Game>::IDS[0]); )* };
    }
    triboard::for_each_game!(first_ids);
    for (id, _) in PERFT {
        assert!(ids.contains(id), "PERFT names '{id}', which is no game's first id");
    }
}

fn random_games_hold<G: Observe>() {
    let stats = random_games(&Run::<G>::new(G::Options::default(), 3, 2027, 100_000).sample_refusals(20), |_| {});
    assert_eq!(stats.games, 3, "{}", G::IDS[0]);
    assert!(stats.positions > 3 && stats.records_checked >= 3, "{}: {stats:?}", G::IDS[0]);
}

#[test]
fn every_game_plays_random_games_through_the_harness() {
    check!(RandomGamesHold, random_games_hold);
    for_every_game::<RandomGamesHold>();
}

/// The game's lesson (`LESSONS`): it loads, each step's setup is legal, each answer is legal and
/// judged right, each tempting wrong move is refused with the expected reason, and a legal move the
/// step does not teach is judged legal but not right.
fn lesson_plays<G: Knowledge>() {
    let Some((id, text)) = LESSONS.iter().find(|(id, _)| G::IDS.contains(id)) else {
        panic!("{}: no lesson (assets/lessons/, rules::lesson::LESSONS)", G::IDS[0])
    };
    let lesson = Lesson::from_json(text).unwrap_or_else(|e| panic!("lesson {id}: {e}"));
    assert_eq!(&lesson.game, id);
    assert!(lesson.steps.len() >= 3, "lesson {id} has {} steps", lesson.steps.len());
    for (k, step) in lesson.steps.iter().enumerate() {
        let at = format!("lesson {id}, step {}", k + 1);
        let position: G = lesson.position(k).unwrap_or_else(|e| panic!("{at}: {e}"));
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        assert!(!legal.is_empty(), "{at}: the game goes on");
        for answer in &step.answers {
            assert_eq!(step.judge(&position, answer), Verdict::Right(step.explain.clone()), "{at}");
        }
        if step.answers.is_empty() {
            let any = position.move_text(legal[legal.len() / 2]);
            assert!(matches!(step.judge(&position, &any), Verdict::Right(_)), "{at}: {any}");
        } else if let Some(other) = legal.iter().map(|&m| position.move_text(m)).find(|t| !step.answers.contains(t)) {
            assert_eq!(step.judge(&position, &other), Verdict::Legal, "{at}: {other}");
        }
        for wrong in &step.wrong {
            match step.judge(&position, &wrong.mv) {
                Verdict::Illegal(reason) => {
                    assert!(reason.contains(&wrong.reason), "{at}: {} refused with '{reason}'", wrong.mv)
                }
                other => panic!("{at}: {} should be refused, was {other:?}", wrong.mv),
            }
        }
    }
}

/// The game's lesson says of its boards what they show: a piece a step's text gives a colour
/// ("Red b2 and Blue c2", "Red's a1H3", "the Blue triangle on r15", "Red placed an H piece on
/// b2") is a setup move of that colour covering that cell, and the pawn a text puts on a cell
/// ("move the pawn from b2", "the pawn on a2") stands there: the last setup move for the step's
/// text, its answer for what it explains after.
fn lesson_names_what_its_board_shows<G: Knowledge>() {
    let (id, text) = LESSONS.iter().find(|(id, _)| G::IDS.contains(id)).expect("a lesson");
    let lesson = Lesson::from_json(text).expect("it loads");
    let start: G = triboard::rules::record::Record::of_texts(id, lesson.options.clone(), Vec::new())
        .replay::<G>()
        .expect("the start")
        .1;
    let colours: Vec<&str> =
        (0..start.num_players()).map(|p| start.player_name(triboard::rules::Player(p as u8))).collect();
    let cellish = |word: &str| {
        let w = word.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        let letters = w.chars().take_while(char::is_ascii_lowercase).count();
        ((1..=2).contains(&letters) && w[letters..].starts_with(|c: char| c.is_ascii_digit())).then(|| w.to_string())
    };
    let mut named = 0;
    for (k, step) in lesson.steps.iter().enumerate() {
        let at = format!("lesson {id}, step {}", k + 1);
        // Who made each setup move, and what it covers.
        let mut game = start.clone();
        let mut made: Vec<(&str, String)> = Vec::new();
        for text in &step.setup {
            let mover = game.player_name(game.to_move().expect("not over"));
            let mv = game.parse_move(text).expect("a setup move");
            made.push((mover, game.move_text(mv).to_lowercase()));
            game.play(mv).expect("legal");
        }
        let words: Vec<&str> = step.text.split_whitespace().collect();
        for (i, word) in words.iter().enumerate() {
            let colour = word.trim_end_matches("'s");
            if !colours.contains(&colour) {
                continue;
            }
            // Up to the cell named, within six words: not past "to" ("Red to move: place on b2" asks).
            let mut after = words[i + 1..].iter().take(6).take_while(|w| **w != "to" && !w.ends_with(':'));
            let Some(cell) = after.find_map(|w| cellish(w)) else { continue };
            let covers = |t: &str| {
                t.split(|c: char| !c.is_ascii_alphanumeric()).any(|part| part.starts_with(&cell.to_lowercase()))
            };
            assert!(
                made.iter().any(|(m, t)| *m == colour && covers(t)),
                "{at}: the text gives {colour} {cell}, but the setup has {made:?}"
            );
            named += 1;
        }
        for (said, last) in [(&step.text, step.setup.last()), (&step.explain, step.answers.first())] {
            let words: Vec<&str> = said.split_whitespace().collect();
            for pair in words.windows(3) {
                if pair[0] == "pawn"
                    && ["on", "from"].contains(&pair[1])
                    && let Some(cell) = cellish(pair[2])
                {
                    assert_eq!(last.map(String::as_str), Some(cell.as_str()), "{at}: the pawn is not on {cell}");
                    named += 1;
                }
            }
        }
    }
    if ["tri-it-out", "trisq", "trigon", "trike"].contains(id) {
        assert!(named > 0, "lesson {id}: the check found the cells its texts name");
    }
}

#[test]
fn every_lesson_names_what_its_board_shows() {
    check!(LessonNames, lesson_names_what_its_board_shows);
    for_every_game::<LessonNames>();
}

#[test]
fn every_game_has_a_lesson_that_plays_through_the_rules() {
    check!(LessonPlays, lesson_plays);
    for_every_game::<LessonPlays>();
    let ids = triboard::rules::game_ids();
    for (id, _) in LESSONS {
        assert!(ids.contains(id), "lesson '{id}' is for no game of the registry");
    }
}

/// A headless app with a game of `G` from its first start-screen entry, every seat a person's.
fn started_with<G: AppGame>() -> App {
    let (_, options) = G::menu_entries().into_iter().next().expect("a start-screen entry");
    started(Setup::of::<G>(&options, &[Seat::Human]))
}

/// A press at `at` (world units) as picking makes it: the pointer there, the board cell nearest it
/// hovered and pressed.
fn press(app: &mut App, at: Vec2) {
    let world = app.world_mut();
    let cell = world
        .query::<(&BoardCell, &Transform)>()
        .iter(world)
        .min_by(|a, b| a.1.translation.truncate().distance(at).total_cmp(&b.1.translation.truncate().distance(at)))
        .map(|(c, _)| c.cell)
        .expect("the board has cells");
    world.resource_mut::<BoardPointer>().0 = Some(at);
    world.resource_mut::<Hovered>().0 = Some(cell);
    world.write_message(CellClicked { cell });
    app.update();
}

/// Every legal first move of `G`, pressed where its `click_points` say, is played; Undo takes it
/// back before the next.
fn first_moves_play_by_clicks<G: AppGame>() {
    let mut app = started_with::<G>();
    let id = G::IDS[0];
    let mut moves = Vec::new();
    app.world().resource::<Model<G>>().game().legal_moves(&mut moves);
    assert!(!moves.is_empty(), "{id}: the game starts with a move to make");
    let mut pressed = 0;
    for &mv in &moves {
        let text = app.world().resource::<Model<G>>().game().move_text(mv);
        let points = G::click_points(app.world_mut(), mv).unwrap_or_else(|e| panic!("{id}: {text}: {e}"));
        for at in points {
            press(&mut app, at);
        }
        let model = app.world().resource::<Model<G>>();
        assert_eq!(model.moves().first(), Some(&mv), "{id}: the presses of {text} played {:?}", model.moves());
        app.world_mut().write_message(Command::Undo);
        app.update();
        assert!(app.world().resource::<Model<G>>().moves().is_empty(), "{id}: undo after {text}");
        pressed += 1;
    }
    assert_eq!(pressed, moves.len());
}

#[test]
fn every_legal_first_move_is_played_by_pressing_its_click_points() {
    check!(ClicksPlay, first_moves_play_by_clicks);
    for_every_game::<ClicksPlay>();
}
