//! Trigon's entities: every cell, the frame and every placed piece, kept in step with the model
//! headless; the held piece ([`Selection`]) turned, flipped and put back by the keys; a press on a
//! cell places it there (`docs/rules/trigon.md` §Play).

use bevy::prelude::*;

use super::layout::{cell_center, cells_center};
use super::pointing::{BoardPointer, Selection, anchor_near, oriented, placement_at};
use crate::app::animation::DropIn;
use crate::app::board::{BoardCell, BoardPiece, BoardShown, CellClicked, reconcile};
use crate::app::flow::Screen;
use crate::app::flow::{MoveIntent, Status, Step};
use crate::app::input::KeyAction;
use crate::app::model::Model;
use crate::rules::geometry::trigon::TrigonBoard;
use crate::rules::trigon::{Tables, Trigon, TrigonMove};

/// A cell of the Trigon board (it also carries [`BoardCell`], through which picking reports it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrigonCell {
    /// The cell's index in the board geometry.
    pub cell: usize,
    /// True on a starting point.
    pub start: bool,
}

/// A placed piece: one entity per placement on the board.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlacedPiece {
    /// Its index in [`Tables::placements`].
    pub placement: u16,
    /// The colour that placed it, `0..4`.
    pub colour: u8,
}

/// The board's frame, behind the cells (its hexagon is drawn by the view).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Frame;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Selection>()
        .add_systems(OnExit(Screen::Playing), |mut selection: ResMut<Selection>| {
            *selection = Selection { show_attach: selection.show_attach, ..default() };
        })
        .add_systems(
            Update,
            (
                (clicks, keys).in_set(Step::Intents).distributive_run_if(resource_exists::<Model<Trigon>>),
                (sync.run_if(resource_exists_and_changed::<Model<Trigon>>), drop_stale_selection)
                    .in_set(Step::View)
                    .run_if(resource_exists::<Model<Trigon>>),
            ),
        );
}

/// A cell entity (meshes are added by the view).
pub fn cell(board: &TrigonBoard, cell: usize) -> impl Bundle {
    (
        TrigonCell { cell, start: board.starting_points.contains(&(cell as u16)) },
        BoardCell { cell },
        BoardPiece,
        DespawnOnExit(Screen::Playing),
        Transform::from_translation(cell_center(board, cell).extend(1.0)),
        Visibility::default(),
    )
}

/// A placed piece's entity at the centre of its cells.
pub fn piece(tables: &Tables, placement: u16, colour: u8) -> impl Bundle {
    let centre = cells_center(tables.board, &tables.placements[placement as usize].cells);
    (
        PlacedPiece { placement, colour },
        BoardPiece,
        DespawnOnExit(Screen::Playing),
        Transform::from_translation(centre.extend(2.0)),
        Visibility::default(),
    )
}

/// The frame's entity, centred on the origin behind the cells.
fn frame() -> impl Bundle {
    (Frame, BoardPiece, DespawnOnExit(Screen::Playing), Transform::default(), Visibility::default())
}

/// A press on a cell places the selected piece where its ghost shows it, centred on the pointer
/// ([`anchor_near`]; on the pressed cell without a pointer); the model checks it and says why not.
fn clicks(
    mut presses: MessageReader<CellClicked>,
    model: Res<Model<Trigon>>,
    selection: Res<Selection>,
    pointer: Res<BoardPointer>,
    mut status: ResMut<Status>,
    mut intents: MessageWriter<MoveIntent<TrigonMove>>,
) {
    for press in presses.read() {
        if let Err(why) = model.person_may_move() {
            *status = Status::error(why);
            continue;
        }
        let tables = model.game().tables();
        let anchor = match selection.piece {
            Some(piece) if press.cell < tables.board.cells() => {
                anchor_near(tables.board, &oriented(tables, piece as usize, selection.symmetry), press.cell, pointer.0)
            }
            _ => press.cell,
        };
        match placement_at(&model, &selection, anchor) {
            Ok(mv) => {
                intents.write(MoveIntent { mv, from_ai: false });
            }
            Err(e) => *status = Status::error(e),
        }
    }
}

/// The keys and the wheel (through the input plugin): R or a wheel notch turns the held piece,
/// Shift+R turns it back, F flips it, Esc puts it back, A shows or hides the attach points.
fn keys(mut actions: MessageReader<KeyAction>, mut selection: ResMut<Selection>) {
    for action in actions.read() {
        match *action {
            KeyAction::Rotate(steps) if selection.piece.is_some() => *selection = selection.rotated(steps as i32),
            KeyAction::Flip if selection.piece.is_some() => *selection = selection.flipped(),
            KeyAction::Cancel => selection.piece = None,
            KeyAction::ToggleAttach => selection.show_attach = !selection.show_attach,
            _ => {}
        }
    }
}

/// The colour to move: none once the game is over, by the rules or off the board (a resignation,
/// a flag: `Model::end`), for the chooser, the attach points and the chosen piece.
pub fn colour_to_move(model: &Model<Trigon>) -> Option<usize> {
    if model.over() { None } else { model.game().colour_to_move() }
}

/// A chosen piece goes once it is placed, another colour is to move or the game is over.
fn drop_stale_selection(model: Res<Model<Trigon>>, mut selection: ResMut<Selection>) {
    let Some(piece) = selection.piece else { return };
    let keep = match colour_to_move(&model) {
        Some(c) => c == selection.colour as usize && model.game().pieces_left(c) & (1 << piece) != 0,
        None => false,
    };
    if !keep {
        selection.piece = None;
    }
}

/// Makes the board's entities match the model: the cells and frame for a new board, one entity per
/// placed piece in its colour (the last one dropping in), none for undone ones.
pub(super) fn sync(
    model: Res<Model<Trigon>>,
    mut shown: ResMut<BoardShown>,
    mut commands: Commands,
    everything: Query<Entity, With<BoardPiece>>,
    pieces: Query<(Entity, &PlacedPiece)>,
) {
    let game = model.game();
    let tables = game.tables();
    let board = tables.board;
    let rebuilt = shown.ensure(format!("trigon-{}", board.side), &mut commands, everything.iter(), |commands| {
        commands.spawn(frame());
        for c in 0..board.cells() {
            commands.spawn(cell(board, c));
        }
    });
    let last = last_placement(&model);
    // A placed piece's cells are its colour's in the position.
    let wanted = model.moves().iter().filter(|mv| mv.is_placement()).map(|mv| {
        let cells = &tables.placements[mv.0 as usize].cells;
        PlacedPiece { placement: mv.0, colour: game.colour_at(cells[0] as usize).unwrap_or(0) as u8 }
    });
    reconcile(
        &mut commands,
        pieces.iter().filter(|_| !rebuilt).map(|(e, p)| (e, *p)),
        wanted,
        |commands, entity, _| commands.entity(entity).despawn(),
        |commands, p| {
            let mut entity = commands.spawn(piece(tables, p.placement, p.colour));
            if Some(p.placement) == last {
                entity.insert(DropIn::default());
            }
        },
    );
}

/// The last placement played (passes skipped), as its index in [`Tables::placements`].
pub fn last_placement(model: &Model<Trigon>) -> Option<u16> {
    model.moves().iter().rev().find(|mv| mv.is_placement()).map(|mv| mv.0)
}

/// A press that makes `mv` (not a pass): the piece chosen in the orientation and on the cell that
/// make it, found by trying each, as a person would (the selection is set to it).
///
/// # Errors
/// A pass, or a placement no orientation and cell make.
pub fn click_points(world: &mut World, mv: TrigonMove) -> Result<Vec<Vec2>, String> {
    let model = world.resource::<Model<Trigon>>();
    if !mv.is_placement() {
        return Err("a pass or a retirement is played by the rules and the server, not by a press".into());
    }
    let tables = model.game().tables();
    let piece = tables.placements[mv.0 as usize].piece;
    let colour = model.game().colour_to_move().unwrap_or(0) as u8;
    let current = *world.resource::<Selection>();
    for symmetry in 0..12 {
        let selection = Selection { piece: Some(piece), symmetry, colour, ..current };
        for anchor in 0..tables.board.cells() {
            if placement_at(model, &selection, anchor) == Ok(mv) {
                // The press goes where the piece's centre follows the pointer to this placement:
                // the centre of one of its triangles (inside a cell, so picking sees it), the one
                // nearest the piece's centre that makes it.
                let board = tables.board;
                let shape = oriented(tables, piece as usize, symmetry);
                let cells = &tables.placements[mv.0 as usize].cells;
                let centre = cells_center(board, cells);
                let mut inside: Vec<usize> = cells.iter().map(|&c| c as usize).collect();
                inside.sort_by(|&a, &b| {
                    cell_center(board, a).distance(centre).total_cmp(&cell_center(board, b).distance(centre))
                });
                let at = inside
                    .into_iter()
                    .map(|c| (c, cell_center(board, c)))
                    .find(|&(c, at)| placement_at(model, &selection, anchor_near(board, &shape, c, Some(at))) == Ok(mv))
                    .map_or(cell_center(board, anchor), |(_, at)| at);
                *world.resource_mut::<Selection>() = selection;
                return Ok(vec![at]);
            }
        }
    }
    Err("no orientation and cell of the chooser make this placement".into())
}
