//! The wire protocol: versioned JSON messages, one JSON object per message (`docs/design.md`
//! §Network play).
//!
//! Every message is an object with a `version` ([`PROTOCOL_VERSION`]) and a `type` naming the
//! message in snake case, then the message's own fields:
//!
//! ```json
//! {"version": 1, "type": "move", "game_id": "3f9c…", "token": "a41b…", "text": "c3", "ply": 4}
//! ```
//!
//! A client sends [`ClientMessage`]s and the server answers with [`ServerMessage`]s. Reading a
//! message ([`decode_client`], [`decode_server`]) never panics: text over [`MAX_MESSAGE_BYTES`],
//! text that is not JSON, another version, an unknown `type`, a missing, mistyped or unknown field
//! or a field over [`MAX_FIELD_BYTES`] is refused with a [`Refusal`] whose [`ErrorCode`] says which.
//! Unknown fields are refused rather than ignored, so a misspelt optional field cannot pass
//! unnoticed; a new field comes with a new version.
//!
//! The protocol's parts, each in its own file and all re-exported here: the [`limits`] (the
//! version and the sizes), the [`messages`], the refusals ([`error`]: [`ErrorCode`] and
//! [`Refusal`]), the form of the client's own [`secrets`] and the [`wire`] form (encoding and the
//! checked decoding).

pub mod error;
pub mod fields;
pub mod game;
pub mod limits;
pub mod lobby;
pub mod messages;
pub mod secrets;
pub mod wire;

pub use error::{ErrorCode, Refusal};
pub use game::{Clock, DAYS_PER_MOVE, GameResult, OutHow, SeatOut, SeatView, Snapshot, normalize_code};
pub use limits::{MAX_FIELD_BYTES, MAX_MESSAGE_BYTES, OLDEST_PROTOCOL_VERSION, PROTOCOL_VERSION};
pub use lobby::{
    GameListing, LobbyView, PROVISIONAL_SIGMA, ProfileView, RATING_SCALE, RatingChange, RatingView, provisional_mark,
};
pub use messages::{ClientMessage, NewGame, ServerMessage};
pub use secrets::check_secret;
pub use wire::{decode_client, decode_server, encode_client, encode_server};
