//! What the server tests share: every row of a database, read by a connection of its own (what
//! "the store is unchanged" compares).

use std::path::Path;

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
