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
//!
//! This file holds the flags and the match loop; each engine's process is `gtp_client.rs`, the
//! lines, table and JSON object `match_report.rs`.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::Duration;

use clap::Args;
use serde_json::Value;

use super::error::CliError;
use super::gtp_client::{Broken, Engine};
use super::gtp_trigon::{final_score, variant_from_id};
use super::match_report::{GameResult, label, report_game, summary};
use super::records::write_record;
use super::sprt::{Sprt, SprtBounds, pairwise_score};
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
    /// How many games (default 2; with `--sprt`, the most it plays: default 20,000).
    #[arg(long)]
    pub games: Option<usize>,
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
    /// A sequential probability ratio test of engine A against the others: H0 "A is ELO0
    /// stronger", H1 "A is ELO1 stronger" (logistic Elo, e.g. `0,20`); the match stops once the
    /// log-likelihood ratio crosses a bound (`sprt.rs`).
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// Continue an SPRT stopped before it decided: the pentanomial counts its last report gave
    /// (`P0,P1,P2,P3,P4`, pairs that scored 0, ½, 1, 1½, 2 for A), counted before the first game;
    /// use a new `--seed`.
    #[arg(long, value_name = "P0,P1,P2,P3,P4", requires = "sprt")]
    pub sprt_resume: Option<String>,
    /// The SPRT's chance of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The SPRT's chance of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Games played at once, each set of engines in its own processes (give each engine one
    /// thread and at most one game per core).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
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

/// The games of one worker of `--concurrency`: its own engine processes, game indices claimed
/// one unit at a time from `next_unit`, each result sent to the match's thread as it finishes.
/// A finished game as a worker sends it: its index, its result, and where to say it was taken in.
type Finished = (usize, GameResult, Sender<()>);

struct Worker<'a> {
    start: &'a Trigon,
    args: &'a MatchArgs,
    games: usize,
    unit_games: usize,
    next_unit: &'a AtomicUsize,
    stop: &'a AtomicBool,
}

impl Worker<'_> {
    /// Plays units until none is left or the match stops; after each game, waits until the
    /// match's thread has taken its result in (so a decided SPRT starts no new game here).
    fn run(&self, engines: &mut [Engine], results: &Sender<Finished>) {
        let (ack, acked) = channel();
        loop {
            let unit = self.next_unit.fetch_add(1, Ordering::SeqCst);
            for index in unit * self.unit_games..((unit + 1) * self.unit_games).min(self.games) {
                if self.stop.load(Ordering::SeqCst) {
                    return;
                }
                let r = play_game(engines, self.start, index, self.args);
                if results.send((index, r, ack.clone())).is_err() || acked.recv().is_err() {
                    return;
                }
            }
            if (unit + 1) * self.unit_games >= self.games {
                return;
            }
        }
    }
}

/// Runs `triboard match`.
///
/// # Errors
/// Usage errors: an unknown game, fewer than two engines or more than seats, a bad timeout, bad
/// `--sprt` bounds. Output errors.
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
    if args.concurrency == 0 {
        return Err(CliError::usage("--concurrency must be at least 1"));
    }
    let sprt = match &args.sprt {
        Some(text) => Some(SprtBounds::parse(text, args.alpha, args.beta).map_err(CliError::usage)?),
        None => None,
    };
    let games = args.games.unwrap_or(if sprt.is_some() { SPRT_MAX_GAMES } else { 2 });
    // A unit rotates every engine through every seat arrangement once: with two, a pair of games
    // with the colours swapped.
    let mut test = sprt.map(|b| Sprt::new(b, n));
    if let (Some(test), Some(text)) = (test.as_mut(), &args.sprt_resume) {
        let counts: Vec<u64> = text.split(',').filter_map(|p| p.trim().parse().ok()).collect();
        let counts: [u64; 5] = counts.try_into().map_err(|_| {
            CliError::usage(format!("--sprt-resume takes five pair counts P0,P1,P2,P3,P4, not '{text}'"))
        })?;
        test.resume_pairs(counts).map_err(CliError::usage)?;
        if test.verdict().is_some() {
            return Err(CliError::usage(format!("the resumed test has already decided: {}", test.line())));
        }
    }
    let timeout = Duration::from_secs_f64(args.timeout);
    if let Some(dir) = &args.record {
        std::fs::create_dir_all(dir).map_err(|e| CliError::failure(format!("cannot create {}: {e}", dir.display())))?;
    }
    let new_set = || -> Vec<Engine> { args.engines.iter().map(|c| Engine::new(c, timeout)).collect() };
    let mut sets: Vec<Vec<Engine>> = (0..args.concurrency).map(|_| new_set()).collect();
    let stop_note = if sprt.is_some() { " at most, until the SPRT decides" } else { "" };
    writeln!(out, "{} ({}), {games} games{stop_note}", args.game, variant.name())?;
    for (e, engine) in sets[0].iter_mut().enumerate() {
        // A failure here shows in the first game; the name is then unknown.
        let _ = engine.ensure_started();
        writeln!(out, "{}: {} [{}]", label(e), engine.command, engine.name)?;
    }
    if let Some(test) = test.as_ref().filter(|t| t.units() > 0) {
        writeln!(out, "  resumed: {}", test.line())?;
    }
    let (next_unit, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
    let worker = Worker { start: &start, args, games, unit_games: n, next_unit: &next_unit, stop: &stop };
    let mut results: Vec<(usize, GameResult)> = Vec::new();
    // A's score in each game of a unit not yet complete, by game index.
    let mut pending = BTreeMap::new();
    let mut written = Ok(());
    let mut engines = std::thread::scope(|s| {
        let (sender, receiver) = channel();
        let handles: Vec<_> = sets
            .drain(..)
            .map(|mut set| {
                let (worker, sender) = (&worker, sender.clone());
                s.spawn(move || {
                    worker.run(&mut set, &sender);
                    set
                })
            })
            .collect();
        drop(sender);
        for (index, r, ack) in receiver {
            if written.is_ok() {
                written = report_game(&r, index, &start, out);
            }
            if let (Some(dir), Ok(())) = (&args.record, &written) {
                written = write_record(dir, index, &r.record);
            }
            let score = pairwise_score(0, &r.engine_scores(), r.forfeit.as_ref().map(|f| f.0));
            results.push((index, r));
            if let Some(test) = test.as_mut().filter(|t| t.verdict().is_none()) {
                if add_finished_unit(test, &mut pending, index, score) && written.is_ok() {
                    written = writeln!(out, "  {}", test.line()).map_err(CliError::from);
                }
                if test.verdict().is_some() {
                    stop.store(true, Ordering::SeqCst);
                }
            }
            if written.is_err() {
                stop.store(true, Ordering::SeqCst);
            }
            // The worker may go on (it reads `stop` first).
            let _ = ack.send(());
        }
        let mut sets = handles.into_iter().map(|h| h.join().expect("a match worker panicked"));
        let mut engines = sets.next().expect("at least one worker");
        for set in sets {
            for (engine, other) in engines.iter_mut().zip(set) {
                engine.absorb(other);
            }
        }
        engines
    });
    for engine in &mut engines {
        engine.stop();
    }
    written?;
    results.sort_by_key(|(index, _)| *index);
    let results: Vec<GameResult> = results.into_iter().map(|(_, r)| r).collect();
    let mut value = summary(&args.game, &engines, &results, out)?;
    if let Some(test) = &test {
        writeln!(out, "{}", test.line())?;
        value["sprt"] = test.json();
    }
    Ok(value)
}

/// The most games `--sprt` plays when `--games` is not given.
const SPRT_MAX_GAMES: usize = 20_000;

/// After game `index` finished with engine A's pairwise `score`: keeps it in `pending` until every
/// game of its unit is in, then adds the unit to `test` and returns true.
fn add_finished_unit(test: &mut Sprt, pending: &mut BTreeMap<usize, f64>, index: usize, score: f64) -> bool {
    pending.insert(index, score);
    let size = test.unit_games();
    let first = index / size * size;
    if pending.range(first..first + size).count() < size {
        return false;
    }
    let scores: Vec<f64> = (first..first + size).filter_map(|i| pending.remove(&i)).collect();
    test.add_unit(&scores);
    true
}
