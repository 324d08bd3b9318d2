//! `triboard match --engine "CMD1" --engine "CMD2" [--game trigon|trigon-2|trigon-3] [--games N]
//! [--seed S] [--max-moves M] [--timeout SECS]`: GTP engines against each other at Blokus Trigon —
//! triboard, Pentobi's `pentobi-gtp`, or any engine speaking Pentobi's protocol (`gtp.rs`).
//!
//! Each engine runs as `sh -c CMD` (its stderr discarded) and lives through the match; one that
//! crashes is started again for the next game. Before each game every engine gets `set_game` and
//! `clear_board` (and, with `--seed`, `set_random_seed` if it knows the command). Seats rotate:
//! in game `g` (from 0), seat `s` is played by engine `(s + g) mod E`, so with two engines in
//! `trigon` they alternate colours, and in `trigon-2` one plays colours 1+3 and the other 2+4.
//!
//! The referee is triboard's own rules: a colour that cannot place passes without asking its
//! engine (as Pentobi's `twogtp` skips it); otherwise its engine answers `genmove c` and the move
//! is checked, then sent to the other engines as `play c MOVE`. An engine that answers with an
//! illegal move, `resign`, an error, nothing within `--timeout`, or that crashes or refuses a legal
//! move loses the game (the others share the win); run Pentobi as `pentobi-gtp --noresign` unless
//! resigning should count as a loss. Scores are triboard's (`§Score`); with `--max-moves M` a game
//! stops after M placements and is scored as it stands.
//!
//! After the results, each engine's time per move: the number of `genmove`s it answered, their mean
//! and longest wall time (command sent to answer read), and the CPU time it reports through
//! `cputime` (asked after each game, where the engine knows it) — so "equal time" is visible.
//!
//! JSON keys: `game`, `games`, `engines` (per engine: `command`, `name`, `wins`, `losses`, `draws`,
//! `forfeits`, `points`, `win_rate`, `ci95_low`, `ci95_high` (Wilson), `mean_score`, `moves`,
//! `mean_move_seconds`, `max_move_seconds`, `cpu_seconds` (null without `cputime`)), `results`
//! (per game: `seats` (engine per seat), `scores` (per seat), `points` (per engine), `placements`,
//! `forfeit`, `final_score` (triboard's, in Pentobi's words), `disagreements` (engines whose own
//! `final_score` of the last position differs: a check of their rules, it changes no result)).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use clap::Args;
use serde_json::{Value, json};

use super::error::CliError;
use super::gtp_trigon::{final_score, variant_from_id};
use super::output::wilson95;
use super::records::write_record;
use crate::ai::derive_seed;
use crate::rules::record::Record;
use crate::rules::trigon::{Trigon, TrigonMove, TrigonOptions};
use crate::rules::{Game, Outcome};

/// Arguments of `triboard match`.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// A GTP engine's command line, run with `sh -c` (give two or more).
    #[arg(long = "engine", value_name = "CMD", required = true)]
    pub engines: Vec<String>,
    /// The variant: `trigon`, `trigon-2` or `trigon-3`.
    #[arg(long, default_value = "trigon")]
    pub game: String,
    /// How many games.
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Seed sent as `set_random_seed` (derived per game and engine) to engines that know it.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop each game after this many placements and score it as it stands.
    #[arg(long)]
    pub max_moves: Option<usize>,
    /// Seconds an engine may take to answer one command.
    #[arg(long, default_value_t = 600.0)]
    pub timeout: f64,
    /// Write each game's record to DIR/game-NNNN.json (the directory is created), e.g. as data for
    /// `triboard learn`.
    #[arg(long, value_name = "DIR")]
    pub record: Option<std::path::PathBuf>,
}

/// Why a command to an engine brought no answer: the engine is then stopped.
type Broken = String;

/// A GTP engine run as a child process.
struct Engine {
    command: String,
    /// The engine's `name` and `version`, asked when it first starts.
    name: String,
    child: Option<Child>,
    stdin: Option<ChildStdin>,
    lines: Option<Receiver<String>>,
    timeout: Duration,
    /// Wall time of each `genmove` it answered, in seconds (command sent to answer read).
    move_seconds: Vec<f64>,
    /// CPU time it reported through `cputime` at the end of each game, summed over its processes
    /// (a restarted engine starts again from 0), in seconds; `None` if it does not answer it.
    cpu_seconds: Option<f64>,
    /// Its last `cputime` answer in the process running now.
    cpu_seen: f64,
}

impl Engine {
    fn new(command: &str, timeout: Duration) -> Engine {
        Engine {
            command: command.to_string(),
            name: String::new(),
            child: None,
            stdin: None,
            lines: None,
            timeout,
            move_seconds: Vec::new(),
            cpu_seconds: None,
            cpu_seen: 0.0,
        }
    }

    /// Asks `cputime` (if the engine knows it) and adds what it used since the last answer.
    fn note_cputime(&mut self) {
        if self.child.is_none() || !self.send("known_command cputime").is_ok_and(|a| a.is_ok_and(|t| t == "true")) {
            return;
        }
        if let Ok(Ok(text)) = self.send("cputime")
            && let Ok(now) = text.trim().parse::<f64>()
        {
            // A smaller answer than before: the engine was restarted.
            let used = if now >= self.cpu_seen { now - self.cpu_seen } else { now };
            self.cpu_seen = now;
            *self.cpu_seconds.get_or_insert(0.0) += used;
        }
    }

    /// Starts the engine unless it runs.
    fn ensure_started(&mut self) -> Result<(), Broken> {
        if self.child.is_none() {
            self.cpu_seen = 0.0;
        }
        if self.child.is_some() {
            return Ok(());
        }
        let mut command = Command::new("sh");
        command.arg("-c").arg(&self.command).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        // Its own process group, so that stopping it reaches the engine and not only `sh`.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| format!("cannot start: {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = channel();
        // The reader thread ends when the engine closes its output.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        self.stdin = child.stdin.take();
        self.lines = Some(rx);
        self.child = Some(child);
        if self.name.is_empty() {
            let name = self.send("name")?.unwrap_or_else(|_| "?".to_string());
            let version = self.send("version")?.unwrap_or_default();
            self.name = format!("{name} {version}").trim().to_string();
        }
        Ok(())
    }

    /// Sends one command: `Ok(Ok(text))` for `=`, `Ok(Err(reason))` for `?`, `Err` if the engine
    /// crashed or did not answer in time (it is then stopped).
    fn send(&mut self, command: &str) -> Result<Result<String, String>, Broken> {
        let result = self.exchange(command);
        if result.is_err() {
            self.stop();
        }
        result
    }

    fn exchange(&mut self, command: &str) -> Result<Result<String, String>, Broken> {
        let (Some(stdin), Some(lines)) = (self.stdin.as_mut(), self.lines.as_ref()) else {
            return Err("not running".to_string());
        };
        writeln!(stdin, "{command}").and_then(|()| stdin.flush()).map_err(|e| format!("crashed ({e})"))?;
        let mut status = None;
        let mut body: Vec<String> = Vec::new();
        loop {
            let line = match lines.recv_timeout(self.timeout) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => return Err(format!("no answer to '{command}' in time")),
                Err(RecvTimeoutError::Disconnected) => return Err(format!("crashed (no answer to '{command}')")),
            };
            let line = line.trim_end_matches('\r');
            match status {
                // Before the answer: skip anything that is not a status line.
                None => {
                    if let Some(rest) = line.strip_prefix('=').or_else(|| line.strip_prefix('?')) {
                        status = Some(line.starts_with('='));
                        body.push(rest.trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string());
                    }
                }
                Some(_) if line.is_empty() => break,
                Some(_) => body.push(line.trim().to_string()),
            }
        }
        let text = body.join("\n").trim().to_string();
        Ok(if status == Some(true) { Ok(text) } else { Err(text) })
    }

    /// Asks the engine to quit (and closes its input), and ends its process group if it has not
    /// quit within a second.
    fn stop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit").and_then(|()| stdin.flush());
        }
        if let Some(mut child) = self.child.take() {
            for _ in 0..20 {
                if matches!(child.try_wait(), Ok(Some(_))) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            if matches!(child.try_wait(), Ok(None)) {
                // The group this engine was started in (its id is the child's).
                #[cfg(unix)]
                let _ = Command::new("kill")
                    .args(["-KILL", "--", &format!("-{}", child.id())])
                    .stderr(Stdio::null())
                    .status();
                let _ = child.kill();
            }
            let _ = child.wait();
        }
        self.lines = None;
    }
}

/// One finished game.
struct GameResult {
    /// The engine of each seat.
    seats: Vec<usize>,
    /// Each seat's score.
    scores: Vec<i32>,
    /// Each engine's share of the win: 1, 0, or a fraction when it is shared.
    points: Vec<f64>,
    placements: usize,
    /// The engine that lost by forfeit, and why.
    forfeit: Option<(usize, String)>,
    /// Triboard's `final_score` of the final position.
    final_score: String,
    /// The engines whose own `final_score` differs from triboard's, with their answer.
    disagreements: Vec<(usize, String)>,
    /// The game's record (its moves, passes included, and the engines by seat).
    record: Record,
}

/// Plays game `index` between `engines` from `start`.
fn play_game(engines: &mut [Engine], start: &Trigon, index: usize, args: &MatchArgs) -> GameResult {
    let n_engines = engines.len();
    let seats: Vec<usize> = (0..start.num_players()).map(|s| (s + index) % n_engines).collect();
    let mut game = start.clone();
    let mut placements = 0;
    let mut moves = Vec::new();
    let forfeit = run_game(engines, &seats, &mut game, &mut moves, &mut placements, index, args).err();
    let mut record = Record::new(&game, &moves);
    record.players = seats.iter().map(|&e| engines[e].name.clone()).collect();
    // A check of the engines' rules: their score of the final position (unless one forfeited).
    let ours = final_score(&game);
    let mut disagreements = Vec::new();
    for engine in engines.iter_mut() {
        engine.note_cputime();
    }
    if forfeit.is_none() {
        for (e, engine) in engines.iter_mut().enumerate() {
            if let Ok(Ok(theirs)) = engine.send("final_score")
                && theirs.split_whitespace().ne(ours.split_whitespace())
            {
                disagreements.push((e, theirs));
            }
        }
    }
    let seat_scores: Vec<i32> = (0..start.num_players())
        .map(|s| {
            (0..start.options().variant.colours())
                .filter(|&c| game.player_of(c).index() == s)
                .map(|c| game.colour_score(c))
                .sum()
        })
        .collect();
    let mut points = vec![0.0; n_engines];
    match &forfeit {
        Some((loser, _)) => {
            for (e, p) in points.iter_mut().enumerate() {
                if e != *loser {
                    *p = 1.0 / (n_engines - 1) as f64;
                }
            }
        }
        None => {
            let winners = Outcome::from_scores(&seat_scores).winners();
            for w in &winners {
                points[seats[w.index()]] += 1.0 / winners.len() as f64;
            }
        }
    }
    GameResult { seats, scores: seat_scores, points, placements, forfeit, final_score: ours, disagreements, record }
}

/// Sets the engines up and plays until the game ends (or `--max-moves`); `Err` names the engine
/// that forfeits and why.
fn run_game(
    engines: &mut [Engine],
    seats: &[usize],
    game: &mut Trigon,
    moves: &mut Vec<TrigonMove>,
    placements: &mut usize,
    index: usize,
    args: &MatchArgs,
) -> Result<(), (usize, String)> {
    let name = game.options().variant.name();
    for (e, engine) in engines.iter_mut().enumerate() {
        let setup = |engine: &mut Engine| -> Result<Result<(), String>, Broken> {
            engine.ensure_started()?;
            if let Err(reason) = engine.send(&format!("set_game {name}"))? {
                return Ok(Err(format!("set_game failed: {reason}")));
            }
            if let Err(reason) = engine.send("clear_board")? {
                return Ok(Err(format!("clear_board failed: {reason}")));
            }
            if let Some(seed) = args.seed
                && engine.send("known_command set_random_seed")?.is_ok_and(|t| t == "true")
            {
                let seed = derive_seed(seed, (index * 64 + e) as u64) % (1 << 31);
                engine.send(&format!("set_random_seed {seed}"))?.map_err(|r| format!("set_random_seed: {r}"))?;
            }
            Ok(Ok(()))
        };
        match setup(engine) {
            Ok(Ok(())) => {}
            Ok(Err(reason)) | Err(reason) => return Err((e, reason)),
        }
    }
    while let Some(c) = game.colour_to_move() {
        if args.max_moves.is_some_and(|m| *placements >= m) {
            break;
        }
        if let Some(forced) = game.forced_move() {
            game.play_unchecked(forced);
            moves.push(forced);
            continue;
        }
        let mover = seats[game.player_of(c).index()];
        let asked = std::time::Instant::now();
        let answer = engines[mover].send(&format!("genmove {}", c + 1));
        let text = match answer {
            Err(broken) => return Err((mover, broken)),
            Ok(Err(reason)) => return Err((mover, format!("genmove {} failed: {reason}", c + 1))),
            Ok(Ok(text)) => text,
        };
        engines[mover].move_seconds.push(asked.elapsed().as_secs_f64());
        if text.eq_ignore_ascii_case("resign") {
            return Err((mover, "resigned".to_string()));
        }
        let played = game.parse_move(&text).and_then(|mv| game.play(mv).map(|()| mv));
        let mv = played.map_err(|e| (mover, format!("illegal move '{text}' for colour {}: {e}", c + 1)))?;
        *placements += 1;
        moves.push(mv);
        // The others get the move in its plain form (cells in order, no spaces); a move's text
        // depends on the board only.
        let text = game.move_text(mv);
        for (e, engine) in engines.iter_mut().enumerate().filter(|&(e, _)| e != mover) {
            match engine.send(&format!("play {} {text}", c + 1)) {
                Err(broken) => return Err((e, broken)),
                Ok(Err(reason)) => return Err((e, format!("refused the legal move {} {text}: {reason}", c + 1))),
                Ok(Ok(_)) => {}
            }
        }
    }
    Ok(())
}

/// An engine's label in the table: A, B, C, …
fn label(e: usize) -> char {
    (b'A' + e as u8) as char
}

/// One line per finished game.
fn report_game(r: &GameResult, index: usize, start: &Trigon, out: &mut dyn Write) -> Result<(), CliError> {
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

/// Runs `triboard match`.
///
/// # Errors
/// Usage errors: an unknown game, fewer than two engines or more than seats, a bad timeout.
/// Output errors.
pub fn run(args: &MatchArgs, out: &mut dyn Write) -> Result<Value, CliError> {
    let variant = variant_from_id(&args.game)
        .ok_or_else(|| CliError::usage(format!("match plays trigon, trigon-2 or trigon-3, not '{}'", args.game)))?;
    let start = Trigon::new(&TrigonOptions { variant }).map_err(CliError::usage)?;
    let n = args.engines.len();
    if n < 2 || n > start.num_players() {
        let seats = start.num_players();
        return Err(CliError::usage(format!("{} seats {seats} players: give 2 to {seats} engines", args.game)));
    }
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        return Err(CliError::usage("--timeout must be a positive number of seconds"));
    }
    let timeout = Duration::from_secs_f64(args.timeout);
    if let Some(dir) = &args.record {
        std::fs::create_dir_all(dir).map_err(|e| CliError::failure(format!("cannot create {}: {e}", dir.display())))?;
    }
    let mut engines: Vec<Engine> = args.engines.iter().map(|c| Engine::new(c, timeout)).collect();
    writeln!(out, "{} ({}), {} games", args.game, variant.name(), args.games)?;
    for (e, engine) in engines.iter_mut().enumerate() {
        // A failure here shows in the first game; the name is then unknown.
        let _ = engine.ensure_started();
        writeln!(out, "{}: {} [{}]", label(e), engine.command, engine.name)?;
    }
    let mut results = Vec::new();
    let mut written = Ok(());
    for index in 0..args.games {
        let r = play_game(&mut engines, &start, index, args);
        written = report_game(&r, index, &start, out);
        if let (Some(dir), Ok(())) = (&args.record, &written) {
            written = write_record(dir, index, &r.record);
        }
        results.push(r);
        if written.is_err() {
            break;
        }
    }
    for engine in &mut engines {
        engine.stop();
    }
    written?;
    summary(args, &engines, &results, out)
}

/// The result table and the JSON object.
fn summary(
    args: &MatchArgs,
    engines: &[Engine],
    results: &[GameResult],
    out: &mut dyn Write,
) -> Result<Value, CliError> {
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
    Ok(json!({ "game": args.game, "games": games, "engines": table, "results": per_game }))
}
