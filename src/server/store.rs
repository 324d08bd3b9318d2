//! Where the server keeps its games: the [`Store`] trait, small enough that a server database can
//! replace SQLite later, and [`SqliteStore`], SQLite through `rusqlite` (`docs/design.md` §Network
//! play).
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

use std::fmt;
use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde_json::Value;

use crate::net::protocol::Clock;

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
    /// Whether the players may use hints, Show thinking and analysis while it runs.
    pub allow_tools: bool,
    /// The join code (eight characters, no dash).
    pub code: String,
    /// Each seat's token, `None` while the seat is free; one entry per seat.
    pub seats: Vec<Option<String>>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
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
    /// When every seat was taken (the clocks started), in ms since the Unix epoch.
    pub started_ms: Option<u64>,
    /// The seat whose clock ran out, if one did (the game is over).
    pub flagged: Option<u8>,
}

/// Why a store refused or failed a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// No game with that id.
    NotFound,
    /// The write does not fit what is stored (a move at another ply than the next, a seat taken,
    /// an id or code in use, a finished game); nothing was written.
    Conflict(String),
    /// The database failed (disk full, file unreadable, a newer schema); nothing was written.
    Failed(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::NotFound => f.write_str("no such game"),
            StoreError::Conflict(why) => write!(f, "refused: {why}"),
            StoreError::Failed(why) => write!(f, "the database failed: {why}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Failed(e.to_string())
    }
}

/// The server's storage: games, their seats and their moves. Each write is atomic; a write that
/// returned `Ok` survives a crash of the process.
pub trait Store {
    /// Stores a new game with no moves, made at `at_ms` (ms since the Unix epoch: its clocks
    /// start then if every seat is taken already).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if its id or join code is in use.
    fn create_game(&mut self, setup: &GameSetup, at_ms: u64) -> Result<(), StoreError>;

    /// Gives seat `seat` of a game the token `token` at `at_ms` (ms since the Unix epoch); the
    /// last seat taken starts the clocks then ([`StoredGame::started_ms`]).
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; [`StoreError::Conflict`] if the game has no such seat or it is
    /// taken.
    fn add_seat(&mut self, game_id: &str, seat: u8, token: &str, at_ms: u64) -> Result<(), StoreError>;

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

    /// Records that the clock of `seat` ran out, which ends the game.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; [`StoreError::Conflict`] if a seat resigned or flagged already.
    fn flag(&mut self, game_id: &str, seat: u8) -> Result<(), StoreError>;

    /// Stores `setup` as the rematch of game `of` (its `rematch_of` is set to `of`) and links `of`
    /// to it, both or neither; made at `at_ms` (ms since the Unix epoch) like
    /// [`Store::create_game`].
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for `of`; [`StoreError::Conflict`] if `of` has a rematch already
    /// or the new id or code is in use.
    fn create_rematch(&mut self, of: &str, setup: &GameSetup, at_ms: u64) -> Result<(), StoreError>;

    /// The ids of the games with a clock that has started and that nobody resigned and no clock
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

/// The schema version this build writes and reads (table `schema_version`). Version 1 (no times)
/// is migrated to 2 when opened.
pub const SCHEMA_VERSION: i64 = 2;

/// The tables of schema version 1.
const SCHEMA_V1: &str = "
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE games (
    id TEXT PRIMARY KEY NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seats INTEGER NOT NULL,
    clock_minutes INTEGER,
    clock_increment_s INTEGER,
    allow_tools INTEGER NOT NULL,
    code TEXT NOT NULL UNIQUE,
    resigned INTEGER,
    rematch TEXT,
    rematch_of TEXT
);
CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX seats_by_token ON seats(token);
CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
";

/// From schema version 1 to 2: each move's time, when the clocks started, a flag. Version 1 kept
/// no times, so its live games' clocks start again at the migration (`?1`, ms since the epoch).
const MIGRATE_V1_TO_V2: &str = "
ALTER TABLE moves ADD COLUMN at_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN started_ms INTEGER;
ALTER TABLE games ADD COLUMN flagged INTEGER;
";

/// A [`Store`] in an SQLite database: a file in write-ahead-log mode with full syncs (a commit is
/// on disk when it returns), or an in-memory database for tests.
pub struct SqliteStore {
    conn: Connection,
    /// Whether a batch ([`Store::begin_batch`]) is open: writes are then savepoints in it.
    in_batch: bool,
    /// The file's checkpoints, off the writers' path (none in memory).
    checkpointer: Option<Checkpointer>,
}

/// How often the checkpointer copies the write-ahead log into the database file.
pub const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// A thread with its own connection that checkpoints the write-ahead log ([`CHECKPOINT_EVERY`],
/// passive: it never waits for or blocks a writer). The writing connection's automatic
/// checkpoints are off, so no commit also pays for copying the log into the file and syncing it
/// (what made `serve-bench`'s slowest moves on a slow disk). Measured with every sync slowed to
/// 8 ms by strace (README §Host a server): `serve-bench --games 500` p99 54.8 and 59.8 ms with
/// the writer's own checkpoints, 35.3, 43.8 and 44.5 ms with this thread; p50 18 ms either way.
struct Checkpointer {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Checkpointer {
    fn start(path: &Path) -> Result<Checkpointer, StoreError> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(5))?;
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::Builder::new()
            .name("triboard-checkpoint".into())
            .spawn(move || {
                let checkpoint = || {
                    let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                };
                while !stopped.load(std::sync::atomic::Ordering::Relaxed) {
                    std::thread::park_timeout(CHECKPOINT_EVERY);
                    checkpoint();
                }
            })
            .map_err(|e| StoreError::Failed(format!("cannot start the checkpoint thread: {e}")))?;
        Ok(Checkpointer { stop, thread: Some(thread) })
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

impl fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqliteStore").field("path", &self.conn.path()).finish()
    }
}

impl SqliteStore {
    /// Opens the database file at `path`, creating it and its tables if needed.
    ///
    /// # Errors
    /// [`StoreError::Failed`]: the file cannot be opened or written, or its schema is newer than
    /// this build's ([`SCHEMA_VERSION`]) or not triboard's.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        let conn = Connection::open(path.as_ref())?;
        let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Failed(format!("the database cannot use a write-ahead log (journal mode {mode})")));
        }
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        let mut store = SqliteStore::prepare(conn)?;
        store.checkpointer = Some(Checkpointer::start(path.as_ref())?);
        Ok(store)
    }

    /// A new, empty in-memory database (gone when dropped), for tests.
    ///
    /// # Errors
    /// [`StoreError::Failed`] if SQLite cannot start.
    pub fn open_in_memory() -> Result<SqliteStore, StoreError> {
        SqliteStore::prepare(Connection::open_in_memory()?)
    }

    /// Sets the connection's pragmas and creates or checks the schema.
    fn prepare(mut conn: Connection) -> Result<SqliteStore, StoreError> {
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(Duration::from_secs(5))?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let has_version: bool = tx.query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version')",
            [],
            |row| row.get(0),
        )?;
        if has_version {
            let version: Option<i64> = tx.query_row("SELECT MAX(version) FROM schema_version", [], |row| row.get(0))?;
            match version {
                Some(SCHEMA_VERSION) => {}
                Some(1) => {
                    tx.execute_batch(MIGRATE_V1_TO_V2)?;
                    let now = i64::try_from(now_ms()).unwrap_or(i64::MAX);
                    tx.execute("UPDATE moves SET at_ms = ?1", [now])?;
                    tx.execute(
                        "UPDATE games SET started_ms = ?1
                         WHERE seats = (SELECT COUNT(*) FROM seats WHERE seats.game_id = games.id)",
                        [now],
                    )?;
                    tx.execute("UPDATE schema_version SET version = ?1", [SCHEMA_VERSION])?;
                }
                Some(v) if v > SCHEMA_VERSION => {
                    return Err(StoreError::Failed(format!(
                        "the database has schema version {v}, newer than this server's {SCHEMA_VERSION}"
                    )));
                }
                other => {
                    return Err(StoreError::Failed(format!("the database has an unknown schema version {other:?}")));
                }
            }
        } else {
            let tables: i64 =
                tx.query_row("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'", [], |row| row.get(0))?;
            if tables > 0 {
                return Err(StoreError::Failed("the database has tables but is not a triboard server's".into()));
            }
            tx.execute_batch(SCHEMA_V1)?;
            tx.execute_batch(MIGRATE_V1_TO_V2)?;
            tx.execute("INSERT INTO schema_version (version) VALUES (?1)", [SCHEMA_VERSION])?;
        }
        tx.commit()?;
        Ok(SqliteStore { conn, in_batch: false, checkpointer: None })
    }

    /// Runs one write, all or nothing: its own immediate transaction, or a savepoint inside an
    /// open batch.
    fn write<T>(&mut self, f: impl FnOnce(&Connection) -> Result<T, StoreError>) -> Result<T, StoreError> {
        if self.in_batch {
            let sp = self.conn.savepoint()?;
            let value = f(&sp)?;
            sp.commit()?;
            Ok(value)
        } else {
            let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let value = f(&tx)?;
            tx.commit()?;
            Ok(value)
        }
    }

    /// Inserts a game and its taken seats within transaction `tx`, refusing a used id or code;
    /// started at `at_ms` if every seat is taken.
    fn insert_game(tx: &Connection, setup: &GameSetup, at_ms: u64) -> Result<(), StoreError> {
        let id_used: bool =
            tx.query_row("SELECT EXISTS (SELECT 1 FROM games WHERE id = ?1)", [&setup.id], |r| r.get(0))?;
        if id_used {
            return Err(StoreError::Conflict(format!("the game id {} is in use", setup.id)));
        }
        let code_used: bool =
            tx.query_row("SELECT EXISTS (SELECT 1 FROM games WHERE code = ?1)", [&setup.code], |r| r.get(0))?;
        if code_used {
            return Err(StoreError::Conflict(format!("the join code {} is in use", setup.code)));
        }
        let seats = u8::try_from(setup.seats.len())
            .map_err(|_| StoreError::Conflict(format!("{} seats are too many", setup.seats.len())))?;
        let options = serde_json::to_string(&setup.options).map_err(|e| StoreError::Failed(e.to_string()))?;
        tx.execute(
            "INSERT INTO games (id, game, options, seats, clock_minutes, clock_increment_s, allow_tools, code, rematch_of,
                                started_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                setup.id,
                setup.game,
                options,
                seats,
                setup.clock.map(|c| c.minutes),
                setup.clock.map(|c| c.increment_s),
                setup.allow_tools,
                setup.code,
                setup.rematch_of,
                setup.seats.iter().all(Option::is_some).then(|| ms_sql(at_ms)),
            ],
        )?;
        for (seat, token) in (0..seats).zip(&setup.seats) {
            if let Some(token) = token {
                tx.execute(
                    "INSERT INTO seats (game_id, seat, token) VALUES (?1, ?2, ?3)",
                    params![setup.id, seat, token],
                )?;
            }
        }
        Ok(())
    }
}

/// Why game `game_id` is over outside its rules, if it is: a seat resigned or flagged.
///
/// # Errors
/// [`StoreError::NotFound`] when there is no such game; the database's errors.
fn ended(conn: &Connection, game_id: &str) -> Result<Option<String>, StoreError> {
    let row: Option<(Option<u8>, Option<u8>)> = conn
        .query_row("SELECT resigned, flagged FROM games WHERE id = ?1", [game_id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    Ok(match row.ok_or(StoreError::NotFound)? {
        (Some(seat), _) => Some(format!("seat {seat} resigned")),
        (None, Some(seat)) => Some(format!("seat {seat}'s clock ran out")),
        (None, None) => None,
    })
}

/// Now, in ms since the Unix epoch (0 if the system clock is before it).
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// A time in ms as SQLite's signed integer.
fn ms_sql(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

impl Store for SqliteStore {
    fn create_game(&mut self, setup: &GameSetup, at_ms: u64) -> Result<(), StoreError> {
        self.write(|tx| SqliteStore::insert_game(tx, setup, at_ms))
    }

    fn add_seat(&mut self, game_id: &str, seat: u8, token: &str, at_ms: u64) -> Result<(), StoreError> {
        self.write(|tx| {
            let seats: Option<u8> =
                tx.query_row("SELECT seats FROM games WHERE id = ?1", [game_id], |r| r.get(0)).optional()?;
            let seats = seats.ok_or(StoreError::NotFound)?;
            if seat >= seats {
                return Err(StoreError::Conflict(format!("the game has no seat {seat}")));
            }
            let taken: bool = tx.query_row(
                "SELECT EXISTS (SELECT 1 FROM seats WHERE game_id = ?1 AND seat = ?2)",
                params![game_id, seat],
                |r| r.get(0),
            )?;
            if taken {
                return Err(StoreError::Conflict(format!("seat {seat} is taken")));
            }
            tx.execute("INSERT INTO seats (game_id, seat, token) VALUES (?1, ?2, ?3)", params![game_id, seat, token])?;
            let held: u32 = tx.query_row("SELECT COUNT(*) FROM seats WHERE game_id = ?1", [game_id], |r| r.get(0))?;
            if held == u32::from(seats) {
                tx.execute("UPDATE games SET started_ms = ?1 WHERE id = ?2", params![ms_sql(at_ms), game_id])?;
            }
            Ok(())
        })
    }

    fn append_moves(&mut self, game_id: &str, ply: u32, texts: &[String], at_ms: u64) -> Result<(), StoreError> {
        self.write(|tx| {
            if let Some(why) = ended(tx, game_id)? {
                return Err(StoreError::Conflict(format!("the game is over: {why}")));
            }
            let stored: u32 = tx.query_row("SELECT COUNT(*) FROM moves WHERE game_id = ?1", [game_id], |r| r.get(0))?;
            if stored != ply {
                return Err(StoreError::Conflict(format!("the game has {stored} moves, so the next ply is not {ply}")));
            }
            let mut insert = tx.prepare("INSERT INTO moves (game_id, ply, text, at_ms) VALUES (?1, ?2, ?3, ?4)")?;
            for (k, text) in texts.iter().enumerate() {
                let k = u32::try_from(k).ok().and_then(|k| ply.checked_add(k));
                let k = k.ok_or_else(|| StoreError::Conflict("too many moves".into()))?;
                insert.execute(params![game_id, k, text, ms_sql(at_ms)])?;
            }
            Ok(())
        })
    }

    fn resign(&mut self, game_id: &str, seat: u8) -> Result<(), StoreError> {
        self.write(|tx| {
            if let Some(why) = ended(tx, game_id)? {
                return Err(StoreError::Conflict(format!("the game is over: {why}")));
            }
            tx.execute("UPDATE games SET resigned = ?1 WHERE id = ?2", params![seat, game_id])?;
            Ok(())
        })
    }

    fn flag(&mut self, game_id: &str, seat: u8) -> Result<(), StoreError> {
        self.write(|tx| {
            if let Some(why) = ended(tx, game_id)? {
                return Err(StoreError::Conflict(format!("the game is over: {why}")));
            }
            tx.execute("UPDATE games SET flagged = ?1 WHERE id = ?2", params![seat, game_id])?;
            Ok(())
        })
    }

    fn create_rematch(&mut self, of: &str, setup: &GameSetup, at_ms: u64) -> Result<(), StoreError> {
        self.write(|tx| {
            let rematch: Option<Option<String>> =
                tx.query_row("SELECT rematch FROM games WHERE id = ?1", [of], |r| r.get(0)).optional()?;
            match rematch {
                None => return Err(StoreError::NotFound),
                Some(Some(id)) => return Err(StoreError::Conflict(format!("the game has a rematch already, {id}"))),
                Some(None) => {}
            }
            let setup = GameSetup { rematch_of: Some(of.to_string()), ..setup.clone() };
            SqliteStore::insert_game(tx, &setup, at_ms)?;
            tx.execute("UPDATE games SET rematch = ?1 WHERE id = ?2", params![setup.id, of])?;
            Ok(())
        })
    }

    fn clocked_games(&self) -> Result<Vec<String>, StoreError> {
        let mut query = self.conn.prepare(
            "SELECT id FROM games WHERE clock_minutes IS NOT NULL AND started_ms IS NOT NULL
             AND resigned IS NULL AND flagged IS NULL ORDER BY rowid",
        )?;
        let ids = query.query_map([], |r| r.get(0))?.collect::<Result<Vec<String>, _>>()?;
        Ok(ids)
    }

    fn begin_batch(&mut self) -> Result<(), StoreError> {
        if !self.in_batch {
            self.conn.execute_batch("BEGIN IMMEDIATE")?;
            self.in_batch = true;
        }
        Ok(())
    }

    fn commit_batch(&mut self) -> Result<(), StoreError> {
        if !self.in_batch {
            return Ok(());
        }
        self.in_batch = false;
        if let Err(e) = self.conn.execute_batch("COMMIT") {
            let _ = self.conn.execute_batch("ROLLBACK");
            return Err(e.into());
        }
        Ok(())
    }

    fn load_game(&self, game_id: &str) -> Result<Option<StoredGame>, StoreError> {
        // One read transaction: the game, its seats and its moves as of one moment (a batch is
        // one already).
        let tx = if self.in_batch { None } else { Some(self.conn.unchecked_transaction()?) };
        let conn = &self.conn;
        type Row = (
            String,
            String,
            u8,
            Option<u32>,
            Option<u32>,
            bool,
            String,
            Option<u8>,
            Option<String>,
            Option<String>,
            Option<i64>,
            Option<u8>,
        );
        let row: Option<Row> = conn
            .query_row(
                "SELECT game, options, seats, clock_minutes, clock_increment_s, allow_tools, code, resigned, rematch, rematch_of,
                        started_ms, flagged
                 FROM games WHERE id = ?1",
                [game_id],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                        r.get(7)?,
                        r.get(8)?,
                        r.get(9)?,
                        r.get(10)?,
                        r.get(11)?,
                    ))
                },
            )
            .optional()?;
        let Some((
            game,
            options,
            seats,
            minutes,
            increment_s,
            allow_tools,
            code,
            resigned,
            rematch,
            rematch_of,
            started_ms,
            flagged,
        )) = row
        else {
            return Ok(None);
        };
        let options: Value = serde_json::from_str(&options)
            .map_err(|e| StoreError::Failed(format!("game {game_id} has unreadable options: {e}")))?;
        let clock = match (minutes, increment_s) {
            (Some(minutes), Some(increment_s)) => Some(Clock { minutes, increment_s }),
            _ => None,
        };
        let mut seat_tokens = vec![None; usize::from(seats)];
        {
            let mut query = conn.prepare("SELECT seat, token FROM seats WHERE game_id = ?1")?;
            let rows = query.query_map([game_id], |r| Ok((r.get::<_, u8>(0)?, r.get::<_, String>(1)?)))?;
            for row in rows {
                let (seat, token) = row?;
                let slot = seat_tokens
                    .get_mut(usize::from(seat))
                    .ok_or_else(|| StoreError::Failed(format!("game {game_id} has a token for seat {seat}")))?;
                *slot = Some(token);
            }
        }
        let mut moves = Vec::new();
        let mut move_ms = Vec::new();
        {
            let mut query = conn.prepare("SELECT ply, text, at_ms FROM moves WHERE game_id = ?1 ORDER BY ply")?;
            let rows = query
                .query_map([game_id], |r| Ok((r.get::<_, u32>(0)?, r.get::<_, String>(1)?, r.get::<_, i64>(2)?)))?;
            for row in rows {
                let (ply, text, at_ms) = row?;
                if usize::try_from(ply).ok() != Some(moves.len()) {
                    return Err(StoreError::Failed(format!("game {game_id} lacks the move at ply {}", moves.len())));
                }
                moves.push(text);
                move_ms.push(u64::try_from(at_ms).unwrap_or(0));
            }
        }
        if let Some(tx) = tx {
            tx.finish()?;
        }
        let setup = GameSetup {
            id: game_id.to_string(),
            game,
            options,
            clock,
            allow_tools,
            code,
            seats: seat_tokens,
            rematch_of,
        };
        let started_ms = started_ms.map(|ms| u64::try_from(ms).unwrap_or(0));
        Ok(Some(StoredGame { setup, moves, resigned, rematch, move_ms, started_ms, flagged }))
    }

    fn game_of_code(&self, code: &str) -> Result<Option<String>, StoreError> {
        Ok(self.conn.query_row("SELECT id FROM games WHERE code = ?1", [code], |r| r.get(0)).optional()?)
    }

    fn games_of_token(&self, token: &str) -> Result<Vec<String>, StoreError> {
        let mut query = self.conn.prepare(
            "SELECT s.game_id FROM seats s JOIN games g ON g.id = s.game_id WHERE s.token = ?1 ORDER BY g.rowid",
        )?;
        let ids = query.query_map([token], |r| r.get(0))?.collect::<Result<Vec<String>, _>>()?;
        Ok(ids)
    }
}
