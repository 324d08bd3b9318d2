//! What the search knows of a game beyond its rules ([`Knowledge`]), and the running statistics
//! its reward keeps.

use super::features;
use super::game::{Game, MAX_PLAYERS, Outcome, Rng};

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
    /// ([`learned_logits`], temperature 1); one without returns false, and the search
    /// then uses the prior values ([`Knowledge::move_priors`]) times
    /// `ai::SearchConfig::policy_sharpness`.
    fn move_logits(&self, moves: &[Self::Move], out: &mut Vec<f32>) -> bool {
        if Self::feature_weights().is_none() || self.to_move().is_none() {
            return false;
        }
        learned_logits(self, moves, 1.0, out);
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
    /// Pentobi's values under prior-led selection (`ai::SearchConfig::folded_rave`): one mean per
    /// node with the RAVE updates folded in by weight, the exploration term over the value count.
    /// Default false: Silver's blend.
    fn folded_rave(&self) -> bool {
        false
    }
    /// The form of the reward the search asks for by default (`ai::SearchConfig::reward_form`,
    /// [`RewardStats::form`]). Default 0.
    fn reward_form(&self) -> u8 {
        0
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
    /// A 64-bit key of the position for opening books (`rules::book`): the same for the same
    /// position however its moves were ordered. Default `None`: the game has no book.
    fn book_key(&self) -> Option<u64> {
        None
    }
    /// The built-in opening book's move here, while books are on (`rules::book::enabled`).
    /// Default `None`: no book.
    fn book_move(&self) -> Option<Self::Move> {
        None
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

/// A running least-squares slope of `y` on `x` over a search's playouts, `Cov(x, y) / Var(x)`
/// (Welford's algorithm for the co-moment): the coefficient of a control variate (Pepels et al.
/// 2014 estimate a quality bonus's weight this way from the playouts themselves).
#[derive(Clone, Copy, Debug, Default)]
pub struct RunningSlope {
    count: f64,
    mean_x: f64,
    mean_y: f64,
    co_moment: f64,
    m2_x: f64,
}

impl RunningSlope {
    /// Adds one pair.
    pub fn add(&mut self, x: f64, y: f64) {
        self.count += 1.0;
        let dx = x - self.mean_x;
        self.mean_x += dx / self.count;
        self.mean_y += (y - self.mean_y) / self.count;
        self.co_moment += dx * (y - self.mean_y);
        self.m2_x += dx * (x - self.mean_x);
    }
    /// `Cov(x, y) / Var(x)` of the pairs so far; 0 while `x` has not varied.
    pub fn slope(&self) -> f64 {
        if self.m2_x > 0.0 { self.co_moment / self.m2_x } else { 0.0 }
    }
    /// The pairs added so far.
    pub fn count(&self) -> f64 {
        self.count
    }
}

/// The running statistics a game's [`Knowledge::reward_with`] keeps over one search's playouts:
/// eight measures and four slopes, each game numbering its own; and `form`, which form of the
/// reward the search asks for (`SearchConfig::reward_form`: 0 the game's own; a game may know
/// others).
#[derive(Clone, Copy, Debug, Default)]
pub struct RewardStats(pub [RunningStats; 8], pub u8, pub [RunningSlope; 4]);

impl RewardStats {
    /// Empty statistics for reward form `form`.
    pub fn with_form(form: u8) -> RewardStats {
        RewardStats(Default::default(), form, Default::default())
    }

    /// The reward form asked for.
    pub fn form(&self) -> u8 {
        self.1
    }
}

/// The learned logits of `moves` (legal here, the game not over) for a game with move features
/// ([`Knowledge::feature_weights`]), divided by `temperature`: clears `out` and pushes one per
/// move, as [`Knowledge::move_logits`] does.
///
/// # Panics
/// If `G` has no move features.
pub fn learned_logits<G: Knowledge>(game: &G, moves: &[G::Move], temperature: f32, out: &mut Vec<f32>) {
    let cell = G::feature_weights().expect("a game with move features");
    let groups = cell.set().groups.len();
    let mut active = Vec::with_capacity(moves.len() * groups);
    game.move_features(moves, &mut active);
    let w = cell.get();
    out.clear();
    out.extend(active.chunks(groups).map(|a| w.logit(a) / temperature));
}
