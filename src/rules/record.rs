//! The game record: game id, options and move list (plus players, date and result), as JSON.
//!
//! It is the save file, the replay, the test fixture and the bug report (`docs/design.md`).
//! Loading replays every move through [`Game::play`], so a record that loads is a legal game; a bad
//! one is refused with its place and reason and nothing half-loaded is returned.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::game::Game;

/// A game record as stored in a `.json` file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The game id (`trike`, …).
    pub game: String,
    /// The game's options as its `Options` type serialises them (`{"size": 13}`).
    #[serde(default)]
    pub options: serde_json::Value,
    /// Every move in the game's notation, in order (one entry per ply).
    pub moves: Vec<String>,
    /// Who sat in each seat ("Human", "AI level 3"), optional.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<String>,
    /// When the game was played, free text (ISO 8601 by convention), optional.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// The result as text ("Black 4 – White 3"), written on save and not trusted on load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The search's analysis of the moves (`triboard analyze --write`), optional; checked on load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis: Option<Analysis>,
    /// Lines the game left, as Pentobi's game tree keeps variations: each a whole line of moves
    /// from the start (the game's notation), kept when a move was played where an undone or
    /// reviewed line went on otherwise. Optional; each is checked on load.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<Vec<String>>,
    /// How many hints each seat asked for (the app's Hint), by seat. Optional.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<u32>,
    /// The seat (counted from 0) that resigned, when the game ended so after its last move (an
    /// online game: `docs/design.md` §Network play); every other seat wins. Optional; checked on
    /// load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resigned: Option<u8>,
    /// The seat (counted from 0) that ran out of time, when the game ended so after its last move;
    /// every other seat wins. Optional; checked on load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flagged: Option<u8>,
    /// The game was aborted (online, `docs/design.md` §Network play): the seat of
    /// [`Record::resigned`] or [`Record::flagged`] left it before every seat had made a move, so
    /// nobody won and it was not rated. Optional (false); checked on load: only with one of them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub aborted: bool,
}

/// A game's analysis as a record keeps it: the budget it was made with and one entry per move
/// analysed, from the first move on (`ai::analysis`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Analysis {
    /// Simulations per position.
    pub simulations: u64,
    /// The share of win rate a move had to lose to be a mistake.
    pub threshold: f32,
    /// One entry per move, in order (at most one per move of the record).
    pub moves: Vec<AnalysedMove>,
}

/// The analysis of one move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysedMove {
    /// The mover's win rate before the move, `0..=1`.
    pub win_rate: f32,
    /// The search's best move there, in the game's notation (legal in that position).
    pub best: String,
    /// The mover's win rate after the move, `0..=1`, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<f32>,
    /// It lost more than the threshold.
    pub mistake: bool,
}

/// Why a record was refused: where, and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The text is not a well-formed record: serde_json's message, which names line and column.
    Json(String),
    /// The record is for another game.
    WrongGame { expected: String, found: String },
    /// The options are unknown or out of range.
    Options(String),
    /// Move `number` (counted from 1) with text `text` could not be read or played.
    Move { number: usize, text: String, reason: String },
    /// The analysis of move `number` (counted from 1) is wrong.
    Analysis { number: usize, reason: String },
    /// Move `number` (counted from 1) of variation `variation` (counted from 1) cannot be read or
    /// played.
    Variation { variation: usize, number: usize, reason: String },
    /// The game's ending off the board ([`Record::resigned`], [`Record::flagged`]) is impossible.
    Ending(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Json(e) => write!(f, "not a valid record: {e}"),
            RecordError::WrongGame { found, .. } if !crate::rules::registry::game_ids().contains(&found.as_str()) => {
                write!(
                    f,
                    "'{found}' is not a game triboard knows; it plays {}",
                    crate::rules::registry::game_ids().join(", ")
                )
            }
            RecordError::WrongGame { expected, found } => {
                write!(f, "this record is for the game '{found}', not '{expected}'")
            }
            RecordError::Options(e) => write!(f, "bad options: {e}"),
            RecordError::Move { number, text, reason } => write!(f, "move {number} ({text}) is illegal: {reason}"),
            RecordError::Analysis { number, reason } => write!(f, "the analysis of move {number}: {reason}"),
            RecordError::Variation { variation, number, reason } => {
                write!(f, "move {number} of variation {variation} is illegal: {reason}")
            }
            RecordError::Ending(reason) => write!(f, "the game's ending: {reason}"),
        }
    }
}

impl std::error::Error for RecordError {}

impl Record {
    /// The record of a game so far: its id and options, and `moves` played from the start.
    pub fn new<G: Game>(game: &G, moves: &[G::Move]) -> Record {
        let start = G::new(game.options()).expect("a game's own options are valid");
        let moves = super::move_texts(&start, moves);
        Record::of_texts(game.id(), serde_json::to_value(game.options()).expect("options serialise"), moves)
    }

    /// The record of game `game` (its id) with `options` (as JSON) and `moves` in its notation,
    /// nothing else; unchecked ([`Record::replay`] checks it).
    pub fn of_texts(game: &str, options: serde_json::Value, moves: Vec<String>) -> Record {
        Record {
            game: game.to_string(),
            options,
            moves,
            players: Vec::new(),
            date: None,
            result: None,
            analysis: None,
            variations: Vec::new(),
            hints: Vec::new(),
            resigned: None,
            flagged: None,
            aborted: false,
        }
    }

    /// The seat that resigned or ran out of time, with true for running out of time; `None` when
    /// the game did not end off the board.
    pub fn ending(&self) -> Option<(u8, bool)> {
        self.resigned.map(|seat| (seat, false)).or(self.flagged.map(|seat| (seat, true)))
    }

    /// The ending off the board in words, `end` the position after the record's moves (as
    /// [`Record::replay`] gives it): "Black resigned (White wins)", "Blue ran out of time (Yellow,
    /// Red and Green share first place)", "Blue resigned before every player moved: the game is
    /// aborted, unrated"; `None` when the game did not end off the board.
    pub fn ending_text<G: Game>(&self, end: &G) -> Option<String> {
        let (seat, flagged) = self.ending()?;
        let name = |s: usize| end.player_name(super::game::Player(s as u8));
        let how = if flagged { "ran out of time" } else { "resigned" };
        let loser = name(usize::from(seat));
        if self.aborted {
            return Some(format!("{loser} {how} before every player moved: the game is aborted, unrated"));
        }
        let winners: Vec<&str> = (0..end.num_players()).filter(|&s| s != usize::from(seat)).map(name).collect();
        let verdict = match &winners[..] {
            [one] => format!("{one} wins"),
            [first @ .., last] => format!("{} and {last} share first place", first.join(", ")),
            [] => String::new(),
        };
        Some(format!("{loser} {how} ({verdict})"))
    }

    /// Reads a record from JSON text without checking its moves.
    ///
    /// # Errors
    /// [`RecordError::Json`] naming line and column.
    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        serde_json::from_str(text).map_err(|e| RecordError::Json(e.to_string()))
    }

    /// The record as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record serialises")
    }

    /// The game id without reading further, to choose which game type to [`Record::replay`] with.
    pub fn game_id(&self) -> &str {
        &self.game
    }

    /// Replays the record as game `G`: returns the start position, the final position (every move
    /// played through [`Game::play`]) and the moves.
    ///
    /// The game id chooses the options the record's own complete: a record without options, or
    /// without the one naming the variant, plays the variant its id names
    /// ([`Game::options_for_id`]; `{"game": "trigon-2", "moves": […]}` is the two-player game).
    /// Callers pass the record as read, with nothing filled in before.
    ///
    /// # Errors
    /// A wrong game id, bad options, the first move that cannot be read or played, or an ending off
    /// the board that cannot be (both a resignation and a flag, a seat the game does not have, a
    /// game its rules ended already). Nothing is returned then, so no caller can keep a
    /// half-loaded game.
    pub fn replay<G: Game>(&self) -> Result<(G, G, Vec<G::Move>), RecordError> {
        if !G::IDS.contains(&self.game.as_str()) {
            return Err(RecordError::WrongGame { expected: G::IDS.join("' or '"), found: self.game.clone() });
        }
        let options: G::Options = if self.options.is_null() {
            Self::options_of::<G>(None, &self.game)?
        } else if let Some(object) = self.options.as_object() {
            Self::options_of::<G>(Some(object.clone()), &self.game)?
        } else {
            let kind = match &self.options {
                serde_json::Value::Bool(_) => "boolean",
                serde_json::Value::Number(_) => "number",
                serde_json::Value::String(_) => "string",
                _ => "list",
            };
            return Err(RecordError::Options(format!(
                "options must be an object like {{\"size\": 13}}, not the {kind} {}",
                self.options
            )));
        };
        let start = G::new(&options).map_err(RecordError::Options)?;
        let mut game = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        let analysed = self.analysis.as_ref().map_or(&[][..], |a| &a.moves[..]);
        if analysed.len() > self.moves.len() {
            let reason = format!("{} analysed moves in a game of {}", analysed.len(), self.moves.len());
            return Err(RecordError::Analysis { number: self.moves.len() + 1, reason });
        }
        for (k, text) in self.moves.iter().enumerate() {
            if let Some(a) = analysed.get(k) {
                let bad = |reason: String| RecordError::Analysis { number: k + 1, reason };
                let rates = [Some(a.win_rate), a.kept];
                if rates.iter().flatten().any(|r| !(0.0..=1.0).contains(r)) {
                    return Err(bad("a win rate outside 0–1".to_string()));
                }
                let best = game.parse_move(&a.best).map_err(|e| bad(format!("best move {}: {}", a.best, e.reason)))?;
                game.clone().play(best).map_err(|e| bad(format!("best move {}: {}", a.best, e.reason)))?;
            }
            let err = |reason: String| RecordError::Move { number: k + 1, text: text.clone(), reason };
            let mv = game.parse_move(text).map_err(|e| err(e.reason))?;
            game.play(mv).map_err(|e| err(e.reason))?;
            moves.push(mv);
        }
        self.variation_lines(&start)?;
        self.check_ending(&game)?;
        Ok((start, game, moves))
    }

    /// Checks the ending off the board against `end`, the position after the record's moves.
    fn check_ending<G: Game>(&self, end: &G) -> Result<(), RecordError> {
        if self.aborted && self.ending().is_none() {
            return Err(RecordError::Ending("aborted, but no seat resigned or ran out of time".into()));
        }
        let Some((seat, flagged)) = self.ending() else { return Ok(()) };
        let how = if flagged { "ran out of time" } else { "resigned" };
        if self.resigned.is_some() && self.flagged.is_some() {
            return Err(RecordError::Ending("a seat resigned and a seat ran out of time: only one ends a game".into()));
        }
        if usize::from(seat) >= end.num_players() {
            let reason = format!("seat {seat} {how}, but the game has seats 0 to {}", end.num_players() - 1);
            return Err(RecordError::Ending(reason));
        }
        if end.outcome().is_some() {
            let reason = format!("seat {seat} {how}, but the rules ended the game at its last move");
            return Err(RecordError::Ending(reason));
        }
        Ok(())
    }

    /// The record's variations ([`Record::variations`]) as moves, each played from `start` (the
    /// record's start position).
    ///
    /// # Errors
    /// [`RecordError::Variation`]: the first move of a variation that cannot be read or played.
    pub fn variation_lines<G: Game>(&self, start: &G) -> Result<Vec<Vec<G::Move>>, RecordError> {
        let mut lines = Vec::with_capacity(self.variations.len());
        for (v, texts) in self.variations.iter().enumerate() {
            let mut game = start.clone();
            let mut line = Vec::with_capacity(texts.len());
            for (k, text) in texts.iter().enumerate() {
                let bad = |reason: String| RecordError::Variation { variation: v + 1, number: k + 1, reason };
                let mv = game.parse_move(text).map_err(|e| bad(format!("{text}: {}", e.reason)))?;
                game.play(mv).map_err(|e| bad(format!("{text}: {}", e.reason)))?;
                line.push(mv);
            }
            lines.push(line);
        }
        Ok(lines)
    }

    /// The options of a record's options object (`None`: no options), agreeing with its game id:
    /// the options the id starts from ([`Game::options_for_id`]: Trigon's `trigon-3` is the
    /// three-player variant), overridden by the fields the record gives. So `{"game": "trigon-3"}`
    /// is the three-player game, and a record whose options name another id than its game is
    /// refused.
    ///
    /// # Errors
    /// [`RecordError::Options`]: options that do not deserialise, or that are another id's.
    fn options_of<G: Game>(
        object: Option<serde_json::Map<String, serde_json::Value>>,
        id: &str,
    ) -> Result<G::Options, RecordError> {
        let start = G::options_for_id(id);
        let Some(given) = object else { return Ok(start) };
        let mut object = match serde_json::to_value(&start).expect("options serialise") {
            serde_json::Value::Object(object) => object,
            _ => serde_json::Map::new(),
        };
        object.extend(given);
        let options: G::Options = serde_json::from_value(serde_json::Value::Object(object))
            .map_err(|e| RecordError::Options(e.to_string()))?;
        match G::new(&options) {
            Ok(game) if game.id() != id => Err(RecordError::Options(format!(
                "the options are those of '{}', but the record is for '{id}'",
                game.id()
            ))),
            _ => Ok(options),
        }
    }
}
