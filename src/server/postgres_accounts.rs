//! The [`Accounts`] part of [`PgStore`]: accounts, sessions, ratings and the lobby's lists in the
//! tables of [`super::postgres_schema`], with the SQLite store's answers (`sqlite_accounts`).
//! Writes that read before they change a game lock its row first, as the games' writes do.

use postgres::Row;

use super::account_store::{Account, AccountId, Accounts, RatingRecord, SeatOfRequest, StoredRating};
use super::postgres::{PgStore, ids};
use super::postgres_conn::{get, ms_of, ms_sql, seat_of, storable};
use super::store::StoreError;

/// The columns [`account_of`] reads, in order (a macro, so that `concat!` makes each query a
/// `&'static str`, the statement cache's key).
macro_rules! account_columns {
    () => {
        "a.id, a.name, a.password, a.bot, a.created_ms"
    };
}

/// An account from a row of `account_columns!()` (from column `at` on).
fn account_of(r: &Row, at: usize) -> Result<Account, StoreError> {
    Ok(Account {
        id: get(r, at)?,
        name: get(r, at + 1)?,
        password_hash: get(r, at + 2)?,
        bot: get(r, at + 3)?,
        created_ms: ms_of(get(r, at + 4)?),
    })
}

/// A rating from the columns `mu, sigma, games` from column `at` on.
fn rating_of(r: &Row, at: usize) -> Result<StoredRating, StoreError> {
    let games: i64 = get(r, at + 2)?;
    let games = u32::try_from(games).map_err(|_| StoreError::Failed(format!("{games} rated games")))?;
    Ok(StoredRating { mu: get(r, at)?, sigma: get(r, at + 1)?, games })
}

/// A limit as PostgreSQL's `BIGINT`.
fn limit_sql(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}

/// A game, a seat and a token from the first three columns.
fn seat_row(r: &Row) -> Result<(String, u8, String), StoreError> {
    Ok((get(r, 0)?, seat_of(get(r, 1)?)?, get(r, 2)?))
}

impl Accounts for PgStore {
    fn create_account(
        &mut self,
        name: &str,
        name_key: &str,
        password_hash: &str,
        bot: bool,
        at_ms: u64,
    ) -> Result<AccountId, StoreError> {
        if !storable(name) || !storable(name_key) {
            return Err(StoreError::Conflict("a name with a NUL character".into()));
        }
        let (name, name_key, password_hash) = (name.to_string(), name_key.to_string(), password_hash.to_string());
        self.write(move |conn| {
            let (name, name_key, password_hash) = (&name, &name_key, &password_hash);
            let taken = conn.query_one("SELECT EXISTS (SELECT 1 FROM accounts WHERE name_key = $1)", &[&name_key])?;
            if get(&taken, 0)? {
                return Err(StoreError::Conflict(format!("an account reads as {name_key} already")));
            }
            let row = conn.query_one(
                "INSERT INTO accounts (name, name_key, password, bot, created_ms) VALUES ($1, $2, $3, $4, $5)
                 RETURNING id",
                &[&name, &name_key, &password_hash, &bot, &ms_sql(at_ms)],
            )?;
            get(&row, 0)
        })
    }

    fn account_by_key(&self, name_key: &str) -> Result<Option<Account>, StoreError> {
        if !storable(name_key) {
            return Ok(None);
        }
        let row = self.conn()?.query_opt(
            concat!("SELECT ", account_columns!(), " FROM accounts a WHERE a.name_key = $1"),
            &[&name_key],
        )?;
        row.map(|r| account_of(&r, 0)).transpose()
    }

    fn account_by_id(&self, id: AccountId) -> Result<Option<Account>, StoreError> {
        let row = self
            .conn()?
            .query_opt(concat!("SELECT ", account_columns!(), " FROM accounts a WHERE a.id = $1"), &[&id])?;
        row.map(|r| account_of(&r, 0)).transpose()
    }

    fn set_password(&mut self, id: AccountId, password_hash: &str) -> Result<(), StoreError> {
        let password_hash = password_hash.to_string();
        self.write(move |conn| {
            let changed = conn.execute("UPDATE accounts SET password = $1 WHERE id = $2", &[&password_hash, &id])?;
            if changed == 0 { Err(StoreError::NotFound) } else { Ok(()) }
        })
    }

    fn create_session(&mut self, hash: &str, account: AccountId, at_ms: u64) -> Result<(), StoreError> {
        let hash = hash.to_string();
        self.write(move |conn| {
            conn.execute(
                "INSERT INTO sessions (hash, account, created_ms) VALUES ($1, $2, $3)",
                &[&hash, &account, &ms_sql(at_ms)],
            )?;
            Ok(())
        })
    }

    fn session_account(&self, hash: &str) -> Result<Option<AccountId>, StoreError> {
        if !storable(hash) {
            return Ok(None);
        }
        let row = self.conn()?.query_opt("SELECT account FROM sessions WHERE hash = $1", &[&hash])?;
        row.map(|r| get(&r, 0)).transpose()
    }

    fn delete_session(&mut self, hash: &str) -> Result<(), StoreError> {
        if !storable(hash) {
            return Ok(());
        }
        let hash = hash.to_string();
        self.write(move |conn| {
            conn.execute("DELETE FROM sessions WHERE hash = $1", &[&hash])?;
            Ok(())
        })
    }

    fn claim_seat(&mut self, game_id: &str, seat: u8, account: AccountId) -> Result<bool, StoreError> {
        let game_id = game_id.to_string();
        self.write(move |conn| {
            let changed = conn.execute(
                "UPDATE seats SET account = $1 WHERE game_id = $2 AND seat = $3 AND account IS NULL",
                &[&account, &game_id, &i32::from(seat)],
            )?;
            Ok(changed > 0)
        })
    }

    fn seat_of_request(&self, id: &str) -> Result<Option<SeatOfRequest>, StoreError> {
        if !storable(id) {
            return Ok(None);
        }
        let row = self
            .conn()?
            .query_opt("SELECT game_id, seat, token, request_of FROM seats WHERE request_id = $1", &[&id])?;
        row.map(|r| {
            let (game_id, seat, token) = seat_row(&r)?;
            Ok(SeatOfRequest { game_id, seat, token, of: get(&r, 3)? })
        })
        .transpose()
    }

    fn rating(&self, account: AccountId, pool: &str) -> Result<Option<StoredRating>, StoreError> {
        if !storable(pool) {
            return Ok(None);
        }
        let row = self
            .conn()?
            .query_opt("SELECT mu, sigma, games FROM ratings WHERE account = $1 AND pool = $2", &[&account, &pool])?;
        row.map(|r| rating_of(&r, 0)).transpose()
    }

    fn record_ratings(&mut self, game_id: &str, pool: &str, records: &[RatingRecord]) -> Result<(), StoreError> {
        let (game_id, pool, records) = (game_id.to_string(), pool.to_string(), records.to_vec());
        self.write(move |conn| {
            conn.query_opt("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", &[&game_id])?;
            let rated =
                conn.query_one("SELECT EXISTS (SELECT 1 FROM rating_changes WHERE game_id = $1)", &[&game_id])?;
            if get(&rated, 0)? {
                return Err(StoreError::Conflict(format!("the game {game_id} was rated already")));
            }
            // Accounts in one order, so that two servers rating two games never wait on each other.
            let mut records = records.to_vec();
            records.sort_by_key(|r| r.account);
            for rec in &records {
                conn.execute(
                    "INSERT INTO ratings (account, pool, mu, sigma, games) VALUES ($1, $2, $3, $4, $5)
                     ON CONFLICT (account, pool) DO UPDATE SET mu = $3, sigma = $4, games = $5",
                    &[&rec.account, &pool, &rec.after.mu, &rec.after.sigma, &i64::from(rec.after.games)],
                )?;
                conn.execute(
                    "INSERT INTO rating_changes (game_id, seat, account, pool, mu_before, sigma_before, mu_after,
                                                 sigma_after)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                    &[
                        &game_id,
                        &i32::from(rec.seat),
                        &rec.account,
                        &pool,
                        &rec.before.mu,
                        &rec.before.sigma,
                        &rec.after.mu,
                        &rec.after.sigma,
                    ],
                )?;
            }
            Ok(())
        })
    }

    fn rating_changes(&self, game_id: &str) -> Result<Vec<RatingRecord>, StoreError> {
        if !storable(game_id) {
            return Ok(Vec::new());
        }
        let rows = self.conn()?.query(
            "SELECT seat, account, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes
             WHERE game_id = $1 ORDER BY seat",
            &[&game_id],
        )?;
        rows.iter()
            .map(|r| {
                Ok(RatingRecord {
                    seat: seat_of(get(r, 0)?)?,
                    account: get(r, 1)?,
                    before: StoredRating { mu: get(r, 2)?, sigma: get(r, 3)?, games: 0 },
                    after: StoredRating { mu: get(r, 4)?, sigma: get(r, 5)?, games: 0 },
                })
            })
            .collect()
    }

    fn leaderboard(&self, pool: &str, limit: usize) -> Result<Vec<(Account, StoredRating)>, StoreError> {
        if !storable(pool) {
            return Ok(Vec::new());
        }
        let rows = self.conn()?.query(
            concat!(
                "SELECT ",
                account_columns!(),
                ", r.mu, r.sigma, r.games FROM ratings r JOIN accounts a ON a.id = r.account
                 WHERE r.pool = $1 ORDER BY r.mu DESC LIMIT $2",
            ),
            &[&pool, &limit_sql(limit)],
        )?;
        rows.iter().map(|r| Ok((account_of(r, 0)?, rating_of(r, 5)?))).collect()
    }

    fn ratings_of(&self, account: AccountId) -> Result<Vec<(String, StoredRating)>, StoreError> {
        let rows = self
            .conn()?
            .query("SELECT pool, mu, sigma, games FROM ratings WHERE account = $1 ORDER BY pool", &[&account])?;
        rows.iter().map(|r| Ok((get(r, 0)?, rating_of(r, 1)?))).collect()
    }

    fn end_game(&mut self, game_id: &str, at_ms: u64) -> Result<(), StoreError> {
        let game_id = game_id.to_string();
        self.write(move |conn| {
            let changed = conn.execute(
                "UPDATE games SET ended_ms = COALESCE(ended_ms, $1) WHERE id = $2",
                &[&ms_sql(at_ms), &game_id],
            )?;
            if changed == 0 { Err(StoreError::NotFound) } else { Ok(()) }
        })
    }

    fn delete_game(&mut self, game_id: &str) -> Result<(), StoreError> {
        let game_id = game_id.to_string();
        self.write(move |conn| {
            let row = conn.query_opt("SELECT rematch FROM games WHERE id = $1 FOR UPDATE", &[&game_id])?;
            if get::<Option<String>>(&row.ok_or(StoreError::NotFound)?, 0)?.is_some() {
                return Err(StoreError::Conflict("the game has a rematch".into()));
            }
            if get(&conn.query_one("SELECT EXISTS (SELECT 1 FROM moves WHERE game_id = $1)", &[&game_id])?, 0)? {
                return Err(StoreError::Conflict("the game has moves".into()));
            }
            conn.execute("DELETE FROM seats WHERE game_id = $1", &[&game_id])?;
            conn.execute("DELETE FROM games WHERE id = $1", &[&game_id])?;
            Ok(())
        })
    }

    fn open_games(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        ids(&self.conn()?.query(
            "SELECT g.id FROM games g WHERE g.lobby AND g.ended_ms IS NULL
             AND (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id) < g.seats ORDER BY g.seq LIMIT $1",
            &[&limit_sql(limit)],
        )?)
    }

    fn live_games(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        ids(&self.conn()?.query(
            "SELECT id FROM games WHERE started_ms IS NOT NULL AND ended_ms IS NULL AND resigned IS NULL
             AND flagged IS NULL ORDER BY seq DESC LIMIT $1",
            &[&limit_sql(limit)],
        )?)
    }

    fn games_of_account(&self, account: AccountId, limit: usize) -> Result<Vec<String>, StoreError> {
        ids(&self.conn()?.query(
            "SELECT g.id FROM games g WHERE EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.account = $1)
             ORDER BY g.seq DESC LIMIT $2",
            &[&account, &limit_sql(limit)],
        )?)
    }

    fn running_seats(&self, account: AccountId) -> Result<Vec<(String, u8, String)>, StoreError> {
        let rows = self.conn()?.query(
            "SELECT s.game_id, s.seat, s.token FROM seats s JOIN games g ON g.id = s.game_id
             WHERE s.account = $1 AND g.ended_ms IS NULL AND g.resigned IS NULL AND g.flagged IS NULL ORDER BY g.seq",
            &[&account],
        )?;
        rows.iter().map(seat_row).collect()
    }

    fn bots(&self) -> Result<Vec<Account>, StoreError> {
        let rows = self
            .conn()?
            .query(concat!("SELECT ", account_columns!(), " FROM accounts a WHERE a.bot ORDER BY a.id"), &[])?;
        rows.iter().map(|r| account_of(r, 0)).collect()
    }
}
