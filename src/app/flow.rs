//! What the app's systems tell each other, and the screen they run on: the messages
//! ([`MoveIntent`], [`Command`], [`TextIntent`], [`Analysed`]), the status line ([`Status`]), what
//! the game line refuses besides the rules ([`Gate`]), the order of a frame ([`Step`]) and the
//! [`Screen`] state. It imports nothing else of the app, so
//! every system and panel can use it without importing the others.

use bevy::prelude::*;

use crate::rules::record::{Analysis, Record};

/// The screens of the app.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    /// The egui start screen: game, options, seats.
    #[default]
    Menu,
    /// A game on the board.
    Playing,
}

/// A request to play a move: from a click on the board, the Swap button, or a finished search.
/// One message type per game's move type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveIntent<M> {
    /// The move.
    pub mv: M,
    /// True when an AI search produced it (people may not move for an AI seat, nor it for them).
    pub from_ai: bool,
}

impl<M: Send + Sync + 'static> Message for MoveIntent<M> {}

/// Requests that change the game other than by a move.
#[derive(Message, Clone, Debug)]
pub enum Command {
    /// Take back the last turn (in Human vs AI, back to the person's last turn).
    Undo,
    /// Replay an undone turn.
    Redo,
    /// Back to the start screen, dropping the game (the side panel asks first when it is unfinished).
    NewGame,
    /// Back to the start screen keeping the game: its Resume brings it back as it was, until
    /// another game starts (`session::Suspended`).
    Menu,
    /// The same board again, the seats moved round by one (the next seat opens).
    Rematch,
    /// Replace the game by a saved record (checked move by move; a bad record changes nothing).
    /// The seats stay as they are; a record of another game opens as a share link does, with its
    /// own seats.
    Load(Record),
    /// Like [`Command::Load`], but the seats become those the record names (people where it names
    /// none, or not one per seat): a share link's, a lesson's step (`session::OpenRecord`).
    Open(Record),
    /// Like [`Command::Open`], with these seats: an online game put on the board, joined,
    /// resumed or rematched (`app::online`), where the person's seat is [`Seat::Human`] and the
    /// others [`Seat::Remote`].
    ///
    /// [`Seat::Human`]: crate::ai::Seat::Human
    /// [`Seat::Remote`]: crate::ai::Seat::Remote
    OpenSeated(Record, Seating),
    /// Show another position of the line (the move list's clicks, ←/→/Home/End, the graph's
    /// points, Next mistake): `Model::review_to`.
    Review(ReviewTo),
    /// Play on from the position reviewed (`Model::play_from_here`).
    PlayFromHere,
    /// Make variation `k` the line (`Model::switch_line`).
    SwitchLine(usize),
    /// A hint for the person to move: counted here, searched by `ai_task`.
    Hint,
    /// The game ended off the board (`Model::end`): an online game's server said a seat resigned
    /// or ran out of time.
    End(Ending),
}

/// The seats of a board opened by [`Command::OpenSeated`], and the online game it is opened for:
/// the board keeps that game's id ([`PlayedPly::online`]), so a move made on it is known to be of
/// that game and no other (`docs/design.md` §Network play).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seating {
    /// Each seat's player, in seat order.
    pub seats: Vec<crate::ai::Seat>,
    /// The online game's id on its server, when the board plays one.
    pub online: Option<String>,
}

/// A move a seat chose, as the validation system played it on the board (not a move the rules
/// forced after it, nor one the server sent): what the online client sends to the server, when it
/// is the person's move of that client's game, at the ply the server expects next.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct PlayedPly {
    /// The online game the board plays ([`Seating::online`]); `None` for a board of no online game.
    pub online: Option<String>,
    /// The move's index in the line (0 for the game's first move), in plies.
    pub ply: u32,
    /// The seat that made it.
    pub seat: u8,
    /// True when an AI search chose it.
    pub from_ai: bool,
    /// The move in the game's notation.
    pub text: String,
}

/// How a game ended off the board: a seat resigned or ran out of time, and every other seat won
/// (`docs/design.md` §Network play: the server ends games by resignation or flag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The seat that resigned or lost on time.
    pub seat: u8,
    /// True when its clock ran out; false for a resignation.
    pub flagged: bool,
    /// True when it happened before every seat had moved: the game is aborted, nobody wins
    /// (`docs/design.md` §Network play).
    pub aborted: bool,
}

impl Ending {
    /// How the seat lost, after its name: "resigned" or "ran out of time".
    pub fn how(self) -> &'static str {
        if self.flagged { "ran out of time" } else { "resigned" }
    }
}

/// Which position of the line to show in review.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReviewTo {
    /// The position after this many moves.
    Ply(usize),
    /// One move back (←).
    Back,
    /// One move on (→).
    Forward,
    /// The start (Home).
    Start,
    /// The line's end, where the game goes on (End).
    End,
    /// The position before the next move the analysis marked a mistake, after the one shown;
    /// past the last, the first (it wraps).
    NextMistake,
    /// The position before the previous move the analysis marked a mistake, before the one shown;
    /// before the first, the last (it wraps).
    PreviousMistake,
}

/// A finished analysis of the game's line (the app's Analyze game), for the validation system to
/// keep in the model.
#[derive(Clone, Debug)]
pub struct Analysed<M> {
    /// The analysis, as a record keeps it.
    pub analysis: Analysis,
    /// The line it analysed.
    pub line: Vec<M>,
}

impl<M: Send + Sync + 'static> Message for Analysed<M> {}

/// The status line: what just happened, or why a move was refused.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// The sentence shown.
    pub text: String,
    /// True when it explains a refusal or an error (shown in red).
    pub error: bool,
}

impl Status {
    /// A sentence of what happened.
    pub fn info(text: impl Into<String>) -> Status {
        Status { text: text.into(), error: false }
    }
    /// A refusal or an error, shown in red.
    pub fn error(text: impl Into<String>) -> Status {
        Status { text: text.into(), error: true }
    }
    /// The refusal of move `text` for `reason`: "c3: the pawn is already there", or the reason
    /// alone when it names the move first, plainly or quoted ("c3 is not on a straight line …",
    /// "'zz9' is not a cell …"), so the move is not said twice.
    pub fn refusal(text: &str, reason: impl std::fmt::Display) -> Status {
        let reason = reason.to_string();
        let quoted = format!("'{text}'");
        let names_it = [text, quoted.as_str()]
            .iter()
            .any(|name| reason.strip_prefix(name).is_some_and(|rest| rest.starts_with(' ')));
        Status::error(if names_it { reason } else { format!("{text}: {reason}") })
    }
}

/// Ordering of the systems of one frame: intents are produced, then validated and applied, then the
/// board's entities catch up.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Input, buttons and AI results send [`MoveIntent`]s and [`Command`]s.
    Intents,
    /// The validation system applies them to the `Model`.
    Apply,
    /// Views follow the model (entities, highlights, animation).
    View,
}

/// A move in the game's notation, from the page's scripts (`triboard_play`) or a test: played for
/// the person to move as a click would be, after the same checks; text that names no move is
/// refused in the status line.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct TextIntent(pub String);

/// A move the game server stored, in the game's notation (`app::online`): played for whichever
/// seat is to move, as the server is the referee of an online game. Text that is not a legal move
/// here means the board is out of step with the server: refused in the status line, and the
/// online client then reloads the server's game.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct ServerMove(pub String);

/// What the game line refuses besides the rules, kept by what imposes it (online play,
/// `app::online`: the server keeps every move, ends games by resignation or flag, and says whether
/// hints are allowed), so that the validation system (`app::play`) checks it without knowing why.
/// The default refuses nothing.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Gate {
    /// Why no move may be played now (the game was ended elsewhere), if so.
    pub moves: Option<String>,
    /// Why Undo, Redo, Play from here and switching lines are refused, if so.
    pub takebacks: Option<String>,
    /// Why a hint is refused, if so.
    pub hints: Option<String>,
}

impl Gate {
    /// Whether `order` may be carried out.
    ///
    /// # Errors
    /// Why not, for the status line.
    pub fn allows(&self, order: &Command) -> Result<(), String> {
        let closed = match order {
            Command::Undo | Command::Redo | Command::PlayFromHere | Command::SwitchLine(_) => &self.takebacks,
            Command::Hint => &self.hints,
            _ => return Ok(()),
        };
        closed.clone().map_or(Ok(()), Err)
    }
}
