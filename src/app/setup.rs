//! The start screen's choice — a game of the registry with its options, and who sits in each seat —
//! and the start of its game ([`Setup`], `docs/design.md` §app).

use bevy::prelude::*;

use super::games::{AppGame, ForGame, for_id};
use super::in_play::{InPlay, Summary};
use super::model::{Model, Status};
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
    /// Game type `G` with `options`.
    pub fn of<G: Game>(options: &G::Options) -> GameOptions {
        GameOptions { game: G::IDS[0].to_string(), options: serde_json::to_value(options).expect("options serialise") }
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

/// A game left for the start screen by Menu, kept until Resume brings it back or another game
/// starts.
#[derive(Resource, Default)]
pub struct Suspended {
    /// The game kept, if any.
    pub game: Option<SuspendedGame>,
    /// Set by the start screen's Resume: the next [`Screen::Playing`](super::Screen) restores the
    /// game kept instead of starting the [`Setup`].
    pub resume: bool,
}

/// A game kept by [`Suspended`]: what the start screen says of it, and how to put it back.
pub struct SuspendedGame {
    /// Its name ("Trike").
    pub name: String,
    /// Its moves so far.
    pub moves: usize,
    /// True when it is over.
    pub over: bool,
    /// Its setup (the start screen's choice it came from, with its seats).
    pub setup: Setup,
    restore: Box<dyn FnOnce(&mut Commands) -> Summary + Send + Sync>,
}

impl Suspended {
    /// Keeps the game of `model` as it is (its moves, redo stack and seats).
    pub fn keep<G: AppGame>(model: &Model<G>) -> Suspended {
        let kept = model.clone();
        let setup = Setup { game: GameOptions::of::<G>(model.game.options()), seats: model.seats.clone() };
        Suspended {
            game: Some(SuspendedGame {
                name: model.game.display_name(),
                moves: model.moves.len(),
                over: model.game.outcome().is_some(),
                setup,
                restore: Box::new(move |commands: &mut Commands| {
                    let summary = Summary::of(&kept);
                    commands.insert_resource(kept);
                    summary
                }),
            }),
            resume: false,
        }
    }

    /// Asks for the game kept to come back at the next [`Screen::Playing`](super::Screen), with its
    /// setup; false when none is kept.
    pub fn resume(&mut self, setup: &mut Setup) -> bool {
        let Some(kept) = &self.game else { return false };
        *setup = kept.setup.clone();
        self.resume = true;
        true
    }

    /// True when a game is kept that is not over (starting another drops it: ask first).
    pub fn unfinished(&self) -> bool {
        self.game.as_ref().is_some_and(|g| !g.over && g.moves > 0)
    }
}

/// Starts the game of the [`Setup`] — or, after Resume, puts back the game [`Suspended`] kept —
/// with its model, and at once its [`InPlay`] summary (so a share link being opened sees the board
/// up in the next frame). Starting a game drops a kept one.
pub(super) fn start_game(
    mut commands: Commands,
    setup: Res<Setup>,
    mut status: ResMut<Status>,
    mut in_play: ResMut<InPlay>,
    mut suspended: ResMut<Suspended>,
) {
    let resume = std::mem::take(&mut suspended.resume);
    if let Some(kept) = suspended.game.take()
        && resume
    {
        in_play.0 = Some((kept.restore)(&mut commands));
        *status = Status::info(format!("Resumed {} after {} moves", kept.name, kept.moves));
        return;
    }
    struct Start<'a, 'w, 's>(&'a Setup, &'a mut Commands<'w, 's>);
    impl ForGame for Start<'_, '_, '_> {
        type Output = Result<(String, Summary), String>;
        fn run<G: AppGame>(self) -> Self::Output {
            let model = Model::<G>::with(&self.0.game.read::<G>()?, &self.0.seats)?;
            let said = (model.game.new_game_text(), Summary::of(&model));
            self.1.insert_resource(model);
            Ok(said)
        }
    }
    let id = setup.game.game.as_str();
    *status = match for_id(id, Start(&setup, &mut commands)).unwrap_or_else(|| Err(unknown_game(id))) {
        Ok((text, summary)) => {
            in_play.0 = Some(summary);
            Status::info(text)
        }
        Err(e) => Status::error(e),
    };
}

/// The refusal of a game id no game of the app plays, naming those it knows.
pub fn unknown_game(id: &str) -> String {
    format!("'{id}' is not a game triboard knows; it plays {}", crate::rules::game_ids().join(", "))
}
