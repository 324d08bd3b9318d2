//! Monte Carlo tree search generic over [`Knowledge`] (a [`Game`](crate::rules::Game) and what the search knows of it
//! beyond the rules): UCT with RAVE, rank-based backup for any number
//! of seats, a reused node arena, a seeded generator and an anytime interface.
//!
//! Every node stores the statistics of the move that leads to it, from the point of view of the seat
//! that played it (the *mover*), so multi-step turns (the same seat moving again) and 3–4 player
//! games need nothing special. The reward of a finished playout for a seat is its rank value
//! ([`crate::rules::Outcome::ranks`], in `[0, 1]`).
//!
//! RAVE (all-moves-as-first): a child's AMAF statistics count the playouts below its parent in which
//! its move (by [`Game::move_key`](crate::rules::Game::move_key)) was played later by the same seat. Selection blends the two means
//! with Silver's weight `β = ñ / (n + ñ + bias·n·ñ)` and adds a small UCT exploration term.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use web_time::Instant;

use super::levels::Budget;
use crate::rules::{Knowledge, Rng, rng_from_seed};

/// Tuning of the search. `Default` is what the levels use.
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
    /// Size limit of the node arena; once full, leaves stop expanding and the search goes on with
    /// playouts from them.
    pub max_nodes: usize,
    /// Seed of the playout generator: the same seed, position and simulation count give the same tree.
    pub seed: u64,
    /// Use the game's knowledge: its playout policy ([`Knowledge::playout_move`]), priors
    /// ([`Knowledge::move_priors`]), pruning ([`Knowledge::search_moves`]) and reward
    /// ([`Knowledge::reward`]).
    /// Off: random playouts ([`Game::random_move`](crate::rules::Game::random_move)) over every legal move, scored by rank alone,
    /// the baseline that measures the knowledge.
    pub knowledge: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            exploration: 0.25,
            rave_bias: 0.002,
            first_play_urgency: 1.0,
            expand_after: 2,
            max_nodes: 6_000_000,
            seed: 0x7121_b0a2d,
            knowledge: true,
        }
    }
}

/// A thread-safe view of a running search: stop it ("move now", or cancel) and read its progress.
#[derive(Clone, Debug, Default)]
pub struct SearchHandle {
    stop: Arc<AtomicBool>,
    simulations: Arc<AtomicU64>,
}

impl SearchHandle {
    /// Asks the search to stop after the simulation in progress. [`Mcts::step`] and [`Mcts::run`]
    /// then return at once until [`Mcts::resume`].
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    /// True once [`SearchHandle::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// Simulations done so far in this tree (updated every few dozen simulations).
    pub fn simulations(&self) -> u64 {
        self.simulations.load(Ordering::Relaxed)
    }
}

/// A node of the arena: the move leading here and its statistics for the seat that played it.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: M,
    /// The seat that played `mv`.
    mover: u8,
    /// Number of children, valid once `first_child != 0`.
    n_children: u16,
    /// Index of (mover, move key) in the AMAF marks of a simulation.
    amaf_index: u32,
    /// Index of the first child; 0 while unexpanded (index 0 is the root, never a child).
    first_child: u32,
    visits: u32,
    value: f32,
    amaf_visits: f32,
    amaf_value: f32,
    /// The RAVE blend `(1-β)·mean + β·AMAF mean` (or the first-play urgency), recomputed whenever
    /// the statistics change so that selection only adds the exploration term.
    blend: f32,
}

impl<M> Node<M> {
    /// Recomputes `blend` from the statistics.
    #[inline(always)]
    fn refresh(&mut self, rave_bias: f32, first_play_urgency: f32) {
        let n = self.visits as f32;
        let na = self.amaf_visits;
        self.blend = if self.visits == 0 && na == 0.0 {
            first_play_urgency
        } else if self.visits == 0 {
            self.amaf_value / na
        } else if na == 0.0 {
            self.value / n
        } else {
            let beta = na / (n + na + rave_bias * n * na);
            (1.0 - beta) * (self.value / n) + beta * (self.amaf_value / na)
        };
    }
}

/// How many simulations run between two looks at the stop flag and the clock.
const CHUNK: u64 = 64;

/// A search tree over positions of `G`, rooted at one position.
pub struct Mcts<G: Knowledge> {
    root: G,
    config: SearchConfig,
    nodes: Vec<Node<G::Move>>,
    rng: Rng,
    handle: SearchHandle,
    simulations: u64,
    // Scratch reused by every simulation, so a simulation allocates nothing once warmed up.
    moves: Vec<G::Move>,
    path: Vec<u32>,
    trace: Vec<(u8, u32)>,
    priors: Vec<(f32, f32)>,
    amaf_mark: Vec<u32>,
    stamp: u32,
}

impl<G: Knowledge> Mcts<G> {
    /// A new tree at `root`.
    pub fn new(root: &G, config: SearchConfig) -> Mcts<G> {
        let key_space = root.move_key_space() * root.num_players();
        let rng = rng_from_seed(config.seed);
        let mut m = Mcts {
            root: {
                let mut root = root.clone();
                root.warm_up();
                root
            },
            config,
            nodes: Vec::new(),
            rng,
            handle: SearchHandle::default(),
            simulations: 0,
            moves: Vec::new(),
            path: Vec::new(),
            trace: Vec::new(),
            priors: Vec::new(),
            amaf_mark: vec![0; key_space],
            stamp: 0,
        };
        m.reset_tree();
        m
    }

    fn reset_tree(&mut self) {
        self.nodes.clear();
        let dummy = self.root.clone();
        let mut buf = Vec::new();
        dummy.legal_moves(&mut buf);
        // The root's own move is never read; any move value will do, and a finished game has none
        // so the root then keeps no children.
        let placeholder = match buf.first() {
            Some(&m) => m,
            None => {
                // No legal move: keep an empty arena and answer `None` everywhere.
                self.simulations = 0;
                self.handle.simulations.store(0, Ordering::Relaxed);
                return;
            }
        };
        self.nodes.push(Node {
            mv: placeholder,
            mover: 0,
            n_children: 0,
            amaf_index: 0,
            first_child: 0,
            visits: 0,
            value: 0.0,
            amaf_visits: 0.0,
            amaf_value: 0.0,
            blend: 0.0,
        });
        self.simulations = 0;
        self.handle.simulations.store(0, Ordering::Relaxed);
    }

    /// The position at the root.
    pub fn root(&self) -> &G {
        &self.root
    }

    /// A handle to stop this search from another thread and to read its progress.
    pub fn handle(&self) -> SearchHandle {
        self.handle.clone()
    }

    /// Clears a stop request so the search can go on.
    pub fn resume(&self) {
        self.handle.stop.store(false, Ordering::Relaxed);
    }

    /// Simulations done in this tree (including those inherited through [`Mcts::advance`]).
    pub fn simulations(&self) -> u64 {
        self.simulations
    }

    /// Nodes in the arena.
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Runs up to `n` simulations; returns how many ran (fewer once stopped, none once over).
    pub fn step(&mut self, n: u64) -> u64 {
        if self.nodes.is_empty() {
            return 0;
        }
        let mut done = 0;
        while done < n {
            if self.handle.is_stopped() {
                break;
            }
            let chunk = CHUNK.min(n - done);
            for _ in 0..chunk {
                self.simulate();
            }
            done += chunk;
            self.simulations += chunk;
            self.handle.simulations.store(self.simulations, Ordering::Relaxed);
        }
        done
    }

    /// Runs until the tree holds `budget.simulations`, `budget.max_time` has passed, or the search
    /// is stopped. Returns the simulations run by this call.
    pub fn run(&mut self, budget: Budget) -> u64 {
        let start = Instant::now();
        let mut done = 0;
        while self.simulations < budget.simulations && start.elapsed() < budget.max_time {
            let ran = self.step(CHUNK.min(budget.simulations - self.simulations));
            if ran == 0 {
                break;
            }
            done += ran;
        }
        done
    }

    /// Runs for `duration` (or until stopped). Returns the simulations run.
    pub fn run_for(&mut self, duration: Duration) -> u64 {
        self.run(Budget { simulations: u64::MAX, max_time: duration })
    }

    /// Runs for at most `duration` of wall time (or until stopped), and stops earlier once the
    /// best move cannot change: when the most simulated root move leads the second by more
    /// simulations than the time left would run at the rate so far. Returns the simulations run.
    /// For an equal time per move against another engine (`triboard gtp --seconds`).
    pub fn run_settled(&mut self, duration: Duration) -> u64 {
        let start = Instant::now();
        let mut done = 0;
        while start.elapsed() < duration {
            let ran = self.step(CHUNK);
            if ran == 0 {
                break;
            }
            done += ran;
            let elapsed = start.elapsed().as_secs_f64().max(1e-6);
            let can_still_run = done as f64 / elapsed * (duration.as_secs_f64() - elapsed).max(0.0);
            let (first, second) = self.children(0).fold((0u32, 0u32), |(a, b), c| {
                let v = self.nodes[c as usize].visits;
                if v > a { (v, a) } else { (a, b.max(v)) }
            });
            if f64::from(first - second) > can_still_run {
                break;
            }
        }
        done
    }

    /// The most simulated move at the root, or `None` if the game is over.
    pub fn best_move(&self) -> Option<G::Move> {
        self.best_child(0).map(|c| self.nodes[c as usize].mv)
    }

    /// The expected rank value, in `[0, 1]`, of [`Mcts::best_move`] for the seat to move.
    pub fn win_rate(&self) -> Option<f32> {
        let c = &self.nodes[self.best_child(0)? as usize];
        (c.visits > 0).then(|| c.value / c.visits as f32)
    }

    /// The line the search expects: from the root, the most simulated child again and again.
    pub fn principal_variation(&self) -> Vec<G::Move> {
        let mut pv = Vec::new();
        let mut node = 0;
        while let Some(c) = self.best_child(node) {
            if self.nodes[c as usize].visits == 0 {
                break;
            }
            pv.push(self.nodes[c as usize].mv);
            node = c;
        }
        pv
    }

    /// The root's children: move, simulations and mean rank value for the mover.
    pub fn root_children(&self) -> Vec<(G::Move, u32, f32)> {
        self.children(0)
            .map(|c| {
                let n = &self.nodes[c as usize];
                (n.mv, n.visits, if n.visits > 0 { n.value / n.visits as f32 } else { 0.0 })
            })
            .collect()
    }

    /// Plays `mv` at the root and keeps the subtree below it (tree reuse). `mv` must be legal at
    /// the root.
    pub fn advance(&mut self, mv: G::Move) {
        self.root.play_unchecked(mv);
        self.root.warm_up();
        let child = self.children(0).find(|&c| self.nodes[c as usize].mv == mv);
        match child {
            Some(c) if self.nodes[c as usize].first_child != 0 => {
                let visits = self.nodes[c as usize].visits as u64;
                self.compact_from(c);
                self.simulations = visits;
                self.handle.simulations.store(visits, Ordering::Relaxed);
            }
            _ => self.reset_tree(),
        }
    }

    /// Rebuilds the arena with node `new_root`'s subtree only, breadth first.
    fn compact_from(&mut self, new_root: u32) {
        let old = std::mem::take(&mut self.nodes);
        let mut nodes = Vec::with_capacity(old.len());
        nodes.push(old[new_root as usize]);
        let mut i = 0;
        while i < nodes.len() {
            let n = nodes[i];
            if n.first_child != 0 {
                let first = nodes.len() as u32;
                for c in n.first_child..n.first_child + n.n_children as u32 {
                    nodes.push(old[c as usize]);
                }
                nodes[i].first_child = first;
            }
            i += 1;
        }
        self.nodes = nodes;
    }

    fn children(&self, node: u32) -> std::ops::Range<u32> {
        match self.nodes.get(node as usize) {
            Some(n) if n.first_child != 0 => n.first_child..n.first_child + n.n_children as u32,
            _ => 0..0,
        }
    }

    fn best_child(&self, node: u32) -> Option<u32> {
        let key = |&c: &u32| {
            let n = &self.nodes[c as usize];
            let mean = if n.visits > 0 { n.value / n.visits as f32 } else { 0.0 };
            (n.visits, mean)
        };
        self.children(node).max_by(|a, b| key(a).partial_cmp(&key(b)).unwrap_or(std::cmp::Ordering::Equal))
    }

    /// One simulation: select down the tree, maybe expand, play out, back up with RAVE.
    fn simulate(&mut self) {
        let mut state = self.root.clone();
        self.path.clear();
        self.trace.clear();
        self.path.push(0);
        let mut node = 0u32;
        while let Some(player) = state.to_move() {
            if self.nodes[node as usize].first_child == 0 {
                let visits = self.nodes[node as usize].visits;
                if (node != 0 && visits < self.config.expand_after) || !self.expand(node, &state, player.0) {
                    break;
                }
            }
            node = self.select(node);
            let mv = self.nodes[node as usize].mv;
            self.trace.push((player.0, state.move_key(mv) as u32));
            state.play_unchecked(mv);
            self.path.push(node);
        }
        while let Some(player) = state.to_move() {
            let next = if self.config.knowledge {
                state.playout_move(&mut self.rng, &mut self.moves)
            } else {
                state.random_move(&mut self.rng, &mut self.moves)
            };
            let Some(mv) = next else { break };
            self.trace.push((player.0, state.move_key(mv) as u32));
            state.play_unchecked(mv);
        }
        let outcome = state.outcome().expect("a game with no seat to move is over");
        let reward = if self.config.knowledge { state.reward(&outcome) } else { outcome.ranks };
        self.backup(&reward);
    }

    /// Creates the children of `node` (whose position is `state`, `mover` to move). False if the
    /// arena is full.
    fn expand(&mut self, node: u32, state: &G, mover: u8) -> bool {
        if self.config.knowledge {
            state.search_moves(&mut self.moves);
            state.move_priors(&self.moves, &mut self.priors);
        } else {
            state.legal_moves(&mut self.moves);
            self.priors.clear();
            self.priors.resize(self.moves.len(), (0.0, 0.0));
        }
        if self.nodes.len() + self.moves.len() > self.config.max_nodes || self.moves.is_empty() {
            return false;
        }
        assert!(self.moves.len() <= u16::MAX as usize, "more legal moves than a node can hold");
        let keys = self.root.move_key_space();
        let first = self.nodes.len() as u32;
        for (&mv, &(value, weight)) in self.moves.iter().zip(&self.priors) {
            let (amaf_visits, amaf_value) = (weight, value * weight);
            let mut child = Node {
                mv,
                mover,
                n_children: 0,
                amaf_index: (mover as usize * keys + state.move_key(mv)) as u32,
                first_child: 0,
                visits: 0,
                value: 0.0,
                amaf_visits,
                amaf_value,
                blend: 0.0,
            };
            child.refresh(self.config.rave_bias, self.config.first_play_urgency);
            self.nodes.push(child);
        }
        let n = &mut self.nodes[node as usize];
        n.first_child = first;
        n.n_children = self.moves.len() as u16;
        true
    }

    /// The child of `node` with the best blend of mean, AMAF mean and exploration.
    fn select(&self, node: u32) -> u32 {
        let parent_visits = self.nodes[node as usize].visits.max(1) as f32;
        // c·√(ln N / (n+1)) = (c·√ln N) · (1/√(n+1)), the second factor from a table.
        let c_sqrt_log_n = self.config.exploration * parent_visits.ln().sqrt();
        let inv_sqrt = inv_sqrt_table();
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        for i in self.children(node) {
            let ch = &self.nodes[i as usize];
            let inv = match inv_sqrt.get(ch.visits as usize) {
                Some(&x) => x,
                None => 1.0 / (ch.visits as f32 + 1.0).sqrt(),
            };
            let score = ch.blend + c_sqrt_log_n * inv;
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }

    /// Adds the playout's rank values along the path, and to the AMAF statistics of the siblings
    /// whose move the same seat played later in the simulation.
    fn backup(&mut self, ranks: &[f32]) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.amaf_mark.fill(0);
            self.stamp = 1;
        }
        let keys = self.root.move_key_space();
        self.nodes[0].visits += 1;
        // Walk the moves backwards: after marking move i, the marks hold every (seat, move) from
        // ply i to the end, which is what the children of path[i] compare against.
        for i in (0..self.trace.len()).rev() {
            let (seat, key) = self.trace[i];
            self.amaf_mark[seat as usize * keys + key as usize] = self.stamp;
            if i + 1 < self.path.len() {
                let child = self.path[i + 1] as usize;
                let (bias, fpu) = (self.config.rave_bias, self.config.first_play_urgency);
                let n = &mut self.nodes[child];
                n.visits += 1;
                n.value += ranks[n.mover as usize];
                n.refresh(bias, fpu);
                let parent = self.path[i];
                for c in self.children(parent) {
                    let ch = &self.nodes[c as usize];
                    if self.amaf_mark[ch.amaf_index as usize] == self.stamp {
                        let reward = ranks[ch.mover as usize];
                        let ch = &mut self.nodes[c as usize];
                        ch.amaf_visits += 1.0;
                        ch.amaf_value += reward;
                        ch.refresh(bias, fpu);
                    }
                }
            }
        }
    }
}

/// `1/√(n+1)` for small `n`, the exploration term's per-child factor.
fn inv_sqrt_table() -> &'static [f32; 4096] {
    static TABLE: std::sync::OnceLock<[f32; 4096]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| std::array::from_fn(|n| 1.0 / ((n + 1) as f32).sqrt()))
}

/// Searches `state` with `level`'s budget and returns the best move (`None` once the game is over).
pub fn choose_move<G: Knowledge>(state: &G, budget: Budget, seed: u64) -> Option<G::Move> {
    let mut search = Mcts::new(state, SearchConfig { seed, ..SearchConfig::default() });
    search.run(budget);
    search.best_move()
}
