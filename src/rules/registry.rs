//! The registry of triboard's games: the one list every game table is built from
//! ([`for_each_game`](crate::for_each_game)), apart from the [`Game`] API itself (`game.rs`), as
//! OpenSpiel keeps its API and its game registration apart.

use super::game::Game;

/// The one list of triboard's games, in the order menus show them: expands to `$m!(Type, …)` with
/// every game type, so that the command line's table of game ids ([`crate::cli::with_game`]) and the
/// app's registry (`app::games::each_game`) are both built from it. Adding a game is one line here
/// (with its `pub mod` in `rules/mod.rs`).
#[macro_export]
macro_rules! for_each_game {
    ($m:ident) => {
        $m! {
            $crate::rules::trike::Trike,
            $crate::rules::tri_it_out::TriItOut,
            $crate::rules::tricore::TriCore,
            $crate::rules::trisq::Trisq,
            $crate::rules::trigon::Trigon
        }
    };
}

/// Every game id of every game, in the list's order ([`for_each_game`]).
pub fn game_ids() -> Vec<&'static str> {
    let mut ids = Vec::new();
    macro_rules! push {
        ($($g:ty),*) => { $( ids.extend(<$g as Game>::IDS); )* };
    }
    crate::for_each_game!(push);
    ids
}
