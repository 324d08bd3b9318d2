//! `triboard serve` over the network (`docs/design.md` §Network play): the real binary started on
//! 127.0.0.1:0 with a temporary database, clients speaking the protocol over WebSockets
//! (tokio-tungstenite), as the app and the browser do.
//!
//! Every registered game is played to its end by two connections, each move reaching the other
//! seat; the server killed (SIGKILL) mid-game and started again on its file loses no acknowledged
//! move and both seats carry on; bad input gets its error and changes nothing; a stranger's token
//! moves nothing; correspondence and live games (their clocks) survive a restart; presence follows
//! the connections; the rate limit refuses a burst and the connection works after a pause. Each
//! test runs on both stores ([`on_both_stores!`]): a temporary SQLite file and a fresh PostgreSQL
//! database; the harness is `common/net.rs`, several instances on one PostgreSQL are
//! `tests/instances.rs`.

#![cfg(feature = "server")]

#[path = "common/db.rs"]
mod db;
#[path = "common/net.rs"]
mod net;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt as _, StreamExt as _};
use net::{Client, Db, Match, Server};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;
use triboard::net::position::start;
use triboard::net::protocol::{
    ClientMessage, Clock, ErrorCode, MAX_MESSAGE_BYTES, NewGame, ServerMessage, encode_client,
};
use triboard::rules::rng_from_seed;
use triboard::server::clock::Clocks;

// ---- Tests ----

async fn two_clients_play_every_registered_game_to_its_end_over_the_network(db: Db) {
    let server = Server::start(&db);
    let games = triboard::rules::game_ids().into_iter().enumerate().map(|(k, id)| {
        let url = server.url.clone();
        tokio::spawn(async move {
            let mut game = Match::start(&url, id, None).await;
            game.play_random(k as u64, usize::MAX).await;
            assert!(game.tables[1].to_move().is_none(), "{id}: both seats see the end");
            let state = game.clients[0].watch(&game.game_id).await;
            assert!(state.outcome.is_some() && state.to_move.is_none(), "{id}");
            assert_eq!(state.moves, game.acknowledged, "{id}");
            (game.game_id, game.acknowledged)
        })
    });
    for task in games.collect::<Vec<_>>() {
        let (game_id, acknowledged) = task.await.unwrap();
        assert_eq!(db.stored_moves(&game_id), acknowledged, "stored once each");
    }
}

async fn a_killed_server_restarted_on_its_file_loses_no_acknowledged_move_and_the_seats_finish(db: Db) {
    let server = Server::start(&db);
    let mut trike = Match::start(&server.url, "trike", None).await;
    let mut trigon = Match::start(&server.url, "trigon-2", None).await;
    trike.play_random(1, 9).await;
    trigon.play_random(2, 7).await;
    server.kill();
    assert_eq!(db.stored_moves(&trike.game_id), trike.acknowledged);
    assert_eq!(db.stored_moves(&trigon.game_id), trigon.acknowledged);
    let server = Server::start(&db);
    for game in [&mut trike, &mut trigon] {
        let state = game.reconnect(&server.url).await;
        assert_eq!(state.moves, game.acknowledged, "every acknowledged move is there");
        assert!(state.players.iter().all(|p| p.taken));
    }
    trike.play_random(3, usize::MAX).await;
    trigon.play_random(4, usize::MAX).await;
    for game in [&mut trike, &mut trigon] {
        assert!(game.to_move().is_none());
        let state = game.clients[1].watch(&game.game_id).await;
        assert!(state.outcome.is_some());
        assert_eq!(db.stored_moves(&game.game_id), game.acknowledged);
    }
}

async fn bad_input_gets_its_error_over_the_wire_changes_nothing_and_keeps_the_connection(db: Db) {
    let server = Server::start(&db);
    let mut game = Match::start(&server.url, "trike", None).await;
    game.play("d4").await;
    let id = game.game_id.clone();
    let (tokens, mover) = (game.tokens.clone(), usize::from(game.to_move().unwrap()));
    let mv = |token: &str, text: &str, ply: u32| {
        encode_client(&ClientMessage::Move { game_id: id.clone(), token: token.into(), text: text.into(), ply })
    };
    let big = format!(r#"{{"version":2,"type":"watch","game_id":"{}"}}"#, "x".repeat(MAX_MESSAGE_BYTES + 100));
    let cases: Vec<(&str, String, ErrorCode)> = vec![
        ("malformed", "{not json".into(), ErrorCode::Malformed),
        ("not an object", "[1, 2]".into(), ErrorCode::Malformed),
        ("oversized", big, ErrorCode::TooLarge),
        ("unknown type", r#"{"version":2,"type":"teleport","game_id":"x"}"#.into(), ErrorCode::UnknownType),
        ("wrong version", r#"{"version":7,"type":"watch","game_id":"x"}"#.into(), ErrorCode::UnsupportedVersion),
        ("wrong token", mv("0123456789abcdef0123456789abcdef", "c3", 1), ErrorCode::BadToken),
        ("out of turn", mv(&tokens[1 - mover], "c3", 1), ErrorCode::NotYourTurn),
        ("illegal", mv(&tokens[mover], "d4", 1), ErrorCode::IllegalMove),
        ("off the board", mv(&tokens[mover], "z99", 1), ErrorCode::IllegalMove),
        ("unknown game", encode_client(&ClientMessage::Watch { game_id: "nope".into() }), ErrorCode::UnknownGame),
    ];
    let mut stranger = Client::connect(&server.url).await;
    for (what, text, code) in cases {
        let before = db.dump();
        stranger.send_text(&text).await;
        let (got, why) = stranger.error().await;
        assert_eq!(got, code, "{what}: {why}");
        assert!(!why.is_empty(), "{what}: a sentence");
        assert_eq!(db.dump(), before, "{what}: nothing changed");
        assert_eq!(stranger.watch(&id).await.ply, 1, "{what}: the connection still works");
    }
    // A binary frame.
    stranger.ws.send(Message::binary(vec![1u8, 2, 3])).await.unwrap();
    assert_eq!(stranger.error().await.0, ErrorCode::Malformed);
    assert_eq!(stranger.watch(&id).await.ply, 1, "binary: the connection still works");
    // A move in a finished game.
    let resign = ClientMessage::Resign { game_id: id.clone(), token: tokens[0].clone() };
    stranger.send(&resign).await;
    assert!(stranger.state().await.outcome.is_some());
    let before = db.dump();
    stranger.send_text(&mv(&tokens[mover], "c3", 1)).await;
    let (code, why) = stranger.error().await;
    assert_eq!(code, ErrorCode::GameOver, "{why}");
    assert_eq!(db.dump(), before);
    assert_eq!(stranger.watch(&id).await.ply, 1);
}

async fn a_strangers_token_cannot_move(db: Db) {
    let server = Server::start(&db);
    let mut game = Match::start(&server.url, "trike", None).await;
    let other = Match::start(&server.url, "trike", None).await;
    let before = db.dump();
    let mut stranger = Client::connect(&server.url).await;
    for token in &other.tokens {
        let message =
            ClientMessage::Move { game_id: game.game_id.clone(), token: token.clone(), text: "d4".into(), ply: 0 };
        stranger.send(&message).await;
        assert_eq!(stranger.error().await.0, ErrorCode::BadToken);
        let resign = ClientMessage::Resign { game_id: game.game_id.clone(), token: token.clone() };
        stranger.send(&resign).await;
        assert_eq!(stranger.error().await.0, ErrorCode::BadToken);
    }
    assert_eq!(db.dump(), before);
    game.play("d4").await;
    assert_eq!(db.stored_moves(&game.game_id), ["d4"]);
}

async fn correspondence_and_live_games_survive_a_restart_with_their_clocks(db: Db) {
    let server = Server::start(&db);
    let mut mail = Match::start(&server.url, "tricore", None).await;
    mail.play_random(5, 3).await;
    let clock = Clock { minutes: 1, increment_s: 2 };
    let mut live = Match::start(&server.url, "trike", Some(clock)).await;
    let state = live.clients[0].watch(&live.game_id).await;
    assert_eq!(state.clock, Some(clock));
    assert!(state.clock_ms.unwrap().iter().all(|&ms| ms <= 60_000 && ms > 50_000), "clocks started on the join");
    tokio::time::sleep(Duration::from_millis(150)).await;
    let moved_clock = live.play_random(7, 3).await.expect("a live game's move carries its clocks");
    let moved_at = Instant::now();
    // The stored times give the acknowledged clocks exactly.
    let stored = db.game(&live.game_id);
    let (started, times) = (stored.started_ms.unwrap(), stored.move_ms);
    let replayed = Clocks::replay(clock, 2, started, &[0, 1, 0], &times);
    assert_eq!(replayed.left_at(None, 0), moved_clock, "the clocks follow from the stored times");
    assert!(moved_clock[0] < 64_000 && moved_clock[0] > 60_000, "two increments, some time spent: {moved_clock:?}");
    server.kill();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let server = Server::start(&db);
    let state = mail.reconnect(&server.url).await;
    assert_eq!((state.moves.clone(), state.clock_ms.clone()), (mail.acknowledged.clone(), None));
    mail.play_random(6, 2).await;
    let state = live.reconnect(&server.url).await;
    assert_eq!(state.moves, live.acknowledged);
    let clock_ms = state.clock_ms.expect("the clocks after the restart");
    let waited = moved_at.elapsed().as_millis() as u64;
    assert_eq!(state.to_move, Some(1));
    assert_eq!(clock_ms[0], moved_clock[0], "the waiting seat's time is as acknowledged");
    assert!(clock_ms[1] <= moved_clock[1] - 300, "the downtime counts for the seat to move: {clock_ms:?}");
    // The move's time is taken before its commit, so the acknowledgement came up to a sync later.
    assert!(clock_ms[1] + waited + 1000 >= moved_clock[1], "and no more: {clock_ms:?} after {waited} ms");
    let after = live.play_random(8, 1).await.unwrap();
    assert!(after[1] <= clock_ms[1] + 2000 && after[1] > 55_000, "{after:?}");
}

async fn presence_follows_the_connections(db: Db) {
    let server = Server::start(&db);
    let mut game = Match::start(&server.url, "trike", None).await;
    let online = |m: &ServerMessage| match m {
        ServerMessage::Presence { online, .. } => Some(online.clone()),
        _ => None,
    };
    // The creator saw the joiner arrive.
    loop {
        if game.clients[0].until(online).await == [true, true] {
            break;
        }
    }
    let mut watcher = Client::connect(&server.url).await;
    watcher.send(&ClientMessage::Watch { game_id: game.game_id.clone() }).await;
    assert_eq!(watcher.until(online).await, [true, true], "a new follower gets the presence");
    let [a, b] =
        std::mem::replace(&mut game.clients, [Client::connect(&server.url).await, Client::connect(&server.url).await]);
    drop(a);
    drop(b);
    let mut seen = watcher.until(online).await;
    if seen != [false, false] {
        seen = watcher.until(online).await;
    }
    assert_eq!(seen, [false, false], "both seats left");
    let sync = ClientMessage::Sync { game_id: game.game_id.clone(), since_ply: 0, token: Some(game.tokens[1].clone()) };
    game.clients[1].send(&sync).await;
    assert_eq!(watcher.until(online).await, [false, true], "seat 1 is back");
}

/// The lobby's count of people online: every client connected, at a board or in the lobby, once
/// however many connections it holds, and again after a restart.
async fn the_lobby_counts_every_client_connected_once_also_after_a_restart(db: Db) {
    let secret = |k: u8| format!("{}abcdefghijklmnopqrstuvwxyz012345", char::from(b'A' + k));
    let online =
        |want: u32| move |m: &ServerMessage| matches!(m, ServerMessage::Lobby(v) if v.online == want).then_some(());
    for round in 0..2 {
        let server = Server::start(&db);
        // Two players at a board, and one in the lobby; the lobby's player also has a second
        // connection (a second window of the same app).
        let mut game = Match::start(&server.url, "trike", None).await;
        for (k, client) in game.clients.iter_mut().enumerate() {
            client.send(&ClientMessage::Hello { client: secret(k as u8) }).await;
        }
        let mut lobby = Client::connect(&server.url).await;
        lobby.send(&ClientMessage::Hello { client: secret(2) }).await;
        let mut second = Client::connect(&server.url).await;
        second.send(&ClientMessage::Hello { client: secret(2) }).await;
        lobby.send(&ClientMessage::Lobby {}).await;
        tokio::time::timeout(std::time::Duration::from_secs(5), lobby.until(online(3)))
            .await
            .unwrap_or_else(|_| panic!("round {round}: three people online"));
        drop(second);
        drop(game);
        lobby.until(online(1)).await;
        server.kill();
    }
}

async fn a_burst_is_rate_limited_and_the_connection_works_after_a_pause(db: Db) {
    let server = Server::start(&db);
    let game = Match::start(&server.url, "trike", None).await;
    let mut client = Client::connect(&server.url).await;
    let watch = encode_client(&ClientMessage::Watch { game_id: game.game_id.clone() });
    for _ in 0..200 {
        client.ws.feed(Message::text(watch.clone())).await.unwrap();
    }
    client.ws.flush().await.unwrap();
    let (mut states, mut limited) = (0, 0);
    while states + limited < 200 {
        match client.recv().await {
            ServerMessage::State(_) => states += 1,
            ServerMessage::Error { code: ErrorCode::RateLimited, .. } => limited += 1,
            ServerMessage::Presence { .. } => {}
            other => panic!("{other:?}"),
        }
    }
    assert!((60..=120).contains(&states), "the burst of 60 and what refilled meanwhile: {states}");
    assert!(limited >= 80, "{limited}");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(client.watch(&game.game_id).await.game_id, game.game_id, "after a pause");
}

async fn the_web_app_is_served_from_the_same_address(db: Db) {
    let web = std::env::temp_dir().join(format!("triboard-serve-web-{}", std::process::id()));
    std::fs::create_dir_all(&web).unwrap();
    std::fs::write(web.join("index.html"), "<title>triboard web test</title>").unwrap();
    let server = Server::start_with(&db, &["--web".as_ref(), web.as_os_str()]);
    let get = |path: &str| {
        use std::io::{Read as _, Write as _};
        let mut stream = std::net::TcpStream::connect(&server.addr).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    };
    let index = get("/");
    assert!(index.starts_with("HTTP/1.1 200") && index.contains("triboard web test"), "{index}");
    assert!(get("/nope.js").starts_with("HTTP/1.1 404"));
    // And the API beside it.
    let mut client = Client::connect(&server.url).await;
    client.send(&ClientMessage::Watch { game_id: "nope".into() }).await;
    assert_eq!(client.error().await.0, ErrorCode::UnknownGame);
    std::fs::remove_dir_all(&web).unwrap();
}

#[test]
fn without_the_browser_build_an_invitation_link_opens_a_page_that_says_how_to_join() {
    use std::io::{Read as _, Write as _};
    // The server without a web build (`web app: none`), in-process.
    let store = triboard::server::SqliteStore::open_in_memory().unwrap();
    let options = triboard::server::transport::ServeOptions::default();
    assert!(options.web.is_none());
    let server = triboard::server::transport::serve_on("127.0.0.1:0".parse().unwrap(), store, options).unwrap();
    let get = |path: &str| {
        let mut stream = std::net::TcpStream::connect(server.addr).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    };
    // The invitation's address (its `#join=CODE` stays in the browser): the page, not a 404.
    let page = get("/");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("text/html"), "{page}");
    for words in ["Play online…", "Invite a friend", "Join", "#join=", "location.hash", "--web DIR"] {
        assert!(page.contains(words), "the page says {words:?}: {page}");
    }
    assert!(get("/nope.js").starts_with("HTTP/1.1 404"), "only the invitation's address has the page");
}

#[test]
fn serve_bench_plays_every_game_and_finds_nothing_lost_or_duplicated() {
    let output = Command::new(env!("CARGO_BIN_EXE_triboard"))
        .args(["serve-bench", "--games", "7", "--think-ms", "60", "--seed", "3", "--json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    let result: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(result["games"], 7, "{result}");
    assert_eq!((result["lost"].as_u64(), result["duplicated"].as_u64()), (Some(0), Some(0)), "{result}");
    assert_eq!(result["failed_games"], 0, "{result}");
    assert!(result["moves"].as_u64().unwrap() > 100, "{result}");
    assert!(result["p99_ms"].as_f64().unwrap() >= result["p50_ms"].as_f64().unwrap());
}

#[test]
fn serve_bench_through_the_lobby_rates_every_game() {
    let output = Command::new(env!("CARGO_BIN_EXE_triboard"))
        .args(["serve-bench", "--games", "6", "--think-ms", "20", "--seed", "4", "--lobby", "--json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    let result: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!((result["lost"].as_u64(), result["duplicated"].as_u64()), (Some(0), Some(0)), "{result}");
    assert_eq!(result["failed_games"], 0, "{result}");
    assert_eq!(result["rated_games"], 6, "every game rated once: {result}");
}

// ---- Accounts, the lobby and the limits over the wire ----

async fn a_rated_challenge_goes_through_the_lobby_to_both_ratings(db: Db) {
    let server = Server::start(&db);
    let (mut ann, mut bob) = (Client::connect(&server.url).await, Client::connect(&server.url).await);
    for (client, name) in [(&mut ann, "Ann"), (&mut bob, "Bob")] {
        let password = format!("{name}'s password");
        client.send(&ClientMessage::Signup { name: name.into(), password, claim: Vec::new() }).await;
        client.until(|m| matches!(m, ServerMessage::SignedIn { .. }).then_some(())).await;
    }
    bob.send(&ClientMessage::Lobby {}).await;
    let empty = bob.until(|m| if let ServerMessage::Lobby(v) = m { Some(v.clone()) } else { None }).await;
    assert!(empty.challenges.is_empty());
    let create = ClientMessage::Create(NewGame {
        rated: true,
        lobby: true,
        request_id: Some("a1b2c3d4e5f60718293a4b5c6d7e8f90".into()),
        ..NewGame::of("trike")
    });
    ann.send(&create).await;
    let ann_token =
        ann.until(|m| if let ServerMessage::Created { token, .. } = m { Some(token.clone()) } else { None }).await;
    // Bob, in the lobby, is told of the challenge without asking.
    let listed = bob
        .until(|m| match m {
            ServerMessage::Lobby(v) if !v.challenges.is_empty() => Some(v.challenges[0].clone()),
            _ => None,
        })
        .await;
    assert_eq!(listed.players[0].as_deref(), Some("Ann"));
    bob.send(&ClientMessage::Accept { game_id: listed.game_id.clone(), request_id: None }).await;
    let bob_token =
        bob.until(|m| if let ServerMessage::Joined { token, .. } = m { Some(token.clone()) } else { None }).await;
    // Each plays a move (a game resigned before is aborted, unrated): Ann's d4, Bob's swap.
    for (client, token, text, ply) in [(&mut ann, &ann_token, "d4", 0), (&mut bob, &bob_token, "swap", 1)] {
        let (game_id, token, text) = (listed.game_id.clone(), token.clone(), text.to_string());
        client.send(&ClientMessage::Move { game_id, token, text, ply }).await;
        client.until(|m| matches!(m, ServerMessage::Moved { ply: p, .. } if *p == ply).then_some(())).await;
    }
    ann.send(&ClientMessage::Resign { game_id: listed.game_id.clone(), token: ann_token }).await;
    for client in [&mut ann, &mut bob] {
        let changes = client
            .until(|m| if let ServerMessage::Rated { changes, .. } = m { Some(changes.clone()) } else { None })
            .await;
        assert!(changes[0].after < changes[0].before && changes[1].after > changes[1].before, "{changes:?}");
    }
    let stored = db.raw_text();
    assert!(!stored.contains("Ann's password") && !stored.contains("Bob's password"), "no password is stored");
    let log = std::fs::read_to_string(&server.log).unwrap();
    assert!(log.contains("database:"), "the log is read: {log}");
    assert!(!log.contains("password") && !log.contains("Ann's"), "no password in the log: {log}");
}

async fn one_address_gets_32_connections_and_an_oversized_message_closes_with_1009(db: Db) {
    let server = Server::start(&db);
    let mut open = Vec::new();
    for _ in 0..32 {
        let mut client = Client::connect(&server.url).await;
        client.send(&ClientMessage::Lobby {}).await;
        client.until(|m| matches!(m, ServerMessage::Lobby(_)).then_some(())).await;
        open.push(client);
    }
    let mut extra = Client::connect(&server.url).await;
    let (code, why) = extra.error().await;
    assert_eq!(code, ErrorCode::Limit, "{why}");
    assert!(why.contains("32 connections"), "{why}");
    drop(open.pop());
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut again = Client::connect(&server.url).await;
    again.send(&ClientMessage::Lobby {}).await;
    again.until(|m| matches!(m, ServerMessage::Lobby(_)).then_some(())).await;
    // Over 128 KiB: the connection is closed with 1009.
    let huge = "x".repeat(2 * MAX_MESSAGE_BYTES + 10);
    let _ = again.ws.send(Message::text(huge)).await;
    let closed = loop {
        match tokio::time::timeout(Duration::from_secs(10), again.ws.next()).await.expect("an answer within 10 s") {
            Some(Ok(Message::Close(frame))) => break frame,
            Some(Ok(_)) => continue,
            other => panic!("no close frame: {other:?}"),
        }
    };
    let frame = closed.expect("a close frame with a code");
    assert_eq!(u16::from(frame.code), 1009);
}

async fn a_server_bot_plays_a_rated_game_to_its_end_and_gets_a_rating(db: Db) {
    let server = Server::start(&db);
    let mut ann = Client::connect(&server.url).await;
    ann.send(&ClientMessage::Lobby {}).await;
    let bots = ann.until(|m| if let ServerMessage::Lobby(v) = m { Some(v.bots.clone()) } else { None }).await;
    assert_eq!(bots, ["TriboardAI-1", "TriboardAI-3", "TriboardAI-5"], "serve's default bots");
    ann.send(&ClientMessage::Signup { name: "Ann".into(), password: "Ann's password".into(), claim: Vec::new() }).await;
    ann.until(|m| matches!(m, ServerMessage::SignedIn { .. }).then_some(())).await;
    ann.send(&ClientMessage::Create(NewGame {
        rated: true,
        bots: vec!["TriboardAI-1".into()],
        ..NewGame::of("trike")
    }))
    .await;
    let (game_id, token) = ann
        .until(|m| match m {
            ServerMessage::Created { game_id, token, .. } => Some((game_id.clone(), token.clone())),
            _ => None,
        })
        .await;
    let state = ann.state().await;
    assert_eq!(state.players[1].player.as_deref(), Some("TriboardAI-1"));
    let mut table = start("trike").unwrap();
    let mut rng = rng_from_seed(38);
    let mut bot_moves = 0;
    while table.outcome().is_none() {
        if table.to_move().map(|p| p.0) == Some(0) {
            let text = table.random_move_text(&mut rng);
            let ply = table.ply() as u32;
            ann.send(&ClientMessage::Move { game_id: game_id.clone(), token: token.clone(), text, ply }).await;
        }
        let (ply, text, _) = ann.moved().await;
        assert_eq!(ply as usize, table.ply());
        if table.to_move().map(|p| p.0) == Some(1) {
            bot_moves += 1;
        }
        table.play_text(&text).unwrap();
    }
    assert!(bot_moves >= 3, "the bot played its moves: {bot_moves}");
    let changes =
        ann.until(|m| if let ServerMessage::Rated { changes, .. } = m { Some(changes.clone()) } else { None }).await;
    assert_eq!(changes[1].name, "TriboardAI-1");
    assert_ne!(changes[1].after, changes[1].before, "the bot's level has a real rating");
}

/// Runs `triboard bot` for one game of `trigon-2` with `engine` against the server at `server`,
/// a person (a client here) accepting its challenge and playing random moves; returns the bot's
/// JSON summary and how many moves the game had.
async fn bot_game(server: &Server, engine: &str, name: &str) -> (Value, usize) {
    let ws = format!("ws://{}/ws", server.addr);
    let bot = Command::new(env!("CARGO_BIN_EXE_triboard"))
        .args([
            "--json", "bot", "--server", &ws, "--engine", engine, "--name", name, "--game", "trigon-2", "--games", "1",
        ])
        .env("TRIBOARD_BOT_PASSWORD", "the bot's password")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the bot starts");
    let mut hal = Client::connect(&server.url).await;
    hal.send(&ClientMessage::Lobby {}).await;
    let challenge = hal
        .until(|m| match m {
            ServerMessage::Lobby(v) => v.challenges.iter().find(|c| c.players[0].as_deref() == Some(name)).cloned(),
            _ => None,
        })
        .await;
    hal.send(&ClientMessage::Accept { game_id: challenge.game_id.clone(), request_id: None }).await;
    let token =
        hal.until(|m| if let ServerMessage::Joined { token, .. } = m { Some(token.clone()) } else { None }).await;
    let mut table = start("trigon-2").unwrap();
    let mut rng = rng_from_seed(39);
    let game_id = challenge.game_id;
    let mut sent = None;
    while table.outcome().is_none() {
        if table.to_move().map(|p| p.0) == Some(1) && table.outcome().is_none() && sent != Some(table.ply()) {
            sent = Some(table.ply());
            let (text, ply) = (table.random_move_text(&mut rng), table.ply() as u32);
            hal.send(&ClientMessage::Move { game_id: game_id.clone(), token: token.clone(), text, ply }).await;
        }
        match hal.recv().await {
            ServerMessage::Moved { ply, text, .. } if ply as usize == table.ply() => {
                table.play_text(&text).unwrap();
            }
            ServerMessage::State(s) if s.outcome.is_some() => break,
            ServerMessage::Error { message, .. } => panic!("{message}"),
            _ => {}
        }
    }
    let output = tokio::task::spawn_blocking(move || bot.wait_with_output().unwrap()).await.unwrap();
    assert!(output.status.success(), "the bot ends after its one game");
    let text = String::from_utf8_lossy(&output.stdout);
    let summary: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    (summary, table.ply())
}

async fn triboard_bot_seats_a_gtp_engine_that_plays_a_person_through_the_lobby(db: Db) {
    let server = Server::start(&db);
    // A tiny engine made for the test: it answers everything, and resigns when asked for a move.
    let dir = std::env::temp_dir().join(format!("triboard-tiny-gtp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tiny = dir.join("tiny.sh");
    std::fs::write(
        &tiny,
        "while read -r line; do case \"$line\" in genmove*) printf '= resign\\n\\n';; quit*) printf '=\\n\\n'; exit 0;; \
         *) printf '=\\n\\n';; esac; done\n",
    )
    .unwrap();
    let (summary, moves) = bot_game(&server, &format!("sh {}", tiny.display()), "Tiny").await;
    assert_eq!(moves, 0, "it resigned at its first move");
    assert_eq!(summary["games"][0]["winners"], serde_json::json!([]), "aborted, nobody wins: {summary}");
    // Our own engine through GTP plays a whole game.
    let engine = format!("{} gtp --game trigon-2 --level 1", env!("CARGO_BIN_EXE_triboard"));
    let (summary, moves) = bot_game(&server, &engine, "Engine").await;
    assert!(moves > 40, "a whole game: {moves} moves");
    assert_eq!(summary["games"][0]["moves"], serde_json::json!(moves), "{summary}");
    let _ = std::fs::remove_dir_all(dir);
}

async fn triboard_bot_accepts_a_challenge_from_the_lobby(db: Db) {
    let server = Server::start(&db);
    let dir = std::env::temp_dir().join(format!("triboard-accept-gtp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tiny = dir.join("tiny.sh");
    std::fs::write(&tiny, "while read -r line; do case \"$line\" in genmove*) printf '= resign\\n\\n';; *) printf '=\\n\\n';; esac; done\n")
        .unwrap();
    let mut hal = Client::connect(&server.url).await;
    hal.send(&ClientMessage::Create(NewGame { lobby: true, ..NewGame::of("trigon-2") })).await;
    let (game_id, token) = hal
        .until(|m| match m {
            ServerMessage::Created { game_id, token, .. } => Some((game_id.clone(), token.clone())),
            _ => None,
        })
        .await;
    let ws = format!("ws://{}/ws", server.addr);
    let engine = format!("sh {}", tiny.display());
    let bot = Command::new(env!("CARGO_BIN_EXE_triboard"))
        .args(["--json", "bot", "--server", &ws, "--engine", &engine, "--name", "Acceptor", "--accept", "--games", "1"])
        .env("TRIBOARD_BOT_PASSWORD", "the bot's password")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the bot starts");
    // Every seat taken: the bot accepted.
    hal.until(|m| matches!(m, ServerMessage::State(s) if s.players.iter().all(|p| p.taken)).then_some(())).await;
    let table = start("trigon-2").unwrap();
    let text = table.random_move_text(&mut rng_from_seed(40));
    hal.send(&ClientMessage::Move { game_id: game_id.clone(), token, text, ply: 0 }).await;
    let outcome = hal
        .until(|m| match m {
            ServerMessage::State(s) if s.outcome.is_some() => s.outcome.clone(),
            _ => None,
        })
        .await;
    assert_eq!(outcome.resigned, Some(1), "the bot's engine resigned at its first move");
    let output = tokio::task::spawn_blocking(move || bot.wait_with_output().unwrap()).await.unwrap();
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    let summary: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(summary["games"][0]["game_id"], serde_json::json!(game_id), "{summary}");
    assert_eq!(summary["games"][0]["seat"], 1);
    let _ = std::fs::remove_dir_all(dir);
}

// Every test above, on SQLite and on PostgreSQL.
on_both_stores!(
    two_clients_play_every_registered_game_to_its_end_over_the_network,
    a_killed_server_restarted_on_its_file_loses_no_acknowledged_move_and_the_seats_finish,
    bad_input_gets_its_error_over_the_wire_changes_nothing_and_keeps_the_connection,
    a_strangers_token_cannot_move,
    correspondence_and_live_games_survive_a_restart_with_their_clocks,
    presence_follows_the_connections,
    the_lobby_counts_every_client_connected_once_also_after_a_restart,
    a_burst_is_rate_limited_and_the_connection_works_after_a_pause,
    the_web_app_is_served_from_the_same_address,
    a_rated_challenge_goes_through_the_lobby_to_both_ratings,
    one_address_gets_32_connections_and_an_oversized_message_closes_with_1009,
    a_server_bot_plays_a_rated_game_to_its_end_and_gets_a_rating,
    triboard_bot_seats_a_gtp_engine_that_plays_a_person_through_the_lobby,
    triboard_bot_accepts_a_challenge_from_the_lobby,
);
