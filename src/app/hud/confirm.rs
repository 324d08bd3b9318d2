//! The side panel's questions over everything: "Resign this game?" (or "Cancel this game?" before
//! an online game has started) and "Drop the game in play?" before an order would drop an
//! unfinished game.

use bevy_egui::egui;

use super::action::PanelAction;
use super::windows::PanelWindows;
use crate::app::flow::Command;
use crate::app::games::AppGame;
use crate::app::model::Model;
use crate::app::ui::{UiRects, confirm_drop};

/// "Resign this game?" over everything, after Resign in an online game: Resign sends it, Keep
/// playing (or Esc, or a click beside it) keeps the game; a game that ended meanwhile asks no more.
fn confirm_resign<G: AppGame>(
    ctx: &egui::Context,
    (model, started): (&Model<G>, bool),
    windows: &mut PanelWindows,
    rects: &mut UiRects,
    actions: &mut Vec<PanelAction<G::Move>>,
) {
    if model.over() {
        windows.resign = false;
        return;
    }
    let others = if model.seats().len() == 2 { "Your opponent wins." } else { "The other players win." };
    let (title, said, what, press) = if started {
        ("Resign this game?", others, "The server ends it for every player; it cannot be taken back.", "Resign")
    } else {
        (
            "Cancel this game?",
            "Not every player has moved yet: nobody wins or loses, and nothing is rated.",
            "The server calls it off for every player.",
            "Cancel the game",
        )
    };
    match confirm_drop(ctx, rects, title, said, what, press) {
        Some(true) => {
            windows.resign = false;
            actions.push(PanelAction::Online(crate::app::online::OnlineOrder::Resign));
        }
        Some(false) => windows.resign = false,
        None => {}
    }
}

/// "Drop the game in play?" over everything, while an order waits for it: Drop sends the order,
/// Keep playing (or Esc, or a click beside it) keeps the game.
pub(super) fn confirm<G: AppGame>(
    ctx: &egui::Context,
    (model, started): (&Model<G>, bool),
    windows: &mut PanelWindows,
    rects: &mut UiRects,
    actions: &mut Vec<PanelAction<G::Move>>,
) {
    if windows.resign {
        confirm_resign(ctx, (model, started), windows, rects, actions);
    }
    let Some(order) = &windows.confirm else { return };
    let (what, drop) = match order {
        Command::Rematch => ("A rematch starts the same game afresh.", "Drop it, rematch"),
        Command::Load(_) => ("The saved game takes its place.", "Drop it, load"),
        _ => ("New game goes to the start screen without it; Menu would keep it.", "Drop it"),
    };
    let n = model.moves().len();
    let played =
        format!("{} is unfinished: {n} move{} played.", model.game().display_name(), if n == 1 { "" } else { "s" });
    match confirm_drop(ctx, rects, "Drop the game in play?", &played, what, drop) {
        Some(true) => actions.extend(windows.confirm.take().map(PanelAction::Order)),
        Some(false) => windows.confirm = None,
        None => {}
    }
}
