//! What the server tests share: a database file in the temporary folder ([`TempDb`]), every row of
//! a database read by a connection of its own (what "the store is unchanged" compares: [`dump`],
//! [`pg_dump`]), and the stores a test runs on ([`TestStore`]: SQLite and PostgreSQL, a test made
//! for both by [`on_both_stores!`]).

#![allow(dead_code)] // each test binary uses a different part of this module

use std::path::{Path, PathBuf};

use triboard::server::sqlite::remove_database;
use triboard::server::throwaway_pg;
use triboard::server::{PgStore, SqliteStore, Store};

/// A database file in the temporary folder, removed (with its log files) when dropped.
pub struct TempDb(pub PathBuf);

impl TempDb {
    /// `triboard-PREFIX-NAME-PID-NANOS.sqlite` in the temporary folder (not created).
    pub fn new(prefix: &str, name: &str) -> TempDb {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let file = format!("triboard-{prefix}-{name}-{}-{nanos}.sqlite", std::process::id());
        TempDb(std::env::temp_dir().join(file))
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        remove_database(&self.0);
    }
}

/// Every row of `tables` of the database at `path`, each table's rows sorted.
pub fn dump(path: &Path, tables: &[&str]) -> Vec<String> {
    let conn = rusqlite::Connection::open(path).unwrap();
    let mut out = Vec::new();
    for table in tables {
        let mut query = conn.prepare(&format!("SELECT * FROM {table}")).unwrap();
        let n = query.column_count();
        let rows = query
            .query_map([], |r| (0..n).map(|i| r.get::<_, rusqlite::types::Value>(i)).collect::<Result<Vec<_>, _>>())
            .unwrap();
        let mut rows: Vec<String> = rows.map(|row| format!("{table}: {:?}", row.unwrap())).collect();
        rows.sort();
        out.extend(rows);
    }
    out
}

/// Every row of `tables` of the PostgreSQL database at `url` (each as its JSON), each table's
/// rows sorted, read by a connection of its own.
pub fn pg_dump(url: &str, tables: &[&str]) -> Vec<String> {
    let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
    let mut out = Vec::new();
    for table in tables {
        let rows = client.query(&format!("SELECT row_to_json(t)::text FROM {table} t"), &[]).unwrap();
        let mut rows: Vec<String> = rows.iter().map(|r| format!("{table}: {}", r.get::<_, String>(0))).collect();
        rows.sort();
        out.extend(rows);
    }
    out
}

/// Every table of the store's schema (both stores have the same).
pub const ALL_TABLES: &[&str] =
    &["schema_version", "accounts", "sessions", "games", "seats", "moves", "ratings", "rating_changes"];

/// Where a test's store lives.
pub enum TestDb {
    /// SQLite in memory: gone with the store.
    Memory,
    /// An SQLite file.
    File(TempDb),
    /// A PostgreSQL database, by its URL.
    Postgres(String),
}

impl TestDb {
    /// Every row of `tables`, read by a connection of its own.
    ///
    /// # Panics
    /// For an in-memory database.
    pub fn dump(&self, tables: &[&str]) -> Vec<String> {
        match self {
            TestDb::Memory => panic!("an in-memory database is seen by its store only"),
            TestDb::File(file) => dump(&file.0, tables),
            TestDb::Postgres(url) => pg_dump(url, tables),
        }
    }
}

/// A store the server tests run on.
pub trait TestStore: Store + Sized {
    /// A fresh, empty store and where it lives: SQLite in memory, or with `on_file` in a file
    /// named after `name`; PostgreSQL in a new database named after `name` on the test cluster.
    fn fresh(name: &str, on_file: bool) -> (Self, TestDb);

    /// The store at `db` opened again: a restart, or a second server on the same database.
    fn reopen(db: &TestDb) -> Self;
}

impl TestStore for SqliteStore {
    fn fresh(name: &str, on_file: bool) -> (SqliteStore, TestDb) {
        if !on_file {
            return (SqliteStore::open_in_memory().unwrap(), TestDb::Memory);
        }
        let file = TempDb::new("test", name);
        (SqliteStore::open(&file.0).unwrap(), TestDb::File(file))
    }

    fn reopen(db: &TestDb) -> SqliteStore {
        match db {
            TestDb::File(file) => SqliteStore::open(&file.0).unwrap(),
            _ => panic!("only a file can be opened again"),
        }
    }
}

impl TestStore for PgStore {
    fn fresh(name: &str, _on_file: bool) -> (PgStore, TestDb) {
        let url = throwaway_pg::test_database(name).expect("PostgreSQL (the test checks it first)");
        (PgStore::connect(&url).unwrap(), TestDb::Postgres(url))
    }

    fn reopen(db: &TestDb) -> PgStore {
        match db {
            TestDb::Postgres(url) => PgStore::connect(url).unwrap(),
            _ => panic!("not a PostgreSQL database"),
        }
    }
}

/// Whether PostgreSQL is there for the tests; says so when it is not (the test is skipped then).
pub fn postgres_here() -> bool {
    let here = throwaway_pg::shared().is_some();
    if !here {
        eprintln!("skipped: PostgreSQL is not installed (and CI is not set)");
    }
    here
}

/// Makes each generic test `fn NAME<S: TestStore>()` two tests, `NAME::sqlite` and
/// `NAME::postgres` (skipped when PostgreSQL is not installed, outside CI).
#[allow(unused_macros)]
macro_rules! on_both_stores {
    ($($test:ident),* $(,)?) => {$(
        mod $test {
            #[test]
            fn sqlite() {
                super::$test::<triboard::server::SqliteStore>();
            }

            #[test]
            fn postgres() {
                if super::db::postgres_here() {
                    super::$test::<triboard::server::PgStore>();
                }
            }
        }
    )*};
}
