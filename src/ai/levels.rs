//! AI levels 1–6: simulation budgets with a wall-clock cap, so a level plays the same moves on every
//! machine that reaches its budget in time with the same threads (and on the web, only slower).
//! The app searches on every core; the budget is shared among the threads.

use std::time::Duration;

/// How much a search may do: it stops at whichever limit comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Simulations (selection, expansion, playout and backup each).
    pub simulations: u64,
    /// Wall-clock cap.
    pub max_time: Duration,
}

/// An AI level, 1 (weakest) to 6 (strongest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: u8 = 1;
    /// The strongest level.
    pub const MAX: u8 = 6;

    /// Level `n`.
    ///
    /// # Errors
    /// If `n` is not in 1–6.
    pub fn new(n: u8) -> Result<Level, String> {
        if (Self::MIN..=Self::MAX).contains(&n) {
            Ok(Level(n))
        } else {
            Err(format!("AI level {n} is outside {}–{}", Self::MIN, Self::MAX))
        }
    }

    /// The level's number, 1–6.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The level's budget, all search threads together: simulations grow fourfold per level to
    /// level 5; level 6 is the engine's full strength, 4,000,000 simulations, which on a desktop's
    /// cores its 10 s cap ends first in the larger games. The time caps are 0.5 s at level 1 and
    /// 10 s at level 6.
    pub fn budget(self) -> Budget {
        let (simulations, ms) = match self.0 {
            1 => (1_000, 500),
            2 => (4_000, 1_000),
            3 => (16_000, 2_000),
            4 => (64_000, 4_000),
            5 => (250_000, 7_000),
            _ => (4_000_000, 10_000),
        };
        Budget { simulations, max_time: Duration::from_millis(ms) }
    }

    /// The level's budget in words, for a menu's hover text: "16,000 simulations a move, at most
    /// 2 s".
    pub fn summary(self) -> String {
        let Budget { simulations, max_time } = self.budget();
        let digits = simulations.to_string();
        let mut grouped = String::new();
        for (k, c) in digits.chars().enumerate() {
            if k > 0 && (digits.len() - k) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(c);
        }
        format!("{grouped} simulations a move, at most {} s", max_time.as_secs_f64())
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "level {}", self.0)
    }
}

/// Who plays a seat: a person (clicking or typing moves), the search at a level, or a player
/// over the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person.
    Human,
    /// The search at this level.
    Ai(Level),
    /// A player elsewhere, whose moves come from the game server (`app::online`); never read
    /// from a record's labels.
    Remote,
}

impl Seat {
    /// The seat as panels and records name it ("Human", "AI level 3").
    pub fn label(self) -> String {
        match self {
            Seat::Human => "Human".to_string(),
            Seat::Ai(level) => format!("AI {level}"),
            Seat::Remote => "Online player".to_string(),
        }
    }

    /// The inverse of [`Seat::label`]: "Human" or "AI level L" (L in 1–6); anything else is `None`.
    pub fn from_label(label: &str) -> Option<Seat> {
        match label.strip_prefix("AI level ") {
            Some(n) => n.parse().ok().and_then(|n| Level::new(n).ok()).map(Seat::Ai),
            None => (label == "Human").then_some(Seat::Human),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_summary_gives_its_budget_in_words() {
        assert_eq!(Level::new(1).unwrap().summary(), "1,000 simulations a move, at most 0.5 s");
        assert_eq!(Level::new(3).unwrap().summary(), "16,000 simulations a move, at most 2 s");
        assert_eq!(Level::new(6).unwrap().summary(), "4,000,000 simulations a move, at most 10 s");
    }
}
