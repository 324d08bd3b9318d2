//! What the side panel reads ([`PanelIn`]) and what a press in it asks ([`PanelAction`]): its
//! drawing reads the one and returns the others, which the side panel's system carries out.

use crate::ai::{Level, Seat};
use crate::app::ai_task::Purpose;
use crate::app::files::Format;
use crate::app::flow::{Command, MoveIntent, Status};
use crate::app::games::AppGame;
use crate::app::learn::{Learning, LessonAction};
use crate::app::model::Model;

/// What was pressed in the side panel, for its system to carry out (a few a frame at most, so the
/// large `Order` — a record to load — is not boxed).
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum PanelAction<M> {
    /// Play a move (Trike's Swap).
    Move(MoveIntent<M>),
    /// Undo, redo, menu, new game, rematch, load.
    Order(Command),
    /// Stop the AI's search and play its best move so far.
    MoveNow,
    /// Save the game in this format.
    Save(Format),
    /// Open the Load dialog.
    OpenLoad,
    /// Open… a game from a file anywhere, in the system's file dialog (the desktop).
    OpenFile,
    /// Save as… a file named in the system's file dialog (the desktop).
    SaveAs,
    /// Say this in the status line (the browser's file buttons).
    Status(Status),
    /// Analyze the game's line, this many simulations a position.
    Analyze(u64),
    /// Stop the analysis in progress.
    CancelAnalysis,
    /// Turn Show thinking on or off.
    ToggleThinking,
    /// A press in the lesson's panel.
    Lesson(LessonAction),
    /// Open the settings page.
    OpenSettings,
    /// A move typed in the move box, in the game's notation ([`crate::app::flow::TextIntent`]).
    Text(String),
    /// Resign or ask for a rematch in an online game.
    Online(crate::app::online::OnlineOrder),
}

/// What the side panel reads.
pub struct PanelIn<'a, G: AppGame> {
    /// The game in play.
    pub model: &'a Model<G>,
    /// The status line.
    pub status: &'a Status,
    /// The AI's search, while one runs: `(level, simulations, fraction of its budget)`.
    pub progress: Option<(Level, u64, f32)>,
    /// What the solver proved at the AI's last move, while it holds (`AiSearch::verdict`).
    pub verdict: Option<&'a str>,
    /// What the running search is for, if one runs.
    pub searching: Option<Purpose>,
    /// The hint for the position shown, if one was asked for there (`AiSearch::hint`).
    pub hint: Option<&'a str>,
    /// The analysis in progress: `(moves, share done)` (`Analyzing::progress`).
    pub analyzing: Option<(usize, f32)>,
    /// Show thinking is on.
    pub show_thinking: bool,
    /// The lesson in progress (Learn mode), shown in place of the move list.
    pub lesson: Option<&'a Learning>,
    /// The online game on the board, if it is one: no takebacks, tools as its creator allowed,
    /// the connection and clocks shown.
    pub online: Option<&'a crate::app::online::OnlineGame>,
}

impl<G: AppGame> PanelIn<'_, G> {
    /// Whether hints, Show thinking and analysis may be used (not in an online game whose
    /// creator did not allow them, until it ends).
    pub fn tools(&self) -> bool {
        self.online.is_none_or(|o| o.tools_allowed())
    }

    /// Whether the panel offers Undo, Redo, New game and its own Rematch: not in an online game
    /// (the online box has its Rematch; the server keeps every move), nor in a game of the
    /// server's players opened to review (every seat [`Seat::Remote`]: nobody here played it).
    pub fn local(&self) -> bool {
        self.online.is_none() && !self.model.seats().iter().all(|s| *s == Seat::Remote)
    }
}
