//! Review over the line of a [`Model`]: showing an earlier position, playing on from it, making
//! a variation the line, and the ply each review key or the graph names.

use super::Model;
use crate::app::flow::ReviewTo;
use crate::app::games::AppGame;

impl<G: AppGame> Model<G> {
    /// Review: shows the position after `ply` moves of the line (at most its length; Home is 0, End
    /// the line's length), the moves after it waiting in the redo stack. Before the line's end the
    /// model is in review ([`Model::review`]): nobody moves until [`Model::play_from_here`]; at the
    /// end the game goes on. Returns false when the position shown did not change.
    pub fn review_to(&mut self, ply: usize) -> bool {
        let ply = ply.min(self.line_len());
        let before = (self.moves.len(), self.review);
        if ply < self.moves.len() {
            while self.moves.len() > ply {
                self.pop_to_redo();
            }
            self.rebuild();
        }
        while self.moves.len() < ply {
            self.pop_from_redo().expect("the line is long enough");
        }
        self.review = ply < self.line_len();
        if before != (self.moves.len(), self.review) {
            self.revision += 1;
        }
        before.0 != self.moves.len()
    }

    /// Ends review at the position shown: the game goes on from it (the moves that followed stay in
    /// the redo stack, so Redo brings them back, and become a variation once another move is
    /// played there). Returns the texts of the moves the rules then force.
    pub fn play_from_here(&mut self) -> Vec<String> {
        // An ending off the board (a resignation) came after the line's last move, not here.
        if !self.redo.is_empty() {
            self.ended = None;
        }
        if self.review {
            self.review = false;
            self.revision += 1;
        }
        self.play_forced()
    }

    /// Makes variation `k` the line, shown from the move where it leaves the current line (in
    /// review); the current line becomes a variation in its place.
    ///
    /// # Panics
    /// If `k` is not a variation's index.
    pub fn switch_line(&mut self, k: usize) {
        let current = self.line();
        let other = std::mem::replace(&mut self.variations[k], current.clone());
        let branch = current.iter().zip(&other).take_while(|(a, b)| a == b).count();
        self.texts = crate::rules::move_texts(&self.start, &other);
        self.moves = other;
        self.redo.clear();
        self.redo_texts.clear();
        self.ended = None;
        self.rebuild();
        self.review = false;
        self.review_to(branch + 1);
    }

    /// The ply [`ReviewTo`] names from the position shown; `None` for a mistake when the analysis
    /// marked none.
    pub fn review_target(&self, to: ReviewTo) -> Option<usize> {
        let now = self.moves.len();
        Some(match to {
            ReviewTo::Ply(k) => k,
            ReviewTo::Back => now.saturating_sub(1),
            ReviewTo::Forward => now + 1,
            ReviewTo::Start => 0,
            ReviewTo::End => self.line_len(),
            ReviewTo::NextMistake => {
                let analysed = self.analysed();
                (now + 1..analysed.len())
                    .chain(0..=now.min(analysed.len()))
                    .find(|&k| analysed.get(k).is_some_and(|a| a.mistake))?
            }
            ReviewTo::PreviousMistake => {
                let analysed = self.analysed();
                let now = now.min(analysed.len());
                (0..now).rev().chain((now..analysed.len()).rev()).find(|&k| analysed[k].mistake)?
            }
        })
    }
}
