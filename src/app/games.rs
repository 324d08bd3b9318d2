//! The app's game registry: [`AppGame`], everything the app needs of one game beyond its rules
//! (names and status words, the start screen's entries, the side panel's words, the view's
//! plugins), and [`each_game`], which walks the one list of the games ([`crate::for_each_game`]):
//! the start screen, the model and AI plugins, the side panels, share links and the page hooks are
//! all derived from it.
//!
//! A new game is a rules module (`src/rules/<game>`), a view folder (`src/app/board/<game>/`, whose
//! `mod.rs` implements [`AppGame`]) and one line in the list of games, [`crate::for_each_game`].

use bevy::prelude::*;
use bevy_egui::egui;

use super::flow::MoveIntent;
use crate::ai::Level;
use crate::rules::{Knowledge, Outcome, Player};

pub use super::ui::Swatch;

/// A game's fixed words and facts ([`AppGame::INFO`]).
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The status line when a move is sent after the end ("the game is over: the pawn is trapped").
    pub over_text: &'static str,
    /// What [`AppGame::live_score`] counts, as a caption over the scores ("best group: Cores
    /// reached").
    pub score_caption: &'static str,
    /// The game also saves in Pentobi's format (`.blksgf`).
    pub sgf: bool,
    /// The result is a score to show; false where it only says who won (Trisq's connection), and
    /// the panel names the winner instead of "1 point".
    pub scored: bool,
    /// The players are Black and White (Trike, TriCore): the hint is drawn in a colour, not in
    /// black ink ([`crate::app::palette::Palette::hint_black_and_white`]).
    pub black_and_white: bool,
    /// Every move is made by pressing cells, so the keyboard cursor plays it
    /// ([`crate::app::board::cursor`]).
    pub cursor: bool,
}

impl GameInfo {
    /// A game that keeps a score under the caption "score" and saves only as JSON.
    pub const fn new(over_text: &'static str) -> GameInfo {
        GameInfo { over_text, score_caption: "score", sgf: false, scored: true, black_and_white: false, cursor: false }
    }
}

/// What the app needs of a game: implemented once per game in `src/app/board/<game>/mod.rs`,
/// each method a door to the file of the view that holds the job.
pub trait AppGame: Knowledge {
    // ----- Names and the status line

    /// The game's name as a heading: "Trike", "Blokus Trigon Two-Player".
    fn display_name(&self) -> String;
    /// The status line of a new game ("New game: Trike on a board of side 13").
    fn new_game_text(&self) -> String;
    /// The game's fixed words and facts: they never depend on the position (OpenSpiel's
    /// `GameType`).
    const INFO: GameInfo;
    /// What the status line says of a move just played by `mover` (`text` in notation).
    fn played_text(&self, mover: &str, text: &str) -> String {
        format!("{mover} played {text}")
    }

    // ----- The start screen

    /// The start screen's entries of this game: a name and the options it starts with (Trigon: one
    /// per variant). Default: the game's name and default options.
    fn menu_entries() -> Vec<(&'static str, Self::Options)>;
    /// The seats' names on the start screen, in the order the seats first move.
    fn seat_names(options: &Self::Options) -> &'static [&'static str];
    /// Two lines on the game under the start screen's Start button.
    fn summary(options: &Self::Options) -> &'static str;
    /// The start screen's rows for the game's options (a label, then the control; `ui` is a
    /// two-column grid). Default: none.
    fn options_ui(_ui: &mut egui::Ui, _options: &mut Self::Options) {}
    /// What AI level `level` is a match for in this game, as measured against another program
    /// ("about Pentobi level 7"), for the start screen's hover text on the level. Default: none.
    fn level_strength(_level: Level) -> Option<&'static str> {
        None
    }

    // ----- The side panel

    /// The side panel's heading (short: the panel is narrow).
    fn heading(&self) -> String {
        self.display_name()
    }
    /// Beside the heading: "board 13".
    fn subtitle(&self) -> String;
    /// The colours a seat plays (Trigon two-player: two).
    fn seat_swatches(&self, player: Player) -> Vec<Swatch>;
    /// The seat's score while the game runs, if the game keeps one.
    fn live_score(&self, _player: Player) -> Option<i32> {
        None
    }
    /// What a person to move should do.
    fn hint(&self) -> String;
    /// Buttons of the game's own (Trike: Swap), below the status, enabled when `may_act` (a person
    /// is to move); a press adds its move to `intents`.
    fn actions(&self, _ui: &mut egui::Ui, _may_act: bool, _intents: &mut Vec<MoveIntent<Self::Move>>) {}
    /// The rules window's text (`docs/rules/<game>.md` in a player's words).
    fn rules(ui: &mut egui::Ui);
    /// The game-over window below its winner line: scores and how they came about.
    fn game_over(&self, ui: &mut egui::Ui, outcome: &Outcome);
    /// The colour of the mover in `before` (the position a move is played in), for the move list.
    fn mover_swatch(before: &Self) -> Swatch;
    /// A move's text in the move list.
    fn list_text(before: &Self, mv: Self::Move) -> String {
        before.move_text(mv)
    }
    /// Turns per row of the move list: a round, so that each column is one seat's (Trigon: one per
    /// colour). Default: the number of players.
    fn turns_per_row(&self) -> usize {
        self.num_players()
    }

    // ----- The view

    /// The view's headless part: the board's entities kept in step with [`Model<Self>`](crate::app::model::Model), and presses
    /// turned into move intents (runs under `MinimalPlugins` in the tests).
    fn plugin(app: &mut App);
    /// The drawn part: meshes and colours, overlays, the camera fit.
    fn view_plugin(app: &mut App);
    /// Where a person presses, in world units and in order, to play `mv` in the model's position
    /// (Trike: the pawn's destination; TriCore's drive: the Ring, then its destination). May set the
    /// view's own state first, as a person would before pressing (Trigon: chooses the piece and
    /// its orientation in the chooser). For the page's test hook (`triboard_click_points`).
    ///
    /// # Errors
    /// Why no presses make it (say, a move the view cannot make by pointing).
    fn click_points(world: &mut World, mv: Self::Move) -> Result<Vec<Vec2>, String>;
    /// Where `mv`, a legal move in this position, is on the board in world units: the cells or
    /// slots it fills, the points it marks, the way a piece goes. Hints, review and the heat map
    /// draw it ([`crate::app::board::marks`]); empty for a move with no place (a pass, a swap).
    fn move_marks(&self, mv: Self::Move) -> MoveMarks;
}

/// Something done once per game type: [`each_game`] calls [`ForEachGame::game`] for every game.
pub trait ForEachGame {
    /// Does it for game type `G`.
    fn game<G: AppGame>(&mut self);
}

/// Calls `each` for every game of the one list ([`crate::for_each_game`]), in the start screen's
/// order.
pub fn each_game(each: &mut impl ForEachGame) {
    macro_rules! visit {
        ($($g:ty),*) => { $( each.game::<$g>(); )* };
    }
    crate::for_each_game!(visit);
}

/// Something done with the game type a record id names ([`for_id`]).
pub trait ForGame {
    /// What it returns.
    type Output;
    /// Does it with game type `G`.
    fn run<G: AppGame>(self) -> Self::Output;
}

/// Runs `task` with the game type that plays `id` (a record's game id: `trike`, `trigon-2`, …);
/// `None` when no game of the app has that id.
pub fn for_id<T: ForGame>(id: &str, task: T) -> Option<T::Output> {
    struct Find<'a, T: ForGame> {
        id: &'a str,
        task: Option<T>,
        out: Option<T::Output>,
    }
    impl<T: ForGame> ForEachGame for Find<'_, T> {
        fn game<G: AppGame>(&mut self) {
            if G::IDS.contains(&self.id)
                && let Some(task) = self.task.take()
            {
                self.out = Some(task.run::<G>());
            }
        }
    }
    let mut find = Find { id, task: Some(task), out: None };
    each_game(&mut find);
    find.out
}

/// Where a move is on the board, in world units.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveMarks {
    /// The cells or slots the move fills, each a convex polygon (Trike's hexagon, Trigon's
    /// triangles, a Trisq slot).
    pub shapes: Vec<Vec<Vec2>>,
    /// The points it marks (a lattice point), each a disc of [`MoveMarks::radius`].
    pub points: Vec<Vec2>,
    /// The radius of the point discs, in world units.
    pub radius: f32,
    /// The way a piece goes, from where it stands to where it stops (Trike's pawn, TriCore's drive
    /// and climb), drawn as an arrow; empty for a placement.
    pub path: Vec<Vec2>,
}

impl MoveMarks {
    /// True when the move has nothing to show on the board (a pass, a swap, an end of turn).
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty() && self.points.is_empty() && self.path.is_empty()
    }
}
