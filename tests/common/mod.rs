//! The random-game harness every game's conformance tests share, in the spirit of OpenSpiel's
//! `RandomSimTest`: play many seeded random games and check, at every position, that the
//! [`Game`] surface is consistent with itself (`docs/design.md` §Three layers).
//!
//! It knows nothing of any one game. The game's own test adds its rules-specific checks through
//! `extra_check`, called at every position (including the final one).

#![allow(dead_code)] // each test binary uses a different part of this module

use std::collections::HashSet;

use triboard::rules::record::Record;
use triboard::rules::{Game, Player, Rng, rng_from_seed};

/// What `extra_check` sees at each position of a random game.
pub struct Position<'a, G: Game> {
    /// The position.
    pub state: &'a G,
    /// The moves played from the start to reach it.
    pub history: &'a [G::Move],
    /// Its legal moves (empty exactly when the game is over).
    pub legal: &'a [G::Move],
    /// The generator driving the game, for checks that want randomness of their own.
    pub rng: &'a mut Rng,
}

/// Totals over a run, for the test to assert on (so a harness that silently played nothing fails).
#[derive(Debug, Default, Clone)]
pub struct Stats {
    pub games: usize,
    pub positions: usize,
    pub refusals_checked: usize,
    pub max_plies: usize,
    /// Games won by each seat (ties counted for every best seat).
    pub wins: [usize; 4],
}

/// Plays `games` random games of `G` with `options` from `seed` and checks at every position:
///
/// - `to_move()` is `None` exactly when `legal_moves` is empty, and exactly when `outcome()` is `Some`;
/// - the legal moves are distinct, have distinct keys below `move_key_space()`, and read back from
///   their own text (`parse_move(move_text(m)) == m`);
/// - every legal move is accepted by `play` on a clone, and `play` and `play_unchecked` agree;
/// - every move known to the game (every move generated anywhere in this run) that is not legal here
///   is refused by `play` with a non-empty reason and leaves the state unchanged;
/// - `random_move` returns a legal move, and `None` exactly when the game is over;
/// - a clone equals the original, `ply()` counts every move;
/// - at the end: the outcome has one score and rank per seat, ranks in `[0, 1]`, and the record of
///   the game (`Record::new` → `to_json` → `from_json` → `replay`) gives back the same start, moves
///   and final position.
///
/// The games themselves are driven by `random_move`, so its distribution is the one exercised.
pub fn random_games<G: Game + PartialEq>(
    options: &G::Options,
    games: usize,
    seed: u64,
    mut extra_check: impl FnMut(Position<'_, G>),
) -> Stats {
    let mut rng = rng_from_seed(seed);
    let start = G::new(options).expect("the options of a random-game run are valid");
    // Every move ever generated: the universe the refusal check tries at each position.
    let mut known: HashSet<G::Move> = HashSet::new();
    let mut stats = Stats::default();
    let mut legal = Vec::new();
    let mut scratch = Vec::new();

    for game_no in 0..games {
        let mut state = start.clone();
        let mut history: Vec<G::Move> = Vec::new();
        loop {
            state.legal_moves(&mut legal);
            stats.positions += 1;
            let ctx = || format!("game {game_no} (seed {seed}) after {} plies", history.len());

            assert_eq!(state.ply(), history.len(), "{}: ply() counts every move", ctx());
            assert_eq!(state.clone(), state, "{}: a clone equals the original", ctx());
            assert_eq!(state.to_move().is_none(), legal.is_empty(), "{}: to_move None ⇔ no legal moves", ctx());
            assert_eq!(state.outcome().is_some(), legal.is_empty(), "{}: outcome Some ⇔ game over", ctx());
            if let Some(p) = state.to_move() {
                assert!(p.index() < state.num_players(), "{}: to_move {p:?} is a seat", ctx());
            }

            let set: HashSet<G::Move> = legal.iter().copied().collect();
            assert_eq!(set.len(), legal.len(), "{}: legal moves are distinct: {legal:?}", ctx());
            let keys: HashSet<usize> = legal.iter().map(|&m| state.move_key(m)).collect();
            assert_eq!(keys.len(), legal.len(), "{}: legal moves have distinct keys", ctx());
            for &mv in &legal {
                let key = state.move_key(mv);
                assert!(key < state.move_key_space(), "{}: key {key} of {mv:?} out of range", ctx());
                let text = state.move_text(mv);
                assert_eq!(state.parse_move(&text), Ok(mv), "{}: '{text}' reads back", ctx());

                let mut checked = state.clone();
                if let Err(e) = checked.play(mv) {
                    panic!("{}: generated move {text} refused: {e}", ctx());
                }
                let mut unchecked = state.clone();
                unchecked.play_unchecked(mv);
                assert_eq!(checked, unchecked, "{}: play and play_unchecked agree on {text}", ctx());
                assert_eq!(checked.ply(), state.ply() + 1, "{}: one move is one ply", ctx());
            }
            known.extend(legal.iter().copied());

            // Every position: Trike affords it (about 34 million refusals in the whole run, ~10 s on two
            // cores). A game with a much larger move universe may sample positions here instead.
            for &mv in known.iter().filter(|m| !set.contains(m)) {
                let mut copy = state.clone();
                match copy.play(mv) {
                    Ok(()) => {
                        panic!("{}: move {} is not generated but play accepts it", ctx(), state.move_text(mv))
                    }
                    Err(e) => assert!(!e.reason.trim().is_empty(), "{}: refusal without a reason", ctx()),
                }
                assert_eq!(copy, state, "{}: a refused move leaves the state unchanged", ctx());
                stats.refusals_checked += 1;
            }

            let chosen = state.random_move(&mut rng, &mut scratch);
            extra_check(Position { state: &state, history: &history, legal: &legal, rng: &mut rng });
            match chosen {
                None => {
                    assert!(legal.is_empty(), "{}: random_move gave None with moves left", ctx());
                    break;
                }
                Some(mv) => {
                    assert!(set.contains(&mv), "{}: random_move gave {mv:?}, not a legal move", ctx());
                    state.play(mv).unwrap_or_else(|e| panic!("{}: random move refused: {e}", ctx()));
                    history.push(mv);
                }
            }
        }

        let outcome = state.outcome().expect("a finished game has an outcome");
        assert_eq!(outcome.num_players, state.num_players());
        for seat in 0..outcome.num_players {
            let rank = outcome.ranks[seat];
            assert!((0.0..=1.0).contains(&rank), "game {game_no}: rank {rank} of seat {seat}");
        }
        for Player(p) in outcome.winners() {
            stats.wins[p as usize] += 1;
        }
        check_record_round_trip(&start, &state, &history);
        stats.games += 1;
        stats.max_plies = stats.max_plies.max(history.len());
    }
    stats
}

/// `Record::new` → `to_json` → `from_json` → `replay` gives back the start, the moves and `end`.
pub fn check_record_round_trip<G: Game + PartialEq>(start: &G, end: &G, history: &[G::Move]) {
    let record = Record::new(end, history);
    assert_eq!(record.moves.len(), history.len());
    let json = record.to_json();
    let read = Record::from_json(&json).unwrap_or_else(|e| panic!("own record refused: {e}\n{json}"));
    assert_eq!(read, record, "record survives JSON");
    let (replay_start, replay_end, moves) =
        read.replay::<G>().unwrap_or_else(|e| panic!("own record does not replay: {e}\n{json}"));
    assert_eq!(&replay_start, start, "replayed start position");
    assert_eq!(moves, history, "replayed moves");
    assert_eq!(&replay_end, end, "replayed final position\n{json}");
}
