//! The SQLite store's columns of schema version 5 ([`super::schema`]): a game's seats out
//! (`games.outs`, JSON) and its days per move (`games.days_per_move`).

use rusqlite::{Connection, OptionalExtension, params};

use super::store::{GameSetup, StoreError};
use crate::net::protocol::SeatOut;

/// The seats out of game `game_id` and its days per move.
///
/// # Errors
/// [`StoreError::Failed`]: the database's errors, or an `outs` that does not read.
pub(super) fn extras(conn: &Connection, game_id: &str) -> Result<(Vec<SeatOut>, Option<u32>), StoreError> {
    let (outs, days): (String, Option<u32>) =
        conn.query_row("SELECT outs, days_per_move FROM games WHERE id = ?1", [game_id], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
    Ok((read_outs(game_id, &outs)?, days))
}

/// An `outs` column read.
///
/// # Errors
/// [`StoreError::Failed`] if it is not a list of seats out.
pub(super) fn read_outs(game_id: &str, text: &str) -> Result<Vec<SeatOut>, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Failed(format!("game {game_id} has unreadable outs: {e}")))
}

/// Stores a new game's days per move (after its row is inserted).
pub(super) fn set_days(tx: &Connection, setup: &GameSetup) -> Result<(), StoreError> {
    if let Some(days) = setup.days_per_move {
        tx.execute("UPDATE games SET days_per_move = ?1 WHERE id = ?2", params![days, setup.id])?;
    }
    Ok(())
}

/// Adds `out` to game `game_id`'s seats out ([`Store::add_out`](super::store::Store::add_out)).
pub(super) fn add_out(tx: &Connection, game_id: &str, out: &SeatOut) -> Result<(), StoreError> {
    let row: Option<(Option<u8>, Option<u8>, String)> = tx
        .query_row("SELECT resigned, flagged, outs FROM games WHERE id = ?1", [game_id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .optional()?;
    let (resigned, flagged, outs) = row.ok_or(StoreError::NotFound)?;
    if resigned.is_some() || flagged.is_some() {
        return Err(StoreError::Conflict("the game is over".into()));
    }
    let mut outs = read_outs(game_id, &outs)?;
    if outs.iter().any(|o| o.seat == out.seat) {
        return Err(StoreError::Conflict(format!("seat {} is out already", out.seat)));
    }
    outs.push(out.clone());
    let text = serde_json::to_string(&outs).map_err(|e| StoreError::Failed(e.to_string()))?;
    tx.execute("UPDATE games SET outs = ?1 WHERE id = ?2", params![text, game_id])?;
    Ok(())
}
