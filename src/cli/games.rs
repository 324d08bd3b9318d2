//! The one table from game id to game type ([`with_game`]), the game flags every command shares
//! ([`GameFlags`]) and how each game turns them into its options ([`CliGame`]).

use clap::Args;

use super::CliError;
use crate::rules::tri_it_out::{self, Board, TieRule, TriItOut, TriItOutOptions};
use crate::rules::tricore::{TriCore, TriCoreOptions};
use crate::rules::trigon::{Trigon, TrigonOptions};
use crate::rules::trike::{Trike, TrikeOptions};
use crate::rules::trisq::{Trisq, TrisqOptions};
use crate::rules::{Game, Knowledge};

/// The game flags every command shares; each game turns them into its options
/// ([`CliGame::options_from_flags`]) and refuses the ones it does not have.
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
    /// Refuses every flag but those in `taken` (by their names without dashes) for game `id`.
    ///
    /// # Errors
    /// "trike takes no --board".
    pub fn only(&self, id: &str, taken: &[&str]) -> Result<(), String> {
        let given = [
            ("size", self.size.is_some()),
            ("board", self.board.is_some()),
            ("tie", self.tie.is_some()),
            ("variant", self.variant.is_some()),
        ];
        match given.iter().find(|(name, set)| *set && !taken.contains(name)) {
            Some((name, _)) => Err(format!("{id} takes no --{name}")),
            None => Ok(()),
        }
    }
}

/// A game the CLI can run: the [`Game`] with its search [`Knowledge`], plus how the shared flags
/// become its options.
pub trait CliGame: Knowledge {
    /// The options for game id `id` (one of [`Game::IDS`]) and these flags, starting from the
    /// game's defaults.
    ///
    /// # Errors
    /// A flag this game does not take (range checks are left to [`Game::new`]).
    fn options_from_flags(id: &str, flags: &GameFlags) -> Result<Self::Options, String>;
}

impl CliGame for Trike {
    fn options_from_flags(id: &str, flags: &GameFlags) -> Result<TrikeOptions, String> {
        flags.only(id, &["size"])?;
        let mut options = TrikeOptions::default();
        if let Some(size) = flags.size {
            options.size = size;
        }
        Ok(options)
    }
}

impl CliGame for Trigon {
    /// The variant is the id: `trigon`, `trigon-2` or `trigon-3` ([`Game::options_for_id`],
    /// `docs/rules/trigon.md` §Variants).
    fn options_from_flags(id: &str, flags: &GameFlags) -> Result<TrigonOptions, String> {
        flags.only(id, &[]).map_err(|e| format!("{e}: its id sets the board"))?;
        Ok(Trigon::options_for_id(id))
    }
}

impl CliGame for TriItOut {
    /// `--board`, `--tie` and `--variant` by their ids (`docs/rules/tri-it-out.md` §Board, §End, §Variant).
    fn options_from_flags(id: &str, flags: &GameFlags) -> Result<TriItOutOptions, String> {
        flags.only(id, &["board", "tie", "variant"])?;
        let mut options = TriItOutOptions::default();
        fn ids<T: Copy>(all: &[T], id: impl Fn(T) -> &'static str) -> String {
            all.iter().map(|&t| id(t)).collect::<Vec<_>>().join(", ")
        }
        if let Some(board) = &flags.board {
            options.board = Board::from_id(board)
                .ok_or_else(|| format!("unknown board '{board}' (boards: {})", ids(&Board::ALL, Board::id)))?;
        }
        if let Some(tie) = &flags.tie {
            options.tie = TieRule::from_id(tie)
                .ok_or_else(|| format!("unknown tie rule '{tie}' (rules: {})", ids(&TieRule::ALL, TieRule::id)))?;
        }
        if let Some(variant) = &flags.variant {
            let all = &tri_it_out::Variant::ALL;
            options.variant = tri_it_out::Variant::from_id(variant).ok_or_else(|| {
                format!("unknown variant '{variant}' (variants: {})", ids(all, tri_it_out::Variant::id))
            })?;
        }
        Ok(options)
    }
}

impl CliGame for TriCore {
    /// TriCore has one board and no options (`docs/rules/tricore.md` §Board).
    fn options_from_flags(id: &str, flags: &GameFlags) -> Result<TriCoreOptions, String> {
        flags.only(id, &[])?;
        Ok(TriCoreOptions::default())
    }
}

impl CliGame for Trisq {
    /// `--size`: squares a side (`docs/rules/trisq.md` §Board).
    fn options_from_flags(id: &str, flags: &GameFlags) -> Result<TrisqOptions, String> {
        flags.only(id, &["size"])?;
        let mut options = TrisqOptions::default();
        if let Some(size) = flags.size {
            options.size = size;
        }
        Ok(options)
    }
}

/// Something a command does with one game type, chosen by id at run time.
pub trait GameTask {
    /// What the task returns.
    type Output;
    /// Runs the task with game type `G`; `id` is the id it was chosen by (one of `G::IDS`).
    fn run<G: CliGame>(self, id: &str) -> Self::Output;
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
