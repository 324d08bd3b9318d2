//! Every point `docs/rules/tricore.md` leaves open, settled in one place, so that each can be changed here
//! alone if the designer's diagrams say otherwise. The rules file marks the first five *resolved*;
//! the others are this implementation's readings of its text (see each item's doc).
//!
//! The rest of the module reads these items and nothing else for these questions. The sets the
//! functions take and return are bitsets of points in any one numbering (the state passes its
//! internal slots), since they only combine them bitwise.

use crate::rules::geometry::lattice::Points;

/// The board's row lengths, top to bottom (`docs/rules/tricore.md` §Board, *resolved*: of the four convex
/// hexagons of the lattice with 51 points, the only one with sides 6, 4, 4, 6, 4, 4, the published
/// "elongated" hexagon).
pub const ROWS: [u8; 7] = [6, 7, 8, 9, 8, 7, 6];

/// Discs each player has (`docs/rules/tricore.md` §Equipment).
pub const DISCS_PER_PLAYER: u8 = 24;

/// The highest a stack may grow, in discs (`docs/rules/tricore.md` §Phase 3, 3).
pub const MAX_HEIGHT: u8 = 3;

/// What stops a driven Ring: it may pass neither over nor onto these points (`docs/rules/tricore.md`
/// §Phase 3, 2, *resolved*: the text forbids only Rings and Cores, so discs and stacks are passed
/// over). `discs` is every point holding at least one disc.
#[inline(always)]
pub fn ring_blockers(rings: Points, cores: Points, discs: Points) -> Points {
    let _ = discs; // Rings pass over discs and stacks.
    rings | cores
}

/// Where a driven Ring may stop: an empty point holds no disc, Ring or Core (`docs/rules/tricore.md`
/// §Phase 3, 2). `all` is every point of the board.
#[inline(always)]
pub fn ring_stops(all: Points, rings: Points, cores: Points, discs: Points) -> Points {
    all & !(rings | cores | discs)
}

/// Whether a disc may climb onto the stack of the disc placed this turn (this implementation's
/// reading of `docs/rules/tricore.md` §Phase 3, 3: the text forbids only *moving* the disc placed this
/// turn, so the stack it forms may be climbed onto like any other of the same height).
pub const MAY_CLIMB_ONTO_JUST_PLACED: bool = true;

/// Trapped Rings leave only at the start of a turn (`docs/rules/tricore.md` §Phase 3, 1, as written):
/// a Ring the drive leaves without a move stays on the board through the climb (which never
/// involves Rings) and leaves at the start of the next turn. The check looks only at the board, not
/// at whose turn it is. Read by [`super::TriCore`]'s turn start; kept here as the statement of the
/// choice (changing it means calling the removal after the drive as well).
pub const TRAPPED_RINGS_LEAVE_ONLY_AT_TURN_START: bool = true;

/// Whether the game is over at the start of a disc turn, after trapped Rings left
/// (`docs/rules/tricore.md` §End): no Ring left, or both players have placed all their discs.
///
/// *Resolved* here: the game also ends when the player to move has no disc left while the other
/// still has some (the text has no passing). Under the strict alternation of turns, with Black
/// first, this never happens — when Black is to move both have placed as many discs, when White is
/// to move Black has placed one more — so the clause changes no game; it only makes the end
/// condition total.
#[inline(always)]
pub fn game_over_at_turn_start(rings: Points, discs_left: [u8; 2], mover: usize) -> bool {
    rings == 0 || (discs_left[0] == 0 && discs_left[1] == 0) || discs_left[mover] == 0
}

/// How good a group is for the result (`docs/rules/tricore.md` §Result): more Cores reached first, then
/// more discs (*resolved*: among a player's groups with the most Cores the largest counts). A
/// player's best group is the one with the highest value, and players compare by their best
/// groups' values; equal values are a draw (*resolved*). A player without an active disc has
/// value 0 (no Core, no disc).
#[inline(always)]
pub fn group_value(cores_reached: u32, discs: u32) -> u32 {
    cores_reached * 64 + discs
}

/// The score [`crate::rules::game::Outcome::scores`] shows per player: the Cores their best group reaches
/// (0–3). The ranks come from [`group_value`], so two players with equal scores may still have a
/// winner by group size; [`super::TriCore::best_group`] gives the size.
#[inline(always)]
pub fn score(cores_reached: u32, _discs: u32) -> i32 {
    cores_reached as i32
}
