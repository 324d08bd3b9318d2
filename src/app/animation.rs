//! Animation: the model changes at once, the view catches up. A checker drops in (its scale eases
//! from large to normal), the pawn slides along its line, a captured or removed piece shrinks away
//! ([`Vanish`]); each takes about 250 ms, twice that or nothing as the settings page says
//! ([`AnimationSpeed`]).

use bevy::prelude::*;

use super::flow::Step;
use super::settings::{AnimationSpeed, Settings};

/// How long a slide or a drop takes, in seconds.
pub const DURATION: f32 = 0.25;

/// Moves an entity's translation from `from` to `to`, eased.
#[derive(Component, Clone, Debug)]
pub struct Slide {
    /// Start of the slide.
    pub from: Vec3,
    /// End of the slide (the entity's resting place).
    pub to: Vec3,
    /// Seconds since the slide began.
    pub elapsed: f32,
}

impl Slide {
    /// A slide starting now.
    pub fn new(from: Vec3, to: Vec3) -> Slide {
        Slide { from, to, elapsed: 0.0 }
    }
}

/// Shrinks an entity from a raised, larger scale to its normal size, as if dropped onto the board.
#[derive(Component, Clone, Debug, Default)]
pub struct DropIn {
    /// Seconds since the drop began.
    pub elapsed: f32,
}

/// The scale a dropping checker starts from.
const DROP_SCALE: f32 = 1.7;

/// Shrinks an entity to nothing, then despawns it: a piece leaving the board (a captured counter, a
/// trapped ring). The model has already dropped it; only the view still shows it going.
#[derive(Component, Clone, Debug, Default)]
pub struct Vanish {
    /// Seconds since it began to go.
    pub elapsed: f32,
}

/// The share of an animation of `seconds` (at normal speed) done after `elapsed` seconds, `0..=1`.
fn progress(speed: AnimationSpeed, elapsed: f32, seconds: f32) -> f32 {
    let length = speed.seconds(seconds);
    if length <= 0.0 { 1.0 } else { (elapsed / length).min(1.0) }
}

/// The animation speed the settings page chose (normal without settings).
fn speed(settings: Option<Res<Settings>>) -> AnimationSpeed {
    settings.map_or(AnimationSpeed::Normal, |s| s.look.animation)
}

pub(super) fn plugin(app: &mut App) {
    // Before the views: an animation that ends this frame removes its component before a view
    // starts the next one on the same entity (the removal would else take the new one too, and
    // the pawn would stay where the last slide ended).
    app.add_systems(Update, (slide, drop_in, vanish).after(Step::Apply).before(Step::View));
}

fn vanish(
    time: Res<Time>,
    settings: Option<Res<Settings>>,
    mut commands: Commands,
    mut query: Query<(Entity, &mut Vanish, &mut Transform)>,
) {
    let speed = speed(settings);
    for (entity, mut vanish, mut transform) in &mut query {
        vanish.elapsed += time.delta_secs();
        let t = progress(speed, vanish.elapsed, 2.0 * DURATION);
        let scale = EasingCurve::new(1.0, 0.0, EaseFunction::BackIn).sample_clamped(t).max(0.0);
        transform.scale = Vec3::new(scale, scale, 1.0);
        if t >= 1.0 {
            commands.entity(entity).despawn();
        }
    }
}

fn slide(
    time: Res<Time>,
    settings: Option<Res<Settings>>,
    mut commands: Commands,
    mut query: Query<(Entity, &mut Slide, &mut Transform)>,
) {
    let speed = speed(settings);
    for (entity, mut slide, mut transform) in &mut query {
        slide.elapsed += time.delta_secs();
        let t = progress(speed, slide.elapsed, DURATION);
        transform.translation = EasingCurve::new(slide.from, slide.to, EaseFunction::CubicInOut).sample_clamped(t);
        if t >= 1.0 {
            commands.entity(entity).remove::<Slide>();
        }
    }
}

fn drop_in(
    time: Res<Time>,
    settings: Option<Res<Settings>>,
    mut commands: Commands,
    mut query: Query<(Entity, &mut DropIn, &mut Transform)>,
) {
    let speed = speed(settings);
    for (entity, mut drop, mut transform) in &mut query {
        drop.elapsed += time.delta_secs();
        let t = progress(speed, drop.elapsed, DURATION);
        let scale = EasingCurve::new(DROP_SCALE, 1.0, EaseFunction::BounceOut).sample_clamped(t);
        transform.scale = Vec3::new(scale, scale, 1.0);
        if t >= 1.0 {
            commands.entity(entity).remove::<DropIn>();
        }
    }
}
