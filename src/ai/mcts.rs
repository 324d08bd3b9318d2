//! The search the app and the CLI use: Monte Carlo tree search ([`super::tree`]: UCT with RAVE,
//! rank-based backup, MCTS-Solver) on one or more threads, with tree reuse and an anytime
//! interface.
//!
//! **Threads: root parallelization** (Chaslot, Winands and van den Herik 2008, "Parallel
//! Monte-Carlo Tree Search"): each thread grows its own tree from the same root with its own seed,
//! and the root moves' simulations, rewards and proofs are summed over the trees when a move is
//! chosen. The trees share nothing while they search, so the threads never wait for each other and
//! simulations per second grow with the cores; the price is that deeper nodes are explored once per
//! tree. (Tree parallelism with virtual loss would share the deep nodes but needs atomic statistics
//! and a lock or atomics for expansion in the node arena; measured numbers for what is built are in
//! README §AI.) In the browser there is one thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use web_time::Instant;

use super::levels::Budget;
pub use super::tree::Proof;
use super::tree::{CHUNK, RootChild, Tree, choose};
use crate::rules::Knowledge;

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
    /// ([`Knowledge::expand_growth`]).
    pub expand_growth: Option<f32>,
    /// Size limit of the node arenas, all threads together; once full, leaves stop expanding and the
    /// search goes on with playouts from them.
    pub max_nodes: usize,
    /// Seed of the playout generators: the same seed, position, threads and simulation budget give
    /// the same trees (thread `i` draws from `seed` mixed with `i`; thread 0 from `seed` itself).
    pub seed: u64,
    /// Use the game's knowledge: its playout policy ([`Knowledge::playout_move`]), priors
    /// ([`Knowledge::move_priors`]), pruning ([`Knowledge::search_moves`]) and reward
    /// ([`Knowledge::reward`]).
    /// Off: random playouts ([`Game::random_move`](crate::rules::Game::random_move)) over every legal move, scored by rank alone,
    /// the baseline that measures the knowledge.
    pub knowledge: bool,
    /// Search threads, at least 1 (one tree each; see the module doc). Always 1 in the browser.
    pub threads: usize,
    /// Weight `w` of the prior term `w · P · √N / (1 + n)` in selection (PUCT, as AlphaGo's and
    /// Pentobi's), where `P` is the move's share of `exp(sharpness · prior value)` among its
    /// siblings ([`Knowledge::move_priors`]); 0 turns the term off. `None`: the game's own
    /// ([`Knowledge::policy_weight`]).
    pub policy_weight: Option<f32>,
    /// How sharply the prior values set `P` (see `policy_weight`).
    pub policy_sharpness: f32,
    /// MCTS-Solver in two-seat games (`ai::tree`); off only to measure what it is worth.
    pub solver: bool,
    /// Prior-led selection (`ai::tree`, §Prior-led): the constant `c` of the exploration term
    /// `c · P · √N · ln(N+1) / (n + prior_visits)`, with no uniform UCT term, for a game whose
    /// knowledge gives move probabilities. `None`: the game's own
    /// ([`Knowledge::prior_exploration`]); a game without one keeps UCT + RAVE.
    pub prior_exploration: Option<f32>,
    /// With `knowledge`, play the playouts by the game's policy ([`Knowledge::playout_move`]);
    /// off, uniformly ([`Game::random_move`](crate::rules::Game::random_move)) with the rest of
    /// the knowledge kept: to screen a playout policy on its own.
    pub playout_policy: bool,
    /// Prior-led selection: the virtual simulations a new child starts with, at a value of the
    /// mover's running mean reward times `√(γ/γmax)` (Pentobi: 3).
    pub prior_visits: f32,
    /// Last-good-reply with forgetting in the playouts (`ai::reply`): 0 off, 1 replies to the
    /// last move, 2 also to the last two moves (Pentobi's LGRF-2). `None`: the game's own
    /// ([`Knowledge::last_good_reply`]).
    pub last_good_reply: Option<u8>,
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
        }
    }
}

impl SearchConfig {
    /// Sets a tunable by name (`exploration`, `rave_bias`, `first_play_urgency`, `expand_after`,
    /// `expand_growth`,
    /// `policy_weight`, `policy_sharpness`, `prior_exploration` (0: off), `prior_visits`,
    /// `last_good_reply` (0, 1 or 2), `playout_policy` (0: uniform playouts)) from its text, for tuning matches (`triboard gtp
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
            _ => {
                return Err(format!(
                    "'{name}' is not a search setting (exploration, rave_bias, first_play_urgency, expand_after, expand_growth, policy_weight, policy_sharpness, prior_exploration, prior_visits, last_good_reply, playout_policy)"
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
    fn new(trees: usize) -> SearchHandle {
        SearchHandle { stop: Arc::default(), counts: (0..trees).map(|_| AtomicU64::new(0)).collect() }
    }
    /// Asks the search to stop after the simulation in progress. [`Mcts::step`] and [`Mcts::run`]
    /// then return at once until [`Mcts::resume`].
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
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

/// A search over positions of `G` rooted at one position, on [`SearchConfig::threads`] threads.
pub struct Mcts<G: Knowledge> {
    trees: Vec<Tree<G>>,
    handle: SearchHandle,
}

impl<G: Knowledge> Mcts<G> {
    /// A new search at `root`.
    pub fn new(root: &G, config: SearchConfig) -> Mcts<G> {
        let threads = if cfg!(target_arch = "wasm32") { 1 } else { config.threads.max(1) };
        let handle = SearchHandle::new(threads);
        let trees = (0..threads)
            .map(|i| {
                let config = SearchConfig {
                    seed: config.seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                    max_nodes: config.max_nodes / threads,
                    ..config.clone()
                };
                Tree::new(root, config, handle.clone(), i)
            })
            .collect();
        Mcts { trees, handle }
    }

    /// The position at the root.
    pub fn root(&self) -> &G {
        self.trees[0].root()
    }

    /// The number of threads (trees) the search runs on.
    pub fn threads(&self) -> usize {
        self.trees.len()
    }

    /// A handle to stop this search from another thread and to read its progress.
    pub fn handle(&self) -> SearchHandle {
        self.handle.clone()
    }

    /// Clears a stop request so the search can go on.
    pub fn resume(&self) {
        self.handle.stop.store(false, Ordering::Relaxed);
    }

    /// Simulations done in this search's trees (including those inherited through
    /// [`Mcts::advance`]).
    pub fn simulations(&self) -> u64 {
        self.trees.iter().map(Tree::simulations).sum()
    }

    /// Nodes in the arenas.
    pub fn tree_size(&self) -> usize {
        self.trees.iter().map(Tree::tree_size).sum()
    }

    /// Runs `work` on every tree, one thread each (the caller's thread takes the first); returns
    /// the sum of what each returned.
    fn on_every_tree(&mut self, work: impl Fn(&mut Tree<G>) -> u64 + Sync) -> u64 {
        match self.trees.as_mut_slice() {
            [one] => work(one),
            [first, rest @ ..] => std::thread::scope(|s| {
                let others: Vec<_> = rest.iter_mut().map(|t| s.spawn(|| work(t))).collect();
                let mine = work(first);
                mine + others.into_iter().map(|h| h.join().expect("a search thread panicked")).sum::<u64>()
            }),
            [] => 0,
        }
    }

    /// Runs up to `n` simulations, shared among the threads; returns how many ran (fewer once
    /// stopped or the root is proven, none once the game is over).
    pub fn step(&mut self, n: u64) -> u64 {
        let per_tree = n.div_ceil(self.trees.len() as u64);
        self.on_every_tree(|t| t.step(per_tree))
    }

    /// Runs until the trees hold `budget.simulations` together (each its share), `budget.max_time`
    /// has passed, the root is proven, or the search is stopped. Returns the simulations run by
    /// this call.
    pub fn run(&mut self, budget: Budget) -> u64 {
        let deadline = deadline_after(budget.max_time);
        let per_tree = budget.simulations.div_ceil(self.trees.len() as u64);
        self.on_every_tree(|t| t.run_until(per_tree, deadline))
    }

    /// Runs for `duration` (or until stopped or proven). Returns the simulations run.
    pub fn run_for(&mut self, duration: Duration) -> u64 {
        self.run(Budget { simulations: u64::MAX, max_time: duration })
    }

    /// Runs for at most `duration` of wall time (or until stopped or proven), and stops earlier
    /// once the best move cannot change: when the most simulated root move leads the second by more
    /// simulations than the time left would run at the rate so far. Returns the simulations run.
    /// For an equal time per move against another engine (`triboard gtp --seconds`).
    pub fn run_settled(&mut self, duration: Duration) -> u64 {
        let start = Instant::now();
        let deadline = deadline_after(duration);
        // With several threads the trees are merged between rounds of a twentieth of the time.
        let round = if self.trees.len() == 1 { Duration::MAX } else { (duration / 20).max(Duration::from_millis(5)) };
        let mut done = 0;
        while Instant::now() < deadline && self.proof().is_none() {
            let until = deadline_after(round).min(deadline);
            let ran = if self.trees.len() == 1 {
                self.trees[0].step(CHUNK)
            } else {
                self.on_every_tree(|t| t.run_until(u64::MAX, until))
            };
            if ran == 0 {
                break;
            }
            done += ran;
            let elapsed = start.elapsed().as_secs_f64().max(1e-6);
            let can_still_run = done as f64 / elapsed * (duration.as_secs_f64() - elapsed).max(0.0);
            let (first, second) = self
                .root_stats()
                .iter()
                .fold((0u64, 0u64), |(a, b), c| if c.visits > a { (c.visits, a) } else { (a, b.max(c.visits)) });
            if (first - second) as f64 > can_still_run {
                break;
            }
        }
        done
    }

    /// The root moves' statistics summed over the trees, in the order of the first tree.
    fn root_stats(&self) -> Vec<RootChild<G::Move>> {
        merge(self.trees.iter().map(Tree::root_children))
    }

    /// The replies below root move `mv`: move, simulations and mean reward for their mover, all
    /// threads together (empty while `mv` has none). After [`Mcts::advance`]`(mv)` they are the
    /// new root's [`Mcts::root_children`].
    pub fn replies(&self, mv: G::Move) -> Vec<(G::Move, u32, f32)> {
        summary(&merge(self.trees.iter().map(|t| t.replies(mv))))
    }

    /// Root move `mv`'s simulations (all threads), its value for the mover (1 or 0 when proven,
    /// else its mean reward) and whether it is proven; `None` if `mv` is not a root move the
    /// search has.
    pub fn move_value(&self, mv: G::Move) -> Option<(u64, f32, bool)> {
        let stats = self.root_stats();
        let c = stats.iter().find(|c| c.mv == mv)?;
        Some((c.visits, value(c).unwrap_or(0.0), c.proof != 0))
    }

    /// The move to play: a proven win at once (the shortest), else the most simulated move not
    /// proven lost, else the proven loss that lasts longest; `None` if the game is over.
    pub fn best_move(&self) -> Option<G::Move> {
        choose(&self.root_stats()).map(|c| c.mv)
    }

    /// The expected reward, in `[0, 1]`, of [`Mcts::best_move`] for the seat to move (1 or 0 when
    /// proven).
    pub fn win_rate(&self) -> Option<f32> {
        choose(&self.root_stats()).and_then(value)
    }

    /// What the solver proved of the root for the seat to move, by any thread: a proven winning
    /// move makes a win, every move proven lost a loss. `None` while unproven (and always in games
    /// of more than two seats).
    pub fn proof(&self) -> Option<Proof> {
        if let Some(p) = self.trees.iter().find_map(Tree::proof) {
            return Some(p);
        }
        let stats = self.root_stats();
        if let Some(win) = stats.iter().filter(|c| c.proof > 0).min_by_key(|c| c.depth) {
            return Some(Proof::Win(win.depth + 1));
        }
        None
    }

    /// The line the search expects: [`Mcts::best_move`], then the replies the tree that searched it
    /// most would choose.
    pub fn principal_variation(&self) -> Vec<G::Move> {
        let Some(best) = self.best_move() else { return Vec::new() };
        let tree = self
            .trees
            .iter()
            .max_by_key(|t| t.root_children().iter().find(|c| c.mv == best).map_or(0, |c| c.visits))
            .expect("a search has a tree");
        tree.principal_variation_after(best)
    }

    /// The root's moves: move, simulations and mean reward for the mover, all threads together.
    pub fn root_children(&self) -> Vec<(G::Move, u32, f32)> {
        summary(&self.root_stats())
    }

    /// Plays `mv` at the root and keeps the subtree below it in every tree (tree reuse). `mv` must
    /// be legal at the root.
    pub fn advance(&mut self, mv: G::Move) {
        for t in &mut self.trees {
            t.advance(mv);
        }
    }
}

/// Per-tree lists of the same position's moves summed into one, in the order of the first list;
/// a proof found by any tree holds for all.
fn merge<M: Copy + PartialEq>(mut lists: impl Iterator<Item = Vec<RootChild<M>>>) -> Vec<RootChild<M>> {
    let mut merged = lists.next().unwrap_or_default();
    for list in lists {
        for c in list {
            if let Some(m) = merged.iter_mut().find(|m| m.mv == c.mv) {
                m.visits += c.visits;
                m.value += c.value;
                if c.proof != 0 && m.proof == 0 {
                    (m.proof, m.depth) = (c.proof, c.depth);
                }
            } else {
                merged.push(c);
            }
        }
    }
    merged
}

/// A root move's value for its mover: 1 or 0 when proven, else its mean reward; `None` while it
/// has neither a proof nor a simulation.
fn value<M>(c: &RootChild<M>) -> Option<f32> {
    match c.proof {
        1 => Some(1.0),
        -1 => Some(0.0),
        _ => (c.visits > 0).then(|| (c.value / c.visits as f64) as f32),
    }
}

/// Move, simulations and mean reward of merged statistics.
fn summary<M: Copy>(stats: &[RootChild<M>]) -> Vec<(M, u32, f32)> {
    stats
        .iter()
        .map(|c| {
            let mean = if c.visits > 0 { (c.value / c.visits as f64) as f32 } else { 0.0 };
            (c.mv, c.visits.min(u32::MAX as u64) as u32, mean)
        })
        .collect()
}

/// The instant `d` from now, or far in the future for a huge `d`.
fn deadline_after(d: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(d).unwrap_or_else(|| now + Duration::from_secs(86_400 * 365))
}

/// Searches `state` with `budget` on one thread and returns the best move (`None` once the game
/// is over).
pub fn choose_move<G: Knowledge>(state: &G, budget: Budget, seed: u64) -> Option<G::Move> {
    let mut search = Mcts::new(state, SearchConfig { seed, ..SearchConfig::default() });
    search.run(budget);
    search.best_move()
}
