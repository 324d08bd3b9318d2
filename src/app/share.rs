//! Share links: the game record in the URL fragment (`#game=…`), so a link opens the game at its
//! position (`docs/design.md` §Web). Reading and writing them is the app-free
//! [`crate::net::links`] (fuzzed without Bevy); the session opens what a link holds
//! ([`super::session::OpenRecord`]).

pub use crate::net::links::{PREFIX, fragment, parse_fragment};
