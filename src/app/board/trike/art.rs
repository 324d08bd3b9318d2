//! Trike's art: a triangle of pointy-top hexagonal cells, black and white checkers with outlines,
//! a red pawn, coordinate labels along two edges, and the highlights (the pawn's legal
//! destinations while a person is to move, the scored cells once the pawn is trapped).

use bevy::picking::Pickable;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::entities::{Checker, Pawn, TrikeCell};
use super::layout::{HEX_RADIUS, SQRT3, cell_center};
use crate::app::board::{BoardCamera, BoardCell, Hovered, WorldPainter, fit_board};
use crate::app::flow::Screen;
use crate::app::flow::Step;
use crate::app::model::Model;
use crate::app::ui::PanelWidth;
use crate::rules::Game;
use crate::rules::trike::{Color as Stone, Trike, TrikeMove};

/// Meshes and materials shared by every entity of the board.
#[derive(Resource)]
struct Art {
    hex: Handle<Mesh>,
    frame_hex: Handle<Mesh>,
    disc: Handle<Mesh>,
    disc_outline: Handle<Mesh>,
    pawn: Handle<Mesh>,
    pawn_outline: Handle<Mesh>,
    frame: Handle<ColorMaterial>,
    cell: Handle<ColorMaterial>,
    legal: Handle<ColorMaterial>,
    hover: Handle<ColorMaterial>,
    scored: Handle<ColorMaterial>,
    black: Handle<ColorMaterial>,
    black_outline: Handle<ColorMaterial>,
    white: Handle<ColorMaterial>,
    white_outline: Handle<ColorMaterial>,
    pawn_fill: Handle<ColorMaterial>,
    pawn_ring: Handle<ColorMaterial>,
}

impl FromWorld for Art {
    fn from_world(world: &mut World) -> Self {
        let mut meshes = world.resource_mut::<Assets<Mesh>>();
        let hex = meshes.add(RegularPolygon::new(HEX_RADIUS * 0.95, 6));
        let frame_hex = meshes.add(RegularPolygon::new(HEX_RADIUS * 1.10, 6));
        let disc = meshes.add(Circle::new(HEX_RADIUS * 0.58).mesh().resolution(48));
        let disc_outline = meshes.add(Circle::new(HEX_RADIUS * 0.64).mesh().resolution(48));
        let pawn = meshes.add(Circle::new(HEX_RADIUS * 0.27).mesh().resolution(32));
        let pawn_outline = meshes.add(Circle::new(HEX_RADIUS * 0.35).mesh().resolution(32));
        let mut materials = world.resource_mut::<Assets<ColorMaterial>>();
        let mut add = |c: Color| materials.add(ColorMaterial::from_color(c));
        Art {
            hex,
            frame_hex,
            disc,
            disc_outline,
            pawn,
            pawn_outline,
            frame: add(Color::srgb_u8(0x5a, 0x46, 0x32)),
            cell: add(Color::srgb_u8(0xd9, 0xc3, 0x9a)),
            legal: add(Color::srgb_u8(0xc6, 0xd9, 0x9b)),
            hover: add(Color::srgb_u8(0x8f, 0xc7, 0x6b)),
            scored: add(Color::srgb_u8(0xf2, 0xc1, 0x4e)),
            black: add(Color::srgb_u8(0x1f, 0x1f, 0x24)),
            black_outline: add(Color::srgb_u8(0x8c, 0x8c, 0x96)),
            white: add(Color::srgb_u8(0xf7, 0xf5, 0xef)),
            white_outline: add(Color::srgb_u8(0x2b, 0x2b, 0x2b)),
            pawn_fill: add(Color::srgb_u8(0xd6, 0x2f, 0x2f)),
            pawn_ring: add(Color::srgb_u8(0xff, 0xe6, 0xb0)),
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Art>()
        .add_observer(dress_cell)
        .add_observer(dress_checker)
        .add_observer(dress_pawn)
        .add_systems(
            Update,
            paint_cells
                .after(super::entities::sync)
                .in_set(Step::View)
                .run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<Trike>>)),
        )
        .add_systems(EguiPrimaryContextPass, label_edges.run_if(resource_exists::<Model<Trike>>))
        .add_systems(PostUpdate, fit_camera.run_if(resource_exists::<Model<Trike>>));
}

fn dress_cell(add: On<Add, TrikeCell>, art: Res<Art>, mut commands: Commands) {
    commands.entity(add.entity).insert((Mesh2d(art.hex.clone()), MeshMaterial2d(art.cell.clone()))).with_child((
        Mesh2d(art.frame_hex.clone()),
        MeshMaterial2d(art.frame.clone()),
        Transform::from_xyz(0.0, 0.0, -0.5),
        Pickable::IGNORE,
    ));
}

fn dress_checker(add: On<Add, Checker>, checkers: Query<&Checker>, art: Res<Art>, mut commands: Commands) {
    let Ok(checker) = checkers.get(add.entity) else { return };
    let (fill, outline) = match checker.owner {
        Stone::Black => (&art.black, &art.black_outline),
        Stone::White => (&art.white, &art.white_outline),
    };
    commands
        .entity(add.entity)
        .insert((Mesh2d(art.disc.clone()), MeshMaterial2d(fill.clone()), Pickable::IGNORE))
        .with_child((
            Mesh2d(art.disc_outline.clone()),
            MeshMaterial2d(outline.clone()),
            Transform::from_xyz(0.0, 0.0, -0.05),
            Pickable::IGNORE,
        ));
}

fn dress_pawn(add: On<Add, Pawn>, art: Res<Art>, mut commands: Commands) {
    commands
        .entity(add.entity)
        .insert((Mesh2d(art.pawn.clone()), MeshMaterial2d(art.pawn_fill.clone()), Pickable::IGNORE))
        .with_child((
            Mesh2d(art.pawn_outline.clone()),
            MeshMaterial2d(art.pawn_ring.clone()),
            Transform::from_xyz(0.0, 0.0, -0.05),
            Pickable::IGNORE,
        ));
}

/// Row numbers along the left edge, column letters under the bottom row and along the right edge
/// (where each column, a line running down-left, begins). Painted by egui at the cells' places on
/// screen (so the app needs no second text engine), the size following the camera's zoom.
fn label_edges(mut contexts: EguiContexts, model: Res<Model<Trike>>, camera: BoardCamera) -> Result {
    let geo = model.game().geometry();
    let n = geo.side;
    let world = WorldPainter::new(contexts.ctx_mut()?, *camera);
    let font = egui::FontId::monospace(15.0 / world.scale);
    let color = egui::Color32::from_rgb(0xb8, 0xae, 0x9c);
    let label = |text: String, at: Vec2| world.label(at, text, &font, color);
    for r in 0..n {
        let first = geo.index(r as i32, 0).expect("row start");
        label(format!("{}", r + 1), cell_center(geo, first) - Vec2::new(SQRT3 * HEX_RADIUS * 0.95, 0.0));
    }
    for c in 0..n {
        let bottom = geo.index(n as i32 - 1, c as i32).expect("bottom row");
        let letter = ((b'a' + c as u8) as char).to_string();
        label(letter.clone(), cell_center(geo, bottom) - Vec2::new(0.0, 1.55 * HEX_RADIUS));
        // A column runs down-left from the right edge: its letter also heads it there.
        let top = geo.index(c as i32, c as i32).expect("right edge");
        label(letter, cell_center(geo, top) + Vec2::new(0.5 * SQRT3, 1.5).normalize() * 1.45 * HEX_RADIUS);
    }
    Ok(())
}

/// Colours each cell: scored cells once the game is over, else the pawn's legal destinations while
/// a person is to move (the hovered one stronger).
fn paint_cells(
    model: Res<Model<Trike>>,
    hovered: Res<Hovered>,
    art: Res<Art>,
    mut cells: Query<(&BoardCell, &mut MeshMaterial2d<ColorMaterial>), With<TrikeCell>>,
    mut legal: Local<Vec<TrikeMove>>,
) {
    let geo = model.game().geometry();
    let mut marks = vec![0u8; geo.cells];
    if let Some(scored) = model.game().scored_cells() {
        for (cell, mark) in marks.iter_mut().enumerate() {
            if scored.contains(cell) {
                *mark = 3;
            }
        }
    } else if model.human_to_move() && model.game().pawn().is_none() {
        // The opening may go anywhere: only the hovered cell is marked.
        if let Some(cell) = hovered.0.filter(|&c| c < geo.cells) {
            marks[cell] = 2;
        }
    } else if model.human_to_move() {
        model.game().legal_moves(&mut legal);
        for cell in legal.iter().filter_map(|mv| mv.cell()) {
            marks[cell] = if hovered.0 == Some(cell) { 2 } else { 1 };
        }
    }
    for (cell, mut material) in &mut cells {
        let want = match marks.get(cell.cell).copied().unwrap_or(0) {
            1 => &art.legal,
            2 => &art.hover,
            3 => &art.scored,
            _ => &art.cell,
        };
        if material.0 != *want {
            material.0 = want.clone();
        }
    }
}

/// Scales and shifts the camera so the board fills the window left of the side panel.
fn fit_camera(
    model: Res<Model<Trike>>,
    panel: Option<Res<PanelWidth>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    let n = model.game().geometry().side as f32;
    let panel = panel.map_or(0.0, |p| p.0);
    let board_w = (n * SQRT3 + 3.2) * HEX_RADIUS;
    let board_h = ((n - 1.0) * 1.5 + 2.2 + 2.6) * HEX_RADIUS;
    fit_board(camera, &window, [0.0, panel], Vec2::new(board_w, board_h), -0.55 * HEX_RADIUS);
}
