//! The board's entities: every cell, the pawn and every checker is an entity with components
//! (cell, owner). [`plugin`] keeps them in step with the [`Model`] headless; [`view_plugin`] gives
//! them meshes and colours. One view per game: [`trike`], [`trigon`], [`tri_it_out`], [`tricore`],
//! [`trisq`]; Tri-It-Out and TriCore share the point lattice's board ([`lattice`]).

pub mod lattice;
pub mod tri_it_out;
pub mod tricore;
pub mod trigon;
pub mod trike;
pub mod trisq;

use bevy::prelude::*;
use bevy_egui::egui;

use super::Screen;
use super::animation::{DropIn, Slide};
use super::model::{Model, MoveIntent, Step};
use crate::rules::trike::{Color as Stone, TrikeMove};

/// A cell of the board.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardCell {
    /// The cell's index in the game's geometry.
    pub cell: usize,
}

/// The neutral pawn. Hidden before the opening placement.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pawn {
    /// Where the model has it (the view may still be sliding there).
    pub cell: Option<usize>,
}

/// A checker on a cell.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checker {
    /// The cell it stands on.
    pub cell: usize,
    /// Its colour, which is its owner: a checker never changes colour (the pie rule exchanges the
    /// seats' colours, not the checkers').
    pub owner: Stone,
}

/// Marks every entity of the current board, so a board of another size replaces them all.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct BoardPiece;

/// The cell under the pointer, if any (set by the input plugin, read by the view).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hovered(pub Option<usize>);

/// A press on a board cell (from picking; tests write it directly). Each game's view turns it into
/// a move intent: Trike's is the pawn's destination, Trigon's places the selected piece there.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellClicked {
    /// The cell's index in the game's geometry.
    pub cell: usize,
}

/// The camera as the board's views read it for egui overlays.
pub type BoardCamera<'w, 's> =
    Single<'w, 's, (&'static Camera, &'static GlobalTransform, &'static Projection), With<Camera2d>>;

/// Paints with egui over the board at world positions (edge labels, stack heights, a triangle's
/// outline), so the app needs no second text engine; [`WorldPainter::scale`] follows the zoom.
pub struct WorldPainter<'a> {
    /// egui's painter on its background layer (above the board's meshes, below windows).
    pub painter: egui::Painter,
    /// The camera's orthographic scale: world units per logical pixel (1 without one).
    pub scale: f32,
    camera: &'a Camera,
    at: &'a GlobalTransform,
}

impl<'a> WorldPainter<'a> {
    /// A painter for `ctx` seen through `camera`.
    pub fn new(
        ctx: &egui::Context,
        (camera, at, projection): (&'a Camera, &'a GlobalTransform, &'a Projection),
    ) -> Self {
        let scale = match projection {
            Projection::Orthographic(ortho) => ortho.scale,
            _ => 1.0,
        };
        WorldPainter { painter: ctx.layer_painter(egui::LayerId::background()), scale, camera, at }
    }

    /// Where a world position is on screen, if the camera sees it.
    pub fn to_screen(&self, world: Vec2) -> Option<egui::Pos2> {
        self.camera.world_to_viewport(self.at, world.extend(0.0)).ok().map(|p| egui::pos2(p.x, p.y))
    }

    /// `text` centred at a world position.
    pub fn label(&self, world: Vec2, text: String, font: &egui::FontId, color: egui::Color32) {
        if let Some(p) = self.to_screen(world) {
            self.painter.text(p, egui::Align2::CENTER_CENTER, text, font.clone(), color);
        }
    }
}

/// The side of the board whose entities exist, if any.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardSide(pub Option<usize>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BoardSide>()
        .init_resource::<Hovered>()
        .add_message::<CellClicked>()
        .add_systems(OnExit(Screen::Playing), |mut side: ResMut<BoardSide>, mut hovered: ResMut<Hovered>| {
            side.0 = None;
            hovered.0 = None;
        })
        .add_systems(Update, trike_clicks.in_set(Step::Intents).run_if(resource_exists::<Model>))
        .add_systems(Update, sync.in_set(Step::View).run_if(resource_exists_and_changed::<Model>));
    trigon::plugin(app);
    lattice::plugin(app);
    tri_it_out::plugin(app);
    tricore::plugin(app);
    trisq::plugin(app);
}

/// The view: meshes, colours, coordinate labels and the camera fit.
pub(super) fn view_plugin(app: &mut App) {
    trike::view_plugin(app);
    trigon::view_plugin(app);
    lattice::view_plugin(app);
    tri_it_out::view_plugin(app);
    tricore::view_plugin(app);
    trisq::view_plugin(app);
}

/// In Trike a pressed cell is where the pawn should go.
fn trike_clicks(mut clicks: MessageReader<CellClicked>, mut intents: MessageWriter<MoveIntent>) {
    for click in clicks.read() {
        intents.write(MoveIntent { mv: TrikeMove::to(click.cell), from_ai: false });
    }
}

/// Makes the board's entities match the model: spawns the cells and pawn for a new board size,
/// spawns and despawns checkers, moves the pawn (sliding when it moved along a line).
fn sync(
    model: Res<Model>,
    mut side: ResMut<BoardSide>,
    mut commands: Commands,
    pieces: Query<Entity, With<BoardPiece>>,
    checkers: Query<(Entity, &Checker)>,
    mut pawns: Query<(Entity, &mut Pawn, &Transform, &mut Visibility)>,
) {
    let game = &model.game;
    let geo = game.geometry();
    let rebuilt = side.0 != Some(geo.side);
    if rebuilt {
        for entity in &pieces {
            commands.entity(entity).despawn();
        }
        for cell in 0..geo.cells {
            commands.spawn(trike::cell(geo, cell));
        }
        side.0 = Some(geo.side);
    }
    let last_cell = model.last_move().and_then(|mv| mv.cell());
    let mut present = vec![None; geo.cells];
    if !rebuilt {
        for (entity, checker) in &checkers {
            if checker.cell < geo.cells && game.checker(checker.cell) == Some(checker.owner) {
                present[checker.cell] = Some(entity);
            } else {
                commands.entity(entity).despawn();
            }
        }
    }
    for (cell, entity) in present.iter().enumerate() {
        if let (Some(owner), None) = (game.checker(cell), entity) {
            let mut checker = commands.spawn(trike::checker(geo, cell, owner));
            if Some(cell) == last_cell {
                checker.insert(DropIn::default());
            }
        }
    }
    let pawn_cell = game.pawn();
    match pawns.single_mut() {
        Ok((entity, mut pawn, transform, mut visibility)) if !rebuilt => {
            if pawn.cell != pawn_cell {
                *visibility = if pawn_cell.is_some() { Visibility::Inherited } else { Visibility::Hidden };
                if let Some(to) = pawn_cell {
                    let to = trike::pawn_translation(geo, to);
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
            commands.spawn(trike::pawn(geo, pawn_cell));
        }
    }
}

/// Scales the board camera so that a board of `size` world units around the world origin fits the
/// window between a left and a right panel (logical pixels), and centres it there, the camera's
/// centre at height `shift_y` (world units). Changes the camera only when it must (so change
/// detection stays quiet).
pub fn fit_board(
    camera: Single<(&mut Transform, &mut Projection), With<Camera2d>>,
    window: &Window,
    [left, right]: [f32; 2],
    size: Vec2,
    shift_y: f32,
) {
    let avail_w = (window.width() - left - right).max(100.0);
    let avail_h = window.height().max(100.0);
    let scale = (size.x / avail_w).max(size.y / avail_h);
    let (mut transform, mut projection) = camera.into_inner();
    if let Projection::Orthographic(ortho) = projection.as_mut()
        && (ortho.scale - scale).abs() > 1e-4
    {
        ortho.scale = scale;
    }
    let target = Vec3::new((right - left) / 2.0 * scale, shift_y, transform.translation.z);
    if transform.translation != target {
        transform.translation = target;
    }
}
