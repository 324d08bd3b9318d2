//! Why a store refused or failed a request ([`StoreError`]), for the games' part of the store and
//! its accounts' part alike.

use std::fmt;

/// Why a store refused or failed a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// No game with that id.
    NotFound,
    /// The write does not fit what is stored (a move at another ply than the next, a seat taken,
    /// an id or code in use, a finished game); nothing was written.
    Conflict(String),
    /// The database failed (disk full, file unreadable, a newer schema); nothing was written.
    Failed(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::NotFound => f.write_str("no such game"),
            StoreError::Conflict(why) => write!(f, "refused: {why}"),
            StoreError::Failed(why) => write!(f, "the database failed: {why}"),
        }
    }
}

impl std::error::Error for StoreError {}
