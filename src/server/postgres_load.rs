//! A game of the PostgreSQL store read whole ([`load_game`]): its row, its seats and its moves in
//! one statement, so as of one moment, as [`StoredGame`].

use serde_json::Value;

use super::postgres_conn::{Conn, get, ms_of, seat_of};
use super::sqlite_outs::read_outs;
use super::store::{GameSetup, StoreError, StoredGame};
use crate::net::protocol::Clock;

/// The game with this id, or `None`.
///
/// # Errors
/// [`StoreError::Failed`]: the database's errors, or a stored game that does not read back (its
/// options, a seat or a ply missing).
pub(super) fn load_game(conn: &mut Conn, game_id: &str) -> Result<Option<StoredGame>, StoreError> {
    // One statement: the game, its seats and its moves as of one moment.
    let row = conn.query_opt(
        "SELECT g.game, g.options, g.seats, g.clock_minutes, g.clock_increment_s, g.allow_tools, g.code,
                g.resigned, g.rematch, g.rematch_of, g.started_ms, g.flagged, g.rated, g.lobby, g.created_ms,
                g.ended_ms,
                ARRAY(SELECT s.seat FROM seats s WHERE s.game_id = g.id ORDER BY s.seat),
                ARRAY(SELECT s.token FROM seats s WHERE s.game_id = g.id ORDER BY s.seat),
                ARRAY(SELECT s.account FROM seats s WHERE s.game_id = g.id ORDER BY s.seat),
                ARRAY(SELECT m.ply FROM moves m WHERE m.game_id = g.id ORDER BY m.ply),
                ARRAY(SELECT m.text FROM moves m WHERE m.game_id = g.id ORDER BY m.ply),
                ARRAY(SELECT m.at_ms FROM moves m WHERE m.game_id = g.id ORDER BY m.ply),
                g.outs, g.days_per_move
         FROM games g WHERE g.id = $1",
        &[&game_id],
    )?;
    let Some(r) = row else {
        return Ok(None);
    };
    let options: String = get(&r, 1)?;
    let options: Value = serde_json::from_str(&options)
        .map_err(|e| StoreError::Failed(format!("game {game_id} has unreadable options: {e}")))?;
    let seat_count = usize::from(seat_of(get(&r, 2)?)?);
    let clock = match (get::<Option<i32>>(&r, 3)?, get::<Option<i32>>(&r, 4)?) {
        (Some(minutes), Some(increment_s)) => {
            let unsigned = |n: i32| u32::try_from(n).map_err(|_| StoreError::Failed(format!("a clock of {n}")));
            Some(Clock { minutes: unsigned(minutes)?, increment_s: unsigned(increment_s)? })
        }
        _ => None,
    };
    let (mut seats, mut players) = (vec![None; seat_count], vec![None; seat_count]);
    let tokens: Vec<String> = get(&r, 17)?;
    let accounts: Vec<Option<i64>> = get(&r, 18)?;
    for ((seat, token), account) in get::<Vec<i32>>(&r, 16)?.into_iter().zip(tokens).zip(accounts) {
        let seat = usize::from(seat_of(seat)?);
        let slot = seats
            .get_mut(seat)
            .ok_or_else(|| StoreError::Failed(format!("game {game_id} has a token for seat {seat}")))?;
        *slot = Some(token);
        players[seat] = account;
    }
    let plies: Vec<i64> = get(&r, 19)?;
    if let Some(gap) = plies.iter().zip(0..).find(|(ply, k)| **ply != *k) {
        return Err(StoreError::Failed(format!("game {game_id} lacks the move at ply {}", gap.1)));
    }
    let setup = GameSetup {
        id: game_id.to_string(),
        game: get(&r, 0)?,
        options,
        clock,
        days_per_move: get::<Option<i32>>(&r, 23)?.and_then(|d| u32::try_from(d).ok()),
        allow_tools: get(&r, 5)?,
        code: get(&r, 6)?,
        seats,
        rematch_of: get(&r, 9)?,
        players,
        rated: get(&r, 12)?,
        lobby: get(&r, 13)?,
        request: None,
    };
    let seat = |at: usize| -> Result<Option<u8>, StoreError> { get::<Option<i32>>(&r, at)?.map(seat_of).transpose() };
    Ok(Some(StoredGame {
        setup,
        moves: get(&r, 20)?,
        resigned: seat(7)?,
        rematch: get(&r, 8)?,
        move_ms: get::<Vec<i64>>(&r, 21)?.into_iter().map(ms_of).collect(),
        started_ms: get::<Option<i64>>(&r, 10)?.map(ms_of),
        flagged: seat(11)?,
        created_ms: ms_of(get(&r, 14)?),
        ended_ms: get::<Option<i64>>(&r, 15)?.map(ms_of),
        outs: read_outs(game_id, &get::<String>(&r, 22)?)?,
    }))
}
