//! Where the server keeps its games: the [`Store`] trait, small enough that a server database can
//! replace SQLite later, with the games as it keeps them ([`GameSetup`], [`StoredGame`]) and its
//! errors; [`SqliteStore`](super::sqlite::SqliteStore) is SQLite through `rusqlite`, its tables in
//! [`super::schema`] (`docs/design.md` §Network play).
//!
//! A store knows nothing of the rules: it keeps each game's setup, its seats' tokens and its moves
//! as text, and refuses a write that does not fit what it holds (a move appended at another ply
//! than the next, a seat taken twice, a resignation of a finished game). Every write is one
//! transaction, so a write either happened whole or not at all, and a write that returned `Ok` is
//! on disk (SQLite's write-ahead log with `synchronous = FULL`) — or, inside a batch
//! ([`Store::begin_batch`]), once the batch's [`Store::commit_batch`] returned `Ok`: the transport's
//! group commit, one disk sync for every message waiting at that moment.
//!
//! Times are in ms since the Unix epoch: each move's (`moves.at_ms`) and the moment every seat was
//! taken (`games.started_ms`), so that a live game's clocks are recomputed exactly after a restart.

use serde_json::Value;

pub use super::account_store::{Account, AccountId, Accounts, RatingRecord, SeatOfRequest, StoredRating};
use super::limits::Hits;
pub use super::store_error::StoreError;
use crate::net::protocol::{Clock, SeatOut};

/// How a game was set up: everything about it but what happened in it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSetup {
    /// The game's id on this server (16 hex digits).
    pub id: String,
    /// The kind of game (`trike`, `trigon-2`, …).
    pub game: String,
    /// The game's options, complete, as its rules serialise them.
    pub options: Value,
    /// The live game's clock setting; `None` for correspondence.
    pub clock: Option<Clock>,
    /// A correspondence game's time for each move, in days (1, 3 or 7: `games.days_per_move`);
    /// `None` for a live game or one without a deadline.
    pub days_per_move: Option<u32>,
    /// Whether the players may use hints, Show thinking and analysis while it runs.
    pub allow_tools: bool,
    /// The join code (eight characters, no dash).
    pub code: String,
    /// Each seat's token, `None` while the seat is free; one entry per seat.
    pub seats: Vec<Option<String>>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// Each seat's account, `None` for a free seat or a guest's; one entry per seat.
    pub players: Vec<Option<AccountId>>,
    /// Whether the game is rated (every seat an account's).
    pub rated: bool,
    /// Whether the game is an open challenge, listed in the lobby while a seat is free.
    pub lobby: bool,
    /// The creator's seat and the request it was taken with, if the creator sent a request id.
    pub request: Option<(u8, RequestKey)>,
}

/// A request id as stored with the seat it took (`docs/design.md` §Threat model): the id's hash,
/// unique in the store, and the hash of who asked and for what, which a retry must match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestKey {
    /// The request id's BLAKE2s-256 hash, hex (column `seats.request_id`).
    pub id: String,
    /// The hash of the requester (an account, or a guest's client) and the request (its kind
    /// and the code, game id or game kind it names), hex (column `seats.request_of`).
    pub of: String,
}

/// A seat being taken ([`Store::add_seat`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewSeat<'a> {
    /// The seat.
    pub seat: u8,
    /// Its secret token.
    pub token: &'a str,
    /// The account taking it; none for a guest.
    pub account: Option<AccountId>,
    /// The client's request, kept so a retry of it is answered with the same seat.
    pub request: Option<&'a RequestKey>,
}

impl GameSetup {
    /// Whether it has a live game's clocks (else its deadlines, if any, are days per move).
    pub fn clocks_run(&self) -> bool {
        self.clock.is_some()
    }

    /// Whether its clocks start when it is stored: every seat is taken and it is no rematch (a
    /// rematch's wait for its players, [`Store::start_clocks`]).
    pub fn starts_at_creation(&self) -> bool {
        self.rematch_of.is_none() && self.seats.iter().all(Option::is_some)
    }
}

/// A game as stored: its setup and what happened in it.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    /// How it was set up, with the seats as they are now.
    pub setup: GameSetup,
    /// Every move, in the game's notation, in order.
    pub moves: Vec<String>,
    /// The seat that resigned, if one did.
    pub resigned: Option<u8>,
    /// The rematch of this game, once one was made.
    pub rematch: Option<String>,
    /// When each move was stored, in ms since the Unix epoch, one per move.
    pub move_ms: Vec<u64>,
    /// When the clocks started, in ms since the Unix epoch: when every seat was taken, or for a
    /// rematch when every player was back at its board.
    pub started_ms: Option<u64>,
    /// The seat whose clock ran out, if one did (the game is over).
    pub flagged: Option<u8>,
    /// When it was made, in ms since the Unix epoch (0 for a game older than accounts).
    pub created_ms: u64,
    /// When it ended, in ms since the Unix epoch, once the service recorded its end
    /// ([`Accounts::end_game`](super::account_store::Accounts::end_game)).
    pub ended_ms: Option<u64>,
    /// The seats of a game of three or four that left it while the others play on, in the order
    /// they left (`games.outs`, JSON).
    pub outs: Vec<SeatOut>,
}

/// The server's storage: games, their seats and their moves, and ([`Accounts`]) accounts, ratings
/// and the lobby's lists. Each write is atomic; a write that returned `Ok` survives a crash of the
/// process.
pub trait Store: Accounts {
    /// Stores a new game with no moves, made at `at_ms` (ms since the Unix epoch: its clocks
    /// start then if every seat is taken already, unless it is a rematch, whose clocks wait for
    /// [`Store::start_clocks`]).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if its id or join code is in use.
    fn create_game(&mut self, setup: &GameSetup, at_ms: u64) -> Result<(), StoreError>;

    /// Gives `seat.seat` of a game its token (and account, and request id) at `at_ms` (ms since the Unix epoch); the
    /// last seat taken starts the clocks then ([`StoredGame::started_ms`]).
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; [`StoreError::Conflict`] if the game has no such seat or it is
    /// taken.
    fn add_seat(&mut self, game_id: &str, seat: NewSeat<'_>, at_ms: u64) -> Result<(), StoreError>;

    /// Appends `texts` as the moves at plies `ply`, `ply + 1`, …, all or none, each played at
    /// `at_ms` (ms since the Unix epoch): `ply` must be the number of moves stored, so a duplicate
    /// or out-of-order append is refused.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; [`StoreError::Conflict`] if `ply` is not the next ply, a seat
    /// resigned or a clock ran out.
    fn append_moves(&mut self, game_id: &str, ply: u32, texts: &[String], at_ms: u64) -> Result<(), StoreError>;

    /// Records that `seat` resigned, which ends the game.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; [`StoreError::Conflict`] if a seat resigned already or a clock
    /// ran out.
    fn resign(&mut self, game_id: &str, seat: u8) -> Result<(), StoreError>;

    /// Records that `out.seat` left a game of three or four that goes on without it
    /// ([`StoredGame::outs`]).
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; [`StoreError::Conflict`] if the game is over (a seat resigned or
    /// flagged) or the seat is out already.
    fn add_out(&mut self, game_id: &str, out: &SeatOut) -> Result<(), StoreError>;

    /// Records that the clock of `seat` ran out, which ends the game.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; [`StoreError::Conflict`] if a seat resigned or flagged already.
    fn flag(&mut self, game_id: &str, seat: u8) -> Result<(), StoreError>;

    /// [`Store::flag`], refused with [`StoreError::Conflict`] unless the game has exactly `ply`
    /// moves: the flag was decided on that many, and another server sharing the store may have
    /// stored a move meanwhile. Default: [`Store::flag`] (one server, nobody else writes).
    ///
    /// # Errors
    /// Those of [`Store::flag`]; [`StoreError::Conflict`] if the game has another number of moves.
    fn flag_at(&mut self, game_id: &str, seat: u8, ply: u32) -> Result<(), StoreError> {
        let _ = ply;
        self.flag(game_id, seat)
    }

    /// Stores `setup` as the rematch of game `of` (its `rematch_of` is set to `of`) and links `of`
    /// to it, both or neither; made at `at_ms` (ms since the Unix epoch) like
    /// [`Store::create_game`].
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for `of`; [`StoreError::Conflict`] if `of` has a rematch already
    /// or the new id or code is in use.
    fn create_rematch(&mut self, of: &str, setup: &GameSetup, at_ms: u64) -> Result<(), StoreError>;

    /// Starts the clocks of game `game_id` at `at_ms` (ms since the Unix epoch) unless they
    /// started already: a rematch's, once every player is back at its board.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; [`StoreError::Failed`].
    fn start_clocks(&mut self, game_id: &str, at_ms: u64) -> Result<(), StoreError>;

    /// The ids of the games with a clock (or days per move) that has started and that nobody resigned and no clock
    /// ended (those whose clocks may be running), oldest first.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn clocked_games(&self) -> Result<Vec<String>, StoreError>;

    /// Starts a batch: the writes until [`Store::commit_batch`] are one transaction, each still
    /// all or nothing on its own, and none is durable before the batch's commit. Default: no
    /// batching (every write commits on its own).
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn begin_batch(&mut self) -> Result<(), StoreError> {
        Ok(())
    }

    /// Commits the batch begun by [`Store::begin_batch`]: on `Ok` every write of it is durable; on
    /// an error none is (they are rolled back).
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn commit_batch(&mut self) -> Result<(), StoreError> {
        Ok(())
    }

    /// Whether other servers may share this store (PostgreSQL): then a game in memory can be
    /// stale, and the service checks it against the store before refusing a move
    /// (`docs/design.md` §Several instances). Default: no (SQLite is one server's).
    fn shared(&self) -> bool {
        false
    }

    /// Where the limits count their events when several servers share this store, so that they
    /// hold across the instances (`server::limits`); none (the default): each counts in memory.
    fn shared_hits(&mut self) -> Option<&mut dyn Hits> {
        None
    }

    /// Publishes `payload` (at most [`MAX_PUBLISH_BYTES`] bytes of text) to every server sharing
    /// the store: PostgreSQL's `NOTIFY` on [`CHANNEL`]. Inside a batch it is sent at the batch's
    /// commit, and dropped if the batch rolls back; else at once. Default: nothing (no other
    /// server hears it).
    ///
    /// # Errors
    /// [`StoreError::Failed`]; [`StoreError::Conflict`] if the payload is too long.
    fn publish(&mut self, _payload: &str) -> Result<(), StoreError> {
        Ok(())
    }

    /// [`Store::publish`] of each of `payloads`, in order: PostgreSQL sends them in one
    /// statement. Default: one [`Store::publish`] each.
    ///
    /// # Errors
    /// Those of [`Store::publish`]; none is sent if one is refused.
    fn publish_all(&mut self, payloads: &[String]) -> Result<(), StoreError> {
        payloads.iter().try_for_each(|p| self.publish(p))
    }

    /// Tries to make this server the leader, the one of those sharing the store that sweeps for
    /// clocks that ran out; returns whether it is. PostgreSQL: a session-level advisory lock
    /// ([`LEADER_LOCK`]), kept until this store's connection closes (the process ending, killed
    /// or not), so the lead passes to a survivor's next try. Default: always the leader.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn try_lead(&mut self) -> Result<bool, StoreError> {
        Ok(true)
    }

    /// The game with this id, or `None`.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn load_game(&self, game_id: &str) -> Result<Option<StoredGame>, StoreError>;

    /// The id of the game with this join code, or `None`.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn game_of_code(&self, code: &str) -> Result<Option<String>, StoreError>;

    /// The ids of the games where `token` holds a seat, oldest first.
    ///
    /// # Errors
    /// [`StoreError::Failed`].
    fn games_of_token(&self, token: &str) -> Result<Vec<String>, StoreError>;
}

/// The `LISTEN`/`NOTIFY` channel on which the servers sharing a PostgreSQL store publish
/// ([`Store::publish`]).
pub const CHANNEL: &str = "triboard";

/// The longest payload [`Store::publish`] takes, in bytes (PostgreSQL's limit is 8000).
pub const MAX_PUBLISH_BYTES: usize = 7900;

/// The advisory lock key whose holder leads ([`Store::try_lead`]): "TRIBOARD" read as ASCII.
pub const LEADER_LOCK: i64 = 0x5452_4942_4f41_5244;

/// Now, in ms since the Unix epoch (0 if the system clock is before it).
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
