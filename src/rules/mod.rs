//! Pure game logic: the [`Game`] trait every game implements (and [`Knowledge`], what the search
//! knows of it beyond the rules), the shared types around it, the board geometries, one module per
//! game and the game record.
//!
//! Nothing here knows of Bevy, threads, files or clocks (`docs/design.md` §Three layers).

pub mod bits;
pub mod features;
pub mod geometry;
pub mod lesson;
pub mod record;
pub mod tri_it_out;
pub mod tricore;
pub mod trigon;
pub mod trike;
pub mod trisq;

/// The one list of triboard's games, in the order menus show them: expands to `$m!(Type, …)` with
/// every game type, so that the command line's table of game ids ([`crate::cli::with_game`]) and the
/// app's registry (`app::games::each_game`) are both built from it. Adding a game is one line here
/// (with its `pub mod` above).
#[macro_export]
macro_rules! for_each_game {
    ($m:ident) => {
        $m! {
            $crate::rules::trike::Trike,
            $crate::rules::tri_it_out::TriItOut,
            $crate::rules::tricore::TriCore,
            $crate::rules::trisq::Trisq,
            $crate::rules::trigon::Trigon
        }
    };
}

/// Every game id of every game, in the list's order ([`for_each_game`]).
pub fn game_ids() -> Vec<&'static str> {
    let mut ids = Vec::new();
    macro_rules! push {
        ($($g:ty),*) => { $( ids.extend(<$g as Game>::IDS); )* };
    }
    crate::for_each_game!(push);
    ids
}

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

/// What the search knows of a game beyond its rules: its playout policy, priors for new tree
/// nodes, pruning, reward and caches to warm. The search (`ai::Mcts`) needs it; each game implements
/// it beside [`Game`] (an empty `impl` keeps every neutral default).
///
/// It is a trait of its own so that [`Game`] reads as the rules alone: nothing here decides which
/// moves are legal, what they do or who wins, and no caller but the search (and the tests and
/// measurements of the knowledge) uses it. A game's knowledge is tuned by measurement and may
/// change without the rules changing; everything else (records, the app's views, the CLI's rule
/// commands) needs only [`Game`]. It stays in `rules` because it reads the position's private state (Trigon's
/// bitboards), and `rules` depends on nothing above it.
pub trait Knowledge: Game {
    /// The move a playout plays here. Neutral default: [`Game::random_move`]. A game with playout
    /// knowledge overrides it.
    fn playout_move(&mut self, rng: &mut Rng, buf: &mut Vec<Self::Move>) -> Option<Self::Move> {
        self.random_move(rng, buf)
    }
    /// Prior knowledge of several legal moves of this position at once (a game can then compute
    /// what its moves share only once): clears `out` and pushes one `(value, weight)` per move,
    /// added to a new node's statistics as `weight` virtual simulations of mean `value` in
    /// `[0, 1]` for the mover; `(0, 0)` for none. Neutral default: none for every move.
    fn move_priors(&self, moves: &[Self::Move], out: &mut Vec<(f32, f32)>) {
        out.clear();
        out.resize(moves.len(), (0.0, 0.0));
    }
    /// What a finished playout is worth to each seat for the search, in `[0, 1]`. Default: the rank
    /// values ([`Outcome::ranks`]). A game may blend in its score margin, so that the search also
    /// prefers winning by more and losing by less (Trigon does).
    fn reward(&self, outcome: &Outcome) -> [f32; MAX_PLAYERS] {
        outcome.ranks
    }
    /// The reward the search uses: as [`Knowledge::reward`], but a game may also measure the
    /// finished playout against the running statistics of the search's earlier playouts
    /// (`stats`, which it updates; one per search tree) — Pentobi's quality-based rewards (Pepels
    /// et al. 2014), whose bonuses stay informative however far ahead or behind the position is.
    /// In `[0, 1]`. Default: [`Knowledge::reward`], the statistics unused.
    fn reward_with(&self, outcome: &Outcome, stats: &mut RewardStats) -> [f32; MAX_PLAYERS] {
        let _ = stats;
        self.reward(outcome)
    }
    /// Fills caches the state keeps for its playouts (Trigon: the attach points where nothing fits
    /// any more), so that every playout cloned from it starts with them. The search calls it on its
    /// root. Changes no rule-visible state. Default: nothing.
    fn warm_up(&mut self) {}
    /// The weight of the PUCT prior term in the search's selection for this game (see
    /// `ai::SearchConfig::policy_weight`), its priors ([`Knowledge::move_priors`]) turned into move
    /// probabilities. Default 0: no such term.
    fn policy_weight(&self) -> f32 {
        0.0
    }
    /// The logits of `moves` as the PUCT term's move probabilities (their softmax), for a game with
    /// a learned move policy: clears `out`, pushes one logit per move and returns true. Default: a
    /// game with move features ([`Knowledge::feature_weights`]) gives their learned logits
    /// ([`features::learned_logits`], temperature 1); one without returns false, and the search
    /// then uses the prior values ([`Knowledge::move_priors`]) times
    /// `ai::SearchConfig::policy_sharpness`.
    fn move_logits(&self, moves: &[Self::Move], out: &mut Vec<f32>) -> bool {
        if Self::feature_weights().is_none() || self.to_move().is_none() {
            return false;
        }
        features::learned_logits(self, moves, 1.0, out);
        true
    }
    /// Prior-led selection for this game (`ai::SearchConfig::prior_exploration`): `Some(c)` makes
    /// the search start each new child at the mover's running mean times `√(γ/γmax)`, where
    /// `γ = exp(logit)` of [`Knowledge::move_logits`], and select by value plus
    /// `c · P · √N · ln(N+1) / (n + k)` with `P = γ / Σγ` and no uniform exploration term. Only for
    /// a game whose `move_logits` gives logits. Default `None`: UCT + RAVE with the priors of
    /// [`Knowledge::move_priors`].
    fn prior_exploration(&self) -> Option<f32> {
        None
    }
    /// Simulations added per ply below the root to the visits a leaf needs before its children
    /// are created (`ai::SearchConfig::expand_growth`). Default 0: every depth alike.
    fn expand_growth(&self) -> f32 {
        0.0
    }
    /// Last-good-reply with forgetting in the playouts (`ai::SearchConfig::last_good_reply`): 1
    /// remembers each winner's reply to the last move, 2 also to the last two moves; a playout
    /// tries them first where [`Knowledge::accepts_reply`] allows. Default 0: off.
    fn last_good_reply(&self) -> u8 {
        0
    }
    /// Whether a playout may play `mv` here, a reply remembered from an earlier playout (whose
    /// key, [`Game::move_key`], is unchanged): it must be legal, and should be a move the game's
    /// playout policy could play (Trigon: the opening schedule). Only asked when
    /// [`Knowledge::last_good_reply`] (or the search's setting) is on. Default false: no reply is
    /// ever played.
    fn accepts_reply(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }
    /// The moves the search looks at here: the legal moves, less those the game's knowledge prunes
    /// as clearly weak (Trigon: small pieces in the opening). Never empty while legal moves exist.
    /// Default: every legal move.
    fn search_moves(&self, out: &mut Vec<Self::Move>) {
        self.legal_moves(out);
    }
    /// The game's learned move features and the weights in force (`rules::features`), for
    /// `triboard learn` and `--weights FILE`. Default `None`: no learned features.
    fn feature_weights() -> Option<&'static features::WeightsCell> {
        None
    }
    /// The active features of each of `moves` (legal here, the game not over, at least two):
    /// clears `out` and pushes, per move, one feature index per group of the set of
    /// [`Knowledge::feature_weights`], group by group. Default: nothing (no features).
    fn move_features(&self, moves: &[Self::Move], out: &mut Vec<u16>) {
        let _ = moves;
        out.clear();
    }
}

/// A running mean and variance (Welford's algorithm) of one measure over a search's playouts.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunningStats {
    count: f64,
    mean: f64,
    m2: f64,
}

impl RunningStats {
    /// Adds one value.
    pub fn add(&mut self, x: f64) {
        self.count += 1.0;
        let delta = x - self.mean;
        self.mean += delta / self.count;
        self.m2 += delta * (x - self.mean);
    }
    /// How far `x` lies from the mean, in standard deviations; 0 while the variance is 0.
    pub fn z(&self, x: f64) -> f64 {
        let var = if self.count > 1.0 { self.m2 / self.count } else { 0.0 };
        if var > 0.0 { (x - self.mean) / var.sqrt() } else { 0.0 }
    }
    /// The values added so far.
    pub fn count(&self) -> f64 {
        self.count
    }
}

/// The running statistics a game's [`Knowledge::reward_with`] keeps over one search's playouts:
/// eight measures, each game numbering its own.
#[derive(Clone, Copy, Debug, Default)]
pub struct RewardStats(pub [RunningStats; 8]);

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
