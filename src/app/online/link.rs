//! The connection to the game server ([`Link`]): one WebSocket (`ewebsock`: tungstenite on a
//! thread on the desktop, the page's WebSocket in the browser), opened when online play needs it,
//! reopened by itself after a drop with a growing pause (0.5 s doubling to 8 s), and messages
//! queued while it is down are sent once it is up again.

use std::time::Duration;

use bevy::prelude::*;
use web_time::Instant;

use super::secrets::client_secret;
use crate::net::protocol::{ClientMessage, MAX_MESSAGE_BYTES, ServerMessage, decode_server, encode_client};

/// The first pause before reconnecting, doubled after each failure up to [`MAX_RETRY`].
pub const FIRST_RETRY: Duration = Duration::from_millis(500);
/// The longest pause between two attempts to reconnect.
pub const MAX_RETRY: Duration = Duration::from_secs(8);

/// Where the connection stands, as the panel says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkState {
    /// Not wanted: no online game and no lobby open.
    Idle,
    /// Opening (the first time, or again after a drop).
    Connecting,
    /// Open: messages flow.
    Open,
    /// Dropped or refused; the next attempt is at `retry`.
    Down {
        /// Why, in the library's words.
        why: String,
        /// When the next attempt starts.
        retry: Instant,
    },
}

/// What the link heard this frame, for online play's systems.
#[derive(Clone, Debug, PartialEq)]
pub enum Heard {
    /// The connection opened (again): what the server knows must be asked again.
    Opened,
    /// A message from the server (boxed: a game's state is large).
    Message(Box<ServerMessage>),
    /// The server sent something this client cannot read (another version?).
    Unreadable(String),
}

/// The connection to one server: a non-send resource (the browser's socket lives on its one
/// thread), so the systems that use it run on the main thread.
pub struct Link {
    url: String,
    socket: Option<(ewebsock::WsSender, ewebsock::WsReceiver)>,
    state: LinkState,
    pause: Duration,
    outbox: Vec<String>,
}

impl Default for Link {
    fn default() -> Self {
        Link { url: String::new(), socket: None, state: LinkState::Idle, pause: FIRST_RETRY, outbox: Vec::new() }
    }
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Link").field("url", &self.url).field("state", &self.state).finish()
    }
}

impl Link {
    /// The server's address (`ws://…/ws`), empty before the first [`Link::want`].
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Where the connection stands.
    pub fn state(&self) -> &LinkState {
        &self.state
    }

    /// True while messages flow.
    pub fn is_open(&self) -> bool {
        self.state == LinkState::Open
    }

    /// Wants a connection to `url`: opens it now unless it is open (or opening) to that server
    /// already; another address closes the old connection first.
    pub fn want(&mut self, url: &str) {
        if self.url != url {
            self.close();
            self.url = url.to_string();
            self.outbox.clear();
        }
        if self.state == LinkState::Idle {
            self.open();
        }
    }

    /// Closes the connection: no more attempts until the next [`Link::want`].
    pub fn close(&mut self) {
        self.socket = None;
        self.state = LinkState::Idle;
        self.pause = FIRST_RETRY;
    }

    /// Sends `message` now, or once the connection is up again (kept in order).
    pub fn send(&mut self, message: &ClientMessage) {
        let text = encode_client(message);
        match (&self.state, &mut self.socket) {
            (LinkState::Open, Some((sender, _))) => sender.send(ewebsock::WsMessage::Text(text)),
            _ => self.outbox.push(text),
        }
    }

    fn open(&mut self) {
        let options = ewebsock::Options { max_incoming_frame_size: MAX_MESSAGE_BYTES, ..Default::default() };
        match ewebsock::connect(self.url.clone(), options) {
            Ok(socket) => {
                self.socket = Some(socket);
                self.state = LinkState::Connecting;
            }
            Err(why) => self.down(why),
        }
    }

    fn down(&mut self, why: String) {
        self.socket = None;
        self.state = LinkState::Down { why, retry: Instant::now() + self.pause };
        self.pause = (self.pause * 2).min(MAX_RETRY);
    }

    /// Reads what arrived since the last call (and reconnects when the pause is over).
    pub fn poll(&mut self) -> Vec<Heard> {
        if let LinkState::Down { retry, .. } = self.state
            && Instant::now() >= retry
        {
            self.open();
        }
        let mut heard = Vec::new();
        while let Some(event) = self.socket.as_ref().and_then(|(_, receiver)| receiver.try_recv()) {
            match event {
                ewebsock::WsEvent::Opened => {
                    self.state = LinkState::Open;
                    self.pause = FIRST_RETRY;
                    if let Some((sender, _)) = &mut self.socket {
                        // First who this client is, so a retried request is answered as its own.
                        let hello = ClientMessage::Hello { client: client_secret().to_string() };
                        sender.send(ewebsock::WsMessage::Text(encode_client(&hello)));
                        for text in self.outbox.drain(..) {
                            sender.send(ewebsock::WsMessage::Text(text));
                        }
                    }
                    heard.push(Heard::Opened);
                }
                ewebsock::WsEvent::Message(ewebsock::WsMessage::Text(text)) => match decode_server(&text) {
                    Ok(message) => heard.push(Heard::Message(Box::new(message))),
                    Err(refusal) => heard.push(Heard::Unreadable(refusal.to_string())),
                },
                ewebsock::WsEvent::Message(_) => {}
                ewebsock::WsEvent::Error(why) => {
                    self.down(why);
                    break;
                }
                ewebsock::WsEvent::Closed => {
                    self.down("the server closed the connection".to_string());
                    break;
                }
            }
        }
        heard
    }
}

/// The server's WebSocket address by default: in the browser, the page's own server (`wss://` on
/// an `https://` page); on the desktop, `ws://127.0.0.1:8080/ws` (`triboard serve`'s default).
pub fn default_server() -> String {
    #[cfg(target_arch = "wasm32")]
    if let Some(location) = web_sys::window().map(|w| w.location())
        && let Ok(host) = location.host()
        && !host.is_empty()
    {
        let secure = location.protocol().is_ok_and(|p| p == "https:");
        return format!("{}://{host}/ws", if secure { "wss" } else { "ws" });
    }
    "ws://127.0.0.1:8080/ws".to_string()
}

/// The server's address as a person may type it: `host:port`, `http(s)://host:port/…` or
/// `ws(s)://host:port/ws` all become the WebSocket address `ws(s)://host:port/ws`.
///
/// # Errors
/// An empty address, or one with spaces.
pub fn server_url(typed: &str) -> Result<String, String> {
    let typed = typed.trim();
    if typed.is_empty() {
        return Err("type the server's address, as host:port".to_string());
    }
    if typed.contains(char::is_whitespace) {
        return Err(format!("'{typed}' is not a server's address (it has spaces)"));
    }
    let (scheme, rest) = match typed.split_once("://") {
        Some(("https" | "wss", rest)) => ("wss", rest),
        Some(("http" | "ws", rest)) => ("ws", rest),
        Some((other, _)) => return Err(format!("'{other}://' is not a web address; use ws:// or http://")),
        None => ("ws", typed),
    };
    let host = rest.split(['/', '#', '?']).next().unwrap_or_default();
    if host.is_empty() {
        return Err(format!("'{typed}' names no host"));
    }
    Ok(format!("{scheme}://{host}/ws"))
}

/// The invitation link of join code `code` on the server at WebSocket address `url`: the page
/// the server serves, with `#join=CODE` (`http://host:port/#join=CODE`).
pub fn join_link(url: &str, code: &str) -> String {
    let page = url.replacen("wss://", "https://", 1).replacen("ws://", "http://", 1);
    let page = page.strip_suffix("/ws").unwrap_or(&page);
    format!("{page}/#join={code}")
}

/// Reads what a person pastes to join: a link with `#join=CODE` (its server too), or the code
/// alone. Returns the code and, for a link, the server's WebSocket address.
pub fn read_invitation(typed: &str) -> (String, Option<String>) {
    let typed = typed.trim();
    match typed.split_once("#join=") {
        Some((page, code)) => {
            let server = (!page.is_empty()).then(|| server_url(page).ok()).flatten();
            (code.trim().to_string(), server)
        }
        None => (typed.to_string(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_addresses_become_websocket_addresses() {
        assert_eq!(server_url("127.0.0.1:8080").unwrap(), "ws://127.0.0.1:8080/ws");
        assert_eq!(server_url("http://example.org:8080/").unwrap(), "ws://example.org:8080/ws");
        assert_eq!(server_url("https://example.org/#join=ABCD").unwrap(), "wss://example.org/ws");
        assert_eq!(server_url(" wss://example.org/ws ").unwrap(), "wss://example.org/ws");
        assert!(server_url("").is_err());
        assert!(server_url("ftp://x").unwrap_err().contains("ftp"));
        assert!(server_url("a b").is_err());
    }

    #[test]
    fn invitations_round_trip_through_their_links() {
        let link = join_link("ws://127.0.0.1:8080/ws", "ABCD2345");
        assert_eq!(link, "http://127.0.0.1:8080/#join=ABCD2345");
        assert_eq!(read_invitation(&link), ("ABCD2345".to_string(), Some("ws://127.0.0.1:8080/ws".to_string())));
        assert_eq!(join_link("wss://example.org/ws", "X"), "https://example.org/#join=X");
        assert_eq!(read_invitation(" abcd-2345 "), ("abcd-2345".to_string(), None));
        assert_eq!(read_invitation("#join=K"), ("K".to_string(), None));
    }
}
