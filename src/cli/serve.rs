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
use crate::server::postgres::PgStore;
use crate::server::sqlite::SqliteStore;
use crate::server::store::Store;
use crate::server::transport::{ServeOptions, serve_on};

/// `triboard serve`'s flags.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The address to listen on (loopback unless told otherwise; port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The database: an SQLite file (default `server.sqlite` in the data folder), or a PostgreSQL
    /// URL (`postgres://USER:PASSWORD@HOST:PORT/DB`, TLS with `?sslmode=require`) that several
    /// instances may share.
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Copies the games, accounts and ratings of this SQLite file into the PostgreSQL `--db`
    /// before serving (refused if that database holds games already).
    #[arg(long, value_name = "FILE")]
    pub migrate_from: Option<PathBuf>,
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

/// The PostgreSQL URL `--db` names, if it names one (`postgres://` or `postgresql://`).
pub fn postgres_url(db: Option<&Path>) -> Option<&str> {
    db.and_then(Path::to_str).filter(|d| d.starts_with("postgres://") || d.starts_with("postgresql://"))
}

/// The URL without its password, for the log.
fn without_password(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user = &url[scheme + 3..at];
            let user = user.split(':').next().unwrap_or("");
            format!("{}{user}{}", &url[..scheme + 3], &url[at..])
        }
        _ => url.to_string(),
    }
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
    if let Some(url) = postgres_url(args.db.as_deref()) {
        let shown = without_password(url);
        if let Some(file) = &args.migrate_from {
            let report = crate::server::migrate::copy_sqlite_into(file, url)
                .map_err(|e| CliError::failure(format!("--migrate-from {}: {e}", file.display())))?;
            eprintln!("migrated {} into {shown}: {report}", file.display());
        }
        let store = PgStore::connect(url).map_err(|e| CliError::failure(format!("{shown}: {e}")))?;
        let options = ServeOptions { listen: Some(url.to_string()), ..options(args)? };
        return serve_until_stopped(args, store, options, &shown, out);
    }
    if args.migrate_from.is_some() {
        return Err(CliError::usage("--migrate-from needs a PostgreSQL --db (postgres://…)"));
    }
    let db = database_path(args.db.as_deref())?;
    let store = SqliteStore::open(&db).map_err(|e| CliError::failure(format!("{}: {e}", db.display())))?;
    let options = options(args)?;
    serve_until_stopped(args, store, options, &db.display().to_string(), out)
}

/// The server's options from the flags.
fn options(args: &ServeArgs) -> Result<ServeOptions, CliError> {
    let web = match &args.web {
        Some(dir) if !dir.is_dir() => {
            return Err(CliError::failure(format!("--web {}: no such folder", dir.display())));
        }
        Some(dir) => Some(dir.clone()),
        None => Some(PathBuf::from("web/dist")).filter(|d| d.join("index.html").is_file()),
    };
    Ok(ServeOptions {
        web,
        group_commit: !args.no_group_commit,
        until_signal: true,
        limits: if args.no_limits { LimitSettings::off() } else { LimitSettings::default() },
        bots: if args.no_bots { Vec::new() } else { args.bots.clone() },
        bot_threads: args.bot_threads,
        trusted_proxies: args.trusted_proxies.clone(),
        ..ServeOptions::default()
    })
}

/// Serves `store` until the process is stopped, printing where.
fn serve_until_stopped<S: Store + Send + 'static>(
    args: &ServeArgs,
    store: S,
    options: ServeOptions,
    db: &str,
    out: &mut dyn Write,
) -> Result<Value, CliError> {
    let web = options.web.clone();
    let server = serve_on(args.addr, store, options).map_err(|e| CliError::failure(e.to_string()))?;
    writeln!(out, "listening on http://{}", server.addr)?;
    out.flush()?;
    eprintln!("database: {db}");
    match &web {
        Some(dir) => eprintln!("web app: {} at http://{}/", dir.display(), server.addr),
        None => eprintln!("web app: none (build it into web/dist, or give --web DIR)"),
    }
    server.wait().map_err(|e| CliError::failure(format!("the server stopped: {e}")))?;
    Ok(json!({ "addr": args.addr.to_string(), "db": db, "stopped": true }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_url_is_told_from_a_file_and_logged_without_its_password() {
        assert_eq!(postgres_url(Some(Path::new("postgres://a:b@h/db"))), Some("postgres://a:b@h/db"));
        assert_eq!(postgres_url(Some(Path::new("server.sqlite"))), None);
        assert_eq!(without_password("postgres://a:secret@h:5432/db"), "postgres://a@h:5432/db");
        assert_eq!(without_password("postgresql://h/db"), "postgresql://h/db");
    }
}
