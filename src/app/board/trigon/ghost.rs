//! The ghost of the piece a person holds ([`super::pointing`]), on the board under the pointer,
//! snapped to the grid and tinted legal (in the colour) or illegal (grey).

use std::collections::HashSet;

use bevy::picking::Pickable;
use bevy::prelude::*;

use super::art::{shade, triangles_mesh};
use super::layout::tri_corners;
use super::pointing::{BoardPointer, Selection, anchor_near, ghost_tris, oriented, placement_at};
use crate::app::board::Hovered;
use crate::app::flow::Screen;
use crate::app::flow::Step;
use crate::app::model::Model;
use crate::rules::Game;
use crate::rules::trigon::Trigon;

/// The ghost: the selected piece under the pointer.
#[derive(Component)]
struct Ghost;

/// Why the held piece cannot be placed where its ghost is (the ghost is grey), for the readout at
/// the board's foot; `None` while it fits or no ghost shows.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct GhostWhy(pub Option<String>);

/// How the held piece is tinted from its colour ([`shade`]'s `t`): 20 % lighter.
const HELD: f32 = 0.2;

/// The ghost's mesh and its two tints.
#[derive(Resource)]
struct GhostArt {
    mesh: Handle<Mesh>,
    legal: [Handle<ColorMaterial>; 4],
    illegal: Handle<ColorMaterial>,
}

impl FromWorld for GhostArt {
    fn from_world(world: &mut World) -> Self {
        // One triangle until a piece is held: a mesh without vertices makes Bevy 0.19's mesh
        // allocator log two "slab_allocator: Use-after-free" errors (it skips allocating an empty
        // mesh, then copies its data all the same). The ghost is hidden until then.
        let placeholder = [[Vec2::ZERO, Vec2::X, Vec2::Y]];
        let mesh = world.resource_mut::<Assets<Mesh>>().add(triangles_mesh(&placeholder, 1.0, Vec2::ZERO));
        let mut materials = world.resource_mut::<Assets<ColorMaterial>>();
        let legal = [0, 1, 2, 3].map(|c| materials.add(ColorMaterial::from(shade(c, HELD))));
        let illegal = materials.add(ColorMaterial::from(Color::srgba_u8(0x4a, 0x4a, 0x50, 170)));
        GhostArt { mesh, legal, illegal }
    }
}

/// A change of palette repaints the held piece's colours.
fn recolour(art: Res<GhostArt>, mut materials: ResMut<Assets<ColorMaterial>>) {
    for (colour, handle) in art.legal.iter().enumerate() {
        if let Some(mut material) = materials.get_mut(handle) {
            material.color = shade(colour, HELD);
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, recolour.run_if(resource_changed::<crate::app::settings_page::ColoursInUse>));
    app.init_resource::<GhostWhy>();
    app.init_resource::<GhostArt>().add_systems(OnEnter(Screen::Playing), spawn_ghost).add_systems(
        Update,
        ghost
            .after(super::entities::sync)
            .in_set(Step::View)
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<Trigon>>)),
    );
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

/// Shows the selected piece under the pointer while a person is to move, snapped to the grid,
/// tinted by legality.
fn ghost(
    model: Res<Model<Trigon>>,
    (selection, hovered, pointer): (Res<Selection>, Res<Hovered>, Res<BoardPointer>),
    art: Res<GhostArt>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut ghosts: Query<(&mut Visibility, &mut MeshMaterial2d<ColorMaterial>), With<Ghost>>,
    (mut legal, mut shown): (Local<LegalCache>, Local<Option<GhostKey>>),
    mut why: ResMut<GhostWhy>,
) {
    let Ok((mut visibility, mut material)) = ghosts.single_mut() else { return };
    let board = model.game().tables().board;
    let anchor = match (selection.piece, hovered.0) {
        (Some(piece), Some(cell)) if cell < board.cells() => Some(anchor_near(
            board,
            &oriented(model.game().tables(), piece as usize, selection.symmetry),
            cell,
            pointer.0,
        )),
        _ => hovered.0,
    };
    let key = (selection.piece, selection.symmetry, anchor, model.revision());
    if *shown == Some(key) {
        return;
    }
    *shown = Some(key);
    why.set_if_neq(GhostWhy(None));
    let (Some(piece), Some(anchor), Some(colour)) = (selection.piece, anchor, model.game().colour_to_move()) else {
        *visibility = Visibility::Hidden;
        return;
    };
    if anchor >= board.cells() || !model.human_to_move() {
        *visibility = Visibility::Hidden;
        return;
    }
    if legal.revision != Some(model.revision()) {
        let mut moves = Vec::new();
        model.game().legal_moves(&mut moves);
        legal.moves = moves.iter().map(|m| m.0).collect();
        legal.revision = Some(model.revision());
    }
    let shape = oriented(model.game().tables(), piece as usize, selection.symmetry);
    let tris: Vec<[Vec2; 3]> = ghost_tris(board, &shape, anchor).into_iter().map(|t| tri_corners(board, t)).collect();
    let ok = placement_at(&model, &selection, anchor).is_ok_and(|mv| legal.moves.contains(&mv.0));
    if !ok {
        why.0 = why_not_here(&model, &selection, anchor);
    }
    if let Some(mut mesh) = meshes.get_mut(&art.mesh) {
        *mesh = triangles_mesh(&tris, 0.86, Vec2::ZERO);
    }
    let want = if ok { &art.legal[colour] } else { &art.illegal };
    if material.0 != *want {
        material.0 = want.clone();
    }
    *visibility = Visibility::Inherited;
}

/// Why the held piece cannot be placed with its centre at `anchor` (where its ghost lies): no
/// piece is held, it sticks out of the board, or the rules' reason (`docs/rules/trigon.md`
/// §Play); `None` when it can.
pub fn why_not_here(model: &Model<Trigon>, selection: &Selection, anchor: usize) -> Option<String> {
    let mv = match placement_at(model, selection, anchor) {
        Ok(mv) => mv,
        Err(why) => return Some(format!("Not here: {why}")),
    };
    model.game().clone().play(mv).err().map(|why| format!("Not here: {why}"))
}
