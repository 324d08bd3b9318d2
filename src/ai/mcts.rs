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

use std::time::Duration;

use web_time::Instant;

use super::levels::Budget;
pub use super::settings::{MoveStats, MoveValue, Proof, SearchConfig, SearchHandle, available_threads};
use super::time::MovePlan;
use super::tree::{CHUNK, RootChild, Tree, choose_by};
use crate::rules::Knowledge;

/// A search over positions of `G` rooted at one position, on [`SearchConfig::threads`] threads.
pub struct Mcts<G: Knowledge> {
    trees: Vec<Tree<G>>,
    handle: SearchHandle,
    /// The final choice by weighted wins ([`SearchConfig::final_move`] 1).
    by_wins: bool,
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
        Mcts { trees, handle, by_wins: config.final_move == 1 }
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
        self.handle.clear_stop();
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
        self.run_planned(MovePlan { soft: duration, hard: duration })
    }

    /// Runs to `plan` ([`super::time`]): stops before `plan.soft` once the best move cannot
    /// change in the time left to it; past `plan.soft`, goes on while the root is unsettled (the
    /// second most simulated move has more than half the first's simulations) until `plan.hard`,
    /// or until the best move cannot change in the time left to that. Stops too when stopped or
    /// proven. Returns the simulations run.
    pub fn run_planned(&mut self, plan: MovePlan) -> u64 {
        let start = Instant::now();
        let (soft, hard) = (plan.soft.as_secs_f64(), plan.hard.max(plan.soft).as_secs_f64());
        let round = if self.trees.len() == 1 { Duration::MAX } else { (plan.soft / 20).max(Duration::from_millis(5)) };
        let hard_deadline = deadline_after(plan.hard.max(plan.soft));
        let mut done = 0;
        while Instant::now() < hard_deadline && self.proof().is_none() {
            let ran = if self.trees.len() == 1 {
                self.trees[0].step(CHUNK)
            } else {
                let until = deadline_after(round).min(hard_deadline);
                self.on_every_tree(|t| t.run_until(u64::MAX, until))
            };
            if ran == 0 {
                break;
            }
            done += ran;
            let elapsed = start.elapsed().as_secs_f64().max(1e-6);
            let (first, second) = self.two_most_simulated();
            let unsettled = second as f64 > 0.5 * first as f64;
            let horizon = if elapsed < soft || !unsettled { soft } else { hard };
            if elapsed >= horizon {
                break;
            }
            let can_still_run = done as f64 / elapsed * (horizon - elapsed);
            if (first - second) as f64 > can_still_run {
                break;
            }
        }
        done
    }

    /// The simulations of the two most simulated root moves, all trees together.
    fn two_most_simulated(&self) -> (u64, u64) {
        self.root_stats()
            .iter()
            .fold((0u64, 0u64), |(a, b), c| if c.visits > a { (c.visits, a) } else { (a, b.max(c.visits)) })
    }

    /// The root moves' statistics summed over the trees, in the order of the first tree.
    fn root_stats(&self) -> Vec<RootChild<G::Move>> {
        merge(self.trees.iter().map(Tree::root_children))
    }

    /// The replies below root move `mv`: move, simulations and mean reward for their mover, all
    /// threads together (empty while `mv` has none). After [`Mcts::advance`]`(mv)` they are the
    /// new root's [`Mcts::root_children`].
    pub fn replies(&self, mv: G::Move) -> Vec<MoveStats<G::Move>> {
        summary(&merge(self.trees.iter().map(|t| t.replies(mv))))
    }

    /// Root move `mv`'s simulations (all threads), its value for the mover (1 or 0 when proven,
    /// else its mean reward) and whether it is proven; `None` if `mv` is not a root move the
    /// search has.
    pub fn move_value(&self, mv: G::Move) -> Option<MoveValue> {
        let stats = self.root_stats();
        let c = stats.iter().find(|c| c.mv == mv)?;
        Some(MoveValue { visits: c.visits, value: value(c).unwrap_or(0.0), proven: c.proof != 0 })
    }

    /// The move to play: a proven win at once (the shortest), else the most simulated move not
    /// proven lost (the most weighted wins under [`SearchConfig::final_move`] 1), else the proven
    /// loss that lasts longest; `None` if the game is over.
    pub fn best_move(&self) -> Option<G::Move> {
        choose_by(&self.root_stats(), self.by_wins).map(|c| c.mv)
    }

    /// The expected reward, in `[0, 1]`, of [`Mcts::best_move`] for the seat to move (1 or 0 when
    /// proven).
    pub fn win_rate(&self) -> Option<f32> {
        choose_by(&self.root_stats(), self.by_wins).and_then(value)
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
    pub fn root_children(&self) -> Vec<MoveStats<G::Move>> {
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
                m.wins += c.wins;
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
        // A reward form with quality bonuses (Trigon's) leaves [0, 1] a little.
        _ => (c.visits > 0).then(|| ((c.value / c.visits as f64) as f32).clamp(0.0, 1.0)),
    }
}

/// Move, simulations and mean reward of merged statistics.
fn summary<M: Copy>(stats: &[RootChild<M>]) -> Vec<MoveStats<M>> {
    stats
        .iter()
        .map(|c| {
            let mean = if c.visits > 0 { ((c.value / c.visits as f64) as f32).clamp(0.0, 1.0) } else { 0.0 };
            MoveStats { mv: c.mv, visits: c.visits.min(u32::MAX as u64) as u32, mean }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn child(mv: u8, visits: u64, value: f64, wins: f64) -> RootChild<u8> {
        RootChild { mv, visits, value, wins, proof: 0, depth: 0 }
    }

    #[test]
    fn the_final_choice_is_the_most_simulated_or_the_most_weighted_wins() {
        // Move 1: more simulations; move 2: fewer, but more wins once its RAVE updates count.
        let trees = vec![vec![child(1, 60, 30.0, 31.0), child(2, 40, 28.0, 20.0)], vec![child(2, 10, 7.0, 20.0)]];
        let merged = merge(trees.into_iter());
        assert_eq!((merged[1].visits, merged[1].wins), (50, 40.0));
        assert_eq!(choose_by(&merged, false).map(|c| c.mv), Some(1));
        assert_eq!(choose_by(&merged, true).map(|c| c.mv), Some(2));
        // A proven win still comes first, whichever rule.
        let mut proven = merged.clone();
        proven[0].proof = 1;
        assert_eq!(choose_by(&proven, true).map(|c| c.mv), Some(1));
    }
}
