//! The endgame solver beside MCTS-Solver: a depth-first search of the whole game below the root, with
//! a table of the positions it proved (keyed by [`Game::position_hash`]), which a search tree
//! ([`super::tree`]) tries now and then while its root is small. Its verdicts become MCTS-Solver's
//! proofs of the root's moves: a winning move is played at once, a losing one is not chosen while
//! another is open, and a proven root ends the search.
//!
//! - **When**: two seats, a game with a position hash (Trike, Tri-It-Out), and a *small* root: over
//!   16 random games from it, `log2 ∏ branching` along the game averages at most [`MAX_LOG2_TREE`]
//!   (40 bits: early Trike-6 positions measure 20–27, a Trike-13 game from about ply 22 on; Trike
//!   13's start passes 40 within a few plies, so there it is never tried). A small root is tried
//!   after 64, 256, 1,024, … simulations (×4), each try with a budget of [`NODES_PER_PLY`] positions
//!   per simulation so far and per ply of those random games (at most [`MAX_NODES`]); the table
//!   keeps what one try proved for the next, for the next move's search (tree reuse) and for the
//!   other root moves. It looks at the stop flag every 4,096 positions.
//! - **How**: negamax over win, draw and loss for the seat to move (a multi-step turn keeps the
//!   side), cut at the first winning move. A position's moves are first each played once, so a move
//!   that ends the game in a win or reaches a position the table holds as won is taken without a
//!   search; the rest are searched in the order of the tree's simulations at the root and of the
//!   history heuristic below (how often a move, by [`Game::move_key`] and seat, was a position's
//!   winning move). Only exact values are stored; a search that ran out of budget stores nothing
//!   for its unfinished positions.
//!
//! Measured at level 3 (`triboard check-solver GAME --positions 200 --level 3`: 16,000 simulations,
//! one thread, seed 0), positions with a forced win where a winning move was played, before → after:
//! Trike 6 192 → 199 of 200 (96.0 % → 99.5 %; seeds 1 and 2: 200 and 198), Trike 5 198 → 200;
//! Tri-It-Out `hex-2-3`, `tri-5`, `equiversi-2-4`, `hex-3`, `tri-6`, `hex-3-4`: 200, 199, 200, 200,
//! 200, 200 → all 200. On Trike 6 the search took 2.9 ms on average without the solver's tries
//! and 2.0 ms with them (more roots proven, so searches end earlier). Orders tried on Trike 6 at
//! a budget of 16 positions a simulation: the opponent's fewest replies first 198, the history
//! heuristic 199 and cheaper (2.3 ms against 3.6 ms). Big boards: `triboard bench trike --seconds 3`
//! (Trike 13's start, never tried) ran 387,024 and 397,793 simulations/s before and 383,774 and
//! 398,565 after; at ply 24 of a Trike-13 game, where it is tried, about 12 % fewer simulations/s.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::rules::{Game, Rng, rng_from_seed};

/// A root is tried when the random games from it average at most this many bits of
/// `log2 ∏ branching`.
pub(crate) const MAX_LOG2_TREE: f64 = 40.0;
/// Positions each try may visit per simulation the tree has run and per ply of a random game from
/// the root (what a playout costs).
pub(crate) const NODES_PER_PLY: u64 = 2;
/// The most positions one try visits (under a tenth of a second here; level 3 stays below it on the
/// boards measured).
pub(crate) const MAX_NODES: u64 = 250_000;
/// The first try comes after this many simulations (the root is expanded by then).
const FIRST_TRY: u64 = 64;
/// The table is cleared when it holds this many positions (some 10 MB).
const MAX_TABLE: usize = 1 << 19;
/// Random games that estimate the size of a root's tree.
const SAMPLES: usize = 16;

/// A proven value for the seat to move: 1 a win, 0 a draw, -1 a loss, with the plies to the end
/// of the game under the proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Value {
    pub value: i8,
    pub plies: u16,
}

/// The solver of one search tree: its table and its schedule at the current root.
pub(crate) struct Endgame<G: Game> {
    table: Table,
    /// The positions per simulation a try at this root may visit, if it is small enough to try
    /// ([`Endgame::measure`]); `None` until measured.
    small: Option<Option<u64>>,
    /// Simulations at which the next try is due.
    next_try: u64,
    rng: Rng,
    /// Move lists by depth, reused.
    moves: Vec<Vec<G::Move>>,
    /// Children of a node by depth: position, rank in the search order, history key; reused.
    children: Vec<Vec<(G, usize, usize)>>,
    /// The history heuristic's counts by (seat, move key) ([`Game::move_key`]).
    history: Vec<u32>,
}

impl<G: Game> Endgame<G> {
    pub fn new(seed: u64) -> Endgame<G> {
        Endgame {
            table: Table::default(),
            small: None,
            next_try: FIRST_TRY,
            rng: rng_from_seed(seed ^ 0x5eed_e4d6),
            moves: Vec::new(),
            children: Vec::new(),
            history: Vec::new(),
        }
    }

    /// A new root (after a move, or a new tree): measure it again and try it early again; the table
    /// stays.
    pub fn new_root(&mut self) {
        self.small = None;
        self.next_try = FIRST_TRY;
    }

    /// True when a tree at `root` that has run `simulations` should try now.
    pub fn due(&mut self, root: &G, simulations: u64) -> bool {
        if simulations < self.next_try {
            return false;
        }
        if self.small.is_none() {
            self.small = Some(self.measure(root));
        }
        self.small.flatten().is_some()
    }

    /// The positions a try may visit per simulation at `root` if it is small: [`NODES_PER_PLY`] per
    /// ply of a random game from it. Over a few random games from `root`, the mean of
    /// `log2 ∏ branching` along the game must be at most [`MAX_LOG2_TREE`].
    fn measure(&mut self, root: &G) -> Option<u64> {
        if root.num_players() != 2 || root.position_hash().is_none() {
            return None;
        }
        let mut buf = Vec::new();
        let (mut bits, mut plies) = (0.0, 0);
        for _ in 0..SAMPLES {
            let mut g = root.clone();
            loop {
                g.legal_moves(&mut buf);
                if buf.is_empty() {
                    break;
                }
                bits += (buf.len() as f64).log2();
                if bits > MAX_LOG2_TREE * SAMPLES as f64 {
                    return None;
                }
                let Some(mv) = g.random_move(&mut self.rng, &mut buf) else { break };
                g.play_unchecked(mv);
                plies += 1;
            }
        }
        Some((NODES_PER_PLY * plies / SAMPLES as u64).max(1))
    }

    /// One try at `root` after `simulations`: searches it within the budget (checking `stopped`
    /// every few thousand positions) and schedules the next try. Returns the root's value if
    /// proven; the root moves' values are then (and also otherwise, for those proven) in
    /// [`Endgame::after`].
    pub fn try_root(
        &mut self,
        root: &G,
        order: &[G::Move],
        simulations: u64,
        stopped: &dyn Fn() -> bool,
    ) -> Option<Value> {
        self.next_try = simulations.max(FIRST_TRY) * 4;
        self.history.resize(2 * root.move_key_space(), 0);
        if self.table.len() > MAX_TABLE {
            self.table.clear();
        }
        let per_simulation = self.small.flatten().unwrap_or(0);
        let mut budget = (simulations * per_simulation).min(MAX_NODES);
        let mut search = Search {
            table: &mut self.table,
            moves: &mut self.moves,
            children: &mut self.children,
            budget: &mut budget,
            stopped,
            order,
            history: &mut self.history,
        };
        search.solve(root, 0)
    }

    /// The proven value of the position after root move `mv` for the seat that plays it (the seat
    /// to move at `root`), if the table has it.
    pub fn after(&self, root: &G, mv: G::Move) -> Option<Value> {
        let seat = root.to_move()?;
        let mut next = root.clone();
        next.play_unchecked(mv);
        match next.to_move() {
            None => Some(ended(&next, seat.0)),
            Some(p) => known(&self.table, &next).map(|v| if p == seat { v } else { flip(v) }),
        }
    }
}

/// The value of an unfinished position for the seat to move there, if the table has it.
fn known<G: Game>(table: &Table, g: &G) -> Option<Value> {
    table.get(&g.position_hash()?).copied()
}

/// Proven positions by [`Game::position_hash`], a hash already.
type Table = HashMap<u64, Value, BuildHasherDefault<KeyHasher>>;

/// The hasher of [`Table`]: its keys are hashes, taken as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// One search's borrowed state.
struct Search<'a, G: Game> {
    table: &'a mut Table,
    moves: &'a mut Vec<Vec<G::Move>>,
    children: &'a mut Vec<Vec<(G, usize, usize)>>,
    budget: &'a mut u64,
    stopped: &'a dyn Fn() -> bool,
    /// The root moves in the order to search them (the tree's most simulated first); others after.
    order: &'a [G::Move],
    /// How often each (seat, move key) was the winning move of a position (the history heuristic).
    history: &'a mut [u32],
}

impl<G: Game> Search<'_, G> {
    /// Counts one position against the budget; false once it is spent or the search is stopped.
    fn spend(&mut self) -> bool {
        let Some(left) = self.budget.checked_sub(1) else { return false };
        *self.budget = left;
        if left % 4096 == 0 && (self.stopped)() {
            *self.budget = 0;
            return false;
        }
        true
    }

    /// The value of `g` (not over) for its seat to move; `None` if the budget ran out.
    fn solve(&mut self, g: &G, depth: usize) -> Option<Value> {
        let seat = g.to_move()?;
        let hash = g.position_hash()?;
        if let Some(&v) = self.table.get(&hash) {
            return Some(v);
        }
        while self.moves.len() <= depth + 1 {
            self.moves.push(Vec::new());
        }
        while self.children.len() <= depth {
            self.children.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.moves[depth]);
        let mut children = std::mem::take(&mut self.children[depth]);
        g.legal_moves(&mut moves);
        children.clear();
        // Every move once: a win at once, the other values known, the rest to search.
        let mut best = Value { value: -2, plies: 0 };
        let mut result = None;
        let mut complete = true;
        for &mv in &moves {
            if !self.spend() {
                complete = false;
                break;
            }
            let mut next = g.clone();
            next.play_unchecked(mv);
            let v = match next.to_move() {
                None => Some(ended(&next, seat.0)),
                Some(p) => known(self.table, &next).map(|v| if p == seat { v } else { flip(v) }),
            };
            match v {
                Some(v) if v.value > 0 => {
                    result = Some(Value { value: 1, plies: v.plies + 1 });
                    break;
                }
                Some(v) => best = better(best, v),
                None => {
                    let key = seat.0 as usize * g.move_key_space() + g.move_key(mv);
                    let rank = if depth == 0 {
                        self.order.iter().position(|&m| m == mv).unwrap_or(usize::MAX)
                    } else {
                        (u32::MAX - self.history[key]) as usize
                    };
                    children.push((next, rank, key));
                }
            }
        }
        if result.is_none() && complete {
            children.sort_by_key(|c| c.1);
            for &(ref next, _, key) in &children {
                let p = next.to_move().expect("an unfinished position");
                let Some(v) = self.solve(next, depth + 1) else {
                    complete = false;
                    break;
                };
                let v = if p == seat { v } else { flip(v) };
                if v.value > 0 {
                    self.history[key] += 1;
                    result = Some(Value { value: 1, plies: v.plies + 1 });
                    break;
                }
                best = better(best, v);
            }
            if result.is_none() && complete {
                result = Some(Value { value: best.value, plies: best.plies + 1 });
            }
        }
        self.moves[depth] = moves;
        self.children[depth] = children;
        if let Some(v) = result {
            self.table.insert(hash, v);
        }
        result
    }
}

/// The value of a finished game for `seat`, with no plies left.
fn ended<G: Game>(g: &G, seat: u8) -> Value {
    let rank = g.outcome().expect("a game with no seat to move is over").ranks[seat as usize];
    let value = if rank == 1.0 {
        1
    } else if rank == 0.0 {
        -1
    } else {
        0
    };
    Value { value, plies: 0 }
}

fn flip(v: Value) -> Value {
    Value { value: -v.value, plies: v.plies }
}

/// The better of two values for the seat choosing: the higher; among losses the longest, among
/// draws and wins the shortest.
fn better(a: Value, b: Value) -> Value {
    if a.value != b.value {
        return if a.value > b.value { a } else { b };
    }
    if (a.value < 0) == (a.plies >= b.plies) { a } else { b }
}
