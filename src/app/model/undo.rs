//! Undo and redo over the line of a [`Model`]: whole turns taken back and replayed, the moves
//! and their texts moved between the line and the redo stack together.

use super::Model;
use crate::ai::Seat;
use crate::app::games::AppGame;

impl<G: AppGame> Model<G> {
    /// Takes the last move off the line onto the redo stack (the position is not rebuilt).
    pub(super) fn pop_to_redo(&mut self) -> Option<G::Move> {
        let mv = self.moves.pop()?;
        self.redo.push(mv);
        self.redo_texts.push(self.texts.pop().expect("a text per move"));
        Some(mv)
    }

    /// Plays the next redo move on the line, unchecked (the redo stack holds moves played before).
    pub(super) fn pop_from_redo(&mut self) -> Option<G::Move> {
        let mv = self.redo.pop()?;
        self.game.play_unchecked(mv);
        self.moves.push(mv);
        self.texts.push(self.redo_texts.pop().expect("a text per redo move"));
        Some(mv)
    }

    pub(super) fn rebuild(&mut self) {
        let mut game = self.start.clone();
        for &mv in &self.moves {
            game.play_unchecked(mv);
        }
        self.game = game;
        self.revision += 1;
    }

    /// Where an undo or redo may stop: a turn boundary where a person is to move (or any turn
    /// boundary when no person plays), or the start of the game; never before a forced move.
    fn is_stop(&self) -> bool {
        let any_human = self.seats.contains(&Seat::Human);
        self.game.is_turn_boundary()
            && self.game.forced_move().is_none()
            && (!any_human || self.human_to_move() || self.game.to_move().is_none())
    }

    /// Takes back whole turns, back to the last turn a person had (Human vs AI goes back past the
    /// AI's reply). Returns false if there was nothing to undo. A game that ended off the board (a
    /// record's resignation) is live again: the ending was the line's end, and the line changed.
    pub fn undo_turn(&mut self) -> bool {
        self.review = false;
        if self.moves.is_empty() {
            return false;
        }
        self.ended = None;
        while self.pop_to_redo().is_some() {
            self.rebuild();
            if self.is_stop() {
                break;
            }
        }
        true
    }

    /// Replays undone turns up to the next stop where a person is to move. Returns false if there
    /// was nothing to redo.
    pub fn redo_turn(&mut self) -> bool {
        self.review = false;
        if self.redo.is_empty() {
            return false;
        }
        while self.pop_from_redo().is_some() {
            self.revision += 1;
            if self.is_stop() {
                break;
            }
        }
        true
    }
}
