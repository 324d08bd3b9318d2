//! What commands print about games: a finished game's result in words and as JSON, a win rate's
//! interval, and the date for records.

use serde_json::{Value, json};

use crate::rules::Game;

/// The result of a finished game as JSON: per-seat `scores`, `ranks` and `names` (Trike: the
/// colour each seat ends with), the `winners` (seat indices) and a one-line `text`.
pub fn outcome_json<G: Game>(game: &G) -> Value {
    match game.outcome() {
        None => Value::Null,
        Some(o) => {
            let n = o.num_players;
            let names: Vec<&str> = (0..n).map(|i| game.player_name(crate::rules::Player(i as u8))).collect();
            json!({
                "scores": &o.scores[..n],
                "ranks": &o.ranks[..n],
                "names": names,
                "winners": o.winners().iter().map(|p| p.index()).collect::<Vec<_>>(),
                "text": result_text(game),
            })
        }
    }
}

/// The result of a finished game in words: "Black 4 – White 3: Black wins" (seats in order).
pub fn result_text<G: Game>(game: &G) -> Option<String> {
    let o = game.outcome()?;
    let name = |i: usize| game.player_name(crate::rules::Player(i as u8));
    let scores: Vec<String> = (0..o.num_players).map(|i| format!("{} {}", name(i), o.scores[i])).collect();
    let verdict = o.verdict(|p| name(p.index()).to_string());
    Some(format!("{}: {verdict}", scores.join(" – ")))
}

/// The Wilson score interval at 95 % for `points` successes in `n` trials.
pub fn wilson95(points: f64, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let z = 1.959_963_984_540_054_f64;
    let p = points / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Now as an ISO 8601 UTC timestamp (`2026-11-22T20:31:05Z`), for records.
pub fn now_iso8601() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_iso() {
        let d = now_iso8601();
        assert_eq!(d.len(), 20, "{d}");
        assert!(d.starts_with("20") && d.ends_with('Z'));
    }

    #[test]
    fn wilson_interval() {
        let (lo, hi) = wilson95(5.0, 10);
        assert!((lo - 0.2366).abs() < 1e-3 && (hi - 0.7634).abs() < 1e-3, "{lo} {hi}");
        let (lo, hi) = wilson95(0.0, 10);
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 1e-3, "{lo} {hi}");
        assert_eq!(wilson95(0.0, 0), (0.0, 1.0));
    }
}
