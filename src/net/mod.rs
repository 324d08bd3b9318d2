//! Network play's shared part, built for every target (the browser too): the wire [`protocol`]
//! that the server (`crate::server`, native only) and the app's online client both speak, and the
//! [`position`] of any game by its id that both replay moves with (`docs/design.md` §Network play),
//! and the [`links`] people pass around (share links, invitations), read without the app.

#![warn(missing_docs)]

pub mod links;
pub mod position;
pub mod protocol;
