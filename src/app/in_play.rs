//! The game in play, whatever its type ([`InPlay`]): what the systems that serve every game read —
//! the window title, the share link, the page's state.

use bevy::prelude::*;

use super::games::AppGame;
use super::model::Model;
use crate::rules::record::Record;

/// The game in play, whatever its type: what the systems that serve every game read (the window
/// title, the share link, the page's state). Refreshed when the model changes.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct InPlay(pub Option<Summary>);

/// A game in play, as [`InPlay`] holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The ids its game type plays ([`Game::IDS`](crate::rules::Game::IDS)).
    pub ids: &'static [&'static str],
    /// The window title: game, moves, who is to move or the result.
    pub title: String,
    /// Its record (options, moves, players, result).
    pub record: Record,
    /// The model's revision.
    pub revision: u64,
    /// Who is to move, by colour name; `None` once over.
    pub to_move: Option<&'static str>,
    /// True once the game is over.
    pub over: bool,
    /// The moves played to the position shown (fewer than the record's in review).
    pub shown: usize,
    /// Reviewing an earlier position ([`Model::review`]).
    pub review: bool,
    /// Moves the game's analysis covers (0 without one).
    pub analysed: usize,
    /// Mistakes the analysis marked.
    pub mistakes: usize,
    /// The seat to move at the line's end (`None` once over): the window title's "Your move"
    /// in an online game.
    pub seat_to_move: Option<u8>,
    /// A person's seat is to move at the line's end.
    pub person_to_move: bool,
    /// A seat is played over the network ([`crate::ai::Seat::Remote`]): an online game's board.
    pub remote: bool,
    /// The online game the board plays, by its id on the server ([`Model::online`]).
    pub online: Option<String>,
}

/// The window title of a game in play: the game, the number of moves and who is to move or who won
/// (the browser page shows it as its title, and the browser test reads it).
pub fn title_text<G: AppGame>(model: &Model<G>) -> String {
    let game = model.game();
    let n = model.moves().len();
    let state = match (model.result_text(), model.to_move()) {
        (Some(result), _) => result,
        (None, Some(p)) => format!("{} to move", game.player_name(p)),
        (None, None) => String::new(),
    };
    format!("{} · {n} move{} · {state} — triboard", game.display_name(), if n == 1 { "" } else { "s" })
}

impl Summary {
    /// The summary of `model`.
    pub fn of<G: AppGame>(model: &Model<G>) -> Summary {
        Summary {
            ids: G::IDS,
            title: title_text(model),
            record: model.record(),
            revision: model.revision(),
            to_move: model.to_move().map(|p| model.game().player_name(p)),
            over: model.over(),
            shown: model.moves().len(),
            review: model.review(),
            analysed: model.analysed().len(),
            mistakes: model.analysed().iter().filter(|a| a.mistake).count(),
            seat_to_move: model.to_move().map(|p| p.0),
            remote: model.seats().contains(&crate::ai::Seat::Remote),
            online: model.online().map(str::to_string),
            person_to_move: model
                .to_move()
                .is_some_and(|p| model.seats().get(usize::from(p.0)) == Some(&crate::ai::Seat::Human)),
        }
    }
}

pub(super) fn summarise<G: AppGame>(model: Res<Model<G>>, mut in_play: ResMut<InPlay>) {
    in_play.0 = Some(Summary::of(&*model));
}
