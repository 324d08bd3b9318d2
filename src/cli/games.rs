//! The game ids' table ([`with_game`], built from the one list of games) and the game flags every
//! command shares ([`GameFlags`]), which become the rules' named parameters
//! ([`Game::options_with`](crate::rules::Game::options_with)), and the start position they give
//! ([`start_position`]): the command line has no code of its own per game.

use clap::Args;

use serde_json::Value;

use super::error::CliError;
use crate::rules::{Game, Knowledge, ParamError, play_moves};

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

/// Runs `task` with the game a record of `file` names: an unknown game is the file's failure, not a
/// bad command line.
///
/// # Errors
/// The task's own errors; an unknown game (failure naming the file).
pub fn with_record_game<T: GameTask<Output = Result<Value, CliError>>>(
    id: &str,
    file: &str,
    task: T,
) -> Result<Value, CliError> {
    with_game(id, task).unwrap_or_else(|e| Err(CliError::failure(format!("{file}: {e}"))))
}

/// The start position of game `G` for these flags, after the moves of `--moves`.
///
/// # Errors
/// Usage errors: a flag the game refuses, options out of range, or a bad move
/// (`--moves: move 3 (b2): reason`).
pub fn start_position<G: Knowledge>(
    id: &str,
    flags: &GameFlags,
    moves: Option<&str>,
) -> Result<(G, Vec<G::Move>), CliError> {
    let options = flags.options::<G>(id).map_err(CliError::usage)?;
    let start = G::new(&options).map_err(CliError::usage)?;
    let mut game = start.clone();
    let mut played = Vec::new();
    if let Some(moves) = moves {
        play_moves(&mut game, moves).map_err(|e| CliError::usage(format!("--moves: {e}")))?;
        // Every move is now known to be legal: keep them for records and undo.
        let mut g = start;
        for text in moves.split_whitespace() {
            let mv = g.parse_move(text).expect("play_moves accepted it");
            g.play_unchecked(mv);
            played.push(mv);
        }
    }
    Ok((game, played))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::move_texts;
    use crate::rules::trike::Trike;

    #[test]
    fn unknown_games_are_usage_errors() {
        struct Id;
        impl GameTask for Id {
            type Output = String;
            fn run<G: Knowledge>(self, id: &str) -> String {
                id.to_string()
            }
        }
        assert_eq!(with_game("trike", Id), Ok("trike".to_string()));
        assert_eq!(with_game("trigon-2", Id), Ok("trigon-2".to_string()));
        assert_eq!(with_game("trisq", Id), Ok("trisq".to_string()));
        assert!(matches!(with_game("chess", Id), Err(CliError::Usage(m)) if m.contains("unknown game")));
    }

    #[test]
    fn bad_moves_name_their_place() {
        let e = start_position::<Trike>("trike", &GameFlags { size: Some(5), ..GameFlags::default() }, Some("a1 zz9"))
            .unwrap_err();
        assert!(matches!(&e, CliError::Usage(m) if m.starts_with("--moves: move 2 (zz9): ")), "{e}");
        let (g, moves) =
            start_position::<Trike>("trike", &GameFlags { size: Some(5), ..GameFlags::default() }, Some("c3 c4"))
                .unwrap();
        assert_eq!(g.ply(), 2);
        assert_eq!(move_texts(&Trike::new(g.options()).unwrap(), &moves), ["c3", "c4"]);
    }
}
