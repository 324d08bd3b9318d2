//! `serve-bench --soak MINUTES`: a day's load in minutes. `--instances` (give 2 for two) real
//! `triboard serve` processes ([`super::serve_bench_procs`]: this program started again, so that
//! `/proc` shows each server alone) on the PostgreSQL `--db`, and `--games` tables
//! ([`super::serve_bench_table`]) playing game after game on them — lobby challenges, rematches,
//! resignations, a watcher per table, connections that drop and sign in again (by session or
//! password) on the other server —
//! for MINUTES (decimals allowed). Every `--sample-s` seconds (default 60) each server's
//! resident memory and open file descriptors are read from `/proc`; the first sample under load
//! is the baseline, and the soak fails if a later one is more than `--rss-growth-mib` (default
//! 64) MiB or `--fd-growth` (default 64) descriptors above it. At the end every acknowledged
//! move is looked up in the database: the soak fails if one is lost or stored twice, if a
//! watcher was not sent a move, or if a table failed.

use std::io::Write;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::error::CliError;
use super::serve_bench_check::compare;
use super::serve_bench_procs::{ServerProcs, Usage};
use super::serve_bench_table::{TablePlan, TableReport, run_table};
use crate::ai::derive_seed;
use crate::server::postgres::PgStore;
use crate::server::store::Store;

/// A soak's settings (`serve-bench`'s flags).
pub struct Soak {
    /// How long the tables start games, in minutes.
    pub minutes: f64,
    /// The PostgreSQL database's URL.
    pub db: String,
    /// How many `triboard serve` processes.
    pub instances: usize,
    /// How many tables play at once.
    pub tables: usize,
    /// The seed of the tables' choices.
    pub seed: u64,
    /// The longest think time, in ms.
    pub think_ms: u64,
    /// The sampling interval, in seconds.
    pub sample_s: u64,
    /// How far a server's resident memory may grow above the baseline, in MiB.
    pub rss_growth_mib: u64,
    /// How far a server's open descriptors may grow above the baseline.
    pub fd_growth: u64,
}

/// What the servers' samples showed: each sample's use of each server, and the bounds broken.
struct Samples {
    /// Before the load.
    start: Vec<Usage>,
    /// Every sample since, each with its seconds since the load began.
    taken: Vec<(f64, Vec<Usage>)>,
    /// A sentence per sample over a bound.
    over: Vec<String>,
}

impl Samples {
    /// Takes a sample and checks it against the baseline (the first sample under load).
    fn take(&mut self, procs: &ServerProcs, seconds: f64, args: &Soak) -> Result<(), CliError> {
        let now = procs.usage().map_err(CliError::failure)?;
        if let Some((_, base)) = self.taken.first() {
            for (k, (base, now)) in base.iter().zip(&now).enumerate() {
                if now.rss_kib > base.rss_kib + args.rss_growth_mib * 1024 {
                    self.over.push(format!(
                        "server {k} at {seconds:.0} s: {} KiB resident, over the baseline's {} KiB + {} MiB",
                        now.rss_kib, base.rss_kib, args.rss_growth_mib
                    ));
                }
                if now.fds > base.fds + args.fd_growth {
                    self.over.push(format!(
                        "server {k} at {seconds:.0} s: {} open descriptors, over the baseline's {} + {}",
                        now.fds, base.fds, args.fd_growth
                    ));
                }
            }
        }
        self.taken.push((seconds, now));
        Ok(())
    }

    /// The last sample (the start's if none was taken).
    fn end(&self) -> &[Usage] {
        self.taken.last().map_or(&self.start, |(_, u)| u)
    }
}

/// Runs the soak and prints its figures.
///
/// # Errors
/// No `--db`, a duration or sampling interval of zero (usage); a server that cannot start or
/// dies, the database unreadable, a bound passed, a move lost, doubled or not watched, a table
/// failed (failures).
pub fn run(args: &Soak, out: &mut dyn Write) -> Result<Value, CliError> {
    let (url, minutes) = (args.db.as_str(), args.minutes);
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return Err(CliError::usage("--soak runs `triboard serve` processes on a PostgreSQL --db postgres://…"));
    }
    if !(minutes > 0.0 && minutes.is_finite()) || args.sample_s == 0 || args.tables == 0 {
        return Err(CliError::usage("--soak, --sample-s and --games must be above 0"));
    }
    let instances = args.instances.max(1);
    let procs = ServerProcs::start(url, instances).map_err(CliError::failure)?;
    let urls: Vec<String> = procs.addrs.iter().map(|a| format!("ws://{a}/ws")).collect();
    let ids: Vec<&'static str> = crate::rules::game_ids()
        .into_iter()
        .filter(|id| crate::net::position::start(id).is_ok_and(|p| p.num_players() == 2))
        .collect();
    let prefix = format!("s{:08x}", derive_seed(args.seed, std::process::id().into()) as u32);
    let mut samples = Samples { start: procs.usage().map_err(CliError::failure)?, taken: Vec::new(), over: Vec::new() };
    writeln!(
        out,
        "serve-bench --soak: {minutes} min, {} tables on {instances} `triboard serve` processes (pids {:?}), \
         think time 0–{} ms, a sample every {} s",
        args.tables,
        procs.pids(),
        args.think_ms,
        args.sample_s
    )?;
    out.flush()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::failure(format!("cannot start the clients' threads: {e}")))?;
    let started = Instant::now();
    let until = started + Duration::from_secs_f64(minutes * 60.0);
    let tasks: Vec<_> = (0..args.tables)
        .map(|k| {
            let plan = TablePlan {
                urls: [urls[k % urls.len()].clone(), urls[(k + 1) % urls.len()].clone()],
                ids: ids.clone(),
                seed: derive_seed(args.seed, k as u64),
                think_ms: args.think_ms,
                until,
                name: format!("{prefix}{k}"),
            };
            runtime.spawn(run_table(plan))
        })
        .collect();
    let every = Duration::from_secs(args.sample_s);
    let mut next = started + every;
    while !tasks.iter().all(tokio::task::JoinHandle::is_finished) {
        std::thread::sleep(Duration::from_millis(100));
        if Instant::now() >= next {
            next += every;
            samples.take(&procs, started.elapsed().as_secs_f64(), args)?;
            let (seconds, now) = samples.taken.last().map(|(s, u)| (*s, u.clone())).unwrap_or_default();
            writeln!(out, "{seconds:>6.0} s: {}", figures(&now))?;
            out.flush()?;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let reports: Vec<TableReport> = runtime.block_on(async {
        let mut reports = Vec::new();
        for task in tasks {
            let failed = |e| TableReport { error: Some(format!("a table failed: {e}")), ..TableReport::default() };
            reports.push(task.await.unwrap_or_else(failed));
        }
        reports
    });
    samples.take(&procs, seconds, args)?;
    drop(runtime);
    let checked = check(url, &reports)?;
    drop(procs);
    report(args, seconds, &samples, &reports, &checked, out)
}

/// What the store showed: acknowledged moves lost and stored moves doubled (no acknowledgement
/// accounts for them), and acknowledged moves a watcher was not sent.
#[derive(Default)]
struct Checked {
    moves: usize,
    lost: usize,
    doubled: usize,
    unwatched: usize,
}

/// Looks every table's games up in the store.
fn check(url: &str, reports: &[TableReport]) -> Result<Checked, CliError> {
    let store = PgStore::connect(url).map_err(|e| CliError::failure(format!("--db: {e}")))?;
    let mut checked = Checked::default();
    for game in reports.iter().flat_map(|r| &r.games) {
        let stored = store
            .load_game(&game.game_id)
            .map_err(|e| CliError::failure(format!("cannot read game {}: {e}", game.game_id)))?
            .map(|g| g.moves.into_iter().enumerate().collect::<Vec<_>>())
            .unwrap_or_default();
        let (lost, doubled) = compare(&game.acknowledged, &stored);
        checked.moves += game.acknowledged.len();
        checked.lost += lost;
        checked.doubled += doubled;
        checked.unwatched +=
            game.acknowledged.iter().filter(|(ply, text)| game.watched.get(*ply) != Some(text)).count();
    }
    Ok(checked)
}

/// `rss 41.2 MiB, 37 fds; …` for each server.
fn figures(usage: &[Usage]) -> String {
    let each: Vec<String> =
        usage.iter().map(|u| format!("rss {:.1} MiB, {} fds", u.rss_kib as f64 / 1024.0, u.fds)).collect();
    each.join("; ")
}

/// Prints the figures; the soak's JSON, or its failure.
fn report(
    args: &Soak,
    seconds: f64,
    samples: &Samples,
    reports: &[TableReport],
    checked: &Checked,
    out: &mut dyn Write,
) -> Result<Value, CliError> {
    let games = reports.iter().map(|r| r.games.len()).sum::<usize>();
    let resigned = reports.iter().map(|r| r.resigned).sum::<usize>();
    let rematches = reports.iter().map(|r| r.rematches).sum::<usize>();
    let resumed = reports.iter().map(|r| r.resumed).sum::<usize>();
    let errors: Vec<&String> = reports.iter().filter_map(|r| r.error.as_ref()).collect();
    for e in errors.iter().take(5) {
        writeln!(out, "error: {e}")?;
    }
    let baseline = samples.taken.first().map_or(&samples.start[..], |(_, u)| u);
    writeln!(out, "start: {}", figures(&samples.start))?;
    writeln!(out, "baseline: {}", figures(baseline))?;
    writeln!(out, "end: {}", figures(samples.end()))?;
    let Checked { moves, lost, doubled, unwatched } = *checked;
    writeln!(
        out,
        "{games} games ({resigned} resigned, {rematches} rematches), {moves} moves in {seconds:.0} s, \
         {resumed} connections dropped and resumed; lost {lost}, doubled {doubled}, unwatched {unwatched}, \
         failed tables {}",
        errors.len()
    )?;
    let mut failures: Vec<String> = samples.over.clone();
    if lost + doubled + unwatched > 0 {
        failures.push(format!("lost {lost}, doubled {doubled}, unwatched {unwatched}"));
    }
    if let Some(e) = errors.first() {
        failures.push(format!("{} tables failed; the first: {e}", errors.len()));
    }
    if !failures.is_empty() {
        return Err(CliError::failure(format!("the soak failed: {}", failures.join("; "))));
    }
    let series = |pick: fn(&[Usage]) -> Vec<Value>| {
        samples.taken.iter().map(|(s, u)| json!({ "s": s.round(), "servers": pick(u) })).collect::<Vec<_>>()
    };
    Ok(json!({
        "soak_minutes": args.minutes,
        "seconds": seconds.round(),
        "servers": samples.start.len(),
        "tables": args.tables,
        "games": games,
        "resigned": resigned,
        "rematches": rematches,
        "resumed": resumed,
        "moves": moves,
        "lost": lost,
        "doubled": doubled,
        "unwatched": unwatched,
        "failed_tables": errors.len(),
        "think_ms": args.think_ms,
        "rss_growth_mib": args.rss_growth_mib,
        "fd_growth": args.fd_growth,
        "start": samples.start.iter().map(|u| u.json()).collect::<Vec<_>>(),
        "baseline": baseline.iter().map(|u| u.json()).collect::<Vec<_>>(),
        "end": samples.end().iter().map(|u| u.json()).collect::<Vec<_>>(),
        "samples": series(|u| u.iter().map(|u| u.json()).collect()),
    }))
}
