//! The search: Monte Carlo tree search generic over [`crate::rules::Knowledge`] (a
//! [`crate::rules::Game`] with its search knowledge) on one or more threads, with MCTS-Solver and
//! tree reuse, and the levels the app and the CLI offer. Nothing here knows of Bevy; the anytime
//! interface ([`Mcts::step`], [`Mcts::run`], [`SearchHandle`]) lets a caller run it on a thread or
//! in per-frame slices.

pub mod analysis;
pub mod anytime;
mod endgame;
pub mod engine;
pub mod exhaustive;
pub mod learn;
pub mod levels;
pub mod mcts;
mod reply;
pub mod settings;
pub mod time;
mod tree;

pub use analysis::{Analyzer, MoveAnalysis, analyze_game, record_analysis};
pub use anytime::{Anytime, Budgeted, RootView};
pub use engine::{BOOK_LEVEL, Engine, HINT_LEVEL, Verdict, book_move, derive_seed, hint_budget};
pub use levels::{Budget, Level, Seat};
pub use mcts::{Mcts, MoveStats, MoveValue, Proof, SearchConfig, SearchHandle, available_threads, choose_move};
