//! `triboard serve`'s transport: the WebSocket API at `/ws` (axum on tokio) in front of the
//! [`Service`], and the browser app's files from the same origin (`docs/design.md` §Network play).
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
//! Measured with `triboard serve-bench --games 500` (release build, this project's 2-core virtual
//! machine, think time 0–200 ms, every game to its end: 41 074 moves in about 30 s; README §Host a
//! server has the command). The disk's sync time varied between runs, from ~0.2 ms to 4–11 ms per
//! synced write (`dd oflag=dsync`), and decides the latency:
//! - one transaction per move (`--no-group-commit`): quick disk 1 457 moves/s, p50 0.87 ms, p99
//!   59.5 ms; slow disk 163–1 279 moves/s, p99 0.56–4.3 s (the queue grows faster than one sync
//!   per move drains it);
//! - group commit: quick disk 1 470 moves/s, p50 0.54 ms, p99 3.1 ms; slow disk 1 260–1 380
//!   moves/s, p50 1–16 ms, p99 36–100 ms (median of 8 runs 52 ms): a message waits for the commit
//!   under way and then its own, and the service thread spent ~60 % of its time in commits of 6
//!   messages on average;
//! - lost = duplicated = 0 in every run. Hence group commit.
//!
//! **Subscriptions and presence.** A connection follows the games it creates, joins, moves in,
//! resigns, asks a rematch of, watches or syncs, and receives their broadcasts (moves, states,
//! presence). A connection that showed a seat's token for a game (create, join, move, resign,
//! rematch, or sync with a token) holds that seat; when a seat goes from no connection to one, or
//! back, the game's followers get a [`ServerMessage::Presence`]. A new follower gets the current
//! presence once.
//!
//! **Clocks.** The service thread sweeps every [`SWEEP_MS`] ms (and whenever it wakes) for games
//! whose clock ran out, and broadcasts their final state.
//!
//! **Limits.** A message over [`MAX_MESSAGE_BYTES`] is refused with a `too_large` error and the
//! connection kept; the WebSocket layer closes a connection whose message or frame is over
//! [`MAX_FRAME_BYTES`] (twice that). A binary frame gets a `malformed` error. Each connection has a
//! token bucket ([`RateLimit`], by default 20 messages a second with a burst of 60): a message over
//! it is dropped unread and answered with `rate_limited`. A connection that does not read its
//! answers (more than [`OUTBOX`] waiting) is closed.

use std::collections::{HashMap, HashSet};
use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc as std_mpsc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::get;
use futures_util::{SinkExt as _, StreamExt as _};
use tokio::sync::{Notify, mpsc};
use tower_http::services::ServeDir;

use super::protocol::{
    ClientMessage, ErrorCode, MAX_MESSAGE_BYTES, Refusal, ServerMessage, decode_client, encode_server,
};
use super::service::{Broadcast, Service};
use super::store::{SqliteStore, now_ms};

/// How often the service thread looks for clocks that ran out, in ms.
pub const SWEEP_MS: u64 = 250;

/// The largest WebSocket message or frame read at all, in bytes (128 KiB): larger ones close the
/// connection; between [`MAX_MESSAGE_BYTES`] and this, a `too_large` error answers.
pub const MAX_FRAME_BYTES: usize = 2 * MAX_MESSAGE_BYTES;

/// How many answers may wait for a connection before it is closed as not reading.
pub const OUTBOX: usize = 1024;

/// The most events the service thread takes as one batch (one commit).
const MAX_BATCH: usize = 4096;

/// A per-connection token bucket: `burst` messages at once, refilled at `per_second`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateLimit {
    /// Messages a second, on average.
    pub per_second: f64,
    /// Messages at once, after a pause.
    pub burst: f64,
}

impl Default for RateLimit {
    fn default() -> RateLimit {
        RateLimit { per_second: 20.0, burst: 60.0 }
    }
}

/// How `triboard serve` runs.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The browser app's folder (`web/dist`), served at `/` when given.
    pub web: Option<PathBuf>,
    /// Whether the writes of the messages waiting at one moment share one commit (default: yes).
    pub group_commit: bool,
    /// Each connection's rate limit.
    pub rate: RateLimit,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions { web: None, group_commit: true, rate: RateLimit::default() }
    }
}

/// A connection's number, for the service thread.
type ConnId = u64;

/// What the connections tell the service thread.
enum Event {
    /// A connection opened: where its answers go, and how to close it.
    Open { conn: ConnId, out: mpsc::Sender<String>, kill: Arc<Notify> },
    /// A message read from a connection.
    Message { conn: ConnId, message: ClientMessage },
    /// A connection closed.
    Close { conn: ConnId },
}

/// What the HTTP handlers share.
#[derive(Clone)]
struct Shared {
    events: std_mpsc::Sender<Event>,
    next_conn: Arc<std::sync::atomic::AtomicU64>,
    rate: RateLimit,
}

/// Serves the WebSocket API (and the web app, if `options.web` is given) on `listener` with the
/// games of `store`, until the process ends. The service thread starts first and resumes the
/// clocks of the store's live games.
///
/// # Errors
/// The listener's I/O errors; the service thread failing to start.
pub async fn serve(listener: tokio::net::TcpListener, store: SqliteStore, options: ServeOptions) -> io::Result<()> {
    let (events, inbox) = std_mpsc::channel();
    let group_commit = options.group_commit;
    std::thread::Builder::new()
        .name("triboard-service".into())
        .spawn(move || service_thread(Service::new(store), inbox, group_commit))?;
    let shared = Shared { events, next_conn: Arc::new(std::sync::atomic::AtomicU64::new(1)), rate: options.rate };
    let mut router = Router::new().route("/ws", get(upgrade)).with_state(shared);
    if let Some(web) = options.web {
        router = router.fallback_service(ServeDir::new(web));
    }
    axum::serve(listener, router).await
}

async fn upgrade(ws: WebSocketUpgrade, State(shared): State<Shared>) -> Response {
    ws.max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .on_upgrade(move |socket| connection(socket, shared))
}

/// A token bucket ([`RateLimit`]).
struct Bucket {
    limit: RateLimit,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn new(limit: RateLimit) -> Bucket {
        Bucket { limit, tokens: limit.burst, at: Instant::now() }
    }

    /// Takes a token if there is one.
    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * self.limit.per_second;
        self.tokens = (self.tokens + refill).min(self.limit.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// One WebSocket connection: reads, checks and decodes its messages for the service thread, and
/// writes what the thread answers.
async fn connection(socket: WebSocket, shared: Shared) {
    let conn = shared.next_conn.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let (mut sink, mut stream) = socket.split();
    let (out, mut outbox) = mpsc::channel::<String>(OUTBOX);
    let kill = Arc::new(Notify::new());
    if shared.events.send(Event::Open { conn, out: out.clone(), kill: kill.clone() }).is_err() {
        return; // The service thread is gone.
    }
    let writer = tokio::spawn(async move {
        while let Some(text) = outbox.recv().await {
            if sink.send(Message::Text(text.into())).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let refuse = |code: ErrorCode, why: &str| {
        // A full outbox: the connection is being closed anyway.
        let _ = out.try_send(encode_server(&Refusal::new(code, why).into_message()));
    };
    let mut bucket = Bucket::new(shared.rate);
    let mut killed = false;
    loop {
        let frame = tokio::select! {
            frame = stream.next() => frame,
            () = kill.notified() => {
                killed = true;
                break;
            }
        };
        let Some(Ok(frame)) = frame else { break };
        let text = match frame {
            Message::Text(text) => text,
            Message::Binary(_) => {
                if bucket.take() {
                    refuse(ErrorCode::Malformed, "binary frames are not read: each message is one JSON text frame");
                }
                continue;
            }
            Message::Ping(_) | Message::Pong(_) => continue,
            Message::Close(_) => break,
        };
        if !bucket.take() {
            refuse(ErrorCode::RateLimited, "too many messages: this one was dropped; slow down and send it again");
            continue;
        }
        match decode_client(text.as_str()) {
            Ok(message) => {
                if shared.events.send(Event::Message { conn, message }).is_err() {
                    break;
                }
            }
            Err(refusal) => {
                let _ = out.try_send(encode_server(&refusal.into_message()));
            }
        }
    }
    let _ = shared.events.send(Event::Close { conn });
    drop(out);
    if killed {
        // It does not read: what waits for it would never drain.
        writer.abort();
    }
    let _ = writer.await;
}

/// A connection as the service thread knows it.
struct Conn {
    out: mpsc::Sender<String>,
    kill: Arc<Notify>,
    /// The games it follows.
    games: HashSet<String>,
    /// The seats it holds: (game, seat).
    seats: HashSet<(String, u8)>,
}

/// Who follows which game and who holds which seat.
#[derive(Default)]
struct Hub {
    conns: HashMap<ConnId, Conn>,
    followers: HashMap<String, HashSet<ConnId>>,
    holders: HashMap<(String, u8), HashSet<ConnId>>,
}

/// Messages waiting for the end of the batch: each to one connection.
type Outbox = Vec<(ConnId, String)>;

impl Hub {
    /// Makes `conn` follow `game_id`; true if it did not already.
    fn follow(&mut self, conn: ConnId, game_id: &str) -> bool {
        let Some(c) = self.conns.get_mut(&conn) else { return false };
        if !c.games.insert(game_id.to_string()) {
            return false;
        }
        self.followers.entry(game_id.to_string()).or_default().insert(conn);
        true
    }

    /// Makes `conn` hold `seat` of `game_id`; true if the seat was held by no connection before.
    fn hold(&mut self, conn: ConnId, game_id: &str, seat: u8) -> bool {
        let Some(c) = self.conns.get_mut(&conn) else { return false };
        let key = (game_id.to_string(), seat);
        if !c.seats.insert(key.clone()) {
            return false;
        }
        let holders = self.holders.entry(key).or_default();
        holders.insert(conn);
        holders.len() == 1
    }

    /// The game's presence message: whether each seat is held.
    fn presence(&self, game_id: &str, seats: usize) -> String {
        let online = (0..seats)
            .map(|s| u8::try_from(s).is_ok_and(|s| self.holders.contains_key(&(game_id.to_string(), s))))
            .collect();
        encode_server(&ServerMessage::Presence { game_id: game_id.to_string(), online })
    }

    /// Queues `text` for every follower of `game_id` but `except`.
    fn broadcast(&self, game_id: &str, text: &str, except: Option<ConnId>, outbox: &mut Outbox) {
        if let Some(followers) = self.followers.get(game_id) {
            for &conn in followers {
                if Some(conn) != except {
                    outbox.push((conn, text.to_string()));
                }
            }
        }
    }

    /// Forgets a connection; returns the games where a seat lost its last holder.
    fn close(&mut self, conn: ConnId) -> Vec<String> {
        let Some(c) = self.conns.remove(&conn) else { return Vec::new() };
        for game in &c.games {
            if let Some(followers) = self.followers.get_mut(game) {
                followers.remove(&conn);
                if followers.is_empty() {
                    self.followers.remove(game);
                }
            }
        }
        let mut changed = Vec::new();
        for key in c.seats {
            if let Some(holders) = self.holders.get_mut(&key) {
                holders.remove(&conn);
                if holders.is_empty() {
                    self.holders.remove(&key);
                    changed.push(key.0);
                }
            }
        }
        changed.sort();
        changed.dedup();
        changed
    }
}

/// The game and token a message is about, if any.
fn about(message: &ClientMessage) -> (Option<String>, Option<String>) {
    match message {
        ClientMessage::Create { .. } | ClientMessage::Join { .. } => (None, None),
        ClientMessage::Move { game_id, token, .. }
        | ClientMessage::Resign { game_id, token }
        | ClientMessage::Rematch { game_id, token } => (Some(game_id.clone()), Some(token.clone())),
        ClientMessage::Watch { game_id } => (Some(game_id.clone()), None),
        ClientMessage::Sync { game_id, token, .. } => (Some(game_id.clone()), token.clone()),
    }
}

/// The service thread: takes every waiting event as one batch, answers it, commits, then sends.
fn service_thread(mut service: Service<SqliteStore>, inbox: std_mpsc::Receiver<Event>, group_commit: bool) {
    let _ = service.resume_clocks();
    let mut hub = Hub::default();
    let sweep_every = Duration::from_millis(SWEEP_MS);
    let mut last_sweep = Instant::now();
    loop {
        let wait = sweep_every.saturating_sub(last_sweep.elapsed());
        let mut batch = Vec::new();
        match inbox.recv_timeout(wait) {
            Ok(event) => batch.push(event),
            Err(std_mpsc::RecvTimeoutError::Timeout) => {}
            Err(std_mpsc::RecvTimeoutError::Disconnected) => break,
        }
        while batch.len() < MAX_BATCH {
            match inbox.try_recv() {
                Ok(event) => batch.push(event),
                Err(_) => break,
            }
        }
        let now = now_ms();
        let batched = group_commit && service.begin_batch().is_ok();
        let mut outbox = Outbox::new();
        let mut senders = Vec::new();
        for event in batch {
            match event {
                Event::Open { conn, out, kill } => {
                    hub.conns.insert(conn, Conn { out, kill, games: HashSet::new(), seats: HashSet::new() });
                }
                Event::Message { conn, message } => {
                    senders.push(conn);
                    answer(&mut service, &mut hub, conn, message, now, &mut outbox);
                }
                Event::Close { conn } => {
                    for game_id in hub.close(conn) {
                        if let Some(seats) = service.seat_count(&game_id) {
                            let presence = hub.presence(&game_id, seats);
                            hub.broadcast(&game_id, &presence, None, &mut outbox);
                        }
                    }
                }
            }
        }
        if last_sweep.elapsed() >= sweep_every {
            last_sweep = Instant::now();
            for Broadcast { game_id, messages } in service.sweep(now_ms()) {
                for message in &messages {
                    hub.broadcast(&game_id, &encode_server(message), None, &mut outbox);
                }
            }
        }
        if batched && let Err(refusal) = service.commit_batch() {
            // Nothing of the batch is stored: nothing of it may be acknowledged.
            let error = encode_server(&refusal.into_message());
            outbox = senders.into_iter().map(|conn| (conn, error.clone())).collect();
        }
        deliver(&mut service, &mut hub, outbox);
    }
}

/// Answers one message of connection `conn`, queueing the answers, broadcasts and presence.
fn answer(
    service: &mut Service<SqliteStore>,
    hub: &mut Hub,
    conn: ConnId,
    message: ClientMessage,
    now: u64,
    outbox: &mut Outbox,
) {
    let (game_id, token) = about(&message);
    let reply = service.handle_at(message, now);
    let refused = reply.error().is_some();
    // The games this connection now follows, and the seats it holds.
    let mut follows: Vec<String> = Vec::new();
    let mut holds: Vec<(String, u8)> = Vec::new();
    for m in &reply.messages {
        match m {
            ServerMessage::Created { game_id, seat, .. }
            | ServerMessage::Joined { game_id, seat, .. }
            | ServerMessage::Rematched { game_id, seat, .. } => {
                follows.push(game_id.clone());
                holds.push((game_id.clone(), *seat));
            }
            _ => {}
        }
    }
    if let Some(game_id) = game_id.filter(|_| !refused) {
        if let Some(seat) = token.and_then(|t| service.seat_of(&game_id, &t)) {
            holds.push((game_id.clone(), seat));
        }
        follows.push(game_id);
    }
    for m in &reply.messages {
        outbox.push((conn, encode_server(m)));
    }
    if let Some(Broadcast { game_id, messages }) = &reply.broadcast {
        for m in messages {
            hub.broadcast(game_id, &encode_server(m), Some(conn), outbox);
        }
    }
    let mut new_follows = Vec::new();
    for game_id in follows {
        if hub.follow(conn, &game_id) {
            new_follows.push(game_id);
        }
    }
    let mut changed: Vec<String> = holds.into_iter().filter(|(g, s)| hub.hold(conn, g, *s)).map(|(g, _)| g).collect();
    changed.dedup();
    for game_id in &changed {
        if let Some(seats) = service.seat_count(game_id) {
            let presence = hub.presence(game_id, seats);
            hub.broadcast(game_id, &presence, None, outbox);
        }
    }
    for game_id in new_follows.iter().filter(|g| !changed.contains(g)) {
        if let Some(seats) = service.seat_count(game_id) {
            outbox.push((conn, hub.presence(game_id, seats)));
        }
    }
}

/// Sends the batch's messages; a connection whose outbox is full is closed as not reading.
fn deliver(service: &mut Service<SqliteStore>, hub: &mut Hub, outbox: Outbox) {
    let mut stuck = Vec::new();
    for (conn, text) in outbox {
        let Some(c) = hub.conns.get(&conn) else { continue };
        if let Err(mpsc::error::TrySendError::Full(_)) = c.out.try_send(text) {
            c.kill.notify_one();
            stuck.push(conn);
        }
    }
    stuck.sort_unstable();
    stuck.dedup();
    for conn in stuck {
        let mut outbox = Outbox::new();
        for game_id in hub.close(conn) {
            if let Some(seats) = service.seat_count(&game_id) {
                let presence = hub.presence(&game_id, seats);
                hub.broadcast(&game_id, &presence, None, &mut outbox);
            }
        }
        for (conn, text) in outbox {
            if let Some(c) = hub.conns.get(&conn) {
                let _ = c.out.try_send(text);
            }
        }
    }
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
