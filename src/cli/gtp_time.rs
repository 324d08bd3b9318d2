//! Time in `triboard gtp` ([`GtpTime`]): a time per move (`--seconds`, managed by
//! [`TimeManager`] as a game's mean with `--time-manager`), or a game clock from GTP's `time_settings main_time
//! byo_yomi_time byo_yomi_stones` and `time_left colour time stones` (seconds), which then wins.
//! A Trigon game's progress for the plan is the pieces the colour to move has placed out of
//! [`PIECES_PLAYED`].

use std::time::Duration;

use crate::ai::time::{MovePlan, TimeManager, spread_weight};
use crate::rules::trigon::Trigon;

/// The pieces a colour places in a typical game between strong players (Pentobi's games at levels
/// 3–7 place 19–21 a colour): a colour's progress is its pieces placed out of these.
pub const PIECES_PLAYED: u32 = 20;
/// The fewest moves a colour is expected to have left, whatever it has placed.
const MIN_MOVES_LEFT: u32 = 3;

/// How `genmove` spends time.
#[derive(Clone, Debug, Default)]
pub struct GtpTime {
    /// A mean time per move, managed (`--seconds` with `--time-manager`).
    pub manager: Option<TimeManager>,
    /// A time per move, each spent flat (`--seconds`).
    pub flat: Option<Duration>,
    /// The flat time spread over the game by [`spread_weight`] (`--spread`).
    pub spread: bool,
    /// `time_settings`: main time, byo-yomi time and stones; `None` without one.
    settings: Option<(Duration, Duration, u32)>,
    /// `time_left` of each colour: time and stones.
    left: [Option<(Duration, u32)>; 4],
}

/// How a `genmove` searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Spend {
    /// To a plan ([`crate::ai::Mcts::run_planned`]).
    Plan(MovePlan),
    /// For a flat time, stopping early once settled ([`crate::ai::Mcts::run_settled`]).
    Flat(Duration),
    /// To the level's budget.
    Level,
}

/// A number of seconds from a GTP argument, at least 0.
fn seconds_arg(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(Duration::from_secs_f64(s.min(1e7))),
        _ => Err(format!("invalid time '{text}'")),
    }
}

/// A stone count from a GTP argument.
fn stones_arg(text: &str) -> Result<u32, String> {
    text.parse().map_err(|_| format!("invalid number of stones '{text}'"))
}

impl GtpTime {
    /// A new game: the manager's bank and the clocks are forgotten (the settings stay).
    pub fn new_game(&mut self) {
        if let Some(m) = &mut self.manager {
            m.new_game();
        }
        self.left = [None; 4];
    }

    /// `time_settings main_time byo_yomi_time byo_yomi_stones`: main time 0 and byo-yomi time 0
    /// mean no time limit.
    ///
    /// # Errors
    /// Not three arguments, or one not a number.
    pub fn settings(&mut self, args: &[&str]) -> Result<String, String> {
        let [main, byo, stones] = args else { return Err("time_settings needs 3 arguments".to_string()) };
        let (main, byo, stones) = (seconds_arg(main)?, seconds_arg(byo)?, stones_arg(stones)?);
        self.settings = (main > Duration::ZERO || byo > Duration::ZERO).then_some((main, byo, stones));
        self.left = [None; 4];
        Ok(String::new())
    }

    /// `time_left colour time stones` for colour `c` (0-based).
    ///
    /// # Errors
    /// A time or stone count that is not a number.
    pub fn left(&mut self, c: usize, time: &str, stones: &str) -> Result<String, String> {
        self.left[c] = Some((seconds_arg(time)?, stones_arg(stones)?));
        Ok(String::new())
    }

    /// How the next move of colour `c` in `game` searches: the clock if one is set, else the
    /// managed or flat time per move, else the level.
    pub fn spend(&self, game: &Trigon, c: usize) -> Spend {
        let placed = game.placed(c);
        let progress = placed as f64 / PIECES_PLAYED as f64;
        if let Some((main, byo, stones)) = self.settings {
            let (left, in_byo) = match self.left[c] {
                Some((time, 0)) => (time, false),
                Some((time, n)) => (time / n.max(1), true),
                None if main > Duration::ZERO => (main, false),
                None => (byo / stones.max(1), true),
            };
            let moves_left = if in_byo { 1 } else { PIECES_PLAYED.saturating_sub(placed).max(MIN_MOVES_LEFT) };
            return Spend::Plan(TimeManager::on_clock(left, moves_left, progress));
        }
        match (&self.manager, self.flat) {
            (Some(m), _) => Spend::Plan(m.plan(progress)),
            (None, Some(d)) if self.spread => Spend::Flat(d.mul_f64(spread_weight(placed))),
            (None, Some(d)) => Spend::Flat(d),
            (None, None) => Spend::Level,
        }
    }

    /// Counts a move of the managed time that took `took`.
    pub fn record(&mut self, took: Duration) {
        if let Some(m) = &mut self.manager {
            m.record(took);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;
    use crate::rules::trigon::{TrigonOptions, Variant};

    fn empty() -> Trigon {
        Trigon::new(&TrigonOptions { variant: Variant::Two }).unwrap()
    }

    #[test]
    fn a_clock_wins_over_the_time_per_move_and_byo_yomi_spends_its_period() {
        let mut t = GtpTime { manager: Some(TimeManager::per_move(Duration::from_secs(1))), ..GtpTime::default() };
        let g = empty();
        assert_eq!(t.spend(&g, 0), Spend::Plan(TimeManager::per_move(Duration::from_secs(1)).plan(0.0)));
        t.settings(&["60", "0", "0"]).unwrap();
        // 60 s for the 20 pieces of the game: 2.7 s a move at the young game's weight.
        let Spend::Plan(p) = t.spend(&g, 0) else { panic!("a plan") };
        assert_eq!(p.soft.as_millis(), 3510);
        t.left(0, "6", "0").unwrap();
        let Spend::Plan(p) = t.spend(&g, 0) else { panic!("a plan") };
        assert_eq!(p.hard.as_millis(), 877);
        t.left(1, "10", "5").unwrap();
        let Spend::Plan(p) = t.spend(&g, 1) else { panic!("a plan") };
        assert_eq!(p.hard.as_millis(), 666);
        assert!(t.settings(&["1", "x", "0"]).is_err());
        assert!(t.left(0, "-1", "0").is_err());
        t.settings(&["0", "0", "0"]).unwrap();
        assert!(matches!(t.spend(&g, 0), Spend::Plan(_)));
        t.manager = None;
        assert_eq!(t.spend(&g, 0), Spend::Level);
    }
}
