//! One WebSocket connection of `triboard serve` (`docs/design.md` §Network play): it reads frames,
//! checks each connection's rate limit ([`RateLimit`], a token bucket), decodes the JSON off the
//! service thread and queues the messages to it as [`Event`]s; it writes what the thread answers.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{ConnectInfo, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt as _, StreamExt as _};
use tokio::sync::{Notify, mpsc};

use super::passwords::PasswordDone;
use crate::net::protocol::{ClientMessage, ErrorCode, MAX_MESSAGE_BYTES, Refusal, decode_client, encode_server};

/// The largest WebSocket message or frame read at all, in bytes (128 KiB): larger ones close the
/// connection; between [`MAX_MESSAGE_BYTES`] and this, a `too_large` error answers.
pub const MAX_FRAME_BYTES: usize = 2 * MAX_MESSAGE_BYTES;

/// How many answers may wait for a connection before it is closed as not reading.
pub const OUTBOX: usize = 1024;

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

/// A connection's number, for the service thread.
pub type ConnId = u64;

/// What the connections tell the service thread.
pub enum Event {
    /// A connection opened: where its answers go, how to close it, and its address.
    Open { conn: ConnId, out: mpsc::Sender<String>, kill: Arc<Notify>, addr: Option<IpAddr> },
    /// A sign-up's or sign-in's password job, done off the service thread.
    Password { conn: ConnId, done: PasswordDone },
    /// A message read from a connection.
    Message { conn: ConnId, message: ClientMessage },
    /// A connection closed.
    Close { conn: ConnId },
    /// A note published by another instance sharing the store (`server::cluster`), or `None`
    /// when the listener reconnected and notes may have been missed.
    Remote(Option<String>),
}

/// What the HTTP handlers share.
#[derive(Clone)]
pub struct Shared {
    /// Where the connections' events go: the service thread.
    pub events: std_mpsc::Sender<Event>,
    /// The next connection's number.
    pub next_conn: Arc<AtomicU64>,
    /// Each connection's rate limit.
    pub rate: RateLimit,
    /// The connections open from each address, and how many one address may have.
    pub per_address: Arc<Mutex<HashMap<IpAddr, usize>>>,
    /// The most connections one address may have open.
    pub max_per_address: usize,
    /// The reverse proxies whose `X-Forwarded-For` names the client.
    pub trusted_proxies: Vec<IpAddr>,
}

/// Upgrades an HTTP request at `/ws` to a WebSocket [`connection`].
pub async fn upgrade(
    ws: WebSocketUpgrade,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    State(shared): State<Shared>,
) -> Response {
    let addr = client_address(peer.ip(), &headers, &shared.trusted_proxies);
    ws.max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .on_upgrade(move |socket| connection(socket, shared, addr))
}

/// The address a connection's limits count against: the peer's, or — when the peer is one of the
/// `trusted` proxies — the last address of its `X-Forwarded-For` (the one the proxy saw connect;
/// earlier ones the client may have written itself).
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let forwarded = headers.get_all("x-forwarded-for").iter().rev().find_map(|v| v.to_str().ok());
    forwarded.and_then(|v| v.rsplit(',').next()).and_then(|a| a.trim().parse().ok()).unwrap_or(peer)
}

/// Counts a connection from `addr` while it lives, if the address has room for one more.
struct AddressSlot {
    addr: IpAddr,
    table: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl AddressSlot {
    fn take(shared: &Shared, addr: IpAddr) -> Option<AddressSlot> {
        let mut table = shared.per_address.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let open = table.entry(addr).or_insert(0);
        if *open >= shared.max_per_address {
            return None;
        }
        *open += 1;
        Some(AddressSlot { addr, table: shared.per_address.clone() })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut table = self.table.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(open) = table.get_mut(&self.addr) {
            *open -= 1;
            if *open == 0 {
                table.remove(&self.addr);
            }
        }
    }
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
async fn connection(mut socket: WebSocket, shared: Shared, addr: IpAddr) {
    let Some(_slot) = AddressSlot::take(&shared, addr) else {
        let max = shared.max_per_address;
        let refusal = Refusal::new(ErrorCode::Limit, format!("{max} connections at once from one address: close one"));
        let _ = socket.send(Message::Text(encode_server(&refusal.into_message()).into())).await;
        let _ = socket.send(Message::Close(Some(CloseFrame { code: close_code::POLICY, reason: "".into() }))).await;
        return;
    };
    let conn = shared.next_conn.fetch_add(1, Ordering::Relaxed);
    let (mut sink, mut stream) = socket.split();
    let (out, mut outbox) = mpsc::channel::<String>(OUTBOX);
    let kill = Arc::new(Notify::new());
    if shared.events.send(Event::Open { conn, out: out.clone(), kill: kill.clone(), addr: Some(addr) }).is_err() {
        return; // The service thread is gone.
    }
    let too_big = Arc::new(Notify::new());
    let close_too_big = too_big.clone();
    let writer = tokio::spawn(async move {
        loop {
            // Biased: once the reader has stopped on a message too big, the 1009 goes out even
            // if the outbox has ended meanwhile (an unbiased pick closed without a code at times).
            let text = tokio::select! {
                biased;
                () = close_too_big.notified() => {
                    let frame = CloseFrame { code: close_code::SIZE, reason: "message too big".into() };
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    // The message's unread rest makes closing the socket a reset: give the client a
                    // moment to read the close frame first.
                    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                    break;
                }
                text = outbox.recv() => text,
            };
            let Some(text) = text else { break };
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
        let frame = match frame {
            Some(Ok(frame)) => frame,
            Some(Err(e)) => {
                // Over MAX_FRAME_BYTES: closed with 1009 (message too big), as RFC 6455 says.
                if format!("{e:?}").contains("Capacity") {
                    too_big.notify_one();
                }
                break;
            }
            None => break,
        };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_trusted_proxy_names_the_client() {
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", "6.6.6.6, 203.0.113.7".parse().unwrap());
        assert_eq!(client_address(proxy, &headers, &[proxy]), "203.0.113.7".parse::<IpAddr>().unwrap());
        assert_eq!(client_address(proxy, &headers, &[]), proxy, "an untrusted peer is itself");
        let stranger: IpAddr = "198.51.100.1".parse().unwrap();
        assert_eq!(client_address(stranger, &headers, &[proxy]), stranger, "a header from anyone else is ignored");
        headers.insert("x-forwarded-for", "not an address".parse().unwrap());
        assert_eq!(client_address(proxy, &headers, &[proxy]), proxy, "an unreadable header: the peer");
    }
}
