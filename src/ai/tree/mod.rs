//! One Monte Carlo search tree, generic over [`Knowledge`] (a [`Game`](crate::rules::Game) and what the
//! search knows of it beyond the rules): UCT with RAVE, rank-based backup for any number of seats,
//! MCTS-Solver in two-player games, a reused node arena, a seeded generator. [`super::Mcts`] runs one
//! of these per thread (root parallelization) and merges their root statistics.
//!
//! Every node stores the statistics of the move that leads to it, from the point of view of the seat
//! that played it (the *mover*), so multi-step turns (the same seat moving again) and 3–4 player
//! games need nothing special. The reward of a finished playout for a seat is its rank value
//! ([`crate::rules::Outcome::ranks`], in `[0, 1]`).
//!
//! RAVE (all-moves-as-first): a child's AMAF statistics count the playouts below its parent in which
//! its move (by [`Game::move_key`](crate::rules::Game::move_key)) was played later by the same seat. Selection blends the two means
//! with Silver's weight `β = ñ / (n + ñ + bias·n·ñ)` and adds a small UCT exploration term.
//!
//! MCTS-Solver (Winands, Björnsson and Saito 2008), two seats only: a node whose move ends the game
//! is *proven* (a win or a loss for its mover, a tie stays unproven); a position where the seat to
//! move has a proven winning move is a win for it, one where every legal move is a proven loss is a
//! loss; the proofs climb the tree after every simulation. Selection never enters a proven loss
//! while an unproven move remains, a simulation that reaches a proven node backs up its proven value
//! without a playout, and [`Tree::best_move`] plays a proven win at once and a proven loss only when
//! every move is one. Where the game's knowledge prunes moves ([`Knowledge::search_moves`]), a
//! position whose searched moves are all proven losses is widened to every legal move before it is
//! called lost.

use web_time::Instant;

mod backup;

use super::endgame::Endgame;
use super::reply::{Replies, stored_reply};
use super::settings::{Proof, SearchConfig, SearchHandle};
use crate::rules::{Knowledge, MAX_PLAYERS, RewardStats, Rng, rng_from_seed};

/// A node of the arena: the move leading here and its statistics for the seat that played it.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: M,
    /// The seat that played `mv`.
    mover: u8,
    /// MCTS-Solver: 1 when `mv` is a proven win for its mover, -1 a proven loss, 0 unproven.
    proof: i8,
    /// Plies from the position after `mv` to the end of the game under the proof (0: `mv` ends it).
    depth: u16,
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
    /// The move's policy prior times [`SearchConfig::policy_weight`] (0 without one).
    policy: f32,
}

/// How a node's statistics make its `blend`: the RAVE bias and first-play urgency of Silver's
/// blend, or Pentobi's single folded mean ([`SearchConfig::folded_rave`]).
#[derive(Clone, Copy, Debug)]
struct Blend {
    rave_bias: f32,
    first_play_urgency: f32,
    folded: bool,
}

impl<M> Node<M> {
    /// Recomputes `blend` from the statistics.
    #[inline(always)]
    fn refresh(&mut self, how: Blend) {
        let Blend { rave_bias, first_play_urgency, folded } = how;
        let n = self.visits as f32;
        let na = self.amaf_visits;
        self.blend = if folded {
            // One mean over the simulations, the virtual ones and the weighted RAVE updates.
            let count = n + na;
            if count > 0.0 { (self.value + self.amaf_value) / count } else { first_play_urgency }
        } else if self.visits == 0 && na == 0.0 {
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

/// New nodes with at most this many children have each child's position checked for the end of the
/// game (MCTS-Solver); wider ones (Trigon's) only through simulations.
const TERMINAL_CHECK_MOVES: usize = 64;

/// How many simulations run between two looks at the stop flag and the clock.
pub(crate) const CHUNK: u64 = 64;

/// One root move's merged statistics: the move, its simulations, the sum of its rewards for the
/// mover, its weighted wins (Pentobi's mean × value count: the rewards with the virtual and the
/// folded RAVE ones; the rewards alone otherwise), and its proof (`1` won for the mover, `-1`
/// lost, `0` unproven) with the plies after it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RootChild<M> {
    pub mv: M,
    pub visits: u64,
    pub value: f64,
    pub wins: f64,
    pub proof: i8,
    pub depth: u16,
}

/// Picks the move to play among merged root children: a proven win (the shortest), else the most
/// simulated move not proven lost (ties by mean), else the proven loss that lasts longest.
pub(crate) fn choose<M: Copy>(children: &[RootChild<M>]) -> Option<&RootChild<M>> {
    choose_by(children, false)
}

/// [`choose`], the open moves ranked by their weighted wins instead of their simulations when
/// `by_wins` (Pentobi's final choice, [`SearchConfig::final_move`]).
pub(crate) fn choose_by<M: Copy>(children: &[RootChild<M>], by_wins: bool) -> Option<&RootChild<M>> {
    let mean = |c: &RootChild<M>| if c.visits > 0 { c.value / c.visits as f64 } else { 0.0 };
    if let Some(win) = children.iter().filter(|c| c.proof > 0).min_by_key(|c| c.depth) {
        return Some(win);
    }
    let key = |c: &RootChild<M>| if by_wins { (c.wins, c.visits as f64) } else { (c.visits as f64, mean(c)) };
    let open = children.iter().filter(|c| c.proof == 0);
    if let Some(best) = open.max_by(|a, b| key(a).partial_cmp(&key(b)).unwrap_or(std::cmp::Ordering::Equal)) {
        return Some(best);
    }
    children.iter().max_by_key(|c| c.depth)
}

/// A search tree over positions of `G`, rooted at one position (see the module doc).
pub(crate) struct Tree<G: Knowledge> {
    root: G,
    config: SearchConfig,
    /// MCTS-Solver on: exactly two seats.
    solver: bool,
    /// The PUCT weight in force ([`SearchConfig::policy_weight`]; 0 under prior-led selection).
    policy_weight: f32,
    /// Prior-led selection's constant `c` ([`SearchConfig::prior_exploration`]), if in force.
    prior_led: Option<f32>,
    /// Simulations added per ply to [`SearchConfig::expand_after`] ([`SearchConfig::expand_growth`]).
    expand_growth: f32,
    /// Pentobi's folded values ([`SearchConfig::folded_rave`]), under prior-led selection only.
    folded: bool,
    /// Per seat, the sum of its rewards over this tree's simulations, and their number: the
    /// running mean a prior-led child's first value is scaled from.
    seat_value: [f64; MAX_PLAYERS],
    seat_count: f64,
    /// Pentobi's RAVE: the played ply's AMAF marks are set after its node's children are updated
    /// (the played child is not counted), and the ply each mark was first set at, for the distance
    /// weight.
    amaf_first: Vec<u32>,
    /// The running statistics of the game's reward ([`Knowledge::reward_with`]), from the
    /// current root's search on.
    reward_stats: RewardStats,
    /// The root position's proof, for the seat to move there.
    root_proof: Option<Proof>,
    nodes: Vec<Node<G::Move>>,
    /// The arena before the last [`Tree::advance`], kept for the next one: its pages are
    /// already mapped, so a kept tree is rebuilt without page faults.
    spare: Vec<Node<G::Move>>,
    rng: Rng,
    handle: SearchHandle,
    /// This tree's counter in `handle`.
    slot: usize,
    simulations: u64,
    // Scratch reused by every simulation, so a simulation allocates nothing once warmed up.
    moves: Vec<G::Move>,
    path: Vec<u32>,
    trace: Vec<(u8, u32)>,
    priors: Vec<(f32, f32)>,
    /// The PUCT logits of the node being expanded (a reused buffer).
    logits: Vec<f32>,
    amaf_mark: Vec<u32>,
    stamp: u32,
    /// The endgame solver of small roots ([`super::endgame`]).
    endgame: Endgame<G>,
    /// Last-good-reply with forgetting ([`super::reply`]), if in force.
    replies: Option<Replies<G::Move>>,
    /// The simulation's moves, ply by ply as `trace`, while `replies` is in force.
    played: Vec<G::Move>,
}

impl<G: Knowledge> Tree<G> {
    /// A new tree at `root` (warmed up: [`Knowledge::warm_up`]) whose progress goes to counter
    /// `slot` of `handle`.
    pub fn new(root: &G, config: SearchConfig, handle: SearchHandle, slot: usize) -> Tree<G> {
        let key_space = root.move_key_space() * root.num_players();
        let rng = rng_from_seed(config.seed);
        let seed = config.seed;
        let mut root = root.clone();
        root.warm_up();
        let prior_led = if config.knowledge {
            config.prior_exploration.or_else(|| root.prior_exploration()).filter(|&c| c > 0.0)
        } else {
            None
        };
        let policy_weight = match (config.knowledge, prior_led) {
            (true, None) => config.policy_weight.unwrap_or(root.policy_weight()),
            _ => 0.0,
        };
        let expand_growth = if config.knowledge {
            config.expand_growth.unwrap_or_else(|| root.expand_growth())
        } else {
            config.expand_growth.unwrap_or(0.0)
        };
        let reply_depth = if config.knowledge {
            config.last_good_reply.unwrap_or_else(|| root.last_good_reply())
        } else {
            config.last_good_reply.unwrap_or(0)
        };
        // The table needs a move to fill its empty entries: only then are the legal moves listed.
        let replies = (reply_depth > 0)
            .then(|| {
                let mut buf = Vec::new();
                root.legal_moves(&mut buf);
                buf.first().map(|&filler| Replies::new(reply_depth, root.move_key_space(), filler))
            })
            .flatten();
        let reward_form = config.reward_form.unwrap_or_else(|| root.reward_form());
        let folded = prior_led.is_some() && config.folded_rave.unwrap_or_else(|| root.folded_rave());
        let mut m = Tree {
            folded,
            replies,
            played: Vec::new(),
            expand_growth,
            prior_led,
            seat_value: [0.0; MAX_PLAYERS],
            seat_count: 0.0,
            reward_stats: RewardStats::with_form(reward_form),
            solver: config.solver && root.num_players() == 2,
            policy_weight,
            root,
            config,
            root_proof: None,
            nodes: Vec::new(),
            spare: Vec::new(),
            rng,
            handle,
            slot,
            simulations: 0,
            moves: Vec::new(),
            path: Vec::new(),
            trace: Vec::new(),
            priors: Vec::new(),
            logits: Vec::new(),
            amaf_mark: vec![0; key_space],
            amaf_first: vec![0; key_space],
            stamp: 0,
            endgame: Endgame::new(seed),
        };
        m.reset_tree();
        m
    }

    fn set_simulations(&mut self, n: u64) {
        self.simulations = n;
        self.handle.set(self.slot, n);
    }

    fn reset_tree(&mut self) {
        self.nodes.clear();
        self.root_proof = None;
        self.set_simulations(0);
        let mut buf = Vec::new();
        self.root.legal_moves(&mut buf);
        // The root's own move is never read; any move value will do, and a finished game has none
        // so the arena stays empty and every question is answered with `None`.
        if let Some(&placeholder) = buf.first() {
            self.nodes.push(Node {
                mv: placeholder,
                mover: 0,
                proof: 0,
                depth: 0,
                n_children: 0,
                amaf_index: 0,
                first_child: 0,
                visits: 0,
                value: 0.0,
                amaf_visits: 0.0,
                amaf_value: 0.0,
                blend: 0.0,
                policy: 0.0,
            });
        }
    }

    pub fn root(&self) -> &G {
        &self.root
    }

    pub fn simulations(&self) -> u64 {
        self.simulations
    }

    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// The root's proof, if the solver found one.
    pub fn proof(&self) -> Option<Proof> {
        self.root_proof
    }

    /// Runs up to `n` simulations; returns how many ran (fewer once stopped or the root is proven,
    /// none once the game is over).
    pub fn step(&mut self, n: u64) -> u64 {
        let mut done = 0;
        while done < n && !self.nodes.is_empty() && self.root_proof.is_none() && !self.handle.is_stopped() {
            self.try_endgame();
            let chunk = CHUNK.min(n - done);
            let mut ran = 0;
            while ran < chunk && self.root_proof.is_none() {
                self.simulate();
                ran += 1;
            }
            done += ran;
            self.set_simulations(self.simulations + ran);
        }
        done
    }

    /// Runs until the tree holds `simulations`, `deadline` has passed, or the search stops.
    /// Returns the simulations run.
    pub fn run_until(&mut self, simulations: u64, deadline: Instant) -> u64 {
        let mut done = 0;
        while self.simulations < simulations && Instant::now() < deadline {
            let ran = self.step(CHUNK.min(simulations - self.simulations));
            if ran == 0 {
                break;
            }
            done += ran;
        }
        done
    }

    /// The root's children with their statistics and proofs.
    pub fn root_children(&self) -> Vec<RootChild<G::Move>> {
        self.children(0).map(|c| self.root_child(c, self.nodes[c as usize].mv)).collect()
    }

    /// Node `c`'s statistics as a [`RootChild`] named `mv`.
    fn root_child<M>(&self, c: u32, mv: M) -> RootChild<M> {
        let n = &self.nodes[c as usize];
        let wins = if self.folded { n.value + n.amaf_value } else { n.value } as f64;
        RootChild { mv, visits: n.visits as u64, value: n.value as f64, wins, proof: n.proof, depth: n.depth }
    }

    /// The children of root move `mv` with their statistics and proofs (empty if unexpanded).
    pub fn replies(&self, mv: G::Move) -> Vec<RootChild<G::Move>> {
        let Some(node) = self.children(0).find(|&c| self.nodes[c as usize].mv == mv) else { return Vec::new() };
        self.children(node).map(|c| self.root_child(c, self.nodes[c as usize].mv)).collect()
    }

    /// The line the search expects after `first` (a root move): the move to play again and again.
    pub fn principal_variation_after(&self, first: G::Move) -> Vec<G::Move> {
        let mut pv = vec![first];
        let Some(mut node) = self.children(0).find(|&c| self.nodes[c as usize].mv == first) else { return pv };
        loop {
            let children: Vec<RootChild<u32>> = self.children(node).map(|c| self.root_child(c, c)).collect();
            match choose(&children) {
                Some(c) if c.visits > 0 || c.proof != 0 => {
                    node = c.mv;
                    pv.push(self.nodes[node as usize].mv);
                }
                _ => break,
            }
        }
        pv
    }

    /// Plays `mv` at the root and keeps the subtree below it (tree reuse). `mv` must be legal at
    /// the root.
    pub fn advance(&mut self, mv: G::Move) {
        self.root.play_unchecked(mv);
        self.root.warm_up();
        self.reward_stats = RewardStats::with_form(self.reward_stats.form());
        self.endgame.new_root();
        // The running mean a new child starts from: the last searches' at most, so that it follows
        // this search's root (Pentobi keeps 100 simulations' worth).
        let cap = self.config.root_mean_cap as f64;
        if cap > 0.0 && self.seat_count > cap {
            let scale = cap / self.seat_count;
            self.seat_value.iter_mut().for_each(|v| *v *= scale);
            self.seat_count = cap;
        }
        let child = self.children(0).find(|&c| self.nodes[c as usize].mv == mv);
        match child {
            Some(c) if self.nodes[c as usize].first_child != 0 => {
                let Node { visits, proof, mover, depth, .. } = self.nodes[c as usize];
                self.compact_from(c);
                self.set_simulations(visits as u64);
                // The kept node's proof, turned to the seat now to move.
                let to_move = self.root.to_move().map(|p| p.0);
                self.root_proof = match (proof, to_move) {
                    (0, _) | (_, None) => None,
                    (p, Some(t)) if (p > 0) == (t == mover) => Some(Proof::Win(depth)),
                    _ => Some(Proof::Loss(depth)),
                };
            }
            _ => self.reset_tree(),
        }
    }

    /// Rebuilds the arena with node `new_root`'s subtree only, breadth first.
    fn compact_from(&mut self, new_root: u32) {
        let old = std::mem::take(&mut self.nodes);
        let mut nodes = std::mem::take(&mut self.spare);
        nodes.clear();
        nodes.reserve(old.len());
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
        self.spare = old;
    }

    fn children(&self, node: u32) -> std::ops::Range<u32> {
        match self.nodes.get(node as usize) {
            Some(n) if n.first_child != 0 => n.first_child..n.first_child + n.n_children as u32,
            _ => 0..0,
        }
    }

    /// One simulation: select down the tree, maybe expand, play out (or stop at a proven node),
    /// back up with RAVE, then let proofs climb.
    fn simulate(&mut self) {
        let mut state = self.root.clone();
        self.path.clear();
        self.trace.clear();
        self.played.clear();
        let lgr = self.replies.is_some();
        self.path.push(0);
        let mut node = 0u32;
        let mut proven = false;
        while let Some(player) = state.to_move() {
            if self.nodes[node as usize].first_child == 0 {
                let visits = self.nodes[node as usize].visits;
                let needed = self.config.expand_after as f32 + self.expand_growth * (self.path.len() - 1) as f32;
                if (node != 0 && (visits as f32) < needed) || !self.expand(node, &state, player.0) {
                    break;
                }
            }
            node = self.select(node);
            let mv = self.nodes[node as usize].mv;
            self.trace.push((player.0, state.move_key(mv) as u32));
            if lgr {
                self.played.push(mv);
            }
            state.play_unchecked(mv);
            self.path.push(node);
            if self.nodes[node as usize].proof != 0 {
                proven = true;
                break;
            }
        }
        let mut reward = [0.0; MAX_PLAYERS];
        if proven {
            // Two seats: the proven value, without a playout.
            let n = &self.nodes[node as usize];
            let mover = n.mover as usize;
            reward[mover] = if n.proof > 0 { 1.0 } else { 0.0 };
            reward[1 - mover] = 1.0 - reward[mover];
        } else {
            let leaf_ends_game = node != 0 && state.to_move().is_none();
            while let Some(player) = state.to_move() {
                let reply = match &self.replies {
                    Some(r) => stored_reply(r, &state, player.0, &self.trace),
                    None => None,
                };
                let next = if reply.is_some() {
                    reply
                } else if self.config.knowledge && self.config.playout_policy {
                    state.playout_move(&mut self.rng, &mut self.moves)
                } else {
                    state.random_move(&mut self.rng, &mut self.moves)
                };
                let Some(mv) = next else { break };
                self.trace.push((player.0, state.move_key(mv) as u32));
                if lgr {
                    self.played.push(mv);
                }
                state.play_unchecked(mv);
            }
            let outcome = state.outcome().expect("a game with no seat to move is over");
            if let Some(r) = &mut self.replies {
                r.update(&self.trace, &self.played, &outcome.ranks);
            }
            reward =
                if self.config.knowledge { state.reward_with(&outcome, &mut self.reward_stats) } else { outcome.ranks };
            if self.solver && leaf_ends_game {
                let n = &mut self.nodes[node as usize];
                let rank = outcome.ranks[n.mover as usize];
                n.proof = if rank == 1.0 {
                    1
                } else if rank == 0.0 {
                    -1
                } else {
                    0
                };
                n.depth = 0;
            }
        }
        self.backup(&reward);
        if self.solver {
            self.prove_up();
        }
    }

    fn new_node(&self, mv: G::Move, mover: u8, amaf_index: u32, (value, weight): (f32, f32)) -> Node<G::Move> {
        Node {
            mv,
            mover,
            proof: 0,
            depth: 0,
            n_children: 0,
            amaf_index,
            first_child: 0,
            visits: 0,
            value: 0.0,
            amaf_visits: weight,
            amaf_value: value * weight,
            blend: 0.0,
            policy: 0.0,
        }
    }

    /// Creates the children of `node` (whose position is `state`, `mover` to move). False if the
    /// arena is full.
    fn expand(&mut self, node: u32, state: &G, mover: u8) -> bool {
        if self.config.knowledge {
            state.search_moves(&mut self.moves);
            if self.prior_led.is_some() && state.move_logits(&self.moves, &mut self.logits) {
                // Prior-led with the game's logits: the priors would be overwritten unread.
                self.priors.clear();
                self.priors.resize(self.moves.len(), (0.0, 0.0));
            } else {
                state.move_priors(&self.moves, &mut self.priors);
                if self.prior_led.is_some() {
                    let k = self.config.policy_sharpness;
                    self.logits.clear();
                    self.logits.extend(self.priors.iter().map(|p| k * p.0));
                }
            }
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
        for k in 0..self.moves.len() {
            let mv = self.moves[k];
            let amaf_index = (mover as usize * keys + state.move_key(mv)) as u32;
            let mut child = self.new_node(mv, mover, amaf_index, self.priors[k]);
            child.refresh(self.blend());
            self.nodes.push(child);
        }
        if self.prior_led.is_some() {
            self.lead_by_priors(first, mover);
        } else if self.policy_weight > 0.0 {
            // PUCT priors: the softmax of the game's move logits, or of its prior values times the
            // sharpness, times the weight.
            if !state.move_logits(&self.moves, &mut self.logits) {
                let k = self.config.policy_sharpness;
                self.logits.clear();
                self.logits.extend(self.priors.iter().map(|p| k * p.0));
            }
            let top = self.logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let sum: f32 = self.logits.iter().map(|l| (l - top).exp()).sum();
            let scale = self.policy_weight / sum;
            for (c, l) in self.nodes[first as usize..].iter_mut().zip(&self.logits) {
                c.policy = scale * (l - top).exp();
            }
        }
        let n = &mut self.nodes[node as usize];
        n.first_child = first;
        n.n_children = self.moves.len() as u16;
        if self.solver && self.moves.len() <= TERMINAL_CHECK_MOVES {
            self.prove_terminal_children(node, state);
        }
        true
    }

    /// Prior-led selection: the new children from `first` on (the moves in `self.moves`, their
    /// logits in `self.logits`: the game's, or its prior values times the sharpness) get
    /// `P = γ/Σγ` as their policy and start at the mover's running mean times `√(γ/γmax)`, entered
    /// as [`SearchConfig::prior_visits`] virtual simulations (Pentobi's initialization, our code).
    fn lead_by_priors(&mut self, first: u32, mover: u8) {
        let top = self.logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let sum: f32 = self.logits.iter().map(|l| (l - top).exp()).sum();
        let mean = if self.seat_count > 0.0 { (self.seat_value[mover as usize] / self.seat_count) as f32 } else { 0.5 };
        let (visits, how) = (self.config.prior_visits, self.blend());
        for (c, l) in self.nodes[first as usize..].iter_mut().zip(&self.logits) {
            let gamma = (l - top).exp();
            c.policy = gamma / sum;
            c.amaf_visits = visits;
            c.amaf_value = visits * mean * gamma.sqrt();
            c.refresh(how);
        }
    }

    /// Proves at once the children of a new node whose move ends the game (a win or a loss for
    /// their mover), so a win one ply ahead is seen without waiting for a simulation to pick it.
    fn prove_terminal_children(&mut self, node: u32, state: &G) {
        for c in self.children(node) {
            let n = &self.nodes[c as usize];
            let mut next = state.clone();
            next.play_unchecked(n.mv);
            if next.to_move().is_some() {
                continue;
            }
            let rank = next.outcome().expect("a game with no seat to move is over").ranks[n.mover as usize];
            let proof = if rank == 1.0 {
                1
            } else if rank == 0.0 {
                -1
            } else {
                0
            };
            let n = &mut self.nodes[c as usize];
            (n.proof, n.depth) = (proof, 0);
        }
    }

    /// The child of `node` with the best blend of mean, AMAF mean and exploration; a proven win
    /// at once, a proven loss only when every child is one.
    fn select(&self, node: u32) -> u32 {
        let parent_visits = self.nodes[node as usize].visits.max(1) as f32;
        if let Some(c) = self.prior_led {
            // Prior-led: value + c·√N·ln(N+1) · P / (n + k).
            let factor = c * parent_visits.sqrt() * (parent_visits + 1.0).ln();
            if self.folded {
                // Pentobi's denominator: the value count, virtual and RAVE updates included.
                return self.select_by(node, |ch| {
                    ch.blend + factor * ch.policy / (ch.visits as f32 + ch.amaf_visits).max(1e-3)
                });
            }
            let k = self.config.prior_visits.max(1e-3);
            return self.select_by(node, |ch| ch.blend + factor * ch.policy / (ch.visits as f32 + k));
        }
        // c·√(ln N / (n+1)) = (c·√ln N) · (1/√(n+1)), the second factor from a table.
        let c_sqrt_log_n = self.config.exploration * parent_visits.ln().sqrt();
        let sqrt_n = parent_visits.sqrt();
        let inv_sqrt = inv_sqrt_table();
        self.select_by(node, |ch| {
            let inv = match inv_sqrt.get(ch.visits as usize) {
                Some(&x) => x,
                None => 1.0 / (ch.visits as f32 + 1.0).sqrt(),
            };
            let mut score = ch.blend + c_sqrt_log_n * inv;
            if ch.policy > 0.0 {
                score += ch.policy * sqrt_n / (1.0 + ch.visits as f32);
            }
            score
        })
    }

    /// The child of `node` with the highest `score`: a proven win at once, a proven loss never
    /// while an unproven child remains (the first child if all are lost).
    #[inline(always)]
    fn select_by(&self, node: u32, score: impl Fn(&Node<G::Move>) -> f32) -> u32 {
        let children = self.children(node);
        let mut best = children.start;
        let mut best_score = f32::NEG_INFINITY;
        for i in children {
            let ch = &self.nodes[i as usize];
            if ch.proof != 0 {
                if ch.proof > 0 {
                    return i;
                }
                continue;
            }
            let s = score(ch);
            if s > best_score {
                best_score = s;
                best = i;
            }
        }
        best
    }
}

/// `1/√(n+1)` for small `n`, the exploration term's per-child factor.
fn inv_sqrt_table() -> &'static [f32; 4096] {
    static TABLE: std::sync::OnceLock<[f32; 4096]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| std::array::from_fn(|n| 1.0 / ((n + 1) as f32).sqrt()))
}
