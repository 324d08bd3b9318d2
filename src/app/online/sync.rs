//! Keeping the board in step with the server's game, without Bevy: how the line on the board
//! ([`catch_up`]) and the server's moves compare, who made each move of a line ([`plies`]), and
//! which of the person's moves goes to the server next ([`next_to_send`]).

use crate::net::position::start_of;
use crate::rules::record::Record;

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

/// One move of a line: who made it, and whether the rules forced it (a Trigon pass, which the
/// server plays by itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The seat that moved.
    pub seat: u8,
    /// The rules forced it.
    pub forced: bool,
}

/// Who made each move of `record`, replayed by its game's rules; `None` for a record that does not
/// replay (the caller then reloads the server's game).
pub fn plies(record: &Record) -> Option<Vec<Ply>> {
    let mut game = start_of(record).ok()?;
    let mut plies = Vec::with_capacity(record.moves.len());
    for text in &record.moves {
        let seat = game.to_move()?.0;
        let forced = game.forced_text();
        let played = game.play_text(text).ok()?;
        plies.push(Ply { seat, forced: forced == Some(played) });
    }
    Some(plies)
}

/// The person's next move for the server: the first move of `local` past the server's `stored`
/// moves, when `seat` made it and the rules did not force it, and it is not `in_flight` already.
/// Returns its ply and text.
pub fn next_to_send(
    local: &[String],
    plies: &[Ply],
    stored: usize,
    seat: u8,
    in_flight: Option<u32>,
) -> Option<(u32, String)> {
    let ply = plies.get(stored)?;
    let text = local.get(stored)?;
    (ply.seat == seat && !ply.forced && in_flight != Some(stored as u32)).then(|| (stored as u32, text.clone()))
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

    #[test]
    fn only_the_persons_own_unforced_moves_are_sent_once() {
        let trike = Record::of_texts("trike", serde_json::json!({"size": 7}), texts(&["d7", "d4", "b4"]));
        let plies = plies(&trike).expect("replays");
        assert_eq!(plies.iter().map(|p| p.seat).collect::<Vec<_>>(), vec![0, 1, 0]);
        assert!(plies.iter().all(|p| !p.forced));
        let local = trike.moves.clone();
        assert_eq!(next_to_send(&local, &plies, 2, 0, None), Some((2, "b4".to_string())));
        assert_eq!(next_to_send(&local, &plies, 2, 0, Some(2)), None, "already on its way");
        assert_eq!(next_to_send(&local, &plies, 1, 0, None), None, "the opponent's move");
        assert_eq!(next_to_send(&local, &plies, 3, 0, None), None, "nothing past the line");
        let bad = Record::of_texts("trike", serde_json::json!({"size": 7}), texts(&["d7", "zz"]));
        assert_eq!(super::plies(&bad), None);
    }
}
