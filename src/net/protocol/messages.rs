//! The protocol's messages: what a client sends ([`ClientMessage`]), what the server answers
//! ([`ServerMessage`]) and the values they carry.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::error::{ErrorCode, Refusal};
use super::game::{Clock, Snapshot};
use super::lobby::{LobbyView, ProfileView, RatingChange, RatingView};

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
    Create(NewGame),
    /// Take the first free seat of the game with this join code; answered by
    /// [`ServerMessage::Joined`] and a [`ServerMessage::State`].
    Join {
        /// The join code ([`ServerMessage::Created::code`]); case, spaces and dashes do not matter.
        code: String,
        /// As [`ClientMessage::Create`]'s: a retry is answered with the same seat and token.
        #[serde(default)]
        request_id: Option<String>,
    },
    /// Take the first free seat of an open challenge from the lobby; answered like a
    /// [`ClientMessage::Join`].
    Accept {
        /// The challenge's game.
        game_id: String,
        /// As [`ClientMessage::Create`]'s.
        #[serde(default)]
        request_id: Option<String>,
    },
    /// Quick pairing: take a seat of the open challenge with these settings whose player's rating in
    /// `game` is nearest the sender's (within 300 points), or else post such a challenge; answered
    /// like a [`ClientMessage::Join`] or a [`ClientMessage::Create`].
    Seek {
        /// The kind of game.
        game: String,
        /// Its options (missing: the defaults).
        #[serde(default)]
        options: Value,
        /// The clock of a live game; none for correspondence.
        #[serde(default)]
        clock: Option<Clock>,
        /// Whether the game is rated (the sender must be signed in).
        #[serde(default)]
        rated: bool,
        /// As [`ClientMessage::Create`]'s.
        #[serde(default)]
        request_id: Option<String>,
    },
    /// Withdraw one's open challenge before its seats are taken; answered by a
    /// [`ServerMessage::State`] of the game, over and unrated, and a new lobby.
    Withdraw {
        /// The challenge's game.
        game_id: String,
        /// The creator's seat token.
        token: String,
    },
    /// Make an account and sign in; answered by [`ServerMessage::SignedIn`].
    Signup {
        /// 3–20 letters, digits, `_` or `-`, starting with a letter; no name that reads like one
        /// taken (case, `0`/`o`, `1`/`l`/`i`, `5`/`s`, `rn`/`m`, `_`/`-` do not tell names apart).
        name: String,
        /// 8–128 bytes. Only its Argon2id hash is kept.
        password: String,
        /// Seat tokens the client holds: their seats become the account's.
        #[serde(default)]
        claim: Vec<String>,
    },
    /// Sign in; answered by [`ServerMessage::SignedIn`].
    Login {
        /// The account's name (as [`ClientMessage::Signup`] reads names).
        name: String,
        /// Its password.
        password: String,
        /// As [`ClientMessage::Signup`]'s.
        #[serde(default)]
        claim: Vec<String>,
    },
    /// Sign in again with a session from [`ServerMessage::SignedIn`] (a new connection).
    Resume {
        /// The session token.
        session: String,
        /// As [`ClientMessage::Signup`]'s.
        #[serde(default)]
        claim: Vec<String>,
    },
    /// Sign out: the session ends everywhere; answered by [`ServerMessage::SignedOut`].
    Logout {
        /// The session token.
        session: String,
    },
    /// Enter the lobby: answered by a [`ServerMessage::Lobby`], sent again whenever it changes.
    Lobby {},
    /// The best ratings of one game; answered by [`ServerMessage::Leaderboard`].
    Leaderboard {
        /// The game id (`trike`, `trigon-3`, …).
        game: String,
    },
    /// A player's page; answered by [`ServerMessage::Profile`].
    Profile {
        /// The account's name.
        name: String,
    },
    /// Names the client a guest's retried requests belong to: a request id is answered again only
    /// to the account or client that sent it first (`docs/design.md` §Threat model). Sent first on
    /// each connection; a connection that sends none is a client of its own, so its request ids
    /// are not answered on another connection. Answered by nothing, or by an error.
    Hello {
        /// The client's secret: 128 random bits or more from the system's generator
        /// ([`check_secret`](super::secrets::check_secret)), kept while the client runs and shown
        /// to nobody else.
        client: String,
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

/// What a [`ClientMessage::Create`] asks for. [`NewGame::of`] gives the plainest: a casual game
/// by join code, seat 0, no clock, no tools, no bots.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The kind of game (`trike`, `trigon-3`, …).
    pub game: String,
    /// The game's options as its rules serialise them (`{"size": 7}`); missing fields, or a
    /// missing object, take the defaults of `game`.
    #[serde(default)]
    pub options: Value,
    /// The creator's seat, `0..players` (0 moves first).
    pub seat: u8,
    /// The clock of a live game; none for a correspondence game.
    #[serde(default)]
    pub clock: Option<Clock>,
    /// A correspondence game's time for each move, in days ([`DAYS_PER_MOVE`]): the seat to move
    /// loses once it passes ([`Snapshot::deadline_ms`]). None: no deadline (or a live clock).
    ///
    /// [`DAYS_PER_MOVE`]: super::game::DAYS_PER_MOVE
    /// [`Snapshot::deadline_ms`]: super::Snapshot::deadline_ms
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days_per_move: Option<u32>,
    /// Whether hints, Show thinking and analysis may be used while the game runs.
    #[serde(default)]
    pub allow_tools: bool,
    /// Whether the game is rated: the creator must be signed in, and so must everyone who
    /// takes a seat.
    #[serde(default)]
    pub rated: bool,
    /// Whether the game is an open challenge, listed in the lobby for anyone to accept
    /// ([`ClientMessage::Accept`]) until its seats are taken; else only its join code seats.
    #[serde(default)]
    pub lobby: bool,
    /// Bots to seat at once in the free seats, in seat order, by account name (one of
    /// [`LobbyView::bots`]).
    #[serde(default)]
    pub bots: Vec<String>,
    /// The client's id for this request, 128 random bits or more
    /// ([`check_secret`](super::secrets::check_secret)): the same request sent again with it (a
    /// retry after a dropped connection) by the same account or client
    /// ([`ClientMessage::Hello`]) is answered with the same game and token; the id sent with
    /// another request, or by anybody else, is refused.
    #[serde(default)]
    pub request_id: Option<String>,
}

impl NewGame {
    /// A casual correspondence game of `game` (its default options) by join code, the creator
    /// at seat 0, no tools, no bots, no request id: change the fields that differ
    /// (`NewGame { rated: true, ..NewGame::of("trike") }`).
    pub fn of(game: &str) -> NewGame {
        NewGame { game: game.to_string(), ..NewGame::default() }
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
        /// A correspondence game's deadline for the next mover once the move is stored, in ms
        /// since the Unix epoch (version 3; none for a live game, one without deadlines, or a
        /// forced move followed by another).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deadline_ms: Option<u64>,
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
    /// Signed in ([`ClientMessage::Signup`], [`ClientMessage::Login`], [`ClientMessage::Resume`]):
    /// the connection acts for the account until it closes or signs out.
    SignedIn {
        /// The account's name, as it was made.
        name: String,
        /// The session token (128 random bits, hex) to keep and send with
        /// [`ClientMessage::Resume`]; only its hash is stored.
        session: String,
        /// How many of the claimed seats became the account's.
        claimed: u32,
    },
    /// Signed out ([`ClientMessage::Logout`]).
    SignedOut {},
    /// The lobby as it stands ([`ClientMessage::Lobby`], and whenever it changes).
    Lobby(LobbyView),
    /// The best ratings of one game, best first ([`ClientMessage::Leaderboard`]).
    Leaderboard {
        /// The game id.
        game: String,
        /// Up to 100 ratings, settled ones (not provisional) first, then by rating.
        rows: Vec<RatingView>,
    },
    /// A player's page ([`ClientMessage::Profile`]).
    Profile(ProfileView),
    /// A rated game ended and changed its players' ratings; sent to its followers after the final
    /// state.
    Rated {
        /// The game.
        game_id: String,
        /// One entry per seat.
        changes: Vec<RatingChange>,
    },
    /// A message was refused and nothing changed.
    Error {
        /// What kind of refusal, for programs.
        code: ErrorCode,
        /// Why, in words for a person (an illegal move's rule reason).
        message: String,
        /// The game the refused message named, if it named one (version 3; absent in version 2's
        /// errors, and for a message that named none or could not be read).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game_id: Option<String>,
        /// The request id of the refused message, if it carried one (version 3, as `game_id`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        request_id: Option<String>,
    },
}

impl Refusal {
    /// The refusal as the message sent, about no game or request in particular (a message that
    /// could not be read).
    pub fn into_message(self) -> ServerMessage {
        ServerMessage::Error { code: self.code, message: self.message, game_id: None, request_id: None }
    }

    /// The refusal as the answer to `refused`: the error names the game and the request id that
    /// message named, so the client gives it to whoever sent it.
    pub fn answering(self, refused: &ClientMessage) -> ServerMessage {
        ServerMessage::Error {
            code: self.code,
            message: self.message,
            game_id: refused.game_id().map(str::to_string),
            request_id: refused.request_id().map(str::to_string),
        }
    }
}

impl ServerMessage {
    /// The game the message is about: a rematch's is the finished game it follows; an error's, the
    /// game its refused message named (none when it named none).
    pub fn game_id(&self) -> Option<&str> {
        match self {
            ServerMessage::Error { game_id, .. } => game_id.as_deref(),
            ServerMessage::State(s) => Some(&s.game_id),
            ServerMessage::Moved { game_id, .. }
            | ServerMessage::Presence { game_id, .. }
            | ServerMessage::Created { game_id, .. }
            | ServerMessage::Joined { game_id, .. } => Some(game_id),
            ServerMessage::Rematched { rematch_of, .. } => Some(rematch_of),
            ServerMessage::Rated { game_id, .. } => Some(game_id),
            ServerMessage::SignedIn { .. }
            | ServerMessage::SignedOut {}
            | ServerMessage::Lobby(_)
            | ServerMessage::Leaderboard { .. }
            | ServerMessage::Profile(_) => None,
        }
    }

    /// Every server message `type`, as sent.
    pub const TYPES: &'static [&'static str] = &[
        "created",
        "joined",
        "state",
        "moved",
        "presence",
        "rematched",
        "error",
        "signed_in",
        "signed_out",
        "lobby",
        "leaderboard",
        "profile",
        "rated",
    ];
}
