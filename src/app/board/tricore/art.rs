//! TriCore's art: red hexagonal Cores, blue Rings, black and white discs stacked with an offset so
//! the lower ones show as rims; the points to click lit (legal placements, the Rings, the chosen
//! piece's targets), and once the game is over each best group in gold, a gold halo on its top
//! discs; a dot on the disc that moved last.

use bevy::picking::Pickable;
use bevy::prelude::*;

use super::entities::{Chosen, Core, Disc, Ring};
use crate::app::animation::Vanish;
use crate::app::board::Hovered;
use crate::app::board::lattice::{LatticeArt, LatticePoint, Mark, SPACING, fit_camera, paint_points};
use crate::app::flow::Screen;
use crate::app::flow::Step;
use crate::app::model::Model;
use crate::rules::Game;
use crate::rules::geometry::lattice::{Lattice, Points};
use crate::rules::tricore::{Phase, TriCore, TriCoreMove};

/// The discs' colours as sRGB bytes by colour (0 Black, 1 White): fill, then outline.
pub const FILL: [[u8; 3]; 2] = [[0x24, 0x24, 0x2a], [0xf4, 0xf1, 0xe8]];
/// See [`FILL`].
pub const OUTLINE: [[u8; 3]; 2] = [[0x9a, 0x9a, 0xa4], [0x3a, 0x36, 0x30]];
/// The gold ring around the top disc of a best group, shown once the game is over.
#[derive(Component)]
struct Halo;

/// The dot on the disc that moved last (placed or climbed), shown only there.
#[derive(Component)]
struct LastDot;

/// The pieces' meshes and materials.
#[derive(Resource)]
struct Art {
    disc: Handle<Mesh>,
    rim: Handle<Mesh>,
    core: Handle<Mesh>,
    core_rim: Handle<Mesh>,
    core_heart: Handle<Mesh>,
    ring: Handle<Mesh>,
    ring_rim: Handle<Mesh>,
    halo: Handle<Mesh>,
    dot: Handle<Mesh>,
    fill: [Handle<ColorMaterial>; 2],
    outline: [Handle<ColorMaterial>; 2],
    red: Handle<ColorMaterial>,
    dark_red: Handle<ColorMaterial>,
    heart: Handle<ColorMaterial>,
    blue: Handle<ColorMaterial>,
    dark_blue: Handle<ColorMaterial>,
    gold: Handle<ColorMaterial>,
}

impl FromWorld for Art {
    fn from_world(world: &mut World) -> Self {
        let s = SPACING;
        let mut meshes = world.resource_mut::<Assets<Mesh>>();
        let disc = meshes.add(Circle::new(s * 0.30).mesh().resolution(40));
        let rim = meshes.add(Circle::new(s * 0.335).mesh().resolution(40));
        let core = meshes.add(RegularPolygon::new(s * 0.34, 6));
        let core_rim = meshes.add(RegularPolygon::new(s * 0.39, 6));
        let core_heart = meshes.add(Circle::new(s * 0.12).mesh().resolution(24));
        let ring = meshes.add(Annulus::new(s * 0.20, s * 0.33).mesh().resolution(40));
        let ring_rim = meshes.add(Annulus::new(s * 0.175, s * 0.36).mesh().resolution(40));
        let dot = meshes.add(Circle::new(s * 0.07).mesh().resolution(20));
        let halo = meshes.add(Annulus::new(s * 0.33, s * 0.43).mesh().resolution(40));
        let mut materials = world.resource_mut::<Assets<ColorMaterial>>();
        let mut add = |[r, g, b]: [u8; 3]| materials.add(ColorMaterial::from_color(Color::srgb_u8(r, g, b)));
        Art {
            dot,
            halo,
            gold: add([0xf2, 0xb8, 0x2e]),
            disc,
            rim,
            core,
            core_rim,
            core_heart,
            ring,
            ring_rim,
            fill: FILL.map(&mut add),
            outline: OUTLINE.map(&mut add),
            red: add([0xd0, 0x3a, 0x30]),
            dark_red: add([0x6a, 0x14, 0x10]),
            heart: add([0xff, 0x9a, 0x6a]),
            blue: add([0x2f, 0x6f, 0xd0]),
            dark_blue: add([0x12, 0x2e, 0x62]),
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Art>()
        .add_observer(dress_core)
        .add_observer(dress_ring)
        .add_observer(dress_disc)
        .add_systems(
            Update,
            (paint, halos)
                .after(super::entities::sync)
                .in_set(Step::View)
                .run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<TriCore>>)),
        )
        .add_systems(PostUpdate, fit_camera::<TriCore>.run_if(resource_exists::<Model<TriCore>>));
}

/// A child mesh drawn just below its parent (an outline), never picked.
fn under(mesh: &Handle<Mesh>, material: &Handle<ColorMaterial>, z: f32) -> impl Bundle {
    (Mesh2d(mesh.clone()), MeshMaterial2d(material.clone()), Transform::from_xyz(0.0, 0.0, z), Pickable::IGNORE)
}

fn dress_core(add: On<Add, Core>, art: Res<Art>, mut commands: Commands) {
    commands
        .entity(add.entity)
        .insert((Mesh2d(art.core.clone()), MeshMaterial2d(art.red.clone()), Pickable::IGNORE))
        .with_children(|parent| {
            parent.spawn(under(&art.core_rim, &art.dark_red, -0.05));
            parent.spawn(under(&art.core_heart, &art.heart, 0.05));
        });
}

fn dress_ring(add: On<Add, Ring>, art: Res<Art>, mut commands: Commands) {
    commands
        .entity(add.entity)
        .insert((Mesh2d(art.ring.clone()), MeshMaterial2d(art.blue.clone()), Pickable::IGNORE))
        .with_child(under(&art.ring_rim, &art.dark_blue, -0.05));
}

fn dress_disc(add: On<Add, Disc>, discs: Query<&Disc>, art: Res<Art>, mut commands: Commands) {
    let Ok(disc) = discs.get(add.entity) else { return };
    let c = disc.owner as usize & 1;
    commands
        .entity(add.entity)
        .insert((Mesh2d(art.disc.clone()), MeshMaterial2d(art.fill[c].clone()), Pickable::IGNORE))
        .with_children(|parent| {
            parent.spawn(under(&art.rim, &art.outline[c], -0.05));
            parent.spawn((Halo, under(&art.halo, &art.gold, -0.1), Visibility::Hidden));
            parent.spawn((LastDot, under(&art.dot, &art.outline[c], 0.05), Visibility::Hidden));
        });
}

/// The points to click light up: legal placements; in the disc phase the Rings, then the chosen
/// Ring's destinations; in the climb step the discs that may climb, then the chosen one's targets.
/// Once the game is over, each player's best group is gold.
fn paint(
    model: Res<Model<TriCore>>,
    chosen: Res<Chosen>,
    hovered: Res<Hovered>,
    art: Res<LatticeArt>,
    mut points: Query<(&LatticePoint, &mut MeshMaterial2d<ColorMaterial>)>,
) {
    let game = model.game();
    let lattice = game.lattice();
    let mut marks = vec![Mark::Plain; lattice.len];
    let mut set = |points: Points, mark: Mark| {
        for p in Lattice::iter(points) {
            marks[p] = mark;
        }
    };
    let mut targets: Points = 0;
    if game.phase() == Phase::Over {
        set(game.best_group(0).0 | game.best_group(1).0, Mark::Gold);
    } else if model.human_to_move() {
        let held = chosen.get(&model);
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        match (game.phase(), held) {
            (Phase::Drive, Some(ring)) => {
                targets = game.ring_destinations(ring);
                set(1 << ring, Mark::Chosen);
            }
            (Phase::Climb, Some(from)) => {
                targets = game.climb_targets(from);
                set(1 << from, Mark::Chosen);
            }
            _ => {
                for mv in moves {
                    targets |= match mv {
                        TriCoreMove::Core(p) | TriCoreMove::Ring(p) => 1 << p,
                        TriCoreMove::Drive { ring, .. } => 1 << ring,
                        TriCoreMove::Climb { from, .. } => 1 << from,
                        TriCoreMove::End => 0,
                    };
                }
            }
        }
        set(targets, Mark::Legal);
        if let Some(p) = hovered.0.filter(|&p| p < lattice.len && targets & (1 << p) != 0) {
            marks[p] = Mark::Hover;
        }
    }
    paint_points(&marks, &art, &mut points);
}

/// Once the game is over, the top discs of each player's best group wear a gold ring; the disc
/// that moved last (placed, or climbed) has a dot while it is on top.
fn halos(
    model: Res<Model<TriCore>>,
    discs: Query<(&Disc, &Children), Without<Vanish>>,
    mut halos: Query<&mut Visibility, (With<Halo>, Without<LastDot>)>,
    mut dots: Query<&mut Visibility, (With<LastDot>, Without<Halo>)>,
) {
    let game = model.game();
    let gold = if game.phase() == Phase::Over { game.best_group(0).0 | game.best_group(1).0 } else { 0 };
    let last = model.moves().iter().rev().find_map(|mv| match *mv {
        TriCoreMove::Drive { ring, .. } => Some(ring as usize),
        TriCoreMove::Climb { to, .. } => Some(to as usize),
        _ => None,
    });
    let show = |visibility: &mut Mut<Visibility>, on: bool| {
        let want = if on { Visibility::Inherited } else { Visibility::Hidden };
        if **visibility != want {
            **visibility = want;
        }
    };
    for (disc, children) in &discs {
        let top = disc.level + 1 == game.height(disc.point);
        for child in children.iter() {
            if let Ok(mut visibility) = halos.get_mut(child) {
                show(&mut visibility, top && gold & (1 << disc.point) != 0);
            }
            if let Ok(mut visibility) = dots.get_mut(child) {
                show(&mut visibility, top && last == Some(disc.point));
            }
        }
    }
}
