//! `triboard serve`: the game server in one command — the WebSocket API at `/ws` and, when the web
//! build exists, the browser app from the same origin (`docs/design.md` §Network play; README
//! §Host a server).

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::{Value, json};

use super::error::CliError;
use crate::data_dir::data_dir;
use crate::server::limits::LimitSettings;
use crate::server::sqlite::SqliteStore;
use crate::server::transport::{ServeOptions, serve_on};

/// `triboard serve`'s flags.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The address to listen on (loopback unless told otherwise; port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The database file (SQLite); default `server.sqlite` in the data folder.
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// The browser app's folder, served at `/`; default `web/dist` if it exists.
    #[arg(long)]
    pub web: Option<PathBuf>,
    /// Commit each message's writes on their own instead of together (for measurements).
    #[arg(long, hide = true)]
    pub no_group_commit: bool,
    /// No limits per address or player (connections, games and sign-ins a minute, open
    /// challenges): for a bench or a private server. Default: a public server's limits.
    #[arg(long)]
    pub no_limits: bool,
    /// The AI bots offered in the lobby, by level (1–6): accounts `TriboardAI-N`, rated like
    /// anyone.
    #[arg(long, value_delimiter = ',', default_value = "1,3,5")]
    pub bots: Vec<u8>,
    /// No AI bots.
    #[arg(long, conflicts_with = "bots")]
    pub no_bots: bool,
    /// The threads the bots' searches share.
    #[arg(long, default_value_t = 1)]
    pub bot_threads: usize,
    /// A reverse proxy in front of the server (repeatable): for connections from it, the limits
    /// per address count the client named last in its `X-Forwarded-For`.
    #[arg(long = "trusted-proxy")]
    pub trusted_proxies: Vec<std::net::IpAddr>,
}

/// The database `serve` uses: `--db`, else `server.sqlite` in the data folder
/// ([`crate::data_dir::data_dir`], created).
///
/// # Errors
/// The data folder cannot be created.
pub fn database_path(db: Option<&Path>) -> Result<PathBuf, CliError> {
    if let Some(db) = db {
        return Ok(db.to_path_buf());
    }
    let dir = data_dir();
    std::fs::create_dir_all(&dir)
        .map_err(|e| CliError::failure(format!("cannot create the data folder {}: {e}", dir.display())))?;
    Ok(dir.join("server.sqlite"))
}

/// Runs the server until the process is stopped (Ctrl-C or SIGTERM end it cleanly).
///
/// Prints `listening on http://ADDR` (the bound address) once listening, and flushes it.
///
/// # Errors
/// An unopenable database, an address in use, a missing `--web` folder (failures).
pub fn run(args: &ServeArgs, out: &mut dyn Write) -> Result<Value, CliError> {
    let db = database_path(args.db.as_deref())?;
    let store = SqliteStore::open(&db).map_err(|e| CliError::failure(format!("{}: {e}", db.display())))?;
    let web = match &args.web {
        Some(dir) if !dir.is_dir() => {
            return Err(CliError::failure(format!("--web {}: no such folder", dir.display())));
        }
        Some(dir) => Some(dir.clone()),
        None => Some(PathBuf::from("web/dist")).filter(|d| d.join("index.html").is_file()),
    };
    let options = ServeOptions {
        web: web.clone(),
        group_commit: !args.no_group_commit,
        until_signal: true,
        limits: if args.no_limits { LimitSettings::off() } else { LimitSettings::default() },
        bots: if args.no_bots { Vec::new() } else { args.bots.clone() },
        bot_threads: args.bot_threads,
        trusted_proxies: args.trusted_proxies.clone(),
        ..ServeOptions::default()
    };
    let server = serve_on(args.addr, store, options).map_err(|e| CliError::failure(e.to_string()))?;
    writeln!(out, "listening on http://{}", server.addr)?;
    out.flush()?;
    eprintln!("database: {}", db.display());
    match &web {
        Some(dir) => eprintln!("web app: {} at http://{}/", dir.display(), server.addr),
        None => eprintln!("web app: none (build it into web/dist, or give --web DIR)"),
    }
    server.wait().map_err(|e| CliError::failure(format!("the server stopped: {e}")))?;
    Ok(json!({ "addr": args.addr.to_string(), "db": db.display().to_string(), "stopped": true }))
}
