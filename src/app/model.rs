//! The model — one resource holding the rules state, the move list and the redo stack — and the
//! validation system, the only system that writes it.

use bevy::prelude::*;

use super::Screen;
use super::games::AppGame;
use super::in_play::{InPlay, summarise};
use super::learn::Learning;
use super::setup::{GameOptions, Setup, Suspended, start_game};
use super::share::OpenRecord;
use crate::ai::{Level, Seat};
use crate::rules::Player;
use crate::rules::record::{AnalysedMove, Analysis, Record};

/// The game being played: start position, current position, moves and the redo stack. One resource
/// per game type, present while that game is in play.
#[derive(Resource, Clone, Debug)]
pub struct Model<G: AppGame> {
    /// The start position (for replaying after an undo).
    pub start: G,
    /// The current position.
    pub game: G,
    /// The moves from `start` to `game`.
    pub moves: Vec<G::Move>,
    /// Undone moves, the next one to redo last.
    pub redo: Vec<G::Move>,
    /// Who plays each seat.
    pub seats: Vec<Seat>,
    /// Bumped by every change, so an AI search started before it knows it is stale.
    pub revision: u64,
    /// The analysis a loaded record carried and the moves it analysed (`triboard analyze --write`):
    /// saved again for the moves the game still shares with them, so a save never drops it.
    pub analysis: Option<(Analysis, Vec<G::Move>)>,
    /// Reviewing: the board shows an earlier position of the line ([`Model::review_to`]; the moves
    /// after it wait in the redo stack). Nobody moves, the AI included, until Play from here or the
    /// line's end.
    pub review: bool,
    /// Lines the game left (Pentobi's variations): each a whole line from the start, kept when a
    /// move was played where an undone or reviewed line went on otherwise. Saved in the record.
    pub variations: Vec<Vec<G::Move>>,
    /// Hints asked for, by seat.
    pub hints: Vec<u32>,
}

impl<G: AppGame> Model<G> {
    /// A new game from `options` with these seats (people fill missing ones).
    ///
    /// # Errors
    /// Options out of range.
    pub fn with(options: &G::Options, seats: &[Seat]) -> Result<Model<G>, String> {
        let start = G::new(options)?;
        let mut seats = seats.to_vec();
        seats.resize(start.num_players(), Seat::Human);
        let mut model = Model {
            game: start.clone(),
            start,
            moves: Vec::new(),
            redo: Vec::new(),
            seats,
            revision: 0,
            analysis: None,
            review: false,
            variations: Vec::new(),
            hints: Vec::new(),
        };
        model.play_forced();
        Ok(model)
    }

    /// Who plays the seat to move, or `None` once the game is over.
    pub fn seat_to_move(&self) -> Option<Seat> {
        self.game.to_move().map(|p| self.seats[p.index()])
    }

    /// The AI level to move, if an AI seat is to move.
    pub fn ai_to_move(&self) -> Option<Level> {
        if self.review {
            return None;
        }
        match self.seat_to_move() {
            Some(Seat::Ai(level)) => Some(level),
            _ => None,
        }
    }

    /// True when a person is to move (and may: not in review, where the views light no legal move).
    pub fn human_to_move(&self) -> bool {
        !self.review && self.seat_to_move() == Some(Seat::Human)
    }

    /// Whether a person may move now; `Err` says why not: the game is over, or an AI seat is to
    /// move. The validation system and every view's presses ask it first.
    ///
    /// # Errors
    /// The sentence for the status line.
    pub fn person_may_move(&self) -> Result<(), String> {
        if self.review {
            return Err(format!(
                "you are looking at move {} of {}: Play from here plays on from this position, End goes back to the game",
                self.moves.len(),
                self.line_len()
            ));
        }
        match self.seat_to_move() {
            None => Err(self.game.over_text().to_string()),
            Some(Seat::Ai(_)) => Err("the AI is to move: wait, or press Move now".to_string()),
            Some(Seat::Human) => Ok(()),
        }
    }

    /// The number of moves in the whole line: those played and those after them in the redo stack
    /// (undone, or ahead of the position reviewed).
    pub fn line_len(&self) -> usize {
        self.moves.len() + self.redo.len()
    }

    /// The whole line: the moves played, then those of the redo stack in the order they were played.
    pub fn line(&self) -> Vec<G::Move> {
        self.moves.iter().chain(self.redo.iter().rev()).copied().collect()
    }

    /// Review: shows the position after `ply` moves of the line (at most its length; Home is 0, End
    /// the line's length), the moves after it waiting in the redo stack. Before the line's end the
    /// model is in review ([`Model::review`]): nobody moves until [`Model::play_from_here`]; at the
    /// end the game goes on. Returns false when the position shown did not change.
    pub fn review_to(&mut self, ply: usize) -> bool {
        let ply = ply.min(self.line_len());
        let before = (self.moves.len(), self.review);
        if ply < self.moves.len() {
            while self.moves.len() > ply {
                let mv = self.moves.pop().expect("longer than ply");
                self.redo.push(mv);
            }
            self.rebuild();
        }
        while self.moves.len() < ply {
            let mv = self.redo.pop().expect("the line is long enough");
            self.game.play_unchecked(mv);
            self.moves.push(mv);
        }
        self.review = ply < self.line_len();
        if before != (self.moves.len(), self.review) {
            self.revision += 1;
        }
        before.0 != self.moves.len()
    }

    /// Ends review at the position shown: the game goes on from it (the moves that followed stay in
    /// the redo stack, so Redo brings them back, and become a variation once another move is
    /// played there). Returns the texts of the moves the rules then force.
    pub fn play_from_here(&mut self) -> Vec<String> {
        if self.review {
            self.review = false;
            self.revision += 1;
        }
        self.play_forced()
    }

    /// Makes variation `k` the line, shown from the move where it leaves the current line (in
    /// review); the current line becomes a variation in its place.
    ///
    /// # Panics
    /// If `k` is not a variation's index.
    pub fn switch_line(&mut self, k: usize) {
        let current = self.line();
        let other = std::mem::replace(&mut self.variations[k], current.clone());
        let branch = current.iter().zip(&other).take_while(|(a, b)| a == b).count();
        self.moves = other;
        self.redo.clear();
        self.rebuild();
        self.review = false;
        self.review_to(branch + 1);
    }

    /// The analysis of the moves the whole line still shares with the line analysed, in order:
    /// entry `k` is move `k + 1`'s (empty without an analysis).
    pub fn analysed(&self) -> &[AnalysedMove] {
        let Some((analysis, analysed)) = &self.analysis else { return &[] };
        let shared = self.moves.iter().chain(self.redo.iter().rev()).zip(analysed).take_while(|(a, b)| a == b).count();
        &analysis.moves[..shared.min(analysis.moves.len())]
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<G::Move> {
        self.moves.last().copied()
    }

    /// "Black 4 – White 3 (Black wins)" once the game is over; with more seats every score, and a
    /// shared first place named as such.
    pub fn result_text(&self) -> Option<String> {
        result_of(&self.game)
    }

    /// The game record: options, moves, players and the result. In review the whole line (the
    /// game in play, not the position shown), with the result of its end; else the moves played (an
    /// undone move is not kept).
    pub fn record(&self) -> Record {
        let mut record;
        if self.review {
            let line = self.line();
            record = Record::new(&self.game, &line);
            let mut end = self.game.clone();
            for &mv in self.redo.iter().rev() {
                end.play_unchecked(mv);
            }
            record.result = result_of(&end);
        } else {
            record = Record::new(&self.game, &self.moves);
            record.result = self.result_text();
        }
        record.players = self.seats.iter().map(|s| s.label()).collect();
        if self.hints.iter().any(|&h| h > 0) {
            record.hints = self.hints.clone();
        }
        record.variations = self.variations.iter().map(|line| Record::new(&self.start, line).moves).collect();
        let analysed = self.analysed();
        let kept = &analysed[..analysed.len().min(record.moves.len())];
        if let Some((analysis, _)) = &self.analysis
            && !kept.is_empty()
        {
            record.analysis = Some(Analysis { moves: kept.to_vec(), ..analysis.clone() });
        }
        record
    }

    /// Plays a move after checking it, then any moves the rules force. A move equal to the next
    /// redo keeps the rest of the redo stack; any other clears it. Returns the forced moves' texts
    /// with their movers.
    fn play(&mut self, mv: G::Move) -> Result<Vec<String>, crate::rules::IllegalMove> {
        self.game.play(mv)?;
        self.push(mv);
        Ok(self.play_forced())
    }

    fn push(&mut self, mv: G::Move) {
        self.moves.push(mv);
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
        } else if !self.redo.is_empty() {
            // The line that went on from here stays, as a variation.
            let mut left: Vec<G::Move> = self.moves[..self.moves.len() - 1].to_vec();
            left.extend(self.redo.drain(..).rev());
            if !self.variations.contains(&left) {
                self.variations.push(left);
            }
        }
        self.revision += 1;
    }

    /// Plays the moves the rules force, saying what each was.
    fn play_forced(&mut self) -> Vec<String> {
        let mut said = Vec::new();
        while let Some(mv) = self.game.forced_move() {
            let mover = self.game.player_name(self.game.to_move().expect("a forced move has a mover"));
            let text = self.game.played_text(mover, &self.game.move_text(mv));
            self.game.play_unchecked(mv);
            self.push(mv);
            said.push(text);
        }
        said
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
    /// boundary when no person plays), or the start of the game; never before a forced move.
    fn is_stop(&self) -> bool {
        let any_human = self.seats.contains(&Seat::Human);
        self.game.is_turn_boundary()
            && self.game.forced_move().is_none()
            && (!any_human || self.human_to_move() || self.game.to_move().is_none())
    }

    /// Takes back whole turns, back to the last turn a person had (Human vs AI goes back past the
    /// AI's reply). Returns false if there was nothing to undo.
    pub fn undo_turn(&mut self) -> bool {
        self.review = false;
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
        self.review = false;
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

/// [`Model::result_text`] of position `game`.
fn result_of<G: AppGame>(game: &G) -> Option<String> {
    let outcome = game.outcome()?;
    let name = |seat: usize| game.player_name(Player(seat as u8));
    let scores: Vec<String> = (0..outcome.num_players).map(|p| format!("{} {}", name(p), outcome.scores[p])).collect();
    let winners: Vec<&str> = outcome.winners().iter().map(|w| name(w.index())).collect();
    let verdict = match winners[..] {
        [one] => format!("{one} wins"),
        _ => format!("{} share first place", winners.join(" and ")),
    };
    Some(format!("{} ({verdict})", scores.join(" – ")))
}

/// A request to play a move: from a click on the board, the Swap button, or a finished search.
/// One message type per game's move type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveIntent<M> {
    /// The move.
    pub mv: M,
    /// True when an AI search produced it (people may not move for an AI seat, nor it for them).
    pub from_ai: bool,
}

impl<M: Send + Sync + 'static> Message for MoveIntent<M> {}

/// Requests that change the game other than by a move.
#[derive(Message, Clone, Debug)]
pub enum Command {
    /// Take back the last turn (in Human vs AI, back to the person's last turn).
    Undo,
    /// Replay an undone turn.
    Redo,
    /// Back to the start screen, dropping the game (the side panel asks first when it is unfinished).
    NewGame,
    /// Back to the start screen keeping the game: its Resume brings it back as it was, until
    /// another game starts ([`Suspended`]).
    Menu,
    /// The same board again, the seats moved round by one (the next seat opens).
    Rematch,
    /// Replace the game by a saved record (checked move by move; a bad record changes nothing).
    /// The seats stay as they are; a record of another game opens as a share link does, with its
    /// own seats.
    Load(Record),
    /// Like [`Command::Load`], but the seats become those of the start screen's [`Setup`], which
    /// `share::OpenRecord` set from the record (a share link names its own seats).
    Open(Record),
    /// Show another position of the line (the move list's clicks, ←/→/Home/End, the graph's
    /// points, Next mistake): [`Model::review_to`].
    Review(ReviewTo),
    /// Play on from the position reviewed ([`Model::play_from_here`]).
    PlayFromHere,
    /// Make variation `k` the line ([`Model::switch_line`]).
    SwitchLine(usize),
    /// A hint for the person to move: counted here, searched by `ai_task`.
    Hint,
}

/// Which position of the line to show in review.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReviewTo {
    /// The position after this many moves.
    Ply(usize),
    /// One move back (←).
    Back,
    /// One move on (→).
    Forward,
    /// The start (Home).
    Start,
    /// The line's end, where the game goes on (End).
    End,
    /// The position before the next move the analysis marked a mistake, after the one shown.
    NextMistake,
}

impl<G: AppGame> Model<G> {
    /// The ply [`ReviewTo`] names from the position shown; `None` for a next mistake there is not.
    pub fn review_target(&self, to: ReviewTo) -> Option<usize> {
        let now = self.moves.len();
        Some(match to {
            ReviewTo::Ply(k) => k,
            ReviewTo::Back => now.saturating_sub(1),
            ReviewTo::Forward => now + 1,
            ReviewTo::Start => 0,
            ReviewTo::End => self.line_len(),
            ReviewTo::NextMistake => {
                let analysed = self.analysed();
                (now + 1..analysed.len()).find(|&k| analysed[k].mistake)?
            }
        })
    }
}

/// A finished analysis of the game's line (the app's Analyze game), for the validation system to
/// keep in the model.
#[derive(Clone, Debug)]
pub struct Analysed<M> {
    /// The analysis, as a record keeps it.
    pub analysis: Analysis,
    /// The line it analysed.
    pub line: Vec<M>,
}

impl<M: Send + Sync + 'static> Message for Analysed<M> {}

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

/// A move in the game's notation, from the page's scripts (`triboard_play`) or a test: played for
/// the person to move as a click would be, after the same checks; text that names no move is
/// refused in the status line.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct TextIntent(pub String);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Setup>()
        .init_resource::<Suspended>()
        .init_resource::<Status>()
        .init_resource::<InPlay>()
        .add_message::<Command>()
        .add_message::<TextIntent>()
        .configure_sets(Update, (Step::Intents, Step::Apply, Step::View).chain())
        .add_systems(OnEnter(Screen::Playing), start_game)
        .add_systems(OnExit(Screen::Playing), |mut in_play: ResMut<InPlay>| in_play.0 = None)
        .add_systems(Update, no_game_for_text.in_set(Step::Apply).run_if(not(in_state(Screen::Playing))));
}

/// The model's systems for one game type (called by the registry for every game).
pub(super) fn game_plugin<G: AppGame>(app: &mut App) {
    app.add_message::<MoveIntent<G::Move>>()
        .add_message::<Analysed<G::Move>>()
        .add_systems(OnExit(Screen::Playing), |mut commands: Commands| commands.remove_resource::<Model<G>>())
        .add_systems(
            Update,
            (text_intents::<G>, validate::<G>).chain().in_set(Step::Apply).run_if(resource_exists::<Model<G>>),
        )
        .add_systems(Update, summarise::<G>.in_set(Step::View).run_if(resource_exists_and_changed::<Model<G>>));
}

/// Moves in notation become move intents of the game in play.
fn text_intents<G: AppGame>(
    mut texts: MessageReader<TextIntent>,
    model: Res<Model<G>>,
    mut status: ResMut<Status>,
    mut intents: MessageWriter<MoveIntent<G::Move>>,
) {
    for TextIntent(text) in texts.read() {
        match model.game.parse_move(text) {
            Ok(mv) => {
                intents.write(MoveIntent { mv, from_ai: false });
            }
            Err(e) => *status = Status::error(format!("{text}: {e}")),
        }
    }
}

fn no_game_for_text(mut texts: MessageReader<TextIntent>, mut status: ResMut<Status>) {
    for TextIntent(text) in texts.read() {
        *status = Status::error(format!("{text}: no game in play"));
    }
}

/// The validation system: the only writer of [`Model`].
#[allow(clippy::too_many_arguments)]
fn validate<G: AppGame>(
    mut commands: Commands,
    mut intents: MessageReader<MoveIntent<G::Move>>,
    mut orders: MessageReader<Command>,
    mut analysed: MessageReader<Analysed<G::Move>>,
    mut model: ResMut<Model<G>>,
    mut status: ResMut<Status>,
    mut setup: ResMut<Setup>,
    mut suspended: ResMut<Suspended>,
    mut next: ResMut<NextState<Screen>>,
    mut learning: Option<ResMut<Learning>>,
) {
    for intent in intents.read() {
        if intent.from_ai {
            // A search finishing after the seat changed hands (a person took over) plays nothing.
            if model.ai_to_move().is_none() {
                continue;
            }
        } else if let Err(why) = model.person_may_move() {
            *status = Status::error(why);
            continue;
        } else if let Some(learning) = learning.as_deref_mut()
            && let Err(why) = learning.answer(&model.game, intent.mv)
        {
            *status = Status::error(why);
            continue;
        }
        let mover = model.game.player_name(model.game.to_move().expect("not over"));
        let text = model.game.move_text(intent.mv);
        let said = model.game.played_text(mover, &text);
        match model.play(intent.mv) {
            Ok(forced) => {
                let mut line = said;
                for f in forced {
                    line = format!("{line}. {f}");
                }
                *status = match model.result_text() {
                    Some(result) => Status::info(format!("{line}. Game over: {result}")),
                    None => Status::info(line),
                };
            }
            Err(e) => *status = Status::error(format!("{text}: {e}")),
        }
    }
    for done in analysed.read() {
        let mistakes = done.analysis.moves.iter().filter(|m| m.mistake).count();
        model.analysis = Some((done.analysis.clone(), done.line.clone()));
        *status = Status::info(format!(
            "Analysed {} moves: {mistakes} mistake{}",
            done.analysis.moves.len(),
            if mistakes == 1 { "" } else { "s" }
        ));
    }
    for order in orders.read() {
        // A record other than the lesson's step ends the lesson: it loads as any record does.
        if let Command::Load(record) | Command::Open(record) = order
            && learning.as_deref().is_some_and(|l| *record != l.record())
        {
            learning = None;
            commands.remove_resource::<Learning>();
        }
        match order {
            Command::Review(to) => match model.review_target(*to) {
                Some(ply) => {
                    model.review_to(ply);
                    *status = Status::info(if model.review {
                        "Reviewing: the arrow keys step through the game, End goes back to it".to_string()
                    } else {
                        "Back to the game".to_string()
                    });
                }
                None => *status = Status::error("no mistake after this move (Analyze game marks them)"),
            },
            Command::PlayFromHere => {
                let forced = model.play_from_here();
                *status = Status::info(
                    std::iter::once(format!("Playing on from move {}", model.moves.len()))
                        .chain(forced)
                        .collect::<Vec<_>>()
                        .join(". "),
                );
            }
            Command::SwitchLine(k) if *k < model.variations.len() => {
                model.switch_line(*k);
                *status = Status::info(format!(
                    "Variation {} is the line now; the line before is kept as a variation",
                    k + 1
                ));
            }
            Command::SwitchLine(_) => *status = Status::error("no such variation"),
            Command::Hint => match model.person_may_move() {
                Ok(()) => {
                    let seat = model.game.to_move().expect("a person is to move").index();
                    let players = model.game.num_players();
                    model.hints.resize(players, 0);
                    model.hints[seat] += 1;
                }
                Err(why) => *status = Status::error(format!("no hint: {why}")),
            },
            Command::Undo => {
                *status = if model.undo_turn() { Status::info("Undone") } else { Status::error("nothing to undo") }
            }
            Command::Redo => {
                *status = if model.redo_turn() { Status::info("Redone") } else { Status::error("nothing to redo") }
            }
            Command::NewGame => next.set(Screen::Menu),
            Command::Menu => {
                *suspended = Suspended::keep(&model);
                next.set(Screen::Menu);
            }
            Command::Rematch => {
                // A rematch is a game, no longer the lesson.
                learning = None;
                commands.remove_resource::<Learning>();
                let mut seats = model.seats.clone();
                seats.rotate_left(1);
                if let Ok(fresh) = Model::<G>::with(model.game.options(), &seats) {
                    setup.game = GameOptions::of::<G>(fresh.game.options());
                    setup.seats = seats;
                    let revision = model.revision + 1;
                    *model = Model { revision, ..fresh };
                    *status = Status::info(if model.seats.len() == 2 {
                        "Rematch: the seats are exchanged"
                    } else {
                        "Rematch: the seats move round by one"
                    });
                }
            }
            Command::Load(record) | Command::Open(record) if !G::IDS.contains(&record.game.as_str()) => {
                // Another game: opened like a share link, which restarts the board with the record's seats.
                commands.insert_resource(OpenRecord(record.clone()));
            }
            Command::Load(record) | Command::Open(record) => match record.replay::<G>() {
                Ok((start, game, moves)) => {
                    let revision = model.revision + 1;
                    let mut seats =
                        if matches!(order, Command::Open(_)) { setup.seats.clone() } else { model.seats.clone() };
                    seats.resize(game.num_players(), Seat::Human);
                    let analysis = record.analysis.clone().map(|a| (a, moves.clone()));
                    let variations = record.variation_lines(&start).unwrap_or_default();
                    let mut hints = record.hints.clone();
                    hints.resize(game.num_players(), 0);
                    *model = Model {
                        start,
                        game,
                        moves,
                        redo: Vec::new(),
                        seats,
                        revision,
                        analysis,
                        review: false,
                        variations,
                        hints,
                    };
                    model.play_forced();
                    setup.game = GameOptions::of::<G>(model.game.options());
                    setup.seats = model.seats.clone();
                    *status = match learning.as_deref() {
                        Some(l) => {
                            Status::info(format!("Step {} of {}: make the move", l.step + 1, l.lesson.steps.len()))
                        }
                        None => Status::info(format!("Loaded a game of {} moves", model.moves.len())),
                    };
                }
                Err(e) => *status = Status::error(format!("cannot load: {e}")),
            },
        }
    }
}
