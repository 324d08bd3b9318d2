//! Random-game conformance: the shared harness (`tests/common`) run for every game, plus each game's
//! rule-specific checks at every position. Trike: `docs/rules/trike.md`.

mod common;

use std::collections::HashMap;

use common::{Position, Run, Stats, random_games};
use triboard::rules::Game;
use triboard::rules::trike::{Color, Trike, TrikeMove, TrikeOptions};

/// `(row, column)` of a Trike move's text, read with this file's own reading of the notation
/// (`docs/rules/trike.md` §Board: column letter, row number), so the checks below do not lean on the
/// crate's tables.
fn coords(text: &str) -> (i32, i32) {
    let c = text.as_bytes()[0] as i32 - b'a' as i32;
    let r: i32 = text[1..].parse().expect("a cell's text ends in its row number");
    (r - 1, c)
}

/// How many of the six neighbour steps (`docs/rules/trike.md` §Board) stay on a side-`n` board.
fn neighbours_on_board(n: i32, (r, c): (i32, i32)) -> usize {
    [(-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1)]
        .iter()
        .filter(|(dr, dc)| {
            let (r2, c2) = (r + dr, c + dc);
            0 <= c2 && c2 <= r2 && r2 < n
        })
        .count()
}

/// Trike's own rules, checked at every position of a random game.
fn trike_checks(size: u8) -> impl FnMut(Position<'_, Trike>) {
    let n = size as i32;
    move |Position { state, history, legal, .. }| {
        let ply = history.len();
        let texts: Vec<String> = history.iter().map(|&m| state.move_text(m)).collect();
        let swapped = texts.get(1).is_some_and(|t| t == "swap");
        assert_eq!(state.swapped(), swapped);

        // §Play 1 and 2: the opening is any cell; the reply is a line move or `swap`, and `swap`
        // exists at ply 1 only. From an empty board every cell sees 2N - 2 cells along its three
        // lines (r + (N-1-c) + (N-1-(r-c))), hence 2N - 1 replies.
        let has_swap = legal.contains(&TrikeMove::SWAP);
        assert_eq!(has_swap, ply == 1, "swap offered at ply {ply}: {texts:?}");
        assert_eq!(state.swap_available(), ply == 1);
        match ply {
            0 => assert_eq!(legal.len() as i32, n * (n + 1) / 2),
            1 => assert_eq!(legal.len() as i32, 2 * n - 1, "replies to {}", texts[0]),
            _ => {}
        }

        // §Play 3: checkers alternate Black, White, … in placement order whatever the swap did;
        // no cell gets two checkers; the pawn is on the last placement.
        let placements: Vec<&String> = texts.iter().filter(|t| *t != "swap").collect();
        let mut colour_at: HashMap<&str, Color> = HashMap::new();
        for (k, t) in placements.iter().enumerate() {
            let colour = if k % 2 == 0 { Color::Black } else { Color::White };
            assert!(colour_at.insert(t.as_str(), colour).is_none(), "{t} placed twice: {texts:?}");
        }
        for (t, &colour) in &colour_at {
            let cell = state.parse_move(t).unwrap().cell().unwrap();
            assert_eq!(state.checker(cell), Some(colour), "checker on {t}");
        }
        let occupied = (0..state.geometry().cells).filter(|&c| state.checker(c).is_some()).count();
        assert_eq!(occupied, placements.len(), "one checker per placement");
        let pawn_text = state.pawn().map(|c| state.move_text(TrikeMove::to(c)));
        assert_eq!(pawn_text.as_ref(), placements.last().copied());

        // The seat to move: the colour after the last placement, played by the seat that holds it.
        let colour_to_move = if placements.len().is_multiple_of(2) { Color::Black } else { Color::White };
        let seat_of_colour = |colour: Color| (colour as u8) ^ swapped as u8;
        if let Some(seat) = state.to_move() {
            assert_eq!(seat.0, seat_of_colour(colour_to_move), "seat to move after {texts:?}");
            assert_eq!(state.color_of(seat), colour_to_move);
        }

        // §End and score.
        match state.scored_cells() {
            None => assert!(state.to_move().is_some(), "scored cells exist once the game is over"),
            Some(scored) => {
                let pawn = state.pawn().expect("a finished game has a pawn");
                let (pr, pc) = coords(&state.move_text(TrikeMove::to(pawn)));
                let expected = 1 + neighbours_on_board(n, (pr, pc));
                assert_eq!(scored.count() as usize, expected, "scored cells around {pr},{pc}");
                assert!(matches!(expected, 3 | 5 | 7));
                // Trapped: every scored cell holds a checker, and each is the pawn or adjacent to it.
                for cell in scored.iter() {
                    assert!(state.checker(cell).is_some(), "a trapped pawn's scored cell is empty");
                    let (r, c) = coords(&state.move_text(TrikeMove::to(cell)));
                    let (dr, dc) = (r - pr, c - pc);
                    assert!(
                        [(0, 0), (-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1)].contains(&(dr, dc)),
                        "scored cell ({r},{c}) is not around the pawn ({pr},{pc})"
                    );
                }
                // "The scored cells always include the last two checkers."
                for t in placements.iter().rev().take(2) {
                    let cell = state.parse_move(t).unwrap().cell().unwrap();
                    assert!(scored.contains(cell), "last checker {t} outside the scored cells");
                }
                // Scores per seat from the checkers' colours and the seat ⇄ colour map.
                let outcome = state.outcome().unwrap();
                let mut by_seat = [0i32; 2];
                for cell in scored.iter() {
                    let colour = state.checker(cell).unwrap();
                    by_seat[seat_of_colour(colour) as usize] += 1;
                }
                assert_eq!(outcome.scores[..2], by_seat, "scores by seat after {texts:?}");
                assert_eq!((by_seat[0] + by_seat[1]) % 2, 1, "an odd number of scored cells");
                assert_eq!(outcome.winners().len(), 1, "exactly one winner");
                let winner = if by_seat[0] > by_seat[1] { 0 } else { 1 };
                assert_eq!(outcome.winners()[0].0, winner);
                assert_eq!(outcome.ranks[winner as usize], 1.0);
                assert_eq!(outcome.ranks[1 - winner as usize], 0.0);
            }
        }
    }
}

fn run_trike(size: u8, games: usize, seed: u64) -> Stats {
    // A game fills at most every cell, plus the swap; at least the opening, a reply and a trap.
    let cells = size as usize * (size as usize + 1) / 2;
    let stats = random_games(&Run::<Trike>::new(TrikeOptions { size }, games, seed, cells + 1), trike_checks(size));
    assert_eq!(stats.games, games);
    assert_eq!(stats.wins[0] + stats.wins[1], games, "one winner per game: {stats:?}");
    assert!(stats.max_plies <= cells + 1 && stats.max_plies >= 3, "{stats:?}");
    assert!(stats.refusals_checked > 0);
    eprintln!("trike size {size}: {stats:?}");
    stats
}

// 12,000 games in all, most on the small boards where the harness is cheap per game.

#[test]
fn trike_size_3() {
    let stats = run_trike(3, 4_000, 0x7431_0003);
    // Size 3 is small enough that both seats must win some of 4,000 random games.
    assert!(stats.wins[0] > 0 && stats.wins[1] > 0, "{stats:?}");
}

#[test]
fn trike_size_7() {
    run_trike(7, 3_000, 0x7431_0007);
}

#[test]
fn trike_size_13() {
    run_trike(13, 3_000, 0x7431_0013);
}

#[test]
fn trike_size_19() {
    run_trike(19, 2_000, 0x7431_0019);
}
