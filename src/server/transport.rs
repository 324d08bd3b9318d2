//! `triboard serve`'s transport: the WebSocket API at `/ws` (axum on tokio) in front of the
//! [`Service`](super::service::Service), and the browser app's files from the same origin
//! (`docs/design.md` §Network play). This file is the router and the server's start ([`serve`],
//! [`serve_on`]); each connection is in `connection`, the service thread in
//! `batch`, who follows what in `hub`.
//!
//! **One service thread.** The service is `&mut self` over one SQLite connection, so it runs on a
//! thread of its own; connections are tokio tasks that read frames, check the rate limit, decode
//! the JSON (off the service thread) and queue the messages to it. The thread takes every event
//! waiting at that moment as one batch, answers each message, and sends the answers and the
//! broadcasts only after the batch's writes are committed: with group commit (the default) all the
//! batch's writes are one SQLite transaction, so one disk sync (`synchronous = FULL`) covers every
//! move of the batch, and still no move is acknowledged or broadcast before it is on disk. If the
//! commit fails, every message of the batch is answered with a `storage` error and nothing of it is
//! sent.
//!
//! Group commit was chosen by measurement: `triboard serve-bench`'s figures (a commit per move
//! against group commit, on a quick and a slow disk) are in `docs/design.md` §Network play
//! (server), "Group commit".
//!
//! **Subscriptions and presence.** A connection follows the games it creates, joins, moves in,
//! resigns, asks a rematch of, watches or syncs, and receives their broadcasts (moves, states,
//! presence). A connection that showed a seat's token for a game (create, join, move, resign,
//! rematch, or sync with a token) holds that seat; when a seat goes from no connection to one, or
//! back, the game's followers get a
//! [`ServerMessage::Presence`](crate::net::protocol::ServerMessage::Presence). A new follower gets
//! the current presence once.
//!
//! **Clocks.** The service thread sweeps every [`SWEEP_MS`] ms (and whenever it wakes) for games
//! whose clock ran out, and broadcasts their final state.
//!
//! **Limits.** A message over [`MAX_MESSAGE_BYTES`](crate::net::protocol::MAX_MESSAGE_BYTES) is
//! refused with a `too_large` error and the connection kept; the WebSocket layer closes a connection whose message or frame is over
//! [`MAX_FRAME_BYTES`] (twice that). A binary frame gets a `malformed` error. Each connection has a
//! token bucket ([`RateLimit`], by default 20 messages a second with a burst of 60): a message over
//! it is dropped unread and answered with `rate_limited`. A connection that does not read its
//! answers (more than [`OUTBOX`] waiting) is closed.

use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc as std_mpsc;

use axum::Router;
use axum::routing::get;
use tower_http::services::ServeDir;

pub use super::batch::SWEEP_MS;
use super::batch::service_thread;
use super::bot_move::bot_name;
use super::bot_runner::{BotEvent, run_bots};
use super::connection::{Event, Shared, upgrade};
pub use super::connection::{MAX_FRAME_BYTES, OUTBOX, RateLimit};
use super::limits::LimitSettings;
use super::service::BotSeat;
use super::service::Service;
use super::store::Store;
use crate::ai::levels::Level;

/// How `triboard serve` runs.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The browser app's folder (`web/dist`), served at `/` when given.
    pub web: Option<PathBuf>,
    /// Whether the writes of the messages waiting at one moment share one commit (default: yes).
    pub group_commit: bool,
    /// Each connection's rate limit.
    pub rate: RateLimit,
    /// Whether Ctrl-C or SIGTERM stops the server ([`serve_on`]; default: no, it serves until the
    /// process ends).
    pub until_signal: bool,
    /// The limits per address and per player (default: a public server's).
    pub limits: LimitSettings,
    /// The AI bots the server runs, by level (default: none): accounts `TriboardAI-N`.
    pub bots: Vec<u8>,
    /// The threads the bots' searches share (default 1).
    pub bot_threads: usize,
    /// Reverse proxies whose `X-Forwarded-For` names the client for the limits per address
    /// (default: none, every address is the peer's).
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// The PostgreSQL store's URL, when other instances share it: this one listens there for
    /// their notes (`server::cluster`). Default: none (the only instance).
    pub listen: Option<String>,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            web: None,
            group_commit: true,
            rate: RateLimit::default(),
            until_signal: false,
            limits: LimitSettings::default(),
            bots: Vec::new(),
            bot_threads: 1,
            trusted_proxies: Vec::new(),
            listen: None,
        }
    }
}

/// Serves the WebSocket API (and the web app, if `options.web` is given) on `listener` with the
/// games of `store`, until the process ends. The service thread starts first and resumes the
/// clocks of the store's live games.
///
/// # Errors
/// The listener's I/O errors; the service thread failing to start.
pub async fn serve<S: Store + Send + 'static>(
    listener: tokio::net::TcpListener,
    store: S,
    options: ServeOptions,
) -> io::Result<()> {
    let (events, inbox) = std_mpsc::channel();
    if let Some(url) = &options.listen {
        // Listening before the service starts: no note published from now on is missed.
        // The PostgreSQL client runs its own runtime: it connects on a thread outside this one.
        let (heard, url) = (events.clone(), url.clone());
        std::thread::spawn(move || super::cluster::listen(&url, move |note| heard.send(Event::Remote(note)).is_ok()))
            .join()
            .map_err(|_| io::Error::other("the listener's thread failed"))?
            .map_err(|e| io::Error::other(format!("cannot listen to the other instances: {e}")))?;
    }
    let group_commit = options.group_commit;
    let mut names = Vec::new();
    for &level in &options.bots {
        let level = Level::new(level).map_err(io::Error::other)?;
        names.push(bot_name(level));
    }
    let limits = options.limits;
    // The store is synchronous (PostgreSQL's client runs a runtime of its own): it is used on
    // threads of its own, never on this runtime's.
    let bot_names = names.clone();
    let (service, held) = std::thread::spawn(move || {
        let mut service = Service::new(store);
        service.set_limits(limits);
        let held = service.set_bots(&bot_names).map_err(|e| e.to_string())?;
        Ok::<_, String>((service, held))
    })
    .join()
    .map_err(|_| io::Error::other("the service failed to start"))?
    .map_err(io::Error::other)?;
    let next_conn = Arc::new(AtomicU64::new(1));
    let bots = if names.is_empty() { None } else { Some(start_bots(&events, &next_conn, options.bot_threads, held)?) };
    let thread_events = events.clone();
    std::thread::Builder::new()
        .name("triboard-service".into())
        .spawn(move || service_thread(service, inbox, thread_events, bots, group_commit))?;
    let shared = Shared {
        events,
        next_conn,
        rate: options.rate,
        per_address: Arc::default(),
        max_per_address: options.limits.connections_per_address,
        trusted_proxies: options.trusted_proxies.clone(),
    };
    let mut router = Router::new().route("/ws", get(upgrade)).with_state(shared);
    match options.web {
        Some(web) => router = router.fallback_service(ServeDir::new(web)),
        // No browser build: an invitation's link (`/#join=CODE`) opens a page that says how to
        // join from the app, not a 404.
        None => router = router.route("/", get(|| async { axum::response::Html(super::invite_page::INVITE_PAGE) })),
    }
    axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>()).await
}

/// Starts the bot runner ([`run_bots`]) as a connection of the hub, with the seats its bots hold
/// already; returns where to tell it of new ones.
fn start_bots(
    events: &std_mpsc::Sender<Event>,
    next_conn: &AtomicU64,
    threads: usize,
    held: Vec<BotSeat>,
) -> io::Result<std_mpsc::Sender<BotEvent>> {
    let conn = next_conn.fetch_add(1, Ordering::Relaxed);
    let (out, mut outbox) = tokio::sync::mpsc::channel::<String>(OUTBOX);
    let kill = Arc::new(tokio::sync::Notify::new());
    events.send(Event::Open { conn, out, kill, addr: None }).map_err(|_| io::Error::other("no service thread"))?;
    let (tell, heard) = std_mpsc::channel();
    let forward = tell.clone();
    tokio::spawn(async move {
        while let Some(text) = outbox.recv().await {
            if forward.send(BotEvent::Text(text)).is_err() {
                break;
            }
        }
    });
    for seat in held {
        let _ = tell.send(BotEvent::Seat(seat));
    }
    let (events, found) = (events.clone(), tell.clone());
    std::thread::Builder::new()
        .name("triboard-bots".into())
        .spawn(move || run_bots(conn, events, heard, found, threads))?;
    Ok(tell)
}

/// Binds `addr`, the address to print once listening.
///
/// # Errors
/// The address cannot be bound.
pub async fn bind(addr: SocketAddr) -> io::Result<(tokio::net::TcpListener, SocketAddr)> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    Ok((listener, bound))
}

/// A server serving on a thread of its own ([`serve_on`]).
#[derive(Debug)]
pub struct Serving {
    /// The address it listens on, as bound (port 0 resolved).
    pub addr: SocketAddr,
    stopped: std_mpsc::Receiver<io::Result<()>>,
}

impl Serving {
    /// Waits until the server stops: on an I/O error, or on Ctrl-C or SIGTERM with
    /// [`ServeOptions::until_signal`]; else never.
    ///
    /// # Errors
    /// Why the server stopped.
    pub fn wait(self) -> io::Result<()> {
        self.stopped.recv().unwrap_or(Ok(()))
    }
}

/// Starts a tokio runtime on a thread of its own, binds `addr` there and [`serve`]s `store` on it;
/// returns once listening, with the bound address. The server runs until the process ends (or a
/// signal, with [`ServeOptions::until_signal`]); `triboard serve`, `serve-bench` and the tests
/// start theirs so.
///
/// # Errors
/// The runtime or its thread cannot start; the address cannot be bound (the error says which).
pub fn serve_on<S: Store + Send + 'static>(addr: SocketAddr, store: S, options: ServeOptions) -> io::Result<Serving> {
    let (ready, listening) = std_mpsc::channel();
    let (stop, stopped) = std_mpsc::channel();
    let context = |what: &str, e: io::Error| io::Error::new(e.kind(), format!("{what}: {e}"));
    std::thread::Builder::new()
        .name("triboard-server".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
                Ok(runtime) => runtime,
                Err(e) => {
                    let _ = ready.send(Err(context("cannot start the server's threads", e)));
                    return;
                }
            };
            let served = runtime.block_on(async move {
                let (listener, bound) = match bind(addr).await {
                    Ok(bound) => bound,
                    Err(e) => {
                        let _ = ready.send(Err(context(&format!("cannot listen on {addr}"), e)));
                        return Ok(());
                    }
                };
                let _ = ready.send(Ok(bound));
                if !options.until_signal {
                    return serve(listener, store, options).await;
                }
                tokio::select! {
                    served = serve(listener, store, options) => served,
                    () = stop_signal() => Ok(()),
                }
            });
            drop(runtime);
            let _ = stop.send(served);
        })
        .map_err(|e| context("cannot start the server's thread", e))?;
    let addr = listening.recv().map_err(|_| io::Error::other("the server's thread ended before listening"))??;
    Ok(Serving { addr, stopped })
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
