//! Several `triboard serve` instances on one PostgreSQL database (`docs/design.md` §Several
//! instances): the real binary twice on one fresh database of the test cluster, each game's two
//! seats connected to different instances.
//!
//! Every registered game is played to its end across two instances, each move reaching the other
//! seat through the other instance, the presence counting both; one instance killed (SIGKILL)
//! mid-game: its clients resume on the other and finish, every acknowledged move stored once, and
//! the clocks keep running there (a flag falls on the survivor, which takes the lead); a batch
//! whose commit fails (its store connection ended while it waits on a row) still passes on the
//! other instance's stored move to its watcher, and tells its own sender to send again;
//! `serve-bench` over two in-process instances loses and doubles nothing; and a short
//! `serve-bench --soak` on two `triboard serve` processes (lobby games, rematches, resignations,
//! watchers, connections dropped and resumed) loses, doubles and leaves unwatched nothing, its
//! servers' memory and descriptors within their bounds — and fails when they are not.
//!
//! Without PostgreSQL installed the tests say so and pass, except under CI, which installs it.

#![cfg(feature = "server")]

#[path = "common/db.rs"]
mod db;
#[path = "common/net.rs"]
mod net;

use std::process::Command;
use std::time::{Duration, Instant};

use futures_util::StreamExt as _;
use net::{Client, Db, Match, Server};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;
use triboard::net::protocol::{ClientMessage, Clock, ServerMessage, Snapshot, decode_server};

/// Waits until the server's log has `text` (at most `secs` seconds).
fn wait_for_log(server: &Server, text: &str, secs: u64) {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        let log = std::fs::read_to_string(&server.log).unwrap_or_default();
        if log.contains(text) {
            return;
        }
        assert!(Instant::now() < until, "no {text:?} in the log within {secs} s: {log}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The next `state` of `client` that `pick` accepts, other messages skipped, within `secs`.
async fn state_within(client: &mut Client, secs: u64, pick: impl Fn(&Snapshot) -> bool) -> Snapshot {
    let until = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let frame = tokio::time::timeout_at(until, client.ws.next())
            .await
            .unwrap_or_else(|_| panic!("no such state within {secs} s"))
            .expect("the connection is open")
            .expect("a frame");
        if let Message::Text(text) = frame
            && let Ok(ServerMessage::State(state)) = decode_server(text.as_str())
            && pick(&state)
        {
            return state;
        }
    }
}

/// Seat `seat` of `game` comes back on a new connection to `url` with `sync`; returns what it sees.
async fn resume(game: &mut Match, seat: usize, url: &str) -> Snapshot {
    let k = game.seat_client[seat];
    game.clients[k] = Client::connect(url).await;
    let sync =
        ClientMessage::Sync { game_id: game.game_id.clone(), since_ply: 0, token: Some(game.tokens[seat].clone()) };
    game.clients[k].send(&sync).await;
    game.clients[k].state().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_play_every_game_with_each_games_seats_on_different_instances() {
    let Some(db) = Db::postgres("two-instances") else { return };
    // Started at the same moment on a fresh database: both make the schema and the bots' accounts.
    let (a, b) = std::thread::scope(|s| {
        let (a, b) = (s.spawn(|| Server::start(&db)), s.spawn(|| Server::start(&db)));
        (a.join().unwrap(), b.join().unwrap())
    });
    let games = triboard::rules::game_ids().into_iter().enumerate().map(|(k, id)| {
        let urls = if k % 2 == 0 { [a.url.clone(), b.url.clone()] } else { [b.url.clone(), a.url.clone()] };
        tokio::spawn(async move {
            let mut game = Match::start_across([&urls[0], &urls[1]], id, None).await;
            // The creator's instance counts the joiner, seated through the other one.
            let online = |m: &ServerMessage| match m {
                ServerMessage::Presence { online, .. } => Some(online.iter().all(|&o| o)),
                _ => None,
            };
            while !game.clients[0].until(online).await {}
            game.play_random(k as u64, usize::MAX).await;
            assert!(game.tables[1].to_move().is_none(), "{id}: both seats see the end");
            for client in &mut game.clients {
                let state = client.watch(&game.game_id).await;
                assert!(state.outcome.is_some() && state.to_move.is_none(), "{id}");
                assert_eq!(state.moves, game.acknowledged, "{id}: both instances have every move");
            }
            (game.game_id, game.acknowledged)
        })
    });
    for task in games.collect::<Vec<_>>() {
        let (game_id, acknowledged) = task.await.unwrap();
        assert_eq!(db.stored_moves(&game_id), acknowledged, "stored once each");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_instance_killed_mid_game_its_clients_finish_on_the_other_where_a_flag_falls() {
    let Some(db) = Db::postgres("failover") else { return };
    let a = Server::start(&db);
    wait_for_log(&a, "leading", 10);
    let b = Server::start(&db);
    let mut mail = Match::start_across([&a.url, &b.url], "trike", None).await;
    let clock = Clock { minutes: 1, increment_s: 0 };
    let mut live = Match::start_across([&a.url, &b.url], "trike", Some(clock)).await;
    mail.play_random(1, 7).await;
    live.play_random(2, 4).await;
    assert_eq!(live.to_move(), Some(0), "the live game waits for the seat on the instance killed");
    let killed = Instant::now();
    a.kill();
    let state = resume(&mut mail, 0, &b.url).await;
    let mail_ms = killed.elapsed().as_millis();
    assert_eq!(state.moves, mail.acknowledged, "every acknowledged move is on the other instance");
    let state = resume(&mut live, 0, &b.url).await;
    let live_ms = killed.elapsed().as_millis();
    assert_eq!(state.moves, live.acknowledged);
    let left = state.clock_ms.expect("the clocks");
    assert!(left[0] < 60_000, "seat 0's clock ran while its instance died: {left:?}");
    eprintln!("failover: the clients resumed on the other instance {mail_ms} and {live_ms} ms after the kill");
    mail.play_random(3, usize::MAX).await;
    assert!(mail.to_move().is_none());
    assert_eq!(db.stored_moves(&mail.game_id), mail.acknowledged, "every move stored once");
    // Nobody moves: the survivor takes the lead and flags seat 0 when its minute is up.
    let k = live.seat_client[1];
    let end = state_within(&mut live.clients[k], 75, |s| s.outcome.is_some()).await;
    let flag_s = killed.elapsed().as_secs_f64();
    assert_eq!(db.game(&live.game_id).flagged, Some(0), "{end:?}");
    assert_eq!(db.stored_moves(&live.game_id), live.acknowledged);
    wait_for_log(&b, "leading", 1);
    eprintln!("failover: the flag fell on the survivor {flag_s:.1} s after the kill ({left:?} ms left at the resume)");
}

/// `serve-bench --instances 2 --json` with `args` on a fresh database (none without PostgreSQL):
/// what it returned and printed.
fn serve_bench_on_two(name: &str, args: &[&str]) -> Option<std::process::Output> {
    let db = Db::postgres(name)?;
    let output = Command::new(env!("CARGO_BIN_EXE_triboard"))
        .args(["serve-bench", "--db"])
        .arg(db.arg())
        .args(["--instances", "2", "--json"])
        .args(args)
        .output()
        .unwrap();
    Some(output)
}

/// `serve-bench` with `args` over two in-process instances on a fresh database: its JSON.
fn bench_on_two_instances(name: &str, args: &[&str]) -> Option<Value> {
    let output = serve_bench_on_two(name, args)?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let result: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!((result["lost"].as_u64(), result["duplicated"].as_u64()), (Some(0), Some(0)), "{result}");
    assert_eq!(result["failed_games"], 0, "{result}");
    assert_eq!((result["servers"].as_u64(), result["store"].as_str()), (Some(2), Some("postgres")), "{result}");
    Some(result)
}

#[test]
fn serve_bench_over_two_instances_plays_every_game_and_finds_nothing_lost_or_duplicated() {
    let Some(result) = bench_on_two_instances("bench", &["--games", "7", "--think-ms", "60", "--seed", "3"]) else {
        return;
    };
    assert!(result["moves"].as_u64().unwrap() > 100, "{result}");
}

#[test]
fn serve_bench_over_two_instances_through_the_lobby_rates_every_game() {
    let args = ["--games", "6", "--think-ms", "20", "--seed", "4", "--lobby"];
    let Some(result) = bench_on_two_instances("bench-lobby", &args) else { return };
    assert_eq!(result["rated_games"], 6, "every game rated once: {result}");
}

/// `serve-bench --soak` with `args` on a fresh database: its exit status, its last line (the JSON)
/// and all it printed.
fn soak(name: &str, args: &[&str]) -> Option<(bool, Value, String)> {
    let output = serve_bench_on_two(name, args)?;
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let all = format!("{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let result: Value = serde_json::from_str(stdout.lines().last().unwrap_or("null")).unwrap_or(Value::Null);
    Some((output.status.success(), result, all))
}

#[test]
fn a_short_soak_on_two_server_processes_loses_and_doubles_nothing_and_its_servers_stay_bounded() {
    // 20 s of tables (each game's players on both servers, its watcher on one), sampled every
    // 5 s; the games started by then are played to their end.
    let args = ["--soak", "0.34", "--sample-s", "5", "--games", "4", "--think-ms", "20", "--seed", "5"];
    let Some((ok, result, all)) = soak("soak", &args) else { return };
    assert!(ok, "{all}");
    for key in ["lost", "doubled", "unwatched", "failed_tables"] {
        assert_eq!(result[key], 0, "{key}: {all}");
    }
    assert_eq!(result["servers"], 2, "{all}");
    // Every kind of event of a day happened: games, rematches, resignations, dropped
    // connections resumed on the other server.
    for key in ["games", "rematches", "resigned", "resumed"] {
        assert!(result[key].as_u64().unwrap_or(0) >= 1, "no {key}: {all}");
    }
    assert!(result["moves"].as_u64().unwrap_or(0) >= 50, "{all}");
    assert!(result["samples"].as_array().is_some_and(|s| s.len() >= 3), "{all}");
    for end in result["end"].as_array().unwrap() {
        assert!(end["rss_mib"].as_f64().unwrap() > 1.0 && end["fds"].as_u64().unwrap() > 3, "{all}");
    }
}

#[test]
fn a_soak_fails_when_a_server_grows_past_its_bound() {
    // No growth at all allowed: the open connections of a busy server come and go, and its
    // memory grows as it caches games, so some sample passes the bound and the soak says so.
    let args = ["--soak", "0.2", "--sample-s", "3", "--games", "4", "--think-ms", "20", "--fd-growth", "0"];
    let args = [&args[..], &["--rss-growth-mib", "0"]].concat();
    let Some((ok, result, all)) = soak("soak_bound", &args) else { return };
    assert!(!ok, "{all}");
    let error = result["error"].as_str().unwrap_or_default();
    assert!(error.contains("over the baseline"), "{all}");
}

/// Runs `sql` on the test's database from a thread of its own (the PostgreSQL client may not run
/// on the test's runtime); returns its rows' first column as text.
async fn admin_query(url: &str, sql: &str) -> Vec<String> {
    let (url, sql) = (url.to_string(), sql.to_string());
    tokio::task::spawn_blocking(move || {
        let mut conn = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        conn.query(&sql, &[]).unwrap().iter().map(|r| r.get::<_, Option<String>>(0).unwrap_or_default()).collect()
    })
    .await
    .unwrap()
}

/// Holds game `game_id`'s row locked, in a transaction of a connection of its own, until the
/// returned sender is sent to (or dropped); returns it and that connection's backend pid.
fn lock_row(url: &str, game_id: &str) -> (std::sync::mpsc::Sender<()>, i32) {
    let (url, game_id) = (url.to_string(), game_id.to_string());
    let (release, released) = std::sync::mpsc::channel::<()>();
    let (locked, is_locked) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut conn = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        let mut tx = conn.transaction().unwrap();
        let pid: i32 = tx.query_one("SELECT pg_backend_pid()", &[]).unwrap().get(0);
        tx.query("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", &[&game_id]).unwrap();
        locked.send(pid).unwrap();
        let _ = released.recv();
        tx.commit().unwrap();
    });
    (release, is_locked.recv().unwrap())
}

/// Waits until a server's store connection waits on the row lock that backend `holder` holds (at
/// most 10 s); returns that server's backend pid.
async fn until_a_server_waits_on(url: &str, holder: i32) -> String {
    let sql = format!(
        "SELECT pid::text FROM pg_stat_activity WHERE datname = current_database()
         AND application_name = 'triboard' AND {holder} = ANY(pg_blocking_pids(pid))"
    );
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(pid) = admin_query(url, &sql).await.pop() {
            return pid;
        }
        assert!(Instant::now() < until, "no server waits on the row");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Sends a random legal move for the seat to move of `game`, without waiting for its answer;
/// returns the connection that sent it.
async fn send_move(game: &mut Match) -> usize {
    let seat = game.to_move().expect("the game runs");
    let mover = game.seat_client[usize::from(seat)];
    let text = game.tables[mover].random_move_text(&mut triboard::rules::rng_from_seed(1));
    let token = game.tokens[usize::from(seat)].clone();
    let ply = game.tables[mover].ply() as u32;
    game.clients[mover].send(&ClientMessage::Move { game_id: game.game_id.clone(), token, text, ply }).await;
    mover
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_whose_commit_fails_still_passes_on_the_other_instances_moves() {
    let Some(db) = Db::postgres("failed-batch") else { return };
    let url = db.arg().into_string().unwrap();
    let (a, b) = (Server::start(&db), Server::start(&db));
    let mut first = Match::start(&a.url, "trike", None).await;
    let mut second = Match::start(&a.url, "trike", None).await;
    let mut elsewhere = Match::start(&b.url, "trike", None).await;
    let mut watcher = Client::connect(&a.url).await;
    watcher.watch(&elsewhere.game_id).await;
    // A's service thread waits on a row held by the test, so what comes meanwhile — B's move
    // in the game the watcher follows, heard from B, and a move in the second game — is one
    // batch, which then waits on the second game's row, where its store connection is ended.
    let ((release_first, first_holder), (_hold_second, second_holder)) =
        (lock_row(&url, &first.game_id), lock_row(&url, &second.game_id));
    send_move(&mut first).await;
    until_a_server_waits_on(&url, first_holder).await;
    let text = elsewhere.tables[0].random_move_text(&mut triboard::rules::rng_from_seed(2));
    elsewhere.play(&text).await;
    // The note reaches A's listener at once; the batch it joins waits for the first row.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mover = send_move(&mut second).await;
    release_first.send(()).unwrap();
    let waiting = until_a_server_waits_on(&url, second_holder).await;
    let ended = admin_query(&url, &format!("SELECT pg_terminate_backend({waiting})::text")).await;
    assert_eq!(ended, ["true"]);
    // The failed batch's own message is told to send again; the other instance's move, which
    // was stored, still reaches the watcher.
    let (code, _) = second.clients[mover].error().await;
    assert_eq!(code, triboard::net::protocol::ErrorCode::Storage);
    let (ply, watched, _) = watcher.moved().await;
    assert_eq!((ply, watched), (0, text));
}
