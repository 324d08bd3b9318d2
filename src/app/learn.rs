//! Learn mode: a guided lesson per game ([`crate::rules::lesson`], `assets/lessons/`), opened from
//! the start screen. Each step sets up its position on the real board; the learner makes the move,
//! which the validation system judges through [`Learning::answer`] before playing it: a move the
//! step teaches is played and explained, an illegal one is refused with the rules' reason, another
//! legal one is "legal, but not what this step asks". The side panel shows the step and its
//! buttons (`hud::lesson`) in place of the move list; the session opens a step's position
//! ([`super::session::open_lesson`]).

use bevy::prelude::*;

use super::flow::Status;
use super::games::{AppGame, ForGame, for_id};
use crate::rules::lesson::{LESSONS, Lesson, Verdict};
use crate::rules::record::Record;

/// The lesson in progress: present while one is played, removed when the board is left.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Learning {
    /// The lesson.
    pub lesson: Lesson,
    /// The step shown, `0..lesson.steps.len()`.
    pub step: usize,
    /// What was said of the last answer: `(right, text)`.
    pub feedback: Option<(bool, String)>,
}

/// What a press in the lesson's panel asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LessonAction {
    /// The step before.
    Back,
    /// The step set up again.
    Retry,
    /// The next step.
    Next,
    /// Back to the start screen.
    Leave,
}

impl Learning {
    /// The lesson of the game that plays `id` (a Trigon variant's is the two-player lesson), at its
    /// first step; `None` if no lesson teaches that game.
    pub fn for_game(id: &str) -> Option<Learning> {
        struct Find;
        impl ForGame for Find {
            type Output = Option<Lesson>;
            fn run<G: AppGame>(self) -> Option<Lesson> {
                LESSONS.iter().find(|(id, _)| G::IDS.contains(id)).and_then(|(_, text)| Lesson::from_json(text).ok())
            }
        }
        let lesson = for_id(id, Find).flatten()?;
        Some(Learning { lesson, step: 0, feedback: None })
    }

    /// True when a lesson teaches the game that plays `id` (without reading the lesson; the start
    /// screen asks every frame).
    pub fn teaches(id: &str) -> bool {
        struct Has;
        impl ForGame for Has {
            type Output = bool;
            fn run<G: AppGame>(self) -> bool {
                LESSONS.iter().any(|(id, _)| G::IDS.contains(id))
            }
        }
        for_id(id, Has).unwrap_or(false)
    }

    /// The record that sets up the step shown: the lesson's game and options, the step's moves, every
    /// seat a person's.
    pub fn record(&self) -> Record {
        let json = serde_json::json!({
            "game": self.lesson.game,
            "options": self.lesson.options,
            "moves": self.lesson.steps[self.step].setup,
        });
        Record::from_json(&json.to_string()).expect("a lesson's record is well formed")
    }

    /// True once the step shown was answered right.
    pub fn solved(&self) -> bool {
        self.feedback.as_ref().is_some_and(|f| f.0)
    }

    /// Judges a person's move `mv` in `position` (the step's): `Ok` when the step teaches it (it is
    /// to be played; the explanation is the feedback), else `Err` with what to say (the rules'
    /// reason for an illegal move). After a right answer every move waits for Next.
    ///
    /// # Errors
    /// The move is not the step's answer; the sentence for the status line.
    pub fn answer<G: AppGame>(&mut self, position: &G, mv: G::Move) -> Result<(), String> {
        if self.solved() {
            return Err("this step is done: press Next for the next one".to_string());
        }
        let text = position.move_text(mv);
        let (right, said) = match self.lesson.steps[self.step].judge(position, &text) {
            Verdict::Right(explain) => (true, explain),
            Verdict::Legal => (false, format!("{text} is legal, but not what this step asks: try again")),
            // The rules' reason names the move itself at times ("b4 already holds a checker").
            Verdict::Illegal(reason) => (false, Status::refusal(&text, reason).text),
        };
        self.feedback = Some((right, said.clone()));
        if right { Ok(()) } else { Err(said) }
    }

    /// Goes to another step (`Back`, `Retry`, `Next`); returns the record that sets it up, or
    /// `None` for `Leave` and a step past either end.
    pub fn go(&mut self, action: LessonAction) -> Option<Record> {
        let step = match action {
            LessonAction::Back => self.step.checked_sub(1)?,
            LessonAction::Retry => self.step,
            LessonAction::Next => Some(self.step + 1).filter(|&s| s < self.lesson.steps.len())?,
            LessonAction::Leave => return None,
        };
        self.step = step;
        self.feedback = None;
        Some(self.record())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;
    use crate::rules::trike::Trike;

    #[test]
    fn a_refused_answer_names_its_move_once() {
        let mut learning = Learning::for_game("trike").expect("Trike's lesson");
        learning.step = 2;
        let position: Trike = learning.lesson.position(2).expect("the step's position");
        let mv = position.parse_move("b4").expect("a cell");
        let said = learning.answer(&position, mv).expect_err("b4 holds a checker");
        assert!(said.starts_with("b4 ") && !said.contains("b4: "), "{said}");
    }
}
