//! Tri-It-Out's board view, headless: points and counters as entities, clicks through the input
//! path ([`CellClicked`]), the capture choice, undo, and AI seats to the end
//! (`docs/rules/tri-it-out.md`).

use std::time::Duration;

use bevy::prelude::*;
use triboard::ai::Level;
use triboard::app::board::CellClicked;
use triboard::app::board::lattice::LatticePoint;
use triboard::app::board::tri_it_out::Counter;
use triboard::app::{Command, Model, Seat, Setup, Status};
use triboard::rules::Game;
use triboard::rules::tri_it_out::{Board, TriItOut, TriItOutMove, TriItOutOptions};

fn tio_app(board: Board, seats: [Seat; 2]) -> App {
    super::started(Setup::of::<TriItOut>(&TriItOutOptions { board, ..TriItOutOptions::default() }, &seats))
}

fn model(app: &App) -> &Model<TriItOut> {
    app.world().resource::<Model<TriItOut>>()
}

fn press(app: &mut App, point: usize) {
    app.world_mut().write_message(CellClicked { cell: point });
    app.update();
}

/// The counters the board shows, by point and colour (those shrinking away left out).
fn counters(app: &mut App) -> Vec<(usize, u8)> {
    let world = app.world_mut();
    let mut all: Vec<(usize, u8)> = world
        .query_filtered::<&Counter, Without<triboard::app::animation::Vanish>>()
        .iter(world)
        .map(|c| (c.point, c.owner))
        .collect();
    all.sort();
    all
}

/// The counters in the model, by point and colour.
fn model_counters(app: &App) -> Vec<(usize, u8)> {
    let game = &model(app).game();
    (0..game.lattice().len).filter_map(|p| game.counter(p).map(|c| (p, c))).collect()
}

/// A placement that makes a capture pending, if there is one.
fn capturing_placement(game: &TriItOut) -> Option<usize> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.into_iter().find_map(|mv| {
        let mut next = game.clone();
        next.play_unchecked(mv);
        match mv {
            TriItOutMove::Place(p) if next.capture_pending() => Some(p as usize),
            _ => None,
        }
    })
}

#[test]
fn a_tri_it_out_game_sets_up_its_points() {
    let mut app = tio_app(Board::Hex34, [Seat::Human, Seat::Human]);
    let world = app.world_mut();
    assert_eq!(world.query::<&LatticePoint>().iter(world).count(), 27);
    assert!(counters(&mut app).is_empty());
    assert!(!app.world().resource::<Status>().error);
}

#[test]
fn clicks_place_counters_and_a_restricted_point_is_refused_with_its_pair() {
    let mut app = tio_app(Board::Hex3, [Seat::Human, Seat::Human]);
    let lattice = model(&app).game().lattice();
    let (a, b) = (lattice.parse("c3").unwrap(), lattice.parse("d3").unwrap());
    press(&mut app, a);
    press(&mut app, b);
    assert_eq!(counters(&mut app), vec![(a, 0), (b, 1)]);
    // c3 (Red) and d3 (Blue) are a mixed pair: both points completing their unit triangle are closed.
    let restricted = model(&app).game().restricted();
    assert!(restricted.count_ones() >= 2, "restricted {restricted:b}");
    let closed = (0..lattice.len).find(|&p| restricted & (1 << p) != 0).unwrap();
    let before = model(&app).moves().to_vec();
    press(&mut app, closed);
    let status = app.world().resource::<Status>().clone();
    assert!(status.error, "{status:?}");
    assert!(
        status.text.contains("restricted") && status.text.contains("c3") && status.text.contains("d3"),
        "{status:?}"
    );
    assert_eq!(model(&app).moves(), before, "a refused click changes nothing");
    assert_eq!(counters(&mut app).len(), 2);
}

#[test]
fn a_capture_is_chosen_by_a_click_and_the_counter_leaves() {
    let mut app = tio_app(Board::Hex34, [Seat::Human, Seat::Human]);
    // Play the first legal placement until one makes a capture, then make that one.
    let mut guard = 0;
    loop {
        guard += 1;
        assert!(guard < 200, "no capture came up");
        let game = model(&app).game().clone();
        if let Some(p) = capturing_placement(&game) {
            press(&mut app, p);
            break;
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let TriItOutMove::Place(p) = moves[moves.len() / 2] else { panic!("no capture is pending") };
        press(&mut app, p as usize);
    }
    let game = model(&app).game().clone();
    assert!(game.capture_pending());
    let capturable = game.capturable();
    assert!(capturable != 0);
    // A click on an empty point is refused while the capture is pending.
    let empty = (0..game.lattice().len).find(|&p| game.counter(p).is_none()).unwrap();
    let plies = model(&app).moves().len();
    press(&mut app, empty);
    assert!(app.world().resource::<Status>().error);
    assert_eq!(model(&app).moves().len(), plies);
    // Taking one: it leaves the model at once and the view shrinks it away.
    let victim = capturable.trailing_zeros() as usize;
    let mover = game.to_move().unwrap();
    press(&mut app, victim);
    assert_eq!(model(&app).moves().last(), Some(&TriItOutMove::Capture(victim as u8)));
    assert_eq!(model(&app).game().counter(victim), None);
    assert_eq!(model(&app).game().to_move(), Some(mover), "after a capture the same player places again");
    app.update();
    assert_eq!(counters(&mut app), model_counters(&app));
    // Undo takes back the whole turn: the counters are as before it.
    app.world_mut().write_message(Command::Undo);
    app.update();
    app.update();
    assert_eq!(counters(&mut app), model_counters(&app));
    assert!(model(&app).game().counter(victim).is_some());
}

#[test]
fn ai_seats_play_tri_it_out_to_the_end() {
    let level = Level::new(1).unwrap();
    let mut app = tio_app(Board::Hex23, [Seat::Ai(level), Seat::Ai(level)]);
    let done = super::wait_for(&mut app, Duration::from_secs(120), |app| model(app).game().outcome().is_some());
    assert!(done, "the game did not finish: {:?}", model(&app).moves());
    app.update();
    assert_eq!(counters(&mut app), model_counters(&app));
    assert!(model(&app).result_text().is_some());
}
