//! Accounts, ratings and the lobby through the service (`docs/design.md` §Lobby): sign-up and
//! sign-in, rated challenges accepted from the lobby, ratings after two- and three-player games,
//! leaderboards and players' pages, request ids, withdrawals and the limits. Each test runs on
//! both stores, SQLite and PostgreSQL (`NAME::sqlite`, `NAME::postgres`: `on_both_stores!`).

#![cfg(feature = "server")]

#[macro_use]
#[path = "common/db.rs"]
mod db;

use serde_json::Value;
use triboard::net::position;
use triboard::net::protocol::{
    ClientMessage, Clock, ErrorCode, LobbyView, NewGame, OutHow, ProfileView, SeatOut, ServerMessage,
};
use triboard::rules::rng_from_seed;
use triboard::server::clock::FIRST_MOVE_MS;
use triboard::server::limits::LimitSettings;
use triboard::server::passwords::session_hash;
use triboard::server::service::{Caller, Reply};
use triboard::server::{Service, Store};

use db::{ALL_TABLES, TestDb, TestStore};

/// A service on a fresh store of kind `S`.
fn server<S: TestStore>() -> Service<S> {
    Service::new(S::fresh("lobby", false).0)
}

/// Signs `name` up and returns its caller and session.
fn signup<S: Store>(server: &mut Service<S>, name: &str) -> (Caller, String) {
    let reply = server.handle_as(
        ClientMessage::Signup { name: name.into(), password: format!("{name} secret pw"), claim: Vec::new() },
        &Caller::default(),
        1000,
    );
    let Some(Some(account)) = reply.account else { panic!("{reply:?}") };
    let ServerMessage::SignedIn { session, .. } = &reply.messages[0] else { panic!("{reply:?}") };
    (Caller { account: Some(account), ..Caller::default() }, session.clone())
}

fn challenge(game: &str, rated: bool, request_id: Option<&str>) -> ClientMessage {
    new_game(game, rated, true, request_id)
}

fn new_game(game: &str, rated: bool, lobby: bool, request_id: Option<&str>) -> ClientMessage {
    ClientMessage::Create(NewGame { rated, lobby, request_id: request_id.map(rid), ..NewGame::of(game) })
}

/// A request id of the form the server takes (128 bits as hex), named by `tag`.
fn rid(tag: &str) -> String {
    session_hash(tag)[..32].to_string()
}

/// The game id and token of a `created` or `joined` reply.
fn seat_of(reply: &Reply) -> (String, String) {
    match &reply.messages[0] {
        ServerMessage::Created { game_id, token, .. } | ServerMessage::Joined { game_id, token, .. } => {
            (game_id.clone(), token.clone())
        }
        other => panic!("not a seat: {other:?}"),
    }
}

fn lobby<S: Store>(server: &mut Service<S>) -> LobbyView {
    match server.handle_at(ClientMessage::Lobby {}, 0).messages.remove(0) {
        ServerMessage::Lobby(view) => view,
        other => panic!("{other:?}"),
    }
}

fn code_of(reply: &Reply) -> ErrorCode {
    reply.error().unwrap_or_else(|| panic!("not refused: {reply:?}")).0
}

/// Plays a Trike game's opening: seat 0's first move (`d4`) and seat 1's swap, so that every
/// seat has moved and an ending is no longer an abort.
fn open_trike<S: Store>(server: &mut Service<S>, game_id: &str, tokens: [&str; 2], at_ms: u64) {
    for (ply, (token, text)) in tokens.iter().zip(["d4", "swap"]).enumerate() {
        let mv =
            ClientMessage::Move { game_id: game_id.into(), token: (*token).into(), text: text.into(), ply: ply as u32 };
        let reply = server.handle_at(mv, at_ms);
        assert!(reply.error().is_none(), "{reply:?}");
    }
}

/// A rated challenge accepted by Bob: the game id and Ann's and Bob's tokens.
fn rated_pair<S: Store>(
    s: &mut Service<S>,
    ann: &Caller,
    bob: &Caller,
    clock: Option<Clock>,
) -> (String, String, String) {
    let made = s.handle_as(
        ClientMessage::Create(NewGame { rated: true, lobby: true, clock, ..NewGame::of("trike") }),
        ann,
        2000,
    );
    let (game_id, ann_token) = seat_of(&made);
    let accepted = s.handle_as(ClientMessage::Accept { game_id: game_id.clone(), request_id: None }, bob, 3000);
    let (_, bob_token) = seat_of(&accepted);
    (game_id, ann_token, bob_token)
}

fn profile_of<S: Store>(s: &mut Service<S>, name: &str) -> ProfileView {
    match s.handle_at(ClientMessage::Profile { name: name.into() }, 9000).messages.remove(0) {
        ServerMessage::Profile(profile) => profile,
        other => panic!("{other:?}"),
    }
}

fn a_rated_game_resigned_before_every_seat_moved_is_aborted_and_unrated<S: TestStore>() {
    let mut s = server::<S>();
    let (ann, _) = signup(&mut s, "Ann");
    let (bob, _) = signup(&mut s, "Bob");
    // Resigned with no move: aborted, nobody wins, no rating moves.
    let (game_id, ann_token, bob_token) = rated_pair(&mut s, &ann, &bob, None);
    let resigned = s.handle_at(ClientMessage::Resign { game_id: game_id.clone(), token: ann_token.clone() }, 4000);
    assert!(!resigned.messages.iter().any(|m| matches!(m, ServerMessage::Rated { .. })), "{resigned:?}");
    let Some(ServerMessage::State(end)) = resigned.messages.first() else { panic!("{resigned:?}") };
    let outcome = end.outcome.clone().expect("over");
    assert!(outcome.aborted && outcome.winners.is_empty(), "{outcome:?}");
    assert_eq!(outcome.resigned, Some(0));
    // After one move, still aborted: Bob has not moved.
    let (second, ann2, _) = rated_pair(&mut s, &ann, &bob, None);
    let mv = ClientMessage::Move { game_id: second.clone(), token: ann2.clone(), text: "d4".into(), ply: 0 };
    assert!(s.handle_at(mv, 3500).error().is_none());
    let resigned = s.handle_at(ClientMessage::Resign { game_id: second.clone(), token: ann2 }, 4000);
    assert!(!resigned.messages.iter().any(|m| matches!(m, ServerMessage::Rated { .. })), "{resigned:?}");
    for name in ["Ann", "Bob"] {
        let page = profile_of(&mut s, name);
        assert!(page.ratings.is_empty(), "no rated game for {name}: {page:?}");
        assert!(page.games.iter().all(|g| g.aborted && g.winners.is_empty()), "{page:?}");
    }
    // After a move and the swap (each player has moved): rated.
    let (third, ann3, bob3) = rated_pair(&mut s, &ann, &bob, None);
    open_trike(&mut s, &third, [&ann3, &bob3], 3500);
    let resigned = s.handle_at(ClientMessage::Resign { game_id: third, token: ann3 }, 4000);
    let Some(ServerMessage::Rated { changes, .. }) = resigned.messages.last() else { panic!("{resigned:?}") };
    assert!(changes[0].after < changes[0].before && changes[1].after > changes[1].before, "{changes:?}");
    assert_eq!(profile_of(&mut s, "Ann").ratings[0].games, 1, "one rated game, the aborted ones not counted");
    let _ = bob_token;
}

fn a_first_move_not_made_in_time_aborts_the_game_unrated<S: TestStore>() {
    let mut s = server::<S>();
    let (ann, _) = signup(&mut s, "Ann");
    let (bob, _) = signup(&mut s, "Bob");
    let clock = Clock { minutes: 5, increment_s: 0 };
    let (game_id, ann_token, _) = rated_pair(&mut s, &ann, &bob, Some(clock));
    // Accepted at 3000: Ann's first move is due by 3000 + FIRST_MOVE_MS, not on her 5 minutes.
    assert_eq!(s.next_deadline(), Some(3000 + FIRST_MOVE_MS));
    let mv = ClientMessage::Move { game_id: game_id.clone(), token: ann_token, text: "d4".into(), ply: 0 };
    let moved = s.handle_at(mv, 50_000);
    let Some(ServerMessage::Moved { clock_ms, .. }) = moved.messages.first() else { panic!("{moved:?}") };
    assert_eq!(clock_ms.as_deref(), Some(&[300_000, 300_000][..]), "the first move costs no clock time");
    // Bob never moves: his first-move time runs out, the game is aborted.
    assert_eq!(s.next_deadline(), Some(50_000 + FIRST_MOVE_MS));
    assert!(s.sweep(50_000 + FIRST_MOVE_MS - 1).is_empty());
    let ended = s.sweep(50_000 + FIRST_MOVE_MS);
    let [end] = &ended[..] else { panic!("{ended:?}") };
    assert!(!end.messages.iter().any(|m| matches!(m, ServerMessage::Rated { .. })), "{end:?}");
    let Some(ServerMessage::State(state)) = end.messages.first() else { panic!("{end:?}") };
    let outcome = state.outcome.clone().expect("over");
    assert!(outcome.aborted && outcome.winners.is_empty() && outcome.flagged == Some(1), "{outcome:?}");
    assert!(profile_of(&mut s, "Bob").ratings.is_empty());
}

fn a_rated_challenge_is_accepted_from_the_lobby_and_changes_both_ratings<S: TestStore>() {
    let mut s = server::<S>();
    let (ann, _) = signup(&mut s, "Ann");
    let (bob, _) = signup(&mut s, "Bob");
    assert_eq!(code_of(&s.handle_at(challenge("trike", true, None), 0)), ErrorCode::NotSignedIn, "a guest");
    let made = s.handle_as(challenge("trike", true, None), &ann, 2000);
    let (game_id, ann_token) = seat_of(&made);
    let view = lobby(&mut s);
    assert_eq!(view.challenges.len(), 1);
    let listed = &view.challenges[0];
    assert_eq!((listed.game_id.as_str(), listed.rated), (game_id.as_str(), true));
    assert_eq!(listed.players, [Some("Ann".to_string()), None]);
    // A newcomer's challenge shows the rating she starts from, provisional: 1500?.
    assert_eq!((listed.ratings[0], listed.provisional[0]), (Some(1500), true), "{listed:?}");
    let guest = s.handle_at(ClientMessage::Accept { game_id: game_id.clone(), request_id: None }, 2500);
    assert_eq!(code_of(&guest), ErrorCode::NotSignedIn, "a rated seat needs an account");
    let again = s.handle_as(ClientMessage::Accept { game_id: game_id.clone(), request_id: None }, &ann, 2500);
    assert_eq!(code_of(&again), ErrorCode::BadSeat, "nobody plays themselves rated");
    let accepted = s.handle_as(ClientMessage::Accept { game_id: game_id.clone(), request_id: None }, &bob, 3000);
    let ServerMessage::State(state) = &accepted.messages[1] else { panic!("{accepted:?}") };
    assert_eq!(state.players[1].player.as_deref(), Some("Bob"));
    assert!(state.rated);
    let view = lobby(&mut s);
    assert!(view.challenges.is_empty(), "taken: no longer open");
    assert_eq!(view.live.len(), 1, "and live, to watch");
    // Ann resigns after each has moved: Bob wins, both ratings move.
    let (_, bob_token) = seat_of(&accepted);
    open_trike(&mut s, &game_id, [&ann_token, &bob_token], 3500);
    let resigned = s.handle_at(ClientMessage::Resign { game_id: game_id.clone(), token: ann_token }, 4000);
    let Some(ServerMessage::Rated { changes, .. }) = resigned.messages.last() else { panic!("{resigned:?}") };
    assert_eq!(changes.len(), 2);
    assert!(changes[0].after < changes[0].before && changes[1].after > changes[1].before, "{changes:?}");
    assert!(changes.iter().all(|c| c.provisional));
    let broadcast = resigned.broadcast.expect("the followers hear it");
    assert!(matches!(broadcast.messages.last(), Some(ServerMessage::Rated { .. })));
    let board = s.handle_at(ClientMessage::Leaderboard { game: "trike".into() }, 5000);
    let ServerMessage::Leaderboard { rows, .. } = &board.messages[0] else { panic!("{board:?}") };
    let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["Bob", "Ann"]);
    assert!(rows[0].shown().ends_with('?') && rows[0].rating > 1500 && rows[1].rating < 1500);
    let page = s.handle_at(ClientMessage::Profile { name: "bob".into() }, 5000);
    let ServerMessage::Profile(profile) = &page.messages[0] else { panic!("{page:?}") };
    assert_eq!((profile.name.as_str(), profile.games.len(), profile.ratings.len()), ("Bob", 1, 1));
    assert_eq!(profile.games[0].winners, [1]);
    assert!(lobby(&mut s).live.is_empty(), "over: not live");
    // Bob's next challenge lists his rating, still provisional after one game; a newcomer has none.
    s.handle_as(challenge("trike", true, None), &bob, 6000);
    let view = lobby(&mut s);
    let listed = &view.challenges[0];
    assert_eq!((listed.ratings[0], listed.provisional[0]), (Some(rows[0].rating), true), "{listed:?}");
    assert_eq!((listed.ratings[1], listed.provisional[1]), (None, false), "a free seat");
}

/// A player's page lists each rated game with the ratings its players had when it was played, not
/// today's.
fn a_players_page_lists_a_game_with_the_ratings_it_was_played_at<S: TestStore>() {
    let mut s = server::<S>();
    let (ann, _) = signup(&mut s, "Ann");
    let (bob, _) = signup(&mut s, "Bob");
    let (game_id, ann_token) = seat_of(&s.handle_as(challenge("trike", true, None), &ann, 2000));
    let accepted = ClientMessage::Accept { game_id: game_id.clone(), request_id: None };
    let (_, bob_token) = seat_of(&s.handle_as(accepted, &bob, 2500));
    for (ply, (token, text)) in [(&ann_token, "d7"), (&bob_token, "swap")].into_iter().enumerate() {
        let played =
            ClientMessage::Move { game_id: game_id.clone(), token: token.clone(), text: text.into(), ply: ply as u32 };
        assert!(s.handle_at(played, 3000 + ply as u64).error().is_none(), "{text}");
    }
    let resigned = s.handle_at(ClientMessage::Resign { game_id: game_id.clone(), token: ann_token }, 4000);
    assert!(matches!(resigned.messages.last(), Some(ServerMessage::Rated { .. })), "{resigned:?}");
    let page = s.handle_at(ClientMessage::Profile { name: "bob".into() }, 5000);
    let ServerMessage::Profile(profile) = &page.messages[0] else { panic!("{page:?}") };
    assert!(profile.ratings[0].rating > 1500, "today's rating moved: {profile:?}");
    let listed = &profile.games[0];
    assert_eq!(listed.ratings, [Some(1500), Some(1500)], "the ratings the game was played at: {listed:?}");
    assert_eq!(listed.provisional, [true, true]);
}

fn a_rated_three_player_trigon_game_plays_on_after_a_resignation_and_rates_by_place<S: TestStore>() {
    let mut s = server::<S>();
    let callers: Vec<Caller> = ["Ann", "Bob", "Cyd"].iter().map(|n| signup(&mut s, n).0).collect();
    let (game_id, token) = seat_of(&s.handle_as(challenge("trigon-3", true, None), &callers[0], 0));
    let mut tokens = vec![token];
    for caller in &callers[1..] {
        let reply = s.handle_as(ClientMessage::Accept { game_id: game_id.clone(), request_id: None }, caller, 10);
        tokens.push(seat_of(&reply).1);
    }
    // The server's moves played on a board of our own, to choose each next move from.
    let mut board = position::start("trigon-3").unwrap();
    let mut rng = rng_from_seed(47);
    let mut rated = None;
    let mut at = 100;
    while rated.is_none() {
        at += 1;
        let ply = board.ply();
        if ply == 4 {
            // Every seat has moved; Bob (seat 1, not to move: Ann is) resigns and is out.
            assert_eq!(board.to_move().map(|p| p.0), Some(1), "ply 4: Yellow's turn");
        }
        if ply == 5 {
            assert_eq!(board.to_move().map(|p| p.0), Some(2));
            let reply = s.handle_at(ClientMessage::Resign { game_id: game_id.clone(), token: tokens[1].clone() }, at);
            let Some(ServerMessage::State(state)) = reply.messages.last() else { panic!("{reply:?}") };
            assert!(state.outcome.is_none(), "the game goes on: {state:?}");
            assert_eq!(state.out, [SeatOut { seat: 1, ply: 5, how: OutHow::Resigned }]);
            let again = s.handle_at(ClientMessage::Resign { game_id: game_id.clone(), token: tokens[1].clone() }, at);
            assert_eq!(code_of(&again), ErrorCode::GameOver, "out already");
        }
        let Some(seat) = board.to_move() else { panic!("the server's game ended unrated") };
        assert!(ply < 6 || seat.0 != 1, "Yellow is out: its turns are skipped ({ply})");
        let text = board.random_move_text(&mut rng);
        let mv = ClientMessage::Move {
            game_id: game_id.clone(),
            token: tokens[usize::from(seat.0)].clone(),
            text,
            ply: ply as u32,
        };
        let reply = s.handle_at(mv, at);
        assert!(reply.error().is_none(), "{reply:?}");
        follow(&mut board, &reply.messages);
        rated = reply.messages.iter().find_map(|m| match m {
            ServerMessage::Rated { changes, .. } => Some(changes.clone()),
            _ => None,
        });
    }
    let stored = s.store().load_game(&game_id).unwrap().unwrap();
    assert_eq!(stored.moves.iter().filter(|m| *m == "retire").count(), 1, "Yellow retired once");
    assert!(stored.moves.len() > 30, "played on to the end: {} moves", stored.moves.len());
    let changes = rated.unwrap();
    assert_eq!(changes.len(), 3);
    assert!(changes[1].after < changes[1].before, "the resigner is last: {changes:?}");
    assert!(changes.iter().all(|c| changes[1].after - changes[1].before <= c.after - c.before), "{changes:?}");
    let watched = s.handle_at(ClientMessage::Watch { game_id: game_id.clone() }, at + 1);
    let Some(ServerMessage::State(end)) = watched.messages.first() else { panic!("{watched:?}") };
    let outcome = end.outcome.clone().expect("over by the rules");
    assert_eq!((outcome.resigned, outcome.out.len(), outcome.scores.len()), (None, 1, 3), "{outcome:?}");
    assert!(!outcome.winners.contains(&1));
}

fn a_flag_in_a_three_player_game_takes_that_seat_out_and_the_others_play_on<S: TestStore>() {
    let mut s = server::<S>();
    let clock = Some(Clock { minutes: 1, increment_s: 0 });
    let made = s.handle_at(ClientMessage::Create(NewGame { clock, ..NewGame::of("trigon-3") }), 0);
    let ServerMessage::Created { game_id, code, token, .. } = &made.messages[0] else { panic!("{made:?}") };
    let (game_id, mut tokens) = (game_id.clone(), vec![token.clone()]);
    for _ in 0..2 {
        tokens.push(seat_of(&s.handle_at(ClientMessage::Join { code: code.clone(), request_id: None }, 10)).1);
    }
    let mut board = position::start("trigon-3").unwrap();
    let mut rng = rng_from_seed(3);
    let mut play = |s: &mut Service<S>, board: &mut Box<dyn position::Position>, at: u64| {
        let seat = usize::from(board.to_move().unwrap().0);
        let (text, ply) = (board.random_move_text(&mut rng), board.ply() as u32);
        let reply =
            s.handle_at(ClientMessage::Move { game_id: game_id.clone(), token: tokens[seat].clone(), text, ply }, at);
        assert!(reply.error().is_none(), "{reply:?}");
        follow(board, &reply.messages);
    };
    for k in 0..3 {
        play(&mut s, &mut board, 1000 + k);
    }
    // Every seat moved; Blue's minute runs from the last first move.
    assert_eq!(s.next_deadline(), Some(1002 + 60_000));
    let ended = s.sweep(1002 + 60_000);
    let [flag] = &ended[..] else { panic!("{ended:?}") };
    follow(&mut board, &flag.messages);
    let Some(ServerMessage::State(state)) = flag.messages.last() else { panic!("{flag:?}") };
    assert!(state.outcome.is_none(), "the others play on: {state:?}");
    assert_eq!(state.out, [SeatOut { seat: 0, ply: 3, how: OutHow::Flagged }]);
    assert_eq!(board.to_move().map(|p| p.0), Some(1), "Blue retired at its turn, Yellow is to move");
    play(&mut s, &mut board, 62_500);
    assert_eq!(board.to_move().map(|p| p.0), Some(2));
}

/// Plays the server's moves of `messages` on `board`.
fn follow(board: &mut Box<dyn position::Position>, messages: &[ServerMessage]) {
    for m in messages {
        if let ServerMessage::Moved { text, ply, .. } = m {
            assert_eq!(*ply as usize, board.ply(), "{messages:?}");
            board.play_text(text).unwrap();
        }
    }
}

fn names_sessions_and_passwords<S: TestStore>() {
    let mut s = server::<S>();
    let (ann, session) = signup(&mut s, "Ann_1e");
    let taken = s.handle_at(
        ClientMessage::Signup { name: "annie".into(), password: "another password".into(), claim: Vec::new() },
        0,
    );
    assert_eq!(code_of(&taken), ErrorCode::NameTaken, "a look-alike");
    let bad =
        s.handle_at(ClientMessage::Signup { name: "x y".into(), password: "long enough".into(), claim: Vec::new() }, 0);
    assert_eq!(code_of(&bad), ErrorCode::BadName);
    let wrong = ClientMessage::Login { name: "Ann_1e".into(), password: "not it at all".into(), claim: Vec::new() };
    assert_eq!(code_of(&s.handle_at(wrong, 0)), ErrorCode::BadLogin);
    let right = ClientMessage::Login { name: "ANN_1E".into(), password: "Ann_1e secret pw".into(), claim: Vec::new() };
    let login = s.handle_at(right, 0);
    assert_eq!(login.account, Some(ann.account));
    let ServerMessage::SignedIn { session: second, .. } = &login.messages[0] else { panic!("{login:?}") };
    assert_ne!(second, &session, "a new session each sign-in");
    // Sessions act for their own account only; a signed-out one for none.
    let (bob, bob_session) = signup(&mut s, "Bob");
    let resumed = s.handle_at(ClientMessage::Resume { session: bob_session.clone(), claim: Vec::new() }, 0);
    assert_eq!(resumed.account, Some(bob.account));
    assert!(matches!(&resumed.messages[0], ServerMessage::SignedIn { name, .. } if name == "Bob"));
    s.handle_at(ClientMessage::Logout { session: bob_session.clone() }, 0);
    let gone = s.handle_at(ClientMessage::Resume { session: bob_session, claim: Vec::new() }, 0);
    assert_eq!(code_of(&gone), ErrorCode::BadSession);
    let still = s.handle_at(ClientMessage::Resume { session: session.clone(), claim: Vec::new() }, 0);
    assert_eq!(still.account, Some(ann.account), "Bob's sign-out ends Bob's session only");
    let fake = s.handle_at(ClientMessage::Resume { session: "0".repeat(32), claim: Vec::new() }, 0);
    assert_eq!(code_of(&fake), ErrorCode::BadSession);
}

fn signing_in_claims_the_seats_a_guest_held<S: TestStore>() {
    let mut s = server::<S>();
    let (game_id, token) = seat_of(&s.handle_at(challenge("trike", false, None), 0));
    let reply = s.handle_at(
        ClientMessage::Signup { name: "Dee".into(), password: "dee's password".into(), claim: vec![token] },
        0,
    );
    assert!(matches!(reply.messages[0], ServerMessage::SignedIn { claimed: 1, .. }), "{reply:?}");
    let watched = s.handle_at(ClientMessage::Watch { game_id }, 0);
    let ServerMessage::State(state) = &watched.messages[0] else { panic!("{watched:?}") };
    assert_eq!(state.players[0].player.as_deref(), Some("Dee"));
}

fn a_request_sent_again_is_answered_again_not_doubled<S: TestStore>() {
    let mut s = server::<S>();
    let first = s.handle_at(challenge("trike", false, Some("req-1")), 0);
    let again = s.handle_at(challenge("trike", false, Some("req-1")), 5);
    assert_eq!(seat_of(&first), seat_of(&again));
    assert_eq!(lobby(&mut s).challenges.len(), 1, "one game");
    let (game_id, _) = seat_of(&first);
    let accept = || ClientMessage::Accept { game_id: game_id.clone(), request_id: Some(rid("req-2")) };
    let joined = s.handle_at(accept(), 10);
    let rejoined = s.handle_at(accept(), 20);
    assert_eq!(seat_of(&joined), seat_of(&rejoined), "the same seat, not game_full");
}

fn a_challenge_is_withdrawn_by_its_creator_only<S: TestStore>() {
    let mut s = server::<S>();
    let (game_id, token) = seat_of(&s.handle_at(challenge("tricore", false, None), 0));
    let stranger = s.handle_at(ClientMessage::Withdraw { game_id: game_id.clone(), token: "f".repeat(32) }, 0);
    assert_eq!(code_of(&stranger), ErrorCode::BadToken);
    assert_eq!(lobby(&mut s).challenges.len(), 1);
    assert!(s.handle_at(ClientMessage::Withdraw { game_id: game_id.clone(), token }, 0).error().is_none());
    assert!(lobby(&mut s).challenges.is_empty());
    let gone = s.handle_at(ClientMessage::Accept { game_id, request_id: None }, 0);
    assert_eq!(code_of(&gone), ErrorCode::UnknownGame);
}

fn each_limit_refuses_with_its_error_and_changes_nothing<S: TestStore>() {
    let mut s = server::<S>();
    s.set_limits(LimitSettings {
        games_per_minute: 3,
        free_failures: 2,
        open_challenges: 2,
        ..LimitSettings::default()
    });
    let guest = Caller { addr: Some("10.1.2.3".parse().unwrap()), ..Caller::default() };
    assert!(s.handle_as(challenge("trike", false, None), &guest, 0).error().is_none());
    assert!(s.handle_as(challenge("trike", false, None), &guest, 1).error().is_none());
    let third = s.handle_as(challenge("trike", false, None), &guest, 2);
    assert_eq!(code_of(&third), ErrorCode::Limit, "two open challenges a player");
    assert!(third.error().unwrap().1.contains("withdraw"));
    let mut private = |at| s.handle_as(new_game("trike", false, false, None), &guest, at);
    assert!(private(3).error().is_none());
    let over = private(4);
    assert_eq!(code_of(&over), ErrorCode::Limit, "three games a minute: {over:?}");
    assert!(over.error().unwrap().1.contains("a minute"));
    assert_eq!(lobby(&mut s).challenges.len(), 2, "nothing changed");
    signup(&mut s, "Eve");
    let login = |s: &mut Service<S>| {
        let wrong = ClientMessage::Login { name: "eve".into(), password: "guessing it".into(), claim: Vec::new() };
        s.handle_at(wrong, 100)
    };
    assert_eq!(code_of(&login(&mut s)), ErrorCode::BadLogin);
    assert_eq!(code_of(&login(&mut s)), ErrorCode::BadLogin);
    let slowed = login(&mut s);
    assert_eq!(code_of(&slowed), ErrorCode::Limit, "two wrong passwords, then a wait: {slowed:?}");
    assert!(slowed.error().unwrap().1.contains("2 wrong passwords for this name from this address"));
}

fn no_password_is_stored_and_only_session_hashes_are<S: TestStore>() {
    let (store, db) = S::fresh("passwords", true);
    let mut s = Service::new(store);
    let (_, session) = signup(&mut s, "Fay");
    drop(s);
    // SQLite: the file and its log, bytes; PostgreSQL: every row of every table.
    let text = match &db {
        TestDb::File(file) => {
            let bytes: Vec<u8> = ["", "-wal"]
                .iter()
                .flat_map(|suffix| std::fs::read(format!("{}{suffix}", file.0.display())).unwrap_or_default())
                .collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
        other => other.dump(ALL_TABLES).join("\n"),
    };
    assert!(text.contains("$argon2id$"), "the hash is there");
    assert!(!text.contains("Fay secret pw"), "the password is not");
    assert!(!text.contains(&session), "nor the session token");
    let store = S::reopen(&db);
    assert!(store.account_by_id(1).unwrap().is_some());
}

fn seek(game: &str, rated: bool) -> ClientMessage {
    ClientMessage::Seek { game: game.into(), options: Value::Null, clock: None, rated, request_id: None }
}

fn quick_pairing_meets_the_nearest_seeker_of_the_same_settings<S: TestStore>() {
    let mut s = server::<S>();
    let (ann, _) = signup(&mut s, "Ann");
    let (bob, _) = signup(&mut s, "Bob");
    let (cyd, _) = signup(&mut s, "Cyd");
    // Nobody waits: Ann's seek is posted as a challenge.
    let posted = s.handle_as(seek("trike", true), &ann, 0);
    assert!(matches!(posted.messages[0], ServerMessage::Created { .. }), "{posted:?}");
    let (game_id, _) = seat_of(&posted);
    // Other settings do not meet it: another game, casual, and Ann herself.
    assert!(matches!(s.handle_as(seek("trisq", true), &bob, 1).messages[0], ServerMessage::Created { .. }));
    assert_eq!(lobby(&mut s).challenges.len(), 2);
    let own = s.handle_as(seek("trike", true), &ann, 2);
    assert!(matches!(own.messages[0], ServerMessage::Created { .. }), "one's own challenge is not taken");
    // Cyd's seek takes Ann's first challenge (the nearest rating, both new; the oldest first).
    let paired = s.handle_as(seek("trike", true), &cyd, 3);
    let ServerMessage::Joined { game_id: joined, seat, .. } = &paired.messages[0] else { panic!("{paired:?}") };
    assert_eq!((joined, *seat), (&game_id, 1));
    let guest = s.handle_at(seek("trike", true), 4);
    assert_eq!(code_of(&guest), ErrorCode::NotSignedIn);
}

fn bots_are_seated_at_once_and_a_rated_game_seats_each_once<S: TestStore>() {
    let mut s = server::<S>();
    let bots = vec!["TriboardAI-1".to_string(), "TriboardAI-3".to_string()];
    assert!(s.set_bots(&bots).unwrap().is_empty(), "no seats held yet");
    let (ann, _) = signup(&mut s, "Ann");
    let create =
        |bots: Vec<String>, rated: bool| ClientMessage::Create(NewGame { rated, bots, ..NewGame::of("trigon-3") });
    let twice = s.handle_as(create(vec![bots[0].clone(), bots[0].clone()], true), &ann, 0);
    assert_eq!(code_of(&twice), ErrorCode::BadSeat);
    let unknown = s.handle_as(create(vec!["TriboardAI-6".into()], false), &ann, 0);
    assert_eq!(code_of(&unknown), ErrorCode::UnknownPlayer);
    let made = s.handle_as(create(bots.clone(), true), &ann, 0);
    assert_eq!(made.bots.len(), 2, "{made:?}");
    assert_eq!((made.bots[0].seat, made.bots[1].seat), (1, 2));
    let ServerMessage::State(state) = &made.messages[1] else { panic!("{made:?}") };
    assert!(state.players.iter().all(|p| p.taken), "every seat taken: the game starts");
    assert_eq!(state.players[2].player.as_deref(), Some("TriboardAI-3"));
    // After a restart the bots find their seats again.
    let held = s.set_bots(&bots).unwrap();
    assert_eq!(held.len(), 2);
}

fn a_rematch_keeps_each_account_with_its_token_and_its_rating<S: TestStore>() {
    let mut s = server::<S>();
    let (ann, _) = signup(&mut s, "Ann");
    let (bob, _) = signup(&mut s, "Bob");
    let made = s.handle_as(new_game("trike", true, true, Some("ann-req")), &ann, 0);
    let (game_id, ann_token) = seat_of(&made);
    let accepted =
        s.handle_as(ClientMessage::Accept { game_id: game_id.clone(), request_id: Some(rid("bob-req")) }, &bob, 1);
    let (_, bob_token) = seat_of(&accepted);
    s.handle_at(ClientMessage::Resign { game_id: game_id.clone(), token: bob_token.clone() }, 2);
    let reply = s.handle_at(ClientMessage::Rematch { game_id: game_id.clone(), token: ann_token.clone() }, 3);
    let ServerMessage::Rematched { game_id: rematch, seat, .. } = &reply.messages[0] else { panic!("{reply:?}") };
    assert_eq!(*seat, 1, "seats move on by one");
    let watched = s.handle_at(ClientMessage::Watch { game_id: rematch.clone() }, 4);
    let ServerMessage::State(state) = &watched.messages[0] else { panic!("{watched:?}") };
    assert_eq!(state.players[0].player.as_deref(), Some("Bob"));
    assert_eq!(state.players[1].player.as_deref(), Some("Ann"));
    assert!(state.rated);
    assert!(lobby(&mut s).challenges.is_empty(), "a rematch is no open challenge");
    open_trike(&mut s, rematch, [&bob_token, &ann_token], 5);
    let resigned = s.handle_at(ClientMessage::Resign { game_id: rematch.clone(), token: ann_token }, 5);
    let Some(ServerMessage::Rated { changes, .. }) = resigned.messages.last() else { panic!("{resigned:?}") };
    assert_eq!((changes[0].name.as_str(), changes[1].name.as_str()), ("Bob", "Ann"));
    assert!(changes[0].after > changes[0].before, "Bob wins the rematch: {changes:?}");
}

// ---- Each test above that takes a store, on both ----

on_both_stores!(
    a_rated_game_resigned_before_every_seat_moved_is_aborted_and_unrated,
    a_first_move_not_made_in_time_aborts_the_game_unrated,
    a_rated_challenge_is_accepted_from_the_lobby_and_changes_both_ratings,
    a_players_page_lists_a_game_with_the_ratings_it_was_played_at,
    a_rated_three_player_trigon_game_plays_on_after_a_resignation_and_rates_by_place,
    a_flag_in_a_three_player_game_takes_that_seat_out_and_the_others_play_on,
    names_sessions_and_passwords,
    signing_in_claims_the_seats_a_guest_held,
    a_request_sent_again_is_answered_again_not_doubled,
    a_challenge_is_withdrawn_by_its_creator_only,
    each_limit_refuses_with_its_error_and_changes_nothing,
    no_password_is_stored_and_only_session_hashes_are,
    quick_pairing_meets_the_nearest_seeker_of_the_same_settings,
    bots_are_seated_at_once_and_a_rated_game_seats_each_once,
    a_rematch_keeps_each_account_with_its_token_and_its_rating,
);
