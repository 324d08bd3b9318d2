//! A WebSocket client of `triboard serve`'s protocol for the command line (`serve-bench`, `bot`):
//! tokio-tungstenite, each message one JSON text frame, every read bounded in time.

use std::time::Duration;

use futures_util::{SinkExt as _, StreamExt as _};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::net::protocol::{ClientMessage, ServerMessage, decode_server, encode_client};

/// One connection to a server.
pub struct WsClient {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    timeout: Duration,
}

impl WsClient {
    /// Connects to `url` (`ws://HOST/ws`); each read waits at most `timeout`.
    ///
    /// # Errors
    /// A sentence: the server cannot be reached.
    pub async fn connect(url: &str, timeout: Duration) -> Result<WsClient, String> {
        let (ws, _) = tokio_tungstenite::connect_async(url).await.map_err(|e| format!("cannot connect: {e}"))?;
        Ok(WsClient { ws, timeout })
    }

    /// Sends a message.
    ///
    /// # Errors
    /// A sentence: the connection is gone.
    pub async fn send(&mut self, message: &ClientMessage) -> Result<(), String> {
        self.ws.send(Message::text(encode_client(message))).await.map_err(|e| format!("cannot send: {e}"))
    }

    /// The next server message (pings skipped).
    ///
    /// # Errors
    /// A sentence: no answer within the timeout, the connection closed, an unreadable message.
    pub async fn next(&mut self) -> Result<ServerMessage, String> {
        loop {
            let frame = tokio::time::timeout(self.timeout, self.ws.next())
                .await
                .map_err(|_| format!("no answer within {} s", self.timeout.as_secs()))?
                .ok_or("the server closed the connection")?
                .map_err(|e| format!("cannot read: {e}"))?;
            if let Message::Text(text) = frame {
                return decode_server(text.as_str()).map_err(|e| format!("unreadable answer: {e}"));
            }
        }
    }

    /// Reads until a message `pick` accepts; an error message is returned as the error.
    ///
    /// # Errors
    /// The server's error (`code: sentence`), or [`WsClient::next`]'s.
    pub async fn until<T>(&mut self, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> Result<T, String> {
        loop {
            let message = self.next().await?;
            if let ServerMessage::Error { code, message, .. } = &message {
                return Err(format!("{code}: {message}"));
            }
            if let Some(value) = pick(&message) {
                return Ok(value);
            }
        }
    }

    /// Closes the connection.
    pub async fn close(&mut self) {
        let _ = self.ws.close(None).await;
    }
}
