//! What the service thread does with the other instances' notes (`server::cluster`): forgets the
//! games they changed and forwards those games' messages to its own followers, counts the seats
//! held through them in the presence, passes on lobby changes, and answers a new instance's hello.

use super::announce::{announce_lobby, announce_presence};
use super::cluster::{Cluster, Note};
use super::hub::{Hub, Outbox};
use super::service::Service;
use super::store::{Store, now_ms};
use crate::net::protocol::{ServerMessage, decode_server, encode_server};

/// Acts on a note heard from the store (`None`: the listener reconnected, notes may be lost).
pub fn hear<S: Store>(
    service: &mut Service<S>,
    hub: &mut Hub,
    cluster: &mut Cluster,
    text: Option<&str>,
    outbox: &mut Outbox,
) {
    let Some(text) = text else {
        // Anything may have changed: every game followed here is sent afresh from the store.
        for game_id in hub.followed_games() {
            service.forget(&game_id);
            resync(service, hub, &game_id, outbox);
        }
        announce_lobby(service, hub, outbox);
        cluster.hello();
        // A sign-out elsewhere may have been missed: each session signed in here is checked.
        for session in hub.sessions() {
            if let Ok(None) = service.store().session_account(&session) {
                hub.end_session(&session, None, outbox);
            }
        }
        return;
    };
    let Some(note) = cluster.hear(text) else { return };
    match note {
        Note::Game { game, deadline, at_ms, messages, resync: whole, .. } => {
            // Moves are played on the copy in memory; any other change makes it stale.
            let moves: Option<Vec<(u32, u8, String)>> = messages
                .iter()
                .map(|text| match decode_server(text) {
                    Ok(ServerMessage::Moved { ply, text, seat, .. }) => Some((ply, seat, text)),
                    _ => None,
                })
                .collect();
            match moves.filter(|m| !m.is_empty() && !whole) {
                Some(moves) => service.apply_remote(&game, &moves, at_ms),
                None => service.forget(&game),
            }
            service.set_deadline(&game, deadline);
            if whole {
                resync(service, hub, &game, outbox);
            }
            for text in &messages {
                hub.broadcast(&game, text, None, outbox);
            }
        }
        Note::Held { from, game, seats } => {
            if hub.set_remote(&from, &game, seats) {
                announce_presence(service, hub, &game, outbox);
            }
        }
        Note::Lobby { .. } => announce_lobby(service, hub, outbox),
        Note::Alive { .. } => {}
        Note::SessionEnded { session, .. } => hub.end_session(&session, None, outbox),
        Note::Hello { .. } => {
            for game in hub.held_games() {
                cluster.held(&game, hub.local_seats(&game));
            }
        }
    }
}

/// Forgets the instances gone silent ([`Cluster::gone`]) and the seats held through them,
/// announcing the presence of their games.
pub fn expire<S: Store>(service: &mut Service<S>, hub: &mut Hub, cluster: &mut Cluster, outbox: &mut Outbox) {
    for from in cluster.gone() {
        for game in hub.drop_remote(&from) {
            announce_presence(service, hub, &game, outbox);
        }
    }
}

/// Sends game `game_id`'s followers its whole state, from the store.
fn resync<S: Store>(service: &mut Service<S>, hub: &Hub, game_id: &str, outbox: &mut Outbox) {
    if let Ok(state) = service.snapshot(game_id, now_ms()) {
        hub.broadcast(game_id, &encode_server(&state), None, outbox);
    }
}
