//! What the service thread queues for many connections at once: the lobby for everyone in it,
//! a game's presence for all its followers (after a batch, or another instance's note).

use super::hub::{Hub, Outbox};
use super::service::Service;
use super::store::Store;
use crate::net::protocol::{ServerMessage, encode_server};

/// Queues the lobby for everyone in it.
pub fn announce_lobby<S: Store>(service: &mut Service<S>, hub: &Hub, outbox: &mut Outbox) {
    if hub.lobby.is_empty() {
        return;
    }
    if let Ok(view) = service.lobby_view(hub.people() as u32) {
        let text = encode_server(&ServerMessage::Lobby(view));
        for &conn in &hub.lobby {
            outbox.push((conn, text.clone()));
        }
    }
}

/// Queues game `game_id`'s presence for all its followers.
pub fn announce_presence<S: Store>(service: &mut Service<S>, hub: &Hub, game_id: &str, outbox: &mut Outbox) {
    if let Some(seats) = service.seat_count(game_id) {
        let presence = hub.presence(game_id, seats);
        hub.broadcast(game_id, &presence, None, outbox);
    }
}
