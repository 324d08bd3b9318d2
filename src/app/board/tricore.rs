//! TriCore's view (`docs/rules/tricore.md`): the elongated hexagon of the lattice board
//! ([`super::lattice`]) with red Cores, blue Rings and black and white discs as entities, stacks
//! drawn as offset discs with their height beside them. While Cores and Rings are placed the legal
//! points light up; in the disc phase a click chooses a Ring (its destinations light up) and a
//! second click drives it there — the Ring glides, the disc drops in where it stood — then a click
//! on one of the mover's discs that may climb and one on its target climbs, or **End turn** (or
//! Enter) ends the turn. Trapped Rings shrink away; the end window marks each best group in gold.

use bevy::picking::Pickable;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::lattice::{
    LatticeArt, LatticeBoard, LatticeEntity, LatticePoint, Mark, SPACING, ensure_board, label_points, paint_points,
    point_center,
};
use super::{BoardCamera, CellClicked, Hovered, WorldPainter};
use crate::app::Screen;
use crate::app::animation::{DropIn, Slide, Vanish};
use crate::app::games::{AppGame, Swatch};
use crate::app::hud::rules_paragraph;
use crate::app::input::KeyAction;
use crate::app::model::{Model, MoveIntent, Status, Step};
use crate::rules::geometry::lattice::{Lattice, Points};
use crate::rules::tricore::{Phase, TriCore, TriCoreMove, TriCoreOptions};
use crate::rules::{Game, Outcome, Player};

/// The player names by colour: Black places the first Core and moves first with discs.
const NAMES: [&str; 2] = ["Black", "White"];
/// The discs' colours as sRGB bytes: fill, then outline.
const FILL: [[u8; 3]; 2] = [[0x24, 0x24, 0x2a], [0xf4, 0xf1, 0xe8]];
const OUTLINE: [[u8; 3]; 2] = [[0x9a, 0x9a, 0xa4], [0x3a, 0x36, 0x30]];
/// Where a stack's disc at level 1 sits relative to the one below it, in units of [`SPACING`]:
/// up and a little left, so the lower discs show as rims.
const STACK_STEP: Vec2 = Vec2::new(-0.035, 0.085);

/// A Core on a point.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Core {
    /// The point it stands on.
    pub point: usize,
}

/// A Ring on a point (the view may still be gliding it there).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ring {
    /// The point the model has it on.
    pub point: usize,
}

/// A disc in a stack.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Disc {
    /// The point of its stack.
    pub point: usize,
    /// Its level in the stack: 0 at the bottom.
    pub level: u8,
    /// Its colour: 0 Black, 1 White.
    pub owner: u8,
}

/// The gold ring around the top disc of a best group, shown once the game is over.
#[derive(Component)]
struct Halo;

/// The dot on the disc that moved last (placed or climbed), shown only there.
#[derive(Component)]
struct LastDot;

/// The piece a person chose for a two-click move: a Ring to drive, or a disc to climb. It holds
/// only for the model revision it was chosen in, so any move, undo or load drops it.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chosen {
    /// The chosen piece's point.
    pub point: Option<usize>,
    /// The model's revision when it was chosen.
    pub revision: u64,
}

impl Chosen {
    /// The chosen point, if it was chosen in the model's current revision.
    pub fn get(&self, model: &Model<TriCore>) -> Option<usize> {
        self.point.filter(|_| self.revision == model.revision)
    }
}

impl AppGame for TriCore {
    fn display_name(&self) -> String {
        "TriCore".to_string()
    }
    fn new_game_text(&self) -> String {
        "New game: TriCore. Black places the first Core.".to_string()
    }
    fn over_text(&self) -> &'static str {
        "the game is over"
    }
    fn played_text(&self, mover: &str, text: &str) -> String {
        if text == "end" {
            format!("{mover} ended the turn")
        } else if let Some((ring, to)) = text.split_once('-') {
            format!("{mover} put a disc on {ring} and drove the Ring to {to}")
        } else if let Some((from, to)) = text.split_once('^') {
            format!("{mover} climbed from {from} onto {to}")
        } else if self.phase() == Phase::Cores {
            format!("{mover} placed a Core on {text}")
        } else {
            format!("{mover} placed a Ring on {text}")
        }
    }

    fn menu_entries() -> Vec<(&'static str, TriCoreOptions)> {
        vec![("TriCore", TriCoreOptions::default())]
    }
    fn seat_names(_: &TriCoreOptions) -> &'static [&'static str] {
        &["Black (first core)", "White (first ring)"]
    }
    fn summary(_: &TriCoreOptions) -> &'static str {
        "Place cores and rings, then drive rings to lay discs and climb stacks.\n\
         The group that reaches the most cores wins."
    }
    fn options_ui(ui: &mut egui::Ui, _: &mut TriCoreOptions) {
        ui.label("Board");
        ui.label(egui::RichText::new("51 points; 3 cores, 3 rings, 24 discs each").weak());
    }
    fn plugin(app: &mut App) {
        plugin(app);
    }
    fn view_plugin(app: &mut App) {
        view_plugin(app);
    }
    fn click_points(world: &mut World, mv: TriCoreMove) -> Result<Vec<Vec2>, String> {
        let lattice = world.resource::<Model<TriCore>>().game.lattice();
        let at = |p: u8| point_center(lattice, p as usize);
        match mv {
            TriCoreMove::Core(p) | TriCoreMove::Ring(p) => Ok(vec![at(p)]),
            TriCoreMove::Drive { ring, to } => Ok(vec![at(ring), at(to)]),
            TriCoreMove::Climb { from, to } => Ok(vec![at(from), at(to)]),
            TriCoreMove::End => Err("end is the End turn button (or Enter), not a press on the board".into()),
        }
    }

    fn subtitle(&self) -> String {
        match self.phase() {
            Phase::Cores => "placing Cores",
            Phase::Rings => "placing Rings",
            Phase::Drive => "discs: drive",
            Phase::Climb => "discs: climb",
            Phase::Over => "game over",
        }
        .to_string()
    }
    fn seat_swatches(&self, player: Player) -> Vec<Swatch> {
        vec![swatch(player.index())]
    }
    /// The Cores each player's best group reaches now: what the result counts first.
    fn live_score(&self, player: Player) -> Option<i32> {
        Some(self.best_group(player.index()).1.count_ones() as i32)
    }
    fn hint(model: &Model<TriCore>) -> String {
        match model.game.phase() {
            Phase::Cores => "Place a Core (red): click a lit inner point that is not next to a Core.",
            Phase::Rings => "Place a Ring (blue): click a lit point not next to a Core or another Ring.",
            Phase::Drive => {
                "Click a Ring: your disc goes on its point and the Ring must move — then click one of its \
                 lit destinations along a line."
            }
            Phase::Climb => {
                "You may climb: click one of your lit discs, then a lit stack of the same height next to it. \
                 Or End turn (Enter)."
            }
            Phase::Over => "",
        }
        .to_string()
    }
    fn actions(ui: &mut egui::Ui, model: &Model<TriCore>, intents: &mut MessageWriter<MoveIntent<TriCoreMove>>) {
        let game = &model.game;
        if matches!(game.phase(), Phase::Drive | Phase::Climb | Phase::Over) {
            ui.label(
                egui::RichText::new(format!(
                    "Discs left: Black {}, White {} · Rings {}",
                    game.discs_left(0),
                    game.discs_left(1),
                    game.rings().count_ones()
                ))
                .weak(),
            );
        }
        if game.phase() == Phase::Climb && model.human_to_move() {
            let end = ui.button("End turn").on_hover_text("No climb this turn (Enter)");
            if end.clicked() {
                intents.write(MoveIntent { mv: TriCoreMove::End, from_ai: false });
            }
        }
    }
    fn rules(ui: &mut egui::Ui) {
        let para = rules_paragraph;
        para(
            ui,
            "Board and pieces",
            "51 points in rows of 6, 7, 8, 9, 8, 7, 6. The 22 points on the edge are peripheral, the other 29 \
             inner. There are 3 red Cores and 3 blue Rings, which belong to nobody, and 24 discs each for \
             Black and White.",
        );
        para(
            ui,
            "1. Cores",
            "Black, White, Black each place a Core on an empty inner point that is not next to a Core.",
        );
        para(
            ui,
            "2. Rings",
            "White, Black, White each place a Ring on an empty point not next to any Core nor to another Ring. \
             Edge points are allowed.",
        );
        para(
            ui,
            "3. Discs (Black first)",
            "A turn: rings that cannot move are removed first. Then put a disc of your colour on a Ring's point \
             and move that Ring in a straight line to any empty point; it may pass over discs and stacks but not \
             over Rings or Cores. Then you may climb: one of your active discs (not the one just placed) moves \
             onto an adjacent stack of exactly its own height, making it one higher (at most 3). The disc it \
             uncovers becomes active again.",
        );
        para(
            ui,
            "Active discs",
            "The top disc of a stack is its active disc; only active discs move and count. Stacks show their \
             height beside them.",
        );
        para(
            ui,
            "End and result",
            "The game ends when no Ring is left or all 48 discs are placed. A group is a set of connected active \
             discs of one colour; it reaches a Core when one of its discs is next to it. The player whose best \
             group reaches more Cores wins; on a tie the larger group wins; still tied, it is a draw.",
        );
        ui.label(
            egui::RichText::new("Lit points are where you may click; the end marks each best group in gold.").weak(),
        );
    }
    fn game_over(ui: &mut egui::Ui, model: &Model<TriCore>, outcome: &Outcome) {
        let game = &model.game;
        let lattice = game.lattice();
        let groups = [game.best_group(0), game.best_group(1)];
        // Kept narrow: the window stands over the board's corner.
        egui::Grid::new("tricore-groups").num_columns(3).spacing([12.0, 2.0]).show(ui, |ui| {
            for (player, (discs, cores)) in groups.iter().enumerate() {
                ui.horizontal(|ui| {
                    crate::app::hud::stone(ui, swatch(player), 6.0);
                    ui.label(NAMES[player]);
                });
                let n = discs.count_ones();
                ui.label(format!("{n} disc{}", if n == 1 { "" } else { "s" }));
                let reached: Vec<String> = Lattice::iter(*cores).map(|p| lattice.name(p)).collect();
                ui.label(match reached.len() {
                    0 => "no Core".to_string(),
                    1 => format!("1 Core: {}", reached[0]),
                    k => format!("{k} Cores: {}", reached.join(" ")),
                });
                ui.end_row();
            }
        });
        let [(b, bc), (w, wc)] = groups.map(|(d, c)| (d.count_ones(), c.count_ones()));
        let how = if outcome.winners().len() > 1 {
            "Same Cores, same size: a draw.".to_string()
        } else if bc == wc {
            format!("Same Cores: the larger group wins, {} to {}.", b.max(w), b.min(w))
        } else {
            "More Cores reached wins.".to_string()
        };
        ui.label(how);
        ui.label(egui::RichText::new("Best groups in gold.").weak());
    }
    fn mover_swatch(before: &TriCore) -> Swatch {
        swatch(before.to_move().map_or(0, |p| p.index()))
    }
}

/// A colour's swatch for the side panel.
fn swatch(colour: usize) -> Swatch {
    super::lattice::swatch(FILL[colour], OUTLINE[colour])
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Chosen>()
        .add_systems(OnExit(Screen::Playing), |mut chosen: ResMut<Chosen>| *chosen = Chosen::default())
        .add_systems(
            Update,
            (
                (clicks, keys).in_set(Step::Intents).run_if(resource_exists::<Model<TriCore>>),
                sync.in_set(Step::View).run_if(resource_exists_and_changed::<Model<TriCore>>),
            ),
        );
}

/// What a press on point `p` does now: a placement, the choice of a Ring or a climbing disc, a
/// drive or a climb; `Err` says why nothing happens. Moves the rules may refuse are sent anyway, so
/// the status line gives the rules' reason.
fn press(model: &Model<TriCore>, chosen: &mut Chosen, p: usize) -> Result<Option<TriCoreMove>, String> {
    let game = &model.game;
    if game.to_move().is_none() {
        return Err(game.over_text().to_string());
    }
    if !model.human_to_move() {
        return Err("the AI is to move: wait, or press Move now".to_string());
    }
    let lattice = game.lattice();
    let bit = |set: Points| set & (1 << p) != 0;
    let choose = |chosen: &mut Chosen, point: Option<usize>| {
        *chosen = Chosen { point, revision: model.revision };
        Ok(None)
    };
    let held = chosen.get(model);
    match game.phase() {
        Phase::Cores => Ok(Some(TriCoreMove::Core(p as u8))),
        Phase::Rings => Ok(Some(TriCoreMove::Ring(p as u8))),
        Phase::Drive => match held {
            Some(ring) if ring == p => choose(chosen, None),
            _ if bit(game.rings()) => choose(chosen, Some(p)),
            Some(ring) => Ok(Some(TriCoreMove::Drive { ring: ring as u8, to: p as u8 })),
            None => Err(format!(
                "{}: first click a Ring (blue); your disc goes on its point and the Ring moves on",
                lattice.name(p)
            )),
        },
        Phase::Climb => match held {
            Some(from) if from == p => choose(chosen, None),
            Some(from) if bit(game.climb_targets(from)) => {
                Ok(Some(TriCoreMove::Climb { from: from as u8, to: p as u8 }))
            }
            _ if game.climb_targets(p) != 0 => choose(chosen, Some(p)),
            Some(from) => Ok(Some(TriCoreMove::Climb { from: from as u8, to: p as u8 })),
            _ => {
                let me = game.to_move().map_or(0, |m| m.index());
                let name = lattice.name(p);
                Err(match game.top(p) {
                    None => format!("{name}: click one of your lit discs to climb, or End turn"),
                    Some(c) if c as usize != me => format!("{name}: that disc is {}'s", NAMES[c as usize]),
                    Some(_) if game.just_placed() == Some(p) => {
                        format!("{name}: the disc placed this turn cannot climb")
                    }
                    Some(_) => {
                        format!("{name}: no adjacent stack of height {} to climb onto (at most 3)", game.height(p))
                    }
                })
            }
        },
        Phase::Over => Err(game.over_text().to_string()),
    }
}

fn clicks(
    mut presses: MessageReader<CellClicked>,
    model: Res<Model<TriCore>>,
    mut chosen: ResMut<Chosen>,
    mut status: ResMut<Status>,
    mut intents: MessageWriter<MoveIntent<TriCoreMove>>,
) {
    for click in presses.read() {
        match press(&model, &mut chosen, click.cell) {
            Ok(Some(mv)) => {
                intents.write(MoveIntent { mv, from_ai: false });
            }
            Ok(None) => {}
            Err(e) => *status = Status::error(e),
        }
    }
}

/// The translation of the disc at `level` of the stack on `p`.
pub fn disc_translation(lattice: &Lattice, p: usize, level: u8) -> Vec3 {
    (point_center(lattice, p) + STACK_STEP * SPACING * level as f32).extend(2.0 + 0.2 * level as f32)
}

/// Makes the entities match the model: the board for a new game; one entity per Core, Ring and
/// disc. A driven Ring glides to its new point and the disc drops in where it stood; a climbing
/// disc glides onto its stack; trapped Rings shrink away.
#[allow(clippy::too_many_arguments)]
fn sync(
    model: Res<Model<TriCore>>,
    mut board: ResMut<LatticeBoard>,
    mut status: ResMut<Status>,
    mut commands: Commands,
    everything: Query<Entity, With<LatticeEntity>>,
    cores: Query<(Entity, &Core)>,
    rings: Query<(Entity, &Ring, &Transform), Without<Vanish>>,
    discs: Query<(Entity, &Disc, &Transform), Without<Vanish>>,
) {
    let game = &model.game;
    let lattice = game.lattice();
    let rebuilt = ensure_board(&mut commands, &mut board, lattice, everything);
    let last = model.last_move();

    // Cores never move.
    let mut present: Points = 0;
    if !rebuilt {
        for (entity, core) in &cores {
            if game.cores() & (1 << core.point) != 0 && present & (1 << core.point) == 0 {
                present |= 1 << core.point;
            } else {
                commands.entity(entity).despawn();
            }
        }
    }
    for p in Lattice::iter(game.cores() & !present) {
        let mut core = commands.spawn(piece(Core { point: p }, lattice, p, 1.8));
        if last == Some(TriCoreMove::Core(p as u8)) {
            core.insert(DropIn::default());
        }
    }

    // Rings: the driven one glides; trapped ones shrink away.
    let mut present: Points = 0;
    let mut gone = Vec::new();
    if !rebuilt {
        for (entity, ring, transform) in &rings {
            if game.rings() & (1 << ring.point) != 0 && present & (1 << ring.point) == 0 {
                present |= 1 << ring.point;
            } else {
                gone.push((entity, ring.point, transform.translation));
            }
        }
    }
    let mut missing = game.rings() & !present;
    if let Some(TriCoreMove::Drive { ring: from, to }) = last
        && missing & (1 << to) != 0
        && let Some(k) = gone.iter().position(|&(_, p, _)| p == from as usize)
    {
        let (entity, _, at) = gone.swap_remove(k);
        let to = to as usize;
        commands.entity(entity).insert((Ring { point: to }, Slide::new(at, point_center(lattice, to).extend(2.5))));
        missing &= !(1 << to);
    }
    let trapped = game.trapped_rings_removed();
    let mut left = Vec::new();
    for (entity, p, _) in gone {
        if trapped & (1 << p) != 0 && matches!(last, Some(TriCoreMove::End | TriCoreMove::Climb { .. })) {
            commands.entity(entity).insert(Vanish::default());
            left.push(lattice.name(p));
        } else {
            commands.entity(entity).despawn();
        }
    }
    if !left.is_empty() && !status.error {
        let which = if left.len() == 1 {
            format!("The Ring on {} is", left[0])
        } else {
            format!("The Rings on {} are", left.join(", "))
        };
        status.text = format!("{}. {which} trapped and leaves the game.", status.text.trim_end_matches('.'));
    }
    for p in Lattice::iter(missing) {
        let mut ring = commands.spawn(piece(Ring { point: p }, lattice, p, 2.5));
        if last == Some(TriCoreMove::Ring(p as u8)) {
            ring.insert(DropIn::default());
        }
    }

    // Discs, one per level of every stack: a climbing disc glides onto its stack, a placed one drops in.
    let want = |p: usize, level: u8| level < game.height(p);
    let mut kept = vec![[false; 3]; lattice.len];
    let mut stray = Vec::new();
    if !rebuilt {
        for (entity, disc, transform) in &discs {
            let (p, l) = (disc.point, disc.level);
            if p < lattice.len && want(p, l) && game.disc(p, l) == Some(disc.owner) && !kept[p][l as usize] {
                kept[p][l as usize] = true;
            } else {
                stray.push((entity, *disc, transform.translation));
            }
        }
    }
    if let Some(TriCoreMove::Climb { from, to }) = last {
        let (from, to) = (from as usize, to as usize);
        let level = game.height(to).saturating_sub(1);
        if level > 0
            && !kept[to][level as usize]
            && let Some(owner) = game.disc(to, level)
            && let Some(k) =
                stray.iter().position(|(_, d, _)| d.point == from && d.level == level - 1 && d.owner == owner)
        {
            let (entity, _, at) = stray.swap_remove(k);
            commands
                .entity(entity)
                .insert((Disc { point: to, level, owner }, Slide::new(at, disc_translation(lattice, to, level))));
            kept[to][level as usize] = true;
        }
    }
    for (entity, _, _) in stray {
        commands.entity(entity).despawn();
    }
    for (p, kept) in kept.iter().enumerate() {
        for level in 0..game.height(p) {
            if kept[level as usize] {
                continue;
            }
            let Some(owner) = game.disc(p, level) else { continue };
            let mut disc = commands.spawn((
                Disc { point: p, level, owner },
                LatticeEntity,
                DespawnOnExit(Screen::Playing),
                Transform::from_translation(disc_translation(lattice, p, level)),
                Visibility::default(),
            ));
            if matches!(last, Some(TriCoreMove::Drive { ring, .. }) if ring as usize == p && level == 0) {
                disc.insert(DropIn::default());
            }
        }
    }
}

/// A Core or Ring entity on point `p` at depth `z` (meshes are added by the view).
fn piece(component: impl Component, lattice: &Lattice, p: usize, z: f32) -> impl Bundle {
    (
        component,
        LatticeEntity,
        DespawnOnExit(Screen::Playing),
        Transform::from_translation(point_center(lattice, p).extend(z)),
        Visibility::default(),
    )
}

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

pub(super) fn view_plugin(app: &mut App) {
    app.init_resource::<Art>()
        .add_observer(dress_core)
        .add_observer(dress_ring)
        .add_observer(dress_disc)
        .add_systems(
            Update,
            (paint, halos)
                .after(sync)
                .in_set(Step::View)
                .run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<TriCore>>)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            overlay.run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<TriCore>>)),
        );
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

fn dress_ring(add: On<Add, Ring>, art: Res<Art>, mut commands: Commands, rings: Query<(), With<Mesh2d>>) {
    // A glide re-inserts `Ring`; the meshes are there already.
    if rings.contains(add.entity) {
        return;
    }
    commands
        .entity(add.entity)
        .insert((Mesh2d(art.ring.clone()), MeshMaterial2d(art.blue.clone()), Pickable::IGNORE))
        .with_child(under(&art.ring_rim, &art.dark_blue, -0.05));
}

fn dress_disc(add: On<Add, Disc>, discs: Query<&Disc, Without<Mesh2d>>, art: Res<Art>, mut commands: Commands) {
    // A climb re-inserts `Disc`; then the meshes are there already.
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
    let game = &model.game;
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
    let game = &model.game;
    let gold = if game.phase() == Phase::Over { game.best_group(0).0 | game.best_group(1).0 } else { 0 };
    let last = model.moves.iter().rev().find_map(|mv| match *mv {
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

/// Row numbers, the hovered point's name and each stack's height (2 or 3) beside its top disc.
fn overlay(
    mut contexts: EguiContexts,
    model: Res<Model<TriCore>>,
    hovered: Res<Hovered>,
    camera: BoardCamera,
) -> Result {
    let game = &model.game;
    let lattice = game.lattice();
    let ctx = contexts.ctx_mut()?;
    let world = WorldPainter::new(ctx, *camera);
    label_points(&world, lattice, &hovered);
    let (painter, scale) = (&world.painter, world.scale);
    let font = egui::FontId::proportional(13.0 / scale);
    for p in 0..lattice.len {
        let h = game.height(p);
        if h < 2 {
            continue;
        }
        let top = disc_translation(lattice, p, h - 1).truncate() + Vec2::new(0.30, -0.24) * SPACING;
        let Some(centre) = world.to_screen(top) else { continue };
        painter.circle(
            centre,
            8.5 / scale,
            egui::Color32::from_rgb(0xfb, 0xf3, 0xdc),
            egui::Stroke::new(1.2 / scale, egui::Color32::from_rgb(0x5a, 0x48, 0x30)),
        );
        painter.text(
            centre,
            egui::Align2::CENTER_CENTER,
            h.to_string(),
            font.clone(),
            egui::Color32::from_rgb(0x30, 0x24, 0x18),
        );
    }
    Ok(())
}

/// Enter ends the turn in the climb step; Esc puts back the chosen Ring or disc (through the input
/// plugin).
fn keys(
    mut actions: MessageReader<KeyAction>,
    model: Res<Model<TriCore>>,
    mut chosen: ResMut<Chosen>,
    mut intents: MessageWriter<MoveIntent<TriCoreMove>>,
) {
    for action in actions.read() {
        match action {
            KeyAction::EndTurn if model.human_to_move() && model.game.phase() == Phase::Climb => {
                intents.write(MoveIntent { mv: TriCoreMove::End, from_ai: false });
            }
            KeyAction::Cancel => chosen.point = None,
            _ => {}
        }
    }
}
