//! The wire protocol: versioned JSON messages, one JSON object per message (`docs/design.md`
//! §Network play).
//!
//! Every message is an object with a `version` ([`PROTOCOL_VERSION`]) and a `type` naming the
//! message in snake case, then the message's own fields:
//!
//! ```json
//! {"version": 1, "type": "move", "game_id": "3f9c…", "token": "a41b…", "text": "c3", "ply": 4}
//! ```
//!
//! A client sends [`ClientMessage`]s and the server answers with [`ServerMessage`]s. Reading a
//! message ([`decode_client`], [`decode_server`]) never panics: text over [`MAX_MESSAGE_BYTES`],
//! text that is not JSON, another version, an unknown `type`, a missing, mistyped or unknown field
//! or a field over [`MAX_FIELD_BYTES`] is refused with a [`Refusal`] whose [`ErrorCode`] says which.
//! Unknown fields are refused rather than ignored, so a misspelt optional field cannot pass
//! unnoticed; a new field comes with a new version.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The protocol version this build speaks; every message carries it as `version`.
pub const PROTOCOL_VERSION: u32 = 1;

/// The largest message read, in bytes of its JSON text (64 KiB).
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// The longest string field of a client message (a move's text, a token, a code, a game id), in
/// bytes. A Trigon placement, the longest move text, is about 20.
pub const MAX_FIELD_BYTES: usize = 256;

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

    /// Checks that no string field is over [`MAX_FIELD_BYTES`] ([`decode_client`] does it, and
    /// so does the service for a message that did not come as text).
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

impl ServerMessage {
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

/// What kind of refusal an [`ServerMessage::Error`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, not an object, a missing, mistyped or unknown field.
    Malformed,
    /// Over [`MAX_MESSAGE_BYTES`], or a field over [`MAX_FIELD_BYTES`].
    TooLarge,
    /// A `version` other than [`PROTOCOL_VERSION`].
    UnsupportedVersion,
    /// A `type` the protocol does not have.
    UnknownType,
    /// A kind of game triboard does not play.
    UnknownGameKind,
    /// Options the game refuses.
    BadOptions,
    /// A seat the game does not have.
    BadSeat,
    /// A clock setting out of range.
    BadClock,
    /// No game with this id.
    UnknownGame,
    /// No game with this join code.
    UnknownCode,
    /// Every seat of the game is taken.
    GameFull,
    /// The token is no seat's of this game.
    BadToken,
    /// A seat is still free: moves wait until every seat is taken.
    NotStarted,
    /// Another seat is to move.
    NotYourTurn,
    /// The rules refuse the move; the message is their reason.
    IllegalMove,
    /// The game is over.
    GameOver,
    /// A rematch of a game still running.
    NotOver,
    /// The ply was played already, by another move: the client is behind (sync).
    StalePly,
    /// The ply lies past the game's end: the client is ahead of the server (sync).
    PlyAhead,
    /// The store failed: nothing was saved or acknowledged; trying again may work.
    Storage,
    /// The connection sent messages faster than the server takes them: this one was dropped
    /// unread; slow down and send it again.
    RateLimited,
}

impl ErrorCode {
    /// Every code, in the order declared.
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::Malformed,
        ErrorCode::TooLarge,
        ErrorCode::UnsupportedVersion,
        ErrorCode::UnknownType,
        ErrorCode::UnknownGameKind,
        ErrorCode::BadOptions,
        ErrorCode::BadSeat,
        ErrorCode::BadClock,
        ErrorCode::UnknownGame,
        ErrorCode::UnknownCode,
        ErrorCode::GameFull,
        ErrorCode::BadToken,
        ErrorCode::NotStarted,
        ErrorCode::NotYourTurn,
        ErrorCode::IllegalMove,
        ErrorCode::GameOver,
        ErrorCode::NotOver,
        ErrorCode::StalePly,
        ErrorCode::PlyAhead,
        ErrorCode::Storage,
        ErrorCode::RateLimited,
    ];

    /// The code as it is sent (`"illegal_move"`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Malformed => "malformed",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::UnsupportedVersion => "unsupported_version",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::UnknownGameKind => "unknown_game_kind",
            ErrorCode::BadOptions => "bad_options",
            ErrorCode::BadSeat => "bad_seat",
            ErrorCode::BadClock => "bad_clock",
            ErrorCode::UnknownGame => "unknown_game",
            ErrorCode::UnknownCode => "unknown_code",
            ErrorCode::GameFull => "game_full",
            ErrorCode::BadToken => "bad_token",
            ErrorCode::NotStarted => "not_started",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::GameOver => "game_over",
            ErrorCode::NotOver => "not_over",
            ErrorCode::StalePly => "stale_ply",
            ErrorCode::PlyAhead => "ply_ahead",
            ErrorCode::Storage => "storage",
            ErrorCode::RateLimited => "rate_limited",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A refused message: the [`ServerMessage::Error`] it is answered with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// What kind of refusal.
    pub code: ErrorCode,
    /// Why, for a person.
    pub message: String,
}

impl Refusal {
    /// A refusal of this kind, for this reason.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal { code, message: message.into() }
    }

    /// The refusal as the message sent.
    pub fn into_message(self) -> ServerMessage {
        ServerMessage::Error { code: self.code, message: self.message }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Refusal {}

/// A message with its version, as written.
#[derive(Serialize)]
struct Versioned<'a, M> {
    version: u32,
    #[serde(flatten)]
    message: &'a M,
}

/// The JSON text of a client message, with its `version`.
pub fn encode_client(message: &ClientMessage) -> String {
    encode(message)
}

/// The JSON text of a server message, with its `version`.
pub fn encode_server(message: &ServerMessage) -> String {
    encode(message)
}

fn encode<M: Serialize>(message: &M) -> String {
    serde_json::to_string(&Versioned { version: PROTOCOL_VERSION, message })
        .expect("messages have string keys and no non-finite floats")
}

/// Reads a client message, refusing text over [`MAX_MESSAGE_BYTES`], malformed JSON, another
/// version, an unknown `type`, a bad field or a string field over [`MAX_FIELD_BYTES`].
///
/// # Errors
/// The [`Refusal`] to send back; never a panic.
pub fn decode_client(text: &str) -> Result<ClientMessage, Refusal> {
    let message: ClientMessage = decode(text, ClientMessage::TYPES)?;
    message.check_sizes()?;
    Ok(message)
}

/// Reads a server message (a client's side), with the checks of [`decode_client`] but for field
/// lengths.
///
/// # Errors
/// A [`Refusal`] saying what is wrong; never a panic.
pub fn decode_server(text: &str) -> Result<ServerMessage, Refusal> {
    decode(text, ServerMessage::TYPES)
}

fn decode<M: DeserializeOwned>(text: &str, types: &[&str]) -> Result<M, Refusal> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(Refusal::new(
            ErrorCode::TooLarge,
            format!("a message of {} bytes is over the limit of {MAX_MESSAGE_BYTES}", text.len()),
        ));
    }
    let value: Value =
        serde_json::from_str(text).map_err(|e| Refusal::new(ErrorCode::Malformed, format!("not JSON: {e}")))?;
    let Value::Object(mut object) = value else {
        return Err(Refusal::new(ErrorCode::Malformed, "a message is a JSON object"));
    };
    match object.remove("version") {
        None => {
            return Err(Refusal::new(
                ErrorCode::Malformed,
                format!("the message has no \"version\" (this server speaks version {PROTOCOL_VERSION})"),
            ));
        }
        Some(Value::Number(n)) if n.as_u64() == Some(u64::from(PROTOCOL_VERSION)) => {}
        Some(Value::Number(n)) => {
            return Err(Refusal::new(
                ErrorCode::UnsupportedVersion,
                format!("protocol version {n} is not spoken here (this server speaks version {PROTOCOL_VERSION})"),
            ));
        }
        Some(other) => {
            return Err(Refusal::new(ErrorCode::Malformed, format!("\"version\" must be a number, not {other}")));
        }
    }
    let kind = match object.get("type") {
        Some(Value::String(kind)) => kind.clone(),
        Some(other) => {
            return Err(Refusal::new(ErrorCode::Malformed, format!("\"type\" must be a string, not {other}")));
        }
        None => return Err(Refusal::new(ErrorCode::Malformed, "the message has no \"type\"")),
    };
    if !types.contains(&kind.as_str()) {
        let mut shown: String = kind.chars().take(40).collect();
        if shown.len() < kind.len() {
            shown.push('…');
        }
        return Err(Refusal::new(
            ErrorCode::UnknownType,
            format!("unknown message type '{shown}' (types: {})", types.join(", ")),
        ));
    }
    serde_json::from_value(Value::Object(object))
        .map_err(|e| Refusal::new(ErrorCode::Malformed, format!("a bad '{kind}' message: {e}")))
}
