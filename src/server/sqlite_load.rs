//! The SQLite store's reads of a game's seats and moves ([`super::sqlite::SqliteStore`]'s
//! `load_game`): each seat's token and account, each move and when it was stored.

use rusqlite::Connection;

use super::store::StoreError;

/// The seats' tokens and accounts.
pub(super) type SeatRows = (Vec<Option<String>>, Vec<Option<i64>>);

/// Each of the `seats` seats' token of game `game_id`, `None` for a free seat, and its account.
pub(super) fn seat_tokens(conn: &Connection, game_id: &str, seats: u8) -> Result<SeatRows, StoreError> {
    let mut tokens = vec![None; usize::from(seats)];
    let mut accounts = vec![None; usize::from(seats)];
    let mut query = conn.prepare("SELECT seat, token, account FROM seats WHERE game_id = ?1")?;
    let rows = query
        .query_map([game_id], |r| Ok((r.get::<_, u8>(0)?, r.get::<_, String>(1)?, r.get::<_, Option<i64>>(2)?)))?;
    for row in rows {
        let (seat, token, account) = row?;
        let slot = tokens
            .get_mut(usize::from(seat))
            .ok_or_else(|| StoreError::Failed(format!("game {game_id} has a token for seat {seat}")))?;
        *slot = Some(token);
        accounts[usize::from(seat)] = account;
    }
    Ok((tokens, accounts))
}

/// The moves of game `game_id` in order, and when each was stored (ms since the epoch).
pub(super) fn moves_of(conn: &Connection, game_id: &str) -> Result<(Vec<String>, Vec<u64>), StoreError> {
    let mut moves = Vec::new();
    let mut move_ms = Vec::new();
    let mut query = conn.prepare("SELECT ply, text, at_ms FROM moves WHERE game_id = ?1 ORDER BY ply")?;
    let rows =
        query.query_map([game_id], |r| Ok((r.get::<_, u32>(0)?, r.get::<_, String>(1)?, r.get::<_, i64>(2)?)))?;
    for row in rows {
        let (ply, text, at_ms) = row?;
        if usize::try_from(ply).ok() != Some(moves.len()) {
            return Err(StoreError::Failed(format!("game {game_id} lacks the move at ply {}", moves.len())));
        }
        moves.push(text);
        move_ms.push(u64::try_from(at_ms).unwrap_or(0));
    }
    Ok((moves, move_ms))
}
