//! `triboard serve`: the game server in one command — the WebSocket API at `/ws` and, when the web
//! build exists, the browser app from the same origin (`docs/design.md` §Network play; README
//! §Host a server).

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::{Value, json};

use super::error::CliError;
use crate::server::store::SqliteStore;
use crate::server::transport::{self, ServeOptions};

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
}

/// The data folder: `TRIBOARD_DATA_DIR`, else the user's (`~/.local/share/triboard` on Linux, as
/// the app's), else the working folder.
pub fn data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("TRIBOARD_DATA_DIR") {
        return PathBuf::from(dir);
    }
    directories::ProjectDirs::from("org", "triboard", "triboard")
        .map_or_else(|| PathBuf::from("."), |dirs| dirs.data_dir().to_path_buf())
}

/// The database `serve` uses: `--db`, else `server.sqlite` in the data folder (created).
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
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::failure(format!("cannot start the server's threads: {e}")))?;
    let options = ServeOptions { web: web.clone(), group_commit: !args.no_group_commit, ..ServeOptions::default() };
    runtime.block_on(async {
        let (listener, bound) = transport::bind(args.addr)
            .await
            .map_err(|e| CliError::failure(format!("cannot listen on {}: {e}", args.addr)))?;
        writeln!(out, "listening on http://{bound}")?;
        out.flush()?;
        eprintln!("database: {}", db.display());
        match &web {
            Some(dir) => eprintln!("web app: {} at http://{bound}/", dir.display()),
            None => eprintln!("web app: none (build it into web/dist, or give --web DIR)"),
        }
        tokio::select! {
            served = transport::serve(listener, store, options) => {
                served.map_err(|e| CliError::failure(format!("the server stopped: {e}")))?;
            }
            () = stop_signal() => {}
        }
        Ok::<(), CliError>(())
    })?;
    Ok(json!({ "addr": args.addr.to_string(), "db": db.display().to_string(), "stopped": true }))
}

/// Ctrl-C, or SIGTERM on Unix.
async fn stop_signal() {
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(term) => term,
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
