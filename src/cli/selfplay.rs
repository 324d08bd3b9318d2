//! `triboard selfplay GAME --a ai:L --b ai:M --games N [--seed S] [--record DIR] [--threads T]
//! [--size N]`: AI against AI. A and B alternate seats game by game (A opens the even games);
//! each game's searches are seeded from S and the game's index, so a seed replays the same games,
//! with any number of threads.
//!
//! The searches use their level's simulation budget without its wall-clock cap (so results do not
//! depend on the machine or the load); `--timed` honours the caps as the app does; `--seconds S`
//! gives both players S seconds of wall time a move instead. `--a-threads N` / `--b-threads N` set
//! each player's search threads (`--threads` is how many games run at once). Every search keeps its
//! tree from move to move (tree reuse).
//!
//! JSON keys: `games`, `a_wins`, `b_wins`, `draws`, `a_win_rate`, `ci95_low`, `ci95_high`
//! (Wilson score interval), `a_ms_per_move`, `b_ms_per_move`, `mean_plies`, `moves_digest` (a hash
//! of every game's moves, equal for equal matches).

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::{Value, json};

use super::ai_flags::{apply_config, install_weights, parse_ai};
use super::error::CliError;
use super::games::{GameFlags, GameTask, with_game};
use super::output::{now_iso8601, result_text, wilson95};
use super::records::write_record;
use crate::ai::{Budget, Level, Mcts, SearchConfig, derive_seed};
use crate::rules::record::Record;
use crate::rules::{Knowledge, move_texts};

/// Arguments of `triboard selfplay`.
#[derive(Args, Debug, Clone)]
pub struct SelfplayArgs {
    /// The game id: one of [`crate::rules::game_ids`].
    #[arg(help = super::games::game_id_help())]
    pub game: String,
    /// The game's options.
    #[command(flatten)]
    pub flags: GameFlags,
    /// Player A: `ai:L` with a level L in 1–6.
    #[arg(long, value_parser = parse_ai)]
    pub a: Level,
    /// Player B: `ai:L`.
    #[arg(long, value_parser = parse_ai)]
    pub b: Level,
    /// How many games.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Seed of the whole match; each game's seed is derived from it.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write each game's record to DIR/game-NNNN.json (the directory is created).
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
    /// Games played at once, each on its own thread.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Honour the levels' wall-clock caps (results then depend on the machine).
    #[arg(long)]
    pub timed: bool,
    /// Which player (`a` or `b`) searches without the game's knowledge (random playouts, no priors,
    /// no pruning), to measure what the knowledge is worth at the same budget.
    #[arg(long, value_parser = ["a", "b"])]
    pub plain: Option<String>,
    /// Search threads of player A (one tree each: `ai::mcts`).
    #[arg(long, default_value_t = 1)]
    pub a_threads: usize,
    /// Search threads of player B.
    #[arg(long, default_value_t = 1)]
    pub b_threads: usize,
    /// Both players search this many seconds of wall time a move, whatever their level's budget
    /// (equal time, e.g. to weigh threads against threads).
    #[arg(long, value_parser = parse_move_seconds)]
    pub seconds: Option<f64>,
    /// A search setting of player A, `NAME=VALUE` (repeatable; `gtp --config` lists the names),
    /// e.g. `prior_exploration=0` to screen the game's learned priors against none.
    #[arg(long, value_name = "NAME=VALUE")]
    pub a_config: Vec<String>,
    /// A search setting of player B (as `--a-config`).
    #[arg(long, value_name = "NAME=VALUE")]
    pub b_config: Vec<String>,
    /// Move-feature weights for both players instead of the game's built-in ones (a file
    /// `triboard learn` wrote).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
}

/// A positive, finite number of seconds, at most an hour.
fn parse_move_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err(format!("'{text}' is not a number of seconds between 0 and 3600")),
    }
}

/// One finished game, from A's and B's point of view.
#[derive(Clone, Debug)]
struct GameResult {
    index: usize,
    /// The seats A played.
    a_seats: Vec<usize>,
    /// 1 if A won, 0 if B won, 0.5 for a shared win.
    a_points: f64,
    plies: usize,
    text: String,
    moves: Vec<String>,
    /// Thinking time and moves, per side (A, B).
    time: [Duration; 2],
    moves_by: [u64; 2],
    record: Option<Record>,
}

/// Plays game `index`: A sits in seat 0 of the even games and seat 1 of the odd ones.
fn play_game<G: Knowledge>(start: &G, args: &SelfplayArgs, index: usize, stop: &AtomicBool) -> Option<GameResult> {
    let n = start.num_players();
    let game_seed = derive_seed(args.seed, index as u64);
    // side_of[seat]: 0 for A, 1 for B.
    let side_of: Vec<usize> = (0..n).map(|seat| (seat + index) % 2).collect();
    let level = |side: usize| if side == 0 { args.a } else { args.b };
    let mut searches: Vec<Mcts<G>> = (0..n)
        .map(|seat| {
            let plain = args.plain.as_deref() == Some(["a", "b"][side_of[seat]]);
            let seed = derive_seed(game_seed, seat as u64);
            let threads = if side_of[seat] == 0 { args.a_threads } else { args.b_threads };
            let mut config = SearchConfig { seed, knowledge: !plain, threads, ..SearchConfig::default() };
            let settings = if side_of[seat] == 0 { &args.a_config } else { &args.b_config };
            apply_config(&mut config, settings).expect("settings are checked before the games");
            Mcts::new(start, config)
        })
        .collect();
    let mut game = start.clone();
    let mut history = Vec::new();
    let mut time = [Duration::ZERO; 2];
    let mut moves_by = [0u64; 2];
    while let Some(p) = game.to_move() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let side = side_of[p.index()];
        let mut budget = level(side).budget();
        if let Some(seconds) = args.seconds {
            budget = Budget { simulations: u64::MAX, max_time: Duration::from_secs_f64(seconds) };
        } else if !args.timed {
            budget = Budget { simulations: budget.simulations, max_time: Duration::MAX };
        }
        let started = Instant::now();
        let search = &mut searches[p.index()];
        search.run(budget);
        let mv = search.best_move().expect("a running game has a move");
        time[side] += started.elapsed();
        moves_by[side] += 1;
        game.play(mv).expect("the search plays legal moves");
        history.push(mv);
        for s in &mut searches {
            s.advance(mv);
        }
    }
    let outcome = game.outcome().expect("the game is over");
    let winners = outcome.winners();
    let a_won = winners.iter().filter(|w| side_of[w.index()] == 0).count();
    let a_points = a_won as f64 / winners.len() as f64;
    let a_seats: Vec<usize> = (0..n).filter(|&s| side_of[s] == 0).collect();
    let text = result_text(&game).unwrap_or_default();
    let record = args.record.as_ref().map(|_| {
        let mut r = Record::new(&game, &history);
        r.players =
            (0..n).map(|s| format!("{} (AI level {})", ["A", "B"][side_of[s]], level(side_of[s]).number())).collect();
        r.date = Some(now_iso8601());
        r.result = Some(text.clone());
        r
    });
    Some(GameResult {
        index,
        a_seats,
        a_points,
        plies: history.len(),
        text,
        moves: move_texts(start, &history),
        time,
        moves_by,
        record,
    })
}

/// Plays every game on `args.threads` threads and reports each as it ends; returns the results in
/// game order.
fn play_all<G: Knowledge>(start: &G, args: &SelfplayArgs, out: &mut dyn Write) -> Result<Vec<GameResult>, CliError> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut results: Vec<Option<GameResult>> = vec![None; args.games];
    let written = std::thread::scope(|scope| -> Result<(), CliError> {
        let (tx, rx) = mpsc::channel();
        for _ in 0..args.threads.min(args.games) {
            let (tx, next, stop) = (tx.clone(), &next, &stop);
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= args.games {
                        break;
                    }
                    let Some(result) = play_game(start, args, index, stop) else { break };
                    if tx.send(result).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for r in rx {
            if let Err(e) = report_game(&r, args, out) {
                // Tell the workers to stop; the scope then joins them.
                stop.store(true, Ordering::Relaxed);
                return Err(e);
            }
            let i = r.index;
            results[i] = Some(r);
        }
        Ok(())
    });
    written?;
    results.into_iter().map(|r| r.ok_or_else(|| CliError::failure("a game thread failed"))).collect()
}

/// One line for a finished game, and its record.
fn report_game(r: &GameResult, args: &SelfplayArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let winner = if r.a_points == 1.0 {
        "A wins"
    } else if r.a_points == 0.0 {
        "B wins"
    } else {
        "shared"
    };
    let seats = if r.a_seats == [0] {
        "A opens".to_string()
    } else if r.a_seats == [1] {
        "B opens".to_string()
    } else {
        format!("A in seats {:?}", r.a_seats)
    };
    writeln!(out, "game {} ({seats}): {winner}, {}, {} plies", r.index + 1, r.text, r.plies)?;
    if let (Some(dir), Some(record)) = (&args.record, &r.record) {
        write_record(dir, r.index, record)?;
    }
    Ok(())
}

struct Task<'a> {
    args: &'a SelfplayArgs,
    out: &'a mut dyn Write,
}

impl GameTask for Task<'_> {
    type Output = Result<Value, CliError>;
    fn run<G: Knowledge>(self, id: &str) -> Self::Output {
        let args = self.args;
        let options = args.flags.options::<G>(id).map_err(CliError::usage)?;
        let start = G::new(&options).map_err(CliError::usage)?;
        if args.threads == 0 {
            return Err(CliError::usage("--threads must be at least 1"));
        }
        apply_config(&mut SearchConfig::default(), &args.a_config)?;
        apply_config(&mut SearchConfig::default(), &args.b_config)?;
        if let Some(path) = &args.weights {
            install_weights::<G>(path)?;
        }
        if let Some(dir) = &args.record {
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::failure(format!("cannot create {}: {e}", dir.display())))?;
        }
        let out = self.out;
        writeln!(
            out,
            "{id} {}: A (AI level {}) against B (AI level {}), {} games, seed {}, {} thread(s){}",
            json!(options),
            args.a.number(),
            args.b.number(),
            args.games,
            args.seed,
            args.threads,
            if args.timed { ", timed" } else { "" }
        )?;

        let results = play_all(&start, args, out)?;

        let games = results.len();
        let a_points: f64 = results.iter().map(|r| r.a_points).sum();
        let a_wins = results.iter().filter(|r| r.a_points == 1.0).count();
        let b_wins = results.iter().filter(|r| r.a_points == 0.0).count();
        let draws = games - a_wins - b_wins;
        let a_win_rate = if games > 0 { a_points / games as f64 } else { 0.0 };
        let (low, high) = wilson95(a_points, games);
        let ms_per_move = |side: usize| {
            let moves: u64 = results.iter().map(|r| r.moves_by[side]).sum();
            let time: Duration = results.iter().map(|r| r.time[side]).sum();
            if moves > 0 { time.as_secs_f64() * 1000.0 / moves as f64 } else { 0.0 }
        };
        let (a_ms, b_ms) = (ms_per_move(0), ms_per_move(1));
        let mean_plies =
            if games > 0 { results.iter().map(|r| r.plies).sum::<usize>() as f64 / games as f64 } else { 0.0 };
        writeln!(
            out,
            "A (level {}) {a_wins} – B (level {}) {b_wins}{}",
            args.a.number(),
            args.b.number(),
            if draws > 0 { format!(", {draws} shared") } else { String::new() }
        )?;
        writeln!(
            out,
            "A's win rate {:.1}% (95% interval {:.1}%–{:.1}%)",
            100.0 * a_win_rate,
            100.0 * low,
            100.0 * high
        )?;
        writeln!(out, "time per move: A {a_ms:.1} ms, B {b_ms:.1} ms; {mean_plies:.1} plies per game")?;
        if let Some(dir) = &args.record {
            writeln!(out, "records written to {}", dir.display())?;
        }
        Ok(json!({
            "game": id,
            "options": options,
            "seed": args.seed,
            "a_level": args.a.number(),
            "b_level": args.b.number(),
            "games": games,
            "a_wins": a_wins,
            "b_wins": b_wins,
            "draws": draws,
            "a_win_rate": a_win_rate,
            "ci95_low": low,
            "ci95_high": high,
            "a_ms_per_move": a_ms,
            "b_ms_per_move": b_ms,
            "mean_plies": mean_plies,
            "moves_digest": moves_digest(&results),
        }))
    }
}

/// A fingerprint of every game's moves in order (FNV-1a, hex): equal digests, equal games.
fn moves_digest(results: &[GameResult]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for text in results.iter().flat_map(|r| r.moves.iter().map(String::as_str).chain(std::iter::once("/"))) {
        for b in text.bytes().chain(std::iter::once(b' ')) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// Runs `triboard selfplay`.
///
/// # Errors
/// An unknown game, bad options or `--threads 0` (usage errors); an unwritable record (failure).
pub fn run(args: &SelfplayArgs, out: &mut dyn Write) -> Result<Value, CliError> {
    with_game(&args.game, Task { args, out })?
}
