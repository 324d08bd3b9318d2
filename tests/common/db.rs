//! What the server tests share: a database file in the temporary folder ([`TempDb`]), and every
//! row of a database, read by a connection of its own (what "the store is unchanged" compares).

use std::path::{Path, PathBuf};

use triboard::server::sqlite::remove_database;

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
