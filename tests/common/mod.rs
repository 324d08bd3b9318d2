//! The random-game harness every game's conformance tests share, in the spirit of OpenSpiel's
//! `RandomSimTest`: play many seeded random games and check, at every position, that the
//! [`Game`] surface is consistent with itself (`docs/design.md` §Three layers).
//!
//! It knows nothing of any one game. The game's own test adds its rules-specific checks through
//! `extra_check`, called at every position (including the final one). The five games run it in
//! their own test files, next to their rule-specific helpers: Trike in `trike.rs`, the others
//! in `tri_it_out.rs`, `tricore.rs`, `trigon.rs` and `trisq.rs`; `app/every_game.rs` runs it for every
//! game of the registry, from its default options.

#![allow(dead_code)] // each test binary uses a different part of this module

use std::collections::HashSet;
use std::fmt;

use rand::Rng as _;
use triboard::rules::record::Record;
use triboard::rules::tri_it_out::TriItOut;
use triboard::rules::tricore::TriCore;
use triboard::rules::trigon::{COLOURS, Trigon, TrigonOptions};
use triboard::rules::trike::Trike;
use triboard::rules::trisq::{Trisq, TrisqMove, TrisqOptions};
use triboard::rules::{Game, Knowledge, MAX_PLAYERS, Outcome, Player, Rng, rng_from_seed};

// ---- Comparing positions ----

/// What the harness compares when it asks whether two positions are the same ("a clone equals the
/// original", "a refused move leaves the state unchanged", "the record replays to the same end").
///
/// A game whose state is `PartialEq` is its own view. Trigon and Trisq are not `PartialEq` (Trigon
/// keeps a cache of dead attach points that is no part of the position), so their view is every
/// rule-visible thing their public API shows.
pub trait Observe: Knowledge {
    type View: PartialEq + fmt::Debug;
    fn view(&self) -> Self::View;
}

macro_rules! observe_by_eq {
    ($($game:ty),*) => {$(
        impl Observe for $game {
            type View = $game;
            fn view(&self) -> $game {
                self.clone()
            }
        }
    )*};
}
observe_by_eq!(Trike, TriItOut, TriCore);

/// A Trigon position as its public API shows it. Not seen: which piece each colour placed last
/// (it only shows in the score once all 22 are down) and the dead-attach-point cache.
#[derive(PartialEq, Debug)]
pub struct TrigonView {
    options: TrigonOptions,
    ply: usize,
    to_move: Option<Player>,
    colour_to_move: Option<usize>,
    /// One letter per cell: `B`, `Y`, `R`, `G` or `.`.
    cells: Letters,
    pieces_left: [u32; 4],
    out: [bool; 4],
    scores: [i32; 4],
    outcome: Option<Outcome>,
}

/// One ASCII letter per cell or slot, shown as text (cheaper to build than a `String`).
#[derive(PartialEq)]
pub struct Letters(Vec<u8>);

impl fmt::Debug for Letters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\"", String::from_utf8_lossy(&self.0))
    }
}

impl Observe for Trigon {
    type View = TrigonView;
    fn view(&self) -> TrigonView {
        let colours = if self.num_players() == 3 { 3 } else { 4 };
        let letter = |x| self.colour_at(x).map_or(b'.', |c| COLOURS[c].as_bytes()[0]);
        TrigonView {
            options: self.options().clone(),
            ply: self.ply(),
            to_move: self.to_move(),
            colour_to_move: self.colour_to_move(),
            cells: Letters((0..self.tables().board.cells()).map(letter).collect()),
            pieces_left: std::array::from_fn(|c| if c < colours { self.pieces_left(c) } else { 0 }),
            out: std::array::from_fn(|c| c < colours && self.is_out(c)),
            scores: std::array::from_fn(|c| if c < colours { self.colour_score(c) } else { 0 }),
            outcome: self.outcome(),
        }
    }
}

/// A Trisq position as its public API shows it. Not seen: the order of the list `random_move`
/// draws from and the pieces of the last turns kept for the search's priors.
#[derive(PartialEq, Debug)]
pub struct TrisqView {
    options: TrisqOptions,
    ply: usize,
    to_move: Option<Player>,
    turn_boundary: bool,
    /// One letter per slot: `R`, `B`, `.` available, `x` blocked (empty but not available).
    slots: Letters,
    first_placed: Option<usize>,
    end_blocker: Option<(usize, usize)>,
    winner: Option<Player>,
    winning_chain: Vec<usize>,
    outcome: Option<Outcome>,
}

impl Observe for Trisq {
    type View = TrisqView;
    fn view(&self) -> TrisqView {
        let letter = |s| match self.piece(s) {
            Some(0) => b'R',
            Some(_) => b'B',
            None if self.available(s) => b'.',
            None => b'x',
        };
        TrisqView {
            options: self.options().clone(),
            ply: self.ply(),
            to_move: self.to_move(),
            turn_boundary: self.is_turn_boundary(),
            slots: Letters((0..self.board().slots()).map(letter).collect()),
            first_placed: self.first_placed(),
            end_blocker: self.end_blocker(),
            winner: self.winner(),
            winning_chain: self.winning_chain(),
            outcome: self.outcome(),
        }
    }
}

/// Every move of a Trisq board: a piece in each slot, and `end`.
pub fn trisq_universe(game: &Trisq) -> Vec<TrisqMove> {
    (0..game.board().slots()).map(TrisqMove::place).chain([TrisqMove::END]).collect()
}

// ---- The harness ----

/// One run of the harness: which games, how many, and how hard to look at the refusals.
#[derive(Clone, Debug)]
pub struct Run<G: Game> {
    pub options: G::Options,
    pub games: usize,
    pub seed: u64,
    /// Every game must end within this many plies (the game's own bound, from its rules).
    pub max_plies: usize,
    /// The refusal check's candidates: `None` tries every known move that is not legal, at every
    /// position; `Some(n)` (for a game with thousands of moves) tries up to `n` near misses (moves
    /// legal in one of the last [`RECENT`] positions of the game) and `n` draws among the others.
    pub refusal_sample: Option<usize>,
    /// Moves known before the first game (a small game's whole move space), added to the moves the
    /// run generates as candidates for the refusal check.
    pub universe: Vec<G::Move>,
}

impl<G: Game> Run<G> {
    /// `games` games with these options from `seed`, each within `max_plies`, every known move tried.
    pub fn new(options: G::Options, games: usize, seed: u64, max_plies: usize) -> Run<G> {
        Run { options, games, seed, max_plies, refusal_sample: None, universe: Vec::new() }
    }
    /// Tries up to `n` near misses and `n` other known non-legal moves per position instead of all.
    pub fn sample_refusals(mut self, n: usize) -> Run<G> {
        self.refusal_sample = Some(n);
        self
    }
    /// Adds `moves` to the refusal check's candidates from the start.
    pub fn with_universe(mut self, moves: impl IntoIterator<Item = G::Move>) -> Run<G> {
        self.universe.extend(moves);
        self
    }
}

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
    /// Plies over all games.
    pub plies: usize,
    pub max_plies: usize,
    /// Legal moves played on a clone (checked and unchecked).
    pub legal_checked: usize,
    /// Moves refused (each with a reason, leaving the state unchanged).
    pub refusals_checked: usize,
    /// Records written, read and replayed (at the end of every game and at one ply in the middle).
    pub records_checked: usize,
    /// Games won by each seat (ties counted for every best seat).
    pub wins: [usize; 4],
}

/// How many past positions' legal moves are the near misses tried at each position: one round of
/// the table (with four colours, the mover's own previous turn).
const RECENT: usize = MAX_PLAYERS;

/// Plays `run.games` random games of `G` and checks at every position:
///
/// - `ply()` counts every move; `to_move()` is a seat, and `None` exactly when `legal_moves` is
///   empty, exactly when `outcome()` is `Some`; no game runs past `run.max_plies`;
/// - a clone equals the original and generates the same moves in the same order;
/// - the legal moves are distinct, have distinct keys below `move_key_space()`, and read back from
///   their own text (`parse_move(move_text(m)) == m`);
/// - every legal move is accepted by `play` on a clone, `play` and `play_unchecked` give the same
///   position, one ply on;
/// - moves that are not legal here are refused by `play` with a non-empty reason and leave the
///   state unchanged: every known move (`run.universe` and every move generated so far in the run),
///   or with `run.refusal_sample` = `Some(n)` up to `n` near misses (moves legal in one of the last
///   [`RECENT`] positions of the game: cells just taken, pieces just used, the mover's last turn)
///   and `n` draws among the other known moves;
/// - `random_move` gives a legal move, `None` exactly when the game is over, and changes neither the
///   position nor its moves; `playout_move` gives a legal move too; `warm_up` changes neither;
/// - `search_moves` is a non-empty subset of the legal moves while there are any, and
///   `move_priors` gives one prior per move, value in `[0, 1]`, weight finite and not negative;
/// - the move played is played on a clone too, and the two stay equal;
/// - at the end: the outcome has one score and rank per seat, ranks in `[0, 1]` summing to
///   `num_players / 2` (a sole winner 1, shared ranks sharing the average), rewards in `[0, 1]`;
///   and the record round trip ([`check_record_round_trip`]) gives back the same start, moves and
///   position, there and at one ply in the middle of the game.
///
/// The games themselves are driven by `random_move`, so its distribution is the one exercised. The
/// samples and the middle ply come from a second generator, so the games are the same whatever the
/// harness samples.
pub fn random_games<G: Observe>(run: &Run<G>, mut extra_check: impl FnMut(Position<'_, G>)) -> Stats {
    let seed = run.seed;
    let mut rng = rng_from_seed(seed);
    let mut sampler = rng_from_seed(seed ^ 0x9e37_79b9_7f4a_7c15);
    let start = G::new(&run.options).expect("the options of a random-game run are valid");
    check_start(&start, &run.options);
    // Every move ever generated (and the universe): the candidates the refusal check tries.
    let mut known: HashSet<G::Move> = HashSet::new();
    let mut known_list: Vec<G::Move> = Vec::new();
    for &mv in &run.universe {
        if known.insert(mv) {
            known_list.push(mv);
        }
    }
    let mut stats = Stats::default();
    let mut legal = Vec::new();
    let mut scratch = Vec::new();
    let mut again = Vec::new();
    let mut priors = Vec::new();

    for game_no in 0..run.games {
        let mut state = start.clone();
        let mut history: Vec<G::Move> = Vec::new();
        let mut recent: Vec<Vec<G::Move>> = Vec::new();
        let record_at = sampler.random_range(0..=stats.max_plies.max(4));
        loop {
            state.legal_moves(&mut legal);
            stats.positions += 1;
            let ply = history.len();
            let ctx = || format!("game {game_no} (seed {seed:#x}) after {ply} plies");
            let view = state.view();

            assert!(ply <= run.max_plies, "{}: the game runs past {} plies", ctx(), run.max_plies);
            assert_eq!(state.ply(), ply, "{}: ply() counts every move", ctx());
            let twin = state.clone();
            assert_eq!(twin.view(), view, "{}: a clone equals the original", ctx());
            twin.legal_moves(&mut again);
            assert_eq!(again, legal, "{}: a clone generates the same moves in the same order", ctx());
            assert_eq!(state.to_move().is_none(), legal.is_empty(), "{}: to_move None ⇔ no legal moves", ctx());
            assert_eq!(state.outcome().is_some(), legal.is_empty(), "{}: outcome Some ⇔ game over", ctx());
            if let Some(p) = state.to_move() {
                assert!(p.index() < state.num_players(), "{}: to_move {p:?} is a seat", ctx());
            }

            // The legal moves: distinct, keyed, readable, accepted, and `play` = `play_unchecked`.
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
                assert_eq!(checked.view(), unchecked.view(), "{}: play and play_unchecked agree on {text}", ctx());
                assert_eq!(checked.ply(), ply + 1, "{}: one move is one ply", ctx());
                stats.legal_checked += 1;
            }
            for &mv in &legal {
                if known.insert(mv) {
                    known_list.push(mv);
                }
            }

            // The refusals: every known move, or a sample of the near misses and of the others.
            let mut refuse = |mv: G::Move| {
                let mut copy = state.clone();
                match copy.play(mv) {
                    Ok(()) => panic!("{}: move {} is not generated but play accepts it", ctx(), state.move_text(mv)),
                    Err(e) => assert!(!e.reason.trim().is_empty(), "{}: refusal without a reason", ctx()),
                }
                assert_eq!(copy.view(), view, "{}: a refused move leaves the state unchanged", ctx());
                stats.refusals_checked += 1;
            };
            match run.refusal_sample {
                // Every position: Trike affords it (about 34 million refusals in its whole run).
                None => known_list.iter().filter(|m| !set.contains(m)).for_each(|&mv| refuse(mv)),
                Some(n) => {
                    let mut tried: HashSet<G::Move> = HashSet::new();
                    let mut near: Vec<G::Move> =
                        recent.iter().flatten().copied().filter(|m| !set.contains(m) && tried.insert(*m)).collect();
                    // At most `n` near misses, drawn without replacement.
                    for k in 0..near.len().min(n) {
                        let pick = sampler.random_range(k..near.len());
                        near.swap(k, pick);
                        refuse(near[k]);
                    }
                    for _ in 0..n {
                        let mv = known_list[sampler.random_range(0..known_list.len())];
                        if !set.contains(&mv) && tried.insert(mv) {
                            refuse(mv);
                        }
                    }
                }
            }
            recent.insert(0, legal.clone());
            recent.truncate(RECENT);

            // The search's views of the position.
            state.search_moves(&mut again);
            assert_eq!(again.is_empty(), legal.is_empty(), "{}: search_moves empty ⇔ game over", ctx());
            assert!(again.iter().all(|m| set.contains(m)), "{}: search_moves outside the legal moves", ctx());
            state.move_priors(&again, &mut priors);
            assert_eq!(priors.len(), again.len(), "{}: one prior per move", ctx());
            for &(value, weight) in &priors {
                assert!((0.0..=1.0).contains(&value), "{}: prior value {value}", ctx());
                assert!(weight.is_finite() && weight >= 0.0, "{}: prior weight {weight}", ctx());
            }
            let mut warm = state.clone();
            warm.warm_up();
            assert_eq!(warm.view(), view, "{}: warm_up changes no rule-visible state", ctx());
            warm.legal_moves(&mut again);
            assert_eq!(again, legal, "{}: warm_up changes no move", ctx());
            let playout = warm.playout_move(&mut sampler, &mut scratch);
            assert_eq!(playout.is_none(), legal.is_empty(), "{}: playout_move None ⇔ game over", ctx());
            assert!(playout.is_none_or(|m| set.contains(&m)), "{}: playout_move {playout:?} is not legal", ctx());

            if ply == record_at {
                check_record_round_trip(&start, &state, &history);
                stats.records_checked += 1;
            }

            let chosen = state.random_move(&mut rng, &mut scratch);
            assert_eq!(state.view(), view, "{}: random_move changes no rule-visible state", ctx());
            state.legal_moves(&mut again);
            assert_eq!(again, legal, "{}: random_move changes no move", ctx());
            extra_check(Position { state: &state, history: &history, legal: &legal, rng: &mut rng });
            match chosen {
                None => {
                    assert!(legal.is_empty(), "{}: random_move gave None with moves left", ctx());
                    break;
                }
                Some(mv) => {
                    assert!(set.contains(&mv), "{}: random_move gave {mv:?}, not a legal move", ctx());
                    let mut twin = state.clone();
                    state.play(mv).unwrap_or_else(|e| panic!("{}: random move refused: {e}", ctx()));
                    twin.play(mv).unwrap_or_else(|e| panic!("{}: random move refused by a clone: {e}", ctx()));
                    assert_eq!(twin.view(), state.view(), "{}: a clone playing the same move stays equal", ctx());
                    history.push(mv);
                }
            }
        }

        check_end(&state, game_no);
        for Player(p) in state.outcome().unwrap().winners() {
            stats.wins[p as usize] += 1;
        }
        check_record_round_trip(&start, &state, &history);
        stats.records_checked += 1;
        stats.games += 1;
        stats.plies += history.len();
        stats.max_plies = stats.max_plies.max(history.len());
    }
    assert_eq!(stats.games, run.games);
    stats
}

/// The start position: its id, its options, no move played, every seat named.
fn check_start<G: Game>(start: &G, options: &G::Options) {
    assert!(G::IDS.contains(&start.id()), "id {} is one of {:?}", start.id(), G::IDS);
    assert_eq!(start.options(), options, "the start keeps its options");
    assert_eq!(start.ply(), 0);
    assert!((1..=MAX_PLAYERS).contains(&start.num_players()));
    for seat in 0..start.num_players() {
        assert!(!start.player_name(Player(seat as u8)).is_empty(), "seat {seat} has a name");
    }
}

/// A finished game: an outcome with one score and rank per seat, the ranks in `[0, 1]` summing to
/// `num_players / 2` (`Outcome`: a sole winner 1, a sole loser 0, shared ranks share the average),
/// rewards in `[0, 1]`.
fn check_end<G: Knowledge>(end: &G, game_no: usize) {
    let outcome = end.outcome().expect("a finished game has an outcome");
    let n = end.num_players();
    assert_eq!(outcome.num_players, n, "game {game_no}: one result per seat");
    for seat in 0..n {
        let rank = outcome.ranks[seat];
        assert!((0.0..=1.0).contains(&rank), "game {game_no}: rank {rank} of seat {seat}");
    }
    if n > 1 {
        let sum: f32 = outcome.ranks[..n].iter().sum();
        assert!((sum - n as f32 / 2.0).abs() < 1e-4, "game {game_no}: ranks {:?} sum to {sum}", outcome.ranks);
    }
    assert!(!outcome.winners().is_empty(), "game {game_no}: somebody wins");
    let reward = end.reward(&outcome);
    assert!(reward[..n].iter().all(|r| (0.0..=1.0).contains(r)), "game {game_no}: rewards {reward:?}");
}

/// `Record::new` → `to_json` → `from_json` → `replay` gives back the start, the moves and `end`
/// (the same position, generating the same moves in the same order).
pub fn check_record_round_trip<G: Observe>(start: &G, end: &G, history: &[G::Move]) {
    let record = Record::new(end, history);
    assert_eq!(record.game_id(), end.id());
    assert_eq!(record.moves.len(), history.len());
    let json = record.to_json();
    let read = Record::from_json(&json).unwrap_or_else(|e| panic!("own record refused: {e}\n{json}"));
    assert_eq!(read, record, "record survives JSON");
    let (replay_start, replay_end, moves) =
        read.replay::<G>().unwrap_or_else(|e| panic!("own record does not replay: {e}\n{json}"));
    assert_eq!(replay_start.view(), start.view(), "replayed start position");
    assert_eq!(moves, history, "replayed moves");
    assert_eq!(replay_end.view(), end.view(), "replayed position\n{json}");
    let (mut a, mut b) = (Vec::new(), Vec::new());
    replay_end.legal_moves(&mut a);
    end.legal_moves(&mut b);
    assert_eq!(a, b, "the replayed position generates the same moves\n{json}");
}

/// The cells of a diagram's row lines, top row first: each cell's text and its column in the line.
pub fn diagram_rows(text: &str, rows: usize) -> Vec<Vec<(String, usize)>> {
    let lines: Vec<&str> = text.lines().collect();
    (0..rows)
        .map(|r| {
            let line = lines[r];
            assert!(line.starts_with(&format!("{:>3} ", r + 1)), "row {} is numbered: {line:?}", r + 1);
            let line = line
                .strip_suffix(&format!("  {}", r + 1))
                .unwrap_or_else(|| panic!("row {} is numbered at its end too: {line:?}", r + 1))
                .trim_end();
            let mut cells = Vec::new();
            let mut start = None;
            for (i, c) in line.char_indices().skip(4).chain([(line.len(), ' ')]) {
                match (c == ' ', start) {
                    (false, None) => start = Some(i),
                    (true, Some(s)) => {
                        cells.push((line[s..i].to_string(), s));
                        start = None;
                    }
                    _ => {}
                }
            }
            cells
        })
        .collect()
}
