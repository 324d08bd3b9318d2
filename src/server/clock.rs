//! A live game's Fischer clocks, kept by the server (`docs/design.md` §Network play).
//!
//! Each seat starts with the setting's minutes; the seat to move's time runs from the moment the
//! previous move was stored; a move stored at `at_ms` costs its seat `at_ms` minus that moment and
//! then adds the increment. A seat's first move is not on its clock: it has [`FIRST_MOVE_MS`] from
//! the moment its turn began (for the game's first move, the moment every seat was taken), and
//! its clock starts after it, with no charge and no increment. A seat that lets that time run out
//! has flagged before every seat has moved: the game is aborted (`docs/design.md` §Network play). Moves the
//! rules force (Trigon's passes) are stored with the move before them, so they cost nothing, and get
//! the increment like every move. A seat whose time reaches zero has flagged: the game is over and
//! every other seat wins.
//!
//! Everything is computed from the stored times (ms since the Unix epoch) alone, so after a restart
//! the clocks are exactly what they were: [`Clocks::replay`] gives the same state as the moves
//! played one by one with [`Clocks::play`].

use crate::net::protocol::Clock;

/// A correspondence game's day, in ms: a seat with `days_per_move` days has that many of these
/// from its turn's start (`docs/design.md` §Network play).
pub const DAY_MS: u64 = 86_400_000;

/// How long a seat of a live game has for its first move, in ms: 60 s from the moment its turn
/// began, whatever the clock setting (a game left before every seat moved is aborted, unrated).
/// Its clock starts only after this move.
pub const FIRST_MOVE_MS: u64 = 60_000;

/// The clocks of a live game whose seats are all taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// Each seat's time left, in ms, as of `since_ms` (the seat to move's time runs from then).
    left_ms: Vec<u64>,
    /// When the current turn began, in ms since the Unix epoch.
    since_ms: u64,
    /// What each move adds to its seat's time, in ms.
    increment_ms: u64,
    /// Whether each seat made its first move (its clock runs only after it).
    moved: Vec<bool>,
}

impl Clocks {
    /// The clocks of `seats` seats with `clock`'s time each, started at `started_ms` (ms since the
    /// Unix epoch).
    pub fn start(clock: Clock, seats: usize, started_ms: u64) -> Clocks {
        let initial = u64::from(clock.minutes) * 60_000;
        Clocks {
            left_ms: vec![initial; seats],
            since_ms: started_ms,
            increment_ms: u64::from(clock.increment_s) * 1000,
            moved: vec![false; seats],
        }
    }

    /// The clocks after the moves of `movers` (each move's seat) stored at `move_ms` (ms since the
    /// epoch, one per move), from a start at `started_ms`.
    pub fn replay(clock: Clock, seats: usize, started_ms: u64, movers: &[u8], move_ms: &[u64]) -> Clocks {
        let mut clocks = Clocks::start(clock, seats, started_ms);
        for (&seat, &at_ms) in movers.iter().zip(move_ms) {
            clocks.play(seat, at_ms);
        }
        clocks
    }

    /// Charges `seat` for a move stored at `at_ms` (ms since the epoch) and adds the increment
    /// (neither for its first move); the next seat's time runs from `at_ms`.
    pub fn play(&mut self, seat: u8, at_ms: u64) {
        let elapsed = at_ms.saturating_sub(self.since_ms);
        let first = self.moved.get(usize::from(seat)).is_some_and(|m| !m);
        if let Some(m) = self.moved.get_mut(usize::from(seat)) {
            *m = true;
        }
        if let Some(left) = self.left_ms.get_mut(usize::from(seat)).filter(|_| !first) {
            *left = left.saturating_sub(elapsed).saturating_add(self.increment_ms);
        }
        self.since_ms = self.since_ms.max(at_ms);
    }

    /// Whether `seat` made its first move (its clock runs).
    pub fn has_moved(&self, seat: u8) -> bool {
        self.moved.get(usize::from(seat)).copied().unwrap_or(false)
    }

    /// Each seat's time left at `now_ms` (ms since the epoch), in ms: `to_move`'s counted down
    /// since its turn began (none once the game is over, nor before its first move).
    pub fn left_at(&self, to_move: Option<u8>, now_ms: u64) -> Vec<u64> {
        let mut left = self.left_ms.clone();
        let to_move = to_move.filter(|&s| self.has_moved(s));
        if let Some(slot) = to_move.and_then(|s| left.get_mut(usize::from(s))) {
            *slot = slot.saturating_sub(now_ms.saturating_sub(self.since_ms));
        }
        left
    }

    /// When `to_move`'s time runs out, in ms since the epoch: a move at this moment or later is too
    /// late. Before its first move, [`FIRST_MOVE_MS`] after its turn began.
    pub fn deadline(&self, to_move: u8) -> u64 {
        if !self.has_moved(to_move) {
            return self.since_ms.saturating_add(FIRST_MOVE_MS);
        }
        let left = self.left_ms.get(usize::from(to_move)).copied().unwrap_or(0);
        self.since_ms.saturating_add(left)
    }

    /// Sets the time of `seat`, whose clock ran out at `at_ms`, to zero (unchanged if it was its
    /// first move's time that ran out: its clock never ran); the clocks stop.
    pub fn flag(&mut self, seat: u8, at_ms: u64) {
        if let Some(left) = self.left_ms.get_mut(usize::from(seat)).filter(|_| self.moved[usize::from(seat)]) {
            *left = 0;
        }
        self.since_ms = self.since_ms.max(at_ms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_cost_their_time_and_add_the_increment() {
        let clock = Clock { minutes: 1, increment_s: 2 };
        let mut c = Clocks::start(clock, 2, 1000);
        // The first moves are on their own timer, not on the clocks.
        assert_eq!(c.left_at(Some(0), 6000), [60_000, 60_000]);
        assert_eq!(c.deadline(0), 1000 + FIRST_MOVE_MS);
        c.play(0, 2000);
        c.play(1, 3000);
        assert_eq!(c.left_at(Some(0), 3000), [60_000, 60_000]);
        assert_eq!(c.left_at(Some(0), 8000), [55_000, 60_000]);
        c.play(0, 13_000);
        assert_eq!(c.left_at(Some(1), 13_000), [52_000, 60_000]);
        assert_eq!(c.deadline(1), 73_000);
        assert_eq!(Clocks::replay(clock, 2, 1000, &[0, 1, 0], &[2000, 3000, 13_000]), c);
        c.flag(1, 73_000);
        assert_eq!(c.left_at(None, 80_000), [52_000, 0]);
    }

    #[test]
    fn a_first_move_has_its_own_timer_and_a_flag_on_it_leaves_the_clock_whole() {
        let clock = Clock { minutes: 5, increment_s: 0 };
        let mut c = Clocks::start(clock, 2, 0);
        c.play(0, 10_000);
        assert_eq!(c.deadline(1), 10_000 + FIRST_MOVE_MS, "seat 1's first move: its own timer");
        assert!(!c.has_moved(1));
        c.flag(1, 10_000 + FIRST_MOVE_MS);
        assert_eq!(c.left_at(None, 100_000), [300_000, 300_000]);
    }
}
