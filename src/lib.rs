//! triboard: five abstract strategy games on triangle-flavoured boards — rules, search, a headless
//! CLI, (with the `server` feature) the game server's core and (with the `app` feature) a Bevy
//! window. See `docs/design.md` for the layers.

pub mod ai;
#[cfg(feature = "app")]
pub mod app;
pub mod cli;
#[cfg(all(not(target_arch = "wasm32"), any(feature = "app", feature = "server")))]
pub mod data_dir;
pub mod net;
pub mod rules;
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
pub mod server;
