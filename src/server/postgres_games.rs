//! The PostgreSQL store's writes to a game that more than one of its methods make
//! ([`super::postgres`]): a game's row locked and its end read, a game and its seats inserted,
//! moves appended after their checks.

use super::postgres_conn::{Conn, get, ms_sql, storable};
use super::sqlite_outs::read_outs;
use super::store::{GameSetup, NewSeat, StoreError};
use crate::net::protocol::SeatOut;

/// Locks game `game_id`'s row until the transaction ends and returns why it is over outside its
/// rules, if it is: a seat resigned or flagged.
///
/// # Errors
/// [`StoreError::NotFound`] when there is no such game; the database's errors.
pub(super) fn lock_ended(conn: &mut Conn, game_id: &str) -> Result<Option<String>, StoreError> {
    let row = conn.query_opt("SELECT resigned, flagged FROM games WHERE id = $1 FOR UPDATE", &[&game_id])?;
    let row = row.ok_or(StoreError::NotFound)?;
    Ok(match (get::<Option<i32>>(&row, 0)?, get::<Option<i32>>(&row, 1)?) {
        (Some(seat), _) => Some(format!("seat {seat} resigned")),
        (None, Some(seat)) => Some(format!("seat {seat}'s clock ran out")),
        (None, None) => None,
    })
}

/// Inserts a game and its taken seats, refusing a used id or code; started at `at_ms` if every
/// seat is taken and it is no rematch.
pub(super) fn insert_game(conn: &mut Conn, setup: &GameSetup, at_ms: u64) -> Result<(), StoreError> {
    if get(&conn.query_one("SELECT EXISTS (SELECT 1 FROM games WHERE id = $1)", &[&setup.id])?, 0)? {
        return Err(StoreError::Conflict(format!("the game id {} is in use", setup.id)));
    }
    if get(&conn.query_one("SELECT EXISTS (SELECT 1 FROM games WHERE code = $1)", &[&setup.code])?, 0)? {
        return Err(StoreError::Conflict(format!("the join code {} is in use", setup.code)));
    }
    let seats = u8::try_from(setup.seats.len())
        .map_err(|_| StoreError::Conflict(format!("{} seats are too many", setup.seats.len())))?;
    let options = serde_json::to_string(&setup.options).map_err(|e| StoreError::Failed(e.to_string()))?;
    let clock_int = |n: u32| i32::try_from(n).map_err(|_| StoreError::Conflict(format!("{n} is too long a clock")));
    let minutes = setup.clock.map(|c| clock_int(c.minutes)).transpose()?;
    let increment = setup.clock.map(|c| clock_int(c.increment_s)).transpose()?;
    let started = setup.starts_at_creation().then(|| ms_sql(at_ms));
    conn.execute(
        "INSERT INTO games (id, game, options, seats, clock_minutes, clock_increment_s, allow_tools, code, rematch_of,
                            started_ms, rated, lobby, created_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        &[
            &setup.id,
            &setup.game,
            &options,
            &i32::from(seats),
            &minutes,
            &increment,
            &setup.allow_tools,
            &setup.code,
            &setup.rematch_of,
            &started,
            &setup.rated,
            &setup.lobby,
            &ms_sql(at_ms),
        ],
    )?;
    for (seat, token) in (0..seats).zip(&setup.seats) {
        if let Some(token) = token {
            let account = setup.players.get(usize::from(seat)).copied().flatten();
            let request = setup.request.as_ref().filter(|(s, _)| *s == seat).map(|(_, key)| key);
            insert_seat(conn, &setup.id, NewSeat { seat, token, account, request })?;
        }
    }
    if let Some(days) = setup.days_per_move.and_then(|d| i32::try_from(d).ok()) {
        conn.execute("UPDATE games SET days_per_move = $1 WHERE id = $2", &[&days, &setup.id])?;
    }
    Ok(())
}

/// Adds `out` to game `game_id`'s seats out ([`Store::add_out`](super::store::Store::add_out)).
pub(super) fn add_out(conn: &mut Conn, game_id: &str, out: &SeatOut) -> Result<(), StoreError> {
    if let Some(why) = lock_ended(conn, game_id)? {
        return Err(StoreError::Conflict(format!("the game is over: {why}")));
    }
    let outs: String = get(&conn.query_one("SELECT outs FROM games WHERE id = $1", &[&game_id])?, 0)?;
    let mut outs = read_outs(game_id, &outs)?;
    if outs.iter().any(|o| o.seat == out.seat) {
        return Err(StoreError::Conflict(format!("seat {} is out already", out.seat)));
    }
    outs.push(out.clone());
    let text = serde_json::to_string(&outs).map_err(|e| StoreError::Failed(e.to_string()))?;
    conn.execute("UPDATE games SET outs = $1 WHERE id = $2", &[&text, &game_id])?;
    Ok(())
}

/// Inserts one seat's row.
pub(super) fn insert_seat(conn: &mut Conn, game_id: &str, seat: NewSeat<'_>) -> Result<(), StoreError> {
    if seat.request.is_some_and(|r| !storable(&r.id) || !storable(&r.of)) {
        return Err(StoreError::Conflict("a request id with a NUL character".into()));
    }
    let (id, of) = (seat.request.map(|r| &r.id), seat.request.map(|r| &r.of));
    conn.execute(
        "INSERT INTO seats (game_id, seat, token, account, request_id, request_of) VALUES ($1, $2, $3, $4, $5, $6)",
        &[&game_id, &i32::from(seat.seat), &seat.token, &seat.account, &id, &of],
    )?;
    Ok(())
}

/// Appends `texts` from ply `ply` after checking the game runs and has `ply` moves (its row locked).
pub(super) fn append_checked(
    conn: &mut Conn,
    game_id: &str,
    ply: u32,
    texts: &[String],
    at_ms: u64,
) -> Result<(), StoreError> {
    if let Some(why) = lock_ended(conn, game_id)? {
        return Err(StoreError::Conflict(format!("the game is over: {why}")));
    }
    let stored: i64 = get(&conn.query_one("SELECT COUNT(*) FROM moves WHERE game_id = $1", &[&game_id])?, 0)?;
    if stored != i64::from(ply) {
        return Err(StoreError::Conflict(format!("the game has {stored} moves, so the next ply is not {ply}")));
    }
    for (k, text) in (i64::from(ply)..).zip(texts) {
        if k > i64::from(u32::MAX) {
            return Err(StoreError::Conflict("too many moves".into()));
        }
        conn.execute(
            "INSERT INTO moves (game_id, ply, text, at_ms) VALUES ($1, $2, $3, $4)",
            &[&game_id, &k, text, &ms_sql(at_ms)],
        )?;
    }
    Ok(())
}
