//! The game server's core, a top layer beside `cli` (`docs/design.md` §Network play): the wire
//! [`protocol`] (versioned JSON messages, in `crate::net` as the client speaks it too), the [`store`] (a small trait and SQLite) and the
//! server-authoritative [`service`], which checks every move with the rules and stores it before
//! acknowledging it.
//!
//! The [`transport`] (`triboard serve`) hands the service the messages of WebSocket connections
//! on one thread, commits their writes together and carries each [`service::Reply`] back and to
//! the game's followers; the service keeps live games' [`clock`]s.

#![warn(missing_docs)]

pub use crate::net::protocol;
pub mod clock;
pub mod service;
pub mod store;
pub mod transport;

pub use protocol::{ClientMessage, ErrorCode, PROTOCOL_VERSION, ServerMessage};
pub use service::{Reply, Service};
pub use store::{SqliteStore, Store};
