//! Blokus Trigon's view (`docs/rules/trigon.md`): the hexagon of triangles with its starting points, the
//! placed pieces as entities that drop into place, the piece chooser (each colour's remaining
//! pieces), the selected piece as a ghost under the pointer, snapped to the grid in its current
//! orientation (R or the mouse wheel rotate, F flips) and tinted legal or illegal, the attach points
//! of the colour to move on request, and the game-over table of scores, bonuses and ranks.
//!
//! [`plugin`] is the headless part (cells and pieces as entities, the selection, presses turned into
//! placements); [`view_plugin`] adds meshes, the ghost, the panels and the camera fit.

use std::collections::{HashMap, HashSet};

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::picking::Pickable;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::{BoardCamera, BoardCell, CellClicked, Hovered, WorldPainter, fit_board};
use crate::ai::Seat;
use crate::app::Screen;
use crate::app::animation::DropIn;
use crate::app::games::{AppGame, Swatch};
use crate::app::hud::{LeftPanelWidth, PanelWidth, stone};
use crate::app::input::KeyAction;
use crate::app::model::{Model, MoveIntent, Status, Step};
use crate::rules::geometry::polyiamond::{Tri, normalize, transform};
use crate::rules::geometry::trigon::TrigonBoard;
use crate::rules::trigon::pieces::piece_name;
use crate::rules::trigon::{COLOURS, PIECES, Tables, Trigon, TrigonMove, TrigonOptions, Variant};
use crate::rules::{Game, Outcome, Player};

/// A triangle's side in world units (one unit is one pixel at camera scale 1).
pub const SIDE: f32 = 40.0;
/// A triangle's height.
const HEIGHT: f32 = SIDE * 0.866_025_4;

/// The colours in play order, as sRGB bytes: Blue, Yellow, Red, Green.
const PALETTE: [[u8; 3]; 4] = [[0x2f, 0x6f, 0xd8], [0xe9, 0xbe, 0x22], [0xd9, 0x3f, 0x37], [0x2f, 0xa5, 0x4a]];

/// A cell of the Trigon board (it also carries [`BoardCell`], through which picking reports it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrigonCell {
    /// The cell's index in the board geometry.
    pub cell: usize,
    /// True on a starting point.
    pub start: bool,
}

/// A placed piece: one entity per placement on the board.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedPiece {
    /// Its index in [`Tables::placements`].
    pub placement: u16,
    /// The colour that placed it, `0..4`.
    pub colour: u8,
}

/// Marks every entity of the current Trigon board, so a board of another size replaces them all.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct TrigonEntity;

/// The piece the person to move holds, its orientation, and whether attach points are shown.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// The piece (`0..22`), if one is chosen.
    pub piece: Option<u8>,
    /// The orientation: symmetry `0..12` of the grid (`k % 6` turns by 60°, flipped if `k >= 6`)
    /// applied to the piece's canonical shape.
    pub symmetry: u8,
    /// The colour the piece was chosen for; a selection for another colour is dropped.
    pub colour: u8,
    /// Show the attach points of the colour to move.
    pub show_attach: bool,
}

impl Selection {
    /// Turned by 60° (`steps` may be negative).
    pub fn rotated(self, steps: i32) -> Selection {
        let (r, flipped) = (self.symmetry as i32 % 6, self.symmetry >= 6);
        let r = (r + steps).rem_euclid(6) as u8;
        Selection { symmetry: r + if flipped { 6 } else { 0 }, ..self }
    }

    /// Flipped about the vertical axis of the screen (reflecting after a turn `r` is the reflection
    /// followed by the turn `-r`).
    pub fn flipped(self) -> Selection {
        let (r, flipped) = (self.symmetry as i32 % 6, self.symmetry >= 6);
        let r = ((6 - r) % 6) as u8;
        // The symmetry maps reflect in the horizontal axis; three turns more make it the vertical one.
        let sel = Selection { symmetry: r + if flipped { 0 } else { 6 }, ..self };
        sel.rotated(3)
    }
}

/// The side of the board whose entities exist, if any.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrigonSide(pub Option<usize>);

/// The board's tables for the model's board.
fn tables(model: &Model<Trigon>) -> &'static Tables {
    model.game.tables()
}

/// The shape of `piece` in orientation `symmetry`, normalised.
pub fn oriented(tables: &Tables, piece: usize, symmetry: u8) -> Vec<Tri> {
    let shape: Vec<Tri> = tables.pieces[piece].iter().map(|&t| transform(symmetry as usize, t)).collect();
    normalize(&shape)
}

/// The centroid of a triangle in point coordinates (`X` half sides, `Y` rows).
fn tri_centroid(t: Tri) -> Vec2 {
    let c = t.corners();
    Vec2::new((c[0].0 + c[1].0 + c[2].0) as f32 / 3.0, (c[0].1 + c[1].1 + c[2].1) as f32 / 3.0)
}

/// Where the selected piece lies with its centre at `anchor`: its triangles in the shape grid
/// (some may be off the board). The triangle nearest the piece's centre that points the way the
/// anchor cell points goes on the anchor; a 1-triangle piece pointing the other way is turned.
pub fn ghost_tris(board: &TrigonBoard, shape: &[Tri], anchor: usize) -> Vec<Tri> {
    let target = board.tri(anchor);
    let centre = shape.iter().map(|&t| tri_centroid(t)).sum::<Vec2>() / shape.len() as f32;
    let best = shape
        .iter()
        .filter(|t| t.is_up() == target.is_up())
        .min_by(|a, b| tri_centroid(**a).distance(centre).total_cmp(&tri_centroid(**b).distance(centre)));
    match best {
        Some(a) => shape.iter().map(|t| Tri::new(t.x + target.x - a.x, t.y + target.y - a.y)).collect(),
        // Only the 1-triangle piece has a single direction: it takes the anchor's.
        None => vec![target],
    }
}

/// The placement the selected piece would make at `anchor`: `Err` says why there is none.
///
/// # Errors
/// No piece chosen, or the piece would stick out of the board.
pub fn placement_at(model: &Model<Trigon>, selection: &Selection, anchor: usize) -> Result<TrigonMove, String> {
    let tables = tables(model);
    let piece = selection.piece.ok_or("choose a piece first (in the panel on the left)")?;
    let shape = oriented(tables, piece as usize, selection.symmetry);
    let mut cells = Vec::with_capacity(shape.len());
    for t in ghost_tris(tables.board, &shape, anchor) {
        cells.push(tables.board.cell_of(t).ok_or("the piece would stick out of the board")? as u16);
    }
    tables.placement_by_cells(&cells).map(TrigonMove).ok_or_else(|| "not a placement of this piece".to_string())
}

/// A point of the shape grid in world coordinates, the board centred on the origin.
fn world(board: &TrigonBoard, x: f32, y: f32) -> Vec2 {
    let n = board.side as f32;
    // The cells' grid starts one column right in the shape grid for even sides (`geometry::trigon`).
    let shift = if board.side % 2 == 1 { 0.0 } else { 1.0 };
    Vec2::new((x - (2.0 * n - 1.0 + shift)) * SIDE / 2.0, -(y - n) * HEIGHT)
}

/// A triangle's corners in world coordinates.
fn tri_corners(board: &TrigonBoard, t: Tri) -> [Vec2; 3] {
    t.corners().map(|(x, y)| world(board, x as f32, y as f32))
}

/// The centre of a cell in world coordinates.
pub fn cell_center(board: &TrigonBoard, cell: usize) -> Vec2 {
    let c = tri_corners(board, board.tri(cell));
    (c[0] + c[1] + c[2]) / 3.0
}

/// A mesh of triangles, each shrunk towards its centre by `shrink`, relative to `origin`.
fn triangles_mesh(tris: &[[Vec2; 3]], shrink: f32, origin: Vec2) -> Mesh {
    let mut positions = Vec::with_capacity(tris.len() * 3);
    for t in tris {
        let centre = (t[0] + t[1] + t[2]) / 3.0;
        let mut t = t.map(|p| centre + (p - centre) * shrink - origin);
        // Counter-clockwise, as the 2D pipeline expects.
        if (t[1] - t[0]).perp_dot(t[2] - t[0]) < 0.0 {
            t.swap(1, 2);
        }
        positions.extend(t.iter().map(|p| [p.x, p.y, 0.0]));
    }
    let count = positions.len();
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_indices(Indices::U32((0..count as u32).collect()))
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 0.0, 1.0]; count])
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, vec![[0.0, 0.0]; count])
}

/// A convex polygon's mesh (a fan), counter-clockwise.
fn polygon_mesh(points: &[Vec2]) -> Mesh {
    let centre = points.iter().sum::<Vec2>() / points.len() as f32;
    let tris: Vec<[Vec2; 3]> = (0..points.len()).map(|k| [centre, points[k], points[(k + 1) % points.len()]]).collect();
    triangles_mesh(&tris, 1.0, Vec2::ZERO)
}

/// A cell entity (meshes are added by the view).
pub fn cell(board: &TrigonBoard, cell: usize) -> impl Bundle {
    (
        TrigonCell { cell, start: board.starting_points.contains(&(cell as u16)) },
        BoardCell { cell },
        TrigonEntity,
        DespawnOnExit(Screen::Playing),
        Transform::from_translation(cell_center(board, cell).extend(1.0)),
        Visibility::default(),
    )
}

/// A placed piece's entity at the centre of its cells.
pub fn piece(tables: &Tables, placement: u16, colour: u8) -> impl Bundle {
    let cells = &tables.placements[placement as usize].cells;
    let centre = cells.iter().map(|&c| cell_center(tables.board, c as usize)).sum::<Vec2>() / cells.len() as f32;
    (
        PlacedPiece { placement, colour },
        TrigonEntity,
        DespawnOnExit(Screen::Playing),
        Transform::from_translation(centre.extend(2.0)),
        Visibility::default(),
    )
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TrigonSide>()
        .init_resource::<Selection>()
        .add_systems(OnExit(Screen::Playing), |mut side: ResMut<TrigonSide>, mut selection: ResMut<Selection>| {
            side.0 = None;
            *selection = Selection { show_attach: selection.show_attach, ..default() };
        })
        .add_systems(
            Update,
            (
                clicks.in_set(Step::Intents).run_if(resource_exists::<Model<Trigon>>),
                keys.in_set(Step::Intents).run_if(resource_exists::<Model<Trigon>>),
                (sync.run_if(resource_exists_and_changed::<Model<Trigon>>), drop_stale_selection)
                    .in_set(Step::View)
                    .run_if(resource_exists::<Model<Trigon>>),
            ),
        );
}

/// A press on a cell places the selected piece there (the model checks it and says why not).
fn clicks(
    mut presses: MessageReader<CellClicked>,
    model: Res<Model<Trigon>>,
    selection: Res<Selection>,
    mut status: ResMut<Status>,
    mut intents: MessageWriter<MoveIntent<TrigonMove>>,
) {
    for press in presses.read() {
        if model.game.outcome().is_some() {
            *status = Status::error("the game is over: no colour can place a piece");
            continue;
        }
        if !model.human_to_move() {
            *status = Status::error("the AI is to move: wait, or press Move now");
            continue;
        }
        match placement_at(&model, &selection, press.cell) {
            Ok(mv) => {
                intents.write(MoveIntent { mv, from_ai: false });
            }
            Err(e) => *status = Status::error(e),
        }
    }
}

/// A chosen piece goes once it is placed or another colour is to move.
fn drop_stale_selection(model: Res<Model<Trigon>>, mut selection: ResMut<Selection>) {
    let Some(piece) = selection.piece else { return };
    let keep = match model.game.colour_to_move() {
        Some(c) => c == selection.colour as usize && model.game.pieces_left(c) & (1 << piece) != 0,
        None => false,
    };
    if !keep {
        selection.piece = None;
    }
}

/// Makes the board's entities match the model: the cells for a new board, one entity per placed
/// piece (the last one dropping in), none for undone ones.
fn sync(
    model: Res<Model<Trigon>>,
    mut side: ResMut<TrigonSide>,
    mut commands: Commands,
    everything: Query<Entity, With<TrigonEntity>>,
    pieces: Query<(Entity, &PlacedPiece)>,
) {
    let tables = tables(&model);
    let board = tables.board;
    let rebuilt = side.0 != Some(board.side);
    if rebuilt {
        for entity in &everything {
            commands.entity(entity).despawn();
        }
        for c in 0..board.cells() {
            commands.spawn(cell(board, c));
        }
        side.0 = Some(board.side);
    }
    // The placements on the board and who placed them, by replaying the moves.
    let mut wanted: HashMap<u16, u8> = HashMap::new();
    let mut replay = model.start.clone();
    let mut last = None;
    for &mv in &model.moves {
        let colour = replay.colour_to_move().unwrap_or(0) as u8;
        if mv != TrigonMove::PASS {
            wanted.insert(mv.0, colour);
            last = Some(mv.0);
        }
        replay.play_unchecked(mv);
    }
    if !rebuilt {
        for (entity, piece) in &pieces {
            if wanted.get(&piece.placement) == Some(&piece.colour) {
                wanted.remove(&piece.placement);
            } else {
                commands.entity(entity).despawn();
            }
        }
    }
    for (placement, colour) in wanted {
        let mut entity = commands.spawn(piece(tables, placement, colour));
        if Some(placement) == last {
            entity.insert(DropIn::default());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The view.

/// A colour's sRGB bytes scaled towards white (`t > 0`) or black (`t < 0`).
fn shade(colour: usize, t: f32) -> Color {
    let [r, g, b] = PALETTE[colour].map(|v| v as f32 / 255.0);
    let f = |v: f32| if t >= 0.0 { v + (1.0 - v) * t } else { v * (1.0 + t) };
    Color::srgb(f(r), f(g), f(b))
}

fn egui_colour(colour: usize) -> egui::Color32 {
    let [r, g, b] = PALETTE[colour];
    egui::Color32::from_rgb(r, g, b)
}

fn colour_swatch(colour: usize) -> Swatch {
    let [r, g, b] = PALETTE[colour].map(|v| (v as f32 * 0.55) as u8);
    (egui_colour(colour), egui::Color32::from_rgb(r, g, b))
}

/// Meshes and materials shared by the board's entities.
#[derive(Resource)]
struct Art {
    up: Handle<Mesh>,
    down: Handle<Mesh>,
    dot: Handle<Mesh>,
    cell: Handle<ColorMaterial>,
    start: Handle<ColorMaterial>,
    dot_colour: Handle<ColorMaterial>,
    frame: Handle<ColorMaterial>,
    /// Per colour: the piece's face, its edges, and an attach point's tint.
    face: [Handle<ColorMaterial>; 4],
    edge: [Handle<ColorMaterial>; 4],
    attach: [Handle<ColorMaterial>; 4],
    last: Handle<ColorMaterial>,
}

impl FromWorld for Art {
    fn from_world(world: &mut World) -> Self {
        let mut meshes = world.resource_mut::<Assets<Mesh>>();
        let up_tri = [
            Vec2::new(0.0, HEIGHT * 2.0 / 3.0),
            Vec2::new(-SIDE / 2.0, -HEIGHT / 3.0),
            Vec2::new(SIDE / 2.0, -HEIGHT / 3.0),
        ];
        let down_tri = up_tri.map(|p| Vec2::new(p.x, -p.y));
        let up = meshes.add(triangles_mesh(&[up_tri], 0.9, Vec2::ZERO));
        let down = meshes.add(triangles_mesh(&[down_tri], 0.9, Vec2::ZERO));
        let dot = meshes.add(Circle::new(SIDE * 0.11).mesh().resolution(24));
        let mut materials = world.resource_mut::<Assets<ColorMaterial>>();
        let mut add = |c: Color| materials.add(ColorMaterial::from_color(c));
        Art {
            up,
            down,
            dot,
            cell: add(Color::srgb_u8(0xdc, 0xd6, 0xc8)),
            start: add(Color::srgb_u8(0xc4, 0xbb, 0xa8)),
            dot_colour: add(Color::srgb_u8(0x6e, 0x65, 0x58)),
            frame: add(Color::srgb_u8(0x5c, 0x53, 0x49)),
            face: [0, 1, 2, 3].map(|c| add(shade(c, 0.0))),
            edge: [0, 1, 2, 3].map(|c| add(shade(c, -0.45))),
            attach: [0, 1, 2, 3].map(|c| add(shade(c, 0.55))),
            last: add(Color::srgb_u8(0xfa, 0xfa, 0xf5)),
        }
    }
}

/// The ghost: the selected piece under the pointer.
#[derive(Component)]
struct Ghost;

/// The ghost's mesh and its two tints.
#[derive(Resource)]
struct GhostArt {
    mesh: Handle<Mesh>,
    legal: [Handle<ColorMaterial>; 4],
    illegal: Handle<ColorMaterial>,
}

impl FromWorld for GhostArt {
    fn from_world(world: &mut World) -> Self {
        let mesh = world.resource_mut::<Assets<Mesh>>().add(triangles_mesh(&[], 1.0, Vec2::ZERO));
        let mut materials = world.resource_mut::<Assets<ColorMaterial>>();
        let legal = [0, 1, 2, 3].map(|c| materials.add(ColorMaterial::from(shade(c, 0.2))));
        let illegal = materials.add(ColorMaterial::from(Color::srgba_u8(0x4a, 0x4a, 0x50, 170)));
        GhostArt { mesh, legal, illegal }
    }
}

pub(super) fn view_plugin(app: &mut App) {
    app.init_resource::<Art>()
        .init_resource::<GhostArt>()
        .add_observer(dress_cell)
        .add_observer(dress_piece)
        .add_systems(OnEnter(Screen::Playing), spawn_ghost)
        .add_systems(
            Update,
            (frame, paint_cells, ghost, mark_last)
                .after(sync)
                .in_set(Step::View)
                .run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<Trigon>>)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (chooser, label_edges).run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<Trigon>>)),
        )
        .add_systems(OnExit(Screen::Playing), |mut left: ResMut<LeftPanelWidth>| left.0 = 0.0)
        .add_systems(PostUpdate, fit_camera.run_if(resource_exists::<Model<Trigon>>));
}

fn dress_cell(
    add: On<Add, TrigonCell>,
    cells: Query<&TrigonCell>,
    art: Res<Art>,
    model: Option<Res<Model<Trigon>>>,
    mut commands: Commands,
) {
    let (Ok(cell), Some(model)) = (cells.get(add.entity), model) else { return };
    let up = tables(&model).board.is_up(cell.cell);
    let material = if cell.start { &art.start } else { &art.cell };
    let mut entity = commands.entity(add.entity);
    entity.insert((Mesh2d(if up { art.up.clone() } else { art.down.clone() }), MeshMaterial2d(material.clone())));
    if cell.start {
        entity.with_child((
            Mesh2d(art.dot.clone()),
            MeshMaterial2d(art.dot_colour.clone()),
            Transform::from_xyz(0.0, 0.0, 0.1),
            Pickable::IGNORE,
        ));
    }
}

fn dress_piece(
    add: On<Add, PlacedPiece>,
    pieces: Query<(&PlacedPiece, &Transform)>,
    art: Res<Art>,
    model: Option<Res<Model<Trigon>>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut commands: Commands,
) {
    let (Ok((piece, transform)), Some(model)) = (pieces.get(add.entity), model) else { return };
    let tables = tables(&model);
    let board = tables.board;
    let tris: Vec<[Vec2; 3]> = tables.placements[piece.placement as usize]
        .cells
        .iter()
        .map(|&c| tri_corners(board, board.tri(c as usize)))
        .collect();
    let origin = transform.translation.truncate();
    let colour = piece.colour as usize;
    commands
        .entity(add.entity)
        .insert((
            Mesh2d(meshes.add(triangles_mesh(&tris, 0.8, origin))),
            MeshMaterial2d(art.face[colour].clone()),
            Pickable::IGNORE,
        ))
        .with_child((
            Mesh2d(meshes.add(triangles_mesh(&tris, 0.97, origin))),
            MeshMaterial2d(art.edge[colour].clone()),
            Transform::from_xyz(0.0, 0.0, -0.05),
            Pickable::IGNORE,
        ));
}

/// The board's frame: a hexagon behind the cells, spawned with the cells.
#[derive(Component)]
struct Frame;

fn frame(
    side: Res<TrigonSide>,
    frames: Query<Entity, With<Frame>>,
    model: Res<Model<Trigon>>,
    art: Res<Art>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut commands: Commands,
    mut built: Local<Option<usize>>,
) {
    if side.0.is_none() || (*built == side.0 && !frames.is_empty()) {
        return;
    }
    for entity in &frames {
        commands.entity(entity).despawn();
    }
    let board = tables(&model).board;
    let n = board.side as f32;
    let shift = if board.side % 2 == 1 { 0.0 } else { 1.0 };
    // The hexagon's corners in the shape grid, pushed out a little from its centre.
    let corners = [
        (n - 1.0 + shift, 0.0),
        (3.0 * n - 1.0 + shift, 0.0),
        (4.0 * n - 1.0 + shift, n),
        (3.0 * n - 1.0 + shift, 2.0 * n),
        (n - 1.0 + shift, 2.0 * n),
        (shift - 1.0, n),
    ]
    .map(|(x, y)| world(board, x, y) * 1.025);
    let mut points: Vec<Vec2> = corners.to_vec();
    points.reverse();
    commands.spawn((
        Frame,
        TrigonEntity,
        DespawnOnExit(Screen::Playing),
        Mesh2d(meshes.add(polygon_mesh(&points))),
        MeshMaterial2d(art.frame.clone()),
        Transform::from_xyz(0.0, 0.0, 0.0),
        Pickable::IGNORE,
    ));
    *built = side.0;
}

/// Attach points of the colour to move (cells a later piece may cover to touch its pieces at a
/// corner: free, no edge with that colour, a corner with it; its first piece: the free starting
/// points), when asked for.
fn paint_cells(
    model: Res<Model<Trigon>>,
    selection: Res<Selection>,
    art: Res<Art>,
    mut cells: Query<(&TrigonCell, &mut MeshMaterial2d<ColorMaterial>)>,
    mut shown: Local<Option<(u64, bool)>>,
) {
    let key = (model.revision, selection.show_attach);
    if *shown == Some(key) && !model.is_changed() {
        return;
    }
    let colour = model.game.colour_to_move();
    // The rules' attach points of the colour to move (`docs/rules/trigon.md` §Play).
    let attach = colour.filter(|_| selection.show_attach).map(|c| (c, model.game.attach_points(c)));
    for (cell, mut material) in &mut cells {
        let want = match &attach {
            Some((c, points)) if points.contains(cell.cell) => &art.attach[*c],
            _ if cell.start => &art.start,
            _ => &art.cell,
        };
        if material.0 != *want {
            material.0 = want.clone();
        }
    }
    *shown = Some(key);
}

/// A small light dot on the last piece placed.
#[derive(Component)]
struct LastMark;

fn mark_last(
    model: Res<Model<Trigon>>,
    marks: Query<Entity, With<LastMark>>,
    art: Res<Art>,
    mut commands: Commands,
    mut shown: Local<Option<u64>>,
) {
    if *shown == Some(model.revision) {
        return;
    }
    *shown = Some(model.revision);
    for entity in &marks {
        commands.entity(entity).despawn();
    }
    let Some(mv) = model.moves.iter().rev().find(|&&mv| mv != TrigonMove::PASS) else { return };
    let tables = tables(&model);
    let cells = &tables.placements[mv.0 as usize].cells;
    // The cell nearest the piece's centre.
    let centre = cells.iter().map(|&c| cell_center(tables.board, c as usize)).sum::<Vec2>() / cells.len() as f32;
    let Some(&at) = cells.iter().min_by(|&&a, &&b| {
        cell_center(tables.board, a as usize)
            .distance(centre)
            .total_cmp(&cell_center(tables.board, b as usize).distance(centre))
    }) else {
        return;
    };
    commands.spawn((
        LastMark,
        TrigonEntity,
        DespawnOnExit(Screen::Playing),
        Mesh2d(art.dot.clone()),
        MeshMaterial2d(art.last.clone()),
        Transform::from_translation(cell_center(tables.board, at as usize).extend(4.0)),
        Pickable::IGNORE,
    ));
}

fn spawn_ghost(mut commands: Commands, art: Res<GhostArt>) {
    commands.spawn((
        Ghost,
        DespawnOnExit(Screen::Playing),
        Mesh2d(art.mesh.clone()),
        MeshMaterial2d(art.illegal.clone()),
        Transform::from_xyz(0.0, 0.0, 5.0),
        Visibility::Hidden,
        Pickable::IGNORE,
    ));
}

/// The legal placements of the position, computed once per revision.
#[derive(Default)]
struct LegalCache {
    revision: Option<u64>,
    moves: HashSet<u16>,
}

/// What the ghost was drawn for: piece, orientation, anchor cell, model revision.
type GhostKey = (Option<u8>, u8, Option<usize>, u64);

/// Shows the selected piece under the pointer, snapped to the grid, tinted by legality.
#[allow(clippy::too_many_arguments)]
fn ghost(
    model: Res<Model<Trigon>>,
    selection: Res<Selection>,
    hovered: Res<Hovered>,
    art: Res<GhostArt>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut ghosts: Query<(&mut Visibility, &mut MeshMaterial2d<ColorMaterial>), With<Ghost>>,
    mut legal: Local<LegalCache>,
    mut shown: Local<Option<GhostKey>>,
) {
    let Ok((mut visibility, mut material)) = ghosts.single_mut() else { return };
    let key = (selection.piece, selection.symmetry, hovered.0, model.revision);
    if *shown == Some(key) {
        return;
    }
    *shown = Some(key);
    let tables = tables(&model);
    let board = tables.board;
    let (Some(piece), Some(anchor), Some(colour)) = (selection.piece, hovered.0, model.game.colour_to_move()) else {
        *visibility = Visibility::Hidden;
        return;
    };
    if anchor >= board.cells() || !model.human_to_move() {
        *visibility = Visibility::Hidden;
        return;
    }
    if legal.revision != Some(model.revision) {
        let mut moves = Vec::new();
        model.game.legal_moves(&mut moves);
        legal.moves = moves.iter().map(|m| m.0).collect();
        legal.revision = Some(model.revision);
    }
    let shape = oriented(tables, piece as usize, selection.symmetry);
    let tris: Vec<[Vec2; 3]> = ghost_tris(board, &shape, anchor).into_iter().map(|t| tri_corners(board, t)).collect();
    let ok = placement_at(&model, &selection, anchor).is_ok_and(|mv| legal.moves.contains(&mv.0));
    if let Some(mut mesh) = meshes.get_mut(&art.mesh) {
        *mesh = triangles_mesh(&tris, 0.86, Vec2::ZERO);
    }
    let want = if ok { &art.legal[colour] } else { &art.illegal };
    if material.0 != *want {
        material.0 = want.clone();
    }
    *visibility = Visibility::Inherited;
}

/// Draws a piece's shape in `rect`, scaled to fit (at most `unit` points per side).
fn draw_shape(
    painter: &egui::Painter,
    rect: egui::Rect,
    shape: &[Tri],
    fill: egui::Color32,
    edge: egui::Color32,
    unit: f32,
) {
    let pts: Vec<Vec<egui::Pos2>> = shape
        .iter()
        .map(|t| t.corners().iter().map(|&(x, y)| egui::pos2(x as f32 * 0.5, y as f32 * 0.866)).collect())
        .collect();
    let (mut min, mut max) = (egui::pos2(f32::MAX, f32::MAX), egui::pos2(f32::MIN, f32::MIN));
    for p in pts.iter().flatten() {
        min = min.min(*p);
        max = max.max(*p);
    }
    let size = max - min;
    let scale = ((rect.width() - 4.0) / size.x).min((rect.height() - 4.0) / size.y).min(unit);
    let offset = rect.center() - (min + size / 2.0).to_vec2() * scale;
    for tri in pts {
        let points: Vec<egui::Pos2> = tri.iter().map(|p| offset + p.to_vec2() * scale).collect();
        painter.add(egui::Shape::convex_polygon(points, fill, egui::Stroke::new(1.0, edge)));
    }
}

/// The piece chooser (left panel): each colour with its seat, score and remaining pieces; the
/// pieces of the colour to move are large and can be chosen when a person is to move. Keys: R and
/// the mouse wheel turn the chosen piece, Shift+R turns it back, F flips it, A shows the attach
/// points, Escape puts the piece back.
#[allow(clippy::too_many_arguments)]
fn chooser(
    mut contexts: EguiContexts,
    model: Res<Model<Trigon>>,
    mut selection: ResMut<Selection>,
    mut left: ResMut<LeftPanelWidth>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let game = &model.game;
    let tables = tables(&model);
    let colours = game.options().variant.colours();
    let to_move = game.colour_to_move();
    let choosing = model.human_to_move();
    let mut root = crate::app::menu::root_ui(ctx, "chooser");
    let frame = egui::Frame::side_top_panel(&ctx.global_style()).inner_margin(egui::Margin::symmetric(12, 10));
    let panel =
        egui::Panel::left("pieces").exact_size(LEFT_PANEL).resizable(false).frame(frame).show(&mut root, |ui| {
            egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                for (c, colour_name) in COLOURS.iter().enumerate().take(colours) {
                    let is_turn = to_move == Some(c);
                    ui.horizontal(|ui| {
                        stone(ui, colour_swatch(c), 8.0);
                        let name = egui::RichText::new(*colour_name).size(16.0);
                        ui.label(if is_turn { name.strong() } else { name });
                        let seat = model.seats[game.player_of(c).index()];
                        ui.label(egui::RichText::new(seat_text(seat)).weak());
                        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            ui.label(egui::RichText::new(format!("{}", game.colour_score(c))).size(16.0).strong());
                            if game.is_out(c) && game.outcome().is_none() {
                                ui.label(egui::RichText::new("out").color(egui::Color32::from_rgb(0xff, 0x9a, 0x7a)));
                            } else if is_turn {
                                ui.label(
                                    egui::RichText::new("to move").color(egui::Color32::from_rgb(0x7f, 0xc0, 0x6a)),
                                );
                            }
                        });
                    });
                    let left_bits = game.pieces_left(c);
                    let big = is_turn && choosing;
                    let cell = if big { egui::vec2(47.0, 44.0) } else { egui::vec2(29.0, 26.0) };
                    // As many as fit the panel's width (the grid puts 2 points between cells).
                    let per_row = (((ui.available_width() + 2.0) / (cell.x + 2.0)).floor() as usize).max(1);
                    let remaining: Vec<usize> = (0..PIECES).filter(|k| left_bits & (1 << k) != 0).collect();
                    if remaining.is_empty() {
                        ui.label(egui::RichText::new("all 22 pieces placed").weak());
                    }
                    egui::Grid::new(("pieces", c)).spacing([2.0, 2.0]).min_col_width(0.0).min_row_height(0.0).show(
                        ui,
                        |ui| {
                            for (k, &p) in remaining.iter().enumerate() {
                                let sense = if big { egui::Sense::click() } else { egui::Sense::hover() };
                                let (rect, response) = ui.allocate_exact_size(cell, sense);
                                let chosen = big && selection.piece == Some(p as u8);
                                if chosen {
                                    ui.painter().rect_filled(rect, 4.0, egui::Color32::from_gray(0x55));
                                } else if big && response.hovered() {
                                    ui.painter().rect_filled(rect, 4.0, egui::Color32::from_gray(0x3a));
                                }
                                let symmetry = if chosen { selection.symmetry } else { 0 };
                                let shape = oriented(tables, p, symmetry);
                                let (fill, edge) = colour_swatch(c);
                                let unit = if big { 14.0 } else { 7.0 };
                                draw_shape(ui.painter(), rect, &shape, fill, edge, unit);
                                let response = response.on_hover_text(piece_name(p).to_string());
                                if big && response.clicked() {
                                    *selection = if chosen {
                                        Selection { piece: None, ..*selection }
                                    } else {
                                        Selection { piece: Some(p as u8), symmetry: 0, colour: c as u8, ..*selection }
                                    };
                                }
                                if (k + 1) % per_row == 0 {
                                    ui.end_row();
                                }
                            }
                        },
                    );
                    ui.add_space(4.0);
                    ui.separator();
                }
                match selection.piece {
                    Some(p) => {
                        ui.label(egui::RichText::new(format!("Piece {} chosen", piece_name(p as usize))).strong());
                        ui.add(
                            egui::Label::new(
                                egui::RichText::new(
                                    "R or wheel: turn · F: flip · Esc: put back · click the board to place",
                                )
                                .small()
                                .weak(),
                            )
                            .wrap(),
                        );
                    }
                    None if choosing => {
                        ui.add(
                            egui::Label::new(
                                egui::RichText::new("Choose a piece, then click the board to place it.").weak(),
                            )
                            .wrap(),
                        );
                    }
                    None => {}
                }
                let mut show = selection.show_attach;
                if ui.checkbox(&mut show, "Show attach points (A)").changed() {
                    selection.show_attach = show;
                }
            });
        });
    let width = panel.response.rect.width();
    if (left.0 - width).abs() > 0.5 {
        left.0 = width;
    }
    Ok(())
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

fn seat_text(seat: Seat) -> String {
    match seat {
        Seat::Human => "Human".to_string(),
        Seat::Ai(level) => format!("AI {}", level.number()),
    }
}

/// Width of the piece chooser.
const LEFT_PANEL: f32 = 282.0;

/// Column letters above and below the board, row numbers at both ends of each row, painted by egui
/// at the cells' places on screen.
fn label_edges(mut contexts: EguiContexts, model: Res<Model<Trigon>>, camera: BoardCamera) -> Result {
    let board = tables(&model).board;
    let overlay = WorldPainter::new(contexts.ctx_mut()?, *camera);
    let font = egui::FontId::monospace((12.0 / overlay.scale).clamp(8.0, 16.0));
    let color = egui::Color32::from_rgb(0xa8, 0x9f, 0x90);
    let shift = if board.side % 2 == 1 { 0.0 } else { 1.0 };
    let label = |text: String, p: Vec2| overlay.label(p, text, &font, color);
    let column = |x: usize| {
        if x < 26 {
            ((b'a' + x as u8) as char).to_string()
        } else {
            format!("{}{}", (b'a' + (x / 26 - 1) as u8) as char, (b'a' + (x % 26) as u8) as char)
        }
    };
    // Every other column, so the letters do not crowd: each column is half a triangle wide.
    for x in (0..board.width).step_by(2) {
        let cx = x as f32 + shift;
        label(column(x), world(board, cx, -0.55));
        label(column(x), world(board, cx, board.height as f32 + 0.55));
    }
    for y in 0..board.height {
        let row: Vec<usize> = (0..board.width).filter(|&x| board.at(x, y).is_some()).collect();
        let (first, last) = (row[0] as f32 + shift, row[row.len() - 1] as f32 + shift);
        let text = format!("{}", board.height - y);
        label(text.clone(), world(board, first - 2.0, y as f32 + 0.5));
        label(text, world(board, last + 2.0, y as f32 + 0.5));
    }
    Ok(())
}

/// Scales and shifts the camera so the board fills the space between the two panels.
fn fit_camera(
    model: Res<Model<Trigon>>,
    right: Option<Res<PanelWidth>>,
    left: Option<Res<LeftPanelWidth>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    let n = tables(&model).board.side as f32;
    let right = right.map_or(0.0, |p| p.0);
    let left = left.map_or(0.0, |p| p.0);
    let board_w = 2.0 * n * SIDE + 2.2 * SIDE;
    let board_h = 2.0 * n * HEIGHT + 1.9 * SIDE;
    fit_board(camera, &window, [left, right], Vec2::new(board_w, board_h), 0.0);
}

// ---------------------------------------------------------------------------------------------
// The side panel's parts for Trigon.

impl AppGame for Trigon {
    fn display_name(&self) -> String {
        self.options().variant.name().to_string()
    }
    fn new_game_text(&self) -> String {
        format!("New game: {}. Blue begins on a starting point.", self.display_name())
    }
    fn over_text(&self) -> &'static str {
        "the game is over: no colour can place a piece"
    }
    fn forced_move(&self) -> Option<TrigonMove> {
        self.colour_to_move()?;
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        (moves == [TrigonMove::PASS]).then_some(TrigonMove::PASS)
    }
    fn played_text(&self, mover: &str, text: &str) -> String {
        // The colour, not the seat: in the two-player variant a seat plays two colours.
        let colour = self.colour_to_move().map_or(mover, |c| crate::rules::trigon::COLOURS[c]);
        match self.parse_move(text) {
            Ok(TrigonMove::PASS) => format!("{colour} cannot place a piece and is out"),
            Ok(mv) => {
                let piece = self.tables().placements[mv.0 as usize].piece as usize;
                format!("{colour} placed {} on {text}", crate::rules::trigon::pieces::piece_name(piece))
            }
            Err(_) => format!("{colour} played {text}"),
        }
    }

    fn menu_entries() -> Vec<(&'static str, TrigonOptions)> {
        [
            ("Blokus Trigon (4 players)", Variant::Four),
            ("Blokus Trigon Two-Player", Variant::Two),
            ("Blokus Trigon Three-Player", Variant::Three),
        ]
        .into_iter()
        .map(|(name, variant)| (name, TrigonOptions { variant }))
        .collect()
    }
    fn seat_names(options: &TrigonOptions) -> &'static [&'static str] {
        match options.variant {
            Variant::Four => &["Blue", "Yellow", "Red", "Green"],
            Variant::Two => &["Blue & Red", "Yellow & Green"],
            Variant::Three => &["Blue", "Yellow", "Red"],
        }
    }
    fn summary(options: &TrigonOptions) -> &'static str {
        match options.variant {
            Variant::Two => {
                "Place your pieces corner to corner, never edge to edge with your own colour.\n\
                 You play two colours; their triangles add up. Most triangles wins."
            }
            _ => {
                "Place your pieces corner to corner, never edge to edge with your own colour.\n\
                 A colour that cannot place is out. Most triangles wins; all 22 pieces earn a bonus."
            }
        }
    }
    fn options_ui(ui: &mut egui::Ui, options: &mut TrigonOptions) {
        ui.label("Board");
        let cells = options.variant.cells();
        ui.label(egui::RichText::new(format!("{cells} triangles, 22 pieces per colour")).weak());
    }
    fn plugin(app: &mut App) {
        plugin(app);
    }
    fn view_plugin(app: &mut App) {
        view_plugin(app);
    }
    fn click_points(world: &mut World, mv: TrigonMove) -> Result<Vec<Vec2>, String> {
        let model = world.resource::<Model<Trigon>>();
        if mv == TrigonMove::PASS {
            return Err("a pass is played by the rules, not by a press".into());
        }
        let tables = tables(model);
        let piece = tables.placements[mv.0 as usize].piece;
        let colour = model.game.colour_to_move().unwrap_or(0) as u8;
        let current = *world.resource::<Selection>();
        for symmetry in 0..12 {
            let selection = Selection { piece: Some(piece), symmetry, colour, ..current };
            for anchor in 0..tables.board.cells() {
                if placement_at(model, &selection, anchor) == Ok(mv) {
                    let at = cell_center(tables.board, anchor);
                    *world.resource_mut::<Selection>() = selection;
                    return Ok(vec![at]);
                }
            }
        }
        Err("no orientation and cell of the chooser make this placement".into())
    }

    fn heading(&self) -> String {
        "Blokus Trigon".to_string()
    }

    fn subtitle(&self) -> String {
        match self.options().variant {
            Variant::Four => "4 players".to_string(),
            Variant::Two => "2 players".to_string(),
            Variant::Three => "3 players".to_string(),
        }
    }

    fn seat_swatches(&self, player: Player) -> Vec<Swatch> {
        let colours = self.options().variant.colours();
        (0..colours).filter(|&c| self.player_of(c) == player).map(colour_swatch).collect()
    }

    fn live_score(&self, player: Player) -> Option<i32> {
        let colours = self.options().variant.colours();
        Some((0..colours).filter(|&c| self.player_of(c) == player).map(|c| self.colour_score(c)).sum())
    }

    fn hint(model: &Model<Trigon>) -> String {
        let game = &model.game;
        let colour = game.colour_to_move().map_or("", |c| COLOURS[c]);
        if game.pieces_left(game.colour_to_move().unwrap_or(0)) == (1 << PIECES) - 1 {
            format!("{colour}: choose a piece on the left and cover a free starting point (the marked cells).")
        } else {
            format!("{colour}: choose a piece; it must touch a {colour} piece at a corner, never along an edge.")
        }
    }

    fn rules(ui: &mut egui::Ui) {
        let para = crate::app::hud::rules_paragraph;
        para(
            ui,
            "The board and the pieces",
            "A hexagon of 486 triangles (384 for three players). Each of the colours Blue, Yellow, Red and \
             Green has 22 pieces: every shape of 1 to 6 triangles. Pieces may be turned and flipped.",
        );
        para(
            ui,
            "Play",
            "The colours take turns in the order Blue, Yellow, Red, Green. A colour's first piece must cover \
             one of the six marked starting points not yet covered. Every later piece must touch a piece of \
             the same colour at a corner, and may never share an edge with one. Touching other colours is free.",
        );
        para(
            ui,
            "Passing and the end",
            "A colour that cannot place a piece is out for the rest of the game (the app passes for it). \
             The game ends when no colour can place.",
        );
        para(
            ui,
            "Score",
            "Each colour scores the triangles it placed, +15 if it placed all 22 pieces, +20 instead if the \
             last of them was the single triangle. Two players: Blue+Red against Yellow+Green, the scores \
             added up. Ties share the place.",
        );
        ui.label(
            egui::RichText::new("R or the mouse wheel turns the chosen piece, F flips it; A shows the attach points.")
                .weak(),
        );
    }

    fn game_over(ui: &mut egui::Ui, model: &Model<Trigon>, outcome: &Outcome) {
        let game = &model.game;
        let colours = game.options().variant.colours();
        let rank = |player: usize| {
            1 + (0..outcome.num_players).filter(|&q| outcome.scores[q] > outcome.scores[player]).count()
        };
        egui::Grid::new("scores").num_columns(6).spacing([16.0, 6.0]).striped(true).show(ui, |ui| {
            let two = game.options().variant == Variant::Two;
            for head in ["", "colour", "triangles", "bonus", "score", if two { "" } else { "rank" }] {
                ui.label(egui::RichText::new(head).weak());
            }
            ui.end_row();
            let mut order: Vec<usize> = (0..colours).collect();
            order.sort_by_key(|&c| (std::cmp::Reverse(game.colour_score(c)), c));
            if game.options().variant == Variant::Two {
                order = vec![0, 2, 1, 3];
            }
            for c in order {
                let score = game.colour_score(c);
                let bonus = if game.pieces_left(c) == 0 { score - placed(game, c) } else { 0 };
                stone(ui, colour_swatch(c), 7.0);
                ui.label(COLOURS[c]);
                ui.label(format!("{}", placed(game, c)));
                ui.label(if bonus > 0 { format!("+{bonus}") } else { "–".to_string() });
                ui.label(egui::RichText::new(format!("{score}")).strong());
                if game.options().variant == Variant::Two {
                    ui.label("");
                } else {
                    ui.label(ordinal(rank(c)));
                }
                ui.end_row();
            }
        });
        if game.options().variant == Variant::Two {
            ui.add_space(4.0);
            for p in 0..2 {
                ui.label(
                    egui::RichText::new(format!(
                        "{}: {} {}",
                        game.player_name(Player(p as u8)),
                        outcome.scores[p],
                        ordinal(rank(p))
                    ))
                    .strong(),
                );
            }
        }
        ui.label(
            egui::RichText::new("Triangles placed, +15 for all 22 pieces, +20 if the last was the single triangle.")
                .weak(),
        );
    }

    fn mover_swatch(before: &Trigon) -> Swatch {
        colour_swatch(before.colour_to_move().unwrap_or(0))
    }

    fn move_label(before: &Trigon, mv: TrigonMove) -> String {
        if mv == TrigonMove::PASS {
            return "out (pass)".to_string();
        }
        let tables = before.tables();
        let placement = &tables.placements[mv.0 as usize];
        let first = tables.board.label(placement.cells[0] as usize);
        format!("{} {first}…", piece_name(placement.piece as usize))
    }

    const PLIES_PER_ROW: usize = 2;
    const SGF: bool = true;
}

/// Triangles colour `c` placed.
fn placed(game: &Trigon, c: usize) -> i32 {
    (0..game.tables().board.cells()).filter(|&cell| game.colour_at(cell) == Some(c)).count() as i32
}

fn ordinal(rank: usize) -> String {
    match rank {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}
