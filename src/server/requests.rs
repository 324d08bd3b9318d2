//! Request ids bound to their requester and their request (`docs/design.md` §Threat model): a
//! `create`, `join`, `accept` or `seek` sent again with its request id (a retry after a dropped
//! connection) is answered with the seat it took, but only to the account or client that sent it
//! first and only for the same request. Anybody else who sends a known id, or the same id with
//! another request, is refused with [`ErrorCode::RequestIdUsed`] and nothing changes.
//!
//! The requester is the account signed in, else the guest's client ([`Caller::client`]: the hash
//! of the secret its connection said [`ClientMessage::Hello`] with, or a per-connection value when
//! it said none). The store keeps the id's hash and the hash of requester and request
//! ([`RequestKey`]), so its copy answers nobody.
//!
//! [`ClientMessage::Hello`]: crate::net::protocol::ClientMessage::Hello

use blake2::{Blake2s256, Digest as _};

use super::ids::hex;
use super::room::storage;
use super::service::{Caller, Reply, Service};
use super::store::{RequestKey, SeatOfRequest, Store};
use crate::net::protocol::{ErrorCode, Refusal, ServerMessage, check_secret};

/// What a request asks for: its kind (`create`, `join`, `accept`, `seek`) and what it names (the
/// game kind, the join code as normalised, the game id).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asked<'a> {
    /// The message's type.
    pub kind: &'static str,
    /// What it names.
    pub target: &'a str,
}

/// The key `request_id` of `caller`'s request `asked` is stored and looked up under; none without
/// a request id.
///
/// # Errors
/// A [`ErrorCode::Malformed`] refusal for an id without 128 random bits' form ([`check_secret`]).
pub fn request_key(request_id: Option<&str>, caller: &Caller, asked: Asked<'_>) -> Result<Option<RequestKey>, Refusal> {
    let Some(request_id) = request_id else { return Ok(None) };
    check_secret("request id", request_id)?;
    let requester = match (caller.account, caller.client) {
        (Some(account), _) => format!("account {account}"),
        (None, Some(client)) => format!("client {}", hex(&client)),
        // A caller with neither (a test or a tool calling the service itself).
        (None, None) => "nobody".to_string(),
    };
    let of = Blake2s256::new()
        .chain_update(requester.as_bytes())
        .chain_update([0])
        .chain_update(asked.kind.as_bytes())
        .chain_update([0])
        .chain_update(asked.target.as_bytes())
        .finalize();
    Ok(Some(RequestKey { id: hex(&Blake2s256::digest(request_id.as_bytes())), of: hex(&of) }))
}

/// The 16 bytes a guest's client secret is known by ([`Caller::client`]); its form is checked
/// first.
///
/// # Errors
/// A [`ErrorCode::Malformed`] refusal ([`check_secret`]).
pub fn client_of(secret: &str) -> Result<[u8; 16], Refusal> {
    check_secret("client secret", secret)?;
    let digest = Blake2s256::new().chain_update(b"client\0").chain_update(secret.as_bytes()).finalize();
    let mut client = [0u8; 16];
    client.copy_from_slice(&digest[..16]);
    Ok(client)
}

impl<S: Store> Service<S> {
    /// The answer to a request sent again with the key `key` of one already served: the same seat
    /// and token (as [`ServerMessage::Created`] if `create`, else [`ServerMessage::Joined`]), and
    /// the game as it stands. None for a request id not used before.
    ///
    /// # Errors
    /// [`ErrorCode::RequestIdUsed`] when the id was used by another requester or for another
    /// request; a storage refusal.
    pub(super) fn retried(
        &mut self,
        key: Option<&RequestKey>,
        create: bool,
        now_ms: u64,
    ) -> Result<Option<Reply>, Refusal> {
        let Some(key) = key else { return Ok(None) };
        let Some(SeatOfRequest { game_id, seat, token, of }) =
            self.store.seat_of_request(&key.id).map_err(|e| storage(&e))?
        else {
            return Ok(None);
        };
        if of.as_deref() != Some(key.of.as_str()) {
            return Err(Refusal::new(
                ErrorCode::RequestIdUsed,
                "this request id was used before, by another player or for another request: send it with a new one",
            ));
        }
        let room = self.room(&game_id)?;
        let first = if create {
            ServerMessage::Created { game_id: game_id.clone(), code: room.stored.setup.code.clone(), seat, token }
        } else {
            ServerMessage::Joined { game_id: game_id.clone(), seat, token }
        };
        let state = ServerMessage::State(room.snapshot(0, now_ms));
        Ok(Some(Reply { messages: vec![first, state], ..Reply::default() }))
    }
}
