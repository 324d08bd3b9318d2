//! The protocol's version and its size limits (`docs/design.md` §Network play).

/// The protocol version this build speaks; every message it sends carries it as `version`.
/// Version 2 added accounts, ratings and the lobby; version 3 names in an `error` the game and the
/// request id of the message it refuses.
pub const PROTOCOL_VERSION: u32 = 3;

/// The oldest version still read: a version 2 message reads as version 3 (every field version 3
/// added is optional).
pub const OLDEST_PROTOCOL_VERSION: u32 = 2;

/// The largest message read, in bytes of its JSON text (64 KiB).
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// The longest string field of a client message (a move's text, a token, a code, a game id), in
/// bytes. A Trigon placement, the longest move text, is about 20.
pub const MAX_FIELD_BYTES: usize = 256;
