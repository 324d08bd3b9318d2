//! The game server's core (`triboard::server`, `docs/design.md` §Network play), without a network:
//! messages go through their JSON text into the [`Service`] over a [`Store`], as a transport
//! would carry them; every test of the store and the service runs on both stores, SQLite and
//! PostgreSQL (`NAME::sqlite`, `NAME::postgres`: [`on_both_stores!`], a fresh database of the
//! throwaway cluster each), the SQLite file's own (its log, its old schemas) on SQLite only.
//!
//! Every registered game is played to its end by its seats through the service, and the stored
//! game replays to the same position; bad messages are refused with their error and change nothing
//! in the database; a restart (the store dropped and the file opened again) loses no
//! acknowledged move; a move sent again is answered again, not played twice.

#![cfg(feature = "server")]

mod common;

#[macro_use]
#[path = "common/db.rs"]
mod db;

use common::Observe;
use db::{TempDb, TestDb, TestStore};
use proptest::prelude::*;
use serde_json::{Value, json};
use triboard::net::protocol::{
    ClientMessage, Clock, ErrorCode, GameResult, LobbyView, MAX_FIELD_BYTES, MAX_MESSAGE_BYTES, NewGame,
    PROTOCOL_VERSION, ProfileView, ServerMessage, Snapshot, decode_client, decode_server, encode_client, encode_server,
    normalize_code,
};
use triboard::rules::record::Record;
use triboard::rules::trike::{Trike, TrikeOptions};
use triboard::rules::{Game, Player, random_index, rng_from_seed};
use triboard::server::clock::{DAY_MS, FIRST_MOVE_MS};
use triboard::server::ids::{CODE_ALPHABET, CODE_LENGTH, new_code, new_token};
use triboard::server::service::Caller;
use triboard::server::store::{Accounts, GameSetup, NewSeat, StoreError};
use triboard::server::{PgStore, Service, SqliteStore, Store};

// ---- Harness ----

/// A database file in the temporary folder, removed (with its log files) when dropped.
fn temp_db(name: &str) -> TempDb {
    TempDb::new("server", name)
}

/// The tables "the store is unchanged" compares.
const TABLES: &[&str] = &["schema_version", "games", "seats", "moves"];

/// Sends `message` as text, checking that it reads back as sent, and returns the reply's messages,
/// each checked to read back from its own text.
fn send<S: Store>(service: &mut Service<S>, message: &ClientMessage) -> Vec<ServerMessage> {
    let text = encode_client(message);
    assert_eq!(decode_client(&text).as_ref(), Ok(message), "{text}");
    let reply = service.handle_text(&text);
    assert!(!reply.messages.is_empty(), "every message is answered: {text}");
    for m in &reply.messages {
        let back = encode_server(m);
        assert_eq!(decode_server(&back).as_ref(), Ok(m), "{back}");
    }
    reply.messages
}

/// The error code and message of a refusal; panics on anything else.
fn refusal(messages: &[ServerMessage]) -> (ErrorCode, String) {
    match messages {
        [ServerMessage::Error { code, message, .. }] => (*code, message.clone()),
        other => panic!("expected one error, got {other:?}"),
    }
}

fn state(messages: &[ServerMessage]) -> Snapshot {
    match messages.last() {
        Some(ServerMessage::State(s)) => s.clone(),
        other => panic!("expected a state, got {other:?}"),
    }
}

/// A created game as its creator sees it.
struct Created {
    game_id: String,
    code: String,
    tokens: Vec<Option<String>>,
}

/// Creates a game of `game` with `options`, the creator in `seat`, and seats everybody else by
/// its join code (the code typed in lower case with a dash, as a person might).
fn create_full<S: Store>(service: &mut Service<S>, game: &str, options: Value, seat: u8) -> Created {
    let created = create(service, game, options, seat);
    let n = created.tokens.len();
    let mut created = created;
    for _ in 1..n {
        let typed = format!("{}-{}", &created.code[..4], &created.code[4..]).to_lowercase();
        let reply = send(service, &ClientMessage::Join { code: typed, request_id: None });
        let ServerMessage::Joined { game_id, seat, token } = &reply[0] else { panic!("{reply:?}") };
        assert_eq!(*game_id, created.game_id);
        assert!(created.tokens[usize::from(*seat)].is_none(), "a free seat");
        created.tokens[usize::from(*seat)] = Some(token.clone());
        assert!(state(&reply).players[usize::from(*seat)].taken);
    }
    let reply = send(service, &ClientMessage::Join { code: created.code.clone(), request_id: None });
    assert_eq!(refusal(&reply).0, ErrorCode::GameFull);
    created
}

/// Creates a game, the creator in `seat`, nobody else seated.
fn create<S: Store>(service: &mut Service<S>, game: &str, options: Value, seat: u8) -> Created {
    let reply = send(service, &ClientMessage::Create(NewGame { options, seat, ..NewGame::of(game) }));
    let ServerMessage::Created { game_id, code, seat: given, token } = &reply[0] else { panic!("{reply:?}") };
    assert_eq!(*given, seat);
    assert_eq!(token.len(), 32, "128 bits in hex");
    assert!(token.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(code.len(), CODE_LENGTH);
    let snapshot = state(&reply);
    assert_eq!((snapshot.ply, snapshot.moves.len(), snapshot.outcome.clone()), (0, 0, None));
    let mut tokens = vec![None; snapshot.players.len()];
    tokens[usize::from(seat)] = Some(token.clone());
    Created { game_id: game_id.clone(), code: code.clone(), tokens }
}

/// A service over a store that can be "restarted": the service and its store dropped, the same
/// database opened again (an SQLite file, a PostgreSQL database).
struct Server<S: TestStore> {
    db: TestDb,
    service: Option<Service<S>>,
}

impl<S: TestStore> Server<S> {
    /// On a store that cannot be restarted (SQLite in memory; PostgreSQL all the same).
    fn in_memory(name: &str) -> Server<S> {
        let (store, db) = S::fresh(name, false);
        Server { db, service: Some(Service::new(store)) }
    }

    fn on_file(name: &str) -> Server<S> {
        let (store, db) = S::fresh(name, true);
        Server { db, service: Some(Service::new(store)) }
    }

    fn service(&mut self) -> &mut Service<S> {
        self.service.as_mut().unwrap()
    }

    fn restart(&mut self) {
        drop(self.service.take());
        self.service = Some(Service::new(S::reopen(&self.db)));
    }

    /// Every row of the games' tables, read by a connection of its own.
    fn dump(&self) -> Vec<String> {
        self.db.dump(TABLES)
    }
}

/// Plays a whole random game of `id` (type `G`) through the service: the seats send moves chosen
/// from `legal_moves` (as text, every other one as its label), each sent twice to check that the
/// retry is answered alike and not played again. With `restart_at`, the server restarts at that
/// ply (on a file) and the game goes on with the seats' tokens. The stored game must replay to the
/// client's position and outcome. Returns how many moves the server forced.
fn play_whole_game<G: Observe, S: TestStore>(
    server: &mut Server<S>,
    id: &str,
    seed: u64,
    restart_at: Option<usize>,
) -> usize {
    let mut game = G::new(&G::options_for_id(id)).unwrap();
    let n = game.num_players();
    let creator = (seed % n as u64) as u8;
    let Created { game_id, tokens, .. } = create_full(server.service(), id, Value::Null, creator);
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    let mut rng = rng_from_seed(seed);
    let mut buf = Vec::new();
    let mut acknowledged: Vec<String> = Vec::new();
    let mut forced = 0;
    while let Some(mover) = game.to_move() {
        if restart_at == Some(game.ply()) {
            server.restart();
            let reply =
                send(server.service(), &ClientMessage::Sync { game_id: game_id.clone(), since_ply: 0, token: None });
            assert_eq!(state(&reply).moves, acknowledged, "{id}: no acknowledged move lost in the restart");
        }
        assert!(game.forced_move().is_none(), "{id}: the server plays forced moves itself");
        game.legal_moves(&mut buf);
        let mv = buf[random_index(&mut rng, buf.len())];
        let text = if game.ply() % 2 == 1 { game.move_label(mv) } else { game.move_text(mv) };
        let message = ClientMessage::Move {
            game_id: game_id.clone(),
            token: tokens[mover.index()].clone(),
            text,
            ply: game.ply() as u32,
        };
        let reply = send(server.service(), &message);
        let mut first = true;
        for m in &reply {
            let ServerMessage::Moved { game_id: g, ply, text, seat, .. } = m else { panic!("{id}: {reply:?}") };
            assert_eq!((g, *ply as usize), (&game_id, game.ply()), "{id}");
            assert_eq!(Some(Player(*seat)), game.to_move(), "{id}: the seat that moved");
            let mv = game.parse_move(text).unwrap();
            if first {
                assert_eq!(*text, game.move_text(mv), "{id}: the rules' own text");
                first = false;
            } else {
                assert_eq!(game.forced_move(), Some(mv), "{id}: only forced moves follow");
                forced += 1;
            }
            game.play(mv).unwrap();
            acknowledged.push(text.clone());
        }
        assert_eq!(send(server.service(), &message), reply, "{id}: a retry is answered alike");
        let stored = server.service().store().load_game(&game_id).unwrap().unwrap();
        assert_eq!(stored.moves, acknowledged, "{id}: stored before acknowledged, and once");
    }
    // The stored game replays to the same position and outcome.
    let stored = server.service().store().load_game(&game_id).unwrap().unwrap();
    let record =
        Record::from_json(&json!({"game": id, "options": stored.setup.options, "moves": stored.moves}).to_string())
            .unwrap();
    let (_, replayed, _) = record.replay::<G>().unwrap();
    assert_eq!(replayed.view(), game.view(), "{id}");
    let outcome = game.outcome().expect("the game is over");
    assert_eq!(replayed.outcome(), Some(outcome.clone()), "{id}");
    // Everybody sees the end.
    let snapshot = state(&send(server.service(), &ClientMessage::Watch { game_id: game_id.clone() }));
    let winners = outcome.winners().iter().map(|p| p.0).collect();
    let scores = outcome.scores[..outcome.num_players].to_vec();
    assert_eq!(snapshot.outcome, Some(GameResult { winners, scores, ..GameResult::default() }), "{id}");
    assert_eq!((snapshot.to_move, snapshot.moves, snapshot.ply as usize), (None, acknowledged, game.ply()), "{id}");
    // A finished game takes no more moves, and the refusal changes nothing.
    let reply = send(
        server.service(),
        &ClientMessage::Move {
            game_id: game_id.clone(),
            token: tokens[0].clone(),
            text: "a1".into(),
            ply: game.ply() as u32,
        },
    );
    assert_eq!(refusal(&reply).0, ErrorCode::GameOver, "{id}");
    assert_eq!(server.service().store().load_game(&game_id).unwrap().unwrap(), stored, "{id}");
    forced
}

// ---- Every game, whole ----

fn every_registered_game_plays_to_its_end_through_the_service_and_replays_from_the_store<S: TestStore>() {
    let mut server = Server::<S>::in_memory("every_game");
    let mut seed = 0;
    let mut ids = Vec::new();
    let mut forced = 0;
    macro_rules! each {
        ($($g:ty),*) => { $( for id in <$g as Game>::IDS {
            seed += 1;
            forced += play_whole_game::<$g, S>(&mut server, id, seed, None);
            ids.push(*id);
        } )* };
    }
    triboard::for_each_game!(each);
    assert!(forced > 0, "Trigon's passes were played by the server");
    assert_eq!(ids, triboard::rules::game_ids(), "every registered game id");
}

fn a_restart_on_the_same_file_loses_no_acknowledged_move_in_any_game<S: TestStore>() {
    let mut server = Server::<S>::on_file("restart");
    let mut seed = 100;
    macro_rules! each {
        ($($g:ty),*) => { $( for id in <$g as Game>::IDS {
            seed += 1;
            play_whole_game::<$g, S>(&mut server, id, seed, Some(3 + seed as usize % 5));
            // And once more between games: the file reopened over its own log.
            server.restart();
        } )* };
    }
    triboard::for_each_game!(each);
}

// ---- Refusals change nothing ----

/// A Trike game on a file, both seats taken and `moves` played: the server, the tokens by seat,
/// the game id and the client's position.
fn trike_game<S: TestStore>(name: &str, moves: &[&str]) -> (Server<S>, Vec<String>, String, Trike) {
    let mut server = Server::<S>::on_file(name);
    let Created { game_id, tokens, .. } = create_full(server.service(), "trike", json!({"size": 7}), 0);
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    let mut game = Trike::new(&TrikeOptions { size: 7 }).unwrap();
    for text in moves {
        let mover = game.to_move().unwrap();
        let message = ClientMessage::Move {
            game_id: game_id.clone(),
            token: tokens[mover.index()].clone(),
            text: text.to_string(),
            ply: game.ply() as u32,
        };
        let reply = send(server.service(), &message);
        assert!(matches!(reply[0], ServerMessage::Moved { .. }), "{reply:?}");
        game.play(game.parse_move(text).unwrap()).unwrap();
    }
    (server, tokens, game_id, game)
}

/// Sends `message` and checks it is refused with `code`, the database unchanged; returns the
/// refusal's message.
fn refused_unchanged<S: TestStore>(server: &mut Server<S>, message: &ClientMessage, code: ErrorCode) -> String {
    let before = server.dump();
    let (got, why) = refusal(&send(server.service(), message));
    assert_eq!(got, code, "{message:?}: {why}");
    assert_eq!(server.dump(), before, "{message:?} changed the database");
    why
}

/// As [`refused_unchanged`], for raw text.
fn refused_text_unchanged<S: TestStore>(server: &mut Server<S>, text: &str, code: ErrorCode) -> String {
    let before = server.dump();
    let reply = server.service().handle_text(text);
    let (got, why) = refusal(&reply.messages);
    assert_eq!(got, code, "{}: {why}", text.chars().take(200).collect::<String>());
    assert!(reply.broadcast.is_none());
    assert_eq!(server.dump(), before);
    why
}

fn a_stranger_a_move_out_of_turn_an_illegal_move_and_a_finished_game_are_refused_and_change_nothing<S: TestStore>() {
    let (mut server, tokens, game_id, game) = trike_game::<S>("refusals", &["d4", "c3"]);
    let mover = game.to_move().unwrap().index();
    let waiting = 1 - mover;
    let mv = |token: &str, text: &str, ply: usize| ClientMessage::Move {
        game_id: game_id.clone(),
        token: token.to_string(),
        text: text.to_string(),
        ply: ply as u32,
    };
    let ply = game.ply();
    // A stranger's token, and a token of another game.
    refused_unchanged(&mut server, &mv(&new_token().unwrap(), "e5", ply), ErrorCode::BadToken);
    let other = create(server.service(), "trike", Value::Null, 0);
    let other_token = other.tokens[0].clone().unwrap();
    refused_unchanged(&mut server, &mv(&other_token, "e5", ply), ErrorCode::BadToken);
    refused_unchanged(&mut server, &mv("", "e5", ply), ErrorCode::BadToken);
    // Out of turn.
    let why = refused_unchanged(&mut server, &mv(&tokens[waiting], "e5", ply), ErrorCode::NotYourTurn);
    assert!(why.contains(game.player_name(Player(mover as u8))), "{why}");
    // Illegal, with the rules' reason: an occupied cell, a cell off the board, nonsense.
    for text in ["c3", "z9", "", "🙂"] {
        let mut probe = game.clone();
        let reason = probe.parse_move(text).and_then(|m| probe.play(m)).expect_err(text).reason;
        let why = refused_unchanged(&mut server, &mv(&tokens[mover], text, ply), ErrorCode::IllegalMove);
        assert!(why.contains(&reason), "{why} should give the rules' reason {reason}");
    }
    // The wrong ply: ahead of the game, and a ply played by another move.
    refused_unchanged(&mut server, &mv(&tokens[mover], "e5", ply + 1), ErrorCode::PlyAhead);
    refused_unchanged(&mut server, &mv(&tokens[mover], "e5", u32::MAX as usize), ErrorCode::PlyAhead);
    refused_unchanged(&mut server, &mv(&tokens[0], "e5", 0), ErrorCode::StalePly);
    // The right move by the other seat's token at an old ply is no retry of it.
    refused_unchanged(&mut server, &mv(&tokens[1], "d4", 0), ErrorCode::StalePly);
    // Unknown game; sync past the end.
    let unknown =
        ClientMessage::Move { game_id: "0123456789abcdef".into(), token: tokens[0].clone(), text: "e5".into(), ply: 0 };
    refused_unchanged(&mut server, &unknown, ErrorCode::UnknownGame);
    let past = ClientMessage::Sync { game_id: game_id.clone(), since_ply: ply as u32 + 1, token: None };
    refused_unchanged(&mut server, &past, ErrorCode::PlyAhead);
    // A game still missing a seat takes no move.
    let creator = other.tokens[0].clone().unwrap();
    let early =
        ClientMessage::Move { game_id: other.game_id.clone(), token: creator.clone(), text: "d4".into(), ply: 0 };
    refused_unchanged(&mut server, &early, ErrorCode::NotStarted);
    let rematch = ClientMessage::Rematch { game_id: game_id.clone(), token: tokens[0].clone() };
    refused_unchanged(&mut server, &rematch, ErrorCode::NotOver);
    // Bad creations and joins.
    let create_msg = |game: &str, options: Value, seat: u8, clock: Option<Clock>| {
        ClientMessage::Create(NewGame { options, seat, clock, allow_tools: true, ..NewGame::of(game) })
    };
    let why = refused_unchanged(&mut server, &create_msg("chess", Value::Null, 0, None), ErrorCode::UnknownGameKind);
    assert!(why.contains("trigon-3"), "names the games: {why}");
    refused_unchanged(&mut server, &create_msg("trike", json!({"size": 99}), 0, None), ErrorCode::BadOptions);
    refused_unchanged(&mut server, &create_msg("trike", json!({"colour": 1}), 0, None), ErrorCode::BadOptions);
    refused_unchanged(&mut server, &create_msg("trike", json!([1, 2]), 0, None), ErrorCode::BadOptions);
    refused_unchanged(
        &mut server,
        &create_msg("trigon", json!({"variant": "trigon-2"}), 0, None),
        ErrorCode::BadOptions,
    );
    refused_unchanged(&mut server, &create_msg("trike", Value::Null, 2, None), ErrorCode::BadSeat);
    let no_time = Some(Clock { minutes: 0, increment_s: 5 });
    refused_unchanged(&mut server, &create_msg("trike", Value::Null, 0, no_time), ErrorCode::BadClock);
    refused_unchanged(
        &mut server,
        &ClientMessage::Join { code: "ZZZZZZZZ".into(), request_id: None },
        ErrorCode::UnknownCode,
    );
    // Resignation, then everything a finished game refuses.
    let resign = ClientMessage::Resign { game_id: game_id.clone(), token: tokens[waiting].clone() };
    refused_unchanged(
        &mut server,
        &ClientMessage::Resign { game_id: game_id.clone(), token: other_token.clone() },
        ErrorCode::BadToken,
    );
    let snapshot = state(&send(server.service(), &resign));
    let winners = vec![mover as u8];
    assert_eq!(snapshot.outcome, Some(GameResult { winners, resigned: Some(waiting as u8), ..GameResult::default() }));
    assert_eq!(snapshot.to_move, None);
    refused_unchanged(&mut server, &resign, ErrorCode::GameOver);
    refused_unchanged(&mut server, &mv(&tokens[mover], "e5", ply), ErrorCode::GameOver);
    // A retry of a move played before the end is still answered alike.
    let reply = send(server.service(), &mv(&tokens[0], "d4", 0));
    assert_eq!(
        reply,
        vec![ServerMessage::Moved {
            game_id: game_id.clone(),
            ply: 0,
            text: "d4".into(),
            seat: 0,
            clock_ms: None,
            deadline_ms: None
        }]
    );
}

fn malformed_oversized_and_unknown_messages_are_refused_with_a_clear_error_and_change_nothing<S: TestStore>() {
    let (mut server, tokens, game_id, _) = trike_game::<S>("malformed", &["d4"]);
    let ok = encode_client(&ClientMessage::Move {
        game_id: game_id.clone(),
        token: tokens[1].clone(),
        text: "c3".into(),
        ply: 1,
    });
    let with = |edit: &dyn Fn(&mut serde_json::Map<String, Value>)| {
        let mut v: Value = serde_json::from_str(&ok).unwrap();
        edit(v.as_object_mut().unwrap());
        v.to_string()
    };
    let malformed = [
        String::new(),
        "{".into(),
        "null".into(),
        "[]".into(),
        "\"move\"".into(),
        "{}".into(),
        ok[..ok.len() - 1].to_string(),
        format!("{ok} {{}}"),
        with(&|m| drop(m.remove("version"))),
        with(&|m| drop(m.insert("version".into(), json!("1")))),
        with(&|m| drop(m.remove("type"))),
        with(&|m| drop(m.insert("type".into(), json!(7)))),
        with(&|m| drop(m.remove("ply"))),
        with(&|m| drop(m.insert("ply".into(), json!(-1)))),
        with(&|m| drop(m.insert("ply".into(), json!(1.5)))),
        with(&|m| drop(m.insert("ply".into(), json!(u64::MAX)))),
        with(&|m| drop(m.insert("text".into(), json!(["c3"])))),
        with(&|m| drop(m.insert("colour".into(), json!("black")))),
        format!("{}{}", "[".repeat(20_000), "]".repeat(20_000)),
        "\u{0}\u{1}\u{ff}".into(),
    ];
    for text in &malformed {
        refused_text_unchanged(&mut server, text, ErrorCode::Malformed);
    }
    let why = refused_text_unchanged(&mut server, &with(&|m| drop(m.remove("ply"))), ErrorCode::Malformed);
    assert!(why.contains("ply"), "names the field: {why}");
    let why = refused_text_unchanged(
        &mut server,
        &with(&|m| drop(m.insert("version".into(), json!(1)))),
        ErrorCode::UnsupportedVersion,
    );
    assert!(why.contains('1') && why.contains('2'), "{why}");
    let why = refused_text_unchanged(
        &mut server,
        &with(&|m| drop(m.insert("type".into(), json!("teleport")))),
        ErrorCode::UnknownType,
    );
    assert!(why.contains("teleport") && why.contains("move"), "names the known types: {why}");
    // The server's own types are not the client's.
    refused_text_unchanged(
        &mut server,
        &with(&|m| drop(m.insert("type".into(), json!("moved")))),
        ErrorCode::UnknownType,
    );
    // Over the message cap, even as valid JSON; a field over its cap.
    let huge = with(&|m| drop(m.insert("text".into(), json!("x".repeat(MAX_MESSAGE_BYTES)))));
    let why = refused_text_unchanged(&mut server, &huge, ErrorCode::TooLarge);
    assert!(why.contains("65536"), "{why}");
    refused_text_unchanged(&mut server, &" ".repeat(MAX_MESSAGE_BYTES + 1), ErrorCode::TooLarge);
    let long = with(&|m| drop(m.insert("text".into(), json!("c".repeat(MAX_FIELD_BYTES + 1)))));
    refused_text_unchanged(&mut server, &long, ErrorCode::TooLarge);
    // The valid message is still accepted afterwards: the refusals left the game as it was.
    let reply = server.service().handle_text(&ok);
    assert!(matches!(reply.messages[..], [ServerMessage::Moved { ply: 1, .. }]), "{reply:?}");
}

// ---- Retries, restarts, rematches ----

fn a_retried_move_is_answered_again_and_not_played_twice<S: TestStore>() {
    let (mut server, tokens, game_id, _) = trike_game::<S>("retry", &[]);
    let first = ClientMessage::Move { game_id: game_id.clone(), token: tokens[0].clone(), text: "D4".into(), ply: 0 };
    let reply = send(server.service(), &first);
    let moved = ServerMessage::Moved {
        game_id: game_id.clone(),
        ply: 0,
        text: "d4".into(),
        seat: 0,
        clock_ms: None,
        deadline_ms: None,
    };
    assert_eq!(reply, vec![moved.clone()], "the rules' own text");
    let before = server.dump();
    for _ in 0..3 {
        assert_eq!(send(server.service(), &first), vec![moved.clone()]);
    }
    // The same move in another spelling is the same move.
    let respelt =
        ClientMessage::Move { game_id: game_id.clone(), token: tokens[0].clone(), text: " d4 ".into(), ply: 0 };
    assert_eq!(send(server.service(), &respelt), vec![moved.clone()]);
    // After a restart too (the answer was lost with the connection).
    server.restart();
    assert_eq!(send(server.service(), &first), vec![moved]);
    assert_eq!(server.dump(), before, "nothing written by the retries");
    let stored = server.service().store().load_game(&game_id).unwrap().unwrap();
    assert_eq!(stored.moves, ["d4"]);
}

fn two_services_on_one_file_cannot_both_play_the_same_ply<S: TestStore>() {
    let (mut a, tokens, game_id, mut game) = trike_game::<S>("two-writers", &["d4"]);
    let mut b = Service::new(S::reopen(&a.db));
    // B reads the game (and keeps it in memory) before A's next move.
    state(&send(&mut b, &ClientMessage::Watch { game_id: game_id.clone() }));
    let by_a = ClientMessage::Move { game_id: game_id.clone(), token: tokens[1].clone(), text: "c3".into(), ply: 1 };
    assert!(matches!(send(a.service(), &by_a)[0], ServerMessage::Moved { .. }));
    // B's copy is stale: its append at the same ply is refused by the store, nothing written.
    let by_b = ClientMessage::Move { game_id: game_id.clone(), token: tokens[1].clone(), text: "e5".into(), ply: 1 };
    let before = a.dump();
    assert_eq!(refusal(&send(&mut b, &by_b)).0, ErrorCode::StalePly);
    assert_eq!(a.dump(), before);
    // B now replays from the store: A's move is a retry there, B's another move.
    assert_eq!(send(&mut b, &by_a), send(a.service(), &by_a));
    assert_eq!(refusal(&send(&mut b, &by_b)).0, ErrorCode::StalePly);
    game.play(game.parse_move("c3").unwrap()).unwrap();
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    let text = game.move_text(legal[0]);
    let next = ClientMessage::Move { game_id: game_id.clone(), token: tokens[0].clone(), text: text.clone(), ply: 2 };
    let reply = send(&mut b, &next);
    assert!(matches!(reply[0], ServerMessage::Moved { ply: 2, .. }), "{reply:?}");
    assert_eq!(b.store().load_game(&game_id).unwrap().unwrap().moves, ["d4", "c3", text.as_str()]);
}

fn a_rematch_swaps_the_seats_keeps_the_tokens_and_is_made_once<S: TestStore>() {
    let (mut server, tokens, game_id, _) = trike_game::<S>("rematch", &["d4", "c3"]);
    send(server.service(), &ClientMessage::Resign { game_id: game_id.clone(), token: tokens[0].clone() });
    let reply = send(server.service(), &ClientMessage::Rematch { game_id: game_id.clone(), token: tokens[0].clone() });
    let [ServerMessage::Rematched { game_id: new_id, rematch_of, seat }] = &reply[..] else { panic!("{reply:?}") };
    assert_eq!((rematch_of, *seat), (&game_id, 1));
    // The other seat, and a restart, find the same rematch.
    server.restart();
    let reply = send(server.service(), &ClientMessage::Rematch { game_id: game_id.clone(), token: tokens[1].clone() });
    assert_eq!(reply, vec![ServerMessage::Rematched { game_id: new_id.clone(), rematch_of: game_id.clone(), seat: 0 }]);
    let stranger = ClientMessage::Rematch { game_id: game_id.clone(), token: new_token().unwrap() };
    refused_unchanged(&mut server, &stranger, ErrorCode::BadToken);
    let snapshot = state(&send(server.service(), &ClientMessage::Watch { game_id: new_id.clone() }));
    assert_eq!((snapshot.rematch_of.as_ref(), snapshot.ply, snapshot.to_move), (Some(&game_id), 0, Some(0)));
    assert_eq!(snapshot.options, json!({"size": 7}));
    assert!(snapshot.players.iter().all(|p| p.taken));
    let old = state(&send(server.service(), &ClientMessage::Watch { game_id: game_id.clone() }));
    assert_eq!(old.rematch.as_ref(), Some(new_id));
    // The old second seat moves first now, with its old token.
    let first = ClientMessage::Move { game_id: new_id.clone(), token: tokens[1].clone(), text: "d4".into(), ply: 0 };
    assert!(matches!(send(server.service(), &first)[0], ServerMessage::Moved { seat: 0, .. }));
    // A token lists its games, oldest first.
    for token in &tokens {
        assert_eq!(server.service().store().games_of_token(token).unwrap(), vec![game_id.clone(), new_id.clone()]);
    }
}

fn the_cache_evicts_and_replays_games_from_the_store<S: TestStore>() {
    // One room in memory for two interleaved games: every message replays from the store.
    let mut service = Service::with_capacity(S::fresh("cache", false).0, 1);
    let a = create_full(&mut service, "trike", json!({"size": 5}), 0);
    let b = create_full(&mut service, "trike", json!({"size": 5}), 1);
    let start = Trike::new(&TrikeOptions { size: 5 }).unwrap();
    let mut games = [(a, start.clone()), (b, start)];
    let mut rng = rng_from_seed(7);
    let mut buf = Vec::new();
    while games.iter().any(|(_, g)| g.to_move().is_some()) {
        for (created, game) in &mut games {
            let Some(mover) = game.to_move() else { continue };
            game.legal_moves(&mut buf);
            let mv = buf[random_index(&mut rng, buf.len())];
            let message = ClientMessage::Move {
                game_id: created.game_id.clone(),
                token: created.tokens[mover.index()].clone().unwrap(),
                text: game.move_text(mv),
                ply: game.ply() as u32,
            };
            assert!(matches!(send(&mut service, &message)[..], [ServerMessage::Moved { .. }]));
            game.play(mv).unwrap();
        }
    }
    for (created, game) in &games {
        let snapshot = state(&send(
            &mut service,
            &ClientMessage::Sync { game_id: created.game_id.clone(), since_ply: 2, token: None },
        ));
        assert_eq!((snapshot.since_ply, snapshot.ply as usize), (2, game.ply()));
        assert_eq!(snapshot.moves.len(), game.ply() - 2);
        assert!(snapshot.outcome.is_some());
    }
}

// ---- The store ----

fn the_store_refuses_duplicate_and_out_of_order_appends_atomically<S: TestStore>() {
    let (mut store, _db) = S::fresh("refuses", false);
    let setup = GameSetup {
        id: "g1".into(),
        game: "trike".into(),
        options: json!({"size": 7}),
        clock: Some(Clock { minutes: 5, increment_s: 3 }),
        days_per_move: None,
        allow_tools: true,
        code: "ABCDEFGH".into(),
        seats: vec![Some("t0".into()), None],
        rematch_of: None,
        players: vec![None, None],
        rated: false,
        lobby: false,
        request: None,
    };
    store.create_game(&setup, 0).unwrap();
    assert!(matches!(store.create_game(&setup, 0), Err(StoreError::Conflict(_))), "the id is in use");
    let same_code = GameSetup { id: "g2".into(), ..setup.clone() };
    assert!(matches!(store.create_game(&same_code, 0), Err(StoreError::Conflict(_))), "the code is in use");
    assert_eq!(store.game_of_code("ABCDEFGH").unwrap(), Some("g1".into()));
    let texts = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    store.append_moves("g1", 0, &texts(&["d4", "c3"]), 0).unwrap();
    assert!(matches!(store.append_moves("g1", 0, &texts(&["d4"]), 0), Err(StoreError::Conflict(_))), "a duplicate");
    assert!(matches!(store.append_moves("g1", 3, &texts(&["e5"]), 0), Err(StoreError::Conflict(_))), "a gap");
    assert_eq!(store.append_moves("nope", 0, &texts(&["e5"]), 0), Err(StoreError::NotFound));
    let seat = |seat: u8, token| NewSeat { seat, token, account: None, request: None };
    store.add_seat("g1", seat(1, "t1"), 0).unwrap();
    assert!(matches!(store.add_seat("g1", seat(1, "t2"), 0), Err(StoreError::Conflict(_))), "taken");
    assert!(matches!(store.add_seat("g1", seat(2, "t2"), 0), Err(StoreError::Conflict(_))), "no such seat");
    store.resign("g1", 1).unwrap();
    assert!(matches!(store.resign("g1", 0), Err(StoreError::Conflict(_))));
    assert!(matches!(store.append_moves("g1", 2, &texts(&["e5"]), 0), Err(StoreError::Conflict(_))), "over");
    let game = store.load_game("g1").unwrap().unwrap();
    let seated = GameSetup { seats: vec![Some("t0".into()), Some("t1".into())], ..setup.clone() };
    assert_eq!((game.setup, game.moves, game.resigned, game.rematch), (seated, texts(&["d4", "c3"]), Some(1), None));
    assert_eq!(store.load_game("nope").unwrap(), None);
    let rematch = GameSetup { id: "g3".into(), code: "JKMNPQRS".into(), ..setup };
    store.create_rematch("g1", &rematch, 0).unwrap();
    assert!(matches!(
        store.create_rematch("g1", &GameSetup { id: "g4".into(), code: "X".into(), ..rematch.clone() }, 0),
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(store.load_game("g1").unwrap().unwrap().rematch, Some("g3".into()));
    assert_eq!(store.load_game("g3").unwrap().unwrap().setup.rematch_of, Some("g1".into()));
    assert_eq!(store.load_game("g4").unwrap(), None, "a refused rematch wrote nothing");
    assert_eq!(store.games_of_token("t0").unwrap(), ["g1", "g3"]);
}

#[test]
fn the_database_file_uses_a_write_ahead_log_and_refuses_another_schema() {
    let db = temp_db("schema");
    drop(SqliteStore::open(&db.0).unwrap());
    let conn = rusqlite::Connection::open(&db.0).unwrap();
    let mode: String = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0)).unwrap();
    assert_eq!(mode, "wal");
    let version: i64 = conn.query_row("SELECT version FROM schema_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, triboard::server::schema::SCHEMA_VERSION);
    drop(SqliteStore::open(&db.0).unwrap());
    conn.execute("UPDATE schema_version SET version = 99", []).unwrap();
    let err = SqliteStore::open(&db.0).unwrap_err();
    assert!(err.to_string().contains("newer"), "{err}");
    let other = temp_db("not-ours");
    rusqlite::Connection::open(&other.0).unwrap().execute("CREATE TABLE notes (text TEXT)", []).unwrap();
    let err = SqliteStore::open(&other.0).unwrap_err();
    assert!(err.to_string().contains("not a triboard"), "{err}");
}

// ---- The protocol ----

#[test]
fn messages_have_a_stable_versioned_wire_form() {
    assert_eq!(PROTOCOL_VERSION, 3);
    let message = ClientMessage::Move { game_id: "g".into(), token: "t".into(), text: "c3".into(), ply: 4 };
    assert_eq!(encode_client(&message), r#"{"version":3,"type":"move","game_id":"g","token":"t","text":"c3","ply":4}"#);
    let create = decode_client(r#"{"version":2,"type":"create","game":"trike","seat":0}"#).unwrap();
    assert_eq!(create, ClientMessage::Create(NewGame::of("trike")));
    // A create's fields are the message's own, beside its type, as before `NewGame` was a struct:
    // every one written, the seat required, an unknown one refused with its name.
    let rated = ClientMessage::Create(NewGame { rated: true, ..NewGame::of("trike") });
    assert_eq!(
        encode_client(&rated),
        r#"{"version":3,"type":"create","game":"trike","options":null,"seat":0,"clock":null,"allow_tools":false,"rated":true,"lobby":false,"bots":[],"request_id":null}"#
    );
    assert_eq!(decode_client(&encode_client(&rated)), Ok(rated));
    let seatless = decode_client(r#"{"version":2,"type":"create","game":"trike"}"#).unwrap_err();
    assert!(seatless.message.contains("seat"), "{seatless:?}");
    let unknown = decode_client(r#"{"version":2,"type":"create","game":"trike","seat":0,"colour":1}"#).unwrap_err();
    assert!(unknown.message.contains("colour"), "{unknown:?}");
    let error = ServerMessage::Error {
        code: ErrorCode::IllegalMove,
        message: "c3 is taken".into(),
        game_id: Some("g1".into()),
        request_id: None,
    };
    assert_eq!(
        encode_server(&error),
        r#"{"version":3,"type":"error","code":"illegal_move","message":"c3 is taken","game_id":"g1"}"#
    );
    // Version 2's error, without the game and the request, still reads.
    let old = decode_server(r#"{"version":2,"type":"error","code":"illegal_move","message":"c3 is taken"}"#);
    let read = ServerMessage::Error {
        code: ErrorCode::IllegalMove,
        message: "c3 is taken".into(),
        game_id: None,
        request_id: None,
    };
    assert_eq!(old, Ok(read));
    // Every type is listed, and every error code is sent as it names itself.
    let clients = [
        create,
        ClientMessage::Join { code: "c".into(), request_id: None },
        message,
        ClientMessage::Resign { game_id: "g".into(), token: "t".into() },
        ClientMessage::Rematch { game_id: "g".into(), token: "t".into() },
        ClientMessage::Watch { game_id: "g".into() },
        ClientMessage::Sync { game_id: "g".into(), since_ply: 0, token: None },
        ClientMessage::Accept { game_id: "g".into(), request_id: Some("r".into()) },
        ClientMessage::Seek { game: "trike".into(), options: Value::Null, clock: None, rated: true, request_id: None },
        ClientMessage::Withdraw { game_id: "g".into(), token: "t".into() },
        ClientMessage::Signup { name: "ann".into(), password: "p".into(), claim: vec!["t".into()] },
        ClientMessage::Login { name: "ann".into(), password: "p".into(), claim: Vec::new() },
        ClientMessage::Resume { session: "s".into(), claim: Vec::new() },
        ClientMessage::Logout { session: "s".into() },
        ClientMessage::Lobby {},
        ClientMessage::Leaderboard { game: "trike".into() },
        ClientMessage::Profile { name: "ann".into() },
        ClientMessage::Hello { client: "c".into() },
    ];
    let types: Vec<String> = clients.iter().map(|m| type_of(&encode_client(m))).collect();
    assert_eq!(types, ClientMessage::TYPES);
    // A result says `withdrawn` only when the game was (the creator's open challenge, withdrawn
    // before anybody joined: over and unrated); a result without it reads as not withdrawn.
    let resigned = GameResult { winners: vec![1], resigned: Some(0), ..GameResult::default() };
    assert_eq!(serde_json::to_string(&resigned).unwrap(), r#"{"winners":[1],"scores":[],"resigned":0,"flagged":null}"#);
    let withdrawn = GameResult { withdrawn: true, ..GameResult::default() };
    let text = serde_json::to_string(&withdrawn).unwrap();
    assert_eq!(text, r#"{"winners":[],"scores":[],"resigned":null,"flagged":null,"withdrawn":true}"#);
    assert_eq!(serde_json::from_str::<GameResult>(&text).unwrap(), withdrawn);
    for code in ErrorCode::ALL {
        assert_eq!(serde_json::to_value(code).unwrap(), json!(code.as_str()));
    }
    let servers = [
        ServerMessage::Created { game_id: "g".into(), code: "c".into(), seat: 0, token: "t".into() },
        ServerMessage::Joined { game_id: "g".into(), seat: 1, token: "t".into() },
        ServerMessage::State(Snapshot {
            game_id: "g".into(),
            game: "trike".into(),
            options: json!({"size": 7}),
            since_ply: 0,
            moves: vec!["d4".into()],
            ply: 1,
            players: Vec::new(),
            to_move: Some(1),
            outcome: None,
            clock: Some(Clock { minutes: 3, increment_s: 2 }),
            clock_ms: Some(vec![180_000, 179_500]),
            clock_started: true,
            allow_tools: false,
            rated: true,
            rematch: None,
            rematch_of: None,
            ..Snapshot::default()
        }),
        ServerMessage::Moved {
            game_id: "g".into(),
            ply: 0,
            text: "d4".into(),
            seat: 0,
            clock_ms: None,
            deadline_ms: None,
        },
        ServerMessage::Presence { game_id: "g".into(), online: vec![true, false] },
        ServerMessage::Rematched { game_id: "h".into(), rematch_of: "g".into(), seat: 1 },
        error,
        ServerMessage::SignedIn { name: "ann".into(), session: "s".into(), claimed: 1 },
        ServerMessage::SignedOut {},
        ServerMessage::Lobby(LobbyView { challenges: Vec::new(), live: Vec::new(), bots: Vec::new(), online: 1 }),
        ServerMessage::Leaderboard { game: "trike".into(), rows: Vec::new() },
        ServerMessage::Profile(ProfileView {
            name: "ann".into(),
            bot: false,
            created_ms: 0,
            ratings: Vec::new(),
            games: Vec::new(),
        }),
        ServerMessage::Rated { game_id: "g".into(), changes: Vec::new() },
    ];
    let types: Vec<String> = servers.iter().map(|m| type_of(&encode_server(m))).collect();
    assert_eq!(types, ServerMessage::TYPES);
    for m in &servers {
        assert_eq!(decode_server(&encode_server(m)).as_ref(), Ok(m));
    }
}

fn type_of(text: &str) -> String {
    let v: Value = serde_json::from_str(text).unwrap();
    assert_eq!(v["version"], json!(3), "{text}");
    v["type"].as_str().unwrap().to_string()
}

#[test]
fn tokens_and_join_codes_are_random_and_unambiguous() {
    let tokens: std::collections::HashSet<String> = (0..200).map(|_| new_token().unwrap()).collect();
    assert_eq!(tokens.len(), 200);
    let codes: Vec<String> = (0..200).map(|_| new_code().unwrap()).collect();
    for code in &codes {
        assert_eq!(code.len(), CODE_LENGTH);
        assert!(code.bytes().all(|b| CODE_ALPHABET.contains(&b)), "{code}");
        assert!(!code.contains(['0', 'O', '1', 'I', 'L']));
    }
    assert!(codes.iter().collect::<std::collections::HashSet<_>>().len() > 195);
    assert_eq!(normalize_code(" abcd-efgh "), "ABCDEFGH");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// No text makes the service panic: what it cannot read is refused with one error.
    #[test]
    fn any_text_is_answered_without_a_panic(text in ".{0,300}") {
        let mut service = Service::new(SqliteStore::open_in_memory().unwrap());
        let reply = service.handle_text(&text);
        prop_assert!(reply.error().is_some());
    }

    /// No move text makes the service panic, in any game: it is played or refused.
    #[test]
    fn any_move_text_is_played_or_refused(text in "[a-zA-Z0-9:,;+ -]{0,40}", game in 0usize..7) {
        let ids = triboard::rules::game_ids();
        let mut service = Service::new(SqliteStore::open_in_memory().unwrap());
        let created = create_full(&mut service, ids[game % ids.len()], Value::Null, 0);
        let snapshot = state(&send(&mut service, &ClientMessage::Watch { game_id: created.game_id.clone() }));
        let mover = usize::from(snapshot.to_move.unwrap());
        let message = ClientMessage::Move {
            game_id: created.game_id,
            token: created.tokens[mover].clone().unwrap(),
            text,
            ply: 0,
        };
        let reply = service.handle(message);
        match reply.error() {
            Some((code, _)) => prop_assert_eq!(code, ErrorCode::IllegalMove),
            None => {
                let moved = matches!(reply.messages[0], ServerMessage::Moved { ply: 0, .. });
                prop_assert!(moved);
            }
        }
    }
}

// ---- Clocks, with an injected time ----

/// A live Trike game (size 7, one minute plus two seconds a move) created at `t0` ms; seat 0 is
/// the creator's. Returns the game id, the tokens and the creation's snapshot.
fn live_game<S: Store>(service: &mut Service<S>, t0: u64) -> (String, Vec<String>, Snapshot) {
    let clock = Some(Clock { minutes: 1, increment_s: 2 });
    let create = ClientMessage::Create(NewGame { options: json!({"size": 7}), clock, ..NewGame::of("trike") });
    let reply = service.handle_at(create, t0);
    let ServerMessage::Created { game_id, code, token, .. } = &reply.messages[0] else { panic!("{reply:?}") };
    let (game_id, code, token) = (game_id.clone(), code.clone(), token.clone());
    let created = state(&reply.messages);
    let reply = service.handle_at(ClientMessage::Join { code, request_id: None }, t0 + 9000);
    let ServerMessage::Joined { token: joiner, .. } = &reply.messages[0] else { panic!("{reply:?}") };
    (game_id, vec![token, joiner.clone()], created)
}

fn clock_of(reply: &triboard::server::Reply) -> Option<Vec<u64>> {
    match reply.messages.last() {
        Some(ServerMessage::State(s)) => s.clock_ms.clone(),
        Some(ServerMessage::Moved { clock_ms, .. }) => clock_ms.clone(),
        other => panic!("{other:?}"),
    }
}

fn clocks_start_when_the_last_seat_joins_and_each_move_costs_its_time_and_adds_the_increment<S: TestStore>() {
    let mut service = Service::new(S::fresh("clocks", false).0);
    let (game_id, tokens, created) = live_game(&mut service, 1000);
    assert_eq!(created.clock_ms, Some(vec![60_000, 60_000]), "a full minute each before the start");
    let watch = || ClientMessage::Watch { game_id: game_id.clone() };
    // Joined at 10 000: seat 0's first move is due within FIRST_MOVE_MS, its clock still whole.
    assert_eq!(clock_of(&service.handle_at(watch(), 15_000)), Some(vec![60_000, 60_000]));
    assert_eq!(service.next_deadline(), Some(10_000 + FIRST_MOVE_MS));
    let mv = |token: &str, text: &str, ply| ClientMessage::Move {
        game_id: game_id.clone(),
        token: token.into(),
        text: text.into(),
        ply,
    };
    // The first moves cost nothing and add nothing; the clocks run after them.
    let reply = service.handle_at(mv(&tokens[0], "d4", 0), 20_000);
    assert_eq!(clock_of(&reply), Some(vec![60_000, 60_000]), "a first move is not on the clock");
    let broadcast = reply.broadcast.expect("the move is broadcast");
    assert!(matches!(&broadcast.messages[0], ServerMessage::Moved { clock_ms: Some(c), .. } if c == &[60_000, 60_000]));
    assert_eq!(clock_of(&service.handle_at(mv(&tokens[1], "c3", 1), 25_000)), Some(vec![60_000, 60_000]));
    assert_eq!(clock_of(&service.handle_at(watch(), 30_000)), Some(vec![55_000, 60_000]));
    let reply = service.handle_at(mv(&tokens[0], "c4", 2), 35_000);
    assert_eq!(clock_of(&reply), Some(vec![52_000, 60_000]), "10 s spent, 2 s added");
    assert_eq!(clock_of(&service.handle_at(watch(), 36_000)), Some(vec![52_000, 59_000]));
    let reply = service.handle_at(mv(&tokens[1], "b3", 3), 65_000);
    assert_eq!(clock_of(&reply), Some(vec![52_000, 32_000]));
    // A retry is answered with the clocks of the first answer.
    assert_eq!(clock_of(&service.handle_at(mv(&tokens[1], "b3", 3), 70_000)), Some(vec![52_000, 32_000]));
    assert_eq!(service.next_deadline(), Some(65_000 + 52_000));
    // Correspondence games have no clocks.
    let Created { game_id: mail, .. } = create_full(&mut service, "trike", Value::Null, 0);
    let snapshot = state(&service.handle_at(ClientMessage::Watch { game_id: mail }, 99_000).messages);
    assert_eq!((snapshot.clock, snapshot.clock_ms), (None, None));
}

fn a_rematchs_clocks_wait_until_every_player_is_back_at_its_board<S: TestStore>() {
    let mut server = Server::<S>::on_file("rematch-clocks");
    let (game_id, tokens, _) = live_game(server.service(), 0);
    let resign = ClientMessage::Resign { game_id: game_id.clone(), token: tokens[0].clone() };
    assert!(server.service().handle_at(resign, 10_000).error().is_none());
    // Seat 0 asks for the rematch at 20 s and comes to its board: nothing runs yet.
    let ask = |token: &str| ClientMessage::Rematch { game_id: game_id.clone(), token: token.into() };
    let reply = server.service().handle_at(ask(&tokens[0]), 20_000);
    let [ServerMessage::Rematched { game_id: rematch, .. }] = &reply.messages[..] else { panic!("{reply:?}") };
    let rematch = rematch.clone();
    let sync = |token: &str| ClientMessage::Sync { game_id: rematch.clone(), since_ply: 0, token: Some(token.into()) };
    let reply = server.service().handle_at(sync(&tokens[0]), 20_100);
    let waiting = state(&reply.messages);
    assert!(!waiting.clock_started && reply.broadcast.is_none(), "{waiting:?}");
    assert!(waiting.players.iter().all(|p| p.taken), "both seats are the players'");
    assert_eq!(server.service().next_deadline(), None, "no clock runs");
    // A restart forgets who came; the other player accepts at 80 s, past a whole minute.
    server.restart();
    server.service().handle_at(ask(&tokens[1]), 80_000);
    let reply = server.service().handle_at(sync(&tokens[1]), 80_100);
    assert!(!state(&reply.messages).clock_started, "seat 0 has not synced since the restart");
    let reply = server.service().handle_at(sync(&tokens[0]), 81_000);
    let started = state(&reply.messages);
    assert!(started.clock_started);
    assert_eq!(started.clock_ms, Some(vec![60_000, 60_000]), "a whole minute each at the start");
    let broadcast = reply.broadcast.expect("the start is broadcast to the other player");
    assert!(matches!(&broadcast.messages[..], [ServerMessage::State(s)] if s.clock_started));
    assert_eq!(server.service().next_deadline(), Some(81_000 + FIRST_MOVE_MS), "the opener's first move from then");
    // Stored: a restart finds it running (the first move's timer, the clocks whole until it).
    server.restart();
    assert_eq!(server.service().resume_clocks(), Ok(1));
    assert_eq!(server.service().next_deadline(), Some(81_000 + FIRST_MOVE_MS));
    let watch = ClientMessage::Watch { game_id: rematch.clone() };
    assert_eq!(clock_of(&server.service().handle_at(watch, 91_000)), Some(vec![60_000, 60_000]));
}

fn a_flag_ends_the_game_by_the_sweep_or_by_a_late_move_and_survives_a_restart<S: TestStore>() {
    let mut server = Server::<S>::on_file("flags");
    let (swept, swept_tokens, _) = live_game(server.service(), 0);
    let (other, _, _) = live_game(server.service(), 0);
    // Both started at 9000: seat 0's minute runs out at 69 000.
    assert!(server.service().sweep(68_999).is_empty());
    let flagged = server.service().sweep(69_000);
    assert_eq!(flagged.len(), 2);
    assert!(flagged.iter().any(|b| b.game_id == other));
    let broadcast = flagged.iter().find(|b| b.game_id == swept).expect("the swept game is announced");
    let [ServerMessage::State(end)] = &broadcast.messages[..] else { panic!("{broadcast:?}") };
    let result = end.outcome.clone().expect("over");
    // Seat 0's first move did not come within FIRST_MOVE_MS (= its minute here): aborted, no
    // winner, its clock never ran.
    assert_eq!((result.flagged, result.winners, result.aborted, end.to_move), (Some(0), vec![], true, None));
    assert_eq!(end.clock_ms, Some(vec![60_000, 60_000]));
    assert!(server.service().sweep(70_000).is_empty(), "announced once");
    let mv = |game_id: &str, token: &str| ClientMessage::Move {
        game_id: game_id.into(),
        token: token.into(),
        text: "d4".into(),
        ply: 0,
    };
    let reply = server.service().handle_at(mv(&swept, &swept_tokens[0]), 70_000);
    let (code, why) = reply.error().expect("refused");
    assert_eq!(code, ErrorCode::GameOver);
    assert!(why.contains("time ran out"), "{why}");
    // A move arriving after its mover's time ran out, before any sweep: refused, the game flagged.
    let mut server = Server::<S>::on_file("late");
    let (late, late_tokens, _) = live_game(server.service(), 0);
    let reply = server.service().handle_at(mv(&late, &late_tokens[0]), 69_001);
    let [ServerMessage::State(end), ServerMessage::Error { code: ErrorCode::GameOver, .. }] = &reply.messages[..]
    else {
        panic!("{reply:?}")
    };
    assert_eq!(end.outcome.as_ref().and_then(|o| o.flagged), Some(0));
    let broadcast = reply.broadcast.expect("the end is broadcast");
    assert!(matches!(&broadcast.messages[0], ServerMessage::State(s) if s.outcome.is_some()));
    assert!(server.service().store().load_game(&late).unwrap().unwrap().moves.is_empty(), "nothing stored");
    // The flag is stored: after a restart the game is still over the same way.
    server.restart();
    let snapshot = state(&server.service().handle_at(ClientMessage::Watch { game_id: late.clone() }, 100_000).messages);
    assert_eq!(snapshot.outcome.and_then(|o| o.flagged), Some(0));
    assert_eq!(snapshot.clock_ms, Some(vec![60_000, 60_000]));
}

fn after_a_restart_the_running_clocks_are_found_and_still_flag<S: TestStore>() {
    let mut server = Server::<S>::on_file("resume");
    let (game_id, tokens, _) = live_game(server.service(), 0);
    let reply = server.service().handle_at(
        ClientMessage::Move { game_id: game_id.clone(), token: tokens[0].clone(), text: "d4".into(), ply: 0 },
        12_000,
    );
    assert_eq!(clock_of(&reply), Some(vec![60_000, 60_000]), "a first move costs no clock time");
    let reply = server.service().handle_at(
        ClientMessage::Move { game_id: game_id.clone(), token: tokens[1].clone(), text: "c3".into(), ply: 1 },
        13_000,
    );
    assert_eq!(clock_of(&reply), Some(vec![60_000, 60_000]));
    server.restart();
    assert_eq!(server.service().resume_clocks(), Ok(1));
    assert_eq!(server.service().next_deadline(), Some(73_000), "seat 0's minute from the stored move's time");
    assert!(server.service().sweep(72_999).is_empty());
    let flagged = server.service().sweep(73_000);
    assert_eq!(flagged.len(), 1);
    let [ServerMessage::State(end)] = &flagged[0].messages[..] else { panic!("{flagged:?}") };
    let result = end.outcome.clone().expect("over");
    assert_eq!((result.flagged, result.winners, result.aborted), (Some(0), vec![1], false), "a loss on time");
    assert_eq!(server.service().resume_clocks(), Ok(0), "a flagged game's clocks have stopped");
}

#[test]
fn a_version_1_database_is_migrated_with_its_games_and_moves() {
    let db = temp_db("v1");
    let conn = rusqlite::Connection::open(&db.0).unwrap();
    conn.execute_batch(
        "CREATE TABLE schema_version (version INTEGER NOT NULL);
         INSERT INTO schema_version (version) VALUES (1);
         CREATE TABLE games (id TEXT PRIMARY KEY NOT NULL, game TEXT NOT NULL, options TEXT NOT NULL,
             seats INTEGER NOT NULL, clock_minutes INTEGER, clock_increment_s INTEGER,
             allow_tools INTEGER NOT NULL, code TEXT NOT NULL UNIQUE, resigned INTEGER, rematch TEXT,
             rematch_of TEXT);
         CREATE TABLE seats (game_id TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
             token TEXT NOT NULL, PRIMARY KEY (game_id, seat)) WITHOUT ROWID;
         CREATE INDEX seats_by_token ON seats(token);
         CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
             text TEXT NOT NULL, PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
         INSERT INTO games VALUES ('g1', 'trike', '{\"size\":7}', 2, 5, 0, 0, 'ABCDEFGH', NULL, NULL, NULL);
         INSERT INTO seats VALUES ('g1', 0, 't0'), ('g1', 1, 't1');
         INSERT INTO moves VALUES ('g1', 0, 'd4'), ('g1', 1, 'c3');",
    )
    .unwrap();
    drop(conn);
    let before = triboard::server::store::now_ms();
    let mut service = Service::new(SqliteStore::open(&db.0).unwrap());
    let version: i64 = rusqlite::Connection::open(&db.0)
        .unwrap()
        .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 5, "version 1 is migrated to 2, then 3, then 4, then 5");
    let game = service.store().load_game("g1").unwrap().unwrap();
    assert_eq!(game.moves, ["d4", "c3"]);
    assert!(game.move_ms.iter().all(|&ms| ms >= before), "the clocks start again at the migration");
    assert!(game.started_ms.is_some_and(|ms| ms >= before));
    let snapshot = state(&send(&mut service, &ClientMessage::Watch { game_id: "g1".into() }));
    let left = snapshot.clock_ms.unwrap();
    assert_eq!(left[1], 300_000);
    assert!(left[0] <= 300_000 && left[0] > 290_000, "{left:?}");
    assert_eq!(service.resume_clocks(), Ok(1));
}

// ---- Moving an SQLite server into PostgreSQL ----

/// Signs `name` up at `at_ms`: its caller (its account) and its session.
fn sign_up<S: Store>(service: &mut Service<S>, name: &str, at_ms: u64) -> (Caller, String) {
    let signup = ClientMessage::Signup { name: name.into(), password: format!("{name} secret pw"), claim: Vec::new() };
    let reply = service.handle_as(signup, &Caller::default(), at_ms);
    let Some(Some(account)) = reply.account else { panic!("{reply:?}") };
    let ServerMessage::SignedIn { session, .. } = &reply.messages[0] else { panic!("{reply:?}") };
    (Caller { account: Some(account), ..Caller::default() }, session.clone())
}

#[test]
fn an_sqlite_servers_games_accounts_and_ratings_move_into_postgresql_whole_and_once() {
    if !db::postgres_here() {
        return;
    }
    // On SQLite: whole games, a live one half played, a rematch, an open challenge, accounts with
    // sessions, and rated games that moved their ratings.
    let mut server = Server::<SqliteStore>::on_file("migrate");
    play_whole_game::<Trike, SqliteStore>(&mut server, "trike", 1, None);
    let (live, live_tokens, _) = live_game(server.service(), 1000);
    let d4 = ClientMessage::Move { game_id: live.clone(), token: live_tokens[0].clone(), text: "d4".into(), ply: 0 };
    assert!(server.service().handle_at(d4, 12_000).error().is_none());
    let (ann, ann_session) = sign_up(server.service(), "Ann", 2000);
    let (bob, _) = sign_up(server.service(), "Bob", 2100);
    let rated = |lobby, at: u64| {
        ClientMessage::Create(NewGame {
            rated: true,
            lobby,
            request_id: Some(triboard::server::passwords::session_hash(&format!("ann-{at}"))[..32].to_string()),
            ..NewGame::of("trike")
        })
    };
    let mut rated_games = Vec::new();
    for at in [3000, 4000] {
        let reply = server.service().handle_as(rated(true, at), &ann, at);
        let ServerMessage::Created { game_id, token, .. } = &reply.messages[0] else { panic!("{reply:?}") };
        let accept = ClientMessage::Accept { game_id: game_id.clone(), request_id: None };
        let accepted = server.service().handle_as(accept, &bob, at + 10);
        let ServerMessage::Joined { token: bob_token, .. } = &accepted.messages[0] else { panic!("{accepted:?}") };
        // Each moves (else the resignation aborts it, unrated).
        for (ply, (who, text)) in [(token, "d4"), (bob_token, "swap")].into_iter().enumerate() {
            let mv = ClientMessage::Move {
                game_id: game_id.clone(),
                token: who.clone(),
                text: text.into(),
                ply: ply as u32,
            };
            assert!(server.service().handle_at(mv, at + 15).error().is_none());
        }
        let resign = ClientMessage::Resign { game_id: game_id.clone(), token: token.clone() };
        assert!(server.service().handle_at(resign, at + 20).error().is_none());
        rated_games.push((game_id.clone(), token.clone()));
    }
    let rematch = ClientMessage::Rematch { game_id: rated_games[0].0.clone(), token: rated_games[0].1.clone() };
    assert!(server.service().handle_at(rematch, 5000).error().is_none());
    let open = server.service().handle_as(rated(false, 6000), &ann, 6000);
    assert!(open.error().is_none(), "{open:?}");
    let TestDb::File(file) = &server.db else { unreachable!() };
    let path = file.0.clone();
    drop(server.service.take());

    let url = triboard::server::throwaway_pg::test_database("migrate").unwrap();
    let report = triboard::server::migrate::copy_sqlite_into(&path, &url).unwrap();
    let sqlite = SqliteStore::open(&path).unwrap();
    let count = |table: &str| -> i64 {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0)).unwrap()
    };
    for (table, rows) in &report.rows {
        assert_eq!(*rows as i64, count(table), "{table}: {report}");
    }
    assert_eq!(report.rows.iter().find(|(t, _)| *t == "games").map(|r| r.1), Some(6), "{report}");
    assert!(report.rows.iter().all(|(_, n)| *n > 0), "every table had rows: {report}");

    // On PostgreSQL, the same games, accounts, sessions, ratings and lists.
    let mut pg = PgStore::connect(&url).unwrap();
    let conn = rusqlite::Connection::open(&path).unwrap();
    let mut query = conn.prepare("SELECT id FROM games ORDER BY rowid").unwrap();
    let ids: Vec<String> = query.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    for id in &ids {
        assert_eq!(pg.load_game(id).unwrap(), sqlite.load_game(id).unwrap(), "game {id}");
    }
    for account in [ann.account.unwrap(), bob.account.unwrap()] {
        assert_eq!(pg.account_by_id(account).unwrap(), sqlite.account_by_id(account).unwrap());
        assert_eq!(pg.ratings_of(account).unwrap(), sqlite.ratings_of(account).unwrap());
        assert_eq!(pg.games_of_account(account, 10).unwrap(), sqlite.games_of_account(account, 10).unwrap());
        assert_eq!(pg.running_seats(account).unwrap(), sqlite.running_seats(account).unwrap());
    }
    for (game_id, _) in &rated_games {
        assert_eq!(pg.rating_changes(game_id).unwrap(), sqlite.rating_changes(game_id).unwrap());
    }
    assert_eq!(pg.leaderboard("trike", 10).unwrap(), sqlite.leaderboard("trike", 10).unwrap());
    assert_eq!(pg.open_games(10).unwrap(), sqlite.open_games(10).unwrap());
    assert_eq!(pg.live_games(10).unwrap(), sqlite.live_games(10).unwrap());
    assert_eq!(pg.clocked_games().unwrap(), sqlite.clocked_games().unwrap());
    // The request id as stored: its hash, with who asked and for what.
    let id = triboard::server::passwords::session_hash(&triboard::server::passwords::session_hash("ann-3000")[..32]);
    let request = pg.seat_of_request(&id).unwrap();
    assert!(request.as_ref().is_some_and(|r| r.of.is_some()), "{request:?}");
    assert_eq!(request, sqlite.seat_of_request(&id).unwrap());
    let session = triboard::server::passwords::session_hash(&ann_session);
    assert_eq!(pg.session_account(&session).unwrap(), ann.account, "Ann is still signed in");
    let missing = triboard::server::migrate::copy_sqlite_into(&path.with_extension("nope"), &url);
    assert!(matches!(missing, Err(StoreError::Failed(_))), "{missing:?}");
    // A second copy is refused, and changes nothing.
    let before = db::pg_dump(&url, db::ALL_TABLES);
    let again = triboard::server::migrate::copy_sqlite_into(&path, &url);
    assert!(matches!(again, Err(StoreError::Conflict(_))), "{again:?}");
    assert_eq!(db::pg_dump(&url, db::ALL_TABLES), before);
    // New accounts and games come after the copied ones.
    let cyd = pg.create_account("Cyd", "cyd", "$argon2id$x", false, 7000).unwrap();
    assert_eq!(cyd, bob.account.unwrap() + 1);
    let mut service = Service::new(pg);
    let made = create_full(&mut service, "trike", Value::Null, 0);
    assert_eq!(service.store().live_games(1).unwrap(), [made.game_id], "the newest game first");
    let resumed = ClientMessage::Resume { session: ann_session, claim: Vec::new() };
    assert_eq!(service.handle_at(resumed, 8000).account, Some(ann.account));
}

/// A Trike correspondence game with `days` days a move, created at `t0` and joined 1 s later: its
/// id and both tokens.
fn correspondence<S: Store>(service: &mut Service<S>, days: u32, t0: u64) -> (String, Vec<String>) {
    let create = ClientMessage::Create(NewGame { days_per_move: Some(days), ..NewGame::of("trike") });
    let reply = service.handle_at(create, t0);
    let ServerMessage::Created { game_id, code, token, .. } = &reply.messages[0] else { panic!("{reply:?}") };
    let (game_id, code, token) = (game_id.clone(), code.clone(), token.clone());
    let reply = service.handle_at(ClientMessage::Join { code, request_id: None }, t0 + 1000);
    let ServerMessage::Joined { token: joiner, .. } = &reply.messages[0] else { panic!("{reply:?}") };
    let joined = state(&reply.messages);
    assert_eq!((joined.days_per_move, joined.deadline_ms), (Some(days), Some(t0 + 1000 + u64::from(days) * DAY_MS)));
    (game_id, vec![token, joiner.clone()])
}

fn a_correspondence_deadline_passed_while_the_server_was_down_flags_after_the_restart<S: TestStore>() {
    let mut server = Server::<S>::on_file("days");
    let (game_id, tokens) = correspondence(server.service(), 3, 0);
    let (aborted, _) = correspondence(server.service(), 1, 0);
    let bad = ClientMessage::Create(NewGame { days_per_move: Some(2), ..NewGame::of("trike") });
    assert_eq!(server.service().handle_at(bad, 0).error().map(|e| e.0), Some(ErrorCode::BadClock), "1, 3 or 7");
    let mv = |token: &str, text: &str, ply| ClientMessage::Move {
        game_id: game_id.clone(),
        token: token.into(),
        text: text.into(),
        ply,
    };
    // Each moves within its days; the last move at day 2.
    assert!(server.service().handle_at(mv(&tokens[0], "d4", 0), DAY_MS).error().is_none());
    let reply = server.service().handle_at(mv(&tokens[1], "swap", 1), 2 * DAY_MS);
    assert!(reply.error().is_none(), "{reply:?}");
    // The move carries the next mover's deadline, so a board keeps it without a new state.
    assert!(
        matches!(reply.messages.last(), Some(ServerMessage::Moved { deadline_ms: Some(d), .. }) if *d == 5 * DAY_MS),
        "{reply:?}"
    );
    let watch = |id: &str| ClientMessage::Watch { game_id: id.into() };
    let shown = state(&server.service().handle_at(watch(&game_id), 2 * DAY_MS + 5).messages);
    assert_eq!(shown.deadline_ms, Some(5 * DAY_MS), "3 days from the last move");
    // Down from day 2 to day 9: both deadlines pass meanwhile.
    server.restart();
    assert_eq!(server.service().resume_clocks(), Ok(2), "both games' deadlines are found again");
    assert_eq!(server.service().next_deadline(), Some(DAY_MS + 1000), "the unmoved game's first move");
    let ended = server.service().sweep(9 * DAY_MS);
    assert_eq!(ended.len(), 2);
    let outcome = |id: &str, server: &mut Server<S>| {
        state(&server.service().handle_at(watch(id), 9 * DAY_MS).messages).outcome.expect("over")
    };
    let flagged = outcome(&game_id, &mut server);
    assert_eq!((flagged.flagged, flagged.winners, flagged.aborted), (Some(0), vec![1], false), "seat 0's days ran out");
    let first = outcome(&aborted, &mut server);
    assert!(first.aborted && first.winners.is_empty(), "no first move within its day: aborted {first:?}");
}

// ---- Each test above that takes a store, on both ----

on_both_stores!(
    every_registered_game_plays_to_its_end_through_the_service_and_replays_from_the_store,
    a_restart_on_the_same_file_loses_no_acknowledged_move_in_any_game,
    a_stranger_a_move_out_of_turn_an_illegal_move_and_a_finished_game_are_refused_and_change_nothing,
    malformed_oversized_and_unknown_messages_are_refused_with_a_clear_error_and_change_nothing,
    a_retried_move_is_answered_again_and_not_played_twice,
    two_services_on_one_file_cannot_both_play_the_same_ply,
    a_rematch_swaps_the_seats_keeps_the_tokens_and_is_made_once,
    the_cache_evicts_and_replays_games_from_the_store,
    the_store_refuses_duplicate_and_out_of_order_appends_atomically,
    clocks_start_when_the_last_seat_joins_and_each_move_costs_its_time_and_adds_the_increment,
    a_rematchs_clocks_wait_until_every_player_is_back_at_its_board,
    a_flag_ends_the_game_by_the_sweep_or_by_a_late_move_and_survives_a_restart,
    after_a_restart_the_running_clocks_are_found_and_still_flag,
    a_correspondence_deadline_passed_while_the_server_was_down_flags_after_the_restart,
);
