//! Moving an SQLite server's games into PostgreSQL ([`copy_sqlite_into`], `triboard serve --db
//! postgres://… --migrate-from FILE`): every row of every table, in one PostgreSQL transaction, so
//! a copy is whole or not at all; the order of the games (SQLite's `rowid`) kept as `games.seq`,
//! and the sequences set past the copied ids, so new accounts and games follow the old ones.

use std::fmt;
use std::path::Path;

use postgres::types::ToSql;
use rusqlite::types::Value as Cell;

use super::postgres::PgStore;
use super::postgres_conn::get;
use super::postgres_schema::SCHEMA_LOCK;
use super::sqlite::SqliteStore;
use super::store::StoreError;

/// How many rows of the copy one `INSERT` carries.
const CHUNK: usize = 1000;

/// A column's PostgreSQL type, as the copy converts SQLite's values.
#[derive(Clone, Copy)]
enum Kind {
    Text,
    Int,
    BigInt,
    Bool,
    Float,
}

/// A column copied: its PostgreSQL name, the SQLite expression that gives it, and its type.
type Copied = (&'static str, &'static str, Kind);

/// Each table copied, in an order its references allow: its name and its columns.
const TABLES: &[(&str, &[Copied])] = &[
    (
        "accounts",
        &[
            ("id", "id", Kind::BigInt),
            ("name", "name", Kind::Text),
            ("name_key", "name_key", Kind::Text),
            ("password", "password", Kind::Text),
            ("bot", "bot", Kind::Bool),
            ("created_ms", "created_ms", Kind::BigInt),
        ],
    ),
    (
        "sessions",
        &[
            ("hash", "hash", Kind::Text),
            ("account", "account", Kind::BigInt),
            ("created_ms", "created_ms", Kind::BigInt),
        ],
    ),
    (
        "games",
        &[
            ("id", "id", Kind::Text),
            ("seq", "rowid", Kind::BigInt),
            ("game", "game", Kind::Text),
            ("options", "options", Kind::Text),
            ("seats", "seats", Kind::Int),
            ("clock_minutes", "clock_minutes", Kind::Int),
            ("clock_increment_s", "clock_increment_s", Kind::Int),
            ("allow_tools", "allow_tools", Kind::Bool),
            ("code", "code", Kind::Text),
            ("resigned", "resigned", Kind::Int),
            ("rematch", "rematch", Kind::Text),
            ("rematch_of", "rematch_of", Kind::Text),
            ("started_ms", "started_ms", Kind::BigInt),
            ("flagged", "flagged", Kind::Int),
            ("rated", "rated", Kind::Bool),
            ("lobby", "lobby", Kind::Bool),
            ("created_ms", "created_ms", Kind::BigInt),
            ("ended_ms", "ended_ms", Kind::BigInt),
            ("outs", "outs", Kind::Text),
            ("days_per_move", "days_per_move", Kind::Int),
        ],
    ),
    (
        "seats",
        &[
            ("game_id", "game_id", Kind::Text),
            ("seat", "seat", Kind::Int),
            ("token", "token", Kind::Text),
            ("account", "account", Kind::BigInt),
            ("request_id", "request_id", Kind::Text),
            ("request_of", "request_of", Kind::Text),
        ],
    ),
    (
        "moves",
        &[
            ("game_id", "game_id", Kind::Text),
            ("ply", "ply", Kind::BigInt),
            ("text", "text", Kind::Text),
            ("at_ms", "at_ms", Kind::BigInt),
        ],
    ),
    (
        "ratings",
        &[
            ("account", "account", Kind::BigInt),
            ("pool", "pool", Kind::Text),
            ("mu", "mu", Kind::Float),
            ("sigma", "sigma", Kind::Float),
            ("games", "games", Kind::BigInt),
        ],
    ),
    (
        "rating_changes",
        &[
            ("game_id", "game_id", Kind::Text),
            ("seat", "seat", Kind::Int),
            ("account", "account", Kind::BigInt),
            ("pool", "pool", Kind::Text),
            ("mu_before", "mu_before", Kind::Float),
            ("sigma_before", "sigma_before", Kind::Float),
            ("mu_after", "mu_after", Kind::Float),
            ("sigma_after", "sigma_after", Kind::Float),
        ],
    ),
];

/// What a copy copied: the rows of each table, in the order copied.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MigrateReport {
    /// Each table and its rows copied.
    pub rows: Vec<(&'static str, u64)>,
}

impl fmt::Display for MigrateReport {
    /// `accounts 2, sessions 3, games 10, …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.rows.iter().map(|(table, n)| format!("{table} {n}")).collect();
        f.write_str(&parts.join(", "))
    }
}

/// One column's values, as PostgreSQL takes them (an array bound to `unnest`).
enum Column {
    Text(Vec<Option<String>>),
    Int(Vec<Option<i32>>),
    BigInt(Vec<Option<i64>>),
    Bool(Vec<Option<bool>>),
    Float(Vec<Option<f64>>),
}

impl Column {
    fn new(kind: Kind) -> Column {
        match kind {
            Kind::Text => Column::Text(Vec::new()),
            Kind::Int => Column::Int(Vec::new()),
            Kind::BigInt => Column::BigInt(Vec::new()),
            Kind::Bool => Column::Bool(Vec::new()),
            Kind::Float => Column::Float(Vec::new()),
        }
    }

    /// Adds SQLite's value, converted.
    fn push(&mut self, value: Cell, table: &str) -> Result<(), StoreError> {
        let bad = |v: &Cell| StoreError::Failed(format!("{table}: the value {v:?} does not fit its column"));
        let int = |v: &Cell| match v {
            Cell::Integer(n) => Ok(*n),
            other => Err(bad(other)),
        };
        match (self, value) {
            (Column::Text(c), Cell::Null) => c.push(None),
            (Column::Int(c), Cell::Null) => c.push(None),
            (Column::BigInt(c), Cell::Null) => c.push(None),
            (Column::Bool(c), Cell::Null) => c.push(None),
            (Column::Float(c), Cell::Null) => c.push(None),
            (Column::Text(c), Cell::Text(s)) => c.push(Some(s)),
            (Column::Int(c), v) => c.push(Some(i32::try_from(int(&v)?).map_err(|_| bad(&v))?)),
            (Column::BigInt(c), v) => c.push(Some(int(&v)?)),
            (Column::Bool(c), v) => c.push(Some(int(&v)? != 0)),
            (Column::Float(c), Cell::Real(x)) => c.push(Some(x)),
            (Column::Float(c), Cell::Integer(n)) => c.push(Some(n as f64)),
            (_, v) => return Err(bad(&v)),
        }
        Ok(())
    }

    /// The values as one array parameter.
    fn param(&self) -> &(dyn ToSql + Sync) {
        match self {
            Column::Text(c) => c,
            Column::Int(c) => c,
            Column::BigInt(c) => c,
            Column::Bool(c) => c,
            Column::Float(c) => c,
        }
    }
}

/// Copies every row of the SQLite database at `sqlite` (migrated to the current schema first, as
/// `triboard serve` would) into the PostgreSQL database at `pg_url` (its tables created if needed),
/// in one transaction; then sets the sequences of account ids and game order past the copied
/// rows. The SQLite file is read only; its server should be stopped.
///
/// # Errors
/// [`StoreError::Conflict`] if the PostgreSQL database holds games or accounts already (a copy is
/// made once, into an empty database); [`StoreError::Failed`]: no file at `sqlite`, either
/// database cannot be opened, or a row does not fit. Nothing is written into PostgreSQL then.
pub fn copy_sqlite_into(sqlite: &Path, pg_url: &str) -> Result<MigrateReport, StoreError> {
    if !sqlite.is_file() {
        return Err(StoreError::Failed(format!("no database file at {}", sqlite.display())));
    }
    drop(SqliteStore::open(sqlite)?);
    let source = rusqlite::Connection::open_with_flags(sqlite, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let store = PgStore::connect(pg_url)?;
    let mut conn = store.conn()?;
    let mut tx = conn.client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK])?;
    let used = tx.query_one("SELECT EXISTS (SELECT 1 FROM games) OR EXISTS (SELECT 1 FROM accounts)", &[])?;
    if get(&used, 0)? {
        return Err(StoreError::Conflict("the PostgreSQL database holds games or accounts already".into()));
    }
    let mut report = MigrateReport::default();
    for (table, columns) in TABLES {
        let names: Vec<&str> = columns.iter().map(|c| c.0).collect();
        let exprs: Vec<&str> = columns.iter().map(|c| c.1).collect();
        let types: Vec<String> = columns
            .iter()
            .enumerate()
            .map(|(k, c)| {
                let t = match c.2 {
                    Kind::Text => "text",
                    Kind::Int => "integer",
                    Kind::BigInt => "bigint",
                    Kind::Bool => "boolean",
                    Kind::Float => "double precision",
                };
                format!("${}::{t}[]", k + 1)
            })
            .collect();
        let insert = format!("INSERT INTO {table} ({}) SELECT * FROM unnest({})", names.join(", "), types.join(", "));
        let insert = tx.prepare(&insert)?;
        // The games in the order they were made; the other tables' order does not matter (most
        // have no rowid).
        let order = if *table == "games" { " ORDER BY rowid" } else { "" };
        let mut query = source.prepare(&format!("SELECT {} FROM {table}{order}", exprs.join(", ")))?;
        let mut rows = query.query([])?;
        let mut copied = 0u64;
        loop {
            let mut chunk: Vec<Column> = columns.iter().map(|c| Column::new(c.2)).collect();
            let mut n = 0;
            while n < CHUNK {
                let Some(row) = rows.next()? else { break };
                for (k, column) in chunk.iter_mut().enumerate() {
                    column.push(row.get(k)?, table)?;
                }
                n += 1;
            }
            if n == 0 {
                break;
            }
            let params: Vec<&(dyn ToSql + Sync)> = chunk.iter().map(Column::param).collect();
            tx.execute(&insert, &params)?;
            copied += n as u64;
        }
        report.rows.push((table, copied));
    }
    for (table, column) in [("accounts", "id"), ("games", "seq")] {
        let sql = format!(
            "SELECT setval(pg_get_serial_sequence('{table}', '{column}'), COALESCE(MAX({column}), 0) + 1, false) FROM {table}"
        );
        tx.execute(&sql, &[])?;
    }
    tx.commit()?;
    Ok(report)
}
