//! What every board view shares: the pickable [`BoardCell`], the hovered cell and pressed cells
//! ([`CellClicked`]), the board's entities' marker and rebuild ([`BoardPiece`], [`BoardShown`]), the
//! one reconcile of piece entities with the model ([`reconcile`]), egui painting at world positions
//! ([`WorldPainter`]) and the camera fit ([`fit_board`]). One view folder per game: [`trike`],
//! [`trigon`], [`tri_it_out`], [`tricore`], [`trisq`]; Tri-It-Out and TriCore share the point
//! lattice's board ([`lattice`]). Each folder's `mod.rs` implements the game's
//! [`AppGame`](crate::app::games::AppGame).

pub mod cursor;
pub mod lattice;
pub mod marks;
pub mod tri_it_out;
pub mod tricore;
pub mod trigon;
pub mod trike;
pub mod trisq;

use std::collections::HashSet;
use std::hash::Hash;

use bevy::prelude::*;
use bevy_egui::egui;

use super::flow::Screen;

/// A cell of the board: whatever a press may target (Trike's cell, Trigon's triangle, a lattice
/// point, a Trisq square), with its index in the game's geometry. Picking reports presses on it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardCell {
    /// The cell's index in the game's geometry.
    pub cell: usize,
}

/// Marks every entity of the board in play, so a board of another size replaces them all.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct BoardPiece;

/// Which board's entities exist: a key naming the game and its board (`trike-13`), `None` on the
/// start screen.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardShown(pub Option<String>);

impl BoardShown {
    /// When the board shown is not `key`: despawns `everything` and spawns the board through
    /// `spawn`. Returns true when it did (the pieces are then to be spawned anew).
    pub fn ensure(
        &mut self,
        key: String,
        commands: &mut Commands,
        everything: impl IntoIterator<Item = Entity>,
        spawn: impl FnOnce(&mut Commands),
    ) -> bool {
        if self.0.as_deref() == Some(key.as_str()) {
            return false;
        }
        for entity in everything {
            commands.entity(entity).despawn();
        }
        spawn(commands);
        self.0 = Some(key);
        true
    }
}

/// Makes the piece entities match the model: a piece is its component's value (where it stands and
/// whose it is), so an `existing` entity whose value is still `wanted` stays, one whose value is not
/// goes through `remove` (a despawn, or an exit animation), and each wanted value without an entity
/// is spawned through `spawn`, in `wanted`'s order. Every view's pieces go through it.
pub fn reconcile<P: Copy + Eq + Hash>(
    commands: &mut Commands,
    existing: impl IntoIterator<Item = (Entity, P)>,
    wanted: impl IntoIterator<Item = P>,
    mut remove: impl FnMut(&mut Commands, Entity, P),
    mut spawn: impl FnMut(&mut Commands, P),
) {
    let wanted: Vec<P> = wanted.into_iter().collect();
    let mut missing: HashSet<P> = wanted.iter().copied().collect();
    for (entity, piece) in existing {
        // A second entity of a piece already shown goes too.
        if !missing.remove(&piece) {
            remove(commands, entity, piece);
        }
    }
    for piece in wanted {
        if missing.remove(&piece) {
            spawn(commands, piece);
        }
    }
}

/// Where the pointer is over the board in world units, while it is over a cell (else `None`): set
/// from the cursor by the view; tests set it to press at a point. Trisq aims at the slot under it,
/// Trigon centres the held piece on it.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct BoardPointer(pub Option<Vec2>);

/// Keeps [`BoardPointer`] on the cursor while it is over a cell of the board.
fn aim(
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
    camera: BoardCamera,
    hovered: Res<Hovered>,
    mut pointer: ResMut<BoardPointer>,
) {
    let (camera, at, _) = *camera;
    let world = window
        .cursor_position()
        .filter(|_| hovered.0.is_some())
        .and_then(|cursor| camera.viewport_to_world_2d(at, cursor).ok());
    if pointer.0 != world {
        pointer.0 = world;
    }
}

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
    /// World units per egui point: the camera's orthographic scale (world units per logical
    /// pixel, 1 without one) times egui's zoom (logical pixels per point).
    pub scale: f32,
    /// egui's zoom: logical pixels per point.
    zoom: f32,
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
        let zoom = ctx.zoom_factor();
        WorldPainter { painter: ctx.layer_painter(egui::LayerId::background()), scale: scale * zoom, zoom, camera, at }
    }

    /// Where a world position is on screen in egui points, if the camera sees it.
    pub fn to_screen(&self, world: Vec2) -> Option<egui::Pos2> {
        self.camera.world_to_viewport(self.at, world.extend(0.0)).ok().map(|p| egui::pos2(p.x, p.y) / self.zoom)
    }

    /// `text` centred at a world position.
    pub fn label(&self, world: Vec2, text: String, font: &egui::FontId, color: egui::Color32) {
        if let Some(p) = self.to_screen(world) {
            self.painter.text(p, egui::Align2::CENTER_CENTER, text, font.clone(), color);
        }
    }
}

/// The name of what the pointer is on (`text`), in a tag at the foot of the board's area, `left`
/// egui points from the window's left edge (right of a left panel): where it covers no piece, as a
/// name drawn beside the point sat on its neighbours and their stack badges.
pub fn hover_readout(ctx: &egui::Context, left: f32, text: &str) {
    let painter = ctx.layer_painter(egui::LayerId::background());
    let font = egui::FontId::proportional(16.0);
    let galley = painter.layout_no_wrap(text.to_string(), font, egui::Color32::WHITE);
    let corner = egui::pos2(left + 12.0, ctx.content_rect().bottom() - 12.0);
    let rect = egui::Align2::LEFT_BOTTOM.anchor_size(corner, galley.size()).expand2(egui::vec2(8.0, 4.0));
    painter.rect_filled(rect, 4.0, egui::Color32::from_black_alpha(170));
    painter.galley(rect.min + egui::vec2(8.0, 4.0), galley, egui::Color32::WHITE);
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BoardShown>()
        .init_resource::<Hovered>()
        .init_resource::<BoardPointer>()
        .add_message::<CellClicked>()
        .add_systems(
            OnExit(Screen::Playing),
            |mut shown: ResMut<BoardShown>, mut hovered: ResMut<Hovered>, mut pointer: ResMut<BoardPointer>| {
                shown.0 = None;
                hovered.0 = None;
                pointer.0 = None;
            },
        );
}

/// What the lattice boards share of the view, and the pointer's place on every board.
pub(super) fn view_plugin(app: &mut App) {
    app.add_systems(Update, aim.before(crate::app::flow::Step::Intents).run_if(in_state(Screen::Playing)));
}

/// Sets `handle`'s colour to the sRGB bytes `[r, g, b]` (a palette change repaints in place).
pub fn repaint(materials: &mut Assets<ColorMaterial>, handle: &Handle<ColorMaterial>, [r, g, b]: [u8; 3]) {
    if let Some(mut material) = materials.get_mut(handle) {
        material.color = Color::srgb_u8(r, g, b);
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
