//! Whole-game analysis: the search run on every position of a game, giving each move the mover's
//! win rate before it, the search's best move, the win rate the played move kept, and whether it
//! was a mistake (it lost more than a threshold share of win rate). `triboard analyze` prints it;
//! the app's review draws it as a graph. [`Analyzer`] does it a slice at a time.
//!
//! The win rate a move kept: the best move's keeps the position's; a move the search proved keeps
//! 1 or 0. Otherwise, in two-seat games, the positions after the played move and after the best
//! move are searched alike (the same seat to move in both, so one bias: Trigon's searches rate the
//! side to move high, so values of positions with different seats to move do not compare) and the
//! played move keeps the position's win rate less what it falls short of the best (a finished game
//! counts its rank). With more seats, the played move's own mean in the search, given at least
//! [`MIN_VISITS`] simulations; else unknown.

use super::levels::Budget;
use super::mcts::Mcts;
use super::settings::{MoveValue, SearchConfig};
use crate::rules::record::{AnalysedMove, Analysis};
use crate::rules::{Knowledge, Player};

/// Simulations of the played move in its position's search that make its own mean the measure of
/// what it kept, in games of more than two seats.
pub const MIN_VISITS: u64 = 50;

/// The budgets of an analysis: name and simulations per position (`triboard analyze --budget`,
/// the app's Analyze game).
pub const BUDGETS: [(&str, u64); 3] = [("quick", 4_000), ("normal", 16_000), ("deep", 64_000)];

/// The share of win rate a move must lose to be called a mistake, unless said otherwise.
pub const THRESHOLD: f32 = 0.15;

/// The analysis of one move of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAnalysis<M> {
    /// The ply of the position before the move (0 for the first move).
    pub ply: usize,
    /// The seat that made it.
    pub mover: Player,
    /// The move played.
    pub played: M,
    /// The mover's win rate before it, in `[0, 1]`: the search's expected reward of its best move.
    pub win_rate: f32,
    /// The search's best move in the position.
    pub best: M,
    /// The mover's win rate after the played move, in `[0, 1]` (see the module doc); `None` where
    /// it is not known.
    pub kept: Option<f32>,
    /// The share of win rate the move lost, `win_rate − kept`, at least 0.
    pub loss: f32,
    /// `loss` exceeds the threshold.
    pub mistake: bool,
}

/// Analyses every move of the game played from `start` by `moves` (all legal), each position with
/// a search of `budget` on `config` (its seed varied per position, so the result is the same on
/// every run with the same threads). `progress(done, total)` is called after each position; when
/// it returns false the analysis stops and returns the moves analysed so far. The time cap of
/// `budget` is not used: the simulations alone decide, so the result does not depend on the
/// machine's speed.
///
/// # Panics
/// If a move is illegal in its position.
pub fn analyze_game<G: Knowledge>(
    start: &G,
    moves: &[G::Move],
    budget: Budget,
    config: &SearchConfig,
    threshold: f32,
    mut progress: impl FnMut(usize, usize) -> bool,
) -> Vec<MoveAnalysis<G::Move>> {
    let mut analyzer = Analyzer::new(start, moves, budget.simulations, config, threshold);
    let mut reported = 0;
    while !analyzer.is_done() {
        analyzer.step(u64::MAX);
        if analyzer.analysed().len() > reported {
            reported = analyzer.analysed().len();
            if !progress(reported, moves.len()) {
                break;
            }
        }
    }
    analyzer.into_analysed()
}

/// Which search of a move's analysis runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// The position before the move.
    Before,
    /// The position after the played move (two seats, the played move neither the best nor proven).
    AfterPlayed,
    /// The position after the best move.
    AfterBest,
}

/// Whole-game analysis as a machine that runs a given number of simulations at a time: the app runs
/// it on a task thread, or in slices of a frame in the browser, and shows its progress; the
/// result is the same as [`analyze_game`]'s, however it is sliced.
pub struct Analyzer<G: Knowledge> {
    /// The position before move `out.len()`.
    game: G,
    moves: Vec<G::Move>,
    simulations: u64,
    config: SearchConfig,
    threshold: f32,
    phase: Phase,
    /// The running search of the phase, with the position it searches (`None` before it starts).
    search: Option<Mcts<G>>,
    /// The move being analysed, once its position's search is done.
    current: Option<MoveAnalysis<G::Move>>,
    /// The value for the mover after the played move (phase `AfterBest` needs it).
    played_value: f32,
    /// The finished search of the position after the played move, which is the next move's
    /// position: it is that move's search, not run twice.
    next: Option<Mcts<G>>,
    out: Vec<MoveAnalysis<G::Move>>,
}

impl<G: Knowledge> Analyzer<G> {
    /// An analysis of `moves` played from `start` (all legal), `simulations` per search.
    pub fn new(start: &G, moves: &[G::Move], simulations: u64, config: &SearchConfig, threshold: f32) -> Self {
        Analyzer {
            game: start.clone(),
            moves: moves.to_vec(),
            simulations: simulations.max(1),
            config: config.clone(),
            threshold,
            phase: Phase::Before,
            search: None,
            current: None,
            played_value: 0.0,
            next: None,
            out: Vec::with_capacity(moves.len()),
        }
    }

    /// True once every move is analysed.
    pub fn is_done(&self) -> bool {
        self.out.len() >= self.moves.len()
    }

    /// The moves analysed so far, in order.
    pub fn analysed(&self) -> &[MoveAnalysis<G::Move>] {
        &self.out
    }

    /// The analysis so far.
    pub fn into_analysed(self) -> Vec<MoveAnalysis<G::Move>> {
        self.out
    }

    /// The analysis so far, taken out; the analyzer is then spent (step it no more).
    pub fn take_analysed(&mut self) -> Vec<MoveAnalysis<G::Move>> {
        std::mem::take(&mut self.out)
    }

    /// The share of the work done, in `[0, 1]` (moves analysed, and the running search's share of
    /// its budget within its move).
    pub fn fraction(&self) -> f32 {
        let total = self.moves.len().max(1) as f32;
        let within = self.search.as_ref().map_or(0.0, |s| s.simulations() as f32 / self.simulations as f32);
        let phase = match self.phase {
            Phase::Before => 0.0,
            Phase::AfterPlayed => 1.0,
            Phase::AfterBest => 2.0,
        };
        ((self.out.len() as f32 + (phase + within.min(1.0)) / 3.0) / total).min(1.0)
    }

    /// Runs at most about `n` simulations (fewer at the end of a search), finishing moves as
    /// their searches end. Returns the simulations run.
    ///
    /// # Panics
    /// If a move is illegal in its position.
    pub fn step(&mut self, n: u64) -> u64 {
        let mut ran = 0;
        while !self.is_done() && ran < n {
            let ply = self.out.len();
            let (position, key) = match self.phase {
                Phase::Before => (self.game.clone(), 2 * ply),
                Phase::AfterPlayed => (self.after(self.moves[ply]), 1_000_000 + 2 * ply),
                Phase::AfterBest => (self.after(self.current.as_ref().expect("searched").best), 1_000_001 + 2 * ply),
            };
            // A finished game after the move needs no search.
            if self.phase != Phase::Before && position.outcome().is_some() {
                self.finish_phase(None, &position);
                continue;
            }
            let simulations = self.simulations;
            let search = self.search.get_or_insert_with(|| {
                let seed = self.config.seed ^ (key as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                Mcts::new(&position, SearchConfig { seed, ..self.config.clone() })
            });
            let left = simulations.saturating_sub(search.simulations());
            let did = if left == 0 { 0 } else { search.step(left.min(n - ran)) };
            ran += did;
            if did == 0 || search.simulations() >= simulations {
                let search = self.search.take();
                self.finish_phase(search, &position);
            }
        }
        ran
    }

    /// The position after `mv` in the current position.
    fn after(&self, mv: G::Move) -> G {
        let mut next = self.game.clone();
        next.play_unchecked(mv);
        next
    }

    /// The value for the move's mover of `position` after a move: its rank once over, else the
    /// search's value for the seat to move turned to the mover's side (two seats).
    fn value_for_mover(&self, search: Option<&Mcts<G>>, position: &G) -> f32 {
        let mover = self.current.as_ref().expect("searched").mover;
        if let Some(outcome) = position.outcome() {
            return outcome.ranks[mover.index()];
        }
        let to_move = position.to_move().expect("a game not over has a seat to move");
        let v = search.and_then(Mcts::win_rate).unwrap_or(0.5);
        if to_move == mover { v } else { 1.0 - v }
    }

    /// Ends the current phase with its finished `search` (of `position`).
    fn finish_phase(&mut self, search: Option<Mcts<G>>, position: &G) {
        let ply = self.out.len();
        let mv = self.moves[ply];
        match self.phase {
            Phase::Before => {
                let search = search.expect("the position before a move is searched");
                let mover = self.game.to_move().expect("a move is played only while the game goes on");
                let best = search.best_move().expect("a position with a move to play has a best move");
                let win_rate = search.win_rate().unwrap_or(0.5);
                let own = search.move_value(mv);
                let mut a =
                    MoveAnalysis { ply, mover, played: mv, win_rate, best, kept: None, loss: 0.0, mistake: false };
                let next = if mv == best {
                    a.kept = Some(win_rate);
                    None
                } else if let Some(MoveValue { value, proven: true, .. }) = own {
                    // Proven in this search: exactly what it keeps.
                    a.kept = Some(value);
                    None
                } else if self.game.num_players() == 2 {
                    // The positions after the played move and after the best move, each searched
                    // alike (the same seat to move in both) and compared from the mover's side.
                    Some(Phase::AfterPlayed)
                } else {
                    a.kept = own.filter(|o| o.visits >= MIN_VISITS).map(|o| o.value);
                    None
                };
                self.current = Some(a);
                match next {
                    Some(phase) => self.phase = phase,
                    None => self.finish_move(),
                }
            }
            Phase::AfterPlayed => {
                self.played_value = self.value_for_mover(search.as_ref(), position);
                // The position after the played move is the next move's: its search is kept for it.
                self.next = search;
                self.phase = Phase::AfterBest;
            }
            Phase::AfterBest => {
                let better = self.value_for_mover(search.as_ref(), position);
                let a = self.current.as_mut().expect("searched");
                a.kept = Some(a.win_rate - (better - self.played_value).max(0.0));
                self.finish_move();
            }
        }
    }

    /// Records the current move's analysis and goes on to the next position.
    fn finish_move(&mut self) {
        let mut a = self.current.take().expect("searched");
        if let Some(kept) = a.kept {
            a.loss = (a.win_rate - kept).max(0.0);
            a.mistake = a.played != a.best && a.loss > self.threshold;
        }
        let number = a.ply + 1;
        self.game.play(a.played).unwrap_or_else(|e| panic!("move {number} is illegal: {e}"));
        self.out.push(a);
        self.phase = Phase::Before;
        self.search = self.next.take();
    }
}

/// The analysis as a record keeps it ([`crate::rules::record::Analysis`]): moves in the notation
/// of `start`'s game, `simulations` per position, the mistake `threshold`.
pub fn record_analysis<G: Knowledge>(
    start: &G,
    analysed: &[MoveAnalysis<G::Move>],
    simulations: u64,
    threshold: f32,
) -> Analysis {
    let mut game = start.clone();
    let moves = analysed
        .iter()
        .map(|a| {
            let best = game.move_text(a.best);
            game.play_unchecked(a.played);
            AnalysedMove { win_rate: a.win_rate, best, kept: a.kept, mistake: a.mistake }
        })
        .collect();
    Analysis { simulations, threshold, moves }
}
