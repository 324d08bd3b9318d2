//! The limits' events in PostgreSQL (`limit_hits`, `server::limits`): counted by every instance
//! sharing the store, so a client spreading its attempts over the instances is counted once.
//! Inside a batch they are written with it (rolled back with it, and run again with it after a
//! deadlock: `PgStore::direct`); two instances counting the
//! same key at the same moment may each let one more through.

use std::sync::Arc;

use super::limits::Hits;
use super::postgres::PgStore;
use super::postgres_conn::{Conn, get, ms_of, ms_sql, storable};
use super::store_error::StoreError;

impl Hits for PgStore {
    fn recent(&mut self, key: &str, since_ms: u64) -> Result<Vec<u64>, StoreError> {
        if !storable(key) {
            return Ok(Vec::new());
        }
        let rows = self.conn()?.query(
            "SELECT at_ms FROM limit_hits WHERE key = $1 AND at_ms >= $2 ORDER BY at_ms",
            &[&key, &ms_sql(since_ms)],
        )?;
        rows.iter().map(|r| get::<i64>(r, 0).map(ms_of)).collect()
    }

    fn add(&mut self, key: &str, at_ms: u64) -> Result<(), StoreError> {
        if !storable(key) {
            return Err(StoreError::Conflict("a key with a NUL character".into()));
        }
        let key = key.to_string();
        self.direct(Arc::new(move |conn: &mut Conn| {
            conn.execute("INSERT INTO limit_hits (key, at_ms) VALUES ($1, $2)", &[&key, &ms_sql(at_ms)]).map(drop)
        }))
    }

    fn clear(&mut self, key: &str) -> Result<(), StoreError> {
        if !storable(key) {
            return Ok(());
        }
        let key = key.to_string();
        self.direct(Arc::new(move |conn: &mut Conn| {
            conn.execute("DELETE FROM limit_hits WHERE key = $1", &[&key]).map(drop)
        }))
    }

    fn prune(&mut self, before_ms: u64) -> Result<(), StoreError> {
        self.direct(Arc::new(move |conn: &mut Conn| {
            conn.execute("DELETE FROM limit_hits WHERE at_ms < $1", &[&ms_sql(before_ms)]).map(drop)
        }))
    }
}
