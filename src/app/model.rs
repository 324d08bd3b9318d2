//! The game line ([`Model`]): the start position, the position shown, the moves to it, the redo
//! stack, the variations the line left, who sits in each seat, and the review, undo and redo over
//! them ([`review`]), and the names a record gave its seats ([`seats`]). Its fields are private: the validation system ([`super::play`]) and the session
//! ([`super::session`]) change it through its methods, and every change bumps its revision.

pub mod ending;
pub mod review;
pub mod seats;
pub mod undo;

use bevy::prelude::*;

use super::flow::Ending;
use super::games::AppGame;
use crate::ai::{Level, Seat};
use crate::rules::Player;
use crate::rules::record::{AnalysedMove, Analysis, Record};

/// The game being played: start position, current position, moves and the redo stack. One resource
/// per game type, present while that game is in play.
#[derive(Resource, Clone, Debug)]
pub struct Model<G: AppGame> {
    // The accessors below say what each field holds.
    start: G,
    game: G,
    moves: Vec<G::Move>,
    redo: Vec<G::Move>,
    seats: Vec<Seat>,
    /// The name each seat shows where a record named its player in words of its own ("Alice",
    /// "Pentobi"): [`seats::seats_of_record`]. Saved back into the record.
    names: Vec<Option<String>>,
    revision: u64,
    /// The analysis a loaded record carried and the moves it analysed (`triboard analyze --write`):
    /// saved again for the moves the game still shares with them, so a save never drops it.
    analysis: Option<(Analysis, Vec<G::Move>)>,
    /// Reviewing: the board shows an earlier position of the line ([`Model::review_to`]; the moves
    /// after it wait in the redo stack). Nobody moves, the AI included, until Play from here or the
    /// line's end.
    review: bool,
    /// Lines the game left (Pentobi's variations): each a whole line from the start, kept when a
    /// move was played where an undone or reviewed line went on otherwise. Saved in the record.
    variations: Vec<Vec<G::Move>>,
    /// Hints asked for, by seat.
    hints: Vec<u32>,
    /// The game ended off the board (a resignation, a flag): [`Model::end`].
    ended: Option<Ending>,
    /// The online game this board plays, by its id on the server ([`Model::playing_online`]).
    online: Option<String>,
    /// The texts of `moves`, in the game's notation, kept as the line grows and shrinks (the
    /// record is made from them, not replayed again on each change).
    texts: Vec<String>,
    /// The texts of `redo`, in the same order.
    redo_texts: Vec<String>,
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
            names: vec![None; start.num_players()],
            start,
            moves: Vec::new(),
            redo: Vec::new(),
            seats,
            revision: first_revision(),
            analysis: None,
            review: false,
            variations: Vec::new(),
            hints: Vec::new(),
            ended: None,
            online: None,
            texts: Vec::new(),
            redo_texts: Vec::new(),
        };
        model.play_forced();
        Ok(model)
    }

    /// The position shown.
    pub fn game(&self) -> &G {
        &self.game
    }
    /// The start position.
    pub fn start(&self) -> &G {
        &self.start
    }
    /// The moves from the start to the position shown.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }
    /// Undone moves (or those after the position reviewed), the next one to redo last.
    pub fn redo(&self) -> &[G::Move] {
        &self.redo
    }
    /// Who plays each seat, in seat order.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }
    /// The name each seat shows, in seat order: the record's where it named the seat's player in
    /// words of its own, else `None` (the seat's label is shown).
    pub fn names(&self) -> &[Option<String>] {
        &self.names
    }
    /// What the panels call seat `seat`: the record's name for its player ("Alice", "Pentobi"), else
    /// who plays it ("Human", "AI level 3").
    pub fn seat_name(&self, seat: usize) -> String {
        let who = self.seats.get(seat).copied().unwrap_or(Seat::Human);
        seats::seat_name(who, self.names.get(seat).and_then(|n| n.as_deref()))
    }
    /// Bumped by every change, so an AI search started before it knows it is stale.
    pub fn revision(&self) -> u64 {
        self.revision
    }
    /// True while an earlier position of the line is shown ([`Model::review_to`]).
    pub fn review(&self) -> bool {
        self.review
    }
    /// The lines the game left, each a whole line from the start ([`Model::switch_line`]).
    pub fn variations(&self) -> &[Vec<G::Move>] {
        &self.variations
    }
    /// Hints asked for, by seat (empty when none was).
    pub fn hints(&self) -> &[u32] {
        &self.hints
    }
    /// The analysis kept and the line it analysed, if any.
    pub fn analysis(&self) -> Option<&(Analysis, Vec<G::Move>)> {
        self.analysis.as_ref()
    }

    /// The game of `record` (checked move by move: one replay), with `seats`, or with the seats
    /// the record names when `None`: seat by seat, what its label names when it is one of ours
    /// ("AI level 3"), else a person. A label of anyone else's ("Alice", "Pentobi") stays the
    /// name of a seat a person plays ([`seats::seats_of_record`]). Its analysis, variations and
    /// hint counts come with it; then the moves the rules force are played.
    ///
    /// # Errors
    /// A record that is not a game of `G`, or a move that is not legal, with its place and reason.
    pub fn from_record(record: &Record, seats: Option<&[Seat]>) -> Result<Model<G>, String> {
        let (start, game, moves) = record.replay::<G>().map_err(|e| e.to_string())?;
        let players = game.num_players();
        let (seats, names) = seats::seats_of_record(&record.players, players, seats);
        let analysis = record.analysis.clone().map(|a| (a, moves.clone()));
        let variations = record.variation_lines(&start).unwrap_or_default();
        let mut hints = record.hints.clone();
        hints.resize(players, 0);
        let mut model = Model {
            start,
            game,
            moves,
            redo: Vec::new(),
            seats,
            names,
            revision: first_revision(),
            analysis,
            review: false,
            variations,
            hints,
            ended: record.ending().map(|(seat, flagged)| Ending { seat, flagged, aborted: record.aborted }),
            online: None,
            texts: Vec::new(),
            redo_texts: Vec::new(),
        };
        model.texts = crate::rules::move_texts(&model.start, &model.moves);
        if model.ended.is_none() {
            model.play_forced();
        }
        Ok(model)
    }

    /// This model as the board of online game `online` (its id on the server; `None`: of none).
    pub fn playing_online(self, online: Option<String>) -> Model<G> {
        Model { online, ..self }
    }

    /// The online game this board plays, by its id on the server, if it plays one.
    pub fn online(&self) -> Option<&str> {
        self.online.as_deref()
    }

    /// The texts of the moves played, in the game's notation.
    pub fn texts(&self) -> &[String] {
        &self.texts
    }

    /// A new game of the same options, the seats (with their names) moved round by one: the next
    /// seat opens (two seats exchange).
    ///
    /// # Errors
    /// Options out of range (never for a game's own).
    pub fn rematch(&self) -> Result<Model<G>, String> {
        let mut seats = self.seats.clone();
        seats.rotate_left(1);
        let mut fresh = Model::with(self.game.options(), &seats)?;
        fresh.names.clone_from(&self.names);
        fresh.names.rotate_left(1);
        Ok(fresh)
    }

    /// Puts `other` in this model's place, with a later revision (so a search of the game replaced
    /// knows it is stale).
    pub fn replace(&mut self, other: Model<G>) {
        let revision = self.revision + 1;
        *self = Model { revision, ..other };
    }

    /// Keeps a finished analysis of `line` (saved with the record for the moves the line still
    /// shares with it). The position is the same: the revision stays.
    pub fn keep_analysis(&mut self, analysis: Analysis, line: Vec<G::Move>) {
        self.analysis = Some((analysis, line));
    }

    /// Counts a hint for the person to move (the search for it is `ai_task`'s; the revision stays,
    /// so the hint found is for this position).
    ///
    /// # Errors
    /// No person may move now ([`Model::person_may_move`]): why not.
    pub fn count_hint(&mut self) -> Result<(), String> {
        self.person_may_move()?;
        let seat = self.game.to_move().expect("a person is to move").index();
        self.hints.resize(self.game.num_players(), 0);
        self.hints[seat] += 1;
        Ok(())
    }

    /// Who plays the seat to move, or `None` once the game is over.
    pub fn seat_to_move(&self) -> Option<Seat> {
        self.to_move().map(|p| self.seats[p.index()])
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
            None => Err(G::INFO.over_text.to_string()),
            Some(Seat::Ai(_)) => Err("the AI is to move: wait, or press Move now".to_string()),
            Some(Seat::Remote) if self.seats.len() == 2 => {
                Err("your opponent is to move: their move comes over the network".to_string())
            }
            // More than two seats: the colour to move, not "your opponent".
            Some(Seat::Remote) => Err(format!(
                "{} is to move: the move comes over the network",
                self.game.to_move_name().unwrap_or("another player")
            )),
            Some(Seat::Human) => Ok(()),
        }
    }

    /// The number of moves in the whole line: those played and those after them in the redo stack
    /// (undone, or ahead of the position reviewed).
    pub fn line_len(&self) -> usize {
        self.moves.len() + self.redo.len()
    }

    /// The position at the whole line's end (the game in play's, whatever position review shows):
    /// the position shown with the redo stack played on it.
    pub fn line_end(&self) -> G {
        let mut end = self.game.clone();
        for &mv in self.redo.iter().rev() {
            end.play_unchecked(mv);
        }
        end
    }

    /// The whole line: the moves played, then those of the redo stack in the order they were played.
    pub fn line(&self) -> Vec<G::Move> {
        self.moves.iter().chain(self.redo.iter().rev()).copied().collect()
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
    /// shared first place named as such; "Black resigned (White wins)" for a game ended off the
    /// board ([`Model::end`]).
    pub fn result_text(&self) -> Option<String> {
        self.ending_text().or_else(|| result_of(&self.game))
    }

    /// The game record: options, moves, players and the result. In review the whole line (the
    /// game in play, not the position shown), with the result of its end; else the moves played (an
    /// undone move is not kept).
    pub fn record(&self) -> Record {
        let mut record;
        let id = self.game.id();
        let options = serde_json::to_value(self.game.options()).expect("options serialise");
        if self.review {
            let mut line = self.texts.clone();
            line.extend(self.redo_texts.iter().rev().cloned());
            record = Record::of_texts(id, options, line);
            record.result = self.ending_text().or_else(|| result_of(&self.line_end()));
        } else {
            record = Record::of_texts(id, options, self.texts.clone());
            record.result = self.result_text();
        }
        record.players = (0..self.seats.len()).map(|k| self.seat_name(k)).collect();
        if let Some(ending) = self.ended {
            *(if ending.flagged { &mut record.flagged } else { &mut record.resigned }) = Some(ending.seat);
            record.aborted = ending.aborted;
        }
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
    ///
    /// # Errors
    /// An illegal move, with the rule's reason; the model is then unchanged.
    pub fn play(&mut self, mv: G::Move) -> Result<Vec<String>, crate::rules::IllegalMove> {
        let text = self.game.move_text(mv);
        self.game.play(mv)?;
        self.push(mv, text);
        Ok(self.play_forced())
    }

    /// Adds `mv`, of text `text` and played on `game` already, to the line.
    fn push(&mut self, mv: G::Move, text: String) {
        self.moves.push(mv);
        self.texts.push(text);
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
            self.redo_texts.pop();
        } else if !self.redo.is_empty() {
            // The line that went on from here stays, as a variation.
            let mut left: Vec<G::Move> = self.moves[..self.moves.len() - 1].to_vec();
            left.extend(self.redo.drain(..).rev());
            self.redo_texts.clear();
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
            let text = self.game.move_text(mv);
            let said_text = self.game.played_text(mover, &text);
            self.game.play_unchecked(mv);
            self.push(mv, text);
            said.push(said_text);
        }
        said
    }
}

/// [`Model::result_text`] of position `game`.
fn result_of<G: AppGame>(game: &G) -> Option<String> {
    let outcome = game.outcome()?;
    let name = |seat: usize| game.player_name(Player(seat as u8));
    let scores: Vec<String> = (0..outcome.num_players).map(|p| format!("{} {}", name(p), outcome.scores[p])).collect();
    let verdict = outcome.verdict(|p| name(p.index()).to_string());
    Some(format!("{} ({verdict})", scores.join(" – ")))
}

/// The first revision of a new model. Models never share revisions (each starts 2³² past the one
/// before), so what was kept for one board — a hint, a search, a folded result, a chosen point —
/// never shows on a later board that reaches the same count of changes.
fn first_revision() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1 << 32, std::sync::atomic::Ordering::Relaxed)
}
