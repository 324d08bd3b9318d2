//! The move of one of the server's AI bots (`docs/design.md` §Lobby): the game found by its id in
//! the one list of games ([`crate::for_each_game`]), replayed from its record, and searched at the
//! bot's level on one thread ([`crate::ai::mcts::choose_move`]), the opening book first from level
//! [`BOOK_LEVEL`](crate::ai::engine::BOOK_LEVEL) on, as the app's AI seats play.

use std::time::Duration;

use crate::ai::engine::book_move;
use crate::ai::levels::Level;
use crate::ai::mcts::choose_move;
use crate::rules::record::Record;
use crate::rules::{Game, Knowledge};

/// The bot's move in the game of `record` at `level`, its search seeded with `seed` and stopped
/// at `max_time` if that comes before the level's own cap; `None` once the game is over.
///
/// # Errors
/// A game triboard does not know, or a record that does not replay.
pub fn bot_move(
    record: &Record,
    level: Level,
    seed: u64,
    max_time: Option<Duration>,
) -> Result<Option<String>, String> {
    fn play<G: Knowledge>(
        record: &Record,
        level: Level,
        seed: u64,
        max_time: Option<Duration>,
    ) -> Result<Option<String>, String> {
        let (_, position, _) = record.replay::<G>().map_err(|e| e.to_string())?;
        if position.outcome().is_some() {
            return Ok(None);
        }
        let mut budget = level.budget();
        if let Some(cap) = max_time {
            budget.max_time = budget.max_time.min(cap);
        }
        let mv = book_move(&position, level).or_else(|| choose_move(&position, budget, seed));
        Ok(mv.map(|mv| position.move_text(mv)))
    }
    let id = record.game_id();
    macro_rules! find {
        ($($g:ty),*) => {
            $( if <$g as Game>::IDS.contains(&id) {
                return play::<$g>(record, level, seed, max_time);
            } )*
        };
    }
    crate::for_each_game!(find);
    Err(format!("'{id}' is not a game triboard knows"))
}

/// The level of a bot by its account name, `TriboardAI-N`.
pub fn bot_level(name: &str) -> Option<Level> {
    name.strip_prefix(BOT_PREFIX)?.parse().ok().and_then(|n| Level::new(n).ok())
}

/// The start of every AI bot's name; the level follows (`TriboardAI-3`).
pub const BOT_PREFIX: &str = "TriboardAI-";

/// The name of the AI bot of `level`.
pub fn bot_name(level: Level) -> String {
    format!("{BOT_PREFIX}{}", level.number())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_plays_a_legal_move_of_every_game_and_none_after_the_end() {
        let level = Level::new(1).unwrap();
        for id in crate::rules::game_ids() {
            let record = Record::of_texts(id, serde_json::Value::Null, Vec::new());
            let text = bot_move(&record, level, 7, Some(Duration::from_millis(50))).unwrap().expect("a move");
            let mut position = crate::net::position::replay(&record).unwrap();
            assert!(position.play_text(&text).is_ok(), "{id}: {text}");
        }
        let unknown = Record::of_texts("chess", serde_json::Value::Null, Vec::new());
        assert!(bot_move(&unknown, level, 7, None).is_err());
        assert_eq!(bot_level("TriboardAI-3"), Level::new(3).ok());
        assert_eq!(bot_level("TriboardAI-9"), None);
        assert_eq!(bot_name(Level::new(5).unwrap()), "TriboardAI-5");
    }
}
