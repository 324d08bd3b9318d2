//! The [`Game`] trait every game implements and the types around it: seats, outcomes, illegal
//! moves, the position hash and the random source (`docs/design.md` §Three layers).

use std::fmt;

use serde::{Serialize, de::DeserializeOwned};

/// The most players any triboard game seats (Blokus Trigon has four colours).
pub const MAX_PLAYERS: usize = 4;

/// A seat at the table, `0..num_players`, in the order the seats first move.
///
/// A seat is a person (or an AI), not a colour: in Trike the pie rule swaps the colours between the
/// seats, so the colour a seat plays is a property of the state ([`Game::player_name`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Player(pub u8);

impl Player {
    /// The seat's index, `0..num_players`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The result of a finished game: a score and a rank value per seat.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// How many seats take part; entries past it are zero.
    pub num_players: usize,
    /// The game's own score per seat (Trike: checkers under or adjacent to the pawn).
    pub scores: [i32; MAX_PLAYERS],
    /// Rank value per seat in `[0, 1]`: 1 for a sole winner, 0 for a sole loser, shared ranks share
    /// the average. The AI maximises it, so 2-, 3- and 4-player games share one search.
    pub ranks: [f32; MAX_PLAYERS],
}

impl Outcome {
    /// Builds an outcome from per-seat scores, higher is better, with ties sharing rank values.
    pub fn from_scores(scores: &[i32]) -> Outcome {
        let n = scores.len();
        assert!((1..=MAX_PLAYERS).contains(&n), "1 to {MAX_PLAYERS} players");
        let mut out = Outcome { num_players: n, scores: [0; MAX_PLAYERS], ranks: [0.0; MAX_PLAYERS] };
        out.scores[..n].copy_from_slice(scores);
        if n == 1 {
            out.ranks[0] = 1.0;
            return out;
        }
        for i in 0..n {
            let below = scores.iter().filter(|&&s| s < scores[i]).count() as f32;
            let equal = scores.iter().filter(|&&s| s == scores[i]).count() as f32 - 1.0;
            out.ranks[i] = (below + equal / 2.0) / (n as f32 - 1.0);
        }
        out
    }

    /// The seats with the best rank value (one seat unless the game ended in a tie).
    pub fn winners(&self) -> Vec<Player> {
        let best = self.ranks[..self.num_players].iter().cloned().fold(f32::MIN, f32::max);
        (0..self.num_players).filter(|&i| self.ranks[i] == best).map(|i| Player(i as u8)).collect()
    }

    /// The verdict in words, seats named by `name`: "White wins"; "a draw" when every seat shares
    /// first place (two players level, as a TriCore draw); "Blue and Red share first place" when
    /// some do.
    pub fn verdict(&self, name: impl Fn(Player) -> String) -> String {
        let winners = self.winners();
        match &winners[..] {
            [one] => format!("{} wins", name(*one)),
            _ if winners.len() == self.num_players => "a draw".to_string(),
            _ => format!("{} share first place", winners.iter().map(|&w| name(w)).collect::<Vec<_>>().join(" and ")),
        }
    }
}

/// Why named parameters could not make a game's options ([`Game::options_with`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// The game has no parameter of this name.
    Unknown(String),
    /// A value the game refuses, and why ("unknown board 'hex-9' (boards: …)").
    Bad(String),
}

/// Why a move was refused, in words a player understands ("c3 is not on a line from the pawn").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The reason, a sentence fragment without a final full stop.
    pub reason: String,
}

impl IllegalMove {
    /// An illegal move with this reason.
    pub fn new(reason: impl Into<String>) -> IllegalMove {
        IllegalMove { reason: reason.into() }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for IllegalMove {}

/// One game's rules, in the spirit of OpenSpiel's `State` and shakmaty's `Position`.
///
/// A value is a position plus everything needed to continue from it. It is cheap to clone (fixed-size
/// arrays or bitboards and a `&'static` geometry), so the search clones it once per simulation.
/// A turn with several steps is a sequence of ordinary moves by the same seat
/// ([`Game::is_turn_boundary`] tells where turns end).
pub trait Game: Clone + fmt::Debug + Send + Sync + 'static {
    /// One step of play. Small and `Copy`; its text form is [`Game::move_text`].
    type Move: Copy + Eq + std::hash::Hash + fmt::Debug + Send + Sync + 'static;
    /// The game's parameters (board size, variants), with the defaults of its rules file.
    type Options: Clone + fmt::Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;

    /// Every game id this type plays (`["trike"]`; Trigon's type plays `trigon`, `trigon-2`, …).
    const IDS: &'static [&'static str];
    /// The game id used by records and the CLI (`trike`, `trigon-2`, …); one of [`Game::IDS`].
    fn id(&self) -> &'static str;
    /// The start position for these options.
    ///
    /// # Errors
    /// A sentence naming the option out of range ("size 25 is outside 3–19").
    fn new(options: &Self::Options) -> Result<Self, String>;
    /// The options game id `id` (one of [`Game::IDS`]) starts from: the defaults, with the
    /// variant the id names for a type that plays several ids (Trigon: `trigon-2` is
    /// `{"variant": "trigon-2"}`). [`record::Record::replay`] completes a record's options with
    /// them, and the CLI starts from them. Default: `Options::default()`.
    fn options_for_id(id: &str) -> Self::Options {
        let _ = id;
        Self::Options::default()
    }
    /// The options for game id `id` with named parameters (`("size", "7")`, as the command line's
    /// `--size 7` gives them; OpenSpiel's game parameters), starting from [`Game::options_for_id`].
    /// Range checks are left to [`Game::new`]. Default: each parameter sets the options' field of
    /// that name in their serialised form, as a number where the value reads as one.
    ///
    /// # Errors
    /// [`ParamError::Unknown`] for a name the options do not have, [`ParamError::Bad`] with the
    /// reason for a value they refuse.
    fn options_with(id: &str, params: &[(&str, &str)]) -> Result<Self::Options, ParamError> {
        let mut value = serde_json::to_value(Self::options_for_id(id)).expect("options serialise");
        for &(name, text) in params {
            let field = value.get_mut(name).ok_or_else(|| ParamError::Unknown(name.to_string()))?;
            *field = text.parse::<i64>().map_or_else(|_| serde_json::Value::from(text), serde_json::Value::from);
        }
        serde_json::from_value(value).map_err(|e| ParamError::Bad(e.to_string()))
    }
    /// The options this game was created with.
    fn options(&self) -> &Self::Options;
    /// How many seats play.
    fn num_players(&self) -> usize;
    /// The seat to move, or `None` once the game is over.
    fn to_move(&self) -> Option<Player>;
    /// Plies played so far (every move counts, including a pie swap).
    fn ply(&self) -> usize;
    /// Clears `out` and fills it with every legal move, each once, in an order fixed by the position.
    /// Empty exactly when the game is over.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// Plays a move after checking it.
    ///
    /// # Errors
    /// The reason the move is illegal here; the position is then unchanged.
    fn play(&mut self, mv: Self::Move) -> Result<(), IllegalMove>;
    /// Plays a move known to be legal (from [`Game::legal_moves`]) without checking it. Allocates
    /// nothing. An illegal move leaves an unspecified (but memory-safe) state.
    fn play_unchecked(&mut self, mv: Self::Move);
    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// True when the next move starts a new turn (after the last step of a multi-step turn).
    fn is_turn_boundary(&self) -> bool {
        true
    }
    /// The move the player to move must make when the rules leave no choice (Trigon: a colour that
    /// cannot place passes, `docs/rules/trigon.md` §Play); the app and the referees play it at
    /// once, without asking the seat. Default: none.
    fn forced_move(&self) -> Option<Self::Move> {
        None
    }
    /// A move from its text in the game's notation.
    ///
    /// # Errors
    /// Text that names no move of this game, or no move on this board.
    fn parse_move(&self, text: &str) -> Result<Self::Move, IllegalMove>;
    /// A move's text in the game's notation; `parse_move` reads it back.
    fn move_text(&self, mv: Self::Move) -> String;
    /// A move as a person reads it (`triboard play`'s listings, the AI's moves, hints): the move's
    /// text with what helps a player see it, which [`Game::parse_move`] also reads back. Records,
    /// SGF and GTP keep [`Game::move_text`]. Default: the move's text. Trigon prefixes the piece's
    /// name (`L5:r12,r13,s13,s14,t14`, `docs/rules/trigon.md` §Pieces).
    fn move_label(&self, mv: Self::Move) -> String {
        self.move_text(mv)
    }
    /// The game's move notation in a few lines for a person typing moves (`triboard play`'s
    /// `help`), with examples that [`Game::parse_move`] reads (`docs/rules/<game>.md` §Notation).
    fn notation(&self) -> &'static str;
    /// What a seat is called in this position (Trike: the colour it plays, which the pie rule swaps).
    fn player_name(&self, player: Player) -> &'static str;
    /// What the side to move is called, or `None` once the game is over: the colour that moves
    /// where a seat plays several (Trigon Two-Player: "Red" of the seat "Blue/Red",
    /// `docs/rules/trigon.md` §Variants). Default: the [`Game::player_name`] of the seat to move.
    fn to_move_name(&self) -> Option<&'static str> {
        self.to_move().map(|p| self.player_name(p))
    }
    /// The position as a text diagram for the terminal (`triboard play`).
    fn board_text(&self) -> String;

    /// A dense index of a move, `< move_key_space()`, used by the search's RAVE tables. It depends on
    /// the move, the board options and at most who is to move (Trigon: the colour), not on the rest
    /// of the position.
    fn move_key(&self, mv: Self::Move) -> usize;
    /// One past the largest [`Game::move_key`] on this board.
    fn move_key_space(&self) -> usize;

    /// A 64-bit hash of everything that decides the rest of the game from here (the board, the
    /// seat to move and its colour, what the next moves may be), the same for the same position
    /// however it was reached, or `None` if the game has none. The search's table of proven
    /// positions (`ai::endgame`) needs it; games with boards small enough to solve implement it.
    /// Default: `None`.
    fn position_hash(&self) -> Option<u64> {
        None
    }

    /// A random legal move, or `None` when the game is over. The default is uniform and uses `buf`
    /// as scratch; games override it with a path faster than generating every move, which may weight
    /// moves differently (its doc says how) and may update caches kept in the state (hence `&mut`).
    fn random_move(&mut self, rng: &mut Rng, buf: &mut Vec<Self::Move>) -> Option<Self::Move> {
        use rand::Rng as _;
        self.legal_moves(buf);
        if buf.is_empty() { None } else { Some(buf[rng.random_range(0..buf.len())]) }
    }
}

/// A hash of `words` (SplitMix64's finalizer over a running mix), for [`Game::position_hash`].
pub fn hash_words(words: impl IntoIterator<Item = u64>) -> u64 {
    let mut h = 0x243f_6a88_85a3_08d3_u64;
    for w in words {
        h = (h ^ w).wrapping_add(0x9e37_79b9_7f4a_7c15);
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^= h >> 31;
    }
    h
}

/// The random number generator used everywhere: seeded, small, fast, and the same on every platform
/// (so a seed replays the same games on the desktop and on the web).
pub type Rng = rand_xoshiro::Xoshiro256PlusPlus;

/// A uniform index in `0..n` from one 64-bit draw (Lemire's multiply-shift without rejection: the
/// bias is below `n / 2^64`, far under anything a playout can notice). Panics in debug if `n == 0`.
#[inline(always)]
pub fn random_index(rng: &mut Rng, n: usize) -> usize {
    use rand::RngCore as _;
    debug_assert!(n > 0);
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

/// A generator from a seed.
pub fn rng_from_seed(seed: u64) -> Rng {
    use rand::SeedableRng as _;
    Rng::seed_from_u64(seed)
}

/// Counts the leaves of the game tree at exactly depth `d` plies below `game`, for `d = 1..=depth`
/// (element `d-1`). A line that ends earlier contributes nothing to the deeper counts.
pub fn perft<G: Game>(game: &G, depth: usize) -> Vec<u64> {
    fn walk<G: Game>(game: &G, d: usize, counts: &mut [u64], bufs: &mut [Vec<G::Move>]) {
        let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
        game.legal_moves(buf);
        counts[d] += buf.len() as u64;
        if d + 1 < counts.len() {
            for &mv in buf.iter() {
                let mut next = game.clone();
                next.play_unchecked(mv);
                walk(&next, d + 1, counts, rest);
            }
        }
    }
    let mut counts = vec![0; depth];
    if depth > 0 {
        let mut bufs = vec![Vec::new(); depth];
        walk(game, 0, &mut counts, &mut bufs);
    }
    counts
}

/// `n` and its noun, singular for one: `counted(1, "move", "moves")` is "1 move",
/// `counted(3, "ply", "plies")` "3 plies".
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The texts of `moves` played from `start`, in the game's notation (records, the CLI, a search's
/// expected line).
pub fn move_texts<G: Game>(start: &G, moves: &[G::Move]) -> Vec<String> {
    replay_texts(start, moves, G::move_text)
}

/// The labels of `moves` played from `start`, as a person reads them ([`Game::move_label`]; the
/// CLI's AI moves and hints).
pub fn move_labels<G: Game>(start: &G, moves: &[G::Move]) -> Vec<String> {
    replay_texts(start, moves, G::move_label)
}

/// `text` of each of `moves` in the position it is played in, from `start`.
fn replay_texts<G: Game>(start: &G, moves: &[G::Move], text: fn(&G, G::Move) -> String) -> Vec<String> {
    let mut g = start.clone();
    moves
        .iter()
        .map(|&mv| {
            let t = text(&g, mv);
            g.play_unchecked(mv);
            t
        })
        .collect()
}

/// Plays a whitespace-separated move list from the current position, each through [`Game::play`].
///
/// # Errors
/// `move k (text): reason`, with `k` counted from 1 within `moves`; the state then holds the moves
/// before the bad one.
pub fn play_moves<G: Game>(game: &mut G, moves: &str) -> Result<(), String> {
    for (k, text) in moves.split_whitespace().enumerate() {
        let mv = game.parse_move(text).map_err(|e| format!("move {} ({text}): {e}", k + 1))?;
        game.play(mv).map_err(|e| format!("move {} ({text}): {e}", k + 1))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_level_game_is_a_draw_and_a_partial_tie_shares_first_place() {
        let name = |p: super::Player| ["Black", "White", "Red"][p.index()].to_string();
        assert_eq!(super::Outcome::from_scores(&[3, 3]).verdict(name), "a draw");
        assert_eq!(super::Outcome::from_scores(&[3, 4]).verdict(name), "White wins");
        assert_eq!(super::Outcome::from_scores(&[5, 5, 1]).verdict(name), "Black and White share first place");
        assert_eq!(super::Outcome::from_scores(&[2, 2, 2]).verdict(name), "a draw");
    }

    #[test]
    fn counted_nouns_agree_with_their_number() {
        assert_eq!(super::counted(1, "move", "moves"), "1 move");
        assert_eq!(super::counted(0, "move", "moves"), "0 moves");
        assert_eq!(super::counted(2, "ply", "plies"), "2 plies");
    }
}
