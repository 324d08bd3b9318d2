//! The [`Accounts`] part of [`SqliteStore`]: accounts, sessions, ratings and the lobby's lists in
//! the tables of schema version 3 ([`super::schema`]).

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::account_store::{Account, AccountId, Accounts, RatingRecord, SeatOfRequest, StoredRating};
use super::sqlite::{SqliteStore, ms_sql};
use super::store::StoreError;

/// The columns [`account_of`] reads, in order.
const ACCOUNT_COLUMNS: &str = "a.id, a.name, a.password, a.bot, a.created_ms";

/// An account from a row of [`ACCOUNT_COLUMNS`] (from column `at` on).
fn account_of(r: &Row<'_>, at: usize) -> rusqlite::Result<Account> {
    Ok(Account {
        id: r.get(at)?,
        name: r.get(at + 1)?,
        password_hash: r.get(at + 2)?,
        bot: r.get(at + 3)?,
        created_ms: u64::try_from(r.get::<_, i64>(at + 4)?).unwrap_or(0),
    })
}

/// A rating from the columns `mu, sigma, games` from column `at` on.
fn rating_of(r: &Row<'_>, at: usize) -> rusqlite::Result<StoredRating> {
    Ok(StoredRating { mu: r.get(at)?, sigma: r.get(at + 1)?, games: r.get(at + 2)? })
}

/// The ids a query of one text column gives.
fn ids(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> Result<Vec<String>, StoreError> {
    let mut query = conn.prepare(sql)?;
    let ids = query.query_map(params, |r| r.get(0))?.collect::<Result<Vec<String>, _>>()?;
    Ok(ids)
}

/// A limit as SQLite's integer.
fn limit_sql(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}

impl Accounts for SqliteStore {
    fn create_account(
        &mut self,
        name: &str,
        name_key: &str,
        password_hash: &str,
        bot: bool,
        at_ms: u64,
    ) -> Result<AccountId, StoreError> {
        self.write(|tx| {
            let taken: bool =
                tx.query_row("SELECT EXISTS (SELECT 1 FROM accounts WHERE name_key = ?1)", [name_key], |r| r.get(0))?;
            if taken {
                return Err(StoreError::Conflict(format!("an account reads as {name_key} already")));
            }
            tx.execute(
                "INSERT INTO accounts (name, name_key, password, bot, created_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![name, name_key, password_hash, bot, ms_sql(at_ms)],
            )?;
            Ok(tx.last_insert_rowid())
        })
    }

    fn account_by_key(&self, name_key: &str) -> Result<Option<Account>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.name_key = ?1");
        Ok(self.conn.query_row(&sql, [name_key], |r| account_of(r, 0)).optional()?)
    }

    fn account_by_id(&self, id: AccountId) -> Result<Option<Account>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = ?1");
        Ok(self.conn.query_row(&sql, [id], |r| account_of(r, 0)).optional()?)
    }

    fn set_password(&mut self, id: AccountId, password_hash: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            let changed = tx.execute("UPDATE accounts SET password = ?1 WHERE id = ?2", params![password_hash, id])?;
            if changed == 0 { Err(StoreError::NotFound) } else { Ok(()) }
        })
    }

    fn create_session(&mut self, hash: &str, account: AccountId, at_ms: u64) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute(
                "INSERT INTO sessions (hash, account, created_ms) VALUES (?1, ?2, ?3)",
                params![hash, account, ms_sql(at_ms)],
            )?;
            Ok(())
        })
    }

    fn session_account(&self, hash: &str) -> Result<Option<AccountId>, StoreError> {
        Ok(self.conn.query_row("SELECT account FROM sessions WHERE hash = ?1", [hash], |r| r.get(0)).optional()?)
    }

    fn delete_session(&mut self, hash: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute("DELETE FROM sessions WHERE hash = ?1", [hash])?;
            Ok(())
        })
    }

    fn claim_seat(&mut self, game_id: &str, seat: u8, account: AccountId) -> Result<bool, StoreError> {
        self.write(|tx| {
            let changed = tx.execute(
                "UPDATE seats SET account = ?1 WHERE game_id = ?2 AND seat = ?3 AND account IS NULL",
                params![account, game_id, seat],
            )?;
            Ok(changed > 0)
        })
    }

    fn seat_of_request(&self, id: &str) -> Result<Option<SeatOfRequest>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT game_id, seat, token, request_of FROM seats WHERE request_id = ?1", [id], |r| {
                Ok(SeatOfRequest { game_id: r.get(0)?, seat: r.get(1)?, token: r.get(2)?, of: r.get(3)? })
            })
            .optional()?)
    }

    fn rating(&self, account: AccountId, pool: &str) -> Result<Option<StoredRating>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT mu, sigma, games FROM ratings WHERE account = ?1 AND pool = ?2",
                params![account, pool],
                |r| rating_of(r, 0),
            )
            .optional()?)
    }

    fn record_ratings(&mut self, game_id: &str, pool: &str, records: &[RatingRecord]) -> Result<(), StoreError> {
        self.write(|tx| {
            let rated: bool =
                tx.query_row("SELECT EXISTS (SELECT 1 FROM rating_changes WHERE game_id = ?1)", [game_id], |r| {
                    r.get(0)
                })?;
            if rated {
                return Err(StoreError::Conflict(format!("the game {game_id} was rated already")));
            }
            for rec in records {
                tx.execute(
                    "INSERT INTO ratings (account, pool, mu, sigma, games) VALUES (?1, ?2, ?3, ?4, ?5)
                     ON CONFLICT (account, pool) DO UPDATE SET mu = ?3, sigma = ?4, games = ?5",
                    params![rec.account, pool, rec.after.mu, rec.after.sigma, rec.after.games],
                )?;
                tx.execute(
                    "INSERT INTO rating_changes (game_id, seat, account, pool, mu_before, sigma_before, mu_after,
                                                 sigma_after)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                    params![
                        game_id,
                        rec.seat,
                        rec.account,
                        pool,
                        rec.before.mu,
                        rec.before.sigma,
                        rec.after.mu,
                        rec.after.sigma
                    ],
                )?;
            }
            Ok(())
        })
    }

    fn rating_changes(&self, game_id: &str) -> Result<Vec<RatingRecord>, StoreError> {
        let mut query = self.conn.prepare(
            "SELECT seat, account, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes
             WHERE game_id = ?1 ORDER BY seat",
        )?;
        let rows = query.query_map([game_id], |r| {
            Ok(RatingRecord {
                seat: r.get(0)?,
                account: r.get(1)?,
                before: StoredRating { mu: r.get(2)?, sigma: r.get(3)?, games: 0 },
                after: StoredRating { mu: r.get(4)?, sigma: r.get(5)?, games: 0 },
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn leaderboard(&self, pool: &str, limit: usize) -> Result<Vec<(Account, StoredRating)>, StoreError> {
        let sql = format!(
            "SELECT {ACCOUNT_COLUMNS}, r.mu, r.sigma, r.games FROM ratings r JOIN accounts a ON a.id = r.account
             WHERE r.pool = ?1 ORDER BY r.mu DESC LIMIT ?2"
        );
        let mut query = self.conn.prepare(&sql)?;
        let rows = query.query_map(params![pool, limit_sql(limit)], |r| Ok((account_of(r, 0)?, rating_of(r, 5)?)))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn ratings_of(&self, account: AccountId) -> Result<Vec<(String, StoredRating)>, StoreError> {
        let mut query =
            self.conn.prepare("SELECT pool, mu, sigma, games FROM ratings WHERE account = ?1 ORDER BY pool")?;
        let rows = query.query_map([account], |r| Ok((r.get(0)?, rating_of(r, 1)?)))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn end_game(&mut self, game_id: &str, at_ms: u64) -> Result<(), StoreError> {
        self.write(|tx| {
            let changed = tx.execute(
                "UPDATE games SET ended_ms = COALESCE(ended_ms, ?1) WHERE id = ?2",
                params![ms_sql(at_ms), game_id],
            )?;
            if changed == 0 { Err(StoreError::NotFound) } else { Ok(()) }
        })
    }

    fn delete_game(&mut self, game_id: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            let row: Option<Option<String>> =
                tx.query_row("SELECT rematch FROM games WHERE id = ?1", [game_id], |r| r.get(0)).optional()?;
            if row.ok_or(StoreError::NotFound)?.is_some() {
                return Err(StoreError::Conflict("the game has a rematch".into()));
            }
            let moves: bool =
                tx.query_row("SELECT EXISTS (SELECT 1 FROM moves WHERE game_id = ?1)", [game_id], |r| r.get(0))?;
            if moves {
                return Err(StoreError::Conflict("the game has moves".into()));
            }
            tx.execute("DELETE FROM seats WHERE game_id = ?1", [game_id])?;
            tx.execute("DELETE FROM games WHERE id = ?1", [game_id])?;
            Ok(())
        })
    }

    fn open_games(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        ids(
            &self.conn,
            "SELECT g.id FROM games g WHERE g.lobby = 1 AND g.ended_ms IS NULL
             AND (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id) < g.seats ORDER BY g.rowid LIMIT ?1",
            [limit_sql(limit)],
        )
    }

    fn live_games(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        ids(
            &self.conn,
            "SELECT id FROM games WHERE started_ms IS NOT NULL AND ended_ms IS NULL AND resigned IS NULL
             AND flagged IS NULL ORDER BY rowid DESC LIMIT ?1",
            [limit_sql(limit)],
        )
    }

    fn games_of_account(&self, account: AccountId, limit: usize) -> Result<Vec<String>, StoreError> {
        ids(
            &self.conn,
            "SELECT DISTINCT g.id, g.rowid FROM seats s JOIN games g ON g.id = s.game_id WHERE s.account = ?1
             ORDER BY g.rowid DESC LIMIT ?2",
            params![account, limit_sql(limit)],
        )
    }

    fn running_seats(&self, account: AccountId) -> Result<Vec<(String, u8, String)>, StoreError> {
        let mut query = self.conn.prepare(
            "SELECT s.game_id, s.seat, s.token FROM seats s JOIN games g ON g.id = s.game_id
             WHERE s.account = ?1 AND g.ended_ms IS NULL AND g.resigned IS NULL AND g.flagged IS NULL ORDER BY g.rowid",
        )?;
        let rows = query.query_map([account], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn bots(&self) -> Result<Vec<Account>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.bot = 1 ORDER BY a.id");
        let mut query = self.conn.prepare(&sql)?;
        let rows = query.query_map([], |r| account_of(r, 0))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
}
