//! The protocol's messages: what a client sends ([`ClientMessage`]), what the server answers
//! ([`ServerMessage`]) and the values they carry.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::error::{ErrorCode, Refusal};
use super::limits::MAX_FIELD_BYTES;

/// A live game's clock setting: Fischer time, `minutes` each plus `increment_s` seconds per move.
/// The server keeps time (`docs/design.md` §Network play): a seat whose time runs out loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    /// Each seat's time at the start, in minutes (1–1440).
    pub minutes: u32,
    /// Seconds added to a seat's time after each of its moves (0–3600).
    pub increment_s: u32,
}

impl Clock {
    /// The clock's settings checked against their ranges.
    ///
    /// # Errors
    /// A sentence naming the setting out of range.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=1440).contains(&self.minutes) {
            return Err(format!("a clock of {} minutes is outside 1–1440", self.minutes));
        }
        if self.increment_s > 3600 {
            return Err(format!("an increment of {} s is over 3600", self.increment_s));
        }
        Ok(())
    }
}

/// Reads a join code as a person may type it: case, spaces and dashes do not matter.
pub fn normalize_code(code: &str) -> String {
    code.chars().filter(|c| !c.is_whitespace() && *c != '-').map(|c| c.to_ascii_uppercase()).collect()
}

/// A message from a client to the server.
///
/// `game` is a kind of game (`trike`, `trigon-2`, one of [`crate::rules::game_ids`]); `game_id` is
/// one game on the server. A `token` is a seat's secret, given once by [`ServerMessage::Created`]
/// or [`ServerMessage::Joined`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// Start a game and take one of its seats; answered by [`ServerMessage::Created`] and a
    /// [`ServerMessage::State`].
    Create {
        /// The kind of game (`trike`, `trigon-3`, …).
        game: String,
        /// The game's options as its rules serialise them (`{"size": 7}`); missing fields, or a
        /// missing object, take the defaults of `game`.
        #[serde(default)]
        options: Value,
        /// The creator's seat, `0..players` (0 moves first).
        seat: u8,
        /// The clock of a live game; none for a correspondence game.
        #[serde(default)]
        clock: Option<Clock>,
        /// Whether hints, Show thinking and analysis may be used while the game runs.
        #[serde(default)]
        allow_tools: bool,
    },
    /// Take the first free seat of the game with this join code; answered by
    /// [`ServerMessage::Joined`] and a [`ServerMessage::State`].
    Join {
        /// The join code ([`ServerMessage::Created::code`]); case, spaces and dashes do not matter.
        code: String,
    },
    /// Play a move; answered by a [`ServerMessage::Moved`] for it and one for each move the rules
    /// then force (Trigon's passes), which the server plays itself.
    Move {
        /// The game.
        game_id: String,
        /// The mover's seat token.
        token: String,
        /// The move in the game's notation.
        text: String,
        /// The move's ply as the client sees the game: how many moves were played before it. A
        /// retry of a move already played at this ply is answered again, not played twice.
        ply: u32,
    },
    /// Resign the game; answered by a [`ServerMessage::State`] with the outcome.
    Resign {
        /// The game.
        game_id: String,
        /// The resigning seat's token.
        token: String,
    },
    /// Ask for a rematch of a finished game, seats moved on by one (swapped in a two-seat game);
    /// answered by [`ServerMessage::Rematched`]. Asking again, from any seat, gives the same game.
    Rematch {
        /// The finished game.
        game_id: String,
        /// A seat's token; each seat keeps its token in the rematch.
        token: String,
    },
    /// Look at a game without a seat; answered by a [`ServerMessage::State`].
    Watch {
        /// The game.
        game_id: String,
    },
    /// Catch up after a reconnection; answered by a [`ServerMessage::State`] whose `moves` start at
    /// `since_ply`.
    Sync {
        /// The game.
        game_id: String,
        /// The first ply the client lacks (the number of moves it has).
        since_ply: u32,
        /// The seat token of a player coming back: the connection then counts as that seat being
        /// present ([`ServerMessage::Presence`]). None for a spectator.
        #[serde(default)]
        token: Option<String>,
    },
}

impl ClientMessage {
    /// Every client message `type`, as sent.
    pub const TYPES: &'static [&'static str] = &["create", "join", "move", "resign", "rematch", "watch", "sync"];

    /// Checks that no string field is over [`MAX_FIELD_BYTES`]
    /// ([`decode_client`](super::wire::decode_client) does it, and so does the service for a
    /// message that did not come as text).
    ///
    /// # Errors
    /// A [`ErrorCode::TooLarge`] refusal naming the field.
    pub fn check_sizes(&self) -> Result<(), Refusal> {
        let fields: &[(&str, &str)] = match self {
            ClientMessage::Create { game, .. } => &[("game", game)],
            ClientMessage::Join { code } => &[("code", code)],
            ClientMessage::Move { game_id, token, text, .. } => {
                &[("game_id", game_id), ("token", token), ("text", text)]
            }
            ClientMessage::Resign { game_id, token } | ClientMessage::Rematch { game_id, token } => {
                &[("game_id", game_id), ("token", token)]
            }
            ClientMessage::Watch { game_id } | ClientMessage::Sync { game_id, token: None, .. } => {
                &[("game_id", game_id)]
            }
            ClientMessage::Sync { game_id, token: Some(token), .. } => &[("game_id", game_id), ("token", token)],
        };
        for (name, value) in fields {
            if value.len() > MAX_FIELD_BYTES {
                let size = value.len();
                return Err(Refusal::new(
                    ErrorCode::TooLarge,
                    format!("the field '{name}' has {size} bytes, over the limit of {MAX_FIELD_BYTES}"),
                ));
            }
        }
        Ok(())
    }

    /// The game the message is about: none for a `create` or a `join`, which name no game yet.
    pub fn game_id(&self) -> Option<&str> {
        match self {
            ClientMessage::Create { .. } | ClientMessage::Join { .. } => None,
            ClientMessage::Move { game_id, .. }
            | ClientMessage::Resign { game_id, .. }
            | ClientMessage::Rematch { game_id, .. }
            | ClientMessage::Watch { game_id }
            | ClientMessage::Sync { game_id, .. } => Some(game_id),
        }
    }

    /// The seat token the message shows, if any.
    pub fn token(&self) -> Option<&str> {
        match self {
            ClientMessage::Create { .. } | ClientMessage::Join { .. } | ClientMessage::Watch { .. } => None,
            ClientMessage::Move { token, .. }
            | ClientMessage::Resign { token, .. }
            | ClientMessage::Rematch { token, .. } => Some(token),
            ClientMessage::Sync { token, .. } => token.as_deref(),
        }
    }
}

/// A message from the server to a client.
// A message lives only while it is written or read: a boxed snapshot would save nothing worth
// its allocation, and the app matches on `State(snapshot)`.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerMessage {
    /// A game was created ([`ClientMessage::Create`]).
    Created {
        /// The game, for every later message about it.
        game_id: String,
        /// The join code for the other seats (`#join=CODE` in a link), eight letters and digits
        /// without look-alikes (no 0, O, 1, I, L).
        code: String,
        /// The creator's seat.
        seat: u8,
        /// The creator's secret seat token (128 random bits, hex): keep it, show it to nobody.
        token: String,
    },
    /// A seat was taken ([`ClientMessage::Join`]).
    Joined {
        /// The game.
        game_id: String,
        /// The seat taken.
        seat: u8,
        /// The seat's secret token.
        token: String,
    },
    /// The game as it stands ([`ClientMessage::Watch`], [`ClientMessage::Sync`], after a create,
    /// a join or a resignation).
    State(Snapshot),
    /// A move was played and stored.
    Moved {
        /// The game.
        game_id: String,
        /// The move's ply: how many moves came before it.
        ply: u32,
        /// The move in the game's notation, as the rules write it.
        text: String,
        /// The seat that moved.
        seat: u8,
        /// A live game's clocks once the move is stored: each seat's time left, in ms, the next
        /// mover's counting down from now. None for correspondence.
        #[serde(default)]
        clock_ms: Option<Vec<u64>>,
    },
    /// Which seats have a connected player, sent to a game's connections whenever it changes.
    Presence {
        /// The game.
        game_id: String,
        /// One entry per seat: whether a connection holds that seat's token now.
        online: Vec<bool>,
    },
    /// The rematch of a finished game ([`ClientMessage::Rematch`]): the same game and options,
    /// every seat's token moved on by one seat.
    Rematched {
        /// The new game.
        game_id: String,
        /// The finished game it follows.
        rematch_of: String,
        /// The asking token's seat in the new game.
        seat: u8,
    },
    /// A message was refused and nothing changed.
    Error {
        /// What kind of refusal, for programs.
        code: ErrorCode,
        /// Why, in words for a person (an illegal move's rule reason).
        message: String,
    },
}

impl Refusal {
    /// The refusal as the message sent.
    pub fn into_message(self) -> ServerMessage {
        ServerMessage::Error { code: self.code, message: self.message }
    }
}

impl ServerMessage {
    /// The game the message is about: a rematch's is the finished game it follows; none for an
    /// error, which names no game.
    pub fn game_id(&self) -> Option<&str> {
        match self {
            ServerMessage::State(s) => Some(&s.game_id),
            ServerMessage::Moved { game_id, .. }
            | ServerMessage::Presence { game_id, .. }
            | ServerMessage::Created { game_id, .. }
            | ServerMessage::Joined { game_id, .. } => Some(game_id),
            ServerMessage::Rematched { rematch_of, .. } => Some(rematch_of),
            ServerMessage::Error { .. } => None,
        }
    }

    /// Every server message `type`, as sent.
    pub const TYPES: &'static [&'static str] =
        &["created", "joined", "state", "moved", "presence", "rematched", "error"];
}

/// A game as it stands: what a client needs to show it and carry on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// The game.
    pub game_id: String,
    /// The kind of game (`trike`, …).
    pub game: String,
    /// Its options, complete, as its rules serialise them.
    pub options: Value,
    /// The ply of the first of `moves`: 0 for the whole game, or the `since_ply` of a
    /// [`ClientMessage::Sync`].
    pub since_ply: u32,
    /// The moves from `since_ply` on, in the game's notation.
    pub moves: Vec<String>,
    /// How many moves the game has.
    pub ply: u32,
    /// One entry per seat, in seat order.
    pub players: Vec<SeatView>,
    /// The seat to move, or `None` once the game is over.
    pub to_move: Option<u8>,
    /// The result once the game is over.
    pub outcome: Option<GameResult>,
    /// The clock setting of a live game; none for correspondence.
    pub clock: Option<Clock>,
    /// A live game's clocks now: each seat's time left, in ms, the seat to move's counting down
    /// from this message on (clocks start once every seat is taken). None for correspondence.
    #[serde(default)]
    pub clock_ms: Option<Vec<u64>>,
    /// Whether the clocks started: once every seat is taken, and in a rematch once every
    /// player came back to its board (synced with its token). False for correspondence.
    #[serde(default)]
    pub clock_started: bool,
    /// Whether the creator allowed hints, Show thinking and analysis while the game runs.
    pub allow_tools: bool,
    /// The rematch of this game, once one was asked for.
    pub rematch: Option<String>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
}

/// One seat of a game, as everybody may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatView {
    /// The seat, `0..players`.
    pub seat: u8,
    /// What the seat is called in the position (Trike: its colour, which the pie rule may swap).
    pub name: String,
    /// Whether somebody holds the seat.
    pub taken: bool,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    /// The winning seats (several for a shared first place).
    pub winners: Vec<u8>,
    /// The rules' score per seat; empty when a seat resigned.
    pub scores: Vec<i32>,
    /// The seat that resigned, if the game ended so (every other seat then wins).
    pub resigned: Option<u8>,
    /// The seat whose clock ran out, if the game ended so (every other seat then wins).
    #[serde(default)]
    pub flagged: Option<u8>,
}
