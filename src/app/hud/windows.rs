//! The side panel's own windows and what they remember between frames ([`PanelWindows`]), apart
//! from the panel's drawing so that what opens a file or drops a game can ask for a confirmation
//! without importing the panel.

use crate::app::flow::Command;
use crate::app::games::AppGame;
use crate::app::model::Model;

/// The side panel's own windows and what they remember between frames.
#[derive(bevy::prelude::Resource, Debug, Default)]
pub struct PanelWindows {
    /// The panel shows the rules instead of the move list.
    pub rules: bool,
    /// An order that drops the unfinished game in play, waiting for the person to confirm it
    /// (New game, Rematch, Load).
    pub confirm: Option<Command>,
    /// The model revision whose result was folded away.
    pub folded: Option<u64>,
    /// The model revision whose result was unfolded on a short window (where it starts folded).
    pub unfolded: Option<u64>,
    /// The win-rate graph was folded away (`Some(true)`) or shown (`Some(false)`) by hand; `None`:
    /// shown where the move list keeps [`LIST_MIN`](super::graph::LIST_MIN) below it.
    pub graph_folded: Option<bool>,
    /// What is typed in the move box (beside "Moves"), not yet sent.
    pub typed: String,
    /// Resign was pressed in an online game: "Resign this game?" asks before it goes to the
    /// server.
    pub resign: bool,
}

impl PanelWindows {
    /// `order` at once when the game in play is finished or has no move yet; else `None`, and the
    /// confirmation asks first ("Drop the game in play?"), which sends it only on Drop.
    pub fn drop_game<G: AppGame>(&mut self, model: &Model<G>, order: Command) -> Option<Command> {
        if model.moves().is_empty() || model.over() {
            return Some(order);
        }
        self.confirm = Some(order);
        None
    }
}
