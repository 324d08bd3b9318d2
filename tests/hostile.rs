//! `triboard serve` held against a hostile client (issue 46, `docs/design.md` §Threat model): the
//! real binary on 127.0.0.1:0, clients of their own over WebSockets, some from other loopback
//! addresses (127.0.0.2, 127.0.0.3: a socket bound there before it connects), as an attacker
//! would try the public server from the protocol alone.
//!
//! - A stranger who sends somebody's request id gets nothing of theirs (`server::requests`).
//! - A sign-out ends the session on every connection signed in with it, on this instance and on
//!   another sharing the store.
//! - A withdrawn rated challenge is over and unrated.
//! - Wrong passwords slow down the address they come from, not the owner at another (no lockout),
//!   and the limits per address hold across two instances sharing PostgreSQL.
//! - A move that panicked a decoder under the fuzzer is refused and the server goes on.
//!
//! Each test runs on both stores where it can ([`on_both_stores!`]); the two-instance ones on
//! PostgreSQL only.

#![cfg(feature = "server")]

#[path = "common/db.rs"]
mod db;
#[path = "common/net.rs"]
mod net;

use std::net::SocketAddr;
use std::time::Duration;

use net::{Client, Db, Match, Server};
use tokio::net::TcpSocket;
use triboard::net::protocol::{ClientMessage, ErrorCode, NewGame, ServerMessage};

// ---- The clients ----

/// A client whose connection comes from the loopback address `from` (127.0.0.x).
async fn connect_from(server: &Server, from: &str) -> Client {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).expect("binds the loopback address");
    let stream = socket.connect(server.addr.parse::<SocketAddr>().unwrap()).await.expect("connects");
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(stream);
    let (ws, _) = tokio_tungstenite::client_async(server.url.as_str(), stream).await.expect("upgrades");
    Client { ws }
}

/// A guest's client with its own client secret (`hello`).
async fn guest(server: &Server, secret: &str) -> Client {
    let mut client = Client::connect(&server.url).await;
    client.send(&ClientMessage::Hello { client: secret.into() }).await;
    client
}

/// Signs `client` up as `name`; its session.
async fn sign_up(client: &mut Client, name: &str) -> String {
    let password = format!("{name}'s password");
    client.send(&ClientMessage::Signup { name: name.into(), password, claim: Vec::new() }).await;
    client.until(|m| if let ServerMessage::SignedIn { session, .. } = m { Some(session.clone()) } else { None }).await
}

/// Signs in with `password`: `Ok` on `signed_in`, else the refusal.
async fn log_in(client: &mut Client, name: &str, password: &str) -> Result<(), (ErrorCode, String)> {
    client.send(&ClientMessage::Login { name: name.into(), password: password.into(), claim: Vec::new() }).await;
    client
        .until(|m| match m {
            ServerMessage::SignedIn { .. } => Some(Ok(())),
            ServerMessage::Error { code, message, .. } => Some(Err((*code, message.clone()))),
            _ => None,
        })
        .await
}

/// The `created` or `joined` answer's (game id, seat, token), or the refusal.
async fn seated(client: &mut Client) -> Result<(String, u8, String), (ErrorCode, String)> {
    client
        .until(|m| match m {
            ServerMessage::Created { game_id, seat, token, .. } | ServerMessage::Joined { game_id, seat, token } => {
                Some(Ok((game_id.clone(), *seat, token.clone())))
            }
            ServerMessage::Error { code, message, .. } => Some(Err((*code, message.clone()))),
            _ => None,
        })
        .await
}

/// A rated open challenge of Trike.
fn rated_challenge(request_id: Option<&str>) -> ClientMessage {
    ClientMessage::Create(NewGame {
        rated: true,
        lobby: true,
        request_id: request_id.map(str::to_string),
        ..NewGame::of("trike")
    })
}

const ANN_SECRET: &str = "9d1f0c7e2b4a6853f1e0d9c8b7a69584";
const MALLORY_SECRET: &str = "5e4d3c2b1a0f9e8d7c6b5a4938271605";
const ANN_REQUEST: &str = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

// ---- Request ids ----

async fn a_strangers_request_id_gets_nothing_of_theirs(db: Db) {
    let server = Server::start(&db);
    let mut ann = guest(&server, ANN_SECRET).await;
    ann.send(&ClientMessage::Create(NewGame { request_id: Some(ANN_REQUEST.into()), ..NewGame::of("trike") })).await;
    let (game_id, seat, token) = seated(&mut ann).await.unwrap();
    // Mallory has learnt Ann's id: as a join of no game, a create, an accept of no game, a seek.
    let mut mallory = guest(&server, MALLORY_SECRET).await;
    let id = Some(ANN_REQUEST.to_string());
    let tries = [
        ClientMessage::Join { code: "NOSUCH22".into(), request_id: id.clone() },
        ClientMessage::Create(NewGame { request_id: id.clone(), ..NewGame::of("trike") }),
        ClientMessage::Accept { game_id: "0123456789abcdef".into(), request_id: id.clone() },
        ClientMessage::Seek {
            game: "trike".into(),
            options: serde_json::Value::Null,
            clock: None,
            rated: false,
            request_id: id.clone(),
        },
    ];
    for message in tries {
        mallory.send(&message).await;
        let (code, why) = seated(&mut mallory).await.expect_err("refused");
        assert_eq!(code, ErrorCode::RequestIdUsed, "{message:?}: {why}");
        assert!(why.contains("new one"), "{why}");
    }
    // So is a guest without a hello (a client of its own), and an account.
    let mut nameless = Client::connect(&server.url).await;
    nameless.send(&ClientMessage::Join { code: "NOSUCH22".into(), request_id: id.clone() }).await;
    assert_eq!(seated(&mut nameless).await.unwrap_err().0, ErrorCode::RequestIdUsed);
    let mut signed = Client::connect(&server.url).await;
    sign_up(&mut signed, "Mallory").await;
    signed.send(&ClientMessage::Create(NewGame { request_id: id.clone(), ..NewGame::of("trike") })).await;
    assert_eq!(seated(&mut signed).await.unwrap_err().0, ErrorCode::RequestIdUsed);
    // An id too short to be secret is refused, whoever sends it.
    mallory.send(&ClientMessage::Join { code: "NOSUCH22".into(), request_id: Some("r".into()) }).await;
    let (code, why) = seated(&mut mallory).await.unwrap_err();
    assert_eq!(code, ErrorCode::Malformed, "{why}");
    assert!(why.contains("128 bits"), "{why}");
    // Ann, back on a new connection with her secret, gets her seat again; with the same id for
    // another request she is refused too.
    drop(ann);
    let mut ann = guest(&server, ANN_SECRET).await;
    ann.send(&ClientMessage::Create(NewGame { request_id: id.clone(), ..NewGame::of("trike") })).await;
    assert_eq!(seated(&mut ann).await.unwrap(), (game_id.clone(), seat, token.clone()), "her retry");
    ann.send(&ClientMessage::Join { code: "NOSUCH22".into(), request_id: id }).await;
    assert_eq!(seated(&mut ann).await.unwrap_err().0, ErrorCode::RequestIdUsed, "another request");
    // Nothing changed: the game has Ann's seat and a free one, and no other game was made.
    let state = mallory.watch(&game_id).await;
    assert_eq!(state.players.iter().map(|p| p.taken).collect::<Vec<_>>(), [true, false]);
    let games = db.dump().iter().filter(|row| row.starts_with("games:")).count();
    assert_eq!(games, 1, "one game: {:?}", db.dump());
}

async fn an_accounts_retry_is_its_own_on_another_connection(db: Db) {
    let server = Server::start(&db);
    let mut ann = Client::connect(&server.url).await;
    let session = sign_up(&mut ann, "Ann").await;
    ann.send(&rated_challenge(Some(ANN_REQUEST))).await;
    let first = seated(&mut ann).await.unwrap();
    drop(ann);
    // Another device of Ann's, signed in with her session and another client secret.
    let mut again = guest(&server, MALLORY_SECRET).await;
    again.send(&ClientMessage::Resume { session, claim: Vec::new() }).await;
    again.until(|m| matches!(m, ServerMessage::SignedIn { .. }).then_some(())).await;
    again.send(&rated_challenge(Some(ANN_REQUEST))).await;
    assert_eq!(seated(&mut again).await.unwrap(), first, "the account's retry");
}

// ---- Signing out ----

async fn signing_out_ends_the_session_on_every_connection(db: Db) {
    let server = Server::start(&db);
    let mut phone = Client::connect(&server.url).await;
    let session = sign_up(&mut phone, "Ann").await;
    // The thief's connection, signed in with the stolen session before Ann signs out.
    let mut thief = Client::connect(&server.url).await;
    thief.send(&ClientMessage::Resume { session: session.clone(), claim: Vec::new() }).await;
    thief.until(|m| matches!(m, ServerMessage::SignedIn { .. }).then_some(())).await;
    phone.send(&ClientMessage::Logout { session: session.clone() }).await;
    phone.until(|m| matches!(m, ServerMessage::SignedOut {}).then_some(())).await;
    thief.until(|m| matches!(m, ServerMessage::SignedOut {}).then_some(())).await;
    thief.send(&rated_challenge(None)).await;
    let (code, why) = seated(&mut thief).await.unwrap_err();
    assert_eq!(code, ErrorCode::NotSignedIn, "{why}");
    thief.send(&ClientMessage::Resume { session, claim: Vec::new() }).await;
    assert_eq!(thief.error().await.0, ErrorCode::BadSession);
    // A guest's game still works on the connection.
    thief.send(&ClientMessage::Create(NewGame::of("trike"))).await;
    assert!(seated(&mut thief).await.is_ok());
}

/// On two instances sharing PostgreSQL: a sign-out on one ends the session on the other's
/// connections too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signing_out_on_one_instance_ends_the_session_on_the_other() {
    let Some(db) = Db::postgres("signing_out_on_one_instance") else { return };
    let (one, two) = (Server::start(&db), Server::start(&db));
    let mut phone = Client::connect(&one.url).await;
    let session = sign_up(&mut phone, "Ann").await;
    let mut thief = Client::connect(&two.url).await;
    thief.send(&ClientMessage::Resume { session: session.clone(), claim: Vec::new() }).await;
    thief.until(|m| matches!(m, ServerMessage::SignedIn { .. }).then_some(())).await;
    phone.send(&ClientMessage::Logout { session }).await;
    phone.until(|m| matches!(m, ServerMessage::SignedOut {}).then_some(())).await;
    thief.until(|m| matches!(m, ServerMessage::SignedOut {}).then_some(())).await;
    thief.send(&rated_challenge(None)).await;
    assert_eq!(seated(&mut thief).await.unwrap_err().0, ErrorCode::NotSignedIn);
}

// ---- A withdrawn challenge ----

async fn a_withdrawn_rated_challenge_is_over_and_unrated(db: Db) {
    let server = Server::start(&db);
    let mut ann = Client::connect(&server.url).await;
    sign_up(&mut ann, "Ann").await;
    ann.send(&rated_challenge(None)).await;
    let (game_id, _, token) = seated(&mut ann).await.unwrap();
    ann.send(&ClientMessage::Withdraw { game_id: game_id.clone(), token }).await;
    let state = ann
        .until(|m| match m {
            ServerMessage::State(s) if s.game_id == game_id && s.outcome.is_some() => Some(s.clone()),
            _ => None,
        })
        .await;
    let outcome = state.outcome.unwrap();
    assert!(outcome.withdrawn && outcome.winners.is_empty() && outcome.scores.is_empty(), "{outcome:?}");
    assert!(!state.rated, "over and unrated");
    assert_eq!(state.to_move, None);
}

// ---- Limits nobody turns on somebody else ----

/// Wrong passwords from 127.0.0.2 slow that address down; the owner at 127.0.0.3 signs in.
async fn wrong_passwords_slow_their_address_and_the_owner_still_signs_in(db: Db) {
    let server = Server::start(&db);
    let mut eve = connect_from(&server, "127.0.0.3").await;
    sign_up(&mut eve, "Eve").await;
    let mut mallory = connect_from(&server, "127.0.0.2").await;
    // Five wrong passwords in a minute (the old lockout's count), waiting out each delay.
    for (tries, pause_ms) in [(3, 0), (1, 1100), (1, 2100)] {
        tokio::time::sleep(Duration::from_millis(pause_ms)).await;
        for _ in 0..tries {
            assert_eq!(log_in(&mut mallory, "Eve", "guess").await.unwrap_err().0, ErrorCode::BadLogin);
        }
    }
    let (code, why) = log_in(&mut mallory, "Eve", "Eve's password").await.unwrap_err();
    assert_eq!(code, ErrorCode::Limit, "the guessing address waits, even with the right password: {why}");
    assert!(why.contains("5 wrong passwords for this name from this address"), "{why}");
    let mut owner = connect_from(&server, "127.0.0.3").await;
    assert_eq!(log_in(&mut owner, "Eve", "Eve's password").await, Ok(()), "no lockout");
}

/// The limits per address count an address's attempts at every instance sharing PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_limits_per_address_hold_across_two_instances() {
    let Some(db) = Db::postgres("the_limits_per_address_hold") else { return };
    let (one, two) = (Server::start(&db), Server::start(&db));
    let mut eve = connect_from(&one, "127.0.0.3").await;
    sign_up(&mut eve, "Eve").await;
    let mut at_one = connect_from(&one, "127.0.0.2").await;
    for _ in 0..3 {
        assert_eq!(log_in(&mut at_one, "Eve", "guess").await.unwrap_err().0, ErrorCode::BadLogin);
    }
    let mut at_two = connect_from(&two, "127.0.0.2").await;
    let (code, why) = log_in(&mut at_two, "Eve", "guess").await.unwrap_err();
    assert_eq!(code, ErrorCode::Limit, "the other instance knows the three wrong passwords: {why}");
    // 20 games a minute from one address, made at either instance.
    for k in 0..20 {
        let client = if k % 2 == 0 { &mut at_one } else { &mut at_two };
        client.send(&ClientMessage::Create(NewGame::of("trike"))).await;
        assert!(seated(client).await.is_ok(), "game {k}");
    }
    for client in [&mut at_one, &mut at_two] {
        client.send(&ClientMessage::Create(NewGame::of("trike"))).await;
        let (code, why) = seated(client).await.unwrap_err();
        assert_eq!(code, ErrorCode::Limit, "{why}");
        assert!(why.contains("20 games a minute"), "{why}");
    }
    let mut elsewhere = connect_from(&two, "127.0.0.4").await;
    elsewhere.send(&ClientMessage::Create(NewGame::of("trike"))).await;
    assert!(seated(&mut elsewhere).await.is_ok(), "another address is not limited");
}

// ---- The fuzzers' findings, sent to the server ----

/// A Trisq move with a character of several bytes (the record fuzz target's finding: reading it
/// cut the text inside the character and panicked — on the server, its service thread) is
/// refused, and the game and the server go on.
async fn a_move_of_wide_characters_is_refused_and_the_server_goes_on(db: Db) {
    let server = Server::start(&db);
    let mut game = Match::start(&server.url, "trisq", None).await;
    let seat = usize::from(game.to_move().unwrap());
    let (client, token) = (game.seat_client[seat], game.tokens[seat].clone());
    let wide = ClientMessage::Move { game_id: game.game_id.clone(), token, text: "d3H2\u{fffd}".into(), ply: 0 };
    game.clients[client].send(&wide).await;
    let (code, why) = game.clients[client].error().await;
    assert_eq!(code, ErrorCode::IllegalMove, "{why}");
    assert!(why.contains("is not a slot"), "{why}");
    let mut watcher = Client::connect(&server.url).await;
    assert_eq!(watcher.watch(&game.game_id).await.ply, 0, "the server answers, the game unchanged");
    game.play_random(7, 2).await;
}

on_both_stores!(
    a_move_of_wide_characters_is_refused_and_the_server_goes_on,
    a_strangers_request_id_gets_nothing_of_theirs,
    an_accounts_retry_is_its_own_on_another_connection,
    signing_out_ends_the_session_on_every_connection,
    a_withdrawn_rated_challenge_is_over_and_unrated,
    wrong_passwords_slow_their_address_and_the_owner_still_signs_in,
);
