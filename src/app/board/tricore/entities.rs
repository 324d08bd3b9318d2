//! TriCore's entities: the lattice's points, every Core, Ring and disc, kept in step with the model
//! headless; presses choose a Ring or a climbing disc and then make the drive or the climb, Enter
//! ends the turn (`docs/rules/tricore.md` §Play).

use bevy::prelude::*;

use super::layout::disc_translation;
use crate::app::animation::{DropIn, Slide, Vanish};
use crate::app::board::lattice::{point_center, spawn_board};
use crate::app::board::{BoardPiece, BoardShown, CellClicked, reconcile};
use crate::app::flow::Screen;
use crate::app::flow::{MoveIntent, Status, Step};
use crate::app::games::AppGame;
use crate::app::input::KeyAction;
use crate::app::model::Model;
use crate::rules::Game;
use crate::rules::geometry::lattice::{Lattice, Points};
use crate::rules::tricore::{Phase, TriCore, TriCoreMove};

/// How high Cores and Rings stand: Cores over the points, Rings over the discs' stacks.
const CORE_Z: f32 = 1.8;
const RING_Z: f32 = 2.5;

/// A Core on a point.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Core {
    /// The point it stands on.
    pub point: usize,
}

/// A Ring on a point (the view may still be gliding it there). A driven Ring keeps its entity: the
/// view knows Rings apart by `id`, the rules only as a set of points.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ring {
    /// Which Ring it is: the order it came onto the board in (see [`ring_places`]).
    pub id: usize,
    /// The point the model has it on.
    pub point: usize,
}

/// A disc in a stack.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Disc {
    /// The point of its stack.
    pub point: usize,
    /// Its level in the stack: 0 at the bottom.
    pub level: u8,
    /// Its colour: 0 Black, 1 White.
    pub owner: u8,
}

/// The piece a person chose for a two-click move: a Ring to drive, or a disc to climb. It holds
/// only for the model revision it was chosen in, so any move, undo or load drops it.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chosen {
    /// The chosen piece's point.
    pub point: Option<usize>,
    /// The model's revision when it was chosen.
    pub revision: u64,
}

impl Chosen {
    /// The chosen point, if it was chosen in the model's current revision.
    pub fn get(&self, model: &Model<TriCore>) -> Option<usize> {
        self.point.filter(|_| self.revision == model.revision())
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Chosen>()
        .add_systems(OnExit(Screen::Playing), |mut chosen: ResMut<Chosen>| *chosen = Chosen::default())
        .add_systems(
            Update,
            (
                (clicks, keys).in_set(Step::Intents).run_if(resource_exists::<Model<TriCore>>),
                sync.in_set(Step::View).run_if(resource_exists_and_changed::<Model<TriCore>>),
            ),
        );
}

/// What a press on point `p` does now: a placement, the choice of a Ring or a climbing disc, a
/// drive or a climb; `Err` says why nothing happens. Moves the rules may refuse are sent anyway, so
/// the status line gives the rules' reason.
fn press(model: &Model<TriCore>, chosen: &mut Chosen, p: usize) -> Result<Option<TriCoreMove>, String> {
    model.person_may_move()?;
    let game = model.game();
    let lattice = game.lattice();
    let bit = |set: Points| set & (1 << p) != 0;
    let choose = |chosen: &mut Chosen, point: Option<usize>| {
        *chosen = Chosen { point, revision: model.revision() };
        Ok(None)
    };
    let held = chosen.get(model);
    match game.phase() {
        Phase::Cores => Ok(Some(TriCoreMove::Core(p as u8))),
        Phase::Rings => Ok(Some(TriCoreMove::Ring(p as u8))),
        Phase::Drive => match held {
            Some(ring) if ring == p => choose(chosen, None),
            _ if bit(game.rings()) => choose(chosen, Some(p)),
            Some(ring) => Ok(Some(TriCoreMove::Drive { ring: ring as u8, to: p as u8 })),
            None => Err(format!(
                "{}: first click a Ring (blue); your disc goes on its point and the Ring moves on",
                lattice.name(p)
            )),
        },
        Phase::Climb => match held {
            Some(from) if from == p => choose(chosen, None),
            Some(from) if bit(game.climb_targets(from)) => {
                Ok(Some(TriCoreMove::Climb { from: from as u8, to: p as u8 }))
            }
            _ if game.climb_targets(p) != 0 => choose(chosen, Some(p)),
            Some(from) => Ok(Some(TriCoreMove::Climb { from: from as u8, to: p as u8 })),
            _ => {
                let me = game.to_move().map_or(0, |m| m.index());
                let name = lattice.name(p);
                Err(match game.top(p) {
                    None => format!("{name}: click one of your lit discs to climb, or End turn"),
                    Some(c) if c as usize != me => {
                        format!("{name}: that disc is {}'s", game.player_name(crate::rules::Player(c)))
                    }
                    Some(_) if game.just_placed() == Some(p) => {
                        format!("{name}: the disc placed this turn cannot climb")
                    }
                    Some(_) => {
                        format!("{name}: no adjacent stack of height {} to climb onto (at most 3)", game.height(p))
                    }
                })
            }
        },
        Phase::Over => Err(TriCore::INFO.over_text.to_string()),
    }
}

fn clicks(
    mut presses: MessageReader<CellClicked>,
    model: Res<Model<TriCore>>,
    mut chosen: ResMut<Chosen>,
    mut status: ResMut<Status>,
    mut intents: MessageWriter<MoveIntent<TriCoreMove>>,
) {
    for click in presses.read() {
        match press(&model, &mut chosen, click.cell) {
            Ok(Some(mv)) => {
                intents.write(MoveIntent { mv, from_ai: false });
            }
            Ok(None) => {}
            Err(e) => *status = Status::error(e),
        }
    }
}

/// A piece's entity of `component` at `at` (meshes are added by the view).
fn piece(component: impl Component, at: Vec3) -> impl Bundle {
    (component, BoardPiece, DespawnOnExit(Screen::Playing), Transform::from_translation(at), Visibility::default())
}

/// Every Ring on the board as `(id, point)`: its id the order it came onto the board in (the start
/// position's Rings by point, then each placement), its point where the drives since took it.
/// Replays the model's moves, as the rules keep only the set of the Rings' points.
pub fn ring_places(model: &Model<TriCore>) -> Vec<(usize, usize)> {
    let mut game = model.start().clone();
    let mut places: Vec<Option<usize>> = Lattice::iter(game.rings()).map(Some).collect();
    for &mv in model.moves() {
        game.play_unchecked(mv);
        match mv {
            TriCoreMove::Ring(p) => places.push(Some(p as usize)),
            TriCoreMove::Drive { ring, to } => {
                if let Some(place) = places.iter_mut().find(|place| **place == Some(ring as usize)) {
                    *place = Some(to as usize);
                }
            }
            _ => {}
        }
        // Trapped Rings leave the game.
        for place in &mut places {
            if place.is_some_and(|p| game.rings() & (1 << p) == 0) {
                *place = None;
            }
        }
    }
    places.into_iter().enumerate().filter_map(|(id, place)| Some((id, place?))).collect()
}

/// Makes the entities match the model: the board for a new game; one entity per Core and disc by
/// value and per Ring by id. A driven Ring glides to its new point and the disc drops in where it
/// stood; a climbing disc glides onto its stack; trapped Rings shrink away, and the status line
/// says so.
pub(super) fn sync(
    model: Res<Model<TriCore>>,
    (mut shown, mut status): (ResMut<BoardShown>, ResMut<Status>),
    mut commands: Commands,
    everything: Query<Entity, With<BoardPiece>>,
    cores: Query<(Entity, &Core)>,
    mut rings: Query<(Entity, &mut Ring, &Transform), Without<Vanish>>,
    discs: Query<(Entity, &Disc), Without<Vanish>>,
) {
    let lattice = model.game().lattice();
    let rebuilt = shown.ensure("tricore".to_string(), &mut commands, everything.iter(), |commands| {
        spawn_board(commands, lattice);
    });
    // A rebuild took the pieces shown with the board.
    let cores = cores.iter().filter(|_| !rebuilt).map(|(entity, core)| (entity, *core)).collect();
    place_cores(&mut commands, &model, cores);
    let shown_rings = rings.iter().filter(|_| !rebuilt).map(|(entity, ring, _)| (entity, *ring)).collect();
    place_rings(&mut commands, &model, shown_rings, &mut rings, &mut status);
    let discs = discs.iter().filter(|_| !rebuilt).map(|(entity, disc)| (entity, *disc)).collect();
    place_discs(&mut commands, &model, discs);
}

/// The Cores, by value (they never move): the one just placed drops in.
fn place_cores(commands: &mut Commands, model: &Model<TriCore>, shown: Vec<(Entity, Core)>) {
    let (game, last) = (model.game(), model.last_move());
    let lattice = game.lattice();
    reconcile(
        commands,
        shown,
        Lattice::iter(game.cores()).map(|point| Core { point }),
        |commands, entity, _| commands.entity(entity).despawn(),
        |commands, core| {
            let mut entity = commands.spawn(piece(core, point_center(lattice, core.point).extend(CORE_Z)));
            if last == Some(TriCoreMove::Core(core.point as u8)) {
                entity.insert(DropIn::default());
            }
        },
    );
}

/// The Rings, by id (`shown` as they were), so a driven Ring keeps its entity and glides to its
/// new point; one just placed drops in; trapped ones shrink away and the status line names them.
fn place_rings(
    commands: &mut Commands,
    model: &Model<TriCore>,
    shown: Vec<(Entity, Ring)>,
    rings: &mut Query<(Entity, &mut Ring, &Transform), Without<Vanish>>,
    status: &mut Status,
) {
    let (game, last) = (model.game(), model.last_move());
    let lattice = game.lattice();
    let places = ring_places(model);
    let place = |id: usize| places.iter().find(|&&(i, _)| i == id).map(|&(_, p)| p);
    let trapped = game.trapped_rings_removed();
    let mut left = Vec::new();
    reconcile(
        commands,
        shown.iter().map(|&(entity, ring)| (entity, ring.id)),
        places.iter().map(|&(id, _)| id),
        |commands, entity, _| match shown.iter().find(|&&(e, _)| e == entity) {
            Some(&(_, ring))
                if trapped & (1 << ring.point) != 0
                    && matches!(last, Some(TriCoreMove::End | TriCoreMove::Climb { .. })) =>
            {
                commands.entity(entity).insert(Vanish::default());
                left.push(lattice.name(ring.point));
            }
            _ => commands.entity(entity).despawn(),
        },
        |commands, id| {
            let Some(p) = place(id) else { return };
            let mut entity = commands.spawn(piece(Ring { id, point: p }, point_center(lattice, p).extend(RING_Z)));
            if last == Some(TriCoreMove::Ring(p as u8)) {
                entity.insert(DropIn::default());
            }
        },
    );
    for &(entity, was) in &shown {
        let (Some(to), Ok((_, mut ring, transform))) = (place(was.id), rings.get_mut(entity)) else { continue };
        if to == was.point {
            continue;
        }
        let at = point_center(lattice, to).extend(RING_Z);
        if last == Some(TriCoreMove::Drive { ring: was.point as u8, to: to as u8 }) {
            commands.entity(entity).insert(Slide::new(transform.translation, at));
        } else {
            commands.entity(entity).remove::<Slide>().insert(Transform::from_translation(at));
        }
        ring.point = to;
    }
    if !left.is_empty() && !status.error {
        let which = if left.len() == 1 {
            format!("The Ring on {} is", left[0])
        } else {
            format!("The Rings on {} are", left.join(", "))
        };
        status.text = format!("{}. {which} trapped and leaves the game.", status.text.trim_end_matches('.'));
    }
}

/// The discs, by value, one per level of every stack: one placed by a drive drops in; a climbing
/// one, if `shown` on the stack it left, glides from there onto its new stack.
fn place_discs(commands: &mut Commands, model: &Model<TriCore>, shown: Vec<(Entity, Disc)>) {
    let (game, last) = (model.game(), model.last_move());
    let lattice = game.lattice();
    let climber = match last {
        Some(TriCoreMove::Climb { from, to }) => {
            let level = game.height(to as usize).saturating_sub(1);
            game.disc(to as usize, level).map(|owner| Disc {
                point: from as usize,
                level: level.saturating_sub(1),
                owner,
            })
        }
        _ => None,
    }
    .filter(|&old| shown.iter().any(|&(_, disc)| disc == old) && game.disc(old.point, old.level) != Some(old.owner));
    reconcile(
        commands,
        shown,
        (0..lattice.len).flat_map(|point| {
            (0..game.height(point))
                .filter_map(move |level| game.disc(point, level).map(|owner| Disc { point, level, owner }))
        }),
        |commands, entity, _| commands.entity(entity).despawn(),
        |commands, disc| {
            let at = disc_translation(lattice, disc.point, disc.level);
            let mut entity = commands.spawn(piece(disc, at));
            match (last, climber) {
                (Some(TriCoreMove::Drive { ring, .. }), _) if ring as usize == disc.point && disc.level == 0 => {
                    entity.insert(DropIn::default());
                }
                (Some(TriCoreMove::Climb { to, .. }), Some(old))
                    if to as usize == disc.point && disc.level == old.level + 1 && disc.owner == old.owner =>
                {
                    entity.insert(Slide::new(disc_translation(lattice, old.point, old.level), at));
                }
                _ => {}
            }
        },
    );
}

/// Enter ends the turn in the climb step; Esc puts back the chosen Ring or disc (through the input
/// plugin).
fn keys(
    mut actions: MessageReader<KeyAction>,
    model: Res<Model<TriCore>>,
    mut chosen: ResMut<Chosen>,
    mut intents: MessageWriter<MoveIntent<TriCoreMove>>,
) {
    for action in actions.read() {
        match action {
            KeyAction::EndTurn if model.human_to_move() && model.game().phase() == Phase::Climb => {
                intents.write(MoveIntent { mv: TriCoreMove::End, from_ai: false });
            }
            KeyAction::Cancel => chosen.point = None,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Ring keeps its id through a drive, and the others keep theirs.
    #[test]
    fn a_driven_ring_keeps_its_id() {
        let mut model = Model::<TriCore>::with(&Default::default(), &[]).expect("a new game");
        let play = |model: &mut Model<TriCore>, mv: TriCoreMove| {
            model.play(mv).expect("a legal move");
        };
        let at = |name: &str| model.game().lattice().parse(name).expect("a point");
        let [f1, a1, a7] = [at("f1"), at("a1"), at("a7")];
        for name in ["c3", "f3", "d5", "f1", "a1", "a7"] {
            let mv = model.game().parse_move(name).expect("a placement");
            play(&mut model, mv);
        }
        assert_eq!(ring_places(&model), vec![(0, f1), (1, a1), (2, a7)]);
        let to = model.game().ring_destinations(a1).trailing_zeros() as usize;
        play(&mut model, TriCoreMove::Drive { ring: a1 as u8, to: to as u8 });
        assert_eq!(ring_places(&model), vec![(0, f1), (1, to), (2, a7)]);
    }
}
