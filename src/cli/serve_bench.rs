//! `triboard serve-bench`: many games at once over loopback WebSockets against a server (started
//! in-process with a temporary database, or with `--db postgres://…` as `--instances` servers
//! sharing that database; or those at `--addr`), then every game checked against the database
//! (README §Host a server has the figures).
//!
//! Each game has two client connections (tokio-tungstenite), the creator's and the joiner's, on
//! different servers when there are several (game `k`'s on servers `k` and `k + 1`); in a
//! game of more seats they take the seats in turn. The games cycle through every registered game
//! id ([`crate::rules::game_ids`]) with their default options and are played to their end: each
//! seat thinks a random 0 to `--think-ms` ms (default 200, uniform, from the seeded generator) and
//! plays a random legal move. The latency of a move is from sending it to receiving its `moved`
//! acknowledgement. At the end, `lost` counts acknowledged moves missing from the database (or,
//! with `--addr`, from the server's answer to `watch`) and `duplicated` stored moves that no
//! acknowledgement accounts for (a move stored twice).
//!
//! `--soak MINUTES` runs a long mixed load on `triboard serve` processes instead, its servers'
//! memory and descriptors sampled ([`super::serve_bench_soak`]).

use std::io::Write;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::{Value, json};

use super::bench_client::{Client, Seated};
use super::error::CliError;
use super::serve_bench_check::{Servers, ServersWanted, compare};
use super::serve_bench_lobby::{LobbyStart, seat_through_lobby};
use super::serve_bench_soak::Soak;
use crate::ai::derive_seed;
use crate::net::position::Position;
use crate::net::protocol::{ClientMessage, NewGame, ServerMessage};
use crate::rules::{Rng, random_index, rng_from_seed};

/// `triboard serve-bench`'s flags.
#[derive(Args, Debug, Clone)]
pub struct ServeBenchArgs {
    /// How many games run at once (two connections each).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// A running server to measure, repeatable: several instances sharing one store, each game's
    /// two connections on different ones. Default: servers started in-process on 127.0.0.1:0.
    #[arg(long)]
    pub addr: Vec<SocketAddr>,
    /// The in-process servers' store: an empty PostgreSQL database's URL; default a temporary
    /// SQLite file.
    #[arg(long, conflicts_with = "addr")]
    pub db: Option<String>,
    /// How many in-process servers share the PostgreSQL `--db`.
    #[arg(long, default_value_t = 1, requires = "db")]
    pub instances: usize,
    /// The seed of the think times and the moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The longest think time, in ms: each move waits a uniform 0 to this. Much under 100, a
    /// connection sends over the server's 20 messages a second and is rate-limited.
    #[arg(long, default_value_t = 200)]
    pub think_ms: u64,
    /// Commit each message's writes on their own (the in-process server only).
    #[arg(long)]
    pub no_group_commit: bool,
    /// Start each game through the lobby as players do: two accounts signed up (all before the
    /// first move), a rated open challenge, accepted by its game id. The games then cycle
    /// through the two-seat game ids (a rated game seats an account once).
    #[arg(long)]
    pub lobby: bool,
    /// A soak of this many minutes (decimals allowed) instead of one round of games: `--instances`
    /// `triboard serve` processes on the PostgreSQL `--db`, `--games` tables playing game after
    /// game on them, each server's memory and descriptors sampled (see `serve_bench_soak`).
    #[arg(long, value_name = "MINUTES", requires = "db", conflicts_with_all = ["addr", "lobby", "no_group_commit"])]
    pub soak: Option<f64>,
    /// The soak's sampling interval, in seconds.
    #[arg(long, default_value_t = 60, requires = "soak")]
    pub sample_s: u64,
    /// How far a server's resident memory may grow in the soak above its first sample under
    /// load, in MiB.
    #[arg(long, default_value_t = 64, requires = "soak")]
    pub rss_growth_mib: u64,
    /// How far a server's count of open file descriptors may grow in the soak above its first
    /// sample under load.
    #[arg(long, default_value_t = 64, requires = "soak")]
    pub fd_growth: u64,
}

/// What one game gave.
#[derive(Default)]
struct Played {
    game_id: String,
    /// Every acknowledged move: (ply, text).
    acknowledged: Vec<(usize, String)>,
    /// Each move's latency, in ms.
    latencies_ms: Vec<f64>,
    error: Option<String>,
}

/// Plays one whole game of `id` with two connections.
async fn play_game(urls: [String; 2], id: &'static str, seed: u64, think_ms: u64, lobby: Option<LobbyStart>) -> Played {
    let mut played = Played::default();
    if let Err(e) = play_game_into(&urls, id, seed, think_ms, lobby, &mut played).await {
        played.error = Some(format!("{id} {}: {e}", played.game_id));
    }
    played
}

async fn play_game_into(
    urls: &[String; 2],
    id: &str,
    seed: u64,
    think_ms: u64,
    lobby: Option<LobbyStart>,
    played: &mut Played,
) -> Result<(), String> {
    let mut rng = rng_from_seed(seed);
    let mut clients = [Client::connect(&urls[0], id).await?, Client::connect(&urls[1], id).await?];
    let Seated { game_id, tokens, seat_client } = match lobby {
        Some(lobby) => seat_through_lobby(&mut clients, id, lobby).await?,
        None => seat_by_code(&mut clients, id).await?,
    };
    played.game_id = game_id.clone();
    let token_of = |seat: u8| tokens.get(usize::from(seat)).cloned().unwrap_or_default();
    while let Some(seat) = clients[0].table.to_move().map(|p| p.0) {
        let mover = seat_client.get(usize::from(seat)).copied().unwrap_or(0);
        let other = 1 - mover;
        let ply = clients[mover].table.ply();
        if clients[mover].table.ply() != clients[0].table.ply() {
            return Err("the clients disagree".into());
        }
        let think = if think_ms == 0 { 0 } else { rng_range(&mut rng, think_ms + 1) };
        tokio::time::sleep(Duration::from_millis(think)).await;
        let text = clients[mover].table.random_move_text(&mut rng);
        let sent = Instant::now();
        clients[mover]
            .send(&ClientMessage::Move { game_id: game_id.clone(), token: token_of(seat), text, ply: ply as u32 })
            .await?;
        // The mover's acknowledgement (its move and the moves the rules then force).
        let mut target = ply + 1;
        let (mut got, first) = clients[mover].catch_up(target).await?;
        played.latencies_ms.push(first.duration_since(sent).as_secs_f64() * 1000.0);
        while forced(clients[mover].table.as_ref()) {
            target += 1;
            let (more, _) = clients[mover].catch_up(target).await?;
            got.extend(more);
        }
        played.acknowledged.extend(got);
        // The other connection's broadcast.
        clients[other].catch_up(target).await?;
        if clients[0].table.to_move().is_none() && clients[1].table.to_move().is_some() {
            return Err("the clients disagree on the end".into());
        }
        if clients[0].table.ply() != clients[1].table.ply() {
            return Err("the broadcast differs".into());
        }
    }
    for client in &mut clients {
        client.ws.close().await;
    }
    Ok(())
}

/// Creates a game of `id` with the first client and seats the rest by its join code, the two
/// clients taking the seats in turn.
async fn seat_by_code(clients: &mut [Client; 2], id: &str) -> Result<Seated, String> {
    let create = ClientMessage::Create(NewGame::of(id));
    clients[0].send(&create).await?;
    let (game_id, code, token) = clients[0]
        .until(|m| match m {
            ServerMessage::Created { game_id, code, token, .. } => Some((game_id.clone(), code.clone(), token.clone())),
            _ => None,
        })
        .await?;
    // Each seat's token and client.
    let mut tokens = vec![String::new(); crate::rules::MAX_PLAYERS];
    tokens[0] = token;
    let mut seat_client = [0usize; crate::rules::MAX_PLAYERS];
    // Seats are taken in turn by the joiner and the creator until the game starts.
    let mut joiner = 1;
    loop {
        clients[joiner].send(&ClientMessage::Join { code: code.clone(), request_id: None }).await?;
        let joined = clients[joiner]
            .until(|m| match m {
                ServerMessage::Joined { seat, token, .. } => Some(Ok((*seat, token.clone()))),
                ServerMessage::Error { .. } => Some(Err(())),
                _ => None,
            })
            .await;
        match joined {
            Ok(Ok((seat, token))) => {
                let slot = usize::from(seat);
                if slot >= tokens.len() {
                    return Err(format!("a seat {seat} the game cannot have"));
                }
                seat_client[slot] = joiner;
                tokens[slot] = token;
                let full = clients[joiner]
                    .until(|m| match m {
                        ServerMessage::State(s) => Some(s.players.iter().all(|p| p.taken)),
                        _ => None,
                    })
                    .await?;
                if full {
                    break;
                }
                joiner = 1 - joiner;
            }
            // Full already (cannot happen: the state says), or an error: stop.
            Ok(Err(())) | Err(_) => return Err("joining failed".into()),
        }
    }
    Ok(Seated { game_id, tokens, seat_client })
}

/// A uniform number in `0..n`.
fn rng_range(rng: &mut Rng, n: u64) -> u64 {
    random_index(rng, usize::try_from(n).unwrap_or(usize::MAX)) as u64
}

/// The `q` quantile of sorted `values` (nearest rank), 0 if none.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Whether the rules force the next move of a running game (the server plays it itself).
fn forced(table: &dyn Position) -> bool {
    table.outcome().is_none() && table.forced_text().is_some()
}

/// Runs the benchmark and prints its figures.
///
/// # Errors
/// No games asked for (usage); the server cannot start, a game fails, the database cannot be read
/// (failures).
pub fn run(args: &ServeBenchArgs, out: &mut dyn Write) -> Result<Value, CliError> {
    if args.games == 0 {
        return Err(CliError::usage("--games must be at least 1"));
    }
    if let Some(minutes) = args.soak {
        let soak = Soak {
            minutes,
            db: args.db.clone().unwrap_or_default(),
            instances: args.instances,
            tables: args.games,
            seed: args.seed,
            think_ms: args.think_ms,
            sample_s: args.sample_s,
            rss_growth_mib: args.rss_growth_mib,
            fd_growth: args.fd_growth,
        };
        return super::serve_bench_soak::run(&soak, out);
    }
    let servers = Servers::start(&ServersWanted {
        addr: args.addr.clone(),
        db: args.db.clone(),
        instances: args.instances,
        no_group_commit: args.no_group_commit,
    })?;
    let urls: Vec<String> = servers.addrs.iter().map(|addr| format!("ws://{addr}/ws")).collect();
    let url = urls.join(" and ");
    let mut ids = crate::rules::game_ids();
    if args.lobby {
        ids.retain(|id| crate::net::position::start(id).is_ok_and(|p| p.num_players() == 2));
    }
    let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(args.games));
    let prefix = format!("b{:08x}", derive_seed(args.seed, std::process::id().into()) as u32);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::failure(format!("cannot start the clients' threads: {e}")))?;
    writeln!(
        out,
        "serve-bench: {} games over {url}, think time 0–{} ms, games cycling through {}",
        args.games,
        args.think_ms,
        ids.join(", ")
    )?;
    out.flush()?;
    let started = Instant::now();
    let results: Vec<Played> = runtime.block_on(async {
        let tasks: Vec<_> = (0..args.games)
            .map(|k| {
                let id = ids[k % ids.len()];
                let lobby = args.lobby.then(|| LobbyStart { barrier: barrier.clone(), name: format!("{prefix}{k}") });
                let urls = [urls[k % urls.len()].clone(), urls[(k + 1) % urls.len()].clone()];
                tokio::spawn(play_game(urls, id, derive_seed(args.seed, k as u64), args.think_ms, lobby))
            })
            .collect();
        let mut results = Vec::with_capacity(tasks.len());
        for task in tasks {
            results.push(
                task.await
                    .unwrap_or_else(|e| Played { error: Some(format!("a client failed: {e}")), ..Played::default() }),
            );
        }
        results
    });
    let seconds = started.elapsed().as_secs_f64();
    let errors: Vec<&String> = results.iter().filter_map(|p| p.error.as_ref()).collect();
    for e in errors.iter().take(5) {
        writeln!(out, "error: {e}")?;
    }
    // Every game against the store.
    let (mut lost, mut duplicated) = (0, 0);
    for played in results.iter().filter(|p| !p.game_id.is_empty()) {
        let stored = servers
            .stored_moves(&runtime, &played.game_id)
            .map_err(|e| CliError::failure(format!("cannot read game {}: {e}", played.game_id)))?;
        let (l, d) = compare(&played.acknowledged, &stored);
        lost += l;
        duplicated += d;
    }
    let moves: usize = results.iter().map(|p| p.acknowledged.len()).sum();
    let mut latencies: Vec<f64> = results.iter().flat_map(|p| p.latencies_ms.iter().copied()).collect();
    latencies.sort_by(f64::total_cmp);
    let (p50, p99) = (quantile(&latencies, 0.5), quantile(&latencies, 0.99));
    let moves_per_s = moves as f64 / seconds.max(1e-9);
    writeln!(
        out,
        "{} games, {moves} moves in {seconds:.1} s: {moves_per_s:.0} moves/s; latency p50 {p50:.1} ms, p99 {p99:.1} ms; \
         lost {lost}, duplicated {duplicated}, failed games {}",
        args.games,
        errors.len()
    )?;
    let rated = if args.lobby { servers.rated(results.iter().map(|p| p.game_id.as_str()))? } else { None };
    if let Some(rated) = rated {
        writeln!(out, "rated games: {rated}")?;
    }
    drop(runtime);
    Ok(json!({
        "games": args.games,
        "moves": moves,
        "seconds": (seconds * 100.0).round() / 100.0,
        "moves_per_s": moves_per_s.round(),
        "p50_ms": (p50 * 100.0).round() / 100.0,
        "p99_ms": (p99 * 100.0).round() / 100.0,
        "lost": lost,
        "duplicated": duplicated,
        "failed_games": errors.len(),
        "think_ms": args.think_ms,
        "group_commit": if args.addr.is_empty() { Value::Bool(!args.no_group_commit) } else { Value::Null },
        "server": if args.addr.is_empty() { "in-process" } else { "external" },
        "servers": urls.len(),
        "store": servers.store_name(),
        "lobby": args.lobby,
        "rated_games": rated,
    }))
}
