//! Tri-It-Out's entities: the lattice's points and every counter, kept in step with the model
//! headless; a press on a point is a placement there, or the capture of the counter on it while
//! one is pending (`docs/rules/tri-it-out.md` §A turn).

use bevy::prelude::*;

use crate::app::animation::{DropIn, Vanish};
use crate::app::board::lattice::{point_center, spawn_board};
use crate::app::board::{BoardPiece, BoardShown, CellClicked, reconcile};
use crate::app::flow::Screen;
use crate::app::flow::{MoveIntent, Status, Step};
use crate::app::model::Model;
use crate::rules::Game;
use crate::rules::geometry::lattice::Lattice;
use crate::rules::tri_it_out::{TriItOut, TriItOutMove};

/// A counter on a point.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Counter {
    /// The point it stands on.
    pub point: usize,
    /// Its colour: 0 Red, 1 Blue.
    pub owner: u8,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            clicks.in_set(Step::Intents).run_if(resource_exists::<Model<TriItOut>>),
            sync.in_set(Step::View).run_if(resource_exists_and_changed::<Model<TriItOut>>),
        ),
    );
}

/// A press on a point: a capture while one is pending, else a placement. The rules say why a
/// move is refused (a restricted point names the pair that closes it).
fn clicks(
    mut presses: MessageReader<CellClicked>,
    model: Res<Model<TriItOut>>,
    mut status: ResMut<Status>,
    mut intents: MessageWriter<MoveIntent<TriItOutMove>>,
) {
    for press in presses.read() {
        if let Err(why) = model.person_may_move() {
            *status = Status::error(why);
            continue;
        }
        let game = model.game();
        let p = press.cell;
        let mv = if game.capture_pending() {
            if game.counter(p).is_none() {
                *status = Status::error("first take one of the glowing counters");
                continue;
            }
            TriItOutMove::Capture(p as u8)
        } else {
            TriItOutMove::Place(p as u8)
        };
        intents.write(MoveIntent { mv, from_ai: false });
    }
}

/// Makes the entities match the model: the board's points for a new board, one counter entity per
/// counter (the one just placed dropping in, a captured one shrinking away).
pub(super) fn sync(
    model: Res<Model<TriItOut>>,
    mut shown: ResMut<BoardShown>,
    mut commands: Commands,
    everything: Query<Entity, With<BoardPiece>>,
    counters: Query<(Entity, &Counter), Without<Vanish>>,
) {
    let game = model.game();
    let lattice = game.lattice();
    let key = format!("tri-it-out-{}", game.options().board.id());
    let rebuilt = shown.ensure(key, &mut commands, everything.iter(), |commands| spawn_board(commands, lattice));
    let last = model.last_move();
    reconcile(
        &mut commands,
        counters.iter().filter(|_| !rebuilt).map(|(entity, counter)| (entity, *counter)),
        (0..lattice.len).filter_map(|point| game.counter(point).map(|owner| Counter { point, owner })),
        |commands, entity, counter| {
            if last == Some(TriItOutMove::Capture(counter.point as u8)) {
                commands.entity(entity).insert(Vanish::default());
            } else {
                commands.entity(entity).despawn();
            }
        },
        |commands, counter| {
            let mut entity = commands.spawn(counter_bundle(lattice, counter));
            if last == Some(TriItOutMove::Place(counter.point as u8)) {
                entity.insert(DropIn::default());
            }
        },
    );
}

/// A counter's entity (meshes are added by the view).
pub fn counter_bundle(lattice: &Lattice, counter: Counter) -> impl Bundle {
    (
        counter,
        BoardPiece,
        DespawnOnExit(Screen::Playing),
        Transform::from_translation(point_center(lattice, counter.point).extend(2.0)),
        Visibility::default(),
    )
}
