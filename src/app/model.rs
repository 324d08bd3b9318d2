//! The model — one resource holding the rules state, the move list and the redo stack — and the
//! validation system, the only system that writes it (`../shared/style.md` §bevy_new_2d).

use bevy::prelude::*;

use super::Screen;
use crate::ai::{Level, Seat};
use crate::rules::record::Record;
use crate::rules::trike::{Trike, TrikeMove, TrikeOptions};
use crate::rules::{Game, Player};

/// What the start screen chose: the game's options and who sits in each seat.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Setup {
    /// Trike's options (board size).
    pub options: TrikeOptions,
    /// Seat 0 opens (Black), seat 1 answers and may swap (White).
    pub seats: [Seat; 2],
}

impl Default for Setup {
    fn default() -> Self {
        Setup { options: TrikeOptions::default(), seats: [Seat::Human, Seat::Ai(Level::new(3).expect("level 3"))] }
    }
}

/// The game being played: start position, current position, moves and the redo stack.
#[derive(Resource, Clone, Debug)]
pub struct Model {
    /// The start position (for replaying after an undo).
    pub start: Trike,
    /// The current position.
    pub game: Trike,
    /// The moves from `start` to `game`.
    pub moves: Vec<TrikeMove>,
    /// Undone moves, the next one to redo last.
    pub redo: Vec<TrikeMove>,
    /// Who plays each seat.
    pub seats: [Seat; 2],
    /// Bumped by every change, so an AI search started before it knows it is stale.
    pub revision: u64,
}

impl Model {
    /// A new game for this setup.
    ///
    /// # Errors
    /// Options out of range.
    pub fn new(setup: &Setup) -> Result<Model, String> {
        let start = Trike::new(&setup.options)?;
        Ok(Model { game: start.clone(), start, moves: Vec::new(), redo: Vec::new(), seats: setup.seats, revision: 0 })
    }

    /// Who plays the seat to move, or `None` once the game is over.
    pub fn seat_to_move(&self) -> Option<Seat> {
        self.game.to_move().map(|p| self.seats[p.index()])
    }

    /// The AI level to move, if an AI seat is to move.
    pub fn ai_to_move(&self) -> Option<Level> {
        match self.seat_to_move() {
            Some(Seat::Ai(level)) => Some(level),
            _ => None,
        }
    }

    /// True when a person is to move.
    pub fn human_to_move(&self) -> bool {
        self.seat_to_move() == Some(Seat::Human)
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<TrikeMove> {
        self.moves.last().copied()
    }

    /// "Black 4 – White 3 (Black wins)" once the game is over.
    pub fn result_text(&self) -> Option<String> {
        let outcome = self.game.outcome()?;
        let name = |seat: usize| self.game.player_name(Player(seat as u8));
        let winner = outcome.winners()[0].index();
        Some(format!("{} {} – {} {} ({} wins)", name(0), outcome.scores[0], name(1), outcome.scores[1], name(winner)))
    }

    /// The game record: options, moves, players and the result.
    pub fn record(&self) -> Record {
        let mut record = Record::new(&self.game, &self.moves);
        record.players = self.seats.iter().map(|s| s.label()).collect();
        record.result = self.result_text();
        record
    }

    /// Plays a move after checking it. A move equal to the next redo keeps the rest of the redo
    /// stack; any other clears it.
    fn play(&mut self, mv: TrikeMove) -> Result<(), crate::rules::IllegalMove> {
        self.game.play(mv)?;
        self.moves.push(mv);
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.revision += 1;
        Ok(())
    }

    fn rebuild(&mut self) {
        let mut game = self.start.clone();
        for &mv in &self.moves {
            game.play_unchecked(mv);
        }
        self.game = game;
        self.revision += 1;
    }

    /// Where an undo or redo may stop: a turn boundary where a person is to move (or any turn
    /// boundary when no person plays), or the start of the game.
    fn is_stop(&self) -> bool {
        let any_human = self.seats.contains(&Seat::Human);
        self.game.is_turn_boundary() && (!any_human || self.human_to_move() || self.game.to_move().is_none())
    }

    /// Takes back whole turns, back to the last turn a person had (Human vs AI goes back past the
    /// AI's reply). Returns false if there was nothing to undo.
    pub fn undo_turn(&mut self) -> bool {
        if self.moves.is_empty() {
            return false;
        }
        while let Some(mv) = self.moves.pop() {
            self.redo.push(mv);
            self.rebuild();
            if self.is_stop() {
                break;
            }
        }
        true
    }

    /// Replays undone turns up to the next stop where a person is to move. Returns false if there
    /// was nothing to redo.
    pub fn redo_turn(&mut self) -> bool {
        if self.redo.is_empty() {
            return false;
        }
        while let Some(mv) = self.redo.pop() {
            self.game.play_unchecked(mv);
            self.moves.push(mv);
            self.revision += 1;
            if self.is_stop() {
                break;
            }
        }
        true
    }
}

/// A request to play a move: from a click on the board, the Swap button, or a finished search.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveIntent {
    /// The move.
    pub mv: TrikeMove,
    /// True when an AI search produced it (people may not move for an AI seat, nor it for them).
    pub from_ai: bool,
}

/// Requests that change the game other than by a move.
#[derive(Message, Clone, Debug)]
pub enum Command {
    /// Take back the last turn (in Human vs AI, back to the person's last turn).
    Undo,
    /// Replay an undone turn.
    Redo,
    /// Back to the start screen.
    NewGame,
    /// The same board again, the seats exchanged (the other side opens).
    Rematch,
    /// Replace the game by a saved record (checked move by move; a bad record changes nothing).
    /// The seats stay as they are.
    Load(Record),
    /// Like [`Command::Load`], but the seats become those of the start screen's [`Setup`], which
    /// `share::OpenRecord` set from the record (a share link names its own seats).
    Open(Record),
}

/// The status line: what just happened, or why a move was refused.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// The sentence shown.
    pub text: String,
    /// True when it explains a refusal or an error (shown in red).
    pub error: bool,
}

impl Status {
    /// A sentence of what happened.
    pub fn info(text: impl Into<String>) -> Status {
        Status { text: text.into(), error: false }
    }
    /// A refusal or an error, shown in red.
    pub fn error(text: impl Into<String>) -> Status {
        Status { text: text.into(), error: true }
    }
}

/// Ordering of the systems of one frame: intents are produced, then validated and applied, then the
/// board's entities catch up.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Input, buttons and AI results send [`MoveIntent`]s and [`Command`]s.
    Intents,
    /// The validation system applies them to the [`Model`].
    Apply,
    /// Views follow the model (entities, highlights, animation).
    View,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Setup>()
        .init_resource::<Status>()
        .add_message::<MoveIntent>()
        .add_message::<Command>()
        .configure_sets(Update, (Step::Intents, Step::Apply, Step::View).chain())
        .add_systems(OnEnter(Screen::Playing), start_game)
        .add_systems(OnExit(Screen::Playing), |mut commands: Commands| commands.remove_resource::<Model>())
        .add_systems(Update, validate.in_set(Step::Apply).run_if(resource_exists::<Model>));
}

fn start_game(mut commands: Commands, setup: Res<Setup>, mut status: ResMut<Status>) {
    match Model::new(&setup) {
        Ok(model) => {
            *status = Status::info(format!("New game: Trike on a board of side {}", setup.options.size));
            commands.insert_resource(model);
        }
        Err(e) => *status = Status::error(e),
    }
}

/// The validation system: the only writer of [`Model`].
fn validate(
    mut intents: MessageReader<MoveIntent>,
    mut orders: MessageReader<Command>,
    mut model: ResMut<Model>,
    mut status: ResMut<Status>,
    mut setup: ResMut<Setup>,
    mut next: ResMut<NextState<Screen>>,
) {
    for intent in intents.read() {
        let Some(seat) = model.seat_to_move() else {
            *status = Status::error("the game is over: the pawn is trapped");
            continue;
        };
        match (seat, intent.from_ai) {
            (Seat::Ai(_), false) => {
                *status = Status::error("the AI is to move: wait, or press Move now");
                continue;
            }
            (Seat::Human, true) => continue,
            _ => {}
        }
        let mover = model.game.player_name(model.game.to_move().expect("not over"));
        let text = model.game.move_text(intent.mv);
        match model.play(intent.mv) {
            Ok(()) => {
                *status = match model.result_text() {
                    Some(result) => Status::info(format!("{mover} played {text}. Game over: {result}")),
                    None if text == "swap" => Status::info(format!("{mover} swapped: the colours are exchanged")),
                    None => Status::info(format!("{mover} played {text}")),
                };
            }
            Err(e) => *status = Status::error(format!("{text}: {e}")),
        }
    }
    for order in orders.read() {
        match order {
            Command::Undo => {
                *status = if model.undo_turn() { Status::info("Undone") } else { Status::error("nothing to undo") }
            }
            Command::Redo => {
                *status = if model.redo_turn() { Status::info("Redone") } else { Status::error("nothing to redo") }
            }
            Command::NewGame => next.set(Screen::Menu),
            Command::Rematch => {
                setup.seats.swap(0, 1);
                setup.options = model.game.options().clone();
                if let Ok(fresh) = Model::new(&setup) {
                    let revision = model.revision + 1;
                    *model = Model { revision, ..fresh };
                    *status = Status::info("Rematch: the seats are exchanged");
                }
            }
            Command::Load(record) | Command::Open(record) => match record.replay::<Trike>() {
                Ok((start, game, moves)) => {
                    let revision = model.revision + 1;
                    let seats = if matches!(order, Command::Open(_)) { setup.seats } else { model.seats };
                    *model = Model { start, game, moves, redo: Vec::new(), seats, revision };
                    setup.options = model.game.options().clone();
                    *status = Status::info(format!("Loaded a game of {} moves", model.moves.len()));
                }
                Err(e) => *status = Status::error(format!("cannot load: {e}")),
            },
        }
    }
}
