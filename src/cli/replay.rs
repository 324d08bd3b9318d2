//! `triboard replay FILE`: checks a game record (any known game: its `game` field chooses the
//! rules), then prints the final position, the moves and the result (the rules', or the ending off
//! the board the record keeps: "result: Black resigned (White wins)"). A record that does not load
//! is refused with its place and reason, and the exit code is 1.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use serde_json::{Value, json};

use super::error::CliError;
use super::games::{GameTask, with_record_game};
use super::output::{outcome_json, result_text};
use super::records::read_record_file;
use crate::rules::record::Record;
use crate::rules::{Knowledge, move_texts};

/// Arguments of `triboard replay`.
#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// The record, a `.json` file as `triboard play --record` writes it.
    pub file: PathBuf,
}

struct Task<'a> {
    record: &'a Record,
    file: &'a str,
    out: &'a mut dyn Write,
}

impl GameTask for Task<'_> {
    type Output = Result<Value, CliError>;
    fn run<G: Knowledge>(self, id: &str) -> Self::Output {
        let (start, end, moves) =
            self.record.replay::<G>().map_err(|e| CliError::failure(format!("{}: {e}", self.file)))?;
        let texts = move_texts(&start, &moves);
        let out = self.out;
        writeln!(
            out,
            "{}: {id}, {}, options {}",
            self.file,
            crate::rules::counted(moves.len(), "move", "moves"),
            json!(end.options())
        )?;
        if !self.record.players.is_empty() {
            writeln!(out, "players: {}", self.record.players.join(" vs "))?;
        }
        if let Some(date) = &self.record.date {
            writeln!(out, "date: {date}")?;
        }
        write!(out, "{}", end.board_text())?;
        // Moves numbered by ply, several to a line.
        for (row, chunk) in texts.chunks(10).enumerate() {
            let line: Vec<String> =
                chunk.iter().enumerate().map(|(k, t)| format!("{}.{t}", row * 10 + k + 1)).collect();
            writeln!(out, "{}", line.join(" "))?;
        }
        let result = result_text(&end);
        // A game that ended off the board (a resignation, a loss on time) is over too.
        let ending = self.record.ending_text(&end);
        match (&result, &ending) {
            (Some(text), _) | (None, Some(text)) => writeln!(out, "result: {text}")?,
            (None, None) => match end.to_move() {
                Some(p) => writeln!(out, "unfinished: {} to move", end.player_name(p))?,
                None => writeln!(out, "unfinished")?,
            },
        }
        if let (Some(stored), Some(actual)) = (&self.record.result, result.as_ref().or(ending.as_ref()))
            && !actual.starts_with(stored.as_str())
        {
            writeln!(out, "note: the record's own result says \"{stored}\"")?;
        }
        Ok(json!({
            "game": id,
            "options": end.options(),
            "moves": texts,
            "finished": end.outcome().is_some() || ending.is_some(),
            "result": outcome_json(&end),
            "ending": ending,
        }))
    }
}

/// Runs `triboard replay`.
///
/// # Errors
/// An unreadable file, a malformed record, an unknown game or an illegal move (failures, with the
/// place and reason).
pub fn run(args: &ReplayArgs, out: &mut dyn Write) -> Result<Value, CliError> {
    let file = args.file.display().to_string();
    let (record, _) = read_record_file(&args.file)?;
    with_record_game(record.game_id(), &file, Task { record: &record, file: &file, out })
}
