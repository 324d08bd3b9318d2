//! The game server's core, a top layer beside `cli` (`docs/design.md` §Network play): it speaks
//! the wire protocol of [`crate::net::protocol`] (the app's client speaks it too), keeps its games
//! in a [`store`] (a small trait; [`sqlite`] is SQLite, its tables in [`schema`], its checkpoints
//! in [`checkpoint`]; [`postgres`] is PostgreSQL, which several servers share, its tables in
//! [`postgres_schema`], the others' notifications heard by [`postgres_listen`]; [`migrate`] moves
//! an SQLite server's games into it, and [`throwaway_pg`] runs one for the tests) and answers
//! with the server-authoritative [`service`], which checks every move with the rules and stores it
//! before acknowledging it. The service keeps replayed games in a cache (`rooms`) of `room`s; its
//! handlers are in `seating` and `moves`; [`ids`] draws the tokens, join codes and game ids.
//!
//! The [`transport`] (`triboard serve`) hands the service the messages of WebSocket connections
//! (`connection`) on one thread (`batch`), commits their writes together and carries each
//! [`service::Reply`] back and to the game's followers (`hub`); the service keeps live games'
//! [`clock`]s.

#![warn(missing_docs)]

pub mod account_store;
mod accounts;
mod announce;
mod batch;
pub mod bot_move;
mod bot_runner;
pub mod checkpoint;
pub mod clock;
pub mod cluster;
mod connection;
mod hub;
pub mod ids;
pub mod invite_page;
pub mod limits;
mod lobby;
pub mod migrate;
mod moves;
mod pairing;
mod password_pool;
pub mod passwords;
pub mod postgres;
mod postgres_accounts;
mod postgres_conn;
mod postgres_games;
mod postgres_limits;
pub mod postgres_listen;
mod postgres_load;
pub mod postgres_schema;
pub mod ratings;
mod remote;
pub mod requests;
mod room;
mod rooms;
pub mod schema;
pub mod seating;
pub mod service;
mod shared;
pub mod sqlite;
mod sqlite_accounts;
mod sqlite_load;
mod sqlite_outs;
pub mod store;
mod store_error;
pub mod throwaway_pg;
pub mod transport;

pub use postgres::PgStore;
pub use service::{Reply, Service};
pub use sqlite::SqliteStore;
pub use store::Store;
