//! Trisq's entities, kept in step with the model headless: the squares and the frame for a board
//! size, one tile per placed trapezium with its marks; the legal slots cached per position; a press
//! on a square places the slot the pointer aims at, Enter ends the turn (`docs/rules/trisq.md` §Play).

use bevy::picking::Pickable;
use bevy::picking::pointer::PointerButton;
use bevy::prelude::*;

use super::geometry::{Aim, BAND, BAND_GAP, SQUARE, TrisqLegal, aim, slot_centre, square_centre, square_name};
use crate::app::animation::DropIn;
use crate::app::board::{BoardCell, BoardPiece, BoardShown, CellClicked, reconcile};
use crate::app::flow::Screen;
use crate::app::flow::{MoveIntent, Status, Step};
use crate::app::input::KeyAction;
use crate::app::model::Model;
use crate::rules::Game;
use crate::rules::geometry::trisq::TrisqBoard;
use crate::rules::trisq::{Trisq, TrisqMove};

/// A square of the board (with [`BoardCell`], whose `cell` is the square's index `row·N + col`).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrisqSquare {
    /// The square's index, `row·N + col`.
    pub square: usize,
}

/// A trapezium on the board: a piece is its slot and colour, which never change.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    /// Its slot ([`TrisqBoard`]'s index).
    pub slot: usize,
    /// Its colour: 0 Red, 1 Blue.
    pub owner: u8,
}

/// What a tile is marked with now (kept by the headless core, drawn by the view).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TileMarks {
    /// Placed in the last finished turn (a dot).
    pub last: bool,
    /// Placed in the turn in progress (lighter).
    pub this_turn: bool,
    /// Part of the winning chain (gold).
    pub chain: bool,
    /// One of the two pieces that touch at a corner without a bridge, so the turn may not end yet.
    pub blocker: bool,
}

/// A part of the board's frame drawn behind the squares.
#[derive(Component, Clone, Copy, Debug)]
pub enum Backdrop {
    /// The wooden frame around the grid.
    Frame,
    /// The dark ground showing between the squares as grid lines.
    Ground,
    /// A player's edge: 0 Red (top, bottom), 1 Blue (left, right); the rectangle's size.
    Band(u8, Vec2),
}

/// Where the pointer is over the board ([`BoardPointer`](crate::app::board::BoardPointer)): a press on a square places the slot it
/// aims at ([`aim`]).
pub use crate::app::board::BoardPointer as SlotPointer;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TrisqLegal>().add_systems(
        Update,
        (
            // After the model changes (or a new one is inserted), before the views and the next
            // frame's clicks read them.
            refresh_legal.after(Step::Apply).before(Step::View).run_if(resource_exists_and_changed::<Model<Trisq>>),
            (clicks, keys).in_set(Step::Intents).run_if(resource_exists::<Model<Trisq>>),
            sync.in_set(Step::View).run_if(resource_exists_and_changed::<Model<Trisq>>),
            mark_tiles.after(sync).in_set(Step::View).run_if(resource_exists_and_changed::<Model<Trisq>>),
        ),
    );
}

/// The legal moves, once per position (hover and clicks read them every frame).
fn refresh_legal(model: Res<Model<Trisq>>, mut legal: ResMut<TrisqLegal>) {
    let game = model.game();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut fresh = TrisqLegal { slots: vec![false; game.board().slots()], end: false };
    for mv in moves {
        match mv.slot() {
            Some(s) => fresh.slots[s] = true,
            None => fresh.end = true,
        }
    }
    legal.set_if_neq(fresh);
}

/// A press on a square places the slot the pointer aims at; a press on a piece, or on a slot that
/// may not be played now, is refused with the reason and nothing changes.
fn clicks(
    mut presses: MessageReader<CellClicked>,
    model: Res<Model<Trisq>>,
    legal: Res<TrisqLegal>,
    pointer: Res<SlotPointer>,
    mut status: ResMut<Status>,
    mut intents: MessageWriter<MoveIntent<TrisqMove>>,
) {
    for press in presses.read() {
        if let Err(why) = model.person_may_move() {
            *status = Status::error(why);
            continue;
        }
        let game = model.game();
        let n = game.board().side;
        if press.cell >= n * n {
            continue;
        }
        let slot = match aim(game, &legal, press.cell, pointer.0) {
            Aim::Slot(slot) => slot,
            Aim::Taken(slot) => {
                let owner = game.piece(slot).map_or("a", |p| game.player_name(crate::rules::Player(p)));
                *status = Status::error(format!("{}: taken by {owner}'s piece", game.slot_name(slot)));
                continue;
            }
            Aim::Full => {
                *status = Status::error(format!("{}: no slot is left in this square", square_name(n, press.cell)));
                continue;
            }
        };
        let mv = TrisqMove::place(slot);
        if legal.slot(slot) {
            intents.write(MoveIntent { mv, from_ai: false });
            continue;
        }
        let name = game.slot_name(slot);
        let why = match game.clone().play(mv) {
            Err(e) => e.reason,
            // The cache lags the position by a frame at most; the model decides.
            Ok(()) => {
                intents.write(MoveIntent { mv, from_ai: false });
                continue;
            }
        };
        *status = Status::refusal(&name, why);
    }
}

/// Enter ends the turn after its first piece (through the input plugin).
fn keys(
    mut actions: MessageReader<KeyAction>,
    model: Res<Model<Trisq>>,
    mut intents: MessageWriter<MoveIntent<TrisqMove>>,
) {
    for action in actions.read() {
        if *action == KeyAction::EndTurn && model.human_to_move() && model.game().first_placed().is_some() {
            intents.write(MoveIntent { mv: TrisqMove::END, from_ai: false });
        }
    }
}

/// Makes the entities match the model: the squares and frame for a new board size, one tile per
/// piece (the one just placed dropping in), none for undone ones.
pub(super) fn sync(
    model: Res<Model<Trisq>>,
    mut shown: ResMut<BoardShown>,
    mut commands: Commands,
    everything: Query<Entity, With<BoardPiece>>,
    tiles: Query<(Entity, &Tile)>,
) {
    let game = model.game();
    let board = game.board();
    let n = board.side;
    let rebuilt = shown.ensure(format!("trisq-{n}"), &mut commands, everything.iter(), |commands| {
        spawn_board(commands, n);
    });
    let last = model.last_move().and_then(|mv| mv.slot());
    let existing = tiles.iter().filter(|_| !rebuilt).map(|(e, t)| (e, *t));
    let wanted = (0..board.slots()).filter_map(|slot| game.piece(slot).map(|owner| Tile { slot, owner }));
    reconcile(
        &mut commands,
        existing,
        wanted,
        |commands, entity, _| commands.entity(entity).despawn(),
        |commands, t| {
            let mut tile = commands.spawn(tile(board, t.slot, t.owner));
            if Some(t.slot) == last {
                tile.insert(DropIn::default());
            }
        },
    );
}

/// A press on the grid lines between squares: the status says where to press.
fn pressed_between_squares(press: On<Pointer<Press>>, model: Option<Res<Model<Trisq>>>, mut status: ResMut<Status>) {
    if press.button != PointerButton::Primary {
        return;
    }
    *status = match model.as_deref().map(|m| m.person_may_move()) {
        Some(Err(why)) => Status::error(why),
        _ => Status::error("Between two squares: press inside a square, on the side of it where the tile should lie"),
    };
}

/// The frame, the ground, the four edge bands and the squares of a board of side `n`.
fn spawn_board(commands: &mut Commands, n: usize) {
    let span = n as f32 * SQUARE;
    let part = |backdrop: Backdrop, at: Vec3| {
        (
            backdrop,
            BoardPiece,
            DespawnOnExit(Screen::Playing),
            Transform::from_translation(at),
            Visibility::default(),
            Pickable::IGNORE,
        )
    };
    commands.spawn(part(Backdrop::Frame, Vec3::new(0.0, 0.0, 0.0)));
    // The ground shows between the squares as grid lines: a press there says why nothing happens.
    commands
        .spawn((
            Backdrop::Ground,
            BoardPiece,
            DespawnOnExit(Screen::Playing),
            Transform::from_xyz(0.0, 0.0, 0.2),
            Visibility::default(),
        ))
        .observe(pressed_between_squares);
    let off = span / 2.0 + BAND_GAP + BAND / 2.0;
    for sign in [-1.0, 1.0] {
        commands.spawn(part(Backdrop::Band(0, Vec2::new(span, BAND)), Vec3::new(0.0, sign * off, 0.4)));
        commands.spawn(part(Backdrop::Band(1, Vec2::new(BAND, span)), Vec3::new(sign * off, 0.0, 0.4)));
    }
    for square in 0..n * n {
        commands.spawn((
            BoardCell { cell: square },
            TrisqSquare { square },
            BoardPiece,
            DespawnOnExit(Screen::Playing),
            Transform::from_translation(square_centre(n, square).extend(1.0)),
            Visibility::default(),
        ));
    }
}

/// A tile entity of colour `owner` in `slot`, centred on the slot's centre so that it drops in
/// about it (meshes are added by the view).
pub fn tile(board: &TrisqBoard, slot: usize, owner: u8) -> impl Bundle {
    (
        Tile { slot, owner },
        TileMarks::default(),
        BoardPiece,
        DespawnOnExit(Screen::Playing),
        Transform::from_translation(slot_centre(board, slot).extend(2.0)),
        Visibility::default(),
    )
}

/// Sets every tile's marks when the model changes: the last finished turn's pieces, the turn in
/// progress, the winning chain, and the pair that keeps the turn from ending.
pub(super) fn mark_tiles(model: Res<Model<Trisq>>, mut tiles: Query<(&Tile, &mut TileMarks)>) {
    let game = model.game();
    let last = game.last_turn();
    // A winning second piece ends the game with the turn's first still recorded.
    let current = game.first_placed().filter(|_| game.winner().is_none());
    let chain = game.winning_chain();
    let blocker = if model.human_to_move() { game.end_blocker() } else { None };
    for (tile, mut marks) in &mut tiles {
        let s = tile.slot;
        let want = TileMarks {
            last: last.contains(&s),
            this_turn: current == Some(s),
            chain: chain.contains(&s),
            blocker: blocker.is_some_and(|(a, b)| a == s || b == s),
        };
        marks.set_if_neq(want);
    }
}
