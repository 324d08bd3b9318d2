//! Trike's entities: every cell, the pawn and every checker, kept in step with the model headless;
//! a press on a cell is where the pawn should go (`docs/rules/trike.md` §Play).

use bevy::prelude::*;

use super::layout::{cell_center, pawn_translation};
use crate::app::animation::{DropIn, Slide};
use crate::app::board::{BoardCell, BoardPiece, BoardShown, CellClicked, reconcile};
use crate::app::flow::Screen;
use crate::app::flow::{MoveIntent, Step};
use crate::app::model::Model;
use crate::rules::geometry::triangle::Triangle;
use crate::rules::trike::{Color as Stone, Trike, TrikeMove};

/// A cell of Trike's board (with [`BoardCell`], through which picking reports it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrikeCell;

/// The neutral pawn. Hidden before the opening placement.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pawn {
    /// Where the model has it (the view may still be sliding there).
    pub cell: Option<usize>,
}

/// A checker on a cell.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Checker {
    /// The cell it stands on.
    pub cell: usize,
    /// Its colour, which is its owner: a checker never changes colour (the pie rule exchanges the
    /// seats' colours, not the checkers').
    pub owner: Stone,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, clicks.in_set(Step::Intents).run_if(resource_exists::<Model<Trike>>))
        .add_systems(Update, sync.in_set(Step::View).run_if(resource_exists_and_changed::<Model<Trike>>));
}

/// In Trike a pressed cell is where the pawn should go.
fn clicks(mut clicks: MessageReader<CellClicked>, mut intents: MessageWriter<MoveIntent<TrikeMove>>) {
    for click in clicks.read() {
        intents.write(MoveIntent { mv: TrikeMove::to(click.cell), from_ai: false });
    }
}

/// A board cell entity (meshes are added by the view).
pub fn cell(geo: &Triangle, cell: usize) -> impl Bundle {
    (
        BoardCell { cell },
        TrikeCell,
        BoardPiece,
        DespawnOnExit(Screen::Playing),
        Transform::from_translation(cell_center(geo, cell).extend(1.0)),
        Visibility::default(),
    )
}

/// A checker entity of colour `owner` on `cell`.
pub fn checker(geo: &Triangle, cell: usize, owner: Stone) -> impl Bundle {
    (
        Checker { cell, owner },
        BoardPiece,
        DespawnOnExit(Screen::Playing),
        Transform::from_translation(cell_center(geo, cell).extend(2.0)),
        Visibility::default(),
    )
}

/// The pawn entity, hidden until the opening placement.
pub fn pawn(geo: &Triangle, cell: Option<usize>) -> impl Bundle {
    let translation = cell.map_or(Vec3::new(0.0, 0.0, 3.0), |c| pawn_translation(geo, c));
    (
        Pawn { cell },
        BoardPiece,
        DespawnOnExit(Screen::Playing),
        Transform::from_translation(translation),
        if cell.is_some() { Visibility::Inherited } else { Visibility::Hidden },
    )
}

/// Makes the board's entities match the model: the cells and pawn for a new board size, one
/// checker entity per checker (the one just placed dropping in), the pawn sliding along its line.
pub(super) fn sync(
    model: Res<Model<Trike>>,
    mut shown: ResMut<BoardShown>,
    mut commands: Commands,
    everything: Query<Entity, With<BoardPiece>>,
    checkers: Query<(Entity, &Checker)>,
    mut pawns: Query<(Entity, &mut Pawn, &Transform, &mut Visibility)>,
) {
    let game = model.game();
    let geo = game.geometry();
    let rebuilt = shown.ensure(format!("trike-{}", geo.side), &mut commands, everything.iter(), |commands| {
        for c in 0..geo.cells {
            commands.spawn(cell(geo, c));
        }
    });
    let last_cell = model.last_move().and_then(|mv| mv.cell());
    let existing = checkers.iter().filter(|_| !rebuilt).map(|(e, c)| (e, *c));
    let wanted = (0..geo.cells).filter_map(|cell| game.checker(cell).map(|owner| Checker { cell, owner }));
    reconcile(
        &mut commands,
        existing,
        wanted,
        |commands, entity, _| commands.entity(entity).despawn(),
        |commands, c| {
            let mut entity = commands.spawn(checker(geo, c.cell, c.owner));
            if Some(c.cell) == last_cell {
                entity.insert(DropIn::default());
            }
        },
    );
    let pawn_cell = game.pawn();
    match pawns.single_mut() {
        Ok((entity, mut pawn, transform, mut visibility)) if !rebuilt => {
            if pawn.cell != pawn_cell {
                *visibility = if pawn_cell.is_some() { Visibility::Inherited } else { Visibility::Hidden };
                if let Some(to) = pawn_cell {
                    let to = pawn_translation(geo, to);
                    if pawn.cell.is_some() {
                        commands.entity(entity).insert(Slide::new(transform.translation, to));
                    } else {
                        commands.entity(entity).remove::<Slide>().insert(Transform::from_translation(to));
                    }
                }
                pawn.cell = pawn_cell;
            }
        }
        _ => {
            commands.spawn(pawn(geo, pawn_cell));
        }
    }
}
