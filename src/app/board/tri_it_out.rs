//! Tri-It-Out's view (`docs/rules/tri-it-out.md`): the lattice board ([`super::lattice`]) with red and
//! blue counters as entities. Restricted points are shaded, and hovering one draws the triangle
//! that restricts it; after a capturing placement the counters that may be taken glow, a click
//! takes one and it shrinks away; the side panel says when a chain goes on ("place again"), keeps
//! the counts, and the end window names the tie rule when it decided.

use bevy::picking::Pickable;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::lattice::{
    LatticeArt, LatticeBoard, LatticeEntity, LatticePoint, Mark, ensure_board, label_points, paint_points, point_center,
};
use super::{BoardCamera, CellClicked, Hovered, WorldPainter};
use crate::app::Screen;
use crate::app::animation::{DropIn, Vanish};
use crate::app::games::{AppGame, Swatch};
use crate::app::hud::rules_paragraph;
use crate::app::model::{Model, MoveIntent, Status, Step};
use crate::rules::geometry::lattice::Lattice;
use crate::rules::tri_it_out::{Board, TieRule, TriItOut, TriItOutMove, TriItOutOptions, Variant};
use crate::rules::{Game, Outcome, Player};

/// The player names, by colour: Red places first (`docs/rules/tri-it-out.md`).
const NAMES: [&str; 2] = ["Red", "Blue"];
/// The counters' colours as sRGB bytes: fill, then outline.
const FILL: [[u8; 3]; 2] = [[0xd2, 0x3c, 0x32], [0x2f, 0x6f, 0xd0]];
const OUTLINE: [[u8; 3]; 2] = [[0x6e, 0x16, 0x10], [0x12, 0x30, 0x66]];

/// A counter on a point.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counter {
    /// The point it stands on.
    pub point: usize,
    /// Its colour: 0 Red, 1 Blue.
    pub owner: u8,
}

/// The ring around a counter that may be captured now (shown only then).
#[derive(Component)]
struct Glow;

/// The dot on the counter placed last (shown only there).
#[derive(Component)]
struct LastDot;

impl AppGame for TriItOut {
    fn display_name(&self) -> String {
        "Tri-It-Out".to_string()
    }
    fn new_game_text(&self) -> String {
        let board = self.options().board;
        format!("New game: Tri-It-Out on {} ({} points). Red places first.", board.id(), self.lattice().len)
    }
    fn over_text(&self) -> &'static str {
        "the game is over: no counter can be placed"
    }
    fn played_text(&self, mover: &str, text: &str) -> String {
        match text.strip_prefix('x') {
            Some(point) => format!("{mover} captured {point}"),
            None => format!("{mover} placed on {text}"),
        }
    }

    fn menu_entries() -> Vec<(&'static str, TriItOutOptions)> {
        vec![("Tri-It-Out", TriItOutOptions::default())]
    }
    fn seat_names(_: &TriItOutOptions) -> &'static [&'static str] {
        &["Red (places first)", "Blue"]
    }
    fn summary(_: &TriItOutOptions) -> &'static str {
        "Place counters; completing a triangle with two enemy counters captures one of them.\n\
         Points that would complete a mixed triangle are closed. Fewest counters wins."
    }
    fn options_ui(ui: &mut egui::Ui, options: &mut TriItOutOptions) {
        options_ui(ui, options);
    }
    fn plugin(app: &mut App) {
        plugin(app);
    }
    fn view_plugin(app: &mut App) {
        view_plugin(app);
    }
    fn click_points(world: &mut World, mv: TriItOutMove) -> Result<Vec<Vec2>, String> {
        let lattice = world.resource::<Model<TriItOut>>().game.lattice();
        let (TriItOutMove::Place(p) | TriItOutMove::Capture(p)) = mv;
        Ok(vec![point_center(lattice, p as usize)])
    }

    fn subtitle(&self) -> String {
        format!("{}, {} points", self.options().board.id(), self.lattice().len)
    }
    fn seat_swatches(&self, player: Player) -> Vec<Swatch> {
        vec![swatch(player.index())]
    }
    fn live_score(&self, player: Player) -> Option<i32> {
        Some(self.counts()[player.index()] as i32)
    }
    fn hint(model: &Model<TriItOut>) -> String {
        let game = &model.game;
        let me = game.to_move().map_or(0, |p| p.index());
        if game.capture_pending() {
            format!("Capture: click one of the glowing {} counters.", NAMES[1 - me])
        } else if matches!(model.last_move(), Some(TriItOutMove::Capture(_))) {
            "Place again: after a capture you place another counter.".to_string()
        } else {
            "Click a point to place a counter. Shaded points are restricted: hover one to see the triangle \
             that closes it."
                .to_string()
        }
    }
    fn rules(ui: &mut egui::Ui) {
        let para = rules_paragraph;
        para(
            ui,
            "Goal",
            "Have the fewest counters on the board when the game ends. Red places first; each player has an \
             unlimited supply of counters.",
        );
        para(
            ui,
            "Triangles",
            "Any three counters the same distance apart form a triangle — of any size and any tilt, not only \
             along the lines. A mixed triangle holds counters of both colours.",
        );
        para(
            ui,
            "Restricted points",
            "An empty point that would complete a triangle with a red and a blue counter already on the board \
             is restricted: nobody may place there. They are shaded; hover one to see its triangle.",
        );
        para(
            ui,
            "A turn",
            "Place a counter on an empty point that is not restricted. If it forms mixed triangles (with two \
             enemy counters), take one enemy counter from one of them — they glow — and place again. Your turn \
             ends with a placement that forms no mixed triangle.",
        );
        para(
            ui,
            "End",
            "The game ends when the player to move cannot place, even in the middle of a turn. Fewest counters \
             wins. On equal counts the player who moved last loses, as in the designer's own version on Ludii. \
             The start screen offers the published sentence read literally instead (the player who cannot \
             place loses), under which the second player wins nearly every game.",
        );
        para(
            ui,
            "Variant: any mixed triangle",
            "A capture may take an enemy counter from any mixed triangle on the board; keep placing until none \
             remains. If the game ends on your turn while one remains, you lose.",
        );
    }
    fn game_over(ui: &mut egui::Ui, model: &Model<TriItOut>, outcome: &Outcome) {
        let game = &model.game;
        let [red, blue] = game.counts();
        ui.label(format!("Red {red} – Blue {blue} counters on the board; fewest wins."));
        if game.tie_decided() {
            let rule = match game.options().tie {
                TieRule::StuckPlayerLoses => "the player who could not place loses",
                TieRule::LastMoverLoses => "the player who moved last loses",
            };
            let loser = (0..2).find(|&p| !outcome.winners().contains(&Player(p as u8))).map_or("", |p| NAMES[p]);
            ui.label(format!("Equal counts: {rule} — {loser}."));
        } else if game.options().variant == Variant::AnyMixedTriangle && red == blue {
            ui.label("A mixed triangle was left on the board of the player who could not place.");
        }
        if let Some(p) = game.stuck() {
            ui.label(egui::RichText::new(format!("{} could not place.", NAMES[p.index()])).weak());
        }
    }
    fn mover_swatch(before: &TriItOut) -> Swatch {
        swatch(before.to_move().map_or(0, |p| p.index()))
    }
}

/// A colour's swatch for the side panel.
fn swatch(colour: usize) -> Swatch {
    super::lattice::swatch(FILL[colour], OUTLINE[colour])
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            clicks.in_set(Step::Intents).run_if(resource_exists::<Model<TriItOut>>),
            sync.in_set(Step::View).run_if(resource_exists_and_changed::<Model<TriItOut>>),
        ),
    );
}

/// A press on a point: a capture while one is pending, else a placement. The rules say why a
/// move is refused (a restricted point names the pair that closes it).
fn clicks(
    mut presses: MessageReader<CellClicked>,
    model: Res<Model<TriItOut>>,
    mut status: ResMut<Status>,
    mut intents: MessageWriter<MoveIntent<TriItOutMove>>,
) {
    for press in presses.read() {
        let game = &model.game;
        if game.to_move().is_none() {
            *status = Status::error(game.over_text());
            continue;
        }
        if !model.human_to_move() {
            *status = Status::error("the AI is to move: wait, or press Move now");
            continue;
        }
        let p = press.cell;
        let mv = if game.capture_pending() {
            if game.counter(p).is_none() {
                *status = Status::error("first take one of the glowing counters");
                continue;
            }
            TriItOutMove::Capture(p as u8)
        } else {
            TriItOutMove::Place(p as u8)
        };
        intents.write(MoveIntent { mv, from_ai: false });
    }
}

/// Makes the entities match the model: the board's points for a new board, one counter entity per
/// counter (the one just placed dropping in, a captured one shrinking away).
fn sync(
    model: Res<Model<TriItOut>>,
    mut board: ResMut<LatticeBoard>,
    mut commands: Commands,
    everything: Query<Entity, With<LatticeEntity>>,
    counters: Query<(Entity, &Counter), Without<Vanish>>,
) {
    let game = &model.game;
    let lattice = game.lattice();
    let rebuilt = ensure_board(&mut commands, &mut board, lattice, everything.iter());
    let last = model.last_move();
    let mut present = vec![false; lattice.len];
    if !rebuilt {
        for (entity, counter) in &counters {
            if game.counter(counter.point) == Some(counter.owner) && !present[counter.point] {
                present[counter.point] = true;
            } else if last == Some(TriItOutMove::Capture(counter.point as u8)) {
                commands.entity(entity).insert(Vanish::default());
            } else {
                commands.entity(entity).despawn();
            }
        }
    }
    for (p, &shown) in present.iter().enumerate() {
        if let (Some(owner), false) = (game.counter(p), shown) {
            let mut counter = commands.spawn(counter_bundle(lattice, p, owner));
            if last == Some(TriItOutMove::Place(p as u8)) {
                counter.insert(DropIn::default());
            }
        }
    }
}

/// A counter entity of colour `owner` on point `p` (meshes are added by the view).
pub fn counter_bundle(lattice: &Lattice, p: usize, owner: u8) -> impl Bundle {
    (
        Counter { point: p, owner },
        LatticeEntity,
        DespawnOnExit(Screen::Playing),
        Transform::from_translation(point_center(lattice, p).extend(2.0)),
        Visibility::default(),
    )
}

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
        let s = super::lattice::SPACING;
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
            fill: FILL.map(&mut add),
            outline: OUTLINE.map(&mut add),
            glow_colour: add([0xff, 0xe0, 0x6a]),
            last: add([0xf5, 0xf2, 0xea]),
        }
    }
}

pub(super) fn view_plugin(app: &mut App) {
    app.init_resource::<Art>()
        .add_observer(dress_counter)
        .add_systems(
            Update,
            (paint, glow)
                .after(sync)
                .in_set(Step::View)
                .run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<TriItOut>>)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            overlay.run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<TriItOut>>)),
        );
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
    let game = &model.game;
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
    let capturable = model.game.capturable();
    let last = model.moves.iter().rev().find_map(|mv| match mv {
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

/// Row numbers and the hovered point's name; over a restricted point, the triangle that closes it.
fn overlay(
    mut contexts: EguiContexts,
    model: Res<Model<TriItOut>>,
    hovered: Res<Hovered>,
    camera: BoardCamera,
) -> Result {
    let game = &model.game;
    let lattice = game.lattice();
    let world = WorldPainter::new(contexts.ctx_mut()?, *camera);
    label_points(&world, lattice, &hovered);
    let Some(p) = hovered.0.filter(|&p| p < lattice.len) else { return Ok(()) };
    let Some((a, b)) = game.restricting_pair(p) else { return Ok(()) };
    let screen = |q: usize| world.to_screen(point_center(lattice, q));
    let (Some(pp), Some(pa), Some(pb)) = (screen(p), screen(a), screen(b)) else { return Ok(()) };
    let stroke = egui::Stroke::new(3.0, egui::Color32::from_rgb(0xff, 0xe0, 0x6a));
    world.painter.add(egui::Shape::convex_polygon(
        vec![pp, pa, pb],
        egui::Color32::from_rgba_unmultiplied(0xff, 0xe0, 0x6a, 40),
        stroke,
    ));
    Ok(())
}

/// Tri-It-Out's options: the board, the tie rule and the variant (`docs/rules/tri-it-out.md`).
pub fn options_ui(ui: &mut egui::Ui, options: &mut TriItOutOptions) {
    ui.label("Board");
    egui::ComboBox::from_id_salt("tio-board").width(260.0).selected_text(board_label(options.board)).show_ui(
        ui,
        |ui| {
            for board in Board::ALL {
                ui.selectable_value(&mut options.board, board, board_label(board));
            }
        },
    );
    ui.end_row();
    ui.label("A tie");
    ui.vertical(|ui| {
        ui.radio_value(&mut options.tie, TieRule::LastMoverLoses, "the player who moved last loses (Ludii; standard)")
            .on_hover_text("The designer's own implementation: the seats are even");
        ui.radio_value(&mut options.tie, TieRule::StuckPlayerLoses, "the player who cannot place loses (literal)")
            .on_hover_text(
                "The published sentence read literally: without captures the second player (Blue) wins \
                 nearly every game, whoever plays it",
            );
    });
    ui.end_row();
    ui.label("Variant");
    let mut any = options.variant == Variant::AnyMixedTriangle;
    ui.checkbox(&mut any, "capture from any mixed triangle")
        .on_hover_text("A capture may take from any mixed triangle on the board; keep placing until none is left");
    options.variant = if any { Variant::AnyMixedTriangle } else { Variant::Standard };
}

/// A board's name on the start screen: its id and its number of points.
fn board_label(board: Board) -> String {
    format!("{} ({} points)", board.id(), board.lattice().len)
}
