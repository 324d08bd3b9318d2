//! The service's handlers of what happens in a game: a move (and the moves the rules then force),
//! a move sent again, a resignation, a clock that ran out (`docs/design.md` §Network play).

use super::clock::Clocks;
use super::room::{Room, bad_token, record_of, storage};
use super::service::{Broadcast, Reply, Service};
use super::store::{Store, StoreError};
use crate::net::position::{Position, replay};
use crate::net::protocol::{ErrorCode, OutHow, Refusal, SeatOut, ServerMessage};

impl<S: Store> Service<S> {
    /// Plays a move for the seat of `token`, and the moves the rules then force, after storing
    /// them all in one write.
    pub(super) fn play(
        &mut self,
        game_id: &str,
        token: &str,
        text: &str,
        ply: u32,
        now_ms: u64,
    ) -> Result<Reply, Refusal> {
        let room = self.room(game_id)?;
        let seat = room.seat_of(token).ok_or_else(bad_token)?;
        let played = room.stored.moves.len();
        let ply_at = usize::try_from(ply).unwrap_or(usize::MAX);
        if ply_at < played {
            return retry(room, seat, text, ply_at);
        }
        if ply_at > played {
            return Err(Refusal::new(
                ErrorCode::PlyAhead,
                format!("the game has {played} moves, so the next is at ply {played}, not {ply}"),
            ));
        }
        if room.result().is_some() {
            return Err(room.over());
        }
        if let Some(free) = room.stored.setup.seats.iter().position(Option::is_none) {
            return Err(Refusal::new(ErrorCode::NotStarted, format!("seat {free} is still free: wait for it to join")));
        }
        let to_move = room.position.to_move().ok_or_else(|| Refusal::new(ErrorCode::GameOver, "the game is over"))?;
        if to_move.0 != seat {
            let name = room.position.player_name(to_move);
            return Err(Refusal::new(ErrorCode::NotYourTurn, format!("it is {name}'s turn (seat {})", to_move.0)));
        }
        if text.trim().eq_ignore_ascii_case(RETIRE) {
            return Err(Refusal::new(ErrorCode::IllegalMove, "a seat retires by resigning, not by a move"));
        }
        let mut next = room.position.boxed();
        let first =
            next.play_text(text).map_err(|e| Refusal::new(ErrorCode::IllegalMove, format!("{text}: {}", e.reason)))?;
        self.store_moves(game_id, ply, next, vec![(seat, first)], now_ms)
    }

    /// Plays after `moves` (already played on `next`) the moves the rules force and the
    /// retirements of the seats out, stores them all in one write at ply `ply` and answers them.
    fn store_moves(
        &mut self,
        game_id: &str,
        ply: u32,
        mut next: Box<dyn Position>,
        mut moves: Vec<(u8, String)>,
        now_ms: u64,
    ) -> Result<Reply, Refusal> {
        let room = self.room(game_id)?;
        // Trigon's passes: the server plays what the rules force, as the app and the referees do;
        // a seat out of a game of three or four retires at its turn.
        while next.outcome().is_none() && moves.len() < 4096 {
            let Some(mover) = next.to_move() else { break };
            let forced = if room.is_out(mover.0) { next.play_text(RETIRE).ok() } else { next.play_forced() };
            let Some(forced) = forced else { break };
            moves.push((mover.0, forced));
        }
        let texts: Vec<String> = moves.iter().map(|(_, t)| t.clone()).collect();
        if let Err(e) = self.store.append_moves(game_id, ply, &texts, now_ms) {
            // The store is the truth: replay the game from it next time.
            self.rooms.remove(game_id);
            return Err(match e {
                StoreError::Conflict(why) => {
                    Refusal::new(ErrorCode::StalePly, format!("the game changed meanwhile ({why}): sync and try again"))
                }
                e => storage(&e),
            });
        }
        let room = self.room(game_id)?;
        room.stored.moves.extend(texts);
        room.stored.move_ms.extend(std::iter::repeat_n(now_ms, moves.len()));
        room.position = next;
        let mut messages = Vec::with_capacity(moves.len());
        for (k, (seat, text)) in moves.into_iter().enumerate() {
            room.movers.push(seat);
            let clock_ms = room.clocks.as_mut().map(|clocks| {
                clocks.play(seat, now_ms);
                clocks.left_at(None, now_ms)
            });
            messages.push(ServerMessage::Moved {
                game_id: game_id.to_string(),
                ply: ply + k as u32,
                text,
                seat,
                clock_ms,
                deadline_ms: None,
            });
        }
        // The next mover's deadline of a correspondence game, with the last move.
        let deadline = room.deadline().filter(|_| room.clocks.is_none());
        if let Some(ServerMessage::Moved { deadline_ms, .. }) = messages.last_mut() {
            *deadline_ms = deadline;
        }
        self.track(game_id);
        Ok(Reply {
            messages: messages.clone(),
            broadcast: Some(Broadcast { game_id: game_id.to_string(), messages }),
            ..Reply::default()
        })
    }

    /// Ends the game by the resignation of the seat of `token`; in a game of three or four that
    /// every seat moved in, takes that seat out instead ([`Service::take_out`]).
    pub(super) fn resign(&mut self, game_id: &str, token: &str, now_ms: u64) -> Result<Reply, Refusal> {
        let room = self.room(game_id)?;
        let seat = room.seat_of(token).ok_or_else(bad_token)?;
        if room.result().is_some() {
            return Err(room.over());
        }
        if room.is_out(seat) {
            return Err(Refusal::new(ErrorCode::GameOver, "you left this game already: the others play on"));
        }
        if room.plays_on() {
            return self.take_out(game_id, seat, OutHow::Resigned, now_ms);
        }
        if let Err(e) = self.store.resign(game_id, seat) {
            self.rooms.remove(game_id);
            return Err(match e {
                StoreError::Conflict(why) => Refusal::new(ErrorCode::GameOver, format!("the game is over: {why}")),
                e => storage(&e),
            });
        }
        let room = self.room(game_id)?;
        room.stored.resigned = Some(seat);
        let state = ServerMessage::State(room.snapshot(0, now_ms));
        self.track(game_id);
        Ok(Reply {
            messages: vec![state.clone()],
            broadcast: Some(Broadcast { game_id: game_id.to_string(), messages: vec![state] }),
            ..Reply::default()
        })
    }

    /// Flags game `game_id` if the clock of its seat to move ran out by `now_ms`: stores the flag
    /// and returns the final state for everybody following the game.
    pub(super) fn flag_if_due(&mut self, game_id: &str, now_ms: u64) -> Option<Broadcast> {
        let room = self.room(game_id).ok()?;
        let Some(deadline) = room.deadline() else {
            self.deadlines.remove(game_id);
            return None;
        };
        if deadline > now_ms {
            return None;
        }
        if self.store.shared() {
            // Another server may have had the move meanwhile: the store says.
            self.rooms.remove(game_id);
            let room = self.room(game_id).ok()?;
            if room.deadline().is_none_or(|deadline| deadline > now_ms) {
                self.track(game_id);
                return None;
            }
        }
        let room = self.room(game_id).ok()?;
        let seat = room.seat_to_move()?;
        let ply = u32::try_from(room.stored.moves.len()).unwrap_or(u32::MAX);
        if room.plays_on() {
            // One seat of three or four out; the others play on.
            if let Some(clocks) = &mut room.clocks {
                clocks.flag(seat, deadline);
            }
            let reply = self.take_out(game_id, seat, OutHow::Flagged, now_ms).ok()?;
            self.track(game_id);
            return reply.broadcast;
        }
        if let Err(e) = self.store.flag_at(game_id, seat, ply) {
            self.rooms.remove(game_id);
            if !matches!(e, StoreError::Conflict(_)) {
                return None; // Tried again at the next sweep.
            }
            // Over already in the store (another process): replay it from there.
            self.deadlines.remove(game_id);
            let room = self.room(game_id).ok()?;
            return Some(Broadcast {
                game_id: game_id.to_string(),
                messages: vec![ServerMessage::State(room.snapshot(0, now_ms))],
            });
        }
        let room = self.rooms.get_mut(game_id)?;
        room.stored.flagged = Some(seat);
        if let Some(clocks) = &mut room.clocks {
            clocks.flag(seat, deadline);
        }
        let state = ServerMessage::State(room.snapshot(0, now_ms));
        self.deadlines.remove(game_id);
        Some(Broadcast { game_id: game_id.to_string(), messages: vec![state] })
    }
}

impl<S: Store> Service<S> {
    /// Takes `seat` out of a game of three or four that goes on (`docs/design.md` §Network play):
    /// stores it as out, and if it is its turn plays its retirement (and what the rules then
    /// force) at once, else at its next turn. Answers the moves played and the game's state, for
    /// everybody following it.
    fn take_out(&mut self, game_id: &str, seat: u8, how: OutHow, now_ms: u64) -> Result<Reply, Refusal> {
        let room = self.room(game_id)?;
        let ply = u32::try_from(room.stored.moves.len()).unwrap_or(u32::MAX);
        let out = SeatOut { seat, ply, how };
        if let Err(e) = self.store.add_out(game_id, &out) {
            self.rooms.remove(game_id);
            return Err(match e {
                StoreError::Conflict(why) => Refusal::new(ErrorCode::GameOver, format!("not taken out: {why}")),
                e => storage(&e),
            });
        }
        let room = self.room(game_id)?;
        room.stored.outs.push(out);
        let mut messages = Vec::new();
        if room.seat_to_move() == Some(seat) {
            let mut next = room.position.boxed();
            let retired =
                next.play_text(RETIRE).map_err(|e| Refusal::new(ErrorCode::IllegalMove, e.reason.to_string()))?;
            messages = self.store_moves(game_id, ply, next, vec![(seat, retired)], now_ms)?.messages;
        }
        let room = self.room(game_id)?;
        messages.push(ServerMessage::State(room.snapshot(0, now_ms)));
        self.track(game_id);
        self.lobby_changed = true;
        Ok(Reply {
            messages: messages.clone(),
            broadcast: Some(Broadcast { game_id: game_id.to_string(), messages }),
            ..Reply::default()
        })
    }
}

/// The move by which a seat out of a game of three or four gives up its turns
/// (`docs/rules/trigon.md` §Play); a player cannot send it, only resign.
pub const RETIRE: &str = "retire";

/// The answer to a move sent again for a ply already played: the same [`ServerMessage::Moved`]s
/// as the first time if it is the move stored there, by the same seat, else a stale-ply error.
fn retry(room: &Room, seat: u8, text: &str, ply: usize) -> Result<Reply, Refusal> {
    let stored = &room.stored.moves;
    let stale = || {
        Refusal::new(
            ErrorCode::StalePly,
            format!("ply {ply} was played already ({}); the game has {} moves: sync", stored[ply], stored.len()),
        )
    };
    let mut position = replay(&record_of(&room.stored.setup, &stored[..ply]))
        .map_err(|e| Refusal::new(ErrorCode::Storage, format!("the stored game does not replay: {e}")))?;
    if position.to_move().map(|p| p.0) != Some(seat) {
        return Err(stale());
    }
    match position.play_text(text) {
        Ok(played) if played == stored[ply] => {}
        _ => return Err(stale()),
    }
    let game_id = &room.stored.setup.id;
    // The clocks as each first answer had them: replayed to just after its move.
    let clock_after = |k: usize| {
        let (clock, started_ms) = (room.stored.setup.clock?, room.stored.started_ms?);
        let n = room.position.num_players();
        let end = (k + 1).min(room.movers.len());
        let clocks = Clocks::replay(clock, n, started_ms, &room.movers[..end], &room.stored.move_ms[..end]);
        Some(clocks.left_at(None, 0))
    };
    let mut messages = vec![ServerMessage::Moved {
        game_id: game_id.clone(),
        ply: ply as u32,
        text: stored[ply].clone(),
        seat,
        clock_ms: clock_after(ply),
        deadline_ms: None,
    }];
    // The forced moves the server played after it, as the first answer had them.
    for (k, text) in stored.iter().enumerate().skip(ply + 1) {
        let Some(mover) = position.to_move() else { break };
        let mut next = position.boxed();
        match next.play_forced() {
            Some(forced) if forced == *text => {
                messages.push(ServerMessage::Moved {
                    game_id: game_id.clone(),
                    ply: k as u32,
                    text: forced,
                    seat: mover.0,
                    clock_ms: clock_after(k),
                    deadline_ms: None,
                });
                position = next;
            }
            _ => break,
        }
    }
    Ok(Reply { messages, ..Reply::default() })
}
