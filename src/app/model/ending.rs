//! A game ended off the board ([`Ending`]): an online game's server says a seat resigned or ran
//! out of time, or a record says so. The line stays as it is; nobody is to move any more, and
//! every other seat wins (`docs/design.md` §Network play). Where the line may change (a game on
//! this machine, not an online one), Undo, Play from here before the line's end and a switch to a
//! variation drop the ending with the line's end.

use super::Model;
use crate::app::flow::Ending;
use crate::app::games::AppGame;
use crate::rules::{Outcome, Player};

impl<G: AppGame> Model<G> {
    /// How the game ended off the board, if it did ([`Model::end`]).
    pub fn ending(&self) -> Option<Ending> {
        self.ended
    }

    /// Ends the game off the board: `ending.seat` resigned or ran out of time. Returns false, and
    /// changes nothing, when the rules ended the game already, it ended so already, or the seat is
    /// not one of the game's.
    pub fn end(&mut self, ending: Ending) -> bool {
        if self.ended.is_some() || self.line_end().outcome().is_some() || usize::from(ending.seat) >= self.seats.len() {
            return false;
        }
        self.ended = Some(ending);
        self.revision += 1;
        true
    }

    /// The result once the game is over: the rules', else that of the game ended off the board,
    /// where every other seat wins (score 1 to the loser's 0), or nobody does in an aborted game
    /// (every score 0).
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.game.outcome() {
            return Some(outcome);
        }
        let ending = self.ended?;
        let scores: Vec<i32> =
            (0..self.seats.len()).map(|s| i32::from(!ending.aborted && s != usize::from(ending.seat))).collect();
        Some(Outcome::from_scores(&scores))
    }

    /// True once the game is over, by the rules or off the board.
    pub fn over(&self) -> bool {
        self.ended.is_some() || self.game.outcome().is_some()
    }

    /// The seat to move in the position shown: `None` once the game is over, by the rules or off
    /// the board.
    pub fn to_move(&self) -> Option<Player> {
        if self.ended.is_some() {
            return None;
        }
        self.game.to_move()
    }

    /// "Black resigned (White wins)", "Blue ran out of time (Yellow, Red and Green share first
    /// place)" for a game ended off the board, "White resigned before every player moved: the game
    /// is aborted, unrated" for an aborted one; `None` otherwise.
    pub(super) fn ending_text(&self) -> Option<String> {
        let ending = self.ended?;
        let name = |seat: usize| self.game.player_name(Player(seat as u8));
        let how = ending.how();
        if ending.aborted {
            let who = name(usize::from(ending.seat));
            return Some(format!("{who} {how} before every player moved: the game is aborted, unrated"));
        }
        let winners: Vec<&str> = (0..self.seats.len()).filter(|&s| s != usize::from(ending.seat)).map(name).collect();
        let verdict = match &winners[..] {
            [one] => format!("{one} wins"),
            [first @ .., last] => format!("{} and {last} share first place", first.join(", ")),
            [] => String::new(),
        };
        Some(format!("{} {how} ({verdict})", name(usize::from(ending.seat))))
    }
}
