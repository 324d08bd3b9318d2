//! The game ids' table ([`with_game`], built from the one list of games) and the game flags every
//! command shares ([`GameFlags`]), which become the rules' named parameters
//! ([`Game::options_with`](crate::rules::Game::options_with)): the command line has no code of its
//! own per game.

use clap::Args;

use super::CliError;
use crate::rules::{Game, Knowledge, ParamError};

/// The game flags every command shares; each game turns them into its options
/// ([`GameFlags::options`]) and refuses the ones it does not have.
#[derive(Args, Debug, Clone, Default)]
pub struct GameFlags {
    /// Board size (Trike: side of the triangle, 3–19, default 13).
    #[arg(long)]
    pub size: Option<u8>,
    /// The board by its id (Tri-It-Out: `hex-2-3`, `tri-5`, `equiversi-2-4`, `hex-3`, `tri-6`,
    /// `hex-3-4` (default), `equiversi-3-5`, `hex-4`, `hex-4-5`).
    #[arg(long)]
    pub board: Option<String>,
    /// Who loses a tie (Tri-It-Out): `last-mover-loses` (default), the player who made the last move
    /// (Ludii's rule), or `stuck-player-loses`, the player who cannot place (the published text read
    /// literally; it favours the second player).
    #[arg(long)]
    pub tie: Option<String>,
    /// A rules variant (Tri-It-Out: `standard` (default) or `any-mixed-triangle`).
    #[arg(long)]
    pub variant: Option<String>,
}

impl GameFlags {
    /// The flags given, as the rules' named parameters ([`Game::options_with`]).
    pub fn params(&self) -> Vec<(&'static str, String)> {
        let mut params = Vec::new();
        if let Some(size) = self.size {
            params.push(("size", size.to_string()));
        }
        for (name, value) in [("board", &self.board), ("tie", &self.tie), ("variant", &self.variant)] {
            if let Some(value) = value {
                params.push((name, value.clone()));
            }
        }
        params
    }

    /// The options of game `G` for id `id` and these flags.
    ///
    /// # Errors
    /// "trike takes no --board", or the game's reason for a value it refuses.
    pub fn options<G: Game>(&self, id: &str) -> Result<G::Options, String> {
        let params = self.params();
        let params: Vec<(&str, &str)> = params.iter().map(|(name, value)| (*name, value.as_str())).collect();
        G::options_with(id, &params).map_err(|e| match e {
            ParamError::Unknown(name) => format!("{id} takes no --{name}"),
            ParamError::Bad(why) => why,
        })
    }
}

/// The help of a game id argument, naming every game id ([`crate::rules::game_ids`]).
pub fn game_id_help() -> String {
    format!("The game id: {}", crate::rules::game_ids().join(", "))
}

/// Something a command does with one game type, chosen by id at run time.
pub trait GameTask {
    /// What the task returns.
    type Output;
    /// Runs the task with game type `G`; `id` is the id it was chosen by (one of `G::IDS`).
    fn run<G: Knowledge>(self, id: &str) -> Self::Output;
}

/// Runs `task` with the game type that plays `id`, found in the one list of games
/// ([`crate::for_each_game`]).
///
/// # Errors
/// A usage error for an unknown game id, naming the known ones.
pub fn with_game<T: GameTask>(id: &str, task: T) -> Result<T::Output, CliError> {
    macro_rules! find {
        ($($g:ty),*) => {
            $( if <$g as Game>::IDS.contains(&id) {
                return Ok(task.run::<$g>(id));
            } )*
        };
    }
    crate::for_each_game!(find);
    Err(CliError::usage(format!("unknown game '{id}' (playable: {})", crate::rules::game_ids().join(", "))))
}
