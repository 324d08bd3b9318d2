//! Trigon's art: the hexagon of pale triangles in its dark frame, the starting points marked with a
//! dot, each placed piece in its colour with darker edges, a light dot on the last piece placed, the
//! attach points of the colour to move on request, and the camera fit between the two panels.

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::picking::Pickable;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::egui;

use super::entities::{Frame, PlacedPiece, TrigonCell, colour_to_move, last_placement};
use super::layout::{CELL_FACE, HEIGHT, SIDE, cell_center, cell_triangle, cells_center, shift, tri_corners, world};
use super::pointing::Selection;
use crate::app::board::{BoardPiece, fit_board, reconcile};
use crate::app::flow::Screen;
use crate::app::flow::Step;
use crate::app::games::Swatch;
use crate::app::model::Model;
use crate::app::palette;
use crate::app::settings::Settings;
use crate::app::settings_page::ColoursInUse;
use crate::app::ui::{LeftPanelWidth, PanelWidth};
use crate::rules::trigon::Trigon;

/// Colour `colour`'s (`0..4`, Blue, Yellow, Red, Green) sRGB bytes in the palette in use
/// ([`palette::current`]) scaled towards white (`t > 0`) or black (`t < 0`).
pub fn shade(colour: usize, t: f32) -> Color {
    let [r, g, b] = palette::shade(palette::current().trigon[colour], t);
    Color::srgb_u8(r, g, b)
}

/// How a piece's edges are shaded from its face ([`shade`]'s `t`): 45 % darker.
const EDGE: f32 = -0.45;
/// How an attach point is tinted from its colour's face: 55 % lighter.
const ATTACH: f32 = 0.55;

/// Colour `colour`'s (`0..4`) swatch in the panels: its face, and an outline darker by 45 %.
pub fn colour_swatch(colour: usize) -> Swatch {
    let [r, g, b] = palette::current().trigon[colour];
    let [dr, dg, db] = palette::shade([r, g, b], EDGE);
    (egui::Color32::from_rgb(r, g, b), egui::Color32::from_rgb(dr, dg, db))
}

/// A mesh of triangles (world corners), each shrunk towards its centre by `shrink`, relative to
/// `origin`.
pub fn triangles_mesh(tris: &[[Vec2; 3]], shrink: f32, origin: Vec2) -> Mesh {
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

/// Meshes and materials shared by the board's entities.
#[derive(Resource)]
struct Art {
    up: Handle<Mesh>,
    down: Handle<Mesh>,
    /// The whole triangle of a cell pointing down and up (`[down, up]`): the area that takes the
    /// pointer, drawn clear.
    hit: [Handle<Mesh>; 2],
    clear: Handle<ColorMaterial>,
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
    /// Per colour: the shape mark (○ Blue — a ring, unlike the last move's dot —, ▲ Yellow, ■ Red, ◆ Green) and its ink, dark on a
    /// light face and light on a dark one.
    glyph: [Handle<Mesh>; 4],
    glyph_ink: [Handle<ColorMaterial>; 4],
}

/// The ink of colour `colour`'s shape mark: dark on a light face, light on a dark one.
fn glyph_ink(colour: usize) -> Color {
    let [r, g, b] = palette::current().trigon[colour];
    let luma = 0.2126 * palette::linear(r) + 0.7152 * palette::linear(g) + 0.0722 * palette::linear(b);
    shade(colour, if luma > 0.3 { -0.65 } else { 0.75 })
}

/// A piece's shape mark ([`crate::app::settings::Look::shape_marks`]): shown only when asked for.
#[derive(Component, Clone, Copy, Debug)]
struct ShapeMark;

impl FromWorld for Art {
    fn from_world(world: &mut World) -> Self {
        let mut meshes = world.resource_mut::<Assets<Mesh>>();
        let face = |up| triangles_mesh(&[cell_triangle(up, CELL_FACE)], 1.0, Vec2::ZERO);
        let whole = |up| triangles_mesh(&[cell_triangle(up, 1.0)], 1.0, Vec2::ZERO);
        let (up, down) = (meshes.add(face(true)), meshes.add(face(false)));
        let hit = [meshes.add(whole(false)), meshes.add(whole(true))];
        let dot = meshes.add(Circle::new(SIDE * 0.11).mesh().resolution(24));
        let r = SIDE * 0.15;
        let glyph = [
            meshes.add(Annulus::new(r * 0.55, r * 1.1).mesh().resolution(24)),
            meshes.add(RegularPolygon::new(r * 1.25, 3)),
            meshes.add(Rectangle::new(r * 1.7, r * 1.7)),
            meshes.add(Rhombus::new(r * 1.8, r * 2.4)),
        ];
        let mut materials = world.resource_mut::<Assets<ColorMaterial>>();
        let clear = materials.add(ColorMaterial {
            color: Color::NONE,
            alpha_mode: bevy::sprite_render::AlphaMode2d::Blend,
            ..default()
        });
        let mut add = |c: Color| materials.add(ColorMaterial::from_color(c));
        Art {
            up,
            down,
            hit,
            clear,
            dot,
            cell: add(Color::srgb_u8(0xdc, 0xd6, 0xc8)),
            start: add(Color::srgb_u8(0xc4, 0xbb, 0xa8)),
            dot_colour: add(Color::srgb_u8(0x6e, 0x65, 0x58)),
            frame: add(Color::srgb_u8(0x5c, 0x53, 0x49)),
            face: [0, 1, 2, 3].map(|c| add(shade(c, 0.0))),
            edge: [0, 1, 2, 3].map(|c| add(shade(c, EDGE))),
            attach: [0, 1, 2, 3].map(|c| add(shade(c, ATTACH))),
            last: add(Color::srgb_u8(0xfa, 0xfa, 0xf5)),
            glyph,
            glyph_ink: [0, 1, 2, 3].map(|c| add(glyph_ink(c))),
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Art>()
        .add_observer(dress_cell)
        .add_observer(dress_piece)
        .add_observer(dress_frame)
        .add_systems(
            Update,
            (paint_cells, mark_last)
                .after(super::entities::sync)
                .in_set(Step::View)
                .run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<Trigon>>)),
        )
        .add_systems(PostUpdate, fit_camera.run_if(resource_exists::<Model<Trigon>>))
        .add_systems(Update, recolour.run_if(resource_changed::<ColoursInUse>))
        .add_systems(Update, show_shape_marks.run_if(resource_changed::<Settings>));
}

fn dress_cell(
    add: On<Add, TrigonCell>,
    cells: Query<&TrigonCell>,
    art: Res<Art>,
    model: Option<Res<Model<Trigon>>>,
    mut commands: Commands,
) {
    let (Ok(cell), Some(model)) = (cells.get(add.entity), model) else { return };
    let up = model.game().tables().board.is_up(cell.cell);
    let material = if cell.start { &art.start } else { &art.cell };
    let mut entity = commands.entity(add.entity);
    // The face leaves a gap to its neighbours; the pointer is taken by the whole triangle, a clear
    // child under it (its presses and hovers reach the cell), so no point of the board lacks a
    // cell under the pointer.
    entity.insert((
        Mesh2d(if up { art.up.clone() } else { art.down.clone() }),
        MeshMaterial2d(material.clone()),
        Pickable::IGNORE,
    ));
    entity.with_child((
        Mesh2d(art.hit[usize::from(up)].clone()),
        MeshMaterial2d(art.clear.clone()),
        Transform::from_xyz(0.0, 0.0, -0.05),
    ));
    if cell.start {
        entity.with_child((
            Mesh2d(art.dot.clone()),
            MeshMaterial2d(art.dot_colour.clone()),
            Transform::from_xyz(0.0, 0.0, 0.1),
            Pickable::IGNORE,
        ));
    }
}

/// Shows or hides every piece's shape mark as the settings say.
fn show_shape_marks(settings: Res<Settings>, mut marks: Query<&mut Visibility, With<ShapeMark>>) {
    let want = if settings.look.shape_marks { Visibility::Inherited } else { Visibility::Hidden };
    for mut visibility in &mut marks {
        visibility.set_if_neq(want);
    }
}

fn dress_piece(
    add: On<Add, PlacedPiece>,
    pieces: Query<(&PlacedPiece, &Transform)>,
    art: Res<Art>,
    settings: Option<Res<Settings>>,
    model: Option<Res<Model<Trigon>>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut commands: Commands,
) {
    let (Ok((piece, transform)), Some(model)) = (pieces.get(add.entity), model) else { return };
    let tables = model.game().tables();
    let board = tables.board;
    let tris: Vec<[Vec2; 3]> = tables.placements[piece.placement as usize]
        .cells
        .iter()
        .map(|&c| tri_corners(board, board.tri(c as usize)))
        .collect();
    let origin = transform.translation.truncate();
    let colour = piece.colour as usize;
    // The shape mark stands on the cell second nearest the piece's centre (the nearest carries
    // the last piece's dot).
    let cells = &tables.placements[piece.placement as usize].cells;
    let centre = cells_center(board, cells);
    let mut by_distance: Vec<Vec2> = cells.iter().map(|&c| cell_center(board, c as usize)).collect();
    by_distance.sort_by(|a, b| a.distance(centre).total_cmp(&b.distance(centre)));
    let at = by_distance.get(1).or(by_distance.first()).copied().unwrap_or(centre) - origin;
    let shown = settings.is_some_and(|s| s.look.shape_marks);
    commands.entity(add.entity).with_child((
        ShapeMark,
        Mesh2d(art.glyph[colour].clone()),
        MeshMaterial2d(art.glyph_ink[colour].clone()),
        Transform::from_translation(at.extend(0.2)),
        if shown { Visibility::Inherited } else { Visibility::Hidden },
        Pickable::IGNORE,
    ));
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

/// A change of palette repaints the pieces, their edges and the attach points in place.
fn recolour(art: Res<Art>, mut materials: ResMut<Assets<ColorMaterial>>) {
    for colour in 0..4 {
        for (handle, t) in [(&art.face[colour], 0.0), (&art.edge[colour], EDGE), (&art.attach[colour], ATTACH)] {
            if let Some(mut material) = materials.get_mut(handle) {
                material.color = shade(colour, t);
            }
        }
        if let Some(mut material) = materials.get_mut(&art.glyph_ink[colour]) {
            material.color = glyph_ink(colour);
        }
    }
}

/// The frame: a hexagon a little larger than the board, behind the cells.
fn dress_frame(
    add: On<Add, Frame>,
    art: Res<Art>,
    model: Option<Res<Model<Trigon>>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut commands: Commands,
) {
    let Some(model) = model else { return };
    let board = model.game().tables().board;
    let (n, shift) = (board.side as f32, shift(board));
    // The hexagon's corners in the shape grid, pushed out a little from its centre, clockwise.
    let points = [
        (shift - 1.0, n),
        (n - 1.0 + shift, 2.0 * n),
        (3.0 * n - 1.0 + shift, 2.0 * n),
        (4.0 * n - 1.0 + shift, n),
        (3.0 * n - 1.0 + shift, 0.0),
        (n - 1.0 + shift, 0.0),
    ]
    .map(|(x, y)| world(board, x, y) * 1.025);
    commands.entity(add.entity).insert((
        Mesh2d(meshes.add(polygon_mesh(&points))),
        MeshMaterial2d(art.frame.clone()),
        Pickable::IGNORE,
    ));
}

/// Attach points of the colour to move (the rules' [`Trigon::attach_points`],
/// `docs/rules/trigon.md` §Play), tinted in its colour when asked for.
fn paint_cells(
    model: Res<Model<Trigon>>,
    selection: Res<Selection>,
    art: Res<Art>,
    mut cells: Query<(&TrigonCell, &mut MeshMaterial2d<ColorMaterial>)>,
    mut shown: Local<Option<(u64, bool)>>,
) {
    let key = (model.revision(), selection.show_attach);
    if *shown == Some(key) && !model.is_changed() {
        return;
    }
    // No attach points once the game is over, off the board too (a resignation).
    let colour = colour_to_move(&model);
    let attach = colour.filter(|_| selection.show_attach).map(|c| (c, model.game().attach_points(c)));
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

/// A small light dot on the last piece placed, on its cell nearest the piece's centre.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct LastMark {
    cell: usize,
}

fn mark_last(model: Res<Model<Trigon>>, marks: Query<(Entity, &LastMark)>, art: Res<Art>, mut commands: Commands) {
    let board = model.game().tables().board;
    let wanted = last_placement(&model).and_then(|placement| {
        let cells = &model.game().tables().placements[placement as usize].cells;
        let centre = cells_center(board, cells);
        let distance = |c: u16| cell_center(board, c as usize).distance(centre);
        cells.iter().copied().min_by(|&a, &b| distance(a).total_cmp(&distance(b)))
    });
    reconcile(
        &mut commands,
        marks.iter().map(|(e, m)| (e, *m)),
        wanted.map(|cell| LastMark { cell: cell as usize }),
        |commands, entity, _| commands.entity(entity).despawn(),
        |commands, mark| {
            commands.spawn((
                mark,
                BoardPiece,
                DespawnOnExit(Screen::Playing),
                Mesh2d(art.dot.clone()),
                MeshMaterial2d(art.last.clone()),
                Transform::from_translation(cell_center(board, mark.cell).extend(4.0)),
                Pickable::IGNORE,
            ));
        },
    );
}

/// Scales and shifts the camera so the board (of the model's side) fills the space between the two
/// panels.
fn fit_camera(
    model: Res<Model<Trigon>>,
    right: Option<Res<PanelWidth>>,
    left: Option<Res<LeftPanelWidth>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    let n = model.game().tables().board.side as f32;
    let right = right.map_or(0.0, |p| p.0);
    let left = left.map_or(0.0, |p| p.0);
    let board_w = 2.0 * n * SIDE + 2.2 * SIDE;
    let board_h = 2.0 * n * HEIGHT + 1.9 * SIDE;
    fit_board(camera, &window, [left, right], Vec2::new(board_w, board_h), 0.0);
}
