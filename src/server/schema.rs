//! The SQLite store's tables ([`SCHEMA_VERSION`]) and their migrations: a new database gets the
//! tables, an older one is migrated, a newer one or another program's is refused unchanged.

use rusqlite::Transaction;

use super::store::{StoreError, now_ms};

/// The schema version this build writes and reads (table `schema_version`). Older versions are
/// migrated when opened: 1 (no times) to 2, 2 (no accounts) to 3, 3 (request ids not bound to
/// their requester) to 4, 4 (no seats out, no days per move) to 5.
pub const SCHEMA_VERSION: i64 = 5;

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

/// From schema version 2 to 3: accounts and their sessions, each seat's account and the request
/// that took it, rated and lobby games, when a game was made and ended, ratings and their changes.
/// Version 2's games were made and, if over, ended before the migration: their times are 0 and
/// their end is found when they are next loaded.
const MIGRATE_V2_TO_V3: &str = "
CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password TEXT NOT NULL,
    bot INTEGER NOT NULL DEFAULT 0,
    created_ms INTEGER NOT NULL
);
CREATE TABLE sessions (
    hash TEXT PRIMARY KEY NOT NULL,
    account INTEGER NOT NULL REFERENCES accounts(id),
    created_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE ratings (
    account INTEGER NOT NULL REFERENCES accounts(id),
    pool TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (account, pool)
) WITHOUT ROWID;
CREATE INDEX ratings_by_pool ON ratings(pool, mu);
CREATE TABLE rating_changes (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    account INTEGER NOT NULL REFERENCES accounts(id),
    pool TEXT NOT NULL,
    mu_before REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after REAL NOT NULL,
    sigma_after REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
ALTER TABLE seats ADD COLUMN account INTEGER REFERENCES accounts(id);
ALTER TABLE seats ADD COLUMN request_id TEXT;
CREATE UNIQUE INDEX seats_by_request ON seats(request_id);
CREATE INDEX seats_by_account ON seats(account);
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN lobby INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN created_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN ended_ms INTEGER;
CREATE INDEX games_open ON games(lobby, ended_ms);
";

/// From schema version 3 to 4: who asked for each seat taken with a request id, and for what
/// ([`RequestKey::of`](super::store::RequestKey::of)). Version 3's request ids were stored as
/// sent; no retry matches them now (its requester is unknown), so they are left as they are.
const MIGRATE_V3_TO_V4: &str = "
ALTER TABLE seats ADD COLUMN request_of TEXT;
";

/// From schema version 4 to 5: the seats that left a game of three or four that went on (JSON,
/// [`StoredGame::outs`](super::store::StoredGame::outs)) and a correspondence game's days per
/// move. Version 4's games have neither.
pub const MIGRATE_V4_TO_V5: &str = "
ALTER TABLE games ADD COLUMN outs TEXT NOT NULL DEFAULT '[]';
ALTER TABLE games ADD COLUMN days_per_move INTEGER;
";

/// Creates the tables in an empty database, migrates an older schema or checks the current one,
/// within `tx` (the caller commits).
///
/// # Errors
/// [`StoreError::Failed`]: a schema newer than [`SCHEMA_VERSION`], an unknown one, tables that are
/// not triboard's; the database's errors.
pub fn prepare(tx: &Transaction<'_>) -> Result<(), StoreError> {
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
                migrate_v1(tx)?;
                migrate_v2(tx)?;
                migrate_v3(tx)?;
                migrate_v4(tx)?;
            }
            Some(2) => {
                migrate_v2(tx)?;
                migrate_v3(tx)?;
                migrate_v4(tx)?;
            }
            Some(3) => {
                migrate_v3(tx)?;
                migrate_v4(tx)?;
            }
            Some(4) => migrate_v4(tx)?,
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
        tx.execute_batch(MIGRATE_V2_TO_V3)?;
        tx.execute_batch(MIGRATE_V3_TO_V4)?;
        tx.execute_batch(MIGRATE_V4_TO_V5)?;
        tx.execute("INSERT INTO schema_version (version) VALUES (?1)", [SCHEMA_VERSION])?;
    }
    Ok(())
}

/// From version 1 to 2: the live games' clocks start again now.
fn migrate_v1(tx: &Transaction<'_>) -> Result<(), StoreError> {
    tx.execute_batch(MIGRATE_V1_TO_V2)?;
    let now = i64::try_from(now_ms()).unwrap_or(i64::MAX);
    tx.execute("UPDATE moves SET at_ms = ?1", [now])?;
    tx.execute(
        "UPDATE games SET started_ms = ?1
         WHERE seats = (SELECT COUNT(*) FROM seats WHERE seats.game_id = games.id)",
        [now],
    )?;
    tx.execute("UPDATE schema_version SET version = 2", [])?;
    Ok(())
}

/// From version 2 to 3.
fn migrate_v2(tx: &Transaction<'_>) -> Result<(), StoreError> {
    tx.execute_batch(MIGRATE_V2_TO_V3)?;
    tx.execute("UPDATE schema_version SET version = 3", [])?;
    Ok(())
}

/// From version 3 to 4.
fn migrate_v3(tx: &Transaction<'_>) -> Result<(), StoreError> {
    tx.execute_batch(MIGRATE_V3_TO_V4)?;
    tx.execute("UPDATE schema_version SET version = 4", [])?;
    Ok(())
}

/// From version 4 to 5.
fn migrate_v4(tx: &Transaction<'_>) -> Result<(), StoreError> {
    tx.execute_batch(MIGRATE_V4_TO_V5)?;
    tx.execute("UPDATE schema_version SET version = ?1", [SCHEMA_VERSION])?;
    Ok(())
}
