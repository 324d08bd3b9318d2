//! Tri-It-Out's art: red and blue counters with outlines, the restricted points shaded and the
//! hovered open one lit, a pulsing glow around the counters that may be captured, and a dot on
//! the counter placed last.

use bevy::picking::Pickable;
use bevy::prelude::*;

use super::entities::Counter;
use crate::app::animation::Vanish;
use crate::app::board::Hovered;
use crate::app::board::lattice::{LatticeArt, LatticePoint, Mark, SPACING, fit_camera, paint_points};
use crate::app::flow::Screen;
use crate::app::flow::Step;
use crate::app::model::Model;
use crate::rules::tri_it_out::{TriItOut, TriItOutMove};

pub use crate::app::palette::{two_fill as fill, two_outline as outline};

/// The ring around a counter that may be captured now (shown only then).
#[derive(Component)]
struct Glow;

/// The dot on the counter placed last (shown only there).
#[derive(Component)]
struct LastDot;

/// The counters' meshes and materials.
#[derive(Resource)]
struct Art {
    disc: Handle<Mesh>,
    rim: Handle<Mesh>,
    glow: Handle<Mesh>,
    dot: Handle<Mesh>,
    fill: [Handle<ColorMaterial>; 2],
    outline: [Handle<ColorMaterial>; 2],
    glow_colour: Handle<ColorMaterial>,
    last: Handle<ColorMaterial>,
}

impl FromWorld for Art {
    fn from_world(world: &mut World) -> Self {
        let s = SPACING;
        let mut meshes = world.resource_mut::<Assets<Mesh>>();
        let disc = meshes.add(Circle::new(s * 0.33).mesh().resolution(40));
        let rim = meshes.add(Circle::new(s * 0.37).mesh().resolution(40));
        let glow = meshes.add(Annulus::new(s * 0.40, s * 0.47).mesh().resolution(40));
        let dot = meshes.add(Circle::new(s * 0.07).mesh().resolution(20));
        let mut materials = world.resource_mut::<Assets<ColorMaterial>>();
        let mut add = |[r, g, b]: [u8; 3]| materials.add(ColorMaterial::from_color(Color::srgb_u8(r, g, b)));
        Art {
            disc,
            rim,
            glow,
            dot,
            fill: [0, 1].map(|c| add(fill(c))),
            outline: [0, 1].map(|c| add(outline(c))),
            glow_colour: add([0xff, 0xe0, 0x6a]),
            last: add([0xf5, 0xf2, 0xea]),
        }
    }
}

/// A change of palette repaints the pieces in place.
fn recolour(art: Res<Art>, mut materials: ResMut<Assets<ColorMaterial>>) {
    for c in 0..2 {
        crate::app::board::repaint(&mut materials, &art.fill[c], fill(c));
        crate::app::board::repaint(&mut materials, &art.outline[c], outline(c));
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Art>()
        .add_systems(Update, recolour.run_if(resource_changed::<crate::app::settings_page::ColoursInUse>))
        .add_observer(dress_counter)
        .add_systems(
            Update,
            (paint, glow)
                .after(super::entities::sync)
                .in_set(Step::View)
                .run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<TriItOut>>)),
        )
        .add_systems(PostUpdate, fit_camera::<TriItOut>.run_if(resource_exists::<Model<TriItOut>>));
}

fn dress_counter(add: On<Add, Counter>, counters: Query<&Counter>, art: Res<Art>, mut commands: Commands) {
    let Ok(counter) = counters.get(add.entity) else { return };
    let c = counter.owner as usize & 1;
    commands
        .entity(add.entity)
        .insert((Mesh2d(art.disc.clone()), MeshMaterial2d(art.fill[c].clone()), Pickable::IGNORE))
        .with_children(|parent| {
            parent.spawn((
                Mesh2d(art.rim.clone()),
                MeshMaterial2d(art.outline[c].clone()),
                Transform::from_xyz(0.0, 0.0, -0.05),
                Pickable::IGNORE,
            ));
            parent.spawn((
                Glow,
                Mesh2d(art.glow.clone()),
                MeshMaterial2d(art.glow_colour.clone()),
                Transform::from_xyz(0.0, 0.0, -0.1),
                Visibility::Hidden,
                Pickable::IGNORE,
            ));
            parent.spawn((
                LastDot,
                Mesh2d(art.dot.clone()),
                MeshMaterial2d(art.last.clone()),
                Transform::from_xyz(0.0, 0.0, 0.1),
                Visibility::Hidden,
                Pickable::IGNORE,
            ));
        });
}

/// Shades the restricted points; the hovered point a person may place on is lit.
fn paint(
    model: Res<Model<TriItOut>>,
    hovered: Res<Hovered>,
    art: Res<LatticeArt>,
    mut points: Query<(&LatticePoint, &mut MeshMaterial2d<ColorMaterial>)>,
) {
    let game = model.game();
    let lattice = game.lattice();
    let restricted = game.restricted();
    let mut marks = vec![Mark::Plain; lattice.len];
    for (p, mark) in marks.iter_mut().enumerate() {
        if restricted & (1 << p) != 0 {
            *mark = Mark::Shaded;
        }
    }
    if model.human_to_move()
        && !game.capture_pending()
        && let Some(p) = hovered.0.filter(|&p| p < lattice.len)
        && game.counter(p).is_none()
        && restricted & (1 << p) == 0
    {
        marks[p] = Mark::Hover;
    }
    paint_points(&marks, &art, &mut points);
}

/// What the glow system changes on a glow ring.
type GlowParts = (&'static mut Visibility, &'static mut Transform);

/// The counters that may be captured now glow, pulsing; the counter placed last has a dot.
fn glow(
    model: Res<Model<TriItOut>>,
    time: Res<Time>,
    counters: Query<(&Counter, &Children), Without<Vanish>>,
    mut glows: Query<GlowParts, (With<Glow>, Without<LastDot>)>,
    mut dots: Query<&mut Visibility, (With<LastDot>, Without<Glow>)>,
) {
    let capturable = model.game().capturable();
    let last = model.moves().iter().rev().find_map(|mv| match mv {
        TriItOutMove::Place(p) => Some(*p as usize),
        TriItOutMove::Capture(_) => None,
    });
    let pulse = 1.0 + 0.06 * (time.elapsed_secs() * 5.0).sin();
    for (counter, children) in &counters {
        let on = capturable & (1 << counter.point) != 0;
        for child in children.iter() {
            if let Ok((mut visibility, mut transform)) = glows.get_mut(child) {
                let want = if on { Visibility::Inherited } else { Visibility::Hidden };
                if *visibility != want {
                    *visibility = want;
                }
                if on {
                    transform.scale = Vec3::new(pulse, pulse, 1.0);
                }
            }
            if let Ok(mut visibility) = dots.get_mut(child) {
                let want = if last == Some(counter.point) { Visibility::Inherited } else { Visibility::Hidden };
                if *visibility != want {
                    *visibility = want;
                }
            }
        }
    }
}
