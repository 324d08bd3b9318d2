//! Work that runs in steps, can stop after any of them and says how far it is ([`Anytime`]): a
//! search to a budget ([`Budgeted`]) and a game's analysis ([`super::Analyzer`]). The app runs
//! either the same way — on a thread on the desktop, in slices of a frame in the browser — with
//! one runner.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use web_time::Instant;

use super::analysis::Analyzer;
use super::levels::Budget;
use super::mcts::Mcts;
use super::settings::MoveStats;
use crate::rules::Knowledge;

/// Simulations between two looks at the clock when an analysis runs a frame's slice.
const SLICE_CHUNK: u64 = 32;
/// Simulations between two looks at the clock when an analysis runs a thread's round (its
/// searches then use every core, each chunk shared among them).
const ROUND_CHUNK: u64 = 8_192;
/// Slices at least this long are a thread's rounds.
const LONG_SLICE: Duration = Duration::from_millis(50);

/// Work that runs in steps, stops after any of them and says how far it is.
pub trait Anytime: Send + 'static {
    /// Runs for at most about `slice` of wall time (less once done or stopped); returns the
    /// simulations run.
    fn step(&mut self, slice: Duration) -> u64;
    /// True once there is nothing left to run (the budget is spent, the work is finished, or it was
    /// stopped).
    fn is_done(&self) -> bool;
    /// The share of the work done, in `[0, 1]`.
    fn fraction(&self) -> f32;
}

/// The root moves of a search as last copied out.
pub type RootView<M> = Vec<MoveStats<M>>;

/// A search run to a budget: its simulations, and its time cap counted over the time spent in its
/// steps only (so a search in frame slices is as strong as one on a thread, only slower). It
/// can copy its root's statistics out as it goes ([`Budgeted::with_view`]).
pub struct Budgeted<G: Knowledge> {
    search: Box<Mcts<G>>,
    budget: Budget,
    searched: Duration,
    /// A step ran nothing: stopped, proven, or the game is over.
    halted: bool,
    view: Option<ViewOut<G::Move>>,
}

/// Where and how often a [`Budgeted`] search copies its root's statistics out.
struct ViewOut<M> {
    to: Arc<Mutex<RootView<M>>>,
    every: Duration,
    last: Option<Instant>,
}

impl<G: Knowledge> Budgeted<G> {
    /// `search` to run to `budget`.
    pub fn new(search: Box<Mcts<G>>, budget: Budget) -> Budgeted<G> {
        Budgeted { search, budget, searched: Duration::ZERO, halted: false, view: None }
    }

    /// Copies the root's statistics to `view` after a step, at most once every `every`.
    pub fn with_view(mut self, view: Arc<Mutex<RootView<G::Move>>>, every: Duration) -> Budgeted<G> {
        self.view = Some(ViewOut { to: view, every, last: None });
        self
    }

    /// The search, once the work is over.
    pub fn into_search(self) -> Box<Mcts<G>> {
        self.search
    }
}

impl<G: Knowledge> Anytime for Budgeted<G> {
    fn step(&mut self, slice: Duration) -> u64 {
        if self.is_done() {
            return 0;
        }
        let start = Instant::now();
        let left = self.budget.max_time.saturating_sub(self.searched).min(slice);
        let ran = self.search.run(Budget { simulations: self.budget.simulations, max_time: left });
        self.searched += start.elapsed();
        self.halted |= ran == 0;
        if let Some(out) = &mut self.view
            && out.last.is_none_or(|at| at.elapsed() >= out.every)
        {
            out.last = Some(Instant::now());
            if let Ok(mut v) = out.to.lock() {
                *v = self.search.root_children();
            }
        }
        ran
    }

    fn is_done(&self) -> bool {
        self.halted
            || self.search.handle().is_stopped()
            || self.search.simulations() >= self.budget.simulations
            || self.searched >= self.budget.max_time
    }

    fn fraction(&self) -> f32 {
        let by_sims = self.search.simulations() as f32 / self.budget.simulations as f32;
        let by_time = self.searched.as_secs_f32() / self.budget.max_time.as_secs_f32();
        by_sims.max(by_time).min(1.0)
    }
}

impl<G: Knowledge> Anytime for Analyzer<G> {
    fn step(&mut self, slice: Duration) -> u64 {
        let start = Instant::now();
        let chunk = if slice >= LONG_SLICE { ROUND_CHUNK } else { SLICE_CHUNK };
        let mut ran = 0;
        while !Analyzer::is_done(self) && start.elapsed() < slice {
            ran += Analyzer::step(self, chunk);
        }
        ran
    }

    fn is_done(&self) -> bool {
        Analyzer::is_done(self)
    }

    fn fraction(&self) -> f32 {
        Analyzer::fraction(self)
    }
}
