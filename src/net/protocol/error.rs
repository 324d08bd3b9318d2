//! Refusals: what kind ([`ErrorCode`], one list of names as sent) and why ([`Refusal`]).

use std::fmt;

use serde::{Deserialize, Serialize};

/// Declares [`ErrorCode`] from one list: each code's variant with its doc and its name as sent,
/// from which come the enum (serde names included), [`ErrorCode::ALL`] and [`ErrorCode::as_str`].
macro_rules! error_codes {
    ($($(#[doc = $doc:literal])* $code:ident = $name:literal,)*) => {
        /// What kind of refusal an [`ServerMessage::Error`](super::messages::ServerMessage::Error) is.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum ErrorCode {
            $($(#[doc = $doc])* #[serde(rename = $name)] $code,)*
        }

        impl ErrorCode {
            /// Every code, in the order declared.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$code),*];

            /// The code as it is sent (`"illegal_move"`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$code => $name,)*
                }
            }
        }
    };
}

error_codes! {
    /// Not JSON, not an object, a missing, mistyped or unknown field.
    Malformed = "malformed",
    /// Over [`MAX_MESSAGE_BYTES`](super::limits::MAX_MESSAGE_BYTES), or a field over
    /// [`MAX_FIELD_BYTES`](super::limits::MAX_FIELD_BYTES).
    TooLarge = "too_large",
    /// A `version` other than [`PROTOCOL_VERSION`](super::limits::PROTOCOL_VERSION).
    UnsupportedVersion = "unsupported_version",
    /// A `type` the protocol does not have.
    UnknownType = "unknown_type",
    /// A kind of game triboard does not play.
    UnknownGameKind = "unknown_game_kind",
    /// Options the game refuses.
    BadOptions = "bad_options",
    /// A seat the game does not have.
    BadSeat = "bad_seat",
    /// A clock setting out of range.
    BadClock = "bad_clock",
    /// No game with this id.
    UnknownGame = "unknown_game",
    /// No game with this join code.
    UnknownCode = "unknown_code",
    /// Every seat of the game is taken.
    GameFull = "game_full",
    /// The token is no seat's of this game.
    BadToken = "bad_token",
    /// A seat is still free: moves wait until every seat is taken.
    NotStarted = "not_started",
    /// Another seat is to move.
    NotYourTurn = "not_your_turn",
    /// The rules refuse the move; the message is their reason.
    IllegalMove = "illegal_move",
    /// The game is over.
    GameOver = "game_over",
    /// A rematch of a game still running.
    NotOver = "not_over",
    /// The ply was played already, by another move: the client is behind (sync).
    StalePly = "stale_ply",
    /// The ply lies past the game's end: the client is ahead of the server (sync).
    PlyAhead = "ply_ahead",
    /// The store failed: nothing was saved or acknowledged; trying again may work.
    Storage = "storage",
    /// The connection sent messages faster than the server takes them: this one was dropped
    /// unread; slow down and send it again.
    RateLimited = "rate_limited",
    /// The request needs an account: sign in first (a rated game, a bot's seat, one's page).
    NotSignedIn = "not_signed_in",
    /// An account name the server does not take: its length, its characters, a reserved name.
    BadName = "bad_name",
    /// The name, or one that reads like it, has an account already.
    NameTaken = "name_taken",
    /// The name and password do not match an account (which of the two is not said).
    BadLogin = "bad_login",
    /// The session token is unknown or signed out: sign in again.
    BadSession = "bad_session",
    /// No account has this name.
    UnknownPlayer = "unknown_player",
    /// A limit per address or per player was reached (connections, games or challenges a minute,
    /// open challenges, sign-in attempts): the message says which and when to try again.
    Limit = "limit",
    /// The game is no open challenge (it is not in the lobby, or its seats are taken).
    NotOpen = "not_open",
    /// The request id was used before by another account or client, or for another request
    /// (`docs/design.md` §Threat model): send the request with a new one.
    RequestIdUsed = "request_id_used",
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A refused message: the [`ServerMessage::Error`](super::messages::ServerMessage::Error) it is
/// answered with ([`Refusal::into_message`]).
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
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Refusal {}
