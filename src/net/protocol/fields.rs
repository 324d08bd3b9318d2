//! What a [`ClientMessage`] names: its message types, the game and the seat token it is about,
//! and the check of its fields' sizes.

use super::error::{ErrorCode, Refusal};
use super::limits::MAX_FIELD_BYTES;
use super::messages::{ClientMessage, NewGame};

/// The most entries of a list field of a client message (`bots`, `claim`).
pub const MAX_LIST: usize = 64;

impl ClientMessage {
    /// Every client message `type`, as sent.
    pub const TYPES: &'static [&'static str] = &[
        "create",
        "join",
        "move",
        "resign",
        "rematch",
        "watch",
        "sync",
        "accept",
        "seek",
        "withdraw",
        "signup",
        "login",
        "resume",
        "logout",
        "lobby",
        "leaderboard",
        "profile",
        "hello",
    ];

    /// Checks that no string field is over [`MAX_FIELD_BYTES`]
    /// ([`decode_client`](super::wire::decode_client) does it, and so does the service for a
    /// message that did not come as text).
    ///
    /// # Errors
    /// A [`ErrorCode::TooLarge`] refusal naming the field.
    pub fn check_sizes(&self) -> Result<(), Refusal> {
        let fields: Vec<(&str, &str)> = match self {
            ClientMessage::Create(NewGame { game, request_id, bots, .. }) => {
                let mut f = vec![("game", game.as_str())];
                f.extend(request_id.as_deref().map(|r| ("request_id", r)));
                f.extend(bots.iter().map(|b| ("bots", b.as_str())));
                f
            }
            ClientMessage::Join { code, request_id } => {
                let mut f = vec![("code", code.as_str())];
                f.extend(request_id.as_deref().map(|r| ("request_id", r)));
                f
            }
            ClientMessage::Seek { game, request_id, .. } => {
                let mut f = vec![("game", game.as_str())];
                f.extend(request_id.as_deref().map(|r| ("request_id", r)));
                f
            }
            ClientMessage::Accept { game_id, request_id } => {
                let mut f = vec![("game_id", game_id.as_str())];
                f.extend(request_id.as_deref().map(|r| ("request_id", r)));
                f
            }
            ClientMessage::Move { game_id, token, text, .. } => {
                vec![("game_id", game_id), ("token", token), ("text", text)]
            }
            ClientMessage::Resign { game_id, token }
            | ClientMessage::Rematch { game_id, token }
            | ClientMessage::Withdraw { game_id, token } => vec![("game_id", game_id), ("token", token)],
            ClientMessage::Watch { game_id } | ClientMessage::Sync { game_id, token: None, .. } => {
                vec![("game_id", game_id)]
            }
            ClientMessage::Sync { game_id, token: Some(token), .. } => vec![("game_id", game_id), ("token", token)],
            ClientMessage::Signup { name, password, claim } | ClientMessage::Login { name, password, claim } => {
                let mut f = vec![("name", name.as_str()), ("password", password.as_str())];
                f.extend(claim.iter().map(|t| ("claim", t.as_str())));
                f
            }
            ClientMessage::Resume { session, claim } => {
                let mut f = vec![("session", session.as_str())];
                f.extend(claim.iter().map(|t| ("claim", t.as_str())));
                f
            }
            ClientMessage::Logout { session } => vec![("session", session)],
            ClientMessage::Lobby {} => Vec::new(),
            ClientMessage::Leaderboard { game } => vec![("game", game)],
            ClientMessage::Profile { name } => vec![("name", name)],
            ClientMessage::Hello { client } => vec![("client", client)],
        };
        let lists = match self {
            ClientMessage::Create(new) => new.bots.len(),
            ClientMessage::Signup { claim, .. }
            | ClientMessage::Login { claim, .. }
            | ClientMessage::Resume { claim, .. } => claim.len(),
            _ => 0,
        };
        if lists > MAX_LIST {
            return Err(Refusal::new(ErrorCode::TooLarge, format!("a list of {lists} entries, over {MAX_LIST}")));
        }
        for (name, value) in fields {
            if value.len() > MAX_FIELD_BYTES {
                let size = value.len();
                return Err(Refusal::new(
                    ErrorCode::TooLarge,
                    format!("the field '{name}' has {size} bytes, over the limit of {MAX_FIELD_BYTES}"),
                ));
            }
        }
        Ok(())
    }

    /// The game the message is about: none for a `create` or a `join`, which name no game yet,
    /// nor for the messages about accounts and the lobby.
    pub fn game_id(&self) -> Option<&str> {
        match self {
            ClientMessage::Create(_)
            | ClientMessage::Seek { .. }
            | ClientMessage::Join { .. }
            | ClientMessage::Signup { .. }
            | ClientMessage::Login { .. }
            | ClientMessage::Resume { .. }
            | ClientMessage::Logout { .. }
            | ClientMessage::Lobby {}
            | ClientMessage::Leaderboard { .. }
            | ClientMessage::Profile { .. }
            | ClientMessage::Hello { .. } => None,
            ClientMessage::Accept { game_id, .. } | ClientMessage::Withdraw { game_id, .. } => Some(game_id),
            ClientMessage::Move { game_id, .. }
            | ClientMessage::Resign { game_id, .. }
            | ClientMessage::Rematch { game_id, .. }
            | ClientMessage::Watch { game_id }
            | ClientMessage::Sync { game_id, .. } => Some(game_id),
        }
    }

    /// The request id the message carries, if any (`create`, `join`, `seek`, `accept`).
    pub fn request_id(&self) -> Option<&str> {
        match self {
            ClientMessage::Create(NewGame { request_id, .. })
            | ClientMessage::Join { request_id, .. }
            | ClientMessage::Seek { request_id, .. }
            | ClientMessage::Accept { request_id, .. } => request_id.as_deref(),
            _ => None,
        }
    }

    /// The seat token the message shows, if any.
    pub fn token(&self) -> Option<&str> {
        match self {
            ClientMessage::Move { token, .. }
            | ClientMessage::Withdraw { token, .. }
            | ClientMessage::Resign { token, .. }
            | ClientMessage::Rematch { token, .. } => Some(token),
            ClientMessage::Sync { token, .. } => token.as_deref(),
            _ => None,
        }
    }
}
