//! What a press in the side panel asks ([`PanelAction`]): the panel's drawing returns them, the
//! side panel's system carries them out.

use crate::app::files::Format;
use crate::app::flow::{Command, MoveIntent, Status};
use crate::app::learn::LessonAction;

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
}
