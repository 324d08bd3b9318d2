//! Keeping the board in step with the server's game, without Bevy: how the line on the board
//! ([`catch_up`]) and the server's moves compare, and which of the person's moves goes to the
//! server next ([`next_to_send`]).

use std::collections::VecDeque;

use crate::app::flow::PlayedPly;

/// How the board's line stands against the server's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Catch {
    /// The same moves.
    InStep,
    /// The server has one move more: play it.
    Play(String),
    /// The board has moves the server does not have yet: the person's, on their way (or forced
    /// moves the server sends next).
    Ahead,
    /// Anything else (several moves missed, a refused move): put the server's game on the board.
    Reload,
}

/// Compares the board's line `local` with the server's moves `server`.
pub fn catch_up(local: &[String], server: &[String]) -> Catch {
    let common = local.iter().zip(server).take_while(|(a, b)| a == b).count();
    match (local.len() - common, server.len() - common) {
        (0, 0) => Catch::InStep,
        (0, 1) => Catch::Play(server[common].clone()),
        (_, 0) => Catch::Ahead,
        _ => Catch::Reload,
    }
}

/// The person's next move for the server from `outbox` (the person's moves made on this game's
/// board, in order), when the server has stored `stored` moves and the move of ply `in_flight`
/// is on its way. A move the server's moves passed is dropped (the server has it); a move stays
/// in the outbox until then, so it is sent again after a reconnection. Returns the move to send:
/// the first, when it is the server's next ply and not on its way already.
pub fn next_to_send(outbox: &mut VecDeque<PlayedPly>, stored: usize, in_flight: Option<u32>) -> Option<PlayedPly> {
    while outbox.front().is_some_and(|p| (p.ply as usize) < stored) {
        outbox.pop_front();
    }
    let next = outbox.front()?;
    (next.ply as usize == stored && in_flight != Some(next.ply)).then(|| next.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(t: &[&str]) -> Vec<String> {
        t.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_line_and_the_servers_moves_compare() {
        assert_eq!(catch_up(&texts(&["a", "b"]), &texts(&["a", "b"])), Catch::InStep);
        assert_eq!(catch_up(&texts(&["a"]), &texts(&["a", "b"])), Catch::Play("b".into()));
        assert_eq!(catch_up(&texts(&["a", "b", "c"]), &texts(&["a"])), Catch::Ahead);
        assert_eq!(catch_up(&[], &texts(&["a", "b"])), Catch::Reload);
        assert_eq!(catch_up(&texts(&["a", "x"]), &texts(&["a", "b"])), Catch::Reload);
        assert_eq!(catch_up(&texts(&["a", "x"]), &texts(&["a", "b", "c"])), Catch::Reload);
    }

    fn ply(ply: u32, text: &str) -> PlayedPly {
        PlayedPly { online: Some("g".into()), ply, seat: 0, from_ai: false, text: text.into() }
    }

    #[test]
    fn a_move_goes_at_its_ply_once_and_stays_until_the_server_has_it() {
        let mut outbox: VecDeque<PlayedPly> = [ply(2, "b4"), ply(4, "c5")].into();
        assert_eq!(next_to_send(&mut outbox, 1, None), None, "the server is a ply behind (a forced move)");
        assert_eq!(next_to_send(&mut outbox, 2, None), Some(ply(2, "b4")));
        assert_eq!(next_to_send(&mut outbox, 2, Some(2)), None, "already on its way");
        assert_eq!(outbox.len(), 2, "kept until stored, to be sent again after a reconnection");
        assert_eq!(next_to_send(&mut outbox, 3, Some(2)), None, "stored: dropped; the next is not due");
        assert_eq!(outbox.len(), 1);
        assert_eq!(next_to_send(&mut outbox, 4, None), Some(ply(4, "c5")));
        assert_eq!(next_to_send(&mut outbox, 9, None), None);
        assert!(outbox.is_empty());
    }
}
