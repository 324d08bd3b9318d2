//! `triboard analyze FILE [--budget quick|normal|deep]`: the search run over every position of a
//! recorded game (`ai::analysis`), printing per move the mover's win rate before and after it, the
//! search's best move, and the mistakes (moves that lost more than `--threshold` of win rate).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};
use serde_json::{Value, json};

use super::error::CliError;
use super::games::{GameTask, with_record_game};
use super::records::read_record_file;
use crate::ai::{Budget, SearchConfig, analyze_game, record_analysis};
use crate::rules::Knowledge;
use crate::rules::record::Record;

/// How hard the search looks at each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Depth {
    /// 4,000 simulations a position.
    Quick,
    /// 16,000 simulations a position (level 3's budget).
    Normal,
    /// 64,000 simulations a position (level 4's budget).
    Deep,
}

impl Depth {
    /// Simulations per position.
    pub fn simulations(self) -> u64 {
        crate::ai::analysis::BUDGETS[self as usize].1
    }
}

/// Arguments of `triboard analyze`.
#[derive(Args, Debug, Clone)]
pub struct AnalyzeArgs {
    /// The record, JSON or Pentobi's `.blksgf`.
    pub file: PathBuf,
    /// Simulations per position.
    #[arg(long, value_enum, default_value = "normal")]
    pub budget: Depth,
    /// The share of win rate (0–1) a move must lose to count as a mistake.
    #[arg(long, default_value_t = 0.15)]
    pub threshold: f32,
    /// The searches' seed (the same seed gives the same analysis).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Keep the analysis in the record (a JSON record; its `analysis` field is replaced).
    #[arg(long)]
    pub write: bool,
}

struct Task<'a> {
    record: &'a mut Record,
    file: &'a str,
    args: &'a AnalyzeArgs,
    out: &'a mut dyn Write,
}

impl GameTask for Task<'_> {
    type Output = Result<Value, CliError>;
    fn run<G: Knowledge>(self, id: &str) -> Self::Output {
        let (start, _, moves) =
            self.record.replay::<G>().map_err(|e| CliError::failure(format!("{}: {e}", self.file)))?;
        let budget = Budget { simulations: self.args.budget.simulations(), max_time: Duration::from_secs(3600) };
        let config = SearchConfig { seed: self.args.seed, ..SearchConfig::default() };
        let out = self.out;
        writeln!(
            out,
            "{}: {id}, {}, {} simulations a position",
            self.file,
            crate::rules::counted(moves.len(), "move", "moves"),
            budget.simulations
        )?;
        let analysis = analyze_game(&start, &moves, budget, &config, self.args.threshold, |_, _| true);
        let mut game = start.clone();
        let mut rows = Vec::new();
        let pct = |x: f32| format!("{:.0}%", x * 100.0);
        for a in &analysis {
            let played = game.move_text(a.played);
            let best = game.move_text(a.best);
            let who = game.player_name(a.mover);
            let mut line =
                format!("{}. {who} {played}: {} → {}", a.ply + 1, pct(a.win_rate), a.kept.map_or("?".to_string(), pct));
            if a.played != a.best {
                line += &format!(", best {best}");
            }
            if a.mistake {
                line += &format!("  mistake (−{})", pct(a.loss));
            }
            writeln!(out, "{line}")?;
            rows.push(json!({
                "ply": a.ply, "player": a.mover.index(), "move": played, "win_rate": a.win_rate,
                "best": best, "kept": a.kept, "loss": a.loss, "mistake": a.mistake,
            }));
            game.play_unchecked(a.played);
        }
        self.record.analysis = Some(record_analysis(&start, &analysis, budget.simulations, self.args.threshold));
        let mistakes: Vec<usize> = analysis.iter().filter(|a| a.mistake).map(|a| a.ply + 1).collect();
        writeln!(out, "mistakes (moves losing over {}): {mistakes:?}", pct(self.args.threshold))?;
        Ok(json!({ "game": id, "simulations": budget.simulations, "moves": rows, "mistakes": mistakes }))
    }
}

/// Runs `triboard analyze`.
///
/// # Errors
/// A threshold outside 0–1 (usage); an unreadable file, a malformed record, an unknown game or an
/// illegal move (failures, with the place and reason).
pub fn run(args: &AnalyzeArgs, out: &mut dyn Write) -> Result<Value, CliError> {
    if !(0.0..=1.0).contains(&args.threshold) {
        return Err(CliError::usage("--threshold must be between 0 and 1"));
    }
    let file = args.file.display().to_string();
    let (mut record, text) = read_record_file(&args.file)?;
    if args.write && Record::from_json(&text).is_err() {
        return Err(CliError::usage(format!("--write keeps the analysis in a JSON record; {file} is not one")));
    }
    let id = record.game_id().to_string();
    let result = with_record_game(&id, &file, Task { record: &mut record, file: &file, args, out })?;
    if args.write {
        std::fs::write(&args.file, record.to_json() + "\n")
            .map_err(|e| CliError::failure(format!("cannot write {file}: {e}")))?;
        writeln!(out, "analysis written to {file}")?;
    }
    Ok(result)
}
