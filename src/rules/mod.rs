//! Pure game logic: the [`Game`] trait every game implements (and [`Knowledge`], what the search
//! knows of it beyond the rules), the shared types around it, the board geometries, one module per
//! game and the game record.
//!
//! Nothing here knows of Bevy, threads, files or clocks (`docs/design.md` §Three layers).

pub mod bits;
pub mod book;
pub mod features;
pub mod game;
pub mod geometry;
pub mod knowledge;
pub mod lesson;
pub mod record;
pub mod registry;
pub mod tri_it_out;
pub mod tricore;
pub mod trigon;
pub mod trike;
pub mod trisq;

pub use game::*;
pub use knowledge::{Knowledge, RewardStats, RunningStats, learned_logits};
pub use registry::game_ids;
