//! The start screen's choice — a game of the registry with its options, and who sits in each seat
//! ([`Setup`], `docs/design.md` §app); the session ([`super::session`]) starts its game.

use bevy::prelude::*;

use crate::ai::{Level, Seat};
use crate::rules::Game;

/// Which game the start screen chose, with its options: a game id and the options as the game's
/// `Options` type serialises them, as a record holds them (so any game of the registry fits).
#[derive(Clone, Debug, PartialEq)]
pub struct GameOptions {
    /// A game id of the registry (`trike`, `trigon`, …).
    pub game: String,
    /// The options (`{"size": 13}`); `null` for the game's defaults.
    pub options: serde_json::Value,
}

impl GameOptions {
    /// Game type `G` with `options`, under the id those options make (`trigon-3` for Blokus
    /// Trigon's three-player variant, as records and the server name it).
    pub fn of<G: Game>(options: &G::Options) -> GameOptions {
        let id = G::new(options).map_or(G::IDS[0], |game| game.id());
        GameOptions { game: id.to_string(), options: serde_json::to_value(options).expect("options serialise") }
    }

    /// The options as game type `G` reads them (`null` or a missing field: the defaults).
    ///
    /// # Errors
    /// Options that are not `G`'s, with serde's reason.
    pub fn read<G: Game>(&self) -> Result<G::Options, String> {
        if self.options.is_null() {
            return Ok(G::Options::default());
        }
        serde_json::from_value(self.options.clone()).map_err(|e| format!("bad options for {}: {e}", self.game))
    }
}

/// What the start screen chose: the game with its options and who sits in each seat.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Setup {
    /// The game and its options.
    pub game: GameOptions,
    /// One per seat, in the order the seats first move (Trike: seat 0 opens as Black, seat 1 may
    /// swap; Trigon: the colours in their order, or in two-player Blue/Red then Yellow/Green).
    pub seats: Vec<Seat>,
}

impl Default for Setup {
    fn default() -> Self {
        Setup::of::<crate::rules::trike::Trike>(
            &Default::default(),
            &[Seat::Human, Seat::Ai(Level::new(3).expect("level 3"))],
        )
    }
}

impl Setup {
    /// A game of type `G` with `options`; `seats` is cut or filled with people to the game's seat
    /// count (Trigon's variants seat 4, 2 and 3).
    pub fn of<G: Game>(options: &G::Options, seats: &[Seat]) -> Setup {
        let mut seats = seats.to_vec();
        if let Ok(start) = G::new(options) {
            seats.resize(start.num_players(), Seat::Human);
        }
        Setup { game: GameOptions::of::<G>(options), seats }
    }
}

/// The refusal of a game id no game of the app plays, naming those it knows.
pub fn unknown_game(id: &str) -> String {
    format!("'{id}' is not a game triboard knows; it plays {}", crate::rules::game_ids().join(", "))
}
