//! `serve-bench`'s simulated player: one WebSocket connection ([`WsClient`]) with the game as it
//! sees it, and a game's seats once they are all taken ([`Seated`]).

use std::time::{Duration, Instant};

use super::ws_client::WsClient;
use crate::net::position::{Position, start};
use crate::net::protocol::{ClientMessage, ServerMessage};

/// How long a client waits for an answer before it gives the game up.
const TIMEOUT: Duration = Duration::from_secs(60);

/// How many times [`Client::ask`] sends a message again after a `storage` refusal.
pub const RESENDS: usize = 5;

/// One simulated client connection.
pub struct Client {
    /// Its connection.
    pub ws: WsClient,
    /// The game as this connection sees it.
    pub table: Box<dyn Position>,
}

impl Client {
    /// Connects to `url` with the start position of `id`.
    pub async fn connect(url: &str, id: &str) -> Result<Client, String> {
        Ok(Client { ws: WsClient::connect(url, TIMEOUT).await?, table: start(id)? })
    }

    /// Connects again, to `url`, keeping the game as this client sees it (the old connection is
    /// dropped unclosed, as a lost network drops it).
    pub async fn reconnect(&mut self, url: &str) -> Result<(), String> {
        self.ws = WsClient::connect(url, TIMEOUT).await?;
        Ok(())
    }

    /// Sends a message.
    pub async fn send(&mut self, message: &ClientMessage) -> Result<(), String> {
        self.ws.send(message).await
    }

    /// Reads until `pick` accepts a message; an error message is the error.
    pub async fn until<T>(&mut self, pick: impl FnMut(&ServerMessage) -> Option<T>) -> Result<T, String> {
        self.ws.until(pick).await
    }

    /// Sends `message` and reads until `pick` accepts an answer. A `storage` refusal — the
    /// server's batch failed and stored nothing of it (`docs/design.md` §Several instances) — is
    /// answered as a client is told to: the message is sent again, up to [`RESENDS`] times.
    pub async fn ask<T>(
        &mut self,
        message: &ClientMessage,
        mut pick: impl FnMut(&ServerMessage) -> Option<T>,
    ) -> Result<T, String> {
        self.send(message).await?;
        let mut resent = 0;
        loop {
            match self.until(&mut pick).await {
                Err(e) if e.starts_with("storage:") && resent < RESENDS => {
                    resent += 1;
                    self.send(message).await?;
                }
                answer => return answer,
            }
        }
    }

    /// Reads `moved` messages, playing them, until the position has `ply` moves; returns their
    /// texts and when the first arrived.
    pub async fn catch_up(&mut self, ply: usize) -> Result<(Vec<(usize, String)>, Instant), String> {
        let mut got = Vec::new();
        let mut first = None;
        while self.table.ply() < ply {
            let (at, text) = self
                .until(|m| match m {
                    ServerMessage::Moved { ply, text, .. } => Some((*ply as usize, text.clone())),
                    _ => None,
                })
                .await?;
            if at != self.table.ply() {
                continue; // Seen already.
            }
            first.get_or_insert_with(Instant::now);
            self.table.play_text(&text).map_err(|e| e.reason)?;
            got.push((at, text));
        }
        Ok((got, first.unwrap_or_else(Instant::now)))
    }
}

/// A game's seats once every seat is taken: the game, each seat's token and client.
pub struct Seated {
    /// The game.
    pub game_id: String,
    /// Each seat's token.
    pub tokens: Vec<String>,
    /// Each seat's client (0 or 1).
    pub seat_client: [usize; crate::rules::MAX_PLAYERS],
}
