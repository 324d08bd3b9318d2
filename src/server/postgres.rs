//! [`PgStore`]: the [`Store`] in a PostgreSQL database, which several `triboard serve` instances
//! share (`docs/design.md` §Several instances): its tables in [`super::postgres_schema`], its
//! connection in `postgres_conn`, its accounts' part in `postgres_accounts`, a game read whole in
//! `postgres_load`, its shared writes to a game in `postgres_games`, and the listener
//! for the other servers' notifications in [`super::postgres_listen`] ([`listen`]).
//!
//! Each write is one transaction (`BEGIN` … `COMMIT`), or inside the transport's batch
//! ([`Store::begin_batch`]: one transaction) a savepoint, released or rolled back to, so a write
//! is all or nothing either way and one commit makes a whole batch durable. The database is the
//! one truth between servers: a write to a game first locks the game's row (`SELECT … FOR
//! UPDATE`), so its checks (the next ply, a free seat, a game not over) see every other server's
//! committed writes and no other server's write to the game runs between its check and its
//! change; and a move's key is its game and ply, so even a writer that skipped the check could not
//! store a ply twice (the unique key's violation is a [`StoreError::Conflict`]).
//!
//! The client is `postgres`'s synchronous one (tokio-postgres on a runtime of its own), which fits
//! the synchronous [`Store`]: call it from a plain thread (the transport's batch thread), never
//! from inside an async task. A connection lost outside a batch is made again by the next call
//! (the call that found it lost fails); this server's lead ([`Store::try_lead`]) is lost with it.

use std::cell::{Cell, RefCell, RefMut};
use std::fmt;
use std::sync::Arc;

use super::limits::Hits;
use super::postgres_conn::{Conn, Target, Write, get, ms_sql, storable};
use super::postgres_games::{append_checked, insert_game, insert_seat, lock_ended};
pub use super::postgres_listen::{Heard, listen};
use super::postgres_load::load_game;
use super::postgres_schema;
use super::store::{CHANNEL, GameSetup, LEADER_LOCK, MAX_PUBLISH_BYTES, NewSeat, Store, StoreError, StoredGame};
use crate::net::protocol::SeatOut;

/// How long the leader's check of its connection may take ([`Store::try_lead`]).
const LEAD_CHECK: std::time::Duration = std::time::Duration::from_secs(5);

/// A [`Store`] in a PostgreSQL database: see the module's doc.
pub struct PgStore {
    /// Where it connects (to connect again).
    target: Target,
    /// The connection; readers take `&self`, and the client needs `&mut` for every query.
    pub(super) conn: RefCell<Conn>,
    /// Whether a batch ([`Store::begin_batch`]) is open: writes are then savepoints in it.
    in_batch: bool,
    /// Whether this connection holds the leader's lock ([`Store::try_lead`]).
    leading: Cell<bool>,
}

impl fmt::Debug for PgStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PgStore").field("target", &self.target.describe()).finish()
    }
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/db?sslmode=…`, or
    /// libpq's `key=value` form; TLS as `sslmode` says, see `postgres_conn`) and creates or
    /// migrates its tables.
    ///
    /// # Errors
    /// [`StoreError::Failed`]: the URL cannot be read, the server cannot be reached or refuses
    /// the login, or the database's schema is newer than this build's
    /// ([`SCHEMA_VERSION`](super::postgres_schema::SCHEMA_VERSION)) or not triboard's.
    pub fn connect(url: &str) -> Result<PgStore, StoreError> {
        let target = Target::parse(url)?;
        let mut client = target.connect()?;
        postgres_schema::prepare(&mut client)?;
        Ok(PgStore { target, conn: RefCell::new(Conn::new(client)), in_batch: false, leading: Cell::new(false) })
    }

    /// The connection, made again first if it was lost (outside a batch: a batch's transaction
    /// was lost with it).
    pub(super) fn conn(&self) -> Result<RefMut<'_, Conn>, StoreError> {
        let mut conn = self.conn.borrow_mut();
        if conn.client.is_closed() {
            if self.in_batch {
                return Err(StoreError::Failed("the connection to PostgreSQL was lost during a batch".into()));
            }
            *conn = Conn::new(self.target.connect()?);
            self.leading.set(false);
        }
        Ok(conn)
    }

    /// Runs one write, all or nothing: its own transaction, or a savepoint inside an open batch.
    /// A write that fails as a deadlock's victim (`docs/design.md` §Several instances) is run
    /// again: on its own, in a new transaction; in a batch, after the batch was rolled back and
    /// run again ([`Conn::replay`]), so its earlier writes' locks no longer hold the other
    /// server's batch up.
    pub(super) fn write<T: PartialEq + Clone + Send + 'static>(
        &mut self,
        f: impl Fn(&mut Conn) -> Result<T, StoreError> + Send + Sync + 'static,
    ) -> Result<T, StoreError> {
        let f: Write<T> = Arc::new(f);
        let in_batch = self.in_batch;
        let mut conn = self.conn()?;
        let conn = &mut *conn;
        let mut attempts = 0;
        loop {
            let result = if in_batch {
                conn.savepoint(&*f)
            } else {
                conn.simple("BEGIN")?;
                let result = f(conn).and_then(|value| conn.simple("COMMIT").map(|()| value));
                if result.is_err() {
                    let _ = conn.simple("ROLLBACK");
                }
                conn.broken = false;
                result
            };
            attempts += 1;
            if conn.take_deadlock() && attempts <= 3 {
                if in_batch {
                    conn.replay()?;
                }
                continue;
            }
            if in_batch {
                conn.note(f, result.clone());
            }
            return result;
        }
    }

    /// Runs a statement that cannot be refused (a note, a limit's event) in one round trip, no
    /// savepoint; in a batch it is noted, to be run again if the batch is ([`Conn::replay`]),
    /// and if it fails as a deadlock's victim the batch is run again and so is it.
    pub(super) fn direct(&mut self, f: Write<()>) -> Result<(), StoreError> {
        let mut conn = self.conn()?;
        let mut result = f(&mut conn);
        if result.is_err() && self.in_batch && conn.take_deadlock() {
            conn.replay()?;
            result = f(&mut conn);
        }
        if self.in_batch && result.is_ok() {
            conn.note(f, Ok(()));
        }
        result
    }
}

/// The ids of the first text column of a query's rows.
pub(super) fn ids(rows: &[postgres::Row]) -> Result<Vec<String>, StoreError> {
    rows.iter().map(|r| get(r, 0)).collect()
}

impl Store for PgStore {
    fn create_game(&mut self, setup: &GameSetup, at_ms: u64) -> Result<(), StoreError> {
        let setup = setup.clone();
        self.write(move |conn| insert_game(conn, &setup, at_ms))
    }

    fn add_seat(&mut self, game_id: &str, new: NewSeat<'_>, at_ms: u64) -> Result<(), StoreError> {
        let (game_id, token, request) = (game_id.to_string(), new.token.to_string(), new.request.cloned());
        let (seat, account) = (new.seat, new.account);
        self.write(move |conn| {
            let (game_id, new) = (&game_id, NewSeat { seat, token: &token, account, request: request.as_ref() });
            let row = conn.query_opt("SELECT seats FROM games WHERE id = $1 FOR UPDATE", &[&game_id])?;
            let seats: i32 = get(&row.ok_or(StoreError::NotFound)?, 0)?;
            if i32::from(new.seat) >= seats {
                return Err(StoreError::Conflict(format!("the game has no seat {}", new.seat)));
            }
            let taken = conn.query_one(
                "SELECT EXISTS (SELECT 1 FROM seats WHERE game_id = $1 AND seat = $2)",
                &[&game_id, &i32::from(new.seat)],
            )?;
            if get(&taken, 0)? {
                return Err(StoreError::Conflict(format!("seat {} is taken", new.seat)));
            }
            insert_seat(conn, game_id, new)?;
            let held: i64 = get(&conn.query_one("SELECT COUNT(*) FROM seats WHERE game_id = $1", &[&game_id])?, 0)?;
            if held == i64::from(seats) {
                conn.execute("UPDATE games SET started_ms = $1 WHERE id = $2", &[&ms_sql(at_ms), &game_id])?;
            }
            Ok(())
        })
    }

    fn append_moves(&mut self, game_id: &str, ply: u32, texts: &[String], at_ms: u64) -> Result<(), StoreError> {
        let (id, all) = (game_id.to_string(), texts.to_vec());
        let checked: Write<()> = Arc::new(move |conn: &mut Conn| append_checked(conn, &id, ply, &all, at_ms));
        if self.in_batch && texts.iter().all(|t| storable(t)) && ply.checked_add(texts.len() as u32).is_some() {
            // The batch's common case in one round trip and no savepoint: one statement locks the
            // game's row, checks the game runs and has `ply` moves, and inserts them (it cannot
            // fail; a key written meanwhile is skipped). Anything short of all of them inserted
            // is undone and answered by the checks below; a deadlock, by the replay of the batch.
            let mut conn = self.conn()?;
            let inserted = conn.query(
                "WITH g AS (SELECT id FROM games WHERE id = $1 AND resigned IS NULL AND flagged IS NULL FOR UPDATE),
                      n AS (SELECT COUNT(*) AS c FROM moves WHERE game_id = $1)
                 INSERT INTO moves (game_id, ply, text, at_ms)
                 SELECT $1, $2 + t.k - 1, t.text, $4
                 FROM g, n, unnest($3::text[]) WITH ORDINALITY AS t(text, k)
                 WHERE n.c = $2
                 ON CONFLICT DO NOTHING
                 RETURNING ply",
                &[&game_id, &i64::from(ply), &texts, &ms_sql(at_ms)],
            );
            match inserted {
                Ok(inserted) if inserted.len() == texts.len() => {
                    conn.note(checked, Ok(()));
                    return Ok(());
                }
                Ok(inserted) => {
                    let plies: Vec<i64> = inserted.iter().map(|r| get(r, 0)).collect::<Result<_, _>>()?;
                    if !plies.is_empty() {
                        conn.execute("DELETE FROM moves WHERE game_id = $1 AND ply = ANY($2)", &[&game_id, &plies])?;
                    }
                }
                Err(_) if conn.take_deadlock() => conn.replay()?,
                Err(e) => return Err(e),
            }
        }
        self.write(move |conn| checked(conn))
    }

    fn resign(&mut self, game_id: &str, seat: u8) -> Result<(), StoreError> {
        let game_id = game_id.to_string();
        self.write(move |conn| {
            let game_id = &game_id;
            if let Some(why) = lock_ended(conn, game_id)? {
                return Err(StoreError::Conflict(format!("the game is over: {why}")));
            }
            conn.execute("UPDATE games SET resigned = $1 WHERE id = $2", &[&i32::from(seat), &game_id])?;
            Ok(())
        })
    }

    fn add_out(&mut self, game_id: &str, out: &SeatOut) -> Result<(), StoreError> {
        let (game_id, out) = (game_id.to_string(), out.clone());
        self.write(move |conn| super::postgres_games::add_out(conn, &game_id, &out))
    }

    fn flag(&mut self, game_id: &str, seat: u8) -> Result<(), StoreError> {
        let game_id = game_id.to_string();
        self.write(move |conn| {
            let game_id = &game_id;
            if let Some(why) = lock_ended(conn, game_id)? {
                return Err(StoreError::Conflict(format!("the game is over: {why}")));
            }
            conn.execute("UPDATE games SET flagged = $1 WHERE id = $2", &[&i32::from(seat), &game_id])?;
            Ok(())
        })
    }

    fn start_clocks(&mut self, game_id: &str, at_ms: u64) -> Result<(), StoreError> {
        let game_id = game_id.to_string();
        self.write(move |conn| {
            let game_id = &game_id;
            let changed = conn.execute(
                "UPDATE games SET started_ms = COALESCE(started_ms, $1) WHERE id = $2",
                &[&ms_sql(at_ms), &game_id],
            )?;
            if changed == 0 { Err(StoreError::NotFound) } else { Ok(()) }
        })
    }

    fn create_rematch(&mut self, of: &str, setup: &GameSetup, at_ms: u64) -> Result<(), StoreError> {
        let (of, setup) = (of.to_string(), setup.clone());
        self.write(move |conn| {
            let (of, setup) = (&of, &setup);
            let row = conn.query_opt("SELECT rematch FROM games WHERE id = $1 FOR UPDATE", &[&of])?;
            if let Some(id) = get::<Option<String>>(&row.ok_or(StoreError::NotFound)?, 0)? {
                return Err(StoreError::Conflict(format!("the game has a rematch already, {id}")));
            }
            let setup = GameSetup { rematch_of: Some(of.to_string()), ..setup.clone() };
            insert_game(conn, &setup, at_ms)?;
            conn.execute("UPDATE games SET rematch = $1 WHERE id = $2", &[&setup.id, &of])?;
            Ok(())
        })
    }

    fn clocked_games(&self) -> Result<Vec<String>, StoreError> {
        ids(&self.conn()?.query(
            "SELECT id FROM games WHERE (clock_minutes IS NOT NULL OR days_per_move IS NOT NULL) AND started_ms IS NOT NULL
             AND resigned IS NULL AND flagged IS NULL ORDER BY seq",
            &[],
        )?)
    }

    fn begin_batch(&mut self) -> Result<(), StoreError> {
        if !self.in_batch {
            let mut conn = self.conn()?;
            conn.simple("BEGIN")?;
            conn.broken = false;
            conn.journal.clear();
            drop(conn);
            self.in_batch = true;
        }
        Ok(())
    }

    fn commit_batch(&mut self) -> Result<(), StoreError> {
        if !self.in_batch {
            return Ok(());
        }
        self.in_batch = false;
        let conn = &mut *self.conn.borrow_mut();
        conn.journal.clear();
        if conn.broken {
            // PostgreSQL would answer COMMIT with a rollback: say so.
            let _ = conn.simple("ROLLBACK");
            conn.broken = false;
            return Err(StoreError::Failed("a statement of the batch failed, so the batch was rolled back".into()));
        }
        if let Err(e) = conn.simple("COMMIT") {
            let _ = conn.simple("ROLLBACK");
            conn.broken = false;
            return Err(e);
        }
        Ok(())
    }

    fn shared(&self) -> bool {
        true
    }

    fn shared_hits(&mut self) -> Option<&mut dyn Hits> {
        Some(self)
    }

    /// `pg_notify` on [`CHANNEL`]: inside a batch, delivered at its commit (dropped if it rolls
    /// back); PostgreSQL delivers identical payloads of one transaction once.
    fn publish_all(&mut self, payloads: &[String]) -> Result<(), StoreError> {
        for payload in payloads {
            if payload.len() > MAX_PUBLISH_BYTES || !storable(payload) {
                return self.publish(payload);
            }
        }
        if !payloads.is_empty() {
            // One round trip for the batch's notes, sent in order at its commit (and noted, to be
            // sent again if the batch is run again).
            let payloads = payloads.to_vec();
            let notify: Write<()> = Arc::new(move |conn: &mut Conn| {
                conn.query(
                    "SELECT pg_notify($1, p) FROM unnest($2::text[]) WITH ORDINALITY AS t(p, k) ORDER BY k",
                    &[&CHANNEL, &payloads],
                )
                .map(drop)
            });
            self.direct(notify)?;
        }
        Ok(())
    }

    fn publish(&mut self, payload: &str) -> Result<(), StoreError> {
        if payload.len() > MAX_PUBLISH_BYTES {
            return Err(StoreError::Conflict(format!(
                "a payload of {} bytes, over {MAX_PUBLISH_BYTES}",
                payload.len()
            )));
        }
        if !storable(payload) {
            return Err(StoreError::Conflict("a payload with a NUL character".into()));
        }
        let payload = payload.to_string();
        let notify: Write<()> = Arc::new(move |conn: &mut Conn| {
            conn.query_one("SELECT pg_notify($1, $2)", &[&CHANNEL, &payload]).map(drop)
        });
        self.direct(notify)
    }

    /// Once this store leads, each call only checks that its connection (which holds the lock)
    /// lives, one round trip; a connection found lost is made again, and the lock asked for again.
    fn try_lead(&mut self) -> Result<bool, StoreError> {
        if self.leading.get() {
            let mut conn = self.conn()?;
            if self.leading.get() && conn.client.is_valid(LEAD_CHECK).is_ok() {
                return Ok(true);
            }
            self.leading.set(false);
        }
        let mut conn = self.conn()?;
        let leads: bool = get(&conn.query_one("SELECT pg_try_advisory_lock($1)", &[&LEADER_LOCK])?, 0)?;
        self.leading.set(leads);
        Ok(leads)
    }

    fn load_game(&self, game_id: &str) -> Result<Option<StoredGame>, StoreError> {
        if !storable(game_id) {
            return Ok(None);
        }
        load_game(&mut *self.conn()?, game_id)
    }

    fn game_of_code(&self, code: &str) -> Result<Option<String>, StoreError> {
        if !storable(code) {
            return Ok(None);
        }
        let row = self.conn()?.query_opt("SELECT id FROM games WHERE code = $1", &[&code])?;
        row.map(|r| get(&r, 0)).transpose()
    }

    fn games_of_token(&self, token: &str) -> Result<Vec<String>, StoreError> {
        if !storable(token) {
            return Ok(Vec::new());
        }
        ids(&self.conn()?.query(
            "SELECT s.game_id FROM seats s JOIN games g ON g.id = s.game_id WHERE s.token = $1 ORDER BY g.seq",
            &[&token],
        )?)
    }
}
