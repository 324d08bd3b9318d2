//! Lessons: short guided steps that teach a game's rules by playing (the app's Learn mode). Each
//! step sets up a position from the start by a move list, asks the learner for a move, and judges
//! the answer with the rules: a move the step teaches is right (with the step's explanation), an
//! illegal one is refused with the rules' own reason, another legal one is "legal, but not what
//! this step asks". Lessons are data (`assets/lessons/<game>.json`), each checked by a test that
//! plays its moves through the rules (`tests/records.rs`).

use serde::{Deserialize, Serialize};

use super::game::Game;
use super::record::{Record, RecordError};

/// One game's lesson: its title and steps, all on the same game and options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// The game id (`trike`, …).
    pub game: String,
    /// The game's options (`{"size": 5}`), as in a record.
    #[serde(default)]
    pub options: serde_json::Value,
    /// The lesson's title.
    pub title: String,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// One step: a position, a question, the moves that answer it, and what is said.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The rule taught, in a sentence or two, and what to do.
    pub text: String,
    /// The moves from the start that set the position up (the game's notation).
    #[serde(default)]
    pub setup: Vec<String>,
    /// The moves that answer the step; empty: any legal move does.
    #[serde(default)]
    pub answers: Vec<String>,
    /// Said when the answer is right: why.
    pub explain: String,
    /// Tempting illegal moves, each with a piece of the reason the rules give for refusing it (for
    /// the test; the learner sees the rules' whole reason).
    #[serde(default)]
    pub wrong: Vec<Wrong>,
}

/// A tempting illegal move of a step and a piece of the rules' reason for refusing it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wrong {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Text the refusal's reason contains.
    pub reason: String,
}

/// How an answer to a step was judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A move the step teaches; the explanation.
    Right(String),
    /// A legal move, not one the step asks for.
    Legal,
    /// Not a legal move here; the rules' reason.
    Illegal(String),
}

/// The lessons built into the program, one per game: (game id, JSON text).
pub const LESSONS: &[(&str, &str)] = &[
    ("trike", include_str!("../../assets/lessons/trike.json")),
    ("trigon-2", include_str!("../../assets/lessons/trigon.json")),
    ("tri-it-out", include_str!("../../assets/lessons/tri-it-out.json")),
    ("trisq", include_str!("../../assets/lessons/trisq.json")),
    ("tricore", include_str!("../../assets/lessons/tricore.json")),
];

impl Lesson {
    /// Reads a lesson from its JSON text.
    ///
    /// # Errors
    /// serde_json's message, naming line and column.
    pub fn from_json(text: &str) -> Result<Lesson, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// The position of step `k` (`0..steps.len()`), set up by its moves.
    ///
    /// # Errors
    /// Another game than `G`, bad options, or a setup move that is illegal (with its number).
    ///
    /// # Panics
    /// If `k` is out of range.
    pub fn position<G: Game>(&self, k: usize) -> Result<G, RecordError> {
        let record = Record::from_json(
            &serde_json::json!({ "game": self.game, "options": self.options, "moves": self.steps[k].setup })
                .to_string(),
        )?;
        record.replay::<G>().map(|(_, game, _)| game)
    }
}

impl Step {
    /// Judges `answer` (the game's notation) in `position`, this step's position.
    pub fn judge<G: Game>(&self, position: &G, answer: &str) -> Verdict {
        let mv = match position.parse_move(answer) {
            Ok(mv) => mv,
            Err(e) => return Verdict::Illegal(e.reason),
        };
        if let Err(e) = position.clone().play(mv) {
            return Verdict::Illegal(e.reason);
        }
        let text = position.move_text(mv);
        let taught = self.answers.is_empty()
            || self.answers.iter().any(|a| position.parse_move(a).is_ok_and(|m| position.move_text(m) == text));
        if taught { Verdict::Right(self.explain.clone()) } else { Verdict::Legal }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lessons are read in the app, which has no terminal and draws no `-` or `+` marks.
    #[test]
    fn lessons_speak_of_the_board_not_the_terminal() {
        for (id, text) in LESSONS {
            let lesson = Lesson::from_json(text).expect("a lesson");
            for (k, step) in lesson.steps.iter().enumerate() {
                for words in ["terminal", "marked -", "marked +", "+ in the"] {
                    assert!(!step.text.contains(words), "lesson {id}, step {}: {:?}", k + 1, step.text);
                }
            }
        }
    }
}
