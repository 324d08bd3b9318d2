//! `serve-bench`'s servers and its check: the servers it starts in-process (one on a temporary
//! SQLite file, or `--instances` sharing a PostgreSQL `--db`) or those at `--addr`, and every
//! acknowledged move looked up where it must be — in the store, or (external servers) in the
//! answer to `watch`.

use std::net::SocketAddr;
use std::path::PathBuf;

use super::bench_client::Client;
use super::error::CliError;
use crate::net::protocol::{ClientMessage, ServerMessage};
use crate::server::limits::LimitSettings;
use crate::server::postgres::PgStore;
use crate::server::sqlite::{SqliteStore, remove_database};
use crate::server::store::Store;
use crate::server::transport::{ServeOptions, serve_on};

/// `serve-bench`'s database file in the temporary folder, removed (with its log files) when
/// dropped.
struct TempDb(PathBuf);

impl Drop for TempDb {
    fn drop(&mut self) {
        remove_database(&self.0);
    }
}

/// Which servers `serve-bench` measures (its flags).
pub struct ServersWanted {
    /// Running servers' addresses (none: start them in-process).
    pub addr: Vec<SocketAddr>,
    /// The in-process servers' PostgreSQL database, if not a temporary SQLite file.
    pub db: Option<String>,
    /// How many in-process servers share `db`.
    pub instances: usize,
    /// Whether the in-process servers commit each batch's writes together.
    pub no_group_commit: bool,
}

/// The servers measured, and the store to check them against.
pub struct Servers {
    /// Their addresses.
    pub addrs: Vec<SocketAddr>,
    /// The store they share, read by a connection of its own; none for external servers.
    store: Option<Box<dyn Store>>,
    /// Which kind of store.
    kind: &'static str,
    /// The temporary SQLite file, removed at the end (after `store` is closed).
    _temp: Option<TempDb>,
}

impl Servers {
    /// The servers asked for: those at `args.addr`, else started in-process.
    ///
    /// # Errors
    /// A store that cannot be opened, a server that cannot start (failures); `--instances 0`
    /// (usage).
    pub fn start(args: &ServersWanted) -> Result<Servers, CliError> {
        let options = || ServeOptions {
            group_commit: !args.no_group_commit,
            limits: LimitSettings::off(),
            ..ServeOptions::default()
        };
        let loopback = SocketAddr::from(([127, 0, 0, 1], 0));
        let failed = |e: std::io::Error| CliError::failure(e.to_string());
        if !args.addr.is_empty() {
            return Ok(Servers { addrs: args.addr.clone(), store: None, kind: "external", _temp: None });
        }
        if let Some(url) = &args.db {
            if args.instances == 0 {
                return Err(CliError::usage("--instances must be at least 1"));
            }
            let open = || PgStore::connect(url).map_err(|e| CliError::failure(format!("--db: {e}")));
            let mut addrs = Vec::new();
            for _ in 0..args.instances {
                let options = ServeOptions { listen: Some(url.clone()), ..options() };
                addrs.push(serve_on(loopback, open()?, options).map_err(failed)?.addr);
            }
            return Ok(Servers { addrs, store: Some(Box::new(open()?)), kind: "postgres", _temp: None });
        }
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let temp =
            TempDb(std::env::temp_dir().join(format!("triboard-serve-bench-{}-{nanos}.sqlite", std::process::id())));
        let open = || SqliteStore::open(&temp.0).map_err(|e| CliError::failure(format!("{}: {e}", temp.0.display())));
        let addr = serve_on(loopback, open()?, options()).map_err(failed)?.addr;
        let store: Box<dyn Store> = Box::new(open()?);
        Ok(Servers { addrs: vec![addr], store: Some(store), kind: "sqlite", _temp: Some(temp) })
    }

    /// `sqlite`, `postgres` or `external`.
    pub fn store_name(&self) -> &'static str {
        self.kind
    }

    /// The moves stored for `game_id`: (ply, text), in order; asked of the first server with
    /// `watch` if the servers are external.
    ///
    /// # Errors
    /// The store or the server cannot be read.
    pub fn stored_moves(
        &self,
        runtime: &tokio::runtime::Runtime,
        game_id: &str,
    ) -> Result<Vec<(usize, String)>, String> {
        // Not inside `block_on`: the PostgreSQL client runs a runtime of its own.
        let moves = match &self.store {
            Some(store) => match store.load_game(game_id).map_err(|e| e.to_string())? {
                Some(game) => game.moves,
                None => Vec::new(),
            },
            None => runtime.block_on(watched_moves(&format!("ws://{}/ws", self.addrs[0]), game_id))?,
        };
        Ok(moves.into_iter().enumerate().collect())
    }

    /// How many of `games` were rated (their rating changes are stored); none for external
    /// servers.
    ///
    /// # Errors
    /// The store cannot be read.
    pub fn rated<'a>(&self, games: impl Iterator<Item = &'a str>) -> Result<Option<usize>, CliError> {
        let Some(store) = &self.store else { return Ok(None) };
        let mut rated = 0;
        for game_id in games.filter(|g| !g.is_empty()) {
            let changes = store
                .rating_changes(game_id)
                .map_err(|e| CliError::failure(format!("cannot read the ratings: {e}")))?;
            rated += usize::from(!changes.is_empty());
        }
        Ok(Some(rated))
    }
}

/// The moves the server at `url` holds for `game_id`, asked with `watch`.
async fn watched_moves(url: &str, game_id: &str) -> Result<Vec<String>, String> {
    let mut client = Client::connect(url, "trike").await?;
    client.send(&ClientMessage::Watch { game_id: game_id.into() }).await?;
    let moves = client
        .until(|m| match m {
            ServerMessage::State(s) => Some(s.moves.clone()),
            _ => None,
        })
        .await?;
    client.ws.close().await;
    Ok(moves)
}

/// Counts (lost, duplicated): acknowledged moves not stored as acknowledged, and stored moves no
/// acknowledgement accounts for.
pub fn compare(acknowledged: &[(usize, String)], stored: &[(usize, String)]) -> (usize, usize) {
    let stored_set: std::collections::HashSet<&(usize, String)> = stored.iter().collect();
    let acked_set: std::collections::HashSet<&(usize, String)> = acknowledged.iter().collect();
    let lost = acknowledged.iter().filter(|m| !stored_set.contains(m)).count();
    let duplicated = stored.iter().filter(|m| !acked_set.contains(m)).count();
    (lost, duplicated)
}
