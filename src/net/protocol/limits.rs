//! The protocol's version and its size limits (`docs/design.md` §Network play).

/// The protocol version this build speaks; every message carries it as `version`. Version 2
/// added accounts, ratings and the lobby.
pub const PROTOCOL_VERSION: u32 = 2;

/// The largest message read, in bytes of its JSON text (64 KiB).
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// The longest string field of a client message (a move's text, a token, a code, a game id), in
/// bytes. A Trigon placement, the longest move text, is about 20.
pub const MAX_FIELD_BYTES: usize = 256;
