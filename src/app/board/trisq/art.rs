//! Trisq's art: the wooden frame with Red's and Blue's edge bands, the checkered squares (the
//! hovered one lit where a person may play), and each tile drawn as its exact polygon, a dark rim
//! around a fill in its colour — lighter in the turn in progress, a dot in the last turn, the rim
//! gold in the winning chain and orange in the pair that keeps the turn from ending; the camera fit.

use bevy::picking::Pickable;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::egui;

use super::entities::{Backdrop, Tile, TileMarks, TrisqSquare, mark_tiles};
use super::geometry::TrisqLegal;
use super::geometry::{BAND, BAND_GAP, MARGIN, QUARTER, SQUARE, ccw, centroid, inset, square_slots};
use crate::app::board::{Hovered, fit_board};
use crate::app::flow::Screen;
use crate::app::flow::Step;
use crate::app::model::Model;
use crate::app::ui::PanelWidth;
use crate::rules::geometry::trisq::{FILLING_H, FILLING_V};
use crate::rules::trisq::Trisq;

pub use crate::app::palette::{two_fill as fill, two_fresh as fresh, two_outline as outline};
/// The winning chain's outline.
pub const GOLD: [u8; 3] = [0xf6, 0xc4, 0x3a];
/// What is refused now: the pair that keeps the turn from ending, a slot that may not be played.
pub const WARN: [u8; 3] = [0xff, 0x8a, 0x1e];
/// A tile's dark outline, in world units.
const RIM: f32 = 2.2;

/// One of the colours above for egui.
pub fn colour32([r, g, b]: [u8; 3]) -> egui::Color32 {
    egui::Color32::from_rgb(r, g, b)
}

/// One of the colours above for egui, with `alpha`.
pub fn translucent([r, g, b]: [u8; 3], alpha: u8) -> egui::Color32 {
    egui::Color32::from_rgba_unmultiplied(r, g, b, alpha)
}

/// The board's and the tiles' meshes and materials.
#[derive(Resource)]
struct Art {
    square: Handle<Mesh>,
    /// Per slot shape (`slot % 8`): the whole polygon (the rim) and the inset fill, about its centre.
    tile: [Handle<Mesh>; 8],
    tile_fill: [Handle<Mesh>; 8],
    dot: Handle<Mesh>,
    squares: [Handle<ColorMaterial>; 2],
    hover: Handle<ColorMaterial>,
    frame: Handle<ColorMaterial>,
    ground: Handle<ColorMaterial>,
    band: [Handle<ColorMaterial>; 2],
    fill: [Handle<ColorMaterial>; 2],
    fresh: [Handle<ColorMaterial>; 2],
    outline: [Handle<ColorMaterial>; 2],
    gold: Handle<ColorMaterial>,
    warn: Handle<ColorMaterial>,
    dot_colour: Handle<ColorMaterial>,
}

impl FromWorld for Art {
    fn from_world(world: &mut World) -> Self {
        let mut meshes = world.resource_mut::<Assets<Mesh>>();
        let square = meshes.add(Rectangle::new(SQUARE - 2.0, SQUARE - 2.0));
        let shape = |k: usize| {
            let corners = if k < 4 { FILLING_H[k] } else { FILLING_V[k - 4] };
            let p = ccw(corners.map(|(x, y)| Vec2::new(x as f32, -y as f32) * QUARTER));
            let c = centroid(&p);
            p.map(|v| v - c)
        };
        let mut polygon = |points: Vec<Vec2>| {
            meshes.add(
                ConvexPolygon::new(points).map(Mesh::from).unwrap_or_else(|_| Mesh::from(Rectangle::new(1.0, 1.0))),
            )
        };
        let tile = std::array::from_fn(|k| polygon(shape(k).to_vec()));
        let tile_fill = std::array::from_fn(|k| polygon(inset(&shape(k), RIM)));
        let dot = meshes.add(Circle::new(QUARTER * 0.26).mesh().resolution(24));
        let mut materials = world.resource_mut::<Assets<ColorMaterial>>();
        let mut add = |[r, g, b]: [u8; 3]| materials.add(ColorMaterial::from_color(Color::srgb_u8(r, g, b)));
        Art {
            square,
            tile,
            tile_fill,
            dot,
            squares: [add([0xe8, 0xd6, 0xb0]), add([0xdf, 0xca, 0xa0])],
            hover: add([0xf6, 0xe9, 0xc8]),
            frame: add([0x5a, 0x46, 0x32]),
            ground: add([0x8a, 0x72, 0x54]),
            band: [0, 1].map(|c| add(fill(c))),
            fill: [0, 1].map(|c| add(fill(c))),
            fresh: [0, 1].map(|c| add(fresh(c))),
            outline: [0, 1].map(|c| add(outline(c))),
            gold: add(GOLD),
            warn: add(WARN),
            dot_colour: add([0xfb, 0xf6, 0xea]),
        }
    }
}

/// The fill child of a tile.
#[derive(Component)]
struct TileFill;

/// The dot on a tile of the last turn.
#[derive(Component)]
struct LastDot;

/// A change of palette repaints the pieces in place.
fn recolour(art: Res<Art>, mut materials: ResMut<Assets<ColorMaterial>>) {
    for c in 0..2 {
        crate::app::board::repaint(&mut materials, &art.band[c], fill(c));
        crate::app::board::repaint(&mut materials, &art.fill[c], fill(c));
        crate::app::board::repaint(&mut materials, &art.fresh[c], fresh(c));
        crate::app::board::repaint(&mut materials, &art.outline[c], outline(c));
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Art>()
        .add_systems(Update, recolour.run_if(resource_changed::<crate::app::settings_page::ColoursInUse>))
        .add_observer(dress_square)
        .add_observer(dress_backdrop)
        .add_observer(dress_tile)
        .add_systems(
            Update,
            paint
                .after(mark_tiles)
                .in_set(Step::View)
                .run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<Trisq>>)),
        )
        .add_systems(PostUpdate, fit_camera.run_if(resource_exists::<Model<Trisq>>));
}

/// The shade of a square of the checkered board of side `n`.
fn shade(n: usize, square: usize) -> usize {
    (square % n + square / n) % 2
}

fn dress_square(
    add: On<Add, TrisqSquare>,
    squares: Query<&TrisqSquare>,
    model: Res<Model<Trisq>>,
    art: Res<Art>,
    mut commands: Commands,
) {
    let Ok(square) = squares.get(add.entity) else { return };
    let material = art.squares[shade(model.game().board().side, square.square)].clone();
    commands.entity(add.entity).insert((Mesh2d(art.square.clone()), MeshMaterial2d(material)));
}

fn dress_backdrop(
    add: On<Add, Backdrop>,
    parts: Query<&Backdrop>,
    model: Res<Model<Trisq>>,
    art: Res<Art>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut commands: Commands,
) {
    let Ok(part) = parts.get(add.entity) else { return };
    let span = model.game().board().side as f32 * SQUARE;
    let (mesh, material) = match *part {
        Backdrop::Frame => {
            let s = span + 2.0 * (BAND_GAP + BAND + MARGIN);
            (meshes.add(Rectangle::new(s, s)), art.frame.clone())
        }
        Backdrop::Ground => (meshes.add(Rectangle::new(span + 2.0, span + 2.0)), art.ground.clone()),
        Backdrop::Band(c, size) => (meshes.add(Rectangle::from_size(size)), art.band[c as usize & 1].clone()),
    };
    commands.entity(add.entity).insert((Mesh2d(mesh), MeshMaterial2d(material)));
}

fn dress_tile(add: On<Add, Tile>, tiles: Query<&Tile>, art: Res<Art>, mut commands: Commands) {
    let Ok(tile) = tiles.get(add.entity) else { return };
    let (k, c) = (tile.slot % 8, tile.owner as usize & 1);
    commands
        .entity(add.entity)
        .insert((Mesh2d(art.tile[k].clone()), MeshMaterial2d(art.outline[c].clone()), Pickable::IGNORE))
        .with_children(|parent| {
            parent.spawn((
                TileFill,
                Mesh2d(art.tile_fill[k].clone()),
                MeshMaterial2d(art.fill[c].clone()),
                Transform::from_xyz(0.0, 0.0, 0.05),
                Pickable::IGNORE,
            ));
            parent.spawn((
                LastDot,
                Mesh2d(art.dot.clone()),
                MeshMaterial2d(art.dot_colour.clone()),
                Transform::from_xyz(0.0, 0.0, 0.1),
                Visibility::Hidden,
                Pickable::IGNORE,
            ));
        });
}

/// Tiles' colours from their marks; the hovered square a person may play in is lit.
#[allow(clippy::type_complexity)]
fn paint(
    model: Res<Model<Trisq>>,
    (hovered, legal): (Res<Hovered>, Res<TrisqLegal>),
    art: Res<Art>,
    mut squares: Query<(&TrisqSquare, &mut MeshMaterial2d<ColorMaterial>), (Without<Tile>, Without<TileFill>)>,
    tiles: Query<(Entity, &Tile, &TileMarks, &Children)>,
    (mut rims, mut fills): (
        Query<&mut MeshMaterial2d<ColorMaterial>, (With<Tile>, Without<TrisqSquare>, Without<TileFill>)>,
        Query<&mut MeshMaterial2d<ColorMaterial>, (With<TileFill>, Without<Tile>, Without<TrisqSquare>)>,
    ),
    mut dots: Query<&mut Visibility, With<LastDot>>,
) {
    let n = model.game().board().side;
    let lit = hovered.0.filter(|&sq| sq < n * n && model.human_to_move() && square_slots(sq).any(|s| legal.slot(s)));
    for (square, mut material) in &mut squares {
        let want = if lit == Some(square.square) { &art.hover } else { &art.squares[shade(n, square.square)] };
        if material.0 != *want {
            material.0 = want.clone();
        }
    }
    for (entity, tile, marks, children) in &tiles {
        let c = tile.owner as usize & 1;
        let rim = if marks.chain {
            &art.gold
        } else if marks.blocker {
            &art.warn
        } else {
            &art.outline[c]
        };
        if let Ok(mut material) = rims.get_mut(entity)
            && material.0 != *rim
        {
            material.0 = rim.clone();
        }
        let fill = if marks.this_turn { &art.fresh[c] } else { &art.fill[c] };
        for child in children.iter() {
            if let Ok(mut material) = fills.get_mut(child)
                && material.0 != *fill
            {
                material.0 = fill.clone();
            }
            if let Ok(mut visibility) = dots.get_mut(child) {
                let want = if marks.last { Visibility::Inherited } else { Visibility::Hidden };
                if *visibility != want {
                    *visibility = want;
                }
            }
        }
    }
}

/// Scales and shifts the camera so the board and its labels fill the window left of the side panel.
fn fit_camera(
    model: Res<Model<Trisq>>,
    panel: Option<Res<PanelWidth>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    let n = model.game().board().side;
    let panel = panel.map_or(0.0, |p| p.0);
    let extent = n as f32 * SQUARE + 2.0 * (BAND_GAP + BAND + MARGIN + SQUARE * 0.62);
    fit_board(camera, &window, [0.0, panel], Vec2::new(extent, extent), 0.0);
}
