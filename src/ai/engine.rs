//! One engine around the search for every front end — the app's AI seats and hints, the CLI's
//! `play` and its hint, GTP's `genmove`: [`Engine`] keeps the last search with the line it started
//! from and continues it below the moves played since (tree reuse), seeds new searches one way,
//! and a finished search becomes a [`Verdict`], worded once ([`fmt::Display`]) for the app and the
//! CLI alike.

use std::fmt;

use super::levels::{Budget, Level};
use super::mcts::Mcts;
use super::settings::{Proof, SearchConfig};
use crate::rules::{Game, Knowledge, counted, move_labels, move_texts};

/// The level whose budget a hint searches with, in the app and the CLI alike: level 4 (64,000
/// simulations, at most 4 s).
pub const HINT_LEVEL: u8 = 4;

/// The budget of a hint ([`HINT_LEVEL`]).
pub fn hint_budget() -> Budget {
    Level::new(HINT_LEVEL).expect("the hint's level exists").budget()
}

/// The weakest level that plays the opening book's moves (`rules::book`): below it the search
/// plays every move, so the easy levels stay easy.
pub const BOOK_LEVEL: u8 = 3;

/// The opening book's move for an AI seat at `level` in `game`'s position (books on, the level
/// at least [`BOOK_LEVEL`], the position in the book).
pub fn book_move<G: Knowledge>(game: &G, level: Level) -> Option<G::Move> {
    if level.number() < BOOK_LEVEL { None } else { game.book_move() }
}

/// Moves of the expected line a [`Verdict`] shows.
const SHOWN_LINE: usize = 6;

/// A seed drawn from `seed` for item `index` (a game, a ply, a seat): SplitMix64's finaliser, so
/// neighbouring indices give unrelated seeds.
pub fn derive_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The search kept for reuse and the moves from the game's start to its root.
type Kept<G> = (Box<Mcts<G>>, Vec<<G as Game>::Move>);

/// The search of one player (or one front end) over a game: new searches with its settings, the
/// last one kept and continued while the game goes on from it.
pub struct Engine<G: Knowledge> {
    config: SearchConfig,
    kept: Option<Kept<G>>,
}

impl<G: Knowledge> Engine<G> {
    /// An engine whose searches use `config` (its `seed` is the base of every search's seed).
    pub fn new(config: SearchConfig) -> Engine<G> {
        Engine { config, kept: None }
    }

    /// Seeds the searches it starts from now on from `seed` (a kept search goes on as it was).
    pub fn set_seed(&mut self, seed: u64) {
        self.config.seed = seed;
    }

    /// The search to run in `position`, reached from the game's start by `line`: the kept one
    /// continued below the moves played since its root, when `line` goes on from that root's line
    /// in a game of the same options (tree reuse); else a new search seeded with
    /// [`derive_seed`]`(config.seed, seed_index)`. The search is resumed (a stopped one runs again).
    pub fn search_for(&mut self, position: &G, line: &[G::Move], seed_index: u64) -> Box<Mcts<G>> {
        let search = match self.kept.take() {
            Some((mut search, root_line))
                if line.starts_with(&root_line) && search.root().options() == position.options() =>
            {
                for &mv in &line[root_line.len()..] {
                    search.advance(mv);
                }
                search
            }
            _ => {
                let seed = derive_seed(self.config.seed, seed_index);
                Box::new(Mcts::new(position, SearchConfig { seed, ..self.config.clone() }))
            }
        };
        search.resume();
        search
    }

    /// Keeps `search`, whose root the moves `line` reach from the start, for the next
    /// [`Engine::search_for`].
    pub fn keep(&mut self, search: Box<Mcts<G>>, line: Vec<G::Move>) {
        self.kept = Some((search, line));
    }

    /// Keeps `search` after its own move `mv` was played: its tree below that move, and `line`
    /// with the move.
    pub fn keep_after(&mut self, mut search: Box<Mcts<G>>, mut line: Vec<G::Move>, mv: G::Move) {
        search.advance(mv);
        line.push(mv);
        self.keep(search, line);
    }

    /// Drops the kept search (a new game, a setting changed).
    pub fn forget(&mut self) {
        self.kept = None;
    }

    /// Searches `position` (reached by `line`) to `budget` and says what it found; the search is
    /// kept as it is (a hint: the game has not gone on).
    pub fn think(&mut self, position: &G, line: &[G::Move], budget: Budget, seed_index: u64) -> Verdict<G> {
        let mut search = self.search_for(position, line, seed_index);
        search.run(budget);
        let verdict = Verdict::of(&search);
        self.keep(search, line.to_vec());
        verdict
    }
}

/// What a finished search found in its root position: the move it prefers, that move's win rate
/// for the mover, the line it expects and what the solver proved.
#[derive(Clone, Debug)]
pub struct Verdict<G: Game> {
    /// The position searched.
    pub position: G,
    /// The move the search prefers (`None` when it ran no simulation, or the game is over).
    pub best: Option<G::Move>,
    /// The mover's win rate after `best`, in `[0, 1]`.
    pub win_rate: Option<f32>,
    /// The moves the search expects from the position on, `best` first.
    pub principal_variation: Vec<G::Move>,
    /// What the solver proved of the position for the mover.
    pub proof: Option<Proof>,
    /// Simulations the search ran.
    pub simulations: u64,
}

impl<G: Knowledge> Verdict<G> {
    /// The verdict of `search`.
    pub fn of(search: &Mcts<G>) -> Verdict<G> {
        Verdict {
            position: search.root().clone(),
            best: search.best_move(),
            win_rate: search.win_rate(),
            principal_variation: search.principal_variation(),
            proof: search.proof(),
            simulations: search.simulations(),
        }
    }
}

impl<G: Game> Verdict<G> {
    /// "win rate 62%" ("win rate -" before any simulation).
    pub fn win_rate_text(&self) -> String {
        format!("win rate {}", self.win_rate.map_or("-".to_string(), |w| format!("{:.0}%", 100.0 * w)))
    }

    /// The expected line in notation, six moves at most ("d4 c3 e5").
    pub fn line_text(&self) -> String {
        move_texts(&self.position, self.shown_line()).join(" ")
    }

    /// The expected line as a player reads it ([`Game::move_label`]: Trigon's moves carry their
    /// piece's name), six moves at most; the CLI's `play`.
    pub fn line_labels(&self) -> String {
        move_labels(&self.position, self.shown_line()).join(" ")
    }

    /// The verdict worded as its `Display`, with its moves as a player reads them
    /// ([`Game::move_label`]): "L5:r12,r13,s13,s14,t14, win rate 62%, expects …"; the CLI's hint.
    pub fn label_text(&self) -> String {
        let Some(best) = self.best else { return "no move".to_string() };
        self.worded(self.position.move_label(best), || self.line_labels())
    }

    fn shown_line(&self) -> &[G::Move] {
        &self.principal_variation[..self.principal_variation.len().min(SHOWN_LINE)]
    }

    /// "BEST, win rate 62%, expects LINE (proof)", the line only when it goes past the best move.
    fn worded(&self, best: String, line: impl FnOnce() -> String) -> String {
        let mut s = format!("{best}, {}", self.win_rate_text());
        if self.principal_variation.len() > 1 {
            s += &format!(", expects {}", line());
        }
        if let Some(proof) = self.proof_text() {
            s += &format!(" ({proof})");
        }
        s
    }

    /// What the solver proved, for the mover: "solved: it wins at once", "solved: a win within 3
    /// more plies" (after its move), "solved: every move loses, within 4 plies".
    pub fn proof_text(&self) -> Option<String> {
        Some(match self.proof? {
            Proof::Win(0 | 1) => "solved: it wins at once".to_string(),
            Proof::Win(plies) => {
                format!("solved: a win within {}", counted(usize::from(plies) - 1, "more ply", "more plies"))
            }
            Proof::Loss(plies) => format!("solved: every move loses, within {}", counted(plies.into(), "ply", "plies")),
        })
    }
}

/// "d4, win rate 62%, expects d4 c3 e5 (solved: a win within 3 more plies)"; "no move" when the
/// search found none.
impl<G: Game> fmt::Display for Verdict<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(best) = self.best else { return write!(f, "no move") };
        f.write_str(&self.worded(self.position.move_text(best), || self.line_text()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::trike::{Trike, TrikeOptions};

    #[test]
    fn proofs_count_their_plies_in_words() {
        let position = Trike::new(&TrikeOptions { size: 5 }).expect("a board");
        let said = |proof| {
            let verdict: Verdict<Trike> = Verdict {
                position: position.clone(),
                best: None,
                win_rate: None,
                principal_variation: Vec::new(),
                proof: Some(proof),
                simulations: 0,
            };
            verdict.proof_text().expect("a proof")
        };
        assert_eq!(said(Proof::Win(2)), "solved: a win within 1 more ply");
        assert_eq!(said(Proof::Win(4)), "solved: a win within 3 more plies");
        assert_eq!(said(Proof::Loss(1)), "solved: every move loses, within 1 ply");
    }
}
