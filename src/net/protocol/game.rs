//! The values that describe one game on the wire: its [`Clock`] setting, the [`Snapshot`] of it
//! as it stands with its seats ([`SeatView`]) and its result ([`GameResult`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A live game's clock setting: Fischer time, `minutes` each plus `increment_s` seconds per move.
/// The server keeps time (`docs/design.md` §Network play): a seat whose time runs out loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    /// Each seat's time at the start, in minutes (1–1440).
    pub minutes: u32,
    /// Seconds added to a seat's time after each of its moves (0–3600).
    pub increment_s: u32,
}

impl Clock {
    /// The clock's settings checked against their ranges.
    ///
    /// # Errors
    /// A sentence naming the setting out of range.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=1440).contains(&self.minutes) {
            return Err(format!("a clock of {} minutes is outside 1–1440", self.minutes));
        }
        if self.increment_s > 3600 {
            return Err(format!("an increment of {} s is over 3600", self.increment_s));
        }
        Ok(())
    }
}

/// The days per move a correspondence game may have ([`NewGame::days_per_move`]).
///
/// [`NewGame::days_per_move`]: super::NewGame::days_per_move
pub const DAYS_PER_MOVE: [u32; 3] = [1, 3, 7];

/// Reads a join code as a person may type it: case, spaces and dashes do not matter.
pub fn normalize_code(code: &str) -> String {
    code.chars().filter(|c| !c.is_whitespace() && *c != '-').map(|c| c.to_ascii_uppercase()).collect()
}

/// A game as it stands: what a client needs to show it and carry on.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// The game.
    pub game_id: String,
    /// The kind of game (`trike`, …).
    pub game: String,
    /// Its options, complete, as its rules serialise them.
    pub options: Value,
    /// The ply of the first of `moves`: 0 for the whole game, or the `since_ply` of a
    /// [`ClientMessage::Sync`].
    pub since_ply: u32,
    /// The moves from `since_ply` on, in the game's notation.
    pub moves: Vec<String>,
    /// How many moves the game has.
    pub ply: u32,
    /// One entry per seat, in seat order.
    pub players: Vec<SeatView>,
    /// The seat to move, or `None` once the game is over.
    pub to_move: Option<u8>,
    /// The result once the game is over.
    pub outcome: Option<GameResult>,
    /// The seats that left a game of three or four while it goes on ([`SeatOut`]). Left out on
    /// the wire when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub out: Vec<SeatOut>,
    /// The clock setting of a live game; none for correspondence.
    pub clock: Option<Clock>,
    /// A live game's clocks now: each seat's time left, in ms, the seat to move's counting down
    /// from this message on (clocks start once every seat is taken). None for correspondence.
    #[serde(default)]
    pub clock_ms: Option<Vec<u64>>,
    /// Whether the clocks started: once every seat is taken, and in a rematch once every
    /// player came back to its board (synced with its token). False for correspondence.
    #[serde(default)]
    pub clock_started: bool,
    /// A correspondence game's days per move ([`DAYS_PER_MOVE`]); none for a live game or one
    /// without deadlines. Left out on the wire when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days_per_move: Option<u32>,
    /// When the seat to move of a correspondence game with days per move loses if it has not
    /// moved, in ms since the Unix epoch (its turn's start plus its days; a first move's deadline
    /// passed aborts the game). Left out on the wire when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_ms: Option<u64>,
    /// Whether the creator allowed hints, Show thinking and analysis while the game runs.
    pub allow_tools: bool,
    /// Whether the game changes its players' ratings when it ends (every seat an account's).
    #[serde(default)]
    pub rated: bool,
    /// The rematch of this game, once one was asked for.
    pub rematch: Option<String>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
}

/// One seat of a game, as everybody may see it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatView {
    /// The seat, `0..players`.
    pub seat: u8,
    /// What the seat is called in the position (Trike: its colour, which the pie rule may swap).
    pub name: String,
    /// Whether somebody holds the seat.
    pub taken: bool,
    /// The account that holds it, by name; none for a free seat or a guest (playing by link).
    #[serde(default)]
    pub player: Option<String>,
}

/// How a game ended.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    /// The winning seats (several for a shared first place).
    pub winners: Vec<u8>,
    /// The rules' score per seat; empty when a seat resigned.
    pub scores: Vec<i32>,
    /// The seat that resigned, if the game ended so (every other seat then wins).
    pub resigned: Option<u8>,
    /// The seat whose clock ran out, if the game ended so (every other seat then wins).
    #[serde(default)]
    pub flagged: Option<u8>,
    /// Whether the creator withdrew the game, an open challenge, before its other seats were
    /// taken ([`ClientMessage::Withdraw`]): no winners, no scores, unrated. Left out on the wire
    /// when false.
    ///
    /// [`ClientMessage::Withdraw`]: super::ClientMessage::Withdraw
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withdrawn: bool,
    /// Whether the game was aborted: it was resigned, flagged or left (its first-move timer ran
    /// out) before every seat had made a move (`docs/design.md` §Network play). No winners, no
    /// scores, unrated, nobody's loss; `resigned` or `flagged` still names the seat. Left out on
    /// the wire when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub aborted: bool,
    /// The seats of a game of three or four that left it while the others played on to its end
    /// ([`SeatOut`]), in the order they left: they are last, the earliest lowest. Left out on the
    /// wire when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub out: Vec<SeatOut>,
}

/// A seat of a game of three or four that left it, by resignation or flag, while the others play
/// on (`docs/design.md` §Network play): from its next turn on (at or after `ply`) its colour is
/// out by the rules' move `retire` (`docs/rules/trigon.md` §Play), its turns skipped, its pieces
/// on the board counted as the rules say.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatOut {
    /// The seat.
    pub seat: u8,
    /// How many moves the game had when it left.
    pub ply: u32,
    /// How: `resigned` or `flagged`.
    pub how: OutHow,
}

/// How a seat left a game ([`SeatOut`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutHow {
    /// Its player resigned.
    Resigned,
    /// Its clock ran out.
    Flagged,
}
