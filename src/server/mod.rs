//! The game server's core, a top layer beside `cli` (`docs/design.md` §Network play): the wire
//! [`protocol`] (versioned JSON messages, in `crate::net` as the client speaks it too), the [`store`] (a small trait and SQLite) and the
//! server-authoritative [`service`], which checks every move with the rules and stores it before
//! acknowledging it.
//!
//! Nothing here opens a socket yet: a transport (WebSocket) hands the service one message at a
//! time and carries its [`service::Reply`] back.

#![warn(missing_docs)]

pub use crate::net::protocol;
pub mod clock;
pub mod service;
pub mod store;

pub use protocol::{ClientMessage, ErrorCode, PROTOCOL_VERSION, ServerMessage};
pub use service::{Reply, Service};
pub use store::{SqliteStore, Store};
