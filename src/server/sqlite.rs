//! [`SqliteStore`]: the [`Store`] in an SQLite database through `rusqlite`, one transaction per
//! write (or a savepoint in the transport's batch), its tables in [`super::schema`] and its
//! checkpoints on a thread of their own ([`super::checkpoint`]).

use std::fmt;
use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde_json::Value;

use super::checkpoint::Checkpointer;
use super::schema;
use super::sqlite_load::{moves_of, seat_tokens};
use super::sqlite_outs::{add_out, extras, set_days};
use super::store::{GameSetup, NewSeat, Store, StoreError, StoredGame};
use crate::net::protocol::{Clock, SeatOut};

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Failed(e.to_string())
    }
}

/// A [`Store`] in an SQLite database: a file in write-ahead-log mode with full syncs (a commit is
/// on disk when it returns), or an in-memory database for tests.
pub struct SqliteStore {
    pub(super) conn: Connection,
    /// Whether a batch ([`Store::begin_batch`]) is open: writes are then savepoints in it.
    in_batch: bool,
    /// The file's checkpoints, off the writers' path (none in memory).
    checkpointer: Option<Checkpointer>,
}

impl fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqliteStore").field("path", &self.conn.path()).finish()
    }
}

/// Removes the database file at `path` with its write-ahead log and shared-memory files (those
/// that are there): a throwaway database's end (serve-bench's, the tests').
pub fn remove_database(path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut file = path.as_os_str().to_owned();
        file.push(suffix);
        let _ = std::fs::remove_file(file);
    }
}

impl SqliteStore {
    /// Opens the database file at `path`, creating it and its tables if needed.
    ///
    /// # Errors
    /// [`StoreError::Failed`]: the file cannot be opened or written, or its schema is newer than
    /// this build's ([`SCHEMA_VERSION`](super::schema::SCHEMA_VERSION)) or not triboard's.
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
        schema::prepare(&tx)?;
        tx.commit()?;
        Ok(SqliteStore { conn, in_batch: false, checkpointer: None })
    }

    /// Runs one write, all or nothing: its own immediate transaction, or a savepoint inside an
    /// open batch.
    pub(super) fn write<T>(&mut self, f: impl FnOnce(&Connection) -> Result<T, StoreError>) -> Result<T, StoreError> {
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
    /// started at `at_ms` if every seat is taken and it is no rematch.
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
                                started_ms, rated, lobby, created_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
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
                setup.starts_at_creation().then(|| ms_sql(at_ms)),
                setup.rated,
                setup.lobby,
                ms_sql(at_ms),
            ],
        )?;
        for (seat, token) in (0..seats).zip(&setup.seats) {
            if let Some(token) = token {
                let account = setup.players.get(usize::from(seat)).copied().flatten();
                let request = setup.request.as_ref().filter(|(s, _)| *s == seat).map(|(_, key)| key);
                tx.execute(
                    "INSERT INTO seats (game_id, seat, token, account, request_id, request_of)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![setup.id, seat, token, account, request.map(|r| &r.id), request.map(|r| &r.of)],
                )?;
            }
        }
        set_days(tx, setup)
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

/// A time in ms as SQLite's signed integer.
pub(super) fn ms_sql(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

impl Store for SqliteStore {
    fn create_game(&mut self, setup: &GameSetup, at_ms: u64) -> Result<(), StoreError> {
        self.write(|tx| SqliteStore::insert_game(tx, setup, at_ms))
    }

    fn add_seat(&mut self, game_id: &str, new: NewSeat<'_>, at_ms: u64) -> Result<(), StoreError> {
        let seat = new.seat;
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
            tx.execute(
                "INSERT INTO seats (game_id, seat, token, account, request_id, request_of)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![game_id, seat, new.token, new.account, new.request.map(|r| &r.id), new.request.map(|r| &r.of)],
            )?;
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

    fn add_out(&mut self, game_id: &str, out: &SeatOut) -> Result<(), StoreError> {
        self.write(|tx| add_out(tx, game_id, out))
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

    fn start_clocks(&mut self, game_id: &str, at_ms: u64) -> Result<(), StoreError> {
        self.write(|tx| {
            let changed = tx.execute(
                "UPDATE games SET started_ms = COALESCE(started_ms, ?1) WHERE id = ?2",
                params![ms_sql(at_ms), game_id],
            )?;
            if changed == 0 { Err(StoreError::NotFound) } else { Ok(()) }
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
            "SELECT id FROM games WHERE (clock_minutes IS NOT NULL OR days_per_move IS NOT NULL) AND started_ms IS NOT NULL
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
        let Some(row) = game_row(&self.conn, game_id)? else {
            return Ok(None);
        };
        let options: Value = serde_json::from_str(&row.options)
            .map_err(|e| StoreError::Failed(format!("game {game_id} has unreadable options: {e}")))?;
        let (seats, players) = seat_tokens(&self.conn, game_id, row.seats)?;
        let (moves, move_ms) = moves_of(&self.conn, game_id)?;
        if let Some(tx) = tx {
            tx.finish()?;
        }
        let setup = GameSetup {
            id: game_id.to_string(),
            game: row.game,
            options,
            clock: row.clock,
            days_per_move: None,
            allow_tools: row.allow_tools,
            code: row.code,
            seats,
            rematch_of: row.rematch_of,
            players,
            rated: row.rated,
            lobby: row.lobby,
            request: None,
        };
        let ms = |ms: i64| u64::try_from(ms).unwrap_or(0);
        let started_ms = row.started_ms.map(ms);
        let (resigned, rematch, flagged) = (row.resigned, row.rematch, row.flagged);
        let (created_ms, ended_ms) = (ms(row.created_ms), row.ended_ms.map(ms));
        let (outs, days_per_move) = extras(&self.conn, game_id)?;
        let setup = GameSetup { days_per_move, ..setup };
        Ok(Some(StoredGame {
            setup,
            moves,
            resigned,
            rematch,
            move_ms,
            started_ms,
            flagged,
            created_ms,
            ended_ms,
            outs,
        }))
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

/// A game's row of `games`, as read ([`game_row`]).
struct GameRow {
    game: String,
    /// The options' JSON text.
    options: String,
    seats: u8,
    clock: Option<Clock>,
    allow_tools: bool,
    code: String,
    resigned: Option<u8>,
    rematch: Option<String>,
    rematch_of: Option<String>,
    started_ms: Option<i64>,
    flagged: Option<u8>,
    rated: bool,
    lobby: bool,
    created_ms: i64,
    ended_ms: Option<i64>,
}

/// The row of game `game_id`, if there is one.
fn game_row(conn: &Connection, game_id: &str) -> Result<Option<GameRow>, StoreError> {
    let row = conn
        .query_row(
            "SELECT game, options, seats, clock_minutes, clock_increment_s, allow_tools, code, resigned, rematch, rematch_of,
                    started_ms, flagged, rated, lobby, created_ms, ended_ms
             FROM games WHERE id = ?1",
            [game_id],
            |r| {
                let clock = match (r.get(3)?, r.get(4)?) {
                    (Some(minutes), Some(increment_s)) => Some(Clock { minutes, increment_s }),
                    _ => None,
                };
                Ok(GameRow {
                    game: r.get(0)?,
                    options: r.get(1)?,
                    seats: r.get(2)?,
                    clock,
                    allow_tools: r.get(5)?,
                    code: r.get(6)?,
                    resigned: r.get(7)?,
                    rematch: r.get(8)?,
                    rematch_of: r.get(9)?,
                    started_ms: r.get(10)?,
                    flagged: r.get(11)?,
                    rated: r.get(12)?,
                    lobby: r.get(13)?,
                    created_ms: r.get(14)?,
                    ended_ms: r.get(15)?,
                })
            },
        )
        .optional()?;
    Ok(row)
}
