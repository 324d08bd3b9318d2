//! What `triboard match` reports: a line per finished game ([`GameResult`]), then the result
//! table, each engine's time per move and the JSON object.

use std::io::Write;

use serde_json::{Value, json};

use super::error::CliError;
use super::gtp_client::Engine;
use super::output::wilson95;
use crate::rules::Game;
use crate::rules::record::Record;
use crate::rules::trigon::Trigon;

/// One finished game.
pub struct GameResult {
    /// The engine of each seat.
    pub seats: Vec<usize>,
    /// Each seat's score.
    pub scores: Vec<i32>,
    /// Each engine's share of the win: 1, 0, or a fraction when it is shared.
    pub points: Vec<f64>,
    pub placements: usize,
    /// The engine that lost by forfeit, and why.
    pub forfeit: Option<(usize, String)>,
    /// Triboard's `final_score` of the final position.
    pub final_score: String,
    /// The engines whose own `final_score` differs from triboard's, with their answer.
    pub disagreements: Vec<(usize, String)>,
    /// The game's record (its moves, passes included, and the engines by seat).
    pub record: Record,
}

impl GameResult {
    /// Each engine's mean score a seat (an engine may hold more seats than another: two of
    /// `trigon-3`'s three when two engines play).
    pub fn engine_scores(&self) -> Vec<f64> {
        let mut sums = vec![(0.0, 0.0); self.points.len()];
        for (s, &e) in self.seats.iter().enumerate() {
            sums[e].0 += self.scores[s] as f64;
            sums[e].1 += 1.0;
        }
        sums.into_iter().map(|(sum, n)| if n > 0.0 { sum / n } else { 0.0 }).collect()
    }
}

/// An engine's label in the table: A, B, C, …
pub fn label(e: usize) -> char {
    (b'A' + e as u8) as char
}

/// One line per finished game.
pub fn report_game(r: &GameResult, index: usize, start: &Trigon, out: &mut dyn Write) -> Result<(), CliError> {
    let seats: Vec<String> = (0..r.seats.len())
        .map(|s| {
            let colours: Vec<String> = (0..start.options().variant.colours())
                .filter(|&c| start.player_of(c).index() == s)
                .map(|c| (c + 1).to_string())
                .collect();
            format!("{} {}", label(r.seats[s]), colours.join("+"))
        })
        .collect();
    let scores: Vec<String> = r.scores.iter().map(i32::to_string).collect();
    let verdict = match &r.forfeit {
        Some((e, reason)) => format!("{} forfeits: {reason}", label(*e)),
        None => {
            let winners: Vec<String> =
                (0..r.points.len()).filter(|&e| r.points[e] > 0.0).map(|e| label(e).to_string()).collect();
            if winners.len() == 1 { format!("{} wins", winners[0]) } else { format!("{} share", winners.join("+")) }
        }
    };
    writeln!(
        out,
        "game {} ({}): {verdict}; scores {} after {} placements",
        index + 1,
        seats.join(", "),
        scores.join(" – "),
        r.placements
    )?;
    for (e, theirs) in &r.disagreements {
        writeln!(out, "  note: {}'s final_score is '{theirs}', triboard's '{}'", label(*e), r.final_score)?;
    }
    Ok(())
}

/// The result table and the JSON object.
pub fn summary(game: &str, engines: &[Engine], results: &[GameResult], out: &mut dyn Write) -> Result<Value, CliError> {
    let games = results.len();
    writeln!(out, "engine  games  wins  losses  draws  forfeits  mean score  win rate (95% interval)")?;
    let mut table = Vec::new();
    for (e, engine) in engines.iter().enumerate() {
        let wins = results.iter().filter(|r| r.points[e] == 1.0).count();
        let losses = results.iter().filter(|r| r.points[e] == 0.0).count();
        let forfeits = results.iter().filter(|r| r.forfeit.as_ref().is_some_and(|f| f.0 == e)).count();
        let points: f64 = results.iter().map(|r| r.points[e]).sum();
        let scores: Vec<i32> = results
            .iter()
            .flat_map(|r| (0..r.seats.len()).filter(move |&s| r.seats[s] == e).map(move |s| r.scores[s]))
            .collect();
        let mean_score = if scores.is_empty() { 0.0 } else { scores.iter().sum::<i32>() as f64 / scores.len() as f64 };
        let win_rate = if games > 0 { points / games as f64 } else { 0.0 };
        let (low, high) = wilson95(points, games);
        writeln!(
            out,
            "{:<6}  {games:>5}  {wins:>4}  {:>6}  {:>5}  {forfeits:>8}  {mean_score:>10.1}  {:.1}% ({:.1}%–{:.1}%)",
            label(e),
            losses,
            games - wins - losses,
            100.0 * win_rate,
            100.0 * low,
            100.0 * high
        )?;
        let moves = engine.move_seconds.len();
        let mean_move = if moves > 0 { engine.move_seconds.iter().sum::<f64>() / moves as f64 } else { 0.0 };
        let max_move = engine.move_seconds.iter().copied().fold(0.0, f64::max);
        table.push(json!({
            "moves": moves,
            "mean_move_seconds": mean_move,
            "max_move_seconds": max_move,
            "cpu_seconds": engine.cpu_seconds,
            "command": engine.command,
            "name": engine.name,
            "wins": wins,
            "losses": losses,
            "draws": games - wins - losses,
            "forfeits": forfeits,
            "points": points,
            "win_rate": win_rate,
            "ci95_low": low,
            "ci95_high": high,
            "mean_score": mean_score,
        }));
    }
    // Time per move, so that "equal time" can be seen.
    writeln!(out, "engine  moves  mean s/move  max s/move  cpu s (cputime)")?;
    for (e, engine) in engines.iter().enumerate() {
        let moves = engine.move_seconds.len();
        let mean = if moves > 0 { engine.move_seconds.iter().sum::<f64>() / moves as f64 } else { 0.0 };
        let max = engine.move_seconds.iter().copied().fold(0.0, f64::max);
        let cpu = engine.cpu_seconds.map_or("-".to_string(), |c| format!("{c:.1}"));
        writeln!(out, "{:<6}  {moves:>5}  {mean:>11.3}  {max:>10.3}  {cpu:>15}", label(e))?;
    }
    let per_game: Vec<Value> = results
        .iter()
        .map(|r| {
            json!({
                "seats": r.seats,
                "scores": r.scores,
                "points": r.points,
                "placements": r.placements,
                "forfeit": r.forfeit.as_ref().map(|(e, reason)| json!({ "engine": e, "reason": reason })),
                "final_score": r.final_score,
                "disagreements": r.disagreements.iter().map(|(e, theirs)| json!({ "engine": e, "final_score": theirs })).collect::<Vec<_>>(),
            })
        })
        .collect();
    Ok(json!({ "game": game, "games": games, "engines": table, "results": per_game }))
}
