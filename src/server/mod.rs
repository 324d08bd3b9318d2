//! The game server's core, a top layer beside `cli` (`docs/design.md` §Network play): it speaks
//! the wire protocol of [`crate::net::protocol`] (the app's client speaks it too), keeps its games
//! in a [`store`] (a small trait; [`sqlite`] is SQLite, its tables in [`schema`], its checkpoints
//! in [`checkpoint`]) and answers with the server-authoritative [`service`], which checks every
//! move with the rules and stores it before acknowledging it. The service keeps replayed games in
//! a cache (`rooms`) of `room`s; its handlers are in `seating` and `moves`; [`ids`] draws the
//! tokens, join codes and game ids.
//!
//! The [`transport`] (`triboard serve`) hands the service the messages of WebSocket connections
//! (`connection`) on one thread (`batch`), commits their writes together and carries each
//! [`service::Reply`] back and to the game's followers (`hub`); the service keeps live games'
//! [`clock`]s.

#![warn(missing_docs)]

pub mod account_store;
mod accounts;
mod batch;
pub mod bot_move;
mod bot_runner;
pub mod checkpoint;
pub mod clock;
pub mod cluster;
mod connection;
mod hub;
pub mod ids;
pub mod limits;
mod lobby;
mod moves;
mod pairing;
mod password_pool;
pub mod passwords;
pub mod ratings;
mod remote;
mod room;
mod rooms;
pub mod schema;
pub mod seating;
pub mod service;
pub mod sqlite;
mod sqlite_accounts;
pub mod store;
mod store_error;
pub mod transport;

pub use service::{Reply, Service};
pub use sqlite::SqliteStore;
pub use store::Store;
