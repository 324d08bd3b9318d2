//! A live game's Fischer clocks, kept by the server (`docs/design.md` §Network play).
//!
//! Each seat starts with the setting's minutes; the seat to move's time runs from the moment the
//! previous move was stored (or, for the first move, from the moment every seat was taken); a move
//! stored at `at_ms` costs its seat `at_ms` minus that moment and then adds the increment. Moves the
//! rules force (Trigon's passes) are stored with the move before them, so they cost nothing, and get
//! the increment like every move. A seat whose time reaches zero has flagged: the game is over and
//! every other seat wins.
//!
//! Everything is computed from the stored times (ms since the Unix epoch) alone, so after a restart
//! the clocks are exactly what they were: [`Clocks::replay`] gives the same state as the moves
//! played one by one with [`Clocks::play`].

use crate::net::protocol::Clock;

/// The clocks of a live game whose seats are all taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// Each seat's time left, in ms, as of `since_ms` (the seat to move's time runs from then).
    left_ms: Vec<u64>,
    /// When the current turn began, in ms since the Unix epoch.
    since_ms: u64,
    /// What each move adds to its seat's time, in ms.
    increment_ms: u64,
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

    /// Charges `seat` for a move stored at `at_ms` (ms since the epoch) and adds the increment; the
    /// next seat's time runs from `at_ms`.
    pub fn play(&mut self, seat: u8, at_ms: u64) {
        let elapsed = at_ms.saturating_sub(self.since_ms);
        if let Some(left) = self.left_ms.get_mut(usize::from(seat)) {
            *left = left.saturating_sub(elapsed).saturating_add(self.increment_ms);
        }
        self.since_ms = self.since_ms.max(at_ms);
    }

    /// Each seat's time left at `now_ms` (ms since the epoch), in ms: `to_move`'s counted down
    /// since its turn began (none once the game is over).
    pub fn left_at(&self, to_move: Option<u8>, now_ms: u64) -> Vec<u64> {
        let mut left = self.left_ms.clone();
        if let Some(slot) = to_move.and_then(|s| left.get_mut(usize::from(s))) {
            *slot = slot.saturating_sub(now_ms.saturating_sub(self.since_ms));
        }
        left
    }

    /// When `to_move`'s time runs out, in ms since the epoch: a move at this moment or later is too
    /// late.
    pub fn deadline(&self, to_move: u8) -> u64 {
        let left = self.left_ms.get(usize::from(to_move)).copied().unwrap_or(0);
        self.since_ms.saturating_add(left)
    }

    /// Sets the time of `seat`, whose clock ran out at `at_ms`, to zero; the clocks stop.
    pub fn flag(&mut self, seat: u8, at_ms: u64) {
        if let Some(left) = self.left_ms.get_mut(usize::from(seat)) {
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
        assert_eq!(c.left_at(Some(0), 1000), [60_000, 60_000]);
        assert_eq!(c.left_at(Some(0), 6000), [55_000, 60_000]);
        c.play(0, 11_000);
        assert_eq!(c.left_at(Some(1), 11_000), [52_000, 60_000]);
        assert_eq!(c.deadline(1), 71_000);
        assert_eq!(Clocks::replay(clock, 2, 1000, &[0], &[11_000]), c);
        c.flag(1, 71_000);
        assert_eq!(c.left_at(None, 80_000), [52_000, 0]);
    }
}
