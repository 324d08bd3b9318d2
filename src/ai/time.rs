//! The time manager: how long each move of a game may search, given a mean time per move
//! (`triboard gtp --seconds S --time-manager`) or a game clock (GTP `time_settings` / `time_left`), so that more
//! time goes where it matters — the young game, a root whose best move is unsettled — and less
//! where the move is decided, while the game's mean stays the budget.
//!
//! Each move gets a [`MovePlan`]: a *soft* time, the mean weighted by the game's progress
//! ([`young_weight`]: 1.3× at the first move down to 0.7× at the end) plus a share of what earlier
//! moves left unspent or overspent (the bank, spread over [`SPREAD`] moves); and a *hard* time,
//! [`EXTEND`]× the soft one and half of what the bank holds. [`super::Mcts::run_planned`] stops before the soft time once the
//! best move cannot change, and goes on past it, to the hard time, while the root is unsettled
//! (the second most simulated move has more than half the first's simulations). The time saved
//! by early stops is banked and spent on the unsettled moves (Huang, Coulom and Lin 2010, "Time
//! Management for Monte-Carlo Tree Search Applied to the Game of Go", its "unstable evaluation"
//! and "early stop"; Pentobi varies its time the same way).
//!
//! **Screened (issue 37), not the default of `gtp --seconds`**: against the flat time with its
//! early stop (`match --game trigon-2 --games 40 --seed 3741`, the build before at `--seconds 0.5`
//! against this at `--seconds 0.42 --time-manager`): **15–19–6** (45.0 %, 95 % interval
//! 31–60 %), at 0.369 s a move against 0.412 (longest 1.30 s against 0.53). So `gtp --seconds`
//! stays flat and the manager is `--time-manager`'s; a game clock (`time_settings`, `time_left`)
//! has no flat time to fall back on and always uses it.

use std::time::Duration;

/// The bank (time left unspent by earlier moves, or overspent) is paid out over this many moves.
pub const SPREAD: f64 = 5.0;
/// The hard time is at most this many times the soft time.
pub const EXTEND: f64 = 2.5;
/// A move's soft time is at least this share of the mean, whatever the bank says.
const FLOOR: f64 = 0.15;
/// A move's soft time is at most this many means.
const CEILING: f64 = 4.0;
/// Of a game clock's time left, the share a plan may use for all the moves still to come (the
/// rest is a reserve against a longer game than expected).
const CLOCK_SHARE: f64 = 0.9;

/// How long one move may search: stop early after `soft` once decided, or go on to `hard` while
/// unsettled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovePlan {
    /// The time a settled search stops at.
    pub soft: Duration,
    /// The time no search passes.
    pub hard: Duration,
}

/// Pentobi's spread of a game's budget over a colour's moves (its levels' simulations are the
/// level's count times `0.7 · e^(0.1·i)`, `i` the colour's pieces on the board, times 0.2, 0.5, 0.6
/// and 0.8 for its first four pieces; its published numbers, our code), as a weight of the mean
/// time per move: divided by the weights' mean over a colour's first 20 pieces, so a game of 20
/// pieces a colour keeps the mean (before the early stop, which cuts the long late moves short).
/// Screened (`gtp --seconds 0.15 --spread` against the flat time, `match --game trigon-2 --sprt
/// 0,40 --concurrency 2 --seed 48005`): H0 accepted after 70 games, Elo −129.8 (−224.4 to
/// −50.9), at 0.090 s a move against 0.112; not the default. 0.07 on the first piece, 1.0 about
/// the twelfth, 2.3 on the twentieth.
pub fn spread_weight(placed: u32) -> f64 {
    let raw = |i: u32| {
        let opening = [0.2, 0.5, 0.6, 0.8];
        opening.get(i as usize).copied().unwrap_or(1.0) * 0.7 * (0.1 * i as f64).exp()
    };
    let mean = (0..20).map(raw).sum::<f64>() / 20.0;
    raw(placed) / mean
}

/// The weight of a move's time by the game's progress `progress` (0 at the start, 1 at the end;
/// clamped): 1.3 at the start, 0.7 at the end, so the moves that shape the game get more.
pub fn young_weight(progress: f64) -> f64 {
    1.3 - 0.6 * progress.clamp(0.0, 1.0)
}

/// The time spent and to spend over one game at a mean time per move.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeManager {
    /// The mean time a move should take, over the game.
    mean: Duration,
    /// Moves searched this game.
    moves: u32,
    /// The time they took.
    spent: Duration,
}

impl TimeManager {
    /// A manager whose game mean is `mean` a move.
    pub fn per_move(mean: Duration) -> TimeManager {
        TimeManager { mean, moves: 0, spent: Duration::ZERO }
    }

    /// Forgets the moves of the game before (a new game starts).
    pub fn new_game(&mut self) {
        self.moves = 0;
        self.spent = Duration::ZERO;
    }

    /// The bank: the time the moves so far left unspent (negative: overspent), in seconds.
    pub fn bank(&self) -> f64 {
        self.mean.as_secs_f64() * self.moves as f64 - self.spent.as_secs_f64()
    }

    /// The plan of the next move, `progress` of the way through the game (0–1; see
    /// [`young_weight`]).
    pub fn plan(&self, progress: f64) -> MovePlan {
        let mean = self.mean.as_secs_f64();
        let bank = self.bank();
        let soft = (mean * young_weight(progress) + bank / SPREAD).clamp(FLOOR * mean, CEILING * mean);
        // An unsettled move may spend half the bank besides: early stops save the time it needs.
        let hard = soft * EXTEND + bank.max(0.0) / 2.0;
        MovePlan { soft: Duration::from_secs_f64(soft), hard: Duration::from_secs_f64(hard) }
    }

    /// Counts a move that searched for `took`.
    pub fn record(&mut self, took: Duration) {
        self.moves += 1;
        self.spent += took;
    }

    /// The plan of a move on a game clock: `left` on the clock for `moves_left` more moves of this
    /// player (at least 1), `progress` of the way through the game. The mean is the clock's share
    /// for each move to come, and the hard time never passes a third of what is left.
    pub fn on_clock(left: Duration, moves_left: u32, progress: f64) -> MovePlan {
        let left_s = left.as_secs_f64();
        let mean = left_s * CLOCK_SHARE / moves_left.max(1) as f64;
        let soft = mean * young_weight(progress);
        let hard = (soft * EXTEND).min(left_s / 3.0);
        MovePlan { soft: Duration::from_secs_f64(soft.min(hard)), hard: Duration::from_secs_f64(hard) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Duration) -> u128 {
        d.as_millis()
    }

    #[test]
    fn the_spread_keeps_the_mean_over_twenty_pieces_and_grows() {
        let mean = (0..20).map(spread_weight).sum::<f64>() / 20.0;
        assert!((mean - 1.0).abs() < 1e-12, "{mean}");
        assert!((spread_weight(0) - 0.0683).abs() < 1e-3, "{}", spread_weight(0));
        assert!((spread_weight(19) - 2.28).abs() < 0.01, "{}", spread_weight(19));
        assert!((1..25).all(|i| spread_weight(i) > spread_weight(i - 1)));
    }

    #[test]
    fn the_young_game_gets_more_than_the_end() {
        let t = TimeManager::per_move(Duration::from_secs(1));
        assert_eq!(ms(t.plan(0.0).soft), 1300);
        assert_eq!(ms(t.plan(1.0).soft), 700);
        assert_eq!(ms(t.plan(0.0).hard), 3250);
    }

    #[test]
    fn time_left_unspent_is_spent_later_and_overspent_time_is_paid_back() {
        let mut t = TimeManager::per_move(Duration::from_secs(1));
        t.record(Duration::from_millis(500));
        // 0.5 s banked, a fifth of it added.
        assert_eq!(ms(t.plan(1.0).soft), 800);
        t.record(Duration::from_millis(3000));
        // 1.5 s overspent, a fifth of it taken.
        assert_eq!(ms(t.plan(1.0).soft), 400);
        t.new_game();
        assert_eq!(ms(t.plan(1.0).soft), 700);
    }

    #[test]
    fn the_soft_time_stays_between_its_floor_and_ceiling() {
        let mut t = TimeManager::per_move(Duration::from_secs(1));
        t.record(Duration::from_secs(100));
        assert_eq!(ms(t.plan(0.0).soft), 150);
        let mut t = TimeManager::per_move(Duration::from_secs(1));
        for _ in 0..50 {
            t.record(Duration::ZERO);
        }
        assert_eq!(ms(t.plan(0.0).soft), 4000);
    }

    #[test]
    fn a_game_whose_moves_take_their_soft_time_keeps_its_mean() {
        // Moves that stop at the soft time, half of them early at a fifth of it, the game 60 moves
        // long: the mean stays within a tenth of the budget.
        let mut t = TimeManager::per_move(Duration::from_secs(1));
        for i in 0..60 {
            let plan = t.plan(i as f64 / 60.0);
            t.record(if i % 2 == 0 { plan.soft / 5 } else { plan.soft });
        }
        let mean = t.spent.as_secs_f64() / 60.0;
        assert!((0.9..=1.05).contains(&mean), "mean {mean}");
    }

    #[test]
    fn a_clock_never_gives_one_move_more_than_a_third_of_what_is_left() {
        let plan = TimeManager::on_clock(Duration::from_secs(30), 30, 0.0);
        assert_eq!(ms(plan.soft), 1170);
        assert_eq!(ms(plan.hard), 2925);
        let plan = TimeManager::on_clock(Duration::from_secs(3), 1, 0.0);
        assert_eq!(ms(plan.hard), 1000);
        assert!(plan.soft <= plan.hard);
    }
}
