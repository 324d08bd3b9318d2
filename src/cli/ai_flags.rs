//! The AI's settings as the command line writes them: seats (`human`, `ai:L`), levels, search
//! settings (`--config NAME=VALUE`) and move-feature weights (`--weights FILE`).

use super::error::CliError;
use crate::ai::{Level, Seat};
use crate::rules::Knowledge;

/// Reads `human`, `ai` (level 3) or `ai:L` (level 1–6).
///
/// # Errors
/// Anything else, with what is accepted.
pub fn parse_seat(text: &str) -> Result<Seat, String> {
    let t = text.trim().to_ascii_lowercase();
    if t == "human" {
        return Ok(Seat::Human);
    }
    parse_ai(&t).map(Seat::Ai).map_err(|_| format!("'{text}' is not 'human', 'ai' or 'ai:L' with a level L in 1–6"))
}

/// Reads `ai` (level 3), `ai:L` or a bare level `L`, 1–6.
///
/// # Errors
/// Anything else, with what is accepted.
pub fn parse_ai(text: &str) -> Result<Level, String> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || format!("'{text}' is not 'ai:L' with a level L in 1–6");
    let digits = match t.strip_prefix("ai") {
        Some("") => return Level::new(3),
        Some(rest) => rest.strip_prefix(':').ok_or_else(bad)?,
        None => t.as_str(),
    };
    let n: u8 = digits.parse().map_err(|_| bad())?;
    Level::new(n)
}

/// The search settings `settings` (`NAME=VALUE` each) applied to `config`.
///
/// # Errors
/// A setting without `=`, an unknown name or a bad value (usage).
pub fn apply_config(config: &mut crate::ai::SearchConfig, settings: &[String]) -> Result<(), CliError> {
    for setting in settings {
        let (name, value) =
            setting.split_once('=').ok_or_else(|| CliError::usage(format!("--config {setting}: write NAME=VALUE")))?;
        config.set(name.trim(), value.trim()).map_err(|e| CliError::usage(format!("--config: {e}")))?;
    }
    Ok(())
}

/// Puts the move-feature weights of file `path` (written by `triboard learn`) in force for game
/// `G` instead of its built-in ones, for the rest of the process.
///
/// # Errors
/// A game without features (usage); an unreadable or malformed file, or weights already in use
/// (failures naming the file).
pub fn install_weights<G: Knowledge>(path: &std::path::Path) -> Result<(), CliError> {
    let file = path.display();
    let cell = G::feature_weights().ok_or_else(|| CliError::usage("this game has no move features (--weights)"))?;
    let text = std::fs::read_to_string(path).map_err(|e| CliError::failure(format!("cannot read {file}: {e}")))?;
    let weights = crate::rules::features::Weights::from_json(cell.set(), &text)
        .map_err(|e| CliError::failure(format!("{file}: {e}")))?;
    cell.install(weights).map_err(|e| CliError::failure(format!("{file}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_parse() {
        assert_eq!(parse_seat("human"), Ok(Seat::Human));
        assert_eq!(parse_seat("ai:2"), Ok(Seat::Ai(Level::new(2).unwrap())));
        assert_eq!(parse_seat("AI"), Ok(Seat::Ai(Level::new(3).unwrap())));
        assert!(parse_seat("ai:9").is_err());
        assert!(parse_seat("robot").is_err());
        assert_eq!(parse_ai("4"), Ok(Level::new(4).unwrap()));
        assert!(parse_ai("ai2").is_err());
    }
}
