//! The values of accounts, ratings and the lobby on the wire (`docs/design.md` §Lobby): a
//! rating as shown ([`RatingView`]), its change at a game's end ([`RatingChange`]), the lobby's
//! open challenges and live games ([`LobbyView`]), a player's page ([`ProfileView`]).
//!
//! A rating is shown as one whole number, Weng-Lin's mean μ times [`RATING_SCALE`] (a new player's
//! μ = 25 shows as 1500), with its deviation σ likewise; it is provisional (`?` after it) while σ
//! is over [`PROVISIONAL_SIGMA`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::game::Clock;

/// What one point of Weng-Lin's μ is shown as.
pub const RATING_SCALE: f64 = 60.0;

/// A rating whose σ (in Weng-Lin's points) is over this is provisional: 12 games from the start's
/// 8.33 against an equal (`server::ratings` has the figures).
pub const PROVISIONAL_SIGMA: f64 = 6.0;

/// One player's rating in one game, as shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingView {
    /// The account's name.
    pub name: String,
    /// The rating pool: the game id (`trike`, `trigon-3`, …).
    pub game: String,
    /// μ × [`RATING_SCALE`], rounded.
    pub rating: i32,
    /// σ × [`RATING_SCALE`], rounded.
    pub deviation: i32,
    /// Rated games played in this pool.
    pub games: u32,
    /// Whether σ is still over [`PROVISIONAL_SIGMA`]: shown with a `?`.
    pub provisional: bool,
    /// Whether the account is a bot (an AI level or an outside engine).
    pub bot: bool,
}

impl RatingView {
    /// The rating as a person reads it: `1500?` while provisional, `1623` after.
    pub fn shown(&self) -> String {
        format!("{}{}", self.rating, provisional_mark(self.provisional))
    }
}

/// The mark after a rating that is still provisional: `?`, else nothing.
pub fn provisional_mark(provisional: bool) -> &'static str {
    if provisional { "?" } else { "" }
}

/// How one seat's rating moved at the end of a rated game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingChange {
    /// The seat.
    pub seat: u8,
    /// The account's name.
    pub name: String,
    /// The rating before the game, as shown (μ × [`RATING_SCALE`]).
    pub before: i32,
    /// The rating after it.
    pub after: i32,
    /// Whether the new rating is still provisional.
    pub provisional: bool,
}

/// A game as listed: an open challenge, a live game or a finished one.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameListing {
    /// The game.
    pub game_id: String,
    /// The kind of game (`trike`, …).
    pub game: String,
    /// Its options, complete.
    pub options: Value,
    /// The clock of a live game; none for correspondence.
    pub clock: Option<Clock>,
    /// A correspondence game's days per move; none for a live game or one without deadlines.
    /// Left out on the wire when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days_per_move: Option<u32>,
    /// The seat to move while it runs (none once over, or from an older server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_move: Option<u8>,
    /// When the seat to move of a correspondence game with days per move loses, in ms since the
    /// Unix epoch ([`Snapshot::deadline_ms`](super::Snapshot::deadline_ms)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_ms: Option<u64>,
    /// Whether it is rated.
    pub rated: bool,
    /// One entry per seat: the account holding it, `"guest"` for a seat held without one, none
    /// for a free seat.
    pub players: Vec<Option<String>>,
    /// Each seat's rating in this game when listed (none for a guest or a free seat).
    pub ratings: Vec<Option<i32>>,
    /// Whether each seat's rating is still provisional, shown with a `?` (empty from a server
    /// older than this field).
    #[serde(default)]
    pub provisional: Vec<bool>,
    /// How many moves it has.
    pub ply: u32,
    /// The winning seats, once it is over (empty while it runs, and for an aborted game).
    #[serde(default)]
    pub winners: Vec<u8>,
    /// Whether it was aborted: ended before every seat moved, unrated, nobody's loss
    /// ([`GameResult::aborted`](super::GameResult::aborted)). Left out on the wire when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub aborted: bool,
    /// When it was made, in ms since the Unix epoch.
    pub created_ms: u64,
}

/// The lobby as it stands: sent on a `lobby` request and again to everyone in the lobby whenever
/// it changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbyView {
    /// The open challenges, oldest first: games with a free seat that anyone may take.
    pub challenges: Vec<GameListing>,
    /// Games being played, newest first (at most 50), to watch.
    pub live: Vec<GameListing>,
    /// The bots one can ask for a game (`create` with `bots`), by name.
    pub bots: Vec<String>,
    /// How many people are connected to this server now (on this instance), each client once,
    /// whether in the lobby or at a board.
    pub online: u32,
}

/// A player's page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileView {
    /// The account's name.
    pub name: String,
    /// Whether it is a bot.
    pub bot: bool,
    /// When it was made, in ms since the Unix epoch.
    pub created_ms: u64,
    /// Its rating in each game it played rated.
    pub ratings: Vec<RatingView>,
    /// Its games, newest first (at most 100): finished ones and those still running.
    pub games: Vec<GameListing>,
}
