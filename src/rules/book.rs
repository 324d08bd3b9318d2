//! Opening books: for the first positions of a game, the move a deep search of our own chose
//! (`triboard book build`, `cli::book`), played at once instead of a search by `gtp` and `play`
//! when asked to (`--book`, [`set_enabled`]): off by default, as the book lost its screen
//! (`rules/trigon/book.rs`). A book file is JSON
//! ([`BookFile`]): for each position the line of moves that reaches it from the start (the game's
//! notation), the moves the search simulated most, with their simulations and mean reward. Lines
//! keep the file readable and checkable: loading replays each one, and a position is found again
//! by its [`Knowledge::book_key`], however its moves were ordered.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

use super::Knowledge;

/// Whether front ends play book moves (`--book` sets it).
static ENABLED: AtomicBool = AtomicBool::new(false);

/// Turns the books on or off for this process (`--book`).
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// True once the books were turned on.
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// A book file: the books of one or more game ids.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BookFile {
    /// The command that built it, for the record.
    #[serde(default)]
    pub built_with: String,
    /// One book per game id.
    pub books: Vec<GameBook>,
}

/// The positions of one game id.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GameBook {
    /// The game id (`trigon-2`).
    pub game: String,
    /// Simulations each position was searched with.
    pub simulations: u64,
    /// The positions, parents before children.
    pub positions: Vec<BookPosition>,
}

/// One searched position.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BookPosition {
    /// The moves from the start that reach it, in the game's notation.
    pub line: Vec<String>,
    /// The most simulated moves, most first: the first is the book's move.
    pub top: Vec<BookMove>,
}

/// A move of a [`BookPosition`] with what the search found of it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BookMove {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its simulations.
    pub visits: u64,
    /// Its mean reward for the mover, 0–1.
    pub value: f32,
}

/// A book ready to answer: the book move of each position by its key.
#[derive(Clone, Debug, Default)]
pub struct OpeningBook {
    moves: HashMap<u64, String>,
}

impl OpeningBook {
    /// The book of `book`'s positions, replayed from `start`.
    ///
    /// # Errors
    /// A position whose line or book move is not legal, or a game without [`Knowledge::book_key`]:
    /// the position's index and the reason.
    pub fn new<G: Knowledge>(book: &GameBook, start: &G) -> Result<OpeningBook, String> {
        let mut moves = HashMap::new();
        for (i, p) in book.positions.iter().enumerate() {
            let fail = |why: String| format!("{} book, position {}: {why}", book.game, i + 1);
            let mut g = start.clone();
            for text in &p.line {
                let mv = g.parse_move(text).map_err(|e| fail(format!("move '{text}': {e}")))?;
                g.play(mv).map_err(|e| fail(format!("move '{text}': {e}")))?;
            }
            let best = p.top.first().ok_or_else(|| fail("no move".to_string()))?;
            let mv = g.parse_move(&best.mv).map_err(|e| fail(format!("book move '{}': {e}", best.mv)))?;
            g.clone().play(mv).map_err(|e| fail(format!("book move '{}': {e}", best.mv)))?;
            let key = g.book_key().ok_or_else(|| fail("the game has no book keys".to_string()))?;
            moves.insert(key, best.mv.clone());
        }
        Ok(OpeningBook { moves })
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True when the book has no position.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The book's move in `game`'s position, if the book has the position (whether or not books
    /// are [`enabled`]).
    pub fn lookup<G: Knowledge>(&self, game: &G) -> Option<G::Move> {
        let text = self.moves.get(&game.book_key()?)?;
        let mv = game.parse_move(text).ok()?;
        game.clone().play(mv).ok().map(|()| mv)
    }
}

/// The book of game id `id` in the JSON text `json` (an empty book if it has none).
///
/// # Errors
/// Text that is not a book file, or a position that does not replay ([`OpeningBook::new`]).
pub fn parse_book<G: Knowledge>(json: &str, id: &str, start: &G) -> Result<OpeningBook, String> {
    let file: BookFile = serde_json::from_str(json).map_err(|e| format!("not a book file: {e}"))?;
    match file.books.iter().find(|b| b.game == id) {
        Some(book) => OpeningBook::new(book, start),
        None => Ok(OpeningBook::default()),
    }
}
