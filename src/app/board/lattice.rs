//! What the two point-lattice boards share (Tri-It-Out and TriCore, `rules::geometry::lattice`):
//! one board polygon around the points, every point a pickable entity drawn as a round patch
//! (the board's colour until it is marked) with a dot, the lattice's lines joining neighbours, row
//! numbers down the left edge, the hovered point's name beside it, and the camera fitting the board
//! left of the side panel. Each game's view spawns the board with [`spawn_board`] (through
//! [`BoardShown::ensure`](super::BoardShown::ensure)), its pieces on top, and paints the points with
//! [`paint_points`].

use bevy::picking::Pickable;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::egui;

use super::{BoardCell, BoardPiece, Hovered, WorldPainter, fit_board};
use crate::app::flow::Screen;
use crate::app::games::{AppGame, Swatch};
use crate::app::model::Model;
use crate::app::ui::PanelWidth;
use crate::rules::geometry::lattice::{Lattice, NONE};

/// Distance between neighbouring points in world units (pixels at camera scale 1).
pub const SPACING: f32 = 64.0;
const SQRT3: f32 = 1.732_050_8;

/// A game played on the points of a [`Lattice`]: what the shared parts of the view need of it.
pub trait LatticeGame: AppGame {
    /// The board's points.
    fn board(&self) -> &Lattice;
}

/// A point of a lattice board (with [`BoardCell`], whose `cell` is the point's index).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LatticePoint {
    /// The point's index in the board's [`Lattice`].
    pub point: usize,
}

/// How a point is painted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mark {
    /// The plain board.
    #[default]
    Plain,
    /// Closed to the player to move (Tri-It-Out's restricted locations), darker.
    Shaded,
    /// A legal target of the move being made.
    Legal,
    /// The legal target under the pointer.
    Hover,
    /// The piece chosen for a move (TriCore's ring or climbing disc).
    Chosen,
    /// Part of a result (TriCore's best group), gold.
    Gold,
}

/// The centre of point `p`, the board centred on the origin, `y` up.
pub fn point_center(lattice: &Lattice, p: usize) -> Vec2 {
    let (cx, cy) = lattice.centre();
    let (x, y) = lattice.position(p);
    Vec2::new(x - cx, cy - y) * SPACING
}

/// Spawns the board of `lattice`: its outline, a pickable entity per point and a line between each
/// pair of neighbours, all [`BoardPiece`]s (the spawn of a [`BoardShown::ensure`](super::BoardShown::ensure)).
pub fn spawn_board(commands: &mut Commands, lattice: &Lattice) {
    for p in 0..lattice.len {
        commands.spawn((
            BoardCell { cell: p },
            LatticePoint { point: p },
            BoardPiece,
            DespawnOnExit(Screen::Playing),
            Transform::from_translation(point_center(lattice, p).extend(1.0)),
            Visibility::default(),
        ));
        for d in 0..3 {
            let n = lattice.neighbor[p][d];
            if n != NONE {
                let (a, b) = (point_center(lattice, p), point_center(lattice, n as usize));
                commands.spawn((
                    Line,
                    BoardPiece,
                    DespawnOnExit(Screen::Playing),
                    Transform::from_translation(((a + b) / 2.0).extend(1.5))
                        .with_rotation(Quat::from_rotation_z((b - a).to_angle())),
                    Visibility::default(),
                    Pickable::IGNORE,
                ));
            }
        }
    }
    commands.spawn((
        Outline(outline(lattice)),
        BoardPiece,
        DespawnOnExit(Screen::Playing),
        Transform::from_xyz(0.0, 0.0, 0.5),
        Visibility::default(),
        Pickable::IGNORE,
    ));
}

/// The board's outline: the convex hull of the points' centres pushed out by most of a spacing,
/// counter-clockwise.
fn outline(lattice: &Lattice) -> Vec<Vec2> {
    let mut points: Vec<Vec2> = (0..lattice.len).map(|p| point_center(lattice, p)).collect();
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    // Andrew's monotone chain.
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut hull: Vec<Vec2> = Vec::new();
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &Vec2>> =
            if pass == 0 { Box::new(points.iter()) } else { Box::new(points.iter().rev()) };
        for &p in iter {
            while hull.len() >= start + 2 && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 1e-3 {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    let n = hull.len();
    let margin = SPACING * 0.62;
    (0..n)
        .map(|i| {
            let (prev, v, next) = (hull[(i + n - 1) % n], hull[i], hull[(i + 1) % n]);
            // Outward normals of the two edges at `v` (the hull runs counter-clockwise).
            let n1 = -(v - prev).normalize().perp();
            let n2 = -(next - v).normalize().perp();
            v + (n1 + n2) * margin / (1.0 + n1.dot(n2))
        })
        .collect()
}

/// The board's polygon, behind the points.
#[derive(Component)]
struct Outline(Vec<Vec2>);

/// A line of the lattice between two neighbouring points.
#[derive(Component)]
struct Line;

/// The board's meshes and the materials of every [`Mark`].
#[derive(Resource)]
pub struct LatticeArt {
    patch: Handle<Mesh>,
    dot: Handle<Mesh>,
    line: Handle<Mesh>,
    ink: Handle<ColorMaterial>,
    frame: Handle<ColorMaterial>,
    marks: [Handle<ColorMaterial>; 6],
}

impl FromWorld for LatticeArt {
    fn from_world(world: &mut World) -> Self {
        let mut meshes = world.resource_mut::<Assets<Mesh>>();
        // A point's patch: the board's colour until the point is marked.
        let patch = meshes.add(Circle::new(SPACING * 0.42).mesh().resolution(40));
        let dot = meshes.add(Circle::new(SPACING * 0.07).mesh().resolution(20));
        let line = meshes.add(Rectangle::new(SPACING, SPACING * 0.035));
        let mut materials = world.resource_mut::<Assets<ColorMaterial>>();
        let mut add = |c: Color| materials.add(ColorMaterial::from_color(c));
        LatticeArt {
            patch,
            dot,
            line,
            ink: add(Color::srgb_u8(0x7a, 0x64, 0x4a)),
            frame: add(Color::srgb_u8(0x5a, 0x46, 0x32)),
            marks: [
                add(Color::srgb_u8(0xdc, 0xc4, 0x98)),
                add(Color::srgb_u8(0x9c, 0x88, 0x6c)),
                add(Color::srgb_u8(0xc6, 0xd9, 0x9b)),
                add(Color::srgb_u8(0x8f, 0xc7, 0x6b)),
                add(Color::srgb_u8(0x9f, 0xc4, 0xe8)),
                add(Color::srgb_u8(0xf2, 0xc1, 0x4e)),
            ],
        }
    }
}

impl LatticeArt {
    fn mark(&self, mark: Mark) -> &Handle<ColorMaterial> {
        &self.marks[mark as usize]
    }
}

/// The board's art, once for both games (each game's view adds [`fit_camera`] for itself).
pub(crate) fn view_plugin(app: &mut App) {
    app.init_resource::<LatticeArt>().add_observer(dress_point).add_observer(dress_line).add_observer(dress_outline);
}

fn dress_point(add: On<Add, LatticePoint>, art: Res<LatticeArt>, mut commands: Commands) {
    commands
        .entity(add.entity)
        .insert((Mesh2d(art.patch.clone()), MeshMaterial2d(art.mark(Mark::Plain).clone())))
        .with_child((
            Mesh2d(art.dot.clone()),
            MeshMaterial2d(art.ink.clone()),
            Transform::from_xyz(0.0, 0.0, 0.6),
            Pickable::IGNORE,
        ));
}

fn dress_line(add: On<Add, Line>, art: Res<LatticeArt>, mut commands: Commands) {
    commands.entity(add.entity).insert((Mesh2d(art.line.clone()), MeshMaterial2d(art.ink.clone())));
}

fn dress_outline(
    add: On<Add, Outline>,
    outlines: Query<&Outline>,
    art: Res<LatticeArt>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut commands: Commands,
) {
    let Ok(Outline(corners)) = outlines.get(add.entity) else { return };
    let Ok(board) = ConvexPolygon::new(corners.iter().copied()) else { return };
    // The frame: the same polygon a little larger, behind.
    let centre = corners.iter().copied().sum::<Vec2>() / corners.len() as f32;
    let rim = corners.iter().map(|&c| c + (c - centre).normalize() * SPACING * 0.12);
    let mut entity = commands.entity(add.entity);
    entity.insert((Mesh2d(meshes.add(board.mesh())), MeshMaterial2d(art.mark(Mark::Plain).clone())));
    if let Ok(frame) = ConvexPolygon::new(rim) {
        entity.with_child((
            Mesh2d(meshes.add(frame.mesh())),
            MeshMaterial2d(art.frame.clone()),
            Transform::from_xyz(0.0, 0.0, -0.1),
            Pickable::IGNORE,
        ));
    }
}

/// A side-panel swatch from a piece's fill and outline colours (sRGB bytes).
pub fn swatch([r, g, b]: [u8; 3], [or, og, ob]: [u8; 3]) -> Swatch {
    (egui::Color32::from_rgb(r, g, b), egui::Color32::from_rgb(or, og, ob))
}

/// Paints every point with its mark (`marks[p]`, plain past the end).
pub fn paint_points(
    marks: &[Mark],
    art: &LatticeArt,
    points: &mut Query<(&LatticePoint, &mut MeshMaterial2d<ColorMaterial>)>,
) {
    for (point, mut material) in points.iter_mut() {
        let want = art.mark(marks.get(point.point).copied().unwrap_or_default());
        if material.0 != *want {
            material.0 = want.clone();
        }
    }
}

/// The coordinates, painted over the board: row numbers at both ends of every row, and each
/// empty point's letter (points are named by their letter from the left of their row and the row's
/// number, "c4", `docs/rules/tri-it-out.md` §Board) small under it; and the hovered point's name
/// at the foot of the board's area ([`super::hover_readout`]). `empty(p)`: point `p` holds nothing
/// the letter would hide under.
pub fn label_points(world: &WorldPainter, lattice: &Lattice, hovered: &Hovered, empty: impl Fn(usize) -> bool) {
    let font = egui::FontId::monospace(15.0 / world.scale);
    let small = egui::FontId::proportional(10.5 / world.scale);
    let color = egui::Color32::from_rgb(0xb8, 0xae, 0x9c);
    let letter_colour = egui::Color32::from_rgba_unmultiplied(0x5a, 0x46, 0x32, 170);
    let mut first = 0;
    for (row, &n) in lattice.rows.iter().enumerate() {
        let last = first + n as usize - 1;
        let at = point_center(lattice, first) - Vec2::new(SPACING * 1.1, 0.0);
        world.label(at, format!("{}", row + 1), &font, color);
        world.label(point_center(lattice, last) + Vec2::new(SPACING * 1.1, 0.0), format!("{}", row + 1), &font, color);
        for p in (first..=last).filter(|&p| empty(p)) {
            let below = point_center(lattice, p) - Vec2::new(0.0, SPACING * 0.3);
            world.label(below, lattice.letter(p).to_string(), &small, letter_colour);
        }
        first += n as usize;
    }
    if let Some(p) = hovered.0.filter(|&p| p < lattice.len) {
        super::hover_readout(world.painter.ctx(), 0.0, &lattice.name(p));
    }
}

/// Scales and shifts the camera so `G`'s board fills the window left of the side panel (each
/// lattice game's view runs it while its model exists).
pub fn fit_camera<G: LatticeGame>(
    model: Res<Model<G>>,
    panel: Option<Res<PanelWidth>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    let rows = &model.game().board().rows;
    let widest = rows.iter().copied().max().unwrap_or(1) as f32;
    let panel = panel.map_or(0.0, |p| p.0);
    let board_w = (widest - 1.0 + 2.6) * SPACING;
    let board_h = ((rows.len() as f32 - 1.0) * SQRT3 / 2.0 + 2.4) * SPACING;
    fit_board(camera, &window, [0.0, panel], Vec2::new(board_w, board_h), 0.0);
}
