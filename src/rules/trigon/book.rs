//! Blokus Trigon's built-in opening books (`book.json` beside this module, written by `triboard
//! book build`: `rules::book`), and the position key they are found by. The books are our own
//! deep searches; nothing of Pentobi's book is in them.
//!
//! The `trigon-2` book (issue 37): 15 positions, each searched with 600,000 simulations on one
//! thread, the two most simulated moves followed at plies 0 and 1, one after (`triboard book build
//! trigon-2 --simulations 600000 --widths 2,2,1,1,1 --threads 1`, 13 minutes of one core beside
//! other work). **Screened and not kept on by default**: played by the build that has it against
//! the same search without it (`match --game trigon-2 --games 40 --seed 3761`, both `gtp
//! --seconds 0.5`, 0.40 and 0.41 s a move), it won **13–24–3** (36.2 %, 95 % interval 23–52 %),
//! 8–11–1 as the first player and 5–13–2 as the second. A deep search's opening moves are not
//! better for a 0.5 s search to play on from.
//! So `gtp` and `play` use it only with `--book`, and the app not at all.

use std::sync::OnceLock;

use super::{Trigon, TrigonMove, TrigonOptions, Variant, WORDS};
use crate::rules::book::{OpeningBook, enabled, parse_book};
use crate::rules::game::{Game, hash_words};

/// The built-in book file.
pub const BUILTIN_BOOK: &str = include_str!("book.json");

/// The built-in books, by variant (`trigon`, `trigon-2`, `trigon-3`), read at first use.
fn books() -> &'static [OpeningBook; 3] {
    static BOOKS: OnceLock<[OpeningBook; 3]> = OnceLock::new();
    BOOKS.get_or_init(|| {
        [Variant::Four, Variant::Two, Variant::Three].map(|variant| {
            let start = Trigon::new(&TrigonOptions { variant }).expect("every variant has a board");
            parse_book(BUILTIN_BOOK, variant.id(), &start).expect("the built-in book replays")
        })
    })
}

/// The built-in book of `variant`.
pub fn builtin_book(variant: Variant) -> &'static OpeningBook {
    &books()[match variant {
        Variant::Four => 0,
        Variant::Two => 1,
        Variant::Three => 2,
    }]
}

/// The built-in book's move in `game`'s position, while books are on.
pub fn builtin_move(game: &Trigon) -> Option<TrigonMove> {
    if !enabled() || game.is_over() {
        return None;
    }
    builtin_book(game.options.variant).lookup(game)
}

impl Trigon {
    /// A key of the position: each colour's cells and pieces left, who is out, the colour to move
    /// and whether its last piece was the 1-triangle (which its score counts): equal for the same
    /// position however its moves were ordered (`Knowledge::book_key`).
    pub fn position_key(&self) -> u64 {
        let colours = 0..self.colours as usize;
        let cells = colours.clone().flat_map(|c| self.own[c].0[..WORDS].iter().copied());
        let flags = colours.map(|c| {
            (self.left[c] as u64) | (self.out[c] as u64) << 32 | (self.last_mono[c] as u64) << 33 | (c as u64) << 40
        });
        hash_words(cells.chain(flags).chain([self.turn as u64, self.options.variant as u64]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::play_moves;

    #[test]
    fn the_key_is_the_position_not_its_caches_or_its_history() {
        let mut a = Trigon::new(&TrigonOptions { variant: Variant::Two }).unwrap();
        let empty = a.position_key();
        play_moves(&mut a, "r15,r14,s14,s13,t13,t12 p7,p6,q6,q5,r5,r4 j7,k7,l7,m7,n7,o7").unwrap();
        let key = a.position_key();
        assert_ne!(key, empty);
        // The playout caches (dead attach points, pieces that no longer fit) are not the position.
        let mut warmed = a.clone();
        crate::rules::Knowledge::warm_up(&mut warmed);
        assert_eq!(warmed.position_key(), key);
        let mut b = Trigon::new(&TrigonOptions { variant: Variant::Two }).unwrap();
        play_moves(&mut b, "r15,r14,s14,s13,t13,t12 p7,p6,q6,q5,r5,r4").unwrap();
        assert_ne!(b.position_key(), key);
        let three = Trigon::new(&TrigonOptions { variant: Variant::Three }).unwrap();
        assert_ne!(three.position_key(), empty);
    }

    #[test]
    fn every_built_in_book_replays_and_its_moves_are_legal() {
        for variant in [Variant::Four, Variant::Two, Variant::Three] {
            let book = builtin_book(variant);
            let start = Trigon::new(&TrigonOptions { variant }).unwrap();
            if !book.is_empty() {
                assert!(book.lookup(&start).is_some(), "{variant:?}: the book starts at the empty board");
            }
        }
    }
}
