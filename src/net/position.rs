//! One game's position with its type erased, over every game of the one list
//! ([`crate::for_each_game`]): what network play needs of a game it knows only by its id and its
//! moves' text. The server's rooms ([`replay`]), `serve-bench`'s simulated players ([`start`]) and
//! the app's online client ([`start_of`], who made each move of a line) share it; it builds for
//! every target, the browser too.

use serde_json::Value;

use crate::rules::record::{Record, RecordError};
use crate::rules::{Game, IllegalMove, Outcome, Player, Rng, random_index};

/// A position of any game, behind one interface; moves go in and come out as text in the game's
/// notation.
pub trait Position: Send {
    /// How many seats the game has.
    fn num_players(&self) -> usize;
    /// The player to move, none once the game is over by its rules.
    fn to_move(&self) -> Option<Player>;
    /// The result by the rules, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// What `player` is called in this position (Trike: its colour).
    fn player_name(&self, player: Player) -> &'static str;
    /// The game's options as its rules serialise them.
    fn options(&self) -> Value;
    /// How many moves were played from the start position to this one.
    fn ply(&self) -> usize;
    /// Reads and plays a move, returning its text as the rules write it; unchanged on error.
    ///
    /// # Errors
    /// The rules' refusal of text that names no legal move.
    fn play_text(&mut self, text: &str) -> Result<String, IllegalMove>;
    /// The text of the move the rules force here ([`Game::forced_move`]), if any.
    fn forced_text(&self) -> Option<String>;
    /// Plays the move the rules force here, if any, returning its text.
    fn play_forced(&mut self) -> Option<String>;
    /// The text of a legal move drawn uniformly from `rng` (empty if there is none).
    fn random_move_text(&self, rng: &mut Rng) -> String;
    /// A copy.
    fn boxed(&self) -> Box<dyn Position>;
}

/// A position of game type `G`, and how many moves led to it.
struct Typed<G: Game> {
    game: G,
    ply: usize,
}

impl<G: Game> Position for Typed<G> {
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    fn to_move(&self) -> Option<Player> {
        self.game.to_move()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn player_name(&self, player: Player) -> &'static str {
        self.game.player_name(player)
    }
    fn options(&self) -> Value {
        serde_json::to_value(self.game.options()).unwrap_or(Value::Null)
    }
    fn ply(&self) -> usize {
        self.ply
    }
    fn play_text(&mut self, text: &str) -> Result<String, IllegalMove> {
        let mv = self.game.parse_move(text)?;
        let text = self.game.move_text(mv);
        self.game.play(mv)?;
        self.ply += 1;
        Ok(text)
    }
    fn forced_text(&self) -> Option<String> {
        self.game.forced_move().map(|mv| self.game.move_text(mv))
    }
    fn play_forced(&mut self) -> Option<String> {
        let mv = self.game.forced_move()?;
        let text = self.game.move_text(mv);
        self.game.play(mv).ok()?;
        self.ply += 1;
        Some(text)
    }
    fn random_move_text(&self, rng: &mut Rng) -> String {
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        moves.get(random_index(rng, moves.len().max(1))).map(|&mv| self.game.move_text(mv)).unwrap_or_default()
    }
    fn boxed(&self) -> Box<dyn Position> {
        Box::new(Typed { game: self.game.clone(), ply: self.ply })
    }
}

/// Something done with the game type that plays a game id ([`with_game`]).
trait GameTask {
    type Output;
    fn run<G: Game>(self) -> Self::Output;
}

/// Runs `task` with the game type of the one list that plays `id`; `None` for an unknown id.
fn with_game<T: GameTask>(id: &str, task: T) -> Option<T::Output> {
    macro_rules! find {
        ($($g:ty),*) => {
            $( if <$g as Game>::IDS.contains(&id) {
                return Some(task.run::<$g>());
            } )*
        };
    }
    crate::for_each_game!(find);
    None
}

/// The refusal of a record whose game id no game plays.
fn unknown_game(record: &Record) -> RecordError {
    RecordError::WrongGame { expected: crate::rules::game_ids().join("' or '"), found: record.game.clone() }
}

/// Replays `record` with the game type its game id names: the position after its last move.
///
/// # Errors
/// The record's error ([`Record::replay`]): an unknown game id, bad options, a move that does not
/// replay.
pub fn replay(record: &Record) -> Result<Box<dyn Position>, RecordError> {
    struct End<'a>(&'a Record);
    impl GameTask for End<'_> {
        type Output = Result<Box<dyn Position>, RecordError>;
        fn run<G: Game>(self) -> Self::Output {
            let (_, game, moves) = self.0.replay::<G>()?;
            Ok(Box::new(Typed { game, ply: moves.len() }))
        }
    }
    with_game(&record.game, End(record)).unwrap_or_else(|| Err(unknown_game(record)))
}

/// The start position of `record`, once every move of it replays ([`replay`]'s checks): to step
/// through its moves again.
///
/// # Errors
/// As [`replay`].
pub fn start_of(record: &Record) -> Result<Box<dyn Position>, RecordError> {
    struct Start<'a>(&'a Record);
    impl GameTask for Start<'_> {
        type Output = Result<Box<dyn Position>, RecordError>;
        fn run<G: Game>(self) -> Self::Output {
            let (game, _, _) = self.0.replay::<G>()?;
            Ok(Box::new(Typed { game, ply: 0 }))
        }
    }
    with_game(&record.game, Start(record)).unwrap_or_else(|| Err(unknown_game(record)))
}

/// The start position of game id `id` (`trike`, `trigon-2`, …) with its default options.
///
/// # Errors
/// An unknown game id, or options its rules refuse, in words.
pub fn start(id: &str) -> Result<Box<dyn Position>, String> {
    struct New<'a>(&'a str);
    impl GameTask for New<'_> {
        type Output = Result<Box<dyn Position>, String>;
        fn run<G: Game>(self) -> Self::Output {
            let game = G::new(&G::options_for_id(self.0))?;
            Ok(Box::new(Typed { game, ply: 0 }))
        }
    }
    with_game(id, New(id))
        .unwrap_or_else(|| Err(format!("unknown game '{id}' (playable: {})", crate::rules::game_ids().join(", "))))
}
