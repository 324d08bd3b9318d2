//! Trisq's view (`docs/rules/trisq.md`): the `N × N` grid of squares with Red's edges (top and bottom)
//! and Blue's (left and right) banded in their colours, and every placed trapezium an entity drawn
//! as its exact polygon. Hovering a square outlines the slots that may be played there now and lights
//! the one nearest the pointer; a click places it, or says why not. After a first piece the side
//! panel offers **End turn** (or Enter); while the turn may not end, the two pieces that touch at a
//! corner without a bridge are marked. The last turn's pieces carry a dot, the piece of the turn in
//! progress is lighter, and the winning chain is outlined in gold.

use bevy::picking::Pickable;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::{BoardCamera, BoardCell, CellClicked, Hovered, WorldPainter, fit_board};
use crate::app::Screen;
use crate::app::animation::DropIn;
use crate::app::games::{AppGame, Swatch};
use crate::app::hud::{PanelWidth, rules_paragraph};
use crate::app::input::KeyAction;
use crate::app::model::{Model, MoveIntent, Status, Step};
use crate::rules::geometry::trisq::{FILLING_H, FILLING_V, TrisqBoard};
use crate::rules::trisq::{NAMES, Trisq, TrisqMove, TrisqOptions};
use crate::rules::{Game, Outcome, Player};

/// A square's side in world units (pixels at camera scale 1); the rules' quarter unit is a fourth.
pub const SQUARE: f32 = 72.0;
const QUARTER: f32 = SQUARE / 4.0;
/// Red's and Blue's colours as sRGB bytes: a piece's fill, its outline, and the lighter fill of a
/// piece placed in the turn still in progress.
const FILL: [[u8; 3]; 2] = [[0xd2, 0x3c, 0x32], [0x2f, 0x6f, 0xd0]];
const OUTLINE: [[u8; 3]; 2] = [[0x6a, 0x14, 0x0e], [0x10, 0x2c, 0x60]];
const FRESH: [[u8; 3]; 2] = [[0xee, 0x86, 0x7c], [0x7c, 0xa8, 0xec]];
const GOLD: [u8; 3] = [0xf6, 0xc4, 0x3a];
const WARN: [u8; 3] = [0xff, 0x8a, 0x1e];

/// A square of the board (with [`BoardCell`], whose `cell` is the square's index `row·N + col`).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrisqSquare {
    /// The square's index, `row·N + col`.
    pub square: usize,
}

/// A trapezium on the board.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    /// Its slot ([`TrisqBoard`]'s index).
    pub slot: usize,
    /// Its colour: 0 Red, 1 Blue.
    pub owner: u8,
}

/// What a tile is marked with now (kept by the headless core, drawn by the view).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TileMarks {
    /// Placed in the last finished turn (a dot).
    pub last: bool,
    /// Placed in the turn in progress (lighter).
    pub this_turn: bool,
    /// Part of the winning chain (gold).
    pub chain: bool,
    /// One of the two pieces that touch at a corner without a bridge, so the turn may not end yet.
    pub blocker: bool,
}

/// Marks every entity of the Trisq board (squares, frame, tiles), so a new board replaces them.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct TrisqEntity;

/// A part of the board's frame drawn behind the squares.
#[derive(Component, Clone, Copy, Debug)]
enum Backdrop {
    /// The wooden frame around the grid.
    Frame,
    /// The dark ground showing between the squares as grid lines.
    Ground,
    /// A player's edge: 0 Red (top, bottom), 1 Blue (left, right); the rectangle's size.
    Band(u8, Vec2),
}

/// The side of the board whose entities exist, if any.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrisqSide(pub Option<usize>);

/// Where the pointer is over the board, in world units (set by the view from the cursor; tests
/// set it to aim at a slot). A press on a square places the slot it aims at ([`aimed_slot`]).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct SlotPointer(pub Option<Vec2>);

/// The legal moves of the position in play, by slot, kept while the position stands.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct TrisqLegal {
    /// `slots[s]`: placing into `s` is legal now.
    pub slots: Vec<bool>,
    /// `end` is legal now.
    pub end: bool,
}

// ---------------------------------------------------------------------------------------------
// Geometry: the rules' quarter units to the world.

/// A point in quarter units (`x` right, `y` down from the board's top-left corner) in world units,
/// the board centred on the origin, `y` up.
pub fn world_point(n: usize, x: f32, y: f32) -> Vec2 {
    let half = n as f32 * SQUARE / 2.0;
    Vec2::new(x * QUARTER - half, half - y * QUARTER)
}

/// A slot's four corners in world units, counter-clockwise.
pub fn slot_corners(board: &TrisqBoard, slot: usize) -> [Vec2; 4] {
    ccw(board.polygon[slot].map(|(x, y)| world_point(board.side, x as f32, y as f32)))
}

/// A slot's centre (the centroid of its area) in world units.
pub fn slot_centre(board: &TrisqBoard, slot: usize) -> Vec2 {
    centroid(&slot_corners(board, slot))
}

/// The centre of square `square` in world units.
pub fn square_centre(n: usize, square: usize) -> Vec2 {
    let (col, row) = (square % n, square / n);
    world_point(n, 4.0 * col as f32 + 2.0, 4.0 * row as f32 + 2.0)
}

fn signed_area(p: &[Vec2]) -> f32 {
    (0..p.len()).map(|i| p[i].perp_dot(p[(i + 1) % p.len()])).sum::<f32>() / 2.0
}

fn ccw(mut p: [Vec2; 4]) -> [Vec2; 4] {
    if signed_area(&p) < 0.0 {
        p.reverse();
    }
    p
}

fn centroid(p: &[Vec2]) -> Vec2 {
    let a = signed_area(p);
    let mut c = Vec2::ZERO;
    for i in 0..p.len() {
        let (u, v) = (p[i], p[(i + 1) % p.len()]);
        c += (u + v) * u.perp_dot(v);
    }
    c / (6.0 * a)
}

/// True when `at` lies in the counter-clockwise convex polygon `p` (its boundary included).
fn contains(p: &[Vec2], at: Vec2) -> bool {
    (0..p.len()).all(|i| (p[(i + 1) % p.len()] - p[i]).perp_dot(at - p[i]) >= -1e-3)
}

/// The convex counter-clockwise polygon `p` with every side moved inwards by `d`.
fn inset(p: &[Vec2], d: f32) -> Vec<Vec2> {
    let n = p.len();
    let line = |i: usize| {
        let dir = (p[(i + 1) % n] - p[i]).normalize();
        (p[i] + dir.perp() * d, dir)
    };
    (0..n)
        .map(|i| {
            let (a, u) = line((i + n - 1) % n);
            let (b, v) = line(i);
            a + u * (b - a).perp_dot(v) / u.perp_dot(v)
        })
        .collect()
}

/// The slots of `square` (8, the four of filling H then the four of V).
fn square_slots(square: usize) -> std::ops::Range<usize> {
    8 * square..8 * square + 8
}

/// The slot a press on `square` places: among the slots still available there, one under the
/// pointer, legal ones first, then the one whose centre is nearest (the square's centre stands for
/// a pointer elsewhere). `None` when the square has no free slot.
pub fn aimed_slot(game: &Trisq, legal: &TrisqLegal, square: usize, pointer: Option<Vec2>) -> Option<usize> {
    let board = game.board();
    if square >= board.side * board.side {
        return None;
    }
    let at = pointer.unwrap_or_else(|| square_centre(board.side, square));
    square_slots(square).filter(|&s| game.available(s)).min_by(|&a, &b| {
        let key = |s: usize| {
            let inside = contains(&slot_corners(board, s), at);
            (!inside, !legal.slots.get(s).copied().unwrap_or(false))
        };
        key(a).cmp(&key(b)).then(slot_centre(board, a).distance(at).total_cmp(&slot_centre(board, b).distance(at)))
    })
}

/// The square's name: `c4`.
fn square_name(n: usize, square: usize) -> String {
    format!("{}{}", (b'a' + (square % n) as u8) as char, square / n + 1)
}

/// The pieces of the last finished turn and of the turn in progress, found by replaying the moves
/// and cutting them where the rules end a turn ([`Game::is_turn_boundary`]).
fn last_turns(model: &Model<Trisq>) -> (Vec<usize>, Vec<usize>) {
    let mut game = model.start.clone();
    let (mut last, mut current) = (Vec::new(), Vec::new());
    for &mv in &model.moves {
        game.play_unchecked(mv);
        current.extend(mv.slot());
        if game.is_turn_boundary() && !current.is_empty() {
            last = std::mem::take(&mut current);
        }
    }
    (last, current)
}

// ---------------------------------------------------------------------------------------------
// The app's and the side panel's words.

impl AppGame for Trisq {
    fn display_name(&self) -> String {
        "Trisq".to_string()
    }
    fn new_game_text(&self) -> String {
        let n = self.board().side;
        format!("New game: Trisq on a {n}×{n} board. Red (top and bottom) places one piece first.")
    }
    fn over_text(&self) -> &'static str {
        "the game is over: a chain joins a player's edges"
    }
    fn played_text(&self, mover: &str, text: &str) -> String {
        if text == "end" {
            format!("{mover} ended the turn")
        } else if let Some(first) = self.first_placed() {
            format!("{mover} placed {} and {text}", self.slot_name(first))
        } else {
            format!("{mover} placed {text}")
        }
    }

    fn menu_entries() -> Vec<(&'static str, TrisqOptions)> {
        vec![("Trisq", TrisqOptions::default())]
    }
    fn seat_names(_: &TrisqOptions) -> &'static [&'static str] {
        &["Red (top–bottom, first)", "Blue (left–right)"]
    }
    fn summary(_: &TrisqOptions) -> &'static str {
        "Place one or two trapezia a turn; two of yours touching at a corner need a third touching both.\n\
         Join your two edges with a chain of pieces sharing sides to win."
    }
    fn options_ui(ui: &mut egui::Ui, options: &mut TrisqOptions) {
        ui.label("Board size");
        ui.vertical(|ui| {
            ui.add(egui::Slider::new(&mut options.size, 6..=9).suffix(" squares a side"));
            ui.label(egui::RichText::new("6–9, 8 standard").small().weak());
        });
    }
    fn plugin(app: &mut App) {
        plugin(app);
    }
    fn view_plugin(app: &mut App) {
        view_plugin(app);
    }
    fn click_points(world: &mut World, mv: TrisqMove) -> Result<Vec<Vec2>, String> {
        let board = world.resource::<Model<Trisq>>().game.board();
        let slot = mv.slot().ok_or("end is the End turn button (or Enter), not a press on the board")?;
        Ok(vec![slot_centre(board, slot)])
    }

    fn subtitle(&self) -> String {
        let n = self.board().side;
        format!("{n}×{n}")
    }
    fn seat_swatches(&self, player: Player) -> Vec<Swatch> {
        vec![swatch(player.index())]
    }
    fn hint(model: &Model<Trisq>) -> String {
        let game = &model.game;
        if game.first_placed().is_some() {
            match game.end_blocker() {
                Some((a, b)) => format!(
                    "Place a second piece: {} and {} touch at a corner with no piece of yours along both \
                     (marked), so the turn cannot end yet.",
                    game.slot_name(a),
                    game.slot_name(b)
                ),
                None => "Place a second piece, or End turn (Enter).".to_string(),
            }
        } else if game.ply() == 0 {
            "Red's first turn is one piece. Hover a square: its free slots are outlined, the one nearest the \
             pointer lit. Click to place it."
                .to_string()
        } else {
            "Hover a square: its free slots are outlined, the one nearest the pointer lit. Click to place it; \
             one or two pieces a turn."
                .to_string()
        }
    }
    fn actions(ui: &mut egui::Ui, model: &Model<Trisq>, intents: &mut MessageWriter<MoveIntent<TrisqMove>>) {
        let game = &model.game;
        let Some(mover) = game.to_move() else { return };
        let name = NAMES[mover.index()];
        let placed = game.first_placed().is_some() as usize;
        let of = if game.ply() == 0 { 1 } else { 2 };
        ui.horizontal(|ui| {
            crate::app::hud::stone(ui, swatch(mover.index()), 6.0);
            ui.label(format!("{name}'s turn: {placed} of {of} piece{} placed", if of == 1 { "" } else { "s" }));
        });
        if placed == 1 && model.human_to_move() {
            let blocked = game.end_blocker().is_some();
            let end = ui.button("End turn").on_hover_text(if blocked {
                "Refused now: two of your pieces touch at a corner without a bridge"
            } else {
                "Stop at one piece this turn (Enter)"
            });
            if end.clicked() {
                intents.write(MoveIntent { mv: TrisqMove::END, from_ai: false });
            }
        }
    }
    fn rules(ui: &mut egui::Ui) {
        let para = rules_paragraph;
        para(
            ui,
            "Board and goal",
            "A square grid, 8×8 as standard (6–9). Red owns the top and bottom edges, Blue the left and right \
             ones. Join your two edges with a chain of your pieces, each sharing part of a side with the next.",
        );
        para(
            ui,
            "The piece",
            "A trapezium half a square high with parallel sides ¼ and ¾ of a square, one leg square to them, \
             the other at 45°. It is placed front side up: turned, never flipped.",
        );
        draw_pieces(ui);
        para(
            ui,
            "Slots",
            "Four pieces fill a square in exactly two ways, H and V, so each square has 8 slots. Once a square \
             holds a piece, only the slots of that piece's filling remain in it.",
        );
        para(
            ui,
            "A turn",
            "Red begins with one piece; after that each turn places one or two pieces of your colour. At the \
             end of your turn, any two of your pieces that touch at a single point need a third piece of \
             yours sharing a side with both (a bridge). A turn that cannot end with one piece needs a second.",
        );
        para(
            ui,
            "End",
            "The first chain joining a player's two edges wins at once, even in the middle of a turn. There \
             are no draws.",
        );
        ui.label(
            egui::RichText::new(
                "Dots mark the last turn's pieces; the piece of the turn in progress is lighter; the winning \
                 chain is outlined in gold.",
            )
            .weak(),
        );
    }
    fn game_over(ui: &mut egui::Ui, model: &Model<Trisq>, outcome: &Outcome) {
        let game = &model.game;
        let Some(winner) = outcome.winners().first().map(|w| w.index()) else { return };
        let edges = if winner == 0 { "top and bottom" } else { "left and right" };
        let chain = game.winning_chain().len();
        ui.label(format!("{} joined {edges} with a chain of {chain} pieces.", NAMES[winner]));
        ui.label(egui::RichText::new("The chain is outlined in gold.").weak());
    }
    fn mover_swatch(before: &Trisq) -> Swatch {
        swatch(before.to_move().map_or(0, |p| p.index()))
    }
    const SCORED: bool = false;
    /// Red's opening turn is one piece; every later row is one turn (two pieces, or one and `end`).
    const FIRST_ROW_PLIES: usize = 1;
}

/// A colour's swatch for the side panel.
fn swatch(colour: usize) -> Swatch {
    super::lattice::swatch(FILL[colour], OUTLINE[colour])
}

fn colour32([r, g, b]: [u8; 3]) -> egui::Color32 {
    egui::Color32::from_rgb(r, g, b)
}

fn translucent([r, g, b]: [u8; 3], alpha: u8) -> egui::Color32 {
    egui::Color32::from_rgba_unmultiplied(r, g, b, alpha)
}

/// The rules window's drawing: the piece with its measures, then a square of each filling with
/// its four slots numbered.
fn draw_pieces(ui: &mut egui::Ui) {
    let unit = 92.0;
    let (response, painter) =
        ui.allocate_painter(egui::vec2(ui.available_width().min(420.0), unit + 44.0), egui::Sense::hover());
    let rect = response.rect;
    let ink = ui.visuals().text_color();
    let weak = ui.visuals().weak_text_color();
    let font = egui::FontId::proportional(13.0);
    let gap = (rect.width() - 3.0 * unit) / 4.0;
    let origin = |k: usize| egui::pos2(rect.left() + gap + k as f32 * (unit + gap), rect.top() + 4.0);
    let at = |o: egui::Pos2, (x, y): (i32, i32)| o + egui::vec2(x as f32, y as f32) * unit / 4.0;
    // The piece alone, larger: H's slot 0 at a square's scale, its sides measured.
    let o = origin(0) + egui::vec2(0.0, unit * 0.25);
    let piece = FILLING_H[0];
    painter.add(egui::Shape::convex_polygon(
        piece.iter().map(|&p| at(o, p)).collect(),
        colour32(FILL[0]),
        egui::Stroke::new(1.5, colour32(OUTLINE[0])),
    ));
    painter.text(at(o, (1, 0)) + egui::vec2(4.0, -2.0), egui::Align2::CENTER_BOTTOM, "¾", font.clone(), ink);
    painter.text(at(o, (0, 2)) + egui::vec2(2.0, 2.0), egui::Align2::LEFT_TOP, "¼", font.clone(), ink);
    painter.text(at(o, (0, 1)) + egui::vec2(-4.0, 0.0), egui::Align2::RIGHT_CENTER, "½", font.clone(), ink);
    painter.text(at(o, (2, 1)) + egui::vec2(4.0, 0.0), egui::Align2::LEFT_CENTER, "45°", font.clone(), weak);
    painter.text(
        egui::pos2(o.x + unit * 0.4, rect.bottom() - 4.0),
        egui::Align2::CENTER_BOTTOM,
        "the piece",
        font.clone(),
        weak,
    );
    // The two fillings, slots 0–3 in alternating shades.
    for (k, (filling, name)) in [(FILLING_H, "filling H"), (FILLING_V, "filling V")].into_iter().enumerate() {
        let o = origin(k + 1);
        for (i, slot) in filling.iter().enumerate() {
            let fill = if i % 3 == 0 { FILL[k] } else { FRESH[k] };
            let corners: Vec<egui::Pos2> = slot.iter().map(|&p| at(o, p)).collect();
            let centre = corners.iter().fold(egui::Vec2::ZERO, |c, p| c + p.to_vec2()) / 4.0;
            painter.add(egui::Shape::convex_polygon(
                corners,
                colour32(fill),
                egui::Stroke::new(1.5, colour32(OUTLINE[k])),
            ));
            painter.text(
                centre.to_pos2(),
                egui::Align2::CENTER_CENTER,
                i.to_string(),
                font.clone(),
                egui::Color32::WHITE,
            );
        }
        painter.rect_stroke(
            egui::Rect::from_min_size(o, egui::vec2(unit, unit)),
            0.0,
            egui::Stroke::new(1.0, weak),
            egui::StrokeKind::Middle,
        );
        painter.text(
            egui::pos2(o.x + unit / 2.0, rect.bottom() - 4.0),
            egui::Align2::CENTER_BOTTOM,
            name,
            font.clone(),
            weak,
        );
    }
    ui.add_space(6.0);
}

// ---------------------------------------------------------------------------------------------
// The headless core: legal moves, clicks, entities, marks.

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TrisqSide>()
        .init_resource::<SlotPointer>()
        .init_resource::<TrisqLegal>()
        .add_systems(OnExit(Screen::Playing), |mut side: ResMut<TrisqSide>, mut pointer: ResMut<SlotPointer>| {
            side.0 = None;
            pointer.0 = None;
        })
        .add_systems(
            Update,
            (
                // After the model changes (or a new one is inserted), before the views and the next
                // frame's clicks read them.
                refresh_legal.after(Step::Apply).before(Step::View).run_if(resource_exists_and_changed::<Model<Trisq>>),
                (clicks, keys).in_set(Step::Intents).run_if(resource_exists::<Model<Trisq>>),
                sync.in_set(Step::View).run_if(resource_exists_and_changed::<Model<Trisq>>),
                mark_tiles.after(sync).in_set(Step::View).run_if(resource_exists_and_changed::<Model<Trisq>>),
            ),
        );
}

/// The legal moves, once per position (hover and clicks read them every frame).
fn refresh_legal(model: Res<Model<Trisq>>, mut legal: ResMut<TrisqLegal>) {
    let game = &model.game;
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut fresh = TrisqLegal { slots: vec![false; game.board().slots()], end: false };
    for mv in moves {
        match mv.slot() {
            Some(s) => fresh.slots[s] = true,
            None => fresh.end = true,
        }
    }
    legal.set_if_neq(fresh);
}

/// A press on a square places the slot the pointer aims at; a slot that may not be played now is
/// refused with the rules' reason and nothing changes.
fn clicks(
    mut presses: MessageReader<CellClicked>,
    model: Res<Model<Trisq>>,
    legal: Res<TrisqLegal>,
    pointer: Res<SlotPointer>,
    mut status: ResMut<Status>,
    mut intents: MessageWriter<MoveIntent<TrisqMove>>,
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
        let n = game.board().side;
        if press.cell >= n * n {
            continue;
        }
        let Some(slot) = aimed_slot(game, &legal, press.cell, pointer.0) else {
            *status = Status::error(format!("{}: no slot is left in this square", square_name(n, press.cell)));
            continue;
        };
        let mv = TrisqMove::place(slot);
        if legal.slots.get(slot).copied().unwrap_or(false) {
            intents.write(MoveIntent { mv, from_ai: false });
            continue;
        }
        let name = game.slot_name(slot);
        let why = match game.clone().play(mv) {
            Err(e) => e.reason,
            // The cache lags the position by a frame at most; the model decides.
            Ok(()) => {
                intents.write(MoveIntent { mv, from_ai: false });
                continue;
            }
        };
        *status = Status::error(if why.starts_with(&name) { why } else { format!("{name}: {why}") });
    }
}

/// Makes the entities match the model: the squares and frame for a new board size, one tile per
/// piece (the one just placed dropping in), none for undone ones.
fn sync(
    model: Res<Model<Trisq>>,
    mut side: ResMut<TrisqSide>,
    mut commands: Commands,
    everything: Query<Entity, With<TrisqEntity>>,
    tiles: Query<(Entity, &Tile)>,
) {
    let game = &model.game;
    let board = game.board();
    let n = board.side;
    let rebuilt = side.0 != Some(n);
    if rebuilt {
        for entity in &everything {
            commands.entity(entity).despawn();
        }
        spawn_board(&mut commands, n);
        side.0 = Some(n);
    }
    let last = model.last_move().and_then(|mv| mv.slot());
    let mut present = vec![false; board.slots()];
    if !rebuilt {
        for (entity, tile) in &tiles {
            if tile.slot < board.slots() && game.piece(tile.slot) == Some(tile.owner) && !present[tile.slot] {
                present[tile.slot] = true;
            } else {
                commands.entity(entity).despawn();
            }
        }
    }
    for (slot, &shown) in present.iter().enumerate() {
        if let (Some(owner), false) = (game.piece(slot), shown) {
            let mut tile = commands.spawn(tile_bundle(board, slot, owner));
            if Some(slot) == last {
                tile.insert(DropIn::default());
            }
        }
    }
}

fn spawn_board(commands: &mut Commands, n: usize) {
    let span = n as f32 * SQUARE;
    let part = |backdrop: Backdrop, at: Vec3| {
        (
            backdrop,
            TrisqEntity,
            DespawnOnExit(Screen::Playing),
            Transform::from_translation(at),
            Visibility::default(),
            Pickable::IGNORE,
        )
    };
    commands.spawn(part(Backdrop::Frame, Vec3::new(0.0, 0.0, 0.0)));
    commands.spawn(part(Backdrop::Ground, Vec3::new(0.0, 0.0, 0.2)));
    let off = span / 2.0 + BAND_GAP + BAND / 2.0;
    let long = span;
    for sign in [-1.0, 1.0] {
        commands.spawn(part(Backdrop::Band(0, Vec2::new(long, BAND)), Vec3::new(0.0, sign * off, 0.4)));
        commands.spawn(part(Backdrop::Band(1, Vec2::new(BAND, long)), Vec3::new(sign * off, 0.0, 0.4)));
    }
    for square in 0..n * n {
        commands.spawn((
            BoardCell { cell: square },
            TrisqSquare { square },
            TrisqEntity,
            DespawnOnExit(Screen::Playing),
            Transform::from_translation(square_centre(n, square).extend(1.0)),
            Visibility::default(),
        ));
    }
}

/// A tile entity of colour `owner` in `slot`, centred on the slot's centre so that it drops in
/// about it (meshes are added by the view).
pub fn tile_bundle(board: &TrisqBoard, slot: usize, owner: u8) -> impl Bundle {
    (
        Tile { slot, owner },
        TileMarks::default(),
        TrisqEntity,
        DespawnOnExit(Screen::Playing),
        Transform::from_translation(slot_centre(board, slot).extend(2.0)),
        Visibility::default(),
    )
}

/// Sets every tile's marks when the model changes: the last finished turn's pieces, the turn in
/// progress, the winning chain, and the pair that keeps the turn from ending.
fn mark_tiles(model: Res<Model<Trisq>>, mut tiles: Query<(&Tile, &mut TileMarks)>) {
    let game = &model.game;
    let (last, current) = last_turns(&model);
    let chain = game.winning_chain();
    let blocker = if model.human_to_move() { game.end_blocker() } else { None };
    for (tile, mut marks) in &mut tiles {
        let s = tile.slot;
        let want = TileMarks {
            last: last.contains(&s),
            this_turn: current.contains(&s),
            chain: chain.contains(&s),
            blocker: blocker.is_some_and(|(a, b)| a == s || b == s),
        };
        marks.set_if_neq(want);
    }
}

// ---------------------------------------------------------------------------------------------
// The view: meshes, colours, the hover, labels and the camera.

/// The coloured edge bands: their thickness and their gap to the grid.
const BAND: f32 = SQUARE * 0.16;
const BAND_GAP: f32 = SQUARE * 0.07;
/// The frame's margin around the grid.
const MARGIN: f32 = SQUARE * 0.36;
/// A tile's dark outline, in world units.
const RIM: f32 = 2.2;

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
            band: FILL.map(&mut add),
            fill: FILL.map(&mut add),
            fresh: FRESH.map(&mut add),
            outline: OUTLINE.map(&mut add),
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

pub(super) fn view_plugin(app: &mut App) {
    app.init_resource::<Art>()
        .add_observer(dress_square)
        .add_observer(dress_backdrop)
        .add_observer(dress_tile)
        .add_systems(
            Update,
            aim.before(Step::Intents).run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<Trisq>>)),
        )
        .add_systems(
            Update,
            paint
                .after(mark_tiles)
                .in_set(Step::View)
                .run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<Trisq>>)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            overlay.run_if(in_state(Screen::Playing).and_then(resource_exists::<Model<Trisq>>)),
        )
        .add_systems(PostUpdate, fit_camera.run_if(|side: Res<TrisqSide>| side.0.is_some()));
}

fn dress_square(
    add: On<Add, TrisqSquare>,
    squares: Query<&TrisqSquare>,
    side: Res<TrisqSide>,
    art: Res<Art>,
    mut commands: Commands,
) {
    let Ok(square) = squares.get(add.entity) else { return };
    let n = side.0.unwrap_or(1).max(1);
    let shade = (square.square % n + square.square / n) % 2;
    commands.entity(add.entity).insert((Mesh2d(art.square.clone()), MeshMaterial2d(art.squares[shade].clone())));
}

fn dress_backdrop(
    add: On<Add, Backdrop>,
    parts: Query<&Backdrop>,
    side: Res<TrisqSide>,
    art: Res<Art>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut commands: Commands,
) {
    let Ok(part) = parts.get(add.entity) else { return };
    let span = side.0.unwrap_or(1) as f32 * SQUARE;
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

/// Where the cursor is on the board, for the slot it aims at.
fn aim(
    window: Single<&Window, With<PrimaryWindow>>,
    camera: BoardCamera,
    hovered: Res<Hovered>,
    mut pointer: ResMut<SlotPointer>,
) {
    let (camera, at, _) = *camera;
    let world = window
        .cursor_position()
        .filter(|_| hovered.0.is_some())
        .and_then(|cursor| camera.viewport_to_world_2d(at, cursor).ok());
    if pointer.0 != world {
        pointer.0 = world;
    }
}

/// Tiles' colours from their marks; the hovered square a person may play in is lit.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn paint(
    model: Res<Model<Trisq>>,
    hovered: Res<Hovered>,
    legal: Res<TrisqLegal>,
    art: Res<Art>,
    mut squares: Query<(&TrisqSquare, &mut MeshMaterial2d<ColorMaterial>), (Without<Tile>, Without<TileFill>)>,
    tiles: Query<(Entity, &Tile, &TileMarks, &Children)>,
    mut rims: Query<&mut MeshMaterial2d<ColorMaterial>, (With<Tile>, Without<TrisqSquare>, Without<TileFill>)>,
    mut fills: Query<&mut MeshMaterial2d<ColorMaterial>, (With<TileFill>, Without<Tile>, Without<TrisqSquare>)>,
    mut dots: Query<&mut Visibility, With<LastDot>>,
) {
    let game = &model.game;
    let n = game.board().side;
    let lit = hovered.0.filter(|&sq| {
        sq < n * n && model.human_to_move() && square_slots(sq).any(|s| legal.slots.get(s).copied().unwrap_or(false))
    });
    for (square, mut material) in &mut squares {
        let want = if lit == Some(square.square) {
            &art.hover
        } else {
            &art.squares[(square.square % n + square.square / n) % 2]
        };
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

/// Column letters and row numbers; the free slots of squares that have a filling, faintly; the
/// hovered square's playable slots outlined and the aimed one lit; the pair that keeps the turn from
/// ending, and the winning chain, outlined.
#[allow(clippy::too_many_arguments)]
fn overlay(
    mut contexts: EguiContexts,
    model: Res<Model<Trisq>>,
    hovered: Res<Hovered>,
    legal: Res<TrisqLegal>,
    pointer: Res<SlotPointer>,
    time: Res<Time>,
    camera: BoardCamera,
    tiles: Query<(&Tile, &TileMarks)>,
) -> Result {
    let game = &model.game;
    let board = game.board();
    let n = board.side;
    let ctx = contexts.ctx_mut()?;
    let world = WorldPainter::new(ctx, *camera);
    let scale = world.scale.max(0.05);
    let painter = &world.painter;
    let font = egui::FontId::monospace(15.0 / scale);
    let ink = egui::Color32::from_rgb(0xb8, 0xae, 0x9c);
    let edge = n as f32 * SQUARE / 2.0 + BAND_GAP + BAND + MARGIN + SQUARE * 0.3;
    for k in 0..n {
        let along = -(n as f32) * SQUARE / 2.0 + (k as f32 + 0.5) * SQUARE;
        let letter = ((b'a' + k as u8) as char).to_string();
        world.label(Vec2::new(along, edge), letter.clone(), &font, ink);
        world.label(Vec2::new(along, -edge), letter, &font, ink);
        world.label(Vec2::new(-edge, -along), format!("{}", k + 1), &font, ink);
        world.label(Vec2::new(edge, -along), format!("{}", k + 1), &font, ink);
    }
    let screen = |slot: usize| -> Option<Vec<egui::Pos2>> {
        slot_corners(board, slot).iter().map(|&p| world.to_screen(p)).collect()
    };
    let outline = |slot: usize, fill: egui::Color32, stroke: egui::Stroke| {
        if let Some(points) = screen(slot) {
            painter.add(egui::Shape::convex_polygon(points, fill, stroke));
        }
    };
    // Squares with a filling show where their remaining slots are.
    let faint = egui::Stroke::new(1.0, egui::Color32::from_rgba_unmultiplied(0x6a, 0x55, 0x3a, 150));
    for square in 0..n * n {
        let slots = square_slots(square);
        if slots.clone().all(|s| game.piece(s).is_none()) {
            continue;
        }
        for s in slots.filter(|&s| game.available(s)) {
            outline(s, egui::Color32::TRANSPARENT, faint);
        }
    }
    // The hovered square: its playable slots, and the one a click would place.
    if let (Some(mover), Some(square)) = (game.to_move(), hovered.0.filter(|&sq| sq < n * n))
        && model.human_to_move()
    {
        let c = mover.index();
        let aimed = aimed_slot(game, &legal, square, pointer.0);
        // The aimed slot's filling clearly, the other one (which a click there would rule out) faintly.
        let thin = egui::Stroke::new(1.6, translucent(OUTLINE[c], 220));
        let faint = egui::Stroke::new(1.0, translucent(OUTLINE[c], 80));
        for s in square_slots(square).filter(|&s| legal.slots.get(s).copied().unwrap_or(false)) {
            let same = aimed.is_some_and(|a| a / 4 == s / 4);
            outline(s, egui::Color32::TRANSPARENT, if same { thin } else { faint });
        }
        if let Some(s) = aimed {
            if legal.slots[s] {
                outline(s, translucent(FILL[c], 235), egui::Stroke::new(2.5, colour32(OUTLINE[c])));
            } else {
                outline(
                    s,
                    egui::Color32::from_rgba_unmultiplied(0x60, 0x60, 0x60, 90),
                    egui::Stroke::new(2.0, colour32(WARN)),
                );
            }
            if let Some(at) = world.to_screen(slot_centre(board, s)) {
                let label = egui::FontId::proportional(13.0);
                let text = game.slot_name(s);
                let pos = at + egui::vec2(0.0, -SQUARE * 0.55 / scale);
                let galley = painter.layout_no_wrap(text, label, egui::Color32::WHITE);
                let rect = egui::Align2::CENTER_BOTTOM.anchor_size(pos, galley.size()).expand(3.0);
                painter.rect_filled(rect, 3.0, egui::Color32::from_black_alpha(170));
                painter.galley(rect.min + egui::vec2(3.0, 3.0), galley, egui::Color32::WHITE);
            }
        }
    }
    // The pair that keeps the turn from ending, pulsing, with the point where they touch.
    if model.human_to_move()
        && let Some((a, b)) = game.end_blocker()
    {
        let pulse = 0.5 + 0.5 * (time.elapsed_secs() * 5.0).sin();
        let alpha = (120.0 + 120.0 * pulse) as u8;
        for s in [a, b] {
            outline(s, egui::Color32::TRANSPARENT, egui::Stroke::new(3.0, translucent(WARN, alpha)));
        }
        if let Some(p) = touch_point(board, a, b).and_then(|p| world.to_screen(p)) {
            painter.circle_stroke(p, (5.0 + 3.0 * pulse) / scale.max(0.5), egui::Stroke::new(2.5, colour32(WARN)));
        }
    }
    // The winning chain, as the tiles' marks hold it.
    for (tile, _) in tiles.iter().filter(|(_, marks)| marks.chain) {
        outline(tile.slot, egui::Color32::TRANSPARENT, egui::Stroke::new(3.0, colour32(GOLD)));
    }
    Ok(())
}

/// The point where two point-adjacent slots touch: a corner of one on the other's boundary.
fn touch_point(board: &TrisqBoard, a: usize, b: usize) -> Option<Vec2> {
    let (pa, pb) = (slot_corners(board, a), slot_corners(board, b));
    let on = |poly: &[Vec2; 4], p: Vec2| {
        (0..4).any(|i| {
            let (u, v) = (poly[i], poly[(i + 1) % 4]);
            (v - u).perp_dot(p - u).abs() < 1e-2 && (p - u).dot(p - v) <= 1e-2
        })
    };
    pa.iter().copied().find(|&p| on(&pb, p)).or_else(|| pb.iter().copied().find(|&p| on(&pa, p)))
}

/// Scales and shifts the camera so the board and its labels fill the window left of the side panel.
fn fit_camera(
    side: Res<TrisqSide>,
    panel: Option<Res<PanelWidth>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Transform, &mut Projection), With<Camera2d>>,
) {
    let Some(n) = side.0 else { return };
    let panel = panel.map_or(0.0, |p| p.0);
    let extent = n as f32 * SQUARE + 2.0 * (BAND_GAP + BAND + MARGIN + SQUARE * 0.62);
    fit_board(camera, &window, [0.0, panel], Vec2::new(extent, extent), 0.0);
}

/// Enter ends the turn after its first piece (through the input plugin).
fn keys(
    mut actions: MessageReader<KeyAction>,
    model: Res<Model<Trisq>>,
    mut intents: MessageWriter<MoveIntent<TrisqMove>>,
) {
    for action in actions.read() {
        if *action == KeyAction::EndTurn && model.human_to_move() && model.game.first_placed().is_some() {
            intents.write(MoveIntent { mv: TrisqMove::END, from_ai: false });
        }
    }
}
