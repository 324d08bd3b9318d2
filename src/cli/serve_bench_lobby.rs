//! `serve-bench --lobby`: each game started as players start one through the lobby — two
//! accounts signed up, a rated open challenge posted by the first, accepted by the second.

use std::sync::Arc;

use tokio::sync::Barrier;

use super::bench_client::{Client, Seated};
use crate::net::protocol::{ClientMessage, NewGame, ServerMessage};

/// How a game is started through the lobby: the barrier every game's sign-ups wait at (so no
/// password is hashed while moves are timed), and the start of its players' names.
pub struct LobbyStart {
    /// Every game waits here once its players are signed up.
    pub barrier: Arc<Barrier>,
    /// The players are `{name}a` and `{name}b`.
    pub name: String,
}

/// Signs both clients up, waits for every game's sign-ups, then posts a rated challenge of `id`
/// with the first client and accepts it with the second.
pub async fn seat_through_lobby(clients: &mut [Client; 2], id: &str, lobby: LobbyStart) -> Result<Seated, String> {
    for (client, side) in clients.iter_mut().zip(["a", "b"]) {
        let name = format!("{}{side}", lobby.name);
        let password = format!("{name} bench password");
        client.send(&ClientMessage::Signup { name, password, claim: Vec::new() }).await?;
        client.until(|m| matches!(m, ServerMessage::SignedIn { .. }).then_some(())).await?;
    }
    lobby.barrier.wait().await;
    clients[0].send(&ClientMessage::Create(NewGame { rated: true, lobby: true, ..NewGame::of(id) })).await?;
    let (game_id, token) = clients[0]
        .until(|m| match m {
            ServerMessage::Created { game_id, token, .. } => Some((game_id.clone(), token.clone())),
            _ => None,
        })
        .await?;
    clients[1].send(&ClientMessage::Accept { game_id: game_id.clone(), request_id: None }).await?;
    let (seat, joined) = clients[1]
        .until(|m| match m {
            ServerMessage::Joined { seat, token, .. } => Some((*seat, token.clone())),
            _ => None,
        })
        .await?;
    if seat != 1 {
        return Err(format!("the challenge's acceptor got seat {seat}"));
    }
    let mut seat_client = [0; crate::rules::MAX_PLAYERS];
    seat_client[1] = 1;
    Ok(Seated { game_id, tokens: vec![token, joined], seat_client })
}
