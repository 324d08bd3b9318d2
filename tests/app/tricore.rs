//! TriCore's board view, headless: points, Cores, Rings and discs as entities, clicks through the
//! input path ([`CellClicked`]) for placements, drives and climbs, refusals, End turn, undo, and AI
//! seats to the end (`docs/rules/tricore.md`).

use std::time::Duration;

use bevy::prelude::*;
use triboard::ai::Level;
use triboard::app::animation::{Slide, Vanish};
use triboard::app::board::CellClicked;
use triboard::app::board::lattice::LatticePoint;
use triboard::app::board::tricore::{Chosen, Core, Disc, Ring};
use triboard::app::{Command, Model, MoveIntent, Seat, Setup, Status};
use triboard::rules::Game;
use triboard::rules::tricore::{Phase, TriCore, TriCoreMove};

fn tricore_app(seats: [Seat; 2]) -> App {
    super::started(Setup::of::<TriCore>(&Default::default(), &seats))
}

fn humans() -> App {
    tricore_app([Seat::Human, Seat::Human])
}

fn model(app: &App) -> &Model<TriCore> {
    app.world().resource::<Model<TriCore>>()
}

fn point(app: &App, name: &str) -> usize {
    model(app).game().lattice().parse(name).expect("a point name")
}

fn press(app: &mut App, name: &str) {
    let cell = point(app, name);
    app.world_mut().write_message(CellClicked { cell });
    app.update();
}

fn status(app: &App) -> Status {
    app.world().resource::<Status>().clone()
}

/// The points of the entities with component `C` (those shrinking away left out).
fn points_of<C: Component>(app: &mut App, at: impl Fn(&C) -> usize) -> Vec<usize> {
    let world = app.world_mut();
    let mut all: Vec<usize> = world.query_filtered::<&C, Without<Vanish>>().iter(world).map(at).collect();
    all.sort();
    all
}

fn cores(app: &mut App) -> Vec<usize> {
    points_of::<Core>(app, |c| c.point)
}

fn rings(app: &mut App) -> Vec<usize> {
    points_of::<Ring>(app, |r| r.point)
}

/// The discs the board shows: (point, level, colour).
fn discs(app: &mut App) -> Vec<(usize, u8, u8)> {
    let world = app.world_mut();
    let mut all: Vec<(usize, u8, u8)> =
        world.query::<&Disc>().iter(world).map(|d| (d.point, d.level, d.owner)).collect();
    all.sort();
    all
}

/// The model's pieces in the same form as the entities.
/// Cores' points, Rings' points and discs (point, level, colour).
type Pieces = (Vec<usize>, Vec<usize>, Vec<(usize, u8, u8)>);

fn model_pieces(app: &App) -> Pieces {
    let game = &model(app).game();
    let set = |points: u64| (0..game.lattice().len).filter(|p| points & (1 << p) != 0).collect::<Vec<_>>();
    let mut all = Vec::new();
    for p in 0..game.lattice().len {
        for level in 0..game.height(p) {
            all.push((p, level, game.disc(p, level).expect("a disc below the height")));
        }
    }
    (set(game.cores()), set(game.rings()), all)
}

fn shown(app: &mut App) -> Pieces {
    (cores(app), rings(app), discs(app))
}

/// The opening used below: Cores on c3, f3, d5; Rings on a1, f1, a7 (none next to a Core or
/// another Ring).
const OPENING: [&str; 6] = ["c3", "f3", "d5", "a1", "f1", "a7"];

fn opened() -> App {
    let mut app = humans();
    for name in OPENING {
        press(&mut app, name);
        assert!(!status(&app).error, "{name}: {}", status(&app).text);
    }
    app
}

#[test]
fn a_game_set_up_has_51_points_and_no_pieces() {
    let mut app = humans();
    let world = app.world_mut();
    assert_eq!(world.query::<&LatticePoint>().iter(world).count(), 51);
    assert_eq!(shown(&mut app), (vec![], vec![], vec![]));
    assert_eq!(model(&app).game().phase(), Phase::Cores);
}

#[test]
fn cores_and_rings_placed_by_clicks_become_entities() {
    let mut app = humans();
    for name in &OPENING[..3] {
        press(&mut app, name);
    }
    assert_eq!(model(&app).game().phase(), Phase::Rings);
    let want: Vec<usize> = {
        let mut v: Vec<usize> = OPENING[..3].iter().map(|n| point(&app, n)).collect();
        v.sort();
        v
    };
    assert_eq!(cores(&mut app), want);
    for name in &OPENING[3..] {
        press(&mut app, name);
    }
    assert_eq!(model(&app).game().phase(), Phase::Drive);
    assert_eq!(shown(&mut app), model_pieces(&app));
    assert_eq!(rings(&mut app).len(), 3);
}

#[test]
fn a_drive_by_two_clicks_moves_the_ring_and_drops_a_disc() {
    let mut app = opened();
    let a1 = point(&app, "a1");
    let game = &model(&app).game();
    let to = (0..51).find(|&p| game.ring_destinations(a1) & (1 << p) != 0).expect("a destination");
    let to_name = game.lattice().name(to);
    let ring_entity = {
        let world = app.world_mut();
        world.query::<(Entity, &Ring)>().iter(world).find(|(_, r)| r.point == a1).expect("a ring on a1").0
    };
    press(&mut app, "a1");
    assert_eq!(app.world().resource::<Chosen>().get(model(&app)), Some(a1), "the first click chooses the Ring");
    assert_eq!(model(&app).moves().len(), 6, "choosing is not a move");
    press(&mut app, &to_name);
    assert_eq!(model(&app).last_move(), Some(TriCoreMove::Drive { ring: a1 as u8, to: to as u8 }));
    assert_eq!(model(&app).game().phase(), Phase::Climb);
    // The same entity glides to the destination; the disc stands where the Ring was.
    let world = app.world_mut();
    let (ring, slide) = world.query::<(&Ring, Option<&Slide>)>().get(world, ring_entity).expect("the ring lives on");
    assert_eq!(ring.point, to);
    assert!(slide.is_some(), "the Ring glides");
    assert_eq!(discs(&mut app), vec![(a1, 0, 0)]);
    assert_eq!(shown(&mut app), model_pieces(&app));
    assert_eq!(app.world().resource::<Chosen>().get(model(&app)), None, "the choice goes with the move");
}

#[test]
fn a_refused_click_changes_nothing_and_says_why() {
    let mut app = humans();
    // a1 is peripheral: Cores go on inner points.
    press(&mut app, "a1");
    let s = status(&app);
    assert!(s.error && s.text.contains("peripheral"), "{s:?}");
    assert!(model(&app).moves().is_empty());
    assert!(cores(&mut app).is_empty());

    let mut app = opened();
    // No Ring chosen: a click on an empty point says to choose one.
    press(&mut app, "d4");
    assert!(status(&app).error);
    assert_eq!(model(&app).moves().len(), 6);
    // A Ring chosen, a point off its lines: the rules' reason, and nothing moves.
    press(&mut app, "a1");
    let before = shown(&mut app);
    press(&mut app, "b3");
    let s = status(&app);
    assert!(s.error && s.text.starts_with("a1-b3"), "{s:?}");
    assert_eq!(model(&app).moves().len(), 6);
    assert_eq!(shown(&mut app), before);
}

#[test]
fn end_turn_passes_to_the_other_player_and_a_climb_stacks_a_disc() {
    let mut app = opened();
    // Drive by two clicks each turn and end it, until a climb is possible: then climb by two clicks.
    let mut climbed = false;
    for _ in 0..40 {
        let game = model(&app).game().clone();
        match game.phase() {
            Phase::Drive => {
                let mut moves = Vec::new();
                game.legal_moves(&mut moves);
                let TriCoreMove::Drive { ring, to } = moves[moves.len() / 2] else { unreachable!() };
                let lattice = game.lattice();
                press(&mut app, &lattice.name(ring as usize));
                press(&mut app, &lattice.name(to as usize));
                assert_eq!(model(&app).game().phase(), Phase::Climb, "{}", status(&app).text);
            }
            Phase::Climb => {
                let mover = game.to_move().unwrap();
                let mut moves = Vec::new();
                game.legal_moves(&mut moves);
                if let Some(&TriCoreMove::Climb { from, to }) = moves.first() {
                    let lattice = game.lattice();
                    press(&mut app, &lattice.name(from as usize));
                    press(&mut app, &lattice.name(to as usize));
                    assert_eq!(model(&app).last_move(), Some(TriCoreMove::Climb { from, to }), "{}", status(&app).text);
                    assert_eq!(model(&app).game().height(to as usize), 2);
                    assert_eq!(shown(&mut app), model_pieces(&app));
                    climbed = true;
                    break;
                }
                // End turn as the button sends it.
                app.world_mut().write_message(MoveIntent { mv: TriCoreMove::End, from_ai: false });
                app.update();
                assert_eq!(model(&app).last_move(), Some(TriCoreMove::End));
                assert_ne!(model(&app).game().to_move(), Some(mover));
                assert_eq!(shown(&mut app), model_pieces(&app));
            }
            _ => break,
        }
    }
    assert!(climbed, "a climb came up within 20 turns");
}

#[test]
fn undo_restores_the_entities() {
    let mut app = opened();
    let before = shown(&mut app);
    let game = model(&app).game().clone();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let TriCoreMove::Drive { ring, to } = moves[0] else { unreachable!() };
    let lattice = game.lattice();
    press(&mut app, &lattice.name(ring as usize));
    press(&mut app, &lattice.name(to as usize));
    app.world_mut().write_message(MoveIntent { mv: TriCoreMove::End, from_ai: false });
    app.update();
    assert_ne!(shown(&mut app), before);
    // A Ring chosen in the next turn is dropped by the undo.
    let next = (0..51).find(|&p| model(&app).game().rings() & (1 << p) != 0).unwrap();
    press(&mut app, &lattice.name(next));
    assert!(app.world().resource::<Chosen>().get(model(&app)).is_some());
    app.world_mut().write_message(Command::Undo);
    app.update();
    assert_eq!(model(&app).moves().len(), 6);
    assert_eq!(shown(&mut app), before);
    assert_eq!(app.world().resource::<Chosen>().get(model(&app)), None);
    app.world_mut().write_message(Command::Redo);
    app.update();
    assert_eq!(model(&app).moves().len(), 8);
    assert_eq!(shown(&mut app), model_pieces(&app));
}

#[test]
fn ai_seats_play_a_whole_game_to_its_end() {
    let level = Level::new(1).unwrap();
    let mut app = tricore_app([Seat::Ai(level), Seat::Ai(level)]);
    let over = super::wait_for(&mut app, Duration::from_secs(240), |app| model(app).game().outcome().is_some());
    assert!(over, "the game ended within 4 minutes ({} moves)", model(&app).moves().len());
    let model = model(&app).clone();
    let mut game = model.start().clone();
    for &mv in model.moves() {
        game.play(mv).expect("a legal move");
    }
    assert!(game.outcome().is_some());
    assert!(model.result_text().is_some());
    // Trapped Rings may still be shrinking away; the rest matches the model.
    app.update();
    assert_eq!(shown(&mut app), model_pieces(&app));
}

/// A game of two level-2 AI seats (`triboard play tricore --black ai:2 --white ai:2 --seed 7`), in
/// which a Ring is trapped before the end.
const AI_GAME: &str = "e6 f4 d5 b2 d2 a5 d2-c5 end c5-d1 end d1-f1 end f1-c1 end c1-c3 d1^d2 c3-d4 end a5-b4 end \
    b2-e2 end b4-b1 end e2-e1 b2^c3 d4-c4 b4^a5 c4-b4 c5^d4 b4-b7 end b1-c2 c3^d4 c2-a6 c1^c2 b7-c6 c3^c4 c6-b6 \
    d2^c2 b6-a3 e2^d2 a3-a4 end a6-b5 b6^a6 a4-a7 end e1-f2 f1^e1 f2-e2 a4^b4 b5-c3 b7^c6 c3-b3 b4^c4 a7-e7 a6^a5 \
    e7-h4 b4^b5 b3-d3 a7^a6 d3-e4 c3^b3 e4-e3 end e3-c1 d3^e4 e2-g5 end g5-g4 e3^e2 c1-e3 b1^c1 e3-h3 end h3-d3 \
    c1^d2 d3-f3 end g4-g6 e1^e2 f3-g3 e3^f3 g3-e3 h3^g3 e3-h3 f3^g3 h4-h5 a6^b5 h5-i4 f3^g4 g6-f7 h4^h5 f7-i4 \
    f2^e1 h3-g2 g6^g5 g2-f2 e3^d3 i4-f1 h3^i4";

#[test]
fn a_trapped_ring_shrinks_away_and_the_status_says_so() {
    let mut game = TriCore::new(&Default::default()).unwrap();
    let mut moves = Vec::new();
    for text in AI_GAME.split_whitespace() {
        moves.push(game.parse_move(text).unwrap());
        game.play(*moves.last().unwrap()).unwrap();
        if moves.len() > 6 && game.rings().count_ones() < 3 {
            break;
        }
    }
    assert!(game.rings().count_ones() < 3, "a Ring is trapped in the game");
    let trapping = moves.pop().unwrap();
    let trapped = game.trapped_rings_removed();
    let mut app = humans();
    let record = triboard::rules::record::Record::new(&game, &moves);
    app.world_mut().write_message(Command::Load(record));
    app.update();
    assert_eq!(model(&app).moves(), moves);
    assert_eq!(shown(&mut app), model_pieces(&app));
    app.world_mut().write_message(MoveIntent { mv: trapping, from_ai: false });
    app.update();
    assert_eq!(model(&app).game().rings(), game.rings());
    let world = app.world_mut();
    let going: Vec<usize> = world.query_filtered::<&Ring, With<Vanish>>().iter(world).map(|r| r.point).collect();
    assert!(!going.is_empty() && going.iter().all(|&p| trapped & (1 << p) != 0), "{going:?}");
    assert!(status(&app).text.contains("trapped"), "{:?}", status(&app));
    assert_eq!(shown(&mut app), model_pieces(&app));
}
