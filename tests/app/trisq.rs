//! Trisq's board view, headless: squares and trapezium tiles as entities, a press on a square
//! through the input path ([`CellClicked`], aimed by [`SlotPointer`]) placing the slot under the
//! pointer, refusals that change nothing, End turn, a refused end naming its pair, undo, and AI
//! seats to the end (`docs/rules/trisq.md`).

use std::time::Duration;

use bevy::prelude::*;
use triboard::ai::Level;
use triboard::app::animation::DropIn;
use triboard::app::board::CellClicked;
use triboard::app::board::trisq::{
    Aim, SlotPointer, Tile, TileMarks, TrisqLegal, TrisqSquare, aim, aimed_slot, slot_centre,
};
use triboard::app::{Command, Model, MoveIntent, Seat, Setup, Status};
use triboard::rules::Game;
use triboard::rules::record::Record;
use triboard::rules::trisq::{Trisq, TrisqMove, TrisqOptions};

fn trisq_app(size: u8, seats: [Seat; 2]) -> App {
    super::started(Setup::of::<Trisq>(&TrisqOptions { size }, &seats))
}

fn humans(size: u8) -> App {
    trisq_app(size, [Seat::Human, Seat::Human])
}

fn model(app: &App) -> &Model<Trisq> {
    app.world().resource::<Model<Trisq>>()
}

fn status(app: &App) -> Status {
    app.world().resource::<Status>().clone()
}

fn slot(app: &App, name: &str) -> usize {
    model(app).game().parse_move(name).expect("a slot name").slot().expect("a placement")
}

/// A press on the slot's square with the pointer on the slot's centre, as the view sends it.
fn press_slot(app: &mut App, s: usize) {
    let at = slot_centre(model(app).game().board(), s);
    app.world_mut().resource_mut::<SlotPointer>().0 = Some(at);
    app.world_mut().write_message(CellClicked { cell: s / 8 });
    app.update();
}

fn press(app: &mut App, name: &str) {
    let s = slot(app, name);
    press_slot(app, s);
    assert!(!status(app).error, "{name}: {:?}", status(app));
}

fn send(app: &mut App, mv: TrisqMove) {
    app.world_mut().write_message(MoveIntent { mv, from_ai: false });
    app.update();
}

/// The tiles the board shows: (slot, colour).
fn tiles(app: &mut App) -> Vec<(usize, u8)> {
    let world = app.world_mut();
    let mut all: Vec<(usize, u8)> = world.query::<&Tile>().iter(world).map(|t| (t.slot, t.owner)).collect();
    all.sort();
    all
}

/// The model's pieces in the same form.
fn pieces(app: &App) -> Vec<(usize, u8)> {
    let game = &model(app).game();
    (0..game.board().slots()).filter_map(|s| game.piece(s).map(|c| (s, c))).collect()
}

fn marks(app: &mut App, s: usize) -> TileMarks {
    let world = app.world_mut();
    *world.query::<(&Tile, &TileMarks)>().iter(world).find(|(t, _)| t.slot == s).expect("a tile on the slot").1
}

#[test]
fn a_game_set_up_has_one_entity_per_square_and_no_tiles() {
    let mut app = humans(5);
    let world = app.world_mut();
    assert_eq!(world.query::<&TrisqSquare>().iter(world).count(), 25);
    assert!(tiles(&mut app).is_empty());
    assert!(status(&app).text.contains("Trisq"), "{:?}", status(&app));
    assert_eq!(app.world().resource::<TrisqLegal>().slots.iter().filter(|&&l| l).count(), 200, "5·5·8 openings");
}

#[test]
fn the_pointer_aims_at_the_slot_under_it() {
    let app = humans(6);
    let game = &model(&app).game();
    let legal = app.world().resource::<TrisqLegal>();
    for s in 8 * 14..8 * 15 {
        let at = slot_centre(game.board(), s);
        assert_eq!(aimed_slot(game, legal, s / 8, Some(at)), Some(s), "{}", game.slot_name(s));
    }
}

#[test]
fn a_click_on_a_slot_places_it_and_it_becomes_a_tile() {
    let mut app = humans(6);
    press(&mut app, "c3H1");
    let c3h1 = slot(&app, "c3H1");
    assert_eq!(model(&app).moves(), vec![TrisqMove::place(c3h1)]);
    assert_eq!(tiles(&mut app), vec![(c3h1, 0)]);
    let world = app.world_mut();
    assert_eq!(world.query_filtered::<&Tile, With<DropIn>>().iter(world).count(), 1, "the new tile drops in");
    // Red's opening is a single piece: Blue is to move and places two.
    assert_eq!(model(&app).game().to_move().map(|p| p.index()), Some(1));
    assert!(marks(&mut app, c3h1).last);
    press(&mut app, "e5V0");
    press(&mut app, "a1V3");
    assert_eq!(model(&app).game().to_move().map(|p| p.index()), Some(0), "a second piece ends the turn");
    assert_eq!(tiles(&mut app), pieces(&app));
    assert_eq!(tiles(&mut app).len(), 3);
    let e5v0 = slot(&app, "e5V0");
    assert!(marks(&mut app, e5v0).last && !marks(&mut app, c3h1).last, "the dots follow the last turn");
}

#[test]
fn a_click_on_a_slot_that_may_not_be_played_changes_nothing_and_says_why() {
    let mut app = humans(6);
    press(&mut app, "c3H0");
    // The other filling of c3 is gone: a press in one of its slots aims at the H slot under the
    // pointer there (c3V1's centre lies in the free H1), ...
    let c3v1 = slot(&app, "c3V1");
    let at = slot_centre(model(&app).game().board(), c3v1);
    let legal = app.world().resource::<TrisqLegal>().clone();
    assert_eq!(aim(model(&app).game(), &legal, c3v1 / 8, Some(at)), Aim::Slot(slot(&app, "c3H1")));
    // ... but a press on Red's piece (c3V0's centre lies in H0) is refused and places nothing.
    let before = (model(&app).moves().to_vec(), tiles(&mut app));
    let c3v0 = slot(&app, "c3V0");
    let at = slot_centre(model(&app).game().board(), c3v0);
    assert_eq!(aimed_slot(model(&app).game(), &legal, c3v0 / 8, Some(at)), None);
    press_slot(&mut app, c3v0);
    assert_eq!((model(&app).moves().to_vec(), tiles(&mut app)), before, "a press on a piece changes nothing");
    let said = status(&app);
    assert!(said.error && said.text.contains("c3H0") && said.text.contains("taken by Red"), "{said:?}");
    // Blue's first piece in c3's corner; a second one in d4 touching it only at that corner has no
    // bridge.
    press(&mut app, "c3H3");
    let game = model(&app).game().clone();
    let refused = slot(&app, "d4H0");
    assert!(game.available(refused) && !legal_now(&app, refused));
    let before = (model(&app).moves().to_vec(), tiles(&mut app));
    press_slot(&mut app, refused);
    let said = status(&app);
    assert!(said.error && said.text.contains(&game.slot_name(refused)), "{said:?}");
    assert!(said.text.contains("without a bridge"), "{said:?}");
    assert_eq!((model(&app).moves().to_vec(), tiles(&mut app)), before);
}

fn legal_now(app: &App, s: usize) -> bool {
    app.world().resource::<TrisqLegal>().slots[s]
}

#[test]
fn end_turn_after_one_piece_passes_the_turn() {
    let mut app = humans(6);
    press(&mut app, "a1H0");
    press(&mut app, "f6V3");
    let f6v3 = slot(&app, "f6V3");
    assert_eq!(model(&app).game().first_placed(), Some(f6v3));
    assert!(marks(&mut app, f6v3).this_turn, "the piece of the turn in progress is marked");
    let a1h0 = slot(&app, "a1H0");
    assert!(marks(&mut app, a1h0).last, "and the last turn's still");
    assert!(app.world().resource::<TrisqLegal>().end);
    send(&mut app, TrisqMove::END);
    assert!(!status(&app).error, "{:?}", status(&app));
    assert_eq!(model(&app).game().to_move().map(|p| p.index()), Some(0));
    assert_eq!(model(&app).moves().last(), Some(&TrisqMove::END));
    assert_eq!(marks(&mut app, f6v3), TileMarks { last: true, ..TileMarks::default() });
}

/// Moves after which the player to move has placed a first piece that may not end the turn (it
/// touches another of theirs at a corner without a bridge): found by playing deterministic legal
/// moves from the start.
fn blocked_position(size: u8) -> Vec<TrisqMove> {
    let mut game = Trisq::new(&TrisqOptions { size }).unwrap();
    let mut moves = Vec::new();
    let mut buf = Vec::new();
    let mut seed: u64 = 12345;
    for _ in 0..400 {
        game.legal_moves(&mut buf);
        assert!(!buf.is_empty() && game.outcome().is_none(), "no blocked turn found before the end");
        if game.first_placed().is_none()
            && let Some(&mv) = buf.iter().find(|&&mv| {
                let mut next = game.clone();
                next.play(mv).is_ok() && next.outcome().is_none() && next.end_blocker().is_some()
            })
        {
            moves.push(mv);
            return moves;
        }
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mv = buf[(seed >> 33) as usize % buf.len()];
        game.play(mv).unwrap();
        moves.push(mv);
    }
    panic!("no blocked turn found");
}

#[test]
fn a_refused_end_changes_nothing_and_marks_the_two_pieces() {
    let moves = blocked_position(6);
    let mut app = humans(6);
    let mut game = Trisq::new(&TrisqOptions { size: 6 }).unwrap();
    for &mv in &moves {
        game.play(mv).unwrap();
    }
    app.world_mut().write_message(Command::Load(Record::new(&game, &moves)));
    app.update();
    assert_eq!(model(&app).moves(), moves);
    assert_eq!(tiles(&mut app), pieces(&app));
    let (a, b) = model(&app).game().end_blocker().expect("the turn may not end");
    assert!(!app.world().resource::<TrisqLegal>().end);
    app.update();
    assert!(marks(&mut app, a).blocker && marks(&mut app, b).blocker, "the pair is marked");
    let marked = tiles(&mut app).iter().filter(|&&(s, _)| marks(&mut app, s).blocker).count();
    assert_eq!(marked, 2);
    send(&mut app, TrisqMove::END);
    let said = status(&app);
    assert!(said.error, "{said:?}");
    let names = [model(&app).game().slot_name(a), model(&app).game().slot_name(b)];
    assert!(said.text.contains(&names[0]) && said.text.contains(&names[1]), "{said:?} {names:?}");
    assert_eq!(model(&app).moves(), moves, "nothing changed");
    assert_eq!(tiles(&mut app), pieces(&app));
}

#[test]
fn undo_takes_back_the_turn_and_its_tiles() {
    let mut app = humans(6);
    press(&mut app, "c3H0");
    press(&mut app, "e5V0");
    press(&mut app, "a1V3");
    assert_eq!(tiles(&mut app).len(), 3);
    app.world_mut().write_message(Command::Undo);
    app.update();
    assert_eq!(model(&app).moves().len(), 1, "Blue's whole turn is undone");
    assert_eq!(tiles(&mut app), pieces(&app));
    assert_eq!(tiles(&mut app), vec![(slot(&app, "c3H0"), 0)]);
    app.world_mut().write_message(Command::Redo);
    app.update();
    assert_eq!(model(&app).moves().len(), 3);
    assert_eq!(tiles(&mut app), pieces(&app));
}

#[test]
fn ai_seats_play_a_small_board_to_a_win_with_its_chain_marked() {
    let level = Level::new(1).unwrap();
    let mut app = trisq_app(4, [Seat::Ai(level), Seat::Ai(level)]);
    let over = super::wait_for(&mut app, Duration::from_secs(120), |app| model(app).game().outcome().is_some());
    assert!(over, "the game ended within 2 minutes ({} moves)", model(&app).moves().len());
    let model_now = model(&app).clone();
    let mut game = model_now.start().clone();
    for &mv in model_now.moves() {
        game.play(mv).expect("a legal move");
    }
    assert!(game.winner().is_some());
    assert!(model_now.result_text().is_some_and(|r| r.contains("wins")));
    app.update();
    assert_eq!(tiles(&mut app), pieces(&app));
    let chain = game.winning_chain();
    assert!(!chain.is_empty());
    for &s in &chain {
        assert!(marks(&mut app, s).chain, "{} is in the chain", game.slot_name(s));
    }
}
