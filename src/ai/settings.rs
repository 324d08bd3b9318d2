//! The search's settings and what it shares with its callers, apart from the search itself:
//! [`SearchConfig`] (its tuning, `--config NAME=VALUE`), [`SearchHandle`] (stop it, read its
//! progress from another thread) and [`Proof`] (what MCTS-Solver proved of the root). The tree
//! (`tree/`) and the threads around it ([`super::mcts`]) both read them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What the search proved of a position, for the seat to move there (MCTS-Solver, two seats).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The seat to move wins whatever the other does; the game ends within this many plies.
    Win(u16),
    /// The seat to move loses whatever it does; the game ends within this many plies (at most).
    Loss(u16),
}

/// Tuning of the search. `Default` is what the levels use (with one thread).
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// UCT exploration constant `c` in `c·√(ln N / (n+1))`.
    pub exploration: f32,
    /// RAVE bias: larger trusts the AMAF mean for fewer simulations.
    pub rave_bias: f32,
    /// Value of a child that has neither simulations nor AMAF statistics (first-play urgency).
    pub first_play_urgency: f32,
    /// Simulations through a leaf before its children are created (the root expands at once).
    pub expand_after: u32,
    /// Simulations added to `expand_after` per ply below the root (Pentobi: 0.5), so deep nodes,
    /// whose children cost the game's knowledge to create, expand later. `None`: the game's own
    /// ([`Knowledge::expand_growth`](crate::rules::Knowledge::expand_growth)).
    pub expand_growth: Option<f32>,
    /// Size limit of the node arenas, all threads together; once full, leaves stop expanding and the
    /// search goes on with playouts from them.
    pub max_nodes: usize,
    /// Seed of the playout generators: the same seed, position, threads and simulation budget give
    /// the same trees (thread `i` draws from `seed` mixed with `i`; thread 0 from `seed` itself).
    pub seed: u64,
    /// Use the game's knowledge: its playout policy ([`Knowledge::playout_move`](crate::rules::Knowledge::playout_move)), priors
    /// ([`Knowledge::move_priors`](crate::rules::Knowledge::move_priors)), pruning ([`Knowledge::search_moves`](crate::rules::Knowledge::search_moves)) and reward
    /// ([`Knowledge::reward`](crate::rules::Knowledge::reward)).
    /// Off: random playouts ([`Game::random_move`](crate::rules::Game::random_move)) over every legal move, scored by rank alone,
    /// the baseline that measures the knowledge.
    pub knowledge: bool,
    /// Search threads, at least 1 (one tree each; see the module doc). Always 1 in the browser.
    pub threads: usize,
    /// Weight `w` of the prior term `w · P · √N / (1 + n)` in selection (PUCT, as AlphaGo's and
    /// Pentobi's), where `P` is the move's share of `exp(sharpness · prior value)` among its
    /// siblings ([`Knowledge::move_priors`](crate::rules::Knowledge::move_priors)); 0 turns the term off. `None`: the game's own
    /// ([`Knowledge::policy_weight`](crate::rules::Knowledge::policy_weight)).
    pub policy_weight: Option<f32>,
    /// How sharply the prior values set `P` (see `policy_weight`).
    pub policy_sharpness: f32,
    /// MCTS-Solver in two-seat games (`ai::tree`); off only to measure what it is worth.
    pub solver: bool,
    /// Prior-led selection (`ai::tree`, §Prior-led): the constant `c` of the exploration term
    /// `c · P · √N · ln(N+1) / (n + prior_visits)`, with no uniform UCT term, for a game whose
    /// knowledge gives move probabilities. `None`: the game's own
    /// ([`Knowledge::prior_exploration`](crate::rules::Knowledge::prior_exploration)); a game without one keeps UCT + RAVE.
    pub prior_exploration: Option<f32>,
    /// With `knowledge`, play the playouts by the game's policy ([`Knowledge::playout_move`](crate::rules::Knowledge::playout_move));
    /// off, uniformly ([`Game::random_move`](crate::rules::Game::random_move)) with the rest of
    /// the knowledge kept: to screen a playout policy on its own.
    pub playout_policy: bool,
    /// Prior-led selection: the virtual simulations a new child starts with, at a value of the
    /// mover's running mean reward times `√(γ/γmax)` (Pentobi: 3).
    pub prior_visits: f32,
    /// Last-good-reply with forgetting in the playouts (`ai::reply`): 0 off, 1 replies to the
    /// last move, 2 also to the last two moves (Pentobi's LGRF-2). `None`: the game's own
    /// ([`Knowledge::last_good_reply`](crate::rules::Knowledge::last_good_reply)).
    pub last_good_reply: Option<u8>,
    /// Pentobi's values under prior-led selection (`ai::tree`): one mean per node over its
    /// simulations, its [`SearchConfig::prior_visits`] virtual ones and RAVE updates folded in
    /// with a weight (below), the exploration term divided by that *value count*; off, Silver's
    /// blend of separate RAVE statistics and a denominator of simulations + `prior_visits`.
    /// `None`: the game's own ([`Knowledge::folded_rave`](crate::rules::Knowledge::folded_rave)).
    pub folded_rave: Option<bool>,
    /// Folded RAVE: the weight of an update at distance 0, falling linearly to 0 at the end of
    /// the simulation (Pentobi: 0.7).
    pub rave_weight: f32,
    /// Folded RAVE: no updates below a node with more simulations than this (Pentobi: 50,000).
    pub rave_parent_max: f32,
    /// Folded RAVE: no updates to a child whose value count is over this (Pentobi: 2,000).
    pub rave_child_max: f32,
    /// After each move the running mean a prior-led child starts from is cut to this many
    /// simulations' worth, so that it follows the new root (Pentobi: 100); 0 keeps it whole.
    pub root_mean_cap: f32,
    /// Which form of the game's reward ([`RewardStats::form`](crate::rules::RewardStats)): 0 its
    /// own, 1 Pentobi's (Trigon: the result plus quality bonuses, not squeezed into `[0, 1]`), 2
    /// Pentobi's with the bonuses' weights estimated from the playouts (Trigon: control variates).
    /// `None`: the game's own ([`Knowledge::reward_form`](crate::rules::Knowledge::reward_form)).
    pub reward_form: Option<u8>,
    /// The move to play after the search: 0 the most simulated (ties by mean), 1 Pentobi's, the
    /// most weighted wins (mean × value count, the virtual and folded RAVE updates included; it
    /// lost its SPRT in Trigon, `rules/trigon/knowledge.rs`).
    pub final_move: u8,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            exploration: 0.25,
            rave_bias: 0.002,
            first_play_urgency: 1.0,
            expand_after: 2,
            expand_growth: None,
            max_nodes: 6_000_000,
            seed: 0x7121_b0a2d,
            knowledge: true,
            threads: 1,
            policy_weight: None,
            policy_sharpness: 10.0,
            solver: true,
            prior_exploration: None,
            prior_visits: 3.0,
            last_good_reply: None,
            playout_policy: true,
            folded_rave: None,
            rave_weight: 0.7,
            rave_parent_max: 50_000.0,
            rave_child_max: 2_000.0,
            root_mean_cap: 0.0,
            reward_form: None,
            final_move: 0,
        }
    }
}

impl SearchConfig {
    /// Sets a tunable by name (`exploration`, `rave_bias`, `first_play_urgency`, `expand_after`,
    /// `expand_growth`,
    /// `policy_weight`, `policy_sharpness`, `prior_exploration` (0: off), `prior_visits`,
    /// `last_good_reply` (0, 1 or 2), `playout_policy` (0: uniform playouts), `folded_rave` (1: on),
    /// `rave_weight`, `rave_parent_max`, `rave_child_max`, `root_mean_cap`, `reward_form`, `final_move`) from its text, for tuning matches (`triboard gtp
    /// --config NAME=VALUE`).
    ///
    /// # Errors
    /// An unknown name or a value that is not a finite number.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let number = value.parse::<f32>().ok().filter(|v| v.is_finite());
        let number = number.ok_or_else(|| format!("'{value}' is not a number for {name}"))?;
        match name {
            "exploration" => self.exploration = number,
            "rave_bias" => self.rave_bias = number,
            "first_play_urgency" => self.first_play_urgency = number,
            "expand_after" => self.expand_after = number.max(0.0) as u32,
            "expand_growth" => self.expand_growth = Some(number.max(0.0)),
            "policy_weight" => self.policy_weight = Some(number),
            "policy_sharpness" => self.policy_sharpness = number,
            "prior_exploration" => self.prior_exploration = Some(number),
            "prior_visits" => self.prior_visits = number.max(0.0),
            "playout_policy" => self.playout_policy = number != 0.0,
            "last_good_reply" => self.last_good_reply = Some(number.clamp(0.0, 2.0) as u8),
            "folded_rave" => self.folded_rave = Some(number != 0.0),
            "rave_weight" => self.rave_weight = number.max(0.0),
            "rave_parent_max" => self.rave_parent_max = number.max(0.0),
            "rave_child_max" => self.rave_child_max = number.max(0.0),
            "root_mean_cap" => self.root_mean_cap = number.max(0.0),
            "reward_form" => self.reward_form = Some(number.clamp(0.0, 2.0) as u8),
            "final_move" => self.final_move = number.clamp(0.0, 1.0) as u8,
            _ => {
                return Err(format!(
                    "'{name}' is not a search setting (exploration, rave_bias, first_play_urgency, expand_after, expand_growth, policy_weight, policy_sharpness, prior_exploration, prior_visits, last_good_reply, playout_policy, folded_rave, rave_weight, rave_parent_max, rave_child_max, root_mean_cap, reward_form, final_move)"
                ));
            }
        }
        Ok(())
    }
}

/// The threads this machine offers for a search: all its cores on the desktop, 1 in the browser.
pub fn available_threads() -> usize {
    if cfg!(target_arch = "wasm32") { 1 } else { std::thread::available_parallelism().map_or(1, |n| n.get()) }
}

/// A thread-safe view of a running search: stop it ("move now", or cancel) and read its progress.
#[derive(Clone, Debug)]
pub struct SearchHandle {
    stop: Arc<AtomicBool>,
    /// Simulations per tree.
    counts: Arc<[AtomicU64]>,
}

impl Default for SearchHandle {
    fn default() -> Self {
        SearchHandle::new(1)
    }
}

impl SearchHandle {
    pub(super) fn new(trees: usize) -> SearchHandle {
        SearchHandle { stop: Arc::default(), counts: (0..trees).map(|_| AtomicU64::new(0)).collect() }
    }
    /// Asks the search to stop after the simulation in progress. [`Mcts::step`](super::Mcts::step) and [`Mcts::run`](super::Mcts::run)
    /// then return at once until [`Mcts::resume`](super::Mcts::resume).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    /// Lets a stopped search run again ([`Mcts::resume`](super::Mcts::resume)).
    pub(super) fn clear_stop(&self) {
        self.stop.store(false, Ordering::Relaxed);
    }
    /// True once [`SearchHandle::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// Simulations done so far in the search's trees, all threads together (updated every few
    /// dozen simulations).
    pub fn simulations(&self) -> u64 {
        self.counts.iter().map(|c| c.load(Ordering::Relaxed)).sum()
    }
    /// Sets tree `slot`'s count.
    pub(crate) fn set(&self, slot: usize, n: u64) {
        self.counts[slot].store(n, Ordering::Relaxed);
    }
}

/// One move a search looked at, as it shows it: the move, its simulations (all threads together)
/// and its mean reward for the player who makes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStats<M> {
    /// The move.
    pub mv: M,
    /// Simulations through it.
    pub visits: u32,
    /// Mean reward for its mover, in `[0, 1]` (0 before any simulation).
    pub mean: f32,
}

/// What a search knows of one root move ([`Mcts::move_value`](super::Mcts::move_value)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveValue {
    /// Simulations through it, all threads together.
    pub visits: u64,
    /// Its value for the mover: 1 or 0 when proven, else its mean reward.
    pub value: f32,
    /// The solver proved it won or lost.
    pub proven: bool,
}
